# @generated from ops.yaml by `python -m codegen` — do not edit.
# ruff: noqa
"""Backward nodes and Autograd kernels generated from the formulas in ops.yaml."""

import math

from volta._generated import registry as _op
from volta._generated.functions import *  # formulas are written with volta ops
from volta._generated.functions import _cumsum_backward, _log_softmax_backward_data, _nll_loss, _nll_loss_backward, _rnn_layer_backward, _scaled_dot_product_attention_flash_backward, _softmax_backward_data
from volta.autograd.formulas import *  # and the helpers formulas share
from volta.autograd.graph import Node as _Node, connect as _connect, connect_tensors as _connect_tensors, set_history as _set_history
from volta.autograd.graph import save as _save, save_list as _save_list, save_output as _save_output
from volta.autograd.graph import save_meta as _save_meta, save_output_list as _save_output_list, unpack as _unpack, unpack_list as _unpack_list
from volta.autograd.inplace import check_inplace as _check_inplace, inplace_autograd as _inplace, needs_grad as _needs_grad
from volta.dispatch.keys import Autograd as _AUTOGRAD

KERNELS = {}
NODES = {}


class AbsBackward(_Node):
    __slots__ = ('s_self',)
    op_name = 'abs'

    def apply(node, grads):
        grad = grads[0]
        needs = node.needs_input_grad
        self = _unpack(node, node.s_self)
        g_self = None
        grad_input_mask = needs
        if needs[0]:
            g_self = grad * sign(self)
        return (g_self,)


def autograd_abs(self):
    result = _op.abs.redispatch(_AUTOGRAD, self)
    node = AbsBackward()
    if _connect_tensors(node, (self,)):
        node.s_self = _save(self)
        _set_history(node, result, None)
    return result


KERNELS['abs'] = autograd_abs
NODES['abs'] = AbsBackward


class NegBackward(_Node):
    __slots__ = ()
    op_name = 'neg'

    def apply(node, grads):
        grad = grads[0]
        needs = node.needs_input_grad
        g_self = None
        grad_input_mask = needs
        if needs[0]:
            g_self = -grad
        return (g_self,)


def autograd_neg(self):
    result = _op.neg.redispatch(_AUTOGRAD, self)
    node = NegBackward()
    if _connect_tensors(node, (self,)):
        _set_history(node, result, None)
    return result


KERNELS['neg'] = autograd_neg
NODES['neg'] = NegBackward


class ExpBackward(_Node):
    __slots__ = ('o_result',)
    op_name = 'exp'

    def apply(node, grads):
        grad = grads[0]
        needs = node.needs_input_grad
        result = _unpack(node, node.o_result)
        g_self = None
        grad_input_mask = needs
        if needs[0]:
            g_self = grad * result
        return (g_self,)


def autograd_exp(self):
    result = _op.exp.redispatch(_AUTOGRAD, self)
    node = ExpBackward()
    if _connect_tensors(node, (self,)):
        node.o_result = _save_output(result)
        _set_history(node, result, None)
    return result


KERNELS['exp'] = autograd_exp
NODES['exp'] = ExpBackward


class Exp2Backward(_Node):
    __slots__ = ('o_result',)
    op_name = 'exp2'

    def apply(node, grads):
        grad = grads[0]
        needs = node.needs_input_grad
        result = _unpack(node, node.o_result)
        g_self = None
        grad_input_mask = needs
        if needs[0]:
            g_self = grad * result * 0.6931471805599453
        return (g_self,)


def autograd_exp2(self):
    result = _op.exp2.redispatch(_AUTOGRAD, self)
    node = Exp2Backward()
    if _connect_tensors(node, (self,)):
        node.o_result = _save_output(result)
        _set_history(node, result, None)
    return result


KERNELS['exp2'] = autograd_exp2
NODES['exp2'] = Exp2Backward


class Expm1Backward(_Node):
    __slots__ = ('o_result',)
    op_name = 'expm1'

    def apply(node, grads):
        grad = grads[0]
        needs = node.needs_input_grad
        result = _unpack(node, node.o_result)
        g_self = None
        grad_input_mask = needs
        if needs[0]:
            g_self = grad * (result + 1)
        return (g_self,)


def autograd_expm1(self):
    result = _op.expm1.redispatch(_AUTOGRAD, self)
    node = Expm1Backward()
    if _connect_tensors(node, (self,)):
        node.o_result = _save_output(result)
        _set_history(node, result, None)
    return result


KERNELS['expm1'] = autograd_expm1
NODES['expm1'] = Expm1Backward


class LogBackward(_Node):
    __slots__ = ('s_self',)
    op_name = 'log'

    def apply(node, grads):
        grad = grads[0]
        needs = node.needs_input_grad
        self = _unpack(node, node.s_self)
        g_self = None
        grad_input_mask = needs
        if needs[0]:
            g_self = grad / self
        return (g_self,)


def autograd_log(self):
    result = _op.log.redispatch(_AUTOGRAD, self)
    node = LogBackward()
    if _connect_tensors(node, (self,)):
        node.s_self = _save(self)
        _set_history(node, result, None)
    return result


KERNELS['log'] = autograd_log
NODES['log'] = LogBackward


class Log2Backward(_Node):
    __slots__ = ('s_self',)
    op_name = 'log2'

    def apply(node, grads):
        grad = grads[0]
        needs = node.needs_input_grad
        self = _unpack(node, node.s_self)
        g_self = None
        grad_input_mask = needs
        if needs[0]:
            g_self = grad / (self * 0.6931471805599453)
        return (g_self,)


def autograd_log2(self):
    result = _op.log2.redispatch(_AUTOGRAD, self)
    node = Log2Backward()
    if _connect_tensors(node, (self,)):
        node.s_self = _save(self)
        _set_history(node, result, None)
    return result


KERNELS['log2'] = autograd_log2
NODES['log2'] = Log2Backward


class Log10Backward(_Node):
    __slots__ = ('s_self',)
    op_name = 'log10'

    def apply(node, grads):
        grad = grads[0]
        needs = node.needs_input_grad
        self = _unpack(node, node.s_self)
        g_self = None
        grad_input_mask = needs
        if needs[0]:
            g_self = grad / (self * 2.302585092994046)
        return (g_self,)


def autograd_log10(self):
    result = _op.log10.redispatch(_AUTOGRAD, self)
    node = Log10Backward()
    if _connect_tensors(node, (self,)):
        node.s_self = _save(self)
        _set_history(node, result, None)
    return result


KERNELS['log10'] = autograd_log10
NODES['log10'] = Log10Backward


class Log1pBackward(_Node):
    __slots__ = ('s_self',)
    op_name = 'log1p'

    def apply(node, grads):
        grad = grads[0]
        needs = node.needs_input_grad
        self = _unpack(node, node.s_self)
        g_self = None
        grad_input_mask = needs
        if needs[0]:
            g_self = grad / (self + 1)
        return (g_self,)


def autograd_log1p(self):
    result = _op.log1p.redispatch(_AUTOGRAD, self)
    node = Log1pBackward()
    if _connect_tensors(node, (self,)):
        node.s_self = _save(self)
        _set_history(node, result, None)
    return result


KERNELS['log1p'] = autograd_log1p
NODES['log1p'] = Log1pBackward


class SqrtBackward(_Node):
    __slots__ = ('o_result',)
    op_name = 'sqrt'

    def apply(node, grads):
        grad = grads[0]
        needs = node.needs_input_grad
        result = _unpack(node, node.o_result)
        g_self = None
        grad_input_mask = needs
        if needs[0]:
            g_self = grad / (2 * result)
        return (g_self,)


def autograd_sqrt(self):
    result = _op.sqrt.redispatch(_AUTOGRAD, self)
    node = SqrtBackward()
    if _connect_tensors(node, (self,)):
        node.o_result = _save_output(result)
        _set_history(node, result, None)
    return result


KERNELS['sqrt'] = autograd_sqrt
NODES['sqrt'] = SqrtBackward


class RsqrtBackward(_Node):
    __slots__ = ('o_result',)
    op_name = 'rsqrt'

    def apply(node, grads):
        grad = grads[0]
        needs = node.needs_input_grad
        result = _unpack(node, node.o_result)
        g_self = None
        grad_input_mask = needs
        if needs[0]:
            g_self = -0.5 * grad * result * result * result
        return (g_self,)


def autograd_rsqrt(self):
    result = _op.rsqrt.redispatch(_AUTOGRAD, self)
    node = RsqrtBackward()
    if _connect_tensors(node, (self,)):
        node.o_result = _save_output(result)
        _set_history(node, result, None)
    return result


KERNELS['rsqrt'] = autograd_rsqrt
NODES['rsqrt'] = RsqrtBackward


class SinBackward(_Node):
    __slots__ = ('s_self',)
    op_name = 'sin'

    def apply(node, grads):
        grad = grads[0]
        needs = node.needs_input_grad
        self = _unpack(node, node.s_self)
        g_self = None
        grad_input_mask = needs
        if needs[0]:
            g_self = grad * cos(self)
        return (g_self,)


def autograd_sin(self):
    result = _op.sin.redispatch(_AUTOGRAD, self)
    node = SinBackward()
    if _connect_tensors(node, (self,)):
        node.s_self = _save(self)
        _set_history(node, result, None)
    return result


KERNELS['sin'] = autograd_sin
NODES['sin'] = SinBackward


class CosBackward(_Node):
    __slots__ = ('s_self',)
    op_name = 'cos'

    def apply(node, grads):
        grad = grads[0]
        needs = node.needs_input_grad
        self = _unpack(node, node.s_self)
        g_self = None
        grad_input_mask = needs
        if needs[0]:
            g_self = -grad * sin(self)
        return (g_self,)


def autograd_cos(self):
    result = _op.cos.redispatch(_AUTOGRAD, self)
    node = CosBackward()
    if _connect_tensors(node, (self,)):
        node.s_self = _save(self)
        _set_history(node, result, None)
    return result


KERNELS['cos'] = autograd_cos
NODES['cos'] = CosBackward


class TanBackward(_Node):
    __slots__ = ('o_result',)
    op_name = 'tan'

    def apply(node, grads):
        grad = grads[0]
        needs = node.needs_input_grad
        result = _unpack(node, node.o_result)
        g_self = None
        grad_input_mask = needs
        if needs[0]:
            g_self = grad * (1 + result * result)
        return (g_self,)


def autograd_tan(self):
    result = _op.tan.redispatch(_AUTOGRAD, self)
    node = TanBackward()
    if _connect_tensors(node, (self,)):
        node.o_result = _save_output(result)
        _set_history(node, result, None)
    return result


KERNELS['tan'] = autograd_tan
NODES['tan'] = TanBackward


class AsinBackward(_Node):
    __slots__ = ('s_self',)
    op_name = 'asin'

    def apply(node, grads):
        grad = grads[0]
        needs = node.needs_input_grad
        self = _unpack(node, node.s_self)
        g_self = None
        grad_input_mask = needs
        if needs[0]:
            g_self = grad * rsqrt(1 - self * self)
        return (g_self,)


def autograd_asin(self):
    result = _op.asin.redispatch(_AUTOGRAD, self)
    node = AsinBackward()
    if _connect_tensors(node, (self,)):
        node.s_self = _save(self)
        _set_history(node, result, None)
    return result


KERNELS['asin'] = autograd_asin
NODES['asin'] = AsinBackward


class AcosBackward(_Node):
    __slots__ = ('s_self',)
    op_name = 'acos'

    def apply(node, grads):
        grad = grads[0]
        needs = node.needs_input_grad
        self = _unpack(node, node.s_self)
        g_self = None
        grad_input_mask = needs
        if needs[0]:
            g_self = -grad * rsqrt(1 - self * self)
        return (g_self,)


def autograd_acos(self):
    result = _op.acos.redispatch(_AUTOGRAD, self)
    node = AcosBackward()
    if _connect_tensors(node, (self,)):
        node.s_self = _save(self)
        _set_history(node, result, None)
    return result


KERNELS['acos'] = autograd_acos
NODES['acos'] = AcosBackward


class AtanBackward(_Node):
    __slots__ = ('s_self',)
    op_name = 'atan'

    def apply(node, grads):
        grad = grads[0]
        needs = node.needs_input_grad
        self = _unpack(node, node.s_self)
        g_self = None
        grad_input_mask = needs
        if needs[0]:
            g_self = grad / (1 + self * self)
        return (g_self,)


def autograd_atan(self):
    result = _op.atan.redispatch(_AUTOGRAD, self)
    node = AtanBackward()
    if _connect_tensors(node, (self,)):
        node.s_self = _save(self)
        _set_history(node, result, None)
    return result


KERNELS['atan'] = autograd_atan
NODES['atan'] = AtanBackward


class SinhBackward(_Node):
    __slots__ = ('s_self',)
    op_name = 'sinh'

    def apply(node, grads):
        grad = grads[0]
        needs = node.needs_input_grad
        self = _unpack(node, node.s_self)
        g_self = None
        grad_input_mask = needs
        if needs[0]:
            g_self = grad * cosh(self)
        return (g_self,)


def autograd_sinh(self):
    result = _op.sinh.redispatch(_AUTOGRAD, self)
    node = SinhBackward()
    if _connect_tensors(node, (self,)):
        node.s_self = _save(self)
        _set_history(node, result, None)
    return result


KERNELS['sinh'] = autograd_sinh
NODES['sinh'] = SinhBackward


class CoshBackward(_Node):
    __slots__ = ('s_self',)
    op_name = 'cosh'

    def apply(node, grads):
        grad = grads[0]
        needs = node.needs_input_grad
        self = _unpack(node, node.s_self)
        g_self = None
        grad_input_mask = needs
        if needs[0]:
            g_self = grad * sinh(self)
        return (g_self,)


def autograd_cosh(self):
    result = _op.cosh.redispatch(_AUTOGRAD, self)
    node = CoshBackward()
    if _connect_tensors(node, (self,)):
        node.s_self = _save(self)
        _set_history(node, result, None)
    return result


KERNELS['cosh'] = autograd_cosh
NODES['cosh'] = CoshBackward


class TanhBackward(_Node):
    __slots__ = ('o_result',)
    op_name = 'tanh'

    def apply(node, grads):
        grad = grads[0]
        needs = node.needs_input_grad
        result = _unpack(node, node.o_result)
        g_self = None
        grad_input_mask = needs
        if needs[0]:
            g_self = tanh_backward(grad, result)
        return (g_self,)


def autograd_tanh(self):
    result = _op.tanh.redispatch(_AUTOGRAD, self)
    node = TanhBackward()
    if _connect_tensors(node, (self,)):
        node.o_result = _save_output(result)
        _set_history(node, result, None)
    return result


KERNELS['tanh'] = autograd_tanh
NODES['tanh'] = TanhBackward


class TanhBackwardBackward(_Node):
    __slots__ = ('s_grad_output', 's_output')
    op_name = 'tanh_backward'

    def apply(node, grads):
        grad = grads[0]
        needs = node.needs_input_grad
        grad_output = _unpack(node, node.s_grad_output) if needs[1] else None
        output = _unpack(node, node.s_output)
        g_grad_output = g_output = None
        grad_input_mask = needs
        if needs[0]:
            g_grad_output = tanh_backward(grad, output)
        if needs[1]:
            g_output = -2 * output * grad * grad_output
        return (g_grad_output, g_output)


def autograd_tanh_backward(grad_output, output):
    result = _op.tanh_backward.redispatch(_AUTOGRAD, grad_output, output)
    node = TanhBackwardBackward()
    if _connect_tensors(node, (grad_output, output)):
        needs = node.needs_input_grad
        if needs[1]:
            node.s_grad_output = _save(grad_output)
        node.s_output = _save(output)
        _set_history(node, result, None)
    return result


KERNELS['tanh_backward'] = autograd_tanh_backward
NODES['tanh_backward'] = TanhBackwardBackward


class SigmoidBackward(_Node):
    __slots__ = ('o_result',)
    op_name = 'sigmoid'

    def apply(node, grads):
        grad = grads[0]
        needs = node.needs_input_grad
        result = _unpack(node, node.o_result)
        g_self = None
        grad_input_mask = needs
        if needs[0]:
            g_self = sigmoid_backward(grad, result)
        return (g_self,)


def autograd_sigmoid(self):
    result = _op.sigmoid.redispatch(_AUTOGRAD, self)
    node = SigmoidBackward()
    if _connect_tensors(node, (self,)):
        node.o_result = _save_output(result)
        _set_history(node, result, None)
    return result


KERNELS['sigmoid'] = autograd_sigmoid
NODES['sigmoid'] = SigmoidBackward


class SigmoidBackwardBackward(_Node):
    __slots__ = ('s_grad_output', 's_output')
    op_name = 'sigmoid_backward'

    def apply(node, grads):
        grad = grads[0]
        needs = node.needs_input_grad
        grad_output = _unpack(node, node.s_grad_output) if needs[1] else None
        output = _unpack(node, node.s_output)
        g_grad_output = g_output = None
        grad_input_mask = needs
        if needs[0]:
            g_grad_output = sigmoid_backward(grad, output)
        if needs[1]:
            g_output = grad * grad_output * (1 - 2 * output)
        return (g_grad_output, g_output)


def autograd_sigmoid_backward(grad_output, output):
    result = _op.sigmoid_backward.redispatch(_AUTOGRAD, grad_output, output)
    node = SigmoidBackwardBackward()
    if _connect_tensors(node, (grad_output, output)):
        needs = node.needs_input_grad
        if needs[1]:
            node.s_grad_output = _save(grad_output)
        node.s_output = _save(output)
        _set_history(node, result, None)
    return result


KERNELS['sigmoid_backward'] = autograd_sigmoid_backward
NODES['sigmoid_backward'] = SigmoidBackwardBackward


class ReluBackward(_Node):
    __slots__ = ('o_result',)
    op_name = 'relu'

    def apply(node, grads):
        grad = grads[0]
        needs = node.needs_input_grad
        result = _unpack(node, node.o_result)
        g_self = None
        grad_input_mask = needs
        if needs[0]:
            g_self = threshold_backward(grad, result, 0)
        return (g_self,)


def autograd_relu(self):
    result = _op.relu.redispatch(_AUTOGRAD, self)
    node = ReluBackward()
    if _connect_tensors(node, (self,)):
        node.o_result = _save_output(result)
        _set_history(node, result, None)
    return result


KERNELS['relu'] = autograd_relu
NODES['relu'] = ReluBackward


class ThresholdBackwardBackward(_Node):
    __slots__ = ('s_self', 's_threshold')
    op_name = 'threshold_backward'

    def apply(node, grads):
        grad = grads[0]
        needs = node.needs_input_grad
        self = _unpack(node, node.s_self) if needs[0] else None
        threshold = node.s_threshold
        g_grad_output = g_self = None
        grad_input_mask = needs
        if needs[0]:
            g_grad_output = threshold_backward(grad, self, threshold)
        if needs[1]:
            g_self = zeros_like(grad)
        return (g_grad_output, g_self)


def autograd_threshold_backward(grad_output, self, threshold):
    result = _op.threshold_backward.redispatch(_AUTOGRAD, grad_output, self, threshold)
    node = ThresholdBackwardBackward()
    if _connect_tensors(node, (grad_output, self)):
        needs = node.needs_input_grad
        if needs[0]:
            node.s_self = _save(self)
        node.s_threshold = threshold
        _set_history(node, result, None)
    return result


KERNELS['threshold_backward'] = autograd_threshold_backward
NODES['threshold_backward'] = ThresholdBackwardBackward


class Relu6Backward(_Node):
    __slots__ = ('s_self',)
    op_name = 'relu6'

    def apply(node, grads):
        grad = grads[0]
        needs = node.needs_input_grad
        self = _unpack(node, node.s_self)
        g_self = None
        grad_input_mask = needs
        if needs[0]:
            g_self = where((self > 0) & (self < 6), grad, 0)
        return (g_self,)


def autograd_relu6(self):
    result = _op.relu6.redispatch(_AUTOGRAD, self)
    node = Relu6Backward()
    if _connect_tensors(node, (self,)):
        node.s_self = _save(self)
        _set_history(node, result, None)
    return result


KERNELS['relu6'] = autograd_relu6
NODES['relu6'] = Relu6Backward


class GeluBackward(_Node):
    __slots__ = ('s_self', 's_approximate')
    op_name = 'gelu'

    def apply(node, grads):
        grad = grads[0]
        needs = node.needs_input_grad
        self = _unpack(node, node.s_self)
        approximate = node.s_approximate
        g_self = None
        grad_input_mask = needs
        if needs[0]:
            g_self = gelu_backward(grad, self, approximate=approximate)
        return (g_self,)


def autograd_gelu(self, approximate):
    result = _op.gelu.redispatch(_AUTOGRAD, self, approximate)
    node = GeluBackward()
    if _connect_tensors(node, (self,)):
        node.s_self = _save(self)
        node.s_approximate = approximate
        _set_history(node, result, None)
    return result


KERNELS['gelu'] = autograd_gelu
NODES['gelu'] = GeluBackward


class SiluBackward(_Node):
    __slots__ = ('s_self',)
    op_name = 'silu'

    def apply(node, grads):
        grad = grads[0]
        needs = node.needs_input_grad
        self = _unpack(node, node.s_self)
        g_self = None
        grad_input_mask = needs
        if needs[0]:
            g_self = silu_backward(grad, self)
        return (g_self,)


def autograd_silu(self):
    result = _op.silu.redispatch(_AUTOGRAD, self)
    node = SiluBackward()
    if _connect_tensors(node, (self,)):
        node.s_self = _save(self)
        _set_history(node, result, None)
    return result


KERNELS['silu'] = autograd_silu
NODES['silu'] = SiluBackward


class SiluBackwardBackward(_Node):
    __slots__ = ('s_grad_output', 's_self')
    op_name = 'silu_backward'

    def apply(node, grads):
        grad = grads[0]
        needs = node.needs_input_grad
        grad_output = _unpack(node, node.s_grad_output) if needs[1] else None
        self = _unpack(node, node.s_self)
        g_grad_output = g_self = None
        grad_input_mask = needs
        if needs[0]:
            g_grad_output = silu_backward(grad, self)
        if needs[1]:
            g_self = grad * grad_output * sigmoid(self) * (1 - sigmoid(self)) * (2 + self * (1 - 2 * sigmoid(self)))
        return (g_grad_output, g_self)


def autograd_silu_backward(grad_output, self):
    result = _op.silu_backward.redispatch(_AUTOGRAD, grad_output, self)
    node = SiluBackwardBackward()
    if _connect_tensors(node, (grad_output, self)):
        needs = node.needs_input_grad
        if needs[1]:
            node.s_grad_output = _save(grad_output)
        node.s_self = _save(self)
        _set_history(node, result, None)
    return result


KERNELS['silu_backward'] = autograd_silu_backward
NODES['silu_backward'] = SiluBackwardBackward


class MishBackward(_Node):
    __slots__ = ('s_self',)
    op_name = 'mish'

    def apply(node, grads):
        grad = grads[0]
        needs = node.needs_input_grad
        self = _unpack(node, node.s_self)
        g_self = None
        grad_input_mask = needs
        if needs[0]:
            g_self = grad * (tanh(softplus(self)) + self * sigmoid(self) * (1 - tanh(softplus(self)) ** 2))
        return (g_self,)


def autograd_mish(self):
    result = _op.mish.redispatch(_AUTOGRAD, self)
    node = MishBackward()
    if _connect_tensors(node, (self,)):
        node.s_self = _save(self)
        _set_history(node, result, None)
    return result


KERNELS['mish'] = autograd_mish
NODES['mish'] = MishBackward


class SoftplusBackward(_Node):
    __slots__ = ('s_self', 's_beta', 's_threshold')
    op_name = 'softplus'

    def apply(node, grads):
        grad = grads[0]
        needs = node.needs_input_grad
        self = _unpack(node, node.s_self)
        beta = node.s_beta
        threshold = node.s_threshold
        g_self = None
        grad_input_mask = needs
        if needs[0]:
            g_self = softplus_backward(grad, self, beta, threshold)
        return (g_self,)


def autograd_softplus(self, beta, threshold):
    result = _op.softplus.redispatch(_AUTOGRAD, self, beta, threshold)
    node = SoftplusBackward()
    if _connect_tensors(node, (self,)):
        node.s_self = _save(self)
        node.s_beta = beta
        node.s_threshold = threshold
        _set_history(node, result, None)
    return result


KERNELS['softplus'] = autograd_softplus
NODES['softplus'] = SoftplusBackward


class SoftplusBackwardBackward(_Node):
    __slots__ = ('s_grad_output', 's_self', 's_beta', 's_threshold')
    op_name = 'softplus_backward'

    def apply(node, grads):
        grad = grads[0]
        needs = node.needs_input_grad
        grad_output = _unpack(node, node.s_grad_output) if needs[1] else None
        self = _unpack(node, node.s_self)
        beta = node.s_beta
        threshold = node.s_threshold
        g_grad_output = g_self = None
        grad_input_mask = needs
        if needs[0]:
            g_grad_output = softplus_backward(grad, self, beta, threshold)
        if needs[1]:
            g_self = where(self * beta > threshold, 0, grad * grad_output * beta * sigmoid(self * beta) * sigmoid(-self * beta))
        return (g_grad_output, g_self)


def autograd_softplus_backward(grad_output, self, beta, threshold):
    result = _op.softplus_backward.redispatch(_AUTOGRAD, grad_output, self, beta, threshold)
    node = SoftplusBackwardBackward()
    if _connect_tensors(node, (grad_output, self)):
        needs = node.needs_input_grad
        if needs[1]:
            node.s_grad_output = _save(grad_output)
        node.s_self = _save(self)
        node.s_beta = beta
        node.s_threshold = threshold
        _set_history(node, result, None)
    return result


KERNELS['softplus_backward'] = autograd_softplus_backward
NODES['softplus_backward'] = SoftplusBackwardBackward


class EluBackward(_Node):
    __slots__ = ('s_self', 's_alpha', 's_scale', 's_input_scale')
    op_name = 'elu'

    def apply(node, grads):
        grad = grads[0]
        needs = node.needs_input_grad
        self = _unpack(node, node.s_self)
        alpha = node.s_alpha
        scale = node.s_scale
        input_scale = node.s_input_scale
        g_self = None
        grad_input_mask = needs
        if needs[0]:
            g_self = elu_backward(grad, alpha, scale, input_scale, False, self)
        return (g_self,)


def autograd_elu(self, alpha, scale, input_scale):
    result = _op.elu.redispatch(_AUTOGRAD, self, alpha, scale, input_scale)
    node = EluBackward()
    if _connect_tensors(node, (self,)):
        node.s_self = _save(self)
        node.s_alpha = alpha
        node.s_scale = scale
        node.s_input_scale = input_scale
        _set_history(node, result, None)
    return result


KERNELS['elu'] = autograd_elu
NODES['elu'] = EluBackward


class EluBackwardBackward(_Node):
    __slots__ = ('s_grad_output', 's_alpha', 's_scale', 's_input_scale', 's_is_result', 's_self_or_result')
    op_name = 'elu_backward'

    def apply(node, grads):
        grad = grads[0]
        needs = node.needs_input_grad
        grad_output = _unpack(node, node.s_grad_output) if needs[1] else None
        alpha = node.s_alpha
        scale = node.s_scale
        input_scale = node.s_input_scale
        is_result = node.s_is_result
        self_or_result = _unpack(node, node.s_self_or_result)
        g_grad_output = g_self_or_result = None
        grad_input_mask = needs
        if needs[0]:
            g_grad_output = elu_backward(grad, alpha, scale, input_scale, is_result, self_or_result)
        if needs[1]:
            g_self_or_result = where(self_or_result > 0, 0, grad * grad_output * input_scale if is_result else grad * grad_output * (alpha * scale * input_scale * input_scale) * exp(self_or_result * input_scale))
        return (g_grad_output, g_self_or_result)


def autograd_elu_backward(grad_output, alpha, scale, input_scale, is_result, self_or_result):
    result = _op.elu_backward.redispatch(_AUTOGRAD, grad_output, alpha, scale, input_scale, is_result, self_or_result)
    node = EluBackwardBackward()
    if _connect_tensors(node, (grad_output, self_or_result)):
        needs = node.needs_input_grad
        if needs[1]:
            node.s_grad_output = _save(grad_output)
        node.s_alpha = alpha
        node.s_scale = scale
        node.s_input_scale = input_scale
        node.s_is_result = is_result
        node.s_self_or_result = _save(self_or_result)
        _set_history(node, result, None)
    return result


KERNELS['elu_backward'] = autograd_elu_backward
NODES['elu_backward'] = EluBackwardBackward


class SeluBackward(_Node):
    __slots__ = ('s_self',)
    op_name = 'selu'

    def apply(node, grads):
        grad = grads[0]
        needs = node.needs_input_grad
        self = _unpack(node, node.s_self)
        g_self = None
        grad_input_mask = needs
        if needs[0]:
            g_self = where(self > 0, grad * 1.0507009873554805, grad * 1.7580993408473766 * exp(self))
        return (g_self,)


def autograd_selu(self):
    result = _op.selu.redispatch(_AUTOGRAD, self)
    node = SeluBackward()
    if _connect_tensors(node, (self,)):
        node.s_self = _save(self)
        _set_history(node, result, None)
    return result


KERNELS['selu'] = autograd_selu
NODES['selu'] = SeluBackward


class LeakyReluBackward(_Node):
    __slots__ = ('s_self', 's_negative_slope')
    op_name = 'leaky_relu'

    def apply(node, grads):
        grad = grads[0]
        needs = node.needs_input_grad
        self = _unpack(node, node.s_self)
        negative_slope = node.s_negative_slope
        g_self = None
        grad_input_mask = needs
        if needs[0]:
            g_self = leaky_relu_backward(grad, self, negative_slope, False)
        return (g_self,)


