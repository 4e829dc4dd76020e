# @generated from ops.yaml by `python -m codegen` — do not edit.
# ruff: noqa
"""numpy kernels generated from the pointwise snippets in ops.yaml.

Each kernel converts its tensor arguments to arrays of the computation dtype
(``prepare``), evaluates the snippet, and wraps the array as the output dtype.
"""

from volta.backends.cpu import pointwise_math as _pm
from volta.backends.cpu.pointwise_runtime import prepare as _prepare
from volta.backends.cpu.pointwise_runtime import quiet_off as _quiet_off
from volta.backends.cpu.pointwise_runtime import quiet_on as _quiet_on
from volta.backends.cpu.pointwise_runtime import scalar_argument as _scalar
from volta.backends.cpu.pointwise_runtime import wrap as _wrap

KERNELS = {}


def abs(self):
    (self,), out_dtype = _prepare('abs', 'default', 'numeric', self)
    return _wrap(_pm.abs(self), out_dtype)


KERNELS['abs'] = abs


def neg(self):
    (self,), out_dtype = _prepare('neg', 'default', 'numeric', self)
    _token = _quiet_on()
    try:
        return _wrap(-self, out_dtype)
    finally:
        _quiet_off(_token)


KERNELS['neg'] = neg


def exp(self):
    (self,), out_dtype = _prepare('exp', 'int_to_float', None, self)
    _token = _quiet_on()
    try:
        return _wrap(_pm.exp(self), out_dtype)
    finally:
        _quiet_off(_token)


KERNELS['exp'] = exp


def exp2(self):
    (self,), out_dtype = _prepare('exp2', 'int_to_float', None, self)
    _token = _quiet_on()
    try:
        return _wrap(_pm.exp2(self), out_dtype)
    finally:
        _quiet_off(_token)


KERNELS['exp2'] = exp2


def expm1(self):
    (self,), out_dtype = _prepare('expm1', 'int_to_float', None, self)
    _token = _quiet_on()
    try:
        return _wrap(_pm.expm1(self), out_dtype)
    finally:
        _quiet_off(_token)


KERNELS['expm1'] = expm1


def log(self):
    (self,), out_dtype = _prepare('log', 'int_to_float', None, self)
    _token = _quiet_on()
    try:
        return _wrap(_pm.log(self), out_dtype)
    finally:
        _quiet_off(_token)


KERNELS['log'] = log


def log2(self):
    (self,), out_dtype = _prepare('log2', 'int_to_float', None, self)
    _token = _quiet_on()
    try:
        return _wrap(_pm.log2(self), out_dtype)
    finally:
        _quiet_off(_token)


KERNELS['log2'] = log2


def log10(self):
    (self,), out_dtype = _prepare('log10', 'int_to_float', None, self)
    _token = _quiet_on()
    try:
        return _wrap(_pm.log10(self), out_dtype)
    finally:
        _quiet_off(_token)


KERNELS['log10'] = log10


def log1p(self):
    (self,), out_dtype = _prepare('log1p', 'int_to_float', None, self)
    _token = _quiet_on()
    try:
        return _wrap(_pm.log1p(self), out_dtype)
    finally:
        _quiet_off(_token)


KERNELS['log1p'] = log1p


def sqrt(self):
    (self,), out_dtype = _prepare('sqrt', 'int_to_float', None, self)
    _token = _quiet_on()
    try:
        return _wrap(_pm.sqrt(self), out_dtype)
    finally:
        _quiet_off(_token)


KERNELS['sqrt'] = sqrt


def rsqrt(self):
    (self,), out_dtype = _prepare('rsqrt', 'int_to_float', None, self)
    _token = _quiet_on()
    try:
        return _wrap(_pm.rsqrt(self), out_dtype)
    finally:
        _quiet_off(_token)


KERNELS['rsqrt'] = rsqrt


def sin(self):
    (self,), out_dtype = _prepare('sin', 'int_to_float', None, self)
    return _wrap(_pm.sin(self), out_dtype)


KERNELS['sin'] = sin


def cos(self):
    (self,), out_dtype = _prepare('cos', 'int_to_float', None, self)
    return _wrap(_pm.cos(self), out_dtype)


KERNELS['cos'] = cos


def tan(self):
    (self,), out_dtype = _prepare('tan', 'int_to_float', None, self)
    _token = _quiet_on()
    try:
        return _wrap(_pm.tan(self), out_dtype)
    finally:
        _quiet_off(_token)


