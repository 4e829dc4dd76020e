"""CPU convolutions split their batch over threads (parallel.split_range): forward, input and
weight gradients and transposed convolutions match PyTorch whatever the split, including
uneven pieces and pieces that walk a sample in row chunks."""

from __future__ import annotations

import numpy as np
import pytest
import torch

import volta
from volta.backends.cpu import numpy_nn, parallel


@pytest.fixture(params=[2, 3])
def threads(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> int:
    monkeypatch.setattr(parallel, "_THREADS", request.param)
    monkeypatch.setattr(numpy_nn, "PARALLEL_MIN_BYTES", 1)  # split even these small convs
    return request.param


CASES = [  # (x shape, weight shape, stride, padding, groups)
    ((5, 3, 9, 9), (4, 3, 3, 3), 1, 1, 1),
    ((7, 4, 12, 10), (6, 2, 5, 5), 1, 0, 2),
    ((4, 2, 11, 11), (3, 2, 3, 3), 2, 1, 1),
    ((3, 2, 6, 6, 6), (2, 2, 3, 3, 3), 1, 1, 1),
]


@pytest.mark.parametrize("row_chunks", [False, True])
@pytest.mark.parametrize("case", CASES)
def test_split_convolution_matches_torch(case: tuple, row_chunks: bool, threads: int,
                                         monkeypatch: pytest.MonkeyPatch) -> None:
    if row_chunks:  # one output row per column chunk: the per-row path of every kernel
        monkeypatch.setattr(numpy_nn, "COLUMN_BUDGET_BYTES", 1)
    xs, ws, stride, padding, groups = case
    rng = np.random.default_rng(0)
    x = rng.standard_normal(xs).astype(np.float32)
    w = rng.standard_normal(ws).astype(np.float32)
    b = rng.standard_normal(ws[0]).astype(np.float32)
    conv = {4: "conv2d", 5: "conv3d"}[len(xs)]
    tx, tw, tb = (torch.tensor(a, requires_grad=True) for a in (x, w, b))
    vx, vw, vb = (volta.tensor(a, requires_grad=True) for a in (x, w, b))
    ty = getattr(torch.nn.functional, conv)(tx, tw, tb, stride, padding, 1, groups)
    vy = getattr(volta.nn.functional, conv)(vx, vw, vb, stride, padding, 1, groups)
    np.testing.assert_allclose(vy.detach().numpy(), ty.detach().numpy(), rtol=1e-4, atol=1e-4)
    g = rng.standard_normal(tuple(ty.shape)).astype(np.float32)
    ty.backward(torch.tensor(g))
    vy.backward(volta.tensor(g))
    for v, t in ((vx, tx), (vw, tw), (vb, tb)):
        np.testing.assert_allclose(v.grad.numpy(), t.grad.numpy(), rtol=1e-4, atol=1e-3)


def test_split_transposed_convolution_matches_torch(threads: int) -> None:
    rng = np.random.default_rng(1)
    x = rng.standard_normal((5, 4, 7, 7)).astype(np.float32)
    w = rng.standard_normal((4, 3, 3, 3)).astype(np.float32)
    got = volta.nn.functional.conv_transpose2d(volta.tensor(x), volta.tensor(w), stride=2,
                                               padding=1)
    want = torch.nn.functional.conv_transpose2d(torch.tensor(x), torch.tensor(w), stride=2,
                                                padding=1)
    np.testing.assert_allclose(got.numpy(), want.numpy(), rtol=1e-4, atol=1e-4)


def test_split_range_pieces_and_errors(threads: int) -> None:
    pieces = parallel.split_range(lambda a, b: (a, b), 10, 1)
    assert pieces[0][0] == 0 and pieces[-1][1] == 10 and len(pieces) == threads
    assert all(p[1] == q[0] for p, q in zip(pieces, pieces[1:]))
    assert parallel.split_range(lambda a, b: (a, b), 10, 6) == [(0, 10)]

    def fail_late(start: int, stop: int) -> None:
        if stop == 10:
            raise ValueError("last piece")

    with pytest.raises(ValueError, match="last piece"):
        parallel.split_range(fail_late, 10, 1)
