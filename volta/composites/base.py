"""What every composite module shares: the ``composite`` decorator and the ``COMPOSITES`` table.

A composite is an op of ops.yaml marked ``composite: true``, written with other ops. Each one
takes its schema's arguments positionally, in schema order, and only calls volta ops (``F``, the
operator handles ``R`` and Tensor methods), so every backend runs it and autograd differentiates
it through the ops it calls. ``COMPOSITES`` maps an op's full schema name (``"split.int"``,
``"var.dim"``, ...) to its function.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from volta.errors import RegistrationError
from volta.tensor.tensor import Tensor

Number = int | float | bool

COMPOSITES: dict[str, Callable[..., Any]] = {}


def composite(name: str) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    """Register the decorated function as the composite implementation of op ``name``."""
    def register(fn: Callable[..., Any]) -> Callable[..., Any]:
        if name in COMPOSITES:
            raise RegistrationError(f"composite {name!r} is defined twice")
        COMPOSITES[name] = fn
        return fn
    return register


def _shape(t: Tensor) -> tuple[int, ...]:
    return tuple(t.shape)
