"""Composite linear algebra: the ``volta.linalg`` functions and matrix ops built from the
decomposition kernels (``linalg_inv_ex``, ``_linalg_svd``, ``linalg_lu_factor_ex``, ...) and
ordinary ops, so they run on every backend and autograd differentiates them through their parts.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Sequence
from typing import Any

from volta import dtypes as D
from volta._generated import functions as F
from volta.composites.base import Number, _shape, composite
from volta.composites.core import _add_scaled, check_batches
from volta.composites.views import wrap_dim, wrap_dims
from volta.errors import (
    DTypeError,
    IndexOutOfRangeError,
    InvalidArgumentError,
    LinAlgError,
    ShapeError,
)
from volta.tensor import factories as fac
from volta.tensor.inplace import broadcast_shapes
from volta.tensor.tensor import Tensor

_FLOATING = (D.float32, D.float64)


def _mt(x: Tensor) -> Tensor:
    return x.transpose(-2, -1)


def _eye(n: int, like: Tensor, m: int | None = None) -> Tensor:
    return fac.eye(n, m, dtype=like.dtype, device=like.device)


def check_floating(op: str, t: Tensor, what: str = "input") -> None:
    """PyTorch's dtype check of the linalg functions (float32 and float64 only here)."""
    if t.dtype not in _FLOATING:
        raise DTypeError(f"{op}: Expected a floating point or complex tensor as {what}. Got "
                         f"{type_name(t.dtype)}")


def check_matrix(op: str, t: Tensor, square: bool = False, name: str = "A") -> None:
    """PyTorch's shape checks: a batch of (square) matrices."""
    if t.ndim < 2:
        raise ShapeError(f"{op}: The input tensor {name} must have at least 2 dimensions.")
    if square and t.shape[-1] != t.shape[-2]:
        raise ShapeError(f"{op}: {name} must be batches of square matrices, but they are "
                         f"{t.shape[-2]} by {t.shape[-1]} matrices")


def check_same_dtype(op: str, a: Tensor, b: Tensor) -> None:
    if a.dtype is not b.dtype:
        raise DTypeError(f"{op}: Expected A and B to have the same dtype, but found A of type "
                         f"{type_name(a.dtype)} and B of type {type_name(b.dtype)} instead")


def check_solve_triangular(op: str, a: Tensor, b: Tensor) -> None:
    """solve_triangular's own rules before the shared solve shapes: one dtype, and B a matrix
    (or a batch of them)."""
    check_same_dtype(op, a, b)
    if b.ndim < 2:
        raise ShapeError(f"{op}: The input tensor B must have at least 2 dimensions.")


def check_solve(op: str, a: Tensor, b: Tensor, left: bool, vectors: bool = True
                ) -> tuple[bool, tuple[int, ...]]:
    """PyTorch's checks of A X = B (X A = B when not ``left``) with a batch of square A: whether
    B is a (batch of) vector(s) (linalg.solve's rule, when ``vectors``), and the broadcast
    batch shape of A and B."""
    check_floating(op, a)
    check_matrix(op, a, square=True)
    check_same_dtype(op, a, b)
    vector = vectors and left and (b.ndim == 1 or (b.ndim == a.ndim - 1
                                                   and tuple(b.shape) == tuple(a.shape[:-1])))
    rhs_shape = (*b.shape, 1) if vector else tuple(b.shape)
    if len(rhs_shape) < 2:
        raise ShapeError(f"{op}: The input tensor B must have at least 2 dimensions.")
    n = a.shape[-1]
    if (rhs_shape[-2] if left else rhs_shape[-1]) != n:
        eq = "AX = B" if left else "XA = B"
        raise ShapeError(f"{op}: Incompatible shapes of A and B for the equation {eq} "
                         f"({a.shape[-2]}x{n} and {rhs_shape[-2]}x{rhs_shape[-1]})")
    return vector, broadcast_shapes(tuple(a.shape[:-2]), rhs_shape[:-2])


# PyTorch's messages for a failed factorisation (LAPACK's info code, 1-based), by op
_FAILURES = {
    "lu_factor": "torch.linalg.lu_factor: {batch}U[{code},{code}] is zero and using it on "
                 "lu_solve would result in a division by zero. If you still want to perform the "
                 "factorization, consider calling linalg.lu(A, pivot) or "
                 "linalg.lu_factor_ex(A, pivot)",
    "inv": "linalg.inv: {batch}The diagonal element {code} is zero, the inversion could not be "
           "completed because the input matrix is singular.",
    "solve": "torch.linalg.solve: {batch}The solver failed because the input matrix is "
             "singular.",
    "cholesky": "linalg.cholesky: {batch}The factorization could not be completed because the "
                "input is not positive-definite (the leading minor of order {code} is not "
                "positive-definite).",
    "ldl_factor": "torch.linalg.ldl_factor: {batch}The factorization could not be completed "
                  "because the input is singular (D[{code},{code}] is zero).",
}


def check_info(op: str, codes: Sequence[int], batched: bool) -> None:
    """Raise PyTorch's LinAlgError for the first nonzero info code of a batch (``codes``
    flattened; ``batched`` when the input had batch dimensions), as ``check_errors=True``."""
    for index, code in enumerate(codes):
        if code:
            prefix = f"(Batch element {index}): " if batched else ""
            raise LinAlgError(_FAILURES[op].format(batch=prefix, code=code))


def check_lu_pivots(m: int, low: int, high: int) -> None:
    """lu_unpack's check of the 1-based pivots of ``m`` rows, from their smallest and largest."""
    if low < 1 or high > m:
        raise InvalidArgumentError(f"lu_unpack: pivots out of range: each must be in [1, {m}]")


_TYPE_NAMES = {D.float32: "Float", D.float64: "Double", D.float16: "Half",
               D.bfloat16: "BFloat16", D.int64: "Long", D.int32: "Int", D.int16: "Short",
               D.int8: "Char", D.uint8: "Byte", D.bool_: "Bool"}


def type_name(dt: D.dtype) -> str:
    """PyTorch's scalar-type name in its messages (``Float``, ``Long``, ...)."""
    return _TYPE_NAMES.get(dt, dt.name)


# ---------------------------------------------------------------- inverse, solve, det


@composite("linalg_inv")
def linalg_inv(A: Tensor) -> Tensor:
    """The inverse, raising on a singular matrix."""
    return F.linalg_inv_ex(A, check_errors=True)[0]


@composite("inverse")
def inverse(self: Tensor) -> Tensor:
    return linalg_inv(self)


@composite("linalg_solve")
def linalg_solve(A: Tensor, B: Tensor, left: bool = True) -> Tensor:
    return F.linalg_solve_ex(A, B, left=left, check_errors=True)[0]


@composite("det")
def det(self: Tensor) -> Tensor:
    return F.linalg_det(self)


@composite("slogdet")
def slogdet(self: Tensor) -> tuple[Tensor, Tensor]:
    return F.linalg_slogdet(self)


@composite("logdet")
def logdet(self: Tensor) -> Tensor:
    """log(det): log(sign) is 0 for a positive determinant, nan for a negative one."""
    sign, logabsdet = F.linalg_slogdet(self)
    return sign.log() + logabsdet


# ---------------------------------------------------------------- Cholesky


@composite("linalg_cholesky")
def linalg_cholesky(A: Tensor, upper: bool = False) -> Tensor:
    return F.linalg_cholesky_ex(A, upper=upper, check_errors=True)[0]


