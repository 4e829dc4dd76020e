"""Indexing kernels on WGPU against the CPU backend: reads through an index, atomic adds."""

from __future__ import annotations

import numpy as np
import pytest

import volta

from .conftest import assert_same

RNG = np.random.default_rng(21)
X = RNG.standard_normal((5, 6)).astype(np.float32)


def _pair(arr: np.ndarray) -> tuple[volta.Tensor, volta.Tensor]:
    return volta.tensor(arr), volta.tensor(arr, device="wgpu")


@pytest.mark.parametrize("dim", [0, 1])
def test_gather_and_its_gradient(wgpu: str, dim: int) -> None:
    index = RNG.integers(-5, 5, (4, 3)) if dim == 0 else RNG.integers(0, 6, (4, 3))
    results = []
    for device in ("cpu", wgpu):
        x = volta.tensor(X, device=device, requires_grad=True)
        y = x.T.T.gather(dim, volta.tensor(index % X.shape[dim], device=device))
        (y * y).sum().backward()
        results.append((y, x.grad))
    for want, got in zip(*results, strict=True):
        assert_same(got, want)


@pytest.mark.parametrize("dim", [0, 1, -1])
def test_index_select_and_embedding(wgpu: str, dim: int) -> None:
    index = np.array([2, 0, 2, 4])
    (xc, xg), (ic, ig) = _pair(X), _pair(index)
    assert_same(xg.T.index_select(dim, ig), xc.T.index_select(dim, ic))
    ids = np.array([[1, 4], [4, 0], [3, 3]])
    (ec, eg), (wc, wg) = _pair(ids), _pair(X)
    assert_same(volta.nn.functional.embedding(eg, wg), volta.nn.functional.embedding(ec, wc))


def test_scatter_add_and_index_add(wgpu: str) -> None:
    index = np.array([[0, 1, 2, 0, 1, 0], [4, 4, 4, 1, 1, 0]])
    src = RNG.standard_normal((2, 6)).astype(np.float32)
    (xc, xg), (ic, ig), (sc, sg) = _pair(X), _pair(index), _pair(src)
    assert_same(xg.scatter_add(0, ig, sg), xc.scatter_add(0, ic, sc), rtol=1e-6, atol=1e-6)
    rows = np.array([3, 0, 3])
    (rc, rg), (vc, vg) = _pair(rows), _pair(RNG.standard_normal((3, 6)).astype(np.float32))
    assert_same(xg.index_add(0, rg, vg, alpha=2), xc.index_add(0, rc, vc, alpha=2),
                rtol=1e-6, atol=1e-6)
    ints = np.arange(12, dtype=np.int32).reshape(2, 6)
    (nc, ng) = _pair(ints)
    assert_same(ng.scatter_add(1, ig % 6, ng), nc.scatter_add(1, ic % 6, nc))


def test_cross_entropy_trains_without_cpu_fallback_of_indexing(wgpu: str) -> None:
    from volta.dispatch.dispatcher import DISPATCHER
    logits = volta.tensor(X, device=wgpu, requires_grad=True)
    target = volta.tensor([0, 5, 2, 2, 1], device=wgpu)
    before = dict(DISPATCHER.cpu_fallback_counts)
    loss = volta.nn.functional.cross_entropy(logits, target)
    loss.backward()
    after = DISPATCHER.cpu_fallback_counts
    assert {k: v for k, v in after.items() if before.get(k) != v} == {}
    want = volta.nn.functional.cross_entropy(volta.tensor(X), volta.tensor([0, 5, 2, 2, 1]))
    assert loss.item() == pytest.approx(want.item(), rel=1e-6)
