"""Scaled dot-product attention on CPU: volta's blocked kernel vs PyTorch's CPU SDPA.

Cases (issue 12's Benchmark section): self-attention without mask, head dim 64, at sequence
lengths 128, 512, 1024, 2048 and 4096 (batch x heads: 2 x 8, 2 x 8, 2 x 4, 1 x 4, 1 x 4), one
step = ``scaled_dot_product_attention(q, k, v).sum().backward()`` (forward + q/k/v gradients),
float32.

Time: both frameworks run in the same process, with the same inputs' shapes and threads, steps
alternating between volta and PyTorch so machine load hits both alike; after warm-up steps the
median seconds per step is reported, and ``ratio`` = PyTorch time / volta time (> 1 means volta
is faster).

Threads: volta computes with numpy, whose BLAS (OpenBLAS) reads its thread count from the
environment when it is loaded. So each thread count runs in a child process of this script
started with ``OPENBLAS_NUM_THREADS``, ``OMP_NUM_THREADS`` and ``MKL_NUM_THREADS`` set to it; the
child also calls ``torch.set_num_threads(n)`` (the approach of benchmarks/train_cpu.py).

Peak memory of one step: each (framework, length) runs in a fresh child process, so neither
framework sees the other's heap, and reports the peak resident set size (``ru_maxrss``) minus the
resident size just before the step, after its inputs exist: the one method that sees both
numpy's and PyTorch's allocators. For volta the ``tracemalloc`` peak of the step (numpy registers
its allocations with it) is reported as well; it counts only array memory, so it is the sharper
figure. ``naive_scores_bytes`` is one float32 L x S score matrix per (batch, head): what an
attention that materialises the scores would hold at least.

    python benchmarks/sdpa_cpu.py [--quick] [--threads 1 2] [--out PATH] [--in-process]

writes benchmarks/results/sdpa_cpu.json unless ``--out`` says otherwise.
"""

from __future__ import annotations

import argparse
import json
import statistics
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from train_cpu import (  # run as a script: benchmarks/ is on sys.path
    machine_info,
    peak_memory,
    run_script,
    write_report,
)

RESULTS = Path(__file__).resolve().parent / "results" / "sdpa_cpu.json"
HEAD_DIM = 64


def cases(quick: bool) -> dict[int, dict[str, int]]:
    """Sequence length -> batch, heads, head dim, warm-up and timed steps."""
    if quick:
        return {n: {"batch": 1, "heads": 2, "dim": 8, "warmup": 1, "steps": 2} for n in (16, 40)}
    shapes = {128: (2, 8, 10), 512: (2, 8, 6), 1024: (2, 4, 4), 2048: (1, 4, 3), 4096: (1, 4, 3)}
    return {n: {"batch": b, "heads": h, "dim": HEAD_DIM, "warmup": 1, "steps": s}
            for n, (b, h, s) in shapes.items()}


def inputs(lib: Any, seq: int, cfg: dict[str, int]) -> list[Any]:
    lib.manual_seed(0)
    shape = (cfg["batch"], cfg["heads"], seq, cfg["dim"])
    return [lib.randn(*shape, requires_grad=True) for _ in range(3)]


def attention_step(lib: Any, q: Any, k: Any, v: Any) -> Callable[[], None]:
    def step() -> None:
        q.grad = k.grad = v.grad = None
        lib.nn.functional.scaled_dot_product_attention(q, k, v).sum().backward()

    return step


def alternating_medians(steps: dict[str, Callable[[], None]], warmup: int,
                        count: int) -> dict[str, float]:
    """Median seconds per step of each callable, their steps interleaved."""
    for _ in range(warmup):
        for step in steps.values():
            step()
    samples: dict[str, list[float]] = {name: [] for name in steps}
    for _ in range(count):
        for name, step in steps.items():
            start = time.perf_counter()
            step()
            samples[name].append(time.perf_counter() - start)
    return {name: statistics.median(s) for name, s in samples.items()}


def timing_worker(threads: int, quick: bool) -> dict[str, Any]:
    """Child process: time every length in both frameworks (environment already set)."""
    import torch

    import volta

    torch.set_num_threads(threads)
    out: dict[str, Any] = {}
    for seq, cfg in cases(quick).items():
        steps = {label: attention_step(lib, *inputs(lib, seq, cfg))
                 for label, lib in (("torch", torch), ("volta", volta))}
        medians = alternating_medians(steps, cfg["warmup"], cfg["steps"])
        out[str(seq)] = {"torch_s": medians["torch"], "volta_s": medians["volta"],
                         "ratio": medians["torch"] / medians["volta"]}
    return out


