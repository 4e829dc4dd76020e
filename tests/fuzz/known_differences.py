"""Where volta still differs from PyTorch, as the differential fuzz (``tests/fuzz``) finds it.

Keyed by ``(op, kind)`` as ``python -m tests.fuzz.run`` reports them (kinds: ``volta_accepts``,
``volta_rejects``, ``raw:<Exception>``, ``dtype``, ``value``, ``shape``, ``input_modified``);
each entry says why. The fuzz test fails on a disagreement that is not listed and, at the CI
budget, on a listed entry its run no longer sees, so fixing a difference means deleting its line.
"""

from __future__ import annotations

KNOWN: dict[tuple[str, str], str] = {
    ('addcmul', 'value'): 'not fixed yet; Tensor-likes are not equal!',
    ('addcmul', 'volta_accepts'): 'not fixed yet; torch NotImplementedError: "addcmul_cpu_out" not implemented for \'Bool\'',
    ('atleast_2d', 'volta_rejects'): 'not fixed yet; ShapeError: atleast_2d.Sequence(): expected a non-empty list of Tensors',
    ('exponential_', 'volta_rejects'): 'not fixed yet; DTypeError: "exponential_" not implemented for \'bool\'',
    ('lerp_', 'volta_accepts'): 'not fixed yet; torch: RuntimeError: expected dtype double for `end` but got dtype float',
    ('median', 'volta_rejects'): 'not fixed yet; ShapeError: median(): Expected reduction dim to be specified for input.numel() == 0.',
    ('scatter_add', 'volta_rejects'): 'not fixed yet; DTypeError: scatter_add(): Expected dtype int64 for index, got bool',
}
