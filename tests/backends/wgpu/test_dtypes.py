"""Which dtypes live on the device, and the errors for the others."""

from __future__ import annotations

import numpy as np
import pytest

import volta


@pytest.mark.parametrize("dtype", [volta.float64, volta.int8, volta.uint8, volta.int16,
                                   volta.bfloat16])
def test_unsupported_dtype_is_a_clear_error_naming_it(wgpu: str, dtype: volta.dtype) -> None:
    with pytest.raises(volta.DTypeError, match=dtype.name):
        volta.zeros(3, dtype=dtype).to(wgpu)
    x = volta.zeros(3, device=wgpu)
    with pytest.raises(volta.DTypeError, match=dtype.name):
        x.to(dtype)


@pytest.mark.parametrize("dtype", [volta.float32, volta.int32, volta.int64, volta.bool])
def test_supported_dtypes_round_trip(wgpu: str, dtype: volta.dtype) -> None:
    values = np.array([0, 1, -3, 7], dtype=np.float32) if dtype is not volta.bool \
        else np.array([True, False, True, True])
    t = volta.tensor(values).to(dtype)
    moved = t.to(wgpu)
    assert moved.dtype == dtype
    back = moved.to("cpu")
    np.testing.assert_array_equal(back.numpy(), t.numpy())


def test_int64_is_range_checked(wgpu: str) -> None:
    with pytest.raises(volta.NumericOverflowError, match="32-bit"):
        volta.tensor([2**40], device=wgpu)
    assert volta.tensor([2**31 - 1, -2**31], device=wgpu).tolist() == [2**31 - 1, -2**31]


def test_casts_on_the_device_match_the_cpu(wgpu: str) -> None:
    x = volta.tensor([-2.7, -0.5, 0.0, 0.4, 3.9])
    for dtype in (volta.int32, volta.int64, volta.bool):
        np.testing.assert_array_equal(x.to(wgpu).to(dtype).cpu().numpy(), x.to(dtype).numpy())
    b = volta.tensor([True, False])
    np.testing.assert_array_equal(b.to(wgpu).float().cpu().numpy(), b.float().numpy())


def test_cpu_keeps_working_without_an_adapter(monkeypatch: pytest.MonkeyPatch) -> None:
    from volta.backends.wgpu import runtime
    monkeypatch.setenv("VOLTA_WGPU_ADAPTER", "no adapter has this name")
    monkeypatch.setattr(runtime, "_RUNTIMES", {})
    with pytest.raises(volta.DeviceError, match="no such WebGPU adapter"):
        volta.ones(2, device="wgpu")
    assert (volta.ones(2) + 1).tolist() == [2.0, 2.0]


def test_float16_computes_in_float32_and_stores_half(wgpu: str) -> None:
    values = np.array([[1.5, 2.25, -3.0], [0.1, 600.0, -0.5]], dtype=np.float16)
    cpu = volta.tensor(values)
    gpu = cpu.to(wgpu)  # storing half needs no feature
    np.testing.assert_array_equal(gpu.cpu().numpy(), values)
    if "shader-f16" not in volta.wgpu.features():  # Mesa's OpenGL adapter: a clear error
        with pytest.raises(volta.DTypeError, match="shader-f16"):
            (gpu * 2).cpu()
        return
    for fn in (lambda t: t * 2 + 1, lambda t: t.T.exp(), lambda t: t.sum(1),
               lambda t: t.float(), lambda t: volta.softmax(t, 1)):
        got, want = fn(gpu), fn(cpu)
        assert got.dtype == want.dtype
        np.testing.assert_allclose(got.cpu().numpy().astype(np.float32),
                                   want.numpy().astype(np.float32), rtol=1e-3)