@composite("cholesky")
def cholesky(self: Tensor, upper: bool = False) -> Tensor:
    return F.linalg_cholesky_ex(self, upper=upper, check_errors=True)[0]


@composite("cholesky_solve")
def cholesky_solve(self: Tensor, input2: Tensor, upper: bool = False) -> Tensor:
    """X with A X = self, A = L L^T (or U^T U): two triangular solves."""
    check_matrix("cholesky_solve", self, name="B")
    check_matrix("cholesky_solve", input2, square=True)
    if self.dtype is not input2.dtype:
        raise DTypeError(f"Expected b and A to have the same dtype, but found b of type "
                         f"{type_name(self.dtype)} and A of type {type_name(input2.dtype)} "
                         "instead.")
    lower = _mt(input2) if upper else input2
    y = F.linalg_solve_triangular(lower, self, upper=False)
    return F.linalg_solve_triangular(_mt(lower), y, upper=True)


@composite("cholesky_inverse")
def cholesky_inverse(self: Tensor, upper: bool = False) -> Tensor:
    check_matrix("cholesky_inverse", self, square=True, name="input")
    n = self.shape[-1]
    if self.numel():  # a zero on the factor's diagonal: the matrix is singular (PyTorch's check)
        zeros = F.nonzero(F.eq(F.diagonal(self, 0, -2, -1), 0).reshape(-1, n))
        if zeros.shape[0]:
            batch, element = zeros[0].tolist()
            prefix = f"(Batch element {batch}): " if self.ndim > 2 else ""
            raise LinAlgError(f"cholesky_inverse: {prefix}The diagonal element {element + 1} is "
                              f"zero, the inversion could not be completed because the input "
                              f"matrix is singular.")
    eye = _eye(n, self).expand(tuple(self.shape))
    return cholesky_solve(eye, self, upper)


# ---------------------------------------------------------------- QR, SVD, eigh


@composite("qr")
def qr(self: Tensor, some: bool = True) -> tuple[Tensor, Tensor]:
    return F.linalg_qr(self, "reduced" if some else "complete")


@composite("linalg_svd")
def linalg_svd(A: Tensor, full_matrices: bool = True, driver: str | None = None
               ) -> tuple[Tensor, Tensor, Tensor]:
    return F._linalg_svd(A, full_matrices, True)


@composite("svd_lowrank")
def svd_lowrank(A: Tensor, q: int | None = 6, niter: int | None = 2, M: Tensor | None = None
                ) -> tuple[Tensor, Tensor, Tensor]:
    """Randomized SVD of ``A - M`` (torch.svd_lowrank); ``q`` and ``niter`` None mean 6 and 2."""
    return _svd_lowrank(A, 6 if q is None else q, 2 if niter is None else niter, M,
                        "svd_lowrank")


@composite("pca_lowrank")
def pca_lowrank(A: Tensor, q: int | None = None, center: bool | None = True, niter: int = 2
                ) -> tuple[Tensor, Tensor, Tensor]:
    """svd_lowrank of the centred ``A`` (torch.pca_lowrank's argument checks; a None
    ``center``, which PyTorch's Python function takes as false, centres nothing)."""
    m, n = _matrix_sizes(A, "pca_lowrank")
    if q is None:
        q = min(6, m, n)
    elif not 0 <= q <= min(m, n):
        raise InvalidArgumentError(f"q(={q}) must be non-negative integer and not greater than "
                                   f"min(m, n)={min(m, n)}")
    if niter < 0:
        raise InvalidArgumentError(f"niter(={niter}) must be non-negative integer")
    if center:
        A = A - A.mean(-2, keepdim=True)
    return _svd_lowrank(A, q, niter, None, "pca_lowrank")


def _matrix_sizes(A: Tensor, op: str) -> tuple[int, int]:
    if A.ndim < 2:
        raise ShapeError(f"{op}: expected a matrix or a batch of matrices, but got a tensor "
                         f"with {A.ndim} dimension{'s' if A.ndim != 1 else ''}")
    return A.shape[-2], A.shape[-1]


def _svd_lowrank(A: Tensor, q: int, niter: int, M: Tensor | None, op: str
                 ) -> tuple[Tensor, Tensor, Tensor]:
    """Algorithm 5.1 of Halko, Martinsson and Tropp (2009): an orthonormal basis Q of the range
    of ``A - M`` (``_approximate_range``), then the exact SVD of the small ``Q^T (A - M)``.
    Written with volta ops, so autograd differentiates it through matmul, QR and SVD."""
    m, n = _matrix_sizes(A, op)
    if M is not None:
        M = M.broadcast_to(A.shape)
    wide = m < n  # work on the tall orientation, and swap U and V back at the end
    if wide:
        A = _mt(A)
        M = None if M is None else _mt(M)
    Q = _approximate_range(A, q, niter, M)
    B = _minus_product(_mt(Q), A, None if M is None else _mt(Q) @ M)
    U, S, Vh = F._linalg_svd(B, False, True)
    U, V = Q @ U, _mt(Vh)
    return (V, S, U) if wide else (U, S, V)


def _approximate_range(A: Tensor, q: int, niter: int, M: Tensor | None) -> Tensor:
    """Q with q orthonormal columns spanning (nearly) the range of A - M: A - M applied to a
    Gaussian draw, then ``niter`` power iterations through (A - M)^T and back, each product
    orthonormalised by a reduced QR so that small singular directions are not lost."""
    dtype = A.dtype if A.dtype.is_floating_point else D.float32
    draw = fac.randn(A.shape[-1], q, dtype=dtype, device=A.device)
    At, Mt = _mt(A), None if M is None else _mt(M)

    def basis(left: Tensor, right: Tensor, minus: Tensor | None) -> Tensor:
        product = _minus_product(left, right, None if minus is None else minus @ right)
        return F.linalg_qr(product, "reduced")[0]

    Q = basis(A, draw, M)
    for _ in range(niter):
        Q = basis(At, Q, Mt)
        Q = basis(A, Q, M)
    return Q


def _minus_product(left: Tensor, right: Tensor, minus: Tensor | None) -> Tensor:
    """left @ right, less ``minus`` (the same product with M in place of A) when given."""
    product = left @ right
    return product if minus is None else product - minus


@composite("linalg_svdvals")
def linalg_svdvals(A: Tensor, driver: str | None = None) -> Tensor:
    # the singular vectors are computed too: the backward of S needs them
    return F._linalg_svd(A, False, True)[1]


@composite("svd")
def svd(self: Tensor, some: bool = True, compute_uv: bool = True
        ) -> tuple[Tensor, Tensor, Tensor]:
    U, S, Vh = F._linalg_svd(self, not some, True)
    if not compute_uv:  # PyTorch returns zero-filled full-size U and V then
        m, n = self.shape[-2], self.shape[-1]
        batch = tuple(self.shape[:-2])
        return (fac.zeros(batch + (m, m), dtype=self.dtype, device=self.device), S.detach(),
                fac.zeros(batch + (n, n), dtype=self.dtype, device=self.device))
    return U, S, _mt(Vh)


@composite("linalg_eigh")
def linalg_eigh(A: Tensor, UPLO: str = "L") -> tuple[Tensor, Tensor]:
    return F._linalg_eigh(A, UPLO, True)


