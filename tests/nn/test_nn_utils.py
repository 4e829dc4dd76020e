"""volta.nn.utils against torch.nn.utils: parameters_to_vector/vector_to_parameters,
get_total_norm/clip_grads_with_norm_/clip_grad_norm_, and the hook-based weight_norm and
spectral_norm (state_dict keys, outputs, gradients and buffers over several SGD steps, remove,
errors)."""

from __future__ import annotations

import warnings
from collections.abc import Callable

import numpy as np
import pytest
import torch

import volta
from tests.nn.parity import close, model_pair, raises_like_torch, state_layout

tu = torch.nn.utils
vu = volta.nn.utils


def _mlp(lib: object) -> object:
    return lib.nn.Sequential(lib.nn.Linear(4, 3), lib.nn.Tanh(), lib.nn.Linear(3, 2))


# -- parameters as one vector --------------------------------------------------------------------

def test_parameters_to_vector_and_back_like_torch() -> None:
    t_model, v_model = model_pair(_mlp)
    t_vec = tu.parameters_to_vector(t_model.parameters())
    v_vec = vu.parameters_to_vector(v_model.parameters())
    close(v_vec, t_vec, 0, 0)
    weights = np.random.default_rng(0).standard_normal(t_vec.shape[0])
    (t_vec * torch.tensor(weights)).sum().backward()
    (v_vec * volta.tensor(weights)).sum().backward()
    for v, t in zip(v_model.parameters(), t_model.parameters()):
        close(v.grad, t.grad, 0, 0)
    new = np.arange(t_vec.shape[0], dtype=np.float64)
    tu.vector_to_parameters(torch.tensor(new), t_model.parameters())
    vu.vector_to_parameters(volta.tensor(new), v_model.parameters())
    for (name, v), t in zip(v_model.named_parameters(), t_model.parameters()):
        assert isinstance(v, volta.nn.Parameter) and v.requires_grad, name
        close(v, t, 0, 0)
    raises_like_torch(lambda lib: lib.nn.utils.vector_to_parameters(
        [1.0], (torch if lib is torch else volta).nn.Linear(1, 1).parameters()))


# -- gradient norms and clipping -----------------------------------------------------------------

def _with_grads() -> tuple:
    t_model, v_model = model_pair(_mlp)
    x = np.random.default_rng(1).standard_normal((5, 4))
    (t_model(torch.tensor(x)) ** 2).sum().backward()
    (v_model(volta.tensor(x)) ** 2).sum().backward()
    return t_model, v_model


@pytest.mark.parametrize("norm_type", [2.0, 1, 3.5, float("inf")])
@pytest.mark.parametrize("foreach", [None, True, False])
@pytest.mark.parametrize("max_norm", [0.1, 1e3])
def test_clip_grad_norm_matches_torch(norm_type: float, foreach: bool | None,
                                      max_norm: float) -> None:
    t_model, v_model = _with_grads()
    t_total = tu.clip_grad_norm_(t_model.parameters(), max_norm, norm_type, foreach=foreach)
    v_total = vu.clip_grad_norm_(v_model.parameters(), max_norm, norm_type, foreach=foreach)
    close(v_total, t_total, 1e-12, 0)
    for v, t in zip(v_model.parameters(), t_model.parameters()):
        close(v.grad, t.grad, 1e-12, 1e-15)


def test_get_total_norm_then_clip_grads_with_norm_like_torch() -> None:
    t_model, v_model = _with_grads()
    t_grads = [p.grad for p in t_model.parameters()]
    v_grads = [p.grad for p in v_model.parameters()]
    t_total = tu.get_total_norm(t_grads, 3.0)
    v_total = vu.get_total_norm(v_grads, 3.0)
    close(v_total, t_total, 1e-12, 0)
    tu.clip_grads_with_norm_(t_model.parameters(), 0.5, t_total)
    vu.clip_grads_with_norm_(v_model.parameters(), 0.5, v_total)
    for v, t in zip(v_model.parameters(), t_model.parameters()):
        close(v.grad, t.grad, 1e-12, 1e-15)
    close(vu.get_total_norm([]), tu.get_total_norm([]), 0, 0)
    close(vu.get_total_norm(v_grads[0]), tu.get_total_norm(t_grads[0]), 1e-12, 0)


