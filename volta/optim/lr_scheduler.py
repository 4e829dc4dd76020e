"""Learning-rate schedulers, with PyTorch's recursive (chainable) formulas so that the sequences
of learning rates match ``torch.optim.lr_scheduler`` step for step."""

from __future__ import annotations

import math
import types
from bisect import bisect_right
from collections import Counter
from collections.abc import Callable, Sequence
from typing import Any

from volta.errors import ArgumentError
from volta.optim.optimizer import Optimizer

__all__ = ["ChainedScheduler", "ConstantLR", "CosineAnnealingLR", "CosineAnnealingWarmRestarts",
           "CyclicLR", "ExponentialLR", "LRScheduler", "LambdaLR", "LinearLR", "MultiStepLR",
           "MultiplicativeLR", "OneCycleLR", "PolynomialLR", "ReduceLROnPlateau", "SequentialLR",
           "StepLR"]


class LRScheduler:
    """Base class: ``step()`` advances ``last_epoch`` and writes ``get_lr()`` into the groups.

    ``state_dict()`` holds every attribute except the optimizer."""

    _excluded_state: tuple[str, ...] = ("optimizer",)
    _is_initial = False

    def __init__(self, optimizer: Optimizer, last_epoch: int = -1) -> None:
        if not isinstance(optimizer, Optimizer):
            raise ArgumentError(f"{type(optimizer).__name__} is not an Optimizer")
        self.optimizer = optimizer
        if last_epoch == -1:
            for group in optimizer.param_groups:
                group.setdefault("initial_lr", group["lr"])
        else:
            for i, group in enumerate(optimizer.param_groups):
                if "initial_lr" not in group:
                    raise ArgumentError(f"param 'initial_lr' is not specified in param_groups[{i}] "
                                        "when resuming an optimizer")
        self.base_lrs: list[float] = [group["initial_lr"] for group in optimizer.param_groups]
        self.last_epoch = last_epoch
        self._initial_step()

    def _initial_step(self) -> None:
        self._step_count = 0
        # schedulers whose recursive formula must not apply to the constructor's step ask this
        self._is_initial = True
        try:
            self.step()
        finally:
            self._is_initial = False

    def get_lr(self) -> list[float]:
        raise NotImplementedError

    def get_last_lr(self) -> list[float]:
        """The learning rates the last ``step()`` set."""
        return self._last_lr

    def _closed_form(self) -> list[float] | None:
        return None

    def step(self, epoch: int | None = None) -> None:
        self._step_count += 1
        if epoch is None:
            self.last_epoch += 1
            values = self.get_lr()
        else:
            self.last_epoch = epoch
            values = self._closed_form() or self.get_lr()
        for group, lr in zip(self.optimizer.param_groups, values, strict=True):
            group["lr"] = lr
        self._last_lr = [group["lr"] for group in self.optimizer.param_groups]

    def state_dict(self) -> dict[str, Any]:
        return {k: v for k, v in self.__dict__.items() if k not in self._excluded_state}

    def load_state_dict(self, state_dict: dict[str, Any]) -> None:
        self.__dict__.update(state_dict)

    def _group_lrs(self) -> list[float]:
        return [group["lr"] for group in self.optimizer.param_groups]


class LambdaLR(LRScheduler):
    """``lr = initial_lr * lr_lambda(epoch)`` (one function, or one per group)."""

    _excluded_state = ("optimizer", "lr_lambdas")

    def __init__(self, optimizer: Optimizer,
                 lr_lambda: Callable[[int], float] | Sequence[Callable[[int], float]],
                 last_epoch: int = -1) -> None:
        groups = len(optimizer.param_groups)
        if callable(lr_lambda):
            self.lr_lambdas = [lr_lambda] * groups
        else:
            if len(lr_lambda) != groups:
                raise ArgumentError(f"Expected {groups} lr_lambdas, but got {len(lr_lambda)}")
            self.lr_lambdas = list(lr_lambda)
        super().__init__(optimizer, last_epoch)

    def get_lr(self) -> list[float]:
        return [base * fn(self.last_epoch)
                for base, fn in zip(self.base_lrs, self.lr_lambdas, strict=True)]


