"""The compiled float64 row kernels (volta/backends/cpu/native/rowwise.c, rowwise_typed.h) against
PyTorch's float64, through the ops that use them: softmax, log_softmax, logsumexp, layer norm
and cross_entropy (its log_softmax), sum/mean/amax/amin over the last dim and the full sum,
forward and backward, on 1 and 2 threads. Tolerances are float64's (rtol 1e-12): the kernels sum
in double and take exp and log from glibc (within a few ulp of PyTorch's), so the only
differences are the order of additions and an ulp or two of exp. Special values: rows of -inf,
NaN, inf and huge values, empty rows and zero rows. The route test checks the kernels are really
called (where built); with VOLTA_NATIVE=0 the same tests check the numpy path."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterator

import numpy as np
import pytest
import torch

import volta
import volta.nn.functional as VF
from volta.backends.cpu import native

WIDTHS = [1, 17, 1000, 4097]
# relative 1e-12; absolute 1e-13 only where a gradient is a difference of terms of about 1 that
# nearly cancel (softmax's g - sum(g * p)): there an ulp of exp is an absolute, not relative, error
TIGHT = {"rtol": 1e-12, "atol": 1e-14}
GRAD = {"rtol": 1e-12, "atol": 1e-13}


@pytest.fixture(params=[1, 2], ids=["1thread", "2threads"], autouse=True)
def threads(request: pytest.FixtureRequest) -> Iterator[int]:
    before = volta.get_num_threads()
    volta.set_num_threads(request.param)
    try:
        yield request.param
    finally:
        volta.set_num_threads(before)


def _data(shape: tuple[int, ...], seed: int = 0, scale: float = 1.0) -> np.ndarray:
    return np.random.default_rng(seed).standard_normal(shape) * scale


def _close(got: volta.Tensor, expected: torch.Tensor, **tolerance: float) -> None:
    assert tuple(got.shape) == tuple(expected.shape)
    assert got.dtype == volta.float64
    torch.testing.assert_close(torch.from_numpy(np.array(got.detach().numpy())),
                               expected.detach(), equal_nan=True, **(tolerance or TIGHT))


def _forward_backward(fn_volta: Callable, fn_torch: Callable, arrays: list[np.ndarray],
                      grads: tuple[int, ...], upstream: str = "random") -> None:
    """Both functions on the same inputs; outputs and the gradients of ``grads`` agree. The
    upstream gradient is random, or ones broadcast from a sum (``y.sum().backward()``)."""
    t_in = [torch.tensor(a, requires_grad=i in grads) for i, a in enumerate(arrays)]
    v_in = [volta.tensor(a, requires_grad=i in grads) for i, a in enumerate(arrays)]
    ty, vy = fn_torch(*t_in), fn_volta(*v_in)
    _close(vy, ty)
    if upstream == "sum":
        ty.sum().backward()
        vy.sum().backward()
    else:
        g = _data(tuple(ty.shape), seed=7)
        ty.backward(torch.tensor(g))
        vy.backward(volta.tensor(g))
    for i in grads:
        _close(v_in[i].grad, t_in[i].grad, **GRAD)


@pytest.mark.parametrize("upstream", ["random", "sum"])
@pytest.mark.parametrize("width", WIDTHS)
@pytest.mark.parametrize("op", ["softmax", "log_softmax"])
def test_softmax_forward_backward(op: str, width: int, upstream: str) -> None:
    _forward_backward(lambda x: getattr(x, op)(-1), lambda x: getattr(x, op)(-1),
                      [_data((37, width), scale=3)], (0,), upstream)


@pytest.mark.parametrize("width", WIDTHS)
def test_logsumexp_forward_backward(width: int) -> None:
    _forward_backward(lambda x: x.logsumexp(1), lambda x: x.logsumexp(1),
                      [_data((37, width), scale=3) + 500], (0,))


@pytest.mark.parametrize("affine", ["both", "weight", "bias", "none"])
@pytest.mark.parametrize("width", WIDTHS)
def test_layer_norm_forward_backward(width: int, affine: str) -> None:
    # 37 rows: two full slabs of 16 and a partial one (Note [layer norm parameter gradients...])
    arrays = [_data((37, width), scale=2) + 3, _data((width,), 1), _data((width,), 2)]
    weighted, biased = affine in ("both", "weight"), affine in ("both", "bias")

    def run(lib: type, functional: type) -> Callable:
        return lambda x, w, b: functional.layer_norm(x, (width,), w if weighted else None,
                                                     b if biased else None, 1e-5)
    grads = (0,) + ((1,) if weighted else ()) + ((2,) if biased else ())
    _forward_backward(run(volta, VF), run(torch, torch.nn.functional), arrays, grads)


def test_layer_norm_backward_of_a_sum() -> None:
    arrays = [_data((20, 300)), _data((300,), 1), _data((300,), 2)]
    _forward_backward(lambda x, w, b: VF.layer_norm(x, (300,), w, b),
                      lambda x, w, b: torch.nn.functional.layer_norm(x, (300,), w, b),
                      arrays, (0, 1, 2), upstream="sum")


def test_cross_entropy_forward_backward() -> None:
    x, target = _data((33, 10), scale=4), np.random.default_rng(3).integers(0, 10, 33)
    tx, vx = torch.tensor(x, requires_grad=True), volta.tensor(x, requires_grad=True)
    ty = torch.nn.functional.cross_entropy(tx, torch.tensor(target))
    vy = VF.cross_entropy(vx, volta.tensor(target))
    _close(vy, ty)
    ty.backward()
    vy.backward()
    _close(vx.grad, tx.grad, **GRAD)


def _special_rows(width: int = 19) -> np.ndarray:
    x = _data((9, width), scale=2)
    x[0] = -np.inf  # all -inf: softmax nan, logsumexp -inf
    x[1, 3] = np.nan
    x[2, 5] = np.inf
    x[3, :4] = -np.inf  # some -inf: exact zeros (-inf for log_softmax)
    x[4] = 1e308  # sums overflow unless shifted
    x[5] = -1e300
    x[6, 0], x[6, 1] = np.inf, -np.inf
    x[7] = np.nan
    x[8] = np.linspace(0, -750, width)  # exp underflows through the subnormals to 0
    return x


@pytest.mark.parametrize("op", ["softmax", "log_softmax", "logsumexp"])
def test_rows_of_inf_nan_and_huge_values(op: str) -> None:
    x = _special_rows()
    if op == "logsumexp":
        _close(volta.tensor(x).logsumexp(1), torch.tensor(x).logsumexp(1))
    else:
        _close(getattr(volta.tensor(x), op)(1), getattr(torch.tensor(x), op)(1))


@pytest.mark.parametrize("op", ["softmax", "log_softmax", "logsumexp"])
def test_backward_through_rows_of_inf_and_nan(op: str) -> None:
    x = _special_rows()
    x[4] = _data((19,), 5)  # huge rows' gradients are nan in both but of no interest here
    fn = (lambda t: t.logsumexp(1)) if op == "logsumexp" else (lambda t: getattr(t, op)(1))
    _forward_backward(fn, fn, [x], (0,))


def test_layer_norm_of_rows_with_nan_inf_and_constants() -> None:
    x = _data((5, 33))
    x[0, 2] = np.nan
    x[1, 7] = np.inf
    x[2] = 4.0  # constant row: centred exactly 0
    x[3, :] = -np.inf
    arrays = [x, _data((33,), 1), _data((33,), 2)]
    _forward_backward(lambda x, w, b: VF.layer_norm(x, (33,), w, b),
                      lambda x, w, b: torch.nn.functional.layer_norm(x, (33,), w, b),
                      arrays, (0, 1, 2))


@pytest.mark.parametrize("op", ["softmax", "log_softmax", "logsumexp", "layer_norm", "sum"])
@pytest.mark.parametrize("shape", [(0, 5), (4, 0)], ids=["zero_rows", "empty_rows"])
def test_zero_rows_and_empty_rows(op: str, shape: tuple[int, int]) -> None:
    fns = {"softmax": lambda t: t.softmax(1), "log_softmax": lambda t: t.log_softmax(1),
           "logsumexp": lambda t: t.logsumexp(1), "sum": lambda t: t.sum(1)}
    x = np.zeros(shape)
    if op == "layer_norm":
        _close(VF.layer_norm(volta.tensor(x), (shape[1],)),
               torch.nn.functional.layer_norm(torch.tensor(x), (shape[1],)))
    else:
        _close(fns[op](volta.tensor(x)), fns[op](torch.tensor(x)))


@pytest.mark.parametrize("width", WIDTHS)
@pytest.mark.parametrize("op", ["sum", "mean", "amax", "amin"])
def test_last_dim_reductions_forward_backward(op: str, width: int) -> None:
    fn = lambda t: getattr(t, op)(-1)  # noqa: E731
    _forward_backward(fn, fn, [_data((37, width), scale=3)], (0,))


@pytest.mark.parametrize("op", ["sum", "mean", "amax", "amin"])
def test_last_dim_reductions_of_rows_with_nan_and_inf(op: str) -> None:
    x = _special_rows()
    _close(getattr(volta.tensor(x), op)(-1), getattr(torch.tensor(x), op)(-1))


@pytest.mark.parametrize("size", [0, 1, 5000, 70000])
def test_full_sum_and_mean(size: int) -> None:
    x = _data((size,), scale=3) + 1
    _close(volta.tensor(x).sum(), torch.tensor(x).sum())
    if size:
        _close(volta.tensor(x).mean(), torch.tensor(x).mean())


def test_results_do_not_depend_on_the_thread_count(threads: int) -> None:
    x = _data((300, 1000), scale=3)

    def results() -> list[np.ndarray]:
        t = volta.tensor(x)
        return [np.array(y.numpy()) for y in (t.softmax(1), t.log_softmax(1), t.logsumexp(1),
                                              VF.layer_norm(t, (1000,)), t.sum(1))]
    one = results()
    volta.set_num_threads(1)
    single = results()
    for a, b in zip(one, single):
        np.testing.assert_array_equal(a, b)


@pytest.mark.skipif(not native.ENABLED, reason="VOLTA_NATIVE=0 runs the numpy path")
def test_float64_takes_the_compiled_route(monkeypatch: pytest.MonkeyPatch) -> None:
    kernels = native.kernels("rowwise")
    assert kernels is not None
    calls: Counter[str] = Counter()
    for name in ("softmax", "softmax_backward", "logsumexp", "layer_norm",
                 "layer_norm_backward", "row_sums", "row_extrema", "total"):
        def counting(*args: object, _name: str = name, _fn: Callable = getattr(kernels, name)):
            calls[_name] += 1
            return _fn(*args)
        monkeypatch.setattr(kernels, name, counting)
    x = volta.tensor(_data((64, 100)), requires_grad=True)  # sums: from 4096 elements on
    w = volta.tensor(_data((100,), 1), requires_grad=True)
    for y in (x.softmax(1), x.log_softmax(1), x.logsumexp(1), VF.layer_norm(x, (100,), w, w)):
        y.sum().backward()
    x.detach().amax(1)
    x.detach().sum(1)
    assert calls == Counter({"softmax": 2, "softmax_backward": 2, "logsumexp": 1,
                             "layer_norm": 1, "layer_norm_backward": 1, "row_extrema": 1,
                             "row_sums": 1, "total": 3})


@pytest.mark.skipif(not native.ENABLED, reason="VOLTA_NATIVE=0 runs the numpy path")
def test_float64_kernels_refuse_mixed_types() -> None:
    kernels = native.kernels("rowwise")
    x = np.ones((4, 8))
    with pytest.raises(ValueError):  # float64 input, float32 output
        kernels.softmax(x, np.empty((4, 8), np.float32), 4, 8, False, 1)
    with pytest.raises(ValueError):  # out too small
        kernels.logsumexp(x, np.empty(3), 4, 8, 1)
    with pytest.raises(ValueError):
        kernels.total(np.ones(4, np.int32), 1)