@composite("linalg_eigvalsh")
def linalg_eigvalsh(A: Tensor, UPLO: str = "L") -> Tensor:
    # the eigenvectors are computed too: the backward of the eigenvalues needs them
    return F._linalg_eigh(A, UPLO, True)[0]


# ---------------------------------------------------------------- triangular solves and LU


@composite("triangular_solve")
def triangular_solve(self: Tensor, A: Tensor, upper: bool = True, transpose: bool = False,
                     unitriangular: bool = False) -> tuple[Tensor, Tensor]:
    check_matrix("triangular_solve", self, name="B")
    check_matrix("triangular_solve", A, square=True)
    a = _mt(A) if transpose else A
    x = F.linalg_solve_triangular(a, self, upper=upper != transpose,
                                  unitriangular=unitriangular)
    return x, A.clone()


@composite("linalg_lu_factor")
def linalg_lu_factor(A: Tensor, pivot: bool = True) -> tuple[Tensor, Tensor]:
    LU, pivots, _ = F.linalg_lu_factor_ex(A, pivot=pivot, check_errors=True)
    return LU, pivots


@composite("lu_unpack")
def lu_unpack(LU_data: Tensor, LU_pivots: Tensor, unpack_data: bool = True,
              unpack_pivots: bool = True) -> tuple[Tensor, Tensor, Tensor]:
    """P, L, U of a packed LU; the parts not asked for are empty tensors, as in PyTorch."""
    check_matrix("lu_unpack", LU_data, name="LU_data")
    if unpack_pivots and LU_pivots.dtype is not D.int32:  # PyTorch reads them only then
        raise DTypeError("lu_unpack: LU_pivots is expected to be a contiguous tensor of "
                         f"torch.int32 dtype. Note: this function is intended to be used with "
                         f"the output produced by torch.linalg.lu_factor. Got {LU_pivots.dtype}")
    m, n = LU_data.shape[-2], LU_data.shape[-1]
    k = min(m, n)
    empty = fac.empty((0,), dtype=LU_data.dtype, device=LU_data.device)
    L = U = P = empty
    if unpack_data:
        L = LU_data.narrow(-1, 0, k).tril(-1) + _eye(m, LU_data, k)
        U = LU_data.narrow(-2, 0, k).triu()
    if unpack_pivots:
        P = F._lu_permutation(LU_pivots, m, LU_data.dtype)
    return P, L, U


@composite("linalg_lu")
def linalg_lu(A: Tensor, pivot: bool = True) -> tuple[Tensor, Tensor, Tensor]:
    LU, pivots, _ = F.linalg_lu_factor_ex(A, pivot=pivot)
    return lu_unpack(LU, pivots)


@composite("lu")
def lu(self: Tensor, pivot: bool = True, get_infos: bool | None = False) -> list[Tensor]:
    LU, pivots, info = F.linalg_lu_factor_ex(self, pivot=pivot)
    return [LU, pivots, info] if get_infos else [LU, pivots]


@composite("linalg_lu_solve")
def linalg_lu_solve(LU: Tensor, pivots: Tensor, B: Tensor, left: bool = True,
                    adjoint: bool = False) -> Tensor:
    """X with A X = B (X A = B when not left; A^T for adjoint), A = P L U packed in LU."""
    check_matrix("linalg.lu_solve", LU, square=True, name="LU")
    check_matrix("linalg.lu_solve", B, name="B")
    P, L, U = lu_unpack(LU, pivots)
    if left != adjoint:
        # left: X = U^-1 L^-1 P^T B; right adjoint: X = B P L^-T U^-T = (U^-1 L^-1 P^T B^T)^T
        rhs = _mt(P) @ (B if left else _mt(B))
        x = F.linalg_solve_triangular(U, F.linalg_solve_triangular(
            L, rhs, upper=False, unitriangular=True), upper=True)
        return x if left else _mt(x)
    # left adjoint: X = P L^-T U^-T B; right: X = B U^-1 L^-1 P^T = (P L^-T U^-T B^T)^T
    x = F.linalg_solve_triangular(_mt(U), B if left else _mt(B), upper=False)
    x = P @ F.linalg_solve_triangular(_mt(L), x, upper=True, unitriangular=True)
    return x if left else _mt(x)


@composite("lu_solve")
def lu_solve(self: Tensor, LU_data: Tensor, LU_pivots: Tensor) -> Tensor:
    return linalg_lu_solve(LU_data, LU_pivots, self)


@composite("linalg_ldl_factor")
def linalg_ldl_factor(self: Tensor, hermitian: bool = False) -> tuple[Tensor, Tensor]:
    LD, pivots, _ = F.linalg_ldl_factor_ex(self, hermitian=hermitian, check_errors=True)
    return LD, pivots


# ---------------------------------------------------------------- Householder products


def _householder_checks(op: str, A: Tensor, tau: Tensor) -> None:
    if A.ndim < 2:
        raise ShapeError(f"{op}: input must have at least 2 dimensions.")
    if tau.ndim != A.ndim - 1 or tuple(tau.shape[:-1]) != tuple(A.shape[:-2]):
        raise ShapeError(f"{op}: Expected batch dimensions of tau to be equal to "
                         f"input.shape[:-2], but got {list(tau.shape[:-1])}")
    if tau.shape[-1] > A.shape[-1]:
        raise ShapeError(f"{op}: input.shape[-1] must be greater than or equal to "
                         "tau.shape[-1]")
    if A.dtype is not tau.dtype:
        raise DTypeError(f"{op}: tau dtype {tau.dtype.name} does not match input dtype "
                         f"{A.dtype.name}")


def _apply_reflectors(A: Tensor, tau: Tensor, X: Tensor) -> Tensor:
    """H_0 H_1 ... H_{k-1} X, H_i = I - tau_i v_i v_i^T with v_i column i of A below the
    diagonal and an implicit 1 on it (applied last to first, each a rank-1 update)."""
    m = A.shape[-2]
    V = A.tril(-1) + _eye(m, A, A.shape[-1])
    for i in range(tau.shape[-1] - 1, -1, -1):
        v = V.narrow(-1, i, 1)
        t = tau.narrow(-1, i, 1).unsqueeze(-1)
        X = X - (v * t) @ (_mt(v) @ X)
    return X


@composite("linalg_householder_product")
def linalg_householder_product(A: Tensor, tau: Tensor) -> Tensor:
    op = "torch.linalg.householder_product"
    _householder_checks(op, A, tau)
    m, n = A.shape[-2], A.shape[-1]
    if m < n:
        raise ShapeError(f"{op}: input.shape[-2] must be greater than or equal to "
                         "input.shape[-1]")
    # A * 0 keeps the result connected to A when there are no reflectors, as in PyTorch
    return _apply_reflectors(A, tau, A * 0 + _eye(m, A, n))


@composite("orgqr")
def orgqr(self: Tensor, input2: Tensor) -> Tensor:
    return linalg_householder_product(self, input2)


