"""View ops: new sizes/strides/offset over the same storage, on every backend.

These are the composite implementations of the ops tagged ``view`` in ops.yaml; autograd uses
their formulas. No data moves; the output shares the input's storage and version counter.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Sequence
from typing import Any

from volta._generated import registry as R
from volta.errors import IndexOutOfRangeError, ShapeError
from volta.tensor.tensor import Tensor, contiguous_strides

VIEW_IMPLEMENTATIONS: dict[str, Any] = {}


def _impl(name: str) -> Any:
    def register(fn: Any) -> Any:
        VIEW_IMPLEMENTATIONS[name] = fn
        return fn
    return register


def wrap_dim(dim: int, ndim: int, op: str = "", *, scalar_ok: bool = True) -> int:
    """PyTorch's ``maybe_wrap_dim``: the one place a ``dim`` argument is checked.

    A 0-d tensor accepts dim -1 and 0 (``scalar_ok``); ops that need a real dimension
    (``roll``, ``unbind``) pass ``scalar_ok=False`` and reject every dim, as PyTorch does.
    """
    if ndim == 0 and not scalar_ok:
        raise IndexOutOfRangeError(f"{op + ': ' if op else ''}Dimension specified as {dim} but "
                                   "tensor has no dimensions")
    n = max(ndim, 1)
    if not -n <= dim < n:
        raise IndexOutOfRangeError(f"{op + ': ' if op else ''}Dimension out of range (expected "
                                   f"to be in range of [{-n}, {n - 1}], but got {dim})")
    return dim + n if dim < 0 else dim


def wrap_dims(dims: Sequence[int], ndim: int, op: str = "", *, scalar_ok: bool = True
              ) -> tuple[int, ...]:
    """Every dim of a ``dims`` list wrapped; a dim named twice is PyTorch's error."""
    wrapped = tuple(wrap_dim(d, ndim, op, scalar_ok=scalar_ok) for d in dims)
    seen: set[int] = set()
    for d in wrapped:
        if d in seen:
            raise ShapeError(f"{op + ': ' if op else ''}dim {d} appears multiple times in the "
                             "list of dims")
        seen.add(d)
    return wrapped


def infer_size(shape: Sequence[int], numel: int, op: str) -> tuple[int, ...]:
    if -1 not in shape:
        if math.prod(shape) == numel and (not shape or min(shape) >= 0):
            return tuple(shape)  # the common case: every size given and right
    elif shape.count(-1) == 1 and min(shape) == -1:
        known = -math.prod(shape)  # the others' product: one -1 among non-negative sizes
        if known and numel % known == 0:
            inferred = list(shape)
            inferred[inferred.index(-1)] = numel // known
            return tuple(inferred)
    shape = list(shape)
    unknown = [i for i, s in enumerate(shape) if s == -1]
    if len(unknown) > 1:
        raise ShapeError(f"{op}: only one dimension can be inferred")
    known = math.prod(s for s in shape if s != -1)
    if unknown:
        if known == 0 or numel % known:
            raise ShapeError(f"{op}: shape '{list(shape)}' is invalid for input of size {numel}")
        shape[unknown[0]] = numel // known
    if any(s < 0 for s in shape) or math.prod(shape) != numel:
        raise ShapeError(f"{op}: shape '{list(shape)}' is invalid for input of size {numel}")
    return tuple(shape)


_contiguous = functools.lru_cache(maxsize=4096)(contiguous_strides)


