"""Implicit-GEMM conv kernels against PyTorch: forward (with and without bias), grad_input and
grad_weight for strides, padding, dilation, groups, 1x1, conv1d and conv_transpose2d."""

from __future__ import annotations

import numpy as np
import pytest
import torch
import torch.nn.functional as F

from volta.backends.wgpu.kernels import conv
from volta.backends.wgpu.kernels import matmul as mm
from volta.errors import InvalidArgumentError

rng = np.random.default_rng(7)

GEOMETRIES = {
    # name: (batch, C, H, W, OC, kernel, stride, padding, dilation, groups)
    "3x3_pad1": (2, 3, 7, 9, 4, (3, 3), (1, 1), (1, 1), (1, 1), 1),
    "stride2_dilation2_groups2": (1, 4, 9, 8, 6, (3, 2), (2, 1), (1, 0), (1, 2), 2),
    "1x1_groups2": (2, 6, 5, 5, 4, (1, 1), (1, 1), (0, 0), (1, 1), 2),
    "stride3_pad2": (2, 2, 11, 10, 3, (4, 3), (3, 2), (2, 1), (1, 1), 1),
    "depthwise": (1, 4, 6, 6, 4, (3, 3), (1, 1), (1, 1), (1, 1), 4),
    "aligned_tiles": (2, 16, 8, 8, 32, (3, 3), (1, 1), (1, 1), (1, 1), 1),
}
SMALL, MEDIUM = mm.CANDIDATES[-1], mm.CANDIDATES[-2]
# every geometry on the 32x32 tiles; two of them on 64x64 tiles (edge tiles of another shape)
CASES = [(name, SMALL) for name in GEOMETRIES] + [
    ("stride2_dilation2_groups2", MEDIUM), ("aligned_tiles", MEDIUM)]


def randn(*shape: int) -> np.ndarray:
    return rng.standard_normal(shape).astype(np.float32)


def assert_close(actual: np.ndarray, expected: torch.Tensor) -> None:
    np.testing.assert_allclose(actual, expected.detach().numpy(), rtol=1e-4, atol=1e-4)


def check_conv2d(device, g: conv.Conv2dGeometry, config: mm.MatmulConfig) -> None:
    x, w, bias = randn(*g.input_shape), randn(*g.weight_shape), randn(g.out_channels)
    grad_out = randn(*g.output_shape)
    xt, wt = torch.tensor(x, requires_grad=True), torch.tensor(w, requires_grad=True)
    args = (g.stride, g.padding, g.dilation, g.groups)
    expected = F.conv2d(xt, wt, None, *args)
    expected.backward(torch.tensor(grad_out))

    y = np.zeros(g.output_shape, np.float32)
    plain = conv.conv2d_forward(g, config=config)
    assert_close(plain.run(device, [w, x, y]), expected)
    with_bias = conv.conv2d_forward(g, config=config, bias=True)
    assert_close(with_bias.run(device, [w, x, y, bias]),
                 F.conv2d(xt, wt, torch.tensor(bias), *args))
    grad_input = conv.conv2d_grad_input(g, config=config)
    assert_close(grad_input.run(device, [w, grad_out, np.zeros_like(x)]), xt.grad)
    for split_k in (1, 3):  # whole K, and split-K: partial sums + the reduce stage
        grad_weight = conv.conv2d_grad_weight(g, config=config, split_k=split_k)
        assert (grad_weight.split is None) == (split_k == 1)
        assert_close(grad_weight.run(device, [grad_out, x, np.zeros_like(w)]), wt.grad)


@pytest.mark.parametrize("name,config", CASES, ids=[f"{n}-{c.name}" for n, c in CASES])
def test_conv2d_forward_and_backward(device, name: str, config: mm.MatmulConfig) -> None:
    check_conv2d(device, conv.Conv2dGeometry(*GEOMETRIES[name]), config)


def test_aligned_geometry_uses_unchecked_vec4_weights() -> None:
    g = conv.Conv2dGeometry(*GEOMETRIES["aligned_tiles"])
    spec = conv.conv2d_forward(g, config=mm.CANDIDATES[-1]).kernel.spec
    assert spec.aligned and spec.a.vec4  # M=32, N=64, K=144: whole 32x32x16 tiles


def test_conv1d(device) -> None:
    g = conv.Conv2dGeometry.conv1d(2, 4, 19, 6, kernel=5, stride=2, padding=3, dilation=2,
                                   groups=2)
    x, w = randn(2, 4, 19), randn(6, 2, 5)
    launch = conv.conv2d_forward(g)
    out = launch.run(device, [w, x, np.zeros(g.output_shape, np.float32)])
    assert_close(out.reshape(2, 6, -1),
                 F.conv1d(torch.tensor(x), torch.tensor(w), None, 2, 3, 2, 2))


@pytest.mark.parametrize("stride,padding,output_padding,dilation,groups", [
    ((2, 2), (1, 1), (1, 0), (1, 1), 1),
    ((1, 3), (0, 2), (0, 2), (2, 1), 2),
])
def test_conv_transpose2d(device, stride, padding, output_padding, dilation, groups) -> None:
    x, w = randn(2, 4, 5, 6), randn(4, 3, 3, 4)  # weight [C_in, C_out / groups, KH, KW]
    g = conv.Conv2dGeometry.transposed(2, 4, 5, 6, 3 * groups, (3, 4), stride, padding,
                                       output_padding, dilation, groups)
    expected = F.conv_transpose2d(torch.tensor(x), torch.tensor(w), None, stride, padding,
                                  output_padding, groups, dilation)
    assert g.input_shape == tuple(expected.shape)
    out = conv.conv_transpose2d(g).run(device, [w, x, np.zeros(g.input_shape, np.float32)])
    assert_close(out, expected)


def test_grad_weight_splits_long_reductions() -> None:
    """B=32, 64 channels, 128x128: K = 32 * 128 * 128 over a 64 x 576 output."""
    g = conv.Conv2dGeometry(32, 64, 128, 128, 64, (3, 3), padding=(1, 1))
    launch = conv.conv2d_grad_weight(g, config=mm.CANDIDATES[2])
    assert launch.split is not None and launch.split.splits > 16
    assert launch.workgroups[2] == launch.split.splits
    assert launch.split.scratch_elements == launch.split.splits * 64 * 576


def test_kernels_gather_without_im2col() -> None:
    """The patch matrix is never materialised: the B operand is a fetch function."""
    g = conv.Conv2dGeometry(*GEOMETRIES["3x3_pad1"])
    kernel = conv.conv2d_forward(g).kernel
    assert kernel.bindings == ((0, "params", "uniform"), (1, "a", "read-only-storage"),
                               (2, "b", "read-only-storage"), (3, "c", "storage"))
    assert "fn b_fetch(" in kernel.source and "for (" in kernel.source


def test_invalid_geometry() -> None:
    with pytest.raises(InvalidArgumentError, match="divisible by groups"):
        conv.Conv2dGeometry(1, 3, 4, 4, 4, (3, 3), groups=2)
    with pytest.raises(InvalidArgumentError, match="output would be"):
        conv.Conv2dGeometry(1, 3, 2, 2, 4, (3, 3))
    with pytest.raises(InvalidArgumentError, match="output_padding"):
        conv.Conv2dGeometry.transposed(1, 2, 3, 3, 2, (3, 3), stride=(2, 2),
                                       output_padding=(2, 0))
