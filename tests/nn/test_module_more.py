"""Module methods added with the nn-parity work, against PyTorch's: get_buffer, set_submodule,
to_empty, the state_dict pre/post hooks, extra state and full backward pre-hooks."""

from __future__ import annotations

import numpy as np
import pytest
import torch

import volta
from tests.nn.parity import close, copy_weights, state_layout


def _model(lib: object) -> object:
    return lib.nn.Sequential(lib.nn.Linear(2, 3), lib.nn.Sequential(lib.nn.BatchNorm1d(3)))


def test_get_buffer_and_set_submodule_like_torch() -> None:
    t_model, v_model = _model(torch), _model(volta)
    assert tuple(v_model.get_buffer("1.0.running_mean").shape) == (3,)
    assert v_model.get_buffer("1.0.running_mean") is v_model[1][0].running_mean
    for bad in ("1.0.weight", "1.0.missing", "2.running_mean"):
        with pytest.raises(AttributeError):
            t_model.get_buffer(bad)
        with pytest.raises(AttributeError):
            v_model.get_buffer(bad)
    t_model.set_submodule("1.0", torch.nn.Tanh())
    v_model.set_submodule("1.0", volta.nn.Tanh())
    t_model.set_submodule("1.extra", torch.nn.ReLU())
    v_model.set_submodule("1.extra", volta.nn.ReLU())
    assert repr(v_model) == repr(t_model)
    for call, error in [(lambda m, lib: m.set_submodule("", lib.nn.ReLU()), ValueError),
                        (lambda m, lib: m.set_submodule("0", 3), ValueError),
                        (lambda m, lib: m.set_submodule("0.weight", lib.nn.ReLU()),
                         AttributeError),
                        (lambda m, lib: m.set_submodule("1.new", lib.nn.ReLU(), strict=True),
                         AttributeError)]:
        with pytest.raises(error):
            call(t_model, torch)
        with pytest.raises(error):
            call(v_model, volta)


def test_to_empty_keeps_shapes_dtypes_and_parameters() -> None:
    model = _model(volta).to(volta.float64)
    weight = model[0].weight
    assert model.to_empty(device="cpu") is model
    assert model[0].weight is weight and model[0].weight.dtype == volta.float64
    assert state_layout(model) == state_layout(_model(torch))
    model[1].to_empty(device="cpu", recurse=False)


def test_state_dict_hooks_like_torch() -> None:
    def build(lib: object, calls: list) -> object:
        model = _model(lib)
        model[1].register_state_dict_pre_hook(
            lambda module, prefix, keep_vars: calls.append(("pre", prefix, keep_vars)))

        def post(module: object, state: dict, prefix: str, metadata: dict) -> None:
            calls.append(("post", prefix))
            state[prefix + "note"] = state.pop(prefix + "0.num_batches_tracked")

        model[1].register_state_dict_post_hook(post)
        return model

    t_calls: list = []
    v_calls: list = []
    t_model, v_model = build(torch, t_calls), build(volta, v_calls)
    assert list(v_model.state_dict(keep_vars=True)) == list(t_model.state_dict(keep_vars=True))
    assert v_calls == t_calls == [("pre", "1.", True), ("post", "1.")]
    # loading does not run them: the module's own keys load as they are
    v_model.load_state_dict(volta.nn.Sequential(volta.nn.Linear(2, 3), volta.nn.Sequential(
        volta.nn.BatchNorm1d(3))).state_dict())
    assert len(v_calls) == 2
    returning = _model(volta)
    returning.register_state_dict_post_hook(lambda *args: {})
    with pytest.raises(volta.VoltaError):
        returning.state_dict()


def _with_extra_state(lib: object, loads: bool = True) -> object:
    class Counter(lib.nn.Module):
        def __init__(self) -> None:
            super().__init__()
            self.lin = lib.nn.Linear(2, 2)
            self.steps = 0

        def get_extra_state(self) -> dict:
            return {"steps": self.steps}

        if loads:
            def set_extra_state(self, state: dict) -> None:
                self.steps = state["steps"]

    return lib.nn.Sequential(Counter(), lib.nn.ReLU())


def test_extra_state_like_torch() -> None:
    t_model, v_model = _with_extra_state(torch), _with_extra_state(volta)
    t_model[0].steps = v_model[0].steps = 7
    t_state, v_state = t_model.state_dict(), v_model.state_dict()
    assert list(v_state) == list(t_state) == ["0._extra_state", "0.lin.weight", "0.lin.bias"]
    assert v_state["0._extra_state"] == {"steps": 7}
    fresh_t, fresh_v = _with_extra_state(torch), _with_extra_state(volta)
    fresh_t.load_state_dict(t_state)
    fresh_v.load_state_dict(v_state)
    assert fresh_v[0].steps == fresh_t[0].steps == 7
    without = {k: v for k, v in v_state.items() if k != "0._extra_state"}
    with pytest.raises(volta.VoltaError):
        _with_extra_state(volta).load_state_dict(without)
    result = _with_extra_state(volta).load_state_dict(without, strict=False)
    t_result = _with_extra_state(torch).load_state_dict(
        {k: v for k, v in t_state.items() if k != "0._extra_state"}, strict=False)
    assert result.missing_keys == t_result.missing_keys == ["0._extra_state"]
    # saved but not loadable (no set_extra_state): an unexpected key, as in torch
    t_result = _with_extra_state(torch, loads=False).load_state_dict(t_state, strict=False)
    v_result = _with_extra_state(volta, loads=False).load_state_dict(v_state, strict=False)
    assert v_result.unexpected_keys == t_result.unexpected_keys == ["0._extra_state"]


@pytest.mark.parametrize("with_full_hook", [True, False])
def test_full_backward_pre_hook_like_torch(with_full_hook: bool) -> None:
    def build(lib: object, seen: list) -> object:
        layer = lib.nn.Linear(3, 2).double() if lib is torch else lib.nn.Linear(3, 2).to(
            volta.float64)
        layer.register_full_backward_pre_hook(
            lambda module, grad_output: (grad_output[0] * 2.0,))
        if with_full_hook:
            layer.register_full_backward_hook(
                lambda module, grad_input, grad_output: seen.append(grad_output[0]) or None)
        return layer

    t_seen: list = []
    v_seen: list = []
    t_layer, v_layer = build(torch, t_seen), build(volta, v_seen)
    copy_weights(t_layer, v_layer)
    x = np.random.default_rng(0).standard_normal((4, 3))
    t_in = torch.tensor(x, requires_grad=True)
    v_in = volta.tensor(x, requires_grad=True)
    t_layer(t_in).sum().backward()
    v_layer(v_in).sum().backward()
    close(v_in.grad, t_in.grad, 1e-12, 1e-14)
    close(v_layer.weight.grad, t_layer.weight.grad, 1e-12, 1e-14)
    assert len(v_seen) == len(t_seen) == (1 if with_full_hook else 0)
    for v, t in zip(v_seen, t_seen):
        close(v, t, 0, 0)  # the full hook sees the doubled grad_output