def view_strides(old_shape: Sequence[int], old_strides: Sequence[int],
                 new_shape: Sequence[int]) -> tuple[int, ...] | None:
    """Strides that show ``new_shape`` over the same memory, or None if a copy is needed.

    Walk the old dims from the last, grouping runs that are contiguous with each other
    ("chunks"); each chunk must be covered exactly by a run of new dims.
    """
    if old_shape.__class__ is not tuple or old_strides.__class__ is not tuple:
        old_shape, old_strides = tuple(old_shape), tuple(old_strides)
    if old_strides == _contiguous(old_shape) and math.prod(old_shape):
        return _contiguous(tuple(new_shape))  # a contiguous tensor views any shape
    if math.prod(old_shape) == 0 and tuple(old_shape) == tuple(new_shape):
        return tuple(old_strides)  # PyTorch keeps the strides of an empty same-shape view
    if len(old_shape) == 0 or math.prod(old_shape) == 0:
        return contiguous_strides(tuple(new_shape))
    new_strides = [0] * len(new_shape)
    view_d = len(new_shape) - 1
    chunk_base_stride = old_strides[-1]
    tensor_numel = 1
    view_numel = 1
    for tensor_d in range(len(old_shape) - 1, -1, -1):
        tensor_numel *= old_shape[tensor_d]
        chunk_ends = tensor_d == 0 or (
            old_shape[tensor_d - 1] != 1
            and old_strides[tensor_d - 1] != tensor_numel * chunk_base_stride)
        if chunk_ends:
            while view_d >= 0 and (view_numel < tensor_numel or new_shape[view_d] == 1):
                new_strides[view_d] = view_numel * chunk_base_stride
                view_numel *= new_shape[view_d]
                view_d -= 1
            if view_numel != tensor_numel:
                return None
            if tensor_d > 0:
                chunk_base_stride = old_strides[tensor_d - 1]
                tensor_numel = 1
                view_numel = 1
    if view_d != -1:
        return None
    return tuple(new_strides)


@functools.lru_cache(maxsize=4096)
def _view_geometry(shape: tuple[int, ...], stride: tuple[int, ...], size: tuple[int, ...],
                   op: str) -> tuple[tuple[int, ...], tuple[int, ...] | None]:
    """``size`` resolved against ``shape`` (one -1 inferred) and the strides that view it over
    ``stride`` (None: no view, a copy is needed); cached, since a training step views the same
    shapes the same way every step. Invalid sizes raise, and errors are not cached."""
    new_shape = infer_size(size, math.prod(shape), op)
    return new_shape, view_strides(shape, stride, new_shape)


def _geometry(self: Tensor, size: Sequence[int], op: str
              ) -> tuple[tuple[int, ...], tuple[int, ...] | None]:
    if size.__class__ is tuple:
        try:
            return _view_geometry(self._shape, self._stride, size, op)
        except TypeError:  # an unhashable size (a list inside): not cached
            pass
    new_shape = infer_size(size, math.prod(self._shape), op)
    return new_shape, view_strides(self._shape, self._stride, new_shape)


@_impl("view")
def view(self: Tensor, size: Sequence[int]) -> Tensor:
    shape, strides = _geometry(self, size, "view")
    if strides is None:
        raise ShapeError("view size is not compatible with input tensor's size and stride (at "
                         "least one dimension spans across two contiguous subspaces). Use "
                         ".reshape(...) instead.")
    return self._view_of(shape, strides, self._offset)


@_impl("as_strided")
def as_strided(self: Tensor, size: Sequence[int], stride: Sequence[int],
               storage_offset: int | None = None) -> Tensor:
    offset = self._offset if storage_offset is None else storage_offset
    if len(size) != len(stride):
        raise ShapeError(f"as_strided: mismatch in length of strides and shape ({len(size)} vs "
                         f"{len(stride)})")
    if any(s < 0 for s in stride) or any(s < 0 for s in size):
        raise ShapeError("as_strided: negative sizes and strides are not supported")
    if math.prod(size) > 0:
        last = offset + sum((n - 1) * s for n, s in zip(size, stride))
        if last >= self._storage.numel or offset < 0:
            raise ShapeError(f"as_strided: setStorage: sizes {list(size)}, strides "
                             f"{list(stride)}, storage offset {offset} require "
                             f"{last + 1} elements but the storage has {self._storage.numel}")
    return self._view_of(tuple(size), tuple(stride), offset)


