"""Differential fuzz against PyTorch: volta raises a VoltaError iff torch raises, values and
dtypes match otherwise, and inputs are unchanged after an error (see ``cases.py``).

``VOLTA_FUZZ_EXAMPLES=N`` runs more cases; ``python -m tests.fuzz.run --examples N`` prints the
statistics of a run.
"""

from __future__ import annotations

from tests.fuzz import run
from tests.fuzz.known_differences import KNOWN


def test_volta_rejects_exactly_what_pytorch_rejects() -> None:
    examples = run.examples_from_env()
    stats = run.fuzz(examples)
    assert stats.cases > examples * 0.9, "most drawn cases must be runnable"
    unknown = stats.unknown()
    assert not unknown, (
        f"{len(unknown)} disagreement class(es) with PyTorch not in known_differences.py:\n"
        + "\n".join(f"  {op} {kind}: {call}\n      {detail.splitlines()[0] if detail else ''}"
                    for (op, kind), (call, detail) in sorted(unknown.items())))
    if examples == run.CI_EXAMPLES:  # the documented entries are those the CI run sees
        stale = stats.stale()
        assert not stale, ("known_differences.py entries no run case needs any more (remove "
                           f"them): {stale}")


def test_every_known_difference_has_a_reason() -> None:
    for key, reason in KNOWN.items():
        assert len(key) == 2 and isinstance(reason, str) and len(reason) > 20, key
