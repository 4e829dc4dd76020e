"""Helpers that derivative formulas in ops.yaml call.

Every helper is written with volta ops, so a gradient computed with ``create_graph=True`` is
itself differentiable, and every helper runs on every backend. Codegen reads ``__all__`` to know
which names a formula may use.
"""

from __future__ import annotations

import math
import numbers
from collections.abc import Sequence
from typing import Any

from volta import dtypes as D
from volta._generated import functions as F
from volta.autograd.graph import sum_to
from volta.autograd.linalg_formulas import (
    cholesky_backward,
    cholesky_inverse_backward,
    cholesky_solve_backward,
    det_backward,
    eigh_backward,
    inv_backward,
    lu_factor_backward,
    pinv_backward,
    qr_backward,
    slogdet_backward,
    solve_backward,
    solve_triangular_backward,
    svd_backward,
)
from volta.tensor import factories as fac
from volta.tensor.checks import einsum_subscripts
from volta.tensor.inplace import broadcast_shapes

__all__ = [
    "sum_to", "maybe_multiply", "expand_reduced", "mean_backward", "prod_backward",
    "minmax_all_backward", "minmax_dim_backward", "amaxmin_backward", "median_backward",
    "var_backward", "std_backward", "norm_backward", "logsumexp_backward",
    "cumprod_backward", "matmul_backward", "linear_backward", "softmax_double_backward",
    "log_softmax_double_backward",
    "sort_backward", "permute_backward", "repeat_backward", "roll_backward", "cat_backward",
    "split_backward", "unbind_backward", "stack_backward",
    "copy_backward", "to_copy_backward", "div_backward_self", "div_backward_other",
    "pow_backward_self", "pow_backward_exponent", "clamp_backward", "einsum_backward",
    "index_add_source_grad", "index_put_self_grad", "masked_select_backward",
    "masked_scatter_source_grad", "as_strided_backward", "diag_backward",
    "max_pool_double_backward", "convolution_double_backward", "layer_norm_double_backward",
    "atan2_backward", "group_norm_backward", "group_norm_double_backward",
    "batch_norm_double_backward",
    # matrix decompositions and solvers (volta/autograd/linalg_formulas.py)
    "inv_backward", "solve_backward", "det_backward", "slogdet_backward", "cholesky_backward",
    "qr_backward", "svd_backward", "eigh_backward", "solve_triangular_backward",
    "lu_factor_backward", "pinv_backward", "cholesky_solve_backward",
    "cholesky_inverse_backward",
]

Tensor = Any


def _wrap(dim: int, ndim: int) -> int:
    return dim + max(ndim, 1) if dim < 0 else dim


def _reduced_dims(dim: Sequence[int] | int | None, ndim: int) -> list[int]:
    """The dims a reduction removed; ``None`` or ``[]`` mean all of them."""
    if dim is None:
        return list(range(ndim))
    if isinstance(dim, int):
        dim = (dim,)
    if len(dim) == 0:
        return list(range(ndim))
    return sorted(_wrap(d, ndim) for d in dim)


def maybe_multiply(grad: Tensor, factor: Any) -> Tensor:
    return grad if isinstance(factor, numbers.Number) and factor == 1 else grad * factor


def expand_reduced(grad: Tensor, shape: Sequence[int], dim: Any, keepdim: bool) -> Tensor:
    """Broadcast the gradient of a reduction back to the input's shape."""
    shape = tuple(shape)
    if len(shape) == 0:
        return grad.reshape(())
    if not keepdim and grad.ndim > 0:  # a 0-d gradient (a full reduction) expands as it is
        for d in _reduced_dims(dim, len(shape)):
            grad = grad.unsqueeze(d)
    return grad.expand(shape)


def _count(shape: Sequence[int], dim: Any) -> int:
    if len(shape) == 0:
        return 1
    return math.prod(shape[d] for d in _reduced_dims(dim, len(shape)))


