"""Per-op CPU speed: volta vs PyTorch, forward and forward+backward, at training sizes.

Each case is one op on tensors of a training step's size: activations of 256 x 1024 (an MLP or
transformer layer), feature maps of 32 x 64 x 56 x 56 (a ResNet stage), logits of 256 x 1000
(a classifier), token ids into a 30000 x 256 embedding. Both frameworks build the same inputs
from the same code (``lib`` is ``torch`` or ``volta``). ``fwd`` times the op; ``fwd+bwd`` times
the op plus ``backward`` of a fixed upstream gradient (inputs' ``.grad`` reset before each step).

Timing: in one process, steps alternate one by one between volta and PyTorch so machine load
hits both alike; after warm-up the median seconds per step is reported, and ``ratio`` = volta time /
PyTorch time (> 1 means volta is slower). The summary gives the worst five ratios and the
geometric mean per thread count (issue 8's goal: no op above 2x, geometric mean <= 1.3x).

Threads: each thread count runs in a child process started with ``OPENBLAS_NUM_THREADS``,
``OMP_NUM_THREADS`` and ``MKL_NUM_THREADS`` set to it (volta's CPU backend reads them too); the
child also calls ``torch.set_num_threads(n)`` (the approach of benchmarks/train_cpu.py).

    python benchmarks/ops_cpu.py [--quick] [--threads 1 2] [--only NAME ...] [--out PATH]
                                 [--in-process]

writes benchmarks/results/ops_cpu.json unless ``--out`` says otherwise.
"""

from __future__ import annotations

import argparse
import math
import os
import statistics
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from train_cpu import machine_info, run_script, write_report  # benchmarks/ is on sys.path

RESULTS = Path(__file__).resolve().parent / "results" / "ops_cpu.json"
GOAL_MAX, GOAL_GEOMEAN = 2.0, 1.3
WORST = 5

# An op: (lib, inputs) -> output. A case: (input builder, op, differentiable input positions).
Op = Callable[[Any, list[Any]], Any]
Builder = Callable[[Any, dict[str, Any]], list[Any]]


def sizes(quick: bool) -> dict[str, Any]:
    """Tensor shapes and step counts; ``--quick`` shrinks everything for a smoke run."""
    if quick:
        return {"act": (8, 32), "fmap": (2, 4, 6, 6), "logits": (8, 10), "vocab": (50, 16),
                "tokens": (4, 8), "warmup": 1, "steps": 2}
    return {"act": (256, 1024), "fmap": (32, 64, 56, 56), "logits": (256, 1000),
            "vocab": (30000, 256), "tokens": (32, 128), "warmup": 2, "steps": 25}


def act(lib: Any, cfg: dict[str, Any]) -> list[Any]:
    return [lib.randn(*cfg["act"])]


def act2(lib: Any, cfg: dict[str, Any]) -> list[Any]:
    return [lib.randn(*cfg["act"]), lib.randn(*cfg["act"])]


def act_positive(lib: Any, cfg: dict[str, Any]) -> list[Any]:
    return [lib.rand(*cfg["act"]) + 0.5]


def fmap(lib: Any, cfg: dict[str, Any]) -> list[Any]:
    return [lib.randn(*cfg["fmap"])]


def linear_inputs(lib: Any, cfg: dict[str, Any]) -> list[Any]:
    rows, features = cfg["act"]
    return [lib.randn(rows, features), lib.randn(features, features) * 0.03,
            lib.randn(features)]


def norm_inputs(lib: Any, cfg: dict[str, Any]) -> list[Any]:
    features = cfg["act"][1]
    return [lib.randn(*cfg["act"]), lib.ones(features), lib.zeros(features)]


def batch_norm_inputs(lib: Any, cfg: dict[str, Any]) -> list[Any]:
    channels = cfg["fmap"][1]
    return [lib.randn(*cfg["fmap"]), lib.ones(channels), lib.zeros(channels)]


def classify_inputs(lib: Any, cfg: dict[str, Any]) -> list[Any]:
    rows, classes = cfg["logits"]
    return [lib.randn(rows, classes), lib.randint(0, classes, (rows,))]


