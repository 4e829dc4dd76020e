"""Stochastic gradient descent (with momentum, dampening, Nesterov and weight decay)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import volta
from volta.errors import ArgumentError
from volta.optim.optimizer import Optimizer, ParamsT, check_non_negative


class SGD(Optimizer):
    """PyTorch's SGD: ``buf = momentum * buf + (1 - dampening) * g``; Nesterov uses
    ``g + momentum * buf``; the first step sets ``buf = g``."""

    def __init__(self, params: ParamsT, lr: float = 1e-3, momentum: float = 0,
                 dampening: float = 0, weight_decay: float = 0, nesterov: bool = False, *,
                 maximize: bool = False) -> None:
        check_non_negative(lr=lr, momentum=momentum, weight_decay=weight_decay)
        if nesterov and (momentum <= 0 or dampening != 0):
            raise ArgumentError("Nesterov momentum requires a momentum and zero dampening")
        super().__init__(params, dict(lr=lr, momentum=momentum, dampening=dampening,
                                      weight_decay=weight_decay, nesterov=nesterov,
                                      maximize=maximize))

    def step(self, closure: Callable[[], Any] | None = None) -> Any:
        loss = self._closure_loss(closure)
        with volta.no_grad():
            for group in self.param_groups:
                momentum = group["momentum"]
                for p in group["params"]:
                    if p.grad is None:
                        continue
                    buf = None
                    first = False
                    if momentum != 0:
                        state = self._param_state(p)
                        buf = state.get("momentum_buffer")
                        if buf is None:
                            buf = state["momentum_buffer"] = volta.zeros_like(p)
                            first = True
                    volta._sgd_update_(p, p.grad, buf, group["lr"], momentum, group["dampening"],
                                       group["weight_decay"], group["nesterov"],
                                       group["maximize"], first)
        return loss
