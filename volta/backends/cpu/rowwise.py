"""Row-wise reductions and scans of C-contiguous float arrays through BLAS.

numpy's float reductions along the last axis run one pairwise sum per row, several times slower
than a BLAS matrix-vector product with a vector of ones, which also uses every BLAS thread. So a
reduction over the trailing dims of a C-contiguous float32/float64 array is ``rows @ ones``, one
over the leading dims ``ones @ rows``, a row-wise dot product is a batched matmul, and a cumsum
along the last dim is a product with a small triangular matrix per block of columns. On these
sit the row kernels of softmax, log_softmax, logsumexp and layer norm (forward and backward),
and batch norm's per-channel sums over (N, C, L) planes. Each helper returns ``None`` where its
fast path does not apply (other dtypes, other layouts, empty arrays); the caller then runs
plain numpy. These numpy paths do not split rows over threads: on the 2-core test machine a
hand-off to a second Python worker measured slower, not faster (BLAS still uses its own threads).

Accuracy (Note [BLAS row sums]): one BLAS dot product adds its terms in a handful of SIMD lanes,
each lane in sequence, so its rounding error grows with the row length, unlike numpy's pairwise
sum (for 1024 float32 normals, about twice numpy's error, at PyTorch's test tolerance). So
``sum`` and ``mean`` add blocks of ``BLOCK`` terms through BLAS and those blocks' sums again,
which is about as accurate as numpy; one dot product per row serves where length does not hurt:
sums of positive terms (softmax) and sums divided by the row length (normalisations).

float32 and float64 rows go to the compiled kernels of ``native/rowwise.c`` where they are built:
one pass per row instead of several numpy calls, rows split over OpenMP threads (a hand-off of a
few microseconds); other layouts and a build without them keep the numpy and BLAS code below.
"""

from __future__ import annotations

import functools
import math
from types import ModuleType

import numpy as np

from volta.backends.cpu import native
from volta.backends.cpu.exp2_math import exp_scaled

FLOATS = (np.dtype(np.float32), np.dtype(np.float64))
BLOCK = 128  # terms per BLAS dot product where the sum's accuracy matters
SCAN_BLOCK = 16  # columns per triangular block of the cumsum (16 measured faster than 32, 64)


@functools.lru_cache(maxsize=64)
def _ones(n: int, dtype: np.dtype) -> np.ndarray:
    ones = np.ones(n, dtype)
    ones.flags.writeable = False
    return ones


@functools.lru_cache(maxsize=16)
def _upper_ones(n: int, dtype: np.dtype) -> np.ndarray:
    """(n, n) with ones on and above the diagonal: ``row @ it`` is the row's running sum."""
    upper = np.triu(np.ones((n, n), dtype))
    upper.flags.writeable = False
    return upper


def compiled(*arrays: np.ndarray | None) -> ModuleType | None:
    """The compiled row kernels where the arrays given are C-contiguous and all float32 or all
    float64 (None entries are absent optional arrays), else None (the numpy path runs)."""
    dtype = None
    for a in arrays:
        if a is None:
            continue
        if dtype is None:
            dtype = a.dtype
        if a.dtype != dtype or dtype not in FLOATS or not a.flags.c_contiguous:
            return None
    return native.kernels("rowwise")


def blas_ready(a: np.ndarray) -> bool:
    """Whether ``a`` is a non-empty C-contiguous float32/float64 array (the fast paths' input)."""
    return a.dtype in FLOATS and a.size > 0 and a.flags.c_contiguous


def row_sums(rows: np.ndarray) -> np.ndarray:
    """The sum of each row of a 2-D float array (C-contiguous), in its dtype: one BLAS dot
    product per row, for sums whose accuracy does not suffer from their length (sums of
    positive terms, or means scaled down by the row length; Note [BLAS row sums])."""
    return rows @ _ones(rows.shape[1], rows.dtype)


