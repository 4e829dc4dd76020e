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


def abs(input: Tensor | Number) -> Tensor:
    """abs(Tensor self) -> Tensor
    """
    return _op.abs(input)

def neg(input: Tensor | Number) -> Tensor:
    """neg(Tensor self) -> Tensor
    """
    return _op.neg(input)

def positive(input: Tensor) -> Tensor:
    """positive(Tensor self) -> Tensor
    """
    return _op.positive(input)

def exp(input: Tensor | Number) -> Tensor:
    """exp(Tensor self) -> Tensor
    """
    return _op.exp(input)

def exp2(input: Tensor | Number) -> Tensor:
    """exp2(Tensor self) -> Tensor
    """
    return _op.exp2(input)

def expm1(input: Tensor | Number) -> Tensor:
    """expm1(Tensor self) -> Tensor
    """
    return _op.expm1(input)

def log(input: Tensor | Number) -> Tensor:
    """log(Tensor self) -> Tensor
    """
    return _op.log(input)

def log2(input: Tensor | Number) -> Tensor:
    """log2(Tensor self) -> Tensor
    """
    return _op.log2(input)

def log10(input: Tensor | Number) -> Tensor:
    """log10(Tensor self) -> Tensor
    """
    return _op.log10(input)

def log1p(input: Tensor | Number) -> Tensor:
    """log1p(Tensor self) -> Tensor
    """
    return _op.log1p(input)

def sqrt(input: Tensor | Number) -> Tensor:
    """sqrt(Tensor self) -> Tensor
    """
    return _op.sqrt(input)

def rsqrt(input: Tensor | Number) -> Tensor:
    """rsqrt(Tensor self) -> Tensor
    """
    return _op.rsqrt(input)

def sin(input: Tensor | Number) -> Tensor:
    """sin(Tensor self) -> Tensor
    """
    return _op.sin(input)

def cos(input: Tensor | Number) -> Tensor:
    """cos(Tensor self) -> Tensor
    """
    return _op.cos(input)

def tan(input: Tensor | Number) -> Tensor:
    """tan(Tensor self) -> Tensor
    """
    return _op.tan(input)

def asin(input: Tensor | Number) -> Tensor:
    """asin(Tensor self) -> Tensor
    """
    return _op.asin(input)

def acos(input: Tensor | Number) -> Tensor:
    """acos(Tensor self) -> Tensor
    """
    return _op.acos(input)

def atan(input: Tensor | Number) -> Tensor:
    """atan(Tensor self) -> Tensor
    """
    return _op.atan(input)

def sinh(input: Tensor | Number) -> Tensor:
    """sinh(Tensor self) -> Tensor
    """
    return _op.sinh(input)

def cosh(input: Tensor | Number) -> Tensor:
    """cosh(Tensor self) -> Tensor
    """
    return _op.cosh(input)

def tanh(input: Tensor | Number) -> Tensor:
    """tanh(Tensor self) -> Tensor
    """
    return _op.tanh(input)

def tanh_backward(grad_output: Tensor | Number, output: Tensor | Number) -> Tensor:
    """tanh_backward(Tensor grad_output, Tensor output) -> Tensor
    """
    return _op.tanh_backward(grad_output, output)

def sigmoid(input: Tensor | Number) -> Tensor:
    """sigmoid(Tensor self) -> Tensor
    """
    return _op.sigmoid(input)

def sigmoid_backward(grad_output: Tensor | Number, output: Tensor | Number) -> Tensor:
    """sigmoid_backward(Tensor grad_output, Tensor output) -> Tensor
    """
    return _op.sigmoid_backward(grad_output, output)

def relu(input: Tensor | Number) -> Tensor:
    """relu(Tensor self) -> Tensor
    """
    return _op.relu(input)

def threshold_backward(grad_output: Tensor | Number, input: Tensor | Number, threshold: Number) -> Tensor:
    """threshold_backward(Tensor grad_output, Tensor self, Scalar threshold) -> Tensor
    """
    return _op.threshold_backward(grad_output, input, threshold)

def relu6(input: Tensor | Number) -> Tensor:
    """relu6(Tensor self) -> Tensor
    """
    return _op.relu6(input)

def gelu(input: Tensor | Number, *, approximate: str = 'none') -> Tensor:
    """gelu(Tensor self, *, str approximate="none") -> Tensor
    """
    return _op.gelu(input, approximate)

def gelu_backward(grad_output: Tensor | Number, input: Tensor | Number, *, approximate: str = 'none') -> Tensor:
    """gelu_backward(Tensor grad_output, Tensor self, *, str approximate="none") -> Tensor
    """
    return _op.gelu_backward(grad_output, input, approximate)

def silu(input: Tensor | Number) -> Tensor:
    """silu(Tensor self) -> Tensor
    """
    return _op.silu(input)

def silu_backward(grad_output: Tensor | Number, input: Tensor | Number) -> Tensor:
    """silu_backward(Tensor grad_output, Tensor self) -> Tensor
    """
    return _op.silu_backward(grad_output, input)

def mish(input: Tensor | Number) -> Tensor:
    """mish(Tensor self) -> Tensor
    """
    return _op.mish(input)

def softplus(input: Tensor | Number, beta: Number = 1, threshold: Number = 20) -> Tensor:
    """softplus(Tensor self, Scalar beta=1, Scalar threshold=20) -> Tensor
    """
    return _op.softplus(input, beta, threshold)

def softplus_backward(grad_output: Tensor | Number, input: Tensor | Number, beta: Number, threshold: Number) -> Tensor:
    """softplus_backward(Tensor grad_output, Tensor self, Scalar beta, Scalar threshold) -> Tensor
    """
    return _op.softplus_backward(grad_output, input, beta, threshold)

def elu(input: Tensor | Number, alpha: Number = 1, scale: Number = 1, input_scale: Number = 1) -> Tensor:
    """elu(Tensor self, Scalar alpha=1, Scalar scale=1, Scalar input_scale=1) -> Tensor
    """
    return _op.elu(input, alpha, scale, input_scale)

def elu_backward(grad_output: Tensor | Number, alpha: Number, scale: Number, input_scale: Number, is_result: bool, self_or_result: Tensor | Number) -> Tensor:
    """elu_backward(Tensor grad_output, Scalar alpha, Scalar scale, Scalar input_scale, bool is_result, Tensor self_or_result) -> Tensor
    """
    return _op.elu_backward(grad_output, alpha, scale, input_scale, is_result, self_or_result)

def selu(input: Tensor | Number) -> Tensor:
    """selu(Tensor self) -> Tensor
    """
    return _op.selu(input)

def leaky_relu(input: Tensor | Number, negative_slope: Number = 0.01) -> Tensor:
    """leaky_relu(Tensor self, Scalar negative_slope=0.01) -> Tensor
    """
    return _op.leaky_relu(input, negative_slope)

def leaky_relu_backward(grad_output: Tensor | Number, input: Tensor | Number, negative_slope: Number, self_is_result: bool) -> Tensor:
    """leaky_relu_backward(Tensor grad_output, Tensor self, Scalar negative_slope, bool self_is_result) -> Tensor
    """
    return _op.leaky_relu_backward(grad_output, input, negative_slope, self_is_result)

def hardtanh(input: Tensor | Number, min_val: Number = -1, max_val: Number = 1) -> Tensor:
    """hardtanh(Tensor self, Scalar min_val=-1, Scalar max_val=1) -> Tensor
    """
    return _op.hardtanh(input, min_val, max_val)

def hardtanh_backward(grad_output: Tensor | Number, input: Tensor | Number, min_val: Number, max_val: Number) -> Tensor:
    """hardtanh_backward(Tensor grad_output, Tensor self, Scalar min_val, Scalar max_val) -> Tensor
    """
    return _op.hardtanh_backward(grad_output, input, min_val, max_val)

def hardsigmoid(input: Tensor | Number) -> Tensor:
    """hardsigmoid(Tensor self) -> Tensor
    """
    return _op.hardsigmoid(input)

def hardswish(input: Tensor | Number) -> Tensor:
    """hardswish(Tensor self) -> Tensor
    """
    return _op.hardswish(input)

def logsigmoid(input: Tensor | Number) -> Tensor:
    """logsigmoid(Tensor self) -> Tensor
    """
    return _op.logsigmoid(input)

def log_sigmoid_backward(grad_output: Tensor | Number, input: Tensor | Number) -> Tensor:
    """log_sigmoid_backward(Tensor grad_output, Tensor self) -> Tensor
    """
    return _op.log_sigmoid_backward(grad_output, input)

def softsign(input: Tensor | Number) -> Tensor:
    """softsign(Tensor self) -> Tensor
    """
    return _op.softsign(input)

def erf(input: Tensor | Number) -> Tensor:
    """erf(Tensor self) -> Tensor
    """
    return _op.erf(input)

def erfc(input: Tensor | Number) -> Tensor:
    """erfc(Tensor self) -> Tensor
    """
    return _op.erfc(input)

def erfinv(input: Tensor | Number) -> Tensor:
    """erfinv(Tensor self) -> Tensor
    """
    return _op.erfinv(input)

def sign(input: Tensor | Number) -> Tensor:
    """sign(Tensor self) -> Tensor
    """
    return _op.sign(input)

def floor(input: Tensor | Number) -> Tensor:
    """floor(Tensor self) -> Tensor
    """
    return _op.floor(input)

def ceil(input: Tensor | Number) -> Tensor:
    """ceil(Tensor self) -> Tensor
    """
    return _op.ceil(input)

def round(input: Tensor | Number, *, decimals: int = 0) -> Tensor:
    """round(Tensor self, *, int decimals=0) -> Tensor
    """
    return _op.round(input, decimals)

def trunc(input: Tensor | Number) -> Tensor:
    """trunc(Tensor self) -> Tensor
    """
    return _op.trunc(input)

def frac(input: Tensor | Number) -> Tensor:
    """frac(Tensor self) -> Tensor
    """
    return _op.frac(input)

def reciprocal(input: Tensor | Number) -> Tensor:
    """reciprocal(Tensor self) -> Tensor
    """
    return _op.reciprocal(input)

def square(input: Tensor | Number) -> Tensor:
    """square(Tensor self) -> Tensor
    """
    return _op.square(input)

def clamp(input: Tensor | Number, min: Tensor | Number | None = None, max: Tensor | Number | None = None) -> Tensor:
    """clamp(Tensor self, Tensor? min=None, Tensor? max=None) -> Tensor
    """
    return _op.clamp(input, min, max)

def clip(input: Tensor, min: Tensor | None = None, max: Tensor | None = None) -> Tensor:
    """clip(Tensor self, Tensor? min=None, Tensor? max=None) -> Tensor
    """
    return _op.clip(input, min, max)

def isnan(input: Tensor | Number) -> Tensor:
    """isnan(Tensor self) -> Tensor
    """
    return _op.isnan(input)

def isinf(input: Tensor | Number) -> Tensor:
    """isinf(Tensor self) -> Tensor
    """
    return _op.isinf(input)

def isfinite(input: Tensor | Number) -> Tensor:
    """isfinite(Tensor self) -> Tensor
    """
    return _op.isfinite(input)

