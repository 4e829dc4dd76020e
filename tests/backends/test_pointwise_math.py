"""The CPU pointwise helpers that replace numpy's own for speed keep numpy's exact results."""

from __future__ import annotations

import numpy as np
import pytest
import torch

import volta
from volta.backends.cpu import pointwise_math as pm

RNG = np.random.default_rng(7)


def _values(dtype):
    x = RNG.standard_normal((6, 5)).astype(dtype)
    x[0, :3] = [np.nan, np.inf, -np.inf]
    x[1, 0] = -0.0
    return x


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("zero", [0, 0.0])
def test_where_with_a_zero_branch_matches_numpy_bit_for_bit(dtype, zero):
    x = _values(dtype)
    cond = RNG.standard_normal(x.shape) > 0
    for got, want in ((pm.where(cond, x, zero), np.where(cond, x, zero)),
                      (pm.where(cond, zero, x), np.where(cond, zero, x)),
                      (pm.where(cond, x.T.copy().T, zero), np.where(cond, x, zero))):
        assert got.dtype == want.dtype and got.shape == want.shape
        np.testing.assert_array_equal(got.view(np.uint8), want.view(np.uint8))


@pytest.mark.parametrize("args", [
    lambda c, x: (c, x, -0.0),           # a negative zero keeps its sign: numpy's path
    lambda c, x: (c[:1], x, 0),          # broadcasting condition
    lambda c, x: (c, x.astype(np.float16), 0),
    lambda c, x: (c, x, np.float64(0)),  # a numpy scalar is not weak: float64 result
    lambda c, x: (c, np.nan_to_num(x, posinf=9, neginf=-9).astype(np.int32), 0),
])
def test_where_other_cases_are_numpys(args):
    x = _values(np.float32)
    cond = RNG.standard_normal(x.shape) > 0
    a = args(cond, x)
    got, want = pm.where(*a), np.where(*a)
    assert got.dtype == want.dtype
    np.testing.assert_array_equal(got.view(np.uint8), want.view(np.uint8))


def test_relu_backward_passes_gradients_like_pytorch_for_nan_and_zero_inputs():
    values = [-1.0, 0.0, 2.0, float("nan")]
    grads = [1.0, 2.0, float("nan"), 4.0]
    x = volta.tensor(values, requires_grad=True)
    tx = torch.tensor(values, requires_grad=True)
    volta.relu(x).backward(volta.tensor(grads))
    torch.relu(tx).backward(torch.tensor(grads))
    np.testing.assert_array_equal(x.grad.numpy(), tx.grad.numpy())
    g = volta.threshold_backward(volta.tensor(grads), volta.tensor(values), 0.5)
    tg = torch.ops.aten.threshold_backward(torch.tensor(grads), torch.tensor(values), 0.5)
    np.testing.assert_array_equal(g.numpy(), tg.numpy())


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_where_between_two_arrays_matches_numpy_bit_for_bit(dtype):
    x, y = _values(dtype), -_values(dtype)[::-1].copy()
    cond = RNG.standard_normal(x.shape) > 0
    for c, a, b in ((cond, x, y), (cond, y, x), (np.ones_like(cond), x, y), (cond, x.T.T, y)):
        got, want = pm.where(c, a, b), np.where(c, a, b)
        assert got.dtype == want.dtype and got.shape == want.shape
        np.testing.assert_array_equal(got.view(np.uint8), want.view(np.uint8))


@pytest.mark.parametrize("dtype", [torch.float32, torch.float64])
def test_clip_fast_paths_match_pytorch_bit_for_bit(dtype):
    x = torch.from_numpy(_values(dtype.itemsize == 4 and np.float32 or np.float64))
    v = volta.tensor(x.numpy())
    for got, want in ((volta.relu(v), torch.relu(x)),
                      (volta.nn.functional.relu6(v), torch.nn.functional.relu6(x)),
                      (volta.nn.functional.hardtanh(v, -0.5, 0.5),
                       torch.nn.functional.hardtanh(x, -0.5, 0.5)),
                      (v ** 2, x ** 2), (v.abs().rsqrt(), x.abs().rsqrt())):
        assert got.dtype.name == str(want.dtype).removeprefix("torch.")
        np.testing.assert_array_equal(got.numpy().view(np.uint8), want.numpy().view(np.uint8))


@pytest.mark.parametrize("dtype", [torch.float32, torch.float64])
@pytest.mark.parametrize("name", ["sigmoid", "softplus", "logsigmoid", "silu", "elu", "expm1"])
def test_exp_based_activations_match_pytorch_over_the_whole_range(dtype, name):
    # from underflow to overflow of exp, the denormal range and the special values
    extremes = [0.0, -0.0, 1e-8, -1e-8, 15.0, -15.0, 40.0, -40.0, 87.0, -87.0, 89.0, -89.0,
                700.0, -700.0, 800.0, -800.0, float("inf"), -float("inf"), float("nan")]
    x = torch.cat([torch.linspace(-30, 30, 2001, dtype=dtype), torch.tensor(extremes, dtype=dtype)])
    namespace = (torch, volta) if name == "expm1" else (torch.nn.functional, volta.nn.functional)
    want = getattr(namespace[0], name)(x)
    got = getattr(namespace[1], name)(volta.tensor(x.numpy()))
    assert got.dtype.name == str(want.dtype).removeprefix("torch.")
    tiny = torch.finfo(dtype).tiny  # denormal results agree to within the denormal spacing
    np.testing.assert_allclose(got.numpy(), want.numpy(), rtol=8 * torch.finfo(dtype).eps,
                               atol=tiny, equal_nan=True)


@pytest.mark.parametrize("bounds", [(-0.5, 0.5), (None, 0.25), (-0.25, None), (1.0, 0.0),
                                    (float("nan"), None), (None, float("nan")), (0.1, 0.7)])
def test_clamp_with_number_bounds_matches_pytorch_bit_for_bit(bounds):
    x = torch.from_numpy(_values(np.float32))
    got = volta.tensor(x.numpy()).clamp(*bounds)
    np.testing.assert_array_equal(got.numpy().view(np.uint8),
                                  x.clamp(*bounds).numpy().view(np.uint8))
    tensor_bounds = [None if b is None else torch.tensor(b, dtype=torch.float64) for b in bounds]
    got = volta.tensor(x.numpy()).clamp(*[None if b is None else volta.tensor(b.item(),
                                          dtype=volta.float64) for b in tensor_bounds])
    want = x.clamp(*tensor_bounds)
    assert got.dtype.name == str(want.dtype).removeprefix("torch.")
    np.testing.assert_array_equal(got.numpy(), want.numpy())
