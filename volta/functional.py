"""Public functions that take PyTorch's Python calling conventions (varargs, a list or separate
operands, ``unbiased`` or ``correction``) and call ops; ``volta`` re-exports them, as
``torch.functional`` does for torch.
"""

from __future__ import annotations

from volta._generated import registry as _registry
from volta.backend import BACKENDS
from volta.dispatch import binding as _binding
from volta.tensor.inplace import broadcast_shapes as _broadcast_shapes
from volta.tensor.tensor import Size, Tensor

__all__ = ["is_tensor", "get_device_types", "broadcast_shapes", "broadcast_tensors", "numel",
           "tensordot", "einsum", "meshgrid", "var_mean", "std_mean"]


def is_tensor(obj: object) -> bool:
    return isinstance(obj, Tensor)


def get_device_types() -> list[str]:
    return BACKENDS.names()


def broadcast_shapes(*shapes: object) -> Size:
    return Size(_broadcast_shapes(*(tuple(s) for s in shapes)))  # type: ignore[arg-type]


def broadcast_tensors(*tensors: Tensor) -> tuple[Tensor, ...]:
    shape = broadcast_shapes(*(t.shape for t in tensors))
    return tuple(t.expand(shape) for t in tensors)


def numel(t: Tensor) -> int:
    return t.numel()


@_binding.checked(_registry.tensordot)
def tensordot(a: Tensor, b: Tensor, dims: object = 2) -> Tensor:
    """``tensordot(a, b, dims=2)`` or ``dims=([1, 0], [0, 1])`` as in PyTorch."""
    if isinstance(dims, int):
        dims_a = list(range(a.ndim - dims, a.ndim))
        dims_b = list(range(dims))
    else:
        dims_a, dims_b = ([d] if isinstance(d, int) else list(d) for d in dims)  # type: ignore
    return _registry.tensordot(a, b, tuple(dims_a), tuple(dims_b))


@_binding.checked(_registry.einsum)
def einsum(equation: str, *operands: object) -> Tensor:
    """``einsum("ij,jk->ik", a, b)`` (operands as arguments or as one list), as in PyTorch."""
    if len(operands) == 1 and isinstance(operands[0], (list, tuple)):
        operands = tuple(operands[0])
    return _registry.einsum(equation, tuple(operands))


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
