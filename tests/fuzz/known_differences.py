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
    ('isclose', 'volta_accepts'): 'not fixed yet; torch RuntimeError: atol must be greater than or equal to zero, but got nan',
    ('lerp', 'volta_accepts'): "mixed input dtypes are promoted; PyTorch's lerp requires equal dtypes (op semantics, not fixed yet)",
    ('lerp_', 'volta_accepts'): ('not fixed yet; torch: RuntimeError: expected dtype double for `end` but got dtype float'),
    ('logical_and_', 'volta_accepts'): _WRAPPED_NUMBER,
    ('logspace', 'volta_accepts'): 'not fixed yet; torch RuntimeError: value cannot be converted to type float without overflow',
    ('tensor', 'volta_rejects'): 'not fixed yet; NumericOverflowError: value cannot be converted to type int64_t without overflow',
    # seen since the WGPU backend registers as an internal plugin: the run draws other cases
    # (the draws shift with the registered plugins), not a change of CPU semantics
    ('leaky_relu', 'volta_accepts'): 'not fixed yet; torch NotImplementedError: "leaky_relu_cpu" not implemented for "Short"',
    ('median', 'volta_rejects'): 'not fixed yet; ShapeError: median(): Expected reduction dim to be specified for input.numel() == 0.',
    ('round_', 'volta_accepts'): 'not fixed yet; torch NotImplementedError: "round_cpu" not implemented for "Short"',
    ('silu', 'volta_accepts'): 'not fixed yet; torch NotImplementedError: "silu_cpu" not implemented for "Bool"',
    ('abs_', 'volta_accepts'): 'not fixed yet; torch NotImplementedError: "abs_cpu" not implemented for "Bool"',
    ('adaptive_avg_pool1d', 'volta_accepts'): 'not fixed yet; torch NotImplementedError: "adaptive_avg_pool2d" not implemented for "Short"',
    ('adaptive_max_pool2d', 'volta_accepts'): 'not fixed yet; torch RuntimeError: adaptive_max_pool2d(): internal error: output_size.size() must be 2',
    ('addcdiv', 'volta_accepts'): 'not fixed yet; torch TypeError: addcdiv(): argument "tensor1" (position 2) must be Tensor, not float',
    ('allclose', 'volta_accepts'): 'not fixed yet; torch RuntimeError: rtol must be greater than or equal to zero, but got nan',
    ('bernoulli', 'volta_accepts'): 'not fixed yet; torch TypeError: bernoulli() received an invalid combination of arguments - got (Tensor, p=NoneType), but expected one o',
    ('ceil_', 'volta_accepts'): 'not fixed yet; torch NotImplementedError: "ceil_vml_cpu" not implemented for "Bool"',
    ('floor', 'volta_accepts'): 'not fixed yet; torch NotImplementedError: "floor_vml_cpu" not implemented for "Bool"',
    ('logical_or', 'volta_accepts'): 'not fixed yet; torch TypeError: logical_or(): argument "other" (position 2) must be Tensor, not int',
    ('logical_xor', 'volta_accepts'): 'not fixed yet; torch TypeError: logical_xor(): argument "input" (position 1) must be Tensor, not float',
    ('mean', 'volta_accepts'): 'not fixed yet; torch TypeError: mean() received an invalid combination of arguments - got (Tensor, dtype=NoneType, keepdim=bool), but e',
    ('minimum', 'volta_accepts'): 'not fixed yet; torch TypeError: minimum(): argument "other" (position 2) must be Tensor, not float',
    ('norm', 'volta_accepts'): 'not fixed yet; torch RuntimeError: linalg.vector_norm: the dtype of the input (BFloat16) should be convertible without narrowing to the',
    ('normal_', 'volta_rejects'): 'not fixed yet; DTypeError: "normal_" not implemented for int8',
    ('pad', 'volta_rejects'): 'not fixed yet; ArgumentError: pad(): `pad_width` must be of integral type.',
    ('pairwise_distance', 'volta_accepts'): 'not fixed yet; torch TypeError: pairwise_distance(): argument "x2" (position 2) must be Tensor, not bool',
    ('pairwise_distance', 'volta_rejects'): 'not fixed yet; ArgumentError: pairwise_distance(): argument "eps" (position 4) must be float, not bool',
    ('randint_like', 'volta_accepts'): 'not fixed yet; torch RuntimeError: from is out of bounds for bool',
    ('randn', 'volta_rejects'): 'not fixed yet; DTypeError: randn: expected a floating point dtype, got int64',
    ('round', 'volta_accepts'): 'not fixed yet; torch NotImplementedError: "round_cpu" not implemented for "Int"',
    ('selu', 'volta_accepts'): 'not fixed yet; torch NotImplementedError: "elu_cpu" not implemented for "Long"',
    ('unfold', 'volta_accepts'): 'not fixed yet; torch RuntimeError: size is -1099511627776 but must be >= 0',
    ('xlogy', 'value'): 'not fixed yet; Tensor-likes are not close!',
}
