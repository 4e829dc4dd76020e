"""volta.autograd.functional against torch.autograd.functional: same values, same rejections."""

from __future__ import annotations

import numpy as np
import pytest
import torch
from torch.autograd import functional as TF

import volta
from volta.autograd import functional as VF
from volta.errors import VoltaError

RNG = np.random.default_rng(0)
X = RNG.standard_normal(3)
Y = RNG.standard_normal((2, 3))


def _pair(a: np.ndarray) -> tuple[volta.Tensor, torch.Tensor]:
    return volta.tensor(a.copy()), torch.tensor(a.copy())


def _close(v, t) -> None:
    if isinstance(t, (tuple, list)):
        assert isinstance(v, tuple) and len(v) == len(t)
        for a, b in zip(v, t):
            _close(a, b)
        return
    assert tuple(v.shape) == tuple(t.shape)
    np.testing.assert_allclose(v.numpy(), t.detach().numpy(), rtol=1e-10, atol=1e-12)


# functions written once for both libraries (lib is volta or torch)
FUNCTIONS = {
    "square": (lambda lib: (lambda x: x ** 2), (X,)),
    "sin times sum": (lambda lib: (lambda x: lib.sin(x) * x.sum()), (X,)),
    "matrix": (lambda lib: (lambda a: (a @ a.t()).exp()), (Y,)),
    "two inputs": (lambda lib: (lambda a, b: a * lib.tanh(b)), (X, X[::-1].copy())),
    "two outputs": (lambda lib: (lambda a, b: (a * b, (a ** 3).sum() + b[0])), (X, X + 1)),
    "scalar": (lambda lib: (lambda a: (a ** 3).sum() * a[0]), (X,)),
}
SCALAR_FUNCTIONS = {
    "cubic": (lambda lib: (lambda a: (a ** 3).sum() * a[0]), (X,)),
    "two inputs": (lambda lib: (lambda a, b: (a * b.exp()).sum() + (a ** 2).prod()), (X, X + 0.5)),
    "matrix": (lambda lib: (lambda a: (a @ a.t()).sin().sum()), (Y,)),
}


def _inputs(arrays: tuple, single: bool):
    pairs = [_pair(a) for a in arrays]
    vs = tuple(p[0] for p in pairs)
    ts = tuple(p[1] for p in pairs)
    return (vs[0], ts[0]) if single else (vs, ts)


@pytest.mark.parametrize("name", FUNCTIONS)
@pytest.mark.parametrize("strategy", ["reverse-mode", "forward-mode"])
def test_jacobian_matches_torch(name: str, strategy: str) -> None:
    make, arrays = FUNCTIONS[name]
    vi, ti = _inputs(arrays, len(arrays) == 1)
    vectorize = strategy == "forward-mode"
    expected = TF.jacobian(make(torch), ti, vectorize=vectorize, strategy=strategy)
    _close(VF.jacobian(make(volta), vi, vectorize=vectorize, strategy=strategy), expected)


@pytest.mark.parametrize("name", FUNCTIONS)
def test_vjp_and_jvp_match_torch(name: str) -> None:
    make, arrays = FUNCTIONS[name]
    single = len(arrays) == 1
    vi, ti = _inputs(arrays, single)
    t_out = make(torch)(*(ti if isinstance(ti, tuple) else (ti,)))
    t_outs = t_out if isinstance(t_out, tuple) else (t_out,)
    cot = [RNG.standard_normal(tuple(o.shape)) for o in t_outs]
    tan = [RNG.standard_normal(a.shape) for a in arrays]
    tv = tuple(torch.tensor(c) for c in cot)
    vv = tuple(volta.tensor(c) for c in cot)
    t_res = TF.vjp(make(torch), ti, tv if isinstance(t_out, tuple) else tv[0])
    v_res = VF.vjp(make(volta), vi, vv if isinstance(t_out, tuple) else vv[0])
    _close(v_res, t_res)
    tt = tuple(torch.tensor(c) for c in tan)
    vt = tuple(volta.tensor(c) for c in tan)
    t_res = TF.jvp(make(torch), ti, tt[0] if single else tt)
    v_res = VF.jvp(make(volta), vi, vt[0] if single else vt)
    _close(v_res, t_res)


