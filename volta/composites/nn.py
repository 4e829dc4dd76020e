"""Composite operators of ``volta.nn.functional``: linear and convolution, pooling, dropout,
normalisation, losses, distances and attention."""

from __future__ import annotations

import math
import warnings
from collections.abc import Sequence

from volta import dtypes as D
from volta._generated import functions as F
from volta._generated import registry as R
from volta.composites.base import _shape, composite
from volta.composites.views import wrap_dim
from volta.errors import (
    DTypeError,
    IndexOutOfRangeError,
    InvalidOperationError,
    SchemaError,
    ShapeError,
)
from volta.tensor import checks
from volta.tensor import factories as fac
from volta.tensor.checks import check_normalized_shape, check_pool_dtype
from volta.tensor.inplace import broadcast_shapes
from volta.tensor.tensor import Tensor

# ---------------------------------------------------------------- nn: linear and convolution

@composite("linear")
def linear(input: Tensor, weight: Tensor, bias: Tensor | None = None) -> Tensor:
    """``input @ weight.T + bias``."""
    out = R.matmul(input, R.t(weight))
    return out if bias is None else out + bias


@composite("bilinear")
def bilinear(input1: Tensor, input2: Tensor, weight: Tensor,
             bias: Tensor | None = None) -> Tensor:
    """``out[..., o] = sum_ij input1[..., i] * weight[o, i, j] * input2[..., j] + bias[o]``."""
    if input1.ndim != input2.ndim:
        raise ShapeError(f"bilinear(): input dimensions do not match: got {input1.ndim} and "
                         f"{input2.ndim}")
    for i in range(input1.ndim - 1):
        if input1.shape[i] != input2.shape[i]:
            raise ShapeError(f"bilinear(): input batch dimensions do not match at dim {i}: got "
                             f"{input1.shape[i]} and {input2.shape[i]}")
    if weight.ndim != 3:
        raise ShapeError(f"bilinear(): weight must be a 3D tensor, but got {weight.ndim}D")
    out_features, in1, in2 = _shape(weight)
    if input1.shape[-1] != in1:
        raise ShapeError(f"bilinear(): input1 size does not match weight size: got "
                         f"{input1.shape[-1]} but expected {in1}")
    if input2.shape[-1] != in2:
        raise ShapeError(f"bilinear(): input2 size does not match weight size: got "
                         f"{input2.shape[-1]} but expected {in2}")
    if bias is not None and (bias.ndim != 1 or bias.shape[0] != out_features):
        got = bias.shape[0] if bias.ndim else bias.numel()
        raise ShapeError(f"bilinear(): bias size does not match weight size: got {got} but "
                         f"expected {out_features}")
    batch = _shape(input1)[:-1]
    rows = math.prod(batch)
    x1 = R.reshape(input1, (rows, in1))
    x2 = R.reshape(input2, (rows, in2))
    # (rows, i) @ (i, o*j) -> (rows, o, j), then contract j with input2 per row
    w = R.reshape(R.permute(weight, (1, 0, 2)), (in1, out_features * in2))
    left = R.reshape(R.mm(x1, w), (rows, out_features, in2))
    out = R.matmul(left, x2.unsqueeze(-1)).squeeze(-1)
    out = R.reshape(out, batch + (out_features,))
    return out if bias is None else out + bias


def _conv(input: Tensor, weight: Tensor, bias: Tensor | None, stride: Sequence[int],
          padding: Sequence[int] | str, dilation: Sequence[int], transposed: bool,
          output_padding: Sequence[int], groups: int, spatial: int, name: str) -> Tensor:
    if input.ndim not in (spatial + 1, spatial + 2):
        raise ShapeError(f"Expected {spatial + 1}D (unbatched) or {spatial + 2}D (batched) input "
                         f"to {name}, but got input of size: {list(input.shape)}")
    if bias is not None and bias.dtype is not input.dtype:
        raise DTypeError(f"Input type ({input.dtype.name}) and bias type ({bias.dtype.name}) "
                         "should be the same")
    unbatched = input.ndim == spatial + 1
    x = input.unsqueeze(0) if unbatched else input
    if isinstance(padding, str):
        x, padding = _string_padding(x, weight, padding, stride, dilation, spatial, name)
    out = R.convolution(x, weight, bias, tuple(stride), tuple(padding), tuple(dilation),
                        transposed, tuple(output_padding), groups)
    return out.squeeze(0) if unbatched else out


