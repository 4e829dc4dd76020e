"""The functions pointwise snippets in ops.yaml may call, for numpy.

Most are numpy's own; the rest are written to be stable where the naive formula is not
(``sigmoid``, ``log_sigmoid``) or to follow PyTorch where numpy differs.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from volta.backends.cpu import numpy_nn
from volta.backends.cpu.exp2_math import exp_scaled
from volta.tensor.checks import check_integer_division

exp = np.exp
exp2 = np.exp2
log = np.log
log2 = np.log2
log10 = np.log10
log1p = np.log1p
sqrt = np.sqrt
sin = np.sin
cos = np.cos
tan = np.tan
asin = np.arcsin
acos = np.arccos
atan = np.arctan
sinh = np.sinh
cosh = np.cosh
tanh = np.tanh
asinh = np.arcsinh
acosh = np.arccosh
atanh = np.arctanh
abs = np.abs
floor = np.floor
ceil = np.ceil
trunc = np.trunc
fmax = np.fmax
fmin = np.fmin
atan2 = np.arctan2
hypot = np.hypot
isnan = np.isnan
isinf = np.isinf
isfinite = np.isfinite
copysign = np.copysign
logical_not = np.logical_not
logical_and = np.logical_and
logical_or = np.logical_or
logical_xor = np.logical_xor
square = np.square
logaddexp = np.logaddexp
signbit = np.signbit
erf = numpy_nn.erf
erfc = numpy_nn.erfc
erfinv = numpy_nn.erfinv


_BITS = {np.dtype(np.float32): np.uint32, np.dtype(np.float64): np.uint64}


def _is_plain_zero(v: Any) -> bool:
    """A Python 0 or +0.0: numpy gives it the other operand's dtype (it is a weak scalar)."""
    return (type(v) is int or type(v) is float) and v == 0 and not math.copysign(1.0, v) < 0


# below this many elements the bit tricks' extra numpy calls cost more than the branches
# they save (np.where on a few elements is one call)
_BIT_TRICK_MIN = 2048


def _float_array(x: Any) -> bool:
    return type(x) is np.ndarray and x.dtype in _BITS and x.ndim > 0


# numpy's clip ufunc itself: ``np.clip`` is a Python wrapper around it costing about 1.3 us a
# call, more than the whole clip of a small array
_clip = getattr(getattr(getattr(np, "_core", None), "umath", None), "clip", None) or np.clip


def maximum(x: Any, y: Any) -> Any:
    """``np.maximum``; a float array against a number (relu) is a clip, which numpy runs about
    four times faster with the same result (nan stays nan, -0.0 stays -0.0 as in PyTorch)."""
    if _float_array(x) and _is_number(y):
        return _clip(x, x.dtype.type(y), x.dtype.type(np.inf))
    return np.maximum(x, y)


def minimum(x: Any, y: Any) -> Any:
    """``np.minimum``, a clip for a float array against a number (see ``maximum``)."""
    if _float_array(x) and _is_number(y):
        return _clip(x, x.dtype.type(-np.inf), x.dtype.type(y))
    return np.minimum(x, y)


def _is_number(v: Any) -> bool:
    return type(v) is int or type(v) is float


def where(condition: Any, x: Any, y: Any) -> Any:
    """``np.where``; between float arrays of the condition's shape, or a float array and a
    plain zero (relu's and friends' backward), it selects bits through a mask instead: a branch
    per element costs five to ten times more on unpredictable data, and the mask keeps where's
    exact result (nan, inf and -0.0 pass through unchanged). A condition that holds
    everywhere or nowhere (softplus below its threshold) copies one side instead."""
    if type(condition) is np.ndarray and condition.size < _BIT_TRICK_MIN:
        return np.where(condition, x, y)  # small: one call beats every check below
    if _float_array(x) and _float_array(y) and x.dtype == y.dtype and x.shape == y.shape \
            and type(condition) is np.ndarray and condition.shape == x.shape \
            and condition.dtype == np.bool_:
        true_count = np.count_nonzero(condition)
        if true_count in (0, condition.size):  # a copy: x or y may be an input's array
            return (x if true_count else y).copy()
        bits = _mask_bits(condition, x)
        if bits is not None:
            np.negative(bits, out=bits)  # True -> all ones, False -> 0
            chosen = np.bitwise_and(bits, x.view(bits.dtype))
            np.invert(bits, out=bits)
            np.bitwise_and(bits, y.view(bits.dtype), out=bits)
            return np.bitwise_or(bits, chosen, out=bits).view(x.dtype)
    if _is_plain_zero(y):
        bits = _mask_bits(condition, x)
        if bits is not None:
            # True -> all ones: keep x's bits; False -> 0
            return np.bitwise_and(np.negative(bits, out=bits), x.view(bits.dtype),
                                  out=bits).view(x.dtype)
    elif _is_plain_zero(x):
        bits = _mask_bits(condition, y)
        if bits is not None:
            # True -> 0; False -> all ones (unsigned wrap-around): keep y's bits
            return np.bitwise_and(np.subtract(bits, 1, out=bits), y.view(bits.dtype),
                                  out=bits).view(y.dtype)
    return np.where(condition, x, y)


