"""Runs a benchmark script in a child process, as the smoke tests do: the benchmark's global
state (seeds, allocations, thread settings, a GPU device) never reaches other tests."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]


def run_benchmark(name: str, out: Path, *args: str, timeout: int = 120) -> tuple[str, Any]:
    """``benchmarks/<name>.py --quick --out OUT *args``: its stdout and the JSON it wrote."""
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(
        filter(None, [str(ROOT), os.environ.get("PYTHONPATH")])))
    env.pop("OUT", None)  # the lent GPU machine's output folder: never written from tests
    env.setdefault("XDG_RUNTIME_DIR", "/tmp")
    proc = subprocess.run([sys.executable, str(ROOT / "benchmarks" / f"{name}.py"), "--quick",
                           "--out", str(out), *args], env=env, capture_output=True, text=True,
                          timeout=timeout, check=False)
    assert proc.returncode == 0, proc.stderr
    return proc.stdout, json.loads(out.read_text())
