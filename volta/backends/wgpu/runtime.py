"""One WebGPU device and its execution engine: adapter choice, cached pipelines and bind groups,
the uniform ring, batched submission, readback. The API kernels are written against.

Writing a kernel (see also ``volta/backends/wgpu/README.md``)::

    rt = runtime.get(index)                    # or tensors.runtime_of(tensor)
    k = rt.kernel(source, writable=(True, False, False))
    rt.dispatch(k, [out_handle, a_handle, b_handle], params, groups=(gx, gy, 1))

* ``source`` is WGSL with entry point ``main`` (or ``entry=``). Binding 0 of group 0 is the
  per-dispatch parameter block: ``PARAMS_WGSL`` declares it as ``P`` (64 32-bit words read with
  ``pu(i)`` / ``pi(i)`` / ``pf(i)``). Bindings 1..n are the storage buffers, in the order of
  ``handles``; ``writable[i]`` says whether binding i+1 is ``read_write`` (else ``read``).
  A handle that appears twice is an error: alias it in the shader instead (bind it once).
* ``params``: up to 64 words (a numpy ``uint32`` array, or ``int``/``float`` values packed by
  :func:`pack`). They are copied into this batch's uniform ring; nothing is allocated per op.
* The pipeline is cached by (source, entry, writable); the bind group by the buffers bound.
  The dispatch is recorded into the open compute pass and submitted with its batch: on a read,
  on ``synchronize()``, or when the batch is full. Everything happens under ``rt.lock``.
"""

from __future__ import annotations

import contextlib
import os
import struct
import threading
from collections.abc import Iterator, Sequence
from typing import Any, NoReturn

import numpy as np

from volta.backends.wgpu.allocator import CachingAllocator, Handle
from volta.errors import DeviceError, DTypeError, VoltaError

PARAM_WORDS = 64
PARAM_BYTES = PARAM_WORDS * 4
MAX_BATCH = 1024  # dispatches per submission (also the uniform ring's slots)
WORKGROUP = 256  # threads per workgroup of the 1-D kernels
MAX_GROUPS_X = 65535

#: Declares the parameter block every kernel reads (binding 0 of group 0).
PARAMS_WGSL = """struct Params { w: array<vec4<u32>, 16> };
@group(0) @binding(0) var<uniform> P: Params;
fn pu(i: u32) -> u32 { return P.w[i >> 2u][i & 3u]; }
fn pi(i: u32) -> i32 { return bitcast<i32>(pu(i)); }
fn pf(i: u32) -> f32 { return bitcast<f32>(pu(i)); }
"""

OPTIONAL_FEATURES = ("shader-f16", "subgroup", "timestamp-query")

_RUNTIMES: dict[int, Runtime] = {}
# the fast path for parameters given as a list of unsigned 32-bit words
_WORD_STRUCTS = {n: struct.Struct(f"<{n}I") for n in range(PARAM_WORDS + 1)}
_RUNTIMES_LOCK = threading.Lock()


def pack(values: Sequence[Any]) -> np.ndarray:
    """Parameter words: ints as 32-bit integers (signed or not), floats as float32 bits."""
    words = np.zeros(len(values), dtype=np.uint32)
    for i, v in enumerate(values):
        if isinstance(v, (float, np.floating)):
            words[i] = np.array(v, dtype=np.float32).view(np.uint32)
        else:
            words[i] = int(v) & 0xFFFFFFFF
    return words


