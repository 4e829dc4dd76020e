"""Ops that place values by position, written with device ops and views: diag, diag_embed,
as_strided_scatter, unfold_backward, pad (+ backward), einsum, group norm (+ backward), scatter,
masked/boolean selection, bincount and multinomial.

Index tensors built here (pad's source positions) are functions of the sizes alone, computed on
the host and uploaded; data never goes through the host. Ops whose output size depends on the
data (nonzero, masked_select, boolean indexing, unique, bincount) read one count back, as on
CUDA.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

import volta.composites.views as views
from volta import dtypes as D
from volta.backends.wgpu.kernels.composed import _arange, _zeros
from volta.backends.wgpu.kernels.copy import copy_into
from volta.backends.wgpu.kernels.elementwise import Launch, load, store
from volta.backends.wgpu.kernels.indexing import check_range, check_scatter_shape
from volta.backends.wgpu.kernels.rows import cumsum, fresh, run, searchsorted
from volta.backends.wgpu.storage import empty
from volta.errors import DTypeError, ShapeError, VoltaError
from volta.tensor.checks import (
    check_bincount_input,
    check_index_dtype,
    check_masked_scatter_dtypes,
)
from volta.tensor.factories import _from_host, rand
from volta.tensor.inplace import broadcast_shapes
from volta.tensor.padding import check_pad_width, pad_pairs, pad_source_index
from volta.tensor.tensor import Tensor, contiguous_strides

# -- diagonals and strided writes ------------------------------------------------------------


def diag(self: Tensor, diagonal: int = 0) -> Tensor:
    if self.ndim == 1:
        n = self._shape[0] + abs(diagonal)
        out = _zeros((n, n), self)
        copy_into(views.diagonal(out, diagonal, 0, 1), self)
        return out
    if self.ndim == 2:
        return fresh(views.diagonal(self, diagonal, 0, 1))
    raise ShapeError(f"diag(): Supports 1D or 2D tensors. Got {self.ndim}D")


def diag_embed(self: Tensor, offset: int = 0, dim1: int = -2, dim2: int = -1) -> Tensor:
    n = self._shape[-1] + abs(offset) if self.ndim else 1
    ndim = self.ndim + 1
    d1, d2 = views.wrap_dim(dim1, ndim, "diag_embed"), views.wrap_dim(dim2, ndim, "diag_embed")
    if d1 == d2:
        raise ShapeError(f"diagonal dimensions cannot be identical {dim1}, {dim2}")
    rest = list(self._shape[:-1])
    shape = [n if i in (d1, d2) else rest.pop(0) for i in range(ndim)]
    out = _zeros(shape, self)
    copy_into(views.diagonal(out, offset, d1, d2), self)
    return out


def as_strided_scatter(self: Tensor, src: Tensor, size: Sequence[int], stride: Sequence[int],
                       storage_offset: int | None = None) -> Tensor:
    out = fresh(self)
    copy_into(views.as_strided(out, size, stride, storage_offset or 0), src)
    return out


def unfold_backward(grad_output: Tensor, input_sizes: Sequence[int], dim: int, size: int,
                    step: int) -> Tensor:
    z = _zeros(input_sizes, grad_output)
    if len(input_sizes) == 0:
        return copy_into(z, grad_output.reshape(()))
    d = views.wrap_dim(dim, len(input_sizes), "unfold_backward")
    count = grad_output._shape[d]
    for k in range(size if count else 0):  # windows overlap: add one window position at a time
        region = views.slice_(z, d, k, k + step * (count - 1) + 1, step)
        copy_into(region, region + grad_output.select(-1, k))
    return z


# -- pad -------------------------------------------------------------------------------------


def _positions(n: int, before: int, after: int, mode: str, like: Tensor) -> Tensor:
    return _from_host(pad_source_index(n, before, after, mode).astype(np.int64), like._device)


def _constant_regions(shape: Sequence[int], pairs: Sequence[tuple[int, int]],
                      padded: Tensor, inner: Tensor) -> tuple[Tensor, Tensor]:
    """(region of ``padded``, region of ``inner``) that coincide: negative pads crop."""
    for i, ((b, e), n) in enumerate(zip(pairs, shape, strict=True)):
        keep = n - max(-b, 0) - max(-e, 0)
        padded = padded.narrow(i, max(b, 0), keep)
        inner = inner.narrow(i, max(-b, 0), keep)
    return padded, inner


def pad(self: Tensor, pad: Sequence[int], mode: str = "constant", value: float | None = None
        ) -> Tensor:
    pairs = pad_pairs(self.ndim, pad, "pad")
    if mode == "constant":
        shape = [n + b + e for n, (b, e) in zip(self._shape, pairs, strict=True)]
        out = empty(tuple(shape), self.dtype, self._device).fill_(0 if value is None else value)
        dst, src = _constant_regions(self._shape, pairs, out, self)
        copy_into(dst, src)
        return out
    out = self
    for i, (b, e) in enumerate(pairs):
        if b == 0 and e == 0:
            continue
        check_pad_width(mode, b, e, out._shape, i)
        out = out.index_select(i, _positions(out._shape[i], b, e, mode, self))
    return out if out is not self else fresh(self)


def pad_backward(grad_output: Tensor, input_sizes: Sequence[int], pad: Sequence[int],
                 mode: str) -> Tensor:
    pairs = pad_pairs(len(input_sizes), pad, "pad")
    if mode == "constant":
        out = _zeros(input_sizes, grad_output)
        src, dst = _constant_regions(input_sizes, pairs, grad_output, out)
        copy_into(dst, src)
        return out
    g = grad_output
    for i in range(len(input_sizes) - 1, -1, -1):
        b, e = pairs[i]
        if b == 0 and e == 0:
            continue
        shape = list(g._shape)
        shape[i] = input_sizes[i]
        g = _zeros(shape, g).index_add(i, _positions(input_sizes[i], b, e, mode, g), g)
    return g if g is not grad_output else fresh(g)


# -- einsum ----------------------------------------------------------------------------------


def _parse_einsum(equation: str, tensors: Sequence[Tensor]) -> tuple[list[str], str]:
    """Operand subscripts with ``...`` spelled out as upper-case letters, and the output's."""
    eq = equation.replace(" ", "")
    lhs, arrow, rhs = eq.partition("->")
    inputs = lhs.split(",")
    if len(inputs) != len(tensors):
        raise ShapeError(f"einsum(): {len(inputs)} operands in the equation, {len(tensors)} "
                         "given")
    ell = max((t.ndim - len(s.replace("...", "")) for s, t in zip(inputs, tensors, strict=True)
               if "..." in s), default=0)
    batch = "".join(chr(ord("A") + k) for k in range(ell))
    spelled = []
    for s, t in zip(inputs, tensors, strict=True):
        if "..." in s:
            s = s.replace("...", batch[ell - (t.ndim - len(s) + 3):])
        if len(s) != t.ndim or (s and not s.isalpha()):
            raise ShapeError(f"einsum(): the subscript {s!r} does not match an operand of "
                             f"{t.ndim} dimensions")
        spelled.append(s)
    if arrow:
        out = rhs.replace("...", batch)
    else:
        letters = "".join(spelled)
        out = batch + "".join(sorted(c for c in set(letters) if c.islower()
                                     and letters.count(c) == 1))
    return spelled, out


