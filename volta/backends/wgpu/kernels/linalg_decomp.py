"""Matrix decompositions and solvers on the device: LU with partial pivoting (and det, slogdet,
inv, solve on it), triangular solves, Cholesky, Householder QR, LDL^T with Bunch-Kaufman
pivoting, symmetric eigendecomposition (cyclic Jacobi) and SVD (one-sided Jacobi).

One workgroup per matrix of the batch: its threads share the row or column loops of each step
and meet at a barrier between steps; the pivot searches and the rotation angles are computed
by thread 0. float32 only (float64 runs through the CPU fallback, where it is switched on).
Inputs are copied into fresh contiguous work buffers, which the kernels factor in place.

Lavapipe stops any shader loop after 65,535 iterations, and each thread's share of a step is up
to ``n * n / 64`` iterations: matrices larger than ``MAX_ORDER`` raise a ShapeError.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from volta import dtypes as D
from volta.backends.wgpu import runtime
from volta.backends.wgpu.kernels.copy import copy_into
from volta.backends.wgpu.kernels.indexing import out_of_range
from volta.backends.wgpu.kernels.linalg import cpu_path
from volta.backends.wgpu.storage import STORED, empty, handle_of, runtime_of
from volta.composites.linalg import check_floating, check_matrix, check_same_dtype, check_solve
from volta.errors import InvalidArgumentError, LinAlgError, ShapeError
from volta.tensor import factories as fac
from volta.tensor.tensor import Tensor

MAX_ORDER = 1024  # n * n / THREADS stays under lavapipe's 65,535 iterations per loop
THREADS = 64
# Jacobi sweeps before giving up on convergence (float32 converges in well under ten)
MAX_SWEEPS = 40

_SOURCES: dict[tuple, str] = {}


def _source(body: str, bindings: Sequence[tuple[str, bool]], shared: str) -> str:
    """A kernel with one workgroup per matrix: ``mat`` is its index in the batch (``pu(0u)``
    matrices), ``lid`` the thread; ``sync()`` is a barrier for storage and workgroup memory."""
    key = (body, tuple(bindings), shared)
    if key not in _SOURCES:
        decls = "\n".join(
            f"@group(0) @binding({i + 1}) var<storage, {'read_write' if w else 'read'}> "
            f"b{i + 1}: array<{ty}>;" for i, (ty, w) in enumerate(bindings))
        _SOURCES[key] = (
            runtime.PARAMS_WGSL + decls + "\n" + shared +
            f"\nconst WG: u32 = {THREADS}u;\n"
            "fn sync() { storageBarrier(); workgroupBarrier(); }\n"
            f"@compute @workgroup_size({THREADS})\n"
            "fn main(@builtin(workgroup_id) wid: vec3<u32>,\n"
            "        @builtin(num_workgroups) nwg: vec3<u32>,\n"
            "        @builtin(local_invocation_index) lid: u32) {\n"
            "  let mat = wid.x + wid.y * nwg.x;\n"
            "  if (mat >= pu(0u)) { return; }\n"
            f"{body}\n}}\n")
    return _SOURCES[key]


def _per_matrix(body: str, count: int, tensors: Sequence[tuple[Tensor, bool]],
                scalars: Sequence[Any] = (), shared: str = "") -> None:
    """Run ``body`` with one workgroup for each of ``count`` matrices; ``tensors[k]`` (fresh:
    contiguous from offset 0, distinct storages) is bound as ``b{k+1}``."""
    if count == 0:
        return
    binds = [(STORED[t.dtype][0], w) for t, w in tensors]
    rt = runtime_of(tensors[0][0])
    kernel = rt.kernel(_source(body, binds, shared), [w for _, w in binds])
    x = min(count, runtime.MAX_GROUPS_X)
    rt.dispatch(kernel, [handle_of(t) for t, _ in tensors], runtime.pack([count, *scalars]),
                (x, -(-count // x), 1))


def _fresh(t: Tensor, dtype: D.dtype | None = None) -> Tensor:
    """A contiguous copy from offset 0 (the kernels index their buffers from 0)."""
    dtype = dtype or t.dtype
    return copy_into(empty(tuple(t._shape), dtype, t._device), t.to(dtype))


def _count(shape: Sequence[int]) -> int:
    out = 1
    for s in shape[:-2]:
        out *= s
    return out


def _check_order(op: str, *sizes: int) -> None:
    if max(sizes, default=0) > MAX_ORDER:
        raise ShapeError(f"{op}: matrices of up to {MAX_ORDER} rows and columns are supported "
                         f"on wgpu (lavapipe stops a shader loop after 65,535 iterations), got "
                         f"{'x'.join(map(str, sizes))}")


def _on_device(op: str, a: Tensor, square: bool = True) -> bool:
    """PyTorch's checks; False for float64, which the kernels here do not compute."""
    check_floating(op, a)
    check_matrix(op, a, square)
    if a.dtype is not D.float32:
        return False
    _check_order(op, *a._shape[-2:])
    return True


def _batch_prefix(info: Tensor, index: int) -> str:
    return f"(Batch element {index}): " if info.ndim else ""


def _first_failure(info: Tensor) -> tuple[int, int] | None:
    """(batch index, info code) of the first failing matrix, or None (one readback)."""
    codes = info.reshape(-1).cpu().numpy()
    bad = codes.nonzero()[0]
    return None if bad.size == 0 else (int(bad[0]), int(codes[bad[0]]))


# ---------------------------------------------------------------- LU

