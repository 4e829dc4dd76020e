"""Normalization: ``BatchNorm1d/2d/3d``, ``SyncBatchNorm``, ``InstanceNorm1d/2d/3d`` (and their
lazy forms), ``LayerNorm``, ``GroupNorm``, ``RMSNorm``, ``LocalResponseNorm``."""

from __future__ import annotations

import warnings
from typing import Any

import volta
import volta.nn.functional as F
from volta.nn import init
from volta.nn.modules.lazy import LazyModuleMixin
from volta.nn.modules.module import Module
from volta.nn.parameter import Parameter, UninitializedBuffer, UninitializedParameter


def _affine_parameters(module: Module, shape: tuple, weight: bool, bias: bool | None,
                       device: Any, dtype: Any) -> None:
    """Registers ``weight`` (ones of ``shape``) and ``bias`` (zeros), each ``None`` when absent;
    ``bias=None``: the layer has no bias at all (RMSNorm)."""
    if weight:
        module.weight = Parameter(volta.ones(*shape, device=device, dtype=dtype))
    else:
        module.register_parameter("weight", None)
    if bias is None:
        return
    if weight and bias:
        module.bias = Parameter(volta.zeros(*shape, device=device, dtype=dtype))
    else:
        module.register_parameter("bias", None)


def _reset_affine(module: Module) -> None:
    """PyTorch's default affine parameters: weight ones, bias zeros."""
    if module.weight is not None:
        init.ones_(module.weight)
    if getattr(module, "bias", None) is not None:
        init.zeros_(module.bias)


class _NormBase(Module):
    """Per-channel affine parameters and running statistics (BatchNorm, InstanceNorm)."""

    def __init__(self, num_features: int, eps: float, momentum: float | None, affine: bool,
                 track_running_stats: bool, device: Any, dtype: Any, bias: bool) -> None:
        super().__init__()
        self.num_features = num_features
        self.eps = eps
        self.momentum = momentum
        self.affine = affine
        self.track_running_stats = track_running_stats
        _affine_parameters(self, (num_features,), affine, bias, device, dtype)
        if track_running_stats:
            self.register_buffer("running_mean",
                                 volta.zeros(num_features, device=device, dtype=dtype))
            self.register_buffer("running_var",
                                 volta.ones(num_features, device=device, dtype=dtype))
            self.register_buffer("num_batches_tracked",
                                 volta.tensor(0, dtype=volta.int64, device=device))
        else:
            self.register_buffer("running_mean", None)
            self.register_buffer("running_var", None)
            self.register_buffer("num_batches_tracked", None)
        self.reset_parameters()

    def reset_running_stats(self) -> None:
        if self.track_running_stats:
            init.zeros_(self.running_mean)
            init.ones_(self.running_var)
            init.zeros_(self.num_batches_tracked)

    def reset_parameters(self) -> None:
        self.reset_running_stats()
        _reset_affine(self)

    def _check_input_dim(self, input: volta.Tensor) -> None:
        raise NotImplementedError

    def extra_repr(self) -> str:
        return (f"{self.num_features}, eps={self.eps}, momentum={self.momentum}, "
                f"affine={self.affine}, bias={self.bias is not None}, "
                f"track_running_stats={self.track_running_stats}")


class _BatchNorm(_NormBase):
    def __init__(self, num_features: int, eps: float = 1e-5, momentum: float | None = 0.1,
                 affine: bool = True, track_running_stats: bool = True, device: Any = None,
                 dtype: Any = None, *, bias: bool = True) -> None:
        super().__init__(num_features, eps, momentum, affine, track_running_stats, device, dtype,
                         bias)

    def forward(self, input: volta.Tensor) -> volta.Tensor:
        self._check_input_dim(input)
        factor = 0.0 if self.momentum is None else self.momentum
        if self.training and self.track_running_stats:
            with volta.no_grad():
                self.num_batches_tracked.add_(1)
            if self.momentum is None:
                # momentum=None: a cumulative moving average over all batches seen
                factor = 1.0 / float(self.num_batches_tracked.item())
        # batch statistics while training, and in eval when there are no running statistics
        use_batch_stats = self.training or self.running_mean is None
        # running statistics are updated only while training
        tracked = not self.training or self.track_running_stats
        return F.batch_norm(input, self.running_mean if tracked else None,
                            self.running_var if tracked else None, self.weight, self.bias,
                            use_batch_stats, factor, self.eps)


