"""``volta.nn.init``: in-place initialisations of parameters, PyTorch's names and formulas.

Every function fills its tensor under ``no_grad`` with volta ops and returns it.
"""

from __future__ import annotations

import math
import warnings
from typing import Any

import volta

Tensor = volta.Tensor

__all__ = ["calculate_gain", "uniform_", "normal_", "constant_", "zeros_", "ones_", "eye_",
           "xavier_uniform_", "xavier_normal_", "kaiming_uniform_", "kaiming_normal_",
           "trunc_normal_", "orthogonal_", "dirac_", "sparse_", "uniform", "normal", "constant",
           "eye", "dirac", "xavier_uniform", "xavier_normal", "kaiming_uniform", "kaiming_normal",
           "orthogonal", "sparse"]


def calculate_gain(nonlinearity: str, param: float | None = None) -> float:
    """The recommended gain for a nonlinearity (e.g. ``sqrt(2)`` for ``"relu"``).

    Args:
        nonlinearity: ``"linear"``, ``"conv*"``, ``"sigmoid"``, ``"tanh"``, ``"relu"``,
            ``"leaky_relu"`` or ``"selu"``.
        param: the negative slope of ``"leaky_relu"`` (default 0.01).
    """
    linear = {"linear", "conv1d", "conv2d", "conv3d", "conv_transpose1d", "conv_transpose2d",
              "conv_transpose3d", "sigmoid"}
    if nonlinearity in linear:
        return 1.0
    if nonlinearity == "tanh":
        return 5.0 / 3
    if nonlinearity == "relu":
        return math.sqrt(2.0)
    if nonlinearity == "leaky_relu":
        if param is None:
            slope = 0.01
        elif isinstance(param, (int, float)) and not isinstance(param, bool):
            slope = param
        else:
            raise volta.InvalidArgumentError(f"negative_slope {param} not a valid number")
        return math.sqrt(2.0 / (1 + slope ** 2))
    if nonlinearity == "selu":
        return 3.0 / 4
    raise volta.InvalidArgumentError(f"Unsupported nonlinearity {nonlinearity}")


def _calculate_fan_in_and_fan_out(tensor: Tensor) -> tuple[int, int]:
    if tensor.ndim < 2:
        raise volta.InvalidArgumentError(
            "Fan in and fan out can not be computed for tensor with fewer than "
            "2 dimensions")
    receptive_field = 1
    for s in tensor.shape[2:]:
        receptive_field *= s
    return tensor.shape[1] * receptive_field, tensor.shape[0] * receptive_field


def _calculate_correct_fan(tensor: Tensor, mode: str) -> int:
    mode = mode.lower()
    if mode not in ("fan_in", "fan_out"):
        raise volta.InvalidArgumentError(
            f"Mode {mode} not supported, please use one of fan_in, fan_out")
    fan_in, fan_out = _calculate_fan_in_and_fan_out(tensor)
    return fan_in if mode == "fan_in" else fan_out


def uniform_(tensor: Tensor, a: float = 0.0, b: float = 1.0, generator: Any = None) -> Tensor:
    """Fills ``tensor`` from U(a, b)."""
    with volta.no_grad():
        return tensor.uniform_(a, b, generator=generator)


def normal_(tensor: Tensor, mean: float = 0.0, std: float = 1.0, generator: Any = None) -> Tensor:
    """Fills ``tensor`` from N(mean, std**2)."""
    with volta.no_grad():
        return tensor.normal_(mean, std, generator=generator)


def constant_(tensor: Tensor, val: float) -> Tensor:
    with volta.no_grad():
        return tensor.fill_(val)


def zeros_(tensor: Tensor) -> Tensor:
    with volta.no_grad():
        return tensor.zero_()


def ones_(tensor: Tensor) -> Tensor:
    return constant_(tensor, 1.0)


def eye_(tensor: Tensor) -> Tensor:
    """Fills a 2-D tensor with the identity matrix."""
    if tensor.ndim != 2:
        raise volta.InvalidArgumentError("Only tensors with 2 dimensions are supported")
    with volta.no_grad():
        return tensor.copy_(volta.eye(*tensor.shape, dtype=tensor.dtype))


def _no_elements(tensor: Tensor) -> bool:
    # a layer with a zero-sized dimension (fan 0) has nothing to draw, as in PyTorch
    if 0 in tuple(tensor.shape):
        warnings.warn("Initializing zero-element tensors is a no-op", stacklevel=3)
        return True
    return False


def xavier_uniform_(tensor: Tensor, gain: float = 1.0, generator: Any = None) -> Tensor:
    """Glorot uniform: U(-a, a) with ``a = gain * sqrt(6 / (fan_in + fan_out))``."""
    fan_in, fan_out = _calculate_fan_in_and_fan_out(tensor)
    bound = gain * math.sqrt(6.0 / float(fan_in + fan_out))
    return uniform_(tensor, -bound, bound, generator)


def xavier_normal_(tensor: Tensor, gain: float = 1.0, generator: Any = None) -> Tensor:
    """Glorot normal: N(0, std**2) with ``std = gain * sqrt(2 / (fan_in + fan_out))``."""
    fan_in, fan_out = _calculate_fan_in_and_fan_out(tensor)
    std = gain * math.sqrt(2.0 / float(fan_in + fan_out))
    return normal_(tensor, 0.0, std, generator)


