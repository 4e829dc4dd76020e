"""The compiled float64 pointwise kernels (``name_f64`` in volta/backends/cpu/native/pointwise.c)
against PyTorch float64: each kernel on special values (infinities, NaN, signed zeros, huge,
tiny, subnormal, exp's overflow edges, softplus's threshold) and random data on 1 and 2 threads,
then the volta ops that route to them, forward and backward (volta.set_num_threads 1 and 2),
and that the route is taken. Under VOLTA_NATIVE=0 the op tests run the numpy path.

Tolerances: rtol 1e-12. The kernels call C99 libm in double (glibc's vector variants, within 4
ulp), so random values agree to a few ulp; atol 1e-14 covers results near zero that PyTorch (or
we) compute by cancellation: PyTorch's gelu is x (1 + erf(x / sqrt 2)) / 2, whose 1 + erf loses
all relative accuracy for x below about -5 (absolute error about |x| 1e-16, up to 5e-15 at
x = -8), where volta's x erfc(-x / sqrt 2) / 2 keeps it; the tanh form's 1 + tanh(z) likewise;
silu's and gelu's slopes cross zero."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
import pytest
import torch

import volta
from volta.backends.cpu import native_pointwise
from volta.backends.cpu.native import _pointwise as module  # also under VOLTA_NATIVE=0

aten = torch.ops.aten
RTOL, ATOL = 1e-12, 1e-14

EDGES = np.array([0.0, -0.0, np.inf, -np.inf, np.nan, 1.0, -1.0, 0.5, -0.5, 1.7e308, -1.7e308,
                  1e300, -1e300, 1e200, -1e200, 1e103, -1e103, 1e-300, -1e-300, 1e-310, -1e-310,
                  5e-324, -5e-324, 709.0, 710.0, -709.0, -710.0, -745.0, -746.0, 20.0, 20.5,
                  -20.0, 5.5, -5.5, 8.0, -8.0, 10.0, -10.0, 30.0, -30.0, 37.0, -37.0, 40.0,
                  -40.0, 1e-8, -1e-8, 1e-20, -1e-20, 3.0, -3.0, 1.2784645, -1.2784645])


def _values(size: int = 2053, scale: float = 4.0) -> np.ndarray:
    """The special values, then random normal values (scaled) up to ``size`` elements."""
    random = np.random.default_rng(size).standard_normal(size) * scale
    return np.concatenate([EDGES, random])


def _domain(name: str, values: np.ndarray) -> np.ndarray:
    """Positive random inputs for log/sqrt/rsqrt (the edges keep their negatives: NaN)."""
    if name in ("log", "sqrt", "rsqrt"):
        return np.concatenate([EDGES, np.abs(values[EDGES.size:]) + 1e-3])
    return values


# kernel -> (PyTorch reference of (x, params...), parameter sets)
UNARY: dict[str, tuple[Callable[..., torch.Tensor], list[tuple]]] = {
    "sigmoid": (torch.sigmoid, [()]),
    "silu": (torch.nn.functional.silu, [()]),
    "gelu": (torch.nn.functional.gelu, [()]),
    "gelu_tanh": (lambda x: torch.nn.functional.gelu(x, approximate="tanh"), [()]),
    "softplus": (lambda x, b, t: torch.nn.functional.softplus(x, b, t),
                 [(1.0, 20.0), (2.0, 20.0), (0.5, 3.0), (1.0, 0.0), (1.0, 1000.0)]),
    "elu": (lambda x, a, s, i: aten.elu(x, a, s, i),
            [(1.0, 1.0, 1.0), (1.3, 1.05, 0.7), (0.5, 2.0, 1.0)]),
    "leaky_relu": (lambda x, s: torch.nn.functional.leaky_relu(x, s), [(0.1,), (1.5,), (-0.2,)]),
    "relu": (torch.relu, [()]),
    "tanh": (torch.tanh, [()]),
    "exp": (torch.exp, [()]),
    "log": (torch.log, [()]),
    "sqrt": (torch.sqrt, [()]),
    "rsqrt": (torch.rsqrt, [()]),
    "abs": (torch.abs, [()]),
    "square": (torch.square, [()]),
    "sign": (torch.sign, [()]),
    "clamp": (lambda x, lo, hi: torch.clamp(x, lo, hi),
              [(-0.5, 0.5), (-np.inf, 0.0), (0.0, np.inf), (1.0, -1.0), (-1e300, 1e300)]),
}
# kernel -> (PyTorch reference of (grad, x or result, params...), parameter sets, what makes
# the second input from x: None for x itself)
BACKWARD: dict[str, tuple[Callable[..., torch.Tensor], list[tuple], Any]] = {
    "sigmoid_backward": (aten.sigmoid_backward, [()], torch.sigmoid),
    "silu_backward": (aten.silu_backward, [()], None),
    "gelu_backward": (aten.gelu_backward, [()], None),
    "gelu_tanh_backward": (lambda g, x: aten.gelu_backward(g, x, approximate="tanh"), [()],
                           None),
    "softplus_backward": (aten.softplus_backward,
                          [(1.0, 20.0), (2.0, 20.0), (0.5, 3.0), (1.0, 1000.0)], None),
    "elu_backward": (lambda g, x, a, s, i: aten.elu_backward(g, a, s, i, False, x),
                     [(1.0, 1.0, 1.0), (1.3, 1.05, 0.7)], None),
    "elu_backward_result": (lambda g, y, a, s, i: aten.elu_backward(g, a, s, i, True, y),
                            [(1.0, 1.0, 1.0), (1.3, 1.05, 0.7)], "elu"),
    "leaky_relu_backward": (lambda g, x, s: aten.leaky_relu_backward(g, x, s, False),
                            [(0.1,), (1.5,), (-0.2,)], None),
    "threshold_backward": (aten.threshold_backward, [(0.0,), (0.5,), (-1.0,)], None),
    "tanh_backward": (aten.tanh_backward, [()], torch.tanh),
}


def _run(name: str, arrays: list[np.ndarray], params: tuple, threads: int) -> np.ndarray:
    out = np.empty(arrays[-1].shape, np.float64)
    getattr(module, name + "_f64")(*arrays, out, *params, threads)
    return out


def _compare(actual: np.ndarray, expected: torch.Tensor, atol: float = ATOL) -> None:
    assert actual.dtype == np.float64
    torch.testing.assert_close(torch.from_numpy(actual), expected, rtol=RTOL, atol=atol,
                               equal_nan=True)
    want = expected.numpy()
    # NaN, infinities and signed zeros exactly as PyTorch's
    np.testing.assert_array_equal(np.isnan(actual), np.isnan(want))
    np.testing.assert_array_equal(np.isinf(actual), np.isinf(want))
    zeros = (want == 0) & (actual == 0)
    np.testing.assert_array_equal(np.signbit(actual[zeros]), np.signbit(want[zeros]))


@pytest.mark.parametrize("threads", [1, 2])
@pytest.mark.parametrize("name", sorted(UNARY))
def test_unary_kernel_matches_torch(name: str, threads: int) -> None:
    reference, param_sets = UNARY[name]
    x = _domain(name, _values())
    for params in param_sets:
        _compare(_run(name, [x], params, threads), reference(torch.from_numpy(x), *params))


@pytest.mark.parametrize("threads", [1, 2])
@pytest.mark.parametrize("name", sorted(BACKWARD))
def test_backward_kernel_matches_torch(name: str, threads: int) -> None:
    reference, param_sets, make_second = BACKWARD[name]
    x = _values()
    grad = np.random.default_rng(1).standard_normal(x.size)
    grad[:EDGES.size] = 1.0
    grad[3] = np.nan  # one NaN gradient
    for params in param_sets:
        second = x
        if make_second == "elu":
            second = aten.elu(torch.from_numpy(x), *params).numpy()
        elif make_second is not None:
            second = make_second(torch.from_numpy(x)).numpy()
        expected = reference(torch.from_numpy(grad), torch.from_numpy(second), *params)
        _compare(_run(name, [grad, second], params, threads), expected)
        # one gradient for every element (the gradient of a sum)
        expected = reference(torch.full_like(expected, 0.75), torch.from_numpy(second), *params)
        _compare(_run(name, [np.array([0.75]), second], params, threads), expected)


@pytest.mark.parametrize("size", [0, 1, 17, 100003])
@pytest.mark.parametrize("name", ["gelu", "silu", "softplus", "clamp", "gelu_backward",
                                  "threshold_backward"])
def test_threads_give_equal_results_at_odd_sizes(name: str, size: int) -> None:
    x = np.random.default_rng(size).standard_normal(size) * 3
    if name in UNARY:
        reference, param_sets = UNARY[name]
        arrays = [x]
    else:
        reference, param_sets, _ = BACKWARD[name]
        arrays = [np.random.default_rng(7).standard_normal(size), x]
    results = [_run(name, arrays, param_sets[0], threads) for threads in (1, 2, 3)]
    for other in results[1:]:
        np.testing.assert_array_equal(other, results[0])
    _compare(results[0], reference(*(torch.from_numpy(a) for a in arrays), *param_sets[0]))


def test_bad_arguments_raise() -> None:
    x = np.zeros(4)
    with pytest.raises(ValueError, match="float64 arrays of one size"):
        module.sigmoid_f64(x, np.zeros(5), 1)
    with pytest.raises(ValueError, match="float64"):
        module.sigmoid_f64(np.zeros(4, np.float32), np.zeros(4, np.float32), 1)
    with pytest.raises(ValueError, match="float32"):
        module.sigmoid(x, np.zeros(4), 1)
    with pytest.raises(ValueError, match="one size"):
        module.sigmoid_backward_f64(np.zeros(2), x, np.zeros(4), 1)


# op -> (function of (library, tensor), the kernels it routes to in float64 on 2 threads)
OPS: dict[str, tuple[Callable[[Any, Any], Any], set[str]]] = {
    "sigmoid": (lambda lib, x: x.sigmoid(), {"sigmoid_f64", "sigmoid_backward_f64"}),
    "silu": (lambda lib, x: lib.nn.functional.silu(x), {"silu_f64", "silu_backward_f64"}),
    "gelu": (lambda lib, x: lib.nn.functional.gelu(x), {"gelu_f64", "gelu_backward_f64"}),
    "gelu tanh": (lambda lib, x: lib.nn.functional.gelu(x, approximate="tanh"),
                  {"gelu_tanh_f64", "gelu_tanh_backward_f64"}),
    "softplus": (lambda lib, x: lib.nn.functional.softplus(x),
                 {"softplus_f64", "softplus_backward_f64"}),
    "softplus beta": (lambda lib, x: lib.nn.functional.softplus(x, beta=2.0, threshold=3.0),
                      {"softplus_f64", "softplus_backward_f64"}),
    "elu": (lambda lib, x: lib.nn.functional.elu(x), {"elu_f64", "elu_backward_f64"}),
    "elu alpha": (lambda lib, x: lib.nn.functional.elu(x, alpha=0.7),
                  {"elu_f64", "elu_backward_f64"}),
    "leaky_relu": (lambda lib, x: lib.nn.functional.leaky_relu(x, 0.1),
                   {"leaky_relu_f64", "leaky_relu_backward_f64"}),
    "relu": (lambda lib, x: lib.nn.functional.relu(x), {"relu_f64", "threshold_backward_f64"}),
    "tanh": (lambda lib, x: x.tanh(), {"tanh_f64", "tanh_backward_f64"}),
    "exp": (lambda lib, x: x.exp(), {"exp_f64"}),
    "log": (lambda lib, x: (x.abs() + 0.25).log(), {"log_f64"}),
    "sqrt": (lambda lib, x: (x.abs() + 0.25).sqrt(), {"sqrt_f64"}),
    "rsqrt": (lambda lib, x: (x.abs() + 0.5).rsqrt(), {"rsqrt_f64"}),
    "abs": (lambda lib, x: x.abs(), {"abs_f64"}),
    "sign": (lambda lib, x: x.sign(), {"sign_f64"}),
    "square": (lambda lib, x: x.square(), {"square_f64"}),
    "clamp": (lambda lib, x: x.clamp(-0.5, 0.5), {"clamp_f64"}),
    "clamp wide": (lambda lib, x: x.clamp(-1e300, 1e300), {"clamp_f64"}),
    "pow 2": (lambda lib, x: x ** 2, {"square_f64"}),
}


def _data(shape: tuple[int, ...] = (48, 70)) -> np.ndarray:
    data = np.random.default_rng(5).standard_normal(shape) * 3
    data.reshape(-1)[:10] = [0.0, -0.0, 1e-300, -1e-300, 30.0, -30.0, 1e-8, -1e-8, 20.0, -9.0]
    return data


def _check_op(name: str, data: np.ndarray, threads: int, sum_gradient: bool) -> None:
    op = OPS[name][0]
    grad = np.random.default_rng(3).standard_normal(data.shape)
    expected_x = torch.from_numpy(data.copy()).requires_grad_()
    expected = op(torch, expected_x)
    previous = volta.get_num_threads()
    volta.set_num_threads(threads)
    try:
        x = volta.tensor(data).requires_grad_()
        result = op(volta, x)
        if sum_gradient:  # a broadcast gradient: one number for every element
            result.sum().backward()
            expected.sum().backward()
        else:
            result.backward(volta.tensor(grad))
            expected.backward(torch.from_numpy(grad))
    finally:
        volta.set_num_threads(previous)
    assert result.dtype == volta.float64 and x.grad.dtype == volta.float64
    torch.testing.assert_close(torch.from_numpy(result.detach().numpy()), expected.detach(),
                               rtol=RTOL, atol=ATOL, equal_nan=True)
    torch.testing.assert_close(torch.from_numpy(x.grad.numpy()), expected_x.grad, rtol=RTOL,
                               atol=ATOL, equal_nan=True)


@pytest.mark.parametrize("sum_gradient", [False, True])
@pytest.mark.parametrize("threads", [1, 2])
@pytest.mark.parametrize("name", sorted(OPS))
def test_op_forward_backward_matches_torch(name: str, threads: int, sum_gradient: bool) -> None:
    _check_op(name, _data(), threads, sum_gradient)


@pytest.mark.parametrize("name", ["gelu", "gelu tanh", "silu", "sigmoid", "softplus", "elu",
                                  "relu", "leaky_relu", "clamp", "sign", "abs", "pow 2"])
def test_op_special_values_match_torch(name: str) -> None:
    op = OPS[name][0]
    # without +-1.7e308, where the numpy path's gelu (VOLTA_NATIVE=0) overflows x (1 + erf) to
    # inf: the kernel tests above compare the compiled path there
    edges = EDGES[~(np.abs(EDGES) > 1e308)]
    got = op(volta, volta.tensor(edges)).numpy()
    _compare(np.asarray(got), op(torch, torch.from_numpy(edges)))


@pytest.mark.parametrize("name", ["gelu", "softplus", "clamp", "relu"])
def test_op_strided_and_mixed_inputs_take_the_numpy_path(name: str) -> None:
    op = OPS[name][0]
    data = _data((40, 50))
    got = op(volta, volta.tensor(data).t())  # not C-contiguous
    torch.testing.assert_close(torch.from_numpy(got.numpy()), op(torch, torch.from_numpy(data).t()),
                               rtol=RTOL, atol=ATOL)


def test_routed_ops_keep_their_errors() -> None:
    x = volta.randn(3, dtype=volta.float64)
    with pytest.raises(volta.VoltaError):
        volta.nn.functional.gelu(x, approximate="cubic")
    with pytest.raises(volta.VoltaError):
        x.clamp()


def _kernels_called(name: str, threads: int, monkeypatch: pytest.MonkeyPatch) -> list[str] | None:
    """Runs ``_check_op`` with the compiled module's attribute reads counted; None where there
    is no compiled module (VOLTA_NATIVE=0: the numpy path, whose results are checked the same)."""
    real = native_pointwise._module
    called: list[str] = []

    class Counting:
        def __getattr__(self, attribute: str) -> Any:
            called.append(attribute)
            return getattr(real, attribute)

    if real is not None:
        monkeypatch.setattr(native_pointwise, "_module", Counting())
    _check_op(name, _data(), threads, sum_gradient=False)
    return None if real is None else called


@pytest.mark.parametrize("name", sorted(OPS))
def test_route_is_taken(name: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """Every op's float64 forward and backward call their ``_f64`` kernels on 2 threads."""
    called = _kernels_called(name, 2, monkeypatch)
    if called is not None:
        assert OPS[name][1] <= set(called), called


@pytest.mark.parametrize("name", ["tanh", "exp", "log"])
def test_one_thread_keeps_numpy_for_its_own_fast_loops(name: str,
                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    """numpy's float64 tanh, exp and log loops beat the compiled ones on one thread."""
    called = _kernels_called(name, 1, monkeypatch)
    if called is not None:
        assert f"{name}_f64" not in called, called
