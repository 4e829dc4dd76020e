"""dtypes and PyTorch's type-promotion rules.

A :class:`dtype` is a small immutable description backed by a numpy dtype (bfloat16 comes from
``ml_dtypes``). Promotion follows PyTorch: categories bool < integral < floating; tensors with
dimensions dominate zero-dim tensors, which dominate Python numbers, unless a lower group has a
higher category (``int_tensor + 2.5`` is float32, the default dtype).
"""

from __future__ import annotations

import threading
from typing import Any

import ml_dtypes
import numpy as np

from volta.errors import DTypeError

_BOOL, _INT, _FLOAT = 0, 1, 2


class dtype:  # noqa: N801 - PyTorch's public name
    """A tensor element type: ``volta.float32``, ``volta.int64``, ...."""

    __slots__ = ("name", "numpy", "itemsize", "category", "is_signed", "_rank")

    def __init__(self, name: str, numpy_dtype: Any, category: int, is_signed: bool, rank: int):
        self.name = name
        self.numpy = np.dtype(numpy_dtype)
        self.itemsize = self.numpy.itemsize
        self.category = category
        self.is_signed = is_signed
        self._rank = rank  # order inside the category, for promotion

    @property
    def is_floating_point(self) -> bool:
        return self.category == _FLOAT

    @property
    def is_complex(self) -> bool:
        return False

    def __repr__(self) -> str:
        return f"volta.{self.name}"

    def __reduce__(self) -> tuple:
        return (as_dtype, (self.name,))


float16 = dtype("float16", np.float16, _FLOAT, True, 0)
bfloat16 = dtype("bfloat16", ml_dtypes.bfloat16, _FLOAT, True, 0)
float32 = dtype("float32", np.float32, _FLOAT, True, 2)
float64 = dtype("float64", np.float64, _FLOAT, True, 3)
uint8 = dtype("uint8", np.uint8, _INT, False, 0)
int8 = dtype("int8", np.int8, _INT, True, 0)
int16 = dtype("int16", np.int16, _INT, True, 1)
int32 = dtype("int32", np.int32, _INT, True, 2)
int64 = dtype("int64", np.int64, _INT, True, 3)
bool_ = dtype("bool", np.bool_, _BOOL, False, 0)

ALL_DTYPES: tuple[dtype, ...] = (
    float32, float64, float16, bfloat16, int8, uint8, int16, int32, int64, bool_,
)
FLOATING_DTYPES: tuple[dtype, ...] = (float32, float64, float16, bfloat16)
_BY_NAME = {d.name: d for d in ALL_DTYPES}
_BY_NUMPY = {d.numpy: d for d in ALL_DTYPES}
# numpy dtype -> volta dtype, for hot paths that look up an array's dtype directly
BY_NUMPY: dict[np.dtype, dtype] = _BY_NUMPY
# PyTorch's aliases (volta.float, volta.long, ...)
ALIASES = {
    "float": float32, "double": float64, "half": float16, "long": int64, "int": int32,
    "short": int16, "bool": bool_,
}


def from_numpy_dtype(np_dtype: Any) -> dtype:
    """The volta dtype of a numpy dtype; a clear error for one volta does not have."""
    try:
        return _BY_NUMPY[np.dtype(np_dtype)]
    except (KeyError, TypeError):
        raise DTypeError(f"numpy dtype {np_dtype!r} has no volta equivalent; supported: "
                         f"{', '.join(d.name for d in ALL_DTYPES)}") from None


def as_dtype(value: Any) -> dtype:
    """Accept a volta dtype, its name, or a numpy dtype."""
    if isinstance(value, dtype):
        return value
    if isinstance(value, str):
        found = _BY_NAME.get(value) or ALIASES.get(value)
        if found is None:
            raise DTypeError(f"unknown dtype name {value!r}")
        return found
    if value is float:  # Python's float is a double, as in PyTorch
        return float64
    if value is int:
        return int64
    if value is bool:
        return bool_
    return from_numpy_dtype(value)


def dtype_argument(value: Any) -> dtype:
    """A user's ``dtype=`` argument: a volta dtype, or Python's ``float`` (float64), ``int``
    (int64) or ``bool``. Names and numpy dtypes are rejected, as PyTorch rejects them."""
    if isinstance(value, dtype):
        return value
    if value is float or value is int or value is bool:
        return as_dtype(value)
    raise DTypeError(f"argument 'dtype' must be volta.dtype, not {type(value).__name__}")


class _DefaultDtype(threading.local):
    value: dtype = float32


_default = _DefaultDtype()


