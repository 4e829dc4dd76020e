"""Backward formulas of the matrix decompositions and solvers (ops.yaml's "linalg and matrix
ops" block), for real tensors.

The math follows PyTorch's derivative formulas (FunctionsManual.cpp): a determinant's gradient
is its cofactor matrix, the SVD's and eigh's go through the "F-matrix" of reciprocal eigenvalue
gaps, QR's and LU's through triangular solves. Every helper is written with volta ops, so it runs
on every backend and its result is itself differentiable. An output whose gradient is not needed
arrives as ``None``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from volta._generated import functions as F
from volta.autograd.graph import sum_to
from volta.errors import AutogradError
from volta.tensor import factories as fac

__all__ = [
    "inv_backward", "solve_backward", "det_backward", "slogdet_backward", "cholesky_backward",
    "qr_backward", "svd_backward", "eigh_backward", "solve_triangular_backward",
    "lu_factor_backward", "pinv_backward", "cholesky_solve_backward",
    "cholesky_inverse_backward",
]

Tensor = Any


def _mt(x: Tensor) -> Tensor:
    return x.transpose(-2, -1)


def _eye_like(x: Tensor, n: int, m: int | None = None) -> Tensor:
    return fac.eye(n, m, dtype=x.dtype, device=x.device)


def _add(a: Tensor | None, b: Tensor | None) -> Tensor | None:
    if a is None:
        return b
    return a if b is None else a + b


def inv_backward(grad: Tensor, inverse: Tensor) -> Tensor:
    # d(A^-1) = -A^-1 dA A^-1
    inv_t = _mt(inverse)
    return -(inv_t @ grad @ inv_t)


def is_vector_rhs(A: Tensor, B: Tensor) -> bool:
    """PyTorch's rule for linalg.solve: B is a (batch of) vector(s), not matrices."""
    return B.ndim == 1 or (B.ndim == A.ndim - 1 and tuple(B.shape) == tuple(A.shape[:-1]))


def solve_backward(grad: Tensor, A: Tensor, B: Tensor, X: Tensor, left: bool,
                   mask: Sequence[bool]) -> tuple:
    vector = left and is_vector_rhs(A, B)
    g, x = (grad.unsqueeze(-1), X.unsqueeze(-1)) if vector else (grad, X)
    # left: X = A^-1 B, so gB = A^-T g, gA = -gB X^T; right: X = B A^-1, gB = g A^-T, gA = -X^T gB
    g_b = F.linalg_solve(_mt(A), g, left=left)
    g_a = -(g_b @ _mt(x)) if left else -(_mt(x) @ g_b)
    if vector:
        g_b = g_b.squeeze(-1)
    return (sum_to(g_a, A.shape) if mask[0] else None,
            sum_to(g_b, B.shape) if mask[1] else None)


def _exclusive_prod(s: Tensor) -> Tensor:
    """prod_{j != i} s_j for each i along the last dim, without dividing (s may hold zeros)."""
    n = s.shape[-1]
    if n == 0:
        return s
    ones = F.ones_like(s.narrow(-1, 0, 1))
    before = F.cumprod(F.cat([ones, s.narrow(-1, 0, n - 1)], -1), -1)
    after = F.cumprod(F.cat([ones, s.flip(-1).narrow(-1, 0, n - 1)], -1), -1).flip(-1)
    return before * after


def det_backward(grad: Tensor, A: Tensor, det: Tensor) -> Tensor:
    # d det / dA is the cofactor matrix: with A = U diag(S) Vh it is
    # det(U) det(Vh) U diag(prod_{j != i} S_j) Vh, defined for singular A too
    U, S, Vh = F._linalg_svd(A, False, True)
    sign = F.linalg_det(U) * F.linalg_det(Vh)
    cofactor = (U * _exclusive_prod(S).unsqueeze(-2)) @ Vh
    return (grad * sign).unsqueeze(-1).unsqueeze(-1) * cofactor


def slogdet_backward(grad_logabsdet: Tensor | None, A: Tensor) -> Tensor | None:
    if grad_logabsdet is None:
        return None
    return grad_logabsdet.unsqueeze(-1).unsqueeze(-1) * _mt(F.linalg_inv(A))


def cholesky_backward(grad: Tensor, L: Tensor, upper: bool) -> Tensor:
    if upper:
        L, grad = _mt(L), _mt(grad)
    # A = L L^T: gA = L^-T sym(Phi(L^T gL)) L^-1, Phi keeping the lower triangle
    phi = (_mt(L) @ grad).tril()
    phi = 0.5 * (phi + _mt(phi.tril(-1)))
    g = F.linalg_solve_triangular(_mt(L), phi, upper=True)
    return F.linalg_solve_triangular(L, g, upper=False, left=False)


