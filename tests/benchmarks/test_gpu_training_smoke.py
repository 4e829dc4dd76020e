"""benchmarks/gpu_training.py runs end to end on the software adapter (numbers meaningless)."""

from __future__ import annotations

from pathlib import Path

from tests.benchmarks.scripts import run_benchmark


def test_gpu_training_benchmark_quick(tmp_path: Path) -> None:
    _, report = run_benchmark("gpu_training", tmp_path / "gpu_training.json", timeout=600)
    for case in ("overhead", "mlp", "lenet", "conv"):
        assert "error" not in report[case], report[case]
    assert report["mlp"]["volta_wgpu_steps_per_s"] > 0
