"""Muon (momentum orthogonalized by Newton-Schulz), as PyTorch implements it."""

from __future__ import annotations

import math
from typing import Any

import volta
from volta.errors import InvalidArgumentError
from volta.optim.optimizer import Optimizer, ParamsT, check_non_negative

# PyTorch's defaults: a quintic Newton-Schulz iteration tuned for speed (Keller Jordan's)
DEFAULT_NS_COEFFICIENTS = (3.4445, -4.7750, 2.0315)
_ADJUSTMENTS = (None, "original", "match_rms_adamw")


class Muon(Optimizer):
    """SGD with Nesterov momentum whose update is replaced by the nearest semi-orthogonal matrix
    (approximately, by ``ns_steps`` Newton-Schulz iterations in bfloat16), with decoupled weight
    decay. Only 2-d parameters: use another optimizer for biases and embeddings."""

    def __init__(self, params: ParamsT, lr: float = 1e-3, weight_decay: float = 0.1,
                 momentum: float = 0.95, nesterov: bool = True,
                 ns_coefficients: tuple[float, float, float] = DEFAULT_NS_COEFFICIENTS,
                 eps: float = 1e-7, ns_steps: int = 5, adjust_lr_fn: str | None = None) -> None:
        check_non_negative(lr=lr, momentum=momentum, weight_decay=weight_decay)
        if adjust_lr_fn not in _ADJUSTMENTS:
            raise InvalidArgumentError(f"Adjust learning rate function {adjust_lr_fn} is not "
                                       "supported")
        if len(ns_coefficients) != 3:
            raise InvalidArgumentError("Coefficients must be a tuple of exactly 3 values")
        super().__init__(params, dict(lr=lr, weight_decay=weight_decay, momentum=momentum,
                                      nesterov=nesterov, ns_coefficients=tuple(ns_coefficients),
                                      eps=eps, ns_steps=ns_steps, adjust_lr_fn=adjust_lr_fn))
        for group in self.param_groups:
            for p in group["params"]:
                if p.ndim != 2:
                    raise InvalidArgumentError(f"Muon only supports 2D parameters whereas we "
                                               f"found a parameter with size: {p.shape}")

    @staticmethod
    def _adjusted_lr(lr: float, adjust_lr_fn: str | None, shape: Any) -> float:
        rows, cols = shape[:2]
        if adjust_lr_fn == "match_rms_adamw":
            return lr * 0.2 * math.sqrt(max(rows, cols))
        return lr * math.sqrt(max(1, rows / cols))

    def _update(self, group: dict[str, Any], p: volta.Tensor, state: dict[str, Any]) -> None:
        if "momentum_buffer" not in state:
            state["momentum_buffer"] = volta.zeros_like(p.grad)
        volta._muon_update_(
            p, p.grad, state["momentum_buffer"], group["lr"],
            self._adjusted_lr(group["lr"], group["adjust_lr_fn"], p.shape),
            group["weight_decay"], group["momentum"], group["nesterov"],
            list(group["ns_coefficients"]), group["ns_steps"], group["eps"])
