"""The Transformer family (PyTorch's ``nn.Transformer*``): ``TransformerEncoderLayer``,
``TransformerEncoder``, ``TransformerDecoderLayer``, ``TransformerDecoder``, ``Transformer``.

Same arguments, defaults, mask rules and ``state_dict`` keys as PyTorch
(``layers.0.self_attn.in_proj_weight``, ``layers.0.linear1.weight``, ``layers.0.norm1.bias``,
...), so weights move between the two. PyTorch's inference fast paths (nested tensors for
padded batches) have no counterpart: ``enable_nested_tensor`` and ``mask_check`` are accepted
and ignored, and padded positions keep their computed values instead of becoming zeros.
"""

from __future__ import annotations

import copy
import math
from collections.abc import Callable
from typing import Any

import volta
import volta.nn.functional as F
from volta.nn import init
from volta.nn.functional import canonical_mask
from volta.nn.modules.activation import GELU, ReLU
from volta.nn.modules.attention import MultiheadAttention
from volta.nn.modules.container import ModuleList
from volta.nn.modules.dropout import Dropout
from volta.nn.modules.linear import Linear
from volta.nn.modules.module import Module
from volta.nn.modules.normalization import LayerNorm

Tensor = volta.Tensor
Activation = str | Callable[[Tensor], Tensor]

__all__ = ["Transformer", "TransformerDecoder", "TransformerDecoderLayer", "TransformerEncoder",
           "TransformerEncoderLayer"]


def generate_square_subsequent_mask(sz: int, device: Any = None,
                                    dtype: volta.dtype | None = None) -> Tensor:
    """The causal mask ``(sz, sz)``: ``-inf`` above the diagonal (a position may not attend to
    later ones), ``0`` elsewhere."""
    return volta.full((sz, sz), -math.inf, dtype=dtype, device=device).triu(1)


def _activation(activation: Activation) -> Callable[[Tensor], Tensor]:
    if activation == "relu":
        return F.relu
    if activation == "gelu":
        return F.gelu
    if isinstance(activation, str) or not callable(activation):
        raise volta.InvalidArgumentError(f"activation should be relu/gelu, not {activation}")
    return activation


def _relu_or_gelu(activation: Callable[[Tensor], Tensor]) -> int:
    """PyTorch's ``activation_relu_or_gelu`` flag: 1 relu, 2 gelu, 0 anything else."""
    if activation is F.relu or isinstance(activation, ReLU):
        return 1
    if activation is F.gelu or isinstance(activation, GELU):
        return 2
    return 0


def _clones(module: Module, count: int) -> ModuleList:
    return ModuleList([copy.deepcopy(module) for _ in range(count)])


def _seq_len(src: Tensor, batch_first: bool) -> int:
    if src.dim() == 2:
        return src.shape[0]
    return src.shape[1 if batch_first else 0]


def _detect_is_causal_mask(mask: Tensor | None, is_causal: bool | None,
                           size: int | None) -> bool:
    """``is_causal`` when given; otherwise whether ``mask`` is exactly the causal mask
    (float ``-inf``/``0`` or bool ``True`` above the diagonal) of ``size``."""
    if is_causal is not None or mask is None:
        return is_causal is True
    size = mask.shape[-2] if size is None else size
    if tuple(mask.shape) != (size, size):
        return False
    if mask.dtype is volta.bool:
        causal = volta.ones(size, size, dtype=volta.bool, device=mask.device).triu(1)
    else:
        causal = generate_square_subsequent_mask(size, mask.device, mask.dtype)
    return bool((mask == causal).all().item())


def _batch_first(layer: Module) -> bool:
    attention = getattr(layer, "self_attn", None)
    return bool(getattr(attention, "batch_first", False))


