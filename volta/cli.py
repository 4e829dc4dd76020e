"""``python -m volta`` (and the ``volta`` console script): look inside an installation.

    volta plugins [--verbose]      each plugin: package, version, state, what it registered, errors
    volta ops [filters] [--markdown]
                                   the op x backend coverage matrix (kernel, composite, fallback,
                                   cpu-fallback, missing) with totals per backend
    volta explain OP [--device D] [--requires-grad] [--dtype T]
                                   the chain of keys and kernels a call of OP takes, with provenance
    volta doctor                   versions, backends and what they found, plugin faults, a smoke
                                   test per device; exit status 1 when something fails

Everything printed comes from the registries the dispatcher uses (``volta.plugins.status()``,
``volta.dispatch.coverage``, ``volta.dispatch.explain``), so what the CLI says is what runs.
"""

from __future__ import annotations

import argparse
import fnmatch
import platform
import sys
from collections import Counter
from collections.abc import Sequence
from importlib import metadata
from typing import Any, TextIO

import volta
from volta.backend import BACKENDS
from volta.dispatch.coverage import STATUSES, OpCoverage, coverage
from volta.dispatch.dispatcher import DISPATCHER, OperatorHandle
from volta.errors import VoltaError
from volta.schema import Argument

__all__ = ["main"]

# libraries whose versions `doctor` reports: volta's dependencies, then optional ones
_LIBRARIES = ("numpy", "pluggy", "pyyaml", "safetensors", "ml_dtypes", "wgpu", "torch",
              "numexpr", "numba")

# the first word of a registration line (volta.plugins.ledger.describe) -> a readable kind
_KIND_LABELS = {"autograd": "autograd formula", "dispatch": "dispatch key",
                "CPU-fallback": "CPU-fallback factory"}


# -- plugins -----------------------------------------------------------------------------------


def _registered_summary(lines: list[str]) -> str:
    """'190 kernels, 1 device' from a plugin's registration lines (first word = the kind)."""
    kinds = Counter(_KIND_LABELS.get(line.split(" ", 1)[0], line.split(" ", 1)[0])
                    for line in lines)
    return ", ".join(f"{count} {kind}{'s' if count != 1 else ''}"
                     for kind, count in kinds.most_common()) or "nothing"


def cmd_plugins(args: argparse.Namespace, out: TextIO) -> int:
    records = volta.plugins.status()
    failed = 0
    for record in records:
        origin = f"{record.package or '-'} {record.version or ''}".strip()
        out.write(f"{record.name:<20} {record.state:<9} {record.source:<12} {origin}\n")
        if record.state == "loaded":
            out.write(f"    registered: {_registered_summary(record.registered)}\n")
            if args.verbose:
                out.writelines(f"      {line}\n" for line in record.registered)
        if record.state == "failed":
            failed += 1
            out.write(f"    error: {record.error}\n")
            if record.rolled_back:
                out.write(f"    rolled back: {_registered_summary(record.rolled_back)}\n")
            if args.verbose and record.traceback:
                out.writelines(f"      {line}\n" for line in record.traceback.splitlines())
    out.write(f"{len(records)} plugins, {failed} failed\n")
    return 0


# -- ops ---------------------------------------------------------------------------------------


def _filtered(rows: list[OpCoverage], args: argparse.Namespace) -> list[OpCoverage]:
    if args.namespace:
        rows = [row for row in rows if row.namespace == args.namespace]
    if args.pattern:
        rows = [row for row in rows if fnmatch.fnmatchcase(row.op, args.pattern)]
    if args.status:
        rows = [row for row in rows if args.status in row.cells.values()]
    return rows


def _totals(rows: list[OpCoverage], backend: str) -> str:
    counts = Counter(row.cells[backend] for row in rows)
    runs = sum(counts[status] for status in ("kernel", "composite", "fallback"))
    share = 100.0 * runs / len(rows) if rows else 0.0
    detail = ", ".join(f"{counts[s]} {s}" for s in STATUSES if counts[s])
    return f"{backend}: {runs}/{len(rows)} ({share:.1f}%) run on the device; {detail}"


