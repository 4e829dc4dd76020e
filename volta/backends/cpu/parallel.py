"""CPU kernels on up to ``num_threads()`` threads (``volta.set_num_threads``).

numpy releases the GIL inside its ufunc loops and copies, so pieces of one kernel handed to
other threads run truly in parallel, as PyTorch's CPU kernels do on all cores. Three tools:

* :func:`run_concurrently` runs independent tasks (a convolution's input and weight gradients)
  on the calling thread and a small persistent pool of workers.
* :func:`parallel_for` splits a range (a batch) into one contiguous share per thread, when each
  share holds enough work to pay for the handoff to a worker (:data:`HANDOFF_ELEMENTS`).
* :func:`for_blocks` runs elementwise passes block by block over flat arrays (the fused
  optimizer updates): a block's passes hit the cache, and one small scratch buffer per thread
  serves every temporary.

Note [parallel regions]
* A task running on a worker, or on the caller inside a region, that calls a parallel kernel
  runs it inline: nested regions never wait for the pool they run on, so they cannot deadlock.
* Inside a region BLAS is held to one thread. OpenBLAS's pthreads pool serves one call at a
  time: a second caller spins until the first call's workers are free, which burns the core
  the first call needs (two concurrent 2-thread GEMMs took longer than the same two in turn).
  The region's threads are the parallelism instead.
* An error raised by a task is re-raised to the caller unchanged, after every task has finished
  (nothing is left writing into the caller's arrays); with several, the first task's in order.
"""

from __future__ import annotations

import ctypes
import itertools
import os
import threading
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from typing import Any, TypeVar

import numpy as np

from volta import threads

T = TypeVar("T")

# Element passes (one element through a copy or a ufunc) in one share below which a worker costs
# more than it saves. Measured at 2 threads on the 2-core machine of issue 9, idle: shares of
# about 0.25 ms (LeNet's convolutions and first max pool, split in two) ran 10-50% slower than
# one thread (BLAS's own two threads for the GEMMs), while shares of a few ms gained: on a
# 32x64x56x56 map, permute+contiguous 4.1 -> 2.2 ms, max_pool2d 9.3 -> 6.2 ms, where 5.0 -> 3.6 ms.
# Waking a worker, handing the GIL back and forth at every numpy call and sharing the memory
# bandwidth cost more than the 20-60 us a bare handoff takes.
HANDOFF_ELEMENTS = 1 << 23
BLOCK = 1 << 17  # for_blocks: elements per block, few Python calls, a block still near the cache
PARALLEL_MIN = 1 << 18  # for_blocks: elements per thread below which a thread is not worth it
_THREADS = threads.get_num_threads()  # follows volta.set_num_threads (see _follow_thread_count)


class _Worker:
    """A daemon thread that runs one task at a time, handed over through two locks (the
    cheapest wake-up CPython has: no Condition, no Future, no queue)."""

    def __init__(self, index: int) -> None:
        self._go = threading.Lock()
        self._go.acquire()
        self._done = threading.Lock()
        self._done.acquire()
        self._task: Callable[[], Any] | None = None
        self.result: Any = None
        self.error: BaseException | None = None
        self._thread = threading.Thread(target=self._loop, name=f"volta-cpu-{index}", daemon=True)
        self._thread.start()

    def _loop(self) -> None:
        _state.inside = True  # whatever this thread runs is inside a region
        while True:
            self._go.acquire()
            task = self._task
            if task is None:  # stop()
                return
            try:
                self.result = task()
            except BaseException as exc:  # handed to the caller in join()
                self.error = exc
            self._task = None
            self._done.release()

    def start(self, task: Callable[[], Any]) -> None:
        self.result = self.error = None
        self._task = task
        self._go.release()

    def join(self) -> Any:
        self._done.acquire()
        return self.result

    def stop(self) -> None:
        self._task = None
        self._go.release()


class _State(threading.local):
    inside = False  # this thread runs a task of a region (Note [parallel regions])


_state = _State()
_workers: list[_Worker] = []
_pool_lock = threading.Lock()  # one region at a time uses the workers; the others run inline


def num_threads() -> int:
    return _THREADS


