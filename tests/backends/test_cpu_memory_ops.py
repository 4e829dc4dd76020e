"""The CPU backend's fast paths for copies, indexing and their gradients (strided_copy.py, the
index kernels, global adaptive pooling's backward) give PyTorch's values, shapes, strides and
gradients, for the layouts that take them and for those that do not."""

from __future__ import annotations

import numpy as np
import pytest
import torch

import volta
from volta.backends.cpu import strided_copy
from volta.composites import shape_ops

RNG = np.random.default_rng(8)

# (shape of the row-major source, dtype): large enough for the banded copy unless noted
TRANSPOSED = [
    ((256, 1024), np.float32),
    ((1024, 256), np.float64),
    ((300, 331), np.float32),   # neither side a multiple of a band
    ((40, 2000), np.int64),     # few rows: wide bands
    ((3, 200, 70), np.float32),  # a batch of matrices
    ((16, 16), np.float32),     # too small: the plain copy
    ((0, 5000), np.float32),    # empty
]


def _source(shape: tuple[int, ...], dtype: type) -> np.ndarray:
    return (RNG.standard_normal(shape) * 100).astype(dtype)


@pytest.mark.parametrize("shape,dtype", TRANSPOSED)
def test_transpose_contiguous_matches_torch(shape, dtype):
    a = _source(shape, dtype)
    v = volta.tensor(a).transpose(-2, -1).contiguous()
    t = torch.tensor(a).transpose(-2, -1).contiguous()
    assert v.shape == t.shape and v.is_contiguous()
    if t.numel():  # strides of an empty tensor say nothing (PyTorch's differ by path)
        assert v.stride() == t.stride()
    np.testing.assert_array_equal(v.numpy(), t.numpy())


@pytest.mark.parametrize("shape,dtype", TRANSPOSED[:3])
def test_transpose_clone_and_backward_match_torch(shape, dtype):
    a = _source(shape, dtype)
    v, t = volta.tensor(a, requires_grad=True), torch.tensor(a, requires_grad=True)
    grad = _source(shape[::-1], dtype)
    v.t().clone().backward(volta.tensor(grad))
    t.t().clone().backward(torch.tensor(grad))
    assert v.grad.stride() == t.grad.stride()
    np.testing.assert_array_equal(v.grad.numpy(), t.grad.numpy())


def test_copy_into_contiguous_from_transposed():
    a, b = _source((512, 300), np.float32), _source((300, 512), np.float32)
    v, t = volta.tensor(b), torch.tensor(b)
    v.copy_(volta.tensor(a).t())
    t.copy_(torch.tensor(a).t())
    np.testing.assert_array_equal(v.numpy(), t.numpy())


def test_copy_from_own_transpose_is_not_mixed():
    # the source overlaps the destination: banding would read values it has already written
    a = _source((512, 512), np.float32)
    v, t = volta.tensor(a), torch.tensor(a)
    v.copy_(v.t())
    t.copy_(t.t().clone())  # PyTorch leaves this case undefined; the intended result
    np.testing.assert_array_equal(v.numpy(), t.numpy())


def test_copy_transposed_casts_into_out():
    a = _source((400, 300), np.float64).T
    out = np.empty(a.shape, np.float32)
    assert strided_copy.is_transposed(a)
    strided_copy.copy_transposed(a, out=out)
    np.testing.assert_array_equal(out, a.astype(np.float32))


@pytest.mark.parametrize("shape", [(300, 500), (3, 200, 70), (20, 30)])
def test_kernel_results_in_transposed_layout_are_stored_row_major(shape):
    from volta.backends.cpu.storage import wrap, wrap_as

    a = _source(shape, np.float32)
    transposed = np.swapaxes(a, -1, -2)
    for t in (wrap(transposed), wrap_as(transposed, volta.float64)):
        assert t.is_contiguous() and t._storage.handle.flags.c_contiguous
        np.testing.assert_array_equal(t.numpy(), transposed)


def test_layouts_that_are_not_transposed_take_the_plain_copy():
    a = _source((512, 512), np.float32)
    assert not strided_copy.is_transposed(a)
    assert not strided_copy.is_transposed(a[:, ::2])
    assert not strided_copy.is_transposed(a.T[:, :4])  # too few columns for two bands
    assert strided_copy.is_transposed(a.T)
    v = volta.tensor(a)[:, ::2].contiguous()
    np.testing.assert_array_equal(v.numpy(), a[:, ::2])


