# @generated from volta_ext_ops/ops.yaml by `python -m codegen` — do not edit.
# ruff: noqa
"""Backward nodes and Autograd kernels generated from the formulas in ops.yaml."""

import math

from volta_ext_ops._generated.handles import HANDLES as _op
from volta._generated.functions import *  # formulas are written with volta ops
from volta.autograd.formulas import *  # and the helpers formulas share
from volta.autograd.graph import Node as _Node, connect as _connect, connect_tensors as _connect_tensors, set_history as _set_history
from volta.autograd.graph import save as _save, save_list as _save_list, save_output as _save_output
from volta.autograd.graph import save_meta as _save_meta, save_output_list as _save_output_list, unpack as _unpack, unpack_list as _unpack_list
from volta.autograd.inplace import check_inplace as _check_inplace, inplace_autograd as _inplace, needs_grad as _needs_grad
from volta.dispatch.keys import Autograd as _AUTOGRAD
import volta as _volta


def fused_bias_gelu(*args, **kwargs):
    return _volta.ops.ext.fused_bias_gelu(*args, **kwargs)


def gelu_derivative(*args, **kwargs):
    return _volta.ops.ext.gelu_derivative(*args, **kwargs)


def rms_norm(*args, **kwargs):
    return _volta.ops.ext.rms_norm(*args, **kwargs)


def rotary_embedding(*args, **kwargs):
    return _volta.ops.ext.rotary_embedding(*args, **kwargs)


def swiglu(*args, **kwargs):
    return _volta.ops.ext.swiglu(*args, **kwargs)


KERNELS = {}
NODES = {}


class SwigluBackward(_Node):
    __slots__ = ('s_x', 's_gate')
    op_name = 'ext::swiglu'

    def apply(node, grads):
        grad = grads[0]
        needs = node.needs_input_grad
        x = _unpack(node, node.s_x)
        gate = _unpack(node, node.s_gate)
        g_x = g_gate = None
        grad_input_mask = needs
        if needs[0]:
            g_x = sum_to(grad * gate * gate.sigmoid(), x.shape)
        if needs[1]:
            g_gate = sum_to(grad * x * gate.sigmoid() * (1 + gate * (1 - gate.sigmoid())), gate.shape)
        return (g_x, g_gate)


def autograd_ext_swiglu(x, gate):
    result = _op.ext_swiglu.redispatch(_AUTOGRAD, x, gate)
    node = SwigluBackward()
    if _connect_tensors(node, (x, gate)):
        node.s_x = _save(x)
        node.s_gate = _save(gate)
        _set_history(node, result, None)
    return result


KERNELS['ext::swiglu'] = autograd_ext_swiglu
NODES['ext::swiglu'] = SwigluBackward


class FusedBiasGeluBackward(_Node):
    __slots__ = ('s_x', 's_bias')
    op_name = 'ext::fused_bias_gelu'

    def apply(node, grads):
        grad = grads[0]
        needs = node.needs_input_grad
        x = _unpack(node, node.s_x)
        bias = _unpack(node, node.s_bias)
        g_x = g_bias = None
        grad_input_mask = needs
        if needs[0]:
            g_x = sum_to(grad * gelu_derivative(x + bias), x.shape)
        if needs[1]:
            g_bias = sum_to(grad * gelu_derivative(x + bias), bias.shape)
        return (g_x, g_bias)


def autograd_ext_fused_bias_gelu(x, bias):
    result = _op.ext_fused_bias_gelu.redispatch(_AUTOGRAD, x, bias)
    node = FusedBiasGeluBackward()
    if _connect_tensors(node, (x, bias)):
        node.s_x = _save(x)
        node.s_bias = _save(bias)
        _set_history(node, result, None)
    return result


KERNELS['ext::fused_bias_gelu'] = autograd_ext_fused_bias_gelu
NODES['ext::fused_bias_gelu'] = FusedBiasGeluBackward


