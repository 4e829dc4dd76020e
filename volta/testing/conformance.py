"""The backend conformance kit: every op on a backend against volta's CPU backend.

    python -m volta.testing.conformance --backend NAME [--ops GLOB,...] [--dtypes float32,...]
                                        [--no-value-errors] [--markdown] [--json PATH]

For every operator of the sample database (:mod:`volta.testing.opinfo`: ops.yaml's public ops
under PyTorch's names) and every operator a plugin defines, and for every dtype the op supports
that the backend declares, each sample runs twice with identical inputs: on the CPU backend
(the reference) and on the backend under test, forward and (for floating dtypes of
differentiable ops) backward. Inputs are made on the backend, so the samples' non-contiguous
(transposed, strided-slice) and broadcast inputs are views there too. Inputs the CPU backend
rejects with a :class:`volta.VoltaError` are error inputs: the backend must reject them with
the same error class. Made-up error inputs run forward only: the first sample with two
same-rank tensors once with the second tensor's last dimension grown by one (a shape error
wherever the CPU says so), and value errors: a sample's index tensors pointing one past their
end, and in integer dtypes its second operand zero (integer division by zero). A backend
that would have to read the device back to see value errors (WGPU) runs with
``--no-value-errors``: it may return anything where only the values are wrong, but an error
it raises must still be the CPU's class; shape and dtype errors are checked always.

Each (op, dtype) gets one status, the worst of its samples:

* ``pass``: outputs and gradients equal the CPU's (PyTorch's tolerance for the dtype, times
  ``tolerance_scale``), errors where the CPU errs;
* ``fallback``: as ``pass``, but some of it ran through the CPU fallback (the backend lacks a
  kernel; see ``volta.dispatch.cpu_fallback_counts()``);
* ``fail``: a value, gradient, dtype, shape or error differs (the detail says which);
* ``unsupported dtype``: the backend does not declare the dtype, or declares it for storage
  but cannot compute in it here (adding two such tensors raises ``DTypeError``, as WGPU's
  float16 does on an adapter without ``shader-f16``; the detail says why); not run.

Plugin operators without database samples get schema-derived samples (each tensor argument a
float tensor of shape (2, 3), plus a non-contiguous variant); a plugin may give real ones
through the entry-point group ``volta.testing`` naming a list of
:class:`~volta.testing.opinfo.OpInfo` (``ref`` like ``"torch.ops.ext.swiglu"`` resolves to
``volta.ops.ext.swiglu``).

In pytest, a backend package's test module needs one line; each (op, dtype) is one test case,
so ``pytest -n 2`` (pytest-xdist) spreads them over workers::

    test_conformance = volta.testing.conformance.pytest_test("numba")
"""

from __future__ import annotations

import argparse
import fnmatch
import functools
import json
import math
import sys
import warnings
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass, replace
from importlib import metadata
from typing import Any

import volta
from volta.backend import BACKENDS
from volta.dispatch.dispatcher import DISPATCHER, OperatorHandle
from volta.errors import DTypeError, VoltaError
from volta.testing.harness import (
    DEFAULT_TOLERANCES,
    ModuleAdapter,
    assert_grads_close,
    assert_outputs_close,
    run_backward,
    run_forward,
)
from volta.testing.opinfo import (
    FLOAT_DTYPES,
    OPS,
    DTypeArg,
    OpInfo,
    Sample,
    TensorSpec,
    Tol,
    is_floating,
    is_integral,
)

__all__ = ["CaseResult", "DeviceAdapter", "STATUSES", "operator_infos", "pytest_test",
           "run_conformance", "main"]

STATUSES = ("pass", "fallback", "fail", "unsupported dtype")
ENTRY_POINT_GROUP = "volta.testing"


@dataclass(frozen=True)
class CaseResult:
    """The outcome of one op in one dtype on the backend under test."""

    op: str
    dtype: str
    status: str
    samples: int  # samples run (error inputs included)
    detail: str = ""  # the first failure, or what fell back


class DeviceAdapter(ModuleAdapter):
    """volta with every input made on ``device`` (views are then taken there)."""

    def __init__(self, device: str) -> None:
        super().__init__(volta, f"volta[{device}]")
        self.device = device

    def from_numpy(self, arr: Any, dtype: str | None = None) -> Any:
        return super().from_numpy(arr, dtype).to(self.device)

    def resolve(self, ref: str) -> Callable[..., Any]:
        head, _, rest = ref.partition(".")
        if head == "torch" and rest.startswith("ops."):
            namespace, name = rest[len("ops."):].split(".", 1)
            return getattr(getattr(volta.ops, namespace), name)
        return super().resolve(ref)


