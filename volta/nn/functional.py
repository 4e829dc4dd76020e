"""``volta.nn.functional``: PyTorch's functional API.

Most functions are the ops generated from ops.yaml (namespace ``nn.functional``); the ones below
only adapt PyTorch's Python signatures (``inplace=``, ``training=``, ``reduction=`` aliases,
argument order) to those ops.
"""

from __future__ import annotations

import inspect
import math
import warnings
from collections.abc import Sequence
from typing import Any

import volta
from volta._generated import functions as _F
from volta._generated import registry as _R
from volta.dispatch import binding as _b
from volta.errors import ArgumentError, IndexOutOfRangeError, InvalidArgumentError, ShapeError
from volta.nn import _interpolate
from volta.tensor.checks import check_hardtanh_limits, check_int_list_arg, check_pool_dtype
from volta.utils.checkpoint import checkpoint as _checkpoint

_generated = list(_F.NAMESPACES.get("nn.functional", ()))
globals().update({name: getattr(_F, name) for name in _generated})
__all__ = list(_generated)

Tensor = Any


def _export(fn: Any) -> Any:
    """Make ``fn`` public; a call that does not fit it is an ArgumentError naming it."""
    __all__.append(fn.__name__)
    return _b.checked(*_same_schema_op(fn))(fn)


def _same_schema_op(fn: Any) -> tuple:
    """The op whose schema ``fn`` takes verbatim, to explain wrong argument types; none when
    ``fn`` has PyTorch's own Python signature (``elu(input, alpha, inplace)``)."""
    handle = getattr(_R, fn.__name__, None)
    if handle is None:
        return ()
    names = ["input" if a.name == "self" else a.name for a in handle.schema.arguments]
    params = list(inspect.signature(fn).parameters)
    return (handle,) if params == names else ()


def _maybe_inplace(input: Tensor, out: Tensor, inplace: bool) -> Tensor:
    """PyTorch's ``inplace=True``: write the result back into ``input``."""
    return input.copy_(out) if inplace and out is not input else out


def _reduction(size_average: Any, reduce: Any, reduction: str) -> str:
    if size_average is None and reduce is None:
        return reduction
    size_average = True if size_average is None else size_average
    reduce = True if reduce is None else reduce
    if not reduce:
        return "none"
    return "mean" if size_average else "sum"


@_export
def relu(input: Tensor, inplace: bool = False) -> Tensor:
    return input.relu_() if inplace else _F.relu(input)


@_export
def relu_(input: Tensor) -> Tensor:
    return input.relu_()


@_export
def leaky_relu(input: Tensor, negative_slope: float = 0.01, inplace: bool = False) -> Tensor:
    return _maybe_inplace(input, _F.leaky_relu(input, negative_slope), inplace)


@_export
def elu(input: Tensor, alpha: float = 1.0, inplace: bool = False) -> Tensor:
    return _maybe_inplace(input, _F.elu(input, alpha), inplace)


@_export
def selu(input: Tensor, inplace: bool = False) -> Tensor:
    return _maybe_inplace(input, _F.selu(input), inplace)


@_export
def silu(input: Tensor, inplace: bool = False) -> Tensor:
    return _maybe_inplace(input, _F.silu(input), inplace)


@_export
def mish(input: Tensor, inplace: bool = False) -> Tensor:
    return _maybe_inplace(input, _F.mish(input), inplace)


@_export
def hardtanh(input: Tensor, min_val: float = -1.0, max_val: float = 1.0,
             inplace: bool = False) -> Tensor:
    check_hardtanh_limits(input, min_val, max_val)
    return _maybe_inplace(input, _F.hardtanh(input, min_val, max_val), inplace)


@_export
def relu6(input: Tensor, inplace: bool = False) -> Tensor:
    return _maybe_inplace(input, _F.relu6(input), inplace)


@_export
def hardsigmoid(input: Tensor, inplace: bool = False) -> Tensor:
    return _maybe_inplace(input, _F.hardsigmoid(input), inplace)


@_export
def hardswish(input: Tensor, inplace: bool = False) -> Tensor:
    return _maybe_inplace(input, _F.hardswish(input), inplace)


@_export
def softplus(input: Tensor, beta: float = 1.0, threshold: float = 20.0) -> Tensor:
    return _F.softplus(input, beta, threshold)


@_export
def softmax(input: Tensor, dim: int | None = None, _stacklevel: int = 3,
            dtype: Any = None) -> Tensor:
    return _F.softmax(input, _implicit_dim(input, dim), dtype)


@_export
def log_softmax(input: Tensor, dim: int | None = None, _stacklevel: int = 3,
                dtype: Any = None) -> Tensor:
    return _F.log_softmax(input, _implicit_dim(input, dim), dtype)


@_export
def softmin(input: Tensor, dim: int | None = None, _stacklevel: int = 3,
            dtype: Any = None) -> Tensor:
    return _F.softmax(-input, _implicit_dim(input, dim), dtype)


def _implicit_dim(input: Tensor, dim: int | None) -> int:
    if dim is not None:
        return dim
    return 0 if input.ndim in (0, 1, 3) else 1


@_export
def dropout(input: Tensor, p: float = 0.5, training: bool = True, inplace: bool = False) -> Tensor:
    return _maybe_inplace(input, _F.dropout(input, p, training), inplace)


@_export
def embedding(input: Tensor, weight: Tensor, padding_idx: int | None = None,
              max_norm: float | None = None, norm_type: float = 2.0,
              scale_grad_by_freq: bool = False, sparse: bool = False) -> Tensor:
    if padding_idx is not None and padding_idx < 0:
        padding_idx += weight.shape[0]
    if max_norm is not None:
        _embedding_renorm_(weight, input, max_norm, norm_type)
    return _F.embedding(weight, input, -1 if padding_idx is None else padding_idx,
                        scale_grad_by_freq, sparse)


def _embedding_renorm_(weight: Tensor, input: Tensor, max_norm: float,
                       norm_type: float) -> None:
    """PyTorch's ``embedding_renorm_``: the rows of ``weight`` that ``input`` looks up and whose
    ``norm_type``-norm exceeds ``max_norm`` are scaled, in place and outside autograd, to
    ``max_norm / (norm + 1e-7)`` of themselves."""
    with _no_grad():
        rows = input.reshape(-1)
        picked = weight.index_select(0, rows)
        norms = picked.norm(norm_type, dim=1, keepdim=True)
        scale = (max_norm / (norms + 1e-7)).where(norms > max_norm, norms.new_ones(()))
        # a row looked up twice is written twice with the same value
        weight.index_put_((rows,), picked * scale)


@_export
def batch_norm(input: Tensor, running_mean: Tensor | None, running_var: Tensor | None,
               weight: Tensor | None = None, bias: Tensor | None = None,
               training: bool = False, momentum: float = 0.1, eps: float = 1e-5) -> Tensor:
    return _F.batch_norm(input, weight, bias, running_mean, running_var, training, momentum, eps,
                         True)


def _pool_stride(stride: Any) -> Any:
    """A pooling stride: None (or []) means the kernel size; 0 is passed on, to be rejected."""
    return [] if stride is None else stride


@_export
def max_pool1d(input: Tensor, kernel_size: Any, stride: Any = None, padding: Any = 0,
               dilation: Any = 1, ceil_mode: bool = False, return_indices: bool = False) -> Any:
    if return_indices:
        x = input if input.ndim == 3 else input.unsqueeze(0)
        check_pool_dtype("max_pool1d_with_indices", input.dtype)
        out, idx = _R.max_pool_with_indices(x, _tup(kernel_size, 1), _tup(_pool_stride(stride), 1),
                                            _tup(padding, 1), _tup(dilation, 1), ceil_mode)
        return (out, idx) if input.ndim == 3 else (out.squeeze(0), idx.squeeze(0))
    return _F.max_pool1d(input, kernel_size, _pool_stride(stride), padding, dilation, ceil_mode)


@_export
def max_pool2d(input: Tensor, kernel_size: Any, stride: Any = None, padding: Any = 0,
               dilation: Any = 1, ceil_mode: bool = False, return_indices: bool = False) -> Any:
    if return_indices:
        return _F.max_pool2d_with_indices(input, kernel_size, _pool_stride(stride), padding,
                                          dilation, ceil_mode)
    return _F.max_pool2d(input, kernel_size, _pool_stride(stride), padding, dilation, ceil_mode)


def _tup(v: Any, n: int) -> tuple:
    if isinstance(v, (int, float)):
        return (v,) * n
    return tuple(v)


@_export
def avg_pool1d(input: Tensor, kernel_size: Any, stride: Any = None, padding: Any = 0,
               ceil_mode: bool = False, count_include_pad: bool = True) -> Tensor:
    return _F.avg_pool1d(input, kernel_size, _pool_stride(stride), padding, ceil_mode,
                         count_include_pad)


@_export
def avg_pool2d(input: Tensor, kernel_size: Any, stride: Any = None, padding: Any = 0,
               ceil_mode: bool = False, count_include_pad: bool = True,
               divisor_override: int | None = None) -> Tensor:
    return _F.avg_pool2d(input, kernel_size, _pool_stride(stride), padding, ceil_mode,
                         count_include_pad, divisor_override)


@_export
def adaptive_max_pool2d(input: Tensor, output_size: Any, return_indices: bool = False) -> Any:
    size = _adaptive_size("adaptive_max_pool2d", input, output_size, 2)
    if return_indices:
        x = input if input.ndim == 4 else input.unsqueeze(0)
        check_pool_dtype("adaptive_max_pool2d", input.dtype)
        out, idx = _R.adaptive_max_pool(x, size)
        return (out, idx) if input.ndim == 4 else (out.squeeze(0), idx.squeeze(0))
    return _F.adaptive_max_pool2d(input, size)


