"""The hooks of volta-numba: the ``"numba"`` device, then its kernels under the ``NUMBA`` key.

Kernels are registered for every pointwise op whose ops.yaml snippet translates (at
registration: the text is generated, nothing is compiled yet), and for the ops in
:data:`volta_numba.kernels.KERNELS`. Everything else runs through volta's CPU fallback.
"""

from __future__ import annotations

from volta.backend import BackendRegistry
from volta.library import Library
from volta.plugins import hookimpl
from volta_numba import kernels, pointwise
from volta_numba.storage import NumbaBackend


@hookimpl
def volta_register_backends(registry: BackendRegistry) -> None:
    registry.register("numba", NumbaBackend(), key_name="NUMBA", provenance="volta-numba")


@hookimpl
def volta_register_kernels(library: Library) -> None:
    for name, kernel in {**pointwise.kernels(), **kernels.KERNELS}.items():
        library.impl(name, "NUMBA", kernel)
