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


def dense_strides_like(shape: Sequence[int], strides: Sequence[int]) -> tuple[int, ...]:
    """Dense strides that keep the memory order of a layout that is not dense (sliced with
    steps, or broadcast), PyTorch's rule for ``preserve_format`` there.

    Dims are ordered innermost first by their strides, by an insertion sort that starts from
    the row-major order and is stable: a dim of stride 0 (broadcast) compares equal to every
    other, so it keeps its row-major place; of two equal strides the smaller dim goes inside.
    """
    n = len(shape)
    inner_first = list(range(n - 1, -1, -1))

    def goes_outside(dim: int, other: int) -> int:
        """1: ``dim`` belongs outside ``other``; -1: inside; 0: no order between them."""
        a, b = strides[dim], strides[other]
        if a == 0 or b == 0:
            return 0
        if a != b:
            return 1 if a > b else -1
        return 1 if shape[dim] > shape[other] else 0

    for i in range(1, n):
        moving = i
        for j in range(i - 1, -1, -1):
            order = goes_outside(inner_first[j], inner_first[moving])
            if order > 0:
                inner_first[j], inner_first[moving] = inner_first[moving], inner_first[j]
                moving = j
            elif order < 0:
                break
    result = [0] * n
    step = 1
    for dim in inner_first:
        result[dim] = step
        if shape[dim] > 1:
            step *= shape[dim]
    return tuple(result)


def format_strides(fmt: memory_format | None, shape: Sequence[int],
                   strides: Sequence[int]) -> tuple[int, ...]:
    """The strides a copy of a tensor (``shape``, ``strides``) gets in memory format ``fmt``:
    ``preserve_format`` keeps a dense layout as it is and gives any other the dense strides in
    its memory order (as PyTorch does)."""
    if fmt is None or fmt is contiguous_format:
        return strides_in_order(shape, range(len(shape)))
    if fmt is preserve_format:
        # as PyTorch: a non-overlapping and dense layout (every empty one counts as dense) is
        # kept exactly, size-1 dims' strides included
        if 0 in shape or dense_order(shape, strides) is not None:
            return tuple(strides)
        return dense_strides_like(shape, strides)
    if not isinstance(fmt, memory_format):
        raise ArgumentError(f"memory_format must be a volta.memory_format, got {fmt!r}")
    order = fmt.order or ()
    if len(shape) != len(order):
        raise ArgumentError(f"required rank {len(order)} tensor to use {fmt.name} format")
    return strides_in_order(shape, order)