class _TransformerLayer(Module):
    """What encoder and decoder layers share: PyTorch's constructor arguments, the attention
    modules (self-attention, plus attention over the memory in a decoder), the feed-forward
    block, the norms, the branch dropouts and the activation, registered in PyTorch's order."""

    _branches = 2  # residual branches: self-attention and feed-forward (a decoder adds one)

    def __init__(self, d_model: int, nhead: int, dim_feedforward: int = 2048,
                 dropout: float = 0.1, activation: Activation = F.relu,
                 layer_norm_eps: float = 1e-5, batch_first: bool = False,
                 norm_first: bool = False, bias: bool = True, device: Any = None,
                 dtype: Any = None) -> None:
        super().__init__()
        factory = {"device": device, "dtype": dtype}
        self.self_attn = MultiheadAttention(d_model, nhead, dropout=dropout, bias=bias,
                                            batch_first=batch_first, **factory)
        if self._branches == 3:
            self.multihead_attn = MultiheadAttention(d_model, nhead, dropout=dropout, bias=bias,
                                                     batch_first=batch_first, **factory)
        self.linear1 = Linear(d_model, dim_feedforward, bias=bias, **factory)
        self.dropout = Dropout(dropout)
        self.linear2 = Linear(dim_feedforward, d_model, bias=bias, **factory)
        self.norm_first = norm_first
        for index in range(1, self._branches + 1):
            setattr(self, f"norm{index}", LayerNorm(d_model, eps=layer_norm_eps, bias=bias,
                                                    **factory))
        for index in range(1, self._branches + 1):
            setattr(self, f"dropout{index}", Dropout(dropout))
        activation = _activation(activation)
        self.activation_relu_or_gelu = _relu_or_gelu(activation)
        self.activation = activation

    def _sa_block(self, x: Tensor, attn_mask: Tensor | None,
                  key_padding_mask: Tensor | None, is_causal: bool) -> Tensor:
        x = self.self_attn(x, x, x, attn_mask=attn_mask, key_padding_mask=key_padding_mask,
                           need_weights=False, is_causal=is_causal)[0]
        return self.dropout1(x)

    def _ff_block(self, x: Tensor, dropout: Dropout) -> Tensor:
        # on rows (-1, d_model): each linear and its weight gradient is one 2-D matmul
        rows = x.reshape(-1, x.shape[-1])
        out = self.linear2(self.dropout(self.activation(self.linear1(rows))))
        return dropout(out.view(x.shape))


class TransformerEncoderLayer(_TransformerLayer):
    """Self-attention and a feed-forward network, each in a residual branch with LayerNorm.

    Post-norm (default): ``x = norm1(x + sa(x)); x = norm2(x + ff(x))``; with
    ``norm_first=True``: ``x = x + sa(norm1(x)); x = x + ff(norm2(x))``.

    Args:
        d_model: model width.
        nhead: attention heads.
        dim_feedforward: hidden width of the feed-forward network. Default: ``2048``.
        dropout: dropout probability (attention weights and every branch). Default: ``0.1``.
        activation: ``"relu"``, ``"gelu"`` or a callable (function or module).
            Default: ``F.relu``.
        layer_norm_eps: LayerNorm epsilon. Default: ``1e-5``.
        batch_first: ``(N, L, E)`` instead of ``(L, N, E)``. Default: ``False``.
        norm_first: pre-norm instead of post-norm. Default: ``False``.
        bias: biases in the linear layers and LayerNorms. Default: ``True``.
    """

    def forward(self, src: Tensor, src_mask: Tensor | None = None,
                src_key_padding_mask: Tensor | None = None, is_causal: bool = False) -> Tensor:
        """``src`` ``(L, N, E)`` / ``(N, L, E)`` / ``(L, E)``; ``src_mask`` ``(L, L)`` or
        ``(N * nhead, L, L)``; ``src_key_padding_mask`` ``(N, L)``; ``is_causal`` a hint
        that ``src_mask`` is the causal mask."""
        src_key_padding_mask = canonical_mask(
            src_key_padding_mask, "src_key_padding_mask",
            None if src_mask is None else src_mask.dtype, "src_mask", src.dtype)
        src_mask = canonical_mask(src_mask, "src_mask", None, "", src.dtype, check_other=False)
        x = src
        if self.norm_first:
            x = x + self._sa_block(self.norm1(x), src_mask, src_key_padding_mask, is_causal)
            return x + self._ff_block(self.norm2(x), self.dropout2)
        x = self.norm1(x + self._sa_block(x, src_mask, src_key_padding_mask, is_causal))
        return self.norm2(x + self._ff_block(x, self.dropout2))


