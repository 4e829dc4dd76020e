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
    ('argsort', 'volta_accepts'): 'not fixed yet; torch TypeError: argsort() takes from 2 to 1 positional arguments but 2 were given',
    ('atan2_', 'volta_accepts'): _WRAPPED_NUMBER,
    ('binary_cross_entropy_with_logits', 'volta_accepts'): 'not fixed yet; torch TypeError: binary_cross_entropy_with_logits(): argument \'weight\' (position 3) must be Tensor, not bool',
    ('dropout', 'volta_accepts'): 'not fixed yet; torch TypeError: dropout() missing 1 required positional arguments: "train" (torch.dropout has no default for train)',
    ('isclose', 'volta_accepts'): 'not fixed yet; torch RuntimeError: atol must be greater than or equal to zero, but got nan',
    ('lerp', 'volta_accepts'): "mixed input dtypes are promoted; PyTorch's lerp requires equal dtypes (op semantics, not fixed yet)",
    ('lerp_', 'volta_accepts'): ('not fixed yet; torch: RuntimeError: expected dtype double for `end` but got dtype float'),
    ('logaddexp', 'volta_accepts'): _WRAPPED_NUMBER,
    ('logical_and_', 'volta_accepts'): _WRAPPED_NUMBER,
    ('logspace', 'volta_accepts'): 'not fixed yet; torch RuntimeError: value cannot be converted to type float without overflow',
    ('minimum', 'volta_accepts'): _WRAPPED_NUMBER,
    ('mean', 'volta_accepts'): ('not fixed yet; torch: TypeError: mean() received an invalid combination of arguments - got (Tensor, keepdim=bool), but expect'),
    ('native_layer_norm', 'volta_accepts'): 'not fixed yet; torch RuntimeError: mixed dtype (CPU): expect parameter to have scalar type of Float',
    ('norm', 'volta_accepts'): 'not fixed yet; torch RuntimeError: linalg.vector_norm: the dtype of the input (BFloat16) should be convertible without narrow',
    ('normal_', 'volta_rejects'): 'not fixed yet; DTypeError: "normal_" not implemented for int8',
    ('round_', 'volta_rejects'): ('not fixed yet; NumericOverflowError: round(): signed integer is less than minimum'),
    ('std_mean', 'value'): 'not fixed yet; correction=nan gives other values than PyTorch',
    ('tensor', 'volta_rejects'): 'not fixed yet; NumericOverflowError: value cannot be converted to type int64_t without overflow',
    # seen since the WGPU backend registers as an internal plugin: the run draws other cases
    # (the draws shift with the registered plugins), not a change of CPU semantics
    ('addcmul', 'volta_accepts'): _WRAPPED_NUMBER,
    ('logaddexp', 'volta_accepts'): _WRAPPED_NUMBER,
    ('logical_or', 'volta_accepts'): _WRAPPED_NUMBER,
    ('logical_or_', 'volta_accepts'): _WRAPPED_NUMBER,
    ('dist', 'volta_accepts'): _WRAPPED_NUMBER,
    ('floor', 'volta_accepts'): _WIDER_DTYPES,
    ('dropout', 'volta_accepts'): 'not fixed yet; torch.dropout requires `train` (volta takes nn.functional.dropout\'s signature)',
    ('adaptive_max_pool2d', 'volta_accepts'): 'not fixed yet; torch RuntimeError: adaptive_max_pool2d(): internal error: output_size.size() must be 2',
    ('isclose', 'volta_accepts'): 'not fixed yet; torch RuntimeError: atol must be greater than or equal to zero, but got nan',
    ('native_layer_norm', 'volta_accepts'): 'not fixed yet; torch RuntimeError: Expected normalized_shape to be at least 1-dimensional',
}