class BatchNorm1d(_BatchNorm):
    """Batch normalization over ``(N, C)`` or ``(N, C, L)``.

    Args:
        num_features: ``C``.
        eps: added to the variance. Default: ``1e-5``.
        momentum: running statistics factor; ``None`` for a cumulative average.
        affine: learnable ``weight`` and ``bias``. Default: ``True``.
        track_running_stats: keep ``running_mean``/``running_var`` buffers (used in eval).
        bias: with ``affine``, whether there is a ``bias``. Default: ``True``.
    """

    def _check_input_dim(self, input: volta.Tensor) -> None:
        if input.ndim not in (2, 3):
            raise volta.InvalidArgumentError(f"expected 2D or 3D input (got {input.ndim}D input)")


class BatchNorm2d(_BatchNorm):
    """Batch normalization over ``(N, C, H, W)``; arguments as :class:`BatchNorm1d`."""

    def _check_input_dim(self, input: volta.Tensor) -> None:
        if input.ndim != 4:
            raise volta.InvalidArgumentError(f"expected 4D input (got {input.ndim}D input)")


class BatchNorm3d(_BatchNorm):
    """Batch normalization over ``(N, C, D, H, W)``; arguments as :class:`BatchNorm1d`."""

    def _check_input_dim(self, input: volta.Tensor) -> None:
        if input.ndim != 5:
            raise volta.InvalidArgumentError(f"expected 5D input (got {input.ndim}D input)")


class SyncBatchNorm(_BatchNorm):
    """Batch normalization over ``(N, C, *)`` whose statistics PyTorch gathers across the
    processes of ``process_group`` while training. volta runs in one process (as PyTorch does
    without an initialized process group), so this is a :class:`BatchNorm1d`/``2d``/``3d``
    for any input of at least two dimensions; :meth:`convert_sync_batchnorm` converts a
    model's batch norms as PyTorch's does."""

    def __init__(self, num_features: int, eps: float = 1e-5, momentum: float | None = 0.1,
                 affine: bool = True, track_running_stats: bool = True,
                 process_group: Any = None, device: Any = None, dtype: Any = None, *,
                 bias: bool = True) -> None:
        super().__init__(num_features, eps, momentum, affine, track_running_stats, device,
                         dtype, bias=bias)
        self.process_group = process_group

    def _check_input_dim(self, input: volta.Tensor) -> None:
        if input.ndim < 2:
            raise volta.InvalidArgumentError(
                f"expected at least 2D input (got {input.ndim}D input)")
        if input.shape[1] == 0:
            raise volta.InvalidArgumentError(
                "SyncBatchNorm number of input channels should be non-zero")

    @classmethod
    def convert_sync_batchnorm(cls, module: Module, process_group: Any = None) -> Module:
        """``module`` with every batch norm in it replaced by a ``SyncBatchNorm`` that shares
        its parameters and running statistics (a batch norm ``module`` itself is replaced)."""
        converted = module
        if isinstance(module, _BatchNorm):
            converted = SyncBatchNorm(module.num_features, module.eps, module.momentum,
                                      module.affine, module.track_running_stats, process_group,
                                      bias=module.bias is not None)
            if module.affine:
                converted.weight = module.weight
                converted.bias = module.bias
            converted.running_mean = module.running_mean
            converted.running_var = module.running_var
            converted.num_batches_tracked = module.num_batches_tracked
            converted.training = module.training
        for name, child in module.named_children():
            converted.add_module(name, cls.convert_sync_batchnorm(child, process_group))
        return converted


class _InstanceNorm(_NormBase):
    """Normalizes each channel of each sample over its ``spatial_dims`` trailing dimensions;
    the batch dimension is optional. Defaults: no affine parameters, no running statistics."""

    spatial_dims: int

    def __init__(self, num_features: int, eps: float = 1e-5, momentum: float | None = 0.1,
                 affine: bool = False, track_running_stats: bool = False, device: Any = None,
                 dtype: Any = None, *, bias: bool = True) -> None:
        super().__init__(num_features, eps, momentum, affine, track_running_stats, device, dtype,
                         bias)

    def forward(self, input: volta.Tensor) -> volta.Tensor:
        unbatched_dims = self.spatial_dims + 1
        if input.ndim not in (unbatched_dims, unbatched_dims + 1):
            raise volta.InvalidArgumentError(
                f"expected {unbatched_dims}D or {unbatched_dims + 1}D input "
                f"(got {input.ndim}D input)")
        feature_dim = input.ndim - unbatched_dims
        if input.shape[feature_dim] != self.num_features:
            if self.affine:
                raise volta.ShapeError(
                    f"expected input's size at dim={feature_dim} to match num_features "
                    f"({self.num_features}), but got: {input.shape[feature_dim]}.")
            warnings.warn(f"input's size at dim={feature_dim} does not match num_features. "
                          "You can silence this warning by not passing in num_features, which "
                          "is not used because affine=False", stacklevel=2)
        unbatched = input.ndim == unbatched_dims
        x = input.unsqueeze(0) if unbatched else input
        out = F.instance_norm(x, self.running_mean, self.running_var, self.weight, self.bias,
                              self.training or not self.track_running_stats,
                              0.0 if self.momentum is None else self.momentum, self.eps)
        return out.squeeze(0) if unbatched else out


