"""Gradient clipping: ``clip_grad_norm_`` and ``clip_grad_value_``, as in ``torch.nn.utils``."""

from __future__ import annotations

import math
from collections.abc import Iterable

import volta
from volta.errors import InvalidOperationError

Parameters = volta.Tensor | Iterable[volta.Tensor]


def _grads(parameters: Parameters) -> list[volta.Tensor]:
    if isinstance(parameters, volta.Tensor):
        parameters = [parameters]
    return [p.grad for p in parameters if p.grad is not None]


def clip_grad_norm_(parameters: Parameters, max_norm: float, norm_type: float = 2.0,
                    error_if_nonfinite: bool = False, foreach: bool | None = None
                    ) -> volta.Tensor:
    """Scale the gradients in place so that their joint ``norm_type`` norm is at most
    ``max_norm``; returns that norm (before clipping). ``foreach`` is accepted for PyTorch
    compatibility; each gradient is scaled by one op either way."""
    grads = _grads(parameters)
    norm_type = float(norm_type)
    if not grads:
        return volta.tensor(0.0)
    with volta.no_grad():
        norms = [volta.linalg.vector_norm(g, norm_type) for g in grads]
        total = volta.linalg.vector_norm(volta.stack(norms), norm_type)
        if error_if_nonfinite and not bool(volta.isfinite(total).item()):
            raise InvalidOperationError(
                f"The total norm of order {norm_type} for gradients from `parameters` is "
                "non-finite, so it cannot be clipped. To disable this error and scale the "
                "gradients by the non-finite norm anyway, set `error_if_nonfinite=False`")
        coef = volta.clamp(float(max_norm) / (total + 1e-6), max=1.0)
        for g in grads:
            g.mul_(coef.to(dtype=g.dtype))
    return total


def clip_grad_value_(parameters: Parameters, clip_value: float,
                     foreach: bool | None = None) -> None:
    """Clamp every gradient in place to ``[-clip_value, clip_value]``."""
    clip_value = float(clip_value)
    if math.isnan(clip_value):
        raise InvalidOperationError("clip_value must not be nan")
    with volta.no_grad():
        for g in _grads(parameters):
            g.clamp_(-clip_value, clip_value)
