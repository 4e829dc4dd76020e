"""Smoke run of benchmarks/train_cpu.py with --quick sizes, so the script cannot rot.

No timing assertions: only that every case runs in both frameworks and the report is complete.
It runs in a child process (``--in-process``: one start-up, the workers in it) so the
benchmark's global state (seeds, allocations, thread settings) never reaches other tests.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = ROOT / "benchmarks" / "train_cpu.py"


def test_quick_run_reports_every_case(tmp_path: Path) -> None:
    out = tmp_path / "train_cpu.json"
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(
        filter(None, [str(ROOT), os.environ.get("PYTHONPATH")])))
    proc = subprocess.run([sys.executable, str(SCRIPT), "--quick", "--in-process", "--out",
                           str(out)], env=env, capture_output=True, text=True, timeout=120,
                          check=False)
    assert proc.returncode == 0, proc.stderr
    assert "volta/torch" in proc.stdout

    report = json.loads(out.read_text())
    [rows] = report["timings"].values()
    assert set(rows) == {"mlp_sgd", "mlp_adam", "lenet", "lstm", "transformer", "conv"}
    for row in rows.values():
        assert row["torch_steps_per_s"] > 0 and row["volta_steps_per_s"] > 0
    assert report["conv_peak_memory"]["volta"]["tracemalloc_peak_bytes"] > 0
