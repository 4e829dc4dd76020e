"""Composite operators: more shape ops (tensor_split, rot90, diff, ...), the copying forms of the
views (``*_copy``), the view scatters (``*_scatter``) and indexing ops built on gather/index_put.

Every one is written with other volta ops, so each backend runs it and autograd differentiates
it through the ops it calls.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from volta import dtypes as D
from volta._generated import registry as R
from volta.composites.base import Number, _shape, composite
from volta.composites.shapes import split_int, split_with_sizes_views
from volta.composites.views import wrap_dim, wrap_dims
from volta.errors import (
    DTypeError,
    IndexOutOfRangeError,
    InvalidArgumentError,
    SchemaError,
    ShapeError,
)
from volta.tensor import factories as fac
from volta.tensor.checks import check_index_dtype, check_int64, check_int64_list
from volta.tensor.tensor import Tensor

# ---------------------------------------------------------------- splitting


@composite("unsafe_chunk")
def unsafe_chunk(self: Tensor, chunks: int, dim: int = 0) -> tuple[Tensor, ...]:
    """chunk (volta's views carry no aliasing restriction to lift)."""
    return R.chunk(self, chunks, dim)


@composite("unsafe_split.Tensor")
def unsafe_split(self: Tensor, split_size: int, dim: int = 0) -> tuple[Tensor, ...]:
    """split by size (volta's views carry no aliasing restriction to lift)."""
    return split_int(self, split_size, dim)


@composite("split_with_sizes")
def split_with_sizes(self: Tensor, split_sizes_: Sequence[int], dim: int = 0
                     ) -> tuple[Tensor, ...]:
    """split with a list of sizes (views; the op split and chunk go through)."""
    return split_with_sizes_views(self, split_sizes_, dim)


@composite("split_with_sizes_copy")
def split_with_sizes_copy(self: Tensor, sizes: Sequence[int], dim: int = 0
                          ) -> tuple[Tensor, ...]:
    """Copies of split_with_sizes' pieces."""
    return tuple(R.clone(piece, None) for piece in R.split_with_sizes(self, sizes, dim))


@composite("unbind_copy")
def unbind_copy(self: Tensor, dim: int = 0) -> tuple[Tensor, ...]:
    """Copies of unbind's slices."""
    return tuple(R.clone(piece, None) for piece in R.unbind(self, dim))


def _split_at(self: Tensor, bounds: Sequence[int], d: int) -> tuple[Tensor, ...]:
    """Views between consecutive split points, each piece sliced as ``x[start:stop]`` from the
    previous point to the next (clamped into the dim): as in PyTorch, a point below the previous
    one gives an empty piece and the next piece starts again from it."""
    size = self.shape[d]
    pieces = []
    start = 0
    for bound in (*bounds, size):
        begin = min(max(start, 0), size)
        stop = min(max(bound, begin), size)
        pieces.append(R.slice(self, d, begin, stop, 1))
        start = bound
    return tuple(pieces)


def _split_dim(self: Tensor, dim: int, op: str) -> int:
    if self.ndim == 0:
        raise ShapeError(f"{op} expected at least a 1-dimensional tensor, but got a tensor with "
                         "0 dims")
    return wrap_dim(dim, self.ndim, op)


@composite("tensor_split.sections")
def tensor_split_sections(self: Tensor, sections: int, dim: int = 0) -> tuple[Tensor, ...]:
    """``sections`` pieces; the first ``size % sections`` are one longer."""
    check_int64(sections, dim)
    d = _split_dim(self, dim, "tensor_split()")
    if sections <= 0:
        raise ShapeError(f"number of sections must be larger than 0, got {sections}")
    size = self.shape[d]
    base, extra = divmod(size, sections)
    bounds, start = [], 0
    for i in range(sections - 1):
        start += base + (1 if i < extra else 0)
        bounds.append(start)
    return _split_at(self, bounds, d)


@composite("tensor_split.indices")
def tensor_split_indices(self: Tensor, indices: Sequence[int], dim: int = 0
                         ) -> tuple[Tensor, ...]:
    """Pieces split before each index (negative indices count from the end)."""
    check_int64_list("tensor_split", "indices", indices)
    check_int64(dim)
    d = _split_dim(self, dim, "tensor_split()")
    size = self.shape[d]
    return _split_at(self, [i + size if i < 0 else i for i in indices], d)


@composite("tensor_split.tensor_indices_or_sections")
def tensor_split_tensor(self: Tensor, tensor_indices_or_sections: Tensor, dim: int = 0
                        ) -> tuple[Tensor, ...]:
    """tensor_split with the sections or indices in an int64 tensor (0-d or 1-d)."""
    spec = tensor_indices_or_sections
    if spec.dtype is not D.int64:
        raise DTypeError(f"tensor_split expected tensor_indices_or_sections to have dtype of "
                         f"long, but got {spec.dtype.name}")
    if spec.ndim > 1:
        raise ShapeError(f"tensor_split expected tensor_indices_or_sections to be a "
                         f"zero-dimensional or one-dimensional tensor, but got a tensor with "
                         f"{spec.ndim} dims")
    if spec.ndim == 0:
        return tensor_split_sections(self, int(spec.item()), dim)
    return tensor_split_indices(self, [int(v) for v in spec.tolist()], dim)


def _directional_split(self: Tensor, spec: Any, dim: int, min_dims: int, op: str
                       ) -> tuple[Tensor, ...]:
    if self.ndim < min_dims:
        raise ShapeError(f"torch.{op} requires a tensor with at least {min_dims} dimension, but "
                         f"got a tensor with {self.ndim} dimensions!")
    if isinstance(spec, int):
        size = self.shape[dim]
        if spec == 0 or size % spec:
            raise ShapeError(f"torch.{op} attempted to split along dimension {dim}, but the size "
                             f"of the dimension {size} is not divisible by the split_size {spec}!")
        return tensor_split_sections(self, spec, dim)
    return tensor_split_indices(self, spec, dim)


@composite("hsplit.int")
def hsplit_int(self: Tensor, sections: int) -> tuple[Tensor, ...]:
    """Equal pieces along dim 1 (dim 0 for 1-d tensors)."""
    return _directional_split(self, sections, 0 if self.ndim == 1 else 1, 1, "hsplit")


@composite("hsplit.array")
def hsplit_array(self: Tensor, indices: Sequence[int]) -> tuple[Tensor, ...]:
    """Pieces along dim 1 (dim 0 for 1-d tensors) split before each index."""
    return _directional_split(self, list(indices), 0 if self.ndim == 1 else 1, 1, "hsplit")


@composite("vsplit.int")
def vsplit_int(self: Tensor, sections: int) -> tuple[Tensor, ...]:
    """Equal pieces along dim 0."""
    return _directional_split(self, sections, 0, 2, "vsplit")


@composite("vsplit.array")
def vsplit_array(self: Tensor, indices: Sequence[int]) -> tuple[Tensor, ...]:
    """Pieces along dim 0 split before each index."""
    return _directional_split(self, list(indices), 0, 2, "vsplit")


@composite("dsplit.int")
def dsplit_int(self: Tensor, sections: int) -> tuple[Tensor, ...]:
    """Equal pieces along dim 2."""
    return _directional_split(self, sections, 2, 3, "dsplit")


@composite("dsplit.array")
def dsplit_array(self: Tensor, indices: Sequence[int]) -> tuple[Tensor, ...]:
    """Pieces along dim 2 split before each index."""
    return _directional_split(self, list(indices), 2, 3, "dsplit")


@composite("_chunk_cat")
def _chunk_cat(tensors: Sequence[Tensor], dim: int, num_chunks: int) -> Tensor:
    """Each tensor padded along ``dim`` to a multiple of ``num_chunks``, cut into that many
    chunks, each chunk flattened from ``dim`` on; chunk ``i`` of every tensor side by side."""
    if not tensors:
        raise ShapeError("_chunk_cat expects a non-empty input tensor list")
    if num_chunks < 1:
        raise ShapeError("_chunk_cat expects positive num_chunks")
    first = tensors[0]
    d = wrap_dim(dim, first.ndim, "_chunk_cat")
    for t in tensors:
        if t.ndim < d + 1 or t.numel() == 0:
            raise ShapeError("_chunk_cat expects non-empty tensors with at least dim + 1 dims")
        if _shape(t)[:d] != _shape(first)[:d]:
            raise ShapeError("_chunk_cat expects same sizes of 0,...,dim-1 dimensions for all "
                             "tensors")
        if t.dtype is not first.dtype or t.device != first.device:
            raise DTypeError("_chunk_cat expects all input tensors with the same dtype and device")
    lead = _shape(first)[:d]
    rows = []
    for t in tensors:
        size = t.shape[d]
        padded_size = -(-size // num_chunks) * num_chunks
        if padded_size != size:
            pad = [0, 0] * (t.ndim - d - 1) + [0, padded_size - size]
            t = R.pad(t, pad, "constant", 0.0)
        rows.append(R.reshape(t, (*lead, num_chunks, -1)))
    return R.cat(tuple(rows), d + 1)


@composite("sum_to_size")
def sum_to_size(self: Tensor, size: Sequence[int]) -> Tensor:
    """Sum the broadcast dims of ``self`` away so that it has ``size`` (expandable to self)."""
    size = tuple(size)
    shape = _shape(self)
    lead = len(shape) - len(size)
    if lead < 0 or any(s != 1 and s != n for s, n in zip(size, shape[lead:])):
        raise ShapeError(f"size {{{list(size)}}} is not expandable to size {{{list(shape)}}}.")
    dims = tuple(range(lead)) + tuple(lead + i for i, s in enumerate(size)
                                      if s == 1 and shape[lead + i] != 1)
    if not size:  # as in PyTorch: a full sum (int64 for integral and bool), even of a 0-d
        return R.sum(self, (), False, None)
    if not dims:
        return self
    return R.reshape(R.sum(self, dims, False, None), size)


# ---------------------------------------------------------------- copies of views


def _copy(view: Tensor) -> Tensor:
    return R.clone(view, None)


@composite("expand_copy")
def expand_copy(self: Tensor, size: Sequence[int], implicit: bool = False) -> Tensor:
    """A copy of ``self.expand(size)``."""
    return _copy(R.expand(self, tuple(size)))


@composite("alias_copy")
def alias_copy(self: Tensor) -> Tensor:
    """A copy of ``self``."""
    return _copy(self)


@composite("as_strided_copy")
def as_strided_copy(self: Tensor, size: Sequence[int], stride: Sequence[int],
                    storage_offset: int | None = None) -> Tensor:
    """A copy of ``self.as_strided(...)``."""
    return _copy(R.as_strided(self, size, stride, storage_offset))


@composite("diagonal_copy")
def diagonal_copy(self: Tensor, offset: int = 0, dim1: int = 0, dim2: int = 1) -> Tensor:
    """A copy of ``self.diagonal(...)``."""
    return _copy(R.diagonal(self, offset, dim1, dim2))


@composite("narrow_copy")
def narrow_copy(self: Tensor, dim: int, start: int, length: int) -> Tensor:
    """A copy of ``self.narrow(...)``."""
    return _copy(R.narrow(self, dim, start, length))


@composite("view_copy")
def view_copy(self: Tensor, size: Sequence[int]) -> Tensor:
    """A copy of ``self.view(size)``."""
    return _copy(R.view(self, size))


@composite("permute_copy")
def permute_copy(self: Tensor, dims: Sequence[int]) -> Tensor:
    """A copy of ``self.permute(dims)``."""
    return _copy(R.permute(self, dims))


@composite("squeeze_copy")
def squeeze_copy(self: Tensor, dim: Sequence[int] | None = None) -> Tensor:
    """A copy of ``self.squeeze(dim)``."""
    return _copy(R.squeeze(self, dim))


@composite("unsqueeze_copy")
def unsqueeze_copy(self: Tensor, dim: int) -> Tensor:
    """A copy of ``self.unsqueeze(dim)``."""
    return _copy(R.unsqueeze(self, dim))


@composite("transpose_copy")
def transpose_copy(self: Tensor, dim0: int, dim1: int) -> Tensor:
    """A copy of ``self.transpose(dim0, dim1)``."""
    return _copy(R.transpose(self, dim0, dim1))


@composite("t_copy")
def t_copy(self: Tensor) -> Tensor:
    """A copy of ``self.t()``."""
    return _copy(R.t(self))


@composite("unfold_copy")
def unfold_copy(self: Tensor, dimension: int, size: int, step: int) -> Tensor:
    """A copy of ``self.unfold(...)``."""
    return _copy(R.unfold(self, dimension, size, step))


# ---------------------------------------------------------------- scatters through a view


def _scatter_into(self: Tensor, src: Tensor, view: Any) -> Tensor:
    """A copy of ``self`` whose region ``view(copy)`` holds ``src`` (autograd sees the copy_
    into the view, so both inputs get their gradients)."""
    out = R.clone(self, None)
    region = view(out)
    if _shape(region) != _shape(src):
        raise ShapeError(f"expected src to have a size equal to the slice of self. src size = "
                         f"{list(src.shape)}, slice size = {list(region.shape)}")
    region.copy_(src)
    return out


@composite("diagonal_scatter")
def diagonal_scatter(self: Tensor, src: Tensor, offset: int = 0, dim1: int = 0,
                     dim2: int = 1) -> Tensor:
    """``src`` written into a copy of ``self``'s diagonal."""
    return _scatter_into(self, src, lambda t: R.diagonal(t, offset, dim1, dim2))


@composite("select_scatter")
def select_scatter(self: Tensor, src: Tensor, dim: int, index: int) -> Tensor:
    """``src`` written into a copy of ``self.select(dim, index)``."""
    return _scatter_into(self, src, lambda t: R.select(t, dim, index))


@composite("slice_scatter")
def slice_scatter(self: Tensor, src: Tensor, dim: int = 0, start: int | None = None,
                  end: int | None = None, step: int = 1) -> Tensor:
    """``src`` written into a copy of ``self``'s slice ``start:end:step`` along ``dim``."""
    return _scatter_into(self, src, lambda t: R.slice(t, dim, start, end, step))


# ---------------------------------------------------------------- flips, rotations, stacking


@composite("fliplr")
def fliplr(self: Tensor) -> Tensor:
    """Flip dim 1."""
    if self.ndim < 2:
        raise ShapeError("Input must be >= 2-d.")
    return R.flip(self, (1,))


@composite("flipud")
def flipud(self: Tensor) -> Tensor:
    """Flip dim 0."""
    if self.ndim < 1:
        raise ShapeError("Input must be >= 1-d.")
    return R.flip(self, (0,))


@composite("rot90")
def rot90(self: Tensor, k: int = 1, dims: Sequence[int] = (0, 1)) -> Tensor:
    """``k`` quarter turns in the plane ``dims``, from ``dims[0]`` towards ``dims[1]``."""
    dims = list(dims)
    if len(dims) != 2:
        raise ShapeError(f"expected total rotation dims == 2, but got dims = {len(dims)}")
    if self.ndim < 2:
        raise ShapeError(f"expected total dims >= 2, but got total dims = {self.ndim}")
    d0, d1 = (wrap_dim(d, self.ndim, "rot90") for d in dims)
    if d0 == d1:
        raise ShapeError(f"expected rotation dims to be different, but got dim0 = {d0} and "
                         f"dim1 = {d1}")
    k %= 4
    if k == 1:
        return R.transpose(R.flip(self, (d1,)), d0, d1)
    if k == 2:
        return R.flip(self, (d0, d1))
    if k == 3:
        return R.flip(R.transpose(self, d0, d1), (d1,))
    return R.clone(self, None)


def _atleast(x: Tensor, ndim: int) -> Tensor:
    if x.ndim >= ndim:
        return x
    if ndim == 3 and x.ndim == 1:
        return R.reshape(x, (1, x.shape[0], 1))
    if ndim == 3 and x.ndim == 2:
        return R.unsqueeze(x, 2)
    return R.reshape(x, (1,) * (ndim - x.ndim) + _shape(x))


@composite("atleast_1d")
def atleast_1d(self: Tensor) -> Tensor:
    """``self`` as a view with at least one dim."""
    return _atleast(self, 1)


@composite("atleast_1d.Sequence")
def atleast_1d_sequence(tensors: Sequence[Tensor]) -> tuple[Tensor, ...]:
    """atleast_1d of each tensor."""
    return tuple(_atleast(t, 1) for t in tensors)


@composite("atleast_2d")
def atleast_2d(self: Tensor) -> Tensor:
    """``self`` as a view with at least two dims."""
    return _atleast(self, 2)


@composite("atleast_2d.Sequence")
def atleast_2d_sequence(tensors: Sequence[Tensor]) -> tuple[Tensor, ...]:
    """atleast_2d of each tensor."""
    return tuple(_atleast(t, 2) for t in tensors)


@composite("atleast_3d")
def atleast_3d(self: Tensor) -> Tensor:
    """``self`` as a view with at least three dims."""
    return _atleast(self, 3)


@composite("atleast_3d.Sequence")
def atleast_3d_sequence(tensors: Sequence[Tensor]) -> tuple[Tensor, ...]:
    """atleast_3d of each tensor."""
    return tuple(_atleast(t, 3) for t in tensors)


@composite("column_stack")
def column_stack(tensors: Sequence[Tensor]) -> Tensor:
    """0-d and 1-d tensors become columns; everything is concatenated along dim 1."""
    if not tensors:
        raise ShapeError("column_stack expects a non-empty TensorList")
    columns = tuple(R.reshape(t, (t.numel(), 1)) if t.ndim <= 1 else t for t in tensors)
    return R.cat(columns, 1)


@composite("dstack")
def dstack(tensors: Sequence[Tensor]) -> Tensor:
    """Concatenate along dim 2 after atleast_3d."""
    if not tensors:
        raise ShapeError("dstack expects a non-empty TensorList")
    return R.cat(tuple(_atleast(t, 3) for t in tensors), 2)


# ---------------------------------------------------------------- differences, fills, shifts


@composite("diff")
def diff(self: Tensor, n: int = 1, dim: int = -1, prepend: Tensor | None = None,
         append: Tensor | None = None) -> Tensor:
    """``n`` rounds of ``x[1:] - x[:-1]`` along ``dim`` (logical xor for bool tensors)."""
    check_int64(n, dim)
    if self.ndim == 0:
        raise ShapeError("diff expects input to be at least one-dimensional")
    if n < 0:
        raise ShapeError(f"order must be non-negative but got {n}")
    d = wrap_dim(dim, self.ndim, "diff")
    parts = [p for p in (prepend, self, append) if p is not None]
    for p in parts:
        if p.ndim != self.ndim:
            raise ShapeError("diff expects prepend or append to be the same dimension as input")
    x = R.cat(tuple(parts), d) if len(parts) > 1 else self
    for _ in range(n):
        length = x.shape[d]
        if length == 0:
            break
        later = R.slice(x, d, 1, length, 1)
        earlier = R.slice(x, d, 0, length - 1, 1)
        x = R.logical_xor(later, earlier) if x.dtype is D.bool_ else R.sub(later, earlier, 1)
    return x


# ---------------------------------------------------------------- gradient (finite differences)


def _gradient(self: Tensor, spacing: Any, dim: Any, edge_order: int) -> tuple[Tensor, ...]:
    """torch.gradient: every overload's spacing (None, a number, numbers or coordinate
    tensors) and dim (None, an int or ints) normalised to one spacing per dim."""
    if self.dtype is D.uint8:
        raise DTypeError("torch.gradient does not support uint8 input.")
    per_dim = isinstance(spacing, (list, tuple))
    if per_dim and dim is None and len(spacing) != self.ndim:
        raise ShapeError("torch.gradient expected spacing to be unspecified, a scalar, or a list "
                         f"of length equal to 'self.dim() = {self.ndim}', since dim argument was "
                         f"not given, but got a list of length {len(spacing)}")
    dims = (tuple(range(self.ndim)) if dim is None
            else (dim,) if isinstance(dim, int) else tuple(dim))
    if per_dim and len(spacing) != len(dims):
        raise ShapeError("torch.gradient expected spacing to be unspecified, a scalar or it's "
                         "spacing and dim arguments to have the same length, but got a spacing "
                         f"argument of length {len(spacing)} and a dim argument of length "
                         f"{len(dims)}.")
    if edge_order not in (1, 2):
        raise InvalidArgumentError("torch.gradient only supports edge_order=1 and "
                                   "edge_order=2.")
    dims = wrap_dims(dims, self.ndim, scalar_ok=False) if dim is not None else dims
    for d in dims:
        if self.shape[d] < edge_order + 1:
            raise ShapeError("torch.gradient expected each dimension size to be at least "
                             "edge_order+1")
    steps = spacing if per_dim else (1 if spacing is None else spacing,) * len(dims)
    return tuple(_coordinate_gradient(self, step, d, edge_order) if isinstance(step, Tensor)
                 else _uniform_gradient(self, step, d, edge_order)
                 for step, d in zip(steps, dims))


def _uniform_gradient(f: Tensor, h: Number | Tensor, d: int, edge_order: int) -> Tensor:
    """Central differences (f[i+1] - f[i-1]) / 2h inside; one-sided ones of ``edge_order``
    at both ends (the same order of operations as PyTorch's, so float32 rounds alike)."""
    def part(start: int, stop: int | None = None) -> Tensor:
        return _slice_of(f, d, start, stop)
    interior = _true_div(_true_div(R.sub(part(2), part(0, -2), 1), h), 2)
    if edge_order == 1:
        first = _true_div(R.sub(part(1, 2), part(0, 1), 1), h)
        last = _true_div(R.sub(part(-1), part(-2, -1), 1), h)
    else:
        first = _true_div(R.sub(R.add(R.mul(part(0, 1), -1.5), R.mul(part(1, 2), 2), 1),
                            R.mul(part(2, 3), 0.5), 1), h)
        last = _true_div(R.add(R.sub(R.mul(part(-3, -2), 0.5), R.mul(part(-2, -1), 2), 1),
                           R.mul(part(-1), 1.5), 1), h)
    return R.cat((first, interior, last), d)


def _coordinate_gradient(f: Tensor, x: Tensor, d: int, edge_order: int) -> Tensor:
    """Second-order differences at the sample coordinates ``x`` (numpy's and PyTorch's
    non-uniform formula: weights of f[i-1], f[i], f[i+1] from the steps on either side)."""
    if x.ndim != 1:
        raise ShapeError("torch.gradient expected each element of spacing to have one "
                         f"dimension, but got an element with {x.ndim} dimensions!")
    shape = [1] * f.ndim
    shape[d] = -1
    dx = R.diff(x, 1, 0, None, None)
    before, after = R.slice(dx, 0, 0, -1, 1), R.slice(dx, 0, 1, None, 1)
    both = R.add(before, after, 1)
    weight_prev = R.neg(_true_div(after, R.mul(before, both)))
    weight_here = _true_div(R.sub(after, before, 1), R.mul(before, after))
    weight_next = _true_div(before, R.mul(after, both))
    interior = R.add(R.add(R.mul(R.reshape(weight_prev, shape), _slice_of(f, d, 0, -2)),
                           R.mul(R.reshape(weight_here, shape), _slice_of(f, d, 1, -1)), 1),
                     R.mul(R.reshape(weight_next, shape), _slice_of(f, d, 2)), 1)
    h0, h1, h_last, h_before_last = (R.select(dx, 0, i) for i in (0, 1, -1, -2))
    if edge_order == 1:
        first = _true_div(R.sub(_slice_of(f, d, 1, 2), _slice_of(f, d, 0, 1), 1), h0)
        last = _true_div(R.sub(_slice_of(f, d, -1), _slice_of(f, d, -2, -1), 1), h_last)
    else:
        first = _weighted((f, d, 0), (
            R.neg(_true_div(R.add(R.mul(h0, 2.0), h1, 1), R.mul(h0, R.add(h0, h1, 1)))),
            _true_div(R.add(h0, h1, 1), R.mul(h0, h1)),
            _true_div(R.neg(h0), R.mul(h1, R.add(h0, h1, 1)))))
        sum_last = R.add(h_last, h_before_last, 1)
        last = _weighted((f, d, -3), (
            _true_div(h_last, R.mul(h_before_last, sum_last)),
            R.neg(_true_div(sum_last, R.mul(h_last, h_before_last))),
            _true_div(R.add(R.mul(h_last, 2), h_before_last, 1), R.mul(h_last, sum_last))))
    return R.cat((first, interior, last), d)


def _weighted(where: tuple[Tensor, int, int], weights: tuple[Tensor, ...]) -> Tensor:
    """sum_k weights[k] * f[start + k] along d (three consecutive one-wide slices)."""
    f, d, start = where
    terms = [R.mul(w, _slice_of(f, d, start + k, start + k + 1 if start + k + 1 != 0 else None))
             for k, w in enumerate(weights)]
    return R.add(R.add(terms[0], terms[1], 1), terms[2], 1)


def _true_div(a: Tensor, b: Tensor | Number) -> Tensor:
    return R.div(a, b, None)


def _slice_of(f: Tensor, d: int, start: int, stop: int | None = None) -> Tensor:
    return R.slice(f, d, start, stop, 1)


@composite("gradient.scalarint")
def gradient_scalarint(self: Tensor, spacing: Number | None = None, dim: int | None = None,
                       edge_order: int = 1) -> tuple[Tensor, ...]:
    return _gradient(self, spacing, dim, edge_order)


@composite("gradient.scalararray")
def gradient_scalararray(self: Tensor, spacing: Number, dim: Sequence[int],
                         edge_order: int = 1) -> tuple[Tensor, ...]:
    return _gradient(self, spacing, dim, edge_order)


@composite("gradient.array")
def gradient_array(self: Tensor, dim: Sequence[int], edge_order: int = 1
                   ) -> tuple[Tensor, ...]:
    return _gradient(self, None, dim, edge_order)


@composite("gradient.scalarrayint")
def gradient_scalarrayint(self: Tensor, spacing: Sequence[Number], dim: int | None = None,
                          edge_order: int = 1) -> tuple[Tensor, ...]:
    return _gradient(self, tuple(spacing), dim, edge_order)


@composite("gradient.scalarrayarray")
def gradient_scalarrayarray(self: Tensor, spacing: Sequence[Number], dim: Sequence[int],
                            edge_order: int = 1) -> tuple[Tensor, ...]:
    return _gradient(self, tuple(spacing), dim, edge_order)


@composite("gradient.tensorarrayint")
def gradient_tensorarrayint(self: Tensor, spacing: Sequence[Tensor], dim: int | None = None,
                            edge_order: int = 1) -> tuple[Tensor, ...]:
    return _gradient(self, tuple(spacing), dim, edge_order)


@composite("gradient.tensorarray")
def gradient_tensorarray(self: Tensor, spacing: Sequence[Tensor], dim: Sequence[int],
                         edge_order: int = 1) -> tuple[Tensor, ...]:
    return _gradient(self, tuple(spacing), dim, edge_order)


@composite("fill.Scalar")
def fill_scalar(self: Tensor, value: Number) -> Tensor:
    """A tensor shaped like ``self``, full of ``value`` (a zero gradient flows to ``self``)."""
    return R.masked_fill(self, _everywhere(self), value)


@composite("fill.Tensor")
def fill_tensor(self: Tensor, value: Tensor) -> Tensor:
    """A tensor shaped like ``self``, full of the 0-d ``value`` (differentiable in ``value``)."""
    if value.ndim != 0:
        raise ShapeError(f"fill only supports 0-dimension value tensor but got tensor with "
                         f"{value.ndim} dimensions.")
    return R.masked_fill_Tensor(self, _everywhere(self), value)


def _everywhere(self: Tensor) -> Tensor:
    return fac.ones((), dtype=D.bool_, device=self.device)


def _shift(self: Tensor, dim: Sequence[int] | None, inverse: bool) -> Tensor:
    # PyTorch's fftshift is roll(x, shifts, dims): a repeated dim rolls again, and no dims at
    # all (an empty list, or a 0-d tensor) is roll's missing shifts
    ndim = self.ndim
    dims = tuple(range(ndim)) if dim is None else tuple(wrap_dim(d, ndim, "fftshift") for d in dim)
    if not dims:
        raise InvalidArgumentError("`shifts` required")
    shifts = tuple(-(self.shape[d] // 2) if inverse else self.shape[d] // 2 for d in dims)
    return R.roll(self, shifts, dims)


@composite("fftshift")
def fftshift(self: Tensor, dim: Sequence[int] | None = None) -> Tensor:
    """Roll each dim by half its size."""
    return _shift(self, dim, False)


@composite("ifftshift")
def ifftshift(self: Tensor, dim: Sequence[int] | None = None) -> Tensor:
    """Roll each dim back by half its size (undoing fftshift for odd sizes too)."""
    return _shift(self, dim, True)


# ---------------------------------------------------------------- batch norm under its aten names


@composite("_native_batch_norm_legit")
def _native_batch_norm_legit(input: Tensor, weight: Tensor | None, bias: Tensor | None,
                             running_mean: Tensor, running_var: Tensor, training: bool,
                             momentum: float, eps: float) -> tuple[Tensor, Tensor, Tensor]:
    """native_batch_norm with running statistics."""
    return R.native_batch_norm(input, weight, bias, running_mean, running_var, training,
                               momentum, eps)


@composite("_native_batch_norm_legit.no_stats")
def _native_batch_norm_legit_no_stats(input: Tensor, weight: Tensor | None,
                                      bias: Tensor | None, training: bool, momentum: float,
                                      eps: float) -> tuple[Tensor, Tensor, Tensor]:
    """native_batch_norm without running statistics."""
    return R.native_batch_norm(input, weight, bias, None, None, training, momentum, eps)


@composite("_batch_norm_with_update")
def _batch_norm_with_update(input: Tensor, weight: Tensor | None, bias: Tensor | None,
                            running_mean: Tensor, running_var: Tensor, momentum: float,
                            eps: float) -> tuple[Tensor, Tensor, Tensor, Tensor]:
    """Training-mode native_batch_norm plus PyTorch's (here empty) reserve buffer."""
    out, mean, invstd = R.native_batch_norm(input, weight, bias, running_mean, running_var,
                                            True, momentum, eps)
    return out, mean, invstd, fac.zeros((0,), dtype=D.uint8, device=input.device)


# ---------------------------------------------------------------- indexing


@composite("take")
def take(self: Tensor, index: Tensor) -> Tensor:
    """``self.flatten()[index]``, shaped like ``index``."""
    check_index_dtype("take", index)
    flat = R.reshape(self, (-1,))
    return R.reshape(R.index_Tensor(flat, (R.reshape(index, (-1,)),)), _shape(index))


@composite("put")
def put(self: Tensor, index: Tensor, source: Tensor, accumulate: bool = False) -> Tensor:
    """A copy of ``self`` with ``source`` put (or added) at the flat positions ``index``."""
    check_index_dtype("put", index)
    if index.numel() != source.numel():
        raise ShapeError(f"put_(): Expected source and index to have the same number of "
                         f"elements, but got source.numel() = {source.numel()}, "
                         f"index.numel() = {index.numel()}")
    if self.dtype is not source.dtype:
        raise DTypeError(f"put_(): self and source expected to have the same dtype, but got "
                         f"self.dtype = {self.dtype.name} and source.dtype = {source.dtype.name}")
    flat = R.reshape(self, (-1,))
    if self.numel() == 0 and index.numel():
        raise IndexOutOfRangeError("put_(): Tried to put elements into an empty tensor")
    out = R.index_put(flat, (R.reshape(index, (-1,)),), R.reshape(source, (-1,)), accumulate)
    return R.reshape(out, _shape(self))


def _along(index: Tensor, d: int, ndim: int) -> tuple[Tensor | None, ...]:
    """An advanced index selecting ``index`` along dim ``d`` and everything elsewhere."""
    return (None,) * d + (index,) if ndim else (index,)


def _check_index_along(self: Tensor, dim: int, index: Tensor, op: str) -> int:
    check_index_dtype(op, index)
    if index.ndim > 1:
        raise ShapeError(f"{op}(): Index is supposed to be a vector")
    return wrap_dim(dim, self.ndim, op)


@composite("index_copy")
def index_copy(self: Tensor, dim: int, index: Tensor, source: Tensor) -> Tensor:
    """A copy of ``self`` with ``source``'s slices along ``dim`` written at ``index``."""
    d = _check_index_along(self, dim, index, "index_copy")
    if self.dtype is not source.dtype:
        raise DTypeError(f"index_copy_(): self and source expected to have the same dtype, but "
                         f"got (self) {self.dtype.name} and (source) {source.dtype.name}")
    if self.ndim == 0:
        return R.index_put(self.reshape(1), (R.reshape(index, (-1,)),),
                           R.reshape(source, (-1,)), False).reshape(())
    source = source if source.ndim else R.reshape(source, (1,))
    return R.index_put(self, _along(R.reshape(index, (-1,)), d, self.ndim), source, False)


@composite("index_select_backward")
def index_select_backward(grad_output: Tensor, self_sizes: Sequence[int], dim: int,
                          index: Tensor) -> Tensor:
    """index_select's gradient: ``grad_output``'s slices added into zeros at ``index``."""
    zeros = fac.zeros(tuple(self_sizes), dtype=grad_output.dtype, device=grad_output.device)
    return R.index_add(zeros, dim, index, grad_output, 1)


@composite("gather_backward")
def gather_backward(grad_output: Tensor, self_sizes: Sequence[int], dim: int,
                    index: Tensor) -> Tensor:
    """gather's gradient: ``grad_output`` added into zeros where ``index`` points (a negative
    index wraps, as the CPU kernel's does; scatter_add takes none)."""
    zeros = fac.zeros(tuple(self_sizes), dtype=grad_output.dtype, device=grad_output.device)
    if self_sizes and index.numel():
        size = self_sizes[wrap_dim(dim, len(self_sizes), "gather_backward")]
        index = R.where_self(R.lt(index, 0), R.add(index, size, 1), index)
    return R.scatter_add(zeros, dim, index, grad_output)


_SCATTER_REDUCTIONS = {"add": "sum", "multiply": "prod"}


@composite("scatter.reduce")
def scatter_reduce_src(self: Tensor, dim: int, index: Tensor, src: Tensor, reduce: str) -> Tensor:
    """scatter_reduce with self included, under scatter's names for the reductions."""
    if reduce not in _SCATTER_REDUCTIONS:
        raise SchemaError("reduce argument must be either add or multiply.")
    return R.scatter_reduce_two(self, dim, index, src, _SCATTER_REDUCTIONS[reduce], True)


@composite("scatter.value_reduce")
def scatter_reduce_value(self: Tensor, dim: int, index: Tensor, value: Number,
                         reduce: str) -> Tensor:
    """scatter.reduce of ``value`` at every index."""
    src = fac.full(_shape(index), value, dtype=self.dtype, device=self.device)
    return scatter_reduce_src(self, dim, index, src, reduce)


@composite("index_reduce")
def index_reduce(self: Tensor, dim: int, index: Tensor, source: Tensor, reduce: str,
                 include_self: bool = True) -> Tensor:
    """scatter_reduce of ``source``'s slices along ``dim`` into the rows ``index``."""
    if reduce not in ("prod", "mean", "amax", "amin"):
        raise SchemaError(f"index_reduce(): Expected reduce to be one of prod, mean, amax or "
                          f"amin but got {reduce}.")
    d = _check_index_along(self, dim, index, "index_reduce")
    if self.ndim == 0:
        return R.scatter_reduce_two(self.reshape(1), 0, R.reshape(index, (-1,)),
                                    R.reshape(source, (-1,)), reduce, include_self).reshape(())
    shape = [1] * source.ndim
    shape[d] = index.numel()
    spread = R.expand(R.reshape(index, tuple(shape)), _shape(source))
    return R.scatter_reduce_two(self, d, spread, source, reduce, include_self)


def _repeat_along(self: Tensor, repeats: Tensor, dim: int | None,
                  output_size: int | None) -> Tensor:
    if dim is None:
        self = R.reshape(self, (-1,))
        dim = 0
    d = wrap_dim(dim, self.ndim, "repeat_interleave")
    size = self.shape[d] if self.ndim else 1
    if repeats.ndim == 0 or repeats.numel() == 1:
        repeats = R.expand(R.reshape(repeats, (1,)), (size,))
    elif repeats.numel() != size:
        raise ShapeError("repeats must have the same size as input along dim")
    picks = R.repeat_interleave_Tensor(repeats, output_size)
    return R.index_select(self if self.ndim else R.reshape(self, (1,)), d, picks)


@composite("repeat_interleave.self_Tensor")
def repeat_interleave_self_tensor(self: Tensor, repeats: Tensor, dim: int | None = None,
                                  output_size: int | None = None) -> Tensor:
    """Slice ``i`` along ``dim`` (element ``i`` of the flattened ``self``) ``repeats[i]`` times."""
    if repeats.ndim > 1:
        raise ShapeError("repeat_interleave only accept 1D vector as repeat")
    return _repeat_along(self, repeats, dim, output_size)


@composite("repeat_interleave.self_int")
def repeat_interleave_self_int(self: Tensor, repeats: int, dim: int | None = None,
                               output_size: int | None = None) -> Tensor:
    """Each slice along ``dim`` (each element, without ``dim``) ``repeats`` times."""
    if repeats < 0:
        raise ShapeError("repeats can not be negative")
    counts = fac.scalar_tensor(repeats, dtype=D.int64, device=self.device)
    return _repeat_along(self, counts, dim, output_size)


@composite("argwhere")
def argwhere(self: Tensor) -> Tensor:
    """nonzero's indices, one row per element."""
    return R.nonzero(self)


@composite("nonzero_static")
def nonzero_static(self: Tensor, size: int, fill_value: int = -1) -> Tensor:
    """Exactly ``size`` rows of nonzero's indices: cut off, or padded with ``fill_value``."""
    if size < 0:
        raise ShapeError(f"nonzero_static: 'size' must be an non-negative integer, but got "
                         f"{size}")
    found = R.nonzero(self)
    rows = found.shape[0]
    if rows >= size:
        return R.slice(found, 0, 0, size, 1).clone()
    filler = fac.full((size - rows, self.ndim), fill_value, dtype=D.int64, device=self.device)
    return R.cat((found, filler), 0)


@composite("unravel_index")
def unravel_index(indices: Tensor, shape: Sequence[int]) -> tuple[Tensor, ...]:
    """The coordinates of each flat index in a tensor of ``shape`` (row-major)."""
    if indices.dtype.is_floating_point or indices.dtype is D.bool_:
        raise DTypeError(f"expected 'indices' to be integer dtype, but got {indices.dtype.name}")
    if any(s < 0 for s in shape):
        raise ShapeError("'shape' cannot have negative values, but got "
                         f"{tuple(shape)}")
    if 0 in shape:
        raise InvalidArgumentError(f"unravel_index: 'shape' {tuple(shape)} has no elements")
    # no bounds check: as in PyTorch, an index outside wraps (each coordinate modulo its size)
    flat = indices.to(D.int64)
    coords = []
    for s in reversed(list(shape)):
        coords.append(R.remainder(flat, s))
        flat = R.floor_divide(flat, s)
    return tuple(reversed(coords))


def _clamped(indices: Sequence[Tensor | None], shape: Sequence[int]) -> tuple[Any, ...]:
    """Indices clamped into their dims, so masked-off entries may hold anything."""
    return tuple(None if i is None else R.clamp(i, -size, size - 1)
                 for i, size in zip(indices, shape))


@composite("_unsafe_masked_index")
def _unsafe_masked_index(self: Tensor, mask: Tensor, indices: Sequence[Tensor | None],
                         fill: Number) -> Tensor:
    """``self[indices]`` where ``mask``, ``fill`` elsewhere."""
    picked = R.index_Tensor(self, _clamped(indices, _shape(self)))
    return R.where_self(mask, picked, fac.scalar_tensor(fill, dtype=self.dtype,
                                                        device=self.device))


@composite("_unsafe_masked_index_put_accumulate")
def _unsafe_masked_index_put_accumulate(self: Tensor, mask: Tensor,
                                        indices: Sequence[Tensor | None],
                                        values: Tensor) -> Tensor:
    """``values`` added at ``indices`` where ``mask``."""
    kept = R.where_self(mask, values, fac.zeros((), dtype=values.dtype, device=values.device))
    return R.index_put(self, _clamped(indices, _shape(self)), kept, True)
