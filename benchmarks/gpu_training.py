"""volta on WGPU as a user meets it: per-op host overhead, training steps, a conv layer.

Cases (issue 10's benchmark), volta and PyTorch in one process:

* ``overhead``: a chain of 10,000 tiny ops (``x = x * 1.0001 + 0.0001`` on a 16-element tensor)
  with one synchronisation at the end, per op: volta on ``wgpu`` vs PyTorch CUDA eager; also
  volta's host time to record the chain alone (``volta_wgpu_record_us_per_op``, the part that
  is volta's own on a software adapter, where running the kernels costs the CPU too). volta and
  PyTorch alternate, one chain each per round over 9 rounds, so both meet the host in the same
  state; the ratio is the median of the rounds' ratios.
* ``mlp`` / ``lenet``: the training steps of benchmarks/train_cpu.py (MLP 784-1024-1024-10 with
  SGD momentum, batch 256; LeNet with SGD momentum, batch 64), steps/s of volta on ``wgpu``
  vs PyTorch CUDA vs volta on the CPU of the same machine. Each step reads the loss
  (``.item()``), so a step includes one readback, as a training loop that logs does.
* ``conv``: the ResNet-style 3x3 conv (32x64x128x128, 64 -> 64, padding 1) forward+backward
  through ``volta.nn.functional.conv2d`` on ``wgpu`` vs PyTorch CUDA (cuDNN).

Medians of timed repetitions after warm-up. Results go to ``$OUT/gpu_training.json`` (the
lent GPU machine) or ``benchmarks/results/gpu_training.json``; ``--quick`` shrinks everything;
``--only CASE...`` runs some cases (printed; written only to ``--out`` or ``$OUT``).
A case that fails records its error instead of stopping the others.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import time
import traceback
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
from train_cpu import lenet, mlp

import volta

RESULTS = Path(__file__).resolve().parent / "results" / "gpu_training.json"
CASES = ("overhead", "mlp", "lenet", "conv")


def median_seconds(step: Callable[[], None], sync: Callable[[], None], warmup: int,
                   steps: int) -> float:
    for _ in range(warmup):
        step()
    sync()
    samples = []
    for _ in range(steps):
        start = time.perf_counter()
        step()
        sync()
        samples.append(time.perf_counter() - start)
    return statistics.median(samples)


def overhead(torch: Any, ops: int, quick: bool) -> dict[str, Any]:
    def chain(lib: Any, x: Any) -> Callable[[], None]:
        def run() -> None:
            y = x
            for _ in range(ops // 2):
                y = y * 1.0001 + 0.0001
            lib_sync(lib, y)
        return run

    def lib_sync(lib: Any, y: Any) -> None:
        y.sum().item()

    def recording(x: Any) -> float:
        """Host seconds to record the chain (no wait for the device): what a faster GPU
        cannot hide. On a software adapter the total also pays for running the kernels."""
        y = x
        start = time.perf_counter()
        for _ in range(ops // 2):
            y = y * 1.0001 + 0.0001
        seconds = time.perf_counter() - start
        lib_sync(volta, y)
        return seconds

    result: dict[str, Any] = {"ops": ops}
    xv = volta.ones(16, device="wgpu")
    rounds = 3 if quick else 9
    volta_run = chain(volta, xv)
    volta_run()  # warm-up: pipelines compiled, pool filled
    if torch is None or not torch.cuda.is_available():
        result["volta_wgpu_us_per_op"] = 1e6 * median_seconds(volta_run, lambda: None, 0,
                                                               rounds) / ops
    else:
        # the two frameworks alternate, one chain each per round, so both meet the host in the
        # same state (its clock and load drift between runs by more than the difference
        # measured); medians over the rounds, and the median of the per-round ratios
        xt = torch.ones(16, device="cuda")
        torch_run = chain(torch, xt)
        torch_run()
        torch.cuda.synchronize()
        volta_s, torch_s = [], []
        for _ in range(rounds):
            volta_s.append(median_seconds(volta_run, lambda: None, 0, 1))
            torch_s.append(median_seconds(torch_run, torch.cuda.synchronize, 0, 1))
        result["volta_wgpu_us_per_op"] = 1e6 * statistics.median(volta_s) / ops
        result["torch_cuda_us_per_op"] = 1e6 * statistics.median(torch_s) / ops
        result["ratio_volta_over_torch"] = statistics.median(
            v / t for v, t in zip(volta_s, torch_s, strict=True))
        result["ratio_per_round"] = [round(v / t, 3) for v, t in zip(volta_s, torch_s,
                                                                      strict=True)]
    result["volta_wgpu_record_us_per_op"] = 1e6 * statistics.median(
        recording(xv) for _ in range(3 if quick else 5)) / ops
    return result


def training_step(lib: Any, model: Any, x: Any, y: Any) -> Callable[[], None]:
    optimizer = lib.optim.SGD(model.parameters(), lr=0.01, momentum=0.9)
    loss_fn = lib.nn.CrossEntropyLoss()

    def step() -> None:
        optimizer.zero_grad(set_to_none=True)
        loss = loss_fn(model(x), y)
        loss.backward()
        optimizer.step()
        loss.item()

    return step


def training(torch: Any, name: str, quick: bool) -> dict[str, Any]:
    batch = {"mlp": 256, "lenet": 64}[name] if not quick else 8
    shape = (batch, 784) if name == "mlp" else (batch, 1, 28, 28)
    build = mlp if name == "mlp" else lenet
    steps = 3 if quick else 20
    result: dict[str, Any] = {"batch": batch}
    for label, device in (("volta_cpu", "cpu"), ("volta_wgpu", "wgpu")):
        volta.manual_seed(0)
        model = build(volta).to(device)
        x = volta.randn(*shape).to(device)
        y = volta.randint(0, 10, (batch,)).to(device)
        seconds = median_seconds(training_step(volta, model, x, y), lambda: None, 2, steps)
        result[f"{label}_steps_per_s"] = 1.0 / seconds
    if torch is not None and torch.cuda.is_available():
        torch.manual_seed(0)
        model = build(torch).cuda()
        x = torch.randn(*shape, device="cuda")
        y = torch.randint(0, 10, (batch,), device="cuda")
        seconds = median_seconds(training_step(torch, model, x, y), torch.cuda.synchronize, 2,
                                 steps)
        result["torch_cuda_steps_per_s"] = 1.0 / seconds
        result["ratio_vs_torch_cuda"] = (result["volta_wgpu_steps_per_s"]
                                         / result["torch_cuda_steps_per_s"])
    result["ratio_vs_volta_cpu"] = (result["volta_wgpu_steps_per_s"]
                                    / result["volta_cpu_steps_per_s"])
    return result


def conv_layer(torch: Any, quick: bool) -> dict[str, Any]:
    shape = (2, 8, 16, 16) if quick else (32, 64, 128, 128)
    channels = shape[1]

    def step(lib: Any, x: Any, w: Any) -> Callable[[], None]:
        def run() -> None:
            x.grad = None
            w.grad = None
            lib.nn.functional.conv2d(x, w, padding=1).sum().backward()
        return run

    volta.manual_seed(0)
    xv = volta.randn(*shape).to("wgpu").requires_grad_()
    wv = (volta.randn(channels, channels, 3, 3) * 0.05).to("wgpu").requires_grad_()
    result = {"shape": list(shape), "volta_wgpu_ms": 1e3 * median_seconds(
        step(volta, xv, wv), lambda: wv.grad.sum().item(), 1, 3 if quick else 5)}
    if torch is not None and torch.cuda.is_available():
        xt = torch.randn(*shape, device="cuda", requires_grad=True)
        wt = (torch.randn(channels, channels, 3, 3, device="cuda") * 0.05).requires_grad_()
        result["torch_cuda_ms"] = 1e3 * median_seconds(step(torch, xt, wt),
                                                       torch.cuda.synchronize, 1,
                                                       3 if quick else 5)
        result["ratio_volta_over_torch_time"] = result["volta_wgpu_ms"] / result["torch_cuda_ms"]
    return result


def main(argv: list[str] | None = None) -> dict[str, Any]:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--out", type=Path)
    parser.add_argument("--only", nargs="+", choices=CASES, help="run only these cases")
    parser.add_argument("--ops", type=int, help="ops in the overhead chain (default 10,000; "
                        "200 with --quick)")
    args = parser.parse_args(argv)
    out = args.out or (Path(os.environ["OUT"]) / "gpu_training.json" if os.environ.get("OUT")
                       else RESULTS)
    try:
        import torch
    except ImportError:
        torch = None
    cases: dict[str, Callable[[], dict[str, Any]]] = {
        "overhead": lambda: overhead(torch, args.ops or (200 if args.quick else 10_000),
                                     args.quick),
        "mlp": lambda: training(torch, "mlp", args.quick),
        "lenet": lambda: training(torch, "lenet", args.quick),
        "conv": lambda: conv_layer(torch, args.quick),
    }
    report: dict[str, Any] = {"adapter": volta.wgpu.adapter_name()}
    for name, run in cases.items():
        if args.only and name not in args.only:
            continue
        try:
            report[name] = run()
        except Exception as error:  # one failing case must not hide the others' numbers
            report[name] = {"error": f"{type(error).__name__}: {error}",
                            "traceback": traceback.format_exc()[-2000:]}
        report[name]["cpu_fallback_ops"] = sorted(volta.dispatch.cpu_fallback_counts())
        print(name, json.dumps({k: v for k, v in report[name].items() if k != "traceback"}),
              flush=True)
    if args.only and out == RESULTS:
        return report  # a partial run printed its cases; it does not replace the recorded file
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(report, indent=1))
    return report


if __name__ == "__main__":
    main()
