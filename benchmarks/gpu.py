"""WGPU kernels on a GPU: volta's generated fp32 matmul and implicit-GEMM conv vs PyTorch.

Cases (issue 10's benchmark section, the kernel part):

* ``matmul``: C = A @ B, fp32, square 1024^3 / 2048^3 / 4096^3, with every candidate tile
  config and the autotuner's choice, vs PyTorch cuBLAS with TF32 off
  (``torch.backends.cuda.matmul.allow_tf32 = False``), TFLOP/s and the ratio.
* ``conv``: conv2d B=32, C=64 -> 64, 128x128, k=3, padding 1, no bias: forward, grad_input and
  grad_weight (the three implicit-GEMM kernels) vs ``torch.nn.functional.conv2d`` forward +
  backward (cuDNN, TF32 off); time and the GPU memory each needs beyond its inputs.

Timing: the generated kernel is bound once and dispatched ``repeats`` times inside one compute
pass, submitted once, and waited for with one small readback; seconds per dispatch = wall time
/ repeats, median of 5 such submits. ``repeats`` is chosen so that one submit carries about
0.2 TFLOP, which makes the fixed costs (submit, the fence readback: tens of microseconds) a
fraction of a percent of a 4096^3 measurement. GPU timestamp queries would remove them
altogether but are an optional feature, and whether a driver resolves them inside a pass
varies; wall time over many dispatches works on every adapter, the software one included.
PyTorch is timed the same way in the same process: ``repeats`` calls, one
``torch.cuda.synchronize()``, median of 5.

Without CUDA (CI, a laptop) only volta's numbers on the local adapter are reported, and
``--quick`` shrinks every size for a smoke run. Results go to ``$OUT/gpu.json`` when ``OUT``
is set (the lent GPU machine), else ``benchmarks/results/gpu.json``, or ``--out PATH``.

    python benchmarks/gpu.py [--quick] [--out PATH] [--adapter NAME]
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np

os.environ.setdefault("XDG_RUNTIME_DIR", "/tmp")  # Mesa's software adapters want one

from volta.backends.wgpu.kernels import conv, harness
from volta.backends.wgpu.kernels import matmul as mm

RESULTS = Path(__file__).resolve().parent / "results" / "gpu.json"
MATMUL_GOAL = 0.6  # volta / cuBLAS fp32 (TF32 off) at 4096^3, at least
FLOPS_PER_SUBMIT = 2e11


def load_torch() -> Any:
    """torch on CUDA with TF32 off, or None when there is no CUDA device."""
    try:
        import torch
    except ImportError:
        return None
    if not torch.cuda.is_available():
        return None
    torch.backends.cuda.matmul.allow_tf32 = False
    torch.backends.cudnn.allow_tf32 = False
    return torch


def repeats_for(flops: float, quick: bool) -> int:
    return 2 if quick else max(3, min(200, int(FLOPS_PER_SUBMIT / flops)))


def median_seconds(run: Callable[[], None], sync: Callable[[], None], repeats: int,
                   rounds: int = 5) -> float:
    """Median over ``rounds`` of the wall time of ``repeats`` runs and one sync, per run."""
    run()
    sync()
    times = []
    for _ in range(rounds):
        start = time.perf_counter()
        for _ in range(repeats):
            run()
        sync()
        times.append((time.perf_counter() - start) / repeats)
    return statistics.median(times)


EXTRA_CONFIGS: list[mm.MatmulConfig] = []  # --config: tile shapes to try besides the candidates


def parse_config(text: str) -> mm.MatmulConfig:
    """``bm,bn,bk,tm,tn,pad[,novec4][,noprefetch]`` -> MatmulConfig."""
    parts = text.split(",")
    config = mm.MatmulConfig(*map(int, parts[:6]), vec4="novec4" not in parts,
                             prefetch="noprefetch" not in parts)
    config.validate()
    return config


def runnable(device: Any) -> list[mm.MatmulConfig]:
    return [c for c in (*mm.CANDIDATES, *EXTRA_CONFIGS)
            if harness.fits(device, c.threads, c.workgroup_storage_bytes())]


def rounds_for(quick: bool) -> int:
    return 1 if quick else 5


def bench_matmul(device: Any, torch: Any, sizes: list[int], quick: bool,
                 tuning_cache: Path) -> list[dict[str, Any]]:
    rows = []
    rng = np.random.default_rng(0)
    for n in sizes:
        flops = 2.0 * n * n * n
        repeats = repeats_for(flops, quick)
        a = rng.standard_normal((n, n), dtype=np.float32)
        b = rng.standard_normal((n, n), dtype=np.float32)
        if torch is not None:
            ta, tb = torch.from_numpy(a).cuda(), torch.from_numpy(b).cuda()
            reference = (ta @ tb).cpu().numpy()
            torch_s = median_seconds(lambda ta=ta, tb=tb: torch.mm(ta, tb), torch.cuda.synchronize,
                                     repeats)
        else:
            reference, torch_s = a.astype(np.float64) @ b.astype(np.float64), None
        row: dict[str, Any] = {"size": n, "repeats": repeats, "configs": {}}
        measured: dict[mm.MatmulConfig, float] = {}
        for config in runnable(device):
            launch = mm.matmul_launch(config, n, n, n, mm.MatrixView.contiguous(n, n),
                                      mm.MatrixView.contiguous(n, n), mm.MatrixView.contiguous(n, n))
            dispatch = launch.bind(device, [a, b, np.zeros((n, n), np.float32)])
            seconds = dispatch.seconds_per_dispatch(repeats, rounds_for(quick))
            error = float(np.abs(dispatch.read() - reference).max() / np.abs(reference).max())
            measured[config] = seconds
            row["configs"][config.name] = {"seconds": seconds, "tflops": flops / seconds / 1e12,
                                           "max_rel_error": error}
        # the tuner's choice, fed the timings above instead of timing everything twice
        tuned = mm.tune(device, n, n, n, cache_path=tuning_cache, enabled=True,
                        timer=lambda _d, c, *_, times=measured: times[c])
        row["tuned"] = tuned.name
        row["default"] = mm.default_config(n, n, n).name
        row["volta_tflops"] = row["configs"][tuned.name]["tflops"]
        if torch_s is not None:
            row["torch_tflops"] = flops / torch_s / 1e12
            row["ratio"] = row["volta_tflops"] / row["torch_tflops"]
            for entry in row["configs"].values():
                entry["ratio"] = entry["tflops"] / row["torch_tflops"]
        rows.append(row)
    return rows


def time_launch(device: Any, launch: mm.GemmLaunch, arrays: list[np.ndarray], repeats: int,
                rounds: int) -> float:
    """Seconds per call of a planned GEMM; a split-K launch adds its reduce stage's time."""
    if launch.split is None:
        return launch.bind(device, arrays).seconds_per_dispatch(repeats, rounds)
    scratch = np.zeros(launch.split.scratch_elements, np.float32)
    gemm = launch.bind(device, [arrays[0], arrays[1], scratch])
    reduce = launch.bind_reduce(device, scratch, arrays[2])
    return (gemm.seconds_per_dispatch(repeats, rounds)
            + reduce.seconds_per_dispatch(repeats, rounds))


