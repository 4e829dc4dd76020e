"""volta.func against torch.func: the same derivatives, mapped results and module calls."""

from __future__ import annotations

import numpy as np
import pytest
import torch
import torch.func as TF

import volta
import volta.func as VF
from volta.errors import VoltaError

RNG = np.random.default_rng(1)
A = RNG.standard_normal(4)
B = RNG.standard_normal((3, 4))


def _v(a):
    return volta.tensor(np.array(a, copy=True))


def _t(a):
    return torch.tensor(np.array(a, copy=True))


def _close(v, t) -> None:
    if isinstance(t, dict):
        assert isinstance(v, dict) and set(v) == set(t)
        for k in t:
            _close(v[k], t[k])
        return
    if isinstance(t, (tuple, list)):
        assert type(v) is type(t) and len(v) == len(t), (type(v), type(t))
        for a, b in zip(v, t):
            _close(a, b)
        return
    if not isinstance(t, torch.Tensor):
        assert v == t
        return
    assert tuple(v.shape) == tuple(t.shape)
    np.testing.assert_allclose(v.detach().numpy(), t.detach().numpy(), rtol=1e-10, atol=1e-12)


def f_scalar(lib):
    return lambda x, y: (lib.sin(y @ x) * x[:3]).sum() + (x ** 2).sum() * y[0, 0]


def f_vector(lib):
    return lambda x, y: lib.tanh(y @ x) * x[:3]


@pytest.mark.parametrize("argnums", [0, 1, (0, 1)])
def test_grad_and_grad_and_value(argnums) -> None:
    _close(VF.grad(f_scalar(volta), argnums)(_v(A), _v(B)),
           TF.grad(f_scalar(torch), argnums)(_t(A), _t(B)))
    _close(VF.grad_and_value(f_scalar(volta), argnums)(_v(A), _v(B)),
           TF.grad_and_value(f_scalar(torch), argnums)(_t(A), _t(B)))


def test_grad_has_aux_and_pytrees() -> None:
    def loss(lib):
        def fn(params, x):
            out = (params["w"] @ x + params["b"]).sum()
            return out, {"out": out}
        return fn
    vp = {"w": _v(B), "b": _v(A[:3])}
    tp = {"w": _t(B), "b": _t(A[:3])}
    _close(VF.grad(loss(volta), has_aux=True)(vp, _v(A)), TF.grad(loss(torch), has_aux=True)(tp, _t(A)))


def test_nested_grad_is_second_derivative() -> None:
    def cube(x):
        return (x ** 3).sum()
    _close(VF.grad(lambda x: VF.grad(cube)(x).sum())(_v(A)),
           TF.grad(lambda x: TF.grad(cube)(x).sum())(_t(A)))


@pytest.mark.parametrize("argnums", [0, (0, 1)])
def test_jacrev_jacfwd_hessian(argnums) -> None:
    for vfn, tfn in ((VF.jacrev, TF.jacrev), (VF.jacfwd, TF.jacfwd)):
        _close(vfn(f_vector(volta), argnums)(_v(A), _v(B)),
               tfn(f_vector(torch), argnums)(_t(A), _t(B)))
    _close(VF.hessian(f_scalar(volta), argnums)(_v(A), _v(B)),
           TF.hessian(f_scalar(torch), argnums)(_t(A), _t(B)))


def test_vjp_and_jvp() -> None:
    out_v, fn_v = VF.vjp(f_vector(volta), _v(A), _v(B))
    out_t, fn_t = TF.vjp(f_vector(torch), _t(A), _t(B))
    _close(out_v, out_t)
    cot = RNG.standard_normal(3)
    _close(fn_v(_v(cot)), fn_t(_t(cot)))
    tangents = (RNG.standard_normal(4), RNG.standard_normal((3, 4)))
    _close(VF.jvp(f_vector(volta), (_v(A), _v(B)), tuple(_v(t) for t in tangents)),
           TF.jvp(f_vector(torch), (_t(A), _t(B)), tuple(_t(t) for t in tangents)))


