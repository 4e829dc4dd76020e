"""Convolution and max pooling through the compiled passes of native/conv.c (Note [native
convolution]): values and gradients against PyTorch, on 1, 2 and 3 threads, and the passes
themselves bit for bit the same on every thread count. With VOLTA_NATIVE=0 the op tests run the
numpy path against the same oracle; the pass tests load the compiled module directly."""

import importlib

import numpy as np
import pytest
import torch

import volta
import volta.nn.functional as F
from volta.backends.cpu import numpy_nn

conv_passes = importlib.import_module("volta.backends.cpu.native._conv")


@pytest.fixture
def restore_threads(monkeypatch):
    # every pass split over the threads, however small (only large ones are, normally)
    monkeypatch.setattr(numpy_nn, "PASS_SPLIT_ELEMENTS", 1)
    before = volta.get_num_threads()
    yield
    volta.set_num_threads(before)


CONV_CASES = [
    # input shape, weight shape, keyword arguments
    ((4, 1, 28, 28), (6, 1, 5, 5), {"padding": 2}),  # LeNet's first convolution
    ((4, 6, 14, 14), (16, 6, 5, 5), {}),  # LeNet's second
    ((2, 4, 9, 11), (6, 2, 3, 2), {"stride": (2, 3), "padding": (1, 0), "dilation": (2, 1),
                                   "groups": 2}),
    ((1, 3, 7, 5), (4, 3, 3, 3), {"stride": 2, "padding": 1}),  # one sample, odd sizes
    ((3, 3, 13), (4, 3, 3), {"stride": 2, "padding": 1}),  # 1-d
    ((2, 4, 9), (4, 1, 2), {"dilation": 3, "groups": 4}),  # 1-d depthwise
    ((2, 2, 5, 6, 7), (4, 1, 3, 2, 3), {"stride": (1, 2, 1), "padding": 1, "groups": 2}),  # 3-d
]


def _torch_and_volta(x: np.ndarray, *rest: np.ndarray):
    """The same leaf arrays as torch and volta tensors that require grad."""
    torch_leaves = [torch.tensor(a, requires_grad=True) for a in (x, *rest)]
    volta_leaves = [volta.tensor(a, requires_grad=True) for a in (x, *rest)]
    return torch_leaves, volta_leaves


def _assert_close(got: volta.Tensor, expected: torch.Tensor, tol: float = 1e-4) -> None:
    np.testing.assert_allclose(got.detach().numpy(), expected.detach().numpy(), rtol=tol,
                               atol=tol)


@pytest.mark.parametrize("threads", [1, 2, 3])
@pytest.mark.parametrize("case", CONV_CASES)
def test_convolution_and_gradients_match_torch(restore_threads, case, threads):
    xs, ws, kwargs = case
    volta.set_num_threads(threads)
    rng = np.random.default_rng(0)
    x, w = (rng.standard_normal(s).astype(np.float32) for s in (xs, ws))
    b = rng.standard_normal(ws[0]).astype(np.float32)
    nd = len(xs) - 2
    (tx, tw, tb), (vx, vw, vb) = _torch_and_volta(x, w, b)
    ty = getattr(torch.nn.functional, f"conv{nd}d")(tx, tw, tb, **kwargs)
    vy = getattr(F, f"conv{nd}d")(vx, vw, vb, **kwargs)
    _assert_close(vy, ty)
    g = rng.standard_normal(tuple(ty.shape)).astype(np.float32)
    ty.backward(torch.from_numpy(g))
    vy.backward(volta.tensor(g))
    for got, expected in ((vx.grad, tx.grad), (vw.grad, tw.grad), (vb.grad, tb.grad)):
        _assert_close(got, expected)


@pytest.mark.parametrize("threads", [1, 2])
def test_transposed_convolution_matches_torch(restore_threads, threads):
    volta.set_num_threads(threads)
    rng = np.random.default_rng(1)
    x = rng.standard_normal((3, 4, 5, 6)).astype(np.float32)
    w = rng.standard_normal((4, 3, 3, 2)).astype(np.float32)
    kwargs = {"stride": 2, "padding": 1, "output_padding": 1, "groups": 2}
    (tx, tw), (vx, vw) = _torch_and_volta(x, w)
    ty = torch.nn.functional.conv_transpose2d(tx, tw, **kwargs)
    vy = F.conv_transpose2d(vx, vw, **kwargs)
    _assert_close(vy, ty)
    g = rng.standard_normal(tuple(ty.shape)).astype(np.float32)
    ty.backward(torch.from_numpy(g))
    vy.backward(volta.tensor(g))
    _assert_close(vx.grad, tx.grad)
    _assert_close(vw.grad, tw.grad)


