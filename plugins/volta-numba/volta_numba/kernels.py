"""The numba device's kernels beyond pointwise ops: matmul, reductions, softmax, the fused
SGD step, and the memory ops (copy, fill, clone) that every in-place op and ``.to`` go through.

Each kernel checks its arguments with PyTorch's messages, lays its input out as rows (the
reduced or softmax dimension last, contiguous), and runs a loop compiled by numba. Loops over
whole large tensors (column sums, the SGD step, integer matmul) are parallel (``prange``);
row loops are serial, since compiling a parallel loop costs three times as long and the rows
of nn's reductions and softmaxes are short; float matmul is BLAS, called from numba.
Inputs are read with ``volta.backend.host_view`` (zero-copy: the device is host memory) and
results are written into ``volta.empty(..., device=...)`` tensors.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from typing import Any

import numba
import numpy as np
from numba import prange

import volta
from volta.backend import host_view
from volta.errors import DTypeError, IndexOutOfRangeError, ShapeError
from volta.tensor.checks import check_arg_reduction_dtype, check_reduction_nonempty
from volta_numba.launch import launch

KERNELS: dict[str, Callable[..., Any]] = {}
_jit = numba.njit(cache=True, error_model="numpy")
_pjit = numba.njit(cache=True, parallel=True, error_model="numpy")
_FLOATS = (volta.float32, volta.float64)


def kernel(*names: str) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    def register(fn: Callable[..., Any]) -> Callable[..., Any]:
        for name in names:
            KERNELS[name] = fn
        return fn
    return register


def _dim(dim: int, ndim: int, op: str) -> int:
    """PyTorch's dim wrapping (a 0-d tensor takes dim 0 and -1)."""
    n = max(ndim, 1)
    if not -n <= dim < n:
        raise IndexOutOfRangeError(f"{op}: Dimension out of range (expected to be in range of "
                                   f"[{-n}, {n - 1}], but got {dim})")
    return dim % n


def _dims(dims: Sequence[int] | None, ndim: int, op: str) -> tuple[int, ...]:
    """The reduced dims, all of them for None or []."""
    if dims is None or len(dims) == 0 or ndim == 0:
        for d in dims or ():
            _dim(d, ndim, op)
        return tuple(range(ndim))
    wrapped = tuple(_dim(d, ndim, op) for d in dims)
    if len(set(wrapped)) != len(wrapped):
        raise ShapeError(f"{op}: dim {wrapped[0]} appears multiple times in the list of dims")
    return wrapped


def _rows(x: volta.Tensor, dims: tuple[int, ...], dtype: np.dtype | None = None
          ) -> np.ndarray:
    """``x`` with ``dims`` moved last and flattened: a C-contiguous (rows, n) array."""
    a = host_view(x)
    kept = [d for d in range(a.ndim) if d not in dims]
    a = a.transpose(kept + list(dims))
    n = math.prod(a.shape[len(kept):])
    return np.ascontiguousarray(a, dtype=dtype).reshape(-1, n) if a.size else \
        np.empty((math.prod(a.shape[:len(kept)]), n), dtype=dtype or a.dtype)


def _reduced_shape(shape: tuple[int, ...], dims: tuple[int, ...], keepdim: bool
                   ) -> tuple[int, ...]:
    if keepdim:
        return tuple(1 if d in dims else s for d, s in enumerate(shape))
    return tuple(s for d, s in enumerate(shape) if d not in dims)


def _new(values: np.ndarray, shape: tuple[int, ...], dtype: volta.dtype, like: volta.Tensor
         ) -> volta.Tensor:
    """A tensor on ``like``'s device holding ``values`` (cast to ``dtype``)."""
    out = volta.empty(shape, dtype=dtype, device=like.device)
    if out.numel():
        host_view(out)[...] = values.reshape(shape)
    return out


# -- reductions ----------------------------------------------------------------------------------


@_jit
def _sum_rows(x: np.ndarray, out: np.ndarray) -> None:
    for r in range(x.shape[0]):
        total = out[r]  # starts at 0 in the accumulation dtype (float64 or int64)
        for j in range(x.shape[1]):
            total += x[r, j]
        out[r] = total


@_pjit
def _sum_columns(x: np.ndarray, out: np.ndarray) -> None:
    # x (n, columns): out[c] += sum over n, parallel over blocks of columns
    blocks = (x.shape[1] + 255) // 256
    for block in prange(blocks):
        start = block * 256
        stop = min(start + 256, x.shape[1])
        for i in range(x.shape[0]):
            for c in range(start, stop):
                out[c] += x[i, c]


