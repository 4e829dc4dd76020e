"""The caching allocator: GPU buffers are pooled by size class and reused, never freed per tensor.

Creating a buffer costs a driver call (and, on some drivers, zeroing); a training step frees and
allocates the same sizes every iteration, so freed buffers go back to a pool keyed by their size
class and the next request of that class takes one. ``empty_cache`` gives the pooled buffers
back to the driver; an allocation that fails empties the cache and retries once before raising
:class:`volta.errors.DeviceOutOfMemoryError`.

Note [deferred free]: a storage may be freed (its :class:`Handle` collected) while the batch
of dispatches that reads it is still being recorded. Reusing the buffer in later dispatches is
safe (a queue runs dispatches in order), but an upload (``queue.write_buffer``) is applied at
the *start* of the next submission, before those dispatches. So a freed buffer waits in
``_pending`` until the batch it may appear in has been submitted, and only then joins the pool.

A kernel's output is different: its first use is a dispatch recorded after every use of the
freed buffer, so :meth:`CachingAllocator.allocate` with ``written_by_device=True`` may hand out
a buffer freed while the batch is still open (``_open``: a chain of tiny ops then cycles
through a few buffers, and their bind groups stay cached, instead of creating a buffer per op).
The order stays safe: dispatches run in recording order (wgpu places the barriers between
them), and ``Runtime.upload`` submits the open batch first when it writes a buffer that batch
binds (``DeviceBuffer.last_batch``), so a later host write cannot overtake earlier dispatches.
"""

from __future__ import annotations

import collections
import threading
from typing import TYPE_CHECKING, Any

from volta.errors import DeviceOutOfMemoryError

if TYPE_CHECKING:
    from volta.backends.wgpu.runtime import Runtime

MIN_BLOCK = 256  # bytes: also a multiple of every storage-offset alignment


