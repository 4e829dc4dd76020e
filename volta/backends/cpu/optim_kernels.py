"""Fused numpy kernels for volta.optim's per-parameter updates (ops.yaml: ``_sgd_update_`` ...).

Each kernel updates a whole parameter and its optimizer state in place with vectorised numpy
(no Python loop over elements, no copy of the gradient), in the parameter's dtype, following
PyTorch's single-tensor algorithms so results match ``torch.optim``.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

import numpy as np

from volta.backends.cpu.storage import array as A
from volta.tensor.tensor import Tensor

KERNELS: dict[str, Callable[..., Any]] = {}


def kernel(name: str) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    def register(fn: Callable[..., Any]) -> Callable[..., Any]:
        KERNELS[name] = fn
        return fn
    return register


def _direction(p: np.ndarray, g: np.ndarray, weight_decay: float, maximize: bool) -> np.ndarray:
    """The gradient with maximize and L2 weight decay applied; ``g`` itself is never written."""
    if weight_decay != 0:
        d = p * weight_decay
        if maximize:
            np.subtract(d, g, out=d)
        else:
            np.add(g, d, out=d)
        return d
    return np.negative(g) if maximize else g


@kernel("_sgd_update_")
def sgd_update_(param: Tensor, grad: Tensor, momentum_buffer: Tensor | None, lr: float,
                momentum: float, dampening: float, weight_decay: float, nesterov: bool,
                maximize: bool, first_step: bool) -> Tensor:
    p = A(param)
    d = _direction(p, A(grad), weight_decay, maximize)
    if momentum != 0 and momentum_buffer is not None:
        buf = A(momentum_buffer)
        if first_step:
            buf[...] = d
        else:
            buf *= momentum
            buf += d * (1 - dampening) if dampening != 0 else d
        d = d + buf * momentum if nesterov else buf
    p -= d * lr
    return param


@kernel("_adam_update_")
def adam_update_(param: Tensor, grad: Tensor, exp_avg: Tensor, exp_avg_sq: Tensor,
                 max_exp_avg_sq: Tensor | None, step: int, lr: float, beta1: float, beta2: float,
                 eps: float, weight_decay: float, amsgrad: bool, maximize: bool,
                 decoupled_weight_decay: bool) -> Tensor:
    p, m, v = A(param), A(exp_avg), A(exp_avg_sq)
    if decoupled_weight_decay:
        g = A(grad)
        if maximize:
            g = np.negative(g)
        if weight_decay != 0:
            p *= 1 - lr * weight_decay
    else:
        g = _direction(p, A(grad), weight_decay, maximize)
    # one scratch array serves every intermediate: the update allocates nothing else
    scratch = np.subtract(g, m)
    scratch *= 1 - beta1
    m += scratch
    np.multiply(g, g, out=scratch)
    scratch *= 1 - beta2
    v *= beta2
    v += scratch
    second = v
    if amsgrad and max_exp_avg_sq is not None:
        second = np.maximum(A(max_exp_avg_sq), v, out=A(max_exp_avg_sq))
    np.sqrt(second, out=scratch)
    scratch /= math.sqrt(1 - beta2 ** step)
    scratch += eps
    np.divide(m, scratch, out=scratch)
    scratch *= lr / (1 - beta1 ** step)
    p -= scratch
    return param


@kernel("_rmsprop_update_")
def rmsprop_update_(param: Tensor, grad: Tensor, square_avg: Tensor, grad_avg: Tensor | None,
                    momentum_buffer: Tensor | None, lr: float, alpha: float, eps: float,
                    weight_decay: float, momentum: float, maximize: bool) -> Tensor:
    p, sq = A(param), A(square_avg)
    g = _direction(p, A(grad), weight_decay, maximize)
    sq *= alpha
    sq += g * g * (1 - alpha)
    if grad_avg is not None:
        ga = A(grad_avg)
        ga += (g - ga) * (1 - alpha)
        avg = sq - ga * ga
        np.sqrt(avg, out=avg)
    else:
        avg = np.sqrt(sq)
    avg += eps
    if momentum > 0 and momentum_buffer is not None:
        buf = A(momentum_buffer)
        buf *= momentum
        buf += g / avg
        p -= buf * lr
    else:
        np.divide(g, avg, out=avg)
        avg *= lr
        p -= avg
    return param


@kernel("_adagrad_update_")
def adagrad_update_(param: Tensor, grad: Tensor, state_sum: Tensor, step: int, lr: float,
                    lr_decay: float, weight_decay: float, eps: float, maximize: bool) -> Tensor:
    p, s = A(param), A(state_sum)
    g = _direction(p, A(grad), weight_decay, maximize)
    s += g * g
    std = np.sqrt(s)
    std += eps
    np.divide(g, std, out=std)
    std *= lr / (1 + (step - 1) * lr_decay)
    p -= std
    return param
