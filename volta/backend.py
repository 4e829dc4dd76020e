"""The backend contract: what a device backend gives volta, and how kernels read tensor data.

A backend is small (in the spirit of tinygrad's allocators). It owns **flat buffers** of
elements and moves them to and from host numpy arrays; everything else it does is kernels
registered under its dispatch key. Subclass :class:`Backend` and register an instance from
the ``volta_register_backends`` hook (``volta/plugins/hookspecs.py``)::

    class ToyBackend(volta.backend.Backend):
        dtypes = frozenset({volta.float32, volta.int64})

        def allocate(self, numel, dtype, index):  return ToyBuffer(numel, dtype)
        def copy_(self, dst, src):               dst.write(src)
        def to_numpy(self, handle, dtype, numel): return handle.read()

    @volta.plugins.hookimpl
    def volta_register_backends(registry):
        registry.register("toy", ToyBackend(), key_name="TOY", provenance="my-package")

**Storage and strides.** A tensor is metadata (sizes, strides and storage offset, all in
elements; dtype; device) over a storage. The *tensor* owns that metadata; the backend only
stores a flat run of ``numel`` elements of one dtype and returns an opaque *handle* for it.
Views (``t[1:]``, ``t.T``, ``expand``) share the handle and differ only in metadata, so a
backend never sees them as separate allocations. A kernel reads both halves through
:func:`storage_of` (device code) or :func:`host_view` (numpy code).

**Dtypes.** :attr:`Backend.dtypes` is the declared set. Creating or moving a tensor of any
other dtype onto the device raises :class:`volta.DTypeError` naming the device, the dtype and
the supported ones, before the backend is called, so backend methods only see declared dtypes.

**Who calls what.** volta calls :meth:`~Backend.from_numpy` when data arrives from the host
(``volta.tensor(..., device=)``, ``t.to(device)``, the CPU fallback's results),
:meth:`~Backend.read` (by default :meth:`~Backend.synchronize` then :meth:`~Backend.to_numpy`)
when the host reads a storage (``t.cpu()``, printing, ``host_view``), and :meth:`~Backend.copy_`
when the CPU fallback writes an in-place result back.

**Asynchronous devices.** Kernels may only *enqueue* work and return: nothing in volta reads
device memory except through :meth:`~Backend.read`, so a backend with a queue (WGPU) submits
and waits there, and in :meth:`~Backend.synchronize` (``volta.wgpu.synchronize()``). An upload
(:meth:`~Backend.copy_`) must be ordered after the queued work that reads the old contents.
Copies between two storages of one device are kernels (``copy_``, ``_to_copy``) registered
under the backend's key; between two devices, data goes through the host.

The default ``from_numpy`` is :meth:`~Backend.allocate` then
:meth:`~Backend.copy_`, so those three methods are all a backend must write. The default
:meth:`~Backend.grow` (``Tensor.resize_`` enlarging a storage) goes through the host with them.
"""

from __future__ import annotations

from abc import abstractmethod
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, ClassVar, NamedTuple

import numpy as np

from volta import dtypes as D
from volta.device import device
from volta.dispatch.keys import KEYS, REGISTRATION_LOCK, DispatchKey
from volta.errors import BackendError, RegistrationError

if TYPE_CHECKING:
    from volta.tensor.tensor import Tensor

__all__ = ["Backend", "BackendInfo", "BackendRegistry", "BACKENDS", "StorageRef", "host_view",
           "storage_of"]