def test_clip_grad_norm_errors_and_warnings_like_torch() -> None:
    t_model, v_model = _with_grads()
    with torch.no_grad(), volta.no_grad():
        t_model[0].bias.grad[0] = float("inf")
        v_model[0].bias.grad[0] = float("inf")
    raises_like_torch(lambda lib: lib.nn.utils.clip_grad_norm_(
        (t_model if lib is torch else v_model).parameters(), 1.0, error_if_nonfinite=True))
    with pytest.warns(UserWarning, match="empty generator"):
        vu.clip_grad_norm_((p for p in []), 1.0)
    with pytest.warns(FutureWarning):
        vu.clip_grad_norm(v_model.parameters(), 1.0)


# -- weight_norm (hook-based) --------------------------------------------------------------------

def _sgd_steps(t_model: object, v_model: object, x: np.ndarray, steps: int = 3,
               lr: float = 0.1) -> None:
    """A few forward/backward/SGD steps on both models, comparing outputs and gradients."""
    for _ in range(steps):
        t_out = t_model(torch.tensor(x))
        v_out = v_model(volta.tensor(x))
        close(v_out, t_out, 1e-10, 1e-12)
        (t_out ** 2).sum().backward()
        (v_out ** 2).sum().backward()
        with torch.no_grad(), volta.no_grad():
            for (name, v), t in zip(v_model.named_parameters(), t_model.parameters()):
                close(v.grad, t.grad, 1e-9, 1e-11)
                t -= lr * t.grad
                v -= lr * v.grad
                t.grad = None
                v.grad = None


WEIGHT_NORM_CASES = [
    (lambda lib: lib.nn.Linear(4, 3), 0, (5, 4)),
    (lambda lib: lib.nn.Linear(4, 3), None, (5, 4)),
    (lambda lib: lib.nn.Conv2d(2, 3, 3, padding=1), 0, (2, 2, 5, 5)),
    (lambda lib: lib.nn.Conv2d(2, 3, 3), 1, (2, 2, 5, 5)),
    (lambda lib: lib.nn.ConvTranspose1d(2, 3, 3), -1, (2, 2, 5)),
]


@pytest.mark.parametrize(("build", "dim", "shape"), WEIGHT_NORM_CASES)
def test_weight_norm_matches_torch_over_sgd_steps(build: Callable, dim: int | None,
                                                  shape: tuple) -> None:
    def make(lib: object) -> object:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", FutureWarning)
            return lib.nn.utils.weight_norm(build(lib), dim=dim)

    t_model, v_model = model_pair(make)
    assert state_layout(v_model) == state_layout(t_model)
    assert [n for n, _ in v_model.named_parameters()] == ["bias", "weight_g", "weight_v"]
    assert repr(v_model) == repr(t_model)
    _sgd_steps(t_model, v_model, np.random.default_rng(2).standard_normal(shape))
    tu.remove_weight_norm(t_model)
    vu.remove_weight_norm(v_model)
    assert state_layout(v_model) == state_layout(t_model)
    for v, t in zip(v_model.state_dict().values(), t_model.state_dict().values()):
        close(v, t, 1e-10, 1e-12)
    assert isinstance(v_model.weight, volta.nn.Parameter) and not v_model._forward_pre_hooks


def test_weight_norm_initial_split_and_errors_like_torch() -> None:
    with pytest.warns(FutureWarning):
        layer = vu.weight_norm(volta.nn.Linear(4, 3))
    np.testing.assert_allclose(layer.weight_g.detach().numpy()[:, 0],
                               np.linalg.norm(layer.weight_v.detach().numpy(), axis=1), rtol=1e-6)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", FutureWarning)
        raises_like_torch(lambda lib: lib.nn.utils.weight_norm(
            lib.nn.utils.weight_norm(lib.nn.Linear(2, 2))))
    raises_like_torch(lambda lib: lib.nn.utils.remove_weight_norm(lib.nn.Linear(2, 2)))


