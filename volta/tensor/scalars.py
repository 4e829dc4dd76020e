"""Python numbers passed as a ``Scalar``: the range checks PyTorch applies to them.

Two rules, used by every op that takes a Scalar:

* ``check_scalar``: the argument parser takes an ``int`` only if it fits int64 or uint64
  (``int_tensor + 2**63`` wraps; ``+ 2**64`` is an error).
* ``checked_convert``: where a Scalar becomes one element of a tensor (``fill_``, ``full``,
  ``masked_fill``, add's ``alpha``, a float cast by ``tensor(..., dtype=int)``) the value must
  be representable in the dtype (PyTorch's ``c10::checked_convert``): NaN, inf and out-of-range
  numbers are errors for integer dtypes, finite numbers beyond the range are errors for float
  dtypes; negative integers wrap into unsigned dtypes.
"""

from __future__ import annotations

import functools
import math
from typing import Any

import ml_dtypes
import numpy as np

from volta import dtypes as D
from volta.errors import DTypeError, NumericOverflowError

_INT64_MIN, _UINT64_END = -(2 ** 63), 2 ** 64


def check_scalar(value: Any, op: str) -> Any:
    """``value`` unchanged if PyTorch's argument parser accepts it as a Scalar."""
    if type(value) is int and not _INT64_MIN <= value < _UINT64_END:
        raise NumericOverflowError(f"{op}: value cannot be converted to type int64 without "
                                   "overflow")
    return value


@functools.cache
def _limits(dtype: D.dtype) -> tuple[float, float]:
    if dtype.is_floating_point:
        info = ml_dtypes.finfo(dtype.numpy) if dtype is D.bfloat16 else np.finfo(dtype.numpy)
        return float(info.min), float(info.max)
    info = np.iinfo(dtype.numpy)
    return int(info.min), int(info.max)


def checked_convert(value: Any, dtype: D.dtype, op: str) -> Any:
    """``value`` as a number of ``dtype`` (a Python int/float/bool), or PyTorch's overflow error."""
    check_scalar(value, op)
    if dtype is D.bool_ or isinstance(value, (bool, np.bool_)):
        return value
    low, high = _limits(dtype)
    if isinstance(value, (int, np.integer)):
        value = int(value)
        if not dtype.is_floating_point and not dtype.is_signed and value < 0:
            fits = -value <= high  # wraps two's-complement style, as PyTorch allows
            value %= high + 1
        else:
            fits = low <= value <= high
    else:
        value = float(value)
        if dtype.is_floating_point:
            fits = not math.isfinite(value) or low <= value <= high
        else:
            fits = math.isfinite(value) and low <= value <= high
    if not fits:
        raise NumericOverflowError(f"{op}: value cannot be converted to type {dtype.name} "
                                   "without overflow")
    return value


# -- Python numbers as pointwise kernel operands (every backend's kernels follow these rules)

_HALF = (D.float16, D.bfloat16)
_F32 = np.dtype(np.float32)
# Note [half scalars]: PyTorch turns a Python number into a tensor of the computation's dtype
# before a pointwise kernel runs, so ``half_tensor + 0.1`` adds float16(0.1) (in float32).
# mul, div and floor_divide read the number at float32 ("opmath") precision instead.
_OPMATH_SCALAR_OPS = frozenset({"mul", "div", "floor_divide"})
# Scalar-typed arguments (``negative_slope``, ...) are read at float32 precision, except
# add's and sub's ``alpha``, which PyTorch converts (checked) to the result dtype.
_HALF_ALPHA_OPS = frozenset({"add", "sub"})
# Scalar arguments PyTorch converts (checked) to the computation's dtype first: an integral
# result truncates a float (addcmul(int8, ..., value=2.7) multiplies by 2), NaN or a number out
# of range is an overflow error
_CONVERTED_SCALAR_OPS = frozenset({"addcmul"})


def scalar_operand(op: str, value: Any, compute: np.dtype, dtype: D.dtype) -> Any:
    """A Python number as a kernel operand of numpy dtype ``compute`` for a result of
    ``dtype``: range-checked, wrapped for integer kernels, rounded to a half dtype first."""
    check_scalar(value, op)
    if isinstance(value, (bool, np.bool_)):
        return value
    if compute.kind in "iu" and isinstance(value, int):
        # integer tensors wrap around like PyTorch's (numpy refuses out-of-range scalars)
        return np.array(value).astype(compute)
    if dtype in _HALF and op not in _OPMATH_SCALAR_OPS and isinstance(value, (int, float)):
        with np.errstate(over="ignore"):  # a number beyond the half range is inf, as in PyTorch
            return np.asarray(value, dtype=dtype.numpy).astype(_F32)
    return value


def scalar_argument(op: str, value: Any, out_dtype: D.dtype) -> Any:
    """A Scalar-typed argument of a pointwise kernel (see Note [half scalars])."""
    if value.__class__ is int and value == 1:
        return value  # the default alpha: fits every dtype, and kernels test ``alpha == 1``
    if op in _HALF_ALPHA_OPS:
        check_alpha(op, value, out_dtype)
        compute = _F32 if out_dtype in _HALF else out_dtype.numpy
        alpha = scalar_operand(op, value, compute, out_dtype)
        if out_dtype is D.float32 and value != 1:
            # PyTorch computes a + alpha * b as one float32 fused multiply-add (half types
            # round the product first); a product of float32 numbers is exact in float64, so
            # float64 arithmetic rounds like the fused one
            return np.float64(np.float32(alpha))
        return alpha
    if op in _CONVERTED_SCALAR_OPS:
        target = D.float32 if out_dtype in _HALF else out_dtype
        value = checked_convert(value, target, op)
        if isinstance(value, float) and not target.is_floating_point and target is not D.bool_:
            return int(value)  # C++'s conversion: toward zero
        return value
    return check_scalar(value, op)


def check_alpha(op: str, alpha: Any, out_dtype: D.dtype) -> None:
    """add's and sub's ``alpha``: no bool alpha for a non-bool result, no floating alpha for
    an integral one, and representable in the result dtype (PyTorch's checks)."""
    if isinstance(alpha, (bool, np.bool_)) and out_dtype is not D.bool_:
        raise DTypeError(f"{op}: Boolean alpha only supported for Boolean results.")
    if isinstance(alpha, float) and not out_dtype.is_floating_point:
        raise DTypeError(f"{op}: For integral input tensors, argument alpha must not be a "
                         "floating point number.")
    checked_convert(alpha, out_dtype, op)