KERNELS['tan'] = tan


def asin(self):
    (self,), out_dtype = _prepare('asin', 'int_to_float', None, self)
    _token = _quiet_on()
    try:
        return _wrap(_pm.asin(self), out_dtype)
    finally:
        _quiet_off(_token)


KERNELS['asin'] = asin


def acos(self):
    (self,), out_dtype = _prepare('acos', 'int_to_float', None, self)
    _token = _quiet_on()
    try:
        return _wrap(_pm.acos(self), out_dtype)
    finally:
        _quiet_off(_token)


KERNELS['acos'] = acos


def atan(self):
    (self,), out_dtype = _prepare('atan', 'int_to_float', None, self)
    _token = _quiet_on()
    try:
        return _wrap(_pm.atan(self), out_dtype)
    finally:
        _quiet_off(_token)


KERNELS['atan'] = atan


def sinh(self):
    (self,), out_dtype = _prepare('sinh', 'int_to_float', None, self)
    _token = _quiet_on()
    try:
        return _wrap(_pm.sinh(self), out_dtype)
    finally:
        _quiet_off(_token)


KERNELS['sinh'] = sinh


def cosh(self):
    (self,), out_dtype = _prepare('cosh', 'int_to_float', None, self)
    _token = _quiet_on()
    try:
        return _wrap(_pm.cosh(self), out_dtype)
    finally:
        _quiet_off(_token)


KERNELS['cosh'] = cosh


def tanh(self):
    (self,), out_dtype = _prepare('tanh', 'int_to_float', None, self)
    return _wrap(_pm.tanh(self), out_dtype)


KERNELS['tanh'] = tanh


def tanh_backward(grad_output, output):
    (grad_output, output), out_dtype = _prepare('tanh_backward', 'default', None, grad_output, output)
    _token = _quiet_on()
    try:
        return _wrap(grad_output * (1 - output * output), out_dtype)
    finally:
        _quiet_off(_token)


KERNELS['tanh_backward'] = tanh_backward


def sigmoid(self):
    (self,), out_dtype = _prepare('sigmoid', 'int_to_float', None, self)
    _token = _quiet_on()
    try:
        return _wrap(_pm.sigmoid(self), out_dtype)
    finally:
        _quiet_off(_token)


KERNELS['sigmoid'] = sigmoid


def sigmoid_backward(grad_output, output):
    (grad_output, output), out_dtype = _prepare('sigmoid_backward', 'default', None, grad_output, output)
    _token = _quiet_on()
    try:
        return _wrap(grad_output * output * (1 - output), out_dtype)
    finally:
        _quiet_off(_token)


KERNELS['sigmoid_backward'] = sigmoid_backward


def relu(self):
    (self,), out_dtype = _prepare('relu', 'default', 'numeric', self)
    return _wrap(_pm.maximum(self, 0), out_dtype)


KERNELS['relu'] = relu


def threshold_backward(grad_output, self, threshold):
    (grad_output, self), out_dtype = _prepare('threshold_backward', 'default', None, grad_output, self)
    if threshold.__class__ is not int or threshold != 1:
        threshold = _scalar('threshold_backward', threshold, out_dtype)
    return _wrap(_pm.where(self <= threshold, 0, grad_output), out_dtype)


KERNELS['threshold_backward'] = threshold_backward


def relu6(self):
    (self,), out_dtype = _prepare('relu6', 'default', 'numeric', self)
    return _wrap(_pm.minimum(_pm.maximum(self, 0), 6), out_dtype)


KERNELS['relu6'] = relu6


def silu(self):
    (self,), out_dtype = _prepare('silu', 'int_to_float', 'floating', self)
    _token = _quiet_on()
    try:
        return _wrap(self * _pm.sigmoid(self), out_dtype)
    finally:
        _quiet_off(_token)


KERNELS['silu'] = silu


def silu_backward(grad_output, self):
    (grad_output, self), out_dtype = _prepare('silu_backward', 'default', None, grad_output, self)
    _token = _quiet_on()
    try:
        _c0 = _pm.sigmoid(self)
        return _wrap(grad_output * _c0 * (1 + self * (1 - _c0)), out_dtype)
    finally:
        _quiet_off(_token)


KERNELS['silu_backward'] = silu_backward


