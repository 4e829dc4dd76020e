"""ASGD (averaged stochastic gradient descent), as in PyTorch."""

from __future__ import annotations

from typing import Any

import volta
from volta.optim.optimizer import (
    Optimizer,
    ParamsT,
    check_non_negative,
    host_scalar,
    implementation_options,
)


class ASGD(Optimizer):
    """SGD with a decaying step ``eta`` and a running average ``ax`` of the iterates, started
    after ``t0`` steps."""

    _host_scalars = frozenset({"step", "eta", "mu"})

    def __init__(self, params: ParamsT, lr: float = 1e-2, lambd: float = 1e-4,
                 alpha: float = 0.75, t0: float = 1e6, weight_decay: float = 0,
                 foreach: bool | None = None, maximize: bool = False,
                 differentiable: bool = False, capturable: bool = False) -> None:
        check_non_negative(lr=lr, weight_decay=weight_decay)
        super().__init__(params, dict(lr=lr, lambd=lambd, alpha=alpha, t0=t0,
                                      weight_decay=weight_decay, maximize=maximize,
                                      **implementation_options(foreach, capturable,
                                                               differentiable)))

    def _update(self, group: dict[str, Any], p: volta.Tensor, state: dict[str, Any]) -> None:
        lr, lambd = group["lr"], group["lambd"]
        if "ax" not in state:
            state["step"] = host_scalar(0.0)
            state["eta"] = host_scalar(lr)
            state["mu"] = host_scalar(1.0)
            state["ax"] = volta.zeros_like(p)
        step = self._next_step(state)
        # eta and mu are float32 state scalars, as in PyTorch: read them back
        volta._asgd_update_(p, p.grad, state["ax"], state["eta"].item(),
                            state["mu"].item(), lambd, group["weight_decay"],
                            group["maximize"])
        state["eta"].fill_(lr / (1 + lambd * lr * step) ** group["alpha"])
        state["mu"].fill_(1 / max(1, step - group["t0"]))