@_impl("permute")
def permute(self: Tensor, dims: Sequence[int]) -> Tensor:
    n = self.ndim
    if len(dims) != n:
        raise ShapeError(f"permute(sparse_coo): number of dimensions in the tensor input does "
                         f"not match the length of the desired ordering of dimensions i.e. "
                         f"input.dim() = {n} is not equal to len(dims) = {len(dims)}")
    wrapped = wrap_dims(dims, n, "permute")
    return self._view_of(tuple(self._shape[d] for d in wrapped),
                         tuple(self._stride[d] for d in wrapped), self._offset)


@_impl("transpose")
def transpose(self: Tensor, dim0: int, dim1: int) -> Tensor:
    n = self.ndim
    d0, d1 = wrap_dim(dim0, n, "transpose"), wrap_dim(dim1, n, "transpose")
    if n == 0:
        return self._view_of((), (), self._offset)
    shape, stride = list(self._shape), list(self._stride)
    shape[d0], shape[d1] = shape[d1], shape[d0]
    stride[d0], stride[d1] = stride[d1], stride[d0]
    return self._view_of(tuple(shape), tuple(stride), self._offset)


@_impl("t")
def t(self: Tensor) -> Tensor:
    """Transpose of a matrix; tensors with fewer than 2 dims come back as a view of themselves.
    Its own view op with its own formula (not transpose(0, 1)): one dispatch per call."""
    shape, stride = self._shape, self._stride
    if len(shape) == 2:
        return self._view_of((shape[1], shape[0]), (stride[1], stride[0]), self._offset)
    if len(shape) > 2:
        raise ShapeError(f"t() expects a tensor with <= 2 dimensions, but self is {len(shape)}D")
    return self._view_of(shape, stride, self._offset)


@_impl("reshape")
def reshape(self: Tensor, shape: Sequence[int]) -> Tensor:
    """A view with ``shape`` when the strides allow one, else a contiguous copy. reshape has its
    own formula, so the view is made here rather than by dispatching ``view`` a second time."""
    size, strides = _geometry(self, shape, "reshape")
    if strides is not None:
        return self._view_of(size, strides, self._offset)
    copy = R.contiguous(self)  # a new, row-major storage: the result is no view of ``self``
    return Tensor._make(copy._storage, size, contiguous_strides(size), copy._offset)


@_impl("squeeze")
def squeeze(self: Tensor, dim: Sequence[int] | None = None) -> Tensor:
    n = self.ndim
    if dim is None:
        dims = {i for i, s in enumerate(self._shape) if s == 1}
    else:
        dims = {d for d in wrap_dims(dim, n, "squeeze") if n and self._shape[d] == 1}
    keep = [i for i in range(n) if i not in dims]
    return self._view_of(tuple(self._shape[i] for i in keep),
                         tuple(self._stride[i] for i in keep), self._offset)


@_impl("unsqueeze")
def unsqueeze(self: Tensor, dim: int) -> Tensor:
    n = self.ndim
    d = wrap_dim(dim, n + 1, "unsqueeze")
    shape, stride = list(self._shape), list(self._stride)
    new_stride = shape[d] * stride[d] if d < n else 1
    shape.insert(d, 1)
    stride.insert(d, new_stride)
    return self._view_of(tuple(shape), tuple(stride), self._offset)


@_impl("expand")
def expand(self: Tensor, size: Sequence[int]) -> Tensor:
    n = self.ndim
    if len(size) < n:
        raise ShapeError(f"expand: the number of sizes provided ({len(size)}) must be greater "
                         f"or equal to the number of dimensions in the tensor ({n})")
    lead = len(size) - n
    shape, stride = [], []
    for i, target in enumerate(size):
        if i < lead:
            if target < 0:
                raise ShapeError(f"expand: the expanded size of the tensor ({target}) isn't "
                                 f"allowed in a leading, non-existing dimension {i}")
            shape.append(target)
            stride.append(0)
            continue
        cur, cur_stride = self._shape[i - lead], self._stride[i - lead]
        if target == -1:
            target = cur
        if cur == target:
            shape.append(cur)
            stride.append(cur_stride)
        elif cur == 1:
            shape.append(target)
            stride.append(0)
        else:
            raise ShapeError(f"The expanded size of the tensor ({target}) must match the "
                             f"existing size ({cur}) at non-singleton dimension {i}.  Target "
                             f"sizes: {list(size)}.  Tensor sizes: {list(self._shape)}")
    return self._view_of(tuple(shape), tuple(stride), self._offset)


