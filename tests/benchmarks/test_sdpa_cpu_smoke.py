"""Smoke run of benchmarks/sdpa_cpu.py with --quick sizes, so the script cannot rot.

No timing assertions: only that every length runs in both frameworks and the report is complete.
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
SCRIPT = ROOT / "benchmarks" / "sdpa_cpu.py"


def test_quick_run_reports_every_length(tmp_path: Path) -> None:
    out = tmp_path / "sdpa_cpu.json"
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(
        filter(None, [str(ROOT), os.environ.get("PYTHONPATH")])))
    proc = subprocess.run([sys.executable, str(SCRIPT), "--quick", "--in-process", "--out",
                           str(out)], env=env, capture_output=True, text=True, timeout=120,
                          check=False)
    assert proc.returncode == 0, proc.stderr
    assert "torch/volta" in proc.stdout

    report = json.loads(out.read_text())
    [rows] = report["timings"].values()
    assert set(rows) == {"16", "40"}
    for row in rows.values():
        assert row["torch_s"] > 0 and row["volta_s"] > 0
    for seq in ("16", "40"):
        assert report["peak_memory"][seq]["volta"]["tracemalloc_peak_bytes"] > 0