@pytest.mark.parametrize("where", ["input", "weight"])
def test_infinite_and_nan_inputs_propagate_like_torch(where):
    # the wide layout's off-output columns meet these: its gradients must fall back to exact
    rng = np.random.default_rng(2)
    x = rng.standard_normal((2, 2, 6, 6)).astype(np.float32)
    w = rng.standard_normal((3, 2, 3, 3)).astype(np.float32)
    special = x if where == "input" else w
    special[0, 0, 0, 0] = np.inf
    special[1, 1, 2, 2] = np.nan
    # (no padding with an infinite weight: PyTorch's kernels skip the padding where an im2col
    # convolution multiplies it, inf * 0)
    padding = 1 if where == "input" else 0
    (tx, tw), (vx, vw) = _torch_and_volta(x, w)
    ty = torch.nn.functional.conv2d(tx, tw, padding=padding)
    vy = F.conv2d(vx, vw, padding=padding)
    np.testing.assert_allclose(vy.detach().numpy(), ty.detach().numpy(), rtol=1e-4, atol=1e-4)
    ty.sum().backward()
    vy.sum().backward()
    np.testing.assert_allclose(vw.grad.numpy(), tw.grad.numpy(), rtol=1e-4, atol=1e-4)
    np.testing.assert_allclose(vx.grad.numpy(), tx.grad.numpy(), rtol=1e-4, atol=1e-4)


def test_non_contiguous_input_gives_the_same_values():
    rng = np.random.default_rng(3)
    x = rng.standard_normal((3, 2, 8, 8)).astype(np.float32)
    w = rng.standard_normal((4, 2, 3, 3)).astype(np.float32)
    strided = volta.tensor(x.transpose(0, 1, 3, 2).copy()).transpose(2, 3)
    np.testing.assert_allclose(F.conv2d(strided, volta.tensor(w)).numpy(),
                               torch.nn.functional.conv2d(torch.from_numpy(x),
                                                          torch.from_numpy(w)).numpy(),
                               rtol=1e-4, atol=1e-4)


POOL_CASES = [
    # input shape, keyword arguments
    ((4, 6, 28, 28), {"kernel_size": 2}),  # LeNet's pools
    ((3, 2, 9, 7), {"kernel_size": (3, 2), "stride": (2, 1), "padding": (1, 0),
                    "ceil_mode": True}),
    ((2, 3, 10, 9), {"kernel_size": (2, 3), "stride": (1, 2), "padding": 1, "dilation": (2, 1)}),
    ((2, 5, 11), {"kernel_size": 3, "stride": 2, "padding": 1, "ceil_mode": True}),  # 1-d
    ((5, 11), {"kernel_size": 4, "stride": 3, "ceil_mode": True}),  # 1-d unbatched
    ((2, 2, 4, 6, 5), {"kernel_size": 2, "padding": 1, "stride": (1, 2, 2)}),  # 3-d
]


