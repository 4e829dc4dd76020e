"""volta.nn.utils.parametrize and .parametrizations against torch's: the injected class and
property, state_dict keys, values, gradients over SGD steps, right_inverse on assignment,
cached(), removal, errors; orthogonal (every map), weight_norm and spectral_norm."""

from __future__ import annotations

import copy
import pickle
from collections.abc import Callable

import numpy as np
import pytest
import torch

import volta
from tests.nn.parity import close, model_pair, raises_like_torch, state_layout

P = volta.nn.utils.parametrize
TP = torch.nn.utils.parametrize


def _symmetric(lib: object) -> object:
    class Symmetric(lib.nn.Module):
        def forward(self, x: object) -> object:
            return x.triu() + x.triu(1).transpose(-1, -2)

        def right_inverse(self, a: object) -> object:
            return a.triu()

    return Symmetric()


def _scaled(lib: object) -> object:
    class Scaled(lib.nn.Module):  # a parametrization with a parameter of its own
        def __init__(self) -> None:
            super().__init__()
            self.scale = lib.nn.Parameter(lib.ones(1) * 1.5)

        def forward(self, x: object) -> object:
            return x * self.scale

    return Scaled()


def _sgd_steps(t_model: object, v_model: object, x: np.ndarray, steps: int = 3) -> None:
    for _ in range(steps):
        t_out = t_model(torch.tensor(x))
        v_out = v_model(volta.tensor(x))
        close(v_out, t_out, 1e-10, 1e-12)
        (t_out ** 2).sum().backward()
        (v_out ** 2).sum().backward()
        t_params = dict(t_model.named_parameters())
        with torch.no_grad(), volta.no_grad():
            for name, v in v_model.named_parameters():
                t = t_params[name]
                close(v.grad, t.grad, 1e-9, 1e-11)
                t -= 0.05 * t.grad
                v -= 0.05 * v.grad
                t.grad = None
                v.grad = None
    for v, t in zip(v_model.state_dict().values(), t_model.state_dict().values()):
        close(v, t, 1e-9, 1e-11)


def _symmetric_linear(lib: object) -> object:
    layer = lib.nn.Linear(3, 3)
    lib.nn.utils.parametrize.register_parametrization(layer, "weight", _symmetric(lib))
    return layer


def test_register_parametrization_matches_torch() -> None:
    t_model, v_model = model_pair(_symmetric_linear, same_layout=True)
    assert type(v_model).__name__ == "ParametrizedLinear"
    assert P.type_before_parametrizations(v_model) is volta.nn.Linear
    assert isinstance(v_model, volta.nn.Linear)
    assert repr(v_model) == repr(t_model)
    assert list(v_model.state_dict()) == ["bias", "parametrizations.weight.original"]
    assert P.is_parametrized(v_model) and P.is_parametrized(v_model, "weight")
    assert not P.is_parametrized(v_model, "bias")
    close(v_model.weight, t_model.weight, 0, 0)
    w = v_model.weight.detach().numpy()
    np.testing.assert_array_equal(w, w.T)
    _sgd_steps(t_model, v_model, np.random.default_rng(0).standard_normal((4, 3)))
    assert type(volta.nn.Linear(2, 2)) is volta.nn.Linear  # the class itself is untouched


def test_chained_parametrizations_and_assignment_like_torch() -> None:
    def build(lib: object) -> object:
        layer = _symmetric_linear(lib)
        lib.nn.utils.parametrize.register_parametrization(layer, "weight", _scaled(lib),
                                                          unsafe=True)
        return layer

    t_model, v_model = model_pair(build, same_layout=True)
    assert repr(v_model) == repr(t_model)
    assert list(v_model.state_dict()) == list(t_model.state_dict())
    _sgd_steps(t_model, v_model, np.random.default_rng(1).standard_normal((2, 3)))
    # assignment runs right_inverse of the chain, last first: Scaled has none
    raises_like_torch(lambda lib: setattr(t_model if lib is torch else v_model, "weight",
                                          lib.zeros(3, 3, dtype=lib.float64)))
    single_t, single_v = model_pair(_symmetric_linear, same_layout=True)
    original = single_v.parametrizations.weight.original
    value = np.random.default_rng(2).standard_normal((3, 3))
    single_t.weight = torch.tensor(value)
    single_v.weight = volta.tensor(value)
    assert single_v.parametrizations.weight.original is original  # the same Parameter
    close(single_v.parametrizations.weight.original, single_t.parametrizations.weight.original,
          0, 0)
    close(single_v.weight, single_t.weight, 0, 0)


