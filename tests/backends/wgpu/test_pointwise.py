"""Every pointwise op of ops.yaml on WGPU against the CPU backend, forward and backward, for
float32, int32 and bool, with non-contiguous and broadcast inputs. Data-driven: an op gets its
tests by being declared with a ``pointwise:`` snippet (plus the hand-written div and where)."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

import volta
from volta.backends.wgpu.generated_pointwise import SPECS
from volta.dispatch.dispatcher import DISPATCHER

from .conftest import assert_same

# div and where have hand-written CPU kernels but WGPU kernels on the same template
CASES = {**{name: spec["args"] for name, spec in SPECS.items()},
         "div": (("self", "Tensor"), ("other", "Tensor"), ("rounding_mode", "none")),
         "where.self": (("condition", "Tensor"), ("self", "Tensor"), ("other", "Tensor"))}
# shapes per tensor argument: a transposed (non-contiguous) view, a broadcast row, a column
LAYOUTS = [lambda t: t.T, lambda t: t[0], lambda t: t[:, :1]]
SCALARS = {"f32": 0.5, "i32": 0, "bool": False}
# exact match except transcendental functions, whose GPU versions differ in the last bits
RTOL = 2e-5
LOOSE = {"erf": 1e-4, "erfc": 2e-4, "erfinv": 1e-4, "xlogy": 1e-4, "pow": 1e-4}


def _values(rng: np.random.Generator, dtype: str, arg: str) -> np.ndarray:
    if dtype == "float32":
        return rng.uniform(-0.9, 0.9, (4, 4)).astype(np.float32)
    if dtype == "int32":
        return rng.integers(1, 6, (4, 4)).astype(np.int32)  # no zero divisors, small shifts
    return rng.integers(0, 2, (4, 4)).astype(bool)


def _arguments(name: str, dtype: str, device: str, requires_grad: bool = False) -> list[Any]:
    rng = np.random.default_rng(abs(hash((name, dtype))) % 2**32)
    args: list[Any] = []
    for arg, kind in CASES[name]:
        if kind == "Tensor":
            arr = _values(rng, "bool" if arg == "condition" else dtype, arg)
            t = volta.tensor(arr).to(device)
            if requires_grad and dtype == "float32" and arg != "condition":
                t.requires_grad_(True)
            args.append(t)
        elif kind == "T":
            args.append(1 if dtype != "float32" else 0.5)
        else:
            args.append(None if kind == "none" else SCALARS[kind])
    return args


def _views(args: list[Any]) -> list[Any]:
    layout = iter(LAYOUTS)
    return [next(layout)(a) if isinstance(a, volta.Tensor) else a for a in args]


def _call(name: str, args: list[Any]) -> Any:
    return DISPATCHER.find(name)(*_views(args))


@pytest.mark.parametrize("dtype", ["float32", "int32", "bool"])
@pytest.mark.parametrize("name", sorted(CASES))
def test_forward_matches_cpu(wgpu: str, name: str, dtype: str) -> None:
    try:
        want = _call(name, _arguments(name, dtype, "cpu"))
    except (volta.DTypeError, volta.ArgumentError):
        # an input dtype the op rejects: WGPU rejects it too
        with pytest.raises((volta.DTypeError, volta.ArgumentError)):
            _call(name, _arguments(name, dtype, wgpu)).cpu()
        return
    try:
        got = _call(name, _arguments(name, dtype, wgpu))
    except volta.DTypeError:
        # the CPU backend computes a few meaningless bool cases (numpy allows 1 - True);
        # WGPU may reject them only where PyTorch does
        assert dtype == "bool" and _torch_rejects_bool(name)
        return
    assert got.device == volta.device(wgpu)
    assert_same(got, want, rtol=LOOSE.get(name, RTOL), atol=1e-6)


def _torch_rejects_bool(name: str) -> bool:
    import torch
    args = [torch.tensor([True, False]) if kind == "Tensor" else 0 for _, kind in CASES[name]]
    try:
        getattr(torch.ops.aten, name.split(".")[0])(*args)
    except (RuntimeError, TypeError):
        return True
    return False


DIFFERENTIABLE = sorted(n for n in CASES if not DISPATCHER.find(n).info.non_differentiable)


@pytest.mark.parametrize("name", DIFFERENTIABLE)
def test_backward_matches_cpu(wgpu: str, name: str, quiet_fallback: None) -> None:
    grads = {}
    for device in ("cpu", wgpu):
        args = _arguments(name, "float32", device, requires_grad=True)
        out = _call(name, args)
        if not out.requires_grad:
            return
        seed = volta.tensor(np.linspace(-1, 1, out.numel(), dtype=np.float32)
                            .reshape(tuple(out.shape))).to(device)
        out.backward(seed)
        grads[device] = [a.grad for a in args if isinstance(a, volta.Tensor) and a.requires_grad]
    for got, want in zip(grads[wgpu], grads["cpu"], strict=True):
        assert got.device == volta.device(wgpu)
        assert_same(got, want, rtol=LOOSE.get(name, 1e-4), atol=1e-5)


@pytest.mark.parametrize("op", ["remainder", "fmod", "floor_divide", "div_floor", "div_trunc"])
def test_signed_integer_division_family_matches_cpu(wgpu: str, op: str) -> None:
    # every sign combination, exact multiples included: lavapipe's i32 `%` treats its operands
    # as unsigned, so the kernels must not rely on it
    a = np.array([-7, -6, -5, -1, 0, 1, 5, 6, 7] * 4, dtype=np.int32)
    b = np.repeat(np.array([5, -5, 3, -3], dtype=np.int32), 9)
    fns = {"remainder": volta.remainder, "fmod": volta.fmod, "floor_divide": volta.floor_divide,
           "div_floor": lambda x, y: volta.div(x, y, rounding_mode="floor"),
           "div_trunc": lambda x, y: volta.div(x, y, rounding_mode="trunc")}
    want = fns[op](volta.tensor(a), volta.tensor(b))
    assert_same(fns[op](volta.tensor(a, device=wgpu), volta.tensor(b, device=wgpu)), want)
    assert_same(fns[op](volta.tensor(a, device=wgpu), 4), fns[op](volta.tensor(a), 4))


@pytest.mark.parametrize("op", ["eq", "ne", "lt", "le", "gt", "ge", "logical_and", "logical_or",
                                "logical_xor", "logical_not", "isnan", "bool"])
def test_nan_operands_compare_like_the_cpu(wgpu: str, op: str) -> None:
    # every pairing of nan, zero and numbers: lavapipe compiles float != as an ordered compare
    # (1 != nan came out false), so the kernels spell it as a negated ==
    values = np.array([np.nan, 0.0, 1.0, -2.0], dtype=np.float32)
    a, b = np.repeat(values, 4), np.tile(values, 4)

    def call(x: volta.Tensor, y: volta.Tensor) -> volta.Tensor:
        if op in ("logical_not", "isnan", "bool"):
            return getattr(x, op)()
        return getattr(volta, op)(x, y)

    assert_same(call(volta.tensor(a, device=wgpu), volta.tensor(b, device=wgpu)),
                call(volta.tensor(a), volta.tensor(b)))