# -- which ops -----------------------------------------------------------------------------------


def _plugin_infos() -> dict[str, OpInfo]:
    """OpInfo lists that installed packages publish in the ``volta.testing`` entry points."""
    infos: dict[str, OpInfo] = {}
    for entry_point in metadata.entry_points(group=ENTRY_POINT_GROUP):
        for info in entry_point.load():
            infos[info.name] = info
    return infos


# values for required non-tensor arguments of schema-derived samples
_SCALAR_SAMPLES = {"int": 1, "SymInt": 1, "float": 0.5, "bool": False, "Scalar": 2}


def _schema_samples(handle: OperatorHandle) -> Callable[[str], list[Sample]]:
    """Samples from the schema alone: each required tensor a (2, 3) tensor (contiguous, then
    non-contiguous), each required number a fixed value; none when a required argument is of
    another type (the plugin must publish samples then)."""
    def samples(dtype: str) -> list[Sample]:
        made = []
        for noncontig in (False, True):
            args: list[Any] = []
            for argument in handle.schema.arguments:
                if argument.kwarg_only or argument.default is not None:
                    break
                kind = argument.type
                if kind.base == "Tensor" and not kind.is_list:
                    args.append(TensorSpec((2, 3), noncontig=noncontig))
                elif kind.base in _SCALAR_SAMPLES and not kind.is_list:
                    args.append(_SCALAR_SAMPLES[kind.base])
                else:
                    return []
            made.append(Sample(tuple(args), desc="from the schema" +
                               (", non-contiguous" if noncontig else "")))
        return made

    return samples


def _plugin_op_ref(name: str) -> str:
    namespace, op = name.split("::", 1)
    return f"torch.ops.{namespace}.{op.split('.', 1)[0]}"


def operator_infos() -> dict[str, OpInfo]:
    """The database's ops, then every plugin op (its package's samples or schema-derived)."""
    infos = dict(OPS)
    published = _plugin_infos()
    for name, handle in sorted(DISPATCHER.ops.items()):
        if "::" not in name:
            continue  # core ops are in the database under their PyTorch names
        base = name.split(".", 1)[0]
        if base in published:
            infos[base] = published[base]
        elif base not in infos:
            infos[base] = OpInfo(base, _plugin_op_ref(name), _schema_samples(handle),
                                 dtypes=FLOAT_DTYPES, category="plugin (schema samples)")
    return infos


# -- running -------------------------------------------------------------------------------------


def _error_variant(sample: Sample) -> Sample | None:
    """``sample`` with the second of two same-rank tensor arguments one longer at the end."""
    tensors = [(i, a) for i, a in enumerate(sample.args)
               if isinstance(a, TensorSpec) and a.shape and a.values is None]
    if len(tensors) < 2 or len(tensors[0][1].shape) != len(tensors[1][1].shape):
        return None
    index, spec = tensors[1]
    grown = replace(spec, shape=(*spec.shape[:-1], spec.shape[-1] + 1))
    args = list(sample.args)
    args[index] = grown
    return Sample(tuple(args), dict(sample.kwargs), desc=f"{sample.desc} (error variant)",
                  gradcheck=False)


def _value_error_variants(sample: Sample, dtype: str) -> list[tuple[str, Sample]]:
    """Inputs whose error only their values show, each with its kind: every index tensor
    pointing one past its end, and in an integer dtype the second operand zero (integer
    division by zero). The CPU decides whether they are errors at all (``add`` by zero is
    not)."""
    variants = []
    indexed = _with_tensors(sample, lambda spec: replace(spec, values=(spec.high,) * math.prod(
        spec.shape)) if spec.kind == "index" and spec.high is not None else None)
    if indexed is not None:
        kind = "index out of range"
        variants.append((kind, replace(indexed, desc=f"{sample.desc} ({kind})")))
    if is_integral(dtype):
        args = list(sample.args)
        if len(args) > 1 and type(args[1]) is int:
            args[1] = 0
        elif len(args) > 1 and isinstance(args[1], TensorSpec) and args[1].shape and \
                args[1].kind not in ("index", "bool") and args[1].resolved_dtype(dtype) == dtype:
            args[1] = replace(args[1], values=(0,) * math.prod(args[1].shape))
        else:
            return variants
        variants.append(("zero divisor", Sample(tuple(args), dict(sample.kwargs),
                                                desc=f"{sample.desc} (zero divisor)",
                                                gradcheck=False)))
    return variants


