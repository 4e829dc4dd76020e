"""Adam and AdamW (with AMSGrad), as in PyTorch."""

from __future__ import annotations

from typing import Any

import volta
from volta.errors import ArgumentError
from volta.optim.optimizer import Optimizer, ParamsT, check_non_negative


class Adam(Optimizer):
    """Adam with L2 weight decay added to the gradient (``AdamW`` decouples it)."""

    _decoupled = False

    def __init__(self, params: ParamsT, lr: float = 1e-3,
                 betas: tuple[float, float] = (0.9, 0.999), eps: float = 1e-8,
                 weight_decay: float = 0, amsgrad: bool = False, *,
                 maximize: bool = False) -> None:
        check_non_negative(lr=lr, eps=eps)
        for i, beta in enumerate(betas):
            if not 0.0 <= beta < 1.0:
                raise ArgumentError(f"Invalid beta parameter at index {i}: {beta}")
        check_non_negative(weight_decay=weight_decay)
        super().__init__(params, dict(lr=lr, betas=tuple(betas), eps=eps,
                                      weight_decay=weight_decay, amsgrad=amsgrad,
                                      maximize=maximize))

    def _update(self, group: dict[str, Any], p: volta.Tensor, state: dict[str, Any]) -> None:
        beta1, beta2 = group["betas"]
        if "exp_avg" not in state:
            state["exp_avg"] = volta.zeros_like(p)
            state["exp_avg_sq"] = volta.zeros_like(p)
            if group["amsgrad"]:
                state["max_exp_avg_sq"] = volta.zeros_like(p)
        step = self._next_step(state)
        volta._adam_update_(p, p.grad, state["exp_avg"], state["exp_avg_sq"],
                            state.get("max_exp_avg_sq") if group["amsgrad"] else None,
                            step, group["lr"], beta1, beta2, group["eps"],
                            group["weight_decay"], group["amsgrad"],
                            group["maximize"], self._decoupled)


class AdamW(Adam):
    """Adam with decoupled weight decay: ``param *= 1 - lr * weight_decay`` before the update."""

    _decoupled = True

    def __init__(self, params: ParamsT, lr: float = 1e-3,
                 betas: tuple[float, float] = (0.9, 0.999), eps: float = 1e-8,
                 weight_decay: float = 1e-2, amsgrad: bool = False, *,
                 maximize: bool = False) -> None:
        super().__init__(params, lr, betas, eps, weight_decay, amsgrad, maximize=maximize)
