"""Positional encodings for attention models (PyTorch has none built in, so the names are
volta's own).

* **Sinusoidal** (Vaswani et al., 2017), added to token embeddings:
  ``table[p, 2i] = sin(p / base^(2i / d))`` and ``table[p, 2i + 1] = cos(p / base^(2i / d))``.
  :func:`sinusoidal_positional_encoding` returns the table, :class:`SinusoidalPositionalEncoding`
  adds it (then dropout).
* **Rotary** (RoPE, Su et al., 2021), applied to queries and keys inside attention, so the score
  ``q_m . k_n`` depends on the positions only through ``m - n``. The *half-rotation*
  convention (GPT-NeoX, Llama): the feature ``j < dim/2`` is paired with ``j + dim/2`` and the
  pair is rotated by the angle ``p * base^(-2j / dim)``.
  :class:`RotaryEmbedding` gives the ``cos``/``sin`` tables, :func:`apply_rotary_embedding`
  rotates.

Tables are computed in float64 and cast, so long positions keep their precision.
"""

from __future__ import annotations

import math
from typing import Any

import volta
import volta.nn.functional as F
from volta.nn.modules.module import Module

Tensor = volta.Tensor

__all__ = ["RotaryEmbedding", "SinusoidalPositionalEncoding", "apply_rotary_embedding",
           "sinusoidal_positional_encoding"]


def _positions(start: int, length: int, device: Any) -> Tensor:
    return volta.arange(start, start + length, dtype=volta.float64, device=device)


def _inverse_frequencies(dim: int, base: float, device: Any) -> Tensor:
    """``base^(-2i / dim)`` for ``i = 0 .. ceil(dim / 2) - 1`` (float64)."""
    exponents = volta.arange(0, dim, 2, dtype=volta.float64, device=device) / dim
    return volta.exp(exponents * -math.log(base))


def sinusoidal_positional_encoding(length: int, d_model: int, base: float = 10000.0, *,
                                   dtype: volta.dtype | None = None,
                                   device: Any = None) -> Tensor:
    """The sinusoidal table ``(length, d_model)``: even features ``sin(p * w_i)``, odd features
    ``cos(p * w_i)`` with ``w_i = base^(-2i / d_model)`` (an odd ``d_model`` drops the last
    cosine).

    Args:
        length: number of positions ``0 .. length - 1``.
        d_model: number of features.
        base: the wavelength scale. Default: ``10000``.
        dtype, device: of the table (default: the default dtype, CPU).
    """
    if length < 0 or d_model <= 0:
        raise volta.InvalidArgumentError(f"sinusoidal_positional_encoding: length must be >= 0 "
                                         f"and d_model > 0, got length={length}, "
                                         f"d_model={d_model}")
    angles = volta.outer(_positions(0, length, device), _inverse_frequencies(d_model, base,
                                                                             device))
    # (length, pairs, [sin, cos]) flattened interleaves them: sin_0, cos_0, sin_1, cos_1, ...
    table = volta.stack([angles.sin(), angles.cos()], -1).reshape(length, -1)[:, :d_model]
    return table.to(dtype or volta.get_default_dtype())


class SinusoidalPositionalEncoding(Module):
    """Adds the sinusoidal table to its input, then dropout: ``dropout(x + table[positions])``.

    The table (``max_len`` positions) is a non-persistent buffer: it follows ``.to()`` but is
    not in the ``state_dict`` (it is recomputed, never learned).

    Args:
        d_model: number of features ``E``.
        max_len: the most positions an input may have. Default: ``5000``.
        dropout: dropout probability after the addition. Default: ``0.0``.
        batch_first: input ``(N, L, E)`` instead of ``(L, N, E)``; ``(L, E)`` works either way.
        base: the wavelength scale. Default: ``10000``.

    Shape:
        input and output ``(L, N, E)`` (``(N, L, E)`` with ``batch_first``) or ``(L, E)``.
    """

    def __init__(self, d_model: int, max_len: int = 5000, dropout: float = 0.0,
                 batch_first: bool = False, base: float = 10000.0, device: Any = None,
                 dtype: Any = None) -> None:
        super().__init__()
        if not 0.0 <= dropout <= 1.0:
            raise volta.InvalidArgumentError(
                f"dropout probability has to be between 0 and 1, but got {dropout}")
        self.d_model = d_model
        self.max_len = max_len
        self.dropout = dropout
        self.batch_first = batch_first
        self.base = base
        self.register_buffer("pe", sinusoidal_positional_encoding(
            max_len, d_model, base, dtype=dtype, device=device), persistent=False)

    def forward(self, input: Tensor, offset: int = 0) -> Tensor:
        """``input`` plus the encodings of positions ``offset .. offset + L - 1``."""
        if input.dim() not in (2, 3) or input.shape[-1] != self.d_model:
            raise volta.ShapeError(f"SinusoidalPositionalEncoding: expected input (L, E), "
                                   f"(L, N, E) or (N, L, E) with E={self.d_model}, got "
                                   f"{tuple(input.shape)}")
        seq_dim = 1 if self.batch_first and input.dim() == 3 else 0
        length = input.shape[seq_dim]
        if offset < 0 or offset + length > self.max_len:
            raise volta.ShapeError(f"SinusoidalPositionalEncoding: positions {offset}.."
                                   f"{offset + length - 1} exceed max_len={self.max_len}")
        table = self.pe[offset:offset + length]
        if input.dim() == 3 and seq_dim == 0:
            table = table.unsqueeze(1)
        return F.dropout(input + table, self.dropout, self.training)

    def extra_repr(self) -> str:
        return (f"d_model={self.d_model}, max_len={self.max_len}, dropout={self.dropout}, "
                f"batch_first={self.batch_first}")


