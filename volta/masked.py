"""``volta.masked``: PyTorch's masked reductions and normalizations (``torch.masked``).

Each takes a boolean ``mask`` broadcastable to the input (None: every element counts) and
computes the plain op on the input with its masked-out elements replaced by the op's identity
(0 for sums, 1 for products, -inf for maxima, ...), so masked-out elements never change the
result and get zero gradient. Everything is built from volta ops: it runs on every backend.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

import volta
from volta.errors import DTypeError, IndexOutOfRangeError, ShapeError

__all__ = ["amax", "amin", "argmax", "argmin", "cumprod", "cumsum", "log_softmax",
           "logaddexp", "logsumexp", "mean", "median", "norm", "normalize", "prod", "softmax",
           "softmin", "std", "sum", "var"]

Dims = int | Sequence[int] | None
_PROMOTED_TO_INT64 = ("uint8", "bool", "int8", "int16", "int32")


def _input_mask(input: volta.Tensor, mask: volta.Tensor) -> volta.Tensor:
    """``mask`` as a boolean tensor of ``input``'s shape."""
    if tuple(mask.shape) != tuple(input.shape):
        if mask.ndim > input.ndim:
            raise ShapeError("_input_mask expected broadcastable mask (got mask dimensionality "
                             "higher than of the input)")
        mask = mask.broadcast_to(tuple(input.shape))
    return mask.to(volta.bool)


def _identity(op: str, input: volta.Tensor, ord: float = 2.0) -> float | int | bool:
    """The value that leaves reduction ``op`` unchanged, for ``input``'s dtype."""
    floating = input.dtype.is_floating_point
    if op in ("sum", "norm") and not (op == "norm" and ord == -math.inf):
        return 0
    if op == "prod":
        return 1
    if op == "norm" or op == "min":
        return math.inf if floating else volta.iinfo(input.dtype).max
    if op == "median":
        return math.nan
    # max, logsumexp, logaddexp
    return -math.inf if floating else volta.iinfo(input.dtype).min


def _combine(op: str, input: volta.Tensor, mask: volta.Tensor | None,
             ord: float = 2.0) -> volta.Tensor:
    """``input`` with its masked-out elements replaced by the identity of ``op``."""
    if mask is None:
        return input
    return volta.where(_input_mask(input, mask), input, _identity(op, input, ord))


def _dims(dim: Dims, ndim: int) -> tuple[int, ...]:
    """``dim`` as a sorted tuple of non-negative dims (all of them for None or ())."""
    if dim is None or dim == ():
        return tuple(range(ndim))
    dims: list[int] = []
    size = max(ndim, 1)
    for d in (dim,) if isinstance(dim, int) else dim:
        if not -size <= d < size:
            raise IndexOutOfRangeError(f"Dimension out of range (expected to be in range of "
                                       f"[{-size}, {size - 1}], but got {d})")
        if d % size in dims:
            raise ShapeError(f"dim={d} appears multiple times in the list of dims")
        dims.append(d % size)
    return tuple(sorted(dims))


def _sum_dtype(input: volta.Tensor, dtype: Any) -> Any:
    if dtype is not None:
        return dtype
    return volta.int64 if input.dtype.name in _PROMOTED_TO_INT64 else input.dtype


# -- reductions --------------------------------------------------------------------------------


def sum(input: volta.Tensor, dim: Dims = None, *, keepdim: bool = False, dtype: Any = None,
        mask: volta.Tensor | None = None) -> volta.Tensor:
    """The sum of the unmasked elements over ``dim`` (all dims when None)."""
    masked = _combine("sum", input, mask)
    return volta.sum(masked, _dims(dim, input.ndim), keepdim, dtype=_sum_dtype(input, dtype))


def prod(input: volta.Tensor, dim: Dims = None, *, keepdim: bool = False, dtype: Any = None,
         mask: volta.Tensor | None = None) -> volta.Tensor:
    """The product of the unmasked elements over ``dim`` (all dims when None)."""
    result = _combine("prod", input, mask).to(_sum_dtype(input, dtype))
    for d in reversed(_dims(dim, input.ndim)):
        result = result.prod(d, keepdim)
    return result


def cumsum(input: volta.Tensor, dim: int, *, dtype: Any = None,
           mask: volta.Tensor | None = None) -> volta.Tensor:
    """The running sum along ``dim``, masked-out elements counting as 0."""
    return volta.cumsum(_combine("sum", input, mask), _dims(dim, input.ndim)[0], dtype=dtype)