def autograd_leaky_relu(self, negative_slope):
    result = _op.leaky_relu.redispatch(_AUTOGRAD, self, negative_slope)
    node = LeakyReluBackward()
    if _connect_tensors(node, (self,)):
        node.s_self = _save(self)
        node.s_negative_slope = negative_slope
        _set_history(node, result, None)
    return result


KERNELS['leaky_relu'] = autograd_leaky_relu
NODES['leaky_relu'] = LeakyReluBackward


class LeakyReluBackwardBackward(_Node):
    __slots__ = ('s_self', 's_negative_slope', 's_self_is_result')
    op_name = 'leaky_relu_backward'

    def apply(node, grads):
        grad = grads[0]
        needs = node.needs_input_grad
        self = _unpack(node, node.s_self) if needs[0] else None
        negative_slope = node.s_negative_slope
        self_is_result = node.s_self_is_result
        g_grad_output = g_self = None
        grad_input_mask = needs
        if needs[0]:
            g_grad_output = leaky_relu_backward(grad, self, negative_slope, self_is_result)
        if needs[1]:
            g_self = zeros_like(grad)
        return (g_grad_output, g_self)


def autograd_leaky_relu_backward(grad_output, self, negative_slope, self_is_result):
    result = _op.leaky_relu_backward.redispatch(_AUTOGRAD, grad_output, self, negative_slope, self_is_result)
    node = LeakyReluBackwardBackward()
    if _connect_tensors(node, (grad_output, self)):
        needs = node.needs_input_grad
        if needs[0]:
            node.s_self = _save(self)
        node.s_negative_slope = negative_slope
        node.s_self_is_result = self_is_result
        _set_history(node, result, None)
    return result


KERNELS['leaky_relu_backward'] = autograd_leaky_relu_backward
NODES['leaky_relu_backward'] = LeakyReluBackwardBackward


class HardtanhBackward(_Node):
    __slots__ = ('s_self', 's_min_val', 's_max_val')
    op_name = 'hardtanh'

    def apply(node, grads):
        grad = grads[0]
        needs = node.needs_input_grad
        self = _unpack(node, node.s_self)
        min_val = node.s_min_val
        max_val = node.s_max_val
        g_self = None
        grad_input_mask = needs
        if needs[0]:
            g_self = hardtanh_backward(grad, self, min_val, max_val)
        return (g_self,)


def autograd_hardtanh(self, min_val, max_val):
    result = _op.hardtanh.redispatch(_AUTOGRAD, self, min_val, max_val)
    node = HardtanhBackward()
    if _connect_tensors(node, (self,)):
        node.s_self = _save(self)
        node.s_min_val = min_val
        node.s_max_val = max_val
        _set_history(node, result, None)
    return result


KERNELS['hardtanh'] = autograd_hardtanh
NODES['hardtanh'] = HardtanhBackward


class HardtanhBackwardBackward(_Node):
    __slots__ = ('s_self', 's_min_val', 's_max_val')
    op_name = 'hardtanh_backward'

    def apply(node, grads):
        grad = grads[0]
        needs = node.needs_input_grad
        self = _unpack(node, node.s_self) if needs[0] else None
        min_val = node.s_min_val
        max_val = node.s_max_val
        g_grad_output = g_self = None
        grad_input_mask = needs
        if needs[0]:
            g_grad_output = hardtanh_backward(grad, self, min_val, max_val)
        if needs[1]:
            g_self = zeros_like(grad)
        return (g_grad_output, g_self)


def autograd_hardtanh_backward(grad_output, self, min_val, max_val):
    result = _op.hardtanh_backward.redispatch(_AUTOGRAD, grad_output, self, min_val, max_val)
    node = HardtanhBackwardBackward()
    if _connect_tensors(node, (grad_output, self)):
        needs = node.needs_input_grad
        if needs[0]:
            node.s_self = _save(self)
        node.s_min_val = min_val
        node.s_max_val = max_val
        _set_history(node, result, None)
    return result


KERNELS['hardtanh_backward'] = autograd_hardtanh_backward
NODES['hardtanh_backward'] = HardtanhBackwardBackward


class HardsigmoidBackward(_Node):
    __slots__ = ('s_self',)
    op_name = 'hardsigmoid'

    def apply(node, grads):
        grad = grads[0]
        needs = node.needs_input_grad
        self = _unpack(node, node.s_self)
        g_self = None
        grad_input_mask = needs
        if needs[0]:
            g_self = where((self > -3) & (self < 3), grad / 6, 0)
        return (g_self,)


def autograd_hardsigmoid(self):
    result = _op.hardsigmoid.redispatch(_AUTOGRAD, self)
    node = HardsigmoidBackward()
    if _connect_tensors(node, (self,)):
        node.s_self = _save(self)
        _set_history(node, result, None)
    return result


KERNELS['hardsigmoid'] = autograd_hardsigmoid
NODES['hardsigmoid'] = HardsigmoidBackward


class HardswishBackward(_Node):
    __slots__ = ('s_self',)
    op_name = 'hardswish'

    def apply(node, grads):
        grad = grads[0]
        needs = node.needs_input_grad
        self = _unpack(node, node.s_self)
        g_self = None
        grad_input_mask = needs
        if needs[0]:
            g_self = where(self < -3, 0, where(self <= 3, grad * (2 * self + 3) / 6, grad))
        return (g_self,)


def autograd_hardswish(self):
    result = _op.hardswish.redispatch(_AUTOGRAD, self)
    node = HardswishBackward()
    if _connect_tensors(node, (self,)):
        node.s_self = _save(self)
        _set_history(node, result, None)
    return result


KERNELS['hardswish'] = autograd_hardswish
NODES['hardswish'] = HardswishBackward


class LogsigmoidBackward(_Node):
    __slots__ = ('s_self',)
    op_name = 'logsigmoid'

    def apply(node, grads):
        grad = grads[0]
        needs = node.needs_input_grad
        self = _unpack(node, node.s_self)
        g_self = None
        grad_input_mask = needs
        if needs[0]:
            g_self = log_sigmoid_backward(grad, self)
        return (g_self,)


def autograd_logsigmoid(self):
    result = _op.logsigmoid.redispatch(_AUTOGRAD, self)
    node = LogsigmoidBackward()
    if _connect_tensors(node, (self,)):
        node.s_self = _save(self)
        _set_history(node, result, None)
    return result


KERNELS['logsigmoid'] = autograd_logsigmoid
NODES['logsigmoid'] = LogsigmoidBackward


class LogSigmoidBackwardBackward(_Node):
    __slots__ = ('s_grad_output', 's_self')
    op_name = 'log_sigmoid_backward'

    def apply(node, grads):
        grad = grads[0]
        needs = node.needs_input_grad
        grad_output = _unpack(node, node.s_grad_output) if needs[1] else None
        self = _unpack(node, node.s_self)
        g_grad_output = g_self = None
        grad_input_mask = needs
        if needs[0]:
            g_grad_output = log_sigmoid_backward(grad, self)
        if needs[1]:
            g_self = -grad * grad_output * sigmoid(self) * sigmoid(-self)
        return (g_grad_output, g_self)


def autograd_log_sigmoid_backward(grad_output, self):
    result = _op.log_sigmoid_backward.redispatch(_AUTOGRAD, grad_output, self)
    node = LogSigmoidBackwardBackward()
    if _connect_tensors(node, (grad_output, self)):
        needs = node.needs_input_grad
        if needs[1]:
            node.s_grad_output = _save(grad_output)
        node.s_self = _save(self)
        _set_history(node, result, None)
    return result


KERNELS['log_sigmoid_backward'] = autograd_log_sigmoid_backward
NODES['log_sigmoid_backward'] = LogSigmoidBackwardBackward


class SoftsignBackward(_Node):
    __slots__ = ('s_self',)
    op_name = 'softsign'

    def apply(node, grads):
        grad = grads[0]
        needs = node.needs_input_grad
        self = _unpack(node, node.s_self)
        g_self = None
        grad_input_mask = needs
        if needs[0]:
            g_self = grad / ((1 + abs(self)) * (1 + abs(self)))
        return (g_self,)


def autograd_softsign(self):
    result = _op.softsign.redispatch(_AUTOGRAD, self)
    node = SoftsignBackward()
    if _connect_tensors(node, (self,)):
        node.s_self = _save(self)
        _set_history(node, result, None)
    return result


KERNELS['softsign'] = autograd_softsign
NODES['softsign'] = SoftsignBackward


class ErfBackward(_Node):
    __slots__ = ('s_self',)
    op_name = 'erf'

    def apply(node, grads):
        grad = grads[0]
        needs = node.needs_input_grad
        self = _unpack(node, node.s_self)
        g_self = None
        grad_input_mask = needs
        if needs[0]:
            g_self = grad * 1.1283791670955126 * exp(-self * self)
        return (g_self,)


def autograd_erf(self):
    result = _op.erf.redispatch(_AUTOGRAD, self)
    node = ErfBackward()
    if _connect_tensors(node, (self,)):
        node.s_self = _save(self)
        _set_history(node, result, None)
    return result


KERNELS['erf'] = autograd_erf
NODES['erf'] = ErfBackward


class ErfcBackward(_Node):
    __slots__ = ('s_self',)
    op_name = 'erfc'

    def apply(node, grads):
        grad = grads[0]
        needs = node.needs_input_grad
        self = _unpack(node, node.s_self)
        g_self = None
        grad_input_mask = needs
        if needs[0]:
            g_self = grad * -1.1283791670955126 * exp(-self * self)
        return (g_self,)


def autograd_erfc(self):
    result = _op.erfc.redispatch(_AUTOGRAD, self)
    node = ErfcBackward()
    if _connect_tensors(node, (self,)):
        node.s_self = _save(self)
        _set_history(node, result, None)
    return result


KERNELS['erfc'] = autograd_erfc
NODES['erfc'] = ErfcBackward


class ErfinvBackward(_Node):
    __slots__ = ('o_result',)
    op_name = 'erfinv'

    def apply(node, grads):
        grad = grads[0]
        needs = node.needs_input_grad
        result = _unpack(node, node.o_result)
        g_self = None
        grad_input_mask = needs
        if needs[0]:
            g_self = grad * 0.886226925452758 * exp(result * result)
        return (g_self,)


def autograd_erfinv(self):
    result = _op.erfinv.redispatch(_AUTOGRAD, self)
    node = ErfinvBackward()
    if _connect_tensors(node, (self,)):
        node.o_result = _save_output(result)
        _set_history(node, result, None)
    return result


KERNELS['erfinv'] = autograd_erfinv
NODES['erfinv'] = ErfinvBackward


class SignBackward(_Node):
    __slots__ = ()
    op_name = 'sign'

    def apply(node, grads):
        grad = grads[0]
        needs = node.needs_input_grad
        g_self = None
        grad_input_mask = needs
        if needs[0]:
            g_self = zeros_like(grad)
        return (g_self,)


def autograd_sign(self):
    result = _op.sign.redispatch(_AUTOGRAD, self)
    node = SignBackward()
    if _connect_tensors(node, (self,)):
        _set_history(node, result, None)
    return result


KERNELS['sign'] = autograd_sign
NODES['sign'] = SignBackward


class FloorBackward(_Node):
    __slots__ = ()
    op_name = 'floor'

    def apply(node, grads):
        grad = grads[0]
        needs = node.needs_input_grad
        g_self = None
        grad_input_mask = needs
        if needs[0]:
            g_self = zeros_like(grad)
        return (g_self,)


def autograd_floor(self):
    result = _op.floor.redispatch(_AUTOGRAD, self)
    node = FloorBackward()
    if _connect_tensors(node, (self,)):
        _set_history(node, result, None)
    return result


KERNELS['floor'] = autograd_floor
NODES['floor'] = FloorBackward


class CeilBackward(_Node):
    __slots__ = ()
    op_name = 'ceil'

    def apply(node, grads):
        grad = grads[0]
        needs = node.needs_input_grad
        g_self = None
        grad_input_mask = needs
        if needs[0]:
            g_self = zeros_like(grad)
        return (g_self,)


def autograd_ceil(self):
    result = _op.ceil.redispatch(_AUTOGRAD, self)
    node = CeilBackward()
    if _connect_tensors(node, (self,)):
        _set_history(node, result, None)
    return result


KERNELS['ceil'] = autograd_ceil
NODES['ceil'] = CeilBackward


class RoundBackward(_Node):
    __slots__ = ()
    op_name = 'round'

    def apply(node, grads):
        grad = grads[0]
        needs = node.needs_input_grad
        g_self = None
        grad_input_mask = needs
        if needs[0]:
            g_self = zeros_like(grad)
        return (g_self,)


def autograd_round(self, decimals):
    result = _op.round.redispatch(_AUTOGRAD, self, decimals)
    node = RoundBackward()
    if _connect_tensors(node, (self,)):
        _set_history(node, result, None)
    return result


KERNELS['round'] = autograd_round
NODES['round'] = RoundBackward


class TruncBackward(_Node):
    __slots__ = ()
    op_name = 'trunc'

    def apply(node, grads):
        grad = grads[0]
        needs = node.needs_input_grad
        g_self = None
        grad_input_mask = needs
        if needs[0]:
            g_self = zeros_like(grad)
        return (g_self,)


def autograd_trunc(self):
    result = _op.trunc.redispatch(_AUTOGRAD, self)
    node = TruncBackward()
    if _connect_tensors(node, (self,)):
        _set_history(node, result, None)
    return result


KERNELS['trunc'] = autograd_trunc
NODES['trunc'] = TruncBackward


class FracBackward(_Node):
    __slots__ = ()
    op_name = 'frac'

    def apply(node, grads):
        grad = grads[0]
        needs = node.needs_input_grad
        g_self = None
        grad_input_mask = needs
        if needs[0]:
            g_self = grad
        return (g_self,)


def autograd_frac(self):
    result = _op.frac.redispatch(_AUTOGRAD, self)
    node = FracBackward()
    if _connect_tensors(node, (self,)):
        _set_history(node, result, None)
    return result


KERNELS['frac'] = autograd_frac
NODES['frac'] = FracBackward


class ReciprocalBackward(_Node):
    __slots__ = ('o_result',)
    op_name = 'reciprocal'

    def apply(node, grads):
        grad = grads[0]
        needs = node.needs_input_grad
        result = _unpack(node, node.o_result)
        g_self = None
        grad_input_mask = needs
        if needs[0]:
            g_self = -grad * result * result
        return (g_self,)


def autograd_reciprocal(self):
    result = _op.reciprocal.redispatch(_AUTOGRAD, self)
    node = ReciprocalBackward()
    if _connect_tensors(node, (self,)):
        node.o_result = _save_output(result)
        _set_history(node, result, None)
    return result


KERNELS['reciprocal'] = autograd_reciprocal
NODES['reciprocal'] = ReciprocalBackward


class SquareBackward(_Node):
    __slots__ = ('s_self',)
    op_name = 'square'

    def apply(node, grads):
        grad = grads[0]
        needs = node.needs_input_grad
        self = _unpack(node, node.s_self)
        g_self = None
        grad_input_mask = needs
        if needs[0]:
            g_self = 2 * grad * self
        return (g_self,)


def autograd_square(self):
    result = _op.square.redispatch(_AUTOGRAD, self)
    node = SquareBackward()
    if _connect_tensors(node, (self,)):
        node.s_self = _save(self)
        _set_history(node, result, None)
    return result


KERNELS['square'] = autograd_square
NODES['square'] = SquareBackward


class ClampBackward(_Node):
    __slots__ = ('s_self', 's_min', 's_max')
    op_name = 'clamp'

    def apply(node, grads):
        grad = grads[0]
        needs = node.needs_input_grad
        self = _unpack(node, node.s_self)
        min = _unpack(node, node.s_min)
        max = _unpack(node, node.s_max)
        g_self = g_min = g_max = None
        grad_input_mask = needs
        if needs[0]:
            g_self = clamp_backward(grad, self, min, max)
        if needs[1]:
            g_min = where((self < min) & (min < max) if max is not None else self < min, grad, 0)
        if needs[2]:
            g_max = where((self > max) | (max < min) if min is not None else self > max, grad, 0)
        return (g_self, g_min, g_max)


def autograd_clamp(self, min, max):
    result = _op.clamp.redispatch(_AUTOGRAD, self, min, max)
    node = ClampBackward()
    if _connect_tensors(node, (self, min, max)):
        node.s_self = _save(self)
        node.s_min = _save(min)
        node.s_max = _save(max)
        _set_history(node, result, None)
    return result


KERNELS['clamp'] = autograd_clamp
NODES['clamp'] = ClampBackward


class NanToNumBackward(_Node):
    __slots__ = ('s_self',)
    op_name = 'nan_to_num'

    def apply(node, grads):
        grad = grads[0]
        needs = node.needs_input_grad
        self = _unpack(node, node.s_self)
        g_self = None
        grad_input_mask = needs
        if needs[0]:
            g_self = where(isfinite(self), grad, 0)
        return (g_self,)


def autograd_nan_to_num(self, nan, posinf, neginf):
    result = _op.nan_to_num.redispatch(_AUTOGRAD, self, nan, posinf, neginf)
    node = NanToNumBackward()
    if _connect_tensors(node, (self,)):
        node.s_self = _save(self)
        _set_history(node, result, None)
    return result


KERNELS['nan_to_num'] = autograd_nan_to_num
NODES['nan_to_num'] = NanToNumBackward


class AddBackward(_Node):
    __slots__ = ('s_alpha',)
    op_name = 'add'

    def apply(node, grads):
        grad = grads[0]
        needs = node.needs_input_grad
        alpha = node.s_alpha
        g_self = g_other = None
        grad_input_mask = needs
        if needs[0]:
            g_self = grad
        if needs[1]:
            g_other = maybe_multiply(grad, alpha)
        return (g_self, g_other)


def autograd_add(self, other, alpha):
    result = _op.add.redispatch(_AUTOGRAD, self, other, alpha)
    node = AddBackward()
    if _connect_tensors(node, (self, other)):
        node.s_alpha = alpha
        _set_history(node, result, None)
    return result


KERNELS['add'] = autograd_add
NODES['add'] = AddBackward


class SubBackward(_Node):
    __slots__ = ('s_alpha',)
    op_name = 'sub'

    def apply(node, grads):
        grad = grads[0]
        needs = node.needs_input_grad
        alpha = node.s_alpha
        g_self = g_other = None
        grad_input_mask = needs
        if needs[0]:
            g_self = grad
        if needs[1]:
            g_other = -maybe_multiply(grad, alpha)
        return (g_self, g_other)


def autograd_sub(self, other, alpha):
    result = _op.sub.redispatch(_AUTOGRAD, self, other, alpha)
    node = SubBackward()
    if _connect_tensors(node, (self, other)):
        node.s_alpha = alpha
        _set_history(node, result, None)
    return result


KERNELS['sub'] = autograd_sub
NODES['sub'] = SubBackward


class MulBackward(_Node):
    __slots__ = ('s_self', 's_other')
    op_name = 'mul'

    def apply(node, grads):
        grad = grads[0]
        needs = node.needs_input_grad
        self = _unpack(node, node.s_self) if needs[1] else None
        other = _unpack(node, node.s_other) if needs[0] else None
        g_self = g_other = None
        grad_input_mask = needs
        if needs[0]:
            g_self = grad * other
        if needs[1]:
            g_other = grad * self
        return (g_self, g_other)


def autograd_mul(self, other):
    result = _op.mul.redispatch(_AUTOGRAD, self, other)
    node = MulBackward()
    if _connect_tensors(node, (self, other)):
        needs = node.needs_input_grad
        if needs[1]:
            node.s_self = _save(self)
        if needs[0]:
            node.s_other = _save(other)
        _set_history(node, result, None)
    return result


KERNELS['mul'] = autograd_mul
NODES['mul'] = MulBackward


class DivBackward(_Node):
    __slots__ = ('s_self', 's_other', 's_rounding_mode')
    op_name = 'div'

    def apply(node, grads):
        grad = grads[0]
        needs = node.needs_input_grad
        self = _unpack(node, node.s_self) if needs[1] else None
        other = _unpack(node, node.s_other)
        rounding_mode = node.s_rounding_mode
        g_self = g_other = None
        grad_input_mask = needs
        if needs[0]:
            g_self = div_backward_self(grad, other, rounding_mode)
        if needs[1]:
            g_other = div_backward_other(grad, self, other, rounding_mode)
        return (g_self, g_other)


def autograd_div(self, other, rounding_mode):
    result = _op.div.redispatch(_AUTOGRAD, self, other, rounding_mode)
    node = DivBackward()
    if _connect_tensors(node, (self, other)):
        needs = node.needs_input_grad
        if needs[1]:
            node.s_self = _save(self)
        node.s_other = _save(other)
        node.s_rounding_mode = rounding_mode
        _set_history(node, result, None)
    return result


KERNELS['div'] = autograd_div
NODES['div'] = DivBackward


class PowBackward(_Node):
    __slots__ = ('s_self', 's_exponent', 'o_result')
    op_name = 'pow'

    def apply(node, grads):
        grad = grads[0]
        needs = node.needs_input_grad
        self = _unpack(node, node.s_self)
        exponent = _unpack(node, node.s_exponent)
        result = _unpack(node, node.o_result) if needs[1] else None
        g_self = g_exponent = None
        grad_input_mask = needs
        if needs[0]:
            g_self = pow_backward_self(grad, self, exponent)
        if needs[1]:
            g_exponent = pow_backward_exponent(grad, self, exponent, result)
        return (g_self, g_exponent)


def autograd_pow(self, exponent):
    result = _op.pow.redispatch(_AUTOGRAD, self, exponent)
    node = PowBackward()
    if _connect_tensors(node, (self, exponent)):
        needs = node.needs_input_grad
        node.s_self = _save(self)
        node.s_exponent = _save(exponent)
        if needs[1]:
            node.o_result = _save_output(result)
        _set_history(node, result, None)
    return result


KERNELS['pow'] = autograd_pow
NODES['pow'] = PowBackward


class MaximumBackward(_Node):
    __slots__ = ('s_self', 's_other')
    op_name = 'maximum'

    def apply(node, grads):
        grad = grads[0]
        needs = node.needs_input_grad
        self = _unpack(node, node.s_self)
        other = _unpack(node, node.s_other)
        g_self = g_other = None
        grad_input_mask = needs
        if needs[0]:
            g_self = where(self < other, 0, where(self == other, grad / 2, grad))
        if needs[1]:
            g_other = where(self > other, 0, where(self == other, grad / 2, grad))
        return (g_self, g_other)


def autograd_maximum(self, other):
    result = _op.maximum.redispatch(_AUTOGRAD, self, other)
    node = MaximumBackward()
    if _connect_tensors(node, (self, other)):
        node.s_self = _save(self)
        node.s_other = _save(other)
        _set_history(node, result, None)
    return result


KERNELS['maximum'] = autograd_maximum
NODES['maximum'] = MaximumBackward


class MinimumBackward(_Node):
    __slots__ = ('s_self', 's_other')
    op_name = 'minimum'

    def apply(node, grads):
        grad = grads[0]
        needs = node.needs_input_grad
        self = _unpack(node, node.s_self)
        other = _unpack(node, node.s_other)
        g_self = g_other = None
        grad_input_mask = needs
        if needs[0]:
            g_self = where(self > other, 0, where(self == other, grad / 2, grad))
        if needs[1]:
            g_other = where(self < other, 0, where(self == other, grad / 2, grad))
        return (g_self, g_other)


def autograd_minimum(self, other):
    result = _op.minimum.redispatch(_AUTOGRAD, self, other)
    node = MinimumBackward()
    if _connect_tensors(node, (self, other)):
        node.s_self = _save(self)
        node.s_other = _save(other)
        _set_history(node, result, None)
    return result


KERNELS['minimum'] = autograd_minimum
NODES['minimum'] = MinimumBackward


class FmaxBackward(_Node):
    __slots__ = ('s_self', 's_other')
    op_name = 'fmax'

    def apply(node, grads):
        grad = grads[0]
        needs = node.needs_input_grad
        self = _unpack(node, node.s_self)
        other = _unpack(node, node.s_other)
        g_self = g_other = None
        grad_input_mask = needs
        if needs[0]:
            g_self = where((self >= other) | isnan(other), grad, 0)
        if needs[1]:
            g_other = where((self >= other) | isnan(other), 0, grad)
        return (g_self, g_other)


def autograd_fmax(self, other):
    result = _op.fmax.redispatch(_AUTOGRAD, self, other)
    node = FmaxBackward()
    if _connect_tensors(node, (self, other)):
        node.s_self = _save(self)
        node.s_other = _save(other)
        _set_history(node, result, None)
    return result


KERNELS['fmax'] = autograd_fmax
NODES['fmax'] = FmaxBackward


class FminBackward(_Node):
    __slots__ = ('s_self', 's_other')
    op_name = 'fmin'

    def apply(node, grads):
        grad = grads[0]
        needs = node.needs_input_grad
        self = _unpack(node, node.s_self)
        other = _unpack(node, node.s_other)
        g_self = g_other = None
        grad_input_mask = needs
        if needs[0]:
            g_self = where((self <= other) | isnan(other), grad, 0)
        if needs[1]:
            g_other = where((self <= other) | isnan(other), 0, grad)
        return (g_self, g_other)


def autograd_fmin(self, other):
    result = _op.fmin.redispatch(_AUTOGRAD, self, other)
    node = FminBackward()
    if _connect_tensors(node, (self, other)):
        node.s_self = _save(self)
        node.s_other = _save(other)
        _set_history(node, result, None)
    return result


KERNELS['fmin'] = autograd_fmin
NODES['fmin'] = FminBackward


class RemainderBackward(_Node):
    __slots__ = ('s_self', 's_other')
    op_name = 'remainder'

    def apply(node, grads):
        grad = grads[0]
        needs = node.needs_input_grad
        self = _unpack(node, node.s_self) if needs[1] else None
        other = _unpack(node, node.s_other) if needs[1] else None
        g_self = g_other = None
        grad_input_mask = needs
        if needs[0]:
            g_self = grad
        if needs[1]:
            g_other = -grad * floor_divide(self, other)
        return (g_self, g_other)


def autograd_remainder(self, other):
    result = _op.remainder.redispatch(_AUTOGRAD, self, other)
    node = RemainderBackward()
    if _connect_tensors(node, (self, other)):
        needs = node.needs_input_grad
        if needs[1]:
            node.s_self = _save(self)
        if needs[1]:
            node.s_other = _save(other)
        _set_history(node, result, None)
    return result


KERNELS['remainder'] = autograd_remainder
NODES['remainder'] = RemainderBackward


class FmodBackward(_Node):
    __slots__ = ('s_self', 's_other')
    op_name = 'fmod'

    def apply(node, grads):
        grad = grads[0]
        needs = node.needs_input_grad
        self = _unpack(node, node.s_self) if needs[1] else None
        other = _unpack(node, node.s_other) if needs[1] else None
        g_self = g_other = None
        grad_input_mask = needs
        if needs[0]:
            g_self = grad
        if needs[1]:
            g_other = -grad * trunc(self / other)
        return (g_self, g_other)


def autograd_fmod(self, other):
    result = _op.fmod.redispatch(_AUTOGRAD, self, other)
    node = FmodBackward()
    if _connect_tensors(node, (self, other)):
        needs = node.needs_input_grad
        if needs[1]:
            node.s_self = _save(self)
        if needs[1]:
            node.s_other = _save(other)
        _set_history(node, result, None)
    return result


KERNELS['fmod'] = autograd_fmod
NODES['fmod'] = FmodBackward


class Atan2Backward(_Node):
    __slots__ = ('s_self', 's_other')
    op_name = 'atan2'

    def apply(node, grads):
        grad = grads[0]
        needs = node.needs_input_grad
        self = _unpack(node, node.s_self)
        other = _unpack(node, node.s_other)
        g_self = g_other = None
        grad_input_mask = needs
        if needs[0] or needs[1]:
            g_self, g_other, = atan2_backward(grad, self, other, grad_input_mask)
        return (g_self, g_other)


def autograd_atan2(self, other):
    result = _op.atan2.redispatch(_AUTOGRAD, self, other)
    node = Atan2Backward()
    if _connect_tensors(node, (self, other)):
        node.s_self = _save(self)
        node.s_other = _save(other)
        _set_history(node, result, None)
    return result


KERNELS['atan2'] = autograd_atan2
NODES['atan2'] = Atan2Backward


class HypotBackward(_Node):
    __slots__ = ('s_self', 's_other', 'o_result')
    op_name = 'hypot'

    def apply(node, grads):
        grad = grads[0]
        needs = node.needs_input_grad
        self = _unpack(node, node.s_self) if needs[0] else None
        other = _unpack(node, node.s_other) if needs[1] else None
        result = _unpack(node, node.o_result)
        g_self = g_other = None
        grad_input_mask = needs
        if needs[0]:
            g_self = grad * self / result
        if needs[1]:
            g_other = grad * other / result
        return (g_self, g_other)


def autograd_hypot(self, other):
    result = _op.hypot.redispatch(_AUTOGRAD, self, other)
    node = HypotBackward()
    if _connect_tensors(node, (self, other)):
        needs = node.needs_input_grad
        if needs[0]:
            node.s_self = _save(self)
        if needs[1]:
            node.s_other = _save(other)
        node.o_result = _save_output(result)
        _set_history(node, result, None)
    return result


