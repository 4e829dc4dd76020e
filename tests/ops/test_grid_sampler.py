"""volta.grid_sampler_2d / grid_sampler_3d (the aten ops behind F.grid_sample) against PyTorch:
values for every mode, padding and align_corners, gradients, PyTorch's checks, and WGPU."""

from __future__ import annotations

import itertools

import numpy as np
import pytest
import torch

import volta

RNG = np.random.default_rng(5)
INPUT_2D = RNG.standard_normal((2, 3, 4, 5))
GRID_2D = RNG.uniform(-1.3, 1.3, (2, 3, 4, 2))
INPUT_3D = RNG.standard_normal((2, 2, 3, 4, 3))
GRID_3D = RNG.uniform(-1.3, 1.3, (2, 2, 3, 2, 3))


def _run(module, name: str, data: np.ndarray, grid: np.ndarray, *modes, grad: bool = False):
    x = module.tensor(data, requires_grad=grad)
    g = module.tensor(grid, requires_grad=grad)
    return x, g, getattr(module, name)(x, g, *modes)


@pytest.mark.parametrize("mode,padding,align", list(itertools.product((0, 1, 2), (0, 1, 2),
                                                                       (False, True))))
def test_grid_sampler_2d_matches_pytorch(mode: int, padding: int, align: bool) -> None:
    *_, expected = _run(torch, "grid_sampler_2d", INPUT_2D, GRID_2D, mode, padding, align)
    *_, actual = _run(volta, "grid_sampler_2d", INPUT_2D, GRID_2D, mode, padding, align)
    np.testing.assert_allclose(actual.numpy(), expected.numpy(), rtol=1e-10, atol=1e-10)


@pytest.mark.parametrize("mode,padding,align", list(itertools.product((0, 1), (0, 1, 2),
                                                                       (False, True))))
def test_grid_sampler_3d_matches_pytorch(mode: int, padding: int, align: bool) -> None:
    *_, expected = _run(torch, "grid_sampler_3d", INPUT_3D, GRID_3D, mode, padding, align)
    *_, actual = _run(volta, "grid_sampler_3d", INPUT_3D, GRID_3D, mode, padding, align)
    np.testing.assert_allclose(actual.numpy(), expected.numpy(), rtol=1e-10, atol=1e-10)


@pytest.mark.parametrize("name,data,grid,mode", [
    ("grid_sampler_2d", INPUT_2D, GRID_2D, 0), ("grid_sampler_2d", INPUT_2D, GRID_2D, 2),
    ("grid_sampler_3d", INPUT_3D, GRID_3D, 0)])
def test_grid_sampler_gradients_match_pytorch(name: str, data, grid, mode: int) -> None:
    grads = []
    for module in (torch, volta):
        x, g, out = _run(module, name, data, grid, mode, 1, False, grad=True)
        cot = module.tensor(np.linspace(-1, 1, out.numel()).reshape(tuple(out.shape)))
        (out * cot).sum().backward()
        grads.append((x.grad.numpy(), g.grad.numpy()))
    for v, t in zip(grads[1], grads[0]):
        np.testing.assert_allclose(v, t, rtol=1e-8, atol=1e-8)


def test_grid_sampler_2d_gradchecks() -> None:
    x = volta.tensor(INPUT_2D[:1, :1, :3, :3], requires_grad=True)
    g = volta.tensor(GRID_2D[:1, :2, :2] * 0.7, requires_grad=True)
    assert volta.autograd.gradcheck(lambda a, b: volta.grid_sampler_2d(a, b, 0, 0, True), (x, g))


_I4, _G4 = np.zeros((2, 3, 4, 5)), np.zeros((2, 3, 3, 2))
_I5, _G5 = np.zeros((2, 3, 4, 5, 6)), np.zeros((2, 3, 3, 3, 3))
ERRORS = [
    ("grid_sampler_2d", _I5, _G5, 0, "expected 4D input and grid with same number of dimensions"),
    ("grid_sampler_2d", _I4, _G5, 0, "expected grid to have size 2 in last dimension"),
    ("grid_sampler_2d", _I4.reshape(2, 3, 20), _G4.reshape(2, 9, 2), 0,
     "expected grid to have size 1 in last dimension"),
    ("grid_sampler_3d", _I4, _G4, 0, "expected 5D input and grid with same number of dimensions"),
    ("grid_sampler_3d", _I5, _G5, 2, "bicubic interpolation only supports 4D input"),
    ("grid_sampler_2d", _I4, _G4[:1], 0, "expected grid and input to have same batch size"),
    ("grid_sampler_2d", np.zeros((2, 3, 0, 5)), _G4, 0,
     "expected input to have non-empty spatial dimensions, but input has sizes \\[2, 3, 0, 5\\] "
     "with dimension 2 being empty"),
]


@pytest.mark.parametrize("name,data,grid,mode,message", ERRORS)
def test_grid_sampler_errors_as_pytorch(name: str, data, grid, mode: int, message: str) -> None:
    with pytest.raises(RuntimeError, match=message):
        _run(torch, name, data, grid, mode, 0, False)
    with pytest.raises(volta.VoltaError, match=message):
        _run(volta, name, data, grid, mode, 0, False)


def test_grid_sampler_2d_and_3d_run_on_wgpu_as_on_cpu() -> None:
    assert volta.wgpu.is_available(), "no WebGPU adapter: install mesa-vulkan-drivers"
    for name, data, grid in (("grid_sampler_2d", INPUT_2D, GRID_2D),
                             ("grid_sampler_3d", INPUT_3D, GRID_3D)):
        x, g = data.astype(np.float32), grid.astype(np.float32)
        on_cpu = getattr(volta, name)(volta.tensor(x), volta.tensor(g), 0, 1, False)
        on_wgpu = getattr(volta, name)(volta.tensor(x, device="wgpu"),
                                       volta.tensor(g, device="wgpu"), 0, 1, False)
        assert on_wgpu.device.type == "wgpu"
        np.testing.assert_allclose(on_wgpu.cpu().numpy(), on_cpu.numpy(), rtol=1e-5, atol=1e-5)
