"""Operators, their kernel tables, and the call path.

A call costs: compute the key set from the tensor arguments and the thread-local sets, look
the key set up in the operator's cache, call what is there. Everything else (resolution order,
fallbacks, the CPU fallback) happens once per (op, key set) in :meth:`OperatorHandle._resolve`.

Resolution order for the highest key of a key set (ARCHITECTURE.md):
  a kernel registered for that key -> the op's composite implementation -> the key's fallback
  (a fallthrough moves on to the next key) -> for a backend key, the CPU fallback ->
  ``NoKernelError``.
Kernels receive positional arguments in schema order; boxed fallbacks receive
``(op, keyset, args, kwargs)`` with ``kwargs`` always empty (calls are normalised to positional).
"""

from __future__ import annotations

import threading
import warnings
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from volta.dispatch import keys as K
from volta.dispatch.local_state import LOCAL
from volta.errors import DeviceMismatchError, NoKernelError, RegistrationError, ShapeError
from volta.schema import FunctionSchema, OpInfo

Kernel = Callable[..., Any]
BoxedKernel = Callable[["OperatorHandle", int, tuple, dict], Any]

FALLTHROUGH = object()  # register as a fallback to make a key pass calls to the key below it

_TENSOR_TYPE: type | None = None  # set by volta.tensor.tensor once the Tensor class exists


def set_tensor_type(tensor_type: type) -> None:
    global _TENSOR_TYPE
    _TENSOR_TYPE = tensor_type


@dataclass
class KernelEntry:
    """One cell of a kernel table: the function and where it came from."""

    fn: Any
    provenance: str  # "plugin:cpu", "library:<file>:<line>", "generated", ...
    boxed: bool = False


@dataclass
class Resolution:
    """What a key set resolves to, and why (used by ``explain``)."""

    key: K.DispatchKey | None
    source: str  # "kernel", "composite", "fallback", "cpu-fallback"
    entry: KernelEntry
    callable: Kernel
    skipped: list[str]


