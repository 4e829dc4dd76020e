"""Rprop (resilient backpropagation), as in PyTorch."""

from __future__ import annotations

from typing import Any

import volta
from volta.errors import ArgumentError
from volta.optim.optimizer import Optimizer, ParamsT, check_non_negative, implementation_options


class Rprop(Optimizer):
    """Per-element step sizes that grow by ``etas[1]`` while the gradient keeps its sign and
    shrink by ``etas[0]`` when it flips, clamped to ``step_sizes``; only the sign of the gradient
    is used."""

    def __init__(self, params: ParamsT, lr: float = 1e-2,
                 etas: tuple[float, float] = (0.5, 1.2),
                 step_sizes: tuple[float, float] = (1e-6, 50), *, capturable: bool = False,
                 foreach: bool | None = None, maximize: bool = False,
                 differentiable: bool = False) -> None:
        check_non_negative(lr=lr)
        if not 0.0 < etas[0] < 1.0 < etas[1]:
            raise ArgumentError(f"Invalid eta values: {etas[0]}, {etas[1]}")
        super().__init__(params, dict(lr=lr, etas=tuple(etas), step_sizes=tuple(step_sizes),
                                      maximize=maximize,
                                      **implementation_options(foreach, capturable,
                                                               differentiable)))

    def _update(self, group: dict[str, Any], p: volta.Tensor, state: dict[str, Any]) -> None:
        etaminus, etaplus = group["etas"]
        step_size_min, step_size_max = group["step_sizes"]
        if "prev" not in state:
            state["prev"] = volta.zeros_like(p)
            state["step_size"] = volta.full_like(p.grad, group["lr"])
        self._next_step(state)
        volta._rprop_update_(p, p.grad, state["prev"], state["step_size"], etaminus,
                             etaplus, step_size_min, step_size_max,
                             group["maximize"])
