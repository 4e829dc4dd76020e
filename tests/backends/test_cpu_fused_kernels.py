"""The CPU fast paths (fused pointwise kernels, float32 gelu, the gather, nll_loss and layer norm
shortcuts) agree with PyTorch, fall back for the cases they do not take, and hand autograd
gradients it can keep without a copy."""

from __future__ import annotations

import numpy as np
import pytest
import torch

import volta
from volta.autograd import graph
from volta.backends.cpu import kernels, rowwise

RNG = np.random.default_rng(11)
F, TF = volta.nn.functional, torch.nn.functional

# the edges of exp and of the fused formulas: overflow, underflow, signed zeros, inf, nan
EDGES = [-1e4, -100.0, -88.8, -50.0, -20.0, -11.5, -11.0, -5.0, -1e-30, -0.0, 0.0, 1e-30, 0.5,
         5.0, 19.9, 20.0, 20.1, 50.0, 88.7, 100.0, 1e4, float("inf"), -float("inf"),
         float("nan")]

ACTIVATIONS = {
    "sigmoid": (lambda t: t.sigmoid(), lambda t: t.sigmoid()),
    "silu": (F.silu, TF.silu),
    "leaky_relu": (lambda t: F.leaky_relu(t, 0.1), lambda t: TF.leaky_relu(t, 0.1)),
    "leaky_relu steep": (lambda t: F.leaky_relu(t, 3.0), lambda t: TF.leaky_relu(t, 3.0)),
    "elu": (F.elu, TF.elu),
    "elu alpha": (lambda t: F.elu(t, 0.5), lambda t: TF.elu(t, 0.5)),
    "celu": (lambda t: F.celu(t, 2.0), lambda t: TF.celu(t, 2.0)),
    "softplus": (F.softplus, TF.softplus),
    "softplus beta": (lambda t: F.softplus(t, 2.0, 10.0), lambda t: TF.softplus(t, 2.0, 10.0)),
    "gelu": (F.gelu, TF.gelu),
    "abs": (lambda t: t.abs(), lambda t: t.abs()),
}


def _inputs(dtype):
    return np.concatenate([np.array(EDGES), RNG.standard_normal(3000) * 6]).astype(dtype)


def _forward_backward(fn, lib, x, grad):
    leaf = lib.tensor(x).requires_grad_()
    out = fn(leaf)
    out.backward(lib.tensor(grad))
    return out.detach().numpy(), leaf.grad.numpy()


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("name", sorted(ACTIVATIONS))
def test_fused_activations_match_pytorch_at_the_edges(name, dtype):
    x = _inputs(dtype)
    grad = RNG.standard_normal(x.shape).astype(dtype)
    vf, tf = ACTIVATIONS[name]
    got, got_grad = _forward_backward(vf, volta, x, grad)
    want, want_grad = _forward_backward(tf, torch, x, grad)
    if name == "gelu":  # PyTorch's float32 erf gives nan at +inf; volta's gelu(inf) is inf
        got, want = got[x != np.inf], want[x != np.inf]
    np.testing.assert_allclose(got, want, rtol=1.3e-6, atol=1e-5, equal_nan=True)
    np.testing.assert_allclose(got_grad, want_grad, rtol=1.3e-6, atol=1e-5, equal_nan=True)
    # tiny results keep their relative precision (sigmoid(-50) is 2e-22, not 0)
    tiny = np.abs(want) < 1e-6
    if name in ("sigmoid", "silu", "softplus"):
        np.testing.assert_allclose(got[tiny], want[tiny], rtol=8 * np.finfo(dtype).eps,
                                   atol=np.finfo(dtype).tiny)


