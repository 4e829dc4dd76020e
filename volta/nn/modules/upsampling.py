"""``Upsample``, ``UpsamplingNearest2d``, ``UpsamplingBilinear2d``: resize ``(N, C, *spatial)``
by a size or a scale factor."""

from __future__ import annotations

from typing import Any

import volta
import volta.nn.functional as F
from volta.nn.modules.module import Module


class Upsample(Module):
    """Resizes the spatial dimensions.

    Args:
        size: the output spatial size, or
        scale_factor: the multiplier for each spatial size.
        mode: ``"nearest"`` (default), ``"nearest-exact"``, ``"linear"``, ``"bilinear"``,
            ``"bicubic"``, ``"trilinear"`` or ``"area"`` (see ``F.interpolate``).
        align_corners: for the interpolating modes, map corner pixels onto each other.
        recompute_scale_factor: map coordinates through the floored output size.
    """

    def __init__(self, size: Any = None, scale_factor: Any = None, mode: str = "nearest",
                 align_corners: bool | None = None,
                 recompute_scale_factor: bool | None = None) -> None:
        super().__init__()
        self.size = size
        if isinstance(scale_factor, (tuple, list)):
            self.scale_factor: Any = tuple(float(f) for f in scale_factor)
        else:
            self.scale_factor = float(scale_factor) if scale_factor else None
        self.mode = mode
        self.align_corners = align_corners
        self.recompute_scale_factor = recompute_scale_factor

    def forward(self, input: volta.Tensor) -> volta.Tensor:
        return F.interpolate(input, self.size, self.scale_factor, self.mode, self.align_corners,
                             recompute_scale_factor=self.recompute_scale_factor)

    def extra_repr(self) -> str:
        if self.scale_factor is not None:
            text = f"scale_factor={self.scale_factor!r}"
        else:
            text = f"size={self.size!r}"
        return text + f", mode={self.mode!r}"


class UpsamplingNearest2d(Upsample):
    """Nearest-neighbour upsampling of ``(N, C, H, W)``: ``Upsample(mode="nearest")``."""

    def __init__(self, size: Any = None, scale_factor: Any = None) -> None:
        super().__init__(size, scale_factor, mode="nearest")


class UpsamplingBilinear2d(Upsample):
    """Bilinear upsampling of ``(N, C, H, W)`` with the corners aligned:
    ``Upsample(mode="bilinear", align_corners=True)``."""

    def __init__(self, size: Any = None, scale_factor: Any = None) -> None:
        super().__init__(size, scale_factor, mode="bilinear", align_corners=True)
