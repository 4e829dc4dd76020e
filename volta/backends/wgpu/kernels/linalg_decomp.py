"""Matrix decompositions and solvers on the device: LU with partial pivoting (and det, slogdet,
inv, solve on it), triangular solves, Cholesky, Householder QR, LDL^T with Bunch-Kaufman
pivoting, symmetric eigendecomposition (cyclic Jacobi) and SVD (one-sided Jacobi).

One workgroup per matrix of the batch (or per chunk of its columns, for the solves): its threads
share the row or column loops of each step and meet at a barrier between steps; pivot searches
and rotation angles are computed by thread 0. float32 only (float64 runs through the CPU
fallback, where it is switched on). Inputs are copied into fresh contiguous work buffers, which
the kernels factor in place.

Note [lavapipe loop budget]: lavapipe (llvmpipe) stops an invocation after 65,535 loop
iterations counted over all the loops it runs, not per loop. So the kernels run their steps
(columns of a factorisation, rows of a substitution, Jacobi rotations) in ranges, one dispatch
per range, sized on the host so that no thread exceeds ``BUDGET`` iterations; everything a later
range needs (the matrix, pivots, convergence flags) lives in buffers. Matrices larger than
``MAX_ORDER`` (a single step would exceed the budget) raise a ShapeError.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from volta import dtypes as D
from volta.backends.wgpu import runtime
from volta.backends.wgpu.kernels.copy import copy_into
from volta.backends.wgpu.kernels.indexing import out_of_range
from volta.backends.wgpu.kernels.linalg import cpu_path
from volta.backends.wgpu.kernels.sort import sort
from volta.backends.wgpu.storage import STORED, empty, handle_of, runtime_of
from volta.composites.linalg import (
    check_floating,
    check_info,
    check_lu_pivots,
    check_matrix,
    check_same_dtype,
    check_solve,
    check_solve_triangular,
)
from volta.errors import InvalidArgumentError, ShapeError
from volta.tensor import factories as fac
from volta.tensor.tensor import Tensor

THREADS = 64
BUDGET = 60_000  # loop iterations per invocation and dispatch, under lavapipe's 65,535
MAX_ORDER = 1024  # the largest step of every kernel here stays within BUDGET
# Jacobi sweeps before giving up on convergence (float32 converges in well under ten)
MAX_SWEEPS = 20

_SOURCES: dict[tuple, str] = {}


def _source(body: str, bindings: Sequence[tuple[str, bool]], shared: str) -> str:
    """A kernel with one workgroup per (matrix, chunk of ``pu(1u)``): ``mat`` is the matrix's
    index in the batch, ``chunk`` the chunk, ``lid`` the thread; ``pu(2u)``..``pu(3u)`` is the
    range of steps this dispatch runs, the kernel's own scalars start at ``pu(4u)``. ``sync()``
    is a barrier for storage and workgroup memory."""
    key = (body, tuple(bindings), shared)
    if key not in _SOURCES:
        decls = "\n".join(
            f"@group(0) @binding({i + 1}) var<storage, {'read_write' if w else 'read'}> "
            f"b{i + 1}: array<{ty}>;" for i, (ty, w) in enumerate(bindings))
        _SOURCES[key] = (
            runtime.PARAMS_WGSL + decls + "\n" + f"const WG: u32 = {THREADS}u;\n" + shared +
            "\nfn sync() { storageBarrier(); workgroupBarrier(); }\n"
            f"@compute @workgroup_size({THREADS})\n"
            "fn main(@builtin(workgroup_id) wid: vec3<u32>,\n"
            "        @builtin(num_workgroups) nwg: vec3<u32>,\n"
            "        @builtin(local_invocation_index) lid: u32) {\n"
            "  let group = wid.x + wid.y * nwg.x;\n"
            "  if (group >= pu(0u)) { return; }\n"
            "  let mat = group / pu(1u); let chunk = group % pu(1u);\n"
            f"{body}\n}}\n")
    return _SOURCES[key]


def _per_thread(work: int) -> int:
    """Loop iterations of one thread when ``work`` items are shared by a workgroup."""
    return -(-max(work, 0) // THREADS) + 1


def _ranges(costs: Sequence[int], base: int = 0) -> list[tuple[int, int]]:
    """Consecutive ranges of steps whose costs (iterations per thread), plus ``base`` per
    dispatch, stay within BUDGET (Note [lavapipe loop budget])."""
    out: list[tuple[int, int]] = []
    first, total = 0, base
    for step, cost in enumerate(costs):
        if total + cost > BUDGET and step > first:
            out.append((first, step))
            first, total = step, base
        total += cost
    if first < len(costs):
        out.append((first, len(costs)))
    return out


def _uniform_ranges(steps: int, cost: int, base: int = 0) -> list[tuple[int, int]]:
    per_dispatch = max(1, (BUDGET - base) // cost)
    return [(first, min(first + per_dispatch, steps)) for first in range(0, steps, per_dispatch)]


def _run(body: str, count: int, tensors: Sequence[tuple[Tensor, bool]],
         scalars: Sequence[Any] = (), shared: str = "",
         steps: Sequence[tuple[int, int]] = ((0, 0),), chunks: int = 1) -> None:
    """Dispatch ``body`` once per range of ``steps``, with a workgroup for each of ``count``
    matrices times ``chunks``; ``tensors[k]`` (fresh: contiguous from offset 0, distinct
    storages) is bound as ``b{k+1}``."""
    groups = count * chunks
    if groups == 0:
        return
    binds = [(STORED[t.dtype][0], w) for t, w in tensors]
    rt = runtime_of(tensors[0][0])
    kernel = rt.kernel(_source(body, binds, shared), [w for _, w in binds])
    x = min(groups, runtime.MAX_GROUPS_X)
    handles = [handle_of(t) for t, _ in tensors]
    for first, end in steps:
        rt.dispatch(kernel, handles, runtime.pack([groups, chunks, first, end, *scalars]),
                    (x, -(-groups // x), 1))


def _fresh(t: Tensor, dtype: D.dtype | None = None) -> Tensor:
    """A contiguous copy from offset 0 (the kernels index their buffers from 0)."""
    dtype = dtype or t.dtype
    return copy_into(empty(tuple(t._shape), dtype, t._device), t.to(dtype))


def _zeros(shape: Sequence[int], like: Tensor, dtype: D.dtype | None = None) -> Tensor:
    return empty(tuple(shape), dtype or like.dtype, like._device).fill_(0)


def _eye(rows: int, cols: int, batch: Sequence[int], like: Tensor) -> Tensor:
    """A fresh batch of identity matrices (rows x cols)."""
    eye = fac.eye(rows, cols, dtype=like.dtype, device=like.device)
    return _fresh(eye.expand(*batch, rows, cols))


def _count(shape: Sequence[int]) -> int:
    out = 1
    for s in shape[:-2]:
        out *= s
    return out


def _check_order(op: str, *sizes: int, limit: int = MAX_ORDER) -> None:
    if max(sizes, default=0) > limit:
        raise ShapeError(f"{op}: matrices of up to {limit} rows and columns are supported on "
                         f"wgpu (lavapipe stops a shader invocation after 65,535 loop "
                         f"iterations), got {'x'.join(map(str, sizes))}")


def _on_device(op: str, a: Tensor, square: bool = True, limit: int = MAX_ORDER) -> bool:
    """PyTorch's checks; False for float64, which the kernels here do not compute."""
    check_floating(op, a)
    check_matrix(op, a, square)
    if a.dtype is not D.float32:
        return False
    _check_order(op, *a._shape[-2:], limit=limit)
    return True


