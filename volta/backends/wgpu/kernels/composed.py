"""WGPU kernels written in terms of other device ops (the ops whose CPU kernels are numpy code
without a composite): every step stays on the device, nothing goes through the host. Calls made
here are below the Autograd key, so they are not recorded."""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

import numpy as np

import volta.composites.views as views
from volta import dtypes as D
from volta.backends.wgpu.kernels.copy import copy_into
from volta.backends.wgpu.kernels.pointwise import make_kernel, where_self
from volta.backends.wgpu.kernels.reduce import _dims
from volta.backends.wgpu.storage import empty, handle_of
from volta.errors import ArgumentError, DTypeError, ShapeError
from volta.tensor.checks import (
    check_logsumexp_all_dims,
    check_native_batch_norm,
    check_native_layer_norm,
    check_one_hot_classes,
    check_vector_norm_dtypes,
    clamp_operands,
    norm_stats_dtype,
)
from volta.tensor.factories import _from_host
from volta.tensor.inplace import broadcast_shapes
from volta.tensor.scalars import checked_convert
from volta.tensor.tensor import Tensor


def _zeros(shape: Sequence[int], like: Tensor, dt: D.dtype | None = None) -> Tensor:
    return empty(tuple(shape), dt or like.dtype, like._device).fill_(0)


def clamp(self: Tensor, min: Any = None, max: Any = None) -> Tensor:
    out_dt, min, max = clamp_operands(self, min, max)
    result = self if self.dtype is out_dt else self.to(out_dt)
    if min is not None:
        result = result.maximum(min) if isinstance(min, Tensor) else \
            result.maximum(empty((), out_dt, self._device).fill_(min))
    if max is not None:
        result = result.minimum(max) if isinstance(max, Tensor) else \
            result.minimum(empty((), out_dt, self._device).fill_(max))
    return result


def masked_fill(self: Tensor, mask: Tensor, value: Any) -> Tensor:
    if mask.dtype is not D.bool_:
        raise DTypeError(f"masked_fill_ only supports boolean masks, but got mask with dtype "
                         f"{mask.dtype.name}")
    if broadcast_shapes(self._shape, mask._shape) != self._shape:
        raise ShapeError(f"masked_fill: the mask of shape {list(mask.shape)} must broadcast to "
                         f"the input's shape {list(self.shape)}")
    if isinstance(value, Tensor):
        if value.ndim != 0:
            raise ShapeError("masked_fill_ only supports a 0-dimensional value tensor")
        fill = value.to(self._device).to(self.dtype)
    else:
        fill = empty((), self.dtype, self._device).fill_(checked_convert(value, self.dtype,
                                                                         "masked_fill"))
    return where_self(mask, fill, self).to(self.dtype)


def cat(tensors: Sequence[Tensor], dim: int = 0) -> Tensor:
    if len(tensors) == 0:
        raise ShapeError("cat(): expected a non-empty list of Tensors")
    dt = D.result_type(*tensors) if len({t.dtype for t in tensors}) > 1 else tensors[0].dtype
    parts = [t for t in tensors if not (t.ndim == 1 and t._shape[0] == 0)]
    if not parts:
        return empty((0,), dt, tensors[0]._device)
    ref = parts[0]
    if ref.ndim == 0:
        raise ShapeError("zero-dimensional tensor (at position 0) cannot be concatenated")
    d = views.wrap_dim(dim, ref.ndim, "cat")
    for t in parts:
        if t.ndim != ref.ndim or any(t._shape[j] != ref._shape[j]
                                     for j in range(ref.ndim) if j != d):
            raise ShapeError(f"Sizes of tensors must match except in dimension {d}")
    shape = list(ref._shape)
    shape[d] = sum(t._shape[d] for t in parts)
    out = empty(tuple(shape), dt, ref._device)
    start = 0
    for t in parts:
        copy_into(out.narrow(d, start, t._shape[d]), t.to(ref._device))
        start += t._shape[d]
    return out