@pytest.mark.parametrize("name", ["sigmoid", "silu", "leaky_relu", "elu", "softplus"])
@pytest.mark.parametrize("layout", ["scalar", "empty", "broadcast", "half", "transposed"])
def test_fused_activations_fall_back_for_other_layouts_and_dtypes(name, layout):
    vf, tf = ACTIVATIONS[name]
    x = RNG.standard_normal((4, 6)).astype(np.float32) * 4
    if layout == "scalar":
        x = x[0, 0]
    elif layout == "empty":
        x = x[:0]
    v, t = volta.tensor(x), torch.tensor(x)
    if layout == "half":
        v, t = v.to(volta.float16), t.half()
    elif layout == "transposed":
        v, t = v.t(), t.t()
    got, want = vf(v), tf(t)
    assert got.shape == tuple(want.shape) and got.dtype.name == str(want.dtype)[6:]
    tol = 2e-3 if layout == "half" else 1e-5
    np.testing.assert_allclose(got.float().numpy(), want.float().numpy(), rtol=tol, atol=tol)
    if layout in ("broadcast", "transposed"):  # the backwards with a broadcast gradient
        g = RNG.standard_normal(x.shape[-1:]).astype(np.float32)
        leaf, tleaf = volta.tensor(x).requires_grad_(), torch.tensor(x).requires_grad_()
        vf(leaf).backward(volta.tensor(np.broadcast_to(g, x.shape).copy()))
        tf(tleaf).backward(torch.tensor(np.broadcast_to(g, x.shape).copy()))
        np.testing.assert_allclose(leaf.grad.numpy(), tleaf.grad.numpy(), rtol=1e-5, atol=1e-6)


BACKWARDS = {
    "leaky_relu": lambda g, x: volta.leaky_relu_backward(g, x, 0.1, False),
    "relu": lambda g, x: volta.threshold_backward(g, x, 0),
    "hardtanh": lambda g, x: volta.hardtanh_backward(g, x, -0.5, 0.5),
    "sigmoid": lambda g, x: volta.sigmoid_backward(g, x),
    "silu": lambda g, x: volta.silu_backward(g, x),
    "elu": lambda g, x: volta.elu_backward(g, 1, 1, 1, False, x),
    "softplus": lambda g, x: volta.softplus_backward(g, x, 1, 20),
    "gelu": lambda g, x: volta.gelu_backward(g, x),
}


@pytest.mark.parametrize("name", sorted(BACKWARDS))
def test_activation_gradients_can_become_grad_without_a_copy(name):
    # Note [Gradient ownership]: a kernel result laid out unlike the leaf (a transposed or
    # broadcast array) would be copied before it becomes ``.grad``
    x = volta.tensor(RNG.standard_normal((64, 64)).astype(np.float32))
    grad = BACKWARDS[name](volta.ones(64, 64), x)
    assert graph._stealable(grad, x)


def test_sign_matches_pytorch_bit_for_bit():
    for dtype in (torch.float32, torch.float64, torch.float16):
        x = torch.tensor(EDGES + [1e-45, -1e-45], dtype=dtype)
        got = volta.tensor(x.numpy()).sign().numpy()
        np.testing.assert_array_equal(got.view(np.uint8), x.sign().numpy().view(np.uint8))


def test_float32_gelu_stays_within_6e_7_of_float64_and_its_slope_within_3e_7():
    from scipy.special import ndtr
    x = np.linspace(-12, 12, 400_001, dtype=np.float32)
    x64 = x.astype(np.float64)
    got = F.gelu(volta.tensor(x)).numpy()
    assert np.abs(got - x64 * ndtr(x64)).max() <= 6e-7
    slope = volta.gelu_backward(volta.ones(x.size), volta.tensor(x)).numpy()
    want = ndtr(x64) + x64 * np.exp(-x64 * x64 / 2) / np.sqrt(2 * np.pi)
    assert np.abs(slope - want).max() <= 3e-7