def _mask_bits(condition: Any, values: Any) -> Any:
    """``condition`` as 0/1 unsigned integers of ``values``' width, or None where the fast
    path does not apply (other dtypes, broadcasting)."""
    if (type(values) is not np.ndarray or type(condition) is not np.ndarray
            or values.size < _BIT_TRICK_MIN):
        return None
    bits = _BITS.get(values.dtype)
    if bits is None or condition.dtype != np.bool_ or condition.shape != values.shape:
        return None
    # the memory is allocated as the float dtype, so the float view the callers return has an
    # owner of its own dtype (storage._owner keeps that owner as the storage's handle)
    mask = np.empty(condition.shape, values.dtype).view(bits)
    np.copyto(mask, condition.view(np.uint8))
    return mask


def floor_divide(a: Any, b: Any) -> Any:
    check_integer_division("div_floor_cpu", a, b)
    return np.floor_divide(a, b)


def remainder(a: Any, b: Any) -> Any:
    check_integer_division("remainder_cpu", a, b)
    return np.remainder(a, b)


def fmod(a: Any, b: Any) -> Any:
    check_integer_division("fmod_cpu", a, b)
    return np.fmod(a, b)


def rsqrt(x: Any) -> Any:
    if _float_array(x):
        root = np.sqrt(x)
        return np.divide(1, root, out=root)  # correctly rounded as reciprocal, twice as fast
    return 1 / np.sqrt(x)


def reciprocal(x: Any) -> Any:
    return 1 / x


# Note [float32 exp through exp2] is in exp2_math.py, with exp_scaled
_EXP2_TAIL = -11.0  # x below this: |x log2 e| > 15.9: the tail is recomputed with exp
_EXP2_TAIL_VALUE = float(np.exp(np.float32(_EXP2_TAIL)))  # exp of the tail's edge


def _one_plus_exp_neg(x: Any) -> Any:
    """``1 + exp(-x)`` of a float array as a new array, to full precision (inf where exp(-x)
    overflows)."""
    result = exp_scaled(x, -1.0)
    result += 1
    if x.dtype == np.float32 and x.size and not x.min() >= _EXP2_TAIL:  # a nan: look too
        tail = x < _EXP2_TAIL
        result[tail] = np.exp(np.negative(x[tail])) + 1
    return result
def sigmoid(x: Any) -> Any:
    """``1 / (1 + exp(-x))`` in the input's dtype, in place, as PyTorch computes it: full
    relative precision for negative x (exp(-x) overflowing to inf gives 0, as in PyTorch).
    ``np.divide(1, t)`` runs twice as fast as ``np.reciprocal(t)`` for float32."""
    if not _float_array(x):
        return np.exp(-np.logaddexp(0, -x))
    result = _one_plus_exp_neg(x)
    return np.divide(1, result, out=result)


def divide_by_one_plus_exp_neg(x: Any) -> Any:
    """``x / (1 + exp(-x))`` (silu: ``x * sigmoid(x)`` in one pass less) of a float array of at
    least one dimension; -0.0 where exp(-x) overflows, nan for -inf, as ``x * sigmoid(x)``."""
    result = _one_plus_exp_neg(x)
    return np.divide(x, result, out=result)