KERNELS['hypot'] = autograd_hypot
NODES['hypot'] = HypotBackward


class CopysignBackward(_Node):
    __slots__ = ('s_self', 's_other', 'o_result')
    op_name = 'copysign'

    def apply(node, grads):
        grad = grads[0]
        needs = node.needs_input_grad
        self = _unpack(node, node.s_self) if needs[0] else None
        other = _unpack(node, node.s_other) if needs[1] else None
        result = _unpack(node, node.o_result) if needs[0] else None
        g_self = g_other = None
        grad_input_mask = needs
        if needs[0]:
            g_self = where(self == 0, 0, grad * result / self)
        if needs[1]:
            g_other = zeros_like(other)
        return (g_self, g_other)


def autograd_copysign(self, other):
    result = _op.copysign.redispatch(_AUTOGRAD, self, other)
    node = CopysignBackward()
    if _connect_tensors(node, (self, other)):
        needs = node.needs_input_grad
        if needs[0]:
            node.s_self = _save(self)
        if needs[1]:
            node.s_other = _save(other)
        if needs[0]:
            node.o_result = _save_output(result)
        _set_history(node, result, None)
    return result


KERNELS['copysign'] = autograd_copysign
NODES['copysign'] = CopysignBackward


class XlogyBackward(_Node):
    __slots__ = ('s_self', 's_other')
    op_name = 'xlogy'

    def apply(node, grads):
        grad = grads[0]
        needs = node.needs_input_grad
        self = _unpack(node, node.s_self)
        other = _unpack(node, node.s_other)
        g_self = g_other = None
        grad_input_mask = needs
        if needs[0]:
            g_self = where((self == 0) & (other <= 0), 0, xlogy(grad, other))
        if needs[1]:
            g_other = grad * self / other
        return (g_self, g_other)


def autograd_xlogy(self, other):
    result = _op.xlogy.redispatch(_AUTOGRAD, self, other)
    node = XlogyBackward()
    if _connect_tensors(node, (self, other)):
        node.s_self = _save(self)
        node.s_other = _save(other)
        _set_history(node, result, None)
    return result


KERNELS['xlogy'] = autograd_xlogy
NODES['xlogy'] = XlogyBackward


class LogaddexpBackward(_Node):
    __slots__ = ('s_self', 's_other', 'o_result')
    op_name = 'logaddexp'

    def apply(node, grads):
        grad = grads[0]
        needs = node.needs_input_grad
        self = _unpack(node, node.s_self) if needs[0] else None
        other = _unpack(node, node.s_other) if needs[1] else None
        result = _unpack(node, node.o_result)
        g_self = g_other = None
        grad_input_mask = needs
        if needs[0]:
            g_self = grad * exp(self - result)
        if needs[1]:
            g_other = grad * exp(other - result)
        return (g_self, g_other)


def autograd_logaddexp(self, other):
    result = _op.logaddexp.redispatch(_AUTOGRAD, self, other)
    node = LogaddexpBackward()
    if _connect_tensors(node, (self, other)):
        needs = node.needs_input_grad
        if needs[0]:
            node.s_self = _save(self)
        if needs[1]:
            node.s_other = _save(other)
        node.o_result = _save_output(result)
        _set_history(node, result, None)
    return result


KERNELS['logaddexp'] = autograd_logaddexp
NODES['logaddexp'] = LogaddexpBackward


class WhereSelfBackward(_Node):
    __slots__ = ('s_condition',)
    op_name = 'where.self'

    def apply(node, grads):
        grad = grads[0]
        needs = node.needs_input_grad
        condition = _unpack(node, node.s_condition) if needs[1] or needs[2] else None
        g_condition = g_self = g_other = None
        grad_input_mask = needs
        if needs[1]:
            g_self = where(condition, grad, 0)
        if needs[2]:
            g_other = where(condition, 0, grad)
        return (g_condition, g_self, g_other)


def autograd_where_self(condition, self, other):
    result = _op.where_self.redispatch(_AUTOGRAD, condition, self, other)
    node = WhereSelfBackward()
    if _connect_tensors(node, (condition, self, other)):
        needs = node.needs_input_grad
        if needs[1] or needs[2]:
            node.s_condition = _save(condition)
        _set_history(node, result, None)
    return result


KERNELS['where.self'] = autograd_where_self
NODES['where.self'] = WhereSelfBackward


class LerpBackward(_Node):
    __slots__ = ('s_self', 's_end', 's_weight')
    op_name = 'lerp'

    def apply(node, grads):
        grad = grads[0]
        needs = node.needs_input_grad
        self = _unpack(node, node.s_self) if needs[2] else None
        end = _unpack(node, node.s_end) if needs[2] else None
        weight = _unpack(node, node.s_weight) if needs[0] or needs[1] else None
        g_self = g_end = g_weight = None
        grad_input_mask = needs
        if needs[0]:
            g_self = grad * (1 - weight)
        if needs[1]:
            g_end = grad * weight
        if needs[2]:
            g_weight = grad * (end - self)
        return (g_self, g_end, g_weight)


def autograd_lerp(self, end, weight):
    result = _op.lerp.redispatch(_AUTOGRAD, self, end, weight)
    node = LerpBackward()
    if _connect_tensors(node, (self, end, weight)):
        needs = node.needs_input_grad
        if needs[2]:
            node.s_self = _save(self)
        if needs[2]:
            node.s_end = _save(end)
        if needs[0] or needs[1]:
            node.s_weight = _save(weight)
        _set_history(node, result, None)
    return result


KERNELS['lerp'] = autograd_lerp
NODES['lerp'] = LerpBackward


class AddcmulBackward(_Node):
    __slots__ = ('s_tensor1', 's_tensor2', 's_value')
    op_name = 'addcmul'

    def apply(node, grads):
        grad = grads[0]
        needs = node.needs_input_grad
        tensor1 = _unpack(node, node.s_tensor1) if needs[2] else None
        tensor2 = _unpack(node, node.s_tensor2) if needs[1] else None
        value = node.s_value
        g_self = g_tensor1 = g_tensor2 = None
        grad_input_mask = needs
        if needs[0]:
            g_self = grad
        if needs[1]:
            g_tensor1 = maybe_multiply(grad * tensor2, value)
        if needs[2]:
            g_tensor2 = maybe_multiply(grad * tensor1, value)
        return (g_self, g_tensor1, g_tensor2)


def autograd_addcmul(self, tensor1, tensor2, value):
    result = _op.addcmul.redispatch(_AUTOGRAD, self, tensor1, tensor2, value)
    node = AddcmulBackward()
    if _connect_tensors(node, (self, tensor1, tensor2)):
        needs = node.needs_input_grad
        if needs[2]:
            node.s_tensor1 = _save(tensor1)
        if needs[1]:
            node.s_tensor2 = _save(tensor2)
        node.s_value = value
        _set_history(node, result, None)
    return result


KERNELS['addcmul'] = autograd_addcmul
NODES['addcmul'] = AddcmulBackward


class AddcdivBackward(_Node):
    __slots__ = ('s_tensor1', 's_tensor2', 's_value')
    op_name = 'addcdiv'

    def apply(node, grads):
        grad = grads[0]
        needs = node.needs_input_grad
        tensor1 = _unpack(node, node.s_tensor1) if needs[2] else None
        tensor2 = _unpack(node, node.s_tensor2) if needs[1] or needs[2] else None
        value = node.s_value
        g_self = g_tensor1 = g_tensor2 = None
        grad_input_mask = needs
        if needs[0]:
            g_self = grad
        if needs[1]:
            g_tensor1 = maybe_multiply(grad / tensor2, value)
        if needs[2]:
            g_tensor2 = maybe_multiply(-grad * tensor1 / (tensor2 * tensor2), value)
        return (g_self, g_tensor1, g_tensor2)


def autograd_addcdiv(self, tensor1, tensor2, value):
    result = _op.addcdiv.redispatch(_AUTOGRAD, self, tensor1, tensor2, value)
    node = AddcdivBackward()
    if _connect_tensors(node, (self, tensor1, tensor2)):
        needs = node.needs_input_grad
        if needs[2]:
            node.s_tensor1 = _save(tensor1)
        if needs[1] or needs[2]:
            node.s_tensor2 = _save(tensor2)
        node.s_value = value
        _set_history(node, result, None)
    return result


KERNELS['addcdiv'] = autograd_addcdiv
NODES['addcdiv'] = AddcdivBackward


class AcoshBackward(_Node):
    __slots__ = ('s_self',)
    op_name = 'acosh'

    def apply(node, grads):
        grad = grads[0]
        needs = node.needs_input_grad
        self = _unpack(node, node.s_self)
        g_self = None
        grad_input_mask = needs
        if needs[0]:
            g_self = grad * rsqrt(self * self - 1)
        return (g_self,)


def autograd_acosh(self):
    result = _op.acosh.redispatch(_AUTOGRAD, self)
    node = AcoshBackward()
    if _connect_tensors(node, (self,)):
        node.s_self = _save(self)
        _set_history(node, result, None)
    return result


KERNELS['acosh'] = autograd_acosh
NODES['acosh'] = AcoshBackward


class AsinhBackward(_Node):
    __slots__ = ('s_self',)
    op_name = 'asinh'

    def apply(node, grads):
        grad = grads[0]
        needs = node.needs_input_grad
        self = _unpack(node, node.s_self)
        g_self = None
        grad_input_mask = needs
        if needs[0]:
            g_self = grad * rsqrt(self * self + 1)
        return (g_self,)


def autograd_asinh(self):
    result = _op.asinh.redispatch(_AUTOGRAD, self)
    node = AsinhBackward()
    if _connect_tensors(node, (self,)):
        node.s_self = _save(self)
        _set_history(node, result, None)
    return result


KERNELS['asinh'] = autograd_asinh
NODES['asinh'] = AsinhBackward


class AtanhBackward(_Node):
    __slots__ = ('s_self',)
    op_name = 'atanh'

    def apply(node, grads):
        grad = grads[0]
        needs = node.needs_input_grad
        self = _unpack(node, node.s_self)
        g_self = None
        grad_input_mask = needs
        if needs[0]:
            g_self = grad / (1 - self * self)
        return (g_self,)


def autograd_atanh(self):
    result = _op.atanh.redispatch(_AUTOGRAD, self)
    node = AtanhBackward()
    if _connect_tensors(node, (self,)):
        node.s_self = _save(self)
        _set_history(node, result, None)
    return result


KERNELS['atanh'] = autograd_atanh
NODES['atanh'] = AtanhBackward


class Deg2radBackward(_Node):
    __slots__ = ()
    op_name = 'deg2rad'

    def apply(node, grads):
        grad = grads[0]
        needs = node.needs_input_grad
        g_self = None
        grad_input_mask = needs
        if needs[0]:
            g_self = grad * 0.017453292519943295
        return (g_self,)


def autograd_deg2rad(self):
    result = _op.deg2rad.redispatch(_AUTOGRAD, self)
    node = Deg2radBackward()
    if _connect_tensors(node, (self,)):
        _set_history(node, result, None)
    return result


KERNELS['deg2rad'] = autograd_deg2rad
NODES['deg2rad'] = Deg2radBackward


class Rad2degBackward(_Node):
    __slots__ = ()
    op_name = 'rad2deg'

    def apply(node, grads):
        grad = grads[0]
        needs = node.needs_input_grad
        g_self = None
        grad_input_mask = needs
        if needs[0]:
            g_self = grad * 57.29577951308232
        return (g_self,)


def autograd_rad2deg(self):
    result = _op.rad2deg.redispatch(_AUTOGRAD, self)
    node = Rad2degBackward()
    if _connect_tensors(node, (self,)):
        _set_history(node, result, None)
    return result


KERNELS['rad2deg'] = autograd_rad2deg
NODES['rad2deg'] = Rad2degBackward


class SincBackward(_Node):
    __slots__ = ('s_self',)
    op_name = 'sinc'

    def apply(node, grads):
        grad = grads[0]
        needs = node.needs_input_grad
        self = _unpack(node, node.s_self)
        g_self = None
        grad_input_mask = needs
        if needs[0]:
            g_self = where(self == 0, 0, grad * (cos(self * 3.141592653589793) * 3.141592653589793 * self - sin(self * 3.141592653589793)) / (3.141592653589793 * self * self))
        return (g_self,)


def autograd_sinc(self):
    result = _op.sinc.redispatch(_AUTOGRAD, self)
    node = SincBackward()
    if _connect_tensors(node, (self,)):
        node.s_self = _save(self)
        _set_history(node, result, None)
    return result


KERNELS['sinc'] = autograd_sinc
NODES['sinc'] = SincBackward


class LgammaBackward(_Node):
    __slots__ = ('s_self',)
    op_name = 'lgamma'

    def apply(node, grads):
        grad = grads[0]
        needs = node.needs_input_grad
        self = _unpack(node, node.s_self)
        g_self = None
        grad_input_mask = needs
        if needs[0]:
            g_self = grad * digamma(self)
        return (g_self,)


def autograd_lgamma(self):
    result = _op.lgamma.redispatch(_AUTOGRAD, self)
    node = LgammaBackward()
    if _connect_tensors(node, (self,)):
        node.s_self = _save(self)
        _set_history(node, result, None)
    return result


KERNELS['lgamma'] = autograd_lgamma
NODES['lgamma'] = LgammaBackward


class DigammaBackward(_Node):
    __slots__ = ('s_self',)
    op_name = 'digamma'

    def apply(node, grads):
        grad = grads[0]
        needs = node.needs_input_grad
        self = _unpack(node, node.s_self)
        g_self = None
        grad_input_mask = needs
        if needs[0]:
            g_self = grad * polygamma(1, self)
        return (g_self,)


def autograd_digamma(self):
    result = _op.digamma.redispatch(_AUTOGRAD, self)
    node = DigammaBackward()
    if _connect_tensors(node, (self,)):
        node.s_self = _save(self)
        _set_history(node, result, None)
    return result


KERNELS['digamma'] = autograd_digamma
NODES['digamma'] = DigammaBackward


class PolygammaBackward(_Node):
    __slots__ = ('s_n', 's_self')
    op_name = 'polygamma'

    def apply(node, grads):
        grad = grads[0]
        needs = node.needs_input_grad
        n = node.s_n
        self = _unpack(node, node.s_self)
        g_self = None
        grad_input_mask = needs
        if needs[0]:
            g_self = grad * polygamma(n + 1, self)
        return (g_self,)


def autograd_polygamma(n, self):
    result = _op.polygamma.redispatch(_AUTOGRAD, n, self)
    node = PolygammaBackward()
    if _connect_tensors(node, (self,)):
        node.s_n = n
        node.s_self = _save(self)
        _set_history(node, result, None)
    return result


KERNELS['polygamma'] = autograd_polygamma
NODES['polygamma'] = PolygammaBackward


class I0Backward(_Node):
    __slots__ = ('s_self',)
    op_name = 'i0'

    def apply(node, grads):
        grad = grads[0]
        needs = node.needs_input_grad
        self = _unpack(node, node.s_self)
        g_self = None
        grad_input_mask = needs
        if needs[0]:
            g_self = grad * i1(self)
        return (g_self,)


def autograd_i0(self):
    result = _op.i0.redispatch(_AUTOGRAD, self)
    node = I0Backward()
    if _connect_tensors(node, (self,)):
        node.s_self = _save(self)
        _set_history(node, result, None)
    return result


KERNELS['i0'] = autograd_i0
NODES['i0'] = I0Backward


class I0eBackward(_Node):
    __slots__ = ('s_self', 'o_result')
    op_name = 'i0e'

    def apply(node, grads):
        grad = grads[0]
        needs = node.needs_input_grad
        self = _unpack(node, node.s_self)
        result = _unpack(node, node.o_result)
        g_self = None
        grad_input_mask = needs
        if needs[0]:
            g_self = grad * (i1e(self) - sign(self) * result)
        return (g_self,)


def autograd_i0e(self):
    result = _op.i0e.redispatch(_AUTOGRAD, self)
    node = I0eBackward()
    if _connect_tensors(node, (self,)):
        node.s_self = _save(self)
        node.o_result = _save_output(result)
        _set_history(node, result, None)
    return result


KERNELS['i0e'] = autograd_i0e
NODES['i0e'] = I0eBackward


class I1Backward(_Node):
    __slots__ = ('s_self', 'o_result')
    op_name = 'i1'

    def apply(node, grads):
        grad = grads[0]
        needs = node.needs_input_grad
        self = _unpack(node, node.s_self)
        result = _unpack(node, node.o_result)
        g_self = None
        grad_input_mask = needs
        if needs[0]:
            g_self = grad * where(self == 0, 0.5, i0(self) - result / self)
        return (g_self,)


def autograd_i1(self):
    result = _op.i1.redispatch(_AUTOGRAD, self)
    node = I1Backward()
    if _connect_tensors(node, (self,)):
        node.s_self = _save(self)
        node.o_result = _save_output(result)
        _set_history(node, result, None)
    return result


KERNELS['i1'] = autograd_i1
NODES['i1'] = I1Backward


class I1eBackward(_Node):
    __slots__ = ('s_self', 'o_result')
    op_name = 'i1e'

    def apply(node, grads):
        grad = grads[0]
        needs = node.needs_input_grad
        self = _unpack(node, node.s_self)
        result = _unpack(node, node.o_result)
        g_self = None
        grad_input_mask = needs
        if needs[0]:
            g_self = grad * where(self == 0, 0.5, i0e(self) - result * (sign(self) + 1 / self))
        return (g_self,)


def autograd_i1e(self):
    result = _op.i1e.redispatch(_AUTOGRAD, self)
    node = I1eBackward()
    if _connect_tensors(node, (self,)):
        node.s_self = _save(self)
        node.o_result = _save_output(result)
        _set_history(node, result, None)
    return result


KERNELS['i1e'] = autograd_i1e
NODES['i1e'] = I1eBackward


class NdtrBackward(_Node):
    __slots__ = ('s_self',)
    op_name = 'ndtr'

    def apply(node, grads):
        grad = grads[0]
        needs = node.needs_input_grad
        self = _unpack(node, node.s_self)
        g_self = None
        grad_input_mask = needs
        if needs[0]:
            g_self = grad * exp(-0.5 * self * self) * 0.3989422804014327
        return (g_self,)


def autograd_ndtr(self):
    result = _op.ndtr.redispatch(_AUTOGRAD, self)
    node = NdtrBackward()
    if _connect_tensors(node, (self,)):
        node.s_self = _save(self)
        _set_history(node, result, None)
    return result


KERNELS['ndtr'] = autograd_ndtr
NODES['ndtr'] = NdtrBackward


class NdtriBackward(_Node):
    __slots__ = ('o_result',)
    op_name = 'ndtri'

    def apply(node, grads):
        grad = grads[0]
        needs = node.needs_input_grad
        result = _unpack(node, node.o_result)
        g_self = None
        grad_input_mask = needs
        if needs[0]:
            g_self = grad * 2.5066282746310002 * exp(0.5 * result * result)
        return (g_self,)


def autograd_ndtri(self):
    result = _op.ndtri.redispatch(_AUTOGRAD, self)
    node = NdtriBackward()
    if _connect_tensors(node, (self,)):
        node.o_result = _save_output(result)
        _set_history(node, result, None)
    return result


KERNELS['ndtri'] = autograd_ndtri
NODES['ndtri'] = NdtriBackward


class LogNdtrBackward(_Node):
    __slots__ = ('s_self', 'o_result')
    op_name = 'log_ndtr'

    def apply(node, grads):
        grad = grads[0]
        needs = node.needs_input_grad
        self = _unpack(node, node.s_self)
        result = _unpack(node, node.o_result)
        g_self = None
        grad_input_mask = needs
        if needs[0]:
            g_self = grad * exp(-0.5 * self * self - result) * 0.3989422804014327
        return (g_self,)


def autograd_log_ndtr(self):
    result = _op.log_ndtr.redispatch(_AUTOGRAD, self)
    node = LogNdtrBackward()
    if _connect_tensors(node, (self,)):
        node.s_self = _save(self)
        node.o_result = _save_output(result)
        _set_history(node, result, None)
    return result


KERNELS['log_ndtr'] = autograd_log_ndtr
NODES['log_ndtr'] = LogNdtrBackward


class ErfcxBackward(_Node):
    __slots__ = ('s_self', 'o_result')
    op_name = 'erfcx'

    def apply(node, grads):
        grad = grads[0]
        needs = node.needs_input_grad
        self = _unpack(node, node.s_self)
        result = _unpack(node, node.o_result)
        g_self = None
        grad_input_mask = needs
        if needs[0]:
            g_self = grad * (2 * self * result - 1.1283791670955126)
        return (g_self,)


def autograd_erfcx(self):
    result = _op.erfcx.redispatch(_AUTOGRAD, self)
    node = ErfcxBackward()
    if _connect_tensors(node, (self,)):
        node.s_self = _save(self)
        node.o_result = _save_output(result)
        _set_history(node, result, None)
    return result


KERNELS['erfcx'] = autograd_erfcx
NODES['erfcx'] = ErfcxBackward


class EntrBackward(_Node):
    __slots__ = ('s_self',)
    op_name = 'entr'

    def apply(node, grads):
        grad = grads[0]
        needs = node.needs_input_grad
        self = _unpack(node, node.s_self)
        g_self = None
        grad_input_mask = needs
        if needs[0]:
            g_self = -grad * (1 + log(self))
        return (g_self,)


def autograd_entr(self):
    result = _op.entr.redispatch(_AUTOGRAD, self)
    node = EntrBackward()
    if _connect_tensors(node, (self,)):
        node.s_self = _save(self)
        _set_history(node, result, None)
    return result


KERNELS['entr'] = autograd_entr
NODES['entr'] = EntrBackward


class Xlog1pyBackward(_Node):
    __slots__ = ('s_self', 's_other')
    op_name = 'xlog1py'

    def apply(node, grads):
        grad = grads[0]
        needs = node.needs_input_grad
        self = _unpack(node, node.s_self)
        other = _unpack(node, node.s_other)
        g_self = g_other = None
        grad_input_mask = needs
        if needs[0]:
            g_self = where((self == 0) & (other <= -1), 0, xlog1py(grad, other))
        if needs[1]:
            g_other = grad * self / (other + 1)
        return (g_self, g_other)


def autograd_xlog1py(self, other):
    result = _op.xlog1py.redispatch(_AUTOGRAD, self, other)
    node = Xlog1pyBackward()
    if _connect_tensors(node, (self, other)):
        node.s_self = _save(self)
        node.s_other = _save(other)
        _set_history(node, result, None)
    return result


KERNELS['xlog1py'] = autograd_xlog1py
NODES['xlog1py'] = Xlog1pyBackward


class FrexpBackward(_Node):
    __slots__ = ('o_exponent',)
    op_name = 'frexp'

    def apply(node, grads):
        grad = grads[0]
        needs = node.needs_input_grad
        exponent = _unpack(node, node.o_exponent)
        g_self = None
        grad_input_mask = needs
        if needs[0]:
            g_self = grad / exp2(exponent)
        return (g_self,)


def autograd_frexp(self):
    result = _op.frexp.redispatch(_AUTOGRAD, self)
    node = FrexpBackward()
    if _connect_tensors(node, (self,)):
        node.o_exponent = _save_output(result[1], 1)
        _set_history(node, result, (True, False))
    return result


KERNELS['frexp'] = autograd_frexp
NODES['frexp'] = FrexpBackward


class NextafterBackward(_Node):
    __slots__ = ('s_self', 's_other')
    op_name = 'nextafter'

    def apply(node, grads):
        grad = grads[0]
        needs = node.needs_input_grad
        self = _unpack(node, node.s_self) if needs[0] else None
        other = _unpack(node, node.s_other)
        g_self = g_other = None
        grad_input_mask = needs
        if needs[0]:
            g_self = where(self == other, 0, grad)
        if needs[1]:
            g_other = zeros_like(other)
        return (g_self, g_other)


def autograd_nextafter(self, other):
    result = _op.nextafter.redispatch(_AUTOGRAD, self, other)
    node = NextafterBackward()
    if _connect_tensors(node, (self, other)):
        needs = node.needs_input_grad
        if needs[0]:
            node.s_self = _save(self)
        node.s_other = _save(other)
        _set_history(node, result, None)
    return result


KERNELS['nextafter'] = autograd_nextafter
NODES['nextafter'] = NextafterBackward


class Logaddexp2Backward(_Node):
    __slots__ = ('s_self', 's_other')
    op_name = 'logaddexp2'

    def apply(node, grads):
        grad = grads[0]
        needs = node.needs_input_grad
        self = _unpack(node, node.s_self)
        other = _unpack(node, node.s_other)
        g_self = g_other = None
        grad_input_mask = needs
        if needs[0]:
            g_self = grad / (1 + exp2(other - self))
        if needs[1]:
            g_other = grad / (1 + exp2(self - other))
        return (g_self, g_other)


def autograd_logaddexp2(self, other):
    result = _op.logaddexp2.redispatch(_AUTOGRAD, self, other)
    node = Logaddexp2Backward()
    if _connect_tensors(node, (self, other)):
        node.s_self = _save(self)
        node.s_other = _save(other)
        _set_history(node, result, None)
    return result


KERNELS['logaddexp2'] = autograd_logaddexp2
NODES['logaddexp2'] = Logaddexp2Backward


class SumBackward(_Node):
    __slots__ = ('s_self', 's_dim', 's_keepdim')
    op_name = 'sum'

    def apply(node, grads):
        grad = grads[0]
        needs = node.needs_input_grad
        self = _unpack(node, node.s_self)
        dim = node.s_dim
        keepdim = node.s_keepdim
        g_self = None
        grad_input_mask = needs
        if needs[0]:
            g_self = expand_reduced(grad, self.shape, dim, keepdim)
        return (g_self,)


def autograd_sum(self, dim, keepdim, dtype):
    result = _op.sum.redispatch(_AUTOGRAD, self, dim, keepdim, dtype)
    node = SumBackward()
    if _connect_tensors(node, (self,)):
        node.s_self = _save_meta(self)
        node.s_dim = dim
        node.s_keepdim = keepdim
        _set_history(node, result, None)
    return result


KERNELS['sum'] = autograd_sum
NODES['sum'] = SumBackward


class NansumBackward(_Node):
    __slots__ = ('s_self', 's_dim', 's_keepdim')
    op_name = 'nansum'

    def apply(node, grads):
        grad = grads[0]
        needs = node.needs_input_grad
        self = _unpack(node, node.s_self)
        dim = node.s_dim
        keepdim = node.s_keepdim
        g_self = None
        grad_input_mask = needs
        if needs[0]:
            g_self = where(isnan(self), 0, expand_reduced(grad, self.shape, dim, keepdim))
        return (g_self,)


def autograd_nansum(self, dim, keepdim, dtype):
    result = _op.nansum.redispatch(_AUTOGRAD, self, dim, keepdim, dtype)
    node = NansumBackward()
    if _connect_tensors(node, (self,)):
        node.s_self = _save(self)
        node.s_dim = dim
        node.s_keepdim = keepdim
        _set_history(node, result, None)
    return result


KERNELS['nansum'] = autograd_nansum
NODES['nansum'] = NansumBackward


class MeanBackward(_Node):
    __slots__ = ('s_self', 's_dim', 's_keepdim')
    op_name = 'mean'

    def apply(node, grads):
        grad = grads[0]
        needs = node.needs_input_grad
        self = _unpack(node, node.s_self)
        dim = node.s_dim
        keepdim = node.s_keepdim
        g_self = None
        grad_input_mask = needs
        if needs[0]:
            g_self = mean_backward(grad, self.shape, dim, keepdim)
        return (g_self,)


def autograd_mean(self, dim, keepdim, dtype):
    result = _op.mean.redispatch(_AUTOGRAD, self, dim, keepdim, dtype)
    node = MeanBackward()
    if _connect_tensors(node, (self,)):
        node.s_self = _save_meta(self)
        node.s_dim = dim
        node.s_keepdim = keepdim
        _set_history(node, result, None)
    return result


KERNELS['mean'] = autograd_mean
NODES['mean'] = MeanBackward


class ProdBackward(_Node):
    __slots__ = ('s_self', 's_dim', 's_keepdim', 'o_result')
    op_name = 'prod'

    def apply(node, grads):
        grad = grads[0]
        needs = node.needs_input_grad
        self = _unpack(node, node.s_self)
        dim = node.s_dim
        keepdim = node.s_keepdim
        result = _unpack(node, node.o_result)
        g_self = None
        grad_input_mask = needs
        if needs[0]:
            g_self = prod_backward(grad, self, result, dim, keepdim)
        return (g_self,)


def autograd_prod(self, dim, keepdim, dtype):
    result = _op.prod.redispatch(_AUTOGRAD, self, dim, keepdim, dtype)
    node = ProdBackward()
    if _connect_tensors(node, (self,)):
        node.s_self = _save(self)
        node.s_dim = dim
        node.s_keepdim = keepdim
        node.o_result = _save_output(result)
        _set_history(node, result, None)
    return result


KERNELS['prod'] = autograd_prod
NODES['prod'] = ProdBackward


class MaxBackward(_Node):
    __slots__ = ('s_self', 'o_result')
    op_name = 'max'

    def apply(node, grads):
        grad = grads[0]
        needs = node.needs_input_grad
        self = _unpack(node, node.s_self)
        result = _unpack(node, node.o_result)
        g_self = None
        grad_input_mask = needs
        if needs[0]:
            g_self = minmax_all_backward(grad, self, result)
        return (g_self,)


def autograd_max(self):
    result = _op.max.redispatch(_AUTOGRAD, self)
    node = MaxBackward()
    if _connect_tensors(node, (self,)):
        node.s_self = _save(self)
        node.o_result = _save_output(result)
        _set_history(node, result, None)
    return result


