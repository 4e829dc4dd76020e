"""Memory formats (PyTorch's ``torch.memory_format``): how a tensor's dims are laid out in
memory, as the ``memory_format=`` argument of ``contiguous``, ``clone``, ``to``, ``float()`` and
friends and the ``*_like`` factories names it."""

from __future__ import annotations

from collections.abc import Sequence

from volta.errors import ArgumentError


class memory_format:  # noqa: N801 - PyTorch's public name
    """One memory format; the four instances below are the only ones."""

    def __init__(self, name: str, order: tuple[int, ...] | None = None) -> None:
        self.name = name
        # dims from the outermost to the innermost in memory, for the formats that fix one
        self.order = order

    def __repr__(self) -> str:
        return f"volta.{self.name}"


contiguous_format = memory_format("contiguous_format")
preserve_format = memory_format("preserve_format")
channels_last = memory_format("channels_last", (0, 2, 3, 1))
channels_last_3d = memory_format("channels_last_3d", (0, 2, 3, 4, 1))

BY_NAME = {fmt.name: fmt for fmt in
           (contiguous_format, preserve_format, channels_last, channels_last_3d)}


def strides_in_order(shape: Sequence[int], order: Sequence[int]) -> tuple[int, ...]:
    """Dense strides for ``shape`` with the dims laid out outermost-to-innermost in ``order``."""
    strides = [0] * len(shape)
    step = 1
    for d in reversed(order):
        strides[d] = step
        step *= max(shape[d], 1)
    return tuple(strides)


def dense_order(shape: Sequence[int], strides: Sequence[int]) -> tuple[int, ...] | None:
    """The outermost-to-innermost order of a non-overlapping and dense layout, else None."""
    order = tuple(sorted(range(len(shape)), key=lambda d: (-strides[d], d)))
    expected = strides_in_order(shape, order)
    dense = all(strides[d] == expected[d] for d in order if shape[d] != 1)
    return order if dense else None


def format_strides(fmt: memory_format | None, shape: Sequence[int],
                   strides: Sequence[int]) -> tuple[int, ...]:
    """The strides a copy of a tensor (``shape``, ``strides``) gets in memory format ``fmt``:
    ``preserve_format`` keeps a dense layout (as PyTorch does), else falls back to contiguous."""
    if fmt is None or fmt is contiguous_format:
        return strides_in_order(shape, range(len(shape)))
    if fmt is preserve_format:
        order = dense_order(shape, strides)
        return strides_in_order(shape, range(len(shape)) if order is None else order)
    if not isinstance(fmt, memory_format):
        raise ArgumentError(f"memory_format must be a volta.memory_format, got {fmt!r}")
    order = fmt.order or ()
    if len(shape) != len(order):
        raise ArgumentError(f"required rank {len(order)} tensor to use {fmt.name} format")
    return strides_in_order(shape, order)
