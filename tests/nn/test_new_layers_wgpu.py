"""The layers and utilities added by the nn-parity work run on the WGPU backend too (they call
volta ops only): forward and input/weight gradients on ``wgpu`` equal the CPU ones."""

from __future__ import annotations

import copy
from collections.abc import Callable

import numpy as np
import pytest

import volta

LAYERS: list[tuple[Callable[[], volta.nn.Module], tuple]] = [
    (lambda: volta.nn.ReflectionPad2d((1, 2, 0, 1)), (2, 3, 4, 4)),
    (lambda: volta.nn.ReplicationPad1d(2), (2, 3, 5)),
    (lambda: volta.nn.CircularPad3d(1), (1, 2, 3, 3, 3)),
    (lambda: volta.nn.Softmax2d(), (2, 3, 4, 4)),
    (lambda: volta.nn.Hardtanh(-0.5, 0.5), (4, 5)),
    (lambda: volta.nn.LogSigmoid(), (4, 5)),
    (lambda: volta.nn.InstanceNorm1d(3, affine=True), (2, 3, 6)),
    (lambda: volta.nn.BatchNorm3d(2), (2, 2, 2, 3, 2)),
    (lambda: volta.nn.AdaptiveAvgPool1d(3), (2, 3, 7)),
    (lambda: volta.nn.PixelUnshuffle(2), (1, 2, 4, 4)),
    (lambda: volta.nn.utils.parametrizations.orthogonal(volta.nn.Linear(4, 4)), (3, 4)),
    (lambda: volta.nn.utils.spectral_norm(volta.nn.Linear(4, 3)), (3, 4)),
]


@pytest.fixture(scope="module")
def wgpu() -> str:
    assert volta.wgpu.is_available(), "no WebGPU adapter: install mesa-vulkan-drivers"
    return "wgpu"


@pytest.mark.parametrize(("build", "shape"), LAYERS)
def test_layer_on_wgpu_matches_cpu(wgpu: str, build: Callable, shape: tuple) -> None:
    volta.manual_seed(0)
    cpu_layer = build()
    gpu_layer = copy.deepcopy(cpu_layer).to(wgpu)
    x = np.random.default_rng(0).standard_normal(shape).astype(np.float32)
    outputs, grads = [], []
    for layer, device in ((cpu_layer, "cpu"), (gpu_layer, wgpu)):
        inp = volta.tensor(x, device=device, requires_grad=True)
        out = layer(inp)
        out.backward(volta.ones_like(out))
        outputs.append(out.detach().cpu().numpy())
        grads.append([inp.grad.cpu().numpy()]
                     + [p.grad.cpu().numpy() for p in layer.parameters()])
    np.testing.assert_allclose(outputs[1], outputs[0], rtol=1e-5, atol=1e-5)
    for gpu_grad, cpu_grad in zip(grads[1], grads[0]):
        np.testing.assert_allclose(gpu_grad, cpu_grad, rtol=1e-4, atol=1e-5)