class OperatorHandle:
    """An operator: schema, kernel table, composite, dispatch cache."""

    def __init__(self, schema: FunctionSchema, tags: Sequence[str] = (), provenance: str = "",
                 info: OpInfo | None = None):
        self.schema = schema
        self.info = info if info is not None else OpInfo()
        self.name = str(schema.name)
        self.tags = frozenset(tags)
        self.provenance = provenance
        self.kernels: dict[K.DispatchKey, KernelEntry] = {}
        self.composite: KernelEntry | None = None
        self.autograd_info: Any = None  # filled by volta.autograd (formulas or a custom backward)
        self._cache: dict[int, Kernel] = {}
        args = schema.arguments
        self.tensor_positions = tuple(i for i, a in enumerate(args)
                                      if a.is_tensor and not a.type.is_list)
        self.tensor_list_positions = tuple(i for i, a in enumerate(args)
                                           if a.is_tensor and a.type.is_list)
        self.mutated = schema.mutated_arguments
        self.num_args = len(args)
        # tensors that add their functionality keys (Autograd...) but do not pick the backend
        self._functionality_positions: tuple[int, ...] = ()
        self._simple = not self.tensor_list_positions

    def __repr__(self) -> str:
        return f"<op {self.name}>"

    # -- the call path -------------------------------------------------------------------------

    def dispatch_only_on(self, names: tuple[str, ...]) -> None:
        """Only these Tensor arguments pick the backend; the others still add their
        functionality keys (ops.yaml's ``dispatch_on``, e.g. ``copy_`` across devices)."""
        args = self.schema.arguments
        keep = tuple(i for i in self.tensor_positions if args[i].name in names)
        self._functionality_positions = tuple(i for i in self.tensor_positions if i not in keep)
        self.tensor_positions = keep
        self._simple = not self.tensor_list_positions and not self._functionality_positions

    def keyset_of(self, args: tuple) -> int:
        ks = 0
        tensor = _TENSOR_TYPE
        for i in self.tensor_positions:
            a = args[i]
            if isinstance(a, tensor):
                ks |= a._ks
        for i in self.tensor_list_positions:
            for a in args[i] or ():
                if isinstance(a, tensor):
                    ks |= a._ks
        for i in self._functionality_positions:
            a = args[i]
            if isinstance(a, tensor):
                ks |= a._ks & K.FUNCTIONALITY_MASK
        return ks

    def __call__(self, *args: Any) -> Any:
        if self._simple:
            # keyset_of's first loop, inlined: this is every op call's hot path
            ks = 0
            tensor = _TENSOR_TYPE
            for i in self.tensor_positions:
                a = args[i]
                if isinstance(a, tensor):
                    ks |= a._ks
        else:
            ks = self.keyset_of(args)
        local = LOCAL
        ks = (ks | local.included) & ~local.excluded
        kernel = self._cache.get(ks)
        if kernel is None:
            kernel = self._resolve_and_cache(ks)
        return kernel(*args)

    def redispatch(self, key: K.DispatchKey, *args: Any) -> Any:
        """Call this op again with ``key`` and every key above it excluded on this thread.

        The one redispatch mechanism: autograd, tracing and autocast kernels call it, so ops
        that the kernels below them call are not recorded a second time.
        """
        local = LOCAL
        saved = local.excluded
        local.excluded = saved | key.mask_and_above
        try:
            return self(*args)
        finally:
            local.excluded = saved

    def call_with_keyset(self, keyset: int, *args: Any) -> Any:
        """Run the kernel that ``keyset`` resolves to (no thread-local sets applied)."""
        kernel = self._cache.get(keyset)
        if kernel is None:
            kernel = self._resolve_and_cache(keyset)
        return kernel(*args)

    # -- resolution ----------------------------------------------------------------------------

    def _resolve_and_cache(self, keyset: int) -> Kernel:
        backends = keyset & ~K.FUNCTIONALITY_MASK
        if backends & (backends - 1):
            raise DeviceMismatchError(
                f"{self.name}: expected all tensors to be on the same device, but found tensors "
                f"with backend keys {K.describe(backends)}")
        if not backends:
            if self.tensor_list_positions:
                raise ShapeError(f"{self.name}(): expected a non-empty list of Tensors")
            raise NoKernelError(f"{self.name}: no tensor argument to pick a backend from "
                                f"(key set {K.describe(keyset)}); pass at least one tensor")
        resolution = self.resolve(keyset)
        kernel = resolution.callable
        # composites write through copy_, which bumps already; bump once, where data is written
        if (self.mutated and resolution.key is not None and resolution.key.is_backend
                and resolution.source != "composite"):
            kernel = _bumping(kernel, self.mutated)
        self._cache[keyset] = kernel
        return kernel

    def resolve(self, keyset: int) -> Resolution:
        skipped: list[str] = []
        for key in K.KEYS.keys_of(keyset):
            entry = self.kernels.get(key)
            if entry is not None:
                return Resolution(key, "kernel", entry, _unbox(self, keyset, entry), skipped)
            if not key.is_backend:
                # A composite with no formula of its own differentiates through its parts, so it
                # runs at the Autograd key itself (PyTorch's CompositeImplicitAutograd).
                if key is K.Autograd and self.composite is not None and self.autograd_info is None:
                    return Resolution(key, "composite", self.composite, self.composite.fn, skipped)
                fallback = DISPATCHER.fallbacks.get(key)
                if fallback is None or fallback.fn is FALLTHROUGH:
                    skipped.append(f"{key.name}: fallthrough")
                    continue
                return Resolution(key, "fallback", fallback, _unbox(self, keyset, fallback),
                                  skipped)
            if self.composite is not None:
                return Resolution(key, "composite", self.composite, self.composite.fn, skipped)
            fallback = DISPATCHER.fallbacks.get(key)
            if fallback is not None and fallback.fn is not FALLTHROUGH:
                return Resolution(key, "fallback", fallback, _unbox(self, keyset, fallback),
                                  skipped)
            cpu_fallback = DISPATCHER.cpu_fallback_for(self, key)
            if cpu_fallback is not None:
                return Resolution(key, "cpu-fallback", cpu_fallback,
                                  _unbox(self, keyset, cpu_fallback), skipped)
            available = ", ".join(k.name for k in self.kernels) or "none"
            raise NoKernelError(
                f"{self.name}: no kernel for dispatch key {key.name} (key set "
                f"{K.describe(keyset)}); keys with kernels: {available}; the op is "
                f"{'composite' if self.composite else 'not composite'}")
        raise NoKernelError(f"{self.name}: nothing can run key set {K.describe(keyset)}")

    def invalidate(self) -> None:
        self._cache = {}

    # -- introspection ---------------------------------------------------------------------------

    def table(self) -> str:
        """Every key's kernel and where it came from, one line a key."""
        lines = [f"{self.name}: {self.schema}"]
        for key in K.KEYS.all():
            entry = self.kernels.get(key)
            if entry is not None:
                lines.append(f"  {key.name:<10} kernel     {_fn_name(entry.fn)}  "
                             f"[{entry.provenance}]")
            elif key.is_backend and self.composite is not None:
                lines.append(f"  {key.name:<10} composite  {_fn_name(self.composite.fn)}")
            elif key in DISPATCHER.fallbacks:
                fb = DISPATCHER.fallbacks[key]
                what = "fallthrough" if fb.fn is FALLTHROUGH else _fn_name(fb.fn)
                lines.append(f"  {key.name:<10} fallback   {what}  [{fb.provenance}]")
            else:
                lines.append(f"  {key.name:<10} -")
        return "\n".join(lines)


def _user_stacklevel() -> int:
    """The stack level of the first frame outside volta (so warnings point at user code)."""
    import sys
    level, frame = 1, sys._getframe(1)
    ours = ("volta", "codegen")
    while frame is not None and frame.f_globals.get("__name__", "").startswith(ours):
        frame = frame.f_back
        level += 1
    return level


def _fn_name(fn: Any) -> str:
    module = getattr(fn, "__module__", "") or ""
    return f"{module}.{getattr(fn, '__qualname__', repr(fn))}".lstrip(".")