# -- spectral_norm (hook-based) ------------------------------------------------------------------

SPECTRAL_CASES = [
    (lambda lib: lib.nn.Linear(4, 3), {}, (5, 4)),
    (lambda lib: lib.nn.Linear(3, 6), {"n_power_iterations": 3, "eps": 1e-6}, (5, 3)),
    (lambda lib: lib.nn.Conv2d(2, 3, 3, padding=1), {}, (2, 2, 4, 4)),
    (lambda lib: lib.nn.ConvTranspose2d(2, 3, 2), {}, (2, 2, 3, 3)),  # dim 1 by default
    (lambda lib: lib.nn.Conv1d(2, 4, 3), {"dim": 2}, (2, 2, 6)),
]


@pytest.mark.parametrize(("build", "kwargs", "shape"), SPECTRAL_CASES)
def test_spectral_norm_matches_torch_over_sgd_steps(build: Callable, kwargs: dict,
                                                    shape: tuple) -> None:
    # _pair copies torch's state_dict, its random weight_u and weight_v buffers included
    t_model, v_model = model_pair(lambda lib: lib.nn.utils.spectral_norm(build(lib), **kwargs))
    assert state_layout(v_model) == state_layout(t_model)
    assert list(v_model.state_dict()) == ["bias", "weight_orig", "weight_u", "weight_v"]
    x = np.random.default_rng(3).standard_normal(shape)
    _sgd_steps(t_model, v_model, x)
    for v, t in zip(v_model.state_dict().values(), t_model.state_dict().values()):
        close(v, t, 1e-9, 1e-11)  # the power-iteration buffers moved alike
    t_model.eval()
    v_model.eval()
    _sgd_steps(t_model, v_model, x, steps=2)  # no power iteration in eval
    for v, t in zip(v_model.state_dict().values(), t_model.state_dict().values()):
        close(v, t, 1e-9, 1e-11)
    tu.remove_spectral_norm(t_model)
    vu.remove_spectral_norm(v_model)
    assert state_layout(v_model) == state_layout(t_model)
    for v, t in zip(v_model.state_dict().values(), t_model.state_dict().values()):
        close(v, t, 1e-9, 1e-11)


def test_spectral_norm_buffers_are_unit_vectors_and_errors_like_torch() -> None:
    layer = vu.spectral_norm(volta.nn.Linear(5, 3))
    assert tuple(layer.weight_u.shape) == (3,) and tuple(layer.weight_v.shape) == (5,)
    np.testing.assert_allclose(np.linalg.norm(layer.weight_u.numpy()), 1.0, rtol=1e-6)
    layer(volta.ones(2, 5))
    sigma = np.linalg.svd(layer.weight_orig.detach().numpy(), compute_uv=False)[0]
    estimate = layer.weight_orig.detach().numpy() / layer.weight.detach().numpy()
    assert 0 < estimate[0, 0] <= sigma * (1 + 1e-5)
    raises_like_torch(lambda lib: lib.nn.utils.spectral_norm(
        lib.nn.utils.spectral_norm(lib.nn.Linear(2, 2))))
    raises_like_torch(lambda lib: lib.nn.utils.spectral_norm(lib.nn.Linear(2, 2),
                                                             n_power_iterations=0))
    raises_like_torch(lambda lib: lib.nn.utils.spectral_norm(lib.nn.Linear(2, 2, bias=False),
                                                             name="bias"))
    raises_like_torch(lambda lib: lib.nn.utils.remove_spectral_norm(lib.nn.Linear(2, 2)))


# -- conv/linear + batch norm fusion -------------------------------------------------------------

def _trained_bn(lib: object, bn: object) -> object:
    """A batch norm with non-trivial running statistics and affine parameters, in eval."""
    with (torch.no_grad() if lib is torch else volta.no_grad()):
        bn.running_mean.copy_(lib.arange(bn.num_features, dtype=lib.float64) * 0.3 - 0.5)
        bn.running_var.copy_(lib.arange(bn.num_features, dtype=lib.float64) * 0.2 + 0.5)
        if bn.weight is not None:
            bn.weight.copy_(lib.arange(bn.num_features, dtype=lib.float64) * -0.4 + 1.2)
            bn.bias.copy_(lib.arange(bn.num_features, dtype=lib.float64) * 0.1)
    return bn.eval()