@composite("ormqr")
def ormqr(self: Tensor, input2: Tensor, input3: Tensor, left: bool = True,
          transpose: bool = False) -> Tensor:
    """op(Q) C or C op(Q), Q the full m x m product of the reflectors in self and tau."""
    op = "torch.ormqr"
    _householder_checks(op, self, input2)
    if input3.ndim < 2:
        raise ShapeError(f"{op}: other must have at least 2 dimensions.")
    m = self.shape[-2]
    if (input3.shape[-2] if left else input3.shape[-1]) != m:
        raise ShapeError(f"{op}: other.shape[{-2 if left else -1}] must be equal to "
                         f"input.shape[-2]")
    batch = tuple(self.shape[:-2])
    Q = _apply_reflectors(self, input2, _eye(m, self).expand(batch + (m, m)))
    if transpose:
        Q = _mt(Q)
    return Q @ input3 if left else input3 @ Q


# ---------------------------------------------------------------- matrix functions


_TAYLOR_DEGREE = 18
# the largest 1-norm at which the degree-18 Taylor remainder stays below the dtype's epsilon
# (Bader, Blanes and Casas 2019, the bounds PyTorch's matrix_exp uses): scaling only that far
# keeps the squarings, which amplify rounding errors, as few as PyTorch's
_TAYLOR_THETA = {D.float32: 3.010066362817634, D.float64: 1.090863719290036}


@composite("matrix_exp")
def matrix_exp(self: Tensor) -> Tensor:
    """exp(A) by scaling and squaring: exp(A) = exp(A / 2^s)^(2^s), the inner exponential a
    Taylor polynomial (Horner form) at norm <= theta."""
    if self.dtype in (D.float16, D.bfloat16):
        # PyTorch takes half types (it evaluates in them and overflows to NaN sooner);
        # computed in float32 and rounded back
        return matrix_exp(self.to(D.float32)).to(self.dtype)
    check_floating("linalg.matrix_exp", self)
    check_matrix("linalg.matrix_exp", self, square=True)
    n = self.shape[-1]
    if self.numel() == 0:
        return self.clone()
    # each matrix is scaled by its own 2^s (s from its 1-norm), then squared s times
    norms = self.detach().abs().sum(-2).amax(-1)
    theta = _TAYLOR_THETA[self.dtype]
    squarings = F.clamp(F.ceil(F.log2(norms / theta)), min=0).nan_to_num(0.0, 0.0, 0.0)
    most = int(squarings.amax().item())
    x = self * F.exp2(-squarings).unsqueeze(-1).unsqueeze(-1)
    eye = _eye(n, self)
    result = eye + x / _TAYLOR_DEGREE
    for k in range(_TAYLOR_DEGREE - 1, 0, -1):
        result = eye + (x @ result) / k
    for step in range(most):
        more = (squarings > step).unsqueeze(-1).unsqueeze(-1)
        result = F.where(more, result @ result, result)
    return result


@composite("linalg_matrix_exp")
def linalg_matrix_exp(A: Tensor) -> Tensor:
    return matrix_exp(A)


@composite("linalg_matrix_power")
def linalg_matrix_power(A: Tensor, n: int) -> Tensor:
    """A^n by repeated squaring (inverse first for negative n)."""
    check_matrix("linalg.matrix_power", A, square=True)
    if n == 0:  # the identity, still connected to A (with a zero gradient) as in PyTorch
        return A * 0 + _eye(A.shape[-1], A)
    if n < 0:
        check_floating("linalg.matrix_power", A)
        A, n = linalg_inv(A), -n
    result = None
    power = A
    while n:
        if n & 1:
            result = power if result is None else result @ power
        n >>= 1
        if n:
            power = power @ power
    return result


@composite("matrix_power")
def matrix_power(self: Tensor, n: int) -> Tensor:
    return linalg_matrix_power(self, n)


@composite("linalg_multi_dot")
def linalg_multi_dot(tensors: Sequence[Tensor]) -> Tensor:
    """Product of the chain; a 1-D first (last) tensor is a row (column) vector."""
    op = "multi_dot(): "
    if len(tensors) < 2:
        raise ShapeError(f"{op}expected at least 2 tensors but got {len(tensors)}")
    first, last = tensors[0], tensors[-1]
    if first.ndim not in (1, 2):
        raise ShapeError(f"{op}the first tensor must be 1D or 2D but got {first.ndim}D")
    if last.ndim not in (1, 2):
        raise ShapeError(f"{op}the last tensor must be 1D or 2D but got {last.ndim}D")
    for i, t in enumerate(tensors[1:-1], 1):
        if t.ndim != 2:
            raise ShapeError(f"{op}tensor {i} must be 2D but got {t.ndim}D")
    for t in tensors:
        if t.dtype is not first.dtype:
            raise DTypeError(f"{op}all tensors must have the same dtype but tensor 0 is "
                             f"{first.dtype.name} and tensor {tensors.index(t)} is "
                             f"{t.dtype.name}")
    chain = list(tensors)
    chain[0] = first.unsqueeze(0) if first.ndim == 1 else first
    chain[-1] = last.unsqueeze(-1) if last.ndim == 1 else last
    for i in range(len(chain) - 1):
        if chain[i].shape[1] != chain[i + 1].shape[0]:
            raise ShapeError(f"{op}tensors {i} and {i + 1} with shapes "
                             f"{list(chain[i].shape)} and {list(chain[i + 1].shape)} cannot be "
                             "multiplied")
    result = chain[0]
    for t in chain[1:]:
        result = result.mm(t)
    if first.ndim == 1:
        result = result.squeeze(0)
    if last.ndim == 1:
        result = result.squeeze(-1)
    return result


# ---------------------------------------------------------------- norms, rank, pseudo-inverse


def _matrix_dims(A: Tensor, dim: Sequence[int], op: str) -> tuple[int, int]:
    if len(dim) != 2:
        raise ShapeError(f"{op}: dim must be a 2-tuple. Got {' '.join(str(d) for d in dim)}")
    d0, d1 = wrap_dims(dim, A.ndim, op)
    if d0 == d1:
        raise ShapeError(f"{op}: dims must be different. Got ({d0}, {d1})")
    return d0, d1


def _svd_norm(A: Tensor, d0: int, d1: int, keepdim: bool, reduce: str) -> Tensor:
    s = linalg_svdvals(F.movedim(A, [d0, d1], [-2, -1]))
    value = s.sum(-1) if reduce == "sum" else (s.amax(-1) if reduce == "max" else s.amin(-1))
    if keepdim:
        for d in sorted((d0, d1)):
            value = value.unsqueeze(d)
    return value


@composite("linalg_matrix_norm")
def linalg_matrix_norm(A: Tensor, ord: Number, dim: Sequence[int] = (-2, -1),
                       keepdim: bool = False, dtype: D.dtype | None = None) -> Tensor:
    op = "linalg.matrix_norm"
    check_floating(op, A if dtype is None else A.to(dtype))
    check_matrix(op, A)
    if dtype is not None:
        A = A.to(dtype)
    d0, d1 = _matrix_dims(A, dim, op)
    if ord in (2, -2):
        return _svd_norm(A, d0, d1, keepdim, "max" if ord == 2 else "min")
    if ord in (1, -1, math.inf, -math.inf):
        # 1: the largest column sum (sum over rows d0), inf: the largest row sum
        summed, other = (d0, d1) if abs(ord) == 1 else (d1, d0)
        sums = A.abs().sum(summed, keepdim=True)
        value = sums.amax(other, keepdim=True) if ord > 0 else sums.amin(other, keepdim=True)
        return value if keepdim else value.squeeze(max(d0, d1)).squeeze(min(d0, d1))
    raise InvalidArgumentError(f"{op}: Order {ord} not supported.")