def mean_backward(grad: Tensor, shape: Sequence[int], dim: Any, keepdim: bool) -> Tensor:
    # divided at the reduced shape, then broadcast: one small division instead of a full pass
    return expand_reduced(grad / max(_count(shape, dim), 1), shape, dim, keepdim)


def _exclusive_cumprod(x: Tensor, dim: int) -> Tensor:
    n = x.shape[dim]
    shifted = F.cat([F.ones_like(x.narrow(dim, 0, 1)), x.narrow(dim, 0, n - 1)], dim)
    return shifted.cumprod(dim)


def _prod_of_others(x: Tensor, dim: int) -> Tensor:
    """For each element, the product of the others along ``dim`` (exact with zeros)."""
    left = _exclusive_cumprod(x, dim)
    right = _exclusive_cumprod(x.flip(dim), dim).flip(dim)
    return left * right


def prod_backward(grad: Tensor, self: Tensor, result: Tensor, dim: int | None,
                  keepdim: bool) -> Tensor:
    if self.numel() == 0:
        return F.zeros_like(self)
    if dim is None:
        flat = self.reshape(-1)
        return (_prod_of_others(flat, 0) * grad).reshape(self.shape)
    dim = _wrap(dim, self.ndim)
    if self.ndim == 0:
        return grad
    g = grad if keepdim else grad.unsqueeze(dim)
    return _prod_of_others(self, dim) * g


def minmax_all_backward(grad: Tensor, self: Tensor, result: Tensor) -> Tensor:
    """max()/min()/median(): the gradient is shared evenly among the tied elements; for a NaN
    result, among the NaN elements (PyTorch's evenly_distribute_backward)."""
    mask = F.logical_or(self == result, F.logical_and(F.isnan(self), F.isnan(result)))
    return F.where(mask, grad / mask.sum(), 0).to(grad.dtype)


def median_backward(grad: Tensor, self: Tensor, result: Tensor) -> Tensor:
    return minmax_all_backward(grad, self, result)


def minmax_dim_backward(grad: Tensor, indices: Tensor, shape: Sequence[int], dim: int,
                        keepdim: bool) -> Tensor:
    if len(shape) == 0:
        return grad.reshape(())
    if not keepdim:
        grad = grad.unsqueeze(dim)
        indices = indices.unsqueeze(dim)
    return grad.new_zeros(tuple(shape)).scatter(dim, indices, grad)


def amaxmin_backward(grad: Tensor, self: Tensor, result: Tensor, dim: Any,
                     keepdim: bool) -> Tensor:
    res = expand_reduced(result, self.shape, dim, keepdim)
    mask = self == res
    dims = _reduced_dims(dim, self.ndim)
    count = mask.sum(dims, keepdim=True) if dims else mask.to(grad.dtype)
    g = expand_reduced(grad, self.shape, dim, keepdim)
    # a product, not a select, as PyTorch's: a NaN reduction matches no element (count 0), so
    # its whole slice gets 0 / 0 = NaN, and a NaN or infinite gradient spreads over the slice
    return ((g / count) * mask).to(grad.dtype)


def _correction(correction: Any) -> float:
    return 1.0 if correction is None else float(correction)


def var_backward(grad: Tensor, self: Tensor, dim: Any, correction: Any, keepdim: bool) -> Tensor:
    n = _count(self.shape, dim)
    dims = _reduced_dims(dim, self.ndim)
    centered = self - self.mean(dims, keepdim=True) if dims else self - self
    g = expand_reduced(grad, self.shape, dim, keepdim)
    dof = n - _correction(correction)
    # no degrees of freedom left (an empty or too small input): PyTorch's 2 / 0 is inf, not an error
    return g * centered * (2.0 / dof if dof else math.inf)


def std_backward(grad: Tensor, self: Tensor, result: Tensor, dim: Any, correction: Any,
                 keepdim: bool) -> Tensor:
    g = F.where(result == 0, 0, grad / (2 * result))
    return var_backward(g, self, dim, correction, keepdim)


