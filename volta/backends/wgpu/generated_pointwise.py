# @generated from ops.yaml by `python -m codegen` — do not edit.
# ruff: noqa
"""WGSL expressions of the pointwise ops, generated from their ops.yaml snippets.

Each entry: the overload's arguments in schema order as (name, kind) — kind is
"Tensor" or the WGSL type of a scalar argument ("T" is the computation type) —,
the type promotion rule, the allowed dtypes and the expression. The kernel template
is in volta/backends/wgpu/kernels/pointwise.py.
"""

SPECS = {}

SPECS['abs'] = dict(
    args=(('self', 'Tensor'),),
    promotion='default',
    dtypes='numeric',
    wgsl='pw_abs(v_self)',
)

SPECS['neg'] = dict(
    args=(('self', 'Tensor'),),
    promotion='default',
    dtypes='numeric',
    wgsl='(-v_self)',
)

SPECS['exp'] = dict(
    args=(('self', 'Tensor'),),
    promotion='int_to_float',
    dtypes=None,
    wgsl='pw_exp(v_self)',
)

SPECS['exp2'] = dict(
    args=(('self', 'Tensor'),),
    promotion='int_to_float',
    dtypes=None,
    wgsl='pw_exp2(v_self)',
)

SPECS['expm1'] = dict(
    args=(('self', 'Tensor'),),
    promotion='int_to_float',
    dtypes=None,
    wgsl='pw_expm1(v_self)',
)

SPECS['log'] = dict(
    args=(('self', 'Tensor'),),
    promotion='int_to_float',
    dtypes=None,
    wgsl='pw_log(v_self)',
)

SPECS['log2'] = dict(
    args=(('self', 'Tensor'),),
    promotion='int_to_float',
    dtypes=None,
    wgsl='pw_log2(v_self)',
)

SPECS['log10'] = dict(
    args=(('self', 'Tensor'),),
    promotion='int_to_float',
    dtypes=None,
    wgsl='pw_log10(v_self)',
)

SPECS['log1p'] = dict(
    args=(('self', 'Tensor'),),
    promotion='int_to_float',
    dtypes=None,
    wgsl='pw_log1p(v_self)',
)

SPECS['sqrt'] = dict(
    args=(('self', 'Tensor'),),
    promotion='int_to_float',
    dtypes=None,
    wgsl='pw_sqrt(v_self)',
)

SPECS['rsqrt'] = dict(
    args=(('self', 'Tensor'),),
    promotion='int_to_float',
    dtypes=None,
    wgsl='pw_rsqrt(v_self)',
)

SPECS['sin'] = dict(
    args=(('self', 'Tensor'),),
    promotion='int_to_float',
    dtypes=None,
    wgsl='pw_sin(v_self)',
)

SPECS['cos'] = dict(
    args=(('self', 'Tensor'),),
    promotion='int_to_float',
    dtypes=None,
    wgsl='pw_cos(v_self)',
)

SPECS['tan'] = dict(
    args=(('self', 'Tensor'),),
    promotion='int_to_float',
    dtypes=None,
    wgsl='pw_tan(v_self)',
)

SPECS['asin'] = dict(
    args=(('self', 'Tensor'),),
    promotion='int_to_float',
    dtypes=None,
    wgsl='pw_asin(v_self)',
)

SPECS['acos'] = dict(
    args=(('self', 'Tensor'),),
    promotion='int_to_float',
    dtypes=None,
    wgsl='pw_acos(v_self)',
)

SPECS['atan'] = dict(
    args=(('self', 'Tensor'),),
    promotion='int_to_float',
    dtypes=None,
    wgsl='pw_atan(v_self)',
)

SPECS['sinh'] = dict(
    args=(('self', 'Tensor'),),
    promotion='int_to_float',
    dtypes=None,
    wgsl='pw_sinh(v_self)',
)

SPECS['cosh'] = dict(
    args=(('self', 'Tensor'),),
    promotion='int_to_float',
    dtypes=None,
    wgsl='pw_cosh(v_self)',
)

SPECS['tanh'] = dict(
    args=(('self', 'Tensor'),),
    promotion='int_to_float',
    dtypes=None,
    wgsl='pw_tanh(v_self)',
)

SPECS['tanh_backward'] = dict(
    args=(('grad_output', 'Tensor'), ('output', 'Tensor')),
    promotion='default',
    dtypes=None,
    wgsl='(v_grad_output * (1 - (v_output * v_output)))',
)

SPECS['sigmoid'] = dict(
    args=(('self', 'Tensor'),),
    promotion='int_to_float',
    dtypes=None,
    wgsl='pw_sigmoid(v_self)',
)