FUSIONS = [
    (lambda lib: lib.nn.Conv2d(2, 3, 3), lambda lib: lib.nn.BatchNorm2d(3), False, (2, 2, 5, 5)),
    (lambda lib: lib.nn.Conv1d(2, 4, 2, bias=False), lambda lib: lib.nn.BatchNorm1d(4), False,
     (2, 2, 6)),
    (lambda lib: lib.nn.ConvTranspose2d(2, 3, 2), lambda lib: lib.nn.BatchNorm2d(3, affine=False),
     True, (2, 2, 3, 3)),
]


@pytest.mark.parametrize(("conv", "norm", "transpose", "shape"), FUSIONS)
def test_fuse_conv_bn_eval_matches_torch_and_the_unfusedmodel_pair(conv: Callable, norm: Callable,
                                                              transpose: bool,
                                                              shape: tuple) -> None:
    t_conv, v_conv = model_pair(lambda lib: conv(lib).eval())
    t_bn = _trained_bn(torch, norm(torch).double())
    v_bn = _trained_bn(volta, norm(volta).to(volta.float64))
    t_fused = tu.fuse_conv_bn_eval(t_conv, t_bn, transpose)
    v_fused = vu.fuse_conv_bn_eval(v_conv, v_bn, transpose)
    assert v_fused is not v_conv and repr(v_fused) == repr(t_fused)
    assert isinstance(v_fused.weight, volta.nn.Parameter)
    for v, t in zip(v_fused.state_dict().values(), t_fused.state_dict().values()):
        close(v, t, 1e-12, 1e-14)
    x = volta.tensor(np.random.default_rng(4).standard_normal(shape))
    close(v_fused(x), torch.tensor(v_bn(v_conv(x)).detach().numpy()), 1e-10, 1e-12)


def test_fuse_linear_bn_eval_matches_torch_and_rejects_training_mode() -> None:
    t_lin, v_lin = model_pair(lambda lib: lib.nn.Linear(4, 3).eval())
    t_bn = _trained_bn(torch, torch.nn.BatchNorm1d(3).double())
    v_bn = _trained_bn(volta, volta.nn.BatchNorm1d(3).to(volta.float64))
    t_fused = tu.fuse_linear_bn_eval(t_lin, t_bn)
    v_fused = vu.fuse_linear_bn_eval(v_lin, v_bn)
    for v, t in zip(v_fused.state_dict().values(), t_fused.state_dict().values()):
        close(v, t, 1e-12, 1e-14)
    x = volta.tensor(np.random.default_rng(5).standard_normal((5, 4)))
    close(v_fused(x), torch.tensor(v_bn(v_lin(x)).detach().numpy()), 1e-10, 1e-12)
    with pytest.raises(volta.VoltaError):
        vu.fuse_linear_bn_eval(volta.nn.Linear(4, 3), volta.nn.BatchNorm1d(3).eval())
    with pytest.raises(volta.VoltaError):
        vu.fuse_linear_bn_eval(volta.nn.Linear(4, 3).eval(), volta.nn.BatchNorm1d(2).eval())
    with pytest.raises(volta.VoltaError):
        vu.fuse_conv_bn_eval(volta.nn.Conv1d(1, 2, 1).eval(), volta.nn.BatchNorm1d(
            2, track_running_stats=False).eval())


# -- stateless.functional_call -------------------------------------------------------------------

def _tied(lib: object) -> object:
    model = lib.nn.Sequential(lib.nn.Linear(3, 3), lib.nn.Tanh(), lib.nn.Linear(3, 3),
                              lib.nn.BatchNorm1d(3))
    model[2].weight = model[0].weight
    return model


