"""``volta.nn.init``: gains and fans equal PyTorch's, distributions have the right moments
and bounds, and each layer's default initialisation follows PyTorch's."""

from __future__ import annotations

import math

import pytest
import torch

import volta
from volta.nn import init

SHAPES = [(30, 20), (8, 4, 3, 3), (5, 7, 2), (16, 1, 5)]


@pytest.mark.parametrize("shape", SHAPES)
def test_fans_equal_torch(shape):
    expected = torch.nn.init._calculate_fan_in_and_fan_out(torch.empty(shape))
    assert init._calculate_fan_in_and_fan_out(volta.empty(*shape)) == expected
    with pytest.raises(ValueError):
        init._calculate_fan_in_and_fan_out(volta.empty(3))


@pytest.mark.parametrize("nonlinearity,param", [
    ("linear", None), ("conv2d", None), ("sigmoid", None), ("tanh", None), ("relu", None),
    ("leaky_relu", None), ("leaky_relu", 0.2), ("leaky_relu", math.sqrt(5)), ("selu", None)])
def test_gain_equals_torch(nonlinearity, param):
    assert init.calculate_gain(nonlinearity, param) == pytest.approx(
        torch.nn.init.calculate_gain(nonlinearity, param))


def _std(t: volta.Tensor) -> float:
    return float(t.std())


def test_uniform_normal_constant():
    volta.manual_seed(0)
    t = volta.empty(200, 100)
    init.uniform_(t, -2.0, 3.0)
    assert -2.0 <= float(t.min()) and float(t.max()) < 3.0
    assert float(t.mean()) == pytest.approx(0.5, abs=0.05)
    init.normal_(t, 1.0, 0.5)
    assert float(t.mean()) == pytest.approx(1.0, abs=0.02)
    assert _std(t) == pytest.approx(0.5, rel=0.03)
    assert float(init.constant_(t, 0.25).sum()) == pytest.approx(0.25 * t.numel())
    assert float(init.ones_(t).mean()) == 1.0 and float(init.zeros_(t).abs().sum()) == 0.0


@pytest.mark.parametrize("mode", ["fan_in", "fan_out"])
@pytest.mark.parametrize("shape", [(64, 32, 3, 3), (400, 300)])
def test_kaiming_and_xavier_moments_follow_torch_formulas(shape, mode):
    volta.manual_seed(1)
    t = volta.empty(*shape)
    fan_in, fan_out = torch.nn.init._calculate_fan_in_and_fan_out(torch.empty(shape))
    fan = fan_in if mode == "fan_in" else fan_out
    init.kaiming_normal_(t, mode=mode, nonlinearity="relu")
    assert _std(t) == pytest.approx(math.sqrt(2.0 / fan), rel=0.03)
    init.kaiming_uniform_(t, a=0.1, mode=mode)
    bound = math.sqrt(3.0) * torch.nn.init.calculate_gain("leaky_relu", 0.1) / math.sqrt(fan)
    assert float(t.abs().max()) <= bound
    assert float(t.abs().max()) > 0.98 * bound
    init.xavier_normal_(t, gain=2.0)
    assert _std(t) == pytest.approx(2.0 * math.sqrt(2.0 / (fan_in + fan_out)), rel=0.03)
    init.xavier_uniform_(t)
    bound = math.sqrt(6.0 / (fan_in + fan_out))
    assert bound * 0.98 < float(t.abs().max()) <= bound
    with pytest.raises(ValueError):
        init.kaiming_uniform_(t, mode="fan_avg")


def test_trunc_normal_bounds_and_moments():
    volta.manual_seed(2)
    t = init.trunc_normal_(volta.empty(300, 300), mean=0.5, std=1.0, a=-1.0, b=1.5)
    assert float(t.min()) >= -1.0 and float(t.max()) <= 1.5
    reference = torch.nn.init.trunc_normal_(torch.empty(300, 300), mean=0.5, std=1.0, a=-1.0,
                                            b=1.5, generator=torch.Generator().manual_seed(0))
    assert float(t.mean()) == pytest.approx(float(reference.mean()), abs=0.01)
    assert _std(t) == pytest.approx(float(reference.std()), rel=0.02)


@pytest.mark.parametrize("shape", [(6, 4), (4, 6), (5, 2, 3)])
def test_orthogonal_rows_or_columns_are_orthonormal(shape):
    t = init.orthogonal_(volta.empty(*shape), gain=2.0)
    flat = t.reshape(shape[0], -1)
    small = min(flat.shape)
    gram = flat.t() @ flat if flat.shape[0] >= flat.shape[1] else flat @ flat.t()
    assert float((gram - 4.0 * volta.eye(small)).abs().max()) < 1e-4


def test_init_runs_without_recording_gradients():
    p = volta.nn.Parameter(volta.empty(3, 4))
    for fn in (init.xavier_uniform_, init.kaiming_normal_, init.orthogonal_,
               init.trunc_normal_):
        assert fn(p) is p
        assert p.grad_fn is None and p.is_leaf


def test_layer_default_initialisation_follows_torch():
    volta.manual_seed(3)
    lin = volta.nn.Linear(400, 300)
    bound = 1 / math.sqrt(400)  # kaiming_uniform(a=sqrt(5)) reduces to U(+-1/sqrt(fan_in))
    assert bound * 0.98 < float(lin.weight.abs().max()) <= bound
    assert bound * 0.9 < float(lin.bias.abs().max()) <= bound
    conv = volta.nn.Conv2d(16, 32, 3)
    bound = 1 / math.sqrt(16 * 9)
    assert bound * 0.98 < float(conv.weight.abs().max()) <= bound
    assert float(conv.bias.abs().max()) <= bound
    convt = volta.nn.ConvTranspose2d(16, 32, 3)  # fan_in uses weight.shape[1] like PyTorch
    bound = 1 / math.sqrt(32 * 9)
    assert bound * 0.98 < float(convt.weight.abs().max()) <= bound
    emb = volta.nn.Embedding(500, 64)
    assert _std(emb.weight) == pytest.approx(1.0, rel=0.03)
    bn = volta.nn.BatchNorm2d(5)
    assert float(bn.weight.sum()) == 5 and float(bn.bias.abs().sum()) == 0
    bil = volta.nn.Bilinear(20, 30, 40)
    assert float(bil.weight.abs().max()) <= 1 / math.sqrt(20)
    lin.reset_parameters()  # reinitialises in place
    assert float(lin.weight.abs().max()) <= 1 / math.sqrt(400)