def _with_tensors(sample: Sample, change: Callable[[TensorSpec], TensorSpec | None]
                  ) -> Sample | None:
    """``sample`` with each top-level tensor argument that ``change`` maps to a new spec
    replaced, or None when it changes none."""
    changed = False

    def swap(value: Any) -> Any:
        nonlocal changed
        new = change(value) if isinstance(value, TensorSpec) else None
        changed = changed or new is not None
        return value if new is None else new

    args = tuple(swap(a) for a in sample.args)
    kwargs = {k: swap(v) for k, v in sample.kwargs.items()}
    return Sample(args, kwargs, desc=sample.desc, gradcheck=False) if changed else None


def _scaled(op: OpInfo, scale: float) -> OpInfo:
    if scale == 1.0:
        return op
    table: dict[str, Tol] = {dt: tol for dt, tol in DEFAULT_TOLERANCES.items()}
    table.update(op.tol or {})
    return replace(op, tol={dt: (r * scale, a * scale) for dt, (r, a) in table.items()})


def _outcome(fn: Callable[[], Any]) -> tuple[Any, VoltaError | None]:
    try:
        return fn(), None
    except VoltaError as error:
        return None, error


def _check_sample(op: OpInfo, sample: Sample, dtype: str, seed: int, reference: ModuleAdapter,
                  device: DeviceAdapter, variant: str = "") -> None:
    """Raise AssertionError where the backend disagrees with the CPU on this sample.

    ``variant`` is ``""`` for a database sample (forward and backward), ``"error"`` for a
    made-up error input (forward only), ``"unchecked value error"`` for a value-error input
    the backend need not detect: where the CPU raises, any result of the backend passes (an
    error it raises must still be of the CPU's class)."""
    unchecked_value_error = variant == "unchecked value error"
    expected, actual = _both(lambda adapter: run_forward(op, sample, dtype, adapter, seed),
                             reference, device, sample.desc, unchecked_value_error)
    if expected is None:
        return  # both rejected the input with the same error class (or the CPU's is exempt)
    assert_outputs_close(actual, expected, dtype, op, sample.desc)
    if op.grad and is_floating(dtype) and not op.random and not variant:
        expected_grads, actual_grads = _both(
            lambda adapter: run_backward(op, sample, dtype, adapter, seed),
            reference, device, f"{sample.desc} backward")
        if expected_grads is not None:
            assert_grads_close(actual_grads, expected_grads, dtype, op, sample.desc)


def _both(run: Callable[[ModuleAdapter], Any], reference: ModuleAdapter, device: DeviceAdapter,
          what: str, unchecked_value_error: bool = False) -> tuple[Any, Any]:
    """``run`` on the CPU and on the backend: both results, or (None, None) when both raised
    the same VoltaError class (or only the CPU did, for an ``unchecked_value_error``); any
    other pair of outcomes is a failure."""
    expected, cpu_error = _outcome(lambda: run(reference))
    actual, device_error = _outcome(lambda: run(device))
    if cpu_error is None and device_error is None:
        return expected, actual
    if unchecked_value_error and device_error is None:
        return None, None
    if cpu_error is None or device_error is None:
        raise AssertionError(f"{what or 'sample'}: CPU raised {cpu_error!r}, "
                             f"the backend raised {device_error!r}")
    if type(cpu_error) is not type(device_error):
        raise AssertionError(f"{what or 'sample'}: CPU raised {type(cpu_error).__name__}, "
                             f"the backend {type(device_error).__name__}: {device_error}")
    return None, None


def _declares_all(sample: Sample, dtype: str, declared: set[str]) -> bool:
    """Whether every tensor of ``sample`` (e.g. an int32 index) and every dtype it passes as an
    argument (``sum(x, dtype=float64)``: the result lives on the device too) has a dtype the
    backend has."""
    arguments = [*sample.args, *sample.kwargs.values()]
    return all(spec.resolved_dtype(dtype) in declared for _, spec in sample.specs()) and \
        all(arg.name in declared for arg in arguments if isinstance(arg, DTypeArg))


def _cannot_compute(backend: str, dtype: str) -> str:
    """Why ``backend`` stores ``dtype`` but cannot compute in it (the DTypeError of adding two
    such tensors: WGPU's float16 on an adapter without ``shader-f16``), or ``""``. Callers
    keep the answer for one run: kernels registered later may change it."""
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            ones = volta.ones(2, dtype=getattr(volta, dtype)).to(backend)
            (ones + ones).cpu()
    except DTypeError as error:
        return str(error)
    return ""