KERNELS['max'] = autograd_max
NODES['max'] = MaxBackward


class MaxDimBackward(_Node):
    __slots__ = ('s_self', 's_dim', 's_keepdim', 'o_indices')
    op_name = 'max.dim'

    def apply(node, grads):
        grad = grads[0]
        needs = node.needs_input_grad
        self = _unpack(node, node.s_self)
        dim = node.s_dim
        keepdim = node.s_keepdim
        indices = _unpack(node, node.o_indices)
        g_self = None
        grad_input_mask = needs
        if needs[0]:
            g_self = minmax_dim_backward(grad, indices, self.shape, dim, keepdim)
        return (g_self,)


def autograd_max_dim(self, dim, keepdim):
    result = _op.max_dim.redispatch(_AUTOGRAD, self, dim, keepdim)
    node = MaxDimBackward()
    if _connect_tensors(node, (self,)):
        node.s_self = _save_meta(self)
        node.s_dim = dim
        node.s_keepdim = keepdim
        node.o_indices = _save_output(result[1], 1)
        _set_history(node, result, (True, False))
    return result


KERNELS['max.dim'] = autograd_max_dim
NODES['max.dim'] = MaxDimBackward


class MinBackward(_Node):
    __slots__ = ('s_self', 'o_result')
    op_name = 'min'

    def apply(node, grads):
        grad = grads[0]
        needs = node.needs_input_grad
        self = _unpack(node, node.s_self)
        result = _unpack(node, node.o_result)
        g_self = None
        grad_input_mask = needs
        if needs[0]:
            g_self = minmax_all_backward(grad, self, result)
        return (g_self,)


def autograd_min(self):
    result = _op.min.redispatch(_AUTOGRAD, self)
    node = MinBackward()
    if _connect_tensors(node, (self,)):
        node.s_self = _save(self)
        node.o_result = _save_output(result)
        _set_history(node, result, None)
    return result


KERNELS['min'] = autograd_min
NODES['min'] = MinBackward


class MinDimBackward(_Node):
    __slots__ = ('s_self', 's_dim', 's_keepdim', 'o_indices')
    op_name = 'min.dim'

    def apply(node, grads):
        grad = grads[0]
        needs = node.needs_input_grad
        self = _unpack(node, node.s_self)
        dim = node.s_dim
        keepdim = node.s_keepdim
        indices = _unpack(node, node.o_indices)
        g_self = None
        grad_input_mask = needs
        if needs[0]:
            g_self = minmax_dim_backward(grad, indices, self.shape, dim, keepdim)
        return (g_self,)


def autograd_min_dim(self, dim, keepdim):
    result = _op.min_dim.redispatch(_AUTOGRAD, self, dim, keepdim)
    node = MinDimBackward()
    if _connect_tensors(node, (self,)):
        node.s_self = _save_meta(self)
        node.s_dim = dim
        node.s_keepdim = keepdim
        node.o_indices = _save_output(result[1], 1)
        _set_history(node, result, (True, False))
    return result


KERNELS['min.dim'] = autograd_min_dim
NODES['min.dim'] = MinDimBackward


class AmaxBackward(_Node):
    __slots__ = ('s_self', 's_dim', 's_keepdim', 'o_result')
    op_name = 'amax'

    def apply(node, grads):
        grad = grads[0]
        needs = node.needs_input_grad
        self = _unpack(node, node.s_self)
        dim = node.s_dim
        keepdim = node.s_keepdim
        result = _unpack(node, node.o_result)
        g_self = None
        grad_input_mask = needs
        if needs[0]:
            g_self = amaxmin_backward(grad, self, result, dim, keepdim)
        return (g_self,)


def autograd_amax(self, dim, keepdim):
    result = _op.amax.redispatch(_AUTOGRAD, self, dim, keepdim)
    node = AmaxBackward()
    if _connect_tensors(node, (self,)):
        node.s_self = _save(self)
        node.s_dim = dim
        node.s_keepdim = keepdim
        node.o_result = _save_output(result)
        _set_history(node, result, None)
    return result


KERNELS['amax'] = autograd_amax
NODES['amax'] = AmaxBackward


class AminBackward(_Node):
    __slots__ = ('s_self', 's_dim', 's_keepdim', 'o_result')
    op_name = 'amin'

    def apply(node, grads):
        grad = grads[0]
        needs = node.needs_input_grad
        self = _unpack(node, node.s_self)
        dim = node.s_dim
        keepdim = node.s_keepdim
        result = _unpack(node, node.o_result)
        g_self = None
        grad_input_mask = needs
        if needs[0]:
            g_self = amaxmin_backward(grad, self, result, dim, keepdim)
        return (g_self,)


def autograd_amin(self, dim, keepdim):
    result = _op.amin.redispatch(_AUTOGRAD, self, dim, keepdim)
    node = AminBackward()
    if _connect_tensors(node, (self,)):
        node.s_self = _save(self)
        node.s_dim = dim
        node.s_keepdim = keepdim
        node.o_result = _save_output(result)
        _set_history(node, result, None)
    return result


KERNELS['amin'] = autograd_amin
NODES['amin'] = AminBackward


class VarCorrectionBackward(_Node):
    __slots__ = ('s_self', 's_dim', 's_correction', 's_keepdim')
    op_name = 'var.correction'

    def apply(node, grads):
        grad = grads[0]
        needs = node.needs_input_grad
        self = _unpack(node, node.s_self)
        dim = node.s_dim
        correction = node.s_correction
        keepdim = node.s_keepdim
        g_self = None
        grad_input_mask = needs
        if needs[0]:
            g_self = var_backward(grad, self, dim, correction, keepdim)
        return (g_self,)


def autograd_var_correction(self, dim, correction, keepdim):
    result = _op.var_correction.redispatch(_AUTOGRAD, self, dim, correction, keepdim)
    node = VarCorrectionBackward()
    if _connect_tensors(node, (self,)):
        node.s_self = _save(self)
        node.s_dim = dim
        node.s_correction = correction
        node.s_keepdim = keepdim
        _set_history(node, result, None)
    return result


KERNELS['var.correction'] = autograd_var_correction
NODES['var.correction'] = VarCorrectionBackward


class StdCorrectionBackward(_Node):
    __slots__ = ('s_self', 's_dim', 's_correction', 's_keepdim', 'o_result')
    op_name = 'std.correction'

    def apply(node, grads):
        grad = grads[0]
        needs = node.needs_input_grad
        self = _unpack(node, node.s_self)
        dim = node.s_dim
        correction = node.s_correction
        keepdim = node.s_keepdim
        result = _unpack(node, node.o_result)
        g_self = None
        grad_input_mask = needs
        if needs[0]:
            g_self = std_backward(grad, self, result, dim, correction, keepdim)
        return (g_self,)


def autograd_std_correction(self, dim, correction, keepdim):
    result = _op.std_correction.redispatch(_AUTOGRAD, self, dim, correction, keepdim)
    node = StdCorrectionBackward()
    if _connect_tensors(node, (self,)):
        node.s_self = _save(self)
        node.s_dim = dim
        node.s_correction = correction
        node.s_keepdim = keepdim
        node.o_result = _save_output(result)
        _set_history(node, result, None)
    return result


KERNELS['std.correction'] = autograd_std_correction
NODES['std.correction'] = StdCorrectionBackward


class VectorNormBackward(_Node):
    __slots__ = ('s_self', 's_ord', 's_dim', 's_keepdim', 'o_result')
    op_name = 'vector_norm'

    def apply(node, grads):
        grad = grads[0]
        needs = node.needs_input_grad
        self = _unpack(node, node.s_self)
        ord = node.s_ord
        dim = node.s_dim
        keepdim = node.s_keepdim
        result = _unpack(node, node.o_result)
        g_self = None
        grad_input_mask = needs
        if needs[0]:
            g_self = norm_backward(grad, self, ord, result, dim, keepdim)
        return (g_self,)


def autograd_vector_norm(self, ord, dim, keepdim, dtype):
    result = _op.vector_norm.redispatch(_AUTOGRAD, self, ord, dim, keepdim, dtype)
    node = VectorNormBackward()
    if _connect_tensors(node, (self,)):
        node.s_self = _save(self)
        node.s_ord = ord
        node.s_dim = dim
        node.s_keepdim = keepdim
        node.o_result = _save_output(result)
        _set_history(node, result, None)
    return result


KERNELS['vector_norm'] = autograd_vector_norm
NODES['vector_norm'] = VectorNormBackward


class LogsumexpBackward(_Node):
    __slots__ = ('s_self', 's_dim', 's_keepdim', 'o_result')
    op_name = 'logsumexp'

    def apply(node, grads):
        grad = grads[0]
        needs = node.needs_input_grad
        self = _unpack(node, node.s_self)
        dim = node.s_dim
        keepdim = node.s_keepdim
        result = _unpack(node, node.o_result)
        g_self = None
        grad_input_mask = needs
        if needs[0]:
            g_self = logsumexp_backward(grad, self, result, dim, keepdim)
        return (g_self,)


def autograd_logsumexp(self, dim, keepdim):
    result = _op.logsumexp.redispatch(_AUTOGRAD, self, dim, keepdim)
    node = LogsumexpBackward()
    if _connect_tensors(node, (self,)):
        node.s_self = _save(self)
        node.s_dim = dim
        node.s_keepdim = keepdim
        node.o_result = _save_output(result)
        _set_history(node, result, None)
    return result


KERNELS['logsumexp'] = autograd_logsumexp
NODES['logsumexp'] = LogsumexpBackward


class CumsumBackward(_Node):
    __slots__ = ('s_dim',)
    op_name = 'cumsum'

    def apply(node, grads):
        grad = grads[0]
        needs = node.needs_input_grad
        dim = node.s_dim
        g_self = None
        grad_input_mask = needs
        if needs[0]:
            g_self = _cumsum_backward(grad, dim)
        return (g_self,)


def autograd_cumsum(self, dim, dtype):
    result = _op.cumsum.redispatch(_AUTOGRAD, self, dim, dtype)
    node = CumsumBackward()
    if _connect_tensors(node, (self,)):
        node.s_dim = dim
        _set_history(node, result, None)
    return result


KERNELS['cumsum'] = autograd_cumsum
NODES['cumsum'] = CumsumBackward


class CumsumBackwardBackward(_Node):
    __slots__ = ('s_dim',)
    op_name = '_cumsum_backward'

    def apply(node, grads):
        grad = grads[0]
        needs = node.needs_input_grad
        dim = node.s_dim
        g_grad_output = None
        grad_input_mask = needs
        if needs[0]:
            g_grad_output = cumsum(grad, dim)
        return (g_grad_output,)


def autograd__cumsum_backward(grad_output, dim):
    result = _op._cumsum_backward.redispatch(_AUTOGRAD, grad_output, dim)
    node = CumsumBackwardBackward()
    if _connect_tensors(node, (grad_output,)):
        node.s_dim = dim
        _set_history(node, result, None)
    return result


KERNELS['_cumsum_backward'] = autograd__cumsum_backward
NODES['_cumsum_backward'] = CumsumBackwardBackward


class CumprodBackward(_Node):
    __slots__ = ('s_self', 's_dim', 'o_result')
    op_name = 'cumprod'

    def apply(node, grads):
        grad = grads[0]
        needs = node.needs_input_grad
        self = _unpack(node, node.s_self)
        dim = node.s_dim
        result = _unpack(node, node.o_result)
        g_self = None
        grad_input_mask = needs
        if needs[0]:
            g_self = cumprod_backward(grad, self, dim, result)
        return (g_self,)


def autograd_cumprod(self, dim, dtype):
    result = _op.cumprod.redispatch(_AUTOGRAD, self, dim, dtype)
    node = CumprodBackward()
    if _connect_tensors(node, (self,)):
        node.s_self = _save(self)
        node.s_dim = dim
        node.o_result = _save_output(result)
        _set_history(node, result, None)
    return result


KERNELS['cumprod'] = autograd_cumprod
NODES['cumprod'] = CumprodBackward


class MedianBackward(_Node):
    __slots__ = ('s_self', 'o_result')
    op_name = 'median'

    def apply(node, grads):
        grad = grads[0]
        needs = node.needs_input_grad
        self = _unpack(node, node.s_self)
        result = _unpack(node, node.o_result)
        g_self = None
        grad_input_mask = needs
        if needs[0]:
            g_self = median_backward(grad, self, result)
        return (g_self,)


def autograd_median(self):
    result = _op.median.redispatch(_AUTOGRAD, self)
    node = MedianBackward()
    if _connect_tensors(node, (self,)):
        node.s_self = _save(self)
        node.o_result = _save_output(result)
        _set_history(node, result, None)
    return result


KERNELS['median'] = autograd_median
NODES['median'] = MedianBackward


class MedianDimBackward(_Node):
    __slots__ = ('s_self', 's_dim', 's_keepdim', 'o_indices')
    op_name = 'median.dim'

    def apply(node, grads):
        grad = grads[0]
        needs = node.needs_input_grad
        self = _unpack(node, node.s_self)
        dim = node.s_dim
        keepdim = node.s_keepdim
        indices = _unpack(node, node.o_indices)
        g_self = None
        grad_input_mask = needs
        if needs[0]:
            g_self = minmax_dim_backward(grad, indices, self.shape, dim, keepdim)
        return (g_self,)


def autograd_median_dim(self, dim, keepdim):
    result = _op.median_dim.redispatch(_AUTOGRAD, self, dim, keepdim)
    node = MedianDimBackward()
    if _connect_tensors(node, (self,)):
        node.s_self = _save_meta(self)
        node.s_dim = dim
        node.s_keepdim = keepdim
        node.o_indices = _save_output(result[1], 1)
        _set_history(node, result, (True, False))
    return result


KERNELS['median.dim'] = autograd_median_dim
NODES['median.dim'] = MedianDimBackward


class CummaxBackward(_Node):
    __slots__ = ('s_self', 's_dim', 'o_indices')
    op_name = 'cummax'

    def apply(node, grads):
        grad = grads[0]
        needs = node.needs_input_grad
        self = _unpack(node, node.s_self)
        dim = node.s_dim
        indices = _unpack(node, node.o_indices)
        g_self = None
        grad_input_mask = needs
        if needs[0]:
            g_self = zeros_like(self).scatter_add(dim, indices, grad) if self.dim() else grad
        return (g_self,)


def autograd_cummax(self, dim):
    result = _op.cummax.redispatch(_AUTOGRAD, self, dim)
    node = CummaxBackward()
    if _connect_tensors(node, (self,)):
        node.s_self = _save(self)
        node.s_dim = dim
        node.o_indices = _save_output(result[1], 1)
        _set_history(node, result, (True, False))
    return result


KERNELS['cummax'] = autograd_cummax
NODES['cummax'] = CummaxBackward


class CumminBackward(_Node):
    __slots__ = ('s_self', 's_dim', 'o_indices')
    op_name = 'cummin'

    def apply(node, grads):
        grad = grads[0]
        needs = node.needs_input_grad
        self = _unpack(node, node.s_self)
        dim = node.s_dim
        indices = _unpack(node, node.o_indices)
        g_self = None
        grad_input_mask = needs
        if needs[0]:
            g_self = zeros_like(self).scatter_add(dim, indices, grad) if self.dim() else grad
        return (g_self,)


def autograd_cummin(self, dim):
    result = _op.cummin.redispatch(_AUTOGRAD, self, dim)
    node = CumminBackward()
    if _connect_tensors(node, (self,)):
        node.s_self = _save(self)
        node.s_dim = dim
        node.o_indices = _save_output(result[1], 1)
        _set_history(node, result, (True, False))
    return result


KERNELS['cummin'] = autograd_cummin
NODES['cummin'] = CumminBackward


class NanmedianBackward(_Node):
    __slots__ = ('s_self', 'o_result')
    op_name = 'nanmedian'

    def apply(node, grads):
        grad = grads[0]
        needs = node.needs_input_grad
        self = _unpack(node, node.s_self)
        result = _unpack(node, node.o_result)
        g_self = None
        grad_input_mask = needs
        if needs[0]:
            g_self = median_backward(grad, self, result)
        return (g_self,)


def autograd_nanmedian(self):
    result = _op.nanmedian.redispatch(_AUTOGRAD, self)
    node = NanmedianBackward()
    if _connect_tensors(node, (self,)):
        node.s_self = _save(self)
        node.o_result = _save_output(result)
        _set_history(node, result, None)
    return result


KERNELS['nanmedian'] = autograd_nanmedian
NODES['nanmedian'] = NanmedianBackward


class NanmedianDimBackward(_Node):
    __slots__ = ('s_self', 's_dim', 's_keepdim', 'o_indices')
    op_name = 'nanmedian.dim'

    def apply(node, grads):
        grad = grads[0]
        needs = node.needs_input_grad
        self = _unpack(node, node.s_self)
        dim = node.s_dim
        keepdim = node.s_keepdim
        indices = _unpack(node, node.o_indices)
        g_self = None
        grad_input_mask = needs
        if needs[0]:
            g_self = minmax_dim_backward(grad, indices, self.shape, dim, keepdim)
        return (g_self,)


def autograd_nanmedian_dim(self, dim, keepdim):
    result = _op.nanmedian_dim.redispatch(_AUTOGRAD, self, dim, keepdim)
    node = NanmedianDimBackward()
    if _connect_tensors(node, (self,)):
        node.s_self = _save_meta(self)
        node.s_dim = dim
        node.s_keepdim = keepdim
        node.o_indices = _save_output(result[1], 1)
        _set_history(node, result, (True, False))
    return result


KERNELS['nanmedian.dim'] = autograd_nanmedian_dim
NODES['nanmedian.dim'] = NanmedianDimBackward


class KthvalueBackward(_Node):
    __slots__ = ('s_self', 's_dim', 's_keepdim', 'o_indices')
    op_name = 'kthvalue'

    def apply(node, grads):
        grad = grads[0]
        needs = node.needs_input_grad
        self = _unpack(node, node.s_self)
        dim = node.s_dim
        keepdim = node.s_keepdim
        indices = _unpack(node, node.o_indices)
        g_self = None
        grad_input_mask = needs
        if needs[0]:
            g_self = minmax_dim_backward(grad, indices, self.shape, dim, keepdim)
        return (g_self,)


def autograd_kthvalue(self, k, dim, keepdim):
    result = _op.kthvalue.redispatch(_AUTOGRAD, self, k, dim, keepdim)
    node = KthvalueBackward()
    if _connect_tensors(node, (self,)):
        node.s_self = _save_meta(self)
        node.s_dim = dim
        node.s_keepdim = keepdim
        node.o_indices = _save_output(result[1], 1)
        _set_history(node, result, (True, False))
    return result


KERNELS['kthvalue'] = autograd_kthvalue
NODES['kthvalue'] = KthvalueBackward


class ModeBackward(_Node):
    __slots__ = ('s_self', 's_dim', 's_keepdim', 'o_indices')
    op_name = 'mode'

    def apply(node, grads):
        grad = grads[0]
        needs = node.needs_input_grad
        self = _unpack(node, node.s_self)
        dim = node.s_dim
        keepdim = node.s_keepdim
        indices = _unpack(node, node.o_indices)
        g_self = None
        grad_input_mask = needs
        if needs[0]:
            g_self = minmax_dim_backward(grad, indices, self.shape, dim, keepdim)
        return (g_self,)


def autograd_mode(self, dim, keepdim):
    result = _op.mode.redispatch(_AUTOGRAD, self, dim, keepdim)
    node = ModeBackward()
    if _connect_tensors(node, (self,)):
        node.s_self = _save_meta(self)
        node.s_dim = dim
        node.s_keepdim = keepdim
        node.o_indices = _save_output(result[1], 1)
        _set_history(node, result, (True, False))
    return result


KERNELS['mode'] = autograd_mode
NODES['mode'] = ModeBackward


class MatmulBackward(_Node):
    __slots__ = ('s_self', 's_other')
    op_name = 'matmul'

    def apply(node, grads):
        grad = grads[0]
        needs = node.needs_input_grad
        self = _unpack(node, node.s_self)
        other = _unpack(node, node.s_other)
        g_self = g_other = None
        grad_input_mask = needs
        if needs[0] or needs[1]:
            g_self, g_other, = matmul_backward(grad, self, other, grad_input_mask)
        return (g_self, g_other)


def autograd_matmul(self, other):
    result = _op.matmul.redispatch(_AUTOGRAD, self, other)
    node = MatmulBackward()
    if _connect_tensors(node, (self, other)):
        node.s_self = _save(self)
        node.s_other = _save(other)
        _set_history(node, result, None)
    return result


KERNELS['matmul'] = autograd_matmul
NODES['matmul'] = MatmulBackward


class MmBackward(_Node):
    __slots__ = ('s_self', 's_mat2')
    op_name = 'mm'

    def apply(node, grads):
        grad = grads[0]
        needs = node.needs_input_grad
        self = _unpack(node, node.s_self) if needs[1] else None
        mat2 = _unpack(node, node.s_mat2) if needs[0] else None
        g_self = g_mat2 = None
        grad_input_mask = needs
        if needs[0]:
            g_self = grad.mm(mat2.t())
        if needs[1]:
            g_mat2 = self.t().mm(grad)
        return (g_self, g_mat2)


def autograd_mm(self, mat2):
    result = _op.mm.redispatch(_AUTOGRAD, self, mat2)
    node = MmBackward()
    if _connect_tensors(node, (self, mat2)):
        needs = node.needs_input_grad
        if needs[1]:
            node.s_self = _save(self)
        if needs[0]:
            node.s_mat2 = _save(mat2)
        _set_history(node, result, None)
    return result


KERNELS['mm'] = autograd_mm
NODES['mm'] = MmBackward


class BmmBackward(_Node):
    __slots__ = ('s_self', 's_mat2')
    op_name = 'bmm'

    def apply(node, grads):
        grad = grads[0]
        needs = node.needs_input_grad
        self = _unpack(node, node.s_self) if needs[1] else None
        mat2 = _unpack(node, node.s_mat2) if needs[0] else None
        g_self = g_mat2 = None
        grad_input_mask = needs
        if needs[0]:
            g_self = grad.bmm(mat2.transpose(1, 2))
        if needs[1]:
            g_mat2 = self.transpose(1, 2).bmm(grad)
        return (g_self, g_mat2)


def autograd_bmm(self, mat2):
    result = _op.bmm.redispatch(_AUTOGRAD, self, mat2)
    node = BmmBackward()
    if _connect_tensors(node, (self, mat2)):
        needs = node.needs_input_grad
        if needs[1]:
            node.s_self = _save(self)
        if needs[0]:
            node.s_mat2 = _save(mat2)
        _set_history(node, result, None)
    return result


KERNELS['bmm'] = autograd_bmm
NODES['bmm'] = BmmBackward


class AddmmBackward(_Node):
    __slots__ = ('s_mat1', 's_mat2', 's_beta', 's_alpha')
    op_name = 'addmm'

    def apply(node, grads):
        grad = grads[0]
        needs = node.needs_input_grad
        mat1 = _unpack(node, node.s_mat1) if needs[2] else None
        mat2 = _unpack(node, node.s_mat2) if needs[1] else None
        beta = node.s_beta
        alpha = node.s_alpha
        g_self = g_mat1 = g_mat2 = None
        grad_input_mask = needs
        if needs[0]:
            g_self = maybe_multiply(grad, beta)
        if needs[1]:
            g_mat1 = maybe_multiply(grad.mm(mat2.t()), alpha)
        if needs[2]:
            g_mat2 = maybe_multiply(mat1.t().mm(grad), alpha)
        return (g_self, g_mat1, g_mat2)


def autograd_addmm(self, mat1, mat2, beta, alpha):
    result = _op.addmm.redispatch(_AUTOGRAD, self, mat1, mat2, beta, alpha)
    node = AddmmBackward()
    if _connect_tensors(node, (self, mat1, mat2)):
        needs = node.needs_input_grad
        if needs[2]:
            node.s_mat1 = _save(mat1)
        if needs[1]:
            node.s_mat2 = _save(mat2)
        node.s_beta = beta
        node.s_alpha = alpha
        _set_history(node, result, None)
    return result


KERNELS['addmm'] = autograd_addmm
NODES['addmm'] = AddmmBackward


class EinsumBackward(_Node):
    __slots__ = ('s_equation', 's_tensors')
    op_name = 'einsum'

    def apply(node, grads):
        grad = grads[0]
        needs = node.needs_input_grad
        equation = node.s_equation
        tensors = _unpack_list(node, node.s_tensors)
        g_tensors = None
        grad_input_mask = needs
        if needs[0]:
            g_tensors = einsum_backward(grad, equation, tensors, grad_input_mask)
        return (g_tensors,)


def autograd_einsum(equation, tensors):
    result = _op.einsum.redispatch(_AUTOGRAD, equation, tensors)
    node = EinsumBackward()
    if _connect(node, (tensors,)):
        node.s_equation = equation
        node.s_tensors = _save_list(tensors)
        _set_history(node, result, None)
    return result


KERNELS['einsum'] = autograd_einsum
NODES['einsum'] = EinsumBackward


class TraceBackward(_Node):
    __slots__ = ('s_self',)
    op_name = 'trace'

    def apply(node, grads):
        grad = grads[0]
        needs = node.needs_input_grad
        self = _unpack(node, node.s_self)
        g_self = None
        grad_input_mask = needs
        if needs[0]:
            g_self = diagonal_backward(grad.expand([sorted(self.shape)[0]]), self.shape, 0, 0, 1)
        return (g_self,)


def autograd_trace(self):
    result = _op.trace.redispatch(_AUTOGRAD, self)
    node = TraceBackward()
    if _connect_tensors(node, (self,)):
        node.s_self = _save_meta(self)
        _set_history(node, result, None)
    return result


KERNELS['trace'] = autograd_trace
NODES['trace'] = TraceBackward


class LinalgInvExBackward(_Node):
    __slots__ = ('o_inverse',)
    op_name = 'linalg_inv_ex'

    def apply(node, grads):
        grad = grads[0]
        needs = node.needs_input_grad
        inverse = _unpack(node, node.o_inverse)
        g_A = None
        grad_input_mask = needs
        if needs[0]:
            g_A = inv_backward(grad, inverse)
        return (g_A,)


def autograd_linalg_inv_ex(A, check_errors):
    result = _op.linalg_inv_ex.redispatch(_AUTOGRAD, A, check_errors)
    node = LinalgInvExBackward()
    if _connect_tensors(node, (A,)):
        node.o_inverse = _save_output(result[0], 0)
        _set_history(node, result, (True, False))
    return result


KERNELS['linalg_inv_ex'] = autograd_linalg_inv_ex
NODES['linalg_inv_ex'] = LinalgInvExBackward


class LinalgSolveExBackward(_Node):
    __slots__ = ('s_A', 's_B', 's_left', 'o_result', 'o_result')
    op_name = 'linalg_solve_ex'

    def apply(node, grads):
        grad = grads[0]
        needs = node.needs_input_grad
        A = _unpack(node, node.s_A)
        B = _unpack(node, node.s_B)
        left = node.s_left
        result = _unpack(node, node.o_result)
        result = _unpack_list(node, node.o_result)
        g_A = g_B = None
        grad_input_mask = needs
        if needs[0] or needs[1]:
            g_A, g_B, = solve_backward(grad, A, B, result[0], left, grad_input_mask)
        return (g_A, g_B)


def autograd_linalg_solve_ex(A, B, left, check_errors):
    result = _op.linalg_solve_ex.redispatch(_AUTOGRAD, A, B, left, check_errors)
    node = LinalgSolveExBackward()
    if _connect_tensors(node, (A, B)):
        node.s_A = _save(A)
        node.s_B = _save(B)
        node.s_left = left
        node.o_result = _save_output(result[0], 0)
        node.o_result = _save_output_list(result)
        _set_history(node, result, (True, False))
    return result


KERNELS['linalg_solve_ex'] = autograd_linalg_solve_ex
NODES['linalg_solve_ex'] = LinalgSolveExBackward


class LinalgDetBackward(_Node):
    __slots__ = ('s_A', 'o_result')
    op_name = 'linalg_det'

    def apply(node, grads):
        grad = grads[0]
        needs = node.needs_input_grad
        A = _unpack(node, node.s_A)
        result = _unpack(node, node.o_result)
        g_A = None
        grad_input_mask = needs
        if needs[0]:
            g_A = det_backward(grad, A, result)
        return (g_A,)


def autograd_linalg_det(A):
    result = _op.linalg_det.redispatch(_AUTOGRAD, A)
    node = LinalgDetBackward()
    if _connect_tensors(node, (A,)):
        node.s_A = _save(A)
        node.o_result = _save_output(result)
        _set_history(node, result, None)
    return result


KERNELS['linalg_det'] = autograd_linalg_det
NODES['linalg_det'] = LinalgDetBackward


class LinalgSlogdetBackward(_Node):
    __slots__ = ('s_A',)
    op_name = 'linalg_slogdet'

    def apply(node, grads):
        grad = grads[0]
        needs = node.needs_input_grad
        A = _unpack(node, node.s_A)
        g_A = None
        grad_input_mask = needs
        if needs[0]:
            g_A = slogdet_backward(grads[1], A)
        return (g_A,)


def autograd_linalg_slogdet(A):
    result = _op.linalg_slogdet.redispatch(_AUTOGRAD, A)
    node = LinalgSlogdetBackward()
    if _connect_tensors(node, (A,)):
        node.s_A = _save(A)
        _set_history(node, result, None)
    return result


