"""``volta.wgpu``: the WebGPU device, like ``torch.cuda`` for CUDA.

Nothing here creates a device unless asked: ``is_available`` and ``device_count`` only list
adapters; the others act on devices already in use (``synchronize``, ``empty_cache``) or on
the one named. :func:`pointwise_kernel` is the public way for operator packages to build WGPU
kernels from their ``pointwise:`` snippets.
"""

from __future__ import annotations

from typing import Any

from volta.backends.wgpu import runtime
from volta.backends.wgpu.kernels.pointwise import make_kernel
from volta.device import device as _device

__all__ = ["is_available", "device_count", "synchronize", "memory_stats", "empty_cache",
           "counters", "adapter_name", "features", "pointwise_kernel"]


def _index(dev: Any) -> int:
    if dev is None:
        return 0
    if isinstance(dev, int):
        return dev
    return _device(dev).index or 0


def is_available() -> bool:
    """Whether a WebGPU adapter exists (creates no device)."""
    return runtime.device_count() > 0


def device_count() -> int:
    return runtime.device_count()


def synchronize(device: Any = None) -> None:
    """Submit queued work and wait for it (every device in use when ``device`` is None)."""
    targets = runtime.existing() if device is None else [runtime.get(_index(device))]
    for rt in targets:
        rt.synchronize()


def memory_stats(device: Any = None) -> dict[str, int]:
    """The caching allocator's counters: ``allocated_bytes`` (live, in size classes),
    ``requested_bytes``, ``cached_bytes`` (pooled, free), ``peak_allocated_bytes``,
    ``allocations``, ``cache_hits``, ``device_allocations``, ``device_frees``, ``frees``,
    ``oom_retries``."""
    return runtime.get(_index(device)).allocator.memory_stats()


def empty_cache() -> None:
    """Give the pooled (free) buffers of every device in use back to the driver."""
    for rt in runtime.existing():
        rt.flush()
        rt.allocator.empty_cache()


def counters(device: Any = None) -> dict[str, int]:
    """Execution counters: ``submits``, ``readbacks``, ``dispatches``, ``uploads``,
    ``pipelines`` (compiled), ``bind_groups`` (created)."""
    return dict(runtime.get(_index(device)).counters)


def adapter_name(device: Any = None) -> str:
    return runtime.get(_index(device)).name


def features(device: Any = None) -> frozenset[str]:
    """The optional WebGPU features enabled on the device (shader-f16, subgroup, ...)."""
    return runtime.get(_index(device)).features


def pointwise_kernel(name: str, spec: dict[str, Any]) -> Any:
    """A WGPU kernel for the pointwise operator ``name`` (e.g. ``"ext::swiglu"``) from its
    ``spec``: an entry of the ``SPECS`` that ``python -m codegen --plugin ops.yaml`` writes
    into ``_generated/wgpu_pointwise.py`` from the op's ``pointwise:`` snippet (``args``,
    ``promotion``, ``dtypes``, ``wgsl``). The kernel is volta's own pointwise template, as
    for core ops: strided and broadcast operands, type promotion, float32/float16/int32/bool.
    Register it with ``library.impl(name, "WGPU", kernel)`` in ``volta_register_kernels``.
    Creates no device until it is called."""
    return make_kernel(name, spec)
