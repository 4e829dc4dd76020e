"""The WGPU backend as a volta plugin: registered through the same hooks as any package.

Registration touches no GPU: the device is created on first use (``runtime.get``), so
``import volta`` works on machines without an adapter, and only using ``"wgpu"`` there raises
:class:`volta.errors.DeviceError`."""

from __future__ import annotations

from typing import Any

from volta import errors
from volta.plugins import hookimpl


@hookimpl
def volta_register_backends(registry: Any) -> None:
    from volta.backends.wgpu import storage
    info = registry.register("wgpu", storage.WgpuStorage(), key_name="WGPU",
                             provenance="volta.backends.wgpu")
    storage.set_info(info)


@hookimpl
def volta_register_kernels(library: Any) -> None:
    from volta.backends.wgpu.kernels import KERNELS
    for name, fn in KERNELS.items():
        library.impl(name, "WGPU", errors.raising_volta_errors(name, fn))
