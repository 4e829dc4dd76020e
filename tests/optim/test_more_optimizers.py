"""Adadelta, Adamax, NAdam, RAdam, ASGD and Rprop: 20 steps match torch.optim on the same
parameters and gradients, their state dicts have PyTorch's layout and resume exactly, and bad
hyperparameters get PyTorch's messages."""

from __future__ import annotations

import warnings
from typing import Any

import numpy as np
import pytest
import torch

import volta
import volta.optim as optim
from tests.optim.test_optimizers import _check, _pair, _run
from tests.optim.test_update_ops import assert_scratch_device_matches_cpu

CONFIGS = [
    ("Adadelta", dict()),
    ("Adadelta", dict(lr=0.5, rho=0.8, eps=1e-5, weight_decay=0.1)),
    ("Adadelta", dict(lr=0.5, maximize=True)),
    ("Adamax", dict()),
    ("Adamax", dict(lr=0.01, betas=(0.8, 0.9), weight_decay=0.1)),
    ("Adamax", dict(lr=0.01, maximize=True, eps=1e-3)),
    ("NAdam", dict()),
    ("NAdam", dict(lr=0.01, weight_decay=0.1, momentum_decay=0.01)),
    ("NAdam", dict(lr=0.01, weight_decay=0.1, decoupled_weight_decay=True)),
    ("NAdam", dict(lr=0.01, betas=(0.8, 0.99), maximize=True)),
    ("RAdam", dict()),
    ("RAdam", dict(lr=0.01, betas=(0.5, 0.8))),  # rectification starts within the 20 steps
    ("RAdam", dict(lr=0.01, betas=(0.5, 0.8), weight_decay=0.1)),
    ("RAdam", dict(lr=0.01, betas=(0.5, 0.8), weight_decay=0.1, decoupled_weight_decay=True)),
    ("RAdam", dict(lr=0.01, betas=(0.5, 0.8), maximize=True)),
    ("ASGD", dict()),
    ("ASGD", dict(lr=0.05, lambd=0.01, alpha=0.5, t0=5, weight_decay=0.1)),
    ("ASGD", dict(lr=0.05, t0=3, maximize=True)),
    ("Rprop", dict()),
    ("Rprop", dict(lr=0.05, etas=(0.3, 1.5), step_sizes=(1e-3, 0.2))),
    ("Rprop", dict(lr=0.05, maximize=True)),
]
IDS = [f"{n}-{k}" for n, k in CONFIGS]


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize(("name", "kwargs"), CONFIGS, ids=IDS)
def test_twenty_steps_match_torch(name: str, kwargs: dict, dtype: type) -> None:
    vp, vopt, tp, topt = _pair(name, kwargs, dtype)
    _run(vopt, vp, topt, tp, range(20), dtype)
    _check(vp, tp, dtype)


def _state_values_match(ours: dict, theirs: dict) -> None:
    for index, state in ours["state"].items():
        assert state.keys() == theirs["state"][index].keys()
        for key, value in state.items():
            expected = theirs["state"][index][key]
            assert isinstance(value, volta.Tensor) and isinstance(expected, torch.Tensor), key
            assert value.dtype.itemsize == expected.dtype.itemsize, key  # float32 host scalars
            np.testing.assert_allclose(value.numpy(), expected.numpy(), rtol=1e-6, atol=1e-12,
                                       err_msg=key)


@pytest.mark.parametrize(("name", "kwargs"), CONFIGS, ids=IDS)
def test_state_dict_layout_and_round_trip(name: str, kwargs: dict) -> None:
    vp, vopt, tp, topt = _pair(name, kwargs, np.float64)
    _run(vopt, vp, topt, tp, range(10), np.float64)
    saved, torch_saved = vopt.state_dict(), topt.state_dict()
    for ours, theirs in zip(saved["param_groups"], torch_saved["param_groups"], strict=True):
        assert ours == theirs
    assert saved["state"].keys() == torch_saved["state"].keys()
    _state_values_match(saved, torch_saved)
    fresh = [volta.tensor(p.detach().numpy(), requires_grad=True) for p in vp]
    resumed = getattr(optim, name)(fresh, lr=123.0)
    resumed.load_state_dict(saved)
    assert resumed.param_groups[0]["lr"] == saved["param_groups"][0]["lr"]
    _run(vopt, vp, topt, tp, range(10, 20), np.float64)
    _run(resumed, fresh, None, [], range(10, 20), np.float64)
    _check(fresh, tp, np.float64)


