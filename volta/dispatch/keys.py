"""Dispatch keys and key sets.

Note [Key set encoding]
A key set is a plain ``int`` bit mask. Bit order *is* priority order: the lowest set bit is the
highest-priority key. Functionality keys (Tracing, Autocast, Autograd) own the lowest bits, and
backend keys take bits upward from ``_FIRST_BACKEND_BIT`` as they are registered, so there is no
fixed number of backend slots and picking the key to run is ``(ks & -ks).bit_length() - 1``.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass, field

from volta.errors import RegistrationError

_FIRST_BACKEND_BIT = 8


@dataclass(frozen=True, eq=False)
class DispatchKey:
    """A named slot in every operator's kernel table."""

    name: str
    bit: int
    is_backend: bool
    mask: int = field(init=False)
    # every key at or above this one (used to exclude them while redispatching below it)
    mask_and_above: int = field(init=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "mask", 1 << self.bit)
        object.__setattr__(self, "mask_and_above", (1 << (self.bit + 1)) - 1)

    def __repr__(self) -> str:
        return f"DispatchKey.{self.name}"


class KeyRegistry:
    """All dispatch keys, fixed functionality keys first, backend keys added at run time."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._by_name: dict[str, DispatchKey] = {}
        self._by_bit: dict[int, DispatchKey] = {}
        self._next_backend_bit = _FIRST_BACKEND_BIT

    def _add(self, key: DispatchKey) -> DispatchKey:
        self._by_name[key.name] = key
        self._by_bit[key.bit] = key
        return key

    def functionality(self, name: str, bit: int) -> DispatchKey:
        return self._add(DispatchKey(name, bit, is_backend=False))

    def register_backend(self, name: str) -> DispatchKey:
        """Create a new backend key; its priority is below every existing key."""
        with self._lock:
            if name in self._by_name:
                raise RegistrationError(f"dispatch key {name!r} already exists")
            key = DispatchKey(name, self._next_backend_bit, is_backend=True)
            self._next_backend_bit += 1
            return self._add(key)

    def unregister_backend(self, key: DispatchKey) -> None:
        """Remove a backend key (a failed plugin's rollback); its bit is reused when it was
        the last one handed out."""
        with self._lock:
            if not key.is_backend or self._by_name.get(key.name) is not key:
                raise RegistrationError(f"{key!r} is not a registered backend key")
            del self._by_name[key.name]
            del self._by_bit[key.bit]
            if key.bit == self._next_backend_bit - 1:
                self._next_backend_bit -= 1

    def get(self, name: str) -> DispatchKey:
        try:
            return self._by_name[name]
        except KeyError:
            known = ", ".join(self._by_name)
            raise RegistrationError(f"unknown dispatch key {name!r}; known keys: {known}") from None

    def find(self, name: str) -> DispatchKey | None:
        return self._by_name.get(name)

    def from_bit(self, bit: int) -> DispatchKey:
        return self._by_bit[bit]

    def keys_of(self, keyset: int) -> list[DispatchKey]:
        """The keys in ``keyset``, highest priority first."""
        found = []
        while keyset:
            low = keyset & -keyset
            found.append(self._by_bit[low.bit_length() - 1])
            keyset ^= low
        return found

    def all(self) -> list[DispatchKey]:
        return sorted(self._by_name.values(), key=lambda k: k.bit)


KEYS = KeyRegistry()
Tracing = KEYS.functionality("Tracing", 0)
Autocast = KEYS.functionality("Autocast", 1)
Autograd = KEYS.functionality("Autograd", 2)
FUNCTIONALITY_MASK = (1 << _FIRST_BACKEND_BIT) - 1
# Meta is core's own shape-only backend key (its kernels arrive through register_meta).
Meta = KEYS.register_backend("Meta")


def highest_key(keyset: int) -> DispatchKey:
    return KEYS.from_bit((keyset & -keyset).bit_length() - 1)


def describe(keyset: int) -> str:
    return "{" + ", ".join(k.name for k in KEYS.keys_of(keyset)) + "}"
