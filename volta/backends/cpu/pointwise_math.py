"""The functions pointwise snippets in ops.yaml may call, for numpy.

Most are numpy's own; the rest are written to be stable where the naive formula is not
(``sigmoid``, ``log_sigmoid``) or to follow PyTorch where numpy differs.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from volta.backends.cpu import numpy_nn
from volta.errors import DTypeError, InvalidOperationError

exp = np.exp
exp2 = np.exp2
expm1 = np.expm1
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
where = np.where
maximum = np.maximum
minimum = np.minimum
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


def check_integer_division(kernel_name: str, a: Any, b: Any) -> None:
    """PyTorch's integer division rules: no bool kernel, and a zero divisor is an error.

    numpy returns 0 for an integer division by zero; PyTorch raises. An empty result
    divides nothing, so it never raises.
    """
    a_kind, b_kind = np.asarray(a).dtype.kind, np.asarray(b).dtype.kind
    if a_kind == "b" and b_kind == "b":
        raise DTypeError(f'"{kernel_name}" not implemented for \'Bool\'')
    if a_kind in "iub" and b_kind in "iub" and np.broadcast(a, b).size and np.any(
            np.asarray(b) == 0):
        raise InvalidOperationError("ZeroDivisionError")


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
    return 1 / np.sqrt(x)


def reciprocal(x: Any) -> Any:
    return 1 / x


def sigmoid(x: Any) -> Any:
    # exp(-log(1 + exp(-x))) keeps full relative precision for large negative x
    return np.exp(-np.logaddexp(0, -x))


def log_sigmoid(x: Any) -> Any:
    return -np.logaddexp(0, -x)


def softplus(x: Any) -> Any:
    return np.logaddexp(0, x)


def sign(x: Any) -> Any:
    if isinstance(x, np.ndarray) and x.dtype == np.bool_:
        return x
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
    b = np.asarray(base)
    e = np.asarray(exponent)
    if b.dtype.kind in "iu" and e.dtype.kind in "iu" and (e < 0).any():
        raise DTypeError("Integers to negative integer powers are not allowed.")
    return np.power(base, exponent)
