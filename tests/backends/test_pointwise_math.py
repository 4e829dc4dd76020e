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
@pytest.mark.parametrize("name", ["sigmoid", "softplus", "logsigmoid", "silu", "elu", "selu",
                                  "celu", "expm1"])
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


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("fill", [True, False])
def test_where_with_a_uniform_condition_copies_one_side(dtype, fill):
    x, y = _values(dtype), _values(dtype)[::-1].copy()
    cond = np.full(x.shape, fill)
    got = pm.where(cond, x, y)
    want = np.where(cond, x, y)
    assert got.dtype == want.dtype and got.shape == want.shape
    np.testing.assert_array_equal(got.view(np.uint8), want.view(np.uint8))
    assert not np.shares_memory(got, x) and not np.shares_memory(got, y)


@pytest.mark.parametrize("slope", [0.01, 0.0, 0.5, 1.0, 1.5, -0.2, 0.1])
def test_leaky_relu_matches_pytorch_bit_for_bit(slope):
    # slopes in (0, 1] take max(x, slope x); the others (0: inf * 0 is nan) the select
    x = torch.from_numpy(_values(np.float32)).requires_grad_()
    vx = volta.tensor(x.detach().numpy()).requires_grad_()
    grad = torch.from_numpy(_values(np.float32)[::-1].copy())
    want = torch.nn.functional.leaky_relu(x, slope)
    got = volta.nn.functional.leaky_relu(vx, slope)
    np.testing.assert_array_equal(got.detach().numpy().view(np.uint8),
                                  want.detach().numpy().view(np.uint8))
    want.backward(grad)
    got.backward(volta.tensor(grad.numpy()))
    np.testing.assert_array_equal(vx.grad.numpy().view(np.uint8), x.grad.numpy().view(np.uint8))


def test_float32_expm1_without_large_values_matches_the_general_path():
    x = np.concatenate([np.linspace(-20, 1, 5001, dtype=np.float32), [-np.inf, -0.0, 0.0]])
    general = pm.expm1(np.concatenate([x, np.float32([2.0])]))[:-1]  # a value > 1: both passes
    np.testing.assert_array_equal(pm.expm1(x).view(np.uint32), general.view(np.uint32))
    assert np.isnan(pm.expm1(np.float32([np.nan, 0.5]))[0])


# -- float32 erf and gelu (Note [float32 erf]) ------------------------------------------------


def test_float32_erf_is_within_4_ulp_of_float64_erf_over_a_dense_grid():
    from scipy import special

    from volta.backends.cpu import numpy_nn
    x = np.concatenate([np.linspace(-6, 6, 1_200_001, dtype=np.float32),
                        np.geomspace(1e-38, 1, 20_000).astype(np.float32)])
    x = x[x != 0]
    got = numpy_nn.erf(x)
    assert got.dtype == np.float32
    want = special.erf(x.astype(np.float64))
    ulps = np.abs(got.astype(np.float64) - want) / np.spacing(np.abs(want).astype(np.float32))
    assert ulps.max() <= 4
    assert (np.abs(got - want) / np.abs(want)).max() < 2.5e-7


def test_float32_erf_edges():
    from volta.backends.cpu import numpy_nn
    x = np.array([np.nan, np.inf, -np.inf, 0.0, -0.0, 3.95, -3.95, 4.0, 1e3, 1e-40],
                 np.float32)
    got = numpy_nn.erf(x)
    assert np.isnan(got[0])
    np.testing.assert_array_equal(got[1:9], [1, -1, 0, -0.0, 1, -1, 1, 1])
    assert np.signbit(got[4]) and not np.signbit(got[3])
    assert got[9] > 0  # a subnormal keeps its sign and size (erf(x) ~ 2x/sqrt(pi))
    zero_d = numpy_nn.erf(np.array(0.5, np.float32))
    assert zero_d.shape == () and zero_d.dtype == np.float32


def _gelu_inputs(dtype, layout):
    x = RNG.standard_normal((7, 9)) * 4
    if layout == "transposed":
        x = x.T
    elif layout == "strided":
        x = x[::2, 1::3]
    elif layout == "empty":
        x = x[:0]
    elif layout == "scalar":
        x = x[0, 0]
    return np.asarray(x, dtype=dtype)


@pytest.mark.parametrize("approximate", ["none", "tanh"])
@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("layout", ["contiguous", "transposed", "strided", "empty", "scalar"])
def test_gelu_forward_and_backward_match_pytorch(approximate, dtype, layout):
    x = _gelu_inputs(dtype, layout)
    grad = np.asarray(RNG.standard_normal(x.shape), dtype=dtype)
    vx = volta.tensor(x).requires_grad_()
    tx = torch.tensor(x).requires_grad_()
    if layout == "transposed":  # non-contiguous tensors, as the transposes of contiguous ones
        vx = volta.tensor(np.ascontiguousarray(x.T)).t().detach().requires_grad_()
        tx = torch.tensor(np.ascontiguousarray(x.T)).t().detach().requires_grad_()
    vy = volta.nn.functional.gelu(vx, approximate=approximate)
    ty = torch.nn.functional.gelu(tx, approximate=approximate)
    vy.backward(volta.tensor(grad))
    ty.backward(torch.tensor(grad))
    assert vy.dtype == getattr(volta, np.dtype(dtype).name) and vy.shape == tuple(ty.shape)
    rtol, atol = (2e-6, 1e-6) if dtype == np.float32 else (1e-12, 1e-14)
    np.testing.assert_allclose(vy.detach().numpy(), ty.detach().numpy(), rtol=rtol, atol=atol)
    np.testing.assert_allclose(vx.grad.numpy(), tx.grad.numpy(), rtol=rtol, atol=atol * 4)


@pytest.mark.parametrize("approximate", ["none", "tanh"])
def test_gelu_half_and_mixed_dtype_backward_match_pytorch(approximate):
    x = RNG.standard_normal(50).astype(np.float32) * 3
    grad = RNG.standard_normal(50).astype(np.float32)
    got = volta.nn.functional.gelu(volta.tensor(x).to(volta.float16), approximate=approximate)
    want = torch.nn.functional.gelu(torch.tensor(x).half(), approximate=approximate)
    assert got.dtype == volta.float16
    np.testing.assert_allclose(got.float().numpy(), want.float().numpy(), rtol=2e-3, atol=1e-3)
    got = volta.gelu_backward(volta.tensor(grad), volta.tensor(x.astype(np.float64)),
                                  approximate=approximate)
    want = torch.ops.aten.gelu_backward(torch.tensor(grad), torch.tensor(x.astype(np.float64)),
                                        approximate=approximate)
    assert got.dtype == volta.float64
    np.testing.assert_allclose(got.numpy(), want.numpy(), rtol=1e-6, atol=1e-7)


def test_gelu_double_backward_still_runs_through_the_composite():
    x = RNG.standard_normal(20)
    vx = volta.tensor(x).requires_grad_()
    tx = torch.tensor(x).requires_grad_()
    (vg,) = volta.autograd.grad(volta.nn.functional.gelu(vx).sum(), vx, create_graph=True)
    (tg,) = torch.autograd.grad(torch.nn.functional.gelu(tx).sum(), tx, create_graph=True)
    vg.sum().backward()
    tg.sum().backward()
    np.testing.assert_allclose(vx.grad.numpy(), tx.grad.numpy(), rtol=1e-10, atol=1e-12)


def test_gelu_backward_rejects_an_unknown_approximation():
    with pytest.raises(volta.VoltaError, match="approximate"):
        volta.gelu_backward(volta.ones(3), volta.ones(3), approximate="cubic")