@_jit
def _extreme_rows(x: np.ndarray, values: np.ndarray, indices: np.ndarray, largest: bool
                  ) -> None:
    # the first extreme element of each row; NaN beats everything, as in PyTorch
    for r in range(x.shape[0]):
        best = x[r, 0]
        where = 0
        for j in range(1, x.shape[1]):
            v = x[r, j]
            if best != best:
                break
            if v != v or (v > best if largest else v < best):
                best = v
                where = j
        values[r] = best
        indices[r] = where


def _accumulator(dtype: volta.dtype) -> np.dtype:
    return np.dtype(np.float64) if dtype.is_floating_point else np.dtype(np.int64)


@kernel("sum")
def sum_(self: volta.Tensor, dim: Sequence[int] | None = None, keepdim: bool = False,
         dtype: volta.dtype | None = None) -> volta.Tensor:
    out_dtype = dtype or (self.dtype if self.dtype.is_floating_point else volta.int64)
    dims = _dims(dim, self.ndim, "sum")
    totals = _sums(self, dims, _accumulator(out_dtype))
    return _new(totals, _reduced_shape(tuple(self.shape), dims, keepdim), out_dtype, self)


def _sums(x: volta.Tensor, dims: tuple[int, ...], accumulator: np.dtype) -> np.ndarray:
    """Sums over ``dims`` in ``accumulator`` precision, one per kept element."""
    a = host_view(x)
    if x.dtype is volta.bool:
        a = a.astype(np.int64)
    leading = dims == tuple(range(len(dims)))
    if leading and 0 < len(dims) < a.ndim and a.flags.c_contiguous and a.size:
        # a bias gradient (sum over the batch): walk the rows in memory order, no transpose
        columns = a.reshape(math.prod(a.shape[:len(dims)]), -1)
        totals = np.zeros(columns.shape[1], dtype=accumulator)
        launch(_sum_columns, a.size, columns, totals)
        return totals
    rows = _rows(x, dims, a.dtype)
    totals = np.zeros(rows.shape[0], dtype=accumulator)
    _sum_rows(rows, totals)
    return totals


@kernel("mean")
def mean(self: volta.Tensor, dim: Sequence[int] | None = None, keepdim: bool = False,
         dtype: volta.dtype | None = None) -> volta.Tensor:
    out_dtype = dtype or self.dtype
    if not out_dtype.is_floating_point:
        raise DTypeError(f"mean(): could not infer output dtype. Input dtype must be either a "
                         f"floating point or complex dtype. Got: {out_dtype.name}")
    dims = _dims(dim, self.ndim, "mean")
    totals = _sums(self, dims, np.dtype(np.float64))
    count = math.prod(self.shape[d] for d in dims)
    with np.errstate(all="ignore"):  # an empty reduction is nan, as in PyTorch
        means = totals / count if count else np.full_like(totals, np.nan)
    return _new(means, _reduced_shape(tuple(self.shape), dims, keepdim), out_dtype, self)


def _extremes(self: volta.Tensor, dims: tuple[int, ...], op: str, largest: bool
              ) -> tuple[np.ndarray, np.ndarray]:
    if self.dtype is volta.bool:
        rows = _rows(self, dims, np.dtype(np.uint8))
    else:
        rows = _rows(self, dims)
    if rows.shape[1] == 0:  # the CPU's error, from the shared check
        check_reduction_nonempty(op, 0, 0, dims[0] if len(dims) == 1 else None)
    values = np.empty(rows.shape[0], dtype=rows.dtype)
    indices = np.empty(rows.shape[0], dtype=np.int64)
    if rows.shape[0]:
        _extreme_rows(rows, values, indices, largest)
    return values, indices


def _all_dims_reduction(op: str, largest: bool) -> Callable[..., volta.Tensor]:
    def reduce_all(self: volta.Tensor) -> volta.Tensor:
        values, _ = _extremes(self, tuple(range(self.ndim)), op, largest)
        return _new(values, (), self.dtype, self)
    reduce_all.__name__ = op
    return reduce_all


KERNELS["max"] = _all_dims_reduction("max", largest=True)
KERNELS["min"] = _all_dims_reduction("min", largest=False)


def _amax_like(op: str, largest: bool) -> Callable[..., volta.Tensor]:
    def reduce(self: volta.Tensor, dim: Sequence[int] = (), keepdim: bool = False
               ) -> volta.Tensor:
        dims = _dims(dim, self.ndim, op)
        values, _ = _extremes(self, dims, op, largest)
        return _new(values, _reduced_shape(tuple(self.shape), dims, keepdim), self.dtype, self)
    reduce.__name__ = op
    return reduce


