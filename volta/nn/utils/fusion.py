"""Folding an eval-mode batch norm into the convolution or linear layer before it, as
``torch.nn.utils.fusion``: ``bn(conv(x)) == fused_conv(x)``, one layer instead of two."""

from __future__ import annotations

import copy
from typing import TypeVar

import volta
from volta.errors import InvalidArgumentError, InvalidOperationError
from volta.nn.modules.linear import Linear
from volta.nn.modules.module import Module
from volta.nn.modules.normalization import _BatchNorm
from volta.nn.parameter import Parameter

ConvT = TypeVar("ConvT", bound=Module)
LinearT = TypeVar("LinearT", bound=Linear)


def _check_eval(layer: Module, bn: _BatchNorm) -> None:
    if layer.training or bn.training:
        raise InvalidOperationError("Fusion only for eval!")
    if bn.running_mean is None or bn.running_var is None:
        raise InvalidArgumentError("Fusion needs the batch norm's running statistics "
                                   "(track_running_stats=True)")


def fuse_conv_bn_weights(conv_w: volta.Tensor, conv_b: volta.Tensor | None,
                         bn_rm: volta.Tensor, bn_rv: volta.Tensor, bn_eps: float,
                         bn_w: volta.Tensor | None, bn_b: volta.Tensor | None,
                         transpose: bool = False) -> tuple[Parameter, Parameter]:
    """The weight and bias of a convolution that computes ``bn(conv(x))`` (``transpose``:
    a transposed convolution, whose output channels are weight dimension 1)."""
    weight_dtype = conv_w.dtype
    bias_dtype = weight_dtype if conv_b is None else conv_b.dtype
    if conv_b is None:
        conv_b = volta.zeros_like(bn_rm)
    if bn_w is None:
        bn_w = volta.ones_like(bn_rm)
    if bn_b is None:
        bn_b = volta.zeros_like(bn_rm)
    var_rsqrt = volta.rsqrt(bn_rv + bn_eps)
    spatial = [1] * (conv_w.ndim - 2)
    shape = [1, -1, *spatial] if transpose else [-1, 1, *spatial]
    fused_w = (conv_w * (bn_w * var_rsqrt).reshape(shape)).to(dtype=weight_dtype)
    fused_b = ((conv_b - bn_rm) * var_rsqrt * bn_w + bn_b).to(dtype=bias_dtype)
    return (Parameter(fused_w, conv_w.requires_grad),
            Parameter(fused_b, conv_b.requires_grad))


def fuse_conv_bn_eval(conv: ConvT, bn: _BatchNorm, transpose: bool = False) -> ConvT:
    """A copy of ``conv`` (eval mode) that includes ``bn`` (eval mode) after it."""
    _check_eval(conv, bn)
    fused = copy.deepcopy(conv)
    fused.weight, fused.bias = fuse_conv_bn_weights(
        fused.weight, fused.bias, bn.running_mean, bn.running_var, bn.eps, bn.weight, bn.bias,
        transpose)
    return fused


def fuse_linear_bn_weights(linear_w: volta.Tensor, linear_b: volta.Tensor | None,
                           bn_rm: volta.Tensor, bn_rv: volta.Tensor, bn_eps: float,
                           bn_w: volta.Tensor, bn_b: volta.Tensor) -> tuple[Parameter, Parameter]:
    """The weight and bias of a linear layer that computes ``bn(linear(x))``."""
    if linear_b is None:
        linear_b = volta.zeros_like(bn_rm)
    scale = bn_w * volta.rsqrt(bn_rv + bn_eps)
    fused_w = linear_w * scale.unsqueeze(-1)
    fused_b = (linear_b - bn_rm) * scale + bn_b
    return (Parameter(fused_w, linear_w.requires_grad),
            Parameter(fused_b, linear_b.requires_grad))


def fuse_linear_bn_eval(linear: LinearT, bn: _BatchNorm) -> LinearT:
    """A copy of ``linear`` (eval mode) that includes ``bn`` (eval mode, one feature per
    output or a single feature broadcast to all) after it."""
    _check_eval(linear, bn)
    if not (linear.out_features == bn.num_features or bn.num_features == 1):
        raise InvalidArgumentError(
            "To fuse, linear.out_features == bn.num_features or bn.num_features == 1")
    fused = copy.deepcopy(linear)
    fused.weight, fused.bias = fuse_linear_bn_weights(
        fused.weight, fused.bias, bn.running_mean, bn.running_var, bn.eps, bn.weight, bn.bias)
    return fused
