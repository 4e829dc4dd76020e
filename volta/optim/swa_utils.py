"""Stochastic weight averaging and exponential moving averages of a model, as in
``torch.optim.swa_utils``: ``AveragedModel``, the averaging functions, ``SWALR`` and
``update_bn``."""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable, Iterable, Sequence
from copy import deepcopy
from typing import Any

import volta
from volta.errors import ArgumentError
from volta.nn.modules.normalization import _BatchNorm
from volta.optim.lr_scheduler import LRScheduler, _per_group
from volta.optim.optimizer import Optimizer

__all__ = ["SWALR", "AveragedModel", "get_ema_avg_fn", "get_ema_multi_avg_fn", "get_swa_avg_fn",
           "get_swa_multi_avg_fn", "update_bn"]

TensorList = Sequence[volta.Tensor]
AvgFn = Callable[[volta.Tensor, volta.Tensor, "volta.Tensor | int"], volta.Tensor]
MultiAvgFn = Callable[[TensorList, TensorList, "volta.Tensor | int"], None]


def _check_decay(decay: float) -> None:
    if decay < 0.0 or decay > 1.0:
        raise ArgumentError(f"Invalid decay value {decay} provided. Please provide a value in "
                            "[0,1] range.")


def get_ema_multi_avg_fn(decay: float = 0.999) -> MultiAvgFn:
    """In place, for lists of tensors: ``ema = decay * ema + (1 - decay) * current``."""
    _check_decay(decay)

    def ema_update(ema_params: TensorList, current_params: TensorList, _: Any) -> None:
        with volta.no_grad():
            for ema, current in zip(ema_params, current_params, strict=True):
                if ema.dtype.is_floating_point:
                    ema.lerp_(current, 1 - decay)
                else:
                    ema.copy_(ema * decay + current * (1 - decay))
    return ema_update


def get_swa_multi_avg_fn() -> MultiAvgFn:
    """In place, for lists of tensors: the running mean over ``num_averaged + 1`` models."""

    def swa_update(averaged_params: TensorList, current_params: TensorList,
                   num_averaged: volta.Tensor | int) -> None:
        # a tensor count gives a float32 weight, as in PyTorch
        weight = 1 / (num_averaged + 1)
        weight = float(weight.item() if isinstance(weight, volta.Tensor) else weight)
        with volta.no_grad():
            for averaged, current in zip(averaged_params, current_params, strict=True):
                if averaged.dtype.is_floating_point:
                    averaged.lerp_(current, weight)
                else:  # integer buffers (batch counts): the mean, truncated
                    averaged.copy_(averaged + (current - averaged) / (num_averaged + 1))
    return swa_update


def get_ema_avg_fn(decay: float = 0.999) -> AvgFn:
    """Out of place, one tensor at a time: ``decay * ema + (1 - decay) * current``."""
    _check_decay(decay)

    def ema_update(ema: volta.Tensor, current: volta.Tensor, num_averaged: Any) -> volta.Tensor:
        with volta.no_grad():
            return decay * ema + (1 - decay) * current
    return ema_update


def get_swa_avg_fn() -> AvgFn:
    """Out of place, one tensor at a time: the running mean over ``num_averaged + 1`` models."""

    def swa_update(averaged: volta.Tensor, current: volta.Tensor,
                   num_averaged: volta.Tensor | int) -> volta.Tensor:
        with volta.no_grad():
            return averaged + (current - averaged) / (num_averaged + 1)
    return swa_update


class AveragedModel(volta.nn.Module):
    """A copy of ``model`` whose parameters (and buffers, with ``use_buffers``) are an average of
    the models given to ``update_parameters``: the equal-weight running mean by default, or
    ``avg_fn`` (per tensor) / ``multi_avg_fn`` (per list, e.g. ``get_ema_multi_avg_fn()``).
    Without ``use_buffers`` the buffers are copied from the latest model. ``n_averaged`` counts
    the models averaged (an int64 buffer, as in PyTorch)."""

    def __init__(self, model: volta.nn.Module, device: str | None = None,
                 avg_fn: AvgFn | None = None, multi_avg_fn: MultiAvgFn | None = None,
                 use_buffers: bool = False) -> None:
        super().__init__()
        if avg_fn is not None and multi_avg_fn is not None:
            raise ArgumentError("Only one of avg_fn and multi_avg_fn should be provided")
        self.module = deepcopy(model)
        if device is not None:
            self.module = self.module.to(device)
        self.register_buffer("n_averaged", volta.tensor(0, dtype=volta.int64, device=device))
        self.avg_fn = avg_fn
        self.multi_avg_fn = multi_avg_fn
        self.use_buffers = use_buffers

    def forward(self, *args: Any, **kwargs: Any) -> Any:
        return self.module(*args, **kwargs)

    def _averaged_tensors(self, model: volta.nn.Module) -> tuple[list[volta.Tensor],
                                                                 list[volta.Tensor]]:
        if self.use_buffers:
            ours = itertools.chain(self.module.parameters(), self.module.buffers())
            theirs = itertools.chain(model.parameters(), model.buffers())
        else:
            ours, theirs = self.module.parameters(), model.parameters()
        averaged, current = [], []
        for mine, other in zip(ours, theirs, strict=False):
            averaged.append(mine.detach())
            current.append(other.detach().to(mine.device))
        return averaged, current

    def update_parameters(self, model: volta.nn.Module) -> None:
        """Average ``model``'s parameters into this copy (the first call copies them)."""
        averaged, current = self._averaged_tensors(model)
        count = int(self.n_averaged.item())
        with volta.no_grad():
            if count == 0:
                for mine, other in zip(averaged, current, strict=True):
                    mine.copy_(other)
            elif self.multi_avg_fn is not None:
                # one call per (device, dtype) group, as PyTorch groups its foreach calls
                groups: dict[tuple[str, Any], tuple[list[volta.Tensor], list[volta.Tensor]]] = {}
                for mine, other in zip(averaged, current, strict=True):
                    mine_list, other_list = groups.setdefault((str(mine.device), mine.dtype),
                                                              ([], []))
                    mine_list.append(mine)
                    other_list.append(other)
                for (device, _), (mine_list, other_list) in groups.items():
                    self.multi_avg_fn(mine_list, other_list, self.n_averaged.to(device))
            else:
                # the running mean, one tensor at a time (PyTorch's path on CPU)
                average = self.avg_fn or get_swa_avg_fn()
                for mine, other in zip(averaged, current, strict=True):
                    mine.copy_(average(mine, other, self.n_averaged.to(mine.device)))
            if not self.use_buffers:
                for mine, other in zip(self.module.buffers(), model.buffers(), strict=True):
                    mine.detach().copy_(other.detach().to(mine.device))
            self.n_averaged.add_(1)


