"""Fused nn kernels on WGPU against the CPU backend: softmax and log_softmax, both directions."""

from __future__ import annotations

import numpy as np
import pytest

import volta

from .conftest import assert_same


@pytest.mark.parametrize("dim", [0, 1, -1])
@pytest.mark.parametrize("op", ["softmax", "log_softmax"])
def test_softmax_forward_and_backward(wgpu: str, op: str, dim: int) -> None:
    rng = np.random.default_rng(11)
    arr = (rng.standard_normal((4, 6, 5)) * 4).astype(np.float32)
    seed = rng.standard_normal((6, 4, 5)).astype(np.float32)
    results = {}
    for device in ("cpu", wgpu):
        x = volta.tensor(arr, device=device, requires_grad=True)
        y = getattr(volta, op)(x.transpose(0, 1), dim)  # a strided input
        y.backward(volta.tensor(seed, device=device))
        results[device] = (y, x.grad)
    for got, want in zip(results[wgpu], results["cpu"], strict=True):
        assert_same(got, want, rtol=1e-5, atol=1e-6)


def test_softmax_of_large_logits_is_stable(wgpu: str) -> None:
    x = volta.tensor([[1000.0, 0.0, -1000.0]], device=wgpu)
    np.testing.assert_allclose(volta.softmax(x, 1).cpu().numpy(), [[1.0, 0.0, 0.0]])
    np.testing.assert_allclose(volta.log_softmax(x, 1).cpu().numpy(), [[0.0, -1000.0, -2000.0]])