def norm_backward(grad: Tensor, self: Tensor, ord: Any, result: Tensor, dim: Any,
                  keepdim: bool) -> Tensor:
    p = float(ord)
    if p == 2:  # the scale at the reduced shape, then one pass over the input
        scale = F.where(result == 0, 0, grad / result)
        return self * expand_reduced(scale, self.shape, dim, keepdim)
    g = expand_reduced(grad, self.shape, dim, keepdim)
    res = expand_reduced(result, self.shape, dim, keepdim)
    if p == 0:
        return F.zeros_like(self)
    if p == 1:
        return g * self.sign()
    if math.isinf(p):
        mask = self.abs() == res
        dims = _reduced_dims(dim, self.ndim)
        count = mask.sum(dims, keepdim=True)
        return F.where(mask, self.sign() * g / count, 0)
    scaled = self * self.abs().pow(p - 2) * g / res.pow(p - 1)
    return F.where(res == 0, 0, scaled)


def logsumexp_backward(grad: Tensor, self: Tensor, result: Tensor, dim: Any,
                       keepdim: bool) -> Tensor:
    g = expand_reduced(grad, self.shape, dim, keepdim)
    res = expand_reduced(result, self.shape, dim, keepdim)
    return g * (self - res).exp()


def cumprod_backward(grad: Tensor, self: Tensor, dim: int, result: Tensor) -> Tensor:
    if self.ndim == 0 or self.numel() == 0:
        return grad
    dim = _wrap(dim, self.ndim)
    if not bool((self == 0).any()):
        return F._cumsum_backward(grad * result, dim) / self
    # With zeros the division is undefined; sum the exact partial products instead:
    # d out_i / d x_k = prod_{j <= i, j != k} x_j for i >= k.
    n = self.shape[dim]
    pieces = []
    for k in range(n):
        ones = F.ones_like(self.narrow(dim, k, 1))
        parts = [self.narrow(dim, 0, k), ones, self.narrow(dim, k + 1, n - k - 1)]
        replaced = F.cat([p for p in parts if p.shape[dim] > 0], dim)
        partial = replaced.cumprod(dim).narrow(dim, k, n - k)
        pieces.append((grad.narrow(dim, k, n - k) * partial).sum(dim, keepdim=True))
    return F.cat(pieces, dim)


def matmul_backward(grad: Tensor, self: Tensor, other: Tensor,
                    mask: Sequence[bool]) -> tuple[Tensor | None, Tensor | None]:
    g_self = g_other = None
    if self.ndim == 1 and other.ndim == 1:
        return (grad * other if mask[0] else None, grad * self if mask[1] else None)
    if self.ndim == 1:
        if mask[0]:
            g_self = (grad.unsqueeze(-2) @ other.mT).squeeze(-2)
        if mask[1]:
            g_other = self.unsqueeze(-1) * grad.unsqueeze(-2)
        return g_self, g_other
    if other.ndim == 1:
        if mask[0]:
            g_self = grad.unsqueeze(-1) * other
        if mask[1]:
            g_other = (self.mT @ grad.unsqueeze(-1)).squeeze(-1)
        return g_self, g_other
    # t(): for matrices the cheapest transpose (one dispatch, no dims to wrap)
    if mask[0]:
        g_self = grad @ (other.t() if other.ndim == 2 else other.mT)
    if mask[1]:
        g_other = (self.t() if self.ndim == 2 else self.mT) @ grad
    return g_self, g_other


def linear_backward(grad: Tensor, input: Tensor, weight: Tensor, bias: Tensor | None,
                    mask: Sequence[bool]) -> tuple[Tensor | None, ...]:
    """``input @ weight.T + bias``: the weight gradient comes out as ``grad.T @ input``, in the
    weight's own (out, in) layout, and the bias gradient as one sum over the batch dims."""
    if weight.ndim != 2 or input.ndim < 2:
        g_input, g_weight_t = matmul_backward(grad, input, weight.t(), mask[:2])
        g_weight = g_weight_t.t() if g_weight_t is not None else None
    else:
        g_input = grad.matmul(weight) if mask[0] else None
        g_weight = None
        if mask[1]:
            out_features, in_features = weight.shape
            # the batch rows counted, not -1: reshape(-1, 0) is ambiguous for a 0-wide layer
            rows = math.prod(grad.shape[:-1])
            g_weight = grad.reshape(rows, out_features).t().mm(input.reshape(rows, in_features))
    g_bias = sum_to(grad, bias.shape) if mask[2] and bias is not None else None
    return g_input, g_weight, g_bias


