"""``volta.library``: define operators and register kernels at run time (like
``torch.library``). Plugins receive a :class:`Library` in their hooks; scripts and notebooks use
the module-level functions.
"""

from __future__ import annotations

import contextlib
import inspect
from collections.abc import Callable, Iterator
from pathlib import Path
from types import SimpleNamespace
from typing import Any

from volta.autograd.function import make_custom_autograd_kernel
from volta.backend import BACKENDS
from volta.dispatch import keys as K
from volta.dispatch.binding import call_overloaded
from volta.dispatch.dispatcher import DISPATCHER, FALLTHROUGH, OperatorHandle
from volta.dispatch.registration import parse_schema
from volta.errors import RegistrationError, SchemaError
from volta.plugins.manager import MANAGER
from volta.schema import OpInfo

__all__ = ["Library", "define", "impl", "impl_composite", "fallback", "register_autograd",
           "register_meta", "scoped", "FALLTHROUGH", "op", "operators"]


def _caller() -> str:
    frame = inspect.currentframe()
    while frame is not None and frame.f_globals.get("__name__") == __name__:
        frame = frame.f_back
    if frame is None:
        return "library"
    return f"{Path(frame.f_code.co_filename).name}:{frame.f_lineno}"


def op(name: str | OperatorHandle) -> OperatorHandle:
    """The operator handle for ``"ns::name.overload"`` (or a handle, returned as is).

    Raises :class:`volta.errors.RegistrationError` for an operator nobody defined.
    """
    if isinstance(name, OperatorHandle):
        return name
    handle = DISPATCHER.ops.get(name) if isinstance(name, str) else None
    if handle is None:
        base = str(name).split(".")[0]
        overloads = [n for n in DISPATCHER.ops if n.split(".")[0] == base]
        hint = (f"; overloads with that name: {', '.join(overloads)}" if overloads else
                "; define it first (library.define or volta_define_ops)")
        raise RegistrationError(f"unknown operator {name!r}{hint}")
    return handle


def operators(tag: str | None = None) -> list[OperatorHandle]:
    """Every defined operator (core and plugin ones), or those carrying ``tag``.

    A backend uses it to find what it can generate kernels for: ``operators("pointwise")``, with
    each handle's ``info.pointwise`` snippet, ``info.promotion`` and ``info.dtypes`` (see
    docs/plugins.md, "Pointwise kernels from the ops.yaml snippets").
    """
    return [handle for handle in list(DISPATCHER.ops.values())
            if tag is None or tag in handle.tags]


def _key(key: str | K.DispatchKey) -> K.DispatchKey:
    return key if isinstance(key, K.DispatchKey) else K.KEYS.get(key)


