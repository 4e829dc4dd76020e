"""volta-ext-ops on WGPU: the plugin's own WGPU kernels against its CPU kernels, forward and
backward (the backward formulas run on the device too), with no op going through volta's CPU
fallback. Runs on lavapipe in CI."""

from __future__ import annotations

from collections.abc import Iterator

import numpy as np
import pytest

import volta
from volta.dispatch.coverage import coverage

EXT = volta.ops.ext
CASES = {
    "swiglu": [(3, 4, 6), (6,)],
    "fused_bias_gelu": [(8, 16), (16,)],
    "gelu_derivative": [(5, 7)],
    "rms_norm": [(2, 3, 8), (8,)],
    "rotary_embedding": [(2, 5, 8), (5, 8), (5, 8)],
}


@pytest.fixture(scope="module")
def wgpu() -> str:
    assert volta.wgpu.is_available(), "no WebGPU adapter: install mesa-vulkan-drivers"
    return "wgpu"


@pytest.fixture
def no_fallback() -> Iterator[None]:
    """Fails the test when an op ran through the CPU fallback (copy to the host and back)."""
    before = volta.dispatch.cpu_fallback_counts()
    yield
    assert volta.dispatch.cpu_fallback_counts() == before


def _run(name: str, arrays: list[np.ndarray], device: str, transpose: bool
         ) -> list[np.ndarray]:
    inputs = []
    for a in arrays:
        t = volta.tensor(a.T.copy() if transpose and a.ndim == 2 else a, device=device)
        # a strided view of the same values: kernels must follow strides, not assume layout
        t = t.T if transpose and a.ndim == 2 else t
        inputs.append(t.detach().requires_grad_())
    out = getattr(EXT, name)(*inputs)
    weights = volta.arange(out.numel(), dtype=volta.float32, device=device).reshape(out.shape)
    (out * weights.cos()).sum().backward()
    return [out.detach().cpu().numpy()] + [t.grad.cpu().numpy() for t in inputs]


@pytest.mark.parametrize("transpose", [False, True], ids=["contiguous", "strided"])
@pytest.mark.parametrize("name", sorted(CASES))
def test_wgpu_matches_cpu_forward_and_backward(wgpu: str, no_fallback: None, name: str,
                                               transpose: bool) -> None:
    rng = np.random.default_rng(3)
    arrays = [rng.uniform(-2, 2, size=shape).astype(np.float32) for shape in CASES[name]]
    want = _run(name, arrays, "cpu", transpose)
    got = _run(name, arrays, wgpu, transpose)
    for w, g in zip(want, got, strict=True):
        assert w.shape == g.shape
        np.testing.assert_allclose(g, w, rtol=1e-4, atol=1e-5)


def test_every_ext_op_has_a_wgpu_kernel(wgpu: str) -> None:
    rows = {row.op: row for row in coverage(["WGPU"]) if row.namespace == "ext"}
    assert {f"ext::{name}" for name in CASES} <= set(rows)
    for name in CASES:
        assert rows[f"ext::{name}"].cells["WGPU"] == "kernel"


def test_a_block_trains_on_wgpu_without_leaving_the_device(wgpu: str, no_fallback: None
                                                           ) -> None:
    volta.manual_seed(0)
    x = volta.randn(16, 8, device=wgpu)
    target = volta.randn(16, 8, device=wgpu)
    weight = volta.ones(8, device=wgpu, requires_grad=True)
    bias = volta.zeros(8, device=wgpu, requires_grad=True)
    gate = volta.randn(8, device=wgpu, requires_grad=True)
    optimizer = volta.optim.Adam([weight, bias, gate], lr=0.05)
    losses = []
    for _ in range(30):
        optimizer.zero_grad()
        h = EXT.swiglu(EXT.fused_bias_gelu(EXT.rms_norm(x, weight), bias), gate)
        loss = ((h - target) ** 2).mean()
        loss.backward()
        optimizer.step()
        losses.append(loss.item())
    assert losses[-1] < 0.8 * losses[0]
