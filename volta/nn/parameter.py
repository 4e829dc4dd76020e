"""``volta.nn.Parameter``: a tensor that a :class:`Module` registers as one of its parameters."""

from __future__ import annotations

from typing import Any

import volta


class Parameter(volta.Tensor):
    """A leaf tensor that, assigned as a :class:`Module` attribute, joins ``module.parameters()``.

    Args:
        data: the initial values (shared, not copied); an empty tensor when omitted.
        requires_grad: whether the parameter receives gradients. Default: ``True``.
    """

    def __new__(cls, data: volta.Tensor | None = None, requires_grad: bool = True) -> Parameter:
        if data is None:
            data = volta.empty(0)
        return volta.Tensor._make_subclass(cls, data.detach(), requires_grad)

    def __init__(self, data: volta.Tensor | None = None, requires_grad: bool = True) -> None:
        pass  # everything happens in __new__ (volta.Tensor forbids direct construction)

    def __repr__(self) -> str:
        return "Parameter containing:\n" + super().__repr__()

    def __deepcopy__(self, memo: dict) -> Parameter:
        if id(self) in memo:
            return memo[id(self)]
        result = Parameter(self.detach().clone(), self.requires_grad)
        if self.grad is not None:
            result.grad = self.grad.clone()
        memo[id(self)] = result
        return result

    def __reduce_ex__(self, protocol: int) -> Any:
        return (Parameter, (self.detach().clone(), self.requires_grad))


class _BufferMeta(type):
    # a Buffer is a plain tensor marked as one, so isinstance looks at the mark
    def __instancecheck__(cls, instance: Any) -> bool:
        if cls is Buffer and isinstance(instance, volta.Tensor):
            return bool(getattr(instance, "_is_buffer", False))
        return super().__instancecheck__(instance)


class Buffer(volta.Tensor, metaclass=_BufferMeta):
    """Marks a tensor as a buffer: assigned as a :class:`Module` attribute it is registered
    with ``register_buffer`` (``persistent=False`` keeps it out of ``state_dict``). The result
    is a plain tensor (detached, same ``requires_grad``), as in PyTorch.

    Args:
        data: the buffer's values (shared, not copied); an empty tensor when omitted.
        persistent: whether the buffer is part of the module's ``state_dict``.
    """

    def __new__(cls, data: volta.Tensor | None = None, *,  # type: ignore[misc]
                persistent: bool = True) -> volta.Tensor:
        if data is None:
            data = volta.empty(0)
        tensor = data.detach().requires_grad_(data.requires_grad)
        tensor.persistent = persistent
        tensor._is_buffer = True
        return tensor
