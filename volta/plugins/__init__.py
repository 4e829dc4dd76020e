"""Plugins: pluggy project ``volta``; hooks are documented in :mod:`volta.plugins.hookspecs`."""

from __future__ import annotations

from typing import Any

from volta.plugins.hookspecs import hookimpl, hookspec
from volta.plugins.manager import MANAGER, PluginRecord

__all__ = ["hookimpl", "hookspec", "status", "register", "PluginRecord"]


def status() -> list[PluginRecord]:
    """Every plugin volta saw: name, source, state (loaded/failed/disabled), error, hooks run."""
    return MANAGER.status()


def register(plugin: Any, name: str | None = None) -> PluginRecord:
    """Load a plugin object (module or instance with hook methods) now, guarded like entry
    points: its backends, then its ops, then its kernels."""
    from volta.backend import BACKENDS
    from volta.library import Library
    name = name or getattr(plugin, "__name__", type(plugin).__name__)
    MANAGER.register_object(name, plugin, lambda n: Library(n), BACKENDS)
    return MANAGER.records[name]
