"""The CPU backend as a volta plugin: it registers through the same hooks as any package.

Its hooks are ``tryfirst``, so the host backend (and its ``CPU`` key) exists before any other
plugin's backend, and core CPU kernels before other plugins' kernels."""

from __future__ import annotations

from typing import Any

from volta import errors
from volta.plugins import hookimpl


@hookimpl(tryfirst=True)
def volta_register_backends(registry: Any) -> None:
    from volta.backends.cpu import allocator, fallback, storage
    from volta.dispatch.dispatcher import DISPATCHER
    allocator.tune()  # array temporaries reuse warm memory (see the module's docstring)
    info = registry.register("cpu", storage.CpuStorage(), key_name="CPU",
                             provenance="volta.backends.cpu", host=True)
    storage.set_info(info)
    # other backends' missing kernels run here (copy in, compute, copy back)
    DISPATCHER.set_cpu_fallback_factory(fallback.factory)


@hookimpl(tryfirst=True)
def volta_register_kernels(library: Any) -> None:
    from volta.backends.cpu import (
        attention,
        elementwise,
        fused_pointwise,
        generated_pointwise,
        kernels,
        linalg_kernels,
        native_pointwise,
        optim_kernels,
        rnn_kernels,
        shape_kernels,
        special_kernels,
    )
    # a fused kernel replaces its op's generated one (Note [fused pointwise kernels]), and so
    # does a compiled one (falling back to the generated one where it does not apply)
    pointwise = {**generated_pointwise.KERNELS, **fused_pointwise.KERNELS,
                 **elementwise.KERNELS}
    # a compiled-kernel router replaces its op's numpy kernel and calls it for what it does
    # not take (Note [native pointwise routing])
    routed = native_pointwise.KERNELS
    for table in (pointwise, kernels.KERNELS, optim_kernels.KERNELS, attention.KERNELS,
                  rnn_kernels.KERNELS, linalg_kernels.KERNELS, special_kernels.KERNELS,
                  shape_kernels.KERNELS):
        for name, fn in table.items():
            library.impl(name, "CPU", errors.raising_volta_errors(name, routed.get(name, fn)))