def _qr_square_backward(gQ: Tensor | None, gR: Tensor | None, Q: Tensor, R: Tensor) -> Tensor:
    # A = QR with m >= n: gA = (gQ + Q copyltu(M)) R^-T, M = R gR^T - gQ^T Q, copyltu
    # mirroring the lower triangle of M onto the upper one
    M = None if gR is None else R @ _mt(gR)
    if gQ is not None:
        M = _add(M, -(_mt(gQ) @ Q))
    assert M is not None
    b = Q @ (M.tril() + _mt(M.tril(-1)))
    if gQ is not None:
        b = b + gQ
    return F.linalg_solve_triangular(_mt(R), b, upper=False, left=False)


def qr_backward(gQ: Tensor | None, gR: Tensor | None, Q: Tensor, R: Tensor, mode: str
                ) -> Tensor | None:
    if gQ is None and gR is None:
        return None
    if mode == "r":
        raise AutogradError("The derivative of linalg.qr depends on Q, which is not computed "
                            "when mode='r'. Please use linalg.qr(A, mode='reduced') if you are "
                            "going to differentiate through linalg.qr.")
    m, n = Q.shape[-2], R.shape[-1]
    if mode == "complete" and m > n:
        raise AutogradError("The QR decomposition is not differentiable when mode='complete' "
                            "and nrows > ncols.")
    if m >= n:
        return _qr_square_backward(gQ, gR, Q, R)
    # wide: A = [X | Y] with X = Q R1 square and Y = Q R2
    R1, R2 = R.narrow(-1, 0, m), R.narrow(-1, m, n - m)
    gR1 = gY = None
    if gR is not None:
        gR1, gR2 = gR.narrow(-1, 0, m), gR.narrow(-1, m, n - m)
        gY = Q @ gR2
        gQ = _add(gQ, Q @ (R2 @ _mt(gR2)))
    gX = _qr_square_backward(gQ, gR1, Q, R1)
    return F.cat([gX, gY if gY is not None else F.zeros_like(R2)], -1)


def svd_backward(gU: Tensor | None, gS: Tensor | None, gVh: Tensor | None, U: Tensor,
                 S: Tensor, Vh: Tensor, full_matrices: bool) -> Tensor | None:
    if gU is None and gS is None and gVh is None:
        return None
    m, n, k = U.shape[-2], Vh.shape[-1], S.shape[-1]
    if full_matrices:  # only the first k singular vectors enter A
        U, Vh = U.narrow(-1, 0, k), Vh.narrow(-2, 0, k)
        gU = None if gU is None else gU.narrow(-1, 0, k)
        gVh = None if gVh is None else gVh.narrow(-2, 0, k)
    if gU is None and gVh is None:
        return (U * gS.unsqueeze(-2)) @ Vh
    S2 = S * S
    # E_ij = S_j^2 - S_i^2, ones on the diagonal (where the skew parts below are zero)
    E = S2.unsqueeze(-2) - S2.unsqueeze(-1) + _eye_like(S, k)
    V = gV = None
    gA = None
    if gU is not None:
        UhgU = _mt(U) @ gU
        gA = ((UhgU - _mt(UhgU)) / E) * S.unsqueeze(-2)
    if gVh is not None:
        V, gV = _mt(Vh), _mt(gVh)
        VhgV = _mt(V) @ gV
        gA = _add(gA, S.unsqueeze(-1) * ((VhgV - _mt(VhgV)) / E))
    if gS is not None:
        gA = gA + F.diag_embed(gS)
    if m > n and gU is not None:
        # gA = [U gA + (I - U U^T) gU S^-1] Vh
        gA = U @ gA
        gU_s = gU / S.unsqueeze(-2)
        gA = gA + gU_s - U @ (_mt(U) @ gU_s)
        return gA @ Vh
    if m < n and gV is not None:
        # gA = U [gA Vh + S^-1 gV^T (I - V Vh)]
        gA = gA @ Vh
        gV_s = _mt(gV / S.unsqueeze(-2))
        gA = gA + gV_s - (gV_s @ V) @ Vh
        return U @ gA
    return U @ (gA @ Vh)


def eigh_backward(gL: Tensor | None, gV: Tensor | None, L: Tensor, V: Tensor
                  ) -> Tensor | None:
    if gV is None:
        if gL is None:
            return None
        return (V * gL.unsqueeze(-2)) @ _mt(V)
    # gA = V (skew(V^T gV) / 2 / E + diag(gL)) V^T, E_ij = L_j - L_i
    n = L.shape[-1]
    VhgV = _mt(V) @ gV
    E = L.unsqueeze(-2) - L.unsqueeze(-1) + _eye_like(L, n)
    inner = (0.5 * (VhgV - _mt(VhgV))) / E
    if gL is not None:
        inner = inner + F.diag_embed(gL)
    return V @ (inner @ _mt(V))