def bench_conv(device: Any, torch: Any, quick: bool) -> dict[str, Any]:
    shape = (2, 8, 16, 16) if quick else (32, 64, 128, 128)
    batch, channels, height, width = shape
    g = conv.Conv2dGeometry(batch, channels, height, width, channels, (3, 3), padding=(1, 1))
    rng = np.random.default_rng(0)
    x = rng.standard_normal(g.input_shape, dtype=np.float32)
    w = rng.standard_normal(g.weight_shape, dtype=np.float32) * 0.05
    grad_out = rng.standard_normal(g.output_shape, dtype=np.float32)
    passes = {
        "forward": (conv.conv2d_forward, [w, x, np.zeros(g.output_shape, np.float32)]),
        "grad_input": (conv.conv2d_grad_input, [w, grad_out, np.zeros_like(x)]),
        "grad_weight": (conv.conv2d_grad_weight, [grad_out, x, np.zeros_like(w)]),
    }
    gemm_flops = 2.0 * np.prod(g.output_shape) * channels * 9
    repeats = repeats_for(gemm_flops, quick)
    result: dict[str, Any] = {"shape": list(shape), "kernel": 3, "passes": {}}
    best_launch = {}
    for name, (plan, arrays) in passes.items():
        timings, launches = {}, {}
        # --quick: the default tiles only (a smoke run compiles few kernels)
        for config in [None] if quick else runnable(device):
            launch = plan(g, config=config)
            key = launch.kernel.spec.config.name
            timings[key] = time_launch(device, launch, arrays, repeats, rounds_for(quick))
            launches[key] = launch
        best = min(timings, key=timings.__getitem__)
        best_launch[name] = launches[best]
        split = launches[best].split
        result["passes"][name] = {"best": best, "seconds": timings[best], "all": timings,
                                  "split_k": split.splits if split else 1}
    result["volta_seconds"] = sum(p["seconds"] for p in result["passes"].values())
    # no im2col: the working set is the tensors themselves
    result["volta_bytes"] = 4 * int(2 * x.size + 2 * w.size + 2 * grad_out.size)
    if torch is not None:
        import torch.nn.functional as F

        tx = torch.from_numpy(x).cuda().requires_grad_()
        tw = torch.from_numpy(w).cuda().requires_grad_()
        tg = torch.from_numpy(grad_out).cuda()

        def step() -> None:
            tx.grad = tw.grad = None
            F.conv2d(tx, tw, padding=1).backward(tg)

        step()
        torch.cuda.synchronize()
        base = torch.cuda.memory_allocated()
        torch.cuda.reset_peak_memory_stats()
        step()
        torch.cuda.synchronize()
        result["torch_extra_bytes"] = torch.cuda.max_memory_allocated() - base
        result["torch_seconds"] = median_seconds(step, torch.cuda.synchronize, max(repeats // 3, 1))
        result["ratio"] = result["torch_seconds"] / result["volta_seconds"]
        result["max_rel_error"] = {}
        for name, ref in (("forward", F.conv2d(tx, tw, padding=1)), ("grad_input", tx.grad),
                          ("grad_weight", tw.grad)):
            expected = ref.detach().cpu().numpy()
            got = best_launch[name].run(device, passes[name][1])
            result["max_rel_error"][name] = float(np.abs(got - expected).max()
                                                  / np.abs(expected).max())
    return result


def print_table(report: dict[str, Any]) -> None:
    print(f"adapter: {report['adapter']}")
    print(f"{'matmul':>8} {'config':>25}  {'TFLOP/s':>8} {'torch':>8} {'ratio':>6}")
    for row in report["matmul"]:
        for name, entry in row["configs"].items():
            mark = "*" if name == row["tuned"] else " "
            torch_tf = f"{row['torch_tflops']:8.2f}" if "torch_tflops" in row else f"{'-':>8}"
            ratio = f"{entry['ratio']:6.2f}" if "ratio" in entry else f"{'-':>6}"
            print(f"{row['size']:>7}³ {name:>25}{mark} {entry['tflops']:8.4g} {torch_tf} {ratio}")
    c = report.get("conv")
    if c is None:
        return
    print(f"conv2d {c['shape']} k=3 fwd+bwd: volta {c['volta_seconds'] * 1e3:.2f} ms"
          + (f", torch {c['torch_seconds'] * 1e3:.2f} ms, torch/volta time {c['ratio']:.2f}"
             if "torch_seconds" in c else ""))
    for name, entry in c["passes"].items():
        split = f", split-K {entry['split_k']}" if entry.get("split_k", 1) > 1 else ""
        print(f"  {name:>12}: {entry['seconds'] * 1e3:.3f} ms ({entry['best']}{split})")


def main(argv: list[str] | None = None) -> dict[str, Any]:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--quick", action="store_true", help="tiny sizes: a smoke run")
    parser.add_argument("--out", type=Path, help="JSON path (default $OUT/gpu.json or "
                                                 "benchmarks/results/gpu.json)")
    parser.add_argument("--adapter", help="pick the wgpu adapter whose name contains this")
    parser.add_argument("--sizes", type=int, nargs="+", help="matmul sizes (default: "
                        "1024 2048 4096, with --quick 48)")
    parser.add_argument("--config", type=parse_config, action="append", default=[],
                        help="also time this tile config: bm,bn,bk,tm,tn,pad[,novec4]"
                             "[,noprefetch] (repeatable)")
    parser.add_argument("--no-conv", action="store_true", help="matmul only")
    args = parser.parse_args(argv)
    EXTRA_CONFIGS[:] = args.config
    out = args.out or (Path(os.environ["OUT"]) / "gpu.json" if os.environ.get("OUT")
                       else RESULTS)

    device = harness.request_device(args.adapter)
    torch = load_torch()
    sizes = args.sizes or ([48] if args.quick else [1024, 2048, 4096])
    report: dict[str, Any] = {
        "adapter": harness.adapter_name(device),
        "torch": None if torch is None else f"{torch.__version__} {torch.cuda.get_device_name()}",
        "python": sys.version.split()[0], "platform": platform.platform(), "quick": args.quick,
        "timing": "wall time of N dispatches in one submit + one fence readback, / N; "
                  "median of 5", "goal_ratio_4096": MATMUL_GOAL,
    }
    with tempfile.TemporaryDirectory() as scratch:  # keep the user's tuning cache untouched
        report["matmul"] = bench_matmul(device, torch, sizes, args.quick,
                                        Path(scratch) / "tuning.json")
    if not args.no_conv:
        report["conv"] = bench_conv(device, torch, args.quick)
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(report, indent=1))
    print_table(report)
    print(f"wrote {out}")
    return report


if __name__ == "__main__":
    main()
