# @generated from volta_ext_ops/ops.yaml by `python -m codegen` — do not edit.
# ruff: noqa
"""The operators of volta_ext_ops/ops.yaml: call ``define_ops(library)`` from the package's
``volta_define_ops`` hook; it defines them, with their backward nodes and CPU
kernels."""

from volta.schema import OpInfo

from volta_ext_ops._generated.handles import HANDLES

OPS = (
    ('ext::swiglu(Tensor x, Tensor gate) -> Tensor', ('pointwise',), OpInfo(**{'promotion': 'int_to_float', 'dtypes': None, 'non_differentiable': False}), 'ext_swiglu'),
    ('ext::fused_bias_gelu(Tensor x, Tensor bias) -> Tensor', ('pointwise',), OpInfo(**{'promotion': 'int_to_float', 'dtypes': None, 'non_differentiable': False}), 'ext_fused_bias_gelu'),
    ('ext::gelu_derivative(Tensor u) -> Tensor', ('pointwise',), OpInfo(**{'promotion': 'int_to_float', 'dtypes': None, 'non_differentiable': False}), 'ext_gelu_derivative'),
    ('ext::rms_norm(Tensor x, Tensor weight, float eps=1e-06) -> Tensor', (), OpInfo(**{'promotion': 'default', 'dtypes': None, 'non_differentiable': False}), 'ext_rms_norm'),
    ('ext::rotary_embedding(Tensor x, Tensor cos, Tensor sin) -> Tensor', (), OpInfo(**{'promotion': 'default', 'dtypes': None, 'non_differentiable': False}), 'ext_rotary_embedding'),
)


def define_ops(library):
    from volta_ext_ops._generated import autograd_nodes, cpu_pointwise
    return library.define_generated(OPS, HANDLES, autograd_nodes, cpu_pointwise)