class Backend:
    """Base class of every device backend; the methods marked abstract are required.

    Not an ``abc.ABC`` on purpose: an incomplete backend is reported by
    :meth:`BackendRegistry.register` as a :class:`volta.errors.RegistrationError` naming the
    missing method (inside the plugin loader's guard), not as a ``TypeError`` at construction.
    """

    #: The dtypes this device stores (default: all of volta's). Others raise ``DTypeError``.
    dtypes: ClassVar[frozenset[D.dtype]] = frozenset(D.ALL_DTYPES)

    #: True only when every handle *is* a C-contiguous numpy array (any shape) of the storage's
    #: dtype and size that the host may read and write directly: tensors then view it without copies
    #: (``numpy()``, ``data_ptr()``, kernels' ``host_view``) and ``to_numpy`` must return the
    #: handle itself. volta's CPU backend is the one such backend.
    host_memory: ClassVar[bool] = False

    @abstractmethod
    def allocate(self, numel: int, dtype: D.dtype, index: int) -> Any:
        """New storage for ``numel`` elements of ``dtype`` on device number ``index`` (0 for
        ``"toy"``, 1 for ``"toy:1"``); returns the backend's handle. The contents may be
        uninitialised. Raise :class:`volta.errors.BackendError` when memory runs out."""

    @abstractmethod
    def copy_(self, dst: Any, src: np.ndarray) -> None:
        """Host to device: overwrite the whole storage ``dst`` with ``src``, a C-contiguous host
        array of the storage's dtype with exactly its number of elements (any shape; read it
        in C order). ``src`` belongs to the caller: copy from it, keep no reference."""

    @abstractmethod
    def to_numpy(self, handle: Any, dtype: D.dtype, numel: int) -> np.ndarray:
        """Device to host: the storage's ``numel`` elements as a 1-D numpy array of
        ``dtype.numpy``.

        It may be a fresh copy or a view of memory the backend keeps: callers treat it as a
        read-only snapshot, valid until the next write to the storage, and never write through
        it (writes go through :meth:`copy_`). volta calls :meth:`synchronize` first, so pending
        device work is finished. With ``host_memory`` it must return ``handle`` itself.
        """

    def from_numpy(self, array: np.ndarray, index: int) -> Any:
        """Host to device for new data: a handle holding ``array``'s elements (C-contiguous,
        any shape, a dtype in :attr:`dtypes`). Default: :meth:`allocate`, then :meth:`copy_`.

        Override to save the second pass. Only a ``host_memory`` backend may keep ``array``
        itself as the handle (``volta.from_numpy`` relies on that to share memory); any other
        must copy, since ``array`` may be a CPU tensor's own storage.
        """
        handle = self.allocate(array.size, D.from_numpy_dtype(array.dtype), index)
        self.copy_(handle, array)
        return handle

    def grow(self, handle: Any, dtype: D.dtype, numel: int, new_numel: int, index: int) -> Any:
        """A new storage of ``new_numel`` (more than ``numel``) elements whose first ``numel``
        are ``handle``'s and the rest zeros; volta then drops ``handle``. Called when
        ``Tensor.resize_`` needs more elements than the storage holds.

        Default: :meth:`read` the old elements, pad them with zeros on the host, and
        :meth:`from_numpy`. Override to copy on the device instead."""
        host = np.zeros(new_numel, dtype=dtype.numpy)
        host[:numel] = self.read(handle, dtype, numel, index).reshape(-1)[:numel]
        return self.from_numpy(host, index)

    def read(self, handle: Any, dtype: D.dtype, numel: int, index: int) -> np.ndarray:
        """Everything the host needs to read a storage: wait for the work that writes it, then
        :meth:`to_numpy`. volta reads storages only through this method (``t.numpy()``,
        ``.item()``, printing, copies to another device, the CPU fallback).

        Default: :meth:`synchronize`, then :meth:`to_numpy`. A backend with an asynchronous
        queue overrides it to fold the wait into the read, so a read costs one submission and
        one transfer (WGPU records the copy to a staging buffer into the pending batch)."""
        self.synchronize(index)
        return self.to_numpy(handle, dtype, numel)

    def synchronize(self, index: int) -> None:
        """Block until all work queued on device ``index`` has finished. volta calls it before
        every host read of a storage (:meth:`to_numpy`). Default: nothing to wait for, right
        for backends whose kernels finish before they return (CPU); a backend with an
        asynchronous queue (WGPU) waits on it here."""

    def random(self, numel: int, dtype: D.dtype, distribution: str, key: int, offset: int,
               index: int) -> Any:
        """Optional: new storage of ``numel`` samples drawn on the device, ``distribution``
        ``"uniform"`` ([0, 1)) or ``"normal"`` (mean 0, std 1), from a counter-based stream:
        ``key`` is the generator's seed, ``offset`` the number of 128-bit blocks of the stream
        already used (the generator advances it by ``ceil(numel / 4)``). ``dtype`` is floating.
        Return ``None`` (the default) to have volta draw on the host and upload the numbers."""
        return None

    def diagnose(self) -> dict[str, str]:
        """Facts about this backend for ``python -m volta doctor``: libraries and their
        versions, the hardware found (adapters, drivers), settings in force. Raise to report
        that the backend cannot work here; the exception's message is shown. Default: none."""
        return {}


