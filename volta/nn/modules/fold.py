"""``Unfold`` (im2col) and ``Fold`` (col2im): sliding local blocks to columns and back."""

from __future__ import annotations

from typing import Any

import volta
import volta.nn.functional as F
from volta.nn.modules.module import Module


class Unfold(Module):
    """Extracts sliding local blocks: ``(N, C, H, W)`` -> ``(N, C * prod(kernel_size), L)``,
    ``L`` the number of block positions."""

    def __init__(self, kernel_size: Any, dilation: Any = 1, padding: Any = 0,
                 stride: Any = 1) -> None:
        super().__init__()
        self.kernel_size = kernel_size
        self.dilation = dilation
        self.padding = padding
        self.stride = stride

    def forward(self, input: volta.Tensor) -> volta.Tensor:
        return F.unfold(input, self.kernel_size, self.dilation, self.padding, self.stride)

    def extra_repr(self) -> str:
        return (f"kernel_size={self.kernel_size}, dilation={self.dilation}, "
                f"padding={self.padding}, stride={self.stride}")


class Fold(Module):
    """Sums sliding local blocks back into an image: ``(N, C * prod(kernel_size), L)`` ->
    ``(N, C, *output_size)`` (overlapping blocks add up)."""

    def __init__(self, output_size: Any, kernel_size: Any, dilation: Any = 1, padding: Any = 0,
                 stride: Any = 1) -> None:
        super().__init__()
        self.output_size = output_size
        self.kernel_size = kernel_size
        self.dilation = dilation
        self.padding = padding
        self.stride = stride

    def forward(self, input: volta.Tensor) -> volta.Tensor:
        return F.fold(input, self.output_size, self.kernel_size, self.dilation, self.padding,
                      self.stride)

    def extra_repr(self) -> str:
        return (f"output_size={self.output_size}, kernel_size={self.kernel_size}, "
                f"dilation={self.dilation}, padding={self.padding}, stride={self.stride}")
