"""Behaviour of issue 8's nn functions that op_db's run does not pin down: fractional max
pooling with fixed window samples (op_db's samples draw them from PyTorch's generator, so it
compares shapes only), unfold/fold round trips and affine_grid (not in op_db)."""

from __future__ import annotations

import numpy as np
import pytest
import torch

import volta
import volta.nn.functional as F


def _pair(array: np.ndarray) -> tuple[volta.Tensor, torch.Tensor]:
    return (volta.tensor(array, requires_grad=True),
            torch.tensor(array, requires_grad=True))


@pytest.mark.parametrize(("shape", "kernel", "out", "dtype"), [
    ((2, 3, 9, 11), (3, 2), (4, 5), np.float64),
    ((3, 10, 7), 2, (5, 3), np.float32),
    ((2, 2, 6, 7, 8), (2, 3, 2), (3, 4, 5), np.float64),
])
def test_fractional_max_pool_with_fixed_samples_matches_torch(shape, kernel, out, dtype) -> None:
    rng = np.random.default_rng(0)
    n = len(out)
    v_x, t_x = _pair(rng.standard_normal(shape).astype(dtype))
    batch = shape[0] if len(shape) == n + 2 else 1
    samples = rng.uniform(size=(batch, shape[-n - 1], n)).astype(dtype)
    v_fn = F.fractional_max_pool2d if n == 2 else F.fractional_max_pool3d
    t_fn = torch.nn.functional.fractional_max_pool2d if n == 2 else \
        torch.nn.functional.fractional_max_pool3d
    v_out, v_idx = v_fn(v_x, kernel, out, return_indices=True,
                        _random_samples=volta.tensor(samples))
    t_out, t_idx = t_fn(t_x, kernel, out, return_indices=True,
                        _random_samples=torch.tensor(samples))
    np.testing.assert_array_equal(v_idx.numpy(), t_idx.numpy())
    np.testing.assert_allclose(v_out.detach().numpy(), t_out.detach().numpy())
    cotangent = rng.standard_normal(t_out.shape).astype(dtype)
    v_out.backward(volta.tensor(cotangent))
    t_out.backward(torch.tensor(cotangent))
    np.testing.assert_allclose(v_x.grad.numpy(), t_x.grad.numpy())


def test_fractional_max_pool_rejects_a_pool_larger_than_the_input_allows() -> None:
    x = volta.randn(1, 1, 5, 5)
    with pytest.raises(volta.VoltaError, match="too large relative to input"):
        F.fractional_max_pool2d(x, 3, output_size=4)


@pytest.mark.parametrize(("kernel", "dilation", "padding", "stride"),
                         [(2, 1, 0, 1), ((3, 2), (1, 2), (1, 0), (2, 1)), (3, 2, 2, 3)])
def test_fold_is_the_adjoint_of_unfold(kernel, dilation, padding, stride) -> None:
    rng = np.random.default_rng(1)
    x = rng.standard_normal((2, 3, 9, 8))
    v_x, t_x = _pair(x)
    v_cols = F.unfold(v_x, kernel, dilation, padding, stride)
    t_cols = torch.nn.functional.unfold(t_x, kernel, dilation, padding, stride)
    np.testing.assert_allclose(v_cols.detach().numpy(), t_cols.detach().numpy())
    cols = rng.standard_normal(tuple(t_cols.shape))
    v_c, t_c = _pair(cols)
    v_img = F.fold(v_c, (9, 8), kernel, dilation, padding, stride)
    t_img = torch.nn.functional.fold(t_c, (9, 8), kernel, dilation, padding, stride)
    np.testing.assert_allclose(v_img.detach().numpy(), t_img.detach().numpy(), atol=1e-12)
    weights = rng.standard_normal(tuple(t_img.shape))
    (v_img * volta.tensor(weights)).sum().backward()
    (t_img * torch.tensor(weights)).sum().backward()
    np.testing.assert_allclose(v_c.grad.numpy(), t_c.grad.numpy(), atol=1e-12)


@pytest.mark.parametrize(("size", "align_corners"),
                         [((2, 3, 4, 5), False), ((2, 1, 1, 3), True), ((1, 2, 3, 4, 2), False),
                          ((1, 2, 2, 3, 4), True)])
def test_affine_grid_matches_torch_and_feeds_grid_sample(size, align_corners) -> None:
    rng = np.random.default_rng(2)
    spatial = len(size) - 2
    theta = rng.standard_normal((size[0], spatial, spatial + 1))
    v_theta, t_theta = _pair(theta)
    v_grid = F.affine_grid(v_theta, size, align_corners)
    t_grid = torch.nn.functional.affine_grid(t_theta, size, align_corners)
    np.testing.assert_allclose(v_grid.detach().numpy(), t_grid.detach().numpy(), atol=1e-12)
    image = rng.standard_normal(size)
    v_out = F.grid_sample(volta.tensor(image), v_grid, align_corners=align_corners)
    t_out = torch.nn.functional.grid_sample(torch.tensor(image), t_grid,
                                            align_corners=align_corners)
    np.testing.assert_allclose(v_out.detach().numpy(), t_out.detach().numpy(), atol=1e-10)
    v_out.sum().backward()
    t_out.sum().backward()
    np.testing.assert_allclose(v_theta.grad.numpy(), t_theta.grad.numpy(), atol=1e-9)


def test_affine_grid_rejects_a_mismatched_theta() -> None:
    with pytest.raises(volta.VoltaError, match="Nx2x3"):
        F.affine_grid(volta.zeros(2, 3, 4), (2, 1, 4, 4), False)