SPECS['sigmoid_backward'] = dict(
    args=(('grad_output', 'Tensor'), ('output', 'Tensor')),
    promotion='default',
    dtypes=None,
    wgsl='((v_grad_output * v_output) * (1 - v_output))',
)

SPECS['relu'] = dict(
    args=(('self', 'Tensor'),),
    promotion='default',
    dtypes='numeric',
    wgsl='pw_maximum(v_self, 0)',
)

SPECS['threshold_backward'] = dict(
    args=(('grad_output', 'Tensor'), ('self', 'Tensor'), ('threshold', 'T')),
    promotion='default',
    dtypes=None,
    wgsl='select(v_grad_output, 0, (v_self <= v_threshold))',
)

SPECS['relu6'] = dict(
    args=(('self', 'Tensor'),),
    promotion='default',
    dtypes='numeric',
    wgsl='pw_minimum(pw_maximum(v_self, 0), 6)',
)

SPECS['silu'] = dict(
    args=(('self', 'Tensor'),),
    promotion='int_to_float',
    dtypes='floating',
    wgsl='(v_self * pw_sigmoid(v_self))',
)

SPECS['silu_backward'] = dict(
    args=(('grad_output', 'Tensor'), ('self', 'Tensor')),
    promotion='default',
    dtypes=None,
    wgsl='((v_grad_output * pw_sigmoid(v_self)) * (1 + (v_self * (1 - pw_sigmoid(v_self)))))',
)

SPECS['mish'] = dict(
    args=(('self', 'Tensor'),),
    promotion='int_to_float',
    dtypes='floating',
    wgsl='(v_self * pw_tanh(pw_softplus(v_self)))',
)

SPECS['softplus'] = dict(
    args=(('self', 'Tensor'), ('beta', 'T'), ('threshold', 'T')),
    promotion='int_to_float',
    dtypes='floating',
    wgsl='select((pw_softplus((v_self * v_beta)) / v_beta), v_self, ((v_self * v_beta) > v_threshold))',
)

SPECS['softplus_backward'] = dict(
    args=(('grad_output', 'Tensor'), ('self', 'Tensor'), ('beta', 'T'), ('threshold', 'T')),
    promotion='int_to_float',
    dtypes=None,
    wgsl='select((v_grad_output * pw_sigmoid((v_self * v_beta))), v_grad_output, ((v_self * v_beta) > v_threshold))',
)

SPECS['elu'] = dict(
    args=(('self', 'Tensor'), ('alpha', 'T'), ('scale', 'T'), ('input_scale', 'T')),
    promotion='int_to_float',
    dtypes='floating',
    wgsl='select(((v_alpha * v_scale) * pw_expm1((pw_minimum(v_self, 0) * v_input_scale))), (v_self * v_scale), (v_self > 0))',
)

SPECS['elu_backward'] = dict(
    args=(('grad_output', 'Tensor'), ('alpha', 'T'), ('scale', 'T'), ('input_scale', 'T'), ('is_result', 'bool'), ('self_or_result', 'Tensor')),
    promotion='int_to_float',
    dtypes=None,
    wgsl='select(select(((v_grad_output * ((v_alpha * v_scale) * v_input_scale)) * pw_exp((v_self_or_result * v_input_scale))), ((v_grad_output * v_input_scale) * (v_self_or_result + (v_alpha * v_scale))), v_is_result), (v_grad_output * v_scale), (v_self_or_result > 0))',
)

SPECS['selu'] = dict(
    args=(('self', 'Tensor'),),
    promotion='int_to_float',
    dtypes='floating',
    wgsl='(1.0507009873554805 * select((1.6732632423543772 * pw_expm1(pw_minimum(v_self, 0))), v_self, (v_self > 0)))',
)

SPECS['leaky_relu'] = dict(
    args=(('self', 'Tensor'), ('negative_slope', 'T')),
    promotion='default',
    dtypes='floating',
    wgsl='select(select((v_self * v_negative_slope), v_self, (v_self > 0)), pw_maximum(v_self, (v_self * v_negative_slope)), ((v_negative_slope > 0) & (v_negative_slope <= 1)))',
)

SPECS['leaky_relu_backward'] = dict(
    args=(('grad_output', 'Tensor'), ('self', 'Tensor'), ('negative_slope', 'T'), ('self_is_result', 'bool')),
    promotion='default',
    dtypes=None,
    wgsl='select((v_grad_output * v_negative_slope), v_grad_output, (v_self > 0))',
)

