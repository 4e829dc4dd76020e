"""L-BFGS with an optional strong-Wolfe line search, as in PyTorch.

The parameters are handled as one flat vector (their gradients concatenated); the two-loop
recursion and the line search work on volta tensors, and the scalars that steer them (dot
products, step lengths, losses) are read back as Python floats."""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

import volta
from volta.errors import ArgumentError
from volta.optim.optimizer import Optimizer, ParamsT, check_non_negative

__all__ = ["LBFGS"]

Objective = Callable[[list[volta.Tensor], float, volta.Tensor], tuple[float, volta.Tensor]]


def _number(value: Any) -> float:
    return float(value.item()) if isinstance(value, volta.Tensor) else float(value)


def _dot(a: volta.Tensor, b: volta.Tensor) -> float:
    return _number(volta.dot(a, b))


def _abs_max(a: volta.Tensor) -> float:
    return _number(a.abs().max())


def _cubic_interpolate(x1: float, f1: float, g1: float, x2: float, f2: float, g2: float,
                       bounds: tuple[float, float] | None = None) -> float:
    """The minimiser of the cubic through two points with their values and slopes, clamped
    to ``bounds`` (default: the interval between the points); their midpoint when the cubic
    has no minimum."""
    low, high = bounds if bounds is not None else (min(x1, x2), max(x1, x2))
    d1 = g1 + g2 - 3 * (f1 - f2) / (x1 - x2)
    d2_square = d1 ** 2 - g1 * g2
    if d2_square < 0:
        return (low + high) / 2.0
    d2 = math.sqrt(d2_square)
    if x1 <= x2:
        position = x2 - (x2 - x1) * ((g2 + d2 - d1) / (g2 - g1 + 2 * d2))
    else:
        position = x1 - (x1 - x2) * ((g1 + d2 - d1) / (g1 - g2 + 2 * d2))
    return min(max(position, low), high)


def _strong_wolfe(objective: Objective, x: list[volta.Tensor], t: float, d: volta.Tensor,
                  f: float, g: volta.Tensor, gtd: float, c1: float = 1e-4, c2: float = 0.9,
                  tolerance_change: float = 1e-9,
                  max_ls: int = 25) -> tuple[float, volta.Tensor, float, int]:
    """A step ``t`` along ``d`` satisfying the strong Wolfe conditions: first bracket one
    (growing the step by cubic extrapolation), then zoom into the bracket. Returns the loss,
    flat gradient and step found and how many evaluations it took."""
    d_norm = _abs_max(d)
    g = g.clone()
    f_new, g_new = objective(x, t, d)
    evaluations = 1
    gtd_new = _dot(g_new, d)
    t_prev, f_prev, g_prev, gtd_prev = 0.0, f, g, gtd
    done = False
    ls_iter = 0
    bracket: list[float] = []
    bracket_f: list[float] = []
    bracket_g: list[volta.Tensor] = []
    bracket_gtd: list[float] = []
    while ls_iter < max_ls:
        if f_new > f + c1 * t * gtd or (ls_iter > 1 and f_new >= f_prev):
            bracket, bracket_f = [t_prev, t], [f_prev, f_new]
            bracket_g, bracket_gtd = [g_prev, g_new.clone()], [gtd_prev, gtd_new]
            break
        if abs(gtd_new) <= -c2 * gtd:
            bracket, bracket_f, bracket_g = [t], [f_new], [g_new]
            done = True
            break
        if gtd_new >= 0:
            bracket, bracket_f = [t_prev, t], [f_prev, f_new]
            bracket_g, bracket_gtd = [g_prev, g_new.clone()], [gtd_prev, gtd_new]
            break
        # extrapolate, at least 1% further and at most 10 times as far
        min_step = t + 0.01 * (t - t_prev)
        max_step = t * 10
        previous = t
        t = _cubic_interpolate(t_prev, f_prev, gtd_prev, t, f_new, gtd_new,
                               bounds=(min_step, max_step))
        t_prev, f_prev, g_prev, gtd_prev = previous, f_new, g_new.clone(), gtd_new
        f_new, g_new = objective(x, t, d)
        evaluations += 1
        gtd_new = _dot(g_new, d)
        ls_iter += 1
    if ls_iter == max_ls:
        bracket, bracket_f, bracket_g = [0.0, t], [f, f_new], [g, g_new]

    # zoom: shrink the bracket until a point satisfies the conditions
    insufficient_progress = False
    low_pos, high_pos = (0, 1) if bracket_f[0] <= bracket_f[-1] else (1, 0)
    while not done and ls_iter < max_ls:
        if abs(bracket[1] - bracket[0]) * d_norm < tolerance_change:
            break
        t = _cubic_interpolate(bracket[0], bracket_f[0], bracket_gtd[0],
                               bracket[1], bracket_f[1], bracket_gtd[1])
        # a point too close to an end of the bracket makes no progress: move it inwards
        eps = 0.1 * (max(bracket) - min(bracket))
        if min(max(bracket) - t, t - min(bracket)) < eps:
            if insufficient_progress or t >= max(bracket) or t <= min(bracket):
                if abs(t - max(bracket)) < abs(t - min(bracket)):
                    t = max(bracket) - eps
                else:
                    t = min(bracket) + eps
                insufficient_progress = False
            else:
                insufficient_progress = True
        else:
            insufficient_progress = False
        f_new, g_new = objective(x, t, d)
        evaluations += 1
        gtd_new = _dot(g_new, d)
        ls_iter += 1
        if f_new > f + c1 * t * gtd or f_new >= bracket_f[low_pos]:
            bracket[high_pos], bracket_f[high_pos] = t, f_new
            bracket_g[high_pos], bracket_gtd[high_pos] = g_new.clone(), gtd_new
            low_pos, high_pos = (0, 1) if bracket_f[0] <= bracket_f[1] else (1, 0)
        else:
            if abs(gtd_new) <= -c2 * gtd:
                done = True
            elif gtd_new * (bracket[high_pos] - bracket[low_pos]) >= 0:
                bracket[high_pos], bracket_f[high_pos] = bracket[low_pos], bracket_f[low_pos]
                bracket_g[high_pos] = bracket_g[low_pos]
                bracket_gtd[high_pos] = bracket_gtd[low_pos]
            bracket[low_pos], bracket_f[low_pos] = t, f_new
            bracket_g[low_pos], bracket_gtd[low_pos] = g_new.clone(), gtd_new
    return bracket_f[low_pos], bracket_g[low_pos], bracket[low_pos], evaluations