def _bumping(kernel: Kernel, mutated: tuple[int, ...]) -> Kernel:
    """In-place kernels bump the version counter of what they write (autograd checks it)."""
    def bump_after(*args: Any) -> Any:
        result = kernel(*args)
        for i in mutated:
            args[i]._storage.version += 1
        return result

    return bump_after


def _unbox(op: OperatorHandle, keyset: int, entry: KernelEntry) -> Kernel:
    if not entry.boxed:
        return entry.fn
    boxed = entry.fn

    def call_boxed(*args: Any) -> Any:
        return boxed(op, keyset, args, {})

    return call_boxed


class Dispatcher:
    """The registry of operators and per-key fallbacks."""

    def __init__(self) -> None:
        self.lock = threading.RLock()
        self.ops: dict[str, OperatorHandle] = {}
        self.fallbacks: dict[K.DispatchKey, KernelEntry] = {}
        self.cpu_fallback_enabled = True
        self.cpu_fallback_counts: dict[str, int] = {}
        self._cpu_fallback_factory: Callable[[OperatorHandle, K.DispatchKey], Any] | None = None

    def define(self, schema: FunctionSchema, tags: Sequence[str] = (),
               provenance: str = "", info: OpInfo | None = None) -> OperatorHandle:
        name = str(schema.name)
        with self.lock:
            if name in self.ops:
                raise RegistrationError(f"operator {name!r} is already defined "
                                        f"(by {self.ops[name].provenance or 'volta'})")
            op = OperatorHandle(schema, tags, provenance, info)
            self.ops[name] = op
            return op

    def find(self, name: str) -> OperatorHandle:
        try:
            return self.ops[name]
        except KeyError:
            hint = [n for n in self.ops if n.split(".")[0] == name.split(".")[0]]
            more = f"; overloads with that name: {', '.join(hint)}" if hint else ""
            raise NoKernelError(f"unknown operator {name!r}{more}") from None

    def register_kernel(self, op: OperatorHandle, key: K.DispatchKey, fn: Any,
                        provenance: str, override: bool = False, boxed: bool = False) -> None:
        with self.lock:
            existing = op.kernels.get(key)
            if existing is not None and not override:
                raise RegistrationError(
                    f"{op.name} already has a kernel for {key.name} (from {existing.provenance}); "
                    "pass override=True to replace it")
            op.kernels[key] = KernelEntry(fn, provenance, boxed)
            self.invalidate_all()

    def register_composite(self, op: OperatorHandle, fn: Kernel, provenance: str,
                           override: bool = False) -> None:
        with self.lock:
            if op.composite is not None and not override:
                raise RegistrationError(f"{op.name} already has a composite implementation "
                                        f"(from {op.composite.provenance})")
            op.composite = KernelEntry(fn, provenance)
            self.invalidate_all()

    def register_fallback(self, key: K.DispatchKey, fn: Any, provenance: str,
                          override: bool = False) -> None:
        with self.lock:
            existing = self.fallbacks.get(key)
            if existing is not None and not override:
                raise RegistrationError(f"dispatch key {key.name} already has a fallback "
                                        f"(from {existing.provenance})")
            self.fallbacks[key] = KernelEntry(fn, provenance, boxed=fn is not FALLTHROUGH)
            self.invalidate_all()

    def set_cpu_fallback_factory(self, factory: Callable[[OperatorHandle, K.DispatchKey], Any]
                                 ) -> None:
        self._cpu_fallback_factory = factory

    def cpu_fallback_for(self, op: OperatorHandle, key: K.DispatchKey) -> KernelEntry | None:
        if not self.cpu_fallback_enabled or self._cpu_fallback_factory is None:
            return None
        boxed = self._cpu_fallback_factory(op, key)
        return None if boxed is None else KernelEntry(boxed, "cpu-fallback", boxed=True)

    def note_cpu_fallback(self, op: OperatorHandle, key: K.DispatchKey) -> None:
        with self.lock:
            count = self.cpu_fallback_counts.get(op.name, 0)
            self.cpu_fallback_counts[op.name] = count + 1
        if count == 0:
            warnings.warn(f"{op.name} has no {key.name} kernel; running it on the CPU "
                          "(copy in, compute, copy back). This warning is shown once per op.",
                          stacklevel=_user_stacklevel())

    def invalidate_all(self) -> None:
        for op in self.ops.values():
            op.invalidate()

    # -- snapshots for volta.library.scoped() --------------------------------------------------

    def snapshot(self) -> Any:
        with self.lock:
            return (dict(self.ops),
                    {name: (dict(op.kernels), op.composite, op.autograd_info)
                     for name, op in self.ops.items()},
                    dict(self.fallbacks), self.cpu_fallback_enabled)

    def restore(self, snap: Any) -> None:
        ops, tables, fallbacks, cpu_fallback = snap
        with self.lock:
            self.ops = dict(ops)
            for name, (kernels, composite, autograd_info) in tables.items():
                op = self.ops[name]
                op.kernels = dict(kernels)
                op.composite = composite
                op.autograd_info = autograd_info
            self.fallbacks = dict(fallbacks)
            self.cpu_fallback_enabled = cpu_fallback
            self.invalidate_all()


DISPATCHER = Dispatcher()
