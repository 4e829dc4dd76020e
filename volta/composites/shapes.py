"""Composite operators: shape manipulation (reshape, split, stack, ...), sorting and indexing.

The view metadata ops themselves (view, permute, select, ...) live in ``views.py``.
"""

from __future__ import annotations

import math
import warnings
from collections.abc import Sequence
from typing import Any

from volta import dtypes as D
from volta._generated import registry as R
from volta.composites.base import _shape, composite
from volta.composites.views import wrap_dim
from volta.errors import (
    ArgumentError,
    DTypeError,
    IndexOutOfRangeError,
    SchemaError,
    ShapeError,
)
from volta.memory_format import contiguous_format, preserve_format
from volta.tensor.checks import check_int64, check_int64_list
from volta.tensor.inplace import broadcast_shapes
from volta.tensor.tensor import Tensor

# ---------------------------------------------------------------- views and shapes

@composite("swapaxes")
def swapaxes(self: Tensor, axis0: int, axis1: int) -> Tensor:
    """Alias of transpose."""
    return R.transpose(self, axis0, axis1)


@composite("expand_as")
def expand_as(self: Tensor, other: Tensor) -> Tensor:
    """``self.expand(other.shape)``."""
    return R.expand(self, _shape(other))


@composite("broadcast_to")
def broadcast_to(self: Tensor, size: Sequence[int]) -> Tensor:
    """``self.expand(size)``."""
    return R.expand(self, tuple(size))


@composite("narrow")
def narrow(self: Tensor, dim: int, start: int, length: int) -> Tensor:
    """``length`` elements of ``dim`` from ``start`` (a view)."""
    if self.ndim == 0:
        raise IndexOutOfRangeError("narrow() cannot be applied to a 0-dim tensor.")
    if length < 0:
        raise ShapeError("narrow(): length must be non-negative.")
    d = wrap_dim(dim, self.ndim, "narrow")
    size = self.shape[d]
    if not -size <= start <= size:
        raise IndexOutOfRangeError(f"start out of range (expected to be in range of [{-size}, "
                                   f"{size}], but got {start})")
    if start < 0:
        start += size
    if start + length > size:
        raise ShapeError(f"start ({start}) + length ({length}) exceeds dimension size ({size}).")
    return R.slice(self, d, start, start + length, 1)


