"""Writing an op's result into an existing tensor (in-place ops, ``out=``)."""

from __future__ import annotations

from typing import Any

from volta import dtypes as D
from volta._generated import registry as R
from volta.errors import DTypeError, InvalidOperationError, ShapeError

# PyTorch's ScalarType names, so messages read like the ones users already know
_TORCH_NAMES = {"float32": "Float", "float64": "Double", "float16": "Half",
                "bfloat16": "BFloat16", "int64": "Long", "int32": "Int", "int16": "Short",
                "int8": "Char", "uint8": "Byte", "bool": "Bool"}


def broadcast_shapes(*shapes: tuple[int, ...]) -> tuple[int, ...]:
    """PyTorch's broadcasting; the error names the mismatching sizes and dimension."""
    ndim = max((len(s) for s in shapes), default=0)
    result = [1] * ndim
    for s in shapes:
        for i, size in enumerate(s):
            j = ndim - len(s) + i
            if size == result[j] or size == 1:
                continue
            if result[j] == 1:
                result[j] = size
                continue
            raise ShapeError(f"The size of tensor a ({result[j]}) must match the size of tensor "
                             f"b ({size}) at non-singleton dimension {j}")
    return tuple(result)


def check_no_internal_overlap(self: Any, op: str) -> None:
    """PyTorch's rule for a written-to tensor: no two of its elements share memory.

    An expanded dim (stride 0, size > 1) is the overlap PyTorch detects; writing through it
    would make the result depend on the order elements are written. An empty tensor has no
    elements to share memory (PyTorch counts it as dense).
    """
    shape = self._shape
    if 0 not in shape and any(stride == 0 and size > 1
                              for size, stride in zip(shape, self._stride)):
        raise InvalidOperationError(f"{op}: unsupported operation: more than one element of the "
                                    "written-to tensor refers to a single memory location. "
                                    "Please clone() the tensor before performing the operation.")


def write_result(op: Any, self: Any, value: Any) -> Any:
    """Copy ``value`` into ``self`` after checking PyTorch's in-place rules."""
    check_writable_result(op, self, value)
    R.copy_(self, value, False)
    return self


def check_writable_result(op: Any, self: Any, value: Any) -> None:
    """PyTorch's rules for writing ``value``, an op's result, into ``self``."""
    check_no_internal_overlap(self, op.name)
    if not D.can_cast(value.dtype, self.dtype):
        raise DTypeError(f"{op.name}: result type {_TORCH_NAMES[value.dtype.name]} can't be "
                         f"cast to the desired output type {_TORCH_NAMES[self.dtype.name]}")
    if tuple(value._shape) != tuple(self._shape):
        if broadcast_shapes(tuple(self._shape), tuple(value._shape)) != tuple(self._shape):
            raise ShapeError(f"{op.name}: output with shape {list(self._shape)} doesn't match "
                             f"the broadcast shape "
                             f"{list(broadcast_shapes(tuple(self._shape), tuple(value._shape)))}")


def generic_inplace(op: Any, functional: Any) -> Any:
    """``op_(self, ...)`` as ``functional(self, ...)`` written back into ``self``."""
    def inplace(self: Any, *rest: Any) -> Any:
        return write_result(op, self, functional(self, *rest))

    inplace.__qualname__ = f"inplace[{op.name}]"
    return inplace
