"""Pruning, as ``torch.nn.utils.prune``: zero out parts of a parameter through a mask.

Pruning ``name`` of a module moves the parameter to ``<name>_orig``, adds a buffer
``<name>_mask`` (ones where kept) and a forward pre-hook that recomputes the plain attribute
``<name> = <name>_orig * <name>_mask`` before each forward, so the pruned entries get no
gradient. Pruning the same tensor again combines the masks through a
:class:`PruningContainer` (the new method acts on what is still kept). :func:`remove` makes the
pruning permanent. ``state_dict`` keys are PyTorch's (``weight_orig``, ``weight_mask``).
"""

from __future__ import annotations

import numbers
from abc import ABC, abstractmethod
from collections.abc import Iterable
from typing import Any, TypeVar

import volta
from volta.errors import ArgumentError, IndexOutOfRangeError, InvalidArgumentError, ShapeError
from volta.nn.modules.module import Module
from volta.nn.utils.convert_parameters import parameters_to_vector

ModuleT = TypeVar("ModuleT", bound=Module)

__all__ = [
    "BasePruningMethod", "PruningContainer", "Identity", "RandomUnstructured", "L1Unstructured",
    "RandomStructured", "LnStructured", "CustomFromMask", "identity", "random_unstructured",
    "l1_unstructured", "random_structured", "ln_structured", "global_unstructured",
    "custom_from_mask", "remove", "is_pruned",
]


class BasePruningMethod(ABC):
    """A way of choosing the entries to prune; as a forward pre-hook it re-applies its mask.

    ``PRUNING_TYPE`` is ``"unstructured"`` (single entries), ``"structured"`` (whole slices
    along ``dim``) or ``"global"``; it tells a :class:`PruningContainer` what a later method
    acts on.
    """

    PRUNING_TYPE: str
    _tensor_name: str | None = None

    def __call__(self, module: Module, inputs: Any) -> None:
        setattr(module, self._tensor_name, self.apply_mask(module))

    @abstractmethod
    def compute_mask(self, t: volta.Tensor, default_mask: volta.Tensor) -> volta.Tensor:
        """The new mask for ``t`` (ones kept, zeros pruned), given the mask so far."""

    def apply_mask(self, module: Module) -> volta.Tensor:
        """``<name>_orig * <name>_mask`` of ``module``."""
        mask = getattr(module, self._tensor_name + "_mask")
        orig = getattr(module, self._tensor_name + "_orig")
        return mask.to(dtype=orig.dtype) * orig

    @classmethod
    def apply(cls, module: Module, name: str, *args: Any,
              importance_scores: volta.Tensor | None = None, **kwargs: Any) -> BasePruningMethod:
        """Prunes ``module.<name>`` with ``cls(*args, **kwargs)``, choosing by
        ``importance_scores`` (default: the parameter's own values)."""
        method = _combined_method(cls, module, name, *args, **kwargs)
        orig = getattr(module, name)
        if importance_scores is None:
            importance_scores = orig
        elif tuple(importance_scores.shape) != tuple(orig.shape):
            raise ShapeError(f"importance_scores should have the same shape as parameter {name} "
                             f"of {module}, got {importance_scores.shape} vs {orig.shape}")
        first = not isinstance(method, PruningContainer)
        if first:
            module.register_parameter(name + "_orig", orig)
            del module._parameters[name]
            default_mask = volta.ones_like(orig)
        else:
            default_mask = getattr(module, name + "_mask").detach().clone()
        try:
            mask = method.compute_mask(importance_scores, default_mask=default_mask)
            module.register_buffer(name + "_mask", mask)
            setattr(module, name, method.apply_mask(module))
            module.register_forward_pre_hook(method)
        except Exception:
            if first:  # leave the module as it was
                module._parameters[name] = module._parameters.pop(name + "_orig")
            raise
        return method

    def prune(self, t: volta.Tensor, default_mask: volta.Tensor | None = None,
              importance_scores: volta.Tensor | None = None) -> volta.Tensor:
        """``t`` with this method's mask applied (no module involved)."""
        if importance_scores is None:
            importance_scores = t
        elif tuple(importance_scores.shape) != tuple(t.shape):
            raise ShapeError("importance_scores should have the same shape as tensor t, got "
                             f"{importance_scores.shape} vs {t.shape}")
        if default_mask is None:
            default_mask = volta.ones_like(t)
        return t * self.compute_mask(importance_scores, default_mask=default_mask)

    def remove(self, module: Module) -> None:
        """Makes the pruning permanent: ``<name>`` becomes a parameter holding the pruned
        values (the ``<name>_orig`` object), ``<name>_mask`` goes."""
        weight = self.apply_mask(module)
        if self._tensor_name in module.__dict__:
            delattr(module, self._tensor_name)
        orig = module._parameters.pop(self._tensor_name + "_orig")
        orig.data = weight.data
        del module._buffers[self._tensor_name + "_mask"]
        setattr(module, self._tensor_name, orig)


