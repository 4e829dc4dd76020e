"""Public functions that take PyTorch's Python calling conventions (varargs, a list or separate
operands, ``unbiased`` or ``correction``) and call ops; ``volta`` re-exports them, as
``torch.functional`` does for torch.
"""

from __future__ import annotations

from volta._generated import registry as _registry
from volta.backend import BACKENDS
from volta.dispatch import binding as _binding
from volta.errors import ArgumentError, ShapeError
from volta.tensor.inplace import broadcast_shapes as _broadcast_shapes
from volta.tensor.tensor import Size, Tensor

__all__ = ["is_tensor", "get_device_types", "broadcast_shapes", "broadcast_tensors", "numel",
           "tensordot", "einsum", "meshgrid", "var_mean", "std_mean"]


@_binding.python_arguments
def is_tensor(obj: object) -> bool:
    return isinstance(obj, Tensor)


@_binding.python_arguments
def get_device_types() -> list[str]:
    return BACKENDS.names()


@_binding.python_arguments
def broadcast_shapes(*shapes: object) -> Size:
    """The shape the given shapes broadcast to; an int ``n`` is the shape ``(n,)``."""
    as_tuples = tuple((s,) if isinstance(s, int) else tuple(s)  # type: ignore[arg-type]
                      for s in shapes)
    for shape in as_tuples:
        if any(not isinstance(n, int) or n < 0 for n in shape):
            raise ShapeError(f"Trying to create tensor with negative dimension: {list(shape)}")
    return Size(_broadcast_shapes(*as_tuples))


@_binding.python_arguments
def broadcast_tensors(*tensors: Tensor) -> tuple[Tensor, ...]:
    for i, t in enumerate(tensors):
        if not isinstance(t, Tensor):
            raise ArgumentError(f"broadcast_tensors(): expected Tensor as element {i} in "
                                f"argument 0, but got {type(t).__name__}")
    shape = broadcast_shapes(*(t.shape for t in tensors))
    return tuple(t.expand(shape) for t in tensors)


@_binding.python_arguments
def numel(t: Tensor) -> int:
    return t.numel()


@_binding.python_arguments
def tensordot(a: Tensor, b: Tensor, dims: object = 2) -> Tensor:
    """``tensordot(a, b, dims=2)`` or ``dims=([1, 0], [0, 1])`` as in PyTorch."""
    if isinstance(dims, int) and isinstance(a, Tensor):
        dims_a: object = list(range(a.ndim - dims, a.ndim))
        dims_b: object = list(range(dims))
    elif isinstance(dims, (list, tuple)) and len(dims) == 2:
        dims_a, dims_b = ([d] if isinstance(d, int) else d for d in dims)
    else:
        dims_a, dims_b = dims, dims  # not a valid form: the schema check below names it
    return _tensordot(a, b, dims_a, dims_b)


def _tensordot(a: Tensor, b: Tensor, dims_a: object, dims_b: object) -> Tensor:
    return _registry.tensordot(a, b, tuple(dims_a), tuple(dims_b))  # type: ignore[arg-type]


# checked against the schema in its own form (dims_a, dims_b), not tensordot's ``dims``: an
# error from the kernel then keeps its class instead of becoming an argument error
_tensordot.__name__ = "tensordot"
_tensordot = _binding.checked(_registry.tensordot)(_tensordot)


@_binding.python_arguments
def einsum(equation: str, *operands: object) -> Tensor:
    """``einsum("ij,jk->ik", a, b)`` (operands as arguments or as one list), or the sublist
    form ``einsum(a, [0, 1], b, [1, 2], [0, 2])``, as in PyTorch."""
    if not isinstance(equation, str):
        equation, operands = _sublist_equation((equation, *operands))
    if len(operands) == 1 and isinstance(operands[0], (list, tuple)):
        operands = tuple(operands[0])
    return _einsum(equation, tuple(operands))


@_binding.checked(_registry.einsum)
def _einsum(equation: str, tensors: tuple) -> Tensor:
    # checked against the schema in its own form (equation, tensors), not einsum's varargs
    return _registry.einsum(equation, tensors)


def _sublist_letter(index: object) -> str:
    if index is Ellipsis:
        return "..."
    if not isinstance(index, int) or not 0 <= index < 52:
        raise ArgumentError(f"einsum(): expected subscript to be within the range [0, 52), but "
                            f"got {index}")
    return "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"[index]


def _sublist_equation(args: tuple) -> tuple[str, tuple]:
    """The equation and operands of ``einsum(op0, sublist0, op1, sublist1, ..., [out])``."""
    operands, subscripts = args[0::2], args[1::2]
    output = None
    if len(operands) > len(subscripts):  # a trailing output sublist
        *operands, output = operands
    lhs = ",".join("".join(_sublist_letter(i) for i in sub) for sub in subscripts)
    rhs = "" if output is None else "->" + "".join(_sublist_letter(i) for i in output)
    return lhs + rhs, tuple(operands)


@_binding.checked(_registry.meshgrid)
def meshgrid(*tensors: object, indexing: str | None = None) -> tuple[Tensor, ...]:
    if len(tensors) == 1 and isinstance(tensors[0], (list, tuple)):
        tensors = tuple(tensors[0])
    return _registry.meshgrid(tuple(tensors), indexing)


def _dims_and_correction(dim: object, unbiased: object, correction: object) -> tuple:
    if isinstance(dim, bool) and unbiased is None:  # var_mean(x, False)
        dim, unbiased = None, dim
    if correction is None and unbiased is not None:
        correction = 1 if unbiased else 0
    dims = None if dim is None else ((dim,) if isinstance(dim, int) else tuple(dim))  # type: ignore
    return dims, correction


@_binding.checked(_registry.var_mean)
def var_mean(input: Tensor, dim: object = None, unbiased: object = None, keepdim: bool = False,
             *, correction: object = None) -> tuple[Tensor, Tensor]:
    """PyTorch's ``var_mean`` with either ``unbiased`` (legacy) or ``correction``."""
    dims, correction = _dims_and_correction(dim, unbiased, correction)
    return _registry.var_mean(input, dims, correction, keepdim)


@_binding.checked(_registry.std_mean)
def std_mean(input: Tensor, dim: object = None, unbiased: object = None, keepdim: bool = False,
             *, correction: object = None) -> tuple[Tensor, Tensor]:
    """PyTorch's ``std_mean`` with either ``unbiased`` (legacy) or ``correction``."""
    dims, correction = _dims_and_correction(dim, unbiased, correction)
    return _registry.std_mean(input, dims, correction, keepdim)
