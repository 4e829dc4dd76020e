"""Autograd: a dispatch key above every backend.

Its kernels (generated from ops.yaml formulas) redispatch below Autograd, then record a backward
node. Ops without formulas either differentiate through their parts (composites) or are passed
through by the Autograd fallback, which refuses to silently drop gradients.
"""

from __future__ import annotations

from typing import Any

from volta.autograd import anomaly, functional, grad_mode
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
from volta.autograd.graph import Node, connect, set_history
from volta.dispatch.dispatcher import DISPATCHER
from volta.dispatch.keys import Autograd
from volta.errors import AutogradError

__all__ = ["backward", "grad", "Function", "FunctionCtx", "Node", "no_grad", "enable_grad",
           "set_grad_enabled", "inference_mode", "is_grad_enabled", "gradcheck",
           "gradgradcheck", "detect_anomaly", "set_detect_anomaly", "once_differentiable",
           "anomaly", "functional", "grad_mode", "register"]


class NotDifferentiableBackward(Node):
    """Recorded for an op that has no derivative: fails loudly if a gradient reaches it."""

    __slots__ = ("target",)
    op_name = "?"

    def apply(self, grads: tuple) -> tuple:
        raise AutogradError(f"the derivative for '{self.target}' is not implemented")


def _fallback(op: Any, keyset: int, args: tuple, kwargs: dict) -> Any:
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
    # imported here: the generated nodes import volta.autograd.formulas, so importing them at
    # the top would make this package and the generated module wait on each other
    from volta._generated import autograd_nodes
    for name, fn in autograd_nodes.KERNELS.items():
        op = DISPATCHER.find(name)
        DISPATCHER.register_kernel(op, Autograd, fn, "generated (ops.yaml formulas)")
        op.autograd_info = autograd_nodes.NODES.get(name, "inplace")
    DISPATCHER.register_fallback(Autograd, _fallback, "volta.autograd")