def _combined_method(cls: type, module: Module, name: str, *args: Any,
                     **kwargs: Any) -> BasePruningMethod:
    """``cls(*args, **kwargs)`` for ``name``, inside a container with the methods that already
    prune it (their hook is replaced by the container's)."""
    old = [(key, hook) for key, hook in module._forward_pre_hooks.items()
           if isinstance(hook, BasePruningMethod) and hook._tensor_name == name]
    if len(old) > 1:
        raise InvalidArgumentError(f"Avoid adding multiple pruning hooks to the same tensor "
                                   f"{name} of module {module}. Use a PruningContainer.")
    for key, _ in old:
        del module._forward_pre_hooks[key]
    method = cls(*args, **kwargs)
    method._tensor_name = name
    if not old:
        return method
    previous = old[0][1]
    if isinstance(previous, PruningContainer):
        previous.add_pruning_method(method)
        return previous
    container = PruningContainer(previous)
    container.add_pruning_method(method)
    return container


class PruningContainer(BasePruningMethod):
    """The sequence of pruning methods applied to one tensor; its mask is the last method's
    applied to what the earlier ones kept."""

    def __init__(self, *methods: BasePruningMethod) -> None:
        self._pruning_methods: tuple[BasePruningMethod, ...] = ()
        if len(methods) == 1:
            self._tensor_name = methods[0]._tensor_name
        for method in methods:
            self.add_pruning_method(method)

    def add_pruning_method(self, method: BasePruningMethod) -> None:
        if not isinstance(method, BasePruningMethod):
            raise ArgumentError(f"{type(method)} is not a BasePruningMethod subclass")
        if self._tensor_name != method._tensor_name:
            raise InvalidArgumentError(
                "Can only add pruning methods acting on the parameter named "
                f"'{self._tensor_name}' to PruningContainer {self}. Found "
                f"'{method._tensor_name}'")
        self._pruning_methods += (method,)

    def __len__(self) -> int:
        return len(self._pruning_methods)

    def __iter__(self) -> Any:
        return iter(self._pruning_methods)

    def __getitem__(self, idx: int) -> BasePruningMethod:
        return self._pruning_methods[idx]

    def compute_mask(self, t: volta.Tensor, default_mask: volta.Tensor) -> volta.Tensor:
        method = self._pruning_methods[-1]
        new_mask = default_mask.to(dtype=t.dtype)
        if method.PRUNING_TYPE == "unstructured":  # among the entries still kept
            where: Any = default_mask == 1
        elif method.PRUNING_TYPE == "structured":  # among the slices still (partly) kept
            dim = method.dim if method.dim >= 0 else t.ndim + method.dim
            if dim < 0:
                raise IndexOutOfRangeError(
                    f"Index is out of bounds for tensor with dimensions {t.ndim}")
            others = [d for d in range(t.ndim) if d != dim]
            index: list[Any] = [slice(None)] * t.ndim
            index[dim] = default_mask.sum(dim=others) != 0
            where = tuple(index)
        elif method.PRUNING_TYPE == "global":
            where = (slice(None),) * t.ndim
        else:
            raise InvalidArgumentError(f"Unrecognized PRUNING_TYPE {method.PRUNING_TYPE}")
        partial = method.compute_mask(t[where], default_mask=default_mask[where])
        new_mask[where] = partial.to(dtype=new_mask.dtype)
        return new_mask


