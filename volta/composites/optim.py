"""Composite (reference) formulation of volta.optim's fused update ops (ops.yaml
``_sgd_update_`` ...): PyTorch's single-tensor algorithms written with other ops, for backends
without a fused kernel. Each writes the parameter and its state in place."""

from __future__ import annotations

import math

from volta._generated import functions as F
from volta.composites.base import composite
from volta.tensor.tensor import Tensor


def _update_direction(param: Tensor, grad: Tensor, weight_decay: float, maximize: bool) -> Tensor:
    direction = F.neg(grad) if maximize else grad
    if weight_decay != 0:
        direction = F.add(direction, param, alpha=weight_decay)
    return direction


@composite("_sgd_update_")
def sgd_update_(param: Tensor, grad: Tensor, momentum_buffer: Tensor | None, lr: float,
                momentum: float, dampening: float, weight_decay: float, nesterov: bool,
                maximize: bool, first_step: bool) -> Tensor:
    step = _update_direction(param, grad, weight_decay, maximize)
    if momentum != 0 and momentum_buffer is not None:
        if first_step:
            momentum_buffer.copy_(step)
        else:
            momentum_buffer.copy_(F.add(F.mul(momentum_buffer, momentum), step,
                                        alpha=1 - dampening))
        step = F.add(step, momentum_buffer, alpha=momentum) if nesterov else momentum_buffer
    return param.copy_(F.add(param, step, alpha=-lr))


@composite("_adam_update_")
def adam_update_(param: Tensor, grad: Tensor, exp_avg: Tensor, exp_avg_sq: Tensor,
                 max_exp_avg_sq: Tensor | None, step: int, lr: float, beta1: float, beta2: float,
                 eps: float, weight_decay: float, amsgrad: bool, maximize: bool,
                 decoupled_weight_decay: bool) -> Tensor:
    if decoupled_weight_decay:
        g = F.neg(grad) if maximize else grad
        if weight_decay != 0:
            param.copy_(F.mul(param, 1 - lr * weight_decay))
    else:
        g = _update_direction(param, grad, weight_decay, maximize)
    exp_avg.copy_(F.add(exp_avg, F.sub(g, exp_avg), alpha=1 - beta1))
    exp_avg_sq.copy_(F.addcmul(F.mul(exp_avg_sq, beta2), g, g, value=1 - beta2))
    second = exp_avg_sq
    if amsgrad and max_exp_avg_sq is not None:
        second = max_exp_avg_sq.copy_(F.maximum(max_exp_avg_sq, exp_avg_sq))
    denom = F.add(F.div(F.sqrt(second), math.sqrt(1 - beta2 ** step)), eps)
    return param.copy_(F.addcdiv(param, exp_avg, denom, value=-lr / (1 - beta1 ** step)))


@composite("_rmsprop_update_")
def rmsprop_update_(param: Tensor, grad: Tensor, square_avg: Tensor, grad_avg: Tensor | None,
                    momentum_buffer: Tensor | None, lr: float, alpha: float, eps: float,
                    weight_decay: float, momentum: float, maximize: bool) -> Tensor:
    g = _update_direction(param, grad, weight_decay, maximize)
    square_avg.copy_(F.addcmul(F.mul(square_avg, alpha), g, g, value=1 - alpha))
    if grad_avg is not None:
        grad_avg.copy_(F.add(grad_avg, F.sub(g, grad_avg), alpha=1 - alpha))
        avg = F.sqrt(F.addcmul(square_avg, grad_avg, grad_avg, value=-1))
    else:
        avg = F.sqrt(square_avg)
    avg = F.add(avg, eps)
    if momentum > 0 and momentum_buffer is not None:
        momentum_buffer.copy_(F.addcdiv(F.mul(momentum_buffer, momentum), g, avg))
        return param.copy_(F.add(param, momentum_buffer, alpha=-lr))
    return param.copy_(F.addcdiv(param, g, avg, value=-lr))


@composite("_adagrad_update_")
def adagrad_update_(param: Tensor, grad: Tensor, state_sum: Tensor, step: int, lr: float,
                    lr_decay: float, weight_decay: float, eps: float, maximize: bool) -> Tensor:
    g = _update_direction(param, grad, weight_decay, maximize)
    state_sum.copy_(F.addcmul(state_sum, g, g))
    std = F.add(F.sqrt(state_sum), eps)
    return param.copy_(F.addcdiv(param, g, std, value=-lr / (1 + (step - 1) * lr_decay)))
