"""Where volta deliberately differs from PyTorch, found by the differential fuzz.

Keyed by ``(op, kind)`` as ``tests/fuzz/run.py`` reports them; each entry says why. The fuzz
test fails on a disagreement missing here and on an entry its run no longer sees (stale).
"""

from __future__ import annotations

KNOWN: dict[tuple[str, str], str] = {
}