def signbit(input: Tensor | Number) -> Tensor:
    """signbit(Tensor self) -> Tensor
    """
    return _op.signbit(input)

def nan_to_num(input: Tensor | Number, nan: float | None = None, posinf: float | None = None, neginf: float | None = None) -> Tensor:
    """nan_to_num(Tensor self, float? nan=None, float? posinf=None, float? neginf=None) -> Tensor
    """
    return _op.nan_to_num(input, nan, posinf, neginf)

def logical_not(input: Tensor | Number) -> Tensor:
    """logical_not(Tensor self) -> Tensor
    """
    return _op.logical_not(input)

def bitwise_not(input: Tensor | Number) -> Tensor:
    """bitwise_not(Tensor self) -> Tensor
    """
    return _op.bitwise_not(input)

def add(input: Tensor | Number, other: Tensor | Number, *, alpha: Number = 1) -> Tensor:
    """add(Tensor self, Tensor other, *, Scalar alpha=1) -> Tensor
    """
    return _op.add(input, other, alpha)

def sub(input: Tensor | Number, other: Tensor | Number, *, alpha: Number = 1) -> Tensor:
    """sub(Tensor self, Tensor other, *, Scalar alpha=1) -> Tensor
    """
    return _op.sub(input, other, alpha)

def subtract(input: Tensor, other: Tensor, *, alpha: Number = 1) -> Tensor:
    """subtract(Tensor self, Tensor other, *, Scalar alpha=1) -> Tensor
    """
    return _op.subtract(input, other, alpha)

def mul(input: Tensor | Number, other: Tensor | Number) -> Tensor:
    """mul(Tensor self, Tensor other) -> Tensor
    """
    return _op.mul(input, other)

def multiply(input: Tensor, other: Tensor) -> Tensor:
    """multiply(Tensor self, Tensor other) -> Tensor
    """
    return _op.multiply(input, other)

def div(input: Tensor | Number, other: Tensor | Number, *, rounding_mode: str | None = None) -> Tensor:
    """div(Tensor self, Tensor other, *, str? rounding_mode=None) -> Tensor
    """
    return _op.div(input, other, rounding_mode)

def true_divide(input: Tensor, other: Tensor) -> Tensor:
    """true_divide(Tensor self, Tensor other) -> Tensor
    """
    return _op.true_divide(input, other)

def divide(input: Tensor, other: Tensor, *, rounding_mode: str | None = None) -> Tensor:
    """divide(Tensor self, Tensor other, *, str? rounding_mode=None) -> Tensor
    """
    return _op.divide(input, other, rounding_mode)

def floor_divide(input: Tensor | Number, other: Tensor | Number) -> Tensor:
    """floor_divide(Tensor self, Tensor other) -> Tensor
    """
    return _op.floor_divide(input, other)

def pow(input: Tensor | Number, exponent: Tensor | Number) -> Tensor:
    """pow(Tensor self, Tensor exponent) -> Tensor
    """
    return _op.pow(input, exponent)

def float_power(input: Tensor, exponent: Tensor) -> Tensor:
    """float_power(Tensor self, Tensor exponent) -> Tensor
    """
    return _op.float_power(input, exponent)

def maximum(input: Tensor | Number, other: Tensor | Number) -> Tensor:
    """maximum(Tensor self, Tensor other) -> Tensor
    """
    return _op.maximum(input, other)

def minimum(input: Tensor | Number, other: Tensor | Number) -> Tensor:
    """minimum(Tensor self, Tensor other) -> Tensor
    """
    return _op.minimum(input, other)

def fmax(input: Tensor | Number, other: Tensor | Number) -> Tensor:
    """fmax(Tensor self, Tensor other) -> Tensor
    """
    return _op.fmax(input, other)

def fmin(input: Tensor | Number, other: Tensor | Number) -> Tensor:
    """fmin(Tensor self, Tensor other) -> Tensor
    """
    return _op.fmin(input, other)

def remainder(input: Tensor | Number, other: Tensor | Number) -> Tensor:
    """remainder(Tensor self, Tensor other) -> Tensor
    """
    return _op.remainder(input, other)

def fmod(input: Tensor | Number, other: Tensor | Number) -> Tensor:
    """fmod(Tensor self, Tensor other) -> Tensor
    """
    return _op.fmod(input, other)

def atan2(input: Tensor | Number, other: Tensor | Number) -> Tensor:
    """atan2(Tensor self, Tensor other) -> Tensor
    """
    return _op.atan2(input, other)

def arctan2(input: Tensor, other: Tensor) -> Tensor:
    """arctan2(Tensor self, Tensor other) -> Tensor
    """
    return _op.arctan2(input, other)

def hypot(input: Tensor | Number, other: Tensor | Number) -> Tensor:
    """hypot(Tensor self, Tensor other) -> Tensor
    """
    return _op.hypot(input, other)

def copysign(input: Tensor | Number, other: Tensor | Number) -> Tensor:
    """copysign(Tensor self, Tensor other) -> Tensor
    """
    return _op.copysign(input, other)

def xlogy(input: Tensor | Number, other: Tensor | Number) -> Tensor:
    """xlogy(Tensor self, Tensor other) -> Tensor
    """
    return _op.xlogy(input, other)

def logaddexp(input: Tensor | Number, other: Tensor | Number) -> Tensor:
    """logaddexp(Tensor self, Tensor other) -> Tensor
    """
    return _op.logaddexp(input, other)

def eq(input: Tensor | Number, other: Tensor | Number) -> Tensor:
    """eq(Tensor self, Tensor other) -> Tensor
    """
    return _op.eq(input, other)

def ne(input: Tensor | Number, other: Tensor | Number) -> Tensor:
    """ne(Tensor self, Tensor other) -> Tensor
    """
    return _op.ne(input, other)

def lt(input: Tensor | Number, other: Tensor | Number) -> Tensor:
    """lt(Tensor self, Tensor other) -> Tensor
    """
    return _op.lt(input, other)

def le(input: Tensor | Number, other: Tensor | Number) -> Tensor:
    """le(Tensor self, Tensor other) -> Tensor
    """
    return _op.le(input, other)

def gt(input: Tensor | Number, other: Tensor | Number) -> Tensor:
    """gt(Tensor self, Tensor other) -> Tensor
    """
    return _op.gt(input, other)

def ge(input: Tensor | Number, other: Tensor | Number) -> Tensor:
    """ge(Tensor self, Tensor other) -> Tensor
    """
    return _op.ge(input, other)

def equal(input: Tensor, other: Tensor) -> bool:
    """equal(Tensor self, Tensor other) -> bool
    """
    return _op.equal(input, other)

def allclose(input: Tensor, other: Tensor, rtol: float = 1e-05, atol: float = 1e-08, equal_nan: bool = False) -> bool:
    """allclose(Tensor self, Tensor other, float rtol=1e-05, float atol=1e-08, bool equal_nan=False) -> bool
    """
    return _op.allclose(input, other, rtol, atol, equal_nan)

def isclose(input: Tensor, other: Tensor, rtol: float = 1e-05, atol: float = 1e-08, equal_nan: bool = False) -> Tensor:
    """isclose(Tensor self, Tensor other, float rtol=1e-05, float atol=1e-08, bool equal_nan=False) -> Tensor
    """
    return _op.isclose(input, other, rtol, atol, equal_nan)

def logical_and(input: Tensor | Number, other: Tensor | Number) -> Tensor:
    """logical_and(Tensor self, Tensor other) -> Tensor
    """
    return _op.logical_and(input, other)

def logical_or(input: Tensor | Number, other: Tensor | Number) -> Tensor:
    """logical_or(Tensor self, Tensor other) -> Tensor
    """
    return _op.logical_or(input, other)

def logical_xor(input: Tensor | Number, other: Tensor | Number) -> Tensor:
    """logical_xor(Tensor self, Tensor other) -> Tensor
    """
    return _op.logical_xor(input, other)

def bitwise_and(input: Tensor | Number, other: Tensor | Number) -> Tensor:
    """bitwise_and(Tensor self, Tensor other) -> Tensor
    """
    return _op.bitwise_and(input, other)

def bitwise_or(input: Tensor | Number, other: Tensor | Number) -> Tensor:
    """bitwise_or(Tensor self, Tensor other) -> Tensor
    """
    return _op.bitwise_or(input, other)

def bitwise_xor(input: Tensor | Number, other: Tensor | Number) -> Tensor:
    """bitwise_xor(Tensor self, Tensor other) -> Tensor
    """
    return _op.bitwise_xor(input, other)

def bitwise_left_shift(input: Tensor | Number, other: Tensor | Number) -> Tensor:
    """bitwise_left_shift(Tensor self, Tensor other) -> Tensor
    """
    return _op.bitwise_left_shift(input, other)

def bitwise_right_shift(input: Tensor | Number, other: Tensor | Number) -> Tensor:
    """bitwise_right_shift(Tensor self, Tensor other) -> Tensor
    """
    return _op.bitwise_right_shift(input, other)

def where(*args: Any, **kwargs: Any) -> Any:
    """where.self(Tensor condition, Tensor self, Tensor other) -> Tensor
    where(Tensor condition) -> Tensor[]
    """
    return _b.call_overloaded((_op.where_self, _op.where,), args, kwargs, 'where')

def lerp(input: Tensor | Number, end: Tensor | Number, weight: Tensor | Number) -> Tensor:
    """lerp(Tensor self, Tensor end, Tensor weight) -> Tensor
    """
    return _op.lerp(input, end, weight)

def addcmul(input: Tensor | Number, tensor1: Tensor | Number, tensor2: Tensor | Number, *, value: Number = 1) -> Tensor:
    """addcmul(Tensor self, Tensor tensor1, Tensor tensor2, *, Scalar value=1) -> Tensor
    """
    return _op.addcmul(input, tensor1, tensor2, value)

def addcdiv(input: Tensor | Number, tensor1: Tensor | Number, tensor2: Tensor | Number, *, value: Number = 1) -> Tensor:
    """addcdiv(Tensor self, Tensor tensor1, Tensor tensor2, *, Scalar value=1) -> Tensor
    """
    return _op.addcdiv(input, tensor1, tensor2, value)

def sum(input: Tensor, dim: int | Sequence[int] | None = None, keepdim: bool = False, *, dtype: dtype | None = None) -> Tensor:
    """sum(Tensor self, int[1]? dim=None, bool keepdim=False, *, ScalarType? dtype=None) -> Tensor
    """
    dim = _b.int_list(dim, 1, 'dim')
    dtype = _b.dtype_arg(dtype)
    return _op.sum(input, dim, keepdim, dtype)

def nansum(input: Tensor, dim: int | Sequence[int] | None = None, keepdim: bool = False, *, dtype: dtype | None = None) -> Tensor:
    """nansum(Tensor self, int[1]? dim=None, bool keepdim=False, *, ScalarType? dtype=None) -> Tensor
    """
    dim = _b.int_list(dim, 1, 'dim')
    dtype = _b.dtype_arg(dtype)
    return _op.nansum(input, dim, keepdim, dtype)

