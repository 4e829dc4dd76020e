"""The table each CPU kernel module fills: ``KERNELS, kernel = kernel_table()`` at the top of
the module, ``@kernel("op.overload")`` on each kernel; the backend's plugin registers every
module's ``KERNELS`` (volta/backends/cpu/plugin.py)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

Kernel = Callable[..., Any]


def kernel_table() -> tuple[dict[str, Kernel], Callable[[str], Callable[[Kernel], Kernel]]]:
    """A fresh op name -> kernel table and the decorator that files a kernel in it."""
    kernels: dict[str, Kernel] = {}

    def kernel(name: str) -> Callable[[Kernel], Kernel]:
        def register(fn: Kernel) -> Kernel:
            kernels[name] = fn
            return fn
        return register

    return kernels, kernel
