"""Conformance in CI (issue 11, part 3): the kit over every op on the real backends.

Every operator of the sample database and every plugin op, in every dtype, on ``numba`` (the
volta-numba package, installed by ``make test``) and on ``wgpu`` (lavapipe, the software Vulkan
driver, in CI), through the kit's pytest entry: one test case per (op, dtype), so
``pytest -n 2`` spreads them over both cores. ``fallback`` and ``unsupported dtype`` pass; a
``fail`` fails its case with the kit's detail.

``wgpu`` runs without value errors (``value_errors=False``, the command's
``--no-value-errors``): an integer zero divisor or an index computed on the device is only
seen by reading the device back, which would cost a synchronisation per kernel. Its shape and
dtype errors, and value errors it does detect on the host (index tensors whose range the host
knows), are checked as everywhere.
"""

from __future__ import annotations

from volta.testing import conformance
from volta.testing.conformance import run_conformance

test_numba_conformance = conformance.pytest_test("numba")
test_wgpu_conformance = conformance.pytest_test("wgpu", value_errors=False)


def test_numba_runs_its_own_kernels_and_checks_value_errors() -> None:
    results = {(r.op, r.dtype): r for r in run_conformance(
        "numba", ops="add,matmul,softmax,sum,exp,floor_divide,fmod,conv2d")}
    # the plugin's own kernels pass; half types are not declared by the numba device
    assert results[("add", "float32")].status == results[("matmul", "float64")].status == "pass"
    assert results[("softmax", "float32")].status == results[("sum", "int64")].status == "pass"
    assert results[("exp", "float16")].status == "unsupported dtype"
    assert results[("conv2d", "float32")].status == "fallback"  # no numba convolution
    # the integer divisions ran a zero divisor too, and numba raised like the CPU
    assert results[("floor_divide", "int64")].status == "pass"
    assert results[("fmod", "int32")].samples > results[("fmod", "float32")].samples


def test_wgpu_float16_is_unsupported_only_without_shader_f16() -> None:
    from volta.backends.wgpu import runtime

    result, = run_conformance("wgpu", ops="add", dtypes=["float16"])
    if "shader-f16" in runtime.get().features:
        assert result.status == "pass"
    else:
        assert result.status == "unsupported dtype" and "shader-f16" in result.detail
