"""Accumulating scatters (``out[index] += values``) without numpy's slow ``np.add.at`` paths.

The backward of every gathering op (gather, index_select, ``tensor[index]``, embedding) is an
accumulating scatter. ``np.add.at`` handles repeated indices, but over several index arrays or
over whole rows it runs one element at a time, 30-100x slower than a vector loop. Two shapes of
the problem have fast numpy forms:

* whole rows (``index_add`` along a dimension): rows whose indices are all distinct add through
  one fancy-indexed ``+=``; repeated indices are taken in rounds, round ``r`` adding each index's
  ``r``-th occurrence, so every round's indices are distinct;
* single elements (``scatter_add``): one flat index per element and the 1-d ``np.add.at``,
  which numpy runs as a vector loop.
"""

from __future__ import annotations

from typing import Any

import numpy as np

MAX_ROUNDS = 8  # beyond this many repeats of one index, the per-element add.at is cheaper


def add_rows(out: np.ndarray, index: np.ndarray, rows: np.ndarray, zeros: bool = False) -> None:
    """``out[index[i]] += rows[i]`` for every ``i``, repeated indices accumulating; ``index`` is
    1-d and non-negative, ``out`` and ``rows`` have the same trailing shape and dtype. With
    ``zeros`` (``out`` holds only zeros) each index's first row is written, not added: one
    pass over ``out``'s rows fewer."""
    n = index.size
    if n == 0:
        return
    order = np.argsort(index, kind="stable")
    ordered = index[order]
    starts = np.empty(n, np.bool_)
    starts[0] = True
    np.not_equal(ordered[1:], ordered[:-1], out=starts[1:])
    if starts.all():
        if zeros:
            out[index] = rows
        else:
            out[index] += rows
        return
    # rank of each occurrence among the equal indices before it (in sorted order)
    heads = np.flatnonzero(starts)
    rank = np.arange(n) - np.repeat(heads, np.diff(np.append(heads, n)))
    rounds = int(rank.max()) + 1
    if rounds > MAX_ROUNDS:
        np.add.at(out, index, rows)
        return
    for r in range(rounds):
        chosen = order[rank == r]
        if r == 0 and zeros:
            out[index[chosen]] = rows[chosen]
        else:
            out[index[chosen]] += rows[chosen]


def flat_positions(array: np.ndarray, positions: tuple[Any, ...]) -> np.ndarray:
    """The offsets into C-contiguous ``array``'s flat memory of ``array[positions]`` (integer
    arrays, non-negative, broadcasting together)."""
    flat = None
    for axis_positions, stride in zip(positions, array.strides):
        step = stride // array.itemsize
        term = axis_positions if step == 1 else axis_positions * step  # no pass for a unit step
        flat = term if flat is None else flat + term
    return np.zeros((), np.int64) if flat is None else flat


def take_elements(array: np.ndarray, positions: tuple[Any, ...]) -> np.ndarray:
    """``array[positions]`` (see ``flat_positions``): one 1-d take, several times faster than
    numpy's indexing with several index arrays."""
    if not array.flags.c_contiguous:
        return array[positions]
    return np.take(array.reshape(-1), flat_positions(array, positions))


def add_elements(out: np.ndarray, positions: tuple[Any, ...], values: np.ndarray) -> None:
    """``out[positions] += values`` with repeats accumulating; ``out`` is C-contiguous and
    ``positions`` are integer arrays (non-negative) that broadcast to ``values``' shape."""
    flat = np.broadcast_to(flat_positions(out, positions), values.shape)
    np.add.at(out.reshape(-1), flat.reshape(-1), values.reshape(-1))