KERNELS["amax"] = _amax_like("amax", largest=True)
KERNELS["amin"] = _amax_like("amin", largest=False)


def _dim_reduction(op: str, largest: bool) -> Callable[..., tuple[volta.Tensor, volta.Tensor]]:
    def reduce(self: volta.Tensor, dim: int, keepdim: bool = False
               ) -> tuple[volta.Tensor, volta.Tensor]:
        dims = (_dim(dim, self.ndim, op),) if self.ndim else ()
        values, indices = _extremes(self, dims, op, largest)
        shape = _reduced_shape(tuple(self.shape), dims, keepdim)
        return (_new(values, shape, self.dtype, self), _new(indices, shape, volta.int64, self))
    reduce.__name__ = op
    return reduce


KERNELS["max.dim"] = _dim_reduction("max", largest=True)
KERNELS["min.dim"] = _dim_reduction("min", largest=False)


def _arg_reduction(op: str, largest: bool) -> Callable[..., volta.Tensor]:
    def reduce(self: volta.Tensor, dim: int | None = None, keepdim: bool = False
               ) -> volta.Tensor:
        check_arg_reduction_dtype(op, self)
        if dim is None:
            dims = tuple(range(self.ndim))
            shape = (1,) * self.ndim if keepdim else ()
        else:
            dims = (_dim(dim, self.ndim, op),) if self.ndim else ()
            shape = _reduced_shape(tuple(self.shape), dims, keepdim)
        _, indices = _extremes(self, dims, op, largest)
        return _new(indices, shape, volta.int64, self)
    reduce.__name__ = op
    return reduce


KERNELS["argmax"] = _arg_reduction("argmax", largest=True)
KERNELS["argmin"] = _arg_reduction("argmin", largest=False)


# -- softmax -------------------------------------------------------------------------------------


@_jit
def _softmax_rows(x: np.ndarray, out: np.ndarray, log: bool) -> None:
    for r in range(x.shape[0]):
        top = x[r, 0]
        for j in range(1, x.shape[1]):
            if x[r, j] > top or x[r, j] != x[r, j]:
                top = x[r, j]
        total = 0.0
        for j in range(x.shape[1]):
            total += np.exp(x[r, j] - top)
        if log:
            shift = top + np.log(total)
            for j in range(x.shape[1]):
                out[r, j] = x[r, j] - shift
        else:
            for j in range(x.shape[1]):
                out[r, j] = np.exp(x[r, j] - top) / total


@_jit
def _softmax_backward_rows(grad: np.ndarray, output: np.ndarray, out: np.ndarray, log: bool
                           ) -> None:
    for r in range(grad.shape[0]):
        total = 0.0
        for j in range(grad.shape[1]):
            total += grad[r, j] if log else grad[r, j] * output[r, j]
        for j in range(grad.shape[1]):
            if log:
                out[r, j] = grad[r, j] - np.exp(output[r, j]) * total
            else:
                out[r, j] = output[r, j] * (grad[r, j] - total)


def _restore(rows: np.ndarray, like: volta.Tensor, d: int, dtype: volta.dtype) -> volta.Tensor:
    """Rows of the (dim-last) layout back into ``like``'s shape, as a tensor on its device."""
    shape = tuple(like.shape)
    moved = [s for i, s in enumerate(shape) if i != d] + ([shape[d]] if shape else [])
    values = rows.reshape(moved)
    if shape:
        values = np.moveaxis(values, -1, d)
    return _new(values, shape, dtype, like)


def _softmax(op: str, log: bool) -> Callable[..., volta.Tensor]:
    def softmax(self: volta.Tensor, dim: int, dtype: volta.dtype | None = None) -> volta.Tensor:
        out_dtype = dtype or self.dtype
        if out_dtype not in _FLOATS:
            raise DTypeError(f"{op}: not implemented for '{out_dtype.name}'")
        d = _dim(dim, self.ndim, op)
        rows = _rows(self, (d,) if self.ndim else (), out_dtype.numpy)
        out = np.empty_like(rows)
        if rows.size:
            _softmax_rows(rows, out, log)
        return _restore(out, self, d, out_dtype)
    softmax.__name__ = op
    return softmax


def _softmax_backward(op: str, log: bool) -> Callable[..., volta.Tensor]:
    def backward(grad_output: volta.Tensor, output: volta.Tensor, dim: int,
                 input_dtype: volta.dtype) -> volta.Tensor:
        d = _dim(dim, output.ndim, op)
        layout = (d,) if output.ndim else ()
        grad = _rows(grad_output, layout, output.dtype.numpy)
        out_rows = _rows(output, layout)
        out = np.empty_like(out_rows)
        if out.size:
            _softmax_backward_rows(grad, out_rows, out, log)
        return _restore(out, output, d, input_dtype)
    backward.__name__ = op
    return backward