def slice_backward(grad_output: Tensor, input_sizes: Sequence[int], dim: int, start: Any,
                   end: Any, step: int) -> Tensor:
    z = _zeros(input_sizes, grad_output)
    copy_into(views.slice_(z, dim, start, end, step), grad_output)
    return z


def select_backward(grad_output: Tensor, input_sizes: Sequence[int], dim: int,
                    index: int) -> Tensor:
    z = _zeros(input_sizes, grad_output)
    copy_into(views.select(z, dim, index), grad_output)
    return z


def _float(self: Tensor, op: str) -> Tensor:
    if not self.dtype.is_floating_point:
        raise DTypeError(f"{op}(): could not infer output dtype. Input dtype must be either a "
                         f"floating point or complex dtype. Got: {self.dtype.name}")
    return self


def var(self: Tensor, dim: Any = None, correction: Any = None, keepdim: bool = False) -> Tensor:
    x = _float(self, "var")
    dims = _dims(dim, self.ndim, "var")
    n = math.prod(self._shape[d] for d in dims)
    ddof = 1.0 if correction is None else float(correction)
    centred = x - x.mean(list(dims), keepdim=True)
    return (centred * centred).sum(list(dims), keepdim=keepdim) / max(n - ddof, 0.0)


def std(self: Tensor, dim: Any = None, correction: Any = None, keepdim: bool = False) -> Tensor:
    return var(self, dim, correction, keepdim).sqrt()


def logsumexp(self: Tensor, dim: Any, keepdim: bool = False) -> Tensor:
    check_logsumexp_all_dims(self, dim, keepdim)
    x = self if self.dtype.is_floating_point else self.to(D.get_default_dtype())
    dims = list(_dims(dim, self.ndim, "logsumexp"))
    if x.numel() == 0:
        return x.exp().sum(dims, keepdim=keepdim).log()
    m = x.amax(dims, keepdim=True)
    m = where_self(m.isfinite(), m, 0.0)
    y = (x - m).exp().sum(dims, keepdim=True).log() + m
    return y if keepdim else y.squeeze(dims) if dims else y.reshape(())


def nansum(self: Tensor, dim: Any = None, keepdim: bool = False, dtype: Any = None) -> Tensor:
    clean = where_self(self.isnan(), 0, self) if self.dtype.is_floating_point else self
    return clean.sum(dim, keepdim=keepdim, dtype=dtype)


def count_nonzero(self: Tensor, dim: Any = None) -> Tensor:
    return (self != 0).sum(dim)


def one_hot(self: Tensor, num_classes: int = -1) -> Tensor:
    if self.dtype is not D.int64:
        raise DTypeError("one_hot is only applicable to index tensor of type LongTensor.")
    if self.numel():
        # the range the host knows for uploaded labels (Note [index range checks] in
        # indexing.py) spares the read-back of their min and max
        known = handle_of(self).value_range
        if known is None or num_classes == -1 or not 0 <= known[0] <= known[1] < num_classes:
            known = int(self.min().item()), int(self.max().item())
        if num_classes == -1:
            num_classes = known[1] + 1
        check_one_hot_classes(known[0], known[1], num_classes)
    elif num_classes == -1:
        num_classes = 0
    classes = _arange(num_classes, self)
    return (self.unsqueeze(-1) == classes).to(D.int64)


_GELU = {approx: make_kernel("gelu", dict(
    args=(("self", "Tensor"),), promotion="int_to_float", dtypes="floating", wgsl=expr))
    for approx, expr in (
        ("none", "(0.5 * v_self * (1.0 + pw_erf(v_self * 0.7071067811865476)))"),
        ("tanh", "(0.5 * v_self * (1.0 + pw_tanh(0.7978845608028654 * "
                 "(v_self + 0.044715 * v_self * v_self * v_self))))"))}


def gelu(self: Tensor, approximate: str = "none") -> Tensor:
    kernel = _GELU.get(approximate)
    if kernel is None:
        raise ArgumentError(f"approximate argument must be either none or tanh, got "
                            f"{approximate!r}")
    return kernel(self)


