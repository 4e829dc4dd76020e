"""volta.testing.conformance: every op on a backend against the CPU backend.

The example plugin's ``toy`` device runs the whole suite here (its own kernels for add, mul and
example::swiglu, the CPU fallback for the rest); broken kernels on a scratch device show that the
kit fails where it must."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

import volta
from volta.testing import conformance
from volta.testing.conformance import format_table, run_conformance, summary

ROOT = Path(__file__).resolve().parents[2]

# the whole suite on the toy device, one pytest case per (op, dtype)
test_toy_device_conformance = conformance.pytest_test("toy")


def test_statuses_on_the_toy_device() -> None:
    results = {(r.op, r.dtype): r for r in run_conformance("toy", ops="[am]*")}
    assert results[("add", "int64")].status == "pass"  # the toy's own kernel, no backward
    assert results[("mul", "bool")].status == "pass"
    # forward on the toy kernel, but the backward's sum (un-broadcasting) falls back
    assert results[("add", "float32")].status == "fallback"
    assert "sum" in results[("add", "float32")].detail
    assert results[("addmm", "float32")].status == "fallback"
    assert "addmm" in results[("addmm", "float32")].detail
    assert results[("add", "float16")].status == "unsupported dtype"  # toy stores no float16
    assert not [r for r in results.values() if r.status == "fail"]


def test_plugin_ops_are_included() -> None:
    results = {(r.op, r.dtype): r for r in run_conformance("toy", ops="example::*")}
    assert results[("example::swiglu", "float64")].status in ("pass", "fallback")
    assert results[("example::scaled_add", "float32")].samples >= 2  # schema-derived samples


def _broken_device(kernel_name: str, kernel) -> None:
    lib = volta.library.Library("conformance_test")
    lib.impl(kernel_name, "SCRATCH", kernel)


def test_a_wrong_kernel_fails(scratch_device) -> None:
    def wrong_neg(x):
        return volta.from_numpy(np.array(-x.cpu().numpy() + 1.0)).to("scratch")

    _broken_device("neg", wrong_neg)
    results = run_conformance("scratch", ops="neg", dtypes=["float32"])
    assert [r.status for r in results] == ["fail"]
    assert "elements differ" in results[0].detail


def test_a_raw_error_or_a_missing_error_fails(scratch_device) -> None:
    def raw_error_mul(a, b):
        raise ValueError("operands could not be broadcast")

    _broken_device("mul", raw_error_mul)
    results = run_conformance("scratch", ops="mul", dtypes=["float32"])
    assert results[0].status == "fail" and "ValueError" in results[0].detail

    def permissive_sub(a, b, alpha=1):  # never raises, not even for mismatched shapes
        a_, b_ = a.cpu().numpy(), b.cpu().numpy()
        if a_.shape != b_.shape and a_.ndim == b_.ndim:
            b_ = np.resize(b_, a_.shape)
        return volta.from_numpy(np.array(a_ - alpha * b_)).to("scratch")

    _broken_device("sub", permissive_sub)
    results = run_conformance("scratch", ops="sub", dtypes=["float64"])
    assert results[0].status == "fail"


def test_table_summary_and_command_line(tmp_path: Path) -> None:
    results = run_conformance("toy", ops="ab*")
    table = format_table(results)
    assert table.splitlines()[0].startswith("op ") and "abs" in table
    assert "| op |" in format_table(results, markdown=True)
    assert summary(results).startswith("2 ops")
    out = tmp_path / "toy.json"
    done = subprocess.run([sys.executable, "-m", "volta.testing.conformance", "--backend", "toy",
                           "--ops", "ab*", "--quiet", "--json", str(out)],
                          capture_output=True, text=True, cwd=ROOT, timeout=300)
    assert done.returncode == 0, done.stderr
    assert "2 ops" in done.stdout
    data = json.loads(out.read_text())
    assert data["backend"] == "toy" and {r["op"] for r in data["results"]} == {"abs", "abs_"}


def test_unknown_backend_is_a_clear_error() -> None:
    with pytest.raises(volta.VoltaError, match="unknown device type"):
        run_conformance("nonesuch")
    assert conformance.main(["--backend", "nonesuch", "--quiet"]) == 2


def test_value_errors_are_checked_unless_exempted(scratch_device) -> None:
    def silent_floor_divide(a, b):  # divides by zero like numpy: 0, no error
        a_, b_ = a.cpu().numpy(), b.cpu().numpy() if isinstance(b, volta.Tensor) else b
        volta.broadcast_shapes(a_.shape, np.shape(b_))  # shape errors as the CPU's
        with np.errstate(divide="ignore"):
            return volta.from_numpy(np.array(np.floor_divide(a_, b_))).to("scratch")

    _broken_device("floor_divide", silent_floor_divide)
    checked, = run_conformance("scratch", ops="floor_divide", dtypes=["int64"])
    assert checked.status == "fail" and "zero divisor" in checked.detail
    assert "ZeroDivisionError" in checked.detail
    exempt, = run_conformance("scratch", ops="floor_divide", dtypes=["int64"],
                              value_errors=False)
    assert exempt.status == "pass" and exempt.samples == checked.samples
    # the exemption covers values only: a wrong result for valid input still fails
    floats, = run_conformance("scratch", ops="floor_divide", dtypes=["float32"],
                              value_errors=False)
    assert floats.status == "pass"


def test_an_unchecked_index_fails_unless_value_errors_are_exempted(scratch_device) -> None:
    def wrapping_index_select(x, dim, index):  # reads index % size: no range check
        x_, i_ = x.cpu().numpy(), index.cpu().numpy().reshape(-1) % x.shape[dim]
        return volta.from_numpy(np.array(np.take(x_, i_, axis=dim))).to("scratch")

    _broken_device("index_select", wrapping_index_select)
    checked, = run_conformance("scratch", ops="index_select", dtypes=["float32"])
    assert checked.status == "fail" and "index out of range" in checked.detail
    exempt, = run_conformance("scratch", ops="index_select", dtypes=["float32"],
                              value_errors=False)
    assert exempt.status == "fallback"  # its backward ran through the CPU fallback


def test_a_stored_dtype_the_device_cannot_compute_in_is_unsupported(scratch_device) -> None:
    def float64_less_add(a, b, alpha=1):
        if a.dtype == volta.float64:
            raise volta.errors.DTypeError("add: this device stores float64 but has no float64 "
                                          "arithmetic")
        return volta.from_numpy(np.array(a.cpu().numpy() + alpha * b.cpu().numpy())
                                ).to("scratch")

    _broken_device("add", float64_less_add)
    results = {r.dtype: r for r in run_conformance("scratch", ops="neg",
                                                   dtypes=["float32", "float64"])}
    assert results["float64"].status == "unsupported dtype"
    assert "no float64 arithmetic" in results["float64"].detail
    assert results["float32"].status in ("pass", "fallback")


def test_no_value_errors_on_the_command_line(tmp_path: Path) -> None:
    out = tmp_path / "toy.json"
    done = subprocess.run([sys.executable, "-m", "volta.testing.conformance", "--backend", "toy",
                           "--ops", "fmod", "--dtypes", "int64", "--no-value-errors", "--quiet",
                           "--json", str(out)], capture_output=True, text=True, cwd=ROOT,
                          timeout=300)
    assert done.returncode == 0, done.stderr
    assert json.loads(out.read_text())["results"][0]["status"] in ("pass", "fallback")
