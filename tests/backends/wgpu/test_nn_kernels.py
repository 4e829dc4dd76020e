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


@pytest.mark.parametrize("kwargs", [dict(kernel_size=2), dict(kernel_size=3, stride=2, padding=1),
                                    dict(kernel_size=2, dilation=2, ceil_mode=True)])
def test_max_pool2d_forward_and_backward(wgpu: str, kwargs: dict) -> None:
    rng = np.random.default_rng(4)
    arr = rng.standard_normal((2, 3, 7, 6)).astype(np.float32)
    results = {}
    for device in ("cpu", wgpu):
        x = volta.tensor(arr, device=device, requires_grad=True)
        y, idx = volta.nn.functional.max_pool2d_with_indices(x, **kwargs)
        (y * y).sum().backward()
        results[device] = (y, idx, x.grad)
    for got, want in zip(results[wgpu], results["cpu"], strict=True):
        assert_same(got, want, rtol=1e-6, atol=1e-6)


def test_max_pool1d(wgpu: str) -> None:
    arr = np.random.default_rng(2).standard_normal((2, 4, 9)).astype(np.float32)
    want = volta.nn.functional.max_pool1d(volta.tensor(arr), 3, 2)
    assert_same(volta.nn.functional.max_pool1d(volta.tensor(arr, device=wgpu), 3, 2), want)