def mean(input: Tensor, dim: int | Sequence[int] | None = None, keepdim: bool = False, *, dtype: dtype | None = None) -> Tensor:
    """mean(Tensor self, int[1]? dim=None, bool keepdim=False, *, ScalarType? dtype=None) -> Tensor
    """
    dim = _b.int_list(dim, 1, 'dim')
    dtype = _b.dtype_arg(dtype)
    return _op.mean(input, dim, keepdim, dtype)

def prod(input: Tensor, dim: int | None = None, keepdim: bool = False, *, dtype: dtype | None = None) -> Tensor:
    """prod(Tensor self, int? dim=None, bool keepdim=False, *, ScalarType? dtype=None) -> Tensor
    """
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

def amax(input: Tensor, dim: int | Sequence[int] = [], keepdim: bool = False) -> Tensor:
    """amax(Tensor self, int[1] dim=[], bool keepdim=False) -> Tensor
    """
    dim = _b.int_list(dim, 1, 'dim')
    return _op.amax(input, dim, keepdim)

def amin(input: Tensor, dim: int | Sequence[int] = [], keepdim: bool = False) -> Tensor:
    """amin(Tensor self, int[1] dim=[], bool keepdim=False) -> Tensor
    """
    dim = _b.int_list(dim, 1, 'dim')
    return _op.amin(input, dim, keepdim)

def aminmax(input: Tensor, *, dim: int | None = None, keepdim: bool = False) -> tuple[Tensor, Tensor]:
    """aminmax(Tensor self, *, int? dim=None, bool keepdim=False) -> (Tensor min, Tensor max)
    """
    return _b.named_result('aminmax', ('min', 'max'), _op.aminmax(input, dim, keepdim))

def argmax(input: Tensor, dim: int | None = None, keepdim: bool = False) -> Tensor:
    """argmax(Tensor self, int? dim=None, bool keepdim=False) -> Tensor
    """
    return _op.argmax(input, dim, keepdim)

def argmin(input: Tensor, dim: int | None = None, keepdim: bool = False) -> Tensor:
    """argmin(Tensor self, int? dim=None, bool keepdim=False) -> Tensor
    """
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

def var_mean(input: Tensor, dim: int | Sequence[int] | None = None, *, correction: Number | None = None, keepdim: bool = False) -> tuple[Tensor, Tensor]:
    """var_mean(Tensor self, int[1]? dim=None, *, Scalar? correction=None, bool keepdim=False) -> (Tensor, Tensor)
    """
    dim = _b.int_list(dim, 1, 'dim')
    return _op.var_mean(input, dim, correction, keepdim)

def std_mean(input: Tensor, dim: int | Sequence[int] | None = None, *, correction: Number | None = None, keepdim: bool = False) -> tuple[Tensor, Tensor]:
    """std_mean(Tensor self, int[1]? dim=None, *, Scalar? correction=None, bool keepdim=False) -> (Tensor, Tensor)
    """
    dim = _b.int_list(dim, 1, 'dim')
    return _op.std_mean(input, dim, correction, keepdim)

def vector_norm(input: Tensor, ord: Number = 2, dim: int | Sequence[int] | None = None, keepdim: bool = False, *, dtype: dtype | None = None) -> Tensor:
    """vector_norm(Tensor self, Scalar ord=2, int[1]? dim=None, bool keepdim=False, *, ScalarType? dtype=None) -> Tensor
    """
    dim = _b.int_list(dim, 1, 'dim')
    dtype = _b.dtype_arg(dtype)
    return _op.vector_norm(input, ord, dim, keepdim, dtype)

def norm(*args: Any, **kwargs: Any) -> Any:
    """norm(Tensor self, Scalar? p=2, int[1]? dim=None, bool keepdim=False, *, ScalarType? dtype=None) -> Tensor
    norm.str(Tensor self, str p, int[1]? dim=None, bool keepdim=False, *, ScalarType? dtype=None) -> Tensor
    """
    return _b.call_overloaded((_op.norm, _op.norm_str,), args, kwargs, 'norm')

def dist(input: Tensor, other: Tensor, p: Number = 2) -> Tensor:
    """dist(Tensor self, Tensor other, Scalar p=2) -> Tensor
    """
    return _op.dist(input, other, p)

def logsumexp(input: Tensor, dim: int | Sequence[int], keepdim: bool = False) -> Tensor:
    """logsumexp(Tensor self, int[1] dim, bool keepdim=False) -> Tensor
    """
    dim = _b.int_list(dim, 1, 'dim')
    return _op.logsumexp(input, dim, keepdim)

def all(input: Tensor, dim: int | Sequence[int] | None = None, keepdim: bool = False) -> Tensor:
    """all(Tensor self, int[1]? dim=None, bool keepdim=False) -> Tensor
    """
    dim = _b.int_list(dim, 1, 'dim')
    return _op.all(input, dim, keepdim)

def any(input: Tensor, dim: int | Sequence[int] | None = None, keepdim: bool = False) -> Tensor:
    """any(Tensor self, int[1]? dim=None, bool keepdim=False) -> Tensor
    """
    dim = _b.int_list(dim, 1, 'dim')
    return _op.any(input, dim, keepdim)

def count_nonzero(input: Tensor, dim: int | Sequence[int] | None = None) -> Tensor:
    """count_nonzero(Tensor self, int[1]? dim=None) -> Tensor
    """
    dim = _b.int_list(dim, 1, 'dim')
    return _op.count_nonzero(input, dim)

def cumsum(input: Tensor, dim: int, *, dtype: dtype | None = None) -> Tensor:
    """cumsum(Tensor self, int dim, *, ScalarType? dtype=None) -> Tensor
    """
    dtype = _b.dtype_arg(dtype)
    return _op.cumsum(input, dim, dtype)

def cumprod(input: Tensor, dim: int, *, dtype: dtype | None = None) -> Tensor:
    """cumprod(Tensor self, int dim, *, ScalarType? dtype=None) -> Tensor
    """
    dtype = _b.dtype_arg(dtype)
    return _op.cumprod(input, dim, dtype)

def median(*args: Any, **kwargs: Any) -> Any:
    """median(Tensor self) -> Tensor
    median.dim(Tensor self, int dim, bool keepdim=False) -> (Tensor values, Tensor indices)
    """
    return _b.call_overloaded((_op.median, _op.median_dim,), args, kwargs, 'median')

def matmul(input: Tensor, other: Tensor) -> Tensor:
    """matmul(Tensor self, Tensor other) -> Tensor
    """
    return _op.matmul(input, other)

def mm(input: Tensor, mat2: Tensor) -> Tensor:
    """mm(Tensor self, Tensor mat2) -> Tensor
    """
    return _op.mm(input, mat2)

def bmm(input: Tensor, mat2: Tensor) -> Tensor:
    """bmm(Tensor self, Tensor mat2) -> Tensor
    """
    return _op.bmm(input, mat2)

def addmm(input: Tensor, mat1: Tensor, mat2: Tensor, *, beta: Number = 1, alpha: Number = 1) -> Tensor:
    """addmm(Tensor self, Tensor mat1, Tensor mat2, *, Scalar beta=1, Scalar alpha=1) -> Tensor
    """
    return _op.addmm(input, mat1, mat2, beta, alpha)

def addmv(input: Tensor, mat: Tensor, vec: Tensor, *, beta: Number = 1, alpha: Number = 1) -> Tensor:
    """addmv(Tensor self, Tensor mat, Tensor vec, *, Scalar beta=1, Scalar alpha=1) -> Tensor
    """
    return _op.addmv(input, mat, vec, beta, alpha)

def baddbmm(input: Tensor, batch1: Tensor, batch2: Tensor, *, beta: Number = 1, alpha: Number = 1) -> Tensor:
    """baddbmm(Tensor self, Tensor batch1, Tensor batch2, *, Scalar beta=1, Scalar alpha=1) -> Tensor
    """
    return _op.baddbmm(input, batch1, batch2, beta, alpha)

def einsum(equation: str, tensors: Sequence[Tensor]) -> Tensor:
    """einsum(str equation, Tensor[] tensors) -> Tensor
    """
    tensors = _b.tensor_list(tensors, 'tensors')
    return _op.einsum(equation, tensors)

def outer(input: Tensor, vec2: Tensor) -> Tensor:
    """outer(Tensor self, Tensor vec2) -> Tensor
    """
    return _op.outer(input, vec2)

def dot(input: Tensor, tensor: Tensor) -> Tensor:
    """dot(Tensor self, Tensor tensor) -> Tensor
    """
    return _op.dot(input, tensor)

def mv(input: Tensor, vec: Tensor) -> Tensor:
    """mv(Tensor self, Tensor vec) -> Tensor
    """
    return _op.mv(input, vec)

def trace(input: Tensor) -> Tensor:
    """trace(Tensor self) -> Tensor
    
    Sum of the main diagonal of a 2-D tensor; integer inputs sum to int64, as in ``sum``.
    """
    return _op.trace(input)

def tensordot(input: Tensor, other: Tensor, dims_a: int | Sequence[int], dims_b: int | Sequence[int]) -> Tensor:
    """tensordot(Tensor self, Tensor other, int[] dims_a, int[] dims_b) -> Tensor
    """
    dims_a = _b.int_list(dims_a, 0, 'dims_a')
    dims_b = _b.int_list(dims_b, 0, 'dims_b')
    return _op.tensordot(input, other, dims_a, dims_b)

def as_strided(input: Tensor, size: int | Sequence[int], stride: int | Sequence[int], storage_offset: int | None = None) -> Tensor:
    """as_strided(Tensor(a) self, int[] size, int[] stride, int? storage_offset=None) -> Tensor(a)
    """
    size = _b.int_list(size, 0, 'size')
    stride = _b.int_list(stride, 0, 'stride')
    return _op.as_strided(input, size, stride, storage_offset)

def permute(input: Tensor, dims: int | Sequence[int]) -> Tensor:
    """permute(Tensor(a) self, int[] dims) -> Tensor(a)
    """
    dims = _b.int_list(dims, 0, 'dims')
    return _op.permute(input, dims)

def transpose(input: Tensor, dim0: int, dim1: int) -> Tensor:
    """transpose(Tensor(a) self, int dim0, int dim1) -> Tensor(a)
    """
    return _op.transpose(input, dim0, dim1)

def swapaxes(input: Tensor, axis0: int, axis1: int) -> Tensor:
    """swapaxes(Tensor(a) self, int axis0, int axis1) -> Tensor(a)
    """
    return _op.swapaxes(input, axis0, axis1)

def t(input: Tensor) -> Tensor:
    """t(Tensor(a) self) -> Tensor(a)
    """
    return _op.t(input)

def squeeze(input: Tensor, dim: int | Sequence[int] | None = None) -> Tensor:
    """squeeze(Tensor(a) self, int[1]? dim=None) -> Tensor(a)
    """
    dim = _b.int_list(dim, 1, 'dim')
    return _op.squeeze(input, dim)

def unsqueeze(input: Tensor, dim: int) -> Tensor:
    """unsqueeze(Tensor(a) self, int dim) -> Tensor(a)
    """
    return _op.unsqueeze(input, dim)

