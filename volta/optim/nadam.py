"""NAdam (Adam with Nesterov momentum and momentum decay), as in PyTorch."""

from __future__ import annotations

from typing import Any

import volta
from volta.optim.optimizer import (
    Optimizer,
    ParamsT,
    check_betas,
    check_non_negative,
    host_scalar,
    implementation_options,
)


class NAdam(Optimizer):
    """NAdam: the momentum coefficient at step t is ``beta1 * (1 - 0.5 * 0.96 ** (t *
    momentum_decay))``; ``decoupled_weight_decay`` gives NAdamW."""

    _host_scalars = frozenset({"step", "mu_product"})

    def __init__(self, params: ParamsT, lr: float = 2e-3,
                 betas: tuple[float, float] = (0.9, 0.999), eps: float = 1e-8,
                 weight_decay: float = 0, momentum_decay: float = 4e-3,
                 decoupled_weight_decay: bool = False, *, foreach: bool | None = None,
                 maximize: bool = False, capturable: bool = False,
                 differentiable: bool = False) -> None:
        check_non_negative(lr=lr, eps=eps)
        check_betas(betas)
        check_non_negative(weight_decay=weight_decay, momentum_decay=momentum_decay)
        super().__init__(params, dict(lr=lr, betas=tuple(betas), eps=eps,
                                      weight_decay=weight_decay, momentum_decay=momentum_decay,
                                      decoupled_weight_decay=decoupled_weight_decay,
                                      maximize=maximize,
                                      **implementation_options(foreach, capturable,
                                                               differentiable)))

    def _update(self, group: dict[str, Any], p: volta.Tensor, state: dict[str, Any]) -> None:
        beta1, beta2 = group["betas"]
        decay = group["momentum_decay"]
        if "exp_avg" not in state:
            state["mu_product"] = host_scalar(1.0)
            state["exp_avg"] = volta.zeros_like(p)
            state["exp_avg_sq"] = volta.zeros_like(p)
        step = self._next_step(state)
        mu = beta1 * (1.0 - 0.5 * 0.96 ** (step * decay))
        mu_next = beta1 * (1.0 - 0.5 * 0.96 ** ((step + 1) * decay))
        # the product is accumulated in float32, as PyTorch's state tensor does
        mu_product = state["mu_product"].mul_(mu).item()
        volta._nadam_update_(p, p.grad, state["exp_avg"], state["exp_avg_sq"], step,
                             mu, mu_next, mu_product, group["lr"], beta1, beta2,
                             group["eps"], group["weight_decay"],
                             group["decoupled_weight_decay"], group["maximize"])
