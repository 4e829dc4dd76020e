"""Weight normalization, PyTorch's hook-based API (``torch.nn.utils.weight_norm``): the
parameter ``name`` is replaced by a magnitude ``name_g`` and a direction ``name_v``, and a
forward pre-hook recomputes ``name = name_g * name_v / ||name_v||`` before each forward.
Deprecated in PyTorch in favour of ``parametrizations.weight_norm``, kept for its checkpoints
(same ``state_dict`` keys)."""

from __future__ import annotations

import warnings
from typing import Any, TypeVar

import volta
from volta.errors import InvalidArgumentError, InvalidOperationError
from volta.nn.modules.module import Module
from volta.nn.parameter import Parameter

ModuleT = TypeVar("ModuleT", bound=Module)


def norm_except_dim(v: volta.Tensor, pow: float = 2, dim: int = 0) -> volta.Tensor:
    """The ``pow``-norm of each slice of ``v`` along ``dim`` (a shape of ones but at ``dim``);
    ``dim=-1``: the norm of the whole tensor (0-dimensional)."""
    if dim == -1:
        return volta.linalg.vector_norm(v, pow)
    dim = dim % v.ndim
    others = [d for d in range(v.ndim) if d != dim]
    return volta.linalg.vector_norm(v, pow, dim=others, keepdim=True)


def _weight_norm(v: volta.Tensor, g: volta.Tensor, dim: int = 0) -> volta.Tensor:
    return v * (g / norm_except_dim(v, 2, dim))


class WeightNorm:
    """The forward pre-hook that recomputes ``module.<name>`` from ``<name>_g``/``<name>_v``."""

    def __init__(self, name: str, dim: int | None) -> None:
        self.name = name
        self.dim = -1 if dim is None else dim

    def compute_weight(self, module: Module) -> volta.Tensor:
        return _weight_norm(getattr(module, self.name + "_v"), getattr(module, self.name + "_g"),
                            self.dim)

    @staticmethod
    def apply(module: Module, name: str, dim: int | None) -> WeightNorm:
        warnings.warn("`volta.nn.utils.weight_norm` is deprecated in favor of "
                      "`volta.nn.utils.parametrizations.weight_norm`.", FutureWarning,
                      stacklevel=3)
        for hook in module._forward_pre_hooks.values():
            if isinstance(hook, WeightNorm) and hook.name == name:
                raise InvalidOperationError(
                    f"Cannot register two weight_norm hooks on the same parameter {name}")
        fn = WeightNorm(name, dim)
        weight = getattr(module, name)
        if not isinstance(weight, Parameter):
            raise InvalidArgumentError(f"weight_norm needs a parameter '{name}', got "
                                       f"{type(weight).__name__}")
        del module._parameters[name]
        module.register_parameter(name + "_g", Parameter(norm_except_dim(weight, 2, fn.dim).data))
        module.register_parameter(name + "_v", Parameter(weight.data))
        setattr(module, name, fn.compute_weight(module))
        module.register_forward_pre_hook(fn)
        return fn

    def remove(self, module: Module) -> None:
        weight = self.compute_weight(module)
        delattr(module, self.name)
        del module._parameters[self.name + "_g"]
        del module._parameters[self.name + "_v"]
        setattr(module, self.name, Parameter(weight.data))

    def __call__(self, module: Module, inputs: Any) -> None:
        setattr(module, self.name, self.compute_weight(module))


def weight_norm(module: ModuleT, name: str = "weight", dim: int | None = 0) -> ModuleT:
    """Reparametrizes ``module.<name>`` as ``<name>_g * <name>_v / ||<name>_v||``, the norm
    taken over every dimension but ``dim`` (``None``: over the whole tensor); returns
    ``module``."""
    WeightNorm.apply(module, name, dim)
    return module


def remove_weight_norm(module: ModuleT, name: str = "weight") -> ModuleT:
    """Undoes :func:`weight_norm`: ``<name>`` becomes a parameter again, with the current
    normalized value."""
    for key, hook in module._forward_pre_hooks.items():
        if isinstance(hook, WeightNorm) and hook.name == name:
            hook.remove(module)
            del module._forward_pre_hooks[key]
            return module
    raise InvalidArgumentError(f"weight_norm of '{name}' not found in {module}")
