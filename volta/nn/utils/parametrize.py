"""Parametrizations, as ``torch.nn.utils.parametrize``: a parameter or buffer ``name`` of a
module becomes a computed value ``parametrization(original)``.

:func:`register_parametrization` moves the tensor to ``module.parametrizations[name].original``
(or ``original0``, ``original1``... when the parametrization's ``right_inverse`` returns several
tensors) and gives the module's class a property ``name`` that evaluates the chain of
parametrizations on each access (once per :func:`cached` block). Assigning to ``name`` runs the
chain's ``right_inverse``. The module's class is swapped for a subclass named
``Parametrized<Class>`` while any parametrization is registered, as in PyTorch, so ``state_dict``
keys (``parametrizations.weight.original``) and reprs are PyTorch's.
"""

from __future__ import annotations

import copy
from collections.abc import Iterator, Sequence
from contextlib import contextmanager, suppress
from typing import Any

import volta
from volta.errors import InvalidArgumentError, InvalidOperationError, ShapeError
from volta.nn.modules.container import ModuleDict, ModuleList
from volta.nn.modules.module import Module
from volta.nn.parameter import Parameter

__all__ = ["cached", "ParametrizationList", "register_parametrization", "is_parametrized",
           "remove_parametrizations", "type_before_parametrizations",
           "transfer_parametrizations_and_params"]

# depth of nested ``cached()`` blocks, and the values computed inside them by (module id, name)
_cache_depth = 0
_cache: dict[tuple[int, str], volta.Tensor] = {}


@contextmanager
def cached() -> Iterator[None]:
    """Inside this block each parametrized tensor is computed once, on first access, and
    reused (e.g. a weight used at every step of an RNN)."""
    global _cache_depth, _cache
    _cache_depth += 1
    try:
        yield
    finally:
        _cache_depth -= 1
        if not _cache_depth:
            _cache = {}


def _register_parameter_or_buffer(module: Module, name: str, tensor: volta.Tensor) -> None:
    if isinstance(tensor, Parameter):
        module.register_parameter(name, tensor)
    else:
        module.register_buffer(name, tensor)


def _set_in_place(dest: volta.Tensor, src: volta.Tensor) -> None:
    """``dest`` takes ``src``'s value, staying the same object (a Parameter keeps its
    identity, so optimizers that hold it see the change)."""
    with volta.no_grad():
        dest.data = src.detach()


def _check_tensor(value: Any, what: str) -> volta.Tensor:
    if not isinstance(value, volta.Tensor):
        raise InvalidArgumentError(f"{what} must return a tensor. Got {type(value).__name__}.")
    return value


