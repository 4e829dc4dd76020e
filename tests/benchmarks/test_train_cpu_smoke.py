"""Smoke run of benchmarks/train_cpu.py with --quick sizes, so the script cannot rot.

No timing assertions: only that every case runs in both frameworks and the report is complete.
It runs in a child process (``--in-process``: one start-up, the workers in it) so the
benchmark's global state (seeds, allocations, thread settings) never reaches other tests.
"""

from __future__ import annotations

from pathlib import Path

from tests.benchmarks.scripts import run_benchmark


def test_quick_run_reports_every_case(tmp_path: Path) -> None:
    stdout, report = run_benchmark("train_cpu", tmp_path / "train_cpu.json", "--in-process")
    assert "volta/torch" in stdout

    [rows] = report["timings"].values()
    assert set(rows) == {"mlp_sgd", "mlp_adam", "lenet", "lstm", "transformer", "conv"}
    for row in rows.values():
        assert row["torch_steps_per_s"] > 0 and row["volta_steps_per_s"] > 0
    assert report["conv_peak_memory"]["volta"]["tracemalloc_peak_bytes"] > 0
