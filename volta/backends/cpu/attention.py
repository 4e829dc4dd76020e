"""Memory-efficient scaled dot-product attention for the CPU backend (flash-attention style).

The forward walks the key axis block by block with a running row maximum and a running row sum
(online softmax), so the scores of a (batch chunk, query block) never exist for more than one key
block at a time; it keeps only the output and the per-row logsumexp of the scaled, masked
scores. The backward recomputes each block's probabilities from ``q``, ``k`` and that logsumexp
and accumulates dQ, dK, dV (and the float mask's gradient when asked) block by block. Peak
memory is O(inputs + one block of scores), never O(L * S).

Dropout keeps no mask either: the forward draws one seed from volta's default generator and
every block's keep-mask comes from a generator seeded with (seed, batch start, query start, key
start). Forward and backward walk the same blocks (:func:`_plan` is a function of the shapes
only), so the backward regenerates exactly the masks the forward used.

Batch dims broadcast, and with ``enable_gqa`` a key/value head serves a group of query heads:
both are handled by mapping each flat batch row of the output to the row of each operand it
reads (:class:`_Rows`), without copying the operands to the broadcast shape.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np

from volta import dtypes as D
from volta.backends.cpu import gemm
from volta.backends.cpu.kernel_table import kernel_table
from volta.backends.cpu.storage import array as A
from volta.backends.cpu.storage import wrap as W
from volta.backends.cpu.storage import wrap_as as WA
from volta.tensor.tensor import Tensor

KERNELS, kernel = kernel_table()

# Elements of one block of scores (batch chunk x query block x key block). The backward holds
# about three such blocks at once: 2**19 float32 elements is 2 MiB each. Short sequences fit
# several batch rows in one block, so a (16 x 4 heads) x 128 x 128 problem takes two blocks.
BLOCK_ELEMENTS = 1 << 19
KEY_BLOCK = 1024


def _compute_dtype(dt: D.dtype) -> np.dtype:
    """float16/bfloat16 accumulate in float32 (PyTorch's opmath); float32/float64 stay."""
    return np.dtype(np.float32) if dt in (D.float16, D.bfloat16) else dt.numpy


class _Rows:
    """Which row of an operand's flattened batch each flat batch row of the output reads."""

    def __init__(self, own: Sequence[int], batch: Sequence[int], group: int = 1) -> None:
        padded = (1,) * (len(batch) - len(own)) + tuple(own)
        self.count = math.prod(padded)
        self.index: np.ndarray | None = None  # None: row b reads row b
        self.single = self.count == 1 and math.prod(batch) > 1
        if self.single or (padded == tuple(batch) and group == 1):
            return
        index = np.arange(self.count).reshape(padded)
        if group > 1:  # GQA: query head h reads key/value head h // group
            index = np.repeat(index, group, axis=-1)
        self.index = np.broadcast_to(index, tuple(batch)).ravel()

    def take(self, x: np.ndarray, b0: int, b1: int) -> np.ndarray:
        if self.single:
            return x[0:1]
        if self.index is None:
            return x[b0:b1]
        return x[self.index[b0:b1]]

    def reduce(self, full: np.ndarray) -> np.ndarray:
        """Sum a gradient laid out over the output's batch back onto the operand's batch."""
        if self.index is None and not self.single:
            return full
        if self.single:
            return full.sum(axis=0, keepdims=True)
        order = np.argsort(self.index, kind="stable")
        starts = np.flatnonzero(np.r_[True, np.diff(self.index[order]) != 0])
        return np.add.reduceat(full[order], starts, axis=0)


class _Problem:
    """Shapes, flattened operands and the block plan shared by the forward and the backward."""

    def __init__(self, query: Tensor, key: Tensor, value: Tensor, attn_mask: Tensor | None,
                 is_causal: bool, enable_gqa: bool) -> None:
        self.dtype = query.dtype
        self.compute = _compute_dtype(query.dtype)
        qs, ks, vs = tuple(query.shape), tuple(key.shape), tuple(value.shape)
        self.L, self.E = qs[-2], qs[-1]
        self.S, self.Ev = ks[-2], vs[-1]
        group_k = group_v = 1
        if enable_gqa and len(qs) >= 3 and len(ks) >= 3 and len(vs) >= 3:
            group_k, group_v = qs[-3] // ks[-3], qs[-3] // vs[-3]
        kb = ks[:-3] + (ks[-3] * group_k,) if group_k > 1 else ks[:-2]
        vb = vs[:-3] + (vs[-3] * group_v,) if group_v > 1 else vs[:-2]
        shapes = [qs[:-2], kb, vb]
        mask_shape: tuple[int, ...] = ()
        if attn_mask is not None:
            mask_shape = (1,) * max(0, 2 - attn_mask.ndim) + tuple(attn_mask.shape)
            shapes.append(mask_shape[:-2])
        self.batch = tuple(np.broadcast_shapes(*shapes))
        self.B = math.prod(self.batch)
        self.q_rows = _Rows(qs[:-2], self.batch)
        self.k_rows = _Rows(ks[:-2], self.batch, group_k)
        self.v_rows = _Rows(vs[:-2], self.batch, group_v)
        self.q = self._flat(query, self.q_rows)
        self.k = self._flat(key, self.k_rows)
        self.v = self._flat(value, self.v_rows)
        self.mask: np.ndarray | None = None
        self.mask_is_bool = False
        if attn_mask is not None:
            self.mask_rows = _Rows(mask_shape[:-2], self.batch)
            m = A(attn_mask).reshape(self.mask_rows.count, *mask_shape[-2:])
            self.mask_is_bool = attn_mask.dtype is D.bool_
            self.mask = m if self.mask_is_bool else m.astype(self.compute, copy=False)
        self.is_causal = is_causal
        self.blocks = _plan(self.B, self.L, self.S)

    def _flat(self, t: Tensor, rows: _Rows) -> np.ndarray:
        a = A(t).astype(self.compute, copy=False)
        return a.reshape(rows.count, *a.shape[-2:])

    def scores(self, qb: np.ndarray, kb: np.ndarray, b0: int, b1: int, q0: int, q1: int,
               k0: int, k1: int) -> np.ndarray:
        """``scale * q @ k^T`` of one block (``qb`` is already scaled), masked."""
        s = gemm.matmul(qb, kb.transpose(0, 2, 1))
        if self.mask is not None:
            m = self.mask_rows.take(self.mask, b0, b1)
            m = m[:, _span(q0, q1, m.shape[1]), _span(k0, k1, m.shape[2])]
            if self.mask_is_bool:
                np.copyto(s, -np.inf, where=~m)
            else:
                s += m
        if self.is_causal and k1 - 1 > q0:  # some key of the block lies after some query
            hidden = np.arange(k0, k1)[None, :] > np.arange(q0, q1)[:, None]
            np.copyto(s, -np.inf, where=hidden)
        return s

    def key_end(self, q1: int) -> int:
        """Keys a query block may see: with the causal mask, none past its last query."""
        return min(self.S, q1) if self.is_causal else self.S

    def keep(self, seed: int, dropout_p: float, b0: int, q0: int, k0: int,
             shape: tuple[int, ...]) -> np.ndarray:
        """The dropout factor of one block: 0 where dropped, ``1 / (1 - p)`` where kept."""
        rng = np.random.default_rng((seed, b0, q0, k0))
        factor = 0.0 if dropout_p >= 1 else 1.0 / (1.0 - dropout_p)
        kept = rng.random(shape, dtype=np.float32) >= dropout_p
        return kept.astype(self.compute) * self.compute.type(factor)


def _span(start: int, stop: int, size: int) -> slice:
    """The block's slice of a mask axis, or the whole axis where the mask broadcasts along it."""
    return slice(start, stop) if size > 1 else slice(0, 1)


def _plan(B: int, L: int, S: int) -> list[tuple[int, int, int, int]]:
    """(batch start, batch end, query start, query end) of each block, keys walked inside.

    A function of the shapes alone: forward and backward must walk the same blocks, because the
    dropout masks are keyed on the block starts."""
    lk = max(1, min(S, KEY_BLOCK))
    lq = max(1, min(L, BLOCK_ELEMENTS // lk))
    nb = max(1, min(B, BLOCK_ELEMENTS // (lq * lk)))
    return [(b0, min(B, b0 + nb), q0, min(L, q0 + lq))
            for b0 in range(0, B, nb) for q0 in range(0, L, lq)]


def _key_blocks(p: _Problem, q1: int) -> list[tuple[int, int]]:
    lk = max(1, min(p.S, KEY_BLOCK))
    end = p.key_end(q1)
    return [(k0, min(end, k0 + lk)) for k0 in range(0, end, lk)]


def _draw_seed() -> int:
    from volta.tensor.factories import default_generator
    return int(default_generator().numpy_rng.integers(0, 2**63 - 1))


@kernel("_scaled_dot_product_attention_flash")
def sdpa_flash(query: Tensor, key: Tensor, value: Tensor, attn_mask: Tensor | None,
               dropout_p: float, is_causal: bool, scale: float,
               enable_gqa: bool) -> tuple[Tensor, Tensor, Tensor]:
    p = _Problem(query, key, value, attn_mask, is_causal, enable_gqa)
    seed = _draw_seed() if dropout_p > 0 else 0
    out = np.empty((p.B, p.L, p.Ev), dtype=p.compute)
    lse = np.empty((p.B, p.L), dtype=p.compute)
    for b0, b1, q0, q1 in p.blocks:
        qb = p.q_rows.take(p.q, b0, b1)[:, q0:q1] * p.compute.type(scale)
        # taken once per query block: a broadcast or GQA operand's take() is a gather copy
        keys, values = p.k_rows.take(p.k, b0, b1), p.v_rows.take(p.v, b0, b1)
        acc: np.ndarray | None = None
        rowsum = run_max = shift = None
        for k0, k1 in _key_blocks(p, q1):
            s = p.scores(qb, keys[:, k0:k1], b0, b1, q0, q1, k0, k1)
            block_max = s.max(axis=-1)
            new_max = block_max if run_max is None else np.maximum(run_max, block_max)
            # a row that has seen only masked keys so far subtracts 0, not -inf
            new_shift = np.where(np.isneginf(new_max), 0, new_max).astype(p.compute, copy=False)
            s -= new_shift[..., None]
            probs = np.exp(s, out=s)
            block_sum = probs.sum(axis=-1)
            if dropout_p > 0:
                probs *= p.keep(seed, dropout_p, b0, q0, k0, probs.shape)
            pv = gemm.matmul(probs, values[:, k0:k1])
            if acc is None:
                acc, rowsum = pv, block_sum
            else:
                alpha = np.exp(run_max - new_shift)
                acc *= alpha[..., None]
                acc += pv
                rowsum = rowsum * alpha + block_sum
            run_max, shift = new_max, new_shift
        if acc is None:  # no keys at all
            acc = np.zeros((b1 - b0, q1 - q0, p.Ev), dtype=p.compute)
            rowsum = np.zeros((b1 - b0, q1 - q0), dtype=p.compute)
            shift = rowsum
        # a row that may see no key at all gives zeros, as PyTorch; its logsumexp is +inf so
        # the backward's probabilities exp(score - lse) are 0 there
        dead = rowsum == 0
        safe = np.where(dead, 1, rowsum)
        out[b0:b1, q0:q1] = acc / safe[..., None]
        lse[b0:b1, q0:q1] = np.where(dead, np.inf, shift + np.log(safe))
    out_shape = (*p.batch, p.L, p.Ev)
    return (WA(out.reshape(out_shape), p.dtype), W(lse.reshape(*p.batch, p.L)),
            W(np.array(seed, dtype=np.int64)))


@kernel("_scaled_dot_product_attention_flash_backward")
def sdpa_flash_backward(grad_out: Tensor, query: Tensor, key: Tensor, value: Tensor,
                        attn_mask: Tensor | None, out: Tensor, logsumexp: Tensor,
                        rng_seed: Tensor, dropout_p: float, is_causal: bool, scale: float,
                        enable_gqa: bool, output_mask: Sequence[bool]
                        ) -> tuple[Tensor | None, ...]:
    p = _Problem(query, key, value, attn_mask, is_causal, enable_gqa)
    seed = int(A(rng_seed))
    c = p.compute
    g = A(grad_out).astype(c, copy=False).reshape(p.B, p.L, p.Ev)
    o = A(out).astype(c, copy=False).reshape(p.B, p.L, p.Ev)
    lse = A(logsumexp).astype(c, copy=False).reshape(p.B, p.L)
    dq = np.zeros((p.B, p.L, p.E), dtype=c)
    dk = np.zeros((p.B, p.S, p.E), dtype=c)
    dv = np.zeros((p.B, p.S, p.Ev), dtype=c)
    mask_grad = bool(output_mask[3]) and p.mask is not None and not p.mask_is_bool
    dmask = np.zeros_like(p.mask) if mask_grad else None
    s_scale = c.type(scale)
    # with one query block per batch chunk, each key block's dK and dV are written once
    one_query_block = all(q0 == 0 and q1 == p.L for _, _, q0, q1 in p.blocks)
    for b0, b1, q0, q1 in p.blocks:
        qb = p.q_rows.take(p.q, b0, b1)[:, q0:q1] * s_scale
        keys, values = p.k_rows.take(p.k, b0, b1), p.v_rows.take(p.v, b0, b1)
        gb = g[b0:b1, q0:q1]
        # sum_j P_ij dP_ij = dO_i . O_i, with or without dropout
        delta = np.einsum("bld,bld->bl", gb, o[b0:b1, q0:q1])[..., None]
        lse_b = lse[b0:b1, q0:q1, None]
        dq_b = dq[b0:b1, q0:q1]
        for k0, k1 in _key_blocks(p, q1):
            kb, vb = keys[:, k0:k1], values[:, k0:k1]
            s = p.scores(qb, kb, b0, b1, q0, q1, k0, k1)
            s -= lse_b
            probs = np.exp(s, out=s)
            dprobs = gemm.matmul(gb, vb.transpose(0, 2, 1))
            if dropout_p > 0:
                keep = p.keep(seed, dropout_p, b0, q0, k0, probs.shape)
                _matmul_into(dv[b0:b1, k0:k1], (probs * keep).transpose(0, 2, 1), gb,
                             one_query_block)
                dprobs *= keep
            else:
                _matmul_into(dv[b0:b1, k0:k1], probs.transpose(0, 2, 1), gb, one_query_block)
            dprobs -= delta
            dscores = np.multiply(probs, dprobs, out=dprobs)
            _matmul_into(dq_b, dscores, kb, k0 == 0)
            _matmul_into(dk[b0:b1, k0:k1], dscores.transpose(0, 2, 1), qb, one_query_block)
            if dmask is not None:
                _add_mask_grad(p, dmask, dscores, b0, b1, q0, q1, k0, k1)
        dq_b *= s_scale
    return _grads(p, query, key, value, attn_mask, output_mask, dq, dk, dv, dmask)


def _matmul_into(dst: np.ndarray, a: np.ndarray, b: np.ndarray, first: bool) -> None:
    """``dst = a @ b`` on the first write, ``dst += a @ b`` after it."""
    if first:
        gemm.matmul(a, b, dst)
    else:
        dst += gemm.matmul(a, b)


def _add_mask_grad(p: _Problem, dmask: np.ndarray, dscores: np.ndarray, b0: int, b1: int,
                   q0: int, q1: int, k0: int, k1: int) -> None:
    """The float mask is added to the scores: its gradient is dS, summed where it broadcasts."""
    rows, cols = _span(q0, q1, dmask.shape[1]), _span(k0, k1, dmask.shape[2])
    d = dscores
    if dmask.shape[1] == 1:
        d = d.sum(axis=1, keepdims=True)
    if dmask.shape[2] == 1:
        d = d.sum(axis=2, keepdims=True)
    if p.mask_rows.single:
        dmask[0:1, rows, cols] += d.sum(axis=0, keepdims=True)
    elif p.mask_rows.index is None:
        dmask[b0:b1, rows, cols] += d
    else:
        np.add.at(dmask, (p.mask_rows.index[b0:b1], rows, cols), d)


def _grads(p: _Problem, query: Tensor, key: Tensor, value: Tensor, attn_mask: Tensor | None,
           output_mask: Sequence[bool], dq: np.ndarray, dk: np.ndarray, dv: np.ndarray,
           dmask: np.ndarray | None) -> tuple[Tensor | None, ...]:
    """Each requested gradient in its operand's own shape and dtype."""
    pairs = [(query, p.q_rows, dq), (key, p.k_rows, dk), (value, p.v_rows, dv)]
    grads: list[Tensor | None] = [
        WA(rows.reduce(full).reshape(t.shape), t.dtype) if wanted else None
        for (t, rows, full), wanted in zip(pairs, output_mask)]
    if dmask is not None and attn_mask is not None:
        grads.append(WA(dmask.reshape(attn_mask.shape), attn_mask.dtype))
    else:
        grads.append(None)
    return tuple(grads)
