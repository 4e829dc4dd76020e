"""The caching allocator: reuse, statistics, empty_cache, out-of-memory."""

from __future__ import annotations

import gc

import pytest
from hypothesis import HealthCheck, given, settings

import volta
from tests.ops.test_memory_layouts import build, layouts
from volta.backends.wgpu import runtime


def test_freed_storage_is_reused_without_a_new_buffer(wgpu: str) -> None:
    a = volta.ones(1000, device=wgpu)
    volta.wgpu.synchronize()
    del a
    gc.collect()
    volta.wgpu.synchronize()  # frees join the pool once their batch is submitted
    before = volta.wgpu.memory_stats()
    b = volta.ones(990, device=wgpu)  # the same size class (3841-4096 bytes)
    after = volta.wgpu.memory_stats()
    assert after["device_allocations"] == before["device_allocations"]
    assert after["cache_hits"] == before["cache_hits"] + 1
    assert b.cpu().numpy().tolist() == [1.0] * 990  # the reused buffer holds the new data


def test_stats_track_live_and_cached_bytes(wgpu: str) -> None:
    volta.wgpu.synchronize()
    base = volta.wgpu.memory_stats()
    t = volta.zeros(4096, device=wgpu)  # 16 KiB: its own size class
    live = volta.wgpu.memory_stats()
    assert live["allocated_bytes"] - base["allocated_bytes"] == 16384
    assert live["requested_bytes"] - base["requested_bytes"] == 16384
    assert live["peak_allocated_bytes"] >= live["allocated_bytes"]
    del t
    gc.collect()
    volta.wgpu.synchronize()
    freed = volta.wgpu.memory_stats()
    assert freed["allocated_bytes"] == base["allocated_bytes"]
    assert freed["cached_bytes"] >= 16384
    volta.wgpu.empty_cache()
    assert volta.wgpu.memory_stats()["cached_bytes"] == 0


def test_size_classes_round_up_by_at_most_a_quarter() -> None:
    from volta.backends.wgpu.allocator import size_class
    for n in (1, 255, 256, 257, 4000, 4097, 10_000, 1 << 20, (1 << 20) + 1, 3 * (1 << 27)):
        c = size_class(n)
        assert c >= n and c % 256 == 0
        assert c <= max(256, n * 1.25 + 256)


def test_allocation_beyond_the_device_raises_out_of_memory_after_retry(wgpu: str) -> None:
    before = volta.wgpu.memory_stats()["oom_retries"]
    allocator = runtime.get(0).allocator
    limit = runtime.get(0).limits["max-buffer-size"]
    with pytest.raises(volta.DeviceOutOfMemoryError, match="out of memory"):
        allocator.allocate(limit + 1)
    assert volta.wgpu.memory_stats()["oom_retries"] == before + 1
    assert isinstance(volta.DeviceOutOfMemoryError("x"), volta.VoltaError)
    # the device still works afterwards
    assert volta.ones(3, device=wgpu).sum().item() == 3


def test_a_lost_device_raises_a_clear_error_and_the_cpu_keeps_working(wgpu: str) -> None:
    import numpy as np
    # a private runtime on the same adapter, so the session's device stays usable
    rt = runtime.Runtime(99, runtime._adapters()[0])
    handle = rt.allocator.allocate(64)
    rt.upload(handle, np.arange(16, dtype=np.float32))
    assert rt.read(handle, 64).view(np.float32).tolist() == list(range(16))
    rt.device.destroy()
    with pytest.raises(volta.DeviceError, match="lost"):
        rt.upload(handle, np.zeros(16, dtype=np.float32))
    with pytest.raises(volta.DeviceError, match="was lost"):
        rt.read(handle, 64)
    assert (volta.ones(2) * 3).tolist() == [3.0, 3.0]
    assert volta.ones(2, device=wgpu).sum().item() == 2


def test_a_storage_dying_in_a_reference_cycle_is_pooled_intact(wgpu: str) -> None:
    """The cyclic garbage collector runs the finalizers of everything only the cycle reaches:
    the allocator keeps its buffers reachable, so the pooled buffer is still a live one."""
    class Cycle:
        pass

    holder = Cycle()
    holder.me = holder  # type: ignore[attr-defined]
    holder.tensor = volta.ones(1000, device=wgpu) * 2  # type: ignore[attr-defined]
    volta.wgpu.synchronize()
    del holder
    gc.collect()
    volta.wgpu.synchronize()  # the freed buffer goes back to its pool
    again = volta.ones(1000, device=wgpu) * 3  # takes that buffer
    assert again.cpu().numpy().sum() == 3000


def test_moves_between_devices_keep_a_dense_layout(wgpu: str) -> None:
    # .to(device) defaults to preserve_format: a channels-last weight stays channels-last
    import torch

    for make in (lambda a: a[:6].reshape(3, 2).t(),
                 lambda a: a.reshape(2, 3, 4, 5).permute(0, 2, 3, 1),
                 lambda a: a[:12].reshape(3, 4)[:, ::2]):
        host = make(volta.arange(120.0))
        expected = make(torch.arange(120.0)).clone().stride()
        moved = host.to(wgpu)
        assert moved.stride() == expected and moved.to(volta.float16).stride() == expected
        back = moved.cpu()
        assert back.stride() == expected and back.tolist() == host.tolist()


@settings(max_examples=25, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(layout=layouts())
def test_copies_on_the_device_get_pytorchs_strides(wgpu: str, layout: tuple) -> None:
    # the property of tests/ops/test_memory_layouts.py for the WGPU kernels and for moves
    import torch

    source, expected = build(volta, layout, device=wgpu), build(torch, layout).clone()
    for copy in (source.clone(), source.to(volta.int32), volta.zeros_like(source),
                 source.cpu(), source.cpu().to(wgpu)):
        assert copy.stride() == expected.stride(), layout
    assert source.clone().cpu().tolist() == expected.tolist()
