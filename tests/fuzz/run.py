"""Run the differential fuzz against PyTorch and print statistics.

    python -m tests.fuzz.run --examples 100000

Cases are drawn by hypothesis with a fixed seed (``derandomize``), so a run is reproducible and
a longer run starts with the cases of a shorter one. Every disagreement is classified by
``(op, kind)``; ``known_differences.py`` documents the deliberate ones.
"""

from __future__ import annotations

import argparse
import collections
import json
import os
import sys
import time
import warnings
from dataclasses import dataclass, field

from hypothesis import HealthCheck, given, settings

from tests.fuzz import cases as C
from tests.fuzz.known_differences import KNOWN

CI_EXAMPLES = 2000  # about 30 s on a busy 2-core machine


def examples_from_env() -> int:
    return int(os.environ.get("VOLTA_FUZZ_EXAMPLES", CI_EXAMPLES))


@dataclass
class Stats:
    cases: int = 0
    not_run: int = 0          # a method drawn without a tensor to call it on
    invalid: int = 0          # deliberately corrupted calls (wrong type, unknown keyword)
    kinds: collections.Counter = field(default_factory=collections.Counter)
    examples: dict = field(default_factory=dict)   # (op, kind) -> (call, detail), first seen
    counts: collections.Counter = field(default_factory=collections.Counter)  # per (op, kind)

    @property
    def disagreements(self) -> dict:
        return {k: v for k, v in self.examples.items()}

    def unknown(self) -> dict:
        return {k: v for k, v in self.examples.items() if k not in KNOWN}

    def stale(self) -> list:
        return sorted(k for k in KNOWN if k not in self.examples)


def fuzz(examples: int) -> Stats:
    stats = Stats()

    @settings(max_examples=examples, derandomize=True, database=None, deadline=None,
              suppress_health_check=list(HealthCheck))
    @given(C.cases())
    def differential(case: C.Case) -> None:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            outcome = C.run_case(case)
        if outcome is None:
            stats.not_run += 1
            return
        stats.cases += 1
        stats.invalid += case.invalid
        stats.kinds[outcome.kind] += 1
        if not outcome.agrees:
            key = (case.op.name, outcome.kind)
            stats.counts[key] += 1
            stats.examples.setdefault(key, (case.describe(), outcome.detail))

    differential()
    return stats


def report(stats: Stats, seconds: float) -> str:
    agree = stats.kinds["agree"] + stats.kinds["both_reject"]
    lines = [f"{stats.cases} cases in {seconds:.0f} s ({stats.not_run} drawn but not runnable), "
             f"{stats.invalid} deliberately invalid",
             f"both accept and agree: {stats.kinds['agree']}; both reject: "
             f"{stats.kinds['both_reject']}; disagree: {stats.cases - agree} "
             f"({100 * (stats.cases - agree) / max(stats.cases, 1):.2f}%)",
             f"ops fuzzed: {len(C.OPS)} + {len(C.FACTORY_OPS)} factories; without a torch "
             f"counterpart (skipped): {', '.join(C.SKIPPED)}",
             "disagreements by kind:"]
    for kind, n in sorted(stats.kinds.items(), key=lambda kv: -kv[1]):
        if kind not in ("agree", "both_reject"):
            lines.append(f"  {kind:24} {n}")
    known = [k for k in stats.examples if k in KNOWN]
    lines.append(f"classes (op, kind): {len(stats.examples)}, documented in "
                 f"known_differences.py: {len(known)}, new: {len(stats.unknown())}, "
                 f"documented but not seen: {len(stats.stale())}")
    for key, (call, detail) in sorted(stats.examples.items()):
        tag = "known" if key in KNOWN else "NEW"
        lines.append(f"  [{tag}] {key[0]} {key[1]} x{stats.counts[key]}: {call}\n"
                     f"          {detail.splitlines()[0] if detail else ''}")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--examples", type=int, default=examples_from_env())
    parser.add_argument("--json", help="also write the run's classes to this JSON file")
    args = parser.parse_args(argv)
    start = time.perf_counter()
    stats = fuzz(args.examples)
    print(report(stats, time.perf_counter() - start))
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"cases": stats.cases, "examples": args.examples,
                       "classes": [[op, kind, call, detail]
                                   for (op, kind), (call, detail) in stats.examples.items()]}, f)
    return 0


if __name__ == "__main__":
    sys.exit(main())