KERNELS["softmax"] = _softmax("softmax", log=False)
KERNELS["log_softmax"] = _softmax("log_softmax", log=True)
KERNELS["_softmax_backward_data"] = _softmax_backward("_softmax_backward_data", log=False)
KERNELS["_log_softmax_backward_data"] = _softmax_backward("_log_softmax_backward_data", log=True)


# -- matmul --------------------------------------------------------------------------------------


@_jit
def _matmul_float(a: np.ndarray, b: np.ndarray, out: np.ndarray) -> None:
    # (batch, n, k) @ (batch, k, m): numba calls BLAS gemm per matrix
    for i in range(a.shape[0]):
        out[i] = np.dot(a[i], b[i])


@_jit
def _matmul_2d(a: np.ndarray, b: np.ndarray, out: np.ndarray) -> None:
    # C- or F-ordered operands go to BLAS as they are: a transposed weight is no copy
    np.dot(a, b, out)


@_pjit
def _matmul_int(a: np.ndarray, b: np.ndarray, out: np.ndarray) -> None:
    # no BLAS for integers: a plain loop, parallel over the rows of every matrix
    for row in prange(a.shape[0] * a.shape[1]):
        i, r = row // a.shape[1], row % a.shape[1]
        for c in range(b.shape[2]):
            total = out[i, r, c]
            for k in range(a.shape[2]):
                total += a[i, r, k] * b[i, k, c]
            out[i, r, c] = total


def _batched_matmul(a: volta.Tensor, b: volta.Tensor, op: str) -> volta.Tensor:
    """PyTorch's matmul for inputs of at least one dimension each (batch dims broadcast)."""
    if a.dtype is not b.dtype:
        raise DTypeError(f"{op}: expected m1 and m2 to have the same dtype, but got: "
                         f"{a.dtype.name} != {b.dtype.name}")
    if a.dtype is volta.bool:
        raise DTypeError(f"{op}: not implemented for 'Bool'")
    x, y = host_view(a), host_view(b)
    x2 = x[None, :] if x.ndim == 1 else x
    y2 = y[:, None] if y.ndim == 1 else y
    if x2.shape[-1] != y2.shape[-2]:
        raise ShapeError(f"{op}: mat1 and mat2 shapes cannot be multiplied "
                         f"({x2.shape[-2]}x{x2.shape[-1]} and {y2.shape[-2]}x{y2.shape[-1]})")
    batch = volta.broadcast_shapes(tuple(x2.shape[:-2]), tuple(y2.shape[:-2]))
    n, k, m = x2.shape[-2], x2.shape[-1], y2.shape[-1]
    if x.ndim == y.ndim == 2 and a.dtype in _FLOATS and k and n and m and all(
            v.flags.c_contiguous or v.flags.f_contiguous for v in (x, y)):
        result = volta.empty((n, m), dtype=a.dtype, device=a.device)
        _matmul_2d(x, y, host_view(result))
        return result
    count = math.prod(batch)
    xs = np.ascontiguousarray(np.broadcast_to(x2, (*batch, n, k))).reshape(count, n, k)
    ys = np.ascontiguousarray(np.broadcast_to(y2, (*batch, k, m))).reshape(count, k, m)
    shape = (*batch, *((n,) if x.ndim > 1 else ()), *((m,) if y.ndim > 1 else ()))
    result = volta.empty(shape, dtype=a.dtype, device=a.device)
    # the result's storage is the (batch, n, m) array the loops write: no copy afterwards
    out = host_view(result).reshape(count, n, m)
    if out.size == 0:
        return result
    if k == 0:
        out[...] = 0
    elif a.dtype in _FLOATS:
        _matmul_float(xs, ys, out)
    else:
        wide = np.zeros(out.shape, dtype=np.int64)
        launch(_matmul_int, wide.size * k, xs.astype(np.int64), ys.astype(np.int64), wide)
        out[...] = wide
    return result


@kernel("matmul")
def matmul(self: volta.Tensor, other: volta.Tensor) -> volta.Tensor:
    if self.ndim == 0 or other.ndim == 0:
        raise ShapeError(f"both arguments to matmul need to be at least 1D, but they are "
                         f"{self.ndim}D and {other.ndim}D")
    return _batched_matmul(self, other, "matmul")