_GETRF = """
  let m = pu(1u); let n = pu(2u); let k = min(m, n);
  let base = mat * m * n;
  if (lid == 0u) { b3[mat] = 0; }
  for (var j = 0u; j < k; j = j + 1u) {
    if (lid == 0u) {
      // the first row of largest magnitude (LAPACK's isamax) is the pivot row
      var p = j; var best = abs(b1[base + j * n + j]);
      for (var i = j + 1u; i < m; i = i + 1u) {
        let v = abs(b1[base + i * n + j]);
        if (v > best) { best = v; p = i; }
      }
      pivot_row = p;
      b2[mat * k + j] = i32(p + 1u);
      if (b1[base + p * n + j] == 0.0 && b3[mat] == 0) { b3[mat] = i32(j + 1u); }
    }
    sync();
    let p = pivot_row;
    if (p != j) {
      for (var c = lid; c < n; c = c + WG) {
        let t = b1[base + j * n + c];
        b1[base + j * n + c] = b1[base + p * n + c];
        b1[base + p * n + c] = t;
      }
    }
    sync();
    let d = b1[base + j * n + j];
    // a zero pivot has a zero column below it: LAPACK leaves it unscaled
    let divisor = select(d, 1.0, d == 0.0);
    for (var i = j + 1u + lid; i < m; i = i + WG) {
      b1[base + i * n + j] = b1[base + i * n + j] / divisor;
    }
    sync();
    let cols = n - j - 1u;
    let total = (m - j - 1u) * cols;
    for (var t = lid; t < total; t = t + WG) {
      let i = j + 1u + t / cols; let c = j + 1u + t % cols;
      b1[base + i * n + c] = b1[base + i * n + c] - b1[base + i * n + j] * b1[base + j * n + c];
    }
    sync();
  }
"""


def _lu(a: Tensor) -> tuple[Tensor, Tensor, Tensor]:
    """Packed LU of a float32 batch (LAPACK getrf): LU, int32 1-based pivots, int32 info."""
    *batch, m, n = a._shape
    lu = _fresh(a)
    pivots = empty((*batch, min(m, n)), D.int32, a._device)
    info = empty(tuple(batch), D.int32, a._device)
    _per_matrix(_GETRF, _count(a._shape), [(lu, True), (pivots, True), (info, True)], [m, n],
                "var<workgroup> pivot_row: u32;")
    return lu, pivots, info


def linalg_lu_factor_ex(a: Tensor, pivot: bool = True, check_errors: bool = False) -> tuple:
    op = "linalg.lu_factor"
    if not pivot:
        raise InvalidArgumentError(f"{op}: LU without pivoting is not implemented on wgpu")
    if not _on_device(op, a, square=False):
        return cpu_path("linalg_lu_factor_ex", a, pivot, check_errors)
    lu, pivots, info = _lu(a)
    if check_errors:
        failure = _first_failure(info)
        if failure is not None:
            raise LinAlgError(f"torch.{op}: {_batch_prefix(info, failure[0])}U[{failure[1]},"
                              f"{failure[1]}] is zero and using it on lu_solve would result in "
                              "a division by zero. If you still want to perform the "
                              "factorization, consider calling linalg.lu(A, pivot) or "
                              "linalg.lu_factor_ex(A, pivot)")
    return lu, pivots, info


_PERMUTATION = """
  let m = pu(1u); let k = pu(2u);
  if (lid == 0u) {  // apply the row swaps in order: b2[i] is the row of A in row i of LU
    for (var i = 0u; i < m; i = i + 1u) { b2[mat * m + i] = i32(i); }
    for (var j = 0u; j < k; j = j + 1u) {
      let p = u32(b3[mat * k + j] - 1);
      let t = b2[mat * m + j]; b2[mat * m + j] = b2[mat * m + p]; b2[mat * m + p] = t;
    }
  }
  sync();
  // A = P L U: column i of P has its one in row b2[i]
  for (var t = lid; t < m * m; t = t + WG) {
    let r = t / m; let c = t % m;
    b1[mat * m * m + t] = select(0.0, 1.0, u32(b2[mat * m + c]) == r);
  }
"""


def lu_permutation(pivots: Tensor, m: int, dtype: D.dtype) -> Tensor:
    if dtype is not D.float32 or pivots.dtype not in (D.int32, D.int64):
        return cpu_path("_lu_permutation", pivots, m, dtype)
    *batch, k = pivots._shape
    _check_order("lu_unpack", m, k)
    if out_of_range(pivots, 1, m + 1) is not None:  # one read, none for uploaded pivots
        raise InvalidArgumentError(f"lu_unpack: pivots out of range: each must be in [1, {m}]")
    out = empty((*batch, m, m), dtype, pivots._device)
    order = empty((*batch, m), D.int32, pivots._device)
    _per_matrix(_PERMUTATION, _count((*batch, 0, 0)),
                [(out, True), (order, True), (_fresh(pivots, D.int32), False)], [m, k])
    return out


# ---------------------------------------------------------------- solves on the LU factors

_GETRS = """
  let n = pu(1u); let r = pu(2u);
  let lu = mat * n * n; let x = mat * n * r;
  let singular = b4[mat] != 0;
  for (var c = lid; c < r; c = c + WG) {
    for (var j = 0u; j < n; j = j + 1u) {
      let p = u32(b2[mat * n + j] - 1);
      let t = b3[x + j * r + c]; b3[x + j * r + c] = b3[x + p * r + c]; b3[x + p * r + c] = t;
    }
    for (var i = 0u; i < n; i = i + 1u) {  // L y = P^T b, L unit lower
      var acc = b3[x + i * r + c];
      for (var j = 0u; j < i; j = j + 1u) { acc = acc - b1[lu + i * n + j] * b3[x + j * r + c]; }
      b3[x + i * r + c] = acc;
    }
    for (var ii = 0u; ii < n; ii = ii + 1u) {  // U x = y
      let i = n - 1u - ii;
      var acc = b3[x + i * r + c];
      for (var j = i + 1u; j < n; j = j + 1u) {
        acc = acc - b1[lu + i * n + j] * b3[x + j * r + c];
      }
      b3[x + i * r + c] = acc / b1[lu + i * n + i];
    }
    if (singular) {  // LAPACK returns no solution: NaN, as the CPU backend
      for (var i = 0u; i < n; i = i + 1u) { b3[x + i * r + c] = bitcast<f32>(0x7fc00000u); }
    }
  }
"""