def in_region() -> bool:
    """Whether this thread runs a task of a region (BLAS is then on one thread)."""
    return _state.inside


def _follow_thread_count(count: int) -> None:
    global _THREADS
    _THREADS = count
    # Stop the workers beyond the count now, unless a region holds them: then the next region
    # does (a running region is not waited for: one of its tasks may be the caller).
    if not _state.inside and _pool_lock.acquire(blocking=False):
        try:
            while len(_workers) > max(count - 1, 0):
                _workers.pop().stop()
        finally:
            _pool_lock.release()


threads.on_num_threads_change(_follow_thread_count)


def _forget_workers() -> None:
    global _pool_lock
    _workers.clear()  # a forked child has none of the parent's threads
    _pool_lock = threading.Lock()
    _state.inside = False


os.register_at_fork(after_in_child=_forget_workers)


def numpy_blas_library() -> ctypes.CDLL | None:
    """numpy's own extension module as a shared library: dlsym through it searches its
    dependencies, so it finds the BLAS numpy links (None where it cannot be opened)."""
    try:
        from numpy._core import _multiarray_umath as core  # numpy >= 2
    except ImportError:  # numpy < 2
        from numpy.core import _multiarray_umath as core
    try:
        return ctypes.CDLL(core.__file__)
    except OSError:
        return None


def _blas_thread_functions() -> tuple[Callable[[], int], Callable[[int], None]] | None:
    """OpenBLAS's get/set thread count, found through numpy's own module; None when numpy
    uses another BLAS."""
    lib = numpy_blas_library()
    if lib is None:
        return None
    for prefix, suffix in (("scipy_openblas", "64_"), ("scipy_openblas", ""),
                           ("openblas", "64_"), ("openblas", "")):
        getter = getattr(lib, f"{prefix}_get_num_threads{suffix}", None)
        setter = getattr(lib, f"{prefix}_set_num_threads{suffix}", None)
        if getter is not None and setter is not None:
            getter.restype = ctypes.c_int
            getter.argtypes = []
            setter.restype = None
            setter.argtypes = [ctypes.c_int]
            return getter, setter
    return None


_BLAS_THREADS = _blas_thread_functions()
# OpenBLAS held to one thread for good: gemm.py runs the products on volta's OpenMP threads
# instead (Note [one thread pool] in native/blas.c).
_blas_pinned = False


def pin_blas_to_one_thread() -> bool:
    """Set OpenBLAS to one thread for good (set_num_threads then leaves it alone); False when
    numpy's BLAS thread count cannot be set."""
    global _blas_pinned
    if _BLAS_THREADS is None:
        return False
    _BLAS_THREADS[1](1)
    _blas_pinned = True
    return True


def _blas_follows_thread_count(count: int) -> None:
    """PyTorch's ``set_num_threads`` bounds the threads of its BLAS too, and so does volta's:
    ``volta.set_num_threads(1)`` means one thread for GEMMs as well. (A region running at that
    moment holds BLAS at one thread; it restores the new count when it ends.) Where BLAS is
    pinned to one thread, the count reaches the GEMMs through native.threads() instead."""
    if _BLAS_THREADS is not None and not _state.inside and not _blas_pinned:
        _BLAS_THREADS[1](count)


threads.on_num_threads_change(_blas_follows_thread_count)


@contextmanager
def _serial_blas() -> Iterator[None]:
    """BLAS on one thread for the region's duration (Note [parallel regions])."""
    if _BLAS_THREADS is None or _blas_pinned:
        yield
        return
    get_blas_threads, set_blas_threads = _BLAS_THREADS
    before = get_blas_threads()
    if before == 1:
        yield
        return
    count_before = _THREADS
    set_blas_threads(1)
    try:
        yield
    finally:
        # set_num_threads during the region wins over the count the region found
        set_blas_threads(before if count_before == _THREADS else _THREADS)


def _run_inline(tasks: Sequence[Callable[[], T]]) -> list[T]:
    return [task() for task in tasks]


