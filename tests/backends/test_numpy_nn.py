"""Compare volta's pure-numpy NN kernels with PyTorch's aten reference implementations."""

from __future__ import annotations

import tracemalloc

import numpy as np
import pytest
import torch
import torch.nn.functional as F

from volta.backends.cpu import numpy_nn as nn
from volta.backends.cpu import parallel

DTYPES = [np.float32, np.float64]


def tol(dtype: type) -> dict[str, float]:
    """Tolerances per dtype (float32 results may differ in summation order from torch)."""
    if dtype == np.float32:
        return {"rtol": 1e-5, "atol": 1e-5}
    return {"rtol": 1e-10, "atol": 1e-10}


def rand(shape: tuple[int, ...], dtype: type, seed: int = 0) -> np.ndarray:
    """Deterministic standard-normal data."""
    return np.random.default_rng(seed).standard_normal(shape).astype(dtype)


def tt(a: np.ndarray | None, grad: bool = False) -> torch.Tensor | None:
    """numpy -> torch (a copy, so torch's in-place ops cannot touch our arrays)."""
    if a is None:
        return None
    return torch.tensor(np.array(a)).requires_grad_(grad)


def check(actual: np.ndarray, expected: torch.Tensor, dtype: type) -> None:
    """Same shape, same dtype and numerically close."""
    exp = expected.detach().numpy()
    assert isinstance(actual, np.ndarray)
    assert actual.dtype == np.dtype(dtype)
    assert actual.shape == exp.shape
    np.testing.assert_allclose(actual, exp, **tol(dtype))


# --------------------------------------------------------------------------------------------
# convolution
# --------------------------------------------------------------------------------------------

# (input shape, out channels, kernel, stride, padding, dilation, groups, bias)
CONV_CASES = [
    ((2, 4, 11), 6, (3,), (2,), (1,), (1,), 2, True),
    ((2, 2, 10), 3, (3,), (3,), (0,), (1,), 1, True),
    ((2, 3, 9, 8), 5, (3, 2), (2, 1), (1, 0), (1, 2), 1, True),
    ((3, 4, 7, 7), 8, (3, 3), (1, 1), (2, 2), (2, 2), 4, False),
    ((1, 6, 10, 9), 6, (1, 1), (3, 2), (0, 0), (1, 1), 3, True),
    ((2, 2, 5, 6, 4), 4, (2, 3, 2), (1, 2, 1), (1, 0, 1), (2, 1, 1), 2, True),
    ((1, 3, 4, 4, 4), 2, (3, 3, 3), (2, 2, 2), (1, 1, 1), (1, 1, 1), 1, False),
    # stride 1 everywhere: the wide column layout where it wastes few columns (1-d, and the
    # long rows of the last case), else the exact one (see Note [tap layouts])
    ((2, 3, 12), 4, (5,), (1,), (2,), (1,), 1, True),
    ((2, 1, 12, 11), 6, (5, 5), (1, 1), (2, 2), (1, 1), 1, True),
    ((2, 6, 9, 8), 4, (3, 2), (1, 1), (0, 1), (1, 2), 2, False),
    ((1, 2, 5, 6, 4), 3, (2, 3, 2), (1, 1, 1), (1, 0, 2), (2, 1, 1), 1, True),
    ((2, 4, 6, 40), 4, (3, 3), (1, 1), (1, 1), (1, 1), 2, True),
]

# (input shape, out channels, kernel, stride, padding, dilation, output_padding, groups, bias)
TCONV_CASES = [
    ((2, 4, 7), 6, (3,), (2,), (1,), (1,), (1,), 2, True),
    ((2, 3, 5, 4), 4, (3, 2), (2, 3), (1, 0), (1, 2), (1, 2), 1, True),
    ((1, 4, 4, 5), 8, (3, 3), (1, 1), (0, 1), (2, 1), (1, 0), 4, False),
    ((2, 2, 3, 4, 3), 4, (2, 3, 2), (2, 1, 2), (0, 1, 1), (1, 1, 2), (1, 0, 1), 2, True),
    ((2, 4, 5, 6), 6, (3, 3), (1, 1), (1, 2), (1, 1), (0, 0), 2, True),
]


