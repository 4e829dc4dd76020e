"""Per-call overhead of tiny ops: volta vs PyTorch in one process.

Each case runs a tiny-tensor op many times; we report the median over repeats of the mean
thread CPU time per call (microseconds; CPU time, so a loaded machine adds less noise), the volta/PyTorch ratio, and save everything as JSON. With
``--profile`` it also prints where volta's time goes for an add and for a backward pass.

    python benchmarks/dispatch_overhead.py [--quick] [--profile]
"""

from __future__ import annotations

import argparse
import cProfile
import io
import json
import platform
import pstats
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import torch

import volta

RESULTS = Path(__file__).resolve().parent / "results"


def mean_us(fn: Callable[[], Any], number: int) -> float:
    # this thread's CPU time, not wall time: other processes sharing the cores do not count
    start = time.thread_time()
    for _ in range(number):
        fn()
    return (time.thread_time() - start) / number * 1e6


def per_call_us(volta_fn: Callable[[], Any], torch_fn: Callable[[], Any], number: int,
                repeats: int) -> tuple[float, float]:
    """Median over ``repeats`` of the mean microseconds per call over ``number`` calls, for
    volta and PyTorch; the repeats alternate between them so that load hits both alike."""
    volta_fn(), torch_fn()  # warm caches (dispatch cache, numpy) before timing
    volta_us, torch_us = [], []
    for _ in range(repeats):
        volta_us.append(mean_us(volta_fn, number))
        torch_us.append(mean_us(torch_fn, number))
    return statistics.median(volta_us), statistics.median(torch_us)


# issue 8's goals: every case <= 2x PyTorch; the common ones (add, mul, matmul, t, slicing,
# reshape, without and with grad) <= 1.5x
GOAL_ALL, GOAL_COMMON = 2.0, 1.5
COMMON = {"add", "mul", "matmul 2x2", "a + b operator", "t()", "slice [1:3]", "reshape",
          "add, requires_grad", "mul, requires_grad"}


def cases() -> dict[str, tuple[Callable[[], Any], Callable[[], Any]]]:
    va, vb = volta.ones(2, 2), volta.ones(2, 2)
    ta, tb = torch.ones(2, 2), torch.ones(2, 2)
    vx = volta.ones(2, 2, requires_grad=True)
    vw = volta.ones(2, 2, requires_grad=True)
    tx = torch.ones(2, 2, requires_grad=True)
    tw = torch.ones(2, 2, requires_grad=True)
    vi, ti = volta.tensor([1, 0]), torch.tensor([1, 0])

    def volta_chain() -> None:
        loss = ((vx * vw + vx).relu() @ vw).sum()
        loss.backward()

    def torch_chain() -> None:
        loss = ((tx * tw + tx).relu() @ tw).sum()
        loss.backward()

    return {
        "add": (lambda: volta.add(va, vb), lambda: torch.add(ta, tb)),
        "mul": (lambda: volta.mul(va, vb), lambda: torch.mul(ta, tb)),
        "sum": (lambda: va.sum(), lambda: ta.sum()),
        "matmul 2x2": (lambda: volta.matmul(va, vb), lambda: torch.matmul(ta, tb)),
        "view (transpose)": (lambda: va.transpose(0, 1), lambda: ta.transpose(0, 1)),
        "t()": (lambda: va.t(), lambda: ta.t()),
        "slice [1:3]": (lambda: va[1:3], lambda: ta[1:3]),
        "a.t()[1:3]": (lambda: va.t()[1:3], lambda: ta.t()[1:3]),
        "a[0]": (lambda: va[0], lambda: ta[0]),
        "a[:, 1]": (lambda: va[:, 1], lambda: ta[:, 1]),
        "a[index]": (lambda: va[vi], lambda: ta[ti]),
        "reshape": (lambda: va.reshape(4), lambda: ta.reshape(4)),
        "view(-1)": (lambda: va.view(-1), lambda: ta.view(-1)),
        "unsqueeze": (lambda: va.unsqueeze(0), lambda: ta.unsqueeze(0)),
        "a + b operator": (lambda: va + vb, lambda: ta + tb),
        "a * 2 (scalar)": (lambda: va * 2, lambda: ta * 2),
        "add, requires_grad": (lambda: vx + vw, lambda: tx + tw),
        "mul, requires_grad": (lambda: vx * vw, lambda: tx * tw),
        "t()[1:3], requires_grad": (lambda: vx.t()[1:3], lambda: tx.t()[1:3]),
        "fwd+bwd chain (5 ops)": (volta_chain, torch_chain),
    }


def profile(fn: Callable[[], Any], calls: int, top: int = 12) -> str:
    profiler = cProfile.Profile()
    profiler.enable()
    for _ in range(calls):
        fn()
    profiler.disable()
    out = io.StringIO()
    pstats.Stats(profiler, stream=out).sort_stats("tottime").print_stats(top)
    return out.getvalue()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--quick", action="store_true", help="fewer calls (smoke run)")
    parser.add_argument("--profile", action="store_true", help="print a cProfile of volta")
    args = parser.parse_args()
    number, repeats = (200, 3) if args.quick else (2000, 15)
    torch.set_num_threads(1)
    rows = []
    print(f"{'case':<26}{'volta us':>10}{'torch us':>10}{'ratio':>8}")
    for name, (vf, tf) in cases().items():
        n = number // 10 if "chain" in name else number
        v, t = per_call_us(vf, tf, n, repeats)
        rows.append({"case": name, "volta_us": round(v, 3), "torch_us": round(t, 3),
                     "ratio": round(v / t, 3)})
        print(f"{name:<26}{v:>10.2f}{t:>10.2f}{v / t:>8.2f}")
    for row in rows:
        row["goal"] = GOAL_COMMON if row["case"] in COMMON else GOAL_ALL
    forward = [r["ratio"] for r in rows if "grad" not in r["case"] and "chain" not in r["case"]]
    backward = [r["ratio"] for r in rows if "grad" in r["case"] or "chain" in r["case"]]
    summary = {"median_ratio_forward": round(statistics.median(forward), 3),
               "median_ratio_autograd": round(statistics.median(backward), 3),
               "max_ratio": max(r["ratio"] for r in rows),
               "over_goal": [r["case"] for r in rows if r["ratio"] > r["goal"]],
               "goal_common": GOAL_COMMON, "goal_all": GOAL_ALL}
    print(f"median ratio, plain ops: {summary['median_ratio_forward']:.2f}; with autograd: "
          f"{summary['median_ratio_autograd']:.2f}; over goal (common <= {GOAL_COMMON}, all <= "
          f"{GOAL_ALL}): {', '.join(summary['over_goal']) or 'none'}")
    report: dict[str, Any] = {
        "benchmark": "dispatch_overhead", "unit": "thread CPU microseconds per call (median of repeats)",
        "python": sys.version.split()[0], "torch": torch.__version__,
        "machine": platform.machine(), "number": number, "repeats": repeats,
        "rows": rows, "summary": summary,
    }
    if args.profile:
        cs = cases()
        report["profile_add"] = profile(cs["add"][0], 20000)
        report["profile_chain"] = profile(cs["fwd+bwd chain (5 ops)"][0], 2000, top=20)
        print(report["profile_add"])
        print(report["profile_chain"])
    RESULTS.mkdir(exist_ok=True)
    path = RESULTS / "dispatch_overhead.json"
    path.write_text(json.dumps(report, indent=2))
    print(f"saved {path}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
