"""WGPU kernels composed of device ops, against the CPU backend, forward and backward."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
import pytest

import volta
from volta import nn

from .conftest import assert_same

RNG = np.random.default_rng(8)
X = RNG.standard_normal((4, 5)).astype(np.float32)
Y = RNG.standard_normal((4, 5)).astype(np.float32)

CASES: dict[str, Callable[[volta.Tensor, volta.Tensor], Any]] = {
    "clamp": lambda x, y: x.clamp(-0.5, 0.7),
    "clamp_tensor": lambda x, y: x.clamp(min=y),
    "masked_fill": lambda x, y: x.masked_fill(y > 0, -2.0),
    "cat": lambda x, y: volta.cat([x, y.T.T, x[:1]], 0),
    "cat_dim1": lambda x, y: volta.cat([x, y], 1),
    "slice_backward": lambda x, y: x[1:3, ::2],
    "select_backward": lambda x, y: x[:, 2],
    "var": lambda x, y: x.var(1),
    "std": lambda x, y: x.std(0, keepdim=True),
    "logsumexp": lambda x, y: x.logsumexp(1),
    "nansum": lambda x, y: x.nansum(0),
    "gelu": lambda x, y: nn.functional.gelu(x),
    "gelu_tanh": lambda x, y: nn.functional.gelu(x, approximate="tanh"),
    "layer_norm": lambda x, y: nn.functional.layer_norm(x, (5,), y[0], y[1]),
    "nan_to_num": lambda x, y: (x / (x > 0).to(volta.float32)).nan_to_num(posinf=5.0),
    "tril": lambda x, y: x.tril(1),
    "triu": lambda x, y: x.T.triu(-1),
    "repeat": lambda x, y: x[:2].repeat(2, 1, 3),
    "flip": lambda x, y: x.flip([0, 1]),
    "diagonal": lambda x, y: x.diagonal(1),
    "vector_norm": lambda x, y: volta.linalg.vector_norm(x, 2, dim=1),
    "vector_norm_3": lambda x, y: volta.linalg.vector_norm(x, 3),
    "roll": lambda x, y: x.roll((2, -1), (0, 1)),
    "roll_flat": lambda x, y: x.roll(3),
    "batch_norm": lambda x, y: nn.functional.batch_norm(
        x.reshape(2, 2, 5), None, None, y[0, :2], y[1, :2], training=True),
    "embedding": lambda x, y: nn.functional.embedding(
        volta.tensor([[1, 3], [3, 0]], device=x.device), x),
    "embedding_freq": lambda x, y: nn.functional.embedding(
        volta.tensor([[1, 3], [3, 3]], device=x.device), x, scale_grad_by_freq=True),
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_matches_cpu_forward_and_backward(wgpu: str, name: str, quiet_fallback: None) -> None:
    results = {}
    for device in ("cpu", wgpu):
        x = volta.tensor(X, device=device, requires_grad=True)
        y = volta.tensor(Y, device=device, requires_grad=True)
        out = CASES[name](x, y)
        out.backward(volta.ones(tuple(out.shape)).to(device))
        results[device] = [out, x.grad] + ([y.grad] if y.grad is not None else [])
    for got, want in zip(results[wgpu], results["cpu"], strict=True):
        assert_same(got, want, rtol=2e-5, atol=2e-6)


def test_batch_norm_updates_running_stats_on_the_device(wgpu: str) -> None:
    stats = {}
    for device in ("cpu", wgpu):
        bn = nn.BatchNorm1d(5).to(device)
        bn(volta.tensor(X, device=device))
        bn.eval()
        out = bn(volta.tensor(Y, device=device))
        stats[device] = (bn.running_mean, bn.running_var, out)
    for got, want in zip(stats[wgpu], stats["cpu"], strict=True):
        assert got.device == volta.device(wgpu)
        assert_same(got, want, rtol=2e-5, atol=2e-6)


def test_count_nonzero_and_one_hot(wgpu: str) -> None:
    idx = np.array([3, 0, 2, 3])
    assert_same(volta.tensor(idx, device=wgpu).count_nonzero(),
                volta.tensor(idx).count_nonzero())
    assert_same(nn.functional.one_hot(volta.tensor(idx, device=wgpu), 5),
                nn.functional.one_hot(volta.tensor(idx), 5))
