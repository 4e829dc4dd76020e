"""Row-major copies of transposed arrays, cache-blocked (``t().contiguous()`` and the like).

numpy copies ``a.T`` into a row-major array by walking the output in order, which reads the
source one element per cache line: a 256 x 1024 float32 matrix takes ~5x PyTorch's time. Copying
the output's columns in bands of ``B`` instead (``out[..., j:j + B] = a[..., j:j + B]``) makes
each band's inner loop read ``B`` source rows side by side, whose cache lines stay in L1 while the
next 64 bytes of each are read: 3-10x faster than the plain copy once the array is large.

Large copies split their first axis over the CPU threads (parallel.py): a strided copy waits on
memory element by element, so two cores copy nearly twice as fast.

Where the compiled kernels are built, ``copy_into`` does all of this in C instead
(native/copy.c): dims merged, rows copied with memcpy, transposed pairs in tiles, split over
the threads, for any dtype (by item size); the numpy code above is the fallback.
"""

from __future__ import annotations

import math
from collections.abc import Callable

import numpy as np

from volta.backends.cpu import native, parallel

_native = native.kernels("copy")
# numpy views of one item size as plain unsigned integers: the buffer protocol takes every
# dtype as one of these (ml_dtypes' bfloat16 has no buffer format of its own)
_BITS = {1: np.dtype(np.uint8), 2: np.dtype(np.uint16), 4: np.dtype(np.uint32),
         8: np.dtype(np.uint64)}
_MAX_DIMS = 16  # native/copy.c's limit
MAX_NATIVE_PARTS = 16  # native/copy.c's copy_parts limit: more go to numpy's concatenate


def copy_into(source: np.ndarray, dest: np.ndarray) -> bool:
    """``dest[...] = source`` by the compiled kernel, for two arrays of one shape and dtype whose
    memory does not overlap; False (nothing copied) where it is not built or does not apply."""
    if _native is None or source.ndim > _MAX_DIMS:
        return False
    bits = _BITS.get(source.itemsize)
    if bits is None:
        return False
    if source.dtype.isbuiltin != 1:  # numpy's own dtypes have buffer formats (2: registered)
        source = source.view(bits)
        dest = dest.view(bits)
    _native.copy(source, dest, native.threads())
    return True

MIN_ELEMENTS = 1 << 15  # below this the plain copy is as fast (measured: 128 x 128 is a tie)
BAND_ELEMENTS = 8192  # elements copied per band: fewer bands cost Python calls, more miss cache
MIN_BAND, MAX_BAND = 8, 256  # 8 rows: a cache line per row; 256 rows of lines still fit in L1


def _band_width(rows: int) -> int:
    """Columns per band: about ``BAND_ELEMENTS`` elements, a power of two within the limits."""
    width = max(1, BAND_ELEMENTS // max(rows, 1))
    return min(MAX_BAND, max(MIN_BAND, 1 << (width.bit_length() - 1)))


def is_one_value(a: np.ndarray) -> bool:
    """Whether every element of a non-empty ``a`` is one memory location: a one-element array,
    or a scalar broadcast (stride 0 along every dim longer than 1), as a sum's backward hands
    on its gradient. The compiled kernels take it as a single number."""
    return a.size > 0 and all(stride == 0 or size == 1 for size, stride in zip(a.shape, a.strides))


def is_transposed(a: np.ndarray) -> bool:
    """Whether ``a`` reads its second-to-last axis contiguously but not its last one (a
    transposed matrix, or a batch of them), and is large enough for bands to pay."""
    if a.ndim < 2 or a.size < MIN_ELEMENTS:
        return False
    item = a.itemsize
    return a.strides[-2] == item and a.strides[-1] > item and a.shape[-1] > _band_width(
        a.shape[-2])


def copy_transposed(a: np.ndarray, out: np.ndarray | None = None) -> np.ndarray:
    """``a`` copied into ``out`` (a new row-major array when None) band by band; for an ``a``
    that ``is_transposed`` (any other array is copied in one go)."""
    if out is None:
        out = np.empty(a.shape, dtype=a.dtype)
    if not is_transposed(a):
        np.copyto(out, a, casting="unsafe")
        return out
    width = _band_width(a.shape[-2])

    def copy_bands(source: np.ndarray, dest: np.ndarray) -> None:
        for start in range(0, source.shape[-1], width):
            np.copyto(dest[..., start:start + width], source[..., start:start + width],
                      casting="unsafe")

    _over_first_axis(copy_bands, a, out)
    return out


def concatenate(arrays: list[np.ndarray], axis: int) -> np.ndarray:
    """``np.concatenate(arrays, axis)`` for arrays of one dtype: the parts copied into their
    slices of the result by one call of the compiled copy (its threads sharing all the parts'
    bytes) where it is built; numpy's otherwise, and for more parts than that call takes."""
    first = arrays[0]
    if (_native is None or len(arrays) > MAX_NATIVE_PARTS or first.itemsize not in _BITS
            or first.ndim > _MAX_DIMS):
        return np.concatenate(arrays, axis=axis)
    shape = list(first.shape)
    shape[axis] = sum(a.shape[axis] for a in arrays)
    out = np.empty(shape, first.dtype)
    bits = None if first.dtype.isbuiltin == 1 else _BITS[first.itemsize]
    target = out if bits is None else out.view(bits)
    index: list[slice] = [slice(None)] * first.ndim
    sources, slices = [], []
    offset = 0
    for a in arrays:
        size = a.shape[axis]
        index[axis] = slice(offset, offset + size)
        sources.append(a if bits is None else a.view(bits))
        slices.append(target[tuple(index)])
        offset += size
    _native.copy_parts(tuple(sources), tuple(slices), native.threads())
    return out


def copy_c_order(a: np.ndarray) -> np.ndarray:
    """A C-contiguous copy of ``a``: the compiled copy, or bands for a transposed ``a``, else
    numpy's copy, split over the threads when ``a`` is large and strided."""
    if _native is None and is_transposed(a):
        return copy_transposed(a)
    out = np.empty(a.shape, dtype=a.dtype)
    if copy_into(a, out):
        return out
    if a.flags.c_contiguous or a.ndim == 0:
        np.copyto(out, a)  # one memcpy: memory bound, a second thread adds little
    else:
        _over_first_axis(lambda source, dest: np.copyto(dest, source), a, out)
    return out


def _over_first_axis(copy: Callable[[np.ndarray, np.ndarray], object], a: np.ndarray,
                     out: np.ndarray) -> None:
    """``copy(a[i:j], out[i:j])`` over shares of the first axis, on the threads at once."""
    if a.ndim < 2:
        copy(a, out)
        return
    row = math.prod(a.shape[1:])
    parallel.parallel_for(a.shape[0], lambda i, j: copy(a[i:j], out[i:j]),
                          parallel.min_share(4 * row))  # a strided element costs a few passes
