"""RAdam (Adam with a rectified adaptive learning rate), as in PyTorch."""

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


class RAdam(Optimizer):
    """RAdam: plain momentum SGD while the second moment's variance is intractable, then Adam
    with a rectification factor; ``decoupled_weight_decay`` gives RAdamW."""

    def __init__(self, params: ParamsT, lr: float = 1e-3,
                 betas: tuple[float, float] = (0.9, 0.999), eps: float = 1e-8,
                 weight_decay: float = 0, decoupled_weight_decay: bool = False, *,
                 foreach: bool | None = None, maximize: bool = False, capturable: bool = False,
                 differentiable: bool = False) -> None:
        check_non_negative(lr=lr, eps=eps)
        check_betas(betas)
        check_non_negative(weight_decay=weight_decay)
        super().__init__(params, dict(lr=lr, betas=tuple(betas), eps=eps,
                                      weight_decay=weight_decay, maximize=maximize,
                                      decoupled_weight_decay=decoupled_weight_decay,
                                      **implementation_options(foreach, capturable,
                                                               differentiable)))

    def _update(self, group: dict[str, Any], p: volta.Tensor, state: dict[str, Any]) -> None:
        beta1, beta2 = group["betas"]
        if "exp_avg" not in state:
            state["exp_avg"] = volta.zeros_like(p)
            state["exp_avg_sq"] = volta.zeros_like(p)
        step = self._next_step(state)
        volta._radam_update_(p, p.grad, state["exp_avg"], state["exp_avg_sq"], step,
                             group["lr"], beta1, beta2, group["eps"],
                             group["weight_decay"], group["decoupled_weight_decay"],
                             group["maximize"])