def _lu_solve(lu: Tensor, pivots: Tensor, info: Tensor, rhs: Tensor) -> Tensor:
    """X with A X = rhs from A's LU (all with the same batch shape); NaN where info != 0."""
    x = _fresh(rhs)
    _per_matrix(_GETRS, _count(lu._shape), [(lu, False), (pivots, False), (x, True),
                                             (info, False)],
                [lu._shape[-1], rhs._shape[-1]])
    return x


def linalg_inv_ex(a: Tensor, check_errors: bool = False) -> tuple:
    op = "linalg.inv"
    if not _on_device(op, a):
        return cpu_path("linalg_inv_ex", a, check_errors)
    lu, pivots, info = _lu(a)
    if check_errors:
        failure = _first_failure(info)
        if failure is not None:
            raise LinAlgError(f"{op}: {_batch_prefix(info, failure[0])}The diagonal element "
                              f"{failure[1]} is zero, the inversion could not be completed "
                              "because the input matrix is singular.")
    n = a._shape[-1]
    eye = empty((n, n), a.dtype, a._device).fill_(0)
    eye.diagonal().fill_(1)
    return _lu_solve(lu, pivots, info, eye.expand(*a._shape)), info


def linalg_solve_ex(a: Tensor, b: Tensor, left: bool = True, check_errors: bool = False
                    ) -> tuple:
    op = "linalg.solve"
    vector, batch = check_solve(op, a, b, left)
    if a.dtype is not D.float32:
        return cpu_path("linalg_solve_ex", a, b, left, check_errors)
    _check_order(op, *a._shape[-2:])
    rhs = b.unsqueeze(-1) if vector else b
    n = a._shape[-1]
    arr = a.expand(*batch, n, n)
    rhs = rhs.expand(*batch, *rhs._shape[-2:])
    if not left:  # X A = B  <=>  A^T X^T = B^T
        arr, rhs = arr.transpose(-2, -1), rhs.transpose(-2, -1)
    _check_order(op, *rhs._shape[-2:])
    lu, pivots, info = _lu(arr)
    if check_errors:
        failure = _first_failure(info)
        if failure is not None:
            raise LinAlgError(f"torch.linalg.solve: {_batch_prefix(info, failure[0])}The solver "
                              "failed because the input matrix is singular.")
    x = _lu_solve(lu, pivots, info, rhs)
    if not left:
        x = x.transpose(-2, -1)
    return (x.squeeze(-1) if vector else x), info


_TRSM = """
  let n = pu(1u); let r = pu(2u); let upper = pu(3u) == 1u; let unit = pu(4u) == 1u;
  let a = mat * n * n; let x = mat * n * r;
  for (var c = lid; c < r; c = c + WG) {
    for (var s = 0u; s < n; s = s + 1u) {
      let i = select(s, n - 1u - s, upper);  // back substitution for upper, forward for lower
      var acc = b2[x + i * r + c];
      let lo = select(0u, i + 1u, upper); let hi = select(i, n, upper);
      for (var j = lo; j < hi; j = j + 1u) { acc = acc - b1[a + i * n + j] * b2[x + j * r + c]; }
      b2[x + i * r + c] = select(acc / b1[a + i * n + i], acc, unit);
    }
  }
"""


def linalg_solve_triangular(a: Tensor, b: Tensor, upper: bool, left: bool = True,
                            unitriangular: bool = False) -> Tensor:
    op = "linalg.solve_triangular"
    check_same_dtype(op, a, b)
    if b.ndim < 2:
        raise ShapeError(f"{op}: The input tensor B must have at least 2 dimensions.")
    _, batch = check_solve(op, a, b, left, vectors=False)
    if a.dtype is not D.float32:
        return cpu_path("linalg_solve_triangular", a, b, upper, left, unitriangular)
    _check_order(op, *a._shape[-2:], *b._shape[-2:])
    n = a._shape[-1]
    arr = a.expand(*batch, n, n)
    rhs = b.expand(*batch, *b._shape[-2:])
    if not left:  # X A = B  <=>  A^T X^T = B^T, and A^T has the other triangle
        arr, rhs, upper = arr.transpose(-2, -1), rhs.transpose(-2, -1), not upper
    x = _fresh(rhs)
    _per_matrix(_TRSM, _count(arr._shape), [(_fresh(arr), False), (x, True)],
                [n, rhs._shape[-1], int(upper), int(unitriangular)])
    return x.transpose(-2, -1) if not left else x


# ---------------------------------------------------------------- det, slogdet


def _lu_diagonal_and_sign(a: Tensor) -> tuple[Tensor, Tensor]:
    """The diagonal of U and the sign of the row permutation of A = P L U."""
    lu, pivots, _ = _lu(a)
    n = a._shape[-1]
    steps = fac.arange(1, n + 1, dtype=D.int32, device=a.device)
    swaps = (pivots != steps).to(D.int32).sum(-1)
    sign = 1 - 2 * (swaps % 2).to(a.dtype)
    return lu.diagonal(0, -2, -1), sign


def linalg_det(a: Tensor) -> Tensor:
    if not _on_device("linalg.det", a):
        return cpu_path("linalg_det", a)
    diagonal, sign = _lu_diagonal_and_sign(a)
    return (diagonal.prod(-1) * sign).contiguous()


