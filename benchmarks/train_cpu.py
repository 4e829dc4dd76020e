"""Training-step speed and conv memory on CPU: volta vs PyTorch in one process, same threads.

Cases (issue 9's Benchmark section):

* ``mlp_sgd`` / ``mlp_adam``: MLP 784-1024-1024-10 (ReLU), batch 256, cross-entropy, one
  ``zero_grad`` + forward + backward + optimizer step (SGD momentum 0.9 / Adam).
* ``lenet``: LeNet-style CNN on 1x28x28 (conv5-pool-conv5-pool-fc120-fc84-fc10), batch 64,
  SGD with momentum.
* ``lstm``: 2-layer LSTM (input 256, hidden 256) on a sequence of 64 steps, batch 32, MSE on
  its outputs, SGD with momentum (issue 12's Benchmark section; goal 0.5x).
* ``transformer`` (issue 12): one ``nn.TransformerEncoderLayer`` (d_model 256, 4 heads,
  dim_feedforward 1024, default dropout 0.1, batch_first) on batch 16 x seq 128, MSE to a fixed
  target, one ``zero_grad`` + forward + backward + Adam step.
* ``conv``: one ResNet-style 3x3 conv (64 -> 64 channels, padding 1, no bias) on
  32x64x128x128: forward + backward (input and weight gradients) time and peak memory.

Threads: volta's CPU backend computes with numpy, whose BLAS (OpenBLAS) reads its thread count
from the environment when it is loaded, and with its own pool (volta.set_num_threads: convolution,
pooling, large selects and copies split their work over it). So each thread count runs in a child
process of this script started with ``OPENBLAS_NUM_THREADS``, ``OMP_NUM_THREADS`` and
``MKL_NUM_THREADS`` set to it; the child also calls ``torch.set_num_threads(n)`` and
``volta.set_num_threads(n)``, so both frameworks get the same threads in the same process.

Timing: both frameworks' steps of a case exist side by side; each gets its warm-up steps, then
the timed steps run in alternating blocks (PyTorch's block, volta's block, volta's, PyTorch's,
... so neither always goes first), with an idle gap of ``GAP_S`` before every block. The result
is the median over all of a framework's timed steps (seconds per step -> steps/s); the ratio is
volta steps/s / PyTorch steps/s (> 1 means volta is faster). Why the gap: both frameworks' thread
pools busy-wait for a while after their last parallel region (PyTorch's OpenMP workers after each
op, OpenBLAS's threads after each BLAS call) before they sleep. Timed straight after the other
framework, a step shares its cores with those spinning threads: with 2 threads on 2 cores,
volta's LeNet step measured 18.2 ms right after PyTorch's steps and 12.8 ms with PyTorch's
workers passive. The gap lets the other framework's threads go to sleep, so each framework is
timed as it runs alone, while both still share the one process, its thread settings and the
moment's machine load; alternating the blocks spreads slow drifts of that load over both.
PyTorch's wait policy is left at its default rather than set to ``OMP_WAIT_POLICY=PASSIVE``:
passive workers sleep between PyTorch's own ops, which slowed its 2-thread LeNet step from 4.0
to 8.0 ms while volta's stayed at 7.0-7.4 ms, so it would flatter volta; the gap already keeps
the spinning workers off volta's blocks (measured on the 2-core machine of issue 9).

Peak memory of the conv step: each framework runs in a fresh child process (so neither sees the
other's heap) and reports the peak resident set size (``ru_maxrss``) minus the resident size
just before the step, after its input and weight exist. That is the one method that sees both
numpy's and PyTorch's allocators. For volta the ``tracemalloc`` peak (numpy registers its
allocations with it) is reported as well.

    python benchmarks/train_cpu.py [--quick] [--threads 1 2] [--cases lenet ...] [--out PATH]
                                   [--in-process]

writes benchmarks/results/train_cpu.json unless ``--out`` says otherwise.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

RESULTS = Path(__file__).resolve().parent / "results" / "train_cpu.json"
CASES = ["mlp_sgd", "mlp_adam", "lenet", "lstm", "transformer", "conv"]
GOALS = {"mlp_sgd": 1.0, "mlp_adam": 1.0, "lenet": 0.7, "lstm": 0.5, "transformer": 0.7}
CONV_MEMORY_GOAL = 1.5  # volta peak / PyTorch peak, at most


def sizes(quick: bool) -> dict[str, Any]:
    """Problem sizes and step counts; ``--quick`` shrinks everything for a smoke run."""
    if quick:
        return {"mlp_batch": 16, "lenet_batch": 8, "conv_shape": (2, 8, 16, 16),
                "lstm_shape": (4, 2, 8), "transformer": (2, 8, 16, 2, 32),
                "warmup": 1, "steps": 2, "conv_warmup": 1, "conv_steps": 1}
    return {"mlp_batch": 256, "lenet_batch": 64, "conv_shape": (32, 64, 128, 128),
            "lstm_shape": (64, 32, 256),  # steps, batch, input = hidden size
            "transformer": (16, 128, 256, 4, 1024),  # batch, seq, d_model, nhead, feed-forward
            "warmup": 3, "steps": 20, "conv_warmup": 1, "conv_steps": 3}


GAP_S = 0.25  # idle time before each timed block: the other framework's threads stop spinning
BLOCKS = 4  # timed blocks per framework and case (fewer when there are fewer steps)


def interleaved_medians(steps: dict[str, Callable[[], None]], warmup: int, count: int
                        ) -> dict[str, float]:
    """Median seconds per call of each ``steps`` entry over ``count`` timed calls, timed in
    alternating blocks with an idle gap before each (the module docstring says why)."""
    for step in steps.values():
        for _ in range(warmup):
            step()
    blocks = max(1, min(BLOCKS, count))
    sizes = [count // blocks + (i < count % blocks) for i in range(blocks)]
    samples: dict[str, list[float]] = {label: [] for label in steps}
    order = list(steps)
    for block, size in enumerate(sizes):
        for label in order if block % 2 == 0 else order[::-1]:
            time.sleep(GAP_S)
            for _ in range(size):
                start = time.perf_counter()
                steps[label]()
                samples[label].append(time.perf_counter() - start)
    return {label: statistics.median(times) for label, times in samples.items()}


def median_seconds(step: Callable[[], None], warmup: int, steps: int) -> float:
    for _ in range(warmup):
        step()
    samples = []
    for _ in range(steps):
        start = time.perf_counter()
        step()
        samples.append(time.perf_counter() - start)
    return statistics.median(samples)


def mlp(lib: Any) -> Any:
    nn = lib.nn
    return nn.Sequential(nn.Linear(784, 1024), nn.ReLU(), nn.Linear(1024, 1024), nn.ReLU(),
                         nn.Linear(1024, 10))


def lenet(lib: Any) -> Any:
    nn = lib.nn
    return nn.Sequential(
        nn.Conv2d(1, 6, 5, padding=2), nn.ReLU(), nn.MaxPool2d(2),
        nn.Conv2d(6, 16, 5), nn.ReLU(), nn.MaxPool2d(2), nn.Flatten(),
        nn.Linear(16 * 5 * 5, 120), nn.ReLU(), nn.Linear(120, 84), nn.ReLU(), nn.Linear(84, 10))


def train_step(lib: Any, model: Any, optimizer: Any, x: Any, y: Any) -> Callable[[], None]:
    loss_fn = lib.nn.CrossEntropyLoss()

    def step() -> None:
        optimizer.zero_grad(set_to_none=True)
        loss_fn(model(x), y).backward()
        optimizer.step()

    return step


def lstm_step(lib: Any, cfg: dict[str, Any]) -> Callable[[], None]:
    """One LSTM training step: 2 layers, input = hidden = ``lstm_shape[2]``, time-major input
    of ``lstm_shape[0]`` steps and batch ``lstm_shape[1]``, MSE loss, SGD with momentum."""
    steps, batch, size = cfg["lstm_shape"]
    lib.manual_seed(0)
    model = lib.nn.LSTM(size, size, num_layers=2)
    x = lib.randn(steps, batch, size)
    target = lib.randn(steps, batch, size)
    optimizer = lib.optim.SGD(model.parameters(), lr=0.01, momentum=0.9)

    def step() -> None:
        optimizer.zero_grad(set_to_none=True)
        lib.nn.functional.mse_loss(model(x)[0], target).backward()
        optimizer.step()

    return step


def transformer_step(lib: Any, cfg: dict[str, Any]) -> Callable[[], None]:
    """One encoder layer's training step (issue 12's transformer block)."""
    batch, seq, d_model, nhead, feedforward = cfg["transformer"]
    layer = lib.nn.TransformerEncoderLayer(d_model, nhead, feedforward, batch_first=True)
    optimizer = lib.optim.Adam(layer.parameters(), lr=1e-4)
    x = lib.randn(batch, seq, d_model)
    target = lib.randn(batch, seq, d_model)

    def step() -> None:
        optimizer.zero_grad(set_to_none=True)
        lib.nn.functional.mse_loss(layer(x), target).backward()
        optimizer.step()

    return step


def conv_setup(lib: Any, shape: tuple[int, int, int, int]) -> tuple[Any, Any]:
    batch, channels, height, width = shape
    x = lib.randn(batch, channels, height, width, requires_grad=True)
    weight = (lib.randn(channels, channels, 3, 3) * 0.05).requires_grad_()
    return x, weight


def conv_step(lib: Any, x: Any, weight: Any) -> Callable[[], None]:
    def step() -> None:
        x.grad = None
        weight.grad = None
        lib.nn.functional.conv2d(x, weight, padding=1).sum().backward()

    return step


def case_step(lib: Any, cfg: dict[str, Any], name: str) -> Callable[[], None]:
    """The step of case ``name`` in ``lib`` (volta or torch), built from seed 0."""
    lib.manual_seed(0)
    if name in ("mlp_sgd", "mlp_adam"):
        xb = lib.randn(cfg["mlp_batch"], 784)
        yb = lib.randint(0, 10, (cfg["mlp_batch"],))
        model = mlp(lib)
        optimizer = (lib.optim.SGD(model.parameters(), lr=0.01, momentum=0.9)
                     if name == "mlp_sgd" else lib.optim.Adam(model.parameters(), lr=1e-3))
        return train_step(lib, model, optimizer, xb, yb)
    if name == "lenet":
        model = lenet(lib)
        xi = lib.randn(cfg["lenet_batch"], 1, 28, 28)
        yi = lib.randint(0, 10, (cfg["lenet_batch"],))
        sgd = lib.optim.SGD(model.parameters(), lr=0.01, momentum=0.9)
        return train_step(lib, model, sgd, xi, yi)
    if name == "lstm":
        return lstm_step(lib, cfg)
    if name == "transformer":
        return transformer_step(lib, cfg)
    return conv_step(lib, *conv_setup(lib, cfg["conv_shape"]))


def timing_worker(threads: int, quick: bool, cases: list[str] = CASES) -> dict[str, Any]:
    """Child process: time ``cases`` in both frameworks (environment already set)."""
    import torch

    import volta

    torch.set_num_threads(threads)
    volta.set_num_threads(threads)
    cfg = sizes(quick)
    out: dict[str, Any] = {}
    for name in cases:
        warmup, steps = ((cfg["conv_warmup"], cfg["conv_steps"]) if name == "conv"
                         else (cfg["warmup"], cfg["steps"]))
        pair = {label: case_step(lib, cfg, name) for label, lib in (("torch", torch),
                                                                     ("volta", volta))}
        seconds = interleaved_medians(pair, warmup, steps)
        del pair
        row: dict[str, Any] = {f"{label}_s": s for label, s in seconds.items()}
        row["torch_steps_per_s"] = 1.0 / row["torch_s"]
        row["volta_steps_per_s"] = 1.0 / row["volta_s"]
        row["ratio"] = row["volta_steps_per_s"] / row["torch_steps_per_s"]
        out[name] = row
    return out


def rss_bytes() -> int:
    with open("/proc/self/statm") as f:
        return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")


def memory_worker(framework: str, quick: bool) -> dict[str, Any]:
    """Child process: peak memory of one conv forward + backward in one framework."""
    import torch

    import volta

    lib = volta if framework == "volta" else torch
    x, weight = conv_setup(lib, sizes(quick)["conv_shape"])
    return peak_memory(conv_step(lib, x, weight), trace=framework == "volta")


def peak_memory(step: Callable[[], None], trace: bool) -> dict[str, Any]:
    """Peak RSS growth of one ``step()``; with ``trace`` also its tracemalloc peak."""
    import resource
    import tracemalloc

    if trace:
        tracemalloc.start()
    before = rss_bytes()
    step()
    peak_rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024  # KiB on Linux
    result: dict[str, Any] = {"peak_rss_delta_bytes": max(peak_rss - before, 0)}
    if trace:
        result["tracemalloc_peak_bytes"] = tracemalloc.get_traced_memory()[1]
        tracemalloc.stop()
    return result


Runner = Callable[[str, str, int, bool], dict[str, Any]]


def run_child(worker: str, arg: str, threads: int, quick: bool) -> dict[str, Any]:
    """Run ``--timing-worker`` or ``--memory-worker`` in a fresh process with ``threads``."""
    threads_arg = ["--threads", str(threads)] if worker == "timing" else []
    return run_script(__file__, [f"--{worker}-worker", arg, *threads_arg] + ["--quick"] * quick,
                      threads)


def run_script(script: str, args: list[str], threads: int) -> dict[str, Any]:
    """Run ``script args`` in a fresh process whose BLAS gets ``threads``; its last stdout line
    is JSON."""
    env = dict(os.environ, OPENBLAS_NUM_THREADS=str(threads), OMP_NUM_THREADS=str(threads),
               MKL_NUM_THREADS=str(threads))
    proc = subprocess.run([sys.executable, script, *args], env=env, capture_output=True,
                          text=True, check=False)
    if proc.returncode != 0:
        raise RuntimeError(f"child {args} failed:\n{proc.stderr}")
    return json.loads(proc.stdout.strip().splitlines()[-1])


def run_here(worker: str, arg: str, threads: int, quick: bool) -> dict[str, Any]:
    """Run a worker in this process, threads left as they are (``--in-process`` smoke runs)."""
    if worker == "timing":
        return timing_worker(threads, quick, arg.split(","))
    return memory_worker(arg, quick)


def main(quick: bool, thread_counts: list[int], out_path: Path,
         runner: Runner = run_child, cases: list[str] = CASES) -> dict[str, Any]:
    """Time ``cases`` at every thread count and, with the conv case, measure conv memory, each
    through ``runner``; write JSON."""
    cfg = sizes(quick)
    timings = {str(n): runner("timing", ",".join(cases), n, quick) for n in thread_counts}
    report: dict[str, Any] = {
        "quick": quick, "sizes": {k: list(v) if isinstance(v, tuple) else v for k, v in cfg.items()},
        "machine": machine_info(),
        "ratio": "volta steps/s / torch steps/s (higher is better for volta)",
        "goals": {**GOALS, "conv_peak_memory_ratio_max": CONV_MEMORY_GOAL},
        "timings": timings,
    }
    if "conv" in cases:
        memory = {fw: runner("memory", fw, max(thread_counts), quick) for fw in ("torch", "volta")}
        memory["ratio_rss"] = (memory["volta"]["peak_rss_delta_bytes"]
                               / max(memory["torch"]["peak_rss_delta_bytes"], 1))
        report["conv_peak_memory"] = {**memory, "method": "peak RSS (ru_maxrss) minus RSS "
                                      "before the step, each framework in a fresh process; "
                                      "volta also tracemalloc"}
    return write_report(report, out_path)


def machine_info() -> dict[str, Any]:
    import numpy
    import torch
    return {"platform": platform.platform(), "cpu_count": os.cpu_count(),
            "python": platform.python_version(), "numpy": numpy.__version__,
            "torch": torch.__version__}


def write_report(report: dict[str, Any], out_path: Path) -> dict[str, Any]:
    out_path.parent.mkdir(parents=True, exist_ok=True)
    out_path.write_text(json.dumps(report, indent=2) + "\n")
    return report


def print_report(report: dict[str, Any], out_path: Path) -> None:
    print(f"{'case':<11} {'threads':>7} {'torch steps/s':>14} {'volta steps/s':>14} "
          f"{'volta/torch':>12} {'goal':>6}")
    for threads, rows in report["timings"].items():
        for name, row in rows.items():
            goal = GOALS.get(name)
            print(f"{name:<11} {threads:>7} {row['torch_steps_per_s']:>14.2f} "
                  f"{row['volta_steps_per_s']:>14.2f} {row['ratio']:>11.2f}x "
                  f"{'>=' + format(goal, '.1f') if goal else '-':>6}")
    mem = report.get("conv_peak_memory")
    if mem is None:
        print(f"written to {out_path}")
        return
    mib = 2**20
    print(f"conv peak memory (RSS delta): torch {mem['torch']['peak_rss_delta_bytes'] / mib:.0f} "
          f"MiB, volta {mem['volta']['peak_rss_delta_bytes'] / mib:.0f} MiB "
          f"(tracemalloc {mem['volta']['tracemalloc_peak_bytes'] / mib:.0f} MiB), "
          f"ratio {mem['ratio_rss']:.2f}x (goal <= {CONV_MEMORY_GOAL})")
    print(f"written to {out_path}")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="tiny sizes, few steps (smoke run)")
    parser.add_argument("--threads", type=int, nargs="+",
                        default=sorted({1, os.cpu_count() or 1}))
    parser.add_argument("--out", type=Path, default=RESULTS)
    parser.add_argument("--in-process", action="store_true",
                        help="run every worker in this process at torch's current thread count "
                             "(a smoke run: one start-up instead of one per worker)")
    parser.add_argument("--cases", nargs="+", choices=CASES, default=CASES,
                        help="time only these cases (conv memory is measured with 'conv')")
    parser.add_argument("--timing-worker", help=argparse.SUPPRESS)  # its comma-joined cases
    parser.add_argument("--memory-worker", choices=("torch", "volta"), help=argparse.SUPPRESS)
    ns = parser.parse_args()
    if ns.timing_worker is not None:
        print(json.dumps(timing_worker(ns.threads[0], ns.quick, ns.timing_worker.split(","))))
    elif ns.memory_worker is not None:
        print(json.dumps(memory_worker(ns.memory_worker, ns.quick)))
    else:
        if ns.in_process:
            import torch
            report = main(ns.quick, [torch.get_num_threads()], ns.out, run_here, ns.cases)
        else:
            report = main(ns.quick, ns.threads, ns.out, run_child, ns.cases)
        print_report(report, ns.out)