class Library:
    """Registrations made on behalf of one plugin (its name goes into provenance)."""

    def __init__(self, owner: str = "user") -> None:
        self.owner = owner

    def _prov(self) -> str:
        return f"{self.owner} ({_caller()})"

    def define(self, schema: str, tags: tuple[str, ...] = (),
               info: OpInfo | None = None) -> OperatorHandle:
        """Define an operator from a schema string, e.g. ``"ext::swiglu(Tensor x) -> Tensor"``."""
        parsed = parse_schema(schema)
        if not parsed.name.namespace:
            raise SchemaError(f"out-of-tree operators need a namespace: write "
                              f"'myns::{parsed.name}' instead of '{parsed.name}'")
        return DISPATCHER.define(parsed, tags, provenance=self._prov(), info=info)

    def define_yaml(self, path: str | Path) -> list[OperatorHandle]:
        """Define every op of a yaml file in the ops.yaml format: schemas, derivative formulas
        (compiled into backward nodes now) and pointwise snippets (compiled into CPU kernels).

        The code is what ``python -m codegen --plugin PATH`` writes into a package's
        ``_generated/`` (run here in memory): a package may ship that instead and call its
        ``define_ops(library)``, which ends in :meth:`define_generated` as this does."""
        from codegen import emit, plugin
        from codegen.loader import load
        from codegen.run import formula_helpers
        root = Path(__file__).resolve().parent.parent
        # formulas may call volta's formula helpers and any op already defined (core or plugin)
        op_names = {name.split("::")[-1].split(".")[0] for name in DISPATCHER.ops}
        decls = load(path, formula_helpers(root) | op_names)
        for d in decls:
            if not d.schema.name.namespace:
                raise SchemaError(f"{path}:{d.line}: out-of-tree operators need a namespace "
                                  f"(write 'myns::{d.name}')")
        entries = plugin.op_entries(decls)
        handles = SimpleNamespace()
        modules = []
        for what, text in (("autograd", plugin.autograd_source(decls, str(path), "")),
                           ("cpu", emit.emit_pointwise_numpy(decls, str(path)))):
            namespace: dict[str, Any] = {"_op": handles,
                                         "__name__": f"volta_plugin_{self.owner}_{what}"}
            exec(compile(text, f"<{what} kernels for {path}>", "exec"), namespace)
            modules.append(SimpleNamespace(**namespace))
        return self.define_generated(
            [(schema, tags, OpInfo(**info), handle) for schema, tags, info, handle in entries],
            handles, *modules)

    def define_generated(self, ops: Any, handles: Any, autograd_nodes: Any,
                         cpu_pointwise: Any) -> list[OperatorHandle]:
        """Define the operators of a package's generated code (``codegen --plugin``): ``ops``
        holds (schema, tags, OpInfo, handle name); each handle is set on ``handles``, which the
        generated Autograd kernels read; their ``KERNELS``/``NODES`` and the CPU pointwise
        ``KERNELS`` are registered."""
        defined = []
        for schema, tags, info, handle_name in ops:
            handle = self.define(schema, tags, info)
            setattr(handles, handle_name, handle)
            defined.append(handle)
        for name, fn in autograd_nodes.KERNELS.items():
            self.impl(name, "Autograd", fn)
            DISPATCHER.find(name).autograd_info = autograd_nodes.NODES.get(name)
        for name, fn in cpu_pointwise.KERNELS.items():
            self.impl(name, "CPU", fn)
        return defined

    def impl(self, name: str | OperatorHandle, key: str | K.DispatchKey, fn: Callable[..., Any],
             override: bool = False) -> None:
        """Register ``fn`` as the kernel of operator ``name`` for dispatch key ``key``.

        ``key`` is a key name: ``"CPU"``, ``"Meta"``, ``"Autograd"``, or the key a backend was
        registered with (``registry.register("toy", ..., key_name="TOY")``). An unknown
        operator or key, a second kernel for the same (op, key) without ``override=True``, or
        an ``fn`` that is not callable raises :class:`volta.errors.RegistrationError`.

        How ``fn`` is called (the same for every key):

        * **Positional arguments in schema order, defaults filled in.** For
          ``add(Tensor self, Tensor other, *, Scalar alpha=1)`` the kernel is called as
          ``fn(self, other, alpha)`` whether the user wrote ``a + b``, ``volta.add(a, b)`` or
          ``a.add(b, alpha=2)``; keyword-only arguments come positionally too, never as
          keywords. Write ``fn`` with the schema's parameter names and defaults.
        * **Normalised values.** ``int[]`` arguments arrive as tuples of ints (``stride=1``
          becomes ``(1, 1)`` for ``int[2]``); ``Tensor[]`` as a tuple of Tensors;
          ``ScalarType`` as a :class:`volta.dtype` (``.numpy`` is its numpy dtype, ``.name``
          and ``.itemsize`` describe it) or None, never a string or ``float``; ``Device`` as
          a device string such as ``"toy:1"`` or None; ``Scalar`` as the Python number (or a
          0-d Tensor) the caller passed; a ``Tensor?`` argument left out as None.
        * **Python numbers for Tensors.** For operators tagged ``pointwise``, any single
          ``Tensor`` argument may arrive as a Python ``bool``, ``int`` or ``float``, unwrapped:
          ``2 - t`` calls ``sub`` kernels as ``fn(2, t, 1)``, ``volta.add(t, 3)`` as
          ``fn(t, 3, 1)``. At least one argument is a Tensor (it picked the kernel), and the
          ``self`` of an in-place op (``add_``) is always a Tensor. Other operators receive
          Tensors in their Tensor positions.
        * **Reading data.** Inputs are the caller's tensors, so they may require grad; read
          them with :func:`volta.backend.host_view` (numpy) or
          :func:`volta.backend.storage_of` (device handle, sizes, strides, offset), not
          ``Tensor.numpy()``, which refuses tensors that require grad. Return new tensors on
          the inputs' device; an in-place kernel writes into ``self`` and returns it.
        """
        if not callable(fn):
            raise RegistrationError(f"impl({op(name).name!r}, {key!r}): the kernel must be "
                                    f"callable, got {type(fn).__name__}")
        DISPATCHER.register_kernel(op(name), _key(key), fn, self._prov(), override=override)

    def impl_composite(self, name: str | OperatorHandle, fn: Callable[..., Any],
                       override: bool = False) -> None:
        """Implement ``name`` in terms of other ops: every backend and autograd get it."""
        handle = op(name)
        DISPATCHER.register_composite(handle, fn, self._prov(), override=override)

    def fallback(self, key: str | K.DispatchKey, fn: Any, override: bool = False) -> None:
        """A boxed kernel for every op that has no kernel of its own at ``key``; pass
        :data:`FALLTHROUGH` to let such calls go on to the key below.

        ``fn(op, keyset, args, kwargs)`` receives the :class:`OperatorHandle` (``op.name``,
        ``op.schema``), the call's dispatch key set (an int bit mask), the arguments as a
        tuple in the kernel calling convention of :meth:`impl` (schema order, defaults
        filled in), and an empty ``kwargs`` dict. It returns what the op returns; a fallback
        for a functionality key continues below itself with
        ``op.redispatch(volta.dispatch.KEYS.get(key), *args)``.
        """
        DISPATCHER.register_fallback(_key(key), fn, self._prov(), override=override)

    def register_autograd(self, name: str | OperatorHandle, backward: Callable[..., Any],
                          setup_context: Callable[..., Any] | None = None,
                          override: bool = False) -> None:
        """Differentiate ``name`` with ``backward(ctx, *grad_outputs)``, which returns one
        gradient per input (None where there is none); ``setup_context(ctx, inputs, output)``
        saves what backward needs."""
        handle = op(name)
        kernel = make_custom_autograd_kernel(handle, backward, setup_context)
        DISPATCHER.register_kernel(handle, K.Autograd, kernel, self._prov(), override=override)
        handle.autograd_info = backward

    def register_meta(self, name: str | OperatorHandle, fn: Callable[..., Any],
                      override: bool = False) -> None:
        """Shape function for the Meta key: returns tensors on the meta device."""
        self.impl(name, K.Meta, fn, override=override)