def linalg_slogdet(a: Tensor) -> tuple:
    if not _on_device("linalg.slogdet", a):
        return cpu_path("linalg_slogdet", a)
    diagonal, sign = _lu_diagonal_and_sign(a)
    return ((diagonal.sign().prod(-1) * sign).contiguous(),
            diagonal.abs().log().sum(-1).contiguous())


# ---------------------------------------------------------------- Cholesky

_POTRF = """
  let n = pu(1u); let base = mat * n * n;
  if (lid == 0u) { b2[mat] = 0; }
  sync();
  for (var j = 0u; j < n; j = j + 1u) {
    let d = b1[base + j * n + j];
    // the first leading minor that is not positive-definite (NaN included)
    if (lid == 0u && !(d > 0.0) && b2[mat] == 0) { b2[mat] = i32(j + 1u); }
    let root = sqrt(max(d, 0.0));
    sync();
    if (lid == 0u) { b1[base + j * n + j] = root; }
    for (var i = j + 1u + lid; i < n; i = i + WG) {
      b1[base + i * n + j] = b1[base + i * n + j] / root;
    }
    sync();
    let rows = n - j - 1u;
    for (var t = lid; t < rows * rows; t = t + WG) {  // the trailing lower triangle
      let i = j + 1u + t / rows; let c = j + 1u + t % rows;
      if (c <= i) {
        b1[base + i * n + c] = b1[base + i * n + c] - b1[base + i * n + j] * b1[base + c * n + j];
      }
    }
    sync();
  }
  // only the lower triangle is the factor; a failed matrix is all zeros, as the CPU backend
  let failed = b2[mat] != 0;
  for (var t = lid; t < n * n; t = t + WG) {
    if (failed || t % n > t / n) { b1[base + t] = 0.0; }
  }
"""


def linalg_cholesky_ex(a: Tensor, upper: bool = False, check_errors: bool = False) -> tuple:
    op = "linalg.cholesky"
    if not _on_device(op, a):
        return cpu_path("linalg_cholesky_ex", a, upper, check_errors)
    factor = _fresh(a)
    info = empty(tuple(a._shape[:-2]), D.int32, a._device)
    _per_matrix(_POTRF, _count(a._shape), [(factor, True), (info, True)], [a._shape[-1]])
    if check_errors:
        failure = _first_failure(info)
        if failure is not None:
            raise LinAlgError(f"{op}: {_batch_prefix(info, failure[0])}The factorization could "
                              "not be completed because the input is not positive-definite "
                              f"(the leading minor of order {failure[1]} is not "
                              "positive-definite).")
    return (factor.transpose(-2, -1).contiguous() if upper else factor), info


# ---------------------------------------------------------------- Householder QR

_GEQRF = """
  let m = pu(1u); let n = pu(2u); let k = min(m, n);
  let base = mat * m * n;
  for (var j = 0u; j < k; j = j + 1u) {
    if (lid == 0u) {  // LAPACK's slarfg: H = I - tau v v^T maps column j below the diagonal
      let alpha = b1[base + j * n + j];
      var norm2 = 0.0;
      for (var i = j + 1u; i < m; i = i + 1u) {
        let x = b1[base + i * n + j]; norm2 = norm2 + x * x;
      }
      var tau = 0.0;
      if (norm2 > 0.0) {
        let length = sqrt(alpha * alpha + norm2);
        let beta = select(length, -length, alpha >= 0.0);
        tau = (beta - alpha) / beta;
        let scale = 1.0 / (alpha - beta);
        for (var i = j + 1u; i < m; i = i + 1u) {
          b1[base + i * n + j] = b1[base + i * n + j] * scale;
        }
        b1[base + j * n + j] = beta;
      }
      b2[mat * k + j] = tau;
      reflector_tau = tau;
    }
    sync();
    let tau = reflector_tau;
    for (var c = j + 1u + lid; c < n; c = c + WG) {  // apply H to the trailing columns
      var w = b1[base + j * n + c];
      for (var i = j + 1u; i < m; i = i + 1u) {
        w = w + b1[base + i * n + j] * b1[base + i * n + c];
      }
      w = w * tau;
      b1[base + j * n + c] = b1[base + j * n + c] - w;
      for (var i = j + 1u; i < m; i = i + 1u) {
        b1[base + i * n + c] = b1[base + i * n + c] - w * b1[base + i * n + j];
      }
    }
    sync();
  }
"""

# Q = H_0 H_1 ... H_{k-1} applied to the first columns of I: each column of Q on its own thread
_ORGQR = """
  let m = pu(1u); let n = pu(2u); let cols = pu(3u); let k = min(m, n);
  let h = mat * m * n; let q = mat * m * cols;
  for (var c = lid; c < cols; c = c + WG) {
    for (var i = 0u; i < m; i = i + 1u) { b3[q + i * cols + c] = select(0.0, 1.0, i == c); }
    for (var jj = 0u; jj < k; jj = jj + 1u) {
      let j = k - 1u - jj;
      let tau = b2[mat * k + j];
      var w = b3[q + j * cols + c];
      for (var i = j + 1u; i < m; i = i + 1u) { w = w + b1[h + i * n + j] * b3[q + i * cols + c]; }
      w = w * tau;
      b3[q + j * cols + c] = b3[q + j * cols + c] - w;
      for (var i = j + 1u; i < m; i = i + 1u) {
        b3[q + i * cols + c] = b3[q + i * cols + c] - w * b1[h + i * n + j];
      }
    }
  }
"""


def _geqrf(a: Tensor) -> tuple[Tensor, Tensor]:
    *batch, m, n = a._shape
    h = _fresh(a)
    tau = empty((*batch, min(m, n)), a.dtype, a._device)
    _per_matrix(_GEQRF, _count(a._shape), [(h, True), (tau, True)], [m, n],
                "var<workgroup> reflector_tau: f32;")
    return h, tau


