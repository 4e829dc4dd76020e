"""``PixelShuffle``: ``(*, C * r**2, H, W)`` -> ``(*, C, H * r, W * r)``; its inverse
``PixelUnshuffle``; ``ChannelShuffle``."""

from __future__ import annotations

import volta
import volta.nn.functional as F
from volta.nn.modules.module import Module


class PixelShuffle(Module):
    """Rearranges channels into space by ``upscale_factor`` ``r`` (sub-pixel convolution)."""

    def __init__(self, upscale_factor: int) -> None:
        super().__init__()
        self.upscale_factor = upscale_factor

    def forward(self, input: volta.Tensor) -> volta.Tensor:
        return F.pixel_shuffle(input, self.upscale_factor)

    def extra_repr(self) -> str:
        return f"upscale_factor={self.upscale_factor}"


class PixelUnshuffle(Module):
    """The inverse of :class:`PixelShuffle`: ``(*, C, H * r, W * r)`` ->
    ``(*, C * r**2, H, W)`` for ``downscale_factor`` ``r``."""

    def __init__(self, downscale_factor: int) -> None:
        super().__init__()
        self.downscale_factor = downscale_factor

    def forward(self, input: volta.Tensor) -> volta.Tensor:
        return F.pixel_unshuffle(input, self.downscale_factor)

    def extra_repr(self) -> str:
        return f"downscale_factor={self.downscale_factor}"


class ChannelShuffle(Module):
    """Regroups the channels of ``(N, g * k, *)`` as ``(N, k * g, *)`` (ShuffleNet)."""

    def __init__(self, groups: int) -> None:
        super().__init__()
        self.groups = groups

    def forward(self, input: volta.Tensor) -> volta.Tensor:
        return F.channel_shuffle(input, self.groups)

    def extra_repr(self) -> str:
        return f"groups={self.groups}"