def cmd_ops(args: argparse.Namespace, out: TextIO) -> int:
    backends = args.backend.split(",") if args.backend else None
    rows = _filtered(coverage(backends), args)
    columns = list(rows[0].cells) if rows else (backends or [])
    header = ["op", "autograd", *columns]
    table = [[row.op, row.autograd, *(row.cells[c] for c in columns)] for row in rows]
    if args.markdown:
        out.write("| " + " | ".join(header) + " |\n")
        out.write("|" + "---|" * len(header) + "\n")
        out.writelines("| " + " | ".join(f"`{r[0]}`" if i == 0 else r[i]
                                         for i in range(len(r))) + " |\n" for r in table)
        out.write("\n")
    else:
        widths = [max([len(h)] + [len(r[i]) for r in table]) for i, h in enumerate(header)]
        for line in [header, *table]:
            out.write("  ".join(cell.ljust(width) for cell, width in zip(line, widths)).rstrip()
                      + "\n")
    out.write(f"{len(rows)} ops\n")
    for column in columns:
        out.write(("* " if args.markdown else "") + _totals(rows, column) + "\n")
    return 0


# -- explain -----------------------------------------------------------------------------------


def _sample(argument: Argument, tensor: Any, dtype: volta.dtype, device: str) -> Any:
    """A value of ``argument``'s type: binding looks at types only, and explain runs nothing."""
    kind = argument.type
    if kind.base == "Tensor":
        return [tensor, tensor] if kind.is_list else tensor
    samples = {"int": 1, "SymInt": 1, "float": 1.0, "bool": False, "str": "",
               "Scalar": 1, "ScalarType": dtype, "Device": device}
    if kind.base not in samples:
        return None
    value = samples[kind.base]
    return [value] * (kind.list_size or 1) if kind.is_list else value


def _handles(name: str) -> list[OperatorHandle]:
    exact = [handle for op_name, handle in DISPATCHER.ops.items() if op_name == name]
    return exact or [handle for op_name, handle in DISPATCHER.ops.items()
                     if op_name.split(".", 1)[0] == name]


def cmd_explain(args: argparse.Namespace, out: TextIO) -> int:
    handles = _handles(args.op)
    if not handles:
        close = [n for n in DISPATCHER.ops if args.op in n][:8]
        hint = f"; did you mean: {', '.join(close)}" if close else ""
        raise VoltaError(f"no operator named {args.op!r}{hint}")
    dtype = getattr(volta, args.dtype, None)
    if not isinstance(dtype, volta.dtype):
        raise VoltaError(f"unknown dtype {args.dtype!r}")
    tensor = volta.ones(1, dtype=dtype, device=args.device)
    if args.requires_grad:
        tensor.requires_grad_()
    for number, handle in enumerate(handles):
        positional, keywords = [], {}
        for argument in handle.schema.arguments:
            if argument.default is not None:
                continue  # defaults bind themselves
            value = _sample(argument, tensor, dtype, args.device)
            if argument.kwarg_only:
                keywords[argument.name] = value
            else:
                positional.append(value)
        if number:
            out.write("\n")
        out.write(str(volta.dispatch.explain(handle, *positional, **keywords)) + "\n")
    return 0


# -- doctor ------------------------------------------------------------------------------------


def _version(distribution: str) -> str | None:
    try:
        return metadata.version(distribution)
    except metadata.PackageNotFoundError:
        return None


def _smoke_test(device: str) -> str | None:
    """Run one op on ``device`` and compare with the host; None when it works, else why not."""
    try:
        result = (volta.arange(6, dtype=volta.float32, device=device) * 2 + 1).cpu().tolist()
    except Exception as error:  # doctor reports every fault instead of stopping at the first
        return f"{type(error).__name__}: {error}"
    expected = [2.0 * i + 1 for i in range(6)]
    return None if result == expected else f"wrong result {result}, expected {expected}"


