"""The plugin API of volta: every hook a plugin can implement.

Plugins are pluggy plugins of the project ``volta``. A package declares one in its
``pyproject.toml``::

    [project.entry-points.volta]
    myplugin = "mypkg.plugin"

and marks its hook functions with :data:`volta.plugins.hookimpl`. volta's own CPU backend is a
plugin registered through these same hooks.

Order: ``volta_register_backends`` runs for every plugin, then ``volta_define_ops`` for every
plugin, then ``volta_register_kernels`` for every plugin. So a plugin may give kernels to ops
another plugin defines, and kernels for core ops on its own backend. Within a phase, pluggy's
call order applies (``tryfirst``/``trylast``). A plugin whose import, registration or hook fails
is reported (a warning and ``volta.plugins.status()``) and everything it registered is rolled
back; the others still load (``VOLTA_STRICT_PLUGINS=1`` raises ``volta.PluginError`` instead).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import pluggy

if TYPE_CHECKING:
    from volta.backend import BackendRegistry
    from volta.library import Library

PROJECT = "volta"
hookspec = pluggy.HookspecMarker(PROJECT)
hookimpl = pluggy.HookimplMarker(PROJECT)


@hookspec
def volta_register_backends(registry: BackendRegistry) -> None:
    """Register new device types.

    Called first, once per plugin, with the :class:`volta.backend.BackendRegistry`. Subclass
    :class:`volta.backend.Backend` (the documented contract: ``allocate``, ``copy_`` and
    ``to_numpy`` required; ``from_numpy``, ``read``, ``synchronize``, ``dtypes`` and ``host_memory``
    optional) and call ``registry.register("toy", ToyBackend(), key_name="TOY",
    provenance="my-package")``. A dispatch key for the new device (``key_name``, default the
    name in upper case) is created below every existing key; register kernels under it in
    ``volta_register_kernels``. An incomplete backend raises
    :class:`volta.errors.RegistrationError` naming the missing method.
    """


@hookspec
def volta_define_ops(library: Library) -> None:
    """Define new operators.

    Called second, with a :class:`volta.library.Library` bound to the plugin. Use
    ``library.define("ext::swiglu(Tensor x, Tensor gate) -> Tensor")`` or
    ``library.define_yaml(path)`` (the ops.yaml format, derivative formulas included), and
    ``library.register_autograd(...)`` for a Python backward.
    """


@hookspec
def volta_register_kernels(library: Library) -> None:
    """Register kernels and fallbacks.

    Called last, with a :class:`volta.library.Library`. Use ``library.impl(op, key, fn)``
    (``key`` is a dispatch key name such as "CPU" or a plugin backend's key),
    ``library.impl_composite(op, fn)`` and ``library.fallback(key, fn)``. An unknown operator
    or key raises :class:`volta.errors.RegistrationError`.

    Kernels are called with positional arguments in schema order, defaults filled in
    (``add(Tensor self, Tensor other, *, Scalar alpha=1)`` -> ``fn(self, other, alpha)``);
    a ``ScalarType`` arrives as a :class:`volta.dtype` (``.numpy`` is its numpy dtype); for
    ops tagged ``pointwise`` a Tensor argument may arrive as a Python number (``2 - t`` ->
    ``fn(2, t, 1)``). Inputs may require grad: read their data with
    :func:`volta.backend.host_view` or :func:`volta.backend.storage_of`, not
    ``Tensor.numpy()``. Boxed fallbacks are ``fn(op, keyset, args, kwargs)``. The full
    convention is in :meth:`volta.library.Library.impl` and :meth:`volta.library.Library.fallback`.
    """
