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