KERNELS['linalg_slogdet'] = autograd_linalg_slogdet
NODES['linalg_slogdet'] = LinalgSlogdetBackward


class LinalgCholeskyExBackward(_Node):
    __slots__ = ('s_upper', 'o_L')
    op_name = 'linalg_cholesky_ex'

    def apply(node, grads):
        grad = grads[0]
        needs = node.needs_input_grad
        upper = node.s_upper
        L = _unpack(node, node.o_L)
        g_A = None
        grad_input_mask = needs
        if needs[0]:
            g_A = cholesky_backward(grad, L, upper)
        return (g_A,)


def autograd_linalg_cholesky_ex(A, upper, check_errors):
    result = _op.linalg_cholesky_ex.redispatch(_AUTOGRAD, A, upper, check_errors)
    node = LinalgCholeskyExBackward()
    if _connect_tensors(node, (A,)):
        node.s_upper = upper
        node.o_L = _save_output(result[0], 0)
        _set_history(node, result, (True, False))
    return result


KERNELS['linalg_cholesky_ex'] = autograd_linalg_cholesky_ex
NODES['linalg_cholesky_ex'] = LinalgCholeskyExBackward


class CholeskySolveBackward(_Node):
    __slots__ = ('s_self', 's_input2', 's_upper', 'o_result')
    op_name = 'cholesky_solve'

    def apply(node, grads):
        grad = grads[0]
        needs = node.needs_input_grad
        self = _unpack(node, node.s_self)
        input2 = _unpack(node, node.s_input2)
        upper = node.s_upper
        result = _unpack(node, node.o_result)
        g_self = g_input2 = None
        grad_input_mask = needs
        if needs[0] or needs[1]:
            g_self, g_input2, = cholesky_solve_backward(grad, self, input2, result, upper, grad_input_mask)
        return (g_self, g_input2)


def autograd_cholesky_solve(self, input2, upper):
    result = _op.cholesky_solve.redispatch(_AUTOGRAD, self, input2, upper)
    node = CholeskySolveBackward()
    if _connect_tensors(node, (self, input2)):
        node.s_self = _save(self)
        node.s_input2 = _save(input2)
        node.s_upper = upper
        node.o_result = _save_output(result)
        _set_history(node, result, None)
    return result


KERNELS['cholesky_solve'] = autograd_cholesky_solve
NODES['cholesky_solve'] = CholeskySolveBackward


class CholeskyInverseBackward(_Node):
    __slots__ = ('s_self', 's_upper', 'o_result')
    op_name = 'cholesky_inverse'

    def apply(node, grads):
        grad = grads[0]
        needs = node.needs_input_grad
        self = _unpack(node, node.s_self)
        upper = node.s_upper
        result = _unpack(node, node.o_result)
        g_self = None
        grad_input_mask = needs
        if needs[0]:
            g_self = cholesky_inverse_backward(grad, self, upper, result)
        return (g_self,)


def autograd_cholesky_inverse(self, upper):
    result = _op.cholesky_inverse.redispatch(_AUTOGRAD, self, upper)
    node = CholeskyInverseBackward()
    if _connect_tensors(node, (self,)):
        node.s_self = _save(self)
        node.s_upper = upper
        node.o_result = _save_output(result)
        _set_history(node, result, None)
    return result


KERNELS['cholesky_inverse'] = autograd_cholesky_inverse
NODES['cholesky_inverse'] = CholeskyInverseBackward


class LinalgQrBackward(_Node):
    __slots__ = ('s_mode', 'o_Q', 'o_R')
    op_name = 'linalg_qr'

    def apply(node, grads):
        grad = grads[0]
        needs = node.needs_input_grad
        mode = node.s_mode
        Q = _unpack(node, node.o_Q)
        R = _unpack(node, node.o_R)
        g_A = None
        grad_input_mask = needs
        if needs[0]:
            g_A = qr_backward(grads[0], grads[1], Q, R, mode)
        return (g_A,)


def autograd_linalg_qr(A, mode):
    result = _op.linalg_qr.redispatch(_AUTOGRAD, A, mode)
    node = LinalgQrBackward()
    if _connect_tensors(node, (A,)):
        node.s_mode = mode
        node.o_Q = _save_output(result[0], 0)
        node.o_R = _save_output(result[1], 1)
        _set_history(node, result, None)
    return result


KERNELS['linalg_qr'] = autograd_linalg_qr
NODES['linalg_qr'] = LinalgQrBackward


class LinalgSvdBackward(_Node):
    __slots__ = ('s_full_matrices', 'o_U', 'o_S', 'o_Vh')
    op_name = '_linalg_svd'

    def apply(node, grads):
        grad = grads[0]
        needs = node.needs_input_grad
        full_matrices = node.s_full_matrices
        U = _unpack(node, node.o_U)
        S = _unpack(node, node.o_S)
        Vh = _unpack(node, node.o_Vh)
        g_A = None
        grad_input_mask = needs
        if needs[0]:
            g_A = svd_backward(grads[0], grads[1], grads[2], U, S, Vh, full_matrices)
        return (g_A,)


def autograd__linalg_svd(A, full_matrices, compute_uv):
    result = _op._linalg_svd.redispatch(_AUTOGRAD, A, full_matrices, compute_uv)
    node = LinalgSvdBackward()
    if _connect_tensors(node, (A,)):
        node.s_full_matrices = full_matrices
        node.o_U = _save_output(result[0], 0)
        node.o_S = _save_output(result[1], 1)
        node.o_Vh = _save_output(result[2], 2)
        _set_history(node, result, None)
    return result


KERNELS['_linalg_svd'] = autograd__linalg_svd
NODES['_linalg_svd'] = LinalgSvdBackward


class LinalgEighBackward(_Node):
    __slots__ = ('o_eigenvalues', 'o_eigenvectors')
    op_name = '_linalg_eigh'

    def apply(node, grads):
        grad = grads[0]
        needs = node.needs_input_grad
        eigenvalues = _unpack(node, node.o_eigenvalues)
        eigenvectors = _unpack(node, node.o_eigenvectors)
        g_A = None
        grad_input_mask = needs
        if needs[0]:
            g_A = eigh_backward(grads[0], grads[1], eigenvalues, eigenvectors)
        return (g_A,)


def autograd__linalg_eigh(A, UPLO, compute_v):
    result = _op._linalg_eigh.redispatch(_AUTOGRAD, A, UPLO, compute_v)
    node = LinalgEighBackward()
    if _connect_tensors(node, (A,)):
        node.o_eigenvalues = _save_output(result[0], 0)
        node.o_eigenvectors = _save_output(result[1], 1)
        _set_history(node, result, None)
    return result


KERNELS['_linalg_eigh'] = autograd__linalg_eigh
NODES['_linalg_eigh'] = LinalgEighBackward


class LinalgSolveTriangularBackward(_Node):
    __slots__ = ('s_A', 's_B', 's_upper', 's_left', 's_unitriangular', 'o_result')
    op_name = 'linalg_solve_triangular'

    def apply(node, grads):
        grad = grads[0]
        needs = node.needs_input_grad
        A = _unpack(node, node.s_A)
        B = _unpack(node, node.s_B)
        upper = node.s_upper
        left = node.s_left
        unitriangular = node.s_unitriangular
        result = _unpack(node, node.o_result)
        g_A = g_B = None
        grad_input_mask = needs
        if needs[0] or needs[1]:
            g_A, g_B, = solve_triangular_backward(grad, A, B.shape, result, upper, left, unitriangular, grad_input_mask)
        return (g_A, g_B)


def autograd_linalg_solve_triangular(A, B, upper, left, unitriangular):
    result = _op.linalg_solve_triangular.redispatch(_AUTOGRAD, A, B, upper, left, unitriangular)
    node = LinalgSolveTriangularBackward()
    if _connect_tensors(node, (A, B)):
        node.s_A = _save(A)
        node.s_B = _save_meta(B)
        node.s_upper = upper
        node.s_left = left
        node.s_unitriangular = unitriangular
        node.o_result = _save_output(result)
        _set_history(node, result, None)
    return result


KERNELS['linalg_solve_triangular'] = autograd_linalg_solve_triangular
NODES['linalg_solve_triangular'] = LinalgSolveTriangularBackward


class LinalgLuFactorExBackward(_Node):
    __slots__ = ('o_LU', 'o_pivots')
    op_name = 'linalg_lu_factor_ex'

    def apply(node, grads):
        grad = grads[0]
        needs = node.needs_input_grad
        LU = _unpack(node, node.o_LU)
        pivots = _unpack(node, node.o_pivots)
        g_A = None
        grad_input_mask = needs
        if needs[0]:
            g_A = lu_factor_backward(grad, LU, pivots)
        return (g_A,)


def autograd_linalg_lu_factor_ex(A, pivot, check_errors):
    result = _op.linalg_lu_factor_ex.redispatch(_AUTOGRAD, A, pivot, check_errors)
    node = LinalgLuFactorExBackward()
    if _connect_tensors(node, (A,)):
        node.o_LU = _save_output(result[0], 0)
        node.o_pivots = _save_output(result[1], 1)
        _set_history(node, result, (True, False, False))
    return result


KERNELS['linalg_lu_factor_ex'] = autograd_linalg_lu_factor_ex
NODES['linalg_lu_factor_ex'] = LinalgLuFactorExBackward


class LinalgPinvAtolRtolTensorBackward(_Node):
    __slots__ = ('s_A', 'o_result')
    op_name = 'linalg_pinv.atol_rtol_tensor'

    def apply(node, grads):
        grad = grads[0]
        needs = node.needs_input_grad
        A = _unpack(node, node.s_A) if needs[0] else None
        result = _unpack(node, node.o_result) if needs[0] else None
        g_A = g_atol = g_rtol = None
        grad_input_mask = needs
        if needs[0]:
            g_A = pinv_backward(grad, result, A)
        return (g_A, g_atol, g_rtol)


def autograd_linalg_pinv_atol_rtol_tensor(A, atol, rtol, hermitian):
    result = _op.linalg_pinv_atol_rtol_tensor.redispatch(_AUTOGRAD, A, atol, rtol, hermitian)
    node = LinalgPinvAtolRtolTensorBackward()
    if _connect_tensors(node, (A, atol, rtol)):
        needs = node.needs_input_grad
        if needs[0]:
            node.s_A = _save(A)
        if needs[0]:
            node.o_result = _save_output(result)
        _set_history(node, result, None)
    return result


KERNELS['linalg_pinv.atol_rtol_tensor'] = autograd_linalg_pinv_atol_rtol_tensor
NODES['linalg_pinv.atol_rtol_tensor'] = LinalgPinvAtolRtolTensorBackward


class LinalgPinvAtolRtolFloatBackward(_Node):
    __slots__ = ('s_A', 'o_result')
    op_name = 'linalg_pinv.atol_rtol_float'

    def apply(node, grads):
        grad = grads[0]
        needs = node.needs_input_grad
        A = _unpack(node, node.s_A)
        result = _unpack(node, node.o_result)
        g_A = None
        grad_input_mask = needs
        if needs[0]:
            g_A = pinv_backward(grad, result, A)
        return (g_A,)


def autograd_linalg_pinv_atol_rtol_float(A, atol, rtol, hermitian):
    result = _op.linalg_pinv_atol_rtol_float.redispatch(_AUTOGRAD, A, atol, rtol, hermitian)
    node = LinalgPinvAtolRtolFloatBackward()
    if _connect_tensors(node, (A,)):
        node.s_A = _save(A)
        node.o_result = _save_output(result)
        _set_history(node, result, None)
    return result


KERNELS['linalg_pinv.atol_rtol_float'] = autograd_linalg_pinv_atol_rtol_float
NODES['linalg_pinv.atol_rtol_float'] = LinalgPinvAtolRtolFloatBackward


class LinalgPinvBackward(_Node):
    __slots__ = ('s_A', 'o_result')
    op_name = 'linalg_pinv'

    def apply(node, grads):
        grad = grads[0]
        needs = node.needs_input_grad
        A = _unpack(node, node.s_A)
        result = _unpack(node, node.o_result)
        g_A = None
        grad_input_mask = needs
        if needs[0]:
            g_A = pinv_backward(grad, result, A)
        return (g_A,)


def autograd_linalg_pinv(A, rcond, hermitian):
    result = _op.linalg_pinv.redispatch(_AUTOGRAD, A, rcond, hermitian)
    node = LinalgPinvBackward()
    if _connect_tensors(node, (A,)):
        node.s_A = _save(A)
        node.o_result = _save_output(result)
        _set_history(node, result, None)
    return result


KERNELS['linalg_pinv'] = autograd_linalg_pinv
NODES['linalg_pinv'] = LinalgPinvBackward


class LinalgPinvRcondTensorBackward(_Node):
    __slots__ = ('s_A', 'o_result')
    op_name = 'linalg_pinv.rcond_tensor'

    def apply(node, grads):
        grad = grads[0]
        needs = node.needs_input_grad
        A = _unpack(node, node.s_A) if needs[0] else None
        result = _unpack(node, node.o_result) if needs[0] else None
        g_A = g_rcond = None
        grad_input_mask = needs
        if needs[0]:
            g_A = pinv_backward(grad, result, A)
        return (g_A, g_rcond)


def autograd_linalg_pinv_rcond_tensor(A, rcond, hermitian):
    result = _op.linalg_pinv_rcond_tensor.redispatch(_AUTOGRAD, A, rcond, hermitian)
    node = LinalgPinvRcondTensorBackward()
    if _connect_tensors(node, (A, rcond)):
        needs = node.needs_input_grad
        if needs[0]:
            node.s_A = _save(A)
        if needs[0]:
            node.o_result = _save_output(result)
        _set_history(node, result, None)
    return result


KERNELS['linalg_pinv.rcond_tensor'] = autograd_linalg_pinv_rcond_tensor
NODES['linalg_pinv.rcond_tensor'] = LinalgPinvRcondTensorBackward


class ViewBackward(_Node):
    __slots__ = ('s_self',)
    op_name = 'view'

    def apply(node, grads):
        grad = grads[0]
        needs = node.needs_input_grad
        self = _unpack(node, node.s_self)
        g_self = None
        grad_input_mask = needs
        if needs[0]:
            g_self = grad.reshape(self.shape)
        return (g_self,)


def autograd_view(self, size):
    result = _op.view.redispatch(_AUTOGRAD, self, size)
    node = ViewBackward()
    if _connect_tensors(node, (self,)):
        node.s_self = _save_meta(self)
        _set_history(node, result, None)
    return result


KERNELS['view'] = autograd_view
NODES['view'] = ViewBackward


class AsStridedBackward(_Node):
    __slots__ = ('s_self', 's_size', 's_stride', 's_storage_offset')
    op_name = 'as_strided'

    def apply(node, grads):
        grad = grads[0]
        needs = node.needs_input_grad
        self = _unpack(node, node.s_self)
        size = node.s_size
        stride = node.s_stride
        storage_offset = node.s_storage_offset
        g_self = None
        grad_input_mask = needs
        if needs[0]:
            g_self = as_strided_backward(grad, self, size, stride, storage_offset)
        return (g_self,)


def autograd_as_strided(self, size, stride, storage_offset):
    result = _op.as_strided.redispatch(_AUTOGRAD, self, size, stride, storage_offset)
    node = AsStridedBackward()
    if _connect_tensors(node, (self,)):
        node.s_self = _save(self)
        node.s_size = size
        node.s_stride = stride
        node.s_storage_offset = storage_offset
        _set_history(node, result, None)
    return result


KERNELS['as_strided'] = autograd_as_strided
NODES['as_strided'] = AsStridedBackward


class PermuteBackward(_Node):
    __slots__ = ('s_dims',)
    op_name = 'permute'

    def apply(node, grads):
        grad = grads[0]
        needs = node.needs_input_grad
        dims = node.s_dims
        g_self = None
        grad_input_mask = needs
        if needs[0]:
            g_self = permute_backward(grad, dims)
        return (g_self,)


def autograd_permute(self, dims):
    result = _op.permute.redispatch(_AUTOGRAD, self, dims)
    node = PermuteBackward()
    if _connect_tensors(node, (self,)):
        node.s_dims = dims
        _set_history(node, result, None)
    return result


KERNELS['permute'] = autograd_permute
NODES['permute'] = PermuteBackward


class TransposeBackward(_Node):
    __slots__ = ('s_dim0', 's_dim1')
    op_name = 'transpose'

    def apply(node, grads):
        grad = grads[0]
        needs = node.needs_input_grad
        dim0 = node.s_dim0
        dim1 = node.s_dim1
        g_self = None
        grad_input_mask = needs
        if needs[0]:
            g_self = grad.transpose(dim0, dim1)
        return (g_self,)


def autograd_transpose(self, dim0, dim1):
    result = _op.transpose.redispatch(_AUTOGRAD, self, dim0, dim1)
    node = TransposeBackward()
    if _connect_tensors(node, (self,)):
        node.s_dim0 = dim0
        node.s_dim1 = dim1
        _set_history(node, result, None)
    return result


KERNELS['transpose'] = autograd_transpose
NODES['transpose'] = TransposeBackward


class TBackward(_Node):
    __slots__ = ()
    op_name = 't'

    def apply(node, grads):
        grad = grads[0]
        needs = node.needs_input_grad
        g_self = None
        grad_input_mask = needs
        if needs[0]:
            g_self = grad.t()
        return (g_self,)


def autograd_t(self):
    result = _op.t.redispatch(_AUTOGRAD, self)
    node = TBackward()
    if _connect_tensors(node, (self,)):
        _set_history(node, result, None)
    return result


KERNELS['t'] = autograd_t
NODES['t'] = TBackward


class SqueezeBackward(_Node):
    __slots__ = ('s_self',)
    op_name = 'squeeze'

    def apply(node, grads):
        grad = grads[0]
        needs = node.needs_input_grad
        self = _unpack(node, node.s_self)
        g_self = None
        grad_input_mask = needs
        if needs[0]:
            g_self = grad.reshape(self.shape)
        return (g_self,)


def autograd_squeeze(self, dim):
    result = _op.squeeze.redispatch(_AUTOGRAD, self, dim)
    node = SqueezeBackward()
    if _connect_tensors(node, (self,)):
        node.s_self = _save_meta(self)
        _set_history(node, result, None)
    return result


KERNELS['squeeze'] = autograd_squeeze
NODES['squeeze'] = SqueezeBackward


class UnsqueezeBackward(_Node):
    __slots__ = ('s_dim',)
    op_name = 'unsqueeze'

    def apply(node, grads):
        grad = grads[0]
        needs = node.needs_input_grad
        dim = node.s_dim
        g_self = None
        grad_input_mask = needs
        if needs[0]:
            g_self = grad.squeeze(dim)
        return (g_self,)


def autograd_unsqueeze(self, dim):
    result = _op.unsqueeze.redispatch(_AUTOGRAD, self, dim)
    node = UnsqueezeBackward()
    if _connect_tensors(node, (self,)):
        node.s_dim = dim
        _set_history(node, result, None)
    return result


KERNELS['unsqueeze'] = autograd_unsqueeze
NODES['unsqueeze'] = UnsqueezeBackward


class ExpandBackward(_Node):
    __slots__ = ('s_self',)
    op_name = 'expand'

    def apply(node, grads):
        grad = grads[0]
        needs = node.needs_input_grad
        self = _unpack(node, node.s_self)
        g_self = None
        grad_input_mask = needs
        if needs[0]:
            g_self = sum_to(grad, self.shape)
        return (g_self,)


def autograd_expand(self, size):
    result = _op.expand.redispatch(_AUTOGRAD, self, size)
    node = ExpandBackward()
    if _connect_tensors(node, (self,)):
        node.s_self = _save_meta(self)
        _set_history(node, result, None)
    return result


KERNELS['expand'] = autograd_expand
NODES['expand'] = ExpandBackward


class SliceBackward(_Node):
    __slots__ = ('s_self', 's_dim', 's_start', 's_end', 's_step')
    op_name = 'slice'

    def apply(node, grads):
        grad = grads[0]
        needs = node.needs_input_grad
        self = _unpack(node, node.s_self)
        dim = node.s_dim
        start = node.s_start
        end = node.s_end
        step = node.s_step
        g_self = None
        grad_input_mask = needs
        if needs[0]:
            g_self = slice_backward(grad, self.shape, dim, start, end, step)
        return (g_self,)


def autograd_slice(self, dim, start, end, step):
    result = _op.slice.redispatch(_AUTOGRAD, self, dim, start, end, step)
    node = SliceBackward()
    if _connect_tensors(node, (self,)):
        node.s_self = _save_meta(self)
        node.s_dim = dim
        node.s_start = start
        node.s_end = end
        node.s_step = step
        _set_history(node, result, None)
    return result


KERNELS['slice'] = autograd_slice
NODES['slice'] = SliceBackward


class SliceBackwardBackward(_Node):
    __slots__ = ('s_dim', 's_start', 's_end', 's_step')
    op_name = 'slice_backward'

    def apply(node, grads):
        grad = grads[0]
        needs = node.needs_input_grad
        dim = node.s_dim
        start = node.s_start
        end = node.s_end
        step = node.s_step
        g_grad_output = None
        grad_input_mask = needs
        if needs[0]:
            g_grad_output = slice(grad, dim, start, end, step)
        return (g_grad_output,)


def autograd_slice_backward(grad_output, input_sizes, dim, start, end, step):
    result = _op.slice_backward.redispatch(_AUTOGRAD, grad_output, input_sizes, dim, start, end, step)
    node = SliceBackwardBackward()
    if _connect_tensors(node, (grad_output,)):
        node.s_dim = dim
        node.s_start = start
        node.s_end = end
        node.s_step = step
        _set_history(node, result, None)
    return result


KERNELS['slice_backward'] = autograd_slice_backward
NODES['slice_backward'] = SliceBackwardBackward


class SelectBackward(_Node):
    __slots__ = ('s_self', 's_dim', 's_index')
    op_name = 'select'

    def apply(node, grads):
        grad = grads[0]
        needs = node.needs_input_grad
        self = _unpack(node, node.s_self)
        dim = node.s_dim
        index = node.s_index
        g_self = None
        grad_input_mask = needs
        if needs[0]:
            g_self = select_backward(grad, self.shape, dim, index)
        return (g_self,)


def autograd_select(self, dim, index):
    result = _op.select.redispatch(_AUTOGRAD, self, dim, index)
    node = SelectBackward()
    if _connect_tensors(node, (self,)):
        node.s_self = _save_meta(self)
        node.s_dim = dim
        node.s_index = index
        _set_history(node, result, None)
    return result


KERNELS['select'] = autograd_select
NODES['select'] = SelectBackward


class SelectBackwardBackward(_Node):
    __slots__ = ('s_dim', 's_index')
    op_name = 'select_backward'

    def apply(node, grads):
        grad = grads[0]
        needs = node.needs_input_grad
        dim = node.s_dim
        index = node.s_index
        g_grad_output = None
        grad_input_mask = needs
        if needs[0]:
            g_grad_output = select(grad, dim, index)
        return (g_grad_output,)


def autograd_select_backward(grad_output, input_sizes, dim, index):
    result = _op.select_backward.redispatch(_AUTOGRAD, grad_output, input_sizes, dim, index)
    node = SelectBackwardBackward()
    if _connect_tensors(node, (grad_output,)):
        node.s_dim = dim
        node.s_index = index
        _set_history(node, result, None)
    return result


KERNELS['select_backward'] = autograd_select_backward
NODES['select_backward'] = SelectBackwardBackward


class UnfoldBackward(_Node):
    __slots__ = ('s_self', 's_dimension', 's_size', 's_step')
    op_name = 'unfold'

    def apply(node, grads):
        grad = grads[0]
        needs = node.needs_input_grad
        self = _unpack(node, node.s_self)
        dimension = node.s_dimension
        size = node.s_size
        step = node.s_step
        g_self = None
        grad_input_mask = needs
        if needs[0]:
            g_self = unfold_backward(grad, self.shape, dimension, size, step)
        return (g_self,)


def autograd_unfold(self, dimension, size, step):
    result = _op.unfold.redispatch(_AUTOGRAD, self, dimension, size, step)
    node = UnfoldBackward()
    if _connect_tensors(node, (self,)):
        node.s_self = _save_meta(self)
        node.s_dimension = dimension
        node.s_size = size
        node.s_step = step
        _set_history(node, result, None)
    return result


KERNELS['unfold'] = autograd_unfold
NODES['unfold'] = UnfoldBackward


class UnfoldBackwardBackward(_Node):
    __slots__ = ('s_dim', 's_size', 's_step')
    op_name = 'unfold_backward'

    def apply(node, grads):
        grad = grads[0]
        needs = node.needs_input_grad
        dim = node.s_dim
        size = node.s_size
        step = node.s_step
        g_grad_output = None
        grad_input_mask = needs
        if needs[0]:
            g_grad_output = grad.unfold(dim, size, step)
        return (g_grad_output,)


def autograd_unfold_backward(grad_output, input_sizes, dim, size, step):
    result = _op.unfold_backward.redispatch(_AUTOGRAD, grad_output, input_sizes, dim, size, step)
    node = UnfoldBackwardBackward()
    if _connect_tensors(node, (grad_output,)):
        node.s_dim = dim
        node.s_size = size
        node.s_step = step
        _set_history(node, result, None)
    return result


KERNELS['unfold_backward'] = autograd_unfold_backward
NODES['unfold_backward'] = UnfoldBackwardBackward


class DiagonalBackward(_Node):
    __slots__ = ('s_self', 's_offset', 's_dim1', 's_dim2')
    op_name = 'diagonal'

    def apply(node, grads):
        grad = grads[0]
        needs = node.needs_input_grad
        self = _unpack(node, node.s_self)
        offset = node.s_offset
        dim1 = node.s_dim1
        dim2 = node.s_dim2
        g_self = None
        grad_input_mask = needs
        if needs[0]:
            g_self = diagonal_backward(grad, self.shape, offset, dim1, dim2)
        return (g_self,)


def autograd_diagonal(self, offset, dim1, dim2):
    result = _op.diagonal.redispatch(_AUTOGRAD, self, offset, dim1, dim2)
    node = DiagonalBackward()
    if _connect_tensors(node, (self,)):
        node.s_self = _save_meta(self)
        node.s_offset = offset
        node.s_dim1 = dim1
        node.s_dim2 = dim2
        _set_history(node, result, None)
    return result


KERNELS['diagonal'] = autograd_diagonal
NODES['diagonal'] = DiagonalBackward


class DiagonalBackwardBackward(_Node):
    __slots__ = ('s_offset', 's_dim1', 's_dim2')
    op_name = 'diagonal_backward'

    def apply(node, grads):
        grad = grads[0]
        needs = node.needs_input_grad
        offset = node.s_offset
        dim1 = node.s_dim1
        dim2 = node.s_dim2
        g_grad_output = None
        grad_input_mask = needs
        if needs[0]:
            g_grad_output = grad.diagonal(offset, dim1, dim2)
        return (g_grad_output,)


def autograd_diagonal_backward(grad_output, input_sizes, offset, dim1, dim2):
    result = _op.diagonal_backward.redispatch(_AUTOGRAD, grad_output, input_sizes, offset, dim1, dim2)
    node = DiagonalBackwardBackward()
    if _connect_tensors(node, (grad_output,)):
        node.s_offset = offset
        node.s_dim1 = dim1
        node.s_dim2 = dim2
        _set_history(node, result, None)
    return result


KERNELS['diagonal_backward'] = autograd_diagonal_backward
NODES['diagonal_backward'] = DiagonalBackwardBackward


class AsStridedScatterBackward(_Node):
    __slots__ = ('s_src', 's_size', 's_stride', 's_storage_offset')
    op_name = 'as_strided_scatter'

    def apply(node, grads):
        grad = grads[0]
        needs = node.needs_input_grad
        src = _unpack(node, node.s_src) if needs[0] else None
        size = node.s_size
        stride = node.s_stride
        storage_offset = node.s_storage_offset
        g_self = g_src = None
        grad_input_mask = needs
        if needs[0]:
            g_self = as_strided_scatter(grad, zeros_like(src), size, stride, storage_offset)
        if needs[1]:
            g_src = grad.as_strided(size, stride, storage_offset)
        return (g_self, g_src)


def autograd_as_strided_scatter(self, src, size, stride, storage_offset):
    result = _op.as_strided_scatter.redispatch(_AUTOGRAD, self, src, size, stride, storage_offset)
    node = AsStridedScatterBackward()
    if _connect_tensors(node, (self, src)):
        needs = node.needs_input_grad
        if needs[0]:
            node.s_src = _save(src)
        node.s_size = size
        node.s_stride = stride
        node.s_storage_offset = storage_offset
        _set_history(node, result, None)
    return result


KERNELS['as_strided_scatter'] = autograd_as_strided_scatter
NODES['as_strided_scatter'] = AsStridedScatterBackward


class UnbindBackward(_Node):
    __slots__ = ('s_dim',)
    op_name = 'unbind'

    def apply(node, grads):
        grad = grads[0]
        needs = node.needs_input_grad
        dim = node.s_dim
        g_self = None
        grad_input_mask = needs
        if needs[0]:
            g_self = unbind_backward(grads, dim)
        return (g_self,)


def autograd_unbind(self, dim):
    result = _op.unbind.redispatch(_AUTOGRAD, self, dim)
    node = UnbindBackward()
    if _connect_tensors(node, (self,)):
        node.s_dim = dim
        _set_history(node, result, None)
    return result


KERNELS['unbind'] = autograd_unbind
NODES['unbind'] = UnbindBackward


