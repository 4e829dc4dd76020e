"""The remaining torch.nn names against PyTorch: nn.Buffer, Container, NLLLoss2d,
LinearCrossEntropyLoss and AdaptiveLogSoftmaxWithLoss (repr, state_dict layout,
outputs, gradients, errors)."""

from __future__ import annotations

import numpy as np
import pytest
import torch

import volta
from tests.nn.parity import (
    close,
    copy_weights,
    layer_matches_torch,
    raises_like_torch,
    state_layout,
    to_volta,
)


def _floats(*shape: int, seed: int = 0) -> np.ndarray:
    return np.random.default_rng(seed).standard_normal(shape)


# -- nn.Buffer -----------------------------------------------------------------------------------

def _with_buffers(lib: object) -> object:
    class Model(lib.nn.Module):
        def __init__(self) -> None:
            super().__init__()
            self.lin = lib.nn.Linear(2, 2)
            self.kept = lib.nn.Buffer(lib.ones(3))
            self.scratch = lib.nn.Buffer(lib.zeros(2), persistent=False)

    return Model()


def test_buffer_assignment_registers_like_torch() -> None:
    t_model, v_model = _with_buffers(torch), _with_buffers(volta)
    assert [n for n, _ in v_model.named_buffers()] == [n for n, _ in t_model.named_buffers()]
    assert list(v_model.state_dict()) == list(t_model.state_dict())
    assert list(v_model.parameters())[0] is not v_model.kept
    buffer = volta.nn.Buffer(volta.ones(2, requires_grad=True))
    assert isinstance(buffer, volta.nn.Buffer) and buffer.requires_grad
    assert not isinstance(volta.ones(2), volta.nn.Buffer)
    assert type(buffer) is volta.Tensor and buffer.grad_fn is None
    v_model.kept = volta.zeros(3)  # a plain tensor replaces a buffer, staying a buffer
    t_model.kept = torch.zeros(3)
    assert list(v_model.state_dict()) == list(t_model.state_dict())
    v_model.scratch = volta.nn.Buffer(volta.ones(2))  # now persistent
    t_model.scratch = torch.nn.Buffer(torch.ones(2))
    assert list(v_model.state_dict()) == list(t_model.state_dict())
    assert tuple(volta.nn.Buffer().shape) == (0,)
    raises_like_torch(lambda lib: setattr(lib.nn.Linear(1, 1), "weight",
                                          lib.nn.Buffer(lib.ones(1))))


# -- deprecated aliases --------------------------------------------------------------------------

def test_container_and_nll_loss_2d_are_deprecated_aliases_like_torch() -> None:
    with pytest.warns(FutureWarning):
        container = volta.nn.Container(a=volta.nn.Linear(2, 3), b=volta.nn.ReLU())
    with pytest.warns(FutureWarning):
        t_container = torch.nn.Container(a=torch.nn.Linear(2, 3), b=torch.nn.ReLU())
    assert repr(container).replace("volta", "torch") == repr(t_container)
    assert state_layout(container) == state_layout(t_container)
    log_probs = np.log(np.random.default_rng(0).dirichlet(np.ones(3), size=(2, 4, 5)))
    log_probs = log_probs.transpose(0, 3, 1, 2).copy()
    target = np.random.default_rng(1).integers(0, 3, (2, 4, 5))
    with pytest.warns(FutureWarning):
        loss = volta.nn.NLLLoss2d(ignore_index=1)
    with pytest.warns(FutureWarning):
        t_loss = torch.nn.NLLLoss2d(ignore_index=1)
    assert repr(loss) == repr(t_loss) and isinstance(loss, volta.nn.NLLLoss)
    close(loss(volta.tensor(log_probs), volta.tensor(target)),
          t_loss(torch.tensor(log_probs), torch.tensor(target)), 1e-12, 0)


# -- LinearCrossEntropyLoss ----------------------------------------------------------------------

@pytest.mark.parametrize("kwargs", [
    {}, {"bias": True, "reduction": "sum", "label_smoothing": 0.1},
    {"ignore_index": 2, "reduction": "none"},
])
def test_linear_cross_entropy_loss_matches_torch(kwargs: dict) -> None:
    target = np.random.default_rng(2).integers(0, 5, 6)
    layer_matches_torch("LinearCrossEntropyLoss", (4, 5), kwargs, [_floats(6, 4), target])