@functools.lru_cache(maxsize=256)
def _block_length(width: int) -> int:
    """The longest divisor of ``width`` up to ``BLOCK`` that is at least ``BLOCK // 4``
    (the length of the column blocks a row is summed in), or ``width`` where there is none."""
    for length in range(BLOCK, BLOCK // 4 - 1, -1):
        if width % length == 0:
            return length
    return width


def blocked_row_sums(rows: np.ndarray) -> np.ndarray | None:
    """The sum of each row of a 2-D float array (C-contiguous), about as accurate as numpy's
    pairwise sum: BLAS sums of blocks of up to ``BLOCK`` columns, then sums of those (Note
    [BLAS row sums]). None where the row length has no such blocks and is long."""
    count, width = rows.shape
    if width <= BLOCK:
        return row_sums(rows)
    length = _block_length(width)
    if length == width:
        return row_sums(rows) if width <= 8 * BLOCK else None
    partial = (rows.reshape(-1, length) @ _ones(length, rows.dtype)).reshape(count, -1)
    return blocked_row_sums(partial)


def column_sums(rows: np.ndarray) -> np.ndarray:
    """The sum of each column of a 2-D float array (C-contiguous), in its dtype, in blocks of
    ``BLOCK`` rows as ``blocked_row_sums``."""
    count, width = rows.shape
    if count <= BLOCK:
        return _ones(count, rows.dtype) @ rows
    whole = count - count % BLOCK
    head = rows[:whole].reshape(whole // BLOCK, BLOCK, width)
    sums = column_sums(np.matmul(_ones(BLOCK, rows.dtype), head))
    if whole != count:
        sums += column_sums(rows[whole:])
    return sums


def weighted_column_sums(rows: np.ndarray, weights: np.ndarray) -> np.ndarray:
    """``(rows * weights[:, None]).sum(0)`` of a 2-D float array (C-contiguous), without the
    product: ``weights @ rows`` in blocks of ``BLOCK`` rows, as ``column_sums``."""
    count, width = rows.shape
    if count <= BLOCK:
        return weights @ rows
    whole = count - count % BLOCK
    head = rows[:whole].reshape(whole // BLOCK, BLOCK, width)
    sums = column_sums(np.matmul(weights[:whole].reshape(-1, 1, BLOCK), head)
                       .reshape(whole // BLOCK, width))
    if whole != count:
        sums += weighted_column_sums(rows[whole:], weights[whole:])
    return sums


def total(a: np.ndarray) -> np.ndarray:
    """The 0-d sum of a C-contiguous float array: BLAS sums of blocks, added pairwise."""
    flat = a.reshape(-1)
    whole = flat.size - flat.size % BLOCK
    if whole == 0:
        return np.asarray(np.add.reduce(flat), a.dtype)
    result = np.add.reduce(flat[:whole].reshape(-1, BLOCK) @ _ones(BLOCK, a.dtype))
    if whole != flat.size:
        result = result + np.add.reduce(flat[whole:])
    return np.asarray(result, a.dtype)


def row_dots(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """``sum(a * b, axis=1)`` of two 2-D arrays of one shape, as a batch of dot products."""
    return (a[:, None, :] @ b[:, :, None]).reshape(a.shape[0])


def squared_total(a: np.ndarray) -> np.ndarray:
    """The 0-d sum of squares of a C-contiguous float array (positive terms: longer blocks)."""
    flat = a.reshape(-1)
    length = 8 * BLOCK
    whole = flat.size - flat.size % length
    if whole == 0:
        return np.asarray(np.dot(flat, flat), a.dtype)
    blocks = flat[:whole].reshape(-1, length)
    result = np.add.reduce(row_dots(blocks, blocks))
    if whole != flat.size:
        tail = flat[whole:]
        result = result + np.dot(tail, tail)
    return np.asarray(result, a.dtype)


TOTAL, ROWS, COLUMNS = "total", "rows", "columns"


@functools.lru_cache(maxsize=1024)
def _plan(shape: tuple[int, ...], axes: tuple[int, ...] | None, keepdim: bool
          ) -> tuple[str, int, int, tuple[int, ...]] | None:
    """How to reduce ``axes`` of a C-contiguous array of ``shape`` as a matrix: (TOTAL, ...),
    (ROWS, rows, columns, ...) when ``axes`` are the trailing dims, (COLUMNS, ...) when they
    are the leading dims, with the result's shape; None otherwise. Cached: a training step
    reduces the same shapes again and again."""
    ndim = len(shape)
    reduced = tuple(range(ndim)) if axes is None else tuple(sorted(set(axes)))
    kept = tuple(1 if d in reduced else n for d, n in enumerate(shape))
    out_shape = kept if keepdim else tuple(n for d, n in enumerate(shape) if d not in reduced)
    split = ndim - len(reduced)
    if reduced == tuple(range(split, ndim)):
        rows, columns = math.prod(shape[:split]), math.prod(shape[split:])
        return (TOTAL if rows == 1 else ROWS), rows, columns, out_shape
    split = len(reduced)
    if reduced == tuple(range(split)):
        rows, columns = math.prod(shape[:split]), math.prod(shape[split:])
        return (TOTAL if columns == 1 else COLUMNS), rows, columns, out_shape
    return None


def sum_over(a: np.ndarray, axes: tuple[int, ...] | None, keepdim: bool) -> np.ndarray | None:
    """``np.sum(a, axes, keepdims=keepdim)`` in ``a``'s dtype through BLAS, or None where the
    fast path does not apply (see the module docstring)."""
    if not a.ndim or not blas_ready(a):
        return None
    plan = _plan(a.shape, axes, keepdim)
    if plan is None:
        return None
    kind, rows, columns, out_shape = plan
    kernels = compiled(a)
    if kernels is not None and kind is not COLUMNS:
        return _compiled_sum(kernels, a, kind, rows, columns, out_shape, mean=False)
    if kind is TOTAL:
        result = total(a)
    elif kind is ROWS:
        result = blocked_row_sums(a.reshape(rows, columns))
        if result is None:
            return None
    else:
        result = column_sums(a.reshape(rows, columns))
    return result.reshape(out_shape)


def _compiled_sum(kernels: ModuleType, a: np.ndarray, kind: str, rows: int, columns: int,
                  out_shape: tuple[int, ...], mean: bool) -> np.ndarray:
    """The sum (mean) of ``a``'s rows or of all of it through the compiled kernels."""
    if kind is TOTAL:
        result = kernels.total(a, native.threads())
        return np.array(result / a.size if mean else result, a.dtype).reshape(out_shape)
    out = np.empty(rows, a.dtype)
    kernels.row_sums(a, out, rows, columns, mean, native.threads())
    return out.reshape(out_shape)


def mean_over(a: np.ndarray, axes: tuple[int, ...] | None, keepdim: bool) -> np.ndarray | None:
    """``np.mean(a, axes, keepdims=keepdim)`` in ``a``'s dtype, or None where the fast path
    does not apply (see ``sum_over``)."""
    if not a.ndim or not blas_ready(a):
        return None
    plan = _plan(a.shape, axes, keepdim)
    if plan is None:
        return None
    kind, rows, columns, out_shape = plan
    kernels = compiled(a)
    if kernels is not None and kind is not COLUMNS:
        return _compiled_sum(kernels, a, kind, rows, columns, out_shape, mean=True)
    result = sum_over(a, axes, keepdim)
    if result is None:  # a non-empty input: the count is positive
        return None
    return np.divide(result, a.size // result.size, out=result)


def row_extrema(a: np.ndarray, largest: bool) -> np.ndarray | None:
    """The max (min) over the last dim of a non-empty C-contiguous float array, NaN where a
    row holds NaN, through the compiled kernels; None where they do not apply."""
    kernels = compiled(a)
    if kernels is None or not a.ndim or not a.size:
        return None
    width = a.shape[-1]
    out = np.empty(a.shape[:-1], a.dtype)
    kernels.row_extrema(a, out, a.size // width, width, largest, native.threads())
    return out


def squared_error(a: np.ndarray, b: np.ndarray, mean: bool) -> np.ndarray | None:
    """The 0-d sum (mean) of ``(a - b) ** 2`` over two non-empty float32 arrays of one shape in
    one pass through the compiled kernels; None where they do not apply."""
    kernels = compiled(a, b)
    if kernels is None or not a.size or a.shape != b.shape:
        return None
    total_ = kernels.squared_error_total(a, b, native.threads())
    return np.array(total_ / a.size if mean else total_, a.dtype)


def last_dim_rows(a: np.ndarray, dim: int) -> np.ndarray | None:
    """``a`` as (rows, a.shape[dim]) when ``dim`` is its last dim and it is BLAS-ready."""
    if a.ndim == 0 or dim != a.ndim - 1 or not blas_ready(a):
        return None
    return a.reshape(-1, a.shape[-1])


def cumsum_native(a: np.ndarray, dim: int, reverse: bool = False) -> np.ndarray | None:
    """The running sums of ``a`` along ``dim`` (from its end where ``reverse``: cumsum's
    backward) by the compiled scan, or None where it does not apply (not built, not a
    C-contiguous float32/float64 array, 0-d)."""
    kernels = native.kernels("scan")
    if (kernels is None or a.ndim == 0 or a.dtype not in (np.float32, np.float64)
            or not a.flags.c_contiguous):
        return None
    out = np.empty_like(a)
    outer = math.prod(a.shape[:dim])
    inner = math.prod(a.shape[dim + 1:])
    kernels.cumsum(a, out, outer, a.shape[dim], inner, reverse, native.threads())
    return out


def cumsum_rows(rows: np.ndarray) -> np.ndarray:
    """The running sum along each row of a 2-D float array (C-contiguous), in its dtype:
    in-block running sums as one product with a triangular matrix, then each block's offset
    (the running sum of the blocks' totals before it) added, spread over its block by
    ``np.repeat`` (a broadcast over blocks of 16 would run numpy's loop once per block)."""
    count, width = rows.shape
    whole = width - width % SCAN_BLOCK
    if not whole:
        return np.cumsum(rows, axis=1)
    blocks = whole // SCAN_BLOCK
    upper = _upper_ones(SCAN_BLOCK, rows.dtype)
    if whole == width:  # one 2-D GEMM
        out = (rows.reshape(-1, SCAN_BLOCK) @ upper).reshape(count, width)
    else:
        out = np.empty_like(rows)
        np.matmul(rows[:, :whole].reshape(count, blocks, SCAN_BLOCK), upper,
                  out=out[:, :whole].reshape(count, blocks, SCAN_BLOCK))
    if blocks > 1:
        totals = out[:, :whole].reshape(count, blocks, SCAN_BLOCK)[:, :-1, -1]
        offsets = np.zeros((count, blocks), rows.dtype)
        # the blocks' offsets summed in float64, as PyTorch accumulates its scans
        offsets[:, 1:] = np.add.accumulate(totals, axis=1, dtype=np.float64)
        out[:, :whole] += np.repeat(offsets, SCAN_BLOCK).reshape(count, whole)
    if whole != width:
        np.cumsum(rows[:, whole:], axis=1, out=out[:, whole:])
        out[:, whole:] += out[:, whole - 1:whole]
    return out


def squared_sum_over(a: np.ndarray, axes: tuple[int, ...] | None, keepdim: bool
                     ) -> np.ndarray | None:
    """``np.sum(a * a, axes, keepdims=keepdim)`` through BLAS dot products when ``axes`` are
    every dim or the trailing dims of a BLAS-ready ``a``; else None."""
    if not a.ndim or not blas_ready(a):
        return None
    plan = _plan(a.shape, axes, keepdim)
    if plan is None or plan[0] is COLUMNS:
        return None
    kind, rows, columns, out_shape = plan
    if kind is TOTAL:
        result = squared_total(a)
    else:
        matrix = a.reshape(rows, columns)
        result = row_dots(matrix, matrix)
    return result.reshape(out_shape)


# Note [softmax without the shift]: subtracting each row's max keeps exp from overflowing, and
# costs a pass in which numpy broadcasts a column (slow). Where every row's max lies in
# [-SHIFT_FREE, SHIFT_FREE], exp(x) neither overflows (nor do the row sums) nor underflows
# where it matters (an entry whose exp underflows is below exp(-87 + SHIFT_FREE) of its row),
# and exp(x) / sum(exp(x)) is the same softmax, so the shift is skipped.
SHIFT_FREE = 60.0


@np.errstate(invalid="ignore")  # a row of infinities gives nan, as PyTorch's softmax
def softmax_rows(rows: np.ndarray, log: bool) -> np.ndarray:
    """softmax (or log_softmax) of each row of a BLAS-ready 2-D array, in its dtype."""
    kernels = compiled(rows)
    if kernels is not None:
        out = np.empty_like(rows)
        kernels.softmax(rows, out, *rows.shape, log, native.threads())
        return out
    # fmax skips nan (twice as fast as maximum here); a row with a nan is nan either way
    maxima = np.fmax.reduce(rows, axis=1)
    if maxima.min() >= -SHIFT_FREE and maxima.max() <= SHIFT_FREE:  # Note [softmax without...]
        out = np.exp(rows)
        sums = row_sums(out)
        if log:
            return np.subtract(rows, np.log(sums, out=sums)[:, None], out=out)
        out *= np.reciprocal(sums, out=sums)[:, None]
        return out
    shifted = rows - maxima[:, None]
    if log:
        sums = row_sums(np.exp(shifted))
        shifted -= np.log(sums, out=sums)[:, None]
        return shifted
    np.exp(shifted, out=shifted)
    sums = row_sums(shifted)
    shifted *= np.reciprocal(sums, out=sums)[:, None]
    return shifted


@np.errstate(invalid="ignore")
def logsumexp_rows(rows: np.ndarray) -> np.ndarray:
    """log(sum(exp(row))) of each row of a BLAS-ready 2-D array, in its dtype; a row of
    -inf gives -inf, a row with +inf gives +inf and one with nan gives nan, as PyTorch's."""
    kernels = compiled(rows)
    if kernels is not None:
        out = np.empty(rows.shape[0], rows.dtype)
        kernels.logsumexp(rows, out, *rows.shape, native.threads())
        return out
    maxima = np.fmax.reduce(rows, axis=1)
    if maxima.min() >= -SHIFT_FREE and maxima.max() <= SHIFT_FREE:  # Note [softmax without...]
        sums = row_sums(np.exp(rows))
        return np.log(sums, out=sums)
    shift = np.where(np.isfinite(maxima), maxima, 0)
    with np.errstate(divide="ignore"):  # log(0) of a row of -inf is -inf
        sums = row_sums(np.exp(rows - shift[:, None]))
        return np.log(sums, out=sums) + shift


@np.errstate(invalid="ignore", over="ignore")
def softmax_backward_rows(grad: np.ndarray, output: np.ndarray, log: bool) -> np.ndarray:
    """The input gradient of softmax (log_softmax) along rows, from its output's gradient and
    its output, two BLAS-ready 2-D arrays of one shape and dtype."""
    kernels = compiled(grad, output)
    if kernels is not None:
        result = np.empty_like(output)
        kernels.softmax_backward(output, grad, result, *output.shape, log, native.threads())
        return result
    if log:  # grad - exp(output) * sum(grad)
        # probabilities from log-probabilities (<= 0) through exp2: relative error at most
        # |output| * 6e-8, absolute at most 2.2e-8 (Note [float32 exp through exp2])
        result = exp_scaled(output, 1.0)
        result *= row_sums(grad)[:, None]
        return np.subtract(grad, result, out=result)
    result = grad - row_dots(grad, output)[:, None]  # output * (grad - sum(grad * output))
    result *= output
    return result


# a broadcast of a row vector over rows runs numpy's inner loop once per row; repeating the
# vector over a block of rows runs it once per block, about 10 us less for 256 x 1024 float32
# (40 -> 30; a same-shape operation takes 20)
_TILE_ELEMENTS = 8192


def apply_to_rows(ufunc: np.ufunc, rows: np.ndarray, vector: np.ndarray,
                  out: np.ndarray) -> np.ndarray:
    """``ufunc(rows, vector, out=out)`` of C-contiguous 2-D ``rows`` and ``out`` and a vector of
    the row length, with the vector repeated over blocks of rows."""
    count, width = rows.shape
    block = max(1, min(count, _TILE_ELEMENTS // max(width, 1)))
    if block == 1 or count % block:
        return ufunc(rows, vector, out=out)
    ufunc(rows.reshape(-1, block * width), np.tile(vector, block),
          out=out.reshape(-1, block * width))
    return out


def layer_norm_rows(rows: np.ndarray, weight: np.ndarray | None, bias: np.ndarray | None,
                    eps: float) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(output, mean, rstd) of layer norm over each row of a BLAS-ready 2-D array; ``weight``
    and ``bias`` are None or of the row length, in the rows' dtype."""
    kernels = compiled(rows, weight, bias)
    if kernels is not None:
        out = np.empty_like(rows)
        mean, rstd = np.empty((2, rows.shape[0]), rows.dtype)
        kernels.layer_norm(rows, weight, bias, out, mean, rstd, *rows.shape, float(eps),
                           native.threads())
        return out, mean, rstd
    width = rows.shape[1]
    mean = row_sums(rows)
    mean /= width
    out = rows - mean[:, None]
    rstd = row_dots(out, out)
    rstd /= width
    rstd += eps
    np.reciprocal(np.sqrt(rstd, out=rstd), out=rstd)
    out *= rstd[:, None]
    if weight is not None:
        apply_to_rows(np.multiply, out, weight, out)
    if bias is not None:
        apply_to_rows(np.add, out, bias, out)
    return out, mean, rstd


def layer_norm_backward_rows(grad: np.ndarray, rows: np.ndarray, mean: np.ndarray,
                             rstd: np.ndarray, weight: np.ndarray | None,
                             output_mask: tuple[bool, bool, bool]
                             ) -> tuple[np.ndarray | None, np.ndarray | None, np.ndarray | None]:
    """Gradients of ``layer_norm_rows`` for (input, weight, bias): BLAS-ready 2-D ``grad`` and
    ``rows``, per-row ``mean`` and ``rstd`` vectors, all of one dtype."""
    kernels = compiled(grad, rows, mean, rstd, weight)
    if kernels is not None:
        count, width = rows.shape
        grads = (np.empty_like(rows) if output_mask[0] else None,
                 np.empty(width, rows.dtype) if output_mask[1] else None,
                 np.empty(width, rows.dtype) if output_mask[2] else None)
        kernels.layer_norm_backward(grad, rows, mean, rstd, weight, *grads, count, width,
                                    native.threads())
        return grads
    width = rows.shape[1]
    # xhat = centred * rstd is never formed: each use takes rstd into a per-row factor
    centred = rows - mean[:, None]
    grad_bias = column_sums(grad) if output_mask[2] else None
    grad_weight = grad_input = None
    if not output_mask[0]:
        if output_mask[1]:
            grad_weight = weighted_column_sums(grad * centred, rstd)
        return grad_input, grad_weight, grad_bias
    # rstd * (g - mean(g)) - centred * rstd^3 * mean(g * centred) with g = grad * weight; the
    # row sums of g and of g * centred are products of grad and of grad * centred with the
    # weight (BLAS), and grad * centred (the weight's gradient too) is the buffer the input
    # gradient is built in
    scratch = grad * centred
    if output_mask[1]:
        grad_weight = weighted_column_sums(scratch, rstd)
    if weight is None:
        sum_g, sum_g_centred = row_sums(grad), row_sums(scratch)
        grad_input = np.multiply(grad, rstd[:, None], out=scratch)
    else:
        sum_g, sum_g_centred = grad @ weight, scratch @ weight
        grad_input = apply_to_rows(np.multiply, grad, weight, scratch)
        grad_input *= rstd[:, None]
    grad_input -= (rstd * sum_g / width)[:, None]
    centred *= (rstd * rstd * rstd * sum_g_centred / width)[:, None]
    grad_input -= centred
    return grad_input, grad_weight, grad_bias


def channel_sums(planes: np.ndarray) -> np.ndarray | None:
    """The sum over dims 0 and 2 of a C-contiguous (N, C, L) float array: each channel's total
    over the batch and the positions, through BLAS (None where ``blocked_row_sums`` is)."""
    batch, channels, length = planes.shape
    per_plane = blocked_row_sums(planes.reshape(batch * channels, length))
    if per_plane is None:
        return None
    return column_sums(per_plane.reshape(batch, channels))


def channel_dots(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """``sum(a * b)`` over dims 0 and 2 of two C-contiguous (N, C, L) float arrays of one shape,
    without the product's temporary: a dot product per plane, then sums over the batch."""
    batch, channels, length = a.shape
    per_plane = row_dots(a.reshape(batch * channels, length), b.reshape(batch * channels, length))
    return column_sums(per_plane.reshape(batch, channels))
