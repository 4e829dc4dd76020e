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

Where the compiled kernels are built (native/copy.c), the common cases run there instead, split
over the threads: rows taken by an index along dim 0 (index_select, embedding) and their sums
back (``out[index] += rows``, each thread owning a band of columns, so the sums do not depend on
the thread count), and gather along the last dim of a matrix with its scatter-add. Each returns
None or False where it does not apply (and for an index out of range: Note [checked indices] in
copy.c), and the caller runs the numpy code.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from volta.backends.cpu import native

_native = native.kernels("copy")
_RAW = {1: np.dtype(np.uint8), 2: np.dtype(np.uint16), 4: np.dtype(np.uint32),
        8: np.dtype(np.uint64)}
_INT64 = np.dtype(np.int64)
_SUMMED = (np.dtype(np.float32), np.dtype(np.float64))  # dtypes the compiled adds take

MAX_ROUNDS = 8  # beyond this many repeats of one index, the per-element add.at is cheaper


def add_rows(out: np.ndarray, index: np.ndarray, rows: np.ndarray, zeros: bool = False) -> None:
    """``out[index[i]] += rows[i]`` for every ``i``, repeated indices accumulating; ``index`` is
    1-d and non-negative, ``out`` and ``rows`` have the same trailing shape and dtype. With
    ``zeros`` (``out`` holds only zeros) each index's first row is written, not added: one
    pass over ``out``'s rows fewer."""
    n = index.size
    if n == 0 or add_rows_native(out, index, rows):
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


def _raw(a: np.ndarray) -> np.ndarray:
    """``a`` as the buffer protocol takes it: numpy's own dtypes as they are, others (bfloat16)
    as unsigned integers of their size."""
    return a if a.dtype.isbuiltin == 1 else a.view(_RAW[a.itemsize])  # 2: a registered type


def take_rows(a: np.ndarray, index: np.ndarray) -> np.ndarray | None:
    """``a[index]`` along dim 0 (rows of any dtype) for a C-contiguous ``a`` of at least one dim
    and a 1-d int64 ``index``; None where the compiled kernel is not built, does not apply, or an
    index is out of range."""
    if (_native is None or a.ndim == 0 or index.dtype != _INT64 or index.ndim != 1
            or not (a.flags.c_contiguous and index.flags.c_contiguous)
            or a.itemsize not in _RAW):
        return None
    out = np.empty((index.size,) + a.shape[1:], a.dtype)
    if not _native.take_rows(_raw(a), index, _raw(out), a.shape[0], native.threads()):
        return None
    return out


def gather_last(a: np.ndarray, index: np.ndarray) -> np.ndarray | None:
    """``gather(a, -1, index)`` for a C-contiguous 2-d ``a`` of 4- or 8-byte items and a 2-d
    int64 ``index`` of no more rows; None where it does not apply or an index is out of range."""
    if (_native is None or a.ndim != 2 or index.ndim != 2 or index.dtype != _INT64
            or a.itemsize not in (4, 8) or index.shape[0] > a.shape[0] or a.shape[1] == 0
            or not (a.flags.c_contiguous and index.flags.c_contiguous)):
        return None
    out = np.empty(index.shape, a.dtype)
    if not _native.gather_rows(_raw(a), index, _raw(out), a.shape[1], native.threads()):
        return None
    return out


def summable(values: np.ndarray) -> bool:
    """Whether the compiled adds take ``values`` (built, float32/float64, C-contiguous)."""
    return _native is not None and values.dtype in _SUMMED and values.flags.c_contiguous


def add_rows_native(out: np.ndarray, index: np.ndarray, rows: np.ndarray) -> bool:
    """``out[index[i]] += rows[i]`` along dim 0 in a fixed order (``add_rows``' contract, for
    float32/float64 C-contiguous arrays and a 1-d int64 index); False (nothing written) where it
    does not apply or an index is out of range."""
    if (_native is None or out.dtype not in _SUMMED or rows.dtype != out.dtype
            or index.dtype != _INT64 or index.ndim != 1 or out.ndim == 0 or out.shape[0] == 0
            or not (out.flags.c_contiguous and rows.flags.c_contiguous
                    and index.flags.c_contiguous)):
        return False
    return _native.index_add_rows(out, index, rows, out.shape[0], native.threads())


def scatter_add_last(out: np.ndarray, index: np.ndarray, values: np.ndarray) -> bool:
    """``out[i, index[i, j]] += values[i, j]`` (gather_last's backward) in a fixed order, for
    float32/float64 C-contiguous 2-d arrays and int64 index; False (nothing written) where it
    does not apply or an index is out of range."""
    if (_native is None or out.dtype not in _SUMMED or values.dtype != out.dtype
            or out.ndim != 2 or index.ndim != 2 or index.dtype != _INT64
            or values.shape != index.shape or index.shape[0] > out.shape[0]
            or out.shape[1] == 0
            or not (out.flags.c_contiguous and values.flags.c_contiguous
                    and index.flags.c_contiguous)):
        return False
    return _native.scatter_add_rows(out, index, values, out.shape[1], native.threads())


def select_masked(a: np.ndarray, mask: np.ndarray) -> np.ndarray | None:
    """``a[mask]`` for a boolean ``mask`` of ``a``'s shape (both C-contiguous), by the compiled
    kernel over the threads; None where it does not apply."""
    if (_native is None or mask.dtype != np.bool_ or mask.shape != a.shape or a.ndim == 0
            or a.itemsize not in _RAW
            or not (a.flags.c_contiguous and mask.flags.c_contiguous)):
        return None
    out = np.empty(np.count_nonzero(mask), a.dtype)
    if not _native.mask_select(_raw(a), mask, _raw(out), native.threads()):
        return None
    return out


def add_masked(out: np.ndarray, mask: np.ndarray, values: np.ndarray) -> bool:
    """``out[mask] += values`` for a boolean ``mask`` of ``out``'s shape and 1-d ``values`` of
    ``out``'s float dtype (all C-contiguous); False (nothing written) where it does not apply."""
    if (type(mask) is not np.ndarray or not summable(values) or out.dtype != values.dtype
            or mask.dtype != np.bool_
            or mask.shape != out.shape or values.ndim != 1 or out.ndim == 0
            or not (out.flags.c_contiguous and mask.flags.c_contiguous)):
        return False
    return _native.mask_add(out, mask, values, native.threads())
