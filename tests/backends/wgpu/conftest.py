"""The WGPU tests run on whatever adapter the machine has (lavapipe in CI). They fail, never
skip, when there is none: CI installs Mesa's software Vulkan driver (.ci/run)."""

from __future__ import annotations

import warnings
from collections.abc import Iterator

import numpy as np
import pytest

import volta


@pytest.fixture(scope="session")
def wgpu() -> str:
    """The device string, after creating the device once for the whole session."""
    assert volta.wgpu.is_available(), "no WebGPU adapter: install mesa-vulkan-drivers"
    volta.zeros(1, device="wgpu").cpu()
    return "wgpu"


@pytest.fixture
def counters(wgpu: str) -> Iterator[dict]:
    """Execution counters accumulated inside the test (after a synchronize)."""
    volta.wgpu.synchronize()
    before = volta.wgpu.counters()
    delta: dict = {}
    yield delta
    after = volta.wgpu.counters()
    delta.update({k: after[k] - before[k] for k in after})


@pytest.fixture
def no_fallback() -> Iterator[None]:
    """The CPU fallback switched off: an op without a WGPU kernel or composite raises."""
    volta.dispatch.set_cpu_fallback(False)
    try:
        yield
    finally:
        volta.dispatch.set_cpu_fallback(True)


@pytest.fixture
def quiet_fallback() -> Iterator[None]:
    """Ops without a WGPU kernel run through the CPU fallback, which warns once per op."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        yield


def assert_same(got: volta.Tensor, want: volta.Tensor, rtol: float = 1e-5,
                atol: float = 1e-6) -> None:
    assert got.dtype == want.dtype, (got.dtype, want.dtype)
    assert tuple(got.shape) == tuple(want.shape)
    g, w = got.detach().cpu().numpy(), want.detach().cpu().numpy()
    if g.dtype.kind in "fc":
        np.testing.assert_allclose(g, w, rtol=rtol, atol=atol, equal_nan=True)
    else:
        np.testing.assert_array_equal(g, w)


def assert_training_step_stays_on_device(model: volta.nn.Module, x: volta.Tensor,
                                         y: volta.Tensor) -> None:
    """An SGD step of ``model`` on (x, y) with an MSE loss: after a warm-up step, a step runs
    no op through the CPU fallback and reads back once (the loss ``.item()``)."""
    opt = volta.optim.SGD(model.parameters(), lr=0.1)

    def step() -> float:
        opt.zero_grad()
        loss = volta.nn.functional.mse_loss(model(x), y)
        loss.backward()
        opt.step()
        return loss.item()

    step()  # warm up (compiles, fills the pool)
    fallbacks = dict(volta.dispatch.cpu_fallback_counts())
    volta.wgpu.synchronize()
    before = volta.wgpu.counters()
    step()
    after = volta.wgpu.counters()
    assert volta.dispatch.cpu_fallback_counts() == fallbacks
    assert after["readbacks"] - before["readbacks"] == 1