def mish(self):
    (self,), out_dtype = _prepare('mish', 'int_to_float', 'floating', self)
    _token = _quiet_on()
    try:
        return _wrap(self * _pm.tanh(_pm.softplus(self)), out_dtype)
    finally:
        _quiet_off(_token)


KERNELS['mish'] = mish


def softplus(self, beta, threshold):
    (self,), out_dtype = _prepare('softplus', 'int_to_float', 'floating', self)
    if beta.__class__ is not int or beta != 1:
        beta = _scalar('softplus', beta, out_dtype)
    if threshold.__class__ is not int or threshold != 1:
        threshold = _scalar('softplus', threshold, out_dtype)
    _token = _quiet_on()
    try:
        _c0 = self * beta
        return _wrap(_pm.where(_c0 > threshold, self, _pm.softplus(_c0) / beta), out_dtype)
    finally:
        _quiet_off(_token)


KERNELS['softplus'] = softplus


def softplus_backward(grad_output, self, beta, threshold):
    (grad_output, self), out_dtype = _prepare('softplus_backward', 'int_to_float', None, grad_output, self)
    if beta.__class__ is not int or beta != 1:
        beta = _scalar('softplus_backward', beta, out_dtype)
    if threshold.__class__ is not int or threshold != 1:
        threshold = _scalar('softplus_backward', threshold, out_dtype)
    _token = _quiet_on()
    try:
        _c0 = self * beta
        return _wrap(_pm.where(_c0 > threshold, grad_output, grad_output * _pm.sigmoid(_c0)), out_dtype)
    finally:
        _quiet_off(_token)


KERNELS['softplus_backward'] = softplus_backward


def elu(self, alpha, scale, input_scale):
    (self,), out_dtype = _prepare('elu', 'int_to_float', 'floating', self)
    if alpha.__class__ is not int or alpha != 1:
        alpha = _scalar('elu', alpha, out_dtype)
    if scale.__class__ is not int or scale != 1:
        scale = _scalar('elu', scale, out_dtype)
    if input_scale.__class__ is not int or input_scale != 1:
        input_scale = _scalar('elu', input_scale, out_dtype)
    _token = _quiet_on()
    try:
        return _wrap(_pm.where(self > 0, self * scale, alpha * scale * _pm.expm1(_pm.minimum(self, 0) * input_scale)), out_dtype)
    finally:
        _quiet_off(_token)


KERNELS['elu'] = elu


def elu_backward(grad_output, alpha, scale, input_scale, is_result, self_or_result):
    (grad_output, self_or_result), out_dtype = _prepare('elu_backward', 'int_to_float', None, grad_output, self_or_result)
    if alpha.__class__ is not int or alpha != 1:
        alpha = _scalar('elu_backward', alpha, out_dtype)
    if scale.__class__ is not int or scale != 1:
        scale = _scalar('elu_backward', scale, out_dtype)
    if input_scale.__class__ is not int or input_scale != 1:
        input_scale = _scalar('elu_backward', input_scale, out_dtype)
    _token = _quiet_on()
    try:
        return _wrap(_pm.where(self_or_result > 0, grad_output * scale, grad_output * input_scale * (self_or_result + alpha * scale) if is_result else grad_output * (alpha * scale * input_scale) * _pm.exp(self_or_result * input_scale)), out_dtype)
    finally:
        _quiet_off(_token)


KERNELS['elu_backward'] = elu_backward


def selu(self):
    (self,), out_dtype = _prepare('selu', 'int_to_float', 'floating', self)
    _token = _quiet_on()
    try:
        return _wrap(1.0507009873554805 * _pm.where(self > 0, self, 1.6732632423543772 * _pm.expm1(_pm.minimum(self, 0))), out_dtype)
    finally:
        _quiet_off(_token)


KERNELS['selu'] = selu


def leaky_relu(self, negative_slope):
    (self,), out_dtype = _prepare('leaky_relu', 'default', 'floating', self)
    if negative_slope.__class__ is not int or negative_slope != 1:
        negative_slope = _scalar('leaky_relu', negative_slope, out_dtype)
    _token = _quiet_on()
    try:
        return _wrap(_pm.maximum(self, self * negative_slope) if (negative_slope > 0) & (negative_slope <= 1) else _pm.where(self > 0, self, self * negative_slope), out_dtype)
    finally:
        _quiet_off(_token)


KERNELS['leaky_relu'] = leaky_relu