@kernel("mm")
def mm(self: volta.Tensor, mat2: volta.Tensor) -> volta.Tensor:
    if self.ndim != 2 or mat2.ndim != 2:
        raise ShapeError(f"mm: expected 2D tensors, got {self.ndim}D and {mat2.ndim}D")
    return _batched_matmul(self, mat2, "mm")


@kernel("bmm")
def bmm(self: volta.Tensor, mat2: volta.Tensor) -> volta.Tensor:
    if self.ndim != 3 or mat2.ndim != 3:
        raise ShapeError(f"bmm: batch1 must be a 3D tensor and batch2 a 3D tensor, got "
                         f"{self.ndim}D and {mat2.ndim}D")
    if self.shape[0] != mat2.shape[0]:
        raise ShapeError(f"bmm: batch sizes differ ({self.shape[0]} and {mat2.shape[0]})")
    return _batched_matmul(self, mat2, "bmm")


@kernel("addmm")
def addmm(self: volta.Tensor, mat1: volta.Tensor, mat2: volta.Tensor, beta: Any = 1,
          alpha: Any = 1) -> volta.Tensor:
    product = mm(mat1, mat2)
    if alpha != 1:
        product = product * alpha
    if beta == 0:  # self is ignored, NaNs included, as in PyTorch
        return product.expand(volta.broadcast_shapes(tuple(self.shape),
                                                     tuple(product.shape))).contiguous()
    return product + (self * beta if beta != 1 else self)


@kernel("linear")
def linear(input: volta.Tensor, weight: volta.Tensor, bias: volta.Tensor | None = None
           ) -> volta.Tensor:
    if weight.ndim != 2 and weight.ndim != 1:
        raise ShapeError(f"linear: weight must be 1-D or 2-D, got {weight.ndim}-D")
    out = matmul(input, weight.t() if weight.ndim == 2 else weight)
    return out + bias if bias is not None else out


# -- the fused SGD step (volta.optim.SGD) ------------------------------------------------------


@_pjit
def _sgd_rows(param: np.ndarray, grad: np.ndarray, buf: np.ndarray, lr: float,
              momentum: float, dampening: float, weight_decay: float, nesterov: bool,
              maximize: bool, first_step: bool, with_buffer: bool) -> None:
    for i in prange(param.shape[0]):
        d = -grad[i] if maximize else grad[i]
        if weight_decay != 0:
            d += weight_decay * param[i]
        if with_buffer:
            b = d if first_step else momentum * buf[i] + (1 - dampening) * d
            buf[i] = b
            d = d + momentum * b if nesterov else b
        param[i] -= lr * d


@kernel("_sgd_update_")
def sgd_update_(param: volta.Tensor, grad: volta.Tensor, momentum_buffer: volta.Tensor | None,
                lr: float, momentum: float, dampening: float, weight_decay: float,
                nesterov: bool, maximize: bool, first_step: bool) -> volta.Tensor:
    with_buffer = momentum != 0 and momentum_buffer is not None
    dtype = param.dtype.numpy
    p = host_view(param)
    b = host_view(momentum_buffer) if with_buffer else p[:0]
    # the loop walks flat arrays: a strided parameter or buffer is updated in a contiguous copy
    flat_p = np.ascontiguousarray(p).reshape(-1)
    flat_b = np.ascontiguousarray(b).reshape(-1)
    grad_values = np.ascontiguousarray(host_view(grad), dtype=dtype).reshape(-1)
    launch(_sgd_rows, flat_p.size, flat_p, grad_values, flat_b, float(lr), float(momentum),
           float(dampening), float(weight_decay), bool(nesterov), bool(maximize),
           bool(first_step), with_buffer)
    for view, flat in ((p, flat_p), (b, flat_b)):
        if not np.shares_memory(view, flat):
            view[...] = flat.reshape(view.shape)
    return param


# -- memory ops: numpy does them at memory speed; numba has nothing to add -----------------------


@kernel("copy_")
def copy_(self: volta.Tensor, src: Any, non_blocking: bool = False) -> volta.Tensor:
    source = host_view(src) if isinstance(src, volta.Tensor) else np.asarray(src)
    shape = volta.broadcast_shapes(tuple(self.shape), tuple(source.shape))
    if shape != tuple(self.shape):
        raise ShapeError(f"copy_: the source of shape {list(source.shape)} cannot be broadcast "
                         f"to the destination of shape {list(self.shape)}")
    host_view(self)[...] = source
    return self


@kernel("clone")
def clone(self: volta.Tensor, memory_format: Any = None) -> volta.Tensor:
    return _new(host_view(self), tuple(self.shape), self.dtype, self)