class AliasBackward(_Node):
    __slots__ = ()
    op_name = 'alias'

    def apply(node, grads):
        grad = grads[0]
        needs = node.needs_input_grad
        g_self = None
        grad_input_mask = needs
        if needs[0]:
            g_self = grad
        return (g_self,)


def autograd_alias(self):
    result = _op.alias.redispatch(_AUTOGRAD, self)
    node = AliasBackward()
    if _connect_tensors(node, (self,)):
        _set_history(node, result, None)
    return result


KERNELS['alias'] = autograd_alias
NODES['alias'] = AliasBackward


class ReshapeBackward(_Node):
    __slots__ = ('s_self',)
    op_name = 'reshape'

    def apply(node, grads):
        grad = grads[0]
        needs = node.needs_input_grad
        self = _unpack(node, node.s_self)
        g_self = None
        grad_input_mask = needs
        if needs[0]:
            g_self = grad.reshape(self.shape)
        return (g_self,)


def autograd_reshape(self, shape):
    result = _op.reshape.redispatch(_AUTOGRAD, self, shape)
    node = ReshapeBackward()
    if _connect_tensors(node, (self,)):
        node.s_self = _save_meta(self)
        _set_history(node, result, None)
    return result


KERNELS['reshape'] = autograd_reshape
NODES['reshape'] = ReshapeBackward


class CloneBackward(_Node):
    __slots__ = ()
    op_name = 'clone'

    def apply(node, grads):
        grad = grads[0]
        needs = node.needs_input_grad
        g_self = None
        grad_input_mask = needs
        if needs[0]:
            g_self = grad
        return (g_self,)


def autograd_clone(self, memory_format):
    result = _op.clone.redispatch(_AUTOGRAD, self, memory_format)
    node = CloneBackward()
    if _connect_tensors(node, (self,)):
        _set_history(node, result, None)
    return result


KERNELS['clone'] = autograd_clone
NODES['clone'] = CloneBackward


class CopyBackward(_Node):
    __slots__ = ('s_src',)
    op_name = 'copy_'

    def apply(node, grads):
        grad = grads[0]
        needs = node.needs_input_grad
        src = _unpack(node, node.s_src) if needs[1] else None
        g_self = g_src = None
        grad_input_mask = needs
        if needs[0]:
            g_self = zeros_like(grad)
        if needs[1]:
            g_src = copy_backward(grad, src.shape, src.dtype, src.device)
        return (g_self, g_src)


def autograd_copy_(self, src, non_blocking):
    _check_inplace(self)
    result = _op.copy_.redispatch(_AUTOGRAD, self, src, non_blocking)
    node = CopyBackward()
    if _connect_tensors(node, (self, src)):
        needs = node.needs_input_grad
        if needs[1]:
            node.s_src = _save_meta(src)
        _set_history(node, result, None, True)
    return result


KERNELS['copy_'] = autograd_copy_
NODES['copy_'] = CopyBackward


class FillTensorBackward(_Node):
    __slots__ = ()
    op_name = 'fill_.Tensor'

    def apply(node, grads):
        grad = grads[0]
        needs = node.needs_input_grad
        g_self = g_value = None
        grad_input_mask = needs
        if needs[0]:
            g_self = zeros_like(grad)
        if needs[1]:
            g_value = grad.sum()
        return (g_self, g_value)


def autograd_fill__Tensor(self, value):
    _check_inplace(self)
    result = _op.fill__Tensor.redispatch(_AUTOGRAD, self, value)
    node = FillTensorBackward()
    if _connect_tensors(node, (self, value)):
        _set_history(node, result, None, True)
    return result


KERNELS['fill_.Tensor'] = autograd_fill__Tensor
NODES['fill_.Tensor'] = FillTensorBackward


class FillBackward(_Node):
    __slots__ = ()
    op_name = 'fill_'

    def apply(node, grads):
        grad = grads[0]
        needs = node.needs_input_grad
        g_self = None
        grad_input_mask = needs
        if needs[0]:
            g_self = zeros_like(grad)
        return (g_self,)


def autograd_fill_(self, value):
    _check_inplace(self)
    result = _op.fill_.redispatch(_AUTOGRAD, self, value)
    node = FillBackward()
    if _connect_tensors(node, (self,)):
        _set_history(node, result, None, True)
    return result


KERNELS['fill_'] = autograd_fill_
NODES['fill_'] = FillBackward


class ToCopyBackward(_Node):
    __slots__ = ('s_self',)
    op_name = '_to_copy'

    def apply(node, grads):
        grad = grads[0]
        needs = node.needs_input_grad
        self = _unpack(node, node.s_self)
        g_self = None
        grad_input_mask = needs
        if needs[0]:
            g_self = to_copy_backward(grad, self.dtype, self.device)
        return (g_self,)


def autograd__to_copy(self, dtype, device):
    result = _op._to_copy.redispatch(_AUTOGRAD, self, dtype, device)
    node = ToCopyBackward()
    if _connect_tensors(node, (self,)):
        node.s_self = _save_meta(self)
        _set_history(node, result, None)
    return result


KERNELS['_to_copy'] = autograd__to_copy
NODES['_to_copy'] = ToCopyBackward


class CatBackward(_Node):
    __slots__ = ('s_tensors', 's_dim')
    op_name = 'cat'

    def apply(node, grads):
        grad = grads[0]
        needs = node.needs_input_grad
        tensors = _unpack_list(node, node.s_tensors)
        dim = node.s_dim
        g_tensors = None
        grad_input_mask = needs
        if needs[0]:
            g_tensors = cat_backward(grad, dim, tensors)
        return (g_tensors,)


def autograd_cat(tensors, dim):
    result = _op.cat.redispatch(_AUTOGRAD, tensors, dim)
    node = CatBackward()
    if _connect(node, (tensors,)):
        node.s_tensors = _save_list(tensors)
        node.s_dim = dim
        _set_history(node, result, None)
    return result


KERNELS['cat'] = autograd_cat
NODES['cat'] = CatBackward


class StackBackward(_Node):
    __slots__ = ('s_dim',)
    op_name = 'stack'

    def apply(node, grads):
        grad = grads[0]
        needs = node.needs_input_grad
        dim = node.s_dim
        g_tensors = None
        grad_input_mask = needs
        if needs[0]:
            g_tensors = stack_backward(grad, dim)
        return (g_tensors,)


def autograd_stack(tensors, dim):
    result = _op.stack.redispatch(_AUTOGRAD, tensors, dim)
    node = StackBackward()
    if _connect(node, (tensors,)):
        node.s_dim = dim
        _set_history(node, result, None)
    return result


KERNELS['stack'] = autograd_stack
NODES['stack'] = StackBackward


class FlipBackward(_Node):
    __slots__ = ('s_dims',)
    op_name = 'flip'

    def apply(node, grads):
        grad = grads[0]
        needs = node.needs_input_grad
        dims = node.s_dims
        g_self = None
        grad_input_mask = needs
        if needs[0]:
            g_self = grad.flip(dims)
        return (g_self,)


def autograd_flip(self, dims):
    result = _op.flip.redispatch(_AUTOGRAD, self, dims)
    node = FlipBackward()
    if _connect_tensors(node, (self,)):
        node.s_dims = dims
        _set_history(node, result, None)
    return result


KERNELS['flip'] = autograd_flip
NODES['flip'] = FlipBackward


class RollBackward(_Node):
    __slots__ = ('s_shifts', 's_dims')
    op_name = 'roll'

    def apply(node, grads):
        grad = grads[0]
        needs = node.needs_input_grad
        shifts = node.s_shifts
        dims = node.s_dims
        g_self = None
        grad_input_mask = needs
        if needs[0]:
            g_self = roll_backward(grad, shifts, dims)
        return (g_self,)


def autograd_roll(self, shifts, dims):
    result = _op.roll.redispatch(_AUTOGRAD, self, shifts, dims)
    node = RollBackward()
    if _connect_tensors(node, (self,)):
        node.s_shifts = shifts
        node.s_dims = dims
        _set_history(node, result, None)
    return result


KERNELS['roll'] = autograd_roll
NODES['roll'] = RollBackward


class RepeatBackward(_Node):
    __slots__ = ('s_self', 's_repeats')
    op_name = 'repeat'

    def apply(node, grads):
        grad = grads[0]
        needs = node.needs_input_grad
        self = _unpack(node, node.s_self)
        repeats = node.s_repeats
        g_self = None
        grad_input_mask = needs
        if needs[0]:
            g_self = repeat_backward(grad, self.shape, repeats)
        return (g_self,)


def autograd_repeat(self, repeats):
    result = _op.repeat.redispatch(_AUTOGRAD, self, repeats)
    node = RepeatBackward()
    if _connect_tensors(node, (self,)):
        node.s_self = _save_meta(self)
        node.s_repeats = repeats
        _set_history(node, result, None)
    return result


KERNELS['repeat'] = autograd_repeat
NODES['repeat'] = RepeatBackward


class TrilBackward(_Node):
    __slots__ = ('s_diagonal',)
    op_name = 'tril'

    def apply(node, grads):
        grad = grads[0]
        needs = node.needs_input_grad
        diagonal = node.s_diagonal
        g_self = None
        grad_input_mask = needs
        if needs[0]:
            g_self = grad.tril(diagonal)
        return (g_self,)


def autograd_tril(self, diagonal):
    result = _op.tril.redispatch(_AUTOGRAD, self, diagonal)
    node = TrilBackward()
    if _connect_tensors(node, (self,)):
        node.s_diagonal = diagonal
        _set_history(node, result, None)
    return result


KERNELS['tril'] = autograd_tril
NODES['tril'] = TrilBackward


class TriuBackward(_Node):
    __slots__ = ('s_diagonal',)
    op_name = 'triu'

    def apply(node, grads):
        grad = grads[0]
        needs = node.needs_input_grad
        diagonal = node.s_diagonal
        g_self = None
        grad_input_mask = needs
        if needs[0]:
            g_self = grad.triu(diagonal)
        return (g_self,)


def autograd_triu(self, diagonal):
    result = _op.triu.redispatch(_AUTOGRAD, self, diagonal)
    node = TriuBackward()
    if _connect_tensors(node, (self,)):
        node.s_diagonal = diagonal
        _set_history(node, result, None)
    return result


KERNELS['triu'] = autograd_triu
NODES['triu'] = TriuBackward


class DiagBackward(_Node):
    __slots__ = ('s_self', 's_diagonal')
    op_name = 'diag'

    def apply(node, grads):
        grad = grads[0]
        needs = node.needs_input_grad
        self = _unpack(node, node.s_self)
        diagonal = node.s_diagonal
        g_self = None
        grad_input_mask = needs
        if needs[0]:
            g_self = diag_backward(grad, self.shape, diagonal)
        return (g_self,)


def autograd_diag(self, diagonal):
    result = _op.diag.redispatch(_AUTOGRAD, self, diagonal)
    node = DiagBackward()
    if _connect_tensors(node, (self,)):
        node.s_self = _save_meta(self)
        node.s_diagonal = diagonal
        _set_history(node, result, None)
    return result


KERNELS['diag'] = autograd_diag
NODES['diag'] = DiagBackward


class DiagEmbedBackward(_Node):
    __slots__ = ('s_offset', 's_dim1', 's_dim2')
    op_name = 'diag_embed'

    def apply(node, grads):
        grad = grads[0]
        needs = node.needs_input_grad
        offset = node.s_offset
        dim1 = node.s_dim1
        dim2 = node.s_dim2
        g_self = None
        grad_input_mask = needs
        if needs[0]:
            g_self = grad.diagonal(offset, dim1, dim2)
        return (g_self,)


def autograd_diag_embed(self, offset, dim1, dim2):
    result = _op.diag_embed.redispatch(_AUTOGRAD, self, offset, dim1, dim2)
    node = DiagEmbedBackward()
    if _connect_tensors(node, (self,)):
        node.s_offset = offset
        node.s_dim1 = dim1
        node.s_dim2 = dim2
        _set_history(node, result, None)
    return result


KERNELS['diag_embed'] = autograd_diag_embed
NODES['diag_embed'] = DiagEmbedBackward


class PadBackward(_Node):
    __slots__ = ('s_self', 's_pad', 's_mode')
    op_name = 'pad'

    def apply(node, grads):
        grad = grads[0]
        needs = node.needs_input_grad
        self = _unpack(node, node.s_self)
        pad = node.s_pad
        mode = node.s_mode
        g_self = None
        grad_input_mask = needs
        if needs[0]:
            g_self = pad_backward(grad, self.shape, pad, mode)
        return (g_self,)


def autograd_pad(self, pad, mode, value):
    result = _op.pad.redispatch(_AUTOGRAD, self, pad, mode, value)
    node = PadBackward()
    if _connect_tensors(node, (self,)):
        node.s_self = _save_meta(self)
        node.s_pad = pad
        node.s_mode = mode
        _set_history(node, result, None)
    return result


KERNELS['pad'] = autograd_pad
NODES['pad'] = PadBackward


class PadBackwardBackward(_Node):
    __slots__ = ('s_padding', 's_mode')
    op_name = 'pad_backward'

    def apply(node, grads):
        grad = grads[0]
        needs = node.needs_input_grad
        padding = node.s_padding
        mode = node.s_mode
        g_grad_output = None
        grad_input_mask = needs
        if needs[0]:
            g_grad_output = pad(grad, padding, mode)
        return (g_grad_output,)


def autograd_pad_backward(grad_output, input_sizes, padding, mode):
    result = _op.pad_backward.redispatch(_AUTOGRAD, grad_output, input_sizes, padding, mode)
    node = PadBackwardBackward()
    if _connect_tensors(node, (grad_output,)):
        node.s_padding = padding
        node.s_mode = mode
        _set_history(node, result, None)
    return result


KERNELS['pad_backward'] = autograd_pad_backward
NODES['pad_backward'] = PadBackwardBackward


class SplitWithSizesBackward(_Node):
    __slots__ = ('s_dim',)
    op_name = 'split_with_sizes'

    def apply(node, grads):
        grad = grads[0]
        needs = node.needs_input_grad
        dim = node.s_dim
        g_self = None
        grad_input_mask = needs
        if needs[0]:
            g_self = split_backward(grads, dim)
        return (g_self,)


def autograd_split_with_sizes(self, split_sizes, dim):
    result = _op.split_with_sizes.redispatch(_AUTOGRAD, self, split_sizes, dim)
    node = SplitWithSizesBackward()
    if _connect_tensors(node, (self,)):
        node.s_dim = dim
        _set_history(node, result, None)
    return result


KERNELS['split_with_sizes'] = autograd_split_with_sizes
NODES['split_with_sizes'] = SplitWithSizesBackward


class SortBackward(_Node):
    __slots__ = ('s_self', 's_dim', 'o_indices')
    op_name = 'sort'

    def apply(node, grads):
        grad = grads[0]
        needs = node.needs_input_grad
        self = _unpack(node, node.s_self)
        dim = node.s_dim
        indices = _unpack(node, node.o_indices)
        g_self = None
        grad_input_mask = needs
        if needs[0]:
            g_self = sort_backward(grad, indices, self.shape, dim)
        return (g_self,)


def autograd_sort(self, dim, descending):
    result = _op.sort.redispatch(_AUTOGRAD, self, dim, descending)
    node = SortBackward()
    if _connect_tensors(node, (self,)):
        node.s_self = _save_meta(self)
        node.s_dim = dim
        node.o_indices = _save_output(result[1], 1)
        _set_history(node, result, (True, False))
    return result


KERNELS['sort'] = autograd_sort
NODES['sort'] = SortBackward


class TopkBackward(_Node):
    __slots__ = ('s_self', 's_dim', 'o_indices')
    op_name = 'topk'

    def apply(node, grads):
        grad = grads[0]
        needs = node.needs_input_grad
        self = _unpack(node, node.s_self)
        dim = node.s_dim
        indices = _unpack(node, node.o_indices)
        g_self = None
        grad_input_mask = needs
        if needs[0]:
            g_self = sort_backward(grad, indices, self.shape, dim)
        return (g_self,)


def autograd_topk(self, k, dim, largest, sorted):
    result = _op.topk.redispatch(_AUTOGRAD, self, k, dim, largest, sorted)
    node = TopkBackward()
    if _connect_tensors(node, (self,)):
        node.s_self = _save_meta(self)
        node.s_dim = dim
        node.o_indices = _save_output(result[1], 1)
        _set_history(node, result, (True, False))
    return result


KERNELS['topk'] = autograd_topk
NODES['topk'] = TopkBackward


class GatherBackward(_Node):
    __slots__ = ('s_self', 's_dim', 's_index')
    op_name = 'gather'

    def apply(node, grads):
        grad = grads[0]
        needs = node.needs_input_grad
        self = _unpack(node, node.s_self) if needs[0] else None
        dim = node.s_dim
        index = _unpack(node, node.s_index) if needs[0] else None
        g_self = g_index = None
        grad_input_mask = needs
        if needs[0]:
            g_self = gather_backward(grad, self.shape, dim, index)
        return (g_self, g_index)


def autograd_gather(self, dim, index, sparse_grad):
    result = _op.gather.redispatch(_AUTOGRAD, self, dim, index, sparse_grad)
    node = GatherBackward()
    if _connect_tensors(node, (self, index)):
        needs = node.needs_input_grad
        if needs[0]:
            node.s_self = _save_meta(self)
        node.s_dim = dim
        if needs[0]:
            node.s_index = _save(index)
        _set_history(node, result, None)
    return result


KERNELS['gather'] = autograd_gather
NODES['gather'] = GatherBackward


class GatherBackwardBackward(_Node):
    __slots__ = ('s_dim', 's_index')
    op_name = 'gather_backward'

    def apply(node, grads):
        grad = grads[0]
        needs = node.needs_input_grad
        dim = node.s_dim
        index = _unpack(node, node.s_index) if needs[0] else None
        g_grad_output = g_index = None
        grad_input_mask = needs
        if needs[0]:
            g_grad_output = grad.gather(dim, index)
        return (g_grad_output, g_index)


def autograd_gather_backward(grad_output, self_sizes, dim, index):
    result = _op.gather_backward.redispatch(_AUTOGRAD, grad_output, self_sizes, dim, index)
    node = GatherBackwardBackward()
    if _connect_tensors(node, (grad_output, index)):
        needs = node.needs_input_grad
        node.s_dim = dim
        if needs[0]:
            node.s_index = _save(index)
        _set_history(node, result, None)
    return result


KERNELS['gather_backward'] = autograd_gather_backward
NODES['gather_backward'] = GatherBackwardBackward


class ScatterSrcBackward(_Node):
    __slots__ = ('s_dim', 's_index')
    op_name = 'scatter.src'

    def apply(node, grads):
        grad = grads[0]
        needs = node.needs_input_grad
        dim = node.s_dim
        index = _unpack(node, node.s_index) if needs[0] or needs[2] else None
        g_self = g_index = g_src = None
        grad_input_mask = needs
        if needs[0]:
            g_self = grad.scatter(dim, index, 0)
        if needs[2]:
            g_src = grad.gather(dim, index)
        return (g_self, g_index, g_src)


def autograd_scatter_src(self, dim, index, src):
    result = _op.scatter_src.redispatch(_AUTOGRAD, self, dim, index, src)
    node = ScatterSrcBackward()
    if _connect_tensors(node, (self, index, src)):
        needs = node.needs_input_grad
        node.s_dim = dim
        if needs[0] or needs[2]:
            node.s_index = _save(index)
        _set_history(node, result, None)
    return result


KERNELS['scatter.src'] = autograd_scatter_src
NODES['scatter.src'] = ScatterSrcBackward


class ScatterValueBackward(_Node):
    __slots__ = ('s_dim', 's_index')
    op_name = 'scatter.value'

    def apply(node, grads):
        grad = grads[0]
        needs = node.needs_input_grad
        dim = node.s_dim
        index = _unpack(node, node.s_index) if needs[0] else None
        g_self = g_index = None
        grad_input_mask = needs
        if needs[0]:
            g_self = grad.scatter(dim, index, 0)
        return (g_self, g_index)


def autograd_scatter_value(self, dim, index, value):
    result = _op.scatter_value.redispatch(_AUTOGRAD, self, dim, index, value)
    node = ScatterValueBackward()
    if _connect_tensors(node, (self, index)):
        needs = node.needs_input_grad
        node.s_dim = dim
        if needs[0]:
            node.s_index = _save(index)
        _set_history(node, result, None)
    return result


KERNELS['scatter.value'] = autograd_scatter_value
NODES['scatter.value'] = ScatterValueBackward


class ScatterAddBackward(_Node):
    __slots__ = ('s_dim', 's_index')
    op_name = 'scatter_add'

    def apply(node, grads):
        grad = grads[0]
        needs = node.needs_input_grad
        dim = node.s_dim
        index = _unpack(node, node.s_index) if needs[2] else None
        g_self = g_index = g_src = None
        grad_input_mask = needs
        if needs[0]:
            g_self = grad
        if needs[2]:
            g_src = grad.gather(dim, index)
        return (g_self, g_index, g_src)


def autograd_scatter_add(self, dim, index, src):
    result = _op.scatter_add.redispatch(_AUTOGRAD, self, dim, index, src)
    node = ScatterAddBackward()
    if _connect_tensors(node, (self, index, src)):
        needs = node.needs_input_grad
        node.s_dim = dim
        if needs[2]:
            node.s_index = _save(index)
        _set_history(node, result, None)
    return result


KERNELS['scatter_add'] = autograd_scatter_add
NODES['scatter_add'] = ScatterAddBackward


class IndexSelectBackward(_Node):
    __slots__ = ('s_self', 's_dim', 's_index')
    op_name = 'index_select'

    def apply(node, grads):
        grad = grads[0]
        needs = node.needs_input_grad
        self = _unpack(node, node.s_self) if needs[0] else None
        dim = node.s_dim
        index = _unpack(node, node.s_index) if needs[0] else None
        g_self = g_index = None
        grad_input_mask = needs
        if needs[0]:
            g_self = index_select_backward(grad, self.shape, dim, index)
        return (g_self, g_index)


def autograd_index_select(self, dim, index):
    result = _op.index_select.redispatch(_AUTOGRAD, self, dim, index)
    node = IndexSelectBackward()
    if _connect_tensors(node, (self, index)):
        needs = node.needs_input_grad
        if needs[0]:
            node.s_self = _save_meta(self)
        node.s_dim = dim
        if needs[0]:
            node.s_index = _save(index)
        _set_history(node, result, None)
    return result


KERNELS['index_select'] = autograd_index_select
NODES['index_select'] = IndexSelectBackward


class IndexSelectBackwardBackward(_Node):
    __slots__ = ('s_dim', 's_index')
    op_name = 'index_select_backward'

    def apply(node, grads):
        grad = grads[0]
        needs = node.needs_input_grad
        dim = node.s_dim
        index = _unpack(node, node.s_index) if needs[0] else None
        g_grad_output = g_index = None
        grad_input_mask = needs
        if needs[0]:
            g_grad_output = grad.index_select(dim, index)
        return (g_grad_output, g_index)


def autograd_index_select_backward(grad_output, self_sizes, dim, index):
    result = _op.index_select_backward.redispatch(_AUTOGRAD, grad_output, self_sizes, dim, index)
    node = IndexSelectBackwardBackward()
    if _connect_tensors(node, (grad_output, index)):
        needs = node.needs_input_grad
        node.s_dim = dim
        if needs[0]:
            node.s_index = _save(index)
        _set_history(node, result, None)
    return result


KERNELS['index_select_backward'] = autograd_index_select_backward
NODES['index_select_backward'] = IndexSelectBackwardBackward


class IndexAddBackward(_Node):
    __slots__ = ('s_dim', 's_index', 's_source', 's_alpha')
    op_name = 'index_add'

    def apply(node, grads):
        grad = grads[0]
        needs = node.needs_input_grad
        dim = node.s_dim
        index = _unpack(node, node.s_index) if needs[2] else None
        source = _unpack(node, node.s_source) if needs[2] else None
        alpha = node.s_alpha
        g_self = g_index = g_source = None
        grad_input_mask = needs
        if needs[0]:
            g_self = grad
        if needs[2]:
            g_source = maybe_multiply(index_add_source_grad(grad, dim, index, source), alpha)
        return (g_self, g_index, g_source)


def autograd_index_add(self, dim, index, source, alpha):
    result = _op.index_add.redispatch(_AUTOGRAD, self, dim, index, source, alpha)
    node = IndexAddBackward()
    if _connect_tensors(node, (self, index, source)):
        needs = node.needs_input_grad
        node.s_dim = dim
        if needs[2]:
            node.s_index = _save(index)
        if needs[2]:
            node.s_source = _save(source)
        node.s_alpha = alpha
        _set_history(node, result, None)
    return result


KERNELS['index_add'] = autograd_index_add
NODES['index_add'] = IndexAddBackward


class IndexTensorBackward(_Node):
    __slots__ = ('s_self', 's_indices')
    op_name = 'index.Tensor'

    def apply(node, grads):
        grad = grads[0]
        needs = node.needs_input_grad
        self = _unpack(node, node.s_self) if needs[0] else None
        indices = _unpack_list(node, node.s_indices) if needs[0] else None
        g_self = g_indices = None
        grad_input_mask = needs
        if needs[0]:
            g_self = zeros_like(self).index_put(indices, grad, True)
        return (g_self, g_indices)


def autograd_index_Tensor(self, indices):
    result = _op.index_Tensor.redispatch(_AUTOGRAD, self, indices)
    node = IndexTensorBackward()
    if _connect(node, (self, indices)):
        needs = node.needs_input_grad
        if needs[0]:
            node.s_self = _save(self)
        if needs[0]:
            node.s_indices = _save_list(indices)
        _set_history(node, result, None)
    return result


KERNELS['index.Tensor'] = autograd_index_Tensor
NODES['index.Tensor'] = IndexTensorBackward


class IndexPutBackward(_Node):
    __slots__ = ('s_indices', 's_values', 's_accumulate')
    op_name = 'index_put'

    def apply(node, grads):
        grad = grads[0]
        needs = node.needs_input_grad
        indices = _unpack_list(node, node.s_indices) if needs[0] or needs[2] else None
        values = _unpack(node, node.s_values) if needs[2] else None
        accumulate = node.s_accumulate
        g_self = g_indices = g_values = None
        grad_input_mask = needs
        if needs[0]:
            g_self = index_put_self_grad(grad, indices, accumulate)
        if needs[2]:
            g_values = sum_to(index(grad, indices), values.shape)
        return (g_self, g_indices, g_values)


def autograd_index_put(self, indices, values, accumulate):
    result = _op.index_put.redispatch(_AUTOGRAD, self, indices, values, accumulate)
    node = IndexPutBackward()
    if _connect(node, (self, indices, values)):
        needs = node.needs_input_grad
        if needs[0] or needs[2]:
            node.s_indices = _save_list(indices)
        if needs[2]:
            node.s_values = _save_meta(values)
        node.s_accumulate = accumulate
        _set_history(node, result, None)
    return result


KERNELS['index_put'] = autograd_index_put
NODES['index_put'] = IndexPutBackward


class MaskedFillTensorBackward(_Node):
    __slots__ = ('s_mask',)
    op_name = 'masked_fill.Tensor'

    def apply(node, grads):
        grad = grads[0]
        needs = node.needs_input_grad
        mask = _unpack(node, node.s_mask) if needs[0] or needs[2] else None
        g_self = g_mask = g_value = None
        grad_input_mask = needs
        if needs[0]:
            g_self = grad.masked_fill(mask, 0)
        if needs[2]:
            g_value = where(mask, grad, 0).sum()
        return (g_self, g_mask, g_value)


def autograd_masked_fill_Tensor(self, mask, value):
    result = _op.masked_fill_Tensor.redispatch(_AUTOGRAD, self, mask, value)
    node = MaskedFillTensorBackward()
    if _connect_tensors(node, (self, mask, value)):
        needs = node.needs_input_grad
        if needs[0] or needs[2]:
            node.s_mask = _save(mask)
        _set_history(node, result, None)
    return result


KERNELS['masked_fill.Tensor'] = autograd_masked_fill_Tensor
NODES['masked_fill.Tensor'] = MaskedFillTensorBackward


class MaskedFillBackward(_Node):
    __slots__ = ('s_mask',)
    op_name = 'masked_fill'

    def apply(node, grads):
        grad = grads[0]
        needs = node.needs_input_grad
        mask = _unpack(node, node.s_mask) if needs[0] else None
        g_self = g_mask = None
        grad_input_mask = needs
        if needs[0]:
            g_self = grad.masked_fill(mask, 0)
        return (g_self, g_mask)


def autograd_masked_fill(self, mask, value):
    result = _op.masked_fill.redispatch(_AUTOGRAD, self, mask, value)
    node = MaskedFillBackward()
    if _connect_tensors(node, (self, mask)):
        needs = node.needs_input_grad
        if needs[0]:
            node.s_mask = _save(mask)
        _set_history(node, result, None)
    return result


KERNELS['masked_fill'] = autograd_masked_fill
NODES['masked_fill'] = MaskedFillBackward


class MaskedSelectBackward(_Node):
    __slots__ = ('s_self', 's_mask')
    op_name = 'masked_select'

    def apply(node, grads):
        grad = grads[0]
        needs = node.needs_input_grad
        self = _unpack(node, node.s_self) if needs[0] else None
        mask = _unpack(node, node.s_mask) if needs[0] else None
        g_self = g_mask = None
        grad_input_mask = needs
        if needs[0]:
            g_self = masked_select_backward(grad, self, mask)
        return (g_self, g_mask)


