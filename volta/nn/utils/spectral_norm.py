"""Spectral normalization, PyTorch's hook-based API (``torch.nn.utils.spectral_norm``): the
parameter ``name`` becomes ``name_orig``, and before each forward ``name = name_orig / sigma``,
``sigma`` the largest singular value of ``name_orig`` (as a matrix with ``dim`` first),
estimated by power iteration on the buffers ``name_u`` and ``name_v`` (one or more steps per
forward while training, none in eval). Same ``state_dict`` keys as PyTorch."""

from __future__ import annotations

from typing import Any, TypeVar

import volta
import volta.nn.functional as F
from volta.errors import InvalidArgumentError, InvalidOperationError
from volta.nn.modules.conv import ConvTranspose1d, ConvTranspose2d, ConvTranspose3d
from volta.nn.modules.module import Module
from volta.nn.parameter import Parameter

ModuleT = TypeVar("ModuleT", bound=Module)


class SpectralNorm:
    """The forward pre-hook that recomputes ``module.<name>`` from ``<name>_orig`` and the
    power-iteration vectors ``<name>_u``, ``<name>_v``."""

    def __init__(self, name: str = "weight", n_power_iterations: int = 1, dim: int = 0,
                 eps: float = 1e-12) -> None:
        if n_power_iterations <= 0:
            raise InvalidArgumentError("Expected n_power_iterations to be positive, but got "
                                       f"n_power_iterations={n_power_iterations}")
        self.name = name
        self.dim = dim
        self.n_power_iterations = n_power_iterations
        self.eps = eps

    def reshape_weight_to_matrix(self, weight: volta.Tensor) -> volta.Tensor:
        if self.dim != 0:
            weight = weight.permute(self.dim, *[d for d in range(weight.ndim) if d != self.dim])
        return weight.reshape(weight.shape[0], -1)

    def compute_weight(self, module: Module, do_power_iteration: bool) -> volta.Tensor:
        weight = getattr(module, self.name + "_orig")
        u = getattr(module, self.name + "_u")
        v = getattr(module, self.name + "_v")
        weight_mat = self.reshape_weight_to_matrix(weight)
        if do_power_iteration:
            with volta.no_grad():
                for _ in range(self.n_power_iterations):
                    # the buffers are updated in place, so the next forward starts from here
                    v.copy_(F.normalize(volta.mv(weight_mat.t(), u), dim=0, eps=self.eps))
                    u.copy_(F.normalize(volta.mv(weight_mat, v), dim=0, eps=self.eps))
                # sigma's backward must see this step's u and v, not later in-place updates
                u = u.clone()
                v = v.clone()
        sigma = volta.dot(u, volta.mv(weight_mat, v))
        return weight / sigma

    def remove(self, module: Module) -> None:
        with volta.no_grad():
            weight = self.compute_weight(module, do_power_iteration=False)
        delattr(module, self.name)
        delattr(module, self.name + "_u")
        delattr(module, self.name + "_v")
        delattr(module, self.name + "_orig")
        module.register_parameter(self.name, Parameter(weight.detach()))

    def __call__(self, module: Module, inputs: Any) -> None:
        setattr(module, self.name, self.compute_weight(module, module.training))

    @staticmethod
    def apply(module: Module, name: str, n_power_iterations: int, dim: int,
              eps: float) -> SpectralNorm:
        for hook in module._forward_pre_hooks.values():
            if isinstance(hook, SpectralNorm) and hook.name == name:
                raise InvalidOperationError(
                    f"Cannot register two spectral_norm hooks on the same parameter {name}")
        fn = SpectralNorm(name, n_power_iterations, dim, eps)
        weight = module._parameters.get(name)
        if weight is None:
            raise InvalidArgumentError(
                f"`SpectralNorm` cannot be applied as parameter `{name}` is None")
        with volta.no_grad():
            height, width = fn.reshape_weight_to_matrix(weight).shape
            u = F.normalize(weight.new_empty(height).normal_(0, 1), dim=0, eps=fn.eps)
            v = F.normalize(weight.new_empty(width).normal_(0, 1), dim=0, eps=fn.eps)
        delattr(module, fn.name)
        module.register_parameter(fn.name + "_orig", weight)
        # a plain attribute until the first forward recomputes it
        setattr(module, fn.name, weight.data)
        module.register_buffer(fn.name + "_u", u)
        module.register_buffer(fn.name + "_v", v)
        module.register_forward_pre_hook(fn)
        return fn


def spectral_norm(module: ModuleT, name: str = "weight", n_power_iterations: int = 1,
                  eps: float = 1e-12, dim: int | None = None) -> ModuleT:
    """Divides ``module.<name>`` by its spectral norm before every forward; ``dim`` (default
    0, 1 for transposed convolutions) is the output-feature dimension. Returns ``module``."""
    if dim is None:
        dim = 1 if isinstance(module, (ConvTranspose1d, ConvTranspose2d, ConvTranspose3d)) else 0
    SpectralNorm.apply(module, name, n_power_iterations, dim, eps)
    return module


def remove_spectral_norm(module: ModuleT, name: str = "weight") -> ModuleT:
    """Undoes :func:`spectral_norm`: ``<name>`` becomes a parameter holding
    ``<name>_orig / sigma`` (no further power iteration)."""
    for key, hook in module._forward_pre_hooks.items():
        if isinstance(hook, SpectralNorm) and hook.name == name:
            hook.remove(module)
            del module._forward_pre_hooks[key]
            return module
    raise InvalidArgumentError(f"spectral_norm of '{name}' not found in {module}")
