"""Utilities on top of the public API: activation checkpointing (``volta.utils.checkpoint``)
and data loading (``volta.utils.data``)."""

from __future__ import annotations

import importlib
from typing import Any

from volta.utils import checkpoint

__all__ = ["checkpoint", "data"]


def __getattr__(name: str) -> Any:
    # data loading lives in its own subpackage; import it when first asked for
    if name == "data":
        return importlib.import_module("volta.utils.data")
    raise AttributeError(f"module 'volta.utils' has no attribute {name!r}")