SPECS['hardtanh'] = dict(
    args=(('self', 'Tensor'), ('min_val', 'T'), ('max_val', 'T')),
    promotion='default',
    dtypes='numeric',
    wgsl='pw_minimum(pw_maximum(v_self, v_min_val), v_max_val)',
)

SPECS['hardtanh_backward'] = dict(
    args=(('grad_output', 'Tensor'), ('self', 'Tensor'), ('min_val', 'T'), ('max_val', 'T')),
    promotion='default',
    dtypes=None,
    wgsl='select(v_grad_output, 0, ((v_self <= v_min_val) | (v_self >= v_max_val)))',
)

SPECS['hardsigmoid'] = dict(
    args=(('self', 'Tensor'),),
    promotion='int_to_float',
    dtypes='floating',
    wgsl='pw_minimum(pw_maximum(((v_self / 6) + 0.5), 0), 1)',
)

SPECS['hardswish'] = dict(
    args=(('self', 'Tensor'),),
    promotion='int_to_float',
    dtypes='floating',
    wgsl='((v_self * pw_minimum(pw_maximum((v_self + 3), 0), 6)) / 6)',
)

SPECS['logsigmoid'] = dict(
    args=(('self', 'Tensor'),),
    promotion='int_to_float',
    dtypes='floating',
    wgsl='pw_log_sigmoid(v_self)',
)

SPECS['log_sigmoid_backward'] = dict(
    args=(('grad_output', 'Tensor'), ('self', 'Tensor')),
    promotion='int_to_float',
    dtypes=None,
    wgsl='(v_grad_output * pw_sigmoid((-v_self)))',
)

SPECS['softsign'] = dict(
    args=(('self', 'Tensor'),),
    promotion='int_to_float',
    dtypes='numeric',
    wgsl='(v_self / (1 + pw_abs(v_self)))',
)

SPECS['erf'] = dict(
    args=(('self', 'Tensor'),),
    promotion='int_to_float',
    dtypes=None,
    wgsl='pw_erf(v_self)',
)

SPECS['erfc'] = dict(
    args=(('self', 'Tensor'),),
    promotion='int_to_float',
    dtypes=None,
    wgsl='pw_erfc(v_self)',
)

SPECS['erfinv'] = dict(
    args=(('self', 'Tensor'),),
    promotion='int_to_float',
    dtypes=None,
    wgsl='pw_erfinv(v_self)',
)

SPECS['sign'] = dict(
    args=(('self', 'Tensor'),),
    promotion='default',
    dtypes=None,
    wgsl='pw_sign(v_self)',
)

SPECS['floor'] = dict(
    args=(('self', 'Tensor'),),
    promotion='default',
    dtypes='numeric',
    wgsl='pw_floor(v_self)',
)

SPECS['ceil'] = dict(
    args=(('self', 'Tensor'),),
    promotion='default',
    dtypes='numeric',
    wgsl='pw_ceil(v_self)',
)

SPECS['round'] = dict(
    args=(('self', 'Tensor'), ('decimals', 'i32')),
    promotion='default',
    dtypes='numeric',
    wgsl='pw_round(v_self, v_decimals)',
)

SPECS['trunc'] = dict(
    args=(('self', 'Tensor'),),
    promotion='default',
    dtypes='numeric',
    wgsl='pw_trunc(v_self)',
)

SPECS['frac'] = dict(
    args=(('self', 'Tensor'),),
    promotion='default',
    dtypes='floating',
    wgsl='pw_frac(v_self)',
)

SPECS['reciprocal'] = dict(
    args=(('self', 'Tensor'),),
    promotion='int_to_float',
    dtypes=None,
    wgsl='pw_reciprocal(v_self)',
)

SPECS['square'] = dict(
    args=(('self', 'Tensor'),),
    promotion='default',
    dtypes=None,
    wgsl='(v_self * v_self)',
)

SPECS['isnan'] = dict(
    args=(('self', 'Tensor'),),
    promotion='always_bool',
    dtypes=None,
    wgsl='pw_isnan(v_self)',
)

SPECS['isinf'] = dict(
    args=(('self', 'Tensor'),),
    promotion='always_bool',
    dtypes=None,
    wgsl='pw_isinf(v_self)',
)

SPECS['isfinite'] = dict(
    args=(('self', 'Tensor'),),
    promotion='always_bool',
    dtypes=None,
    wgsl='pw_isfinite(v_self)',
)

SPECS['signbit'] = dict(
    args=(('self', 'Tensor'),),
    promotion='always_bool',
    dtypes=None,
    wgsl='pw_signbit(v_self)',
)

