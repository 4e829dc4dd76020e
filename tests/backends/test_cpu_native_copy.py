"""Strided copies (volta/backends/cpu/strided_copy.py; compiled in native/copy.c where built):
contiguous() of permuted, transposed, expanded, sliced and flipped views, for every dtype, equal
to numpy's copy and to PyTorch, on 1, 2 or 3 threads. With VOLTA_NATIVE=0 the same tests check
the numpy path."""

import numpy as np
import pytest
import torch

import volta
from volta.backends.cpu import strided_copy

RNG = np.random.default_rng(3)
DTYPES = [volta.float32, volta.float64, volta.float16, volta.bfloat16, volta.int8, volta.uint8,
          volta.int16, volta.int32, volta.int64, volta.bool]

VIEWS = {
    "transpose": lambda a: a.transpose(-1, -2),
    "permute nhwc": lambda a: a.permute(0, 2, 3, 1),
    "permute nchw": lambda a: a.permute(0, 3, 1, 2),
    "reverse dims": lambda a: a.permute(3, 2, 1, 0),
    "expand": lambda a: a[:, :, :1].expand(-1, -1, a.shape[2], -1),
    # a stride-0 last dim (sum's backward): rows of one value, not a transposed pair
    "expand last dim": lambda a: a[..., :1].expand(-1, -1, -1, a.shape[3]),
    "expand everything": lambda a: a[:1, :1, :1, :1].expand(*a.shape),
    "slice": lambda a: a[:, 1:, ::2, 3:],
    "select": lambda a: a[:, 2],
    "transposed slice": lambda a: a[1:, :, 2:-1].transpose(1, 3),
}


def _source(shape, dtype):
    values = RNG.standard_normal(shape) * 50
    return volta.tensor(values.astype(np.float32)).to(dtype)


def _as_torch(t):
    if t.dtype == volta.bfloat16:
        return torch.from_numpy(t.float().numpy()).to(torch.bfloat16)
    return torch.from_numpy(t.numpy())


@pytest.mark.parametrize("dtype", DTYPES, ids=str)
@pytest.mark.parametrize("view", VIEWS)
def test_contiguous_matches_torch(view, dtype):
    x = _source((3, 17, 40, 36), dtype)
    v = VIEWS[view](x).contiguous()
    t = VIEWS[view](_as_torch(x)).contiguous()
    assert v.is_contiguous() and tuple(v.shape) == tuple(t.shape)
    assert torch.equal(_as_torch(v), t)


@pytest.mark.parametrize("shape", [(0, 5), (5, 0, 3), (), (1,), (1, 1, 7), (64, 1)], ids=str)
def test_empty_scalar_and_degenerate_shapes(shape):
    a = RNG.standard_normal(shape).astype(np.float32)
    x = volta.tensor(a)
    v = x.t().contiguous() if len(shape) == 2 else x.contiguous()
    np.testing.assert_array_equal(v.numpy(), a.T if len(shape) == 2 else a)


@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.int16, np.bool_, np.int8])
def test_numpy_views_with_negative_strides_and_odd_sizes(dtype):
    a = (RNG.standard_normal((37, 53, 11)) * 9).astype(dtype)
    for view in (a[::-1], a[:, ::-3].transpose(1, 0, 2), a.transpose(2, 1, 0)[::2, ::-1],
                 a[5], a.transpose(0, 2, 1)[:, :, 7:]):
        np.testing.assert_array_equal(strided_copy.copy_c_order(view), view)
        assert strided_copy.copy_c_order(view).flags.c_contiguous


def test_more_dims_than_the_kernel_takes():
    a = RNG.standard_normal((1,) * 15 + (3, 4, 5)).astype(np.float32)
    view = a.swapaxes(-1, -3)
    np.testing.assert_array_equal(strided_copy.copy_c_order(view), view)


def test_copy_into_a_strided_destination():
    source = RNG.standard_normal((64, 48)).astype(np.float32)
    dest = np.zeros((64, 100), np.float32)
    target = dest[:, 10:58]
    if not strided_copy.copy_into(source.T.T, target):
        np.copyto(target, source)  # the numpy path (VOLTA_NATIVE=0)
    np.testing.assert_array_equal(dest[:, 10:58], source)
    assert not dest[:, :10].any() and not dest[:, 58:].any()


