"""RMSprop (plain or centered, with optional momentum), as in PyTorch."""

from __future__ import annotations

from typing import Any

import volta
from volta.optim.optimizer import Optimizer, ParamsT, check_non_negative


class RMSprop(Optimizer):
    def __init__(self, params: ParamsT, lr: float = 1e-2, alpha: float = 0.99, eps: float = 1e-8,
                 weight_decay: float = 0, momentum: float = 0, centered: bool = False, *,
                 maximize: bool = False) -> None:
        check_non_negative(lr=lr, eps=eps, momentum=momentum, weight_decay=weight_decay,
                           alpha=alpha)
        super().__init__(params, dict(lr=lr, alpha=alpha, eps=eps, weight_decay=weight_decay,
                                      momentum=momentum, centered=centered, maximize=maximize))

    def _update(self, group: dict[str, Any], p: volta.Tensor, state: dict[str, Any]) -> None:
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