@_impl("slice")
def slice_(self: Tensor, dim: int = 0, start: int | None = None, end: int | None = None,
           step: int = 1) -> Tensor:
    shape, stride = self._shape, self._stride
    n = len(shape)
    if n == 0:
        raise IndexOutOfRangeError("slice() cannot be applied to a 0-dim tensor.")
    d = dim if 0 <= dim < n else wrap_dim(dim, n, "slice")
    if step <= 0:
        raise ShapeError("slice step must be positive")
    size = shape[d]
    s = 0 if start is None else (max(start + size, 0) if start < 0 else min(start, size))
    e = size if end is None else (max(end + size, 0) if end < 0 else min(end, size))
    length = (e - s + step - 1) // step if e > s else 0
    # PyTorch moves the offset to the clamped start even for an empty slice
    return self._view_of(shape[:d] + (length,) + shape[d + 1:],
                         stride[:d] + (stride[d] * step,) + stride[d + 1:],
                         self._offset + s * stride[d])


@_impl("select")
def select(self: Tensor, dim: int, index: int) -> Tensor:
    shape, stride = self._shape, self._stride
    n = len(shape)
    if n == 0:
        raise IndexOutOfRangeError("select() cannot be applied to a 0-dim tensor.")
    d = dim if 0 <= dim < n else wrap_dim(dim, n, "select")
    size = shape[d]
    if not -size <= index < size:
        raise IndexOutOfRangeError(f"index {index} is out of bounds for dimension {d} with "
                                   f"size {size}")
    if index < 0:
        index += size
    return self._view_of(shape[:d] + shape[d + 1:], stride[:d] + stride[d + 1:],
                         self._offset + index * stride[d])


@_impl("unfold")
def unfold(self: Tensor, dimension: int, size: int, step: int) -> Tensor:
    n = self.ndim
    d = wrap_dim(dimension, n, "unfold")
    length = self._shape[d] if n else 1
    if size > length:
        raise ShapeError(f"maximum size for tensor at dimension {d} is {length} but size is "
                         f"{size}")
    if step <= 0:
        raise ShapeError(f"step is {step} but must be > 0")
    count = (length - size) // step + 1
    shape, stride = list(self._shape), list(self._stride)
    inner = stride[d] if n else 1
    if n:
        shape[d] = count
        stride[d] = inner * step
    shape.append(size)
    stride.append(inner)
    return self._view_of(tuple(shape), tuple(stride), self._offset)


@_impl("diagonal")
def diagonal(self: Tensor, offset: int = 0, dim1: int = 0, dim2: int = 1) -> Tensor:
    n = self.ndim
    d1, d2 = wrap_dim(dim1, n, "diagonal"), wrap_dim(dim2, n, "diagonal")
    if d1 == d2:
        raise ShapeError(f"diagonal dimensions cannot be identical {dim1}, {dim2}")
    storage_offset = self._offset
    if offset >= 0:
        length = max(min(self._shape[d1], self._shape[d2] - offset), 0)
        storage_offset += offset * self._stride[d2] if length else 0
    else:
        length = max(min(self._shape[d1] + offset, self._shape[d2]), 0)
        storage_offset -= offset * self._stride[d1] if length else 0
    shape = [s for i, s in enumerate(self._shape) if i not in (d1, d2)] + [length]
    stride = [s for i, s in enumerate(self._stride) if i not in (d1, d2)]
    stride.append(self._stride[d1] + self._stride[d2])
    return self._view_of(tuple(shape), tuple(stride), storage_offset)


@_impl("alias")
def alias(self: Tensor) -> Tensor:
    return self._view_of(self._shape, self._stride, self._offset)


@_impl("detach")
def detach(self: Tensor) -> Tensor:
    # detach shares storage and version counter but is not a view for autograd purposes
    t = Tensor._make(self._storage, self._shape, self._stride, self._offset)
    t._np = self._np
    return t
