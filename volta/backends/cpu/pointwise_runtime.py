"""Shared prologue/epilogue of the generated pointwise numpy kernels.

``prepare`` applies PyTorch's type promotion (Python numbers are weak), checks broadcasting
with PyTorch's message, and returns arrays in the computation dtype (half types compute in
float32, like PyTorch's CPU "opmath"). ``wrap`` casts to the output dtype and makes a tensor.
"""

from __future__ import annotations

import functools
from typing import Any

import numpy as np

from volta import dtypes as D
from volta.backend import host_view
from volta.backends.cpu import native
from volta.backends.cpu.storage import wrap_as as _wrap_as
from volta.tensor.checks import check_integer_pow_by_number
from volta.tensor.inplace import broadcast_shapes
from volta.tensor.scalars import (  # noqa: F401 - scalar_argument: generated kernels' import
    checked_convert,
    scalar_argument,
    scalar_operand,
)
from volta.tensor.tensor import Tensor

_HALF = (D.float16, D.bfloat16)
_F32 = np.dtype(np.float32)

# Note [quiet numpy]
# numpy warns (or raises, under a caller's np.errstate) on log(0), x / 0, exp overflow;
# PyTorch's kernels just give inf or nan, so the kernels that may hit those run with every
# floating-point error ignored. ``with np.errstate(all="ignore")`` costs about 0.8 us a call,
# three times a small exp; numpy >= 2 keeps that state in a context variable, which
# ``quiet_on`` sets (returning a token) and ``quiet_off`` resets, for about 0.15 us. Older
# numpy enters an errstate instead.
try:
    from numpy._core._ufunc_config import _extobj_contextvar, _make_extobj
except ImportError:  # numpy < 2
    _extobj_contextvar = None

    def quiet_on() -> Any:
        state = np.errstate(all="ignore")
        state.__enter__()
        return state

    def quiet_off(state: Any) -> None:
        state.__exit__(None, None, None)
else:
    _QUIET = _make_extobj(all="ignore")
    quiet_on = functools.partial(_extobj_contextvar.set, _QUIET)
    quiet_off = _extobj_contextvar.reset
# tensor ** number: the exponent must be representable in the tensor's dtype
_CHECKED_EXPONENT_OPS = frozenset({"pow"})


# dtype categories that reject nothing but bool operands (the fast path skips their check)
_CHECKS_BOOL_ONLY = frozenset({"numeric", "non_bool_result", "non_bool_tensor_exponent"})


def prepare(name: str, promotion: str, allowed: str | None, *operands: Any
            ) -> tuple[list[Any], D.dtype]:
    # fast path: tensors of one ordinary dtype and one shape need no casts and no checks
    first = operands[0]
    if promotion == "default" and type(first) is Tensor:
        dt = first.dtype
        if dt not in _HALF and (allowed is None or (
                allowed in _CHECKS_BOOL_ONLY and dt is not D.bool_)) \
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
                check_integer_pow_by_number(promoted, x)
            arrays.append(scalar_operand(name, x, compute, promoted))
    if mismatch:
        broadcast_shapes(*(x._shape for x in operands if isinstance(x, Tensor)))
    return arrays, out


# a kernel's result array as a tensor of the output dtype: storage.wrap_as itself, not a
# function calling it (one frame less on every pointwise call)
wrap = _wrap_as

# prepare's fast path and quiet_on/off in C (Note [Compiled pointwise runtime] in
# native/runtime.c), handing back to the Python prepare above what they do not handle
python_prepare = prepare
_runtime = native.kernels("runtime")
if _runtime is not None and _extobj_contextvar is not None:
    _runtime.setup_prepare(python_prepare, _HALF, D.bool_, D.BOOL_TO_INT64_OPS,
                           _CHECKS_BOOL_ONLY, _extobj_contextvar, _QUIET)
    prepare = _runtime.prepare
    quiet_on, quiet_off = _runtime.quiet_on, _runtime.quiet_off
