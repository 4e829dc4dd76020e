"""PyTorch's own OpInfo database (op_db) as volta's conformance suite: every entry that names a
volta callable runs its sample, reference and error inputs through volta against PyTorch
(``runner.py``). An entry listed in ``expected_failures.py`` must still fail (an unexpected
pass fails, so the list only shrinks); every other resolved entry must pass."""

from __future__ import annotations

import pytest
import torch

from tests.opdb.expected_failures import EXPECTED_FAILURES
from tests.opdb.runner import Unresolved, entry_name, op_db_entries, resolve, run_entry


def _resolved() -> list:
    entries = []
    for op in op_db_entries():
        try:
            resolve(op)
        except Unresolved:
            continue
        entries.append(op)
    return entries


RESOLVED = _resolved()


def test_the_expected_failures_name_resolved_entries() -> None:
    names = {entry_name(op) for op in RESOLVED}
    assert set(EXPECTED_FAILURES) <= names, sorted(set(EXPECTED_FAILURES) - names)


@pytest.mark.parametrize("op", RESOLVED, ids=entry_name)
def test_op_db_entry(op) -> None:
    torch.manual_seed(0)
    outcome = run_entry(op)
    if outcome.entry in EXPECTED_FAILURES:
        assert outcome.status == "fail", (f"{outcome.entry} passes now: remove it from "
                                          "tests/opdb/expected_failures.py")
    else:
        assert outcome.status == "pass", outcome.reason
