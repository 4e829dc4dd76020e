"""The WGPU backend's storage (``volta.backend.Backend``) and the tensor helpers kernels use.

Element types in GPU memory (WGSL has no 8-bit or 64-bit storage types without extensions):

======== ============== ==========================================================
dtype    stored as      note
======== ============== ==========================================================
float32  ``f32``
float16  ``f16``        kernels need the adapter feature ``shader-f16``
int32    ``i32``
int64    ``i32``        indices and counts: converted with a range check on upload
bool     ``u32``        0 or 1
======== ============== ==========================================================

Any other dtype (float64, bfloat16, 8/16-bit integers) is not declared, so moving it to the
device raises ``DTypeError`` naming it (see ``volta.backend``).
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from volta import dtypes as D
from volta.backend import Backend, BackendInfo
from volta.backends.wgpu import random, runtime
from volta.backends.wgpu.allocator import Handle
from volta.device import device
from volta.errors import NumericOverflowError
from volta.tensor.tensor import Storage, Tensor, contiguous_strides

#: dtype -> (WGSL storage type, numpy type of the stored elements)
STORED: dict[D.dtype, tuple[str, Any]] = {
    D.float32: ("f32", np.float32), D.float16: ("f16", np.float16), D.int32: ("i32", np.int32),
    D.int64: ("i32", np.int32), D.bool_: ("u32", np.uint32),
}

_INFO: BackendInfo | None = None


_ITEMSIZE = {dt: np.dtype(stored).itemsize for dt, (_, stored) in STORED.items()}


def stored_itemsize(dt: D.dtype) -> int:
    return _ITEMSIZE[dt]


def to_stored(array: np.ndarray) -> np.ndarray:
    """Host elements as the device stores them (int64 range-checked into int32)."""
    dt = D.from_numpy_dtype(array.dtype)
    target = STORED[dt][1]
    if dt is D.int64 and array.size:
        low, high = int(array.min()), int(array.max())
        if low < -2**31 or high >= 2**31:
            bad = low if low < -2**31 else high
            raise NumericOverflowError(
                f"wgpu stores int64 tensors as 32-bit integers: value {bad} is out of range "
                "[-2147483648, 2147483647]")
    return array.astype(target, copy=False)


def value_range(array: np.ndarray) -> tuple[int, int] | None:
    """(min, max) of an integer array uploaded from the host, kept with its storage so index
    kernels can check bounds without reading the device (None for other dtypes)."""
    if array.dtype.kind not in "iu" or not array.size:
        return None
    return int(array.min()), int(array.max())


class WgpuStorage(Backend):
    """GPU buffers from the caching allocator; work is queued and submitted in batches."""

    dtypes = frozenset(STORED)
    host_memory = False

    def allocate(self, numel: int, dtype: D.dtype, index: int) -> Handle:
        return runtime.get(index).allocator.allocate(numel * stored_itemsize(dtype))

    def copy_(self, dst: Handle, src: np.ndarray) -> None:
        dst.runtime.upload(dst, to_stored(src))
        dst.value_range = value_range(src)

    def from_numpy(self, array: np.ndarray, index: int) -> Handle:
        stored = to_stored(array)  # range-check before allocating
        handle = runtime.get(index).allocator.allocate(stored.nbytes)
        handle.runtime.upload(handle, stored)
        handle.value_range = value_range(array)
        return handle

    def read(self, handle: Handle, dtype: D.dtype, numel: int, index: int) -> np.ndarray:
        stored = STORED[dtype][1]
        raw = handle.runtime.read(handle, numel * np.dtype(stored).itemsize)
        return raw.view(stored).astype(dtype.numpy, copy=False)

    def to_numpy(self, handle: Handle, dtype: D.dtype, numel: int) -> np.ndarray:
        return self.read(handle, dtype, numel, handle.runtime.index)

    def random(self, numel: int, dtype: D.dtype, distribution: str, key: int, offset: int,
               index: int) -> Handle:
        handle = self.allocate(numel, dtype, index)
        kind = random.NORMAL if distribution == "normal" else random.UNIFORM
        random.fill(handle, numel, dtype, kind, key, offset)
        return handle

    def synchronize(self, index: int) -> None:
        for rt in runtime.existing():
            if rt.index == index:
                rt.synchronize()


def set_info(info: BackendInfo) -> None:
    global _INFO
    _INFO = info


def empty(shape: tuple[int, ...], dt: D.dtype, dev: device) -> Tensor:
    """A new contiguous tensor on the WGPU device ``dev`` (contents uninitialised) for a kernel
    to write: its first use must be a dispatch (a host upload into it stays correct, but
    submits the open batch first)."""
    assert _INFO is not None, "the WGPU backend is not registered"
    if type(shape) is not tuple:
        shape = tuple(shape)
    numel = math.prod(shape)
    # kernels write their outputs before anything reads them: Note [deferred free]
    handle = runtime.get(dev.index or 0).allocator.allocate(numel * stored_itemsize(dt),
                                                            written_by_device=True)
    storage = Storage(handle, numel, dt, dev, _INFO)
    return Tensor._make(storage, shape, strides_of(shape), 0)


_STRIDES: dict[tuple[int, ...], tuple[int, ...]] = {}


def strides_of(shape: tuple[int, ...]) -> tuple[int, ...]:
    """``contiguous_strides(shape)``, remembered: every kernel output asks for them."""
    strides = _STRIDES.get(shape)
    if strides is None:
        if len(_STRIDES) >= 4096:  # shapes of a long-running program: keep the memo small
            _STRIDES.clear()
        strides = _STRIDES[shape] = contiguous_strides(shape)
    return strides


def handle_of(t: Tensor) -> Handle:
    return t._storage.handle


def runtime_of(t: Tensor) -> runtime.Runtime:
    return t._storage.handle.runtime