def leaky_relu_backward(grad_output, self, negative_slope, self_is_result):
    (grad_output, self), out_dtype = _prepare('leaky_relu_backward', 'default', None, grad_output, self)
    if negative_slope.__class__ is not int or negative_slope != 1:
        negative_slope = _scalar('leaky_relu_backward', negative_slope, out_dtype)
    _token = _quiet_on()
    try:
        return _wrap(_pm.where(self > 0, grad_output, grad_output * negative_slope), out_dtype)
    finally:
        _quiet_off(_token)


KERNELS['leaky_relu_backward'] = leaky_relu_backward


def hardtanh(self, min_val, max_val):
    (self,), out_dtype = _prepare('hardtanh', 'default', 'numeric', self)
    if min_val.__class__ is not int or min_val != 1:
        min_val = _scalar('hardtanh', min_val, out_dtype)
    if max_val.__class__ is not int or max_val != 1:
        max_val = _scalar('hardtanh', max_val, out_dtype)
    return _wrap(_pm.minimum(_pm.maximum(self, min_val), max_val), out_dtype)


KERNELS['hardtanh'] = hardtanh


def hardtanh_backward(grad_output, self, min_val, max_val):
    (grad_output, self), out_dtype = _prepare('hardtanh_backward', 'default', None, grad_output, self)
    if min_val.__class__ is not int or min_val != 1:
        min_val = _scalar('hardtanh_backward', min_val, out_dtype)
    if max_val.__class__ is not int or max_val != 1:
        max_val = _scalar('hardtanh_backward', max_val, out_dtype)
    return _wrap(_pm.where((self <= min_val) | (self >= max_val), 0, grad_output), out_dtype)


KERNELS['hardtanh_backward'] = hardtanh_backward


def hardsigmoid(self):
    (self,), out_dtype = _prepare('hardsigmoid', 'int_to_float', 'floating', self)
    _token = _quiet_on()
    try:
        return _wrap(_pm.minimum(_pm.maximum(self / 6 + 0.5, 0), 1), out_dtype)
    finally:
        _quiet_off(_token)


KERNELS['hardsigmoid'] = hardsigmoid


def hardswish(self):
    (self,), out_dtype = _prepare('hardswish', 'int_to_float', 'floating', self)
    _token = _quiet_on()
    try:
        return _wrap(self * _pm.minimum(_pm.maximum(self + 3, 0), 6) / 6, out_dtype)
    finally:
        _quiet_off(_token)


KERNELS['hardswish'] = hardswish


def logsigmoid(self):
    (self,), out_dtype = _prepare('logsigmoid', 'int_to_float', 'floating', self)
    _token = _quiet_on()
    try:
        return _wrap(_pm.log_sigmoid(self), out_dtype)
    finally:
        _quiet_off(_token)


KERNELS['logsigmoid'] = logsigmoid


def log_sigmoid_backward(grad_output, self):
    (grad_output, self), out_dtype = _prepare('log_sigmoid_backward', 'int_to_float', None, grad_output, self)
    _token = _quiet_on()
    try:
        return _wrap(grad_output * _pm.sigmoid(-self), out_dtype)
    finally:
        _quiet_off(_token)


KERNELS['log_sigmoid_backward'] = log_sigmoid_backward


def softsign(self):
    (self,), out_dtype = _prepare('softsign', 'int_to_float', 'numeric', self)
    _token = _quiet_on()
    try:
        return _wrap(self / (1 + _pm.abs(self)), out_dtype)
    finally:
        _quiet_off(_token)


KERNELS['softsign'] = softsign


def erf(self):
    (self,), out_dtype = _prepare('erf', 'int_to_float', None, self)
    return _wrap(_pm.erf(self), out_dtype)


KERNELS['erf'] = erf


def erfc(self):
    (self,), out_dtype = _prepare('erfc', 'int_to_float', None, self)
    return _wrap(_pm.erfc(self), out_dtype)


KERNELS['erfc'] = erfc


def erfinv(self):
    (self,), out_dtype = _prepare('erfinv', 'int_to_float', None, self)
    _token = _quiet_on()
    try:
        return _wrap(_pm.erfinv(self), out_dtype)
    finally:
        _quiet_off(_token)


KERNELS['erfinv'] = erfinv


def sign(self):
    (self,), out_dtype = _prepare('sign', 'default', None, self)
    return _wrap(_pm.sign(self), out_dtype)


KERNELS['sign'] = sign


