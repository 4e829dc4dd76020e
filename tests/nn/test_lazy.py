"""Lazy layers (LazyLinear, LazyConv*/LazyConvTranspose*, LazyBatchNorm*, LazyInstanceNorm*)
against PyTorch's: repr and state_dict keys before and after the first forward, the class they
become, inferred shapes, outputs and gradients with torch's weights, loading a state_dict into
an uninitialized layer, dtype conversion before the first call, and errors."""

from __future__ import annotations

import copy
from collections.abc import Callable

import numpy as np
import pytest
import torch

import volta
from tests.nn.parity import close, raises_like_torch, state_layout, to_volta

CASES: list[tuple[Callable[[object], object], tuple]] = [
    (lambda lib: lib.nn.LazyLinear(3), (4, 5)),
    (lambda lib: lib.nn.LazyLinear(2, bias=False), (2, 3, 6)),
    (lambda lib: lib.nn.LazyConv1d(4, 3, padding=1), (2, 3, 7)),
    (lambda lib: lib.nn.LazyConv2d(4, 2, groups=2, bias=False), (2, 4, 5, 5)),
    (lambda lib: lib.nn.LazyConv2d(3, 3), (2, 5, 5)),  # unbatched
    (lambda lib: lib.nn.LazyConv3d(2, 2, stride=2), (1, 3, 4, 4, 4)),
    (lambda lib: lib.nn.LazyConvTranspose1d(4, 3, stride=2), (2, 3, 5)),
    (lambda lib: lib.nn.LazyConvTranspose2d(4, 2, groups=2), (2, 4, 3, 3)),
    (lambda lib: lib.nn.LazyConvTranspose3d(2, 2), (1, 2, 3, 3, 3)),
    (lambda lib: lib.nn.LazyBatchNorm1d(), (4, 3)),
    (lambda lib: lib.nn.LazyBatchNorm2d(momentum=None), (2, 3, 4, 4)),
    (lambda lib: lib.nn.LazyBatchNorm3d(affine=False), (2, 3, 2, 2, 2)),
    (lambda lib: lib.nn.LazyInstanceNorm1d(), (2, 3, 5)),
    (lambda lib: lib.nn.LazyInstanceNorm2d(track_running_stats=False), (2, 3, 4, 4)),
    (lambda lib: lib.nn.LazyInstanceNorm3d(affine=False), (2, 3, 2, 3, 2)),
]


def _to64(module: object) -> object:
    return module.double() if isinstance(module, torch.nn.Module) else module.to(volta.float64)


@pytest.mark.parametrize(("build", "shape"), CASES)
def test_lazy_layer_matches_torch(build: Callable, shape: tuple) -> None:
    t_layer, v_layer = _to64(build(torch)), _to64(build(volta))
    assert repr(v_layer) == repr(t_layer)
    assert list(v_layer.state_dict()) == list(t_layer.state_dict())
    assert v_layer.has_uninitialized_params()
    x = np.random.default_rng(0).standard_normal(shape)
    t_layer(torch.tensor(x))
    v_out = v_layer(volta.tensor(x))
    assert type(v_layer) is getattr(volta.nn, type(t_layer).__name__)
    assert v_out.dtype == volta.float64
    assert repr(v_layer) == repr(t_layer)
    assert state_layout(v_layer) == state_layout(t_layer)
    assert not v_layer._forward_pre_hooks
    # now equal weights (and running statistics after that one step), then outputs and grads
    v_layer.load_state_dict({k: to_volta(v) for k, v in t_layer.state_dict().items()})
    t_in = torch.tensor(x, requires_grad=True)
    v_in = to_volta(t_in, requires_grad=True)
    t_out, v_out = t_layer(t_in), v_layer(v_in)
    close(v_out, t_out, 1e-10, 1e-12)
    cotangent = np.random.default_rng(1).standard_normal(tuple(t_out.shape))
    t_out.backward(torch.tensor(cotangent))
    v_out.backward(volta.tensor(cotangent))
    close(v_in.grad, t_in.grad, 1e-10, 1e-12)
    for v, t in zip(v_layer.parameters(), t_layer.parameters()):
        close(v.grad, t.grad, 1e-10, 1e-12)


def test_lazy_linear_initializes_like_linear() -> None:
    layer = volta.nn.LazyLinear(50)
    weight = layer.weight
    layer(volta.ones(2, 16))
    assert layer.weight is weight and isinstance(weight, volta.nn.Parameter)
    assert type(weight) is volta.nn.Parameter and layer.in_features == 16
    values = layer.weight.detach().numpy()
    bound = 1 / np.sqrt(16)  # kaiming_uniform_(a=sqrt(5)) on fan_in 16
    assert np.abs(values).max() <= bound and values.std() > bound / 3


def test_loading_a_state_dict_materializes_a_lazy_layer() -> None:
    torch_layer = torch.nn.Conv2d(3, 4, 2).double()
    layer = volta.nn.LazyConv2d(4, 2).to(volta.float64)
    t_lazy = torch.nn.LazyConv2d(4, 2).double()
    t_lazy.load_state_dict(torch_layer.state_dict())
    layer.load_state_dict({k: to_volta(v) for k, v in torch_layer.state_dict().items()})
    assert tuple(layer.weight.shape) == (4, 3, 2, 2)
    x = np.random.default_rng(2).standard_normal((2, 3, 4, 4))
    close(layer(volta.tensor(x)), t_lazy(torch.tensor(x)), 1e-10, 1e-12)
    # in_channels stays 0: PyTorch only infers it when the first forward materializes
    assert type(layer) is volta.nn.Conv2d and repr(layer) == repr(t_lazy)
    # an uninitialized state loads into an uninitialized layer, not into an initialized one
    lazy_state = volta.nn.LazyLinear(3).state_dict()
    assert isinstance(lazy_state["weight"], volta.nn.UninitializedParameter)
    volta.nn.LazyLinear(3).load_state_dict(lazy_state)
    with pytest.raises(volta.VoltaError):
        volta.nn.Linear(2, 3).load_state_dict(lazy_state)


def test_deepcopy_of_a_lazy_layer_is_independent() -> None:
    # (PyTorch refuses to deep-copy uninitialized buffers; volta copies them)
    layer = volta.nn.LazyBatchNorm1d()
    replica = copy.deepcopy(layer)
    replica(volta.ones(4, 5))
    assert type(replica) is volta.nn.BatchNorm1d and replica.num_features == 5
    assert type(layer) is volta.nn.LazyBatchNorm1d and layer.has_uninitialized_params()
    layer(volta.ones(4, 2))
    assert tuple(layer.running_mean.shape) == (2,)


def test_uninitialized_parameters_refuse_their_shape() -> None:
    param = volta.nn.UninitializedParameter()
    assert repr(param) == "<UninitializedParameter>"
    with pytest.raises(volta.VoltaError):
        param.shape  # noqa: B018
    param.materialize((2, 3))
    assert type(param) is volta.nn.Parameter and tuple(param.shape) == (2, 3)


@pytest.mark.parametrize(("build", "shape"), [
    (lambda lib: lib.nn.LazyConv2d(4, 2, groups=2), (2, 3, 4, 4)),
    (lambda lib: lib.nn.LazyConv2d(4, 2), (2, 3, 4, 4, 4)),
    (lambda lib: lib.nn.LazyConvTranspose1d(4, 2), (3,)),
])
def test_lazy_errors_like_torch(build: Callable, shape: tuple) -> None:
    x = torch.ones(shape)
    raises_like_torch(lambda lib: build(lib)(x if lib is torch else to_volta(x)))
