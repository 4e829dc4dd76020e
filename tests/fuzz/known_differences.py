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
    ('addcdiv', 'volta_accepts'): _WRAPPED_NUMBER,
    ('argsort', 'volta_accepts'): 'not fixed yet; torch TypeError: argsort() takes from 2 to 1 positional arguments but 2 were given',
    ('atan2_', 'volta_accepts'): _WRAPPED_NUMBER,
    ('fmax', 'volta_accepts'): _WRAPPED_NUMBER,
    ('lerp', 'volta_accepts'): "mixed input dtypes are promoted; PyTorch's lerp requires equal dtypes (op semantics, not fixed yet)",
    ('lerp_', 'volta_accepts'): ('not fixed yet; torch: RuntimeError: expected dtype double for `end` but got dtype float'),
    ('logical_and_', 'volta_accepts'): _WRAPPED_NUMBER,
    ('logspace', 'volta_accepts'): 'not fixed yet; torch RuntimeError: value cannot be converted to type float without overflow',
    ('mean', 'volta_accepts'): ('not fixed yet; torch: TypeError: mean() received an invalid combination of arguments - got (Tensor, keepdim=bool), but expect'),
    ('minimum', 'volta_accepts'): _WRAPPED_NUMBER,
    ('norm', 'volta_accepts'): 'not fixed yet; torch RuntimeError: linalg.vector_norm: the dtype of the input (BFloat16) should be convertible without narrow',
    ('normal_', 'volta_rejects'): 'not fixed yet; DTypeError: "normal_" not implemented for int8',
    ('round_', 'volta_rejects'): ('not fixed yet; NumericOverflowError: round(): signed integer is less than minimum'),
    ('tensor', 'volta_rejects'): 'not fixed yet; NumericOverflowError: value cannot be converted to type int64_t without overflow',
    ('unfold', 'volta_accepts'): 'a size beyond int64 on a 0-d tensor is accepted (0-d tensors accept any dim: op semantics, issue 7 part 5)',
}
