# @generated from volta_ext_ops/ops.yaml by `python -m codegen` — do not edit.
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


def ext_swiglu(x, gate):
    (x, gate), out_dtype = _prepare('ext::swiglu', 'int_to_float', None, x, gate)
    _token = _quiet_on()
    try:
        return _wrap(x * gate * _pm.sigmoid(gate), out_dtype)
    finally:
        _quiet_off(_token)


KERNELS['ext::swiglu'] = ext_swiglu


def ext_fused_bias_gelu(x, bias):
    (x, bias), out_dtype = _prepare('ext::fused_bias_gelu', 'int_to_float', None, x, bias)
    _token = _quiet_on()
    try:
        _c0 = x + bias
        return _wrap(0.5 * _c0 * (1 + _pm.erf(_c0 * 0.7071067811865476)), out_dtype)
    finally:
        _quiet_off(_token)


KERNELS['ext::fused_bias_gelu'] = ext_fused_bias_gelu


def ext_gelu_derivative(u):
    (u,), out_dtype = _prepare('ext::gelu_derivative', 'int_to_float', None, u)
    _token = _quiet_on()
    try:
        return _wrap(0.5 * (1 + _pm.erf(u * 0.7071067811865476)) + u * _pm.exp(-0.5 * u * u) * 0.3989422804014327, out_dtype)
    finally:
        _quiet_off(_token)


KERNELS['ext::gelu_derivative'] = ext_gelu_derivative