def geqrf(a: Tensor) -> tuple:
    if not _on_device("geqrf", a, square=False):
        return cpu_path("geqrf", a)
    return _geqrf(a)


def linalg_qr(a: Tensor, mode: str = "reduced") -> tuple:
    if mode not in ("reduced", "complete", "r"):
        raise InvalidArgumentError(f"qr received unrecognized mode '{mode}' but expected one "
                                   "of 'reduced' (default), 'r', or 'complete'")
    if not _on_device("linalg.qr", a, square=False):
        return cpu_path("linalg_qr", a, mode)
    *batch, m, n = a._shape
    h, tau = _geqrf(a)
    rows = m if mode == "complete" else min(m, n)
    r = h.narrow(-2, 0, rows).triu().contiguous()
    if mode == "r":
        return empty((0,), a.dtype, a._device), r
    q = empty((*batch, m, rows), a.dtype, a._device)
    _per_matrix(_ORGQR, _count(a._shape), [(h, False), (tau, False), (q, True)], [m, n, rows])
    return q, r


# ---------------------------------------------------------------- LDL^T (Bunch-Kaufman)

# LAPACK's unblocked sytf2 (UPLO='L'), as the CPU backend computes it, serial on thread 0:
# b1 the lower triangle (n x n), b2 the 1-based pivots (negative for 2x2 blocks), b3 info
_SYTF2 = """
  let n = pu(1u); let base = mat * n * n;
  if (lid != 0u) { return; }
  var info = 0;
  var k = 0u;
  loop {
    if (k >= n) { break; }
    var step = 1u;
    let absakk = abs(A(k, k));
    var imax = k; var colmax = 0.0;
    for (var i = k + 1u; i < n; i = i + 1u) {
      if (i == k + 1u || abs(A(i, k)) > colmax) { colmax = abs(A(i, k)); imax = i; }
    }
    var kp = k;
    if (max(absakk, colmax) == 0.0 || absakk != absakk) {
      if (info == 0) { info = i32(k + 1u); }
    } else if (absakk < ALPHA * colmax) {
      var rowmax = 0.0;
      for (var j = k; j < imax; j = j + 1u) { rowmax = max(rowmax, abs(A(imax, j))); }
      for (var i = imax + 1u; i < n; i = i + 1u) { rowmax = max(rowmax, abs(A(i, imax))); }
      if (absakk >= ALPHA * colmax * (colmax / rowmax)) {
        kp = k;
      } else if (abs(A(imax, imax)) >= ALPHA * rowmax) {
        kp = imax;
      } else {
        kp = imax; step = 2u;
      }
    }
    let kk = k + step - 1u;
    if (kp != kk) {  // symmetric interchange of rows and columns kk and kp below k
      for (var i = kp + 1u; i < n; i = i + 1u) { exchange(i, kk, i, kp); }
      for (var j = kk + 1u; j < kp; j = j + 1u) { exchange(j, kk, kp, j); }
      exchange(kk, kk, kp, kp);
      if (step == 2u) { exchange(k + 1u, k, kp, k); }
    }
    if (step == 1u && k + 1u < n && A(k, k) != 0.0) {
      let d = A(k, k);
      for (var j = k + 1u; j < n; j = j + 1u) {
        for (var i = j; i < n; i = i + 1u) { put(i, j, A(i, j) - A(i, k) * A(j, k) / d); }
      }
      for (var i = k + 1u; i < n; i = i + 1u) { put(i, k, A(i, k) / d); }
    } else if (step == 2u && k + 2u < n) {
      let d21 = A(k + 1u, k);
      let d11 = A(k + 1u, k + 1u) / d21; let d22 = A(k, k) / d21;
      let scale = 1.0 / (d11 * d22 - 1.0) / d21;
      for (var j = k + 2u; j < n; j = j + 1u) {
        let wk = scale * (d11 * A(j, k) - A(j, k + 1u));
        let wkp1 = scale * (d22 * A(j, k + 1u) - A(j, k));
        for (var i = j; i < n; i = i + 1u) {
          put(i, j, A(i, j) - (A(i, k) * wk + A(i, k + 1u) * wkp1));
        }
      }
      for (var i = k + 2u; i < n; i = i + 1u) {
        let ak = A(i, k); let ak1 = A(i, k + 1u);
        put(i, k, scale * (d11 * ak - ak1)); put(i, k + 1u, scale * (d22 * ak1 - ak));
      }
    }
    if (step == 1u) {
      b2[mat * n + k] = i32(kp + 1u);
    } else {
      b2[mat * n + k] = -i32(kp + 1u); b2[mat * n + k + 1u] = -i32(kp + 1u);
    }
    k = k + step;
  }
  b3[mat] = info;
"""

_SYTF2_SHARED = f"""
const ALPHA: f32 = {(1 + 17 ** 0.5) / 8!r};
var<private> base: u32;
var<private> n: u32;
"""


def _sytf2_shared() -> str:
    # element access of the matrix being factored (base and n set once per workgroup)
    return (_SYTF2_SHARED + "fn A(i: u32, j: u32) -> f32 { return b1[base + i * n + j]; }\n"
            "fn put(i: u32, j: u32, v: f32) { b1[base + i * n + j] = v; }\n"
            "fn exchange(i: u32, j: u32, k: u32, l: u32) {\n"
            "  let t = A(i, j); put(i, j, A(k, l)); put(k, l, t);\n}\n")


