"""Running a compiled loop: how many threads, and where results go.

numba's parallel loops (``prange``) wake every thread of its pool; for a small tensor that costs
more than the work itself (tens of microseconds, far more on a busy machine), so loops over
fewer than :data:`PARALLEL_MIN_ELEMENTS` elements run on the calling thread alone, through the
loop's serial compilation where it has one (compiling a parallel loop takes about three times
as long, so tests and small models never pay for it).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numba

#: below this many elements a loop runs on one thread
PARALLEL_MIN_ELEMENTS = 1 << 17
_THREADS = numba.config.NUMBA_NUM_THREADS


def launch(loop: Callable[..., Any], elements: int, *args: Any,
           serial: Callable[..., Any] | None = None) -> None:
    """Run the compiled parallel ``loop(*args)`` that touches ``elements`` elements, or its
    ``serial`` twin (or ``loop`` on one thread) when there are few elements."""
    if elements >= PARALLEL_MIN_ELEMENTS:
        numba.set_num_threads(_THREADS)
        loop(*args)
    elif serial is not None:
        serial(*args)
    else:
        numba.set_num_threads(1)
        loop(*args)
