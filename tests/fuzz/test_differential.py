"""Differential fuzz against PyTorch: volta raises a VoltaError iff torch raises, values and
dtypes match otherwise, and inputs are unchanged after an error (see ``cases.py``).

``VOLTA_FUZZ_EXAMPLES=N`` runs more cases; ``python -m tests.fuzz.run --examples N`` prints the
statistics of a run.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from tests.fuzz import run
from tests.fuzz.known_differences import KNOWN

ROOT = Path(__file__).resolve().parents[2]


def test_volta_rejects_exactly_what_pytorch_rejects(tmp_path: Path) -> None:
    # The run happens in a fresh interpreter: which cases hypothesis draws must not depend on
    # what earlier tests left behind in this process (seen: a benchmark run before it changed
    # the drawn cases), so the classes seen are those `python -m tests.fuzz.run` reports.
    examples = run.examples_from_env()
    out = tmp_path / "fuzz.json"
    env = {**os.environ, "PYTHONHASHSEED": "0"}
    proc = subprocess.run([sys.executable, "-m", "tests.fuzz.run", "--examples", str(examples),
                           "--json", str(out)], cwd=ROOT, env=env, capture_output=True,
                          text=True, timeout=1200)
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-3000:]
    result = json.loads(out.read_text())
    assert result["cases"] > examples * 0.9, "most drawn cases must be runnable"
    seen = {(op, kind): (call, detail) for op, kind, call, detail in result["classes"]}
    unknown = {key: value for key, value in seen.items() if key not in KNOWN}
    assert not unknown, (
        f"{len(unknown)} disagreement class(es) with PyTorch not in known_differences.py:\n"
        + "\n".join(f"  {op} {kind}: {call}\n      {detail.splitlines()[0] if detail else ''}"
                    for (op, kind), (call, detail) in sorted(unknown.items())))
    if examples == run.CI_EXAMPLES:  # the documented entries are those the CI run sees
        stale = sorted(key for key in KNOWN if key not in seen)
        assert not stale, ("known_differences.py entries no run case needs any more (remove "
                           f"them): {stale}")


def test_every_known_difference_has_a_reason() -> None:
    for key, reason in KNOWN.items():
        assert len(key) == 2 and isinstance(reason, str) and len(reason) > 20, key