@composite("split.int")
def split_int(self: Tensor, split_size_or_sections: int, dim: int = 0) -> tuple[Tensor, ...]:
    """Pieces of ``split_size_or_sections`` along ``dim`` (the last may be smaller)."""
    check_int64(split_size_or_sections, dim)
    if self.ndim == 0:
        raise ShapeError("split expects at least a 1-dimensional tensor")
    split_size = split_size_or_sections
    if split_size < 0:
        raise ShapeError(f"split expects split_size be non-negative, but got "
                         f"split_size={split_size}")
    d = wrap_dim(dim, self.ndim, "split")
    size = self.shape[d]
    if split_size == 0 and size != 0:
        raise ShapeError(f"split_size can only be 0 if dimension size is 0, but got dimension "
                         f"size of {size}")
    count = max(-(-size // split_size), 1) if split_size else 1
    sizes = [min(split_size, size - i * split_size) for i in range(count)]
    return tuple(R.split_with_sizes(self, sizes, d))


@composite("split.sizes")
def split_sizes(self: Tensor, split_size_or_sections: Sequence[int],
                dim: int = 0) -> tuple[Tensor, ...]:
    """Pieces of the given sizes along ``dim``; they must add up to its size."""
    return tuple(R.split_with_sizes(self, list(split_size_or_sections), dim))


def split_with_sizes_views(self: Tensor, split_sizes: Sequence[int],
                           dim: int = 0) -> tuple[Tensor, ...]:
    """split_with_sizes' views. split, chunk and split_with_sizes all come here through the
    split_with_sizes op, so that autograd records one node whose backward joins the pieces'
    gradients once (one node per piece would give each piece a full-size zero gradient)."""
    check_int64_list("split_with_sizes", "split_sizes", split_sizes)
    check_int64(dim)
    if self.ndim == 0:
        raise ShapeError("split expects at least a 1-dimensional tensor")
    sizes = list(split_sizes)
    d = wrap_dim(dim, self.ndim, "split")
    size = self.shape[d]
    if any(s < 0 for s in sizes):
        raise ShapeError(f"split_with_sizes expects split_sizes have only non-negative entries, "
                         f"but got split_sizes={sizes}")
    if sum(sizes) != size:
        raise ShapeError(f"split_with_sizes expects split_sizes to sum exactly to {size} (input "
                         f"tensor's size at dimension {d}), but got split_sizes={sizes}")
    # the views slice() would make, built here directly: one dispatch per piece is most of
    # split's cost (Note [Tensor construction cost])
    shape, stride, offset = self._shape, self._stride, self._offset
    before, after, step = shape[:d], shape[d + 1:], stride[d]
    pieces = []
    for s in sizes:
        pieces.append(self._view_of(before + (s,) + after, stride, offset))
        offset += s * step
    return tuple(pieces)


@composite("chunk")
def chunk(self: Tensor, chunks: int, dim: int = 0) -> tuple[Tensor, ...]:
    """At most ``chunks`` pieces of ``ceil(size / chunks)`` along ``dim``."""
    check_int64(chunks, dim)
    if self.ndim == 0:
        raise ShapeError("chunk expects at least a 1-dimensional tensor")
    if chunks <= 0:
        raise ShapeError(f"chunk expects `chunks` to be greater than 0, got: {chunks}")
    d = wrap_dim(dim, self.ndim, "chunk")
    size = self.shape[d]
    split_size = -(-size // chunks)
    if split_size == 0 and size == 0:
        # keep the number of (empty) chunks, which split by size 0 would lose
        return split_sizes(self, (0,) * chunks, d)
    return split_int(self, split_size, d)


@composite("unbind")
def unbind(self: Tensor, dim: int = 0) -> tuple[Tensor, ...]:
    """The slices along ``dim``, with that dim removed (views; autograd records one node for
    them all, whose backward stacks their gradients)."""
    d = wrap_dim(dim, self.ndim, "unbind", scalar_ok=False)
    # the views select() would make, built here directly (Note [Tensor construction cost])
    shape, stride, offset = self._shape, self._stride, self._offset
    rest_shape, rest_stride = shape[:d] + shape[d + 1:], stride[:d] + stride[d + 1:]
    step = stride[d]
    return tuple(self._view_of(rest_shape, rest_stride, offset + i * step)
                 for i in range(shape[d]))


@composite("movedim")
def movedim(self: Tensor, source: Sequence[int], destination: Sequence[int]) -> Tensor:
    """Move the dims ``source`` to the positions ``destination``; the others keep their order."""
    n = self.ndim
    if len(source) != len(destination):
        raise ShapeError(f"movedim: Invalid source or destination dims: source ({list(source)} "
                         f"dims) should contain the same number of dims as destination "
                         f"({list(destination)} dims)")
    src = [wrap_dim(d, n, "movedim") for d in source]
    dst = [wrap_dim(d, n, "movedim") for d in destination]
    if len(set(src)) != len(src):
        raise ShapeError(f"movedim: repeated dim in `source` ({list(source)})")
    if len(set(dst)) != len(dst):
        raise ShapeError(f"movedim: repeated dim in `destination` ({list(destination)})")
    if n == 0:
        return R.alias(self)
    order: list[int | None] = [None] * n
    for s, d in zip(src, dst):
        order[d] = s
    rest = iter(d for d in range(n) if d not in src)
    perm = [next(rest) if o is None else o for o in order]
    return R.permute(self, tuple(perm))


@composite("reshape_as")
def reshape_as(self: Tensor, other: Tensor) -> Tensor:
    """``self.reshape(other.shape)``."""
    return R.reshape(self, _shape(other))


@composite("view_as")
def view_as(self: Tensor, other: Tensor) -> Tensor:
    """``self.view(other.shape)``."""
    return R.view(self, _shape(other))


@composite("flatten")
def flatten(self: Tensor, start_dim: int = 0, end_dim: int = -1) -> Tensor:
    """Merge dims ``start_dim..end_dim`` into one (a 0-d tensor becomes 1-d)."""
    shape = self._shape  # flatten runs before every classifier head: no Size objects here
    n = len(shape)
    start = wrap_dim(start_dim, n, "flatten")
    end = wrap_dim(end_dim, n, "flatten")
    if n == 0:
        return R.reshape(self, (1,))
    if start > end:
        raise ShapeError("flatten() has invalid args: start_dim cannot come after end_dim")
    if start == end:
        return self
    merged = math.prod(shape[start:end + 1])
    return R.reshape(self, shape[:start] + (merged,) + shape[end + 1:])


@composite("unflatten")
def unflatten(self: Tensor, dim: int, sizes: Sequence[int]) -> Tensor:
    """Split dim ``dim`` into ``sizes`` (one entry may be -1)."""
    d = wrap_dim(dim, self.ndim, "unflatten", scalar_ok=False)
    sizes = list(sizes)
    if not sizes:
        raise ShapeError("unflatten: sizes must be non-empty")
    size = self.shape[d]
    if sizes.count(-1) > 1:
        raise ShapeError("unflatten: only one dimension can be inferred")
    known = math.prod(s for s in sizes if s != -1)
    mismatch = (known == 0 or size % known) if -1 in sizes else known != size
    if mismatch:
        raise ShapeError(f"unflatten: Provided sizes {sizes} don't multiply up to the size of dim "
                         f"{d} ({size}) in the input tensor")
    if -1 in sizes:
        sizes[sizes.index(-1)] = size // known
    shape = _shape(self)
    return R.view(self, shape[:d] + tuple(sizes) + shape[d + 1:])


@composite("ravel")
def ravel(self: Tensor) -> Tensor:
    """The elements as a 1-d tensor (a view when possible)."""
    return R.reshape(self, (-1,))


@composite("contiguous")
def contiguous(self: Tensor, memory_format: Any = None) -> Tensor:
    """``self`` when already laid out in ``memory_format`` (row-major by default), else a copy
    that is."""
    if memory_format is preserve_format:
        raise ArgumentError("contiguous: preserve memory format is unsupported by the "
                            "contiguous operator")
    if self.is_contiguous(memory_format=memory_format):
        return self
    return R.clone(self, memory_format or contiguous_format)


@composite("zero_")
def zero_(self: Tensor) -> Tensor:
    """Fill ``self`` with zeros in place."""
    return self.fill_(0)


@composite("concat")
def concat(tensors: Sequence[Tensor], dim: int = 0) -> Tensor:
    """Alias of cat."""
    return R.cat(tuple(tensors), dim)


@composite("stack")
def stack(tensors: Sequence[Tensor], dim: int = 0) -> Tensor:
    """Join equally shaped tensors along a new dim ``dim``."""
    if not tensors:
        raise ShapeError("stack expects a non-empty TensorList")
    first = _shape(tensors[0])
    for i, other in enumerate(tensors[1:], 1):
        if _shape(other) != first:
            raise ShapeError(f"stack expects each tensor to be equal size, but got {list(first)} "
                             f"at entry 0 and {list(other.shape)} at entry {i}")
    d = wrap_dim(dim, len(first) + 1, "stack")
    return R.cat(tuple(x.unsqueeze(d) for x in tensors), d)


def _atleast_1d(x: Tensor) -> Tensor:
    return R.reshape(x, (1,)) if x.ndim == 0 else x


def _atleast_2d(x: Tensor) -> Tensor:
    if x.ndim == 0:
        return R.reshape(x, (1, 1))
    return x.unsqueeze(0) if x.ndim == 1 else x


@composite("hstack")
def hstack(tensors: Sequence[Tensor]) -> Tensor:
    """Concatenate column-wise (along dim 0 for 1-d tensors, else dim 1)."""
    if not tensors:
        raise ShapeError("hstack expects a non-empty TensorList")
    parts = tuple(_atleast_1d(x) for x in tensors)
    return R.cat(parts, 0 if parts[0].ndim == 1 else 1)


@composite("vstack")
def vstack(tensors: Sequence[Tensor]) -> Tensor:
    """Concatenate row-wise, treating 0-d and 1-d tensors as rows."""
    if not tensors:
        raise ShapeError("vstack expects a non-empty TensorList")
    return R.cat(tuple(_atleast_2d(x) for x in tensors), 0)


@composite("tile")
def tile(self: Tensor, dims: Sequence[int]) -> Tensor:
    """Repeat ``self`` ``dims`` times per dim; missing leading dims repeat once."""
    reps = tuple(dims)
    if len(reps) < self.ndim:
        reps = (1,) * (self.ndim - len(reps)) + reps
    return R.repeat(self, reps)


_warned_meshgrid_indexing = False


@composite("meshgrid")
def meshgrid(tensors: Sequence[Tensor], indexing: str | None = None) -> tuple[Tensor, ...]:
    """Coordinate grids of 0-d/1-d tensors, as expanded views ("ij" or "xy" indexing)."""
    global _warned_meshgrid_indexing
    if not tensors:
        raise ShapeError("meshgrid expects a non-empty TensorList")
    if indexing is None:
        if not _warned_meshgrid_indexing:
            _warned_meshgrid_indexing = True
            warnings.warn("torch.meshgrid: in an upcoming release, it will be required to pass "
                          "the indexing argument.", UserWarning, stacklevel=3)
        indexing = "ij"
    if indexing not in ("ij", "xy"):
        raise SchemaError(f'torch.meshgrid: indexing must be one of "xy" or "ij", but received: '
                          f"{indexing}")
    grids = list(tensors)
    for x in grids:
        if x.ndim > 1:
            raise ShapeError(f"torch.meshgrid: Expected 0D or 1D tensor in the tensor list but "
                             f"got a tensor of shape {list(x.shape)}")
        if x.dtype is not grids[0].dtype:
            raise DTypeError("meshgrid expects all tensors to have the same dtype")
        if x.device != grids[0].device:
            raise ShapeError("meshgrid expects all tensors to have the same device")
    swap = indexing == "xy" and len(grids) >= 2
    if swap:
        grids[0], grids[1] = grids[1], grids[0]
    shape = tuple(x.numel() for x in grids)
    out = []
    for i, x in enumerate(grids):
        view_shape = [1] * len(grids)
        view_shape[i] = -1
        out.append(R.expand(R.reshape(x, tuple(view_shape)), shape))
    if swap:
        out[0], out[1] = out[1], out[0]
    return tuple(out)


# ---------------------------------------------------------------- sorting and indexing

@composite("argsort")
def argsort(self: Tensor, dim: int = -1, descending: bool = False) -> Tensor:
    """The indices that sort ``self`` along ``dim``."""
    return R.sort(self, dim, descending)[1]


@composite("argsort.stable")
def argsort_stable(self: Tensor, stable: bool, dim: int = -1, descending: bool = False
                   ) -> Tensor:
    """The indices that sort ``self`` along ``dim`` (ties in their order: volta's sort is
    always stable)."""
    return R.sort(self, dim, descending)[1]


@composite("sort.stable")
def sort_stable(self: Tensor, stable: bool | None, dim: int = -1, descending: bool = False
                ) -> tuple[Tensor, Tensor]:
    """PyTorch's overload for ``stable=``: volta's sort is always stable."""
    return R.sort(self, dim, descending)


@composite("take_along_dim")
def take_along_dim(self: Tensor, indices: Tensor, dim: int | None = None) -> Tensor:
    """gather with broadcasting of every dim but ``dim``; flat when ``dim`` is None."""
    if dim is None:
        return R.gather(R.reshape(self, (-1,)), 0, R.reshape(indices, (-1,)), False)
    if self.ndim != indices.ndim:
        raise ShapeError(f"torch.take_along_dim(): input and indices should have the same number "
                         f"of dimensions, but got {self.ndim} dimensions for input, and "
                         f"{indices.ndim} dimensions for indices")
    if indices.dtype is not D.int64:
        raise DTypeError(f"torch.take_along_dim(): dtype of indices should be Long but got "
                         f"{indices.dtype.name}")
    d = wrap_dim(dim, self.ndim, "take_along_dim")
    size = self.shape[d] if self.ndim else 1
    # with a dim, PyTorch's take_along_dim wraps a negative index (its gather would not)
    indices = R.where_self(R.lt(indices, 0), R.add(indices, size, 1), indices)
    self_sizes = list(self.shape)
    self_sizes[d] = indices.shape[d]
    indices = R.expand(indices, broadcast_shapes(tuple(self_sizes), _shape(indices)))
    index_sizes = list(indices.shape)
    index_sizes[d] = self.shape[d]
    source = R.expand(self, broadcast_shapes(tuple(index_sizes), _shape(self)))
    return R.gather(source, d, indices, False)


@composite("nonzero.tuple")
def nonzero_tuple(self: Tensor, as_tuple: bool) -> Any:
    """nonzero's indices: one tensor per dim when ``as_tuple`` (0-d counts as 1-d)."""
    if not as_tuple:
        return R.nonzero(self)
    x = R.reshape(self, (1,)) if self.ndim == 0 else self
    return tuple(R.nonzero(x).unbind(1))


@composite("where")
def where(condition: Tensor) -> tuple[Tensor, ...]:
    """``where(condition)``: the indices of the nonzero elements, one tensor per dim."""
    return nonzero_tuple(condition, True)
