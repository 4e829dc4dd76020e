"""Loading plugins: volta's internal ones, then installed packages' entry points.

Loading is guarded per plugin: an import error or an exception in a hook is recorded with the
plugin's name and the error, warned about, and the remaining plugins load. Environment:
``VOLTA_PLUGINS_AUTOLOAD=0`` skips entry points, ``VOLTA_DISABLE_PLUGINS=a,b`` blocks some,
``VOLTA_STRICT_PLUGINS=1`` turns every fault into a :class:`~volta.errors.PluginError`.
"""

from __future__ import annotations

import importlib
import os
import warnings
from dataclasses import dataclass, field
from importlib import metadata
from typing import Any

import pluggy

from volta.errors import PluginError
from volta.plugins import hookspecs

HOOK_ORDER = ("volta_register_backends", "volta_define_ops", "volta_register_kernels")


@dataclass
class PluginRecord:
    name: str
    source: str  # "internal", "entry-point", "object"
    state: str = "loaded"  # "loaded", "failed", "disabled"
    error: str | None = None
    hooks: list[str] = field(default_factory=list)


class PluginManager:
    def __init__(self) -> None:
        self.pm = pluggy.PluginManager(hookspecs.PROJECT)
        self.pm.add_hookspecs(hookspecs)
        self.records: dict[str, PluginRecord] = {}

    @staticmethod
    def _strict() -> bool:
        return os.environ.get("VOLTA_STRICT_PLUGINS", "0") not in ("", "0", "false")

    @staticmethod
    def _disabled() -> set[str]:
        return {p.strip() for p in os.environ.get("VOLTA_DISABLE_PLUGINS", "").split(",")
                if p.strip()}

    def _fail(self, record: PluginRecord, where: str, exc: BaseException) -> None:
        record.state = "failed"
        record.error = f"{where}: {type(exc).__name__}: {exc}"
        message = f"volta plugin {record.name!r} failed ({record.error}); it is skipped"
        if self._strict():
            raise PluginError(message) from exc
        warnings.warn(message, RuntimeWarning, stacklevel=3)

    def collect(self, internal: list[tuple[str, str]]) -> list[tuple[PluginRecord, Any]]:
        """Import internal plugin modules and entry points; return those that imported."""
        loaded: list[tuple[PluginRecord, Any]] = []
        disabled = self._disabled()
        candidates: list[tuple[str, str, Any]] = [(n, "internal", m) for n, m in internal]
        if os.environ.get("VOLTA_PLUGINS_AUTOLOAD", "1") not in ("0", "false"):
            for ep in metadata.entry_points(group=hookspecs.PROJECT):
                candidates.append((ep.name, "entry-point", ep))
        for name, source, target in candidates:
            record = PluginRecord(name, source)
            self.records[name] = record
            if name in disabled:
                record.state = "disabled"
                continue
            try:
                module = (importlib.import_module(target) if isinstance(target, str)
                          else target.load())
            except Exception as exc:  # a broken plugin must not break `import volta`
                self._fail(record, "import", exc)
                continue
            loaded.append((record, module))
        return loaded

    def run(self, plugins: list[tuple[PluginRecord, Any]], make_library: Any,
            backends: Any) -> None:
        """Run the three hooks in order over all plugins, each call guarded."""
        for hook in HOOK_ORDER:
            for record, module in plugins:
                if record.state != "loaded":
                    continue
                fn = getattr(module, hook, None)
                if fn is None:
                    continue
                arg = backends if hook == "volta_register_backends" else make_library(record.name)
                try:
                    fn(arg)
                    record.hooks.append(hook)
                except Exception as exc:
                    self._fail(record, hook, exc)
        for record, module in plugins:
            if record.state == "loaded" and not self.pm.is_registered(module):
                self.pm.register(module, name=record.name)

    def register_object(self, name: str, plugin: Any, make_library: Any, backends: Any) -> None:
        """Load a plugin object directly (tests, notebooks): runs its hooks in order now."""
        existing = self.records.get(name)
        if existing is not None and existing.state == "loaded":
            raise PluginError(f"a plugin named {name!r} is already loaded ({existing.source}); "
                              "pass another name, or register it inside volta.library.scoped()")
        if self.pm.is_registered(plugin):
            raise PluginError(f"plugin object {plugin!r} is already registered")
        record = PluginRecord(name, "object")
        self.records[name] = record
        self.run([(record, plugin)], make_library, backends)

    def status(self) -> list[PluginRecord]:
        return list(self.records.values())


MANAGER = PluginManager()
