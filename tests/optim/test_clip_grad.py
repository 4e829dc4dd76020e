"""volta.nn.utils.clip_grad_norm_ / clip_grad_value_ against torch.nn.utils."""

from __future__ import annotations

import math

import numpy as np
import pytest
import torch

import volta
from volta.nn.utils import clip_grad_norm_, clip_grad_value_

SHAPES = [(4, 3), (5,), (2, 2, 2)]


def _pairs(scale: float) -> tuple[list, list]:
    rng = np.random.default_rng(1)
    grads = [rng.standard_normal(s) * scale for s in SHAPES]
    vp, tp = [], []
    for g in grads:
        v = volta.zeros(g.shape, dtype=volta.float64, requires_grad=True)
        v.grad = volta.tensor(g)
        t = torch.zeros(g.shape, dtype=torch.float64, requires_grad=True)
        t.grad = torch.tensor(g)
        vp.append(v)
        tp.append(t)
    vp.append(volta.zeros(2, requires_grad=True))  # a parameter without a grad is skipped
    tp.append(torch.zeros(2, requires_grad=True))
    return vp, tp


@pytest.mark.parametrize("norm_type", [2.0, 1.0, 3, math.inf])
@pytest.mark.parametrize(("scale", "max_norm"), [(1.0, 0.5), (0.01, 10.0)])
def test_clip_grad_norm_matches_torch(norm_type: float, scale: float, max_norm: float) -> None:
    vp, tp = _pairs(scale)
    total = clip_grad_norm_(vp, max_norm, norm_type=norm_type)
    expected = torch.nn.utils.clip_grad_norm_(tp, max_norm, norm_type=norm_type)
    assert float(total.item()) == pytest.approx(float(expected), rel=1e-12)
    for v, t in zip(vp[:-1], tp[:-1], strict=True):
        np.testing.assert_allclose(v.grad.numpy(), t.grad.numpy(), rtol=1e-12)
    assert vp[-1].grad is None


@pytest.mark.filterwarnings("ignore:invalid value encountered")  # inf * 0, as torch computes it
def test_clip_grad_norm_nonfinite() -> None:
    w = volta.zeros(2, dtype=volta.float64, requires_grad=True)
    w.grad = volta.tensor([math.inf, 1.0])
    with pytest.raises(volta.errors.VoltaError, match="non-finite"):
        clip_grad_norm_([w], 1.0, error_if_nonfinite=True)
    assert float(clip_grad_norm_(w, 1.0).item()) == math.inf
    assert float(clip_grad_norm_([], 1.0).item()) == 0.0


def test_clip_grad_value_matches_torch() -> None:
    vp, tp = _pairs(2.0)
    clip_grad_value_(vp, 0.7)
    torch.nn.utils.clip_grad_value_(tp, 0.7)
    for v, t in zip(vp[:-1], tp[:-1], strict=True):
        np.testing.assert_array_equal(v.grad.numpy(), t.grad.numpy())