def update_bn(loader: Iterable[Any], model: volta.nn.Module, device: str | None = None) -> None:
    """Recompute the running statistics of ``model``'s batch norms with one pass over
    ``loader`` (a cumulative average: momentum ``None`` during the pass); the first element of a
    list or tuple batch is the input."""
    momenta = {}
    for module in model.modules():
        if isinstance(module, _BatchNorm):
            module.reset_running_stats()
            momenta[module] = module.momentum
    if not momenta:
        return
    was_training = model.training
    model.train()
    for module in momenta:
        module.momentum = None
    with volta.no_grad():
        for batch in loader:
            if isinstance(batch, (list, tuple)):
                batch = batch[0]
            if device is not None:
                batch = batch.to(device)
            model(batch)
    for module, momentum in momenta.items():
        module.momentum = momentum
    model.train(was_training)


class SWALR(LRScheduler):
    """Anneal each group's lr to its ``swa_lr`` over ``anneal_epochs`` epochs (cosine or linear),
    then hold it."""

    _excluded_state = ("optimizer", "anneal_func")

    def __init__(self, optimizer: Optimizer, swa_lr: float | Sequence[float],
                 anneal_epochs: int = 10, anneal_strategy: str = "cos",
                 last_epoch: int = -1) -> None:
        for lr, group in zip(_per_group(swa_lr, len(optimizer.param_groups), "swa_lr"),
                             optimizer.param_groups, strict=True):
            group["swa_lr"] = lr
        if anneal_strategy not in ("cos", "linear"):
            raise ArgumentError(f"anneal_strategy must be one of 'cos' or 'linear', instead got "
                                f"{anneal_strategy}")
        self._set_anneal_func(anneal_strategy)
        if isinstance(anneal_epochs, bool) or not isinstance(anneal_epochs, int) \
                or anneal_epochs < 0:
            raise ArgumentError(f"anneal_epochs must be equal or greater than 0, got "
                                f"{anneal_epochs}")
        self.anneal_epochs = anneal_epochs
        super().__init__(optimizer, last_epoch)

    @staticmethod
    def _linear_anneal(t: float) -> float:
        return t

    @staticmethod
    def _cosine_anneal(t: float) -> float:
        return (1 - math.cos(math.pi * t)) / 2

    def _set_anneal_func(self, anneal_strategy: str) -> None:
        self._anneal_strategy = anneal_strategy
        self.anneal_func = self._cosine_anneal if anneal_strategy == "cos" else self._linear_anneal

    @staticmethod
    def _lr_before_annealing(lr: float, swa_lr: float, alpha: float) -> float:
        """Invert ``lr = alpha * swa_lr + (1 - alpha) * start``: the lr annealing started from."""
        if alpha == 1:
            return swa_lr
        return (lr - alpha * swa_lr) / (1 - alpha)

    def get_lr(self) -> list[float]:
        step = self._step_count - 1
        if self.anneal_epochs == 0:
            step = max(1, step)
        previous_alpha = self.anneal_func(max(0, min(1, (step - 1) / max(1, self.anneal_epochs))))
        starts = [self._lr_before_annealing(group["lr"], group["swa_lr"], previous_alpha)
                  for group in self.optimizer.param_groups]
        alpha = self.anneal_func(max(0, min(1, step / max(1, self.anneal_epochs))))
        return [group["swa_lr"] * alpha + start * (1 - alpha)
                for group, start in zip(self.optimizer.param_groups, starts, strict=True)]

    def load_state_dict(self, state_dict: dict[str, Any]) -> None:
        super().load_state_dict(state_dict)
        self._set_anneal_func(self._anneal_strategy)
