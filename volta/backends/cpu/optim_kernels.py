"""Fused numpy kernels for volta.optim's per-parameter updates (ops.yaml: ``_sgd_update_`` ...).

Each kernel updates a whole parameter and its optimizer state in place with vectorised numpy
(no Python loop over elements, no copy of the gradient), in the parameter's dtype, following
PyTorch's single-tensor algorithms so results match ``torch.optim``. The passes run block by
block (``parallel.for_blocks``): two small scratch buffers per thread hold every temporary, and
large parameters are split over threads.
"""

from __future__ import annotations

import math

import numpy as np

from volta.backends.cpu.kernel_table import kernel_table
from volta.backends.cpu.parallel import for_blocks
from volta.backends.cpu.storage import array as A
from volta.tensor.tensor import Tensor

KERNELS, kernel = kernel_table()


def _direction(p: np.ndarray, g: np.ndarray, weight_decay: float, maximize: bool,
               out: np.ndarray) -> np.ndarray:
    """The gradient with maximize and L2 weight decay applied, in ``out`` unless it is ``g``
    itself (``g`` is never written)."""
    if weight_decay != 0:
        np.multiply(p, weight_decay, out=out)
        if maximize:
            np.subtract(out, g, out=out)
        else:
            np.add(g, out, out=out)
        return out
    return np.negative(g, out=out) if maximize else g


@kernel("_sgd_update_")
def sgd_update_(param: Tensor, grad: Tensor, momentum_buffer: Tensor | None, lr: float,
                momentum: float, dampening: float, weight_decay: float, nesterov: bool,
                maximize: bool, first_step: bool) -> Tensor:
    with_buffer = momentum != 0 and momentum_buffer is not None

    def update(p: np.ndarray, g: np.ndarray, buf: np.ndarray | None, s1: np.ndarray,
               s2: np.ndarray) -> None:
        d = _direction(p, g, weight_decay, maximize, s1)
        if buf is not None:
            if first_step:
                np.copyto(buf, d)
            else:
                buf *= momentum
                if dampening != 0:
                    d = np.multiply(d, 1 - dampening, out=s1)
                buf += d
            if nesterov:
                d = np.add(d, np.multiply(buf, momentum, out=s2), out=s1)
            else:
                d = buf
        p -= np.multiply(d, lr, out=s2)

    for_blocks(update, [A(param), A(grad), A(momentum_buffer) if with_buffer else None], 2)
    return param


@kernel("_adam_update_")
def adam_update_(param: Tensor, grad: Tensor, exp_avg: Tensor, exp_avg_sq: Tensor,
                 max_exp_avg_sq: Tensor | None, step: int, lr: float, beta1: float, beta2: float,
                 eps: float, weight_decay: float, amsgrad: bool, maximize: bool,
                 decoupled_weight_decay: bool) -> Tensor:
    bias_correction2_sqrt = math.sqrt(1 - beta2 ** step)
    step_size = lr / (1 - beta1 ** step)

    def update(p: np.ndarray, grad_: np.ndarray, m: np.ndarray, v: np.ndarray,
               v_max: np.ndarray | None, s1: np.ndarray, s2: np.ndarray) -> None:
        if decoupled_weight_decay:
            g = np.negative(grad_, out=s1) if maximize else grad_
            if weight_decay != 0:
                p *= 1 - lr * weight_decay
        else:
            g = _direction(p, grad_, weight_decay, maximize, s1)
        np.subtract(g, m, out=s2)
        s2 *= 1 - beta1
        m += s2
        np.multiply(g, g, out=s2)
        s2 *= 1 - beta2
        v *= beta2
        v += s2
        second = np.maximum(v_max, v, out=v_max) if v_max is not None else v
        np.sqrt(second, out=s2)
        s2 /= bias_correction2_sqrt
        s2 += eps
        np.divide(m, s2, out=s2)
        s2 *= step_size
        p -= s2

    v_max = A(max_exp_avg_sq) if amsgrad and max_exp_avg_sq is not None else None
    for_blocks(update, [A(param), A(grad), A(exp_avg), A(exp_avg_sq), v_max], 2)
    return param


@kernel("_rmsprop_update_")
def rmsprop_update_(param: Tensor, grad: Tensor, square_avg: Tensor, grad_avg: Tensor | None,
                    momentum_buffer: Tensor | None, lr: float, alpha: float, eps: float,
                    weight_decay: float, momentum: float, maximize: bool) -> Tensor:
    def update(p: np.ndarray, grad_: np.ndarray, sq: np.ndarray, ga: np.ndarray | None,
               buf: np.ndarray | None, s1: np.ndarray, s2: np.ndarray) -> None:
        g = _direction(p, grad_, weight_decay, maximize, s1)
        np.multiply(g, g, out=s2)
        s2 *= 1 - alpha
        sq *= alpha
        sq += s2
        if ga is not None:
            np.subtract(g, ga, out=s2)
            s2 *= 1 - alpha
            ga += s2
            np.multiply(ga, ga, out=s2)
            np.subtract(sq, s2, out=s2)
            avg = np.sqrt(s2, out=s2)
        else:
            avg = np.sqrt(sq, out=s2)
        avg += eps
        if buf is not None:
            buf *= momentum
            buf += np.divide(g, avg, out=s2)
            p -= np.multiply(buf, lr, out=s2)
        else:
            np.divide(g, avg, out=s2)
            s2 *= lr
            p -= s2

    buf = A(momentum_buffer) if momentum > 0 and momentum_buffer is not None else None
    ga = A(grad_avg) if grad_avg is not None else None
    for_blocks(update, [A(param), A(grad), A(square_avg), ga, buf], 2)
    return param


@kernel("_adagrad_update_")
def adagrad_update_(param: Tensor, grad: Tensor, state_sum: Tensor, step: int, lr: float,
                    lr_decay: float, weight_decay: float, eps: float, maximize: bool) -> Tensor:
    clr = lr / (1 + (step - 1) * lr_decay)

    def update(p: np.ndarray, grad_: np.ndarray, s: np.ndarray, s1: np.ndarray,
               s2: np.ndarray) -> None:
        g = _direction(p, grad_, weight_decay, maximize, s1)
        s += np.multiply(g, g, out=s2)
        np.sqrt(s, out=s2)
        s2 += eps
        np.divide(g, s2, out=s2)
        s2 *= clr
        p -= s2

    for_blocks(update, [A(param), A(grad), A(state_sum)], 2)
    return param
