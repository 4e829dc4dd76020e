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
    ('dropout', 'volta_accepts'): 'not fixed yet; torch TypeError: dropout() missing 1 required positional arguments: "train" (torch.dropout has no default for train)',
    ('isclose', 'volta_accepts'): 'not fixed yet; torch RuntimeError: atol must be greater than or equal to zero, but got nan',
    ('lerp', 'volta_accepts'): "mixed input dtypes are promoted; PyTorch's lerp requires equal dtypes (op semantics, not fixed yet)",
    ('lerp_', 'volta_accepts'): ('not fixed yet; torch: RuntimeError: expected dtype double for `end` but got dtype float'),
    ('logaddexp', 'volta_accepts'): _WRAPPED_NUMBER,
    ('logical_and_', 'volta_accepts'): _WRAPPED_NUMBER,
    ('logspace', 'volta_accepts'): 'not fixed yet; torch RuntimeError: value cannot be converted to type float without overflow',
    ('std_mean', 'value'): 'not fixed yet; correction=nan gives other values than PyTorch',
    ('tensor', 'volta_rejects'): 'not fixed yet; NumericOverflowError: value cannot be converted to type int64_t without overflow',
    # seen since the WGPU backend registers as an internal plugin: the run draws other cases
    # (the draws shift with the registered plugins), not a change of CPU semantics
    ('addcmul', 'volta_accepts'): _WRAPPED_NUMBER,
    ('dist', 'volta_accepts'): _WRAPPED_NUMBER,
    ('atan2', 'volta_accepts'): 'not fixed yet; torch TypeError: atan2(): argument "other" (position 2) must be Tensor, not int',
    ('index_add_', 'volta_accepts'): 'not fixed yet; torch RuntimeError: index_add_(): self (BFloat16) and source (Half) must have the same scalar type',
    ('isclose', 'volta_rejects'): 'not fixed yet; ArgumentError: isclose(): argument "atol" (position 4) must be float, not bool',
    ('leaky_relu', 'volta_accepts'): 'not fixed yet; torch NotImplementedError: "leaky_relu_cpu" not implemented for "Short"',
    ('median', 'volta_accepts'): 'not fixed yet; torch NotImplementedError: "median_out" not implemented for "Bool"',
    ('median', 'volta_rejects'): 'not fixed yet; ShapeError: median(): Expected reduction dim to be specified for input.numel() == 0.',
    ('round_', 'volta_accepts'): 'not fixed yet; torch NotImplementedError: "round_cpu" not implemented for "Short"',
    ('silu', 'volta_accepts'): 'not fixed yet; torch NotImplementedError: "silu_cpu" not implemented for "Bool"',
    ('smooth_l1_loss', 'volta_accepts'): 'not fixed yet; torch NotImplementedError: "smooth_l1_cpu" not implemented for "Long"',
    ('split', 'volta_accepts'): 'not fixed yet; torch ValueError: Overflow when unpacking long long',
}
