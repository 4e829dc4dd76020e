"""Loading plugins: volta's internal ones, then installed packages' entry points.

Each plugin (a module or an object) is registered with a pluggy ``PluginManager`` of the
project ``volta``, so only functions marked with :data:`volta.plugins.hookimpl` are hooks and
``tryfirst``/``trylast`` order them as pluggy documents. The hooks then run phase by phase over
all plugins: ``volta_register_backends``, then ``volta_define_ops``, then
``volta_register_kernels``; within a phase in pluggy's call order (``tryfirst`` first,
``trylast`` last, otherwise the plugin registered last first; volta's CPU backend is
``tryfirst``). Each plugin's call goes through pluggy on its own
(``PluginManager.subset_hook_caller``), so one plugin's fault cannot stop another's hook.

A plugin fails, and is not loaded, when its module cannot be imported, when pluggy rejects it
at registration (a hookimpl whose parameters are not the spec's), when it has a function named
``volta_*`` that is not a known hook (misspelled) or not marked with ``@hookimpl``, a hook
wrapper (volta calls each plugin separately, so there is nothing to wrap), or when any of its
hooks raises (a duplicate kernel, an unknown operator, anything else). Then everything it
registered — during its import and in every hook so far — is rolled back (Note [Plugin
ledger] in :mod:`volta.plugins.ledger`): devices and their dispatch keys, operators, kernels,
composites, fallbacks, autograd information, its pluggy registration; kernels other plugins
registered for its operators or under its keys go with them. What other plugins registered
stays. The fault is recorded in :func:`volta.plugins.status` (package, version, where,
traceback, what was rolled back) and a ``RuntimeWarning`` names the plugin and the fault.

Environment: ``VOLTA_PLUGINS_AUTOLOAD=0`` loads no entry points, ``VOLTA_DISABLE_PLUGINS=a,b``
blocks the named plugins, ``VOLTA_STRICT_PLUGINS=1`` raises the first fault (after its rollback)
as one :class:`~volta.errors.PluginError` instead of warning.
"""

from __future__ import annotations

import difflib
import importlib
import inspect
import os
import traceback
import warnings
from collections.abc import Callable
from dataclasses import dataclass, field
from importlib import metadata
from typing import Any

import pluggy

from volta.errors import PluginError
from volta.plugins import hookspecs, ledger

HOOK_ORDER = ("volta_register_backends", "volta_define_ops", "volta_register_kernels")
_HOOK_PREFIX = "volta_"


@dataclass
class PluginRecord:
    """What volta knows about one plugin (``volta.plugins.status()``)."""

    name: str
    source: str  # "internal", "entry-point", "object"
    package: str | None = None  # the distribution that declares the entry point
    version: str | None = None
    state: str = "loaded"  # "loaded", "failed", "disabled"
    # where it failed: "import", "register" (pluggy registration and hook names) or a hook name
    failed_in: str | None = None
    error: str | None = None  # "<failed_in>: <ExceptionType>: <message>"
    traceback: str | None = None
    hooks: list[str] = field(default_factory=list)  # hooks that ran, in order
    rolled_back: list[str] = field(default_factory=list)  # registrations undone on failure
    registered: list[str] = field(default_factory=list)  # what a loaded plugin registered


@dataclass
class _Plugin:
    """A plugin being loaded: its record, the object pluggy registers, its ledger."""

    record: PluginRecord
    target: Any  # a module name, an EntryPoint, or the plugin object itself
    obj: Any = None
    changes: list[ledger.Change] = field(default_factory=list)