def run_concurrently(tasks: Sequence[Callable[[], T]]) -> list[T]:
    """Each task's result, in order; the tasks run at the same time on up to ``num_threads()``
    threads, the caller's included (Note [parallel regions]). Inline, in order, with one
    thread, one task, inside another region, or while another thread's region has the pool."""
    thread_count = _THREADS  # once: set_num_threads may change it meanwhile
    count = min(len(tasks), thread_count)
    if count <= 1 or _state.inside or not _pool_lock.acquire(blocking=False):
        return _run_inline(tasks)
    try:
        while len(_workers) > thread_count - 1:
            _workers.pop().stop()
        while len(_workers) < thread_count - 1:
            _workers.append(_Worker(len(_workers)))
        # thread i runs tasks i, i + count, ...; the caller runs share 0
        shares = [tasks[i::count] for i in range(count)]
        started = []
        results: list[Any] = [None] * len(tasks)
        errors: list[BaseException | None] = [None] * count
        _state.inside = True
        try:
            with _serial_blas():
                for i in range(1, count):
                    _workers[i - 1].start(lambda share=shares[i]: _run_inline(share))
                    started.append(i)
                try:
                    results[0::count] = _run_inline(shares[0])
                except BaseException as exc:  # re-raised below, once the workers are done
                    errors[0] = exc
                for i in started:
                    worker = _workers[i - 1]
                    share_results = worker.join()
                    if worker.error is not None:
                        errors[i] = worker.error
                    else:
                        results[i::count] = share_results
        finally:
            _state.inside = False
    finally:
        _pool_lock.release()
    for error in errors:
        if error is not None:
            raise error
    return results


def shares(total: int, min_share: int = 1) -> list[tuple[int, int]]:
    """[0, total) cut into at most ``num_threads()`` contiguous (start, stop) ranges of at least
    ``min_share`` each (one range when the work is too small to split)."""
    count = max(1, min(_THREADS, total // max(min_share, 1)))
    bounds = [total * i // count for i in range(count + 1)]
    return list(itertools.pairwise(bounds))


def parallel_for(total: int, body: Callable[[int, int], None], min_share: int = 1) -> None:
    """Call ``body(start, stop)`` over contiguous ranges covering [0, total), at the same time,
    one range per thread of at least ``min_share`` (so ``body(0, total)`` alone when the work
    is too small to pay for a thread). The ranges must write disjoint data."""
    ranges = shares(total, min_share)
    if len(ranges) == 1 or _state.inside:
        body(0, total)
        return
    run_concurrently([lambda start=start, stop=stop: body(start, stop) for start, stop in ranges])


def min_share(elements_per_item: int) -> int:
    """Items per share so that a share passes over at least HANDOFF_ELEMENTS elements."""
    return max(1, -(-HANDOFF_ELEMENTS // max(elements_per_item, 1)))


Update = Callable[..., None]


def for_blocks(update: Update, arrays: Sequence[np.ndarray | None], scratch: int) -> None:
    """Call ``update(*views, *scratch_buffers)`` over aligned blocks of ``arrays`` (``None``
    entries pass through as ``None``); ``scratch`` buffers of the first array's dtype come
    with each call. Arrays that are not all C-contiguous and of one size run as one block."""
    first = arrays[0]
    assert first is not None
    n = first.size
    whole = n <= BLOCK or any(a is not None and (a.size != n or not a.flags.c_contiguous)
                              for a in arrays)
    if whole:
        update(*arrays, *(np.empty(first.shape, first.dtype) for _ in range(scratch)))
        return
    flat = [a.reshape(-1) if a is not None else None for a in arrays]

    def run(start: int, stop: int) -> None:
        buffers = [np.empty(BLOCK, first.dtype) for _ in range(scratch)]
        for lo in range(start, stop, BLOCK):
            hi = min(lo + BLOCK, stop)
            update(*(f[lo:hi] if f is not None else None for f in flat),
                   *(b[:hi - lo] for b in buffers))

    workers = min(_THREADS, n // PARALLEL_MIN)
    if workers <= 1:
        run(0, n)
        return
    # whole blocks per thread; the calling thread takes the first share
    blocks = -(-n // BLOCK)
    bounds = [min(n, (blocks * i // workers) * BLOCK) for i in range(workers + 1)]
    run_concurrently([lambda i=i: run(bounds[i], bounds[i + 1]) for i in range(workers)])