def native_layer_norm(input: Tensor, normalized_shape: Sequence[int], weight: Tensor | None,
                      bias: Tensor | None, eps: float) -> tuple[Tensor, Tensor, Tensor]:
    check_native_layer_norm(input, normalized_shape, weight, bias)
    k = len(normalized_shape)
    dims = list(range(input.ndim - k, input.ndim))
    # the mixed mode (float16 input, float32 parameters) computes in float32
    stats_dtype = norm_stats_dtype(input, weight, bias)
    x = input.to(stats_dtype)
    mean = x.mean(dims, keepdim=True)
    centred = x - mean
    rstd = ((centred * centred).mean(dims, keepdim=True) + eps).rsqrt()
    out = centred * rstd
    if weight is not None:
        out = out * weight
    if bias is not None:
        out = out + bias
    return out.to(input.dtype), mean, rstd


def native_layer_norm_backward(grad_out: Tensor, input: Tensor, normalized_shape: Sequence[int],
                               mean: Tensor, rstd: Tensor, weight: Tensor | None,
                               bias: Tensor | None, output_mask: Sequence[bool],
                               eps: float = 1e-5) -> tuple[Any, Any, Any]:
    axis = input.ndim - len(normalized_shape)
    red, lead = list(range(axis, input.ndim)), list(range(axis))
    xhat = (input - mean) * rstd
    gi = gw = gb = None
    if output_mask[0]:
        g = grad_out if weight is None else grad_out * weight
        gi = rstd * (g - g.mean(red, keepdim=True) - xhat * (g * xhat).mean(red, keepdim=True))
    if output_mask[1]:
        gw = (grad_out * xhat).sum(lead) if lead else grad_out * xhat
    if output_mask[2]:
        gb = grad_out.sum(lead) if lead else grad_out.clone()
    return gi, gw, gb


def _channel_shape(x: Tensor) -> tuple[int, ...]:
    return (1, x._shape[1]) + (1,) * (x.ndim - 2)


def native_batch_norm(input: Tensor, weight: Tensor | None, bias: Tensor | None,
                      running_mean: Tensor | None, running_var: Tensor | None, training: bool,
                      momentum: float, eps: float) -> tuple[Tensor, Tensor, Tensor]:
    check_native_batch_norm(input, weight, bias, running_mean, running_var, training)
    # PyTorch's op takes a single value per channel (batch_norm, not this op, rejects it)
    c = input._shape[1]
    axes = [0, *range(2, input.ndim)]
    bshape = _channel_shape(input)
    stats_dtype = norm_stats_dtype(input, weight, bias, running_mean, running_var)
    # the mixed mode (float16 input, float32 parameters) computes in float32
    x = input.to(stats_dtype)
    if training:
        n = input.numel() // c
        mean = x.mean(axes)
        centred = x - mean.reshape(bshape)
        var = (centred * centred).mean(axes)
        invstd = (var + eps).rsqrt()
        if eps == 0:  # PyTorch's convention: a zero variance without eps scales by 0, not inf
            invstd = invstd.masked_fill(var == 0, 0)
        # running statistics are updated in place, on the device (unbiased variance)
        if running_mean is not None:
            copy_into(running_mean, mean * momentum + running_mean * (1 - momentum))
            running_mean._storage.version += 1
        if running_var is not None:
            unbiased = var * (n / (n - 1)) if n > 1 else var * float("nan")
            copy_into(running_var, unbiased * momentum + running_var * (1 - momentum))
            running_var._storage.version += 1
        out = centred * invstd.reshape(bshape)
        save_mean, save_invstd = mean, invstd
    else:
        if running_mean is None or running_var is None:
            raise ShapeError("eval-mode batch norm needs running_mean and running_var")
        invstd = (running_var + eps).rsqrt()
        out = (x - running_mean.reshape(bshape)) * invstd.reshape(bshape)
        save_mean = save_invstd = empty((0,), stats_dtype, input._device)
    if weight is not None:
        out = out * weight.reshape(bshape)
    if bias is not None:
        out = out + bias.reshape(bshape)
    return out.to(input.dtype), save_mean, save_invstd