class _PluginFaultError(Exception):
    """A problem volta itself finds in a plugin (not an exception the plugin raised)."""


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

    # -- loading -----------------------------------------------------------------------------

    def collect(self, internal: list[tuple[str, str]]) -> list[_Plugin]:
        """The plugins to load: ``internal`` (name, module) pairs, then entry points of the
        group ``volta`` (unless ``VOLTA_PLUGINS_AUTOLOAD=0``). Nothing is imported yet."""
        version = _version("volta")
        plugins = [_Plugin(PluginRecord(name, "internal", "volta", version), module)
                   for name, module in internal]
        if os.environ.get("VOLTA_PLUGINS_AUTOLOAD", "1") not in ("0", "false"):
            for ep in metadata.entry_points(group=hookspecs.PROJECT):
                dist = getattr(ep, "dist", None)
                record = PluginRecord(ep.name, "entry-point", dist and dist.name,
                                      dist and dist.version)
                plugins.append(_Plugin(record, ep))
        disabled = self._disabled()
        for plugin in plugins:
            self.records[plugin.record.name] = plugin.record
            if plugin.record.name in disabled:
                plugin.record.state = "disabled"
        return plugins

    def run(self, plugins: list[_Plugin], make_library: Callable[[str], Any],
            backends: Any) -> None:
        """Import and register ``plugins``, then run the three hooks in order over all of
        them, each plugin guarded and rolled back on its first fault."""
        active = [p for p in plugins if p.record.state == "loaded"]
        for plugin in active:
            self._guarded(plugin, "import", backends, lambda p=plugin: self._import(p))
        for plugin in active:
            if plugin.record.state == "loaded":
                self._guarded(plugin, "register", backends,
                              lambda p=plugin: self._register(p))
        for hook in HOOK_ORDER:
            for plugin in self._call_order(hook, active):
                if hook == "volta_register_backends":
                    kwargs = {"registry": backends}
                else:
                    kwargs = {"library": make_library(plugin.record.name)}
                caller = self.pm.subset_hook_caller(
                    hook, [p for p in self.pm.get_plugins() if p is not plugin.obj])
                if self._guarded(plugin, hook, backends, lambda c=caller, k=kwargs: c(**k)):
                    plugin.record.hooks.append(hook)
        for plugin in active:
            if plugin.record.state == "loaded":
                plugin.record.registered = [ledger.describe(cell, after)
                                            for cell, _before, after in plugin.changes
                                            if after is not ledger.MISSING]

    def register_object(self, name: str, plugin: Any, make_library: Callable[[str], Any],
                        backends: Any) -> PluginRecord:
        """Load a plugin object directly (tests, notebooks): its hooks run in order now."""
        existing = self.records.get(name)
        if existing is not None and existing.state == "loaded":
            raise PluginError(f"a plugin named {name!r} is already loaded ({existing.source}); "
                              "pass another name, or register it inside volta.library.scoped()")
        if self.pm.is_registered(plugin):
            raise PluginError(f"plugin object {plugin!r} is already registered")
        record = PluginRecord(name, "object")
        self.records[name] = record
        self.run([_Plugin(record, plugin, obj=plugin)], make_library, backends)
        return record

    def status(self) -> list[PluginRecord]:
        return list(self.records.values())

    # -- the steps -------------------------------------------------------------------------

    def _import(self, plugin: _Plugin) -> None:
        if plugin.obj is not None:
            return
        target = plugin.target
        plugin.obj = importlib.import_module(target) if isinstance(target, str) else target.load()

    def _register(self, plugin: _Plugin) -> None:
        self.pm.register(plugin.obj, name=plugin.record.name)
        problems = []
        for caller in self.pm.get_hookcallers(plugin.obj) or []:
            impls = [i for i in caller.get_hookimpls() if i.plugin is plugin.obj]
            if caller.spec is None and not all(i.optionalhook for i in impls):
                close = difflib.get_close_matches(caller.name, HOOK_ORDER, n=1)
                hint = f"; did you mean {close[0]}?" if close else ""
                problems.append(f"{caller.name} is not a volta hook{hint} "
                                f"(hooks: {', '.join(HOOK_ORDER)})")
            if any(i.hookwrapper or i.wrapper for i in impls):
                problems.append(f"{caller.name} is a hook wrapper; volta calls each plugin's "
                                "hook on its own, so there is nothing to wrap")
        for attr in _hook_like_names(plugin.obj):
            if self.pm.parse_hookimpl_opts(plugin.obj, attr) is None:
                problems.append(f"{attr} is not marked with @volta.plugins.hookimpl, so it is "
                                "not a hook and would never be called")
        if problems:
            raise _PluginFaultError("; ".join(problems))

    def _call_order(self, hook: str, plugins: list[_Plugin]) -> list[_Plugin]:
        """The loaded plugins implementing ``hook``, in pluggy's call order."""
        by_object = {id(p.obj): p for p in plugins if p.record.state == "loaded"}
        ordered: list[_Plugin] = []
        # pluggy calls hookimpls last to first (tryfirst ones are at the end)
        for impl in reversed(getattr(self.pm.hook, hook).get_hookimpls()):
            plugin = by_object.get(id(impl.plugin))
            if plugin is not None and plugin not in ordered:
                ordered.append(plugin)
        return ordered

    def _guarded(self, plugin: _Plugin, where: str, backends: Any,
                 step: Callable[[], Any]) -> bool:
        """Run one step of ``plugin``, adding what it registers to the plugin's ledger; on a
        fault roll the plugin back and report it. Returns whether the step succeeded."""
        before = ledger.capture(backends)
        try:
            step()
        except Exception as exc:  # a broken plugin must not break `import volta`
            plugin.changes += ledger.changes(before, ledger.capture(backends))
            self._fail(plugin, where, exc, backends)
            return False
        plugin.changes += ledger.changes(before, ledger.capture(backends))
        return True

    def _fail(self, plugin: _Plugin, where: str, exc: Exception, backends: Any) -> None:
        record = plugin.record
        record.state = "failed"
        record.failed_in = where
        kind = "" if isinstance(exc, _PluginFaultError) else f"{type(exc).__name__}: "
        record.error = f"{where}: {kind}{exc}"
        record.traceback = "".join(traceback.format_exception(type(exc), exc,
                                                              exc.__traceback__))
        record.rolled_back = ledger.revert(plugin.changes, backends)
        plugin.changes = []
        if plugin.obj is not None and self.pm.is_registered(plugin.obj):
            self.pm.unregister(plugin.obj)
        origin = f" (package {record.package} {record.version})" if record.package else ""
        fault = f"volta plugin {record.name!r}{origin} failed in {record.error}"
        if self._strict():
            raise PluginError(fault) from exc
        warnings.warn(f"{fault}. It is not loaded and what it registered was rolled back; "
                      "see volta.plugins.status()", RuntimeWarning, stacklevel=2)


def _version(distribution: str) -> str | None:
    try:
        return metadata.version(distribution)
    except metadata.PackageNotFoundError:
        return None


def _hook_like_names(plugin: Any) -> list[str]:
    """Functions of ``plugin`` named like a hook (``volta_*``)."""
    names = []
    for attr in dir(plugin):
        if attr.startswith(_HOOK_PREFIX):
            value = inspect.getattr_static(plugin, attr, None)
            if isinstance(value, (staticmethod, classmethod)):
                value = value.__func__
            if inspect.isfunction(value):
                names.append(attr)
    return names


MANAGER = PluginManager()