REQUIRED_METHODS: tuple[str, ...] = tuple(
    name for name, member in vars(Backend).items()
    if getattr(member, "__isabstractmethod__", False))


@dataclass
class BackendInfo:
    """A registered backend: its device type name, dispatch key and implementation."""

    name: str
    key: DispatchKey
    impl: Backend
    dtypes: frozenset[D.dtype]
    provenance: str

    @property
    def host_memory(self) -> bool:
        return self.impl.host_memory


class BackendRegistry:
    """Device types -> backends. Filled by the ``volta_register_backends`` hook."""

    def __init__(self) -> None:
        self._lock = REGISTRATION_LOCK  # shared with keys and kernel tables
        self._by_name: dict[str, BackendInfo] = {}
        self._by_key: dict[DispatchKey, BackendInfo] = {}
        self._host: BackendInfo | None = None
        self._host_device: tuple[BackendInfo, device] | None = None

    def register(self, name: str, impl: Backend, key_name: str | None = None,
                 provenance: str = "", host: bool = False) -> BackendInfo:
        """Register device type ``name`` (e.g. ``"toy"``, used as ``"toy"`` or ``"toy:1"``)
        backed by ``impl``, an instance of a :class:`Backend` subclass.

        A new dispatch key named ``key_name`` (default: the name in upper case, e.g. "TOY")
        is created for it, below every existing key; register kernels under that name.
        ``host=True`` marks the backend that owns host memory: the default device of
        factories, the target of ``tensor.cpu()`` and of the CPU fallback (volta's CPU backend
        declares it; core code never names a device). Raises
        :class:`volta.errors.RegistrationError` when ``impl`` is not a complete
        :class:`Backend` or the name is taken.
        """
        _check_backend(name, impl)
        with self._lock:
            if name in self._by_name:
                raise RegistrationError(f"device type {name!r} is already registered "
                                        f"(by {self._by_name[name].provenance})")
            key = KEYS.find(key_name or name.upper()) or KEYS.register_backend(
                key_name or name.upper())
            info = BackendInfo(name, key, impl, frozenset(impl.dtypes), provenance)
            if host:
                if self._host is not None:
                    raise RegistrationError(f"{name!r} cannot be the host backend: "
                                            f"{self._host.name!r} already is")
                self._host = info
            self._by_name[name] = info
            self._by_key[key] = info
            return info

    def host(self) -> BackendInfo:
        """The backend that owns host memory (volta's CPU backend)."""
        if self._host is None:
            raise BackendError("no host backend is registered (is volta's CPU plugin disabled?)")
        return self._host

    def host_device(self) -> device:
        info = self.host()
        cached = self._host_device
        if cached is None or cached[0] is not info:
            # one device object per host backend: every factory call without a device asks
            cached = self._host_device = (info, device(info.name))
        return cached[1]

    def get(self, dev: device | str) -> BackendInfo:
        kind = dev.type if isinstance(dev, device) else device(dev).type
        info = self._by_name.get(kind)
        if info is None:
            raise BackendError(f"unknown device type {kind!r}; registered: "
                               f"{', '.join(self._by_name) or 'none'}")
        return info

    def for_key(self, key: DispatchKey) -> BackendInfo | None:
        """The backend that owns backend dispatch key ``key`` (None for other keys)."""
        return self._by_key.get(key)

    def names(self) -> list[str]:
        return list(self._by_name)

    def unregister(self, name: str) -> None:
        with self._lock:
            info = self._by_name.pop(name, None)
            if info is not None:
                self._by_key.pop(info.key, None)
                if info is self._host:
                    self._host = None