def autograd_masked_select(self, mask):
    result = _op.masked_select.redispatch(_AUTOGRAD, self, mask)
    node = MaskedSelectBackward()
    if _connect_tensors(node, (self, mask)):
        needs = node.needs_input_grad
        if needs[0]:
            node.s_self = _save(self)
        if needs[0]:
            node.s_mask = _save(mask)
        _set_history(node, result, None)
    return result


KERNELS['masked_select'] = autograd_masked_select
NODES['masked_select'] = MaskedSelectBackward


class MaskedScatterBackward(_Node):
    __slots__ = ('s_mask', 's_source')
    op_name = 'masked_scatter'

    def apply(node, grads):
        grad = grads[0]
        needs = node.needs_input_grad
        mask = _unpack(node, node.s_mask) if needs[0] or needs[2] else None
        source = _unpack(node, node.s_source) if needs[2] else None
        g_self = g_mask = g_source = None
        grad_input_mask = needs
        if needs[0]:
            g_self = grad.masked_fill(mask, 0)
        if needs[2]:
            g_source = masked_scatter_source_grad(grad, mask, source)
        return (g_self, g_mask, g_source)


def autograd_masked_scatter(self, mask, source):
    result = _op.masked_scatter.redispatch(_AUTOGRAD, self, mask, source)
    node = MaskedScatterBackward()
    if _connect_tensors(node, (self, mask, source)):
        needs = node.needs_input_grad
        if needs[0] or needs[2]:
            node.s_mask = _save(mask)
        if needs[2]:
            node.s_source = _save(source)
        _set_history(node, result, None)
    return result


KERNELS['masked_scatter'] = autograd_masked_scatter
NODES['masked_scatter'] = MaskedScatterBackward


class IndexFillIntTensorBackward(_Node):
    __slots__ = ('s_dim', 's_index')
    op_name = 'index_fill.int_Tensor'

    def apply(node, grads):
        grad = grads[0]
        needs = node.needs_input_grad
        dim = node.s_dim
        index = _unpack(node, node.s_index) if needs[0] or needs[2] else None
        g_self = g_index = g_value = None
        grad_input_mask = needs
        if needs[0]:
            g_self = grad.index_fill(dim, index, 0)
        if needs[2]:
            g_value = (grad - grad.index_fill(dim, index, 0)).sum()
        return (g_self, g_index, g_value)


def autograd_index_fill_int_Tensor(self, dim, index, value):
    result = _op.index_fill_int_Tensor.redispatch(_AUTOGRAD, self, dim, index, value)
    node = IndexFillIntTensorBackward()
    if _connect_tensors(node, (self, index, value)):
        needs = node.needs_input_grad
        node.s_dim = dim
        if needs[0] or needs[2]:
            node.s_index = _save(index)
        _set_history(node, result, None)
    return result


KERNELS['index_fill.int_Tensor'] = autograd_index_fill_int_Tensor
NODES['index_fill.int_Tensor'] = IndexFillIntTensorBackward


class IndexFillIntScalarBackward(_Node):
    __slots__ = ('s_dim', 's_index')
    op_name = 'index_fill.int_Scalar'

    def apply(node, grads):
        grad = grads[0]
        needs = node.needs_input_grad
        dim = node.s_dim
        index = _unpack(node, node.s_index) if needs[0] else None
        g_self = g_index = None
        grad_input_mask = needs
        if needs[0]:
            g_self = grad.index_fill(dim, index, 0)
        return (g_self, g_index)


def autograd_index_fill_int_Scalar(self, dim, index, value):
    result = _op.index_fill_int_Scalar.redispatch(_AUTOGRAD, self, dim, index, value)
    node = IndexFillIntScalarBackward()
    if _connect_tensors(node, (self, index)):
        needs = node.needs_input_grad
        node.s_dim = dim
        if needs[0]:
            node.s_index = _save(index)
        _set_history(node, result, None)
    return result


KERNELS['index_fill.int_Scalar'] = autograd_index_fill_int_Scalar
NODES['index_fill.int_Scalar'] = IndexFillIntScalarBackward


class ScatterReduceTwoBackward(_Node):
    __slots__ = ('s_self', 's_dim', 's_index', 's_src', 's_reduce', 's_include_self', 'o_result')
    op_name = 'scatter_reduce.two'

    def apply(node, grads):
        grad = grads[0]
        needs = node.needs_input_grad
        self = _unpack(node, node.s_self) if needs[0] or needs[2] else None
        dim = node.s_dim
        index = _unpack(node, node.s_index) if needs[0] or needs[2] else None
        src = _unpack(node, node.s_src) if needs[0] or needs[2] else None
        reduce = node.s_reduce
        include_self = node.s_include_self
        result = _unpack(node, node.o_result) if needs[0] or needs[2] else None
        g_self = g_index = g_src = None
        grad_input_mask = needs
        if needs[0] or needs[2]:
            g_self, g_src, = scatter_reduce_backward(grad, self, dim, index, src, reduce, include_self, result)
        return (g_self, g_index, g_src)


def autograd_scatter_reduce_two(self, dim, index, src, reduce, include_self):
    result = _op.scatter_reduce_two.redispatch(_AUTOGRAD, self, dim, index, src, reduce, include_self)
    node = ScatterReduceTwoBackward()
    if _connect_tensors(node, (self, index, src)):
        needs = node.needs_input_grad
        if needs[0] or needs[2]:
            node.s_self = _save(self)
        node.s_dim = dim
        if needs[0] or needs[2]:
            node.s_index = _save(index)
        if needs[0] or needs[2]:
            node.s_src = _save(src)
        node.s_reduce = reduce
        node.s_include_self = include_self
        if needs[0] or needs[2]:
            node.o_result = _save_output(result)
        _set_history(node, result, None)
    return result


KERNELS['scatter_reduce.two'] = autograd_scatter_reduce_two
NODES['scatter_reduce.two'] = ScatterReduceTwoBackward


class SoftmaxBackward(_Node):
    __slots__ = ('s_self', 's_dim', 'o_result')
    op_name = 'softmax'

    def apply(node, grads):
        grad = grads[0]
        needs = node.needs_input_grad
        self = _unpack(node, node.s_self)
        dim = node.s_dim
        result = _unpack(node, node.o_result)
        g_self = None
        grad_input_mask = needs
        if needs[0]:
            g_self = _softmax_backward_data(grad, result, dim, self.dtype)
        return (g_self,)


def autograd_softmax(self, dim, dtype):
    result = _op.softmax.redispatch(_AUTOGRAD, self, dim, dtype)
    node = SoftmaxBackward()
    if _connect_tensors(node, (self,)):
        node.s_self = _save_meta(self)
        node.s_dim = dim
        node.o_result = _save_output(result)
        _set_history(node, result, None)
    return result


KERNELS['softmax'] = autograd_softmax
NODES['softmax'] = SoftmaxBackward


class SoftmaxBackwardDataBackward(_Node):
    __slots__ = ('s_grad_output', 's_output', 's_dim')
    op_name = '_softmax_backward_data'

    def apply(node, grads):
        grad = grads[0]
        needs = node.needs_input_grad
        grad_output = _unpack(node, node.s_grad_output)
        output = _unpack(node, node.s_output)
        dim = node.s_dim
        g_grad_output = g_output = None
        grad_input_mask = needs
        if needs[0]:
            g_grad_output = _softmax_backward_data(grad, output, dim, grad_output.dtype)
        if needs[1]:
            g_output = softmax_double_backward(grad, grad_output, dim, output)
        return (g_grad_output, g_output)


def autograd__softmax_backward_data(grad_output, output, dim, input_dtype):
    result = _op._softmax_backward_data.redispatch(_AUTOGRAD, grad_output, output, dim, input_dtype)
    node = SoftmaxBackwardDataBackward()
    if _connect_tensors(node, (grad_output, output)):
        node.s_grad_output = _save(grad_output)
        node.s_output = _save(output)
        node.s_dim = dim
        _set_history(node, result, None)
    return result


KERNELS['_softmax_backward_data'] = autograd__softmax_backward_data
NODES['_softmax_backward_data'] = SoftmaxBackwardDataBackward


class LogSoftmaxBackward(_Node):
    __slots__ = ('s_self', 's_dim', 'o_result')
    op_name = 'log_softmax'

    def apply(node, grads):
        grad = grads[0]
        needs = node.needs_input_grad
        self = _unpack(node, node.s_self)
        dim = node.s_dim
        result = _unpack(node, node.o_result)
        g_self = None
        grad_input_mask = needs
        if needs[0]:
            g_self = _log_softmax_backward_data(grad, result, dim, self.dtype)
        return (g_self,)


def autograd_log_softmax(self, dim, dtype):
    result = _op.log_softmax.redispatch(_AUTOGRAD, self, dim, dtype)
    node = LogSoftmaxBackward()
    if _connect_tensors(node, (self,)):
        node.s_self = _save_meta(self)
        node.s_dim = dim
        node.o_result = _save_output(result)
        _set_history(node, result, None)
    return result


KERNELS['log_softmax'] = autograd_log_softmax
NODES['log_softmax'] = LogSoftmaxBackward


class LogSoftmaxBackwardDataBackward(_Node):
    __slots__ = ('s_grad_output', 's_output', 's_dim')
    op_name = '_log_softmax_backward_data'

    def apply(node, grads):
        grad = grads[0]
        needs = node.needs_input_grad
        grad_output = _unpack(node, node.s_grad_output) if needs[1] else None
        output = _unpack(node, node.s_output)
        dim = node.s_dim
        g_grad_output = g_output = None
        grad_input_mask = needs
        if needs[0]:
            g_grad_output = grad - (grad * output.exp()).sum(dim, keepdim=True)
        if needs[1]:
            g_output = log_softmax_double_backward(grad, grad_output, dim, output)
        return (g_grad_output, g_output)


def autograd__log_softmax_backward_data(grad_output, output, dim, input_dtype):
    result = _op._log_softmax_backward_data.redispatch(_AUTOGRAD, grad_output, output, dim, input_dtype)
    node = LogSoftmaxBackwardDataBackward()
    if _connect_tensors(node, (grad_output, output)):
        needs = node.needs_input_grad
        if needs[1]:
            node.s_grad_output = _save(grad_output)
        node.s_output = _save(output)
        node.s_dim = dim
        _set_history(node, result, None)
    return result


KERNELS['_log_softmax_backward_data'] = autograd__log_softmax_backward_data
NODES['_log_softmax_backward_data'] = LogSoftmaxBackwardDataBackward


class LinearBackward(_Node):
    __slots__ = ('s_input', 's_weight', 's_bias')
    op_name = 'linear'

    def apply(node, grads):
        grad = grads[0]
        needs = node.needs_input_grad
        input = _unpack(node, node.s_input)
        weight = _unpack(node, node.s_weight)
        bias = _unpack(node, node.s_bias)
        g_input = g_weight = g_bias = None
        grad_input_mask = needs
        if needs[0] or needs[1] or needs[2]:
            g_input, g_weight, g_bias, = linear_backward(grad, input, weight, bias, grad_input_mask)
        return (g_input, g_weight, g_bias)


def autograd_linear(input, weight, bias):
    result = _op.linear.redispatch(_AUTOGRAD, input, weight, bias)
    node = LinearBackward()
    if _connect_tensors(node, (input, weight, bias)):
        node.s_input = _save(input)
        node.s_weight = _save(weight)
        node.s_bias = _save(bias)
        _set_history(node, result, None)
    return result


KERNELS['linear'] = autograd_linear
NODES['linear'] = LinearBackward


class ConvolutionBackward(_Node):
    __slots__ = ('s_input', 's_weight', 's_stride', 's_padding', 's_dilation', 's_transposed', 's_output_padding', 's_groups')
    op_name = 'convolution'

    def apply(node, grads):
        grad = grads[0]
        needs = node.needs_input_grad
        input = _unpack(node, node.s_input)
        weight = _unpack(node, node.s_weight)
        stride = node.s_stride
        padding = node.s_padding
        dilation = node.s_dilation
        transposed = node.s_transposed
        output_padding = node.s_output_padding
        groups = node.s_groups
        g_input = g_weight = g_bias = None
        grad_input_mask = needs
        if needs[0] or needs[1] or needs[2]:
            g_input, g_weight, g_bias, = convolution_backward(grad, input, weight, stride, padding, dilation, transposed, output_padding, groups, grad_input_mask)
        return (g_input, g_weight, g_bias)


def autograd_convolution(input, weight, bias, stride, padding, dilation, transposed, output_padding, groups):
    result = _op.convolution.redispatch(_AUTOGRAD, input, weight, bias, stride, padding, dilation, transposed, output_padding, groups)
    node = ConvolutionBackward()
    if _connect_tensors(node, (input, weight, bias)):
        node.s_input = _save(input)
        node.s_weight = _save(weight)
        node.s_stride = stride
        node.s_padding = padding
        node.s_dilation = dilation
        node.s_transposed = transposed
        node.s_output_padding = output_padding
        node.s_groups = groups
        _set_history(node, result, None)
    return result


KERNELS['convolution'] = autograd_convolution
NODES['convolution'] = ConvolutionBackward


class ConvolutionBackwardBackward(_Node):
    __slots__ = ('s_grad_output', 's_input', 's_weight', 's_stride', 's_padding', 's_dilation', 's_transposed', 's_output_padding', 's_groups')
    op_name = 'convolution_backward'

    def apply(node, grads):
        grad = grads[0]
        needs = node.needs_input_grad
        grad_output = _unpack(node, node.s_grad_output)
        input = _unpack(node, node.s_input)
        weight = _unpack(node, node.s_weight)
        stride = node.s_stride
        padding = node.s_padding
        dilation = node.s_dilation
        transposed = node.s_transposed
        output_padding = node.s_output_padding
        groups = node.s_groups
        g_grad_output = g_input = g_weight = None
        grad_input_mask = needs
        if needs[0] or needs[1] or needs[2]:
            g_grad_output, g_input, g_weight, = convolution_double_backward(grads, grad_output, input, weight, stride, padding, dilation, transposed, output_padding, groups, grad_input_mask)
        return (g_grad_output, g_input, g_weight)


def autograd_convolution_backward(grad_output, input, weight, stride, padding, dilation, transposed, output_padding, groups, output_mask):
    result = _op.convolution_backward.redispatch(_AUTOGRAD, grad_output, input, weight, stride, padding, dilation, transposed, output_padding, groups, output_mask)
    node = ConvolutionBackwardBackward()
    if _connect_tensors(node, (grad_output, input, weight)):
        node.s_grad_output = _save(grad_output)
        node.s_input = _save(input)
        node.s_weight = _save(weight)
        node.s_stride = stride
        node.s_padding = padding
        node.s_dilation = dilation
        node.s_transposed = transposed
        node.s_output_padding = output_padding
        node.s_groups = groups
        _set_history(node, result, None)
    return result


KERNELS['convolution_backward'] = autograd_convolution_backward
NODES['convolution_backward'] = ConvolutionBackwardBackward


class MaxPoolWithIndicesBackward(_Node):
    __slots__ = ('s_self', 'o_result1')
    op_name = 'max_pool_with_indices'

    def apply(node, grads):
        grad = grads[0]
        needs = node.needs_input_grad
        self = _unpack(node, node.s_self)
        result1 = _unpack(node, node.o_result1)
        g_self = None
        grad_input_mask = needs
        if needs[0]:
            g_self = max_pool_backward(grad, self, result1)
        return (g_self,)


def autograd_max_pool_with_indices(self, kernel_size, stride, padding, dilation, ceil_mode):
    result = _op.max_pool_with_indices.redispatch(_AUTOGRAD, self, kernel_size, stride, padding, dilation, ceil_mode)
    node = MaxPoolWithIndicesBackward()
    if _connect_tensors(node, (self,)):
        node.s_self = _save(self)
        node.o_result1 = _save_output(result[1], 1)
        _set_history(node, result, (True, False))
    return result


KERNELS['max_pool_with_indices'] = autograd_max_pool_with_indices
NODES['max_pool_with_indices'] = MaxPoolWithIndicesBackward


class MaxPoolBackwardBackward(_Node):
    __slots__ = ('s_self', 's_indices')
    op_name = 'max_pool_backward'

    def apply(node, grads):
        grad = grads[0]
        needs = node.needs_input_grad
        self = _unpack(node, node.s_self) if needs[0] else None
        indices = _unpack(node, node.s_indices) if needs[0] else None
        g_grad_output = g_self = g_indices = None
        grad_input_mask = needs
        if needs[0]:
            g_grad_output = max_pool_double_backward(grad, self, indices)
        return (g_grad_output, g_self, g_indices)


def autograd_max_pool_backward(grad_output, self, indices):
    result = _op.max_pool_backward.redispatch(_AUTOGRAD, grad_output, self, indices)
    node = MaxPoolBackwardBackward()
    if _connect_tensors(node, (grad_output, self, indices)):
        needs = node.needs_input_grad
        if needs[0]:
            node.s_self = _save(self)
        if needs[0]:
            node.s_indices = _save(indices)
        _set_history(node, result, None)
    return result


KERNELS['max_pool_backward'] = autograd_max_pool_backward
NODES['max_pool_backward'] = MaxPoolBackwardBackward


class AvgPoolBackward(_Node):
    __slots__ = ('s_self', 's_kernel_size', 's_stride', 's_padding', 's_ceil_mode', 's_count_include_pad', 's_divisor_override')
    op_name = 'avg_pool'

    def apply(node, grads):
        grad = grads[0]
        needs = node.needs_input_grad
        self = _unpack(node, node.s_self)
        kernel_size = node.s_kernel_size
        stride = node.s_stride
        padding = node.s_padding
        ceil_mode = node.s_ceil_mode
        count_include_pad = node.s_count_include_pad
        divisor_override = node.s_divisor_override
        g_self = None
        grad_input_mask = needs
        if needs[0]:
            g_self = avg_pool_backward(grad, self, kernel_size, stride, padding, ceil_mode, count_include_pad, divisor_override)
        return (g_self,)


def autograd_avg_pool(self, kernel_size, stride, padding, ceil_mode, count_include_pad, divisor_override):
    result = _op.avg_pool.redispatch(_AUTOGRAD, self, kernel_size, stride, padding, ceil_mode, count_include_pad, divisor_override)
    node = AvgPoolBackward()
    if _connect_tensors(node, (self,)):
        node.s_self = _save(self)
        node.s_kernel_size = kernel_size
        node.s_stride = stride
        node.s_padding = padding
        node.s_ceil_mode = ceil_mode
        node.s_count_include_pad = count_include_pad
        node.s_divisor_override = divisor_override
        _set_history(node, result, None)
    return result


KERNELS['avg_pool'] = autograd_avg_pool
NODES['avg_pool'] = AvgPoolBackward


class AvgPoolBackwardBackward(_Node):
    __slots__ = ('s_kernel_size', 's_stride', 's_padding', 's_ceil_mode', 's_count_include_pad', 's_divisor_override')
    op_name = 'avg_pool_backward'

    def apply(node, grads):
        grad = grads[0]
        needs = node.needs_input_grad
        kernel_size = node.s_kernel_size
        stride = node.s_stride
        padding = node.s_padding
        ceil_mode = node.s_ceil_mode
        count_include_pad = node.s_count_include_pad
        divisor_override = node.s_divisor_override
        g_grad_output = g_self = None
        grad_input_mask = needs
        if needs[0]:
            g_grad_output = avg_pool(grad, kernel_size, stride, padding, ceil_mode, count_include_pad, divisor_override)
        return (g_grad_output, g_self)


def autograd_avg_pool_backward(grad_output, self, kernel_size, stride, padding, ceil_mode, count_include_pad, divisor_override):
    result = _op.avg_pool_backward.redispatch(_AUTOGRAD, grad_output, self, kernel_size, stride, padding, ceil_mode, count_include_pad, divisor_override)
    node = AvgPoolBackwardBackward()
    if _connect_tensors(node, (grad_output, self)):
        node.s_kernel_size = kernel_size
        node.s_stride = stride
        node.s_padding = padding
        node.s_ceil_mode = ceil_mode
        node.s_count_include_pad = count_include_pad
        node.s_divisor_override = divisor_override
        _set_history(node, result, None)
    return result


KERNELS['avg_pool_backward'] = autograd_avg_pool_backward
NODES['avg_pool_backward'] = AvgPoolBackwardBackward


class AdaptiveAvgPoolBackward(_Node):
    __slots__ = ('s_self',)
    op_name = 'adaptive_avg_pool'

    def apply(node, grads):
        grad = grads[0]
        needs = node.needs_input_grad
        self = _unpack(node, node.s_self)
        g_self = None
        grad_input_mask = needs
        if needs[0]:
            g_self = adaptive_avg_pool_backward(grad, self)
        return (g_self,)


def autograd_adaptive_avg_pool(self, output_size):
    result = _op.adaptive_avg_pool.redispatch(_AUTOGRAD, self, output_size)
    node = AdaptiveAvgPoolBackward()
    if _connect_tensors(node, (self,)):
        node.s_self = _save(self)
        _set_history(node, result, None)
    return result


KERNELS['adaptive_avg_pool'] = autograd_adaptive_avg_pool
NODES['adaptive_avg_pool'] = AdaptiveAvgPoolBackward


class AdaptiveAvgPoolBackwardBackward(_Node):
    __slots__ = ('s_grad_output',)
    op_name = 'adaptive_avg_pool_backward'

    def apply(node, grads):
        grad = grads[0]
        needs = node.needs_input_grad
        grad_output = _unpack(node, node.s_grad_output) if needs[0] else None
        g_grad_output = g_self = None
        grad_input_mask = needs
        if needs[0]:
            g_grad_output = adaptive_avg_pool(grad, grad_output.shape[2:])
        return (g_grad_output, g_self)


def autograd_adaptive_avg_pool_backward(grad_output, self):
    result = _op.adaptive_avg_pool_backward.redispatch(_AUTOGRAD, grad_output, self)
    node = AdaptiveAvgPoolBackwardBackward()
    if _connect_tensors(node, (grad_output, self)):
        needs = node.needs_input_grad
        if needs[0]:
            node.s_grad_output = _save_meta(grad_output)
        _set_history(node, result, None)
    return result


KERNELS['adaptive_avg_pool_backward'] = autograd_adaptive_avg_pool_backward
NODES['adaptive_avg_pool_backward'] = AdaptiveAvgPoolBackwardBackward


class AdaptiveMaxPoolBackward(_Node):
    __slots__ = ('s_self', 'o_result1')
    op_name = 'adaptive_max_pool'

    def apply(node, grads):
        grad = grads[0]
        needs = node.needs_input_grad
        self = _unpack(node, node.s_self)
        result1 = _unpack(node, node.o_result1)
        g_self = None
        grad_input_mask = needs
        if needs[0]:
            g_self = max_pool_backward(grad, self, result1)
        return (g_self,)


def autograd_adaptive_max_pool(self, output_size):
    result = _op.adaptive_max_pool.redispatch(_AUTOGRAD, self, output_size)
    node = AdaptiveMaxPoolBackward()
    if _connect_tensors(node, (self,)):
        node.s_self = _save(self)
        node.o_result1 = _save_output(result[1], 1)
        _set_history(node, result, (True, False))
    return result


KERNELS['adaptive_max_pool'] = autograd_adaptive_max_pool
NODES['adaptive_max_pool'] = AdaptiveMaxPoolBackward


class EmbeddingBackward(_Node):
    __slots__ = ('s_weight', 's_indices', 's_padding_idx', 's_scale_grad_by_freq')
    op_name = 'embedding'

    def apply(node, grads):
        grad = grads[0]
        needs = node.needs_input_grad
        weight = _unpack(node, node.s_weight) if needs[0] else None
        indices = _unpack(node, node.s_indices) if needs[0] else None
        padding_idx = node.s_padding_idx
        scale_grad_by_freq = node.s_scale_grad_by_freq
        g_weight = g_indices = None
        grad_input_mask = needs
        if needs[0]:
            g_weight = embedding_backward(grad, indices, weight.shape[0], padding_idx, scale_grad_by_freq)
        return (g_weight, g_indices)


def autograd_embedding(weight, indices, padding_idx, scale_grad_by_freq, sparse):
    result = _op.embedding.redispatch(_AUTOGRAD, weight, indices, padding_idx, scale_grad_by_freq, sparse)
    node = EmbeddingBackward()
    if _connect_tensors(node, (weight, indices)):
        needs = node.needs_input_grad
        if needs[0]:
            node.s_weight = _save_meta(weight)
        if needs[0]:
            node.s_indices = _save(indices)
        node.s_padding_idx = padding_idx
        node.s_scale_grad_by_freq = scale_grad_by_freq
        _set_history(node, result, None)
    return result


KERNELS['embedding'] = autograd_embedding
NODES['embedding'] = EmbeddingBackward


class EmbeddingBackwardBackward(_Node):
    __slots__ = ('s_indices', 's_padding_idx')
    op_name = 'embedding_backward'

    def apply(node, grads):
        grad = grads[0]
        needs = node.needs_input_grad
        indices = _unpack(node, node.s_indices) if needs[0] else None
        padding_idx = node.s_padding_idx
        g_grad_output = g_indices = None
        grad_input_mask = needs
        if needs[0]:
            g_grad_output = embedding(grad, indices, padding_idx)
        return (g_grad_output, g_indices)


def autograd_embedding_backward(grad_output, indices, num_weights, padding_idx, scale_grad_by_freq):
    result = _op.embedding_backward.redispatch(_AUTOGRAD, grad_output, indices, num_weights, padding_idx, scale_grad_by_freq)
    node = EmbeddingBackwardBackward()
    if _connect_tensors(node, (grad_output, indices)):
        needs = node.needs_input_grad
        if needs[0]:
            node.s_indices = _save(indices)
        node.s_padding_idx = padding_idx
        _set_history(node, result, None)
    return result


KERNELS['embedding_backward'] = autograd_embedding_backward
NODES['embedding_backward'] = EmbeddingBackwardBackward


class NativeBatchNormBackward(_Node):
    __slots__ = ('s_input', 's_weight', 's_running_mean', 's_running_var', 's_training', 's_eps', 'o_result1', 'o_result2')
    op_name = 'native_batch_norm'

    def apply(node, grads):
        grad = grads[0]
        needs = node.needs_input_grad
        input = _unpack(node, node.s_input) if needs[0] or needs[1] or needs[2] else None
        weight = _unpack(node, node.s_weight) if needs[0] or needs[1] or needs[2] else None
        running_mean = _unpack(node, node.s_running_mean) if needs[0] or needs[1] or needs[2] else None
        running_var = _unpack(node, node.s_running_var) if needs[0] or needs[1] or needs[2] else None
        training = node.s_training
        eps = node.s_eps
        result1 = _unpack(node, node.o_result1) if needs[0] or needs[1] or needs[2] else None
        result2 = _unpack(node, node.o_result2) if needs[0] or needs[1] or needs[2] else None
        g_input = g_weight = g_bias = g_running_mean = g_running_var = None
        grad_input_mask = needs
        if needs[0] or needs[1] or needs[2]:
            g_input, g_weight, g_bias, = native_batch_norm_backward(grad, input, weight, running_mean, running_var, result1, result2, training, eps, grad_input_mask)
        return (g_input, g_weight, g_bias, g_running_mean, g_running_var)


def autograd_native_batch_norm(input, weight, bias, running_mean, running_var, training, momentum, eps):
    result = _op.native_batch_norm.redispatch(_AUTOGRAD, input, weight, bias, running_mean, running_var, training, momentum, eps)
    node = NativeBatchNormBackward()
    if _connect_tensors(node, (input, weight, bias, running_mean, running_var)):
        needs = node.needs_input_grad
        if needs[0] or needs[1] or needs[2]:
            node.s_input = _save(input)
        if needs[0] or needs[1] or needs[2]:
            node.s_weight = _save(weight)
        if needs[0] or needs[1] or needs[2]:
            node.s_running_mean = _save(running_mean)
        if needs[0] or needs[1] or needs[2]:
            node.s_running_var = _save(running_var)
        node.s_training = training
        node.s_eps = eps
        if needs[0] or needs[1] or needs[2]:
            node.o_result1 = _save_output(result[1], 1)
        if needs[0] or needs[1] or needs[2]:
            node.o_result2 = _save_output(result[2], 2)
        _set_history(node, result, (True, False, False))
    return result


KERNELS['native_batch_norm'] = autograd_native_batch_norm
NODES['native_batch_norm'] = NativeBatchNormBackward


class NativeBatchNormBackwardBackward(_Node):
    __slots__ = ('s_grad_out', 's_input', 's_weight', 's_running_mean', 's_running_var', 's_save_mean', 's_save_invstd', 's_train', 's_eps')
    op_name = 'native_batch_norm_backward'

    def apply(node, grads):
        grad = grads[0]
        needs = node.needs_input_grad
        grad_out = _unpack(node, node.s_grad_out) if needs[0] or needs[1] or needs[2] else None
        input = _unpack(node, node.s_input) if needs[0] or needs[1] or needs[2] else None
        weight = _unpack(node, node.s_weight) if needs[0] or needs[1] or needs[2] else None
        running_mean = _unpack(node, node.s_running_mean) if needs[0] or needs[1] or needs[2] else None
        running_var = _unpack(node, node.s_running_var) if needs[0] or needs[1] or needs[2] else None
        save_mean = _unpack(node, node.s_save_mean) if needs[0] or needs[1] or needs[2] else None
        save_invstd = _unpack(node, node.s_save_invstd) if needs[0] or needs[1] or needs[2] else None
        train = node.s_train
        eps = node.s_eps
        g_grad_out = g_input = g_weight = g_running_mean = g_running_var = g_save_mean = g_save_invstd = None
        grad_input_mask = needs
        if needs[0] or needs[1] or needs[2]:
            g_grad_out, g_input, g_weight, = batch_norm_double_backward(grads, grad_out, input, weight, running_mean, running_var, save_mean, save_invstd, train, eps, grad_input_mask)
        return (g_grad_out, g_input, g_weight, g_running_mean, g_running_var, g_save_mean, g_save_invstd)


