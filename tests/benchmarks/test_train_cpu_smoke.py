"""Smoke run of benchmarks/train_cpu.py with --quick sizes, so the script cannot rot.

No timing assertions: only that every case runs in both frameworks and the report is complete.
The workers run in this process (the script normally starts one process per thread count);
``--quick`` keeps the sizes tiny and the thread count is left as it is.
"""

from __future__ import annotations

import importlib.util
import json
import sys
from pathlib import Path
from typing import Any

import torch

SCRIPT = Path(__file__).resolve().parents[2] / "benchmarks" / "train_cpu.py"


def load_script() -> Any:
    spec = importlib.util.spec_from_file_location("train_cpu_bench", SCRIPT)
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


def test_quick_run_reports_every_case(tmp_path: Path, capsys: Any) -> None:
    bench = load_script()
    threads = torch.get_num_threads()

    def in_process(worker: str, arg: str, n: int, quick: bool) -> dict[str, Any]:
        assert quick
        if worker == "timing":
            return bench.timing_worker(int(arg), quick)
        return bench.memory_worker(arg, quick)

    out = tmp_path / "train_cpu.json"
    report = bench.main(True, [threads], out, runner=in_process)
    bench.print_report(report, out)

    assert json.loads(out.read_text()) == report
    rows = report["timings"][str(threads)]
    assert set(rows) == {"mlp_sgd", "mlp_adam", "lenet", "conv"}
    for row in rows.values():
        assert row["torch_steps_per_s"] > 0 and row["volta_steps_per_s"] > 0
    memory = report["conv_peak_memory"]
    assert memory["volta"]["tracemalloc_peak_bytes"] > 0
    assert "volta/torch" in capsys.readouterr().out
