"""Shared fixtures: a throwaway device registered inside ``volta.library.scoped()``."""

from __future__ import annotations

from collections.abc import Iterator

import numpy as np
import pytest

import volta
from volta.backend import BACKENDS, Backend, BackendInfo


class HostBuffer:
    """Device memory of the scratch backend: a private host array."""

    __slots__ = ("data",)

    def __init__(self, data: np.ndarray) -> None:
        self.data = data


class HostBackend(Backend):
    """The smallest backend: the three required methods of ``volta.backend.Backend``."""

    def allocate(self, numel: int, dtype: volta.dtype, index: int) -> HostBuffer:
        return HostBuffer(np.empty(numel, dtype=dtype.numpy))

    def copy_(self, dst: HostBuffer, src: np.ndarray) -> None:
        dst.data[...] = src.reshape(-1)

    def to_numpy(self, handle: HostBuffer, dtype: volta.dtype, numel: int) -> np.ndarray:
        return handle.data


@pytest.fixture
def scratch_device() -> Iterator[BackendInfo]:
    """A device "scratch" (key SCRATCH) with no kernels; everything is undone afterwards."""
    with volta.library.scoped():
        yield BACKENDS.register("scratch", HostBackend(), key_name="SCRATCH",
                                provenance="tests/conftest.py")
