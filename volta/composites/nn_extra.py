"""Composite operators of ``volta.nn.functional`` beyond the everyday set: the shrinking and
gated activations, 3-d pooling and transposed convolution, im2col/col2im, max_unpool, the
feature and alpha dropouts, local response norm, and the margin, ranking and likelihood losses.

Each is written with volta ops only, so every backend runs it and autograd differentiates it;
the formulas follow PyTorch's ATen implementations (same masks at the kinks, so gradients agree
at ties)."""

from __future__ import annotations

import math
from collections.abc import Sequence

from volta import dtypes as D
from volta._generated import functions as F
from volta._generated import registry as R
from volta.composites.base import _shape, composite
from volta.composites.nn import (
    _REDUCTIONS,
    _adaptive,
    _avg_pool,
    _check_reduction,
    _conv,
    _max_pool,
    _reduce,
)
from volta.errors import (
    DTypeError,
    IndexOutOfRangeError,
    InvalidArgumentError,
    ShapeError,
)
from volta.tensor import checks
from volta.tensor import factories as fac
from volta.tensor.checks import (
    check_grid_sampler_dtypes,
    check_local_response_norm_dtype,
    check_prelu_dtypes,
)
from volta.tensor.tensor import Tensor

# ---------------------------------------------------------------- activations


@composite("glu")
def glu(self: Tensor, dim: int = -1) -> Tensor:
    """``a * sigmoid(b)`` where ``a, b`` are the two halves of ``self`` along ``dim``."""
    if self.ndim == 0:
        raise ShapeError("glu does not support scalars because halving size must be even")
    d = dim + self.ndim if dim < 0 else dim
    if self.shape[d] % 2:
        raise ShapeError(f"Halving dimension must be even, but dimension {d} is size "
                         f"{self.shape[d]}")
    if not self.dtype.is_floating_point:  # PyTorch has floating glu kernels only
        raise DTypeError(f'"glu_cpu" not implemented for \'{self.dtype.name}\'')
    a, b = self.chunk(2, d)
    return a * F.sigmoid(b)


@composite("celu")
def celu(self: Tensor, alpha: float = 1.0) -> Tensor:
    """``max(0, x) + min(0, alpha * (exp(x / alpha) - 1))``: an ELU with input scale 1/alpha."""
    if alpha == 0:
        raise InvalidArgumentError("ZeroDivisionError: celu's alpha must not be 0")
    return R.elu(self, alpha, 1.0, 1.0 / alpha)


@composite("prelu")
def prelu(self: Tensor, weight: Tensor) -> Tensor:
    """``x`` where positive, ``weight * x`` elsewhere; ``weight`` has one slope or one per
    channel (dim 1 of a batched input)."""
    check_prelu_dtypes(self, weight)
    slopes = weight.numel()
    channels = self.shape[1] if self.ndim >= 2 else 1
    if slopes != 1 and slopes != channels:
        raise ShapeError(f"Mismatch of parameter numbers and input channel size. Found parameter "
                         f"numbers = {slopes} and channel size = {channels}.")
    if weight.ndim > 1:
        raise ShapeError(f"prelu: Expected `weight` to be a scalar or 1D tensor, but got: "
                         f"ndim = {weight.ndim}")
    if self.ndim >= 2 and slopes > 1:
        w = R.reshape(weight, (channels,) + (1,) * (self.ndim - 2))
    else:
        w = R.reshape(weight, ()) if weight.ndim else weight
    return R.where_self(R.gt(self, 0), self, w * self)


@composite("rrelu")
def rrelu(self: Tensor, lower: float = 0.125, upper: float = 1.0 / 3.0,
          training: bool = False) -> Tensor:
    """Leaky ReLU whose negative slope is drawn from ``U(lower, upper)`` per element when
    training, and is ``(lower + upper) / 2`` otherwise."""
    if lower > upper:
        raise InvalidArgumentError(f"Lower bound should be less than or equal to the upper bound, "
                                   f"but got lower={lower} and upper={upper}")
    if not training:
        return R.leaky_relu(self, (lower + upper) / 2)
    slopes = fac.rand(_shape(self), dtype=self.dtype, device=self.device) * (upper - lower)
    return R.where_self(R.ge(self, 0), self, self * (slopes + lower))


@composite("tanhshrink")
def tanhshrink(self: Tensor) -> Tensor:
    """``x - tanh(x)``."""
    return self - F.tanh(self)


@composite("threshold")
def threshold(self: Tensor, threshold: float, value: float) -> Tensor:
    """``x`` where ``x > threshold``, else ``value``, in ``self``'s dtype: as in PyTorch, an
    integer tensor compares with and takes the numbers truncated to its dtype (an overflow or
    nan is an error), and a bool tensor has no threshold."""
    if self.dtype is D.bool_:
        raise checks.not_implemented_for("threshold_cpu", self.dtype)
    if not self.dtype.is_floating_point:
        threshold, value = (math.trunc(checks.checked_convert(number, self.dtype, "threshold"))
                            for number in (threshold, value))
    # value where x <= threshold (not x where x > threshold): a nan threshold keeps every x
    return R.where_self(R.le(self, threshold), value, self)


def _check_shrink(self: Tensor, lambd: float, kernel: str) -> None:
    """PyTorch's shrink kernels take floating inputs and a non-negative ``lambd``."""
    if not self.dtype.is_floating_point:
        raise DTypeError(f'"{kernel}" not implemented for \'{self.dtype.name}\'')
    if lambd < 0:
        raise InvalidArgumentError(f"lambda must be greater or equal to 0, but found to be "
                                   f"{lambd}.")


@composite("softshrink")
def softshrink(self: Tensor, lambd: float = 0.5) -> Tensor:
    """``x - lambd`` above ``lambd``, ``x + lambd`` below ``-lambd``, 0 between."""
    _check_shrink(self, lambd, "softshrink_cpu")
    # PyTorch's softshrink also wants lambd representable in the input's dtype (nan is not)
    largest = D.finfo(self.dtype).max
    if not 0 <= lambd <= largest:
        raise InvalidArgumentError(f"lambda must be in range [0, {largest:g}] for input dtype "
                                   f"{checks.scalar_type_name(self.dtype)}, but found "
                                   f"{lambd:g}")
    return self - R.clamp(self, -lambd, lambd)


@composite("hardshrink")
def hardshrink(self: Tensor, lambd: float = 0.5) -> Tensor:
    """``x`` outside ``[-lambd, lambd]``, 0 inside."""
    _check_shrink(self, 0.0, "hardshrink_cpu")
    inside = F.logical_and(R.ge(self, -lambd), R.le(self, lambd))
    return R.where_self(inside, 0, self)


# ---------------------------------------------------------------- shapes and small nn helpers