def get_default_dtype() -> dtype:
    return _default.value


def set_default_dtype(d: dtype) -> None:
    d = as_dtype(d)
    if not d.is_floating_point:
        raise DTypeError(f"default dtype must be floating point, got {d}")
    _default.value = d


def promote_types(a: dtype, b: dtype) -> dtype:
    """The smallest dtype both ``a`` and ``b`` convert to (PyTorch's ``promote_types``)."""
    if a is b:
        return a
    if a.category != b.category:
        return a if a.category > b.category else b
    if a.category == _FLOAT:
        if a._rank == b._rank:  # float16 with bfloat16
            return float32
        return a if a._rank > b._rank else b
    if a.category == _INT:
        if a.is_signed == b.is_signed:
            return a if a._rank > b._rank else b
        signed = a if a.is_signed else b
        # uint8 fits only in a signed type wider than int8
        return int16 if signed is int8 else signed
    return a


def _combine(higher: dtype | None, lower: dtype | None) -> dtype | None:
    if higher is None:
        return lower
    if lower is None or higher.category == _FLOAT:
        return higher
    if higher.category == _BOOL or lower.category == _FLOAT:
        return promote_types(higher, lower)
    return higher


def scalar_dtype(value: Any) -> dtype:
    """The dtype a Python number takes as a wrapped number."""
    if isinstance(value, (bool, np.bool_)):
        return bool_
    if isinstance(value, (int, np.integer)):
        return int64
    if isinstance(value, (float, np.floating)):
        return get_default_dtype()
    raise DTypeError(f"expected a Tensor or a number, got {type(value).__name__}")


def result_type(*operands: Any) -> dtype:
    """PyTorch's result type of tensors (anything with ``dtype`` and ``ndim``) and numbers."""
    dim_result: dtype | None = None
    zero_result: dtype | None = None
    wrapped_result: dtype | None = None
    for x in operands:
        if x is None:
            continue
        d = getattr(x, "dtype", None)
        if isinstance(d, dtype):
            if x.ndim > 0:
                dim_result = d if dim_result is None else promote_types(dim_result, d)
            else:
                zero_result = d if zero_result is None else promote_types(zero_result, d)
        else:
            d = scalar_dtype(x)
            wrapped_result = d if wrapped_result is None else promote_types(wrapped_result, d)
    result = _combine(dim_result, _combine(zero_result, wrapped_result))
    if result is None:
        raise DTypeError("result_type needs at least one operand")
    return result


# square is PyTorch's pow(self, 2): a bool tensor to an int power gives int64
BOOL_TO_INT64_OPS = frozenset({"square"})


def _is_tensor(x: Any) -> bool:
    return isinstance(getattr(x, "dtype", None), dtype)


def _pointwise_result_type(operands: tuple) -> dtype:
    first = None
    for x in operands:
        if _is_tensor(x):
            if first is None:
                first = x.dtype
            elif x.dtype is not first:
                return result_type(*operands)
        elif x is not None:
            return result_type(*operands)
    if first is None:
        raise DTypeError("expected at least one tensor operand")
    return first


# ops whose bool rejection names the logical alternative, as PyTorch's messages do
_BOOL_ARITHMETIC_HINT = frozenset({"neg", "sub", "rsub"})
# pointwise ops whose tensor operands must all have the first one's dtype (PyTorch checks
# instead of promoting): the names of the operands after the first, for the message
SAME_DTYPE_OPERANDS = {"lerp": ("end", "weight"), "lerp_": ("end", "weight")}
# pointwise ops that divide the operands at these positions: PyTorch rejects them when all are
# integral (it removed the historic integer division), whatever the other operands are
QUOTIENT_OPERANDS = {"addcdiv": (1, 2), "addcdiv_": (1, 2)}
# the C++ names PyTorch's messages use for these dtypes
_CPP_NAMES = {"float64": "double", "float32": "float", "float16": "c10::Half",
              "bfloat16": "c10::BFloat16", "int64": "long int", "int32": "int"}


def _check_same_dtype(operands: tuple, names: tuple[str, ...]) -> None:
    first = operands[0]
    if not _is_tensor(first):
        return
    for name, x in zip(names, operands[1:]):
        if _is_tensor(x) and x.dtype is not first.dtype:
            want, got = (_CPP_NAMES.get(d.name, d.name) for d in (first.dtype, x.dtype))
            raise DTypeError(f"expected dtype {want} for `{name}` but got dtype {got}")


