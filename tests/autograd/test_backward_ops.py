"""Activation formulas call PyTorch's dedicated backward ops, which are differentiable in turn."""

from __future__ import annotations

import pytest

import volta
import volta.nn.functional as F
from volta.autograd import gradcheck, gradgradcheck

CASES = {
    "relu": (F.relu, "ThresholdBackwardBackward"),
    "sigmoid": (volta.sigmoid, "SigmoidBackwardBackward"),
    "tanh": (volta.tanh, "TanhBackwardBackward"),
    "silu": (F.silu, "SiluBackwardBackward"),
    "hardtanh": (lambda t: F.hardtanh(t, -0.5, 0.8), "HardtanhBackwardBackward"),
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_gradient_is_a_dedicated_backward_op_with_its_own_derivative(name: str) -> None:
    fn, node = CASES[name]
    volta.manual_seed(0)
    # away from the kinks of relu/hardtanh, where finite differences are not defined
    x = (volta.rand(7, dtype=volta.float64) * 0.8 + 0.1) * volta.tensor(
        [1, -1, 1, -1, 1, -1, 1], dtype=volta.float64)
    x.requires_grad_()
    (g,) = volta.autograd.grad(fn(x).sum(), x, create_graph=True)
    assert g.grad_fn.name() == node
    assert gradcheck(fn, (x,))
    assert gradgradcheck(fn, (x,))
