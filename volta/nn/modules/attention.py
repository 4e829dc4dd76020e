"""Multi-head attention: ``MultiheadAttention`` and its functional form
``multi_head_attention_forward``, with PyTorch's parameters, ``state_dict`` layout, mask rules
and results.

The projections run on the input's own layout flattened to rows (one 2-D matmul each, whose
weight gradient is one 2-D matmul too, not a batched product summed over the batch); the heads
are then a view ``(N, H, L, head_dim)`` of the projection, for either layout. Self-attention
(query is key is value) is projected with a single matmul split into q, k and v without copies.
"""

from __future__ import annotations

import math
import warnings
from typing import Any

import volta
import volta.nn.functional as F
from volta.nn import init
from volta.nn.modules.linear import Linear
from volta.nn.modules.module import Module
from volta.nn.parameter import Parameter

Tensor = volta.Tensor

__all__ = ["MultiheadAttention", "NonDynamicallyQuantizableLinear",
           "multi_head_attention_forward"]


class NonDynamicallyQuantizableLinear(Linear):
    """The class of ``MultiheadAttention.out_proj``, named as in PyTorch so module reprs and
    type checks agree; it is a plain :class:`Linear` (volta has no dynamic quantization)."""


def canonical_mask(mask: Tensor | None, mask_name: str, other_type: volta.dtype | None,
                   other_name: str, target_type: volta.dtype,
                   check_other: bool = True) -> Tensor | None:
    """PyTorch's mask convention in one form: a bool mask (``True`` = may not attend) becomes an
    additive float mask of ``target_type`` with ``-inf`` where it was ``True``; a float mask is
    returned as is. Mixing a bool and a float mask is deprecated in PyTorch and warns here too."""
    if mask is None:
        return None
    is_float = mask.dtype.is_floating_point
    if mask.dtype is not volta.bool and not is_float:
        raise volta.DTypeError(f"only bool and floating types of {mask_name} are supported")
    if check_other and other_type is not None and mask.dtype is not other_type:
        warnings.warn(f"Support for mismatched {mask_name} and {other_name} is deprecated. "
                      f"Use same type for both instead.", UserWarning, stacklevel=3)
    if is_float:
        return mask
    return volta.zeros_like(mask, dtype=target_type).masked_fill(mask, -math.inf)


def _check_shapes(query: Tensor, key: Tensor, value: Tensor, key_padding_mask: Tensor | None,
                  attn_mask: Tensor | None, num_heads: int) -> bool:
    """Whether the inputs are batched; raises on ranks PyTorch rejects."""
    rank = query.dim()
    if rank not in (2, 3):
        raise volta.ShapeError(f"query should be unbatched 2D or batched 3D tensor but received "
                               f"{rank}-D query tensor")
    kind = "batched (3-D)" if rank == 3 else "unbatched (2-D)"
    if key.dim() != rank or value.dim() != rank:
        raise volta.ShapeError(
            f"For {kind} `query`, expected `key` and `value` to be {rank}-D but found "
            f"{key.dim()}-D and {value.dim()}-D tensors respectively")
    if key_padding_mask is not None and key_padding_mask.dim() != rank - 1:
        raise volta.ShapeError(
            f"For {kind} `query`, expected `key_padding_mask` to be `None` or {rank - 1}-D but "
            f"found {key_padding_mask.dim()}-D tensor instead")
    if attn_mask is not None:
        if attn_mask.dim() not in (2, 3):
            raise volta.ShapeError(
                f"For {kind} `query`, expected `attn_mask` to be `None`, 2-D or 3-D but found "
                f"{attn_mask.dim()}-D tensor instead")
        expected = (num_heads, query.shape[0], key.shape[0])
        if rank == 2 and attn_mask.dim() == 3 and tuple(attn_mask.shape) != expected:
            raise volta.ShapeError(f"Expected `attn_mask` shape to be {expected} but got "
                                   f"{tuple(attn_mask.shape)}")
    return rank == 3


def _linear_rows(x: Tensor, weight: Tensor, bias: Tensor | None) -> Tensor:
    """``F.linear`` over ``x`` flattened to rows ``(-1, features)``, reshaped back."""
    rows = F.linear(x.reshape(-1, x.shape[-1]), weight, bias)
    return rows.view(*x.shape[:-1], rows.shape[-1])


def _bias_chunks(bias: Tensor | None, sizes: list[int]) -> tuple:
    return (None,) * len(sizes) if bias is None else tuple(bias.split(sizes))