def broadcast_to(input: Tensor, size: int | Sequence[int]) -> Tensor:
    """broadcast_to(Tensor(a) self, int[] size) -> Tensor(a)
    """
    size = _b.int_list(size, 0, 'size')
    return _op.broadcast_to(input, size)

def narrow(input: Tensor, dim: int, start: int, length: int) -> Tensor:
    """narrow(Tensor(a) self, int dim, int start, int length) -> Tensor(a)
    """
    return _op.narrow(input, dim, start, length)

def slice(input: Tensor, dim: int = 0, start: int | None = None, end: int | None = None, step: int = 1) -> Tensor:
    """slice(Tensor(a) self, int dim=0, int? start=None, int? end=None, int step=1) -> Tensor(a)
    """
    return _op.slice(input, dim, start, end, step)

def slice_backward(grad_output: Tensor, input_sizes: int | Sequence[int], dim: int, start: int | None, end: int | None, step: int) -> Tensor:
    """slice_backward(Tensor grad_output, int[] input_sizes, int dim, int? start, int? end, int step) -> Tensor
    """
    input_sizes = _b.int_list(input_sizes, 0, 'input_sizes')
    return _op.slice_backward(grad_output, input_sizes, dim, start, end, step)

def select(input: Tensor, dim: int, index: int) -> Tensor:
    """select(Tensor(a) self, int dim, int index) -> Tensor(a)
    """
    return _op.select(input, dim, index)

def select_backward(grad_output: Tensor, input_sizes: int | Sequence[int], dim: int, index: int) -> Tensor:
    """select_backward(Tensor grad_output, int[] input_sizes, int dim, int index) -> Tensor
    """
    input_sizes = _b.int_list(input_sizes, 0, 'input_sizes')
    return _op.select_backward(grad_output, input_sizes, dim, index)

def unfold_backward(grad_output: Tensor, input_sizes: int | Sequence[int], dim: int, size: int, step: int) -> Tensor:
    """unfold_backward(Tensor grad_output, int[] input_sizes, int dim, int size, int step) -> Tensor
    """
    input_sizes = _b.int_list(input_sizes, 0, 'input_sizes')
    return _op.unfold_backward(grad_output, input_sizes, dim, size, step)

def diagonal(input: Tensor, offset: int = 0, dim1: int = 0, dim2: int = 1) -> Tensor:
    """diagonal(Tensor(a) self, int offset=0, int dim1=0, int dim2=1) -> Tensor(a)
    """
    return _op.diagonal(input, offset, dim1, dim2)

def diagonal_backward(grad_output: Tensor, input_sizes: int | Sequence[int], offset: int, dim1: int, dim2: int) -> Tensor:
    """diagonal_backward(Tensor grad_output, int[] input_sizes, int offset, int dim1, int dim2) -> Tensor
    """
    input_sizes = _b.int_list(input_sizes, 0, 'input_sizes')
    return _op.diagonal_backward(grad_output, input_sizes, offset, dim1, dim2)

def as_strided_scatter(input: Tensor, src: Tensor, size: int | Sequence[int], stride: int | Sequence[int], storage_offset: int | None = None) -> Tensor:
    """as_strided_scatter(Tensor self, Tensor src, int[] size, int[] stride, int? storage_offset=None) -> Tensor
    """
    size = _b.int_list(size, 0, 'size')
    stride = _b.int_list(stride, 0, 'stride')
    return _op.as_strided_scatter(input, src, size, stride, storage_offset)

def split(*args: Any, **kwargs: Any) -> Any:
    """split.int(Tensor(a) self, int split_size_or_sections, int dim=0) -> Tensor(a)[]
    split.sizes(Tensor(a) self, int[] split_size_or_sections, int dim=0) -> Tensor(a)[]
    """
    return _b.call_overloaded((_op.split_int, _op.split_sizes,), args, kwargs, 'split')

def chunk(input: Tensor, chunks: int, dim: int = 0) -> tuple[Tensor, ...]:
    """chunk(Tensor(a) self, int chunks, int dim=0) -> Tensor(a)[]
    """
    return _op.chunk(input, chunks, dim)

def unbind(input: Tensor, dim: int = 0) -> tuple[Tensor, ...]:
    """unbind(Tensor(a) self, int dim=0) -> Tensor(a)[]
    """
    return _op.unbind(input, dim)

def movedim(input: Tensor, source: int | Sequence[int], destination: int | Sequence[int]) -> Tensor:
    """movedim(Tensor(a) self, int[1] source, int[1] destination) -> Tensor(a)
    """
    source = _b.int_list(source, 1, 'source')
    destination = _b.int_list(destination, 1, 'destination')
    return _op.movedim(input, source, destination)

def alias(input: Tensor) -> Tensor:
    """alias(Tensor(a) self) -> Tensor(a)
    """
    return _op.alias(input)

def reshape(input: Tensor, shape: int | Sequence[int]) -> Tensor:
    """reshape(Tensor(a) self, int[] shape) -> Tensor(a)
    """
    shape = _b.int_list(shape, 0, 'shape')
    return _op.reshape(input, shape)

def flatten(input: Tensor, start_dim: int = 0, end_dim: int = -1) -> Tensor:
    """flatten(Tensor(a) self, int start_dim=0, int end_dim=-1) -> Tensor(a)
    """
    return _op.flatten(input, start_dim, end_dim)

def unflatten(input: Tensor, dim: int, sizes: int | Sequence[int]) -> Tensor:
    """unflatten(Tensor(a) self, int dim, int[] sizes) -> Tensor(a)
    """
    sizes = _b.int_list(sizes, 0, 'sizes')
    return _op.unflatten(input, dim, sizes)

def ravel(input: Tensor) -> Tensor:
    """ravel(Tensor(a) self) -> Tensor(a)
    """
    return _op.ravel(input)

def clone(input: Tensor, *, memory_format: Any | None = None) -> Tensor:
    """clone(Tensor self, *, MemoryFormat? memory_format=None) -> Tensor
    """
    return _op.clone(input, memory_format)

def detach(input: Tensor) -> Tensor:
    """detach(Tensor(a) self) -> Tensor(a)
    """
    return _op.detach(input)

def cat(tensors: Sequence[Tensor], dim: int = 0) -> Tensor:
    """cat(Tensor[] tensors, int dim=0) -> Tensor
    """
    tensors = _b.tensor_list(tensors, 'tensors')
    return _op.cat(tensors, dim)

def concat(tensors: Sequence[Tensor], dim: int = 0) -> Tensor:
    """concat(Tensor[] tensors, int dim=0) -> Tensor
    """
    tensors = _b.tensor_list(tensors, 'tensors')
    return _op.concat(tensors, dim)

def stack(tensors: Sequence[Tensor], dim: int = 0) -> Tensor:
    """stack(Tensor[] tensors, int dim=0) -> Tensor
    """
    tensors = _b.tensor_list(tensors, 'tensors')
    return _op.stack(tensors, dim)

def hstack(tensors: Sequence[Tensor]) -> Tensor:
    """hstack(Tensor[] tensors) -> Tensor
    """
    tensors = _b.tensor_list(tensors, 'tensors')
    return _op.hstack(tensors)

def vstack(tensors: Sequence[Tensor]) -> Tensor:
    """vstack(Tensor[] tensors) -> Tensor
    """
    tensors = _b.tensor_list(tensors, 'tensors')
    return _op.vstack(tensors)

def flip(input: Tensor, dims: int | Sequence[int]) -> Tensor:
    """flip(Tensor self, int[] dims) -> Tensor
    """
    dims = _b.int_list(dims, 0, 'dims')
    return _op.flip(input, dims)

def roll(input: Tensor, shifts: int | Sequence[int], dims: int | Sequence[int] = []) -> Tensor:
    """roll(Tensor self, int[1] shifts, int[1] dims=[]) -> Tensor
    """
    shifts = _b.int_list(shifts, 1, 'shifts')
    dims = _b.int_list(dims, 1, 'dims')
    return _op.roll(input, shifts, dims)

def tile(input: Tensor, dims: int | Sequence[int]) -> Tensor:
    """tile(Tensor self, int[] dims) -> Tensor
    """
    dims = _b.int_list(dims, 0, 'dims')
    return _op.tile(input, dims)

def tril(input: Tensor, diagonal: int = 0) -> Tensor:
    """tril(Tensor self, int diagonal=0) -> Tensor
    """
    return _op.tril(input, diagonal)

def triu(input: Tensor, diagonal: int = 0) -> Tensor:
    """triu(Tensor self, int diagonal=0) -> Tensor
    """
    return _op.triu(input, diagonal)

def diag(input: Tensor, diagonal: int = 0) -> Tensor:
    """diag(Tensor self, int diagonal=0) -> Tensor
    """
    return _op.diag(input, diagonal)

def diag_embed(input: Tensor, offset: int = 0, dim1: int = -2, dim2: int = -1) -> Tensor:
    """diag_embed(Tensor self, int offset=0, int dim1=-2, int dim2=-1) -> Tensor
    """
    return _op.diag_embed(input, offset, dim1, dim2)

def meshgrid(tensors: Sequence[Tensor], *, indexing: str | None = None) -> tuple[Tensor, ...]:
    """meshgrid(Tensor[] tensors, *, str? indexing=None) -> Tensor[]
    """
    tensors = _b.tensor_list(tensors, 'tensors')
    return _op.meshgrid(tensors, indexing)

def pad(input: Tensor, pad: int | Sequence[int], mode: str = 'constant', value: float | None = None) -> Tensor:
    """pad(Tensor self, int[] pad, str mode="constant", float? value=None) -> Tensor
    """
    pad = _b.int_list(pad, 0, 'pad')
    return _op.pad(input, pad, mode, value)

def pad_backward(grad_output: Tensor, input_sizes: int | Sequence[int], padding: int | Sequence[int], mode: str) -> Tensor:
    """pad_backward(Tensor grad_output, int[] input_sizes, int[] padding, str mode) -> Tensor
    """
    input_sizes = _b.int_list(input_sizes, 0, 'input_sizes')
    padding = _b.int_list(padding, 0, 'padding')
    return _op.pad_backward(grad_output, input_sizes, padding, mode)

def sort(input: Tensor, dim: int = -1, descending: bool = False, *, stable: bool | None = False) -> tuple[Tensor, Tensor]:
    """sort(Tensor self, int dim=-1, bool descending=False, *, bool? stable=False) -> (Tensor values, Tensor indices)
    """
    return _b.named_result('sort', ('values', 'indices'), _op.sort(input, dim, descending, stable))

def argsort(input: Tensor, dim: int = -1, descending: bool = False, *, stable: bool = False) -> Tensor:
    """argsort(Tensor self, int dim=-1, bool descending=False, *, bool stable=False) -> Tensor
    """
    return _op.argsort(input, dim, descending, stable)

def topk(input: Tensor, k: int, dim: int = -1, largest: bool = True, sorted: bool = True) -> tuple[Tensor, Tensor]:
    """topk(Tensor self, int k, int dim=-1, bool largest=True, bool sorted=True) -> (Tensor values, Tensor indices)
    """
    return _b.named_result('topk', ('values', 'indices'), _op.topk(input, k, dim, largest, sorted))