def cmd_doctor(args: argparse.Namespace, out: TextIO) -> int:
    problems: list[str] = []
    out.write(f"python        {platform.python_version()} ({platform.platform()})\n")
    out.write(f"volta         {_version('volta') or 'not installed (source tree)'} "
              f"at {volta.__file__}\n")
    for library in _LIBRARIES:
        out.write(f"{library:<13} {_version(library) or '-'}\n")
    out.write("\nbackends:\n")
    for name in BACKENDS.names():
        info = BACKENDS.get(name)
        dtypes = ", ".join(sorted(d.name for d in info.dtypes))
        out.write(f"  {name} (key {info.key.name}, from {info.provenance}); dtypes: {dtypes}\n")
        try:
            facts = info.impl.diagnose()
        except Exception as error:  # a backend says it cannot work here by raising
            problems.append(f"backend {name}: {type(error).__name__}: {error}")
            out.write(f"    FAILED: {type(error).__name__}: {error}\n")
            continue
        out.writelines(f"    {key}: {value}\n" for key, value in facts.items())
        fault = _smoke_test(name)
        out.write(f"    smoke test: {'ok' if fault is None else 'FAILED: ' + fault}\n")
        if fault is not None:
            problems.append(f"backend {name}: {fault}")
    out.write("\nplugins:\n")
    for record in volta.plugins.status():
        out.write(f"  {record.name}: {record.state}\n")
        if record.state == "failed":
            problems.append(f"plugin {record.name}: {record.error}")
    fallbacks = volta.dispatch.cpu_fallback_counts()
    out.write(f"\nCPU fallback: {'on' if DISPATCHER.cpu_fallback_enabled else 'off'}"
              f"{'; used by ' + ', '.join(sorted(fallbacks)) if fallbacks else ''}\n")
    out.write("\n" + ("no problems found\n" if not problems else
                      f"{len(problems)} problem(s):\n" + "".join(f"  - {p}\n" for p in problems)))
    return 1 if problems else 0


# -- entry point -------------------------------------------------------------------------------


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="volta", description=__doc__.splitlines()[0])
    commands = parser.add_subparsers(dest="command", required=True)
    plugins = commands.add_parser("plugins", help="plugins, what they registered, load errors")
    plugins.add_argument("--verbose", "-v", action="store_true",
                         help="list every registration and the tracebacks of failures")
    ops = commands.add_parser("ops", help="the op x backend coverage matrix")
    ops.add_argument("--backend", help="comma-separated backend keys (default: all), e.g. CPU")
    ops.add_argument("--namespace", help="only ops of this namespace (volta, ext, ...)")
    ops.add_argument("--status", choices=STATUSES,
                     help="only ops with this status on some listed backend")
    ops.add_argument("pattern", nargs="?", help="only op names matching this glob (e.g. 'conv*')")
    ops.add_argument("--markdown", action="store_true", help="print a Markdown table")
    explain = commands.add_parser("explain", help="the keys and kernels a call of OP takes")
    explain.add_argument("op", help="an op name: add, add.Tensor, ext::swiglu")
    explain.add_argument("--device", default="cpu", help="device of the sample tensors")
    explain.add_argument("--dtype", default="float32", help="dtype of the sample tensors")
    explain.add_argument("--requires-grad", action="store_true",
                         help="sample tensors require grad (the Autograd key takes part)")
    commands.add_parser("doctor", help="versions, backends, devices and what fails")
    return parser


_COMMANDS = {"plugins": cmd_plugins, "ops": cmd_ops, "explain": cmd_explain,
             "doctor": cmd_doctor}


def main(argv: Sequence[str] | None = None, out: TextIO | None = None) -> int:
    """Run the CLI with ``argv`` (default: ``sys.argv[1:]``); returns the exit status."""
    args = _parser().parse_args(argv)
    stream = out or sys.stdout
    try:
        return _COMMANDS[args.command](args, stream)
    except VoltaError as error:
        sys.stderr.write(f"volta {args.command}: {error}\n")
        return 2