class ParametrizationList(ModuleList):
    """The parametrizations of one tensor, applied in order, and the tensor(s) they start from:
    ``original`` (or ``original0``, ``original1``... when ``right_inverse`` returns several).

    Args:
        modules: the parametrizations (at least one).
        original: the parameter or buffer being parametrized; it is kept (same object) as
            ``original``, set to ``right_inverse(original)`` where the parametrizations have one.
        unsafe: skip the checks that the parametrization keeps the shape and dtype.
    """

    def __init__(self, modules: Sequence[Module], original: volta.Tensor,
                 unsafe: bool = False) -> None:
        if len(modules) == 0:
            raise InvalidArgumentError("ParametrizationList requires one or more modules.")
        super().__init__(modules)
        self.unsafe = unsafe
        original_shape, original_dtype = tuple(original.shape), original.dtype
        with volta.no_grad():
            new: Any = original
            for module in reversed(list(self)):
                if hasattr(module, "right_inverse"):
                    with suppress(NotImplementedError):
                        new = module.right_inverse(new)
        if not isinstance(new, (volta.Tensor, Sequence)):
            raise InvalidArgumentError("'right_inverse' must return a Tensor or a Sequence of "
                                       f"tensors (list, tuple...). Got {type(new).__name__}")
        self.is_tensor = isinstance(new, volta.Tensor)
        self.ntensors = 1 if self.is_tensor else len(new)
        if self.is_tensor:
            if new.dtype != original.dtype:
                raise InvalidArgumentError(
                    "When `right_inverse` outputs one tensor, it may not change the dtype.\n"
                    f"original.dtype: {original.dtype}\nright_inverse(original).dtype: "
                    f"{new.dtype}")
            if new.device != original.device:
                raise InvalidArgumentError(
                    "When `right_inverse` outputs one tensor, it may not change the device.\n"
                    f"original.device: {original.device}\nright_inverse(original).device: "
                    f"{new.device}")
            if new is not original:
                _set_in_place(original, new)
            _register_parameter_or_buffer(self, "original", original)
        else:
            for i, part in enumerate(new):
                if not isinstance(part, volta.Tensor):
                    raise InvalidArgumentError(
                        "'right_inverse' must return a Tensor or a Sequence of tensors (list, "
                        f"tuple...). Got element {i} of the sequence with type "
                        f"{type(part).__name__}.")
                if isinstance(original, Parameter):
                    part = Parameter(part, original.requires_grad)
                part.requires_grad_(original.requires_grad)
                _register_parameter_or_buffer(self, f"original{i}", part)
        if not self.unsafe:
            value = _check_tensor(self(), "A parametrization")
            if value.dtype != original_dtype:
                raise InvalidArgumentError(
                    "Registering a parametrization may not change the dtype of the tensor, "
                    f"unless `unsafe` flag is enabled.\nunparametrized dtype: {original_dtype}\n"
                    f"parametrized dtype: {value.dtype}")
            if tuple(value.shape) != original_shape:
                raise ShapeError(
                    "Registering a parametrization may not change the shape of the tensor, "
                    f"unless `unsafe` flag is enabled.\nunparametrized shape: "
                    f"{volta.Size(original_shape)}\nparametrized shape: {value.shape}")

    def right_inverse(self, value: volta.Tensor) -> None:
        """Sets the original tensor(s) so that the chain gives ``value`` (each
        parametrization's ``right_inverse``, last first)."""
        with volta.no_grad():
            for module in reversed(list(self)):
                if not hasattr(module, "right_inverse"):
                    raise InvalidOperationError(f"parametrization {type(module).__name__} does "
                                                "not implement right_inverse.")
                value = module.right_inverse(value)
            if self.is_tensor:
                if not isinstance(value, volta.Tensor):
                    raise InvalidArgumentError(
                        f"`right_inverse` should return a tensor. Got {type(value).__name__}")
                if value.dtype != self.original.dtype:
                    raise InvalidArgumentError(
                        f"The tensor returned by `right_inverse` has dtype {value.dtype} while "
                        f"`original` has dtype {self.original.dtype}")
                _set_in_place(self.original, value)
                return
            if not isinstance(value, Sequence):
                raise InvalidArgumentError("'right_inverse' must return a sequence of tensors. "
                                           f"Got {type(value).__name__}.")
            if len(value) != self.ntensors:
                raise InvalidArgumentError(
                    "'right_inverse' must return a sequence of tensors of length "
                    f"{self.ntensors}. Got a sequence of length {len(value)}.")
            for i, tensor in enumerate(value):
                original = getattr(self, f"original{i}")
                if not isinstance(tensor, volta.Tensor):
                    raise InvalidArgumentError("'right_inverse' must return a sequence of "
                                               f"tensors. Got element {i} of type "
                                               f"{type(tensor).__name__}.")
                if tensor.dtype != original.dtype:
                    raise InvalidArgumentError(
                        f"Tensor {i} returned by `right_inverse` has dtype {tensor.dtype} while "
                        f"`original{i}` has dtype {original.dtype}")
                _set_in_place(original, tensor)

    def forward(self) -> volta.Tensor:
        modules = list(self)
        if self.is_tensor:
            value = modules[0](self.original)
        else:
            value = modules[0](*(getattr(self, f"original{i}") for i in range(self.ntensors)))
        for module in modules[1:]:
            value = module(value)
        return value


def _refuse_pickling(self: Module) -> Any:
    raise InvalidOperationError("Serialization of parametrized modules is only supported "
                                "through state_dict().")


def _deepcopy(self: Module, memo: dict) -> Module:
    # deepcopy would otherwise go through __getstate__, which refuses parametrized modules
    if id(self) in memo:
        return memo[id(self)]
    # a class of its own, so removing a parametrization from the copy leaves the original's
    cls = type(self)
    namespace = {k: v for k, v in cls.__dict__.items() if k not in ("__dict__", "__weakref__")}
    replica = object.__new__(type(cls.__name__, cls.__bases__, namespace))
    memo[id(self)] = replica
    replica.__dict__ = copy.deepcopy(self.__dict__, memo)
    return replica


def _inject_new_class(module: Module) -> None:
    """Gives ``module`` a class of its own (``Parametrized<Class>``) to hang properties on."""
    cls = type(module)
    namespace: dict[str, Any] = {"__getstate__": _refuse_pickling}
    if not hasattr(cls, "__deepcopy__"):
        namespace["__deepcopy__"] = _deepcopy
    module.__class__ = type(f"Parametrized{cls.__name__}", (cls,), namespace)


def _inject_property(module: Module, tensor_name: str) -> None:
    if hasattr(module, tensor_name):
        raise InvalidOperationError(f"Module already has an attribute named '{tensor_name}'")

    def get_parametrized(self: Module) -> volta.Tensor:
        parametrization = self.parametrizations[tensor_name]
        if not _cache_depth:
            return parametrization()
        key = (id(self), tensor_name)
        if key not in _cache:
            _cache[key] = parametrization()
        return _cache[key]

    def set_original(self: Module, value: volta.Tensor) -> None:
        self.parametrizations[tensor_name].right_inverse(value)

    setattr(type(module), tensor_name, property(get_parametrized, set_original))