@composite("channel_shuffle")
def channel_shuffle(self: Tensor, groups: int) -> Tensor:
    """``(N, g * k, *)`` -> the channels regrouped as ``(N, k * g, *)``."""
    if self.ndim < 3:
        raise ShapeError(f"channel_shuffle expects input to have at least 3 dimensions, but got "
                         f"input with sizes {list(self.shape)}")
    if groups <= 0:
        raise InvalidArgumentError(f"Number of groups to divide channels in must be positive. "
                                   f"Value of groups:{groups}")
    channels = self.shape[1]
    if channels % groups:
        raise InvalidArgumentError(f"Number of channels must be divisible by groups. Got "
                                   f"{channels} channels and {groups} groups.")
    size = _shape(self)
    x = R.reshape(self, (size[0], groups, channels // groups) + size[2:])
    return R.reshape(x.transpose(1, 2), size)


@composite("constant_pad_nd")
def constant_pad_nd(self: Tensor, pad: Sequence[int], value: float = 0) -> Tensor:
    """Pads (or crops, for negative amounts) the trailing dims with ``value``."""
    return R.pad(self, tuple(pad), "constant", float(value))


@composite("native_dropout_backward")
def native_dropout_backward(grad_output: Tensor, mask: Tensor, scale: float) -> Tensor:
    """The gradient of dropout: ``grad_output * mask * scale``."""
    return grad_output * mask * scale


@composite("max_pool2d_with_indices_backward")
def max_pool2d_with_indices_backward(grad_output: Tensor, self: Tensor,
                                     kernel_size: Sequence[int], stride: Sequence[int],
                                     padding: Sequence[int], dilation: Sequence[int],
                                     ceil_mode: bool, indices: Tensor) -> Tensor:
    """``grad_output`` routed back to the maxima ``indices`` recorded by max_pool2d."""
    if self.ndim == 3:
        return R.max_pool_backward(grad_output.unsqueeze(0), self.unsqueeze(0),
                                   indices.unsqueeze(0)).squeeze(0)
    return R.max_pool_backward(grad_output, self, indices)


# ---------------------------------------------------------------- 3-d pooling and convolution


def _check_pool3d_input(self: Tensor) -> None:
    """PyTorch's max_pool3d input check: only a batch dim may be empty."""
    if self.ndim in (4, 5) and 0 in _shape(self)[self.ndim - 4:]:
        raise ShapeError(f"max_pool3d: Expected input's non-batch dimensions to have positive "
                         f"length, but input has a shape of {list(self.shape)}")


@composite("max_pool3d")
def max_pool3d(self: Tensor, kernel_size: Sequence[int], stride: Sequence[int] = (),
               padding: Sequence[int] = (0, 0, 0), dilation: Sequence[int] = (1, 1, 1),
               ceil_mode: bool = False) -> Tensor:
    """3-d max pooling of (N, C, D, H, W) or (C, D, H, W) input."""
    _check_pool3d_input(self)
    return _max_pool(self, kernel_size, stride, padding, dilation, ceil_mode, 3, "max_pool3d")[0]


@composite("max_pool3d_with_indices")
def max_pool3d_with_indices(self: Tensor, kernel_size: Sequence[int], stride: Sequence[int] = (),
                            padding: Sequence[int] = (0, 0, 0),
                            dilation: Sequence[int] = (1, 1, 1),
                            ceil_mode: bool = False) -> tuple[Tensor, Tensor]:
    """3-d max pooling and the flat (per volume) index of each maximum."""
    _check_pool3d_input(self)
    return _max_pool(self, kernel_size, stride, padding, dilation, ceil_mode, 3,
                     "max_pool3d_with_indices")


@composite("avg_pool3d")
def avg_pool3d(self: Tensor, kernel_size: Sequence[int], stride: Sequence[int] = (),
               padding: Sequence[int] = (0, 0, 0), ceil_mode: bool = False,
               count_include_pad: bool = True, divisor_override: int | None = None) -> Tensor:
    """3-d average pooling of (N, C, D, H, W) or (C, D, H, W) input."""
    return _avg_pool(self, kernel_size, stride, padding, ceil_mode, count_include_pad,
                     divisor_override, 3, "avg_pool3d")


@composite("adaptive_avg_pool3d")
def adaptive_avg_pool3d(self: Tensor, output_size: Sequence[int | None]) -> Tensor:
    """Average pooling of (N, C, D, H, W) or (C, D, H, W) input to ``output_size``."""
    return _adaptive(self, output_size, 3, "adaptive_avg_pool3d", False)


@composite("adaptive_max_pool3d")
def adaptive_max_pool3d(self: Tensor, output_size: Sequence[int | None]) -> Tensor:
    """Max pooling of (N, C, D, H, W) or (C, D, H, W) input to ``output_size``."""
    return _adaptive(self, output_size, 3, "adaptive_max_pool3d", True)


@composite("conv_transpose3d")
def conv_transpose3d(input: Tensor, weight: Tensor, bias: Tensor | None = None,
                     stride: Sequence[int] = (1, 1, 1), padding: Sequence[int] = (0, 0, 0),
                     output_padding: Sequence[int] = (0, 0, 0), groups: int = 1,
                     dilation: Sequence[int] = (1, 1, 1)) -> Tensor:
    """3-d transposed convolution of (N, C, D, H, W) or unbatched (C, D, H, W) input."""
    return _conv(input, weight, bias, stride, padding, dilation, True, output_padding, groups,
                 3, "conv_transpose3d")


# ---------------------------------------------------------------- im2col, col2im, max_unpool


def _block_positions(like: Tensor, padded: Sequence[int], kernel: Sequence[int],
                     dilation: Sequence[int], stride: Sequence[int],
                     blocks: Sequence[int]) -> Tensor:
    """The flat offsets into a padded (H, W) plane of every (kernel element, block) pair, in
    im2col's order ``(ki, kj, bi, bj)``: one index_select (or index_add) then moves them all."""
    def axis(size: int, step: int) -> Tensor:
        return fac.arange(0, size * step, step, dtype=D.int64, device=like.device)

    rows = axis(kernel[0], dilation[0]).reshape(-1, 1, 1, 1) + axis(blocks[0], stride[0]
                                                                    ).reshape(1, 1, -1, 1)
    cols = axis(kernel[1], dilation[1]).reshape(1, -1, 1, 1) + axis(blocks[1], stride[1]
                                                                    ).reshape(1, 1, 1, -1)
    return (rows * padded[1] + cols).reshape(-1)


def _check_im2col_args(kernel: Sequence[int], dilation: Sequence[int], padding: Sequence[int],
                       stride: Sequence[int], name: str) -> None:
    for label, values, low in (("kernel size", kernel, 1), ("dilation", dilation, 1),
                               ("padding", padding, 0), ("stride", stride, 1)):
        if len(values) != 2:
            raise ShapeError(f"{name}(): It is expected {label} equals to 2, but got size "
                             f"{len(values)}")
        if min(values) < low:
            what = "non-negative" if low == 0 else "greater than zero"
            raise InvalidArgumentError(f"{name}(): {label} should be {what}, but got "
                                       f"{label}: {values[0]} {values[1]}")


def _blocks(size: Sequence[int], kernel: Sequence[int], dilation: Sequence[int],
            padding: Sequence[int], stride: Sequence[int]) -> tuple[int, int]:
    return tuple((size[i] + 2 * padding[i] - dilation[i] * (kernel[i] - 1) - 1) // stride[i] + 1
                 for i in range(2))  # type: ignore[return-value]


@composite("im2col")
def im2col(self: Tensor, kernel_size: Sequence[int], dilation: Sequence[int],
           padding: Sequence[int], stride: Sequence[int]) -> Tensor:
    """Sliding local blocks of (N, C, H, W) or (C, H, W) input as columns:
    (N, C * kh * kw, L), L the number of block positions."""
    _check_im2col_args(kernel_size, dilation, padding, stride, "im2col")
    if self.ndim not in (3, 4) or 0 in _shape(self)[-3:]:
        raise ShapeError(f"Expected 3D or 4D (batch mode) tensor for input with possibly 0 batch "
                         f"size and non-zero dimensions for input, but got: {list(self.shape)}")
    x = self.unsqueeze(0) if self.ndim == 3 else self
    n, c, h, w = _shape(x)
    blocks = _blocks((h, w), kernel_size, dilation, padding, stride)
    if min(blocks) < 1:
        raise ShapeError(f"Given input with spatial size ({h}, {w}), kernel_size "
                         f"({kernel_size[0]}, {kernel_size[1]}), dilation ({dilation[0]}, "
                         f"{dilation[1]}), padding ({padding[0]}, {padding[1]}), calculated shape "
                         f"of the array of sliding blocks as ({blocks[0]}, {blocks[1]}), but its "
                         f"components must be at least one.")
    _check_floating(self, "im2col_out_cpu")
    padded = (h + 2 * padding[0], w + 2 * padding[1])
    x = R.pad(x, (padding[1], padding[1], padding[0], padding[0]), "constant", None)
    index = _block_positions(x, padded, kernel_size, dilation, stride, blocks)
    cols = F.index_select(R.reshape(x, (n, c, padded[0] * padded[1])), 2, index)
    out = R.reshape(cols, (n, c * kernel_size[0] * kernel_size[1], blocks[0] * blocks[1]))
    return out.squeeze(0) if self.ndim == 3 else out


def _check_floating(self: Tensor, kernel: str) -> None:
    """PyTorch's im2col/col2im kernels exist for floating types and bool only (checked after
    the shapes, as there)."""
    if not self.dtype.is_floating_point and self.dtype is not D.bool_:
        raise DTypeError(f'"{kernel}" not implemented for \'{self.dtype.name}\'')


@composite("col2im")
def col2im(self: Tensor, output_size: Sequence[int], kernel_size: Sequence[int],
           dilation: Sequence[int], padding: Sequence[int], stride: Sequence[int]) -> Tensor:
    """im2col's adjoint: sums the columns (N, C * kh * kw, L) back into (N, C, H, W), overlapping
    blocks adding up."""
    _check_im2col_args(kernel_size, dilation, padding, stride, "col2im")
    if len(output_size) != 2:
        raise ShapeError(f"col2im(): It is expected output_size equals to 2, but got size "
                         f"{len(output_size)}")
    if self.ndim not in (2, 3):
        raise ShapeError(f"Expected 2D or 3D (batch mode) tensor for input with possibly 0 batch "
                         f"size and non-zero dimensions for input, but got: {list(self.shape)}")
    x = self.unsqueeze(0) if self.ndim == 2 else self
    n, rows, length = _shape(x)
    per_block = kernel_size[0] * kernel_size[1]
    if rows % per_block:
        raise ShapeError(f"Expected size of input's dimension 1 to be divisible by the product "
                         f"of kernel_size, but got input.size(1)={rows} and "
                         f"kernel_size=({kernel_size[0]}, {kernel_size[1]})")
    blocks = _blocks(output_size, kernel_size, dilation, padding, stride)
    if blocks[0] * blocks[1] != length:
        raise ShapeError(f"Given output_size=({output_size[0]}, {output_size[1]}), "
                         f"kernel_size=({kernel_size[0]}, {kernel_size[1]}), "
                         f"dilation=({dilation[0]}, {dilation[1]}), padding=({padding[0]}, "
                         f"{padding[1]}), stride=({stride[0]}, {stride[1]}), expected size of "
                         f"input's dimension 2 to match the calculated number of sliding blocks "
                         f"{blocks[0]} * {blocks[1]} = {blocks[0] * blocks[1]}, but got "
                         f"input.size(2)={length}.")
    _check_floating(self, "col2im_out_cpu")
    c = rows // per_block
    padded = (output_size[0] + 2 * padding[0], output_size[1] + 2 * padding[1])
    index = _block_positions(x, padded, kernel_size, dilation, stride, blocks)
    plane = fac.zeros((n, c, padded[0] * padded[1]), dtype=x.dtype, device=x.device)
    plane = F.index_add(plane, 2, index, R.reshape(x, (n, c, per_block * length)))
    out = R.reshape(plane, (n, c) + padded)
    out = R.pad(out, (-padding[1], -padding[1], -padding[0], -padding[0]), "constant", None)
    return out.squeeze(0) if self.ndim == 2 else out


@composite("max_unpool")
def max_unpool(self: Tensor, indices: Tensor, output_size: Sequence[int]) -> Tensor:
    """max_pool's partial inverse: each value of (N, C, *) or (C, *) input written at its flat
    (per plane) ``indices`` of an otherwise zero output of spatial size ``output_size``."""
    spatial = len(output_size)
    if indices.dtype is not D.int64:
        raise DTypeError(f"elements in indices should be type int64 but got: "
                         f"{indices.dtype.name}")
    if _shape(indices) != _shape(self):
        raise ShapeError(f"Expected shape of indices to be same as that of the input tensor "
                         f"({list(self.shape)}) but got indices tensor with shape: "
                         f"{list(indices.shape)}")
    if self.ndim not in (spatial + 1, spatial + 2):
        raise ShapeError(f"Input to max_unpooling{spatial}d should be a {spatial + 1}d or "
                         f"{spatial + 2}d Tensor, but got a tensor with {self.ndim} dimensions.")
    batched = self.ndim == spatial + 2
    x = self if batched else self.unsqueeze(0)
    idx = indices if batched else indices.unsqueeze(0)
    plane = math.prod(output_size)
    flat_x = R.reshape(x, _shape(x)[:2] + (-1,))
    flat_idx = R.reshape(idx, _shape(idx)[:2] + (-1,))
    if flat_idx.numel() and flat_idx._storage.backend.host_memory:
        bad = F.logical_or(R.lt(flat_idx, 0), R.ge(flat_idx, plane))
        if bad.any().item():
            value = F.masked_select(flat_idx, bad).reshape(-1)[0].item()
            raise IndexOutOfRangeError(f"Found an invalid max index: {value} (output volumes "
                                       f"are of size {'x'.join(map(str, output_size))}")
    out = fac.zeros(_shape(x)[:2] + (plane,), dtype=x.dtype, device=x.device)
    out = out.scatter(2, flat_idx, flat_x)
    out = R.reshape(out, _shape(x)[:2] + tuple(output_size))
    return out if batched else out.squeeze(0)


# ---------------------------------------------------------------- dropout variants


def _noise_dropout(input: Tensor, p: float, train: bool, feature: bool, alpha: bool) -> Tensor:
    """PyTorch's ``_dropout_impl``: Bernoulli(1 - p) noise per element or, ``feature``, per
    channel; plain dropout rescales the kept values by 1/(1-p), alpha dropout keeps SELU's mean
    and variance by an affine map of the dropped ones."""
    if not 0 <= p <= 1:
        raise InvalidArgumentError(f"dropout probability has to be between 0 and 1, but got {p}")
    if p == 0 or not train or input.numel() == 0:
        return input
    if p == 1:
        return input * fac.zeros((), dtype=input.dtype, device=input.device)
    if feature:
        if input.ndim < 2:
            raise ShapeError("Feature dropout requires at least 2 dimensions in the input")
        noise_shape = _shape(input)[:2] + (1,) * (input.ndim - 2)
    else:
        noise_shape = _shape(input)
    keep = F.ge(fac.rand(noise_shape, dtype=input.dtype, device=input.device), p).to(input.dtype)
    if not alpha:
        return input * (keep / (1 - p))
    selu_alpha = 1.7580993408473766  # SELU's -alpha * scale: the value a dropped unit takes
    a = 1.0 / math.sqrt((selu_alpha * selu_alpha * p + 1) * (1 - p))
    b = (keep - 1) * (selu_alpha * a) + selu_alpha * a * p
    return input * (keep * a) + b


@composite("feature_dropout")
def feature_dropout(input: Tensor, p: float, train: bool) -> Tensor:
    """Zero whole channels (dim 1) with probability ``p``, scaling the rest by 1/(1-p)."""
    return _noise_dropout(input, p, train, True, False)


@composite("alpha_dropout")
def alpha_dropout(input: Tensor, p: float = 0.5, train: bool = False) -> Tensor:
    """Dropout that keeps a SELU network's self-normalisation (zero mean, unit variance)."""
    return _noise_dropout(input, p, train, False, True)


@composite("feature_alpha_dropout")
def feature_alpha_dropout(input: Tensor, p: float = 0.5, train: bool = False) -> Tensor:
    """Alpha dropout of whole channels."""
    return _noise_dropout(input, p, train, True, True)


# ---------------------------------------------------------------- normalisation


@composite("local_response_norm")
def local_response_norm(input: Tensor, size: int, alpha: float = 1e-4, beta: float = 0.75,
                        k: float = 1.0) -> Tensor:
    """``x / (k + alpha * mean of x**2 over size neighbouring channels) ** beta``."""
    if input.ndim < 3:
        raise ShapeError(f"Expected 3D or higher dimensionality input (got {input.ndim} "
                         f"dimensions)")
    if input.numel() == 0:
        return input
    check_local_response_norm_dtype(input)
    sizes = _shape(input)
    squares = R.reshape(input * input, (sizes[0], 1, sizes[1], sizes[2], -1))
    # average over a channel window centred on each channel, zero beyond the ends
    squares = R.pad(squares, (0, 0, 0, 0, size // 2, (size - 1) // 2), "constant", None)
    div = R.avg_pool(squares, (size, 1, 1), (1, 1, 1), (0, 0, 0), False, True, None)
    div = R.reshape(div, sizes)
    return input / F.pow(div * alpha + k, beta)


# ---------------------------------------------------------------- losses


def _check_loss_reduction(reduction: str) -> None:
    _check_reduction(reduction, _REDUCTIONS)


@composite("soft_margin_loss")
def soft_margin_loss(self: Tensor, target: Tensor, reduction: str = "mean") -> Tensor:
    """``log(1 + exp(-target * input))``, target in {-1, 1}."""
    _check_loss_reduction(reduction)
    checks.soft_margin_loss_dtype(self, target)
    # PyTorch writes each element into input's dtype before reducing
    return _reduce(F.log1p(F.exp(-self * target)).to(self.dtype), reduction)


@composite("margin_ranking_loss")
def margin_ranking_loss(input1: Tensor, input2: Tensor, target: Tensor, margin: float = 0.0,
                        reduction: str = "mean") -> Tensor:
    """``max(0, -target * (input1 - input2) + margin)``."""
    _check_loss_reduction(reduction)
    # the op broadcasts (PyTorch's torch.margin_ranking_loss); nn.functional checks the ranks
    return _reduce(R.clamp(-target * (input1 - input2) + margin, 0, None), reduction)


@composite("hinge_embedding_loss")
def hinge_embedding_loss(self: Tensor, target: Tensor, margin: float = 1.0,
                         reduction: str = "mean") -> Tensor:
    """``x`` where target is 1, ``max(0, margin - x)`` where it is -1."""
    _check_loss_reduction(reduction)
    margin = checks.hinge_margin(self, margin)
    margin_part = R.where_self(R.ne(target, 1), R.clamp(margin - self, 0, None), 0)
    self_part = R.where_self(R.ne(target, -1), self, 0)
    return _reduce(margin_part + self_part, reduction)


@composite("cosine_embedding_loss")
def cosine_embedding_loss(input1: Tensor, input2: Tensor, target: Tensor, margin: float = 0.0,
                          reduction: str = "mean") -> Tensor:
    """``1 - cos(x1, x2)`` where target is 1, ``max(0, cos(x1, x2) - margin)`` where -1."""
    _check_loss_reduction(reduction)
    dim = target.ndim
    if dim > 1:
        raise ShapeError("0D or 1D target tensor expected, multi-target not supported")
    if input1.ndim != dim + 1 or input2.ndim != dim + 1:
        raise ShapeError(f"{dim}D target tensor expects {dim + 1}D input tensors, but found "
                         f"inputs with sizes {list(input1.shape)} and {list(input2.shape)}.")
    eps = 1e-12  # keeps the cosine finite for zero vectors, as PyTorch's EPSILON
    dot = (input1 * input2).sum(dim)
    squares1 = (input1 * input1).sum(dim) + eps
    squares2 = (input2 * input2).sum(dim) + eps
    cos = dot / F.sqrt(squares1 * squares2)
    pos = R.where_self(R.eq(target, 1), 1 - cos, 0)
    neg = R.where_self(R.eq(target, -1), R.clamp(cos - margin, 0, None), 0)
    return _reduce(pos + neg, reduction)


@composite("poisson_nll_loss")
def poisson_nll_loss(input: Tensor, target: Tensor, log_input: bool = True, full: bool = False,
                     eps: float = 1e-8, reduction: str = "mean") -> Tensor:
    """Poisson negative log likelihood of ``target`` with rate ``exp(input)`` (``log_input``) or
    ``input``; ``full`` adds Stirling's approximation of ``log(target!)`` for targets above 1."""
    _check_loss_reduction(reduction)
    if log_input:
        loss = F.exp(input) - target * input
    else:
        loss = input - target * F.log(input + eps)
    if full:
        stirling = target * F.log(target) - target + 0.5 * F.log(2 * math.pi * target)
        loss = loss + F.masked_fill(stirling, R.le(target, 1), 0)
    return _reduce(loss, reduction)


@composite("gaussian_nll_loss")
def gaussian_nll_loss(input: Tensor, target: Tensor, var: Tensor, full: bool = False,
                      eps: float = 1e-6, reduction: str = "mean") -> Tensor:
    """Gaussian negative log likelihood of ``target`` with mean ``input`` and variance ``var``
    (same shape as ``input``, or one dimension of it 1 or missing at the end)."""
    if F.any(R.lt(var, 0)).item():
        raise InvalidArgumentError("var has negative entry/entries")
    if _shape(var) != _shape(input):
        if _shape(input)[:-1] == _shape(var):
            var = var.unsqueeze(-1)
        elif not (input.ndim == var.ndim and sum(
                v for i, v in zip(_shape(input), _shape(var)) if i != v) == 1):
            raise InvalidArgumentError("var is of incorrect size")
    if reduction not in _REDUCTIONS:
        raise InvalidArgumentError(f"{reduction} is not valid")
    checks.check_gaussian_var_clamp(var, eps)
    # clamped for stability without changing the gradient (PyTorch clamps under no_grad)
    var = var + (R.clamp(var, eps, None) - var).detach()
    loss = 0.5 * (F.log(var) + (input - target) ** 2 / var)
    if full:
        loss = loss + 0.5 * math.log(2 * math.pi)
    return _reduce(loss, reduction)


@composite("triplet_margin_loss")
def triplet_margin_loss(anchor: Tensor, positive: Tensor, negative: Tensor, margin: float = 1.0,
                        p: float = 2, eps: float = 1e-6, swap: bool = False,
                        reduction: str = "mean") -> Tensor:
    """``max(0, margin + d(anchor, positive) - d(anchor, negative))``, d the p-norm distance;
    ``swap`` uses the smaller of d(anchor, negative) and d(positive, negative)."""
    _check_loss_reduction(reduction)
    _check_triplet_dims(anchor, positive, negative)
    dist_pos = R.pairwise_distance(anchor, positive, p, eps, False)
    dist_neg = R.pairwise_distance(anchor, negative, p, eps, False)
    if swap:
        dist_neg = F.minimum(dist_neg, R.pairwise_distance(positive, negative, p, eps, False))
    return _reduce(R.clamp(margin + dist_pos - dist_neg, 0, None), reduction)


def _check_triplet_dims(anchor: Tensor, positive: Tensor, negative: Tensor) -> None:
    if not anchor.ndim == positive.ndim == negative.ndim:
        raise ShapeError(f"The anchor, positive, and negative tensors are expected to have the "
                         f"same number of dimensions, but got: anchor {anchor.ndim}D, positive "
                         f"{positive.ndim}D, and negative {negative.ndim}D inputs")


def _margin_input_checks(self: Tensor, target: Tensor, name: str) -> tuple[int, int]:
    """(rows, classes) of a multi-class margin loss's 0-d, 1-d or 2-d input."""
    ok = (self.ndim == 2 and self.shape[1] != 0) or (self.ndim == 1 and self.shape[0] != 0) \
        or self.ndim == 0
    if not ok:
        raise ShapeError(f"Expected non-empty vector or matrix with optional 0-dim batch size, "
                         f"but got: {list(self.shape)}")
    if target.dtype is not D.int64:
        raise DTypeError(f"{name}: expected target dtype to be Long, but got "
                         f"{target.dtype.name}")
    checks.check_float_or_double(_MARGIN_KERNELS[name], self)
    rows = self.shape[0] if self.ndim == 2 else 1
    classes = self.shape[-1] if self.ndim else 1
    return rows, classes


# the CPU kernels PyTorch's dtype errors name
_MARGIN_KERNELS = {"multi_margin_loss": "multi_margin_loss_cpu_kernel",
                   "multilabel_margin_loss": "multilabel_margin_loss_forward_out_frame"}


def _check_target_range(target: Tensor, classes: int, allow_negative: bool) -> None:
    if not target.numel() or not target._storage.backend.host_memory:
        return
    low = R.lt(target, -1 if allow_negative else 0)
    if F.logical_or(low, R.ge(target, classes)).any().item():
        raise IndexOutOfRangeError("target out of range")


@composite("multi_margin_loss")
def multi_margin_loss(self: Tensor, target: Tensor, p: int = 1, margin: float = 1,
                      weight: Tensor | None = None, reduction: str = "mean") -> Tensor:
    """Multi-class hinge loss: per row, the mean over classes i != y of
    ``weight[y] * max(0, margin - x[y] + x[i]) ** p`` (p in {1, 2})."""
    _check_loss_reduction(reduction)
    if p not in (1, 2):
        raise InvalidArgumentError("only p == 1 and p == 2 supported")
    rows, classes = _margin_input_checks(self, target, "multi_margin_loss")
    if target.ndim > 1 or target.numel() != rows:
        raise ShapeError(f"inconsistent target size, expected {rows} but got "
                         f"{list(target.shape)}")
    if weight is not None and (weight.ndim > 1 or weight.numel() != classes):
        raise ShapeError(f"inconsistent weight size, expected {classes} but got "
                         f"{list(weight.shape)}")
    _check_target_range(target, classes, False)
    x = R.reshape(self, (rows, classes))
    y = R.reshape(target, (rows, 1))
    z = F.relu(margin - R.gather(x, 1, y, False) + x)
    if p == 2:
        z = z * z
    if weight is not None:
        z = z * F.index_select(R.reshape(weight, (classes,)), 0, R.reshape(y, (rows,))
                               ).unsqueeze(1)
    others = F.logical_not(F.one_hot(R.reshape(y, (rows,)), classes).to(D.bool_))
    loss = R.where_self(others, z, 0).sum(1) / classes
    loss = loss if self.ndim == 2 else R.reshape(loss, ())
    return _reduce(loss, reduction)


@composite("multilabel_margin_loss")
def multilabel_margin_loss(self: Tensor, target: Tensor, reduction: str = "mean") -> Tensor:
    """Multi-label hinge loss: ``target`` lists each row's classes, ended by the first -1; per
    row, the sum over its classes j and the other classes i of ``max(0, 1 - (x[j] - x[i]))``
    divided by the number of classes."""
    _check_loss_reduction(reduction)
    rows, classes = _margin_input_checks(self, target, "multilabel_margin_loss")
    if self.ndim <= 1 and (target.ndim > 1 or target.numel() != classes):
        raise ShapeError(f"inconsistent target size: {list(target.shape)} for input of size: "
                         f"{list(self.shape)}")
    if self.ndim == 2 and _shape(target) != (rows, classes):
        raise ShapeError(f"inconsistent target size: {list(target.shape)} for input of size: "
                         f"{list(self.shape)}")
    _check_target_range(target, classes, True)
    x = R.reshape(self, (rows, classes))
    t = R.reshape(target, (rows, classes))
    # a row's targets are the entries before its first -1
    listed = F.cumprod(R.ge(t, 0).to(D.int64), 1).to(D.bool_)
    safe = R.where_self(listed, t, 0)
    hits = F.one_hot(safe, classes) * listed.unsqueeze(2).to(D.int64)  # (rows, j, i)
    is_target = R.gt(hits.sum(1), 0)  # (rows, i)
    picked = R.gather(x, 1, safe, False)  # x[j] per listed slot
    z = F.relu(1 - picked.unsqueeze(2) + x.unsqueeze(1))
    pairs = F.logical_and(listed.unsqueeze(2), F.logical_not(is_target).unsqueeze(1))
    loss = R.where_self(pairs, z, 0).sum((1, 2)) / classes
    loss = loss if self.ndim == 2 else R.reshape(loss, ())
    return _reduce(loss, reduction)


@composite("multilabel_soft_margin_loss")
def multilabel_soft_margin_loss(self: Tensor, target: Tensor, weight: Tensor | None = None,
                                reduction: str = "mean") -> Tensor:
    """Per-class logistic loss of 0/1 targets, averaged over the classes (the last dim)."""
    if reduction not in _REDUCTIONS:
        raise InvalidArgumentError(f"{reduction} is not valid")
    loss = -(target * F.logsigmoid(self) + (1 - target) * F.logsigmoid(-self))
    if weight is not None:
        loss = loss * weight
    class_dim = self.ndim - 1
    loss = loss.sum(class_dim) / self.shape[class_dim]
    return _reduce(loss, reduction)



# ---------------------------------------------------------------- fractional max pooling


def _fractional_starts(samples: Tensor, in_size: int, out_size: int, pool: int) -> Tensor:
    """(N, C, out_size) window starts along one dim, from one uniform sample per plane, by
    PyTorch's rule: ``int((i + u) * alpha) - int(u * alpha)`` with
    ``alpha = (in - pool) / (out - 1)``, computed in the samples' dtype; the last window ends at
    the input's end."""
    last = fac.full(_shape(samples)[:2] + (1,), in_size - pool, dtype=D.int64,
                    device=samples.device)
    if out_size == 1:
        return last
    alpha = (in_size - pool) / (out_size - 1)
    steps = fac.arange(0, out_size - 1, dtype=samples.dtype, device=samples.device)
    u = samples.unsqueeze(-1)
    starts = ((steps + u) * alpha).to(D.int64) - (u * alpha).to(D.int64)
    return F.cat([starts, last], -1)


def _fractional_max_pool(self: Tensor, kernel_size: Sequence[int], output_size: Sequence[int],
                         random_samples: Tensor, spatial: int) -> tuple[Tensor, Tensor]:
    name = f"fractional_max_pool{spatial}d"
    for label, values in (("kernel_size", kernel_size), ("output_size", output_size)):
        if len(values) != spatial or min(values) < 1:
            raise InvalidArgumentError(f"{name}(): {label} must be {spatial} positive sizes, "
                                       f"but got {list(values)}")
    x, unbatched = _batched_pool_input(self, spatial, name)
    n, c = _shape(x)[:2]
    sizes = _shape(x)[2:]
    if _shape(random_samples) != (n, c, spatial):
        raise ShapeError(f"{name}(): expected _random_samples of shape {[n, c, spatial]}, but got "
                         f"{list(random_samples.shape)}")
    labels = ("height", "width") if spatial == 2 else ("time", "height", "width")
    for i in range(spatial):
        if output_size[i] + kernel_size[i] - 1 > sizes[i]:
            raise InvalidArgumentError(f"{name}_out(): pool {labels[i]} {kernel_size[i]} too "
                                       f"large relative to input {labels[i]} {sizes[i]}")
    # PyTorch's sample columns: (width, height) for 2-d pooling, (time, height, width) for 3-d
    columns = (1, 0) if spatial == 2 else (0, 1, 2)
    flat = fac.zeros((n, c) + (1,) * (2 * spatial), dtype=D.int64, device=x.device)
    for i in range(spatial):
        starts = _fractional_starts(random_samples.select(2, columns[i]), sizes[i],
                                    output_size[i], kernel_size[i])
        taps = fac.arange(0, kernel_size[i], dtype=D.int64, device=x.device)
        pos = starts.unsqueeze(-1) + taps  # (N, C, out_i, k_i)
        # place out_i at dim 2 + i and k_i at dim 2 + spatial + i of the (N, C, *out, *k) grid
        shape = [n, c] + [1] * (2 * spatial)
        shape[2 + i], shape[2 + spatial + i] = output_size[i], kernel_size[i]
        flat = flat * sizes[i] + R.reshape(pos, tuple(shape))
    windows = R.reshape(flat, (n, c, math.prod(output_size), math.prod(kernel_size)))
    planes = R.reshape(x, (n, c, -1))
    values = R.reshape(R.gather(planes, 2, R.reshape(windows, (n, c, -1)), False),
                       _shape(windows))
    best = F.argmax(values, 3, True)
    indices = R.gather(windows, 3, best, False).squeeze(3)
    out = R.reshape(R.gather(planes, 2, indices, False), (n, c) + tuple(output_size))
    indices = R.reshape(indices, (n, c) + tuple(output_size))
    if unbatched:
        return out.squeeze(0), indices.squeeze(0)
    return out, indices


def _batched_pool_input(self: Tensor, spatial: int, name: str) -> tuple[Tensor, bool]:
    if self.ndim not in (spatial + 1, spatial + 2) or 0 in _shape(self)[-spatial - 1:]:
        raise ShapeError(f"{name}(): Expected {spatial + 1}D or {spatial + 2}D tensor, but got: "
                         f"{list(self.shape)}")
    return (self.unsqueeze(0), True) if self.ndim == spatial + 1 else (self, False)


@composite("fractional_max_pool2d")
def fractional_max_pool2d(self: Tensor, kernel_size: Sequence[int], output_size: Sequence[int],
                          random_samples: Tensor) -> tuple[Tensor, Tensor]:
    """2-d max pooling over pseudo-random, overlapping windows placed by ``random_samples``
    (N, C, 2) in [0, 1); returns the maxima and their flat per-plane indices."""
    return _fractional_max_pool(self, kernel_size, output_size, random_samples, 2)


@composite("fractional_max_pool3d")
def fractional_max_pool3d(self: Tensor, kernel_size: Sequence[int], output_size: Sequence[int],
                          random_samples: Tensor) -> tuple[Tensor, Tensor]:
    """3-d fractional max pooling; ``random_samples`` is (N, C, 3)."""
    return _fractional_max_pool(self, kernel_size, output_size, random_samples, 3)


# ---------------------------------------------------------------- embedding bags


@composite("_embedding_bag_reduce")
def _embedding_bag_reduce(weight: Tensor, indices: Tensor, offsets: Tensor, mode: str,
                          per_sample_weights: Tensor | None, include_last_offset: bool,
                          padding_idx: int, scale_grad_by_freq: bool = False) -> Tensor:
    """Sums, means or maxima of the ``weight`` rows of each bag: 1-d ``indices`` split at the
    start positions ``offsets``; entries equal to ``padding_idx`` (when >= 0) take no part and
    an empty bag gives zeros. ``scale_grad_by_freq`` divides each row's gradient by how often
    the batch looks it up."""
    if scale_grad_by_freq and mode == "max":
        raise InvalidArgumentError("max mode does not support scaling the gradient by the "
                                   "frequency")
    count = indices.numel()
    bags = offsets.numel() - 1 if include_last_offset else offsets.numel()
    starts = offsets[:bags] if include_last_offset else offsets
    # each entry's bag: how many bag starts lie at or before it, less one
    marks = fac.zeros((count + 1,), dtype=D.int64, device=indices.device)
    marks = F.index_add(marks, 0, R.clamp(starts, 0, count), F.ones_like(starts))
    bag_of = R.reshape(F.cumsum(marks, 0)[:count] - 1, (count,))
    rows = R.embedding(weight, indices, -1, scale_grad_by_freq, False)
    valid = R.ne(indices, padding_idx) if padding_idx >= 0 else F.ones_like(indices).to(D.bool_)
    dim = weight.shape[1]
    if mode == "max":
        # a dense (bag, position in bag, dim) block, -inf where no entry is, then max per bag
        position = fac.arange(0, count, dtype=D.int64, device=indices.device) - \
            F.index_select(starts, 0, bag_of)
        longest = int(position.max().item()) + 1 if count else 1
        rows = R.where_self(valid.unsqueeze(1), rows, -math.inf)
        dense = fac.full((bags, longest, dim), -math.inf, dtype=weight.dtype,
                         device=weight.device)
        dense = F.index_put(dense, (bag_of, position), rows, False)
        best = dense.max(1)[0]
        return R.where_self(F.isinf(best), 0, best)
    scale = valid.to(weight.dtype)
    if per_sample_weights is not None:
        scale = scale * per_sample_weights
    total = F.index_add(fac.zeros((bags, dim), dtype=weight.dtype, device=weight.device), 0,
                        bag_of, rows * scale.unsqueeze(1))
    if mode == "sum":
        return total
    sizes = F.index_add(fac.zeros((bags,), dtype=weight.dtype, device=weight.device), 0, bag_of,
                        valid.to(weight.dtype))
    return total / R.clamp(sizes, 1, None).unsqueeze(1)


# ---------------------------------------------------------------- grid sampling

_CUBIC_A = -0.75  # the cubic convolution constant of PyTorch's bicubic modes


def _unnormalize(coord: Tensor, size: int, align_corners: bool, spatial: int) -> Tensor:
    """A grid coordinate in [-1, 1] -> a pixel position: the corner pixels' centres
    (``align_corners``) or their outer edges map to -1 and 1. Written in the operation order
    of PyTorch's CPU kernels (the 2-d one vectorised, the 3-d one not), so that float32 points
    near a pixel boundary fall on the same side."""
    if align_corners:
        return (coord + 1) * ((size - 1) / 2)
    if spatial == 2:
        return (coord + 1) * (size / 2) - 0.5
    return ((coord + 1) * size - 1) / 2


def _reflect(coord: Tensor, twice_low: int, twice_high: int) -> Tensor:
    """``coord`` reflected (repeatedly) into [twice_low / 2, twice_high / 2]."""
    if twice_low == twice_high:
        return coord * 0
    low = twice_low / 2
    span = (twice_high - twice_low) / 2
    distance = F.abs(coord - low)
    extra = F.fmod(distance, span)
    flips = F.floor(distance / span)
    even = R.eq(F.fmod(flips, 2), 0)
    return R.where_self(even, extra + low, span - extra + low)


def _pad_coordinate(coord: Tensor, size: int, padding_mode: int, align_corners: bool) -> Tensor:
    """PyTorch's compute_coordinates: border clips into the image, reflection mirrors at its
    border (pixel centres with ``align_corners``, edges otherwise) and then clips."""
    if padding_mode == 1:
        return R.clamp(coord, 0, size - 1)
    if padding_mode == 2:
        if align_corners:
            coord = _reflect(coord, 0, 2 * (size - 1))
        else:
            coord = _reflect(coord, -1, 2 * size - 1)
        return R.clamp(coord, 0, size - 1)
    return coord


def _cubic_weights(t: Tensor) -> list[Tensor]:
    """The four cubic-convolution weights of the taps at -1, 0, 1, 2 around fraction ``t``."""
    a = _CUBIC_A

    def near(x: Tensor) -> Tensor:  # |x| <= 1
        return ((a + 2) * x - (a + 3)) * x * x + 1

    def far(x: Tensor) -> Tensor:  # 1 < |x| < 2
        return ((a * x - 5 * a) * x + 8 * a) * x - 4 * a

    return [far(t + 1), near(t), near(1 - t), far(2 - t)]


def _gather_taps(planes: Tensor, positions: Sequence[Tensor], sizes: Sequence[int]) -> Tensor:
    """The (N, C, P) values of ``planes`` (N, C, prod(sizes)) at integer per-dim ``positions``
    (each (N, P)), zero where a position lies outside the input."""
    inside = None
    flat = None
    for pos, size in zip(positions, sizes):
        ok = F.logical_and(R.ge(pos, 0), R.lt(pos, size))
        inside = ok if inside is None else F.logical_and(inside, ok)
        clipped = R.clamp(pos, 0, size - 1)
        flat = clipped if flat is None else flat * size + clipped
    index = flat.unsqueeze(1).expand(planes.shape[0], planes.shape[1], flat.shape[1])
    values = R.gather(planes, 2, index, False)
    return R.where_self(inside.unsqueeze(1), values, 0)


@composite("grid_sampler")
def grid_sampler(input: Tensor, grid: Tensor, interpolation_mode: int, padding_mode: int,
                 align_corners: bool) -> Tensor:
    """Samples (N, C, H, W) or (N, C, D, H, W) ``input`` at the normalised (x, y[, z])
    positions of ``grid`` (N, *out, 2 or 3). interpolation_mode: 0 bilinear, 1 nearest,
    2 bicubic (4-d only); padding_mode: 0 zeros, 1 border, 2 reflection."""
    spatial = input.ndim - 2
    if spatial not in (2, 3) or grid.ndim != input.ndim:
        raise ShapeError(f"grid_sampler(): expected 4D or 5D input and grid with same number of "
                         f"dimensions, but got input with sizes {list(input.shape)} and grid "
                         f"with sizes {list(grid.shape)}")
    _check_grid_sampler_common(input, grid)
    check_grid_sampler_dtypes(input, grid)
    if interpolation_mode == 2 and spatial != 2:
        raise InvalidArgumentError("grid_sampler(): bicubic interpolation only supports 4D "
                                   "input")
    n, c = _shape(input)[:2]
    sizes = _shape(input)[2:]
    out_shape = _shape(grid)[1:-1]
    points = R.reshape(grid, (n, -1, spatial))
    planes = R.reshape(input, (n, c, -1))
    # grid's last dim lists x (width) first: spatial dim d reads column spatial - 1 - d
    coords = [_unnormalize(points.select(2, spatial - 1 - d), sizes[d], align_corners, spatial)
              for d in range(spatial)]
    if interpolation_mode == 2:
        out = _bicubic(planes, coords, sizes, padding_mode, align_corners)
    else:
        coords = [_pad_coordinate(x, sizes[d], padding_mode, align_corners)
                  for d, x in enumerate(coords)]
        if interpolation_mode == 1:
            out = _gather_taps(planes, [F.round(x).to(D.int64) for x in coords], sizes)
        else:
            out = _linear_taps(planes, coords, sizes)
    return R.reshape(out, (n, c) + out_shape)


def _check_grid_sampler_common(input: Tensor, grid: Tensor) -> None:
    """PyTorch's checks of every grid sampler, before the rank of either is checked."""
    if grid.ndim == 0 or input.ndim == 0 or grid.shape[0] != input.shape[0]:
        raise ShapeError(f"grid_sampler(): expected grid and input to have same batch size, but "
                         f"got input with sizes {list(input.shape)} and grid with sizes "
                         f"{list(grid.shape)}")
    if grid.shape[-1] != input.ndim - 2:
        raise ShapeError(f"grid_sampler(): expected grid to have size {input.ndim - 2} in last "
                         f"dimension, but got grid with sizes {list(grid.shape)}")
    for d in range(2, input.ndim):
        if input.shape[d] == 0:
            raise ShapeError(f"grid_sampler(): expected input to have non-empty spatial "
                             f"dimensions, but input has sizes {list(input.shape)} with "
                             f"dimension {d} being empty")


def _check_grid_sampler_rank(input: Tensor, grid: Tensor, rank: int) -> None:
    """torch.grid_sampler_2d/3d's checks: the common ones, then the rank of both tensors."""
    _check_grid_sampler_common(input, grid)
    if input.ndim != rank or grid.ndim != rank:
        raise ShapeError(f"grid_sampler(): expected {rank}D input and grid with same number of "
                         f"dimensions, but got input with sizes {list(input.shape)} and grid "
                         f"with sizes {list(grid.shape)}")


@composite("grid_sampler_2d")
def grid_sampler_2d(input: Tensor, grid: Tensor, interpolation_mode: int, padding_mode: int,
                    align_corners: bool) -> Tensor:
    """``grid_sampler`` restricted to 4-d input and grid, as torch.grid_sampler_2d."""
    _check_grid_sampler_rank(input, grid, 4)
    return R.grid_sampler(input, grid, interpolation_mode, padding_mode, align_corners)


@composite("grid_sampler_3d")
def grid_sampler_3d(input: Tensor, grid: Tensor, interpolation_mode: int, padding_mode: int,
                    align_corners: bool) -> Tensor:
    """``grid_sampler`` restricted to 5-d input and grid (no bicubic), as
    torch.grid_sampler_3d."""
    _check_grid_sampler_rank(input, grid, 5)
    return R.grid_sampler(input, grid, interpolation_mode, padding_mode, align_corners)


def _linear_taps(planes: Tensor, coords: Sequence[Tensor], sizes: Sequence[int]) -> Tensor:
    """(Bi/tri)linear interpolation: the 2**n corners around each point, weighted by their
    opposite fractions."""
    lows = [F.floor(x) for x in coords]
    fractions = [(x - low).unsqueeze(1) for x, low in zip(coords, lows)]
    lows = [low.to(D.int64) for low in lows]
    out = None
    for corner in range(2 ** len(coords)):
        bits = [(corner >> (len(coords) - 1 - d)) & 1 for d in range(len(coords))]
        weight = None
        for t, bit in zip(fractions, bits):
            w = t if bit else 1 - t
            weight = w if weight is None else weight * w
        value = _gather_taps(planes, [low + bit for low, bit in zip(lows, bits)], sizes)
        out = weight * value if out is None else out + weight * value
    return out


def _bicubic(planes: Tensor, coords: Sequence[Tensor], sizes: Sequence[int], padding_mode: int,
             align_corners: bool) -> Tensor:
    """Bicubic interpolation over the 4 x 4 taps around each point; padding applies to each
    tap's position (PyTorch's get_value_bounded)."""
    y, x = coords
    y0, x0 = F.floor(y), F.floor(x)
    wy = [w.unsqueeze(1) for w in _cubic_weights(y - y0)]
    wx = [w.unsqueeze(1) for w in _cubic_weights(x - x0)]
    rows = [_pad_coordinate(y0 + (i - 1), sizes[0], padding_mode, align_corners).to(D.int64)
            for i in range(4)]
    cols = [_pad_coordinate(x0 + (j - 1), sizes[1], padding_mode, align_corners).to(D.int64)
            for j in range(4)]
    out = None
    for i in range(4):  # interpolate along x in each of the 4 rows, then along y
        along_x = None
        for j in range(4):
            term = wx[j] * _gather_taps(planes, [rows[i], cols[j]], sizes)
            along_x = term if along_x is None else along_x + term
        out = wy[i] * along_x if out is None else out + wy[i] * along_x
    return out


# ---------------------------------------------------------------- CTC


def _log_add(*terms: Tensor) -> Tensor:
    """``log(sum(exp(terms)))`` elementwise, -inf where every term is -inf, with finite
    gradients there (zero) instead of NaN."""
    stacked = F.stack(list(terms), 0)
    top = stacked.amax(0).detach()
    top = R.where_self(F.isinf(top), 0, top)
    total = F.exp(stacked - top).sum(0)
    present = R.gt(total, 0)
    return R.where_self(present, F.log(R.where_self(present, total, 1)) + top, -math.inf)


@composite("ctc_loss")
def ctc_loss(log_probs: Tensor, targets: Tensor, input_lengths: Sequence[int],
             target_lengths: Sequence[int], blank: int = 0, reduction: str = "mean",
             zero_infinity: bool = False) -> Tensor:
    """Connectionist temporal classification loss: ``-log`` of the total probability of all
    alignments of each target to its input (``log_probs`` (T, N, C) or (T, C)), by the forward
    recursion over the targets interleaved with blanks."""
    _check_loss_reduction(reduction)
    batched = log_probs.ndim == 3
    lp = log_probs if batched else log_probs.unsqueeze(1)
    steps, batch, classes = _shape(lp)
    lengths_in = [int(v) for v in input_lengths]
    lengths_t = [int(v) for v in target_lengths]
    if len(lengths_in) != batch or len(lengths_t) != batch:
        raise ShapeError(f"input_lengths and target_lengths must have {batch} entries, but got "
                         f"{len(lengths_in)} and {len(lengths_t)}")
    if not 0 <= blank < classes:
        raise InvalidArgumentError("blank must be in label range")
    for n in range(batch):
        if lengths_in[n] > steps or lengths_in[n] < 0:
            raise InvalidArgumentError(f"Expected input_lengths to have value at most {steps}, "
                                       f"but got value {lengths_in[n]} (while checking "
                                       f"arguments for ctc_loss_cpu)")
    longest = max(lengths_t, default=0)
    width = 2 * longest + 1
    padded = _ctc_padded_targets(targets, lengths_t, longest, batched, lp.device)
    # the extended targets: blank, l1, blank, l2, ..., blank
    blanks = fac.full((batch, longest), blank, dtype=D.int64, device=lp.device)
    pairs = R.reshape(F.stack([blanks, padded], 2), (batch, 2 * longest))
    ext = F.cat([pairs, fac.full((batch, 1), blank, dtype=D.int64, device=lp.device)], 1)
    emit = R.gather(lp, 2, ext.unsqueeze(0).expand(steps, batch, width), False)  # (T, N, L)
    prev2 = F.cat([ext[:, :2], ext[:, :-2]], 1) if width > 2 else ext
    skip = F.logical_and(R.ne(ext, blank), R.ne(ext, prev2))
    position = fac.arange(0, width, dtype=D.int64, device=lp.device)
    skip = F.logical_and(skip, R.ge(position, 2).unsqueeze(0))
    alpha = R.where_self(R.lt(position, 2).unsqueeze(0), emit[0], -math.inf)
    alive = fac.tensor(lengths_in, dtype=D.int64, device=lp.device)
    for t in range(1, steps):
        left1 = R.pad(alpha, (1, -1), "constant", -math.inf)
        if width > 2:
            left2 = R.where_self(skip, R.pad(alpha, (2, -2), "constant", -math.inf), -math.inf)
        else:
            left2 = F.full_like(alpha, -math.inf)
        step = _log_add(alpha, left1, left2) + emit[t]
        alpha = R.where_self(R.gt(alive, t).unsqueeze(1), step, alpha)
    last = fac.tensor([2 * s for s in lengths_t], dtype=D.int64, device=lp.device).unsqueeze(1)
    end_blank = R.gather(alpha, 1, last, False).squeeze(1)
    end_label = R.gather(alpha, 1, R.clamp(last - 1, 0, None), False).squeeze(1)
    has_label = R.gt(last.squeeze(1), 0)
    loss = -_log_add(end_blank, R.where_self(has_label, end_label, -math.inf))
    # PyTorch's CTC gradient carries an extra exp(log_probs) term (the gradient through the
    # log_softmax that is meant to produce log_probs, which cancels there): a zero of that slope
    within = R.lt(fac.arange(0, steps, dtype=D.int64, device=lp.device).unsqueeze(1), alive)
    slope = F.exp(lp) - F.exp(lp).detach()
    loss = loss + R.where_self(within.unsqueeze(2), slope, 0).sum((0, 2))
    if zero_infinity:
        loss = R.where_self(F.isinf(loss), 0, loss)
    if reduction == "mean":
        divisor = R.clamp(fac.tensor(lengths_t, dtype=lp.dtype, device=lp.device), 1, None)
        return (loss / divisor).mean()
    if reduction == "sum":
        return loss.sum()
    return loss if batched else loss.squeeze(0)


def _ctc_padded_targets(targets: Tensor, lengths: Sequence[int], longest: int, batched: bool,
                        device: str) -> Tensor:
    """(N, longest) int64 targets from a padded (N, S) tensor or their 1-d concatenation."""
    if targets.ndim == 2 or (targets.ndim == 1 and not batched):
        rows = targets if targets.ndim == 2 else targets.unsqueeze(0)
        return rows[:, :longest].to(D.int64)
    rows = []
    start = 0
    for length in lengths:
        row = targets[start:start + length].to(D.int64)
        start += length
        if length < longest:
            row = R.pad(row, (0, longest - length), "constant", 0)
        rows.append(row)
    return F.stack(rows, 0) if rows else fac.zeros((0, longest), dtype=D.int64, device=device)