def einsum(equation: str, tensors: Sequence[Tensor]) -> Tensor:
    """Every operand is laid out over all labels (size 1 where it lacks one), the product is
    taken with broadcasting and the labels not in the output are summed."""
    subs, out = _parse_einsum(equation, tensors)
    labels = list(dict.fromkeys(out + "".join(subs)))
    dt = D.result_type(*tensors)
    product = None
    for s, t in zip(subs, tensors, strict=True):
        t = t.to(dt)
        while len(set(s)) < len(s):  # a repeated label: take the diagonal
            c = next(c for c in s if s.count(c) > 1)
            i = s.index(c)
            j = s.index(c, i + 1)
            t = views.diagonal(t, 0, i, j)
            s = s[:i] + s[i + 1:j] + s[j + 1:] + c
        order = sorted(range(len(s)), key=lambda k: labels.index(s[k]))
        t = t.permute(order)
        shape = [t._shape[[s[k] for k in order].index(c)] if c in s else 1 for c in labels]
        t = t.reshape(shape)
        product = t if product is None else product * t
    assert product is not None
    summed = [k for k, c in enumerate(labels) if c not in out]
    result = product.sum(summed) if summed else product
    return fresh(result) if result is product else result


# -- group norm ------------------------------------------------------------------------------


def native_group_norm(input: Tensor, weight: Tensor | None, bias: Tensor | None, N: int, C: int,
                      HxW: int, group: int, eps: float) -> tuple[Tensor, Tensor, Tensor]:
    if C % group:
        raise ShapeError(f"Expected number of channels in input to be divisible by num_groups, "
                         f"but got input of shape {list(input.shape)} and num_groups={group}")
    x = input.reshape(N, group, -1)
    mean = x.mean(-1)
    centred = x - mean.unsqueeze(-1)
    rstd = ((centred * centred).mean(-1) + eps).rsqrt()
    out = (centred * rstd.unsqueeze(-1)).reshape(N, C, HxW)
    if weight is not None:
        out = out * weight.unsqueeze(-1)
    if bias is not None:
        out = out + bias.unsqueeze(-1)
    return out.reshape(input._shape), mean, rstd


