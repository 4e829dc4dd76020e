"""Adafactor and Muon against PyTorch's (torch.optim.Adafactor / torch.optim.Muon)."""

from __future__ import annotations

import numpy as np
import pytest
import torch

import volta
from volta.errors import VoltaError

RNG = np.random.default_rng(0)
W1 = RNG.standard_normal((6, 4))
W2 = RNG.standard_normal((3, 6))
W3 = RNG.standard_normal((2, 3, 4))
BIAS = RNG.standard_normal(3)
X = RNG.standard_normal((8, 4))
Y = RNG.standard_normal((8, 3))


def _train(lib, optimizer: str, kwargs: dict, dtype: str, steps: int, with_vectors: bool):
    make = lambda a: lib.tensor(a, dtype=getattr(lib, dtype)).requires_grad_()  # noqa: E731
    params = [make(W1), make(W2)]
    if with_vectors:
        params += [make(BIAS), make(W3)]
    opt = getattr(lib.optim, optimizer)(params, **kwargs)
    x, y = lib.tensor(X, dtype=getattr(lib, dtype)), lib.tensor(Y, dtype=getattr(lib, dtype))
    for _ in range(steps):
        opt.zero_grad()
        out = lib.tanh(x @ params[0].t()) @ params[1].t()
        if with_vectors:
            out = out + params[2] + params[3].sum()
        ((out - y) ** 2).mean().backward()
        opt.step()
    return [p.detach().to(lib.float64).numpy() for p in params], opt


@pytest.mark.parametrize("kwargs", [{}, {"lr": 0.05, "weight_decay": 0.1, "d": 2.0},
                                    {"eps": (1e-30, 1e-3), "beta2_decay": -0.5},
                                    {"maximize": True}])
@pytest.mark.parametrize("dtype,rtol", [("float64", 1e-10), ("float32", 1e-4)])
def test_adafactor_matches_torch(kwargs: dict, dtype: str, rtol: float) -> None:
    ours, opt = _train(volta, "Adafactor", kwargs, dtype, 20, with_vectors=True)
    theirs, topt = _train(torch, "Adafactor", kwargs, dtype, 20, with_vectors=True)
    for a, b in zip(ours, theirs):
        np.testing.assert_allclose(a, b, rtol=rtol, atol=rtol)
    state, tstate = opt.state_dict()["state"], topt.state_dict()["state"]
    assert {k: sorted(v) for k, v in state.items()} == {k: sorted(v) for k, v in tstate.items()}
    for index in tstate:
        for name, value in tstate[index].items():
            assert tuple(state[index][name].shape) == tuple(value.shape), name


def test_muon_newton_schulz_matches_torch_to_bfloat16_rounding() -> None:
    from torch.optim._muon import _zeropower_via_newtonschulz

    from volta.composites.optim_extra import _orthogonalized
    for shape in ((6, 4), (4, 6), (5, 5)):
        g = RNG.standard_normal(shape).astype(np.float32)
        expected = _zeropower_via_newtonschulz(torch.tensor(g), (3.4445, -4.775, 2.0315), 1,
                                               1e-7).float().numpy()
        actual = _orthogonalized(volta.tensor(g), [3.4445, -4.775, 2.0315], 1, 1e-7)
        assert actual.dtype is volta.bfloat16
        # one iteration: at most one bfloat16 step (2**-7 relative) apart
        np.testing.assert_allclose(actual.float().numpy(), expected, atol=2 ** -6)


@pytest.mark.parametrize("kwargs", [{}, {"lr": 0.02, "nesterov": False},
                                    {"adjust_lr_fn": "match_rms_adamw", "weight_decay": 0.0}])
@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_muon_steps_match_torch(kwargs: dict, dtype: str) -> None:
    # the orthogonalisation runs in bfloat16 in both: one step agrees to bfloat16 precision of
    # the update (lr-sized), and twenty steps train alike
    one, _ = _train(volta, "Muon", kwargs, dtype, 1, with_vectors=False)
    t_one, _ = _train(torch, "Muon", kwargs, dtype, 1, with_vectors=False)
    lr = kwargs.get("lr", 1e-3) * (0.2 * 6 ** 0.5 if "adjust_lr_fn" in kwargs else 1.5 ** 0.5)
    for a, b in zip(one, t_one):
        # five bfloat16 iterations: within a few percent of the step
        np.testing.assert_allclose(a, b, atol=lr * 0.05)
    twenty, _ = _train(volta, "Muon", kwargs, dtype, 20, with_vectors=False)
    t_twenty, _ = _train(torch, "Muon", kwargs, dtype, 20, with_vectors=False)
    for a, b, start in zip(twenty, t_twenty, (W1, W2)):
        moved = np.abs(b - start).max()
        assert np.abs(a - b).max() < 0.1 * moved


@pytest.mark.parametrize("make", [
    lambda lib: lib.optim.Muon([lib.ones(3, requires_grad=True)]),
    lambda lib: lib.optim.Muon([lib.ones(2, 2, requires_grad=True)], adjust_lr_fn="other"),
    lambda lib: lib.optim.Muon([lib.ones(2, 2, requires_grad=True)], lr=-1.0),
    lambda lib: lib.optim.Adafactor([lib.ones(2, requires_grad=True)], beta2_decay=0.5),
    lambda lib: lib.optim.Adafactor([lib.ones(2, requires_grad=True)], d=0.5),
    lambda lib: lib.optim.Adafactor([lib.ones(2, requires_grad=True)], eps=(-1.0, 1e-3)),
], ids=["muon-1d", "muon-adjust", "muon-lr", "adafactor-decay", "adafactor-d",
        "adafactor-eps"])
def test_rejects_what_torch_rejects(make) -> None:
    with pytest.raises(ValueError):
        make(torch)
    with pytest.raises(VoltaError):
        make(volta)


def test_muon_rejects_too_many_newton_schulz_steps_when_it_steps() -> None:
    for lib, error in ((torch, ValueError), (volta, VoltaError)):
        p = lib.ones(2, 2, requires_grad=True)
        opt = lib.optim.Muon([p], ns_steps=100)
        p.grad = lib.ones(2, 2)
        with pytest.raises(error):
            opt.step()


def test_adafactor_and_muon_on_wgpu_follow_the_cpu() -> None:
    # WGPU has no bfloat16: Muon's iteration runs in float32 there, so it is compared loosely
    g = RNG.standard_normal((3, 2)).astype(np.float32)
    results = []
    for device in ("cpu", "wgpu"):
        p = volta.ones(3, 2, device=device, requires_grad=True)
        q = volta.ones(4, device=device, requires_grad=True)
        muon = volta.optim.Muon([p], lr=0.01)
        p.grad = volta.tensor(g).to(device)
        muon.step()
        adafactor = volta.optim.Adafactor([p, q])
        p.grad, q.grad = volta.tensor(g).to(device), volta.tensor([1.0, -2, 3, 0.5]).to(device)
        adafactor.step()
        results.append([t.detach().cpu().numpy() for t in (p, q)])
    np.testing.assert_allclose(results[1][0], results[0][0], atol=0.01 * 0.05 + 1e-5)
    np.testing.assert_allclose(results[1][1], results[0][1], rtol=1e-5)
