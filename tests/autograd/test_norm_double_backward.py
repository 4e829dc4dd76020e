"""Second derivatives of batch/layer/group norm from the saved statistics
(Note [Norm double backward]), checked numerically in float64."""

from __future__ import annotations

import pytest

import volta
import volta.nn.functional as F
from volta.autograd import gradgradcheck


def _inputs(shape, channels, weight):
    volta.manual_seed(0)
    x = volta.randn(*shape, dtype=volta.float64, requires_grad=True)
    w = b = None
    if weight:
        w = (volta.rand(channels, dtype=volta.float64) + 0.5).requires_grad_()
        b = volta.randn(channels, dtype=volta.float64, requires_grad=True)
    return x, w, b


@pytest.mark.parametrize("weight", [True, False], ids=["affine", "plain"])
@pytest.mark.parametrize("shape", [(3, 4, 5), (2, 6)])
def test_layer_norm(shape, weight):
    x, w, b = _inputs(shape, shape[-1], weight)
    args = (x,) if w is None else (x, w, b)

    def f(x, w=None, b=None):
        return F.layer_norm(x, (shape[-1],), w, b)

    assert gradgradcheck(f, args)
    if len(shape) == 3:
        assert gradgradcheck(lambda x: F.layer_norm(x, shape[1:]), (x,))


@pytest.mark.parametrize("weight", [True, False], ids=["affine", "plain"])
def test_group_norm(weight):
    x, w, b = _inputs((2, 6, 3), 6, weight)
    args = (x,) if w is None else (x, w, b)
    assert gradgradcheck(lambda x, w=None, b=None: F.group_norm(x, 3, w, b), args)


@pytest.mark.parametrize("training", [True, False], ids=["train", "eval"])
@pytest.mark.parametrize("weight", [True, False], ids=["affine", "plain"])
def test_batch_norm(training, weight):
    x, w, b = _inputs((4, 3, 2), 3, weight)
    rm = volta.randn(3, dtype=volta.float64) * 0.1
    rv = volta.rand(3, dtype=volta.float64) + 0.5
    args = (x,) if w is None else (x, w, b)

    def f(x, w=None, b=None):
        # fresh running stats each call: training mode updates them in place
        return F.batch_norm(x, rm.clone(), rv.clone(), w, b, training=training)

    assert gradgradcheck(f, args)


def test_no_forward_recomputed():
    x, w, b = _inputs((3, 4), 4, True)
    y = F.layer_norm(x, (4,), w, b)
    (gx,) = volta.autograd.grad((y * y).sum(), x, create_graph=True)
    node = gx.grad_fn
    assert node.name() == "NativeLayerNormBackwardBackward"
    # its double backward reads the saved statistics, not a re-run of the layer
    assert hasattr(node, "s_mean") and hasattr(node, "s_rstd")


@pytest.mark.parametrize("norm", ["layer", "group", "batch_train", "batch_eval"])
def test_only_the_bias_gradient_differentiated(norm):
    x, w, b = _inputs((4, 6, 3), 6, True)
    layers = {
        "layer": lambda: F.layer_norm(x.transpose(1, 2), (6,), w, b),
        "group": lambda: F.group_norm(x, 2, w, b),
        "batch_train": lambda: F.batch_norm(x, None, None, w, b, training=True),
        "batch_eval": lambda: F.batch_norm(x, volta.zeros(6, dtype=volta.float64),
                                           volta.ones(6, dtype=volta.float64), w, b),
    }
    y = layers[norm]()
    gy = volta.randn(*y.shape, dtype=volta.float64, requires_grad=True)
    (gb,) = volta.autograd.grad(y, b, gy, create_graph=True)
    (ggy,) = volta.autograd.grad((gb * volta.arange(6, dtype=volta.float64)).sum(), gy)
    expected = volta.arange(6, dtype=volta.float64).expand(*y.shape) if norm == "layer" else (
        volta.arange(6, dtype=volta.float64).reshape(1, 6, 1).expand(*y.shape))
    assert volta.allclose(ggy, expected)