def _conv_inputs(case: tuple, transposed: bool, dtype: type) -> tuple:
    """Build (x, w, b, stride, padding, dilation, output_padding, groups) for a case."""
    if transposed:
        shape, cout, k, s, p, d, op, g, has_bias = case
        wshape = (shape[1], cout // g, *k)
    else:
        shape, cout, k, s, p, d, g, has_bias = case
        op = (0,) * len(k)
        wshape = (cout, shape[1] // g, *k)
    x = rand(shape, dtype, 1)
    w = rand(wshape, dtype, 2)
    b = rand((cout,), dtype, 3) if has_bias else None
    return x, w, b, list(s), list(p), list(d), list(op), g


def _run_conv_case(case: tuple, transposed: bool, dtype: type) -> None:
    """Forward and all backward outputs against aten.convolution(_backward)."""
    x, w, b, s, p, d, op, g = _conv_inputs(case, transposed, dtype)
    out = nn.convolution(x, w, b, s, p, d, transposed, op, g)
    ref = torch.ops.aten.convolution(tt(x), tt(w), tt(b), s, p, d, transposed, op, g)
    check(out, ref, dtype)

    gy = rand(out.shape, dtype, 4)
    gi, gw, gb = nn.convolution_backward(gy, x, w, s, p, d, transposed, op, g, [True] * 3)
    rgi, rgw, rgb = torch.ops.aten.convolution_backward(
        tt(gy), tt(x), tt(w), [out.shape[1]], s, p, d, transposed, op, g, [True] * 3
    )
    check(gi, rgi, dtype)
    check(gw, rgw, dtype)
    check(gb, rgb, dtype)


@pytest.mark.parametrize("exact_only", [False, True])
@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("case", CONV_CASES)
def test_convolution(
    monkeypatch: pytest.MonkeyPatch, case: tuple, dtype: type, exact_only: bool
) -> None:
    """Direct convolution forward and backward match aten, in the layouts the kernels choose
    and with the exact layout forced everywhere."""
    if exact_only:
        monkeypatch.setattr(nn, "_use_wide", lambda stride, plane, out_shape: False)
    _run_conv_case(case, False, dtype)


def test_convolution_layout_choice() -> None:
    """The wide layout is taken only where its off-output columns are few."""
    assert nn._use_wide((1, 1), (8, 42), (6, 40))  # 10 of 250 columns off-output
    assert nn._use_wide((1, 1), (14, 14), (10, 10))  # LeNet's second conv: 36 of 136
    assert not nn._use_wide((1, 1), (13, 13), (7, 7))  # 7x7 kernel, padding 3: 36 of 85
    assert not nn._use_wide((1, 1), (14, 14), (6, 6))  # 5x5 kernel on 10x10: 40 of 76
    assert not nn._use_wide((2, 1), (8, 42), (3, 40))


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("case", TCONV_CASES)
def test_conv_transpose(case: tuple, dtype: type) -> None:
    """Transposed convolution forward and backward match aten."""
    _run_conv_case(case, True, dtype)


@pytest.mark.parametrize("budget", [64, 700, 6000])
@pytest.mark.parametrize(
    ("transposed", "case"),
    [(False, CONV_CASES[2]), (False, CONV_CASES[8]), (False, CONV_CASES[11]),
     (True, TCONV_CASES[1]), (True, TCONV_CASES[4])],
)
def test_convolution_chunked(
    monkeypatch: pytest.MonkeyPatch, budget: int, transposed: bool, case: tuple
) -> None:
    """Tiny budgets force batch chunks and, below one sample, row chunks; results must match
    (strided and stride-1 layouts)."""
    monkeypatch.setattr(nn, "COLUMN_BUDGET_BYTES", budget)
    for dtype in DTYPES:
        _run_conv_case(case, transposed, dtype)


@pytest.mark.parametrize("serial_mnk", [1, 50, 333])
@pytest.mark.parametrize(
    ("transposed", "case"),
    [(False, CONV_CASES[0]), (False, CONV_CASES[3]), (False, CONV_CASES[8]),
     (False, CONV_CASES[5]), (True, TCONV_CASES[1])],
)
def test_convolution_weight_grad_in_slices(
    monkeypatch: pytest.MonkeyPatch, serial_mnk: int, transposed: bool, case: tuple
) -> None:
    """Weight gradients summed over slices of the positions (one position per slice, and slices
    that leave a remainder) match aten, with groups, strides, padding and dilation."""
    monkeypatch.setattr(nn, "_BLAS_SERIAL_MNK", serial_mnk)
    monkeypatch.setattr(parallel, "num_threads", lambda: 2)
    for dtype in DTYPES:
        _run_conv_case(case, transposed, dtype)


@pytest.mark.parametrize("budget", [64, 2**20])
@pytest.mark.parametrize(
    ("transposed", "case"),
    [(False, CONV_CASES[8]), (False, CONV_CASES[9]), (False, CONV_CASES[10]),
     (False, CONV_CASES[11]), (True, TCONV_CASES[4])],
)
def test_convolution_reads_no_stale_workspace(
    monkeypatch: pytest.MonkeyPatch, budget: int, transposed: bool, case: tuple
) -> None:
    """Every workspace buffer starts full of NaN: results still match aten, so no kernel reads
    what it did not write (the wide layout's off-output columns included), whole or chunked."""
    take = nn._WORKSPACE.take

    def poisoned(slot: str, shape: tuple[int, ...], dtype: np.dtype) -> np.ndarray:
        out = take(slot, shape, dtype)
        out.fill(np.nan)
        return out

    monkeypatch.setattr(nn._WORKSPACE, "take", poisoned)
    monkeypatch.setattr(nn, "COLUMN_BUDGET_BYTES", budget)
    for dtype in DTYPES:
        _run_conv_case(case, transposed, dtype)


@pytest.mark.parametrize("threads", [1, 2])
@pytest.mark.parametrize(("m", "n", "k"), [(6, 25, 20000), (3, 7, 37449), (2, 2, 1), (40, 30, 500)])
def test_products_over_positions(
    monkeypatch: pytest.MonkeyPatch, threads: int, m: int, n: int, k: int
) -> None:
    """The product equals one matmul, whether it slices (odd K, a remainder) or not (one
    thread, a large output, a short K)."""
    monkeypatch.setattr(parallel, "num_threads", lambda: threads)
    a = rand((2, m, k), np.float64, 1)
    b = rand((2, n, k), np.float64, 2)
    np.testing.assert_allclose(
        nn._products_over_positions(a, b), np.matmul(a, b.transpose(0, 2, 1)), rtol=1e-10
    )


@pytest.mark.parametrize("case", [CONV_CASES[2], CONV_CASES[8], CONV_CASES[10]])
def test_convolution_noncontiguous(case: tuple) -> None:
    """Inputs, weights and grads that are strided views give aten's results."""
    x, w, b, s, p, d, op, g = _conv_inputs(case, False, np.float64)
    xs = np.swapaxes(np.swapaxes(x, -1, 0).copy(), -1, 0)  # same values, permuted strides
    ws = np.repeat(w, 2, axis=-1)[..., ::2]  # same values, every other column of a copy
    out = nn.convolution(xs, ws, b, s, p, d, False, op, g)
    ref = torch.ops.aten.convolution(tt(x), tt(w), tt(b), s, p, d, False, op, g)
    check(out, ref, np.float64)
    gy = rand(out.shape, np.float64, 4)
    gys = np.repeat(gy, 2, axis=1)[:, ::2]
    got = nn.convolution_backward(gys, xs, ws, s, p, d, False, op, g, [True] * 3)
    want = torch.ops.aten.convolution_backward(
        tt(gy), tt(x), tt(w), [out.shape[1]], s, p, d, False, op, g, [True] * 3
    )
    for a, r in zip(got, want):
        check(a, r, np.float64)


@pytest.mark.parametrize("where", ["input", "weight", "grad"])
@pytest.mark.parametrize("case", [CONV_CASES[8], CONV_CASES[2], CONV_CASES[11]])
def test_convolution_nonfinite(case: tuple, where: str) -> None:
    """inf and NaN reach exactly the outputs and gradients they reach in aten: the stride-1
    layout's off-output positions must not turn 0 * inf into NaN anywhere else."""
    x, w, b, s, p, d, op, g = _conv_inputs(case, False, np.float64)
    gy = rand(nn.convolution(x, w, b, s, p, d, False, op, g).shape, np.float64, 4)
    target = {"input": x, "weight": w, "grad": gy}[where]
    target.reshape(-1)[[0, target.size // 2]] = np.inf
    target.reshape(-1)[-1] = np.nan
    out = nn.convolution(x, w, b, s, p, d, False, op, g)
    ref = torch.ops.aten.convolution(tt(x), tt(w), tt(b), s, p, d, False, op, g)
    np.testing.assert_allclose(out, ref.numpy(), **tol(np.float64))
    got = nn.convolution_backward(gy, x, w, s, p, d, False, op, g, [True] * 3)
    want = torch.ops.aten.convolution_backward(
        tt(gy), tt(x), tt(w), [out.shape[1]], s, p, d, False, op, g, [True] * 3
    )
    for a, r in zip(got, want):
        np.testing.assert_allclose(a, r.numpy(), **tol(np.float64))


def test_convolution_results_own_their_memory() -> None:
    """Kernels reuse scratch buffers between calls; what they return must not live there."""
    x, w, b, s, p, d, op, g = _conv_inputs(CONV_CASES[9], False, np.float32)
    out = nn.convolution(x, w, b, s, p, d, False, op, g)
    grads = nn.convolution_backward(out, x, w, s, p, d, False, op, g, [True] * 3)
    kept = [out.copy(), *(a.copy() for a in grads)]
    x2, w2, b2, *_ = _conv_inputs(CONV_CASES[9], False, np.float64)
    out2 = nn.convolution(x2 * 3, w2, b2, s, p, d, False, op, g)
    nn.convolution_backward(out2, x2, w2, s, p, d, False, op, g, [True] * 3)
    nn.convolution(x * 2, w, b, s, p, d, False, op, g)
    for before, now in zip(kept, [out, *grads]):
        np.testing.assert_array_equal(before, now)


def test_convolution_output_mask() -> None:
    """Unrequested gradients are None; requested ones are unchanged."""
    x, w, b, s, p, d, op, g = _conv_inputs(CONV_CASES[0], False, np.float64)
    gy = rand(nn.convolution(x, w, b, s, p, d, False, op, g).shape, np.float64, 5)
    full = nn.convolution_backward(gy, x, w, s, p, d, False, op, g, [True, True, True])
    for mask in ([True, False, False], [False, True, False], [False, False, True]):
        part = nn.convolution_backward(gy, x, w, s, p, d, False, op, g, mask)
        for want, got, ref in zip(mask, part, full):
            if want:
                np.testing.assert_array_equal(got, ref)
            else:
                assert got is None


@pytest.mark.parametrize("transposed", [False, True])
def test_convolution_memory_bounded(monkeypatch: pytest.MonkeyPatch, transposed: bool) -> None:
    """Peak traced memory stays far below one full-batch column buffer (12.5 MiB here)."""
    monkeypatch.setattr(nn, "COLUMN_BUDGET_BYTES", 2**20)
    x = rand((16, 8, 32, 32), np.float32)  # 0.5 MiB
    w = rand((8, 4, 5, 5) if transposed else (4, 8, 5, 5), np.float32, 1)
    full_columns = 16 * 8 * 25 * 32 * 32 * 4
    args = ([1, 1], [2, 2], [1, 1], transposed, [0, 0], 1)
    peaks = []
    tracemalloc.start()
    try:
        out = nn.convolution(x, w, None, *args)
        peaks.append(tracemalloc.get_traced_memory()[1])
        for mask in ([True, False, False], [False, True, False]):
            tracemalloc.reset_peak()
            nn.convolution_backward(out, x, w, *args, mask)
            peaks.append(tracemalloc.get_traced_memory()[1])
    finally:
        tracemalloc.stop()
    assert max(peaks) < 0.35 * full_columns, peaks


def test_convolution_float16() -> None:
    """float16 stays float16 and agrees with the float32 computation."""
    x, w, b, s, p, d, op, g = _conv_inputs(CONV_CASES[2], False, np.float16)
    out = nn.convolution(x, w, b, s, p, d, False, op, g)
    ref = nn.convolution(*(a.astype(np.float32) for a in (x, w, b)), s, p, d, False, op, g)
    assert out.dtype == np.float16
    np.testing.assert_allclose(out, ref, rtol=2e-3, atol=2e-3)


# --------------------------------------------------------------------------------------------
# max pooling
# --------------------------------------------------------------------------------------------

# (input shape, kernel, stride, padding, dilation, ceil_mode)
MAXPOOL_CASES = [
    ((2, 3, 11), [3], [2], [1], [1], False),
    ((3, 10), [2], [], [0], [1], True),
    ((1, 1, 5), [2], [2], [1], [1], True),
    ((2, 3, 9, 10), [3, 2], [2, 2], [1, 0], [1, 2], True),
    ((2, 8, 7), [2, 3], [1, 2], [1, 1], [2, 1], False),
    ((2, 2, 8, 8), [3, 3], [3, 3], [1, 1], [1, 1], True),
    ((1, 2, 5, 6, 7), [2, 3, 2], [2, 1, 2], [1, 1, 0], [1, 1, 2], True),
    ((2, 5, 6, 5), [3, 3, 2], [], [1, 1, 1], [1, 1, 1], False),
]


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("case", MAXPOOL_CASES)
def test_max_pool(case: tuple, dtype: type) -> None:
    """Values, indices and the scatter backward match F.max_pool*d."""
    shape, k, s, p, d, ceil = case
    nd = len(k)
    x = rand(shape, dtype)
    out, idx = nn.max_pool_with_indices(x, k, s, p, d, ceil)
    xt = tt(x, grad=True)
    fn = getattr(F, f"max_pool{nd}d")
    rout, ridx = fn(xt, k, s or None, p, d, ceil_mode=ceil, return_indices=True)
    check(out, rout, dtype)
    assert idx.dtype == np.int64
    np.testing.assert_array_equal(idx, ridx.numpy())

    g = rand(out.shape, dtype, 7)
    rout.backward(tt(g))
    check(nn.max_pool_backward(g, x, idx, spatial_ndim=nd), xt.grad, dtype)
    if len(shape) == nd + 2:  # batched layouts are what the dim inference assumes
        check(nn.max_pool_backward(g, x, idx), xt.grad, dtype)


def test_max_pool_nan_and_inf() -> None:
    """NaN propagation and all -inf windows pick the same index as aten."""
    x = rand((2, 2, 6, 7), np.float64)
    x[0, 0, 1, 1] = np.nan
    x[0, 0, 1, 2] = np.nan
    x[1, 1, :3, :3] = -np.inf
    x[1, 0, 2, :] = np.inf
    out, idx = nn.max_pool_with_indices(x, [3, 3], [2, 2], [1, 1], [1, 1], True)
    rout, ridx = F.max_pool2d(tt(x), 3, 2, 1, 1, ceil_mode=True, return_indices=True)
    np.testing.assert_array_equal(out, rout.numpy())
    np.testing.assert_array_equal(idx, ridx.numpy())


# Windows that tile the input (stride == kernel, no padding or dilation): the fast path, except
# where ceil_mode adds a partial window.
TILED_MAXPOOL_CASES = [
    ((2, 3, 8, 8), [2, 2], [2, 2], False),
    ((2, 3, 9, 7), [2, 2], [], False),  # odd sizes: the last row/column is never read
    ((2, 3, 9, 7), [3, 2], [], True),  # a partial window: the general path
    ((2, 3, 8, 6), [2, 3], [], True),  # ceil_mode with exact tiles
    ((3, 10), [2], [], False),
    ((1, 2, 4, 6, 6), [2, 3, 2], [], False),
    ((2, 2, 5, 5), [1, 1], [], False),
]


def _max_pool_vs_aten(x: np.ndarray, k: list, s: list, ceil: bool) -> None:
    """Values, indices and backward (inferred and explicit dims) against F.max_pool*d."""
    nd = len(k)
    out, idx = nn.max_pool_with_indices(x, k, s, [0] * nd, [1] * nd, ceil)
    xt = tt(np.ascontiguousarray(x), grad=True)
    rout, ridx = getattr(F, f"max_pool{nd}d")(xt, k, s or None, 0, 1, ceil_mode=ceil,
                                               return_indices=True)
    np.testing.assert_array_equal(out, rout.detach().numpy())
    np.testing.assert_array_equal(idx, ridx.numpy())
    g = rand(out.shape, x.dtype, 7)
    rout.backward(tt(g))
    check(nn.max_pool_backward(g, x, idx, spatial_ndim=nd), xt.grad, x.dtype)


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("case", TILED_MAXPOOL_CASES)
def test_max_pool_tiled(case: tuple, dtype: type) -> None:
    """Tiled windows give aten's values, indices and gradients; ties go to the first tap."""
    shape, k, s, ceil = case
    _max_pool_vs_aten(rand(shape, dtype), k, s, ceil)
    ties = np.random.default_rng(3).integers(0, 3, shape).astype(dtype)  # many equal maxima
    _max_pool_vs_aten(ties, k, s, ceil)
    noncontiguous = np.swapaxes(np.swapaxes(rand(shape, dtype, 5), 0, -1).copy(), 0, -1)
    _max_pool_vs_aten(noncontiguous, k, s, ceil)


def test_max_pool_tiled_takes_fast_path(monkeypatch: pytest.MonkeyPatch) -> None:
    """Tiled windows without NaN go through the tiled kernel, never the tap-by-tap loop (on
    the numpy path: float32 goes to the compiled kernel where it is built)."""
    monkeypatch.setattr(nn, "_native_conv", lambda *arrays: None)
    calls = []
    tiled = nn._max_pool_tiled

    def spy(*args: object) -> object:
        result = tiled(*args)
        calls.append(result is not None)
        return result

    monkeypatch.setattr(nn, "_max_pool_tiled", spy)
    for shape, k, s, ceil in TILED_MAXPOOL_CASES:
        nn.max_pool_with_indices(rand(shape, np.float32), k, s, [0] * len(k), [1] * len(k), ceil)
    # every case but the one with a partial window, and none falls back
    assert calls == [True] * (len(TILED_MAXPOOL_CASES) - 1)


def test_max_pool_tiled_nan_and_inf() -> None:
    """NaN windows (several NaN: the last one wins), inf and -inf windows match aten."""
    x = rand((2, 2, 6, 8), np.float32)
    x[0, 0, 0, 0] = x[0, 0, 1, 1] = np.nan
    x[0, 1, 2, 3] = np.nan
    x[1, 0, :2, :2] = -np.inf
    x[1, 1, 4, 4:6] = np.inf
    _max_pool_vs_aten(x, [2, 2], [], False)
    _max_pool_vs_aten(x, [3, 2], [3, 2], False)


def test_max_pool_backward_unbatched_inference() -> None:
    """A (C, H, W) input whose indices exceed a row is recognised as 2-d unbatched."""
    x = rand((3, 6, 6), np.float64)
    out, idx = nn.max_pool_with_indices(x, [2, 2], [], [0, 0], [1, 1], False)
    xt = tt(x, grad=True)
    rout = F.max_pool2d(xt, 2)
    g = rand(out.shape, np.float64, 1)
    rout.backward(tt(g))
    check(nn.max_pool_backward(g, x, idx), xt.grad, np.float64)


# --------------------------------------------------------------------------------------------
# average pooling
# --------------------------------------------------------------------------------------------

# (input shape, kernel, stride, padding, ceil_mode, count_include_pad, divisor_override)
AVGPOOL_CASES = [
    ((2, 3, 11), [3], [2], [1], False, True, None),
    ((3, 10), [4], [], [2], True, False, None),
    ((1, 1, 5), [2], [2], [1], True, True, None),
    ((2, 3, 9, 10), [3, 2], [2, 2], [1, 1], True, False, None),
    ((2, 3, 9, 10), [3, 2], [2, 1], [1, 0], False, True, 5),
    ((2, 7, 8), [2, 3], [1, 2], [1, 1], True, True, None),
    ((1, 2, 5, 6, 7), [2, 3, 2], [2, 1, 2], [1, 1, 0], True, False, None),
    ((1, 2, 5, 6, 7), [3, 2, 3], [2, 2, 2], [1, 1, 1], True, True, None),
    ((2, 5, 6, 5), [3, 3, 2], [], [1, 1, 1], False, True, 3),
]


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("case", AVGPOOL_CASES)
def test_avg_pool(case: tuple, dtype: type) -> None:
    """Forward and backward match F.avg_pool*d, incl. divisor rules."""
    shape, k, s, p, ceil, cip, div = case
    nd = len(k)
    x = rand(shape, dtype)
    out = nn.avg_pool(x, k, s, p, ceil, cip, div)
    xt = tt(x, grad=True)
    if nd == 1:
        assert div is None  # avg_pool1d has no divisor_override
        rout = F.avg_pool1d(xt, k, s or None, p, ceil, cip)
    else:
        fn = getattr(F, f"avg_pool{nd}d")
        rout = fn(xt, k, s or None, p, ceil, cip, divisor_override=div)
    check(out, rout, dtype)

    g = rand(out.shape, dtype, 7)
    rout.backward(tt(g))
    check(nn.avg_pool_backward(g, x, k, s, p, ceil, cip, div), xt.grad, dtype)


# --------------------------------------------------------------------------------------------
# adaptive pooling
# --------------------------------------------------------------------------------------------

ADAPTIVE_CASES = [
    ((2, 3, 11), [4]),
    ((3, 10), [10]),
    ((2, 3, 9, 10), [4, None]),
    ((3, 7, 5), [3, 8]),
    ((2, 2, 8, 8), [1, 1]),
    ((1, 2, 5, 6, 7), [2, 3, None]),
    ((2, 5, 6, 5), [4, 4, 4]),
]


def _resolved(shape: tuple[int, ...], size: list[int | None]) -> list[int]:
    return [n if o is None else o for o, n in zip(size, shape[-len(size) :])]


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("case", ADAPTIVE_CASES)
def test_adaptive_avg_pool(case: tuple, dtype: type) -> None:
    """Forward and backward match F.adaptive_avg_pool*d."""
    shape, size = case
    nd = len(size)
    x = rand(shape, dtype)
    out = nn.adaptive_avg_pool(x, size)
    xt = tt(x, grad=True)
    rout = getattr(F, f"adaptive_avg_pool{nd}d")(xt, _resolved(shape, size))
    check(out, rout, dtype)
    g = rand(out.shape, dtype, 7)
    rout.backward(tt(g))
    check(nn.adaptive_avg_pool_backward(g, x), xt.grad, dtype)


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("case", ADAPTIVE_CASES)
def test_adaptive_max_pool(case: tuple, dtype: type) -> None:
    """Values, indices and backward match F.adaptive_max_pool*d."""
    shape, size = case
    nd = len(size)
    x = rand(shape, dtype)
    out, idx = nn.adaptive_max_pool(x, size)
    xt = tt(x, grad=True)
    fn = getattr(F, f"adaptive_max_pool{nd}d")
    rout, ridx = fn(xt, _resolved(shape, size), return_indices=True)
    check(out, rout, dtype)
    assert idx.dtype == np.int64
    np.testing.assert_array_equal(idx, ridx.numpy())
    g = rand(out.shape, dtype, 7)
    rout.backward(tt(g))
    check(nn.max_pool_backward(g, x, idx, spatial_ndim=nd), xt.grad, dtype)


# --------------------------------------------------------------------------------------------
# normalisation
# --------------------------------------------------------------------------------------------

BN_SHAPES = [(4, 3), (4, 3, 5), (2, 3, 4, 5), (2, 3, 2, 3, 2)]


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("shape", BN_SHAPES)
@pytest.mark.parametrize("training", [True, False])
@pytest.mark.parametrize("affine", [True, False])
def test_batch_norm(shape: tuple, training: bool, affine: bool, dtype: type) -> None:
    """Outputs, saved stats, in-place running stats and grads match aten."""
    c = shape[1]
    x = rand(shape, dtype) * 2 + 0.5
    w = rand((c,), dtype, 1) if affine else None
    b = rand((c,), dtype, 2) if affine else None
    rm = rand((c,), dtype, 3)
    rv = np.abs(rand((c,), dtype, 4)) + 0.5
    rm_t, rv_t = tt(rm), tt(rv)
    momentum, eps = 0.3, 1e-5
    out, sm, si = nn.native_batch_norm(x, w, b, rm, rv, training, momentum, eps)
    rout, rsm, rsi = torch.ops.aten.native_batch_norm(
        tt(x), tt(w), tt(b), rm_t, rv_t, training, momentum, eps
    )
    check(out, rout, dtype)
    check(sm, rsm, dtype)
    check(si, rsi, dtype)
    check(rm, rm_t, dtype)  # running stats were updated in place
    check(rv, rv_t, dtype)

    go = rand(shape, dtype, 5)
    mask = [True, affine, True]
    got = nn.native_batch_norm_backward(go, x, w, rm, rv, sm, si, training, eps, mask)
    ref = torch.ops.aten.native_batch_norm_backward(
        tt(go), tt(x), tt(w), rm_t, rv_t, rsm, rsi, training, eps, mask
    )
    for want, a, r in zip(mask, got, ref):
        if want:
            check(a, r, dtype)
        else:
            assert a is None


def test_batch_norm_training_without_running_stats() -> None:
    """Training mode works without running stats."""
    x = rand((5, 2, 3), np.float64)
    out, sm, si = nn.native_batch_norm(x, None, None, None, None, True, 0.1, 1e-5)
    rout, rsm, rsi = torch.ops.aten.native_batch_norm(
        tt(x), None, None, None, None, True, 0.1, 1e-5
    )
    check(out, rout, np.float64)
    check(sm, rsm, np.float64)
    check(si, rsi, np.float64)


# (input shape, normalized_shape)
LN_CASES = [((4, 5), [5]), ((2, 3, 4), [3, 4]), ((2, 3, 4, 5), [5]), ((6,), [6])]


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("case", LN_CASES)
@pytest.mark.parametrize("affine", [True, False])
def test_layer_norm(case: tuple, affine: bool, dtype: type) -> None:
    """native_layer_norm and its backward match aten."""
    shape, ns = case
    x = rand(shape, dtype) * 3 - 1
    w = rand(tuple(ns), dtype, 1) if affine else None
    b = rand(tuple(ns), dtype, 2) if affine else None
    eps = 1e-5
    out, mean, rstd = nn.native_layer_norm(x, ns, w, b, eps)
    rout, rmean, rrstd = torch.ops.aten.native_layer_norm(tt(x), ns, tt(w), tt(b), eps)
    check(out, rout, dtype)
    check(mean, rmean, dtype)
    check(rstd, rrstd, dtype)

    go = rand(shape, dtype, 5)
    mask = [True, affine, affine]
    got = nn.native_layer_norm_backward(go, x, ns, mean, rstd, w, b, mask)
    ref = torch.ops.aten.native_layer_norm_backward(
        tt(go), tt(x), ns, rmean, rrstd, tt(w), tt(b), mask
    )
    for want, a, r in zip(mask, got, ref):
        if want:
            check(a, r, dtype)
        else:
            assert a is None


# (input shape, groups, affine)
GN_CASES = [
    ((2, 6, 5), 3, True),
    ((3, 4, 2, 3), 2, True),
    ((2, 4), 2, True),
    ((2, 6, 2, 2, 2), 1, False),
]


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("case", GN_CASES)
def test_group_norm(case: tuple, dtype: type) -> None:
    """native_group_norm and its backward match aten."""
    shape, groups, affine = case
    n, c = shape[:2]
    hxw = int(np.prod(shape[2:]))
    x = rand(shape, dtype) * 2 + 1
    w = rand((c,), dtype, 1) if affine else None
    b = rand((c,), dtype, 2) if affine else None
    eps = 1e-5
    out, mean, rstd = nn.native_group_norm(x, w, b, n, c, hxw, groups, eps)
    rout, rmean, rrstd = torch.ops.aten.native_group_norm(
        tt(x), tt(w), tt(b), n, c, hxw, groups, eps
    )
    check(out, rout, dtype)
    check(mean, rmean, dtype)
    check(rstd, rrstd, dtype)

    go = rand(shape, dtype, 5)
    mask = [True, affine, affine]
    got = nn.native_group_norm_backward(go, x, mean, rstd, w, n, c, hxw, groups, mask)
    ref = torch.ops.aten.native_group_norm_backward(
        tt(go), tt(x), rmean, rrstd, tt(w), n, c, hxw, groups, mask
    )
    for want, a, r in zip(mask, got, ref):
        if want:
            check(a, r, dtype)
        else:
            assert a is None


# --------------------------------------------------------------------------------------------
# embedding
# --------------------------------------------------------------------------------------------


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("padding_idx", [None, -1, 2])
@pytest.mark.parametrize("scale", [False, True])
def test_embedding_backward(padding_idx: int | None, scale: bool, dtype: type) -> None:
    """Dense embedding gradient matches aten, incl. padding and scaling."""
    idx = np.random.default_rng(0).integers(0, 7, size=(3, 5)).astype(np.int64)
    g = rand((3, 5, 4), dtype)
    got = nn.embedding_backward(g, idx, 10, padding_idx, scale)
    pad = -1 if padding_idx is None else padding_idx
    ref = torch.ops.aten.embedding_dense_backward(tt(g), torch.from_numpy(idx), 10, pad, scale)
    check(got, ref, dtype)


# --------------------------------------------------------------------------------------------
# erf family
# --------------------------------------------------------------------------------------------

SPECIALS = np.array([0.0, -0.0, np.inf, -np.inf, np.nan])


def _erf_points() -> np.ndarray:
    tiny = np.logspace(-300, 0, 301)
    return np.concatenate([np.linspace(-6, 6, 24001), tiny, -tiny, SPECIALS])


def _assert_same_special(got: np.ndarray, ref: np.ndarray) -> None:
    """Exact agreement on NaN positions, infinities and signed zeros."""
    np.testing.assert_array_equal(np.isnan(got), np.isnan(ref))
    fin = ~np.isnan(ref)
    np.testing.assert_array_equal(np.signbit(got[fin]), np.signbit(ref[fin]))
    np.testing.assert_array_equal(np.isinf(got), np.isinf(ref))


@pytest.mark.parametrize("name", ["erf", "erfc"])
def test_erf_erfc_float64(name: str) -> None:
    """float64 erf/erfc agree with torch to 1e-13 incl. tails and specials."""
    x = _erf_points()
    if name == "erfc":  # the right tail of erfc stays representable far beyond 6
        x = np.concatenate([x, np.linspace(6, 26.5, 4001)])
    got = getattr(nn, name)(x)
    ref = getattr(torch.special, name)(torch.from_numpy(x)).numpy()
    assert got.dtype == np.float64
    np.testing.assert_allclose(got, ref, rtol=1e-13, atol=0)
    _assert_same_special(got, ref)


def test_erfinv_float64() -> None:
    """float64 erfinv agrees with torch to 1e-13 up to +-(1 - 1e-12)."""
    edge = 1 - 1e-12
    tiny = np.logspace(-300, -1, 300)
    x = np.concatenate(
        [
            np.linspace(-edge, edge, 24001),
            1 - np.logspace(-12, -1, 200),
            tiny,
            -tiny,
            [edge, -edge, 1.0, -1.0, 1.5, -2.0],
            SPECIALS,
        ]
    )
    got = nn.erfinv(x)
    ref = torch.special.erfinv(torch.from_numpy(x)).numpy()
    assert got.dtype == np.float64
    np.testing.assert_allclose(got, ref, rtol=1e-13, atol=0)
    _assert_same_special(got, ref)


@pytest.mark.parametrize("name", ["erf", "erfc", "erfinv"])
def test_erf_family_float32(name: str) -> None:
    """float32 inputs keep their dtype and agree with torch."""
    lo, hi = (-0.999, 0.999) if name == "erfinv" else (-5.0, 5.0)
    x = np.linspace(lo, hi, 2001, dtype=np.float32)
    got = getattr(nn, name)(x)
    ref = getattr(torch.special, name)(torch.from_numpy(x)).numpy()
    assert got.dtype == np.float32
    np.testing.assert_allclose(got, ref, rtol=1e-5, atol=1e-6)


def test_erf_against_mpmath() -> None:
    """Independent high-precision check of the float64 accuracy claim."""
    mpmath = pytest.importorskip("mpmath")
    mpmath.mp.dps = 40
    x = np.concatenate([np.linspace(-6, 6, 97), np.linspace(6.5, 26, 14)])
    erf_ref = np.array([float(mpmath.erf(v)) for v in x])
    erfc_ref = np.array([float(mpmath.erfc(v)) for v in x])
    np.testing.assert_allclose(nn.erf(x), erf_ref, rtol=5e-16, atol=0)
    np.testing.assert_allclose(nn.erfc(x), erfc_ref, rtol=1e-15, atol=0)
    y = np.concatenate([np.linspace(-0.999, 0.999, 61), 1 - np.logspace(-15, -3, 13)])
    inv_ref = np.array([float(mpmath.erfinv(v)) for v in y])
    np.testing.assert_allclose(nn.erfinv(y), inv_ref, rtol=1e-15, atol=0)
