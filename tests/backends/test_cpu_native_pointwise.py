"""The compiled float32 pointwise kernels (volta/backends/cpu/native/pointwise.c) against PyTorch:
each kernel on edge values (infinities, NaN, signed zeros, huge, tiny and subnormal numbers)
and random data, on 1, 2 and 3 threads (equal results), at odd sizes; then the volta ops that
route to them, forward and backward, in both modes (VOLTA_NATIVE=0 runs the numpy path)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
import pytest
import torch

import volta
from volta.backends.cpu.native import _pointwise as module  # also under VOLTA_NATIVE=0

aten = torch.ops.aten
RTOL, ATOL = 1.3e-6, 1e-5  # PyTorch's float32 tolerances

EDGES = np.array([0.0, -0.0, np.inf, -np.inf, np.nan, 1.0, -1.0, 0.5, -0.5, 3e38, -3e38, 1e30,
                  -1e30, 1e-30, -1e-30, 1e-40, -1e-40, 1e-45, -1e-45, 88.0, -88.0, 89.0, -89.0,
                  104.0, -104.0, 20.0, 20.5, -20.0, 5.5, -5.5, 10.0, -10.0, 0.625, -0.625,
                  0.6, 0.65, 0.45, -0.45, 0.55, -0.55, 1e-4, -1e-4, 3.0, -3.0, 11.0, -11.0],
                 np.float32)


def _values(size: int = 4099, scale: float = 4.0) -> np.ndarray:
    """The edge values, then random normal values (scaled) up to ``size`` elements."""
    rng = np.random.default_rng(size)
    random = (rng.standard_normal(size) * scale).astype(np.float32)
    return np.concatenate([EDGES, random])


# kernel -> (PyTorch reference of (inputs..., params...), parameters, input transform)
# backward kernels take (grad, x); a "result" input is the forward's result, made from x
UNARY = {
    "sigmoid": (torch.sigmoid, ()),
    "silu": (torch.nn.functional.silu, ()),
    "gelu": (torch.nn.functional.gelu, ()),
    "gelu_tanh": (lambda x: torch.nn.functional.gelu(x, approximate="tanh"), ()),
    "softplus": (lambda x, b, t: torch.nn.functional.softplus(x, b, t), (1.0, 20.0)),
    "elu": (lambda x, a, s, i: aten.elu(x, a, s, i), (1.0, 1.0, 1.0)),
    "leaky_relu": (lambda x, s: torch.nn.functional.leaky_relu(x, s), (0.1,)),
    "relu": (torch.relu, ()),
    "tanh": (torch.tanh, ()),
    "exp": (torch.exp, ()),
    "log": (torch.log, ()),
    "sqrt": (torch.sqrt, ()),
    "rsqrt": (torch.rsqrt, ()),
    "abs": (torch.abs, ()),
    "square": (torch.square, ()),
    "sign": (torch.sign, ()),
    "clamp": (lambda x, lo, hi: torch.clamp(x, lo, hi), (-0.5, 0.5)),
}
OTHER_PARAMS = {
    "softplus": [(2.0, 20.0), (0.5, 3.0), (1.0, 0.0)],
    "elu": [(1.3, 1.05, 0.7), (0.5, 2.0, 1.0)],
    "leaky_relu": [(0.01,), (1.5,), (-0.2,)],
    "clamp": [(-np.inf, 0.0), (0.0, np.inf), (1.0, -1.0)],
}
BACKWARD = {
    "sigmoid_backward": (aten.sigmoid_backward, (), torch.sigmoid),
    "silu_backward": (aten.silu_backward, (), None),
    "gelu_backward": (aten.gelu_backward, (), None),
    "gelu_tanh_backward": (lambda g, x: aten.gelu_backward(g, x, approximate="tanh"), (), None),
    "softplus_backward": (aten.softplus_backward, (1.0, 20.0), None),
    "elu_backward": (lambda g, x, a, s, i: aten.elu_backward(g, a, s, i, False, x),
                     (1.0, 1.0, 1.0), None),
    "elu_backward_result": (lambda g, y, a, s, i: aten.elu_backward(g, a, s, i, True, y),
                            (1.0, 1.0, 1.0), lambda x: aten.elu(x, 1.0, 1.0, 1.0)),
    "leaky_relu_backward": (lambda g, x, s: aten.leaky_relu_backward(g, x, s, False), (0.1,),
                            None),
    "threshold_backward": (aten.threshold_backward, (0.0,), None),
    "tanh_backward": (aten.tanh_backward, (), torch.tanh),
}
BACKWARD_OTHER_PARAMS = {
    "softplus_backward": [(2.0, 20.0), (0.5, 3.0)],
    "elu_backward": [(1.3, 1.05, 0.7)],
    "elu_backward_result": [(1.3, 1.05, 0.7)],
    "leaky_relu_backward": [(1.5,), (-0.2,)],
    "threshold_backward": [(0.5,), (-1.0,)],
}


def _domain(name: str, values: np.ndarray) -> np.ndarray:
    """Positive inputs for log/sqrt/rsqrt's random part as well (the edges keep their
    negatives: NaN there is part of what is compared)."""
    if name in ("log", "sqrt", "rsqrt"):
        head = values[:EDGES.size]
        return np.concatenate([head, np.abs(values[EDGES.size:]) + np.float32(1e-3)])
    return values


def _run(name: str, arrays: list[np.ndarray], params: tuple, threads: int) -> np.ndarray:
    out = np.empty_like(arrays[0])
    getattr(module, name)(*arrays, out, *params, threads)
    return out


def _compare(actual: np.ndarray, expected: torch.Tensor) -> None:
    torch.testing.assert_close(torch.from_numpy(actual), expected, rtol=RTOL, atol=ATOL,
                               equal_nan=True)
    zeros = (expected.numpy() == 0) & (actual == 0)
    # signed zeros as PyTorch's (-0.0 in, -0.0 out for relu, gelu, silu ...)
    np.testing.assert_array_equal(np.signbit(actual[zeros]), np.signbit(expected.numpy()[zeros]))


@pytest.mark.parametrize("name", sorted(UNARY))
def test_unary_kernel_matches_torch(name: str) -> None:
    reference, params = UNARY[name]
    x = _domain(name, _values())
    if name == "gelu":
        # PyTorch's x * 0.5 * (1 + erf(x / sqrt 2)) overflows in between: gelu(3e38) = inf,
        # gelu(inf) = nan; volta's (and the numpy path's) x Phi(x) gives x itself there
        x = x[~(x > 1e38)]
    for p in [params, *OTHER_PARAMS.get(name, [])]:
        expected = reference(torch.from_numpy(x), *p)
        _compare(_run(name, [x], p, 1), expected)


@pytest.mark.parametrize("name", sorted(BACKWARD))
def test_backward_kernel_matches_torch(name: str) -> None:
    reference, params, make_result = BACKWARD[name]
    x = _values()
    grad = np.random.default_rng(1).standard_normal(x.size).astype(np.float32)
    grad[:EDGES.size] = 1.0
    grad[3] = np.nan  # one NaN gradient
    for p in [params, *BACKWARD_OTHER_PARAMS.get(name, [])]:
        second = x
        if make_result is not None:
            result_params = p if name == "elu_backward_result" else ()
            second = (aten.elu(torch.from_numpy(x), *result_params) if result_params
                      else make_result(torch.from_numpy(x))).numpy()
        expected = reference(torch.from_numpy(grad), torch.from_numpy(second), *p)
        _compare(_run(name, [grad, second], p, 1), expected)


@pytest.mark.parametrize("size", [0, 1, 15, 17, 100003])
@pytest.mark.parametrize("name", ["sigmoid", "gelu", "softplus", "relu", "clamp",
                                  "gelu_backward", "elu_backward", "threshold_backward"])
def test_threads_give_equal_results_at_odd_sizes(name: str, size: int) -> None:
    x = (np.random.default_rng(size).standard_normal(size) * 3).astype(np.float32)
    if name in UNARY:
        reference, params = UNARY[name]
        arrays = [x]
    else:
        reference, params, _ = BACKWARD[name]
        arrays = [np.random.default_rng(7).standard_normal(size).astype(np.float32), x]
    results = [_run(name, arrays, params, threads) for threads in (1, 2, 3)]
    for other in results[1:]:
        np.testing.assert_array_equal(other, results[0])
    _compare(results[0], reference(*(torch.from_numpy(a) for a in arrays), *params))


def test_bad_arguments_raise() -> None:
    x = np.zeros(4, np.float32)
    with pytest.raises(ValueError, match="one size"):
        module.sigmoid(x, np.zeros(5, np.float32), 1)
    with pytest.raises(TypeError, match="float32"):
        module.relu(x, np.zeros(4, np.float64), 1)
    with pytest.raises(TypeError, match="takes 4 arguments"):
        module.leaky_relu(x, x, 1)
    with pytest.raises(TypeError):
        module.leaky_relu(x, np.zeros(4, np.float32), "slope", 1)


# op -> function of (library, tensor); the same code runs on volta and torch
OPS: dict[str, Callable[[Any, Any], Any]] = {
    "sigmoid": lambda lib, x: x.sigmoid(),
    "silu": lambda lib, x: lib.nn.functional.silu(x),
    "gelu": lambda lib, x: lib.nn.functional.gelu(x),
    "gelu tanh": lambda lib, x: lib.nn.functional.gelu(x, approximate="tanh"),
    "softplus": lambda lib, x: lib.nn.functional.softplus(x),
    "softplus beta": lambda lib, x: lib.nn.functional.softplus(x, beta=2.0, threshold=3.0),
    "elu": lambda lib, x: lib.nn.functional.elu(x),
    "elu alpha": lambda lib, x: lib.nn.functional.elu(x, alpha=0.7),
    "selu": lambda lib, x: lib.nn.functional.selu(x),
    "celu": lambda lib, x: lib.nn.functional.celu(x, alpha=1.5),
    "leaky_relu": lambda lib, x: lib.nn.functional.leaky_relu(x, 0.1),
    "relu": lambda lib, x: lib.nn.functional.relu(x),
    "tanh": lambda lib, x: x.tanh(),
    "exp": lambda lib, x: x.exp(),
    "log": lambda lib, x: x.abs().log(),
    "sqrt": lambda lib, x: x.abs().sqrt(),
    "rsqrt": lambda lib, x: (x.abs() + 0.5).rsqrt(),
    "abs": lambda lib, x: x.abs(),
    "sign": lambda lib, x: x.sign(),
    "clamp": lambda lib, x: x.clamp(-0.5, 0.5),
    "clamp min": lambda lib, x: x.clamp(min=0),
    "pow 2": lambda lib, x: x ** 2,
    "pow 1": lambda lib, x: x ** 1,
}


def _check_op(name: str, data: np.ndarray, threads: int = 1) -> None:
    op = OPS[name]
    grad = np.random.default_rng(3).standard_normal(data.shape).astype(data.dtype)
    expected_x = torch.from_numpy(data.copy()).requires_grad_()
    expected = op(torch, expected_x)
    expected.backward(torch.from_numpy(grad))
    previous = volta.get_num_threads()
    volta.set_num_threads(threads)
    try:
        x = volta.tensor(data).requires_grad_()
        result = op(volta, x)
        result.backward(volta.tensor(grad))
    finally:
        volta.set_num_threads(previous)
    assert result.dtype == (volta.float32 if data.dtype == np.float32 else volta.float64)
    torch.testing.assert_close(torch.from_numpy(result.detach().numpy()), expected.detach(),
                               rtol=RTOL, atol=ATOL, equal_nan=True)
    torch.testing.assert_close(torch.from_numpy(x.grad.numpy()), expected_x.grad, rtol=RTOL,
                               atol=ATOL, equal_nan=True)


@pytest.mark.parametrize("name", sorted(OPS))
def test_op_forward_backward_matches_torch(name: str) -> None:
    data = np.random.default_rng(5).standard_normal((64, 130)).astype(np.float32) * 3
    data.reshape(-1)[:8] = [0.0, -0.0, 1e-40, -1e-40, 30.0, -30.0, 1e-30, -1e-30]
    _check_op(name, data)
    _check_op(name, data, threads=2)


@pytest.mark.parametrize("name", ["gelu", "softplus", "clamp", "pow 2", "relu", "elu"])
def test_op_strided_float64_and_edges(name: str) -> None:
    data = np.random.default_rng(6).standard_normal((40, 50)).astype(np.float32)
    _check_op(name, np.ascontiguousarray(data.T)[:, ::2].T.copy())  # odd shape
    _check_op(name, data.astype(np.float64))  # the float64 kernels
    # a non-contiguous float32 input: the numpy path, same results
    x = volta.tensor(data).t()
    torch.testing.assert_close(torch.from_numpy(OPS[name](volta, x).numpy()),
                               OPS[name](torch, torch.from_numpy(data).t()), rtol=RTOL,
                               atol=ATOL)
    edges = EDGES[np.abs(EDGES) < 1e38]  # see test_unary_kernel_matches_torch (gelu)
    torch.testing.assert_close(torch.from_numpy(OPS[name](volta, volta.tensor(edges)).numpy()),
                               OPS[name](torch, torch.from_numpy(edges)), rtol=RTOL, atol=ATOL,
                               equal_nan=True)


def test_routed_ops_keep_their_errors() -> None:
    x = volta.randn(3)
    with pytest.raises(volta.VoltaError):
        volta.nn.functional.gelu(x, approximate="cubic")
    with pytest.raises(volta.VoltaError):
        x.clamp()
    with pytest.raises(volta.VoltaError):
        x.clamp(min=1e300)


@pytest.mark.parametrize("shape", [(), (0,), (0, 3), (1,), (3, 5)])
def test_ops_on_zero_dim_and_empty_tensors(shape: tuple[int, ...]) -> None:
    data = np.random.default_rng(8).standard_normal(shape).astype(np.float32)
    for name, op in OPS.items():
        got = op(volta, volta.tensor(data))
        want = op(torch, torch.from_numpy(data.copy()))
        assert tuple(got.shape) == tuple(want.shape), name
        torch.testing.assert_close(torch.from_numpy(np.asarray(got.numpy())), want, rtol=RTOL,
                                   atol=ATOL, equal_nan=True, msg=name)