def softmax_double_backward(grad: Tensor, grad_output: Tensor, dim: int,
                            output: Tensor) -> Tensor:
    """d<output * (grad_output - sum(grad_output * output)), grad> / d output."""
    return (grad * (grad_output - (grad_output * output).sum(dim, keepdim=True))
            - grad_output * (grad * output).sum(dim, keepdim=True))


def log_softmax_double_backward(grad: Tensor, grad_output: Tensor, dim: int,
                                output: Tensor) -> Tensor:
    """d<grad_output - exp(output) * sum(grad_output), grad> / d output."""
    return -grad * output.exp() * grad_output.sum(dim, keepdim=True)


def sort_backward(grad: Tensor, indices: Tensor, shape: Sequence[int], dim: int) -> Tensor:
    if len(shape) == 0:
        return grad.reshape(())
    return grad.new_zeros(tuple(shape)).scatter(dim, indices, grad)


def permute_backward(grad: Tensor, dims: Sequence[int]) -> Tensor:
    n = len(dims)
    inverse = [0] * n
    for i, d in enumerate(dims):
        inverse[_wrap(d, n)] = i
    return grad.permute(inverse)


def repeat_backward(grad: Tensor, shape: Sequence[int], repeats: Sequence[int]) -> Tensor:
    shape = tuple(shape)
    padded = (1,) * (len(repeats) - len(shape)) + shape
    split_shape: list[int] = []
    for r, s in zip(repeats, padded):
        split_shape += [r, s]
    g = grad.reshape(split_shape)
    g = g.sum(list(range(0, 2 * len(repeats), 2))) if repeats else g
    return g.reshape(shape)


def roll_backward(grad: Tensor, shifts: Sequence[int], dims: Sequence[int]) -> Tensor:
    return grad.roll([-s for s in shifts], dims)


def cat_backward(grad: Tensor, dim: int, tensors: Sequence[Tensor]) -> list[Tensor]:
    dim = _wrap(dim, grad.ndim)
    grads, offset = [], 0
    for t in tensors:
        if t.ndim == 1 and t.shape[0] == 0 and grad.ndim != 1:
            grads.append(F.zeros_like(t))  # legacy empty tensors take part in cat untouched
            continue
        size = t.shape[dim]
        grads.append(grad.narrow(dim, offset, size))
        offset += size
    return grads


def split_backward(grads: Sequence[Tensor], dim: int) -> Tensor:
    """split's gradient: its pieces' gradients joined again (the engine gives an unused
    piece zeros), one copy for all the pieces."""
    return F.cat(list(grads), dim)


def unbind_backward(grads: Sequence[Tensor], dim: int) -> Tensor:
    """unbind's gradient: its slices' gradients stacked again (the engine gives an unused
    slice zeros), one copy for all the slices."""
    return F.stack(list(grads), dim)


def stack_backward(grad: Tensor, dim: int) -> list[Tensor]:
    """stack's gradients: the slices of ``grad`` along the new dim (views, no copies)."""
    return list(grad.unbind(dim))


def copy_backward(grad: Tensor, shape: Sequence[int], dtype: Any, device: Any) -> Tensor:
    """The source's gradient: summed to its shape, cast back to its dtype and device."""
    return sum_to(grad, shape).to(dtype=dtype, device=device)


def to_copy_backward(grad: Tensor, dtype: Any, device: Any) -> Tensor:
    return grad.to(dtype=dtype, device=device)


def div_backward_self(grad: Tensor, other: Any, rounding_mode: str | None) -> Tensor:
    if rounding_mode is not None:
        return F.zeros_like(grad)
    return grad / other


