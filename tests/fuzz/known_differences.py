"""Where volta still differs from PyTorch, as the differential fuzz (``tests/fuzz``) finds it.

Keyed by ``(op, kind)`` as ``python -m tests.fuzz.run`` reports them (kinds: ``volta_accepts``,
``volta_rejects``, ``raw:<Exception>``, ``dtype``, ``value``, ``shape``, ``input_modified``);
each entry says why. The fuzz test fails on a disagreement that is not listed and, at the CI
budget, on a listed entry its run no longer sees, so fixing a difference means deleting its line.
"""

from __future__ import annotations

KNOWN: dict[tuple[str, str], str] = {
    ('abs_', 'volta_accepts'): 'not fixed yet; torch NotImplementedError: "abs_cpu" not implemented for "Bool"',
    ('adaptive_avg_pool3d', 'volta_accepts'): 'not fixed yet; torch NotImplementedError: "adaptive_avg_pool3d_cpu" not implemented for \'Byte\'',
    ('addcmul_', 'value'): 'not fixed yet; Tensor-likes are not equal!',
    ('addcmul_', 'volta_accepts'): 'not fixed yet; torch NotImplementedError: "addcmul_cpu_out" not implemented for \'Bool\'',
    ('all', 'shape'): 'not fixed yet; volta (), torch (3, 2)',
    ('dropout', 'volta_accepts'): 'not fixed yet; torch TypeError: dropout() missing 2 required positional argument: "p", "train"',
    ('exponential_', 'volta_rejects'): 'not fixed yet; DTypeError: "exponential_" not implemented for \'bool\'',
    ('full_like', 'volta_accepts'): 'not fixed yet; torch RuntimeError: value cannot be converted to type int64_t without overflow',
    ('kl_div', 'volta_accepts'): 'not fixed yet; torch RuntimeError: kl_div: Integral inputs not supported.',
    ('kthvalue', 'value'): 'not fixed yet; Tensor-likes are not equal!',
    ('lerp_', 'volta_accepts'): 'not fixed yet; torch: RuntimeError: expected dtype double for `end` but got dtype float',
    ('linspace', 'volta_accepts'): 'not fixed yet; torch RuntimeError: value cannot be converted to type uint8_t without overflow',
    ('median', 'volta_rejects'): 'not fixed yet; ShapeError: median(): Expected reduction dim to be specified for input.numel() == 0.',
    ('mvlgamma', 'volta_rejects'): 'not fixed yet; DTypeError: mvlgamma: expected a floating point input',
    ('rrelu', 'volta_accepts'): 'not fixed yet; torch RuntimeError: rrelu: upper bound must be finite, got inf',
    ('scatter_add_', 'volta_accepts'): 'not fixed yet; torch RuntimeError: index -4 is out of bounds for dimension 0 with size 4',
    ('selu', 'volta_accepts'): 'not fixed yet; torch NotImplementedError: "elu_cpu" not implemented for "Long"',
    ('soft_margin_loss', 'volta_accepts'): "not fixed yet; torch RuntimeError: result type Float can't be cast to the desired output type Byte",
    ('sum', 'volta_accepts'): 'not fixed yet; torch TypeError: sum() received an invalid combination of arguments - got (Tensor, keepdim=bool), but expected one of:\n * (Tensor ',
}