def test_cached_computes_once_per_block() -> None:
    layer = _symmetric_linear(volta)
    assert layer.weight is not layer.weight
    with P.cached():
        first = layer.weight
        assert layer.weight is first
        with P.cached():
            assert layer.weight is first
        assert layer.weight is first
    assert layer.weight is not first


@pytest.mark.parametrize("leave_parametrized", [True, False])
def test_remove_parametrizations_like_torch(leave_parametrized: bool) -> None:
    t_model, v_model = model_pair(_symmetric_linear, same_layout=True)
    with torch.no_grad(), volta.no_grad():  # an original that is not symmetric
        t_model.parametrizations.weight.original.add_(torch.arange(9.0).reshape(3, 3))
        v_model.parametrizations.weight.original.add_(volta.arange(9.0).reshape(3, 3))
    original = v_model.parametrizations.weight.original
    TP.remove_parametrizations(t_model, "weight", leave_parametrized)
    P.remove_parametrizations(v_model, "weight", leave_parametrized)
    assert type(v_model) is volta.nn.Linear and not hasattr(v_model, "parametrizations")
    assert v_model.weight is original and isinstance(v_model.weight, volta.nn.Parameter)
    assert state_layout(v_model) == state_layout(t_model)
    assert repr(v_model) == repr(t_model)
    close(v_model.weight, t_model.weight, 0, 0)


def test_parametrizing_a_buffer_and_two_tensors() -> None:
    def build(lib: object) -> object:
        layer = lib.nn.BatchNorm1d(3)
        layer.register_buffer("scale", lib.ones(3, 3))
        lib.nn.utils.parametrize.register_parametrization(layer, "scale", _symmetric(lib))
        lib.nn.utils.parametrize.register_parametrization(layer, "weight", _scaled(lib))
        return layer

    t_model, v_model = model_pair(build, same_layout=True)
    assert list(v_model.state_dict()) == list(t_model.state_dict())
    assert repr(v_model) == repr(t_model)
    P.remove_parametrizations(v_model, "scale")
    TP.remove_parametrizations(t_model, "scale")
    assert P.is_parametrized(v_model) and "scale" in v_model._buffers
    assert list(v_model.state_dict()) == list(t_model.state_dict())


def test_parametrize_errors_like_torch() -> None:
    def shape_changing(lib: object) -> object:
        class Row(lib.nn.Module):
            def forward(self, x: object) -> object:
                return x[0]

        return Row()

    raises_like_torch(lambda lib: lib.nn.utils.parametrize.register_parametrization(
        lib.nn.Linear(2, 2), "missing", _symmetric(lib)))
    raises_like_torch(lambda lib: lib.nn.utils.parametrize.register_parametrization(
        lib.nn.Linear(2, 2), "weight", shape_changing(lib)))
    raises_like_torch(lambda lib: lib.nn.utils.parametrize.register_parametrization(
        _symmetric_linear(lib), "weight", shape_changing(lib)))
    raises_like_torch(lambda lib: lib.nn.utils.parametrize.remove_parametrizations(
        lib.nn.Linear(2, 2), "weight"))
    raises_like_torch(lambda lib: lib.nn.utils.parametrize.remove_parametrizations(
        lib.nn.utils.parametrizations.weight_norm(lib.nn.Linear(2, 2)), "weight",
        leave_parametrized=False))
    layer = P.register_parametrization(volta.nn.Linear(2, 2), "weight", _scaled(volta),
                                       unsafe=True)
    layer.weight  # noqa: B018 - a parametrization without right_inverse still evaluates
    with pytest.raises(volta.VoltaError):
        layer.weight = volta.zeros(2, 2)


