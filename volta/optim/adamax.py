"""Adamax (Adam with the infinity norm), as in PyTorch."""

from __future__ import annotations

from typing import Any

import volta
from volta.optim.optimizer import (
    Optimizer,
    ParamsT,
    check_betas,
    check_non_negative,
    implementation_options,
)


class Adamax(Optimizer):
    """Adam whose second moment is an exponentially weighted infinity norm of the gradients."""

    def __init__(self, params: ParamsT, lr: float = 2e-3,
                 betas: tuple[float, float] = (0.9, 0.999), eps: float = 1e-8,
                 weight_decay: float = 0, foreach: bool | None = None, *,
                 maximize: bool = False, differentiable: bool = False,
                 capturable: bool = False) -> None:
        check_non_negative(lr=lr, eps=eps)
        check_betas(betas)
        check_non_negative(weight_decay=weight_decay)
        super().__init__(params, dict(lr=lr, betas=tuple(betas), eps=eps,
                                      weight_decay=weight_decay, maximize=maximize,
                                      **implementation_options(foreach, capturable,
                                                               differentiable)))

    def _update(self, group: dict[str, Any], p: volta.Tensor, state: dict[str, Any]) -> None:
        beta1, beta2 = group["betas"]
        if "exp_avg" not in state:
            state["exp_avg"] = volta.zeros_like(p)
            state["exp_inf"] = volta.zeros_like(p)
        step = self._next_step(state)
        volta._adamax_update_(p, p.grad, state["exp_avg"], state["exp_inf"], step,
                              group["lr"], beta1, beta2, group["eps"],
                              group["weight_decay"], group["maximize"])
