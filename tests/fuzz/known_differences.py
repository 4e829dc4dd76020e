"""Where volta still differs from PyTorch, as the differential fuzz (``tests/fuzz``) finds it.

Keyed by ``(op, kind)`` as ``python -m tests.fuzz.run`` reports them (kinds: ``volta_accepts``,
``volta_rejects``, ``raw:<Exception>``, ``dtype``, ``value``, ``shape``, ``input_modified``);
each entry says why. The fuzz test fails on a disagreement that is not listed and, at the CI
budget, on a listed entry its run no longer sees, so fixing a difference means deleting its line.
"""

from __future__ import annotations

KNOWN: dict[tuple[str, str], str] = {
    ('scaled_dot_product_attention', 'volta_rejects'): 'PyTorch runs integer or bool query, key and value when the attention is empty (its float-only kernels never run; bool even gives int64) and rejects them otherwise; volta checks the dtypes first',
}
