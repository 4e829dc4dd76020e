"""Padding layers over :func:`volta.nn.functional.pad`: ``ZeroPad``, ``ConstantPad``,
``ReflectionPad``, ``ReplicationPad`` and ``CircularPad``, each for 1-3 spatial dimensions.

``padding`` is an int (the same on every side) or a tuple ``(left, right[, top, bottom[,
front, back]])``, the last dimension first, as ``F.pad`` takes it; negative values crop.
Shapes: ``(C, *spatial)`` or ``(N, C, *spatial)``.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import volta
import volta.nn.functional as F
from volta.nn.modules.module import Module


def _sides(padding: Any, count: int) -> tuple:
    """An int repeated ``count`` times; a sequence kept as it is (PyTorch's ``_ntuple``)."""
    if isinstance(padding, Iterable):
        return tuple(padding)
    return (padding,) * count


class _PadNd(Module):
    """A padding layer of ``spatial_dims`` dimensions in ``mode``."""

    mode: str
    spatial_dims: int

    def __init__(self, padding: Any) -> None:
        super().__init__()
        self.padding = _sides(padding, 2 * self.spatial_dims)

    def forward(self, input: volta.Tensor) -> volta.Tensor:
        return F.pad(input, self.padding, self.mode)

    def extra_repr(self) -> str:
        return f"{self.padding}"


class _ConstantPadNd(_PadNd):
    mode = "constant"

    def __init__(self, padding: Any, value: float) -> None:
        super().__init__(padding)
        self.value = value

    def forward(self, input: volta.Tensor) -> volta.Tensor:
        return F.pad(input, self.padding, "constant", self.value)

    def extra_repr(self) -> str:
        return f"padding={self.padding}, value={self.value}"


class ConstantPad1d(_ConstantPadNd):
    """Pads the last dimension with ``value``: ``(C, W)`` or ``(N, C, W)``."""

    spatial_dims = 1


class ConstantPad2d(_ConstantPadNd):
    """Pads the last two dimensions with ``value``: ``(C, H, W)`` or ``(N, C, H, W)``."""

    spatial_dims = 2


class ConstantPad3d(_ConstantPadNd):
    """Pads the last three dimensions with ``value``: ``(C, D, H, W)`` or
    ``(N, C, D, H, W)``."""

    spatial_dims = 3


class ZeroPad1d(ConstantPad1d):
    """Pads the last dimension with zeros."""

    def __init__(self, padding: Any) -> None:
        super().__init__(padding, 0.0)

    def extra_repr(self) -> str:
        return f"{self.padding}"


class ZeroPad2d(ConstantPad2d):
    """Pads the last two dimensions with zeros."""

    def __init__(self, padding: Any) -> None:
        super().__init__(padding, 0.0)

    def extra_repr(self) -> str:
        return f"{self.padding}"


class ZeroPad3d(ConstantPad3d):
    """Pads the last three dimensions with zeros."""

    def __init__(self, padding: Any) -> None:
        super().__init__(padding, 0.0)

    def extra_repr(self) -> str:
        return f"{self.padding}"


class ReflectionPad1d(_PadNd):
    """Pads the last dimension with its reflection (the edge value not repeated)."""

    mode = "reflect"
    spatial_dims = 1


class ReflectionPad2d(_PadNd):
    """Pads the last two dimensions with their reflection."""

    mode = "reflect"
    spatial_dims = 2


class ReflectionPad3d(_PadNd):
    """Pads the last three dimensions with their reflection."""

    mode = "reflect"
    spatial_dims = 3


class ReplicationPad1d(_PadNd):
    """Pads the last dimension by repeating its edge values."""

    mode = "replicate"
    spatial_dims = 1


class ReplicationPad2d(_PadNd):
    """Pads the last two dimensions by repeating their edge values."""

    mode = "replicate"
    spatial_dims = 2


class ReplicationPad3d(_PadNd):
    """Pads the last three dimensions by repeating their edge values."""

    mode = "replicate"
    spatial_dims = 3


class _CircularPadNd(_PadNd):
    mode = "circular"

    def forward(self, input: volta.Tensor) -> volta.Tensor:
        # PyTorch checks the rank here, before F.pad, with the layer's own message
        batched = self.spatial_dims + 2
        if input.ndim not in (batched - 1, batched):
            raise volta.InvalidArgumentError(
                f"expected {batched - 1}D or {batched}D input (got {input.ndim}D input)")
        return F.pad(input, self.padding, "circular")


class CircularPad1d(_CircularPadNd):
    """Pads the last dimension by wrapping around: the end pads the beginning and back."""

    spatial_dims = 1


class CircularPad2d(_CircularPadNd):
    """Pads the last two dimensions by wrapping around."""

    spatial_dims = 2


class CircularPad3d(_CircularPadNd):
    """Pads the last three dimensions by wrapping around."""

    spatial_dims = 3