def _linear_model_pair(dtype: Any) -> tuple[volta.nn.Module, torch.nn.Module]:
    torch.manual_seed(0)
    reference = torch.nn.Sequential(torch.nn.Linear(4, 8), torch.nn.Tanh(),
                                    torch.nn.Linear(8, 1)).to(dtype)
    model = volta.nn.Sequential(volta.nn.Linear(4, 8), volta.nn.Tanh(), volta.nn.Linear(8, 1)).to(volta.float64)
    model.load_state_dict({k: volta.tensor(v.detach().numpy())
                           for k, v in reference.state_dict().items()})
    return model, reference


@pytest.mark.parametrize(("name", "kwargs"), [("NAdam", dict(lr=0.01, weight_decay=0.01)),
                                              ("RAdam", dict(lr=0.01)), ("ASGD", dict(t0=2)),
                                              ("Rprop", dict()), ("Adadelta", dict()),
                                              ("Adamax", dict())])
def test_training_a_small_model_matches_torch(name: str, kwargs: dict) -> None:
    model, reference = _linear_model_pair(torch.float64)
    rng = np.random.default_rng(3)
    x, y = rng.standard_normal((16, 4)), rng.standard_normal((16, 1))
    vopt = getattr(optim, name)(model.parameters(), **kwargs)
    topt = getattr(torch.optim, name)(reference.parameters(), **kwargs)
    for _ in range(20):
        vopt.zero_grad()
        topt.zero_grad()
        loss = ((model(volta.tensor(x)) - volta.tensor(y)) ** 2).mean()
        loss.backward()
        ((reference(torch.tensor(x)) - torch.tensor(y)) ** 2).mean().backward()
        vopt.step()
        topt.step()
    for (key, value), expected in zip(model.state_dict().items(),
                                      reference.state_dict().values(), strict=True):
        np.testing.assert_allclose(value.numpy(), expected.numpy(), rtol=1e-10, atol=1e-12,
                                   err_msg=key)


BAD = [
    ("Adadelta", dict(lr=-1.0)), ("Adadelta", dict(rho=1.5)), ("Adadelta", dict(eps=-1.0)),
    ("Adadelta", dict(weight_decay=-0.1)),
    ("Adamax", dict(lr=-0.1)), ("Adamax", dict(betas=(1.0, 0.9))),
    ("Adamax", dict(betas=(0.9, -0.1))), ("Adamax", dict(eps=-1.0)),
    ("NAdam", dict(momentum_decay=-1.0)), ("NAdam", dict(betas=(0.9, 1.0))),
    ("RAdam", dict(weight_decay=-1.0)), ("RAdam", dict(lr=-1.0)),
    ("ASGD", dict(lr=-1.0)), ("ASGD", dict(weight_decay=-1.0)),
    ("Rprop", dict(lr=-1.0)), ("Rprop", dict(etas=(1.2, 0.5))), ("Rprop", dict(etas=(0.5, 1.0))),
]


@pytest.mark.parametrize(("name", "kwargs"), BAD, ids=[f"{n}-{k}" for n, k in BAD])
def test_invalid_hyperparameters_raise_like_torch(name: str, kwargs: dict) -> None:
    with pytest.raises(ValueError) as expected:
        getattr(torch.optim, name)([torch.zeros(2, requires_grad=True)], **kwargs)
    with pytest.raises(volta.VoltaError, match=str(expected.value)):
        getattr(optim, name)([volta.zeros(2, requires_grad=True)], **kwargs)