def groups_for(n: int) -> tuple[int, int, int]:
    """A 2-D grid of WORKGROUP-thread groups covering ``n`` threads (thread id:
    ``gid.x + gid.y * nwg.x * WORKGROUP``)."""
    groups = max(1, -(-n // WORKGROUP))
    if groups <= MAX_GROUPS_X:
        return groups, 1, 1
    return MAX_GROUPS_X, -(-groups // MAX_GROUPS_X), 1


def _adapters() -> list[Any]:
    """Adapters in preference order: high-performance first (discrete, integrated, then
    software), Vulkan/Metal/D3D12 before OpenGL; ``VOLTA_WGPU_ADAPTER`` keeps those whose
    name contains it (case-insensitive)."""
    try:
        import wgpu
    except ImportError as exc:
        raise DeviceError(f"the wgpu device needs the 'wgpu' package: {exc}") from None
    try:
        found = list(wgpu.gpu.enumerate_adapters_sync())
    except Exception as exc:  # the native library raises its own error kinds
        raise DeviceError(f"wgpu: could not enumerate adapters: {exc}") from None
    wanted = os.environ.get("VOLTA_WGPU_ADAPTER", "").lower()
    if wanted:
        found = [a for a in found if wanted in _name(a).lower()]
    kind_rank = {"DiscreteGPU": 0, "IntegratedGPU": 1, "VirtualGPU": 2, "CPU": 3}
    found.sort(key=lambda a: (kind_rank.get(a.info.get("adapter_type", ""), 4),
                              a.info.get("backend_type", "") == "OpenGL"))
    return found


def _name(adapter: Any) -> str:
    info = adapter.info
    return f"{info.get('device', '?')} / {info.get('backend_type', '?')} / " \
           f"{info.get('adapter_type', '?')}"


def get(index: int = 0) -> Runtime:
    """The runtime of device ``wgpu:index``, created on first use."""
    rt = _RUNTIMES.get(index)
    if rt is not None:
        return rt
    with _RUNTIMES_LOCK:
        if index not in _RUNTIMES:
            adapters = _adapters()
            if index >= len(adapters):
                wanted = os.environ.get("VOLTA_WGPU_ADAPTER")
                raise DeviceError(
                    f"wgpu:{index}: no such WebGPU adapter ({len(adapters)} found"
                    + (f" matching VOLTA_WGPU_ADAPTER={wanted!r}" if wanted else "")
                    + "); install a Vulkan/Metal/D3D12 driver (on Linux without a GPU: "
                      "Mesa's lavapipe, package mesa-vulkan-drivers)")
            _RUNTIMES[index] = Runtime(index, adapters[index])
        return _RUNTIMES[index]


def existing() -> list[Runtime]:
    """The runtimes created so far (nothing is created)."""
    return list(_RUNTIMES.values())


def device_count() -> int:
    try:
        return len(_adapters())
    except DeviceError:
        return 0


class Kernel:
    """A compiled compute pipeline and the bind group layout it was built with."""

    __slots__ = ("pipeline", "layout", "writable")

    def __init__(self, pipeline: Any, layout: Any, writable: tuple[bool, ...]) -> None:
        self.pipeline = pipeline
        self.layout = layout
        self.writable = writable


def _native_calls() -> tuple[Any, Any] | None:
    """wgpu-native's ``(ffi, lib)`` as wgpu-py loads them, or None (another backend, or a
    wgpu-py whose layout differs: the recorder then uses the public methods)."""
    try:
        from wgpu.backends.wgpu_native import _ffi
        lib = _ffi.lib
        for name in ("wgpuComputePassEncoderSetPipeline", "wgpuComputePassEncoderSetBindGroup",
                     "wgpuComputePassEncoderDispatchWorkgroups"):
            getattr(lib, name)
        return _ffi.ffi, lib
    except (ImportError, AttributeError):
        return None


_NATIVE = _native_calls()


class _PassRecorder:
    """Records dispatches into one open compute pass, cheaply: the pipeline is set only when
    it changes, and with wgpu-native the three commands call its C functions directly.

    Why that is safe: wgpu-py's wrappers only add per-call error capture, and recording
    commands reports no errors (a bad command invalidates the encoder, whose ``finish()`` —
    called through wgpu-py — raises it)."""

    __slots__ = ("compute_pass", "native", "pass_id", "offsets", "pipeline", "set_pipeline",
                 "set_bind_group", "dispatch")

    def __init__(self, compute_pass: Any) -> None:
        self.compute_pass = compute_pass
        self.pipeline: Any = None
        internal = getattr(compute_pass, "_internal", None)
        self.native = _NATIVE is not None and internal is not None
        if self.native:
            ffi, lib = _NATIVE
            self.pass_id = internal
            self.offsets = ffi.new("uint32_t[1]")  # wgpu-native copies it into the command
            self.set_pipeline = lib.wgpuComputePassEncoderSetPipeline
            self.set_bind_group = lib.wgpuComputePassEncoderSetBindGroup
            self.dispatch = lib.wgpuComputePassEncoderDispatchWorkgroups

    def record(self, pipeline: Any, group: Any, offset: int, groups: tuple[int, int, int]) -> None:
        if not self.native:
            compute_pass = self.compute_pass
            if pipeline is not self.pipeline:
                compute_pass.set_pipeline(pipeline)
                self.pipeline = pipeline
            compute_pass.set_bind_group(0, group, [offset])
            compute_pass.dispatch_workgroups(*groups)
            return
        if pipeline is not self.pipeline:
            self.set_pipeline(self.pass_id, pipeline._internal)
            self.pipeline = pipeline
        self.offsets[0] = offset
        self.set_bind_group(self.pass_id, 0, group._internal, 1, self.offsets)
        self.dispatch(self.pass_id, groups[0], groups[1], groups[2])


class Runtime:
    """A device, its queue, allocator and the batch being recorded (see the module docstring)."""

    def __init__(self, index: int, adapter: Any) -> None:
        import wgpu
        self._wgpu = wgpu
        self.index = index
        self.name = f"wgpu:{index} ({_name(adapter)})"
        self.adapter = adapter
        self.features = frozenset(f for f in OPTIONAL_FEATURES if f in adapter.features)
        try:
            self.device = adapter.request_device_sync(required_features=sorted(self.features),
                                                      required_limits=dict(adapter.limits))
        except Exception as exc:
            raise DeviceError(f"{self.name}: could not create the device: {exc}") from None
        self.limits = dict(self.device.limits)
        self.queue = self.device.queue
        self.lock = threading.RLock()
        self.lost: str | None = None
        usage = wgpu.BufferUsage.STORAGE | wgpu.BufferUsage.COPY_SRC | wgpu.BufferUsage.COPY_DST
        self.allocator = CachingAllocator(self, usage, self.limits["max-buffer-size"])
        self.counters = dict(submits=0, readbacks=0, dispatches=0, uploads=0, pipelines=0,
                             bind_groups=0)
        self._kernels: dict[tuple, Kernel] = {}
        self._layouts: dict[tuple[bool, ...], Any] = {}
        self._bind_groups: dict[tuple, Any] = {}
        self._bind_groups_of: dict[int, list[tuple]] = {}  # buffer id -> cache keys using it
        align = max(self.limits["min-uniform-buffer-offset-alignment"], PARAM_BYTES)
        self._slot = -(-PARAM_BYTES // align) * align
        self._ring = self.device.create_buffer(
            size=self._slot * MAX_BATCH,
            usage=wgpu.BufferUsage.UNIFORM | wgpu.BufferUsage.COPY_DST)
        # the ring's host copy, as bytes (for struct.pack_into) and as words (for numpy)
        self._ring_bytes = bytearray(self._slot * MAX_BATCH)
        self._ring_host = np.frombuffer(self._ring_bytes, dtype=np.uint32)
        self._readback: Any = None  # a MAP_READ staging buffer, grown as needed
        self._fence = self.device.create_buffer(size=16, usage=wgpu.BufferUsage.COPY_SRC)
        self.batch_id = 0
        self._encoder: Any = None
        self._pass: Any = None
        self._pending = 0  # dispatches in the open batch
        self._recorder: _PassRecorder | None = None  # records into the open compute pass

    # -- compiling -----------------------------------------------------------------------------

    def kernel(self, source: str, writable: Sequence[bool], entry: str = "main") -> Kernel:
        """The cached pipeline for ``source`` (see the module docstring)."""
        writable = tuple(bool(w) for w in writable)
        key = (source, entry, writable)
        k = self._kernels.get(key)
        if k is not None:
            return k
        with self.lock, self._guard():
            self._check()
            k = self._kernels.get(key)
            if k is None:
                layout = self._layout(writable)
                try:
                    module = self.device.create_shader_module(code=source)
                    pipeline = self.device.create_compute_pipeline(
                        layout=self.device.create_pipeline_layout(bind_group_layouts=[layout]),
                        compute={"module": module, "entry_point": entry})
                except Exception as exc:
                    raise DeviceError(f"{self.name}: a WGSL kernel failed to compile: {exc}\n"
                                      f"--- source ---\n{source}") from None
                k = self._kernels[key] = Kernel(pipeline, layout, writable)
                self.counters["pipelines"] += 1
            return k

    def _layout(self, writable: tuple[bool, ...]) -> Any:
        layout = self._layouts.get(writable)
        if layout is None:
            wgpu = self._wgpu
            entries = [{"binding": 0, "visibility": wgpu.ShaderStage.COMPUTE,
                        "buffer": {"type": wgpu.BufferBindingType.uniform,
                                   "has_dynamic_offset": True,
                                   "min_binding_size": PARAM_BYTES}}]
            for i, w in enumerate(writable):
                kind = wgpu.BufferBindingType.storage if w else \
                    wgpu.BufferBindingType.read_only_storage
                entries.append({"binding": i + 1, "visibility": wgpu.ShaderStage.COMPUTE,
                                "buffer": {"type": kind}})
            layout = self._layouts[writable] = self.device.create_bind_group_layout(
                entries=entries)
        return layout

    def _new_bind_group(self, kernel: Kernel, handles: Sequence[Handle], buffers: list[Any],
                        key: tuple) -> Any:
        """Create and cache the bind group of ``kernel`` over ``buffers`` (``dispatch`` looked
        ``key`` up and missed)."""
        entries = [{"binding": 0, "resource": {"buffer": self._ring, "offset": 0,
                                               "size": PARAM_BYTES}}]
        for i, (h, buf) in enumerate(zip(handles, buffers, strict=True)):
            entries.append({"binding": i + 1,
                            "resource": {"buffer": buf, "offset": 0, "size": h.mem.size}})
        group = self.device.create_bind_group(layout=kernel.layout, entries=entries)
        # the entry keeps its buffers alive, so their ids cannot be reused by new buffers
        # while the key exists (forget_buffer drops it before a buffer is destroyed)
        self._bind_groups[key] = (group, buffers)
        for buf in buffers:
            self._bind_groups_of.setdefault(id(buf), []).append(key)
        self.counters["bind_groups"] += 1
        return group

    def forget_buffer(self, buffer: Any) -> None:
        """Drop the cached bind groups that bind ``buffer`` (it is about to be destroyed)."""
        for key in self._bind_groups_of.pop(id(buffer), ()):
            self._bind_groups.pop(key, None)

    # -- recording and submitting ----------------------------------------------------------------

    def dispatch(self, kernel: Kernel, handles: Sequence[Handle], params: Any,
                 groups: tuple[int, int, int]) -> None:
        """Record one dispatch of ``kernel`` into the open batch (see the module docstring)."""
        packer = None  # a list of u32 words goes straight into the ring, without numpy
        if isinstance(params, np.ndarray):
            words, count = params, params.size
        else:
            count = len(params)
            packer = _WORD_STRUCTS.get(count)
            words = None if packer is not None else pack(params)
        if count > PARAM_WORDS:
            raise DeviceError(f"a kernel's parameter block holds {PARAM_WORDS} words, "
                              f"got {count}")
        with self.lock:
            if self.lost is not None:
                self._check()
            try:  # _guard's work, inline: a generator context manager per op costs too much
                if self._pending >= MAX_BATCH:
                    self.flush()
                slot = self._pending * self._slot
                if packer is not None:
                    try:
                        packer.pack_into(self._ring_bytes, slot, *params)
                    except struct.error:  # floats or negative ints: pack() converts them
                        words = pack(params)
                if words is not None:
                    self._ring_host[slot >> 2: (slot >> 2) + count] = words
                buffers = [h.mem.buffer for h in handles]
                key = (kernel.writable, *map(id, buffers))  # the bind group cache's key
                cached = self._bind_groups.get(key)
                group = cached[0] if cached is not None else self._new_bind_group(
                    kernel, handles, buffers, key)
                recorder = self._recorder if self._pass is not None else self._open_recorder()
                recorder.record(kernel.pipeline, group, slot, groups)
            except VoltaError:
                raise
            except Exception as exc:
                self._fail(exc)
            batch = self.batch_id
            for h, writes in zip(handles, kernel.writable):  # bind group: the same length
                h.mem.last_batch = batch
                if writes:
                    h.value_range = None
            self._pending += 1
            self.counters["dispatches"] += 1

    def _open_recorder(self) -> _PassRecorder:
        self._recorder = _PassRecorder(self._open_pass())
        return self._recorder

    def _open_pass(self) -> Any:
        if self._encoder is None:
            self._encoder = self.device.create_command_encoder()
        if self._pass is None:
            self._pass = self._encoder.begin_compute_pass()
        return self._pass

    def _end_pass(self) -> Any:
        """The open encoder, with no compute pass open (for copy commands)."""
        if self._pass is not None:
            self._pass.end()
            self._pass = None
        if self._encoder is None:
            self._encoder = self.device.create_command_encoder()
        return self._encoder

    def flush(self) -> None:
        """Submit the recorded batch (no wait). A no-op when nothing is recorded."""
        with self.lock, self._guard():
            if self._encoder is None:
                self.allocator.retire()
                return
            encoder = self._end_pass()
            if self._pending:
                self.queue.write_buffer(self._ring, 0, self._ring_host[: self._pending *
                                                                        self._slot // 4])
            self._encoder = None
            self._pending = 0
            self._submit(encoder.finish())
            self.batch_id += 1
            self.allocator.retire()

    def _submit(self, command_buffer: Any) -> None:
        self.queue.submit([command_buffer])
        self.counters["submits"] += 1

    def synchronize(self) -> None:
        """Submit the batch and wait until the device has finished all queued work."""
        with self.lock, self._guard():
            self._check()
            # mapping a buffer waits for all work submitted before it (wgpu-py's
            # on_submitted_work_done_sync is broken in 0.32), so copy 4 bytes and map them
            self._map_after(self._fence, 4)

    # -- moving data ---------------------------------------------------------------------------

    def upload(self, handle: Handle, data: np.ndarray) -> None:
        """Host to device: write ``data``'s bytes at the start of ``handle``'s buffer, after the
        recorded work that uses the buffer (Note [deferred free] in allocator.py)."""
        with self.lock, self._guard():
            self._check()
            if handle.mem.last_batch == self.batch_id and self._encoder is not None:
                self.flush()  # the open batch reads or writes this buffer: keep the order
            raw = np.ascontiguousarray(data).view(np.uint8).reshape(-1)
            if raw.size % 4:
                raw = np.concatenate([raw, np.zeros(4 - raw.size % 4, dtype=np.uint8)])
            if raw.size:
                self.queue.write_buffer(handle.mem.buffer, 0, raw)
            self.counters["uploads"] += 1

    def read(self, handle: Handle, nbytes: int) -> np.ndarray:
        """Device to host: the first ``nbytes`` of ``handle``'s buffer, after all recorded work.
        One submission (the batch plus the copy) and one map."""
        if nbytes == 0:
            return np.empty(0, dtype=np.uint8)
        size = -(-nbytes // 4) * 4
        with self.lock, self._guard():
            self._check()
            data = self._map_after(handle.mem.buffer, size)[:nbytes]
            self.counters["readbacks"] += 1
            return data

    def _map_after(self, buffer: Any, size: int) -> np.ndarray:
        """Copy ``size`` bytes of ``buffer`` to the staging buffer at the end of the batch,
        submit, and map them (which waits for the whole batch)."""
        staging = self._staging(size)
        self._end_pass().copy_buffer_to_buffer(buffer, 0, staging, 0, size)
        self.flush()
        staging.map_sync(self._wgpu.MapMode.READ, 0, size)
        data = np.frombuffer(staging.read_mapped(0, size), dtype=np.uint8).copy()
        staging.unmap()
        return data

    def _staging(self, size: int) -> Any:
        if self._readback is None or self._readback.size < size:
            if self._readback is not None:
                self._readback.destroy()
            wgpu = self._wgpu
            self._readback = self.device.create_buffer(
                size=max(size, 1 << 16),
                usage=wgpu.BufferUsage.MAP_READ | wgpu.BufferUsage.COPY_DST)
        return self._readback

    # -- failure ---------------------------------------------------------------------------------

    @contextlib.contextmanager
    def _guard(self) -> Iterator[None]:
        """Driver errors become :class:`DeviceError`; a lost device stays lost."""
        self._check()
        try:
            yield
        except VoltaError:
            raise
        except Exception as exc:
            self._fail(exc)

    def _check(self) -> None:
        if self.lost is not None:
            raise DeviceError(f"{self.name} was lost ({self.lost}); tensors on it are gone. "
                              "CPU tensors are unaffected")

    def _fail(self, exc: Exception) -> NoReturn:
        text = str(exc)
        if "lost" in text.lower() or "destroyed" in text.lower():
            self.lost = " ".join(line.strip() for line in text.splitlines() if line.strip())
            self._encoder = self._pass = None
            self._pending = 0
            self._check()
        raise DeviceError(f"{self.name}: {exc}") from None

    def require_f16(self, what: str) -> None:
        if "shader-f16" not in self.features:
            raise DTypeError(f"{what}: float16 needs the adapter feature 'shader-f16', which "
                             f"{self.name} lacks")