_default = Library("user")


def define(schema: str, tags: tuple[str, ...] = ()) -> OperatorHandle:
    return _default.define(schema, tags)


def impl(name: str | OperatorHandle, key: str, fn: Callable[..., Any] | None = None,
         override: bool = False) -> Any:
    """``impl(op, key, fn)``, or as a decorator: ``@impl(op, key)``. The calling convention of
    kernels is documented on :meth:`Library.impl`."""
    if fn is None:
        def decorate(f: Callable[..., Any]) -> Callable[..., Any]:
            _default.impl(name, key, f, override)
            return f
        return decorate
    _default.impl(name, key, fn, override)
    return fn


def impl_composite(name: str | OperatorHandle, fn: Callable[..., Any],
                   override: bool = False) -> None:
    _default.impl_composite(name, fn, override)


def fallback(key: str, fn: Any, override: bool = False) -> None:
    _default.fallback(key, fn, override)


def register_autograd(name: str | OperatorHandle, backward: Callable[..., Any],
                      setup_context: Callable[..., Any] | None = None,
                      override: bool = False) -> None:
    _default.register_autograd(name, backward, setup_context, override)


def register_meta(name: str | OperatorHandle, fn: Callable[..., Any],
                  override: bool = False) -> None:
    _default.register_meta(name, fn, override)


@contextlib.contextmanager
def scoped() -> Iterator[None]:
    """Registrations made inside the block are undone exactly when it ends."""
    with DISPATCHER.lock:  # one consistent picture of every registry
        snap = DISPATCHER.snapshot()
        keys = K.KEYS.snapshot()
        plugin_records = dict(MANAGER.records)
        plugin_objects = set(MANAGER.pm.get_plugins())
        backends = (dict(BACKENDS._by_name), dict(BACKENDS._by_key))
    try:
        yield
    finally:
        with DISPATCHER.mutation():  # restored as one change: no thread sees half of it
            DISPATCHER.restore(snap)
            MANAGER.records = plugin_records
            for plugin in set(MANAGER.pm.get_plugins()) - plugin_objects:
                MANAGER.pm.unregister(plugin)
            BACKENDS._by_name, BACKENDS._by_key = backends
            K.KEYS.restore(keys)


class _OpsNamespace:
    """``volta.ops.ext.swiglu(...)``: call any registered op by namespace and name."""

    def __init__(self, namespace: str = "") -> None:
        self._namespace = namespace

    def __getattr__(self, name: str) -> Any:
        if name.startswith("__"):
            raise AttributeError(name)
        if not self._namespace:
            return _OpsNamespace(name)
        prefix = f"{self._namespace}::{name}"
        overloads = [h for n, h in DISPATCHER.ops.items()
                     if n == prefix or n.startswith(prefix + ".")]
        if not overloads:
            raise AttributeError(f"no operator {prefix!r}")
        return _OpPacket(prefix, overloads)


class _OpPacket:
    def __init__(self, name: str, overloads: list[OperatorHandle]) -> None:
        self.name = name
        self.overloads = overloads

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        return call_overloaded(tuple(self.overloads), args, kwargs, self.name)

    def __getattr__(self, overload: str) -> OperatorHandle:
        target = self.name if overload == "default" else f"{self.name}.{overload}"
        for h in self.overloads:
            if h.name == target:
                return h
        raise AttributeError(f"{self.name} has no overload {overload!r}")


ops = _OpsNamespace()
