"""RMSprop (plain or centered, with optional momentum), as in PyTorch."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import volta
from volta.errors import ArgumentError
from volta.optim.optimizer import Optimizer, ParamsT


class RMSprop(Optimizer):
    def __init__(self, params: ParamsT, lr: float = 1e-2, alpha: float = 0.99, eps: float = 1e-8,
                 weight_decay: float = 0, momentum: float = 0, centered: bool = False, *,
                 maximize: bool = False) -> None:
        if lr < 0:
            raise ArgumentError(f"Invalid learning rate: {lr}")
        if eps < 0:
            raise ArgumentError(f"Invalid epsilon value: {eps}")
        if momentum < 0:
            raise ArgumentError(f"Invalid momentum value: {momentum}")
        if weight_decay < 0:
            raise ArgumentError(f"Invalid weight_decay value: {weight_decay}")
        if alpha < 0:
            raise ArgumentError(f"Invalid alpha value: {alpha}")
        super().__init__(params, dict(lr=lr, alpha=alpha, eps=eps, weight_decay=weight_decay,
                                      momentum=momentum, centered=centered, maximize=maximize))

    def step(self, closure: Callable[[], Any] | None = None) -> Any:
        loss = self._closure_loss(closure)
        with volta.no_grad():
            for group in self.param_groups:
                for p in group["params"]:
                    if p.grad is None:
                        continue
                    state = self._param_state(p)
                    if "square_avg" not in state:
                        state["square_avg"] = volta.zeros_like(p)
                        if group["momentum"] > 0:
                            state["momentum_buffer"] = volta.zeros_like(p)
                        if group["centered"]:
                            state["grad_avg"] = volta.zeros_like(p)
                    self._next_step(state)
                    volta._rmsprop_update_(
                        p, p.grad, state["square_avg"],
                        state.get("grad_avg") if group["centered"] else None,
                        state.get("momentum_buffer") if group["momentum"] > 0 else None,
                        group["lr"], group["alpha"], group["eps"], group["weight_decay"],
                        group["momentum"], group["maximize"])
        return loss
