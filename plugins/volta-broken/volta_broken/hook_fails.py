"""A plugin whose ``volta_register_kernels`` hook raises (entry point ``broken_hook``)."""

from __future__ import annotations

from typing import Any

from volta.plugins import hookimpl


@hookimpl
def volta_register_kernels(library: Any) -> None:
    raise ValueError("volta-broken: volta_register_kernels fails on purpose")
