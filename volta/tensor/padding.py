"""Index arithmetic of ``pad`` shared by the backends: which input position each padded
position reads (a function of the sizes alone, never of tensor data)."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from volta.errors import ShapeError, VoltaError


def pad_pairs(ndim: int, pad: Sequence[int], op: str) -> list[tuple[int, int]]:
    """(before, after) per dimension from ``pad``'s (last dim first) pairs."""
    if len(pad) % 2 or len(pad) // 2 > ndim:
        raise ShapeError(f"{op}: padding length must be divisible by 2 and at most twice the "
                         f"number of dimensions ({ndim}), got {len(pad)}")
    pairs = [(0, 0)] * ndim
    for i in range(len(pad) // 2):
        pairs[ndim - 1 - i] = (pad[2 * i], pad[2 * i + 1])
    return pairs


def pad_source_index(n: int, before: int, after: int, mode: str) -> np.ndarray:
    """For each position of a padded dimension of size ``n``, the input position it copies
    (reflect, replicate, circular)."""
    i = np.arange(-before, n + after)
    if mode == "reflect":
        period = 2 * (n - 1) if n > 1 else 1
        i = np.abs(i) % period
        return np.where(i >= n, period - i, i)
    if mode == "replicate":
        return np.clip(i, 0, n - 1)
    if mode == "circular":
        # PyTorch crops the negative paddings first and wraps around what remains
        lo, hi = max(-before, 0), n - max(-after, 0)
        if before > n or after > n or hi <= lo:
            raise ShapeError("pad: Padding value causes wrapping around more than once"
                             if before > n or after > n else
                             "pad: Negative padding value is resulting in an empty dimension")
        return lo + np.arange(-max(before, 0), hi - lo + max(after, 0)) % (hi - lo)
    raise VoltaError(f"pad: unknown padding mode {mode!r}; use 'constant', 'reflect', "
                     "'replicate' or 'circular'")


def check_pad_width(mode: str, before: int, after: int, shape: Sequence[int], dim: int) -> None:
    """Reflection needs a padding smaller than the dimension (PyTorch's message)."""
    if mode == "reflect" and (before >= shape[dim] or after >= shape[dim]):
        raise ShapeError(f"pad: padding size should be less than the corresponding input "
                         f"dimension, but got: padding ({before}, {after}) at dimension {dim} of "
                         f"input {list(shape)}")