def _in_projection(query: Tensor, key: Tensor, value: Tensor, embed_dim: int,
                   in_proj_weight: Tensor | None, in_proj_bias: Tensor | None,
                   separate: tuple | None) -> tuple[Tensor, Tensor, Tensor]:
    """q, k, v projections; self-attention (query is key is value) is one matmul."""
    e = embed_dim
    if separate is not None:
        b_q, b_k, b_v = _bias_chunks(in_proj_bias, [e, e, e])
        q_w, k_w, v_w = separate
        return (_linear_rows(query, q_w, b_q), _linear_rows(key, k_w, b_k),
                _linear_rows(value, v_w, b_v))
    if key is value:
        if query is key:
            return _linear_rows(query, in_proj_weight, in_proj_bias).split(e, -1)
        w_q, w_kv = in_proj_weight.split([e, 2 * e])
        b_q, b_kv = _bias_chunks(in_proj_bias, [e, 2 * e])
        k, v = _linear_rows(key, w_kv, b_kv).split(e, -1)
        return _linear_rows(query, w_q, b_q), k, v
    w_q, w_k, w_v = in_proj_weight.split(e)
    b_q, b_k, b_v = _bias_chunks(in_proj_bias, [e, e, e])
    return (_linear_rows(query, w_q, b_q), _linear_rows(key, w_k, b_k),
            _linear_rows(value, w_v, b_v))


def _pad_last(mask: Tensor | None) -> Tensor | None:
    """One more key that every query may see (the bias_k / zero-attention column)."""
    return None if mask is None else F.pad(mask, (0, 1))


def _static(tensor: Tensor, name: str, batch: int, num_heads: int, head_dim: int) -> Tensor:
    if tensor.shape[0] != batch * num_heads or tensor.shape[2] != head_dim:
        raise volta.ShapeError(f"expecting {name}.size(0) of {batch * num_heads} and "
                               f"{name}.size(2) of {head_dim}, but got {tuple(tensor.shape)}")
    return tensor.view(batch, num_heads, tensor.shape[1], head_dim)