def linalg_ldl_factor_ex(a: Tensor, hermitian: bool = False, check_errors: bool = False
                         ) -> tuple:
    op = "torch.linalg.ldl_factor_ex"
    if not _on_device(op, a):
        return cpu_path("linalg_ldl_factor_ex", a, hermitian, check_errors)
    *batch, n, _ = a._shape
    ld = _fresh(a.tril())
    pivots = empty((*batch, n), D.int32, a._device)
    info = empty(tuple(batch), D.int32, a._device)
    body = _SYTF2.replace("let n = pu(1u); let base = mat * n * n;",
                          "n = pu(1u); base = mat * n * n;")
    _per_matrix(body, _count(a._shape), [(ld, True), (pivots, True), (info, True)], [n],
                _sytf2_shared())
    if check_errors:
        failure = _first_failure(info)
        if failure is not None:
            raise LinAlgError(f"torch.linalg.ldl_factor: {_batch_prefix(info, failure[0])}The "
                              f"factorization could not be completed because the input is "
                              f"singular (D[{failure[1]},{failure[1]}] is zero).")
    return ld, pivots, info


# LAPACK's sytrs (UPLO='L') from sytf2's factors: b1 LD, b2 pivots, b3 B -> X, a thread a column
_SYTRS = """
  let n = pu(1u); let r = pu(2u); let l = mat * n * n; let x = mat * n * r;
  for (var c = lid; c < r; c = c + WG) {
    var k = 0u;
    loop {  // L D Y = P^T B
      if (k >= n) { break; }
      let piv = b2[mat * n + k];
      if (piv > 0) {
        let p = u32(piv - 1);
        let t = b3[x + k * r + c]; b3[x + k * r + c] = b3[x + p * r + c]; b3[x + p * r + c] = t;
        for (var i = k + 1u; i < n; i = i + 1u) {
          b3[x + i * r + c] = b3[x + i * r + c] - b1[l + i * n + k] * b3[x + k * r + c];
        }
        b3[x + k * r + c] = b3[x + k * r + c] / b1[l + k * n + k];
        k = k + 1u;
      } else {
        let p = u32(-piv - 1);
        let k1 = k + 1u;
        let t = b3[x + k1 * r + c]; b3[x + k1 * r + c] = b3[x + p * r + c];
        b3[x + p * r + c] = t;
        for (var i = k + 2u; i < n; i = i + 1u) {
          b3[x + i * r + c] = b3[x + i * r + c] - (b1[l + i * n + k] * b3[x + k * r + c]
                                                   + b1[l + i * n + k1] * b3[x + k1 * r + c]);
        }
        let d21 = b1[l + k1 * n + k];
        let d11 = b1[l + k * n + k] / d21; let d22 = b1[l + k1 * n + k1] / d21;
        let denom = d11 * d22 - 1.0;
        let bk = b3[x + k * r + c] / d21; let bk1 = b3[x + k1 * r + c] / d21;
        b3[x + k * r + c] = (d22 * bk - bk1) / denom;
        b3[x + k1 * r + c] = (d11 * bk1 - bk) / denom;
        k = k + 2u;
      }
    }
    var j = i32(n) - 1;
    loop {  // L^T X = Y, undoing the interchanges
      if (j < 0) { break; }
      let k = u32(j);
      let piv = b2[mat * n + k];
      var acc = 0.0;
      for (var i = k + 1u; i < n; i = i + 1u) { acc = acc + b1[l + i * n + k] * b3[x + i * r + c]; }
      b3[x + k * r + c] = b3[x + k * r + c] - acc;
      if (piv < 0) {
        var acc1 = 0.0;
        for (var i = k + 1u; i < n; i = i + 1u) {
          acc1 = acc1 + b1[l + i * n + k - 1u] * b3[x + i * r + c];
        }
        b3[x + (k - 1u) * r + c] = b3[x + (k - 1u) * r + c] - acc1;
      }
      let p = u32(select(piv - 1, -piv - 1, piv < 0));
      let t = b3[x + k * r + c]; b3[x + k * r + c] = b3[x + p * r + c]; b3[x + p * r + c] = t;
      j = j - select(1, 2, piv < 0);
    }
  }
"""


def linalg_ldl_solve(ld: Tensor, pivots: Tensor, b: Tensor, hermitian: bool = False
                     ) -> Tensor:
    op = "torch.linalg.ldl_solve"
    check_same_dtype(op, ld, b)
    _, batch = check_solve(op, ld, b, True, vectors=False)
    if ld.dtype is not D.float32:
        return cpu_path("linalg_ldl_solve", ld, pivots, b, hermitian)
    _check_order(op, *ld._shape[-2:], *b._shape[-2:])
    n = ld._shape[-1]
    x = _fresh(b.expand(*batch, *b._shape[-2:]))
    _per_matrix(_SYTRS, _count(x._shape),
                [(_fresh(ld.expand(*batch, n, n)), False),
                 (_fresh(pivots.expand(*batch, n), D.int32), False), (x, True)],
                [n, x._shape[-1]])
    return x


# ---------------------------------------------------------------- Jacobi: eigh and SVD

_ROTATION_SHARED = """
var<workgroup> rotation: vec2<f32>;
var<workgroup> rotated: u32;
// one-sided Jacobi leaves columns alone whose cosine is below this (float32 precision)
const ORTHOGONAL: f32 = 1.0e-6;
// (c, s) of the Jacobi rotation that zeroes the off-diagonal entry of [[app, apq], [apq, aqq]]
fn jacobi_rotation(app: f32, aqq: f32, apq: f32) -> vec2<f32> {
  let theta = (aqq - app) / (2.0 * apq);
  let t = select(-1.0, 1.0, theta >= 0.0) / (abs(theta) + sqrt(theta * theta + 1.0));
  let c = 1.0 / sqrt(t * t + 1.0);
  return vec2<f32>(c, t * c);
}
// whether apq is negligible next to the diagonal entries (then it is set to zero)
fn negligible(app: f32, aqq: f32, apq: f32) -> bool {
  return abs(apq) <= ORTHOGONAL * 0.1 * sqrt(abs(app * aqq)) || abs(apq) < 1.0e-30;
}
"""

