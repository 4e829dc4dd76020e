"""Smoke run of benchmarks/gpu.py with --quick sizes on the local (software) adapter, so the
script cannot rot before it meets the lent GPU. No timing assertions: every case must run,
give correct results and land in the report. A child process keeps its device to itself."""

from __future__ import annotations

from pathlib import Path

from tests.benchmarks.scripts import run_benchmark
from volta.backends.wgpu.kernels import matmul as mm


def test_quick_run_reports_every_case(tmp_path: Path) -> None:
    stdout, report = run_benchmark("gpu", tmp_path / "gpu.json", timeout=600)
    assert "conv2d" in stdout and "TFLOP/s" in stdout

    [row] = report["matmul"]
    assert set(row["configs"]) == {c.name for c in mm.CANDIDATES}
    assert row["tuned"] in row["configs"]
    for entry in row["configs"].values():
        assert entry["seconds"] > 0 and entry["max_rel_error"] < 1e-4
    assert set(report["conv"]["passes"]) == {"forward", "grad_input", "grad_weight"}
    assert report["conv"]["volta_seconds"] > 0
