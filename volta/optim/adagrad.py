"""Adagrad (with learning-rate decay and an initial accumulator value), as in PyTorch."""

from __future__ import annotations

from typing import Any

import volta
from volta.optim.optimizer import Optimizer, ParamsT, check_non_negative


class Adagrad(Optimizer):
    def __init__(self, params: ParamsT, lr: float = 1e-2, lr_decay: float = 0,
                 weight_decay: float = 0, initial_accumulator_value: float = 0,
                 eps: float = 1e-10, *, maximize: bool = False) -> None:
        check_non_negative(lr=lr, lr_decay=lr_decay, weight_decay=weight_decay,
                           initial_accumulator_value=initial_accumulator_value, eps=eps)
        super().__init__(params, dict(lr=lr, lr_decay=lr_decay, eps=eps,
                                      weight_decay=weight_decay,
                                      initial_accumulator_value=initial_accumulator_value,
                                      maximize=maximize))
        # PyTorch creates Adagrad's state eagerly, at construction
        for group in self.param_groups:
            for p in group["params"]:
                self.state[p] = {
                    "step": volta.zeros((), dtype=volta.float32),
                    "sum": volta.full_like(p, group["initial_accumulator_value"]),
                }

    def _update(self, group: dict[str, Any], p: volta.Tensor, state: dict[str, Any]) -> None:
        step = self._next_step(state)
        volta._adagrad_update_(p, p.grad, state["sum"], step, group["lr"],
                               group["lr_decay"], group["weight_decay"],
                               group["eps"], group["maximize"])