def memory_worker(framework: str, seq: int, quick: bool) -> dict[str, Any]:
    """Child process: peak memory of one forward + backward in one framework."""
    import torch

    import volta

    lib = volta if framework == "volta" else torch
    step = attention_step(lib, *inputs(lib, seq, cases(quick)[seq]))
    return peak_memory(step, trace=framework == "volta")


Runner = Callable[[str, list[str], int, bool], dict[str, Any]]


def run_child(worker: str, args: list[str], threads: int, quick: bool) -> dict[str, Any]:
    """Run ``--timing-worker`` or ``--memory-worker`` in a fresh process with ``threads``."""
    return run_script(__file__, [f"--{worker}-worker", *args] + ["--quick"] * quick, threads)


def run_here(worker: str, args: list[str], threads: int, quick: bool) -> dict[str, Any]:
    """Run a worker in this process, threads left as they are (``--in-process`` smoke runs)."""
    if worker == "timing":
        return timing_worker(threads, quick)
    return memory_worker(args[0], int(args[1]), quick)


def main(quick: bool, thread_counts: list[int], out_path: Path,
         runner: Runner = run_child) -> dict[str, Any]:
    """Time every thread count and measure memory per length, each through ``runner``."""
    timings = {str(n): runner("timing", [str(n)], n, quick) for n in thread_counts}
    memory: dict[str, Any] = {}
    for seq, cfg in cases(quick).items():
        row = {fw: runner("memory", [fw, str(seq)], 1, quick) for fw in ("torch", "volta")}
        row["naive_scores_bytes"] = cfg["batch"] * cfg["heads"] * seq * seq * 4
        memory[str(seq)] = row
    report = {
        "quick": quick,
        "cases": {str(k): v for k, v in cases(quick).items()},
        "machine": machine_info(),
        "ratio": "torch seconds per step / volta seconds per step (higher is better for volta)",
        "timings": timings,
        "peak_memory": {**memory, "method": "peak RSS (ru_maxrss) minus RSS before the step, "
                        "each (framework, length) in a fresh process; volta also tracemalloc"},
    }
    return write_report(report, out_path)


def print_report(report: dict[str, Any], out_path: Path) -> None:
    mib = 2**20
    print(f"{'seq':>5} {'B x H':>6} {'threads':>7} {'torch ms':>9} {'volta ms':>9} "
          f"{'torch/volta':>11}")
    for threads, rows in report["timings"].items():
        for seq, row in rows.items():
            cfg = report["cases"][seq]
            print(f"{seq:>5} {cfg['batch']} x {cfg['heads']:<2} {threads:>7} "
                  f"{row['torch_s'] * 1e3:>9.1f} {row['volta_s'] * 1e3:>9.1f} "
                  f"{row['ratio']:>10.2f}x")
    print(f"\n{'seq':>5} {'torch RSS MiB':>13} {'volta RSS MiB':>13} {'volta tracemalloc MiB':>21} "
          f"{'naive scores MiB':>16}")
    for seq, row in report["peak_memory"].items():
        if seq == "method":
            continue
        print(f"{seq:>5} {row['torch']['peak_rss_delta_bytes'] / mib:>13.1f} "
              f"{row['volta']['peak_rss_delta_bytes'] / mib:>13.1f} "
              f"{row['volta']['tracemalloc_peak_bytes'] / mib:>21.1f} "
              f"{row['naive_scores_bytes'] / mib:>16.1f}")
    print(f"written to {out_path}")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="tiny sizes, few steps (smoke run)")
    parser.add_argument("--threads", type=int, nargs="+", default=[1, 2])
    parser.add_argument("--out", type=Path, default=RESULTS)
    parser.add_argument("--in-process", action="store_true",
                        help="run every worker in this process at torch's current thread count "
                             "(a smoke run: one start-up instead of one per worker)")
    parser.add_argument("--timing-worker", type=int, help=argparse.SUPPRESS)
    parser.add_argument("--memory-worker", nargs=2, metavar=("FRAMEWORK", "SEQ"),
                        help=argparse.SUPPRESS)
    ns = parser.parse_args()
    if ns.timing_worker is not None:
        print(json.dumps(timing_worker(ns.timing_worker, ns.quick)))
    elif ns.memory_worker is not None:
        print(json.dumps(memory_worker(ns.memory_worker[0], int(ns.memory_worker[1]), ns.quick)))
    else:
        if ns.in_process:
            import torch
            report = main(ns.quick, [torch.get_num_threads()], ns.out, runner=run_here)
        else:
            report = main(ns.quick, ns.threads, ns.out)
        print_report(report, ns.out)