def native_group_norm_backward(grad_out: Tensor, input: Tensor, mean: Tensor, rstd: Tensor,
                               weight: Tensor | None, N: int, C: int, HxW: int, group: int,
                               output_mask: Sequence[bool], eps: float = 1e-5
                               ) -> tuple[Any, Any, Any]:
    rs = rstd.reshape(N, group, 1)
    xhat = ((input.reshape(N, group, -1) - mean.reshape(N, group, 1)) * rs).reshape(N, C, HxW)
    go = grad_out.reshape(N, C, HxW)
    gi = gw = gb = None
    if output_mask[0]:
        g = (go if weight is None else go * weight.unsqueeze(-1)).reshape(N, group, -1)
        xh = xhat.reshape(N, group, -1)
        gi = rs * (g - g.mean(-1, keepdim=True) - xh * (g * xh).mean(-1, keepdim=True))
        gi = gi.reshape(input._shape)
    if output_mask[1]:
        gw = (go * xhat).sum([0, 2])
    if output_mask[2]:
        gb = go.sum([0, 2])
    return gi, gw, gb


# -- scatter -----------------------------------------------------------------------------------


def _scatter(self: Tensor, dim: int, index: Tensor, src: Tensor) -> Tensor:
    """``out[..., index[c], ...] = src[c]`` along ``dim`` (a copy of ``self``; with repeated
    indices one of the writes wins, as on CUDA)."""
    check_index_dtype("scatter", index)
    out = fresh(self)
    if index.numel() == 0:
        return out
    if index.ndim != self.ndim:
        raise ShapeError("scatter(): Index tensor must have the same number of dimensions as "
                         "input tensor")
    d = views.wrap_dim(dim, max(self.ndim, 1), "scatter")
    if not self.ndim:
        return copy_into(out, src.reshape(()).expand(()))
    check_scatter_shape(self, index, d, "scatter")
    check_range(index, self._shape[d], d, "scatter", negative_ok=False)
    shape = index._shape
    out_view = out._view_of(shape, tuple(0 if i == d else s for i, s in enumerate(out._stride)), 0)
    launch = Launch(out_view, [src, index])
    body = (f"  let i = {launch.operand(2)};\n"
            "  let j = u32(select(i, i + pi(nscalar_base + 1u), i < 0));\n"
            f"  b{launch.binding[0]}[e0 + j * pu(nscalar_base)] = "
            f"{store(load(launch.operand(1), src.dtype), self.dtype)};")
    launch.run(body, [out._stride[d], self._shape[d]])
    return out


def scatter_src(self: Tensor, dim: int, index: Tensor, src: Tensor) -> Tensor:
    if src.dtype is not self.dtype:
        raise DTypeError("scatter(): Expected self.dtype to be equal to src.dtype")
    return _scatter(self, dim, index, src._view_of(index._shape, src._stride, src._offset)
                    if src.ndim == index.ndim else src)


def scatter_value(self: Tensor, dim: int, index: Tensor, value: Any) -> Tensor:
    fill = value.to(self._device) if isinstance(value, Tensor) else \
        empty((), self.dtype, self._device).fill_(value)
    return _scatter(self, dim, index, fill.reshape(()).expand(index._shape))


# -- selections whose size depends on the data --------------------------------------------------


def _bool_mask(mask: Tensor, op: str) -> None:
    if mask.dtype is not D.bool_:
        raise DTypeError(f"{op} only supports boolean masks, but got mask with dtype "
                         f"{mask.dtype.name}")