class TransformerDecoderLayer(_TransformerLayer):
    """Self-attention, attention over the encoder's output (``memory``) and a feed-forward
    network, each in a residual branch with LayerNorm (post-norm, or pre-norm with
    ``norm_first``). Arguments as :class:`TransformerEncoderLayer`."""

    _branches = 3

    def forward(self, tgt: Tensor, memory: Tensor, tgt_mask: Tensor | None = None,
                memory_mask: Tensor | None = None, tgt_key_padding_mask: Tensor | None = None,
                memory_key_padding_mask: Tensor | None = None, tgt_is_causal: bool = False,
                memory_is_causal: bool = False) -> Tensor:
        """``tgt`` ``(T, N, E)``, ``memory`` ``(S, N, E)`` (or batch-first / unbatched);
        ``tgt_mask`` ``(T, T)``, ``memory_mask`` ``(T, S)`` (or per head); padding masks
        ``(N, T)`` and ``(N, S)``."""
        x = tgt
        if self.norm_first:
            x = x + self._sa_block(self.norm1(x), tgt_mask, tgt_key_padding_mask, tgt_is_causal)
            x = x + self._mha_block(self.norm2(x), memory, memory_mask, memory_key_padding_mask,
                                    memory_is_causal)
            return x + self._ff_block(self.norm3(x), self.dropout3)
        x = self.norm1(x + self._sa_block(x, tgt_mask, tgt_key_padding_mask, tgt_is_causal))
        x = self.norm2(x + self._mha_block(x, memory, memory_mask, memory_key_padding_mask,
                                           memory_is_causal))
        return self.norm3(x + self._ff_block(x, self.dropout3))

    def _mha_block(self, x: Tensor, memory: Tensor, attn_mask: Tensor | None,
                   key_padding_mask: Tensor | None, is_causal: bool) -> Tensor:
        x = self.multihead_attn(x, memory, memory, attn_mask=attn_mask,
                                key_padding_mask=key_padding_mask, is_causal=is_causal,
                                need_weights=False)[0]
        return self.dropout2(x)


class TransformerEncoder(Module):
    """``num_layers`` copies of ``encoder_layer`` (deep copies, independent weights), then the
    optional ``norm``.

    Args:
        encoder_layer: the layer to copy.
        num_layers: number of layers.
        norm: a final normalization module (optional).
        enable_nested_tensor, mask_check: accepted for PyTorch compatibility; volta has no
            nested-tensor fast path, so they change nothing.
    """

    def __init__(self, encoder_layer: Module, num_layers: int, norm: Module | None = None,
                 enable_nested_tensor: bool = True, mask_check: bool = True) -> None:
        super().__init__()
        self.layers = _clones(encoder_layer, num_layers)
        self.num_layers = num_layers
        self.norm = norm
        self.enable_nested_tensor = enable_nested_tensor
        self.use_nested_tensor = False
        self.mask_check = mask_check

    def forward(self, src: Tensor, mask: Tensor | None = None,
                src_key_padding_mask: Tensor | None = None,
                is_causal: bool | None = None) -> Tensor:
        """``is_causal=None`` detects whether ``mask`` is the causal mask (then the fused
        attention applies it without reading the mask)."""
        src_key_padding_mask = canonical_mask(
            src_key_padding_mask, "src_key_padding_mask",
            None if mask is None else mask.dtype, "mask", src.dtype)
        mask = canonical_mask(mask, "mask", None, "", src.dtype, check_other=False)
        size = _seq_len(src, _batch_first(self.layers[0])) if len(self.layers) else None
        is_causal = _detect_is_causal_mask(mask, is_causal, size)
        output = src
        for layer in self.layers:
            output = layer(output, src_mask=mask, is_causal=is_causal,
                           src_key_padding_mask=src_key_padding_mask)
        return output if self.norm is None else self.norm(output)


class TransformerDecoder(Module):
    """``num_layers`` copies of ``decoder_layer``, then the optional ``norm``."""

    def __init__(self, decoder_layer: Module, num_layers: int,
                 norm: Module | None = None) -> None:
        super().__init__()
        self.layers = _clones(decoder_layer, num_layers)
        self.num_layers = num_layers
        self.norm = norm

    def forward(self, tgt: Tensor, memory: Tensor, tgt_mask: Tensor | None = None,
                memory_mask: Tensor | None = None, tgt_key_padding_mask: Tensor | None = None,
                memory_key_padding_mask: Tensor | None = None,
                tgt_is_causal: bool | None = None, memory_is_causal: bool = False) -> Tensor:
        """``tgt_is_causal=None`` detects whether ``tgt_mask`` is the causal mask."""
        size = _seq_len(tgt, _batch_first(self.layers[0])) if len(self.layers) else None
        tgt_is_causal = _detect_is_causal_mask(tgt_mask, tgt_is_causal, size)
        output = tgt
        for layer in self.layers:
            output = layer(output, memory, tgt_mask=tgt_mask, memory_mask=memory_mask,
                           tgt_key_padding_mask=tgt_key_padding_mask,
                           memory_key_padding_mask=memory_key_padding_mask,
                           tgt_is_causal=tgt_is_causal, memory_is_causal=memory_is_causal)
        return output if self.norm is None else self.norm(output)