# b1: the symmetric matrix (n x n, reduced to diagonal), b2: V (n x n, from I), b3: eigenvalues
_SYEV = """
  let n = pu(1u); let a = mat * n * n;
  for (var t = lid; t < n * n; t = t + WG) { b2[a + t] = select(0.0, 1.0, t / n == t % n); }
  sync();
  for (var sweep = 0u; sweep < pu(2u); sweep = sweep + 1u) {
    if (lid == 0u) { rotated = 0u; }
    for (var p = 0u; p + 1u < n; p = p + 1u) {
      for (var q = p + 1u; q < n; q = q + 1u) {
        if (lid == 0u) {  // the 2x2 block rotated to diagonal (Numerical Recipes' jacobi)
          let app = b1[a + p * n + p]; let aqq = b1[a + q * n + q]; let apq = b1[a + p * n + q];
          var cs = vec2<f32>(1.0, 0.0);
          if (!negligible(app, aqq, apq)) {
            cs = jacobi_rotation(app, aqq, apq); rotated = 1u;
            let t = cs.y / cs.x;
            b1[a + p * n + p] = app - t * apq; b1[a + q * n + q] = aqq + t * apq;
          }
          b1[a + p * n + q] = 0.0; b1[a + q * n + p] = 0.0;
          rotation = cs;
        }
        sync();
        let c = rotation.x; let s = rotation.y;
        if (s != 0.0) {  // J^T A J outside the block (rows and columns p, q, kept symmetric); V J
          for (var k = lid; k < n; k = k + WG) {
            if (k != p && k != q) {
              let kp = b1[a + k * n + p]; let kq = b1[a + k * n + q];
              let new_p = c * kp - s * kq; let new_q = s * kp + c * kq;
              b1[a + k * n + p] = new_p; b1[a + p * n + k] = new_p;
              b1[a + k * n + q] = new_q; b1[a + q * n + k] = new_q;
            }
            let vp = b2[a + k * n + p]; let vq = b2[a + k * n + q];
            b2[a + k * n + p] = c * vp - s * vq; b2[a + k * n + q] = s * vp + c * vq;
          }
        }
        sync();
      }
    }
    if (workgroupUniformLoad(&rotated) == 0u) { break; }
  }
  if (lid == 0u) {  // ascending eigenvalues, their vectors moved along (selection sort)
    for (var i = 0u; i < n; i = i + 1u) { b3[mat * n + i] = b1[a + i * n + i]; }
    for (var i = 0u; i < n; i = i + 1u) {
      var best = i;
      for (var j = i + 1u; j < n; j = j + 1u) {
        if (b3[mat * n + j] < b3[mat * n + best]) { best = j; }
      }
      if (best != i) {
        let w = b3[mat * n + i]; b3[mat * n + i] = b3[mat * n + best]; b3[mat * n + best] = w;
        for (var k = 0u; k < n; k = k + 1u) {
          let v = b2[a + k * n + i]; b2[a + k * n + i] = b2[a + k * n + best];
          b2[a + k * n + best] = v;
        }
      }
    }
  }
"""


def linalg_eigh(a: Tensor, uplo: str = "L", compute_v: bool = True) -> tuple:
    if uplo not in ("L", "U"):
        raise InvalidArgumentError(f"Expected UPLO argument to be 'L' or 'U', but got {uplo}")
    if not _on_device("linalg.eigh", a):
        return cpu_path("_linalg_eigh", a, uplo, compute_v)
    n = a._shape[-1]
    # the matrix is the named triangle mirrored
    triangle, strict = (a.tril(), a.tril(-1)) if uplo == "L" else (a.triu(), a.triu(1))
    work = _fresh(triangle + strict.transpose(-2, -1))
    vectors = empty(tuple(a._shape), a.dtype, a._device)
    values = empty(tuple(a._shape[:-1]), a.dtype, a._device)
    _per_matrix(_SYEV, _count(a._shape), [(work, True), (vectors, True), (values, True)],
                [n, MAX_SWEEPS], _ROTATION_SHARED)
    if not compute_v:
        return values, empty((0,), a.dtype, a._device)
    return values, vectors


