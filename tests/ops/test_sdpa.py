"""``volta.nn.functional.scaled_dot_product_attention``: the blocked CPU kernel and its backward.

Oracles: PyTorch's ``torch.nn.functional.scaled_dot_product_attention`` (forward and q/k/v/mask
gradients) and the naive ``softmax(q @ k^T * scale + mask) @ v`` in numpy. Block boundaries are
crossed both by sizes larger than the kernel's blocks and by shrinking the blocks.
"""

from __future__ import annotations

import math
import tracemalloc
from typing import Any

import numpy as np
import pytest

import volta
import volta.nn.functional as F
from volta.backends.cpu import attention
from volta.errors import VoltaError

torch = pytest.importorskip("torch")
TF = torch.nn.functional

TOL = {"float32": (2e-5, 2e-5), "float64": (1e-10, 1e-10)}


def _mask(rng: np.random.Generator, kind: str | None, shape: tuple[int, ...], dtype: str) -> Any:
    if kind is None:
        return None
    if kind == "bool":
        m = rng.random(shape) > 0.4
        m[..., 0] = True  # every row sees a key (fully masked rows have their own test)
        return m
    return rng.standard_normal(shape).astype(dtype)


def _compare(qs: tuple[int, ...], ks: tuple[int, ...], vs: tuple[int, ...], dtype: str,
             mask: str | None = None, mask_shape: tuple[int, ...] | None = None,
             mask_grad: bool = False, seed: int = 0, **kwargs: Any) -> None:
    """Forward and every gradient against PyTorch on the same inputs."""
    rng = np.random.default_rng(seed)
    arrays = [rng.standard_normal(s).astype(dtype) for s in (qs, ks, vs)]
    m = _mask(rng, mask, mask_shape or (qs[-2], ks[-2]), dtype)
    tt = [torch.tensor(a, requires_grad=True) for a in arrays]
    vt = [volta.tensor(a, requires_grad=True) for a in arrays]
    tm = vm = None
    if m is not None:
        tm = torch.tensor(m, requires_grad=mask_grad)
        vm = volta.tensor(m, requires_grad=mask_grad)
    expected = TF.scaled_dot_product_attention(*tt, tm, **kwargs)
    actual = F.scaled_dot_product_attention(*vt, vm, **kwargs)
    rtol, atol = TOL[dtype]
    assert actual.shape == tuple(expected.shape)
    assert actual.dtype is getattr(volta, dtype)
    np.testing.assert_allclose(actual.detach().numpy(), expected.detach().numpy(), rtol, atol)
    g = rng.standard_normal(tuple(expected.shape)).astype(dtype)
    expected.backward(torch.tensor(g))
    actual.backward(volta.tensor(g))
    pairs = list(zip(vt, tt)) + ([(vm, tm)] if mask_grad else [])
    for name, (a, e) in zip(("query", "key", "value", "attn_mask"), pairs):
        np.testing.assert_allclose(a.grad.numpy(), e.grad.numpy(), rtol, atol, err_msg=name)


CASES = {
    "no mask": dict(qs=(2, 3, 4, 8), ks=(2, 3, 5, 8), vs=(2, 3, 5, 8)),
    "bool mask": dict(qs=(2, 3, 4, 8), ks=(2, 3, 5, 8), vs=(2, 3, 5, 6), mask="bool"),
    "float mask": dict(qs=(2, 3, 4, 8), ks=(2, 3, 5, 8), vs=(2, 3, 5, 6), mask="float"),
    "bool mask per batch": dict(qs=(2, 3, 4, 8), ks=(2, 3, 5, 8), vs=(2, 3, 5, 6), mask="bool",
                                mask_shape=(2, 1, 4, 5)),
    "float mask broadcast rows": dict(qs=(2, 3, 4, 8), ks=(2, 3, 5, 8), vs=(2, 3, 5, 6),
                                      mask="float", mask_shape=(3, 1, 5)),
    "float mask broadcast cols": dict(qs=(2, 3, 4, 8), ks=(2, 3, 5, 8), vs=(2, 3, 5, 6),
                                      mask="float", mask_shape=(2, 3, 4, 1)),
    "causal L<S": dict(qs=(1, 2, 4, 8), ks=(1, 2, 7, 8), vs=(1, 2, 7, 8), is_causal=True),
    "causal L>S": dict(qs=(1, 2, 7, 8), ks=(1, 2, 4, 8), vs=(1, 2, 4, 3), is_causal=True),
    "scale": dict(qs=(2, 3, 4, 8), ks=(2, 3, 5, 8), vs=(2, 3, 5, 6), scale=0.37),
    "gqa": dict(qs=(2, 6, 5, 8), ks=(2, 2, 7, 8), vs=(2, 3, 7, 4), enable_gqa=True),
    "3-d": dict(qs=(3, 4, 8), ks=(3, 5, 8), vs=(3, 5, 8)),
    "2-d": dict(qs=(4, 8), ks=(5, 8), vs=(5, 2)),
    "broadcast batch": dict(qs=(3, 1, 4, 8), ks=(1, 2, 5, 8), vs=(2, 5, 6)),
    "Ev != E": dict(qs=(2, 2, 3, 16), ks=(2, 2, 6, 16), vs=(2, 2, 6, 5)),
    "tiny": dict(qs=(1, 1, 1, 1), ks=(1, 1, 1, 1), vs=(1, 1, 1, 1)),
}