def native_batch_norm_backward(grad_out: Tensor, input: Tensor, weight: Tensor | None,
                               running_mean: Tensor | None, running_var: Tensor | None,
                               save_mean: Tensor | None, save_invstd: Tensor | None, train: bool,
                               eps: float, output_mask: Sequence[bool]) -> tuple[Any, Any, Any]:
    axes = [0, *range(2, input.ndim)]
    bshape = _channel_shape(input)
    if train:
        mean, invstd = save_mean, save_invstd
    else:
        mean, invstd = running_mean, (running_var + eps).rsqrt()
    xhat = (input - mean.reshape(bshape)) * invstd.reshape(bshape)
    gb = grad_out.sum(axes)
    gw = (grad_out * xhat).sum(axes)
    gi = None
    if output_mask[0]:
        scale = (invstd if weight is None else weight * invstd).reshape(bshape)
        if train:
            n = input.numel() // input._shape[1]
            gi = (grad_out - (gb / n).reshape(bshape) - xhat * (gw / n).reshape(bshape)) * scale
        else:
            gi = grad_out * scale
    return gi, gw if output_mask[1] else None, gb if output_mask[2] else None


def embedding_backward(grad_output: Tensor, indices: Tensor, num_weights: int, padding_idx: int,
                       scale_grad_by_freq: bool) -> Tensor:
    width = grad_output._shape[-1]
    flat = indices.reshape(-1)
    grads = grad_output.reshape(-1, width)
    if scale_grad_by_freq:
        ones = empty(flat._shape, grads.dtype, grads._device).fill_(1)
        counts = _zeros((num_weights,), grad_output).index_add(0, flat, ones)
        grads = grads / counts.index_select(0, flat).unsqueeze(1)
    out = _zeros((num_weights, width), grad_output).index_add(0, flat, grads)
    if padding_idx != -1:
        out.select(0, padding_idx).fill_(0)
    return out


def _arange(n: int, like: Tensor) -> Tensor:
    return _from_host(np.arange(n, dtype=np.int64), like._device)


def nan_to_num(self: Tensor, nan: float | None = None, posinf: float | None = None,
               neginf: float | None = None) -> Tensor:
    if not self.dtype.is_floating_point:
        return self.clone()
    info = D.finfo(self.dtype)
    y = where_self(self.isnan(), 0.0 if nan is None else nan, self)
    y = where_self(y.isinf() & (y > 0), info.max if posinf is None else posinf, y)
    return where_self(y.isinf() & (y < 0), info.min if neginf is None else neginf, y)


def _tri(self: Tensor, diagonal: int, lower: bool, op: str) -> Tensor:
    if self.ndim < 2:
        raise ShapeError(f"{op}: input tensor must have at least 2 dimensions")
    rows, cols = self._shape[-2:]
    diagonal = max(-rows, min(cols, diagonal))  # past the matrix: as its last diagonal
    offset = _arange(cols, self).unsqueeze(0) - _arange(rows, self).unsqueeze(1)
    keep = offset <= diagonal if lower else offset >= diagonal
    return where_self(keep, self, 0).to(self.dtype)


def tril(self: Tensor, diagonal: int = 0) -> Tensor:
    return _tri(self, diagonal, True, "tril")


def triu(self: Tensor, diagonal: int = 0) -> Tensor:
    return _tri(self, diagonal, False, "triu")


