"""Composite (reference) formulation of the update ops of volta.optim's less common optimizers
(ops.yaml ``_adadelta_update_``, ``_adamax_update_``, ``_nadam_update_``, ``_radam_update_``,
``_asgd_update_``, ``_rprop_update_``): PyTorch's single-tensor algorithms written with other
ops, so every backend runs them and a backend may register a fused kernel instead. Each writes
the parameter and its state in place; scalars the optimizer keeps on the host (step counts,
NAdam's momentum product, ASGD's eta and mu) arrive as numbers."""

from __future__ import annotations

import math

from volta import dtypes as D
from volta._generated import functions as F
from volta.backend import BACKENDS
from volta.composites.base import composite
from volta.composites.optim import _update_direction
from volta.errors import InvalidArgumentError
from volta.tensor.tensor import Tensor


def _moving_average(average: Tensor, value: Tensor, weight: float) -> Tensor:
    """``average += weight * (value - average)`` (PyTorch's ``lerp_`` for a weight below 0.5)."""
    return average.copy_(F.add(average, F.sub(value, average), alpha=weight))


def _coupled_or_decoupled_decay(param: Tensor, grad: Tensor, lr: float, weight_decay: float,
                                decoupled: bool, maximize: bool) -> Tensor:
    """The gradient to follow: decoupled decay shrinks the parameter in place instead of adding
    ``weight_decay * param`` to the gradient."""
    if decoupled:
        if weight_decay != 0:
            param.copy_(F.mul(param, 1 - lr * weight_decay))
        return F.neg(grad) if maximize else grad
    return _update_direction(param, grad, weight_decay, maximize)


@composite("_adadelta_update_")
def adadelta_update_(param: Tensor, grad: Tensor, square_avg: Tensor, acc_delta: Tensor,
                     lr: float, rho: float, eps: float, weight_decay: float,
                     maximize: bool) -> Tensor:
    g = _update_direction(param, grad, weight_decay, maximize)
    square_avg.copy_(F.addcmul(F.mul(square_avg, rho), g, g, value=1 - rho))
    std = F.sqrt(F.add(square_avg, eps))
    delta = F.mul(F.div(F.sqrt(F.add(acc_delta, eps)), std), g)
    acc_delta.copy_(F.addcmul(F.mul(acc_delta, rho), delta, delta, value=1 - rho))
    return param.copy_(F.add(param, delta, alpha=-lr))


@composite("_adamax_update_")
def adamax_update_(param: Tensor, grad: Tensor, exp_avg: Tensor, exp_inf: Tensor, step: int,
                   lr: float, beta1: float, beta2: float, eps: float, weight_decay: float,
                   maximize: bool) -> Tensor:
    g = _update_direction(param, grad, weight_decay, maximize)
    _moving_average(exp_avg, g, 1 - beta1)
    exp_inf.copy_(F.maximum(F.mul(exp_inf, beta2), F.add(F.abs(g), eps)))
    return param.copy_(F.addcdiv(param, exp_avg, exp_inf, value=-lr / (1 - beta1 ** step)))


@composite("_nadam_update_")
def nadam_update_(param: Tensor, grad: Tensor, exp_avg: Tensor, exp_avg_sq: Tensor, step: int,
                  mu: float, mu_next: float, mu_product: float, lr: float, beta1: float,
                  beta2: float, eps: float, weight_decay: float, decoupled_weight_decay: bool,
                  maximize: bool) -> Tensor:
    g = _coupled_or_decoupled_decay(param, grad, lr, weight_decay, decoupled_weight_decay,
                                    maximize)
    _moving_average(exp_avg, g, 1 - beta1)
    exp_avg_sq.copy_(F.addcmul(F.mul(exp_avg_sq, beta2), g, g, value=1 - beta2))
    denom = F.add(F.sqrt(F.div(exp_avg_sq, 1 - beta2 ** step)), eps)
    param.copy_(F.addcdiv(param, g, denom, value=-lr * (1 - mu) / (1 - mu_product)))
    return param.copy_(F.addcdiv(param, exp_avg, denom,
                                 value=-lr * mu_next / (1 - mu_product * mu_next)))


@composite("_radam_update_")
def radam_update_(param: Tensor, grad: Tensor, exp_avg: Tensor, exp_avg_sq: Tensor, step: int,
                  lr: float, beta1: float, beta2: float, eps: float, weight_decay: float,
                  decoupled_weight_decay: bool, maximize: bool) -> Tensor:
    g = _coupled_or_decoupled_decay(param, grad, lr, weight_decay, decoupled_weight_decay,
                                    maximize)
    _moving_average(exp_avg, g, 1 - beta1)
    exp_avg_sq.copy_(F.addcmul(F.mul(exp_avg_sq, beta2), g, g, value=1 - beta2))
    bias_correction2 = 1 - beta2 ** step
    corrected_avg = F.div(exp_avg, 1 - beta1 ** step)
    # the length of the approximated simple moving average: the variance is tractable (and the
    # adaptive step is rectified) only once it exceeds 5
    rho_inf = 2 / (1 - beta2) - 1
    rho_t = rho_inf - 2 * step * beta2 ** step / bias_correction2
    if rho_t <= 5.0:
        return param.copy_(F.sub(param, F.mul(corrected_avg, lr)))
    rect = math.sqrt((rho_t - 4) * (rho_t - 2) * rho_inf
                     / ((rho_inf - 4) * (rho_inf - 2) * rho_t))
    adaptive_lr = F.div(math.sqrt(bias_correction2), F.add(F.sqrt(exp_avg_sq), eps))
    return param.copy_(F.sub(param, F.mul(F.mul(F.mul(corrected_avg, lr), adaptive_lr), rect)))


