"""Convolutions: ``Conv1d/2d/3d``, ``ConvTranspose1d/2d/3d`` and their lazy forms (``in_channels``
inferred from the first input)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import volta
import volta.nn.functional as F
from volta.nn.modules.lazy import LazyModuleMixin
from volta.nn.modules.linear import register_weight_and_bias, reset_kaiming_uniform_
from volta.nn.modules.module import Module
from volta.nn.parameter import UninitializedParameter

_PADDING_MODES = ("zeros", "reflect", "replicate", "circular")


def _ntuple(value: Any, n: int) -> tuple:
    return tuple(value) if isinstance(value, (tuple, list)) else (value,) * n


class _ConvNd(Module):
    """Shared state of the convolutions: weights, PyTorch's default init and repr."""

    def __init__(self, in_channels: int, out_channels: int, kernel_size: Any, stride: Any,
                 padding: Any, dilation: Any, transposed: bool, output_padding: Any,
                 groups: int, bias: bool, padding_mode: str, n: int, device: Any,
                 dtype: Any) -> None:
        super().__init__()
        if groups <= 0:
            raise volta.InvalidArgumentError("groups must be a positive integer")
        if in_channels % groups:
            raise volta.InvalidArgumentError("in_channels must be divisible by groups")
        if out_channels % groups:
            raise volta.InvalidArgumentError("out_channels must be divisible by groups")
        if padding_mode not in _PADDING_MODES:
            raise volta.InvalidArgumentError(
                f"padding_mode must be one of {set(_PADDING_MODES)}, but got "
                f"padding_mode='{padding_mode}'")
        if isinstance(padding, str):
            if padding not in ("valid", "same"):
                raise volta.InvalidArgumentError(
                    f"Invalid padding string {padding!r}, should be one of {{'valid', 'same'}}")
            if padding == "same" and any(s != 1 for s in _ntuple(stride, n)):
                raise volta.InvalidArgumentError(
                    "padding='same' is not supported for strided convolutions")
        self.in_channels = in_channels
        self.out_channels = out_channels
        self.kernel_size = _ntuple(kernel_size, n)
        self.stride = _ntuple(stride, n)
        self.padding = padding if isinstance(padding, str) else _ntuple(padding, n)
        self.dilation = _ntuple(dilation, n)
        self.transposed = transposed
        self.output_padding = _ntuple(output_padding, n)
        self.groups = groups
        self.padding_mode = padding_mode
        self._reversed_padding_repeated_twice = self._padding_for_pad(n)
        shape = ((in_channels, out_channels // groups) if transposed
                 else (out_channels, in_channels // groups)) + self.kernel_size
        register_weight_and_bias(self, shape, out_channels if bias else None, device, dtype)
        self.reset_parameters()

    def _padding_for_pad(self, n: int) -> list[int]:
        """``padding`` as ``F.pad`` lists it (last dimension first, both sides), for the padding
        modes other than zeros; ``"same"`` puts the odd element on the right, as PyTorch."""
        if self.padding == "valid":
            return [0, 0] * n
        pads: list[int] = []
        for i in range(n):
            if self.padding == "same":
                total = self.dilation[i] * (self.kernel_size[i] - 1)
                left = total // 2
                pads = [left, total - left] + pads
            else:
                pads = [self.padding[i], self.padding[i]] + pads
        return pads

    def reset_parameters(self) -> None:
        """PyTorch's default: kaiming_uniform_(a=sqrt(5)) weights, U(+-1/sqrt(fan_in)) bias."""
        reset_kaiming_uniform_(self.weight, self.bias)

    def extra_repr(self) -> str:
        n = len(self.kernel_size)
        text = "{in_channels}, {out_channels}, kernel_size={kernel_size}, stride={stride}"
        if self.padding != (0,) * n:
            text += ", padding={padding}"
        if self.dilation != (1,) * n:
            text += ", dilation={dilation}"
        if self.output_padding != (0,) * n:
            text += ", output_padding={output_padding}"
        if self.groups != 1:
            text += ", groups={groups}"
        if self.bias is None:
            text += ", bias=False"
        if self.padding_mode != "zeros":
            text += ", padding_mode={padding_mode}"
        return text.format(**self.__dict__)


class _Conv(_ConvNd):
    """A convolution over ``n`` spatial dimensions; ``_conv`` is its functional form."""

    _n: int
    _conv: Callable[..., volta.Tensor]

    def __init__(self, in_channels: int, out_channels: int, kernel_size: Any, stride: Any = 1,
                 padding: Any = 0, dilation: Any = 1, groups: int = 1, bias: bool = True,
                 padding_mode: str = "zeros", device: Any = None, dtype: Any = None) -> None:
        super().__init__(in_channels, out_channels, kernel_size, stride, padding, dilation,
                         False, 0, groups, bias, padding_mode, self._n, device, dtype)

    def _conv_forward(self, input: volta.Tensor, weight: volta.Tensor,
                      bias: volta.Tensor | None) -> volta.Tensor:
        conv = type(self)._conv
        if self.padding_mode != "zeros":
            # PyTorch pads in that mode first, then convolves without padding
            padded = F.pad(input, self._reversed_padding_repeated_twice, mode=self.padding_mode)
            return conv(padded, weight, bias, self.stride, 0, self.dilation, self.groups)
        return conv(input, weight, bias, self.stride, self.padding, self.dilation, self.groups)

    def forward(self, input: volta.Tensor) -> volta.Tensor:
        return self._conv_forward(input, self.weight, self.bias)


class Conv1d(_Conv):
    """1-D convolution over ``(N, C_in, L)`` -> ``(N, C_out, L_out)``.

    Args:
        in_channels, out_channels: channel counts.
        kernel_size, stride, padding (int or ``"same"``/``"valid"``), dilation: as PyTorch.
        groups: blocked connections from input to output channels.
        bias: whether to add a learnable bias. Default: ``True``.
        padding_mode: ``"zeros"`` (default), ``"reflect"``, ``"replicate"`` or ``"circular"``.
    """

    _n = 1
    _conv = F.conv1d


class Conv2d(_Conv):
    """2-D convolution over ``(N, C_in, H, W)`` -> ``(N, C_out, H_out, W_out)``; arguments as
    :class:`Conv1d` (``kernel_size``, ``stride``, ``padding``, ``dilation`` may be pairs)."""

    _n = 2
    _conv = F.conv2d


class Conv3d(_Conv):
    """3-D convolution over ``(N, C_in, D, H, W)`` -> ``(N, C_out, D_out, H_out, W_out)``;
    arguments as :class:`Conv1d` (sizes may be triples)."""

    _n = 3
    _conv = F.conv3d


class _ConvTransposeNd(_ConvNd):
    """A transposed convolution over ``n`` spatial dimensions (the gradient of the convolution
    with respect to its input); ``weight`` is ``(C_in, C_out / groups, *kernel_size)``.

    Output size per dimension: ``(L - 1) * stride - 2 * padding + dilation * (kernel_size - 1)
    + output_padding + 1``; ``forward(input, output_size)`` picks the ``output_padding`` that
    reaches ``output_size``.
    """

    _n: int
    _conv_transpose: Callable[..., volta.Tensor]

    def __init__(self, in_channels: int, out_channels: int, kernel_size: Any, stride: Any = 1,
                 padding: Any = 0, output_padding: Any = 0, groups: int = 1, bias: bool = True,
                 dilation: Any = 1, padding_mode: str = "zeros", device: Any = None,
                 dtype: Any = None) -> None:
        if padding_mode != "zeros":
            raise volta.InvalidArgumentError(
                f'Only "zeros" padding mode is supported for {type(self).__name__}')
        super().__init__(in_channels, out_channels, kernel_size, stride, padding, dilation,
                         True, output_padding, groups, bias, padding_mode, self._n, device, dtype)

    def forward(self, input: volta.Tensor, output_size: Any = None) -> volta.Tensor:
        n = self._n
        output_padding = self.output_padding
        if output_size is not None:
            spatial = list(output_size)[-n:]
            output_padding = tuple(
                spatial[i] - ((input.shape[-n + i] - 1) * self.stride[i] - 2 * self.padding[i]
                              + self.dilation[i] * (self.kernel_size[i] - 1) + 1)
                for i in range(n))
        return type(self)._conv_transpose(input, self.weight, self.bias, self.stride,
                                          self.padding, output_padding, self.groups,
                                          self.dilation)


class ConvTranspose1d(_ConvTransposeNd):
    """Transposed 1-D convolution over ``(N, C_in, L)``."""

    _n = 1
    _conv_transpose = F.conv_transpose1d


class ConvTranspose2d(_ConvTransposeNd):
    """Transposed 2-D convolution over ``(N, C_in, H, W)``."""

    _n = 2
    _conv_transpose = F.conv_transpose2d


class ConvTranspose3d(_ConvTransposeNd):
    """Transposed 3-D convolution over ``(N, C_in, D, H, W)``."""

    _n = 3
    _conv_transpose = F.conv_transpose3d


class _LazyConvMixin(LazyModuleMixin):
    """A convolution whose ``in_channels`` is taken from its first input (dim 1, or dim 0 of
    an unbatched input); it then becomes its ``cls_to_become``, initialized as one."""

    in_channels: int
    out_channels: int
    groups: int
    transposed: bool
    kernel_size: tuple
    _n: int

    def _make_lazy(self, out_channels: int, bias: bool, device: Any, dtype: Any) -> None:
        self.weight = UninitializedParameter(device=device, dtype=dtype)
        self.out_channels = out_channels
        if bias:
            self.bias = UninitializedParameter(device=device, dtype=dtype)

    def reset_parameters(self) -> None:
        if not self.has_uninitialized_params() and self.in_channels != 0:
            super().reset_parameters()  # type: ignore[misc]

    def initialize_parameters(self, input: volta.Tensor, *args: Any, **kwargs: Any) -> None:
        if not self.has_uninitialized_params():
            return
        unbatched = self._n + 1
        if input.ndim not in (unbatched, unbatched + 1):
            raise volta.ShapeError(
                f"Expected {unbatched}D (unbatched) or {unbatched + 1}D (batched) input to "
                f"{type(self).__name__}, but got input of size: {input.shape}")
        self.in_channels = input.shape[1] if input.ndim == unbatched + 1 else input.shape[0]
        if self.in_channels % self.groups:
            raise volta.InvalidArgumentError("in_channels must be divisible by groups")
        with volta.no_grad():
            if self.transposed:
                shape = (self.in_channels, self.out_channels // self.groups)
            else:
                shape = (self.out_channels, self.in_channels // self.groups)
            self.weight.materialize(shape + tuple(self.kernel_size))
            if self.bias is not None:
                self.bias.materialize((self.out_channels,))
            self.reset_parameters()


class _LazyConv(_LazyConvMixin, _Conv):
    def __init__(self, out_channels: int, kernel_size: Any, stride: Any = 1, padding: Any = 0,
                 dilation: Any = 1, groups: int = 1, bias: bool = True,
                 padding_mode: str = "zeros", device: Any = None, dtype: Any = None) -> None:
        super().__init__(0, 0, kernel_size, stride, padding, dilation, groups, False,
                         padding_mode)
        self._make_lazy(out_channels, bias, device, dtype)


class LazyConv1d(_LazyConv, Conv1d):
    """A :class:`Conv1d` whose ``in_channels`` is inferred from its first input."""

    cls_to_become = Conv1d


class LazyConv2d(_LazyConv, Conv2d):
    """A :class:`Conv2d` whose ``in_channels`` is inferred from its first input."""

    cls_to_become = Conv2d


class LazyConv3d(_LazyConv, Conv3d):
    """A :class:`Conv3d` whose ``in_channels`` is inferred from its first input."""

    cls_to_become = Conv3d


class _LazyConvTranspose(_LazyConvMixin, _ConvTransposeNd):
    def __init__(self, out_channels: int, kernel_size: Any, stride: Any = 1, padding: Any = 0,
                 output_padding: Any = 0, groups: int = 1, bias: bool = True,
                 dilation: Any = 1, padding_mode: str = "zeros", device: Any = None,
                 dtype: Any = None) -> None:
        super().__init__(0, 0, kernel_size, stride, padding, output_padding, groups, False,
                         dilation, padding_mode)
        self._make_lazy(out_channels, bias, device, dtype)


class LazyConvTranspose1d(_LazyConvTranspose, ConvTranspose1d):
    """A :class:`ConvTranspose1d` whose ``in_channels`` is inferred from its first input."""

    cls_to_become = ConvTranspose1d


class LazyConvTranspose2d(_LazyConvTranspose, ConvTranspose2d):
    """A :class:`ConvTranspose2d` whose ``in_channels`` is inferred from its first input."""

    cls_to_become = ConvTranspose2d


class LazyConvTranspose3d(_LazyConvTranspose, ConvTranspose3d):
    """A :class:`ConvTranspose3d` whose ``in_channels`` is inferred from its first input."""

    cls_to_become = ConvTranspose3d
