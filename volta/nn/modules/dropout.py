"""Dropout: ``Dropout`` (elements), ``Dropout1d``/``2d``/``3d`` (whole channels), ``AlphaDropout``
and ``FeatureAlphaDropout`` (SELU networks). Identity in eval mode."""

from __future__ import annotations

import volta
import volta.nn.functional as F
from volta.nn.modules.module import Module


class _DropoutNd(Module):
    def __init__(self, p: float = 0.5, inplace: bool = False) -> None:
        super().__init__()
        if not 0.0 <= p <= 1.0:
            raise volta.InvalidArgumentError(
                f"dropout probability has to be between 0 and 1, but got {p}")
        self.p = p
        self.inplace = inplace

    def extra_repr(self) -> str:
        return f"p={self.p}, inplace={self.inplace}"


class Dropout(_DropoutNd):
    """Zeroes each element with probability ``p`` while training and scales the others by
    ``1 / (1 - p)``."""

    def forward(self, input: volta.Tensor) -> volta.Tensor:
        return F.dropout(input, self.p, self.training, self.inplace)


class Dropout1d(_DropoutNd):
    """Zeroes whole channels of ``(N, C, L)`` with probability ``p`` while training."""

    def forward(self, input: volta.Tensor) -> volta.Tensor:
        return F.dropout1d(input, self.p, self.training, self.inplace)


class Dropout2d(_DropoutNd):
    """Zeroes whole channels of ``(N, C, H, W)`` with probability ``p`` while training."""

    def forward(self, input: volta.Tensor) -> volta.Tensor:
        return F.dropout2d(input, self.p, self.training, self.inplace)


class Dropout3d(_DropoutNd):
    """Zeroes whole channels of ``(N, C, D, H, W)`` with probability ``p`` while training."""

    def forward(self, input: volta.Tensor) -> volta.Tensor:
        return F.dropout3d(input, self.p, self.training, self.inplace)


class AlphaDropout(_DropoutNd):
    """Dropout for SELU networks: dropped units take SELU's negative saturation value and an
    affine map keeps the mean and variance."""

    def forward(self, input: volta.Tensor) -> volta.Tensor:
        return F.alpha_dropout(input, self.p, self.training)


class FeatureAlphaDropout(_DropoutNd):
    """Alpha dropout of whole channels."""

    def forward(self, input: volta.Tensor) -> volta.Tensor:
        return F.feature_alpha_dropout(input, self.p, self.training)