def gather(input: Tensor, dim: int, index: Tensor, *, sparse_grad: bool = False) -> Tensor:
    """gather(Tensor self, int dim, Tensor index, *, bool sparse_grad=False) -> Tensor
    """
    return _op.gather(input, dim, index, sparse_grad)

def take_along_dim(input: Tensor, indices: Tensor, dim: int | None = None) -> Tensor:
    """take_along_dim(Tensor self, Tensor indices, int? dim=None) -> Tensor
    """
    return _op.take_along_dim(input, indices, dim)

def scatter(*args: Any, **kwargs: Any) -> Any:
    """scatter.src(Tensor self, int dim, Tensor index, Tensor src) -> Tensor
    scatter.value(Tensor self, int dim, Tensor index, Scalar value) -> Tensor
    """
    return _b.call_overloaded((_op.scatter_src, _op.scatter_value,), args, kwargs, 'scatter')

def scatter_add(input: Tensor, dim: int, index: Tensor, src: Tensor) -> Tensor:
    """scatter_add(Tensor self, int dim, Tensor index, Tensor src) -> Tensor
    """
    return _op.scatter_add(input, dim, index, src)

def index_select(input: Tensor, dim: int, index: Tensor) -> Tensor:
    """index_select(Tensor self, int dim, Tensor index) -> Tensor
    """
    return _op.index_select(input, dim, index)

def index_add(input: Tensor, dim: int, index: Tensor, source: Tensor, *, alpha: Number = 1) -> Tensor:
    """index_add(Tensor self, int dim, Tensor index, Tensor source, *, Scalar alpha=1) -> Tensor
    """
    return _op.index_add(input, dim, index, source, alpha)

def index(input: Tensor, indices: Sequence[Tensor]) -> Tensor:
    """index.Tensor(Tensor self, Tensor?[] indices) -> Tensor
    """
    indices = _b.tensor_list(indices, 'indices')
    return _op.index_Tensor(input, indices)

def index_put(input: Tensor, indices: Sequence[Tensor], values: Tensor, accumulate: bool = False) -> Tensor:
    """index_put(Tensor self, Tensor?[] indices, Tensor values, bool accumulate=False) -> Tensor
    """
    indices = _b.tensor_list(indices, 'indices')
    return _op.index_put(input, indices, values, accumulate)

def masked_fill(*args: Any, **kwargs: Any) -> Any:
    """masked_fill.Tensor(Tensor self, Tensor mask, Tensor value) -> Tensor
    masked_fill(Tensor self, Tensor mask, Scalar value) -> Tensor
    """
    return _b.call_overloaded((_op.masked_fill_Tensor, _op.masked_fill,), args, kwargs, 'masked_fill')

def masked_select(input: Tensor, mask: Tensor) -> Tensor:
    """masked_select(Tensor self, Tensor mask) -> Tensor
    """
    return _op.masked_select(input, mask)

def masked_scatter(input: Tensor, mask: Tensor, source: Tensor) -> Tensor:
    """masked_scatter(Tensor self, Tensor mask, Tensor source) -> Tensor
    """
    return _op.masked_scatter(input, mask, source)

def nonzero(*args: Any, **kwargs: Any) -> Any:
    """nonzero(Tensor self) -> Tensor
    nonzero.tuple(Tensor self, *, bool as_tuple) -> Tensor[]
    """
    return _b.call_overloaded((_op.nonzero, _op.nonzero_tuple,), args, kwargs, 'nonzero')

def one_hot(input: Tensor, num_classes: int = -1) -> Tensor:
    """one_hot(Tensor self, int num_classes=-1) -> Tensor
    """
    return _op.one_hot(input, num_classes)

def unique(input: Tensor, sorted: bool = True, return_inverse: bool = False, return_counts: bool = False, dim: int | None = None) -> tuple[Tensor, ...]:
    """unique(Tensor self, bool sorted=True, bool return_inverse=False, bool return_counts=False, int? dim=None) -> Tensor[]
    """
    return _op.unique(input, sorted, return_inverse, return_counts, dim)

def bincount(input: Tensor, weights: Tensor | None = None, minlength: int = 0) -> Tensor:
    """bincount(Tensor self, Tensor? weights=None, int minlength=0) -> Tensor
    """
    return _op.bincount(input, weights, minlength)

def searchsorted(sorted_sequence: Tensor, input: Tensor, *, out_int32: bool = False, right: bool = False) -> Tensor:
    """searchsorted(Tensor sorted_sequence, Tensor self, *, bool out_int32=False, bool right=False) -> Tensor
    """
    return _op.searchsorted(sorted_sequence, input, out_int32, right)

def softmax(input: Tensor, dim: int, dtype: dtype | None = None) -> Tensor:
    """softmax(Tensor self, int dim, ScalarType? dtype=None) -> Tensor
    """
    dtype = _b.dtype_arg(dtype)
    return _op.softmax(input, dim, dtype)

def _softmax_backward_data(grad_output: Tensor, output: Tensor, dim: int, input_dtype: dtype) -> Tensor:
    """_softmax_backward_data(Tensor grad_output, Tensor output, int dim, ScalarType input_dtype) -> Tensor
    """
    input_dtype = _b.dtype_arg(input_dtype)
    return _op._softmax_backward_data(grad_output, output, dim, input_dtype)

def log_softmax(input: Tensor, dim: int, dtype: dtype | None = None) -> Tensor:
    """log_softmax(Tensor self, int dim, ScalarType? dtype=None) -> Tensor
    """
    dtype = _b.dtype_arg(dtype)
    return _op.log_softmax(input, dim, dtype)

def _log_softmax_backward_data(grad_output: Tensor, output: Tensor, dim: int, input_dtype: dtype) -> Tensor:
    """_log_softmax_backward_data(Tensor grad_output, Tensor output, int dim, ScalarType input_dtype) -> Tensor
    """
    input_dtype = _b.dtype_arg(input_dtype)
    return _op._log_softmax_backward_data(grad_output, output, dim, input_dtype)

def linear(input: Tensor, weight: Tensor, bias: Tensor | None = None) -> Tensor:
    """linear(Tensor input, Tensor weight, Tensor? bias=None) -> Tensor
    """
    return _op.linear(input, weight, bias)

def bilinear(input1: Tensor, input2: Tensor, weight: Tensor, bias: Tensor | None = None) -> Tensor:
    """bilinear(Tensor input1, Tensor input2, Tensor weight, Tensor? bias=None) -> Tensor
    """
    return _op.bilinear(input1, input2, weight, bias)

def convolution(input: Tensor, weight: Tensor, bias: Tensor | None, stride: int | Sequence[int], padding: int | Sequence[int], dilation: int | Sequence[int], transposed: bool, output_padding: int | Sequence[int], groups: int) -> Tensor:
    """convolution(Tensor input, Tensor weight, Tensor? bias, int[] stride, int[] padding, int[] dilation, bool transposed, int[] output_padding, int groups) -> Tensor
    """
    stride = _b.int_list(stride, 0, 'stride')
    padding = _b.int_list(padding, 0, 'padding')
    dilation = _b.int_list(dilation, 0, 'dilation')
    output_padding = _b.int_list(output_padding, 0, 'output_padding')
    return _op.convolution(input, weight, bias, stride, padding, dilation, transposed, output_padding, groups)

def convolution_backward(grad_output: Tensor, input: Tensor, weight: Tensor, stride: int | Sequence[int], padding: int | Sequence[int], dilation: int | Sequence[int], transposed: bool, output_padding: int | Sequence[int], groups: int, output_mask: int | Sequence[bool]) -> tuple[Tensor, Tensor, Tensor]:
    """convolution_backward(Tensor grad_output, Tensor input, Tensor weight, int[] stride, int[] padding, int[] dilation, bool transposed, int[] output_padding, int groups, bool[3] output_mask) -> (Tensor, Tensor, Tensor)
    """
    stride = _b.int_list(stride, 0, 'stride')
    padding = _b.int_list(padding, 0, 'padding')
    dilation = _b.int_list(dilation, 0, 'dilation')
    output_padding = _b.int_list(output_padding, 0, 'output_padding')
    return _op.convolution_backward(grad_output, input, weight, stride, padding, dilation, transposed, output_padding, groups, output_mask)

def conv1d(input: Tensor, weight: Tensor, bias: Tensor | None = None, stride: int | Sequence[int] = 1, padding: int | Sequence[int] = 0, dilation: int | Sequence[int] = 1, groups: int = 1) -> Tensor:
    """conv1d(Tensor input, Tensor weight, Tensor? bias=None, int[1] stride=1, int[1] padding=0, int[1] dilation=1, int groups=1) -> Tensor
    """
    stride = _b.int_list(stride, 1, 'stride')
    padding = _b.int_list(padding, 1, 'padding')
    dilation = _b.int_list(dilation, 1, 'dilation')
    return _op.conv1d(input, weight, bias, stride, padding, dilation, groups)

def conv2d(input: Tensor, weight: Tensor, bias: Tensor | None = None, stride: int | Sequence[int] = 1, padding: int | Sequence[int] = 0, dilation: int | Sequence[int] = 1, groups: int = 1) -> Tensor:
    """conv2d(Tensor input, Tensor weight, Tensor? bias=None, int[2] stride=1, int[2] padding=0, int[2] dilation=1, int groups=1) -> Tensor
    """
    stride = _b.int_list(stride, 2, 'stride')
    padding = _b.int_list(padding, 2, 'padding')
    dilation = _b.int_list(dilation, 2, 'dilation')
    return _op.conv2d(input, weight, bias, stride, padding, dilation, groups)

def conv3d(input: Tensor, weight: Tensor, bias: Tensor | None = None, stride: int | Sequence[int] = 1, padding: int | Sequence[int] = 0, dilation: int | Sequence[int] = 1, groups: int = 1) -> Tensor:
    """conv3d(Tensor input, Tensor weight, Tensor? bias=None, int[3] stride=1, int[3] padding=0, int[3] dilation=1, int groups=1) -> Tensor
    """
    stride = _b.int_list(stride, 3, 'stride')
    padding = _b.int_list(padding, 3, 'padding')
    dilation = _b.int_list(dilation, 3, 'dilation')
    return _op.conv3d(input, weight, bias, stride, padding, dilation, groups)

def conv_transpose1d(input: Tensor, weight: Tensor, bias: Tensor | None = None, stride: int | Sequence[int] = 1, padding: int | Sequence[int] = 0, output_padding: int | Sequence[int] = 0, groups: int = 1, dilation: int | Sequence[int] = 1) -> Tensor:
    """conv_transpose1d(Tensor input, Tensor weight, Tensor? bias=None, int[1] stride=1, int[1] padding=0, int[1] output_padding=0, int groups=1, int[1] dilation=1) -> Tensor
    """
    stride = _b.int_list(stride, 1, 'stride')
    padding = _b.int_list(padding, 1, 'padding')
    output_padding = _b.int_list(output_padding, 1, 'output_padding')
    dilation = _b.int_list(dilation, 1, 'dilation')
    return _op.conv_transpose1d(input, weight, bias, stride, padding, output_padding, groups, dilation)