def multi_head_attention_forward(
        query: Tensor, key: Tensor, value: Tensor, embed_dim_to_check: int, num_heads: int,
        in_proj_weight: Tensor | None, in_proj_bias: Tensor | None, bias_k: Tensor | None,
        bias_v: Tensor | None, add_zero_attn: bool, dropout_p: float,
        out_proj_weight: Tensor, out_proj_bias: Tensor | None, training: bool = True,
        key_padding_mask: Tensor | None = None, need_weights: bool = True,
        attn_mask: Tensor | None = None, use_separate_proj_weight: bool = False,
        q_proj_weight: Tensor | None = None, k_proj_weight: Tensor | None = None,
        v_proj_weight: Tensor | None = None, static_k: Tensor | None = None,
        static_v: Tensor | None = None, average_attn_weights: bool = True,
        is_causal: bool = False, *, batch_first: bool = False
) -> tuple[Tensor, Tensor | None]:
    """PyTorch's ``F.multi_head_attention_forward``: multi-head attention with explicit weights.

    Args:
        query: ``(L, N, E)``, or ``(L, E)`` unbatched.
        key, value: ``(S, N, kdim)`` / ``(S, N, vdim)``, or unbatched ``(S, kdim)`` /
            ``(S, vdim)``.
        key_padding_mask: ``(N, S)`` (``(S,)`` unbatched); bool ``True`` or float ``-inf``
            marks keys to ignore (a float mask is added to the scores).
        attn_mask: ``(L, S)`` or ``(N * num_heads, L, S)``; bool ``True`` = may not attend,
            float = added to the scores.
        need_weights: also return the attention weights (computed explicitly, so the
            ``(N, H, L, S)`` score matrix exists); otherwise the fused
            ``F.scaled_dot_product_attention`` computes the output alone.
        average_attn_weights: average the returned weights over the heads.
        is_causal: a hint that ``attn_mask`` is the causal mask (``attn_mask`` is still
            required, as in PyTorch).
        batch_first: volta extension: inputs and output are ``(N, L, E)`` instead.

    Returns:
        ``(output, weights)``: output ``(L, N, E)`` (``(N, L, E)`` with ``batch_first``),
        weights ``(N, L, S)`` averaged or ``(N, H, L, S)`` per head, or ``None``.
    """
    batched = _check_shapes(query, key, value, key_padding_mask, attn_mask, num_heads)
    if not batched:
        # a batch of one, batch-first, squeezed again at the end
        query, key, value = _keep_identity(query, key, value, lambda t: t.unsqueeze(0))
        if key_padding_mask is not None:
            key_padding_mask = key_padding_mask.unsqueeze(0)
        batch_first = True
    batch_dim, seq_dim = (0, 1) if batch_first else (1, 0)
    batch, tgt_len, embed_dim = query.shape[batch_dim], query.shape[seq_dim], query.shape[2]
    src_len = key.shape[seq_dim]

    key_padding_mask = canonical_mask(key_padding_mask, "key_padding_mask",
                                      None if attn_mask is None else attn_mask.dtype,
                                      "attn_mask", query.dtype)
    if is_causal and attn_mask is None:
        raise volta.InvalidArgumentError(
            "Need attn_mask if specifying the is_causal hint. You may use the Transformer "
            "module method `generate_square_subsequent_mask` to create this mask.")
    if is_causal and key_padding_mask is None and not need_weights:
        # the fused kernel builds the causal mask itself
        attn_mask = None
    else:
        attn_mask = canonical_mask(attn_mask, "attn_mask", None, "", query.dtype,
                                   check_other=False)
        if key_padding_mask is not None:
            is_causal = False  # the merged mask is no longer the causal one

    if embed_dim != embed_dim_to_check:
        raise volta.ShapeError(f"was expecting embedding dimension of {embed_dim_to_check}, "
                               f"but got {embed_dim}")
    head_dim = embed_dim // num_heads
    if head_dim * num_heads != embed_dim:
        raise volta.InvalidArgumentError(
            f"embed_dim {embed_dim} not divisible by num_heads {num_heads}")
    if use_separate_proj_weight:
        if key.shape[:2] != value.shape[:2]:
            raise volta.ShapeError(f"key's sequence and batch dims {tuple(key.shape[:2])} do "
                                   f"not match value's {tuple(value.shape[:2])}")
        separate = (q_proj_weight, k_proj_weight, v_proj_weight)
        if any(w is None for w in separate):
            raise volta.InvalidArgumentError(
                "use_separate_proj_weight is True but q_proj_weight, k_proj_weight or "
                "v_proj_weight is None")
    else:
        if key.shape != value.shape:
            raise volta.ShapeError(f"key shape {tuple(key.shape)} does not match value shape "
                                   f"{tuple(value.shape)}")
        if in_proj_weight is None:
            raise volta.InvalidArgumentError(
                "use_separate_proj_weight is False but in_proj_weight is None")
        separate = None

    q, k, v = _in_projection(query, key, value, embed_dim, in_proj_weight, in_proj_bias,
                             separate)

    if attn_mask is not None:
        if attn_mask.dim() == 2:
            if tuple(attn_mask.shape) != (tgt_len, src_len):
                raise volta.ShapeError(f"The shape of the 2D attn_mask is "
                                       f"{tuple(attn_mask.shape)}, but should be "
                                       f"{(tgt_len, src_len)}.")
        elif attn_mask.dim() == 3:
            if tuple(attn_mask.shape) != (batch * num_heads, tgt_len, src_len):
                raise volta.ShapeError(f"The shape of the 3D attn_mask is "
                                       f"{tuple(attn_mask.shape)}, but should be "
                                       f"{(batch * num_heads, tgt_len, src_len)}.")
        else:
            raise volta.ShapeError(f"attn_mask's dimension {attn_mask.dim()} is not supported")

    if (bias_k is None) != (bias_v is None):
        raise volta.InvalidArgumentError(
            f"bias_{'k' if bias_k is not None else 'v'} is set but "
            f"bias_{'v' if bias_k is not None else 'k'} is None")
    if bias_k is not None:
        if static_k is not None or static_v is not None:
            raise volta.InvalidArgumentError("bias cannot be added to static key or value.")
        step = [1, 1, embed_dim]
        step[batch_dim] = batch
        k = volta.cat([k, bias_k.reshape(1, 1, embed_dim).expand(*step)], seq_dim)
        v = volta.cat([v, bias_v.reshape(1, 1, embed_dim).expand(*step)], seq_dim)
        attn_mask, key_padding_mask = _pad_last(attn_mask), _pad_last(key_padding_mask)

    q = _split_heads(q, num_heads, batch_first)
    k = (_split_heads(k, num_heads, batch_first) if static_k is None
         else _static(static_k, "static_k", batch, num_heads, head_dim))
    v = (_split_heads(v, num_heads, batch_first) if static_v is None
         else _static(static_v, "static_v", batch, num_heads, head_dim))

    if add_zero_attn:
        zeros = volta.zeros(batch, num_heads, 1, head_dim, dtype=k.dtype, device=k.device)
        k, v = volta.cat([k, zeros], 2), volta.cat([v, zeros], 2)
        attn_mask, key_padding_mask = _pad_last(attn_mask), _pad_last(key_padding_mask)
    src_len = k.shape[2]

    # one additive mask broadcastable to (N, H, L, S)
    if attn_mask is not None:
        attn_mask = (attn_mask.view(1, 1, tgt_len, src_len) if attn_mask.dim() == 2
                     else attn_mask.view(batch, num_heads, tgt_len, src_len))
    if key_padding_mask is not None:
        for dim, expected in enumerate((batch, src_len)):
            if key_padding_mask.shape[dim] != expected:
                raise volta.ShapeError(f"Expected key_padded_mask.shape[{dim}] to be {expected}, "
                                       f"but got {key_padding_mask.shape[dim]}")
        padding = key_padding_mask.view(batch, 1, 1, src_len)
        attn_mask = padding if attn_mask is None else attn_mask + padding

    if not training:
        dropout_p = 0.0
    weights = None
    if need_weights:
        if is_causal and attn_mask is None:
            raise volta.InvalidArgumentError("is_causal is not implemented for need_weights")
        scores = volta.matmul(q * math.sqrt(1.0 / head_dim), k.transpose(-2, -1))
        if attn_mask is not None:
            scores = scores + attn_mask
        weights = F.softmax(scores, -1)
        if dropout_p > 0.0:
            weights = F.dropout(weights, dropout_p)
        heads = volta.matmul(weights, v)
    else:
        heads = F.scaled_dot_product_attention(q, k, v, attn_mask, dropout_p, is_causal)

    # (N, H, L, hd) -> the caller's layout, one copy, then the output projection
    merged = (heads.transpose(1, 2).reshape(batch, tgt_len, embed_dim) if batch_first
              else heads.permute(2, 0, 1, 3).reshape(tgt_len, batch, embed_dim))
    output = _linear_rows(merged, out_proj_weight, out_proj_bias)
    if weights is not None and average_attn_weights:
        weights = weights.mean(1)
    if not batched:
        output = output.squeeze(0)
        weights = None if weights is None else weights.squeeze(0)
    return output, weights