def floor(self):
    (self,), out_dtype = _prepare('floor', 'default', 'numeric', self)
    return _wrap(_pm.floor(self), out_dtype)


KERNELS['floor'] = floor


def ceil(self):
    (self,), out_dtype = _prepare('ceil', 'default', 'numeric', self)
    return _wrap(_pm.ceil(self), out_dtype)


KERNELS['ceil'] = ceil


def round(self, decimals):
    (self,), out_dtype = _prepare('round', 'default', 'numeric', self)
    return _wrap(_pm.round(self, decimals), out_dtype)


KERNELS['round'] = round


def trunc(self):
    (self,), out_dtype = _prepare('trunc', 'default', 'numeric', self)
    return _wrap(_pm.trunc(self), out_dtype)


KERNELS['trunc'] = trunc


def frac(self):
    (self,), out_dtype = _prepare('frac', 'default', 'floating', self)
    return _wrap(_pm.frac(self), out_dtype)


KERNELS['frac'] = frac


def reciprocal(self):
    (self,), out_dtype = _prepare('reciprocal', 'int_to_float', None, self)
    _token = _quiet_on()
    try:
        return _wrap(_pm.reciprocal(self), out_dtype)
    finally:
        _quiet_off(_token)


KERNELS['reciprocal'] = reciprocal


def square(self):
    (self,), out_dtype = _prepare('square', 'default', None, self)
    _token = _quiet_on()
    try:
        return _wrap(self * self, out_dtype)
    finally:
        _quiet_off(_token)


KERNELS['square'] = square


def isnan(self):
    (self,), out_dtype = _prepare('isnan', 'always_bool', None, self)
    return _wrap(_pm.isnan(self), out_dtype)


KERNELS['isnan'] = isnan


def isinf(self):
    (self,), out_dtype = _prepare('isinf', 'always_bool', None, self)
    return _wrap(_pm.isinf(self), out_dtype)


KERNELS['isinf'] = isinf


def isfinite(self):
    (self,), out_dtype = _prepare('isfinite', 'always_bool', None, self)
    return _wrap(_pm.isfinite(self), out_dtype)


KERNELS['isfinite'] = isfinite


def signbit(self):
    (self,), out_dtype = _prepare('signbit', 'always_bool', None, self)
    return _wrap(_pm.signbit(self), out_dtype)


KERNELS['signbit'] = signbit


def logical_not(self):
    (self,), out_dtype = _prepare('logical_not', 'always_bool', None, self)
    return _wrap(_pm.logical_not(self), out_dtype)


KERNELS['logical_not'] = logical_not


def bitwise_not(self):
    (self,), out_dtype = _prepare('bitwise_not', 'default', 'integral_and_bool', self)
    return _wrap(~self, out_dtype)


KERNELS['bitwise_not'] = bitwise_not


def add(self, other, alpha):
    (self, other), out_dtype = _prepare('add', 'default', None, self, other)
    if alpha.__class__ is not int or alpha != 1:
        alpha = _scalar('add', alpha, out_dtype)
    _token = _quiet_on()
    try:
        return _wrap(self + other if alpha == 1 else self + alpha * other, out_dtype)
    finally:
        _quiet_off(_token)


KERNELS['add'] = add


def sub(self, other, alpha):
    (self, other), out_dtype = _prepare('sub', 'default', 'numeric', self, other)
    if alpha.__class__ is not int or alpha != 1:
        alpha = _scalar('sub', alpha, out_dtype)
    _token = _quiet_on()
    try:
        return _wrap(self - other if alpha == 1 else self - alpha * other, out_dtype)
    finally:
        _quiet_off(_token)


KERNELS['sub'] = sub


def mul(self, other):
    (self, other), out_dtype = _prepare('mul', 'default', None, self, other)
    _token = _quiet_on()
    try:
        return _wrap(self * other, out_dtype)
    finally:
        _quiet_off(_token)


KERNELS['mul'] = mul


def floor_divide(self, other):
    (self, other), out_dtype = _prepare('floor_divide', 'default', None, self, other)
    _token = _quiet_on()
    try:
        return _wrap(_pm.floor_divide(self, other), out_dtype)
    finally:
        _quiet_off(_token)


KERNELS['floor_divide'] = floor_divide


def pow(self, exponent):
    (self, exponent), out_dtype = _prepare('pow', 'default', 'non_bool_tensor_exponent', self, exponent)
    _token = _quiet_on()
    try:
        return _wrap(_pm.pow(self, exponent), out_dtype)
    finally:
        _quiet_off(_token)