class Transformer(Module):
    """The encoder-decoder Transformer ("Attention Is All You Need"), PyTorch's layout.

    Args:
        d_model: model width. Default: ``512``.
        nhead: attention heads. Default: ``8``.
        num_encoder_layers, num_decoder_layers: Default: ``6`` each.
        dim_feedforward: Default: ``2048``. dropout: Default: ``0.1``.
        activation: ``"relu"``, ``"gelu"`` or a callable. Default: ``F.relu``.
        custom_encoder, custom_decoder: modules used instead of the standard stacks.
        layer_norm_eps, batch_first, norm_first, bias: as :class:`TransformerEncoderLayer`.

    Every parameter with more than one dimension is re-initialised Xavier-uniform, as in
    PyTorch.
    """

    def __init__(self, d_model: int = 512, nhead: int = 8, num_encoder_layers: int = 6,
                 num_decoder_layers: int = 6, dim_feedforward: int = 2048,
                 dropout: float = 0.1, activation: Activation = F.relu,
                 custom_encoder: Module | None = None, custom_decoder: Module | None = None,
                 layer_norm_eps: float = 1e-5, batch_first: bool = False,
                 norm_first: bool = False, bias: bool = True, device: Any = None,
                 dtype: Any = None) -> None:
        super().__init__()
        factory = {"device": device, "dtype": dtype}
        layer_args = (d_model, nhead, dim_feedforward, dropout, activation, layer_norm_eps,
                      batch_first, norm_first, bias)
        if custom_encoder is not None:
            self.encoder = custom_encoder
        else:
            self.encoder = TransformerEncoder(
                TransformerEncoderLayer(*layer_args, **factory), num_encoder_layers,
                LayerNorm(d_model, eps=layer_norm_eps, bias=bias, **factory))
        if custom_decoder is not None:
            self.decoder = custom_decoder
        else:
            self.decoder = TransformerDecoder(
                TransformerDecoderLayer(*layer_args, **factory), num_decoder_layers,
                LayerNorm(d_model, eps=layer_norm_eps, bias=bias, **factory))
        self._reset_parameters()
        self.d_model = d_model
        self.nhead = nhead
        self.batch_first = batch_first

    def forward(self, src: Tensor, tgt: Tensor, src_mask: Tensor | None = None,
                tgt_mask: Tensor | None = None, memory_mask: Tensor | None = None,
                src_key_padding_mask: Tensor | None = None,
                tgt_key_padding_mask: Tensor | None = None,
                memory_key_padding_mask: Tensor | None = None,
                src_is_causal: bool | None = None, tgt_is_causal: bool | None = None,
                memory_is_causal: bool = False) -> Tensor:
        """``src`` ``(S, N, E)``, ``tgt`` ``(T, N, E)`` (batch-first or unbatched likewise);
        returns ``(T, N, E)``. Masks as the encoder's and decoder's."""
        batched = src.dim() == 3
        batch_dim = 0 if self.batch_first else 1
        if batched and src.shape[batch_dim] != tgt.shape[batch_dim]:
            raise volta.ShapeError("the batch number of src and tgt must be equal")
        if src.shape[-1] != self.d_model or tgt.shape[-1] != self.d_model:
            raise volta.ShapeError("the feature number of src and tgt must be equal to d_model")
        memory = self.encoder(src, mask=src_mask, src_key_padding_mask=src_key_padding_mask,
                              is_causal=src_is_causal)
        return self.decoder(tgt, memory, tgt_mask=tgt_mask, memory_mask=memory_mask,
                            tgt_key_padding_mask=tgt_key_padding_mask,
                            memory_key_padding_mask=memory_key_padding_mask,
                            tgt_is_causal=tgt_is_causal, memory_is_causal=memory_is_causal)

    @staticmethod
    def generate_square_subsequent_mask(sz: int, device: Any = None,
                                        dtype: volta.dtype | None = None) -> Tensor:
        """The causal mask ``(sz, sz)``: ``-inf`` above the diagonal, ``0`` elsewhere."""
        return generate_square_subsequent_mask(sz, device, dtype)

    def _reset_parameters(self) -> None:
        for parameter in self.parameters():
            if parameter.dim() > 1:
                init.xavier_uniform_(parameter)
