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
from volta.errors import DTypeError
from volta.tensor.inplace import broadcast_shapes
from volta.tensor.tensor import Tensor

_HALF = (D.float16, D.bfloat16)
_F32 = np.dtype(np.float32)


def _result_type(operands: tuple) -> D.dtype:
    first = None
    for x in operands:
        if isinstance(x, Tensor):
            if first is None:
                first = x.dtype
            elif x.dtype is not first:
                return D.result_type(*operands)
        elif x is not None:
            return D.result_type(*operands)
    if first is None:
        raise DTypeError("expected at least one tensor operand")
    return first


def prepare(name: str, promotion: str, allowed: str | None, *operands: Any
            ) -> tuple[list[Any], D.dtype]:
    # fast path: tensors of one ordinary dtype and one shape need no casts and no checks
    first = operands[0]
    if promotion == "default" and type(first) is Tensor:
        dt = first.dtype
        if dt not in _HALF and (allowed is None or (allowed == "numeric" and dt is not D.bool_)):
            shape = first._shape
            arrays = []
            for x in operands:
                if type(x) is not Tensor or x.dtype is not dt or x._shape != shape:
                    break
                a = x._np
                arrays.append(a if a is not None else host_view(x))
            else:
                return arrays, dt
    promoted = _result_type(operands)
    if allowed is not None:
        if allowed == "integral_and_bool" and promoted.is_floating_point:
            raise DTypeError(f"{name}: not implemented for '{promoted.name}' (integral and bool "
                             "tensors only)")
        if allowed == "integral" and (promoted.is_floating_point or promoted is D.bool_):
            raise DTypeError(f"{name}: not implemented for '{promoted.name}' (integral tensors "
                             "only)")
        if allowed == "numeric" and any(isinstance(x, Tensor) and x.dtype is D.bool_
                                        for x in operands):
            raise DTypeError(f"{name}: not supported for bool tensors (use logical_xor() / "
                             "logical_not() / the ^ and ~ operators instead)")
        if allowed == "floating" and not promoted.is_floating_point:
            raise DTypeError(f"{name}: not implemented for '{promoted.name}' (floating point "
                             "tensors only)")
    if promotion == "int_to_float" and not promoted.is_floating_point:
        promoted = D.get_default_dtype()
    out = D.bool_ if promotion == "always_bool" else promoted
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
        elif compute.kind in "iu" and isinstance(x, int) and not isinstance(x, bool):
            # integer tensors wrap around like PyTorch's (numpy refuses out-of-range scalars)
            arrays.append(np.array(x).astype(compute))
        else:
            arrays.append(x)
    if mismatch:
        broadcast_shapes(*(x._shape for x in operands if isinstance(x, Tensor)))
    return arrays, out


def wrap(result: Any, out_dtype: D.dtype) -> Tensor:
    return _wrap_as(result, out_dtype)