class InstanceNorm1d(_InstanceNorm):
    """Instance normalization of ``(N, C, L)`` or ``(C, L)`` over ``L``.

    Args:
        num_features: ``C``.
        eps: added to the variance. Default: ``1e-5``.
        momentum: running statistics factor (with ``track_running_stats``).
        affine: learnable per-channel ``weight`` and ``bias``. Default: ``False``.
        track_running_stats: keep running statistics and use them in eval. Default: ``False``.
    """

    spatial_dims = 1


class InstanceNorm2d(_InstanceNorm):
    """Instance normalization of ``(N, C, H, W)`` or ``(C, H, W)`` over ``(H, W)``; arguments
    as :class:`InstanceNorm1d`."""

    spatial_dims = 2


class InstanceNorm3d(_InstanceNorm):
    """Instance normalization of ``(N, C, D, H, W)`` or ``(C, D, H, W)`` over ``(D, H, W)``;
    arguments as :class:`InstanceNorm1d`."""

    spatial_dims = 3


def _shape(normalized_shape: Any) -> tuple:
    if isinstance(normalized_shape, int):
        return (normalized_shape,)
    return tuple(normalized_shape)


class LayerNorm(Module):
    """Normalizes over the last ``len(normalized_shape)`` dimensions.

    Args:
        normalized_shape: the trailing shape to normalize over.
        eps: added to the variance. Default: ``1e-5``.
        elementwise_affine: learnable ``weight`` (ones) and ``bias`` (zeros).
        bias: whether the affine transform has a bias.
    """

    def __init__(self, normalized_shape: Any, eps: float = 1e-5,
                 elementwise_affine: bool = True, bias: bool = True, device: Any = None,
                 dtype: Any = None) -> None:
        super().__init__()
        self.normalized_shape = _shape(normalized_shape)
        self.eps = eps
        self.elementwise_affine = elementwise_affine
        _affine_parameters(self, self.normalized_shape, elementwise_affine, bias, device, dtype)

    def reset_parameters(self) -> None:
        _reset_affine(self)

    def forward(self, input: volta.Tensor) -> volta.Tensor:
        return F.layer_norm(input, self.normalized_shape, self.weight, self.bias, self.eps)

    def extra_repr(self) -> str:
        return (f"{self.normalized_shape}, eps={self.eps}, "
                f"elementwise_affine={self.elementwise_affine}, bias={self.bias is not None}")


class GroupNorm(Module):
    """Normalizes ``(N, C, *)`` over groups of ``C / num_groups`` channels.

    Args:
        num_groups: number of groups (must divide ``num_channels``).
        num_channels: ``C``.
        eps: added to the variance. Default: ``1e-5``.
        affine: learnable per-channel ``weight`` and ``bias``.
    """

    def __init__(self, num_groups: int, num_channels: int, eps: float = 1e-5,
                 affine: bool = True, bias: bool = True, device: Any = None,
                 dtype: Any = None) -> None:
        super().__init__()
        if num_channels % num_groups:
            raise volta.InvalidArgumentError("num_channels must be divisible by num_groups")
        self.num_groups = num_groups
        self.num_channels = num_channels
        self.eps = eps
        self.affine = affine
        _affine_parameters(self, (num_channels,), affine, bias, device, dtype)

    def reset_parameters(self) -> None:
        _reset_affine(self)

    def forward(self, input: volta.Tensor) -> volta.Tensor:
        return F.group_norm(input, self.num_groups, self.weight, self.bias, self.eps)

    def extra_repr(self) -> str:
        return (f"{self.num_groups}, {self.num_channels}, eps={self.eps}, "
                f"affine={self.affine}, bias={self.bias is not None}")