def cumprod(input: volta.Tensor, dim: int, *, dtype: Any = None,
            mask: volta.Tensor | None = None) -> volta.Tensor:
    """The running product along ``dim``, masked-out elements counting as 1."""
    return volta.cumprod(_combine("prod", input, mask), _dims(dim, input.ndim)[0], dtype=dtype)


def _extreme(op: str, input: volta.Tensor, dim: Dims, keepdim: bool, dtype: Any,
             mask: volta.Tensor | None) -> volta.Tensor:
    masked = _combine(op, input, mask)
    reduce = volta.amax if op == "max" else volta.amin
    return reduce(masked, _dims(dim, input.ndim), keepdim).to(dtype or input.dtype)


def amax(input: volta.Tensor, dim: Dims = None, *, keepdim: bool = False, dtype: Any = None,
         mask: volta.Tensor | None = None) -> volta.Tensor:
    """The maximum of the unmasked elements (-inf where all are masked out)."""
    return _extreme("max", input, dim, keepdim, dtype, mask)


def amin(input: volta.Tensor, dim: Dims = None, *, keepdim: bool = False, dtype: Any = None,
         mask: volta.Tensor | None = None) -> volta.Tensor:
    """The minimum of the unmasked elements (inf where all are masked out)."""
    return _extreme("min", input, dim, keepdim, dtype, mask)


def argmax(input: volta.Tensor, dim: int | None = None, *, keepdim: bool = False,
           dtype: Any = None, mask: volta.Tensor | None = None) -> volta.Tensor:
    """The index of the maximum unmasked element, in ``dtype`` (input's by default)."""
    masked = _combine("max", input, mask)
    return volta.argmax(masked, dim, keepdim).to(dtype or input.dtype)


def argmin(input: volta.Tensor, dim: int | None = None, *, keepdim: bool = False,
           dtype: Any = None, mask: volta.Tensor | None = None) -> volta.Tensor:
    """The index of the minimum unmasked element, in ``dtype`` (input's by default)."""
    masked = _combine("min", input, mask)
    return volta.argmin(masked, dim, keepdim).to(dtype or input.dtype)


def _count(input: volta.Tensor, dim: Dims, keepdim: bool,
           mask: volta.Tensor | None) -> volta.Tensor:
    """How many elements are unmasked, over ``dim``."""
    inmask = (volta.ones_like(input, dtype=volta.bool) if mask is None
              else _input_mask(input, mask))
    return sum(inmask, dim, keepdim=keepdim)


def mean(input: volta.Tensor, dim: Dims = None, *, keepdim: bool = False, dtype: Any = None,
         mask: volta.Tensor | None = None) -> volta.Tensor:
    """The mean of the unmasked elements (nan where all are masked out)."""
    out = dtype or input.dtype
    if not out.is_floating_point:
        raise DTypeError(f"mean(): Could not infer output dtype. Input dtype must be either a "
                         f"floating point or complex dtype. Got: {out}")
    total = sum(input, dim, keepdim=keepdim, dtype=out, mask=mask)
    return total / _count(input, dim, keepdim, mask)


def median(input: volta.Tensor, dim: int = -1, *, keepdim: bool = False, dtype: Any = None,
           mask: volta.Tensor | None = None) -> volta.Tensor:
    """The lower median of the unmasked elements along ``dim`` (nan where all are masked)."""
    floating = input.dtype.is_floating_point
    values = input if floating else input.to(volta.float32)
    masked = _combine("median", values, mask)
    output = volta.nanmedian(masked, _dims(dim, input.ndim)[0], keepdim)[0]
    if floating:
        return output
    if bool(volta.isnan(output).any()):
        raise ShapeError("masked median expects no fully masked out rows if dtype is not "
                         "floating point")
    return output.to(dtype or input.dtype)


def norm(input: volta.Tensor, ord: float = 2.0, dim: Dims = None, *, keepdim: bool = False,
         dtype: Any = None, mask: volta.Tensor | None = None) -> volta.Tensor:
    """The vector ``ord``-norm of the unmasked elements over ``dim``."""
    masked = _combine("norm", input, mask, ord)
    return volta.linalg.vector_norm(masked, ord, _dims(dim, input.ndim), keepdim,
                                    dtype=dtype or input.dtype)


