"""Adadelta, as in PyTorch."""

from __future__ import annotations

from typing import Any

import volta
from volta.errors import ArgumentError
from volta.optim.optimizer import Optimizer, ParamsT, check_non_negative, implementation_options


class Adadelta(Optimizer):
    """Adadelta: steps scaled by the ratio of running RMS of past updates and of gradients."""

    def __init__(self, params: ParamsT, lr: float = 1.0, rho: float = 0.9, eps: float = 1e-6,
                 weight_decay: float = 0, foreach: bool | None = None, *,
                 capturable: bool = False, maximize: bool = False,
                 differentiable: bool = False) -> None:
        check_non_negative(lr=lr)
        if not 0.0 <= rho <= 1.0:
            raise ArgumentError(f"Invalid rho value: {rho}")
        check_non_negative(eps=eps, weight_decay=weight_decay)
        super().__init__(params, dict(lr=lr, rho=rho, eps=eps, weight_decay=weight_decay,
                                      maximize=maximize,
                                      **implementation_options(foreach, capturable,
                                                               differentiable)))

    def _update(self, group: dict[str, Any], p: volta.Tensor, state: dict[str, Any]) -> None:
        if "square_avg" not in state:
            state["square_avg"] = volta.zeros_like(p)
            state["acc_delta"] = volta.zeros_like(p)
        self._next_step(state)
        volta._adadelta_update_(p, p.grad, state["square_avg"], state["acc_delta"],
                                group["lr"], group["rho"], group["eps"],
                                group["weight_decay"], group["maximize"])