# -- parametrizations ----------------------------------------------------------------------------

def _with(parametrization: str, make: Callable[[object], object], **kwargs: object
          ) -> Callable[[object], object]:
    def build(lib: object) -> object:
        return getattr(lib.nn.utils.parametrizations, parametrization)(make(lib), **kwargs)
    return build


WEIGHT_NORM = [
    (lambda lib: lib.nn.Linear(4, 3), {}, (5, 4)),
    (lambda lib: lib.nn.Linear(4, 3), {"dim": None}, (5, 4)),
    (lambda lib: lib.nn.Conv1d(2, 3, 3), {"dim": 1}, (2, 2, 6)),
]


@pytest.mark.parametrize(("make", "kwargs", "shape"), WEIGHT_NORM)
def test_weight_norm_parametrization_matches_torch(make: Callable, kwargs: dict,
                                                   shape: tuple) -> None:
    t_model, v_model = model_pair(_with("weight_norm", make, **kwargs), same_layout=True)
    assert list(v_model.state_dict()) == ["bias", "parametrizations.weight.original0",
                                          "parametrizations.weight.original1"]
    assert repr(v_model) == repr(t_model)
    _sgd_steps(t_model, v_model, np.random.default_rng(3).standard_normal(shape))
    TP.remove_parametrizations(t_model, "weight")
    P.remove_parametrizations(v_model, "weight")
    assert state_layout(v_model) == state_layout(t_model)
    close(v_model.weight, t_model.weight, 1e-10, 1e-12)


SPECTRAL = [
    (lambda lib: lib.nn.Linear(4, 3), {}, (5, 4)),
    (lambda lib: lib.nn.Conv2d(2, 3, 2), {"n_power_iterations": 2}, (2, 2, 3, 3)),
    (lambda lib: lib.nn.ConvTranspose1d(2, 3, 2), {}, (2, 2, 4)),
    (lambda lib: lib.nn.Conv1d(2, 4, 3), {"dim": -1, "eps": 1e-6}, (2, 2, 5)),
]


@pytest.mark.parametrize(("make", "kwargs", "shape"), SPECTRAL)
@pytest.mark.parametrize("training", [True, False])
def test_spectral_norm_parametrization_matches_torch(make: Callable, kwargs: dict,
                                                     shape: tuple, training: bool) -> None:
    # _pair copies torch's buffers _u and _v, drawn at random and iterated 15 times
    t_model, v_model = model_pair(_with("spectral_norm", make, **kwargs), same_layout=True)
    assert list(v_model.state_dict()) == ["bias", "parametrizations.weight.original",
                                          "parametrizations.weight.0._u",
                                          "parametrizations.weight.0._v"]
    assert repr(v_model) == repr(t_model)
    t_model.train(training)
    v_model.train(training)
    _sgd_steps(t_model, v_model, np.random.default_rng(4).standard_normal(shape))


def test_spectral_norm_parametrization_estimates_sigma_and_normalizes_vectors() -> None:
    volta.manual_seed(0)
    layer = volta.nn.utils.parametrizations.spectral_norm(volta.nn.Linear(5, 3))
    weight = layer.parametrizations.weight.original.detach().numpy()
    sigma = np.linalg.svd(weight, compute_uv=False)[0]
    # each training-mode read runs one more power iteration (after the 15 at creation): the
    # estimate converges however close the top two singular values of the random weight are
    for _ in range(200):
        normalized = layer.weight
    np.testing.assert_allclose(np.linalg.svd(normalized.detach().numpy(),
                                             compute_uv=False)[0], 1.0, rtol=1e-3)
    assert sigma > 0
    bias_layer = volta.nn.utils.parametrizations.spectral_norm(volta.nn.Linear(5, 3), "bias")
    np.testing.assert_allclose(np.linalg.norm(bias_layer.bias.detach().numpy()), 1.0, rtol=1e-6)
    raises_like_torch(lambda lib: lib.nn.utils.parametrizations.spectral_norm(
        lib.nn.Linear(2, 2), dim=2))
    raises_like_torch(lambda lib: lib.nn.utils.parametrizations.spectral_norm(
        lib.nn.Linear(2, 2), n_power_iterations=0))