@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("case", sorted(CASES))
def test_matches_torch(case: str, dtype: str) -> None:
    _compare(dtype=dtype, **CASES[case])


@pytest.mark.parametrize("mask_shape", [(4, 5), (2, 1, 4, 5), (3, 1, 5), (2, 3, 4, 1)])
def test_float_mask_gradient_matches_torch(mask_shape: tuple[int, ...]) -> None:
    _compare((2, 3, 4, 8), (2, 3, 5, 8), (2, 3, 5, 6), "float64", mask="float",
             mask_shape=mask_shape, mask_grad=True)


@pytest.fixture
def small_blocks(monkeypatch: pytest.MonkeyPatch) -> None:
    """Blocks of 3 keys and at most 12 scores: odd sizes cross many block boundaries."""
    monkeypatch.setattr(attention, "KEY_BLOCK", 3)
    monkeypatch.setattr(attention, "BLOCK_ELEMENTS", 12)


@pytest.mark.parametrize("case", sorted(CASES))
def test_small_blocks_match_torch(case: str, small_blocks: None) -> None:
    _compare(dtype="float64", **CASES[case])


def test_small_blocks_float_mask_gradient(small_blocks: None) -> None:
    _compare((2, 3, 7, 5), (2, 3, 11, 5), (2, 3, 11, 4), "float64", mask="float",
             mask_shape=(3, 7, 11), mask_grad=True)


@pytest.mark.parametrize("kwargs", [{}, {"is_causal": True}, {"mask": "bool"}],
                         ids=["plain", "causal", "bool mask"])
def test_long_sequences_cross_real_blocks(kwargs: dict[str, Any]) -> None:
    """L and S larger than the kernel's own query and key blocks (odd sizes)."""
    _compare((1, 1, 1201, 8), (1, 1, 2111, 8), (1, 1, 2111, 3), "float32", **kwargs)


def _naive(q: np.ndarray, k: np.ndarray, v: np.ndarray, mask: np.ndarray | None,
           scale: float) -> np.ndarray:
    scores = q @ np.swapaxes(k, -1, -2) * scale
    if mask is not None:
        scores = np.where(mask, scores, -np.inf) if mask.dtype == bool else scores + mask
    weights = np.exp(scores - scores.max(-1, keepdims=True))
    return weights / weights.sum(-1, keepdims=True) @ v


@pytest.mark.parametrize("mask", [None, "bool", "float"])
@pytest.mark.parametrize("size", [(5, 7), (600, 1300)])
def test_equals_naive_softmax(mask: str | None, size: tuple[int, int]) -> None:
    rng = np.random.default_rng(3)
    L, S = size
    q, k, v = (rng.standard_normal(s) for s in ((2, L, 16), (2, S, 16), (2, S, 8)))
    m = _mask(rng, mask, (L, S), "float64")
    out = F.scaled_dot_product_attention(volta.tensor(q), volta.tensor(k), volta.tensor(v),
                                         None if m is None else volta.tensor(m))
    np.testing.assert_allclose(out.numpy(), _naive(q, k, v, m, 1 / 4), rtol=1e-10, atol=1e-12)


