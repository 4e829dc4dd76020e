"""How many threads one operation may use (PyTorch's ``set_num_threads``/``get_num_threads``).

The setting is backend-neutral: a backend that runs work on threads registers a listener with
:func:`on_num_threads_change` and follows the count; nothing here knows about any backend.
The start value is the thread count the environment gave numpy's BLAS (``OMP_NUM_THREADS``
and friends), else the number of cores this process may run on.
"""

from __future__ import annotations

import os
import threading
from collections.abc import Callable

from volta.errors import ArgumentError, InvalidArgumentError

_ENV_VARS = ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS")


def _threads_from_environment() -> int:
    for var in _ENV_VARS:
        value = os.environ.get(var, "").strip()
        if value.isdigit() and int(value) > 0:
            return int(value)
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        return os.cpu_count() or 1


_threads = _threads_from_environment()
_listeners: list[Callable[[int], None]] = []
_lock = threading.Lock()


def get_num_threads() -> int:
    """The number of threads an operation may use."""
    return _threads


def set_num_threads(num_threads: int) -> None:
    """Let each operation use up to ``num_threads`` threads (at least 1)."""
    global _threads
    if isinstance(num_threads, bool) or not isinstance(num_threads, int):
        raise ArgumentError(f"set_num_threads(): argument 'num_threads' must be int, not "
                            f"{type(num_threads).__name__}")
    if num_threads <= 0:
        raise InvalidArgumentError(f"set_num_threads(): number of threads must be positive, "
                                   f"got {num_threads}")
    with _lock:
        _threads = num_threads
        listeners = list(_listeners)
    for listener in listeners:
        listener(num_threads)


def on_num_threads_change(listener: Callable[[int], None]) -> None:
    """Call ``listener(n)`` after every :func:`set_num_threads` (for backends)."""
    with _lock:
        _listeners.append(listener)
