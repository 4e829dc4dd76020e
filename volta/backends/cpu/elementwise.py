"""float32 add, sub, mul, div and neg through the compiled kernels (native/elementwise.c), out of
place and in place, in front of the generated numpy kernels.

The compiled loop runs where the operands have the shapes it handles: two C-contiguous float32
tensors of one shape, a float32 tensor and a Python number, or a tensor with a row vector
(``x + bias``) or a column vector (``x * scale[:, None]``) broadcast over it. Everything else
(other dtypes, other broadcasts, strided views, ``VOLTA_NATIVE=0``) runs the numpy kernel it
always did. Over numpy the loop saves a temporary (``x + alpha * y``), the scalar's array and,
on large tensors, splits the pass over the threads as PyTorch does.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from volta import dtypes as D
from volta._generated import registry as R
from volta.backend import host_view
from volta.backends.cpu import generated_pointwise, native, strided_copy
from volta.backends.cpu.kernel_table import kernel_table
from volta.backends.cpu.storage import wrap as W
from volta.tensor.inplace import check_writable_result
from volta.tensor.tensor import Tensor

KERNELS, kernel = kernel_table()

_native = native.kernels("elementwise")

# operation codes and operand modes of native/elementwise.c
ADD, SUB, MUL, DIV = 0, 1, 2, 3
FULL, ROW, COLUMN, SCALAR = 0, 1, 2, 3
_F32 = D.float32
_FLOAT32_MAX = float(np.finfo(np.float32).max)
_EXACT_INT = 2 ** 53
# Out of place, below this many elements numpy's loop is as fast and the operand analysis here
# would cost more than the loop saves (a tiny add is about 1 us in all): the compiled kernel
# pays from where the thread split does (native/elementwise.c splits from 64k elements).
NATIVE_MIN_ELEMENTS = 1 << 15


def _plain_number(value: Any) -> bool:
    """A Python int or float the kernel takes as it is: others (ints beyond int64, which PyTorch
    refuses; floats beyond float32's range; NaN) take the numpy path and its scalar checks."""
    kind = type(value)
    if kind is float:
        return -_FLOAT32_MAX <= value <= _FLOAT32_MAX
    return kind is int and -_EXACT_INT <= value <= _EXACT_INT


def _contiguous(t: Tensor) -> np.ndarray | None:
    """``t``'s float32 C-contiguous array, or None."""
    if t.dtype is not _F32:
        return None
    a = t._np
    if a is None:
        a = host_view(t)
    return a if a.flags.c_contiguous else None


def _vector_mode(small: tuple[int, ...], full: tuple[int, ...]) -> int | None:
    """How an operand of shape ``small`` broadcasts over ``full`` (its trailing sizes): ROW for
    ``(..., 1, C)``/``(C,)`` against ``(..., R, C)``, COLUMN for ``(..., R, 1)`` (size 1
    everywhere else), None otherwise."""
    if len(small) > len(full) or not full:
        return None
    lead = len(full) - len(small)
    padded = (1,) * lead + small
    if padded[-1] == full[-1] and all(s == 1 for s in padded[:-1]):
        return ROW
    if (padded[-1] == 1 and len(full) >= 2 and padded[-2] == full[-2]
            and all(s == 1 for s in padded[:-2]) and all(f == 1 for f in full[:-2])):
        return COLUMN
    return None


def _one_value(t: Tensor, shape: tuple[int, ...]) -> float | None:
    """The value of a float32 tensor that broadcasts to ``shape`` from one memory location (a
    one-element tensor, or a scalar expanded, as a sum's backward hands on its gradient), for
    the kernel's SCALAR mode; None otherwise."""
    if t.dtype is not _F32 or len(t._shape) > len(shape) or 0 in shape:
        return None
    lead = len(shape) - len(t._shape)
    if any(size not in (full, 1) for size, full in zip(t._shape, shape[lead:])):
        return None
    view = host_view(t)
    return float(view.flat[0]) if strided_copy.is_one_value(view) else None


def _operands(self: Any, other: Any) -> tuple[Any, int, Any, int, tuple[int, ...]] | None:
    """The compiled kernel's operands and modes for ``self op other``, and the result shape;
    None where it does not apply."""
    if type(self) is not Tensor:
        return None
    a = _contiguous(self)
    if a is None:
        if type(other) is not Tensor or (b := _contiguous(other)) is None:
            return None
        value = _one_value(self, other._shape)
        return None if value is None else (value, SCALAR, b, FULL, other._shape)
    shape = self._shape
    if type(other) in (int, float):
        if not _plain_number(other):
            return None
        return a, FULL, float(other), SCALAR, shape
    if type(other) is not Tensor:
        return None
    b = _contiguous(other)
    if b is None:
        value = _one_value(other, shape)
        return None if value is None else (a, FULL, value, SCALAR, shape)
    other_shape = other._shape
    if other_shape == shape:
        return a, FULL, b, FULL, shape
    mode = _vector_mode(other_shape, shape)
    if mode is not None:
        return a, FULL, b, mode, shape
    mode = _vector_mode(shape, other_shape)
    if mode is not None:
        return a, mode, b, FULL, other_shape
    return None


def _rows_cols(shape: tuple[int, ...], a_mode: int, b_mode: int) -> tuple[int, int]:
    """The result as rows x cols: one row unless an operand is a row or column vector."""
    numel = 1
    for size in shape:
        numel *= size
    if a_mode in (FULL, SCALAR) and b_mode in (FULL, SCALAR):
        return 1, numel
    return numel // shape[-1], shape[-1]


def native_binary(op: int, self: Any, other: Any, alpha: Any = 1) -> Tensor | None:
    """``self op alpha * other`` (alpha for add and sub) as a new float32 tensor, or None where
    the compiled kernel does not apply."""
    if _native is None or not _plain_number(alpha):
        return None
    found = _operands(self, other)
    if found is None or 0 in found[4]:
        return None
    a, a_mode, b, b_mode, shape = found
    rows, cols = _rows_cols(shape, a_mode, b_mode)
    out = np.empty(shape, np.float32)
    _native.binary(op, a, b, out, rows, cols, a_mode, b_mode, float(alpha), native.threads())
    return W(out)


def _native_inplace(op: int, self: Any, other: Any, alpha: Any = 1) -> bool:
    """``self op= alpha * other`` in ``self``'s memory; False where the compiled kernel does not
    apply (``self`` not the full result, ``other`` a different view of ``self``'s memory)."""
    if _native is None or not _plain_number(alpha):
        return False
    found = _operands(self, other)
    if found is None or found[1] != FULL or found[4] != self._shape or 0 in found[4]:
        return False
    a, a_mode, b, b_mode, shape = found
    if (type(other) is Tensor and other._storage is self._storage
            and not (other._offset == self._offset and other._shape == shape)):
        return False  # a shifted or smaller view of self: reads would see earlier writes
    rows, cols = _rows_cols(shape, a_mode, b_mode)
    _native.binary(op, a, b, a, rows, cols, a_mode, b_mode, float(alpha), native.threads())
    return True


def _write_back(op: Any, self: Tensor, value: Tensor) -> Tensor:
    """``value`` (the functional op's result) written into ``self``: what the generic in-place
    composite does, less its dispatched ``copy_`` (whose version bump would be a second one:
    this kernel's dispatch bumps ``self``'s version)."""
    check_writable_result(op, self, value)
    host_view(self)[...] = host_view(value)
    return self


def large_operands(self: Any, other: Any = None) -> bool:
    """Whether an operand's memory holds at least NATIVE_MIN_ELEMENTS (two attribute reads: the
    test every tiny call pays)."""
    return ((self.__class__ is Tensor and self._storage.numel >= NATIVE_MIN_ELEMENTS)
            or (other.__class__ is Tensor and other._storage.numel >= NATIVE_MIN_ELEMENTS))


@kernel("add")
def add(self: Any, other: Any, alpha: Any = 1) -> Tensor:
    out = native_binary(ADD, self, other, alpha) if large_operands(self, other) else None
    return out if out is not None else generated_pointwise.add(self, other, alpha)


@kernel("sub")
def sub(self: Any, other: Any, alpha: Any = 1) -> Tensor:
    out = native_binary(SUB, self, other, alpha) if large_operands(self, other) else None
    return out if out is not None else generated_pointwise.sub(self, other, alpha)


@kernel("mul")
def mul(self: Any, other: Any) -> Tensor:
    out = native_binary(MUL, self, other) if large_operands(self, other) else None
    return out if out is not None else generated_pointwise.mul(self, other)


@kernel("neg")
def neg(self: Any) -> Tensor:
    if _native is not None and large_operands(self):
        a = _contiguous(self)
        if a is not None:
            out = np.empty(a.shape, np.float32)
            _native.neg(a, out, native.threads())
            return W(out)
    return generated_pointwise.neg(self)


@kernel("add_")
def add_(self: Tensor, other: Any, alpha: Any = 1) -> Tensor:
    if _native_inplace(ADD, self, other, alpha):
        return self
    return _write_back(R.add_, self, R.add(self, other, alpha))


@kernel("sub_")
def sub_(self: Tensor, other: Any, alpha: Any = 1) -> Tensor:
    if _native_inplace(SUB, self, other, alpha):
        return self
    return _write_back(R.sub_, self, R.sub(self, other, alpha))


@kernel("mul_")
def mul_(self: Tensor, other: Any) -> Tensor:
    if _native_inplace(MUL, self, other):
        return self
    return _write_back(R.mul_, self, R.mul(self, other))


@kernel("div_")
def div_(self: Tensor, other: Any, rounding_mode: str | None = None) -> Tensor:
    if rounding_mode is None and _native_inplace(DIV, self, other):
        return self
    return _write_back(R.div_, self, R.div(self, other, rounding_mode))


@kernel("neg_")
def neg_(self: Tensor) -> Tensor:
    if _native is not None:
        a = _contiguous(self)
        if a is not None:
            _native.neg(a, a, native.threads())
            return self
    return _write_back(R.neg_, self, R.neg(self))
