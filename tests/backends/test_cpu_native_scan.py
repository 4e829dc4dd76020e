"""The compiled running sums (volta/backends/cpu/native/scan.c) against PyTorch, through cumsum
and its backward (the reversed running sum of the gradient, op ``_cumsum_backward``): every dim
of 1-, 2- and 3-d float32/float64 inputs, empty and 1-length dims, NaN and infinities, long
rows (the sums are kept in double as PyTorch's, so they agree exactly), non-contiguous inputs
and dtype= casts (the numpy path), double backward, and the same values on 1, 2 and 3 threads.
With VOLTA_NATIVE=0 the same tests check the numpy path."""

from __future__ import annotations

import numpy as np
import pytest
import torch

import volta
from volta.backends.cpu import native

# The compiled scan keeps each sum in double and rounds once, as PyTorch: equal bit for bit.
# The numpy path sums in float32 (blocks through BLAS along the last dim, numpy's running sum
# along the others): on 2**18 terms it drifts to about 2e-5 relative, 2e-4 absolute near zero.
EXACT = ({"rtol": 0.0, "atol": 0.0} if native.kernels("scan") is not None
         else {"rtol": 1e-4, "atol": 1e-3})
DTYPES = {"float32": (np.float32, torch.float32), "float64": (np.float64, torch.float64)}
SHAPES = [(7,), (5, 33), (3, 17, 9), (2, 1, 300), (1, 4, 1), (0, 5), (4, 0, 3)]


def _data(shape: tuple[int, ...], dtype: type = np.float32, seed: int = 0) -> np.ndarray:
    return np.random.default_rng(seed).standard_normal(shape).astype(dtype)


def _close(got: volta.Tensor, expected: torch.Tensor, **tolerance: float) -> None:
    assert tuple(got.shape) == tuple(expected.shape)
    assert str(got.dtype).split(".")[-1] == str(expected.dtype).split(".")[-1]
    torch.testing.assert_close(torch.from_numpy(np.array(got.detach().numpy())),
                               expected.detach(), equal_nan=True, **tolerance)


def _cumsum_forward_backward(data: np.ndarray, dim: int, **tolerance: float) -> None:
    tx = torch.tensor(data, requires_grad=True)
    vx = volta.tensor(data, requires_grad=True)
    ty, vy = tx.cumsum(dim), vx.cumsum(dim)
    _close(vy, ty, **tolerance)
    upstream = _data(data.shape, data.dtype, seed=1)
    ty.backward(torch.tensor(upstream))
    vy.backward(volta.tensor(upstream))
    _close(vx.grad, tx.grad, **tolerance)


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("shape", SHAPES, ids=str)
def test_cumsum_forward_backward_along_every_dim(shape: tuple[int, ...], dtype: str) -> None:
    for dim in range(-len(shape), len(shape)):
        _cumsum_forward_backward(_data(shape, DTYPES[dtype][0]), dim)


@pytest.mark.parametrize("dim", [0, 1])
def test_nan_and_infinities_propagate_as_in_torch(dim: int) -> None:
    data = _data((6, 6))
    data[1, 2], data[3, 0], data[4, 5], data[0, 4] = np.nan, np.inf, -np.inf, np.inf
    data[5, 1], data[5, 3] = np.inf, -np.inf  # inf + -inf -> NaN from there on
    _cumsum_forward_backward(data, dim)


def test_long_rows_agree_exactly_with_torch() -> None:
    data = np.random.default_rng(2).random((2, 1 << 18)).astype(np.float32)
    _cumsum_forward_backward(data, 1, **EXACT)
    _cumsum_forward_backward(data.T.copy(), 0, **EXACT)


def test_non_contiguous_inputs_and_dtype_casts_take_the_numpy_path() -> None:
    data = _data((6, 10))
    tx, vx = torch.tensor(data), volta.tensor(data)
    _close(vx.t().cumsum(1), tx.t().cumsum(1))
    _close(vx[:, ::3].cumsum(1), tx[:, ::3].cumsum(1))
    _close(vx.cumsum(1, dtype=volta.float64), tx.cumsum(1, dtype=torch.float64))
    _close(volta.arange(12).reshape(3, 4).cumsum(0), torch.arange(12).reshape(3, 4).cumsum(0))
    _close(volta.tensor(3.5).cumsum(0), torch.tensor(3.5).cumsum(0))


def test_backward_of_a_non_contiguous_gradient() -> None:
    data = _data((5, 8))
    tx = torch.tensor(data, requires_grad=True)
    vx = volta.tensor(data, requires_grad=True)
    upstream = _data((8, 5), seed=3)
    tx.cumsum(1).backward(torch.tensor(upstream).t())
    vx.cumsum(1).backward(volta.tensor(upstream).t())
    _close(vx.grad, tx.grad)


def test_double_backward_matches_torch() -> None:
    data = _data((3, 7))
    tx = torch.tensor(data, requires_grad=True)
    vx = volta.tensor(data, requires_grad=True)
    tg = torch.tensor(_data((3, 7), seed=4), requires_grad=True)
    vg = volta.tensor(tg.detach().numpy(), requires_grad=True)
    (t_first,) = torch.autograd.grad(tx.cumsum(1), tx, tg, create_graph=True)
    (v_first,) = volta.autograd.grad(vx.cumsum(1), vx, vg, create_graph=True)
    _close(v_first, t_first)
    weights = _data((3, 7), seed=5)
    (t_first * torch.tensor(weights)).sum().backward()
    (v_first * volta.tensor(weights)).sum().backward()
    _close(vg.grad, tg.grad)


def _both_scans(data: np.ndarray, dim: int) -> np.ndarray:
    x = volta.tensor(data)
    return np.stack([x.cumsum(dim).numpy(), volta._cumsum_backward(x, dim).numpy()])


@pytest.mark.parametrize("threads", [2, 3])
def test_results_do_not_depend_on_the_thread_count(threads: int) -> None:
    data = [_data((300, 1000)), _data((40, 50, 300)), _data((3000, 17))]
    before = volta.get_num_threads()
    try:
        volta.set_num_threads(1)
        one = [_both_scans(a, d) for a in data for d in range(a.ndim)]
        volta.set_num_threads(threads)
        many = [_both_scans(a, d) for a in data for d in range(a.ndim)]
    finally:
        volta.set_num_threads(before)
    for a, b in zip(one, many, strict=True):
        np.testing.assert_array_equal(a, b)


@pytest.mark.parametrize("threads", [1, 2, 3])
def test_backward_on_each_thread_count_matches_torch(threads: int) -> None:
    before = volta.get_num_threads()
    try:
        volta.set_num_threads(threads)
        _cumsum_forward_backward(_data((256, 1024)), 1, **EXACT)
        _cumsum_forward_backward(_data((64, 40, 20)), 1, **EXACT)
    finally:
        volta.set_num_threads(before)


@pytest.mark.parametrize("dim", [0, 1, 2])
def test_cumprod_backward_uses_the_reversed_scan_and_matches_torch(dim: int) -> None:
    data = (np.random.default_rng(6).random((3, 5, 6)) + 0.5).astype(np.float32)
    tx = torch.tensor(data, requires_grad=True)
    vx = volta.tensor(data, requires_grad=True)
    upstream = _data(data.shape, seed=7)
    tx.cumprod(dim).backward(torch.tensor(upstream))
    vx.cumprod(dim).backward(volta.tensor(upstream))
    _close(vx.grad, tx.grad)