@pytest.mark.parametrize("in_dims,out_dims", [(0, 0), ((0, None), 0), ((1, 0), 1), ((0, 0), -1)])
def test_vmap(in_dims, out_dims) -> None:
    x = RNG.standard_normal((4, 4))
    y = RNG.standard_normal((4, 3))
    def fn(lib):
        return (lambda a, b: (lib.sin(a).sum() * b, a * a.max()))
    _close(VF.vmap(fn(volta), in_dims, out_dims)(_v(x), _v(y)),
           TF.vmap(fn(torch), in_dims, out_dims)(_t(x), _t(y)))


def test_vmap_of_grad_is_per_example_gradients() -> None:
    x = RNG.standard_normal((5, 4))
    w = RNG.standard_normal(4)
    def loss(lib):
        return (lambda w, x: lib.tanh(x @ w) ** 2)
    _close(VF.vmap(VF.grad(loss(volta)), (None, 0))(_v(w), _v(x)),
           TF.vmap(TF.grad(loss(torch)), (None, 0))(_t(w), _t(x)))


def test_vmap_randomness() -> None:
    x = volta.zeros(3, 2)
    with pytest.raises(VoltaError):
        VF.vmap(lambda a: a + volta.rand(2))(x)
    same = VF.vmap(lambda a: a + volta.rand(2), randomness="same")(x)
    assert bool((same[0] == same[1]).all())
    different = VF.vmap(lambda a: a + volta.rand(2), randomness="different")(x)
    assert not bool((different[0] == different[1]).all())


@pytest.mark.parametrize("call", [
    lambda F, lib: F.vmap(lambda a: a)(lib.ones(2, 3), lib.ones(3, 3)),   # more args than in_dims? no: sizes
    lambda F, lib: F.vmap(lambda a, b: a + b)(lib.ones(2, 3), lib.ones(3, 3)),
    lambda F, lib: F.vmap(lambda a: a, in_dims=2)(lib.ones(2, 3)),
    lambda F, lib: F.grad(lambda a: a * 2)(lib.ones(3)),
    lambda F, lib: F.grad(lambda a: a.sum(), argnums=2)(lib.ones(3)),
    lambda F, lib: F.vmap(lambda a: a, randomness="sometimes")(lib.ones(2)),
], ids=["extra-arg", "sizes", "in-dim", "non-scalar", "argnums", "randomness"])
def test_rejects_what_torch_rejects(call) -> None:
    with pytest.raises(Exception):
        call(TF, torch)
    with pytest.raises((VoltaError, TypeError)):
        call(VF, volta)


def test_functional_call_and_stack_module_state() -> None:
    torch.manual_seed(0)
    tmodels = [torch.nn.Sequential(torch.nn.Linear(4, 3), torch.nn.BatchNorm1d(3)).double()
               for _ in range(3)]
    vmodels = [volta.nn.Sequential(volta.nn.Linear(4, 3), volta.nn.BatchNorm1d(3)).double()
               for _ in range(3)]
    for vm, tm in zip(vmodels, tmodels):
        vm.load_state_dict({k: _v(v.numpy()) for k, v in tm.state_dict().items()})
        vm.eval(), tm.eval()
    x = RNG.standard_normal((5, 4))
    tparams = {k: v * 2 for k, v in tmodels[1].named_parameters()}
    vparams = {k: _v(v.detach().numpy()) for k, v in tparams.items()}
    _close(VF.functional_call(vmodels[0], vparams, (_v(x),)),
           TF.functional_call(tmodels[0], tparams, (_t(x),)))
    # the module keeps its own parameters afterwards
    _close(vmodels[0](_v(x)), tmodels[0](_t(x)))
    vp, vb = VF.stack_module_state(vmodels)
    tp, tb = TF.stack_module_state(tmodels)
    _close(vp, tp)
    _close(vb, tb)
    def run_v(p, b, x):
        return VF.functional_call(vmodels[0], (p, b), (x,))
    def run_t(p, b, x):
        return TF.functional_call(tmodels[0], (p, b), (x,))
    _close(VF.vmap(run_v, (0, 0, None))(vp, vb, _v(x)), TF.vmap(run_t, (0, 0, None))(tp, tb, _t(x)))