def conv_transpose2d(input: Tensor, weight: Tensor, bias: Tensor | None = None, stride: int | Sequence[int] = 1, padding: int | Sequence[int] = 0, output_padding: int | Sequence[int] = 0, groups: int = 1, dilation: int | Sequence[int] = 1) -> Tensor:
    """conv_transpose2d(Tensor input, Tensor weight, Tensor? bias=None, int[2] stride=1, int[2] padding=0, int[2] output_padding=0, int groups=1, int[2] dilation=1) -> Tensor
    """
    stride = _b.int_list(stride, 2, 'stride')
    padding = _b.int_list(padding, 2, 'padding')
    output_padding = _b.int_list(output_padding, 2, 'output_padding')
    dilation = _b.int_list(dilation, 2, 'dilation')
    return _op.conv_transpose2d(input, weight, bias, stride, padding, output_padding, groups, dilation)

def max_pool_with_indices(input: Tensor, kernel_size: int | Sequence[int], stride: int | Sequence[int], padding: int | Sequence[int], dilation: int | Sequence[int], ceil_mode: bool) -> tuple[Tensor, Tensor]:
    """max_pool_with_indices(Tensor self, int[] kernel_size, int[] stride, int[] padding, int[] dilation, bool ceil_mode) -> (Tensor, Tensor)
    """
    kernel_size = _b.int_list(kernel_size, 0, 'kernel_size')
    stride = _b.int_list(stride, 0, 'stride')
    padding = _b.int_list(padding, 0, 'padding')
    dilation = _b.int_list(dilation, 0, 'dilation')
    return _op.max_pool_with_indices(input, kernel_size, stride, padding, dilation, ceil_mode)

def max_pool_backward(grad_output: Tensor, input: Tensor, indices: Tensor) -> Tensor:
    """max_pool_backward(Tensor grad_output, Tensor self, Tensor indices) -> Tensor
    """
    return _op.max_pool_backward(grad_output, input, indices)

def max_pool1d(input: Tensor, kernel_size: int | Sequence[int], stride: int | Sequence[int] = [], padding: int | Sequence[int] = 0, dilation: int | Sequence[int] = 1, ceil_mode: bool = False) -> Tensor:
    """max_pool1d(Tensor self, int[1] kernel_size, int[1] stride=[], int[1] padding=0, int[1] dilation=1, bool ceil_mode=False) -> Tensor
    """
    kernel_size = _b.int_list(kernel_size, 1, 'kernel_size')
    stride = _b.int_list(stride, 1, 'stride')
    padding = _b.int_list(padding, 1, 'padding')
    dilation = _b.int_list(dilation, 1, 'dilation')
    return _op.max_pool1d(input, kernel_size, stride, padding, dilation, ceil_mode)

def max_pool2d(input: Tensor, kernel_size: int | Sequence[int], stride: int | Sequence[int] = [], padding: int | Sequence[int] = 0, dilation: int | Sequence[int] = 1, ceil_mode: bool = False) -> Tensor:
    """max_pool2d(Tensor self, int[2] kernel_size, int[2] stride=[], int[2] padding=0, int[2] dilation=1, bool ceil_mode=False) -> Tensor
    """
    kernel_size = _b.int_list(kernel_size, 2, 'kernel_size')
    stride = _b.int_list(stride, 2, 'stride')
    padding = _b.int_list(padding, 2, 'padding')
    dilation = _b.int_list(dilation, 2, 'dilation')
    return _op.max_pool2d(input, kernel_size, stride, padding, dilation, ceil_mode)

def max_pool2d_with_indices(input: Tensor, kernel_size: int | Sequence[int], stride: int | Sequence[int] = [], padding: int | Sequence[int] = 0, dilation: int | Sequence[int] = 1, ceil_mode: bool = False) -> tuple[Tensor, Tensor]:
    """max_pool2d_with_indices(Tensor self, int[2] kernel_size, int[2] stride=[], int[2] padding=0, int[2] dilation=1, bool ceil_mode=False) -> (Tensor, Tensor)
    """
    kernel_size = _b.int_list(kernel_size, 2, 'kernel_size')
    stride = _b.int_list(stride, 2, 'stride')
    padding = _b.int_list(padding, 2, 'padding')
    dilation = _b.int_list(dilation, 2, 'dilation')
    return _op.max_pool2d_with_indices(input, kernel_size, stride, padding, dilation, ceil_mode)

def avg_pool(input: Tensor, kernel_size: int | Sequence[int], stride: int | Sequence[int], padding: int | Sequence[int], ceil_mode: bool, count_include_pad: bool, divisor_override: int | None) -> Tensor:
    """avg_pool(Tensor self, int[] kernel_size, int[] stride, int[] padding, bool ceil_mode, bool count_include_pad, int? divisor_override) -> Tensor
    """
    kernel_size = _b.int_list(kernel_size, 0, 'kernel_size')
    stride = _b.int_list(stride, 0, 'stride')
    padding = _b.int_list(padding, 0, 'padding')
    return _op.avg_pool(input, kernel_size, stride, padding, ceil_mode, count_include_pad, divisor_override)

def avg_pool_backward(grad_output: Tensor, input: Tensor, kernel_size: int | Sequence[int], stride: int | Sequence[int], padding: int | Sequence[int], ceil_mode: bool, count_include_pad: bool, divisor_override: int | None) -> Tensor:
    """avg_pool_backward(Tensor grad_output, Tensor self, int[] kernel_size, int[] stride, int[] padding, bool ceil_mode, bool count_include_pad, int? divisor_override) -> Tensor
    """
    kernel_size = _b.int_list(kernel_size, 0, 'kernel_size')
    stride = _b.int_list(stride, 0, 'stride')
    padding = _b.int_list(padding, 0, 'padding')
    return _op.avg_pool_backward(grad_output, input, kernel_size, stride, padding, ceil_mode, count_include_pad, divisor_override)

def avg_pool1d(input: Tensor, kernel_size: int | Sequence[int], stride: int | Sequence[int] = [], padding: int | Sequence[int] = 0, ceil_mode: bool = False, count_include_pad: bool = True) -> Tensor:
    """avg_pool1d(Tensor self, int[1] kernel_size, int[1] stride=[], int[1] padding=0, bool ceil_mode=False, bool count_include_pad=True) -> Tensor
    """
    kernel_size = _b.int_list(kernel_size, 1, 'kernel_size')
    stride = _b.int_list(stride, 1, 'stride')
    padding = _b.int_list(padding, 1, 'padding')
    return _op.avg_pool1d(input, kernel_size, stride, padding, ceil_mode, count_include_pad)

def avg_pool2d(input: Tensor, kernel_size: int | Sequence[int], stride: int | Sequence[int] = [], padding: int | Sequence[int] = 0, ceil_mode: bool = False, count_include_pad: bool = True, divisor_override: int | None = None) -> Tensor:
    """avg_pool2d(Tensor self, int[2] kernel_size, int[2] stride=[], int[2] padding=0, bool ceil_mode=False, bool count_include_pad=True, int? divisor_override=None) -> Tensor
    """
    kernel_size = _b.int_list(kernel_size, 2, 'kernel_size')
    stride = _b.int_list(stride, 2, 'stride')
    padding = _b.int_list(padding, 2, 'padding')
    return _op.avg_pool2d(input, kernel_size, stride, padding, ceil_mode, count_include_pad, divisor_override)

def adaptive_avg_pool(input: Tensor, output_size: int | Sequence[int]) -> Tensor:
    """adaptive_avg_pool(Tensor self, int[] output_size) -> Tensor
    """
    output_size = _b.int_list(output_size, 0, 'output_size')
    return _op.adaptive_avg_pool(input, output_size)

def adaptive_avg_pool_backward(grad_output: Tensor, input: Tensor) -> Tensor:
    """adaptive_avg_pool_backward(Tensor grad_output, Tensor self) -> Tensor
    """
    return _op.adaptive_avg_pool_backward(grad_output, input)

def adaptive_max_pool(input: Tensor, output_size: int | Sequence[int]) -> tuple[Tensor, Tensor]:
    """adaptive_max_pool(Tensor self, int[] output_size) -> (Tensor, Tensor)
    """
    output_size = _b.int_list(output_size, 0, 'output_size')
    return _op.adaptive_max_pool(input, output_size)

def adaptive_avg_pool1d(input: Tensor, output_size: int | Sequence[int]) -> Tensor:
    """adaptive_avg_pool1d(Tensor self, int[1] output_size) -> Tensor
    """
    output_size = _b.int_list(output_size, 1, 'output_size')
    return _op.adaptive_avg_pool1d(input, output_size)

def adaptive_avg_pool2d(input: Tensor, output_size: int | Sequence[int]) -> Tensor:
    """adaptive_avg_pool2d(Tensor self, int[2] output_size) -> Tensor
    """
    output_size = _b.int_list(output_size, 2, 'output_size')
    return _op.adaptive_avg_pool2d(input, output_size)

def adaptive_max_pool1d(input: Tensor, output_size: int | Sequence[int]) -> Tensor:
    """adaptive_max_pool1d(Tensor self, int[1] output_size) -> Tensor
    """
    output_size = _b.int_list(output_size, 1, 'output_size')
    return _op.adaptive_max_pool1d(input, output_size)

def adaptive_max_pool2d(input: Tensor, output_size: int | Sequence[int]) -> Tensor:
    """adaptive_max_pool2d(Tensor self, int[2] output_size) -> Tensor
    """
    output_size = _b.int_list(output_size, 2, 'output_size')
    return _op.adaptive_max_pool2d(input, output_size)

def embedding(weight: Tensor, indices: Tensor, padding_idx: int = -1, scale_grad_by_freq: bool = False, sparse: bool = False) -> Tensor:
    """embedding(Tensor weight, Tensor indices, int padding_idx=-1, bool scale_grad_by_freq=False, bool sparse=False) -> Tensor
    """
    return _op.embedding(weight, indices, padding_idx, scale_grad_by_freq, sparse)

def embedding_backward(grad_output: Tensor, indices: Tensor, num_weights: int, padding_idx: int, scale_grad_by_freq: bool) -> Tensor:
    """embedding_backward(Tensor grad_output, Tensor indices, int num_weights, int padding_idx, bool scale_grad_by_freq) -> Tensor
    """
    return _op.embedding_backward(grad_output, indices, num_weights, padding_idx, scale_grad_by_freq)

def dropout(input: Tensor, p: float = 0.5, train: bool = True) -> Tensor:
    """dropout(Tensor input, float p=0.5, bool train=True) -> Tensor
    """
    return _op.dropout(input, p, train)

def native_batch_norm(input: Tensor, weight: Tensor | None, bias: Tensor | None, running_mean: Tensor | None, running_var: Tensor | None, training: bool, momentum: float, eps: float) -> tuple[Tensor, Tensor, Tensor]:
    """native_batch_norm(Tensor input, Tensor? weight, Tensor? bias, Tensor? running_mean, Tensor? running_var, bool training, float momentum, float eps) -> (Tensor, Tensor, Tensor)
    """
    return _op.native_batch_norm(input, weight, bias, running_mean, running_var, training, momentum, eps)

