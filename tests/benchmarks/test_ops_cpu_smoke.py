"""Smoke run of benchmarks/ops_cpu.py with --quick sizes, so the script cannot rot.

No timing assertions: only that every case runs in both frameworks, forward and (where the op is
differentiable) forward+backward, and that the summary is complete. It runs in a child process
(``--in-process``: one start-up) so the benchmark's global state never reaches other tests.
"""

from __future__ import annotations

import sys
from pathlib import Path

from tests.benchmarks.scripts import ROOT, run_benchmark

sys.path.insert(0, str(ROOT / "benchmarks"))
from ops_cpu import CASES  # noqa: E402


def test_quick_run_reports_every_case(tmp_path: Path) -> None:
    stdout, report = run_benchmark("ops_cpu", tmp_path / "ops_cpu.json", "--in-process",
                                   timeout=300)
    assert "geometric mean" in stdout

    [result] = report["timings"].values()
    rows = result["rows"]
    for name, (_, _, grads) in CASES.items():
        assert f"{name} fwd" in rows
        assert (f"{name} fwd+bwd" in rows) == bool(grads)
    for row in rows.values():
        assert row["torch_s"] > 0 and row["volta_s"] > 0
        assert row["ratio"] == row["volta_s"] / row["torch_s"]
    summary = result["summary"]
    assert len(summary["worst"]) == 5 and summary["geomean"] > 0
    assert summary["max"] == max(row["ratio"] for row in rows.values())