def kaiming_uniform_(tensor: Tensor, a: float = 0.0, mode: str = "fan_in",
                     nonlinearity: str = "leaky_relu", generator: Any = None) -> Tensor:
    """He uniform: U(-b, b) with ``b = gain * sqrt(3 / fan)``.

    Args:
        a: the negative slope of the rectifier after this layer (``leaky_relu``).
        mode: ``"fan_in"`` (keeps forward variance) or ``"fan_out"`` (backward variance).
        nonlinearity: as for :func:`calculate_gain`.
    """
    if _no_elements(tensor):
        return tensor
    fan = _calculate_correct_fan(tensor, mode)
    bound = math.sqrt(3.0) * calculate_gain(nonlinearity, a) / math.sqrt(fan)
    return uniform_(tensor, -bound, bound, generator)


def kaiming_normal_(tensor: Tensor, a: float = 0.0, mode: str = "fan_in",
                    nonlinearity: str = "leaky_relu", generator: Any = None) -> Tensor:
    """He normal: N(0, std**2) with ``std = gain / sqrt(fan)``."""
    if _no_elements(tensor):
        return tensor
    fan = _calculate_correct_fan(tensor, mode)
    std = calculate_gain(nonlinearity, a) / math.sqrt(fan)
    return normal_(tensor, 0.0, std, generator)


def trunc_normal_(tensor: Tensor, mean: float = 0.0, std: float = 1.0, a: float = -2.0,
                  b: float = 2.0, generator: Any = None) -> Tensor:
    """N(mean, std**2) truncated to ``[a, b]``, by inverting the normal CDF of a uniform
    sample drawn between the CDF values of the bounds."""
    def cdf(x: float) -> float:
        return (1.0 + math.erf(x / math.sqrt(2.0))) / 2.0

    low, high = cdf((a - mean) / std), cdf((b - mean) / std)
    with volta.no_grad():
        tensor.uniform_(2 * low - 1, 2 * high - 1, generator=generator)
        tensor.copy_(tensor.erfinv() * (std * math.sqrt(2.0)) + mean)
        return tensor.clamp_(min=a, max=b)


def orthogonal_(tensor: Tensor, gain: float = 1.0, generator: Any = None) -> Tensor:
    """A (semi-)orthogonal matrix from a normal sample (Saxe et al. 2013); dimensions after the
    first are flattened. Orthonormalises by modified Gram-Schmidt on the smaller side."""
    if tensor.ndim < 2:
        raise volta.InvalidArgumentError("Only tensors with 2 or more dimensions are supported")
    if tensor.numel() == 0:
        return tensor
    rows = tensor.shape[0]
    cols = tensor.numel() // rows
    with volta.no_grad():
        sample = volta.empty(rows, cols, dtype=tensor.dtype, device=tensor.device)
        sample.normal_(0.0, 1.0, generator=generator)
        flat = sample if rows >= cols else sample.t()
        basis: list[Tensor] = []
        for j in range(flat.shape[1]):
            v = flat[:, j]
            for q in basis:
                v = v - (q * v).sum() * q
            basis.append(v / v.norm())
        q_mat = volta.stack(basis, 1)
        if rows < cols:
            q_mat = q_mat.t()
        return tensor.copy_(q_mat.reshape(tensor.shape) * gain)


def dirac_(tensor: Tensor, groups: int = 1) -> Tensor:
    """The identity convolution: a 3-, 4- or 5-d weight that passes input channel ``d`` to
    output channel ``d`` (of each of ``groups``) through the kernel's centre tap."""
    if tensor.ndim not in (3, 4, 5):
        raise volta.InvalidArgumentError("Only tensors with 3, 4, or 5 dimensions are supported")
    if tensor.shape[0] % groups:
        raise volta.InvalidArgumentError("dim 0 must be divisible by groups")
    per_group = tensor.shape[0] // groups
    centre = tuple(size // 2 for size in tensor.shape[2:])
    with volta.no_grad():
        tensor.zero_()
        for g in range(groups):
            for d in range(min(per_group, tensor.shape[1])):
                tensor[(g * per_group + d, d, *centre)] = 1
    return tensor


def sparse_(tensor: Tensor, sparsity: float, std: float = 0.01,
            generator: Any = None) -> Tensor:
    """A 2-d tensor drawn from N(0, std**2) with ``ceil(sparsity * rows)`` random zeros in each
    column (Martens 2010)."""
    if tensor.ndim != 2:
        raise volta.InvalidArgumentError("Only tensors with 2 dimensions are supported")
    rows, cols = tensor.shape
    zeros_per_column = math.ceil(sparsity * rows)
    with volta.no_grad():
        tensor.normal_(0, std, generator=generator)
        for column in range(cols):
            tensor[volta.randperm(rows)[:zeros_per_column], column] = 0
    return tensor


def _deprecated_alias(method: Any) -> Any:
    """PyTorch's old name of an init function (without the trailing ``_``), with its
    FutureWarning."""
    old_name = method.__name__[:-1]

    def deprecated_init(*args: Any, **kwargs: Any) -> Tensor:
        warnings.warn(f"`nn.init.{old_name}` is now deprecated in favor of "
                      f"`nn.init.{method.__name__}`.", FutureWarning, stacklevel=2)
        return method(*args, **kwargs)

    deprecated_init.__name__ = old_name
    deprecated_init.__doc__ = f"Deprecated: use :func:`{method.__name__}`."
    return deprecated_init


uniform = _deprecated_alias(uniform_)
normal = _deprecated_alias(normal_)
constant = _deprecated_alias(constant_)
eye = _deprecated_alias(eye_)
dirac = _deprecated_alias(dirac_)
xavier_uniform = _deprecated_alias(xavier_uniform_)
xavier_normal = _deprecated_alias(xavier_normal_)
kaiming_uniform = _deprecated_alias(kaiming_uniform_)
kaiming_normal = _deprecated_alias(kaiming_normal_)
orthogonal = _deprecated_alias(orthogonal_)
sparse = _deprecated_alias(sparse_)
