"""``parameters_to_vector`` and ``vector_to_parameters``: a model's parameters as one flat
vector and back, as in ``torch.nn.utils``."""

from __future__ import annotations

from collections.abc import Iterable

import volta
from volta.errors import ArgumentError


def _same_device(param: volta.Tensor, device: volta.device | None) -> volta.device:
    if device is not None and param.device != device:
        raise ArgumentError("Found two parameters on different devices, this is currently not "
                            "supported.")
    return param.device


def parameters_to_vector(parameters: Iterable[volta.Tensor]) -> volta.Tensor:
    """The parameters flattened and concatenated in order (differentiable: the vector's
    gradient flows back to them). They must all be on one device."""
    device = None
    flat = []
    for param in parameters:
        device = _same_device(param, device)
        flat.append(param.view(-1))
    return volta.cat(flat)


def vector_to_parameters(vec: volta.Tensor, parameters: Iterable[volta.Tensor]) -> None:
    """Makes each parameter look at its consecutive slice of ``vec`` (reshaped to its shape),
    as ``param.data = ...`` does: the parameters then share ``vec``'s memory."""
    if not isinstance(vec, volta.Tensor):
        raise ArgumentError(f"expected volta.Tensor, but got: {type(vec).__name__}")
    device = None
    start = 0
    for param in parameters:
        device = _same_device(param, device)
        count = param.numel()
        param.data = vec[start:start + count].view_as(param).data
        start += count