class LBFGS(Optimizer):
    """Limited-memory BFGS. ``step(closure)`` runs up to ``max_iter`` iterations (and
    ``max_eval`` closure calls); the closure clears the gradients, computes the loss,
    back-propagates and returns the loss. One parameter group only; the state (curvature
    history, last direction and step) lives under the first parameter, as in PyTorch."""

    def __init__(self, params: ParamsT, lr: float = 1, max_iter: int = 20,
                 max_eval: int | None = None, tolerance_grad: float = 1e-7,
                 tolerance_change: float = 1e-9, history_size: int = 100,
                 line_search_fn: str | None = None) -> None:
        check_non_negative(lr=lr)
        if line_search_fn not in (None, "strong_wolfe"):
            raise ArgumentError("only 'strong_wolfe' is supported")
        if max_eval is None:
            max_eval = max_iter * 5 // 4
        super().__init__(params, dict(lr=lr, max_iter=max_iter, max_eval=max_eval,
                                      tolerance_grad=tolerance_grad,
                                      tolerance_change=tolerance_change,
                                      history_size=history_size, line_search_fn=line_search_fn))
        if len(self.param_groups) != 1:
            raise ArgumentError("LBFGS doesn't support per-parameter options (parameter groups)")
        self._params: list[volta.Tensor] = self.param_groups[0]["params"]

    def add_param_group(self, param_group: dict[str, Any]) -> None:
        if self.param_groups:
            raise ArgumentError("LBFGS doesn't support per-parameter options (parameter groups)")
        super().add_param_group(param_group)

    # -- the parameters as one flat vector ----------------------------------------------------

    def _gather_flat_grad(self) -> volta.Tensor:
        return volta.cat([p.grad.reshape(-1) if p.grad is not None
                          else volta.zeros(p.numel(), dtype=p.dtype, device=p.device)
                          for p in self._params])

    def _add_grad(self, step_size: float, update: volta.Tensor) -> None:
        offset = 0
        for p in self._params:
            numel = p.numel()
            p.add_(update[offset:offset + numel].reshape(p.shape), alpha=step_size)
            offset += numel

    def _directional_evaluate(self, closure: Callable[[], Any], x: list[volta.Tensor],
                              t: float, d: volta.Tensor) -> tuple[float, volta.Tensor]:
        """Loss and flat gradient at ``x + t * d``; the parameters are restored to ``x``."""
        self._add_grad(t, d)
        with volta.enable_grad():
            loss = _number(closure())
        flat_grad = self._gather_flat_grad()
        for p, saved in zip(self._params, x, strict=True):
            p.copy_(saved)
        return loss, flat_grad

    def _cast_state(self, param: volta.Tensor, name: str, value: Any) -> Any:
        if isinstance(value, list):  # the curvature history
            return [self._cast_state(param, name, v) for v in value]
        return super()._cast_state(param, name, value)

    def step(self, closure: Callable[[], Any]) -> Any:  # type: ignore[override]
        """One L-BFGS step (several iterations); returns the loss before it."""
        if closure is None:
            raise ArgumentError("LBFGS.step needs a closure that recomputes the loss")
        group = self.param_groups[0]
        lr, max_iter, max_eval = group["lr"], group["max_iter"], group["max_eval"]
        tolerance_grad, tolerance_change = group["tolerance_grad"], group["tolerance_change"]
        history_size = group["history_size"]
        state = self.state.setdefault(self._params[0], {})
        state.setdefault("func_evals", 0)
        state.setdefault("n_iter", 0)

        with volta.enable_grad():
            original_loss = closure()
        with volta.no_grad():
            return self._iterate(closure, original_loss, state, lr, max_iter, max_eval,
                                 tolerance_grad, tolerance_change, history_size,
                                 group["line_search_fn"])

    def _iterate(self, closure: Callable[[], Any], original_loss: Any, state: dict[str, Any],
                 lr: float, max_iter: int, max_eval: int, tolerance_grad: float,
                 tolerance_change: float, history_size: int,
                 line_search_fn: str | None) -> Any:
        loss = _number(original_loss)
        evaluations = 1
        state["func_evals"] += 1
        flat_grad = self._gather_flat_grad()
        if _abs_max(flat_grad) <= tolerance_grad:
            return original_loss

        d = state.get("d")
        t = state.get("t")
        old_dirs = state.get("old_dirs")
        old_stps = state.get("old_stps")
        ro = state.get("ro")
        h_diag = state.get("H_diag")
        prev_flat_grad = state.get("prev_flat_grad")
        prev_loss = state.get("prev_loss")

        n_iter = 0
        while n_iter < max_iter:
            n_iter += 1
            state["n_iter"] += 1
            if state["n_iter"] == 1:
                d = flat_grad.neg()
                old_dirs, old_stps, ro, h_diag = [], [], [], 1.0
            else:
                # remember the curvature pair if it keeps the Hessian estimate positive definite;
                # the recursion's scalars stay 0-d tensors of the parameters' dtype, as in
                # PyTorch (and need no trip to the host)
                y = flat_grad - prev_flat_grad
                s = d * t
                ys = volta.dot(y, s)
                if _number(ys) > 1e-10:
                    if len(old_dirs) == history_size:
                        old_dirs.pop(0)
                        old_stps.pop(0)
                        ro.pop(0)
                    old_dirs.append(y)
                    old_stps.append(s)
                    ro.append(1.0 / ys)
                    h_diag = ys / volta.dot(y, y)
                # two-loop recursion: d = -H @ grad
                al = state.setdefault("al", [None] * history_size)
                q = flat_grad.neg()
                for i in range(len(old_dirs) - 1, -1, -1):
                    al[i] = volta.dot(old_stps[i], q) * ro[i]
                    q = q - old_dirs[i] * al[i]
                d = r = q * h_diag
                for i in range(len(old_dirs)):
                    be_i = volta.dot(old_dirs[i], r) * ro[i]
                    r.add_(old_stps[i] * (al[i] - be_i))

            prev_flat_grad = flat_grad.clone()
            prev_loss = loss
            if state["n_iter"] == 1:
                # rounded to the parameters' dtype, like PyTorch's 0-d tensor
                t = _number(volta.clamp(1.0 / flat_grad.abs().sum(), max=1.0) * lr)
            else:
                t = lr
            gtd = _dot(flat_grad, d)
            if gtd > -tolerance_change:  # not a descent direction
                break

            step_evaluations = 0
            if line_search_fn is not None:
                start = [p.clone() for p in self._params]

                def objective(x: list[volta.Tensor], step: float,
                              direction: volta.Tensor) -> tuple[float, volta.Tensor]:
                    return self._directional_evaluate(closure, x, step, direction)

                loss, flat_grad, t, step_evaluations = _strong_wolfe(
                    objective, start, t, d, loss, flat_grad, gtd, max_ls=max_eval - evaluations)
                self._add_grad(t, d)
                converged = _abs_max(flat_grad) <= tolerance_grad
            else:
                self._add_grad(t, d)
                converged = False
                if n_iter != max_iter:
                    with volta.enable_grad():
                        loss = _number(closure())
                    flat_grad = self._gather_flat_grad()
                    converged = _abs_max(flat_grad) <= tolerance_grad
                    step_evaluations = 1
            evaluations += step_evaluations
            state["func_evals"] += step_evaluations

            if (n_iter == max_iter or evaluations >= max_eval or converged
                    or _abs_max(d * t) <= tolerance_change
                    or abs(loss - prev_loss) < tolerance_change):
                break

        state.update(d=d, t=t, old_dirs=old_dirs, old_stps=old_stps, ro=ro, H_diag=h_diag,
                     prev_flat_grad=prev_flat_grad, prev_loss=prev_loss)
        return original_loss
