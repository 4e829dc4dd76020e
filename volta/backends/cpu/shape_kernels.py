"""numpy kernels of the shape and indexing ops that are not composites: scatter_reduce (forward
and backward), index_fill and the index list of repeat_interleave.

Each kernel takes the op's arguments in schema order and returns volta tensors, as in
``kernels.py`` (whose scatter helpers check the index the same way for every scatter op).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from volta import dtypes as D
from volta.backends.cpu.kernel_table import kernel_table
from volta.backends.cpu.kernels import (
    _check_bounds,
    _check_src_dtype,
    _index_array,
    _scatter_positions,
    _src_region,
)
from volta.backends.cpu.storage import array as A
from volta.backends.cpu.storage import wrap as W
from volta.composites.views import wrap_dim
from volta.errors import DTypeError, ShapeError
from volta.tensor.checks import check_scatter_reduce
from volta.tensor.scalars import check_scalar
from volta.tensor.tensor import Tensor

KERNELS, kernel = kernel_table()


# -- scatter_reduce ----------------------------------------------------------------------------

_REDUCTIONS = {"sum": np.add, "mean": np.add, "prod": np.multiply, "amax": np.maximum,
               "amin": np.minimum}


def _identity(reduce: str, dtype: np.dtype) -> Any:
    """The value a reduction starts from where ``self`` is left out."""
    if reduce in ("sum", "mean"):
        return 0
    if reduce == "prod":
        return 1
    big = np.inf if dtype.kind == "f" else (True if dtype.kind == "b" else np.iinfo(dtype).max)
    small = -np.inf if dtype.kind == "f" else (False if dtype.kind == "b"
                                                else np.iinfo(dtype).min)
    return small if reduce == "amax" else big


def _scattered_mask(shape: tuple[int, ...], pos: tuple[np.ndarray, ...]) -> np.ndarray:
    """True where at least one element of ``src`` lands."""
    mask = np.zeros(shape, dtype=bool)
    mask[pos] = True
    return mask


def _counts(shape: tuple[int, ...], pos: tuple[np.ndarray, ...], include_self: bool
            ) -> np.ndarray:
    """How many values each output position reduces (self counts where it takes part)."""
    counts = np.ones(shape, dtype=np.int64)
    if not include_self:
        counts[pos] = 0
    np.add.at(counts, pos, 1)
    return counts


@kernel("scatter_reduce.two")
def scatter_reduce(self: Tensor, dim: int, index: Tensor, src: Tensor, reduce: str,
                   include_self: bool = True) -> Tensor:
    check_scatter_reduce(reduce)
    _check_src_dtype(self, src)
    pos, _ = _scatter_positions(self, dim, index, "scatter_reduce")
    shape = self._shape or (1,)
    out = A(self).reshape(shape).copy()
    if not include_self:
        out[pos] = _identity(reduce, out.dtype)
    _REDUCTIONS[reduce].at(out, pos, _src_region(src, index))
    if reduce == "mean":
        counts = _counts(shape, pos, include_self)
        if out.dtype.kind == "f":
            out /= counts.astype(out.dtype)
        else:
            out //= counts.astype(out.dtype)
    return W(out.reshape(self._shape))


def _prod_others(shape: tuple[int, ...], self_part: np.ndarray, src_part: np.ndarray,
                 pos: tuple[np.ndarray, ...]) -> tuple[np.ndarray, np.ndarray]:
    """For each contributor of a product, the product of the other contributors of its position
    (``self_part`` holds 1 where self does not take part): exact with zeros, no division by 0."""
    zeros = (self_part == 0).astype(np.int64)
    np.add.at(zeros, pos, (src_part == 0).astype(np.int64))
    nonzero_prod = np.where(self_part == 0, 1, self_part)
    np.multiply.at(nonzero_prod, pos, np.where(src_part == 0, 1, src_part))

    def others(values: np.ndarray, z: np.ndarray, p: np.ndarray) -> np.ndarray:
        safe = np.where(values == 0, 1, values)
        return np.where(values == 0, np.where(z == 1, p, 0), np.where(z == 0, p / safe, 0))

    return (others(self_part, zeros, nonzero_prod),
            others(src_part, zeros[pos], nonzero_prod[pos]))


@kernel("scatter_reduce_backward")
def scatter_reduce_backward(grad: Tensor, self: Tensor, dim: int, index: Tensor, src: Tensor,
                            reduce: str, include_self: bool, result: Tensor
                            ) -> tuple[Tensor, Tensor]:
    pos, _ = _scatter_positions(self, dim, index, "scatter_reduce")
    shape = self._shape or (1,)
    g = A(grad).reshape(shape)
    x = A(self).reshape(shape)
    s = _src_region(src, index)
    takes_part = np.ones(shape, dtype=bool) if include_self else ~_scattered_mask(shape, pos)
    if reduce == "sum":
        grad_self, grad_src = g * takes_part, g[pos]
    elif reduce == "mean":
        spread = g / _counts(shape, pos, include_self)
        grad_self, grad_src = spread * takes_part, spread[pos]
    elif reduce == "prod":
        self_others, src_others = _prod_others(shape, np.where(takes_part, x, 1), s, pos)
        grad_self, grad_src = g * self_others * takes_part, g[pos] * src_others
    else:  # amax / amin: the gradient is shared evenly by the values equal to the result
        value = A(result).reshape(shape)
        self_hits = (x == value) & takes_part
        src_hits = s == value[pos]
        ties = self_hits.astype(g.dtype)
        np.add.at(ties, pos, src_hits.astype(g.dtype))
        spread = g / np.where(ties == 0, 1, ties)
        grad_self, grad_src = spread * self_hits, spread[pos] * src_hits
    full_src = np.zeros(src._shape or (1,), dtype=g.dtype)
    full_src[tuple(slice(0, n) for n in (index._shape or (1,)))] = grad_src
    return (W(np.ascontiguousarray(grad_self, dtype=g.dtype).reshape(self._shape)),
            W(full_src.reshape(src._shape)))


# -- repeat_interleave ---------------------------------------------------------------------------


@kernel("repeat_interleave.Tensor")
def repeat_interleave(repeats: Tensor, output_size: int | None = None) -> Tensor:
    if repeats.dtype not in (D.int64, D.int32):
        raise DTypeError(f"repeat_interleave: repeats has to be Long or Int tensor, got "
                         f"{repeats.dtype.name}")
    counts = A(repeats).astype(np.int64, copy=False)
    if counts.ndim > 1:
        raise ShapeError("repeat_interleave only accept 1D vector as repeat")
    counts = counts.reshape(-1)
    if counts.size and counts.min() < 0:
        raise ShapeError("repeats can not be negative")
    picks = np.repeat(np.arange(counts.size, dtype=np.int64), counts)
    if output_size is not None and picks.size != output_size:
        raise ShapeError(f"allocated size does not match required size: output_size "
                         f"{output_size}, required {picks.size}")
    return W(picks)


# -- index_fill ------------------------------------------------------------------------------


def _index_fill(self: Tensor, dim: int, index: Tensor, value: Any) -> Tensor:
    idx = _index_array(index, "index_fill")
    if idx.ndim > 1:
        raise ShapeError("index_fill_(): Index is supposed to be a vector")
    out = A(self).copy()
    view = out.reshape(out.shape or (1,))
    d = wrap_dim(dim, view.ndim, "index_fill")
    idx = _check_bounds(idx.reshape(-1), view.shape[d], d, "index_fill")
    np.moveaxis(view, d, 0)[idx] = value
    return W(out)


@kernel("index_fill.int_Scalar")
def index_fill_scalar(self: Tensor, dim: int, index: Tensor, value: Any) -> Tensor:
    return _index_fill(self, dim, index, check_scalar(value, "index_fill_"))


@kernel("index_fill.int_Tensor")
def index_fill_tensor(self: Tensor, dim: int, index: Tensor, value: Tensor) -> Tensor:
    if value.ndim != 0:
        raise ShapeError(f"index_fill_ only supports a 0-dimensional value tensor, but got "
                         f"tensor with {value.ndim} dimension(s).")
    return _index_fill(self, dim, index, A(value).item())
