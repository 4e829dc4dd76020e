"""Adafactor (Shazeer & Stern), as PyTorch implements it."""

from __future__ import annotations

from typing import Any

import volta
from volta.errors import InvalidArgumentError
from volta.optim.optimizer import Optimizer, ParamsT, check_non_negative


class Adafactor(Optimizer):
    """Adam-like updates with second moments factored into row and column statistics for
    matrices (memory linear in rows + columns), a relative step size ``min(lr, 1/sqrt(step))``
    scaled by the parameter's RMS, and updates clipped to RMS ``d``."""

    def __init__(self, params: ParamsT, lr: float = 1e-2, beta2_decay: float = -0.8,
                 eps: tuple[float | None, float] = (None, 1e-3), d: float = 1.0,
                 weight_decay: float = 0.0, *, foreach: bool | None = None,
                 maximize: bool = False) -> None:
        check_non_negative(lr=lr)
        if not beta2_decay <= 0.0:
            raise InvalidArgumentError(f"beta2_decay should be <= 0 but is: {beta2_decay}")
        if eps[0] is not None and not eps[0] >= 0.0:
            raise InvalidArgumentError(f"epsilon1 should be >= 0 but is: {eps[0]}")
        if not eps[1] >= 0.0:
            raise InvalidArgumentError(f"epsilon2 should be >= 0 but is: {eps[1]}")
        if not d >= 1.0:
            raise InvalidArgumentError(f"Clipping threshold d should be >= 1 but is: {d}")
        check_non_negative(weight_decay=weight_decay)
        super().__init__(params, dict(lr=lr, beta2_decay=beta2_decay, eps=tuple(eps), d=d,
                                      weight_decay=weight_decay, foreach=foreach,
                                      maximize=maximize))

    def _update(self, group: dict[str, Any], p: volta.Tensor, state: dict[str, Any]) -> None:
        eps1, eps2 = group["eps"]
        if "step" not in state:
            if p.grad.ndim > 1:
                state["row_var"] = volta.zeros(*p.grad.shape[:-1], 1,
                                               dtype=p.grad.dtype,
                                               device=p.grad.device)
                state["col_var"] = volta.zeros(*p.grad.shape[:-2], 1,
                                               p.grad.shape[-1],
                                               dtype=p.grad.dtype,
                                               device=p.grad.device)
            else:
                state["variance"] = volta.zeros_like(p.grad)
        step = self._next_step(state)
        volta._adafactor_update_(
            p, p.grad, state.get("row_var"), state.get("col_var"),
            state.get("variance"), step, group["lr"], group["beta2_decay"],
            volta.finfo(p.dtype).eps if eps1 is None else eps1, eps2, group["d"],
            group["weight_decay"], group["maximize"])