@pytest.mark.parametrize("kind", ["bool", "float"])
def test_fully_masked_rows_give_zeros_like_torch(kind: str) -> None:
    rng = np.random.default_rng(4)
    q, k, v = (rng.standard_normal(s) for s in ((2, 4, 8), (2, 5, 8), (2, 5, 6)))
    if kind == "bool":
        m = np.ones((4, 5), dtype=bool)
        m[1] = False
    else:
        m = np.zeros((4, 5))
        m[1] = -np.inf
    tt = [torch.tensor(a, requires_grad=True) for a in (q, k, v)]
    vt = [volta.tensor(a, requires_grad=True) for a in (q, k, v)]
    expected = TF.scaled_dot_product_attention(*tt, torch.tensor(m))
    actual = F.scaled_dot_product_attention(*vt, volta.tensor(m))
    assert not np.isnan(actual.detach().numpy()).any()
    np.testing.assert_allclose(actual.detach().numpy(), expected.detach().numpy(), 1e-12, 1e-12)
    np.testing.assert_array_equal(actual.detach().numpy()[:, 1], 0)
    expected.sum().backward()
    actual.sum().backward()
    for a, e in zip(vt, tt):
        np.testing.assert_allclose(a.grad.numpy(), e.grad.numpy(), 1e-12, 1e-12)


@pytest.mark.parametrize("kwargs", [{}, {"is_causal": True}, {"scale": 0.8}],
                         ids=["plain", "causal", "scale"])
def test_gradcheck_float64(kwargs: dict[str, Any]) -> None:
    rng = np.random.default_rng(5)
    inputs = [volta.tensor(rng.standard_normal(s), requires_grad=True)
              for s in ((2, 3, 4), (2, 5, 4), (2, 5, 3))]
    assert volta.autograd.gradcheck(
        lambda q, k, v: F.scaled_dot_product_attention(q, k, v, **kwargs), inputs)


def test_gradcheck_float_mask(small_blocks: None) -> None:
    rng = np.random.default_rng(6)
    inputs = [volta.tensor(rng.standard_normal(s), requires_grad=True)
              for s in ((2, 4, 3), (2, 5, 3), (2, 5, 2), (4, 5))]
    assert volta.autograd.gradcheck(F.scaled_dot_product_attention, inputs)


# ----------------------------------------------------------------------------- dropout


def _qkv(shape_q: tuple[int, ...], shape_k: tuple[int, ...], shape_v: tuple[int, ...],
         seed: int = 0) -> list[volta.Tensor]:
    rng = np.random.default_rng(seed)
    return [volta.tensor(rng.standard_normal(s), requires_grad=True)
            for s in (shape_q, shape_k, shape_v)]


def test_dropout_is_seeded_by_manual_seed() -> None:
    q, k, v = _qkv((2, 9, 4), (2, 11, 4), (2, 11, 3))
    volta.manual_seed(11)
    a = F.scaled_dot_product_attention(q, k, v, dropout_p=0.5).detach().numpy()
    b = F.scaled_dot_product_attention(q, k, v, dropout_p=0.5).detach().numpy()
    volta.manual_seed(11)
    c = F.scaled_dot_product_attention(q, k, v, dropout_p=0.5).detach().numpy()
    np.testing.assert_array_equal(a, c)
    assert not np.array_equal(a, b)


def test_no_dropout_is_deterministic_and_draws_nothing() -> None:
    q, k, v = _qkv((2, 9, 4), (2, 11, 4), (2, 11, 3))
    volta.manual_seed(3)
    a = F.scaled_dot_product_attention(q, k, v, dropout_p=0.0).detach().numpy()
    after = volta.rand(4).numpy()
    volta.manual_seed(3)
    b = F.scaled_dot_product_attention(q, k, v).detach().numpy()
    np.testing.assert_array_equal(a, b)
    np.testing.assert_array_equal(volta.rand(4).numpy(), after)


