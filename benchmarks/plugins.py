"""The MLP training step on the numba plugin's device vs volta's CPU vs PyTorch CPU (issue 11).

One step: ``zero_grad`` + forward + cross-entropy + backward + SGD (momentum 0.9) of the MLP
784-1024-1024-10 (ReLU) on a batch of 256, in one process, same threads for all three (numba's
pool and the BLAS that numpy, numba and PyTorch call all read the machine's defaults). Warm-up
steps first (numba compiles its kernels on the first call, or loads them from its cache); then
the median over timed steps. Reported per device: seconds per step, steps/s, the ratio to
PyTorch and to volta's CPU backend (> 1: faster), and the ops that ran through volta's CPU
fallback during one step, with counts.

    python benchmarks/plugins.py [--quick] [--steps N] [--out PATH]

writes benchmarks/results/plugins.json unless ``--out`` says otherwise. Needs volta-numba
installed (``pip install -e plugins/volta-numba``).
"""

from __future__ import annotations

import argparse
import json
import platform
import sys
import warnings
from collections.abc import Callable
from pathlib import Path
from typing import Any

from train_cpu import median_seconds  # the same warm-up-then-median timing as train_cpu.py

RESULTS = Path(__file__).resolve().parent / "results" / "plugins.json"


def mlp_step(lib: Any, device: str, batch: int, width: int) -> Callable[[], None]:
    lib.manual_seed(0)
    nn = lib.nn
    model = nn.Sequential(nn.Linear(784, width), nn.ReLU(), nn.Linear(width, width), nn.ReLU(),
                          nn.Linear(width, 10)).to(device)
    optimizer = lib.optim.SGD(model.parameters(), lr=0.01, momentum=0.9)
    x = lib.randn(batch, 784).to(device)
    y = lib.randint(0, 10, (batch,)).to(device)
    loss_fn = nn.CrossEntropyLoss()

    def step() -> None:
        optimizer.zero_grad(set_to_none=True)
        loss_fn(model(x), y).backward()
        optimizer.step()

    return step


def fallbacks_of_one_step(volta: Any, step: Callable[[], None]) -> dict[str, int]:
    before = volta.dispatch.cpu_fallback_counts()
    step()
    after = volta.dispatch.cpu_fallback_counts()
    return {op: n - before.get(op, 0) for op, n in sorted(after.items())
            if n != before.get(op, 0)}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="tiny sizes, for the smoke test")
    parser.add_argument("--steps", type=int, default=None, help="timed steps (default 20)")
    parser.add_argument("--out", type=Path, default=RESULTS)
    args = parser.parse_args(argv)

    import numba
    import torch

    import volta

    if "numba" not in volta.backend.BACKENDS.names():
        print("volta-numba is not installed: pip install -e plugins/volta-numba", file=sys.stderr)
        return 2
    batch, width = (16, 32) if args.quick else (256, 1024)
    warmup, steps = (1, 2) if args.quick else (3, args.steps or 20)
    warnings.simplefilter("ignore")  # the CPU fallback's once-per-op warnings

    timings: dict[str, float] = {}
    fallbacks: dict[str, dict[str, int]] = {}
    for name, lib, device in (("torch_cpu", torch, "cpu"), ("volta_cpu", volta, "cpu"),
                              ("volta_numba", volta, "numba")):
        step = mlp_step(lib, device, batch, width)
        timings[name] = median_seconds(step, warmup, steps)
        if lib is volta:
            fallbacks[name] = fallbacks_of_one_step(volta, step)

    rows = {}
    for name, seconds in timings.items():
        rows[name] = {"seconds_per_step": seconds, "steps_per_s": 1 / seconds,
                      "vs_torch_cpu": timings["torch_cpu"] / seconds,
                      "vs_volta_cpu": timings["volta_cpu"] / seconds}
        if name in fallbacks:
            rows[name]["fallback_ops"] = fallbacks[name]
            rows[name]["fallback_calls"] = sum(fallbacks[name].values())
    report = {
        "case": f"MLP 784-{width}-{width}-10, batch {batch}, SGD momentum 0.9, one training step",
        "warmup": warmup, "steps": steps, "statistic": "median",
        "machine": {"python": platform.python_version(), "machine": platform.machine(),
                    "numba": numba.__version__, "numba_threads": numba.config.NUMBA_NUM_THREADS,
                    "torch": torch.__version__, "torch_threads": torch.get_num_threads()},
        "results": rows,
    }
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(report, indent=2) + "\n")
    print(report["case"])
    for name, row in rows.items():
        fell_back = (f"  fallback: {row['fallback_calls']} calls "
                     f"({', '.join(row['fallback_ops']) or 'none'})" if name in fallbacks else "")
        print(f"{name:12s} {row['seconds_per_step'] * 1000:9.1f} ms/step  "
              f"x{row['vs_torch_cpu']:.2f} vs torch  x{row['vs_volta_cpu']:.2f} vs volta cpu"
              f"{fell_back}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
