"""Smoke run of benchmarks/gpu.py with --quick sizes on the local (software) adapter, so the
script cannot rot before it meets the lent GPU. No timing assertions: every case must run,
give correct results and land in the report. A child process keeps its device to itself."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from volta.backends.wgpu.kernels import matmul as mm

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = ROOT / "benchmarks" / "gpu.py"


def test_quick_run_reports_every_case(tmp_path: Path) -> None:
    out = tmp_path / "gpu.json"
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(
        filter(None, [str(ROOT), os.environ.get("PYTHONPATH")])))
    env.pop("OUT", None)
    env.setdefault("XDG_RUNTIME_DIR", "/tmp")
    proc = subprocess.run([sys.executable, str(SCRIPT), "--quick", "--out", str(out)], env=env,
                          capture_output=True, text=True, timeout=600, check=False)
    assert proc.returncode == 0, proc.stderr
    assert "conv2d" in proc.stdout and "TFLOP/s" in proc.stdout

    report = json.loads(out.read_text())
    [row] = report["matmul"]
    assert set(row["configs"]) == {c.name for c in mm.CANDIDATES}
    assert row["tuned"] in row["configs"]
    for entry in row["configs"].values():
        assert entry["seconds"] > 0 and entry["max_rel_error"] < 1e-4
    assert set(report["conv"]["passes"]) == {"forward", "grad_input", "grad_weight"}
    assert report["conv"]["volta_seconds"] > 0
