"""Smoke run of benchmarks/plugins.py with --quick sizes, so the script cannot rot.

No timing assertions: only that the three configurations run and the report is complete,
including the fallback count. Needs volta-numba installed (``make test`` installs it).
"""

from __future__ import annotations

from pathlib import Path

from tests.benchmarks.scripts import run_benchmark


def test_quick_run_reports_numba_cpu_and_torch(tmp_path: Path) -> None:
    stdout, report = run_benchmark("plugins", tmp_path / "plugins.json", timeout=600)
    assert "volta_numba" in stdout
    rows = report["results"]
    assert set(rows) == {"torch_cpu", "volta_cpu", "volta_numba"}
    for row in rows.values():
        assert row["steps_per_s"] > 0 and row["vs_torch_cpu"] > 0
    assert isinstance(rows["volta_numba"]["fallback_calls"], int)
    assert rows["volta_cpu"]["fallback_calls"] == 0