# b1: U (m x cols, m >= n; its first n columns start as A's and are rotated until orthogonal),
# b2: V (n x n, from I), b3: the singular values (column norms), descending
_GESVJ = """
  let m = pu(1u); let n = pu(2u); let cols = pu(3u);
  let u = mat * m * cols; let v = mat * n * n; let sv = mat * n;
  for (var t = lid; t < n * n; t = t + WG) { b2[v + t] = select(0.0, 1.0, t / n == t % n); }
  sync();
  for (var sweep = 0u; sweep < pu(4u); sweep = sweep + 1u) {
    if (lid == 0u) { rotated = 0u; }
    for (var p = 0u; p + 1u < n; p = p + 1u) {
      for (var q = p + 1u; q < n; q = q + 1u) {
        if (lid == 0u) {
          var alpha = 0.0; var beta = 0.0; var gamma = 0.0;
          for (var k = 0u; k < m; k = k + 1u) {
            let kp = b1[u + k * cols + p]; let kq = b1[u + k * cols + q];
            alpha = alpha + kp * kp; beta = beta + kq * kq; gamma = gamma + kp * kq;
          }
          var cs = vec2<f32>(1.0, 0.0);
          // columns orthogonal to float32 precision are left alone
          if (abs(gamma) > ORTHOGONAL * sqrt(alpha * beta)) {
            cs = jacobi_rotation(alpha, beta, gamma); rotated = 1u;
          }
          rotation = cs;
        }
        sync();
        let c = rotation.x; let s = rotation.y;
        if (s != 0.0) {
          for (var k = lid; k < m; k = k + WG) {
            let kp = b1[u + k * cols + p]; let kq = b1[u + k * cols + q];
            b1[u + k * cols + p] = c * kp - s * kq; b1[u + k * cols + q] = s * kp + c * kq;
          }
          for (var k = lid; k < n; k = k + WG) {
            let kp = b2[v + k * n + p]; let kq = b2[v + k * n + q];
            b2[v + k * n + p] = c * kp - s * kq; b2[v + k * n + q] = s * kp + c * kq;
          }
        }
        sync();
      }
    }
    if (workgroupUniformLoad(&rotated) == 0u) { break; }
  }
  if (lid == 0u) {
    for (var j = 0u; j < n; j = j + 1u) {
      var norm2 = 0.0;
      for (var k = 0u; k < m; k = k + 1u) {
        let x = b1[u + k * cols + j]; norm2 = norm2 + x * x;
      }
      b3[sv + j] = sqrt(norm2);
    }
    for (var i = 0u; i < n; i = i + 1u) {  // descending, U's and V's columns moved along
      var best = i;
      for (var j = i + 1u; j < n; j = j + 1u) { if (b3[sv + j] > b3[sv + best]) { best = j; } }
      if (best != i) {
        let w = b3[sv + i]; b3[sv + i] = b3[sv + best]; b3[sv + best] = w;
        for (var k = 0u; k < m; k = k + 1u) {
          let x = b1[u + k * cols + i]; b1[u + k * cols + i] = b1[u + k * cols + best];
          b1[u + k * cols + best] = x;
        }
        for (var k = 0u; k < n; k = k + 1u) {
          let x = b2[v + k * n + i]; b2[v + k * n + i] = b2[v + k * n + best];
          b2[v + k * n + best] = x;
        }
      }
    }
    // columns of singular values below the numerical rank carry no direction: those, and the
    // columns past n of a full U, are completed to an orthonormal basis by Gram-Schmidt on e_i
    var rank = 0u;
    let cutoff = select(0.0, b3[sv] * f32(m) * 1.2e-7, n > 0u);
    for (var j = 0u; j < n; j = j + 1u) {
      if (b3[sv + j] > cutoff) {
        rank = j + 1u;
        for (var k = 0u; k < m; k = k + 1u) {
          b1[u + k * cols + j] = b1[u + k * cols + j] / b3[sv + j];
        }
      }
    }
    for (var j = rank; j < cols; j = j + 1u) {
      for (var e = 0u; e < m; e = e + 1u) {
        for (var k = 0u; k < m; k = k + 1u) { b1[u + k * cols + j] = select(0.0, 1.0, k == e); }
        for (var round = 0u; round < 2u; round = round + 1u) {  // twice: orthogonal to precision
          for (var i = 0u; i < j; i = i + 1u) {
            var d = 0.0;
            for (var k = 0u; k < m; k = k + 1u) {
              d = d + b1[u + k * cols + i] * b1[u + k * cols + j];
            }
            for (var k = 0u; k < m; k = k + 1u) {
              b1[u + k * cols + j] = b1[u + k * cols + j] - d * b1[u + k * cols + i];
            }
          }
        }
        var norm2 = 0.0;
        for (var k = 0u; k < m; k = k + 1u) {
          let x = b1[u + k * cols + j]; norm2 = norm2 + x * x;
        }
        if (norm2 > 0.25) {
          for (var k = 0u; k < m; k = k + 1u) {
            b1[u + k * cols + j] = b1[u + k * cols + j] / sqrt(norm2);
          }
          break;
        }
      }
    }
  }
"""


def linalg_svd(a: Tensor, full_matrices: bool = False, compute_uv: bool = True) -> tuple:
    if not _on_device("linalg.svd", a, square=False):
        return cpu_path("_linalg_svd", a, full_matrices, compute_uv)
    *batch, rows, columns = a._shape
    tall = rows >= columns
    x = a if tall else a.transpose(-2, -1)  # A^T = W S V^T  <=>  A = V S W^T
    m, n = x._shape[-2:]
    cols = m if full_matrices and compute_uv else n
    work = empty((*batch, m, cols), a.dtype, a._device).fill_(0)
    copy_into(work.narrow(-1, 0, n), x)
    v = empty((*batch, n, n), a.dtype, a._device)
    s = empty((*batch, n), a.dtype, a._device)
    _per_matrix(_GESVJ, _count(a._shape), [(work, True), (v, True), (s, True)],
                [m, n, cols, MAX_SWEEPS], _ROTATION_SHARED)
    if not compute_uv:
        nothing = empty((0,), a.dtype, a._device)
        return nothing, s, empty((0,), a.dtype, a._device)
    if tall:
        return work, s, v.transpose(-2, -1).contiguous()
    return v, s, work.transpose(-2, -1).contiguous()


KERNELS = {"linalg_lu_factor_ex": linalg_lu_factor_ex, "_lu_permutation": lu_permutation,
           "linalg_inv_ex": linalg_inv_ex, "linalg_solve_ex": linalg_solve_ex,
           "linalg_solve_triangular": linalg_solve_triangular, "linalg_det": linalg_det,
           "linalg_slogdet": linalg_slogdet, "linalg_cholesky_ex": linalg_cholesky_ex,
           "geqrf": geqrf, "linalg_qr": linalg_qr, "_linalg_eigh": linalg_eigh,
           "_linalg_svd": linalg_svd, "linalg_ldl_factor_ex": linalg_ldl_factor_ex,
           "linalg_ldl_solve": linalg_ldl_solve}
