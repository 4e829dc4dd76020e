# @generated from ops.yaml by `python -m codegen` — do not edit.
# ruff: noqa
"""Tensor methods and operators; ``volta.Tensor`` inherits this class."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from volta.dispatch import binding as _b
if TYPE_CHECKING:
    from volta.dispatch.binding import DeviceLike, Generator, Number, Tensor, dtype
from volta._generated import registry as _op


class TensorMethods:
    __slots__ = ()

    @_b.checked(_op.abs, method=True)
    def abs(self) -> Tensor:
        """abs(Tensor self) -> Tensor
        """
        return _op.abs(self)

    @_b.checked(_op.abs, method=True)
    def absolute(self) -> Tensor:
        """abs(Tensor self) -> Tensor
        """
        return _op.abs(self)

    @_b.checked(_op.neg, method=True)
    def neg(self) -> Tensor:
        """neg(Tensor self) -> Tensor
        """
        return _op.neg(self)

    @_b.checked(_op.neg, method=True)
    def negative(self) -> Tensor:
        """neg(Tensor self) -> Tensor
        """
        return _op.neg(self)

    @_b.checked(_op.positive, method=True)
    def positive(self) -> Tensor:
        """positive(Tensor self) -> Tensor
        """
        return _op.positive(self)

    @_b.checked(_op.exp, method=True)
    def exp(self) -> Tensor:
        """exp(Tensor self) -> Tensor
        """
        return _op.exp(self)

    @_b.checked(_op.exp2, method=True)
    def exp2(self) -> Tensor:
        """exp2(Tensor self) -> Tensor
        """
        return _op.exp2(self)

    @_b.checked(_op.expm1, method=True)
    def expm1(self) -> Tensor:
        """expm1(Tensor self) -> Tensor
        """
        return _op.expm1(self)

    @_b.checked(_op.log, method=True)
    def log(self) -> Tensor:
        """log(Tensor self) -> Tensor
        """
        return _op.log(self)

    @_b.checked(_op.log2, method=True)
    def log2(self) -> Tensor:
        """log2(Tensor self) -> Tensor
        """
        return _op.log2(self)

    @_b.checked(_op.log10, method=True)
    def log10(self) -> Tensor:
        """log10(Tensor self) -> Tensor
        """
        return _op.log10(self)

    @_b.checked(_op.log1p, method=True)
    def log1p(self) -> Tensor:
        """log1p(Tensor self) -> Tensor
        """
        return _op.log1p(self)

    @_b.checked(_op.sqrt, method=True)
    def sqrt(self) -> Tensor:
        """sqrt(Tensor self) -> Tensor
        """
        return _op.sqrt(self)

    @_b.checked(_op.rsqrt, method=True)
    def rsqrt(self) -> Tensor:
        """rsqrt(Tensor self) -> Tensor
        """
        return _op.rsqrt(self)

    @_b.checked(_op.sin, method=True)
    def sin(self) -> Tensor:
        """sin(Tensor self) -> Tensor
        """
        return _op.sin(self)

    @_b.checked(_op.cos, method=True)
    def cos(self) -> Tensor:
        """cos(Tensor self) -> Tensor
        """
        return _op.cos(self)

    @_b.checked(_op.tan, method=True)
    def tan(self) -> Tensor:
        """tan(Tensor self) -> Tensor
        """
        return _op.tan(self)

    @_b.checked(_op.asin, method=True)
    def asin(self) -> Tensor:
        """asin(Tensor self) -> Tensor
        """
        return _op.asin(self)

    @_b.checked(_op.asin, method=True)
    def arcsin(self) -> Tensor:
        """asin(Tensor self) -> Tensor
        """
        return _op.asin(self)

    @_b.checked(_op.acos, method=True)
    def acos(self) -> Tensor:
        """acos(Tensor self) -> Tensor
        """
        return _op.acos(self)

    @_b.checked(_op.acos, method=True)
    def arccos(self) -> Tensor:
        """acos(Tensor self) -> Tensor
        """
        return _op.acos(self)

    @_b.checked(_op.atan, method=True)
    def atan(self) -> Tensor:
        """atan(Tensor self) -> Tensor
        """
        return _op.atan(self)

    @_b.checked(_op.atan, method=True)
    def arctan(self) -> Tensor:
        """atan(Tensor self) -> Tensor
        """
        return _op.atan(self)

    @_b.checked(_op.sinh, method=True)
    def sinh(self) -> Tensor:
        """sinh(Tensor self) -> Tensor
        """
        return _op.sinh(self)

    @_b.checked(_op.cosh, method=True)
    def cosh(self) -> Tensor:
        """cosh(Tensor self) -> Tensor
        """
        return _op.cosh(self)

    @_b.checked(_op.tanh, method=True)
    def tanh(self) -> Tensor:
        """tanh(Tensor self) -> Tensor
        """
        return _op.tanh(self)

    @_b.checked(_op.sigmoid, method=True)
    def sigmoid(self) -> Tensor:
        """sigmoid(Tensor self) -> Tensor
        """
        return _op.sigmoid(self)

    @_b.checked(_op.relu, method=True)
    def relu(self) -> Tensor:
        """relu(Tensor self) -> Tensor
        """
        return _op.relu(self)

    @_b.checked(_op.gelu, method=True)
    def gelu(self, *, approximate: str = 'none') -> Tensor:
        """gelu(Tensor self, *, str approximate="none") -> Tensor
        """
        if approximate.__class__ is not str: approximate = _b.str_arg(approximate, 'approximate', 'gelu')
        return _op.gelu(self, approximate)

    @_b.checked(_op.erf, method=True)
    def erf(self) -> Tensor:
        """erf(Tensor self) -> Tensor
        """
        return _op.erf(self)

    @_b.checked(_op.erfc, method=True)
    def erfc(self) -> Tensor:
        """erfc(Tensor self) -> Tensor
        """
        return _op.erfc(self)

    @_b.checked(_op.erfinv, method=True)
    def erfinv(self) -> Tensor:
        """erfinv(Tensor self) -> Tensor
        """
        return _op.erfinv(self)

    @_b.checked(_op.sign, method=True)
    def sign(self) -> Tensor:
        """sign(Tensor self) -> Tensor
        """
        return _op.sign(self)

    @_b.checked(_op.floor, method=True)
    def floor(self) -> Tensor:
        """floor(Tensor self) -> Tensor
        """
        return _op.floor(self)

    @_b.checked(_op.ceil, method=True)
    def ceil(self) -> Tensor:
        """ceil(Tensor self) -> Tensor
        """
        return _op.ceil(self)

    @_b.checked(_op.round, method=True)
    def round(self, *, decimals: int = 0) -> Tensor:
        """round(Tensor self, *, int decimals=0) -> Tensor
        """
        if decimals.__class__ is not int or not -9223372036854775808 <= decimals <= 9223372036854775807: decimals = _b.int_arg(decimals, 'decimals', 'round')
        return _op.round(self, decimals)

    @_b.checked(_op.trunc, method=True)
    def trunc(self) -> Tensor:
        """trunc(Tensor self) -> Tensor
        """
        return _op.trunc(self)

    @_b.checked(_op.trunc, method=True)
    def fix(self) -> Tensor:
        """trunc(Tensor self) -> Tensor
        """
        return _op.trunc(self)

    @_b.checked(_op.frac, method=True)
    def frac(self) -> Tensor:
        """frac(Tensor self) -> Tensor
        """
        return _op.frac(self)

    @_b.checked(_op.reciprocal, method=True)
    def reciprocal(self) -> Tensor:
        """reciprocal(Tensor self) -> Tensor
        """
        return _op.reciprocal(self)

    @_b.checked(_op.square, method=True)
    def square(self) -> Tensor:
        """square(Tensor self) -> Tensor
        """
        return _op.square(self)

    @_b.checked(_op.clamp, method=True)
    def clamp(self, min: Tensor | Number | None = None, max: Tensor | Number | None = None) -> Tensor:
        """clamp(Tensor self, Tensor? min=None, Tensor? max=None) -> Tensor
        """
        return _op.clamp(self, min, max)

    @_b.checked(_op.clip, method=True)
    def clip(self, min: Tensor | None = None, max: Tensor | None = None) -> Tensor:
        """clip(Tensor self, Tensor? min=None, Tensor? max=None) -> Tensor
        """
        return _op.clip(self, min, max)

    @_b.checked(_op.isnan, method=True)
    def isnan(self) -> Tensor:
        """isnan(Tensor self) -> Tensor
        """
        return _op.isnan(self)

    @_b.checked(_op.isinf, method=True)
    def isinf(self) -> Tensor:
        """isinf(Tensor self) -> Tensor
        """
        return _op.isinf(self)

    @_b.checked(_op.isfinite, method=True)
    def isfinite(self) -> Tensor:
        """isfinite(Tensor self) -> Tensor
        """
        return _op.isfinite(self)

    @_b.checked(_op.signbit, method=True)
    def signbit(self) -> Tensor:
        """signbit(Tensor self) -> Tensor
        """
        return _op.signbit(self)

    @_b.checked(_op.nan_to_num, method=True)
    def nan_to_num(self, nan: float | None = None, posinf: float | None = None, neginf: float | None = None) -> Tensor:
        """nan_to_num(Tensor self, float? nan=None, float? posinf=None, float? neginf=None) -> Tensor
        """
        if nan is not None and nan.__class__ is not float: nan = _b.float_arg(nan, 'nan', 'nan_to_num')
        if posinf is not None and posinf.__class__ is not float: posinf = _b.float_arg(posinf, 'posinf', 'nan_to_num')
        if neginf is not None and neginf.__class__ is not float: neginf = _b.float_arg(neginf, 'neginf', 'nan_to_num')
        return _op.nan_to_num(self, nan, posinf, neginf)

    @_b.checked(_op.logical_not, method=True)
    def logical_not(self) -> Tensor:
        """logical_not(Tensor self) -> Tensor
        """
        return _op.logical_not(self)

    @_b.checked(_op.bitwise_not, method=True)
    def bitwise_not(self) -> Tensor:
        """bitwise_not(Tensor self) -> Tensor
        """
        return _op.bitwise_not(self)

    @_b.checked(_op.add, method=True)
    def add(self, other: Tensor | Number, *, alpha: Number = 1) -> Tensor:
        """add(Tensor self, Tensor other, *, Scalar alpha=1) -> Tensor
        """
        return _op.add(self, other, alpha)

    @_b.checked(_op.sub, method=True)
    def sub(self, other: Tensor | Number, *, alpha: Number = 1) -> Tensor:
        """sub(Tensor self, Tensor other, *, Scalar alpha=1) -> Tensor
        """
        return _op.sub(self, other, alpha)

    @_b.checked(_op.subtract, method=True)
    def subtract(self, other: Tensor, *, alpha: Number = 1) -> Tensor:
        """subtract(Tensor self, Tensor other, *, Scalar alpha=1) -> Tensor
        """
        return _op.subtract(self, other, alpha)

    @_b.checked(_op.mul, method=True)
    def mul(self, other: Tensor | Number) -> Tensor:
        """mul(Tensor self, Tensor other) -> Tensor
        """
        return _op.mul(self, other)

    @_b.checked(_op.multiply, method=True)
    def multiply(self, other: Tensor) -> Tensor:
        """multiply(Tensor self, Tensor other) -> Tensor
        """
        return _op.multiply(self, other)

    @_b.checked(_op.div, method=True)
    def div(self, other: Tensor | Number, *, rounding_mode: str | None = None) -> Tensor:
        """div(Tensor self, Tensor other, *, str? rounding_mode=None) -> Tensor
        """
        if rounding_mode is not None and rounding_mode.__class__ is not str: rounding_mode = _b.str_arg(rounding_mode, 'rounding_mode', 'div')
        return _op.div(self, other, rounding_mode)

    @_b.checked(_op.true_divide, method=True)
    def true_divide(self, other: Tensor) -> Tensor:
        """true_divide(Tensor self, Tensor other) -> Tensor
        """
        return _op.true_divide(self, other)

    @_b.checked(_op.divide, method=True)
    def divide(self, other: Tensor, *, rounding_mode: str | None = None) -> Tensor:
        """divide(Tensor self, Tensor other, *, str? rounding_mode=None) -> Tensor
        """
        if rounding_mode is not None and rounding_mode.__class__ is not str: rounding_mode = _b.str_arg(rounding_mode, 'rounding_mode', 'divide')
        return _op.divide(self, other, rounding_mode)

    @_b.checked(_op.floor_divide, method=True)
    def floor_divide(self, other: Tensor | Number) -> Tensor:
        """floor_divide(Tensor self, Tensor other) -> Tensor
        """
        return _op.floor_divide(self, other)

    @_b.checked(_op.pow, method=True)
    def pow(self, exponent: Tensor | Number) -> Tensor:
        """pow(Tensor self, Tensor exponent) -> Tensor
        """
        return _op.pow(self, exponent)

    @_b.checked(_op.float_power, method=True)
    def float_power(self, exponent: Tensor) -> Tensor:
        """float_power(Tensor self, Tensor exponent) -> Tensor
        """
        return _op.float_power(self, exponent)

    @_b.checked(_op.maximum, method=True)
    def maximum(self, other: Tensor) -> Tensor:
        """maximum(Tensor self, Tensor other) -> Tensor
        """
        if other.__class__ not in _b.TENSOR_TYPES: _b.tensor_arg(other, 'other', 1, 'maximum')
        return _op.maximum(self, other)

    @_b.checked(_op.minimum, method=True)
    def minimum(self, other: Tensor) -> Tensor:
        """minimum(Tensor self, Tensor other) -> Tensor
        """
        if other.__class__ not in _b.TENSOR_TYPES: _b.tensor_arg(other, 'other', 1, 'minimum')
        return _op.minimum(self, other)

    @_b.checked(_op.fmax, method=True)
    def fmax(self, other: Tensor) -> Tensor:
        """fmax(Tensor self, Tensor other) -> Tensor
        """
        if other.__class__ not in _b.TENSOR_TYPES: _b.tensor_arg(other, 'other', 1, 'fmax')
        return _op.fmax(self, other)

    @_b.checked(_op.fmin, method=True)
    def fmin(self, other: Tensor) -> Tensor:
        """fmin(Tensor self, Tensor other) -> Tensor
        """
        if other.__class__ not in _b.TENSOR_TYPES: _b.tensor_arg(other, 'other', 1, 'fmin')
        return _op.fmin(self, other)

    @_b.checked(_op.remainder, method=True)
    def remainder(self, other: Tensor | Number) -> Tensor:
        """remainder(Tensor self, Tensor other) -> Tensor
        """
        return _op.remainder(self, other)

    @_b.checked(_op.fmod, method=True)
    def fmod(self, other: Tensor | Number) -> Tensor:
        """fmod(Tensor self, Tensor other) -> Tensor
        """
        return _op.fmod(self, other)

    @_b.checked(_op.atan2, method=True)
    def atan2(self, other: Tensor) -> Tensor:
        """atan2(Tensor self, Tensor other) -> Tensor
        """
        if other.__class__ not in _b.TENSOR_TYPES: _b.tensor_arg(other, 'other', 1, 'atan2')
        return _op.atan2(self, other)

    @_b.checked(_op.arctan2, method=True)
    def arctan2(self, other: Tensor) -> Tensor:
        """arctan2(Tensor self, Tensor other) -> Tensor
        """
        return _op.arctan2(self, other)

    @_b.checked(_op.hypot, method=True)
    def hypot(self, other: Tensor) -> Tensor:
        """hypot(Tensor self, Tensor other) -> Tensor
        """
        if other.__class__ not in _b.TENSOR_TYPES: _b.tensor_arg(other, 'other', 1, 'hypot')
        return _op.hypot(self, other)

    @_b.checked(_op.copysign, method=True)
    def copysign(self, other: Tensor | Number) -> Tensor:
        """copysign(Tensor self, Tensor other) -> Tensor
        """
        return _op.copysign(self, other)

    @_b.checked(_op.xlogy, method=True)
    def xlogy(self, other: Tensor | Number) -> Tensor:
        """xlogy(Tensor self, Tensor other) -> Tensor
        """
        return _op.xlogy(self, other)

    @_b.checked(_op.logaddexp, method=True)
    def logaddexp(self, other: Tensor) -> Tensor:
        """logaddexp(Tensor self, Tensor other) -> Tensor
        """
        if other.__class__ not in _b.TENSOR_TYPES: _b.tensor_arg(other, 'other', 1, 'logaddexp')
        return _op.logaddexp(self, other)

    @_b.checked(_op.eq, method=True)
    def eq(self, other: Tensor | Number) -> Tensor:
        """eq(Tensor self, Tensor other) -> Tensor
        """
        return _op.eq(self, other)

    @_b.checked(_op.ne, method=True)
    def ne(self, other: Tensor | Number) -> Tensor:
        """ne(Tensor self, Tensor other) -> Tensor
        """
        return _op.ne(self, other)

    @_b.checked(_op.ne, method=True)
    def not_equal(self, other: Tensor | Number) -> Tensor:
        """ne(Tensor self, Tensor other) -> Tensor
        """
        return _op.ne(self, other)

    @_b.checked(_op.lt, method=True)
    def lt(self, other: Tensor | Number) -> Tensor:
        """lt(Tensor self, Tensor other) -> Tensor
        """
        return _op.lt(self, other)

    @_b.checked(_op.lt, method=True)
    def less(self, other: Tensor | Number) -> Tensor:
        """lt(Tensor self, Tensor other) -> Tensor
        """
        return _op.lt(self, other)

    @_b.checked(_op.le, method=True)
    def le(self, other: Tensor | Number) -> Tensor:
        """le(Tensor self, Tensor other) -> Tensor
        """
        return _op.le(self, other)

    @_b.checked(_op.le, method=True)
    def less_equal(self, other: Tensor | Number) -> Tensor:
        """le(Tensor self, Tensor other) -> Tensor
        """
        return _op.le(self, other)

    @_b.checked(_op.gt, method=True)
    def gt(self, other: Tensor | Number) -> Tensor:
        """gt(Tensor self, Tensor other) -> Tensor
        """
        return _op.gt(self, other)

    @_b.checked(_op.gt, method=True)
    def greater(self, other: Tensor | Number) -> Tensor:
        """gt(Tensor self, Tensor other) -> Tensor
        """
        return _op.gt(self, other)

    @_b.checked(_op.ge, method=True)
    def ge(self, other: Tensor | Number) -> Tensor:
        """ge(Tensor self, Tensor other) -> Tensor
        """
        return _op.ge(self, other)

    @_b.checked(_op.ge, method=True)
    def greater_equal(self, other: Tensor | Number) -> Tensor:
        """ge(Tensor self, Tensor other) -> Tensor
        """
        return _op.ge(self, other)

    @_b.checked(_op.equal, method=True)
    def equal(self, other: Tensor) -> bool:
        """equal(Tensor self, Tensor other) -> bool
        """
        return _op.equal(self, other)

    @_b.checked(_op.allclose, method=True)
    def allclose(self, other: Tensor, rtol: float = 1e-05, atol: float = 1e-08, equal_nan: bool = False) -> bool:
        """allclose(Tensor self, Tensor other, float rtol=1e-05, float atol=1e-08, bool equal_nan=False) -> bool
        """
        if rtol.__class__ is not float: rtol = _b.float_arg(rtol, 'rtol', 'allclose')
        if atol.__class__ is not float: atol = _b.float_arg(atol, 'atol', 'allclose')
        if equal_nan.__class__ is not bool: equal_nan = _b.bool_arg(equal_nan, 'equal_nan', 'allclose')
        return _op.allclose(self, other, rtol, atol, equal_nan)

    @_b.checked(_op.isclose, method=True)
    def isclose(self, other: Tensor, rtol: float = 1e-05, atol: float = 1e-08, equal_nan: bool = False) -> Tensor:
        """isclose(Tensor self, Tensor other, float rtol=1e-05, float atol=1e-08, bool equal_nan=False) -> Tensor
        """
        if rtol.__class__ is not float: rtol = _b.float_arg(rtol, 'rtol', 'isclose')
        if atol.__class__ is not float: atol = _b.float_arg(atol, 'atol', 'isclose')
        if equal_nan.__class__ is not bool: equal_nan = _b.bool_arg(equal_nan, 'equal_nan', 'isclose')
        return _op.isclose(self, other, rtol, atol, equal_nan)

    @_b.checked(_op.logical_and, method=True)
    def logical_and(self, other: Tensor) -> Tensor:
        """logical_and(Tensor self, Tensor other) -> Tensor
        """
        if other.__class__ not in _b.TENSOR_TYPES: _b.tensor_arg(other, 'other', 1, 'logical_and')
        return _op.logical_and(self, other)

    @_b.checked(_op.logical_or, method=True)
    def logical_or(self, other: Tensor) -> Tensor:
        """logical_or(Tensor self, Tensor other) -> Tensor
        """
        if other.__class__ not in _b.TENSOR_TYPES: _b.tensor_arg(other, 'other', 1, 'logical_or')
        return _op.logical_or(self, other)

    @_b.checked(_op.logical_xor, method=True)
    def logical_xor(self, other: Tensor) -> Tensor:
        """logical_xor(Tensor self, Tensor other) -> Tensor
        """
        if other.__class__ not in _b.TENSOR_TYPES: _b.tensor_arg(other, 'other', 1, 'logical_xor')
        return _op.logical_xor(self, other)

    @_b.checked(_op.bitwise_and, method=True)
    def bitwise_and(self, other: Tensor | Number) -> Tensor:
        """bitwise_and(Tensor self, Tensor other) -> Tensor
        """
        return _op.bitwise_and(self, other)

    @_b.checked(_op.bitwise_or, method=True)
    def bitwise_or(self, other: Tensor | Number) -> Tensor:
        """bitwise_or(Tensor self, Tensor other) -> Tensor
        """
        return _op.bitwise_or(self, other)

    @_b.checked(_op.bitwise_xor, method=True)
    def bitwise_xor(self, other: Tensor | Number) -> Tensor:
        """bitwise_xor(Tensor self, Tensor other) -> Tensor
        """
        return _op.bitwise_xor(self, other)

    @_b.checked(_op.bitwise_left_shift, method=True)
    def bitwise_left_shift(self, other: Tensor | Number) -> Tensor:
        """bitwise_left_shift(Tensor self, Tensor other) -> Tensor
        """
        return _op.bitwise_left_shift(self, other)

    @_b.checked(_op.bitwise_right_shift, method=True)
    def bitwise_right_shift(self, other: Tensor | Number) -> Tensor:
        """bitwise_right_shift(Tensor self, Tensor other) -> Tensor
        """
        return _op.bitwise_right_shift(self, other)

    @_b.checked(_op.where_self, method=True)
    def where(self, condition: Tensor | Number, other: Tensor | Number) -> Tensor:
        """where.self(Tensor condition, Tensor self, Tensor other) -> Tensor
        """
        return _op.where_self(condition, self, other)

    @_b.checked(_op.lerp, method=True)
    def lerp(self, end: Tensor, weight: Tensor | Number) -> Tensor:
        """lerp(Tensor self, Tensor end, Tensor weight) -> Tensor
        """
        if end.__class__ not in _b.TENSOR_TYPES: _b.tensor_arg(end, 'end', 1, 'lerp')
        return _op.lerp(self, end, weight)

    @_b.checked(_op.addcmul, method=True)
    def addcmul(self, tensor1: Tensor, tensor2: Tensor, *, value: Number = 1) -> Tensor:
        """addcmul(Tensor self, Tensor tensor1, Tensor tensor2, *, Scalar value=1) -> Tensor
        """
        if tensor1.__class__ not in _b.TENSOR_TYPES: _b.tensor_arg(tensor1, 'tensor1', 1, 'addcmul')
        if tensor2.__class__ not in _b.TENSOR_TYPES: _b.tensor_arg(tensor2, 'tensor2', 2, 'addcmul')
        return _op.addcmul(self, tensor1, tensor2, value)

    @_b.checked(_op.addcdiv, method=True)
    def addcdiv(self, tensor1: Tensor, tensor2: Tensor, *, value: Number = 1) -> Tensor:
        """addcdiv(Tensor self, Tensor tensor1, Tensor tensor2, *, Scalar value=1) -> Tensor
        """
        if tensor1.__class__ not in _b.TENSOR_TYPES: _b.tensor_arg(tensor1, 'tensor1', 1, 'addcdiv')
        if tensor2.__class__ not in _b.TENSOR_TYPES: _b.tensor_arg(tensor2, 'tensor2', 2, 'addcdiv')
        return _op.addcdiv(self, tensor1, tensor2, value)

    @_b.checked(_op.acosh, method=True)
    def acosh(self) -> Tensor:
        """acosh(Tensor self) -> Tensor
        
        Inverse hyperbolic cosine, elementwise.
        """
        return _op.acosh(self)

    @_b.checked(_op.acosh, method=True)
    def arccosh(self) -> Tensor:
        """acosh(Tensor self) -> Tensor
        
        Inverse hyperbolic cosine, elementwise.
        """
        return _op.acosh(self)

    @_b.checked(_op.asinh, method=True)
    def asinh(self) -> Tensor:
        """asinh(Tensor self) -> Tensor
        
        Inverse hyperbolic sine, elementwise.
        """
        return _op.asinh(self)

    @_b.checked(_op.asinh, method=True)
    def arcsinh(self) -> Tensor:
        """asinh(Tensor self) -> Tensor
        
        Inverse hyperbolic sine, elementwise.
        """
        return _op.asinh(self)

    @_b.checked(_op.atanh, method=True)
    def atanh(self) -> Tensor:
        """atanh(Tensor self) -> Tensor
        
        Inverse hyperbolic tangent, elementwise.
        """
        return _op.atanh(self)

    @_b.checked(_op.atanh, method=True)
    def arctanh(self) -> Tensor:
        """atanh(Tensor self) -> Tensor
        
        Inverse hyperbolic tangent, elementwise.
        """
        return _op.atanh(self)

    @_b.checked(_op.deg2rad, method=True)
    def deg2rad(self) -> Tensor:
        """deg2rad(Tensor self) -> Tensor
        
        Degrees to radians, elementwise.
        """
        return _op.deg2rad(self)

    @_b.checked(_op.rad2deg, method=True)
    def rad2deg(self) -> Tensor:
        """rad2deg(Tensor self) -> Tensor
        
        Radians to degrees, elementwise.
        """
        return _op.rad2deg(self)

    @_b.checked(_op.sinc, method=True)
    def sinc(self) -> Tensor:
        """sinc(Tensor self) -> Tensor
        
        The normalized sinc function sin(pi x) / (pi x), 1 at 0.
        """
        return _op.sinc(self)

    @_b.checked(_op.sgn, method=True)
    def sgn(self) -> Tensor:
        """sgn(Tensor self) -> Tensor
        
        The sign of each element (sign() for real tensors).
        """
        return _op.sgn(self)

    @_b.checked(_op.logit, method=True)
    def logit(self, eps: float | None = None) -> Tensor:
        """logit(Tensor self, float? eps=None) -> Tensor
        
        log(p / (1 - p)), with p clamped to [eps, 1 - eps] when eps is given.
        """
        if eps is not None and eps.__class__ is not float: eps = _b.float_arg(eps, 'eps', 'logit')
        return _op.logit(self, eps)

    @_b.checked(_op.lgamma, method=True)
    def lgamma(self) -> Tensor:
        """lgamma(Tensor self) -> Tensor
        
        Natural logarithm of the absolute value of the gamma function.
        """
        return _op.lgamma(self)

    @_b.checked(_op.digamma, method=True)
    def digamma(self) -> Tensor:
        """digamma(Tensor self) -> Tensor
        
        The logarithmic derivative of the gamma function.
        """
        return _op.digamma(self)

    @_b.checked(_op.mvlgamma, method=True)
    def mvlgamma(self, p: int) -> Tensor:
        """mvlgamma(Tensor self, int p) -> Tensor
        
        The multivariate log-gamma function of dimension p.
        """
        if p.__class__ is not int or not -9223372036854775808 <= p <= 9223372036854775807: p = _b.int_arg(p, 'p', 'mvlgamma')
        return _op.mvlgamma(self, p)

    @_b.checked(_op.i0, method=True)
    def i0(self) -> Tensor:
        """i0(Tensor self) -> Tensor
        
        The modified Bessel function of the first kind, order 0.
        """
        return _op.i0(self)

    @_b.checked(_op.igamma, method=True)
    def igamma(self, other: Tensor) -> Tensor:
        """igamma(Tensor self, Tensor other) -> Tensor
        
        The regularized lower incomplete gamma function.
        """
        return _op.igamma(self, other)

    @_b.checked(_op.igammac, method=True)
    def igammac(self, other: Tensor) -> Tensor:
        """igammac(Tensor self, Tensor other) -> Tensor
        
        The regularized upper incomplete gamma function.
        """
        return _op.igammac(self, other)

    @_b.checked(_op.frexp, method=True)
    def frexp(self) -> tuple[Tensor, Tensor]:
        """frexp(Tensor self) -> (Tensor mantissa, Tensor exponent)
        
        Splits each element into a mantissa in [0.5, 1) and an integer power of two.
        """
        return _b.named_result('frexp', ('mantissa', 'exponent'), _op.frexp(self))

    @_b.checked(_op.ldexp, method=True)
    def ldexp(self, other: Tensor) -> Tensor:
        """ldexp(Tensor self, Tensor other) -> Tensor
        
        self * 2 ** other.
        """
        return _op.ldexp(self, other)

    @_b.checked(_op.heaviside, method=True)
    def heaviside(self, values: Tensor) -> Tensor:
        """heaviside(Tensor self, Tensor values) -> Tensor
        
        The Heaviside step function, with ``values`` where self is 0.
        """
        return _op.heaviside(self, values)

    @_b.checked(_op.nextafter, method=True)
    def nextafter(self, other: Tensor) -> Tensor:
        """nextafter(Tensor self, Tensor other) -> Tensor
        
        The next floating-point value after self towards other.
        """
        return _op.nextafter(self, other)

    @_b.checked(_op.gcd, method=True)
    def gcd(self, other: Tensor) -> Tensor:
        """gcd(Tensor self, Tensor other) -> Tensor
        
        The greatest common divisor, elementwise.
        """
        return _op.gcd(self, other)

    @_b.checked(_op.lcm, method=True)
    def lcm(self, other: Tensor) -> Tensor:
        """lcm(Tensor self, Tensor other) -> Tensor
        
        The least common multiple, elementwise.
        """
        return _op.lcm(self, other)

    @_b.checked(_op.logaddexp2, method=True)
    def logaddexp2(self, other: Tensor) -> Tensor:
        """logaddexp2(Tensor self, Tensor other) -> Tensor
        
        log2(2 ** self + 2 ** other), computed without overflow.
        """
        if other.__class__ not in _b.TENSOR_TYPES: _b.tensor_arg(other, 'other', 1, 'logaddexp2')
        return _op.logaddexp2(self, other)

    @_b.checked(_op.angle, method=True)
    def angle(self) -> Tensor:
        """angle(Tensor self) -> Tensor
        
        The argument of each element (pi for negative reals, 0 otherwise).
        """
        return _op.angle(self)

    @_b.checked(_op.isposinf, method=True)
    def isposinf(self) -> Tensor:
        """isposinf(Tensor self) -> Tensor
        
        Whether each element is positive infinity.
        """
        return _op.isposinf(self)

    @_b.checked(_op.isneginf, method=True)
    def isneginf(self) -> Tensor:
        """isneginf(Tensor self) -> Tensor
        
        Whether each element is negative infinity.
        """
        return _op.isneginf(self)

    @_b.checked(_op.isreal, method=True)
    def isreal(self) -> Tensor:
        """isreal(Tensor self) -> Tensor
        
        Whether each element is real (always, for the real dtypes volta has).
        """
        return _op.isreal(self)

    @_b.checked(_op.conj, method=True)
    def conj(self) -> Tensor:
        """conj(Tensor self) -> Tensor
        
        The complex conjugate (the tensor itself, for real dtypes).
        """
        return _op.conj(self)

    @_b.checked(_op.conj_physical, method=True)
    def conj_physical(self) -> Tensor:
        """conj_physical(Tensor self) -> Tensor
        
        The complex conjugate, materialized (the tensor itself, for real dtypes).
        """
        return _op.conj_physical(self)

    @_b.checked(_op.resolve_conj, method=True)
    def resolve_conj(self) -> Tensor:
        """resolve_conj(Tensor self) -> Tensor
        
        Materializes a lazy conjugation (the tensor itself, for real dtypes).
        """
        return _op.resolve_conj(self)

    @_b.checked(_op.resolve_neg, method=True)
    def resolve_neg(self) -> Tensor:
        """resolve_neg(Tensor self) -> Tensor
        
        Materializes a lazy negation (the tensor itself, for real dtypes).
        """
        return _op.resolve_neg(self)

    @_b.checked(_op.clamp_min, method=True)
    def clamp_min(self, min: Tensor) -> Tensor:
        """clamp_min(Tensor self, Tensor min) -> Tensor
        
        clamp with a lower bound only.
        """
        return _op.clamp_min(self, min)

    @_b.checked(_op.clamp_max, method=True)
    def clamp_max(self, max: Tensor) -> Tensor:
        """clamp_max(Tensor self, Tensor max) -> Tensor
        
        clamp with an upper bound only.
        """
        return _op.clamp_max(self, max)

    @_b.checked(_op.sum, method=True)
    def sum(self, dim: int | Sequence[int] | None = None, keepdim: bool = False, *, dtype: dtype | None = None) -> Tensor:
        """sum(Tensor self, int[1]? dim=None, bool keepdim=False, *, ScalarType? dtype=None) -> Tensor
        """
        dim = _b.int_list(dim, 1, 'dim')
        if keepdim.__class__ is not bool: keepdim = _b.bool_arg(keepdim, 'keepdim', 'sum')
        dtype = _b.dtype_arg(dtype)
        return _op.sum(self, dim, keepdim, dtype)

    @_b.checked(_op.nansum, method=True)
    def nansum(self, dim: int | Sequence[int] | None = None, keepdim: bool = False, *, dtype: dtype | None = None) -> Tensor:
        """nansum(Tensor self, int[1]? dim=None, bool keepdim=False, *, ScalarType? dtype=None) -> Tensor
        """
        dim = _b.int_list(dim, 1, 'dim')
        if keepdim.__class__ is not bool: keepdim = _b.bool_arg(keepdim, 'keepdim', 'nansum')
        dtype = _b.dtype_arg(dtype)
        return _op.nansum(self, dim, keepdim, dtype)

    @_b.checked(_op.mean, method=True)
    def mean(self, dim: int | Sequence[int] | None = None, keepdim: bool = False, *, dtype: dtype | None = None) -> Tensor:
        """mean(Tensor self, int[1]? dim=None, bool keepdim=False, *, ScalarType? dtype=None) -> Tensor
        """
        dim = _b.int_list(dim, 1, 'dim')
        if keepdim.__class__ is not bool: keepdim = _b.bool_arg(keepdim, 'keepdim', 'mean')
        dtype = _b.dtype_arg(dtype)
        return _op.mean(self, dim, keepdim, dtype)

    @_b.checked(_op.prod, method=True)
    def prod(self, dim: int | None = _b.OMITTED, keepdim: bool = False, *, dtype: dtype | None = None) -> Tensor:
        """prod(Tensor self, int? dim=None, bool keepdim=False, *, ScalarType? dtype=None) -> Tensor
        """
        if dim is None: _b.reject_none('dim', 'int', 'prod')
        if dim is _b.OMITTED: dim = None
        if dim is not None and (dim.__class__ is not int or not -9223372036854775808 <= dim <= 9223372036854775807): dim = _b.int_arg(dim, 'dim', 'prod')
        if keepdim.__class__ is not bool: keepdim = _b.bool_arg(keepdim, 'keepdim', 'prod')
        dtype = _b.dtype_arg(dtype)
        return _op.prod(self, dim, keepdim, dtype)

    def max(self, *args: Any, **kwargs: Any) -> Any:
        """max(Tensor self) -> Tensor
        max.dim(Tensor self, int dim, bool keepdim=False) -> (Tensor values, Tensor indices)
        max.other(Tensor self, Tensor other) -> Tensor
        """
        return _b.call_overloaded((_op.max, _op.max_dim, _op.max_other,), (self, *args), kwargs, 'max')

    def min(self, *args: Any, **kwargs: Any) -> Any:
        """min(Tensor self) -> Tensor
        min.dim(Tensor self, int dim, bool keepdim=False) -> (Tensor values, Tensor indices)
        min.other(Tensor self, Tensor other) -> Tensor
        """
        return _b.call_overloaded((_op.min, _op.min_dim, _op.min_other,), (self, *args), kwargs, 'min')

    @_b.checked(_op.amax, method=True)
    def amax(self, dim: int | Sequence[int] = [], keepdim: bool = False) -> Tensor:
        """amax(Tensor self, int[1] dim=[], bool keepdim=False) -> Tensor
        """
        dim = _b.int_list(dim, 1, 'dim')
        if keepdim.__class__ is not bool: keepdim = _b.bool_arg(keepdim, 'keepdim', 'amax')
        return _op.amax(self, dim, keepdim)

    @_b.checked(_op.amin, method=True)
    def amin(self, dim: int | Sequence[int] = [], keepdim: bool = False) -> Tensor:
        """amin(Tensor self, int[1] dim=[], bool keepdim=False) -> Tensor
        """
        dim = _b.int_list(dim, 1, 'dim')
        if keepdim.__class__ is not bool: keepdim = _b.bool_arg(keepdim, 'keepdim', 'amin')
        return _op.amin(self, dim, keepdim)

    @_b.checked(_op.aminmax, method=True)
    def aminmax(self, *, dim: int | None = None, keepdim: bool = False) -> tuple[Tensor, Tensor]:
        """aminmax(Tensor self, *, int? dim=None, bool keepdim=False) -> (Tensor min, Tensor max)
        """
        if dim is not None and (dim.__class__ is not int or not -9223372036854775808 <= dim <= 9223372036854775807): dim = _b.int_arg(dim, 'dim', 'aminmax')
        if keepdim.__class__ is not bool: keepdim = _b.bool_arg(keepdim, 'keepdim', 'aminmax')
        return _b.named_result('aminmax', ('min', 'max'), _op.aminmax(self, dim, keepdim))

    @_b.checked(_op.argmax, method=True)
    def argmax(self, dim: int | None = None, keepdim: bool = False) -> Tensor:
        """argmax(Tensor self, int? dim=None, bool keepdim=False) -> Tensor
        """
        if dim is not None and (dim.__class__ is not int or not -9223372036854775808 <= dim <= 9223372036854775807): dim = _b.int_arg(dim, 'dim', 'argmax')
        if keepdim.__class__ is not bool: keepdim = _b.bool_arg(keepdim, 'keepdim', 'argmax')
        return _op.argmax(self, dim, keepdim)

    @_b.checked(_op.argmin, method=True)
    def argmin(self, dim: int | None = None, keepdim: bool = False) -> Tensor:
        """argmin(Tensor self, int? dim=None, bool keepdim=False) -> Tensor
        """
        if dim is not None and (dim.__class__ is not int or not -9223372036854775808 <= dim <= 9223372036854775807): dim = _b.int_arg(dim, 'dim', 'argmin')
        if keepdim.__class__ is not bool: keepdim = _b.bool_arg(keepdim, 'keepdim', 'argmin')
        return _op.argmin(self, dim, keepdim)

    def var(self, *args: Any, **kwargs: Any) -> Any:
        """var.correction(Tensor self, int[1]? dim=None, *, Scalar? correction=None, bool keepdim=False) -> Tensor
        var.dim(Tensor self, int[1]? dim, bool unbiased=True, bool keepdim=False) -> Tensor
        var(Tensor self, bool unbiased=True) -> Tensor
        """
        return _b.call_overloaded((_op.var_correction, _op.var_dim, _op.var,), (self, *args), kwargs, 'var')

    def std(self, *args: Any, **kwargs: Any) -> Any:
        """std.correction(Tensor self, int[1]? dim=None, *, Scalar? correction=None, bool keepdim=False) -> Tensor
        std.dim(Tensor self, int[1]? dim, bool unbiased=True, bool keepdim=False) -> Tensor
        std(Tensor self, bool unbiased=True) -> Tensor
        """
        return _b.call_overloaded((_op.std_correction, _op.std_dim, _op.std,), (self, *args), kwargs, 'std')

    def norm(self, *args: Any, **kwargs: Any) -> Any:
        """norm(Tensor self, Scalar? p=2, int[1]? dim=None, bool keepdim=False, *, ScalarType? dtype=None) -> Tensor
        norm.str(Tensor self, str p, int[1]? dim=None, bool keepdim=False, *, ScalarType? dtype=None) -> Tensor
        """
        return _b.call_overloaded((_op.norm, _op.norm_str,), (self, *args), kwargs, 'norm')

    @_b.checked(_op.dist, method=True)
    def dist(self, other: Tensor, p: Number = 2) -> Tensor:
        """dist(Tensor self, Tensor other, Scalar p=2) -> Tensor
        """
        if other.__class__ not in _b.TENSOR_TYPES: _b.tensor_arg(other, 'other', 1, 'dist')
        return _op.dist(self, other, p)

    @_b.checked(_op.logsumexp, method=True)
    def logsumexp(self, dim: int | Sequence[int], keepdim: bool = False) -> Tensor:
        """logsumexp(Tensor self, int[1] dim, bool keepdim=False) -> Tensor
        """
        dim = _b.int_list(dim, 1, 'dim')
        if keepdim.__class__ is not bool: keepdim = _b.bool_arg(keepdim, 'keepdim', 'logsumexp')
        return _op.logsumexp(self, dim, keepdim)

    @_b.checked(_op.all, method=True)
    def all(self, dim: int | Sequence[int] | None = None, keepdim: bool = False) -> Tensor:
        """all(Tensor self, int[1]? dim=None, bool keepdim=False) -> Tensor
        """
        dim = _b.int_list(dim, 1, 'dim')
        if keepdim.__class__ is not bool: keepdim = _b.bool_arg(keepdim, 'keepdim', 'all')
        return _op.all(self, dim, keepdim)

    @_b.checked(_op.any, method=True)
    def any(self, dim: int | Sequence[int] | None = None, keepdim: bool = False) -> Tensor:
        """any(Tensor self, int[1]? dim=None, bool keepdim=False) -> Tensor
        """
        dim = _b.int_list(dim, 1, 'dim')
        if keepdim.__class__ is not bool: keepdim = _b.bool_arg(keepdim, 'keepdim', 'any')
        return _op.any(self, dim, keepdim)

    @_b.checked(_op.count_nonzero, method=True)
    def count_nonzero(self, dim: int | Sequence[int] | None = None) -> Tensor:
        """count_nonzero(Tensor self, int[1]? dim=None) -> Tensor
        """
        dim = _b.int_list(dim, 1, 'dim')
        return _op.count_nonzero(self, dim)

    @_b.checked(_op.cumsum, method=True)
    def cumsum(self, dim: int, *, dtype: dtype | None = None) -> Tensor:
        """cumsum(Tensor self, int dim, *, ScalarType? dtype=None) -> Tensor
        """
        if dim.__class__ is not int or not -9223372036854775808 <= dim <= 9223372036854775807: dim = _b.int_arg(dim, 'dim', 'cumsum')
        dtype = _b.dtype_arg(dtype)
        return _op.cumsum(self, dim, dtype)

    @_b.checked(_op.cumprod, method=True)
    def cumprod(self, dim: int, *, dtype: dtype | None = None) -> Tensor:
        """cumprod(Tensor self, int dim, *, ScalarType? dtype=None) -> Tensor
        """
        if dim.__class__ is not int or not -9223372036854775808 <= dim <= 9223372036854775807: dim = _b.int_arg(dim, 'dim', 'cumprod')
        dtype = _b.dtype_arg(dtype)
        return _op.cumprod(self, dim, dtype)

    def median(self, *args: Any, **kwargs: Any) -> Any:
        """median(Tensor self) -> Tensor
        median.dim(Tensor self, int dim, bool keepdim=False) -> (Tensor values, Tensor indices)
        """
        return _b.call_overloaded((_op.median, _op.median_dim,), (self, *args), kwargs, 'median')

    @_b.checked(_op.cummax, method=True)
    def cummax(self, dim: int) -> tuple[Tensor, Tensor]:
        """cummax(Tensor self, int dim) -> (Tensor values, Tensor indices)
        
        Running maximum along dim, with the index of each maximum.
        """
        if dim.__class__ is not int or not -9223372036854775808 <= dim <= 9223372036854775807: dim = _b.int_arg(dim, 'dim', 'cummax')
        return _b.named_result('cummax', ('values', 'indices'), _op.cummax(self, dim))

    @_b.checked(_op.cummin, method=True)
    def cummin(self, dim: int) -> tuple[Tensor, Tensor]:
        """cummin(Tensor self, int dim) -> (Tensor values, Tensor indices)
        
        Running minimum along dim, with the index of each minimum.
        """
        if dim.__class__ is not int or not -9223372036854775808 <= dim <= 9223372036854775807: dim = _b.int_arg(dim, 'dim', 'cummin')
        return _b.named_result('cummin', ('values', 'indices'), _op.cummin(self, dim))

    @_b.checked(_op.logcumsumexp, method=True)
    def logcumsumexp(self, dim: int) -> Tensor:
        """logcumsumexp(Tensor self, int dim) -> Tensor
        
        log(cumsum(exp(self))) along dim, computed without overflow.
        """
        if dim.__class__ is not int or not -9223372036854775808 <= dim <= 9223372036854775807: dim = _b.int_arg(dim, 'dim', 'logcumsumexp')
        return _op.logcumsumexp(self, dim)

    @_b.checked(_op.nanmean, method=True)
    def nanmean(self, dim: int | Sequence[int] | None = None, keepdim: bool = False, *, dtype: dtype | None = None) -> Tensor:
        """nanmean(Tensor self, int[1]? dim=None, bool keepdim=False, *, ScalarType? dtype=None) -> Tensor
        
        The mean of the elements that are not nan.
        """
        dim = _b.int_list(dim, 1, 'dim')
        if keepdim.__class__ is not bool: keepdim = _b.bool_arg(keepdim, 'keepdim', 'nanmean')
        dtype = _b.dtype_arg(dtype)
        return _op.nanmean(self, dim, keepdim, dtype)

    def nanmedian(self, *args: Any, **kwargs: Any) -> Any:
        """nanmedian(Tensor self) -> Tensor
        nanmedian.dim(Tensor self, int dim, bool keepdim=False) -> (Tensor values, Tensor indices)
        
        The lower median of the elements that are not nan.
        
        The lower median along dim ignoring nan, with its index.
        """
        return _b.call_overloaded((_op.nanmedian, _op.nanmedian_dim,), (self, *args), kwargs, 'nanmedian')

    def quantile(self, *args: Any, **kwargs: Any) -> Any:
        """quantile(Tensor self, Tensor q, int? dim=None, bool keepdim=False, *, str interpolation='linear') -> Tensor
        quantile.scalar(Tensor self, float q, int? dim=None, bool keepdim=False, *, str interpolation='linear') -> Tensor
        
        The q-th quantiles along dim (of all elements when dim is None).
        """
        return _b.call_overloaded((_op.quantile, _op.quantile_scalar,), (self, *args), kwargs, 'quantile')

    def nanquantile(self, *args: Any, **kwargs: Any) -> Any:
        """nanquantile(Tensor self, Tensor q, int? dim=None, bool keepdim=False, *, str interpolation='linear') -> Tensor
        nanquantile.scalar(Tensor self, float q, int? dim=None, bool keepdim=False, *, str interpolation='linear') -> Tensor
        
        quantile ignoring nan.
        """
        return _b.call_overloaded((_op.nanquantile, _op.nanquantile_scalar,), (self, *args), kwargs, 'nanquantile')

    @_b.checked(_op.kthvalue, method=True)
    def kthvalue(self, k: int, dim: int = -1, keepdim: bool = False) -> tuple[Tensor, Tensor]:
        """kthvalue(Tensor self, int k, int dim=-1, bool keepdim=False) -> (Tensor values, Tensor indices)
        
        The k-th smallest element along dim, with its index.
        """
        if k.__class__ is not int or not -9223372036854775808 <= k <= 9223372036854775807: k = _b.int_arg(k, 'k', 'kthvalue')
        if dim.__class__ is not int or not -9223372036854775808 <= dim <= 9223372036854775807: dim = _b.int_arg(dim, 'dim', 'kthvalue')
        if keepdim.__class__ is not bool: keepdim = _b.bool_arg(keepdim, 'keepdim', 'kthvalue')
        return _b.named_result('kthvalue', ('values', 'indices'), _op.kthvalue(self, k, dim, keepdim))

    @_b.checked(_op.mode, method=True)
    def mode(self, dim: int = -1, keepdim: bool = False) -> tuple[Tensor, Tensor]:
        """mode(Tensor self, int dim=-1, bool keepdim=False) -> (Tensor values, Tensor indices)
        
        The most frequent value along dim (the smallest among ties), with its index.
        """
        if dim.__class__ is not int or not -9223372036854775808 <= dim <= 9223372036854775807: dim = _b.int_arg(dim, 'dim', 'mode')
        if keepdim.__class__ is not bool: keepdim = _b.bool_arg(keepdim, 'keepdim', 'mode')
        return _b.named_result('mode', ('values', 'indices'), _op.mode(self, dim, keepdim))

    @_b.checked(_op.msort, method=True)
    def msort(self) -> Tensor:
        """msort(Tensor self) -> Tensor
        
        Sorts along the first dimension.
        """
        return _op.msort(self)

    @_b.checked(_op.histc, method=True)
    def histc(self, bins: int = 100, min: Number = 0, max: Number = 0) -> Tensor:
        """histc(Tensor self, int bins=100, Scalar min=0, Scalar max=0) -> Tensor
        
        A histogram of equal-width bins over [min, max] (the data's range when both are 0).
        """
        if bins.__class__ is not int or not -9223372036854775808 <= bins <= 9223372036854775807: bins = _b.int_arg(bins, 'bins', 'histc')
        return _op.histc(self, bins, min, max)

    def histogram(self, *args: Any, **kwargs: Any) -> Any:
        """histogram.bins_tensor(Tensor self, Tensor bins, *, float[]? range=None, Tensor? weight=None, bool density=False) -> (Tensor hist, Tensor bin_edges)
        histogram.bin_ct(Tensor self, int bins=100, *, float[]? range=None, Tensor? weight=None, bool density=False) -> (Tensor hist, Tensor bin_edges)
        
        A histogram over the given bin edges.
        
        A histogram of equal-width bins.
        """
        return _b.call_overloaded((_op.histogram_bins_tensor, _op.histogram_bin_ct,), (self, *args), kwargs, 'histogram')

    @_b.checked(_op.unique_consecutive, method=True)
    def unique_consecutive(self, return_inverse: bool = False, return_counts: bool = False, dim: int | None = None) -> tuple[Tensor, ...]:
        """unique_consecutive(Tensor self, bool return_inverse=False, bool return_counts=False, int? dim=None) -> Tensor[]
        
        Collapses runs of equal consecutive elements (or slices along dim).
        """
        if return_inverse.__class__ is not bool: return_inverse = _b.bool_arg(return_inverse, 'return_inverse', 'unique_consecutive')
        if return_counts.__class__ is not bool: return_counts = _b.bool_arg(return_counts, 'return_counts', 'unique_consecutive')
        if dim is not None and (dim.__class__ is not int or not -9223372036854775808 <= dim <= 9223372036854775807): dim = _b.int_arg(dim, 'dim', 'unique_consecutive')
        return _op.unique_consecutive(self, return_inverse, return_counts, dim)

    @_b.checked(_op.matmul, method=True)
    def matmul(self, other: Tensor) -> Tensor:
        """matmul(Tensor self, Tensor other) -> Tensor
        """
        return _op.matmul(self, other)

    @_b.checked(_op.mm, method=True)
    def mm(self, mat2: Tensor) -> Tensor:
        """mm(Tensor self, Tensor mat2) -> Tensor
        """
        return _op.mm(self, mat2)

    @_b.checked(_op.bmm, method=True)
    def bmm(self, mat2: Tensor) -> Tensor:
        """bmm(Tensor self, Tensor mat2) -> Tensor
        """
        return _op.bmm(self, mat2)

    @_b.checked(_op.addmm, method=True)
    def addmm(self, mat1: Tensor, mat2: Tensor, *, beta: Number = 1, alpha: Number = 1) -> Tensor:
        """addmm(Tensor self, Tensor mat1, Tensor mat2, *, Scalar beta=1, Scalar alpha=1) -> Tensor
        """
        return _op.addmm(self, mat1, mat2, beta, alpha)

    @_b.checked(_op.addmv, method=True)
    def addmv(self, mat: Tensor, vec: Tensor, *, beta: Number = 1, alpha: Number = 1) -> Tensor:
        """addmv(Tensor self, Tensor mat, Tensor vec, *, Scalar beta=1, Scalar alpha=1) -> Tensor
        """
        return _op.addmv(self, mat, vec, beta, alpha)

    @_b.checked(_op.baddbmm, method=True)
    def baddbmm(self, batch1: Tensor, batch2: Tensor, *, beta: Number = 1, alpha: Number = 1) -> Tensor:
        """baddbmm(Tensor self, Tensor batch1, Tensor batch2, *, Scalar beta=1, Scalar alpha=1) -> Tensor
        """
        return _op.baddbmm(self, batch1, batch2, beta, alpha)

    @_b.checked(_op.outer, method=True)
    def outer(self, vec2: Tensor) -> Tensor:
        """outer(Tensor self, Tensor vec2) -> Tensor
        """
        return _op.outer(self, vec2)

    @_b.checked(_op.outer, method=True)
    def ger(self, vec2: Tensor) -> Tensor:
        """outer(Tensor self, Tensor vec2) -> Tensor
        """
        return _op.outer(self, vec2)

    @_b.checked(_op.dot, method=True)
    def dot(self, tensor: Tensor) -> Tensor:
        """dot(Tensor self, Tensor tensor) -> Tensor
        """
        return _op.dot(self, tensor)

    @_b.checked(_op.mv, method=True)
    def mv(self, vec: Tensor) -> Tensor:
        """mv(Tensor self, Tensor vec) -> Tensor
        """
        return _op.mv(self, vec)

    @_b.checked(_op.trace, method=True)
    def trace(self) -> Tensor:
        """trace(Tensor self) -> Tensor
        
        Sum of the main diagonal of a 2-D tensor; integer inputs sum to int64, as in ``sum``.
        """
        return _op.trace(self)

    @_b.checked(_op.inverse, method=True)
    def inverse(self) -> Tensor:
        """inverse(Tensor self) -> Tensor
        
        Alias of linalg.inv.
        """
        return _op.inverse(self)

    @_b.checked(_op.det, method=True)
    def det(self) -> Tensor:
        """det(Tensor self) -> Tensor
        
        Alias of linalg.det.
        """
        return _op.det(self)

    @_b.checked(_op.slogdet, method=True)
    def slogdet(self) -> tuple[Tensor, Tensor]:
        """slogdet(Tensor self) -> (Tensor sign, Tensor logabsdet)
        
        Alias of linalg.slogdet.
        """
        return _b.named_result('slogdet', ('sign', 'logabsdet'), _op.slogdet(self))

    @_b.checked(_op.logdet, method=True)
    def logdet(self) -> Tensor:
        """logdet(Tensor self) -> Tensor
        
        Natural logarithm of the determinant (nan where it is negative).
        """
        return _op.logdet(self)

    @_b.checked(_op.cholesky, method=True)
    def cholesky(self, upper: bool = False) -> Tensor:
        """cholesky(Tensor self, bool upper=False) -> Tensor
        
        Cholesky factor (torch.cholesky's signature).
        """
        if upper.__class__ is not bool: upper = _b.bool_arg(upper, 'upper', 'cholesky')
        return _op.cholesky(self, upper)

    @_b.checked(_op.cholesky_solve, method=True)
    def cholesky_solve(self, input2: Tensor, upper: bool = False) -> Tensor:
        """cholesky_solve(Tensor self, Tensor input2, bool upper=False) -> Tensor
        
        Solution of A X = B given the Cholesky factor of A.
        """
        if upper.__class__ is not bool: upper = _b.bool_arg(upper, 'upper', 'cholesky_solve')
        return _op.cholesky_solve(self, input2, upper)

    @_b.checked(_op.cholesky_inverse, method=True)
    def cholesky_inverse(self, upper: bool = False) -> Tensor:
        """cholesky_inverse(Tensor self, bool upper=False) -> Tensor
        
        Inverse of A given its Cholesky factor.
        """
        if upper.__class__ is not bool: upper = _b.bool_arg(upper, 'upper', 'cholesky_inverse')
        return _op.cholesky_inverse(self, upper)

    @_b.checked(_op.qr, method=True)
    def qr(self, some: bool = True) -> tuple[Tensor, Tensor]:
        """qr(Tensor self, bool some=True) -> (Tensor Q, Tensor R)
        
        QR decomposition (torch.qr's signature).
        """
        if some.__class__ is not bool: some = _b.bool_arg(some, 'some', 'qr')
        return _b.named_result('qr', ('Q', 'R'), _op.qr(self, some))

    @_b.checked(_op.svd, method=True)
    def svd(self, some: bool = True, compute_uv: bool = True) -> tuple[Tensor, Tensor, Tensor]:
        """svd(Tensor self, bool some=True, bool compute_uv=True) -> (Tensor U, Tensor S, Tensor V)
        
        Singular value decomposition A = U diag(S) V^T (torch.svd's signature).
        """
        if some.__class__ is not bool: some = _b.bool_arg(some, 'some', 'svd')
        if compute_uv.__class__ is not bool: compute_uv = _b.bool_arg(compute_uv, 'compute_uv', 'svd')
        return _b.named_result('svd', ('U', 'S', 'V'), _op.svd(self, some, compute_uv))

    @_b.checked(_op.triangular_solve, method=True)
    def triangular_solve(self, A: Tensor, upper: bool = True, transpose: bool = False, unitriangular: bool = False) -> tuple[Tensor, Tensor]:
        """triangular_solve(Tensor self, Tensor A, bool upper=True, bool transpose=False, bool unitriangular=False) -> (Tensor solution, Tensor cloned_coefficient)
        
        Solution of A X = self for a triangular A, and a copy of A (torch.triangular_solve).
        """
        if upper.__class__ is not bool: upper = _b.bool_arg(upper, 'upper', 'triangular_solve')
        if transpose.__class__ is not bool: transpose = _b.bool_arg(transpose, 'transpose', 'triangular_solve')
        if unitriangular.__class__ is not bool: unitriangular = _b.bool_arg(unitriangular, 'unitriangular', 'triangular_solve')
        return _b.named_result('triangular_solve', ('solution', 'cloned_coefficient'), _op.triangular_solve(self, A, upper, transpose, unitriangular))

    @_b.checked(_op.lu, method=True)
    def lu(self, pivot: bool = True, get_infos: bool | None = False) -> tuple[Tensor, ...]:
        """lu(Tensor self, bool pivot=True, bool? get_infos=False) -> Tensor[]
        
        Packed LU decomposition and pivots (and info codes with get_infos), torch.lu's signature.
        """
        if pivot.__class__ is not bool: pivot = _b.bool_arg(pivot, 'pivot', 'lu')
        if get_infos is not None and get_infos.__class__ is not bool: get_infos = _b.bool_arg(get_infos, 'get_infos', 'lu')
        return _op.lu(self, pivot, get_infos)

    @_b.checked(_op.lu_solve, method=True)
    def lu_solve(self, LU_data: Tensor, LU_pivots: Tensor) -> Tensor:
        """lu_solve(Tensor self, Tensor LU_data, Tensor LU_pivots) -> Tensor
        
        Solution of A X = self given the packed LU decomposition of A (torch.lu_solve).
        """
        return _op.lu_solve(self, LU_data, LU_pivots)

    @_b.checked(_op.geqrf, method=True)
    def geqrf(self) -> tuple[Tensor, Tensor]:
        """geqrf(Tensor self) -> (Tensor a, Tensor tau)
        
        QR as Householder reflectors, as LAPACK's geqrf stores them; R on and above the diagonal, the vectors below, and their scales tau.
        """
        return _b.named_result('geqrf', ('a', 'tau'), _op.geqrf(self))

    @_b.checked(_op.orgqr, method=True)
    def orgqr(self, input2: Tensor) -> Tensor:
        """orgqr(Tensor self, Tensor input2) -> Tensor
        
        Alias of linalg.householder_product.
        """
        return _op.orgqr(self, input2)

    @_b.checked(_op.ormqr, method=True)
    def ormqr(self, input2: Tensor, input3: Tensor, left: bool = True, transpose: bool = False) -> Tensor:
        """ormqr(Tensor self, Tensor input2, Tensor input3, bool left=True, bool transpose=False) -> Tensor
        
        Product of other (input3) with the full Q of Householder reflectors (self, tau input2).
        """
        if left.__class__ is not bool: left = _b.bool_arg(left, 'left', 'ormqr')
        if transpose.__class__ is not bool: transpose = _b.bool_arg(transpose, 'transpose', 'ormqr')
        return _op.ormqr(self, input2, input3, left, transpose)

    @_b.checked(_op.matrix_exp, method=True)
    def matrix_exp(self) -> Tensor:
        """matrix_exp(Tensor self) -> Tensor
        
        Matrix exponential (scaling and squaring of a Taylor polynomial).
        """
        return _op.matrix_exp(self)

    @_b.checked(_op.matrix_power, method=True)
    def matrix_power(self, n: int) -> Tensor:
        """matrix_power(Tensor self, int n) -> Tensor
        
        Alias of linalg.matrix_power.
        """
        if n.__class__ is not int or not -9223372036854775808 <= n <= 9223372036854775807: n = _b.int_arg(n, 'n', 'matrix_power')
        return _op.matrix_power(self, n)

    @_b.checked(_op.pinverse, method=True)
    def pinverse(self, rcond: float = 1e-15) -> Tensor:
        """pinverse(Tensor self, float rcond=1e-15) -> Tensor
        
        Moore-Penrose pseudo-inverse.
        """
        if rcond.__class__ is not float: rcond = _b.float_arg(rcond, 'rcond', 'pinverse')
        return _op.pinverse(self, rcond)

    @_b.checked(_op.cross, method=True)
    def cross(self, other: Tensor, dim: int | None = None) -> Tensor:
        """cross(Tensor self, Tensor other, int? dim=None) -> Tensor
        
        Cross product of 3-vectors along dim (the first size-3 dim by default).
        """
        if dim is not None and (dim.__class__ is not int or not -9223372036854775808 <= dim <= 9223372036854775807): dim = _b.int_arg(dim, 'dim', 'cross')
        return _op.cross(self, other, dim)

    @_b.checked(_op.addbmm, method=True)
    def addbmm(self, batch1: Tensor, batch2: Tensor, *, beta: Number = 1, alpha: Number = 1) -> Tensor:
        """addbmm(Tensor self, Tensor batch1, Tensor batch2, *, Scalar beta=1, Scalar alpha=1) -> Tensor
        
        beta * self + alpha * the sum over the batch of batch1 @ batch2.
        """
        return _op.addbmm(self, batch1, batch2, beta, alpha)

    @_b.checked(_op.addr, method=True)
    def addr(self, vec1: Tensor, vec2: Tensor, *, beta: Number = 1, alpha: Number = 1) -> Tensor:
        """addr(Tensor self, Tensor vec1, Tensor vec2, *, Scalar beta=1, Scalar alpha=1) -> Tensor
        
        beta * self + alpha * outer(vec1, vec2).
        """
        return _op.addr(self, vec1, vec2, beta, alpha)

    @_b.checked(_op.vdot, method=True)
    def vdot(self, other: Tensor) -> Tensor:
        """vdot(Tensor self, Tensor other) -> Tensor
        
        Inner product of two vectors (no conjugation for real tensors).
        """
        return _op.vdot(self, other)

    @_b.checked(_op.inner, method=True)
    def inner(self, other: Tensor) -> Tensor:
        """inner(Tensor self, Tensor other) -> Tensor
        
        Inner product over the last dims.
        """
        if other.__class__ not in _b.TENSOR_TYPES: _b.tensor_arg(other, 'other', 1, 'inner')
        return _op.inner(self, other)

    @_b.checked(_op.kron, method=True)
    def kron(self, other: Tensor) -> Tensor:
        """kron(Tensor self, Tensor other) -> Tensor
        
        Kronecker product.
        """
        return _op.kron(self, other)

    @_b.checked(_op.cov, method=True)
    def cov(self, *, correction: int = 1, fweights: Tensor | None = None, aweights: Tensor | None = None) -> Tensor:
        """cov(Tensor self, *, int correction=1, Tensor? fweights=None, Tensor? aweights=None) -> Tensor
        
        Covariance matrix of the rows' variables (columns are observations).
        """
        if correction.__class__ is not int or not -9223372036854775808 <= correction <= 9223372036854775807: correction = _b.int_arg(correction, 'correction', 'cov')
        return _op.cov(self, correction, fweights, aweights)

    @_b.checked(_op.corrcoef, method=True)
    def corrcoef(self) -> Tensor:
        """corrcoef(Tensor self) -> Tensor
        
        Pearson correlation coefficients of the rows' variables.
        """
        return _op.corrcoef(self)

    @_b.checked(_op.diagflat, method=True)
    def diagflat(self, offset: int = 0) -> Tensor:
        """diagflat(Tensor self, int offset=0) -> Tensor
        
        2-D matrix with the flattened input on the offset-th diagonal.
        """
        if offset.__class__ is not int or not -9223372036854775808 <= offset <= 9223372036854775807: offset = _b.int_arg(offset, 'offset', 'diagflat')
        return _op.diagflat(self, offset)

    @_b.checked(_op.renorm, method=True)
    def renorm(self, p: Number, dim: int, maxnorm: Number) -> Tensor:
        """renorm(Tensor self, Scalar p, int dim, Scalar maxnorm) -> Tensor
        
        Rescale each slice along dim whose p-norm exceeds maxnorm to norm maxnorm.
        """
        if dim.__class__ is not int or not -9223372036854775808 <= dim <= 9223372036854775807: dim = _b.int_arg(dim, 'dim', 'renorm')
        return _op.renorm(self, p, dim, maxnorm)

    @_b.checked(_op.view, method=True)
    def view(self, *size: Any) -> Tensor:
        """view(Tensor(a) self, int[] size) -> Tensor(a)
        """
        size = _b.varargs(size)
        size = _b.int_list(size, 0, 'size')
        return _op.view(self, size)

    @_b.checked(_op.as_strided, method=True)
    def as_strided(self, size: int | Sequence[int], stride: int | Sequence[int], storage_offset: int | None = None) -> Tensor:
        """as_strided(Tensor(a) self, int[] size, int[] stride, int? storage_offset=None) -> Tensor(a)
        """
        size = _b.int_list(size, 0, 'size')
        stride = _b.int_list(stride, 0, 'stride')
        if storage_offset is not None and (storage_offset.__class__ is not int or not -9223372036854775808 <= storage_offset <= 9223372036854775807): storage_offset = _b.int_arg(storage_offset, 'storage_offset', 'as_strided')
        return _op.as_strided(self, size, stride, storage_offset)

    @_b.checked(_op.permute, method=True)
    def permute(self, *dims: Any) -> Tensor:
        """permute(Tensor(a) self, int[] dims) -> Tensor(a)
        """
        dims = _b.varargs(dims)
        dims = _b.int_list(dims, 0, 'dims')
        return _op.permute(self, dims)

    @_b.checked(_op.transpose, method=True)
    def transpose(self, dim0: int, dim1: int) -> Tensor:
        """transpose(Tensor(a) self, int dim0, int dim1) -> Tensor(a)
        """
        if dim0.__class__ is not int or not -9223372036854775808 <= dim0 <= 9223372036854775807: dim0 = _b.int_arg(dim0, 'dim0', 'transpose')
        if dim1.__class__ is not int or not -9223372036854775808 <= dim1 <= 9223372036854775807: dim1 = _b.int_arg(dim1, 'dim1', 'transpose')
        return _op.transpose(self, dim0, dim1)

    @_b.checked(_op.transpose, method=True)
    def swapdims(self, dim0: int, dim1: int) -> Tensor:
        """transpose(Tensor(a) self, int dim0, int dim1) -> Tensor(a)
        """
        if dim0.__class__ is not int or not -9223372036854775808 <= dim0 <= 9223372036854775807: dim0 = _b.int_arg(dim0, 'dim0', 'transpose')
        if dim1.__class__ is not int or not -9223372036854775808 <= dim1 <= 9223372036854775807: dim1 = _b.int_arg(dim1, 'dim1', 'transpose')
        return _op.transpose(self, dim0, dim1)

    @_b.checked(_op.swapaxes, method=True)
    def swapaxes(self, axis0: int, axis1: int) -> Tensor:
        """swapaxes(Tensor(a) self, int axis0, int axis1) -> Tensor(a)
        """
        if axis0.__class__ is not int or not -9223372036854775808 <= axis0 <= 9223372036854775807: axis0 = _b.int_arg(axis0, 'axis0', 'swapaxes')
        if axis1.__class__ is not int or not -9223372036854775808 <= axis1 <= 9223372036854775807: axis1 = _b.int_arg(axis1, 'axis1', 'swapaxes')
        return _op.swapaxes(self, axis0, axis1)

    @_b.checked(_op.t, method=True)
    def t(self) -> Tensor:
        """t(Tensor(a) self) -> Tensor(a)
        """
        return _op.t(self)

    @_b.checked(_op.squeeze, method=True)
    def squeeze(self, dim: int | Sequence[int] | None = _b.OMITTED) -> Tensor:
        """squeeze(Tensor(a) self, int[1]? dim=None) -> Tensor(a)
        """
        if dim is None: _b.reject_none('dim', 'tuple of ints', 'squeeze')
        if dim is _b.OMITTED: dim = None
        dim = _b.int_list(dim, 1, 'dim')
        return _op.squeeze(self, dim)

    @_b.checked(_op.unsqueeze, method=True)
    def unsqueeze(self, dim: int) -> Tensor:
        """unsqueeze(Tensor(a) self, int dim) -> Tensor(a)
        """
        if dim.__class__ is not int or not -9223372036854775808 <= dim <= 9223372036854775807: dim = _b.int_arg(dim, 'dim', 'unsqueeze')
        return _op.unsqueeze(self, dim)

    @_b.checked(_op.expand, method=True)
    def expand(self, *size: Any) -> Tensor:
        """expand(Tensor(a) self, int[] size) -> Tensor(a)
        """
        size = _b.varargs(size)
        size = _b.int_list(size, 0, 'size')
        return _op.expand(self, size)

    @_b.checked(_op.expand_as, method=True)
    def expand_as(self, other: Tensor) -> Tensor:
        """expand_as(Tensor(a) self, Tensor other) -> Tensor(a)
        """
        return _op.expand_as(self, other)

    @_b.checked(_op.broadcast_to, method=True)
    def broadcast_to(self, size: int | Sequence[int]) -> Tensor:
        """broadcast_to(Tensor(a) self, int[] size) -> Tensor(a)
        """
        size = _b.int_list(size, 0, 'size')
        return _op.broadcast_to(self, size)

    @_b.checked(_op.narrow, method=True)
    def narrow(self, dim: int, start: int, length: int) -> Tensor:
        """narrow(Tensor(a) self, int dim, int start, int length) -> Tensor(a)
        """
        if dim.__class__ is not int or not -9223372036854775808 <= dim <= 9223372036854775807: dim = _b.int_arg(dim, 'dim', 'narrow')
        if start.__class__ is not int or not -9223372036854775808 <= start <= 9223372036854775807: start = _b.int_arg(start, 'start', 'narrow')
        if length.__class__ is not int or not -9223372036854775808 <= length <= 9223372036854775807: length = _b.int_arg(length, 'length', 'narrow')
        return _op.narrow(self, dim, start, length)

    @_b.checked(_op.select, method=True)
    def select(self, dim: int, index: int) -> Tensor:
        """select(Tensor(a) self, int dim, int index) -> Tensor(a)
        """
        if dim.__class__ is not int or not -9223372036854775808 <= dim <= 9223372036854775807: dim = _b.int_arg(dim, 'dim', 'select')
        if index.__class__ is not int or not -9223372036854775808 <= index <= 9223372036854775807: index = _b.int_arg(index, 'index', 'select')
        return _op.select(self, dim, index)

    @_b.checked(_op.unfold, method=True)
    def unfold(self, dimension: int, size: int, step: int) -> Tensor:
        """unfold(Tensor(a) self, int dimension, int size, int step) -> Tensor(a)
        """
        if dimension.__class__ is not int or not -9223372036854775808 <= dimension <= 9223372036854775807: dimension = _b.int_arg(dimension, 'dimension', 'unfold')
        if size.__class__ is not int or not -9223372036854775808 <= size <= 9223372036854775807: size = _b.int_arg(size, 'size', 'unfold')
        if step.__class__ is not int or not -9223372036854775808 <= step <= 9223372036854775807: step = _b.int_arg(step, 'step', 'unfold')
        return _op.unfold(self, dimension, size, step)

    @_b.checked(_op.diagonal, method=True)
    def diagonal(self, offset: int = 0, dim1: int = 0, dim2: int = 1) -> Tensor:
        """diagonal(Tensor(a) self, int offset=0, int dim1=0, int dim2=1) -> Tensor(a)
        """
        if offset.__class__ is not int or not -9223372036854775808 <= offset <= 9223372036854775807: offset = _b.int_arg(offset, 'offset', 'diagonal')
        if dim1.__class__ is not int or not -9223372036854775808 <= dim1 <= 9223372036854775807: dim1 = _b.int_arg(dim1, 'dim1', 'diagonal')
        if dim2.__class__ is not int or not -9223372036854775808 <= dim2 <= 9223372036854775807: dim2 = _b.int_arg(dim2, 'dim2', 'diagonal')
        return _op.diagonal(self, offset, dim1, dim2)

    @_b.checked(_op.as_strided_scatter, method=True)
    def as_strided_scatter(self, src: Tensor, size: int | Sequence[int], stride: int | Sequence[int], storage_offset: int | None = None) -> Tensor:
        """as_strided_scatter(Tensor self, Tensor src, int[] size, int[] stride, int? storage_offset=None) -> Tensor
        """
        if src.__class__ not in _b.TENSOR_TYPES: _b.tensor_arg(src, 'src', 1, 'as_strided_scatter')
        size = _b.int_list(size, 0, 'size')
        stride = _b.int_list(stride, 0, 'stride')
        if storage_offset is not None and (storage_offset.__class__ is not int or not -9223372036854775808 <= storage_offset <= 9223372036854775807): storage_offset = _b.int_arg(storage_offset, 'storage_offset', 'as_strided_scatter')
        return _op.as_strided_scatter(self, src, size, stride, storage_offset)

    def split(self, *args: Any, **kwargs: Any) -> Any:
        """split.int(Tensor(a) self, int split_size_or_sections, int dim=0) -> Tensor(a)[]
        split.sizes(Tensor(a) self, int[] split_size_or_sections, int dim=0) -> Tensor(a)[]
        """
        return _b.call_overloaded((_op.split_int, _op.split_sizes,), (self, *args), kwargs, 'split')

    @_b.checked(_op.chunk, method=True)
    def chunk(self, chunks: int, dim: int = 0) -> tuple[Tensor, ...]:
        """chunk(Tensor(a) self, int chunks, int dim=0) -> Tensor(a)[]
        """
        if chunks.__class__ is not int or not -9223372036854775808 <= chunks <= 9223372036854775807: chunks = _b.int_arg(chunks, 'chunks', 'chunk')
        if dim.__class__ is not int or not -9223372036854775808 <= dim <= 9223372036854775807: dim = _b.int_arg(dim, 'dim', 'chunk')
        return _op.chunk(self, chunks, dim)

    @_b.checked(_op.unbind, method=True)
    def unbind(self, dim: int = 0) -> tuple[Tensor, ...]:
        """unbind(Tensor(a) self, int dim=0) -> Tensor(a)[]
        """
        if dim.__class__ is not int or not -9223372036854775808 <= dim <= 9223372036854775807: dim = _b.int_arg(dim, 'dim', 'unbind')
        return _op.unbind(self, dim)

    @_b.checked(_op.movedim, method=True)
    def movedim(self, source: int | Sequence[int], destination: int | Sequence[int]) -> Tensor:
        """movedim(Tensor(a) self, int[1] source, int[1] destination) -> Tensor(a)
        """
        source = _b.int_list(source, 1, 'source')
        destination = _b.int_list(destination, 1, 'destination')
        return _op.movedim(self, source, destination)

    @_b.checked(_op.movedim, method=True)
    def moveaxis(self, source: int | Sequence[int], destination: int | Sequence[int]) -> Tensor:
        """movedim(Tensor(a) self, int[1] source, int[1] destination) -> Tensor(a)
        """
        source = _b.int_list(source, 1, 'source')
        destination = _b.int_list(destination, 1, 'destination')
        return _op.movedim(self, source, destination)

    @_b.checked(_op.reshape, method=True)
    def reshape(self, *shape: Any) -> Tensor:
        """reshape(Tensor(a) self, int[] shape) -> Tensor(a)
        """
        shape = _b.varargs(shape)
        shape = _b.int_list(shape, 0, 'shape')
        return _op.reshape(self, shape)

    @_b.checked(_op.reshape_as, method=True)
    def reshape_as(self, other: Tensor) -> Tensor:
        """reshape_as(Tensor(a) self, Tensor other) -> Tensor(a)
        """
        return _op.reshape_as(self, other)

    @_b.checked(_op.view_as, method=True)
    def view_as(self, other: Tensor) -> Tensor:
        """view_as(Tensor(a) self, Tensor other) -> Tensor(a)
        """
        return _op.view_as(self, other)

    @_b.checked(_op.flatten, method=True)
    def flatten(self, start_dim: int = 0, end_dim: int = -1) -> Tensor:
        """flatten(Tensor(a) self, int start_dim=0, int end_dim=-1) -> Tensor(a)
        """
        if start_dim.__class__ is not int or not -9223372036854775808 <= start_dim <= 9223372036854775807: start_dim = _b.int_arg(start_dim, 'start_dim', 'flatten')
        if end_dim.__class__ is not int or not -9223372036854775808 <= end_dim <= 9223372036854775807: end_dim = _b.int_arg(end_dim, 'end_dim', 'flatten')
        return _op.flatten(self, start_dim, end_dim)

    @_b.checked(_op.unflatten, method=True)
    def unflatten(self, dim: int, sizes: int | Sequence[int]) -> Tensor:
        """unflatten(Tensor(a) self, int dim, int[] sizes) -> Tensor(a)
        """
        if dim.__class__ is not int or not -9223372036854775808 <= dim <= 9223372036854775807: dim = _b.int_arg(dim, 'dim', 'unflatten')
        sizes = _b.int_list(sizes, 0, 'sizes')
        return _op.unflatten(self, dim, sizes)

    @_b.checked(_op.ravel, method=True)
    def ravel(self) -> Tensor:
        """ravel(Tensor(a) self) -> Tensor(a)
        """
        return _op.ravel(self)

    @_b.checked(_op.clone, method=True)
    def clone(self, *, memory_format: Any | None = None) -> Tensor:
        """clone(Tensor self, *, MemoryFormat? memory_format=None) -> Tensor
        """
        return _op.clone(self, memory_format)

    @_b.checked(_op.contiguous, method=True)
    def contiguous(self, *, memory_format: Any | None = None) -> Tensor:
        """contiguous(Tensor(a) self, *, MemoryFormat? memory_format=None) -> Tensor(a)
        """
        return _op.contiguous(self, memory_format)

    @_b.checked(_op.copy_, method=True)
    def copy_(self, src: Tensor, non_blocking: bool = False) -> Tensor:
        """copy_(Tensor(a!) self, Tensor src, bool non_blocking=False) -> Tensor(a!)
        """
        if non_blocking.__class__ is not bool: non_blocking = _b.bool_arg(non_blocking, 'non_blocking', 'copy_')
        return _op.copy_(self, src, non_blocking)

    def fill_(self, *args: Any, **kwargs: Any) -> Any:
        """fill_.Tensor(Tensor(a!) self, Tensor value) -> Tensor(a!)
        fill_(Tensor(a!) self, Scalar value) -> Tensor(a!)
        """
        return _b.call_overloaded((_op.fill__Tensor, _op.fill_,), (self, *args), kwargs, 'fill_')

    @_b.checked(_op.zero_, method=True)
    def zero_(self) -> Tensor:
        """zero_(Tensor(a!) self) -> Tensor(a!)
        """
        return _op.zero_(self)

    @_b.checked(_op.resize_, method=True)
    def resize_(self, *size: Any, memory_format: Any | None = None) -> Tensor:
        """resize_(Tensor(a!) self, SymInt[] size, *, MemoryFormat? memory_format=None) -> Tensor(a!)
        
        Gives ``self`` the sizes ``size`` and contiguous strides (or ``memory_format``'s) over the elements of its storage from its offset on, in flat order; a storage too small for them grows (every tensor sharing it sees the larger one) and the new elements are zeros (uninitialised in PyTorch). Same sizes and no ``memory_format`` change nothing. A tensor that requires grad cannot be resized.
        """
        size = _b.varargs(size)
        size = _b.int_list(size, 0, 'size')
        return _op.resize_(self, size, memory_format)

    @_b.checked(_op.resize_as_, method=True)
    def resize_as_(self, the_template: Tensor, *, memory_format: Any | None = None) -> Tensor:
        """resize_as_(Tensor(a!) self, Tensor the_template, *, MemoryFormat? memory_format=None) -> Tensor(a!)
        
        Resizes ``self`` to the sizes of ``the_template`` (``resize_``), then the strides of ``memory_format`` when one is given (``preserve_format`` takes the template's own format).
        """
        return _op.resize_as_(self, the_template, memory_format)

    @_b.checked(_op._to_copy, method=True)
    def _to_copy(self, *, dtype: dtype | None = None, device: str | None = None) -> Tensor:
        """_to_copy(Tensor self, *, ScalarType? dtype=None, str? device=None) -> Tensor
        """
        dtype = _b.dtype_arg(dtype)
        if device is not None and device.__class__ is not str: device = _b.str_arg(device, 'device', '_to_copy')
        return _op._to_copy(self, dtype, device)

    @_b.checked(_op.detach, method=True)
    def detach(self) -> Tensor:
        """detach(Tensor(a) self) -> Tensor(a)
        """
        return _op.detach(self)

    @_b.checked(_op.flip, method=True)
    def flip(self, *dims: Any) -> Tensor:
        """flip(Tensor self, int[] dims) -> Tensor
        """
        dims = _b.varargs(dims)
        dims = _b.int_list(dims, 0, 'dims')
        return _op.flip(self, dims)

    @_b.checked(_op.roll, method=True)
    def roll(self, shifts: int | Sequence[int], dims: int | Sequence[int] = []) -> Tensor:
        """roll(Tensor self, int[1] shifts, int[1] dims=[]) -> Tensor
        """
        shifts = _b.int_list(shifts, 1, 'shifts')
        dims = _b.int_list(dims, 1, 'dims')
        return _op.roll(self, shifts, dims)

    @_b.checked(_op.repeat, method=True)
    def repeat(self, *repeats: Any) -> Tensor:
        """repeat(Tensor self, int[] repeats) -> Tensor
        """
        repeats = _b.varargs(repeats)
        repeats = _b.int_list(repeats, 0, 'repeats')
        return _op.repeat(self, repeats)

    @_b.checked(_op.tile, method=True)
    def tile(self, *dims: Any) -> Tensor:
        """tile(Tensor self, int[] dims) -> Tensor
        """
        dims = _b.varargs(dims)
        dims = _b.int_list(dims, 0, 'dims')
        return _op.tile(self, dims)

    @_b.checked(_op.tril, method=True)
    def tril(self, diagonal: int = 0) -> Tensor:
        """tril(Tensor self, int diagonal=0) -> Tensor
        """
        if diagonal.__class__ is not int or not -9223372036854775808 <= diagonal <= 9223372036854775807: diagonal = _b.int_arg(diagonal, 'diagonal', 'tril')
        return _op.tril(self, diagonal)

    @_b.checked(_op.triu, method=True)
    def triu(self, diagonal: int = 0) -> Tensor:
        """triu(Tensor self, int diagonal=0) -> Tensor
        """
        if diagonal.__class__ is not int or not -9223372036854775808 <= diagonal <= 9223372036854775807: diagonal = _b.int_arg(diagonal, 'diagonal', 'triu')
        return _op.triu(self, diagonal)

    @_b.checked(_op.diag, method=True)
    def diag(self, diagonal: int = 0) -> Tensor:
        """diag(Tensor self, int diagonal=0) -> Tensor
        """
        if diagonal.__class__ is not int or not -9223372036854775808 <= diagonal <= 9223372036854775807: diagonal = _b.int_arg(diagonal, 'diagonal', 'diag')
        return _op.diag(self, diagonal)

    @_b.checked(_op.diag_embed, method=True)
    def diag_embed(self, offset: int = 0, dim1: int = -2, dim2: int = -1) -> Tensor:
        """diag_embed(Tensor self, int offset=0, int dim1=-2, int dim2=-1) -> Tensor
        """
        if offset.__class__ is not int or not -9223372036854775808 <= offset <= 9223372036854775807: offset = _b.int_arg(offset, 'offset', 'diag_embed')
        if dim1.__class__ is not int or not -9223372036854775808 <= dim1 <= 9223372036854775807: dim1 = _b.int_arg(dim1, 'dim1', 'diag_embed')
        if dim2.__class__ is not int or not -9223372036854775808 <= dim2 <= 9223372036854775807: dim2 = _b.int_arg(dim2, 'dim2', 'diag_embed')
        return _op.diag_embed(self, offset, dim1, dim2)

    @_b.checked(_op.unsafe_chunk, method=True)
    def unsafe_chunk(self, chunks: int, dim: int = 0) -> tuple[Tensor, ...]:
        """unsafe_chunk(Tensor self, int chunks, int dim=0) -> Tensor[]
        
        chunk without the views' aliasing guarantees (volta returns the same views as chunk).
        """
        if chunks.__class__ is not int or not -9223372036854775808 <= chunks <= 9223372036854775807: chunks = _b.int_arg(chunks, 'chunks', 'unsafe_chunk')
        if dim.__class__ is not int or not -9223372036854775808 <= dim <= 9223372036854775807: dim = _b.int_arg(dim, 'dim', 'unsafe_chunk')
        return _op.unsafe_chunk(self, chunks, dim)

    @_b.checked(_op.unsafe_split_Tensor, method=True)
    def unsafe_split(self, split_size: int, dim: int = 0) -> tuple[Tensor, ...]:
        """unsafe_split.Tensor(Tensor self, int split_size, int dim=0) -> Tensor[]
        
        split by size without the views' aliasing guarantees (the same views as split).
        """
        if split_size.__class__ is not int or not -9223372036854775808 <= split_size <= 9223372036854775807: split_size = _b.int_arg(split_size, 'split_size', 'unsafe_split')
        if dim.__class__ is not int or not -9223372036854775808 <= dim <= 9223372036854775807: dim = _b.int_arg(dim, 'dim', 'unsafe_split')
        return _op.unsafe_split_Tensor(self, split_size, dim)

    @_b.checked(_op.split_with_sizes, method=True)
    def split_with_sizes(self, split_sizes: int | Sequence[int], dim: int = 0) -> tuple[Tensor, ...]:
        """split_with_sizes(Tensor(a) self, int[] split_sizes, int dim=0) -> Tensor(a)[]
        
        Views of the given sizes along ``dim``; the sizes must add up to its size.
        """
        split_sizes = _b.int_list(split_sizes, 0, 'split_sizes')
        if dim.__class__ is not int or not -9223372036854775808 <= dim <= 9223372036854775807: dim = _b.int_arg(dim, 'dim', 'split_with_sizes')
        return _op.split_with_sizes(self, split_sizes, dim)

    def tensor_split(self, *args: Any, **kwargs: Any) -> Any:
        """tensor_split.sections(Tensor(a) self, int sections, int dim=0) -> Tensor(a)[]
        tensor_split.indices(Tensor(a) self, int[] indices, int dim=0) -> Tensor(a)[]
        tensor_split.tensor_indices_or_sections(Tensor(a) self, Tensor tensor_indices_or_sections, int dim=0) -> Tensor(a)[]
        
        ``sections`` nearly equal views along ``dim`` (the first ``size % sections`` one longer).
        
        Views split before each of ``indices`` along ``dim``.
        
        tensor_split with the sections (0-d) or split indices (1-d) given as an int64 tensor.
        """
        return _b.call_overloaded((_op.tensor_split_sections, _op.tensor_split_indices, _op.tensor_split_tensor_indices_or_sections,), (self, *args), kwargs, 'tensor_split')

    def hsplit(self, *args: Any, **kwargs: Any) -> Any:
        """hsplit.int(Tensor(a) self, int sections) -> Tensor(a)[]
        hsplit.array(Tensor(a) self, int[] indices) -> Tensor(a)[]
        
        tensor_split along dim 1 (dim 0 for 1-d tensors) into equal pieces.
        
        tensor_split along dim 1 (dim 0 for 1-d tensors) before each index.
        """
        return _b.call_overloaded((_op.hsplit_int, _op.hsplit_array,), (self, *args), kwargs, 'hsplit')

    def vsplit(self, *args: Any, **kwargs: Any) -> Any:
        """vsplit.int(Tensor(a) self, int sections) -> Tensor(a)[]
        vsplit.array(Tensor(a) self, int[] indices) -> Tensor(a)[]
        
        tensor_split along dim 0 into equal pieces.
        
        tensor_split along dim 0 before each index.
        """
        return _b.call_overloaded((_op.vsplit_int, _op.vsplit_array,), (self, *args), kwargs, 'vsplit')

    def dsplit(self, *args: Any, **kwargs: Any) -> Any:
        """dsplit.int(Tensor(a) self, int sections) -> Tensor(a)[]
        dsplit.array(Tensor(a) self, int[] indices) -> Tensor(a)[]
        
        tensor_split along dim 2 into equal pieces.
        
        tensor_split along dim 2 before each index.
        """
        return _b.call_overloaded((_op.dsplit_int, _op.dsplit_array,), (self, *args), kwargs, 'dsplit')

    @_b.checked(_op.sum_to_size, method=True)
    def sum_to_size(self, *size: Any) -> Tensor:
        """sum_to_size(Tensor self, int[] size) -> Tensor
        
        Sum ``self`` down to ``size``, which it must be expandable from.
        """
        size = _b.varargs(size)
        size = _b.int_list(size, 0, 'size')
        return _op.sum_to_size(self, size)

    @_b.checked(_op.narrow_copy, method=True)
    def narrow_copy(self, dim: int, start: int, length: int) -> Tensor:
        """narrow_copy(Tensor self, int dim, int start, int length) -> Tensor
        
        A copy of ``self.narrow(dim, start, length)``.
        """
        if dim.__class__ is not int or not -9223372036854775808 <= dim <= 9223372036854775807: dim = _b.int_arg(dim, 'dim', 'narrow_copy')
        if start.__class__ is not int or not -9223372036854775808 <= start <= 9223372036854775807: start = _b.int_arg(start, 'start', 'narrow_copy')
        if length.__class__ is not int or not -9223372036854775808 <= length <= 9223372036854775807: length = _b.int_arg(length, 'length', 'narrow_copy')
        return _op.narrow_copy(self, dim, start, length)

    @_b.checked(_op.diagonal_scatter, method=True)
    def diagonal_scatter(self, src: Tensor, offset: int = 0, dim1: int = 0, dim2: int = 1) -> Tensor:
        """diagonal_scatter(Tensor self, Tensor src, int offset=0, int dim1=0, int dim2=1) -> Tensor
        
        A copy of ``self`` with ``src`` written into its diagonal.
        """
        if offset.__class__ is not int or not -9223372036854775808 <= offset <= 9223372036854775807: offset = _b.int_arg(offset, 'offset', 'diagonal_scatter')
        if dim1.__class__ is not int or not -9223372036854775808 <= dim1 <= 9223372036854775807: dim1 = _b.int_arg(dim1, 'dim1', 'diagonal_scatter')
        if dim2.__class__ is not int or not -9223372036854775808 <= dim2 <= 9223372036854775807: dim2 = _b.int_arg(dim2, 'dim2', 'diagonal_scatter')
        return _op.diagonal_scatter(self, src, offset, dim1, dim2)

    @_b.checked(_op.select_scatter, method=True)
    def select_scatter(self, src: Tensor, dim: int, index: int) -> Tensor:
        """select_scatter(Tensor self, Tensor src, int dim, int index) -> Tensor
        
        A copy of ``self`` with ``src`` written into ``self.select(dim, index)``.
        """
        if dim.__class__ is not int or not -9223372036854775808 <= dim <= 9223372036854775807: dim = _b.int_arg(dim, 'dim', 'select_scatter')
        if index.__class__ is not int or not -9223372036854775808 <= index <= 9223372036854775807: index = _b.int_arg(index, 'index', 'select_scatter')
        return _op.select_scatter(self, src, dim, index)

    @_b.checked(_op.slice_scatter, method=True)
    def slice_scatter(self, src: Tensor, dim: int = 0, start: int | None = None, end: int | None = None, step: int = 1) -> Tensor:
        """slice_scatter(Tensor self, Tensor src, int dim=0, int? start=None, int? end=None, int step=1) -> Tensor
        
        A copy of ``self`` with ``src`` written into the slice ``start:end:step`` of ``dim``.
        """
        if dim.__class__ is not int or not -9223372036854775808 <= dim <= 9223372036854775807: dim = _b.int_arg(dim, 'dim', 'slice_scatter')
        if start is not None and (start.__class__ is not int or not -9223372036854775808 <= start <= 9223372036854775807): start = _b.int_arg(start, 'start', 'slice_scatter')
        if end is not None and (end.__class__ is not int or not -9223372036854775808 <= end <= 9223372036854775807): end = _b.int_arg(end, 'end', 'slice_scatter')
        if step.__class__ is not int or not -9223372036854775808 <= step <= 9223372036854775807: step = _b.int_arg(step, 'step', 'slice_scatter')
        return _op.slice_scatter(self, src, dim, start, end, step)

    @_b.checked(_op.fliplr, method=True)
    def fliplr(self) -> Tensor:
        """fliplr(Tensor self) -> Tensor
        
        Flip the columns (dim 1).
        """
        return _op.fliplr(self)

    @_b.checked(_op.flipud, method=True)
    def flipud(self) -> Tensor:
        """flipud(Tensor self) -> Tensor
        
        Flip the rows (dim 0).
        """
        return _op.flipud(self)

    @_b.checked(_op.rot90, method=True)
    def rot90(self, k: int = 1, dims: int | Sequence[int] = [0, 1]) -> Tensor:
        """rot90(Tensor self, int k=1, int[] dims=[0,1]) -> Tensor
        
        Rotate by 90 degrees ``k`` times in the plane of ``dims``, from the first towards the second.
        """
        if k.__class__ is not int or not -9223372036854775808 <= k <= 9223372036854775807: k = _b.int_arg(k, 'k', 'rot90')
        dims = _b.int_list(dims, 0, 'dims')
        return _op.rot90(self, k, dims)

    @_b.checked(_op.diff, method=True)
    def diff(self, n: int = 1, dim: int = -1, prepend: Tensor | None = None, append: Tensor | None = None) -> Tensor:
        """diff(Tensor self, int n=1, int dim=-1, Tensor? prepend=None, Tensor? append=None) -> Tensor
        
        The ``n``-th forward difference along ``dim``, after concatenating ``prepend`` and ``append``.
        """
        if n.__class__ is not int or not -9223372036854775808 <= n <= 9223372036854775807: n = _b.int_arg(n, 'n', 'diff')
        if dim.__class__ is not int or not -9223372036854775808 <= dim <= 9223372036854775807: dim = _b.int_arg(dim, 'dim', 'diff')
        return _op.diff(self, n, dim, prepend, append)

    def sort(self, *args: Any, **kwargs: Any) -> Any:
        """sort(Tensor self, int dim=-1, bool descending=False) -> (Tensor values, Tensor indices)
        sort.stable(Tensor self, *, bool? stable, int dim=-1, bool descending=False) -> (Tensor values, Tensor indices)
        
        Sorted along dim, with the indices; ties keep their order (every volta sort is stable).
        """
        return _b.call_overloaded((_op.sort, _op.sort_stable,), (self, *args), kwargs, 'sort')

    def argsort(self, *args: Any, **kwargs: Any) -> Any:
        """argsort(Tensor self, int dim=-1, bool descending=False) -> Tensor
        argsort.stable(Tensor self, *, bool stable, int dim=-1, bool descending=False) -> Tensor
        """
        return _b.call_overloaded((_op.argsort, _op.argsort_stable,), (self, *args), kwargs, 'argsort')

    @_b.checked(_op.topk, method=True)
    def topk(self, k: int, dim: int = -1, largest: bool = True, sorted: bool = True) -> tuple[Tensor, Tensor]:
        """topk(Tensor self, int k, int dim=-1, bool largest=True, bool sorted=True) -> (Tensor values, Tensor indices)
        """
        if k.__class__ is not int or not -9223372036854775808 <= k <= 9223372036854775807: k = _b.int_arg(k, 'k', 'topk')
        if dim.__class__ is not int or not -9223372036854775808 <= dim <= 9223372036854775807: dim = _b.int_arg(dim, 'dim', 'topk')
        if largest.__class__ is not bool: largest = _b.bool_arg(largest, 'largest', 'topk')
        if sorted.__class__ is not bool: sorted = _b.bool_arg(sorted, 'sorted', 'topk')
        return _b.named_result('topk', ('values', 'indices'), _op.topk(self, k, dim, largest, sorted))

    @_b.checked(_op.gather, method=True)
    def gather(self, dim: int, index: Tensor, *, sparse_grad: bool = False) -> Tensor:
        """gather(Tensor self, int dim, Tensor index, *, bool sparse_grad=False) -> Tensor
        """
        if dim.__class__ is not int or not -9223372036854775808 <= dim <= 9223372036854775807: dim = _b.int_arg(dim, 'dim', 'gather')
        if sparse_grad.__class__ is not bool: sparse_grad = _b.bool_arg(sparse_grad, 'sparse_grad', 'gather')
        return _op.gather(self, dim, index, sparse_grad)

    @_b.checked(_op.take_along_dim, method=True)
    def take_along_dim(self, indices: Tensor, dim: int | None = None) -> Tensor:
        """take_along_dim(Tensor self, Tensor indices, int? dim=None) -> Tensor
        """
        if dim is not None and (dim.__class__ is not int or not -9223372036854775808 <= dim <= 9223372036854775807): dim = _b.int_arg(dim, 'dim', 'take_along_dim')
        return _op.take_along_dim(self, indices, dim)

    def scatter(self, *args: Any, **kwargs: Any) -> Any:
        """scatter.src(Tensor self, int dim, Tensor index, Tensor src) -> Tensor
        scatter.value(Tensor self, int dim, Tensor index, Scalar value) -> Tensor
        scatter.reduce(Tensor self, int dim, Tensor index, Tensor src, *, str reduce) -> Tensor
        scatter.value_reduce(Tensor self, int dim, Tensor index, Scalar value, *, str reduce) -> Tensor
        
        scatter that adds (``reduce="add"``) or multiplies (``"multiply"``) ``src`` into ``self``.
        
        scatter that adds or multiplies ``value`` into ``self`` at ``index``.
        """
        return _b.call_overloaded((_op.scatter_src, _op.scatter_value, _op.scatter_reduce, _op.scatter_value_reduce,), (self, *args), kwargs, 'scatter')

    @_b.checked(_op.scatter_add, method=True)
    def scatter_add(self, dim: int, index: Tensor, src: Tensor) -> Tensor:
        """scatter_add(Tensor self, int dim, Tensor index, Tensor src) -> Tensor
        """
        if dim.__class__ is not int or not -9223372036854775808 <= dim <= 9223372036854775807: dim = _b.int_arg(dim, 'dim', 'scatter_add')
        return _op.scatter_add(self, dim, index, src)

    @_b.checked(_op.index_select, method=True)
    def index_select(self, dim: int, index: Tensor) -> Tensor:
        """index_select(Tensor self, int dim, Tensor index) -> Tensor
        """
        if dim.__class__ is not int or not -9223372036854775808 <= dim <= 9223372036854775807: dim = _b.int_arg(dim, 'dim', 'index_select')
        return _op.index_select(self, dim, index)

    @_b.checked(_op.index_add, method=True)
    def index_add(self, dim: int, index: Tensor, source: Tensor, *, alpha: Number = 1) -> Tensor:
        """index_add(Tensor self, int dim, Tensor index, Tensor source, *, Scalar alpha=1) -> Tensor
        """
        if dim.__class__ is not int or not -9223372036854775808 <= dim <= 9223372036854775807: dim = _b.int_arg(dim, 'dim', 'index_add')
        return _op.index_add(self, dim, index, source, alpha)

    @_b.checked(_op.index_put, method=True)
    def index_put(self, indices: Sequence[Tensor], values: Tensor, accumulate: bool = False) -> Tensor:
        """index_put(Tensor self, Tensor?[] indices, Tensor values, bool accumulate=False) -> Tensor
        """
        indices = _b.tensor_list(indices, 'indices')
        if accumulate.__class__ is not bool: accumulate = _b.bool_arg(accumulate, 'accumulate', 'index_put')
        return _op.index_put(self, indices, values, accumulate)

    def masked_fill(self, *args: Any, **kwargs: Any) -> Any:
        """masked_fill.Tensor(Tensor self, Tensor mask, Tensor value) -> Tensor
        masked_fill(Tensor self, Tensor mask, Scalar value) -> Tensor
        """
        return _b.call_overloaded((_op.masked_fill_Tensor, _op.masked_fill,), (self, *args), kwargs, 'masked_fill')

    @_b.checked(_op.masked_select, method=True)
    def masked_select(self, mask: Tensor) -> Tensor:
        """masked_select(Tensor self, Tensor mask) -> Tensor
        """
        return _op.masked_select(self, mask)

    @_b.checked(_op.masked_scatter, method=True)
    def masked_scatter(self, mask: Tensor, source: Tensor) -> Tensor:
        """masked_scatter(Tensor self, Tensor mask, Tensor source) -> Tensor
        """
        return _op.masked_scatter(self, mask, source)

    def nonzero(self, *args: Any, **kwargs: Any) -> Any:
        """nonzero(Tensor self) -> Tensor
        nonzero.tuple(Tensor self, *, bool as_tuple) -> Tensor[]
        """
        return _b.call_overloaded((_op.nonzero, _op.nonzero_tuple,), (self, *args), kwargs, 'nonzero')

    @_b.checked(_op.unique, method=True)
    def unique(self, sorted: bool = True, return_inverse: bool = False, return_counts: bool = False, dim: int | None = None) -> tuple[Tensor, ...]:
        """unique(Tensor self, bool sorted=True, bool return_inverse=False, bool return_counts=False, int? dim=None) -> Tensor[]
        """
        if sorted.__class__ is not bool: sorted = _b.bool_arg(sorted, 'sorted', 'unique')
        if return_inverse.__class__ is not bool: return_inverse = _b.bool_arg(return_inverse, 'return_inverse', 'unique')
        if return_counts.__class__ is not bool: return_counts = _b.bool_arg(return_counts, 'return_counts', 'unique')
        if dim is not None and (dim.__class__ is not int or not -9223372036854775808 <= dim <= 9223372036854775807): dim = _b.int_arg(dim, 'dim', 'unique')
        return _op.unique(self, sorted, return_inverse, return_counts, dim)

    @_b.checked(_op.bincount, method=True)
    def bincount(self, weights: Tensor | None = None, minlength: int = 0) -> Tensor:
        """bincount(Tensor self, Tensor? weights=None, int minlength=0) -> Tensor
        """
        if minlength.__class__ is not int or not -9223372036854775808 <= minlength <= 9223372036854775807: minlength = _b.int_arg(minlength, 'minlength', 'bincount')
        return _op.bincount(self, weights, minlength)

    @_b.checked(_op.take, method=True)
    def take(self, index: Tensor) -> Tensor:
        """take(Tensor self, Tensor index) -> Tensor
        
        The elements of ``self`` flattened, at ``index`` (negative indices count from the end).
        """
        return _op.take(self, index)

    @_b.checked(_op.put, method=True)
    def put(self, index: Tensor, source: Tensor, accumulate: bool = False) -> Tensor:
        """put(Tensor self, Tensor index, Tensor source, bool accumulate=False) -> Tensor
        
        A copy of ``self`` with ``source`` written (or added) at the flat positions ``index``.
        """
        if accumulate.__class__ is not bool: accumulate = _b.bool_arg(accumulate, 'accumulate', 'put')
        return _op.put(self, index, source, accumulate)

    def index_fill(self, *args: Any, **kwargs: Any) -> Any:
        """index_fill.int_Tensor(Tensor self, int dim, Tensor index, Tensor value) -> Tensor
        index_fill.int_Scalar(Tensor self, int dim, Tensor index, Scalar value) -> Tensor
        
        index_fill with a 0-d tensor ``value``.
        
        A copy of ``self`` with the entries at ``index`` along ``dim`` set to ``value``.
        """
        return _b.call_overloaded((_op.index_fill_int_Tensor, _op.index_fill_int_Scalar,), (self, *args), kwargs, 'index_fill')

    @_b.checked(_op.index_copy, method=True)
    def index_copy(self, dim: int, index: Tensor, source: Tensor) -> Tensor:
        """index_copy(Tensor self, int dim, Tensor index, Tensor source) -> Tensor
        
        A copy of ``self`` with the slices of ``source`` written at ``index`` along ``dim``.
        """
        if dim.__class__ is not int or not -9223372036854775808 <= dim <= 9223372036854775807: dim = _b.int_arg(dim, 'dim', 'index_copy')
        return _op.index_copy(self, dim, index, source)

    @_b.checked(_op.scatter_reduce_two, method=True)
    def scatter_reduce(self, dim: int, index: Tensor, src: Tensor, reduce: str, *, include_self: bool = True) -> Tensor:
        """scatter_reduce.two(Tensor self, int dim, Tensor index, Tensor src, str reduce, *, bool include_self=True) -> Tensor
        
        Reduce (sum, prod, mean, amax, amin) the values of ``src`` into ``self`` at ``index`` along ``dim``.
        """
        if dim.__class__ is not int or not -9223372036854775808 <= dim <= 9223372036854775807: dim = _b.int_arg(dim, 'dim', 'scatter_reduce')
        if reduce.__class__ is not str: reduce = _b.str_arg(reduce, 'reduce', 'scatter_reduce')
        if include_self.__class__ is not bool: include_self = _b.bool_arg(include_self, 'include_self', 'scatter_reduce')
        return _op.scatter_reduce_two(self, dim, index, src, reduce, include_self)

    @_b.checked(_op.index_reduce, method=True)
    def index_reduce(self, dim: int, index: Tensor, source: Tensor, reduce: str, *, include_self: bool = True) -> Tensor:
        """index_reduce(Tensor self, int dim, Tensor index, Tensor source, str reduce, *, bool include_self=True) -> Tensor
        
        Reduce (prod, mean, amax, amin) the slices of ``source`` into ``self`` at ``index`` along ``dim``.
        """
        if dim.__class__ is not int or not -9223372036854775808 <= dim <= 9223372036854775807: dim = _b.int_arg(dim, 'dim', 'index_reduce')
        if reduce.__class__ is not str: reduce = _b.str_arg(reduce, 'reduce', 'index_reduce')
        if include_self.__class__ is not bool: include_self = _b.bool_arg(include_self, 'include_self', 'index_reduce')
        return _op.index_reduce(self, dim, index, source, reduce, include_self)

    def repeat_interleave(self, *args: Any, **kwargs: Any) -> Any:
        """repeat_interleave.self_Tensor(Tensor self, Tensor repeats, int? dim=None, *, int? output_size=None) -> Tensor
        repeat_interleave.self_int(Tensor self, int repeats, int? dim=None, *, int? output_size=None) -> Tensor
        
        Repeat each element (or slice along ``dim``) of ``self`` ``repeats[i]`` times.
        
        Repeat each element (or slice along ``dim``) of ``self`` ``repeats`` times.
        """
        return _b.call_overloaded((_op.repeat_interleave_self_Tensor, _op.repeat_interleave_self_int,), (self, *args), kwargs, 'repeat_interleave')

    @_b.checked(_op.argwhere, method=True)
    def argwhere(self) -> Tensor:
        """argwhere(Tensor self) -> Tensor
        
        The indices of the nonzero elements, one row each (as ``nonzero``).
        """
        return _op.argwhere(self)

    @_b.checked(_op.nonzero_static, method=True)
    def nonzero_static(self, *, size: int, fill_value: int = -1) -> Tensor:
        """nonzero_static(Tensor self, *, int size, int fill_value=-1) -> Tensor
        
        nonzero's first ``size`` rows, padded with ``fill_value`` to exactly ``size`` rows.
        """
        if size.__class__ is not int or not -9223372036854775808 <= size <= 9223372036854775807: size = _b.int_arg(size, 'size', 'nonzero_static')
        if fill_value.__class__ is not int or not -9223372036854775808 <= fill_value <= 9223372036854775807: fill_value = _b.int_arg(fill_value, 'fill_value', 'nonzero_static')
        return _op.nonzero_static(self, size, fill_value)

    @_b.checked(_op.softmax, method=True)
    def softmax(self, dim: int, dtype: dtype | None = None) -> Tensor:
        """softmax(Tensor self, int dim, ScalarType? dtype=None) -> Tensor
        """
        if dim.__class__ is not int or not -9223372036854775808 <= dim <= 9223372036854775807: dim = _b.int_arg(dim, 'dim', 'softmax')
        dtype = _b.dtype_arg(dtype)
        return _op.softmax(self, dim, dtype)

    @_b.checked(_op.log_softmax, method=True)
    def log_softmax(self, dim: int, dtype: dtype | None = None) -> Tensor:
        """log_softmax(Tensor self, int dim, ScalarType? dtype=None) -> Tensor
        """
        if dim.__class__ is not int or not -9223372036854775808 <= dim <= 9223372036854775807: dim = _b.int_arg(dim, 'dim', 'log_softmax')
        dtype = _b.dtype_arg(dtype)
        return _op.log_softmax(self, dim, dtype)

    @_b.checked(_op.softshrink, method=True)
    def softshrink(self, lambd: float = 0.5) -> Tensor:
        """softshrink(Tensor self, float lambd=0.5) -> Tensor
        
        x - lambd above lambd, x + lambd below -lambd, 0 between.
        """
        if lambd.__class__ is not float: lambd = _b.float_arg(lambd, 'lambd', 'softshrink')
        return _op.softshrink(self, lambd)

    @_b.checked(_op.hardshrink, method=True)
    def hardshrink(self, lambd: float = 0.5) -> Tensor:
        """hardshrink(Tensor self, float lambd=0.5) -> Tensor
        
        x outside [-lambd, lambd], 0 inside.
        """
        if lambd.__class__ is not float: lambd = _b.float_arg(lambd, 'lambd', 'hardshrink')
        return _op.hardshrink(self, lambd)

    @_b.checked(_op.bernoulli, method=True)
    def bernoulli(self, p: float | None = _b.OMITTED, *, generator: Generator | None = None) -> Tensor:
        """bernoulli(Tensor self, float? p=None, *, Generator? generator=None) -> Tensor
        """
        if p is None: _b.reject_none('p', 'float', 'bernoulli')
        if p is _b.OMITTED: p = None
        if p is not None and p.__class__ is not float: p = _b.float_arg(p, 'p', 'bernoulli')
        return _op.bernoulli(self, p, generator)

    @_b.checked(_op.multinomial, method=True)
    def multinomial(self, num_samples: int, replacement: bool = False, *, generator: Generator | None = None) -> Tensor:
        """multinomial(Tensor self, int num_samples, bool replacement=False, *, Generator? generator=None) -> Tensor
        """
        if num_samples.__class__ is not int or not -9223372036854775808 <= num_samples <= 9223372036854775807: num_samples = _b.int_arg(num_samples, 'num_samples', 'multinomial')
        if replacement.__class__ is not bool: replacement = _b.bool_arg(replacement, 'replacement', 'multinomial')
        return _op.multinomial(self, num_samples, replacement, generator)

    @_b.checked(_op.uniform_, method=True)
    def uniform_(self, from_: float = 0, to: float = 1, *, generator: Generator | None = None, **python_keywords: Any) -> Tensor:
        """uniform_(Tensor(a!) self, float from=0, float to=1, *, Generator? generator=None) -> Tensor(a!)
        """
        if 'from' in python_keywords: from_ = python_keywords.pop('from')
        if python_keywords: raise _b.ArgumentError(f"uniform_() got an unexpected keyword argument '{next(iter(python_keywords))}'")
        if from_.__class__ is not float: from_ = _b.float_arg(from_, 'from', 'uniform_')
        if to.__class__ is not float: to = _b.float_arg(to, 'to', 'uniform_')
        return _op.uniform_(self, from_, to, generator)

    @_b.checked(_op.normal_, method=True)
    def normal_(self, mean: float = 0, std: float = 1, *, generator: Generator | None = None) -> Tensor:
        """normal_(Tensor(a!) self, float mean=0, float std=1, *, Generator? generator=None) -> Tensor(a!)
        """
        if mean.__class__ is not float: mean = _b.float_arg(mean, 'mean', 'normal_')
        if std.__class__ is not float: std = _b.float_arg(std, 'std', 'normal_')
        return _op.normal_(self, mean, std, generator)

    @_b.checked(_op.cauchy_, method=True)
    def cauchy_(self, median: float = 0, sigma: float = 1, *, generator: Generator | None = None) -> Tensor:
        """cauchy_(Tensor(a!) self, float median=0, float sigma=1, *, Generator? generator=None) -> Tensor(a!)
        
        Fills self with Cauchy samples.
        """
        if median.__class__ is not float: median = _b.float_arg(median, 'median', 'cauchy_')
        if sigma.__class__ is not float: sigma = _b.float_arg(sigma, 'sigma', 'cauchy_')
        return _op.cauchy_(self, median, sigma, generator)

    @_b.checked(_op.exponential_, method=True)
    def exponential_(self, lambd: float = 1, *, generator: Generator | None = None) -> Tensor:
        """exponential_(Tensor(a!) self, float lambd=1, *, Generator? generator=None) -> Tensor(a!)
        
        Fills self with exponential samples of rate lambd.
        """
        if lambd.__class__ is not float: lambd = _b.float_arg(lambd, 'lambd', 'exponential_')
        return _op.exponential_(self, lambd, generator)

    @_b.checked(_op.geometric_, method=True)
    def geometric_(self, p: float, *, generator: Generator | None = None) -> Tensor:
        """geometric_(Tensor(a!) self, float p, *, Generator? generator=None) -> Tensor(a!)
        
        Fills self with the number of Bernoulli(p) trials up to the first success.
        """
        if p.__class__ is not float: p = _b.float_arg(p, 'p', 'geometric_')
        return _op.geometric_(self, p, generator)

    @_b.checked(_op.log_normal_, method=True)
    def log_normal_(self, mean: float = 1, std: float = 2, *, generator: Generator | None = None) -> Tensor:
        """log_normal_(Tensor(a!) self, float mean=1, float std=2, *, Generator? generator=None) -> Tensor(a!)
        
        Fills self with samples whose log is normal(mean, std).
        """
        if mean.__class__ is not float: mean = _b.float_arg(mean, 'mean', 'log_normal_')
        if std.__class__ is not float: std = _b.float_arg(std, 'std', 'log_normal_')
        return _op.log_normal_(self, mean, std, generator)

    @_b.checked(_op.abs_, method=True)
    def abs_(self) -> Tensor:
        """abs_(Tensor(a!) self) -> Tensor(a!)
        
        In-place version of abs.
        """
        return _op.abs_(self)

    @_b.checked(_op.abs_, method=True)
    def absolute_(self) -> Tensor:
        """abs_(Tensor(a!) self) -> Tensor(a!)
        
        In-place version of abs.
        """
        return _op.abs_(self)

    @_b.checked(_op.neg_, method=True)
    def neg_(self) -> Tensor:
        """neg_(Tensor(a!) self) -> Tensor(a!)
        
        In-place version of neg.
        """
        return _op.neg_(self)

    @_b.checked(_op.neg_, method=True)
    def negative_(self) -> Tensor:
        """neg_(Tensor(a!) self) -> Tensor(a!)
        
        In-place version of neg.
        """
        return _op.neg_(self)

    @_b.checked(_op.exp_, method=True)
    def exp_(self) -> Tensor:
        """exp_(Tensor(a!) self) -> Tensor(a!)
        
        In-place version of exp.
        """
        return _op.exp_(self)

    @_b.checked(_op.exp2_, method=True)
    def exp2_(self) -> Tensor:
        """exp2_(Tensor(a!) self) -> Tensor(a!)
        
        In-place version of exp2.
        """
        return _op.exp2_(self)

    @_b.checked(_op.expm1_, method=True)
    def expm1_(self) -> Tensor:
        """expm1_(Tensor(a!) self) -> Tensor(a!)
        
        In-place version of expm1.
        """
        return _op.expm1_(self)

    @_b.checked(_op.log_, method=True)
    def log_(self) -> Tensor:
        """log_(Tensor(a!) self) -> Tensor(a!)
        
        In-place version of log.
        """
        return _op.log_(self)

    @_b.checked(_op.log2_, method=True)
    def log2_(self) -> Tensor:
        """log2_(Tensor(a!) self) -> Tensor(a!)
        
        In-place version of log2.
        """
        return _op.log2_(self)

    @_b.checked(_op.log10_, method=True)
    def log10_(self) -> Tensor:
        """log10_(Tensor(a!) self) -> Tensor(a!)
        
        In-place version of log10.
        """
        return _op.log10_(self)

    @_b.checked(_op.log1p_, method=True)
    def log1p_(self) -> Tensor:
        """log1p_(Tensor(a!) self) -> Tensor(a!)
        
        In-place version of log1p.
        """
        return _op.log1p_(self)

    @_b.checked(_op.sqrt_, method=True)
    def sqrt_(self) -> Tensor:
        """sqrt_(Tensor(a!) self) -> Tensor(a!)
        
        In-place version of sqrt.
        """
        return _op.sqrt_(self)

    @_b.checked(_op.rsqrt_, method=True)
    def rsqrt_(self) -> Tensor:
        """rsqrt_(Tensor(a!) self) -> Tensor(a!)
        
        In-place version of rsqrt.
        """
        return _op.rsqrt_(self)

    @_b.checked(_op.sin_, method=True)
    def sin_(self) -> Tensor:
        """sin_(Tensor(a!) self) -> Tensor(a!)
        
        In-place version of sin.
        """
        return _op.sin_(self)

    @_b.checked(_op.cos_, method=True)
    def cos_(self) -> Tensor:
        """cos_(Tensor(a!) self) -> Tensor(a!)
        
        In-place version of cos.
        """
        return _op.cos_(self)

    @_b.checked(_op.tan_, method=True)
    def tan_(self) -> Tensor:
        """tan_(Tensor(a!) self) -> Tensor(a!)
        
        In-place version of tan.
        """
        return _op.tan_(self)

    @_b.checked(_op.asin_, method=True)
    def asin_(self) -> Tensor:
        """asin_(Tensor(a!) self) -> Tensor(a!)
        
        In-place version of asin.
        """
        return _op.asin_(self)

    @_b.checked(_op.asin_, method=True)
    def arcsin_(self) -> Tensor:
        """asin_(Tensor(a!) self) -> Tensor(a!)
        
        In-place version of asin.
        """
        return _op.asin_(self)

    @_b.checked(_op.acos_, method=True)
    def acos_(self) -> Tensor:
        """acos_(Tensor(a!) self) -> Tensor(a!)
        
        In-place version of acos.
        """
        return _op.acos_(self)

    @_b.checked(_op.acos_, method=True)
    def arccos_(self) -> Tensor:
        """acos_(Tensor(a!) self) -> Tensor(a!)
        
        In-place version of acos.
        """
        return _op.acos_(self)

    @_b.checked(_op.atan_, method=True)
    def atan_(self) -> Tensor:
        """atan_(Tensor(a!) self) -> Tensor(a!)
        
        In-place version of atan.
        """
        return _op.atan_(self)

    @_b.checked(_op.atan_, method=True)
    def arctan_(self) -> Tensor:
        """atan_(Tensor(a!) self) -> Tensor(a!)
        
        In-place version of atan.
        """
        return _op.atan_(self)

    @_b.checked(_op.sinh_, method=True)
    def sinh_(self) -> Tensor:
        """sinh_(Tensor(a!) self) -> Tensor(a!)
        
        In-place version of sinh.
        """
        return _op.sinh_(self)

    @_b.checked(_op.cosh_, method=True)
    def cosh_(self) -> Tensor:
        """cosh_(Tensor(a!) self) -> Tensor(a!)
        
        In-place version of cosh.
        """
        return _op.cosh_(self)

    @_b.checked(_op.tanh_, method=True)
    def tanh_(self) -> Tensor:
        """tanh_(Tensor(a!) self) -> Tensor(a!)
        
        In-place version of tanh.
        """
        return _op.tanh_(self)

    @_b.checked(_op.sigmoid_, method=True)
    def sigmoid_(self) -> Tensor:
        """sigmoid_(Tensor(a!) self) -> Tensor(a!)
        
        In-place version of sigmoid.
        """
        return _op.sigmoid_(self)

    @_b.checked(_op.relu_, method=True)
    def relu_(self) -> Tensor:
        """relu_(Tensor(a!) self) -> Tensor(a!)
        
        In-place version of relu.
        """
        return _op.relu_(self)

    @_b.checked(_op.erf_, method=True)
    def erf_(self) -> Tensor:
        """erf_(Tensor(a!) self) -> Tensor(a!)
        
        In-place version of erf.
        """
        return _op.erf_(self)

    @_b.checked(_op.erfc_, method=True)
    def erfc_(self) -> Tensor:
        """erfc_(Tensor(a!) self) -> Tensor(a!)
        
        In-place version of erfc.
        """
        return _op.erfc_(self)

    @_b.checked(_op.erfinv_, method=True)
    def erfinv_(self) -> Tensor:
        """erfinv_(Tensor(a!) self) -> Tensor(a!)
        
        In-place version of erfinv.
        """
        return _op.erfinv_(self)

    @_b.checked(_op.sign_, method=True)
    def sign_(self) -> Tensor:
        """sign_(Tensor(a!) self) -> Tensor(a!)
        
        In-place version of sign.
        """
        return _op.sign_(self)

    @_b.checked(_op.floor_, method=True)
    def floor_(self) -> Tensor:
        """floor_(Tensor(a!) self) -> Tensor(a!)
        
        In-place version of floor.
        """
        return _op.floor_(self)

    @_b.checked(_op.ceil_, method=True)
    def ceil_(self) -> Tensor:
        """ceil_(Tensor(a!) self) -> Tensor(a!)
        
        In-place version of ceil.
        """
        return _op.ceil_(self)

    @_b.checked(_op.round_, method=True)
    def round_(self, *, decimals: int = 0) -> Tensor:
        """round_(Tensor(a!) self, *, int decimals=0) -> Tensor(a!)
        
        In-place version of round.
        """
        if decimals.__class__ is not int or not -9223372036854775808 <= decimals <= 9223372036854775807: decimals = _b.int_arg(decimals, 'decimals', 'round_')
        return _op.round_(self, decimals)

    @_b.checked(_op.trunc_, method=True)
    def trunc_(self) -> Tensor:
        """trunc_(Tensor(a!) self) -> Tensor(a!)
        
        In-place version of trunc.
        """
        return _op.trunc_(self)

    @_b.checked(_op.trunc_, method=True)
    def fix_(self) -> Tensor:
        """trunc_(Tensor(a!) self) -> Tensor(a!)
        
        In-place version of trunc.
        """
        return _op.trunc_(self)

    @_b.checked(_op.frac_, method=True)
    def frac_(self) -> Tensor:
        """frac_(Tensor(a!) self) -> Tensor(a!)
        
        In-place version of frac.
        """
        return _op.frac_(self)

    @_b.checked(_op.reciprocal_, method=True)
    def reciprocal_(self) -> Tensor:
        """reciprocal_(Tensor(a!) self) -> Tensor(a!)
        
        In-place version of reciprocal.
        """
        return _op.reciprocal_(self)

    @_b.checked(_op.square_, method=True)
    def square_(self) -> Tensor:
        """square_(Tensor(a!) self) -> Tensor(a!)
        
        In-place version of square.
        """
        return _op.square_(self)

    @_b.checked(_op.clamp_, method=True)
    def clamp_(self, min: Tensor | Number | None = None, max: Tensor | Number | None = None) -> Tensor:
        """clamp_(Tensor(a!) self, Tensor? min=None, Tensor? max=None) -> Tensor(a!)
        
        In-place version of clamp.
        """
        return _op.clamp_(self, min, max)

    @_b.checked(_op.nan_to_num_, method=True)
    def nan_to_num_(self, nan: float | None = None, posinf: float | None = None, neginf: float | None = None) -> Tensor:
        """nan_to_num_(Tensor(a!) self, float? nan=None, float? posinf=None, float? neginf=None) -> Tensor(a!)
        
        In-place version of nan_to_num.
        """
        if nan is not None and nan.__class__ is not float: nan = _b.float_arg(nan, 'nan', 'nan_to_num_')
        if posinf is not None and posinf.__class__ is not float: posinf = _b.float_arg(posinf, 'posinf', 'nan_to_num_')
        if neginf is not None and neginf.__class__ is not float: neginf = _b.float_arg(neginf, 'neginf', 'nan_to_num_')
        return _op.nan_to_num_(self, nan, posinf, neginf)

    @_b.checked(_op.logical_not_, method=True)
    def logical_not_(self) -> Tensor:
        """logical_not_(Tensor(a!) self) -> Tensor(a!)
        
        In-place version of logical_not.
        """
        return _op.logical_not_(self)

    @_b.checked(_op.bitwise_not_, method=True)
    def bitwise_not_(self) -> Tensor:
        """bitwise_not_(Tensor(a!) self) -> Tensor(a!)
        
        In-place version of bitwise_not.
        """
        return _op.bitwise_not_(self)

    @_b.checked(_op.add_, method=True)
    def add_(self, other: Tensor | Number, *, alpha: Number = 1) -> Tensor:
        """add_(Tensor(a!) self, Tensor other, *, Scalar alpha=1) -> Tensor(a!)
        
        In-place version of add.
        """
        return _op.add_(self, other, alpha)

    @_b.checked(_op.sub_, method=True)
    def sub_(self, other: Tensor | Number, *, alpha: Number = 1) -> Tensor:
        """sub_(Tensor(a!) self, Tensor other, *, Scalar alpha=1) -> Tensor(a!)
        
        In-place version of sub.
        """
        return _op.sub_(self, other, alpha)

    @_b.checked(_op.mul_, method=True)
    def mul_(self, other: Tensor | Number) -> Tensor:
        """mul_(Tensor(a!) self, Tensor other) -> Tensor(a!)
        
        In-place version of mul.
        """
        return _op.mul_(self, other)

    @_b.checked(_op.div_, method=True)
    def div_(self, other: Tensor | Number, *, rounding_mode: str | None = None) -> Tensor:
        """div_(Tensor(a!) self, Tensor other, *, str? rounding_mode=None) -> Tensor(a!)
        
        In-place version of div.
        """
        if rounding_mode is not None and rounding_mode.__class__ is not str: rounding_mode = _b.str_arg(rounding_mode, 'rounding_mode', 'div_')
        return _op.div_(self, other, rounding_mode)

    @_b.checked(_op.floor_divide_, method=True)
    def floor_divide_(self, other: Tensor | Number) -> Tensor:
        """floor_divide_(Tensor(a!) self, Tensor other) -> Tensor(a!)
        
        In-place version of floor_divide.
        """
        return _op.floor_divide_(self, other)

    @_b.checked(_op.pow_, method=True)
    def pow_(self, exponent: Tensor | Number) -> Tensor:
        """pow_(Tensor(a!) self, Tensor exponent) -> Tensor(a!)
        
        In-place version of pow.
        """
        return _op.pow_(self, exponent)

    @_b.checked(_op.remainder_, method=True)
    def remainder_(self, other: Tensor | Number) -> Tensor:
        """remainder_(Tensor(a!) self, Tensor other) -> Tensor(a!)
        
        In-place version of remainder.
        """
        return _op.remainder_(self, other)

    @_b.checked(_op.fmod_, method=True)
    def fmod_(self, other: Tensor | Number) -> Tensor:
        """fmod_(Tensor(a!) self, Tensor other) -> Tensor(a!)
        
        In-place version of fmod.
        """
        return _op.fmod_(self, other)

    @_b.checked(_op.atan2_, method=True)
    def atan2_(self, other: Tensor) -> Tensor:
        """atan2_(Tensor(a!) self, Tensor other) -> Tensor(a!)
        
        In-place version of atan2.
        """
        if other.__class__ not in _b.TENSOR_TYPES: _b.tensor_arg(other, 'other', 1, 'atan2_')
        return _op.atan2_(self, other)

    @_b.checked(_op.hypot_, method=True)
    def hypot_(self, other: Tensor) -> Tensor:
        """hypot_(Tensor(a!) self, Tensor other) -> Tensor(a!)
        
        In-place version of hypot.
        """
        if other.__class__ not in _b.TENSOR_TYPES: _b.tensor_arg(other, 'other', 1, 'hypot_')
        return _op.hypot_(self, other)

    @_b.checked(_op.copysign_, method=True)
    def copysign_(self, other: Tensor | Number) -> Tensor:
        """copysign_(Tensor(a!) self, Tensor other) -> Tensor(a!)
        
        In-place version of copysign.
        """
        return _op.copysign_(self, other)

    @_b.checked(_op.xlogy_, method=True)
    def xlogy_(self, other: Tensor | Number) -> Tensor:
        """xlogy_(Tensor(a!) self, Tensor other) -> Tensor(a!)
        
        In-place version of xlogy.
        """
        return _op.xlogy_(self, other)

    @_b.checked(_op.eq_, method=True)
    def eq_(self, other: Tensor | Number) -> Tensor:
        """eq_(Tensor(a!) self, Tensor other) -> Tensor(a!)
        
        In-place version of eq.
        """
        return _op.eq_(self, other)

    @_b.checked(_op.ne_, method=True)
    def ne_(self, other: Tensor | Number) -> Tensor:
        """ne_(Tensor(a!) self, Tensor other) -> Tensor(a!)
        
        In-place version of ne.
        """
        return _op.ne_(self, other)

    @_b.checked(_op.ne_, method=True)
    def not_equal_(self, other: Tensor | Number) -> Tensor:
        """ne_(Tensor(a!) self, Tensor other) -> Tensor(a!)
        
        In-place version of ne.
        """
        return _op.ne_(self, other)

    @_b.checked(_op.lt_, method=True)
    def lt_(self, other: Tensor | Number) -> Tensor:
        """lt_(Tensor(a!) self, Tensor other) -> Tensor(a!)
        
        In-place version of lt.
        """
        return _op.lt_(self, other)

    @_b.checked(_op.lt_, method=True)
    def less_(self, other: Tensor | Number) -> Tensor:
        """lt_(Tensor(a!) self, Tensor other) -> Tensor(a!)
        
        In-place version of lt.
        """
        return _op.lt_(self, other)

    @_b.checked(_op.le_, method=True)
    def le_(self, other: Tensor | Number) -> Tensor:
        """le_(Tensor(a!) self, Tensor other) -> Tensor(a!)
        
        In-place version of le.
        """
        return _op.le_(self, other)

    @_b.checked(_op.le_, method=True)
    def less_equal_(self, other: Tensor | Number) -> Tensor:
        """le_(Tensor(a!) self, Tensor other) -> Tensor(a!)
        
        In-place version of le.
        """
        return _op.le_(self, other)

    @_b.checked(_op.gt_, method=True)
    def gt_(self, other: Tensor | Number) -> Tensor:
        """gt_(Tensor(a!) self, Tensor other) -> Tensor(a!)
        
        In-place version of gt.
        """
        return _op.gt_(self, other)

    @_b.checked(_op.gt_, method=True)
    def greater_(self, other: Tensor | Number) -> Tensor:
        """gt_(Tensor(a!) self, Tensor other) -> Tensor(a!)
        
        In-place version of gt.
        """
        return _op.gt_(self, other)

    @_b.checked(_op.ge_, method=True)
    def ge_(self, other: Tensor | Number) -> Tensor:
        """ge_(Tensor(a!) self, Tensor other) -> Tensor(a!)
        
        In-place version of ge.
        """
        return _op.ge_(self, other)

    @_b.checked(_op.ge_, method=True)
    def greater_equal_(self, other: Tensor | Number) -> Tensor:
        """ge_(Tensor(a!) self, Tensor other) -> Tensor(a!)
        
        In-place version of ge.
        """
        return _op.ge_(self, other)

    @_b.checked(_op.logical_and_, method=True)
    def logical_and_(self, other: Tensor) -> Tensor:
        """logical_and_(Tensor(a!) self, Tensor other) -> Tensor(a!)
        
        In-place version of logical_and.
        """
        if other.__class__ not in _b.TENSOR_TYPES: _b.tensor_arg(other, 'other', 1, 'logical_and_')
        return _op.logical_and_(self, other)

    @_b.checked(_op.logical_or_, method=True)
    def logical_or_(self, other: Tensor) -> Tensor:
        """logical_or_(Tensor(a!) self, Tensor other) -> Tensor(a!)
        
        In-place version of logical_or.
        """
        if other.__class__ not in _b.TENSOR_TYPES: _b.tensor_arg(other, 'other', 1, 'logical_or_')
        return _op.logical_or_(self, other)

    @_b.checked(_op.logical_xor_, method=True)
    def logical_xor_(self, other: Tensor) -> Tensor:
        """logical_xor_(Tensor(a!) self, Tensor other) -> Tensor(a!)
        
        In-place version of logical_xor.
        """
        if other.__class__ not in _b.TENSOR_TYPES: _b.tensor_arg(other, 'other', 1, 'logical_xor_')
        return _op.logical_xor_(self, other)

    @_b.checked(_op.bitwise_and_, method=True)
    def bitwise_and_(self, other: Tensor | Number) -> Tensor:
        """bitwise_and_(Tensor(a!) self, Tensor other) -> Tensor(a!)
        
        In-place version of bitwise_and.
        """
        return _op.bitwise_and_(self, other)

    @_b.checked(_op.bitwise_or_, method=True)
    def bitwise_or_(self, other: Tensor | Number) -> Tensor:
        """bitwise_or_(Tensor(a!) self, Tensor other) -> Tensor(a!)
        
        In-place version of bitwise_or.
        """
        return _op.bitwise_or_(self, other)

    @_b.checked(_op.bitwise_xor_, method=True)
    def bitwise_xor_(self, other: Tensor | Number) -> Tensor:
        """bitwise_xor_(Tensor(a!) self, Tensor other) -> Tensor(a!)
        
        In-place version of bitwise_xor.
        """
        return _op.bitwise_xor_(self, other)

    @_b.checked(_op.bitwise_left_shift_, method=True)
    def bitwise_left_shift_(self, other: Tensor | Number) -> Tensor:
        """bitwise_left_shift_(Tensor(a!) self, Tensor other) -> Tensor(a!)
        
        In-place version of bitwise_left_shift.
        """
        return _op.bitwise_left_shift_(self, other)

    @_b.checked(_op.bitwise_right_shift_, method=True)
    def bitwise_right_shift_(self, other: Tensor | Number) -> Tensor:
        """bitwise_right_shift_(Tensor(a!) self, Tensor other) -> Tensor(a!)
        
        In-place version of bitwise_right_shift.
        """
        return _op.bitwise_right_shift_(self, other)

    @_b.checked(_op.lerp_, method=True)
    def lerp_(self, end: Tensor, weight: Tensor | Number) -> Tensor:
        """lerp_(Tensor(a!) self, Tensor end, Tensor weight) -> Tensor(a!)
        
        In-place version of lerp.
        """
        if end.__class__ not in _b.TENSOR_TYPES: _b.tensor_arg(end, 'end', 1, 'lerp_')
        return _op.lerp_(self, end, weight)

    @_b.checked(_op.addcmul_, method=True)
    def addcmul_(self, tensor1: Tensor, tensor2: Tensor, *, value: Number = 1) -> Tensor:
        """addcmul_(Tensor(a!) self, Tensor tensor1, Tensor tensor2, *, Scalar value=1) -> Tensor(a!)
        
        In-place version of addcmul.
        """
        if tensor1.__class__ not in _b.TENSOR_TYPES: _b.tensor_arg(tensor1, 'tensor1', 1, 'addcmul_')
        if tensor2.__class__ not in _b.TENSOR_TYPES: _b.tensor_arg(tensor2, 'tensor2', 2, 'addcmul_')
        return _op.addcmul_(self, tensor1, tensor2, value)

    @_b.checked(_op.addcdiv_, method=True)
    def addcdiv_(self, tensor1: Tensor, tensor2: Tensor, *, value: Number = 1) -> Tensor:
        """addcdiv_(Tensor(a!) self, Tensor tensor1, Tensor tensor2, *, Scalar value=1) -> Tensor(a!)
        
        In-place version of addcdiv.
        """
        if tensor1.__class__ not in _b.TENSOR_TYPES: _b.tensor_arg(tensor1, 'tensor1', 1, 'addcdiv_')
        if tensor2.__class__ not in _b.TENSOR_TYPES: _b.tensor_arg(tensor2, 'tensor2', 2, 'addcdiv_')
        return _op.addcdiv_(self, tensor1, tensor2, value)

    @_b.checked(_op.acosh_, method=True)
    def acosh_(self) -> Tensor:
        """acosh_(Tensor(a!) self) -> Tensor(a!)
        
        In-place version of acosh.
        """
        return _op.acosh_(self)

    @_b.checked(_op.acosh_, method=True)
    def arccosh_(self) -> Tensor:
        """acosh_(Tensor(a!) self) -> Tensor(a!)
        
        In-place version of acosh.
        """
        return _op.acosh_(self)

    @_b.checked(_op.asinh_, method=True)
    def asinh_(self) -> Tensor:
        """asinh_(Tensor(a!) self) -> Tensor(a!)
        
        In-place version of asinh.
        """
        return _op.asinh_(self)

    @_b.checked(_op.asinh_, method=True)
    def arcsinh_(self) -> Tensor:
        """asinh_(Tensor(a!) self) -> Tensor(a!)
        
        In-place version of asinh.
        """
        return _op.asinh_(self)

    @_b.checked(_op.atanh_, method=True)
    def atanh_(self) -> Tensor:
        """atanh_(Tensor(a!) self) -> Tensor(a!)
        
        In-place version of atanh.
        """
        return _op.atanh_(self)

    @_b.checked(_op.atanh_, method=True)
    def arctanh_(self) -> Tensor:
        """atanh_(Tensor(a!) self) -> Tensor(a!)
        
        In-place version of atanh.
        """
        return _op.atanh_(self)

    @_b.checked(_op.deg2rad_, method=True)
    def deg2rad_(self) -> Tensor:
        """deg2rad_(Tensor(a!) self) -> Tensor(a!)
        
        In-place version of deg2rad.
        """
        return _op.deg2rad_(self)

    @_b.checked(_op.rad2deg_, method=True)
    def rad2deg_(self) -> Tensor:
        """rad2deg_(Tensor(a!) self) -> Tensor(a!)
        
        In-place version of rad2deg.
        """
        return _op.rad2deg_(self)

    @_b.checked(_op.sinc_, method=True)
    def sinc_(self) -> Tensor:
        """sinc_(Tensor(a!) self) -> Tensor(a!)
        
        In-place version of sinc.
        """
        return _op.sinc_(self)

    @_b.checked(_op.lgamma_, method=True)
    def lgamma_(self) -> Tensor:
        """lgamma_(Tensor(a!) self) -> Tensor(a!)
        
        In-place version of lgamma.
        """
        return _op.lgamma_(self)

    @_b.checked(_op.digamma_, method=True)
    def digamma_(self) -> Tensor:
        """digamma_(Tensor(a!) self) -> Tensor(a!)
        
        In-place version of digamma.
        """
        return _op.digamma_(self)

    @_b.checked(_op.i0_, method=True)
    def i0_(self) -> Tensor:
        """i0_(Tensor(a!) self) -> Tensor(a!)
        
        In-place version of i0.
        """
        return _op.i0_(self)

    @_b.checked(_op.igamma_, method=True)
    def igamma_(self, other: Tensor) -> Tensor:
        """igamma_(Tensor(a!) self, Tensor other) -> Tensor(a!)
        
        In-place version of igamma.
        """
        return _op.igamma_(self, other)

    @_b.checked(_op.igammac_, method=True)
    def igammac_(self, other: Tensor) -> Tensor:
        """igammac_(Tensor(a!) self, Tensor other) -> Tensor(a!)
        
        In-place version of igammac.
        """
        return _op.igammac_(self, other)

    @_b.checked(_op.tril_, method=True)
    def tril_(self, diagonal: int = 0) -> Tensor:
        """tril_(Tensor(a!) self, int diagonal=0) -> Tensor(a!)
        
        In-place version of tril.
        """
        if diagonal.__class__ is not int or not -9223372036854775808 <= diagonal <= 9223372036854775807: diagonal = _b.int_arg(diagonal, 'diagonal', 'tril_')
        return _op.tril_(self, diagonal)

    @_b.checked(_op.triu_, method=True)
    def triu_(self, diagonal: int = 0) -> Tensor:
        """triu_(Tensor(a!) self, int diagonal=0) -> Tensor(a!)
        
        In-place version of triu.
        """
        if diagonal.__class__ is not int or not -9223372036854775808 <= diagonal <= 9223372036854775807: diagonal = _b.int_arg(diagonal, 'diagonal', 'triu_')
        return _op.triu_(self, diagonal)

    def scatter_(self, *args: Any, **kwargs: Any) -> Any:
        """scatter_.src(Tensor(a!) self, int dim, Tensor index, Tensor src) -> Tensor(a!)
        scatter_.value(Tensor(a!) self, int dim, Tensor index, Scalar value) -> Tensor(a!)
        scatter_.reduce(Tensor(a!) self, int dim, Tensor index, Tensor src, *, str reduce) -> Tensor(a!)
        scatter_.value_reduce(Tensor(a!) self, int dim, Tensor index, Scalar value, *, str reduce) -> Tensor(a!)
        
        In-place version of scatter.src.
        
        In-place version of scatter.value.
        
        In-place version of scatter.reduce.
        
        In-place version of scatter.value_reduce.
        """
        return _b.call_overloaded((_op.scatter__src, _op.scatter__value, _op.scatter__reduce, _op.scatter__value_reduce,), (self, *args), kwargs, 'scatter_')

    @_b.checked(_op.scatter_add_, method=True)
    def scatter_add_(self, dim: int, index: Tensor, src: Tensor) -> Tensor:
        """scatter_add_(Tensor(a!) self, int dim, Tensor index, Tensor src) -> Tensor(a!)
        
        In-place version of scatter_add.
        """
        if dim.__class__ is not int or not -9223372036854775808 <= dim <= 9223372036854775807: dim = _b.int_arg(dim, 'dim', 'scatter_add_')
        return _op.scatter_add_(self, dim, index, src)

    @_b.checked(_op.index_add_, method=True)
    def index_add_(self, dim: int, index: Tensor, source: Tensor, *, alpha: Number = 1) -> Tensor:
        """index_add_(Tensor(a!) self, int dim, Tensor index, Tensor source, *, Scalar alpha=1) -> Tensor(a!)
        
        In-place version of index_add.
        """
        if dim.__class__ is not int or not -9223372036854775808 <= dim <= 9223372036854775807: dim = _b.int_arg(dim, 'dim', 'index_add_')
        return _op.index_add_(self, dim, index, source, alpha)

    @_b.checked(_op.index_put_, method=True)
    def index_put_(self, indices: Sequence[Tensor], values: Tensor, accumulate: bool = False) -> Tensor:
        """index_put_(Tensor(a!) self, Tensor?[] indices, Tensor values, bool accumulate=False) -> Tensor(a!)
        
        In-place version of index_put.
        """
        indices = _b.tensor_list(indices, 'indices')
        if accumulate.__class__ is not bool: accumulate = _b.bool_arg(accumulate, 'accumulate', 'index_put_')
        return _op.index_put_(self, indices, values, accumulate)

    def masked_fill_(self, *args: Any, **kwargs: Any) -> Any:
        """masked_fill_.Tensor(Tensor(a!) self, Tensor mask, Tensor value) -> Tensor(a!)
        masked_fill_(Tensor(a!) self, Tensor mask, Scalar value) -> Tensor(a!)
        
        In-place version of masked_fill.Tensor.
        
        In-place version of masked_fill.
        """
        return _b.call_overloaded((_op.masked_fill__Tensor, _op.masked_fill_,), (self, *args), kwargs, 'masked_fill_')

    def index_fill_(self, *args: Any, **kwargs: Any) -> Any:
        """index_fill_.int_Tensor(Tensor(a!) self, int dim, Tensor index, Tensor value) -> Tensor(a!)
        index_fill_.int_Scalar(Tensor(a!) self, int dim, Tensor index, Scalar value) -> Tensor(a!)
        
        In-place version of index_fill.int_Tensor.
        
        In-place version of index_fill.int_Scalar.
        """
        return _b.call_overloaded((_op.index_fill__int_Tensor, _op.index_fill__int_Scalar,), (self, *args), kwargs, 'index_fill_')

    def __abs__(self) -> Tensor:
        return _op.abs(self)

    def __neg__(self) -> Tensor:
        return _op.neg(self)

    def __pos__(self) -> Tensor:
        return _op.positive(self)

    def __invert__(self) -> Tensor:
        return _op.bitwise_not(self)

    def __add__(self, other: Any) -> Any:
        if other.__class__ not in _b.FAST_OPERANDS and not _b.is_operand(other):
            return NotImplemented
        return _op.add(self, other, 1)

    def __radd__(self, other: Any) -> Any:
        if self.__class__ not in _b.TENSOR_TYPES: _b.method_self(self, '__radd__')
        if other.__class__ not in _b.FAST_OPERANDS and not _b.is_operand(other):
            return NotImplemented
        return _op.add(other, self, 1)

    def __iadd__(self, other: Any) -> Any:
        if other.__class__ not in _b.FAST_OPERANDS and not _b.is_operand(other):
            return NotImplemented
        return _op.add_(self, other, 1)

    def __sub__(self, other: Any) -> Any:
        if other.__class__ not in _b.FAST_OPERANDS and not _b.is_operand(other):
            return NotImplemented
        return _op.sub(self, other, 1)

    def __rsub__(self, other: Any) -> Any:
        if self.__class__ not in _b.TENSOR_TYPES: _b.method_self(self, '__rsub__')
        if other.__class__ not in _b.FAST_OPERANDS and not _b.is_operand(other):
            return NotImplemented
        return _op.sub(other, self, 1)

    def __isub__(self, other: Any) -> Any:
        if other.__class__ not in _b.FAST_OPERANDS and not _b.is_operand(other):
            return NotImplemented
        return _op.sub_(self, other, 1)

    def __mul__(self, other: Any) -> Any:
        if other.__class__ not in _b.FAST_OPERANDS and not _b.is_operand(other):
            return NotImplemented
        return _op.mul(self, other)

    def __rmul__(self, other: Any) -> Any:
        if self.__class__ not in _b.TENSOR_TYPES: _b.method_self(self, '__rmul__')
        if other.__class__ not in _b.FAST_OPERANDS and not _b.is_operand(other):
            return NotImplemented
        return _op.mul(other, self)

    def __imul__(self, other: Any) -> Any:
        if other.__class__ not in _b.FAST_OPERANDS and not _b.is_operand(other):
            return NotImplemented
        return _op.mul_(self, other)

    def __truediv__(self, other: Any) -> Any:
        if other.__class__ not in _b.FAST_OPERANDS and not _b.is_operand(other):
            return NotImplemented
        return _op.div(self, other, None)

    def __rtruediv__(self, other: Any) -> Any:
        if self.__class__ not in _b.TENSOR_TYPES: _b.method_self(self, '__rtruediv__')
        if other.__class__ not in _b.FAST_OPERANDS and not _b.is_operand(other):
            return NotImplemented
        return _op.div(other, self, None)

    def __rdiv__(self, other: Any) -> Any:
        if self.__class__ not in _b.TENSOR_TYPES: _b.method_self(self, '__rdiv__')
        if other.__class__ not in _b.FAST_OPERANDS and not _b.is_operand(other):
            return NotImplemented
        return _op.div(other, self, None)

    def __itruediv__(self, other: Any) -> Any:
        if other.__class__ not in _b.FAST_OPERANDS and not _b.is_operand(other):
            return NotImplemented
        return _op.div_(self, other, None)

    def __floordiv__(self, other: Any) -> Any:
        if other.__class__ not in _b.FAST_OPERANDS and not _b.is_operand(other):
            return NotImplemented
        return _op.floor_divide(self, other)

    def __rfloordiv__(self, other: Any) -> Any:
        if self.__class__ not in _b.TENSOR_TYPES: _b.method_self(self, '__rfloordiv__')
        if other.__class__ not in _b.FAST_OPERANDS and not _b.is_operand(other):
            return NotImplemented
        return _op.floor_divide(other, self)

    def __ifloordiv__(self, other: Any) -> Any:
        if other.__class__ not in _b.FAST_OPERANDS and not _b.is_operand(other):
            return NotImplemented
        return _op.floor_divide_(self, other)

    def __pow__(self, other: Any) -> Any:
        if other.__class__ not in _b.FAST_OPERANDS and not _b.is_operand(other):
            return NotImplemented
        return _op.pow(self, other)

    def __rpow__(self, other: Any) -> Any:
        if self.__class__ not in _b.TENSOR_TYPES: _b.method_self(self, '__rpow__')
        if other.__class__ not in _b.FAST_OPERANDS and not _b.is_operand(other):
            return NotImplemented
        return _op.pow(other, self)

    def __ipow__(self, other: Any) -> Any:
        if other.__class__ not in _b.FAST_OPERANDS and not _b.is_operand(other):
            return NotImplemented
        return _op.pow_(self, other)

    def __mod__(self, other: Any) -> Any:
        if other.__class__ not in _b.FAST_OPERANDS and not _b.is_operand(other):
            return NotImplemented
        return _op.remainder(self, other)

    def __rmod__(self, other: Any) -> Any:
        if self.__class__ not in _b.TENSOR_TYPES: _b.method_self(self, '__rmod__')
        if other.__class__ not in _b.FAST_OPERANDS and not _b.is_operand(other):
            return NotImplemented
        return _op.remainder(other, self)

    def __imod__(self, other: Any) -> Any:
        if other.__class__ not in _b.FAST_OPERANDS and not _b.is_operand(other):
            return NotImplemented
        return _op.remainder_(self, other)

    def __eq__(self, other: Any) -> Any:
        if other.__class__ not in _b.FAST_OPERANDS and not _b.is_operand(other):
            return NotImplemented
        return _op.eq(self, other)

    def __ne__(self, other: Any) -> Any:
        if other.__class__ not in _b.FAST_OPERANDS and not _b.is_operand(other):
            return NotImplemented
        return _op.ne(self, other)

    def __lt__(self, other: Any) -> Any:
        if other.__class__ not in _b.FAST_OPERANDS and not _b.is_operand(other):
            return NotImplemented
        return _op.lt(self, other)

    def __le__(self, other: Any) -> Any:
        if other.__class__ not in _b.FAST_OPERANDS and not _b.is_operand(other):
            return NotImplemented
        return _op.le(self, other)

    def __gt__(self, other: Any) -> Any:
        if other.__class__ not in _b.FAST_OPERANDS and not _b.is_operand(other):
            return NotImplemented
        return _op.gt(self, other)

    def __ge__(self, other: Any) -> Any:
        if other.__class__ not in _b.FAST_OPERANDS and not _b.is_operand(other):
            return NotImplemented
        return _op.ge(self, other)

    def __and__(self, other: Any) -> Any:
        if other.__class__ not in _b.FAST_OPERANDS and not _b.is_operand(other):
            return NotImplemented
        return _op.bitwise_and(self, other)

    def __rand__(self, other: Any) -> Any:
        if self.__class__ not in _b.TENSOR_TYPES: _b.method_self(self, '__rand__')
        if other.__class__ not in _b.FAST_OPERANDS and not _b.is_operand(other):
            return NotImplemented
        return _op.bitwise_and(other, self)

    def __iand__(self, other: Any) -> Any:
        if other.__class__ not in _b.FAST_OPERANDS and not _b.is_operand(other):
            return NotImplemented
        return _op.bitwise_and_(self, other)

    def __or__(self, other: Any) -> Any:
        if other.__class__ not in _b.FAST_OPERANDS and not _b.is_operand(other):
            return NotImplemented
        return _op.bitwise_or(self, other)

    def __ror__(self, other: Any) -> Any:
        if self.__class__ not in _b.TENSOR_TYPES: _b.method_self(self, '__ror__')
        if other.__class__ not in _b.FAST_OPERANDS and not _b.is_operand(other):
            return NotImplemented
        return _op.bitwise_or(other, self)

    def __ior__(self, other: Any) -> Any:
        if other.__class__ not in _b.FAST_OPERANDS and not _b.is_operand(other):
            return NotImplemented
        return _op.bitwise_or_(self, other)

    def __xor__(self, other: Any) -> Any:
        if other.__class__ not in _b.FAST_OPERANDS and not _b.is_operand(other):
            return NotImplemented
        return _op.bitwise_xor(self, other)

    def __rxor__(self, other: Any) -> Any:
        if self.__class__ not in _b.TENSOR_TYPES: _b.method_self(self, '__rxor__')
        if other.__class__ not in _b.FAST_OPERANDS and not _b.is_operand(other):
            return NotImplemented
        return _op.bitwise_xor(other, self)

    def __ixor__(self, other: Any) -> Any:
        if other.__class__ not in _b.FAST_OPERANDS and not _b.is_operand(other):
            return NotImplemented
        return _op.bitwise_xor_(self, other)

    def __lshift__(self, other: Any) -> Any:
        if other.__class__ not in _b.FAST_OPERANDS and not _b.is_operand(other):
            return NotImplemented
        return _op.bitwise_left_shift(self, other)

    def __rlshift__(self, other: Any) -> Any:
        if self.__class__ not in _b.TENSOR_TYPES: _b.method_self(self, '__rlshift__')
        if other.__class__ not in _b.FAST_OPERANDS and not _b.is_operand(other):
            return NotImplemented
        return _op.bitwise_left_shift(other, self)

    def __ilshift__(self, other: Any) -> Any:
        if other.__class__ not in _b.FAST_OPERANDS and not _b.is_operand(other):
            return NotImplemented
        return _op.bitwise_left_shift_(self, other)

    def __rshift__(self, other: Any) -> Any:
        if other.__class__ not in _b.FAST_OPERANDS and not _b.is_operand(other):
            return NotImplemented
        return _op.bitwise_right_shift(self, other)

    def __rrshift__(self, other: Any) -> Any:
        if self.__class__ not in _b.TENSOR_TYPES: _b.method_self(self, '__rrshift__')
        if other.__class__ not in _b.FAST_OPERANDS and not _b.is_operand(other):
            return NotImplemented
        return _op.bitwise_right_shift(other, self)

    def __irshift__(self, other: Any) -> Any:
        if other.__class__ not in _b.FAST_OPERANDS and not _b.is_operand(other):
            return NotImplemented
        return _op.bitwise_right_shift_(self, other)

    def __matmul__(self, other: Any) -> Any:
        if other.__class__ not in _b.FAST_OPERANDS and not _b.is_operand(other):
            return NotImplemented
        return _op.matmul(self, other)

    def __rmatmul__(self, other: Any) -> Any:
        if self.__class__ not in _b.TENSOR_TYPES: _b.method_self(self, '__rmatmul__')
        if other.__class__ not in _b.FAST_OPERANDS and not _b.is_operand(other):
            return NotImplemented
        return _op.matmul(other, self)

    __hash__ = object.__hash__