def div_backward_other(grad: Tensor, self: Any, other: Tensor,
                       rounding_mode: str | None) -> Tensor:
    if rounding_mode is not None:
        return F.zeros_like(grad)
    return -grad * self / (other * other)


def pow_backward_self(grad: Tensor, self: Tensor, exponent: Any) -> Tensor:
    if isinstance(exponent, numbers.Number):
        if exponent == 0:
            return F.zeros_like(self)
        return grad * exponent * self.pow(exponent - 1)
    return F.where(exponent == 0, 0, grad * exponent * F.pow(self, exponent - 1))


def pow_backward_exponent(grad: Tensor, self: Any, exponent: Tensor, result: Tensor) -> Tensor:
    if isinstance(self, numbers.Number):
        if self == 0:
            return F.where(exponent >= 0, 0, grad * result * math.log(self) if self > 0
                           else grad * math.nan)
        return grad * result * math.log(self)
    return F.where((self == 0) & (exponent >= 0), 0, grad * result * self.log())


def clamp_backward(grad: Tensor, self: Tensor, min: Any, max: Any) -> Tensor:
    mask = None
    if min is not None:
        mask = self >= min
    if max is not None:
        upper = self <= max
        mask = upper if mask is None else mask & upper
    return grad if mask is None else F.where(mask, grad, 0)


def einsum_backward(grad: Tensor, equation: str, tensors: Sequence[Tensor],
                    mask: Any) -> list[Tensor | None]:
    inputs, output = einsum_subscripts(equation, tensors)
    sizes: dict[str, int] = {}
    for s, t in zip(inputs, tensors):
        for c, n in zip(s, t.shape):
            sizes[c] = n if sizes.get(c, 1) == 1 else sizes[c]
    grads: list[Tensor | None] = []
    for i, (sub, t) in enumerate(zip(inputs, tensors)):
        others = [(s, x) for j, (s, x) in enumerate(zip(inputs, tensors)) if j != i]
        available = set(output) | {c for s, _ in others for c in s}
        unique = "".join(dict.fromkeys(sub))
        target = "".join(c for c in unique if c in available)
        operands = [grad] + [x for _, x in others]
        eq = ",".join([output] + [s for s, _ in others]) + "->" + target
        g = F.einsum(eq, operands)
        # letters only this operand had were summed away: broadcast the gradient back over them
        for pos, c in enumerate(unique):
            if c not in available:
                g = g.unsqueeze(pos)
        g = g.expand([sizes[c] for c in unique])
        if len(unique) != len(sub):  # repeated letters (a diagonal): put the gradient on it
            spare = iter(c for c in "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
                         if c not in equation + "".join(inputs))
            seen: set[str] = set()
            new_sub, eyes, eye_subs = [], [], []
            for c in sub:
                if c in seen:
                    n = next(spare)
                    new_sub.append(n)
                    eyes.append(fac.eye(sizes[c], dtype=grad.dtype, device=grad.device))
                    eye_subs.append(c + n)
                else:
                    seen.add(c)
                    new_sub.append(c)
            g = F.einsum(",".join([unique] + eye_subs) + "->" + "".join(new_sub), [g] + eyes)
        grads.append(sum_to(g, t.shape))
    return grads


def index_add_source_grad(grad: Tensor, dim: int, index: Tensor, source: Tensor) -> Tensor:
    if source.ndim == 0:
        return grad.index_select(dim, index).reshape(())
    return grad.index_select(dim, index)


def index_put_self_grad(grad: Tensor, indices: Sequence[Any], accumulate: bool) -> Tensor:
    if accumulate:
        return grad
    return grad.index_put(indices, F.zeros_like(grad.reshape(-1)[0]), False)


def masked_select_backward(grad: Tensor, self: Tensor, mask: Tensor) -> Tensor:
    shape = broadcast_shapes(tuple(self.shape), tuple(mask.shape))
    zeros = grad.new_zeros(shape)
    return zeros.masked_scatter(mask.expand(shape), grad)