@composite("linalg_matrix_norm.str_ord")
def linalg_matrix_norm_str_ord(A: Tensor, ord: str = "fro", dim: Sequence[int] = (-2, -1),
                               keepdim: bool = False, dtype: D.dtype | None = None) -> Tensor:
    op = "linalg.matrix_norm"
    if ord not in ("fro", "nuc"):
        raise InvalidArgumentError(f"{op}: Order {ord} not supported.")
    check_floating(op, A if dtype is None else A.to(dtype))
    check_matrix(op, A)
    if dtype is not None:
        A = A.to(dtype)
    d0, d1 = _matrix_dims(A, dim, op)
    if ord == "fro":
        return F.vector_norm(A, 2, [d0, d1], keepdim)
    return _svd_norm(A, d0, d1, keepdim, "sum")


@composite("linalg_cond")
def linalg_cond(A: Tensor, p: Number | None = None) -> Tensor:
    """||A|| ||A^-1|| in the p-norm; the 2-norms come from the singular values."""
    check_floating("linalg.cond", A)
    check_matrix("linalg.cond", A)
    if p is None or p in (2, -2):
        s = linalg_svdvals(A)
        big, small = s.narrow(-1, 0, 1), s.narrow(-1, s.shape[-1] - 1, 1)
        return (big / small if p != -2 else small / big).squeeze(-1)
    check_matrix("linalg.cond", A, square=True)
    return _cond_by_inverse(A, p)


def _cond_by_inverse(A: Tensor, p: Number | str) -> Tensor:
    inv, info = F.linalg_inv_ex(A)
    value = linalg_matrix_norm(A, p) if not isinstance(p, str) else \
        linalg_matrix_norm_str_ord(A, p)
    inv_norm = linalg_matrix_norm(inv, p) if not isinstance(p, str) else \
        linalg_matrix_norm_str_ord(inv, p)
    # a singular matrix has an infinite condition number
    return F.where(info > 0, math.inf, value * inv_norm)


@composite("linalg_cond.p_str")
def linalg_cond_p_str(A: Tensor, p: str) -> Tensor:
    if p not in ("fro", "nuc"):
        raise InvalidArgumentError(f"linalg.cond got an invalid norm type: {p}")
    check_floating("linalg.cond", A)
    check_matrix("linalg.cond", A, square=True)
    return _cond_by_inverse(A, p)


def _tolerance(S: Tensor, A: Tensor, atol: Any, rtol: Any) -> Tensor:
    """max(atol, rtol * largest singular value), per matrix, with PyTorch's defaults: rtol is
    eps * max(m, n) when neither is given, 0 when only atol is."""
    if rtol is None:
        eps = 1.1920928955078125e-07 if A.dtype is D.float32 else 2.220446049250313e-16
        rtol = eps * max(A.shape[-2], A.shape[-1]) if atol is None or (
            not isinstance(atol, Tensor) and atol <= 0) else 0.0
    big = S.amax(-1, keepdim=True) if S.shape[-1] else S.sum(-1, keepdim=True)
    tol = big * (rtol.unsqueeze(-1) if isinstance(rtol, Tensor) else rtol)
    if atol is not None:
        tol = F.maximum(tol, atol.unsqueeze(-1) if isinstance(atol, Tensor) else
                        fac.full((), float(atol), dtype=S.dtype, device=S.device))
    return tol


def _spectrum(A: Tensor, hermitian: bool) -> Tensor:
    return F._linalg_eigh(A, "L", False)[0].abs() if hermitian else \
        F._linalg_svd(A, False, False)[1]


def _pinv(A: Tensor, atol: Any, rtol: Any, hermitian: bool) -> Tensor:
    op = "linalg.pinv"
    check_floating(op, A)
    check_matrix(op, A, square=hermitian)
    if hermitian:
        L, V = F._linalg_eigh(A, "L", True)
        keep = L.abs() > _tolerance(L.abs(), A, atol, rtol)
        inv_l = F.where(keep, 1.0 / F.where(keep, L, 1.0), 0.0)
        return (V * inv_l.unsqueeze(-2)) @ _mt(V)
    U, sv, Vh = F._linalg_svd(A, False, True)
    keep = sv > _tolerance(sv, A, atol, rtol)
    inv_s = F.where(keep, 1.0 / F.where(keep, sv, 1.0), 0.0)
    return (_mt(Vh) * inv_s.unsqueeze(-2)) @ _mt(U)


@composite("linalg_pinv.atol_rtol_tensor")
def linalg_pinv_tensor(A: Tensor, atol: Tensor | None = None, rtol: Tensor | None = None,
                       hermitian: bool = False) -> Tensor:
    return _pinv(A, atol, rtol, hermitian)


@composite("linalg_pinv.atol_rtol_float")
def linalg_pinv_float(A: Tensor, atol: float | None = None, rtol: float | None = None,
                      hermitian: bool = False) -> Tensor:
    return _pinv(A, atol, rtol, hermitian)


@composite("linalg_pinv")
def linalg_pinv(A: Tensor, rcond: float, hermitian: bool = False) -> Tensor:
    return _pinv(A, None, rcond, hermitian)


@composite("linalg_pinv.rcond_tensor")
def linalg_pinv_rcond_tensor(A: Tensor, rcond: Tensor, hermitian: bool = False) -> Tensor:
    return _pinv(A, None, rcond, hermitian)


@composite("pinverse")
def pinverse(self: Tensor, rcond: float = 1e-15) -> Tensor:
    return F.linalg_pinv(self, rcond)


def _rank(A: Tensor, atol: Any, rtol: Any, hermitian: bool) -> Tensor:
    op = "linalg.matrix_rank"
    check_floating(op, A)
    check_matrix(op, A, square=hermitian)
    sv = _spectrum(A, hermitian)
    return (sv > _tolerance(sv, A, atol, rtol)).sum(-1)


@composite("linalg_matrix_rank.atol_rtol_tensor")
def linalg_matrix_rank_tensor(A: Tensor, atol: Tensor | None = None,
                              rtol: Tensor | None = None, hermitian: bool = False) -> Tensor:
    return _rank(A, atol, rtol, hermitian)


@composite("linalg_matrix_rank.atol_rtol_float")
def linalg_matrix_rank_float(A: Tensor, atol: float | None = None, rtol: float | None = None,
                             hermitian: bool = False) -> Tensor:
    return _rank(A, atol, rtol, hermitian)


@composite("linalg_matrix_rank")
def linalg_matrix_rank(A: Tensor, tol: float, hermitian: bool = False) -> Tensor:
    return _rank(A, tol, 0.0, hermitian)


_LSTSQ_DRIVERS = ("gels", "gelsy", "gelsd", "gelss")


