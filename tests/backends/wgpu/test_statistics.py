"""The statistics, histogram and scatter_reduce kernels on WGPU against the CPU backend, with the
CPU fallback switched off (a host round trip fails): ties, NaN, non-contiguous inputs, integer
dtypes, backward, and the CPU's errors for bad input."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
import pytest

import volta
from tests.backends.wgpu.conftest import assert_same

RNG = np.random.default_rng(7)
X = RNG.standard_normal((5, 7)).astype(np.float32)
X_TIES = X.copy()
X_TIES[1, 2:5] = 0.5
X_TIES[3] = X_TIES[3, 0]
X_NAN = X_TIES.copy()
X_NAN[0, 1] = X_NAN[2, 4] = X_NAN[2, 0] = np.nan
X_NAN[4] = np.nan
INTS = RNG.integers(-3, 3, (5, 7)).astype(np.int64)


def _outputs(result: Any) -> list[volta.Tensor]:
    return list(result) if isinstance(result, (tuple, list)) else [result]


def _flatten(outputs: list[Any]) -> list[volta.Tensor]:
    """histogramdd returns its edges as a list among its outputs."""
    return [t for o in outputs for t in (o if isinstance(o, list) else [o])]


def check(fn: Callable[..., Any], *arrays: np.ndarray, grad: bool = False) -> None:
    """``fn`` on the CPU and on WGPU gives the same outputs (and input gradients with ``grad``:
    the backward of the sum of the float outputs times a fixed weight)."""
    results = []
    for device in ("cpu", "wgpu"):
        inputs = [volta.tensor(a, device=device, requires_grad=grad and a.dtype.kind == "f")
                  for a in arrays]
        outputs = _outputs(fn(*inputs))
        grads: list[volta.Tensor] = []
        if grad:
            loss = sum((o * volta.arange(o.numel(), device=device).reshape(o.shape).to(o.dtype)
                        ).sum() for o in outputs if o.dtype.is_floating_point and o.requires_grad)
            loss.backward()
            grads = [t.grad for t in inputs if t.requires_grad]
        results.append((outputs, grads))
    (cpu_out, cpu_grads), (dev_out, dev_grads) = results
    cpu_out, dev_out = _flatten(cpu_out), _flatten(dev_out)
    assert len(cpu_out) == len(dev_out)
    for got, want in zip(dev_out, cpu_out):
        assert got.device.type == "wgpu"
        assert_same(got, want)
    for got, want in zip(dev_grads, cpu_grads):
        assert_same(got, want)


# name -> (function, inputs, differentiate)
CASES: dict[str, tuple[Callable[..., Any], list[np.ndarray], bool]] = {
    "cummax": (lambda x: x.cummax(1), [X_TIES], True),
    "cummax_nan": (lambda x: x.cummax(1), [X_NAN], False),
    "cummin_strided": (lambda x: x.T.cummin(1), [X_NAN], False),
    "cummin_dim0": (lambda x: volta.cummin(x, 0), [X_TIES], True),
    "cummax_int": (lambda x: x.cummax(0), [INTS], False),
    "cummin_bool": (lambda x: (x > 0).cummin(1), [INTS], False),
    "cummax_0d": (lambda x: x[0, 0].cummax(0), [X], False),
    "kthvalue": (lambda x: x.kthvalue(3, 1), [X_TIES], True),
    "kthvalue_nan": (lambda x: x.kthvalue(6, 1, keepdim=True), [X_NAN], False),
    "kthvalue_strided": (lambda x: x[:, ::2].kthvalue(2, 0), [X_TIES], True),
    "kthvalue_int": (lambda x: x.kthvalue(4), [INTS], False),
    "kthvalue_0d": (lambda x: x[1, 1].kthvalue(1), [X], False),
    "nanmedian": (lambda x: x.nanmedian(), [X_NAN], True),
    "nanmedian_no_nan": (lambda x: x.nanmedian(), [X_TIES], False),
    "nanmedian_dim": (lambda x: x.nanmedian(1), [X_NAN], False),
    "nanmedian_dim_grad": (lambda x: x.nanmedian(0, keepdim=True), [X_TIES], True),
    "nanmedian_strided": (lambda x: x.T.nanmedian(1), [X_NAN], False),
    "nanmedian_int": (lambda x: x.nanmedian(1), [INTS], False),
    "mode": (lambda x: x.mode(1), [INTS], False),
    "mode_dim0_keepdim": (lambda x: x.mode(0, keepdim=True), [INTS], False),
    "mode_float": (lambda x: x.mode(1), [X_TIES], True),
    "mode_nan": (lambda x: x.mode(1), [X_NAN], False),
    "mode_strided": (lambda x: x.T.mode(0), [INTS], False),
    "isin": (lambda x, t: volta.isin(x, t), [INTS, np.array([0, 2, 7])], False),
    "isin_invert": (lambda x, t: volta.isin(x, t, invert=True), [INTS, np.array([[-3], [1]])],
                    False),
    "isin_float_nan": (lambda x: volta.isin(x, x[2]), [X_NAN], False),
    "isin_strided": (lambda x: volta.isin(x.T, x[:2, ::3]), [INTS], False),
    "unique_consecutive": (lambda x: volta.unique_consecutive(x.T, return_inverse=True,
                                                              return_counts=True), [INTS],
                           False),
    "unique_consecutive_float": (lambda x: volta.unique_consecutive(x, return_counts=True),
                                 [X_NAN], False),
    "unique_consecutive_dim": (
        lambda x: volta.unique_consecutive(x, return_inverse=True, return_counts=True, dim=1),
        [np.repeat(INTS[:, :3], [2, 1, 3], axis=1)], False),
    "unique_consecutive_dim0": (lambda x: volta.unique_consecutive(x, dim=0),
                                [np.repeat(INTS[:3], [1, 3, 2], axis=0)], False),
    "unique_consecutive_empty": (lambda x: volta.unique_consecutive(
        x[:0], return_inverse=True, return_counts=True), [INTS], False),
    "repeat_interleave": (lambda r: volta.repeat_interleave(r), [np.array([2, 0, 3, 1, 0])],
                          False),
    "repeat_interleave_int32": (lambda r: volta.repeat_interleave(r.to(volta.int32)[::2]),
                                [np.array([2, 0, 3, 1, 1])], False),
    "repeat_interleave_self": (lambda x, r: x.repeat_interleave(r, dim=0),
                               [X, np.array([1, 0, 2, 1, 3])], True),
}

SRC = RNG.standard_normal((4, 6)).astype(np.float32)
SRC[0, 0] = SRC[2, 1] = SRC[1, 2] = 0.0  # products with one and with two zeros
SRC[3, 2] = SRC[3, 4] = 9.0  # ties for amax
INDEX = np.array([[0, 1, 0, 6, 2, 0], [3, 3, 3, 1, 0, 3], [6, 0, 0, 0, 2, 2],
                  [5, 5, 5, 4, 5, 4]])
for _reduce in ("sum", "prod", "mean", "amax", "amin"):
    for _include in (True, False):
        CASES[f"scatter_reduce_{_reduce}_{'self' if _include else 'no_self'}"] = (
            lambda x, i, s, r=_reduce, inc=_include: x.scatter_reduce(1, i, s, r,
                                                                      include_self=inc),
            [X_TIES, INDEX, SRC], True)
    CASES[f"scatter_reduce_{_reduce}_int"] = (
        lambda x, i, r=_reduce: x.scatter_reduce(1, i, x[:4, :6] * 3 - 1, r, include_self=False),
        [INTS, INDEX], False)
CASES.update({
    "scatter_reduce_nan": (lambda x, i, s: x.scatter_reduce(1, i, s, "amax"), [X_NAN, INDEX, SRC],
                           False),
    "scatter_reduce_dim0_strided": (
        lambda x, i, s: x.T.scatter_reduce(0, i.T[:, :3], s.T, "mean", include_self=False),
        [X, INDEX % 5, SRC], True),
    "scatter_reduce_0d": (lambda x: x[0, 0].scatter_reduce(0, volta.tensor(
        0, device=x.device), x[1, 1], "prod"), [X], True),
    "scatter_reduce_empty_index": (lambda x, s: x.scatter_reduce(
        1, volta.zeros((0, 0), dtype=volta.int64, device=x.device), s, "amin"), [X, SRC], True),
    "scatter_reduce_bool": (lambda x, i: (x > 0).scatter_reduce(1, i, (x[:4, :6] < 1), "sum",
                                                                 include_self=False),
                            [INTS, INDEX], False),
    "index_fill": (lambda x: x.index_fill(1, volta.tensor([0, 3, -1, 3], device=x.device), -2.5),
                   [X], True),
    "index_fill_tensor": (lambda x, v: x.T.index_fill(0, volta.tensor([2], device=x.device), v),
                          [X, np.array(4.0, dtype=np.float32)], True),
    "index_fill_int": (lambda x: x.index_fill(0, volta.tensor([4, 0], device=x.device), 7),
                       [INTS], False),
    "index_fill_0d": (lambda x: x[0, 0].index_fill(0, volta.tensor([0], device=x.device), 1.0),
                      [X], False),
})

POINTS = RNG.standard_normal((40, 3)).astype(np.float32)
POINTS[3, 1] = np.nan
ON_EDGES = np.round(RNG.standard_normal(50).astype(np.float32) * 4) / 4  # many on bin edges
WEIGHTS = RNG.random(50).astype(np.float32)
EDGES = np.array([-1.0, -0.25, 0.0, 0.5, 2.0], dtype=np.float32)
CASES.update({
    "histc": (lambda x: x.histc(10), [ON_EDGES], False),
    "histc_range": (lambda x: x.histc(7, -1, 1), [ON_EDGES], False),
    "histc_inexact_range": (lambda x: volta.histc(x, 10, -0.3, 0.7), [ON_EDGES], False),
    "histc_nan_strided": (lambda x: x[:, 1:].T.histc(5, -1, 1), [POINTS], False),
    "histc_constant": (lambda x: (x * 0).histc(4), [ON_EDGES], False),
    "histogram_bin_ct": (lambda x: volta.histogram(x, 5), [ON_EDGES], False),
    "histogram_bins_tensor": (lambda x, b: volta.histogram(x, b), [ON_EDGES, EDGES], False),
    "histogram_weight_density": (lambda x, w: volta.histogram(x, 4, range=(-1.0, 1.0), weight=w,
                                                              density=True),
                                 [ON_EDGES, WEIGHTS], False),
    "histogramdd": (lambda x: volta.histogramdd(x[:, :2], [3, 4]), [POINTS], False),
    "histogramdd_int_bins": (lambda x: volta.histogramdd(x, 2, range=[-1.0, 1.0, -2.0, 2.0,
                                                                      0.0, 1.0]), [POINTS],
                             False),
    "histogramdd_weight_density": (lambda x, w: volta.histogramdd(
        x[:, :2], [3, 4], weight=w[:40], density=True), [POINTS, WEIGHTS], False),
    "histogramdd_tensor_list": (lambda x, e: volta.histogramdd(x[:, ::2], [e[::2], e]),
                                [POINTS, EDGES], False),
    "histogramdd_empty": (lambda x: volta.histogramdd(x[:0], [2, 3, 1]), [POINTS], False),
})


@pytest.mark.parametrize("name", sorted(CASES))
def test_matches_cpu(wgpu: str, no_fallback: None, name: str) -> None:
    fn, inputs, differentiate = CASES[name]
    check(fn, *inputs, grad=differentiate)


# name -> function of a tensor that raises the same error on both devices
ERRORS: dict[str, Callable[[volta.Tensor], Any]] = {
    "kthvalue_k": lambda x: x.kthvalue(8, 1),
    "kthvalue_k0": lambda x: x.kthvalue(0),
    "mode_empty": lambda x: x[:, :0].mode(1),
    "nanmedian_empty": lambda x: x[:0].nanmedian(0),
    "cummax_dim": lambda x: x.cummax(2),
    "repeat_interleave_negative": lambda x: volta.repeat_interleave(
        volta.tensor([1, -1], device=x.device)),
    "repeat_interleave_float": lambda x: volta.repeat_interleave(x[0]),
    "repeat_interleave_2d": lambda x: volta.repeat_interleave(volta.ones(
        (2, 2), dtype=volta.int64, device=x.device)),
    "repeat_interleave_size": lambda x: volta.repeat_interleave(
        volta.tensor([1, 2], device=x.device), output_size=4),
    "scatter_reduce_reduce": lambda x: x.scatter_reduce(0, volta.tensor([[0]], device=x.device),
                                                        x, "max"),
    "scatter_reduce_range": lambda x: x.scatter_reduce(0, volta.tensor([[5]], device=x.device),
                                                       x, "sum"),
    "scatter_reduce_dtype": lambda x: x.scatter_reduce(0, volta.tensor([[0]], device=x.device),
                                                       x.to(volta.int32), "sum"),
    "scatter_reduce_index_dtype": lambda x: x.scatter_reduce(0, x[:1, :1], x, "sum"),
    "scatter_reduce_dims": lambda x: x.scatter_reduce(0, volta.tensor([0], device=x.device), x,
                                                      "sum"),
    "index_fill_2d_index": lambda x: x.index_fill(0, volta.tensor([[0]], device=x.device), 1.0),
    "index_fill_range": lambda x: x.index_fill(1, volta.tensor([7], device=x.device), 1.0),
    "index_fill_value": lambda x: x.index_fill(1, volta.tensor([1], device=x.device), x[0]),
    "histc_int": lambda x: x.to(volta.int32).histc(4),
    "histc_bins": lambda x: x.histc(0),
    "histc_min_max": lambda x: x.histc(3, 2, 1),
    "histc_infinite": lambda x: x.histc(3, float("-inf"), 1),
    "histc_nan_data": lambda x: (x * float("nan")).histc(3),
    "histogramdd_0d": lambda x: volta.histogramdd(x[0, 0], 3),
    "histogramdd_bin_count": lambda x: volta.histogramdd(x, [2, 3]),
    "histogramdd_range_size": lambda x: volta.histogramdd(x, 2, range=[0.0, 1.0]),
    "histogramdd_range_order": lambda x: volta.histogramdd(x[:, :1], 2, range=[1.0, 0.0]),
    "histogramdd_edges": lambda x: volta.histogramdd(x[:, :1], [x[0, :1]]),
    "histogram_int": lambda x: volta.histogram(x.to(volta.int64), 3),
}


@pytest.mark.parametrize("name", sorted(ERRORS))
def test_bad_input_raises_the_cpu_error(wgpu: str, no_fallback: None, name: str) -> None:
    errors = []
    for device in ("cpu", wgpu):
        with pytest.raises(volta.VoltaError) as info:
            ERRORS[name](volta.tensor(X, device=device))
        errors.append((type(info.value), str(info.value)))
    assert errors[0] == errors[1]


def test_data_sized_outputs_read_back_once(wgpu: str, no_fallback: None) -> None:
    x = volta.tensor(INTS, device=wgpu)
    repeats = volta.tensor([2, 0, 3], device=wgpu)
    for fn in (lambda: volta.unique_consecutive(x, return_inverse=True, return_counts=True),
               lambda: volta.repeat_interleave(repeats)):
        volta.wgpu.synchronize()
        before = volta.wgpu.counters()["readbacks"]
        fn()
        volta.wgpu.synchronize()
        assert volta.wgpu.counters()["readbacks"] - before == 1


def test_known_ranges_cost_no_read(wgpu: str, no_fallback: None) -> None:
    """Uploaded indices and a given histogram range are known on the host: nothing is read."""
    x = volta.tensor(X, device=wgpu)
    index = volta.tensor(INDEX, device=wgpu)
    src = volta.tensor(SRC, device=wgpu)
    volta.wgpu.synchronize()
    before = volta.wgpu.counters()["readbacks"]
    x[:4].scatter_reduce(1, index, src, "mean")
    x.histc(6, -1, 1)
    volta.histogramdd(x[:, :2], [3, 2], range=[-1.0, 1.0, 0.0, 2.0])
    x.kthvalue(2)
    x.cummin(0)
    x.index_fill(1, volta.tensor([1, 2], device=wgpu), 0.0)
    volta.wgpu.synchronize()
    assert volta.wgpu.counters()["readbacks"] == before


@pytest.mark.parametrize("reduce", ["sum", "mean", "prod"])
def test_scatter_reduce_float_results_equal_the_cpu_bit_for_bit(wgpu: str, no_fallback: None,
                                                                reduce: str) -> None:
    """Many values land on few positions; the device reduces them in the CPU's order."""
    values = RNG.standard_normal((3, 400)).astype(np.float32) * 1.01
    index = RNG.integers(0, 3, (3, 400))
    results = []
    for device in ("cpu", wgpu):
        base = volta.ones((3, 3), device=device)
        out = base.scatter_reduce(1, volta.tensor(index, device=device),
                                  volta.tensor(values, device=device), reduce)
        results.append(out.cpu().numpy())
    np.testing.assert_array_equal(results[1], results[0])


@pytest.mark.parametrize("call", [
    lambda x: x.argmax(), lambda x: x.argmin(1), lambda x: x.median(), lambda x: x.median(1),
    lambda x: x.nanmedian(), lambda x: x.nanmedian(0), lambda x: x.kthvalue(1, 1)],
    ids=["argmax", "argmin_dim", "median", "median_dim", "nanmedian", "nanmedian_dim",
         "kthvalue"])
def test_bool_selections_raise_the_cpu_error(wgpu: str, call: Any) -> None:
    # PyTorch has no bool kernels for these (volta.tensor.checks, shared by every backend)
    messages = []
    for device in ("cpu", wgpu):
        with pytest.raises(volta.DTypeError) as info:
            call(volta.ones(2, 3, dtype=volta.bool, device=device))
        messages.append(str(info.value))
    assert messages[0] == messages[1]
