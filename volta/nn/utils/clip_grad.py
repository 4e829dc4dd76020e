"""Gradient clipping, as in ``torch.nn.utils``: ``clip_grad_norm_`` (= ``get_total_norm`` then
``clip_grads_with_norm_``), the deprecated ``clip_grad_norm`` and ``clip_grad_value_``.

``foreach`` is accepted as in PyTorch: volta has no multi-tensor kernels, so ``True`` and
``None`` scale each gradient with one op, exactly as ``False`` does.
"""

from __future__ import annotations

import math
import types
import warnings
from collections.abc import Iterable

import volta
from volta.errors import InvalidOperationError

Parameters = volta.Tensor | Iterable[volta.Tensor]


def _as_list(tensors: Parameters) -> list[volta.Tensor]:
    if isinstance(tensors, volta.Tensor):
        return [tensors]
    return list(tensors)


def _grads(parameters: Parameters) -> list[volta.Tensor]:
    return [p.grad for p in _as_list(parameters) if p.grad is not None]


def get_total_norm(tensors: Parameters, norm_type: float = 2.0,
                   error_if_nonfinite: bool = False, foreach: bool | None = None
                   ) -> volta.Tensor:
    """The ``norm_type`` norm of all ``tensors`` together, as if concatenated into one vector
    (``inf`` for the largest absolute value); ``error_if_nonfinite`` raises when it is nan or
    infinite. An empty list has norm 0."""
    tensors = _as_list(tensors)
    norm_type = float(norm_type)
    if not tensors:
        return volta.tensor(0.0)
    with volta.no_grad():
        device = tensors[0].device
        norms = [volta.linalg.vector_norm(t, norm_type).to(device) for t in tensors]
        total = volta.linalg.vector_norm(volta.stack(norms), norm_type)
        if error_if_nonfinite and not bool(volta.isfinite(total).item()):
            raise InvalidOperationError(
                f"The total norm of order {norm_type} for gradients from `parameters` is "
                "non-finite, so it cannot be clipped. To disable this error and scale the "
                "gradients by the non-finite norm anyway, set `error_if_nonfinite=False`")
    return total


def clip_grads_with_norm_(parameters: Parameters, max_norm: float, total_norm: volta.Tensor,
                          foreach: bool | None = None) -> None:
    """Scales every gradient in place by ``min(1, max_norm / (total_norm + 1e-6))``
    (``total_norm`` as :func:`get_total_norm` gives it)."""
    grads = _grads(parameters)
    if not grads:
        return
    with volta.no_grad():
        coef = volta.clamp(float(max_norm) / (total_norm + 1e-6), max=1.0)
        for g in grads:
            g.mul_(coef.to(device=g.device, dtype=g.dtype))


def clip_grad_norm_(parameters: Parameters, max_norm: float, norm_type: float = 2.0,
                    error_if_nonfinite: bool = False, foreach: bool | None = None
                    ) -> volta.Tensor:
    """Scales the gradients in place so that their joint ``norm_type`` norm is at most
    ``max_norm``; returns that norm (before clipping)."""
    if isinstance(parameters, volta.Tensor):
        parameters = [parameters]
    else:
        is_generator = isinstance(parameters, types.GeneratorType)
        parameters = list(parameters)  # a generator would be spent by the first pass
        if is_generator and not parameters:
            warnings.warn("`parameters` is an empty generator, no gradient clipping will occur.",
                          stacklevel=2)
    total = get_total_norm(_grads(parameters), norm_type, error_if_nonfinite, foreach)
    clip_grads_with_norm_(parameters, max_norm, total, foreach)
    return total


def clip_grad_norm(parameters: Parameters, max_norm: float, norm_type: float = 2.0,
                   error_if_nonfinite: bool = False, foreach: bool | None = None
                   ) -> volta.Tensor:
    """Deprecated spelling of :func:`clip_grad_norm_`."""
    warnings.warn("`volta.nn.utils.clip_grad_norm` is now deprecated in favor of "
                  "`volta.nn.utils.clip_grad_norm_`.", FutureWarning, stacklevel=2)
    return clip_grad_norm_(parameters, max_norm, norm_type, error_if_nonfinite, foreach)


def clip_grad_value_(parameters: Parameters, clip_value: float,
                     foreach: bool | None = None) -> None:
    """Clamp every gradient in place to ``[-clip_value, clip_value]``."""
    clip_value = float(clip_value)
    if math.isnan(clip_value):
        raise InvalidOperationError("clip_value must not be nan")
    with volta.no_grad():
        for g in _grads(parameters):
            g.clamp_(-clip_value, clip_value)