@_export
def adaptive_max_pool1d(input: Tensor, output_size: Any, return_indices: bool = False) -> Any:
    out, indices = _F.adaptive_max_pool1d(
        input, _adaptive_size("adaptive_max_pool1d", input, output_size, 1))
    return (out, indices) if return_indices else out


@_export
def adaptive_avg_pool1d(input: Tensor, output_size: Any) -> Tensor:
    return _F.adaptive_avg_pool1d(input, _adaptive_size("adaptive_avg_pool1d", input,
                                                        output_size, 1))


@_export
def adaptive_avg_pool2d(input: Tensor, output_size: Any) -> Tensor:
    return _F.adaptive_avg_pool2d(input, _adaptive_size("adaptive_avg_pool2d", input,
                                                        output_size, 2))


def _adaptive_size(name: str, input: Any, output_size: Any, n: int) -> tuple:
    """An adaptive pool's ``output_size`` as PyTorch reads it: one int for every dimension, or
    exactly n ints (None keeps the input's size, from 2-d pooling up); volta's int[n] parsing
    would repeat a one-element list and truncate a float."""
    if not isinstance(input, volta.Tensor):
        raise ArgumentError(f"{name}(): argument 'input' (position 1) must be Tensor, not "
                            f"{type(input).__name__}")
    if isinstance(output_size, int):
        sizes: tuple = (output_size,) * n
    elif isinstance(output_size, (list, tuple)):
        for pos, s in enumerate(output_size):
            if not isinstance(s, int) and (s is not None or n == 1):
                raise ArgumentError(f"{name}(): argument 'output_size' (position 2) must be "
                                    f"tuple of ints, but found element of type "
                                    f"{type(s).__name__} at pos {pos}")
        sizes = tuple(output_size)
    else:
        raise ArgumentError(f"{name}(): argument 'output_size' (position 2) must be tuple of "
                            f"ints, not {type(output_size).__name__}")
    if len(sizes) != n:
        raise InvalidArgumentError(
            f"{name}() argument 'output_size' should contain one int (got {len(sizes)})" if n == 1
            else f"{name}: output_size must be {n}" if "avg" in name
            else f"{name}(): internal error: output_size.size() must be {n}")
    return _resolve_output(input, sizes)


def _resolve_output(x: Tensor, size: Sequence[Any]) -> tuple:
    if None in size and x.ndim < len(size):
        bound = max(x.ndim, 1)
        raise IndexOutOfRangeError(f"Dimension out of range (expected to be in range of "
                                   f"[{-bound}, {bound - 1}], but got {-len(size)})")
    spatial = x.shape[-len(size):]
    return tuple(s if s is not None else spatial[i] for i, s in enumerate(size))


@_export
def cross_entropy(input: Tensor, target: Tensor, weight: Tensor | None = None,
                  size_average: Any = None, ignore_index: int = -100, reduce: Any = None,
                  reduction: str = "mean", label_smoothing: float = 0.0) -> Tensor:
    return _F.cross_entropy(input, target, weight, _reduction(size_average, reduce, reduction),
                            ignore_index, label_smoothing)


@_export
def nll_loss(input: Tensor, target: Tensor, weight: Tensor | None = None,
             size_average: Any = None, ignore_index: int = -100, reduce: Any = None,
             reduction: str = "mean") -> Tensor:
    return _F.nll_loss(input, target, weight, _reduction(size_average, reduce, reduction),
                       ignore_index)


def _elementwise_loss(op: Any, input: Tensor, target: Tensor, reduction: str,
                      weight: Tensor | None, weighted_mean: bool, *args: Any) -> Tensor:
    """``op(input, target, reduction, *args)``, with PyTorch's ``weight=`` of ``mse_loss``,
    ``l1_loss`` and ``huber_loss``: a per-element weight of input's shape; mse's and l1's mean
    divide by the weights' sum, huber's by the element count."""
    if weight is None:
        return op(input, target, reduction, *args)
    if tuple(weight.shape) != tuple(input.shape):
        raise InvalidArgumentError("Weights and input must have the same size.")
    loss = op(input, target, "none", *args) * weight
    if reduction == "none":
        return loss
    if reduction == "sum":
        return loss.sum()
    if reduction == "mean":
        return loss.sum() / weight.sum() if weighted_mean else loss.mean()
    raise InvalidArgumentError(
        f"Invalid reduction mode: {reduction}. Expected one of 'none', 'mean', 'sum'.")


@_export
def mse_loss(input: Tensor, target: Tensor, size_average: Any = None, reduce: Any = None,
             reduction: str = "mean", weight: Tensor | None = None) -> Tensor:
    return _elementwise_loss(_F.mse_loss, input, target,
                             _reduction(size_average, reduce, reduction), weight, True)


@_export
def l1_loss(input: Tensor, target: Tensor, size_average: Any = None, reduce: Any = None,
            reduction: str = "mean", weight: Tensor | None = None) -> Tensor:
    return _elementwise_loss(_F.l1_loss, input, target,
                             _reduction(size_average, reduce, reduction), weight, True)


@_export
def smooth_l1_loss(input: Tensor, target: Tensor, size_average: Any = None, reduce: Any = None,
                   reduction: str = "mean", beta: float = 1.0) -> Tensor:
    return _F.smooth_l1_loss(input, target, _reduction(size_average, reduce, reduction), beta)


@_export
def huber_loss(input: Tensor, target: Tensor, reduction: str = "mean",
               delta: float = 1.0, weight: Tensor | None = None) -> Tensor:
    return _elementwise_loss(_F.huber_loss, input, target, reduction, weight, False, delta)


@_export
def binary_cross_entropy(input: Tensor, target: Tensor, weight: Tensor | None = None,
                         size_average: Any = None, reduce: Any = None,
                         reduction: str = "mean") -> Tensor:
    return _F.binary_cross_entropy(input, target, weight,
                                   _reduction(size_average, reduce, reduction))


@_export
def binary_cross_entropy_with_logits(input: Tensor, target: Tensor, weight: Tensor | None = None,
                                     size_average: Any = None, reduce: Any = None,
                                     reduction: str = "mean",
                                     pos_weight: Tensor | None = None) -> Tensor:
    return _F.binary_cross_entropy_with_logits(input, target, weight, pos_weight,
                                               _reduction(size_average, reduce, reduction))


@_export
def kl_div(input: Tensor, target: Tensor, size_average: Any = None, reduce: Any = None,
           reduction: str = "mean", log_target: bool = False) -> Tensor:
    return _F.kl_div(input, target, _reduction(size_average, reduce, reduction),
                     log_target=log_target)


@_export
def gelu(input: Tensor, approximate: str = "none") -> Tensor:
    return _F.gelu(input, approximate=approximate)


@_export
def tanh(input: Tensor) -> Tensor:
    return _F.tanh(input)


@_export
def sigmoid(input: Tensor) -> Tensor:
    return _F.sigmoid(input)


@_export
def one_hot(tensor: Tensor, num_classes: int = -1) -> Tensor:
    return _F.one_hot(tensor, num_classes)


@_export
def pad(input: Tensor, pad: Sequence[int], mode: str = "constant",
        value: float | None = None) -> Tensor:
    """Pads the trailing ``len(pad) // 2`` dimensions (the last one first, before and after;
    negative values crop). ``mode``: ``"constant"`` (with ``value``), or ``"reflect"``,
    ``"replicate"``, ``"circular"`` for the 1-3 spatial dimensions of a batched or unbatched
    input, as PyTorch."""
    if mode not in ("constant", "reflect", "replicate", "circular"):
        raise InvalidArgumentError(f"Unrecognised padding mode {mode}")
    if mode != "constant":
        if value:
            raise InvalidArgumentError(
                f"Padding mode \"{mode}\" doesn't take in value argument")
        padded = len(pad) // 2
        if len(pad) % 2 or not 1 <= padded <= 3 or input.ndim not in (padded + 1, padded + 2):
            raise InvalidArgumentError(
                f"Padding size {len(pad)} is not supported for {input.ndim}D input tensor.\n"
                "Supported combinations for non-constant padding:\n"
                "  - 2D or 3D input with padding size 2\n"
                "  - 3D or 4D input with padding size 4\n"
                "  - 4D or 5D input with padding size 6")
    return _F.pad(input, pad, mode, value)


@_export
def layer_norm(input: Tensor, normalized_shape: Sequence[int], weight: Tensor | None = None,
               bias: Tensor | None = None, eps: float = 1e-5) -> Tensor:
    return _F.layer_norm(input, normalized_shape, weight, bias, eps)


@_export
def group_norm(input: Tensor, num_groups: int, weight: Tensor | None = None,
               bias: Tensor | None = None, eps: float = 1e-5) -> Tensor:
    return _F.group_norm(input, num_groups, weight, bias, eps)


