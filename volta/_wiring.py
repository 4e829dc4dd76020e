"""The one place where lower layers learn about upper ones, run once by ``import volta``.

First the seam (docs/layout.md, "The seam"): the dispatcher and binding learn the ``Tensor``
type, and ``Tensor`` receives the methods its upper neighbours implement (indexing, the
factory-built ``new_*``/copy protocols, autograd's ``backward``/``register_hook``/
``retain_grad``). Then the dispatcher gets its implementations: generic in-place variants, view
metadata ops, composites and device moves, then plugins (volta's CPU backend first, installed
packages after), then the Autograd and Tracing keys.

Everything it imports sits below it in the layer order; nothing imports it but
``volta/__init__``, so no module below learns of an upper one by importing it.
"""

from __future__ import annotations

from volta import autograd
from volta.autograd import tensor_methods as autograd_tensor_methods
from volta.backend import BACKENDS
from volta.composites import COMPOSITES, views
from volta.dispatch import binding, dispatcher
from volta.dispatch.dispatcher import DISPATCHER
from volta.errors import RegistrationError, raising_volta_errors
from volta.jit import _capture
from volta.library import Library
from volta.plugins.manager import MANAGER
from volta.tensor import factories, indexing
from volta.tensor.inplace import generic_inplace
from volta.tensor.tensor import Tensor


def _install_tensor() -> None:
    # the dispatcher checks kernel results against Tensor; binding takes it as an operand
    dispatcher.set_tensor_type(Tensor)
    binding.FAST_OPERANDS.add(Tensor)
    binding.TENSOR_TYPES.add(Tensor)
    binding.NUMBER_TO_TENSOR = factories.tensor
    for methods in (indexing.TENSOR_METHODS, factories.TENSOR_METHODS,
                    autograd_tensor_methods.TENSOR_METHODS):
        for name, method in methods.items():
            setattr(Tensor, name, method)


def _register_composites() -> None:
    for op in list(DISPATCHER.ops.values()):
        if op.info.inplace_of is not None:
            DISPATCHER.register_composite(
                op, generic_inplace(op, DISPATCHER.find(op.info.inplace_of)),
                provenance="generic in-place (functional op, then copy_)")
    implementations = dict(views.VIEW_IMPLEMENTATIONS)
    implementations["_to_copy"] = factories.to_copy
    for name, fn in COMPOSITES.items():
        # views stay unwrapped (the hot path); other composites get the raw-error boundary
        implementations.setdefault(name, raising_volta_errors(name, fn))
    for name, fn in implementations.items():
        DISPATCHER.register_composite(DISPATCHER.find(name), fn, provenance="volta (composite)")
    missing = [op.name for op in DISPATCHER.ops.values()
               if op.info.composite and op.composite is None]
    if missing:
        raise RegistrationError(f"ops declared composite in ops.yaml without an implementation: "
                                f"{', '.join(sorted(missing))}")


def _load_plugins() -> None:
    plugins = MANAGER.collect([("cpu", "volta.backends.cpu.plugin"),
                               ("wgpu", "volta.backends.wgpu.plugin")])
    MANAGER.run(plugins, lambda name: Library(name), BACKENDS)


def _install_keys() -> None:
    autograd.register()
    _capture.register()


_install_tensor()
_register_composites()
_load_plugins()
_install_keys()