def masked_scatter_source_grad(grad: Tensor, mask: Tensor, source: Tensor) -> Tensor:
    picked = grad.masked_select(mask.expand(grad.shape))
    missing = source.numel() - picked.numel()
    if missing > 0:
        picked = F.cat([picked, picked.new_zeros((missing,))])
    return picked.reshape(source.shape)


def as_strided_backward(grad: Tensor, self: Tensor, size: Sequence[int], stride: Sequence[int],
                        storage_offset: int | None) -> Tensor:
    """Scatter-add the view's gradient into storage positions, then read self's positions."""
    offset = self.storage_offset() if storage_offset is None else storage_offset

    def positions(shape: Sequence[int], strides: Sequence[int], start: int) -> Tensor:
        pos = fac.full((), start, dtype=D.int64, device=grad.device)
        for i, (n, s) in enumerate(zip(shape, strides)):
            ar = fac.arange(n, device=grad.device) * s
            pos = pos.unsqueeze(-1) + ar.reshape([1] * i + [n]) if i else pos + ar
        return pos.reshape(-1)

    view_pos = positions(size, stride, offset)
    self_pos = positions(self.shape, self.stride(), self.storage_offset())
    span = int(max(view_pos.max().item() if view_pos.numel() else 0,
                   self_pos.max().item() if self_pos.numel() else 0)) + 1
    flat = grad.new_zeros((span,)).index_add(0, view_pos, grad.reshape(-1))
    return flat.index_select(0, self_pos).reshape(self.shape)


def diag_backward(grad: Tensor, shape: Sequence[int], diagonal: int) -> Tensor:
    if len(shape) == 1:
        return grad.diagonal(diagonal)
    return F.diagonal_backward(grad, list(shape), diagonal, 0, 1)


def max_pool_double_backward(grad: Tensor, self: Tensor, indices: Tensor) -> Tensor:
    spatial = indices.ndim - 2
    flat = grad.flatten(-spatial) if spatial > 0 else grad
    idx = indices.flatten(-spatial)
    return flat.gather(-1, idx).reshape(indices.shape)


def convolution_double_backward(grads: Sequence[Any], grad_output: Tensor, input: Tensor,
                                weight: Tensor, stride: Sequence[int], padding: Sequence[int],
                                dilation: Sequence[int], transposed: bool,
                                output_padding: Sequence[int], groups: int,
                                mask: Sequence[bool]) -> tuple[Any, Any, Any]:
    """Derivatives of ``convolution_backward``: its outputs are linear in (grad_output, weight)
    and (input, grad_output), so each is the forward convolution or one of its two gradient
    maps applied to the incoming gradients (ggi, ggw, ggb)."""
    ggi, ggw, ggb = (list(grads) + [None, None, None])[:3]
    conv_args = (stride, padding, dilation, transposed, output_padding, groups)
    g_grad_output = g_input = g_weight = None
    if mask[0]:
        parts = []
        if ggi is not None:
            parts.append(F.convolution(ggi, weight, None, *conv_args))
        if ggw is not None:
            parts.append(F.convolution(input, ggw, None, *conv_args))
        if ggb is not None:
            parts.append(ggb.reshape([1, -1] + [1] * (grad_output.ndim - 2)))
        if parts:
            g_grad_output = parts[0]
            for p in parts[1:]:
                g_grad_output = g_grad_output + p
    if mask[1] and ggw is not None:
        g_input = F.convolution_backward(grad_output, input, ggw, *conv_args,
                                         (True, False, False))[0]
    if mask[2] and ggi is not None:
        g_weight = F.convolution_backward(grad_output, ggi, weight, *conv_args,
                                          (False, True, False))[1]
    return g_grad_output, g_input, g_weight


# Note [Norm double backward]
# batch/layer/group norm normalise x over groups of M elements with the saved statistics:
# xhat = (x - mean) * rstd, y = xhat * w + b, and their backward kernels compute
#   gx = rstd * (g - mean(g) - xhat * mean(g * xhat)),  g = gy * w,
#   gw = sum(gy * xhat),  gb = sum(gy)   (means over a group, sums over what w broadcasts on).
# Differentiating <gx, ggx> + <gw, ggw> + <gb, ggb> by hand, with d xhat_i / d x_j =
# rstd * (delta_ij - 1/M - xhat_i xhat_j / M) and d rstd / d x_j = -rstd^2 xhat_j / M, gives the
# formulas of _norm_double_backward, which read the saved mean and rstd (no forward recomputed).