class Identity(BasePruningMethod):
    """Prunes nothing (the mask is all ones): the pruning machinery without pruning."""

    PRUNING_TYPE = "unstructured"

    def compute_mask(self, t: volta.Tensor, default_mask: volta.Tensor) -> volta.Tensor:
        return default_mask

    @classmethod
    def apply(cls, module: Module, name: str) -> BasePruningMethod:  # type: ignore[override]
        return super().apply(module, name)


def _check_amount(amount: Any) -> None:
    if not isinstance(amount, numbers.Real):
        raise ArgumentError(f"Invalid type for amount: {amount}. Must be int or float.")
    integral = isinstance(amount, numbers.Integral)
    if (integral and amount < 0) or (not integral and not 0.0 <= float(amount) <= 1.0):
        raise InvalidArgumentError(f"amount={amount} should either be a float in the range "
                                   "[0, 1] or a non-negative integer")


def _count_to_prune(amount: Any, size: int) -> int:
    """``amount`` entries (an int) or that fraction of ``size`` (a float), at most ``size``."""
    count = amount if isinstance(amount, numbers.Integral) else round(amount * size)
    if isinstance(amount, numbers.Integral) and amount > size:
        raise InvalidArgumentError(f"amount={amount} should be smaller than the number of "
                                   f"parameters to prune={size}")
    return int(count)


def _check_structured(t: volta.Tensor, dim: int) -> None:
    if t.ndim <= 1:
        raise InvalidArgumentError(
            "Structured pruning can only be applied to multidimensional tensors. Found tensor "
            f"of shape {t.shape} with {t.ndim} dims")
    if dim >= t.ndim:
        raise IndexOutOfRangeError(f"Invalid index {dim} for tensor of size {t.shape}")


class _Unstructured(BasePruningMethod):
    """Prunes ``amount`` (a count, or a fraction) of the entries, the ones ``_chosen`` picks."""

    PRUNING_TYPE = "unstructured"

    def __init__(self, amount: float) -> None:
        _check_amount(amount)
        self.amount = amount

    def _chosen(self, t: volta.Tensor, count: int) -> volta.Tensor:
        """The flat indices of the ``count`` entries to prune."""
        raise NotImplementedError

    def compute_mask(self, t: volta.Tensor, default_mask: volta.Tensor) -> volta.Tensor:
        count = _count_to_prune(self.amount, t.numel())
        mask = default_mask.clone()
        if count:
            mask.view(-1)[self._chosen(t, count)] = 0
        return mask


class RandomUnstructured(_Unstructured):
    """Prunes ``amount`` (a count, or a fraction) of the entries, chosen at random."""

    def _chosen(self, t: volta.Tensor, count: int) -> volta.Tensor:
        return volta.topk(volta.rand_like(t).reshape(-1), count).indices

    @classmethod
    def apply(cls, module: Module, name: str,  # type: ignore[override]
              amount: float) -> BasePruningMethod:
        return super().apply(module, name, amount=amount)


class L1Unstructured(_Unstructured):
    """Prunes ``amount`` (a count, or a fraction) of the entries with the smallest absolute
    values."""

    def _chosen(self, t: volta.Tensor, count: int) -> volta.Tensor:
        return volta.topk(t.abs().reshape(-1), count, largest=False).indices

    @classmethod
    def apply(cls, module: Module, name: str, amount: float,  # type: ignore[override]
              importance_scores: volta.Tensor | None = None) -> BasePruningMethod:
        return super().apply(module, name, amount=amount, importance_scores=importance_scores)


