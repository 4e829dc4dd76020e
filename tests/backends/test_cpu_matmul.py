"""The CPU backend's (..., k) @ (k, n) products (matmul and linear) run as one 2-D GEMM over
the rows of the left operand: same results as PyTorch for batched, non-contiguous and
broadcast-free inputs, forward and backward."""

from __future__ import annotations

import numpy as np
import pytest
import torch

import volta


def _pair(shape: tuple[int, ...], seed: int) -> tuple[volta.Tensor, torch.Tensor]:
    data = np.random.default_rng(seed).standard_normal(shape).astype(np.float32)
    return volta.tensor(data, requires_grad=True), torch.tensor(data, requires_grad=True)


def _operand(leaf: volta.Tensor | torch.Tensor, permute: bool) -> volta.Tensor | torch.Tensor:
    # permuted: a non-contiguous (..., k) operand whose rows are not one block of memory
    return leaf.transpose(0, 1) if permute else leaf


@pytest.mark.parametrize("permute", [False, True])
@pytest.mark.parametrize("shape", [(3, 4, 5), (2, 3, 4, 5), (3, 4, 0), (0, 4, 5)])
def test_matmul_rows_times_matrix(shape: tuple[int, ...], permute: bool) -> None:
    a, ta = _pair(shape, 0)
    b, tb = _pair((shape[-1], 6), 1)
    out = volta.matmul(_operand(a, permute), b)
    ref = torch.matmul(_operand(ta, permute), tb)
    assert tuple(out.shape) == tuple(ref.shape)
    np.testing.assert_allclose(out.detach().numpy(), ref.detach().numpy(), rtol=1e-5, atol=1e-5)
    grad = np.random.default_rng(2).standard_normal(tuple(ref.shape)).astype(np.float32)
    out.backward(volta.tensor(grad))
    ref.backward(torch.tensor(grad))
    np.testing.assert_allclose(a.grad.numpy(), ta.grad.numpy(), rtol=1e-5, atol=1e-5)
    np.testing.assert_allclose(b.grad.numpy(), tb.grad.numpy(), rtol=1e-5, atol=1e-4)


@pytest.mark.parametrize("permute", [False, True])
def test_linear_on_3d_input(permute: bool) -> None:
    x, tx = _pair((4, 3, 5), 3)
    w, tw = _pair((6, 5), 4)
    b, tb = _pair((6,), 5)
    out = volta.nn.functional.linear(_operand(x, permute), w, b)
    ref = torch.nn.functional.linear(_operand(tx, permute), tw, tb)
    np.testing.assert_allclose(out.detach().numpy(), ref.detach().numpy(), rtol=1e-5, atol=1e-5)
    out.sum().backward()
    ref.sum().backward()
    for got, want in ((x, tx), (w, tw), (b, tb)):
        np.testing.assert_allclose(got.grad.numpy(), want.grad.numpy(), rtol=1e-5, atol=1e-4)
