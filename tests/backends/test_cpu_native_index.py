"""Rows and elements picked by an index, and their gradients (compiled in native/copy.c where
built; volta/backends/cpu/scatter.py): index_select along dim 0, embedding, gather along the last
dim, against PyTorch for every dtype the kernels take, repeated and negative indices, indices out
of range (PyTorch's errors), zero sizes, and the same sums on 1, 2 or 3 threads. With
VOLTA_NATIVE=0 the same tests check the numpy path."""

import numpy as np
import pytest
import torch

import volta

RNG = np.random.default_rng(11)
DTYPES = [volta.float32, volta.float64, volta.float16, volta.bfloat16, volta.int8, volta.int32,
          volta.int64, volta.bool]


def _source(shape, dtype):
    return volta.tensor((RNG.standard_normal(shape) * 20).astype(np.float32)).to(dtype)


def _as_torch(t):
    if t.dtype == volta.bfloat16:
        return torch.from_numpy(t.float().numpy()).to(torch.bfloat16)
    return torch.from_numpy(t.numpy())


def _with_threads(threads, fn):
    previous = volta.get_num_threads()
    volta.set_num_threads(threads)
    try:
        return fn()
    finally:
        volta.set_num_threads(previous)


@pytest.mark.parametrize("dtype", DTYPES, ids=str)
def test_index_select_rows_matches_torch(dtype):
    x = _source((50, 3, 7), dtype)
    index = np.array([4, 0, 49, 4, 1, 7, 4], np.int64)
    got = volta.index_select(x, 0, volta.tensor(index))
    assert torch.equal(_as_torch(got), torch.index_select(_as_torch(x), 0,
                                                          torch.from_numpy(index)))
    empty = volta.index_select(x, 0, volta.tensor(np.zeros(0, np.int64)))
    assert tuple(empty.shape) == (0, 3, 7)


@pytest.mark.parametrize("bad", [50, -51])
def test_index_select_out_of_range_raises(bad):
    x = volta.ones(50, 4)
    with pytest.raises(volta.VoltaError):
        volta.index_select(x, 0, volta.tensor([1, bad]))
    with pytest.raises(IndexError):
        torch.index_select(torch.ones(50, 4), 0, torch.tensor([1, bad]))


@pytest.mark.parametrize("dtype", DTYPES, ids=str)
def test_gather_last_dim_matches_torch(dtype):
    x = _source((9, 40), dtype)
    index = RNG.integers(0, 40, (7, 13))
    got = volta.gather(x, 1, volta.tensor(index))
    assert torch.equal(_as_torch(got), torch.gather(_as_torch(x), 1, torch.from_numpy(index)))


@pytest.mark.parametrize("bad", [40, -1])
def test_gather_out_of_range_raises_as_torch(bad):
    index = np.zeros((3, 2), np.int64)
    index[2, 1] = bad
    with pytest.raises(volta.VoltaError):
        volta.gather(volta.ones(3, 40), 1, volta.tensor(index))
    with pytest.raises(RuntimeError):
        torch.gather(torch.ones(3, 40), 1, torch.from_numpy(index))


@pytest.mark.parametrize("dtype", [volta.float32, volta.float64, volta.float16], ids=str)
def test_embedding_forward_and_backward_match_torch(dtype):
    weight = _source((30, 8), dtype)
    indices = RNG.integers(0, 30, (5, 6))
    indices[0, :3] = 7  # repeats accumulate
    w = weight.detach().requires_grad_()
    out = volta.nn.functional.embedding(volta.tensor(indices), w, padding_idx=3)
    grad = _source(tuple(out.shape), dtype)
    out.backward(grad)
    tw = _as_torch(weight).detach().requires_grad_()
    t_out = torch.nn.functional.embedding(torch.from_numpy(indices), tw, padding_idx=3)
    t_out.backward(_as_torch(grad))
    assert torch.equal(_as_torch(out.detach()), t_out.detach())
    # float16: volta sums in float32 and rounds once, PyTorch rounds each sum to half
    tolerance = {"atol": 1e-2, "rtol": 2e-3} if dtype == volta.float16 else {}
    torch.testing.assert_close(_as_torch(w.grad), tw.grad, **tolerance)


def test_embedding_out_of_range_raises():
    with pytest.raises(volta.VoltaError):
        volta.nn.functional.embedding(volta.tensor([0, 30]), volta.ones(30, 4))


@pytest.mark.parametrize("threads", [1, 2, 3])
def test_gradients_sum_in_the_same_order_on_any_thread_count(threads):
    # many repeats of few rows: a sum whose value depends on its order if threads shared rows
    x = _source((64, 1024), volta.float32)
    rows = np.concatenate([RNG.integers(0, 4, 300), RNG.integers(0, 64, 100)])
    picks = RNG.integers(0, 1024, (64, 512))
    picks[:, :100] = 5

    def run():
        a = x.detach().requires_grad_()
        b = x.detach().requires_grad_()
        (volta.index_select(a, 0, volta.tensor(rows)) * 3.25).sum().backward()
        (volta.gather(b, 1, volta.tensor(picks)) * 1.5).sum().backward()
        return a.grad.numpy(), b.grad.numpy()

    one = _with_threads(1, run)
    many = _with_threads(threads, run)
    np.testing.assert_array_equal(one[0], many[0])
    np.testing.assert_array_equal(one[1], many[1])
    t = _as_torch(x).double().requires_grad_()
    (torch.index_select(t, 0, torch.from_numpy(rows)) * 3.25).sum().backward()
    torch.testing.assert_close(torch.from_numpy(one[0]), t.grad.float())
    t.grad = None
    (torch.gather(t, 1, torch.from_numpy(picks)) * 1.5).sum().backward()
    torch.testing.assert_close(torch.from_numpy(one[1]), t.grad.float())


