# @generated from ops.yaml by `python -m codegen` — do not edit.
# ruff: noqa
"""The op functions (``volta.add``, ``volta.nn.functional.conv2d``, ...)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from volta.dispatch import binding as _b
if TYPE_CHECKING:
    from volta.dispatch.binding import DeviceLike, Generator, Number, Tensor, dtype
from volta._generated import registry as _op


@_b.checked(_op.abs)
def abs(input: Tensor | Number) -> Tensor:
    """abs(Tensor self) -> Tensor
    """
    return _op.abs(input)

@_b.checked(_op.abs)
def absolute(input: Tensor | Number) -> Tensor:
    """abs(Tensor self) -> Tensor
    """
    return _op.abs(input)

@_b.checked(_op.neg)
def neg(input: Tensor | Number) -> Tensor:
    """neg(Tensor self) -> Tensor
    """
    return _op.neg(input)

@_b.checked(_op.neg)
def negative(input: Tensor | Number) -> Tensor:
    """neg(Tensor self) -> Tensor
    """
    return _op.neg(input)

@_b.checked(_op.positive)
def positive(input: Tensor) -> Tensor:
    """positive(Tensor self) -> Tensor
    """
    return _op.positive(input)

@_b.checked(_op.exp)
def exp(input: Tensor | Number) -> Tensor:
    """exp(Tensor self) -> Tensor
    """
    return _op.exp(input)

@_b.checked(_op.exp2)
def exp2(input: Tensor | Number) -> Tensor:
    """exp2(Tensor self) -> Tensor
    """
    return _op.exp2(input)

@_b.checked(_op.expm1)
def expm1(input: Tensor | Number) -> Tensor:
    """expm1(Tensor self) -> Tensor
    """
    return _op.expm1(input)

@_b.checked(_op.log)
def log(input: Tensor | Number) -> Tensor:
    """log(Tensor self) -> Tensor
    """
    return _op.log(input)

@_b.checked(_op.log2)
def log2(input: Tensor | Number) -> Tensor:
    """log2(Tensor self) -> Tensor
    """
    return _op.log2(input)

@_b.checked(_op.log10)
def log10(input: Tensor | Number) -> Tensor:
    """log10(Tensor self) -> Tensor
    """
    return _op.log10(input)

@_b.checked(_op.log1p)
def log1p(input: Tensor | Number) -> Tensor:
    """log1p(Tensor self) -> Tensor
    """
    return _op.log1p(input)

@_b.checked(_op.sqrt)
def sqrt(input: Tensor | Number) -> Tensor:
    """sqrt(Tensor self) -> Tensor
    """
    return _op.sqrt(input)

@_b.checked(_op.rsqrt)
def rsqrt(input: Tensor | Number) -> Tensor:
    """rsqrt(Tensor self) -> Tensor
    """
    return _op.rsqrt(input)

@_b.checked(_op.sin)
def sin(input: Tensor | Number) -> Tensor:
    """sin(Tensor self) -> Tensor
    """
    return _op.sin(input)

@_b.checked(_op.cos)
def cos(input: Tensor | Number) -> Tensor:
    """cos(Tensor self) -> Tensor
    """
    return _op.cos(input)

@_b.checked(_op.tan)
def tan(input: Tensor | Number) -> Tensor:
    """tan(Tensor self) -> Tensor
    """
    return _op.tan(input)

@_b.checked(_op.asin)
def asin(input: Tensor | Number) -> Tensor:
    """asin(Tensor self) -> Tensor
    """
    return _op.asin(input)

@_b.checked(_op.asin)
def arcsin(input: Tensor | Number) -> Tensor:
    """asin(Tensor self) -> Tensor
    """
    return _op.asin(input)

@_b.checked(_op.acos)
def acos(input: Tensor | Number) -> Tensor:
    """acos(Tensor self) -> Tensor
    """
    return _op.acos(input)

@_b.checked(_op.acos)
def arccos(input: Tensor | Number) -> Tensor:
    """acos(Tensor self) -> Tensor
    """
    return _op.acos(input)

@_b.checked(_op.atan)
def atan(input: Tensor | Number) -> Tensor:
    """atan(Tensor self) -> Tensor
    """
    return _op.atan(input)

@_b.checked(_op.atan)
def arctan(input: Tensor | Number) -> Tensor:
    """atan(Tensor self) -> Tensor
    """
    return _op.atan(input)

@_b.checked(_op.sinh)
def sinh(input: Tensor | Number) -> Tensor:
    """sinh(Tensor self) -> Tensor
    """
    return _op.sinh(input)

@_b.checked(_op.cosh)
def cosh(input: Tensor | Number) -> Tensor:
    """cosh(Tensor self) -> Tensor
    """
    return _op.cosh(input)

@_b.checked(_op.tanh)
def tanh(input: Tensor | Number) -> Tensor:
    """tanh(Tensor self) -> Tensor
    """
    return _op.tanh(input)

@_b.checked(_op.tanh_backward)
def tanh_backward(grad_output: Tensor | Number, output: Tensor | Number) -> Tensor:
    """tanh_backward(Tensor grad_output, Tensor output) -> Tensor
    """
    return _op.tanh_backward(grad_output, output)

@_b.checked(_op.sigmoid)
def sigmoid(input: Tensor | Number) -> Tensor:
    """sigmoid(Tensor self) -> Tensor
    """
    return _op.sigmoid(input)

@_b.checked(_op.sigmoid_backward)
def sigmoid_backward(grad_output: Tensor | Number, output: Tensor | Number) -> Tensor:
    """sigmoid_backward(Tensor grad_output, Tensor output) -> Tensor
    """
    return _op.sigmoid_backward(grad_output, output)

@_b.checked(_op.relu)
def relu(input: Tensor | Number) -> Tensor:
    """relu(Tensor self) -> Tensor
    """
    return _op.relu(input)

@_b.checked(_op.threshold_backward)
def threshold_backward(grad_output: Tensor | Number, input: Tensor | Number, threshold: Number) -> Tensor:
    """threshold_backward(Tensor grad_output, Tensor self, Scalar threshold) -> Tensor
    """
    return _op.threshold_backward(grad_output, input, threshold)

@_b.checked(_op.relu6)
def relu6(input: Tensor | Number) -> Tensor:
    """relu6(Tensor self) -> Tensor
    """
    return _op.relu6(input)

@_b.checked(_op.gelu)
def gelu(input: Tensor | Number, *, approximate: str = 'none') -> Tensor:
    """gelu(Tensor self, *, str approximate="none") -> Tensor
    """
    if approximate.__class__ is not str: approximate = _b.str_arg(approximate, 'approximate', 'gelu')
    return _op.gelu(input, approximate)

@_b.checked(_op.gelu_backward)
def gelu_backward(grad_output: Tensor | Number, input: Tensor | Number, *, approximate: str = 'none') -> Tensor:
    """gelu_backward(Tensor grad_output, Tensor self, *, str approximate="none") -> Tensor
    """
    if approximate.__class__ is not str: approximate = _b.str_arg(approximate, 'approximate', 'gelu_backward')
    return _op.gelu_backward(grad_output, input, approximate)

@_b.checked(_op.silu)
def silu(input: Tensor | Number) -> Tensor:
    """silu(Tensor self) -> Tensor
    """
    return _op.silu(input)

@_b.checked(_op.silu_backward)
def silu_backward(grad_output: Tensor | Number, input: Tensor | Number) -> Tensor:
    """silu_backward(Tensor grad_output, Tensor self) -> Tensor
    """
    return _op.silu_backward(grad_output, input)

@_b.checked(_op.mish)
def mish(input: Tensor | Number) -> Tensor:
    """mish(Tensor self) -> Tensor
    """
    return _op.mish(input)

@_b.checked(_op.softplus)
def softplus(input: Tensor | Number, beta: Number = 1, threshold: Number = 20) -> Tensor:
    """softplus(Tensor self, Scalar beta=1, Scalar threshold=20) -> Tensor
    """
    return _op.softplus(input, beta, threshold)

@_b.checked(_op.softplus_backward)
def softplus_backward(grad_output: Tensor | Number, input: Tensor | Number, beta: Number, threshold: Number) -> Tensor:
    """softplus_backward(Tensor grad_output, Tensor self, Scalar beta, Scalar threshold) -> Tensor
    """
    return _op.softplus_backward(grad_output, input, beta, threshold)

@_b.checked(_op.elu)
def elu(input: Tensor | Number, alpha: Number = 1, scale: Number = 1, input_scale: Number = 1) -> Tensor:
    """elu(Tensor self, Scalar alpha=1, Scalar scale=1, Scalar input_scale=1) -> Tensor
    """
    return _op.elu(input, alpha, scale, input_scale)

@_b.checked(_op.elu_backward)
def elu_backward(grad_output: Tensor | Number, alpha: Number, scale: Number, input_scale: Number, is_result: bool, self_or_result: Tensor | Number) -> Tensor:
    """elu_backward(Tensor grad_output, Scalar alpha, Scalar scale, Scalar input_scale, bool is_result, Tensor self_or_result) -> Tensor
    """
    if is_result.__class__ is not bool: is_result = _b.bool_arg(is_result, 'is_result', 'elu_backward')
    return _op.elu_backward(grad_output, alpha, scale, input_scale, is_result, self_or_result)

@_b.checked(_op.selu)
def selu(input: Tensor | Number) -> Tensor:
    """selu(Tensor self) -> Tensor
    """
    return _op.selu(input)

@_b.checked(_op.leaky_relu)
def leaky_relu(input: Tensor | Number, negative_slope: Number = 0.01) -> Tensor:
    """leaky_relu(Tensor self, Scalar negative_slope=0.01) -> Tensor
    """
    return _op.leaky_relu(input, negative_slope)

@_b.checked(_op.leaky_relu_backward)
def leaky_relu_backward(grad_output: Tensor | Number, input: Tensor | Number, negative_slope: Number, self_is_result: bool) -> Tensor:
    """leaky_relu_backward(Tensor grad_output, Tensor self, Scalar negative_slope, bool self_is_result) -> Tensor
    """
    if self_is_result.__class__ is not bool: self_is_result = _b.bool_arg(self_is_result, 'self_is_result', 'leaky_relu_backward')
    return _op.leaky_relu_backward(grad_output, input, negative_slope, self_is_result)

@_b.checked(_op.hardtanh)
def hardtanh(input: Tensor | Number, min_val: Number = -1, max_val: Number = 1) -> Tensor:
    """hardtanh(Tensor self, Scalar min_val=-1, Scalar max_val=1) -> Tensor
    """
    return _op.hardtanh(input, min_val, max_val)

@_b.checked(_op.hardtanh_backward)
def hardtanh_backward(grad_output: Tensor | Number, input: Tensor | Number, min_val: Number, max_val: Number) -> Tensor:
    """hardtanh_backward(Tensor grad_output, Tensor self, Scalar min_val, Scalar max_val) -> Tensor
    """
    return _op.hardtanh_backward(grad_output, input, min_val, max_val)

@_b.checked(_op.hardsigmoid)
def hardsigmoid(input: Tensor | Number) -> Tensor:
    """hardsigmoid(Tensor self) -> Tensor
    """
    return _op.hardsigmoid(input)

@_b.checked(_op.hardswish)
def hardswish(input: Tensor | Number) -> Tensor:
    """hardswish(Tensor self) -> Tensor
    """
    return _op.hardswish(input)

@_b.checked(_op.logsigmoid)
def logsigmoid(input: Tensor | Number) -> Tensor:
    """logsigmoid(Tensor self) -> Tensor
    """
    return _op.logsigmoid(input)

@_b.checked(_op.log_sigmoid_backward)
def log_sigmoid_backward(grad_output: Tensor | Number, input: Tensor | Number) -> Tensor:
    """log_sigmoid_backward(Tensor grad_output, Tensor self) -> Tensor
    """
    return _op.log_sigmoid_backward(grad_output, input)

@_b.checked(_op.softsign)
def softsign(input: Tensor | Number) -> Tensor:
    """softsign(Tensor self) -> Tensor
    """
    return _op.softsign(input)

@_b.checked(_op.erf)
def erf(input: Tensor | Number) -> Tensor:
    """erf(Tensor self) -> Tensor
    """
    return _op.erf(input)

@_b.checked(_op.erfc)
def erfc(input: Tensor | Number) -> Tensor:
    """erfc(Tensor self) -> Tensor
    """
    return _op.erfc(input)

@_b.checked(_op.erfinv)
def erfinv(input: Tensor | Number) -> Tensor:
    """erfinv(Tensor self) -> Tensor
    """
    return _op.erfinv(input)

@_b.checked(_op.sign)
def sign(input: Tensor | Number) -> Tensor:
    """sign(Tensor self) -> Tensor
    """
    return _op.sign(input)

@_b.checked(_op.floor)
def floor(input: Tensor | Number) -> Tensor:
    """floor(Tensor self) -> Tensor
    """
    return _op.floor(input)

@_b.checked(_op.ceil)
def ceil(input: Tensor | Number) -> Tensor:
    """ceil(Tensor self) -> Tensor
    """
    return _op.ceil(input)

@_b.checked(_op.round)
def round(input: Tensor | Number, *, decimals: int = 0) -> Tensor:
    """round(Tensor self, *, int decimals=0) -> Tensor
    """
    if decimals.__class__ is not int or not -9223372036854775808 <= decimals <= 9223372036854775807: decimals = _b.int_arg(decimals, 'decimals', 'round')
    return _op.round(input, decimals)

@_b.checked(_op.trunc)
def trunc(input: Tensor | Number) -> Tensor:
    """trunc(Tensor self) -> Tensor
    """
    return _op.trunc(input)

@_b.checked(_op.trunc)
def fix(input: Tensor | Number) -> Tensor:
    """trunc(Tensor self) -> Tensor
    """
    return _op.trunc(input)

@_b.checked(_op.frac)
def frac(input: Tensor | Number) -> Tensor:
    """frac(Tensor self) -> Tensor
    """
    return _op.frac(input)

@_b.checked(_op.reciprocal)
def reciprocal(input: Tensor | Number) -> Tensor:
    """reciprocal(Tensor self) -> Tensor
    """
    return _op.reciprocal(input)

@_b.checked(_op.square)
def square(input: Tensor | Number) -> Tensor:
    """square(Tensor self) -> Tensor
    """
    return _op.square(input)

@_b.checked(_op.clamp)
def clamp(input: Tensor | Number, min: Tensor | Number | None = None, max: Tensor | Number | None = None) -> Tensor:
    """clamp(Tensor self, Tensor? min=None, Tensor? max=None) -> Tensor
    """
    return _op.clamp(input, min, max)

@_b.checked(_op.clip)
def clip(input: Tensor, min: Tensor | None = None, max: Tensor | None = None) -> Tensor:
    """clip(Tensor self, Tensor? min=None, Tensor? max=None) -> Tensor
    """
    return _op.clip(input, min, max)

@_b.checked(_op.isnan)
def isnan(input: Tensor | Number) -> Tensor:
    """isnan(Tensor self) -> Tensor
    """
    return _op.isnan(input)

@_b.checked(_op.isinf)
def isinf(input: Tensor | Number) -> Tensor:
    """isinf(Tensor self) -> Tensor
    """
    return _op.isinf(input)

@_b.checked(_op.isfinite)
def isfinite(input: Tensor | Number) -> Tensor:
    """isfinite(Tensor self) -> Tensor
    """
    return _op.isfinite(input)

@_b.checked(_op.signbit)
def signbit(input: Tensor | Number) -> Tensor:
    """signbit(Tensor self) -> Tensor
    """
    return _op.signbit(input)

@_b.checked(_op.nan_to_num)
def nan_to_num(input: Tensor | Number, nan: float | None = None, posinf: float | None = None, neginf: float | None = None) -> Tensor:
    """nan_to_num(Tensor self, float? nan=None, float? posinf=None, float? neginf=None) -> Tensor
    """
    if nan is not None and nan.__class__ is not float: nan = _b.float_arg(nan, 'nan', 'nan_to_num')
    if posinf is not None and posinf.__class__ is not float: posinf = _b.float_arg(posinf, 'posinf', 'nan_to_num')
    if neginf is not None and neginf.__class__ is not float: neginf = _b.float_arg(neginf, 'neginf', 'nan_to_num')
    return _op.nan_to_num(input, nan, posinf, neginf)

@_b.checked(_op.logical_not)
def logical_not(input: Tensor | Number) -> Tensor:
    """logical_not(Tensor self) -> Tensor
    """
    return _op.logical_not(input)

@_b.checked(_op.bitwise_not)
def bitwise_not(input: Tensor | Number) -> Tensor:
    """bitwise_not(Tensor self) -> Tensor
    """
    return _op.bitwise_not(input)

@_b.checked(_op.add)
def add(input: Tensor | Number, other: Tensor | Number, *, alpha: Number = 1) -> Tensor:
    """add(Tensor self, Tensor other, *, Scalar alpha=1) -> Tensor
    """
    if input.__class__ not in _b.TENSOR_TYPES and other.__class__ not in _b.TENSOR_TYPES: input = _b.wrapped_number(input, other)
    return _op.add(input, other, alpha)

@_b.checked(_op.sub)
def sub(input: Tensor | Number, other: Tensor | Number, *, alpha: Number = 1) -> Tensor:
    """sub(Tensor self, Tensor other, *, Scalar alpha=1) -> Tensor
    """
    if input.__class__ not in _b.TENSOR_TYPES and other.__class__ not in _b.TENSOR_TYPES: input = _b.wrapped_number(input, other)
    return _op.sub(input, other, alpha)

@_b.checked(_op.subtract)
def subtract(input: Tensor, other: Tensor, *, alpha: Number = 1) -> Tensor:
    """subtract(Tensor self, Tensor other, *, Scalar alpha=1) -> Tensor
    """
    if input.__class__ not in _b.TENSOR_TYPES and other.__class__ not in _b.TENSOR_TYPES: input = _b.wrapped_number(input, other)
    return _op.subtract(input, other, alpha)

@_b.checked(_op.mul)
def mul(input: Tensor | Number, other: Tensor | Number) -> Tensor:
    """mul(Tensor self, Tensor other) -> Tensor
    """
    if input.__class__ not in _b.TENSOR_TYPES and other.__class__ not in _b.TENSOR_TYPES: input = _b.wrapped_number(input, other)
    return _op.mul(input, other)

@_b.checked(_op.multiply)
def multiply(input: Tensor, other: Tensor) -> Tensor:
    """multiply(Tensor self, Tensor other) -> Tensor
    """
    if input.__class__ not in _b.TENSOR_TYPES and other.__class__ not in _b.TENSOR_TYPES: input = _b.wrapped_number(input, other)
    return _op.multiply(input, other)

@_b.checked(_op.div)
def div(input: Tensor | Number, other: Tensor | Number, *, rounding_mode: str | None = None) -> Tensor:
    """div(Tensor self, Tensor other, *, str? rounding_mode=None) -> Tensor
    """
    if input.__class__ not in _b.TENSOR_TYPES and other.__class__ not in _b.TENSOR_TYPES: input = _b.wrapped_number(input, other)
    if rounding_mode is not None and rounding_mode.__class__ is not str: rounding_mode = _b.str_arg(rounding_mode, 'rounding_mode', 'div')
    return _op.div(input, other, rounding_mode)

@_b.checked(_op.true_divide)
def true_divide(input: Tensor, other: Tensor) -> Tensor:
    """true_divide(Tensor self, Tensor other) -> Tensor
    """
    if input.__class__ not in _b.TENSOR_TYPES and other.__class__ not in _b.TENSOR_TYPES: input = _b.wrapped_number(input, other)
    return _op.true_divide(input, other)

@_b.checked(_op.divide)
def divide(input: Tensor, other: Tensor, *, rounding_mode: str | None = None) -> Tensor:
    """divide(Tensor self, Tensor other, *, str? rounding_mode=None) -> Tensor
    """
    if input.__class__ not in _b.TENSOR_TYPES and other.__class__ not in _b.TENSOR_TYPES: input = _b.wrapped_number(input, other)
    if rounding_mode is not None and rounding_mode.__class__ is not str: rounding_mode = _b.str_arg(rounding_mode, 'rounding_mode', 'divide')
    return _op.divide(input, other, rounding_mode)

@_b.checked(_op.floor_divide)
def floor_divide(input: Tensor | Number, other: Tensor | Number) -> Tensor:
    """floor_divide(Tensor self, Tensor other) -> Tensor
    """
    if input.__class__ not in _b.TENSOR_TYPES and other.__class__ not in _b.TENSOR_TYPES: input = _b.wrapped_number(input, other)
    return _op.floor_divide(input, other)

@_b.checked(_op.pow)
def pow(input: Tensor | Number, exponent: Tensor | Number) -> Tensor:
    """pow(Tensor self, Tensor exponent) -> Tensor
    """
    return _op.pow(input, exponent)

@_b.checked(_op.float_power)
def float_power(input: Tensor, exponent: Tensor) -> Tensor:
    """float_power(Tensor self, Tensor exponent) -> Tensor
    """
    return _op.float_power(input, exponent)

@_b.checked(_op.maximum)
def maximum(input: Tensor, other: Tensor) -> Tensor:
    """maximum(Tensor self, Tensor other) -> Tensor
    """
    if input.__class__ not in _b.TENSOR_TYPES: _b.tensor_arg(input, 'input', 1, 'maximum')
    if other.__class__ not in _b.TENSOR_TYPES: _b.tensor_arg(other, 'other', 2, 'maximum')
    return _op.maximum(input, other)

@_b.checked(_op.minimum)
def minimum(input: Tensor, other: Tensor) -> Tensor:
    """minimum(Tensor self, Tensor other) -> Tensor
    """
    if input.__class__ not in _b.TENSOR_TYPES: _b.tensor_arg(input, 'input', 1, 'minimum')
    if other.__class__ not in _b.TENSOR_TYPES: _b.tensor_arg(other, 'other', 2, 'minimum')
    return _op.minimum(input, other)

@_b.checked(_op.fmax)
def fmax(input: Tensor, other: Tensor) -> Tensor:
    """fmax(Tensor self, Tensor other) -> Tensor
    """
    if input.__class__ not in _b.TENSOR_TYPES: _b.tensor_arg(input, 'input', 1, 'fmax')
    if other.__class__ not in _b.TENSOR_TYPES: _b.tensor_arg(other, 'other', 2, 'fmax')
    return _op.fmax(input, other)

@_b.checked(_op.fmin)
def fmin(input: Tensor, other: Tensor) -> Tensor:
    """fmin(Tensor self, Tensor other) -> Tensor
    """
    if input.__class__ not in _b.TENSOR_TYPES: _b.tensor_arg(input, 'input', 1, 'fmin')
    if other.__class__ not in _b.TENSOR_TYPES: _b.tensor_arg(other, 'other', 2, 'fmin')
    return _op.fmin(input, other)

@_b.checked(_op.remainder)
def remainder(input: Tensor | Number, other: Tensor | Number) -> Tensor:
    """remainder(Tensor self, Tensor other) -> Tensor
    """
    return _op.remainder(input, other)

@_b.checked(_op.fmod)
def fmod(input: Tensor, other: Tensor | Number) -> Tensor:
    """fmod(Tensor self, Tensor other) -> Tensor
    """
    if input.__class__ not in _b.TENSOR_TYPES: _b.tensor_arg(input, 'input', 1, 'fmod')
    return _op.fmod(input, other)

@_b.checked(_op.atan2)
def atan2(input: Tensor, other: Tensor) -> Tensor:
    """atan2(Tensor self, Tensor other) -> Tensor
    """
    if input.__class__ not in _b.TENSOR_TYPES: _b.tensor_arg(input, 'input', 1, 'atan2')
    if other.__class__ not in _b.TENSOR_TYPES: _b.tensor_arg(other, 'other', 2, 'atan2')
    return _op.atan2(input, other)

@_b.checked(_op.arctan2)
def arctan2(input: Tensor, other: Tensor) -> Tensor:
    """arctan2(Tensor self, Tensor other) -> Tensor
    """
    return _op.arctan2(input, other)

@_b.checked(_op.hypot)
def hypot(input: Tensor, other: Tensor) -> Tensor:
    """hypot(Tensor self, Tensor other) -> Tensor
    """
    if input.__class__ not in _b.TENSOR_TYPES: _b.tensor_arg(input, 'input', 1, 'hypot')
    if other.__class__ not in _b.TENSOR_TYPES: _b.tensor_arg(other, 'other', 2, 'hypot')
    return _op.hypot(input, other)

@_b.checked(_op.copysign)
def copysign(input: Tensor, other: Tensor | Number) -> Tensor:
    """copysign(Tensor self, Tensor other) -> Tensor
    """
    if input.__class__ not in _b.TENSOR_TYPES: _b.tensor_arg(input, 'input', 1, 'copysign')
    return _op.copysign(input, other)

@_b.checked(_op.xlogy)
def xlogy(input: Tensor | Number, other: Tensor | Number) -> Tensor:
    """xlogy(Tensor self, Tensor other) -> Tensor
    """
    return _op.xlogy(input, other)

@_b.checked(_op.logaddexp)
def logaddexp(input: Tensor, other: Tensor) -> Tensor:
    """logaddexp(Tensor self, Tensor other) -> Tensor
    """
    if input.__class__ not in _b.TENSOR_TYPES: _b.tensor_arg(input, 'input', 1, 'logaddexp')
    if other.__class__ not in _b.TENSOR_TYPES: _b.tensor_arg(other, 'other', 2, 'logaddexp')
    return _op.logaddexp(input, other)

@_b.checked(_op.eq)
def eq(input: Tensor, other: Tensor | Number) -> Tensor:
    """eq(Tensor self, Tensor other) -> Tensor
    """
    if input.__class__ not in _b.TENSOR_TYPES: _b.tensor_arg(input, 'input', 1, 'eq')
    return _op.eq(input, other)

@_b.checked(_op.ne)
def ne(input: Tensor, other: Tensor | Number) -> Tensor:
    """ne(Tensor self, Tensor other) -> Tensor
    """
    if input.__class__ not in _b.TENSOR_TYPES: _b.tensor_arg(input, 'input', 1, 'ne')
    return _op.ne(input, other)

@_b.checked(_op.ne)
def not_equal(input: Tensor, other: Tensor | Number) -> Tensor:
    """ne(Tensor self, Tensor other) -> Tensor
    """
    if input.__class__ not in _b.TENSOR_TYPES: _b.tensor_arg(input, 'input', 1, 'ne')
    return _op.ne(input, other)

@_b.checked(_op.lt)
def lt(input: Tensor, other: Tensor | Number) -> Tensor:
    """lt(Tensor self, Tensor other) -> Tensor
    """
    if input.__class__ not in _b.TENSOR_TYPES: _b.tensor_arg(input, 'input', 1, 'lt')
    return _op.lt(input, other)

@_b.checked(_op.lt)
def less(input: Tensor, other: Tensor | Number) -> Tensor:
    """lt(Tensor self, Tensor other) -> Tensor
    """
    if input.__class__ not in _b.TENSOR_TYPES: _b.tensor_arg(input, 'input', 1, 'lt')
    return _op.lt(input, other)

@_b.checked(_op.le)
def le(input: Tensor, other: Tensor | Number) -> Tensor:
    """le(Tensor self, Tensor other) -> Tensor
    """
    if input.__class__ not in _b.TENSOR_TYPES: _b.tensor_arg(input, 'input', 1, 'le')
    return _op.le(input, other)

@_b.checked(_op.le)
def less_equal(input: Tensor, other: Tensor | Number) -> Tensor:
    """le(Tensor self, Tensor other) -> Tensor
    """
    if input.__class__ not in _b.TENSOR_TYPES: _b.tensor_arg(input, 'input', 1, 'le')
    return _op.le(input, other)

@_b.checked(_op.gt)
def gt(input: Tensor, other: Tensor | Number) -> Tensor:
    """gt(Tensor self, Tensor other) -> Tensor
    """
    if input.__class__ not in _b.TENSOR_TYPES: _b.tensor_arg(input, 'input', 1, 'gt')
    return _op.gt(input, other)

@_b.checked(_op.gt)
def greater(input: Tensor, other: Tensor | Number) -> Tensor:
    """gt(Tensor self, Tensor other) -> Tensor
    """
    if input.__class__ not in _b.TENSOR_TYPES: _b.tensor_arg(input, 'input', 1, 'gt')
    return _op.gt(input, other)

@_b.checked(_op.ge)
def ge(input: Tensor, other: Tensor | Number) -> Tensor:
    """ge(Tensor self, Tensor other) -> Tensor
    """
    if input.__class__ not in _b.TENSOR_TYPES: _b.tensor_arg(input, 'input', 1, 'ge')
    return _op.ge(input, other)

@_b.checked(_op.ge)
def greater_equal(input: Tensor, other: Tensor | Number) -> Tensor:
    """ge(Tensor self, Tensor other) -> Tensor
    """
    if input.__class__ not in _b.TENSOR_TYPES: _b.tensor_arg(input, 'input', 1, 'ge')
    return _op.ge(input, other)

@_b.checked(_op.equal)
def equal(input: Tensor, other: Tensor) -> bool:
    """equal(Tensor self, Tensor other) -> bool
    """
    return _op.equal(input, other)

@_b.checked(_op.allclose)
def allclose(input: Tensor, other: Tensor, rtol: float = 1e-05, atol: float = 1e-08, equal_nan: bool = False) -> bool:
    """allclose(Tensor self, Tensor other, float rtol=1e-05, float atol=1e-08, bool equal_nan=False) -> bool
    """
    if rtol.__class__ is not float: rtol = _b.float_arg(rtol, 'rtol', 'allclose')
    if atol.__class__ is not float: atol = _b.float_arg(atol, 'atol', 'allclose')
    if equal_nan.__class__ is not bool: equal_nan = _b.bool_arg(equal_nan, 'equal_nan', 'allclose')
    return _op.allclose(input, other, rtol, atol, equal_nan)

@_b.checked(_op.isclose)
def isclose(input: Tensor, other: Tensor, rtol: float = 1e-05, atol: float = 1e-08, equal_nan: bool = False) -> Tensor:
    """isclose(Tensor self, Tensor other, float rtol=1e-05, float atol=1e-08, bool equal_nan=False) -> Tensor
    """
    if rtol.__class__ is not float: rtol = _b.float_arg(rtol, 'rtol', 'isclose')
    if atol.__class__ is not float: atol = _b.float_arg(atol, 'atol', 'isclose')
    if equal_nan.__class__ is not bool: equal_nan = _b.bool_arg(equal_nan, 'equal_nan', 'isclose')
    return _op.isclose(input, other, rtol, atol, equal_nan)

@_b.checked(_op.logical_and)
def logical_and(input: Tensor, other: Tensor) -> Tensor:
    """logical_and(Tensor self, Tensor other) -> Tensor
    """
    if input.__class__ not in _b.TENSOR_TYPES: _b.tensor_arg(input, 'input', 1, 'logical_and')
    if other.__class__ not in _b.TENSOR_TYPES: _b.tensor_arg(other, 'other', 2, 'logical_and')
    return _op.logical_and(input, other)

@_b.checked(_op.logical_or)
def logical_or(input: Tensor, other: Tensor) -> Tensor:
    """logical_or(Tensor self, Tensor other) -> Tensor
    """
    if input.__class__ not in _b.TENSOR_TYPES: _b.tensor_arg(input, 'input', 1, 'logical_or')
    if other.__class__ not in _b.TENSOR_TYPES: _b.tensor_arg(other, 'other', 2, 'logical_or')
    return _op.logical_or(input, other)

@_b.checked(_op.logical_xor)
def logical_xor(input: Tensor, other: Tensor) -> Tensor:
    """logical_xor(Tensor self, Tensor other) -> Tensor
    """
    if input.__class__ not in _b.TENSOR_TYPES: _b.tensor_arg(input, 'input', 1, 'logical_xor')
    if other.__class__ not in _b.TENSOR_TYPES: _b.tensor_arg(other, 'other', 2, 'logical_xor')
    return _op.logical_xor(input, other)

@_b.checked(_op.bitwise_and)
def bitwise_and(input: Tensor | Number, other: Tensor | Number) -> Tensor:
    """bitwise_and(Tensor self, Tensor other) -> Tensor
    """
    return _op.bitwise_and(input, other)

@_b.checked(_op.bitwise_or)
def bitwise_or(input: Tensor | Number, other: Tensor | Number) -> Tensor:
    """bitwise_or(Tensor self, Tensor other) -> Tensor
    """
    return _op.bitwise_or(input, other)

@_b.checked(_op.bitwise_xor)
def bitwise_xor(input: Tensor | Number, other: Tensor | Number) -> Tensor:
    """bitwise_xor(Tensor self, Tensor other) -> Tensor
    """
    return _op.bitwise_xor(input, other)

@_b.checked(_op.bitwise_left_shift)
def bitwise_left_shift(input: Tensor | Number, other: Tensor | Number) -> Tensor:
    """bitwise_left_shift(Tensor self, Tensor other) -> Tensor
    """
    return _op.bitwise_left_shift(input, other)

@_b.checked(_op.bitwise_right_shift)
def bitwise_right_shift(input: Tensor | Number, other: Tensor | Number) -> Tensor:
    """bitwise_right_shift(Tensor self, Tensor other) -> Tensor
    """
    return _op.bitwise_right_shift(input, other)

def where(*args: Any, **kwargs: Any) -> Any:
    """where.self(Tensor condition, Tensor self, Tensor other) -> Tensor
    where(Tensor condition) -> Tensor[]
    """
    return _b.call_overloaded((_op.where_self, _op.where,), args, kwargs, 'where')

@_b.checked(_op.lerp)
def lerp(input: Tensor, end: Tensor, weight: Tensor | Number) -> Tensor:
    """lerp(Tensor self, Tensor end, Tensor weight) -> Tensor
    """
    if input.__class__ not in _b.TENSOR_TYPES: _b.tensor_arg(input, 'input', 1, 'lerp')
    if end.__class__ not in _b.TENSOR_TYPES: _b.tensor_arg(end, 'end', 2, 'lerp')
    return _op.lerp(input, end, weight)

@_b.checked(_op.addcmul)
def addcmul(input: Tensor, tensor1: Tensor, tensor2: Tensor, *, value: Number = 1) -> Tensor:
    """addcmul(Tensor self, Tensor tensor1, Tensor tensor2, *, Scalar value=1) -> Tensor
    """
    if input.__class__ not in _b.TENSOR_TYPES: _b.tensor_arg(input, 'input', 1, 'addcmul')
    if tensor1.__class__ not in _b.TENSOR_TYPES: _b.tensor_arg(tensor1, 'tensor1', 2, 'addcmul')
    if tensor2.__class__ not in _b.TENSOR_TYPES: _b.tensor_arg(tensor2, 'tensor2', 3, 'addcmul')
    return _op.addcmul(input, tensor1, tensor2, value)

@_b.checked(_op.addcdiv)
def addcdiv(input: Tensor, tensor1: Tensor, tensor2: Tensor, *, value: Number = 1) -> Tensor:
    """addcdiv(Tensor self, Tensor tensor1, Tensor tensor2, *, Scalar value=1) -> Tensor
    """
    if input.__class__ not in _b.TENSOR_TYPES: _b.tensor_arg(input, 'input', 1, 'addcdiv')
    if tensor1.__class__ not in _b.TENSOR_TYPES: _b.tensor_arg(tensor1, 'tensor1', 2, 'addcdiv')
    if tensor2.__class__ not in _b.TENSOR_TYPES: _b.tensor_arg(tensor2, 'tensor2', 3, 'addcdiv')
    return _op.addcdiv(input, tensor1, tensor2, value)

@_b.checked(_op.acosh)
def acosh(input: Tensor | Number) -> Tensor:
    """acosh(Tensor self) -> Tensor
    
    Inverse hyperbolic cosine, elementwise.
    """
    return _op.acosh(input)

@_b.checked(_op.acosh)
def arccosh(input: Tensor | Number) -> Tensor:
    """acosh(Tensor self) -> Tensor
    
    Inverse hyperbolic cosine, elementwise.
    """
    return _op.acosh(input)

@_b.checked(_op.asinh)
def asinh(input: Tensor | Number) -> Tensor:
    """asinh(Tensor self) -> Tensor
    
    Inverse hyperbolic sine, elementwise.
    """
    return _op.asinh(input)

@_b.checked(_op.asinh)
def arcsinh(input: Tensor | Number) -> Tensor:
    """asinh(Tensor self) -> Tensor
    
    Inverse hyperbolic sine, elementwise.
    """
    return _op.asinh(input)

@_b.checked(_op.atanh)
def atanh(input: Tensor | Number) -> Tensor:
    """atanh(Tensor self) -> Tensor
    
    Inverse hyperbolic tangent, elementwise.
    """
    return _op.atanh(input)

@_b.checked(_op.atanh)
def arctanh(input: Tensor | Number) -> Tensor:
    """atanh(Tensor self) -> Tensor
    
    Inverse hyperbolic tangent, elementwise.
    """
    return _op.atanh(input)

@_b.checked(_op.deg2rad)
def deg2rad(input: Tensor | Number) -> Tensor:
    """deg2rad(Tensor self) -> Tensor
    
    Degrees to radians, elementwise.
    """
    return _op.deg2rad(input)

@_b.checked(_op.rad2deg)
def rad2deg(input: Tensor | Number) -> Tensor:
    """rad2deg(Tensor self) -> Tensor
    
    Radians to degrees, elementwise.
    """
    return _op.rad2deg(input)

@_b.checked(_op.sinc)
def sinc(input: Tensor | Number) -> Tensor:
    """sinc(Tensor self) -> Tensor
    
    The normalized sinc function sin(pi x) / (pi x), 1 at 0.
    """
    return _op.sinc(input)

@_b.checked(_op.sgn)
def sgn(input: Tensor) -> Tensor:
    """sgn(Tensor self) -> Tensor
    
    The sign of each element (sign() for real tensors).
    """
    return _op.sgn(input)

@_b.checked(_op.logit)
def logit(input: Tensor, eps: float | None = None) -> Tensor:
    """logit(Tensor self, float? eps=None) -> Tensor
    
    log(p / (1 - p)), with p clamped to [eps, 1 - eps] when eps is given.
    """
    if eps is not None and eps.__class__ is not float: eps = _b.float_arg(eps, 'eps', 'logit')
    return _op.logit(input, eps)

@_b.checked(_op.lgamma)
def lgamma(input: Tensor | Number) -> Tensor:
    """lgamma(Tensor self) -> Tensor
    
    Natural logarithm of the absolute value of the gamma function.
    """
    return _op.lgamma(input)

@_b.checked(_op.digamma)
def digamma(input: Tensor | Number) -> Tensor:
    """digamma(Tensor self) -> Tensor
    
    The logarithmic derivative of the gamma function.
    """
    return _op.digamma(input)

@_b.checked(_op.polygamma)
def polygamma(n: int, input: Tensor | Number) -> Tensor:
    """polygamma(int n, Tensor self) -> Tensor
    
    The n-th derivative of the digamma function.
    """
    if n.__class__ is not int or not -9223372036854775808 <= n <= 9223372036854775807: n = _b.int_arg(n, 'n', 'polygamma')
    return _op.polygamma(n, input)

@_b.checked(_op.mvlgamma)
def mvlgamma(input: Tensor, p: int) -> Tensor:
    """mvlgamma(Tensor self, int p) -> Tensor
    
    The multivariate log-gamma function of dimension p.
    """
    if p.__class__ is not int or not -9223372036854775808 <= p <= 9223372036854775807: p = _b.int_arg(p, 'p', 'mvlgamma')
    return _op.mvlgamma(input, p)

@_b.checked(_op.i0)
def i0(input: Tensor | Number) -> Tensor:
    """i0(Tensor self) -> Tensor
    
    The modified Bessel function of the first kind, order 0.
    """
    return _op.i0(input)

@_b.checked(_op.i0e)
def i0e(input: Tensor | Number) -> Tensor:
    """i0e(Tensor self) -> Tensor
    
    The exponentially scaled modified Bessel function of the first kind, order 0.
    """
    return _op.i0e(input)

@_b.checked(_op.i1)
def i1(input: Tensor | Number) -> Tensor:
    """i1(Tensor self) -> Tensor
    
    The modified Bessel function of the first kind, order 1.
    """
    return _op.i1(input)

@_b.checked(_op.i1e)
def i1e(input: Tensor | Number) -> Tensor:
    """i1e(Tensor self) -> Tensor
    
    The exponentially scaled modified Bessel function of the first kind, order 1.
    """
    return _op.i1e(input)

@_b.checked(_op.ndtr)
def ndtr(input: Tensor | Number) -> Tensor:
    """ndtr(Tensor self) -> Tensor
    
    The standard normal cumulative distribution function.
    """
    return _op.ndtr(input)

@_b.checked(_op.ndtri)
def ndtri(input: Tensor | Number) -> Tensor:
    """ndtri(Tensor self) -> Tensor
    
    The inverse of the standard normal cumulative distribution function.
    """
    return _op.ndtri(input)

@_b.checked(_op.log_ndtr)
def log_ndtr(input: Tensor | Number) -> Tensor:
    """log_ndtr(Tensor self) -> Tensor
    
    The log of the standard normal cumulative distribution function.
    """
    return _op.log_ndtr(input)

@_b.checked(_op.erfcx)
def erfcx(input: Tensor | Number) -> Tensor:
    """erfcx(Tensor self) -> Tensor
    
    The scaled complementary error function exp(x^2) erfc(x).
    """
    return _op.erfcx(input)

@_b.checked(_op.entr)
def entr(input: Tensor | Number) -> Tensor:
    """entr(Tensor self) -> Tensor
    
    The elementwise entropy -x log(x) (0 at 0, -inf below 0).
    """
    return _op.entr(input)

@_b.checked(_op.xlog1py)
def xlog1py(input: Tensor | Number, other: Tensor | Number) -> Tensor:
    """xlog1py(Tensor self, Tensor other) -> Tensor
    
    self * log1p(other), 0 where self is 0 (unless other is nan).
    """
    return _op.xlog1py(input, other)

@_b.checked(_op.zeta)
def zeta(input: Tensor | Number, other: Tensor | Number) -> Tensor:
    """zeta(Tensor self, Tensor other) -> Tensor
    
    The Hurwitz zeta function zeta(x, q).
    """
    return _op.zeta(input, other)

@_b.checked(_op.igamma)
def igamma(input: Tensor, other: Tensor) -> Tensor:
    """igamma(Tensor self, Tensor other) -> Tensor
    
    The regularized lower incomplete gamma function.
    """
    return _op.igamma(input, other)

@_b.checked(_op.igammac)
def igammac(input: Tensor, other: Tensor) -> Tensor:
    """igammac(Tensor self, Tensor other) -> Tensor
    
    The regularized upper incomplete gamma function.
    """
    return _op.igammac(input, other)

@_b.checked(_op.airy_ai)
def airy_ai(input: Tensor | Number) -> Tensor:
    """airy_ai(Tensor self) -> Tensor
    
    The Airy function Ai.
    """
    return _op.airy_ai(input)

@_b.checked(_op.bessel_j0)
def bessel_j0(input: Tensor | Number) -> Tensor:
    """bessel_j0(Tensor self) -> Tensor
    
    The Bessel function of the first kind, order 0.
    """
    return _op.bessel_j0(input)

@_b.checked(_op.bessel_j1)
def bessel_j1(input: Tensor | Number) -> Tensor:
    """bessel_j1(Tensor self) -> Tensor
    
    The Bessel function of the first kind, order 1.
    """
    return _op.bessel_j1(input)

@_b.checked(_op.bessel_y0)
def bessel_y0(input: Tensor | Number) -> Tensor:
    """bessel_y0(Tensor self) -> Tensor
    
    The Bessel function of the second kind, order 0.
    """
    return _op.bessel_y0(input)

@_b.checked(_op.bessel_y1)
def bessel_y1(input: Tensor | Number) -> Tensor:
    """bessel_y1(Tensor self) -> Tensor
    
    The Bessel function of the second kind, order 1.
    """
    return _op.bessel_y1(input)

@_b.checked(_op.modified_bessel_i0)
def modified_bessel_i0(input: Tensor | Number) -> Tensor:
    """modified_bessel_i0(Tensor self) -> Tensor
    
    The modified Bessel function of the first kind, order 0.
    """
    return _op.modified_bessel_i0(input)

@_b.checked(_op.modified_bessel_i1)
def modified_bessel_i1(input: Tensor | Number) -> Tensor:
    """modified_bessel_i1(Tensor self) -> Tensor
    
    The modified Bessel function of the first kind, order 1.
    """
    return _op.modified_bessel_i1(input)

@_b.checked(_op.modified_bessel_k0)
def modified_bessel_k0(input: Tensor | Number) -> Tensor:
    """modified_bessel_k0(Tensor self) -> Tensor
    
    The modified Bessel function of the second kind, order 0.
    """
    return _op.modified_bessel_k0(input)

@_b.checked(_op.modified_bessel_k1)
def modified_bessel_k1(input: Tensor | Number) -> Tensor:
    """modified_bessel_k1(Tensor self) -> Tensor
    
    The modified Bessel function of the second kind, order 1.
    """
    return _op.modified_bessel_k1(input)

@_b.checked(_op.scaled_modified_bessel_k0)
def scaled_modified_bessel_k0(input: Tensor | Number) -> Tensor:
    """scaled_modified_bessel_k0(Tensor self) -> Tensor
    
    The exponentially scaled modified Bessel function of the second kind, order 0.
    """
    return _op.scaled_modified_bessel_k0(input)

@_b.checked(_op.scaled_modified_bessel_k1)
def scaled_modified_bessel_k1(input: Tensor | Number) -> Tensor:
    """scaled_modified_bessel_k1(Tensor self) -> Tensor
    
    The exponentially scaled modified Bessel function of the second kind, order 1.
    """
    return _op.scaled_modified_bessel_k1(input)

@_b.checked(_op.spherical_bessel_j0)
def spherical_bessel_j0(input: Tensor | Number) -> Tensor:
    """spherical_bessel_j0(Tensor self) -> Tensor
    
    The spherical Bessel function of the first kind, order 0.
    """
    return _op.spherical_bessel_j0(input)

@_b.checked(_op.chebyshev_polynomial_t)
def chebyshev_polynomial_t(x: Tensor | Number, n: Tensor | Number) -> Tensor:
    """chebyshev_polynomial_t(Tensor x, Tensor n) -> Tensor
    
    Chebyshev polynomial of the first kind T_n(x). (n truncated to an integer)
    """
    return _op.chebyshev_polynomial_t(x, n)

@_b.checked(_op.chebyshev_polynomial_u)
def chebyshev_polynomial_u(x: Tensor | Number, n: Tensor | Number) -> Tensor:
    """chebyshev_polynomial_u(Tensor x, Tensor n) -> Tensor
    
    Chebyshev polynomial of the second kind U_n(x). (n truncated to an integer)
    """
    return _op.chebyshev_polynomial_u(x, n)

@_b.checked(_op.chebyshev_polynomial_v)
def chebyshev_polynomial_v(x: Tensor | Number, n: Tensor | Number) -> Tensor:
    """chebyshev_polynomial_v(Tensor x, Tensor n) -> Tensor
    
    Chebyshev polynomial of the third kind V_n(x). (n truncated to an integer)
    """
    return _op.chebyshev_polynomial_v(x, n)

@_b.checked(_op.chebyshev_polynomial_w)
def chebyshev_polynomial_w(x: Tensor | Number, n: Tensor | Number) -> Tensor:
    """chebyshev_polynomial_w(Tensor x, Tensor n) -> Tensor
    
    Chebyshev polynomial of the fourth kind W_n(x). (n truncated to an integer)
    """
    return _op.chebyshev_polynomial_w(x, n)

@_b.checked(_op.shifted_chebyshev_polynomial_t)
def shifted_chebyshev_polynomial_t(x: Tensor | Number, n: Tensor | Number) -> Tensor:
    """shifted_chebyshev_polynomial_t(Tensor x, Tensor n) -> Tensor
    
    Shifted Chebyshev polynomial of the first kind T*_n(x). (n truncated to an integer)
    """
    return _op.shifted_chebyshev_polynomial_t(x, n)

@_b.checked(_op.shifted_chebyshev_polynomial_u)
def shifted_chebyshev_polynomial_u(x: Tensor | Number, n: Tensor | Number) -> Tensor:
    """shifted_chebyshev_polynomial_u(Tensor x, Tensor n) -> Tensor
    
    Shifted Chebyshev polynomial of the second kind U*_n(x). (n truncated to an integer)
    """
    return _op.shifted_chebyshev_polynomial_u(x, n)

@_b.checked(_op.shifted_chebyshev_polynomial_v)
def shifted_chebyshev_polynomial_v(x: Tensor | Number, n: Tensor | Number) -> Tensor:
    """shifted_chebyshev_polynomial_v(Tensor x, Tensor n) -> Tensor
    
    Shifted Chebyshev polynomial of the third kind V*_n(x). (n truncated to an integer)
    """
    return _op.shifted_chebyshev_polynomial_v(x, n)

@_b.checked(_op.shifted_chebyshev_polynomial_w)
def shifted_chebyshev_polynomial_w(x: Tensor | Number, n: Tensor | Number) -> Tensor:
    """shifted_chebyshev_polynomial_w(Tensor x, Tensor n) -> Tensor
    
    Shifted Chebyshev polynomial of the fourth kind W*_n(x). (n truncated to an integer)
    """
    return _op.shifted_chebyshev_polynomial_w(x, n)

@_b.checked(_op.hermite_polynomial_h)
def hermite_polynomial_h(x: Tensor | Number, n: Tensor | Number) -> Tensor:
    """hermite_polynomial_h(Tensor x, Tensor n) -> Tensor
    
    Physicists' Hermite polynomial H_n(x). (n truncated to an integer)
    """
    return _op.hermite_polynomial_h(x, n)

@_b.checked(_op.hermite_polynomial_he)
def hermite_polynomial_he(x: Tensor | Number, n: Tensor | Number) -> Tensor:
    """hermite_polynomial_he(Tensor x, Tensor n) -> Tensor
    
    Probabilists' Hermite polynomial He_n(x). (n truncated to an integer)
    """
    return _op.hermite_polynomial_he(x, n)

@_b.checked(_op.laguerre_polynomial_l)
def laguerre_polynomial_l(x: Tensor | Number, n: Tensor | Number) -> Tensor:
    """laguerre_polynomial_l(Tensor x, Tensor n) -> Tensor
    
    Laguerre polynomial L_n(x). (n truncated to an integer)
    """
    return _op.laguerre_polynomial_l(x, n)

@_b.checked(_op.legendre_polynomial_p)
def legendre_polynomial_p(x: Tensor | Number, n: Tensor | Number) -> Tensor:
    """legendre_polynomial_p(Tensor x, Tensor n) -> Tensor
    
    Legendre polynomial P_n(x). (n truncated to an integer)
    """
    return _op.legendre_polynomial_p(x, n)

@_b.checked(_op.frexp)
def frexp(input: Tensor) -> tuple[Tensor, Tensor]:
    """frexp(Tensor self) -> (Tensor mantissa, Tensor exponent)
    
    Splits each element into a mantissa in [0.5, 1) and an integer power of two.
    """
    return _b.named_result('frexp', ('mantissa', 'exponent'), _op.frexp(input))

@_b.checked(_op.ldexp)
def ldexp(input: Tensor, other: Tensor) -> Tensor:
    """ldexp(Tensor self, Tensor other) -> Tensor
    
    self * 2 ** other.
    """
    return _op.ldexp(input, other)

@_b.checked(_op.heaviside)
def heaviside(input: Tensor, values: Tensor) -> Tensor:
    """heaviside(Tensor self, Tensor values) -> Tensor
    
    The Heaviside step function, with ``values`` where self is 0.
    """
    return _op.heaviside(input, values)

@_b.checked(_op.nextafter)
def nextafter(input: Tensor, other: Tensor) -> Tensor:
    """nextafter(Tensor self, Tensor other) -> Tensor
    
    The next floating-point value after self towards other.
    """
    return _op.nextafter(input, other)

@_b.checked(_op.gcd)
def gcd(input: Tensor, other: Tensor) -> Tensor:
    """gcd(Tensor self, Tensor other) -> Tensor
    
    The greatest common divisor, elementwise.
    """
    return _op.gcd(input, other)

@_b.checked(_op.lcm)
def lcm(input: Tensor, other: Tensor) -> Tensor:
    """lcm(Tensor self, Tensor other) -> Tensor
    
    The least common multiple, elementwise.
    """
    return _op.lcm(input, other)

@_b.checked(_op.logaddexp2)
def logaddexp2(input: Tensor, other: Tensor) -> Tensor:
    """logaddexp2(Tensor self, Tensor other) -> Tensor
    
    log2(2 ** self + 2 ** other), computed without overflow.
    """
    if input.__class__ not in _b.TENSOR_TYPES: _b.tensor_arg(input, 'input', 1, 'logaddexp2')
    if other.__class__ not in _b.TENSOR_TYPES: _b.tensor_arg(other, 'other', 2, 'logaddexp2')
    return _op.logaddexp2(input, other)

@_b.checked(_op.angle)
def angle(input: Tensor) -> Tensor:
    """angle(Tensor self) -> Tensor
    
    The argument of each element (pi for negative reals, 0 otherwise).
    """
    return _op.angle(input)

@_b.checked(_op.isposinf)
def isposinf(input: Tensor) -> Tensor:
    """isposinf(Tensor self) -> Tensor
    
    Whether each element is positive infinity.
    """
    return _op.isposinf(input)

@_b.checked(_op.isneginf)
def isneginf(input: Tensor) -> Tensor:
    """isneginf(Tensor self) -> Tensor
    
    Whether each element is negative infinity.
    """
    return _op.isneginf(input)

@_b.checked(_op.isreal)
def isreal(input: Tensor) -> Tensor:
    """isreal(Tensor self) -> Tensor
    
    Whether each element is real (always, for the real dtypes volta has).
    """
    return _op.isreal(input)

@_b.checked(_op.real)
def real(input: Tensor) -> Tensor:
    """real(Tensor self) -> Tensor
    
    The real part (the tensor itself, for real dtypes).
    """
    return _op.real(input)

@_b.checked(_op.conj)
def conj(input: Tensor) -> Tensor:
    """conj(Tensor self) -> Tensor
    
    The complex conjugate (the tensor itself, for real dtypes).
    """
    return _op.conj(input)

@_b.checked(_op.conj_physical)
def conj_physical(input: Tensor) -> Tensor:
    """conj_physical(Tensor self) -> Tensor
    
    The complex conjugate, materialized (the tensor itself, for real dtypes).
    """
    return _op.conj_physical(input)

@_b.checked(_op.resolve_conj)
def resolve_conj(input: Tensor) -> Tensor:
    """resolve_conj(Tensor self) -> Tensor
    
    Materializes a lazy conjugation (the tensor itself, for real dtypes).
    """
    return _op.resolve_conj(input)

@_b.checked(_op.resolve_neg)
def resolve_neg(input: Tensor) -> Tensor:
    """resolve_neg(Tensor self) -> Tensor
    
    Materializes a lazy negation (the tensor itself, for real dtypes).
    """
    return _op.resolve_neg(input)

@_b.checked(_op.clamp_min)
def clamp_min(input: Tensor, min: Tensor) -> Tensor:
    """clamp_min(Tensor self, Tensor min) -> Tensor
    
    clamp with a lower bound only.
    """
    return _op.clamp_min(input, min)

@_b.checked(_op.clamp_max)
def clamp_max(input: Tensor, max: Tensor) -> Tensor:
    """clamp_max(Tensor self, Tensor max) -> Tensor
    
    clamp with an upper bound only.
    """
    return _op.clamp_max(input, max)

@_b.checked(_op.rsub)
def rsub(input: Tensor, other: Tensor, *, alpha: Number = 1) -> Tensor:
    """rsub(Tensor self, Tensor other, *, Scalar alpha=1) -> Tensor
    
    other - alpha * self (sub with its operands swapped).
    """
    return _op.rsub(input, other, alpha)

@_b.checked(_op.sum)
def sum(input: Tensor, dim: int | Sequence[int] | None = None, keepdim: bool = False, *, dtype: dtype | None = None) -> Tensor:
    """sum(Tensor self, int[1]? dim=None, bool keepdim=False, *, ScalarType? dtype=None) -> Tensor
    """
    dim = _b.int_list(dim, 1, 'dim')
    if keepdim.__class__ is not bool: keepdim = _b.bool_arg(keepdim, 'keepdim', 'sum')
    dtype = _b.dtype_arg(dtype)
    return _op.sum(input, dim, keepdim, dtype)

@_b.checked(_op.nansum)
def nansum(input: Tensor, dim: int | Sequence[int] | None = None, keepdim: bool = False, *, dtype: dtype | None = None) -> Tensor:
    """nansum(Tensor self, int[1]? dim=None, bool keepdim=False, *, ScalarType? dtype=None) -> Tensor
    """
    dim = _b.int_list(dim, 1, 'dim')
    if keepdim.__class__ is not bool: keepdim = _b.bool_arg(keepdim, 'keepdim', 'nansum')
    dtype = _b.dtype_arg(dtype)
    return _op.nansum(input, dim, keepdim, dtype)

@_b.checked(_op.mean)
def mean(input: Tensor, dim: int | Sequence[int] | None = None, keepdim: bool = False, *, dtype: dtype | None = None) -> Tensor:
    """mean(Tensor self, int[1]? dim=None, bool keepdim=False, *, ScalarType? dtype=None) -> Tensor
    """
    dim = _b.int_list(dim, 1, 'dim')
    if keepdim.__class__ is not bool: keepdim = _b.bool_arg(keepdim, 'keepdim', 'mean')
    dtype = _b.dtype_arg(dtype)
    return _op.mean(input, dim, keepdim, dtype)

@_b.checked(_op.prod)
def prod(input: Tensor, dim: int | None = _b.OMITTED, keepdim: bool = False, *, dtype: dtype | None = None) -> Tensor:
    """prod(Tensor self, int? dim=None, bool keepdim=False, *, ScalarType? dtype=None) -> Tensor
    """
    if dim is None: _b.reject_none('dim', 'int', 'prod')
    if dim is _b.OMITTED: dim = None
    if dim is not None and (dim.__class__ is not int or not -9223372036854775808 <= dim <= 9223372036854775807): dim = _b.int_arg(dim, 'dim', 'prod')
    if keepdim.__class__ is not bool: keepdim = _b.bool_arg(keepdim, 'keepdim', 'prod')
    dtype = _b.dtype_arg(dtype)
    return _op.prod(input, dim, keepdim, dtype)

def max(*args: Any, **kwargs: Any) -> Any:
    """max(Tensor self) -> Tensor
    max.dim(Tensor self, int dim, bool keepdim=False) -> (Tensor values, Tensor indices)
    max.other(Tensor self, Tensor other) -> Tensor
    """
    return _b.call_overloaded((_op.max, _op.max_dim, _op.max_other,), args, kwargs, 'max')

def min(*args: Any, **kwargs: Any) -> Any:
    """min(Tensor self) -> Tensor
    min.dim(Tensor self, int dim, bool keepdim=False) -> (Tensor values, Tensor indices)
    min.other(Tensor self, Tensor other) -> Tensor
    """
    return _b.call_overloaded((_op.min, _op.min_dim, _op.min_other,), args, kwargs, 'min')

@_b.checked(_op.amax)
def amax(input: Tensor, dim: int | Sequence[int] = [], keepdim: bool = False) -> Tensor:
    """amax(Tensor self, int[1] dim=[], bool keepdim=False) -> Tensor
    """
    dim = _b.int_list(dim, 1, 'dim')
    if keepdim.__class__ is not bool: keepdim = _b.bool_arg(keepdim, 'keepdim', 'amax')
    return _op.amax(input, dim, keepdim)

@_b.checked(_op.amin)
def amin(input: Tensor, dim: int | Sequence[int] = [], keepdim: bool = False) -> Tensor:
    """amin(Tensor self, int[1] dim=[], bool keepdim=False) -> Tensor
    """
    dim = _b.int_list(dim, 1, 'dim')
    if keepdim.__class__ is not bool: keepdim = _b.bool_arg(keepdim, 'keepdim', 'amin')
    return _op.amin(input, dim, keepdim)

@_b.checked(_op.aminmax)
def aminmax(input: Tensor, *, dim: int | None = None, keepdim: bool = False) -> tuple[Tensor, Tensor]:
    """aminmax(Tensor self, *, int? dim=None, bool keepdim=False) -> (Tensor min, Tensor max)
    """
    if dim is not None and (dim.__class__ is not int or not -9223372036854775808 <= dim <= 9223372036854775807): dim = _b.int_arg(dim, 'dim', 'aminmax')
    if keepdim.__class__ is not bool: keepdim = _b.bool_arg(keepdim, 'keepdim', 'aminmax')
    return _b.named_result('aminmax', ('min', 'max'), _op.aminmax(input, dim, keepdim))

@_b.checked(_op.argmax)
def argmax(input: Tensor, dim: int | None = None, keepdim: bool = False) -> Tensor:
    """argmax(Tensor self, int? dim=None, bool keepdim=False) -> Tensor
    """
    if dim is not None and (dim.__class__ is not int or not -9223372036854775808 <= dim <= 9223372036854775807): dim = _b.int_arg(dim, 'dim', 'argmax')
    if keepdim.__class__ is not bool: keepdim = _b.bool_arg(keepdim, 'keepdim', 'argmax')
    return _op.argmax(input, dim, keepdim)

@_b.checked(_op.argmin)
def argmin(input: Tensor, dim: int | None = None, keepdim: bool = False) -> Tensor:
    """argmin(Tensor self, int? dim=None, bool keepdim=False) -> Tensor
    """
    if dim is not None and (dim.__class__ is not int or not -9223372036854775808 <= dim <= 9223372036854775807): dim = _b.int_arg(dim, 'dim', 'argmin')
    if keepdim.__class__ is not bool: keepdim = _b.bool_arg(keepdim, 'keepdim', 'argmin')
    return _op.argmin(input, dim, keepdim)

def var(*args: Any, **kwargs: Any) -> Any:
    """var.correction(Tensor self, int[1]? dim=None, *, Scalar? correction=None, bool keepdim=False) -> Tensor
    var.dim(Tensor self, int[1]? dim, bool unbiased=True, bool keepdim=False) -> Tensor
    var(Tensor self, bool unbiased=True) -> Tensor
    """
    return _b.call_overloaded((_op.var_correction, _op.var_dim, _op.var,), args, kwargs, 'var')

def std(*args: Any, **kwargs: Any) -> Any:
    """std.correction(Tensor self, int[1]? dim=None, *, Scalar? correction=None, bool keepdim=False) -> Tensor
    std.dim(Tensor self, int[1]? dim, bool unbiased=True, bool keepdim=False) -> Tensor
    std(Tensor self, bool unbiased=True) -> Tensor
    """
    return _b.call_overloaded((_op.std_correction, _op.std_dim, _op.std,), args, kwargs, 'std')

@_b.checked(_op.var_mean)
def var_mean(input: Tensor, dim: int | Sequence[int] | None = None, *, correction: Number | None = None, keepdim: bool = False) -> tuple[Tensor, Tensor]:
    """var_mean(Tensor self, int[1]? dim=None, *, Scalar? correction=None, bool keepdim=False) -> (Tensor, Tensor)
    """
    dim = _b.int_list(dim, 1, 'dim')
    if keepdim.__class__ is not bool: keepdim = _b.bool_arg(keepdim, 'keepdim', 'var_mean')
    return _op.var_mean(input, dim, correction, keepdim)

@_b.checked(_op.std_mean)
def std_mean(input: Tensor, dim: int | Sequence[int] | None = None, *, correction: Number | None = None, keepdim: bool = False) -> tuple[Tensor, Tensor]:
    """std_mean(Tensor self, int[1]? dim=None, *, Scalar? correction=None, bool keepdim=False) -> (Tensor, Tensor)
    """
    dim = _b.int_list(dim, 1, 'dim')
    if keepdim.__class__ is not bool: keepdim = _b.bool_arg(keepdim, 'keepdim', 'std_mean')
    return _op.std_mean(input, dim, correction, keepdim)

@_b.checked(_op.vector_norm)
def vector_norm(input: Tensor, ord: Number = 2, dim: int | Sequence[int] | None = None, keepdim: bool = False, *, dtype: dtype | None = None) -> Tensor:
    """vector_norm(Tensor self, Scalar ord=2, int[1]? dim=None, bool keepdim=False, *, ScalarType? dtype=None) -> Tensor
    """
    dim = _b.int_list(dim, 1, 'dim')
    if keepdim.__class__ is not bool: keepdim = _b.bool_arg(keepdim, 'keepdim', 'vector_norm')
    dtype = _b.dtype_arg(dtype)
    return _op.vector_norm(input, ord, dim, keepdim, dtype)

def norm(*args: Any, **kwargs: Any) -> Any:
    """norm(Tensor self, Scalar? p=2, int[1]? dim=None, bool keepdim=False, *, ScalarType? dtype=None) -> Tensor
    norm.str(Tensor self, str p, int[1]? dim=None, bool keepdim=False, *, ScalarType? dtype=None) -> Tensor
    """
    return _b.call_overloaded((_op.norm, _op.norm_str,), args, kwargs, 'norm')

@_b.checked(_op.dist)
def dist(input: Tensor, other: Tensor, p: Number = 2) -> Tensor:
    """dist(Tensor self, Tensor other, Scalar p=2) -> Tensor
    """
    if input.__class__ not in _b.TENSOR_TYPES: _b.tensor_arg(input, 'input', 1, 'dist')
    if other.__class__ not in _b.TENSOR_TYPES: _b.tensor_arg(other, 'other', 2, 'dist')
    return _op.dist(input, other, p)

@_b.checked(_op.logsumexp)
def logsumexp(input: Tensor, dim: int | Sequence[int], keepdim: bool = False) -> Tensor:
    """logsumexp(Tensor self, int[1] dim, bool keepdim=False) -> Tensor
    """
    dim = _b.int_list(dim, 1, 'dim')
    if keepdim.__class__ is not bool: keepdim = _b.bool_arg(keepdim, 'keepdim', 'logsumexp')
    return _op.logsumexp(input, dim, keepdim)

@_b.checked(_op.all)
def all(input: Tensor, dim: int | Sequence[int] | None = None, keepdim: bool = False) -> Tensor:
    """all(Tensor self, int[1]? dim=None, bool keepdim=False) -> Tensor
    """
    dim = _b.int_list(dim, 1, 'dim')
    if keepdim.__class__ is not bool: keepdim = _b.bool_arg(keepdim, 'keepdim', 'all')
    return _op.all(input, dim, keepdim)

@_b.checked(_op.any)
def any(input: Tensor, dim: int | Sequence[int] | None = None, keepdim: bool = False) -> Tensor:
    """any(Tensor self, int[1]? dim=None, bool keepdim=False) -> Tensor
    """
    dim = _b.int_list(dim, 1, 'dim')
    if keepdim.__class__ is not bool: keepdim = _b.bool_arg(keepdim, 'keepdim', 'any')
    return _op.any(input, dim, keepdim)

@_b.checked(_op.count_nonzero)
def count_nonzero(input: Tensor, dim: int | Sequence[int] | None = None) -> Tensor:
    """count_nonzero(Tensor self, int[1]? dim=None) -> Tensor
    """
    dim = _b.int_list(dim, 1, 'dim')
    return _op.count_nonzero(input, dim)

@_b.checked(_op.cumsum)
def cumsum(input: Tensor, dim: int, *, dtype: dtype | None = None) -> Tensor:
    """cumsum(Tensor self, int dim, *, ScalarType? dtype=None) -> Tensor
    """
    if dim.__class__ is not int or not -9223372036854775808 <= dim <= 9223372036854775807: dim = _b.int_arg(dim, 'dim', 'cumsum')
    dtype = _b.dtype_arg(dtype)
    return _op.cumsum(input, dim, dtype)

@_b.checked(_op._cumsum_backward)
def _cumsum_backward(grad_output: Tensor, dim: int) -> Tensor:
    """_cumsum_backward(Tensor grad_output, int dim) -> Tensor
    """
    if dim.__class__ is not int or not -9223372036854775808 <= dim <= 9223372036854775807: dim = _b.int_arg(dim, 'dim', '_cumsum_backward')
    return _op._cumsum_backward(grad_output, dim)

@_b.checked(_op.cumprod)
def cumprod(input: Tensor, dim: int, *, dtype: dtype | None = None) -> Tensor:
    """cumprod(Tensor self, int dim, *, ScalarType? dtype=None) -> Tensor
    """
    if dim.__class__ is not int or not -9223372036854775808 <= dim <= 9223372036854775807: dim = _b.int_arg(dim, 'dim', 'cumprod')
    dtype = _b.dtype_arg(dtype)
    return _op.cumprod(input, dim, dtype)

def median(*args: Any, **kwargs: Any) -> Any:
    """median(Tensor self) -> Tensor
    median.dim(Tensor self, int dim, bool keepdim=False) -> (Tensor values, Tensor indices)
    """
    return _b.call_overloaded((_op.median, _op.median_dim,), args, kwargs, 'median')

@_b.checked(_op.cummax)
def cummax(input: Tensor, dim: int) -> tuple[Tensor, Tensor]:
    """cummax(Tensor self, int dim) -> (Tensor values, Tensor indices)
    
    Running maximum along dim, with the index of each maximum.
    """
    if dim.__class__ is not int or not -9223372036854775808 <= dim <= 9223372036854775807: dim = _b.int_arg(dim, 'dim', 'cummax')
    return _b.named_result('cummax', ('values', 'indices'), _op.cummax(input, dim))

@_b.checked(_op.cummin)
def cummin(input: Tensor, dim: int) -> tuple[Tensor, Tensor]:
    """cummin(Tensor self, int dim) -> (Tensor values, Tensor indices)
    
    Running minimum along dim, with the index of each minimum.
    """
    if dim.__class__ is not int or not -9223372036854775808 <= dim <= 9223372036854775807: dim = _b.int_arg(dim, 'dim', 'cummin')
    return _b.named_result('cummin', ('values', 'indices'), _op.cummin(input, dim))

@_b.checked(_op.logcumsumexp)
def logcumsumexp(input: Tensor, dim: int) -> Tensor:
    """logcumsumexp(Tensor self, int dim) -> Tensor
    
    log(cumsum(exp(self))) along dim, computed without overflow.
    """
    if dim.__class__ is not int or not -9223372036854775808 <= dim <= 9223372036854775807: dim = _b.int_arg(dim, 'dim', 'logcumsumexp')
    return _op.logcumsumexp(input, dim)

@_b.checked(_op.nanmean)
def nanmean(input: Tensor, dim: int | Sequence[int] | None = None, keepdim: bool = False, *, dtype: dtype | None = None) -> Tensor:
    """nanmean(Tensor self, int[1]? dim=None, bool keepdim=False, *, ScalarType? dtype=None) -> Tensor
    
    The mean of the elements that are not nan.
    """
    dim = _b.int_list(dim, 1, 'dim')
    if keepdim.__class__ is not bool: keepdim = _b.bool_arg(keepdim, 'keepdim', 'nanmean')
    dtype = _b.dtype_arg(dtype)
    return _op.nanmean(input, dim, keepdim, dtype)

def nanmedian(*args: Any, **kwargs: Any) -> Any:
    """nanmedian(Tensor self) -> Tensor
    nanmedian.dim(Tensor self, int dim, bool keepdim=False) -> (Tensor values, Tensor indices)
    
    The lower median of the elements that are not nan.
    
    The lower median along dim ignoring nan, with its index.
    """
    return _b.call_overloaded((_op.nanmedian, _op.nanmedian_dim,), args, kwargs, 'nanmedian')

def quantile(*args: Any, **kwargs: Any) -> Any:
    """quantile(Tensor self, Tensor q, int? dim=None, bool keepdim=False, *, str interpolation='linear') -> Tensor
    quantile.scalar(Tensor self, float q, int? dim=None, bool keepdim=False, *, str interpolation='linear') -> Tensor
    
    The q-th quantiles along dim (of all elements when dim is None).
    """
    return _b.call_overloaded((_op.quantile, _op.quantile_scalar,), args, kwargs, 'quantile')

def nanquantile(*args: Any, **kwargs: Any) -> Any:
    """nanquantile(Tensor self, Tensor q, int? dim=None, bool keepdim=False, *, str interpolation='linear') -> Tensor
    nanquantile.scalar(Tensor self, float q, int? dim=None, bool keepdim=False, *, str interpolation='linear') -> Tensor
    
    quantile ignoring nan.
    """
    return _b.call_overloaded((_op.nanquantile, _op.nanquantile_scalar,), args, kwargs, 'nanquantile')

@_b.checked(_op.kthvalue)
def kthvalue(input: Tensor, k: int, dim: int = -1, keepdim: bool = False) -> tuple[Tensor, Tensor]:
    """kthvalue(Tensor self, int k, int dim=-1, bool keepdim=False) -> (Tensor values, Tensor indices)
    
    The k-th smallest element along dim, with its index.
    """
    if k.__class__ is not int or not -9223372036854775808 <= k <= 9223372036854775807: k = _b.int_arg(k, 'k', 'kthvalue')
    if dim.__class__ is not int or not -9223372036854775808 <= dim <= 9223372036854775807: dim = _b.int_arg(dim, 'dim', 'kthvalue')
    if keepdim.__class__ is not bool: keepdim = _b.bool_arg(keepdim, 'keepdim', 'kthvalue')
    return _b.named_result('kthvalue', ('values', 'indices'), _op.kthvalue(input, k, dim, keepdim))

@_b.checked(_op.mode)
def mode(input: Tensor, dim: int = -1, keepdim: bool = False) -> tuple[Tensor, Tensor]:
    """mode(Tensor self, int dim=-1, bool keepdim=False) -> (Tensor values, Tensor indices)
    
    The most frequent value along dim (the smallest among ties), with its index.
    """
    if dim.__class__ is not int or not -9223372036854775808 <= dim <= 9223372036854775807: dim = _b.int_arg(dim, 'dim', 'mode')
    if keepdim.__class__ is not bool: keepdim = _b.bool_arg(keepdim, 'keepdim', 'mode')
    return _b.named_result('mode', ('values', 'indices'), _op.mode(input, dim, keepdim))

@_b.checked(_op.msort)
def msort(input: Tensor) -> Tensor:
    """msort(Tensor self) -> Tensor
    
    Sorts along the first dimension.
    """
    return _op.msort(input)

@_b.checked(_op.histc)
def histc(input: Tensor, bins: int = 100, min: Number = 0, max: Number = 0) -> Tensor:
    """histc(Tensor self, int bins=100, Scalar min=0, Scalar max=0) -> Tensor
    
    A histogram of equal-width bins over [min, max] (the data's range when both are 0).
    """
    if bins.__class__ is not int or not -9223372036854775808 <= bins <= 9223372036854775807: bins = _b.int_arg(bins, 'bins', 'histc')
    return _op.histc(input, bins, min, max)

def histogram(*args: Any, **kwargs: Any) -> Any:
    """histogram.bins_tensor(Tensor self, Tensor bins, *, float[]? range=None, Tensor? weight=None, bool density=False) -> (Tensor hist, Tensor bin_edges)
    histogram.bin_ct(Tensor self, int bins=100, *, float[]? range=None, Tensor? weight=None, bool density=False) -> (Tensor hist, Tensor bin_edges)
    
    A histogram over the given bin edges.
    
    A histogram of equal-width bins.
    """
    return _b.call_overloaded((_op.histogram_bins_tensor, _op.histogram_bin_ct,), args, kwargs, 'histogram')

def histogramdd(*args: Any, **kwargs: Any) -> Any:
    """histogramdd.TensorList_bins(Tensor self, Tensor[] bins, float[]? range=None, Tensor? weight=None, bool density=False) -> (Tensor hist, Tensor[] bin_edges)
    histogramdd.int_bins(Tensor self, int bins, float[]? range=None, Tensor? weight=None, bool density=False) -> (Tensor hist, Tensor[] bin_edges)
    histogramdd(Tensor self, int[] bins, float[]? range=None, Tensor? weight=None, bool density=False) -> (Tensor hist, Tensor[] bin_edges)
    
    A histogram of the points in self's last dimension.
    """
    return _b.call_overloaded((_op.histogramdd_TensorList_bins, _op.histogramdd_int_bins, _op.histogramdd,), args, kwargs, 'histogramdd')

@_b.checked(_op.bucketize)
def bucketize(input: Tensor, boundaries: Tensor, *, out_int32: bool = False, right: bool = False) -> Tensor:
    """bucketize(Tensor self, Tensor boundaries, *, bool out_int32=False, bool right=False) -> Tensor
    
    The index of the bucket of each element (searchsorted with the arguments swapped).
    """
    if out_int32.__class__ is not bool: out_int32 = _b.bool_arg(out_int32, 'out_int32', 'bucketize')
    if right.__class__ is not bool: right = _b.bool_arg(right, 'right', 'bucketize')
    return _op.bucketize(input, boundaries, out_int32, right)

@_b.checked(_op.isin)
def isin(elements: Tensor, test_elements: Tensor, *, assume_unique: bool = False, invert: bool = False) -> Tensor:
    """isin(Tensor elements, Tensor test_elements, *, bool assume_unique=False, bool invert=False) -> Tensor
    
    Whether each element is in test_elements.
    """
    if assume_unique.__class__ is not bool: assume_unique = _b.bool_arg(assume_unique, 'assume_unique', 'isin')
    if invert.__class__ is not bool: invert = _b.bool_arg(invert, 'invert', 'isin')
    return _op.isin(elements, test_elements, assume_unique, invert)

@_b.checked(_op.unique_consecutive)
def unique_consecutive(input: Tensor, return_inverse: bool = False, return_counts: bool = False, dim: int | None = None) -> tuple[Tensor, ...]:
    """unique_consecutive(Tensor self, bool return_inverse=False, bool return_counts=False, int? dim=None) -> Tensor[]
    
    Collapses runs of equal consecutive elements (or slices along dim).
    """
    if return_inverse.__class__ is not bool: return_inverse = _b.bool_arg(return_inverse, 'return_inverse', 'unique_consecutive')
    if return_counts.__class__ is not bool: return_counts = _b.bool_arg(return_counts, 'return_counts', 'unique_consecutive')
    if dim is not None and (dim.__class__ is not int or not -9223372036854775808 <= dim <= 9223372036854775807): dim = _b.int_arg(dim, 'dim', 'unique_consecutive')
    return _op.unique_consecutive(input, return_inverse, return_counts, dim)

@_b.checked(_op.matmul)
def matmul(input: Tensor, other: Tensor) -> Tensor:
    """matmul(Tensor self, Tensor other) -> Tensor
    """
    return _op.matmul(input, other)

@_b.checked(_op.mm)
def mm(input: Tensor, mat2: Tensor) -> Tensor:
    """mm(Tensor self, Tensor mat2) -> Tensor
    """
    return _op.mm(input, mat2)

@_b.checked(_op.bmm)
def bmm(input: Tensor, mat2: Tensor) -> Tensor:
    """bmm(Tensor self, Tensor mat2) -> Tensor
    """
    return _op.bmm(input, mat2)

@_b.checked(_op.addmm)
def addmm(input: Tensor, mat1: Tensor, mat2: Tensor, *, beta: Number = 1, alpha: Number = 1) -> Tensor:
    """addmm(Tensor self, Tensor mat1, Tensor mat2, *, Scalar beta=1, Scalar alpha=1) -> Tensor
    """
    return _op.addmm(input, mat1, mat2, beta, alpha)

@_b.checked(_op.addmv)
def addmv(input: Tensor, mat: Tensor, vec: Tensor, *, beta: Number = 1, alpha: Number = 1) -> Tensor:
    """addmv(Tensor self, Tensor mat, Tensor vec, *, Scalar beta=1, Scalar alpha=1) -> Tensor
    """
    return _op.addmv(input, mat, vec, beta, alpha)

@_b.checked(_op.baddbmm)
def baddbmm(input: Tensor, batch1: Tensor, batch2: Tensor, *, beta: Number = 1, alpha: Number = 1) -> Tensor:
    """baddbmm(Tensor self, Tensor batch1, Tensor batch2, *, Scalar beta=1, Scalar alpha=1) -> Tensor
    """
    return _op.baddbmm(input, batch1, batch2, beta, alpha)

@_b.checked(_op.einsum)
def einsum(equation: str, tensors: Sequence[Tensor]) -> Tensor:
    """einsum(str equation, Tensor[] tensors) -> Tensor
    """
    if equation.__class__ is not str: equation = _b.str_arg(equation, 'equation', 'einsum')
    tensors = _b.tensor_list(tensors, 'tensors')
    return _op.einsum(equation, tensors)

@_b.checked(_op.outer)
def outer(input: Tensor, vec2: Tensor) -> Tensor:
    """outer(Tensor self, Tensor vec2) -> Tensor
    """
    return _op.outer(input, vec2)

@_b.checked(_op.outer)
def ger(input: Tensor, vec2: Tensor) -> Tensor:
    """outer(Tensor self, Tensor vec2) -> Tensor
    """
    return _op.outer(input, vec2)

@_b.checked(_op.dot)
def dot(input: Tensor, tensor: Tensor) -> Tensor:
    """dot(Tensor self, Tensor tensor) -> Tensor
    """
    return _op.dot(input, tensor)

@_b.checked(_op.mv)
def mv(input: Tensor, vec: Tensor) -> Tensor:
    """mv(Tensor self, Tensor vec) -> Tensor
    """
    return _op.mv(input, vec)

@_b.checked(_op.trace)
def trace(input: Tensor) -> Tensor:
    """trace(Tensor self) -> Tensor
    
    Sum of the main diagonal of a 2-D tensor; integer inputs sum to int64, as in ``sum``.
    """
    return _op.trace(input)

@_b.checked(_op.tensordot)
def tensordot(input: Tensor, other: Tensor, dims_a: int | Sequence[int], dims_b: int | Sequence[int]) -> Tensor:
    """tensordot(Tensor self, Tensor other, int[] dims_a, int[] dims_b) -> Tensor
    """
    dims_a = _b.int_list(dims_a, 0, 'dims_a')
    dims_b = _b.int_list(dims_b, 0, 'dims_b')
    return _op.tensordot(input, other, dims_a, dims_b)

@_b.checked(_op.linalg_inv_ex)
def linalg_inv_ex(A: Tensor, *, check_errors: bool = False) -> tuple[Tensor, Tensor]:
    """linalg_inv_ex(Tensor A, *, bool check_errors=False) -> (Tensor inverse, Tensor info)
    
    Inverse of a square matrix and a LAPACK-style info code (nonzero where singular).
    """
    if check_errors.__class__ is not bool: check_errors = _b.bool_arg(check_errors, 'check_errors', 'linalg_inv_ex')
    return _b.named_result('linalg_inv_ex', ('inverse', 'info'), _op.linalg_inv_ex(A, check_errors))

@_b.checked(_op.linalg_inv)
def linalg_inv(A: Tensor) -> Tensor:
    """linalg_inv(Tensor A) -> Tensor
    
    Inverse of a square matrix; raises on a singular one.
    """
    return _op.linalg_inv(A)

@_b.checked(_op.inverse)
def inverse(input: Tensor) -> Tensor:
    """inverse(Tensor self) -> Tensor
    
    Alias of linalg.inv.
    """
    return _op.inverse(input)

@_b.checked(_op.linalg_solve_ex)
def linalg_solve_ex(A: Tensor, B: Tensor, *, left: bool = True, check_errors: bool = False) -> tuple[Tensor, Tensor]:
    """linalg_solve_ex(Tensor A, Tensor B, *, bool left=True, bool check_errors=False) -> (Tensor result, Tensor info)
    
    Solution X of A X = B (X A = B when not left) and a LAPACK-style info code.
    """
    if left.__class__ is not bool: left = _b.bool_arg(left, 'left', 'linalg_solve_ex')
    if check_errors.__class__ is not bool: check_errors = _b.bool_arg(check_errors, 'check_errors', 'linalg_solve_ex')
    return _b.named_result('linalg_solve_ex', ('result', 'info'), _op.linalg_solve_ex(A, B, left, check_errors))

@_b.checked(_op.linalg_solve)
def linalg_solve(A: Tensor, B: Tensor, *, left: bool = True) -> Tensor:
    """linalg_solve(Tensor A, Tensor B, *, bool left=True) -> Tensor
    
    Solution X of A X = B (X A = B when not left); raises on a singular A.
    """
    if left.__class__ is not bool: left = _b.bool_arg(left, 'left', 'linalg_solve')
    return _op.linalg_solve(A, B, left)

@_b.checked(_op.linalg_det)
def linalg_det(A: Tensor) -> Tensor:
    """linalg_det(Tensor A) -> Tensor
    
    Determinant of a square matrix.
    """
    return _op.linalg_det(A)

@_b.checked(_op.det)
def det(input: Tensor) -> Tensor:
    """det(Tensor self) -> Tensor
    
    Alias of linalg.det.
    """
    return _op.det(input)

@_b.checked(_op.linalg_slogdet)
def linalg_slogdet(A: Tensor) -> tuple[Tensor, Tensor]:
    """linalg_slogdet(Tensor A) -> (Tensor sign, Tensor logabsdet)
    
    Sign and natural logarithm of the absolute value of the determinant.
    """
    return _b.named_result('linalg_slogdet', ('sign', 'logabsdet'), _op.linalg_slogdet(A))

@_b.checked(_op.slogdet)
def slogdet(input: Tensor) -> tuple[Tensor, Tensor]:
    """slogdet(Tensor self) -> (Tensor sign, Tensor logabsdet)
    
    Alias of linalg.slogdet.
    """
    return _b.named_result('slogdet', ('sign', 'logabsdet'), _op.slogdet(input))

@_b.checked(_op.logdet)
def logdet(input: Tensor) -> Tensor:
    """logdet(Tensor self) -> Tensor
    
    Natural logarithm of the determinant (nan where it is negative).
    """
    return _op.logdet(input)

@_b.checked(_op.linalg_cholesky_ex)
def linalg_cholesky_ex(A: Tensor, *, upper: bool = False, check_errors: bool = False) -> tuple[Tensor, Tensor]:
    """linalg_cholesky_ex(Tensor A, *, bool upper=False, bool check_errors=False) -> (Tensor L, Tensor info)
    
    Cholesky factor of a symmetric positive-definite matrix and a LAPACK-style info code.
    """
    if upper.__class__ is not bool: upper = _b.bool_arg(upper, 'upper', 'linalg_cholesky_ex')
    if check_errors.__class__ is not bool: check_errors = _b.bool_arg(check_errors, 'check_errors', 'linalg_cholesky_ex')
    return _b.named_result('linalg_cholesky_ex', ('L', 'info'), _op.linalg_cholesky_ex(A, upper, check_errors))

@_b.checked(_op.linalg_cholesky)
def linalg_cholesky(A: Tensor, *, upper: bool = False) -> Tensor:
    """linalg_cholesky(Tensor A, *, bool upper=False) -> Tensor
    
    Cholesky factor of a symmetric positive-definite matrix; raises when it is not.
    """
    if upper.__class__ is not bool: upper = _b.bool_arg(upper, 'upper', 'linalg_cholesky')
    return _op.linalg_cholesky(A, upper)

@_b.checked(_op.cholesky)
def cholesky(input: Tensor, upper: bool = False) -> Tensor:
    """cholesky(Tensor self, bool upper=False) -> Tensor
    
    Cholesky factor (torch.cholesky's signature).
    """
    if upper.__class__ is not bool: upper = _b.bool_arg(upper, 'upper', 'cholesky')
    return _op.cholesky(input, upper)

@_b.checked(_op.cholesky_solve)
def cholesky_solve(input: Tensor, input2: Tensor, upper: bool = False) -> Tensor:
    """cholesky_solve(Tensor self, Tensor input2, bool upper=False) -> Tensor
    
    Solution of A X = B given the Cholesky factor of A.
    """
    if upper.__class__ is not bool: upper = _b.bool_arg(upper, 'upper', 'cholesky_solve')
    return _op.cholesky_solve(input, input2, upper)

@_b.checked(_op.cholesky_inverse)
def cholesky_inverse(input: Tensor, upper: bool = False) -> Tensor:
    """cholesky_inverse(Tensor self, bool upper=False) -> Tensor
    
    Inverse of A given its Cholesky factor.
    """
    if upper.__class__ is not bool: upper = _b.bool_arg(upper, 'upper', 'cholesky_inverse')
    return _op.cholesky_inverse(input, upper)

@_b.checked(_op.linalg_qr)
def linalg_qr(A: Tensor, mode: str = 'reduced') -> tuple[Tensor, Tensor]:
    """linalg_qr(Tensor A, str mode="reduced") -> (Tensor Q, Tensor R)
    
    QR decomposition (mode reduced, complete or r).
    """
    if mode.__class__ is not str: mode = _b.str_arg(mode, 'mode', 'linalg_qr')
    return _b.named_result('linalg_qr', ('Q', 'R'), _op.linalg_qr(A, mode))

@_b.checked(_op.qr)
def qr(input: Tensor, some: bool = True) -> tuple[Tensor, Tensor]:
    """qr(Tensor self, bool some=True) -> (Tensor Q, Tensor R)
    
    QR decomposition (torch.qr's signature).
    """
    if some.__class__ is not bool: some = _b.bool_arg(some, 'some', 'qr')
    return _b.named_result('qr', ('Q', 'R'), _op.qr(input, some))

@_b.checked(_op._linalg_svd)
def _linalg_svd(A: Tensor, full_matrices: bool = False, compute_uv: bool = True) -> tuple[Tensor, Tensor, Tensor]:
    """_linalg_svd(Tensor A, bool full_matrices=False, bool compute_uv=True) -> (Tensor U, Tensor S, Tensor Vh)
    
    Singular value decomposition (the kernel behind linalg.svd, svdvals and svd).
    """
    if full_matrices.__class__ is not bool: full_matrices = _b.bool_arg(full_matrices, 'full_matrices', '_linalg_svd')
    if compute_uv.__class__ is not bool: compute_uv = _b.bool_arg(compute_uv, 'compute_uv', '_linalg_svd')
    return _b.named_result('_linalg_svd', ('U', 'S', 'Vh'), _op._linalg_svd(A, full_matrices, compute_uv))

@_b.checked(_op.linalg_svd)
def linalg_svd(A: Tensor, full_matrices: bool = True, *, driver: str | None = None) -> tuple[Tensor, Tensor, Tensor]:
    """linalg_svd(Tensor A, bool full_matrices=True, *, str? driver=None) -> (Tensor U, Tensor S, Tensor Vh)
    
    Singular value decomposition A = U diag(S) Vh.
    """
    if full_matrices.__class__ is not bool: full_matrices = _b.bool_arg(full_matrices, 'full_matrices', 'linalg_svd')
    if driver is not None and driver.__class__ is not str: driver = _b.str_arg(driver, 'driver', 'linalg_svd')
    return _b.named_result('linalg_svd', ('U', 'S', 'Vh'), _op.linalg_svd(A, full_matrices, driver))

@_b.checked(_op.svd_lowrank)
def svd_lowrank(A: Tensor, q: int | None = 6, niter: int | None = 2, M: Tensor | None = None) -> tuple[Tensor, Tensor, Tensor]:
    """svd_lowrank(Tensor A, int? q=6, int? niter=2, Tensor? M=None) -> (Tensor, Tensor, Tensor)
    
    An approximate rank-``q`` SVD ``(U, S, V)`` of ``A - M`` by random projection (Halko et al. 2009, Algorithm 5.1, as torch.svd_lowrank) from a Gaussian draw, ``niter`` power iterations orthonormalised by QR, then the SVD of a small ``q``-row matrix; exact when the rank is at most ``q``.
    """
    if q is not None and (q.__class__ is not int or not -9223372036854775808 <= q <= 9223372036854775807): q = _b.int_arg(q, 'q', 'svd_lowrank')
    if niter is not None and (niter.__class__ is not int or not -9223372036854775808 <= niter <= 9223372036854775807): niter = _b.int_arg(niter, 'niter', 'svd_lowrank')
    return _op.svd_lowrank(A, q, niter, M)

@_b.checked(_op.pca_lowrank)
def pca_lowrank(A: Tensor, q: int | None = None, center: bool | None = True, niter: int = 2) -> tuple[Tensor, Tensor, Tensor]:
    """pca_lowrank(Tensor A, int? q=None, bool? center=True, int niter=2) -> (Tensor, Tensor, Tensor)
    
    Principal components of ``A``'s rows ``(U, S, V)`` as torch.pca_lowrank, svd_lowrank of ``A`` less its column means (``center``) with ``q`` (``min(6, m, n)`` by default) at most ``min(m, n)``.
    """
    if q is not None and (q.__class__ is not int or not -9223372036854775808 <= q <= 9223372036854775807): q = _b.int_arg(q, 'q', 'pca_lowrank')
    if center is not None and center.__class__ is not bool: center = _b.bool_arg(center, 'center', 'pca_lowrank')
    if niter.__class__ is not int or not -9223372036854775808 <= niter <= 9223372036854775807: niter = _b.int_arg(niter, 'niter', 'pca_lowrank')
    return _op.pca_lowrank(A, q, center, niter)

@_b.checked(_op.linalg_svdvals)
def linalg_svdvals(A: Tensor, *, driver: str | None = None) -> Tensor:
    """linalg_svdvals(Tensor A, *, str? driver=None) -> Tensor
    
    Singular values, in descending order.
    """
    if driver is not None and driver.__class__ is not str: driver = _b.str_arg(driver, 'driver', 'linalg_svdvals')
    return _op.linalg_svdvals(A, driver)

@_b.checked(_op.svd)
def svd(input: Tensor, some: bool = True, compute_uv: bool = True) -> tuple[Tensor, Tensor, Tensor]:
    """svd(Tensor self, bool some=True, bool compute_uv=True) -> (Tensor U, Tensor S, Tensor V)
    
    Singular value decomposition A = U diag(S) V^T (torch.svd's signature).
    """
    if some.__class__ is not bool: some = _b.bool_arg(some, 'some', 'svd')
    if compute_uv.__class__ is not bool: compute_uv = _b.bool_arg(compute_uv, 'compute_uv', 'svd')
    return _b.named_result('svd', ('U', 'S', 'V'), _op.svd(input, some, compute_uv))

@_b.checked(_op._linalg_eigh)
def _linalg_eigh(A: Tensor, UPLO: str = 'L', compute_v: bool = True) -> tuple[Tensor, Tensor]:
    """_linalg_eigh(Tensor A, str UPLO="L", bool compute_v=True) -> (Tensor eigenvalues, Tensor eigenvectors)
    
    Eigen-decomposition of a symmetric matrix (the kernel behind linalg.eigh and eigvalsh).
    """
    if UPLO.__class__ is not str: UPLO = _b.str_arg(UPLO, 'UPLO', '_linalg_eigh')
    if compute_v.__class__ is not bool: compute_v = _b.bool_arg(compute_v, 'compute_v', '_linalg_eigh')
    return _b.named_result('_linalg_eigh', ('eigenvalues', 'eigenvectors'), _op._linalg_eigh(A, UPLO, compute_v))

@_b.checked(_op.linalg_eigh)
def linalg_eigh(A: Tensor, UPLO: str = 'L') -> tuple[Tensor, Tensor]:
    """linalg_eigh(Tensor A, str UPLO="L") -> (Tensor eigenvalues, Tensor eigenvectors)
    
    Eigenvalues (ascending) and eigenvectors of a symmetric matrix.
    """
    if UPLO.__class__ is not str: UPLO = _b.str_arg(UPLO, 'UPLO', 'linalg_eigh')
    return _b.named_result('linalg_eigh', ('eigenvalues', 'eigenvectors'), _op.linalg_eigh(A, UPLO))

@_b.checked(_op.linalg_eigvalsh)
def linalg_eigvalsh(A: Tensor, UPLO: str = 'L') -> Tensor:
    """linalg_eigvalsh(Tensor A, str UPLO="L") -> Tensor
    
    Eigenvalues (ascending) of a symmetric matrix.
    """
    if UPLO.__class__ is not str: UPLO = _b.str_arg(UPLO, 'UPLO', 'linalg_eigvalsh')
    return _op.linalg_eigvalsh(A, UPLO)

@_b.checked(_op.linalg_solve_triangular)
def linalg_solve_triangular(A: Tensor, B: Tensor, *, upper: bool, left: bool = True, unitriangular: bool = False) -> Tensor:
    """linalg_solve_triangular(Tensor A, Tensor B, *, bool upper, bool left=True, bool unitriangular=False) -> Tensor
    
    Solution of a triangular system A X = B (X A = B when not left).
    """
    if upper.__class__ is not bool: upper = _b.bool_arg(upper, 'upper', 'linalg_solve_triangular')
    if left.__class__ is not bool: left = _b.bool_arg(left, 'left', 'linalg_solve_triangular')
    if unitriangular.__class__ is not bool: unitriangular = _b.bool_arg(unitriangular, 'unitriangular', 'linalg_solve_triangular')
    return _op.linalg_solve_triangular(A, B, upper, left, unitriangular)

@_b.checked(_op.triangular_solve)
def triangular_solve(input: Tensor, A: Tensor, upper: bool = True, transpose: bool = False, unitriangular: bool = False) -> tuple[Tensor, Tensor]:
    """triangular_solve(Tensor self, Tensor A, bool upper=True, bool transpose=False, bool unitriangular=False) -> (Tensor solution, Tensor cloned_coefficient)
    
    Solution of A X = self for a triangular A, and a copy of A (torch.triangular_solve).
    """
    if upper.__class__ is not bool: upper = _b.bool_arg(upper, 'upper', 'triangular_solve')
    if transpose.__class__ is not bool: transpose = _b.bool_arg(transpose, 'transpose', 'triangular_solve')
    if unitriangular.__class__ is not bool: unitriangular = _b.bool_arg(unitriangular, 'unitriangular', 'triangular_solve')
    return _b.named_result('triangular_solve', ('solution', 'cloned_coefficient'), _op.triangular_solve(input, A, upper, transpose, unitriangular))

@_b.checked(_op.linalg_lu_factor_ex)
def linalg_lu_factor_ex(A: Tensor, *, pivot: bool = True, check_errors: bool = False) -> tuple[Tensor, Tensor, Tensor]:
    """linalg_lu_factor_ex(Tensor A, *, bool pivot=True, bool check_errors=False) -> (Tensor LU, Tensor pivots, Tensor info)
    
    LU decomposition with partial pivoting, packed (LAPACK's getrf), with an info code.
    """
    if pivot.__class__ is not bool: pivot = _b.bool_arg(pivot, 'pivot', 'linalg_lu_factor_ex')
    if check_errors.__class__ is not bool: check_errors = _b.bool_arg(check_errors, 'check_errors', 'linalg_lu_factor_ex')
    return _b.named_result('linalg_lu_factor_ex', ('LU', 'pivots', 'info'), _op.linalg_lu_factor_ex(A, pivot, check_errors))

@_b.checked(_op.linalg_lu_factor)
def linalg_lu_factor(A: Tensor, *, pivot: bool = True) -> tuple[Tensor, Tensor]:
    """linalg_lu_factor(Tensor A, *, bool pivot=True) -> (Tensor LU, Tensor pivots)
    
    LU decomposition with partial pivoting, packed (LAPACK's getrf).
    """
    if pivot.__class__ is not bool: pivot = _b.bool_arg(pivot, 'pivot', 'linalg_lu_factor')
    return _b.named_result('linalg_lu_factor', ('LU', 'pivots'), _op.linalg_lu_factor(A, pivot))

@_b.checked(_op._lu_permutation)
def _lu_permutation(pivots: Tensor, m: int, dtype: dtype) -> Tensor:
    """_lu_permutation(Tensor pivots, int m, ScalarType dtype) -> Tensor
    
    The m x m permutation matrices P (of dtype) of LAPACK pivots (row i was swapped with row pivots[i] - 1).
    """
    if m.__class__ is not int or not -9223372036854775808 <= m <= 9223372036854775807: m = _b.int_arg(m, 'm', '_lu_permutation')
    dtype = _b.dtype_arg(dtype)
    return _op._lu_permutation(pivots, m, dtype)

@_b.checked(_op.lu_unpack)
def lu_unpack(LU_data: Tensor, LU_pivots: Tensor, unpack_data: bool = True, unpack_pivots: bool = True) -> tuple[Tensor, Tensor, Tensor]:
    """lu_unpack(Tensor LU_data, Tensor LU_pivots, bool unpack_data=True, bool unpack_pivots=True) -> (Tensor P, Tensor L, Tensor U)
    
    P, L and U of a packed LU decomposition.
    """
    if unpack_data.__class__ is not bool: unpack_data = _b.bool_arg(unpack_data, 'unpack_data', 'lu_unpack')
    if unpack_pivots.__class__ is not bool: unpack_pivots = _b.bool_arg(unpack_pivots, 'unpack_pivots', 'lu_unpack')
    return _b.named_result('lu_unpack', ('P', 'L', 'U'), _op.lu_unpack(LU_data, LU_pivots, unpack_data, unpack_pivots))

@_b.checked(_op.linalg_lu)
def linalg_lu(A: Tensor, *, pivot: bool = True) -> tuple[Tensor, Tensor, Tensor]:
    """linalg_lu(Tensor A, *, bool pivot=True) -> (Tensor P, Tensor L, Tensor U)
    
    LU decomposition A = P L U with partial pivoting.
    """
    if pivot.__class__ is not bool: pivot = _b.bool_arg(pivot, 'pivot', 'linalg_lu')
    return _b.named_result('linalg_lu', ('P', 'L', 'U'), _op.linalg_lu(A, pivot))

@_b.checked(_op.lu)
def lu(input: Tensor, pivot: bool = True, get_infos: bool | None = False) -> tuple[Tensor, ...]:
    """lu(Tensor self, bool pivot=True, bool? get_infos=False) -> Tensor[]
    
    Packed LU decomposition and pivots (and info codes with get_infos), torch.lu's signature.
    """
    if pivot.__class__ is not bool: pivot = _b.bool_arg(pivot, 'pivot', 'lu')
    if get_infos is not None and get_infos.__class__ is not bool: get_infos = _b.bool_arg(get_infos, 'get_infos', 'lu')
    return _op.lu(input, pivot, get_infos)

@_b.checked(_op.linalg_lu_solve)
def linalg_lu_solve(LU: Tensor, pivots: Tensor, B: Tensor, *, left: bool = True, adjoint: bool = False) -> Tensor:
    """linalg_lu_solve(Tensor LU, Tensor pivots, Tensor B, *, bool left=True, bool adjoint=False) -> Tensor
    
    Solution of A X = B given the packed LU decomposition of A.
    """
    if left.__class__ is not bool: left = _b.bool_arg(left, 'left', 'linalg_lu_solve')
    if adjoint.__class__ is not bool: adjoint = _b.bool_arg(adjoint, 'adjoint', 'linalg_lu_solve')
    return _op.linalg_lu_solve(LU, pivots, B, left, adjoint)

@_b.checked(_op.lu_solve)
def lu_solve(input: Tensor, LU_data: Tensor, LU_pivots: Tensor) -> Tensor:
    """lu_solve(Tensor self, Tensor LU_data, Tensor LU_pivots) -> Tensor
    
    Solution of A X = self given the packed LU decomposition of A (torch.lu_solve).
    """
    return _op.lu_solve(input, LU_data, LU_pivots)

@_b.checked(_op.geqrf)
def geqrf(input: Tensor) -> tuple[Tensor, Tensor]:
    """geqrf(Tensor self) -> (Tensor a, Tensor tau)
    
    QR as Householder reflectors, as LAPACK's geqrf stores them; R on and above the diagonal, the vectors below, and their scales tau.
    """
    return _b.named_result('geqrf', ('a', 'tau'), _op.geqrf(input))

@_b.checked(_op.linalg_householder_product)
def linalg_householder_product(A: Tensor, tau: Tensor) -> Tensor:
    """linalg_householder_product(Tensor A, Tensor tau) -> Tensor
    
    The first n columns of the product of the Householder reflectors I - tau_i v_i v_i^T stored in A's columns.
    """
    return _op.linalg_householder_product(A, tau)

@_b.checked(_op.orgqr)
def orgqr(input: Tensor, input2: Tensor) -> Tensor:
    """orgqr(Tensor self, Tensor input2) -> Tensor
    
    Alias of linalg.householder_product.
    """
    return _op.orgqr(input, input2)

@_b.checked(_op.ormqr)
def ormqr(input: Tensor, input2: Tensor, input3: Tensor, left: bool = True, transpose: bool = False) -> Tensor:
    """ormqr(Tensor self, Tensor input2, Tensor input3, bool left=True, bool transpose=False) -> Tensor
    
    Product of other (input3) with the full Q of Householder reflectors (self, tau input2).
    """
    if left.__class__ is not bool: left = _b.bool_arg(left, 'left', 'ormqr')
    if transpose.__class__ is not bool: transpose = _b.bool_arg(transpose, 'transpose', 'ormqr')
    return _op.ormqr(input, input2, input3, left, transpose)

@_b.checked(_op.linalg_ldl_factor_ex)
def linalg_ldl_factor_ex(input: Tensor, *, hermitian: bool = False, check_errors: bool = False) -> tuple[Tensor, Tensor, Tensor]:
    """linalg_ldl_factor_ex(Tensor self, *, bool hermitian=False, bool check_errors=False) -> (Tensor LD, Tensor pivots, Tensor info)
    
    LDL^T factorization of a symmetric matrix with Bunch-Kaufman pivoting (LAPACK's sytrf), with an info code.
    """
    if hermitian.__class__ is not bool: hermitian = _b.bool_arg(hermitian, 'hermitian', 'linalg_ldl_factor_ex')
    if check_errors.__class__ is not bool: check_errors = _b.bool_arg(check_errors, 'check_errors', 'linalg_ldl_factor_ex')
    return _b.named_result('linalg_ldl_factor_ex', ('LD', 'pivots', 'info'), _op.linalg_ldl_factor_ex(input, hermitian, check_errors))

@_b.checked(_op.linalg_ldl_factor)
def linalg_ldl_factor(input: Tensor, *, hermitian: bool = False) -> tuple[Tensor, Tensor]:
    """linalg_ldl_factor(Tensor self, *, bool hermitian=False) -> (Tensor LD, Tensor pivots)
    
    LDL^T factorization of a symmetric matrix with Bunch-Kaufman pivoting (LAPACK's sytrf).
    """
    if hermitian.__class__ is not bool: hermitian = _b.bool_arg(hermitian, 'hermitian', 'linalg_ldl_factor')
    return _b.named_result('linalg_ldl_factor', ('LD', 'pivots'), _op.linalg_ldl_factor(input, hermitian))

@_b.checked(_op.linalg_ldl_solve)
def linalg_ldl_solve(LD: Tensor, pivots: Tensor, B: Tensor, *, hermitian: bool = False) -> Tensor:
    """linalg_ldl_solve(Tensor LD, Tensor pivots, Tensor B, *, bool hermitian=False) -> Tensor
    
    Solution of A X = B given the LDL^T factorization of A.
    """
    if hermitian.__class__ is not bool: hermitian = _b.bool_arg(hermitian, 'hermitian', 'linalg_ldl_solve')
    return _op.linalg_ldl_solve(LD, pivots, B, hermitian)

@_b.checked(_op.matrix_exp)
def matrix_exp(input: Tensor) -> Tensor:
    """matrix_exp(Tensor self) -> Tensor
    
    Matrix exponential (scaling and squaring of a Taylor polynomial).
    """
    return _op.matrix_exp(input)

@_b.checked(_op.linalg_matrix_exp)
def linalg_matrix_exp(A: Tensor) -> Tensor:
    """linalg_matrix_exp(Tensor A) -> Tensor
    
    Matrix exponential.
    """
    return _op.linalg_matrix_exp(A)

@_b.checked(_op.linalg_matrix_power)
def linalg_matrix_power(A: Tensor, n: int) -> Tensor:
    """linalg_matrix_power(Tensor A, int n) -> Tensor
    
    n-th power of a square matrix (the inverse's for negative n).
    """
    if n.__class__ is not int or not -9223372036854775808 <= n <= 9223372036854775807: n = _b.int_arg(n, 'n', 'linalg_matrix_power')
    return _op.linalg_matrix_power(A, n)

@_b.checked(_op.matrix_power)
def matrix_power(input: Tensor, n: int) -> Tensor:
    """matrix_power(Tensor self, int n) -> Tensor
    
    Alias of linalg.matrix_power.
    """
    if n.__class__ is not int or not -9223372036854775808 <= n <= 9223372036854775807: n = _b.int_arg(n, 'n', 'matrix_power')
    return _op.matrix_power(input, n)

@_b.checked(_op.linalg_multi_dot)
def linalg_multi_dot(tensors: Sequence[Tensor]) -> Tensor:
    """linalg_multi_dot(Tensor[] tensors) -> Tensor
    
    Product of a chain of matrices (the first and last may be vectors).
    """
    tensors = _b.tensor_list(tensors, 'tensors')
    return _op.linalg_multi_dot(tensors)

def linalg_matrix_norm(*args: Any, **kwargs: Any) -> Any:
    """linalg_matrix_norm(Tensor A, Scalar ord, int[] dim=[-2, -1], bool keepdim=False, *, ScalarType? dtype=None) -> Tensor
    linalg_matrix_norm.str_ord(Tensor A, str ord="fro", int[] dim=[-2, -1], bool keepdim=False, *, ScalarType? dtype=None) -> Tensor
    
    Matrix norm (ord 1, -1, 2, -2, inf, -inf, 'fro' or 'nuc').
    """
    return _b.call_overloaded((_op.linalg_matrix_norm, _op.linalg_matrix_norm_str_ord,), args, kwargs, 'linalg_matrix_norm')

def linalg_cond(*args: Any, **kwargs: Any) -> Any:
    """linalg_cond(Tensor A, Scalar? p=None) -> Tensor
    linalg_cond.p_str(Tensor A, str p) -> Tensor
    
    Condition number of a matrix in the p-norm (2-norm by default).
    """
    return _b.call_overloaded((_op.linalg_cond, _op.linalg_cond_p_str,), args, kwargs, 'linalg_cond')

def linalg_pinv(*args: Any, **kwargs: Any) -> Any:
    """linalg_pinv.atol_rtol_tensor(Tensor A, *, Tensor? atol=None, Tensor? rtol=None, bool hermitian=False) -> Tensor
    linalg_pinv.atol_rtol_float(Tensor A, *, float? atol=None, float? rtol=None, bool hermitian=False) -> Tensor
    linalg_pinv(Tensor A, float rcond, bool hermitian=False) -> Tensor
    linalg_pinv.rcond_tensor(Tensor A, Tensor rcond, bool hermitian=False) -> Tensor
    
    Moore-Penrose pseudo-inverse (singular values below max(atol, rtol * largest) count as zero).
    """
    return _b.call_overloaded((_op.linalg_pinv_atol_rtol_tensor, _op.linalg_pinv_atol_rtol_float, _op.linalg_pinv, _op.linalg_pinv_rcond_tensor,), args, kwargs, 'linalg_pinv')

@_b.checked(_op.pinverse)
def pinverse(input: Tensor, rcond: float = 1e-15) -> Tensor:
    """pinverse(Tensor self, float rcond=1e-15) -> Tensor
    
    Moore-Penrose pseudo-inverse.
    """
    if rcond.__class__ is not float: rcond = _b.float_arg(rcond, 'rcond', 'pinverse')
    return _op.pinverse(input, rcond)

def linalg_matrix_rank(*args: Any, **kwargs: Any) -> Any:
    """linalg_matrix_rank.atol_rtol_tensor(Tensor A, *, Tensor? atol=None, Tensor? rtol=None, bool hermitian=False) -> Tensor
    linalg_matrix_rank.atol_rtol_float(Tensor A, *, float? atol=None, float? rtol=None, bool hermitian=False) -> Tensor
    linalg_matrix_rank(Tensor A, float tol, bool hermitian=False) -> Tensor
    
    Number of singular values above max(atol, rtol * largest).
    """
    return _b.call_overloaded((_op.linalg_matrix_rank_atol_rtol_tensor, _op.linalg_matrix_rank_atol_rtol_float, _op.linalg_matrix_rank,), args, kwargs, 'linalg_matrix_rank')

@_b.checked(_op.linalg_lstsq)
def linalg_lstsq(A: Tensor, B: Tensor, rcond: float | None = None, *, driver: str | None = None) -> tuple[Tensor, Tensor, Tensor, Tensor]:
    """linalg_lstsq(Tensor A, Tensor B, float? rcond=None, *, str? driver=None) -> (Tensor solution, Tensor residuals, Tensor rank, Tensor singular_values)
    
    Least-squares solution of A X = B (through the pseudo-inverse).
    """
    if rcond is not None and rcond.__class__ is not float: rcond = _b.float_arg(rcond, 'rcond', 'linalg_lstsq')
    if driver is not None and driver.__class__ is not str: driver = _b.str_arg(driver, 'driver', 'linalg_lstsq')
    return _b.named_result('linalg_lstsq', ('solution', 'residuals', 'rank', 'singular_values'), _op.linalg_lstsq(A, B, rcond, driver))

@_b.checked(_op.linalg_tensorinv)
def linalg_tensorinv(A: Tensor, ind: int = 2) -> Tensor:
    """linalg_tensorinv(Tensor A, int ind=2) -> Tensor
    
    Inverse of a tensor seen as a matrix over its first ind and its other dims.
    """
    if ind.__class__ is not int or not -9223372036854775808 <= ind <= 9223372036854775807: ind = _b.int_arg(ind, 'ind', 'linalg_tensorinv')
    return _op.linalg_tensorinv(A, ind)

@_b.checked(_op.linalg_tensorsolve)
def linalg_tensorsolve(A: Tensor, B: Tensor, dims: int | Sequence[int] | None = None) -> Tensor:
    """linalg_tensorsolve(Tensor A, Tensor B, int[]? dims=None) -> Tensor
    
    Solution X of tensordot(A, X, X.ndim) = B.
    """
    dims = _b.int_list(dims, 0, 'dims')
    return _op.linalg_tensorsolve(A, B, dims)

@_b.checked(_op.linalg_vecdot)
def linalg_vecdot(x: Tensor, y: Tensor, *, dim: int = -1) -> Tensor:
    """linalg_vecdot(Tensor x, Tensor y, *, int dim=-1) -> Tensor
    
    Dot product of vectors along dim, broadcasting the rest.
    """
    if dim.__class__ is not int or not -9223372036854775808 <= dim <= 9223372036854775807: dim = _b.int_arg(dim, 'dim', 'linalg_vecdot')
    return _op.linalg_vecdot(x, y, dim)

@_b.checked(_op.linalg_diagonal)
def linalg_diagonal(A: Tensor, *, offset: int = 0, dim1: int = -2, dim2: int = -1) -> Tensor:
    """linalg_diagonal(Tensor A, *, int offset=0, int dim1=-2, int dim2=-1) -> Tensor
    
    Diagonals of a batch of matrices (a view).
    """
    if offset.__class__ is not int or not -9223372036854775808 <= offset <= 9223372036854775807: offset = _b.int_arg(offset, 'offset', 'linalg_diagonal')
    if dim1.__class__ is not int or not -9223372036854775808 <= dim1 <= 9223372036854775807: dim1 = _b.int_arg(dim1, 'dim1', 'linalg_diagonal')
    if dim2.__class__ is not int or not -9223372036854775808 <= dim2 <= 9223372036854775807: dim2 = _b.int_arg(dim2, 'dim2', 'linalg_diagonal')
    return _op.linalg_diagonal(A, offset, dim1, dim2)

@_b.checked(_op.linalg_cross)
def linalg_cross(input: Tensor, other: Tensor, *, dim: int = -1) -> Tensor:
    """linalg_cross(Tensor self, Tensor other, *, int dim=-1) -> Tensor
    
    Cross product of 3-vectors along dim, broadcasting the rest.
    """
    if dim.__class__ is not int or not -9223372036854775808 <= dim <= 9223372036854775807: dim = _b.int_arg(dim, 'dim', 'linalg_cross')
    return _op.linalg_cross(input, other, dim)

@_b.checked(_op.cross)
def cross(input: Tensor, other: Tensor, dim: int | None = None) -> Tensor:
    """cross(Tensor self, Tensor other, int? dim=None) -> Tensor
    
    Cross product of 3-vectors along dim (the first size-3 dim by default).
    """
    if dim is not None and (dim.__class__ is not int or not -9223372036854775808 <= dim <= 9223372036854775807): dim = _b.int_arg(dim, 'dim', 'cross')
    return _op.cross(input, other, dim)

@_b.checked(_op.linalg_vander)
def linalg_vander(x: Tensor, *, N: int | None = None) -> Tensor:
    """linalg_vander(Tensor x, *, int? N=None) -> Tensor
    
    Vandermonde matrix with columns x^0, x^1, ..., x^(N-1).
    """
    if N is not None and (N.__class__ is not int or not -9223372036854775808 <= N <= 9223372036854775807): N = _b.int_arg(N, 'N', 'linalg_vander')
    return _op.linalg_vander(x, N)

@_b.checked(_op.addbmm)
def addbmm(input: Tensor, batch1: Tensor, batch2: Tensor, *, beta: Number = 1, alpha: Number = 1) -> Tensor:
    """addbmm(Tensor self, Tensor batch1, Tensor batch2, *, Scalar beta=1, Scalar alpha=1) -> Tensor
    
    beta * self + alpha * the sum over the batch of batch1 @ batch2.
    """
    return _op.addbmm(input, batch1, batch2, beta, alpha)

@_b.checked(_op.addr)
def addr(input: Tensor, vec1: Tensor, vec2: Tensor, *, beta: Number = 1, alpha: Number = 1) -> Tensor:
    """addr(Tensor self, Tensor vec1, Tensor vec2, *, Scalar beta=1, Scalar alpha=1) -> Tensor
    
    beta * self + alpha * outer(vec1, vec2).
    """
    return _op.addr(input, vec1, vec2, beta, alpha)

@_b.checked(_op.vdot)
def vdot(input: Tensor, other: Tensor) -> Tensor:
    """vdot(Tensor self, Tensor other) -> Tensor
    
    Inner product of two vectors (no conjugation for real tensors).
    """
    return _op.vdot(input, other)

@_b.checked(_op.inner)
def inner(input: Tensor, other: Tensor) -> Tensor:
    """inner(Tensor self, Tensor other) -> Tensor
    
    Inner product over the last dims.
    """
    if input.__class__ not in _b.TENSOR_TYPES: _b.tensor_arg(input, 'input', 1, 'inner')
    if other.__class__ not in _b.TENSOR_TYPES: _b.tensor_arg(other, 'other', 2, 'inner')
    return _op.inner(input, other)

@_b.checked(_op.kron)
def kron(input: Tensor, other: Tensor) -> Tensor:
    """kron(Tensor self, Tensor other) -> Tensor
    
    Kronecker product.
    """
    return _op.kron(input, other)

@_b.checked(_op.block_diag)
def block_diag(*tensors: Tensor) -> Tensor:
    """block_diag(Tensor[] tensors) -> Tensor
    
    Block-diagonal matrix of the given matrices (scalars and vectors count as 1-row blocks).
    """
    tensors = _b.tensor_list(tensors, 'tensors')
    return _op.block_diag(tensors)

@_b.checked(_op.cartesian_prod)
def cartesian_prod(*tensors: Tensor) -> Tensor:
    """cartesian_prod(Tensor[] tensors) -> Tensor
    
    Cartesian product of 1-D tensors, one row per combination.
    """
    tensors = _b.tensor_list(tensors, 'tensors')
    return _op.cartesian_prod(tensors)

@_b.checked(_op.combinations)
def combinations(input: Tensor, r: int = 2, with_replacement: bool = False) -> Tensor:
    """combinations(Tensor self, int r=2, bool with_replacement=False) -> Tensor
    
    Length-r combinations of a 1-D tensor's elements, one row each.
    """
    if r.__class__ is not int or not -9223372036854775808 <= r <= 9223372036854775807: r = _b.int_arg(r, 'r', 'combinations')
    if with_replacement.__class__ is not bool: with_replacement = _b.bool_arg(with_replacement, 'with_replacement', 'combinations')
    return _op.combinations(input, r, with_replacement)

@_b.checked(_op.cdist)
def cdist(x1: Tensor, x2: Tensor, p: float = 2, compute_mode: str = 'use_mm_for_euclid_dist_if_necessary') -> Tensor:
    """cdist(Tensor x1, Tensor x2, float p=2, str compute_mode="use_mm_for_euclid_dist_if_necessary") -> Tensor
    
    p-norm distances between each pair of rows of x1 and x2.
    """
    if p.__class__ is not float: p = _b.float_arg(p, 'p', 'cdist')
    if compute_mode.__class__ is not str: compute_mode = _b.str_arg(compute_mode, 'compute_mode', 'cdist')
    return _op.cdist(x1, x2, p, compute_mode)

@_b.checked(_op.pdist)
def pdist(input: Tensor, p: float = 2) -> Tensor:
    """pdist(Tensor input, float p=2) -> Tensor
    
    p-norm distances between each pair of rows (upper triangle, row-major).
    """
    if p.__class__ is not float: p = _b.float_arg(p, 'p', 'pdist')
    return _op.pdist(input, p)

@_b.checked(_op.cov)
def cov(input: Tensor, *, correction: int = 1, fweights: Tensor | None = None, aweights: Tensor | None = None) -> Tensor:
    """cov(Tensor self, *, int correction=1, Tensor? fweights=None, Tensor? aweights=None) -> Tensor
    
    Covariance matrix of the rows' variables (columns are observations).
    """
    if correction.__class__ is not int or not -9223372036854775808 <= correction <= 9223372036854775807: correction = _b.int_arg(correction, 'correction', 'cov')
    return _op.cov(input, correction, fweights, aweights)

@_b.checked(_op.corrcoef)
def corrcoef(input: Tensor) -> Tensor:
    """corrcoef(Tensor self) -> Tensor
    
    Pearson correlation coefficients of the rows' variables.
    """
    return _op.corrcoef(input)

@_b.checked(_op.diagflat)
def diagflat(input: Tensor, offset: int = 0) -> Tensor:
    """diagflat(Tensor self, int offset=0) -> Tensor
    
    2-D matrix with the flattened input on the offset-th diagonal.
    """
    if offset.__class__ is not int or not -9223372036854775808 <= offset <= 9223372036854775807: offset = _b.int_arg(offset, 'offset', 'diagflat')
    return _op.diagflat(input, offset)

def trapezoid(*args: Any, **kwargs: Any) -> Any:
    """trapezoid.x(Tensor y, Tensor x, *, int dim=-1) -> Tensor
    trapezoid.dx(Tensor y, *, Scalar dx=1, int dim=-1) -> Tensor
    
    Integral of y along dim by the trapezoid rule (sample points x, or spacing dx).
    """
    return _b.call_overloaded((_op.trapezoid_x, _op.trapezoid_dx,), args, kwargs, 'trapezoid')

def trapz(*args: Any, **kwargs: Any) -> Any:
    """trapz.x(Tensor y, Tensor x, *, int dim=-1) -> Tensor
    trapz.dx(Tensor y, *, float dx=1, int dim=-1) -> Tensor
    
    Alias of trapezoid.
    """
    return _b.call_overloaded((_op.trapz_x, _op.trapz_dx,), args, kwargs, 'trapz')

def cumulative_trapezoid(*args: Any, **kwargs: Any) -> Any:
    """cumulative_trapezoid.x(Tensor y, Tensor x, *, int dim=-1) -> Tensor
    cumulative_trapezoid.dx(Tensor y, *, Scalar dx=1, int dim=-1) -> Tensor
    
    Cumulative integral of y along dim by the trapezoid rule.
    """
    return _b.call_overloaded((_op.cumulative_trapezoid_x, _op.cumulative_trapezoid_dx,), args, kwargs, 'cumulative_trapezoid')

@_b.checked(_op.renorm)
def renorm(input: Tensor, p: Number, dim: int, maxnorm: Number) -> Tensor:
    """renorm(Tensor self, Scalar p, int dim, Scalar maxnorm) -> Tensor
    
    Rescale each slice along dim whose p-norm exceeds maxnorm to norm maxnorm.
    """
    if dim.__class__ is not int or not -9223372036854775808 <= dim <= 9223372036854775807: dim = _b.int_arg(dim, 'dim', 'renorm')
    return _op.renorm(input, p, dim, maxnorm)

@_b.checked(_op.as_strided)
def as_strided(input: Tensor, size: int | Sequence[int], stride: int | Sequence[int], storage_offset: int | None = None) -> Tensor:
    """as_strided(Tensor(a) self, int[] size, int[] stride, int? storage_offset=None) -> Tensor(a)
    """
    size = _b.int_list(size, 0, 'size')
    stride = _b.int_list(stride, 0, 'stride')
    if storage_offset is not None and (storage_offset.__class__ is not int or not -9223372036854775808 <= storage_offset <= 9223372036854775807): storage_offset = _b.int_arg(storage_offset, 'storage_offset', 'as_strided')
    return _op.as_strided(input, size, stride, storage_offset)

@_b.checked(_op.permute)
def permute(input: Tensor, dims: int | Sequence[int]) -> Tensor:
    """permute(Tensor(a) self, int[] dims) -> Tensor(a)
    """
    dims = _b.int_list(dims, 0, 'dims')
    return _op.permute(input, dims)

@_b.checked(_op.transpose)
def transpose(input: Tensor, dim0: int, dim1: int) -> Tensor:
    """transpose(Tensor(a) self, int dim0, int dim1) -> Tensor(a)
    """
    if dim0.__class__ is not int or not -9223372036854775808 <= dim0 <= 9223372036854775807: dim0 = _b.int_arg(dim0, 'dim0', 'transpose')
    if dim1.__class__ is not int or not -9223372036854775808 <= dim1 <= 9223372036854775807: dim1 = _b.int_arg(dim1, 'dim1', 'transpose')
    return _op.transpose(input, dim0, dim1)

@_b.checked(_op.transpose)
def swapdims(input: Tensor, dim0: int, dim1: int) -> Tensor:
    """transpose(Tensor(a) self, int dim0, int dim1) -> Tensor(a)
    """
    if dim0.__class__ is not int or not -9223372036854775808 <= dim0 <= 9223372036854775807: dim0 = _b.int_arg(dim0, 'dim0', 'transpose')
    if dim1.__class__ is not int or not -9223372036854775808 <= dim1 <= 9223372036854775807: dim1 = _b.int_arg(dim1, 'dim1', 'transpose')
    return _op.transpose(input, dim0, dim1)

@_b.checked(_op.swapaxes)
def swapaxes(input: Tensor, axis0: int, axis1: int) -> Tensor:
    """swapaxes(Tensor(a) self, int axis0, int axis1) -> Tensor(a)
    """
    if axis0.__class__ is not int or not -9223372036854775808 <= axis0 <= 9223372036854775807: axis0 = _b.int_arg(axis0, 'axis0', 'swapaxes')
    if axis1.__class__ is not int or not -9223372036854775808 <= axis1 <= 9223372036854775807: axis1 = _b.int_arg(axis1, 'axis1', 'swapaxes')
    return _op.swapaxes(input, axis0, axis1)

@_b.checked(_op.t)
def t(input: Tensor) -> Tensor:
    """t(Tensor(a) self) -> Tensor(a)
    """
    return _op.t(input)

@_b.checked(_op.squeeze)
def squeeze(input: Tensor, dim: int | Sequence[int] | None = _b.OMITTED) -> Tensor:
    """squeeze(Tensor(a) self, int[1]? dim=None) -> Tensor(a)
    """
    if dim is None: _b.reject_none('dim', 'tuple of ints', 'squeeze')
    if dim is _b.OMITTED: dim = None
    dim = _b.int_list(dim, 1, 'dim')
    return _op.squeeze(input, dim)

@_b.checked(_op.unsqueeze)
def unsqueeze(input: Tensor, dim: int) -> Tensor:
    """unsqueeze(Tensor(a) self, int dim) -> Tensor(a)
    """
    if dim.__class__ is not int or not -9223372036854775808 <= dim <= 9223372036854775807: dim = _b.int_arg(dim, 'dim', 'unsqueeze')
    return _op.unsqueeze(input, dim)

@_b.checked(_op.broadcast_to)
def broadcast_to(input: Tensor, size: int | Sequence[int]) -> Tensor:
    """broadcast_to(Tensor(a) self, int[] size) -> Tensor(a)
    """
    size = _b.int_list(size, 0, 'size')
    return _op.broadcast_to(input, size)

@_b.checked(_op.narrow)
def narrow(input: Tensor, dim: int, start: int, length: int) -> Tensor:
    """narrow(Tensor(a) self, int dim, int start, int length) -> Tensor(a)
    """
    if dim.__class__ is not int or not -9223372036854775808 <= dim <= 9223372036854775807: dim = _b.int_arg(dim, 'dim', 'narrow')
    if start.__class__ is not int or not -9223372036854775808 <= start <= 9223372036854775807: start = _b.int_arg(start, 'start', 'narrow')
    if length.__class__ is not int or not -9223372036854775808 <= length <= 9223372036854775807: length = _b.int_arg(length, 'length', 'narrow')
    return _op.narrow(input, dim, start, length)

@_b.checked(_op.slice)
def slice(input: Tensor, dim: int = 0, start: int | None = None, end: int | None = None, step: int = 1) -> Tensor:
    """slice(Tensor(a) self, int dim=0, int? start=None, int? end=None, int step=1) -> Tensor(a)
    """
    if dim.__class__ is not int or not -9223372036854775808 <= dim <= 9223372036854775807: dim = _b.int_arg(dim, 'dim', 'slice')
    if start is not None and (start.__class__ is not int or not -9223372036854775808 <= start <= 9223372036854775807): start = _b.int_arg(start, 'start', 'slice')
    if end is not None and (end.__class__ is not int or not -9223372036854775808 <= end <= 9223372036854775807): end = _b.int_arg(end, 'end', 'slice')
    if step.__class__ is not int or not -9223372036854775808 <= step <= 9223372036854775807: step = _b.int_arg(step, 'step', 'slice')
    return _op.slice(input, dim, start, end, step)

@_b.checked(_op.slice_backward)
def slice_backward(grad_output: Tensor, input_sizes: int | Sequence[int], dim: int, start: int | None, end: int | None, step: int) -> Tensor:
    """slice_backward(Tensor grad_output, int[] input_sizes, int dim, int? start, int? end, int step) -> Tensor
    """
    input_sizes = _b.int_list(input_sizes, 0, 'input_sizes')
    if dim.__class__ is not int or not -9223372036854775808 <= dim <= 9223372036854775807: dim = _b.int_arg(dim, 'dim', 'slice_backward')
    if start is not None and (start.__class__ is not int or not -9223372036854775808 <= start <= 9223372036854775807): start = _b.int_arg(start, 'start', 'slice_backward')
    if end is not None and (end.__class__ is not int or not -9223372036854775808 <= end <= 9223372036854775807): end = _b.int_arg(end, 'end', 'slice_backward')
    if step.__class__ is not int or not -9223372036854775808 <= step <= 9223372036854775807: step = _b.int_arg(step, 'step', 'slice_backward')
    return _op.slice_backward(grad_output, input_sizes, dim, start, end, step)

@_b.checked(_op.select)
def select(input: Tensor, dim: int, index: int) -> Tensor:
    """select(Tensor(a) self, int dim, int index) -> Tensor(a)
    """
    if dim.__class__ is not int or not -9223372036854775808 <= dim <= 9223372036854775807: dim = _b.int_arg(dim, 'dim', 'select')
    if index.__class__ is not int or not -9223372036854775808 <= index <= 9223372036854775807: index = _b.int_arg(index, 'index', 'select')
    return _op.select(input, dim, index)

@_b.checked(_op.select_backward)
def select_backward(grad_output: Tensor, input_sizes: int | Sequence[int], dim: int, index: int) -> Tensor:
    """select_backward(Tensor grad_output, int[] input_sizes, int dim, int index) -> Tensor
    """
    input_sizes = _b.int_list(input_sizes, 0, 'input_sizes')
    if dim.__class__ is not int or not -9223372036854775808 <= dim <= 9223372036854775807: dim = _b.int_arg(dim, 'dim', 'select_backward')
    if index.__class__ is not int or not -9223372036854775808 <= index <= 9223372036854775807: index = _b.int_arg(index, 'index', 'select_backward')
    return _op.select_backward(grad_output, input_sizes, dim, index)

@_b.checked(_op.unfold_backward)
def unfold_backward(grad_output: Tensor, input_sizes: int | Sequence[int], dim: int, size: int, step: int) -> Tensor:
    """unfold_backward(Tensor grad_output, int[] input_sizes, int dim, int size, int step) -> Tensor
    """
    input_sizes = _b.int_list(input_sizes, 0, 'input_sizes')
    if dim.__class__ is not int or not -9223372036854775808 <= dim <= 9223372036854775807: dim = _b.int_arg(dim, 'dim', 'unfold_backward')
    if size.__class__ is not int or not -9223372036854775808 <= size <= 9223372036854775807: size = _b.int_arg(size, 'size', 'unfold_backward')
    if step.__class__ is not int or not -9223372036854775808 <= step <= 9223372036854775807: step = _b.int_arg(step, 'step', 'unfold_backward')
    return _op.unfold_backward(grad_output, input_sizes, dim, size, step)

@_b.checked(_op.diagonal)
def diagonal(input: Tensor, offset: int = 0, dim1: int = 0, dim2: int = 1) -> Tensor:
    """diagonal(Tensor(a) self, int offset=0, int dim1=0, int dim2=1) -> Tensor(a)
    """
    if offset.__class__ is not int or not -9223372036854775808 <= offset <= 9223372036854775807: offset = _b.int_arg(offset, 'offset', 'diagonal')
    if dim1.__class__ is not int or not -9223372036854775808 <= dim1 <= 9223372036854775807: dim1 = _b.int_arg(dim1, 'dim1', 'diagonal')
    if dim2.__class__ is not int or not -9223372036854775808 <= dim2 <= 9223372036854775807: dim2 = _b.int_arg(dim2, 'dim2', 'diagonal')
    return _op.diagonal(input, offset, dim1, dim2)

@_b.checked(_op.diagonal_backward)
def diagonal_backward(grad_output: Tensor, input_sizes: int | Sequence[int], offset: int, dim1: int, dim2: int) -> Tensor:
    """diagonal_backward(Tensor grad_output, int[] input_sizes, int offset, int dim1, int dim2) -> Tensor
    """
    input_sizes = _b.int_list(input_sizes, 0, 'input_sizes')
    if offset.__class__ is not int or not -9223372036854775808 <= offset <= 9223372036854775807: offset = _b.int_arg(offset, 'offset', 'diagonal_backward')
    if dim1.__class__ is not int or not -9223372036854775808 <= dim1 <= 9223372036854775807: dim1 = _b.int_arg(dim1, 'dim1', 'diagonal_backward')
    if dim2.__class__ is not int or not -9223372036854775808 <= dim2 <= 9223372036854775807: dim2 = _b.int_arg(dim2, 'dim2', 'diagonal_backward')
    return _op.diagonal_backward(grad_output, input_sizes, offset, dim1, dim2)

@_b.checked(_op.as_strided_scatter)
def as_strided_scatter(input: Tensor, src: Tensor, size: int | Sequence[int], stride: int | Sequence[int], storage_offset: int | None = None) -> Tensor:
    """as_strided_scatter(Tensor self, Tensor src, int[] size, int[] stride, int? storage_offset=None) -> Tensor
    """
    if input.__class__ not in _b.TENSOR_TYPES: _b.tensor_arg(input, 'input', 1, 'as_strided_scatter')
    if src.__class__ not in _b.TENSOR_TYPES: _b.tensor_arg(src, 'src', 2, 'as_strided_scatter')
    size = _b.int_list(size, 0, 'size')
    stride = _b.int_list(stride, 0, 'stride')
    if storage_offset is not None and (storage_offset.__class__ is not int or not -9223372036854775808 <= storage_offset <= 9223372036854775807): storage_offset = _b.int_arg(storage_offset, 'storage_offset', 'as_strided_scatter')
    return _op.as_strided_scatter(input, src, size, stride, storage_offset)

def split(*args: Any, **kwargs: Any) -> Any:
    """split.int(Tensor(a) self, int split_size_or_sections, int dim=0) -> Tensor(a)[]
    split.sizes(Tensor(a) self, int[] split_size_or_sections, int dim=0) -> Tensor(a)[]
    """
    return _b.call_overloaded((_op.split_int, _op.split_sizes,), args, kwargs, 'split')

@_b.checked(_op.chunk)
def chunk(input: Tensor, chunks: int, dim: int = 0) -> tuple[Tensor, ...]:
    """chunk(Tensor(a) self, int chunks, int dim=0) -> Tensor(a)[]
    """
    if chunks.__class__ is not int or not -9223372036854775808 <= chunks <= 9223372036854775807: chunks = _b.int_arg(chunks, 'chunks', 'chunk')
    if dim.__class__ is not int or not -9223372036854775808 <= dim <= 9223372036854775807: dim = _b.int_arg(dim, 'dim', 'chunk')
    return _op.chunk(input, chunks, dim)

@_b.checked(_op.unbind)
def unbind(input: Tensor, dim: int = 0) -> tuple[Tensor, ...]:
    """unbind(Tensor(a) self, int dim=0) -> Tensor(a)[]
    """
    if dim.__class__ is not int or not -9223372036854775808 <= dim <= 9223372036854775807: dim = _b.int_arg(dim, 'dim', 'unbind')
    return _op.unbind(input, dim)

@_b.checked(_op.movedim)
def movedim(input: Tensor, source: int | Sequence[int], destination: int | Sequence[int]) -> Tensor:
    """movedim(Tensor(a) self, int[1] source, int[1] destination) -> Tensor(a)
    """
    source = _b.int_list(source, 1, 'source')
    destination = _b.int_list(destination, 1, 'destination')
    return _op.movedim(input, source, destination)

@_b.checked(_op.movedim)
def moveaxis(input: Tensor, source: int | Sequence[int], destination: int | Sequence[int]) -> Tensor:
    """movedim(Tensor(a) self, int[1] source, int[1] destination) -> Tensor(a)
    """
    source = _b.int_list(source, 1, 'source')
    destination = _b.int_list(destination, 1, 'destination')
    return _op.movedim(input, source, destination)

@_b.checked(_op.alias)
def alias(input: Tensor) -> Tensor:
    """alias(Tensor(a) self) -> Tensor(a)
    """
    return _op.alias(input)

@_b.checked(_op.reshape)
def reshape(input: Tensor, shape: int | Sequence[int]) -> Tensor:
    """reshape(Tensor(a) self, int[] shape) -> Tensor(a)
    """
    shape = _b.int_list(shape, 0, 'shape')
    return _op.reshape(input, shape)

@_b.checked(_op.flatten)
def flatten(input: Tensor, start_dim: int = 0, end_dim: int = -1) -> Tensor:
    """flatten(Tensor(a) self, int start_dim=0, int end_dim=-1) -> Tensor(a)
    """
    if start_dim.__class__ is not int or not -9223372036854775808 <= start_dim <= 9223372036854775807: start_dim = _b.int_arg(start_dim, 'start_dim', 'flatten')
    if end_dim.__class__ is not int or not -9223372036854775808 <= end_dim <= 9223372036854775807: end_dim = _b.int_arg(end_dim, 'end_dim', 'flatten')
    return _op.flatten(input, start_dim, end_dim)

@_b.checked(_op.unflatten)
def unflatten(input: Tensor, dim: int, sizes: int | Sequence[int]) -> Tensor:
    """unflatten(Tensor(a) self, int dim, int[] sizes) -> Tensor(a)
    """
    if dim.__class__ is not int or not -9223372036854775808 <= dim <= 9223372036854775807: dim = _b.int_arg(dim, 'dim', 'unflatten')
    sizes = _b.int_list(sizes, 0, 'sizes')
    return _op.unflatten(input, dim, sizes)

@_b.checked(_op.ravel)
def ravel(input: Tensor) -> Tensor:
    """ravel(Tensor(a) self) -> Tensor(a)
    """
    return _op.ravel(input)

@_b.checked(_op.clone)
def clone(input: Tensor, *, memory_format: Any | None = None) -> Tensor:
    """clone(Tensor self, *, MemoryFormat? memory_format=None) -> Tensor
    """
    return _op.clone(input, memory_format)

@_b.checked(_op.resize_as_)
def resize_as_(input: Tensor, the_template: Tensor, *, memory_format: Any | None = None) -> Tensor:
    """resize_as_(Tensor(a!) self, Tensor the_template, *, MemoryFormat? memory_format=None) -> Tensor(a!)
    
    Resizes ``self`` to the sizes of ``the_template`` (``resize_``), then the strides of ``memory_format`` when one is given (``preserve_format`` takes the template's own format).
    """
    return _op.resize_as_(input, the_template, memory_format)

@_b.checked(_op.detach)
def detach(input: Tensor) -> Tensor:
    """detach(Tensor(a) self) -> Tensor(a)
    """
    return _op.detach(input)

@_b.checked(_op.cat)
def cat(tensors: Sequence[Tensor], dim: int = 0) -> Tensor:
    """cat(Tensor[] tensors, int dim=0) -> Tensor
    """
    tensors = _b.tensor_list(tensors, 'tensors')
    if dim.__class__ is not int or not -9223372036854775808 <= dim <= 9223372036854775807: dim = _b.int_arg(dim, 'dim', 'cat')
    return _op.cat(tensors, dim)

@_b.checked(_op.cat)
def concatenate(tensors: Sequence[Tensor], dim: int = 0) -> Tensor:
    """cat(Tensor[] tensors, int dim=0) -> Tensor
    """
    tensors = _b.tensor_list(tensors, 'tensors')
    if dim.__class__ is not int or not -9223372036854775808 <= dim <= 9223372036854775807: dim = _b.int_arg(dim, 'dim', 'cat')
    return _op.cat(tensors, dim)

@_b.checked(_op.concat)
def concat(tensors: Sequence[Tensor], dim: int = 0) -> Tensor:
    """concat(Tensor[] tensors, int dim=0) -> Tensor
    """
    tensors = _b.tensor_list(tensors, 'tensors')
    if dim.__class__ is not int or not -9223372036854775808 <= dim <= 9223372036854775807: dim = _b.int_arg(dim, 'dim', 'concat')
    return _op.concat(tensors, dim)

@_b.checked(_op.stack)
def stack(tensors: Sequence[Tensor], dim: int = 0) -> Tensor:
    """stack(Tensor[] tensors, int dim=0) -> Tensor
    """
    tensors = _b.tensor_list(tensors, 'tensors')
    if dim.__class__ is not int or not -9223372036854775808 <= dim <= 9223372036854775807: dim = _b.int_arg(dim, 'dim', 'stack')
    return _op.stack(tensors, dim)

@_b.checked(_op.hstack)
def hstack(tensors: Sequence[Tensor]) -> Tensor:
    """hstack(Tensor[] tensors) -> Tensor
    """
    tensors = _b.tensor_list(tensors, 'tensors')
    return _op.hstack(tensors)

@_b.checked(_op.vstack)
def vstack(tensors: Sequence[Tensor]) -> Tensor:
    """vstack(Tensor[] tensors) -> Tensor
    """
    tensors = _b.tensor_list(tensors, 'tensors')
    return _op.vstack(tensors)

@_b.checked(_op.vstack)
def row_stack(tensors: Sequence[Tensor]) -> Tensor:
    """vstack(Tensor[] tensors) -> Tensor
    """
    tensors = _b.tensor_list(tensors, 'tensors')
    return _op.vstack(tensors)

@_b.checked(_op.flip)
def flip(input: Tensor, dims: int | Sequence[int]) -> Tensor:
    """flip(Tensor self, int[] dims) -> Tensor
    """
    dims = _b.int_list(dims, 0, 'dims')
    return _op.flip(input, dims)

@_b.checked(_op.roll)
def roll(input: Tensor, shifts: int | Sequence[int], dims: int | Sequence[int] = []) -> Tensor:
    """roll(Tensor self, int[1] shifts, int[1] dims=[]) -> Tensor
    """
    shifts = _b.int_list(shifts, 1, 'shifts')
    dims = _b.int_list(dims, 1, 'dims')
    return _op.roll(input, shifts, dims)

@_b.checked(_op.tile)
def tile(input: Tensor, dims: int | Sequence[int]) -> Tensor:
    """tile(Tensor self, int[] dims) -> Tensor
    """
    dims = _b.int_list(dims, 0, 'dims')
    return _op.tile(input, dims)

@_b.checked(_op.tril)
def tril(input: Tensor, diagonal: int = 0) -> Tensor:
    """tril(Tensor self, int diagonal=0) -> Tensor
    """
    if diagonal.__class__ is not int or not -9223372036854775808 <= diagonal <= 9223372036854775807: diagonal = _b.int_arg(diagonal, 'diagonal', 'tril')
    return _op.tril(input, diagonal)

@_b.checked(_op.triu)
def triu(input: Tensor, diagonal: int = 0) -> Tensor:
    """triu(Tensor self, int diagonal=0) -> Tensor
    """
    if diagonal.__class__ is not int or not -9223372036854775808 <= diagonal <= 9223372036854775807: diagonal = _b.int_arg(diagonal, 'diagonal', 'triu')
    return _op.triu(input, diagonal)

@_b.checked(_op.diag)
def diag(input: Tensor, diagonal: int = 0) -> Tensor:
    """diag(Tensor self, int diagonal=0) -> Tensor
    """
    if diagonal.__class__ is not int or not -9223372036854775808 <= diagonal <= 9223372036854775807: diagonal = _b.int_arg(diagonal, 'diagonal', 'diag')
    return _op.diag(input, diagonal)

@_b.checked(_op.diag_embed)
def diag_embed(input: Tensor, offset: int = 0, dim1: int = -2, dim2: int = -1) -> Tensor:
    """diag_embed(Tensor self, int offset=0, int dim1=-2, int dim2=-1) -> Tensor
    """
    if offset.__class__ is not int or not -9223372036854775808 <= offset <= 9223372036854775807: offset = _b.int_arg(offset, 'offset', 'diag_embed')
    if dim1.__class__ is not int or not -9223372036854775808 <= dim1 <= 9223372036854775807: dim1 = _b.int_arg(dim1, 'dim1', 'diag_embed')
    if dim2.__class__ is not int or not -9223372036854775808 <= dim2 <= 9223372036854775807: dim2 = _b.int_arg(dim2, 'dim2', 'diag_embed')
    return _op.diag_embed(input, offset, dim1, dim2)

@_b.checked(_op.meshgrid)
def meshgrid(tensors: Sequence[Tensor], *, indexing: str | None = None) -> tuple[Tensor, ...]:
    """meshgrid(Tensor[] tensors, *, str? indexing=None) -> Tensor[]
    """
    tensors = _b.tensor_list(tensors, 'tensors')
    if indexing is not None and indexing.__class__ is not str: indexing = _b.str_arg(indexing, 'indexing', 'meshgrid')
    return _op.meshgrid(tensors, indexing)

@_b.checked(_op.pad)
def pad(input: Tensor, pad: int | Sequence[int], mode: str = 'constant', value: float | None = None) -> Tensor:
    """pad(Tensor self, int[] pad, str mode="constant", float? value=None) -> Tensor
    """
    pad = _b.int_list(pad, 0, 'pad')
    if mode.__class__ is not str: mode = _b.str_arg(mode, 'mode', 'pad')
    if value is not None and value.__class__ is not float: value = _b.float_arg(value, 'value', 'pad')
    return _op.pad(input, pad, mode, value)

@_b.checked(_op.pad_backward)
def pad_backward(grad_output: Tensor, input_sizes: int | Sequence[int], padding: int | Sequence[int], mode: str) -> Tensor:
    """pad_backward(Tensor grad_output, int[] input_sizes, int[] padding, str mode) -> Tensor
    """
    input_sizes = _b.int_list(input_sizes, 0, 'input_sizes')
    padding = _b.int_list(padding, 0, 'padding')
    if mode.__class__ is not str: mode = _b.str_arg(mode, 'mode', 'pad_backward')
    return _op.pad_backward(grad_output, input_sizes, padding, mode)

@_b.checked(_op.unsafe_chunk)
def unsafe_chunk(input: Tensor, chunks: int, dim: int = 0) -> tuple[Tensor, ...]:
    """unsafe_chunk(Tensor self, int chunks, int dim=0) -> Tensor[]
    
    chunk without the views' aliasing guarantees (volta returns the same views as chunk).
    """
    if chunks.__class__ is not int or not -9223372036854775808 <= chunks <= 9223372036854775807: chunks = _b.int_arg(chunks, 'chunks', 'unsafe_chunk')
    if dim.__class__ is not int or not -9223372036854775808 <= dim <= 9223372036854775807: dim = _b.int_arg(dim, 'dim', 'unsafe_chunk')
    return _op.unsafe_chunk(input, chunks, dim)

@_b.checked(_op.unsafe_split_Tensor)
def unsafe_split(input: Tensor, split_size: int, dim: int = 0) -> tuple[Tensor, ...]:
    """unsafe_split.Tensor(Tensor self, int split_size, int dim=0) -> Tensor[]
    
    split by size without the views' aliasing guarantees (the same views as split).
    """
    if split_size.__class__ is not int or not -9223372036854775808 <= split_size <= 9223372036854775807: split_size = _b.int_arg(split_size, 'split_size', 'unsafe_split')
    if dim.__class__ is not int or not -9223372036854775808 <= dim <= 9223372036854775807: dim = _b.int_arg(dim, 'dim', 'unsafe_split')
    return _op.unsafe_split_Tensor(input, split_size, dim)

@_b.checked(_op.split_with_sizes)
def split_with_sizes(input: Tensor, split_sizes: int | Sequence[int], dim: int = 0) -> tuple[Tensor, ...]:
    """split_with_sizes(Tensor(a) self, int[] split_sizes, int dim=0) -> Tensor(a)[]
    
    Views of the given sizes along ``dim``; the sizes must add up to its size.
    """
    split_sizes = _b.int_list(split_sizes, 0, 'split_sizes')
    if dim.__class__ is not int or not -9223372036854775808 <= dim <= 9223372036854775807: dim = _b.int_arg(dim, 'dim', 'split_with_sizes')
    return _op.split_with_sizes(input, split_sizes, dim)

@_b.checked(_op.split_with_sizes_copy)
def split_with_sizes_copy(input: Tensor, split_sizes: int | Sequence[int], dim: int = 0) -> tuple[Tensor, ...]:
    """split_with_sizes_copy(Tensor self, int[] split_sizes, int dim=0) -> Tensor[]
    
    Copies of the pieces ``split_with_sizes`` returns.
    """
    split_sizes = _b.int_list(split_sizes, 0, 'split_sizes')
    if dim.__class__ is not int or not -9223372036854775808 <= dim <= 9223372036854775807: dim = _b.int_arg(dim, 'dim', 'split_with_sizes_copy')
    return _op.split_with_sizes_copy(input, split_sizes, dim)

@_b.checked(_op.unbind_copy)
def unbind_copy(input: Tensor, dim: int = 0) -> tuple[Tensor, ...]:
    """unbind_copy(Tensor self, int dim=0) -> Tensor[]
    
    Copies of the slices ``unbind`` returns.
    """
    if dim.__class__ is not int or not -9223372036854775808 <= dim <= 9223372036854775807: dim = _b.int_arg(dim, 'dim', 'unbind_copy')
    return _op.unbind_copy(input, dim)

def tensor_split(*args: Any, **kwargs: Any) -> Any:
    """tensor_split.sections(Tensor(a) self, int sections, int dim=0) -> Tensor(a)[]
    tensor_split.indices(Tensor(a) self, int[] indices, int dim=0) -> Tensor(a)[]
    tensor_split.tensor_indices_or_sections(Tensor(a) self, Tensor tensor_indices_or_sections, int dim=0) -> Tensor(a)[]
    
    ``sections`` nearly equal views along ``dim`` (the first ``size % sections`` one longer).
    
    Views split before each of ``indices`` along ``dim``.
    
    tensor_split with the sections (0-d) or split indices (1-d) given as an int64 tensor.
    """
    return _b.call_overloaded((_op.tensor_split_sections, _op.tensor_split_indices, _op.tensor_split_tensor_indices_or_sections,), args, kwargs, 'tensor_split')

def hsplit(*args: Any, **kwargs: Any) -> Any:
    """hsplit.int(Tensor(a) self, int sections) -> Tensor(a)[]
    hsplit.array(Tensor(a) self, int[] indices) -> Tensor(a)[]
    
    tensor_split along dim 1 (dim 0 for 1-d tensors) into equal pieces.
    
    tensor_split along dim 1 (dim 0 for 1-d tensors) before each index.
    """
    return _b.call_overloaded((_op.hsplit_int, _op.hsplit_array,), args, kwargs, 'hsplit')

def vsplit(*args: Any, **kwargs: Any) -> Any:
    """vsplit.int(Tensor(a) self, int sections) -> Tensor(a)[]
    vsplit.array(Tensor(a) self, int[] indices) -> Tensor(a)[]
    
    tensor_split along dim 0 into equal pieces.
    
    tensor_split along dim 0 before each index.
    """
    return _b.call_overloaded((_op.vsplit_int, _op.vsplit_array,), args, kwargs, 'vsplit')

def dsplit(*args: Any, **kwargs: Any) -> Any:
    """dsplit.int(Tensor(a) self, int sections) -> Tensor(a)[]
    dsplit.array(Tensor(a) self, int[] indices) -> Tensor(a)[]
    
    tensor_split along dim 2 into equal pieces.
    
    tensor_split along dim 2 before each index.
    """
    return _b.call_overloaded((_op.dsplit_int, _op.dsplit_array,), args, kwargs, 'dsplit')

@_b.checked(_op.expand_copy)
def expand_copy(input: Tensor, size: int | Sequence[int], *, implicit: bool = False) -> Tensor:
    """expand_copy(Tensor self, int[] size, *, bool implicit=False) -> Tensor
    
    A copy of ``self.expand(size)``.
    """
    size = _b.int_list(size, 0, 'size')
    if implicit.__class__ is not bool: implicit = _b.bool_arg(implicit, 'implicit', 'expand_copy')
    return _op.expand_copy(input, size, implicit)

@_b.checked(_op.alias_copy)
def alias_copy(input: Tensor) -> Tensor:
    """alias_copy(Tensor self) -> Tensor
    
    A copy of ``self`` (the copying form of ``alias``).
    """
    return _op.alias_copy(input)

@_b.checked(_op.as_strided_copy)
def as_strided_copy(input: Tensor, size: int | Sequence[int], stride: int | Sequence[int], storage_offset: int | None = None) -> Tensor:
    """as_strided_copy(Tensor self, int[] size, int[] stride, int? storage_offset=None) -> Tensor
    
    A copy of ``self.as_strided(size, stride, storage_offset)``.
    """
    size = _b.int_list(size, 0, 'size')
    stride = _b.int_list(stride, 0, 'stride')
    if storage_offset is not None and (storage_offset.__class__ is not int or not -9223372036854775808 <= storage_offset <= 9223372036854775807): storage_offset = _b.int_arg(storage_offset, 'storage_offset', 'as_strided_copy')
    return _op.as_strided_copy(input, size, stride, storage_offset)

@_b.checked(_op.diagonal_copy)
def diagonal_copy(input: Tensor, offset: int = 0, dim1: int = 0, dim2: int = 1) -> Tensor:
    """diagonal_copy(Tensor self, int offset=0, int dim1=0, int dim2=1) -> Tensor
    
    A copy of ``self.diagonal(offset, dim1, dim2)``.
    """
    if offset.__class__ is not int or not -9223372036854775808 <= offset <= 9223372036854775807: offset = _b.int_arg(offset, 'offset', 'diagonal_copy')
    if dim1.__class__ is not int or not -9223372036854775808 <= dim1 <= 9223372036854775807: dim1 = _b.int_arg(dim1, 'dim1', 'diagonal_copy')
    if dim2.__class__ is not int or not -9223372036854775808 <= dim2 <= 9223372036854775807: dim2 = _b.int_arg(dim2, 'dim2', 'diagonal_copy')
    return _op.diagonal_copy(input, offset, dim1, dim2)

@_b.checked(_op.narrow_copy)
def narrow_copy(input: Tensor, dim: int, start: int, length: int) -> Tensor:
    """narrow_copy(Tensor self, int dim, int start, int length) -> Tensor
    
    A copy of ``self.narrow(dim, start, length)``.
    """
    if dim.__class__ is not int or not -9223372036854775808 <= dim <= 9223372036854775807: dim = _b.int_arg(dim, 'dim', 'narrow_copy')
    if start.__class__ is not int or not -9223372036854775808 <= start <= 9223372036854775807: start = _b.int_arg(start, 'start', 'narrow_copy')
    if length.__class__ is not int or not -9223372036854775808 <= length <= 9223372036854775807: length = _b.int_arg(length, 'length', 'narrow_copy')
    return _op.narrow_copy(input, dim, start, length)

@_b.checked(_op.view_copy)
def view_copy(input: Tensor, size: int | Sequence[int]) -> Tensor:
    """view_copy(Tensor self, int[] size) -> Tensor
    
    A copy of ``self.view(size)``.
    """
    size = _b.int_list(size, 0, 'size')
    return _op.view_copy(input, size)

@_b.checked(_op.permute_copy)
def permute_copy(input: Tensor, dims: int | Sequence[int]) -> Tensor:
    """permute_copy(Tensor self, int[] dims) -> Tensor
    
    A copy of ``self.permute(dims)``.
    """
    dims = _b.int_list(dims, 0, 'dims')
    return _op.permute_copy(input, dims)

@_b.checked(_op.squeeze_copy)
def squeeze_copy(input: Tensor, dim: int | Sequence[int] | None = _b.OMITTED) -> Tensor:
    """squeeze_copy(Tensor self, int[1]? dim=None) -> Tensor
    
    A copy of ``self.squeeze(dim)``.
    """
    if dim is None: _b.reject_none('dim', 'tuple of ints', 'squeeze_copy')
    if dim is _b.OMITTED: dim = None
    dim = _b.int_list(dim, 1, 'dim')
    return _op.squeeze_copy(input, dim)

@_b.checked(_op.unsqueeze_copy)
def unsqueeze_copy(input: Tensor, dim: int) -> Tensor:
    """unsqueeze_copy(Tensor self, int dim) -> Tensor
    
    A copy of ``self.unsqueeze(dim)``.
    """
    if dim.__class__ is not int or not -9223372036854775808 <= dim <= 9223372036854775807: dim = _b.int_arg(dim, 'dim', 'unsqueeze_copy')
    return _op.unsqueeze_copy(input, dim)

@_b.checked(_op.transpose_copy)
def transpose_copy(input: Tensor, dim0: int, dim1: int) -> Tensor:
    """transpose_copy(Tensor self, int dim0, int dim1) -> Tensor
    
    A copy of ``self.transpose(dim0, dim1)``.
    """
    if dim0.__class__ is not int or not -9223372036854775808 <= dim0 <= 9223372036854775807: dim0 = _b.int_arg(dim0, 'dim0', 'transpose_copy')
    if dim1.__class__ is not int or not -9223372036854775808 <= dim1 <= 9223372036854775807: dim1 = _b.int_arg(dim1, 'dim1', 'transpose_copy')
    return _op.transpose_copy(input, dim0, dim1)

@_b.checked(_op.t_copy)
def t_copy(input: Tensor) -> Tensor:
    """t_copy(Tensor self) -> Tensor
    
    A copy of ``self.t()``.
    """
    return _op.t_copy(input)

@_b.checked(_op.unfold_copy)
def unfold_copy(input: Tensor, dimension: int, size: int, step: int) -> Tensor:
    """unfold_copy(Tensor self, int dimension, int size, int step) -> Tensor
    
    A copy of ``self.unfold(dimension, size, step)``.
    """
    if dimension.__class__ is not int or not -9223372036854775808 <= dimension <= 9223372036854775807: dimension = _b.int_arg(dimension, 'dimension', 'unfold_copy')
    if size.__class__ is not int or not -9223372036854775808 <= size <= 9223372036854775807: size = _b.int_arg(size, 'size', 'unfold_copy')
    if step.__class__ is not int or not -9223372036854775808 <= step <= 9223372036854775807: step = _b.int_arg(step, 'step', 'unfold_copy')
    return _op.unfold_copy(input, dimension, size, step)

@_b.checked(_op.diagonal_scatter)
def diagonal_scatter(input: Tensor, src: Tensor, offset: int = 0, dim1: int = 0, dim2: int = 1) -> Tensor:
    """diagonal_scatter(Tensor self, Tensor src, int offset=0, int dim1=0, int dim2=1) -> Tensor
    
    A copy of ``self`` with ``src`` written into its diagonal.
    """
    if offset.__class__ is not int or not -9223372036854775808 <= offset <= 9223372036854775807: offset = _b.int_arg(offset, 'offset', 'diagonal_scatter')
    if dim1.__class__ is not int or not -9223372036854775808 <= dim1 <= 9223372036854775807: dim1 = _b.int_arg(dim1, 'dim1', 'diagonal_scatter')
    if dim2.__class__ is not int or not -9223372036854775808 <= dim2 <= 9223372036854775807: dim2 = _b.int_arg(dim2, 'dim2', 'diagonal_scatter')
    return _op.diagonal_scatter(input, src, offset, dim1, dim2)

@_b.checked(_op.select_scatter)
def select_scatter(input: Tensor, src: Tensor, dim: int, index: int) -> Tensor:
    """select_scatter(Tensor self, Tensor src, int dim, int index) -> Tensor
    
    A copy of ``self`` with ``src`` written into ``self.select(dim, index)``.
    """
    if dim.__class__ is not int or not -9223372036854775808 <= dim <= 9223372036854775807: dim = _b.int_arg(dim, 'dim', 'select_scatter')
    if index.__class__ is not int or not -9223372036854775808 <= index <= 9223372036854775807: index = _b.int_arg(index, 'index', 'select_scatter')
    return _op.select_scatter(input, src, dim, index)

@_b.checked(_op.slice_scatter)
def slice_scatter(input: Tensor, src: Tensor, dim: int = 0, start: int | None = None, end: int | None = None, step: int = 1) -> Tensor:
    """slice_scatter(Tensor self, Tensor src, int dim=0, int? start=None, int? end=None, int step=1) -> Tensor
    
    A copy of ``self`` with ``src`` written into the slice ``start:end:step`` of ``dim``.
    """
    if dim.__class__ is not int or not -9223372036854775808 <= dim <= 9223372036854775807: dim = _b.int_arg(dim, 'dim', 'slice_scatter')
    if start is not None and (start.__class__ is not int or not -9223372036854775808 <= start <= 9223372036854775807): start = _b.int_arg(start, 'start', 'slice_scatter')
    if end is not None and (end.__class__ is not int or not -9223372036854775808 <= end <= 9223372036854775807): end = _b.int_arg(end, 'end', 'slice_scatter')
    if step.__class__ is not int or not -9223372036854775808 <= step <= 9223372036854775807: step = _b.int_arg(step, 'step', 'slice_scatter')
    return _op.slice_scatter(input, src, dim, start, end, step)

@_b.checked(_op.fliplr)
def fliplr(input: Tensor) -> Tensor:
    """fliplr(Tensor self) -> Tensor
    
    Flip the columns (dim 1).
    """
    return _op.fliplr(input)

@_b.checked(_op.flipud)
def flipud(input: Tensor) -> Tensor:
    """flipud(Tensor self) -> Tensor
    
    Flip the rows (dim 0).
    """
    return _op.flipud(input)

@_b.checked(_op.rot90)
def rot90(input: Tensor, k: int = 1, dims: int | Sequence[int] = [0, 1]) -> Tensor:
    """rot90(Tensor self, int k=1, int[] dims=[0,1]) -> Tensor
    
    Rotate by 90 degrees ``k`` times in the plane of ``dims``, from the first towards the second.
    """
    if k.__class__ is not int or not -9223372036854775808 <= k <= 9223372036854775807: k = _b.int_arg(k, 'k', 'rot90')
    dims = _b.int_list(dims, 0, 'dims')
    return _op.rot90(input, k, dims)

def atleast_1d(*args: Any, **kwargs: Any) -> Any:
    """atleast_1d(Tensor self) -> Tensor
    atleast_1d.Sequence(Tensor[] tensors) -> Tensor[]
    
    ``self`` with at least one dimension (a 0-d tensor becomes shape [1]).
    
    atleast_1d of each tensor.
    """
    return _b.call_overloaded((_op.atleast_1d, _op.atleast_1d_Sequence,), args, kwargs, 'atleast_1d')

def atleast_2d(*args: Any, **kwargs: Any) -> Any:
    """atleast_2d(Tensor self) -> Tensor
    atleast_2d.Sequence(Tensor[] tensors) -> Tensor[]
    
    ``self`` with at least two dimensions (leading dims of size 1 added).
    
    atleast_2d of each tensor.
    """
    return _b.call_overloaded((_op.atleast_2d, _op.atleast_2d_Sequence,), args, kwargs, 'atleast_2d')

def atleast_3d(*args: Any, **kwargs: Any) -> Any:
    """atleast_3d(Tensor self) -> Tensor
    atleast_3d.Sequence(Tensor[] tensors) -> Tensor[]
    
    ``self`` with at least three dimensions (as NumPy's atleast_3d: [n] -> [1, n, 1]).
    
    atleast_3d of each tensor.
    """
    return _b.call_overloaded((_op.atleast_3d, _op.atleast_3d_Sequence,), args, kwargs, 'atleast_3d')

@_b.checked(_op.column_stack)
def column_stack(tensors: Sequence[Tensor]) -> Tensor:
    """column_stack(Tensor[] tensors) -> Tensor
    
    Stack 0-d/1-d tensors as columns and concatenate along dim 1.
    """
    tensors = _b.tensor_list(tensors, 'tensors')
    return _op.column_stack(tensors)

@_b.checked(_op.dstack)
def dstack(tensors: Sequence[Tensor]) -> Tensor:
    """dstack(Tensor[] tensors) -> Tensor
    
    Concatenate along dim 2 after atleast_3d.
    """
    tensors = _b.tensor_list(tensors, 'tensors')
    return _op.dstack(tensors)

@_b.checked(_op._chunk_cat)
def _chunk_cat(tensors: Sequence[Tensor], dim: int, num_chunks: int) -> Tensor:
    """_chunk_cat(Tensor[] tensors, int dim, int num_chunks) -> Tensor
    
    Chunk each tensor into ``num_chunks`` along ``dim`` (padding with zeros) and concatenate the chunks' flattened tails.
    """
    tensors = _b.tensor_list(tensors, 'tensors')
    if dim.__class__ is not int or not -9223372036854775808 <= dim <= 9223372036854775807: dim = _b.int_arg(dim, 'dim', '_chunk_cat')
    if num_chunks.__class__ is not int or not -9223372036854775808 <= num_chunks <= 9223372036854775807: num_chunks = _b.int_arg(num_chunks, 'num_chunks', '_chunk_cat')
    return _op._chunk_cat(tensors, dim, num_chunks)

@_b.checked(_op.diff)
def diff(input: Tensor, n: int = 1, dim: int = -1, prepend: Tensor | None = None, append: Tensor | None = None) -> Tensor:
    """diff(Tensor self, int n=1, int dim=-1, Tensor? prepend=None, Tensor? append=None) -> Tensor
    
    The ``n``-th forward difference along ``dim``, after concatenating ``prepend`` and ``append``.
    """
    if n.__class__ is not int or not -9223372036854775808 <= n <= 9223372036854775807: n = _b.int_arg(n, 'n', 'diff')
    if dim.__class__ is not int or not -9223372036854775808 <= dim <= 9223372036854775807: dim = _b.int_arg(dim, 'dim', 'diff')
    return _op.diff(input, n, dim, prepend, append)

def gradient(*args: Any, **kwargs: Any) -> Any:
    """gradient.scalarint(Tensor self, *, Scalar? spacing=None, int? dim=None, int edge_order=1) -> Tensor[]
    gradient.scalararray(Tensor self, *, Scalar spacing, int[] dim, int edge_order=1) -> Tensor[]
    gradient.array(Tensor self, *, int[] dim, int edge_order=1) -> Tensor[]
    gradient.scalarrayint(Tensor self, *, Scalar[] spacing, int? dim=None, int edge_order=1) -> Tensor[]
    gradient.scalarrayarray(Tensor self, *, Scalar[] spacing, int[] dim, int edge_order=1) -> Tensor[]
    gradient.tensorarrayint(Tensor self, *, Tensor[] spacing, int? dim=None, int edge_order=1) -> Tensor[]
    gradient.tensorarray(Tensor self, *, Tensor[] spacing, int[] dim, int edge_order=1) -> Tensor[]
    
    The derivative of ``self`` along ``dim`` (all dims by default) estimated by central differences at the uniform ``spacing`` (1 by default), one-sided at the edges (``edge_order`` 1 or 2).
    
    The derivative of ``self`` along ``dim`` (all dims by default) estimated by central differences at the uniform ``spacing``, one-sided at the edges (``edge_order`` 1 or 2).
    
    The derivative of ``self`` along ``dim`` (all dims by default) estimated by central differences at unit spacing, one-sided at the edges (``edge_order`` 1 or 2).
    
    The derivative of ``self`` along ``dim`` (all dims by default) estimated by central differences at one uniform spacing per dim, one-sided at the edges (``edge_order`` 1 or 2).
    
    The derivative of ``self`` along ``dim`` (all dims by default) estimated by central differences at one uniform spacing per dim, one-sided at the edges (``edge_order`` 1 or 2).
    
    The derivative of ``self`` along ``dim`` (all dims by default) estimated by central differences at the sample coordinates ``spacing`` (one 1-d tensor per dim), one-sided at the edges (``edge_order`` 1 or 2).
    
    The derivative of ``self`` along ``dim`` (all dims by default) estimated by central differences at the sample coordinates ``spacing`` (one 1-d tensor per dim), one-sided at the edges (``edge_order`` 1 or 2).
    """
    return _b.call_overloaded((_op.gradient_scalarint, _op.gradient_scalararray, _op.gradient_array, _op.gradient_scalarrayint, _op.gradient_scalarrayarray, _op.gradient_tensorarrayint, _op.gradient_tensorarray,), args, kwargs, 'gradient')

def fill(*args: Any, **kwargs: Any) -> Any:
    """fill.Tensor(Tensor self, Tensor value) -> Tensor
    fill.Scalar(Tensor self, Scalar value) -> Tensor
    
    A tensor like ``self`` filled with the 0-d tensor ``value``.
    
    A tensor like ``self`` filled with ``value``.
    """
    return _b.call_overloaded((_op.fill_Tensor, _op.fill_Scalar,), args, kwargs, 'fill')

def _native_batch_norm_legit(*args: Any, **kwargs: Any) -> Any:
    """_native_batch_norm_legit(Tensor input, Tensor? weight, Tensor? bias, Tensor(a!) running_mean, Tensor(b!) running_var, bool training, float momentum, float eps) -> (Tensor, Tensor, Tensor)
    _native_batch_norm_legit.no_stats(Tensor input, Tensor? weight, Tensor? bias, bool training, float momentum, float eps) -> (Tensor, Tensor, Tensor)
    
    native_batch_norm with running statistics (PyTorch's functionalisation name).
    
    native_batch_norm without running statistics.
    """
    return _b.call_overloaded((_op._native_batch_norm_legit, _op._native_batch_norm_legit_no_stats,), args, kwargs, '_native_batch_norm_legit')

@_b.checked(_op._batch_norm_with_update)
def _batch_norm_with_update(input: Tensor, weight: Tensor | None, bias: Tensor | None, running_mean: Tensor, running_var: Tensor, momentum: float, eps: float) -> tuple[Tensor, Tensor, Tensor, Tensor]:
    """_batch_norm_with_update(Tensor input, Tensor? weight, Tensor? bias, Tensor(a!) running_mean, Tensor(b!) running_var, float momentum, float eps) -> (Tensor, Tensor, Tensor, Tensor)
    
    Training-mode batch norm that updates the running statistics; the fourth output is an empty reserve buffer.
    """
    if momentum.__class__ is not float: momentum = _b.float_arg(momentum, 'momentum', '_batch_norm_with_update')
    if eps.__class__ is not float: eps = _b.float_arg(eps, 'eps', '_batch_norm_with_update')
    return _op._batch_norm_with_update(input, weight, bias, running_mean, running_var, momentum, eps)

@_b.checked(_op.fftshift)
def fftshift(input: Tensor, dim: int | Sequence[int] | None = None) -> Tensor:
    """fftshift(Tensor self, int[1]? dim=None) -> Tensor
    
    Roll the zero-frequency term to the centre of ``dim`` (all dims by default).
    """
    dim = _b.int_list(dim, 1, 'dim')
    return _op.fftshift(input, dim)

@_b.checked(_op.ifftshift)
def ifftshift(input: Tensor, dim: int | Sequence[int] | None = None) -> Tensor:
    """ifftshift(Tensor self, int[1]? dim=None) -> Tensor
    
    The inverse of fftshift.
    """
    dim = _b.int_list(dim, 1, 'dim')
    return _op.ifftshift(input, dim)

def sort(*args: Any, **kwargs: Any) -> Any:
    """sort(Tensor self, int dim=-1, bool descending=False) -> (Tensor values, Tensor indices)
    sort.stable(Tensor self, *, bool? stable, int dim=-1, bool descending=False) -> (Tensor values, Tensor indices)
    
    Sorted along dim, with the indices; ties keep their order (every volta sort is stable).
    """
    return _b.call_overloaded((_op.sort, _op.sort_stable,), args, kwargs, 'sort')

def argsort(*args: Any, **kwargs: Any) -> Any:
    """argsort(Tensor self, int dim=-1, bool descending=False) -> Tensor
    argsort.stable(Tensor self, *, bool stable, int dim=-1, bool descending=False) -> Tensor
    """
    return _b.call_overloaded((_op.argsort, _op.argsort_stable,), args, kwargs, 'argsort')

@_b.checked(_op.topk)
def topk(input: Tensor, k: int, dim: int = -1, largest: bool = True, sorted: bool = True) -> tuple[Tensor, Tensor]:
    """topk(Tensor self, int k, int dim=-1, bool largest=True, bool sorted=True) -> (Tensor values, Tensor indices)
    """
    if k.__class__ is not int or not -9223372036854775808 <= k <= 9223372036854775807: k = _b.int_arg(k, 'k', 'topk')
    if dim.__class__ is not int or not -9223372036854775808 <= dim <= 9223372036854775807: dim = _b.int_arg(dim, 'dim', 'topk')
    if largest.__class__ is not bool: largest = _b.bool_arg(largest, 'largest', 'topk')
    if sorted.__class__ is not bool: sorted = _b.bool_arg(sorted, 'sorted', 'topk')
    return _b.named_result('topk', ('values', 'indices'), _op.topk(input, k, dim, largest, sorted))

@_b.checked(_op.gather)
def gather(input: Tensor, dim: int, index: Tensor, *, sparse_grad: bool = False) -> Tensor:
    """gather(Tensor self, int dim, Tensor index, *, bool sparse_grad=False) -> Tensor
    """
    if dim.__class__ is not int or not -9223372036854775808 <= dim <= 9223372036854775807: dim = _b.int_arg(dim, 'dim', 'gather')
    if sparse_grad.__class__ is not bool: sparse_grad = _b.bool_arg(sparse_grad, 'sparse_grad', 'gather')
    return _op.gather(input, dim, index, sparse_grad)

@_b.checked(_op.gather_backward)
def gather_backward(grad_output: Tensor, self_sizes: int | Sequence[int], dim: int, index: Tensor) -> Tensor:
    """gather_backward(Tensor grad_output, int[] self_sizes, int dim, Tensor index) -> Tensor
    
    gather's gradient, ``grad_output`` added into zeros of ``self_sizes`` at the positions ``index`` names along ``dim`` (a backend may add into fresh zeros without copying a zeros tensor first).
    """
    self_sizes = _b.int_list(self_sizes, 0, 'self_sizes')
    if dim.__class__ is not int or not -9223372036854775808 <= dim <= 9223372036854775807: dim = _b.int_arg(dim, 'dim', 'gather_backward')
    return _op.gather_backward(grad_output, self_sizes, dim, index)

@_b.checked(_op.take_along_dim)
def take_along_dim(input: Tensor, indices: Tensor, dim: int | None = None) -> Tensor:
    """take_along_dim(Tensor self, Tensor indices, int? dim=None) -> Tensor
    """
    if dim is not None and (dim.__class__ is not int or not -9223372036854775808 <= dim <= 9223372036854775807): dim = _b.int_arg(dim, 'dim', 'take_along_dim')
    return _op.take_along_dim(input, indices, dim)

def scatter(*args: Any, **kwargs: Any) -> Any:
    """scatter.src(Tensor self, int dim, Tensor index, Tensor src) -> Tensor
    scatter.value(Tensor self, int dim, Tensor index, Scalar value) -> Tensor
    scatter.reduce(Tensor self, int dim, Tensor index, Tensor src, *, str reduce) -> Tensor
    scatter.value_reduce(Tensor self, int dim, Tensor index, Scalar value, *, str reduce) -> Tensor
    
    scatter that adds (``reduce="add"``) or multiplies (``"multiply"``) ``src`` into ``self``.
    
    scatter that adds or multiplies ``value`` into ``self`` at ``index``.
    """
    return _b.call_overloaded((_op.scatter_src, _op.scatter_value, _op.scatter_reduce, _op.scatter_value_reduce,), args, kwargs, 'scatter')

@_b.checked(_op.scatter_add)
def scatter_add(input: Tensor, dim: int, index: Tensor, src: Tensor) -> Tensor:
    """scatter_add(Tensor self, int dim, Tensor index, Tensor src) -> Tensor
    """
    if dim.__class__ is not int or not -9223372036854775808 <= dim <= 9223372036854775807: dim = _b.int_arg(dim, 'dim', 'scatter_add')
    return _op.scatter_add(input, dim, index, src)

@_b.checked(_op.index_select)
def index_select(input: Tensor, dim: int, index: Tensor) -> Tensor:
    """index_select(Tensor self, int dim, Tensor index) -> Tensor
    """
    if dim.__class__ is not int or not -9223372036854775808 <= dim <= 9223372036854775807: dim = _b.int_arg(dim, 'dim', 'index_select')
    return _op.index_select(input, dim, index)

@_b.checked(_op.index_select_backward)
def index_select_backward(grad_output: Tensor, self_sizes: int | Sequence[int], dim: int, index: Tensor) -> Tensor:
    """index_select_backward(Tensor grad_output, int[] self_sizes, int dim, Tensor index) -> Tensor
    
    index_select's gradient, ``grad_output``'s slices added into zeros of ``self_sizes`` at ``index`` along ``dim`` (a backend may write them without copying a zeros tensor first).
    """
    self_sizes = _b.int_list(self_sizes, 0, 'self_sizes')
    if dim.__class__ is not int or not -9223372036854775808 <= dim <= 9223372036854775807: dim = _b.int_arg(dim, 'dim', 'index_select_backward')
    return _op.index_select_backward(grad_output, self_sizes, dim, index)

@_b.checked(_op.index_add)
def index_add(input: Tensor, dim: int, index: Tensor, source: Tensor, *, alpha: Number = 1) -> Tensor:
    """index_add(Tensor self, int dim, Tensor index, Tensor source, *, Scalar alpha=1) -> Tensor
    """
    if dim.__class__ is not int or not -9223372036854775808 <= dim <= 9223372036854775807: dim = _b.int_arg(dim, 'dim', 'index_add')
    return _op.index_add(input, dim, index, source, alpha)

@_b.checked(_op.index_Tensor)
def index(input: Tensor, indices: Sequence[Tensor]) -> Tensor:
    """index.Tensor(Tensor self, Tensor?[] indices) -> Tensor
    """
    indices = _b.tensor_list(indices, 'indices')
    return _op.index_Tensor(input, indices)

@_b.checked(_op.index_put)
def index_put(input: Tensor, indices: Sequence[Tensor], values: Tensor, accumulate: bool = False) -> Tensor:
    """index_put(Tensor self, Tensor?[] indices, Tensor values, bool accumulate=False) -> Tensor
    """
    indices = _b.tensor_list(indices, 'indices')
    if accumulate.__class__ is not bool: accumulate = _b.bool_arg(accumulate, 'accumulate', 'index_put')
    return _op.index_put(input, indices, values, accumulate)

def masked_fill(*args: Any, **kwargs: Any) -> Any:
    """masked_fill.Tensor(Tensor self, Tensor mask, Tensor value) -> Tensor
    masked_fill(Tensor self, Tensor mask, Scalar value) -> Tensor
    """
    return _b.call_overloaded((_op.masked_fill_Tensor, _op.masked_fill,), args, kwargs, 'masked_fill')

@_b.checked(_op.masked_select)
def masked_select(input: Tensor, mask: Tensor) -> Tensor:
    """masked_select(Tensor self, Tensor mask) -> Tensor
    """
    return _op.masked_select(input, mask)

@_b.checked(_op.masked_scatter)
def masked_scatter(input: Tensor, mask: Tensor, source: Tensor) -> Tensor:
    """masked_scatter(Tensor self, Tensor mask, Tensor source) -> Tensor
    """
    return _op.masked_scatter(input, mask, source)

def nonzero(*args: Any, **kwargs: Any) -> Any:
    """nonzero(Tensor self) -> Tensor
    nonzero.tuple(Tensor self, *, bool as_tuple) -> Tensor[]
    """
    return _b.call_overloaded((_op.nonzero, _op.nonzero_tuple,), args, kwargs, 'nonzero')

@_b.checked(_op.one_hot)
def one_hot(input: Tensor, num_classes: int = -1) -> Tensor:
    """one_hot(Tensor self, int num_classes=-1) -> Tensor
    """
    if num_classes.__class__ is not int or not -9223372036854775808 <= num_classes <= 9223372036854775807: num_classes = _b.int_arg(num_classes, 'num_classes', 'one_hot')
    return _op.one_hot(input, num_classes)

@_b.checked(_op.unique)
def unique(input: Tensor, sorted: bool = True, return_inverse: bool = False, return_counts: bool = False, dim: int | None = None) -> tuple[Tensor, ...]:
    """unique(Tensor self, bool sorted=True, bool return_inverse=False, bool return_counts=False, int? dim=None) -> Tensor[]
    """
    if sorted.__class__ is not bool: sorted = _b.bool_arg(sorted, 'sorted', 'unique')
    if return_inverse.__class__ is not bool: return_inverse = _b.bool_arg(return_inverse, 'return_inverse', 'unique')
    if return_counts.__class__ is not bool: return_counts = _b.bool_arg(return_counts, 'return_counts', 'unique')
    if dim is not None and (dim.__class__ is not int or not -9223372036854775808 <= dim <= 9223372036854775807): dim = _b.int_arg(dim, 'dim', 'unique')
    return _op.unique(input, sorted, return_inverse, return_counts, dim)

@_b.checked(_op.bincount)
def bincount(input: Tensor, weights: Tensor | None = None, minlength: int = 0) -> Tensor:
    """bincount(Tensor self, Tensor? weights=None, int minlength=0) -> Tensor
    """
    if minlength.__class__ is not int or not -9223372036854775808 <= minlength <= 9223372036854775807: minlength = _b.int_arg(minlength, 'minlength', 'bincount')
    return _op.bincount(input, weights, minlength)

@_b.checked(_op.searchsorted)
def searchsorted(sorted_sequence: Tensor, input: Tensor, *, out_int32: bool = False, right: bool = False, side: str | None = None, sorter: Tensor | None = None) -> Tensor:
    """searchsorted(Tensor sorted_sequence, Tensor self, *, bool out_int32=False, bool right=False, str? side=None, Tensor? sorter=None) -> Tensor
    """
    if out_int32.__class__ is not bool: out_int32 = _b.bool_arg(out_int32, 'out_int32', 'searchsorted')
    if right.__class__ is not bool: right = _b.bool_arg(right, 'right', 'searchsorted')
    if side is not None and side.__class__ is not str: side = _b.str_arg(side, 'side', 'searchsorted')
    return _op.searchsorted(sorted_sequence, input, out_int32, right, side, sorter)

@_b.checked(_op.take)
def take(input: Tensor, index: Tensor) -> Tensor:
    """take(Tensor self, Tensor index) -> Tensor
    
    The elements of ``self`` flattened, at ``index`` (negative indices count from the end).
    """
    return _op.take(input, index)

@_b.checked(_op.put)
def put(input: Tensor, index: Tensor, source: Tensor, accumulate: bool = False) -> Tensor:
    """put(Tensor self, Tensor index, Tensor source, bool accumulate=False) -> Tensor
    
    A copy of ``self`` with ``source`` written (or added) at the flat positions ``index``.
    """
    if accumulate.__class__ is not bool: accumulate = _b.bool_arg(accumulate, 'accumulate', 'put')
    return _op.put(input, index, source, accumulate)

def index_fill(*args: Any, **kwargs: Any) -> Any:
    """index_fill.int_Tensor(Tensor self, int dim, Tensor index, Tensor value) -> Tensor
    index_fill.int_Scalar(Tensor self, int dim, Tensor index, Scalar value) -> Tensor
    
    index_fill with a 0-d tensor ``value``.
    
    A copy of ``self`` with the entries at ``index`` along ``dim`` set to ``value``.
    """
    return _b.call_overloaded((_op.index_fill_int_Tensor, _op.index_fill_int_Scalar,), args, kwargs, 'index_fill')

@_b.checked(_op.index_copy)
def index_copy(input: Tensor, dim: int, index: Tensor, source: Tensor) -> Tensor:
    """index_copy(Tensor self, int dim, Tensor index, Tensor source) -> Tensor
    
    A copy of ``self`` with the slices of ``source`` written at ``index`` along ``dim``.
    """
    if dim.__class__ is not int or not -9223372036854775808 <= dim <= 9223372036854775807: dim = _b.int_arg(dim, 'dim', 'index_copy')
    return _op.index_copy(input, dim, index, source)

@_b.checked(_op.scatter_reduce_two)
def scatter_reduce(input: Tensor, dim: int, index: Tensor, src: Tensor, reduce: str, *, include_self: bool = True) -> Tensor:
    """scatter_reduce.two(Tensor self, int dim, Tensor index, Tensor src, str reduce, *, bool include_self=True) -> Tensor
    
    Reduce (sum, prod, mean, amax, amin) the values of ``src`` into ``self`` at ``index`` along ``dim``.
    """
    if dim.__class__ is not int or not -9223372036854775808 <= dim <= 9223372036854775807: dim = _b.int_arg(dim, 'dim', 'scatter_reduce')
    if reduce.__class__ is not str: reduce = _b.str_arg(reduce, 'reduce', 'scatter_reduce')
    if include_self.__class__ is not bool: include_self = _b.bool_arg(include_self, 'include_self', 'scatter_reduce')
    return _op.scatter_reduce_two(input, dim, index, src, reduce, include_self)

@_b.checked(_op.scatter_reduce_backward)
def scatter_reduce_backward(grad: Tensor, input: Tensor, dim: int, index: Tensor, src: Tensor, reduce: str, include_self: bool, result: Tensor) -> tuple[Tensor, Tensor]:
    """scatter_reduce_backward(Tensor grad, Tensor self, int dim, Tensor index, Tensor src, str reduce, bool include_self, Tensor result) -> (Tensor, Tensor)
    
    The gradients of scatter_reduce with respect to ``self`` and ``src``.
    """
    if dim.__class__ is not int or not -9223372036854775808 <= dim <= 9223372036854775807: dim = _b.int_arg(dim, 'dim', 'scatter_reduce_backward')
    if reduce.__class__ is not str: reduce = _b.str_arg(reduce, 'reduce', 'scatter_reduce_backward')
    if include_self.__class__ is not bool: include_self = _b.bool_arg(include_self, 'include_self', 'scatter_reduce_backward')
    return _op.scatter_reduce_backward(grad, input, dim, index, src, reduce, include_self, result)

@_b.checked(_op.index_reduce)
def index_reduce(input: Tensor, dim: int, index: Tensor, source: Tensor, reduce: str, *, include_self: bool = True) -> Tensor:
    """index_reduce(Tensor self, int dim, Tensor index, Tensor source, str reduce, *, bool include_self=True) -> Tensor
    
    Reduce (prod, mean, amax, amin) the slices of ``source`` into ``self`` at ``index`` along ``dim``.
    """
    if dim.__class__ is not int or not -9223372036854775808 <= dim <= 9223372036854775807: dim = _b.int_arg(dim, 'dim', 'index_reduce')
    if reduce.__class__ is not str: reduce = _b.str_arg(reduce, 'reduce', 'index_reduce')
    if include_self.__class__ is not bool: include_self = _b.bool_arg(include_self, 'include_self', 'index_reduce')
    return _op.index_reduce(input, dim, index, source, reduce, include_self)

def repeat_interleave(*args: Any, **kwargs: Any) -> Any:
    """repeat_interleave.Tensor(Tensor repeats, *, int? output_size=None) -> Tensor
    repeat_interleave.self_Tensor(Tensor self, Tensor repeats, int? dim=None, *, int? output_size=None) -> Tensor
    repeat_interleave.self_int(Tensor self, int repeats, int? dim=None, *, int? output_size=None) -> Tensor
    
    Each index ``i`` repeated ``repeats[i]`` times.
    
    Repeat each element (or slice along ``dim``) of ``self`` ``repeats[i]`` times.
    
    Repeat each element (or slice along ``dim``) of ``self`` ``repeats`` times.
    """
    return _b.call_overloaded((_op.repeat_interleave_Tensor, _op.repeat_interleave_self_Tensor, _op.repeat_interleave_self_int,), args, kwargs, 'repeat_interleave')

@_b.checked(_op.argwhere)
def argwhere(input: Tensor) -> Tensor:
    """argwhere(Tensor self) -> Tensor
    
    The indices of the nonzero elements, one row each (as ``nonzero``).
    """
    return _op.argwhere(input)

@_b.checked(_op.nonzero_static)
def nonzero_static(input: Tensor, *, size: int, fill_value: int = -1) -> Tensor:
    """nonzero_static(Tensor self, *, int size, int fill_value=-1) -> Tensor
    
    nonzero's first ``size`` rows, padded with ``fill_value`` to exactly ``size`` rows.
    """
    if size.__class__ is not int or not -9223372036854775808 <= size <= 9223372036854775807: size = _b.int_arg(size, 'size', 'nonzero_static')
    if fill_value.__class__ is not int or not -9223372036854775808 <= fill_value <= 9223372036854775807: fill_value = _b.int_arg(fill_value, 'fill_value', 'nonzero_static')
    return _op.nonzero_static(input, size, fill_value)

@_b.checked(_op.unravel_index)
def unravel_index(indices: Tensor, shape: int | Sequence[int]) -> tuple[Tensor, ...]:
    """unravel_index(Tensor indices, int[] shape) -> Tensor[]
    
    The coordinates in a tensor of ``shape`` of each flat index.
    """
    shape = _b.int_list(shape, 0, 'shape')
    return _op.unravel_index(indices, shape)

@_b.checked(_op._unsafe_masked_index)
def _unsafe_masked_index(input: Tensor, mask: Tensor, indices: Sequence[Tensor], fill: Number) -> Tensor:
    """_unsafe_masked_index(Tensor self, Tensor mask, Tensor?[] indices, Scalar fill) -> Tensor
    
    ``where(mask, self[indices], fill)``, with the masked-off indices clamped into range.
    """
    indices = _b.tensor_list(indices, 'indices')
    return _op._unsafe_masked_index(input, mask, indices, fill)

@_b.checked(_op._unsafe_masked_index_put_accumulate)
def _unsafe_masked_index_put_accumulate(input: Tensor, mask: Tensor, indices: Sequence[Tensor], values: Tensor) -> Tensor:
    """_unsafe_masked_index_put_accumulate(Tensor self, Tensor mask, Tensor?[] indices, Tensor values) -> Tensor
    
    ``self.index_put(indices, values * mask, accumulate=True)``, with the masked-off indices clamped into range.
    """
    indices = _b.tensor_list(indices, 'indices')
    return _op._unsafe_masked_index_put_accumulate(input, mask, indices, values)

@_b.checked(_op.softmax)
def softmax(input: Tensor, dim: int, dtype: dtype | None = None) -> Tensor:
    """softmax(Tensor self, int dim, ScalarType? dtype=None) -> Tensor
    """
    if dim.__class__ is not int or not -9223372036854775808 <= dim <= 9223372036854775807: dim = _b.int_arg(dim, 'dim', 'softmax')
    dtype = _b.dtype_arg(dtype)
    return _op.softmax(input, dim, dtype)

@_b.checked(_op._softmax_backward_data)
def _softmax_backward_data(grad_output: Tensor, output: Tensor, dim: int, input_dtype: dtype) -> Tensor:
    """_softmax_backward_data(Tensor grad_output, Tensor output, int dim, ScalarType input_dtype) -> Tensor
    """
    if dim.__class__ is not int or not -9223372036854775808 <= dim <= 9223372036854775807: dim = _b.int_arg(dim, 'dim', '_softmax_backward_data')
    input_dtype = _b.dtype_arg(input_dtype)
    return _op._softmax_backward_data(grad_output, output, dim, input_dtype)

@_b.checked(_op.log_softmax)
def log_softmax(input: Tensor, dim: int, dtype: dtype | None = None) -> Tensor:
    """log_softmax(Tensor self, int dim, ScalarType? dtype=None) -> Tensor
    """
    if dim.__class__ is not int or not -9223372036854775808 <= dim <= 9223372036854775807: dim = _b.int_arg(dim, 'dim', 'log_softmax')
    dtype = _b.dtype_arg(dtype)
    return _op.log_softmax(input, dim, dtype)

@_b.checked(_op._log_softmax_backward_data)
def _log_softmax_backward_data(grad_output: Tensor, output: Tensor, dim: int, input_dtype: dtype) -> Tensor:
    """_log_softmax_backward_data(Tensor grad_output, Tensor output, int dim, ScalarType input_dtype) -> Tensor
    """
    if dim.__class__ is not int or not -9223372036854775808 <= dim <= 9223372036854775807: dim = _b.int_arg(dim, 'dim', '_log_softmax_backward_data')
    input_dtype = _b.dtype_arg(input_dtype)
    return _op._log_softmax_backward_data(grad_output, output, dim, input_dtype)

@_b.checked(_op.linear)
def linear(input: Tensor, weight: Tensor, bias: Tensor | None = None) -> Tensor:
    """linear(Tensor input, Tensor weight, Tensor? bias=None) -> Tensor
    """
    return _op.linear(input, weight, bias)

@_b.checked(_op.bilinear)
def bilinear(input1: Tensor, input2: Tensor, weight: Tensor, bias: Tensor | None = None) -> Tensor:
    """bilinear(Tensor input1, Tensor input2, Tensor weight, Tensor? bias=None) -> Tensor
    """
    return _op.bilinear(input1, input2, weight, bias)

@_b.checked(_op.convolution)
def convolution(input: Tensor, weight: Tensor, bias: Tensor | None, stride: int | Sequence[int], padding: int | Sequence[int], dilation: int | Sequence[int], transposed: bool, output_padding: int | Sequence[int], groups: int) -> Tensor:
    """convolution(Tensor input, Tensor weight, Tensor? bias, int[] stride, int[] padding, int[] dilation, bool transposed, int[] output_padding, int groups) -> Tensor
    """
    stride = _b.int_list(stride, 0, 'stride')
    padding = _b.int_list(padding, 0, 'padding')
    dilation = _b.int_list(dilation, 0, 'dilation')
    if transposed.__class__ is not bool: transposed = _b.bool_arg(transposed, 'transposed', 'convolution')
    output_padding = _b.int_list(output_padding, 0, 'output_padding')
    if groups.__class__ is not int or not -9223372036854775808 <= groups <= 9223372036854775807: groups = _b.int_arg(groups, 'groups', 'convolution')
    return _op.convolution(input, weight, bias, stride, padding, dilation, transposed, output_padding, groups)

@_b.checked(_op.convolution_backward)
def convolution_backward(grad_output: Tensor, input: Tensor, weight: Tensor, stride: int | Sequence[int], padding: int | Sequence[int], dilation: int | Sequence[int], transposed: bool, output_padding: int | Sequence[int], groups: int, output_mask: int | Sequence[bool]) -> tuple[Tensor, Tensor, Tensor]:
    """convolution_backward(Tensor grad_output, Tensor input, Tensor weight, int[] stride, int[] padding, int[] dilation, bool transposed, int[] output_padding, int groups, bool[3] output_mask) -> (Tensor, Tensor, Tensor)
    """
    stride = _b.int_list(stride, 0, 'stride')
    padding = _b.int_list(padding, 0, 'padding')
    dilation = _b.int_list(dilation, 0, 'dilation')
    if transposed.__class__ is not bool: transposed = _b.bool_arg(transposed, 'transposed', 'convolution_backward')
    output_padding = _b.int_list(output_padding, 0, 'output_padding')
    if groups.__class__ is not int or not -9223372036854775808 <= groups <= 9223372036854775807: groups = _b.int_arg(groups, 'groups', 'convolution_backward')
    return _op.convolution_backward(grad_output, input, weight, stride, padding, dilation, transposed, output_padding, groups, output_mask)

@_b.checked(_op.conv1d)
def conv1d(input: Tensor, weight: Tensor, bias: Tensor | None = None, stride: int | Sequence[int] = 1, padding: int | Sequence[int] = 0, dilation: int | Sequence[int] = 1, groups: int = 1) -> Tensor:
    """conv1d(Tensor input, Tensor weight, Tensor? bias=None, int[1] stride=1, int[1] padding=0, int[1] dilation=1, int groups=1) -> Tensor
    """
    stride = _b.int_list(stride, 1, 'stride')
    padding = _b.int_list(padding, 1, 'padding')
    dilation = _b.int_list(dilation, 1, 'dilation')
    if groups.__class__ is not int or not -9223372036854775808 <= groups <= 9223372036854775807: groups = _b.int_arg(groups, 'groups', 'conv1d')
    return _op.conv1d(input, weight, bias, stride, padding, dilation, groups)

@_b.checked(_op.conv2d)
def conv2d(input: Tensor, weight: Tensor, bias: Tensor | None = None, stride: int | Sequence[int] = 1, padding: int | Sequence[int] = 0, dilation: int | Sequence[int] = 1, groups: int = 1) -> Tensor:
    """conv2d(Tensor input, Tensor weight, Tensor? bias=None, int[2] stride=1, int[2] padding=0, int[2] dilation=1, int groups=1) -> Tensor
    """
    stride = _b.int_list(stride, 2, 'stride')
    padding = _b.int_list(padding, 2, 'padding')
    dilation = _b.int_list(dilation, 2, 'dilation')
    if groups.__class__ is not int or not -9223372036854775808 <= groups <= 9223372036854775807: groups = _b.int_arg(groups, 'groups', 'conv2d')
    return _op.conv2d(input, weight, bias, stride, padding, dilation, groups)

@_b.checked(_op.conv3d)
def conv3d(input: Tensor, weight: Tensor, bias: Tensor | None = None, stride: int | Sequence[int] = 1, padding: int | Sequence[int] = 0, dilation: int | Sequence[int] = 1, groups: int = 1) -> Tensor:
    """conv3d(Tensor input, Tensor weight, Tensor? bias=None, int[3] stride=1, int[3] padding=0, int[3] dilation=1, int groups=1) -> Tensor
    """
    stride = _b.int_list(stride, 3, 'stride')
    padding = _b.int_list(padding, 3, 'padding')
    dilation = _b.int_list(dilation, 3, 'dilation')
    if groups.__class__ is not int or not -9223372036854775808 <= groups <= 9223372036854775807: groups = _b.int_arg(groups, 'groups', 'conv3d')
    return _op.conv3d(input, weight, bias, stride, padding, dilation, groups)

@_b.checked(_op.conv_transpose1d)
def conv_transpose1d(input: Tensor, weight: Tensor, bias: Tensor | None = None, stride: int | Sequence[int] = 1, padding: int | Sequence[int] = 0, output_padding: int | Sequence[int] = 0, groups: int = 1, dilation: int | Sequence[int] = 1) -> Tensor:
    """conv_transpose1d(Tensor input, Tensor weight, Tensor? bias=None, int[1] stride=1, int[1] padding=0, int[1] output_padding=0, int groups=1, int[1] dilation=1) -> Tensor
    """
    stride = _b.int_list(stride, 1, 'stride')
    padding = _b.int_list(padding, 1, 'padding')
    output_padding = _b.int_list(output_padding, 1, 'output_padding')
    if groups.__class__ is not int or not -9223372036854775808 <= groups <= 9223372036854775807: groups = _b.int_arg(groups, 'groups', 'conv_transpose1d')
    dilation = _b.int_list(dilation, 1, 'dilation')
    return _op.conv_transpose1d(input, weight, bias, stride, padding, output_padding, groups, dilation)

@_b.checked(_op.conv_transpose2d)
def conv_transpose2d(input: Tensor, weight: Tensor, bias: Tensor | None = None, stride: int | Sequence[int] = 1, padding: int | Sequence[int] = 0, output_padding: int | Sequence[int] = 0, groups: int = 1, dilation: int | Sequence[int] = 1) -> Tensor:
    """conv_transpose2d(Tensor input, Tensor weight, Tensor? bias=None, int[2] stride=1, int[2] padding=0, int[2] output_padding=0, int groups=1, int[2] dilation=1) -> Tensor
    """
    stride = _b.int_list(stride, 2, 'stride')
    padding = _b.int_list(padding, 2, 'padding')
    output_padding = _b.int_list(output_padding, 2, 'output_padding')
    if groups.__class__ is not int or not -9223372036854775808 <= groups <= 9223372036854775807: groups = _b.int_arg(groups, 'groups', 'conv_transpose2d')
    dilation = _b.int_list(dilation, 2, 'dilation')
    return _op.conv_transpose2d(input, weight, bias, stride, padding, output_padding, groups, dilation)

@_b.checked(_op.max_pool_with_indices)
def max_pool_with_indices(input: Tensor, kernel_size: int | Sequence[int], stride: int | Sequence[int], padding: int | Sequence[int], dilation: int | Sequence[int], ceil_mode: bool) -> tuple[Tensor, Tensor]:
    """max_pool_with_indices(Tensor self, int[] kernel_size, int[] stride, int[] padding, int[] dilation, bool ceil_mode) -> (Tensor, Tensor)
    """
    kernel_size = _b.int_list(kernel_size, 0, 'kernel_size')
    stride = _b.int_list(stride, 0, 'stride')
    padding = _b.int_list(padding, 0, 'padding')
    dilation = _b.int_list(dilation, 0, 'dilation')
    if ceil_mode.__class__ is not bool: ceil_mode = _b.bool_arg(ceil_mode, 'ceil_mode', 'max_pool_with_indices')
    return _op.max_pool_with_indices(input, kernel_size, stride, padding, dilation, ceil_mode)

@_b.checked(_op.max_pool_backward)
def max_pool_backward(grad_output: Tensor, input: Tensor, indices: Tensor) -> Tensor:
    """max_pool_backward(Tensor grad_output, Tensor self, Tensor indices) -> Tensor
    """
    return _op.max_pool_backward(grad_output, input, indices)

@_b.checked(_op.max_pool1d)
def max_pool1d(input: Tensor, kernel_size: int | Sequence[int], stride: int | Sequence[int] = [], padding: int | Sequence[int] = 0, dilation: int | Sequence[int] = 1, ceil_mode: bool = False) -> Tensor:
    """max_pool1d(Tensor self, int[1] kernel_size, int[1] stride=[], int[1] padding=0, int[1] dilation=1, bool ceil_mode=False) -> Tensor
    """
    kernel_size = _b.int_list(kernel_size, 1, 'kernel_size')
    stride = _b.int_list(stride, 1, 'stride')
    padding = _b.int_list(padding, 1, 'padding')
    dilation = _b.int_list(dilation, 1, 'dilation')
    if ceil_mode.__class__ is not bool: ceil_mode = _b.bool_arg(ceil_mode, 'ceil_mode', 'max_pool1d')
    return _op.max_pool1d(input, kernel_size, stride, padding, dilation, ceil_mode)

@_b.checked(_op.max_pool2d)
def max_pool2d(input: Tensor, kernel_size: int | Sequence[int], stride: int | Sequence[int] = [], padding: int | Sequence[int] = 0, dilation: int | Sequence[int] = 1, ceil_mode: bool = False) -> Tensor:
    """max_pool2d(Tensor self, int[2] kernel_size, int[2] stride=[], int[2] padding=0, int[2] dilation=1, bool ceil_mode=False) -> Tensor
    """
    kernel_size = _b.int_list(kernel_size, 2, 'kernel_size')
    stride = _b.int_list(stride, 2, 'stride')
    padding = _b.int_list(padding, 2, 'padding')
    dilation = _b.int_list(dilation, 2, 'dilation')
    if ceil_mode.__class__ is not bool: ceil_mode = _b.bool_arg(ceil_mode, 'ceil_mode', 'max_pool2d')
    return _op.max_pool2d(input, kernel_size, stride, padding, dilation, ceil_mode)

@_b.checked(_op.max_pool2d_with_indices)
def max_pool2d_with_indices(input: Tensor, kernel_size: int | Sequence[int], stride: int | Sequence[int] = [], padding: int | Sequence[int] = 0, dilation: int | Sequence[int] = 1, ceil_mode: bool = False) -> tuple[Tensor, Tensor]:
    """max_pool2d_with_indices(Tensor self, int[2] kernel_size, int[2] stride=[], int[2] padding=0, int[2] dilation=1, bool ceil_mode=False) -> (Tensor, Tensor)
    """
    kernel_size = _b.int_list(kernel_size, 2, 'kernel_size')
    stride = _b.int_list(stride, 2, 'stride')
    padding = _b.int_list(padding, 2, 'padding')
    dilation = _b.int_list(dilation, 2, 'dilation')
    if ceil_mode.__class__ is not bool: ceil_mode = _b.bool_arg(ceil_mode, 'ceil_mode', 'max_pool2d_with_indices')
    return _op.max_pool2d_with_indices(input, kernel_size, stride, padding, dilation, ceil_mode)

@_b.checked(_op.avg_pool)
def avg_pool(input: Tensor, kernel_size: int | Sequence[int], stride: int | Sequence[int], padding: int | Sequence[int], ceil_mode: bool, count_include_pad: bool, divisor_override: int | None) -> Tensor:
    """avg_pool(Tensor self, int[] kernel_size, int[] stride, int[] padding, bool ceil_mode, bool count_include_pad, int? divisor_override) -> Tensor
    """
    kernel_size = _b.int_list(kernel_size, 0, 'kernel_size')
    stride = _b.int_list(stride, 0, 'stride')
    padding = _b.int_list(padding, 0, 'padding')
    if ceil_mode.__class__ is not bool: ceil_mode = _b.bool_arg(ceil_mode, 'ceil_mode', 'avg_pool')
    if count_include_pad.__class__ is not bool: count_include_pad = _b.bool_arg(count_include_pad, 'count_include_pad', 'avg_pool')
    if divisor_override is not None and (divisor_override.__class__ is not int or not -9223372036854775808 <= divisor_override <= 9223372036854775807): divisor_override = _b.int_arg(divisor_override, 'divisor_override', 'avg_pool')
    return _op.avg_pool(input, kernel_size, stride, padding, ceil_mode, count_include_pad, divisor_override)

@_b.checked(_op.avg_pool_backward)
def avg_pool_backward(grad_output: Tensor, input: Tensor, kernel_size: int | Sequence[int], stride: int | Sequence[int], padding: int | Sequence[int], ceil_mode: bool, count_include_pad: bool, divisor_override: int | None) -> Tensor:
    """avg_pool_backward(Tensor grad_output, Tensor self, int[] kernel_size, int[] stride, int[] padding, bool ceil_mode, bool count_include_pad, int? divisor_override) -> Tensor
    """
    kernel_size = _b.int_list(kernel_size, 0, 'kernel_size')
    stride = _b.int_list(stride, 0, 'stride')
    padding = _b.int_list(padding, 0, 'padding')
    if ceil_mode.__class__ is not bool: ceil_mode = _b.bool_arg(ceil_mode, 'ceil_mode', 'avg_pool_backward')
    if count_include_pad.__class__ is not bool: count_include_pad = _b.bool_arg(count_include_pad, 'count_include_pad', 'avg_pool_backward')
    if divisor_override is not None and (divisor_override.__class__ is not int or not -9223372036854775808 <= divisor_override <= 9223372036854775807): divisor_override = _b.int_arg(divisor_override, 'divisor_override', 'avg_pool_backward')
    return _op.avg_pool_backward(grad_output, input, kernel_size, stride, padding, ceil_mode, count_include_pad, divisor_override)

@_b.checked(_op.avg_pool1d)
def avg_pool1d(input: Tensor, kernel_size: int | Sequence[int], stride: int | Sequence[int] = [], padding: int | Sequence[int] = 0, ceil_mode: bool = False, count_include_pad: bool = True) -> Tensor:
    """avg_pool1d(Tensor self, int[1] kernel_size, int[1] stride=[], int[1] padding=0, bool ceil_mode=False, bool count_include_pad=True) -> Tensor
    """
    kernel_size = _b.int_list(kernel_size, 1, 'kernel_size')
    stride = _b.int_list(stride, 1, 'stride')
    padding = _b.int_list(padding, 1, 'padding')
    if ceil_mode.__class__ is not bool: ceil_mode = _b.bool_arg(ceil_mode, 'ceil_mode', 'avg_pool1d')
    if count_include_pad.__class__ is not bool: count_include_pad = _b.bool_arg(count_include_pad, 'count_include_pad', 'avg_pool1d')
    return _op.avg_pool1d(input, kernel_size, stride, padding, ceil_mode, count_include_pad)

@_b.checked(_op.avg_pool2d)
def avg_pool2d(input: Tensor, kernel_size: int | Sequence[int], stride: int | Sequence[int] = [], padding: int | Sequence[int] = 0, ceil_mode: bool = False, count_include_pad: bool = True, divisor_override: int | None = None) -> Tensor:
    """avg_pool2d(Tensor self, int[2] kernel_size, int[2] stride=[], int[2] padding=0, bool ceil_mode=False, bool count_include_pad=True, int? divisor_override=None) -> Tensor
    """
    kernel_size = _b.int_list(kernel_size, 2, 'kernel_size')
    stride = _b.int_list(stride, 2, 'stride')
    padding = _b.int_list(padding, 2, 'padding')
    if ceil_mode.__class__ is not bool: ceil_mode = _b.bool_arg(ceil_mode, 'ceil_mode', 'avg_pool2d')
    if count_include_pad.__class__ is not bool: count_include_pad = _b.bool_arg(count_include_pad, 'count_include_pad', 'avg_pool2d')
    if divisor_override is not None and (divisor_override.__class__ is not int or not -9223372036854775808 <= divisor_override <= 9223372036854775807): divisor_override = _b.int_arg(divisor_override, 'divisor_override', 'avg_pool2d')
    return _op.avg_pool2d(input, kernel_size, stride, padding, ceil_mode, count_include_pad, divisor_override)

@_b.checked(_op.adaptive_avg_pool)
def adaptive_avg_pool(input: Tensor, output_size: int | Sequence[int]) -> Tensor:
    """adaptive_avg_pool(Tensor self, int[] output_size) -> Tensor
    """
    output_size = _b.int_list(output_size, 0, 'output_size')
    return _op.adaptive_avg_pool(input, output_size)

@_b.checked(_op.adaptive_avg_pool_backward)
def adaptive_avg_pool_backward(grad_output: Tensor, input: Tensor) -> Tensor:
    """adaptive_avg_pool_backward(Tensor grad_output, Tensor self) -> Tensor
    """
    return _op.adaptive_avg_pool_backward(grad_output, input)

@_b.checked(_op.adaptive_max_pool)
def adaptive_max_pool(input: Tensor, output_size: int | Sequence[int]) -> tuple[Tensor, Tensor]:
    """adaptive_max_pool(Tensor self, int[] output_size) -> (Tensor, Tensor)
    """
    output_size = _b.int_list(output_size, 0, 'output_size')
    return _op.adaptive_max_pool(input, output_size)

@_b.checked(_op.adaptive_avg_pool1d)
def adaptive_avg_pool1d(input: Tensor, output_size: int | Sequence[int]) -> Tensor:
    """adaptive_avg_pool1d(Tensor self, int[1] output_size) -> Tensor
    """
    output_size = _b.int_list(output_size, 1, 'output_size')
    return _op.adaptive_avg_pool1d(input, output_size)

@_b.checked(_op.adaptive_avg_pool2d)
def adaptive_avg_pool2d(input: Tensor, output_size: int | Sequence[int]) -> Tensor:
    """adaptive_avg_pool2d(Tensor self, int[2] output_size) -> Tensor
    """
    output_size = _b.int_list(output_size, 2, 'output_size')
    return _op.adaptive_avg_pool2d(input, output_size)

@_b.checked(_op.adaptive_max_pool1d)
def adaptive_max_pool1d(input: Tensor, output_size: int | Sequence[int]) -> tuple[Tensor, Tensor]:
    """adaptive_max_pool1d(Tensor self, int[1] output_size) -> (Tensor, Tensor)
    """
    output_size = _b.int_list(output_size, 1, 'output_size')
    return _op.adaptive_max_pool1d(input, output_size)

@_b.checked(_op.adaptive_max_pool2d)
def adaptive_max_pool2d(input: Tensor, output_size: int | Sequence[int]) -> Tensor:
    """adaptive_max_pool2d(Tensor self, int[2] output_size) -> Tensor
    """
    output_size = _b.int_list(output_size, 2, 'output_size')
    return _op.adaptive_max_pool2d(input, output_size)

@_b.checked(_op.embedding)
def embedding(weight: Tensor, indices: Tensor, padding_idx: int = -1, scale_grad_by_freq: bool = False, sparse: bool = False) -> Tensor:
    """embedding(Tensor weight, Tensor indices, int padding_idx=-1, bool scale_grad_by_freq=False, bool sparse=False) -> Tensor
    """
    if padding_idx.__class__ is not int or not -9223372036854775808 <= padding_idx <= 9223372036854775807: padding_idx = _b.int_arg(padding_idx, 'padding_idx', 'embedding')
    if scale_grad_by_freq.__class__ is not bool: scale_grad_by_freq = _b.bool_arg(scale_grad_by_freq, 'scale_grad_by_freq', 'embedding')
    if sparse.__class__ is not bool: sparse = _b.bool_arg(sparse, 'sparse', 'embedding')
    return _op.embedding(weight, indices, padding_idx, scale_grad_by_freq, sparse)

@_b.checked(_op.embedding_backward)
def embedding_backward(grad_output: Tensor, indices: Tensor, num_weights: int, padding_idx: int, scale_grad_by_freq: bool) -> Tensor:
    """embedding_backward(Tensor grad_output, Tensor indices, int num_weights, int padding_idx, bool scale_grad_by_freq) -> Tensor
    """
    if num_weights.__class__ is not int or not -9223372036854775808 <= num_weights <= 9223372036854775807: num_weights = _b.int_arg(num_weights, 'num_weights', 'embedding_backward')
    if padding_idx.__class__ is not int or not -9223372036854775808 <= padding_idx <= 9223372036854775807: padding_idx = _b.int_arg(padding_idx, 'padding_idx', 'embedding_backward')
    if scale_grad_by_freq.__class__ is not bool: scale_grad_by_freq = _b.bool_arg(scale_grad_by_freq, 'scale_grad_by_freq', 'embedding_backward')
    return _op.embedding_backward(grad_output, indices, num_weights, padding_idx, scale_grad_by_freq)

@_b.checked(_op.dropout)
def dropout(input: Tensor, p: float, train: bool) -> Tensor:
    """dropout(Tensor input, float p, bool train) -> Tensor
    """
    if p.__class__ is not float: p = _b.float_arg(p, 'p', 'dropout')
    if train.__class__ is not bool: train = _b.bool_arg(train, 'train', 'dropout')
    return _op.dropout(input, p, train)

@_b.checked(_op.native_batch_norm)
def native_batch_norm(input: Tensor, weight: Tensor | None, bias: Tensor | None, running_mean: Tensor | None, running_var: Tensor | None, training: bool, momentum: float, eps: float) -> tuple[Tensor, Tensor, Tensor]:
    """native_batch_norm(Tensor input, Tensor? weight, Tensor? bias, Tensor(a!)? running_mean, Tensor(b!)? running_var, bool training, float momentum, float eps) -> (Tensor, Tensor, Tensor)
    """
    if training.__class__ is not bool: training = _b.bool_arg(training, 'training', 'native_batch_norm')
    if momentum.__class__ is not float: momentum = _b.float_arg(momentum, 'momentum', 'native_batch_norm')
    if eps.__class__ is not float: eps = _b.float_arg(eps, 'eps', 'native_batch_norm')
    return _op.native_batch_norm(input, weight, bias, running_mean, running_var, training, momentum, eps)

@_b.checked(_op.native_batch_norm_backward)
def native_batch_norm_backward(grad_out: Tensor, input: Tensor, weight: Tensor | None, running_mean: Tensor | None, running_var: Tensor | None, save_mean: Tensor | None, save_invstd: Tensor | None, train: bool, eps: float, output_mask: int | Sequence[bool]) -> tuple[Tensor, Tensor, Tensor]:
    """native_batch_norm_backward(Tensor grad_out, Tensor input, Tensor? weight, Tensor? running_mean, Tensor? running_var, Tensor? save_mean, Tensor? save_invstd, bool train, float eps, bool[3] output_mask) -> (Tensor, Tensor, Tensor)
    """
    if train.__class__ is not bool: train = _b.bool_arg(train, 'train', 'native_batch_norm_backward')
    if eps.__class__ is not float: eps = _b.float_arg(eps, 'eps', 'native_batch_norm_backward')
    return _op.native_batch_norm_backward(grad_out, input, weight, running_mean, running_var, save_mean, save_invstd, train, eps, output_mask)

@_b.checked(_op.batch_norm)
def batch_norm(input: Tensor, weight: Tensor | None, bias: Tensor | None, running_mean: Tensor | None, running_var: Tensor | None, training: bool, momentum: float, eps: float, cudnn_enabled: bool) -> Tensor:
    """batch_norm(Tensor input, Tensor? weight, Tensor? bias, Tensor? running_mean, Tensor? running_var, bool training, float momentum, float eps, bool cudnn_enabled) -> Tensor
    """
    if training.__class__ is not bool: training = _b.bool_arg(training, 'training', 'batch_norm')
    if momentum.__class__ is not float: momentum = _b.float_arg(momentum, 'momentum', 'batch_norm')
    if eps.__class__ is not float: eps = _b.float_arg(eps, 'eps', 'batch_norm')
    if cudnn_enabled.__class__ is not bool: cudnn_enabled = _b.bool_arg(cudnn_enabled, 'cudnn_enabled', 'batch_norm')
    return _op.batch_norm(input, weight, bias, running_mean, running_var, training, momentum, eps, cudnn_enabled)

@_b.checked(_op.native_layer_norm)
def native_layer_norm(input: Tensor, normalized_shape: int | Sequence[int], weight: Tensor | None, bias: Tensor | None, eps: float) -> tuple[Tensor, Tensor, Tensor]:
    """native_layer_norm(Tensor input, int[] normalized_shape, Tensor? weight, Tensor? bias, float eps) -> (Tensor, Tensor, Tensor)
    """
    normalized_shape = _b.int_list(normalized_shape, 0, 'normalized_shape')
    if eps.__class__ is not float: eps = _b.float_arg(eps, 'eps', 'native_layer_norm')
    return _op.native_layer_norm(input, normalized_shape, weight, bias, eps)

@_b.checked(_op.native_layer_norm_backward)
def native_layer_norm_backward(grad_out: Tensor, input: Tensor, normalized_shape: int | Sequence[int], mean: Tensor, rstd: Tensor, weight: Tensor | None, bias: Tensor | None, output_mask: int | Sequence[bool], eps: float = 1e-05) -> tuple[Tensor, Tensor, Tensor]:
    """native_layer_norm_backward(Tensor grad_out, Tensor input, int[] normalized_shape, Tensor mean, Tensor rstd, Tensor? weight, Tensor? bias, bool[3] output_mask, float eps=1e-05) -> (Tensor, Tensor, Tensor)
    """
    normalized_shape = _b.int_list(normalized_shape, 0, 'normalized_shape')
    if eps.__class__ is not float: eps = _b.float_arg(eps, 'eps', 'native_layer_norm_backward')
    return _op.native_layer_norm_backward(grad_out, input, normalized_shape, mean, rstd, weight, bias, output_mask, eps)

@_b.checked(_op.layer_norm)
def layer_norm(input: Tensor, normalized_shape: int | Sequence[int], weight: Tensor | None = None, bias: Tensor | None = None, eps: float = 1e-05) -> Tensor:
    """layer_norm(Tensor input, int[] normalized_shape, Tensor? weight=None, Tensor? bias=None, float eps=1e-05) -> Tensor
    """
    normalized_shape = _b.int_list(normalized_shape, 0, 'normalized_shape')
    if eps.__class__ is not float: eps = _b.float_arg(eps, 'eps', 'layer_norm')
    return _op.layer_norm(input, normalized_shape, weight, bias, eps)

@_b.checked(_op.native_group_norm)
def native_group_norm(input: Tensor, weight: Tensor | None, bias: Tensor | None, N: int, C: int, HxW: int, group: int, eps: float) -> tuple[Tensor, Tensor, Tensor]:
    """native_group_norm(Tensor input, Tensor? weight, Tensor? bias, int N, int C, int HxW, int group, float eps) -> (Tensor, Tensor, Tensor)
    """
    if N.__class__ is not int or not -9223372036854775808 <= N <= 9223372036854775807: N = _b.int_arg(N, 'N', 'native_group_norm')
    if C.__class__ is not int or not -9223372036854775808 <= C <= 9223372036854775807: C = _b.int_arg(C, 'C', 'native_group_norm')
    if HxW.__class__ is not int or not -9223372036854775808 <= HxW <= 9223372036854775807: HxW = _b.int_arg(HxW, 'HxW', 'native_group_norm')
    if group.__class__ is not int or not -9223372036854775808 <= group <= 9223372036854775807: group = _b.int_arg(group, 'group', 'native_group_norm')
    if eps.__class__ is not float: eps = _b.float_arg(eps, 'eps', 'native_group_norm')
    return _op.native_group_norm(input, weight, bias, N, C, HxW, group, eps)

@_b.checked(_op.native_group_norm_backward)
def native_group_norm_backward(grad_out: Tensor, input: Tensor, mean: Tensor, rstd: Tensor, weight: Tensor | None, N: int, C: int, HxW: int, group: int, output_mask: int | Sequence[bool], eps: float = 1e-05) -> tuple[Tensor, Tensor, Tensor]:
    """native_group_norm_backward(Tensor grad_out, Tensor input, Tensor mean, Tensor rstd, Tensor? weight, int N, int C, int HxW, int group, bool[3] output_mask, float eps=1e-05) -> (Tensor, Tensor, Tensor)
    """
    if N.__class__ is not int or not -9223372036854775808 <= N <= 9223372036854775807: N = _b.int_arg(N, 'N', 'native_group_norm_backward')
    if C.__class__ is not int or not -9223372036854775808 <= C <= 9223372036854775807: C = _b.int_arg(C, 'C', 'native_group_norm_backward')
    if HxW.__class__ is not int or not -9223372036854775808 <= HxW <= 9223372036854775807: HxW = _b.int_arg(HxW, 'HxW', 'native_group_norm_backward')
    if group.__class__ is not int or not -9223372036854775808 <= group <= 9223372036854775807: group = _b.int_arg(group, 'group', 'native_group_norm_backward')
    if eps.__class__ is not float: eps = _b.float_arg(eps, 'eps', 'native_group_norm_backward')
    return _op.native_group_norm_backward(grad_out, input, mean, rstd, weight, N, C, HxW, group, output_mask, eps)

@_b.checked(_op.group_norm)
def group_norm(input: Tensor, num_groups: int, weight: Tensor | None = None, bias: Tensor | None = None, eps: float = 1e-05) -> Tensor:
    """group_norm(Tensor input, int num_groups, Tensor? weight=None, Tensor? bias=None, float eps=1e-05) -> Tensor
    """
    if num_groups.__class__ is not int or not -9223372036854775808 <= num_groups <= 9223372036854775807: num_groups = _b.int_arg(num_groups, 'num_groups', 'group_norm')
    if eps.__class__ is not float: eps = _b.float_arg(eps, 'eps', 'group_norm')
    return _op.group_norm(input, num_groups, weight, bias, eps)

@_b.checked(_op.rms_norm)
def rms_norm(input: Tensor, normalized_shape: int | Sequence[int], weight: Tensor | None = None, eps: float | None = None) -> Tensor:
    """rms_norm(Tensor input, int[] normalized_shape, Tensor? weight=None, float? eps=None) -> Tensor
    """
    normalized_shape = _b.int_list(normalized_shape, 0, 'normalized_shape')
    if eps is not None and eps.__class__ is not float: eps = _b.float_arg(eps, 'eps', 'rms_norm')
    return _op.rms_norm(input, normalized_shape, weight, eps)

@_b.checked(_op.cross_entropy)
def cross_entropy(input: Tensor, target: Tensor, weight: Tensor | None = None, reduction: str = 'mean', ignore_index: int = -100, label_smoothing: float = 0.0) -> Tensor:
    """cross_entropy(Tensor self, Tensor target, Tensor? weight=None, str reduction="mean", int ignore_index=-100, float label_smoothing=0.0) -> Tensor
    """
    if input.__class__ not in _b.TENSOR_TYPES: _b.tensor_arg(input, 'input', 1, 'cross_entropy')
    if target.__class__ not in _b.TENSOR_TYPES: _b.tensor_arg(target, 'target', 2, 'cross_entropy')
    if reduction.__class__ is not str: reduction = _b.str_arg(reduction, 'reduction', 'cross_entropy')
    if ignore_index.__class__ is not int or not -9223372036854775808 <= ignore_index <= 9223372036854775807: ignore_index = _b.int_arg(ignore_index, 'ignore_index', 'cross_entropy')
    if label_smoothing.__class__ is not float: label_smoothing = _b.float_arg(label_smoothing, 'label_smoothing', 'cross_entropy')
    return _op.cross_entropy(input, target, weight, reduction, ignore_index, label_smoothing)

@_b.checked(_op.nll_loss)
def nll_loss(input: Tensor, target: Tensor, weight: Tensor | None = None, reduction: str = 'mean', ignore_index: int = -100) -> Tensor:
    """nll_loss(Tensor self, Tensor target, Tensor? weight=None, str reduction="mean", int ignore_index=-100) -> Tensor
    """
    if input.__class__ not in _b.TENSOR_TYPES: _b.tensor_arg(input, 'input', 1, 'nll_loss')
    if target.__class__ not in _b.TENSOR_TYPES: _b.tensor_arg(target, 'target', 2, 'nll_loss')
    if reduction.__class__ is not str: reduction = _b.str_arg(reduction, 'reduction', 'nll_loss')
    if ignore_index.__class__ is not int or not -9223372036854775808 <= ignore_index <= 9223372036854775807: ignore_index = _b.int_arg(ignore_index, 'ignore_index', 'nll_loss')
    return _op.nll_loss(input, target, weight, reduction, ignore_index)

@_b.checked(_op.mse_loss)
def mse_loss(input: Tensor, target: Tensor, reduction: str = 'mean') -> Tensor:
    """mse_loss(Tensor self, Tensor target, str reduction="mean") -> Tensor
    """
    if input.__class__ not in _b.TENSOR_TYPES: _b.tensor_arg(input, 'input', 1, 'mse_loss')
    if target.__class__ not in _b.TENSOR_TYPES: _b.tensor_arg(target, 'target', 2, 'mse_loss')
    if reduction.__class__ is not str: reduction = _b.str_arg(reduction, 'reduction', 'mse_loss')
    return _op.mse_loss(input, target, reduction)

@_b.checked(_op.l1_loss)
def l1_loss(input: Tensor, target: Tensor, reduction: str = 'mean') -> Tensor:
    """l1_loss(Tensor self, Tensor target, str reduction="mean") -> Tensor
    """
    if input.__class__ not in _b.TENSOR_TYPES: _b.tensor_arg(input, 'input', 1, 'l1_loss')
    if target.__class__ not in _b.TENSOR_TYPES: _b.tensor_arg(target, 'target', 2, 'l1_loss')
    if reduction.__class__ is not str: reduction = _b.str_arg(reduction, 'reduction', 'l1_loss')
    return _op.l1_loss(input, target, reduction)

@_b.checked(_op.smooth_l1_loss)
def smooth_l1_loss(input: Tensor, target: Tensor, reduction: str = 'mean', beta: float = 1.0) -> Tensor:
    """smooth_l1_loss(Tensor self, Tensor target, str reduction="mean", float beta=1.0) -> Tensor
    """
    if input.__class__ not in _b.TENSOR_TYPES: _b.tensor_arg(input, 'input', 1, 'smooth_l1_loss')
    if target.__class__ not in _b.TENSOR_TYPES: _b.tensor_arg(target, 'target', 2, 'smooth_l1_loss')
    if reduction.__class__ is not str: reduction = _b.str_arg(reduction, 'reduction', 'smooth_l1_loss')
    if beta.__class__ is not float: beta = _b.float_arg(beta, 'beta', 'smooth_l1_loss')
    return _op.smooth_l1_loss(input, target, reduction, beta)

@_b.checked(_op.huber_loss)
def huber_loss(input: Tensor, target: Tensor, reduction: str = 'mean', delta: float = 1.0) -> Tensor:
    """huber_loss(Tensor self, Tensor target, str reduction="mean", float delta=1.0) -> Tensor
    """
    if input.__class__ not in _b.TENSOR_TYPES: _b.tensor_arg(input, 'input', 1, 'huber_loss')
    if target.__class__ not in _b.TENSOR_TYPES: _b.tensor_arg(target, 'target', 2, 'huber_loss')
    if reduction.__class__ is not str: reduction = _b.str_arg(reduction, 'reduction', 'huber_loss')
    if delta.__class__ is not float: delta = _b.float_arg(delta, 'delta', 'huber_loss')
    return _op.huber_loss(input, target, reduction, delta)

@_b.checked(_op.binary_cross_entropy)
def binary_cross_entropy(input: Tensor, target: Tensor, weight: Tensor | None = None, reduction: str = 'mean') -> Tensor:
    """binary_cross_entropy(Tensor self, Tensor target, Tensor? weight=None, str reduction="mean") -> Tensor
    """
    if input.__class__ not in _b.TENSOR_TYPES: _b.tensor_arg(input, 'input', 1, 'binary_cross_entropy')
    if target.__class__ not in _b.TENSOR_TYPES: _b.tensor_arg(target, 'target', 2, 'binary_cross_entropy')
    if reduction.__class__ is not str: reduction = _b.str_arg(reduction, 'reduction', 'binary_cross_entropy')
    return _op.binary_cross_entropy(input, target, weight, reduction)

@_b.checked(_op.binary_cross_entropy_with_logits)
def binary_cross_entropy_with_logits(input: Tensor, target: Tensor, weight: Tensor | None = None, pos_weight: Tensor | None = None, reduction: str = 'mean') -> Tensor:
    """binary_cross_entropy_with_logits(Tensor self, Tensor target, Tensor? weight=None, Tensor? pos_weight=None, str reduction="mean") -> Tensor
    """
    if input.__class__ not in _b.TENSOR_TYPES: _b.tensor_arg(input, 'input', 1, 'binary_cross_entropy_with_logits')
    if target.__class__ not in _b.TENSOR_TYPES: _b.tensor_arg(target, 'target', 2, 'binary_cross_entropy_with_logits')
    if reduction.__class__ is not str: reduction = _b.str_arg(reduction, 'reduction', 'binary_cross_entropy_with_logits')
    return _op.binary_cross_entropy_with_logits(input, target, weight, pos_weight, reduction)

@_b.checked(_op.kl_div)
def kl_div(input: Tensor, target: Tensor, reduction: str = 'mean', *, log_target: bool = False) -> Tensor:
    """kl_div(Tensor self, Tensor target, str reduction="mean", *, bool log_target=False) -> Tensor
    """
    if input.__class__ not in _b.TENSOR_TYPES: _b.tensor_arg(input, 'input', 1, 'kl_div')
    if target.__class__ not in _b.TENSOR_TYPES: _b.tensor_arg(target, 'target', 2, 'kl_div')
    if reduction.__class__ is not str: reduction = _b.str_arg(reduction, 'reduction', 'kl_div')
    if log_target.__class__ is not bool: log_target = _b.bool_arg(log_target, 'log_target', 'kl_div')
    return _op.kl_div(input, target, reduction, log_target)

@_b.checked(_op.cosine_similarity)
def cosine_similarity(x1: Tensor, x2: Tensor, dim: int = 1, eps: float = 1e-08) -> Tensor:
    """cosine_similarity(Tensor x1, Tensor x2, int dim=1, float eps=1e-08) -> Tensor
    """
    if x1.__class__ not in _b.TENSOR_TYPES: _b.tensor_arg(x1, 'x1', 1, 'cosine_similarity')
    if x2.__class__ not in _b.TENSOR_TYPES: _b.tensor_arg(x2, 'x2', 2, 'cosine_similarity')
    if dim.__class__ is not int or not -9223372036854775808 <= dim <= 9223372036854775807: dim = _b.int_arg(dim, 'dim', 'cosine_similarity')
    if eps.__class__ is not float: eps = _b.float_arg(eps, 'eps', 'cosine_similarity')
    return _op.cosine_similarity(x1, x2, dim, eps)

@_b.checked(_op.pairwise_distance)
def pairwise_distance(x1: Tensor, x2: Tensor, p: float = 2, eps: float = 1e-06, keepdim: bool = False) -> Tensor:
    """pairwise_distance(Tensor x1, Tensor x2, float p=2, float eps=1e-06, bool keepdim=False) -> Tensor
    """
    if x1.__class__ not in _b.TENSOR_TYPES: _b.tensor_arg(x1, 'x1', 1, 'pairwise_distance')
    if x2.__class__ not in _b.TENSOR_TYPES: _b.tensor_arg(x2, 'x2', 2, 'pairwise_distance')
    if p.__class__ is not float: p = _b.float_arg(p, 'p', 'pairwise_distance')
    if eps.__class__ is not float: eps = _b.float_arg(eps, 'eps', 'pairwise_distance')
    if keepdim.__class__ is not bool: keepdim = _b.bool_arg(keepdim, 'keepdim', 'pairwise_distance')
    return _op.pairwise_distance(x1, x2, p, eps, keepdim)

@_b.checked(_op.normalize)
def normalize(input: Tensor, p: float | None = 2, dim: int | None = 1, eps: float = 1e-12) -> Tensor:
    """normalize(Tensor input, float? p=2, int? dim=1, float eps=1e-12) -> Tensor
    """
    if p is not None and p.__class__ is not float: p = _b.float_arg(p, 'p', 'normalize')
    if dim is not None and (dim.__class__ is not int or not -9223372036854775808 <= dim <= 9223372036854775807): dim = _b.int_arg(dim, 'dim', 'normalize')
    if eps.__class__ is not float: eps = _b.float_arg(eps, 'eps', 'normalize')
    return _op.normalize(input, p, dim, eps)

@_b.checked(_op.scaled_dot_product_attention)
def scaled_dot_product_attention(query: Tensor, key: Tensor, value: Tensor, attn_mask: Tensor | None = None, dropout_p: float = 0.0, is_causal: bool = False, *, scale: float | None = None, enable_gqa: bool = False) -> Tensor:
    """scaled_dot_product_attention(Tensor query, Tensor key, Tensor value, Tensor? attn_mask=None, float dropout_p=0.0, bool is_causal=False, *, float? scale=None, bool enable_gqa=False) -> Tensor
    """
    if dropout_p.__class__ is not float: dropout_p = _b.float_arg(dropout_p, 'dropout_p', 'scaled_dot_product_attention')
    if is_causal.__class__ is not bool: is_causal = _b.bool_arg(is_causal, 'is_causal', 'scaled_dot_product_attention')
    if scale is not None and scale.__class__ is not float: scale = _b.float_arg(scale, 'scale', 'scaled_dot_product_attention')
    if enable_gqa.__class__ is not bool: enable_gqa = _b.bool_arg(enable_gqa, 'enable_gqa', 'scaled_dot_product_attention')
    return _op.scaled_dot_product_attention(query, key, value, attn_mask, dropout_p, is_causal, scale, enable_gqa)

@_b.checked(_op._scaled_dot_product_attention_flash)
def _scaled_dot_product_attention_flash(query: Tensor, key: Tensor, value: Tensor, attn_mask: Tensor | None, dropout_p: float, is_causal: bool, scale: float, enable_gqa: bool) -> tuple[Tensor, Tensor, Tensor]:
    """_scaled_dot_product_attention_flash(Tensor query, Tensor key, Tensor value, Tensor? attn_mask, float dropout_p, bool is_causal, float scale, bool enable_gqa) -> (Tensor, Tensor, Tensor)
    """
    if dropout_p.__class__ is not float: dropout_p = _b.float_arg(dropout_p, 'dropout_p', '_scaled_dot_product_attention_flash')
    if is_causal.__class__ is not bool: is_causal = _b.bool_arg(is_causal, 'is_causal', '_scaled_dot_product_attention_flash')
    if scale.__class__ is not float: scale = _b.float_arg(scale, 'scale', '_scaled_dot_product_attention_flash')
    if enable_gqa.__class__ is not bool: enable_gqa = _b.bool_arg(enable_gqa, 'enable_gqa', '_scaled_dot_product_attention_flash')
    return _op._scaled_dot_product_attention_flash(query, key, value, attn_mask, dropout_p, is_causal, scale, enable_gqa)

@_b.checked(_op._scaled_dot_product_attention_flash_backward)
def _scaled_dot_product_attention_flash_backward(grad_out: Tensor, query: Tensor, key: Tensor, value: Tensor, attn_mask: Tensor | None, out: Tensor, logsumexp: Tensor, rng_seed: Tensor, dropout_p: float, is_causal: bool, scale: float, enable_gqa: bool, output_mask: int | Sequence[bool]) -> tuple[Tensor, Tensor, Tensor, Tensor]:
    """_scaled_dot_product_attention_flash_backward(Tensor grad_out, Tensor query, Tensor key, Tensor value, Tensor? attn_mask, Tensor out, Tensor logsumexp, Tensor rng_seed, float dropout_p, bool is_causal, float scale, bool enable_gqa, bool[4] output_mask) -> (Tensor, Tensor, Tensor, Tensor)
    """
    if dropout_p.__class__ is not float: dropout_p = _b.float_arg(dropout_p, 'dropout_p', '_scaled_dot_product_attention_flash_backward')
    if is_causal.__class__ is not bool: is_causal = _b.bool_arg(is_causal, 'is_causal', '_scaled_dot_product_attention_flash_backward')
    if scale.__class__ is not float: scale = _b.float_arg(scale, 'scale', '_scaled_dot_product_attention_flash_backward')
    if enable_gqa.__class__ is not bool: enable_gqa = _b.bool_arg(enable_gqa, 'enable_gqa', '_scaled_dot_product_attention_flash_backward')
    return _op._scaled_dot_product_attention_flash_backward(grad_out, query, key, value, attn_mask, out, logsumexp, rng_seed, dropout_p, is_causal, scale, enable_gqa, output_mask)

@_b.checked(_op._rnn_layer)
def _rnn_layer(input_gates: Tensor, hx: Tensor, cx: Tensor | None, weight_hh: Tensor, bias_hh: Tensor | None, weight_hr: Tensor | None, mode: str, batch_sizes: int | Sequence[int] | None = None, reverse: bool = False) -> tuple[Tensor, Tensor, Tensor, Tensor]:
    """_rnn_layer(Tensor input_gates, Tensor hx, Tensor? cx, Tensor weight_hh, Tensor? bias_hh, Tensor? weight_hr, str mode, int[]? batch_sizes=None, bool reverse=False) -> (Tensor output, Tensor hy, Tensor cy, Tensor workspace)
    """
    if mode.__class__ is not str: mode = _b.str_arg(mode, 'mode', '_rnn_layer')
    batch_sizes = _b.int_list(batch_sizes, 0, 'batch_sizes')
    if reverse.__class__ is not bool: reverse = _b.bool_arg(reverse, 'reverse', '_rnn_layer')
    return _b.named_result('_rnn_layer', ('output', 'hy', 'cy', 'workspace'), _op._rnn_layer(input_gates, hx, cx, weight_hh, bias_hh, weight_hr, mode, batch_sizes, reverse))

@_b.checked(_op._rnn_layer_backward)
def _rnn_layer_backward(grad_output: Tensor | None, grad_hy: Tensor | None, grad_cy: Tensor | None, weight_hh: Tensor, weight_hr: Tensor | None, workspace: Tensor, mode: str, batch_sizes: int | Sequence[int] | None, reverse: bool, output_mask: int | Sequence[bool]) -> tuple[Tensor, Tensor, Tensor, Tensor, Tensor, Tensor]:
    """_rnn_layer_backward(Tensor? grad_output, Tensor? grad_hy, Tensor? grad_cy, Tensor weight_hh, Tensor? weight_hr, Tensor workspace, str mode, int[]? batch_sizes, bool reverse, bool[6] output_mask) -> (Tensor, Tensor, Tensor, Tensor, Tensor, Tensor)
    """
    if mode.__class__ is not str: mode = _b.str_arg(mode, 'mode', '_rnn_layer_backward')
    batch_sizes = _b.int_list(batch_sizes, 0, 'batch_sizes')
    if reverse.__class__ is not bool: reverse = _b.bool_arg(reverse, 'reverse', '_rnn_layer_backward')
    return _op._rnn_layer_backward(grad_output, grad_hy, grad_cy, weight_hh, weight_hr, workspace, mode, batch_sizes, reverse, output_mask)

@_b.checked(_op._nll_loss)
def _nll_loss(input: Tensor, target: Tensor, weight: Tensor | None, reduction: str, ignore_index: int) -> Tensor:
    """_nll_loss(Tensor self, Tensor target, Tensor? weight, str reduction, int ignore_index) -> Tensor
    """
    if reduction.__class__ is not str: reduction = _b.str_arg(reduction, 'reduction', '_nll_loss')
    if ignore_index.__class__ is not int or not -9223372036854775808 <= ignore_index <= 9223372036854775807: ignore_index = _b.int_arg(ignore_index, 'ignore_index', '_nll_loss')
    return _op._nll_loss(input, target, weight, reduction, ignore_index)

@_b.checked(_op._nll_loss_backward)
def _nll_loss_backward(grad_output: Tensor, input: Tensor, target: Tensor, weight: Tensor | None, reduction: str, ignore_index: int) -> Tensor:
    """_nll_loss_backward(Tensor grad_output, Tensor self, Tensor target, Tensor? weight, str reduction, int ignore_index) -> Tensor
    """
    if reduction.__class__ is not str: reduction = _b.str_arg(reduction, 'reduction', '_nll_loss_backward')
    if ignore_index.__class__ is not int or not -9223372036854775808 <= ignore_index <= 9223372036854775807: ignore_index = _b.int_arg(ignore_index, 'ignore_index', '_nll_loss_backward')
    return _op._nll_loss_backward(grad_output, input, target, weight, reduction, ignore_index)

@_b.checked(_op.glu)
def glu(input: Tensor, dim: int = -1) -> Tensor:
    """glu(Tensor self, int dim=-1) -> Tensor
    
    Gated linear unit, a * sigmoid(b) of the two halves of self along dim.
    """
    if dim.__class__ is not int or not -9223372036854775808 <= dim <= 9223372036854775807: dim = _b.int_arg(dim, 'dim', 'glu')
    return _op.glu(input, dim)

@_b.checked(_op.celu)
def celu(input: Tensor, alpha: float = 1.0) -> Tensor:
    """celu(Tensor self, float alpha=1.0) -> Tensor
    
    max(0, x) + min(0, alpha * (exp(x / alpha) - 1)).
    """
    if alpha.__class__ is not float: alpha = _b.float_arg(alpha, 'alpha', 'celu')
    return _op.celu(input, alpha)

@_b.checked(_op.prelu)
def prelu(input: Tensor, weight: Tensor) -> Tensor:
    """prelu(Tensor self, Tensor weight) -> Tensor
    
    x where positive, weight * x elsewhere (one slope, or one per channel).
    """
    return _op.prelu(input, weight)

@_b.checked(_op.rrelu)
def rrelu(input: Tensor, lower: float = 0.125, upper: float = 0.3333333333333333, training: bool = False) -> Tensor:
    """rrelu(Tensor self, float lower=0.125, float upper=0.3333333333333333, bool training=False) -> Tensor
    
    Leaky ReLU with a random negative slope from U(lower, upper) when training, their mean otherwise.
    """
    if lower.__class__ is not float: lower = _b.float_arg(lower, 'lower', 'rrelu')
    if upper.__class__ is not float: upper = _b.float_arg(upper, 'upper', 'rrelu')
    if training.__class__ is not bool: training = _b.bool_arg(training, 'training', 'rrelu')
    return _op.rrelu(input, lower, upper, training)

@_b.checked(_op.tanhshrink)
def tanhshrink(input: Tensor) -> Tensor:
    """tanhshrink(Tensor self) -> Tensor
    
    x - tanh(x).
    """
    return _op.tanhshrink(input)

@_b.checked(_op.threshold)
def threshold(input: Tensor, threshold: float, value: float) -> Tensor:
    """threshold(Tensor self, float threshold, float value) -> Tensor
    
    x where x > threshold, value elsewhere.
    """
    if threshold.__class__ is not float: threshold = _b.float_arg(threshold, 'threshold', 'threshold')
    if value.__class__ is not float: value = _b.float_arg(value, 'value', 'threshold')
    return _op.threshold(input, threshold, value)

@_b.checked(_op.softshrink)
def softshrink(input: Tensor, lambd: float = 0.5) -> Tensor:
    """softshrink(Tensor self, float lambd=0.5) -> Tensor
    
    x - lambd above lambd, x + lambd below -lambd, 0 between.
    """
    if lambd.__class__ is not float: lambd = _b.float_arg(lambd, 'lambd', 'softshrink')
    return _op.softshrink(input, lambd)

@_b.checked(_op.hardshrink)
def hardshrink(input: Tensor, lambd: float = 0.5) -> Tensor:
    """hardshrink(Tensor self, float lambd=0.5) -> Tensor
    
    x outside [-lambd, lambd], 0 inside.
    """
    if lambd.__class__ is not float: lambd = _b.float_arg(lambd, 'lambd', 'hardshrink')
    return _op.hardshrink(input, lambd)

@_b.checked(_op.channel_shuffle)
def channel_shuffle(input: Tensor, groups: int) -> Tensor:
    """channel_shuffle(Tensor self, int groups) -> Tensor
    
    Regroups the channels (dim 1) of (N, g * k, *) input as (N, k * g, *).
    """
    if groups.__class__ is not int or not -9223372036854775808 <= groups <= 9223372036854775807: groups = _b.int_arg(groups, 'groups', 'channel_shuffle')
    return _op.channel_shuffle(input, groups)

@_b.checked(_op.constant_pad_nd)
def constant_pad_nd(input: Tensor, pad: int | Sequence[int], value: float = 0) -> Tensor:
    """constant_pad_nd(Tensor self, int[] pad, float value=0) -> Tensor
    
    Pads (negative amounts crop) the trailing dims with a constant.
    """
    pad = _b.int_list(pad, 0, 'pad')
    if value.__class__ is not float: value = _b.float_arg(value, 'value', 'constant_pad_nd')
    return _op.constant_pad_nd(input, pad, value)

@_b.checked(_op.native_dropout_backward)
def native_dropout_backward(grad_output: Tensor, mask: Tensor, scale: float) -> Tensor:
    """native_dropout_backward(Tensor grad_output, Tensor mask, float scale) -> Tensor
    
    The gradient of dropout, grad_output * mask * scale.
    """
    if scale.__class__ is not float: scale = _b.float_arg(scale, 'scale', 'native_dropout_backward')
    return _op.native_dropout_backward(grad_output, mask, scale)

@_b.checked(_op.max_pool2d_with_indices_backward)
def max_pool2d_with_indices_backward(grad_output: Tensor, input: Tensor, kernel_size: int | Sequence[int], stride: int | Sequence[int], padding: int | Sequence[int], dilation: int | Sequence[int], ceil_mode: bool, indices: Tensor) -> Tensor:
    """max_pool2d_with_indices_backward(Tensor grad_output, Tensor self, int[2] kernel_size, int[2] stride, int[2] padding, int[2] dilation, bool ceil_mode, Tensor indices) -> Tensor
    
    The gradient of max_pool2d, routed to the recorded maxima.
    """
    kernel_size = _b.int_list(kernel_size, 2, 'kernel_size')
    stride = _b.int_list(stride, 2, 'stride')
    padding = _b.int_list(padding, 2, 'padding')
    dilation = _b.int_list(dilation, 2, 'dilation')
    if ceil_mode.__class__ is not bool: ceil_mode = _b.bool_arg(ceil_mode, 'ceil_mode', 'max_pool2d_with_indices_backward')
    return _op.max_pool2d_with_indices_backward(grad_output, input, kernel_size, stride, padding, dilation, ceil_mode, indices)

@_b.checked(_op.max_pool3d)
def max_pool3d(input: Tensor, kernel_size: int | Sequence[int], stride: int | Sequence[int] = [], padding: int | Sequence[int] = 0, dilation: int | Sequence[int] = 1, ceil_mode: bool = False) -> Tensor:
    """max_pool3d(Tensor self, int[3] kernel_size, int[3] stride=[], int[3] padding=0, int[3] dilation=1, bool ceil_mode=False) -> Tensor
    
    3-d max pooling of (N, C, D, H, W) or (C, D, H, W) input.
    """
    kernel_size = _b.int_list(kernel_size, 3, 'kernel_size')
    stride = _b.int_list(stride, 3, 'stride')
    padding = _b.int_list(padding, 3, 'padding')
    dilation = _b.int_list(dilation, 3, 'dilation')
    if ceil_mode.__class__ is not bool: ceil_mode = _b.bool_arg(ceil_mode, 'ceil_mode', 'max_pool3d')
    return _op.max_pool3d(input, kernel_size, stride, padding, dilation, ceil_mode)

@_b.checked(_op.max_pool3d_with_indices)
def max_pool3d_with_indices(input: Tensor, kernel_size: int | Sequence[int], stride: int | Sequence[int] = [], padding: int | Sequence[int] = 0, dilation: int | Sequence[int] = 1, ceil_mode: bool = False) -> tuple[Tensor, Tensor]:
    """max_pool3d_with_indices(Tensor self, int[3] kernel_size, int[3] stride=[], int[3] padding=0, int[3] dilation=1, bool ceil_mode=False) -> (Tensor, Tensor)
    
    3-d max pooling and the flat per-volume index of each maximum.
    """
    kernel_size = _b.int_list(kernel_size, 3, 'kernel_size')
    stride = _b.int_list(stride, 3, 'stride')
    padding = _b.int_list(padding, 3, 'padding')
    dilation = _b.int_list(dilation, 3, 'dilation')
    if ceil_mode.__class__ is not bool: ceil_mode = _b.bool_arg(ceil_mode, 'ceil_mode', 'max_pool3d_with_indices')
    return _op.max_pool3d_with_indices(input, kernel_size, stride, padding, dilation, ceil_mode)

@_b.checked(_op.avg_pool3d)
def avg_pool3d(input: Tensor, kernel_size: int | Sequence[int], stride: int | Sequence[int] = [], padding: int | Sequence[int] = 0, ceil_mode: bool = False, count_include_pad: bool = True, divisor_override: int | None = None) -> Tensor:
    """avg_pool3d(Tensor self, int[3] kernel_size, int[3] stride=[], int[3] padding=0, bool ceil_mode=False, bool count_include_pad=True, int? divisor_override=None) -> Tensor
    
    3-d average pooling of (N, C, D, H, W) or (C, D, H, W) input.
    """
    kernel_size = _b.int_list(kernel_size, 3, 'kernel_size')
    stride = _b.int_list(stride, 3, 'stride')
    padding = _b.int_list(padding, 3, 'padding')
    if ceil_mode.__class__ is not bool: ceil_mode = _b.bool_arg(ceil_mode, 'ceil_mode', 'avg_pool3d')
    if count_include_pad.__class__ is not bool: count_include_pad = _b.bool_arg(count_include_pad, 'count_include_pad', 'avg_pool3d')
    if divisor_override is not None and (divisor_override.__class__ is not int or not -9223372036854775808 <= divisor_override <= 9223372036854775807): divisor_override = _b.int_arg(divisor_override, 'divisor_override', 'avg_pool3d')
    return _op.avg_pool3d(input, kernel_size, stride, padding, ceil_mode, count_include_pad, divisor_override)

@_b.checked(_op.adaptive_avg_pool3d)
def adaptive_avg_pool3d(input: Tensor, output_size: int | Sequence[int]) -> Tensor:
    """adaptive_avg_pool3d(Tensor self, int[3] output_size) -> Tensor
    
    3-d average pooling to a given output size.
    """
    output_size = _b.int_list(output_size, 3, 'output_size')
    return _op.adaptive_avg_pool3d(input, output_size)

@_b.checked(_op.adaptive_max_pool3d)
def adaptive_max_pool3d(input: Tensor, output_size: int | Sequence[int]) -> Tensor:
    """adaptive_max_pool3d(Tensor self, int[3] output_size) -> Tensor
    
    3-d max pooling to a given output size.
    """
    output_size = _b.int_list(output_size, 3, 'output_size')
    return _op.adaptive_max_pool3d(input, output_size)

@_b.checked(_op.conv_transpose3d)
def conv_transpose3d(input: Tensor, weight: Tensor, bias: Tensor | None = None, stride: int | Sequence[int] = 1, padding: int | Sequence[int] = 0, output_padding: int | Sequence[int] = 0, groups: int = 1, dilation: int | Sequence[int] = 1) -> Tensor:
    """conv_transpose3d(Tensor input, Tensor weight, Tensor? bias=None, int[3] stride=1, int[3] padding=0, int[3] output_padding=0, int groups=1, int[3] dilation=1) -> Tensor
    
    3-d transposed convolution.
    """
    stride = _b.int_list(stride, 3, 'stride')
    padding = _b.int_list(padding, 3, 'padding')
    output_padding = _b.int_list(output_padding, 3, 'output_padding')
    if groups.__class__ is not int or not -9223372036854775808 <= groups <= 9223372036854775807: groups = _b.int_arg(groups, 'groups', 'conv_transpose3d')
    dilation = _b.int_list(dilation, 3, 'dilation')
    return _op.conv_transpose3d(input, weight, bias, stride, padding, output_padding, groups, dilation)

@_b.checked(_op.im2col)
def im2col(input: Tensor, kernel_size: int | Sequence[int], dilation: int | Sequence[int], padding: int | Sequence[int], stride: int | Sequence[int]) -> Tensor:
    """im2col(Tensor self, int[2] kernel_size, int[2] dilation, int[2] padding, int[2] stride) -> Tensor
    
    Sliding local blocks of (N, C, H, W) input as the columns of (N, C * kh * kw, L) (F.unfold).
    """
    kernel_size = _b.int_list(kernel_size, 2, 'kernel_size')
    dilation = _b.int_list(dilation, 2, 'dilation')
    padding = _b.int_list(padding, 2, 'padding')
    stride = _b.int_list(stride, 2, 'stride')
    return _op.im2col(input, kernel_size, dilation, padding, stride)

@_b.checked(_op.col2im)
def col2im(input: Tensor, output_size: int | Sequence[int], kernel_size: int | Sequence[int], dilation: int | Sequence[int], padding: int | Sequence[int], stride: int | Sequence[int]) -> Tensor:
    """col2im(Tensor self, int[2] output_size, int[2] kernel_size, int[2] dilation, int[2] padding, int[2] stride) -> Tensor
    
    im2col's adjoint, summing columns back into (N, C, H, W) (F.fold).
    """
    output_size = _b.int_list(output_size, 2, 'output_size')
    kernel_size = _b.int_list(kernel_size, 2, 'kernel_size')
    dilation = _b.int_list(dilation, 2, 'dilation')
    padding = _b.int_list(padding, 2, 'padding')
    stride = _b.int_list(stride, 2, 'stride')
    return _op.col2im(input, output_size, kernel_size, dilation, padding, stride)

@_b.checked(_op.max_unpool)
def max_unpool(input: Tensor, indices: Tensor, output_size: int | Sequence[int]) -> Tensor:
    """max_unpool(Tensor self, Tensor indices, int[] output_size) -> Tensor
    
    Writes each value at its flat per-plane index of a zero output (max pooling's partial inverse).
    """
    output_size = _b.int_list(output_size, 0, 'output_size')
    return _op.max_unpool(input, indices, output_size)

@_b.checked(_op.feature_dropout)
def feature_dropout(input: Tensor, p: float, train: bool) -> Tensor:
    """feature_dropout(Tensor input, float p, bool train) -> Tensor
    
    Zeroes whole channels with probability p and scales the rest by 1 / (1 - p).
    """
    if p.__class__ is not float: p = _b.float_arg(p, 'p', 'feature_dropout')
    if train.__class__ is not bool: train = _b.bool_arg(train, 'train', 'feature_dropout')
    return _op.feature_dropout(input, p, train)

@_b.checked(_op.alpha_dropout)
def alpha_dropout(input: Tensor, p: float, train: bool) -> Tensor:
    """alpha_dropout(Tensor input, float p, bool train) -> Tensor
    
    Dropout that keeps the mean and variance of SELU activations.
    """
    if p.__class__ is not float: p = _b.float_arg(p, 'p', 'alpha_dropout')
    if train.__class__ is not bool: train = _b.bool_arg(train, 'train', 'alpha_dropout')
    return _op.alpha_dropout(input, p, train)

@_b.checked(_op.feature_alpha_dropout)
def feature_alpha_dropout(input: Tensor, p: float, train: bool) -> Tensor:
    """feature_alpha_dropout(Tensor input, float p, bool train) -> Tensor
    
    Alpha dropout of whole channels.
    """
    if p.__class__ is not float: p = _b.float_arg(p, 'p', 'feature_alpha_dropout')
    if train.__class__ is not bool: train = _b.bool_arg(train, 'train', 'feature_alpha_dropout')
    return _op.feature_alpha_dropout(input, p, train)

@_b.checked(_op.local_response_norm)
def local_response_norm(input: Tensor, size: int, alpha: float = 0.0001, beta: float = 0.75, k: float = 1.0) -> Tensor:
    """local_response_norm(Tensor input, int size, float alpha=0.0001, float beta=0.75, float k=1.0) -> Tensor
    
    Normalises each value by the mean square of its neighbouring channels.
    """
    if size.__class__ is not int or not -9223372036854775808 <= size <= 9223372036854775807: size = _b.int_arg(size, 'size', 'local_response_norm')
    if alpha.__class__ is not float: alpha = _b.float_arg(alpha, 'alpha', 'local_response_norm')
    if beta.__class__ is not float: beta = _b.float_arg(beta, 'beta', 'local_response_norm')
    if k.__class__ is not float: k = _b.float_arg(k, 'k', 'local_response_norm')
    return _op.local_response_norm(input, size, alpha, beta, k)

@_b.checked(_op.soft_margin_loss)
def soft_margin_loss(input: Tensor, target: Tensor, reduction: str = 'mean') -> Tensor:
    """soft_margin_loss(Tensor self, Tensor target, str reduction="mean") -> Tensor
    
    log(1 + exp(-target * input)).
    """
    if input.__class__ not in _b.TENSOR_TYPES: _b.tensor_arg(input, 'input', 1, 'soft_margin_loss')
    if target.__class__ not in _b.TENSOR_TYPES: _b.tensor_arg(target, 'target', 2, 'soft_margin_loss')
    if reduction.__class__ is not str: reduction = _b.str_arg(reduction, 'reduction', 'soft_margin_loss')
    return _op.soft_margin_loss(input, target, reduction)

@_b.checked(_op.margin_ranking_loss)
def margin_ranking_loss(input1: Tensor, input2: Tensor, target: Tensor, margin: float = 0.0, reduction: str = 'mean') -> Tensor:
    """margin_ranking_loss(Tensor input1, Tensor input2, Tensor target, float margin=0.0, str reduction="mean") -> Tensor
    
    max(0, -target * (input1 - input2) + margin).
    """
    if input1.__class__ not in _b.TENSOR_TYPES: _b.tensor_arg(input1, 'input1', 1, 'margin_ranking_loss')
    if input2.__class__ not in _b.TENSOR_TYPES: _b.tensor_arg(input2, 'input2', 2, 'margin_ranking_loss')
    if target.__class__ not in _b.TENSOR_TYPES: _b.tensor_arg(target, 'target', 3, 'margin_ranking_loss')
    if margin.__class__ is not float: margin = _b.float_arg(margin, 'margin', 'margin_ranking_loss')
    if reduction.__class__ is not str: reduction = _b.str_arg(reduction, 'reduction', 'margin_ranking_loss')
    return _op.margin_ranking_loss(input1, input2, target, margin, reduction)

@_b.checked(_op.hinge_embedding_loss)
def hinge_embedding_loss(input: Tensor, target: Tensor, margin: float = 1.0, reduction: str = 'mean') -> Tensor:
    """hinge_embedding_loss(Tensor self, Tensor target, float margin=1.0, str reduction="mean") -> Tensor
    
    x where target is 1, max(0, margin - x) where it is -1.
    """
    if input.__class__ not in _b.TENSOR_TYPES: _b.tensor_arg(input, 'input', 1, 'hinge_embedding_loss')
    if target.__class__ not in _b.TENSOR_TYPES: _b.tensor_arg(target, 'target', 2, 'hinge_embedding_loss')
    if margin.__class__ is not float: margin = _b.float_arg(margin, 'margin', 'hinge_embedding_loss')
    if reduction.__class__ is not str: reduction = _b.str_arg(reduction, 'reduction', 'hinge_embedding_loss')
    return _op.hinge_embedding_loss(input, target, margin, reduction)

@_b.checked(_op.cosine_embedding_loss)
def cosine_embedding_loss(input1: Tensor, input2: Tensor, target: Tensor, margin: float = 0.0, reduction: str = 'mean') -> Tensor:
    """cosine_embedding_loss(Tensor input1, Tensor input2, Tensor target, float margin=0.0, str reduction="mean") -> Tensor
    
    1 - cos(x1, x2) where target is 1, max(0, cos(x1, x2) - margin) where it is -1.
    """
    if input1.__class__ not in _b.TENSOR_TYPES: _b.tensor_arg(input1, 'input1', 1, 'cosine_embedding_loss')
    if input2.__class__ not in _b.TENSOR_TYPES: _b.tensor_arg(input2, 'input2', 2, 'cosine_embedding_loss')
    if target.__class__ not in _b.TENSOR_TYPES: _b.tensor_arg(target, 'target', 3, 'cosine_embedding_loss')
    if margin.__class__ is not float: margin = _b.float_arg(margin, 'margin', 'cosine_embedding_loss')
    if reduction.__class__ is not str: reduction = _b.str_arg(reduction, 'reduction', 'cosine_embedding_loss')
    return _op.cosine_embedding_loss(input1, input2, target, margin, reduction)

@_b.checked(_op.poisson_nll_loss)
def poisson_nll_loss(input: Tensor, target: Tensor, log_input: bool, full: bool, eps: float, reduction: str) -> Tensor:
    """poisson_nll_loss(Tensor input, Tensor target, bool log_input, bool full, float eps, str reduction) -> Tensor
    
    Poisson negative log likelihood.
    """
    if input.__class__ not in _b.TENSOR_TYPES: _b.tensor_arg(input, 'input', 1, 'poisson_nll_loss')
    if target.__class__ not in _b.TENSOR_TYPES: _b.tensor_arg(target, 'target', 2, 'poisson_nll_loss')
    if log_input.__class__ is not bool: log_input = _b.bool_arg(log_input, 'log_input', 'poisson_nll_loss')
    if full.__class__ is not bool: full = _b.bool_arg(full, 'full', 'poisson_nll_loss')
    if eps.__class__ is not float: eps = _b.float_arg(eps, 'eps', 'poisson_nll_loss')
    if reduction.__class__ is not str: reduction = _b.str_arg(reduction, 'reduction', 'poisson_nll_loss')
    return _op.poisson_nll_loss(input, target, log_input, full, eps, reduction)

@_b.checked(_op.gaussian_nll_loss)
def gaussian_nll_loss(input: Tensor, target: Tensor, var: Tensor, full: bool = False, eps: float = 1e-06, reduction: str = 'mean') -> Tensor:
    """gaussian_nll_loss(Tensor input, Tensor target, Tensor var, bool full=False, float eps=1e-06, str reduction="mean") -> Tensor
    
    Gaussian negative log likelihood with mean input and variance var.
    """
    if full.__class__ is not bool: full = _b.bool_arg(full, 'full', 'gaussian_nll_loss')
    if eps.__class__ is not float: eps = _b.float_arg(eps, 'eps', 'gaussian_nll_loss')
    if reduction.__class__ is not str: reduction = _b.str_arg(reduction, 'reduction', 'gaussian_nll_loss')
    return _op.gaussian_nll_loss(input, target, var, full, eps, reduction)

@_b.checked(_op.triplet_margin_loss)
def triplet_margin_loss(anchor: Tensor, positive: Tensor, negative: Tensor, margin: float = 1.0, p: float = 2, eps: float = 1e-06, swap: bool = False, reduction: str = 'mean') -> Tensor:
    """triplet_margin_loss(Tensor anchor, Tensor positive, Tensor negative, float margin=1.0, float p=2, float eps=1e-06, bool swap=False, str reduction="mean") -> Tensor
    
    max(0, margin + d(anchor, positive) - d(anchor, negative)), d the p-norm distance.
    """
    if anchor.__class__ not in _b.TENSOR_TYPES: _b.tensor_arg(anchor, 'anchor', 1, 'triplet_margin_loss')
    if positive.__class__ not in _b.TENSOR_TYPES: _b.tensor_arg(positive, 'positive', 2, 'triplet_margin_loss')
    if negative.__class__ not in _b.TENSOR_TYPES: _b.tensor_arg(negative, 'negative', 3, 'triplet_margin_loss')
    if margin.__class__ is not float: margin = _b.float_arg(margin, 'margin', 'triplet_margin_loss')
    if p.__class__ is not float: p = _b.float_arg(p, 'p', 'triplet_margin_loss')
    if eps.__class__ is not float: eps = _b.float_arg(eps, 'eps', 'triplet_margin_loss')
    if swap.__class__ is not bool: swap = _b.bool_arg(swap, 'swap', 'triplet_margin_loss')
    if reduction.__class__ is not str: reduction = _b.str_arg(reduction, 'reduction', 'triplet_margin_loss')
    return _op.triplet_margin_loss(anchor, positive, negative, margin, p, eps, swap, reduction)

@_b.checked(_op.multi_margin_loss)
def multi_margin_loss(input: Tensor, target: Tensor, p: int = 1, margin: float = 1, weight: Tensor | None = None, reduction: str = 'mean') -> Tensor:
    """multi_margin_loss(Tensor self, Tensor target, int p=1, float margin=1, Tensor? weight=None, str reduction="mean") -> Tensor
    
    Multi-class hinge loss of class indices.
    """
    if input.__class__ not in _b.TENSOR_TYPES: _b.tensor_arg(input, 'input', 1, 'multi_margin_loss')
    if target.__class__ not in _b.TENSOR_TYPES: _b.tensor_arg(target, 'target', 2, 'multi_margin_loss')
    if p.__class__ is not int or not -9223372036854775808 <= p <= 9223372036854775807: p = _b.int_arg(p, 'p', 'multi_margin_loss')
    if margin.__class__ is not float: margin = _b.float_arg(margin, 'margin', 'multi_margin_loss')
    if reduction.__class__ is not str: reduction = _b.str_arg(reduction, 'reduction', 'multi_margin_loss')
    return _op.multi_margin_loss(input, target, p, margin, weight, reduction)

@_b.checked(_op.multilabel_margin_loss)
def multilabel_margin_loss(input: Tensor, target: Tensor, reduction: str = 'mean') -> Tensor:
    """multilabel_margin_loss(Tensor self, Tensor target, str reduction="mean") -> Tensor
    
    Multi-label hinge loss of -1-terminated class lists.
    """
    if input.__class__ not in _b.TENSOR_TYPES: _b.tensor_arg(input, 'input', 1, 'multilabel_margin_loss')
    if target.__class__ not in _b.TENSOR_TYPES: _b.tensor_arg(target, 'target', 2, 'multilabel_margin_loss')
    if reduction.__class__ is not str: reduction = _b.str_arg(reduction, 'reduction', 'multilabel_margin_loss')
    return _op.multilabel_margin_loss(input, target, reduction)

@_b.checked(_op.multilabel_soft_margin_loss)
def multilabel_soft_margin_loss(input: Tensor, target: Tensor, weight: Tensor | None = None, reduction: str = 'mean') -> Tensor:
    """multilabel_soft_margin_loss(Tensor self, Tensor target, Tensor? weight=None, str reduction="mean") -> Tensor
    
    Per-class logistic loss of 0/1 targets, averaged over the classes.
    """
    if reduction.__class__ is not str: reduction = _b.str_arg(reduction, 'reduction', 'multilabel_soft_margin_loss')
    return _op.multilabel_soft_margin_loss(input, target, weight, reduction)

@_b.checked(_op.fractional_max_pool2d)
def fractional_max_pool2d(input: Tensor, kernel_size: int | Sequence[int], output_size: int | Sequence[int], random_samples: Tensor) -> tuple[Tensor, Tensor]:
    """fractional_max_pool2d(Tensor self, int[2] kernel_size, int[2] output_size, Tensor random_samples) -> (Tensor, Tensor)
    
    2-d max pooling over pseudo-random windows placed by random_samples; values and flat indices.
    """
    kernel_size = _b.int_list(kernel_size, 2, 'kernel_size')
    output_size = _b.int_list(output_size, 2, 'output_size')
    return _op.fractional_max_pool2d(input, kernel_size, output_size, random_samples)

@_b.checked(_op.fractional_max_pool3d)
def fractional_max_pool3d(input: Tensor, kernel_size: int | Sequence[int], output_size: int | Sequence[int], random_samples: Tensor) -> tuple[Tensor, Tensor]:
    """fractional_max_pool3d(Tensor self, int[3] kernel_size, int[3] output_size, Tensor random_samples) -> (Tensor, Tensor)
    
    3-d max pooling over pseudo-random windows placed by random_samples; values and flat indices.
    """
    kernel_size = _b.int_list(kernel_size, 3, 'kernel_size')
    output_size = _b.int_list(output_size, 3, 'output_size')
    return _op.fractional_max_pool3d(input, kernel_size, output_size, random_samples)

@_b.checked(_op._embedding_bag_reduce)
def _embedding_bag_reduce(weight: Tensor, indices: Tensor, offsets: Tensor, mode: str, per_sample_weights: Tensor | None, include_last_offset: bool, padding_idx: int, scale_grad_by_freq: bool = False) -> Tensor:
    """_embedding_bag_reduce(Tensor weight, Tensor indices, Tensor offsets, str mode, Tensor? per_sample_weights, bool include_last_offset, int padding_idx, bool scale_grad_by_freq=False) -> Tensor
    
    The per-bag sum, mean or max of weight's rows behind F.embedding_bag.
    """
    if mode.__class__ is not str: mode = _b.str_arg(mode, 'mode', '_embedding_bag_reduce')
    if include_last_offset.__class__ is not bool: include_last_offset = _b.bool_arg(include_last_offset, 'include_last_offset', '_embedding_bag_reduce')
    if padding_idx.__class__ is not int or not -9223372036854775808 <= padding_idx <= 9223372036854775807: padding_idx = _b.int_arg(padding_idx, 'padding_idx', '_embedding_bag_reduce')
    if scale_grad_by_freq.__class__ is not bool: scale_grad_by_freq = _b.bool_arg(scale_grad_by_freq, 'scale_grad_by_freq', '_embedding_bag_reduce')
    return _op._embedding_bag_reduce(weight, indices, offsets, mode, per_sample_weights, include_last_offset, padding_idx, scale_grad_by_freq)

@_b.checked(_op.grid_sampler)
def grid_sampler(input: Tensor, grid: Tensor, interpolation_mode: int, padding_mode: int, align_corners: bool) -> Tensor:
    """grid_sampler(Tensor input, Tensor grid, int interpolation_mode, int padding_mode, bool align_corners) -> Tensor
    
    Samples input at the normalised positions of grid (bilinear, nearest or bicubic; zeros, border or reflection padding).
    """
    if interpolation_mode.__class__ is not int or not -9223372036854775808 <= interpolation_mode <= 9223372036854775807: interpolation_mode = _b.int_arg(interpolation_mode, 'interpolation_mode', 'grid_sampler')
    if padding_mode.__class__ is not int or not -9223372036854775808 <= padding_mode <= 9223372036854775807: padding_mode = _b.int_arg(padding_mode, 'padding_mode', 'grid_sampler')
    if align_corners.__class__ is not bool: align_corners = _b.bool_arg(align_corners, 'align_corners', 'grid_sampler')
    return _op.grid_sampler(input, grid, interpolation_mode, padding_mode, align_corners)

@_b.checked(_op.grid_sampler_2d)
def grid_sampler_2d(input: Tensor, grid: Tensor, interpolation_mode: int, padding_mode: int, align_corners: bool) -> Tensor:
    """grid_sampler_2d(Tensor input, Tensor grid, int interpolation_mode, int padding_mode, bool align_corners) -> Tensor
    
    grid_sampler of a 4-d input (N, C, H, W) at a grid (N, H_out, W_out, 2), as torch.grid_sampler_2d (bicubic allowed).
    """
    if interpolation_mode.__class__ is not int or not -9223372036854775808 <= interpolation_mode <= 9223372036854775807: interpolation_mode = _b.int_arg(interpolation_mode, 'interpolation_mode', 'grid_sampler_2d')
    if padding_mode.__class__ is not int or not -9223372036854775808 <= padding_mode <= 9223372036854775807: padding_mode = _b.int_arg(padding_mode, 'padding_mode', 'grid_sampler_2d')
    if align_corners.__class__ is not bool: align_corners = _b.bool_arg(align_corners, 'align_corners', 'grid_sampler_2d')
    return _op.grid_sampler_2d(input, grid, interpolation_mode, padding_mode, align_corners)

@_b.checked(_op.grid_sampler_3d)
def grid_sampler_3d(input: Tensor, grid: Tensor, interpolation_mode: int, padding_mode: int, align_corners: bool) -> Tensor:
    """grid_sampler_3d(Tensor input, Tensor grid, int interpolation_mode, int padding_mode, bool align_corners) -> Tensor
    
    grid_sampler of a 5-d input (N, C, D, H, W) at a grid (N, D_out, H_out, W_out, 3), as torch.grid_sampler_3d (bilinear or nearest).
    """
    if interpolation_mode.__class__ is not int or not -9223372036854775808 <= interpolation_mode <= 9223372036854775807: interpolation_mode = _b.int_arg(interpolation_mode, 'interpolation_mode', 'grid_sampler_3d')
    if padding_mode.__class__ is not int or not -9223372036854775808 <= padding_mode <= 9223372036854775807: padding_mode = _b.int_arg(padding_mode, 'padding_mode', 'grid_sampler_3d')
    if align_corners.__class__ is not bool: align_corners = _b.bool_arg(align_corners, 'align_corners', 'grid_sampler_3d')
    return _op.grid_sampler_3d(input, grid, interpolation_mode, padding_mode, align_corners)

@_b.checked(_op.ctc_loss)
def ctc_loss(log_probs: Tensor, targets: Tensor, input_lengths: int | Sequence[int], target_lengths: int | Sequence[int], blank: int = 0, reduction: str = 'mean', zero_infinity: bool = False) -> Tensor:
    """ctc_loss(Tensor log_probs, Tensor targets, int[] input_lengths, int[] target_lengths, int blank=0, str reduction="mean", bool zero_infinity=False) -> Tensor
    
    Connectionist temporal classification loss over all alignments of each target.
    """
    input_lengths = _b.int_list(input_lengths, 0, 'input_lengths')
    target_lengths = _b.int_list(target_lengths, 0, 'target_lengths')
    if blank.__class__ is not int or not -9223372036854775808 <= blank <= 9223372036854775807: blank = _b.int_arg(blank, 'blank', 'ctc_loss')
    if reduction.__class__ is not str: reduction = _b.str_arg(reduction, 'reduction', 'ctc_loss')
    if zero_infinity.__class__ is not bool: zero_infinity = _b.bool_arg(zero_infinity, 'zero_infinity', 'ctc_loss')
    return _op.ctc_loss(log_probs, targets, input_lengths, target_lengths, blank, reduction, zero_infinity)

@_b.checked(_op.zeros_like)
def zeros_like(input: Tensor, *, dtype: dtype | None = None, device: str | None = None, requires_grad: bool | None = False, memory_format: Any | None = None) -> Tensor:
    """zeros_like(Tensor self, *, ScalarType? dtype=None, str? device=None, bool? requires_grad=False, MemoryFormat? memory_format=None) -> Tensor
    """
    dtype = _b.dtype_arg(dtype)
    if device is not None and device.__class__ is not str: device = _b.str_arg(device, 'device', 'zeros_like')
    if requires_grad is not None and requires_grad.__class__ is not bool: requires_grad = _b.bool_arg(requires_grad, 'requires_grad', 'zeros_like')
    return _op.zeros_like(input, dtype, device, requires_grad, memory_format)

@_b.checked(_op.ones_like)
def ones_like(input: Tensor, *, dtype: dtype | None = None, device: str | None = None, requires_grad: bool | None = False, memory_format: Any | None = None) -> Tensor:
    """ones_like(Tensor self, *, ScalarType? dtype=None, str? device=None, bool? requires_grad=False, MemoryFormat? memory_format=None) -> Tensor
    """
    dtype = _b.dtype_arg(dtype)
    if device is not None and device.__class__ is not str: device = _b.str_arg(device, 'device', 'ones_like')
    if requires_grad is not None and requires_grad.__class__ is not bool: requires_grad = _b.bool_arg(requires_grad, 'requires_grad', 'ones_like')
    return _op.ones_like(input, dtype, device, requires_grad, memory_format)

@_b.checked(_op.full_like)
def full_like(input: Tensor, fill_value: Number, *, dtype: dtype | None = None, device: str | None = None, requires_grad: bool | None = False, memory_format: Any | None = None) -> Tensor:
    """full_like(Tensor self, Scalar fill_value, *, ScalarType? dtype=None, str? device=None, bool? requires_grad=False, MemoryFormat? memory_format=None) -> Tensor
    """
    dtype = _b.dtype_arg(dtype)
    if device is not None and device.__class__ is not str: device = _b.str_arg(device, 'device', 'full_like')
    if requires_grad is not None and requires_grad.__class__ is not bool: requires_grad = _b.bool_arg(requires_grad, 'requires_grad', 'full_like')
    return _op.full_like(input, fill_value, dtype, device, requires_grad, memory_format)

@_b.checked(_op.empty_like)
def empty_like(input: Tensor, *, dtype: dtype | None = None, device: str | None = None, requires_grad: bool | None = False, memory_format: Any | None = None) -> Tensor:
    """empty_like(Tensor self, *, ScalarType? dtype=None, str? device=None, bool? requires_grad=False, MemoryFormat? memory_format=None) -> Tensor
    """
    dtype = _b.dtype_arg(dtype)
    if device is not None and device.__class__ is not str: device = _b.str_arg(device, 'device', 'empty_like')
    if requires_grad is not None and requires_grad.__class__ is not bool: requires_grad = _b.bool_arg(requires_grad, 'requires_grad', 'empty_like')
    return _op.empty_like(input, dtype, device, requires_grad, memory_format)

@_b.checked(_op.rand_like)
def rand_like(input: Tensor, *, dtype: dtype | None = None, device: str | None = None, requires_grad: bool | None = False, memory_format: Any | None = None) -> Tensor:
    """rand_like(Tensor self, *, ScalarType? dtype=None, str? device=None, bool? requires_grad=False, MemoryFormat? memory_format=None) -> Tensor
    """
    dtype = _b.dtype_arg(dtype)
    if device is not None and device.__class__ is not str: device = _b.str_arg(device, 'device', 'rand_like')
    if requires_grad is not None and requires_grad.__class__ is not bool: requires_grad = _b.bool_arg(requires_grad, 'requires_grad', 'rand_like')
    return _op.rand_like(input, dtype, device, requires_grad, memory_format)

@_b.checked(_op.randn_like)
def randn_like(input: Tensor, *, dtype: dtype | None = None, device: str | None = None, requires_grad: bool | None = False, memory_format: Any | None = None) -> Tensor:
    """randn_like(Tensor self, *, ScalarType? dtype=None, str? device=None, bool? requires_grad=False, MemoryFormat? memory_format=None) -> Tensor
    """
    dtype = _b.dtype_arg(dtype)
    if device is not None and device.__class__ is not str: device = _b.str_arg(device, 'device', 'randn_like')
    if requires_grad is not None and requires_grad.__class__ is not bool: requires_grad = _b.bool_arg(requires_grad, 'requires_grad', 'randn_like')
    return _op.randn_like(input, dtype, device, requires_grad, memory_format)

def randint_like(*args: Any, **kwargs: Any) -> Any:
    """randint_like(Tensor self, int low, int high, *, ScalarType? dtype=None, str? device=None, bool? requires_grad=False, MemoryFormat? memory_format=None) -> Tensor
    randint_like.high(Tensor self, int high, *, ScalarType? dtype=None, str? device=None, bool? requires_grad=False, MemoryFormat? memory_format=None) -> Tensor
    """
    return _b.call_overloaded((_op.randint_like, _op.randint_like_high,), args, kwargs, 'randint_like')

@_b.checked(_op.bernoulli)
def bernoulli(input: Tensor, p: float | None = _b.OMITTED, *, generator: Generator | None = None) -> Tensor:
    """bernoulli(Tensor self, float? p=None, *, Generator? generator=None) -> Tensor
    """
    if p is None: _b.reject_none('p', 'float', 'bernoulli')
    if p is _b.OMITTED: p = None
    if p is not None and p.__class__ is not float: p = _b.float_arg(p, 'p', 'bernoulli')
    return _op.bernoulli(input, p, generator)

@_b.checked(_op.multinomial)
def multinomial(input: Tensor, num_samples: int, replacement: bool = False, *, generator: Generator | None = None) -> Tensor:
    """multinomial(Tensor self, int num_samples, bool replacement=False, *, Generator? generator=None) -> Tensor
    """
    if num_samples.__class__ is not int or not -9223372036854775808 <= num_samples <= 9223372036854775807: num_samples = _b.int_arg(num_samples, 'num_samples', 'multinomial')
    if replacement.__class__ is not bool: replacement = _b.bool_arg(replacement, 'replacement', 'multinomial')
    return _op.multinomial(input, num_samples, replacement, generator)

@_b.checked(_op._sgd_update_)
def _sgd_update_(param: Tensor, grad: Tensor, momentum_buffer: Tensor | None, lr: float, momentum: float, dampening: float, weight_decay: float, nesterov: bool, maximize: bool, first_step: bool) -> Tensor:
    """_sgd_update_(Tensor(a!) param, Tensor grad, Tensor(b!)? momentum_buffer, float lr, float momentum, float dampening, float weight_decay, bool nesterov, bool maximize, bool first_step) -> Tensor(a!)
    """
    if lr.__class__ is not float: lr = _b.float_arg(lr, 'lr', '_sgd_update_')
    if momentum.__class__ is not float: momentum = _b.float_arg(momentum, 'momentum', '_sgd_update_')
    if dampening.__class__ is not float: dampening = _b.float_arg(dampening, 'dampening', '_sgd_update_')
    if weight_decay.__class__ is not float: weight_decay = _b.float_arg(weight_decay, 'weight_decay', '_sgd_update_')
    if nesterov.__class__ is not bool: nesterov = _b.bool_arg(nesterov, 'nesterov', '_sgd_update_')
    if maximize.__class__ is not bool: maximize = _b.bool_arg(maximize, 'maximize', '_sgd_update_')
    if first_step.__class__ is not bool: first_step = _b.bool_arg(first_step, 'first_step', '_sgd_update_')
    return _op._sgd_update_(param, grad, momentum_buffer, lr, momentum, dampening, weight_decay, nesterov, maximize, first_step)

@_b.checked(_op._adam_update_)
def _adam_update_(param: Tensor, grad: Tensor, exp_avg: Tensor, exp_avg_sq: Tensor, max_exp_avg_sq: Tensor | None, step: int, lr: float, beta1: float, beta2: float, eps: float, weight_decay: float, amsgrad: bool, maximize: bool, decoupled_weight_decay: bool) -> Tensor:
    """_adam_update_(Tensor(a!) param, Tensor grad, Tensor(b!) exp_avg, Tensor(c!) exp_avg_sq, Tensor(d!)? max_exp_avg_sq, int step, float lr, float beta1, float beta2, float eps, float weight_decay, bool amsgrad, bool maximize, bool decoupled_weight_decay) -> Tensor(a!)
    """
    if step.__class__ is not int or not -9223372036854775808 <= step <= 9223372036854775807: step = _b.int_arg(step, 'step', '_adam_update_')
    if lr.__class__ is not float: lr = _b.float_arg(lr, 'lr', '_adam_update_')
    if beta1.__class__ is not float: beta1 = _b.float_arg(beta1, 'beta1', '_adam_update_')
    if beta2.__class__ is not float: beta2 = _b.float_arg(beta2, 'beta2', '_adam_update_')
    if eps.__class__ is not float: eps = _b.float_arg(eps, 'eps', '_adam_update_')
    if weight_decay.__class__ is not float: weight_decay = _b.float_arg(weight_decay, 'weight_decay', '_adam_update_')
    if amsgrad.__class__ is not bool: amsgrad = _b.bool_arg(amsgrad, 'amsgrad', '_adam_update_')
    if maximize.__class__ is not bool: maximize = _b.bool_arg(maximize, 'maximize', '_adam_update_')
    if decoupled_weight_decay.__class__ is not bool: decoupled_weight_decay = _b.bool_arg(decoupled_weight_decay, 'decoupled_weight_decay', '_adam_update_')
    return _op._adam_update_(param, grad, exp_avg, exp_avg_sq, max_exp_avg_sq, step, lr, beta1, beta2, eps, weight_decay, amsgrad, maximize, decoupled_weight_decay)

@_b.checked(_op._rmsprop_update_)
def _rmsprop_update_(param: Tensor, grad: Tensor, square_avg: Tensor, grad_avg: Tensor | None, momentum_buffer: Tensor | None, lr: float, alpha: float, eps: float, weight_decay: float, momentum: float, maximize: bool) -> Tensor:
    """_rmsprop_update_(Tensor(a!) param, Tensor grad, Tensor(b!) square_avg, Tensor(c!)? grad_avg, Tensor(d!)? momentum_buffer, float lr, float alpha, float eps, float weight_decay, float momentum, bool maximize) -> Tensor(a!)
    """
    if lr.__class__ is not float: lr = _b.float_arg(lr, 'lr', '_rmsprop_update_')
    if alpha.__class__ is not float: alpha = _b.float_arg(alpha, 'alpha', '_rmsprop_update_')
    if eps.__class__ is not float: eps = _b.float_arg(eps, 'eps', '_rmsprop_update_')
    if weight_decay.__class__ is not float: weight_decay = _b.float_arg(weight_decay, 'weight_decay', '_rmsprop_update_')
    if momentum.__class__ is not float: momentum = _b.float_arg(momentum, 'momentum', '_rmsprop_update_')
    if maximize.__class__ is not bool: maximize = _b.bool_arg(maximize, 'maximize', '_rmsprop_update_')
    return _op._rmsprop_update_(param, grad, square_avg, grad_avg, momentum_buffer, lr, alpha, eps, weight_decay, momentum, maximize)

@_b.checked(_op._adagrad_update_)
def _adagrad_update_(param: Tensor, grad: Tensor, state_sum: Tensor, step: int, lr: float, lr_decay: float, weight_decay: float, eps: float, maximize: bool) -> Tensor:
    """_adagrad_update_(Tensor(a!) param, Tensor grad, Tensor(b!) state_sum, int step, float lr, float lr_decay, float weight_decay, float eps, bool maximize) -> Tensor(a!)
    """
    if step.__class__ is not int or not -9223372036854775808 <= step <= 9223372036854775807: step = _b.int_arg(step, 'step', '_adagrad_update_')
    if lr.__class__ is not float: lr = _b.float_arg(lr, 'lr', '_adagrad_update_')
    if lr_decay.__class__ is not float: lr_decay = _b.float_arg(lr_decay, 'lr_decay', '_adagrad_update_')
    if weight_decay.__class__ is not float: weight_decay = _b.float_arg(weight_decay, 'weight_decay', '_adagrad_update_')
    if eps.__class__ is not float: eps = _b.float_arg(eps, 'eps', '_adagrad_update_')
    if maximize.__class__ is not bool: maximize = _b.bool_arg(maximize, 'maximize', '_adagrad_update_')
    return _op._adagrad_update_(param, grad, state_sum, step, lr, lr_decay, weight_decay, eps, maximize)

@_b.checked(_op._adadelta_update_)
def _adadelta_update_(param: Tensor, grad: Tensor, square_avg: Tensor, acc_delta: Tensor, lr: float, rho: float, eps: float, weight_decay: float, maximize: bool) -> Tensor:
    """_adadelta_update_(Tensor(a!) param, Tensor grad, Tensor(b!) square_avg, Tensor(c!) acc_delta, float lr, float rho, float eps, float weight_decay, bool maximize) -> Tensor(a!)
    """
    if lr.__class__ is not float: lr = _b.float_arg(lr, 'lr', '_adadelta_update_')
    if rho.__class__ is not float: rho = _b.float_arg(rho, 'rho', '_adadelta_update_')
    if eps.__class__ is not float: eps = _b.float_arg(eps, 'eps', '_adadelta_update_')
    if weight_decay.__class__ is not float: weight_decay = _b.float_arg(weight_decay, 'weight_decay', '_adadelta_update_')
    if maximize.__class__ is not bool: maximize = _b.bool_arg(maximize, 'maximize', '_adadelta_update_')
    return _op._adadelta_update_(param, grad, square_avg, acc_delta, lr, rho, eps, weight_decay, maximize)

@_b.checked(_op._adamax_update_)
def _adamax_update_(param: Tensor, grad: Tensor, exp_avg: Tensor, exp_inf: Tensor, step: int, lr: float, beta1: float, beta2: float, eps: float, weight_decay: float, maximize: bool) -> Tensor:
    """_adamax_update_(Tensor(a!) param, Tensor grad, Tensor(b!) exp_avg, Tensor(c!) exp_inf, int step, float lr, float beta1, float beta2, float eps, float weight_decay, bool maximize) -> Tensor(a!)
    """
    if step.__class__ is not int or not -9223372036854775808 <= step <= 9223372036854775807: step = _b.int_arg(step, 'step', '_adamax_update_')
    if lr.__class__ is not float: lr = _b.float_arg(lr, 'lr', '_adamax_update_')
    if beta1.__class__ is not float: beta1 = _b.float_arg(beta1, 'beta1', '_adamax_update_')
    if beta2.__class__ is not float: beta2 = _b.float_arg(beta2, 'beta2', '_adamax_update_')
    if eps.__class__ is not float: eps = _b.float_arg(eps, 'eps', '_adamax_update_')
    if weight_decay.__class__ is not float: weight_decay = _b.float_arg(weight_decay, 'weight_decay', '_adamax_update_')
    if maximize.__class__ is not bool: maximize = _b.bool_arg(maximize, 'maximize', '_adamax_update_')
    return _op._adamax_update_(param, grad, exp_avg, exp_inf, step, lr, beta1, beta2, eps, weight_decay, maximize)

@_b.checked(_op._nadam_update_)
def _nadam_update_(param: Tensor, grad: Tensor, exp_avg: Tensor, exp_avg_sq: Tensor, step: int, mu: float, mu_next: float, mu_product: float, lr: float, beta1: float, beta2: float, eps: float, weight_decay: float, decoupled_weight_decay: bool, maximize: bool) -> Tensor:
    """_nadam_update_(Tensor(a!) param, Tensor grad, Tensor(b!) exp_avg, Tensor(c!) exp_avg_sq, int step, float mu, float mu_next, float mu_product, float lr, float beta1, float beta2, float eps, float weight_decay, bool decoupled_weight_decay, bool maximize) -> Tensor(a!)
    """
    if step.__class__ is not int or not -9223372036854775808 <= step <= 9223372036854775807: step = _b.int_arg(step, 'step', '_nadam_update_')
    if mu.__class__ is not float: mu = _b.float_arg(mu, 'mu', '_nadam_update_')
    if mu_next.__class__ is not float: mu_next = _b.float_arg(mu_next, 'mu_next', '_nadam_update_')
    if mu_product.__class__ is not float: mu_product = _b.float_arg(mu_product, 'mu_product', '_nadam_update_')
    if lr.__class__ is not float: lr = _b.float_arg(lr, 'lr', '_nadam_update_')
    if beta1.__class__ is not float: beta1 = _b.float_arg(beta1, 'beta1', '_nadam_update_')
    if beta2.__class__ is not float: beta2 = _b.float_arg(beta2, 'beta2', '_nadam_update_')
    if eps.__class__ is not float: eps = _b.float_arg(eps, 'eps', '_nadam_update_')
    if weight_decay.__class__ is not float: weight_decay = _b.float_arg(weight_decay, 'weight_decay', '_nadam_update_')
    if decoupled_weight_decay.__class__ is not bool: decoupled_weight_decay = _b.bool_arg(decoupled_weight_decay, 'decoupled_weight_decay', '_nadam_update_')
    if maximize.__class__ is not bool: maximize = _b.bool_arg(maximize, 'maximize', '_nadam_update_')
    return _op._nadam_update_(param, grad, exp_avg, exp_avg_sq, step, mu, mu_next, mu_product, lr, beta1, beta2, eps, weight_decay, decoupled_weight_decay, maximize)

@_b.checked(_op._radam_update_)
def _radam_update_(param: Tensor, grad: Tensor, exp_avg: Tensor, exp_avg_sq: Tensor, step: int, lr: float, beta1: float, beta2: float, eps: float, weight_decay: float, decoupled_weight_decay: bool, maximize: bool) -> Tensor:
    """_radam_update_(Tensor(a!) param, Tensor grad, Tensor(b!) exp_avg, Tensor(c!) exp_avg_sq, int step, float lr, float beta1, float beta2, float eps, float weight_decay, bool decoupled_weight_decay, bool maximize) -> Tensor(a!)
    """
    if step.__class__ is not int or not -9223372036854775808 <= step <= 9223372036854775807: step = _b.int_arg(step, 'step', '_radam_update_')
    if lr.__class__ is not float: lr = _b.float_arg(lr, 'lr', '_radam_update_')
    if beta1.__class__ is not float: beta1 = _b.float_arg(beta1, 'beta1', '_radam_update_')
    if beta2.__class__ is not float: beta2 = _b.float_arg(beta2, 'beta2', '_radam_update_')
    if eps.__class__ is not float: eps = _b.float_arg(eps, 'eps', '_radam_update_')
    if weight_decay.__class__ is not float: weight_decay = _b.float_arg(weight_decay, 'weight_decay', '_radam_update_')
    if decoupled_weight_decay.__class__ is not bool: decoupled_weight_decay = _b.bool_arg(decoupled_weight_decay, 'decoupled_weight_decay', '_radam_update_')
    if maximize.__class__ is not bool: maximize = _b.bool_arg(maximize, 'maximize', '_radam_update_')
    return _op._radam_update_(param, grad, exp_avg, exp_avg_sq, step, lr, beta1, beta2, eps, weight_decay, decoupled_weight_decay, maximize)

@_b.checked(_op._asgd_update_)
def _asgd_update_(param: Tensor, grad: Tensor, ax: Tensor, eta: float, mu: float, lambd: float, weight_decay: float, maximize: bool) -> Tensor:
    """_asgd_update_(Tensor(a!) param, Tensor grad, Tensor(b!) ax, float eta, float mu, float lambd, float weight_decay, bool maximize) -> Tensor(a!)
    """
    if eta.__class__ is not float: eta = _b.float_arg(eta, 'eta', '_asgd_update_')
    if mu.__class__ is not float: mu = _b.float_arg(mu, 'mu', '_asgd_update_')
    if lambd.__class__ is not float: lambd = _b.float_arg(lambd, 'lambd', '_asgd_update_')
    if weight_decay.__class__ is not float: weight_decay = _b.float_arg(weight_decay, 'weight_decay', '_asgd_update_')
    if maximize.__class__ is not bool: maximize = _b.bool_arg(maximize, 'maximize', '_asgd_update_')
    return _op._asgd_update_(param, grad, ax, eta, mu, lambd, weight_decay, maximize)

@_b.checked(_op._rprop_update_)
def _rprop_update_(param: Tensor, grad: Tensor, prev: Tensor, step_size: Tensor, etaminus: float, etaplus: float, step_size_min: float, step_size_max: float, maximize: bool) -> Tensor:
    """_rprop_update_(Tensor(a!) param, Tensor grad, Tensor(b!) prev, Tensor(c!) step_size, float etaminus, float etaplus, float step_size_min, float step_size_max, bool maximize) -> Tensor(a!)
    """
    if etaminus.__class__ is not float: etaminus = _b.float_arg(etaminus, 'etaminus', '_rprop_update_')
    if etaplus.__class__ is not float: etaplus = _b.float_arg(etaplus, 'etaplus', '_rprop_update_')
    if step_size_min.__class__ is not float: step_size_min = _b.float_arg(step_size_min, 'step_size_min', '_rprop_update_')
    if step_size_max.__class__ is not float: step_size_max = _b.float_arg(step_size_max, 'step_size_max', '_rprop_update_')
    if maximize.__class__ is not bool: maximize = _b.bool_arg(maximize, 'maximize', '_rprop_update_')
    return _op._rprop_update_(param, grad, prev, step_size, etaminus, etaplus, step_size_min, step_size_max, maximize)

@_b.checked(_op._adafactor_update_)
def _adafactor_update_(param: Tensor, grad: Tensor, row_var: Tensor | None, col_var: Tensor | None, variance: Tensor | None, step: int, lr: float, beta2_decay: float, eps1: float, eps2: float, d: float, weight_decay: float, maximize: bool) -> Tensor:
    """_adafactor_update_(Tensor(a!) param, Tensor grad, Tensor(b!)? row_var, Tensor(c!)? col_var, Tensor(d!)? variance, int step, float lr, float beta2_decay, float eps1, float eps2, float d, float weight_decay, bool maximize) -> Tensor(a!)
    """
    if step.__class__ is not int or not -9223372036854775808 <= step <= 9223372036854775807: step = _b.int_arg(step, 'step', '_adafactor_update_')
    if lr.__class__ is not float: lr = _b.float_arg(lr, 'lr', '_adafactor_update_')
    if beta2_decay.__class__ is not float: beta2_decay = _b.float_arg(beta2_decay, 'beta2_decay', '_adafactor_update_')
    if eps1.__class__ is not float: eps1 = _b.float_arg(eps1, 'eps1', '_adafactor_update_')
    if eps2.__class__ is not float: eps2 = _b.float_arg(eps2, 'eps2', '_adafactor_update_')
    if d.__class__ is not float: d = _b.float_arg(d, 'd', '_adafactor_update_')
    if weight_decay.__class__ is not float: weight_decay = _b.float_arg(weight_decay, 'weight_decay', '_adafactor_update_')
    if maximize.__class__ is not bool: maximize = _b.bool_arg(maximize, 'maximize', '_adafactor_update_')
    return _op._adafactor_update_(param, grad, row_var, col_var, variance, step, lr, beta2_decay, eps1, eps2, d, weight_decay, maximize)

@_b.checked(_op._muon_update_)
def _muon_update_(param: Tensor, grad: Tensor, momentum_buffer: Tensor, lr: float, adjusted_lr: float, weight_decay: float, momentum: float, nesterov: bool, ns_coefficients: int | Sequence[float], ns_steps: int, eps: float) -> Tensor:
    """_muon_update_(Tensor(a!) param, Tensor grad, Tensor(b!) momentum_buffer, float lr, float adjusted_lr, float weight_decay, float momentum, bool nesterov, float[] ns_coefficients, int ns_steps, float eps) -> Tensor(a!)
    """
    if lr.__class__ is not float: lr = _b.float_arg(lr, 'lr', '_muon_update_')
    if adjusted_lr.__class__ is not float: adjusted_lr = _b.float_arg(adjusted_lr, 'adjusted_lr', '_muon_update_')
    if weight_decay.__class__ is not float: weight_decay = _b.float_arg(weight_decay, 'weight_decay', '_muon_update_')
    if momentum.__class__ is not float: momentum = _b.float_arg(momentum, 'momentum', '_muon_update_')
    if nesterov.__class__ is not bool: nesterov = _b.bool_arg(nesterov, 'nesterov', '_muon_update_')
    if ns_steps.__class__ is not int or not -9223372036854775808 <= ns_steps <= 9223372036854775807: ns_steps = _b.int_arg(ns_steps, 'ns_steps', '_muon_update_')
    if eps.__class__ is not float: eps = _b.float_arg(eps, 'eps', '_muon_update_')
    return _op._muon_update_(param, grad, momentum_buffer, lr, adjusted_lr, weight_decay, momentum, nesterov, ns_coefficients, ns_steps, eps)


__all__ = [
    'abs',
    'absolute',
    'neg',
    'negative',
    'positive',
    'exp',
    'exp2',
    'expm1',
    'log',
    'log2',
    'log10',
    'log1p',
    'sqrt',
    'rsqrt',
    'sin',
    'cos',
    'tan',
    'asin',
    'arcsin',
    'acos',
    'arccos',
    'atan',
    'arctan',
    'sinh',
    'cosh',
    'tanh',
    'tanh_backward',
    'sigmoid',
    'sigmoid_backward',
    'relu',
    'threshold_backward',
    'relu6',
    'gelu',
    'gelu_backward',
    'silu',
    'silu_backward',
    'mish',
    'softplus',
    'softplus_backward',
    'elu',
    'elu_backward',
    'selu',
    'leaky_relu',
    'leaky_relu_backward',
    'hardtanh',
    'hardtanh_backward',
    'hardsigmoid',
    'hardswish',
    'logsigmoid',
    'log_sigmoid_backward',
    'softsign',
    'erf',
    'erfc',
    'erfinv',
    'sign',
    'floor',
    'ceil',
    'round',
    'trunc',
    'fix',
    'frac',
    'reciprocal',
    'square',
    'clamp',
    'clip',
    'isnan',
    'isinf',
    'isfinite',
    'signbit',
    'nan_to_num',
    'logical_not',
    'bitwise_not',
    'add',
    'sub',
    'subtract',
    'mul',
    'multiply',
    'div',
    'true_divide',
    'divide',
    'floor_divide',
    'pow',
    'float_power',
    'maximum',
    'minimum',
    'fmax',
    'fmin',
    'remainder',
    'fmod',
    'atan2',
    'arctan2',
    'hypot',
    'copysign',
    'xlogy',
    'logaddexp',
    'eq',
    'ne',
    'not_equal',
    'lt',
    'less',
    'le',
    'less_equal',
    'gt',
    'greater',
    'ge',
    'greater_equal',
    'equal',
    'allclose',
    'isclose',
    'logical_and',
    'logical_or',
    'logical_xor',
    'bitwise_and',
    'bitwise_or',
    'bitwise_xor',
    'bitwise_left_shift',
    'bitwise_right_shift',
    'where',
    'lerp',
    'addcmul',
    'addcdiv',
    'acosh',
    'arccosh',
    'asinh',
    'arcsinh',
    'atanh',
    'arctanh',
    'deg2rad',
    'rad2deg',
    'sinc',
    'sgn',
    'logit',
    'lgamma',
    'digamma',
    'polygamma',
    'mvlgamma',
    'i0',
    'i0e',
    'i1',
    'i1e',
    'ndtr',
    'ndtri',
    'log_ndtr',
    'erfcx',
    'entr',
    'xlog1py',
    'zeta',
    'igamma',
    'igammac',
    'airy_ai',
    'bessel_j0',
    'bessel_j1',
    'bessel_y0',
    'bessel_y1',
    'modified_bessel_i0',
    'modified_bessel_i1',
    'modified_bessel_k0',
    'modified_bessel_k1',
    'scaled_modified_bessel_k0',
    'scaled_modified_bessel_k1',
    'spherical_bessel_j0',
    'chebyshev_polynomial_t',
    'chebyshev_polynomial_u',
    'chebyshev_polynomial_v',
    'chebyshev_polynomial_w',
    'shifted_chebyshev_polynomial_t',
    'shifted_chebyshev_polynomial_u',
    'shifted_chebyshev_polynomial_v',
    'shifted_chebyshev_polynomial_w',
    'hermite_polynomial_h',
    'hermite_polynomial_he',
    'laguerre_polynomial_l',
    'legendre_polynomial_p',
    'frexp',
    'ldexp',
    'heaviside',
    'nextafter',
    'gcd',
    'lcm',
    'logaddexp2',
    'angle',
    'isposinf',
    'isneginf',
    'isreal',
    'real',
    'conj',
    'conj_physical',
    'resolve_conj',
    'resolve_neg',
    'clamp_min',
    'clamp_max',
    'rsub',
    'sum',
    'nansum',
    'mean',
    'prod',
    'max',
    'min',
    'amax',
    'amin',
    'aminmax',
    'argmax',
    'argmin',
    'var',
    'std',
    'var_mean',
    'std_mean',
    'vector_norm',
    'norm',
    'dist',
    'logsumexp',
    'all',
    'any',
    'count_nonzero',
    'cumsum',
    '_cumsum_backward',
    'cumprod',
    'median',
    'cummax',
    'cummin',
    'logcumsumexp',
    'nanmean',
    'nanmedian',
    'quantile',
    'nanquantile',
    'kthvalue',
    'mode',
    'msort',
    'histc',
    'histogram',
    'histogramdd',
    'bucketize',
    'isin',
    'unique_consecutive',
    'matmul',
    'mm',
    'bmm',
    'addmm',
    'addmv',
    'baddbmm',
    'einsum',
    'outer',
    'ger',
    'dot',
    'mv',
    'trace',
    'tensordot',
    'linalg_inv_ex',
    'linalg_inv',
    'inverse',
    'linalg_solve_ex',
    'linalg_solve',
    'linalg_det',
    'det',
    'linalg_slogdet',
    'slogdet',
    'logdet',
    'linalg_cholesky_ex',
    'linalg_cholesky',
    'cholesky',
    'cholesky_solve',
    'cholesky_inverse',
    'linalg_qr',
    'qr',
    '_linalg_svd',
    'linalg_svd',
    'svd_lowrank',
    'pca_lowrank',
    'linalg_svdvals',
    'svd',
    '_linalg_eigh',
    'linalg_eigh',
    'linalg_eigvalsh',
    'linalg_solve_triangular',
    'triangular_solve',
    'linalg_lu_factor_ex',
    'linalg_lu_factor',
    '_lu_permutation',
    'lu_unpack',
    'linalg_lu',
    'lu',
    'linalg_lu_solve',
    'lu_solve',
    'geqrf',
    'linalg_householder_product',
    'orgqr',
    'ormqr',
    'linalg_ldl_factor_ex',
    'linalg_ldl_factor',
    'linalg_ldl_solve',
    'matrix_exp',
    'linalg_matrix_exp',
    'linalg_matrix_power',
    'matrix_power',
    'linalg_multi_dot',
    'linalg_matrix_norm',
    'linalg_cond',
    'linalg_pinv',
    'pinverse',
    'linalg_matrix_rank',
    'linalg_lstsq',
    'linalg_tensorinv',
    'linalg_tensorsolve',
    'linalg_vecdot',
    'linalg_diagonal',
    'linalg_cross',
    'cross',
    'linalg_vander',
    'addbmm',
    'addr',
    'vdot',
    'inner',
    'kron',
    'block_diag',
    'cartesian_prod',
    'combinations',
    'cdist',
    'pdist',
    'cov',
    'corrcoef',
    'diagflat',
    'trapezoid',
    'trapz',
    'cumulative_trapezoid',
    'renorm',
    'as_strided',
    'permute',
    'transpose',
    'swapdims',
    'swapaxes',
    't',
    'squeeze',
    'unsqueeze',
    'broadcast_to',
    'narrow',
    'slice',
    'slice_backward',
    'select',
    'select_backward',
    'unfold_backward',
    'diagonal',
    'diagonal_backward',
    'as_strided_scatter',
    'split',
    'chunk',
    'unbind',
    'movedim',
    'moveaxis',
    'alias',
    'reshape',
    'flatten',
    'unflatten',
    'ravel',
    'clone',
    'resize_as_',
    'detach',
    'cat',
    'concatenate',
    'concat',
    'stack',
    'hstack',
    'vstack',
    'row_stack',
    'flip',
    'roll',
    'tile',
    'tril',
    'triu',
    'diag',
    'diag_embed',
    'meshgrid',
    'pad',
    'pad_backward',
    'unsafe_chunk',
    'unsafe_split',
    'split_with_sizes',
    'split_with_sizes_copy',
    'unbind_copy',
    'tensor_split',
    'hsplit',
    'vsplit',
    'dsplit',
    'expand_copy',
    'alias_copy',
    'as_strided_copy',
    'diagonal_copy',
    'narrow_copy',
    'view_copy',
    'permute_copy',
    'squeeze_copy',
    'unsqueeze_copy',
    'transpose_copy',
    't_copy',
    'unfold_copy',
    'diagonal_scatter',
    'select_scatter',
    'slice_scatter',
    'fliplr',
    'flipud',
    'rot90',
    'atleast_1d',
    'atleast_2d',
    'atleast_3d',
    'column_stack',
    'dstack',
    '_chunk_cat',
    'diff',
    'gradient',
    'fill',
    '_native_batch_norm_legit',
    '_batch_norm_with_update',
    'fftshift',
    'ifftshift',
    'sort',
    'argsort',
    'topk',
    'gather',
    'gather_backward',
    'take_along_dim',
    'scatter',
    'scatter_add',
    'index_select',
    'index_select_backward',
    'index_add',
    'index',
    'index_put',
    'masked_fill',
    'masked_select',
    'masked_scatter',
    'nonzero',
    'one_hot',
    'unique',
    'bincount',
    'searchsorted',
    'take',
    'put',
    'index_fill',
    'index_copy',
    'scatter_reduce',
    'scatter_reduce_backward',
    'index_reduce',
    'repeat_interleave',
    'argwhere',
    'nonzero_static',
    'unravel_index',
    '_unsafe_masked_index',
    '_unsafe_masked_index_put_accumulate',
    'softmax',
    '_softmax_backward_data',
    'log_softmax',
    '_log_softmax_backward_data',
    'linear',
    'bilinear',
    'convolution',
    'convolution_backward',
    'conv1d',
    'conv2d',
    'conv3d',
    'conv_transpose1d',
    'conv_transpose2d',
    'max_pool_with_indices',
    'max_pool_backward',
    'max_pool1d',
    'max_pool2d',
    'max_pool2d_with_indices',
    'avg_pool',
    'avg_pool_backward',
    'avg_pool1d',
    'avg_pool2d',
    'adaptive_avg_pool',
    'adaptive_avg_pool_backward',
    'adaptive_max_pool',
    'adaptive_avg_pool1d',
    'adaptive_avg_pool2d',
    'adaptive_max_pool1d',
    'adaptive_max_pool2d',
    'embedding',
    'embedding_backward',
    'dropout',
    'native_batch_norm',
    'native_batch_norm_backward',
    'batch_norm',
    'native_layer_norm',
    'native_layer_norm_backward',
    'layer_norm',
    'native_group_norm',
    'native_group_norm_backward',
    'group_norm',
    'rms_norm',
    'cross_entropy',
    'nll_loss',
    'mse_loss',
    'l1_loss',
    'smooth_l1_loss',
    'huber_loss',
    'binary_cross_entropy',
    'binary_cross_entropy_with_logits',
    'kl_div',
    'cosine_similarity',
    'pairwise_distance',
    'normalize',
    'scaled_dot_product_attention',
    '_scaled_dot_product_attention_flash',
    '_scaled_dot_product_attention_flash_backward',
    '_rnn_layer',
    '_rnn_layer_backward',
    '_nll_loss',
    '_nll_loss_backward',
    'glu',
    'celu',
    'prelu',
    'rrelu',
    'tanhshrink',
    'threshold',
    'softshrink',
    'hardshrink',
    'channel_shuffle',
    'constant_pad_nd',
    'native_dropout_backward',
    'max_pool2d_with_indices_backward',
    'max_pool3d',
    'max_pool3d_with_indices',
    'avg_pool3d',
    'adaptive_avg_pool3d',
    'adaptive_max_pool3d',
    'conv_transpose3d',
    'im2col',
    'col2im',
    'max_unpool',
    'feature_dropout',
    'alpha_dropout',
    'feature_alpha_dropout',
    'local_response_norm',
    'soft_margin_loss',
    'margin_ranking_loss',
    'hinge_embedding_loss',
    'cosine_embedding_loss',
    'poisson_nll_loss',
    'gaussian_nll_loss',
    'triplet_margin_loss',
    'multi_margin_loss',
    'multilabel_margin_loss',
    'multilabel_soft_margin_loss',
    'fractional_max_pool2d',
    'fractional_max_pool3d',
    '_embedding_bag_reduce',
    'grid_sampler',
    'grid_sampler_2d',
    'grid_sampler_3d',
    'ctc_loss',
    'zeros_like',
    'ones_like',
    'full_like',
    'empty_like',
    'rand_like',
    'randn_like',
    'randint_like',
    'bernoulli',
    'multinomial',
    '_sgd_update_',
    '_adam_update_',
    '_rmsprop_update_',
    '_adagrad_update_',
    '_adadelta_update_',
    '_adamax_update_',
    '_nadam_update_',
    '_radam_update_',
    '_asgd_update_',
    '_rprop_update_',
    '_adafactor_update_',
    '_muon_update_',
]


NAMESPACES = {
    'volta': ('abs', 'absolute', 'neg', 'negative', 'positive', 'exp', 'exp2', 'expm1', 'log', 'log2', 'log10', 'log1p', 'sqrt', 'rsqrt', 'sin', 'cos', 'tan', 'asin', 'arcsin', 'acos', 'arccos', 'atan', 'arctan', 'sinh', 'cosh', 'tanh', 'tanh_backward', 'sigmoid', 'sigmoid_backward', 'relu', 'threshold_backward', 'gelu', 'gelu_backward', 'silu_backward', 'softplus_backward', 'elu_backward', 'selu', 'leaky_relu_backward', 'hardtanh_backward', 'log_sigmoid_backward', 'erf', 'erfc', 'erfinv', 'sign', 'floor', 'ceil', 'round', 'trunc', 'fix', 'frac', 'reciprocal', 'square', 'clamp', 'clip', 'isnan', 'isinf', 'isfinite', 'signbit', 'nan_to_num', 'logical_not', 'bitwise_not', 'add', 'sub', 'subtract', 'mul', 'multiply', 'div', 'true_divide', 'divide', 'floor_divide', 'pow', 'float_power', 'maximum', 'minimum', 'fmax', 'fmin', 'remainder', 'fmod', 'atan2', 'arctan2', 'hypot', 'copysign', 'xlogy', 'logaddexp', 'eq', 'ne', 'not_equal', 'lt', 'less', 'le', 'less_equal', 'gt', 'greater', 'ge', 'greater_equal', 'equal', 'allclose', 'isclose', 'logical_and', 'logical_or', 'logical_xor', 'bitwise_and', 'bitwise_or', 'bitwise_xor', 'bitwise_left_shift', 'bitwise_right_shift', 'where', 'lerp', 'addcmul', 'addcdiv', 'acosh', 'arccosh', 'asinh', 'arcsinh', 'atanh', 'arctanh', 'deg2rad', 'rad2deg', 'sinc', 'sgn', 'logit', 'lgamma', 'digamma', 'polygamma', 'mvlgamma', 'i0', 'igamma', 'igammac', 'frexp', 'ldexp', 'heaviside', 'nextafter', 'gcd', 'lcm', 'logaddexp2', 'angle', 'isposinf', 'isneginf', 'isreal', 'real', 'conj', 'conj_physical', 'resolve_conj', 'resolve_neg', 'clamp_min', 'clamp_max', 'rsub', 'sum', 'nansum', 'mean', 'prod', 'max', 'min', 'amax', 'amin', 'aminmax', 'argmax', 'argmin', 'var', 'std', 'var_mean', 'std_mean', 'norm', 'dist', 'logsumexp', 'all', 'any', 'count_nonzero', 'cumsum', '_cumsum_backward', 'cumprod', 'median', 'cummax', 'cummin', 'logcumsumexp', 'nanmean', 'nanmedian', 'quantile', 'nanquantile', 'kthvalue', 'mode', 'msort', 'histc', 'histogram', 'histogramdd', 'bucketize', 'isin', 'unique_consecutive', 'matmul', 'mm', 'bmm', 'addmm', 'addmv', 'baddbmm', 'einsum', 'outer', 'ger', 'dot', 'mv', 'trace', 'tensordot', 'inverse', 'det', 'slogdet', 'logdet', 'cholesky', 'cholesky_solve', 'cholesky_inverse', 'qr', '_linalg_svd', 'svd_lowrank', 'pca_lowrank', 'svd', '_linalg_eigh', 'triangular_solve', '_lu_permutation', 'lu_unpack', 'lu', 'lu_solve', 'geqrf', 'orgqr', 'ormqr', 'matrix_exp', 'matrix_power', 'pinverse', 'cross', 'addbmm', 'addr', 'vdot', 'inner', 'kron', 'block_diag', 'cartesian_prod', 'combinations', 'cdist', 'pdist', 'cov', 'corrcoef', 'diagflat', 'trapezoid', 'trapz', 'cumulative_trapezoid', 'renorm', 'as_strided', 'permute', 'transpose', 'swapdims', 'swapaxes', 't', 'squeeze', 'unsqueeze', 'broadcast_to', 'narrow', 'slice', 'slice_backward', 'select', 'select_backward', 'unfold_backward', 'diagonal', 'diagonal_backward', 'as_strided_scatter', 'split', 'chunk', 'unbind', 'movedim', 'moveaxis', 'alias', 'reshape', 'flatten', 'unflatten', 'ravel', 'clone', 'resize_as_', 'detach', 'cat', 'concatenate', 'concat', 'stack', 'hstack', 'vstack', 'row_stack', 'flip', 'roll', 'tile', 'tril', 'triu', 'diag', 'diag_embed', 'meshgrid', 'pad_backward', 'unsafe_chunk', 'unsafe_split', 'split_with_sizes', 'split_with_sizes_copy', 'unbind_copy', 'tensor_split', 'hsplit', 'vsplit', 'dsplit', 'expand_copy', 'alias_copy', 'as_strided_copy', 'diagonal_copy', 'narrow_copy', 'view_copy', 'permute_copy', 'squeeze_copy', 'unsqueeze_copy', 'transpose_copy', 't_copy', 'unfold_copy', 'diagonal_scatter', 'select_scatter', 'slice_scatter', 'fliplr', 'flipud', 'rot90', 'atleast_1d', 'atleast_2d', 'atleast_3d', 'column_stack', 'dstack', '_chunk_cat', 'diff', 'gradient', 'fill', '_native_batch_norm_legit', '_batch_norm_with_update', 'sort', 'argsort', 'topk', 'gather', 'gather_backward', 'take_along_dim', 'scatter', 'scatter_add', 'index_select', 'index_select_backward', 'index_add', 'index', 'index_put', 'masked_fill', 'masked_select', 'masked_scatter', 'nonzero', 'unique', 'bincount', 'searchsorted', 'take', 'put', 'index_fill', 'index_copy', 'scatter_reduce', 'scatter_reduce_backward', 'index_reduce', 'repeat_interleave', 'argwhere', 'nonzero_static', 'unravel_index', '_unsafe_masked_index', '_unsafe_masked_index_put_accumulate', 'softmax', '_softmax_backward_data', 'log_softmax', '_log_softmax_backward_data', 'bilinear', 'convolution', 'convolution_backward', 'conv1d', 'conv2d', 'conv3d', 'conv_transpose1d', 'conv_transpose2d', 'max_pool_with_indices', 'max_pool_backward', 'max_pool1d', 'max_pool2d', 'avg_pool', 'avg_pool_backward', 'avg_pool1d', 'avg_pool2d', 'adaptive_avg_pool', 'adaptive_avg_pool_backward', 'adaptive_max_pool', 'adaptive_avg_pool1d', 'adaptive_max_pool1d', 'embedding', 'embedding_backward', 'dropout', 'native_batch_norm', 'native_batch_norm_backward', 'batch_norm', 'native_layer_norm', 'native_layer_norm_backward', 'layer_norm', 'native_group_norm', 'native_group_norm_backward', 'group_norm', 'rms_norm', 'cross_entropy', 'nll_loss', 'mse_loss', 'l1_loss', 'smooth_l1_loss', 'huber_loss', 'binary_cross_entropy', 'binary_cross_entropy_with_logits', 'kl_div', 'cosine_similarity', 'pairwise_distance', '_scaled_dot_product_attention_flash', '_scaled_dot_product_attention_flash_backward', '_rnn_layer', '_rnn_layer_backward', '_nll_loss', '_nll_loss_backward', 'celu', 'prelu', 'rrelu', 'threshold', 'hardshrink', 'channel_shuffle', 'constant_pad_nd', 'native_dropout_backward', 'max_pool2d_with_indices_backward', 'max_pool3d', 'conv_transpose3d', 'im2col', 'col2im', 'max_unpool', 'feature_dropout', 'alpha_dropout', 'feature_alpha_dropout', 'soft_margin_loss', 'margin_ranking_loss', 'hinge_embedding_loss', 'cosine_embedding_loss', 'poisson_nll_loss', 'gaussian_nll_loss', 'triplet_margin_loss', 'multi_margin_loss', 'multilabel_margin_loss', 'multilabel_soft_margin_loss', 'fractional_max_pool2d', 'fractional_max_pool3d', '_embedding_bag_reduce', 'grid_sampler', 'grid_sampler_2d', 'grid_sampler_3d', 'ctc_loss', 'zeros_like', 'ones_like', 'full_like', 'empty_like', 'rand_like', 'randn_like', 'randint_like', 'bernoulli', 'multinomial', '_sgd_update_', '_adam_update_', '_rmsprop_update_', '_adagrad_update_', '_adadelta_update_', '_adamax_update_', '_nadam_update_', '_radam_update_', '_asgd_update_', '_rprop_update_', '_adafactor_update_', '_muon_update_'),
    'nn.functional': ('tanh', 'sigmoid', 'relu6', 'gelu', 'silu', 'mish', 'softplus', 'elu', 'selu', 'leaky_relu', 'hardtanh', 'hardsigmoid', 'hardswish', 'logsigmoid', 'softsign', 'pdist', 'pad', 'one_hot', 'softmax', 'log_softmax', 'linear', 'bilinear', 'conv1d', 'conv2d', 'conv3d', 'conv_transpose1d', 'conv_transpose2d', 'max_pool1d', 'max_pool2d', 'max_pool2d_with_indices', 'avg_pool1d', 'avg_pool2d', 'adaptive_avg_pool1d', 'adaptive_avg_pool2d', 'adaptive_max_pool1d', 'adaptive_max_pool2d', 'layer_norm', 'group_norm', 'rms_norm', 'cosine_similarity', 'pairwise_distance', 'normalize', 'scaled_dot_product_attention', 'glu', 'celu', 'prelu', 'rrelu', 'tanhshrink', 'threshold', 'softshrink', 'hardshrink', 'channel_shuffle', 'max_pool3d', 'max_pool3d_with_indices', 'avg_pool3d', 'adaptive_avg_pool3d', 'adaptive_max_pool3d', 'conv_transpose3d', 'local_response_norm'),
    'special': ('erf', 'erfc', 'erfinv', 'xlogy', 'sinc', 'logit', 'digamma', 'polygamma', 'i0', 'i0e', 'i1', 'i1e', 'ndtr', 'ndtri', 'log_ndtr', 'erfcx', 'entr', 'xlog1py', 'zeta', 'airy_ai', 'bessel_j0', 'bessel_j1', 'bessel_y0', 'bessel_y1', 'modified_bessel_i0', 'modified_bessel_i1', 'modified_bessel_k0', 'modified_bessel_k1', 'scaled_modified_bessel_k0', 'scaled_modified_bessel_k1', 'spherical_bessel_j0', 'chebyshev_polynomial_t', 'chebyshev_polynomial_u', 'chebyshev_polynomial_v', 'chebyshev_polynomial_w', 'shifted_chebyshev_polynomial_t', 'shifted_chebyshev_polynomial_u', 'shifted_chebyshev_polynomial_v', 'shifted_chebyshev_polynomial_w', 'hermite_polynomial_h', 'hermite_polynomial_he', 'laguerre_polynomial_l', 'legendre_polynomial_p', 'softmax', 'log_softmax'),
    'linalg': ('vector_norm', 'linalg_inv_ex', 'linalg_inv', 'linalg_solve_ex', 'linalg_solve', 'linalg_det', 'linalg_slogdet', 'linalg_cholesky_ex', 'linalg_cholesky', 'linalg_qr', 'linalg_svd', 'linalg_svdvals', 'linalg_eigh', 'linalg_eigvalsh', 'linalg_solve_triangular', 'linalg_lu_factor_ex', 'linalg_lu_factor', 'linalg_lu', 'linalg_lu_solve', 'linalg_householder_product', 'linalg_ldl_factor_ex', 'linalg_ldl_factor', 'linalg_ldl_solve', 'linalg_matrix_exp', 'linalg_matrix_power', 'linalg_multi_dot', 'linalg_matrix_norm', 'linalg_cond', 'linalg_pinv', 'linalg_matrix_rank', 'linalg_lstsq', 'linalg_tensorinv', 'linalg_tensorsolve', 'linalg_vecdot', 'linalg_diagonal', 'linalg_cross', 'linalg_vander'),
    'fft': ('fftshift', 'ifftshift'),
}