@pytest.mark.parametrize("name", ["Adadelta", "Adamax", "NAdam", "RAdam", "ASGD", "Rprop"])
def test_implementation_switches_default_like_torch(name: str) -> None:
    vopt = getattr(optim, name)([volta.zeros(2, requires_grad=True)])
    topt = getattr(torch.optim, name)([torch.zeros(2, requires_grad=True)])
    theirs = topt.param_groups[0]
    assert {k: v for k, v in vopt.param_groups[0].items() if k != "params"} == {
        k: v for k, v in theirs.items() if k != "params"}
    getattr(optim, name)([volta.zeros(2, requires_grad=True)], foreach=True)
    with pytest.raises(volta.errors.ArgumentError, match="differentiable"):
        getattr(optim, name)([volta.zeros(2, requires_grad=True)], differentiable=True)


WGPU_CONFIGS = [c for i, c in enumerate(CONFIGS) if i in (1, 5, 8, 13, 16, 19)]


@pytest.mark.parametrize(("name", "kwargs"), WGPU_CONFIGS,
                         ids=[f"{n}-{k}" for n, k in WGPU_CONFIGS])
def test_updates_run_on_wgpu_like_on_cpu(name: str, kwargs: dict) -> None:
    """The composite updates run on the device itself (no CPU fallback, which would warn)."""
    assert volta.wgpu.is_available(), "no WebGPU adapter: install mesa-vulkan-drivers"
    start = np.random.default_rng(0).standard_normal((4, 3)).astype(np.float32)
    params = {device: volta.tensor(start, device=device).requires_grad_()
              for device in ("cpu", "wgpu")}
    opts = {device: getattr(optim, name)([p], **kwargs) for device, p in params.items()}
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        for step in range(4):
            grad = np.random.default_rng(step).standard_normal((4, 3)).astype(np.float32)
            for device, p in params.items():
                p.grad = volta.tensor(grad, device=device)
                opts[device].step()
    on_device = params["wgpu"].detach().cpu().numpy()
    assert params["wgpu"].device.type == "wgpu"
    np.testing.assert_allclose(on_device, params["cpu"].detach().numpy(), rtol=1e-5, atol=1e-6)
    for key, value in opts["wgpu"].state[params["wgpu"]].items():
        expected_type = "cpu" if key in opts["wgpu"]._host_scalars else "wgpu"
        assert value.device.type == expected_type, key


@pytest.mark.parametrize(("name", "kwargs"), CONFIGS[1::3], ids=IDS[1::3])
def test_composite_update_on_a_device_without_kernels(scratch_device: Any, name: str,
                                                      kwargs: dict) -> None:
    assert_scratch_device_matches_cpu(name, kwargs)


def _train_across(devices: list[str], name: str, kwargs: dict) -> list[np.ndarray]:
    volta.manual_seed(0)
    model = volta.nn.Sequential(volta.nn.Linear(4, 6), volta.nn.Tanh(), volta.nn.Linear(6, 2))
    optimizer = getattr(optim, name)(model.parameters(), **kwargs)
    rng = np.random.default_rng(1)
    for device in devices:
        model.to(device)
        for _ in range(3):
            x = volta.tensor(rng.standard_normal((8, 4)).astype(np.float32), device=device)
            y = volta.tensor(rng.standard_normal((8, 2)).astype(np.float32), device=device)
            optimizer.zero_grad()
            ((model(x) - y) ** 2).mean().backward()
            optimizer.step()
    return [p.detach().cpu().numpy() for p in model.parameters()]


@pytest.mark.parametrize(("name", "kwargs"), [("NAdam", dict(lr=0.01)), ("ASGD", dict(t0=2)),
                                              ("Rprop", dict()), ("Adamax", dict())])
def test_moving_the_model_mid_training_continues_the_same_run(name: str, kwargs: dict) -> None:
    """CPU, then WGPU, then CPU again ends where CPU alone does: the state follows the
    parameters (host scalars stay on the host)."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        reference = _train_across(["cpu", "cpu", "cpu"], name, kwargs)
        swapped = _train_across(["cpu", "wgpu", "cpu"], name, kwargs)
    for got, want in zip(swapped, reference, strict=True):
        np.testing.assert_allclose(got, want, rtol=1e-4, atol=1e-5)
