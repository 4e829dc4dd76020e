"""Running a compiled loop: how many threads, and where results go.

numba's parallel loops (``prange``) wake every thread of its pool; for a small tensor that costs
more than the work itself (tens of microseconds, far more on a busy machine), so loops over
fewer than :data:`PARALLEL_MIN_ELEMENTS` elements run on the calling thread alone.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numba

import volta

#: below this many elements a loop runs on one thread
PARALLEL_MIN_ELEMENTS = 1 << 17
_THREADS = numba.config.NUMBA_NUM_THREADS


def launch(loop: Callable[..., Any], elements: int, *args: Any) -> None:
    """Run the compiled ``loop(*args)`` that touches ``elements`` elements."""
    numba.set_num_threads(_THREADS if elements >= PARALLEL_MIN_ELEMENTS else 1)
    loop(*args)


def new_tensor(shape: tuple[int, ...], dtype: volta.dtype, like: volta.Tensor) -> volta.Tensor:
    """An uninitialised result on the numba device of ``like`` (the first numba operand)."""
    return volta.empty(shape, dtype=dtype, device=like.device)
