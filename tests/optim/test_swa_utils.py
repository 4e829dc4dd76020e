"""swa_utils: AveragedModel (running mean, EMA, per-tensor avg_fn, use_buffers) and update_bn
give the same weights and statistics as torch.optim.swa_utils on the same model."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
import torch

import volta
from volta.optim import swa_utils

TOL = dict(rtol=1e-12, atol=1e-13)


def _model_pair() -> tuple[volta.nn.Module, torch.nn.Module]:
    torch.manual_seed(0)
    reference = torch.nn.Sequential(torch.nn.Linear(3, 4), torch.nn.BatchNorm1d(4),
                                    torch.nn.ReLU(), torch.nn.Linear(4, 2)).double()
    model = volta.nn.Sequential(volta.nn.Linear(3, 4), volta.nn.BatchNorm1d(4),
                                volta.nn.ReLU(), volta.nn.Linear(4, 2)).to(volta.float64)
    model.load_state_dict({k: volta.tensor(v.numpy()) for k, v in reference.state_dict().items()})
    return model, reference


def _train_step(model: volta.nn.Module, reference: torch.nn.Module, step: int) -> None:
    """Move both models the same way: new weights, and a forward pass that updates BN stats."""
    rng = np.random.default_rng(step)
    with volta.no_grad(), torch.no_grad():
        for (_, v), t in zip(model.named_parameters(), reference.parameters(), strict=True):
            delta = rng.standard_normal(tuple(t.shape)) * 0.1
            v.add_(volta.tensor(delta))
            t.add_(torch.tensor(delta))
    x = rng.standard_normal((8, 3))
    model.train()
    reference.train()
    model(volta.tensor(x))
    reference(torch.tensor(x))


def _assert_same_state(ours: volta.nn.Module, theirs: torch.nn.Module, **tol: Any) -> None:
    ours_state, theirs_state = ours.state_dict(), theirs.state_dict()
    assert list(ours_state) == list(theirs_state)
    for key, value in ours_state.items():
        np.testing.assert_allclose(value.numpy(), theirs_state[key].numpy(), err_msg=key,
                                   **(tol or TOL))


AVERAGING = {
    "swa": lambda m: dict(),
    "swa-use-buffers": lambda m: dict(use_buffers=True),
    "ema-multi": lambda m: dict(multi_avg_fn=m.get_ema_multi_avg_fn(0.9)),
    "ema-multi-use-buffers": lambda m: dict(multi_avg_fn=m.get_ema_multi_avg_fn(0.8),
                                            use_buffers=True),
    "ema-avg-fn": lambda m: dict(avg_fn=m.get_ema_avg_fn(0.7)),
    "swa-avg-fn": lambda m: dict(avg_fn=m.get_swa_avg_fn()),
    "swa-multi": lambda m: dict(multi_avg_fn=m.get_swa_multi_avg_fn()),
}


@pytest.mark.parametrize("case", list(AVERAGING))
def test_averaged_model_matches_torch(case: str) -> None:
    model, reference = _model_pair()
    averaged = swa_utils.AveragedModel(model, **AVERAGING[case](swa_utils))
    torch_averaged = torch.optim.swa_utils.AveragedModel(
        reference, **AVERAGING[case](torch.optim.swa_utils))
    for step in range(6):
        _train_step(model, reference, step)
        averaged.update_parameters(model)
        torch_averaged.update_parameters(reference)
    assert averaged.n_averaged.dtype == volta.int64 and int(averaged.n_averaged.item()) == 6
    _assert_same_state(averaged, torch_averaged)
    x = np.random.default_rng(9).standard_normal((5, 3))
    averaged.eval()
    torch_averaged.eval()
    np.testing.assert_allclose(averaged(volta.tensor(x)).detach().numpy(),
                               torch_averaged(torch.tensor(x)).detach().numpy(), **TOL)


def test_averaged_model_is_a_copy_and_rejects_two_averaging_functions() -> None:
    model, _ = _model_pair()
    averaged = swa_utils.AveragedModel(model)
    first = next(averaged.module.parameters())
    assert first is not next(model.parameters())
    with pytest.raises(volta.errors.ArgumentError, match="Only one of avg_fn and multi_avg_fn"):
        swa_utils.AveragedModel(model, avg_fn=swa_utils.get_swa_avg_fn(),
                                multi_avg_fn=swa_utils.get_swa_multi_avg_fn())
    with pytest.raises(volta.errors.ArgumentError, match="Invalid decay value"):
        swa_utils.get_ema_multi_avg_fn(1.5)


def test_update_bn_recomputes_running_statistics_like_torch() -> None:
    model, reference = _model_pair()
    rng = np.random.default_rng(4)
    batches = [rng.standard_normal((6, 3)) * (i + 1) for i in range(4)]
    model.eval()
    reference.eval()
    swa_utils.update_bn([(volta.tensor(b), 0) for b in batches], model)
    torch.optim.swa_utils.update_bn([(torch.tensor(b), 0) for b in batches], reference)
    assert not model.training
    assert model[1].momentum == reference[1].momentum == 0.1
    _assert_same_state(model, reference)
    # tensors straight from a loader work too, and a model without batch norm is left alone
    swa_utils.update_bn([volta.tensor(b) for b in batches], model)
    torch.optim.swa_utils.update_bn([torch.tensor(b) for b in batches], reference)
    _assert_same_state(model, reference)
    plain = volta.nn.Linear(2, 2)
    before = plain.weight.detach().numpy().copy()
    swa_utils.update_bn([volta.ones(1, 2)], plain)
    np.testing.assert_array_equal(plain.weight.detach().numpy(), before)