def _check_info(op: str, info: Tensor) -> None:
    """The CPU backend's LinAlgError for the first failed matrix (one readback)."""
    check_info(op, info.reshape(-1).tolist(), info.ndim > 0)


def _where_ok(info: Tensor, x: Tensor, fill: float) -> Tensor:
    """``x`` (a batch of matrices) with the matrices whose info is not 0 replaced by ``fill``."""
    ok = (info == 0).reshape(*info._shape, 1, 1)
    return x.where(ok, empty((), x.dtype, x._device).fill_(fill)).contiguous()


_TAKE_COLUMNS = """
  let rows = pu(4u); let n_in = pu(5u); let n_out = pu(6u);
  let c = chunk * WG + lid;
  if (c < n_out) {
    let picked = u32(b3[mat * n_out + c]);
    for (var r = 0u; r < rows; r = r + 1u) {
      b1[(mat * rows + r) * n_out + c] = b2[(mat * rows + r) * n_in + picked];
    }
  }
"""


def _take_columns(src: Tensor, order: Tensor) -> Tensor:
    """``out[..., r, c] = src[..., r, order[..., c]]`` (``src`` fresh, ``order`` int64)."""
    *batch, rows, n_in = src._shape
    n_out = order._shape[-1]
    out = empty((*batch, rows, n_out), src.dtype, src._device)
    _run(_TAKE_COLUMNS, _count(src._shape), [(out, True), (src, False),
                                              (_fresh(order), False)],
         [rows, n_in, n_out], chunks=-(-n_out // THREADS))
    return out


# ---------------------------------------------------------------- LU

# steps: the columns j of getrf
_GETRF = """
  let m = pu(4u); let n = pu(5u); let k = min(m, n);
  let base = mat * m * n;
  if (lid == 0u && pu(2u) == 0u) { b3[mat] = 0; }
  for (var j = pu(2u); j < pu(3u); j = j + 1u) {
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
    k = min(m, n)
    lu = _fresh(a)
    pivots = empty((*batch, k), D.int32, a._device)
    info = _zeros(batch, a, D.int32)
    costs = [(m - j) + _per_thread(n) + _per_thread(m) + _per_thread((m - j - 1) * (n - j - 1))
             + 2 for j in range(k)]
    _run(_GETRF, _count(a._shape), [(lu, True), (pivots, True), (info, True)], [m, n],
         "var<workgroup> pivot_row: u32;", _ranges(costs))
    return lu, pivots, info


def linalg_lu_factor_ex(a: Tensor, pivot: bool = True, check_errors: bool = False) -> tuple:
    op = "linalg.lu_factor"
    if not pivot:
        raise InvalidArgumentError(f"{op}: LU without pivoting is not implemented on wgpu")
    if not _on_device(op, a, square=False):
        return cpu_path("linalg_lu_factor_ex", a, pivot, check_errors)
    lu, pivots, info = _lu(a)
    if check_errors:
        _check_info("lu_factor", info)
    return lu, pivots, info


_PERMUTATION = """
  let m = pu(4u); let k = pu(5u);
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
    bounds = out_of_range(pivots, 1, m + 1)  # one read, none for uploaded pivots
    if bounds is not None:
        check_lu_pivots(m, *bounds)
    out = empty((*batch, m, m), dtype, pivots._device)
    order = empty((*batch, m), D.int32, pivots._device)
    _run(_PERMUTATION, _count((*batch, 0, 0)),
         [(out, True), (order, True), (_fresh(pivots, D.int32), False)], [m, k])
    return out


# ---------------------------------------------------------------- solves on the LU factors

# a thread per right-hand side; steps s < n: row s of L y = P^T b (the swaps of rows s and
# pivot s applied on the way: later swaps never touch rows above them); s >= n: row 2n-1-s of
# U x = y
_GETRS = """
  let n = pu(4u); let r = pu(5u);
  let lu = mat * n * n; let x = mat * n * r;
  let c = chunk * WG + lid;
  if (c < r) {
    for (var s = pu(2u); s < pu(3u); s = s + 1u) {
      if (s < n) {
        let i = s;
        let p = u32(b2[mat * n + i] - 1);
        let t = b3[x + i * r + c]; b3[x + i * r + c] = b3[x + p * r + c]; b3[x + p * r + c] = t;
        var acc = b3[x + i * r + c];
        for (var j = 0u; j < i; j = j + 1u) { acc = acc - b1[lu + i * n + j] * b3[x + j * r + c]; }
        b3[x + i * r + c] = acc;
      } else {
        let i = 2u * n - 1u - s;
        var acc = b3[x + i * r + c];
        for (var j = i + 1u; j < n; j = j + 1u) {
          acc = acc - b1[lu + i * n + j] * b3[x + j * r + c];
        }
        b3[x + i * r + c] = acc / b1[lu + i * n + i];
      }
    }
  }
"""


def _lu_solve(lu: Tensor, pivots: Tensor, info: Tensor, rhs: Tensor) -> Tensor:
    """X with A X = rhs from A's LU (all with the same batch shape); NaN where info != 0 (LAPACK
    gives no solution there, and the CPU backend NaN)."""
    x = _fresh(rhs)
    n, r = lu._shape[-1], rhs._shape[-1]
    costs = [2 + (s if s < n else s - n) for s in range(2 * n)]
    _run(_GETRS, _count(lu._shape), [(lu, False), (pivots, False), (x, True)], [n, r],
         steps=_ranges(costs), chunks=-(-r // THREADS))
    return _where_ok(info, x, float("nan"))


def linalg_inv_ex(a: Tensor, check_errors: bool = False) -> tuple:
    op = "linalg.inv"
    if not _on_device(op, a):
        return cpu_path("linalg_inv_ex", a, check_errors)
    lu, pivots, info = _lu(a)
    if check_errors:
        _check_info("inv", info)
    n = a._shape[-1]
    return _lu_solve(lu, pivots, info, _eye(n, n, a._shape[:-2], a)), info


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
    lu, pivots, info = _lu(arr)
    if check_errors:
        _check_info("solve", info)
    x = _lu_solve(lu, pivots, info, rhs)
    if not left:
        x = x.transpose(-2, -1)
    return (x.squeeze(-1) if vector else x), info


# a thread per right-hand side; step s: row s of the substitution (from the bottom for upper)
_TRSM = """
  let n = pu(4u); let r = pu(5u); let upper = pu(6u) == 1u; let unit = pu(7u) == 1u;
  let a = mat * n * n; let x = mat * n * r;
  let c = chunk * WG + lid;
  if (c < r) {
    for (var s = pu(2u); s < pu(3u); s = s + 1u) {
      let i = select(s, n - 1u - s, upper);
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
    check_solve_triangular(op, a, b)
    _, batch = check_solve(op, a, b, left, vectors=False)
    if a.dtype is not D.float32:
        return cpu_path("linalg_solve_triangular", a, b, upper, left, unitriangular)
    _check_order(op, *a._shape[-2:])
    n = a._shape[-1]
    arr = a.expand(*batch, n, n)
    rhs = b.expand(*batch, *b._shape[-2:])
    if not left:  # X A = B  <=>  A^T X^T = B^T, and A^T has the other triangle
        arr, rhs, upper = arr.transpose(-2, -1), rhs.transpose(-2, -1), not upper
    x = _fresh(rhs)
    r = rhs._shape[-1]
    _run(_TRSM, _count(arr._shape), [(_fresh(arr), False), (x, True)],
         [n, r, int(upper), int(unitriangular)], steps=_ranges([n + 2] * n),
         chunks=-(-r // THREADS))
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

# steps: the columns j of a right-looking Cholesky of the lower triangle
_POTRF = """
  let n = pu(4u); let base = mat * n * n;
  for (var j = pu(2u); j < pu(3u); j = j + 1u) {
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
"""


def linalg_cholesky_ex(a: Tensor, upper: bool = False, check_errors: bool = False) -> tuple:
    op = "linalg.cholesky"
    if not _on_device(op, a):
        return cpu_path("linalg_cholesky_ex", a, upper, check_errors)
    n = a._shape[-1]
    work = _fresh(a)
    info = _zeros(a._shape[:-2], a, D.int32)
    costs = [_per_thread(n - j) + _per_thread((n - j - 1) ** 2) + 2 for j in range(n)]
    _run(_POTRF, _count(a._shape), [(work, True), (info, True)], [n], steps=_ranges(costs))
    if check_errors:
        _check_info("cholesky", info)
    # the factor is the lower triangle; a failed matrix is all zeros, as the CPU backend's
    factor = _where_ok(info, work.tril(), 0.0)
    return (factor.transpose(-2, -1).contiguous() if upper else factor), info


# ---------------------------------------------------------------- Householder QR

# steps: the columns j; thread 0 builds the reflector (LAPACK's slarfg), the threads apply it
# to the trailing columns, one column each
_GEQRF = """
  let m = pu(4u); let n = pu(5u); let k = min(m, n);
  let base = mat * m * n;
  for (var j = pu(2u); j < pu(3u); j = j + 1u) {
    if (lid == 0u) {  // H = I - tau v v^T maps column j below the diagonal to zero
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
    for (var c = j + 1u + lid; c < n; c = c + WG) {
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

# Q = H_0 H_1 ... H_{k-1} applied to the first columns of I (b3, from the host): a thread per
# column of Q; steps: the reflectors, last first
_ORGQR = """
  let m = pu(4u); let n = pu(5u); let cols = pu(6u); let k = min(m, n);
  let h = mat * m * n; let q = mat * m * cols;
  let c = chunk * WG + lid;
  if (c < cols) {
    for (var jj = pu(2u); jj < pu(3u); jj = jj + 1u) {
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
    costs = [2 * (m - j) + _per_thread(n - j - 1) * (2 * (m - j) + 1) + 2
             for j in range(min(m, n))]
    _run(_GEQRF, _count(a._shape), [(h, True), (tau, True)], [m, n],
         "var<workgroup> reflector_tau: f32;", _ranges(costs))
    return h, tau


def _orgqr(h: Tensor, tau: Tensor, cols: int) -> Tensor:
    """The first ``cols`` columns of Q from geqrf's reflectors."""
    *batch, m, n = h._shape
    k = min(m, n)
    q = _eye(m, cols, batch, h)
    _run(_ORGQR, _count(h._shape), [(h, False), (tau, False), (q, True)], [m, n, cols],
         steps=_ranges([2 * m + 2] * k), chunks=-(-cols // THREADS))
    return q


def geqrf(a: Tensor) -> tuple:
    if not _on_device("geqrf", a, square=False):
        return cpu_path("geqrf", a)
    return _geqrf(a)


def _qr(a: Tensor, mode: str) -> tuple[Tensor, Tensor]:
    m, n = a._shape[-2:]
    h, tau = _geqrf(a)
    rows = m if mode == "complete" else min(m, n)
    r = h.narrow(-2, 0, rows).triu().contiguous()
    if mode == "r":
        return empty((0,), a.dtype, a._device), r
    return _orgqr(h, tau, rows), r


def linalg_qr(a: Tensor, mode: str = "reduced") -> tuple:
    if mode not in ("reduced", "complete", "r"):
        raise InvalidArgumentError(f"qr received unrecognized mode '{mode}' but expected one "
                                   "of 'reduced' (default), 'r', or 'complete'")
    if not _on_device("linalg.qr", a, square=False):
        return cpu_path("linalg_qr", a, mode)
    return _qr(a, mode)


# ---------------------------------------------------------------- LDL^T (Bunch-Kaufman)

# LAPACK's unblocked sytf2 (UPLO='L'), as the CPU backend computes it: b1 the lower triangle
# (n x n), b2 the 1-based pivots (negative for 2x2 blocks), b3 info, b4 the next column (kept
# between dispatches: a 2x2 block may end a range one column late). Thread 0 chooses the pivot
# and interchanges; the threads share the trailing update, then the scaling of the column(s).
_SYTF2 = """
  n = pu(4u); base = mat * n * n;  // the private variables A(), put() and exchange() read
  if (lid == 0u) { next_column = u32(b4[mat]); }
  loop {
    let k = workgroupUniformLoad(&next_column);
    if (k >= pu(3u)) { break; }
    if (lid == 0u) {
      var step = 1u;
      let absakk = abs(A(k, k));
      var imax = k; var colmax = 0.0;
      for (var i = k + 1u; i < n; i = i + 1u) {
        if (i == k + 1u || abs(A(i, k)) > colmax) { colmax = abs(A(i, k)); imax = i; }
      }
      var kp = k;
      if (max(absakk, colmax) == 0.0 || absakk != absakk) {
        if (b3[mat] == 0) { b3[mat] = i32(k + 1u); }
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
      block_kind = 0u;
      if (step == 1u && k + 1u < n && A(k, k) != 0.0) {
        block_kind = 1u; block = vec3<f32>(A(k, k), 0.0, 0.0);
      } else if (step == 2u && k + 2u < n) {
        let d21 = A(k + 1u, k);
        let d11 = A(k + 1u, k + 1u) / d21; let d22 = A(k, k) / d21;
        block_kind = 2u; block = vec3<f32>(d11, d22, 1.0 / (d11 * d22 - 1.0) / d21);
      }
      if (step == 1u) {
        b2[mat * n + k] = i32(kp + 1u);
      } else {
        b2[mat * n + k] = -i32(kp + 1u); b2[mat * n + k + 1u] = -i32(kp + 1u);
      }
      block_step = step;
    }
    sync();
    let kind = block_kind; let d = block;
    let first = k + block_step;  // the trailing block starts here
    let rows = n - first;
    if (kind != 0u) {
      for (var t = lid; t < rows * rows; t = t + WG) {
        let i = first + t / rows; let j = first + t % rows;
        if (j <= i) {
          if (kind == 1u) {
            put(i, j, A(i, j) - A(i, k) * A(j, k) / d.x);
          } else {
            let wk = d.z * (d.x * A(j, k) - A(j, k + 1u));
            let wkp1 = d.z * (d.y * A(j, k + 1u) - A(j, k));
            put(i, j, A(i, j) - (A(i, k) * wk + A(i, k + 1u) * wkp1));
          }
        }
      }
    }
    sync();
    for (var i = first + lid; i < n; i = i + WG) {
      if (kind == 1u) {
        put(i, k, A(i, k) / d.x);
      } else if (kind == 2u) {
        let ak = A(i, k); let ak1 = A(i, k + 1u);
        put(i, k, d.z * (d.x * ak - ak1)); put(i, k + 1u, d.z * (d.y * ak1 - ak));
      }
    }
    sync();
    if (lid == 0u) { next_column = first; b4[mat] = i32(first); }
  }
"""

# element access of the matrix being factored (base and n are set once per workgroup)
_SYTF2_SHARED = f"""
const ALPHA: f32 = {(1 + 17 ** 0.5) / 8!r};  // Bunch-Kaufman's (1 + sqrt(17)) / 8
var<private> base: u32;
var<private> n: u32;
var<workgroup> next_column: u32;
var<workgroup> block_kind: u32;  // 0: no update, 1: a 1x1 pivot d.x, 2: a 2x2 (d11, d22, scale)
var<workgroup> block_step: u32;
var<workgroup> block: vec3<f32>;
fn A(i: u32, j: u32) -> f32 {{ return b1[base + i * n + j]; }}
fn put(i: u32, j: u32, v: f32) {{ b1[base + i * n + j] = v; }}
fn exchange(i: u32, j: u32, k: u32, l: u32) {{
  let t = A(i, j); put(i, j, A(k, l)); put(k, l, t);
}}
"""


def linalg_ldl_factor_ex(a: Tensor, hermitian: bool = False, check_errors: bool = False
                         ) -> tuple:
    op = "torch.linalg.ldl_factor_ex"
    if not _on_device(op, a, limit=MAX_ORDER):
        return cpu_path("linalg_ldl_factor_ex", a, hermitian, check_errors)
    *batch, n, _ = a._shape
    ld = _fresh(a.tril())
    pivots = empty((*batch, n), D.int32, a._device)
    info = _zeros(batch, a, D.int32)
    next_column = _zeros(batch, a, D.int32)
    costs = [4 * n + _per_thread((n - k) ** 2) + _per_thread(n - k) + 4 for k in range(n)]
    # a range may run one step past its end (a 2x2 pivot): keep a step's cost in reserve
    _run(_SYTF2, _count(a._shape), [(ld, True), (pivots, True), (info, True),
                                    (next_column, True)], [n], _SYTF2_SHARED,
         _ranges(costs, base=max(costs, default=0)))
    if check_errors:
        _check_info("ldl_factor", info)
    return ld, pivots, info


# LAPACK's sytrs (UPLO='L') from sytf2's factors: b1 LD, b2 pivots, b3 B -> X, a thread per
# column; b4 holds each column's next step s, kept between dispatches: s < n is column s of
# L D Y = P^T B, s >= n column 2n - 1 - s of L^T X = Y (a 2x2 pivot takes two at once)
_SYTRS = """
  let n = pu(4u); let r = pu(5u); let l = mat * n * n; let x = mat * n * r;
  let c = chunk * WG + lid;
  if (c < r) {
    var s = u32(b4[mat * r + c]);
    loop {
      if (s >= pu(3u)) { break; }
      if (s < n) {
        let k = s;
        let piv = b2[mat * n + k];
        if (piv > 0) {
          let p = u32(piv - 1);
          let t = b3[x + k * r + c]; b3[x + k * r + c] = b3[x + p * r + c];
          b3[x + p * r + c] = t;
          for (var i = k + 1u; i < n; i = i + 1u) {
            b3[x + i * r + c] = b3[x + i * r + c] - b1[l + i * n + k] * b3[x + k * r + c];
          }
          b3[x + k * r + c] = b3[x + k * r + c] / b1[l + k * n + k];
          s = s + 1u;
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
          s = s + 2u;
        }
      } else {
        let k = 2u * n - 1u - s;
        let piv = b2[mat * n + k];
        var acc = 0.0;
        for (var i = k + 1u; i < n; i = i + 1u) {
          acc = acc + b1[l + i * n + k] * b3[x + i * r + c];
        }
        b3[x + k * r + c] = b3[x + k * r + c] - acc;
        if (piv < 0) {
          var acc1 = 0.0;
          for (var i = k + 1u; i < n; i = i + 1u) {
            acc1 = acc1 + b1[l + i * n + k - 1u] * b3[x + i * r + c];
          }
          b3[x + (k - 1u) * r + c] = b3[x + (k - 1u) * r + c] - acc1;
        }
        let p = u32(select(piv - 1, -piv - 1, piv < 0));
        let t = b3[x + k * r + c]; b3[x + k * r + c] = b3[x + p * r + c];
        b3[x + p * r + c] = t;
        s = s + select(1u, 2u, piv < 0);
      }
    }
    b4[mat * r + c] = i32(s);
  }
"""


def linalg_ldl_solve(ld: Tensor, pivots: Tensor, b: Tensor, hermitian: bool = False
                     ) -> Tensor:
    op = "torch.linalg.ldl_solve"
    check_same_dtype(op, ld, b)
    _, batch = check_solve(op, ld, b, True, vectors=False)
    if ld.dtype is not D.float32:
        return cpu_path("linalg_ldl_solve", ld, pivots, b, hermitian)
    _check_order(op, *ld._shape[-2:], limit=MAX_ORDER)
    n = ld._shape[-1]
    x = _fresh(b.expand(*batch, *b._shape[-2:]))
    r = x._shape[-1]
    costs = [2 * (n - (s if s < n else 2 * n - 1 - s)) + 4 for s in range(2 * n)]
    # a range may run one step past its end (a 2x2 pivot): keep a step's cost in reserve
    _run(_SYTRS, _count(x._shape),
         [(_fresh(ld.expand(*batch, n, n)), False),
          (_fresh(pivots.expand(*batch, n), D.int32), False), (x, True),
          (_zeros(x._shape[:-2] + (r,), x, D.int32), True)],
         [n, r], steps=_ranges(costs, base=max(costs, default=0)), chunks=-(-r // THREADS))
    return x


# ---------------------------------------------------------------- Jacobi: eigh and SVD

# Both sweep over the pairs (p, q), p < q, in order. A step is one pair; step t is pair
# t % (n (n - 1) / 2) of sweep t / (n (n - 1) / 2). b3 holds two flags per matrix, kept
# between dispatches: whether the current sweep rotated, and whether a sweep did not (done).
_JACOBI_SHARED = """
var<workgroup> rotation: vec2<f32>;
var<workgroup> done: u32;
// rotations are skipped below this cosine (one-sided) or relative size (two-sided)
const ORTHOGONAL: f32 = 1.0e-6;
// (c, s) of the Jacobi rotation that zeroes the off-diagonal entry of [[app, apq], [apq, aqq]]
fn jacobi_rotation(app: f32, aqq: f32, apq: f32) -> vec2<f32> {
  let theta = (aqq - app) / (2.0 * apq);
  let t = select(-1.0, 1.0, theta >= 0.0) / (abs(theta) + sqrt(theta * theta + 1.0));
  let c = 1.0 / sqrt(t * t + 1.0);
  return vec2<f32>(c, t * c);
}
"""

_JACOBI_START = """
  let pairs = n * (n - 1u) / 2u;
  if (lid == 0u) { done = u32(b3[2u * mat + 1u]); }
  var p = 0u; var rest = pu(2u) % pairs;  // the pair of the first step
  loop {
    if (rest < n - 1u - p) { break; }
    rest = rest - (n - 1u - p); p = p + 1u;
  }
  var q = p + 1u + rest;
  for (var t = pu(2u); t < pu(3u); t = t + 1u) {
    if (workgroupUniformLoad(&done) == 1u) { break; }
"""

_JACOBI_END = """
    if (lid == 0u && p + 2u == n && q + 1u == n && b3[2u * mat] == 0) {
      b3[2u * mat + 1u] = 1; done = 1u;  // a sweep without rotation: converged
    }
    q = q + 1u;
    if (q == n) { p = p + 1u; if (p + 1u == n) { p = 0u; } q = p + 1u; }
  }
"""

# b1: the symmetric matrix (n x n), reduced to diagonal; b2: V (from I); b3 the flags
_SYEV = "  let n = pu(4u); let a = mat * n * n;\n" + _JACOBI_START + """
    if (lid == 0u) {  // the 2x2 block rotated to diagonal (Numerical Recipes' jacobi)
      if (p == 0u && q == 1u) { b3[2u * mat] = 0; }
      let app = b1[a + p * n + p]; let aqq = b1[a + q * n + q]; let apq = b1[a + p * n + q];
      var cs = vec2<f32>(1.0, 0.0);
      if (abs(apq) > ORTHOGONAL * 0.1 * sqrt(abs(app * aqq)) && abs(apq) >= 1.0e-30) {
        cs = jacobi_rotation(app, aqq, apq); b3[2u * mat] = 1;
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
""" + _JACOBI_END

# b1: U (m x cols, m >= n; its first n columns start as A's and are rotated until orthogonal);
# b2: V (n x n, from I); b3 the flags. The dot products of columns p and q are summed
# by all threads and reduced in workgroup memory.
_GESVJ = "  let m = pu(4u); let n = pu(5u); let cols = pu(6u);\n" \
    "  let u = mat * m * cols; let v = mat * n * n;\n" + _JACOBI_START + """
    var acc = vec3<f32>(0.0, 0.0, 0.0);
    for (var k = lid; k < m; k = k + WG) {
      let kp = b1[u + k * cols + p]; let kq = b1[u + k * cols + q];
      acc = acc + vec3<f32>(kp * kp, kq * kq, kp * kq);
    }
    partial[lid] = acc;
    workgroupBarrier();
    for (var width = WG / 2u; width > 0u; width = width / 2u) {
      if (lid < width) { partial[lid] = partial[lid] + partial[lid + width]; }
      workgroupBarrier();
    }
    if (lid == 0u) {
      if (p == 0u && q == 1u) { b3[2u * mat] = 0; }
      let g = partial[0];
      var cs = vec2<f32>(1.0, 0.0);
      // columns orthogonal to float32 precision are left alone
      if (abs(g.z) > ORTHOGONAL * sqrt(g.x * g.y)) {
        cs = jacobi_rotation(g.x, g.y, g.z); b3[2u * mat] = 1;
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
""" + _JACOBI_END


def _jacobi(body: str, n: int, count: int, tensors: list[tuple[Tensor, bool]],
            scalars: list[int], step_cost: int, shared: str = "") -> None:
    """Up to MAX_SWEEPS sweeps of a Jacobi kernel over ``n`` columns, in dispatches within the
    loop budget; a converged matrix returns at once from the remaining ones."""
    pairs = n * (n - 1) // 2
    if pairs == 0:
        return
    flags = _zeros((count * 2,), tensors[0][0], D.int32)
    _run(body, count, [*tensors, (flags, True)], scalars, _JACOBI_SHARED + shared,
         _uniform_ranges(MAX_SWEEPS * pairs, step_cost, base=n + 4))


def linalg_eigh(a: Tensor, uplo: str = "L", compute_v: bool = True) -> tuple:
    if uplo not in ("L", "U"):
        raise InvalidArgumentError(f"Expected UPLO argument to be 'L' or 'U', but got {uplo}")
    if not _on_device("linalg.eigh", a):
        return cpu_path("_linalg_eigh", a, uplo, compute_v)
    *batch, n, _ = a._shape
    # the matrix is the named triangle mirrored
    triangle, strict = (a.tril(), a.tril(-1)) if uplo == "L" else (a.triu(), a.triu(1))
    work = _fresh(triangle + strict.transpose(-2, -1))
    vectors = _eye(n, n, batch, a)
    _jacobi(_SYEV, n, _count(a._shape), [(work, True), (vectors, True)],
            [n], _per_thread(n) + 3)
    values, order = sort(work.diagonal(0, -2, -1), -1)  # ascending, as LAPACK
    if not compute_v:
        return values, empty((0,), a.dtype, a._device)
    return values, _take_columns(vectors, order)


def linalg_svd(a: Tensor, full_matrices: bool = False, compute_uv: bool = True) -> tuple:
    if not _on_device("linalg.svd", a, square=False):
        return cpu_path("_linalg_svd", a, full_matrices, compute_uv)
    *batch, rows, columns = a._shape
    tall = rows >= columns
    x = a if tall else a.transpose(-2, -1)  # A^T = W S V^T  <=>  A = V S W^T
    m, n = x._shape[-2:]
    work = _fresh(x)
    v = _eye(n, n, batch, a)
    _jacobi(_GESVJ, n, _count(a._shape), [(work, True), (v, True)], [m, n, n],
            2 * _per_thread(m) + _per_thread(n) + 10,
            f"var<workgroup> partial: array<vec3<f32>, {THREADS}>;\n")
    # the singular values are the column norms, descending, their columns moved along
    s, order = sort((work * work).sum(-2).sqrt(), -1, descending=True)
    if not compute_uv:
        nothing = empty((0,), a.dtype, a._device)
        return nothing, s, empty((0,), a.dtype, a._device)
    u = _take_columns(work, order)
    v = _take_columns(v, order)
    # columns below the numerical rank carry no direction: those, and the columns past n of a
    # full U, come from a QR of the others (Q's first columns span them, the rest complete the
    # basis), chosen per matrix without reading anything back
    cols = m if full_matrices else n
    valid = s > s.narrow(-1, 0, min(n, 1)) * (m * 1.2e-7)
    keep = _zeros((*batch, cols), a, D.bool_)
    copy_into(keep.narrow(-1, 0, n), valid)
    basis = _zeros((*batch, m, cols), a)
    copy_into(basis.narrow(-1, 0, n), (u / s.where(valid, empty((), a.dtype, a._device)
                                                   .fill_(1.0)).unsqueeze(-2))
              .where(valid.unsqueeze(-2), empty((), a.dtype, a._device).fill_(0.0)))
    completion, _ = _qr(basis, "reduced")
    u = basis.where(keep.unsqueeze(-2), completion).contiguous()
    if tall:
        return u, s, v.transpose(-2, -1).contiguous()
    return v, s, u.transpose(-2, -1).contiguous()


KERNELS = {"linalg_lu_factor_ex": linalg_lu_factor_ex, "_lu_permutation": lu_permutation,
           "linalg_inv_ex": linalg_inv_ex, "linalg_solve_ex": linalg_solve_ex,
           "linalg_solve_triangular": linalg_solve_triangular, "linalg_det": linalg_det,
           "linalg_slogdet": linalg_slogdet, "linalg_cholesky_ex": linalg_cholesky_ex,
           "geqrf": geqrf, "linalg_qr": linalg_qr, "_linalg_eigh": linalg_eigh,
           "_linalg_svd": linalg_svd, "linalg_ldl_factor_ex": linalg_ldl_factor_ex,
           "linalg_ldl_solve": linalg_ldl_solve}
