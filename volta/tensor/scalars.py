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
from volta.errors import NumericOverflowError

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