def _variants(samples: Sequence[Sample], dtype: str, value_errors: bool
              ) -> list[tuple[Sample, str]]:
    """The error inputs made from ``samples``, each with its ``_check_sample`` variant: one
    shape error, one index out of range and one zero divisor at most."""
    made = [(v, "error") for v in (_error_variant(s) for s in samples[:1]) if v is not None]
    value_kind = "error" if value_errors else "unchecked value error"
    seen: set[str] = set()
    for sample in samples:
        for kind, variant in _value_error_variants(sample, dtype):
            if kind not in seen:
                seen.add(kind)
                made.append((variant, value_kind))
    return made


def _run_case(op: OpInfo, dtype: str, reference: ModuleAdapter, device: DeviceAdapter,
              value_errors: bool, cannot_compute: Callable[[str], str]) -> CaseResult:
    declared = {d.name for d in BACKENDS.get(device.device).dtypes}
    every = list(op.samples(dtype))
    if not every:
        return CaseResult(op.name, dtype, "fail", 0, "no samples: its package should publish "
                          f"OpInfo entries in the entry-point group {ENTRY_POINT_GROUP!r}")
    samples = [s for s in every if _declares_all(s, dtype, declared)]
    if not samples:
        return CaseResult(op.name, dtype, "unsupported dtype", 0,
                          "every sample needs a dtype the backend does not declare")
    reason = cannot_compute(dtype)
    if reason:
        return CaseResult(op.name, dtype, "unsupported dtype", 0, reason)
    runs = [(s, "") for s in samples] + _variants(samples, dtype, value_errors)
    before = volta.dispatch.cpu_fallback_counts()
    for seed, (sample, variant) in enumerate(runs):
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")  # fallback warnings are counted instead
                _check_sample(op, sample, dtype, seed, reference, device, variant)
        except AssertionError as failure:
            return CaseResult(op.name, dtype, "fail", seed + 1, str(failure).splitlines()[0])
        except Exception as crash:  # a raw error escaping the backend is a failure too
            return CaseResult(op.name, dtype, "fail", seed + 1,
                              f"{sample.desc or 'sample'}: {type(crash).__name__}: {crash}")
    after = volta.dispatch.cpu_fallback_counts()
    fell_back = sorted(name for name, count in after.items() if count > before.get(name, 0))
    if fell_back:
        return CaseResult(op.name, dtype, "fallback", len(runs),
                          "CPU fallback for " + ", ".join(fell_back))
    return CaseResult(op.name, dtype, "pass", len(runs))


def run_conformance(backend: str, ops: str | None = None, dtypes: Sequence[str] | None = None,
                    tolerance_scale: float = 1.0,
                    progress: Callable[[CaseResult], None] | None = None,
                    value_errors: bool = True) -> list[CaseResult]:
    """Run the conformance suite on device type ``backend``; ``ops`` is a glob over op names,
    or several separated by commas (``"add,mul,conv*"``), ``dtypes`` limits the dtypes tried.
    ``value_errors=False`` exempts the backend from detecting value errors (an index out of
    range, an integer zero divisor): a backend that would need to read the device back to see
    them may return anything there, but an error it raises must still be the CPU's class.
    Returns one result per (op, dtype)."""
    info = BACKENDS.get(backend)
    declared = {dtype.name for dtype in info.dtypes}
    reference, device = ModuleAdapter(volta, "volta[cpu]"), DeviceAdapter(backend)
    cannot_compute = functools.cache(functools.partial(_cannot_compute, backend))
    results = []
    for name, op in sorted(operator_infos().items()):
        if not _selected(name, ops):
            continue
        for dtype in op.dtypes:
            if dtypes is not None and dtype not in dtypes:
                continue
            if dtype not in declared:
                result = CaseResult(name, dtype, "unsupported dtype", 0)
            else:
                result = _run_case(_scaled(op, tolerance_scale), dtype, reference, device,
                                   value_errors, cannot_compute)
            results.append(result)
            if progress is not None:
                progress(result)
    return results


def _selected(name: str, ops: str | None) -> bool:
    return ops is None or any(fnmatch.fnmatchcase(name, glob.strip()) for glob in ops.split(","))


def summary(results: Sequence[CaseResult]) -> str:
    counts = Counter(result.status for result in results)
    ops = {result.op for result in results}
    return (f"{len(ops)} ops, {len(results)} op x dtype cases: "
            + ", ".join(f"{counts[s]} {s}" for s in STATUSES))


