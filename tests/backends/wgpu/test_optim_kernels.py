"""The fused optimizer updates on WGPU against the CPU kernels, flag by flag."""

from __future__ import annotations

import numpy as np
import pytest

import volta

from .conftest import assert_same


def _tensors(device: str, n: int) -> list[volta.Tensor]:
    rng = np.random.default_rng(5)
    return [volta.tensor(rng.standard_normal((3, 5)).astype(np.float32), device=device)
            for _ in range(n)]


@pytest.mark.parametrize("nesterov,weight_decay,maximize,dampening", [
    (False, 0.0, False, 0.0), (True, 0.1, False, 0.0), (False, 0.1, True, 0.5)])
def test_sgd_update(wgpu: str, nesterov: bool, weight_decay: float, maximize: bool,
                    dampening: float) -> None:
    results = {}
    for device in ("cpu", wgpu):
        p, g, buf = _tensors(device, 3)
        for step in range(3):
            volta._sgd_update_(p, g.T.T, buf, 0.1, 0.9, dampening, weight_decay, nesterov,
                               maximize, step == 0)
        results[device] = (p, buf)
    for got, want in zip(results[wgpu], results["cpu"], strict=True):
        assert_same(got, want, rtol=1e-5, atol=1e-6)


@pytest.mark.parametrize("amsgrad,maximize,decoupled,weight_decay", [
    (False, False, False, 0.0), (True, False, False, 0.01), (False, True, True, 0.01)])
def test_adam_update(wgpu: str, amsgrad: bool, maximize: bool, decoupled: bool,
                     weight_decay: float) -> None:
    results = {}
    for device in ("cpu", wgpu):
        p, g, m, v, mx = _tensors(device, 5)
        v.abs_()
        mx.abs_()
        for step in range(1, 4):
            volta._adam_update_(p, g, m, v, mx if amsgrad else None, step, 0.01, 0.9, 0.999,
                                1e-8, weight_decay, amsgrad, maximize, decoupled)
        results[device] = (p, m, v, mx)
    for got, want in zip(results[wgpu], results["cpu"], strict=True):
        assert_same(got, want, rtol=2e-5, atol=1e-6)


def test_a_training_step_dispatches_one_kernel_per_parameter_update(wgpu: str) -> None:
    p, g, buf = _tensors(wgpu, 3)
    volta.wgpu.synchronize()
    before = volta.wgpu.counters()["dispatches"]
    volta._sgd_update_(p, g, buf, 0.1, 0.9, 0.0, 0.0, False, False, True)
    assert volta.wgpu.counters()["dispatches"] - before == 1
