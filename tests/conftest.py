"""Shared fixtures: a throwaway device registered inside ``volta.library.scoped()``."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import numpy as np
import pytest

import volta
from volta.device import BACKENDS, BackendInfo


class HostBuffer:
    """Device memory of the scratch backend: a private host array."""

    __slots__ = ("data",)

    def __init__(self, data: np.ndarray) -> None:
        self.data = data


class HostBackend:
    """The smallest backend that satisfies volta's storage contract."""

    def allocate(self, numel: int, dt: Any, index: int = 0) -> HostBuffer:
        return HostBuffer(np.empty(numel, dtype=dt.numpy))

    def from_numpy(self, array: np.ndarray, index: int = 0) -> HostBuffer:
        return HostBuffer(np.array(array, copy=True).reshape(-1))

    def to_numpy(self, handle: HostBuffer, dt: Any, numel: int) -> np.ndarray:
        return handle.data

    def copy_(self, dst: HostBuffer, src: np.ndarray) -> None:
        dst.data[...] = np.asarray(src).reshape(-1)


@pytest.fixture
def scratch_device() -> Iterator[BackendInfo]:
    """A device "scratch" (key SCRATCH) with no kernels; everything is undone afterwards."""
    with volta.library.scoped():
        yield BACKENDS.register("scratch", HostBackend(), key_name="SCRATCH",
                                provenance="tests/conftest.py")
