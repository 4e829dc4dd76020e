# @generated from volta_ext_ops/ops.yaml by `python -m codegen` — do not edit.
# ruff: noqa
"""WGSL expressions of the pointwise ops, generated from their ops.yaml snippets.

Each entry: the overload's arguments in schema order as (name, kind) — kind is
"Tensor" or the WGSL type of a scalar argument ("T" is the computation type) —,
the type promotion rule, the allowed dtypes and the expression. The kernel template
is in volta/backends/wgpu/kernels/pointwise.py.
"""

SPECS = {}

SPECS['ext::swiglu'] = dict(
    args=(('x', 'Tensor'), ('gate', 'Tensor')),
    promotion='int_to_float',
    dtypes=None,
    wgsl='((v_x * v_gate) * pw_sigmoid(v_gate))',
)

SPECS['ext::fused_bias_gelu'] = dict(
    args=(('x', 'Tensor'), ('bias', 'Tensor')),
    promotion='int_to_float',
    dtypes=None,
    wgsl='((0.5 * (v_x + v_bias)) * (1 + pw_erf(((v_x + v_bias) * 0.7071067811865476))))',
)

SPECS['ext::gelu_derivative'] = dict(
    args=(('u', 'Tensor'),),
    promotion='int_to_float',
    dtypes=None,
    wgsl='((0.5 * (1 + pw_erf((v_u * 0.7071067811865476)))) + ((v_u * pw_exp((((-0.5) * v_u) * v_u))) * 0.3989422804014327))',
)