KERNELS['pow'] = pow


def maximum(self, other):
    (self, other), out_dtype = _prepare('maximum', 'default', None, self, other)
    return _wrap(_pm.maximum(self, other), out_dtype)


KERNELS['maximum'] = maximum


def minimum(self, other):
    (self, other), out_dtype = _prepare('minimum', 'default', None, self, other)
    return _wrap(_pm.minimum(self, other), out_dtype)


KERNELS['minimum'] = minimum


def fmax(self, other):
    (self, other), out_dtype = _prepare('fmax', 'default', None, self, other)
    return _wrap(_pm.fmax(self, other), out_dtype)


KERNELS['fmax'] = fmax


def fmin(self, other):
    (self, other), out_dtype = _prepare('fmin', 'default', None, self, other)
    return _wrap(_pm.fmin(self, other), out_dtype)


KERNELS['fmin'] = fmin


def remainder(self, other):
    (self, other), out_dtype = _prepare('remainder', 'default', None, self, other)
    _token = _quiet_on()
    try:
        return _wrap(_pm.remainder(self, other), out_dtype)
    finally:
        _quiet_off(_token)


KERNELS['remainder'] = remainder


def fmod(self, other):
    (self, other), out_dtype = _prepare('fmod', 'default', None, self, other)
    _token = _quiet_on()
    try:
        return _wrap(_pm.fmod(self, other), out_dtype)
    finally:
        _quiet_off(_token)


KERNELS['fmod'] = fmod


def atan2(self, other):
    (self, other), out_dtype = _prepare('atan2', 'int_to_float', None, self, other)
    return _wrap(_pm.atan2(self, other), out_dtype)


KERNELS['atan2'] = atan2


def hypot(self, other):
    (self, other), out_dtype = _prepare('hypot', 'default', 'floating', self, other)
    return _wrap(_pm.hypot(self, other), out_dtype)


KERNELS['hypot'] = hypot


def copysign(self, other):
    (self, other), out_dtype = _prepare('copysign', 'int_to_float', None, self, other)
    return _wrap(_pm.copysign(self, other), out_dtype)


KERNELS['copysign'] = copysign


def xlogy(self, other):
    (self, other), out_dtype = _prepare('xlogy', 'int_to_float', None, self, other)
    _token = _quiet_on()
    try:
        return _wrap(_pm.xlogy(self, other), out_dtype)
    finally:
        _quiet_off(_token)


KERNELS['xlogy'] = xlogy


def logaddexp(self, other):
    (self, other), out_dtype = _prepare('logaddexp', 'int_to_float', 'floating', self, other)
    _token = _quiet_on()
    try:
        return _wrap(_pm.logaddexp(self, other), out_dtype)
    finally:
        _quiet_off(_token)


KERNELS['logaddexp'] = logaddexp


def eq(self, other):
    (self, other), out_dtype = _prepare('eq', 'always_bool', None, self, other)
    return _wrap(self == other, out_dtype)


KERNELS['eq'] = eq


def ne(self, other):
    (self, other), out_dtype = _prepare('ne', 'always_bool', None, self, other)
    return _wrap(self != other, out_dtype)


KERNELS['ne'] = ne


def lt(self, other):
    (self, other), out_dtype = _prepare('lt', 'always_bool', None, self, other)
    return _wrap(self < other, out_dtype)


KERNELS['lt'] = lt


def le(self, other):
    (self, other), out_dtype = _prepare('le', 'always_bool', None, self, other)
    return _wrap(self <= other, out_dtype)


KERNELS['le'] = le


def gt(self, other):
    (self, other), out_dtype = _prepare('gt', 'always_bool', None, self, other)
    return _wrap(self > other, out_dtype)


KERNELS['gt'] = gt


def ge(self, other):
    (self, other), out_dtype = _prepare('ge', 'always_bool', None, self, other)
    return _wrap(self >= other, out_dtype)


KERNELS['ge'] = ge


def logical_and(self, other):
    (self, other), out_dtype = _prepare('logical_and', 'always_bool', None, self, other)
    return _wrap(_pm.logical_and(self, other), out_dtype)


KERNELS['logical_and'] = logical_and


def logical_or(self, other):
    (self, other), out_dtype = _prepare('logical_or', 'always_bool', None, self, other)
    return _wrap(_pm.logical_or(self, other), out_dtype)


