"""numpy kernels of the matrix decompositions and solvers (ops.yaml's "linalg and matrix ops").

Inputs are batches of matrices ``(..., m, n)``; numpy.linalg works on such stacks directly and
computes in the input's dtype (float32 stays float32). numpy has no LU factorisation with
LAPACK's pivots, so ``_lu`` below is partial pivoting written over the whole batch at once.
Errors carry PyTorch's wording; singular or non-positive-definite inputs raise
``volta.errors.LinAlgError`` (PyTorch's ``torch.linalg.LinAlgError``).
"""

from __future__ import annotations

import math

import numpy as np

from volta import dtypes as D
from volta.backends.cpu.kernel_table import kernel_table
from volta.backends.cpu.storage import array as A
from volta.backends.cpu.storage import wrap as W
from volta.composites.linalg import (
    check_floating,
    check_info,
    check_lu_pivots,
    check_matrix,
    check_same_dtype,
    check_solve,
    check_solve_triangular,
)
from volta.errors import InvalidArgumentError, LinAlgError
from volta.tensor.tensor import Tensor

KERNELS, kernel = kernel_table()


def matrices(t: Tensor, op: str, name: str = "A", square: bool = True) -> np.ndarray:
    """The tensor as a numpy batch of matrices, after PyTorch's checks."""
    check_floating(op, t)
    check_matrix(op, t, square, name)
    return A(t)


# ---------------------------------------------------------------- LU


