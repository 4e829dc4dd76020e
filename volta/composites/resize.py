"""Composite operators that resize a tensor in place: ``resize_`` and ``resize_as_``.

They change the tensor's own metadata (sizes, strides) and, when the new sizes need more
elements than the storage holds, grow the storage through the backend contract
(``Storage.grow`` -> ``Backend.grow``), so they run on every backend.
"""

from __future__ import annotations

import math
import sys
from collections.abc import Sequence

from volta.composites.base import composite
from volta.errors import ArgumentError, AutogradError, InvalidArgumentError, ShapeError
from volta.memory_format import (
    channels_last,
    channels_last_3d,
    format_strides,
    memory_format,
    preserve_format,
)
from volta.tensor.tensor import Tensor


@composite("resize_")
def resize_(self: Tensor, size: Sequence[int], memory_format: memory_format | None = None
            ) -> Tensor:
    """PyTorch's ``Tensor.resize_``: new sizes over the storage's elements from the offset
    on, in flat order; the storage grows (zeros after the old elements) when it is too small."""
    if memory_format is preserve_format:
        raise InvalidArgumentError("resize_: Unsupported memory format preserve_format")
    return _resize(self, tuple(size), memory_format)


@composite("resize_as_")
def resize_as_(self: Tensor, the_template: Tensor, memory_format: memory_format | None = None
               ) -> Tensor:
    """``self.resize_(the_template.shape)``, then ``memory_format``'s strides (the template's
    own format for ``preserve_format``), as PyTorch's ``resize_as_``."""
    if not isinstance(the_template, Tensor):  # dispatch_on: self, so nothing checked it yet
        raise ArgumentError(f"resize_as_(): argument 'the_template' (position 1) must be Tensor, "
                            f"not {type(the_template).__name__}")
    if memory_format is preserve_format:
        memory_format = _suggested_format(the_template)
    return _resize(self, tuple(the_template._shape), memory_format)


def _resize(self: Tensor, size: tuple[int, ...], fmt: memory_format | None) -> Tensor:
    # PyTorch refuses before anything else, with or without grad mode
    if self._requires_grad:
        raise AutogradError("cannot resize variables that require grad")
    for s in size:
        if s < 0:
            raise ShapeError(f"Trying to create tensor with negative dimension {s}: "
                             f"{list(size)}")
    if size == self._shape and fmt is None:
        return self  # PyTorch keeps the strides (and the version) of a same-size resize
    strides = format_strides(fmt, size, ())
    if math.prod(size):
        needed = self._offset + 1 + sum((s - 1) * st for s, st in zip(size, strides))
        storage = self._storage
        if needed > storage.numel:
            # references: self._storage, this name and getrefcount's argument; any more is
            # another tensor on the storage, whose cached host view must go
            shared = sys.getrefcount(storage) > 3
            storage.grow(needed, shared)
    resized = size != self._shape
    self._shape = size
    self._stride = strides
    self._np = None  # the cached host view had the old layout
    if resized:  # as PyTorch: a new layout of the same sizes leaves the version alone
        self._storage.version += 1
    return self


def _suggested_format(t: Tensor) -> memory_format | None:
    """PyTorch's ``suggest_memory_format``: channels-last when ``t`` is laid out so (and not
    also plainly contiguous), else contiguous (None)."""
    for fmt in (channels_last, channels_last_3d):
        if (t.ndim == len(fmt.order or ()) and t.is_contiguous(memory_format=fmt)
                and not t.is_contiguous()):
            return fmt
    return None