KERNELS['logical_or'] = logical_or


def logical_xor(self, other):
    (self, other), out_dtype = _prepare('logical_xor', 'always_bool', None, self, other)
    return _wrap(_pm.logical_xor(self, other), out_dtype)


KERNELS['logical_xor'] = logical_xor


def bitwise_and(self, other):
    (self, other), out_dtype = _prepare('bitwise_and', 'default', 'integral_and_bool', self, other)
    return _wrap(self & other, out_dtype)


KERNELS['bitwise_and'] = bitwise_and


def bitwise_or(self, other):
    (self, other), out_dtype = _prepare('bitwise_or', 'default', 'integral_and_bool', self, other)
    return _wrap(self | other, out_dtype)


KERNELS['bitwise_or'] = bitwise_or


def bitwise_xor(self, other):
    (self, other), out_dtype = _prepare('bitwise_xor', 'default', 'integral_and_bool', self, other)
    return _wrap(self ^ other, out_dtype)


KERNELS['bitwise_xor'] = bitwise_xor


def bitwise_left_shift(self, other):
    (self, other), out_dtype = _prepare('bitwise_left_shift', 'default', 'integral', self, other)
    return _wrap(self << other, out_dtype)


KERNELS['bitwise_left_shift'] = bitwise_left_shift


def bitwise_right_shift(self, other):
    (self, other), out_dtype = _prepare('bitwise_right_shift', 'default', 'integral', self, other)
    return _wrap(self >> other, out_dtype)


KERNELS['bitwise_right_shift'] = bitwise_right_shift


def lerp(self, end, weight):
    (self, end, weight), out_dtype = _prepare('lerp', 'default', 'floating', self, end, weight)
    _token = _quiet_on()
    try:
        return _wrap(self + weight * (end - self), out_dtype)
    finally:
        _quiet_off(_token)


KERNELS['lerp'] = lerp


def addcmul(self, tensor1, tensor2, value):
    (self, tensor1, tensor2), out_dtype = _prepare('addcmul', 'default', 'non_bool_result', self, tensor1, tensor2)
    if value.__class__ is not int or value != 1:
        value = _scalar('addcmul', value, out_dtype)
    _token = _quiet_on()
    try:
        return _wrap(self + value * tensor1 * tensor2, out_dtype)
    finally:
        _quiet_off(_token)


KERNELS['addcmul'] = addcmul


def addcdiv(self, tensor1, tensor2, value):
    (self, tensor1, tensor2), out_dtype = _prepare('addcdiv', 'default', 'floating', self, tensor1, tensor2)
    if value.__class__ is not int or value != 1:
        value = _scalar('addcdiv', value, out_dtype)
    _token = _quiet_on()
    try:
        return _wrap(self + value * tensor1 / tensor2, out_dtype)
    finally:
        _quiet_off(_token)


KERNELS['addcdiv'] = addcdiv


def deg2rad(self):
    (self,), out_dtype = _prepare('deg2rad', 'int_to_float', None, self)
    _token = _quiet_on()
    try:
        return _wrap(self * 0.017453292519943295, out_dtype)
    finally:
        _quiet_off(_token)


KERNELS['deg2rad'] = deg2rad


def rad2deg(self):
    (self,), out_dtype = _prepare('rad2deg', 'int_to_float', None, self)
    _token = _quiet_on()
    try:
        return _wrap(self * 57.29577951308232, out_dtype)
    finally:
        _quiet_off(_token)


KERNELS['rad2deg'] = rad2deg


def sinc(self):
    (self,), out_dtype = _prepare('sinc', 'int_to_float', None, self)
    _token = _quiet_on()
    try:
        _c0 = self * 3.141592653589793
        return _wrap(_pm.where(self == 0, 1.0, _pm.sin(_c0) / _c0), out_dtype)
    finally:
        _quiet_off(_token)


KERNELS['sinc'] = sinc


def logaddexp2(self, other):
    (self, other), out_dtype = _prepare('logaddexp2', 'int_to_float', 'floating', self, other)
    _token = _quiet_on()
    try:
        return _wrap(_pm.where(self == other, self + 1, _pm.maximum(self, other) + _pm.log2(1 + _pm.exp2(-_pm.abs(self - other)))), out_dtype)
    finally:
        _quiet_off(_token)


KERNELS['logaddexp2'] = logaddexp2