def size_class(nbytes: int) -> int:
    """``nbytes`` rounded up to the next of 256-byte multiples below 4 KiB, then to one of four
    steps per power of two (1, 1.25, 1.5, 1.75 x 2^k): at most 25% waste, few distinct sizes."""
    if nbytes <= MIN_BLOCK:
        return MIN_BLOCK
    if nbytes <= 4096:
        return -(-nbytes // MIN_BLOCK) * MIN_BLOCK
    power = 1 << (nbytes - 1).bit_length() - 1  # the largest power of two below nbytes
    step = power // 4
    return -(-nbytes // step) * step


class DeviceBuffer:
    """A GPU buffer owned by the allocator (live under a :class:`Handle`, or pooled)."""

    __slots__ = ("buffer", "size", "last_batch")

    def __init__(self, buffer: Any, size: int) -> None:
        self.buffer = buffer
        self.size = size
        self.last_batch = -1  # the batch that last bound it (runtime.Runtime.batch_id)


class Handle:
    """The backend handle of one storage: a pooled buffer, returned to the pool when the
    storage (the only owner of its handle) is garbage-collected.

    ``value_range`` is (min, max) of an integer storage's elements while they are known on the
    host: set when the host uploads them, cleared when a kernel writes the storage (Note
    [index range checks] in ``kernels/indexing.py``)."""

    __slots__ = ("mem", "nbytes", "allocator", "value_range")

    def __init__(self, mem: DeviceBuffer, nbytes: int, allocator: CachingAllocator) -> None:
        self.mem = mem
        self.nbytes = nbytes
        self.allocator = allocator
        self.value_range: tuple[int, int] | None = None

    @property
    def runtime(self) -> Runtime:
        return self.allocator.runtime

    def __del__(self) -> None:
        allocator = self.allocator
        if allocator is not None:
            allocator.free(self.mem, self.nbytes)


class CachingAllocator:
    """Size-class pools of GPU buffers for one device (see the module docstring)."""

    def __init__(self, runtime: Runtime, usage: int, max_buffer_size: int) -> None:
        self.runtime = runtime
        self._usage = usage
        self._max = max_buffer_size
        self._pools: dict[int, list[DeviceBuffer]] = collections.defaultdict(list)
        self._pending: collections.deque[DeviceBuffer] = collections.deque()  # Note [deferred free]
        # freed in the open batch, for kernel outputs only (Note [deferred free])
        self._open: dict[int, list[DeviceBuffer]] = collections.defaultdict(list)
        # every buffer created and not yet destroyed, by id: a handle that dies in a reference
        # cycle (an exception's traceback holding tensors) must not take its GPUBuffer into the
        # cyclic garbage, whose finalizers would release it before Handle.__del__ pools it
        self._buffers: dict[int, DeviceBuffer] = {}
        self._lock = threading.Lock()
        self.stats = dict(allocated_bytes=0, requested_bytes=0, cached_bytes=0,
                          peak_allocated_bytes=0, allocations=0, cache_hits=0,
                          device_allocations=0, device_frees=0, frees=0, oom_retries=0)

    def allocate(self, nbytes: int, written_by_device: bool = False) -> Handle:
        """A buffer of at least ``nbytes``. ``written_by_device``: its first use is a recorded
        dispatch (a kernel's output), so a buffer freed in the open batch will do (Note
        [deferred free])."""
        size = size_class(nbytes)
        with self._lock:
            self.stats["allocations"] += 1
            pool: list[DeviceBuffer] | None = None
            if written_by_device:
                # the buffers this batch just freed first: a chain of ops cycles through a few
                # buffers (and their cached bind groups) instead of walking the whole pool
                pool = self._open.get(size)
                if not pool and self._pending:
                    self._reopen()
                    pool = self._open.get(size)
            if not pool:
                pool = self._pools.get(size)
            stats = self.stats
            if pool:
                mem = pool.pop()
                stats["cached_bytes"] -= size
                stats["cache_hits"] += 1
            else:
                mem = self._create(size)
            allocated = stats["allocated_bytes"] + size
            stats["allocated_bytes"] = allocated
            stats["requested_bytes"] += nbytes
            if allocated > stats["peak_allocated_bytes"]:
                stats["peak_allocated_bytes"] = allocated
        return Handle(mem, nbytes, self)

    def _reopen(self) -> None:
        """Move the buffers freed so far into ``_open`` (reusable by dispatches only)."""
        pending = self._pending
        while pending:
            mem = pending.popleft()
            self._open[mem.size].append(mem)
            self.stats["cached_bytes"] += mem.size

    def _create(self, size: int) -> DeviceBuffer:
        for attempt in range(2):
            try:
                if size > self._max:
                    raise MemoryError(f"larger than the device's max-buffer-size ({self._max})")
                buffer = self.runtime.device.create_buffer(size=size, usage=self._usage)
            except Exception as exc:  # wgpu reports OOM and limit violations as GPUError kinds
                if attempt == 0:
                    self.stats["oom_retries"] += 1
                    self._empty_cache_locked()
                    continue
                raise DeviceOutOfMemoryError(
                    f"wgpu: out of memory on {self.runtime.name}: tried to allocate {size} bytes "
                    f"({self.stats['allocated_bytes']} bytes allocated by volta, cache emptied): "
                    f"{exc}") from None
            self.stats["device_allocations"] += 1
            mem = DeviceBuffer(buffer, size)
            self._buffers[id(mem)] = mem
            return mem
        raise AssertionError("unreachable")  # pragma: no cover

    def free(self, mem: DeviceBuffer, nbytes: int) -> None:
        """Called when a handle dies (any thread, at any time): Note [deferred free]."""
        self._pending.append(mem)
        s = self.stats
        s["frees"] += 1
        s["allocated_bytes"] -= mem.size
        s["requested_bytes"] -= nbytes

    def retire(self) -> None:
        """Pool the buffers freed up to now: the batch they may appear in was just submitted
        (or none is open)."""
        with self._lock:
            for size, buffers in self._open.items():
                self._pools[size].extend(buffers)  # already counted in cached_bytes
            self._open.clear()
            while self._pending:
                mem = self._pending.popleft()
                self._pools[mem.size].append(mem)
                self.stats["cached_bytes"] += mem.size

    def empty_cache(self) -> None:
        with self._lock:
            self._empty_cache_locked()

    def _empty_cache_locked(self) -> None:
        for pool in self._pools.values():
            for mem in pool:
                self.runtime.forget_buffer(mem.buffer)
                self._buffers.pop(id(mem), None)
                mem.buffer.destroy()
                self.stats["device_frees"] += 1
            pool.clear()
        # buffers freed in the open batch may still be bound by it: they stay until it is sent
        self.stats["cached_bytes"] = sum(mem.size for pool in self._open.values() for mem in pool)

    def memory_stats(self) -> dict[str, int]:
        return dict(self.stats)
