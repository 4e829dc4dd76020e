"""Elementwise work over aligned blocks of flat arrays, on up to ``num_threads()`` threads
(``volta.set_num_threads``).

The fused optimizer updates run several numpy passes over each parameter. Run over the whole
arrays, every pass streams them through memory and each temporary is a fresh allocation; run
block by block, a block's passes hit the cache and one small scratch buffer per thread serves
every temporary. numpy releases the GIL inside its loops, so blocks on different threads run
in parallel, as PyTorch's CPU kernels do on all cores.
"""

from __future__ import annotations

import os
import threading
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor

import numpy as np

from volta import threads

BLOCK = 1 << 17  # elements per block: fewer Python-level calls, a block still near the cache
PARALLEL_MIN = 1 << 18  # elements per thread below which a thread is not worth starting
_THREADS = threads.get_num_threads()  # follows volta.set_num_threads (see _follow_thread_count)
_pool: ThreadPoolExecutor | None = None
_pool_lock = threading.Lock()


def num_threads() -> int:
    return _THREADS


def _follow_thread_count(count: int) -> None:
    global _THREADS, _pool
    with _pool_lock:
        _THREADS = count
        stale, _pool = _pool, None  # the next parallel call starts a pool of the new size
    if stale is not None:
        stale.shutdown(wait=False)


threads.on_num_threads_change(_follow_thread_count)


def _executor() -> ThreadPoolExecutor:
    global _pool
    with _pool_lock:
        if _pool is None:
            _pool = ThreadPoolExecutor(max_workers=max(_THREADS - 1, 1),
                                       thread_name_prefix="volta-cpu")
        return _pool


def _forget_pool() -> None:
    global _pool
    _pool = None  # a forked child has none of the parent's threads


os.register_at_fork(after_in_child=_forget_pool)

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
    pool = _executor()
    futures = [pool.submit(run, bounds[i], bounds[i + 1]) for i in range(1, workers)]
    error: BaseException | None = None
    try:
        run(bounds[0], bounds[1])
    except BaseException as exc:  # re-raised below, after the other threads finish
        error = exc
    for future in futures:
        try:
            future.result()
        except BaseException as exc:
            error = error or exc
    if error is not None:
        raise error