def logsumexp(input: volta.Tensor, dim: Dims = None, *, keepdim: bool = False,
              dtype: Any = None, mask: volta.Tensor | None = None) -> volta.Tensor:
    """log(sum(exp(x))) of the unmasked elements (-inf where all are masked out)."""
    masked = _combine("max", input, mask)
    return volta.logsumexp(masked, _dims(dim, input.ndim), keepdim).to(dtype or input.dtype)


def _var(input: volta.Tensor, dim: Dims, unbiased: bool | None, correction: float | None,
         keepdim: bool, dtype: Any, mask: volta.Tensor | None) -> volta.Tensor:
    """Sum of squared deviations from the masked mean over (count - correction), at least 0."""
    if unbiased is not None and correction is not None:
        raise ShapeError("Only one of unbiased and correction may be given")
    offset = 1.0 if unbiased is None else (1.0 if unbiased else 0.0)
    if correction is not None:
        offset = float(correction)
    out = dtype or (input.dtype if input.dtype.is_floating_point else volta.float32)
    count = _count(input, dim, True, mask)
    sample_mean = sum(input, dim, keepdim=True, dtype=out, mask=mask) / count
    deviation = input - sample_mean
    total = sum(deviation * deviation, dim, keepdim=keepdim, dtype=out, mask=mask)
    count = count.reshape(tuple(total.shape))
    if offset != 0:
        count = volta.clamp(count.to(out) - offset, 0, None)
    return (total / count).to(out)


def var(input: volta.Tensor, dim: Dims = None, unbiased: bool | None = None, *,
        correction: float | None = None, keepdim: bool = False, dtype: Any = None,
        mask: volta.Tensor | None = None) -> volta.Tensor:
    """The variance of the unmasked elements (Bessel-corrected unless told otherwise)."""
    return _var(input, dim, unbiased, correction, keepdim, dtype, mask)


def std(input: volta.Tensor, dim: Dims = None, unbiased: bool | None = None, *,
        correction: float | None = None, keepdim: bool = False, dtype: Any = None,
        mask: volta.Tensor | None = None) -> volta.Tensor:
    """The standard deviation of the unmasked elements."""
    return volta.sqrt(_var(input, dim, unbiased, correction, keepdim, dtype, mask))


# -- normalizations ----------------------------------------------------------------------------


def softmax(input: volta.Tensor, dim: int, *, dtype: Any = None,
            mask: volta.Tensor | None = None) -> volta.Tensor:
    """softmax over ``dim`` of the unmasked elements (masked-out ones get 0)."""
    masked = _combine("max", input, mask)
    return volta.softmax(masked, _dims(dim, input.ndim)[0], dtype=dtype or input.dtype)


def log_softmax(input: volta.Tensor, dim: int, *, dtype: Any = None,
                mask: volta.Tensor | None = None) -> volta.Tensor:
    """log_softmax over ``dim`` of the unmasked elements (masked-out ones get -inf)."""
    masked = _combine("max", input, mask)
    return volta.log_softmax(masked, _dims(dim, input.ndim)[0], dtype=dtype or input.dtype)


def softmin(input: volta.Tensor, dim: int, *, dtype: Any = None,
            mask: volta.Tensor | None = None) -> volta.Tensor:
    """softmin over ``dim`` of the unmasked elements (masked-out ones get 0)."""
    masked = _combine("min", input, mask)
    return volta.nn.functional.softmin(masked, _dims(dim, input.ndim)[0],
                                       dtype=dtype or input.dtype)


def normalize(input: volta.Tensor, ord: float, dim: int, *, eps: float = 1e-12,
              dtype: Any = None, mask: volta.Tensor | None = None) -> volta.Tensor:
    """The unmasked elements divided by their ``ord``-norm over ``dim`` (at least ``eps``)."""
    masked = _combine("sum", input, mask)
    norms = norm(input, ord, dim, keepdim=True, dtype=dtype, mask=mask)
    return masked / volta.clamp(norms, eps, None)


def logaddexp(input: volta.Tensor, other: volta.Tensor, *, dtype: Any = None,
              input_mask: volta.Tensor | None = None,
              other_mask: volta.Tensor | None = None) -> volta.Tensor:
    """logaddexp of the two inputs, each masked-out element counting as -inf."""
    masked_input = _combine("max", input, input_mask)
    masked_other = _combine("max", other, other_mask)
    return volta.logaddexp(masked_input, masked_other).to(dtype or input.dtype)