def _string_padding(x: Tensor, weight: Tensor, padding: str, stride: Sequence[int],
                    dilation: Sequence[int], spatial: int,
                    name: str) -> tuple[Tensor, tuple[int, ...]]:
    """Resolve PyTorch's ``padding="valid"/"same"``: the input (zero-padded on the right where
    "same" needs an odd total) and the symmetric padding left for the convolution."""
    if padding == "valid":
        return x, (0,) * spatial
    if padding != "same":
        raise SchemaError(f"Invalid padding string '{padding}' for {name}; expected 'same' or "
                          "'valid'")
    if any(s != 1 for s in stride):
        raise SchemaError("padding='same' is not supported for strided convolutions")
    left, extra = [], [0] * (2 * spatial)
    for i in range(spatial):
        total = dilation[i] * (weight.shape[i + 2] - 1)
        left.append(total // 2)
        # F.pad lists (left, right) pairs from the last dim to the first
        extra[2 * (spatial - 1 - i) + 1] = total - 2 * (total // 2)
    if any(extra):
        x = R.pad(x, tuple(extra), "constant", 0.0)
    return x, tuple(left)


@composite("conv1d")
def conv1d(input: Tensor, weight: Tensor, bias: Tensor | None = None,
           stride: Sequence[int] = (1,), padding: Sequence[int] = (0,),
           dilation: Sequence[int] = (1,), groups: int = 1) -> Tensor:
    """1-d convolution of (N, C, L) or unbatched (C, L) input."""
    return _conv(input, weight, bias, stride, padding, dilation, False, (0,), groups, 1,
                 "conv1d")


@composite("conv2d")
def conv2d(input: Tensor, weight: Tensor, bias: Tensor | None = None,
           stride: Sequence[int] = (1, 1), padding: Sequence[int] = (0, 0),
           dilation: Sequence[int] = (1, 1), groups: int = 1) -> Tensor:
    """2-d convolution of (N, C, H, W) or unbatched (C, H, W) input."""
    return _conv(input, weight, bias, stride, padding, dilation, False, (0, 0), groups, 2,
                 "conv2d")


@composite("conv3d")
def conv3d(input: Tensor, weight: Tensor, bias: Tensor | None = None,
           stride: Sequence[int] = (1, 1, 1), padding: Sequence[int] = (0, 0, 0),
           dilation: Sequence[int] = (1, 1, 1), groups: int = 1) -> Tensor:
    """3-d convolution of (N, C, D, H, W) or unbatched (C, D, H, W) input."""
    return _conv(input, weight, bias, stride, padding, dilation, False, (0, 0, 0), groups, 3,
                 "conv3d")


@composite("conv_transpose1d")
def conv_transpose1d(input: Tensor, weight: Tensor, bias: Tensor | None = None,
                     stride: Sequence[int] = (1,), padding: Sequence[int] = (0,),
                     output_padding: Sequence[int] = (0,), groups: int = 1,
                     dilation: Sequence[int] = (1,)) -> Tensor:
    """1-d transposed convolution of (N, C, L) or unbatched (C, L) input."""
    return _conv(input, weight, bias, stride, padding, dilation, True, output_padding, groups,
                 1, "conv_transpose1d")


@composite("conv_transpose2d")
def conv_transpose2d(input: Tensor, weight: Tensor, bias: Tensor | None = None,
                     stride: Sequence[int] = (1, 1), padding: Sequence[int] = (0, 0),
                     output_padding: Sequence[int] = (0, 0), groups: int = 1,
                     dilation: Sequence[int] = (1, 1)) -> Tensor:
    """2-d transposed convolution of (N, C, H, W) or unbatched (C, H, W) input."""
    return _conv(input, weight, bias, stride, padding, dilation, True, output_padding, groups,
                 2, "conv_transpose2d")


# ---------------------------------------------------------------- nn: pooling

def _batched(x: Tensor, spatial: int, name: str) -> tuple[Tensor, bool]:
    """``x`` with a batch dim (pool kernels need one) and whether one was added."""
    if x.ndim == spatial + 1:
        return x.unsqueeze(0), True
    if x.ndim == spatial + 2:
        return x, False
    raise ShapeError(f"{name}: Expected {spatial + 1}D or {spatial + 2}D (batch mode) tensor for "
                     f"input, but got input of size: {list(x.shape)}")


def _check_planes(x: Tensor, spatial: int, name: str) -> None:
    """Max and average pooling take an empty batch, not an empty channel or spatial dim."""
    if 0 in _shape(x)[1:]:
        raise ShapeError(f"{name}: Expected {spatial + 1}D or {spatial + 2}D (batch mode) tensor "
                         "with optional 0 dim batch size for input, but got input of size: "
                         f"{list(x.shape)}")


def _max_pool(self: Tensor, kernel_size: Sequence[int], stride: Sequence[int],
              padding: Sequence[int], dilation: Sequence[int], ceil_mode: bool, spatial: int,
              name: str) -> tuple[Tensor, Tensor]:
    x, unbatched = _batched(self, spatial, name)
    _check_planes(x, spatial, name)
    check_pool_dtype(name, x.dtype)
    kernel = tuple(kernel_size)
    out, indices = R.max_pool_with_indices(x, kernel, tuple(stride) or kernel, tuple(padding),
                                           tuple(dilation), ceil_mode)
    if unbatched:
        return out.squeeze(0), indices.squeeze(0)
    return out, indices


@composite("max_pool1d")
def max_pool1d(self: Tensor, kernel_size: Sequence[int], stride: Sequence[int] = (),
               padding: Sequence[int] = (0,), dilation: Sequence[int] = (1,),
               ceil_mode: bool = False) -> Tensor:
    """1-d max pooling of (N, C, L) or (C, L) input."""
    return _max_pool(self, kernel_size, stride, padding, dilation, ceil_mode, 1, "max_pool1d")[0]


@composite("max_pool2d")
def max_pool2d(self: Tensor, kernel_size: Sequence[int], stride: Sequence[int] = (),
               padding: Sequence[int] = (0, 0), dilation: Sequence[int] = (1, 1),
               ceil_mode: bool = False) -> Tensor:
    """2-d max pooling of (N, C, H, W) or (C, H, W) input."""
    return _max_pool(self, kernel_size, stride, padding, dilation, ceil_mode, 2, "max_pool2d")[0]


@composite("max_pool2d_with_indices")
def max_pool2d_with_indices(self: Tensor, kernel_size: Sequence[int], stride: Sequence[int] = (),
                            padding: Sequence[int] = (0, 0), dilation: Sequence[int] = (1, 1),
                            ceil_mode: bool = False) -> tuple[Tensor, Tensor]:
    """2-d max pooling and the flat (per plane) index of each maximum."""
    return _max_pool(self, kernel_size, stride, padding, dilation, ceil_mode, 2,
                     "max_pool2d_with_indices")


def _avg_pool(self: Tensor, kernel_size: Sequence[int], stride: Sequence[int],
              padding: Sequence[int], ceil_mode: bool, count_include_pad: bool,
              divisor_override: int | None, spatial: int, name: str) -> Tensor:
    x, unbatched = _batched(self, spatial, name)
    _check_planes(x, spatial, name)
    check_pool_dtype(name, x.dtype)
    kernel = tuple(kernel_size)
    out = R.avg_pool(x, kernel, tuple(stride) or kernel, tuple(padding), ceil_mode,
                     count_include_pad, divisor_override)
    return out.squeeze(0) if unbatched else out


@composite("avg_pool1d")
def avg_pool1d(self: Tensor, kernel_size: Sequence[int], stride: Sequence[int] = (),
               padding: Sequence[int] = (0,), ceil_mode: bool = False,
               count_include_pad: bool = True) -> Tensor:
    """1-d average pooling of (N, C, L) or (C, L) input."""
    return _avg_pool(self, kernel_size, stride, padding, ceil_mode, count_include_pad, None, 1,
                     "avg_pool1d")


@composite("avg_pool2d")
def avg_pool2d(self: Tensor, kernel_size: Sequence[int], stride: Sequence[int] = (),
               padding: Sequence[int] = (0, 0), ceil_mode: bool = False,
               count_include_pad: bool = True, divisor_override: int | None = None) -> Tensor:
    """2-d average pooling of (N, C, H, W) or (C, H, W) input."""
    return _avg_pool(self, kernel_size, stride, padding, ceil_mode, count_include_pad,
                     divisor_override, 2, "avg_pool2d")


def _output_size(x: Tensor, output_size: Sequence[int | None], spatial: int) -> tuple[int, ...]:
    """Adaptive pooling sizes, a None entry keeping the input's size."""
    sizes = _shape(x)[-spatial:]
    return tuple(sizes[i] if s is None else s for i, s in enumerate(output_size))


def _adaptive(self: Tensor, output_size: Sequence[int | None], spatial: int, name: str,
              use_max: bool) -> Tensor:
    x, unbatched = _batched(self, spatial, name)
    check_pool_dtype(name, x.dtype)
    size = _output_size(x, output_size, spatial)
    out = R.adaptive_max_pool(x, size)[0] if use_max else R.adaptive_avg_pool(x, size)
    return out.squeeze(0) if unbatched else out


@composite("adaptive_avg_pool1d")
def adaptive_avg_pool1d(self: Tensor, output_size: Sequence[int]) -> Tensor:
    """Average pooling of (N, C, L) or (C, L) input to ``output_size``."""
    return _adaptive(self, output_size, 1, "adaptive_avg_pool1d", False)


@composite("adaptive_avg_pool2d")
def adaptive_avg_pool2d(self: Tensor, output_size: Sequence[int | None]) -> Tensor:
    """Average pooling of (N, C, H, W) or (C, H, W) input to ``output_size``."""
    return _adaptive(self, output_size, 2, "adaptive_avg_pool2d", False)


@composite("adaptive_max_pool1d")
def adaptive_max_pool1d(self: Tensor, output_size: Sequence[int]) -> tuple[Tensor, Tensor]:
    """Max pooling of (N, C, L) or (C, L) input to ``output_size``, and the index of each
    maximum (PyTorch's ``torch.adaptive_max_pool1d`` returns both)."""
    x, unbatched = _batched(self, 1, "adaptive_max_pool1d")
    check_pool_dtype("adaptive_max_pool1d", x.dtype)
    out, indices = R.adaptive_max_pool(x, _output_size(x, output_size, 1))
    return (out.squeeze(0), indices.squeeze(0)) if unbatched else (out, indices)


@composite("adaptive_max_pool2d")
def adaptive_max_pool2d(self: Tensor, output_size: Sequence[int | None]) -> Tensor:
    """Max pooling of (N, C, H, W) or (C, H, W) input to ``output_size``."""
    return _adaptive(self, output_size, 2, "adaptive_max_pool2d", True)


# ---------------------------------------------------------------- nn: dropout and normalisation

@composite("dropout")
def dropout(input: Tensor, p: float = 0.5, train: bool = True) -> Tensor:
    """Zero each element with probability ``p`` and scale the rest by ``1 / (1 - p)``."""
    if not 0 <= p <= 1:
        raise SchemaError(f"dropout probability has to be between 0 and 1, but got {p}")
    if not train or p == 0:
        return input
    if p == 1:
        return input * fac.zeros((), dtype=input.dtype, device=input.device)
    if not input.dtype.is_floating_point:
        # PyTorch scales the kept elements in place by 1 / (1 - p): a float into an integer or
        # bool tensor, which fails unless there is no element
        if input.numel() == 0:
            return F.clone(input)
        raise DTypeError(f"result type Float can't be cast to the desired output type "
                         f"{checks.scalar_type_name(input.dtype)}")
    keep = F.ge(fac.rand(_shape(input), dtype=input.dtype, device=input.device), p)
    return input * keep / (1 - p)


def _channel_count(size: Sequence[int]) -> int:
    """Values per channel of an (N, C, *) shape: what batch statistics average over."""
    return size[0] * math.prod(size[2:])


@composite("batch_norm")
def batch_norm(input: Tensor, weight: Tensor | None, bias: Tensor | None,
               running_mean: Tensor | None, running_var: Tensor | None, training: bool,
               momentum: float, eps: float, cudnn_enabled: bool) -> Tensor:
    """Batch normalisation over every dim but the channel dim 1. ``cudnn_enabled`` (PyTorch's
    choice of a CUDA library) changes nothing here; like PyTorch, the op requires it."""
    if training and input.ndim >= 2 and _channel_count(_shape(input)) == 1:
        raise ShapeError(f"Expected more than 1 value per channel when training, got input size "
                         f"{list(input.shape)}")
    if input.numel() == 0:
        # as PyTorch's batch_norm: an empty input of any rank comes back as a copy (still in
        # the graph), scaled and shifted by the first weight and bias; the stats stay as they are
        out = R.clone(input, None)
        if weight is not None:
            out = out * weight[0]
        return out if bias is None else out + bias[0]
    return R.native_batch_norm(input, weight, bias, running_mean, running_var, training,
                               momentum, eps)[0]


@composite("layer_norm")
def layer_norm(input: Tensor, normalized_shape: Sequence[int],
               weight: Tensor | None = None, bias: Tensor | None = None,
               eps: float = 1e-05) -> Tensor:
    """Normalise over the trailing ``normalized_shape`` dims."""
    check_normalized_shape(input, normalized_shape, "*, ")
    return R.native_layer_norm(input, tuple(normalized_shape), weight, bias, eps)[0]


@composite("group_norm")
def group_norm(input: Tensor, num_groups: int, weight: Tensor | None = None,
               bias: Tensor | None = None, eps: float = 1e-05) -> Tensor:
    """Normalise each of ``num_groups`` channel groups of an (N, C, *) input."""
    if input.ndim < 2:
        raise ShapeError(f"Expected at least 2 dimensions for input tensor but received "
                         f"{input.ndim}")
    if not input.dtype.is_floating_point:  # even an empty one
        raise checks.not_implemented_for("GroupNormKernelImpl", input.dtype)
    shape = _shape(input)
    n, c = shape[0], shape[1]
    if num_groups <= 0 or c % num_groups:
        raise ShapeError(f"Expected number of channels in input to be divisible by num_groups, "
                         f"but got input of shape {list(shape)} and num_groups={num_groups}")
    stats_shape = [n * c // num_groups, num_groups, *shape[2:]]
    if _channel_count(stats_shape) == 1:
        raise ShapeError(f"Expected more than 1 value per channel when training, got input size "
                         f"{stats_shape}")
    for name, param in (("weight", weight), ("bias", bias)):
        if param is not None and (param.ndim != 1 or param.numel() != c):
            raise ShapeError(f"Expected {name} to be a vector of size equal to the number of "
                             f"channels in input, but got {name} of shape {list(param.shape)} "
                             f"and input of shape {list(shape)}")
    hxw = math.prod(shape[2:])
    return R.native_group_norm(input, weight, bias, n, c, hxw, num_groups, eps)[0]


@composite("rms_norm")
def rms_norm(input: Tensor, normalized_shape: Sequence[int],
             weight: Tensor | None = None, eps: float | None = None) -> Tensor:
    """``input / sqrt(mean(input**2) + eps) * weight`` over the trailing dims."""
    check_normalized_shape(input, normalized_shape, "*")
    dims = tuple(range(-len(normalized_shape), 0))
    # like PyTorch, half-precision inputs are computed (and eps chosen) in float32
    x = input.to(D.float32) if input.dtype in (D.float16, D.bfloat16) else input
    if eps is None:
        eps = D.finfo(x.dtype).eps
    out = x * F.rsqrt(R.mean(x * x, dims, True, None) + eps)
    if x is not input:
        out = out.to(input.dtype)
    return out if weight is None else out * weight


# ---------------------------------------------------------------- nn: losses

_REDUCTIONS = ("none", "mean", "sum")


def _check_reduction(reduction: str, allowed: Sequence[str] = _REDUCTIONS) -> None:
    if reduction not in allowed:
        raise SchemaError(f"{reduction} is not a valid value for reduction")


def _reduce(loss: Tensor, reduction: str) -> Tensor:
    if reduction == "mean":
        return loss.mean()
    if reduction == "sum":
        return loss.sum()
    return loss


def _warn_target_size(self: Tensor, target: Tensor) -> None:
    if _shape(target) != _shape(self):
        warnings.warn(f"Using a target size ({target.shape}) that is different to the input size "
                      f"({self.shape}). This will likely lead to incorrect results due to "
                      "broadcasting. Please ensure they have the same size.", UserWarning,
                      stacklevel=4)


def _class_weight(weight: Tensor, ndim: int, class_dim: int) -> Tensor:
    """A per-class weight shaped to broadcast against an input whose classes are ``class_dim``."""
    shape = [1] * ndim
    shape[class_dim] = weight.shape[0]
    return R.reshape(weight, tuple(shape))


def _check_class_weight(weight: Tensor | None, classes: int, op: str) -> None:
    if weight is not None and (weight.ndim != 1 or weight.numel() != classes):
        raise ShapeError(f"{op}weight tensor should be defined either for all {classes} classes "
                         f"or no classes but got weight tensor of shape: {list(weight.shape)}")


@composite("nll_loss")
def nll_loss(self: Tensor, target: Tensor, weight: Tensor | None = None,
             reduction: str = "mean", ignore_index: int = -100) -> Tensor:
    """Negative log likelihood of class indices; ``self`` holds log-probabilities."""
    _check_reduction(reduction)
    shape, target_shape = _shape(self), _shape(target)
    ndim = len(shape)
    if ndim < 1:
        raise ShapeError(f"Expected 1 or more dimensions (got {ndim})")
    if ndim != 1 and (not target_shape or shape[0] != target_shape[0]):
        got = target_shape[0] if target_shape else 0
        raise ShapeError(f"Expected input batch_size ({shape[0]}) to match target "
                         f"batch_size ({got}).")
    if target.dtype not in (D.int64, D.uint8):
        raise DTypeError(f"expected target dtype to be Long or Byte, but got "
                         f"{target.dtype.name}")
    class_dim = 0 if ndim == 1 else 1
    classes = shape[class_dim]
    expected = shape[:class_dim] + shape[class_dim + 1:]
    if target_shape != expected:
        raise ShapeError(f"Expected target size {list(expected)}, got {list(target.shape)}")
    _check_class_weight(weight, classes, "")
    if target.dtype is not D.int64:
        target = target.to(D.int64)
    if weight is None or not weight.requires_grad:
        return R._nll_loss(self, target, weight, reduction, ignore_index)
    return _nll_loss_parts(self, target, weight, reduction, ignore_index)


def _nll_loss_parts(self: Tensor, target: Tensor, weight: Tensor | None, reduction: str,
                    ignore_index: int) -> Tensor:
    """nll_loss written with gather (differentiable in ``weight`` as well)."""
    class_dim = 0 if self.ndim == 1 else 1
    classes = self.shape[class_dim]
    valid = R.ne(target, ignore_index)
    safe = R.where_self(valid, target, 0)
    # the range check reads the data on the host: free where the storage is host memory (the
    # backend contract's flag), a device sync in every training step elsewhere, so other
    # devices skip it, as CUDA's device-side assert does (their gather kernels clamp instead)
    if safe.numel() and safe._storage.backend.host_memory:
        out_of_range = F.logical_or(R.lt(safe, 0), R.ge(safe, classes))
        if out_of_range.any().item():
            bad = F.masked_select(safe, out_of_range).reshape(-1)[0].item()
            raise IndexOutOfRangeError(f"Target {bad} is out of bounds.")
    picked = R.gather(self, class_dim, safe.unsqueeze(class_dim), False).squeeze(class_dim)
    if weight is None:
        w = valid.to(self.dtype)
    else:
        w = R.reshape(F.index_select(weight, 0, R.reshape(safe, (-1,))), _shape(safe))
        w = R.where_self(valid, w, 0)
    loss = -(picked * w)
    if reduction == "none":
        return loss
    if reduction == "sum":
        return loss.sum()
    return loss.sum() / w.sum()


@composite("_nll_loss")
def _nll_loss(self: Tensor, target: Tensor, weight: Tensor | None, reduction: str,
              ignore_index: int) -> Tensor:
    """The fused loss op, for backends without a kernel of their own."""
    return _nll_loss_parts(self, target, weight, reduction, ignore_index)


@composite("_nll_loss_backward")
def _nll_loss_backward(grad_output: Tensor, self: Tensor, target: Tensor, weight: Tensor | None,
                       reduction: str, ignore_index: int) -> Tensor:
    """Scatters -weight * grad_output (over the total weight for "mean") to each target class."""
    class_dim = 0 if self.ndim == 1 else 1
    valid = R.ne(target, ignore_index)
    safe = R.where_self(valid, target, 0)
    if weight is None:
        w = valid.to(self.dtype)
    else:
        w = R.reshape(F.index_select(weight, 0, R.reshape(safe, (-1,))), _shape(safe))
        w = R.where_self(valid, w, 0)
    scale = grad_output / w.sum() if reduction == "mean" else grad_output
    values = -(w * scale)
    return F.zeros_like(self).scatter(class_dim, safe.unsqueeze(class_dim),
                                      values.unsqueeze(class_dim))


@composite("cross_entropy")
def cross_entropy(self: Tensor, target: Tensor, weight: Tensor | None = None,
                  reduction: str = "mean", ignore_index: int = -100,
                  label_smoothing: float = 0.0) -> Tensor:
    """log_softmax over the class dim, then NLL of class indices or of class probabilities."""
    _check_reduction(reduction)
    class_dim = 0 if self.ndim == 1 else 1
    if self.ndim >= 1 and _shape(self) == _shape(target):
        return _cross_entropy_probs(self, target, weight, reduction, ignore_index,
                                    label_smoothing, class_dim)
    if label_smoothing > 1.0:
        raise SchemaError(f"label_smoothing must be between 0.0 and 1.0. Got: {label_smoothing}")
    log_probs = F.log_softmax(self, class_dim)
    nll = R.nll_loss(log_probs, target, weight, reduction, ignore_index)
    if label_smoothing <= 0.0:
        return nll
    classes = self.shape[class_dim]
    ignored = R.eq(target, ignore_index)
    if weight is None:
        smooth = -log_probs.sum(class_dim)
    else:
        smooth = -(log_probs * _class_weight(weight, self.ndim, class_dim)).sum(class_dim)
    smooth = F.masked_fill(smooth, ignored, 0.0)
    if reduction == "mean":
        if weight is None:
            total = smooth.sum() / F.logical_not(ignored).sum()
        else:
            safe = F.masked_fill(target, ignored, 0)
            picked = R.reshape(F.index_select(weight, 0, R.reshape(safe, (-1,))), _shape(safe))
            total = smooth.sum() / F.masked_fill(picked, ignored, 0).sum()
    else:
        total = _reduce(smooth, reduction)
    return (1 - label_smoothing) * nll + total * (label_smoothing / classes)


def _cross_entropy_probs(self: Tensor, target: Tensor, weight: Tensor | None, reduction: str,
                         ignore_index: int, label_smoothing: float, class_dim: int) -> Tensor:
    """Cross entropy against class probabilities (target shaped like the input)."""
    if not target.is_floating_point():
        raise DTypeError(f"Expected floating point type for target with class probabilities, "
                         f"got {target.dtype.name}")
    if ignore_index >= 0:
        raise SchemaError("ignore_index is not supported for floating point target")
    classes = self.shape[class_dim]
    _check_class_weight(weight, classes, "cross_entropy: ")
    log_probs = F.log_softmax(self, class_dim)
    if label_smoothing > 0.0:
        if label_smoothing > 1.0:
            raise SchemaError(f"label_smoothing must be between 0.0 and 1.0. Got: "
                              f"{label_smoothing}")
        target = target * (1 - label_smoothing) + label_smoothing / classes
    terms = log_probs * target
    if weight is not None:
        terms = terms * _class_weight(weight, self.ndim, class_dim)
    if reduction == "none":
        return -terms.sum(class_dim)
    total = -terms.sum()
    if reduction == "sum":
        return total
    if self.numel() == 0:
        return total * math.nan
    return total / (self.numel() // classes)


@composite("mse_loss")
def mse_loss(self: Tensor, target: Tensor, reduction: str = "mean") -> Tensor:
    """Mean (or summed) squared error."""
    _check_reduction(reduction)
    _warn_target_size(self, target)
    common = checks.regression_loss_dtype("mse_cpu", self, target)
    diff = self.to(common) - target.to(common)  # a bool operand subtracts as a number
    return _reduce(diff * diff, reduction)


@composite("l1_loss")
def l1_loss(self: Tensor, target: Tensor, reduction: str = "mean") -> Tensor:
    """Mean (or summed) absolute error."""
    _check_reduction(reduction)
    _warn_target_size(self, target)
    return _reduce(F.abs(self - target), reduction)


@composite("smooth_l1_loss")
def smooth_l1_loss(self: Tensor, target: Tensor, reduction: str = "mean",
                   beta: float = 1.0) -> Tensor:
    """Squared error below ``beta`` (scaled by ``1 / beta``), absolute error above."""
    _check_reduction(reduction)
    if beta < 0:
        raise SchemaError("smooth_l1_loss does not support negative values for beta.")
    _warn_target_size(self, target)
    common = checks.regression_loss_dtype("smooth_l1_cpu", self, target)
    self, target = self.to(common), target.to(common)  # a bool operand subtracts as a number
    if beta == 0:
        return _reduce(F.abs(self - target), reduction)
    z = F.abs(self - target)
    loss = R.where_self(R.lt(z, beta), 0.5 * z * z / beta, z - 0.5 * beta)
    return _reduce(loss, reduction)


@composite("huber_loss")
def huber_loss(self: Tensor, target: Tensor, reduction: str = "mean",
               delta: float = 1.0) -> Tensor:
    """Squared error below ``delta``, ``delta``-scaled absolute error above."""
    _check_reduction(reduction)
    if delta <= 0:
        raise SchemaError("huber_loss does not support non-positive values for delta.")
    _warn_target_size(self, target)
    common = checks.regression_loss_dtype("huber_cpu", self, target, into_input=True)
    z = F.abs(self.to(common) - target.to(common))
    loss = R.where_self(R.lt(z, delta), 0.5 * z * z, delta * (z - 0.5 * delta))
    # PyTorch writes each element into input's dtype before reducing
    return _reduce(loss.to(self.dtype), reduction)


@composite("binary_cross_entropy")
def binary_cross_entropy(self: Tensor, target: Tensor, weight: Tensor | None = None,
                         reduction: str = "mean") -> Tensor:
    """BCE of probabilities; the logs are clamped to >= -100 like PyTorch."""
    _check_reduction(reduction)
    if _shape(target) != _shape(self):
        raise ShapeError(f"Using a target size ({target.shape}) that is different to the input "
                         f"size ({self.shape}) is deprecated. Please ensure they have the same "
                         "size.")
    checks.check_binary_cross_entropy_dtypes(self, target)
    for name, values in (("input", self), ("target", target)):
        if bool(R.any(R.logical_not(R.logical_and(R.ge(values, 0), R.le(values, 1))))):
            raise InvalidOperationError(f"binary_cross_entropy: all elements of {name} should "
                                        "be between 0 and 1")
    log_p = R.clamp(F.log(self), -100, None)
    log_1mp = R.clamp(F.log(1 - self), -100, None)
    loss = (target - 1) * log_1mp - target * log_p
    if weight is not None:
        loss = loss * weight
    return _reduce(loss, reduction)


@composite("binary_cross_entropy_with_logits")
def binary_cross_entropy_with_logits(self: Tensor, target: Tensor, weight: Tensor | None = None,
                                     pos_weight: Tensor | None = None,
                                     reduction: str = "mean") -> Tensor:
    """BCE of logits, computed stably through logsigmoid."""
    _check_reduction(reduction)
    if _shape(target) != _shape(self):
        raise ShapeError(f"Target size ({target.shape}) must be the same as input size "
                         f"({self.shape})")
    checks.check_logits_loss_target(self, target)
    log_sigmoid = F.logsigmoid(self)
    if pos_weight is not None:
        log_sigmoid = log_sigmoid * ((pos_weight - 1) * target + 1)
    loss = (1 - target) * self - log_sigmoid
    if weight is not None:
        loss = loss * weight
    # PyTorch computes in place into a tensor of target's dtype
    return _reduce(loss.to(target.dtype), reduction)


@composite("kl_div")
def kl_div(self: Tensor, target: Tensor, reduction: str = "mean",
           log_target: bool = False) -> Tensor:
    """KL divergence of ``target`` from the log-probabilities ``self``."""
    _check_reduction(reduction, (*_REDUCTIONS, "batchmean"))
    if reduction == "mean":
        warnings.warn("reduction: 'mean' divides the total loss by both the batch size and the "
                      "support size.'batchmean' divides only by the batch size, and aligns with "
                      "the KL div math definition.'mean' will be changed to behave the same as "
                      "'batchmean' in the next major release.", UserWarning, stacklevel=3)
    if not (self.dtype.is_floating_point and target.dtype.is_floating_point):
        raise DTypeError("kl_div: Integral inputs not supported.")
    if log_target:
        loss = F.exp(target) * (target - self)
    else:
        loss = F.xlogy(target, target) - target * self
    if reduction == "batchmean":
        total = loss.sum()
        return total / self.shape[0] if self.ndim else total
    return _reduce(loss, reduction)


# ---------------------------------------------------------------- nn: distances and attention

@composite("cosine_similarity")
def cosine_similarity(x1: Tensor, x2: Tensor, dim: int = 1, eps: float = 1e-08) -> Tensor:
    """Cosine of the angle between ``x1`` and ``x2`` along ``dim`` (broadcasting)."""
    checks.check_cosine_similarity_eps(eps)
    common = D.result_type(x1, x2)
    if not common.is_floating_point:
        raise DTypeError(f"expected common dtype to be floating point, yet common dtype is "
                         f"{common.name}")
    shape = broadcast_shapes(_shape(x1), _shape(x2))
    a = R.expand(x1 if x1.dtype is common else x1.to(common), shape)
    b = R.expand(x2 if x2.dtype is common else x2.to(common), shape)
    d = wrap_dim(dim, len(shape), "cosine_similarity")
    # dividing by each norm first keeps the result within [-1, 1]
    norm_a = R.clamp(R.vector_norm(a, 2, (d,), True, None), eps, None)
    norm_b = R.clamp(R.vector_norm(b, 2, (d,), True, None), eps, None)
    return ((a / norm_a) * (b / norm_b)).sum(d)


@composite("pairwise_distance")
def pairwise_distance(x1: Tensor, x2: Tensor, p: float = 2, eps: float = 1e-06,
                      keepdim: bool = False) -> Tensor:
    """p-norm of ``x1 - x2 + eps`` over the last dim."""
    diff = x1 - x2 + eps
    if not diff.dtype.is_floating_point:
        # PyTorch's norm takes an integer difference (eps=0) in the default float dtype
        diff = diff.to(D.get_default_dtype())
    return R.vector_norm(diff, p, (-1,), keepdim, None)


@composite("normalize")
def normalize(input: Tensor, p: float | None = 2, dim: int | None = 1,
              eps: float = 1e-12) -> Tensor:
    """``input`` divided by its p-norm along ``dim`` (at least ``eps``); as in PyTorch, p None
    is the 2-norm and dim None all dimensions."""
    norm = R.vector_norm(input, 2 if p is None else p, None if dim is None else (dim,), True,
                         None)
    return input / R.clamp(norm, eps, None)


def _check_attention(query: Tensor, key: Tensor, value: Tensor, attn_mask: Tensor | None,
                     dropout_p: float, is_causal: bool, enable_gqa: bool) -> None:
    """PyTorch's argument checks of scaled_dot_product_attention, with its messages."""
    if is_causal and attn_mask is not None:
        raise SchemaError("_scaled_dot_product_attention: Explicit attn_mask should not be set "
                          "when is_causal=True")
    if dropout_p > 1:  # PyTorch applies dropout only for p > 0, and checks only the top
        raise SchemaError(f"dropout probability has to be between 0 and 1, but got {dropout_p}")
    if min(query.ndim, key.ndim, value.ndim) < 2:
        raise ShapeError(f"Expected query, key, and value to all be at least 2 dimensional, but "
                         f"got query.dim: {query.ndim} key.dim: {key.ndim} and value.dim: "
                         f"{value.ndim} instead.")
    if not (query.dtype is key.dtype is value.dtype):
        raise DTypeError(f"Expected query, key, and value to have the same dtype, but got "
                         f"query.dtype: {query.dtype.name} key.dtype: {key.dtype.name} and "
                         f"value.dtype: {value.dtype.name} instead.")
    if not query.dtype.is_floating_point:
        raise DTypeError(f"scaled_dot_product_attention: expected a floating point query, key "
                         f"and value, but got {query.dtype.name}")
    if attn_mask is not None and attn_mask.dtype not in (D.bool_, query.dtype):
        raise DTypeError(f"Expected attn_mask dtype to be bool or float or to match query dtype, "
                         f"but got attn_mask.dtype: {attn_mask.dtype.name} and query.dtype: "
                         f"{query.dtype.name} instead.")
    if query.shape[-1] != key.shape[-1]:
        raise ShapeError(f"scaled_dot_product_attention: the last dim of query "
                         f"({query.shape[-1]}) must match the last dim of key "
                         f"({key.shape[-1]})")
    if key.shape[-2] != value.shape[-2]:
        raise ShapeError(f"scaled_dot_product_attention: key and value must have the same "
                         f"sequence length, but got {key.shape[-2]} and {value.shape[-2]}")
    gqa = enable_gqa and min(query.ndim, key.ndim, value.ndim) >= 3
    if gqa and (query.shape[-3] % key.shape[-3] or query.shape[-3] % value.shape[-3]):
        raise ShapeError(f"Number of heads in key and value must divide the number of heads in "
                         f"query, but got query heads {query.shape[-3]}, key heads "
                         f"{key.shape[-3]} and value heads {value.shape[-3]}")
    heads = (query.shape[-3],) if gqa else ()
    batch = broadcast_shapes(_shape(query)[:-2], _shape(key)[:-3 if gqa else -2] + heads,
                             _shape(value)[:-3 if gqa else -2] + heads)
    if attn_mask is not None:
        scores = (*batch, query.shape[-2], key.shape[-2])
        # the mask is added to the scores in place: it may broadcast to them, not widen them
        if broadcast_shapes(_shape(attn_mask), scores) != scores:
            raise ShapeError(f"output with shape {list(scores)} doesn't match the broadcast "
                             f"shape {list(broadcast_shapes(_shape(attn_mask), scores))}")


@composite("scaled_dot_product_attention")
def scaled_dot_product_attention(query: Tensor, key: Tensor, value: Tensor,
                                 attn_mask: Tensor | None = None, dropout_p: float = 0.0,
                                 is_causal: bool = False, scale: float | None = None,
                                 enable_gqa: bool = False) -> Tensor:
    """``softmax(q @ k^T * scale + mask) @ v`` with dropout on the weights, computed by the fused
    ``_scaled_dot_product_attention_flash`` op; a query that may see no key gets zeros."""
    _check_attention(query, key, value, attn_mask, dropout_p, is_causal, enable_gqa)
    factor = 1.0 / math.sqrt(query.shape[-1]) if scale is None else float(scale)
    return R._scaled_dot_product_attention_flash(query, key, value, attn_mask, float(dropout_p),
                                                 is_causal, factor, enable_gqa)[0]


