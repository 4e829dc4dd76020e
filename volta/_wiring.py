"""Wire implementations into the dispatcher at import: view metadata ops, composites, device
moves, then plugins (volta's CPU backend first), then the Autograd and Tracing keys."""

from __future__ import annotations

from volta.composites import views
from volta.dispatch.dispatcher import DISPATCHER
from volta.errors import RegistrationError


def _register_composites() -> None:
    from volta.composites import COMPOSITES
    from volta.tensor import factories as _factories
    implementations = dict(views.VIEW_IMPLEMENTATIONS)
    implementations["_to_copy"] = _factories.to_copy
    for name, fn in COMPOSITES.items():
        implementations.setdefault(name, fn)
    for name, fn in implementations.items():
        DISPATCHER.register_composite(DISPATCHER.find(name), fn, provenance="volta (composite)")
    missing = [op.name for op in DISPATCHER.ops.values()
               if getattr(op, "declared_composite", False) and op.composite is None]
    if missing:
        raise RegistrationError(f"ops declared composite in ops.yaml without an implementation: "
                                f"{', '.join(sorted(missing))}")


def _load_plugins() -> None:
    from volta.device import BACKENDS
    from volta.library import Library
    from volta.plugins.manager import MANAGER
    plugins = MANAGER.collect([("cpu", "volta.backends.cpu.plugin")])
    MANAGER.run(plugins, lambda name: Library(name), BACKENDS)


def _install_keys() -> None:
    from volta import autograd, tracing
    autograd.register()
    tracing.register()


_register_composites()
_load_plugins()
_install_keys()