@pytest.mark.parametrize("blocks", [False, True], ids=["one block", "small blocks"])
def test_dropout_masks_weights_and_backward_uses_the_same_mask(
        blocks: bool, monkeypatch: pytest.MonkeyPatch) -> None:
    """With ``value = I`` the output is the dropped weights themselves: each is 0 or the plain
    weight / (1 - p), and ``value``'s gradient is exactly ``out^T @ grad``, which only holds if the
    backward dropped the same entries as the forward."""
    if blocks:
        monkeypatch.setattr(attention, "KEY_BLOCK", 4)
        monkeypatch.setattr(attention, "BLOCK_ELEMENTS", 20)
    p, L, S = 0.3, 40, 50
    rng = np.random.default_rng(8)
    q = volta.tensor(rng.standard_normal((2, L, 6)))
    k = volta.tensor(rng.standard_normal((2, S, 6)))
    v = volta.tensor(np.broadcast_to(np.eye(S), (2, S, S)).copy(), requires_grad=True)
    plain = F.scaled_dot_product_attention(q, k, v).detach().numpy()
    volta.manual_seed(0)
    out = F.scaled_dot_product_attention(q, k, v, dropout_p=p)
    dropped = out.detach().numpy()
    kept = dropped != 0
    np.testing.assert_allclose(dropped[kept], plain[kept] / (1 - p), rtol=1e-12)
    assert abs((~kept).mean() - p) < 0.03
    g = rng.standard_normal(dropped.shape)
    out.backward(volta.tensor(g))
    np.testing.assert_allclose(v.grad.numpy(), np.swapaxes(dropped, 1, 2) @ g, rtol=1e-10,
                               atol=1e-12)


def test_dropout_preserves_the_mean() -> None:
    q, k, _ = _qkv((4, 256, 8), (4, 300, 8), (4, 300, 1), seed=9)
    v = volta.ones((4, 300, 1), dtype=volta.float64)
    volta.manual_seed(1)
    out = F.scaled_dot_product_attention(q, k, v, dropout_p=0.4).detach().numpy()
    # each row is sum_j w_ij z_ij with sum_j w_ij = 1 and E[z] = 1
    assert abs(out.mean() - 1) < 0.02


def test_dropout_gradients_match_finite_differences() -> None:
    """At a fixed seed the dropped forward is a deterministic function: gradcheck it."""
    q, k, v = _qkv((2, 5, 3), (2, 6, 3), (2, 6, 2), seed=10)

    def fn(q: volta.Tensor, k: volta.Tensor, v: volta.Tensor) -> volta.Tensor:
        volta.manual_seed(21)
        return F.scaled_dot_product_attention(q, k, v, dropout_p=0.35)

    assert volta.autograd.gradcheck(fn, (q, k, v))


def test_negative_dropout_is_no_dropout_like_torch() -> None:
    q, k, v = _qkv((2, 5, 3), (2, 6, 3), (2, 6, 2))
    plain = F.scaled_dot_product_attention(q, k, v).detach().numpy()
    out = F.scaled_dot_product_attention(q, k, v, dropout_p=-0.2).detach().numpy()
    np.testing.assert_array_equal(out, plain)


def test_dropout_of_one_drops_everything() -> None:
    q, k, v = _qkv((2, 5, 3), (2, 6, 3), (2, 6, 2))
    out = F.scaled_dot_product_attention(q, k, v, dropout_p=1.0)
    np.testing.assert_array_equal(out.detach().numpy(), 0)


# ----------------------------------------------------------------------------- other dtypes


@pytest.mark.parametrize("dtype", ["float16", "bfloat16"])
def test_half_precision_accumulates_in_float32(dtype: str) -> None:
    rng = np.random.default_rng(12)
    arrays = [rng.standard_normal(s).astype(np.float32) for s in ((2, 2, 7, 8), (2, 2, 9, 8),
                                                                  (2, 2, 9, 8))]
    tt = [torch.tensor(a).to(getattr(torch, dtype)).requires_grad_() for a in arrays]
    vt = [volta.tensor(a).to(getattr(volta, dtype)).requires_grad_() for a in arrays]
    expected = TF.scaled_dot_product_attention(*tt, is_causal=True)
    actual = F.scaled_dot_product_attention(*vt, is_causal=True)
    assert actual.dtype is getattr(volta, dtype)
    tol = 2e-2 if dtype == "bfloat16" else 2e-3
    np.testing.assert_allclose(actual.float().detach().numpy(),
                               expected.float().detach().numpy(), tol, tol)
    expected.sum().backward()
    actual.sum().backward()
    for a, e in zip(vt, tt):
        assert a.grad.dtype is getattr(volta, dtype)
        np.testing.assert_allclose(a.grad.float().numpy(), e.grad.float().numpy(), 4 * tol,
                                   4 * tol)


