"""Hand-written numpy kernels for the ops that are neither pointwise snippets nor composites.

Each kernel takes the op's arguments in schema order (tensors as volta tensors) and returns
volta tensors. ``A`` turns a tensor into its zero-copy numpy view; ``W`` wraps an array.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Sequence
from typing import Any

import numpy as np

from volta import dtypes as D
from volta.backend import host_view
from volta.backends.cpu import (
    elementwise,
    gemm,
    parallel,
    pointwise_math,
    rowwise,
    scatter,
    strided_copy,
)
from volta.backends.cpu import numpy_nn as nn
from volta.backends.cpu.kernel_table import kernel_table
from volta.backends.cpu.pointwise_runtime import quiet_off, quiet_on
from volta.backends.cpu.storage import array as A
from volta.backends.cpu.storage import wrap as W
from volta.backends.cpu.storage import wrap_as as WA
from volta.composites.nn import linear as _linear_composite
from volta.composites.nn import mse_loss as _mse_loss_composite
from volta.composites.views import wrap_dim, wrap_dims
from volta.errors import DTypeError, IndexOutOfRangeError, SchemaError, ShapeError, VoltaError
from volta.memory_format import contiguous_format, format_strides, preserve_format
from volta.tensor.checks import (
    check_arg_reduction_dtype,
    check_bincount_input,
    check_bmm,
    check_conv,
    check_index_add,
    check_index_dtype,
    check_logsumexp_all_dims,
    check_masked_scatter_dtypes,
    check_mm,
    check_multinomial,
    check_native_batch_norm,
    check_native_layer_norm,
    check_one_hot_classes,
    check_reduction_nonempty,
    check_scan_dtype,
    check_searchsorted_dtype,
    check_searchsorted_sorter,
    check_selection_dtype,
    check_topk_dtype,
    check_vector_norm_dtypes,
    clamp_operands,
    einsum_subscripts,
    empty_median_value,
    norm_stats_dtype,
    searchsorted_side,
)
from volta.tensor.factories import empty_strided
from volta.tensor.inplace import broadcast_shapes, check_no_internal_overlap
from volta.tensor.padding import check_pad_width, pad_pairs, pad_source_index
from volta.tensor.scalars import check_scalar, checked_convert
from volta.tensor.tensor import Tensor, contiguous_strides

KERNELS, kernel = kernel_table()
_HALF = (D.float16, D.bfloat16)


def _compute(dt: D.dtype) -> np.dtype:
    """numpy dtype to compute in: half types widen to float32 (PyTorch's opmath)."""
    return np.dtype(np.float32) if dt in _HALF else dt.numpy


def _float_array(t: Tensor, op: str, dtype: D.dtype | None = None) -> tuple[np.ndarray, D.dtype]:
    out = dtype or t.dtype
    if not out.is_floating_point:
        raise DTypeError(f"{op}(): could not infer output dtype. Input dtype must be either a "
                         f"floating point or complex dtype. Got: {t.dtype.name}")
    return A(t).astype(_compute(out), copy=False), out


def _axes(dim: Sequence[int] | None, ndim: int, op: str) -> tuple[int, ...] | None:
    if dim is None or len(dim) == 0:
        return None
    axes = wrap_dims(dim, ndim, op)
    return None if ndim == 0 else axes


def _bump(*tensors: Any) -> None:
    for t in tensors:
        if t is not None:
            t._storage.version += 1


# -- pointwise kernels that need more than a snippet ------------------------------------------


_SQRT1_2 = 1 / math.sqrt(2)
_INV_SQRT_2PI = 1 / math.sqrt(2 * math.pi)
_SQRT_2_OVER_PI = math.sqrt(2 / math.pi)
_GELU_KAPPA = 0.044715


def _gelu_twice_cdf(x: np.ndarray) -> np.ndarray:
    """2 Phi(x) = 1 + erf(x / sqrt 2) in x's dtype (float32 through the float32 erf)."""
    kind = x.dtype.type
    twice_cdf = nn.erf(np.multiply(x, kind(_SQRT1_2)))
    twice_cdf += kind(1)
    return twice_cdf


# Note [float32 gelu]: float32 gelu computes Phi(x) as 1 / (1 + exp2(x Q(min(x^2, C^2)))), Q
# a polynomial of degree 6 fitted (in float64, reweighted least squares on [0, 5.5]) to
# -log2(e) logit(Phi(x)) / x, so that x Q approximates -log2(e) logit(Phi(x)); beyond C = 5.5
# the exponent keeps growing with x, so Phi saturates to 0 or 1 as it should and gelu(x) = x /
# (1 + exp2(...)) in one division. Evaluated in float32, gelu stays within 6e-7 absolute and
# its derivative Phi(x) + x phi(x) within 2.4e-7 of float64 (tests/backends/
# test_pointwise_math.py), in 19 numpy passes where 1 + erf(x / sqrt 2) through the float32 erf
# (Note [float32 erf]) takes 23, and the backward shares x^2 between Q and phi.
_GELU_Q = tuple(np.float32(c) for c in (
    -2.3022071893932745, -0.1048385980474062, 9.559725317500208e-05, 0.00015938964166011574,
    -1.1452617914688504e-05, 3.8506456126116695e-07, -5.210500170216292e-09))
_GELU_EDGE_SQUARED = 5.5 * 5.5
_HALF_LOG2E = np.float32(-0.5 / math.log(2))
_LOG2_INV_SQRT_2PI = np.float32(math.log2(_INV_SQRT_2PI))


def _gelu_float32_denominator(x: np.ndarray, x_sq: np.ndarray) -> np.ndarray:
    """1 + exp2(x Q(min(x^2, C^2))) = 1 / Phi(x) of float32 ``x`` (Note [float32 gelu]),
    given ``x_sq = x^2``."""
    u = pointwise_math.minimum(x_sq, _GELU_EDGE_SQUARED)  # a clip: np.minimum's is slow
    poly = np.multiply(u, _GELU_Q[-1])
    for c in _GELU_Q[-2:0:-1]:
        poly += c
        poly *= u
    poly += _GELU_Q[0]
    poly *= x
    np.exp2(poly, out=poly)
    poly += np.float32(1)
    return poly


def _gelu_tanh_parts(x: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """x^2 and tanh(sqrt(2/pi) (x + 0.044715 x^3)), each step in place."""
    kind = x.dtype.type
    x_sq = np.square(x)
    th = np.multiply(x_sq, kind(_GELU_KAPPA))
    th += kind(1)
    th *= x
    th *= kind(_SQRT_2_OVER_PI)
    return x_sq, np.tanh(th, out=th)


def _gelu_values(x: np.ndarray, approximate: str) -> np.ndarray:
    """gelu of a float array of at least one dimension, as a new array."""
    kind = x.dtype.type
    if approximate == "none" and x.dtype == np.float32:
        y = _gelu_float32_denominator(x, np.square(x))
        return np.divide(x, y, out=y)  # exp2 overflows to inf far left: the -0.0 wanted
    y = _gelu_tanh_parts(x)[1] if approximate == "tanh" else _gelu_twice_cdf(x)
    if approximate == "tanh":
        y += kind(1)
    y *= x
    y *= kind(0.5)
    return y


def _gelu_slope(x: np.ndarray, approximate: str) -> np.ndarray:
    """gelu's derivative of a float array of at least one dimension, as a new array."""
    kind = x.dtype.type
    if approximate == "none" and x.dtype == np.float32:
        # Phi(x) + x phi(x), phi(x) = exp2(-x^2 log2(e) / 2 + log2(1 / sqrt(2 pi)))
        x_sq = np.square(x)
        cdf = _gelu_float32_denominator(x, x_sq)
        np.divide(np.float32(1), cdf, out=cdf)
        slope = np.multiply(x_sq, _HALF_LOG2E, out=x_sq)
        slope += _LOG2_INV_SQRT_2PI
        np.exp2(slope, out=slope)
        slope *= x
        slope += cdf
        return slope
    if approximate == "none":
        # (2 Phi(x) + 2 x phi(x)) / 2, phi(x) = exp(-x^2 / 2) / sqrt(2 pi)
        slope = np.square(x)
        slope *= kind(-0.5)
        np.exp(slope, out=slope)
        slope *= kind(2 * _INV_SQRT_2PI)
        slope *= x
        slope += _gelu_twice_cdf(x)
        slope *= kind(0.5)
        return slope
    # (1 + th) / 2 + x / 2 (1 - th^2) sqrt(2/pi) (1 + 3 kappa x^2)
    x_sq, th = _gelu_tanh_parts(x)
    slope = np.square(th)
    np.subtract(kind(1), slope, out=slope)
    x_sq *= kind(3 * _GELU_KAPPA)
    x_sq += kind(1)
    slope *= x_sq
    slope *= x
    slope *= kind(_SQRT_2_OVER_PI)
    slope += th
    slope += kind(1)
    slope *= kind(0.5)
    return slope


@kernel("gelu")
def gelu(self: Tensor, approximate: str = "none") -> Tensor:
    if approximate not in ("none", "tanh"):
        raise VoltaError(f"gelu: approximate must be 'none' or 'tanh', got {approximate!r}")
    x, out = _float_array(self, "gelu")
    x = np.atleast_1d(x)  # in-place steps need arrays: a ufunc makes a 0-d array a scalar
    token = quiet_on()  # inf * 0 at -inf gives nan, as PyTorch's, without numpy's warning
    try:
        return WA(_gelu_values(x, approximate).reshape(self.shape), out)
    finally:
        quiet_off(token)


@kernel("gelu_backward")
def gelu_backward(grad_output: Tensor, self: Tensor, approximate: str = "none") -> Tensor:
    """The composite's formula (volta.composites.core) as one kernel, in place, without the
    dispatch of each step; autograd of it still runs through the composite."""
    if approximate not in ("none", "tanh"):
        raise SchemaError("approximate argument must be either none or tanh.")
    out = D.promote_types(grad_output.dtype, self.dtype)
    if not out.is_floating_point:
        out = D.get_default_dtype()
    compute = _compute(out)
    shape = broadcast_shapes(grad_output.shape, self.shape)
    grad = A(grad_output).astype(compute, copy=False)
    x = np.atleast_1d(A(self).astype(compute, copy=False))  # 0-d: see gelu
    token = quiet_on()
    try:
        return WA(np.multiply(grad, _gelu_slope(x, approximate)).reshape(shape), out)
    finally:
        quiet_off(token)


@kernel("clamp")
def clamp(self: Tensor, min: Any = None, max: Any = None) -> Tensor:
    out, min, max = clamp_operands(self, min, max)
    a = A(self).astype(_compute(out), copy=False)
    low, high = (None if b is None else A(b) for b in (min, max))
    if a.dtype.kind == "f" and all(b is None or np.ndim(b) == 0 for b in (low, high)):
        # number bounds: one clip in the tensor's dtype, as PyTorch casts them (numpy's clip
        # is several times faster than maximum + minimum, with the same nan and min > max)
        kind = a.dtype.type
        return WA(np.clip(a, kind(-np.inf if low is None else low),
                          kind(np.inf if high is None else high)), out)
    if min is not None:
        a = np.maximum(a, A(min))
    if max is not None:
        a = np.minimum(a, A(max))
    return WA(a, out)


@kernel("nan_to_num")
def nan_to_num(self: Tensor, nan: float | None = None, posinf: float | None = None,
               neginf: float | None = None) -> Tensor:
    a = A(self)
    if not self.dtype.is_floating_point:
        return W(a.copy())
    info = D.finfo(self.dtype)
    y = np.nan_to_num(a.astype(_compute(self.dtype)), nan=0.0 if nan is None else nan,
                      posinf=info.max if posinf is None else posinf,
                      neginf=info.min if neginf is None else neginf)
    return WA(y, self.dtype)


@kernel("div")
def div(self: Any, other: Any, rounding_mode: str | None = None) -> Tensor:
    if rounding_mode is None and elementwise.large_operands(self, other):
        fast = elementwise.native_binary(elementwise.DIV, self, other)
        if fast is not None:
            return fast
    promoted = D.result_type(self, other)
    if rounding_mode is None:
        out = promoted if promoted.is_floating_point else D.get_default_dtype()
    elif rounding_mode in ("trunc", "floor"):
        out = promoted
    else:
        raise VoltaError(f"div expected rounding_mode to be one of None, 'trunc', or 'floor' but "
                         f"found '{rounding_mode}'")
    compute = _compute(out)
    a = np.asarray(A(self)).astype(compute, copy=False) if isinstance(self, Tensor) else self
    b = np.asarray(A(other)).astype(compute, copy=False) if isinstance(other, Tensor) else other
    if isinstance(self, Tensor) and isinstance(other, Tensor):
        broadcast_shapes(self._shape, other._shape)
    else:
        check_scalar(self if isinstance(other, Tensor) else other, "div")
    with np.errstate(all="ignore"):
        if rounding_mode is None and not isinstance(self, Tensor):
            # number / tensor is PyTorch's reciprocal(tensor) * number, rounded in between
            y = np.true_divide(1, b).astype(out.numpy).astype(compute, copy=False) * a
        elif rounding_mode is None:
            y = np.true_divide(a, b)
        elif not out.is_floating_point:
            pointwise_math.check_integer_division(f"div_{rounding_mode}_cpu", a, b)
            y = np.floor_divide(a, b)
            if rounding_mode == "trunc":
                # exact integer truncation (true_divide in float64 loses bits past 2**53)
                inexact = np.remainder(a, b) != 0
                signs_differ = (np.asarray(a) < 0) != (np.asarray(b) < 0)
                y = np.where(inexact & signs_differ, y + 1, y)
        elif rounding_mode == "trunc":
            y = np.trunc(np.true_divide(a, b))
        else:
            y = np.floor_divide(a, b)
    return WA(y, out)


# Below this many elements np.where is one cheap call; above, _select's bit masks win.
_SELECT_MIN = 1 << 12
_SELECT_BLOCK = 1 << 16  # elements per block of _select: its temporaries stay in the cache


def _select(condition: np.ndarray, x: Any, y: Any) -> np.ndarray:
    """``np.where(condition, x, y)`` of arrays of the condition's shape and one float dtype, or
    of such an array and a 0-d array of its dtype or a plain zero (a derivative's ``where(c,
    grad, 0)``), through pointwise_math.where's bit masks: five to ten times faster than
    np.where's branch per element on a mixed mask, with the same bits. Blocks run over the
    threads (each element's result is the same either way). Anything else: np.where."""
    full = [v for v in (x, y) if type(v) is np.ndarray and v.ndim]
    dtype = full[0].dtype if full else None
    if not (full and dtype in (np.float32, np.float64) and condition.dtype == np.bool_
            and condition.size >= _SELECT_MIN and condition.flags.c_contiguous
            and all(v.shape == condition.shape and v.dtype == dtype and v.flags.c_contiguous
                    for v in full)
            and all(_select_scalar(v, dtype) for v in (x, y) if not any(v is f for f in full))):
        return np.where(condition, x, y)
    out = np.empty(condition.shape, dtype)
    flat_condition, flat_out = condition.reshape(-1), out.reshape(-1)
    flat_x, flat_y = (v.reshape(-1) if type(v) is np.ndarray and v.ndim else v for v in (x, y))

    def block(v: Any, lo: int, hi: int) -> Any:
        if type(v) is not np.ndarray:
            return v  # a plain zero: pointwise_math.where's cheaper path
        return v[lo:hi] if v.ndim else np.broadcast_to(v, (hi - lo,))

    def select(start: int, stop: int) -> None:
        for lo in range(start, stop, _SELECT_BLOCK):
            hi = min(lo + _SELECT_BLOCK, stop)
            flat_out[lo:hi] = pointwise_math.where(flat_condition[lo:hi], block(flat_x, lo, hi),
                                                   block(flat_y, lo, hi))

    parallel.parallel_for(condition.size, select, parallel.min_share(4))  # ~4 passes each
    return out


def _select_scalar(v: Any, dtype: np.dtype) -> bool:
    """Whether _select takes ``v`` beside arrays of ``dtype``: a 0-d array of that dtype, or a
    plain Python zero (numpy gives it the array's dtype)."""
    if type(v) is np.ndarray:
        return v.ndim == 0 and v.dtype == dtype
    return (type(v) is int or type(v) is float) and v == 0 and not math.copysign(1.0, v) < 0


@kernel("where.self")
def where_self(condition: Tensor, self: Any, other: Any) -> Tensor:
    cond = A(condition)
    if cond.dtype != np.bool_:
        if cond.dtype == np.uint8:
            cond = cond.astype(np.bool_)
        else:
            raise DTypeError(f"where expected condition to be a boolean tensor, but got a tensor "
                             f"with dtype {condition.dtype.name}")
    out = D.result_type(self, other)
    shapes = [condition._shape] + [x._shape for x in (self, other) if isinstance(x, Tensor)]
    broadcast_shapes(*shapes)
    compute = _compute(out)
    a = A(self).astype(compute, copy=False) if isinstance(self, Tensor) else self
    b = A(other).astype(compute, copy=False) if isinstance(other, Tensor) else other
    return WA(_select(cond, a, b), out)


# -- reductions --------------------------------------------------------------------------------


def _sum_like(np_fn: Any, self: Tensor, dim: Any, keepdim: bool, dtype: D.dtype | None,
              op: str) -> Tensor:
    out = dtype or (self.dtype if self.dtype.is_floating_point else D.int64)
    axes = _axes(dim, self.ndim, op)
    y = np_fn(A(self), axis=axes, keepdims=keepdim, dtype=_compute(out))
    return WA(y, out)


# below this many elements numpy's sum is one cheap call and the BLAS plan costs more
_BLAS_SUM_MIN = 4096
_add_reduce = np.add.reduce


@kernel("sum")
def sum_(self: Tensor, dim: Any = None, keepdim: bool = False, dtype: Any = None) -> Tensor:
    if dim is None and dtype is None and not keepdim:
        dt = self.dtype
        if dt is D.float32 or dt is D.float64:
            a = A(self)
            if a.size < _BLAS_SUM_MIN:
                # a small full sum: the ufunc's reduce with positional arguments (keywords
                # and the general path below cost more than the sum itself)
                return WA(_add_reduce(a, None), dt)
    if ((dtype is None or dtype is self.dtype) and self.dtype in (D.float32, D.float64)
            and self.numel() >= _BLAS_SUM_MIN):
        # trailing or leading dims of a contiguous array: BLAS products with ones
        y = rowwise.sum_over(A(self), _axes(dim, self.ndim, "sum"), keepdim)
        if y is not None:
            return W(y)
    # the ufunc's reduce itself: np.sum's Python wrapper costs more than a small sum
    return _sum_like(np.add.reduce, self, dim, keepdim, dtype, "sum")


@kernel("nansum")
def nansum(self: Tensor, dim: Any = None, keepdim: bool = False, dtype: Any = None) -> Tensor:
    return _sum_like(np.nansum, self, dim, keepdim, dtype, "nansum")


@kernel("mean")
def mean(self: Tensor, dim: Any = None, keepdim: bool = False, dtype: Any = None) -> Tensor:
    x, out = _float_array(self, "mean", dtype)
    axes = _axes(dim, self.ndim, "mean")
    if out in (D.float32, D.float64) and x.size >= _BLAS_SUM_MIN:
        y = rowwise.mean_over(x, axes, keepdim)
        if y is not None:
            return W(y)
    with np.errstate(all="ignore"):
        total = np.sum(x, axis=axes, keepdims=keepdim)
        count = x.size if axes is None else math.prod(x.shape[a] for a in axes)
        # an empty reduction is nan, as in PyTorch (numpy would also warn)
        return WA(total / count if count else np.full(np.shape(total), np.nan, x.dtype), out)


@kernel("prod")
def prod(self: Tensor, dim: int | None = None, keepdim: bool = False, dtype: Any = None
         ) -> Tensor:
    out = dtype or (self.dtype if self.dtype.is_floating_point else D.int64)
    axis = None if dim is None else wrap_dim(dim, self.ndim, "prod")
    if self.ndim == 0:
        axis = None
    y = np.prod(A(self), axis=axis, keepdims=keepdim and axis is not None, dtype=_compute(out))
    return WA(y, out)


def _check_nonempty(self: Tensor, op: str, dim: int | None = None) -> None:
    check_reduction_nonempty(op, self.numel(), None if dim is None else self._shape[dim], dim)


@kernel("max")
def max_all(self: Tensor) -> Tensor:
    _check_nonempty(self, "max")
    return WA(np.max(A(self)), self.dtype)


@kernel("min")
def min_all(self: Tensor) -> Tensor:
    _check_nonempty(self, "min")
    return WA(np.min(A(self)), self.dtype)


def _minmax_dim(self: Tensor, dim: int, keepdim: bool, largest: bool, op: str
                ) -> tuple[Tensor, Tensor]:
    a = A(self)
    d = wrap_dim(dim, a.ndim, op)
    if a.ndim == 0:
        return W(a.copy()), W(np.zeros((), np.int64))
    _check_nonempty(self, op, d)
    idx = np.argmax(a, axis=d) if largest else np.argmin(a, axis=d)
    idx = np.expand_dims(idx, d)
    values = np.take_along_axis(a, idx, d)
    if not keepdim:
        values, idx = values.squeeze(d), idx.squeeze(d)
    return W(values), WA(idx, D.int64)


@kernel("max.dim")
def max_dim(self: Tensor, dim: int, keepdim: bool = False) -> tuple[Tensor, Tensor]:
    return _minmax_dim(self, dim, keepdim, True, "max")


@kernel("min.dim")
def min_dim(self: Tensor, dim: int, keepdim: bool = False) -> tuple[Tensor, Tensor]:
    return _minmax_dim(self, dim, keepdim, False, "min")


def _nonempty_axes(self: Tensor, dim: Any, op: str) -> tuple[int, ...] | None:
    """The reduced axes of a max/min-like reduction, each of which must be non-empty."""
    axes = _axes(dim, self.ndim, op)
    if axes is None or self.numel() != 0:
        _check_nonempty(self, op)
    else:
        for d in axes:
            _check_nonempty(self, op, d)
    return axes


def _last_dim_extrema(self: Tensor, axes: tuple[int, ...] | None, keepdim: bool,
                      largest: bool) -> Tensor | None:
    """amax/amin over the last dim of a float32/float64 tensor through the compiled row kernels,
    or None (the numpy path) where they do not apply."""
    if self.dtype not in (D.float32, D.float64) or axes != (self.ndim - 1,):
        return None
    y = rowwise.row_extrema(host_view(self), largest)
    if y is None:
        return None
    return W(np.expand_dims(y, -1) if keepdim else y)


# the ufuncs' reduce directly: np.max's Python wrapper costs about 2 us of a 30 us row max
@kernel("amax")
def amax(self: Tensor, dim: Any = (), keepdim: bool = False) -> Tensor:
    axes = _nonempty_axes(self, dim, "amax")
    y = _last_dim_extrema(self, axes, keepdim, largest=True)
    if y is not None:
        return y
    return WA(np.maximum.reduce(host_view(self), axis=axes, keepdims=keepdim), self.dtype)


@kernel("amin")
def amin(self: Tensor, dim: Any = (), keepdim: bool = False) -> Tensor:
    axes = _nonempty_axes(self, dim, "amin")
    y = _last_dim_extrema(self, axes, keepdim, largest=False)
    if y is not None:
        return y
    return WA(np.minimum.reduce(host_view(self), axis=axes, keepdims=keepdim), self.dtype)


def _arg(fn: Any, self: Tensor, dim: int | None, keepdim: bool, op: str) -> Tensor:
    check_arg_reduction_dtype(op, self)
    a = A(self)
    if dim is None:
        _check_nonempty(self, op)
        y = fn(a.reshape(-1))
        if keepdim:
            y = np.asarray(y).reshape((1,) * a.ndim)
        return WA(y, D.int64)
    d = wrap_dim(dim, a.ndim, op)
    if a.ndim == 0:
        return WA(np.zeros(()), D.int64)
    _check_nonempty(self, op, d)
    y = fn(a, axis=d)
    if keepdim:
        y = np.expand_dims(y, d)
    return WA(y, D.int64)


@kernel("argmax")
def argmax(self: Tensor, dim: int | None = None, keepdim: bool = False) -> Tensor:
    return _arg(np.argmax, self, dim, keepdim, "argmax")


@kernel("argmin")
def argmin(self: Tensor, dim: int | None = None, keepdim: bool = False) -> Tensor:
    return _arg(np.argmin, self, dim, keepdim, "argmin")


def _var(self: Tensor, dim: Any, correction: Any, keepdim: bool, op: str) -> np.ndarray:
    x, _ = _float_array(self, op)
    ddof = 1.0 if correction is None else float(correction)
    axes = _axes(dim, self.ndim, op)
    with np.errstate(all="ignore"):
        n = x.size if axes is None else math.prod(x.shape[a] for a in axes)
        m = np.mean(x, axis=axes, keepdims=True)
        ss = np.sum(np.square(x - m), axis=axes, keepdims=keepdim)
        return ss / max(n - ddof, 0)


@kernel("var.correction")
def var(self: Tensor, dim: Any = None, correction: Any = None, keepdim: bool = False) -> Tensor:
    return WA(_var(self, dim, correction, keepdim, "var"), self.dtype)


@kernel("std.correction")
def std(self: Tensor, dim: Any = None, correction: Any = None, keepdim: bool = False) -> Tensor:
    return WA(np.sqrt(_var(self, dim, correction, keepdim, "std")), self.dtype)


@kernel("vector_norm")
def vector_norm(self: Tensor, ord: Any = 2, dim: Any = None, keepdim: bool = False,
                dtype: Any = None) -> Tensor:
    check_vector_norm_dtypes(self, dtype)
    x, out = _float_array(self, "linalg.vector_norm", dtype)
    axes = _axes(dim, self.ndim, "linalg.vector_norm")
    p = float(ord)
    ax = x if p == 2 else np.abs(x)
    if p == math.inf:
        y = np.max(ax, axis=axes, keepdims=keepdim) if x.size else np.zeros(())
    elif p == -math.inf:
        y = np.min(ax, axis=axes, keepdims=keepdim)
    elif p == 0:
        y = np.sum(ax != 0, axis=axes, keepdims=keepdim).astype(x.dtype)
    elif p == 1:
        y = np.sum(ax, axis=axes, keepdims=keepdim)
    elif p == 2:
        squares = rowwise.squared_sum_over(x, axes, keepdim)
        if squares is None:
            squares = np.sum(ax * ax, axis=axes, keepdims=keepdim)
        y = np.sqrt(squares)
    else:
        with np.errstate(all="ignore"):
            y = np.power(np.sum(np.power(ax, p), axis=axes, keepdims=keepdim), 1.0 / p)
    return WA(y, out)


@kernel("logsumexp")
def logsumexp(self: Tensor, dim: Any, keepdim: bool = False) -> Tensor:
    check_logsumexp_all_dims(self, dim, keepdim)
    out = self.dtype if self.dtype.is_floating_point else D.get_default_dtype()
    x = A(self).astype(_compute(out), copy=False)
    axes = _axes(dim, self.ndim, "logsumexp")
    if axes is not None and len(axes) == 1:
        rows = rowwise.last_dim_rows(x, axes[0])
        if rows is not None:
            y = rowwise.logsumexp_rows(rows).reshape(x.shape[:-1])
            return WA(np.expand_dims(y, -1) if keepdim else y, out)
    if x.size == 0:
        return WA(np.log(np.sum(np.exp(x), axis=axes, keepdims=keepdim)), out)
    m = np.max(x, axis=axes, keepdims=True)
    m = np.where(np.isfinite(m), m, 0)
    with np.errstate(all="ignore"):
        y = np.log(np.sum(np.exp(x - m), axis=axes, keepdims=True)) + m
    if not keepdim:
        y = np.squeeze(y, axis=axes) if axes is not None else y.reshape(())
    return WA(y, out)


def _logical_out(self: Tensor) -> D.dtype:
    return D.uint8 if self.dtype is D.uint8 else D.bool_  # PyTorch keeps uint8 for all/any


# Note [all/any over no dims]: PyTorch's all/any reduce nothing for dim=[] (each element's
# truth value, in the input's shape), while sum and the other reductions reduce every dim.
@kernel("all")
def all_(self: Tensor, dim: Any = None, keepdim: bool = False) -> Tensor:
    if dim is not None and len(dim) == 0:  # Note [all/any over no dims]
        return WA(A(self).astype(bool), _logical_out(self))
    y = np.all(A(self), axis=_axes(dim, self.ndim, "all"), keepdims=keepdim)
    return WA(y, _logical_out(self))


@kernel("any")
def any_(self: Tensor, dim: Any = None, keepdim: bool = False) -> Tensor:
    if dim is not None and len(dim) == 0:  # Note [all/any over no dims]
        return WA(A(self).astype(bool), _logical_out(self))
    y = np.any(A(self), axis=_axes(dim, self.ndim, "any"), keepdims=keepdim)
    return WA(y, _logical_out(self))


@kernel("count_nonzero")
def count_nonzero(self: Tensor, dim: Any = None) -> Tensor:
    return WA(np.count_nonzero(A(self), axis=_axes(dim, self.ndim, "count_nonzero")), D.int64)


def _scan(fn: Any, self: Tensor, dim: int, dtype: Any, op: str) -> Tensor:
    check_scan_dtype(op, self, dtype)
    out = dtype or (self.dtype if self.dtype.is_floating_point else D.int64)
    a = A(self)
    d = wrap_dim(dim, a.ndim, op)
    if a.ndim == 0:
        return WA(a.copy(), out)
    if fn is np.cumsum and a.dtype == _compute(out):
        rows = rowwise.last_dim_rows(a, d)
        if rows is not None:  # numpy's scan along the last axis is slow; blocks through BLAS
            return WA(rowwise.cumsum_rows(rows).reshape(a.shape), out)
    return WA(fn(a, axis=d, dtype=_compute(out)), out)


@kernel("cumsum")
def cumsum(self: Tensor, dim: int, dtype: Any = None) -> Tensor:
    if dtype is None or dtype is self.dtype:
        compiled = rowwise.cumsum_native(A(self), wrap_dim(dim, max(self.ndim, 1), "cumsum"))
        if compiled is not None:
            return WA(compiled, self.dtype)
    return _scan(np.cumsum, self, dim, dtype, "cumsum")


@kernel("_cumsum_backward")
def cumsum_backward(grad_output: Tensor, dim: int) -> Tensor:
    """The running sums of ``grad_output`` from the end of ``dim``: one compiled pass where it
    applies, else the reversed array's cumsum."""
    a, dtype = A(grad_output), grad_output.dtype
    if a.ndim == 0:
        return WA(a.copy(), dtype)
    d = wrap_dim(dim, a.ndim, "cumsum")
    compiled = rowwise.cumsum_native(a, d, reverse=True)
    if compiled is None:
        scanned = A(_scan(np.cumsum, WA(np.flip(a, d), dtype), d, None, "cumsum"))
        compiled = np.flip(scanned, d)
    return WA(compiled, dtype)


@kernel("cumprod")
def cumprod(self: Tensor, dim: int, dtype: Any = None) -> Tensor:
    return _scan(np.cumprod, self, dim, dtype, "cumprod")


@kernel("median")
def median(self: Tensor) -> Tensor:
    if self.numel() == 0:
        return WA(np.asarray(empty_median_value(self.dtype)), self.dtype)
    check_selection_dtype("median_cpu", self)
    flat = np.sort(A(self).reshape(-1), kind="stable")
    if self.dtype.is_floating_point and np.isnan(flat[-1]):
        return WA(np.asarray(np.nan), self.dtype)
    return WA(flat[(flat.size - 1) // 2], self.dtype)


@kernel("median.dim")
def median_dim(self: Tensor, dim: int, keepdim: bool = False) -> tuple[Tensor, Tensor]:
    check_selection_dtype("median_out", self)
    a = A(self)
    d = wrap_dim(dim, a.ndim, "median")
    if a.ndim == 0:
        return W(a.copy()), WA(np.zeros(()), D.int64)
    _check_nonempty(self, "median", d)
    order = np.argsort(a, axis=d, kind="stable")
    n, k = a.shape[d], (a.shape[d] - 1) // 2
    if self.dtype.is_floating_point:
        # as PyTorch: a slice with a NaN has the median NaN at its first NaN, which the stable
        # sort puts right after the slice's other values
        nan_count = np.isnan(a).sum(axis=d, keepdims=True)
        position = np.where(nan_count > 0, n - nan_count, k)
    else:
        position = np.full(a.shape[:d] + (1,) + a.shape[d + 1:], k)
    idx = np.take_along_axis(order, position, d)
    values = np.take_along_axis(a, idx, d)
    if not keepdim:
        values, idx = values.squeeze(d), idx.squeeze(d)
    return W(values), WA(idx, D.int64)


# -- linear algebra ----------------------------------------------------------------------------


def _same_dtype(op: str, a: Tensor, b: Tensor) -> D.dtype:
    if a.dtype is not b.dtype:
        raise DTypeError(f"{op}: expected m1 and m2 to have the same dtype, but got: "
                         f"{a.dtype.name} != {b.dtype.name}")
    return a.dtype


def _mm_arrays(a: Tensor, b: Tensor) -> tuple[np.ndarray, np.ndarray, D.dtype]:
    dt = _same_dtype("matmul", a, b)
    if dt is D.bool_:
        # PyTorch has no bool matrix product (numpy's would be a logical or-of-ands)
        raise DTypeError("matmul: \"addmm_impl_cpu_\" not implemented for 'Bool'")
    compute = _compute(dt)
    return A(a).astype(compute, copy=False), A(b).astype(compute, copy=False), dt


def _rows_matmul(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """``a @ b`` for a (..., k) ``a`` and a (k, n) ``b`` as one 2-D GEMM over the rows of
    ``a``: numpy would run one small GEMM per leading index (each of which OpenBLAS may try
    to thread) where the rows of all of them make one large GEMM. On volta's threads where the
    compiled GEMM applies (gemm.py)."""
    if a.ndim > 2:
        rows = math.prod(a.shape[:-1])  # not -1: that is ambiguous when k is 0
        return _rows_matmul(a.reshape(rows, a.shape[-1]), b).reshape(*a.shape[:-1], b.shape[1])
    if (gemm.ENABLED and a.ndim == 2 and b.ndim == 2
            and a.shape[0] * a.shape[1] * b.shape[1] >= gemm.MIN_MACS):
        out = gemm.product(a, b)
        if out is not None:
            return out
    return np.dot(a, b)  # same GEMM as np.matmul for these shapes, less call overhead


@kernel("matmul")
def matmul(self: Tensor, other: Tensor) -> Tensor:
    dt = self.dtype
    if dt is other.dtype and (dt is D.float32 or dt is D.float64):
        ss, os_ = self._shape, other._shape
        if len(ss) >= 2 and len(os_) == 2 and ss[-1] == os_[0]:
            # the common (..., k) @ (k, n) case, shapes and dtypes checked above: one GEMM
            return W(_rows_matmul(A(self), A(other)))
        if (gemm.ENABLED and len(ss) == len(os_) >= 3 and ss[:-2] == os_[:-2]
                and ss[-1] == os_[-2]):
            out = gemm.product(A(self), A(other))  # bmm's (B, M, K) @ (B, K, N), attention's
            if out is not None:
                return W(out)
    if self.ndim == 0 or other.ndim == 0:
        raise ShapeError(f"both arguments to matmul need to be at least 1D, but they are "
                         f"{self.ndim}D and {other.ndim}D")
    a, b, dt = _mm_arrays(self, other)
    k_a = a.shape[-1]
    k_b = b.shape[0] if b.ndim == 1 else b.shape[-2]
    if k_a != k_b:
        raise ShapeError(f"mat1 and mat2 shapes cannot be multiplied "
                         f"({'x'.join(map(str, a.shape[-2:]))} and "
                         f"{'x'.join(map(str, b.shape[-2:]))})")
    if a.ndim > 2 and b.ndim > 2:
        broadcast_shapes(a.shape[:-2], b.shape[:-2])
    return WA(np.matmul(a, b), dt)


@kernel("linear")
def linear(input: Tensor, weight: Tensor, bias: Tensor | None = None) -> Tensor:
    dt = input.dtype
    if (dt is weight.dtype and (dt is D.float32 or dt is D.float64) and weight.ndim == 2
            and input.ndim >= 1 and input._shape[-1] == weight._shape[1]
            and (bias is None or (bias.dtype is dt and bias.ndim <= 1
                                  and bias.numel() in (1, weight._shape[0])))):
        # the product lands in a fresh array and the bias is added into it: one output
        # buffer, and the transposed weight is a BLAS flag, not a copy
        out = _rows_matmul(A(input), A(weight).T)
        if bias is not None:
            np.add(out, A(bias), out=out)
        return W(out)
    return _linear_composite(input, weight, bias)


@kernel("mm")
def mm(self: Tensor, mat2: Tensor) -> Tensor:
    check_mm(self, mat2)
    return matmul(self, mat2)


@kernel("bmm")
def bmm(self: Tensor, mat2: Tensor) -> Tensor:
    check_bmm(self, mat2)
    return matmul(self, mat2)


@kernel("addmm")
def addmm(self: Tensor, mat1: Tensor, mat2: Tensor, beta: Any = 1, alpha: Any = 1) -> Tensor:
    prod_ = A(mm(mat1, mat2)).astype(_compute(mat1.dtype), copy=False)
    if alpha != 1:
        prod_ = prod_ * alpha
    if beta != 0:
        prod_ = prod_ + (A(self) * beta if beta != 1 else A(self))
    else:
        prod_ = np.broadcast_to(prod_, broadcast_shapes(self._shape, prod_.shape))
    return WA(prod_, mat1.dtype)


@kernel("einsum")
def einsum(equation: str, tensors: Sequence[Tensor]) -> Tensor:
    dt = D.result_type(*tensors)
    arrays = [A(t).astype(_compute(dt), copy=False) for t in tensors]
    # numpy cannot sum an ellipsis away: spell it out in letters first
    inputs, output = einsum_subscripts(equation, tensors)
    try:
        y = np.einsum(",".join(inputs) + "->" + output, *arrays, optimize=len(arrays) > 2)
    except ValueError as exc:
        raise ShapeError(f"einsum({equation!r}): {exc}") from None
    return WA(y, dt)


# -- backward helpers that scatter into zeros (views place the gradient) --------------------------


def _zeros(sizes: Sequence[int], like: Tensor) -> Tensor:
    return W(np.zeros(tuple(sizes), dtype=like.dtype.numpy))


@kernel("slice_backward")
def slice_backward(grad_output: Tensor, input_sizes: Sequence[int], dim: int, start: Any,
                   end: Any, step: int) -> Tensor:
    from volta.composites import views
    z = _zeros(input_sizes, grad_output)
    A(views.slice_(z, dim, start, end, step))[...] = A(grad_output)
    return z


@kernel("select_backward")
def select_backward(grad_output: Tensor, input_sizes: Sequence[int], dim: int,
                    index: int) -> Tensor:
    from volta.composites import views
    z = _zeros(input_sizes, grad_output)
    A(views.select(z, dim, index))[...] = A(grad_output)
    return z


@kernel("diagonal_backward")
def diagonal_backward(grad_output: Tensor, input_sizes: Sequence[int], offset: int, dim1: int,
                      dim2: int) -> Tensor:
    from volta.composites import views
    z = _zeros(input_sizes, grad_output)
    A(views.diagonal(z, offset, dim1, dim2))[...] = A(grad_output)
    return z


@kernel("unfold_backward")
def unfold_backward(grad_output: Tensor, input_sizes: Sequence[int], dim: int, size: int,
                    step: int) -> Tensor:
    from volta.composites import views
    z = _zeros(input_sizes, grad_output)
    g = A(grad_output)
    if len(input_sizes) == 0:
        A(z)[...] = g.reshape(())
        return z
    d = wrap_dim(dim, len(input_sizes), "unfold_backward")
    count = g.shape[d]
    for k in range(size):  # windows overlap: add one window position at a time
        if count == 0:
            break
        region = A(views.slice_(z, d, k, k + step * (count - 1) + 1, step))
        region += g[..., k]
    return z


@kernel("as_strided_scatter")
def as_strided_scatter(self: Tensor, src: Tensor, size: Sequence[int], stride: Sequence[int],
                       storage_offset: int | None = None) -> Tensor:
    from volta.composites import views
    out = W(A(self).copy())
    offset = 0 if storage_offset is None else storage_offset
    A(views.as_strided(out, size, stride, offset))[...] = A(src)
    return out


# -- copies ------------------------------------------------------------------------------------


@kernel("clone")
def clone(self: Tensor, memory_format: Any = None) -> Tensor:
    if memory_format is None:  # PyTorch's default: keep a dense layout (preserve_format)
        if self._stride == contiguous_strides(self._shape):
            return W(strided_copy.copy_c_order(A(self)))
        memory_format = preserve_format
    elif memory_format is contiguous_format:  # no stride arithmetic: AccumulateGrad's copies
        return W(strided_copy.copy_c_order(A(self)))
    strides = format_strides(memory_format, self._shape, self._stride)
    if strides == contiguous_strides(self._shape):  # contiguous(): banded, over the threads
        return W(strided_copy.copy_c_order(A(self)))
    out = empty_strided(self._shape, strides, dtype=self.dtype, device=self._device)
    A(out)[...] = A(self)
    return out


_NATIVE_COPY_MIN = 4096  # elements: below, numpy's assignment costs less than the overlap test


@kernel("copy_")
def copy_(self: Tensor, src: Tensor, non_blocking: bool = False) -> Tensor:
    source = host_view(src) if isinstance(src, Tensor) else np.asarray(src)
    check_no_internal_overlap(self, "copy_")
    dst = A(self)
    broadcast_shapes(self._shape, tuple(source.shape))
    if tuple(np.broadcast_shapes(dst.shape, source.shape)) != dst.shape:
        raise ShapeError(f"copy_: the source of shape {list(source.shape)} cannot be broadcast "
                         f"to the destination of shape {list(dst.shape)}")
    if (dst.shape == source.shape and dst.dtype == source.dtype and dst.size >= _NATIVE_COPY_MIN
            and not np.may_share_memory(dst, source) and strided_copy.copy_into(source, dst)):
        pass  # compiled, over the threads (overlapping memory would mix: numpy's copy handles it)
    elif (dst.shape == source.shape and dst.flags.c_contiguous
            and strided_copy.is_transposed(source) and not np.may_share_memory(dst, source)):
        strided_copy.copy_transposed(source, out=dst)  # bands: overlapping memory would mix
    else:
        dst[...] = source.astype(dst.dtype, copy=False)
    return self


@kernel("fill_")
@kernel("fill_.Tensor")
def fill_(self: Tensor, value: Any) -> Tensor:
    if isinstance(value, Tensor):
        if value.ndim != 0:
            raise ShapeError(f"fill_ only supports 0-dimension value tensor but got tensor with "
                             f"{value.ndim} dimensions.")
        value = value.item()
    else:
        value = checked_convert(value, self.dtype, "fill_")
    A(self)[...] = value
    return self


@kernel("cat")
def cat(tensors: Sequence[Tensor], dim: int = 0) -> Tensor:
    if len(tensors) == 0:
        raise ShapeError("cat(): expected a non-empty list of Tensors")
    dt = D.result_type(*[t for t in tensors]) if len({t.dtype for t in tensors}) > 1 \
        else tensors[0].dtype
    # legacy behaviour: 1-D empty tensors are skipped
    parts = [t for t in tensors if not (t.ndim == 1 and t._shape[0] == 0)]
    if not parts:
        return WA(np.zeros((0,)), dt)
    ref = parts[0]
    if ref.ndim == 0:
        raise ShapeError("zero-dimensional tensor (at position 0) cannot be concatenated")
    ref_shape = ref._shape
    ndim = len(ref_shape)
    d = wrap_dim(dim, ndim, "cat")
    before, after = ref_shape[:d], ref_shape[d + 1:]
    for i, t in enumerate(parts):
        shape = t._shape
        if len(shape) != ndim:
            raise ShapeError(f"Tensors must have same number of dimensions: got {ndim} and "
                             f"{len(shape)}")
        if shape[:d] == before and shape[d + 1:] == after:
            continue  # one tuple comparison per tensor: cat is called with many parts
        j = next(j for j in range(ndim) if j != d and shape[j] != ref_shape[j])
        raise ShapeError(f"Sizes of tensors must match except in dimension {d}. Expected "
                         f"size {ref_shape[j]} but got size {shape[j]} for tensor "
                         f"number {i} in the list.")
    arrays = [A(t) for t in parts]
    if any(t.dtype is not dt for t in parts):
        # cast first: numpy has no common type of float16 and bfloat16 (PyTorch's is float32)
        arrays = [a.astype(dt.numpy, copy=False) for a in arrays]
    return WA(strided_copy.concatenate(arrays, d), dt)


@kernel("flip")
def flip(self: Tensor, dims: Sequence[int]) -> Tensor:
    a = A(self)
    axes = wrap_dims(dims, a.ndim, "flip")
    if a.ndim == 0:
        return W(a.copy())
    return W(np.flip(a, axes))


@kernel("roll")
def roll(self: Tensor, shifts: Sequence[int], dims: Sequence[int] = ()) -> Tensor:
    a = A(self)
    if len(dims) == 0:
        if len(shifts) != 1:
            raise ShapeError("roll: shifts must have one element when dims are not given")
        return W(np.roll(a.reshape(-1), shifts[0]).reshape(a.shape))
    if len(shifts) != len(dims):
        raise ShapeError(f"shifts and dimensions must align. shifts: {len(shifts)}, dims:"
                         f"{len(dims)}")
    # a repeated dim rolls twice (PyTorch allows it); a 0-d tensor has no dim to roll
    axes = tuple(wrap_dim(d, a.ndim, "roll", scalar_ok=False) for d in dims)
    return W(np.roll(a, tuple(shifts), axes))


@kernel("repeat")
def repeat(self: Tensor, repeats: Sequence[int]) -> Tensor:
    if len(repeats) < self.ndim:
        raise ShapeError("Number of dimensions of repeat dims can not be smaller than number of "
                         "dimensions of tensor")
    a = A(self).reshape((1,) * (len(repeats) - self.ndim) + self._shape)
    return W(np.tile(a, tuple(repeats)))


def _tri(fn: Any, self: Tensor, diagonal: int, op: str) -> Tensor:
    if self.ndim < 2:
        raise ShapeError(f"{op}: input tensor must have at least 2 dimensions")
    rows, cols = self._shape[-2:]
    # a diagonal past the matrix acts like its last one (numpy overflows on an int64 extreme)
    return W(fn(A(self), max(-rows, min(cols, diagonal))))


@kernel("tril")
def tril(self: Tensor, diagonal: int = 0) -> Tensor:
    return _tri(np.tril, self, diagonal, "tril")


@kernel("triu")
def triu(self: Tensor, diagonal: int = 0) -> Tensor:
    return _tri(np.triu, self, diagonal, "triu")


@kernel("diag")
def diag(self: Tensor, diagonal: int = 0) -> Tensor:
    if self.ndim == 1:
        return W(np.diag(A(self), diagonal))
    if self.ndim == 2:
        return W(np.diagonal(A(self), diagonal).copy())
    raise ShapeError(f"diag(): Supports 1D or 2D tensors. Got {self.ndim}D")


@kernel("diag_embed")
def diag_embed(self: Tensor, offset: int = 0, dim1: int = -2, dim2: int = -1) -> Tensor:
    from volta.composites import views
    n = self._shape[-1] + abs(offset) if self.ndim else 1
    ndim = self.ndim + 1
    d1, d2 = wrap_dim(dim1, ndim, "diag_embed"), wrap_dim(dim2, ndim, "diag_embed")
    if d1 == d2:
        raise ShapeError(f"diagonal dimensions cannot be identical {dim1}, {dim2}")
    rest = list(self._shape[:-1])
    shape = []
    for i in range(ndim):
        shape.append(n if i in (d1, d2) else rest.pop(0))
    z = _zeros(shape, self)
    A(views.diagonal(z, offset, d1, d2))[...] = A(self)
    return z


@kernel("pad")
def pad(self: Tensor, pad: Sequence[int], mode: str = "constant", value: float | None = None
        ) -> Tensor:
    a = A(self)
    pairs = pad_pairs(a.ndim, pad, "pad")
    if mode == "constant":
        crop = tuple(slice(max(-b, 0), a.shape[i] - max(-e, 0)) for i, (b, e) in enumerate(pairs))
        a = a[crop]
        if a.ndim == 0:  # nothing to pad (np.pad cannot take the empty widths of a 0-d array)
            return W(a.copy())
        widths = [(max(b, 0), max(e, 0)) for b, e in pairs]
        return W(np.pad(a, widths, mode="constant", constant_values=0 if value is None else value))
    for i, (b, e) in enumerate(pairs):
        if b == 0 and e == 0:
            continue
        check_pad_width(mode, b, e, a.shape, i)
        a = np.take(a, pad_source_index(a.shape[i], b, e, mode), axis=i)
    return W(a)


@kernel("pad_backward")
def pad_backward(grad_output: Tensor, input_sizes: Sequence[int], pad: Sequence[int],
                 mode: str) -> Tensor:
    g = A(grad_output)
    pairs = pad_pairs(len(input_sizes), pad, "pad")
    if mode == "constant":
        out = np.zeros(tuple(input_sizes), dtype=g.dtype)
        src, dst = [], []
        for (b, e), n in zip(pairs, input_sizes):
            src.append(slice(max(b, 0), max(b, 0) + n - max(-b, 0) - max(-e, 0)))
            dst.append(slice(max(-b, 0), n - max(-e, 0)))
        out[tuple(dst)] = g[tuple(src)]
        return W(out)
    for i in range(len(input_sizes) - 1, -1, -1):
        b, e = pairs[i]
        if b == 0 and e == 0:
            continue
        n = input_sizes[i]
        index = pad_source_index(n, b, e, mode)
        moved = np.moveaxis(g, i, 0)
        acc = np.zeros((n,) + moved.shape[1:], dtype=g.dtype)
        np.add.at(acc, index, moved)
        g = np.moveaxis(acc, 0, i)
    return W(g)


# -- sorting and indexing ----------------------------------------------------------------------


def _sort_indices(a: np.ndarray, d: int, descending: bool) -> np.ndarray:
    if not descending:
        return np.argsort(a, axis=d, kind="stable")
    # stable descending: sort the reversed array ascending, reverse back (ties keep order)
    n = a.shape[d]
    rev = np.argsort(np.flip(a, d), axis=d, kind="stable")
    return n - 1 - np.flip(rev, d)


@kernel("sort")
def sort(self: Tensor, dim: int = -1, descending: bool = False) -> tuple[Tensor, Tensor]:
    """Stable: ties keep their order (sort.stable is this kernel too)."""
    a = A(self)
    d = wrap_dim(dim, a.ndim, "sort")
    if a.ndim == 0:
        return W(a.copy()), WA(np.zeros(()), D.int64)
    idx = _sort_indices(a, d, descending)
    return W(np.take_along_axis(a, idx, d)), WA(idx, D.int64)


@kernel("topk")
def topk(self: Tensor, k: int, dim: int = -1, largest: bool = True, sorted: bool = True
         ) -> tuple[Tensor, Tensor]:
    check_topk_dtype(self)
    a = A(self)
    d = wrap_dim(dim, a.ndim, "topk")
    if a.ndim == 0:
        if k > 1:
            raise IndexOutOfRangeError("topk: k must be at most 1 for a 0-d tensor")
        return W(a.copy()), WA(np.zeros(()), D.int64)
    if not 0 <= k <= a.shape[d]:
        raise IndexOutOfRangeError(f"topk: selected index k out of range (k={k}, size "
                                   f"{a.shape[d]})")
    idx = np.take(_sort_indices(a, d, largest), np.arange(k), axis=d)
    return W(np.take_along_axis(a, idx, d)), WA(idx, D.int64)


def _index_array(index: Tensor, op: str) -> np.ndarray:
    check_index_dtype(op, index)
    return A(index).astype(np.int64, copy=False)


def _check_bounds(idx: np.ndarray, size: int, d: int, op: str,
                  negative_ok: bool = True) -> np.ndarray:
    """``idx`` with negative indices wrapped (itself when none is: callers only read it); with
    ``negative_ok`` False a negative index is out of bounds (PyTorch's gather and scatter)."""
    if idx.size == 0:
        return idx
    if idx.dtype == np.int64 and int(idx.view(np.uint64).max()) < size:
        return idx  # one pass: a negative index reads as a huge unsigned one
    low = -size if negative_ok else 0
    if idx.min() < low or idx.max() >= size:
        bad = idx.max() if idx.max() >= size else idx.min()
        raise IndexOutOfRangeError(f"{op}(): index {bad} is out of bounds for dimension {d} with "
                                   f"size {size}")
    return np.where(idx < 0, idx + size, idx)


def _scatter_positions(self: Tensor, dim: int, index: Tensor, op: str,
                       negative_ok: bool = False) -> tuple[tuple[np.ndarray, ...], int]:
    idx = _index_array(index, op)
    a_ndim = max(self.ndim, 1)
    d = wrap_dim(dim, a_ndim, op)
    if idx.size == 0:  # PyTorch checks nothing more for an empty index: nothing is read or written
        return tuple(np.zeros(0, dtype=np.int64) for _ in range(a_ndim)), d
    if max(idx.ndim, 1) != a_ndim:  # as PyTorch, a 0-d tensor counts as 1-d here
        raise ShapeError(f"{op}(): Index tensor must have the same number of dimensions as "
                         f"input tensor")
    shape = self._shape or (1,)
    idx = _check_bounds(idx.reshape(idx.shape or (1,)), shape[d], d, op, negative_ok)
    for i, n in enumerate(idx.shape):
        if i != d and n > shape[i]:
            raise ShapeError(f"{op}(): Size does not match at dimension {i} expected index "
                             f"{list(index.shape)} to be smaller than self {list(shape)} apart "
                             f"from dimension {d}")
    grid = list(np.indices(idx.shape, sparse=True))
    grid[d] = idx
    return tuple(grid), d


@functools.lru_cache(maxsize=8)
def _row_offsets(rows: int, columns: int, row_stride: int) -> np.ndarray:
    """(rows, columns) int64 holding ``row * row_stride``: a same-shape add of it costs about
    two thirds of adding the (rows, 1) column, whose broadcast numpy loops over row by row."""
    offsets = np.repeat(np.arange(0, rows * row_stride, row_stride, dtype=np.int64), columns)
    offsets = offsets.reshape(rows, columns)
    offsets.flags.writeable = False
    return offsets


_ROW_OFFSETS_MAX = 1 << 18  # elements of a cached offsets array (2 MiB; 8 of them at most)


def _gather_rows(a: np.ndarray, idx: np.ndarray) -> np.ndarray | None:
    """``gather(a, -1, idx)`` of a C-contiguous 2-D ``a`` and int64 ``idx`` with no more rows,
    its entries all within the row (a negative one reads as a huge unsigned one): one flat
    take. None for any other case (the general path checks and raises)."""
    rows, columns = idx.shape
    if not (a.flags.c_contiguous and idx.dtype == np.int64 and 0 < rows <= a.shape[0]
            and np.maximum.reduce(idx.view(np.uint64), axis=None) < a.shape[1]):
        return None
    if idx.size <= _ROW_OFFSETS_MAX:
        flat = np.add(idx, _row_offsets(rows, columns, a.shape[1]))
    else:
        flat = idx + _row_starts(rows, a.shape[1])[:, None]
    return a.reshape(-1).take(flat)


@kernel("gather")
def gather(self: Tensor, dim: int, index: Tensor, sparse_grad: bool = False) -> Tensor:
    if len(self._shape) == 2 and len(index._shape) == 2 and dim in (1, -1) \
            and index.dtype is D.int64 and index._shape[1]:
        a, idx = host_view(self), host_view(index)
        picked = scatter.gather_last(a, idx)
        if picked is None:
            picked = _gather_rows(a, idx)
        if picked is not None:
            return WA(picked, self.dtype)
    pos, _ = _scatter_positions(self, dim, index, "gather")
    a = A(self).reshape(self._shape or (1,))
    return W(scatter.take_elements(a, pos).reshape(index._shape))


def _src_region(src: Any, index: Tensor) -> Any:
    if not isinstance(src, Tensor):
        return src
    s = A(src).reshape(src._shape or (1,))
    if index.numel() == 0:
        return s.reshape(-1)[:0]
    return s[tuple(slice(0, n) for n in (index._shape or (1,)))]


def _check_src_dtype(self: Tensor, src: Tensor) -> None:
    # PyTorch writes src into self without casting
    if src.dtype is not self.dtype:
        raise DTypeError("scatter(): Expected self.dtype to be equal to src.dtype")


@kernel("scatter.src")
def scatter_src(self: Tensor, dim: int, index: Tensor, src: Tensor) -> Tensor:
    _check_src_dtype(self, src)
    pos, _ = _scatter_positions(self, dim, index, "scatter")
    out = A(self).reshape(self._shape or (1,)).copy()
    out[pos] = _src_region(src, index)
    return W(out.reshape(self._shape))


@kernel("scatter.value")
def scatter_value(self: Tensor, dim: int, index: Tensor, value: Any) -> Tensor:
    pos, _ = _scatter_positions(self, dim, index, "scatter")
    out = A(self).reshape(self._shape or (1,)).copy()
    out[pos] = value.item() if isinstance(value, Tensor) else value
    return W(out.reshape(self._shape))


@kernel("scatter_add")
def scatter_add(self: Tensor, dim: int, index: Tensor, src: Tensor) -> Tensor:
    _check_src_dtype(self, src)
    pos, _ = _scatter_positions(self, dim, index, "scatter_add")
    out = A(self).reshape(self._shape or (1,)).copy()
    scatter.add_elements(out, pos, _src_region(src, index).astype(out.dtype, copy=False))
    return W(out.reshape(self._shape))


@kernel("gather_backward")
def gather_backward(grad_output: Tensor, self_sizes: Sequence[int], dim: int,
                    index: Tensor) -> Tensor:
    # zeros.scatter_add would copy the zeros first; here the values go straight into new zeros
    zeros = W(np.zeros(tuple(self_sizes), dtype=grad_output.dtype.numpy))
    if not (grad_output.numel() == 0 and index.numel() == 0) and (
            tuple(grad_output._shape or (1,)) != tuple(index._shape or (1,))):
        raise ShapeError(f"gather_backward(): grad_output of shape {list(grad_output.shape)} "
                         f"does not match the index of shape {list(index.shape)}")
    out = A(zeros).reshape(zeros._shape or (1,))
    if out.ndim == 2 and dim in (1, -1) and index.numel() and scatter.scatter_add_last(
            out, host_view(index), host_view(grad_output)):
        return zeros  # every index checked in range: nothing for _scatter_positions to check
    # internal: it wraps a negative index (gather itself, which PyTorch's takes, does not)
    pos, _ = _scatter_positions(zeros, dim, index, "gather_backward", negative_ok=True)
    if index.numel() == 0:
        return zeros
    scatter.add_elements(out, pos, A(grad_output).reshape(index._shape or (1,)))
    return zeros


@kernel("index_select")
def index_select(self: Tensor, dim: int, index: Tensor) -> Tensor:
    idx = _index_array(index, "index_select")
    if idx.ndim > 1:
        raise ShapeError("index_select(): Index is supposed to be a vector")
    a = A(self)
    d = wrap_dim(dim, a.ndim, "index_select")
    if a.ndim == 0:
        if idx.size != 1:
            raise ShapeError("index_select(): Index to scalar can have only 1 value, got "
                             f"{idx.size} value(s)")
        _check_bounds(idx.reshape(-1), 1, 0, "index_select")
        return W(a.copy())
    if d == 0:
        rows = scatter.take_rows(a, idx.reshape(-1))
        if rows is not None:
            return W(rows)
    idx = _check_bounds(idx.reshape(-1), a.shape[d], d, "index_select")
    return W(np.take(a, idx, axis=d))


@kernel("index_add")
def index_add(self: Tensor, dim: int, index: Tensor, source: Tensor, alpha: Any = 1) -> Tensor:
    check_index_add(self, wrap_dim(dim, self.ndim, "index_add"), index, source)
    idx = _index_array(index, "index_add").reshape(-1)
    out = A(self).copy()
    view = out.reshape(out.shape or (1,))
    d = wrap_dim(dim, view.ndim, "index_add")
    idx = _check_bounds(idx, view.shape[d], d, "index_add")
    src = A(source).reshape(source._shape or (1,)).astype(out.dtype, copy=False)
    expected = view.shape[:d] + (idx.size,) + view.shape[d + 1:]
    if src.shape != expected and not (source.ndim == 0 and idx.size == 1):
        raise ShapeError(f"index_add_(): source tensor shape must match self tensor shape, "
                         f"excluding the specified dimension. Got self.shape = "
                         f"{list(self.shape)} source.shape = {list(source.shape)}")
    if alpha != 1:
        src = src * alpha
    scatter.add_rows(np.moveaxis(view, d, 0), idx, np.moveaxis(src, d, 0))
    return W(out)


@kernel("index_select_backward")
def index_select_backward(grad_output: Tensor, self_sizes: Sequence[int], dim: int,
                          index: Tensor) -> Tensor:
    # zeros.index_add would copy the zeros first; here the slices go straight into new zeros
    idx = _index_array(index, "index_select").reshape(-1)
    sizes = tuple(self_sizes)
    out = np.zeros(sizes or (1,), dtype=grad_output.dtype.numpy)
    d = wrap_dim(dim, out.ndim, "index_select_backward")
    idx = _check_bounds(idx, out.shape[d], d, "index_select_backward")
    expected = out.shape[:d] + (idx.size,) + out.shape[d + 1:]
    if grad_output.numel() != math.prod(expected):
        raise ShapeError(f"index_select_backward(): grad_output of shape "
                         f"{list(grad_output.shape)} does not match {list(expected)} (self_sizes "
                         f"{list(sizes)} with {idx.size} indices along dim {d})")
    src = A(grad_output).reshape(expected)
    if d == 0 and scatter.add_rows_native(out, idx, src):
        return W(out.reshape(sizes))
    scatter.add_rows(np.moveaxis(out, d, 0), idx, np.moveaxis(src, d, 0), zeros=True)
    return W(out.reshape(sizes))


def _advanced_index(self: Tensor, indices: Sequence[Any], checked: bool = True
                    ) -> tuple[Any, ...]:
    """numpy's key for ``indices``; ``checked``: raise PyTorch's error for an index out of
    range here (unchecked, numpy's own bounds check raises IndexError, and ``index`` asks
    again with ``checked`` for the message: min/max cost more than the indexing itself)."""
    key = []
    for i, t in enumerate(indices):
        if t is None:
            key.append(slice(None))
            continue
        if t.dtype in (D.bool_, D.uint8):
            key.append(A(t).astype(np.bool_, copy=False))
        elif t.dtype.is_floating_point:
            raise DTypeError("tensors used as indices must be long, int, byte or bool tensors")
        else:
            arr = A(t).astype(np.int64, copy=False)
            if checked and i < self.ndim and arr.size:
                size = self._shape[i]
                if arr.max() >= size or arr.min() < -size:
                    bad = arr.max() if arr.max() >= size else arr.min()
                    raise IndexOutOfRangeError(f"index {bad} is out of bounds for dimension {i} "
                                               f"with size {size}")
            key.append(arr)
    return tuple(key)


@kernel("index.Tensor")
def index(self: Tensor, indices: Sequence[Any]) -> Tensor:
    if len(indices) == 1 and isinstance(indices[0], Tensor) and indices[0].dtype is D.bool_:
        picked = scatter.select_masked(A(self), A(indices[0]))  # x[mask], over the threads
        if picked is not None:
            return W(picked)
    try:
        return W(A(self)[_advanced_index(self, indices, checked=False)])
    except IndexError as exc:
        _advanced_index(self, indices)  # PyTorch's message for an index out of range
        raise IndexOutOfRangeError(str(exc)) from None


@kernel("index_put")
def index_put(self: Tensor, indices: Sequence[Any], values: Tensor, accumulate: bool = False
              ) -> Tensor:
    out = A(self).copy()
    key = _advanced_index(self, indices)
    vals = A(values).astype(out.dtype, copy=False)
    try:
        if accumulate:
            _accumulate_at(out, key, vals)
        else:
            out[key] = vals
    except (IndexError, ValueError) as exc:
        raise ShapeError(f"index_put: {exc}") from None
    return W(out)


def _accumulate_at(out: np.ndarray, key: tuple[Any, ...], values: np.ndarray) -> None:
    """``out[key] += values`` with repeated indices accumulating; one 1-d index array over the
    first dimension (``x[index]``'s backward) adds whole rows (see volta.backends.cpu.scatter)."""
    if (out.ndim and len(key) == 1 and isinstance(key[0], np.ndarray)
            and key[0].dtype == np.int64 and key[0].ndim == 1):
        index = key[0]
        rows = np.broadcast_to(values, index.shape + out.shape[1:])
        scatter.add_rows(out, np.where(index < 0, index + out.shape[0], index), rows)
    elif len(key) == 1 and scatter.add_masked(out, key[0], values):
        pass  # x[mask]'s backward: compiled, over the threads
    elif all(type(k) is slice or k.dtype == np.bool_ for k in key):
        # masks and slices pick each position once: a plain += adds what add.at would (and
        # x[mask]'s backward runs one vector pass instead of add.at's element-by-element loop)
        out[key] += values
    else:
        np.add.at(out, key, values)


def _bool_mask(mask: Tensor, op: str) -> np.ndarray:
    if mask.dtype is not D.bool_:
        raise DTypeError(f"{op} only supports boolean masks, but got mask with dtype "
                         f"{mask.dtype.name}")
    return A(mask)


@kernel("masked_fill")
@kernel("masked_fill.Tensor")
def masked_fill(self: Tensor, mask: Tensor, value: Any) -> Tensor:
    m = _bool_mask(mask, "masked_fill_")
    broadcast_shapes(self._shape, mask._shape)  # PyTorch's error when the shapes do not broadcast
    # the out-of-place form broadcasts self too; masked_fill_ rejects a larger shape when it
    # writes the result back
    if isinstance(value, Tensor):
        if value.ndim != 0:
            raise ShapeError("masked_fill_ only supports a 0-dimensional value tensor")
        value = value.item()
    else:
        value = checked_convert(value, self.dtype, "masked_fill")
    a = A(self)
    return W(_select(m, np.asarray(value).astype(a.dtype), a))


@kernel("masked_select")
def masked_select(self: Tensor, mask: Tensor) -> Tensor:
    m = _bool_mask(mask, "masked_select")
    shape = broadcast_shapes(self._shape, mask._shape)
    return W(np.broadcast_to(A(self), shape)[np.broadcast_to(m, shape)])


@kernel("masked_scatter")
def masked_scatter(self: Tensor, mask: Tensor, source: Tensor) -> Tensor:
    check_masked_scatter_dtypes(self, source)
    m = _bool_mask(mask, "masked_scatter_")
    shape = broadcast_shapes(self._shape, mask._shape)
    out = np.array(np.broadcast_to(A(self), shape))
    mb = np.broadcast_to(m, shape)
    k = int(mb.sum())
    src = A(source).reshape(-1)
    if src.size < k:
        raise ShapeError(f"masked_scatter: expected source to have at least {k} elements, got "
                         f"{src.size}")
    out[mb] = src[:k].astype(out.dtype, copy=False)
    return W(out)


@kernel("nonzero")
def nonzero(self: Tensor) -> Tensor:
    return WA(np.argwhere(A(self)), D.int64)


@kernel("one_hot")
def one_hot(self: Tensor, num_classes: int = -1) -> Tensor:
    if self.dtype is not D.int64:
        raise DTypeError("one_hot is only applicable to index tensor of type LongTensor.")
    idx = A(self)
    if num_classes == -1:
        num_classes = int(idx.max()) + 1 if idx.size else 0
    if idx.size:
        check_one_hot_classes(int(idx.min()), int(idx.max()), num_classes)
    return W((idx[..., None] == np.arange(num_classes)).astype(np.int64))


@kernel("unique")
def unique(self: Tensor, sorted: bool = True, return_inverse: bool = False,
           return_counts: bool = False, dim: int | None = None) -> Any:
    a = A(self)
    axis = None if dim is None else wrap_dim(dim, a.ndim, "unique", scalar_ok=False)
    values, inverse, counts = np.unique(a, return_inverse=True, return_counts=True, axis=axis)
    outputs = [W(values)]
    if return_inverse:
        outputs.append(WA(inverse.reshape(a.shape) if dim is None else inverse, D.int64))
    if return_counts:
        outputs.append(WA(counts, D.int64))
    return outputs[0] if len(outputs) == 1 else tuple(outputs)


@kernel("bincount")
def bincount(self: Tensor, weights: Tensor | None = None, minlength: int = 0) -> Tensor:
    check_bincount_input(self)
    w = None if weights is None else A(weights)
    y = np.bincount(A(self), weights=w, minlength=minlength)
    if weights is None:
        return WA(y, D.int64)
    return WA(y, weights.dtype if weights.dtype.is_floating_point else D.float64)


def _sorted_by(seq: np.ndarray, sorter: Tensor | None, shape: Sequence[int]) -> np.ndarray:
    """``seq`` in the order ``sorter`` gives (the boundaries as a sorted sequence)."""
    if sorter is None:
        return seq
    check_searchsorted_sorter(sorter, shape)
    order = A(sorter)
    if order.size and (order.min() < 0 or order.max() >= seq.shape[-1]):
        raise IndexOutOfRangeError("torch.searchsorted(): sorter index out of range")
    return np.take_along_axis(seq, order, axis=-1)


@kernel("searchsorted")
def searchsorted(sorted_sequence: Tensor, self: Any, out_int32: bool = False,
                 right: bool = False, side: str | None = None,
                 sorter: Tensor | None = None) -> Tensor:
    side = searchsorted_side(right, side)
    check_searchsorted_dtype(sorted_sequence, self)
    seq = _sorted_by(A(sorted_sequence), sorter, sorted_sequence.shape)
    vals = A(self) if isinstance(self, Tensor) else np.asarray(self)
    if seq.ndim > 1 and seq.shape[:-1] != vals.shape[:-1]:
        raise ShapeError(f"torch.searchsorted(): boundaries tensor should be 1 dimension or the "
                         f"first N-1 dimensions of boundaries tensor and input value tensor must "
                         f"match, but we got boundaries tensor {list(seq.shape)} and input value "
                         f"tensor {list(vals.shape)}")
    if seq.ndim == 1:
        y = np.searchsorted(seq, vals, side=side)
    else:
        flat_seq = seq.reshape(-1, seq.shape[-1])
        flat_vals = vals.reshape(flat_seq.shape[0], -1)
        y = np.stack([np.searchsorted(s, v, side=side) for s, v in zip(flat_seq, flat_vals)])
        y = y.reshape(vals.shape)
    return WA(y, D.int32 if out_int32 else D.int64)


# -- nn ----------------------------------------------------------------------------------------


def _softmax_input(self: Tensor, dim: int, dtype: Any, op: str) -> tuple[np.ndarray, D.dtype, int]:
    out = dtype or (self.dtype if self.dtype.is_floating_point else None)
    if out is None:
        raise DTypeError(f"{op}: not implemented for '{self.dtype.name}'")
    x = A(self).astype(_compute(out), copy=False)
    d = wrap_dim(dim, x.ndim, op)
    if x.ndim == 0:
        d = None
    return x, out, d


def _row_max(x: np.ndarray, d: int) -> np.ndarray:
    # initial=-inf: an empty softmax dim reduces to an empty result instead of numpy's error
    return np.max(x, axis=d, keepdims=True, initial=-np.inf)


@kernel("softmax")
def softmax(self: Tensor, dim: int, dtype: Any = None) -> Tensor:
    x, out, d = _softmax_input(self, dim, dtype, "softmax")
    if d is None:
        return WA(np.ones_like(x), out)
    rows = rowwise.last_dim_rows(x, d)
    if rows is not None:
        return WA(rowwise.softmax_rows(rows, log=False).reshape(x.shape), out)
    with np.errstate(all="ignore"):
        e = np.exp(x - _row_max(x, d))
        return WA(e / np.sum(e, axis=d, keepdims=True), out)


@kernel("log_softmax")
def log_softmax(self: Tensor, dim: int, dtype: Any = None) -> Tensor:
    x, out, d = _softmax_input(self, dim, dtype, "log_softmax")
    if d is None:
        return WA(np.zeros_like(x), out)
    rows = rowwise.last_dim_rows(x, d)
    if rows is not None:
        return WA(rowwise.softmax_rows(rows, log=True).reshape(x.shape), out)
    with np.errstate(all="ignore"):
        shifted = x - _row_max(x, d)
        return WA(shifted - np.log(np.sum(np.exp(shifted), axis=d, keepdims=True)), out)


def _softmax_grad_input(grad_output: Tensor, output: Tensor, dim: int, op: str
                        ) -> tuple[np.ndarray, np.ndarray, int | None]:
    dt = _compute(output.dtype)
    go, o = A(grad_output).astype(dt, copy=False), A(output).astype(dt, copy=False)
    if o.flags.c_contiguous and not go.flags.c_contiguous and go.shape == o.shape:
        go = strided_copy.copy_c_order(go)  # a broadcast gradient, for the row kernels
    return go, o, wrap_dim(dim, o.ndim, op) if o.ndim else None


@kernel("_softmax_backward_data")
def _softmax_backward_data(grad_output: Tensor, output: Tensor, dim: int,
                           input_dtype: Any) -> Tensor:
    go, o, d = _softmax_grad_input(grad_output, output, dim, "_softmax_backward_data")
    if d is None:  # softmax of a 0-d tensor is the constant 1
        return WA(np.zeros_like(o), input_dtype)
    rows, grad_rows = rowwise.last_dim_rows(o, d), rowwise.last_dim_rows(go, d)
    if rows is not None and grad_rows is not None and go.shape == o.shape:
        return WA(rowwise.softmax_backward_rows(grad_rows, rows, log=False).reshape(o.shape),
                  input_dtype)
    return WA(o * (go - np.sum(go * o, axis=d, keepdims=True)), input_dtype)


@kernel("_log_softmax_backward_data")
def _log_softmax_backward_data(grad_output: Tensor, output: Tensor, dim: int,
                               input_dtype: Any) -> Tensor:
    go, o, d = _softmax_grad_input(grad_output, output, dim, "_log_softmax_backward_data")
    if d is None:  # log_softmax of a 0-d tensor is the constant 0
        return WA(np.zeros_like(o), input_dtype)
    rows, grad_rows = rowwise.last_dim_rows(o, d), rowwise.last_dim_rows(go, d)
    if rows is not None and grad_rows is not None and go.shape == o.shape:
        return WA(rowwise.softmax_backward_rows(grad_rows, rows, log=True).reshape(o.shape),
                  input_dtype)
    with np.errstate(all="ignore"):
        return WA(go - np.exp(o) * np.sum(go, axis=d, keepdims=True), input_dtype)


def _conv_arrays(input: Tensor, weight: Tensor, bias: Tensor | None
                 ) -> tuple[np.ndarray, np.ndarray, np.ndarray | None, D.dtype]:
    check_conv(input, weight)
    c = _compute(input.dtype)
    return (A(input).astype(c, copy=False), A(weight).astype(c, copy=False),
            None if bias is None else A(bias).astype(c, copy=False), input.dtype)


@kernel("convolution")
def convolution(input: Tensor, weight: Tensor, bias: Tensor | None, stride: Sequence[int],
                padding: Sequence[int], dilation: Sequence[int], transposed: bool,
                output_padding: Sequence[int], groups: int) -> Tensor:
    x, w, b, dt = _conv_arrays(input, weight, bias)
    channels = w.shape[0] if transposed else w.shape[1] * groups
    if x.shape[1] != channels:
        raise ShapeError(f"Given groups={groups}, weight of size {list(weight.shape)}, expected "
                         f"input{list(input.shape)} to have {channels} channels, but got "
                         f"{x.shape[1]} channels instead")
    y = nn.convolution(x, w, b, list(stride), list(padding), list(dilation), transposed,
                       list(output_padding), groups)
    return WA(y, dt)


@kernel("convolution_backward")
def convolution_backward(grad_output: Tensor, input: Tensor, weight: Tensor,
                         stride: Sequence[int], padding: Sequence[int],
                         dilation: Sequence[int], transposed: bool,
                         output_padding: Sequence[int], groups: int, output_mask: Sequence[bool]
                         ) -> tuple[Any, Any, Any]:
    x, w, _, dt = _conv_arrays(input, weight, None)
    g = A(grad_output).astype(x.dtype, copy=False)
    gi, gw, gb = nn.convolution_backward(g, x, w, list(stride), list(padding), list(dilation),
                                         transposed, list(output_padding), groups,
                                         list(output_mask))
    return tuple(None if r is None else WA(r, dt) for r in (gi, gw, gb))  # type: ignore


@kernel("max_pool_with_indices")
def max_pool_with_indices(self: Tensor, kernel_size: Sequence[int], stride: Sequence[int],
                          padding: Sequence[int], dilation: Sequence[int], ceil_mode: bool
                          ) -> tuple[Tensor, Tensor]:
    out, idx = nn.max_pool_with_indices(A(self), list(kernel_size), list(stride or kernel_size),
                                        list(padding), list(dilation), ceil_mode)
    return WA(out, self.dtype), WA(idx, D.int64)


@kernel("max_pool_backward")
def max_pool_backward(grad_output: Tensor, self: Tensor, indices: Tensor) -> Tensor:
    g = nn.max_pool_backward(A(grad_output), A(self), A(indices), spatial_ndim=indices.ndim - 2)
    return WA(g, self.dtype)


@kernel("avg_pool")
def avg_pool(self: Tensor, kernel_size: Sequence[int], stride: Sequence[int],
             padding: Sequence[int], ceil_mode: bool, count_include_pad: bool,
             divisor_override: int | None) -> Tensor:
    y = nn.avg_pool(A(self), list(kernel_size), list(stride or kernel_size), list(padding),
                    ceil_mode, count_include_pad, divisor_override)
    return WA(y, self.dtype)


@kernel("avg_pool_backward")
def avg_pool_backward(grad_output: Tensor, self: Tensor, kernel_size: Sequence[int],
                      stride: Sequence[int], padding: Sequence[int], ceil_mode: bool,
                      count_include_pad: bool, divisor_override: int | None) -> Tensor:
    g = nn.avg_pool_backward(A(grad_output), A(self), list(kernel_size),
                             list(stride or kernel_size), list(padding), ceil_mode,
                             count_include_pad, divisor_override)
    return WA(g, self.dtype)


@kernel("adaptive_avg_pool")
def adaptive_avg_pool(self: Tensor, output_size: Sequence[int]) -> Tensor:
    return WA(nn.adaptive_avg_pool(A(self), list(output_size)), self.dtype)


@kernel("adaptive_avg_pool_backward")
def adaptive_avg_pool_backward(grad_output: Tensor, self: Tensor) -> Tensor:
    return WA(nn.adaptive_avg_pool_backward(A(grad_output), A(self)), self.dtype)


@kernel("adaptive_max_pool")
def adaptive_max_pool(self: Tensor, output_size: Sequence[int]) -> tuple[Tensor, Tensor]:
    out, idx = nn.adaptive_max_pool(A(self), list(output_size))
    return WA(out, self.dtype), WA(idx, D.int64)


@kernel("embedding")
def embedding(weight: Tensor, indices: Tensor, padding_idx: int = -1,
              scale_grad_by_freq: bool = False, sparse: bool = False) -> Tensor:
    if weight.ndim != 2:
        raise ShapeError("'weight' must be 2-D")
    idx = _index_array(indices, "embedding")
    picked = scatter.take_rows(A(weight), idx.reshape(-1))
    if picked is not None:
        return W(picked.reshape(idx.shape + picked.shape[1:]))
    rows = weight._shape[0]
    # one pass: a negative index reads as a huge unsigned one
    if idx.size and int(idx.view(np.uint64).max()) >= rows:
        raise IndexOutOfRangeError(f"embedding: index out of range in self (indices must be in "
                                   f"[0, {rows}), got {idx.min()}..{idx.max()})")
    return W(np.take(A(weight), idx, axis=0))  # take: faster than fancy indexing for rows


@kernel("embedding_backward")
def embedding_backward(grad_output: Tensor, indices: Tensor, num_weights: int, padding_idx: int,
                       scale_grad_by_freq: bool) -> Tensor:
    grad, idx = A(grad_output), A(indices).reshape(-1)
    width = grad.shape[-1] if grad.ndim else 1
    if (not scale_grad_by_freq and padding_idx < num_weights and idx.size
            and idx.dtype == np.int64 and grad.size == idx.size * width
            and scatter.summable(grad)):
        out = np.zeros((num_weights, width), grad.dtype)
        if scatter.add_rows_native(out, idx, grad.reshape(idx.size, width)):
            if padding_idx >= 0:
                out[padding_idx] = 0  # the padding row gets no gradient
            return W(out)
    g = nn.embedding_backward(A(grad_output), A(indices), num_weights,
                              None if padding_idx < 0 else padding_idx, scale_grad_by_freq)
    return WA(g, grad_output.dtype)


def _opt(t: Tensor | None, compute: Any = None) -> np.ndarray | None:
    if t is None:
        return None
    return A(t) if compute is None else A(t).astype(compute, copy=False)


@kernel("native_batch_norm")
def native_batch_norm(input: Tensor, weight: Tensor | None, bias: Tensor | None,
                      running_mean: Tensor | None, running_var: Tensor | None, training: bool,
                      momentum: float, eps: float) -> tuple[Tensor, Tensor, Tensor]:
    check_native_batch_norm(input, weight, bias, running_mean, running_var, training)
    # PyTorch's op takes a single value per channel (batch_norm, not this op, rejects it)
    stats_dtype = norm_stats_dtype(input, weight, bias, running_mean, running_var)
    out, mean_, invstd = nn.native_batch_norm(A(input), _opt(weight), _opt(bias),
                                              _opt(running_mean), _opt(running_var), training,
                                              momentum, eps, stats_dtype.numpy)
    if training:
        _bump(running_mean, running_var)  # updated in place
    return WA(out, input.dtype), WA(mean_, stats_dtype), WA(invstd, stats_dtype)


@kernel("native_batch_norm_backward")
def native_batch_norm_backward(grad_out: Tensor, input: Tensor, weight: Tensor | None,
                               running_mean: Tensor | None, running_var: Tensor | None,
                               save_mean: Tensor | None, save_invstd: Tensor | None, train: bool,
                               eps: float, output_mask: Sequence[bool]) -> tuple[Any, Any, Any]:
    res = nn.native_batch_norm_backward(A(grad_out), A(input), _opt(weight), _opt(running_mean),
                                        _opt(running_var), _opt(save_mean), _opt(save_invstd),
                                        train, eps, list(output_mask))
    return tuple(None if r is None else W(r) for r in res)  # type: ignore[return-value]


@kernel("native_layer_norm")
def native_layer_norm(input: Tensor, normalized_shape: Sequence[int], weight: Tensor | None,
                      bias: Tensor | None, eps: float) -> tuple[Tensor, Tensor, Tensor]:
    check_native_layer_norm(input, normalized_shape, weight, bias)
    c = _compute(input.dtype)
    out, mean_, rstd = nn.native_layer_norm(A(input).astype(c, copy=False), list(normalized_shape),
                                            _opt(weight, c), _opt(bias, c), eps)
    stats_dtype = norm_stats_dtype(input, weight, bias)
    return WA(out, input.dtype), WA(mean_, stats_dtype), WA(rstd, stats_dtype)


@kernel("native_layer_norm_backward")
def native_layer_norm_backward(grad_out: Tensor, input: Tensor, normalized_shape: Sequence[int],
                               mean: Tensor, rstd: Tensor, weight: Tensor | None,
                               bias: Tensor | None, output_mask: Sequence[bool],
                               eps: float = 1e-5) -> tuple[Any, Any, Any]:
    c = _compute(input.dtype)
    res = nn.native_layer_norm_backward(A(grad_out).astype(c, copy=False),
                                        A(input).astype(c, copy=False), list(normalized_shape),
                                        A(mean), A(rstd), _opt(weight, c), _opt(bias, c),
                                        list(output_mask))
    dts = (input.dtype, weight.dtype if weight is not None else input.dtype,
           bias.dtype if bias is not None else input.dtype)
    return tuple(None if r is None else WA(r, dt) for r, dt in zip(res, dts))  # type: ignore


@kernel("native_group_norm")
def native_group_norm(input: Tensor, weight: Tensor | None, bias: Tensor | None, N: int, C: int,
                      HxW: int, group: int, eps: float) -> tuple[Tensor, Tensor, Tensor]:
    if C % group:
        raise ShapeError(f"Expected number of channels in input to be divisible by num_groups, "
                         f"but got input of shape {list(input.shape)} and num_groups={group}")
    c = _compute(input.dtype)
    out, mean_, rstd = nn.native_group_norm(A(input).astype(c, copy=False), _opt(weight, c),
                                            _opt(bias, c), N, C, HxW, group, eps)
    return WA(out, input.dtype), W(mean_), W(rstd)


@kernel("native_group_norm_backward")
def native_group_norm_backward(grad_out: Tensor, input: Tensor, mean: Tensor, rstd: Tensor,
                               weight: Tensor | None, N: int, C: int, HxW: int, group: int,
                               output_mask: Sequence[bool], eps: float = 1e-5
                               ) -> tuple[Any, Any, Any]:
    c = _compute(input.dtype)
    res = nn.native_group_norm_backward(A(grad_out).astype(c, copy=False),
                                        A(input).astype(c, copy=False), A(mean), A(rstd),
                                        _opt(weight, c), N, C, HxW, group, list(output_mask))
    dts = (input.dtype, weight.dtype if weight is not None else input.dtype, input.dtype)
    return tuple(None if r is None else WA(r, dt) for r, dt in zip(res, dts))  # type: ignore


@kernel("multinomial")
def multinomial(self: Tensor, num_samples: int, replacement: bool = False,
                generator: Any = None) -> Tensor:
    from volta.tensor.factories import default_generator
    check_multinomial(self, num_samples, replacement)
    rng = (generator or default_generator()).numpy_rng
    probs = A(self).astype(np.float64)
    rows = probs.reshape(-1, probs.shape[-1])
    if (rows < 0).any() or not np.isfinite(rows).all():
        raise VoltaError("multinomial: probability tensor contains either inf, nan or element < 0")
    out = []
    for row in rows:
        total = row.sum()
        if total <= 0:
            raise VoltaError("multinomial: invalid multinomial distribution (sum of probabilities "
                             "<= 0)")
        if not replacement and num_samples > np.count_nonzero(row):
            raise VoltaError("multinomial: cannot sample n_sample > prob_dist.size(-1) samples "
                             "without replacement")
        out.append(rng.choice(row.size, size=num_samples, replace=replacement, p=row / total))
    y = np.asarray(out, dtype=np.int64)
    return W(y.reshape(probs.shape[:-1] + (num_samples,)))


def _nll_terms(self: Tensor, target: Tensor, weight: Tensor | None, reduction: str,
               ignore_index: int) -> tuple[np.ndarray, np.ndarray | None, int]:
    """The clamped class of each target (ignored ones read class 0), its weight (0 where
    ignored; None where every target counts with weight 1) and the class dim; a target outside
    the classes raises as PyTorch's CPU kernel."""
    if reduction not in ("none", "mean", "sum"):
        raise SchemaError(f"{reduction} is not a valid value for reduction")
    class_dim = 0 if self.ndim == 1 else 1
    classes = self._shape[class_dim]
    t = A(target).astype(np.int64, copy=False)
    # as unsigned, a negative class is above every valid one: one pass checks the range
    in_range = not t.size or t.view(np.uint64).max() < classes
    if in_range and not 0 <= ignore_index < classes:  # no target is ignored
        valid, every, safe = None, True, t
    else:
        valid = t != ignore_index
        every = bool(valid.all())
        safe = t if every else np.where(valid, t, 0)
        if safe.size and safe.view(np.uint64).max() >= classes:
            bad = safe[(safe < 0) | (safe >= classes)].reshape(-1)[0]
            raise IndexOutOfRangeError(f"Target {bad} is out of bounds.")
    dtype = A(self).dtype
    if weight is None:
        w = None if valid is None or every else valid.astype(dtype)
    else:
        w = A(weight).astype(dtype, copy=False)[safe]
        if valid is not None:
            w = np.where(valid, w, dtype.type(0))
    return safe, w, class_dim


_FLOAT_LOSS_DTYPES = (D.float32, D.float64)


@functools.lru_cache(maxsize=64)
def _row_starts(rows: int, columns: int) -> np.ndarray:
    """The flat index of each row's first entry in a C-contiguous (rows, columns) array."""
    starts = np.arange(0, rows * columns, columns, dtype=np.int64)
    starts.flags.writeable = False
    return starts


def _pick(x: np.ndarray, safe: np.ndarray, class_dim: int) -> np.ndarray:
    """``x``'s entry of each target's class (``safe``'s shape)."""
    if x.ndim == 1:
        return x[safe]
    if x.ndim == 2 and x.flags.c_contiguous:  # one take from the flat array
        return np.take(x.reshape(-1), safe + _row_starts(*x.shape))
    if x.ndim == 2:
        return x[np.arange(x.shape[0]), safe]
    picked = np.take_along_axis(x, np.expand_dims(safe, class_dim), class_dim)
    return picked.reshape(safe.shape)


def _nll_loss_plain(x: np.ndarray, t: np.ndarray, reduction: str, ignore_index: int
                    ) -> np.ndarray | None:
    """The loss of C-contiguous 2-D float log-probabilities, int64 targets, no class weights,
    a ``mean`` or ``sum`` reduction and every target a class that is not ``ignore_index``
    (a classifier's training step), in a few numpy calls; None for every other case."""
    rows, classes = x.shape
    if not (t.size and x.flags.c_contiguous and t.dtype == np.int64 and t.shape == (rows,)) \
            or reduction not in ("mean", "sum") or 0 <= ignore_index < classes:
        return None
    # as unsigned, a negative class is above every valid one: one pass checks the range
    if np.maximum.reduce(t.view(np.uint64)) >= classes:
        return None  # the general path raises PyTorch's error
    total = -np.add.reduce(x.reshape(-1).take(t + _row_starts(rows, classes)))
    return np.asarray(total / x.dtype.type(rows) if reduction == "mean" else total)


@kernel("mse_loss")
def mse_loss(self: Tensor, target: Tensor, reduction: str = "mean") -> Tensor:
    # below autograd only (the op differentiates through its composite): same-shape float32
    # operands are reduced in one pass instead of a difference, a square and a sum
    if (reduction in ("mean", "sum") and self.dtype is D.float32 and target.dtype is D.float32
            and self._shape == target._shape):
        loss = rowwise.squared_error(host_view(self), host_view(target), reduction == "mean")
        if loss is not None:
            return W(loss)
    return _mse_loss_composite(self, target, reduction)


def _compiled_nll(self: Tensor, target: Tensor, weight: Tensor | None, reduction: str
                  ) -> tuple[Any, np.ndarray, np.ndarray, np.ndarray | None] | None:
    """(kernels, log-probabilities, targets, class weights) for the compiled NLL kernels: 2-D
    C-contiguous float32 input, int64 targets of one per row, float32 weights or none; None
    where they do not apply (the numpy path runs)."""
    if (self.dtype is not D.float32 or len(self._shape) != 2 or target.dtype is not D.int64
            or reduction not in ("none", "mean", "sum")):
        return None
    x, t = host_view(self), host_view(target)
    w = None if weight is None else host_view(weight)
    kernels = rowwise.compiled(x, w)
    if kernels is None or t.shape != x.shape[:1] or not t.flags.c_contiguous:
        return None
    return kernels, x, t, w


@kernel("_nll_loss")
def nll_loss_fused(self: Tensor, target: Tensor, weight: Tensor | None, reduction: str,
                   ignore_index: int) -> Tensor:
    compiled = _compiled_nll(self, target, weight, reduction)
    if compiled is not None:
        kernels, x, t, w = compiled
        out = np.empty(x.shape[0], np.float32) if reduction == "none" else None
        sums = kernels.nll_loss(x, t, w, out, *x.shape, ignore_index, 1)
        if sums is not None:  # else a target is out of range: the general path raises
            if out is not None:
                return W(out)
            loss, total_weight = sums
            if reduction == "mean":
                if total_weight:
                    loss /= total_weight
                else:  # all ignored: 0 / 0 = nan, as PyTorch's
                    with np.errstate(divide="ignore", invalid="ignore"):
                        loss = np.float64(loss) / total_weight
            return W(np.array(loss, np.float32))
    if weight is None and len(self._shape) == 2 and self.dtype in _FLOAT_LOSS_DTYPES:
        loss = _nll_loss_plain(host_view(self), host_view(target), reduction, ignore_index)
        if loss is not None:
            return WA(loss, self.dtype)
    safe, w, class_dim = _nll_terms(self, target, weight, reduction, ignore_index)
    x = A(self)
    picked = _pick(x, safe, class_dim)
    if reduction == "none":
        return WA(np.negative(picked) if w is None else -(picked * w), self.dtype)
    total = -(np.add.reduce(picked, axis=None) if w is None
              else np.add.reduce(picked * w, axis=None))
    if reduction == "mean":
        if w is None and safe.size:
            total = total / x.dtype.type(safe.size)
        else:
            with np.errstate(divide="ignore", invalid="ignore"):  # all ignored: 0/0 = nan
                total = total / (x.dtype.type(0) if w is None else np.add.reduce(w, axis=None))
    return WA(np.asarray(total, dtype=x.dtype), self.dtype)


@kernel("_nll_loss_backward")
def nll_loss_fused_backward(grad_output: Tensor, self: Tensor, target: Tensor,
                            weight: Tensor | None, reduction: str, ignore_index: int) -> Tensor:
    compiled = _compiled_nll(self, target, weight, reduction)
    if compiled is not None and grad_output.dtype is D.float32:
        kernels, x, t, w = compiled
        g = host_view(grad_output)
        rows = g if reduction == "none" and g.shape == t.shape and g.flags.c_contiguous else None
        if rows is not None or g.ndim == 0:
            grad = np.zeros(x.shape, np.float32)
            scalar = 0.0 if rows is not None else float(g)
            if kernels.nll_loss_backward(t, w, rows, scalar, reduction == "mean", grad,
                                         *x.shape, ignore_index, 1):
                return W(grad)
    safe, w, class_dim = _nll_terms(self, target, weight, reduction, ignore_index)
    x = A(self)
    g = A(grad_output).astype(x.dtype, copy=False)
    if reduction == "mean":
        with np.errstate(divide="ignore", invalid="ignore"):
            g = g / (x.dtype.type(safe.size) if w is None else np.add.reduce(w, axis=None))
    values = np.negative(g) if w is None else np.negative(w * g)  # g is 0-d unless "none"
    if w is not None:  # an ignored target gets 0, also where g is nan (every target ignored)
        values = np.where(A(target) != ignore_index, values, x.dtype.type(0))
    grad = np.zeros(x.shape, dtype=x.dtype)
    if x.ndim == 1:
        grad[safe] = values
    elif x.ndim == 2:  # grad is C-contiguous: one put into the flat array
        grad.reshape(-1)[safe + _row_starts(*x.shape)] = values
    else:
        np.put_along_axis(grad, np.expand_dims(safe, class_dim),
                          np.expand_dims(np.broadcast_to(values, safe.shape), class_dim),
                          class_dim)
    return WA(grad, self.dtype)