class RotaryEmbedding(Module):
    """The ``cos``/``sin`` tables of rotary position embeddings (half-rotation convention).

    ``cos[p, j] = cos(p * w_(j mod dim/2))`` and likewise ``sin``, ``w_i = base^(-2i / dim)``,
    for ``j < dim``: each frequency appears twice, once per half of the features, so
    :func:`apply_rotary_embedding` rotates the pair ``(x_j, x_(j + dim/2))`` by ``p * w_j``.

    The tables are non-persistent buffers for ``max_seq_len`` positions; a longer request
    grows them.

    Args:
        dim: rotated features (the head dimension); must be even.
        base: the wavelength scale. Default: ``10000``.
        max_seq_len: positions cached up front. Default: ``2048``.

    Call ``rope(seq_len, offset=0)`` for ``(cos, sin)``, each ``(seq_len, dim)``, for the
    positions ``offset .. offset + seq_len - 1``.
    """

    def __init__(self, dim: int, base: float = 10000.0, max_seq_len: int = 2048,
                 device: Any = None, dtype: Any = None) -> None:
        super().__init__()
        if dim <= 0 or dim % 2:
            raise volta.InvalidArgumentError(f"RotaryEmbedding: dim must be a positive even "
                                             f"number, got {dim}")
        self.dim = dim
        self.base = base
        self.register_buffer("cos_cached", None, persistent=False)
        self.register_buffer("sin_cached", None, persistent=False)
        self._build(max_seq_len, device, dtype or volta.get_default_dtype())

    def _build(self, length: int, device: Any, dtype: volta.dtype) -> None:
        angles = volta.outer(_positions(0, length, device),
                             _inverse_frequencies(self.dim, self.base, device))
        angles = volta.cat([angles, angles], -1)
        self.cos_cached = angles.cos().to(dtype)
        self.sin_cached = angles.sin().to(dtype)

    @property
    def max_seq_len(self) -> int:
        return self.cos_cached.shape[0]

    def forward(self, seq_len: int, offset: int = 0) -> tuple[Tensor, Tensor]:
        if seq_len < 0 or offset < 0:
            raise volta.InvalidArgumentError(f"RotaryEmbedding: seq_len and offset must be >= 0, "
                                             f"got seq_len={seq_len}, offset={offset}")
        end = offset + seq_len
        if end > self.max_seq_len:
            self._build(max(end, 2 * self.max_seq_len), self.cos_cached.device,
                        self.cos_cached.dtype)
        return self.cos_cached[offset:end], self.sin_cached[offset:end]

    def extra_repr(self) -> str:
        return f"dim={self.dim}, base={self.base}, max_seq_len={self.max_seq_len}"


def _rotate_half(x: Tensor) -> Tensor:
    """``[x1, x2] -> [-x2, x1]`` over the last dim's two halves."""
    first, second = x.chunk(2, -1)
    return volta.cat([-second, first], -1)


def apply_rotary_embedding(x: Tensor, cos: Tensor, sin: Tensor) -> Tensor:
    """Rotates ``x`` by its positions: ``x * cos + rotate_half(x) * sin`` with
    ``rotate_half([x1, x2]) = [-x2, x1]`` (the half-rotation convention of
    :class:`RotaryEmbedding`).

    Args:
        x: queries or keys ``(..., L, dim)``, e.g. ``(N, H, L, head_dim)``.
        cos, sin: ``(L, dim)`` from :class:`RotaryEmbedding` (or any shape that broadcasts
            against ``x``, e.g. ``(L, 1, dim)`` for ``(N, L, H, dim)`` inputs).
    """
    if x.shape[-1] != cos.shape[-1] or cos.shape != sin.shape:
        raise volta.ShapeError(f"apply_rotary_embedding: x's last dim ({x.shape[-1]}) must equal "
                               f"cos's and sin's, and cos {tuple(cos.shape)} must match sin "
                               f"{tuple(sin.shape)}")
    return x * cos + _rotate_half(x) * sin