@pytest.mark.parametrize("reduction", ["mean", "sum", "none"])
@pytest.mark.parametrize("ignore_index", [-100, 3])
@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_nll_loss_fast_path_matches_pytorch(reduction, ignore_index, dtype):
    x = RNG.standard_normal((32, 10)).astype(dtype)
    t = RNG.integers(0, 10, 32)
    got = F.nll_loss(volta.tensor(x), volta.tensor(t), reduction=reduction,
                     ignore_index=ignore_index)
    want = TF.nll_loss(torch.tensor(x), torch.tensor(t), reduction=reduction,
                       ignore_index=ignore_index)
    assert got.shape == tuple(want.shape) and got.dtype.name == str(want.dtype)[6:]
    np.testing.assert_allclose(got.numpy(), want.numpy(), rtol=1e-6)


@pytest.mark.parametrize("bad", [10, -1])
def test_nll_loss_fast_path_leaves_bad_targets_to_the_checked_path(bad):
    t = RNG.integers(0, 10, 32)
    t[5] = bad
    with pytest.raises(volta.VoltaError, match=f"Target {bad} is out of bounds"):
        F.nll_loss(volta.tensor(RNG.standard_normal((32, 10))), volta.tensor(t))


@pytest.mark.parametrize("index_shape", [(6, 4), (3, 9), (6, 1)])
def test_gather_along_the_last_dim_matches_pytorch(index_shape):
    x = RNG.standard_normal((6, 9)).astype(np.float32)
    idx = RNG.integers(0, 9, index_shape)
    got = volta.tensor(x).gather(1, volta.tensor(idx))
    np.testing.assert_array_equal(got.numpy(), torch.tensor(x).gather(1, torch.tensor(idx)))
    got_t = volta.tensor(x).t().gather(-1, volta.tensor(idx[:, :3].T.copy() % 6))
    want_t = torch.tensor(x).t().gather(-1, torch.tensor(idx[:, :3].T.copy() % 6))
    np.testing.assert_array_equal(got_t.numpy(), want_t.numpy())


def test_gather_of_an_index_too_large_for_cached_offsets_matches_pytorch():
    x = RNG.standard_normal((600, 700)).astype(np.float32)
    idx = RNG.integers(0, 700, (600, 500))  # more elements than kernels._ROW_OFFSETS_MAX
    assert idx.size > kernels._ROW_OFFSETS_MAX
    got = volta.tensor(x).gather(1, volta.tensor(idx))
    np.testing.assert_array_equal(got.numpy(), torch.tensor(x).gather(1, torch.tensor(idx)))


def test_gather_fast_path_leaves_bad_indices_to_the_checked_path():
    x = volta.tensor(RNG.standard_normal((6, 9)).astype(np.float32))
    with pytest.raises(volta.VoltaError, match="out of bounds"):
        x.gather(1, volta.tensor(np.array([[9]])))
    with pytest.raises(volta.VoltaError, match="Size does not match"):
        x.gather(1, volta.tensor(np.zeros((7, 1), np.int64)))


@pytest.mark.parametrize("rows", [5, 128, 300, 1000])
def test_weighted_column_sums_are_about_as_accurate_as_numpys_sum(rows):
    a = RNG.standard_normal((rows, 7)).astype(np.float32)
    w = RNG.random(rows).astype(np.float32)
    want = (a.astype(np.float64) * w[:, None]).sum(0)
    numpy_error = np.abs((a * w[:, None]).sum(0) - want).max()
    assert np.abs(rowwise.weighted_column_sums(a, w) - want).max() <= 2 * numpy_error + 1e-6


@pytest.mark.parametrize("rows", [1, 8, 12, 256])
def test_apply_to_rows_matches_a_broadcast(rows):
    a = RNG.standard_normal((rows, 1024)).astype(np.float32)
    v = RNG.standard_normal(1024).astype(np.float32)
    for ufunc in (np.add, np.multiply):
        out = np.empty_like(a)
        np.testing.assert_array_equal(rowwise.apply_to_rows(ufunc, a, v, out), ufunc(a, v))


def test_gelu_kernel_keeps_float64_on_the_erf_path():
    x = RNG.standard_normal(50)
    got = kernels.gelu(volta.tensor(x)).numpy()
    want = TF.gelu(torch.tensor(x)).numpy()
    np.testing.assert_allclose(got, want, rtol=1e-12, atol=1e-14)