class RandomStructured(BasePruningMethod):
    """Prunes ``amount`` (a count, or a fraction) of the slices along ``dim``, at random."""

    PRUNING_TYPE = "structured"

    def __init__(self, amount: float, dim: int = -1) -> None:
        _check_amount(amount)
        self.amount = amount
        self.dim = dim

    def compute_mask(self, t: volta.Tensor, default_mask: volta.Tensor) -> volta.Tensor:
        _check_structured(t, self.dim)
        channels = t.shape[self.dim]
        count = _count_to_prune(self.amount, channels)
        if not count:
            return default_mask
        scores = volta.rand(channels)
        kept = scores > volta.kthvalue(scores, count).values
        return _slice_mask(t, self.dim, kept) * default_mask.to(dtype=t.dtype)

    @classmethod
    def apply(cls, module: Module, name: str, amount: float,  # type: ignore[override]
              dim: int = -1) -> BasePruningMethod:
        return super().apply(module, name, amount=amount, dim=dim)


def _slice_mask(t: volta.Tensor, dim: int, kept: volta.Tensor) -> volta.Tensor:
    """Ones in the slices along ``dim`` that ``kept`` selects (booleans or indices)."""
    mask = volta.zeros_like(t)
    index: list[Any] = [slice(None)] * t.ndim
    index[dim] = kept
    mask[tuple(index)] = 1
    return mask


class LnStructured(BasePruningMethod):
    """Prunes ``amount`` (a count, or a fraction) of the slices along ``dim`` with the
    smallest ``n``-norm."""

    PRUNING_TYPE = "structured"

    def __init__(self, amount: float, n: Any, dim: int = -1) -> None:
        _check_amount(amount)
        self.amount = amount
        self.n = n
        self.dim = dim

    def compute_mask(self, t: volta.Tensor, default_mask: volta.Tensor) -> volta.Tensor:
        _check_structured(t, self.dim)
        channels = t.shape[self.dim]
        count = _count_to_prune(self.amount, channels)
        if not count:
            return default_mask
        dim = self.dim % t.ndim
        norms = volta.norm(t, p=self.n, dim=[d for d in range(t.ndim) if d != dim])
        kept = volta.topk(norms, channels - count, largest=True).indices
        return _slice_mask(t, dim, kept) * default_mask.to(dtype=t.dtype)

    @classmethod
    def apply(cls, module: Module, name: str, amount: float, n: Any,  # type: ignore[override]
              dim: int, importance_scores: volta.Tensor | None = None) -> BasePruningMethod:
        return super().apply(module, name, amount=amount, n=n, dim=dim,
                             importance_scores=importance_scores)


class CustomFromMask(BasePruningMethod):
    """Prunes where the given ``mask`` is 0."""

    PRUNING_TYPE = "global"

    def __init__(self, mask: volta.Tensor) -> None:
        self.mask = mask

    def compute_mask(self, t: volta.Tensor, default_mask: volta.Tensor) -> volta.Tensor:
        if tuple(default_mask.shape) != tuple(self.mask.shape):
            raise ShapeError(f"default_mask shape {default_mask.shape} must match self.mask "
                             f"shape {self.mask.shape}")
        return default_mask * self.mask.to(dtype=default_mask.dtype)

    @classmethod
    def apply(cls, module: Module, name: str,  # type: ignore[override]
              mask: volta.Tensor) -> BasePruningMethod:
        return super().apply(module, name, mask=mask)


def identity(module: ModuleT, name: str) -> ModuleT:
    """Sets up pruning of ``module.<name>`` with an all-ones mask."""
    Identity.apply(module, name)
    return module


