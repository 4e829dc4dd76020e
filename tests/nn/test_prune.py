"""volta.nn.utils.prune against torch.nn.utils.prune: the deterministic methods (L1, Ln
structured, custom masks, identity, global L1) give PyTorch's masks, state_dict keys, outputs
and gradients, also when stacked in a PruningContainer and after remove(); the random methods
prune the right amount; errors as PyTorch's."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
import pytest
import torch
import torch.nn.utils.prune as tprune

import volta
import volta.nn.utils.prune as vprune
from tests.nn.parity import close, model_pair, raises_like_torch, state_layout


def _conv(lib: object) -> object:
    return lib.nn.Conv2d(3, 4, 2)


def _check_same(t_model: object, v_model: object, shape: tuple) -> None:
    assert state_layout(v_model) == state_layout(t_model)
    for v, t in zip(v_model.state_dict().values(), t_model.state_dict().values()):
        close(v, t, 0, 0)
    x = np.random.default_rng(0).standard_normal(shape)
    t_out, v_out = t_model(torch.tensor(x)), v_model(volta.tensor(x))
    close(v_out, t_out, 1e-12, 1e-12)
    t_out.sum().backward()
    v_out.sum().backward()
    t_params = dict(t_model.named_parameters())
    for name, v in v_model.named_parameters():
        close(v.grad, t_params[name].grad, 1e-12, 1e-12)


PRUNINGS: list[tuple[str, Callable[[object, object], object]]] = [
    ("l1-fraction", lambda p, m: p.l1_unstructured(m, "weight", amount=0.3)),
    ("l1-count", lambda p, m: p.l1_unstructured(m, "bias", amount=2)),
    ("ln-dim0", lambda p, m: p.ln_structured(m, "weight", amount=0.5, n=2, dim=0)),
    ("ln-dim-1-l1", lambda p, m: p.ln_structured(m, "weight", amount=1, n=1, dim=-1)),
    ("identity", lambda p, m: p.identity(m, "weight")),
    ("stacked", lambda p, m: p.ln_structured(p.l1_unstructured(m, "weight", amount=0.25),
                                             "weight", amount=1, n=2, dim=1)),
    ("stacked-three", lambda p, m: p.l1_unstructured(p.l1_unstructured(p.l1_unstructured(
        m, "weight", amount=5), "weight", amount=0.2), "weight", amount=3)),
]


@pytest.mark.parametrize(("label", "prune"), PRUNINGS, ids=[p[0] for p in PRUNINGS])
def test_pruning_matches_torch(label: str, prune: Callable) -> None:
    t_model, v_model = model_pair(_conv)
    prune(tprune, t_model)
    prune(vprune, v_model)
    assert vprune.is_pruned(v_model)
    _check_same(t_model, v_model, (2, 3, 4, 4))
    name = "bias" if label == "l1-count" else "weight"
    tprune.remove(t_model, name)
    vprune.remove(v_model, name)
    assert not vprune.is_pruned(v_model)
    assert isinstance(getattr(v_model, name), volta.nn.Parameter)
    _check_same(t_model, v_model, (2, 3, 4, 4))


def test_custom_and_global_pruning_match_torch() -> None:
    def build(lib: object) -> object:
        return lib.nn.Sequential(lib.nn.Linear(4, 5), lib.nn.Tanh(), lib.nn.Linear(5, 3))

    t_model, v_model = model_pair(build)
    mask = np.random.default_rng(1).uniform(size=(5, 4)) < 0.6
    tprune.custom_from_mask(t_model[0], "weight", torch.tensor(mask))
    vprune.custom_from_mask(v_model[0], "weight", volta.tensor(mask))
    for prune, model in ((tprune, t_model), (vprune, v_model)):
        prune.global_unstructured([(model[0], "weight"), (model[2], "weight")],
                                  pruning_method=prune.L1Unstructured, amount=0.4)
    _check_same(t_model, v_model, (3, 4))
    assert isinstance(v_model[0]._forward_pre_hooks[
        next(iter(v_model[0]._forward_pre_hooks))], vprune.PruningContainer)


def test_importance_scores_and_prune_method_like_torch() -> None:
    t_model, v_model = model_pair(lambda lib: lib.nn.Linear(4, 3))
    scores = np.random.default_rng(2).standard_normal((3, 4))
    tprune.l1_unstructured(t_model, "weight", 5, importance_scores=torch.tensor(scores))
    vprune.l1_unstructured(v_model, "weight", 5, importance_scores=volta.tensor(scores))
    _check_same(t_model, v_model, (2, 4))
    values = np.random.default_rng(3).standard_normal((4, 6))
    close(vprune.LnStructured(2, n=1, dim=1).prune(volta.tensor(values)),
          tprune.LnStructured(2, n=1, dim=1).prune(torch.tensor(values)), 0, 0)


def test_random_pruning_prunes_the_amount() -> None:
    volta.manual_seed(0)
    layer = vprune.random_unstructured(volta.nn.Linear(10, 6), "weight", amount=0.25)
    assert int((layer.weight_mask == 0).sum().item()) == 15
    assert int((layer.weight == 0).sum().item()) >= 15
    layer = vprune.random_structured(volta.nn.Conv2d(3, 8, 2), "weight", amount=3, dim=0)
    pruned_channels = (layer.weight_mask.sum(dim=[1, 2, 3]) == 0).numpy()
    assert pruned_channels.sum() == 3
    assert list(layer.state_dict()) == ["bias", "weight_orig", "weight_mask"]


@pytest.mark.parametrize("call", [
    lambda p, lib: p.l1_unstructured(lib.nn.Linear(2, 2), "weight", amount=1.5),
    lambda p, lib: p.l1_unstructured(lib.nn.Linear(2, 2), "weight", amount=-1),
    lambda p, lib: p.l1_unstructured(lib.nn.Linear(2, 2), "weight", amount="half"),
    lambda p, lib: p.l1_unstructured(lib.nn.Linear(2, 2), "weight", amount=5),
    lambda p, lib: p.ln_structured(lib.nn.Linear(2, 2), "bias", amount=1, n=2, dim=0),
    lambda p, lib: p.ln_structured(lib.nn.Linear(2, 2), "weight", amount=1, n=2, dim=3),
    lambda p, lib: p.remove(lib.nn.Linear(2, 2), "weight"),
    lambda p, lib: p.l1_unstructured(lib.nn.Linear(2, 2), "weight", 1,
                                     importance_scores=lib.ones(3)),
    lambda p, lib: p.global_unstructured([(lib.nn.Linear(2, 2), "weight")],
                                         pruning_method=p.LnStructured, amount=1, n=2),
])
def test_pruning_errors_like_torch(call: Callable) -> None:
    raises_like_torch(lambda lib: call(tprune if lib is torch else vprune, lib))


def test_a_failed_pruning_restores_the_parameter_like_torch() -> None:
    t_layer, v_layer = model_pair(lambda lib: lib.nn.Linear(2, 2))
    with pytest.raises(ValueError):
        tprune.l1_unstructured(t_layer, "weight", amount=5)
    with pytest.raises(volta.VoltaError):
        vprune.l1_unstructured(v_layer, "weight", amount=5)
    assert state_layout(v_layer) == state_layout(t_layer)  # re-registered last, as in torch
    assert not vprune.is_pruned(v_layer) and isinstance(v_layer.weight, volta.nn.Parameter)