def autograd_native_batch_norm_backward(grad_out, input, weight, running_mean, running_var, save_mean, save_invstd, train, eps, output_mask):
    result = _op.native_batch_norm_backward.redispatch(_AUTOGRAD, grad_out, input, weight, running_mean, running_var, save_mean, save_invstd, train, eps, output_mask)
    node = NativeBatchNormBackwardBackward()
    if _connect_tensors(node, (grad_out, input, weight, running_mean, running_var, save_mean, save_invstd)):
        needs = node.needs_input_grad
        if needs[0] or needs[1] or needs[2]:
            node.s_grad_out = _save(grad_out)
        if needs[0] or needs[1] or needs[2]:
            node.s_input = _save(input)
        if needs[0] or needs[1] or needs[2]:
            node.s_weight = _save(weight)
        if needs[0] or needs[1] or needs[2]:
            node.s_running_mean = _save(running_mean)
        if needs[0] or needs[1] or needs[2]:
            node.s_running_var = _save(running_var)
        if needs[0] or needs[1] or needs[2]:
            node.s_save_mean = _save(save_mean)
        if needs[0] or needs[1] or needs[2]:
            node.s_save_invstd = _save(save_invstd)
        node.s_train = train
        node.s_eps = eps
        _set_history(node, result, None)
    return result


KERNELS['native_batch_norm_backward'] = autograd_native_batch_norm_backward
NODES['native_batch_norm_backward'] = NativeBatchNormBackwardBackward


class NativeLayerNormBackward(_Node):
    __slots__ = ('s_input', 's_normalized_shape', 's_weight', 's_bias', 's_eps', 'o_result1', 'o_result2')
    op_name = 'native_layer_norm'

    def apply(node, grads):
        grad = grads[0]
        needs = node.needs_input_grad
        input = _unpack(node, node.s_input)
        normalized_shape = node.s_normalized_shape
        weight = _unpack(node, node.s_weight)
        bias = _unpack(node, node.s_bias)
        eps = node.s_eps
        result1 = _unpack(node, node.o_result1)
        result2 = _unpack(node, node.o_result2)
        g_input = g_weight = g_bias = None
        grad_input_mask = needs
        if needs[0] or needs[1] or needs[2]:
            g_input, g_weight, g_bias, = native_layer_norm_backward(grad, input, normalized_shape, result1, result2, weight, bias, grad_input_mask, eps)
        return (g_input, g_weight, g_bias)


def autograd_native_layer_norm(input, normalized_shape, weight, bias, eps):
    result = _op.native_layer_norm.redispatch(_AUTOGRAD, input, normalized_shape, weight, bias, eps)
    node = NativeLayerNormBackward()
    if _connect_tensors(node, (input, weight, bias)):
        node.s_input = _save(input)
        node.s_normalized_shape = normalized_shape
        node.s_weight = _save(weight)
        node.s_bias = _save(bias)
        node.s_eps = eps
        node.o_result1 = _save_output(result[1], 1)
        node.o_result2 = _save_output(result[2], 2)
        _set_history(node, result, (True, False, False))
    return result


KERNELS['native_layer_norm'] = autograd_native_layer_norm
NODES['native_layer_norm'] = NativeLayerNormBackward


class NativeLayerNormBackwardBackward(_Node):
    __slots__ = ('s_grad_out', 's_input', 's_normalized_shape', 's_mean', 's_rstd', 's_weight')
    op_name = 'native_layer_norm_backward'

    def apply(node, grads):
        grad = grads[0]
        needs = node.needs_input_grad
        grad_out = _unpack(node, node.s_grad_out) if needs[0] or needs[1] or needs[4] else None
        input = _unpack(node, node.s_input) if needs[0] or needs[1] or needs[4] else None
        normalized_shape = node.s_normalized_shape
        mean = _unpack(node, node.s_mean) if needs[0] or needs[1] or needs[4] else None
        rstd = _unpack(node, node.s_rstd) if needs[0] or needs[1] or needs[4] else None
        weight = _unpack(node, node.s_weight) if needs[0] or needs[1] or needs[4] else None
        g_grad_out = g_input = g_mean = g_rstd = g_weight = g_bias = None
        grad_input_mask = needs
        if needs[0] or needs[1] or needs[4]:
            g_grad_out, g_input, g_weight, = layer_norm_double_backward(grads, grad_out, input, normalized_shape, mean, rstd, weight, grad_input_mask)
        return (g_grad_out, g_input, g_mean, g_rstd, g_weight, g_bias)


def autograd_native_layer_norm_backward(grad_out, input, normalized_shape, mean, rstd, weight, bias, output_mask, eps):
    result = _op.native_layer_norm_backward.redispatch(_AUTOGRAD, grad_out, input, normalized_shape, mean, rstd, weight, bias, output_mask, eps)
    node = NativeLayerNormBackwardBackward()
    if _connect_tensors(node, (grad_out, input, mean, rstd, weight, bias)):
        needs = node.needs_input_grad
        if needs[0] or needs[1] or needs[4]:
            node.s_grad_out = _save(grad_out)
        if needs[0] or needs[1] or needs[4]:
            node.s_input = _save(input)
        node.s_normalized_shape = normalized_shape
        if needs[0] or needs[1] or needs[4]:
            node.s_mean = _save(mean)
        if needs[0] or needs[1] or needs[4]:
            node.s_rstd = _save(rstd)
        if needs[0] or needs[1] or needs[4]:
            node.s_weight = _save(weight)
        _set_history(node, result, None)
    return result


KERNELS['native_layer_norm_backward'] = autograd_native_layer_norm_backward
NODES['native_layer_norm_backward'] = NativeLayerNormBackwardBackward


class NativeGroupNormBackward(_Node):
    __slots__ = ('s_input', 's_weight', 's_N', 's_C', 's_HxW', 's_group', 's_eps', 'o_result1', 'o_result2')
    op_name = 'native_group_norm'

    def apply(node, grads):
        grad = grads[0]
        needs = node.needs_input_grad
        input = _unpack(node, node.s_input)
        weight = _unpack(node, node.s_weight)
        N = node.s_N
        C = node.s_C
        HxW = node.s_HxW
        group = node.s_group
        eps = node.s_eps
        result1 = _unpack(node, node.o_result1)
        result2 = _unpack(node, node.o_result2)
        g_input = g_weight = g_bias = None
        grad_input_mask = needs
        if needs[0] or needs[1] or needs[2]:
            g_input, g_weight, g_bias, = group_norm_backward(grads, input, result1, result2, weight, N, C, HxW, group, grad_input_mask, eps)
        return (g_input, g_weight, g_bias)


def autograd_native_group_norm(input, weight, bias, N, C, HxW, group, eps):
    result = _op.native_group_norm.redispatch(_AUTOGRAD, input, weight, bias, N, C, HxW, group, eps)
    node = NativeGroupNormBackward()
    if _connect_tensors(node, (input, weight, bias)):
        node.s_input = _save(input)
        node.s_weight = _save(weight)
        node.s_N = N
        node.s_C = C
        node.s_HxW = HxW
        node.s_group = group
        node.s_eps = eps
        node.o_result1 = _save_output(result[1], 1)
        node.o_result2 = _save_output(result[2], 2)
        _set_history(node, result, None)
    return result


KERNELS['native_group_norm'] = autograd_native_group_norm
NODES['native_group_norm'] = NativeGroupNormBackward


class NativeGroupNormBackwardBackward(_Node):
    __slots__ = ('s_grad_out', 's_input', 's_mean', 's_rstd', 's_weight', 's_group')
    op_name = 'native_group_norm_backward'

    def apply(node, grads):
        grad = grads[0]
        needs = node.needs_input_grad
        grad_out = _unpack(node, node.s_grad_out) if needs[0] or needs[1] or needs[4] else None
        input = _unpack(node, node.s_input) if needs[0] or needs[1] or needs[4] else None
        mean = _unpack(node, node.s_mean) if needs[0] or needs[1] or needs[4] else None
        rstd = _unpack(node, node.s_rstd) if needs[0] or needs[1] or needs[4] else None
        weight = _unpack(node, node.s_weight) if needs[0] or needs[1] or needs[4] else None
        group = node.s_group
        g_grad_out = g_input = g_mean = g_rstd = g_weight = None
        grad_input_mask = needs
        if needs[0] or needs[1] or needs[4]:
            g_grad_out, g_input, g_weight, = group_norm_double_backward(grads, grad_out, input, mean, rstd, weight, group, grad_input_mask)
        return (g_grad_out, g_input, g_mean, g_rstd, g_weight)


def autograd_native_group_norm_backward(grad_out, input, mean, rstd, weight, N, C, HxW, group, output_mask, eps):
    result = _op.native_group_norm_backward.redispatch(_AUTOGRAD, grad_out, input, mean, rstd, weight, N, C, HxW, group, output_mask, eps)
    node = NativeGroupNormBackwardBackward()
    if _connect_tensors(node, (grad_out, input, mean, rstd, weight)):
        needs = node.needs_input_grad
        if needs[0] or needs[1] or needs[4]:
            node.s_grad_out = _save(grad_out)
        if needs[0] or needs[1] or needs[4]:
            node.s_input = _save(input)
        if needs[0] or needs[1] or needs[4]:
            node.s_mean = _save(mean)
        if needs[0] or needs[1] or needs[4]:
            node.s_rstd = _save(rstd)
        if needs[0] or needs[1] or needs[4]:
            node.s_weight = _save(weight)
        node.s_group = group
        _set_history(node, result, None)
    return result


KERNELS['native_group_norm_backward'] = autograd_native_group_norm_backward
NODES['native_group_norm_backward'] = NativeGroupNormBackwardBackward


class ScaledDotProductAttentionFlashBackward(_Node):
    __slots__ = ('s_query', 's_key', 's_value', 's_attn_mask', 's_dropout_p', 's_is_causal', 's_scale', 's_enable_gqa', 'o_result0', 'o_result1', 'o_result2')
    op_name = '_scaled_dot_product_attention_flash'

    def apply(node, grads):
        grad = grads[0]
        needs = node.needs_input_grad
        query = _unpack(node, node.s_query)
        key = _unpack(node, node.s_key)
        value = _unpack(node, node.s_value)
        attn_mask = _unpack(node, node.s_attn_mask)
        dropout_p = node.s_dropout_p
        is_causal = node.s_is_causal
        scale = node.s_scale
        enable_gqa = node.s_enable_gqa
        result0 = _unpack(node, node.o_result0)
        result1 = _unpack(node, node.o_result1)
        result2 = _unpack(node, node.o_result2)
        g_query = g_key = g_value = g_attn_mask = None
        grad_input_mask = needs
        if needs[0] or needs[1] or needs[2] or needs[3]:
            g_query, g_key, g_value, g_attn_mask, = _scaled_dot_product_attention_flash_backward(grad, query, key, value, attn_mask, result0, result1, result2, dropout_p, is_causal, scale, enable_gqa, grad_input_mask)
        return (g_query, g_key, g_value, g_attn_mask)


def autograd__scaled_dot_product_attention_flash(query, key, value, attn_mask, dropout_p, is_causal, scale, enable_gqa):
    result = _op._scaled_dot_product_attention_flash.redispatch(_AUTOGRAD, query, key, value, attn_mask, dropout_p, is_causal, scale, enable_gqa)
    node = ScaledDotProductAttentionFlashBackward()
    if _connect_tensors(node, (query, key, value, attn_mask)):
        node.s_query = _save(query)
        node.s_key = _save(key)
        node.s_value = _save(value)
        node.s_attn_mask = _save(attn_mask)
        node.s_dropout_p = dropout_p
        node.s_is_causal = is_causal
        node.s_scale = scale
        node.s_enable_gqa = enable_gqa
        node.o_result0 = _save_output(result[0], 0)
        node.o_result1 = _save_output(result[1], 1)
        node.o_result2 = _save_output(result[2], 2)
        _set_history(node, result, (True, False, False))
    return result


KERNELS['_scaled_dot_product_attention_flash'] = autograd__scaled_dot_product_attention_flash
NODES['_scaled_dot_product_attention_flash'] = ScaledDotProductAttentionFlashBackward


class RnnLayerBackward(_Node):
    __slots__ = ('s_weight_hh', 's_weight_hr', 's_mode', 's_batch_sizes', 's_reverse', 'o_workspace')
    op_name = '_rnn_layer'

    def apply(node, grads):
        grad = grads[0]
        needs = node.needs_input_grad
        weight_hh = _unpack(node, node.s_weight_hh)
        weight_hr = _unpack(node, node.s_weight_hr)
        mode = node.s_mode
        batch_sizes = node.s_batch_sizes
        reverse = node.s_reverse
        workspace = _unpack(node, node.o_workspace)
        g_input_gates = g_hx = g_cx = g_weight_hh = g_bias_hh = g_weight_hr = None
        grad_input_mask = needs
        if needs[0] or needs[1] or needs[2] or needs[3] or needs[4] or needs[5]:
            g_input_gates, g_hx, g_cx, g_weight_hh, g_bias_hh, g_weight_hr, = _rnn_layer_backward(grads[0], grads[1], grads[2], weight_hh, weight_hr, workspace, mode, batch_sizes, reverse, grad_input_mask)
        return (g_input_gates, g_hx, g_cx, g_weight_hh, g_bias_hh, g_weight_hr)


def autograd__rnn_layer(input_gates, hx, cx, weight_hh, bias_hh, weight_hr, mode, batch_sizes, reverse):
    result = _op._rnn_layer.redispatch(_AUTOGRAD, input_gates, hx, cx, weight_hh, bias_hh, weight_hr, mode, batch_sizes, reverse)
    node = RnnLayerBackward()
    if _connect_tensors(node, (input_gates, hx, cx, weight_hh, bias_hh, weight_hr)):
        node.s_weight_hh = _save(weight_hh)
        node.s_weight_hr = _save(weight_hr)
        node.s_mode = mode
        node.s_batch_sizes = batch_sizes
        node.s_reverse = reverse
        node.o_workspace = _save_output(result[3], 3)
        _set_history(node, result, (True, True, True, False))
    return result


KERNELS['_rnn_layer'] = autograd__rnn_layer
NODES['_rnn_layer'] = RnnLayerBackward


class NllLossBackward(_Node):
    __slots__ = ('s_self', 's_target', 's_weight', 's_reduction', 's_ignore_index')
    op_name = '_nll_loss'

    def apply(node, grads):
        grad = grads[0]
        needs = node.needs_input_grad
        self = _unpack(node, node.s_self) if needs[0] else None
        target = _unpack(node, node.s_target) if needs[0] else None
        weight = _unpack(node, node.s_weight) if needs[0] else None
        reduction = node.s_reduction
        ignore_index = node.s_ignore_index
        g_self = g_target = g_weight = None
        grad_input_mask = needs
        if needs[0]:
            g_self = _nll_loss_backward(grad, self, target, weight, reduction, ignore_index)
        return (g_self, g_target, g_weight)


def autograd__nll_loss(self, target, weight, reduction, ignore_index):
    result = _op._nll_loss.redispatch(_AUTOGRAD, self, target, weight, reduction, ignore_index)
    node = NllLossBackward()
    if _connect_tensors(node, (self, target, weight)):
        needs = node.needs_input_grad
        if needs[0]:
            node.s_self = _save(self)
        if needs[0]:
            node.s_target = _save(target)
        if needs[0]:
            node.s_weight = _save(weight)
        node.s_reduction = reduction
        node.s_ignore_index = ignore_index
        _set_history(node, result, None)
    return result


KERNELS['_nll_loss'] = autograd__nll_loss
NODES['_nll_loss'] = NllLossBackward


class NllLossBackwardBackward(_Node):
    __slots__ = ('s_target', 's_weight', 's_reduction', 's_ignore_index')
    op_name = '_nll_loss_backward'

    def apply(node, grads):
        grad = grads[0]
        needs = node.needs_input_grad
        target = _unpack(node, node.s_target) if needs[0] else None
        weight = _unpack(node, node.s_weight) if needs[0] else None
        reduction = node.s_reduction
        ignore_index = node.s_ignore_index
        g_grad_output = g_self = g_target = g_weight = None
        grad_input_mask = needs
        if needs[0]:
            g_grad_output = _nll_loss(grad, target, weight, reduction, ignore_index)
        return (g_grad_output, g_self, g_target, g_weight)


def autograd__nll_loss_backward(grad_output, self, target, weight, reduction, ignore_index):
    result = _op._nll_loss_backward.redispatch(_AUTOGRAD, grad_output, self, target, weight, reduction, ignore_index)
    node = NllLossBackwardBackward()
    if _connect_tensors(node, (grad_output, self, target, weight)):
        needs = node.needs_input_grad
        if needs[0]:
            node.s_target = _save(target)
        if needs[0]:
            node.s_weight = _save(weight)
        node.s_reduction = reduction
        node.s_ignore_index = ignore_index
        _set_history(node, result, None)
    return result


KERNELS['_nll_loss_backward'] = autograd__nll_loss_backward
NODES['_nll_loss_backward'] = NllLossBackwardBackward


def autograd_abs_(self):
    return _inplace(_op.abs_, _op.abs, True, (self,))


KERNELS['abs_'] = autograd_abs_


def autograd_neg_(self):
    return _inplace(_op.neg_, _op.neg, False, (self,))


KERNELS['neg_'] = autograd_neg_


def autograd_exp_(self):
    return _inplace(_op.exp_, _op.exp, False, (self,))


KERNELS['exp_'] = autograd_exp_


def autograd_exp2_(self):
    return _inplace(_op.exp2_, _op.exp2, False, (self,))


KERNELS['exp2_'] = autograd_exp2_


def autograd_expm1_(self):
    return _inplace(_op.expm1_, _op.expm1, False, (self,))


KERNELS['expm1_'] = autograd_expm1_


def autograd_log_(self):
    return _inplace(_op.log_, _op.log, True, (self,))


KERNELS['log_'] = autograd_log_


def autograd_log2_(self):
    return _inplace(_op.log2_, _op.log2, True, (self,))


KERNELS['log2_'] = autograd_log2_


def autograd_log10_(self):
    return _inplace(_op.log10_, _op.log10, True, (self,))


KERNELS['log10_'] = autograd_log10_


def autograd_log1p_(self):
    return _inplace(_op.log1p_, _op.log1p, True, (self,))


KERNELS['log1p_'] = autograd_log1p_


def autograd_sqrt_(self):
    return _inplace(_op.sqrt_, _op.sqrt, False, (self,))


KERNELS['sqrt_'] = autograd_sqrt_


def autograd_rsqrt_(self):
    return _inplace(_op.rsqrt_, _op.rsqrt, False, (self,))


KERNELS['rsqrt_'] = autograd_rsqrt_


def autograd_sin_(self):
    return _inplace(_op.sin_, _op.sin, True, (self,))


KERNELS['sin_'] = autograd_sin_


def autograd_cos_(self):
    return _inplace(_op.cos_, _op.cos, True, (self,))


KERNELS['cos_'] = autograd_cos_


def autograd_tan_(self):
    return _inplace(_op.tan_, _op.tan, False, (self,))


KERNELS['tan_'] = autograd_tan_


def autograd_asin_(self):
    return _inplace(_op.asin_, _op.asin, True, (self,))


KERNELS['asin_'] = autograd_asin_


def autograd_acos_(self):
    return _inplace(_op.acos_, _op.acos, True, (self,))


KERNELS['acos_'] = autograd_acos_


def autograd_atan_(self):
    return _inplace(_op.atan_, _op.atan, True, (self,))


KERNELS['atan_'] = autograd_atan_


def autograd_sinh_(self):
    return _inplace(_op.sinh_, _op.sinh, True, (self,))


KERNELS['sinh_'] = autograd_sinh_


def autograd_cosh_(self):
    return _inplace(_op.cosh_, _op.cosh, True, (self,))


KERNELS['cosh_'] = autograd_cosh_


def autograd_tanh_(self):
    return _inplace(_op.tanh_, _op.tanh, False, (self,))


KERNELS['tanh_'] = autograd_tanh_


def autograd_sigmoid_(self):
    return _inplace(_op.sigmoid_, _op.sigmoid, False, (self,))


KERNELS['sigmoid_'] = autograd_sigmoid_


def autograd_relu_(self):
    return _inplace(_op.relu_, _op.relu, False, (self,))


KERNELS['relu_'] = autograd_relu_


def autograd_erf_(self):
    return _inplace(_op.erf_, _op.erf, True, (self,))


KERNELS['erf_'] = autograd_erf_


def autograd_erfc_(self):
    return _inplace(_op.erfc_, _op.erfc, True, (self,))


KERNELS['erfc_'] = autograd_erfc_


def autograd_erfinv_(self):
    return _inplace(_op.erfinv_, _op.erfinv, False, (self,))


KERNELS['erfinv_'] = autograd_erfinv_


def autograd_sign_(self):
    return _inplace(_op.sign_, _op.sign, False, (self,))


KERNELS['sign_'] = autograd_sign_


def autograd_floor_(self):
    return _inplace(_op.floor_, _op.floor, False, (self,))


KERNELS['floor_'] = autograd_floor_


def autograd_ceil_(self):
    return _inplace(_op.ceil_, _op.ceil, False, (self,))


KERNELS['ceil_'] = autograd_ceil_


def autograd_round_(self, decimals):
    return _inplace(_op.round_, _op.round, False, (self, decimals,))


KERNELS['round_'] = autograd_round_


def autograd_trunc_(self):
    return _inplace(_op.trunc_, _op.trunc, False, (self,))


KERNELS['trunc_'] = autograd_trunc_


def autograd_frac_(self):
    return _inplace(_op.frac_, _op.frac, False, (self,))


KERNELS['frac_'] = autograd_frac_


def autograd_reciprocal_(self):
    return _inplace(_op.reciprocal_, _op.reciprocal, False, (self,))


KERNELS['reciprocal_'] = autograd_reciprocal_


def autograd_square_(self):
    return _inplace(_op.square_, _op.square, True, (self,))


KERNELS['square_'] = autograd_square_


def autograd_clamp_(self, min, max):
    return _inplace(_op.clamp_, _op.clamp, True, (self, min, max,))


KERNELS['clamp_'] = autograd_clamp_


def autograd_nan_to_num_(self, nan, posinf, neginf):
    return _inplace(_op.nan_to_num_, _op.nan_to_num, True, (self, nan, posinf, neginf,))


KERNELS['nan_to_num_'] = autograd_nan_to_num_


def autograd_add_(self, other, alpha):
    return _inplace(_op.add_, _op.add, False, (self, other, alpha,))


KERNELS['add_'] = autograd_add_


def autograd_sub_(self, other, alpha):
    return _inplace(_op.sub_, _op.sub, False, (self, other, alpha,))


KERNELS['sub_'] = autograd_sub_


def autograd_mul_(self, other):
    return _inplace(_op.mul_, _op.mul, _needs_grad(other), (self, other,))


KERNELS['mul_'] = autograd_mul_


def autograd_div_(self, other, rounding_mode):
    return _inplace(_op.div_, _op.div, _needs_grad(other), (self, other, rounding_mode,))


KERNELS['div_'] = autograd_div_


def autograd_pow_(self, exponent):
    return _inplace(_op.pow_, _op.pow, True, (self, exponent,))


KERNELS['pow_'] = autograd_pow_


def autograd_remainder_(self, other):
    return _inplace(_op.remainder_, _op.remainder, _needs_grad(other), (self, other,))


KERNELS['remainder_'] = autograd_remainder_


def autograd_fmod_(self, other):
    return _inplace(_op.fmod_, _op.fmod, _needs_grad(other), (self, other,))


KERNELS['fmod_'] = autograd_fmod_


def autograd_atan2_(self, other):
    return _inplace(_op.atan2_, _op.atan2, True, (self, other,))


KERNELS['atan2_'] = autograd_atan2_


def autograd_hypot_(self, other):
    return _inplace(_op.hypot_, _op.hypot, _needs_grad(self), (self, other,))


KERNELS['hypot_'] = autograd_hypot_


def autograd_copysign_(self, other):
    return _inplace(_op.copysign_, _op.copysign, _needs_grad(self), (self, other,))


KERNELS['copysign_'] = autograd_copysign_


def autograd_xlogy_(self, other):
    return _inplace(_op.xlogy_, _op.xlogy, True, (self, other,))


KERNELS['xlogy_'] = autograd_xlogy_


def autograd_lerp_(self, end, weight):
    return _inplace(_op.lerp_, _op.lerp, _needs_grad(weight), (self, end, weight,))


KERNELS['lerp_'] = autograd_lerp_


def autograd_addcmul_(self, tensor1, tensor2, value):
    return _inplace(_op.addcmul_, _op.addcmul, False, (self, tensor1, tensor2, value,))


KERNELS['addcmul_'] = autograd_addcmul_


def autograd_addcdiv_(self, tensor1, tensor2, value):
    return _inplace(_op.addcdiv_, _op.addcdiv, False, (self, tensor1, tensor2, value,))


KERNELS['addcdiv_'] = autograd_addcdiv_


def autograd_acosh_(self):
    return _inplace(_op.acosh_, _op.acosh, True, (self,))


KERNELS['acosh_'] = autograd_acosh_


def autograd_asinh_(self):
    return _inplace(_op.asinh_, _op.asinh, True, (self,))


KERNELS['asinh_'] = autograd_asinh_


def autograd_atanh_(self):
    return _inplace(_op.atanh_, _op.atanh, True, (self,))


KERNELS['atanh_'] = autograd_atanh_


def autograd_deg2rad_(self):
    return _inplace(_op.deg2rad_, _op.deg2rad, False, (self,))


KERNELS['deg2rad_'] = autograd_deg2rad_


def autograd_rad2deg_(self):
    return _inplace(_op.rad2deg_, _op.rad2deg, False, (self,))


KERNELS['rad2deg_'] = autograd_rad2deg_


def autograd_sinc_(self):
    return _inplace(_op.sinc_, _op.sinc, True, (self,))


KERNELS['sinc_'] = autograd_sinc_


def autograd_lgamma_(self):
    return _inplace(_op.lgamma_, _op.lgamma, True, (self,))


KERNELS['lgamma_'] = autograd_lgamma_


def autograd_digamma_(self):
    return _inplace(_op.digamma_, _op.digamma, True, (self,))


KERNELS['digamma_'] = autograd_digamma_


def autograd_i0_(self):
    return _inplace(_op.i0_, _op.i0, True, (self,))


KERNELS['i0_'] = autograd_i0_


def autograd_tril_(self, diagonal):
    return _inplace(_op.tril_, _op.tril, False, (self, diagonal,))


KERNELS['tril_'] = autograd_tril_


def autograd_triu_(self, diagonal):
    return _inplace(_op.triu_, _op.triu, False, (self, diagonal,))


KERNELS['triu_'] = autograd_triu_


def autograd_scatter__src(self, dim, index, src):
    return _inplace(_op.scatter__src, _op.scatter_src, False, (self, dim, index, src,))


KERNELS['scatter_.src'] = autograd_scatter__src


def autograd_scatter__value(self, dim, index, value):
    return _inplace(_op.scatter__value, _op.scatter_value, False, (self, dim, index, value,))


KERNELS['scatter_.value'] = autograd_scatter__value


def autograd_scatter_add_(self, dim, index, src):
    return _inplace(_op.scatter_add_, _op.scatter_add, False, (self, dim, index, src,))


KERNELS['scatter_add_'] = autograd_scatter_add_


def autograd_index_add_(self, dim, index, source, alpha):
    return _inplace(_op.index_add_, _op.index_add, False, (self, dim, index, source, alpha,))


KERNELS['index_add_'] = autograd_index_add_


def autograd_index_put_(self, indices, values, accumulate):
    return _inplace(_op.index_put_, _op.index_put, False, (self, indices, values, accumulate,))


KERNELS['index_put_'] = autograd_index_put_


def autograd_masked_fill__Tensor(self, mask, value):
    return _inplace(_op.masked_fill__Tensor, _op.masked_fill_Tensor, False, (self, mask, value,))


KERNELS['masked_fill_.Tensor'] = autograd_masked_fill__Tensor


def autograd_masked_fill_(self, mask, value):
    return _inplace(_op.masked_fill_, _op.masked_fill, False, (self, mask, value,))


KERNELS['masked_fill_'] = autograd_masked_fill_


def autograd_index_fill__int_Tensor(self, dim, index, value):
    return _inplace(_op.index_fill__int_Tensor, _op.index_fill_int_Tensor, False, (self, dim, index, value,))


KERNELS['index_fill_.int_Tensor'] = autograd_index_fill__int_Tensor


def autograd_index_fill__int_Scalar(self, dim, index, value):
    return _inplace(_op.index_fill__int_Scalar, _op.index_fill_int_Scalar, False, (self, dim, index, value,))


KERNELS['index_fill_.int_Scalar'] = autograd_index_fill__int_Scalar


def autograd_scatter__reduce(self, dim, index, src, reduce):
    return _inplace(_op.scatter__reduce, _op.scatter_reduce, True, (self, dim, index, src, reduce,))


KERNELS['scatter_.reduce'] = autograd_scatter__reduce


def autograd_scatter__value_reduce(self, dim, index, value, reduce):
    return _inplace(_op.scatter__value_reduce, _op.scatter_value_reduce, True, (self, dim, index, value, reduce,))


KERNELS['scatter_.value_reduce'] = autograd_scatter__value_reduce
