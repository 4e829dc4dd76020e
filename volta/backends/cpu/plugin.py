"""The CPU backend as a volta plugin: it registers through the same hooks as any package.

Its hooks are ``tryfirst``, so the host backend (and its ``CPU`` key) exists before any other
plugin's backend, and core CPU kernels before other plugins' kernels."""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

from volta import errors
from volta.plugins import hookimpl

# The last line of defence: a numpy or Python error escaping a kernel becomes the VoltaError
# of the same kind, naming the op. Kernels should raise PyTorch's message themselves; this only
# keeps raw AxisError, MemoryError, OverflowError... from reaching users.
_AS_VOLTA_ERROR: tuple[tuple[type[BaseException], type[errors.VoltaError]], ...] = (
    (IndexError, errors.IndexOutOfRangeError),        # numpy's AxisError included
    (OverflowError, errors.NumericOverflowError),
    (MemoryError, errors.BackendError),
    ((TypeError, AttributeError), errors.ArgumentError),  # type: ignore[arg-type]
    ((ValueError, ArithmeticError), errors.InvalidOperationError),  # type: ignore[arg-type]
)


def _guarded(name: str, kernel: Callable[..., Any]) -> Callable[..., Any]:
    @functools.wraps(kernel)
    def guarded_kernel(*args: Any) -> Any:
        try:
            return kernel(*args)
        except errors.VoltaError:
            raise
        except Exception as e:
            for raw, volta_error in _AS_VOLTA_ERROR:
                if isinstance(e, raw):
                    raise volta_error(f"{name}(): {e}") from e
            raise
    return guarded_kernel


@hookimpl(tryfirst=True)
def volta_register_backends(registry: Any) -> None:
    from volta.backends.cpu import fallback, storage
    from volta.dispatch.dispatcher import DISPATCHER
    info = registry.register("cpu", storage.CpuStorage(), key_name="CPU",
                             provenance="volta.backends.cpu", host=True)
    storage.set_info(info)
    # other backends' missing kernels run here (copy in, compute, copy back)
    DISPATCHER.set_cpu_fallback_factory(fallback.factory)


@hookimpl(tryfirst=True)
def volta_register_kernels(library: Any) -> None:
    from volta.backends.cpu import generated_pointwise, kernels, optim_kernels
    for name, fn in generated_pointwise.KERNELS.items():
        library.impl(name, "CPU", _guarded(name, fn))
    for name, fn in kernels.KERNELS.items():
        library.impl(name, "CPU", _guarded(name, fn))
    for name, fn in optim_kernels.KERNELS.items():
        library.impl(name, "CPU", _guarded(name, fn))