def _check_backend(name: str, impl: Any) -> None:
    if not isinstance(impl, Backend):
        raise RegistrationError(f"backend {name!r}: {type(impl).__name__} must subclass "
                                f"volta.backend.Backend (required: "
                                f"{', '.join(m + '()' for m in REQUIRED_METHODS)})")
    cls = type(impl)
    for method in REQUIRED_METHODS:
        if getattr(getattr(cls, method), "__isabstractmethod__", False):
            raise RegistrationError(f"backend {name!r}: {cls.__name__} does not implement "
                                    f"{method}(), which every volta.backend.Backend must provide")
    if not isinstance(impl.host_memory, bool):
        raise RegistrationError(f"backend {name!r}: host_memory must be True or False, got "
                                f"{impl.host_memory!r}")
    bad = [d for d in impl.dtypes if not isinstance(d, D.dtype)]
    if bad or not impl.dtypes:
        raise RegistrationError(f"backend {name!r}: dtypes must be a non-empty set of volta "
                                f"dtypes, got {sorted(map(repr, impl.dtypes))}")


BACKENDS = BackendRegistry()


# -- how kernels read their inputs -----------------------------------------------------------------


class StorageRef(NamedTuple):
    """What a kernel needs to address a tensor's elements in device memory.

    Element ``(i0, i1, ...)`` of the tensor is element
    ``offset + i0 * strides[0] + i1 * strides[1] + ...`` of the flat storage ``handle``.
    """

    handle: Any                  # the backend's handle (what allocate/from_numpy returned)
    numel: int                   # elements in the whole storage, not the tensor
    dtype: D.dtype
    sizes: tuple[int, ...]
    strides: tuple[int, ...]     # in elements
    offset: int                  # in elements
    device: device


def storage_of(t: Tensor) -> StorageRef:
    """``t``'s storage handle and strided layout, for kernels that run on the device itself.

    Works for any tensor, including inputs that require grad (kernels below the Autograd key
    receive the very tensors the user passed). Reading it never copies or synchronises.
    """
    s = t._storage
    return StorageRef(s.handle, s.numel, t.dtype, tuple(t._shape), tuple(t._stride), t._offset,
                      t._device)


def host_view(t: Tensor) -> np.ndarray:
    """``t``'s elements as a numpy array of ``t``'s shape, for kernels written with numpy.

    The one way a kernel reads input data: unlike ``t.numpy()`` it accepts tensors that
    require grad and tensors on any device. On a ``host_memory`` backend (CPU) it is a
    writable zero-copy view of the storage. On any other backend it is a read-only view of
    ``to_numpy``'s snapshot (taken after ``synchronize``): results go into new tensors, or
    into device memory through the backend's ``copy_``.
    """
    arr = t._np
    if arr is not None:
        return arr
    storage = t._storage
    impl = storage.backend.impl
    host_memory = impl.host_memory
    if host_memory:
        base = storage.handle
    else:
        base = impl.read(storage.handle, t.dtype, storage.numel, t._device.index or 0)
    itemsize = t.dtype.itemsize
    if t.numel() == 0:
        arr = np.empty(t._shape, dtype=t.dtype.numpy)
    else:
        arr = np.ndarray(t._shape, dtype=t.dtype.numpy, buffer=base, offset=t._offset * itemsize,
                         strides=tuple(s * itemsize for s in t._stride))
    if host_memory:
        t._np = arr
    else:
        arr.flags.writeable = False
    return arr