ORTHOGONAL = [
    ((4, 4), {}),
    ((4, 4), {"orthogonal_map": "cayley"}),
    ((4, 4), {"orthogonal_map": "householder"}),
    ((5, 3), {}),  # householder by default
    ((3, 5), {"orthogonal_map": "matrix_exp"}),
    ((5, 3), {"orthogonal_map": "cayley"}),
    ((5, 3), {"orthogonal_map": "householder", "use_trivialization": False}),
    ((3, 5), {"orthogonal_map": "householder", "use_trivialization": False}),
]


@pytest.mark.parametrize(("shape", "kwargs"), ORTHOGONAL)
def test_orthogonal_matches_torch(shape: tuple, kwargs: dict) -> None:
    out_features, in_features = shape
    t_model, v_model = model_pair(_with("orthogonal",
                                   lambda lib: lib.nn.Linear(in_features, out_features,
                                                             dtype=lib.float64),
                                   **kwargs), same_layout=True)
    assert repr(v_model) == repr(t_model)
    weight = v_model.weight.detach().numpy()
    gram = weight.T @ weight if out_features >= in_features else weight @ weight.T
    np.testing.assert_allclose(gram, np.eye(min(shape)), atol=1e-10)
    close(v_model.weight, t_model.weight, 1e-10, 1e-12)
    _sgd_steps(t_model, v_model, np.random.default_rng(5).standard_normal((2, in_features)))


def test_orthogonal_keeps_a_square_orthogonal_start_and_rejects_bad_input_like_torch() -> None:
    q = np.linalg.qr(np.random.default_rng(6).standard_normal((4, 4)))[0]
    layer = volta.nn.Linear(4, 4).double()
    with volta.no_grad():
        layer.weight.copy_(volta.tensor(q))
    volta.nn.utils.parametrizations.orthogonal(layer)
    np.testing.assert_allclose(layer.weight.detach().numpy(), q, atol=1e-12)
    raises_like_torch(lambda lib: lib.nn.utils.parametrizations.orthogonal(
        lib.nn.Linear(2, 2), "bias"))
    raises_like_torch(lambda lib: lib.nn.utils.parametrizations.orthogonal(
        lib.nn.Linear(2, 2), orthogonal_map="qr"))
    raises_like_torch(lambda lib: lib.nn.utils.parametrizations.orthogonal(
        lib.nn.Linear(2, 2), "missing"))


def test_deepcopy_is_independent_and_pickling_is_refused_like_torch() -> None:
    layer = _symmetric_linear(volta)
    replica = copy.deepcopy(layer)
    assert type(replica).__name__ == "ParametrizedLinear"
    assert replica.parametrizations.weight.original is not layer.parametrizations.weight.original
    x = volta.ones(2, 3)
    close(replica(x), torch.tensor(layer(x).detach().numpy()), 0, 0)
    P.remove_parametrizations(replica, "weight")
    assert type(replica) is volta.nn.Linear and P.is_parametrized(layer)
    close(layer.weight, torch.tensor(replica.weight.detach().numpy()), 0, 0)
    raises_like_torch(lambda lib: pickle.dumps(_symmetric_linear(lib)))