@composite("linalg_lstsq")
def linalg_lstsq(A: Tensor, B: Tensor, rcond: float | None = None, driver: str | None = None
                 ) -> tuple[Tensor, Tensor, Tensor, Tensor]:
    """Minimum-norm least squares through the pseudo-inverse; residuals, rank and singular
    values are filled as PyTorch's CPU drivers fill them (gelsy by default)."""
    op = "torch.linalg.lstsq"
    check_floating("linalg.lstsq", A)
    check_matrix("linalg.lstsq", A)
    if B.dtype is not A.dtype:
        raise DTypeError(f"linalg.lstsq: Expected input and other to have the same dtype, but "
                         f"got input's dtype {A.dtype} and other's dtype {B.dtype}")
    driver = "gelsy" if driver is None else driver
    if driver not in _LSTSQ_DRIVERS:
        raise InvalidArgumentError(f"{op}: parameter `driver` should be one of "
                                   "(gels, gelsy, gelsd, gelss)")
    vector = B.ndim == A.ndim - 1
    rhs = B.unsqueeze(-1) if vector else B
    if rhs.ndim < 2:
        raise ShapeError(f"{op}: input.dim() must be greater or equal to other.dim() and "
                         "(input.dim() - other.dim()) <= 1")
    m, n = A.shape[-2], A.shape[-1]
    if rhs.shape[-2] != m:
        raise ShapeError(f"{op}: input.size(-2) should match other.size(-2)")
    sv = F._linalg_svd(A, False, True)[1]
    eps = 1.1920928955078125e-07 if A.dtype is D.float32 else 2.220446049250313e-16
    cutoff = eps * max(m, n) if rcond is None or rcond < 0 else rcond
    keep = sv > _tolerance(sv, A, None, cutoff)
    solution = F.linalg_pinv(A, cutoff) @ rhs
    # PyTorch's empty outputs are still connected to the inputs
    empty = solution.reshape(-1).narrow(0, 0, 0)
    rank = keep.sum(-1) if driver != "gels" else fac.empty((0,), dtype=D.int64,
                                                             device=A.device)
    singular_values = sv if driver in ("gelsd", "gelss") else empty
    residuals = empty
    if driver != "gelsy" and m > n and bool((keep.sum(-1) == n).all()):
        residuals = ((A @ solution - rhs) ** 2).sum(-2)
    if vector:
        solution = solution.squeeze(-1)
        residuals = residuals.squeeze(-1) if residuals.numel() else residuals
    return solution, residuals, rank, singular_values


@composite("linalg_tensorinv")
def linalg_tensorinv(A: Tensor, ind: int = 2) -> Tensor:
    if ind <= 0:
        raise InvalidArgumentError("Expected a strictly positive integer for 'ind', but got "
                                   f"{ind}")
    rows, cols = _shape(A)[:ind], _shape(A)[ind:]
    if math.prod(rows) != math.prod(cols):
        raise ShapeError(f"Expected self to satisfy the requirement prod(self.shape[ind:]) == "
                         f"prod(self.shape[:ind]), but got {math.prod(cols)} != "
                         f"{math.prod(rows)}")
    p = math.prod(rows)
    return linalg_inv(A.reshape(p, p)).reshape(cols + rows)


@composite("linalg_tensorsolve")
def linalg_tensorsolve(A: Tensor, B: Tensor, dims: Sequence[int] | None = None) -> Tensor:
    if dims is not None:
        moved = wrap_dims(dims, A.ndim, "linalg.tensorsolve")
        A = F.movedim(A, list(moved), list(range(A.ndim - len(moved), A.ndim)))
    result_shape = _shape(A)[B.ndim:]
    rows = math.prod(_shape(B))
    if math.prod(result_shape) != rows:
        raise ShapeError(f"Expected self to satisfy the requirement "
                         f"prod(self.shape[other.ndim:]) == prod(self.shape[:other.ndim]), but "
                         f"got {math.prod(result_shape)} != {rows}")
    return linalg_solve(A.reshape(rows, rows), B.reshape(rows)).reshape(result_shape)


# ---------------------------------------------------------------- products


@composite("linalg_vecdot")
def linalg_vecdot(x: Tensor, y: Tensor, dim: int = -1) -> Tensor:
    if x.dtype is not y.dtype:
        raise DTypeError(f"linalg.vecdot: Expected x and y to have the same dtype, but found x "
                         f"of type {type_name(x.dtype)} and y of type {type_name(y.dtype)} "
                         "instead")
    return (x * y).sum(dim)


@composite("linalg_diagonal")
def linalg_diagonal(A: Tensor, offset: int = 0, dim1: int = -2, dim2: int = -1) -> Tensor:
    return A.diagonal(offset, dim1, dim2)


def _cross(a: Tensor, b: Tensor, dim: int, op: str) -> Tensor:
    if a.ndim != b.ndim:
        raise ShapeError(f"{op}: inputs must have the same number of dimensions.")
    if a.dtype is not b.dtype:
        raise DTypeError(f"{op}: expected both inputs to have the same dtype, but got "
                         f"{a.dtype.name} and {b.dtype.name}")
    shape = broadcast_shapes(_shape(a), _shape(b))
    d = wrap_dim(dim, len(shape), op)
    if a.shape[d] != 3 or b.shape[d] != 3:
        raise ShapeError(f"{op}: inputs dimension {dim} must have length 3. Got {a.shape[d]} "
                         f"and {b.shape[d]}")
    a, b = a.expand(shape), b.expand(shape)
    # c_i = a_{i+1} b_{i+2} - a_{i+2} b_{i+1} (indices mod 3)
    return F.roll(a, -1, d) * F.roll(b, -2, d) - F.roll(a, -2, d) * F.roll(b, -1, d)


@composite("linalg_cross")
def linalg_cross(self: Tensor, other: Tensor, dim: int = -1) -> Tensor:
    return _cross(self, other, dim, "linalg.cross")


@composite("cross")
def cross(self: Tensor, other: Tensor, dim: int | None = None) -> Tensor:
    if dim is None:  # PyTorch's deprecated default: the first dim of size 3
        shape = broadcast_shapes(_shape(self), _shape(other)) if self.ndim == other.ndim else ()
        sizes = [i for i, s in enumerate(shape) if s == 3]
        if not sizes:
            raise ShapeError("no dimension of size 3 in input")
        dim = sizes[0]
    return _cross(self, other, dim, "linalg.cross")


@composite("linalg_vander")
def linalg_vander(x: Tensor, N: int | None = None) -> Tensor:
    """Columns x^0 ... x^(N-1), as cumulative products (so integers stay exact)."""
    if x.ndim == 0:  # PyTorch treats a scalar as a one-element vector
        x = x.reshape(1)
    n = x.shape[-1] if N is None else N
    if n <= 1:
        raise InvalidArgumentError("N must be greater than 1.")
    dtype = D.int64 if x.dtype is D.bool_ else x.dtype
    x = x.to(dtype)
    powers = F.cat([F.ones_like(x).unsqueeze(-1),
                    x.unsqueeze(-1).expand(_shape(x) + (n - 1,))], -1)
    return F.cumprod(powers, -1, dtype=dtype)


@composite("addbmm")
def addbmm(self: Tensor, batch1: Tensor, batch2: Tensor, beta: Number = 1,
           alpha: Number = 1) -> Tensor:
    check_batches(batch1, batch2)
    if batch1.shape[0] != batch2.shape[0]:
        raise ShapeError(f"batch1 and batch2 must have same number of batches, got "
                         f"{batch1.shape[0]} and {batch2.shape[0]}")
    product = F.bmm(batch1, batch2).sum(0) if batch1.shape[0] else \
        fac.zeros((batch1.shape[1], batch2.shape[2]), dtype=batch1.dtype, device=batch1.device)
    broadcast_shapes(_shape(self), _shape(product))
    return _add_scaled(self, product, beta, alpha).expand(_shape(product))