def _conv_padding(input: Tensor, weight: Tensor, padding: Any, stride: Any, dilation: Any,
                  n: int) -> tuple[Tensor, Any]:
    """PyTorch's string paddings: "valid" is none, "same" keeps the size (stride 1)."""
    if not isinstance(padding, str):
        return input, padding
    if weight.ndim != n + 2 or input.ndim not in (n + 1, n + 2):
        raise ShapeError(f"Expected {n + 1}D (unbatched) or {n + 2}D (batched) input and a "
                         f"{n + 2}D weight to conv{n}d, but got input of size "
                         f"{list(input.shape)} and weight of size {list(weight.shape)}")
    if padding == "valid":
        return input, 0
    if padding != "same":
        raise InvalidArgumentError(
            f"Invalid padding string {padding!r}, should be one of "
            "{'valid', 'same'}")
    if any(s != 1 for s in _tup(stride, n)):
        raise InvalidArgumentError("padding='same' is not supported for strided convolutions")
    dil = _tup(dilation, n)
    pads: list[int] = []
    symmetric = []
    for i in range(n):
        total = dil[i] * (weight.shape[2 + i] - 1)
        left = total // 2
        symmetric.append(left)
        pads = [left, total - left] + pads  # F.pad lists the last dimension first
    if all(pads[2 * i] == pads[2 * i + 1] for i in range(n)):
        return input, tuple(symmetric)
    return _F.pad(input, pads), 0


@_export
def conv1d(input: Tensor, weight: Tensor, bias: Tensor | None = None, stride: Any = 1,
           padding: Any = 0, dilation: Any = 1, groups: int = 1) -> Tensor:
    input, padding = _conv_padding(input, weight, padding, stride, dilation, 1)
    return _F.conv1d(input, weight, bias, stride, padding, dilation, groups)


@_export
def conv2d(input: Tensor, weight: Tensor, bias: Tensor | None = None, stride: Any = 1,
           padding: Any = 0, dilation: Any = 1, groups: int = 1) -> Tensor:
    input, padding = _conv_padding(input, weight, padding, stride, dilation, 2)
    return _F.conv2d(input, weight, bias, stride, padding, dilation, groups)


@_export
def conv3d(input: Tensor, weight: Tensor, bias: Tensor | None = None, stride: Any = 1,
           padding: Any = 0, dilation: Any = 1, groups: int = 1) -> Tensor:
    input, padding = _conv_padding(input, weight, padding, stride, dilation, 3)
    return _F.conv3d(input, weight, bias, stride, padding, dilation, groups)


# -- functions without an op of their own, built from volta ops ----------------------------------

@_export
def dropout2d(input: Tensor, p: float = 0.5, training: bool = True,
              inplace: bool = False) -> Tensor:
    """Zeroes whole channels of a ``(N, C, H, W)`` (or ``(C, H, W)``) input with probability
    ``p`` and scales the rest by ``1 / (1 - p)``."""
    if not 0.0 <= p <= 1.0:
        raise InvalidArgumentError(f"dropout probability has to be between 0 and 1, but got {p}")
    if not training or p == 0.0:
        return input
    if p == 1.0:
        return _maybe_inplace(input, input * 0.0, inplace)
    mask_shape = tuple(input.shape[:-2]) + (1, 1)
    keep = input.new_full(mask_shape, 1.0 - p).bernoulli()
    return _maybe_inplace(input, input * keep / (1.0 - p), inplace)


@_export
def instance_norm(input: Tensor, running_mean: Tensor | None = None,
                  running_var: Tensor | None = None, weight: Tensor | None = None,
                  bias: Tensor | None = None, use_input_stats: bool = True,
                  momentum: float = 0.1, eps: float = 1e-5) -> Tensor:
    """Normalizes each channel of each sample over its spatial dimensions.

    Shapes: ``input`` is ``(N, C, *)``; ``running_*``, ``weight`` and ``bias`` are ``(C,)``.
    """
    channels = input.shape[1]
    if not use_input_stats:
        return _F.batch_norm(input, weight, bias, running_mean, running_var, False, momentum,
                             eps, True)
    out = _F.group_norm(input, channels, weight, bias, eps)
    if running_mean is not None or running_var is not None:
        # the running statistics average the per-instance statistics over the batch
        with _no_grad():
            flat = input.detach().reshape(input.shape[0], channels, -1)
            if running_mean is not None:
                running_mean.mul_(1 - momentum).add_(flat.mean(2).mean(0) * momentum)
            if running_var is not None:
                running_var.mul_(1 - momentum).add_(flat.var(2, correction=1).mean(0)
                                                    * momentum)
    return out