def _lambdas_per_group(optimizer: Optimizer,
                       lr_lambda: Callable[[int], float] | Sequence[Callable[[int], float]]
                       ) -> list[Callable[[int], float]]:
    groups = len(optimizer.param_groups)
    if not isinstance(lr_lambda, (list, tuple)):
        lambdas = [lr_lambda] * groups
    elif len(lr_lambda) != groups:
        raise ArgumentError(f"Expected {groups} lr_lambdas, but got {len(lr_lambda)}")
    else:
        lambdas = list(lr_lambda)
    for fn in lambdas:
        if not callable(fn):
            raise ArgumentError(f"lr_lambda should be a function, but got {type(fn).__name__}")
    return lambdas  # type: ignore[return-value]


class MultiplicativeLR(LRScheduler):
    """Multiply the current lr by ``lr_lambda(epoch)`` (one function, or one per group) at each
    step. The state dict keeps the ``__dict__`` of callable objects, not plain functions."""

    _excluded_state = ("optimizer", "lr_lambdas")

    def __init__(self, optimizer: Optimizer,
                 lr_lambda: Callable[[int], float] | Sequence[Callable[[int], float]],
                 last_epoch: int = -1) -> None:
        self.lr_lambdas = _lambdas_per_group(optimizer, lr_lambda)
        super().__init__(optimizer, last_epoch)

    def get_lr(self) -> list[float]:
        if self._is_initial:
            return self._group_lrs()
        return [lr * fn(self.last_epoch)
                for lr, fn in zip(self._group_lrs(), self.lr_lambdas, strict=True)]

    def state_dict(self) -> dict[str, Any]:
        state = super().state_dict()
        state["lr_lambdas"] = [None if isinstance(fn, types.FunctionType) else dict(fn.__dict__)
                               for fn in self.lr_lambdas]
        return state

    def load_state_dict(self, state_dict: dict[str, Any]) -> None:
        state = dict(state_dict)
        saved_lambdas = state.pop("lr_lambdas")
        super().load_state_dict(state)
        for fn, saved in zip(self.lr_lambdas, saved_lambdas, strict=True):
            if saved is not None:
                fn.__dict__.update(saved)


class ConstantLR(LRScheduler):
    """Multiply the lr by ``factor`` until epoch ``total_iters``, then restore it."""

    def __init__(self, optimizer: Optimizer, factor: float = 1.0 / 3, total_iters: int = 5,
                 last_epoch: int = -1) -> None:
        if factor > 1.0 or factor < 0:
            raise ArgumentError("Constant multiplicative factor expected to be between 0 and 1.")
        self.factor = factor
        self.total_iters = total_iters
        super().__init__(optimizer, last_epoch)

    def get_lr(self) -> list[float]:
        if self.last_epoch == 0:
            return [lr * self.factor for lr in self._group_lrs()]
        if self.last_epoch != self.total_iters:
            return self._group_lrs()
        return [lr * (1.0 / self.factor) for lr in self._group_lrs()]

    def _closed_form(self) -> list[float]:
        restored = self.last_epoch >= self.total_iters
        return [base * (self.factor + restored * (1 - self.factor)) for base in self.base_lrs]


class PolynomialLR(LRScheduler):
    """Decay the lr to zero over ``total_iters`` epochs as ``(1 - epoch / total_iters) **
    power``."""

    def __init__(self, optimizer: Optimizer, total_iters: int = 5, power: float = 1.0,
                 last_epoch: int = -1) -> None:
        self.total_iters = total_iters
        self.power = power
        super().__init__(optimizer, last_epoch)

    def get_lr(self) -> list[float]:
        if self._is_initial or self.last_epoch > self.total_iters:
            return self._group_lrs()
        factor = ((1.0 - self.last_epoch / self.total_iters)
                  / (1.0 - (self.last_epoch - 1) / self.total_iters)) ** self.power
        return [lr * factor for lr in self._group_lrs()]

    def _closed_form(self) -> list[float]:
        done = min(self.total_iters, self.last_epoch) / self.total_iters
        return [base * (1.0 - done) ** self.power for base in self.base_lrs]