# -- gather / scatter_add index fast paths ------------------------------------------------------


@pytest.mark.parametrize("layout", ["contiguous", "transposed input", "strided index", "empty"])
def test_gather_values_and_gradient_match_torch(layout):
    x = RNG.standard_normal((64, 96)).astype(np.float32)
    index = RNG.integers(0, 64 if layout == "transposed input" else 96, (64, 24))
    if layout == "strided index":
        index = RNG.integers(0, 96, (64, 48))[:, ::2]
    if layout == "empty":
        index = index[:0]
    vx, tx = volta.tensor(x, requires_grad=True), torch.tensor(x, requires_grad=True)
    vi, ti = volta.tensor(index), torch.tensor(index)
    vs, ts = (vx.t(), tx.t()) if layout == "transposed input" else (vx, tx)
    vy, ty = vs.gather(1, vi), ts.gather(1, ti)
    np.testing.assert_array_equal(vy.detach().numpy(), ty.detach().numpy())
    grad = RNG.standard_normal(tuple(ty.shape)).astype(np.float32)
    vy.backward(volta.tensor(grad))
    ty.backward(torch.tensor(grad))
    np.testing.assert_allclose(vx.grad.numpy(), tx.grad.numpy(), rtol=1e-6, atol=1e-6)


def test_gather_takes_indices_in_range_and_rejects_negative_ones_as_pytorch():
    x = RNG.standard_normal((4, 5))
    index = np.array([[4, 0], [4, 0], [2, 3], [1, 3]])
    got = volta.tensor(x).gather(1, volta.tensor(index)).numpy()
    np.testing.assert_array_equal(got, np.take_along_axis(x, index, 1))
    for bad in (5, -1, -6):
        with pytest.raises(RuntimeError, match="out of bounds"):  # torch's own error
            torch.tensor(x).gather(1, torch.tensor(np.full((4, 2), bad)))
        with pytest.raises(volta.errors.IndexOutOfRangeError, match="out of bounds"):
            volta.tensor(x).gather(1, volta.tensor(np.full((4, 2), bad)))


def test_a_reshaped_fresh_array_is_owned_by_its_tensor():
    # kernels return ``fresh.reshape(shape)``: a view of an array nothing else holds; the
    # storage keeps the owner, so writes through the tensor reach the whole owner
    from volta.backends.cpu.storage import wrap

    fresh = np.arange(12.0).reshape(3, 4)
    t = wrap(fresh)
    assert t._storage.handle is fresh.base
    del fresh
    t.add_(1)
    np.testing.assert_array_equal(t._storage.handle, np.arange(1.0, 13.0))


# -- global adaptive average pooling's backward: one broadcast copy ------------------------------


@pytest.mark.parametrize("case", ["2d 1x1", "2d 1xW", "1d", "3d", "float64", "channels last",
                                  "empty batch", "unchanged"])
def test_global_adaptive_avg_pool_gradient_matches_torch(case):
    shape, out, dtype = (3, 4, 7, 5), (1, 1), np.float32
    if case == "2d 1xW":
        out = (1, None)
    elif case == "1d":
        shape, out = (3, 4, 9), (1,)
    elif case == "3d":
        shape, out = (2, 3, 4, 5, 6), (1, 1, 1)
    elif case == "float64":
        dtype = np.float64
    elif case == "empty batch":
        shape = (0, 4, 7, 5)
    elif case == "unchanged":
        out = (7, 5)
    x = RNG.standard_normal(shape).astype(dtype)
    pool = {1: "adaptive_avg_pool1d", 2: "adaptive_avg_pool2d", 3: "adaptive_avg_pool3d"}[len(out)]
    vx, tx = volta.tensor(x, requires_grad=True), torch.tensor(x, requires_grad=True)
    vin, tin = vx, tx
    if case == "channels last":
        vin, tin = vx.permute(0, 2, 3, 1).permute(0, 3, 1, 2), tx.permute(0, 2, 3, 1).permute(
            0, 3, 1, 2)
    vy = getattr(volta.nn.functional, pool)(vin, out)
    ty = getattr(torch.nn.functional, pool)(tin, out)
    np.testing.assert_allclose(vy.detach().numpy(), ty.detach().numpy(), rtol=1e-5, atol=1e-6)
    grad = RNG.standard_normal(tuple(ty.shape)).astype(dtype)
    vy.backward(volta.tensor(grad))
    ty.backward(torch.tensor(grad))
    assert vx.grad.dtype == vx.dtype
    np.testing.assert_allclose(vx.grad.numpy(), tx.grad.numpy(), rtol=1e-6, atol=1e-7)


