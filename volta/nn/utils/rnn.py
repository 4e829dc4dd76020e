"""Variable-length sequences for the recurrent layers, as ``torch.nn.utils.rnn``.

A :class:`PackedSequence` stores a batch of sequences sorted by decreasing length, time-major
without padding: ``data`` holds step 0 of every sequence, then step 1 of those still running,
and so on; ``batch_sizes[t]`` says how many sequences run at step ``t``. ``sorted_indices``
maps sorted position -> original batch position and ``unsorted_indices`` is its inverse
(both ``None`` when the input was already sorted).
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from typing import Any, NamedTuple

import volta
from volta.errors import InvalidArgumentError, ShapeError

__all__ = ["PackedSequence", "pack_padded_sequence", "pad_packed_sequence", "pack_sequence",
           "pad_sequence", "unpack_sequence", "unpad_sequence", "invert_permutation"]


class PackedSequence(NamedTuple):
    """The packed form of a batch of variable-length sequences (see the module docstring)."""

    data: volta.Tensor
    batch_sizes: volta.Tensor
    sorted_indices: volta.Tensor | None = None
    unsorted_indices: volta.Tensor | None = None

    def to(self, *args: Any, **kwargs: Any) -> PackedSequence:
        """``data`` moved/cast like ``Tensor.to``; the index tensors follow its device."""
        data = self.data.to(*args, **kwargs)
        if data is self.data:
            return self
        indices = [None if i is None else i.to(device=data.device)
                   for i in (self.sorted_indices, self.unsorted_indices)]
        return PackedSequence(data, self.batch_sizes, *indices)


def invert_permutation(permutation: volta.Tensor | None) -> volta.Tensor | None:
    """The inverse of a permutation given as an index tensor (``None`` stays ``None``)."""
    if permutation is None:
        return None
    order = permutation.tolist()
    inverse = [0] * len(order)
    for position, index in enumerate(order):
        inverse[index] = position
    return volta.tensor(inverse, dtype=volta.int64, device=permutation.device)


def _lengths_list(lengths: volta.Tensor | Sequence[int]) -> list[int]:
    values = lengths.tolist() if isinstance(lengths, volta.Tensor) else list(lengths)
    return [int(v) for v in values]


def _batch_sizes(lengths: list[int]) -> list[int]:
    """Sorted (decreasing) lengths -> how many sequences run at each step."""
    return [sum(1 for length in lengths if length > t) for t in range(lengths[0])]


def _packed_rows(batch_sizes: list[int], batch: int) -> list[int]:
    """For each packed row, its row in the time-major padded ``(T * batch, ...)`` layout."""
    return [t * batch + b for t, size in enumerate(batch_sizes) for b in range(size)]


def padded_to_packed(padded: volta.Tensor, batch_sizes: list[int]) -> volta.Tensor:
    """``(T, B, *)`` time-major padded -> packed ``data`` (one gather, differentiable)."""
    time, batch = padded.shape[0], padded.shape[1]
    flat = padded.reshape(time * batch, *padded.shape[2:])
    rows = volta.tensor(_packed_rows(batch_sizes, batch), dtype=volta.int64,
                        device=padded.device)
    return flat.index_select(0, rows)


def packed_to_padded(data: volta.Tensor, batch_sizes: list[int], total_length: int,
                     padding_value: float = 0.0) -> volta.Tensor:
    """Packed ``data`` -> ``(total_length, B, *)`` time-major, padding ``padding_value``."""
    batch = batch_sizes[0] if batch_sizes else 0
    filler = volta.full((1, *data.shape[1:]), padding_value, dtype=data.dtype, device=data.device)
    source = volta.cat([data, filler])
    rows = [data.shape[0]] * (total_length * batch)  # the filler row unless a step has data
    for packed_row, padded_row in enumerate(_packed_rows(batch_sizes, batch)):
        rows[padded_row] = packed_row
    index = volta.tensor(rows, dtype=volta.int64, device=data.device)
    return source.index_select(0, index).reshape(total_length, batch, *data.shape[1:])


def pack_padded_sequence(input: volta.Tensor, lengths: volta.Tensor | Sequence[int],
                         batch_first: bool = False, enforce_sorted: bool = True
                         ) -> PackedSequence:
    """Packs a padded batch ``(T, B, *)`` (``(B, T, *)`` if ``batch_first``) of sequences of
    the given ``lengths``. With ``enforce_sorted=False`` the lengths may come in any order."""
    values = _lengths_list(lengths)
    batch_dim = 0 if batch_first else 1
    if len(values) != input.shape[batch_dim]:
        raise ShapeError(f"Expected `len(lengths)` to be equal to batch_size, but got "
                         f"{len(values)} (batch_size={input.shape[batch_dim]})")
    if any(v <= 0 for v in values):
        raise InvalidArgumentError("Length of all samples has to be greater than 0, but found an "
                                   "element in 'lengths' that is <= 0")
    if enforce_sorted:
        if any(a < b for a, b in itertools.pairwise(values)):
            raise InvalidArgumentError(
                "`lengths` array must be sorted in decreasing order when `enforce_sorted` is "
                "True. You can pass `enforce_sorted=False` to pack_padded_sequence and/or "
                "pack_sequence to sidestep this requirement if you do not need ONNX "
                "exportability.")
        sorted_indices = None
    else:
        order = sorted(range(len(values)), key=lambda b: -values[b])  # stable
        sorted_indices = volta.tensor(order, dtype=volta.int64, device=input.device)
        input = input.index_select(batch_dim, sorted_indices)
        values = [values[b] for b in order]
    if batch_first:
        input = input.transpose(0, 1)
    if values[0] > input.shape[0]:
        raise ShapeError(f"pack_padded_sequence: a length of {values[0]} exceeds the "
                         f"{input.shape[0]} steps of the padded input")
    sizes = _batch_sizes(values)
    data = padded_to_packed(input[:len(sizes)], sizes)
    return PackedSequence(data, volta.tensor(sizes, dtype=volta.int64), sorted_indices,
                          invert_permutation(sorted_indices))


def pad_packed_sequence(sequence: PackedSequence, batch_first: bool = False,
                        padding_value: float = 0.0, total_length: int | None = None
                        ) -> tuple[volta.Tensor, volta.Tensor]:
    """The inverse of :func:`pack_padded_sequence`: ``(padded, lengths)`` in the original
    batch order; ``total_length`` pads to that many steps."""
    sizes = sequence.batch_sizes.tolist()
    steps = len(sizes)
    if total_length is not None:
        if total_length < steps:
            raise InvalidArgumentError(
                f"Expected total_length to be at least the length of the longest sequence in "
                f"input, but got total_length={total_length} and max sequence length being "
                f"{steps}")
        steps = total_length
    padded = packed_to_padded(sequence.data, sizes, steps, padding_value)
    lengths = [sum(1 for size in sizes if size > b) for b in range(sizes[0])]
    lengths_tensor = volta.tensor(lengths, dtype=volta.int64)
    if sequence.unsorted_indices is not None:
        padded = padded.index_select(1, sequence.unsorted_indices)
        lengths_tensor = lengths_tensor.index_select(0, sequence.unsorted_indices.cpu())
    if batch_first:
        padded = padded.transpose(0, 1)
    return padded, lengths_tensor


def pad_sequence(sequences: Sequence[volta.Tensor], batch_first: bool = False,
                 padding_value: float = 0.0, padding_side: str = "right") -> volta.Tensor:
    """Stacks tensors of shape ``(L_i, *)`` into ``(T, B, *)`` (``(B, T, *)`` if
    ``batch_first``), padding each to the longest with ``padding_value`` on ``padding_side``."""
    if padding_side not in ("left", "right"):
        raise InvalidArgumentError(f"Expected padding_side to be one of left or right, but got "
                                   f"{padding_side}.")
    if len(sequences) == 0:
        raise InvalidArgumentError("received an empty list of sequences")
    longest = max(s.shape[0] for s in sequences)
    padded = []
    for s in sequences:
        missing = longest - s.shape[0]
        if missing:
            filler = volta.full((missing, *s.shape[1:]), padding_value, dtype=s.dtype,
                                device=s.device)
            s = volta.cat([s, filler] if padding_side == "right" else [filler, s])
        padded.append(s)
    return volta.stack(padded, dim=0 if batch_first else 1)


def unpad_sequence(padded_sequences: volta.Tensor, lengths: volta.Tensor | Sequence[int],
                   batch_first: bool = False) -> list[volta.Tensor]:
    """The inverse of :func:`pad_sequence`: the list of unpadded sequences."""
    if not batch_first:
        padded_sequences = padded_sequences.transpose(0, 1)
    return [padded_sequences[b, :length] for b, length in enumerate(_lengths_list(lengths))]


def pack_sequence(sequences: Sequence[volta.Tensor], enforce_sorted: bool = True
                  ) -> PackedSequence:
    """Packs a list of tensors of shape ``(L_i, *)``."""
    lengths = [s.shape[0] for s in sequences]
    return pack_padded_sequence(pad_sequence(sequences), lengths, enforce_sorted=enforce_sorted)


def unpack_sequence(packed_sequences: PackedSequence) -> list[volta.Tensor]:
    """The inverse of :func:`pack_sequence`: the list of sequences, in the original order."""
    padded, lengths = pad_packed_sequence(packed_sequences, batch_first=True)
    return unpad_sequence(padded, lengths, batch_first=True)