@composite("_asgd_update_")
def asgd_update_(param: Tensor, grad: Tensor, ax: Tensor, eta: float, mu: float, lambd: float,
                 weight_decay: float, maximize: bool) -> Tensor:
    g = _update_direction(param, grad, weight_decay, maximize)
    param.copy_(F.add(F.mul(param, 1 - lambd * eta), g, alpha=-eta))
    if mu != 1:
        ax.copy_(F.add(ax, F.mul(F.sub(param, ax), mu)))
    else:
        ax.copy_(param)
    return param


@composite("_rprop_update_")
def rprop_update_(param: Tensor, grad: Tensor, prev: Tensor, step_size: Tensor, etaminus: float,
                  etaplus: float, step_size_min: float, step_size_max: float,
                  maximize: bool) -> Tensor:
    g = F.neg(grad) if maximize else grad
    agreement = F.sign(F.mul(g, prev))
    factor = F.where(F.gt(agreement, 0), etaplus,
                     F.where(F.lt(agreement, 0), etaminus, F.ones_like(agreement)))
    step_size.copy_(F.clamp(F.mul(step_size, factor), step_size_min, step_size_max))
    # after a sign change the step is skipped and the gradient forgotten
    g = F.where(F.eq(factor, etaminus), F.zeros_like(g), g)
    param.copy_(F.addcmul(param, F.sign(g), step_size, value=-1))
    prev.copy_(g)
    return param


@composite("_adafactor_update_")
def adafactor_update_(param: Tensor, grad: Tensor, row_var: Tensor | None,
                      col_var: Tensor | None, variance: Tensor | None, step: int, lr: float,
                      beta2_decay: float, eps1: float, eps2: float, d: float,
                      weight_decay: float, maximize: bool) -> Tensor:
    # PyTorch's algorithm: the relative step rho, the parameter's RMS scale, second moments
    # factored into row and column means for matrices, and the update clipped to RMS d
    g = F.neg(grad) if maximize else grad
    one_minus_beta2 = step ** beta2_decay
    rho = min(lr, 1 / math.sqrt(step))
    alpha = max(eps2, F.vector_norm(param).item() / math.sqrt(param.numel())) * rho
    if weight_decay != 0:
        param.copy_(F.mul(param, 1 - lr * weight_decay))
    if g.ndim > 1:
        assert row_var is not None and col_var is not None
        row_mean = F.div(F.square(F.vector_norm(g, 2, [-1], True)), g.shape[-1])
        _moving_average(row_var, row_mean, one_minus_beta2)
        col_mean = F.div(F.square(F.vector_norm(g, 2, [-2], True)), g.shape[-2])
        _moving_average(col_var, col_mean, one_minus_beta2)
        estimate = F.div(F.matmul(row_var, col_var),
                         F.clamp(F.mean(row_var, [-2], True), min=eps1))
    else:
        assert variance is not None
        _moving_average(variance, F.mul(g, g), one_minus_beta2)
        estimate = variance
    update = F.mul(F.rsqrt(F.clamp(estimate, min=eps1 * eps1)), g)
    denom = max(1.0, F.vector_norm(update).item() / (math.sqrt(update.numel()) * d))
    return param.copy_(F.add(param, update, alpha=-alpha / denom))


def _orthogonalized(update: Tensor, coefficients: list[float], steps: int,
                    eps: float) -> Tensor:
    """The Newton-Schulz iteration towards the nearest semi-orthogonal matrix, in bfloat16 as
    PyTorch runs it (a quintic whose coefficients favour speed over exact convergence; float32
    on a device without bfloat16)."""
    if steps >= 100:  # checked when a step runs, as PyTorch checks it
        raise InvalidArgumentError("Number of steps must be less than 100 for computational "
                                   "efficiency")
    a, b, c = coefficients
    # bfloat16 as PyTorch runs it; a device without bfloat16 (WGPU) iterates in float32
    low = D.bfloat16 if D.bfloat16 in BACKENDS.get(update.device).dtypes else D.float32
    x = update.to(low)
    tall = update.shape[0] > update.shape[1]
    if tall:
        x = x.t()
    x = F.div(x, F.clamp(F.vector_norm(x), min=eps))
    for _ in range(steps):
        gram = F.matmul(x, x.t())
        polynomial = F.addmm(gram, gram, gram, beta=b, alpha=c)
        x = F.addmm(x, polynomial, x, beta=a)
    return x.t() if tall else x


@composite("_muon_update_")
def muon_update_(param: Tensor, grad: Tensor, momentum_buffer: Tensor, lr: float,
                 adjusted_lr: float, weight_decay: float, momentum: float, nesterov: bool,
                 ns_coefficients: list[float], ns_steps: int, eps: float) -> Tensor:
    _moving_average(momentum_buffer, grad, 1 - momentum)
    update = F.lerp(grad, momentum_buffer, momentum) if nesterov else momentum_buffer
    update = _orthogonalized(update, ns_coefficients, ns_steps, eps)
    param.copy_(F.mul(param, 1 - lr * weight_decay))
    return param.copy_(F.add(param, update, alpha=-adjusted_lr))
