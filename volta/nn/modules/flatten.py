"""``Flatten`` and ``Unflatten``: reshape a range of dimensions."""

from __future__ import annotations

from typing import Any

import volta
from volta.nn.modules.module import Module


class Flatten(Module):
    """Flattens dimensions ``start_dim..end_dim``: ``(N, *dims)`` -> ``(N, prod(dims))`` by
    default."""

    def __init__(self, start_dim: int = 1, end_dim: int = -1) -> None:
        super().__init__()
        self.start_dim = start_dim
        self.end_dim = end_dim

    def forward(self, input: volta.Tensor) -> volta.Tensor:
        return input.flatten(self.start_dim, self.end_dim)

    def extra_repr(self) -> str:
        return f"start_dim={self.start_dim}, end_dim={self.end_dim}"


class Unflatten(Module):
    """Expands dimension ``dim`` into ``unflattened_size``."""

    def __init__(self, dim: int, unflattened_size: Any) -> None:
        super().__init__()
        self.dim = dim
        self.unflattened_size = tuple(unflattened_size)

    def forward(self, input: volta.Tensor) -> volta.Tensor:
        return input.unflatten(self.dim, self.unflattened_size)

    def extra_repr(self) -> str:
        return f"dim={self.dim}, unflattened_size={self.unflattened_size}"