@pytest.mark.parametrize("name", SCALAR_FUNCTIONS)
def test_hessian_vhp_hvp_match_torch(name: str) -> None:
    make, arrays = SCALAR_FUNCTIONS[name]
    single = len(arrays) == 1
    vi, ti = _inputs(arrays, single)
    _close(VF.hessian(make(volta), vi), TF.hessian(make(torch), ti))
    tan = [RNG.standard_normal(a.shape) for a in arrays]
    tt = tuple(torch.tensor(c) for c in tan)
    vt = tuple(volta.tensor(c) for c in tan)
    for vfn, tfn in ((VF.vhp, TF.vhp), (VF.hvp, TF.hvp)):
        _close(vfn(make(volta), vi, vt[0] if single else vt),
               tfn(make(torch), ti, tt[0] if single else tt))


def test_hessian_forward_over_reverse_matches_torch() -> None:
    make, arrays = SCALAR_FUNCTIONS["two inputs"]
    vi, ti = _inputs(arrays, False)
    _close(VF.hessian(make(volta), vi, vectorize=True, outer_jacobian_strategy="forward-mode"),
           TF.hessian(make(torch), ti, vectorize=True, outer_jacobian_strategy="forward-mode"))


def test_independent_outputs_give_zeros_or_strict_errors() -> None:
    vx, tx = _pair(X)
    for fn in ("vjp", "jvp"):
        v_res = getattr(VF, fn)(lambda x: volta.ones(3, dtype=volta.float64), vx, volta.ones(3, dtype=volta.float64))
        t_res = getattr(TF, fn)(lambda x: torch.ones(3, dtype=torch.float64), tx, torch.ones(3, dtype=torch.float64))
        _close(v_res, t_res)
        with pytest.raises(VoltaError):
            getattr(VF, fn)(lambda x: volta.ones(3, dtype=volta.float64), vx,
                            volta.ones(3, dtype=volta.float64), strict=True)
    # the second input is unused: its block is zeros, or strict rejects
    vi, ti = _inputs((X, X), False)
    _close(VF.jacobian(lambda a, b: a * 2, vi), TF.jacobian(lambda a, b: a * 2, ti))
    with pytest.raises(VoltaError):
        VF.jacobian(lambda a, b: a * 2, vi, strict=True)
    with pytest.raises(RuntimeError):
        TF.jacobian(lambda a, b: a * 2, ti, strict=True)


def test_create_graph_gives_differentiable_results() -> None:
    vx, tx = _pair(X)
    vx.requires_grad_(True)
    tx.requires_grad_(True)
    _, v_vjp = VF.vjp(lambda x: x ** 3, vx, volta.ones(3, dtype=volta.float64), create_graph=True)
    _, t_vjp = TF.vjp(lambda x: x ** 3, tx, torch.ones(3, dtype=torch.float64), create_graph=True)
    v_vjp.sum().backward()
    t_vjp.sum().backward()
    np.testing.assert_allclose(vx.grad.numpy(), tx.grad.numpy(), rtol=1e-12)
    # without create_graph nothing reaches the caller's graph
    _, plain = VF.vjp(lambda x: x ** 3, vx, volta.ones(3, dtype=volta.float64))
    assert not plain.requires_grad


@pytest.mark.parametrize("call", [
    lambda F, lib, x: F.vjp(lambda a: a ** 2, x),                            # v needed
    lambda F, lib, x: F.vjp(lambda a: a ** 2, x, lib.ones(2, dtype=x.dtype)),  # v's shape
    lambda F, lib, x: F.jvp(lambda a: a ** 2, x),                            # v needed
    lambda F, lib, x: F.hessian(lambda a: a ** 2, x),                        # not scalar
    lambda F, lib, x: F.jacobian(lambda a: a ** 2, x, strict=True, vectorize=True),
    lambda F, lib, x: F.jacobian(lambda a: a ** 2, x, strategy="forward-mode"),
    lambda F, lib, x: F.jacobian(lambda a: a ** 2, x, strategy="sideways"),
    lambda F, lib, x: F.jacobian(lambda a: a ** 2, [x, 3]),                  # not a tensor
    lambda F, lib, x: F.hvp(lambda a: a.sum(), x, lib.ones(4, dtype=x.dtype)),
], ids=["vjp-v", "vjp-shape", "jvp-v", "hessian-shape", "strict-vectorize", "forward-novec",
        "strategy", "non-tensor", "hvp-shape"])
def test_rejects_what_torch_rejects(call) -> None:
    vx, tx = _pair(X)
    with pytest.raises(Exception):
        call(TF, torch, tx)
    with pytest.raises(VoltaError):
        call(VF, volta, vx)