def register_parametrization(module: Module, tensor_name: str, parametrization: Module, *,
                             unsafe: bool = False) -> Module:
    """Makes ``module.<tensor_name>`` (a parameter, a buffer, or an already parametrized
    tensor, which then gets ``parametrization`` appended to its chain) the value
    ``parametrization(original)``.

    Args:
        module: the module that owns the tensor.
        tensor_name: the parameter or buffer's name.
        parametrization: a module mapping the original tensor(s) to the value; an optional
            ``right_inverse(value)`` gives the original(s) for a value (used at registration,
            so the value starts as the tensor was, and on assignment).
        unsafe: allow the parametrization to change the shape or dtype.

    Returns:
        ``module``.
    """
    parametrization.train(module.training)
    if is_parametrized(module, tensor_name):
        if not unsafe:
            current = getattr(module, tensor_name)
            value = _check_tensor(parametrization(current), "A parametrization")
            _check_same(value, current, tensor_name, "parametrization(module.{0})")
            if hasattr(parametrization, "right_inverse"):
                try:
                    inverse = parametrization.right_inverse(value)
                except NotImplementedError:
                    pass
                else:
                    _check_tensor(inverse, "parametrization.right_inverse")
                    _check_same(inverse, current, tensor_name,
                                "parametrization.right_inverse(...)")
        chain = module.parametrizations[tensor_name]
        chain.append(parametrization)
        chain.unsafe |= unsafe
    elif tensor_name in module._buffers or tensor_name in module._parameters:
        original = getattr(module, tensor_name)
        chain = ParametrizationList([parametrization], original, unsafe=unsafe)
        delattr(module, tensor_name)
        if not is_parametrized(module):
            _inject_new_class(module)
            module.parametrizations = ModuleDict()
        _inject_property(module, tensor_name)
        module.parametrizations[tensor_name] = chain
    else:
        raise InvalidArgumentError(f"Module '{module}' does not have a parameter, a buffer, or "
                                   f"a parametrized element with name '{tensor_name}'")
    return module


def _check_same(value: volta.Tensor, current: volta.Tensor, tensor_name: str,
                what: str) -> None:
    label = what.format(tensor_name)
    if value.dtype != current.dtype:
        raise InvalidArgumentError(
            "Registering a parametrization may not change the dtype of the tensor, unless the "
            f"`unsafe` flag is enabled.\nmodule.{tensor_name}.dtype: {current.dtype}\n"
            f"{label}.dtype: {value.dtype}")
    if tuple(value.shape) != tuple(current.shape):
        raise ShapeError(
            "Registering a parametrization may not change the shape of the tensor, unless the "
            f"`unsafe` flag is enabled.\nmodule.{tensor_name}.shape: {current.shape}\n"
            f"{label}.shape: {value.shape}")


def is_parametrized(module: Module, tensor_name: str | None = None) -> bool:
    """Whether ``module`` has any parametrization (or one on ``tensor_name``)."""
    parametrizations = getattr(module, "parametrizations", None)
    if not isinstance(parametrizations, ModuleDict):
        return False
    if tensor_name is None:
        return len(parametrizations) > 0
    return tensor_name in parametrizations


def remove_parametrizations(module: Module, tensor_name: str,
                            leave_parametrized: bool = True) -> Module:
    """Removes the parametrizations of ``tensor_name``: it becomes a parameter (or buffer)
    again, holding the parametrized value (``leave_parametrized``) or the original tensor.
    The module gets its own class back once no parametrization is left."""
    if not is_parametrized(module, tensor_name):
        raise InvalidArgumentError(
            f"Module {module} does not have a parametrization on {tensor_name}")
    chain = module.parametrizations[tensor_name]
    if chain.is_tensor:
        original = chain.original
        if leave_parametrized:
            with volta.no_grad():
                value = getattr(module, tensor_name)
            _set_in_place(original, value)
    else:
        if not leave_parametrized:
            raise InvalidArgumentError(
                "Cannot leave unparametrized (`leave_parametrized=False`) a tensor that is "
                "parametrized in terms of a sequence of tensors.")
        value = getattr(module, tensor_name)
        original = Parameter(value.detach()) if value.requires_grad else value
    delattr(type(module), tensor_name)
    del module.parametrizations[tensor_name]
    _register_parameter_or_buffer(module, tensor_name, original)
    if not is_parametrized(module):
        delattr(module, "parametrizations")
        module.__class__ = type(module).__bases__[0]
    return module


def type_before_parametrizations(module: Module) -> type:
    """The module's class as it was before any parametrization."""
    if is_parametrized(module):
        return type(module).__bases__[0]
    return type(module)


def transfer_parametrizations_and_params(from_module: Module, to_module: Module,
                                         tensor_name: str | None = None) -> Module:
    """Registers ``from_module``'s parametrizations (all, or those of ``tensor_name``) on
    ``to_module`` too, sharing their modules and original tensors; a tensor ``to_module``
    lacks is first created from ``from_module``'s value. Returns ``to_module``."""
    if not is_parametrized(from_module):
        return to_module
    names = list(from_module.parametrizations) if tensor_name is None else [tensor_name]
    for name in names:
        if not hasattr(to_module, name):
            setattr(to_module, name, Parameter(getattr(from_module, name)))
        source = from_module.parametrizations[name]
        for parametrization in source:
            register_parametrization(to_module, name, parametrization)
        target = to_module.parametrizations[name]
        if source.is_tensor:
            target.original = source.original
        else:
            for i in range(source.ntensors):
                setattr(target, f"original{i}", getattr(source, f"original{i}"))
    return to_module
