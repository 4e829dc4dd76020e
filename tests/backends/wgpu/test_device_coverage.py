"""The ops that used to run through the CPU fallback on WGPU, now on the device: against the CPU
backend, forward and backward, with the fallback switched off (so a host round trip fails)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
import pytest

import volta
from volta import nn
from volta.dispatch.coverage import coverage

F = nn.functional
RNG = np.random.default_rng(21)
X = RNG.standard_normal((4, 6)).astype(np.float32)
X_NAN = X.copy()
X_NAN[1, 3] = np.nan
X_TIES = X.copy()
X_TIES[2, :3] = 1.0
IMAGE = RNG.standard_normal((2, 3, 7, 6)).astype(np.float32)
SEQ = RNG.standard_normal((5, 3, 4)).astype(np.float32)
Q = RNG.standard_normal((2, 4, 5, 8)).astype(np.float32)
K = RNG.standard_normal((2, 2, 6, 8)).astype(np.float32)
V = RNG.standard_normal((2, 2, 6, 3)).astype(np.float32)
MASK = RNG.standard_normal((5, 6)).astype(np.float32)
BOOL_MASK = RNG.random((5, 6)) > 0.3
BOOL_MASK[2] = False  # a query that sees no key
VOLUME = RNG.standard_normal((2, 4, 5, 6, 7)).astype(np.float32)
FILTERS = RNG.standard_normal((6, 2, 3, 3, 2)).astype(np.float32)
FILTER_BIAS = RNG.standard_normal(6).astype(np.float32)


def ints(x: volta.Tensor, *values: Any) -> volta.Tensor:
    return volta.tensor(list(values), device=x.device)


# name -> (function of the inputs, inputs); outputs of float dtype are differentiated
CASES: dict[str, tuple[Callable[..., Any], list[np.ndarray]]] = {
    "sort": (lambda x: x.sort(1), [X_TIES]),
    "sort_nan_descending": (lambda x: x.sort(0, descending=True), [X_NAN]),
    "sort_int": (lambda x: volta.sort((x * 3).to(volta.int64), 0), [X]),
    "topk": (lambda x: x.topk(3, 1), [X_TIES]),
    "topk_smallest": (lambda x: x.T.topk(2, 0, largest=False), [X]),
    "median": (lambda x: x.median(), [X]),
    "median_nan": (lambda x: x.median(), [X_NAN]),
    "median_dim": (lambda x: x.median(1), [X_TIES]),
    "median_keepdim": (lambda x: x[:, ::2].median(0, keepdim=True), [X]),
    "cumsum": (lambda x: x.cumsum(1), [X]),
    "cumsum_strided": (lambda x: x.T.cumsum(0), [X]),
    "cumsum_int": (lambda x: (x > 0).cumsum(0), [X]),
    "cumprod": (lambda x: x.cumprod(0), [X]),
    "unique": (lambda x: volta.unique((x * 2).to(volta.int64), return_inverse=True,
                                      return_counts=True), [X]),
    "searchsorted": (lambda x: volta.searchsorted(ints(x, 0.0, 0.5, 1.0, 2.0), x), [X]),
    "searchsorted_rows": (lambda x: volta.searchsorted(x.sort(1)[0], x * 1.5, right=True),
                          [X]),
    "diag_vector": (lambda x: volta.diag(x[0], 1), [X]),
    "diag_matrix": (lambda x: volta.diag(x, -1), [X]),
    "diag_embed": (lambda x: volta.diag_embed(x, 1, 0, 2), [X]),
    "as_strided_scatter": (lambda x: volta.as_strided_scatter(x, x[0, :3] * 5, (3,), (2,), 1),
                           [X]),
    "unfold": (lambda x: x.unfold(1, 3, 2) * 1, [X]),
    "pad_constant": (lambda x: F.pad(x, (1, 2, -1, 1), value=3.0), [X]),
    "pad_reflect": (lambda x: F.pad(x.reshape(1, 4, 6), (2, 1), mode="reflect"), [X]),
    "pad_replicate": (lambda x: F.pad(x.reshape(1, 1, 4, 6), (2, 1, 1, 3), mode="replicate"),
                      [X]),
    "pad_circular": (lambda x: F.pad(x.reshape(1, 4, 6), (2, 3), mode="circular"), [X]),
    "einsum_matmul": (lambda x: volta.einsum("ij,kj->ik", x, x * 2), [X]),
    "einsum_trace": (lambda x: volta.einsum("ii", x[:, :4]), [X]),
    "einsum_ellipsis": (lambda x: volta.einsum("...j,j->...", x, x[0]), [X]),
    "einsum_outer": (lambda x: volta.einsum("i,j", x[0], x[1]), [X]),
    "einsum_batched": (lambda x: volta.einsum("bij,bjk->bik", x.reshape(2, 2, 6),
                                              x.reshape(2, 6, 2)), [X]),
    "group_norm": (lambda x: F.group_norm(x.reshape(2, 4, 3), 2, x[0, :4], x[1, :4]), [X]),
    "scatter": (lambda x: x.scatter(1, ints(x, [0, 2], [1, 1], [5, 0], [3, 3]), x[:, :2] * 10),
                [X]),
    "scatter_value": (lambda x: x.scatter(0, ints(x, [0, 2, 1]), 7.0), [X]),
    "nonzero": (lambda x: volta.nonzero(x > 0.3), [X]),
    "masked_select": (lambda x: x.masked_select(x > 0), [X]),
    "masked_scatter": (lambda x: x.masked_scatter(x > 0, x * 100), [X]),
    "index": (lambda x: x[ints(x, 0, 2, -1)], [X]),
    "index_pairs": (lambda x: x[ints(x, 0, 2), ints(x, 1, 5)], [X]),
    "index_columns": (lambda x: x[:, ints(x, 1, 5, 5)], [X]),
    "index_bool": (lambda x: x[x > 0], [X]),
    "index_put": (lambda x: x.index_put((ints(x, 0, 2), ints(x, 1, 3)), ints(x, 9.0, 8.0)), [X]),
    "index_put_accumulate": (lambda x: x.index_put((ints(x, 0, 0, 3),), x[:3] * 2,
                                                   accumulate=True), [X]),
    "index_put_columns": (lambda x: x.index_put((None, ints(x, 1, 3)), x[:, :1] * 0 + 5), [X]),
    "bincount": (lambda x: volta.bincount(ints(x, 1, 3, 3, 0, 7), minlength=3), [X]),
    "bincount_weights": (lambda x: volta.bincount(ints(x, 1, 3, 3), x[0, :3]), [X]),
    "avg_pool2d": (lambda x: F.avg_pool2d(x, 3, 2, 1), [IMAGE]),
    "avg_pool2d_ceil_no_pad": (lambda x: F.avg_pool2d(x, 3, 2, 1, ceil_mode=True,
                                                      count_include_pad=False), [IMAGE]),
    "avg_pool2d_divisor": (lambda x: F.avg_pool2d(x, 2, divisor_override=3), [IMAGE]),
    "avg_pool1d": (lambda x: F.avg_pool1d(x[0], 3, 2, 1, ceil_mode=True), [IMAGE]),
    "adaptive_avg_pool2d": (lambda x: F.adaptive_avg_pool2d(x, (3, 4)), [IMAGE]),
    "adaptive_avg_pool1d": (lambda x: F.adaptive_avg_pool1d(x[0], 4), [IMAGE]),
    "adaptive_max_pool2d": (lambda x: F.adaptive_max_pool2d(x, (3, 4)), [IMAGE]),
    "adaptive_max_pool1d": (lambda x: F.adaptive_max_pool1d(x[0], 5), [IMAGE]),
    "conv3d": (lambda x, w, b: F.conv3d(x, w.repeat(1, 2, 1, 1, 1), b), [VOLUME, FILTERS,
                                                                        FILTER_BIAS]),
    "conv3d_strided_grouped": (lambda x, w, b: F.conv3d(x, w, b, stride=(2, 1, 2),
                                                        padding=(1, 2, 0), dilation=(2, 1, 1),
                                                        groups=2), [VOLUME, FILTERS, FILTER_BIAS]),
    "sdpa": (lambda q, k, v: F.scaled_dot_product_attention(q, k[:, :1].expand(2, 4, 6, 8) * 1,
                                                            v[:, :1].expand(2, 4, 6, 3) * 1),
             [Q, K, V]),
    "sdpa_causal_gqa": (lambda q, k, v: F.scaled_dot_product_attention(
        q, k, v, is_causal=True, enable_gqa=True), [Q, K, V]),
    "sdpa_float_mask": (lambda q, k, v, m: F.scaled_dot_product_attention(
        q, k, v, attn_mask=m, enable_gqa=True), [Q, K, V, MASK]),
    "sdpa_bool_mask": (lambda q, k, v, m: F.scaled_dot_product_attention(
        q, k, v, attn_mask=m, enable_gqa=True), [Q, K, V, BOOL_MASK]),
}

MODULES: dict[str, Callable[[], nn.Module]] = {
    "lstm": lambda: nn.LSTM(4, 6, num_layers=2),
    "lstm_proj_bidirectional": lambda: nn.LSTM(4, 6, proj_size=3, bidirectional=True),
    "gru_bidirectional": lambda: nn.GRU(4, 5, bidirectional=True),
    "rnn_tanh": lambda: nn.RNN(4, 5),
    "rnn_relu": lambda: nn.RNN(4, 5, nonlinearity="relu"),
}


def _outputs_and_grads(device: str, fn: Callable[..., Any], arrays: list[np.ndarray],
                       params: list[volta.Tensor]) -> list[np.ndarray]:
    xs = [volta.tensor(a, device=device, requires_grad=a.dtype == np.float32) for a in arrays]
    out = fn(*xs)
    outs = list(out) if isinstance(out, (tuple, list)) else [out]
    floats = [o for o in outs if o.dtype == volta.float32 and o.requires_grad]
    if floats:
        # a weight per element, so every gradient entry is checked
        loss = sum((o * volta.arange(o.numel(), dtype=volta.float32, device=device)
                    .reshape(o.shape).sin()).sum() for o in floats)
        loss.backward()
    grads = [t.grad for t in xs + params if t.grad is not None]
    return [o.detach().cpu().numpy() for o in outs] + [g.cpu().numpy() for g in grads]


def _compare(cpu: list[np.ndarray], gpu: list[np.ndarray]) -> None:
    assert len(cpu) == len(gpu)
    for want, got in zip(cpu, gpu, strict=True):
        assert want.dtype == got.dtype and want.shape == got.shape, (want.dtype, got.dtype,
                                                                     want.shape, got.shape)
        np.testing.assert_allclose(got, want, rtol=2e-4, atol=2e-4, equal_nan=True)


@pytest.mark.parametrize("name", sorted(CASES))
def test_matches_cpu_forward_and_backward(wgpu: str, no_fallback: None, name: str) -> None:
    fn, arrays = CASES[name]
    _compare(_outputs_and_grads("cpu", fn, arrays, []),
             _outputs_and_grads(wgpu, fn, arrays, []))


@pytest.mark.parametrize("name", sorted(MODULES))
def test_recurrent_layers_match_cpu(wgpu: str, no_fallback: None, name: str) -> None:
    results = []
    for device in ("cpu", wgpu):
        volta.manual_seed(0)
        module = MODULES[name]().to(device)
        results.append(_outputs_and_grads(device, lambda x, m=module: m(x)[0], [SEQ],
                                          list(module.parameters())))
    _compare(*results)


def test_multinomial_draws_on_the_device(wgpu: str, no_fallback: None) -> None:
    probs = volta.tensor([[0.1, 0.0, 0.6, 0.3], [0.5, 0.5, 0.0, 0.0]], device=wgpu)
    volta.manual_seed(2)
    draws = volta.multinomial(probs, 4000, replacement=True).cpu().numpy()
    for row, p in zip(draws, probs.cpu().numpy(), strict=True):
        np.testing.assert_allclose(np.bincount(row, minlength=4) / row.size, p, atol=0.025)
    volta.manual_seed(2)
    distinct = volta.multinomial(probs, 2).cpu().numpy()
    assert [sorted(r) for r in distinct.tolist()][1] == [0, 1]
    assert len(set(distinct[0].tolist())) == 2 and 1 not in distinct[0]
    with pytest.raises(volta.VoltaError, match="n_sample > prob_dist"):
        volta.multinomial(probs, 3)


def test_attention_dropout_keeps_the_rate_and_its_backward_matches(wgpu: str) -> None:
    q = volta.tensor(Q, device=wgpu, requires_grad=True)
    v = volta.ones(2, 4, 6, 3, device=wgpu)
    volta.manual_seed(4)
    out = F.scaled_dot_product_attention(q, q[:, :, :1].expand(2, 4, 6, 8) * 0, v,
                                         dropout_p=0.4)
    # equal scores: each output is the kept fraction of 6 keys, scaled by 1 / 0.6
    kept = out.detach().cpu().numpy()[..., 0] * 0.6 * 6
    assert abs(kept.mean() / 6 - 0.6) < 0.06
    np.testing.assert_allclose(kept, np.round(kept), atol=1e-4)
    out.sum().backward()
    assert q.grad is not None and np.isfinite(q.grad.cpu().numpy()).all()


def test_every_core_op_has_a_device_kernel_or_composite(wgpu: str) -> None:
    # issue 10's coverage goal: no op of ops.yaml reaches the CPU fallback on WGPU
    rows = coverage(["WGPU"])
    core = [r for r in rows if r.namespace == "volta"]
    off_device = sorted(r.op for r in core if r.cells["WGPU"] not in ("kernel", "composite"))
    assert core and off_device == []


# -- Note [index range checks] -----------------------------------------------------------------

OUT_OF_RANGE: dict[str, Callable[[volta.Tensor, volta.Tensor], Any]] = {
    "gather": lambda x, i: x.gather(1, i.reshape(1, -1).expand(4, 2)),
    "index_select": lambda x, i: x.index_select(1, i),
    "embedding": lambda x, i: F.embedding(i, x),
    "scatter_add": lambda x, i: x.scatter_add(1, i.reshape(1, -1).expand(4, 2), x[:, :2]),
    "index_add": lambda x, i: x.index_add(1, i, x[:, :2]),
    "scatter": lambda x, i: x.scatter(1, i.reshape(1, -1).expand(4, 2), x[:, :2]),
    "index": lambda x, i: x[:, i],
}


@pytest.mark.parametrize("computed", [False, True], ids=["uploaded", "computed_on_device"])
@pytest.mark.parametrize("name", sorted(OUT_OF_RANGE))
def test_out_of_range_indices_raise_the_cpu_error(wgpu: str, name: str, computed: bool) -> None:
    messages = []
    for device in ("cpu", wgpu):
        x = volta.tensor(X, device=device)
        index = volta.tensor([1, 6], device=device)
        if computed:  # not known on the host: the check reads the bounds back
            index = (index * 3).div(3, rounding_mode="floor")
        with pytest.raises(volta.IndexOutOfRangeError) as info:
            OUT_OF_RANGE[name](x, index)
            volta.wgpu.synchronize()
        messages.append(str(info.value))
    assert messages[0] == messages[1]


def test_in_range_uploaded_indices_cost_no_read(wgpu: str) -> None:
    weight = volta.tensor(X, device=wgpu)
    index = volta.tensor([[0, 3], [2, 1]], device=wgpu)
    volta.wgpu.synchronize()
    before = volta.wgpu.counters()["readbacks"]
    F.embedding(index, weight)
    weight.gather(1, index[:1].expand(4, 2))
    weight.index_select(0, index[0])
    assert volta.wgpu.counters()["readbacks"] == before
