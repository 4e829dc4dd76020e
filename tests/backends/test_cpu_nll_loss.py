"""The fused ``_nll_loss`` / ``_nll_loss_backward`` CPU kernels behind nll_loss and
cross_entropy: loss, gradient and gradient of the gradient match PyTorch for every reduction,
class weights, ignored targets and spatial (N, C, d1, ...) inputs; bad targets raise."""

from __future__ import annotations

import numpy as np
import pytest
import torch

import volta
from volta.errors import IndexOutOfRangeError


def _targets(shape: tuple[int, ...], rng: np.random.Generator) -> np.ndarray:
    classes = shape[0] if len(shape) == 1 else shape[1]
    target_shape = () if len(shape) == 1 else (shape[0], *shape[2:])
    t = rng.integers(0, classes, target_shape)
    if t.ndim:
        t.reshape(-1)[::3] = -100  # some ignored targets
    return t


@pytest.mark.parametrize("weighted", [False, True])
@pytest.mark.parametrize("reduction", ["mean", "sum", "none"])
@pytest.mark.parametrize("shape", [(7, 5), (5,), (4, 3, 2, 3)])
@pytest.mark.parametrize("loss", ["nll_loss", "cross_entropy"])
def test_matches_torch_with_double_backward(loss: str, shape: tuple[int, ...], reduction: str,
                                            weighted: bool) -> None:
    rng = np.random.default_rng(0)
    x = rng.standard_normal(shape)
    t = _targets(shape, rng)
    classes = shape[0] if len(shape) == 1 else shape[1]
    w = rng.random(classes) if weighted else None
    tx = torch.tensor(x, requires_grad=True)
    vx = volta.tensor(x, requires_grad=True)
    tl = getattr(torch.nn.functional, loss)(tx, torch.tensor(t), weight=None if w is None
                                            else torch.tensor(w), reduction=reduction)
    vl = getattr(volta.nn.functional, loss)(vx, volta.tensor(t), weight=None if w is None
                                            else volta.tensor(w), reduction=reduction)
    np.testing.assert_allclose(vl.detach().numpy(), tl.detach().numpy(), rtol=1e-12, atol=1e-12)
    g = rng.standard_normal(tuple(tl.shape))
    (tg,) = torch.autograd.grad(tl, tx, torch.tensor(g), create_graph=True)
    (vg,) = volta.autograd.grad(vl, vx, volta.tensor(g), create_graph=True)
    np.testing.assert_allclose(vg.detach().numpy(), tg.detach().numpy(), rtol=1e-12, atol=1e-12)
    h = rng.standard_normal(shape)
    (tgg,) = torch.autograd.grad((tg * torch.tensor(h)).sum(), tx, allow_unused=True)
    (vgg,) = volta.autograd.grad((vg * volta.tensor(h)).sum(), vx, allow_unused=True)
    expected = np.zeros(shape) if tgg is None else tgg.numpy()
    got = np.zeros(shape) if vgg is None else vgg.numpy()
    np.testing.assert_allclose(got, expected, rtol=1e-12, atol=1e-12)


def test_float32_step_matches_torch() -> None:
    rng = np.random.default_rng(1)
    x = rng.standard_normal((64, 10)).astype(np.float32)
    t = rng.integers(0, 10, 64)
    tx = torch.tensor(x, requires_grad=True)
    vx = volta.tensor(x, requires_grad=True)
    torch.nn.functional.cross_entropy(tx, torch.tensor(t)).backward()
    vl = volta.nn.functional.cross_entropy(vx, volta.tensor(t))
    vl.backward()
    assert vl.dtype is volta.float32
    np.testing.assert_allclose(vx.grad.numpy(), tx.grad.numpy(), rtol=1e-5, atol=1e-7)


def test_all_targets_ignored_mean_is_nan_like_torch() -> None:
    x = np.zeros((3, 4))
    t = np.full(3, -100)
    expected = torch.nn.functional.nll_loss(torch.tensor(x), torch.tensor(t)).item()
    got = volta.nn.functional.nll_loss(volta.tensor(x), volta.tensor(t)).item()
    assert np.isnan(expected) and np.isnan(got)


@pytest.mark.parametrize("bad", [5, -1])
def test_target_out_of_range_raises(bad: int) -> None:
    with pytest.raises(IndexOutOfRangeError, match=f"Target {bad} is out of bounds"):
        volta.nn.functional.nll_loss(volta.zeros(2, 5), volta.tensor([0, bad]))


def test_weight_that_requires_grad_keeps_its_gradient() -> None:
    rng = np.random.default_rng(2)
    x = rng.standard_normal((6, 4))
    t = rng.integers(0, 4, 6)
    w = rng.random(4)
    vw = volta.tensor(w, requires_grad=True)
    volta.nn.functional.nll_loss(volta.tensor(x), volta.tensor(t), weight=vw,
                                 reduction="sum").backward()
    expected = np.zeros(4)
    np.add.at(expected, t, -x[np.arange(6), t])
    np.testing.assert_allclose(vw.grad.numpy(), expected, rtol=1e-12)


@pytest.mark.parametrize("weighted", [False, True])
@pytest.mark.parametrize("reduction", ["mean", "sum", "none"])
@pytest.mark.parametrize("shape", [(7, 5), (5,), (4, 3, 2, 3)])
def test_composites_for_other_backends_match_the_cpu_kernels(shape: tuple[int, ...],
                                                             reduction: str,
                                                             weighted: bool) -> None:
    from volta._generated import registry
    from volta.composites import nn as composites

    rng = np.random.default_rng(3)
    x = volta.tensor(rng.standard_normal(shape))
    t = volta.tensor(_targets(shape, rng))
    classes = shape[0] if len(shape) == 1 else shape[1]
    w = volta.tensor(rng.random(classes)) if weighted else None
    kernel_loss = registry._nll_loss(x, t, w, reduction, -100)
    composite_loss = composites._nll_loss(x, t, w, reduction, -100)
    np.testing.assert_allclose(composite_loss.numpy(), kernel_loss.numpy(), rtol=1e-12)
    g = volta.tensor(rng.standard_normal(tuple(kernel_loss.shape)))
    kernel_grad = registry._nll_loss_backward(g, x, t, w, reduction, -100)
    composite_grad = composites._nll_loss_backward(g, x, t, w, reduction, -100)
    np.testing.assert_allclose(composite_grad.numpy(), kernel_grad.numpy(), rtol=1e-12)


def test_fused_op_rejects_an_unknown_reduction() -> None:
    from volta._generated import registry
    from volta.errors import SchemaError

    with pytest.raises(SchemaError, match="not a valid value for reduction"):
        registry._nll_loss(volta.zeros(2, 3), volta.tensor([0, 1]), None, "avg", -100)
