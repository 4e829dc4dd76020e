"""Where volta still differs from PyTorch, as the differential fuzz (``tests/fuzz``) finds it.

Keyed by ``(op, kind)`` as ``python -m tests.fuzz.run`` reports them (kinds: ``volta_accepts``,
``volta_rejects``, ``raw:<Exception>``, ``dtype``, ``value``, ``shape``, ``input_modified``);
each entry says why. The fuzz test fails on a disagreement that is not listed and, at the CI
budget, on a listed entry its run no longer sees, so fixing a difference means deleting its line.
"""

from __future__ import annotations

KNOWN: dict[tuple[str, str], str] = {
    ('lu', 'volta_rejects'): 'PyTorch factors an empty integer matrix batch (its float-only kernel never runs) and rejects a non-empty one; volta checks the dtype first',
    ('trapz', 'dtype'): "PyTorch's trapz of an empty integer y keeps y's dtype while a non-empty one promotes with x; volta promotes whatever the size",
    ('igamma', 'value'): 'bfloat16 inputs: PyTorch rounds its intermediate results to bfloat16, volta computes in float32 and rounds once (volta is the more accurate)',
    ('hinge_embedding_loss', 'volta_rejects'): "not fixed yet: torch.hinge_embedding_loss (the top-level aten binding) does not reduce by default, so an integer input never reaches the float-only mean and returns an integer loss; volta's top-level function reduces by mean like F.hinge_embedding_loss (a default that differs from PyTorch's top-level one)",
}