def _triangle(x: Tensor, upper: bool, unitriangular: bool) -> Tensor:
    if upper:
        return x.triu(1 if unitriangular else 0)
    return x.tril(-1 if unitriangular else 0)


def solve_triangular_backward(grad: Tensor, A: Tensor, b_shape: Sequence[int], X: Tensor,
                              upper: bool, left: bool, unitriangular: bool,
                              mask: Sequence[bool]) -> tuple:
    # as solve's, with A^T lower where A is upper, and gA kept on A's triangle
    g_b = F.linalg_solve_triangular(_mt(A), grad, upper=not upper, left=left,
                                    unitriangular=unitriangular)
    g_a = None
    if mask[0]:
        g_a = -(g_b @ _mt(X)) if left else -(_mt(X) @ g_b)
        g_a = sum_to(_triangle(g_a, upper, unitriangular), A.shape)
    return g_a, sum_to(g_b, b_shape) if mask[1] else None


def lu_factor_backward(grad: Tensor, LU: Tensor, pivots: Tensor) -> Tensor:
    """A = P L U packed into LU (L unit lower m x k, U upper k x n): with X = L^-1 P^T dA U^-1
    on the square part, dL = L tril(X, -1) and dU = triu(X) U, so the gradient is
    P L^-T Phi U^-T with Phi collecting gL and gU on those triangles; the tall or wide rest
    follows by substitution."""
    m, n = LU.shape[-2], LU.shape[-1]
    k = min(m, n)
    P = F._lu_permutation(pivots, m, LU.dtype)
    L = LU.narrow(-1, 0, k).tril(-1) + _eye_like(LU, m, k)
    U = LU.narrow(-2, 0, k).triu()
    gL = grad.narrow(-1, 0, k).tril(-1)
    gU = grad.narrow(-2, 0, k).triu()
    if m == n:
        phi = (_mt(L) @ gL).tril(-1) + (gU @ _mt(U)).triu()
        g = F.linalg_solve_triangular(_mt(L), phi, upper=True, unitriangular=True)
        return P @ F.linalg_solve_triangular(_mt(U), g, upper=False, left=False)
    if m < n:
        U1, U2 = U.narrow(-1, 0, m), U.narrow(-1, m, n - m)
        gU1, gU2 = gU.narrow(-1, 0, m), gU.narrow(-1, m, n - m)
        phi = (_mt(L) @ gL - gU2 @ _mt(U2)).tril(-1) + (gU1 @ _mt(U1)).triu()
        g1 = F.linalg_solve_triangular(_mt(U1), phi, upper=False, left=False)
        g = F.linalg_solve_triangular(_mt(L), F.cat([g1, gU2], -1), upper=True,
                                      unitriangular=True)
        return P @ g
    L1, L2 = L.narrow(-2, 0, n), L.narrow(-2, n, m - n)
    gL1, gL2 = gL.narrow(-2, 0, n), gL.narrow(-2, n, m - n)
    phi = (_mt(L1) @ gL1).tril(-1) + (gU @ _mt(U) - _mt(L2) @ gL2).triu()
    g1 = F.linalg_solve_triangular(_mt(L1), phi, upper=True, unitriangular=True)
    g = F.linalg_solve_triangular(_mt(U), F.cat([g1, gL2], -2), upper=False, left=False)
    return P @ g


def pinv_backward(grad: Tensor, pinv: Tensor, A: Tensor) -> Tensor:
    """Golub and Pereyra's derivative of the pseudo-inverse P at constant rank:
    dP = -P dA P + P P^T dA^T (I - A P) + (I - P A) dA^T P^T P, transposed onto gA."""
    pt, gt = _mt(pinv), _mt(grad)
    m, n = A.shape[-2], A.shape[-1]
    left = _eye_like(A, m) - A @ pinv
    right = _eye_like(A, n) - pinv @ A
    return -(pt @ grad @ pt) + left @ (gt @ (pinv @ pt)) + (pt @ pinv) @ (gt @ right)


def cholesky_solve_backward(grad: Tensor, B: Tensor, L: Tensor, X: Tensor, upper: bool,
                            mask: Sequence[bool]) -> tuple:
    # X = A^-1 B with A = L L^T (U^T U): gB = A^-1 g, gA = -gB X^T, and dA through L (PyTorch
    # does not restrict the gradient of L to its triangle)
    g_b = F.cholesky_solve(grad, L, upper)
    g_l = None
    if mask[1]:
        common = g_b @ _mt(X)
        common = common + _mt(common)
        g_l = sum_to(-(L @ common) if upper else -(common @ L), L.shape)
    return sum_to(g_b, B.shape) if mask[0] else None, g_l


def cholesky_inverse_backward(grad: Tensor, L: Tensor, upper: bool, inverse: Tensor) -> Tensor:
    common = inverse @ ((grad + _mt(grad)) @ inverse)
    return -(L @ common) if upper else -(common @ L)
