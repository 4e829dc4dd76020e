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


class _UninitializedMixin:
    """A parameter or buffer whose shape is not known yet (a lazy module's, until its first
    forward): it holds an empty tensor of the right dtype and device, and
    :meth:`materialize` gives it its shape, turning it into ``cls_to_become`` in place."""

    cls_to_become: type

    def materialize(self, shape: Any, device: Any = None, dtype: Any = None) -> None:
        """Allocates (uninitialised) data of ``shape`` and becomes a plain parameter or
        buffer; the object stays the same, so optimizers and modules holding it see it."""
        if isinstance(shape, int):
            shape = (shape,)
        device = self._device if device is None else device  # type: ignore[attr-defined]
        dtype = self.dtype if dtype is None else dtype  # type: ignore[attr-defined]
        self.data = volta.empty(*shape, device=device, dtype=dtype)
        self.__class__ = self.cls_to_become

    @property
    def shape(self) -> Any:
        raise volta.InvalidOperationError(
            "Can't access the shape of an uninitialized parameter or buffer. This error usually "
            "happens in `load_state_dict` when trying to load an uninitialized parameter into "
            "an initialized one. Call `forward` to initialize the parameters before accessing "
            "their attributes.")

    def __repr__(self) -> str:
        return f"<{type(self).__name__}>"


class UninitializedParameter(_UninitializedMixin, Parameter):
    """A :class:`Parameter` whose shape a lazy module infers from its first input."""

    cls_to_become = Parameter

    def __new__(cls, requires_grad: bool = True, device: Any = None,
                dtype: Any = None) -> UninitializedParameter:
        return volta.Tensor._make_subclass(cls, volta.empty(0, device=device, dtype=dtype),
                                           requires_grad)

    def __init__(self, requires_grad: bool = True, device: Any = None,
                 dtype: Any = None) -> None:
        pass  # everything happens in __new__

    def __deepcopy__(self, memo: dict) -> UninitializedParameter:
        if id(self) not in memo:
            memo[id(self)] = type(self)(self.requires_grad, self._device, self.dtype)
        return memo[id(self)]


class UninitializedBuffer(_UninitializedMixin, volta.Tensor):
    """A buffer whose shape a lazy module infers from its first input."""

    cls_to_become = volta.Tensor

    def __new__(cls, requires_grad: bool = False, device: Any = None, dtype: Any = None,
                persistent: bool = True) -> UninitializedBuffer:
        tensor = volta.Tensor._make_subclass(cls, volta.empty(0, device=device, dtype=dtype),
                                             requires_grad)
        tensor.persistent = persistent
        return tensor

    def __init__(self, requires_grad: bool = False, device: Any = None, dtype: Any = None,
                 persistent: bool = True) -> None:
        pass  # everything happens in __new__

    def __deepcopy__(self, memo: dict) -> UninitializedBuffer:
        if id(self) not in memo:
            memo[id(self)] = type(self)(self.requires_grad, self._device, self.dtype,
                                        getattr(self, "persistent", True))
        return memo[id(self)]


def is_lazy(tensor: Any) -> bool:
    """Whether ``tensor`` is an uninitialized parameter or buffer (of a lazy module)."""
    return isinstance(tensor, _UninitializedMixin)