# -- index_select's backward: slices written into fresh zeros ----------------------------------


@pytest.mark.parametrize("dim", [0, 1, -1])
@pytest.mark.parametrize("kind", ["distinct", "repeated", "negative", "empty"])
def test_index_select_backward_matches_zeros_index_add(dim, kind):
    x = RNG.standard_normal((6, 7, 5)).astype(np.float32)
    size = x.shape[dim]
    index = {"distinct": RNG.permutation(size)[:4], "repeated": RNG.integers(0, size, 11),
             "negative": np.array([-1, 0, -size, 2, -1]), "empty": np.array([], np.int64)}[kind]
    grad_shape = list(x.shape)
    grad_shape[dim] = index.size
    grad = RNG.standard_normal(grad_shape).astype(np.float32)
    got = volta.index_select_backward(volta.tensor(grad), list(x.shape), dim,
                                      volta.tensor(index, dtype=volta.int64))
    want = torch.zeros(x.shape).index_add(dim, torch.tensor(index % size), torch.tensor(grad))
    assert got.shape == want.shape and got.dtype == volta.float32
    np.testing.assert_allclose(got.numpy(), want.numpy(), rtol=1e-6, atol=1e-6)
    # the composite every other backend runs
    composite = shape_ops.index_select_backward(volta.tensor(grad), list(x.shape), dim,
                                                volta.tensor(index, dtype=volta.int64))
    np.testing.assert_allclose(composite.numpy(), want.numpy(), rtol=1e-6, atol=1e-6)


def test_index_select_gradient_of_a_scalar_and_its_double_backward_match_torch():
    v0, t0 = volta.tensor(2.5, requires_grad=True), torch.tensor(2.5, requires_grad=True)
    v0.index_select(0, volta.tensor([0])).sum().backward()
    t0.index_select(0, torch.tensor([0])).sum().backward()
    np.testing.assert_array_equal(v0.grad.numpy(), t0.grad.numpy())
    x = RNG.standard_normal((5, 3))
    vx, tx = volta.tensor(x, requires_grad=True), torch.tensor(x, requires_grad=True)
    vi, ti = volta.tensor([4, 0, 4, 2]), torch.tensor([4, 0, 4, 2])
    weights = RNG.standard_normal((4, 3))
    (vg,) = volta.autograd.grad((vx.index_select(0, vi) ** 2 * volta.tensor(weights)).sum(),
                                [vx], create_graph=True)
    (tg,) = torch.autograd.grad((tx.index_select(0, ti) ** 2 * torch.tensor(weights)).sum(),
                                [tx], create_graph=True)
    np.testing.assert_allclose(vg.detach().numpy(), tg.detach().numpy(), rtol=1e-12)
    (vg * vg).sum().backward()
    (tg * tg).sum().backward()
    np.testing.assert_allclose(vx.grad.numpy(), tx.grad.numpy(), rtol=1e-12)


def test_index_select_backward_rejects_bad_input():
    grad = volta.ones(3, 4)
    with pytest.raises(volta.errors.ShapeError, match="does not match"):
        volta.index_select_backward(grad, [5, 4], 0, volta.tensor([0, 1]))
    with pytest.raises(volta.errors.IndexOutOfRangeError, match="out of bounds"):
        volta.index_select_backward(grad, [5, 4], 0, volta.tensor([0, 1, 5]))
    with pytest.raises(volta.errors.DTypeError):
        volta.index_select_backward(grad, [5, 4], 0, volta.tensor([0.0, 1.0, 2.0]))


# -- gather's backward: values added into fresh zeros -------------------------------------------


