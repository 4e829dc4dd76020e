"""Scalar functions that the translated pointwise snippets call (``_m.<name>(...)``).

Each is compiled by numba for the argument types it meets: float32/float64, int64 (every
integer dtype computes in int64) or bool. numpy's ufuncs work on scalars inside numba with
numpy's semantics (NaN propagation, signed zeros), so most names map straight onto one; the
rest are written out here with the same formulas as volta's CPU kernels.
"""

from __future__ import annotations

import math
from typing import Any

import numba
import numpy as np
from numba import types
from numba.extending import overload

_jit = numba.njit(cache=True, error_model="numpy", inline="always")

# one name in a snippet -> the numpy ufunc that computes it on a scalar
UFUNCS = {
    "exp": np.exp, "exp2": np.exp2, "expm1": np.expm1, "log": np.log, "log2": np.log2,
    "log10": np.log10, "log1p": np.log1p, "sqrt": np.sqrt, "sin": np.sin, "cos": np.cos,
    "tan": np.tan, "asin": np.arcsin, "acos": np.arccos, "atan": np.arctan, "sinh": np.sinh,
    "cosh": np.cosh, "tanh": np.tanh, "floor": np.floor, "ceil": np.ceil, "trunc": np.trunc,
    "sign": np.sign, "isnan": np.isnan, "isinf": np.isinf, "isfinite": np.isfinite,
    "signbit": np.signbit, "copysign": np.copysign, "hypot": np.hypot, "atan2": np.arctan2,
    "fmax": np.fmax, "fmin": np.fmin, "maximum": np.maximum, "minimum": np.minimum,
    "remainder": np.remainder, "floor_divide": np.floor_divide,
    "logaddexp": np.logaddexp, "pow": np.power,
}


def invert(x: Any) -> Any:
    """``~x``: bitwise not of an integer, logical not of a bool (numba's ``~True`` is -2)."""


@overload(invert, inline="always")
def _invert(x: Any) -> Any:
    # the implementations' signatures must equal the stub's, annotations included
    def logical(x: Any) -> Any:
        return not x

    def bitwise(x: Any) -> Any:
        return ~x

    return logical if isinstance(x, types.Boolean) else bitwise


@_jit
def abs_(x: Any) -> Any:
    return abs(x)


@_jit
def rsqrt(x: Any) -> Any:
    return 1.0 / np.sqrt(x)


@_jit
def reciprocal(x: Any) -> Any:
    return 1.0 / x


@_jit
def frac(x: Any) -> Any:
    return x - np.trunc(x)


@_jit
def sigmoid(x: Any) -> Any:
    return 1.0 / (1.0 + np.exp(-x))


@_jit
def softplus(x: Any) -> Any:
    # max(x, 0) + log(1 + exp(-|x|)) never overflows
    return np.maximum(x, 0.0) + np.log1p(np.exp(-abs(x)))


@_jit
def log_sigmoid(x: Any) -> Any:
    return np.minimum(x, 0.0) - np.log1p(np.exp(-abs(x)))


@_jit
def xlogy(x: Any, y: Any) -> Any:
    if x == 0 and not np.isnan(y):
        return 0.0 * x
    return x * np.log(y)


@_jit
def round_(x: Any, decimals: Any) -> Any:
    # np.rint rounds half to even, like PyTorch
    if decimals == 0:
        return np.rint(x)
    scale = 10.0 ** decimals
    return np.rint(x * scale) / scale


@_jit
def erf(x: Any) -> Any:
    return math.erf(x)


@_jit
def erfc(x: Any) -> Any:
    return math.erfc(x)


@_jit
def erfinv(y: Any) -> Any:
    if np.isnan(y) or y < -1.0 or y > 1.0:
        return np.nan
    if y == 1.0 or y == -1.0:
        return y * np.inf
    # Giles' single-precision approximation, then two Newton steps on erf(x) = y in float64
    w = -math.log((1.0 - y) * (1.0 + y))
    if w < 5.0:
        w -= 2.5
        p = 2.81022636e-08
        for c in (3.43273939e-07, -3.5233877e-06, -4.39150654e-06, 0.00021858087,
                  -0.00125372503, -0.00417768164, 0.246640727, 1.50140941):
            p = c + p * w
    else:
        w = math.sqrt(w) - 3.0
        p = -0.000200214257
        for c in (0.000100950558, 0.00134934322, -0.00367342844, 0.00573950773,
                  -0.0076224613, 0.00943887047, 1.00167406, 2.83297682):
            p = c + p * w
    x = p * y
    for _ in range(2):
        x -= (math.erf(x) - y) / (1.1283791670955126 * math.exp(-x * x))
    return x


def trunc_divide(a: Any, b: Any) -> Any:
    """Division rounded toward zero; exact for integers (no detour through float)."""


@overload(trunc_divide, inline="always")
def _trunc_divide(a: Any, b: Any) -> Any:
    def floating(a: Any, b: Any) -> Any:
        return np.trunc(a / b)

    if isinstance(a, types.Float) or isinstance(b, types.Float):
        return floating

    def integer(a: Any, b: Any) -> Any:
        quotient = np.floor_divide(a, b)
        if quotient < 0 and quotient * b != a:
            return quotient + 1
        return quotient
    return integer


def fmod(a: Any, b: Any) -> Any:
    """C's fmod: the remainder of division rounded toward zero (sign of ``a``)."""


@overload(fmod, inline="always")
def _fmod(a: Any, b: Any) -> Any:
    def floating(a: Any, b: Any) -> Any:
        return np.fmod(a, b)

    # numba's integer np.fmod takes the sign of the divisor; PyTorch's follows the dividend
    def integer(a: Any, b: Any) -> Any:
        if b == 0:
            return b
        return a - b * trunc_divide(a, b)

    return floating if isinstance(a, types.Float) or isinstance(b, types.Float) else integer


@_jit
def where(condition: Any, a: Any, b: Any) -> Any:
    return a if condition else b


@_jit
def logical_not(x: Any) -> Any:
    return not x


@_jit
def logical_and(a: Any, b: Any) -> Any:
    return (a != 0) and (b != 0)


@_jit
def logical_or(a: Any, b: Any) -> Any:
    return (a != 0) or (b != 0)


@_jit
def logical_xor(a: Any, b: Any) -> Any:
    return (a != 0) != (b != 0)


# names whose Python spelling is taken (abs, round) map onto the functions above
RENAMED = {"abs": "abs_", "round": "round_"}
