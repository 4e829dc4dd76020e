"""Shared prologue/epilogue of the generated pointwise numpy kernels.

``prepare`` applies PyTorch's type promotion (Python numbers are weak), checks broadcasting
with PyTorch's message, and returns arrays in the computation dtype (half types compute in
float32, like PyTorch's CPU "opmath"). ``wrap`` casts to the output dtype and makes a tensor.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from volta import dtypes as D
from volta.backend import host_view
from volta.backends.cpu.storage import wrap_as as _wrap_as
from volta.tensor.checks import check_alpha
from volta.tensor.inplace import broadcast_shapes
from volta.tensor.scalars import check_scalar, checked_convert
from volta.tensor.tensor import Tensor

_HALF = (D.float16, D.bfloat16)
_F32 = np.dtype(np.float32)
# Note [half scalars]: PyTorch turns a Python number into a tensor of the computation's dtype
# before a pointwise kernel runs, so ``half_tensor + 0.1`` adds float16(0.1) (in float32).
# mul, div and floor_divide read the number at float32 ("opmath") precision instead.
_OPMATH_SCALAR_OPS = frozenset({"mul", "div", "floor_divide"})
# Scalar-typed arguments (``negative_slope``, ...) are read at float32 precision, except
# add's and sub's ``alpha``, which PyTorch converts (checked) to the result dtype.
_HALF_ALPHA_OPS = frozenset({"add", "sub"})
# tensor ** number: the exponent must be representable in the tensor's dtype
_CHECKED_EXPONENT_OPS = frozenset({"pow"})


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
    return check_scalar(value, op)


def prepare(name: str, promotion: str, allowed: str | None, *operands: Any
            ) -> tuple[list[Any], D.dtype]:
    # fast path: tensors of one ordinary dtype and one shape need no casts and no checks
    first = operands[0]
    if promotion == "default" and type(first) is Tensor:
        dt = first.dtype
        if dt not in _HALF and (allowed is None or (allowed == "numeric" and dt is not D.bool_)) \
                and not (dt is D.bool_ and name in D.BOOL_TO_INT64_OPS):
            shape = first._shape
            arrays = []
            for x in operands:
                if type(x) is not Tensor or x.dtype is not dt or x._shape != shape:
                    break
                a = x._np
                arrays.append(a if a is not None else host_view(x))
            else:
                return arrays, dt
    promoted, out = D.pointwise_result_dtypes(name, promotion, allowed, operands)
    compute = _F32 if promoted in _HALF else promoted.numpy
    arrays: list[Any] = []
    shape = None
    mismatch = False
    for x in operands:
        if isinstance(x, Tensor):
            a = host_view(x)
            if a.dtype != compute:
                a = a.astype(compute)
            if shape is None:
                shape = x._shape
            elif x._shape != shape:
                mismatch = True
            arrays.append(a)
        elif x is None:
            arrays.append(x)
        else:
            if name in _CHECKED_EXPONENT_OPS and len(arrays) == 1:
                checked_convert(x, promoted, name)
            arrays.append(scalar_operand(name, x, compute, promoted))
    if mismatch:
        broadcast_shapes(*(x._shape for x in operands if isinstance(x, Tensor)))
    return arrays, out


# a kernel's result array as a tensor of the output dtype: storage.wrap_as itself, not a
# function calling it (one frame less on every pointwise call)
wrap = _wrap_as
