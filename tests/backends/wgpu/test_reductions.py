"""Reductions on WGPU against the CPU backend: any dims, keepdim, strided inputs, indices."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

import volta

from .conftest import assert_same

DIMS = [None, 0, 1, -1, (0, 2), (1, 2)]


def _input(dtype: str, device: str) -> volta.Tensor:
    rng = np.random.default_rng(7)
    if dtype == "float32":
        arr = rng.standard_normal((3, 4, 5)).astype(np.float32)
    elif dtype == "int32":
        arr = rng.integers(-4, 5, (3, 4, 5)).astype(np.int32)
    else:
        arr = rng.integers(0, 2, (3, 4, 5)).astype(bool)
    # a permuted view: the kernels must follow strides
    return volta.tensor(arr).to(device).permute(1, 0, 2)


def _both(fn: Any) -> tuple[Any, Any]:
    return fn("cpu"), fn("wgpu")


@pytest.mark.parametrize("keepdim", [False, True])
@pytest.mark.parametrize("dim", DIMS)
@pytest.mark.parametrize("dtype", ["float32", "int32", "bool"])
@pytest.mark.parametrize("op", ["sum", "amax", "amin", "any", "all"])
def test_reductions_over_dims(wgpu: str, op: str, dtype: str, dim: Any, keepdim: bool) -> None:
    if op in ("amax", "amin") and dim is None:
        dim = ()
    want, got = _both(lambda dev: getattr(_input(dtype, dev), op)(dim=dim, keepdim=keepdim))
    assert_same(got, want, rtol=1e-5, atol=1e-5)


@pytest.mark.parametrize("dim", DIMS)
def test_mean(wgpu: str, dim: Any) -> None:
    want, got = _both(lambda dev: _input("float32", dev).mean(dim=dim))
    assert_same(got, want, rtol=1e-5, atol=1e-6)
    with pytest.raises(volta.DTypeError, match="mean"):
        _input("int32", wgpu).mean()


@pytest.mark.parametrize("dtype", ["float32", "int32"])
@pytest.mark.parametrize("op", ["max", "min", "argmax", "argmin"])
def test_extremes_and_indices(wgpu: str, op: str, dtype: str) -> None:
    want, got = _both(lambda dev: getattr(_input(dtype, dev), op)())
    assert_same(got, want)
    for dim in (0, 1, -1):
        want, got = _both(lambda dev, d=dim: getattr(_input(dtype, dev), op)(dim=d, keepdim=True))
        if op in ("max", "min"):
            for g, w in zip(got, want, strict=True):
                assert_same(g, w)
        else:
            assert_same(got, want)


def test_ties_take_the_first_index_and_nan_wins(wgpu: str) -> None:
    x = [[1.0, 3.0, 3.0, 0.0], [2.0, float("nan"), 5.0, float("nan")]]
    for op in ("argmax", "argmin"):
        want, got = _both(lambda dev, o=op: getattr(volta.tensor(x, device=dev), o)(dim=1))
        assert_same(got, want)


def test_large_reduction_and_gradient(wgpu: str) -> None:
    arr = np.random.default_rng(3).standard_normal(5000).astype(np.float32)
    x = volta.tensor(arr, device=wgpu, requires_grad=True)
    s = (x * x).sum()
    assert s.item() == pytest.approx(float((arr.astype(np.float64) ** 2).sum()), rel=1e-5)
    s.backward()
    np.testing.assert_allclose(x.grad.cpu().numpy(), 2 * arr, rtol=1e-6)


def test_empty_max_is_an_error(wgpu: str) -> None:
    with pytest.raises(volta.ShapeError):
        volta.zeros(0, device=wgpu).max()
    assert volta.zeros(0, 3, device=wgpu).sum().item() == 0


def _large(dtype: str, device: str) -> volta.Tensor:
    """Few outputs over many elements: the reductions that split into partials."""
    rng = np.random.default_rng(11)
    shape = (3, 100, 200)  # 60,000 elements; dims (1, 2) leave 3 outputs of 20,000 each
    if dtype == "float32":
        arr = rng.standard_normal(shape).astype(np.float32)
        arr[1, 7, 11] = np.nan  # NaN must survive both passes of max/min
    elif dtype == "int32":
        arr = rng.integers(-4, 5, shape).astype(np.int32)
    else:
        arr = rng.random(shape) > 1e-4  # a few False: `all` must see them across chunks
    return volta.tensor(arr).to(device).transpose(0, 2)


@pytest.mark.parametrize("dtype", ["float32", "int32", "bool"])
@pytest.mark.parametrize("dim", [None, (0, 1), (1, 2)])
@pytest.mark.parametrize("op", ["sum", "amax", "amin", "any", "all", "mean"])
def test_split_reductions_equal_one_pass(wgpu: str, op: str, dtype: str, dim: Any) -> None:
    from volta.backends.wgpu.kernels import reduce

    if op == "mean" and dtype != "float32":
        return
    if op in ("amax", "amin") and dim is None:
        dim = ()
    assert reduce._chunks(3, 20_000, False) > 1 and reduce._chunks(1, 60_000, False) > 1
    want, got = _both(lambda dev: getattr(_large(dtype, dev), op)(dim=dim))
    assert_same(got, want, rtol=1e-4, atol=1e-3)


def test_split_reduction_is_one_extra_dispatch(wgpu: str) -> None:
    x = volta.ones(4 * 1024 * 1024, device=wgpu)
    volta.wgpu.synchronize()
    before = volta.wgpu.counters()["dispatches"]
    total = x.sum()
    assert volta.wgpu.counters()["dispatches"] - before == 2
    assert total.item() == 4 * 1024 * 1024


@pytest.mark.parametrize("op", ["all", "any"])
def test_all_any_over_no_dims_match_the_cpu(wgpu: str, op: str) -> None:
    # each element's truth value, NaN counting as true (Note [all/any over no dims])
    x = volta.tensor([[3.0, 0.0, float("nan")], [1.0, -2.0, 0.0]])
    assert_same(getattr(x.to(wgpu), op)(dim=[]), getattr(x, op)(dim=[]))
    assert_same(getattr(x.t().to(wgpu), op)(dim=[]), getattr(x.t(), op)(dim=[]))