@pytest.mark.parametrize("tie_weights", [True, False])
def test_functional_call_matches_torch_and_restores_the_module(tie_weights: bool) -> None:
    t_model, v_model = model_pair(_tied)
    own = {k: v.clone() for k, v in v_model.state_dict().items()}
    rng = np.random.default_rng(6)
    new_weight = rng.standard_normal((3, 3))
    new_mean = rng.standard_normal(3)
    t_given = {"0.weight": torch.tensor(new_weight, requires_grad=True),
               "3.running_mean": torch.tensor(new_mean)}
    v_given = {"0.weight": volta.tensor(new_weight, requires_grad=True),
               "3.running_mean": volta.tensor(new_mean)}
    x = rng.standard_normal((4, 3))
    with pytest.warns(FutureWarning):
        t_out = tu.stateless.functional_call(t_model, t_given, (torch.tensor(x),),
                                             tie_weights=tie_weights)
    v_out = vu.stateless.functional_call(v_model, v_given, volta.tensor(x),
                                         tie_weights=tie_weights)
    close(v_out, t_out, 1e-10, 1e-12)
    t_out.sum().backward()
    v_out.sum().backward()
    close(v_given["0.weight"].grad, t_given["0.weight"].grad, 1e-10, 1e-12)
    close(v_given["3.running_mean"], t_given["3.running_mean"], 1e-12, 1e-14)  # updated
    assert v_model[2].weight is v_model[0].weight
    # untied, the module's own weight still serves layer 2 and gets its gradient
    close(v_model[0].weight.grad, t_model[0].weight.grad, 1e-10, 1e-12)
    assert (v_model[0].weight.grad is None) == tie_weights
    for key, value in v_model.state_dict().items():
        if key != "3.num_batches_tracked" and not key.startswith("3.running"):
            close(value, torch.tensor(own[key].numpy()), 0, 0)


def test_functional_call_strict_and_tied_conflicts_like_torch() -> None:
    t_model, v_model = model_pair(_tied)
    x = np.ones((2, 3))

    def call(lib: object, given: dict, **kwargs: object) -> object:
        model = t_model if lib is torch else v_model
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", FutureWarning)
            return lib.nn.utils.stateless.functional_call(model, given, lib.tensor(x),
                                                          **kwargs)

    raises_like_torch(lambda lib: call(lib, {"0.weight": lib.ones(3, 3, dtype=lib.float64)},
                                       strict=True))
    raises_like_torch(lambda lib: call(lib, {"0.weight": lib.ones(3, 3, dtype=lib.float64),
                                             "2.weight": lib.zeros(3, 3, dtype=lib.float64)}))
    # state_dict detaches each entry, so the tied names get distinct tensors: untie them
    full_t = dict(t_model.state_dict())
    full_v = dict(v_model.state_dict())
    raises_like_torch(lambda lib: call(lib, full_t if lib is torch else full_v))
    close(call(volta, full_v, strict=True, tie_weights=False),
          call(torch, full_t, strict=True, tie_weights=False), 1e-10, 1e-12)


# -- weight memory formats -----------------------------------------------------------------------

@pytest.mark.parametrize(("dims", "layout"), [(2, "channels_last"), (3, "channels_last_3d")])
def test_convert_conv_weight_memory_format_matches_torch(dims: int, layout: str) -> None:
    def build(lib: object) -> object:
        conv = getattr(lib.nn, f"Conv{dims}d")
        transposed = getattr(lib.nn, f"ConvTranspose{dims}d")
        return lib.nn.Sequential(conv(3, 4, 2), lib.nn.ReLU(),
                                 lib.nn.Sequential(transposed(4, 2, 3)), lib.nn.Conv1d(2, 2, 1))

    t_model, v_model = model_pair(build)
    weight = v_model[0].weight
    convert = f"convert_conv{dims}d_weight_memory_format"
    assert getattr(vu, convert)(v_model, getattr(volta, layout)) is v_model
    getattr(tu, convert)(t_model, getattr(torch, layout))
    assert v_model[0].weight is weight and isinstance(weight, volta.nn.Parameter)
    for v, t in zip(v_model.parameters(), t_model.parameters()):
        assert v.stride() == t.stride()
        close(v, t, 0, 0)
    x = np.random.default_rng(7).standard_normal((1, 3) + (5,) * dims)
    close(v_model[:3](volta.tensor(x)), t_model[:3](torch.tensor(x)), 1e-10, 1e-12)
