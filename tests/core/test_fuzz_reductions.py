"""Reductions, scans and splits that the differential fuzz found disagreeing with PyTorch: each
case runs one call through PyTorch and volta and checks that both accept with equal results or
both reject (volta with a VoltaError)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
import pytest
import torch

import volta
from volta.errors import VoltaError


def _make(lib: Any, shape: tuple[int, ...], dtype: str, device: str = "cpu") -> Any:
    values = np.arange(int(np.prod(shape)), dtype=np.float64).reshape(shape) % 5 + 1
    t = lib.tensor(values.tolist() if shape else float(values), dtype=getattr(lib, dtype))
    return t.to(device) if device != "cpu" else t


def _outcome(call: Callable[[], Any]) -> tuple[str, Any]:
    try:
        return "ok", call()
    except Exception as error:  # noqa: BLE001 - the kind of failure is what is compared
        return "raised", error


def _as_numpy(result: Any) -> Any:
    if isinstance(result, (tuple, list)):
        return [_as_numpy(r) for r in result]
    if isinstance(result, torch.Tensor):
        return result.float().numpy() if result.dtype == torch.bfloat16 else result.numpy()
    result = result.to("cpu")
    return result.to(volta.float32).numpy() if result.dtype is volta.bfloat16 else result.numpy()


def _dtype_name(result: Any) -> Any:
    if isinstance(result, (tuple, list)):
        return [_dtype_name(r) for r in result]
    return str(result.dtype).split(".")[-1]


def check_agrees(call: Callable[[Any, Callable[..., Any]], Any], *, device: str = "cpu") -> None:
    """``call(lib, make)`` with lib torch and volta; ``make(shape, dtype)`` builds the input."""
    expected_kind, expected = _outcome(lambda: call(torch, lambda s, d: _make(torch, s, d)))
    kind, got = _outcome(lambda: call(volta, lambda s, d: _make(volta, s, d, device)))
    if expected_kind == "raised":
        assert kind == "raised", f"PyTorch raised {expected!r}, volta returned {got!r}"
        assert isinstance(got, VoltaError), f"volta raised a raw {type(got).__name__}: {got}"
        return
    assert kind == "ok", f"PyTorch returned {expected!r}, volta raised {got!r}"
    assert _dtype_name(got) == _dtype_name(expected)
    want, have = _as_numpy(expected), _as_numpy(got)
    if isinstance(want, list):
        assert [w.shape for w in want] == [h.shape for h in have]
        for w, h in zip(want, have):
            np.testing.assert_allclose(h, w, rtol=1e-2, atol=1e-2)
    else:
        assert have.shape == want.shape
        np.testing.assert_allclose(have, want, rtol=1e-2, atol=1e-2)


def _fft(lib: Any) -> Any:
    return lib.fft


# -- fftshift / ifftshift: PyTorch's is roll(x, shifts, dims): no dims is roll's missing shifts,
# and a repeated dim rolls again
FFTSHIFT_CASES = [
    ("fftshift", (1, 2, 1, 1), []),
    ("ifftshift", (2, 3), []),
    ("fftshift", (), None),
    ("ifftshift", (4, 2, 1, 3), [-4, 3, 3]),
    ("fftshift", (4, 2, 1, 3), [1, 1, -1]),
    ("fftshift", (4, 3), None),
]


@pytest.mark.parametrize("device", ["cpu", "wgpu"])
@pytest.mark.parametrize("name, shape, dim", FFTSHIFT_CASES)
def test_fftshift(name: str, shape: tuple[int, ...], dim: Any, device: str) -> None:
    check_agrees(lambda L, make: getattr(_fft(L), name)(make(shape, "int32"), dim),
                 device=device)


# -- tensor_split/hsplit/vsplit/dsplit by indices: each piece is x[previous:next], so an index
# below the one before it gives an empty piece and the next piece starts again from it
SPLIT_CASES = [
    ("tensor_split", (4,), [2, 0, 0]),
    ("tensor_split", (5,), [3, 1, 4]),
    ("tensor_split", (5,), [-1, -9, 2, 9, 1]),
    ("hsplit", (4, 3), [1, 0, 4]),
    ("vsplit", (4, 3), [3, 1]),
    ("dsplit", (2, 1, 5), [4, -4, 2]),
]


@pytest.mark.parametrize("device", ["cpu", "wgpu"])
@pytest.mark.parametrize("name, shape, indices", SPLIT_CASES)
def test_split_at_unsorted_indices(name: str, shape: tuple[int, ...], indices: list[int],
                                   device: str) -> None:
    check_agrees(lambda L, make: getattr(L, name)(make(shape, "float32"), indices),
                 device=device)


# -- dtype rules: cov takes no bool input; trapezoid/cumulative_trapezoid no bool samples or
# spacings and only a real dx; nanmean only floating inputs (whatever dtype= asks); quantile
# only float32/float64; cumsum/cumprod no dtype=bool result (except 0-d or empty inputs)
DTYPE_CASES: list[tuple[str, Callable[[Any, Any], Any]]] = [
    ("cov bool", lambda L, m: L.cov(m((), "bool"), correction=-1, fweights=None)),
    ("cov bool 2d", lambda L, m: L.cov(m((2, 3), "bool"))),
    ("cov int", lambda L, m: L.cov(m((2, 3), "int32"))),
    ("trapezoid bool y", lambda L, m: L.trapezoid(m((4, 2), "bool"), dim=0)),
    ("trapezoid bool x", lambda L, m: L.trapezoid(m((3,), "float32"), m((3,), "bool"))),
    ("trapezoid bool dx", lambda L, m: L.trapezoid(m((1, 3, 1), "int32"), dx=False)),
    ("trapezoid int dx", lambda L, m: L.trapezoid(m((1, 3, 1), "int32"), dx=2)),
    ("cumulative_trapezoid bool y",
     lambda L, m: L.cumulative_trapezoid(m((4, 2), "bool"), dx=False, dim=0)),
    ("cumulative_trapezoid bool dx",
     lambda L, m: L.cumulative_trapezoid(m((4, 2), "float32"), dx=True, dim=0)),
    ("cumulative_trapezoid bool x",
     lambda L, m: L.cumulative_trapezoid(m((4,), "bool"), m((4,), "float32"))),
    ("cumulative_trapezoid float", lambda L, m: L.cumulative_trapezoid(m((4, 2), "float32"))),
    ("nanmean int16", lambda L, m: L.nanmean(m((), "int16"), [0], dtype=L.int16)),
    ("nanmean int dtype float", lambda L, m: L.nanmean(m((2, 2), "int32"), dtype=L.float32)),
    ("nanmean float16", lambda L, m: L.nanmean(m((2, 2), "float16"), 0)),
    ("quantile bfloat16", lambda L, m: L.quantile(m((2, 1), "bfloat16"), 0, dim=None)),
    ("quantile float16", lambda L, m: L.quantile(m((3,), "float16"), 0.5)),
    ("nanquantile bfloat16", lambda L, m: L.nanquantile(m((4,), "bfloat16"), 0.0)),
    ("quantile float32", lambda L, m: L.quantile(m((3, 2), "float32"), 0.25, dim=0)),
    ("cumprod to bool", lambda L, m: L.cumprod(m((3, 4, 1), "bfloat16"), 1, dtype=L.bool)),
    ("cumsum to bool", lambda L, m: L.cumsum(m((3,), "int32"), 0, dtype=L.bool)),
    ("cumprod bool in", lambda L, m: L.cumprod(m((3,), "bool"), 0)),
    ("cumprod 0-d to bool", lambda L, m: L.cumprod(m((), "float32"), 0, dtype=L.bool)),
    ("cumprod empty to bool", lambda L, m: L.cumprod(m((0,), "float32"), 0, dtype=L.bool)),
]


# WGPU stores no bfloat16: those cases run on the CPU only
DTYPE_RUNS = [(device, name, call) for name, call in DTYPE_CASES
              for device in ("cpu", "wgpu") if device == "cpu" or "bfloat16" not in name]


@pytest.mark.parametrize("device, name, call", DTYPE_RUNS,
                         ids=[f"{name}-{device}" for device, name, _ in DTYPE_RUNS])
def test_dtype_rules(device: str, name: str, call: Callable[[Any, Any], Any]) -> None:
    check_agrees(call, device=device)


# -- sum_to_size: an empty size is always a full sum (int64 for integral and bool inputs, even
# of a 0-d tensor); sizes that reduce nothing keep the dtype
SUM_TO_SIZE_CASES = [
    ((), "bool", []),
    ((), "int32", []),
    ((2,), "int32", []),
    ((2, 3), "bool", [2, 3]),
    ((2, 3), "bool", [1, 3]),
    ((), "float32", []),
]


@pytest.mark.parametrize("device", ["cpu", "wgpu"])
@pytest.mark.parametrize("shape, dtype, size", SUM_TO_SIZE_CASES)
def test_sum_to_size(shape: tuple[int, ...], dtype: str, size: list[int], device: str) -> None:
    check_agrees(lambda L, make: make(shape, dtype).sum_to_size(size), device=device)


# -- int arguments are int64 in PyTorch: a Python int outside fails to unpack
BIG = 2 ** 63
OVERFLOW_CASES: list[tuple[str, Callable[[Any, Any], Any]]] = [
    ("chunk chunks", lambda L, m: L.chunk(m((4,), "int32"), BIG)),
    ("chunk dim", lambda L, m: L.chunk(m((4,), "int32"), 2, -BIG - 1)),
    ("split size", lambda L, m: L.split(m((3,), "int32"), 2 ** 70, -1)),
    ("split sizes", lambda L, m: L.split(m((4,), "float32"), [BIG, 1])),
    ("split in range", lambda L, m: L.split(m((4,), "float32"), BIG - 1)),
    ("diff n", lambda L, m: L.diff(m((1,), "int32"), 2 ** 70, 0, m((1,), "bool"))),
    ("diff in range", lambda L, m: L.diff(m((3,), "int32"), BIG - 1)),
    ("tensor_split sections", lambda L, m: L.tensor_split(m((4,), "float32"), BIG)),
    ("tensor_split indices", lambda L, m: L.tensor_split(m((4,), "float32"), [1, BIG])),
]


@pytest.mark.parametrize("device", ["cpu", "wgpu"])
@pytest.mark.parametrize("name, call", OVERFLOW_CASES, ids=[c[0] for c in OVERFLOW_CASES])
def test_int64_arguments(name: str, call: Callable[[Any, Any], Any], device: str) -> None:
    check_agrees(call, device=device)


# -- argsort: ``stable`` picks PyTorch's argsort.stable overload, where dim and descending are
# keywords too, so argsort(x, 0, stable=...) fits no overload
ARGSORT_CASES: list[tuple[str, Callable[[Any, Any], Any]]] = [
    ("dim positional with stable", lambda L, m: L.argsort(m((), "bool"), 0, stable=False)),
    ("dim and descending positional with stable",
     lambda L, m: L.argsort(m((3,), "float32"), 0, True, stable=True)),
    ("method dim positional with stable", lambda L, m: m((2, 3), "int32").argsort(1, stable=True)),
    ("stable keywords", lambda L, m: L.argsort(m((2, 3), "int32"), stable=True, dim=0,
                                               descending=True)),
    ("stable only", lambda L, m: m((2, 3), "float32").argsort(stable=False)),
    ("positional", lambda L, m: L.argsort(m((2, 3), "float32"), 0, True)),
    ("default", lambda L, m: m((4,), "int32").argsort()),
]


@pytest.mark.parametrize("device", ["cpu", "wgpu"])
@pytest.mark.parametrize("name, call", ARGSORT_CASES, ids=[c[0] for c in ARGSORT_CASES])
def test_argsort_overloads(name: str, call: Callable[[Any, Any], Any], device: str) -> None:
    check_agrees(call, device=device)


# -- sort: the same two overloads (sort and sort.stable), with named results
SORT_CASES: list[tuple[str, Callable[[Any, Any], Any]]] = [
    ("dim positional with stable", lambda L, m: L.sort(m((3, 2, 4), "int64"), -3, stable=False)),
    ("dim positional with stable None", lambda L, m: L.sort(m((1, 3, 1), "float64"), 2,
                                                            stable=None)),
    ("method dim and descending positional with stable",
     lambda L, m: m((2, 3), "int32").sort(1, True, stable=True)),
    ("stable keywords", lambda L, m: L.sort(m((2, 3), "int32"), stable=True, dim=0,
                                            descending=True).values),
    ("stable None", lambda L, m: m((2, 3), "float32").sort(stable=None).indices),
    ("positional", lambda L, m: L.sort(m((2, 3), "float32"), 0, True).indices),
    ("default", lambda L, m: m((4,), "int32").sort().values),
]


@pytest.mark.parametrize("device", ["cpu", "wgpu"])
@pytest.mark.parametrize("name, call", SORT_CASES, ids=[c[0] for c in SORT_CASES])
def test_sort_overloads(name: str, call: Callable[[Any, Any], Any], device: str) -> None:
    check_agrees(call, device=device)