def repeat(self: Tensor, repeats: Sequence[int]) -> Tensor:
    if len(repeats) < self.ndim:
        raise ShapeError("Number of dimensions of repeat dims can not be smaller than number of "
                         "dimensions of tensor")
    shape = (1,) * (len(repeats) - self.ndim) + self._shape
    x = self.reshape(shape)
    # (s0, s1) -> (1, s0, 1, s1) -> expand (r0, s0, r1, s1) -> copy -> (r0*s0, r1*s1)
    interleaved = x.reshape(tuple(v for s in shape for v in (1, s)))
    tiled = interleaved.expand(tuple(v for r, s in zip(repeats, shape, strict=True)
                                     for v in (r, s)))
    out = copy_into(empty(tiled._shape, self.dtype, self._device), tiled)
    return out.reshape(tuple(r * s for r, s in zip(repeats, shape, strict=True)))


def flip(self: Tensor, dims: Sequence[int]) -> Tensor:
    out = self
    for d in views.wrap_dims(dims, max(self.ndim, 1), "flip") if self.ndim else ():
        n = self._shape[d]
        out = out.index_select(d, _from_host(np.arange(n - 1, -1, -1, dtype=np.int64),
                                             self._device))
    return out if out is not self else self.clone()


def diagonal_backward(grad_output: Tensor, input_sizes: Sequence[int], offset: int, dim1: int,
                      dim2: int) -> Tensor:
    z = _zeros(input_sizes, grad_output)
    copy_into(views.diagonal(z, offset, dim1, dim2), grad_output)
    return z


def vector_norm(self: Tensor, ord: Any = 2, dim: Any = None, keepdim: bool = False,
                dtype: Any = None) -> Tensor:
    check_vector_norm_dtypes(self, dtype)
    x = _float(self if dtype is None else self.to(dtype), "linalg.vector_norm")
    dims = list(_dims(dim, self.ndim, "linalg.vector_norm"))
    p = float(ord)
    ax = x.abs()
    if p == math.inf:
        return ax.amax(dims, keepdim=keepdim)
    if p == -math.inf:
        return ax.amin(dims, keepdim=keepdim)
    if p == 0:
        return (ax != 0).sum(dims, keepdim=keepdim, dtype=x.dtype)
    if p == 1:
        return ax.sum(dims, keepdim=keepdim)
    if p == 2:
        return (ax * ax).sum(dims, keepdim=keepdim).sqrt()
    return (ax ** p).sum(dims, keepdim=keepdim) ** (1.0 / p)


def roll(self: Tensor, shifts: Sequence[int], dims: Sequence[int] = ()) -> Tensor:
    if len(dims) == 0:
        if len(shifts) != 1:
            raise ShapeError("roll: shifts must have one element when dims are not given")
        return roll(self.reshape(-1), shifts, [0]).reshape(self._shape)
    if len(shifts) != len(dims):
        raise ShapeError(f"shifts and dimensions must align. shifts: {len(shifts)}, dims:"
                         f"{len(dims)}")
    out = self
    for shift, dim in zip(shifts, dims, strict=True):
        d = views.wrap_dim(dim, self.ndim, "roll")
        n = self._shape[d]
        s = shift % n if n else 0
        if s:
            out = cat([out.narrow(d, n - s, s), out.narrow(d, 0, n - s)], d)
    return out if out is not self else self.clone()


KERNELS = {"clamp": clamp, "masked_fill": masked_fill, "masked_fill.Tensor": masked_fill,
           "cat": cat, "slice_backward": slice_backward, "select_backward": select_backward,
           "var.correction": var, "std.correction": std, "logsumexp": logsumexp,
           "nansum": nansum, "count_nonzero": count_nonzero, "one_hot": one_hot, "gelu": gelu,
           "native_layer_norm": native_layer_norm,
           "native_layer_norm_backward": native_layer_norm_backward,
           "native_batch_norm": native_batch_norm,
           "native_batch_norm_backward": native_batch_norm_backward,
           "embedding_backward": embedding_backward, "nan_to_num": nan_to_num, "tril": tril,
           "triu": triu, "repeat": repeat, "flip": flip, "diagonal_backward": diagonal_backward,
           "vector_norm": vector_norm, "roll": roll}
