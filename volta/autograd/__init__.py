"""Autograd: a dispatch key above every backend.

Its kernels (generated from ops.yaml formulas) redispatch below Autograd, then record a backward
node. Ops without formulas either differentiate through their parts (composites) or are passed
through by the Autograd fallback, which refuses to silently drop gradients.
"""

from __future__ import annotations

from typing import Any

from volta.autograd import anomaly, grad_mode
from volta.autograd.anomaly import detect_anomaly, set_detect_anomaly
from volta.autograd.engine import backward, grad
from volta.autograd.function import Function, FunctionCtx, once_differentiable
from volta.autograd.grad_mode import (
    enable_grad,
    inference_mode,
    is_grad_enabled,
    no_grad,
    set_grad_enabled,
)
from volta.autograd.gradcheck import gradcheck, gradgradcheck
from volta.autograd.graph import Node

__all__ = ["backward", "grad", "Function", "FunctionCtx", "Node", "no_grad", "enable_grad",
           "set_grad_enabled", "inference_mode", "is_grad_enabled", "gradcheck",
           "gradgradcheck", "detect_anomaly", "set_detect_anomaly", "once_differentiable",
           "anomaly", "grad_mode", "register"]


class NotDifferentiableBackward(Node):
    """Recorded for an op that has no derivative: fails loudly if a gradient reaches it."""

    __slots__ = ("target",)
    op_name = "?"

    def apply(self, grads: tuple) -> tuple:
        from volta.errors import AutogradError
        raise AutogradError(f"the derivative for '{self.target}' is not implemented")


def _fallback(op: Any, keyset: int, args: tuple, kwargs: dict) -> Any:
    from volta.autograd.graph import connect, set_history
    from volta.dispatch.keys import Autograd
    result = op.redispatch(Autograd, *args)
    if op.info.non_differentiable or "factory" in op.tags:
        return result
    node = NotDifferentiableBackward()
    node.target = op.name
    tensors = tuple(args[i] for i in op.tensor_positions)
    if connect(node, tensors):
        set_history(node, result)
    return result


def register() -> None:
    """Install the generated Autograd kernels and the Autograd fallback (once, at import)."""
    from volta._generated import autograd_nodes
    from volta.dispatch.dispatcher import DISPATCHER
    from volta.dispatch.keys import Autograd
    for name, fn in autograd_nodes.KERNELS.items():
        op = DISPATCHER.find(name)
        DISPATCHER.register_kernel(op, Autograd, fn, "generated (ops.yaml formulas)")
        op.autograd_info = autograd_nodes.NODES.get(name, "inplace")
    DISPATCHER.register_fallback(Autograd, _fallback, "volta.autograd")
