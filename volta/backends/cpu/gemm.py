"""float32/float64 matrix products on volta's OpenMP threads, through numpy's own OpenBLAS held
to one thread (Note [one thread pool] in native/blas.c).

:func:`product` is ``a @ b`` for operands of one rank with the same leading sizes, or None
when the compiled module is absent (not built, ``VOLTA_NATIVE=0``), numpy's BLAS is not an
ILP64 OpenBLAS whose CBLAS functions ctypes can find, or the arrays do not fit (other dtypes,
ranks): the caller then runs its numpy code, which is also what runs without the module.
"""

from __future__ import annotations

import ctypes
import math
from types import ModuleType

import numpy as np

from volta.backends.cpu import native, parallel

_FLOATS = (np.dtype(np.float32), np.dtype(np.float64))
# Multiply-adds below which a product stays on numpy's call: blas.c splits a product only from
# two shares of 2**17 multiply-adds, and for a small one the checks here cost more than the
# call they would save (a 2x2 matmul: 1.0 us through np.dot, 2.1 us through this module).
MIN_MACS = 1 << 17


def _cblas_addresses() -> tuple[int, int] | None:
    """The addresses of OpenBLAS's ILP64 cblas_sgemm / cblas_dgemm in numpy's BLAS (found
    through numpy's own module, as parallel.py finds the thread setters), or None."""
    lib = parallel.numpy_blas_library()
    if lib is None:
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
    """An operand as (C-contiguous array, transposed): the array itself, or the array whose
    last two axes swapped give it (a weight's .T is a BLAS flag, not a copy), or else a
    contiguous copy."""
    if x.flags.c_contiguous:
        return x, False
    swapped = x.swapaxes(-1, -2)
    if swapped.flags.c_contiguous:
        return swapped, True
    return np.ascontiguousarray(x), False


def product(a: np.ndarray, b: np.ndarray, out: np.ndarray | None = None) -> np.ndarray | None:
    """``np.matmul(a, b, out=out)`` for float arrays of one dtype and rank >= 2 whose leading
    (batch) sizes are equal (no broadcasting); ``out`` (if given) C-contiguous of the result's
    shape and dtype. None where it does not apply (the caller runs numpy's matmul instead)."""
    module = _BLAS
    if module is None:
        return None
    dtype = a.dtype
    if dtype != b.dtype or dtype not in _FLOATS or a.ndim != b.ndim or a.ndim < 2:
        return None
    if a.shape[-1] != b.shape[-2] or a.shape[:-2] != b.shape[:-2]:
        return None
    m, k = a.shape[-2:]
    n = b.shape[-1]
    batch = math.prod(a.shape[:-2])
    if batch * m * n * k < MIN_MACS and out is None:
        return None  # the caller's numpy call is the cheaper one (same one-thread OpenBLAS)
    shape = (*a.shape[:-1], n)
    if out is None:
        out = np.empty(shape, dtype)
    elif out.shape != shape or out.dtype != dtype or not out.flags.c_contiguous:
        return None
    a_stored, trans_a = _stored(a)
    b_stored, trans_b = _stored(b)
    module.gemm(a_stored, b_stored, out, batch, m, n, k, trans_a, trans_b,
                1.0, 0.0, native.threads())
    return out


def matmul(a: np.ndarray, b: np.ndarray, out: np.ndarray | None = None) -> np.ndarray:
    """``np.matmul(a, b, out=out)``, through :func:`product` where it applies (an ``out`` it
    cannot write straight into receives a copy of the product)."""
    result = product(a, b, out)
    if result is not None:
        return result
    if out is None:
        return np.matmul(a, b)
    if not out.flags.c_contiguous:
        result = product(a, b)
        if result is not None:
            out[...] = result
            return out
    return np.matmul(a, b, out=out)