class RMSNorm(Module):
    """``x / sqrt(mean(x**2) + eps) * weight`` over the trailing ``normalized_shape``.

    Args:
        normalized_shape: the trailing shape to normalize over.
        eps: added inside the root; ``None`` uses the dtype's machine epsilon.
        elementwise_affine: learnable ``weight`` (ones).
    """

    def __init__(self, normalized_shape: Any, eps: float | None = None,
                 elementwise_affine: bool = True, device: Any = None, dtype: Any = None) -> None:
        super().__init__()
        self.normalized_shape = _shape(normalized_shape)
        self.eps = eps
        self.elementwise_affine = elementwise_affine
        _affine_parameters(self, self.normalized_shape, elementwise_affine, None, device, dtype)

    def reset_parameters(self) -> None:
        _reset_affine(self)

    def forward(self, input: volta.Tensor) -> volta.Tensor:
        return F.rms_norm(input, self.normalized_shape, self.weight, self.eps)

    def extra_repr(self) -> str:
        return (f"{self.normalized_shape}, eps={self.eps}, "
                f"elementwise_affine={self.elementwise_affine}")


class LocalResponseNorm(Module):
    """Divides each value by ``(k + alpha * mean of x**2 over size neighbouring channels) **
    beta``. Input ``(N, C, *)``."""

    def __init__(self, size: int, alpha: float = 1e-4, beta: float = 0.75,
                 k: float = 1.0) -> None:
        super().__init__()
        self.size = size
        self.alpha = alpha
        self.beta = beta
        self.k = k

    def forward(self, input: volta.Tensor) -> volta.Tensor:
        return F.local_response_norm(input, self.size, self.alpha, self.beta, self.k)

    def extra_repr(self) -> str:
        return f"{self.size}, alpha={self.alpha}, beta={self.beta}, k={self.k}"


class _LazyNormBase(LazyModuleMixin, _NormBase):
    """A batch or instance norm whose ``num_features`` is taken from its first input
    (``input.shape[1]``); it then becomes its ``cls_to_become``. PyTorch's defaults: affine
    parameters and running statistics, for the instance norms too."""

    def __init__(self, eps: float = 1e-5, momentum: float | None = 0.1, affine: bool = True,
                 track_running_stats: bool = True, device: Any = None, dtype: Any = None
                 ) -> None:
        super().__init__(0, eps, momentum, False, False, device, dtype)
        self.affine = affine
        self.track_running_stats = track_running_stats
        if affine:
            self.weight = UninitializedParameter(device=device, dtype=dtype)
            self.bias = UninitializedParameter(device=device, dtype=dtype)
        if track_running_stats:
            self.running_mean = UninitializedBuffer(device=device, dtype=dtype)
            self.running_var = UninitializedBuffer(device=device, dtype=dtype)
            self.num_batches_tracked = volta.tensor(0, dtype=volta.int64, device=device)

    def reset_parameters(self) -> None:
        if not self.has_uninitialized_params() and self.num_features != 0:
            super().reset_parameters()

    def initialize_parameters(self, input: volta.Tensor) -> None:
        if not self.has_uninitialized_params():
            return
        self.num_features = input.shape[1]
        with volta.no_grad():
            for name in ("weight", "bias", "running_mean", "running_var"):
                entry = getattr(self, name)
                if entry is not None:
                    entry.materialize((self.num_features,))
            self.reset_parameters()


class LazyBatchNorm1d(_LazyNormBase, _BatchNorm):
    """A :class:`BatchNorm1d` whose ``num_features`` is inferred from its first input."""

    cls_to_become = BatchNorm1d
    _check_input_dim = BatchNorm1d._check_input_dim


class LazyBatchNorm2d(_LazyNormBase, _BatchNorm):
    """A :class:`BatchNorm2d` whose ``num_features`` is inferred from its first input."""

    cls_to_become = BatchNorm2d
    _check_input_dim = BatchNorm2d._check_input_dim


class LazyBatchNorm3d(_LazyNormBase, _BatchNorm):
    """A :class:`BatchNorm3d` whose ``num_features`` is inferred from its first input."""

    cls_to_become = BatchNorm3d
    _check_input_dim = BatchNorm3d._check_input_dim


class LazyInstanceNorm1d(_LazyNormBase, _InstanceNorm):
    """An :class:`InstanceNorm1d` whose ``num_features`` is inferred from its first input."""

    cls_to_become = InstanceNorm1d
    spatial_dims = 1


class LazyInstanceNorm2d(_LazyNormBase, _InstanceNorm):
    """An :class:`InstanceNorm2d` whose ``num_features`` is inferred from its first input."""

    cls_to_become = InstanceNorm2d
    spatial_dims = 2


class LazyInstanceNorm3d(_LazyNormBase, _InstanceNorm):
    """An :class:`InstanceNorm3d` whose ``num_features`` is inferred from its first input."""

    cls_to_become = InstanceNorm3d
    spatial_dims = 3