def _true_positions(mask: Tensor) -> tuple[Tensor, int]:
    """Flat positions (int64) of the true elements of ``mask`` in order, and their count:
    a cumulative sum numbers them, one count is read back."""
    flat = fresh(mask.reshape(-1))
    n = flat.numel()
    rank = cumsum(flat, 0)
    count = int(rank[-1].item()) if n else 0
    positions = empty((count,), D.int64, mask._device)
    if count:
        run("  if (b3[idx] != 0u) { b1[u32(b2[idx]) - 1u] = i32(idx); }", n,
            [(positions, True), (rank, False), (flat, False)])
    return positions, count


def nonzero(self: Tensor) -> Tensor:
    flat_positions, count = _true_positions(self != 0)
    out = empty((count, self.ndim), D.int64, self._device)
    rest = flat_positions
    for d in range(self.ndim - 1, -1, -1):  # unravel, last dimension first
        n = self._shape[d]
        copy_into(out.select(1, d), rest.remainder(n) if n else rest)
        rest = rest.div(n, rounding_mode="floor") if n else rest
    return out


def masked_select(self: Tensor, mask: Tensor) -> Tensor:
    _bool_mask(mask, "masked_select")
    shape = broadcast_shapes(self._shape, mask._shape)
    positions, _ = _true_positions(mask.expand(shape))
    return self.expand(shape).reshape(-1).index_select(0, positions)


def masked_scatter(self: Tensor, mask: Tensor, source: Tensor) -> Tensor:
    """The k-th true element of the mask takes ``source``'s k-th element: the mask's cumulative
    sum is that k, so no count is read back unless the source may be too short."""
    check_masked_scatter_dtypes(self, source)
    _bool_mask(mask, "masked_scatter_")
    shape = broadcast_shapes(self._shape, mask._shape)
    flat_mask = fresh(mask.expand(shape).reshape(-1))
    rank = cumsum(flat_mask, 0)
    src = source.reshape(-1)
    if rank.numel() and src.numel() < rank.numel():
        k = int(rank[-1].item())
        if src.numel() < k:
            raise ShapeError(f"masked_scatter: expected source to have at least {k} elements, "
                             f"got {src.numel()}")
    take = (rank - 1).clamp(0, max(src.numel() - 1, 0))
    picked = src.index_select(0, take) if src.numel() else _zeros(take._shape, self)
    out = picked.to(self.dtype).where(flat_mask, self.expand(shape).reshape(-1))
    return fresh(out.reshape(shape))


def _index_tensors(self: Tensor, indices: Sequence[Any]) -> list[Any]:
    """Boolean masks as the positions of their true elements (one per masked dimension)."""
    out: list[Any] = []
    for t in indices:
        if t is None:
            out.append(None)
        elif t.dtype in (D.bool_, D.uint8):
            for d in nonzero(t).unbind(1):
                out.append(d)
        elif t.dtype.is_floating_point:
            raise DTypeError("tensors used as indices must be long, int, byte or bool tensors")
        else:
            out.append(t)
    return out


def _element_positions(self: Tensor, indices: Sequence[Any]) -> Tensor:
    """Advanced indexing as the flat (contiguous) position in ``self`` of every element of the
    result. The broadcast index dimensions replace the indexed ones where those are adjacent,
    else they come first (numpy's rule); the other dimensions keep their order."""
    idx = _index_tensors(self, indices)
    if len(idx) > self.ndim:
        raise ShapeError(f"too many indices for tensor of dimension {self.ndim}")
    dims = [d for d, t in enumerate(idx) if t is not None]
    others = [d for d in range(self.ndim) if d not in dims]
    batch = broadcast_shapes(*(idx[d]._shape for d in dims))
    adjacent = dims == list(range(dims[0], dims[-1] + 1))
    pre = [o for o in others if adjacent and o < dims[0]]
    post = [o for o in others if o not in pre]
    strides = contiguous_strides(self._shape)
    lead, trail = (1,) * len(pre), (1,) * len(post)
    positions = _zeros((), self, D.int64)
    for d in dims:
        check_range(idx[d], self._shape[d], d, "")
        i = idx[d].to(D.int64)
        i = i.where(i >= 0, i + self._shape[d]) * strides[d]
        positions = positions + i.expand(batch).reshape(lead + batch + trail)
    for o in pre + post:
        axis = (pre + post).index(o) + (len(batch) if o in post else 0)
        shape = [1] * (len(pre) + len(batch) + len(post))
        shape[axis] = self._shape[o]
        positions = positions + _arange(self._shape[o], self).mul(strides[o]).reshape(shape)
    return positions