def pointwise_result_dtypes(name: str, promotion: str, allowed: str | None, operands: tuple
                            ) -> tuple[dtype, dtype]:
    """(computation dtype, result dtype) of pointwise op ``name`` applied to ``operands``
    (tensors, Python numbers, None), with PyTorch's type promotion and dtype checks.

    ``promotion`` and ``allowed`` are the op's ops.yaml ``promotion:`` and ``dtypes:`` fields
    (``volta.library.op(name).info.promotion`` / ``.dtypes``). Every backend's pointwise
    kernels call it (CPU, WGPU, plugins such as volta-numba), so all accept and reject the same
    calls: an input outside ``allowed`` raises :class:`volta.DTypeError`. Half types are
    returned as such; a backend computes them in float32 (PyTorch's "opmath") if it likes.
    """
    same = SAME_DTYPE_OPERANDS.get(name)
    if same is not None:
        _check_same_dtype(operands, same)
    quotient = QUOTIENT_OPERANDS.get(name)
    if quotient is not None and all(
            not (_is_tensor(operands[i]) and operands[i].dtype.is_floating_point)
            and not isinstance(operands[i], float) for i in quotient):
        raise DTypeError(f"Integer division with {name.rstrip('_')} is no longer supported, and "
                         f"in a future release {name.rstrip('_')} will perform a true division "
                         f"of tensor1 and tensor2.")
    promoted = _pointwise_result_type(operands)
    if same is not None and _is_tensor(operands[0]):
        # lerp computes in self's dtype: a float weight does not make an integer self floating
        promoted = operands[0].dtype
    if allowed is not None:
        if allowed == "non_bool_result" and promoted is bool_:
            raise DTypeError(f"{name}: not implemented for 'Bool'")
        if allowed == "non_bool_tensor_exponent" and promoted is bool_ and (
                _is_tensor(operands[1]) or not _is_tensor(operands[0])):
            # PyTorch's pow has a bool kernel only on its Scalar-exponent path
            raise DTypeError(f"\"{name}\" not implemented for 'Bool'")
        if allowed == "integral_and_bool" and promoted.is_floating_point:
            raise DTypeError(f"{name}: not implemented for '{promoted.name}' (integral and bool "
                             "tensors only)")
        if allowed == "integral" and (promoted.is_floating_point or promoted is bool_):
            raise DTypeError(f"{name}: not implemented for '{promoted.name}' (integral tensors "
                             "only)")
        # a Python bool operand is a bool tensor to PyTorch (t - False raises as t - t.bool())
        if allowed == "numeric" and any((_is_tensor(x) and x.dtype is bool_) or isinstance(
                x, (bool, np.bool_)) for x in operands):
            hint = (" (use logical_xor() / logical_not() / the ^ and ~ operators instead)"
                    if name in _BOOL_ARITHMETIC_HINT else "")
            raise DTypeError(f"{name}: not supported for bool tensors{hint}")
        if allowed == "floating" and not promoted.is_floating_point:
            raise DTypeError(f"{name}: not implemented for '{promoted.name}' (floating point "
                             "tensors only)")
    if promotion == "int_to_float" and not promoted.is_floating_point:
        promoted = get_default_dtype()
    out = bool_ if promotion == "always_bool" else promoted
    if out is bool_ and name in BOOL_TO_INT64_OPS:
        out = promoted = int64
    return promoted, out


def can_cast(source: dtype, target: dtype) -> bool:
    """PyTorch's ``can_cast``: no float to integral, no non-bool to bool."""
    return source.category <= target.category


class finfo:  # noqa: N801 - PyTorch's public name
    """Machine limits of a floating dtype."""

    def __init__(self, d: dtype | None = None):
        d = get_default_dtype() if d is None else as_dtype(d)
        if not d.is_floating_point:
            raise DTypeError(f"finfo needs a floating dtype, got {d}")
        info = ml_dtypes.finfo(d.numpy) if d is bfloat16 else np.finfo(d.numpy)
        self.dtype = d
        self.eps = float(info.eps)
        self.max = float(info.max)
        self.min = float(info.min)
        self.tiny = float(info.tiny)
        self.smallest_normal = self.tiny
        self.bits = d.itemsize * 8
        self.resolution = 10.0 ** -int(info.precision)


class iinfo:  # noqa: N801 - PyTorch's public name
    """Machine limits of an integral dtype."""

    def __init__(self, d: dtype):
        d = as_dtype(d)
        if d.category != _INT:
            raise DTypeError(f"iinfo needs an integral dtype, got {d}")
        info = np.iinfo(d.numpy)
        self.dtype = d
        self.max = int(info.max)
        self.min = int(info.min)
        self.bits = d.itemsize * 8
