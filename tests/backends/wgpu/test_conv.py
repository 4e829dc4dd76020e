"""convolution / convolution_backward on WGPU (implicit-GEMM kernels) against the CPU backend:
conv1d, conv2d and the transposed convolutions (3-D too: per depth tap), with stride, padding,
dilation and groups."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
import pytest

import volta
import volta.nn.functional as F
from tests.backends.wgpu.conftest import assert_same, assert_training_step_stays_on_device

RNG = np.random.default_rng(11)


def _check(fn: Callable[..., volta.Tensor], shapes: list[tuple[int, ...]], wgpu: str) -> None:
    arrays = [RNG.standard_normal(s).astype(np.float32) for s in shapes]
    cpu = [volta.tensor(a, requires_grad=True) for a in arrays]
    gpu = [volta.tensor(a, device=wgpu, requires_grad=True) for a in arrays]
    want, got = fn(*cpu), fn(*gpu)
    assert got.device.type == "wgpu"
    assert_same(got, want, rtol=1e-4, atol=1e-4)
    seed = RNG.standard_normal(tuple(want.shape)).astype(np.float32)
    want.backward(volta.tensor(seed))
    got.backward(volta.tensor(seed, device=wgpu))
    for c, g in zip(cpu, gpu, strict=True):
        assert_same(g.grad, c.grad, rtol=1e-4, atol=1e-4)


@pytest.mark.parametrize("kwargs,shapes", [
    ({}, [(2, 3, 7, 6), (4, 3, 3, 3), (4,)]),
    (dict(stride=2, padding=1, dilation=2), [(2, 3, 9, 8), (4, 3, 3, 2), (4,)]),
    (dict(groups=2, padding=(1, 0)), [(2, 4, 6, 6), (6, 2, 3, 3)]),
    (dict(stride=(1, 2), groups=3), [(1, 3, 5, 7), (3, 1, 2, 2), (3,)]),
])
def test_conv2d(wgpu: str, kwargs: dict, shapes: list) -> None:
    _check(lambda *t: F.conv2d(*t, **kwargs), shapes, wgpu)


@pytest.mark.parametrize("kwargs,shapes", [
    (dict(stride=2, padding=1), [(2, 3, 10), (5, 3, 3), (5,)]),
    (dict(dilation=2, groups=3), [(1, 3, 9), (6, 1, 3)]),
])
def test_conv1d(wgpu: str, kwargs: dict, shapes: list) -> None:
    _check(lambda *t: F.conv1d(*t, **kwargs), shapes, wgpu)


@pytest.mark.parametrize("kwargs,shapes", [
    (dict(stride=2, padding=1, output_padding=1), [(2, 4, 5, 5), (4, 3, 3, 3), (3,)]),
    (dict(groups=2, dilation=2), [(1, 4, 5, 4), (4, 1, 2, 3)]),
])
def test_conv_transpose2d(wgpu: str, kwargs: dict, shapes: list) -> None:
    _check(lambda *t: F.conv_transpose2d(*t, **kwargs), shapes, wgpu)


@pytest.mark.parametrize("kwargs,shapes", [
    ({}, [(2, 4, 3, 5, 4), (4, 3, 3, 2, 3), (3,)]),
    (dict(stride=(2, 1, 2), padding=1, output_padding=(1, 0, 1)),
     [(2, 4, 3, 5, 4), (4, 3, 3, 2, 3), (3,)]),
    (dict(dilation=(2, 1, 1), padding=(2, 0, 1)), [(1, 4, 3, 4, 4), (4, 2, 3, 2, 2)]),
    (dict(groups=2, stride=2, padding=1, output_padding=1),
     [(2, 4, 3, 3, 3), (4, 3, 2, 3, 2), (6,)]),
])
def test_conv_transpose3d_runs_on_the_device(wgpu: str, no_fallback: None, kwargs: dict,
                                             shapes: list) -> None:
    _check(lambda *t: F.conv_transpose3d(*t, **kwargs), shapes, wgpu)


def test_conv_transpose3d_matches_pytorch(wgpu: str, no_fallback: None) -> None:
    import torch
    x = RNG.standard_normal((1, 2, 4, 3, 3)).astype(np.float32)
    w = RNG.standard_normal((2, 3, 2, 3, 3)).astype(np.float32)
    got = F.conv_transpose3d(volta.tensor(x, device=wgpu), volta.tensor(w, device=wgpu),
                             stride=(3, 1, 2), padding=(1, 1, 0), output_padding=(2, 0, 1))
    want = torch.nn.functional.conv_transpose3d(torch.from_numpy(x), torch.from_numpy(w),
                                                stride=(3, 1, 2), padding=(1, 1, 0),
                                                output_padding=(2, 0, 1))
    np.testing.assert_allclose(got.cpu().numpy(), want.numpy(), rtol=1e-4, atol=1e-4)


def test_conv_transpose3d_rejects_a_too_large_output_padding(wgpu: str,
                                                             no_fallback: None) -> None:
    x, w = volta.ones(1, 2, 3, 3, 3, device=wgpu), volta.ones(2, 2, 2, 2, 2, device=wgpu)
    with pytest.raises(volta.VoltaError, match="output padding"):
        F.conv_transpose3d(x, w, stride=2, output_padding=(2, 0, 0))


def test_integer_convolution_keeps_the_cpu_path(wgpu: str, quiet_fallback: None) -> None:
    x = volta.arange(16, dtype=volta.int32).reshape(1, 1, 4, 4)
    w = volta.ones(1, 1, 2, 2, dtype=volta.int32)
    got = volta.convolution(x.to(wgpu), w.to(wgpu), None, (1, 1), (0, 0), (1, 1), False,
                            (0, 0), 1)
    assert got.device.type == "wgpu"
    assert_same(got, volta.convolution(x, w, None, (1, 1), (0, 0), (1, 1), False, (0, 0), 1))


def test_conv_transpose1d(wgpu: str) -> None:
    _check(lambda *t: F.conv_transpose1d(*t, stride=3), [(2, 3, 6), (3, 2, 4), (2,)], wgpu)


def test_conv_of_a_non_contiguous_input(wgpu: str) -> None:
    _check(lambda x, w: F.conv2d(x.transpose(2, 3), w, padding=1),
           [(2, 3, 6, 5), (2, 3, 3, 3)], wgpu)


def test_cnn_training_step_stays_on_the_device(wgpu: str) -> None:
    volta.manual_seed(0)
    model = volta.nn.Sequential(volta.nn.Conv2d(2, 4, 3, padding=1), volta.nn.ReLU(),
                                volta.nn.Flatten(), volta.nn.Linear(4 * 5 * 5, 3)).to(wgpu)
    assert_training_step_stays_on_device(model, volta.randn(6, 2, 5, 5).to(wgpu),
                                         volta.randn(6, 3).to(wgpu))


def test_split_k_weight_gradient(wgpu: str) -> None:
    from volta.backends.wgpu.kernels import conv
    geometry = conv.Conv2dGeometry(64, 2, 8, 8, 3, (3, 3), padding=(1, 1))
    assert conv.conv2d_grad_weight(geometry).split is not None  # K = 64 * 8 * 8 is split
    _check(lambda x, w: F.conv2d(x, w, padding=1), [(64, 2, 8, 8), (3, 2, 3, 3)], wgpu)
