"""PyTorch-parity helpers for the ``volta.nn`` tests: copy weights, run both, compare."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
import pytest
import torch

import volta


def to_volta(t: torch.Tensor, requires_grad: bool = False) -> volta.Tensor:
    v = volta.tensor(t.detach().numpy())
    return v.requires_grad_() if requires_grad else v


def copy_weights(torch_module: torch.nn.Module, volta_module: volta.nn.Module) -> None:
    """Loads ``torch_module``'s state_dict into ``volta_module`` (strict)."""
    volta_module.load_state_dict({k: to_volta(v) for k, v in torch_module.state_dict().items()})


def model_pair(build: Callable[[Any], Any], same_layout: bool = False) -> tuple[Any, Any]:
    """The same model built in torch and volta (float64), torch's initial weights copied into
    volta's; ``same_layout`` also asserts equal state_dict layouts."""
    torch.manual_seed(0)
    t_model = build(torch).double()
    v_model = build(volta).to(volta.float64)
    if same_layout:
        assert state_layout(v_model) == state_layout(t_model)
    copy_weights(t_model, v_model)
    return t_model, v_model


def close(v: volta.Tensor | None, t: torch.Tensor | None, rtol: float = 1e-5,
          atol: float = 1e-5) -> None:
    assert (v is None) == (t is None), (v, t)
    if t is not None:
        np.testing.assert_allclose(v.detach().numpy(), t.detach().numpy(), rtol=rtol, atol=atol)


def state_layout(module: torch.nn.Module | volta.nn.Module) -> list[tuple[str, tuple]]:
    return [(k, tuple(v.shape)) for k, v in module.state_dict().items()]


def raises_like_torch(call: Callable[[Any], Any]) -> None:
    """``call(torch)`` raises a torch error and ``call(volta)`` a VoltaError."""
    with pytest.raises(Exception) as torch_error:
        call(torch)
    assert not isinstance(torch_error.value, volta.VoltaError)
    with pytest.raises(volta.VoltaError):
        call(volta)


def layer_matches_torch(name: str, args: tuple, kwargs: dict, inputs: list[np.ndarray],
                        training: bool = True, rtol: float = 1e-7, atol: float = 1e-9,
                        single: bool = False) -> None:
    """``torch.nn.<name>`` and ``volta.nn.<name>`` built alike, in float64 (float32 with
    ``single``), with the torch layer's weights: same repr, state_dict layout, outputs and
    gradients (floating inputs require grad; other arrays go in as they are)."""
    torch.manual_seed(0)
    t_layer = getattr(torch.nn, name)(*args, **kwargs).train(training)
    v_layer = getattr(volta.nn, name)(*args, **kwargs).train(training)
    if not single:
        t_layer, v_layer = t_layer.double(), v_layer.to(volta.float64)
    assert repr(v_layer) == repr(t_layer)
    assert state_layout(v_layer) == state_layout(t_layer)
    copy_weights(t_layer, v_layer)
    floating = np.float32 if single else np.float64
    t_in = [torch.tensor(a.astype(floating) if a.dtype.kind == "f" else a,
                         requires_grad=a.dtype.kind == "f") for a in inputs]
    v_in = [to_volta(t, requires_grad=t.requires_grad) for t in t_in]
    t_out = t_layer(*t_in)
    v_out = v_layer(*v_in)
    close(v_out, t_out, rtol, atol)
    cotangent = np.random.default_rng(1).standard_normal(tuple(t_out.shape))
    t_out.backward(torch.tensor(cotangent))
    v_out.backward(volta.tensor(cotangent))
    for v, t in zip(v_in, t_in):
        if t.requires_grad:
            close(v.grad, t.grad, rtol, atol)
    assert [n for n, _ in v_layer.named_parameters()] == [n for n, _ in t_layer.named_parameters()]
    for v, t in zip(v_layer.parameters(), t_layer.parameters()):
        close(v.grad, t.grad, rtol, atol)
    for (key, v), t in zip(v_layer.state_dict().items(), t_layer.state_dict().values()):
        close(v, t, rtol, atol)  # running statistics updated alike