def test_gather_backward_with_fewer_index_rows_and_float64():
    x = _source((6, 10), volta.float64).requires_grad_()
    index = RNG.integers(0, 10, (4, 25))
    volta.gather(x, -1, volta.tensor(index)).sum().backward()
    t = _as_torch(x.detach()).requires_grad_()
    torch.gather(t, -1, torch.from_numpy(index)).sum().backward()
    torch.testing.assert_close(_as_torch(x.grad), t.grad)


def test_index_select_backward_into_rows_of_several_dims():
    x = _source((12, 3, 5), volta.float32).requires_grad_()
    index = np.array([1, 1, 11, 0, 1], np.int64)
    grad = _source((5, 3, 5), volta.float32)
    volta.index_select(x, 0, volta.tensor(index)).backward(grad)
    t = _as_torch(x.detach()).requires_grad_()
    torch.index_select(t, 0, torch.from_numpy(index)).backward(_as_torch(grad))
    torch.testing.assert_close(_as_torch(x.grad), t.grad)


def test_boolean_mask_gradient_and_accumulating_puts_match_torch():
    a = _source((6, 9), volta.float32)
    mask = RNG.random((6, 9)) > 0.4
    x = a.detach().requires_grad_()
    grad = _source((int(mask.sum()),), volta.float32)
    x[volta.tensor(mask)].backward(grad)
    t = _as_torch(a).requires_grad_()
    t[torch.from_numpy(mask)].backward(_as_torch(grad))
    assert torch.equal(_as_torch(x.grad), t.grad)
    rows = RNG.random(6) > 0.5  # a mask over dim 0 and every column: each place once
    values = _source((int(rows.sum()), 9), volta.float32)
    got = volta.index_put(a, (volta.tensor(rows),), values, accumulate=True)
    expected = torch.index_put(_as_torch(a), (torch.from_numpy(rows),), _as_torch(values),
                               accumulate=True)
    assert torch.equal(_as_torch(got), expected)


def test_integer_index_gradient_and_index_add_match_torch():
    a = _source((20, 33), volta.float32)
    rows = np.array([3, 3, 19, 0, 3, 7], np.int64)
    x = a.detach().requires_grad_()
    grad = _source((6, 33), volta.float32)
    x[volta.tensor(rows)].backward(grad)
    t = _as_torch(a).requires_grad_()
    t[torch.from_numpy(rows)].backward(_as_torch(grad))
    torch.testing.assert_close(_as_torch(x.grad), t.grad)
    got = a.clone().index_add_(0, volta.tensor(rows), grad, alpha=2)
    expected = _as_torch(a).index_add_(0, torch.from_numpy(rows), _as_torch(grad), alpha=2)
    torch.testing.assert_close(_as_torch(got), expected)


@pytest.mark.parametrize("threads", [1, 2, 3])
@pytest.mark.parametrize("dtype", DTYPES, ids=str)
def test_boolean_mask_select_over_threads_matches_torch(dtype, threads):
    x = _source((300, 457), dtype)  # not a multiple of the kernel's 64-element blocks
    mask = RNG.random((300, 457)) > 0.5
    mask[:3] = True
    mask[-5:] = False
    got = _with_threads(threads, lambda: x[volta.tensor(mask)])
    assert torch.equal(_as_torch(got), _as_torch(x)[torch.from_numpy(mask)])


@pytest.mark.parametrize("threads", [1, 2, 3])
def test_boolean_mask_gradient_over_threads_keeps_signed_zeros(threads):
    a = np.zeros((300, 457), np.float32)
    a[::2] = -0.0
    mask = RNG.random(a.shape) > 0.3
    values = RNG.standard_normal(int(mask.sum())).astype(np.float32)
    got = _with_threads(threads, lambda: volta.index_put(
        volta.tensor(a), (volta.tensor(mask),), volta.tensor(values), accumulate=True))
    expected = torch.index_put(torch.from_numpy(a), (torch.from_numpy(mask),),
                               torch.from_numpy(values), accumulate=True)
    assert torch.equal(_as_torch(got), expected)
    assert np.array_equal(np.signbit(got.numpy()), np.signbit(expected.numpy()))


def test_empty_and_all_false_masks():
    x = _source((4, 5), volta.float32)
    assert x[volta.zeros(4, 5, dtype=volta.bool)].shape == (0,)
    assert x[volta.ones(4, 5, dtype=volta.bool)].shape == (20,)
    empty = volta.zeros(0, 5)
    assert empty[volta.zeros(0, 5, dtype=volta.bool)].shape == (0,)
