"""Scaled dot-product attention on the device, written with device ops (matmul, logsumexp,
pointwise): the scores of the whole (L, S) problem exist at once, unlike the CPU backend's
blocked kernel, which the GPU's memory affords at the sizes volta's models use.

The outputs keep the CPU kernel's contract (output, per-row logsumexp of the scaled, masked
scores, +inf for a row that sees no key, whose output is zero), except the third: with dropout
it holds the uniform numbers the keep-mask was drawn from on the device (0-d zero without
dropout), so the backward rebuilds the same mask with no sync and no upload.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from volta import dtypes as D
from volta.autograd.graph import sum_to
from volta.backends.wgpu.kernels.composed import _arange
from volta.backends.wgpu.storage import empty
from volta.tensor.factories import rand
from volta.tensor.tensor import Tensor


def _grouped(t: Tensor, heads: int, enable_gqa: bool) -> Tensor:
    """Key/value heads repeated so each serves its group of ``heads`` query heads (GQA)."""
    if not enable_gqa or t.ndim < 3 or t._shape[-3] == heads:
        return t
    group = heads // t._shape[-3]
    shape = t._shape[:-3] + (t._shape[-3], group) + t._shape[-2:]
    return t.unsqueeze(-3).expand(shape).reshape(t._shape[:-3] + (heads,) + t._shape[-2:])


def _operands(query: Tensor, key: Tensor, value: Tensor, enable_gqa: bool
              ) -> tuple[Tensor, Tensor, Tensor]:
    heads = query._shape[-3] if query.ndim >= 3 else 1
    q, k, v = (t.to(D.float32) for t in (query, key, value))
    return q, _grouped(k, heads, enable_gqa), _grouped(v, heads, enable_gqa)


def _scores(q: Tensor, k: Tensor, attn_mask: Tensor | None, is_causal: bool,
            scale: float) -> Tensor:
    s = (q * scale) @ k.transpose(-2, -1)
    if attn_mask is not None:
        s = s.where(attn_mask, float("-inf")) if attn_mask.dtype is D.bool_ else \
            s + attn_mask.to(D.float32)
    if is_causal:
        L, S = s._shape[-2:]
        hidden = _arange(S, s).unsqueeze(0) > _arange(L, s).unsqueeze(1)
        s = s.where(~hidden, float("-inf"))
    return s


def _keep(uniform: Tensor, dropout_p: float) -> Tensor:
    """The dropout factor: 0 where dropped, ``1 / (1 - p)`` where kept."""
    factor = 0.0 if dropout_p >= 1 else 1.0 / (1.0 - dropout_p)
    return (uniform >= dropout_p).to(D.float32) * factor


def sdpa_flash(query: Tensor, key: Tensor, value: Tensor, attn_mask: Tensor | None,
               dropout_p: float, is_causal: bool, scale: float,
               enable_gqa: bool) -> tuple[Tensor, Tensor, Tensor]:
    q, k, v = _operands(query, key, value, enable_gqa)
    s = _scores(q, k, attn_mask, is_causal, scale)
    lse = s.logsumexp(-1)
    lse = lse.where(lse != float("-inf"), float("inf"))  # a row that sees no key
    probs = (s - lse.unsqueeze(-1)).exp()
    if dropout_p > 0:
        uniform = rand(probs._shape, device=query.device)
        probs = probs * _keep(uniform, dropout_p)
    else:
        uniform = empty((), D.float32, query._device).fill_(0)
    return (probs @ v).to(query.dtype), lse, uniform


def sdpa_flash_backward(grad_out: Tensor, query: Tensor, key: Tensor, value: Tensor,
                        attn_mask: Tensor | None, out: Tensor, logsumexp: Tensor,
                        rng_seed: Tensor, dropout_p: float, is_causal: bool, scale: float,
                        enable_gqa: bool, output_mask: Sequence[bool]
                        ) -> tuple[Tensor | None, ...]:
    q, k, v = _operands(query, key, value, enable_gqa)
    g = grad_out.to(D.float32)
    probs = (_scores(q, k, attn_mask, is_causal, scale) - logsumexp.unsqueeze(-1)).exp()
    dprobs = g @ v.transpose(-2, -1)
    if dropout_p > 0:
        keep = _keep(rng_seed, dropout_p)
        dv = (probs * keep).transpose(-2, -1) @ g
        dprobs = dprobs * keep
    else:
        dv = probs.transpose(-2, -1) @ g
    delta = (g * out.to(D.float32)).sum(-1, keepdim=True)  # sum_j P_ij dP_ij = dO_i . O_i
    dscores = probs * (dprobs - delta)
    full: list[Any] = [(dscores @ k) * scale, dscores.transpose(-2, -1) @ (q * scale), dv]
    grads: list[Tensor | None] = []
    for t, grad, wanted in zip((query, key, value), full, output_mask, strict=False):
        if not wanted:
            grads.append(None)
            continue
        if t.ndim >= 3 and grad.ndim >= 3 and grad._shape[-3] != t._shape[-3] and enable_gqa:
            # GQA: a key/value head's gradient sums over the query heads of its group
            heads = t._shape[-3]
            grad = grad.reshape(grad._shape[:-3] + (heads, -1) + grad._shape[-2:]).sum(-3)
        grads.append(sum_to(grad, t._shape).to(t.dtype))
    wants_mask = len(output_mask) > 3 and output_mask[3]
    if wants_mask and attn_mask is not None and attn_mask.dtype is not D.bool_:
        grads.append(sum_to(dscores, attn_mask._shape).to(attn_mask.dtype))
    else:
        grads.append(None)
    return tuple(grads)


KERNELS = {"_scaled_dot_product_attention_flash": sdpa_flash,
           "_scaled_dot_product_attention_flash_backward": sdpa_flash_backward}
