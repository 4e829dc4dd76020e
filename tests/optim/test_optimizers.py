"""20 steps of every optimizer configuration match torch.optim on the same parameters and grads."""

from __future__ import annotations

import numpy as np
import pytest
import torch

import volta
import volta.optim as optim

CONFIGS = [
    ("SGD", dict(lr=0.1)),
    ("SGD", dict(lr=0.1, momentum=0.9)),
    ("SGD", dict(lr=0.1, momentum=0.9, nesterov=True)),
    ("SGD", dict(lr=0.1, momentum=0.9, dampening=0.3)),
    ("SGD", dict(lr=0.1, momentum=0.5, weight_decay=0.01)),
    ("SGD", dict(lr=0.05, momentum=0.9, weight_decay=0.1, maximize=True)),
    ("Adam", dict(lr=0.01)),
    ("Adam", dict(lr=0.01, weight_decay=0.1)),
    ("Adam", dict(lr=0.01, amsgrad=True)),
    ("Adam", dict(lr=0.01, betas=(0.8, 0.99), maximize=True)),
    ("AdamW", dict(lr=0.01)),
    ("AdamW", dict(lr=0.01, weight_decay=0.1, amsgrad=True)),
    ("RMSprop", dict(lr=0.01)),
    ("RMSprop", dict(lr=0.01, centered=True, momentum=0.9)),
    ("RMSprop", dict(lr=0.01, alpha=0.9, weight_decay=0.1, momentum=0.5)),
    ("Adagrad", dict(lr=0.1)),
    ("Adagrad", dict(lr=0.1, lr_decay=0.01, initial_accumulator_value=0.1, weight_decay=0.1)),
]
TOL = {np.float32: dict(rtol=2e-5, atol=2e-6), np.float64: dict(rtol=1e-12, atol=1e-13)}
SHAPES = [(5, 3), (3,), (2, 2, 2)]


def _params(dtype: type) -> list[np.ndarray]:
    rng = np.random.default_rng(0)
    return [rng.standard_normal(s).astype(dtype) for s in SHAPES]


def _grads(step: int, dtype: type) -> list[np.ndarray]:
    rng = np.random.default_rng(100 + step)
    return [rng.standard_normal(s).astype(dtype) for s in SHAPES]


def _pair(name: str, kwargs: dict, dtype: type) -> tuple:
    vp = [volta.tensor(a, requires_grad=True) for a in _params(dtype)]
    tp = [torch.tensor(a, requires_grad=True) for a in _params(dtype)]
    return vp, getattr(optim, name)(vp, **kwargs), tp, getattr(torch.optim, name)(tp, **kwargs)


def _run(vopt: optim.Optimizer, vp: list, topt: torch.optim.Optimizer | None, tp: list,
         steps: range, dtype: type) -> None:
    for step in steps:
        for i, g in enumerate(_grads(step, dtype)):
            vp[i].grad = volta.tensor(g)
            if topt is not None:
                tp[i].grad = torch.tensor(g)
        vopt.step()
        if topt is not None:
            topt.step()


def _check(vp: list, tp: list, dtype: type) -> None:
    for v, t in zip(vp, tp, strict=True):
        np.testing.assert_allclose(v.detach().numpy(), t.detach().numpy(), **TOL[dtype])


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize(("name", "kwargs"), CONFIGS, ids=[f"{n}-{k}" for n, k in CONFIGS])
def test_twenty_steps_match_torch(name: str, kwargs: dict, dtype: type) -> None:
    vp, vopt, tp, topt = _pair(name, kwargs, dtype)
    _run(vopt, vp, topt, tp, range(20), dtype)
    _check(vp, tp, dtype)