def _keep_identity(query: Tensor, key: Tensor, value: Tensor,
                   change: Any) -> tuple[Tensor, Tensor, Tensor]:
    """``change`` (a view) applied to the three inputs; inputs that were
    the same tensor stay the same tensor, so self-attention is still recognised and projected
    with one matmul."""
    q = change(query)
    k = q if key is query else change(key)
    if value is key:
        return q, k, k
    return q, k, q if value is query else change(value)


def _split_heads(x: Tensor, num_heads: int, batch_first: bool) -> Tensor:
    """``(N, S, H * hd)`` or ``(S, N, H * hd)`` -> ``(N, H, S, hd)`` (a view where the
    layout allows)."""
    heads = x.reshape(x.shape[0], x.shape[1], num_heads, x.shape[2] // num_heads)
    return heads.permute(0, 2, 1, 3) if batch_first else heads.permute(1, 2, 0, 3)


class MultiheadAttention(Module):
    """Multi-head attention (PyTorch's ``nn.MultiheadAttention``).

    ``output = out_proj(concat_h(softmax(q_h k_h^T / sqrt(head_dim) + mask) v_h))`` with
    ``q_h, k_h, v_h`` the per-head slices of the projected query, key and value.

    Args:
        embed_dim: model width ``E`` (query features and output features).
        num_heads: number of heads; must divide ``embed_dim``.
        dropout: dropout on the attention weights while training. Default: ``0.0``.
        bias: biases on the input and output projections. Default: ``True``.
        add_bias_kv: learn ``bias_k``/``bias_v``, appended to key and value as one more step.
        add_zero_attn: append a zero key and value step (after the head split).
        kdim, vdim: key/value feature sizes (default ``embed_dim``). When both equal
            ``embed_dim`` the projections are packed in ``in_proj_weight`` ``(3E, E)``;
            otherwise they are ``q_proj_weight``, ``k_proj_weight``, ``v_proj_weight``.
        batch_first: inputs and outputs are ``(N, L, E)`` instead of ``(L, N, E)``.

    Shape:
        query ``(L, N, E)``, key ``(S, N, kdim)``, value ``(S, N, vdim)`` (or batch-first, or
        unbatched without ``N``); output ``(L, N, E)``; weights ``(N, L, S)`` averaged over the
        heads or ``(N, H, L, S)``.
    """

    def __init__(self, embed_dim: int, num_heads: int, dropout: float = 0.0, bias: bool = True,
                 add_bias_kv: bool = False, add_zero_attn: bool = False, kdim: int | None = None,
                 vdim: int | None = None, batch_first: bool = False, device: Any = None,
                 dtype: Any = None) -> None:
        if embed_dim <= 0 or num_heads <= 0:
            raise volta.InvalidArgumentError(
                f"embed_dim and num_heads must be greater than 0, got embed_dim={embed_dim} "
                f"and num_heads={num_heads} instead")
        super().__init__()
        self.embed_dim = embed_dim
        self.kdim = kdim if kdim is not None else embed_dim
        self.vdim = vdim if vdim is not None else embed_dim
        self._qkv_same_embed_dim = self.kdim == embed_dim and self.vdim == embed_dim
        self.num_heads = num_heads
        self.dropout = dropout
        self.batch_first = batch_first
        self.head_dim = embed_dim // num_heads
        if self.head_dim * num_heads != embed_dim:
            raise volta.InvalidArgumentError("embed_dim must be divisible by num_heads")
        factory = {"device": device, "dtype": dtype}
        if self._qkv_same_embed_dim:
            self.in_proj_weight = Parameter(volta.empty(3 * embed_dim, embed_dim, **factory))
            for name in ("q_proj_weight", "k_proj_weight", "v_proj_weight"):
                self.register_parameter(name, None)
        else:
            self.q_proj_weight = Parameter(volta.empty(embed_dim, embed_dim, **factory))
            self.k_proj_weight = Parameter(volta.empty(embed_dim, self.kdim, **factory))
            self.v_proj_weight = Parameter(volta.empty(embed_dim, self.vdim, **factory))
            self.register_parameter("in_proj_weight", None)
        if bias:
            self.in_proj_bias = Parameter(volta.empty(3 * embed_dim, **factory))
        else:
            self.register_parameter("in_proj_bias", None)
        self.out_proj = NonDynamicallyQuantizableLinear(embed_dim, embed_dim, bias=bias,
                                                        **factory)
        if add_bias_kv:
            self.bias_k = Parameter(volta.empty(1, 1, embed_dim, **factory))
            self.bias_v = Parameter(volta.empty(1, 1, embed_dim, **factory))
        else:
            self.bias_k = self.bias_v = None
        self.add_zero_attn = add_zero_attn
        self._reset_parameters()

    def _reset_parameters(self) -> None:
        """PyTorch's initialisation: Xavier-uniform projections, zero biases, Xavier-normal
        ``bias_k``/``bias_v``."""
        if self._qkv_same_embed_dim:
            init.xavier_uniform_(self.in_proj_weight)
        else:
            for weight in (self.q_proj_weight, self.k_proj_weight, self.v_proj_weight):
                init.xavier_uniform_(weight)
        if self.in_proj_bias is not None:
            init.constant_(self.in_proj_bias, 0.0)
            init.constant_(self.out_proj.bias, 0.0)
        if self.bias_k is not None:
            init.xavier_normal_(self.bias_k)
            init.xavier_normal_(self.bias_v)

    def forward(self, query: Tensor, key: Tensor, value: Tensor,
                key_padding_mask: Tensor | None = None, need_weights: bool = True,
                attn_mask: Tensor | None = None, average_attn_weights: bool = True,
                is_causal: bool = False) -> tuple[Tensor, Tensor | None]:
        """Attends ``query`` to ``key``/``value``; returns ``(output, weights or None)``.

        Masks: ``key_padding_mask`` ``(N, S)`` and ``attn_mask`` ``(L, S)`` or
        ``(N * num_heads, L, S)``, bool (``True`` = ignore) or float (added to the scores).
        ``is_causal`` is a hint that ``attn_mask`` is causal; with ``need_weights=False`` and
        no padding mask the causal mask is applied by the fused kernel instead."""
        separate = not self._qkv_same_embed_dim
        return multi_head_attention_forward(
            query, key, value, self.embed_dim, self.num_heads, self.in_proj_weight,
            self.in_proj_bias, self.bias_k, self.bias_v, self.add_zero_attn, self.dropout,
            self.out_proj.weight, self.out_proj.bias, training=self.training,
            key_padding_mask=key_padding_mask, need_weights=need_weights, attn_mask=attn_mask,
            use_separate_proj_weight=separate, q_proj_weight=self.q_proj_weight,
            k_proj_weight=self.k_proj_weight, v_proj_weight=self.v_proj_weight,
            average_attn_weights=average_attn_weights, is_causal=is_causal,
            batch_first=self.batch_first)
