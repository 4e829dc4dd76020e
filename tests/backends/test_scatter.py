"""Accumulating scatters (the backward of gather, index_select, x[index], index_add,
scatter_add, index_put with accumulate) agree with PyTorch for distinct, repeated (a few times
and many times) and negative indices, along every dimension."""

from __future__ import annotations

import numpy as np
import pytest
import torch

import volta
from volta.backends.cpu.scatter import MAX_ROUNDS

RNG = np.random.default_rng(3)
INDICES = {
    "distinct": RNG.permutation(9),
    "repeated": RNG.integers(0, 9, 25),
    "one index many times": np.array([3] * (MAX_ROUNDS + 4) + [1, 2]),
    "empty": np.array([], np.int64),
}


def _pair(a: np.ndarray) -> tuple[volta.Tensor, torch.Tensor]:
    return volta.tensor(a, requires_grad=True), torch.tensor(a, requires_grad=True)


def _close(v: volta.Tensor, t: torch.Tensor) -> None:
    np.testing.assert_allclose(v.numpy(), t.detach().numpy(), rtol=1e-12, atol=1e-12)


@pytest.mark.parametrize("kind", list(INDICES))
@pytest.mark.parametrize("dim", [0, 1, 2])
def test_index_select_backward_and_index_add(kind, dim):
    x = RNG.standard_normal((9, 9, 9))
    index = INDICES[kind]
    vx, tx = _pair(x)
    vi, ti = volta.tensor(index, dtype=volta.int64), torch.tensor(index, dtype=torch.int64)
    grad = RNG.standard_normal(tuple(index.size if d == dim else n for d, n in enumerate(x.shape)))
    vx.index_select(dim, vi).backward(volta.tensor(grad))
    tx.index_select(dim, ti).backward(torch.tensor(grad))
    _close(vx.grad, tx.grad)
    _close(volta.tensor(x).index_add(dim, vi, volta.tensor(grad), alpha=2),
           torch.tensor(x).index_add(dim, ti, torch.tensor(grad), alpha=2))


@pytest.mark.parametrize("kind", list(INDICES))
def test_indexing_backward_accumulates_rows(kind):
    index = INDICES[kind]
    index = np.where(np.arange(index.size) % 3 == 0, index - 9, index)  # some negative
    vx, tx = _pair(RNG.standard_normal((9, 5)))
    grad = RNG.standard_normal((index.size, 5))
    vx[volta.tensor(index)].backward(volta.tensor(grad))
    tx[torch.tensor(index)].backward(torch.tensor(grad))
    _close(vx.grad, tx.grad)
    values = RNG.standard_normal(5)  # broadcast to every indexed row
    _close(volta.zeros(9, 5, dtype=volta.float64).index_put((volta.tensor(index),),
                                                             volta.tensor(values), True),
           torch.zeros(9, 5, dtype=torch.float64).index_put((torch.tensor(index),),
                                                            torch.tensor(values), True))


@pytest.mark.parametrize("dim", [0, 1, 2])
def test_gather_backward_and_scatter_add(dim):
    x = RNG.standard_normal((6, 7, 5))
    shape = [4, 5, 3]
    shape[dim] = 11  # more picks than the dimension has: repeats
    index = RNG.integers(0, x.shape[dim], shape)
    vx, tx = _pair(x)
    grad = RNG.standard_normal(shape)
    vx.gather(dim, volta.tensor(index)).backward(volta.tensor(grad))
    tx.gather(dim, torch.tensor(index)).backward(torch.tensor(grad))
    _close(vx.grad, tx.grad)
    _close(volta.tensor(x).scatter_add(dim, volta.tensor(index), volta.tensor(grad)),
           torch.tensor(x).scatter_add(dim, torch.tensor(index), torch.tensor(grad)))


@pytest.mark.parametrize("kind", list(INDICES))
def test_embedding_backward_accumulates_rows(kind):
    index = INDICES[kind].reshape(-1, 1) if INDICES[kind].size else INDICES[kind]
    weight = RNG.standard_normal((9, 6))
    vw, tw = _pair(weight)
    grad = RNG.standard_normal(index.shape + (6,))
    volta.nn.functional.embedding(volta.tensor(index), vw, padding_idx=3).backward(
        volta.tensor(grad))
    torch.nn.functional.embedding(torch.tensor(index), tw, padding_idx=3).backward(
        torch.tensor(grad))
    _close(vw.grad, tw.grad)


def test_gather_from_a_non_contiguous_tensor():
    x = RNG.standard_normal((7, 6))
    index = RNG.integers(0, 7, (6, 9))
    _close(volta.tensor(x).T.gather(1, volta.tensor(index)),
           torch.tensor(x).T.gather(1, torch.tensor(index)))
