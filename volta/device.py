"""Devices and the registry of backends that own them.

A backend is a small contract (in the spirit of tinygrad's allocators): a device type string,
a dispatch key, the dtypes it stores, and four storage functions. Everything else a backend does
is kernels registered under its key.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Protocol

import numpy as np

from volta.dispatch.keys import KEYS, REGISTRATION_LOCK, DispatchKey
from volta.dtypes import dtype
from volta.errors import BackendError, RegistrationError


class device:  # noqa: N801 - PyTorch's public name
    """A device string with an optional index: ``"cpu"``, ``"wgpu:0"``."""

    __slots__ = ("type", "index")

    def __init__(self, spec: Any, index: int | None = None):
        if isinstance(spec, device):
            self.type, self.index = spec.type, spec.index if index is None else index
            return
        if not isinstance(spec, str):
            raise BackendError(f"expected a device string like 'cpu' or 'wgpu:0', got {spec!r}")
        kind, _, idx = spec.partition(":")
        if idx:
            if not idx.isdigit():
                raise BackendError(f"invalid device index in {spec!r}: write e.g. 'wgpu:0'")
            if index is not None:
                raise BackendError(f"device {spec!r} already has an index")
            index = int(idx)
        self.type = kind
        self.index = index

    def __eq__(self, other: object) -> bool:
        if isinstance(other, str):
            other = device(other)
        if not isinstance(other, device):
            return NotImplemented
        return self.type == other.type and (self.index or 0) == (other.index or 0)

    def __hash__(self) -> int:
        return hash((self.type, self.index or 0))

    def __str__(self) -> str:
        return self.type if self.index is None else f"{self.type}:{self.index}"

    def __repr__(self) -> str:
        return f"device(type='{self.type}'" + (f", index={self.index})" if self.index is not None
                                               else ")")


class Backend(Protocol):
    """What a device backend gives volta (see ``BackendRegistry.register``)."""

    name: str
    key: DispatchKey
    dtypes: frozenset[dtype]

    def allocate(self, numel: int, dt: dtype, index: int) -> Any: ...
    def from_numpy(self, array: np.ndarray, index: int) -> Any: ...
    def to_numpy(self, handle: Any, dt: dtype, numel: int) -> np.ndarray: ...
    def copy_(self, dst: Any, src: np.ndarray) -> None: ...


@dataclass
class BackendInfo:
    name: str
    key: DispatchKey
    impl: Any
    dtypes: frozenset
    provenance: str
    # the storage handle is itself a host numpy array, so tensors can be viewed without copies
    host_memory: bool = False
    extra: dict = field(default_factory=dict)


class BackendRegistry:
    """Device types -> backends. Filled by the ``volta_register_backends`` hook."""

    def __init__(self) -> None:
        self._lock = REGISTRATION_LOCK  # shared with keys and kernel tables
        self._by_name: dict[str, BackendInfo] = {}
        self._by_key: dict[DispatchKey, BackendInfo] = {}
        self._host: BackendInfo | None = None

    def register(self, name: str, impl: Any, dtypes: Any = None, key_name: str | None = None,
                 provenance: str = "", host: bool = False) -> BackendInfo:
        """Register a device type. ``impl`` provides allocate/from_numpy/to_numpy/copy_.

        A new dispatch key named ``key_name`` (default: the name in upper case, e.g. "WGPU")
        is created for it, below every existing key. ``host=True`` marks the backend that owns
        host memory: the default device of factories, the target of ``tensor.cpu()`` and of
        the CPU fallback (volta's CPU backend declares it; core code never names a device).
        """
        from volta.dtypes import ALL_DTYPES
        for method in ("allocate", "from_numpy", "to_numpy", "copy_"):
            if not callable(getattr(impl, method, None)):
                raise RegistrationError(f"backend {name!r} must provide {method}()")
        with self._lock:
            if name in self._by_name:
                raise RegistrationError(f"device type {name!r} is already registered "
                                        f"(by {self._by_name[name].provenance})")
            key = KEYS.find(key_name or name.upper()) or KEYS.register_backend(
                key_name or name.upper())
            info = BackendInfo(name, key, impl, frozenset(dtypes or ALL_DTYPES), provenance,
                               host_memory=bool(getattr(impl, "host_memory", False)))
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
        return device(self.host().name)

    def get(self, dev: device | str) -> BackendInfo:
        kind = dev.type if isinstance(dev, device) else device(dev).type
        info = self._by_name.get(kind)
        if info is None:
            raise BackendError(f"unknown device type {kind!r}; registered: "
                               f"{', '.join(self._by_name) or 'none'}")
        return info

    def for_key(self, key: DispatchKey) -> BackendInfo | None:
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


BACKENDS = BackendRegistry()