def native_batch_norm_backward(grad_out: Tensor, input: Tensor, weight: Tensor | None, running_mean: Tensor | None, running_var: Tensor | None, save_mean: Tensor | None, save_invstd: Tensor | None, train: bool, eps: float, output_mask: int | Sequence[bool]) -> tuple[Tensor, Tensor, Tensor]:
    """native_batch_norm_backward(Tensor grad_out, Tensor input, Tensor? weight, Tensor? running_mean, Tensor? running_var, Tensor? save_mean, Tensor? save_invstd, bool train, float eps, bool[3] output_mask) -> (Tensor, Tensor, Tensor)
    """
    return _op.native_batch_norm_backward(grad_out, input, weight, running_mean, running_var, save_mean, save_invstd, train, eps, output_mask)

def batch_norm(input: Tensor, weight: Tensor | None, bias: Tensor | None, running_mean: Tensor | None, running_var: Tensor | None, training: bool, momentum: float, eps: float) -> Tensor:
    """batch_norm(Tensor input, Tensor? weight, Tensor? bias, Tensor? running_mean, Tensor? running_var, bool training, float momentum, float eps) -> Tensor
    """
    return _op.batch_norm(input, weight, bias, running_mean, running_var, training, momentum, eps)

def native_layer_norm(input: Tensor, normalized_shape: int | Sequence[int], weight: Tensor | None, bias: Tensor | None, eps: float) -> tuple[Tensor, Tensor, Tensor]:
    """native_layer_norm(Tensor input, int[] normalized_shape, Tensor? weight, Tensor? bias, float eps) -> (Tensor, Tensor, Tensor)
    """
    normalized_shape = _b.int_list(normalized_shape, 0, 'normalized_shape')
    return _op.native_layer_norm(input, normalized_shape, weight, bias, eps)

def native_layer_norm_backward(grad_out: Tensor, input: Tensor, normalized_shape: int | Sequence[int], mean: Tensor, rstd: Tensor, weight: Tensor | None, bias: Tensor | None, output_mask: int | Sequence[bool], eps: float = 1e-05) -> tuple[Tensor, Tensor, Tensor]:
    """native_layer_norm_backward(Tensor grad_out, Tensor input, int[] normalized_shape, Tensor mean, Tensor rstd, Tensor? weight, Tensor? bias, bool[3] output_mask, float eps=1e-05) -> (Tensor, Tensor, Tensor)
    """
    normalized_shape = _b.int_list(normalized_shape, 0, 'normalized_shape')
    return _op.native_layer_norm_backward(grad_out, input, normalized_shape, mean, rstd, weight, bias, output_mask, eps)

def layer_norm(input: Tensor, normalized_shape: int | Sequence[int], weight: Tensor | None = None, bias: Tensor | None = None, eps: float = 1e-05) -> Tensor:
    """layer_norm(Tensor input, int[] normalized_shape, Tensor? weight=None, Tensor? bias=None, float eps=1e-05) -> Tensor
    """
    normalized_shape = _b.int_list(normalized_shape, 0, 'normalized_shape')
    return _op.layer_norm(input, normalized_shape, weight, bias, eps)

def native_group_norm(input: Tensor, weight: Tensor | None, bias: Tensor | None, N: int, C: int, HxW: int, group: int, eps: float) -> tuple[Tensor, Tensor, Tensor]:
    """native_group_norm(Tensor input, Tensor? weight, Tensor? bias, int N, int C, int HxW, int group, float eps) -> (Tensor, Tensor, Tensor)
    """
    return _op.native_group_norm(input, weight, bias, N, C, HxW, group, eps)

def native_group_norm_backward(grad_out: Tensor, input: Tensor, mean: Tensor, rstd: Tensor, weight: Tensor | None, N: int, C: int, HxW: int, group: int, output_mask: int | Sequence[bool], eps: float = 1e-05) -> tuple[Tensor, Tensor, Tensor]:
    """native_group_norm_backward(Tensor grad_out, Tensor input, Tensor mean, Tensor rstd, Tensor? weight, int N, int C, int HxW, int group, bool[3] output_mask, float eps=1e-05) -> (Tensor, Tensor, Tensor)
    """
    return _op.native_group_norm_backward(grad_out, input, mean, rstd, weight, N, C, HxW, group, output_mask, eps)

def group_norm(input: Tensor, num_groups: int, weight: Tensor | None = None, bias: Tensor | None = None, eps: float = 1e-05) -> Tensor:
    """group_norm(Tensor input, int num_groups, Tensor? weight=None, Tensor? bias=None, float eps=1e-05) -> Tensor
    """
    return _op.group_norm(input, num_groups, weight, bias, eps)

def rms_norm(input: Tensor, normalized_shape: int | Sequence[int], weight: Tensor | None = None, eps: float | None = None) -> Tensor:
    """rms_norm(Tensor input, int[] normalized_shape, Tensor? weight=None, float? eps=None) -> Tensor
    """
    normalized_shape = _b.int_list(normalized_shape, 0, 'normalized_shape')
    return _op.rms_norm(input, normalized_shape, weight, eps)

def cross_entropy(input: Tensor, target: Tensor, weight: Tensor | None = None, reduction: str = 'mean', ignore_index: int = -100, label_smoothing: float = 0.0) -> Tensor:
    """cross_entropy(Tensor self, Tensor target, Tensor? weight=None, str reduction="mean", int ignore_index=-100, float label_smoothing=0.0) -> Tensor
    """
    return _op.cross_entropy(input, target, weight, reduction, ignore_index, label_smoothing)

def nll_loss(input: Tensor, target: Tensor, weight: Tensor | None = None, reduction: str = 'mean', ignore_index: int = -100) -> Tensor:
    """nll_loss(Tensor self, Tensor target, Tensor? weight=None, str reduction="mean", int ignore_index=-100) -> Tensor
    """
    return _op.nll_loss(input, target, weight, reduction, ignore_index)

def mse_loss(input: Tensor, target: Tensor, reduction: str = 'mean') -> Tensor:
    """mse_loss(Tensor self, Tensor target, str reduction="mean") -> Tensor
    """
    return _op.mse_loss(input, target, reduction)

def l1_loss(input: Tensor, target: Tensor, reduction: str = 'mean') -> Tensor:
    """l1_loss(Tensor self, Tensor target, str reduction="mean") -> Tensor
    """
    return _op.l1_loss(input, target, reduction)

def smooth_l1_loss(input: Tensor, target: Tensor, reduction: str = 'mean', beta: float = 1.0) -> Tensor:
    """smooth_l1_loss(Tensor self, Tensor target, str reduction="mean", float beta=1.0) -> Tensor
    """
    return _op.smooth_l1_loss(input, target, reduction, beta)

def huber_loss(input: Tensor, target: Tensor, reduction: str = 'mean', delta: float = 1.0) -> Tensor:
    """huber_loss(Tensor self, Tensor target, str reduction="mean", float delta=1.0) -> Tensor
    """
    return _op.huber_loss(input, target, reduction, delta)

def binary_cross_entropy(input: Tensor, target: Tensor, weight: Tensor | None = None, reduction: str = 'mean') -> Tensor:
    """binary_cross_entropy(Tensor self, Tensor target, Tensor? weight=None, str reduction="mean") -> Tensor
    """
    return _op.binary_cross_entropy(input, target, weight, reduction)

def binary_cross_entropy_with_logits(input: Tensor, target: Tensor, weight: Tensor | None = None, pos_weight: Tensor | None = None, reduction: str = 'mean') -> Tensor:
    """binary_cross_entropy_with_logits(Tensor self, Tensor target, Tensor? weight=None, Tensor? pos_weight=None, str reduction="mean") -> Tensor
    """
    return _op.binary_cross_entropy_with_logits(input, target, weight, pos_weight, reduction)

def kl_div(input: Tensor, target: Tensor, reduction: str = 'mean', log_target: bool = False) -> Tensor:
    """kl_div(Tensor self, Tensor target, str reduction="mean", bool log_target=False) -> Tensor
    """
    return _op.kl_div(input, target, reduction, log_target)

def cosine_similarity(x1: Tensor, x2: Tensor, dim: int = 1, eps: float = 1e-08) -> Tensor:
    """cosine_similarity(Tensor x1, Tensor x2, int dim=1, float eps=1e-08) -> Tensor
    """
    return _op.cosine_similarity(x1, x2, dim, eps)

def pairwise_distance(x1: Tensor, x2: Tensor, p: float = 2, eps: float = 1e-06, keepdim: bool = False) -> Tensor:
    """pairwise_distance(Tensor x1, Tensor x2, float p=2, float eps=1e-06, bool keepdim=False) -> Tensor
    """
    return _op.pairwise_distance(x1, x2, p, eps, keepdim)

def normalize(input: Tensor, p: float = 2, dim: int = 1, eps: float = 1e-12) -> Tensor:
    """normalize(Tensor input, float p=2, int dim=1, float eps=1e-12) -> Tensor
    """
    return _op.normalize(input, p, dim, eps)

def scaled_dot_product_attention(query: Tensor, key: Tensor, value: Tensor, attn_mask: Tensor | None = None, dropout_p: float = 0.0, is_causal: bool = False, *, scale: float | None = None) -> Tensor:
    """scaled_dot_product_attention(Tensor query, Tensor key, Tensor value, Tensor? attn_mask=None, float dropout_p=0.0, bool is_causal=False, *, float? scale=None) -> Tensor
    """
    return _op.scaled_dot_product_attention(query, key, value, attn_mask, dropout_p, is_causal, scale)

def zeros_like(input: Tensor, *, dtype: dtype | None = None, device: str | None = None, requires_grad: bool = False) -> Tensor:
    """zeros_like(Tensor self, *, ScalarType? dtype=None, str? device=None, bool requires_grad=False) -> Tensor
    """
    dtype = _b.dtype_arg(dtype)
    return _op.zeros_like(input, dtype, device, requires_grad)

def ones_like(input: Tensor, *, dtype: dtype | None = None, device: str | None = None, requires_grad: bool = False) -> Tensor:
    """ones_like(Tensor self, *, ScalarType? dtype=None, str? device=None, bool requires_grad=False) -> Tensor
    """
    dtype = _b.dtype_arg(dtype)
    return _op.ones_like(input, dtype, device, requires_grad)

def full_like(input: Tensor, fill_value: Number, *, dtype: dtype | None = None, device: str | None = None, requires_grad: bool = False) -> Tensor:
    """full_like(Tensor self, Scalar fill_value, *, ScalarType? dtype=None, str? device=None, bool requires_grad=False) -> Tensor
    """
    dtype = _b.dtype_arg(dtype)
    return _op.full_like(input, fill_value, dtype, device, requires_grad)

def empty_like(input: Tensor, *, dtype: dtype | None = None, device: str | None = None, requires_grad: bool = False) -> Tensor:
    """empty_like(Tensor self, *, ScalarType? dtype=None, str? device=None, bool requires_grad=False) -> Tensor
    """
    dtype = _b.dtype_arg(dtype)
    return _op.empty_like(input, dtype, device, requires_grad)

