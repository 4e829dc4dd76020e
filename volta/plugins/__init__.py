"""Plugins: pluggy project ``volta``; the hooks are documented in :mod:`volta.plugins.hookspecs`.

Installed packages declare an entry point in the group ``volta``; :func:`register` loads a
plugin object at run time. How loading is guarded (every fault reported, the failed plugin
rolled back, the others loaded) is described in :mod:`volta.plugins.manager`.
"""

from __future__ import annotations

from typing import Any

from volta.backend import BACKENDS
from volta.plugins.hookspecs import hookimpl, hookspec
from volta.plugins.manager import MANAGER, PluginRecord

__all__ = ["hookimpl", "hookspec", "status", "register", "PluginRecord"]


def status() -> list[PluginRecord]:
    """Every plugin volta saw, in loading order: name, source (internal, entry-point, object),
    package and version (of an entry point's distribution), state (loaded, failed, disabled),
    the hooks that ran, for a loaded plugin what it registered (one line per operator, kernel,
    device, ...), and for a failed plugin where it failed (import, register or a hook), the
    error, its full traceback and the registrations that were rolled back."""
    return MANAGER.status()


def register(plugin: Any, name: str | None = None) -> PluginRecord:
    """Load a plugin object (a module or an instance with ``@hookimpl`` methods) now: it is
    registered with pluggy, then its backends, ops and kernels hooks run, guarded as entry
    points are. A fault is reported in the returned record (state ``"failed"``) and a warning,
    and everything the plugin registered is rolled back; with ``VOLTA_STRICT_PLUGINS=1`` it
    raises :class:`volta.PluginError` instead. Inside ``volta.library.scoped()`` the plugin is
    unloaded again when the block ends."""
    from volta.library import Library  # library imports this package (plugins.manager)
    name = name or getattr(plugin, "__name__", type(plugin).__name__)
    return MANAGER.register_object(name, plugin, lambda n: Library(n), BACKENDS)