def index(self: Tensor, indices: Sequence[Any]) -> Tensor:
    positions = _element_positions(self, indices)
    return fresh(self).reshape(-1).index_select(0, positions.reshape(-1)).reshape(
        positions._shape)


def index_put(self: Tensor, indices: Sequence[Any], values: Tensor, accumulate: bool = False
              ) -> Tensor:
    if accumulate and self.dtype is D.bool_:  # adding booleans is or-ing them
        counts = index_put(self.to(D.int32), indices, values.to(D.int32), True)
        return counts != 0
    positions = _element_positions(self, indices)
    flat = fresh(self).reshape(-1)
    where = positions.reshape(-1)
    vals = fresh(values.to(self.dtype).expand(positions._shape)).reshape(-1)
    out = flat.index_add(0, where, vals) if accumulate else _scatter(flat, 0, where, vals)
    return out.reshape(self._shape)


# -- counting and sampling ---------------------------------------------------------------------


def bincount(self: Tensor, weights: Tensor | None = None, minlength: int = 0) -> Tensor:
    check_bincount_input(self)
    if weights is not None and not weights.dtype.is_floating_point:
        raise DTypeError("bincount on wgpu: integer weights give float64, which wgpu does not "
                         "store; pass float32 weights")
    n = self.numel()
    length = max(int(self.max().item()) + 1 if n else 0, minlength)
    if n and int(self.min().item()) < 0:
        raise ShapeError("bincount only supports 1-d non-negative integral inputs.")
    if weights is None:
        ones = empty((n,), D.int32, self._device).fill_(1)
        counts = empty((length,), D.int32, self._device).fill_(0).index_add(0, self, ones)
        return counts.to(D.int64)
    return _zeros((length,), weights).index_add(0, self, weights)


def multinomial(self: Tensor, num_samples: int, replacement: bool = False,
                generator: Any = None) -> Tensor:
    """Without replacement: the Gumbel top-k trick (``log p - log(-log u)``, largest k); with
    it: each uniform number's position in the row's cumulative distribution."""
    if self.ndim not in (1, 2):
        raise ShapeError("prob_dist must be 1 or 2 dim")
    probs = self.to(D.float32)
    bad = ((probs < 0) | ~probs.isfinite()).any()
    if bool(bad.item()):
        raise VoltaError("multinomial: probability tensor contains either inf, nan or element "
                         "< 0")
    rows = probs.reshape(-1, probs._shape[-1])
    if bool((rows.sum(-1) <= 0).any().item()):
        raise VoltaError("multinomial: invalid multinomial distribution (sum of probabilities "
                         "<= 0)")
    n = rows._shape[-1]
    if replacement:
        cdf = cumsum(rows, 1)
        cdf = cdf / cdf.narrow(1, n - 1, 1)
        u = rand((rows._shape[0], num_samples), generator=generator, device=self.device)
        picked = searchsorted(cdf, u, right=True).clamp(0, n - 1)
    else:
        if num_samples > int((rows > 0).sum(-1).min().item()):
            raise VoltaError("multinomial: cannot sample n_sample > prob_dist.size(-1) samples "
                             "without replacement")
        u = rand(rows._shape, generator=generator, device=self.device)
        keys = rows.log() - (-(u.clamp(1e-7, 1.0)).log()).log()
        picked = keys.topk(num_samples, 1)[1]
    return fresh(picked.reshape(self._shape[:-1] + (num_samples,)))


KERNELS = {"diag": diag, "diag_embed": diag_embed, "as_strided_scatter": as_strided_scatter,
           "unfold_backward": unfold_backward, "pad": pad, "pad_backward": pad_backward,
           "einsum": einsum, "native_group_norm": native_group_norm,
           "native_group_norm_backward": native_group_norm_backward,
           "scatter.src": scatter_src, "scatter.value": scatter_value, "nonzero": nonzero,
           "masked_select": masked_select, "masked_scatter": masked_scatter,
           "index.Tensor": index, "index_put": index_put, "bincount": bincount,
           "multinomial": multinomial}
