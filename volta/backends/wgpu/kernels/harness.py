"""Run one generated kernel on a raw ``wgpu`` device: for the kernel tests, the autotuner and
the GPU benchmark. The WGPU backend has its own allocator and batched execution; this harness
is deliberately plain (fresh buffers per call, one submit, one readback).
"""

from __future__ import annotations

import functools
import statistics
import time
from collections.abc import Sequence

import numpy as np
import wgpu

from volta.errors import BackendError

_F16_FEATURE = "shader-f16"


def request_device(adapter_name: str | None = None) -> wgpu.GPUDevice:
    """A device on the high-performance adapter (or the first whose name contains
    ``adapter_name``), with the adapter's full limits and shader-f16 when it has it."""
    if adapter_name:
        matches = [a for a in wgpu.gpu.enumerate_adapters_sync()
                   if adapter_name.lower() in a.summary.lower()]
        if not matches:
            raise BackendError(f"no wgpu adapter matches {adapter_name!r}")
        adapter = matches[0]
    else:
        adapter = wgpu.gpu.request_adapter_sync(power_preference="high-performance")
    features = [f for f in (_F16_FEATURE, "timestamp-query") if f in adapter.features]
    return adapter.request_device_sync(required_features=features,
                                       required_limits=dict(adapter.limits))


def adapter_name(device: wgpu.GPUDevice) -> str:
    return device.adapter.summary


def has_f16(device: wgpu.GPUDevice) -> bool:
    return _F16_FEATURE in device.features


def fits(device: wgpu.GPUDevice, threads: int, workgroup_bytes: int) -> bool:
    """Whether a workgroup of ``threads`` invocations and ``workgroup_bytes`` shared memory
    is within the device's limits."""
    limits = device.limits
    return (threads <= limits["max-compute-invocations-per-workgroup"]
            and workgroup_bytes <= limits["max-compute-workgroup-storage-size"])


@functools.lru_cache(maxsize=256)
def _pipeline(device: wgpu.GPUDevice, source: str, entry_point: str) -> wgpu.GPUComputePipeline:
    module = device.create_shader_module(code=source)
    return device.create_compute_pipeline(layout="auto",
                                          compute={"module": module, "entry_point": entry_point})


class Dispatch:
    """One kernel bound to its buffers, ready to be dispatched any number of times.

    ``arrays[i]`` is bound at binding ``i + 1`` (binding 0 is the ``params`` uniform block);
    ``None`` leaves a binding out. The buffer at ``output`` can be read back.
    """

    def __init__(self, device: wgpu.GPUDevice, source: str, entry_point: str, params: bytes,
                 arrays: Sequence[np.ndarray | None], workgroups: tuple[int, int, int],
                 output: int) -> None:
        self.device, self.workgroups = device, workgroups
        self.pipeline = _pipeline(device, source, entry_point)
        usage = (wgpu.BufferUsage.STORAGE | wgpu.BufferUsage.COPY_SRC
                 | wgpu.BufferUsage.COPY_DST)
        uniform = device.create_buffer_with_data(
            data=params, usage=wgpu.BufferUsage.UNIFORM | wgpu.BufferUsage.COPY_DST)
        entries = [{"binding": 0, "resource": {"buffer": uniform, "offset": 0,
                                               "size": len(params)}}]
        self.buffers: dict[int, wgpu.GPUBuffer] = {}
        for index, array in enumerate(arrays):
            if array is None:
                continue
            # round up to 16 bytes: vec4 views of the buffer need whole vec4s
            data = np.ascontiguousarray(array).tobytes()
            data += b"\0" * (-len(data) % 16 if data else 16)
            buffer = device.create_buffer_with_data(data=data, usage=usage)
            self.buffers[index] = buffer
            entries.append({"binding": index + 1,
                            "resource": {"buffer": buffer, "offset": 0, "size": buffer.size}})
        self.output, self.output_like = output, arrays[output]
        # reading a tiny buffer waits for the queue (on_submitted_work_done_sync is broken
        # in wgpu-py 0.32 with wgpu-native)
        self._fence = device.create_buffer(size=16, usage=wgpu.BufferUsage.COPY_SRC)
        self.bind_group = device.create_bind_group(
            layout=self.pipeline.get_bind_group_layout(0), entries=entries)

    def submit(self, repeats: int = 1) -> None:
        """Record ``repeats`` dispatches into one compute pass and submit them."""
        encoder = self.device.create_command_encoder()
        compute_pass = encoder.begin_compute_pass()
        compute_pass.set_pipeline(self.pipeline)
        compute_pass.set_bind_group(0, self.bind_group)
        if all(self.workgroups):
            for _ in range(repeats):
                compute_pass.dispatch_workgroups(*self.workgroups)
        compute_pass.end()
        self.device.queue.submit([encoder.finish()])

    def wait(self) -> None:
        """Block until everything submitted so far has run."""
        self.device.queue.read_buffer(self._fence)

    def read(self) -> np.ndarray:
        like = self.output_like
        assert like is not None
        raw = self.device.queue.read_buffer(self.buffers[self.output])
        return np.frombuffer(raw, dtype=like.dtype)[:like.size].reshape(like.shape).copy()

    def seconds_per_dispatch(self, repeats: int, rounds: int = 3) -> float:
        """Median over ``rounds`` of (wall time of one submit of ``repeats`` dispatches, waited
        for) / ``repeats``. With enough repeats the per-submit cost is amortised away."""
        self.submit(1)
        self.wait()
        times = []
        for _ in range(rounds):
            start = time.perf_counter()
            self.submit(repeats)
            self.wait()
            times.append((time.perf_counter() - start) / repeats)
        return statistics.median(times)