@_export
def pixel_shuffle(input: Tensor, upscale_factor: int) -> Tensor:
    """``(*, C * r**2, H, W)`` -> ``(*, C, H * r, W * r)``."""
    r = upscale_factor
    *batch, c, h, w = input.shape
    if c % (r * r):
        raise InvalidArgumentError(
            f"pixel_shuffle expects its input's 'channel' dimension to be "
            f"divisible by the square of upscale_factor, but input.size(-3)={c} "
            f"is not divisible by {r * r}")
    n = len(batch)
    x = input.reshape(*batch, c // (r * r), r, r, h, w)
    x = x.permute(*range(n), n, n + 3, n + 1, n + 4, n + 2)
    return x.reshape(*batch, c // (r * r), h * r, w * r)


@_export
def pixel_unshuffle(input: Tensor, downscale_factor: int) -> Tensor:
    """``(*, C, H * r, W * r)`` -> ``(*, C * r**2, H, W)``."""
    r = downscale_factor
    *batch, c, h, w = input.shape
    n = len(batch)
    x = input.reshape(*batch, c, h // r, r, w // r, r)
    x = x.permute(*range(n), n, n + 2, n + 4, n + 1, n + 3)
    return x.reshape(*batch, c * r * r, h // r, w // r)


@_export
def interpolate(input: Tensor, size: Any = None, scale_factor: Any = None,
                mode: str = "nearest", align_corners: bool | None = None,
                recompute_scale_factor: bool | None = None, antialias: bool = False) -> Tensor:
    return _interpolate.interpolate(input, size, scale_factor, mode, align_corners,
                                    recompute_scale_factor, antialias)


interpolate.__doc__ = _interpolate.interpolate.__doc__


@_export
def upsample(input: Tensor, size: Any = None, scale_factor: Any = None, mode: str = "nearest",
             align_corners: bool | None = None) -> Tensor:
    """Deprecated in PyTorch in favour of :func:`interpolate`, which it calls."""
    return interpolate(input, size, scale_factor, mode, align_corners)


@_export
def upsample_nearest(input: Tensor, size: Any = None, scale_factor: Any = None) -> Tensor:
    """``interpolate(..., mode="nearest")``."""
    return interpolate(input, size, scale_factor, mode="nearest")


@_export
def upsample_bilinear(input: Tensor, size: Any = None, scale_factor: Any = None) -> Tensor:
    """``interpolate(..., mode="bilinear", align_corners=True)``."""
    return interpolate(input, size, scale_factor, mode="bilinear", align_corners=True)


def _no_grad() -> Any:
    import volta
    return volta.no_grad()


# -- activations, pooling, dropout and losses of issue 8's nn part: PyTorch's Python signatures --

@_export
def celu(input: Tensor, alpha: float = 1.0, inplace: bool = False) -> Tensor:
    return _maybe_inplace(input, _F.celu(input, alpha), inplace)


@_export
def rrelu(input: Tensor, lower: float = 1.0 / 8, upper: float = 1.0 / 3, training: bool = False,
          inplace: bool = False) -> Tensor:
    return _maybe_inplace(input, _F.rrelu(input, lower, upper, training), inplace)


@_export
def threshold(input: Tensor, threshold: float, value: float, inplace: bool = False) -> Tensor:
    return _maybe_inplace(input, _F.threshold(input, threshold, value), inplace)


@_export
def max_pool3d(input: Tensor, kernel_size: Any, stride: Any = None, padding: Any = 0,
               dilation: Any = 1, ceil_mode: bool = False, return_indices: bool = False) -> Any:
    if return_indices:
        return _F.max_pool3d_with_indices(input, kernel_size, _pool_stride(stride), padding,
                                          dilation, ceil_mode)
    return _F.max_pool3d(input, kernel_size, _pool_stride(stride), padding, dilation, ceil_mode)


@_export
def avg_pool3d(input: Tensor, kernel_size: Any, stride: Any = None, padding: Any = 0,
               ceil_mode: bool = False, count_include_pad: bool = True,
               divisor_override: int | None = None) -> Tensor:
    return _F.avg_pool3d(input, kernel_size, _pool_stride(stride), padding, ceil_mode,
                         count_include_pad, divisor_override)


@_export
def adaptive_avg_pool3d(input: Tensor, output_size: Any) -> Tensor:
    return _F.adaptive_avg_pool3d(input, _adaptive_size("adaptive_avg_pool3d", input,
                                                        output_size, 3))


@_export
def adaptive_max_pool3d(input: Tensor, output_size: Any, return_indices: bool = False) -> Any:
    size = _adaptive_size("adaptive_max_pool3d", input, output_size, 3)
    if return_indices:
        x = input if input.ndim == 5 else input.unsqueeze(0)
        check_pool_dtype("adaptive_max_pool3d", input.dtype)
        out, idx = _R.adaptive_max_pool(x, size)
        return (out, idx) if input.ndim == 5 else (out.squeeze(0), idx.squeeze(0))
    return _F.adaptive_max_pool3d(input, size)


@_export
def unfold(input: Tensor, kernel_size: Any, dilation: Any = 1, padding: Any = 0,
           stride: Any = 1) -> Tensor:
    """Extracts sliding local blocks: ``(N, C, H, W)`` -> ``(N, C * kh * kw, L)``."""
    for position, (name, value) in enumerate((("kernel_size", kernel_size),
                                              ("dilation", dilation), ("padding", padding),
                                              ("stride", stride)), 2):
        check_int_list_arg(value, name, position, "im2col")
    return _F.im2col(input, _tup(kernel_size, 2), _tup(dilation, 2), _tup(padding, 2),
                     _tup(stride, 2))


@_export
def fold(input: Tensor, output_size: Any, kernel_size: Any, dilation: Any = 1, padding: Any = 0,
         stride: Any = 1) -> Tensor:
    """Sums sliding local blocks back: ``(N, C * kh * kw, L)`` -> ``(N, C, H, W)``."""
    for position, (name, value) in enumerate((("output_size", output_size),
                                              ("kernel_size", kernel_size),
                                              ("dilation", dilation), ("padding", padding),
                                              ("stride", stride)), 2):
        check_int_list_arg(value, name, position, "col2im")
    return _F.col2im(input, _tup(output_size, 2), _tup(kernel_size, 2), _tup(dilation, 2),
                     _tup(padding, 2), _tup(stride, 2))


def _max_unpool(input: Tensor, indices: Tensor, kernel_size: Any, stride: Any, padding: Any,
                output_size: Any, n: int) -> Tensor:
    """PyTorch's output size rule: ``(in - 1) * stride + kernel - 2 * padding`` per spatial dim,
    or ``output_size`` (with or without its leading N, C) within a stride of that."""
    kernel = _tup(kernel_size, n)
    steps = _tup(stride, n) if stride is not None else kernel
    pads = _tup(padding, n)
    default = [(input.shape[input.ndim - n + d] - 1) * steps[d] + kernel[d] - 2 * pads[d]
               for d in range(n)]
    if output_size is None:
        size = default
    else:
        size = list(output_size)
        if len(size) == n + 2:
            size = size[2:]
        if len(size) != n:
            raise InvalidArgumentError(
                f"output_size should be a sequence containing {n} or {n + 2} elements, but it "
                f"has a length of '{len(size)}'")
        for d in range(n):
            low, high = default[d] - steps[d], default[d] + steps[d]
            if not low < size[d] < high:
                raise InvalidArgumentError(f'invalid output_size "{list(output_size)}" (dim {d} '
                                           f"must be between {low} and {high})")
    return _F.max_unpool(input, indices, size)


@_export
def max_unpool1d(input: Tensor, indices: Tensor, kernel_size: Any, stride: Any = None,
                 padding: Any = 0, output_size: Any = None) -> Tensor:
    return _max_unpool(input, indices, kernel_size, stride, padding, output_size, 1)


@_export
def max_unpool2d(input: Tensor, indices: Tensor, kernel_size: Any, stride: Any = None,
                 padding: Any = 0, output_size: Any = None) -> Tensor:
    return _max_unpool(input, indices, kernel_size, stride, padding, output_size, 2)


@_export
def max_unpool3d(input: Tensor, indices: Tensor, kernel_size: Any, stride: Any = None,
                 padding: Any = 0, output_size: Any = None) -> Tensor:
    return _max_unpool(input, indices, kernel_size, stride, padding, output_size, 3)


def _check_p(p: float) -> None:
    if not 0.0 <= p <= 1.0:
        raise InvalidArgumentError(f"dropout probability has to be between 0 and 1, but got {p}")


@_export
def dropout3d(input: Tensor, p: float = 0.5, training: bool = True,
              inplace: bool = False) -> Tensor:
    """Zeroes whole channels of a ``(N, C, D, H, W)`` (or ``(C, D, H, W)``) input with
    probability ``p`` and scales the rest by ``1 / (1 - p)``."""
    _check_p(p)
    if input.ndim not in (4, 5):
        warnings.warn(f"dropout3d: Received a {input.ndim}-D input to dropout3d, which is "
                      "deprecated and will result in an error in a future release. To retain the "
                      "behavior and silence this warning, please use dropout instead. Note that "
                      "dropout3d exists to provide channel-wise dropout on inputs with 3 spatial "
                      "dimensions, a channel dimension, and an optional batch dimension (i.e. 4D "
                      "or 5D inputs).", UserWarning, stacklevel=2)
    batched = input.ndim == 5
    x = input if batched else input.unsqueeze(0)
    out = _F.feature_dropout(x, p, training)
    return _maybe_inplace(input, out if batched else out.squeeze(0), inplace)


@_export
def alpha_dropout(input: Tensor, p: float = 0.5, training: bool = False,
                  inplace: bool = False) -> Tensor:
    _check_p(p)
    return _maybe_inplace(input, _F.alpha_dropout(input, p, training), inplace)


@_export
def feature_alpha_dropout(input: Tensor, p: float = 0.5, training: bool = False,
                          inplace: bool = False) -> Tensor:
    _check_p(p)
    return _maybe_inplace(input, _F.feature_alpha_dropout(input, p, training), inplace)


@_export
def soft_margin_loss(input: Tensor, target: Tensor, size_average: Any = None, reduce: Any = None,
                     reduction: str = "mean") -> Tensor:
    return _F.soft_margin_loss(input, target, _reduction(size_average, reduce, reduction))


@_export
def margin_ranking_loss(input1: Tensor, input2: Tensor, target: Tensor, margin: float = 0.0,
                        size_average: Any = None, reduce: Any = None,
                        reduction: str = "mean") -> Tensor:
    # PyTorch checks the ranks here, not in torch.margin_ranking_loss (which broadcasts)
    if not input1.ndim == input2.ndim == target.ndim:
        raise ShapeError(f"margin_ranking_loss : All input tensors should have same dimension but "
                         f"got sizes: input1: {list(input1.shape)}, input2: "
                         f"{list(input2.shape)}, target: {list(target.shape)} ")
    return _F.margin_ranking_loss(input1, input2, target, margin,
                                  _reduction(size_average, reduce, reduction))


@_export
def hinge_embedding_loss(input: Tensor, target: Tensor, margin: float = 1.0,
                         size_average: Any = None, reduce: Any = None,
                         reduction: str = "mean") -> Tensor:
    return _F.hinge_embedding_loss(input, target, margin,
                                   _reduction(size_average, reduce, reduction))


@_export
def cosine_embedding_loss(input1: Tensor, input2: Tensor, target: Tensor, margin: float = 0.0,
                          size_average: Any = None, reduce: Any = None,
                          reduction: str = "mean") -> Tensor:
    return _F.cosine_embedding_loss(input1, input2, target, margin,
                                    _reduction(size_average, reduce, reduction))


@_export
def poisson_nll_loss(input: Tensor, target: Tensor, log_input: bool = True, full: bool = False,
                     size_average: Any = None, eps: float = 1e-8, reduce: Any = None,
                     reduction: str = "mean") -> Tensor:
    return _F.poisson_nll_loss(input, target, log_input, full, eps,
                               _reduction(size_average, reduce, reduction))


@_export
def gaussian_nll_loss(input: Tensor, target: Tensor, var: Tensor | float, full: bool = False,
                      eps: float = 1e-6, reduction: str = "mean") -> Tensor:
    # as in PyTorch, a number ``var`` must be a float: an int is neither a Tensor nor a float
    if not isinstance(var, (volta.Tensor, float)):
        raise ArgumentError(f"gaussian_nll_loss(): argument 'var' must be Tensor or float, not "
                            f"{type(var).__name__}")
    if isinstance(var, float):
        if var < 0:
            raise InvalidArgumentError("var has negative entry/entries")
        var = var * volta.ones_like(input)  # PyTorch's: floating even for an integer input
    return _F.gaussian_nll_loss(input, target, var, full, eps, reduction)


@_export
def triplet_margin_loss(anchor: Tensor, positive: Tensor, negative: Tensor, margin: float = 1.0,
                        p: float = 2, eps: float = 1e-6, swap: bool = False,
                        size_average: Any = None, reduce: Any = None,
                        reduction: str = "mean") -> Tensor:
    if margin <= 0:
        raise InvalidArgumentError(f"margin must be greater than 0, got {margin}")
    return _F.triplet_margin_loss(anchor, positive, negative, margin, p, eps, swap,
                                  _reduction(size_average, reduce, reduction))


@_export
def triplet_margin_with_distance_loss(anchor: Tensor, positive: Tensor, negative: Tensor, *,
                                      distance_function: Any = None, margin: float = 1.0,
                                      swap: bool = False, reduction: str = "mean") -> Tensor:
    """:func:`triplet_margin_loss` with any distance (a callable of two tensors returning one
    distance per row; ``pairwise_distance`` by default)."""
    if margin <= 0:
        raise InvalidArgumentError(f"TripletMarginWithDistanceLoss: expected margin to be greater "
                                   f"than 0, got {margin} instead")
    if reduction not in ("none", "mean", "sum"):
        raise InvalidArgumentError(f"{reduction} is not a valid value for reduction")
    if not anchor.ndim == positive.ndim == negative.ndim:
        raise InvalidArgumentError(
            f"The anchor, positive, and negative tensors are expected to have the same number of "
            f"dimensions, but got: anchor {anchor.ndim}D, positive {positive.ndim}D, and "
            f"negative {negative.ndim}D inputs")
    distance = distance_function if distance_function is not None else _F.pairwise_distance
    dist_pos = distance(anchor, positive)
    dist_neg = distance(anchor, negative)
    if swap:
        dist_neg = dist_neg.minimum(distance(positive, negative))
    loss = (margin + dist_pos - dist_neg).clamp(min=0)
    if reduction == "mean":
        return loss.mean()
    return loss.sum() if reduction == "sum" else loss


@_export
def multi_margin_loss(input: Tensor, target: Tensor, p: int = 1, margin: float = 1.0,
                      weight: Tensor | None = None, size_average: Any = None,
                      reduce: Any = None, reduction: str = "mean") -> Tensor:
    return _F.multi_margin_loss(input, target, p, margin, weight,
                                _reduction(size_average, reduce, reduction))


@_export
def multilabel_margin_loss(input: Tensor, target: Tensor, size_average: Any = None,
                           reduce: Any = None, reduction: str = "mean") -> Tensor:
    return _F.multilabel_margin_loss(input, target, _reduction(size_average, reduce, reduction))


@_export
def multilabel_soft_margin_loss(input: Tensor, target: Tensor, weight: Tensor | None = None,
                                size_average: Any = None, reduce: Any = None,
                                reduction: str = "mean") -> Tensor:
    return _F.multilabel_soft_margin_loss(input, target, weight,
                                          _reduction(size_average, reduce, reduction))


def _fractional_max_pool(input: Tensor, kernel_size: Any, output_size: Any, output_ratio: Any,
                         return_indices: bool, random_samples: Tensor | None, n: int) -> Any:
    name = f"fractional_max_pool{n}d"
    if not isinstance(input, volta.Tensor):
        raise ArgumentError(f"{name}(): argument 'input' (position 1) must be Tensor, not "
                            f"{type(input).__name__}")
    if output_size is None and output_ratio is None:
        raise InvalidArgumentError(f"{name} requires specifying either an output_size or an "
                                   "output_ratio")
    if random_samples is None and input.ndim < n + 1:
        # PyTorch reads the channel count, input.size(-n - 1), before its kernel checks the rank
        bound = max(input.ndim, 1)
        raise IndexOutOfRangeError(f"Dimension out of range (expected to be in range of "
                                   f"[{-bound}, {bound - 1}], but got {-n - 1})")
    if output_size is None:
        ratio = _tup(output_ratio, n)
        if len(ratio) != n:
            raise InvalidArgumentError(f"{name} requires output_ratio to either be a single Int "
                                       "or tuple of Ints.")
        output_size = [int(input.shape[input.ndim - n + i] * ratio[i]) for i in range(n)]
    # one int stands for every dimension, a sequence must name each (the op's int[n] would
    # repeat a single-element list)
    ints = "Ints" if n == 2 else "three Ints"
    for label, value in (("kernel_size", kernel_size), ("output_size", output_size)):
        if not isinstance(value, (int, Sequence)):
            raise ArgumentError(f"{name}(): argument '{label}' must be tuple of ints, not "
                                f"{type(value).__name__}")
        if not isinstance(value, int) and len(value) != n:
            raise InvalidArgumentError(f"{name}: {label} must either be a single Int or tuple "
                                       f"of {ints}")
    if random_samples is None:
        batch = 1 if input.ndim == n + 1 else input.shape[0]
        random_samples = volta.rand(batch, input.shape[input.ndim - n - 1], n,
                                       dtype=input.dtype, device=input.device)
    pool = _F.fractional_max_pool2d if n == 2 else _F.fractional_max_pool3d
    out, indices = pool(input, _tup(kernel_size, n), _tup(output_size, n), random_samples)
    return (out, indices) if return_indices else out


@_export
def fractional_max_pool2d(input: Tensor, kernel_size: Any, output_size: Any = None,
                          output_ratio: Any = None, return_indices: bool = False,
                          _random_samples: Tensor | None = None) -> Any:
    """Max pooling over pseudo-random overlapping windows that shrink ``(N, C, H, W)`` to
    ``output_size`` (or ``output_ratio`` of it); ``_random_samples`` (N, C, 2) fixes them."""
    return _fractional_max_pool(input, kernel_size, output_size, output_ratio, return_indices,
                                _random_samples, 2)


@_export
def fractional_max_pool3d(input: Tensor, kernel_size: Any, output_size: Any = None,
                          output_ratio: Any = None, return_indices: bool = False,
                          _random_samples: Tensor | None = None) -> Any:
    """:func:`fractional_max_pool2d` of ``(N, C, T, H, W)`` input."""
    return _fractional_max_pool(input, kernel_size, output_size, output_ratio, return_indices,
                                _random_samples, 3)


@_export
def linear_cross_entropy(input: Tensor, linear_weight: Tensor, target: Tensor, *,
                         linear_bias: Tensor | None = None, weight: Tensor | None = None,
                         reduction: str = "mean", ignore_index: int | None = None,
                         label_smoothing: float = 0.0, options: Any = None) -> Tensor:
    """``cross_entropy(linear(input, linear_weight, linear_bias), target, ...)``.

    ``linear_weight`` is ``(C, *K, in_features)``, so the logits are ``(*N, C, *K)``. With
    ``options`` (anything with a ``batch_chunk_size``, such as PyTorch's
    ``LinearCrossEntropyOptions``), class-index targets and no label smoothing, the rows run in
    chunks whose logits are recomputed in backward instead of kept: memory for one chunk's
    logits, not the whole batch's.
    """
    if input.ndim not in (1, 2):
        raise InvalidArgumentError(f"expected input with dimensionality 1 or 2, got {input.ndim}")
    if linear_weight.ndim < 2:
        raise InvalidArgumentError(f"expected linear_weight with dimensionality at least 2, got "
                                   f"{linear_weight.ndim}")
    in_features = input.shape[-1]
    if in_features != linear_weight.shape[-1]:
        raise InvalidArgumentError(
            f"expected equal input and linear_weight last dimensions (in_features), got "
            f"{in_features} and {linear_weight.shape[-1]}, respectively")
    classes_shape = tuple(linear_weight.shape[:-1])
    if linear_bias is not None and tuple(linear_bias.shape) != classes_shape:
        raise InvalidArgumentError(f"expected linear_bias shape {classes_shape}, got "
                                   f"{tuple(linear_bias.shape)}")
    batch = tuple(input.shape[:-1])
    if len(classes_shape) > 1 and not batch:
        raise InvalidArgumentError(
            f"K-dimensional loss defined by linear_weight shape {tuple(linear_weight.shape)} "
            f"requires batched input, (N, {in_features}), got unbatched input with shape "
            f"{tuple(input.shape)}")
    if tuple(target.shape) == batch + classes_shape and ignore_index is not None:
        raise InvalidArgumentError(
            "ignore_index cannot be specified when target contains probabilities")
    ignore = -100 if ignore_index is None else ignore_index
    flat_weight = linear_weight.reshape(-1, in_features)
    flat_bias = None if linear_bias is None else linear_bias.reshape(-1)

    def loss_of(rows: Tensor, targets: Tensor, how: str) -> Tensor:
        logits = _F.linear(rows, flat_weight, flat_bias).reshape(
            *rows.shape[:-1], *classes_shape)
        return cross_entropy(logits, targets, weight, ignore_index=ignore, reduction=how,
                             label_smoothing=label_smoothing)

    chunk = getattr(options, "batch_chunk_size", None)
    if (not chunk or len(classes_shape) > 1 or label_smoothing != 0.0
            or reduction not in ("mean", "sum", "none") or target.dtype != volta.int64):
        return loss_of(input, target, reduction)
    rows, targets = (input, target) if batch else (input.unsqueeze(0), target.unsqueeze(0))
    how = "none" if reduction == "none" else "sum"
    pieces = [_checkpoint(loss_of, rows[i:i + chunk], targets[i:i + chunk], how)
              for i in range(0, rows.shape[0], chunk)]
    if reduction == "none":
        out = _F.cat(pieces)
        return out if batch else out.squeeze(0)
    total = pieces[0]
    for piece in pieces[1:]:
        total = total + piece
    if reduction == "sum":
        return total
    kept = targets != ignore
    if weight is None:
        return total / kept.sum()
    picked = weight.index_select(0, targets.masked_fill(~kept, 0))
    return total / picked.masked_fill(~kept, 0).sum()


@_export
def lp_pool1d(input: Tensor, norm_type: float, kernel_size: int, stride: Any = None,
              ceil_mode: bool = False) -> Tensor:
    """``(sum over each window of x**p) ** (1/p)`` over ``(N, C, L)``."""
    out = avg_pool1d(input.pow(norm_type), kernel_size, stride, 0, ceil_mode)
    return _lp_root(out, _tup(kernel_size, 1)[0], norm_type)


@_export
def lp_pool2d(input: Tensor, norm_type: float, kernel_size: Any, stride: Any = None,
              ceil_mode: bool = False) -> Tensor:
    """``(sum over each window of x**p) ** (1/p)`` over ``(N, C, H, W)``."""
    kh, kw = _tup(kernel_size, 2)
    out = avg_pool2d(input.pow(norm_type), kernel_size, stride, 0, ceil_mode)
    return _lp_root(out, kh * kw, norm_type)


def _lp_root(mean: Tensor, window: int, norm_type: float) -> Tensor:
    # PyTorch's sign(x) * relu(|x|): equal to x, written so to give its gradient at 0
    return (mean.sign() * _F.relu(mean.abs())).mul(window).pow(1.0 / norm_type)


@_export
def embedding_bag(input: Tensor, weight: Tensor, offsets: Tensor | None = None,
                  max_norm: float | None = None, norm_type: float = 2,
                  scale_grad_by_freq: bool = False, mode: str = "mean", sparse: bool = False,
                  per_sample_weights: Tensor | None = None, include_last_offset: bool = False,
                  padding_idx: int | None = None) -> Tensor:
    """The sum, mean or max of the embeddings of each bag of indices, without building the
    ``(indices, embedding_dim)`` lookups of every bag apart.

    ``input`` is ``(B, L)`` (B bags of L indices) or 1-d with ``offsets`` the start of each bag
    (and, with ``include_last_offset``, the end of the last); ``per_sample_weights`` (input's
    shape, ``mode="sum"`` only) scale each looked-up row; ``padding_idx`` rows are skipped.
    """
    if weight.ndim != 2:
        raise InvalidArgumentError(f"weight has to be a 2D Tensor, but got Tensor of dimension "
                                   f"{weight.ndim}")
    if per_sample_weights is not None and tuple(input.shape) != tuple(per_sample_weights.shape):
        raise InvalidArgumentError(
            f"embedding_bag: If per_sample_weights ({list(per_sample_weights.shape)}) is not "
            f"None, then it must have the same shape as the input ({list(input.shape)})")
    if input.ndim == 2:
        if offsets is not None:
            raise InvalidArgumentError(
                "if input is 2D, then offsets has to be None, as input is treated is a "
                "mini-batch of fixed length sequences. However, found offsets of type Tensor")
        offsets = volta.arange(0, input.numel(), input.shape[1], dtype=input.dtype,
                                  device=input.device)
        input = input.reshape(-1)
        if per_sample_weights is not None:
            per_sample_weights = per_sample_weights.reshape(-1)
    elif input.ndim == 1:
        if offsets is None:
            raise InvalidArgumentError("offsets has to be a 1D Tensor but got None")
        if offsets.ndim != 1:
            raise InvalidArgumentError("offsets has to be a 1D Tensor")
    else:
        raise InvalidArgumentError(f"input has to be 1D or 2D Tensor, but got Tensor of "
                                   f"dimension {input.ndim}")
    if mode not in ("sum", "mean", "max"):
        raise InvalidArgumentError("mode has to be one of sum, mean or max")
    if per_sample_weights is not None and mode != "sum":
        raise InvalidArgumentError(
            f"embedding_bag: per_sample_weights was not None. per_sample_weights is only "
            f"supported for mode='sum' (got mode='{mode}'). Please open a feature request on "
            "GitHub.")
    if padding_idx is not None:
        if not -weight.shape[0] <= padding_idx < weight.shape[0]:
            raise InvalidArgumentError("padding_idx must be within the number of embeddings")
        padding_idx %= weight.shape[0]
    if max_norm is not None:
        _embedding_renorm_(weight, input, max_norm, norm_type)
    return _F._embedding_bag_reduce(weight, input, offsets.to(volta.int64), mode,
                                    per_sample_weights, include_last_offset,
                                    -1 if padding_idx is None else padding_idx,
                                    scale_grad_by_freq)


# -- multi-head attention with explicit weights (nn.MultiheadAttention runs on it) ----------------

def canonical_mask(mask: Tensor | None, mask_name: str, other_type: volta.dtype | None,
                   other_name: str, target_type: volta.dtype,
                   check_other: bool = True) -> Tensor | None:
    """PyTorch's mask convention in one form: a bool mask (``True`` = may not attend) becomes an
    additive float mask of ``target_type`` with ``-inf`` where it was ``True``; a float mask is
    returned as is. Mixing a bool and a float mask is deprecated in PyTorch and warns here too."""
    if mask is None:
        return None
    is_float = mask.dtype.is_floating_point
    if mask.dtype is not volta.bool and not is_float:
        raise volta.DTypeError(f"only bool and floating types of {mask_name} are supported")
    if check_other and other_type is not None and mask.dtype is not other_type:
        warnings.warn(f"Support for mismatched {mask_name} and {other_name} is deprecated. "
                      f"Use same type for both instead.", UserWarning, stacklevel=3)
    if is_float:
        return mask
    return volta.zeros_like(mask, dtype=target_type).masked_fill(mask, -math.inf)


def _check_shapes(query: Tensor, key: Tensor, value: Tensor, key_padding_mask: Tensor | None,
                  attn_mask: Tensor | None, num_heads: int) -> bool:
    """Whether the inputs are batched; raises on ranks PyTorch rejects."""
    rank = query.dim()
    if rank not in (2, 3):
        raise volta.ShapeError(f"query should be unbatched 2D or batched 3D tensor but received "
                               f"{rank}-D query tensor")
    kind = "batched (3-D)" if rank == 3 else "unbatched (2-D)"
    if key.dim() != rank or value.dim() != rank:
        raise volta.ShapeError(
            f"For {kind} `query`, expected `key` and `value` to be {rank}-D but found "
            f"{key.dim()}-D and {value.dim()}-D tensors respectively")
    if key_padding_mask is not None and key_padding_mask.dim() != rank - 1:
        raise volta.ShapeError(
            f"For {kind} `query`, expected `key_padding_mask` to be `None` or {rank - 1}-D but "
            f"found {key_padding_mask.dim()}-D tensor instead")
    if attn_mask is not None:
        if attn_mask.dim() not in (2, 3):
            raise volta.ShapeError(
                f"For {kind} `query`, expected `attn_mask` to be `None`, 2-D or 3-D but found "
                f"{attn_mask.dim()}-D tensor instead")
        expected = (num_heads, query.shape[0], key.shape[0])
        if rank == 2 and attn_mask.dim() == 3 and tuple(attn_mask.shape) != expected:
            raise volta.ShapeError(f"Expected `attn_mask` shape to be {expected} but got "
                                   f"{tuple(attn_mask.shape)}")
    return rank == 3


def _linear_rows(x: Tensor, weight: Tensor, bias: Tensor | None) -> Tensor:
    """``linear`` over ``x`` flattened to rows ``(-1, features)``, reshaped back."""
    rows = _F.linear(x.reshape(-1, x.shape[-1]), weight, bias)
    return rows.view(*x.shape[:-1], rows.shape[-1])


def _bias_chunks(bias: Tensor | None, sizes: list[int]) -> tuple:
    return (None,) * len(sizes) if bias is None else tuple(bias.split(sizes))


def _in_projection(query: Tensor, key: Tensor, value: Tensor, embed_dim: int,
                   in_proj_weight: Tensor | None, in_proj_bias: Tensor | None,
                   separate: tuple | None) -> tuple[Tensor, Tensor, Tensor]:
    """q, k, v projections; self-attention (query is key is value) is one matmul."""
    e = embed_dim
    if separate is not None:
        b_q, b_k, b_v = _bias_chunks(in_proj_bias, [e, e, e])
        q_w, k_w, v_w = separate
        return (_linear_rows(query, q_w, b_q), _linear_rows(key, k_w, b_k),
                _linear_rows(value, v_w, b_v))
    if key is value:
        if query is key:
            return _linear_rows(query, in_proj_weight, in_proj_bias).split(e, -1)
        w_q, w_kv = in_proj_weight.split([e, 2 * e])
        b_q, b_kv = _bias_chunks(in_proj_bias, [e, 2 * e])
        k, v = _linear_rows(key, w_kv, b_kv).split(e, -1)
        return _linear_rows(query, w_q, b_q), k, v
    w_q, w_k, w_v = in_proj_weight.split(e)
    b_q, b_k, b_v = _bias_chunks(in_proj_bias, [e, e, e])
    return (_linear_rows(query, w_q, b_q), _linear_rows(key, w_k, b_k),
            _linear_rows(value, w_v, b_v))


def _pad_last(mask: Tensor | None) -> Tensor | None:
    """One more key that every query may see (the bias_k / zero-attention column)."""
    return None if mask is None else pad(mask, (0, 1))


def _static(tensor: Tensor, name: str, batch: int, num_heads: int, head_dim: int) -> Tensor:
    if tensor.shape[0] != batch * num_heads or tensor.shape[2] != head_dim:
        raise volta.ShapeError(f"expecting {name}.size(0) of {batch * num_heads} and "
                               f"{name}.size(2) of {head_dim}, but got {tuple(tensor.shape)}")
    return tensor.view(batch, num_heads, tensor.shape[1], head_dim)


@_export
def multi_head_attention_forward(
        query: Tensor, key: Tensor, value: Tensor, embed_dim_to_check: int, num_heads: int,
        in_proj_weight: Tensor | None, in_proj_bias: Tensor | None, bias_k: Tensor | None,
        bias_v: Tensor | None, add_zero_attn: bool, dropout_p: float,
        out_proj_weight: Tensor, out_proj_bias: Tensor | None, training: bool = True,
        key_padding_mask: Tensor | None = None, need_weights: bool = True,
        attn_mask: Tensor | None = None, use_separate_proj_weight: bool = False,
        q_proj_weight: Tensor | None = None, k_proj_weight: Tensor | None = None,
        v_proj_weight: Tensor | None = None, static_k: Tensor | None = None,
        static_v: Tensor | None = None, average_attn_weights: bool = True,
        is_causal: bool = False, *, batch_first: bool = False
) -> tuple[Tensor, Tensor | None]:
    """PyTorch's ``F.multi_head_attention_forward``: multi-head attention with explicit weights.

    Args:
        query: ``(L, N, E)``, or ``(L, E)`` unbatched.
        key, value: ``(S, N, kdim)`` / ``(S, N, vdim)``, or unbatched ``(S, kdim)`` /
            ``(S, vdim)``.
        key_padding_mask: ``(N, S)`` (``(S,)`` unbatched); bool ``True`` or float ``-inf``
            marks keys to ignore (a float mask is added to the scores).
        attn_mask: ``(L, S)`` or ``(N * num_heads, L, S)``; bool ``True`` = may not attend,
            float = added to the scores.
        need_weights: also return the attention weights (computed explicitly, so the
            ``(N, H, L, S)`` score matrix exists); otherwise the fused
            ``scaled_dot_product_attention`` computes the output alone.
        average_attn_weights: average the returned weights over the heads.
        is_causal: a hint that ``attn_mask`` is the causal mask (``attn_mask`` is still
            required, as in PyTorch).
        batch_first: volta extension: inputs and output are ``(N, L, E)`` instead.

    Returns:
        ``(output, weights)``: output ``(L, N, E)`` (``(N, L, E)`` with ``batch_first``),
        weights ``(N, L, S)`` averaged or ``(N, H, L, S)`` per head, or ``None``.
    """
    batched = _check_shapes(query, key, value, key_padding_mask, attn_mask, num_heads)
    if not batched:
        # a batch of one, batch-first, squeezed again at the end
        query, key, value = _keep_identity(query, key, value, lambda t: t.unsqueeze(0))
        if key_padding_mask is not None:
            key_padding_mask = key_padding_mask.unsqueeze(0)
        batch_first = True
    batch_dim, seq_dim = (0, 1) if batch_first else (1, 0)
    batch, tgt_len, embed_dim = query.shape[batch_dim], query.shape[seq_dim], query.shape[2]
    src_len = key.shape[seq_dim]

    key_padding_mask = canonical_mask(key_padding_mask, "key_padding_mask",
                                      None if attn_mask is None else attn_mask.dtype,
                                      "attn_mask", query.dtype)
    if is_causal and attn_mask is None:
        raise volta.InvalidArgumentError(
            "Need attn_mask if specifying the is_causal hint. You may use the Transformer "
            "module method `generate_square_subsequent_mask` to create this mask.")
    if is_causal and key_padding_mask is None and not need_weights:
        # the fused kernel builds the causal mask itself
        attn_mask = None
    else:
        attn_mask = canonical_mask(attn_mask, "attn_mask", None, "", query.dtype,
                                   check_other=False)
        if key_padding_mask is not None:
            is_causal = False  # the merged mask is no longer the causal one

    if embed_dim != embed_dim_to_check:
        raise volta.ShapeError(f"was expecting embedding dimension of {embed_dim_to_check}, "
                               f"but got {embed_dim}")
    head_dim = embed_dim // num_heads
    if head_dim * num_heads != embed_dim:
        raise volta.InvalidArgumentError(
            f"embed_dim {embed_dim} not divisible by num_heads {num_heads}")
    if use_separate_proj_weight:
        if key.shape[:2] != value.shape[:2]:
            raise volta.ShapeError(f"key's sequence and batch dims {tuple(key.shape[:2])} do "
                                   f"not match value's {tuple(value.shape[:2])}")
        separate = (q_proj_weight, k_proj_weight, v_proj_weight)
        if any(w is None for w in separate):
            raise volta.InvalidArgumentError(
                "use_separate_proj_weight is True but q_proj_weight, k_proj_weight or "
                "v_proj_weight is None")
    else:
        if key.shape != value.shape:
            raise volta.ShapeError(f"key shape {tuple(key.shape)} does not match value shape "
                                   f"{tuple(value.shape)}")
        if in_proj_weight is None:
            raise volta.InvalidArgumentError(
                "use_separate_proj_weight is False but in_proj_weight is None")
        separate = None

    q, k, v = _in_projection(query, key, value, embed_dim, in_proj_weight, in_proj_bias,
                             separate)

    if attn_mask is not None:
        if attn_mask.dim() == 2:
            if tuple(attn_mask.shape) != (tgt_len, src_len):
                raise volta.ShapeError(f"The shape of the 2D attn_mask is "
                                       f"{tuple(attn_mask.shape)}, but should be "
                                       f"{(tgt_len, src_len)}.")
        elif attn_mask.dim() == 3:
            if tuple(attn_mask.shape) != (batch * num_heads, tgt_len, src_len):
                raise volta.ShapeError(f"The shape of the 3D attn_mask is "
                                       f"{tuple(attn_mask.shape)}, but should be "
                                       f"{(batch * num_heads, tgt_len, src_len)}.")
        else:
            raise volta.ShapeError(f"attn_mask's dimension {attn_mask.dim()} is not supported")

    if (bias_k is None) != (bias_v is None):
        raise volta.InvalidArgumentError(
            f"bias_{'k' if bias_k is not None else 'v'} is set but "
            f"bias_{'v' if bias_k is not None else 'k'} is None")
    if bias_k is not None:
        if static_k is not None or static_v is not None:
            raise volta.InvalidArgumentError("bias cannot be added to static key or value.")
        step = [1, 1, embed_dim]
        step[batch_dim] = batch
        k = volta.cat([k, bias_k.reshape(1, 1, embed_dim).expand(*step)], seq_dim)
        v = volta.cat([v, bias_v.reshape(1, 1, embed_dim).expand(*step)], seq_dim)
        attn_mask, key_padding_mask = _pad_last(attn_mask), _pad_last(key_padding_mask)

    q = _split_heads(q, num_heads, batch_first)
    k = (_split_heads(k, num_heads, batch_first) if static_k is None
         else _static(static_k, "static_k", batch, num_heads, head_dim))
    v = (_split_heads(v, num_heads, batch_first) if static_v is None
         else _static(static_v, "static_v", batch, num_heads, head_dim))

    if add_zero_attn:
        zeros = volta.zeros(batch, num_heads, 1, head_dim, dtype=k.dtype, device=k.device)
        k, v = volta.cat([k, zeros], 2), volta.cat([v, zeros], 2)
        attn_mask, key_padding_mask = _pad_last(attn_mask), _pad_last(key_padding_mask)
    src_len = k.shape[2]

    # one additive mask broadcastable to (N, H, L, S)
    if attn_mask is not None:
        attn_mask = (attn_mask.view(1, 1, tgt_len, src_len) if attn_mask.dim() == 2
                     else attn_mask.view(batch, num_heads, tgt_len, src_len))
    if key_padding_mask is not None:
        for dim, expected in enumerate((batch, src_len)):
            if key_padding_mask.shape[dim] != expected:
                raise volta.ShapeError(f"Expected key_padded_mask.shape[{dim}] to be {expected}, "
                                       f"but got {key_padding_mask.shape[dim]}")
        padding = key_padding_mask.view(batch, 1, 1, src_len)
        attn_mask = padding if attn_mask is None else attn_mask + padding

    if not training:
        dropout_p = 0.0
    weights = None
    if need_weights:
        if is_causal and attn_mask is None:
            raise volta.InvalidArgumentError("is_causal is not implemented for need_weights")
        scores = volta.matmul(q * math.sqrt(1.0 / head_dim), k.transpose(-2, -1))
        if attn_mask is not None:
            scores = scores + attn_mask
        weights = softmax(scores, -1)
        if dropout_p > 0.0:
            weights = dropout(weights, dropout_p)
        heads = volta.matmul(weights, v)
    else:
        heads = _F.scaled_dot_product_attention(q, k, v, attn_mask, dropout_p, is_causal)

    # (N, H, L, hd) -> the caller's layout, one copy, then the output projection
    merged = (heads.transpose(1, 2).reshape(batch, tgt_len, embed_dim) if batch_first
              else heads.permute(2, 0, 1, 3).reshape(tgt_len, batch, embed_dim))
    output = _linear_rows(merged, out_proj_weight, out_proj_bias)
    if weights is not None and average_attn_weights:
        weights = weights.mean(1)
    if not batched:
        output = output.squeeze(0)
        weights = None if weights is None else weights.squeeze(0)
    return output, weights


def _keep_identity(query: Tensor, key: Tensor, value: Tensor,
                   change: Any) -> tuple[Tensor, Tensor, Tensor]:
    """``change`` (a view) applied to the three inputs; inputs that were
    the same tensor stay the same tensor, so self-attention is still recognised and projected
    with one matmul."""
    q = change(query)
    k = q if key is query else change(key)
    if value is key:
        return q, k, k
    return q, k, q if value is query else change(value)


def _split_heads(x: Tensor, num_heads: int, batch_first: bool) -> Tensor:
    """``(N, S, H * hd)`` or ``(S, N, H * hd)`` -> ``(N, H, S, hd)`` (a view where the
    layout allows)."""
    heads = x.reshape(x.shape[0], x.shape[1], num_heads, x.shape[2] // num_heads)
    return heads.permute(0, 2, 1, 3) if batch_first else heads.permute(1, 2, 0, 3)


_GRID_MODES = {"bilinear": 0, "nearest": 1, "bicubic": 2}
_GRID_PADDINGS = {"zeros": 0, "border": 1, "reflection": 2}


@_export
def grid_sample(input: Tensor, grid: Tensor, mode: str = "bilinear", padding_mode: str = "zeros",
                align_corners: bool | None = None) -> Tensor:
    """Samples ``input`` ``(N, C, H, W)`` (or ``(N, C, D, H, W)``) at the positions of ``grid``
    ``(N, H_out, W_out, 2)`` (or ``(N, D_out, H_out, W_out, 3)``), given as (x, y[, z]) in
    [-1, 1]; ``padding_mode`` says what lies outside the image."""
    if mode not in _GRID_MODES:
        raise InvalidArgumentError(f"nn.functional.grid_sample(): expected mode to be "
                                   f"'bilinear', 'nearest' or 'bicubic', but got: '{mode}'")
    if padding_mode not in _GRID_PADDINGS:
        raise InvalidArgumentError(f"nn.functional.grid_sample(): expected padding_mode to be "
                                   f"'zeros', 'border', or 'reflection', but got: "
                                   f"'{padding_mode}'")
    return _F.grid_sampler(input, grid, _GRID_MODES[mode], _GRID_PADDINGS[padding_mode],
                           bool(align_corners))


@_export
def ctc_loss(log_probs: Tensor, targets: Tensor, input_lengths: Any, target_lengths: Any,
             blank: int = 0, reduction: str = "mean", zero_infinity: bool = False) -> Tensor:
    """CTC loss of ``log_probs`` ``(T, N, C)`` (log-softmax outputs; ``(T, C)`` unbatched)
    against ``targets`` ``(N, S)`` padded, or their 1-d concatenation; the lengths are
    sequences or 1-d tensors of ints."""
    return _F.ctc_loss(log_probs, targets, _int_list(input_lengths), _int_list(target_lengths),
                       blank, reduction, zero_infinity)


def _int_list(values: Any) -> list[int]:
    if isinstance(values, volta.Tensor):
        return [int(v) for v in values.reshape(-1).tolist()]
    return [int(v) for v in values]


@_export
def affine_grid(theta: Tensor, size: Sequence[int], align_corners: bool | None = None) -> Tensor:
    """The sampling grid of the affine maps ``theta`` (``(N, 2, 3)`` for a 4-d ``size``
    ``(N, C, H, W)``, ``(N, 3, 4)`` for 5-d) in :func:`grid_sample`'s convention: output
    ``(N, H, W, 2)`` (or ``(N, D, H, W, 3)``) of normalised (x, y[, z]) positions."""
    if not theta.is_floating_point():
        raise InvalidArgumentError(f"Expected theta to have floating point type, but got "
                                   f"{theta.dtype}")
    size = [int(s) for s in size]
    if len(size) not in (4, 5):
        raise InvalidArgumentError(
            f"affine_grid only supports 4D and 5D sizes, for 2D and 3D affine transforms, "
            f"respectively. Got size {size}.")
    spatial = len(size) - 2
    if theta.ndim != 3 or tuple(theta.shape[1:]) != (spatial, spatial + 1) or \
            theta.shape[0] != size[0]:
        shape = "Nx2x3" if spatial == 2 else "Nx3x4"
        raise InvalidArgumentError(f"Expected a batch of {spatial}D affine matrices of shape "
                                   f"{shape} for size {size}. Got {list(theta.shape)}.")
    if min(size[2:]) <= 0:
        raise InvalidArgumentError(f"Expected non-zero, positive output size. Got {size}")
    sizes = size[2:]
    # the output positions per dim (x first): pixel centres, or the corner pixels at -1 and 1
    axes = []
    for steps in reversed(sizes):
        line = volta.linspace(-1.0, 1.0, steps, dtype=theta.dtype, device=theta.device) \
            if steps > 1 else volta.zeros(1, dtype=theta.dtype, device=theta.device)
        axes.append(line if align_corners or steps <= 1 else line * ((steps - 1) / steps))
    columns = []
    for d, line in enumerate(axes):  # broadcast axis d over the spatial grid (D, H, W order)
        shape = [1] * spatial
        shape[spatial - 1 - d] = sizes[spatial - 1 - d]
        columns.append(line.reshape(shape).expand(*sizes))
    columns.append(volta.ones(*sizes, dtype=theta.dtype, device=theta.device))
    base = volta.stack(columns, -1).reshape(1, -1, spatial + 1)
    grid = base.matmul(theta.transpose(1, 2))
    return grid.reshape(size[0], *sizes, spatial)


# -- functions added with the layers of the nn-parity work (padding, distance, norms) -----------

@_export
def lp_pool3d(input: Tensor, norm_type: float, kernel_size: Any, stride: Any = None,
              ceil_mode: bool = False) -> Tensor:
    """``(sum over each window of x**p) ** (1/p)`` over ``(N, C, D, H, W)``; ``p = inf`` is
    max pooling of ``|x|``."""
    if norm_type == math.inf:
        return max_pool3d(input.abs(), kernel_size, stride, 0, 1, ceil_mode)
    if norm_type == -math.inf:
        return -max_pool3d(-input.abs(), kernel_size, stride, 0, 1, ceil_mode)
    kd, kh, kw = _tup(kernel_size, 3)
    out = avg_pool3d(input.pow(norm_type), kernel_size, stride, 0, ceil_mode)
    return _lp_root(out, kd * kh * kw, norm_type)


@_export
def dropout1d(input: Tensor, p: float = 0.5, training: bool = True,
              inplace: bool = False) -> Tensor:
    """Zeroes whole channels of a ``(N, C, L)`` (or ``(C, L)``) input with probability ``p``
    and scales the rest by ``1 / (1 - p)``."""
    _check_p(p)
    if input.ndim not in (2, 3):
        raise InvalidArgumentError(
            f"dropout1d: Expected 2D or 3D input, but received a {input.ndim}D input. Note that "
            "dropout1d exists to provide channel-wise dropout on inputs with 1 spatial "
            "dimension, a channel dimension, and an optional batch dimension (i.e. 2D or 3D "
            "inputs).")
    batched = input.ndim == 3
    x = input if batched else input.unsqueeze(0)
    out = _F.feature_dropout(x, p, training)
    return _maybe_inplace(input, out if batched else out.squeeze(0), inplace)


# in-place activations: PyTorch's ``F.<name>_(input, ...)``, the same as ``inplace=True``

@_export
def elu_(input: Tensor, alpha: float = 1.0) -> Tensor:
    return elu(input, alpha, inplace=True)


@_export
def selu_(input: Tensor) -> Tensor:
    return selu(input, inplace=True)


@_export
def celu_(input: Tensor, alpha: float = 1.0) -> Tensor:
    return celu(input, alpha, inplace=True)


@_export
def leaky_relu_(input: Tensor, negative_slope: float = 0.01) -> Tensor:
    return leaky_relu(input, negative_slope, inplace=True)


@_export
def hardtanh_(input: Tensor, min_val: float = -1.0, max_val: float = 1.0) -> Tensor:
    return hardtanh(input, min_val, max_val, inplace=True)


@_export
def rrelu_(input: Tensor, lower: float = 1.0 / 8, upper: float = 1.0 / 3,
           training: bool = False) -> Tensor:
    return rrelu(input, lower, upper, training, inplace=True)


@_export
def threshold_(input: Tensor, threshold: float, value: float) -> Tensor:
    # the argument named ``threshold`` hides the function of that name here
    return _maybe_inplace(input, _F.threshold(input, threshold, value), True)


# ``*_with_indices``: the pooling functions that always return ``(output, indices)``

@_export
def max_pool1d_with_indices(input: Tensor, kernel_size: Any, stride: Any = None,
                            padding: Any = 0, dilation: Any = 1, ceil_mode: bool = False,
                            return_indices: bool = False) -> tuple:
    return max_pool1d(input, kernel_size, stride, padding, dilation, ceil_mode, True)


@_export
def adaptive_max_pool1d_with_indices(input: Tensor, output_size: Any,
                                     return_indices: bool = False) -> tuple:
    return adaptive_max_pool1d(input, output_size, True)


@_export
def adaptive_max_pool2d_with_indices(input: Tensor, output_size: Any,
                                     return_indices: bool = False) -> tuple:
    return adaptive_max_pool2d(input, output_size, True)


@_export
def adaptive_max_pool3d_with_indices(input: Tensor, output_size: Any,
                                     return_indices: bool = False) -> tuple:
    return adaptive_max_pool3d(input, output_size, True)


@_export
def fractional_max_pool2d_with_indices(input: Tensor, kernel_size: Any, output_size: Any = None,
                                       output_ratio: Any = None, return_indices: bool = False,
                                       _random_samples: Tensor | None = None) -> tuple:
    return fractional_max_pool2d(input, kernel_size, output_size, output_ratio, True,
                                 _random_samples)


@_export
def fractional_max_pool3d_with_indices(input: Tensor, kernel_size: Any, output_size: Any = None,
                                       output_ratio: Any = None, return_indices: bool = False,
                                       _random_samples: Tensor | None = None) -> tuple:
    return fractional_max_pool3d(input, kernel_size, output_size, output_ratio, True,
                                 _random_samples)


@_export
def native_channel_shuffle(input: Tensor, groups: int) -> Tensor:
    return _F.channel_shuffle(input, groups)


@_export
def conv_tbc(input: Tensor, weight: Tensor, bias: Tensor, pad: int = 0) -> Tensor:
    """1-D convolution over time of ``(time, batch, in_channels)`` input with a
    ``(kernel_width, in_channels, out_channels)`` weight and ``(out_channels,)`` bias, ``pad``
    steps of zeros at both ends of time; output ``(time_out, batch, out_channels)``."""
    if input.ndim != 3:
        raise ShapeError(f"Input must have 3 dims: time, batch, in_channel (got {input.ndim})")
    if weight.ndim != 3:
        raise ShapeError("Weight tensor must have 3 dims: kernel_width, in_channels, "
                         f"out_channels (got {weight.ndim})")
    if bias.ndim != 1:
        raise ShapeError(f"Bias must be 1-D (got {bias.ndim})")
    if input.shape[2] != weight.shape[1]:
        raise ShapeError("Input dim 2 (input channels) is not == dim 1 in the weight tensor")
    if weight.shape[2] != bias.shape[0]:
        raise ShapeError("Bias size must equal dim 2 in the weight tensor (output channels).")
    out = conv1d(input.permute(1, 2, 0), weight.permute(2, 1, 0), bias, 1, pad)
    return out.permute(2, 0, 1)


@_export
def gumbel_softmax(logits: Tensor, tau: float = 1, hard: bool = False, eps: float = 1e-10,
                   dim: int = -1) -> Tensor:
    """A sample from the Gumbel-softmax distribution: ``softmax((logits + g) / tau)``, ``g``
    standard Gumbel noise. ``hard``: the one-hot of the sample's argmax in the forward pass,
    with the soft sample's gradient (straight-through). ``eps`` is unused, as in PyTorch."""
    gumbels = -volta.empty_like(logits).exponential_().log()
    soft = _F.softmax((logits + gumbels) / tau, dim, None)
    if not hard:
        return soft
    index = soft.argmax(dim, keepdim=True)
    one_hot_sample = volta.zeros_like(logits).scatter_(dim, index, 1.0)
    return one_hot_sample - soft.detach() + soft
