"""The numba device's memory: one flat numpy array per storage, like the CPU backend's.

Kernels compiled with numba read and write numpy arrays directly, so the device *is* host
memory (``host_memory = True``): ``host_view`` of a numba tensor is a zero-copy, writable
view, and moving data between ``"cpu"`` and ``"numba"`` is one copy.
"""

from __future__ import annotations

import numba
import numpy as np

import volta
from volta.backend import Backend

# numba compiles every kernel per dtype; half types have no numba arithmetic
NUMBA_DTYPES = frozenset({volta.float32, volta.float64, volta.int8, volta.uint8, volta.int16,
                          volta.int32, volta.int64, volta.bool})


class NumbaBackend(Backend):
    """Storage of the ``"numba"`` device (``volta.backend.Backend``)."""

    dtypes = NUMBA_DTYPES
    host_memory = True  # handles are C-contiguous numpy arrays that the host reads directly

    def allocate(self, numel: int, dtype: volta.dtype, index: int) -> np.ndarray:
        return np.empty(numel, dtype=dtype.numpy)

    def copy_(self, dst: np.ndarray, src: np.ndarray) -> None:
        dst[...] = src.reshape(-1)

    def to_numpy(self, handle: np.ndarray, dtype: volta.dtype, numel: int) -> np.ndarray:
        return handle

    def from_numpy(self, array: np.ndarray, index: int) -> np.ndarray:
        # volta hands over arrays it owns (tensor factories and to_copy copy first), so keeping
        # the array is safe and saves a pass, as on the CPU
        return array.reshape(-1)

    def diagnose(self) -> dict[str, str]:
        return {"numba": numba.__version__, "threads": str(numba.get_num_threads()),
                "threading layer": _threading_layer()}


def _threading_layer() -> str:
    try:
        return numba.threading_layer()
    except ValueError:  # no parallel kernel has run yet
        return "not chosen yet (chosen at the first parallel kernel)"