class StepLR(LRScheduler):
    """Multiply the lr by ``gamma`` every ``step_size`` epochs."""

    def __init__(self, optimizer: Optimizer, step_size: int, gamma: float = 0.1,
                 last_epoch: int = -1) -> None:
        self.step_size = step_size
        self.gamma = gamma
        super().__init__(optimizer, last_epoch)

    def get_lr(self) -> list[float]:
        if self.last_epoch == 0 or self.last_epoch % self.step_size != 0:
            return self._group_lrs()
        return [lr * self.gamma for lr in self._group_lrs()]

    def _closed_form(self) -> list[float]:
        return [base * self.gamma ** (self.last_epoch // self.step_size) for base in self.base_lrs]


class MultiStepLR(LRScheduler):
    """Multiply the lr by ``gamma`` at each milestone epoch."""

    def __init__(self, optimizer: Optimizer, milestones: Sequence[int], gamma: float = 0.1,
                 last_epoch: int = -1) -> None:
        self.milestones = Counter(milestones)
        self.gamma = gamma
        super().__init__(optimizer, last_epoch)

    def get_lr(self) -> list[float]:
        if self.last_epoch not in self.milestones:
            return self._group_lrs()
        factor = self.gamma ** self.milestones[self.last_epoch]
        return [lr * factor for lr in self._group_lrs()]

    def _closed_form(self) -> list[float]:
        passed = bisect_right(sorted(self.milestones.elements()), self.last_epoch)
        return [base * self.gamma ** passed for base in self.base_lrs]


class ExponentialLR(LRScheduler):
    """Multiply the lr by ``gamma`` every epoch."""

    def __init__(self, optimizer: Optimizer, gamma: float, last_epoch: int = -1) -> None:
        self.gamma = gamma
        super().__init__(optimizer, last_epoch)

    def get_lr(self) -> list[float]:
        if self.last_epoch == 0:
            return self._group_lrs()
        return [lr * self.gamma for lr in self._group_lrs()]

    def _closed_form(self) -> list[float]:
        return [base * self.gamma ** self.last_epoch for base in self.base_lrs]


class CosineAnnealingLR(LRScheduler):
    """Cosine annealing from the initial lr to ``eta_min`` over ``T_max`` epochs (then back up),
    computed recursively from the current lr like PyTorch."""

    def __init__(self, optimizer: Optimizer, T_max: int, eta_min: float = 0.0,
                 last_epoch: int = -1) -> None:
        self.T_max = T_max
        self.eta_min = eta_min
        super().__init__(optimizer, last_epoch)

    def get_lr(self) -> list[float]:
        epoch, t_max, eta_min = self.last_epoch, self.T_max, self.eta_min
        if epoch == 0:
            return self._group_lrs()
        if self._step_count == 1 and epoch > 0:
            return [eta_min + (base - eta_min) * (1 + math.cos(epoch * math.pi / t_max)) / 2
                    for base in self.base_lrs]
        if (epoch - 1 - t_max) % (2 * t_max) == 0:
            return [lr + (base - eta_min) * (1 - math.cos(math.pi / t_max)) / 2
                    for lr, base in zip(self._group_lrs(), self.base_lrs, strict=True)]
        ratio = ((1 + math.cos(math.pi * epoch / t_max))
                 / (1 + math.cos(math.pi * (epoch - 1) / t_max)))
        return [ratio * (lr - eta_min) + eta_min for lr in self._group_lrs()]

    def _closed_form(self) -> list[float]:
        return [self.eta_min + (base - self.eta_min)
                * (1 + math.cos(math.pi * self.last_epoch / self.T_max)) / 2
                for base in self.base_lrs]


class CosineAnnealingWarmRestarts(LRScheduler):
    """Cosine annealing restarted every ``T_i`` epochs, ``T_i`` growing by ``T_mult``."""

    def __init__(self, optimizer: Optimizer, T_0: int, T_mult: int = 1,
                 eta_min: float = 0.0, last_epoch: int = -1) -> None:
        if T_0 <= 0 or not isinstance(T_0, int):
            raise ArgumentError(f"Expected positive integer T_0, but got {T_0}")
        if T_mult < 1 or not isinstance(T_mult, int):
            raise ArgumentError(f"Expected integer T_mult >= 1, but got {T_mult}")
        self.T_0 = T_0
        self.T_i = T_0
        self.T_mult = T_mult
        self.eta_min = eta_min
        self.T_cur = last_epoch
        super().__init__(optimizer, last_epoch)

    def get_lr(self) -> list[float]:
        return [self.eta_min + (base - self.eta_min)
                * (1 + math.cos(math.pi * self.T_cur / self.T_i)) / 2 for base in self.base_lrs]

    def step(self, epoch: float | None = None) -> None:  # type: ignore[override]
        if epoch is None and self.last_epoch < 0:
            epoch = 0
        if epoch is None:
            epoch = self.last_epoch + 1
            self.T_cur = self.T_cur + 1
            if self.T_cur >= self.T_i:
                self.T_cur = self.T_cur - self.T_i
                self.T_i = self.T_i * self.T_mult
        else:
            if epoch < 0:
                raise ArgumentError(f"Expected non-negative epoch, but got {epoch}")
            if epoch >= self.T_0:
                if self.T_mult == 1:
                    self.T_cur = epoch % self.T_0
                else:
                    n = int(math.log(epoch / self.T_0 * (self.T_mult - 1) + 1, self.T_mult))
                    self.T_cur = epoch - self.T_0 * (self.T_mult ** n - 1) / (self.T_mult - 1)
                    self.T_i = self.T_0 * self.T_mult ** n
            else:
                self.T_i = self.T_0
                self.T_cur = epoch
        self.last_epoch = math.floor(epoch)
        self._step_count += 1
        for group, lr in zip(self.optimizer.param_groups, self.get_lr(), strict=True):
            group["lr"] = lr
        self._last_lr = self._group_lrs()


class LinearLR(LRScheduler):
    """Scale the lr linearly from ``start_factor`` to ``end_factor`` over ``total_iters``."""

    def __init__(self, optimizer: Optimizer, start_factor: float = 1.0 / 3,
                 end_factor: float = 1.0, total_iters: int = 5, last_epoch: int = -1) -> None:
        if not 0 < start_factor <= 1:
            raise ArgumentError("Starting multiplicative factor expected to be greater than 0 "
                                "and less or equal to 1.")
        if not 0 <= end_factor <= 1:
            raise ArgumentError("Ending multiplicative factor expected to be between 0 and 1.")
        self.start_factor = start_factor
        self.end_factor = end_factor
        self.total_iters = total_iters
        super().__init__(optimizer, last_epoch)

    def get_lr(self) -> list[float]:
        if self.last_epoch == 0:
            return [lr * self.start_factor for lr in self._group_lrs()]
        if self.last_epoch > self.total_iters:
            return self._group_lrs()
        span = self.end_factor - self.start_factor
        factor = 1.0 + span / (self.total_iters * self.start_factor + (self.last_epoch - 1) * span)
        return [lr * factor for lr in self._group_lrs()]

    def _closed_form(self) -> list[float]:
        done = min(self.total_iters, self.last_epoch) / self.total_iters
        return [base * (self.start_factor + (self.end_factor - self.start_factor) * done)
                for base in self.base_lrs]


class OneCycleLR(LRScheduler):
    """The 1cycle policy: warm up to ``max_lr`` then anneal far below the initial lr, cycling the
    momentum (SGD's ``momentum`` or Adam's ``beta1``) inversely."""

    def __init__(self, optimizer: Optimizer, max_lr: float | Sequence[float],
                 total_steps: int | None = None, epochs: int | None = None,
                 steps_per_epoch: int | None = None, pct_start: float = 0.3,
                 anneal_strategy: str = "cos", cycle_momentum: bool = True,
                 base_momentum: float | Sequence[float] = 0.85,
                 max_momentum: float | Sequence[float] = 0.95, div_factor: float = 25.0,
                 final_div_factor: float = 1e4, three_phase: bool = False,
                 last_epoch: int = -1) -> None:
        if total_steps is not None:
            if total_steps <= 0:
                raise ArgumentError(f"Expected positive integer total_steps, but got {total_steps}")
            self.total_steps = total_steps
        elif epochs is not None and steps_per_epoch is not None:
            if epochs <= 0 or steps_per_epoch <= 0:
                raise ArgumentError("Expected positive integer epochs and steps_per_epoch")
            self.total_steps = epochs * steps_per_epoch
        else:
            raise ArgumentError("You must define either total_steps OR (epochs AND "
                                "steps_per_epoch)")
        if not 0 <= pct_start <= 1:
            raise ArgumentError(f"Expected float between 0 and 1 pct_start, but got {pct_start}")
        if anneal_strategy not in ("cos", "linear"):
            raise ArgumentError(f"anneal_strategy must be one of 'cos' or 'linear', instead got "
                                f"{anneal_strategy}")
        self.anneal_strategy = anneal_strategy
        phase = pct_start * self.total_steps
        if three_phase:
            self._schedule_phases = [
                dict(end_step=float(phase) - 1, start_lr="initial_lr", end_lr="max_lr",
                     start_momentum="max_momentum", end_momentum="base_momentum"),
                dict(end_step=float(2 * phase) - 2, start_lr="max_lr", end_lr="initial_lr",
                     start_momentum="base_momentum", end_momentum="max_momentum"),
                dict(end_step=self.total_steps - 1, start_lr="initial_lr", end_lr="min_lr",
                     start_momentum="max_momentum", end_momentum="max_momentum"),
            ]
        else:
            self._schedule_phases = [
                dict(end_step=float(phase) - 1, start_lr="initial_lr", end_lr="max_lr",
                     start_momentum="max_momentum", end_momentum="base_momentum"),
                dict(end_step=self.total_steps - 1, start_lr="max_lr", end_lr="min_lr",
                     start_momentum="base_momentum", end_momentum="max_momentum"),
            ]
        groups = optimizer.param_groups
        max_lrs = _per_group(max_lr, len(groups), "max_lr")
        if last_epoch == -1:
            for lr, group in zip(max_lrs, groups, strict=True):
                group["initial_lr"] = lr / div_factor
                group["max_lr"] = lr
                group["min_lr"] = group["initial_lr"] / final_div_factor
        self.cycle_momentum = cycle_momentum
        if cycle_momentum:
            if "momentum" not in optimizer.defaults and "betas" not in optimizer.defaults:
                raise ArgumentError("optimizer must support momentum or beta1 with "
                                    "`cycle_momentum` option enabled")
            self.use_beta1 = "betas" in optimizer.defaults
            max_momenta = _per_group(max_momentum, len(groups), "max_momentum")
            base_momenta = _per_group(base_momentum, len(groups), "base_momentum")
            if last_epoch == -1:
                for high, low, group in zip(max_momenta, base_momenta, groups, strict=True):
                    self._set_momentum(group, high)
                    group["max_momentum"] = high
                    group["base_momentum"] = low
        super().__init__(optimizer, last_epoch)

    def _set_momentum(self, group: dict[str, Any], value: float) -> None:
        if self.use_beta1:
            group["betas"] = (value, *group["betas"][1:])
        else:
            group["momentum"] = value

    def _anneal(self, start: float, end: float, pct: float) -> float:
        if self.anneal_strategy == "cos":
            return end + (start - end) / 2.0 * (math.cos(math.pi * pct) + 1)
        return (end - start) * pct + start

    def get_lr(self) -> list[float]:
        step = self.last_epoch
        if step > self.total_steps:
            raise ArgumentError(f"Tried to step {step} times. The specified number of total steps "
                                f"is {self.total_steps}")
        lrs = []
        for group in self.optimizer.param_groups:
            start_step = 0.0
            for i, phase in enumerate(self._schedule_phases):
                end_step = phase["end_step"]
                if step <= end_step or i == len(self._schedule_phases) - 1:
                    pct = (step - start_step) / (end_step - start_step)
                    lr = self._anneal(group[phase["start_lr"]], group[phase["end_lr"]], pct)
                    if self.cycle_momentum:
                        self._set_momentum(group, self._anneal(
                            group[phase["start_momentum"]], group[phase["end_momentum"]], pct))
                    break
                start_step = end_step
            lrs.append(lr)
        return lrs


def _per_group(value: float | Sequence[float], groups: int, name: str) -> list[float]:
    if isinstance(value, (list, tuple)):
        if len(value) != groups:
            raise ArgumentError(f"expected {groups} values for {name}, got {len(value)}")
        return list(value)
    return [value] * groups  # type: ignore[list-item]


class _SchedulerOfSchedulers(LRScheduler):
    """A scheduler that drives others (SequentialLR, ChainedScheduler): its state_dict holds
    theirs, as PyTorch's does."""

    _schedulers: list[LRScheduler]

    def state_dict(self) -> dict[str, Any]:
        state = {k: v for k, v in self.__dict__.items() if k not in ("optimizer", "_schedulers")}
        state["_schedulers"] = [s.state_dict() for s in self._schedulers]
        return state

    def load_state_dict(self, state_dict: dict[str, Any]) -> None:
        state = dict(state_dict)
        inner = state.pop("_schedulers")
        self.__dict__.update(state)
        for scheduler, saved in zip(self._schedulers, inner, strict=True):
            scheduler.load_state_dict(saved)


class SequentialLR(_SchedulerOfSchedulers):
    """Run ``schedulers`` one after another, switching at each milestone."""

    def __init__(self, optimizer: Optimizer, schedulers: Sequence[LRScheduler],
                 milestones: Sequence[int], last_epoch: int = -1) -> None:
        if len(schedulers) < 1:
            raise ArgumentError("SequentialLR expects at least one scheduler")
        for i, scheduler in enumerate(schedulers):
            if scheduler.optimizer is not optimizer:
                raise ArgumentError(f"SequentialLR expects all schedulers to belong to the same "
                                    f"optimizer, but got scheduler at index {i} with a different "
                                    "optimizer")
        if len(milestones) != len(schedulers) - 1:
            raise ArgumentError(f"Sequential Schedulers expects number of schedulers provided to "
                                f"be one more than the number of milestone points, but got "
                                f"number of schedulers {len(schedulers)} and the number of "
                                f"milestones to be equal to {len(milestones)}")
        self._schedulers = list(schedulers)
        self._milestones = list(milestones)
        self.last_epoch = last_epoch + 1
        self.optimizer = optimizer
        # the schedulers' constructors already stepped once: start again from the first one
        for group in optimizer.param_groups:
            group["lr"] = group["initial_lr"]
        for scheduler in self._schedulers:
            scheduler.last_epoch -= 1
        self._schedulers[0]._initial_step()
        self._last_lr = schedulers[0].get_last_lr()

    def step(self, epoch: int | None = None) -> None:
        self.last_epoch += 1
        idx = bisect_right(self._milestones, self.last_epoch)
        scheduler = self._schedulers[idx]
        if idx > 0 and self._milestones[idx - 1] == self.last_epoch:
            scheduler.step(0)
        else:
            scheduler.step()
        self._last_lr = scheduler.get_last_lr()



class ReduceLROnPlateau(LRScheduler):
    """Reduce the lr by ``factor`` once a metric has stopped improving for ``patience`` epochs."""

    def __init__(self, optimizer: Optimizer, mode: str = "min", factor: float = 0.1,
                 patience: int = 10, threshold: float = 1e-4, threshold_mode: str = "rel",
                 cooldown: int = 0, min_lr: float | Sequence[float] = 0, eps: float = 1e-8) -> None:
        if factor >= 1.0:
            raise ArgumentError("Factor should be < 1.0.")
        if mode not in ("min", "max"):
            raise ArgumentError(f"mode {mode} is unknown!")
        if threshold_mode not in ("rel", "abs"):
            raise ArgumentError(f"threshold mode {threshold_mode} is unknown!")
        if not isinstance(optimizer, Optimizer):
            raise ArgumentError(f"{type(optimizer).__name__} is not an Optimizer")
        self.optimizer = optimizer
        self.factor = factor
        self.min_lrs = _per_group(min_lr, len(optimizer.param_groups), "min_lr")
        self.patience = patience
        self.cooldown = cooldown
        self.cooldown_counter = 0
        self.mode = mode
        self.threshold = threshold
        self.threshold_mode = threshold_mode
        self.eps = eps
        self.best = math.inf if mode == "min" else -math.inf
        self.num_bad_epochs = 0
        self.last_epoch = 0
        self._last_lr = self._group_lrs()

    def _is_better(self, current: float) -> bool:
        if self.mode == "min" and self.threshold_mode == "rel":
            return current < self.best * (1.0 - self.threshold)
        if self.mode == "min":
            return current < self.best - self.threshold
        if self.threshold_mode == "rel":
            return current > self.best * (self.threshold + 1.0)
        return current > self.best + self.threshold

    def step(self, metrics: Any, epoch: int | None = None) -> None:  # type: ignore[override]
        current = float(metrics.item() if hasattr(metrics, "item") else metrics)
        self.last_epoch = self.last_epoch + 1 if epoch is None else epoch
        if self._is_better(current):
            self.best = current
            self.num_bad_epochs = 0
        else:
            self.num_bad_epochs += 1
        if self.cooldown_counter > 0:
            self.cooldown_counter -= 1
            self.num_bad_epochs = 0
        if self.num_bad_epochs > self.patience:
            for group, min_lr in zip(self.optimizer.param_groups, self.min_lrs, strict=True):
                old = float(group["lr"])
                new = max(old * self.factor, min_lr)
                if old - new > self.eps:
                    group["lr"] = new
            self.cooldown_counter = self.cooldown
            self.num_bad_epochs = 0
        self._last_lr = self._group_lrs()


class ChainedScheduler(_SchedulerOfSchedulers):
    """Step every scheduler of ``schedulers`` at each ``step()``: their factors compose."""

    def __init__(self, schedulers: Sequence[LRScheduler],
                 optimizer: Optimizer | None = None) -> None:
        if len(schedulers) < 1:
            raise ArgumentError(f"{type(self).__name__} expects at least one scheduler to be "
                                "chained, but got no scheduler.")
        optimizer = optimizer or schedulers[0].optimizer
        for i, scheduler in enumerate(schedulers):
            if not hasattr(scheduler, "optimizer"):
                raise ArgumentError(f"{type(self).__name__} at index {i} should have "
                                    "`optimizer` as its attribute.")
            if isinstance(scheduler, ReduceLROnPlateau):
                raise ArgumentError(f"{type(self).__name__} does not support "
                                    "`ReduceLROnPlateau` scheduler as it requires additional "
                                    "kwargs to be specified when calling `step`, but got one at "
                                    f"index {i} in the given schedulers sequence.")
            if scheduler.optimizer is not optimizer:
                raise ArgumentError(f"{type(self).__name__} expects all schedulers to belong to "
                                    f"the same optimizer, but got scheduler "
                                    f"{type(scheduler).__name__} at index {i} with a different "
                                    "optimizer")
        self._schedulers = list(schedulers)
        self.optimizer = optimizer
        self._last_lr = self._group_lrs()

    def step(self, epoch: int | None = None) -> None:
        for scheduler in self._schedulers:
            scheduler.step()
        self._last_lr = self._group_lrs()



class CyclicLR(LRScheduler):
    """Cycle the lr between ``base_lr`` and ``max_lr`` (up in ``step_size_up`` steps, down in
    ``step_size_down``), the amplitude scaled per cycle (``triangular``: constant,
    ``triangular2``: halved each cycle) or per iteration (``exp_range``: ``gamma ** iteration``)
    or by ``scale_fn``; with ``cycle_momentum`` the momentum (or Adam's beta1) cycles inversely
    between ``max_momentum`` and ``base_momentum``."""

    _MODES = ("triangular", "triangular2", "exp_range")

    def __init__(self, optimizer: Optimizer, base_lr: float | Sequence[float],
                 max_lr: float | Sequence[float], step_size_up: int = 2000,
                 step_size_down: int | None = None, mode: str = "triangular", gamma: float = 1.0,
                 scale_fn: Callable[[float], float] | None = None, scale_mode: str = "cycle",
                 cycle_momentum: bool = True, base_momentum: float | Sequence[float] = 0.8,
                 max_momentum: float | Sequence[float] = 0.9, last_epoch: int = -1) -> None:
        if not isinstance(optimizer, Optimizer):
            raise ArgumentError(f"{type(optimizer).__name__} is not an Optimizer")
        groups = optimizer.param_groups
        base_lrs = _per_group(base_lr, len(groups), "base_lr")
        if last_epoch == -1:
            for lr, group in zip(base_lrs, groups, strict=True):
                group["lr"] = lr
        self.max_lrs = _per_group(max_lr, len(groups), "max_lr")
        up = float(step_size_up)
        down = float(step_size_down) if step_size_down is not None else up
        self.total_size = up + down
        self.step_ratio = up / self.total_size
        if mode not in self._MODES and scale_fn is None:
            raise ArgumentError("mode is invalid and scale_fn is None")
        self.mode = mode
        self.gamma = gamma
        self._scale_fn_custom = scale_fn
        self.scale_mode = scale_mode
        self._init_scale_fn()
        self.cycle_momentum = cycle_momentum
        if cycle_momentum:
            if "momentum" not in optimizer.defaults and "betas" not in optimizer.defaults:
                raise ArgumentError("optimizer must support momentum or beta1 with "
                                    "`cycle_momentum` option enabled")
            self.use_beta1 = "betas" in optimizer.defaults
            self.base_momentums = _per_group(base_momentum, len(groups), "base_momentum")
            self.max_momentums = _per_group(max_momentum, len(groups), "max_momentum")
            if last_epoch == -1:
                for high, low, group in zip(self.max_momentums, self.base_momentums, groups,
                                            strict=True):
                    self._set_momentum(group, high)
                    group["max_momentum"] = high
                    group["base_momentum"] = low
        super().__init__(optimizer, last_epoch)
        self.base_lrs = base_lrs

    def _init_scale_fn(self) -> None:
        """The built-in modes fix their scale mode (a custom ``scale_fn`` keeps the one given)."""
        if self._scale_fn_custom is None:
            self.scale_mode = "iterations" if self.mode == "exp_range" else "cycle"

    def scale_fn(self, x: float) -> float:
        if self._scale_fn_custom is not None:
            return self._scale_fn_custom(x)
        if self.mode == "triangular2":
            return 1 / (2.0 ** (x - 1))
        if self.mode == "exp_range":
            return self.gamma ** x
        return 1.0

    def _set_momentum(self, group: dict[str, Any], value: float) -> None:
        if self.use_beta1:
            group["betas"] = (value, *group["betas"][1:])
        else:
            group["momentum"] = value

    def get_lr(self) -> list[float]:
        cycle = math.floor(1 + self.last_epoch / self.total_size)
        x = 1.0 + self.last_epoch / self.total_size - cycle
        if x <= self.step_ratio:
            scale_factor = x / self.step_ratio
        else:
            scale_factor = (x - 1) / (self.step_ratio - 1)
        scale = self.scale_fn(cycle if self.scale_mode == "cycle" else self.last_epoch)
        lrs = [base + (high - base) * scale_factor * scale
               for base, high in zip(self.base_lrs, self.max_lrs, strict=True)]
        if self.cycle_momentum:
            for group, low, high in zip(self.optimizer.param_groups, self.base_momentums,
                                        self.max_momentums, strict=True):
                self._set_momentum(group, high - (high - low) * scale_factor * scale)
        return lrs

    def state_dict(self) -> dict[str, Any]:
        state = super().state_dict()
        fn = state.pop("_scale_fn_custom")
        state["_scale_fn_custom"] = (None if fn is None or isinstance(fn, types.FunctionType)
                                     else dict(fn.__dict__))
        return state

    def load_state_dict(self, state_dict: dict[str, Any]) -> None:
        state = dict(state_dict)
        saved_fn = state.pop("_scale_fn_custom")
        super().load_state_dict(state)
        if saved_fn is not None and self._scale_fn_custom is not None:
            self._scale_fn_custom.__dict__.update(saved_fn)
        self._init_scale_fn()