def _norm_double_backward(ggx: Any, ggw: Any, ggb: Any, gy: Tensor, x: Tensor, w: Any,
                          mean: Tensor, rstd: Tensor, dims: list[int]) -> tuple:
    """Second-order terms in the working layout (every argument broadcasts against ``x`` and a
    group is ``dims``): the gradients for ``gy`` and ``x``, and the per-element terms of the
    weight's gradient (summed to the weight's shape by the caller)."""
    count = 1
    for d in dims:
        count *= x.shape[d]

    def group_mean(t: Tensor) -> Tensor:
        return t.mean(dims, keepdim=True)

    def group_sum(t: Tensor) -> Tensor:
        return t.sum(dims, keepdim=True)

    xhat = (x - mean) * rstd
    g = gy if w is None else gy * w
    g_gy = g_x = g_w = None
    if ggx is not None:
        # d<gx, ggx>/dg is the first-order backward applied to ggx
        dg = rstd * (ggx - group_mean(ggx) - xhat * group_mean(ggx * xhat))
        g_gy = dg if w is None else dg * w
        g_w = gy * dg
        g_mean, gx_mean = group_mean(g), group_mean(g * xhat)
        s_c = group_sum(ggx * (g - g_mean))
        p = group_sum(ggx * xhat)
        g_x = -(rstd * rstd / count) * (xhat * (s_c - 3 * p * gx_mean)
                                         + count * gx_mean * (ggx - group_mean(ggx))
                                         + p * (g - g_mean))
    if ggw is not None:
        g_gy = ggw * xhat if g_gy is None else g_gy + ggw * xhat
        d = ggw * gy
        term = rstd * (d - group_mean(d) - xhat * group_mean(d * xhat))
        g_x = term if g_x is None else g_x + term
    if ggb is not None:
        g_gy = F.zeros_like(gy) + ggb if g_gy is None else g_gy + ggb
    return g_gy, g_x, g_w


def _masked(mask: Sequence[bool], g_gy: Any, g_x: Any, g_w: Any) -> tuple:
    return (g_gy if mask[0] else None, g_x if mask[1] else None,
            g_w if mask[2] else None)


def layer_norm_double_backward(grads: Sequence[Any], grad_out: Tensor, input: Tensor,
                               normalized_shape: Sequence[int], mean: Tensor, rstd: Tensor,
                               weight: Any, mask: Sequence[bool]) -> tuple:
    lead = input.ndim - len(normalized_shape)
    dims = list(range(lead, input.ndim))
    g_gy, g_x, g_w = _norm_double_backward(*grads, grad_out, input, weight, mean, rstd, dims)
    if g_w is not None and weight is not None and lead:
        g_w = g_w.sum(list(range(lead)))
    return _masked(mask, g_gy, g_x, g_w if weight is not None else None)


def atan2_backward(grad: Tensor, self: Tensor, other: Tensor, mask: Sequence[bool]) -> tuple:
    """atan2's gradients, 0 at the origin where 1 / (self^2 + other^2) is inf (PyTorch's)."""
    recip = F.reciprocal(self * self + other * other)
    recip = F.where(F.isinf(recip), 0.0, recip)
    return (grad * other * recip if mask[0] else None,
            -grad * self * recip if mask[1] else None)