def gather_inputs(lib: Any, cfg: dict[str, Any]) -> list[Any]:
    rows, features = cfg["act"]
    return [lib.randn(rows, features), lib.randint(0, features, (rows, features // 4))]


def select_inputs(lib: Any, cfg: dict[str, Any]) -> list[Any]:
    rows, features = cfg["act"]
    return [lib.randn(rows, features), lib.randint(0, rows, (rows,))]


def embedding_inputs(lib: Any, cfg: dict[str, Any]) -> list[Any]:
    vocab, dim = cfg["vocab"]
    return [lib.randint(0, vocab, cfg["tokens"]), lib.randn(vocab, dim)]


def mask_inputs(lib: Any, cfg: dict[str, Any]) -> list[Any]:
    return [lib.randn(*cfg["act"]), lib.rand(*cfg["act"]) > 0.5]


def where_inputs(lib: Any, cfg: dict[str, Any]) -> list[Any]:
    return [lib.rand(*cfg["act"]) > 0.5, lib.randn(*cfg["act"]), lib.randn(*cfg["act"])]


def nnf(lib: Any) -> Any:
    return lib.nn.functional


# name -> (inputs, op, positions of the inputs that get gradients; () = forward only)
CASES: dict[str, tuple[Builder, Op, tuple[int, ...]]] = {
    # pointwise
    "add": (act2, lambda lib, x: x[0] + x[1], (0, 1)),
    "mul": (act2, lambda lib, x: x[0] * x[1], (0, 1)),
    "div": (act2, lambda lib, x: x[0] / x[1], (0, 1)),
    "add scalar": (act, lambda lib, x: x[0] + 1.5, (0,)),
    "mul scalar": (act, lambda lib, x: x[0] * 0.5, (0,)),
    "pow 2": (act, lambda lib, x: x[0] ** 2, (0,)),
    "exp": (act, lambda lib, x: x[0].exp(), (0,)),
    "log": (act_positive, lambda lib, x: x[0].log(), (0,)),
    "sqrt": (act_positive, lambda lib, x: x[0].sqrt(), (0,)),
    "rsqrt": (act_positive, lambda lib, x: x[0].rsqrt(), (0,)),
    "abs": (act, lambda lib, x: x[0].abs(), (0,)),
    "neg": (act, lambda lib, x: -x[0], (0,)),
    "clamp": (act, lambda lib, x: x[0].clamp(-0.5, 0.5), (0,)),
    "where": (where_inputs, lambda lib, x: lib.where(x[0], x[1], x[2]), (1, 2)),
    "tanh": (act, lambda lib, x: x[0].tanh(), (0,)),
    "sigmoid": (act, lambda lib, x: x[0].sigmoid(), (0,)),
    "relu": (act, lambda lib, x: nnf(lib).relu(x[0]), (0,)),
    "relu fmap": (fmap, lambda lib, x: nnf(lib).relu(x[0]), (0,)),
    "leaky_relu": (act, lambda lib, x: nnf(lib).leaky_relu(x[0], 0.1), (0,)),
    "gelu": (act, lambda lib, x: nnf(lib).gelu(x[0]), (0,)),
    "gelu tanh": (act, lambda lib, x: nnf(lib).gelu(x[0], approximate="tanh"), (0,)),
    "silu": (act, lambda lib, x: nnf(lib).silu(x[0]), (0,)),
    "elu": (act, lambda lib, x: nnf(lib).elu(x[0]), (0,)),
    "softplus": (act, lambda lib, x: nnf(lib).softplus(x[0]), (0,)),
    # reductions
    "sum": (act, lambda lib, x: x[0].sum(), (0,)),
    "sum dim 1": (act, lambda lib, x: x[0].sum(1), (0,)),
    "sum dim 0": (act, lambda lib, x: x[0].sum(0), (0,)),
    "mean dim -1 keepdim": (act, lambda lib, x: x[0].mean(-1, keepdim=True), (0,)),
    "mean fmap (2,3)": (fmap, lambda lib, x: x[0].mean((2, 3)), (0,)),
    "var dim 1": (act, lambda lib, x: x[0].var(1), (0,)),
    "amax dim 1": (act, lambda lib, x: x[0].amax(1), (0,)),
    "max dim 1": (act, lambda lib, x: x[0].max(1)[0], (0,)),
    "argmax dim 1": (act, lambda lib, x: x[0].argmax(1), ()),
    "logsumexp dim 1": (act, lambda lib, x: x[0].logsumexp(1), (0,)),
    "cumsum dim 1": (act, lambda lib, x: x[0].cumsum(1), (0,)),
    "norm": (act, lambda lib, x: x[0].norm(), (0,)),
    # normalisation, softmax, losses
    "softmax": (act, lambda lib, x: x[0].softmax(-1), (0,)),
    "log_softmax": (act, lambda lib, x: x[0].log_softmax(-1), (0,)),
    "layer_norm": (norm_inputs, lambda lib, x: nnf(lib).layer_norm(x[0], x[0].shape[-1:], x[1], x[2]),
                   (0, 1, 2)),
    "batch_norm fmap": (batch_norm_inputs, lambda lib, x: nnf(lib).batch_norm(
        x[0], None, None, x[1], x[2], training=True), (0, 1, 2)),
    "cross_entropy": (classify_inputs, lambda lib, x: nnf(lib).cross_entropy(x[0], x[1]), (0,)),
    "nll_loss": (classify_inputs, lambda lib, x: nnf(lib).nll_loss(x[0], x[1]), (0,)),
    "mse_loss": (act2, lambda lib, x: nnf(lib).mse_loss(x[0], x[1]), (0, 1)),
    "dropout": (act, lambda lib, x: nnf(lib).dropout(x[0], 0.1), (0,)),
    # matmul-like
    "linear": (linear_inputs, lambda lib, x: nnf(lib).linear(x[0], x[1], x[2]), (0, 1, 2)),
    "adaptive_avg_pool2d 1x1": (fmap, lambda lib, x: nnf(lib).adaptive_avg_pool2d(x[0], 1), (0,)),
    "max_pool2d fmap": (fmap, lambda lib, x: nnf(lib).max_pool2d(x[0], 2), (0,)),
    # indexing
    "gather dim 1": (gather_inputs, lambda lib, x: x[0].gather(1, x[1]), (0,)),
    "index_select dim 0": (select_inputs, lambda lib, x: x[0].index_select(0, x[1]), (0,)),
    "tensor[index]": (select_inputs, lambda lib, x: x[0][x[1]], (0,)),
    "embedding": (embedding_inputs, lambda lib, x: nnf(lib).embedding(x[0], x[1]), (1,)),
    "masked_fill": (mask_inputs, lambda lib, x: x[0].masked_fill(x[1], 0.0), (0,)),
    "boolean mask": (mask_inputs, lambda lib, x: x[0][x[1]], (0,)),
    "slice [:, ::2]": (act, lambda lib, x: x[0][:, ::2].contiguous(), (0,)),
    # shape
    "transpose+contiguous": (act, lambda lib, x: x[0].t().contiguous(), (0,)),
    "permute fmap nhwc": (fmap, lambda lib, x: x[0].permute(0, 2, 3, 1).contiguous(), (0,)),
    "cat dim 1": (act2, lambda lib, x: lib.cat([x[0], x[1]], 1), (0, 1)),
    "stack": (act2, lambda lib, x: lib.stack([x[0], x[1]]), (0, 1)),
    "expand+contiguous": (act, lambda lib, x: x[0][:1].expand(*x[0].shape).contiguous(), (0,)),
    # its backward is a view of the upstream gradient, which PyTorch's AccumulateGrad keeps as
    # .grad (aliasing the caller's tensor) and volta copies (Note [Gradient ownership])
    "reshape+flatten fmap": (fmap, lambda lib, x: x[0].flatten(1), (0,)),
    "split+cat": (act, lambda lib, x: lib.cat(x[0].split(256, 1)[::-1], 1), (0,)),
}


def paired_medians(torch_step: Callable[[], Any], volta_step: Callable[[], Any],
                   cfg: dict[str, Any]) -> dict[str, float]:
    """Median wall and CPU seconds per step of each; steps alternate one by one, so that a burst
    of load from other processes hits both frameworks alike. CPU time (of the whole process)
    does not count the time the process waits while others run: on a loaded machine, a step of
    a few milliseconds is often preempted for a whole scheduler time slice."""
    for _ in range(cfg["warmup"]):
        torch_step()
        volta_step()
    samples: dict[str, list[float]] = {"torch_s": [], "volta_s": [], "torch_cpu_s": [],
                                       "volta_cpu_s": []}
    for _ in range(cfg["steps"]):
        for step, name in ((torch_step, "torch"), (volta_step, "volta")):
            wall, cpu = time.perf_counter(), time.process_time()
            step()
            samples[f"{name}_cpu_s"].append(time.process_time() - cpu)
            samples[f"{name}_s"].append(time.perf_counter() - wall)
    return {name: statistics.median(values) for name, values in samples.items()}


def steps_for(lib: Any, name: str, cfg: dict[str, Any]) -> dict[str, Callable[[], Any]]:
    """The forward step and, for differentiable cases, the forward+backward step."""
    build, op, grads = CASES[name]
    lib.manual_seed(0)
    inputs = build(lib, cfg)
    out: dict[str, Callable[[], Any]] = {"fwd": lambda: op(lib, inputs)}
    if grads:
        leaves = list(inputs)
        for i in grads:
            leaves[i] = inputs[i].detach().requires_grad_()
        upstream = lib.ones_like(op(lib, leaves))

        def forward_backward() -> None:
            for i in grads:
                leaves[i].grad = None
            op(lib, leaves).backward(upstream)

        out["fwd+bwd"] = forward_backward
    return out


def timing_worker(threads: int, quick: bool, only: list[str]) -> dict[str, Any]:
    """Child process: time every case in both frameworks, alternating steps."""
    import torch

    import volta

    torch.set_num_threads(threads)
    cfg = sizes(quick)
    rows: dict[str, Any] = {}
    for name in only or CASES:
        torch_steps, volta_steps = steps_for(torch, name, cfg), steps_for(volta, name, cfg)
        for mode, torch_step in torch_steps.items():
            row = paired_medians(torch_step, volta_steps[mode], cfg)
            row["ratio"] = row["volta_s"] / row["torch_s"]
            row["cpu_ratio"] = row["volta_cpu_s"] / max(row["torch_cpu_s"], 1e-9)
            rows[f"{name} {mode}"] = row
    return {"rows": rows, "summary": summarise(rows), "cpu_summary": summarise(rows, "cpu_ratio")}


def summarise(rows: dict[str, Any], key: str = "ratio") -> dict[str, Any]:
    ratios = {name: row[key] for name, row in rows.items()}
    worst = sorted(ratios, key=ratios.__getitem__, reverse=True)[:WORST]
    geomean = math.exp(statistics.fmean(math.log(r) for r in ratios.values()))
    return {"geomean": geomean, "max": max(ratios.values()),
            "worst": [[name, ratios[name]] for name in worst],
            "over_goal": sorted(n for n, r in ratios.items() if r > GOAL_MAX)}


def main(quick: bool, thread_counts: list[int], only: list[str], out_path: Path,
         in_process: bool) -> dict[str, Any]:
    timings = {}
    for n in thread_counts:
        if in_process:
            timings[str(n)] = timing_worker(n, quick, only)
        else:
            args = ["--timing-worker", str(n), *(["--quick"] * quick),
                    *(["--only", *only] if only else [])]
            timings[str(n)] = run_script(__file__, args, n)
    report = {
        "quick": quick, "sizes": {k: list(v) if isinstance(v, tuple) else v
                                  for k, v in sizes(quick).items()},
        "machine": {**machine_info(), "loadavg": list(os.getloadavg())},
        "ratio": "volta seconds / torch seconds per step, median (lower is better for volta); "
                 "cpu_ratio: the same for process CPU time",
        "goals": {"max_ratio": GOAL_MAX, "geomean_ratio": GOAL_GEOMEAN},
        "timings": timings,
    }
    return write_report(report, out_path)


def print_report(report: dict[str, Any], out_path: Path) -> None:
    for threads, result in report["timings"].items():
        print(f"threads {threads}:")
        print(f"  {'case':<34} {'torch ms':>9} {'volta ms':>9} {'volta/torch':>12} "
              f"{'CPU time':>9}")
        for name, row in result["rows"].items():
            flag = "  !" if row["ratio"] > GOAL_MAX else ""
            print(f"  {name:<34} {row['torch_s'] * 1e3:>9.3f} {row['volta_s'] * 1e3:>9.3f} "
                  f"{row['ratio']:>11.2f}x {row['cpu_ratio']:>8.2f}x{flag}")
        for label, key in (("wall", "summary"), ("CPU time", "cpu_summary")):
            summary = result[key]
            worst = ", ".join(f"{name} {ratio:.2f}x" for name, ratio in summary["worst"])
            print(f"  {label}: worst {WORST}: {worst}")
            print(f"  {label}: geometric mean {summary['geomean']:.2f}x (goal <= {GOAL_GEOMEAN}), "
                  f"max {summary['max']:.2f}x (goal <= {GOAL_MAX})")
    print(f"written to {out_path}")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="tiny sizes, few steps (smoke run)")
    parser.add_argument("--threads", type=int, nargs="+",
                        default=sorted({1, os.cpu_count() or 1}))
    parser.add_argument("--only", nargs="+", default=[], choices=sorted(CASES), metavar="CASE",
                        help="time only these cases")
    parser.add_argument("--out", type=Path, default=RESULTS)
    parser.add_argument("--in-process", action="store_true",
                        help="time in this process at torch's current thread count (smoke run)")
    parser.add_argument("--timing-worker", type=int, help=argparse.SUPPRESS)
    ns = parser.parse_args()
    if ns.timing_worker is not None:
        import json
        print(json.dumps(timing_worker(ns.timing_worker, ns.quick, ns.only)))
    else:
        if ns.in_process:
            import torch
            report = main(ns.quick, [torch.get_num_threads()], ns.only, ns.out, True)
        else:
            report = main(ns.quick, ns.threads, ns.only, ns.out, False)
        print_report(report, ns.out)
