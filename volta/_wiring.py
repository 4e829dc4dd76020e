"""The one place that wires implementations into the dispatcher, run once by ``import volta``:
generic in-place variants, view metadata ops, composites and device moves, then plugins
(volta's CPU backend first, installed packages after), then the Autograd and Tracing keys.

Everything it imports sits below it in the layer order (docs/layout.md); nothing imports it
but ``volta/__init__``.
"""

from __future__ import annotations

from volta import autograd
from volta.backend import BACKENDS
from volta.composites import COMPOSITES, views
from volta.dispatch.dispatcher import DISPATCHER
from volta.errors import RegistrationError
from volta.jit import _capture
from volta.library import Library
from volta.plugins.manager import MANAGER
from volta.tensor import factories
from volta.tensor.inplace import generic_inplace


def _register_composites() -> None:
    for op in list(DISPATCHER.ops.values()):
        if op.info.inplace_of is not None:
            DISPATCHER.register_composite(
                op, generic_inplace(op, DISPATCHER.find(op.info.inplace_of)),
                provenance="generic in-place (functional op, then copy_)")
    implementations = dict(views.VIEW_IMPLEMENTATIONS)
    implementations["_to_copy"] = factories.to_copy
    for name, fn in COMPOSITES.items():
        implementations.setdefault(name, fn)
    for name, fn in implementations.items():
        DISPATCHER.register_composite(DISPATCHER.find(name), fn, provenance="volta (composite)")
    missing = [op.name for op in DISPATCHER.ops.values()
               if op.info.composite and op.composite is None]
    if missing:
        raise RegistrationError(f"ops declared composite in ops.yaml without an implementation: "
                                f"{', '.join(sorted(missing))}")


def _load_plugins() -> None:
    plugins = MANAGER.collect([("cpu", "volta.backends.cpu.plugin")])
    MANAGER.run(plugins, lambda name: Library(name), BACKENDS)


def _install_keys() -> None:
    autograd.register()
    _capture.register()


_register_composites()
_load_plugins()
_install_keys()