SPECS['logical_not'] = dict(
    args=(('self', 'Tensor'),),
    promotion='always_bool',
    dtypes=None,
    wgsl='pw_logical_not(v_self)',
)

SPECS['bitwise_not'] = dict(
    args=(('self', 'Tensor'),),
    promotion='default',
    dtypes='integral_and_bool',
    wgsl='pw_invert(v_self)',
)

SPECS['add'] = dict(
    args=(('self', 'Tensor'), ('other', 'Tensor'), ('alpha', 'T')),
    promotion='default',
    dtypes=None,
    wgsl='select((v_self + (v_alpha * v_other)), (v_self + v_other), (v_alpha == 1))',
)

SPECS['sub'] = dict(
    args=(('self', 'Tensor'), ('other', 'Tensor'), ('alpha', 'T')),
    promotion='default',
    dtypes='numeric',
    wgsl='select((v_self - (v_alpha * v_other)), (v_self - v_other), (v_alpha == 1))',
)

SPECS['mul'] = dict(
    args=(('self', 'Tensor'), ('other', 'Tensor')),
    promotion='default',
    dtypes=None,
    wgsl='(v_self * v_other)',
)

SPECS['floor_divide'] = dict(
    args=(('self', 'Tensor'), ('other', 'Tensor')),
    promotion='default',
    dtypes=None,
    wgsl='pw_floor_divide(v_self, v_other)',
)

SPECS['pow'] = dict(
    args=(('self', 'Tensor'), ('exponent', 'Tensor')),
    promotion='default',
    dtypes='non_bool_tensor_exponent',
    wgsl='pw_pow(v_self, v_exponent)',
)

SPECS['maximum'] = dict(
    args=(('self', 'Tensor'), ('other', 'Tensor')),
    promotion='default',
    dtypes=None,
    wgsl='pw_maximum(v_self, v_other)',
)

SPECS['minimum'] = dict(
    args=(('self', 'Tensor'), ('other', 'Tensor')),
    promotion='default',
    dtypes=None,
    wgsl='pw_minimum(v_self, v_other)',
)

SPECS['fmax'] = dict(
    args=(('self', 'Tensor'), ('other', 'Tensor')),
    promotion='default',
    dtypes=None,
    wgsl='pw_fmax(v_self, v_other)',
)

SPECS['fmin'] = dict(
    args=(('self', 'Tensor'), ('other', 'Tensor')),
    promotion='default',
    dtypes=None,
    wgsl='pw_fmin(v_self, v_other)',
)

SPECS['remainder'] = dict(
    args=(('self', 'Tensor'), ('other', 'Tensor')),
    promotion='default',
    dtypes=None,
    wgsl='pw_remainder(v_self, v_other)',
)

SPECS['fmod'] = dict(
    args=(('self', 'Tensor'), ('other', 'Tensor')),
    promotion='default',
    dtypes=None,
    wgsl='pw_fmod(v_self, v_other)',
)

SPECS['atan2'] = dict(
    args=(('self', 'Tensor'), ('other', 'Tensor')),
    promotion='int_to_float',
    dtypes=None,
    wgsl='pw_atan2(v_self, v_other)',
)

SPECS['hypot'] = dict(
    args=(('self', 'Tensor'), ('other', 'Tensor')),
    promotion='default',
    dtypes='floating',
    wgsl='pw_hypot(v_self, v_other)',
)

SPECS['copysign'] = dict(
    args=(('self', 'Tensor'), ('other', 'Tensor')),
    promotion='int_to_float',
    dtypes=None,
    wgsl='pw_copysign(v_self, v_other)',
)

SPECS['xlogy'] = dict(
    args=(('self', 'Tensor'), ('other', 'Tensor')),
    promotion='int_to_float',
    dtypes=None,
    wgsl='pw_xlogy(v_self, v_other)',
)

SPECS['logaddexp'] = dict(
    args=(('self', 'Tensor'), ('other', 'Tensor')),
    promotion='int_to_float',
    dtypes='floating',
    wgsl='pw_logaddexp(v_self, v_other)',
)

SPECS['eq'] = dict(
    args=(('self', 'Tensor'), ('other', 'Tensor')),
    promotion='always_bool',
    dtypes=None,
    wgsl='(v_self == v_other)',
)

SPECS['ne'] = dict(
    args=(('self', 'Tensor'), ('other', 'Tensor')),
    promotion='always_bool',
    dtypes=None,
    wgsl='(!(v_self == v_other))',
)

