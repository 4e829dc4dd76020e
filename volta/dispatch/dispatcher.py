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

Threading model
---------------
Any thread may call ops while others register kernels, composites, fallbacks, backends or keys,
enter and leave ``volta.library.scoped()`` or switch the CPU fallback. Guaranteed:

* A call that begins after a registration (or a scope's restore) has returned sees it.
* Calls in flight while a registration runs may finish on the kernel they had already looked up
  (the old one); no call ever sees a half-made change to a single table.
* Registrations are serialised by one reentrant lock (``keys.REGISTRATION_LOCK``, also
  ``DISPATCHER.lock``); the call path takes no lock on a cache hit.

How, see Note [Dispatch cache generation]. The thread-local included/excluded key sets are per
thread and need no lock. ``scoped()`` restores the global tables to what they were when it was
entered: registrations another thread makes while a scope is open are undone with it.

Note [Dispatch cache generation]
Every change to a table that resolution reads runs inside ``Dispatcher.mutation()``: under the
lock, and on leaving it the dispatcher's ``generation`` goes up and every filled cache is
emptied. A cache fill reads ``generation`` *before* reading the tables and stores its result
only if, under the lock, the generation is unchanged. So an entry stored at generation G was
resolved from tables no older than the last change made before G, and a change that finishes
later empties it: a cache fill racing a registration cannot leave a stale entry behind. Tables
(``op.kernels``, ``fallbacks``, ``ops``, the key registry) are replaced, never mutated in place,
so readers that take no lock iterate a consistent dict.
"""

from __future__ import annotations

import warnings
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

from volta import compiled
from volta.dispatch import keys as K
from volta.dispatch.local_state import LOCAL
from volta.errors import (
    TRANSLATES_RAW_ERRORS,
    ArgumentError,
    DeviceMismatchError,
    NoKernelError,
    RegistrationError,
    ShapeError,
    as_volta_error,
)
from volta.schema import FunctionSchema, OpInfo

Kernel = Callable[..., Any]
BoxedKernel = Callable[["OperatorHandle", int, tuple, dict], Any]

FALLTHROUGH = object()  # register as a fallback to make a key pass calls to the key below it

_TENSOR_TYPE: type | None = None  # set by volta._wiring (the seam, docs/layout.md)

# the call path in C (Note [Compiled call path] in native/dispatch.c), or None
_native = compiled.load("volta.dispatch.native._dispatch")


def set_tensor_type(tensor_type: type) -> None:
    global _TENSOR_TYPE
    _TENSOR_TYPE = tensor_type
    if _native is not None:
        _native.set_tensor_type(tensor_type)


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


class _PythonCallPath:
    """OperatorHandle's call path (``op(*args)``, ``redispatch``, ``call_with_keyset``).

    volta/dispatch/native/dispatch.c is the same code in C, used as OperatorHandle's base
    class when it is built; it hands back to these methods what it does not handle (Note
    [Compiled call path]). The attributes they read are OperatorHandle's.
    """

    _simple: bool
    _cache: dict[int, Kernel]
    tensor_positions: tuple[int, ...]
    keyset_of: Callable[[tuple], int]
    _resolve_and_cache: Callable[[int, tuple], Kernel]
    _translated: Callable[[Kernel, Exception], Exception | None]

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
            kernel = self._resolve_and_cache(ks, args)
        try:
            return kernel(*args)
        except Exception as error:  # free unless raised: Note [Raw-error boundary]
            translated = self._translated(kernel, error)
            if translated is None:
                raise
            raise translated from error

    def redispatch(self, key: K.DispatchKey, *args: Any) -> Any:
        """Call this op again with ``key`` and every key above it excluded on this thread.

        The one redispatch mechanism: autograd, tracing and autocast kernels call it, so ops
        that the kernels below them call are not recorded a second time.
        """
        local = LOCAL
        saved = local.excluded
        excluded = local.excluded = saved | key.mask_and_above
        try:
            # __call__'s body, inlined: every autograd-recorded call passes here
            if self._simple:
                ks = 0
                tensor = _TENSOR_TYPE
                for i in self.tensor_positions:
                    a = args[i]
                    if isinstance(a, tensor):
                        ks |= a._ks
            else:
                ks = self.keyset_of(args)
            ks = (ks | local.included) & ~excluded
            kernel = self._cache.get(ks)
            if kernel is None:
                kernel = self._resolve_and_cache(ks, args)
            try:
                return kernel(*args)
            except Exception as error:
                translated = self._translated(kernel, error)
                if translated is None:
                    raise
                raise translated from error
        finally:
            local.excluded = saved

    def call_with_keyset(self, keyset: int, *args: Any) -> Any:
        """Run the kernel that ``keyset`` resolves to (no thread-local sets applied)."""
        # the lookup and the error translation are spelled out as in __call__, not shared
        # through a helper: this is the redispatch path, and a helper is one more frame a call
        kernel = self._cache.get(keyset)
        if kernel is None:
            kernel = self._resolve_and_cache(keyset, args)
        try:
            return kernel(*args)
        except Exception as error:
            translated = self._translated(kernel, error)
            if translated is None:
                raise
            raise translated from error


if _native is not None:
    _CallPath: type = _native.CallPath
    _native.set_python_paths(_PythonCallPath.__call__, _PythonCallPath.redispatch,
                             _PythonCallPath.call_with_keyset)
else:
    _CallPath = _PythonCallPath


class OperatorHandle(_CallPath):
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

    # An operator is its registry entry: a copy (copy.deepcopy of a module that holds one) is
    # the operator itself. (The compiled base class keeps its cache and tensor positions out of
    # __dict__, where a field-by-field copy would miss them.)
    def __copy__(self) -> OperatorHandle:
        return self

    def __deepcopy__(self, memo: dict) -> OperatorHandle:
        return self

    # -- the call path -------------------------------------------------------------------------

    def dispatch_only_on(self, names: tuple[str, ...]) -> None:
        """Only these Tensor arguments pick the backend; the others still add their
        functionality keys (ops.yaml's ``dispatch_on``, e.g. ``copy_`` across devices)."""
        args = self.schema.arguments
        keep = tuple(i for i in self.tensor_positions if args[i].name in names)
        self._functionality_positions = tuple(i for i in self.tensor_positions if i not in keep)
        self.tensor_positions = keep
        self._simple = not self.tensor_list_positions and not self._functionality_positions

    def _translated(self, kernel: Kernel, error: Exception) -> Exception | None:
        if not getattr(kernel, TRANSLATES_RAW_ERRORS, False):
            return None
        return as_volta_error(self.name, error)

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

    # -- resolution ----------------------------------------------------------------------------

    def _resolve_and_cache(self, keyset: int, args: tuple = ()) -> Kernel:
        backends = keyset & ~K.FUNCTIONALITY_MASK
        if backends & (backends - 1):
            raise DeviceMismatchError(
                f"{self.name}: expected all tensors to be on the same device, but found tensors "
                f"with backend keys {K.describe(backends)}")
        if not backends:
            if self.tensor_list_positions and args:
                self._check_tensor_lists(args)
                if self.composite is not None:
                    # only empty Tensor[] arguments: as at PyTorch's Undefined key, the
                    # composite runs (atleast_2d([]) is ()) and says itself if it needs a
                    # tensor; not cached, since the key set says nothing about the lists
                    return self.composite.fn
            if self.tensor_list_positions:
                raise ShapeError(f"{self.name}(): expected a non-empty list of Tensors")
            raise NoKernelError(f"{self.name}: no tensor argument to pick a backend from "
                                f"(key set {K.describe(keyset)}); pass at least one tensor")
        # read before any table: Note [Dispatch cache generation]
        generation = DISPATCHER.generation
        resolution = self.resolve(keyset)
        kernel = resolution.callable
        # composites write through copy_, which bumps already; bump once, where data is written
        if (self.mutated and resolution.key is not None and resolution.key.is_backend
                and resolution.source != "composite"):
            kernel = _bumping(kernel, self.mutated)
        if kernel is not resolution.entry.fn and getattr(resolution.entry.fn,
                                                         TRANSLATES_RAW_ERRORS, False):
            setattr(kernel, TRANSLATES_RAW_ERRORS, True)  # a wrapper keeps the raw-error mark
        DISPATCHER.store_in_cache(self, keyset, kernel, generation)
        return kernel

    def _check_tensor_lists(self, args: tuple) -> None:
        """A Tensor[] argument holds Tensors only (PyTorch's argument parser's message)."""
        tensor = _TENSOR_TYPE
        for i in self.tensor_list_positions:
            items = args[i] if i < len(args) else None
            for j, item in enumerate(items or ()):
                if not isinstance(item, tensor) and item is not None:
                    raise ArgumentError(f"{self.name}(): expected Tensor as element {j} in "
                                        f"argument {i}, but got {type(item).__name__}")

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


if _native is not None:
    _native.enable_vectorcall(OperatorHandle)


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
            if args[i] is not None:  # an optional Tensor(a!)? left out writes nothing
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
    """The registry of operators and per-key fallbacks (thread-safe: see the module docstring)."""

    def __init__(self) -> None:
        self.lock = K.REGISTRATION_LOCK
        self.ops: dict[str, OperatorHandle] = {}
        self.fallbacks: dict[K.DispatchKey, KernelEntry] = {}
        self.cpu_fallback_enabled = True
        self.cpu_fallback_counts: dict[str, int] = {}
        self._cpu_fallback_factory: Callable[[OperatorHandle, K.DispatchKey], Any] | None = None
        self.generation = 0  # Note [Dispatch cache generation]
        self._filled: set[OperatorHandle] = set()  # ops whose cache may hold entries

    # -- the dispatch cache ----------------------------------------------------------------------

    @contextmanager
    def mutation(self) -> Iterator[None]:
        """Hold the lock while changing tables; on leaving, start a new cache generation."""
        with self.lock:
            try:
                yield
            finally:
                self._new_generation()

    def _new_generation(self) -> None:
        self.generation += 1
        for op in self._filled:
            op.invalidate()
        self._filled = set()

    def store_in_cache(self, op: OperatorHandle, keyset: int, kernel: Kernel,
                       generation: int) -> None:
        """Cache what ``keyset`` resolved to, unless the tables changed since ``generation``."""
        # Never wait here: a thread holding the lock may be waiting for this one. Not storing
        # is always safe (the next call resolves again).
        if not self.lock.acquire(blocking=False):
            return
        try:
            if generation == self.generation:
                op._cache[keyset] = kernel
                self._filled.add(op)
        finally:
            self.lock.release()

    def invalidate_all(self) -> None:
        with self.mutation():
            pass

    # -- registration ----------------------------------------------------------------------------

    def define(self, schema: FunctionSchema, tags: Sequence[str] = (),
               provenance: str = "", info: OpInfo | None = None) -> OperatorHandle:
        name = str(schema.name)
        with self.lock:
            if name in self.ops:
                raise RegistrationError(f"operator {name!r} is already defined "
                                        f"(by {self.ops[name].provenance or 'volta'})")
            op = OperatorHandle(schema, tags, provenance, info)
            self.ops = {**self.ops, name: op}  # a new op has an empty cache: no new generation
            return op

    def find(self, name: str) -> OperatorHandle:
        ops = self.ops
        try:
            return ops[name]
        except KeyError:
            hint = [n for n in ops if n.split(".")[0] == name.split(".")[0]]
            more = f"; overloads with that name: {', '.join(hint)}" if hint else ""
            raise NoKernelError(f"unknown operator {name!r}{more}") from None

    def register_kernel(self, op: OperatorHandle, key: K.DispatchKey, fn: Any,
                        provenance: str, override: bool = False, boxed: bool = False) -> None:
        with self.mutation():
            existing = op.kernels.get(key)
            if existing is not None and not override:
                raise RegistrationError(
                    f"{op.name} already has a kernel for {key.name} (from {existing.provenance}); "
                    "pass override=True to replace it")
            op.kernels = {**op.kernels, key: KernelEntry(fn, provenance, boxed)}

    def register_composite(self, op: OperatorHandle, fn: Kernel, provenance: str,
                           override: bool = False) -> None:
        with self.mutation():
            if op.composite is not None and not override:
                raise RegistrationError(f"{op.name} already has a composite implementation "
                                        f"(from {op.composite.provenance})")
            op.composite = KernelEntry(fn, provenance)

    def register_fallback(self, key: K.DispatchKey, fn: Any, provenance: str,
                          override: bool = False) -> None:
        with self.mutation():
            existing = self.fallbacks.get(key)
            if existing is not None and not override:
                raise RegistrationError(f"dispatch key {key.name} already has a fallback "
                                        f"(from {existing.provenance})")
            entry = KernelEntry(fn, provenance, boxed=fn is not FALLTHROUGH)
            self.fallbacks = {**self.fallbacks, key: entry}

    # -- the CPU fallback --------------------------------------------------------------------------

    def set_cpu_fallback(self, enabled: bool) -> None:
        with self.mutation():
            self.cpu_fallback_enabled = bool(enabled)

    def set_cpu_fallback_factory(self, factory: Callable[[OperatorHandle, K.DispatchKey], Any]
                                 ) -> None:
        with self.mutation():
            self._cpu_fallback_factory = factory

    def cpu_fallback_for(self, op: OperatorHandle, key: K.DispatchKey) -> KernelEntry | None:
        factory = self._cpu_fallback_factory  # read once: another thread may replace it
        if not self.cpu_fallback_enabled or factory is None:
            return None
        boxed = factory(op, key)
        return None if boxed is None else KernelEntry(boxed, "cpu-fallback", boxed=True)

    def note_cpu_fallback(self, op: OperatorHandle, key: K.DispatchKey) -> None:
        with self.lock:
            count = self.cpu_fallback_counts.get(op.name, 0)
            self.cpu_fallback_counts[op.name] = count + 1
        if count == 0:
            warnings.warn(f"{op.name} has no {key.name} kernel; running it on the CPU "
                          "(copy in, compute, copy back). This warning is shown once per op.",
                          stacklevel=_user_stacklevel())

    # -- snapshots for volta.library.scoped() --------------------------------------------------

    def snapshot(self) -> Any:
        """Operators, their tables, fallbacks and the CPU fallback switch, for ``restore``
        (the tables are replaced, never mutated, so the snapshot holds them without copying)."""
        with self.lock:
            return (self.ops,
                    {name: (op.kernels, op.composite, op.autograd_info)
                     for name, op in self.ops.items()},
                    self.fallbacks, self.cpu_fallback_enabled)

    def restore(self, snap: Any) -> None:
        """Put back a ``snapshot`` as one change for other threads."""
        ops, tables, fallbacks, cpu_fallback = snap
        with self.mutation():
            self.ops = ops
            for name, (kernels, composite, autograd_info) in tables.items():
                op = ops[name]
                op.kernels = kernels
                op.composite = composite
                op.autograd_info = autograd_info
            self.fallbacks = fallbacks
            self.cpu_fallback_enabled = cpu_fallback


DISPATCHER = Dispatcher()
