"""float32/float64 matrix products on volta's OpenMP threads, through numpy's own OpenBLAS held
to one thread (Note [one thread pool] in native/blas.c).

:func:`product` is ``a @ b`` for 2-D operands, or 3-D ones with the same leading size, or None
when the compiled module is absent (not built, ``VOLTA_NATIVE=0``), numpy's BLAS is not an
ILP64 OpenBLAS whose CBLAS functions ctypes can find, or the arrays do not fit (other dtypes,
ranks): the caller then runs its numpy code, which is also what runs without the module.
"""

from __future__ import annotations

import ctypes
from types import ModuleType

import numpy as np

from volta.backends.cpu import native, parallel

_FLOATS = (np.dtype(np.float32), np.dtype(np.float64))


def _cblas_addresses() -> tuple[int, int] | None:
    """The addresses of OpenBLAS's ILP64 cblas_sgemm / cblas_dgemm in numpy's BLAS (found
    through numpy's own module, as parallel.py finds the thread setters), or None."""
    try:
        from numpy._core import _multiarray_umath as core  # numpy >= 2
    except ImportError:  # numpy < 2
        from numpy.core import _multiarray_umath as core
    try:
        lib = ctypes.CDLL(core.__file__)
    except OSError:
        return None
    # only the 64_-suffixed builds take 64-bit sizes, which is what blas.c passes
    for prefix in ("scipy_cblas_", "cblas_"):
        single = getattr(lib, f"{prefix}sgemm64_", None)
        double = getattr(lib, f"{prefix}dgemm64_", None)
        if single is not None and double is not None:
            return (ctypes.cast(single, ctypes.c_void_p).value or 0,
                    ctypes.cast(double, ctypes.c_void_p).value or 0)
    return None


def _load() -> ModuleType | None:
    module = native.kernels("blas")
    if module is None:
        return None
    addresses = _cblas_addresses()
    if addresses is None or not all(addresses) or not parallel.pin_blas_to_one_thread():
        return None
    module.init(*addresses)
    return module


_BLAS = _load()
ENABLED = _BLAS is not None


def _stored(x: np.ndarray) -> tuple[np.ndarray, bool]:
    """A 2-D operand as (C-contiguous array, transposed): the array itself, or the array whose
    transpose it is (a weight's .T is a BLAS flag, not a copy), or else a contiguous copy."""
    if x.flags.c_contiguous:
        return x, False
    if x.T.flags.c_contiguous:
        return x.T, True
    return np.ascontiguousarray(x), False


def _gemm(module: ModuleType, a: np.ndarray, b: np.ndarray, out: np.ndarray,
          threads: int) -> None:
    m, k = a.shape
    n = b.shape[1]
    a_stored, trans_a = _stored(a)
    b_stored, trans_b = _stored(b)
    module.gemm(a_stored, b_stored, out, m, n, k, trans_a, trans_b, 1.0, 0.0, threads)


def product(a: np.ndarray, b: np.ndarray, out: np.ndarray | None = None) -> np.ndarray | None:
    """``np.matmul(a, b, out=out)`` for float arrays of one dtype, 2-D by 2-D or (G, M, K) by
    (G, K, N); ``out`` (if given) C-contiguous of the result's shape and dtype. None where it
    does not apply (the caller runs numpy's matmul instead)."""
    module = _BLAS
    if module is None:
        return None
    dtype = a.dtype
    if dtype != b.dtype or dtype not in _FLOATS or a.ndim != b.ndim or a.ndim not in (2, 3):
        return None
    if a.shape[-1] != b.shape[-2] or (a.ndim == 3 and a.shape[0] != b.shape[0]):
        return None
    shape = (*a.shape[:-1], b.shape[-1])
    if out is None:
        out = np.empty(shape, dtype)
    elif out.shape != shape or out.dtype != dtype or not out.flags.c_contiguous:
        return None
    threads = native.threads()
    if a.ndim == 2:
        _gemm(module, a, b, out, threads)
    else:
        for g in range(a.shape[0]):
            _gemm(module, a[g], b[g], out[g], threads)
    return out