def test_transfer_parametrizations_and_params_like_torch() -> None:
    def build(lib: object) -> tuple:
        source = _symmetric_linear(lib)
        lib.nn.utils.parametrize.register_parametrization(source, "bias", _scaled(lib))
        target = lib.nn.Linear(3, 3)
        lib.nn.utils.parametrize.transfer_parametrizations_and_params(source, target)
        return source, target

    torch.manual_seed(0)
    t_source, t_target = build(torch)
    v_source, v_target = build(volta)
    assert repr(v_target) == repr(t_target)
    assert list(v_target.state_dict()) == list(t_target.state_dict())
    assert v_target.parametrizations.weight.original is v_source.parametrizations.weight.original
    assert v_target.parametrizations.bias[0] is v_source.parametrizations.bias[0]
    close(v_target.weight, torch.tensor(v_source.weight.detach().numpy()), 0, 0)
    only = P.transfer_parametrizations_and_params(v_source, volta.nn.Linear(3, 3), "bias")
    assert P.is_parametrized(only, "bias") and not P.is_parametrized(only, "weight")
    two = volta.nn.utils.parametrizations.weight_norm(volta.nn.Linear(3, 2))
    copied = P.transfer_parametrizations_and_params(two, volta.nn.Linear(3, 2))
    assert copied.parametrizations.weight.original1 is two.parametrizations.weight.original1


def test_weight_norm_parametrization_loads_hook_based_checkpoints_like_torch() -> None:
    torch.manual_seed(0)
    with pytest.warns(FutureWarning):
        old = torch.nn.utils.weight_norm(torch.nn.Linear(4, 3)).double()
    checkpoint = old.state_dict()  # bias, weight_g, weight_v
    t_new = torch.nn.utils.parametrizations.weight_norm(torch.nn.Linear(4, 3).double())
    v_new = volta.nn.utils.parametrizations.weight_norm(volta.nn.Linear(4, 3).to(volta.float64))
    v_checkpoint = {k: volta.tensor(v.numpy()) for k, v in checkpoint.items()}
    t_new.load_state_dict(checkpoint)
    v_new.load_state_dict(v_checkpoint)
    assert list(v_checkpoint) == ["bias", "weight_g", "weight_v"]  # the caller's dict is kept
    close(v_new.weight, t_new.weight, 1e-12, 1e-14)
    x = np.random.default_rng(8).standard_normal((2, 4))
    close(v_new(volta.tensor(x)), old(torch.tensor(x)), 1e-12, 1e-14)
    wrapped = volta.nn.Sequential(volta.nn.utils.parametrizations.weight_norm(
        volta.nn.Linear(4, 3).to(volta.float64)))
    wrapped.load_state_dict({f"0.{k}": v for k, v in v_checkpoint.items()})
    close(wrapped[0].weight, t_new.weight, 1e-12, 1e-14)


def test_load_state_dict_pre_hooks_like_torch() -> None:
    calls: list[tuple] = []

    def rename(module: object, state_dict: dict, prefix: str, *rest: object) -> None:
        calls.append((type(module).__name__, prefix))
        if prefix + "w" in state_dict:
            state_dict[prefix + "weight"] = state_dict.pop(prefix + "w")

    t_model = torch.nn.Sequential(torch.nn.Linear(2, 2))
    v_model = volta.nn.Sequential(volta.nn.Linear(2, 2))
    t_model[0].register_load_state_dict_pre_hook(rename)
    handle = v_model[0].register_load_state_dict_pre_hook(rename)
    state = {"0.w": np.ones((2, 2)), "0.bias": np.zeros(2)}
    t_model.load_state_dict({k: torch.tensor(v, dtype=torch.float32) for k, v in state.items()})
    v_model.load_state_dict({k: volta.tensor(v, dtype=volta.float32) for k, v in state.items()})
    assert calls == [("Linear", "0."), ("Linear", "0.")]
    close(v_model[0].weight, t_model[0].weight, 0, 0)
    handle.remove()
    with pytest.raises(volta.VoltaError):  # no hook renames "0.w" any more
        v_model.load_state_dict({k: volta.tensor(v, dtype=volta.float32)
                                 for k, v in state.items()})
    assert len(calls) == 2
