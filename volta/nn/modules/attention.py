"""Multi-head attention: ``MultiheadAttention`` (its functional form
``multi_head_attention_forward`` lives in ``volta.nn.functional``, as in PyTorch), with PyTorch's
parameters, ``state_dict`` layout, mask rules and results.

The projections run on the input's own layout flattened to rows (one 2-D matmul each, whose
weight gradient is one 2-D matmul too, not a batched product summed over the batch); the heads
are then a view ``(N, H, L, head_dim)`` of the projection, for either layout. Self-attention
(query is key is value) is projected with a single matmul split into q, k and v without copies.
"""

from __future__ import annotations

from typing import Any

import volta
from volta.nn import init
from volta.nn.functional import multi_head_attention_forward
from volta.nn.modules.linear import Linear
from volta.nn.modules.module import Module
from volta.nn.parameter import Parameter

Tensor = volta.Tensor

__all__ = ["MultiheadAttention", "NonDynamicallyQuantizableLinear",
           "multi_head_attention_forward"]


class NonDynamicallyQuantizableLinear(Linear):
    """The class of ``MultiheadAttention.out_proj``, named as in PyTorch so module reprs and
    type checks agree; it is a plain :class:`Linear` (volta has no dynamic quantization)."""


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