@composite("addr")
def addr(self: Tensor, vec1: Tensor, vec2: Tensor, beta: Number = 1, alpha: Number = 1
         ) -> Tensor:
    if vec1.ndim != 1 or vec2.ndim != 1:
        raise ShapeError(f"addr: Expected 1-D argument vec1 and vec2, but got "
                         f"{vec1.ndim}-D and {vec2.ndim}-D")
    product = vec1.unsqueeze(1) * vec2
    if product.dtype is D.bool_:  # PyTorch: beta and alpha act as logical masks on bools
        out = product if alpha else F.zeros_like(product)
        return F.logical_or(self.expand(_shape(product)), out) if beta else out
    return _add_scaled(self, product, beta, alpha).expand(_shape(product))


@composite("vdot")
def vdot(self: Tensor, other: Tensor) -> Tensor:
    return F.dot(self, other)


@composite("inner")
def inner(self: Tensor, other: Tensor) -> Tensor:
    if self.ndim == 0 or other.ndim == 0:
        return self * other
    if self.shape[-1] != other.shape[-1]:
        raise ShapeError(f"inner() the last dimension must match on both input tensors but got "
                         f"shapes {list(self.shape)} and {list(other.shape)}")
    return F.tensordot(self, other, [-1], [-1])


@composite("kron")
def kron(self: Tensor, other: Tensor) -> Tensor:
    """Each element of self scales a copy of other: interleave the dims and multiply."""
    nd = max(self.ndim, other.ndim)
    a = _shape(self)
    b = _shape(other)
    a = (1,) * (nd - len(a)) + a
    b = (1,) * (nd - len(b)) + b
    left = self.reshape([s for size in a for s in (size, 1)])
    right = other.reshape([s for size in b for s in (1, size)])
    return (left * right).reshape([x * y for x, y in zip(a, b)])


@composite("block_diag")
def block_diag(tensors: Sequence[Tensor]) -> Tensor:
    blocks = []
    for i, t in enumerate(tensors):
        if t.ndim > 2:
            raise ShapeError(f"torch.block_diag: Input tensors must have 2 or fewer dimensions. "
                             f"Input {i} has {t.ndim} dimensions")
        blocks.append(t.reshape(1, -1) if t.ndim < 2 else t)
    if not blocks:
        return fac.empty((1, 0))
    dtype = blocks[0].dtype
    for t in blocks[1:]:
        dtype = D.promote_types(dtype, t.dtype)
    width = sum(t.shape[1] for t in blocks)
    rows = []
    col = 0
    for t in blocks:
        rows.append(F.pad(t.to(dtype), [col, width - col - t.shape[1]]))
        col += t.shape[1]
    return F.cat(rows, 0)


@composite("cartesian_prod")
def cartesian_prod(tensors: Sequence[Tensor]) -> Tensor:
    for t in tensors:
        if t.ndim != 1:
            raise ShapeError(f"Expect a 1D vector, but got shape {list(t.shape)}")
    if len(tensors) == 1:
        return tensors[0]
    grids = F.meshgrid(list(tensors), indexing="ij")
    return F.stack([g.reshape(-1) for g in grids], 1)


@composite("combinations")
def combinations(self: Tensor, r: int = 2, with_replacement: bool = False) -> Tensor:
    if self.ndim != 1:
        raise ShapeError(f"Expect a 1D vector, but got shape {list(self.shape)}")
    if r < 0:
        raise InvalidArgumentError(f"Expect a non-negative number, but got {r}")
    if r == 0:
        return self.narrow(0, 0, 0)
    pick = itertools.combinations_with_replacement if with_replacement else \
        itertools.combinations
    rows = list(pick(range(self.shape[0]), r))
    index = fac.tensor([i for row in rows for i in row], dtype=D.int64, device=self.device)
    return F.index_select(self, 0, index).reshape(len(rows), r)


# ---------------------------------------------------------------- distances, statistics


def _check_distance_input(op: str, x: Tensor, name: str) -> None:
    if x.dtype not in _FLOATING:
        raise DTypeError(f"{op} only supports floating-point dtypes, {name} got: "
                         f"{type_name(x.dtype)}")


_CDIST_MODES = ("use_mm_for_euclid_dist_if_necessary", "use_mm_for_euclid_dist",
                "donot_use_mm_for_euclid_dist")


@composite("cdist")
def cdist(x1: Tensor, x2: Tensor, p: float = 2,
          compute_mode: str = "use_mm_for_euclid_dist_if_necessary") -> Tensor:
    # the mode only picks how PyTorch computes euclidean distances; one of its three names
    if compute_mode not in _CDIST_MODES:
        raise InvalidArgumentError(f"{compute_mode} is not a valid value for compute_mode")
    if x1.ndim < 2:
        raise ShapeError(f"cdist only supports at least 2D tensors, X1 got: {x1.ndim}D")
    if x2.ndim < 2:
        raise ShapeError(f"cdist only supports at least 2D tensors, X2 got: {x2.ndim}D")
    _check_distance_input("cdist", x1, "X1")
    _check_distance_input("cdist", x2, "X2")
    if x1.shape[-1] != x2.shape[-1]:
        raise ShapeError(f"X1 and X2 must have the same number of columns. X1: {x1.shape[-1]} "
                         f"X2: {x2.shape[-1]}")
    if p < 0:
        raise InvalidArgumentError("cdist only supports non-negative p values")
    diff = x1.unsqueeze(-2) - x2.unsqueeze(-3)
    return F.vector_norm(diff, p, [-1])


@composite("pdist")
def pdist(input: Tensor, p: float = 2) -> Tensor:
    if input.ndim != 2:
        raise ShapeError(f"pdist only supports 2D tensors, got: {input.ndim}D")
    _check_distance_input("pdist", input, "X1")
    if not p >= 0:  # nan too
        raise InvalidArgumentError("pdist only supports non-negative p values")
    n = input.shape[0]
    pairs = list(itertools.combinations(range(n), 2))
    first = fac.tensor([i for i, _ in pairs], dtype=D.int64, device=input.device)
    second = fac.tensor([j for _, j in pairs], dtype=D.int64, device=input.device)
    diff = F.index_select(input, 0, first) - F.index_select(input, 0, second)
    return F.vector_norm(diff, p, [-1])


@composite("cov")
def cov(self: Tensor, correction: int = 1, fweights: Tensor | None = None,
        aweights: Tensor | None = None) -> Tensor:
    """Covariance of the rows (variables) over the columns (observations), weighted as numpy's
    and PyTorch's cov weigh them."""
    if self.ndim > 2:
        raise ShapeError(f"cov(): expected input to have two or fewer dimensions but got an "
                         f"input with {self.ndim} dimensions")
    if self.dtype is D.bool_:
        raise DTypeError("cov(): bool dtype is not supported for input")
    x = self.reshape(1, -1) if self.ndim < 2 else self
    if not x.dtype.is_floating_point:
        x = x.to(D.get_default_dtype())
    observations = x.shape[1]
    weights = None
    if fweights is not None:
        _check_weights("fweights", fweights, observations)
        if fweights.dtype.is_floating_point:
            raise DTypeError(f"cov(): expected fweights to have integral dtype but got "
                             f"fweights with {fweights.dtype.name} dtype")
        weights = fweights
    if aweights is not None:
        _check_weights("aweights", aweights, observations)
        if not aweights.dtype.is_floating_point:
            raise DTypeError(f"cov(): expected aweights to have floating point dtype but got "
                             f"aweights with {aweights.dtype.name} dtype")
        weights = aweights if weights is None else weights * aweights
    if weights is None:
        mean = x.mean(1, keepdim=True)
        total = fac.full((), float(observations), dtype=x.dtype, device=x.device)
        norm = total - correction
    else:
        total = weights.sum()
        mean = (x * weights).sum(1, keepdim=True) / total
        if correction == 0:
            norm = total
        elif aweights is None:
            norm = total - correction
        else:
            norm = total - correction * (weights * aweights).sum() / total
    norm = F.clamp(norm.to(x.dtype), min=0)
    centered = x - mean
    weighted = centered if weights is None else centered * weights
    return ((weighted @ _mt(centered)) / norm).squeeze()