def expm1(x: Any) -> Any:
    """``exp(x) - 1``; numpy's ``expm1`` has no float32 vector loop (thirty times ``exp``'s
    cost), so float32 uses ``2t / (1 - t)`` with ``t = tanh(x / 2)`` (no cancellation for
    x <= 1, where 1 - t >= 0.53) and ``exp(x) - 1`` above 1 (where exp(x) - 1 >= e - 1).
    Where no element is above 1 (elu's and selu's negative parts), the exp pass is skipped."""
    if not (_float_array(x) and x.dtype == np.float32):
        return np.expm1(x)
    t = np.multiply(x, np.float32(0.5))
    np.tanh(t, out=t)
    denominator = np.subtract(np.float32(1), t)
    t += t
    t /= denominator
    if x.size and x.max() <= 1:  # a nan makes the max nan: the general path below
        return t
    large = np.exp(x)
    large -= 1
    return where(x > 1, large, t)


def log_sigmoid(x: Any) -> Any:
    if not _float_array(x):
        return -np.logaddexp(0, -x)
    result = softplus(np.negative(x))
    return np.negative(result, out=result)


def softplus(x: Any) -> Any:
    """``log(1 + exp(x))`` as ``max(x, 0) + log1p(exp(-|x|))``; numpy's ``logaddexp`` and
    ``log1p`` have no vector loops and cost ten times more than ``exp`` and ``log``, so the
    log1p is ``log(u) - ((u - 1) - e) / u`` with ``u = 1 + e``, which corrects the rounding of
    ``1 + e`` (exact to a few ulps; it gives ``e`` itself where ``1 + e`` rounds to 1)."""
    if not _float_array(x):
        return np.logaddexp(0, x)
    small = exp_scaled(np.abs(x), -1.0)  # e = exp(-|x|) in (0, 1]: never overflows
    if x.dtype == np.float32 and x.size and not small.min() >= _EXP2_TAIL_VALUE:
        tail = small < _EXP2_TAIL_VALUE  # e's relative error shows in softplus(x < -11)
        small[tail] = np.exp(np.negative(np.abs(x[tail])))
    u = small + 1
    result = np.log(u)
    correction = u - 1
    correction -= small
    correction /= u
    result -= correction
    result += maximum(x, 0)
    return result


def sign(x: Any) -> Any:
    if isinstance(x, np.ndarray) and x.dtype == np.bool_:
        return x
    if _float_array(x):
        # PyTorch's (0 < x) - (x < 0): sign(nan) is 0, where numpy's is nan; the difference
        # of the two masks as int8 (a quarter of the bytes), then one conversion
        positive = np.greater(x, 0).view(np.int8)
        return np.subtract(positive, np.less(x, 0).view(np.int8), out=positive).astype(x.dtype)
    if isinstance(x, np.ndarray) and x.dtype.kind == "f":
        return (x > 0).astype(x.dtype) - (x < 0).astype(x.dtype)
    return np.sign(x)


def round(x: Any, decimals: int = 0) -> Any:
    if isinstance(x, np.ndarray) and x.dtype.kind in "iub" and decimals >= 0:
        return x
    return np.round(x, decimals)


def frac(x: Any) -> Any:
    return x - np.trunc(x)


def xlogy(x: Any, y: Any) -> Any:
    with np.errstate(all="ignore"):
        result = x * np.log(y)
    return np.where((x == 0) & ~np.isnan(y), 0.0, result).astype(result.dtype, copy=False)


def pow(base: Any, exponent: Any) -> Any:
    if _float_array(base) and _is_number(exponent) and exponent == 2:
        return np.square(base)  # np.power has no fast path for a square
    if np.result_type(base, exponent).kind in "iu" and (np.asarray(exponent) < 0).any():
        return _integer_power_with_negatives(base, exponent)
    return np.power(base, exponent)


def _integer_power_with_negatives(base: Any, exponent: Any) -> Any:
    """PyTorch's integer pow by a tensor of exponents: a negative power is 1 for a base of 1,
    +-1 for a base of -1 and 0 otherwise (a negative Python-number exponent was rejected)."""
    negative = exponent < 0
    result = np.power(base, np.where(negative, 0, exponent).astype(np.result_type(exponent)))
    reciprocal = np.where(base == 1, 1, np.where(base == -1, np.where(exponent % 2 == 0, 1, -1), 0))
    return np.where(negative, reciprocal, result).astype(result.dtype, copy=False)
