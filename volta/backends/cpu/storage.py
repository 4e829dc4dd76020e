"""CPU storage: a contiguous numpy array; tensors are strided views of it (zero-copy)."""

from __future__ import annotations

from typing import Any

import numpy as np

from volta import dtypes as D
from volta.backend import Backend, BackendInfo, host_view
from volta.backends.cpu import native, strided_copy
from volta.device import device
from volta.tensor.tensor import (
    CONTIGUOUS_STRIDES,
    Storage,
    Tensor,
    cached_contiguous_strides,
    new_owning_tensor,
)

CPU = device("cpu")
_INFO: BackendInfo | None = None
_NUMPY_TO_VOLTA = {d.numpy: d for d in D.ALL_DTYPES}


class CpuStorage(Backend):
    """The reference backend (``volta.backend.Backend``): host arrays are the storage itself."""

    host_memory = True  # handles are numpy arrays: tensors view them without copies

    def allocate(self, numel: int, dtype: D.dtype, index: int) -> np.ndarray:
        return np.empty(numel, dtype=dtype.numpy)

    def copy_(self, dst: np.ndarray, src: np.ndarray) -> None:
        dst.reshape(-1)[...] = src.reshape(-1)

    def to_numpy(self, handle: np.ndarray, dtype: D.dtype, numel: int) -> np.ndarray:
        return handle

    def from_numpy(self, array: np.ndarray, index: int) -> np.ndarray:
        # zero-copy: volta.from_numpy shares the caller's memory, as torch.from_numpy does
        return array

    def diagnose(self) -> dict[str, str]:
        facts = {"numpy": np.__version__}
        for section in ("blas", "lapack"):
            library = np.show_config(mode="dicts").get("Build Dependencies", {}).get(section, {})
            if library:
                facts[section] = f"{library.get('name', '?')} {library.get('version', '')}".strip()
        return facts


def set_info(info: BackendInfo) -> None:
    global _INFO
    _INFO = info
    if _runtime is not None:
        _runtime.set_backend_info(info)


def array(t: Any) -> Any:
    """The numpy view of a kernel input (Python numbers and None pass through)."""
    if isinstance(t, Tensor):
        return host_view(t)
    return t


def _row_major_copy(arr: np.ndarray) -> np.ndarray:
    """A C-contiguous copy; a transposed result (``a.T``) is copied in cache-sized bands."""
    return strided_copy.copy_c_order(arr)


def _owner(arr: np.ndarray) -> np.ndarray:
    """The array that owns ``arr``'s memory when ``arr`` (C-contiguous) views all of it in
    another shape, as kernels' ``result.reshape(shape)`` do; else ``arr``. The storage's handle
    is then the whole allocation, with no numpy view chain behind it."""
    base = arr.base
    if (type(base) is np.ndarray and base.size == arr.size and base.flags.owndata
            and base.flags.c_contiguous and base.dtype == arr.dtype):
        return base  # same size and both C-contiguous: the same memory, in the same order
    return arr


def wrap(arr: Any) -> Tensor:
    """A CPU tensor owning ``arr``'s data (copied only if it is not C-contiguous)."""
    if type(arr) is not np.ndarray:
        arr = np.asarray(arr)
    elif not arr.flags.c_contiguous:
        arr = _row_major_copy(arr)
    dt = _NUMPY_TO_VOLTA.get(arr.dtype)
    if dt is None:
        dt = D.from_numpy_dtype(arr.dtype)
    shape = arr.shape
    handle = arr if arr.base is None else _owner(arr)  # a fresh array owns its memory
    strides = CONTIGUOUS_STRIDES.get(shape)
    if strides is None:
        strides = cached_contiguous_strides(shape)
    return new_owning_tensor(handle, arr.size, dt, CPU, _INFO, shape,  # type: ignore[arg-type]
                             strides, arr)


def wrap_as(arr: Any, dt: D.dtype) -> Tensor:
    """Like ``wrap``, casting to ``dt`` first when needed."""
    if type(arr) is not np.ndarray:
        arr = np.asarray(arr)
    elif not arr.flags.c_contiguous:
        arr = _row_major_copy(arr)
    if arr.dtype is not dt.numpy and arr.dtype != dt.numpy:
        arr = arr.astype(dt.numpy)
    shape = arr.shape
    handle = arr if arr.base is None else _owner(arr)  # a fresh array owns its memory
    strides = CONTIGUOUS_STRIDES.get(shape)
    if strides is None:
        strides = cached_contiguous_strides(shape)
    return new_owning_tensor(handle, arr.size, dt, CPU, _INFO, shape, strides, arr)


# array, wrap and wrap_as in C (Note [Compiled pointwise runtime] in native/runtime.c), handing back
# to the Python ones above what they do not handle; every kernel result passes here
python_array, python_wrap, python_wrap_as = array, wrap, wrap_as
_runtime = native.kernels("runtime")
if _runtime is not None:
    _runtime.setup_storage(python_wrap_as, python_wrap, host_view, _NUMPY_TO_VOLTA, Tensor,
                           Storage, CONTIGUOUS_STRIDES, cached_contiguous_strides, CPU, D.float32,
                           np.empty((3, 5), np.float32), np.dtype(np.float32))
    array, wrap, wrap_as = _runtime.array, _runtime.wrap, _runtime.wrap_as
