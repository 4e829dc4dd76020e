"""Thread-local included/excluded key sets and the guards that change them."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager

from volta import compiled


class _LocalKeys(threading.local):
    included: int = 0
    excluded: int = 0


# the compiled dispatcher keeps the sets in C thread-locals, which its call path reads directly
# (Note [Compiled call path] in native/dispatch.c); same attributes, same per-thread values
_native = compiled.load("volta.dispatch.native._dispatch")
LOCAL = _LOCAL = _native.LocalKeys() if _native is not None else _LocalKeys()


@contextmanager
def include_keys(mask: int) -> Iterator[None]:
    """Add keys to every dispatch on this thread while the block runs."""
    saved = _LOCAL.included
    _LOCAL.included = saved | mask
    try:
        yield
    finally:
        _LOCAL.included = saved


@contextmanager
def exclude_keys(mask: int) -> Iterator[None]:
    """Remove keys from every dispatch on this thread while the block runs."""
    saved = _LOCAL.excluded
    _LOCAL.excluded = saved | mask
    try:
        yield
    finally:
        _LOCAL.excluded = saved


@contextmanager
def unexclude_keys(mask: int) -> Iterator[None]:
    """Take keys out of the excluded set while the block runs (``enable_grad``)."""
    saved = _LOCAL.excluded
    _LOCAL.excluded = saved & ~mask
    try:
        yield
    finally:
        _LOCAL.excluded = saved
