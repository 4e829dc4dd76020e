# @generated from volta_ext_ops/ops.yaml by `python -m codegen` — do not edit.
# ruff: noqa
"""numpy kernels generated from the pointwise snippets in ops.yaml.

Each kernel converts its tensor arguments to arrays of the computation dtype
(``prepare``), evaluates the snippet, and wraps the array as the output dtype.
"""

from numpy import errstate as _quiet

from volta.backends.cpu import pointwise_math as _pm
from volta.backends.cpu.pointwise_runtime import prepare as _prepare
from volta.backends.cpu.pointwise_runtime import scalar_argument as _scalar
from volta.backends.cpu.pointwise_runtime import wrap as _wrap

KERNELS = {}


def ext_swiglu(x, gate):
    (x, gate), out_dtype = _prepare('ext::swiglu', 'int_to_float', None, x, gate)
    with _quiet(all='ignore'):
        return _wrap(x * gate * _pm.sigmoid(gate), out_dtype)


KERNELS['ext::swiglu'] = ext_swiglu


def ext_fused_bias_gelu(x, bias):
    (x, bias), out_dtype = _prepare('ext::fused_bias_gelu', 'int_to_float', None, x, bias)
    return _wrap(0.5 * (x + bias) * (1 + _pm.erf((x + bias) * 0.7071067811865476)), out_dtype)


KERNELS['ext::fused_bias_gelu'] = ext_fused_bias_gelu


def ext_gelu_derivative(u):
    (u,), out_dtype = _prepare('ext::gelu_derivative', 'int_to_float', None, u)
    with _quiet(all='ignore'):
        return _wrap(0.5 * (1 + _pm.erf(u * 0.7071067811865476)) + u * _pm.exp(-0.5 * u * u) * 0.3989422804014327, out_dtype)


KERNELS['ext::gelu_derivative'] = ext_gelu_derivative