def _check_weights(name: str, w: Tensor, observations: int) -> None:
    if w.ndim > 1:
        raise ShapeError(f"cov(): expected {name} to have one or fewer dimensions but got "
                         f"{name} with {w.ndim} dimensions")
    if w.numel() != observations:
        raise ShapeError(f"cov(): expected {name} to have the same numel as there are "
                         f"observations in the input but got {w.numel()} != {observations}")
    if w.numel() and bool((w < 0).any()):
        kind = "fweights" if name == "fweights" else "aweights"
        raise InvalidArgumentError(f"cov(): {kind} cannot be negative")


@composite("corrcoef")
def corrcoef(self: Tensor) -> Tensor:
    c = cov(self)
    if c.ndim == 0:
        return c / c
    std = c.diagonal().sqrt()
    c = c / std.unsqueeze(1) / std.unsqueeze(0)
    return F.clamp(c, -1, 1)


@composite("diagflat")
def diagflat(self: Tensor, offset: int = 0) -> Tensor:
    return F.diag(self.reshape(-1), offset)


def _trapezoid_dim(y: Tensor, dim: int, op: str, x: Tensor | None = None,
                   dx: Number = 1) -> int:
    """The integration dim, after PyTorch's checks: no bool samples or spacings, and a real
    ``dx`` (not a bool)."""
    if y.ndim == 0:
        raise IndexOutOfRangeError(f"Dimension specified as {dim} but tensor has no dimensions")
    d = wrap_dim(dim, y.ndim, op)
    if x is None and y.dtype is D.bool_:
        raise DTypeError(f"{op}: received a bool input for `y`, but bool is not supported")
    if x is not None and D.bool_ in (x.dtype, y.dtype):
        raise DTypeError(f"{op}: received a bool input for `x` or `y`, but bool is not supported")
    if y.shape[d] and (isinstance(dx, (bool, complex)) or (  # PyTorch returns zeros before
            isinstance(dx, Tensor) and dx.dtype is D.bool_)):  # it checks dx of no samples
        raise DTypeError(f"{op}: Currently, we only support dx as a real number.")
    return d


def _spacing(y: Tensor, x: Tensor, d: int) -> Tensor:
    """x's differences along d, shaped to broadcast against y's."""
    if x.ndim == 0:  # as in PyTorch: no differences, which broadcast only over one interval
        return x.reshape(1).narrow(0, 0, 0)
    if x.ndim == 1:
        if x.shape[0] != y.shape[d]:
            raise ShapeError(f"trapezoid: There must be one `x` value for each sample point, "
                             f"but got {x.shape[0]} x values and {y.shape[d]} sample points")
        dx = x.narrow(0, 1, x.shape[0] - 1) - x.narrow(0, 0, x.shape[0] - 1)
        return dx.reshape([-1] + [1] * (y.ndim - d - 1))
    n = x.shape[d]
    return x.narrow(d, 1, n - 1) - x.narrow(d, 0, n - 1)


def _pair_sums(y: Tensor, d: int) -> Tensor:
    n = y.shape[d]
    return y.narrow(d, 1, n - 1) + y.narrow(d, 0, n - 1)


def _empty_integral(y: Tensor, d: int) -> Tensor:
    dtype = y.dtype if y.dtype.is_floating_point else D.get_default_dtype()
    shape = _shape(y)[:d] + _shape(y)[d + 1:]
    return fac.zeros(shape, dtype=dtype, device=y.device)


@composite("trapezoid.x")
def trapezoid_x(y: Tensor, x: Tensor, dim: int = -1) -> Tensor:
    d = _trapezoid_dim(y, dim, "trapezoid", x)
    if y.shape[d] == 0:
        return _empty_integral(y, d)
    return (_spacing(y, x, d) * _pair_sums(y, d)).sum(d) / 2.0


@composite("trapezoid.dx")
def trapezoid_dx(y: Tensor, dx: Number = 1, dim: int = -1) -> Tensor:
    d = _trapezoid_dim(y, dim, "trapezoid", dx=dx)
    n = y.shape[d]
    if n == 0:
        return _empty_integral(y, d)
    ends = y.select(d, 0) + y.select(d, n - 1)
    return (y.sum(d) - ends * 0.5) * dx


@composite("trapz.x")
def trapz_x(y: Tensor, x: Tensor, dim: int = -1) -> Tensor:
    return trapezoid_x(y, x, dim)


@composite("trapz.dx")
def trapz_dx(y: Tensor, dx: float = 1, dim: int = -1) -> Tensor:
    return trapezoid_dx(y, dx, dim)


def _empty_cumulative(y: Tensor, d: int) -> Tensor:
    dtype = y.dtype if y.dtype.is_floating_point else D.get_default_dtype()
    shape = list(_shape(y))
    shape[d] = max(shape[d] - 1, 0)
    return fac.zeros(tuple(shape), dtype=dtype, device=y.device)


@composite("cumulative_trapezoid.x")
def cumulative_trapezoid_x(y: Tensor, x: Tensor, dim: int = -1) -> Tensor:
    d = _trapezoid_dim(y, dim, "cumulative_trapezoid", x)
    if y.shape[d] == 0:
        return _empty_cumulative(y, d)
    return F.cumsum(_spacing(y, x, d) * _pair_sums(y, d) / 2.0, d)


@composite("cumulative_trapezoid.dx")
def cumulative_trapezoid_dx(y: Tensor, dx: Number = 1, dim: int = -1) -> Tensor:
    d = _trapezoid_dim(y, dim, "cumulative_trapezoid", dx=dx)
    if y.shape[d] == 0:
        return _empty_cumulative(y, d)
    return F.cumsum(dx / 2.0 * _pair_sums(y, d), d)


@composite("renorm")
def renorm(self: Tensor, p: Number, dim: int, maxnorm: Number) -> Tensor:
    """Each slice along dim whose p-norm exceeds maxnorm, scaled to norm maxnorm."""
    if self.ndim <= 1:
        raise ShapeError(f"renorm: input needs at least 2 dimensions, got {self.ndim} "
                         "dimensions")
    if p <= 0:
        raise InvalidArgumentError("renorm: non-positive-norm not supported")
    if maxnorm < 0:
        raise InvalidArgumentError(f"renorm: expected maxnorm to be >= 0 but got {maxnorm}")
    d = wrap_dim(dim, self.ndim, "renorm")
    others = [i for i in range(self.ndim) if i != d]
    norms = F.vector_norm(self, p, others, True)
    factor = F.where(norms > maxnorm, maxnorm / (norms + 1e-7), 1.0)
    return self * factor
