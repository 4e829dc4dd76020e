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


@pytest.mark.parametrize("name", ["floor_divide", "remainder", "fmod", "div_floor", "div_trunc"])
def test_integer_division_signs_and_zero_number_divisor(wgpu: str, name: str) -> None:
    # every sign pairing (lavapipe's WGSL `%` returned the dividend for a negative divisor)
    a = volta.tensor([[7, -7, 7, -7, 8, -8, 0, 5], [3, -3, 9, -9, 1, -1, 6, -6]],
                     dtype=volta.int32)
    b = volta.tensor([[3, 3, -3, -3, -2, -2, -4, 7], [-1, -1, 4, 4, -5, 5, -6, 6]],
                     dtype=volta.int32)
    op, mode = (volta.div, name[4:]) if name.startswith("div_") else (getattr(volta, name), None)
    call = (lambda x, y: op(x, y, rounding_mode=mode)) if mode else op
    assert_same(call(a.to(wgpu), b.to(wgpu)), call(a, b))
    # a zero number divisor is known on the host: the CPU's error, no device read needed
    for where in ("cpu", wgpu):
        with pytest.raises(volta.errors.InvalidOperationError, match="ZeroDivisionError"):
            call(a.to(where), 0)


def test_one_hot_checks_class_values_like_the_cpu(wgpu: str) -> None:
    labels = volta.tensor([0, 3, 1])
    computed = volta.tensor([0, 1, 2], device=wgpu) * 2  # range unknown on the host: read back
    for bad in (labels.to(wgpu), (-labels).to(wgpu), computed):
        with pytest.raises(volta.errors.IndexOutOfRangeError, match="one_hot: class values"):
            volta.nn.functional.one_hot(bad, 3)
    assert_same(volta.nn.functional.one_hot(labels.to(wgpu), 4),
                volta.nn.functional.one_hot(labels, 4))


def test_integer_pow_rejects_a_negative_number_exponent(wgpu: str) -> None:
    ints = volta.tensor([[2, -3], [4, 5]])
    for where in ("cpu", wgpu):
        with pytest.raises(volta.errors.DTypeError, match="negative integer powers"):
            volta.pow(ints.to(where), -1)
    assert_same(volta.pow(ints.to(wgpu), 3), volta.pow(ints, 3))
    assert_same(volta.pow(ints.float().to(wgpu), -1), volta.pow(ints.float(), -1))


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