@pytest.mark.parametrize("threads", [1, 2, 3])
@pytest.mark.parametrize("view", ["transpose", "permute nhwc", "expand", "slice"])
def test_split_over_threads_gives_the_same_values(view, threads):
    x = _source((4, 32, 48, 64), volta.float32)  # 1.5 MiB: split over up to 3 threads
    previous = volta.get_num_threads()
    volta.set_num_threads(threads)
    try:
        v = VIEWS[view](x).contiguous()
    finally:
        volta.set_num_threads(previous)
    assert torch.equal(_as_torch(v), VIEWS[view](_as_torch(x)).contiguous())


def test_gradient_of_a_permute_is_the_inverse_permute():
    a = RNG.standard_normal((2, 3, 5, 7)).astype(np.float32)
    g = RNG.standard_normal((2, 5, 7, 3)).astype(np.float32)
    x = volta.tensor(a, requires_grad=True)
    x.permute(0, 2, 3, 1).contiguous().backward(volta.tensor(g))
    t = torch.from_numpy(a).requires_grad_()
    t.permute(0, 2, 3, 1).contiguous().backward(torch.from_numpy(g))
    assert torch.equal(torch.from_numpy(x.grad.numpy()), t.grad)


@pytest.mark.parametrize("dtype", DTYPES, ids=str)
@pytest.mark.parametrize("dim", [0, 1, -1])
def test_cat_and_stack_match_torch(dtype, dim):
    x = _source((6, 36, 36), dtype)
    parts = [x, x.transpose(1, 2), _source((6, 36, 36), dtype)[:, ::2].repeat(1, 2, 1)]
    t_parts = [_as_torch(p) for p in parts]
    assert torch.equal(_as_torch(volta.cat(parts, dim)), torch.cat(t_parts, dim))
    assert torch.equal(_as_torch(volta.stack(parts, dim)), torch.stack(t_parts, dim))
    narrow = x[:, 5:17]  # parts of different sizes along the joined dim
    assert torch.equal(_as_torch(volta.cat([narrow, x], 1)),
                       torch.cat([_as_torch(narrow), _as_torch(x)], 1))


@pytest.mark.parametrize("threads", [1, 2, 3])
def test_cat_of_many_and_of_large_parts_over_threads(threads):
    x = _source((64, 2048), volta.float32)  # 512 KiB parts: split over the threads
    pieces = x.split(100, 1)  # 21 strided pieces: more than the compiled path takes
    previous = volta.get_num_threads()
    volta.set_num_threads(threads)
    try:
        joined = volta.cat(pieces[::-1], 1)
        pair = volta.cat([x, x.t().contiguous().t()], 0)
    finally:
        volta.set_num_threads(previous)
    t = _as_torch(x)
    assert torch.equal(_as_torch(joined), torch.cat(t.split(100, 1)[::-1], 1))
    assert torch.equal(_as_torch(pair), torch.cat([t, t], 0))


@pytest.mark.parametrize("dtype", [volta.float32, volta.bfloat16, volta.int64, volta.bool],
                         ids=str)
def test_copy_into_views_matches_torch(dtype):
    x = _source((70, 90), dtype)
    y = _source((90, 70), dtype)
    target = volta.zeros(80, 100, dtype=dtype)
    target[5:75, 3:93].copy_(y.t())
    expected = torch.zeros(80, 100, dtype=_as_torch(target).dtype)
    expected[5:75, 3:93].copy_(_as_torch(y).t())
    assert torch.equal(_as_torch(target), expected)
    x.t().copy_(y)  # a transposed destination
    assert torch.equal(_as_torch(x).t(), _as_torch(y))


def test_copy_between_overlapping_views_reads_the_source_first():
    a = RNG.standard_normal((64, 130)).astype(np.float32)
    x = volta.tensor(a)
    x[:, 1:].copy_(x[:, :-1])
    expected = a.copy()
    expected[:, 1:] = a[:, :-1]
    np.testing.assert_array_equal(x.numpy(), expected)