def _lu(a: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Packed LU with partial pivoting of a batch (LAPACK getrf's output): LU, 1-based pivots
    (int32) and info (the 1-based index of the first zero pivot, 0 where none)."""
    *batch, m, n = a.shape
    k = min(m, n)
    lu = np.array(a, copy=True).reshape(math.prod(batch), m, n)
    count = lu.shape[0]
    pivots = np.empty((count, k), dtype=np.int32)
    info = np.zeros(count, dtype=np.int32)
    rows = np.arange(count)
    for j in range(k):
        # the first row of largest magnitude (idamax's choice) becomes the pivot row
        p = j + np.argmax(np.abs(lu[:, j:, j]), axis=1)
        pivots[:, j] = p + 1
        swap = lu[rows, p].copy()
        lu[rows, p] = lu[:, j]
        lu[:, j] = swap
        pivot = lu[:, j, j]
        zero = pivot == 0
        info[(info == 0) & zero] = j + 1
        # a zero pivot means its column below is zero too: LAPACK leaves it unscaled
        lu[:, j + 1:, j] /= np.where(zero, 1, pivot)[:, None]
        lu[:, j + 1:, j + 1:] -= lu[:, j + 1:, j, None] * lu[:, j, None, j + 1:]
    return (lu.reshape(a.shape), pivots.reshape(*batch, k), info.reshape(batch))


@kernel("linalg_lu_factor_ex")
def linalg_lu_factor_ex(a: Tensor, pivot: bool = True, check_errors: bool = False) -> tuple:
    op = "linalg.lu_factor"
    if not pivot:
        raise InvalidArgumentError(f"{op}: LU without pivoting is not implemented on the CPU")
    arr = matrices(a, op, square=False)
    lu, pivots, info = _lu(arr)
    if check_errors:
        check_info("lu_factor", info.reshape(-1).tolist(), info.ndim > 0)
    return W(lu), W(pivots), W(info)


@kernel("_lu_permutation")
def lu_permutation(pivots: Tensor, m: int, dtype: D.dtype) -> Tensor:
    piv = A(pivots).astype(np.int64) - 1
    *batch, k = piv.shape
    if piv.size:
        check_lu_pivots(m, int(piv.min()) + 1, int(piv.max()) + 1)
    flat = piv.reshape(math.prod(batch), k)  # -1 is ambiguous when k is 0
    perm = np.tile(np.arange(m), (flat.shape[0], 1))
    rows = np.arange(flat.shape[0])
    for j in range(k):  # apply the row swaps in order: perm[i] is the row of A in row i of LU
        p = flat[:, j]
        swap = perm[rows, p].copy()
        perm[rows, p] = perm[:, j]
        perm[:, j] = swap
    # A = P L U: column i of P has its one in row perm[i]
    eye = np.eye(m, dtype=dtype.numpy)
    P = np.swapaxes(eye[perm], -1, -2)
    return W(np.ascontiguousarray(P.reshape(*batch, m, m)))


# ---------------------------------------------------------------- inverse, solve, det


@kernel("linalg_inv_ex")
def linalg_inv_ex(a: Tensor, check_errors: bool = False) -> tuple:
    op = "linalg.inv"
    arr = matrices(a, op)
    _, _, info = _lu(arr)
    if not info.any():
        return W(np.linalg.inv(arr)), W(info)
    if check_errors:
        check_info("inv", info.reshape(-1).tolist(), info.ndim > 0)
    result = np.full_like(arr, np.nan)
    good = info == 0
    if np.any(good):
        result[good] = np.linalg.inv(arr[good])
    return W(result), W(info)


def _solve_shapes(a: Tensor, b: Tensor, left: bool, op: str, vectors: bool = True
                  ) -> tuple[np.ndarray, np.ndarray, bool]:
    """A and B as broadcast numpy batches for A X = B (transposed when not left), and whether
    B is a (batch of) vector(s), PyTorch's rule for linalg.solve."""
    vector, batch = check_solve(op, a, b, left, vectors)
    arr, rhs = A(a), (A(b)[..., None] if vector else A(b))
    arr = np.broadcast_to(arr, batch + arr.shape[-2:])
    rhs = np.broadcast_to(rhs, batch + rhs.shape[-2:])
    if not left:  # X A = B  <=>  A^T X^T = B^T
        arr, rhs = np.swapaxes(arr, -1, -2), np.swapaxes(rhs, -1, -2)
    return arr, rhs, vector


@kernel("linalg_solve_ex")
def linalg_solve_ex(a: Tensor, b: Tensor, left: bool = True, check_errors: bool = False
                    ) -> tuple:
    op = "linalg.solve"
    arr, rhs, vector = _solve_shapes(a, b, left, op)
    _, _, info = _lu(arr)
    good = info == 0
    if np.all(good):
        x = np.linalg.solve(arr, rhs)
    else:
        if check_errors:
            check_info("solve", info.reshape(-1).tolist(), info.ndim > 0)
        x = np.full(rhs.shape, np.nan, dtype=rhs.dtype)
        if np.any(good):
            x[good] = np.linalg.solve(arr[good], rhs[good])
    if not left:
        x = np.swapaxes(x, -1, -2)
    return W(x[..., 0] if vector else x), W(info)


@kernel("linalg_solve_triangular")
def linalg_solve_triangular(a: Tensor, b: Tensor, upper: bool, left: bool = True,
                            unitriangular: bool = False) -> Tensor:
    op = "linalg.solve_triangular"
    check_solve_triangular(op, a, b)
    arr, rhs, _ = _solve_shapes(a, b, left, op, vectors=False)
    # only A's triangle takes part (the other one may hold anything, e.g. a packed LU)
    tri = np.triu(arr) if upper != (not left) else np.tril(arr)
    if unitriangular:
        n = tri.shape[-1]
        tri = tri.copy()
        tri[..., np.arange(n), np.arange(n)] = 1
    with np.errstate(divide="ignore", invalid="ignore"):
        try:
            x = np.linalg.solve(tri, rhs)
        except np.linalg.LinAlgError:  # a zero on the diagonal: substitution gives inf/nan
            x = _substitute(tri, rhs, upper=upper == left)
    return W(np.swapaxes(x, -1, -2) if not left else x)


def _substitute(tri: np.ndarray, rhs: np.ndarray, upper: bool) -> np.ndarray:
    """Back (upper) or forward substitution, for triangular systems LAPACK calls singular."""
    n = tri.shape[-1]
    x = np.zeros(np.broadcast_shapes(tri.shape[:-2], rhs.shape[:-2]) + rhs.shape[-2:],
                 dtype=rhs.dtype)
    for i in (range(n - 1, -1, -1) if upper else range(n)):
        acc = rhs[..., i, :] - np.einsum("...j,...jk->...k", tri[..., i, :], x)
        x[..., i, :] = acc / tri[..., i, i, None]
    return x


@kernel("linalg_det")
def linalg_det(a: Tensor) -> Tensor:
    return W(np.asarray(np.linalg.det(matrices(a, "linalg.det")), dtype=A(a).dtype))


@kernel("linalg_slogdet")
def linalg_slogdet(a: Tensor) -> tuple:
    sign, logabs = np.linalg.slogdet(matrices(a, "linalg.slogdet"))
    dt = A(a).dtype
    return W(np.asarray(sign, dtype=dt)), W(np.asarray(logabs, dtype=dt))


# ---------------------------------------------------------------- LDL^T (Bunch-Kaufman)

_BUNCH_KAUFMAN_ALPHA = (1 + math.sqrt(17)) / 8


def _swap(a: np.ndarray, first: tuple, second: tuple) -> None:
    a[first], a[second] = a[second].copy(), a[first].copy()


def _sytf2_lower(a: np.ndarray) -> tuple[np.ndarray, np.ndarray, int]:
    """LAPACK's unblocked sytf2 (UPLO='L'): a = P L D L^T P^T with Bunch-Kaufman pivoting,
    1-based pivots negative for 2x2 blocks of D, as sytrf returns them for small matrices."""
    a = np.tril(a).copy()
    n = a.shape[0]
    pivots = np.zeros(n, dtype=np.int32)
    info = 0
    k = 0
    while k < n:
        step = 1
        absakk = abs(a[k, k])
        imax = k + 1 + int(np.argmax(np.abs(a[k + 1:, k]))) if k + 1 < n else k
        colmax = abs(a[imax, k]) if k + 1 < n else 0.0
        if max(absakk, colmax) == 0 or np.isnan(absakk):
            info = info or k + 1
            kp = k
        elif absakk >= _BUNCH_KAUFMAN_ALPHA * colmax:
            kp = k
        else:
            rowmax = np.max(np.abs(a[imax, k:imax]))
            if imax + 1 < n:
                rowmax = max(rowmax, np.max(np.abs(a[imax + 1:, imax])))
            if absakk >= _BUNCH_KAUFMAN_ALPHA * colmax * (colmax / rowmax):
                kp = k
            elif abs(a[imax, imax]) >= _BUNCH_KAUFMAN_ALPHA * rowmax:
                kp = imax
            else:
                kp, step = imax, 2
        kk = k + step - 1
        if kp != kk:  # symmetric interchange of rows and columns kk and kp below k
            _swap(a, (slice(kp + 1, None), kk), (slice(kp + 1, None), kp))
            _swap(a, (slice(kk + 1, kp), kk), (kp, slice(kk + 1, kp)))
            _swap(a, (kk, kk), (kp, kp))
            if step == 2:
                _swap(a, (k + 1, k), (kp, k))
        if step == 1 and k + 1 < n and a[k, k] != 0:
            x = a[k + 1:, k].copy()
            a[k + 1:, k + 1:] -= np.tril(np.outer(x, x)) / a[k, k]
            a[k + 1:, k] = x / a[k, k]
        elif step == 2 and k + 2 < n:
            d21 = a[k + 1, k]
            d11, d22 = a[k + 1, k + 1] / d21, a[k, k] / d21
            scale = 1 / (d11 * d22 - 1) / d21
            wk = scale * (d11 * a[k + 2:, k] - a[k + 2:, k + 1])
            wkp1 = scale * (d22 * a[k + 2:, k + 1] - a[k + 2:, k])
            a[k + 2:, k + 2:] -= np.tril(np.outer(a[k + 2:, k], wk)
                                         + np.outer(a[k + 2:, k + 1], wkp1))
            a[k + 2:, k], a[k + 2:, k + 1] = wk, wkp1
        pivots[k:k + step] = kp + 1 if step == 1 else -(kp + 1)
        k += step
    return a, pivots, info


@kernel("linalg_ldl_factor_ex")
def linalg_ldl_factor_ex(a: Tensor, hermitian: bool = False, check_errors: bool = False
                         ) -> tuple:
    op = "torch.linalg.ldl_factor_ex"
    arr = matrices(a, op)
    *batch, n, _ = arr.shape
    flat = arr.reshape(math.prod(batch), n, n)
    ld = np.zeros_like(flat)
    pivots = np.zeros((flat.shape[0], n), dtype=np.int32)
    info = np.zeros(flat.shape[0], dtype=np.int32)
    for i, m in enumerate(flat):
        ld[i], pivots[i], info[i] = _sytf2_lower(m)
    info = info.reshape(batch)
    if check_errors:
        check_info("ldl_factor", info.reshape(-1).tolist(), info.ndim > 0)
    return W(ld.reshape(arr.shape)), W(pivots.reshape(*batch, n)), W(info)


def _sytrs_lower(ld: np.ndarray, pivots: np.ndarray, b: np.ndarray) -> np.ndarray:
    """LAPACK's sytrs (UPLO='L'): solve A X = B from sytf2's factors."""
    b = b.copy()
    n = ld.shape[0]
    k = 0
    while k < n:  # L D Y = P^T B
        if pivots[k] > 0:
            _swap(b, k, pivots[k] - 1)
            b[k + 1:] -= np.outer(ld[k + 1:, k], b[k])
            b[k] /= ld[k, k]
            k += 1
        else:
            _swap(b, k + 1, -pivots[k] - 1)
            b[k + 2:] -= np.outer(ld[k + 2:, k], b[k]) + np.outer(ld[k + 2:, k + 1], b[k + 1])
            d21 = ld[k + 1, k]
            d11, d22 = ld[k, k] / d21, ld[k + 1, k + 1] / d21
            denom = d11 * d22 - 1
            bk, bk1 = b[k] / d21, b[k + 1] / d21
            b[k], b[k + 1] = (d22 * bk - bk1) / denom, (d11 * bk1 - bk) / denom
            k += 2
    k = n - 1
    while k >= 0:  # L^T X = Y, undoing the interchanges
        if pivots[k] > 0:
            b[k] -= ld[k + 1:, k] @ b[k + 1:]
            _swap(b, k, pivots[k] - 1)
            k -= 1
        else:
            b[k] -= ld[k + 1:, k] @ b[k + 1:]
            b[k - 1] -= ld[k + 1:, k - 1] @ b[k + 1:]
            _swap(b, k, -pivots[k] - 1)
            k -= 2
    return b


@kernel("linalg_ldl_solve")
def linalg_ldl_solve(ld: Tensor, pivots: Tensor, b: Tensor, hermitian: bool = False
                     ) -> Tensor:
    op = "torch.linalg.ldl_solve"
    check_same_dtype(op, ld, b)
    lds, rhs, _ = _solve_shapes(ld, b, True, op, vectors=False)
    piv = np.broadcast_to(A(pivots), lds.shape[:-1])
    flat_ld = lds.reshape(-1, *lds.shape[-2:])
    flat_b = rhs.reshape(-1, *rhs.shape[-2:])
    flat_p = piv.reshape(-1, piv.shape[-1])
    x = np.stack([_sytrs_lower(m, p, r) for m, p, r in zip(flat_ld, flat_p, flat_b)]) \
        if flat_b.shape[0] else np.empty(flat_b.shape, dtype=rhs.dtype)
    return W(x.reshape(rhs.shape))


# ---------------------------------------------------------------- Cholesky, QR, SVD, eigh


def _not_positive_definite_order(m: np.ndarray) -> int:
    """The order of the first leading minor of one matrix that is not positive-definite."""
    for k in range(1, m.shape[-1] + 1):
        try:
            np.linalg.cholesky(m[:k, :k])
        except np.linalg.LinAlgError:
            return k
    return 0


@kernel("linalg_cholesky_ex")
def linalg_cholesky_ex(a: Tensor, upper: bool = False, check_errors: bool = False) -> tuple:
    op = "linalg.cholesky"
    arr = matrices(a, op)
    lower = np.tril(arr)  # PyTorch reads the lower triangle only
    sym = lower + np.swapaxes(np.tril(arr, -1), -1, -2)
    info = np.zeros(arr.shape[:-2], dtype=np.int32)
    try:
        factor = np.linalg.cholesky(sym)
    except np.linalg.LinAlgError:
        flat_sym = sym.reshape(-1, *sym.shape[-2:])
        flat_info = info.reshape(-1)
        factor = np.zeros_like(flat_sym)
        for i, m in enumerate(flat_sym):
            flat_info[i] = _not_positive_definite_order(m)
            if flat_info[i] == 0:
                factor[i] = np.linalg.cholesky(m)
        factor = factor.reshape(sym.shape)
    if check_errors:
        check_info("cholesky", info.reshape(-1).tolist(), info.ndim > 0)
    if upper:
        factor = np.swapaxes(factor, -1, -2)
    return W(factor), W(info)


@kernel("linalg_qr")
def linalg_qr(a: Tensor, mode: str = "reduced") -> tuple:
    if mode not in ("reduced", "complete", "r"):
        raise InvalidArgumentError(f"qr received unrecognized mode '{mode}' but expected one "
                                   "of 'reduced' (default), 'r', or 'complete'")
    arr = matrices(a, "linalg.qr", square=False)
    if mode == "r":
        r = np.linalg.qr(arr, mode="r")
        return W(np.empty((0,), dtype=arr.dtype)), W(r)
    q, r = np.linalg.qr(arr, mode=mode)
    return W(q), W(r)


@kernel("geqrf")
def geqrf(a: Tensor) -> tuple:
    arr = matrices(a, "geqrf", square=False)
    *batch, m, n = arr.shape
    if arr.size == 0:
        return W(arr.copy()), W(np.zeros((*batch, min(m, n)), dtype=arr.dtype))
    # numpy's "raw" mode is geqrf's output in Fortran order: transpose it back
    h, tau = np.linalg.qr(arr, mode="raw")
    return W(np.swapaxes(h, -1, -2).astype(arr.dtype)), W(tau.astype(arr.dtype))


def _svd_of_non_finite(arr: np.ndarray, full_matrices: bool, compute_uv: bool) -> tuple | None:
    """PyTorch's answer for a non-finite input, without LAPACK (OpenBLAS's gesdd never returns
    on a NaN): NaN is its LinAlgError; inf (no NaN) gives NaN factors of the usual shapes."""
    if np.isfinite(arr).all():
        return None
    if np.isnan(arr).any():
        raise LinAlgError("linalg.svd: The algorithm failed to converge because the input "
                          "matrix contained non-finite values.")
    m, n = arr.shape[-2:]
    k = min(m, n)
    batch = arr.shape[:-2]
    s = np.full(batch + (k,), np.nan, dtype=arr.dtype)
    if not compute_uv:
        empty = np.empty((0,), dtype=arr.dtype)
        return W(empty), W(s), W(empty.copy())
    u = np.full(batch + (m, m if full_matrices else k), np.nan, dtype=arr.dtype)
    vh = np.full(batch + (n if full_matrices else k, n), np.nan, dtype=arr.dtype)
    return W(u), W(s), W(vh)


@kernel("_linalg_svd")
def linalg_svd(a: Tensor, full_matrices: bool = False, compute_uv: bool = True) -> tuple:
    arr = matrices(a, "linalg.svd", square=False)
    non_finite = _svd_of_non_finite(arr, full_matrices, compute_uv)
    if non_finite is not None:
        return non_finite
    if not compute_uv:
        empty = np.empty((0,), dtype=arr.dtype)
        return W(empty), W(np.linalg.svd(arr, compute_uv=False)), W(empty.copy())
    u, s, vh = np.linalg.svd(arr, full_matrices=full_matrices)
    return W(u), W(s), W(vh)


@kernel("_linalg_eigh")
def linalg_eigh(a: Tensor, uplo: str = "L", compute_v: bool = True) -> tuple:
    if uplo not in ("L", "U"):
        raise InvalidArgumentError(f"Expected UPLO argument to be 'L' or 'U', but got {uplo}")
    arr = matrices(a, "linalg.eigh")
    if not compute_v:
        return W(np.linalg.eigvalsh(arr, UPLO=uplo)), W(np.empty((0,), dtype=arr.dtype))
    w, v = np.linalg.eigh(arr, UPLO=uplo)
    return W(w), W(v)
