"""Device names: ``volta.device("wgpu:0")``. The backends that own devices are registered in
:mod:`volta.backend`."""

from __future__ import annotations

from typing import Any

from volta.errors import BackendError


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