def format_table(results: Sequence[CaseResult], markdown: bool = False) -> str:
    """One row per op: its status in each dtype, and the first failure's detail."""
    dtypes = [dt for dt in (*FLOAT_DTYPES, "int8", "int16", "int32", "int64", "uint8", "bool")
              if any(r.dtype == dt for r in results)]
    by_op: dict[str, dict[str, CaseResult]] = {}
    for result in results:
        by_op.setdefault(result.op, {})[result.dtype] = result
    header = ["op", *dtypes, "detail"]
    rows = []
    for op, cells in by_op.items():
        detail = next((c.detail for c in cells.values() if c.status == "fail"), "") or \
            next((c.detail for c in cells.values() if c.detail), "")
        short = {"unsupported dtype": "n/a"}
        rows.append([op, *(short.get(cells[dt].status, cells[dt].status) if dt in cells
                           else "" for dt in dtypes), detail[:120]])
    if markdown:
        lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
        lines += ["| " + " | ".join(cell.replace("|", "\\|") for cell in row) + " |"
                  for row in rows]
        return "\n".join(lines)
    widths = [max(len(h), *(len(r[i]) for r in rows)) if rows else len(h)
              for i, h in enumerate(header[:-1])]
    lines = ["  ".join(h.ljust(w) for h, w in zip(header, widths)) + "  detail"]
    lines += ["  ".join(c.ljust(w) for c, w in zip(row, widths)) + "  " + row[-1] for row in rows]
    return "\n".join(line.rstrip() for line in lines)


def pytest_test(backend: str, ops: str | None = None, dtypes: Sequence[str] | None = None,
                tolerance_scale: float = 1.0, value_errors: bool = True) -> Callable[..., None]:
    """A pytest test function parametrized over every (op, dtype) the backend declares, one
    case each (so ``pytest -n`` spreads them over workers); ``fallback`` and ``unsupported
    dtype`` pass, ``fail`` fails with its detail. The arguments are :func:`run_conformance`'s."""
    import pytest  # a test-time dependency, imported only where a test suite asks for it

    info = BACKENDS.get(backend)
    declared = {dtype.name for dtype in info.dtypes}
    infos = operator_infos()
    cases = [(name, dtype) for name, op in sorted(infos.items())
             if _selected(name, ops)
             for dtype in op.dtypes
             if dtype in declared and (dtypes is None or dtype in dtypes)]

    cannot_compute = functools.cache(functools.partial(_cannot_compute, backend))

    @pytest.mark.parametrize(("op_name", "dtype"), cases)
    def test_conformance(op_name: str, dtype: str) -> None:
        op = _scaled(infos[op_name], tolerance_scale)
        result = _run_case(op, dtype, ModuleAdapter(volta, "volta[cpu]"),
                           DeviceAdapter(backend), value_errors, cannot_compute)
        assert result.status != "fail", result.detail

    return test_conformance


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m volta.testing.conformance",
                                     description=__doc__.splitlines()[0])
    parser.add_argument("--backend", required=True, help="device type, e.g. wgpu, numba")
    parser.add_argument("--ops", help="glob over op names, e.g. 'conv*', or several separated by "
                        "commas: 'add,mul,conv*'")
    parser.add_argument("--dtypes", help="comma-separated dtypes (default: all declared)")
    parser.add_argument("--tolerance-scale", type=float, default=1.0,
                        help="multiply PyTorch's tolerances (e.g. 10 for another summation order)")
    parser.add_argument("--no-value-errors", dest="value_errors", action="store_false",
                        help="don't require the backend to detect errors that only the values "
                        "show (index out of range, integer division by zero), e.g. where that "
                        "needs a device read-back; errors it raises must still match")
    parser.add_argument("--markdown", action="store_true")
    parser.add_argument("--json", help="also write the results to this file")
    parser.add_argument("--quiet", action="store_true", help="no per-case progress")
    args = parser.parse_args(argv)
    try:
        results = run_conformance(
            args.backend, args.ops, args.dtypes.split(",") if args.dtypes else None,
            args.tolerance_scale,
            None if args.quiet else lambda r: print(f"  {r.op} {r.dtype}: {r.status}",
                                                    file=sys.stderr),
            args.value_errors)
    except VoltaError as error:
        print(f"conformance: {error}", file=sys.stderr)
        return 2
    print(format_table(results, args.markdown))
    print(summary(results))
    if args.json:
        with open(args.json, "w") as handle:
            json.dump({"backend": args.backend, "results": [asdict(r) for r in results]},
                      handle, indent=1)
    return 1 if any(result.status == "fail" for result in results) else 0


if __name__ == "__main__":
    sys.exit(main())
