"""Where volta still differs from PyTorch, as the differential fuzz (``tests/fuzz``) finds it.

Keyed by ``(op, kind)`` as ``python -m tests.fuzz.run`` reports them (kinds: ``volta_accepts``,
``volta_rejects``, ``raw:<Exception>``, ``dtype``, ``value``, ``shape``, ``input_modified``);
each entry says why. The fuzz test fails on a disagreement that is not listed and, at the CI
budget, on a listed entry its run no longer sees, so fixing a difference means deleting its line.
"""

from __future__ import annotations

# volta's numpy kernel computes dtypes for which PyTorch's CPU kernel raises NotImplementedError;
# narrowing an op's ``dtypes:`` in ops.yaml removes the entry
_WIDER_DTYPES = ("wider dtype support than PyTorch's CPU kernel (torch: NotImplementedError "
                 "\"... not implemented for '<dtype>'\")")
# volta takes a Python number in any Tensor argument of a pointwise op (a wrapped number);
# PyTorch only where the op has a Scalar overload, which ops.yaml does not record yet
_WRAPPED_NUMBER = ("a Python number accepted where PyTorch's signature requires a Tensor "
                   "(volta wraps numbers for every Tensor argument of a pointwise op)")

KNOWN: dict[tuple[str, str], str] = {
    ('add', 'volta_accepts'): ('not fixed yet; torch: RuntimeError: Boolean alpha only supported for Boolean results.'),
    ('addcdiv', 'volta_accepts'): _WRAPPED_NUMBER,
    ('all', 'shape'): ('not fixed yet; volta (), torch: (3,)'),
    ('binary_cross_entropy', 'volta_accepts'): ('not fixed yet; torch: RuntimeError: Found dtype Long but expected Byte'),
    ('binary_cross_entropy_with_logits', 'volta_accepts'): "a Python number accepted where PyTorch's signature requires a Tensor (volta wraps numbers for every Tensor argument of a pointwise op) (weight=True)",
    ('cat', 'volta_rejects'): ("not fixed yet; ArgumentError: cat(): The DType <class 'numpy.dtype[bfloat16]'> could not be promoted by <class 'numpy.dtypes."),
    ('elu', 'volta_accepts'): _WIDER_DTYPES,
    ('floor_divide', 'volta_accepts'): _WIDER_DTYPES,
    ('fmax', 'volta_accepts'): _WRAPPED_NUMBER,
    ('fmod_', 'volta_accepts'): ('not fixed yet; torch: RuntimeError: ZeroDivisionError'),
    ('frac', 'volta_accepts'): _WIDER_DTYPES,
    ('frac_', 'volta_accepts'): _WIDER_DTYPES,
    ('hardswish', 'volta_accepts'): _WIDER_DTYPES,
    ('hypot_', 'volta_accepts'): _WIDER_DTYPES,
    ('layer_norm', 'volta_accepts'): 'normalized_shape=[] normalises over no dims; PyTorch requires at least one (op semantics, not fixed yet)',
    ('lerp', 'volta_accepts'): "mixed input dtypes are promoted; PyTorch's lerp requires equal dtypes (op semantics, not fixed yet)",
    ('lerp_', 'volta_accepts'): ('not fixed yet; torch: RuntimeError: expected dtype double for `end` but got dtype float'),
    ('linspace', 'value'): ('not fixed yet; Tensor-likes are not close!'),
    ('log_softmax', 'volta_accepts'): _WIDER_DTYPES,
    ('logical_or', 'volta_accepts'): _WRAPPED_NUMBER,
    ('mean', 'volta_accepts'): ('not fixed yet; torch: TypeError: mean() received an invalid combination of arguments - got (Tensor, keepdim=bool), but expect'),
    ('median', 'volta_accepts'): _WIDER_DTYPES,
    ('mish', 'volta_accepts'): _WIDER_DTYPES,
    ('pad', 'volta_accepts'): ('not fixed yet; torch: NotImplementedError: Unrecognised padding mode left'),
    ('randn', 'volta_rejects'): ('not fixed yet; DTypeError: randn: expected a floating point dtype, got int32'),
    ('randperm', 'volta_accepts'): _WIDER_DTYPES,
    ('relu', 'volta_accepts'): ('not fixed yet; torch: RuntimeError: Boolean inputs not supported for relu'),
    ('round', 'volta_accepts'): _WIDER_DTYPES,
    ('round_', 'volta_rejects'): ('not fixed yet; NumericOverflowError: round(): signed integer is less than minimum'),
    ('scaled_dot_product_attention', 'volta_rejects'): ("not fixed yet; ArgumentError: scaled_dot_product_attention(): argument 'dropout_p' (position 5) must be float, not bool"),
    ('scatter_add_', 'volta_accepts'): ('not fixed yet; torch: RuntimeError: scatter(): Expected self.dtype to be equal to src.dtype'),
    ('silu', 'volta_accepts'): _WIDER_DTYPES,
    ('softplus', 'volta_accepts'): _WIDER_DTYPES,
    ('squeeze', 'volta_accepts'): ('not fixed yet; torch: RuntimeError: dim 0 appears multiple times in the list of dims'),
    ('sub_', 'volta_accepts'): "alpha=False accepted for a non-bool result; PyTorch: 'Boolean alpha only supported for Boolean results'",
    ('unfold', 'volta_accepts'): 'a size beyond int64 on a 0-d tensor is accepted (0-d tensors accept any dim: op semantics, issue 7 part 5)',
}