def rand_like(input: Tensor, *, dtype: dtype | None = None, device: str | None = None, requires_grad: bool = False) -> Tensor:
    """rand_like(Tensor self, *, ScalarType? dtype=None, str? device=None, bool requires_grad=False) -> Tensor
    """
    dtype = _b.dtype_arg(dtype)
    return _op.rand_like(input, dtype, device, requires_grad)

def randn_like(input: Tensor, *, dtype: dtype | None = None, device: str | None = None, requires_grad: bool = False) -> Tensor:
    """randn_like(Tensor self, *, ScalarType? dtype=None, str? device=None, bool requires_grad=False) -> Tensor
    """
    dtype = _b.dtype_arg(dtype)
    return _op.randn_like(input, dtype, device, requires_grad)

def randint_like(*args: Any, **kwargs: Any) -> Any:
    """randint_like(Tensor self, int low, int high, *, ScalarType? dtype=None, str? device=None, bool requires_grad=False) -> Tensor
    randint_like.high(Tensor self, int high, *, ScalarType? dtype=None, str? device=None, bool requires_grad=False) -> Tensor
    """
    return _b.call_overloaded((_op.randint_like, _op.randint_like_high,), args, kwargs, 'randint_like')

def bernoulli(input: Tensor, p: float | None = None, *, generator: Generator | None = None) -> Tensor:
    """bernoulli(Tensor self, float? p=None, *, Generator? generator=None) -> Tensor
    """
    return _op.bernoulli(input, p, generator)

def multinomial(input: Tensor, num_samples: int, replacement: bool = False, *, generator: Generator | None = None) -> Tensor:
    """multinomial(Tensor self, int num_samples, bool replacement=False, *, Generator? generator=None) -> Tensor
    """
    return _op.multinomial(input, num_samples, replacement, generator)

def _sgd_update_(param: Tensor, grad: Tensor, momentum_buffer: Tensor | None, lr: float, momentum: float, dampening: float, weight_decay: float, nesterov: bool, maximize: bool, first_step: bool) -> Tensor:
    """_sgd_update_(Tensor(a!) param, Tensor grad, Tensor(b!)? momentum_buffer, float lr, float momentum, float dampening, float weight_decay, bool nesterov, bool maximize, bool first_step) -> Tensor(a!)
    """
    return _op._sgd_update_(param, grad, momentum_buffer, lr, momentum, dampening, weight_decay, nesterov, maximize, first_step)

def _adam_update_(param: Tensor, grad: Tensor, exp_avg: Tensor, exp_avg_sq: Tensor, max_exp_avg_sq: Tensor | None, step: int, lr: float, beta1: float, beta2: float, eps: float, weight_decay: float, amsgrad: bool, maximize: bool, decoupled_weight_decay: bool) -> Tensor:
    """_adam_update_(Tensor(a!) param, Tensor grad, Tensor(b!) exp_avg, Tensor(c!) exp_avg_sq, Tensor(d!)? max_exp_avg_sq, int step, float lr, float beta1, float beta2, float eps, float weight_decay, bool amsgrad, bool maximize, bool decoupled_weight_decay) -> Tensor(a!)
    """
    return _op._adam_update_(param, grad, exp_avg, exp_avg_sq, max_exp_avg_sq, step, lr, beta1, beta2, eps, weight_decay, amsgrad, maximize, decoupled_weight_decay)

def _rmsprop_update_(param: Tensor, grad: Tensor, square_avg: Tensor, grad_avg: Tensor | None, momentum_buffer: Tensor | None, lr: float, alpha: float, eps: float, weight_decay: float, momentum: float, maximize: bool) -> Tensor:
    """_rmsprop_update_(Tensor(a!) param, Tensor grad, Tensor(b!) square_avg, Tensor(c!)? grad_avg, Tensor(d!)? momentum_buffer, float lr, float alpha, float eps, float weight_decay, float momentum, bool maximize) -> Tensor(a!)
    """
    return _op._rmsprop_update_(param, grad, square_avg, grad_avg, momentum_buffer, lr, alpha, eps, weight_decay, momentum, maximize)

def _adagrad_update_(param: Tensor, grad: Tensor, state_sum: Tensor, step: int, lr: float, lr_decay: float, weight_decay: float, eps: float, maximize: bool) -> Tensor:
    """_adagrad_update_(Tensor(a!) param, Tensor grad, Tensor(b!) state_sum, int step, float lr, float lr_decay, float weight_decay, float eps, bool maximize) -> Tensor(a!)
    """
    return _op._adagrad_update_(param, grad, state_sum, step, lr, lr_decay, weight_decay, eps, maximize)


__all__ = [
    'abs',
    'neg',
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
    'acos',
    'atan',
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
    'lt',
    'le',
    'gt',
    'ge',
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
    'cumprod',
    'median',
    'matmul',
    'mm',
    'bmm',
    'addmm',
    'addmv',
    'baddbmm',
    'einsum',
    'outer',
    'dot',
    'mv',
    'trace',
    'tensordot',
    'as_strided',
    'permute',
    'transpose',
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
    'alias',
    'reshape',
    'flatten',
    'unflatten',
    'ravel',
    'clone',
    'detach',
    'cat',
    'concat',
    'stack',
    'hstack',
    'vstack',
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
    'sort',
    'argsort',
    'topk',
    'gather',
    'take_along_dim',
    'scatter',
    'scatter_add',
    'index_select',
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
]


NAMESPACES = {
    'volta': ('abs', 'neg', 'positive', 'exp', 'exp2', 'expm1', 'log', 'log2', 'log10', 'log1p', 'sqrt', 'rsqrt', 'sin', 'cos', 'tan', 'asin', 'acos', 'atan', 'sinh', 'cosh', 'tanh', 'tanh_backward', 'sigmoid', 'sigmoid_backward', 'relu', 'threshold_backward', 'gelu', 'gelu_backward', 'silu_backward', 'softplus_backward', 'elu_backward', 'selu', 'leaky_relu_backward', 'hardtanh_backward', 'log_sigmoid_backward', 'erf', 'erfc', 'erfinv', 'sign', 'floor', 'ceil', 'round', 'trunc', 'frac', 'reciprocal', 'square', 'clamp', 'clip', 'isnan', 'isinf', 'isfinite', 'signbit', 'nan_to_num', 'logical_not', 'bitwise_not', 'add', 'sub', 'subtract', 'mul', 'multiply', 'div', 'true_divide', 'divide', 'floor_divide', 'pow', 'float_power', 'maximum', 'minimum', 'fmax', 'fmin', 'remainder', 'fmod', 'atan2', 'arctan2', 'hypot', 'copysign', 'xlogy', 'logaddexp', 'eq', 'ne', 'lt', 'le', 'gt', 'ge', 'equal', 'allclose', 'isclose', 'logical_and', 'logical_or', 'logical_xor', 'bitwise_and', 'bitwise_or', 'bitwise_xor', 'bitwise_left_shift', 'bitwise_right_shift', 'where', 'lerp', 'addcmul', 'addcdiv', 'sum', 'nansum', 'mean', 'prod', 'max', 'min', 'amax', 'amin', 'aminmax', 'argmax', 'argmin', 'var', 'std', 'var_mean', 'std_mean', 'norm', 'dist', 'logsumexp', 'all', 'any', 'count_nonzero', 'cumsum', 'cumprod', 'median', 'matmul', 'mm', 'bmm', 'addmm', 'addmv', 'baddbmm', 'einsum', 'outer', 'dot', 'mv', 'trace', 'tensordot', 'as_strided', 'permute', 'transpose', 'swapaxes', 't', 'squeeze', 'unsqueeze', 'broadcast_to', 'narrow', 'slice', 'slice_backward', 'select', 'select_backward', 'unfold_backward', 'diagonal', 'diagonal_backward', 'as_strided_scatter', 'split', 'chunk', 'unbind', 'movedim', 'alias', 'reshape', 'flatten', 'unflatten', 'ravel', 'clone', 'detach', 'cat', 'concat', 'stack', 'hstack', 'vstack', 'flip', 'roll', 'tile', 'tril', 'triu', 'diag', 'diag_embed', 'meshgrid', 'pad_backward', 'sort', 'argsort', 'topk', 'gather', 'take_along_dim', 'scatter', 'scatter_add', 'index_select', 'index_add', 'index', 'index_put', 'masked_fill', 'masked_select', 'masked_scatter', 'nonzero', 'unique', 'bincount', 'searchsorted', 'softmax', '_softmax_backward_data', 'log_softmax', '_log_softmax_backward_data', 'bilinear', 'convolution', 'convolution_backward', 'conv1d', 'conv2d', 'conv3d', 'conv_transpose1d', 'conv_transpose2d', 'max_pool_with_indices', 'max_pool_backward', 'max_pool1d', 'max_pool2d', 'avg_pool', 'avg_pool_backward', 'avg_pool1d', 'avg_pool2d', 'adaptive_avg_pool', 'adaptive_avg_pool_backward', 'adaptive_max_pool', 'adaptive_avg_pool1d', 'adaptive_max_pool1d', 'embedding', 'embedding_backward', 'dropout', 'native_batch_norm', 'native_batch_norm_backward', 'batch_norm', 'native_layer_norm', 'native_layer_norm_backward', 'layer_norm', 'native_group_norm', 'native_group_norm_backward', 'group_norm', 'rms_norm', 'cross_entropy', 'nll_loss', 'mse_loss', 'l1_loss', 'smooth_l1_loss', 'huber_loss', 'binary_cross_entropy', 'binary_cross_entropy_with_logits', 'kl_div', 'cosine_similarity', 'pairwise_distance', 'zeros_like', 'ones_like', 'full_like', 'empty_like', 'rand_like', 'randn_like', 'randint_like', 'bernoulli', 'multinomial', '_sgd_update_', '_adam_update_', '_rmsprop_update_', '_adagrad_update_'),
    'nn.functional': ('tanh', 'sigmoid', 'relu6', 'gelu', 'silu', 'mish', 'softplus', 'elu', 'selu', 'leaky_relu', 'hardtanh', 'hardsigmoid', 'hardswish', 'logsigmoid', 'softsign', 'pad', 'one_hot', 'softmax', 'log_softmax', 'linear', 'bilinear', 'conv1d', 'conv2d', 'conv3d', 'conv_transpose1d', 'conv_transpose2d', 'max_pool1d', 'max_pool2d', 'max_pool2d_with_indices', 'avg_pool1d', 'avg_pool2d', 'adaptive_avg_pool1d', 'adaptive_avg_pool2d', 'adaptive_max_pool1d', 'adaptive_max_pool2d', 'layer_norm', 'group_norm', 'rms_norm', 'cosine_similarity', 'pairwise_distance', 'normalize', 'scaled_dot_product_attention'),
    'special': ('erf', 'erfc', 'erfinv', 'xlogy', 'softmax', 'log_softmax'),
    'linalg': ('vector_norm',),
}
