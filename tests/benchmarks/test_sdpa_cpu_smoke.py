"""Smoke run of benchmarks/sdpa_cpu.py with --quick sizes, so the script cannot rot.

No timing assertions: only that every length runs in both frameworks and the report is complete.
It runs in a child process (``--in-process``: one start-up, the workers in it) so the
benchmark's global state (seeds, allocations, thread settings) never reaches other tests.
"""

from __future__ import annotations

from pathlib import Path

from tests.benchmarks.scripts import run_benchmark


def test_quick_run_reports_every_length(tmp_path: Path) -> None:
    stdout, report = run_benchmark("sdpa_cpu", tmp_path / "sdpa_cpu.json", "--in-process")
    assert "torch/volta" in stdout

    [rows] = report["timings"].values()
    assert set(rows) == {"16", "40"}
    for row in rows.values():
        assert row["torch_s"] > 0 and row["volta_s"] > 0
    for seq in ("16", "40"):
        assert report["peak_memory"][seq]["volta"]["tracemalloc_peak_bytes"] > 0
