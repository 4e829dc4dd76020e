"""The CPU backend's thread pool (volta/backends/cpu/parallel.py) and the kernels that split their
work over it: results equal the one-thread path bit for bit."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterator

import numpy as np
import pytest

import volta
from volta.backends.cpu import numpy_nn as nn
from volta.backends.cpu import parallel


@pytest.fixture
def restore_threads() -> Iterator[None]:
    before = volta.get_num_threads()
    yield
    volta.set_num_threads(before)


@pytest.fixture
def tiny_grain(monkeypatch: pytest.MonkeyPatch) -> None:
    """Split even the small inputs of these tests over the threads."""
    monkeypatch.setattr(parallel, "HANDOFF_ELEMENTS", 1)


def _thread_name() -> str:
    return threading.current_thread().name


@pytest.mark.parametrize("count", [1, 2, 3])
@pytest.mark.parametrize("tasks", [1, 2, 5])
def test_run_concurrently_returns_results_in_order(restore_threads: None, count: int,
                                                   tasks: int) -> None:
    volta.set_num_threads(count)
    results = parallel.run_concurrently([lambda i=i: i * i for i in range(tasks)])
    assert results == [i * i for i in range(tasks)]


def test_tasks_run_on_several_threads_at_once(restore_threads: None) -> None:
    volta.set_num_threads(2)
    barrier = threading.Barrier(2, timeout=10)

    def meet() -> str:
        barrier.wait()  # only returns when the other task runs at the same time
        return _thread_name()

    names = parallel.run_concurrently([meet, meet])
    assert names[0] == _thread_name()
    assert names[1] != names[0]


def test_one_thread_runs_inline(restore_threads: None) -> None:
    volta.set_num_threads(1)
    assert parallel.run_concurrently([_thread_name] * 3) == [_thread_name()] * 3
    ranges: list[tuple[int, int, str]] = []
    parallel.parallel_for(100, lambda a, b: ranges.append((a, b, _thread_name())))
    assert ranges == [(0, 100, _thread_name())]


@pytest.mark.parametrize("failing", [0, 1])
def test_errors_propagate_unchanged_after_every_task_ends(restore_threads: None,
                                                          failing: int) -> None:
    volta.set_num_threads(2)
    error = KeyError("boom")
    finished: list[int] = []

    def task(i: int) -> int:
        if i == failing:
            raise error
        time.sleep(0.05)
        finished.append(i)
        return i

    with pytest.raises(KeyError) as info:
        parallel.run_concurrently([lambda i=i: task(i) for i in range(2)])
    assert info.value is error
    assert finished == [1 - failing]
    # the pool still works afterwards
    assert parallel.run_concurrently([lambda: 1, lambda: 2]) == [1, 2]


def test_first_error_in_task_order_wins(restore_threads: None) -> None:
    volta.set_num_threads(2)

    def fail(message: str) -> Callable[[], None]:
        def task() -> None:
            raise ValueError(message)
        return task

    with pytest.raises(ValueError, match="first"):
        parallel.run_concurrently([fail("first"), fail("second")])


def test_nested_regions_run_inline(restore_threads: None) -> None:
    volta.set_num_threads(2)

    def outer(i: int) -> list[str]:
        return parallel.run_concurrently([_thread_name, _thread_name])

    inner = parallel.run_concurrently([lambda: outer(0), lambda: outer(1)])
    for names in inner:
        assert len(set(names)) == 1  # the inner tasks ran on the thread of their outer task


@pytest.mark.parametrize("count", [1, 2, 3])
@pytest.mark.parametrize("total,min_share", [(10, 1), (10, 4), (10, 6), (1, 1), (0, 1)])
def test_parallel_for_covers_the_range_once(restore_threads: None, count: int, total: int,
                                            min_share: int) -> None:
    volta.set_num_threads(count)
    hits = np.zeros(total, dtype=np.int64)
    calls: list[tuple[int, int]] = []

    def body(start: int, stop: int) -> None:
        calls.append((start, stop))
        hits[start:stop] += 1

    parallel.parallel_for(total, body, min_share)
    np.testing.assert_array_equal(hits, 1)
    assert len(calls) == max(1, min(count, total // min_share))
    assert all(stop - start >= min(min_share, total) for start, stop in calls)


def test_pool_follows_thread_count(restore_threads: None) -> None:
    for count in (3, 2, 1, 2):
        volta.set_num_threads(count)
        barrier = threading.Barrier(count, timeout=10)

        def meet() -> str:
            barrier.wait()
            return _thread_name()

        assert len(set(parallel.run_concurrently([meet] * count))) == count
        assert len(parallel._workers) <= count - 1


def test_other_threads_run_inline_while_a_region_runs(restore_threads: None) -> None:
    volta.set_num_threads(2)
    seen: list[list[str]] = []
    started = threading.Event()
    release = threading.Event()

    def hold() -> None:
        started.set()
        release.wait(10)

    def other_caller() -> None:
        started.wait(10)
        seen.append(parallel.run_concurrently([_thread_name, _thread_name]))
        release.set()

    caller = threading.Thread(target=other_caller)
    caller.start()
    parallel.run_concurrently([hold, lambda: None])
    caller.join(10)
    assert seen == [[caller.name, caller.name]]


# -- kernels that split their work ---------------------------------------------------------------


def _serial_and_parallel(fn: Callable[[], object]) -> tuple[object, object]:
    volta.set_num_threads(1)
    serial = fn()
    volta.set_num_threads(2)
    return serial, fn()


def _assert_same(a: object, b: object, gemm: bool = False) -> None:
    """Bitwise equal; for results of a GEMM (``gemm``), equal to float32 rounding: OpenBLAS
    rounds a column of a product differently by where it falls in its tiles, so a share of the
    batch is not bitwise the same columns of the whole batch's GEMM (nor is one BLAS thread of
    two: the one-thread path already differs by BLAS thread count)."""
    if isinstance(a, tuple):
        assert isinstance(b, tuple) and len(a) == len(b)
        for x, y in zip(a, b):
            _assert_same(x, y, gemm)
        return
    if a is None:
        assert b is None
        return
    assert isinstance(a, np.ndarray) and isinstance(b, np.ndarray)
    assert a.dtype == b.dtype and a.shape == b.shape
    if gemm:
        np.testing.assert_allclose(a, b, rtol=1e-5, atol=1e-5)
    else:
        np.testing.assert_array_equal(a.view(np.uint8), b.view(np.uint8))


CONV_CASES = [
    # input shape, weight shape, stride, padding, dilation, groups
    ((6, 1, 12, 12), (3, 1, 5, 5), 1, 2, 1, 1),  # LeNet's first conv, wide layout
    ((5, 4, 9, 9), (6, 4, 3, 3), 1, 0, 1, 1),
    ((4, 4, 11, 10), (6, 2, 3, 3), 2, 1, 1, 2),  # exact layout, groups
    ((3, 2, 9, 9), (4, 2, 3, 3), 1, 1, 2, 1),  # dilation
    ((5, 3, 13), (4, 3, 3), 1, 1, 1, 1),  # 1-d
    ((3, 2, 5, 6, 5), (2, 2, 3, 3, 3), 1, 1, 1, 1),  # 3-d
    ((1, 3, 9, 9), (4, 3, 3, 3), 1, 1, 1, 1),  # one sample: the two gradients at once
]


@pytest.mark.parametrize("case", CONV_CASES)
@pytest.mark.parametrize("transposed", [False, True])
@pytest.mark.parametrize("budget", [None, 2048])
def test_convolution_threads_match_one_thread(restore_threads: None, tiny_grain: None,
                                              monkeypatch: pytest.MonkeyPatch, case: tuple,
                                              transposed: bool, budget: int | None) -> None:
    if budget is not None:
        monkeypatch.setattr(nn, "COLUMN_BUDGET_BYTES", budget)
    xs, ws, stride, padding, dilation, groups = case
    rng = np.random.default_rng(0)
    nd = len(xs) - 2
    x = rng.standard_normal(xs).astype(np.float32)
    w = rng.standard_normal(ws).astype(np.float32)
    if transposed:
        w = rng.standard_normal((ws[1] * groups, ws[0] // groups, *ws[2:])).astype(np.float32)
        x = rng.standard_normal((xs[0], w.shape[0], *xs[2:])).astype(np.float32)
    b = rng.standard_normal(w.shape[1] * groups if transposed else w.shape[0]).astype(np.float32)
    args = ([stride] * nd, [padding] * nd, [dilation] * nd, transposed, [0] * nd, groups)
    y = nn.convolution(x, w, b, *args)
    gy = rng.standard_normal(y.shape).astype(np.float32)
    _assert_same(*_serial_and_parallel(lambda: nn.convolution(x, w, b, *args)), gemm=True)
    for mask in ([True, True, True], [True, False, False], [False, True, True]):
        _assert_same(*_serial_and_parallel(
            lambda mask=mask: nn.convolution_backward(gy, x, w, *args, mask)), gemm=True)


POOL_CASES = [
    # input shape, kernel, stride, padding, dilation, ceil_mode
    ((4, 3, 8, 8), [2, 2], [], [0, 0], [1, 1], False),  # tiled
    ((3, 2, 9, 7), [3, 2], [2, 1], [1, 0], [1, 1], True),  # overlapping windows, padding
    ((2, 3, 10, 9), [2, 3], [1, 2], [1, 1], [2, 1], False),  # dilation
    ((5, 11), [3], [2], [1], [1], True),  # 1-d unbatched
    ((2, 2, 4, 6, 5), [2, 2, 2], [], [0, 0, 0], [1, 1, 1], False),  # 3-d tiled
]


@pytest.mark.parametrize("case", POOL_CASES)
@pytest.mark.parametrize("nan", [False, True])
def test_max_pool_threads_match_one_thread(restore_threads: None, tiny_grain: None, case: tuple,
                                           nan: bool) -> None:
    shape, k, s, p, d, ceil = case
    rng = np.random.default_rng(1)
    x = rng.integers(0, 4, shape).astype(np.float32)  # ties: the first maximum must win
    if nan:
        x.reshape(-1)[:: 7] = np.nan
    out, idx = nn.max_pool_with_indices(x, k, s, p, d, ceil)
    _assert_same(*_serial_and_parallel(lambda: nn.max_pool_with_indices(x, k, s, p, d, ceil)))
    g = rng.standard_normal(out.shape).astype(np.float32)
    _assert_same(*_serial_and_parallel(
        lambda: nn.max_pool_backward(g, x, idx, spatial_ndim=len(k))))


def _special_floats(shape: tuple[int, ...], dtype: type, seed: int) -> np.ndarray:
    rng = np.random.default_rng(seed)
    x = rng.standard_normal(shape).astype(dtype)
    flat = x.reshape(-1)
    flat[::11] = np.nan
    flat[1::13] = -0.0
    flat[2::17] = np.inf
    flat[3::19] = -np.inf
    return x


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("shape", [(3, 1000), (64, 257), (5000,)])
@pytest.mark.parametrize("threads", [1, 2])
def test_where_and_masked_fill_match_numpy(restore_threads: None, tiny_grain: None,
                                           dtype: type, shape: tuple[int, ...],
                                           threads: int) -> None:
    import torch

    volta.set_num_threads(threads)
    rng = np.random.default_rng(2)
    cond = rng.random(shape) > 0.5
    a, b = _special_floats(shape, dtype, 3), _special_floats(shape, dtype, 4)
    got = volta.where(volta.tensor(cond), volta.tensor(a), volta.tensor(b)).numpy()
    _assert_same(got, np.where(cond, a, b))
    expected = torch.where(torch.from_numpy(cond), torch.from_numpy(a), torch.from_numpy(b))
    _assert_same(got, expected.numpy())
    for value in (0.0, -0.0, -np.inf, np.nan, 2.5):
        got = volta.tensor(a).masked_fill(volta.tensor(cond), value).numpy()
        _assert_same(got, torch.from_numpy(a).masked_fill(torch.from_numpy(cond), value).numpy())
    # a mask that holds everywhere, and nowhere
    for mask in (np.ones(shape, bool), np.zeros(shape, bool)):
        got = volta.tensor(a).masked_fill(volta.tensor(mask), 1.5).numpy()
        _assert_same(got, np.where(mask, dtype(1.5), a))
        got = volta.where(volta.tensor(mask), volta.tensor(a), volta.tensor(b)).numpy()
        _assert_same(got, np.where(mask, a, b))


def test_where_keeps_broadcasting_and_noncontiguous_inputs(tiny_grain: None) -> None:
    rng = np.random.default_rng(5)
    cond = rng.random((64, 1)) > 0.5
    a = rng.standard_normal((64, 200)).astype(np.float32)
    b = rng.standard_normal((200, 64)).astype(np.float32).T
    got = volta.where(volta.tensor(cond), volta.tensor(a), volta.tensor(b.copy()).t().t()).numpy()
    _assert_same(got, np.where(cond, a, b))
    got = volta.where(volta.tensor(cond).expand(64, 200), volta.tensor(a),
                      volta.tensor(np.ascontiguousarray(b.T)).t()).numpy()
    _assert_same(got, np.where(cond, a, b))


@pytest.mark.parametrize("threads", [1, 2])
@pytest.mark.parametrize("order", [(0, 2, 3, 1), (1, 0, 2, 3), (0, 1, 3, 2), (3, 2, 1, 0)])
def test_contiguous_copies_match_numpy(restore_threads: None, tiny_grain: None, threads: int,
                                       order: tuple[int, ...]) -> None:
    volta.set_num_threads(threads)
    x = _special_floats((4, 24, 20, 36), np.float32, 6)
    t = volta.tensor(x).permute(*order)
    expected = np.ascontiguousarray(x.transpose(order))
    _assert_same(t.contiguous().numpy(), expected)
    _assert_same(t.clone(memory_format=volta.contiguous_format).numpy(), expected)
    _assert_same(np.ascontiguousarray(t.clone().numpy()), expected)  # clone keeps the layout
    dest = volta.empty(*expected.shape)
    dest.copy_(t)
    _assert_same(dest.numpy(), expected)
    _assert_same(volta.tensor(x)[:, ::2, 1::3].contiguous().numpy(),
                 np.ascontiguousarray(x[:, ::2, 1::3]))


@pytest.mark.parametrize("threads", [1, 2])
def test_banded_transposed_copy_matches_numpy(restore_threads: None, tiny_grain: None,
                                              threads: int) -> None:
    from volta.backends.cpu import strided_copy

    volta.set_num_threads(threads)
    x = _special_floats((4, 256, 3, 64), np.float32, 7)
    assert strided_copy.is_transposed(x.transpose(0, 2, 3, 1))  # the banded path is taken
    expected = np.ascontiguousarray(x.transpose(0, 2, 3, 1))
    _assert_same(volta.tensor(x).permute(0, 2, 3, 1).contiguous().numpy(), expected)
    # with autograd, contiguous() is a clone in the contiguous memory format
    tracked = volta.tensor(x, requires_grad=True).permute(0, 2, 3, 1).contiguous()
    _assert_same(tracked.detach().numpy(), expected)
    _assert_same(volta.tensor(x).permute(0, 2, 3, 1).clone(
        memory_format=volta.contiguous_format).numpy(), expected)
    matrix = _special_floats((300, 200), np.float64, 8)
    _assert_same(volta.tensor(matrix).t().contiguous().numpy(), np.ascontiguousarray(matrix.T))


def test_a_task_may_change_the_thread_count(restore_threads: None) -> None:
    volta.set_num_threads(3)

    def shrink() -> int:
        volta.set_num_threads(1)  # from inside a region: no deadlock, the next region follows
        return 1

    assert parallel.run_concurrently([shrink, lambda: 2, lambda: 3]) == [1, 2, 3]
    assert parallel.run_concurrently([_thread_name, _thread_name]) == [_thread_name()] * 2
    volta.set_num_threads(2)
    assert parallel.run_concurrently([lambda: 1, lambda: 2]) == [1, 2]
    assert len(parallel._workers) == 1


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_where_backward_and_scalar_operands_match_torch(dtype: type) -> None:
    import torch

    rng = np.random.default_rng(9)
    cond = rng.random((70, 90)) > 0.4
    a, b = _special_floats((70, 90), dtype, 10), _special_floats((70, 90), dtype, 11)
    g = _special_floats((70, 90), dtype, 12)
    va = volta.tensor(a, requires_grad=True)
    vb = volta.tensor(b, requires_grad=True)
    volta.where(volta.tensor(cond), va, vb).backward(volta.tensor(g))
    ta = torch.tensor(a, requires_grad=True)
    tb = torch.tensor(b, requires_grad=True)
    torch.where(torch.from_numpy(cond), ta, tb).backward(torch.from_numpy(g))
    assert va.grad is not None and vb.grad is not None
    _assert_same(va.grad.numpy(), ta.grad.numpy())
    _assert_same(vb.grad.numpy(), tb.grad.numpy())
    for scalar in (0, 0.0, -0.0, 2.5, -np.inf):
        got = volta.where(volta.tensor(cond), volta.tensor(a), scalar).numpy()
        expected = torch.where(torch.from_numpy(cond), torch.from_numpy(a), scalar).numpy()
        _assert_same(got, expected)
        got = volta.where(volta.tensor(cond), scalar, volta.tensor(a)).numpy()
        expected = torch.where(torch.from_numpy(cond), scalar, torch.from_numpy(a)).numpy()
        _assert_same(got, expected)


def test_set_num_threads_bounds_blas_threads(restore_threads: None) -> None:
    # as PyTorch's set_num_threads bounds its BLAS: volta.set_num_threads(1) is one GEMM thread
    if parallel._BLAS_THREADS is None:
        pytest.fail("numpy's OpenBLAS thread functions were not found")
    get_blas_threads = parallel._BLAS_THREADS[0]
    # with the compiled GEMM (gemm.py) OpenBLAS stays on one thread and the GEMMs run on
    # volta's threads instead (Note [one thread pool] in native/blas.c)
    two = 1 if parallel._blas_pinned else 2
    volta.set_num_threads(1)
    assert get_blas_threads() == 1
    volta.set_num_threads(2)
    assert get_blas_threads() == two
    # a region holds BLAS at one thread and gives the count back afterwards
    seen = parallel.run_concurrently([get_blas_threads, get_blas_threads])
    assert seen == [1, 1]
    assert get_blas_threads() == two


def test_blas_runs_on_one_thread_inside_a_region_only(restore_threads: None) -> None:
    if parallel._BLAS_THREADS is None:  # numpy without OpenBLAS: nothing to hold
        assert parallel.run_concurrently([lambda: 1, lambda: 2]) == [1, 2]
        return
    get_blas_threads, set_blas_threads = parallel._BLAS_THREADS
    before = get_blas_threads()
    # pinned to one thread (gemm.py), BLAS stays there through regions too
    outside = 1 if parallel._blas_pinned else 2
    if not parallel._blas_pinned:
        set_blas_threads(2)
    try:
        volta.set_num_threads(2)
        inside = parallel.run_concurrently([get_blas_threads, get_blas_threads])
        assert inside == [1, 1]
        assert get_blas_threads() == outside
        def fail() -> None:
            raise RuntimeError("boom")

        with pytest.raises(RuntimeError, match="boom"):
            parallel.run_concurrently([lambda: 1, fail])
        assert get_blas_threads() == outside  # restored after an error too
    finally:
        set_blas_threads(before)
