"""Activation formulas call PyTorch's dedicated backward ops, which are differentiable in turn."""

from __future__ import annotations

import numpy as np
import pytest
import torch

import volta
import volta.nn.functional as F
from volta.autograd import gradcheck, gradgradcheck

CASES = {
    "relu": (F.relu, "ThresholdBackwardBackward"),
    "sigmoid": (volta.sigmoid, "SigmoidBackwardBackward"),
    "tanh": (volta.tanh, "TanhBackwardBackward"),
    "silu": (F.silu, "SiluBackwardBackward"),
    "hardtanh": (lambda t: F.hardtanh(t, -0.5, 0.8), "HardtanhBackwardBackward"),
    "leaky_relu": (lambda t: F.leaky_relu(t, 0.2), "LeakyReluBackwardBackward"),
    "elu": (lambda t: F.elu(t, 1.3), "EluBackwardBackward"),
    "softplus": (lambda t: F.softplus(t, 2.0, 1.0), "SoftplusBackwardBackward"),
    "logsigmoid": (F.logsigmoid, "LogSigmoidBackwardBackward"),
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


BACKWARD_OPS = {  # name -> extra arguments after (grad_output, input-or-result)
    "threshold_backward": (0.2,),
    "sigmoid_backward": (),
    "tanh_backward": (),
    "silu_backward": (),
    "hardtanh_backward": (-0.5, 0.8),
    "leaky_relu_backward": (0.2, False),
    "softplus_backward": (2.0, 1.0),
}


@pytest.mark.parametrize("name", sorted(BACKWARD_OPS))
def test_backward_op_matches_torch(name: str) -> None:
    g = torch.randn(6, dtype=torch.float64)
    x = torch.rand(6, dtype=torch.float64) * 0.8 + 0.1  # sigmoid/tanh take their output
    x = x * torch.tensor([1.0, -1.0] * 3, dtype=torch.float64)
    extra = BACKWARD_OPS[name]
    expected = getattr(torch.ops.aten, name)(g, x, *extra)
    got = getattr(volta, name)(volta.tensor(g.numpy()), volta.tensor(x.numpy()), *extra)
    assert volta.allclose(got, volta.tensor(expected.numpy()))


@pytest.mark.parametrize("is_result", [False, True])
def test_elu_backward_matches_torch_and_has_a_second_derivative(is_result: bool) -> None:
    g = torch.randn(5, dtype=torch.float64)
    x = torch.tensor([-0.5, 0.3, -0.1, 1.2, -0.9], dtype=torch.float64)
    expected = torch.ops.aten.elu_backward(g, 1.3, 1.1, 0.7, is_result, x)
    gv = volta.tensor(g.numpy(), requires_grad=True)
    xv = volta.tensor(x.numpy(), requires_grad=True)
    assert volta.allclose(volta.elu_backward(gv, 1.3, 1.1, 0.7, is_result, xv),
                          volta.tensor(expected.numpy()))
    assert gradcheck(lambda a, b: volta.elu_backward(a, 1.3, 1.1, 0.7, is_result, b), (gv, xv))


@pytest.mark.parametrize("log", [False, True], ids=["softmax", "log_softmax"])
def test_softmax_backward_data_ops(log: bool) -> None:
    name = "_log_softmax_backward_data" if log else "_softmax_backward_data"
    forward = volta.log_softmax if log else volta.softmax
    x = volta.randn(3, 4, dtype=volta.float64, requires_grad=True)
    g = volta.randn(3, 4, dtype=volta.float64, requires_grad=True)
    out = forward(x, 1)
    (gx,) = volta.autograd.grad(out, x, g, create_graph=True)
    assert gx.grad_fn.name() == ("LogSoftmax" if log else "Softmax") + "BackwardDataBackward"
    expected = getattr(torch.ops.aten, name)(
        torch.from_numpy(g.detach().numpy()), torch.from_numpy(out.detach().numpy()), 1,
        torch.float64)
    assert volta.allclose(gx, volta.tensor(expected.numpy()))
    assert gradgradcheck(lambda t: forward(t, 1), (x,))
    assert gradgradcheck(lambda t: forward(t, 0), (volta.randn(5, dtype=volta.float64,
                                                               requires_grad=True),))


@pytest.mark.parametrize("batch,in_features,out_features", [(0, 3, 2), (4, 0, 2), (4, 3, 0)])
def test_linear_backward_with_an_empty_dimension(batch: int, in_features: int,
                                                 out_features: int) -> None:
    # reshape(-1, 0) is ambiguous: the weight gradient of a 0-wide layer once failed there
    x = np.random.default_rng(0).standard_normal((batch, in_features))
    w = np.random.default_rng(1).standard_normal((out_features, in_features))
    vx, vw = (volta.tensor(a, requires_grad=True) for a in (x, w))
    tx, tw = (torch.tensor(a, requires_grad=True) for a in (x, w))
    volta.nn.functional.linear(vx, vw).sum().backward()
    torch.nn.functional.linear(tx, tw).sum().backward()
    np.testing.assert_allclose(vx.grad.numpy(), tx.grad.numpy())
    np.testing.assert_allclose(vw.grad.numpy(), tw.grad.numpy())