@pytest.mark.parametrize("dim", [0, 1, -1])
@pytest.mark.parametrize("kind", ["repeated", "smaller index", "negative", "empty"])
def test_gather_backward_matches_zeros_scatter_add(dim, kind):
    shape = (5, 6, 4)
    size = shape[dim]
    index_shape = (3, 4, 2) if kind == "smaller index" else shape
    index = RNG.integers(0, size, index_shape)
    if kind == "negative":
        index = index - size * (RNG.random(index_shape) < 0.5)
    if kind == "empty":
        index = index[:0]
    grad = RNG.standard_normal(index.shape).astype(np.float32)
    vargs = (volta.tensor(grad), list(shape), dim, volta.tensor(index, dtype=volta.int64))
    want = torch.zeros(shape).scatter_add(dim, torch.tensor(index % size), torch.tensor(grad))
    for got in (volta.gather_backward(*vargs), shape_ops.gather_backward(*vargs)):
        assert got.shape == want.shape and got.dtype == volta.float32
        np.testing.assert_allclose(got.numpy(), want.numpy(), rtol=1e-6, atol=1e-6)


def test_gather_gradient_of_a_scalar_and_its_double_backward_match_torch():
    v0, t0 = volta.tensor(1.5, requires_grad=True), torch.tensor(1.5, requires_grad=True)
    v0.gather(0, volta.tensor(0)).backward()
    t0.gather(0, torch.tensor(0)).backward()
    np.testing.assert_array_equal(v0.grad.numpy(), t0.grad.numpy())
    x, index = RNG.standard_normal((4, 5)), RNG.integers(0, 5, (4, 7))
    vx, tx = volta.tensor(x, requires_grad=True), torch.tensor(x, requires_grad=True)
    (vg,) = volta.autograd.grad((vx.gather(1, volta.tensor(index)) ** 3).sum(), [vx],
                                create_graph=True)
    (tg,) = torch.autograd.grad((tx.gather(1, torch.tensor(index)) ** 3).sum(), [tx],
                                create_graph=True)
    np.testing.assert_allclose(vg.detach().numpy(), tg.detach().numpy(), rtol=1e-12)
    (vg * vg).sum().backward()
    (tg * tg).sum().backward()
    np.testing.assert_allclose(vx.grad.numpy(), tx.grad.numpy(), rtol=1e-12)


def test_gather_backward_rejects_bad_input():
    with pytest.raises(volta.errors.ShapeError, match="does not match the index"):
        volta.gather_backward(volta.ones(2, 3), [4, 5], 1, volta.zeros(2, 4, dtype=volta.int64))
    with pytest.raises(volta.errors.IndexOutOfRangeError, match="out of bounds"):
        volta.gather_backward(volta.ones(2, 3), [4, 5], 1, volta.full((2, 3), 5,
                                                                      dtype=volta.int64))


@pytest.mark.parametrize("options", [{}, {"padding_idx": 3}, {"scale_grad_by_freq": True}])
def test_embedding_gradient_with_repeated_tokens_matches_torch(options):
    # the weight's gradient starts from fresh zeros: each token's first row is written, the
    # repeats are added (scatter.add_rows with zeros=True)
    weight = RNG.standard_normal((10, 6)).astype(np.float32)
    tokens = np.array([[3, 1, 3, 3], [9, 1, 0, 3]])
    vw, tw = volta.tensor(weight, requires_grad=True), torch.tensor(weight, requires_grad=True)
    grad = RNG.standard_normal((2, 4, 6)).astype(np.float32)
    volta.nn.functional.embedding(volta.tensor(tokens), vw, **options).backward(volta.tensor(grad))
    torch.nn.functional.embedding(torch.tensor(tokens), tw, **options).backward(torch.tensor(grad))
    np.testing.assert_allclose(vw.grad.numpy(), tw.grad.numpy(), rtol=1e-6, atol=1e-6)


def test_embedding_rows_from_strided_indices_and_bad_indices():
    weight = RNG.standard_normal((10, 6)).astype(np.float32)
    tokens = RNG.integers(0, 10, (4, 6))
    got = volta.nn.functional.embedding(volta.tensor(tokens).t(), volta.tensor(weight))
    want = torch.nn.functional.embedding(torch.tensor(tokens).t(), torch.tensor(weight))
    np.testing.assert_array_equal(got.numpy(), want.numpy())
    for bad in (-1, 10):
        with pytest.raises(volta.errors.IndexOutOfRangeError, match="index out of range"):
            volta.nn.functional.embedding(volta.tensor([[0, bad]]), volta.tensor(weight))