class GeluDerivativeBackward(_Node):
    __slots__ = ('s_u',)
    op_name = 'ext::gelu_derivative'

    def apply(node, grads):
        grad = grads[0]
        needs = node.needs_input_grad
        u = _unpack(node, node.s_u)
        g_u = None
        grad_input_mask = needs
        if needs[0]:
            g_u = grad * exp(-0.5 * u * u) * 0.3989422804014327 * (2 - u * u)
        return (g_u,)


def autograd_ext_gelu_derivative(u):
    result = _op.ext_gelu_derivative.redispatch(_AUTOGRAD, u)
    node = GeluDerivativeBackward()
    if _connect_tensors(node, (u,)):
        node.s_u = _save(u)
        _set_history(node, result, None)
    return result


KERNELS['ext::gelu_derivative'] = autograd_ext_gelu_derivative
NODES['ext::gelu_derivative'] = GeluDerivativeBackward


class RmsNormBackward(_Node):
    __slots__ = ('s_x', 's_weight', 's_eps')
    op_name = 'ext::rms_norm'

    def apply(node, grads):
        grad = grads[0]
        needs = node.needs_input_grad
        x = _unpack(node, node.s_x)
        weight = _unpack(node, node.s_weight)
        eps = node.s_eps
        g_x = g_weight = None
        grad_input_mask = needs
        if needs[0]:
            g_x = grad * weight * (x * x).mean(-1, True).add(eps).rsqrt() - x * (x * x).mean(-1, True).add(eps).rsqrt().pow(3) * (grad * weight * x).mean(-1, True)
        if needs[1]:
            g_weight = sum_to(grad * x * (x * x).mean(-1, True).add(eps).rsqrt(), weight.shape)
        return (g_x, g_weight)


def autograd_ext_rms_norm(x, weight, eps):
    result = _op.ext_rms_norm.redispatch(_AUTOGRAD, x, weight, eps)
    node = RmsNormBackward()
    if _connect_tensors(node, (x, weight)):
        node.s_x = _save(x)
        node.s_weight = _save(weight)
        node.s_eps = eps
        _set_history(node, result, None)
    return result


KERNELS['ext::rms_norm'] = autograd_ext_rms_norm
NODES['ext::rms_norm'] = RmsNormBackward


class RotaryEmbeddingBackward(_Node):
    __slots__ = ('s_x', 's_cos', 's_sin')
    op_name = 'ext::rotary_embedding'

    def apply(node, grads):
        grad = grads[0]
        needs = node.needs_input_grad
        x = _unpack(node, node.s_x)
        cos = _unpack(node, node.s_cos) if needs[0] or needs[1] else None
        sin = _unpack(node, node.s_sin) if needs[0] or needs[2] else None
        g_x = g_cos = g_sin = None
        grad_input_mask = needs
        if needs[0]:
            g_x = sum_to(grad * cos + rotary_embedding(grad * sin, zeros_like(grad), -ones_like(grad)), x.shape)
        if needs[1]:
            g_cos = sum_to(grad * x, cos.shape)
        if needs[2]:
            g_sin = sum_to(grad * rotary_embedding(x, zeros_like(x), ones_like(x)), sin.shape)
        return (g_x, g_cos, g_sin)


def autograd_ext_rotary_embedding(x, cos, sin):
    result = _op.ext_rotary_embedding.redispatch(_AUTOGRAD, x, cos, sin)
    node = RotaryEmbeddingBackward()
    if _connect_tensors(node, (x, cos, sin)):
        needs = node.needs_input_grad
        node.s_x = _save(x)
        if needs[0] or needs[1]:
            node.s_cos = _save(cos)
        if needs[0] or needs[2]:
            node.s_sin = _save(sin)
        _set_history(node, result, None)
    return result


KERNELS['ext::rotary_embedding'] = autograd_ext_rotary_embedding
NODES['ext::rotary_embedding'] = RotaryEmbeddingBackward
