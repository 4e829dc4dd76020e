"""Distances between two batches of vectors: ``PairwiseDistance`` and ``CosineSimilarity``."""

from __future__ import annotations

import volta
import volta.nn.functional as F
from volta.nn.modules.module import Module


class PairwiseDistance(Module):
    """The ``p``-norm distance ``||x1 - x2 + eps||_p`` along the last dimension. Shapes:
    ``(N, D)`` or ``(D,)`` each (broadcast); output ``(N)`` or ``()`` (``keepdim`` keeps a
    trailing 1)."""

    def __init__(self, p: float = 2.0, eps: float = 1e-6, keepdim: bool = False) -> None:
        super().__init__()
        self.norm = p
        self.eps = eps
        self.keepdim = keepdim

    def forward(self, x1: volta.Tensor, x2: volta.Tensor) -> volta.Tensor:
        return F.pairwise_distance(x1, x2, self.norm, self.eps, self.keepdim)


class CosineSimilarity(Module):
    """``x1 . x2 / max(||x1|| * ||x2||, eps)`` along ``dim`` (inputs broadcast)."""

    def __init__(self, dim: int = 1, eps: float = 1e-8) -> None:
        super().__init__()
        self.dim = dim
        self.eps = eps

    def forward(self, x1: volta.Tensor, x2: volta.Tensor) -> volta.Tensor:
        return F.cosine_similarity(x1, x2, self.dim, self.eps)