SPECS['lt'] = dict(
    args=(('self', 'Tensor'), ('other', 'Tensor')),
    promotion='always_bool',
    dtypes=None,
    wgsl='(v_self < v_other)',
)

SPECS['le'] = dict(
    args=(('self', 'Tensor'), ('other', 'Tensor')),
    promotion='always_bool',
    dtypes=None,
    wgsl='(v_self <= v_other)',
)

SPECS['gt'] = dict(
    args=(('self', 'Tensor'), ('other', 'Tensor')),
    promotion='always_bool',
    dtypes=None,
    wgsl='(v_self > v_other)',
)

SPECS['ge'] = dict(
    args=(('self', 'Tensor'), ('other', 'Tensor')),
    promotion='always_bool',
    dtypes=None,
    wgsl='(v_self >= v_other)',
)

SPECS['logical_and'] = dict(
    args=(('self', 'Tensor'), ('other', 'Tensor')),
    promotion='always_bool',
    dtypes=None,
    wgsl='pw_logical_and(v_self, v_other)',
)

SPECS['logical_or'] = dict(
    args=(('self', 'Tensor'), ('other', 'Tensor')),
    promotion='always_bool',
    dtypes=None,
    wgsl='pw_logical_or(v_self, v_other)',
)

SPECS['logical_xor'] = dict(
    args=(('self', 'Tensor'), ('other', 'Tensor')),
    promotion='always_bool',
    dtypes=None,
    wgsl='pw_logical_xor(v_self, v_other)',
)

SPECS['bitwise_and'] = dict(
    args=(('self', 'Tensor'), ('other', 'Tensor')),
    promotion='default',
    dtypes='integral_and_bool',
    wgsl='(v_self & v_other)',
)

SPECS['bitwise_or'] = dict(
    args=(('self', 'Tensor'), ('other', 'Tensor')),
    promotion='default',
    dtypes='integral_and_bool',
    wgsl='(v_self | v_other)',
)

SPECS['bitwise_xor'] = dict(
    args=(('self', 'Tensor'), ('other', 'Tensor')),
    promotion='default',
    dtypes='integral_and_bool',
    wgsl='pw_xor(v_self, v_other)',
)

SPECS['bitwise_left_shift'] = dict(
    args=(('self', 'Tensor'), ('other', 'Tensor')),
    promotion='default',
    dtypes='integral',
    wgsl='pw_shl(v_self, v_other)',
)

SPECS['bitwise_right_shift'] = dict(
    args=(('self', 'Tensor'), ('other', 'Tensor')),
    promotion='default',
    dtypes='integral',
    wgsl='pw_shr(v_self, v_other)',
)

SPECS['lerp'] = dict(
    args=(('self', 'Tensor'), ('end', 'Tensor'), ('weight', 'Tensor')),
    promotion='default',
    dtypes='floating',
    wgsl='(v_self + (v_weight * (v_end - v_self)))',
)

SPECS['addcmul'] = dict(
    args=(('self', 'Tensor'), ('tensor1', 'Tensor'), ('tensor2', 'Tensor'), ('value', 'T')),
    promotion='default',
    dtypes='non_bool_result',
    wgsl='(v_self + ((v_value * v_tensor1) * v_tensor2))',
)

SPECS['addcdiv'] = dict(
    args=(('self', 'Tensor'), ('tensor1', 'Tensor'), ('tensor2', 'Tensor'), ('value', 'T')),
    promotion='default',
    dtypes='floating',
    wgsl='(v_self + ((v_value * v_tensor1) / v_tensor2))',
)

SPECS['deg2rad'] = dict(
    args=(('self', 'Tensor'),),
    promotion='int_to_float',
    dtypes=None,
    wgsl='(v_self * 0.017453292519943295)',
)

SPECS['rad2deg'] = dict(
    args=(('self', 'Tensor'),),
    promotion='int_to_float',
    dtypes=None,
    wgsl='(v_self * 57.29577951308232)',
)

SPECS['sinc'] = dict(
    args=(('self', 'Tensor'),),
    promotion='int_to_float',
    dtypes=None,
    wgsl='select((pw_sin((v_self * 3.141592653589793)) / (v_self * 3.141592653589793)), 1.0, (v_self == 0))',
)

SPECS['logaddexp2'] = dict(
    args=(('self', 'Tensor'), ('other', 'Tensor')),
    promotion='int_to_float',
    dtypes='floating',
    wgsl='select((pw_maximum(v_self, v_other) + pw_log2((1 + pw_exp2((-pw_abs((v_self - v_other))))))), (v_self + 1), (v_self == v_other))',
)
