"""The bitonic sort on WGPU (kernels/sort.py) and the ops built on it, against the CPU backend with
the CPU fallback off: exact values and indices (stable: ties keep their order, NaN last ascending
and first descending), rows around the workgroup block size, strided inputs, backward."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
import pytest

import volta
from volta.backends.wgpu.kernels.sort import BLOCK

RNG = np.random.default_rng(5)


def _ties_and_nans(rows: int, n: int) -> np.ndarray:
    a = RNG.integers(-4, 4, (rows, n)).astype(np.float32)  # many ties
    a[0, ::5] = np.nan
    return a


def _run(device: str, fn: Callable[..., Any], a: np.ndarray, grad: bool) -> list[np.ndarray]:
    x = volta.tensor(a, device=device, requires_grad=grad)
    out = fn(x)
    outs = list(out) if isinstance(out, (tuple, list)) else [out]
    if grad:
        value = outs[0]
        weights = volta.arange(value.numel(), dtype=volta.float32, device=device)
        (value * weights.reshape(value.shape).sin()).sum().backward()
    results = [o.detach().cpu().numpy() for o in outs]
    return results + ([x.grad.cpu().numpy()] if grad else [])


def _same(fn: Callable[..., Any], a: np.ndarray, wgpu: str, grad: bool = False) -> None:
    """Values and indices exactly; the gradient (the weights are sines) to float precision."""
    want, got = _run("cpu", fn, a, grad), _run(wgpu, fn, a, grad)
    for k, (w, g) in enumerate(zip(want, got, strict=True)):
        assert w.dtype == g.dtype and w.shape == g.shape, (w.dtype, g.dtype, w.shape, g.shape)
        if grad and k == len(want) - 1:
            np.testing.assert_allclose(g, w, rtol=1e-5, atol=1e-6)
        else:
            np.testing.assert_array_equal(g, w)


# row lengths around the powers of two and the block one workgroup sorts in workgroup memory
LENGTHS = [1, 2, 5, 8, 33, BLOCK - 1, BLOCK, BLOCK + 1, 2 * BLOCK + 3, 5 * BLOCK]


@pytest.mark.parametrize("descending", [False, True], ids=["ascending", "descending"])
@pytest.mark.parametrize("n", LENGTHS)
def test_sort_matches_cpu(wgpu: str, no_fallback: None, n: int, descending: bool) -> None:
    a = _ties_and_nans(3, n)
    _same(lambda x: x.sort(descending=descending), a, wgpu)
    _same(lambda x: x.T.sort(dim=0, descending=descending, stable=True), a, wgpu)


CASES: dict[str, tuple[Callable[..., Any], np.ndarray, bool]] = {
    "sort_backward": (lambda x: x.sort(1, descending=True), _ties_and_nans(4, 40)[1:], True),
    "sort_middle_dim": (lambda x: x.reshape(2, 30, 4).sort(1), _ties_and_nans(4, 60), False),
    "sort_int64": (lambda x: (x.nan_to_num() * 1000).to(volta.int64).sort(0, True),
                   _ties_and_nans(70, 9), False),
    "sort_bool": (lambda x: (x > 0).sort(1), _ties_and_nans(3, 20), False),
    "sort_0d": (lambda x: x[0, 1].sort(), _ties_and_nans(2, 3), False),
    "sort_empty": (lambda x: x[:, :0].sort(), _ties_and_nans(2, 3), False),
    "argsort": (lambda x: x.argsort(1, descending=True), _ties_and_nans(5, 700), False),
    "msort": (lambda x: x.msort(), _ties_and_nans(300, 3), False),
    "topk": (lambda x: x.topk(7, 1), _ties_and_nans(3, 1100)[1:], True),
    "topk_smallest": (lambda x: x.topk(3, 0, largest=False), _ties_and_nans(30, 4), True),
    "median": (lambda x: x.median(), _ties_and_nans(3, 600)[1:], False),
    "median_nan": (lambda x: x.median(), _ties_and_nans(3, 30), False),
    "median_dim": (lambda x: x.median(1), _ties_and_nans(4, 21)[1:], True),
    "unique": (lambda x: volta.unique(x.nan_to_num(), return_inverse=True, return_counts=True),
               _ties_and_nans(5, 300), False),
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_ops_on_the_sort_match_cpu(wgpu: str, no_fallback: None, name: str) -> None:
    fn, a, grad = CASES[name]
    _same(fn, a, wgpu, grad)


def test_short_rows_sort_in_one_workgroup_dispatch(wgpu: str, counters: dict) -> None:
    """Fill the padded rows, sort every stage in workgroup memory, copy out: three dispatches,
    however many rows (the rank sort's work grew with n * n per row)."""
    x = volta.tensor(_ties_and_nans(200, BLOCK), device=wgpu)
    volta.wgpu.synchronize()
    before = volta.wgpu.counters()["dispatches"]
    values, _ = x.sort(1)
    volta.wgpu.synchronize()
    assert volta.wgpu.counters()["dispatches"] - before <= 4  # plus the copy of a strided input
    np.testing.assert_array_equal(values.cpu().numpy(), np.sort(x.cpu().numpy(), 1))


def test_scans_of_rows_longer_than_the_loop_budget(wgpu: str, no_fallback: None) -> None:
    """A row of 70,000 elements is scanned in two dispatches (lavapipe stops an invocation
    after 65,535 loop iterations); the second carries on from the first."""
    a = RNG.integers(-3, 4, (2, 70_000))
    _same(lambda x: x.cumsum(1), a, wgpu)
    _same(lambda x: (x.abs() + 1).cumprod(1).clamp(max=2 ** 30).cumsum(0), a[:, :10], wgpu)


def test_median_of_a_slice_with_nan_is_nan_at_its_first_nan(wgpu: str) -> None:
    # as PyTorch (and the CPU kernel): the value is NaN and the index that of the first NaN
    import torch

    rows = [[1.0, float("nan"), 3.0, 2.5], [2.0, 5.0, 5.0, -1.0],
            [float("nan"), float("nan"), 1.0, 0.0]]
    values, indices = volta.tensor(rows, device=wgpu).median(1)
    expected = torch.tensor(rows).median(1)
    np.testing.assert_array_equal(values.cpu().numpy(), expected.values.numpy())
    assert indices.cpu().tolist() == expected.indices.tolist()
