"""``python -m volta``: plugins, ops (coverage matrix), explain (dispatch chain), doctor."""

from __future__ import annotations

import io
import subprocess
import sys
import uuid
from pathlib import Path

import pytest
import tomllib

import volta
from volta.backend import BACKENDS
from volta.cli import main
from volta.dispatch.coverage import coverage

ROOT = Path(__file__).resolve().parents[2]


def run(*argv: str) -> tuple[int, str]:
    out = io.StringIO()
    status = main(list(argv), out=out)
    return status, out.getvalue()


def test_console_script_and_module_entry_point() -> None:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    assert project["scripts"]["volta"] == "volta.cli:main"
    done = subprocess.run([sys.executable, "-m", "volta", "ops", "--backend", "CPU", "add*"],
                          capture_output=True, text=True, cwd=ROOT, timeout=120)
    assert done.returncode == 0, done.stderr
    assert "\nadd  " in done.stdout and "CPU:" in done.stdout


def test_plugins_lists_each_plugin_with_what_it_registered() -> None:
    status, text = run("plugins")
    assert status == 0
    assert "cpu " in text and "internal" in text
    assert "example_ext" in text and "volta-example-ext" in text
    cpu_kernels = sum(1 for line in next(r for r in volta.plugins.status()
                                         if r.name == "cpu").registered
                      if line.startswith("kernel"))
    assert f"registered: {cpu_kernels} kernels" in text
    _, verbose = run("plugins", "--verbose")
    assert "kernel example::swiglu [TOY]" in verbose


def test_plugins_reports_a_failed_plugin_and_doctor_fails() -> None:
    class Broken:
        @volta.plugins.hookimpl
        def volta_define_ops(self, library: volta.library.Library) -> None:
            raise KeyError("deliberate fault")

    name = f"broken_cli_{uuid.uuid4().hex[:8]}"
    with volta.library.scoped():
        with pytest.warns(RuntimeWarning):
            volta.plugins.register(Broken(), name=name)
        status, text = run("plugins", "--verbose")
        assert status == 0
        assert f"{name}" in text and "failed" in text and "deliberate fault" in text
        assert "Traceback" in text
        status, text = run("doctor")
        assert status == 1
        assert f"plugin {name}: volta_define_ops: KeyError" in text


def test_ops_matrix_statuses_follow_the_dispatcher(scratch_device) -> None:
    lib = volta.library.Library("clitest")
    lib.define("clitest::twice(Tensor x) -> Tensor")
    lib.impl("clitest::twice", "CPU", lambda x: x * 2)
    rows = {row.op: row for row in coverage(["CPU", "SCRATCH"])}
    assert rows["clitest::twice"].cells == {"CPU": "kernel", "SCRATCH": "cpu-fallback"}
    assert rows["clitest::twice"].namespace == "clitest"
    assert rows["conv2d"].cells["SCRATCH"] == "composite"
    status, text = run("ops", "--backend", "CPU,SCRATCH", "--namespace", "clitest")
    assert status == 0
    assert "clitest::twice" in text and "1 ops" in text
    assert "SCRATCH: 0/1 (0.0%) run on the device; 1 cpu-fallback" in text
    volta.dispatch.set_cpu_fallback(False)
    try:
        assert coverage(["SCRATCH"])[0].cells["SCRATCH"] in ("composite", "missing")
        _, text = run("ops", "--backend", "SCRATCH", "--status", "missing", "clitest::*")
        assert "clitest::twice" in text and "1 missing" in text
    finally:
        volta.dispatch.set_cpu_fallback(True)


def test_ops_markdown_and_whole_core_runs_on_cpu() -> None:
    status, text = run("ops", "--backend", "CPU", "--namespace", "volta", "--markdown")
    assert status == 0
    assert text.startswith("| op | autograd | CPU |\n|---|---|---|\n")
    rows = [row for row in coverage(["CPU"]) if row.namespace == "volta"]
    assert all(row.cells["CPU"] in ("kernel", "composite") for row in rows)
    assert f"* CPU: {len(rows)}/{len(rows)} (100.0%)" in text


def test_ops_rejects_an_unknown_backend(capsys) -> None:
    status, _ = run("ops", "--backend", "NOPE")
    assert status == 2
    assert "no backend dispatch key named NOPE" in capsys.readouterr().err


def test_explain_prints_the_whole_chain_with_provenance() -> None:
    status, text = run("explain", "add", "--requires-grad")
    assert status == 0
    chain = text.split("chain:")[1]
    assert "1. Autograd   kernel" in chain and "ops.yaml formulas" in chain
    assert "redispatches below Autograd" in chain
    # the CPU kernel: the compiled float32 front (volta.backends.cpu.elementwise) of the numpy one
    assert "2. CPU        kernel" in chain and "volta.backends.cpu.elementwise.add" in chain
    _, text = run("explain", "add")
    assert "Autograd" not in text.split("chain:")[1]


def test_explain_plugin_op_on_the_plugin_device() -> None:
    status, text = run("explain", "example::swiglu", "--device", "toy", "--requires-grad")
    assert status == 0
    assert "toy_swiglu" in text and "example_ext" in text
    _, text = run("explain", "example::scaled_add", "--device", "toy")
    assert "TOY        cpu-fallback" in text


def test_explain_matches_volta_dispatch_explain() -> None:
    x = volta.ones(3, requires_grad=True)
    explanation = volta.dispatch.explain(volta.mul, x, x)
    assert [step.key for step in explanation.chain] == ["Autograd", "CPU"]
    assert explanation.chain[0].provenance == explanation.provenance
    _, text = run("explain", "mul", "--requires-grad")
    assert str(explanation).split("chain:")[1] in text
    with volta.no_grad():
        assert [s.key for s in volta.dispatch.explain(volta.mul, x, x).chain] == ["CPU"]
    assert "composite" in str(volta.dispatch.explain(volta.nn.functional.conv2d,
                                                      volta.ones(1, 1, 3, 3),
                                                      volta.ones(1, 1, 1, 1)))


def test_explain_unknown_op_or_dtype(capsys) -> None:
    assert run("explain", "convv2d")[0] == 2
    assert "no operator named 'convv2d'" in capsys.readouterr().err
    assert run("explain", "add", "--dtype", "float99")[0] == 2
    assert "unknown dtype" in capsys.readouterr().err


def test_doctor_reports_versions_backends_and_smoke_tests() -> None:
    status, text = run("doctor")
    assert status == 0, text
    assert "numpy" in text and "pluggy" in text and "safetensors" in text
    for name in BACKENDS.names():
        assert f"  {name} (key " in text
    assert text.count("smoke test: ok") == len(BACKENDS.names())
    assert "blas:" in text and text.rstrip().endswith("no problems found")


@pytest.mark.filterwarnings("ignore:.*has no SCRATCH kernel")
def test_doctor_reports_a_backend_that_cannot_work(scratch_device) -> None:
    class Unavailable(type(scratch_device.impl)):
        def diagnose(self) -> dict[str, str]:
            raise volta.errors.BackendError("no adapter found")

    with volta.library.scoped():
        BACKENDS.register("nodev", Unavailable(), key_name="NODEV", provenance="test")
        status, text = run("doctor")
    assert status == 1
    assert "backend nodev: BackendError: no adapter found" in text
    # the scratch device has no kernels but the CPU fallback makes the smoke test pass
    assert "scratch (key SCRATCH" in text
