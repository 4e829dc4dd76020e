"""benchmarks/gpu_training.py runs end to end on the software adapter (numbers meaningless)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_gpu_training_benchmark_quick(tmp_path: Path) -> None:
    out = tmp_path / "gpu_training.json"
    done = subprocess.run([sys.executable, "benchmarks/gpu_training.py", "--quick", "--out",
                           str(out)], capture_output=True, text=True, cwd=ROOT, timeout=600)
    assert done.returncode == 0, done.stderr
    report = json.loads(out.read_text())
    for case in ("overhead", "mlp", "lenet", "conv"):
        assert "error" not in report[case], report[case]
    assert report["mlp"]["volta_wgpu_steps_per_s"] > 0
