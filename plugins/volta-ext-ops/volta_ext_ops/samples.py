"""Sample inputs of the ext ops for volta's conformance kit (entry-point group
``volta.testing``): ``python -m volta.testing.conformance --backend NAME`` runs them."""

from __future__ import annotations

from volta.testing.opinfo import FLOAT_DTYPES, OpInfo, S, T


def _swiglu(dtype: str) -> list:
    return [S(T(4, 6), T(4, 6)), S(T(3, 4, 6), T(6), desc="broadcast gate"),
            S(T(5, 6, noncontig=True), T(5, 6), desc="non-contiguous x")]


def _fused_bias_gelu(dtype: str) -> list:
    return [S(T(8, 16), T(16), desc="bias per feature"), S(T(2, 3, 4), T(2, 3, 4)),
            S(T(6, 4, noncontig=True), T(4), desc="non-contiguous x")]


def _rms_norm(dtype: str) -> list:
    return [S(T(4, 8), T(8)), S(T(2, 3, 8), T(8), eps=1e-3),
            S(T(8, 6, noncontig=True), T(6), desc="non-contiguous x")]


def _rotary_embedding(dtype: str) -> list:
    return [S(T(2, 5, 8), T(5, 8), T(5, 8), desc="cache per position"),
            S(T(2, 3, 5, 4), T(5, 4), T(5, 4), desc="heads"),
            S(T(6, 4, noncontig=True), T(6, 4), T(6, 4), desc="non-contiguous x")]


OPINFOS = [
    OpInfo("ext::swiglu", "torch.ops.ext.swiglu", _swiglu, FLOAT_DTYPES),
    OpInfo("ext::fused_bias_gelu", "torch.ops.ext.fused_bias_gelu", _fused_bias_gelu,
           FLOAT_DTYPES),
    OpInfo("ext::rms_norm", "torch.ops.ext.rms_norm", _rms_norm, FLOAT_DTYPES),
    OpInfo("ext::rotary_embedding", "torch.ops.ext.rotary_embedding", _rotary_embedding,
           FLOAT_DTYPES),
]