# ----------------------------------------------------------------------------- errors

ERROR_CASES = {
    "1-d": (((8,), (8,), (8,)), {}),
    "dtype mismatch": (((2, 4, 8), (2, 5, 8), (2, 5, 6)), {"k_dtype": "float64"}),
    "head dim mismatch": (((2, 4, 8), (2, 5, 7), (2, 5, 6)), {}),
    "key/value length mismatch": (((2, 4, 8), (2, 5, 8), (2, 4, 6)), {}),
    "batch mismatch": (((2, 4, 8), (3, 5, 8), (3, 5, 6)), {}),
    "integer inputs": (((2, 4, 8), (2, 5, 8), (2, 5, 6)), {"dtype": "int64"}),
    "mask dtype": (((2, 4, 8), (2, 5, 8), (2, 5, 6)), {"mask": ("int64", (4, 5))}),
    "mask float dtype": (((2, 4, 8), (2, 5, 8), (2, 5, 6)), {"mask": ("float64", (4, 5))}),
    "mask shape": (((2, 4, 8), (2, 5, 8), (2, 5, 6)), {"mask": ("bool", (3, 5))}),
    "mask widens the batch": (((2, 4, 8), (2, 5, 8), (2, 5, 6)),
                              {"mask": ("float32", (3, 2, 4, 5))}),
    "mask and causal": (((2, 4, 8), (2, 5, 8), (2, 5, 6)),
                        {"mask": ("bool", (4, 5)), "is_causal": True}),
    "dropout above one": (((2, 4, 8), (2, 5, 8), (2, 5, 6)), {"dropout_p": 1.5}),
    "gqa heads": (((1, 4, 4, 8), (1, 3, 5, 8), (1, 3, 5, 6)), {"enable_gqa": True}),
    "heads without gqa": (((1, 4, 4, 8), (1, 2, 5, 8), (1, 2, 5, 6)), {}),
}


@pytest.mark.parametrize("case", sorted(ERROR_CASES))
def test_errors_where_torch_raises(case: str) -> None:
    shapes, opts = ERROR_CASES[case]
    opts = dict(opts)
    dtype = opts.pop("dtype", "float32")
    k_dtype = opts.pop("k_dtype", dtype)
    mask = opts.pop("mask", None)

    def call(lib: Any, fn: Any) -> Any:
        q, k, v = (lib.ones(s, dtype=getattr(lib, dt))
                   for s, dt in zip(shapes, (dtype, k_dtype, dtype)))
        m = None if mask is None else lib.ones(mask[1], dtype=getattr(lib, mask[0]))
        return fn(q, k, v, m, **opts)

    with pytest.raises(RuntimeError):
        call(torch, TF.scaled_dot_product_attention)
    with pytest.raises(VoltaError):
        call(volta, F.scaled_dot_product_attention)


def test_double_backward_fails_loudly() -> None:
    q, k, v = _qkv((2, 4, 3), (2, 5, 3), (2, 5, 2))
    out = F.scaled_dot_product_attention(q, k, v)
    (gq,) = volta.autograd.grad(out.sum(), (q,), create_graph=True)
    with pytest.raises(VoltaError, match="_scaled_dot_product_attention_flash_backward"):
        gq.sum().backward()


# ----------------------------------------------------------------------------- memory


def test_peak_memory_stays_far_below_the_score_matrix() -> None:
    """Forward + backward at L = S = 4096 (float32, head dim 64): the naive kernel would hold at
    least one 4096 x 4096 float32 score matrix (64 MiB); the blocked one stays under a quarter."""
    n, e = 4096, 64
    rng = np.random.default_rng(13)
    q, k, v = (volta.tensor(rng.standard_normal((1, 1, n, e)).astype(np.float32),
                            requires_grad=True) for _ in range(3))
    naive = n * n * 4
    tracemalloc.start()
    try:
        tracemalloc.reset_peak()
        out = F.scaled_dot_product_attention(q, k, v)
        out.sum().backward()
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert q.grad is not None and math.isfinite(float(q.grad.abs().sum()))
    assert peak < naive / 4, f"peak {peak / 2**20:.1f} MiB"
