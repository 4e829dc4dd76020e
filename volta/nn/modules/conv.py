"""Convolutions: ``Conv1d``, ``Conv2d``, ``ConvTranspose2d``."""

from __future__ import annotations

import math
from typing import Any

import volta
import volta.nn.functional as F
from volta.nn import init
from volta.nn.modules.module import Module
from volta.nn.parameter import Parameter


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
        if padding_mode != "zeros":
            raise NotImplementedError(f"padding_mode={padding_mode!r} is not supported; "
                                      "use 'zeros'")
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
        shape = ((in_channels, out_channels // groups) if transposed
                 else (out_channels, in_channels // groups)) + self.kernel_size
        self.weight = Parameter(volta.empty(*shape, device=device, dtype=dtype))
        if bias:
            self.bias = Parameter(volta.empty(out_channels, device=device, dtype=dtype))
        else:
            self.register_parameter("bias", None)
        self.reset_parameters()

    def reset_parameters(self) -> None:
        """PyTorch's default: kaiming_uniform_(a=sqrt(5)) weights, U(+-1/sqrt(fan_in)) bias."""
        init.kaiming_uniform_(self.weight, a=math.sqrt(5))
        if self.bias is not None:
            fan_in, _ = init._calculate_fan_in_and_fan_out(self.weight)
            if fan_in != 0:
                bound = 1 / math.sqrt(fan_in)
                init.uniform_(self.bias, -bound, bound)

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


class Conv1d(_ConvNd):
    """1-D convolution over ``(N, C_in, L)`` -> ``(N, C_out, L_out)``.

    Args:
        in_channels, out_channels: channel counts.
        kernel_size, stride, padding (int or ``"same"``/``"valid"``), dilation: as PyTorch.
        groups: blocked connections from input to output channels.
        bias: whether to add a learnable bias. Default: ``True``.
    """

    def __init__(self, in_channels: int, out_channels: int, kernel_size: Any, stride: Any = 1,
                 padding: Any = 0, dilation: Any = 1, groups: int = 1, bias: bool = True,
                 padding_mode: str = "zeros", device: Any = None, dtype: Any = None) -> None:
        super().__init__(in_channels, out_channels, kernel_size, stride, padding, dilation,
                         False, 0, groups, bias, padding_mode, 1, device, dtype)

    def forward(self, input: volta.Tensor) -> volta.Tensor:
        return F.conv1d(input, self.weight, self.bias, self.stride, self.padding,
                        self.dilation, self.groups)


class Conv2d(_ConvNd):
    """2-D convolution over ``(N, C_in, H, W)`` -> ``(N, C_out, H_out, W_out)``.

    Args:
        in_channels, out_channels: channel counts.
        kernel_size, stride, padding (int, pair or ``"same"``/``"valid"``), dilation: as
            PyTorch.
        groups: blocked connections from input to output channels.
        bias: whether to add a learnable bias. Default: ``True``.
    """

    def __init__(self, in_channels: int, out_channels: int, kernel_size: Any, stride: Any = 1,
                 padding: Any = 0, dilation: Any = 1, groups: int = 1, bias: bool = True,
                 padding_mode: str = "zeros", device: Any = None, dtype: Any = None) -> None:
        super().__init__(in_channels, out_channels, kernel_size, stride, padding, dilation,
                         False, 0, groups, bias, padding_mode, 2, device, dtype)

    def forward(self, input: volta.Tensor) -> volta.Tensor:
        return F.conv2d(input, self.weight, self.bias, self.stride, self.padding,
                        self.dilation, self.groups)


class ConvTranspose2d(_ConvNd):
    """Transposed 2-D convolution (the gradient of ``Conv2d`` with respect to its input).

    Shape:
        input ``(N, C_in, H, W)``; output ``H_out = (H - 1) * stride - 2 * padding +
        dilation * (kernel_size - 1) + output_padding + 1`` (likewise ``W_out``); ``weight``
        is ``(C_in, C_out / groups, kH, kW)``.
    """

    def __init__(self, in_channels: int, out_channels: int, kernel_size: Any, stride: Any = 1,
                 padding: Any = 0, output_padding: Any = 0, groups: int = 1, bias: bool = True,
                 dilation: Any = 1, padding_mode: str = "zeros", device: Any = None,
                 dtype: Any = None) -> None:
        super().__init__(in_channels, out_channels, kernel_size, stride, padding, dilation,
                         True, output_padding, groups, bias, padding_mode, 2, device, dtype)

    def forward(self, input: volta.Tensor, output_size: Any = None) -> volta.Tensor:
        output_padding = self.output_padding
        if output_size is not None:
            # choose the output_padding that reaches the requested size
            spatial = list(output_size)[-2:]
            output_padding = tuple(
                spatial[i] - ((input.shape[-2 + i] - 1) * self.stride[i] - 2 * self.padding[i]
                              + self.dilation[i] * (self.kernel_size[i] - 1) + 1)
                for i in range(2))
        return F.conv_transpose2d(input, self.weight, self.bias, self.stride, self.padding,
                                  output_padding, self.groups, self.dilation)