@pytest.mark.parametrize(("name", "kwargs"), CONFIGS, ids=[f"{n}-{k}" for n, k in CONFIGS])
def test_state_dict_round_trip_mid_training(name: str, kwargs: dict) -> None:
    vp, vopt, tp, topt = _pair(name, kwargs, np.float64)
    _run(vopt, vp, topt, tp, range(10), np.float64)
    saved = vopt.state_dict()
    torch_saved = topt.state_dict()
    # same layout as PyTorch's (torch adds implementation switches: foreach, fused, ...)
    for ours, theirs in zip(saved["param_groups"], torch_saved["param_groups"], strict=True):
        assert ours == {k: theirs[k] for k in ours}
    assert saved["state"].keys() == torch_saved["state"].keys()
    for index, state in saved["state"].items():
        assert state.keys() == torch_saved["state"][index].keys()
    # a fresh optimizer on copies of the parameters continues exactly like the original
    fresh = [volta.tensor(p.detach().numpy(), requires_grad=True) for p in vp]
    resumed = getattr(optim, name)(fresh, lr=123.0)
    resumed.load_state_dict(saved)
    assert resumed.param_groups[0]["lr"] == kwargs["lr"]
    _run(vopt, vp, topt, tp, range(10, 20), np.float64)
    _run(resumed, fresh, None, [], range(10, 20), np.float64)
    _check(fresh, tp, np.float64)


def test_param_groups_use_their_own_hyperparameters() -> None:
    a = volta.tensor(np.ones(3), requires_grad=True)
    b = volta.tensor(np.ones(3), requires_grad=True)
    opt = optim.SGD([{"params": [a]}, {"params": [b], "lr": 1.0}], lr=0.1, momentum=0.0)
    assert opt.param_groups[1]["momentum"] == 0.0
    a.grad = volta.ones(3, dtype=volta.float64)
    b.grad = volta.ones(3, dtype=volta.float64)
    opt.step()
    np.testing.assert_allclose(a.detach().numpy(), 0.9)
    np.testing.assert_allclose(b.detach().numpy(), 0.0)
    c = volta.tensor(np.ones(2), requires_grad=True)
    opt.add_param_group({"params": c, "lr": 0.5})
    assert opt.param_groups[2]["params"][0] is c
    with pytest.raises(volta.errors.ArgumentError, match="more than one parameter group"):
        opt.add_param_group({"params": [a]})


def test_zero_grad_and_closure() -> None:
    w = volta.tensor(np.array([1.0, 2.0]), requires_grad=True)
    opt = optim.SGD([w], lr=0.1)

    def closure() -> volta.Tensor:
        opt.zero_grad()
        loss = (w * w).sum()
        loss.backward()
        return loss

    loss = opt.step(closure)
    assert float(loss.item()) == 5.0
    np.testing.assert_allclose(w.detach().numpy(), [0.8, 1.6])
    grad = w.grad
    opt.zero_grad(set_to_none=False)
    assert w.grad is grad
    np.testing.assert_array_equal(w.grad.numpy(), [0.0, 0.0])
    opt.zero_grad()
    assert w.grad is None


def test_update_is_not_recorded_by_autograd_and_keeps_the_grad() -> None:
    w = volta.tensor(np.array([1.0, -1.0]), requires_grad=True)
    w.grad = volta.tensor(np.array([0.5, 0.5]))
    opt = optim.Adam([w], lr=0.1)
    opt.step()
    assert w.grad_fn is None and w.is_leaf
    np.testing.assert_array_equal(w.grad.numpy(), [0.5, 0.5])


def test_invalid_hyperparameters() -> None:
    w = volta.zeros(2, requires_grad=True)
    with pytest.raises(volta.errors.ArgumentError, match="Invalid learning rate"):
        optim.SGD([w], lr=-1)
    with pytest.raises(volta.errors.ArgumentError, match="Nesterov"):
        optim.SGD([w], lr=0.1, nesterov=True)
    with pytest.raises(volta.errors.ArgumentError, match="beta"):
        optim.Adam([w], betas=(1.0, 0.9))
    with pytest.raises(volta.errors.ArgumentError, match="empty"):
        optim.Adam([])