def random_unstructured(module: ModuleT, name: str, amount: float) -> ModuleT:
    """Prunes ``amount`` of ``module.<name>``'s entries at random."""
    RandomUnstructured.apply(module, name, amount)
    return module


def l1_unstructured(module: ModuleT, name: str, amount: float,
                    importance_scores: volta.Tensor | None = None) -> ModuleT:
    """Prunes ``amount`` of ``module.<name>``'s entries, the smallest in absolute value."""
    L1Unstructured.apply(module, name, amount=amount, importance_scores=importance_scores)
    return module


def random_structured(module: ModuleT, name: str, amount: float, dim: int) -> ModuleT:
    """Prunes ``amount`` of ``module.<name>``'s slices along ``dim`` at random."""
    RandomStructured.apply(module, name, amount, dim)
    return module


def ln_structured(module: ModuleT, name: str, amount: float, n: Any, dim: int,
                  importance_scores: volta.Tensor | None = None) -> ModuleT:
    """Prunes ``amount`` of ``module.<name>``'s slices along ``dim``, those of smallest
    ``n``-norm."""
    LnStructured.apply(module, name, amount, n, dim, importance_scores=importance_scores)
    return module


def global_unstructured(parameters: Iterable[tuple[Module, str]], pruning_method: type,
                        importance_scores: dict | None = None, **kwargs: Any) -> None:
    """Prunes the ``(module, name)`` tensors together, as one vector: ``pruning_method``
    (unstructured, built from ``kwargs``) picks among all their entries; each tensor then gets
    its part of the mask through :class:`CustomFromMask`."""
    if not isinstance(parameters, Iterable):
        raise ArgumentError("global_unstructured(): parameters is not an Iterable")
    parameters = list(parameters)
    importance_scores = {} if importance_scores is None else importance_scores
    if not isinstance(importance_scores, dict):
        raise ArgumentError("global_unstructured(): importance_scores must be of type dict")
    scores = parameters_to_vector([importance_scores.get((module, name), getattr(module, name))
                                   for module, name in parameters])
    default_mask = parameters_to_vector([
        getattr(module, name + "_mask") if hasattr(module, name + "_mask")
        else volta.ones_like(getattr(module, name)) for module, name in parameters])
    method = pruning_method(**kwargs)
    if method.PRUNING_TYPE != "unstructured":
        raise ArgumentError('Only "unstructured" PRUNING_TYPE supported for the '
                            f"`pruning_method`. Found method {pruning_method} of type "
                            f"{method.PRUNING_TYPE}")
    method._tensor_name = "temp"
    container = PruningContainer()
    container._tensor_name = "temp"
    container.add_pruning_method(method)
    final_mask = container.compute_mask(scores, default_mask)
    start = 0
    for module, name in parameters:
        param = getattr(module, name)
        count = param.numel()
        custom_from_mask(module, name, mask=final_mask[start:start + count].view_as(param))
        start += count


def custom_from_mask(module: ModuleT, name: str, mask: volta.Tensor) -> ModuleT:
    """Prunes ``module.<name>`` where ``mask`` is 0."""
    CustomFromMask.apply(module, name, mask)
    return module


def remove(module: ModuleT, name: str) -> ModuleT:
    """Makes the pruning of ``module.<name>`` permanent (see
    :meth:`BasePruningMethod.remove`)."""
    for key, hook in module._forward_pre_hooks.items():
        if isinstance(hook, BasePruningMethod) and hook._tensor_name == name:
            hook.remove(module)
            del module._forward_pre_hooks[key]
            return module
    raise InvalidArgumentError(f"Parameter '{name}' of module {module} has to be pruned before "
                               "pruning can be removed")


def is_pruned(module: Module) -> bool:
    """Whether ``module`` or a submodule has a pruning hook."""
    return any(isinstance(hook, BasePruningMethod)
               for submodule in module.modules()
               for hook in submodule._forward_pre_hooks.values())