def group_norm_backward(grads: Sequence[Any], input: Tensor, mean: Tensor, rstd: Tensor,
                        weight: Any, N: int, C: int, HxW: int, group: int,
                        mask: Sequence[bool], eps: float) -> tuple:
    """native_group_norm's backward from all three outputs' gradients, as PyTorch's: the
    output's through native_group_norm_backward; the mean's and rstd's reach the input only
    (mean = sum(x) / M and rstd = (var + eps)^-1/2 over each group of M values)."""
    grad, grad_mean, grad_rstd = grads
    g_x = g_w = g_b = None
    if grad is not None:
        g_x, g_w, g_b = F.native_group_norm_backward(grad, input, mean, rstd, weight, N, C,
                                                     HxW, group, mask, eps)
    # (the engine hands zeros for an unused output, so both are given whenever one is; PyTorch
    # drops a lone one, an undefined-gradient quirk that volta does not copy)
    if mask[0] and grad_mean is not None and grad_rstd is not None:
        size = C // group * HxW  # spelled out: an empty batch cannot infer it
        x = input.reshape(N, group, size)
        r = rstd.reshape(N, group, 1)
        centred = x - mean.reshape(N, group, 1)
        extra = (grad_mean.reshape(N, group, 1)
                 - grad_rstd.reshape(N, group, 1) * r * r * r * centred) / size
        extra = extra.reshape(tuple(input.shape))
        g_x = extra if g_x is None else g_x + extra
    return _masked(mask, g_x, g_w, g_b)


def group_norm_double_backward(grads: Sequence[Any], grad_out: Tensor, input: Tensor,
                               mean: Tensor, rstd: Tensor, weight: Any, group: int,
                               mask: Sequence[bool]) -> tuple:
    n, c = input.shape[0], input.shape[1]
    channel = [1, c] + [1] * (input.ndim - 2)

    def grouped(t: Any) -> Any:  # (N, C, *) -> (N, group, C / group * spatial)
        if t is None:
            return None
        return t.reshape(channel).expand(tuple(input.shape)).reshape(n, group, -1)

    ggx, ggw, ggb = grads
    g_gy, g_x, g_w = _norm_double_backward(
        None if ggx is None else ggx.reshape(n, group, -1), grouped(ggw), grouped(ggb),
        grad_out.reshape(n, group, -1), input.reshape(n, group, -1), grouped(weight),
        mean.reshape(n, group, 1), rstd.reshape(n, group, 1), [2])
    shape = tuple(input.shape)
    if g_w is not None and weight is not None:
        g_w = g_w.reshape(shape).sum([0] + list(range(2, input.ndim)))
    return _masked(mask, None if g_gy is None else g_gy.reshape(shape),
                   None if g_x is None else g_x.reshape(shape),
                   g_w if weight is not None else None)


def batch_norm_double_backward(grads: Sequence[Any], grad_out: Tensor, input: Tensor,
                               weight: Any, running_mean: Any, running_var: Any,
                               save_mean: Any, save_invstd: Any, train: bool, eps: float,
                               mask: Sequence[bool]) -> tuple:
    dims = [0] + list(range(2, input.ndim))
    channel = [1, input.shape[1]] + [1] * (input.ndim - 2)
    ggx, ggw, ggb = grads
    ggw = None if ggw is None else ggw.reshape(channel)
    ggb = None if ggb is None else ggb.reshape(channel)
    w = None if weight is None else weight.reshape(channel)
    if train:
        g_gy, g_x, g_w = _norm_double_backward(
            ggx, ggw, ggb, grad_out, input, w, save_mean.reshape(channel),
            save_invstd.reshape(channel), dims)
    else:
        # running statistics are constants: the backward is linear in grad_out and weight
        rstd = (running_var.reshape(channel) + eps).rsqrt()
        xhat = (input - running_mean.reshape(channel)) * rstd
        g_gy = g_x = g_w = None
        if ggx is not None:
            g_gy = ggx * rstd if w is None else ggx * rstd * w
            g_w = ggx * rstd * grad_out
        if ggw is not None:
            g_gy = ggw * xhat if g_gy is None else g_gy + ggw * xhat
            g_x = ggw * grad_out * rstd
        if ggb is not None:
            g_gy = F.zeros_like(grad_out) + ggb if g_gy is None else g_gy + ggb
    if g_w is not None and weight is not None:
        g_w = g_w.sum(dims)
    return _masked(mask, g_gy, g_x, g_w if weight is not None else None)
