"""The plugin API of volta: every hook a plugin can implement.

Plugins are pluggy plugins of the project ``volta``. A package declares one in its
``pyproject.toml``::

    [project.entry-points.volta]
    myplugin = "mypkg.plugin"

and marks its hook functions with :data:`volta.plugins.hookimpl`. volta's own CPU backend is a
plugin registered through these same hooks.

Order: ``volta_register_backends`` runs for every plugin, then ``volta_define_ops`` for every
plugin, then ``volta_register_kernels`` for every plugin. So a plugin may give kernels to ops
another plugin defines, and kernels for core ops on its own backend. A plugin whose import or
hook raises is reported (``volta.plugins.status()``) and skipped; the others still load.
"""

from __future__ import annotations

from typing import Any

import pluggy

PROJECT = "volta"
hookspec = pluggy.HookspecMarker(PROJECT)
hookimpl = pluggy.HookimplMarker(PROJECT)


@hookspec
def volta_register_backends(registry: Any) -> None:
    """Register new device types.

    Called first, once per plugin, with the :class:`volta.device.BackendRegistry`. Call
    ``registry.register(name, impl, dtypes=..., key_name=...)`` where ``impl`` provides
    ``allocate(numel, dtype, index)``, ``from_numpy(array, index)``,
    ``to_numpy(handle, dtype, numel)`` and ``copy_(handle, array)``. A dispatch key for the new
    device is created below every existing key.
    """


@hookspec
def volta_define_ops(library: Any) -> None:
    """Define new operators.

    Called second, with a :class:`volta.library.Library` bound to the plugin. Use
    ``library.define("ext::swiglu(Tensor x, Tensor gate) -> Tensor")`` or
    ``library.define_yaml(path)`` (the ops.yaml format, derivative formulas included), and
    ``library.register_autograd(...)`` for a Python backward.
    """


@hookspec
def volta_register_kernels(library: Any) -> None:
    """Register kernels and fallbacks.

    Called last, with a :class:`volta.library.Library`. Use ``library.impl(op, key, fn)``
    (``key`` is a dispatch key name such as "CPU" or a plugin backend's key),
    ``library.impl_composite(op, fn)`` and ``library.fallback(key, fn)``.
    """