@pytest.mark.parametrize("threads", [1, 2, 3])
@pytest.mark.parametrize("special", ["none", "nan", "ties", "-inf"])
@pytest.mark.parametrize("case", POOL_CASES)
def test_max_pool_matches_torch(restore_threads, case, special, threads):
    shape, kwargs = case
    volta.set_num_threads(threads)
    rng = np.random.default_rng(4)
    x = rng.standard_normal(shape).astype(np.float32)
    if special == "nan":  # NaN wins its windows; of several NaN the last (PyTorch's CPU rule)
        x.reshape(-1)[::7] = np.nan
        x.reshape(-1)[1::9] = np.nan
    elif special == "ties":  # the first maximum wins
        x = rng.integers(0, 3, shape).astype(np.float32)
    elif special == "-inf":  # windows of -inf only report their first in-bounds tap
        x.reshape(-1)[: x.size // 2] = -np.inf
    nd = len(kwargs["kernel_size"]) if isinstance(kwargs["kernel_size"], tuple) else (
        len(shape) - 2 if len(shape) > 2 else 1)
    (tx,), (vx,) = _torch_and_volta(x)
    t_pool = getattr(torch.nn.functional, f"max_pool{nd}d")
    v_pool = getattr(F, f"max_pool{nd}d")
    ty, ti = t_pool(tx, return_indices=True, **kwargs)
    vy, vi = v_pool(vx, return_indices=True, **kwargs)
    np.testing.assert_array_equal(vy.detach().numpy(), ty.detach().numpy())
    np.testing.assert_array_equal(vi.numpy(), ti.numpy())
    g = rng.standard_normal(tuple(ty.shape)).astype(np.float32)
    ty.backward(torch.from_numpy(g))
    vy.backward(volta.tensor(g))
    np.testing.assert_allclose(vx.grad.numpy(), tx.grad.numpy(), rtol=1e-6, atol=1e-6)


def _geometry(n, c, spatial, kernel, stride, padding, dilation, out):
    lead = 3 - len(spatial)
    ones, zeros = (1,) * lead, (0,) * lead
    return (n, c, *ones, *spatial, *ones, *kernel, *ones, *stride, *zeros, *padding, *ones,
            *dilation, *ones, *out)


def _reference_columns(x, kernel, stride, padding, dilation, out):
    """(C*taps, N*Q) columns of a 2-d input by direct indexing."""
    n, c, h, w = x.shape
    taps = [(i, j) for i in range(kernel[0]) for j in range(kernel[1])]
    cols = np.zeros((c, len(taps), n, out[0], out[1]), np.float32)
    for t, (i, j) in enumerate(taps):
        for oh in range(out[0]):
            for ow in range(out[1]):
                ih = oh * stride[0] - padding[0] + i * dilation[0]
                iw = ow * stride[1] - padding[1] + j * dilation[1]
                if 0 <= ih < h and 0 <= iw < w:
                    cols[:, t, :, oh, ow] = x[:, :, ih, iw].T
    return cols.reshape(c * len(taps), -1)


@pytest.mark.parametrize("stride,padding,dilation", [((1, 1), (0, 0), (1, 1)),
                                                     ((2, 3), (1, 2), (1, 2)),
                                                     ((1, 2), (2, 1), (2, 1))])
def test_columns_and_their_adjoint_on_every_thread_count(stride, padding, dilation):
    rng = np.random.default_rng(5)
    x = rng.standard_normal((3, 4, 7, 9)).astype(np.float32)
    kernel = (3, 2)
    out = tuple((s + 2 * p - d * (k - 1) - 1) // st + 1
                for s, k, st, p, d in zip(x.shape[2:], kernel, stride, padding, dilation))
    geometry = _geometry(3, 4, x.shape[2:], kernel, stride, padding, dilation, out)
    expected = _reference_columns(x, kernel, stride, padding, dilation, out)
    cols = rng.standard_normal(expected.shape).astype(np.float32)
    # the adjoint: <columns(x), cols> == <x, col2im(cols)>
    images = []
    for threads in (1, 2, 3):
        got = np.full(expected.shape, np.nan, np.float32)
        conv_passes.im2col(x, got, geometry, threads)
        np.testing.assert_array_equal(got, expected)
        image = np.full(x.shape, np.nan, np.float32)
        conv_passes.col2im(image, cols, geometry, threads)
        images.append(image)
    np.testing.assert_array_equal(images[0], images[1])
    np.testing.assert_array_equal(images[0], images[2])
    np.testing.assert_allclose(np.vdot(expected.astype(np.float64), cols),
                               np.vdot(x.astype(np.float64), images[0]), rtol=1e-5)


def test_swap_leading_adds_the_bias_per_source_row():
    rng = np.random.default_rng(6)
    src = rng.standard_normal((5, 3, 7)).astype(np.float32)
    bias = rng.standard_normal(5).astype(np.float32)
    for threads in (1, 2, 3):
        dst = np.empty((3, 5, 7), np.float32)
        conv_passes.swap_leading(src, dst, bias, 5, 3, threads)
        np.testing.assert_array_equal(dst, src.transpose(1, 0, 2) + bias[None, :, None])
        conv_passes.swap_leading(src, dst, None, 5, 3, threads)
        np.testing.assert_array_equal(dst, src.transpose(1, 0, 2))


def test_bad_arguments_raise_instead_of_touching_memory():
    x = np.zeros((2, 3, 5, 5), np.float32)
    geometry = _geometry(2, 3, (5, 5), (3, 3), (1, 1), (0, 0), (1, 1), (3, 3))
    with pytest.raises(ValueError):  # columns too small for the geometry
        conv_passes.im2col(x, np.empty(10, np.float32), geometry, 1)
    with pytest.raises(ValueError):  # float64
        conv_passes.im2col(x.astype(np.float64), np.empty(2 * 27 * 9), geometry, 1)
    with pytest.raises(TypeError):
        conv_passes.col2im(x, np.empty(2 * 27 * 9, np.float32), geometry[:5], 1)
    with pytest.raises(ValueError):  # a zero stride
        conv_passes.im2col(x, np.empty(2 * 27 * 9, np.float32),
                           geometry[:8] + (0,) + geometry[9:], 1)
    grad = np.ones((2, 4), np.float32)
    with pytest.raises(IndexError):  # an index outside its plane
        conv_passes.max_pool_backward(grad, np.array([[0, 1, 2, 9]] * 2, np.int64),
                                      np.empty((2, 9), np.float32), 2, 1)
    with pytest.raises(ValueError):  # indices of the wrong item size
        conv_passes.max_pool_backward(grad, np.zeros((2, 4), np.int32),
                                      np.empty((2, 9), np.float32), 2, 1)


@pytest.mark.parametrize("dilation", [(1, 1), (2, 1)])
def test_wide_columns_maps_and_their_adjoint_on_every_thread_count(dilation):
    rng = np.random.default_rng(7)
    n, c, cout, plane, kernel = 3, 2, 4, (7, 9), (3, 2)
    out = tuple(p - d * (k - 1) for p, k, d in zip(plane, kernel, dilation))
    length = (out[0] - 1) * plane[1] + out[1]
    xp = rng.standard_normal((n, c, *plane)).astype(np.float32)
    geometry = _geometry(n, c, plane, kernel, (1, 1), (0, 0), dilation, out)
    taps = [(i, j) for i in range(kernel[0]) for j in range(kernel[1])]
    flat = xp.reshape(n, c, -1)
    expected = np.stack([flat[:, ch, i * dilation[0] * plane[1] + j * dilation[1]:][:, :length]
                         for ch in range(c) for i, j in taps]).reshape(c * len(taps), -1)
    cols = rng.standard_normal(expected.shape).astype(np.float32)
    maps = rng.standard_normal((n, cout, *out)).astype(np.float32)
    bias = rng.standard_normal(cout).astype(np.float32)
    maps_geometry = _geometry(n, cout, plane, kernel, (1, 1), (0, 0), dilation, out)
    results = []
    for threads in (1, 2, 3):
        got = np.full(expected.shape, np.nan, np.float32)
        conv_passes.wide_im2col(xp, got, geometry, threads)
        np.testing.assert_array_equal(got, expected)
        image = np.full(xp.shape, np.nan, np.float32)
        conv_passes.wide_col2im(image, cols, geometry, threads)
        rows = np.full((cout, n, length), np.nan, np.float32)
        conv_passes.wide_from_maps(maps, rows, None, cout, maps_geometry, threads)
        back = np.empty_like(maps)
        conv_passes.wide_to_maps(rows, back, bias, cout, maps_geometry, threads)
        np.testing.assert_array_equal(back, maps + bias[:, None, None])
        results.append((image, rows))
    for image, rows in results[1:]:
        np.testing.assert_array_equal(image, results[0][0])
        np.testing.assert_array_equal(rows, results[0][1])
    np.testing.assert_allclose(np.vdot(expected.astype(np.float64), cols),
                               np.vdot(xp.astype(np.float64), results[0][0]), rtol=1e-5)
    # off the outputs the wide rows are zero
    assert np.count_nonzero(results[0][1]) == maps.size


def test_wide_passes_refuse_strides_and_padding():
    xp = np.zeros((1, 1, 6, 6), np.float32)
    cols = np.empty(9 * 22, np.float32)
    with pytest.raises(ValueError):  # stride 2
        conv_passes.wide_im2col(xp, cols, _geometry(1, 1, (6, 6), (3, 3), (2, 1), (0, 0),
                                                    (1, 1), (2, 4)), 1)
    with pytest.raises(ValueError):  # padding
        conv_passes.wide_col2im(xp, cols, _geometry(1, 1, (6, 6), (3, 3), (1, 1), (1, 0),
                                                    (1, 1), (4, 4)), 1)
    with pytest.raises(ValueError):  # columns of the wrong size
        conv_passes.wide_im2col(xp, cols[:-1], _geometry(1, 1, (6, 6), (3, 3), (1, 1), (0, 0),
                                                         (1, 1), (4, 4)), 1)
    with pytest.raises(ValueError):  # maps larger than the planes
        conv_passes.wide_to_maps(np.zeros(22, np.float32), np.zeros(49, np.float32), None, 1,
                                 _geometry(1, 1, (6, 6), (3, 3), (1, 1), (0, 0), (1, 1),
                                           (7, 7)), 1)
