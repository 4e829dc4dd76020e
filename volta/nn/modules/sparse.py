"""``Embedding``: a lookup table of ``num_embeddings`` vectors; ``EmbeddingBag``: reductions of
bags of its rows."""

from __future__ import annotations

from typing import Any

import volta
import volta.nn.functional as F
from volta.nn import init
from volta.nn.modules.module import Module
from volta.nn.parameter import Parameter


def _padding_row(padding_idx: int | None, num_embeddings: int, label: str) -> int | None:
    """``padding_idx`` as a row number (negative ones count from the end)."""
    if padding_idx is None:
        return None
    if not -num_embeddings <= padding_idx < num_embeddings:
        raise volta.InvalidArgumentError(f"{label} must be within num_embeddings")
    return padding_idx % num_embeddings


class Embedding(Module):
    """Looks up rows of ``weight`` by index.

    Args:
        num_embeddings: size of the table.
        embedding_dim: size of each vector.
        padding_idx: this row is initialised to zeros and receives no gradient.
        max_norm: rows looked up whose ``norm_type``-norm exceeds it are rescaled to it, in
            place (PyTorch's ``embedding_renorm_``).
        norm_type: the p of that norm. Default: ``2``.

    Shape:
        input ``(*)`` of integer indices, output ``(*, embedding_dim)``.
    """

    def __init__(self, num_embeddings: int, embedding_dim: int, padding_idx: int | None = None,
                 max_norm: float | None = None, norm_type: float = 2.0,
                 scale_grad_by_freq: bool = False, sparse: bool = False,
                 _weight: volta.Tensor | None = None, _freeze: bool = False, device: Any = None,
                 dtype: Any = None) -> None:
        super().__init__()
        padding_idx = _padding_row(padding_idx, num_embeddings, "Padding_idx")
        self.num_embeddings = num_embeddings
        self.embedding_dim = embedding_dim
        self.padding_idx = padding_idx
        self.max_norm = max_norm
        self.norm_type = norm_type
        self.scale_grad_by_freq = scale_grad_by_freq
        self.sparse = sparse
        if _weight is None:
            self.weight = Parameter(volta.empty(num_embeddings, embedding_dim, device=device,
                                                dtype=dtype), requires_grad=not _freeze)
            self.reset_parameters()
        else:
            if list(_weight.shape) != [num_embeddings, embedding_dim]:
                raise volta.InvalidArgumentError(
                    "Shape of weight does not match num_embeddings and embedding_dim")
            self.weight = Parameter(_weight, requires_grad=not _freeze)

    def reset_parameters(self) -> None:
        """PyTorch's default: N(0, 1), with the padding row zeroed."""
        init.normal_(self.weight)
        if self.padding_idx is not None:
            with volta.no_grad():
                self.weight[self.padding_idx].fill_(0)

    def forward(self, input: volta.Tensor) -> volta.Tensor:
        return F.embedding(input, self.weight, self.padding_idx, self.max_norm, self.norm_type,
                           self.scale_grad_by_freq, self.sparse)

    def extra_repr(self) -> str:
        text = f"{self.num_embeddings}, {self.embedding_dim}"
        if self.padding_idx is not None:
            text += f", padding_idx={self.padding_idx}"
        if self.max_norm is not None:
            text += f", max_norm={self.max_norm}"
        if self.norm_type != 2:
            text += f", norm_type={self.norm_type}"
        if self.scale_grad_by_freq:
            text += ", scale_grad_by_freq=True"
        if self.sparse:
            text += ", sparse=True"
        return text

    @classmethod
    def from_pretrained(cls, embeddings: volta.Tensor, freeze: bool = True,
                        padding_idx: int | None = None, max_norm: float | None = None,
                        norm_type: float = 2.0, scale_grad_by_freq: bool = False,
                        sparse: bool = False) -> Embedding:
        """An Embedding whose weight is ``embeddings`` (shared, not copied), frozen unless
        ``freeze=False``; the other arguments as the constructor's."""
        if embeddings.ndim != 2:
            raise volta.InvalidArgumentError("Embeddings parameter is expected to be 2-dimensional")
        rows, cols = embeddings.shape
        return cls(rows, cols, padding_idx=padding_idx, max_norm=max_norm, norm_type=norm_type,
                   scale_grad_by_freq=scale_grad_by_freq, sparse=sparse, _weight=embeddings,
                   _freeze=freeze)


class EmbeddingBag(Module):
    """Sums, averages or takes the maximum of the embeddings of each bag of indices.

    Args: as :class:`Embedding`, plus ``mode`` (``"sum"``, ``"mean"``, ``"max"``) and
    ``include_last_offset`` (``offsets`` also holds the end of the last bag).

    Shape:
        ``forward(input, offsets=None, per_sample_weights=None)``: ``input`` ``(B, L)``, or 1-d
        with ``offsets`` ``(B,)``; output ``(B, embedding_dim)``.
    """

    def __init__(self, num_embeddings: int, embedding_dim: int, max_norm: float | None = None,
                 norm_type: float = 2.0, scale_grad_by_freq: bool = False, mode: str = "mean",
                 sparse: bool = False, _weight: volta.Tensor | None = None,
                 include_last_offset: bool = False, padding_idx: int | None = None,
                 device: Any = None, dtype: Any = None) -> None:
        super().__init__()
        padding_idx = _padding_row(padding_idx, num_embeddings, "padding_idx")
        self.num_embeddings = num_embeddings
        self.embedding_dim = embedding_dim
        self.max_norm = max_norm
        self.norm_type = norm_type
        self.scale_grad_by_freq = scale_grad_by_freq
        self.mode = mode
        self.sparse = sparse
        self.include_last_offset = include_last_offset
        self.padding_idx = padding_idx
        if _weight is None:
            self.weight = Parameter(volta.empty(num_embeddings, embedding_dim, device=device,
                                                dtype=dtype))
            self.reset_parameters()
        else:
            if list(_weight.shape) != [num_embeddings, embedding_dim]:
                raise volta.InvalidArgumentError(
                    "Shape of weight does not match num_embeddings and embedding_dim")
            self.weight = Parameter(_weight)

    reset_parameters = Embedding.reset_parameters

    def forward(self, input: volta.Tensor, offsets: volta.Tensor | None = None,
                per_sample_weights: volta.Tensor | None = None) -> volta.Tensor:
        return F.embedding_bag(input, self.weight, offsets, self.max_norm, self.norm_type,
                               self.scale_grad_by_freq, self.mode, self.sparse,
                               per_sample_weights, self.include_last_offset, self.padding_idx)

    def extra_repr(self) -> str:
        return f"{self.num_embeddings}, {self.embedding_dim}, mode='{self.mode}'"