def test_linear_cross_entropy_loss_k_dimensional_and_errors_like_torch() -> None:
    target = np.random.default_rng(3).integers(0, 5, (6, 2))
    layer_matches_torch("LinearCrossEntropyLoss", (4, 5), {"out_features": (2,), "bias": True},
                        [_floats(6, 4), target])
    raises_like_torch(lambda lib: lib.nn.LinearCrossEntropyLoss(4, 5, weight=lib.ones(4)))
    raises_like_torch(lambda lib: lib.nn.LinearCrossEntropyLoss(4, 5, label_smoothing=1.5))


# -- AdaptiveLogSoftmaxWithLoss ------------------------------------------------------------------

def _adaptive(lib: object, **kwargs: object) -> object:
    return lib.nn.AdaptiveLogSoftmaxWithLoss(16, 10, [3, 6], **kwargs)


@pytest.mark.parametrize("kwargs", [{}, {"div_value": 2.0, "head_bias": True}])
def test_adaptive_log_softmax_matches_torch(kwargs: dict) -> None:
    torch.manual_seed(0)
    t_layer = _adaptive(torch, **kwargs).double()
    v_layer = _adaptive(volta, **kwargs).to(volta.float64)
    assert repr(v_layer) == repr(t_layer)
    assert state_layout(v_layer) == state_layout(t_layer)
    copy_weights(t_layer, v_layer)
    x = _floats(7, 16)
    target = np.array([0, 9, 4, 2, 6, 5, 8])
    t_in = torch.tensor(x, requires_grad=True)
    v_in = to_volta(t_in, requires_grad=True)
    t_out, t_loss = t_layer(t_in, torch.tensor(target))
    v_out, v_loss = v_layer(v_in, volta.tensor(target))
    close(v_out, t_out, 1e-12, 1e-12)
    close(v_loss, t_loss, 1e-12, 1e-12)
    (t_loss + t_out[1]).backward()
    (v_loss + v_out[1]).backward()
    close(v_in.grad, t_in.grad, 1e-10, 1e-12)
    for v, t in zip(v_layer.parameters(), t_layer.parameters()):
        close(v.grad, t.grad, 1e-10, 1e-12)
    with torch.no_grad(), volta.no_grad():
        close(v_layer.log_prob(volta.tensor(x)), t_layer.log_prob(torch.tensor(x)), 1e-12, 1e-12)
        for scale in (1.0, 30.0):  # large inputs push some rows' best guess into a cluster
            np.testing.assert_array_equal(v_layer.predict(volta.tensor(x * scale)).numpy(),
                                          t_layer.predict(torch.tensor(x * scale)).numpy())
        t_single = t_layer(torch.tensor(x[0]), torch.tensor(target[1]))
        v_single = v_layer(volta.tensor(x[0]), volta.tensor(target[1]))
        assert tuple(v_single.output.shape) == tuple(t_single.output.shape) == ()
        close(v_single.output, t_single.output, 1e-12, 1e-12)


@pytest.mark.parametrize("bad", [
    lambda lib: lib.nn.AdaptiveLogSoftmaxWithLoss(8, 10, []),
    lambda lib: lib.nn.AdaptiveLogSoftmaxWithLoss(8, 10, [5, 3]),
    lambda lib: lib.nn.AdaptiveLogSoftmaxWithLoss(8, 10, [3, 10]),
    lambda lib: _adaptive(lib)(lib.ones(3, 16), lib.tensor([0, 1, 10])),
    lambda lib: _adaptive(lib)(lib.ones(3, 16), lib.tensor([0, 1])),
    lambda lib: _adaptive(lib)(lib.ones(3, 16), lib.tensor([[0, 1]])),
    lambda lib: _adaptive(lib)(lib.ones(3, 16), lib.tensor(1)),
])
def test_adaptive_log_softmax_errors_like_torch(bad: object) -> None:
    raises_like_torch(bad)


# -- DataParallel --------------------------------------------------------------------------------

def test_data_parallel_wraps_like_torch_without_accelerators() -> None:
    def build(lib: object) -> object:
        return lib.nn.DataParallel(lib.nn.Sequential(lib.nn.Linear(4, 3), lib.nn.Tanh()))

    torch.manual_seed(0)
    t_model = build(torch).double()
    v_model = build(volta).to(volta.float64)
    assert repr(v_model) == repr(t_model)
    assert v_model.device_ids == t_model.device_ids == []
    assert state_layout(v_model) == state_layout(t_model)  # "module.0.weight"...
    copy_weights(t_model, v_model)
    x = _floats(5, 4)
    close(v_model(volta.tensor(x)), t_model(torch.tensor(x)), 1e-12, 1e-12)
    assert volta.nn.parallel.DataParallel is volta.nn.DataParallel
