"""Kernels along one dimension ("rows"): sort (and topk, median, unique on top of it),
cumsum/cumprod, searchsorted.

The dimension is moved last and made contiguous, so a row is a run of ``n`` elements. Sorting
is a rank sort: one thread per element counts the elements of its row that sort before it
(values, then positions, so it is stable; NaN sorts last ascending and first descending, as
PyTorch) and writes itself to that rank: O(n) work per thread, no synchronisation. A scan is
one thread per row. Shaders are cached per (kernel, dtypes).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from volta import dtypes as D
from volta.backends.wgpu import runtime
from volta.backends.wgpu.kernels.copy import copy_into
from volta.backends.wgpu.kernels.elementwise import load, shader, store
from volta.backends.wgpu.kernels.linalg import cpu_path
from volta.backends.wgpu.storage import STORED, empty, handle_of, runtime_of
from volta.composites.views import wrap_dim
from volta.errors import DTypeError, IndexOutOfRangeError, ShapeError
from volta.tensor.checks import check_searchsorted_sorter, searchsorted_side
from volta.tensor.tensor import Tensor


def run(body: str, threads: int, tensors: Sequence[tuple[Tensor, bool]],
        scalars: Sequence[Any] = (), helpers: str = "") -> None:
    """One thread per ``idx < threads`` running ``body``; ``tensors[k]`` (contiguous, distinct
    storages, read at element ``t._offset + i``) is bound as ``b{k+1}``, writable where the flag
    says; ``scalars`` are read with ``pu(1u)``, ``pi(2u)``, ``pf(...)``."""
    if threads == 0:
        return
    binds = [(STORED[t.dtype][0], w) for t, w in tensors]
    f16 = any(t.dtype is D.float16 for t, _ in tensors)
    src = shader(body, 0, binds, 0, helpers, f16)
    rt = runtime_of(tensors[0][0])
    if f16:
        rt.require_f16("wgpu kernel")
    kernel = rt.kernel(src, [w for _, w in binds])
    rt.dispatch(kernel, [handle_of(t) for t, _ in tensors], runtime.pack([threads, *scalars]),
                runtime.groups_for(threads))


def _compute_type(dt: D.dtype) -> str:
    return "f32" if dt.is_floating_point else "i32"


def fresh(t: Tensor) -> Tensor:
    """A contiguous copy starting at offset 0 (kernels here index storages from 0)."""
    return copy_into(empty(t._shape, t.dtype, t._device), t)


def as_rows(self: Tensor, dim: int, op: str) -> tuple[Tensor, int]:
    """A fresh copy of ``self`` with ``dim`` moved last, and the wrapped dim."""
    d = wrap_dim(dim, self.ndim, op)
    return fresh(self.movedim(d, -1)), d


def scatter_1d(out: Tensor, positions: Tensor, values: Tensor) -> Tensor:
    """``out[positions[i]] = values[i]`` for fresh 1-D tensors (equal values where positions
    repeat, so the order of the writes does not matter)."""
    run("  b1[u32(b2[idx])] = b3[idx];", positions.numel(),
        [(out, True), (fresh(positions), False), (fresh(values.to(out.dtype)), False)])
    return out


# -- sort --------------------------------------------------------------------------------------

_BEFORE = """
fn isn(x: f32) -> bool { return (bitcast<u32>(x) & 0x7fffffffu) > 0x7f800000u; }
// whether (a at position ia) sorts before (b at ib); pu(2u) == 1u: descending, NaN first
fn before(a: T, ia: u32, b: T, ib: u32) -> bool {
  let na = NAN_A; let nb = NAN_B;
  if (na || nb) { return select(!na && nb, na && !nb, pu(2u) == 1u) || (na && nb && ia < ib); }
  if (a == b) { return ia < ib; }
  return select((a < b), (a > b), pu(2u) == 1u);
}
"""


def _before(dt: D.dtype) -> str:
    ty = _compute_type(dt)
    nan = ("isn(a)", "isn(b)") if ty == "f32" else ("false", "false")
    return _BEFORE.replace("T,", f"{ty},").replace("NAN_A", nan[0]).replace("NAN_B", nan[1])


def sort(self: Tensor, dim: int = -1, descending: bool = False, stable: Any = False
         ) -> tuple[Tensor, Tensor]:
    if self.ndim == 0:
        return copy_into(empty((), self.dtype, self._device), self), \
            empty((), D.int64, self._device).fill_(0)
    rows, d = as_rows(self, dim, "sort")
    n = rows._shape[-1]
    values = empty(rows._shape, self.dtype, self._device)
    indices = empty(rows._shape, D.int64, self._device)
    total = rows.numel()
    ty = _compute_type(self.dtype)
    body = (f"  let row = idx / pu(1u) * pu(1u); let col = idx - row;\n"
            f"  let v = {ty}({load('b3[idx]', self.dtype)});\n"
            "  var rank = 0u;\n"
            "  for (var j = 0u; j < pu(1u); j = j + 1u) {\n"
            f"    if (before({ty}({load('b3[row + j]', self.dtype)}), j, v, col)) "
            "{ rank = rank + 1u; }\n"
            "  }\n"
            "  b1[row + rank] = b3[idx]; b2[row + rank] = i32(col);")
    run(body, total, [(values, True), (indices, True), (rows, False)],
        [n, int(descending)], _before(self.dtype))
    return values.movedim(-1, d), indices.movedim(-1, d)


def topk(self: Tensor, k: int, dim: int = -1, largest: bool = True, sorted: bool = True
         ) -> tuple[Tensor, Tensor]:
    if self.ndim == 0:
        if k > 1:
            raise IndexOutOfRangeError("topk: k must be at most 1 for a 0-d tensor")
        return sort(self)
    d = wrap_dim(dim, self.ndim, "topk")
    if not 0 <= k <= self._shape[d]:
        raise IndexOutOfRangeError(f"topk: selected index k out of range (k={k}, size "
                                   f"{self._shape[d]})")
    values, indices = sort(self, d, descending=largest)
    return values.narrow(d, 0, k).contiguous(), indices.narrow(d, 0, k).contiguous()


def _check_nonempty(self: Tensor, op: str, d: int | None = None) -> None:
    if self.numel() == 0:
        where = "" if d is None else f" along dimension {d}"
        raise IndexOutOfRangeError(f"{op}(): Expected reduction dim{where} to have non-zero "
                                   "size.")


def median(self: Tensor) -> Tensor:
    _check_nonempty(self, "median")
    values, _ = sort(self.reshape(-1))
    n = values.numel()
    middle = values.select(0, (n - 1) // 2)
    if not self.dtype.is_floating_point:
        return middle.contiguous()
    last = values.select(0, n - 1)  # NaN sorts last: the median of data with a NaN is NaN
    return last.where(last.isnan(), middle)


def median_dim(self: Tensor, dim: int, keepdim: bool = False) -> tuple[Tensor, Tensor]:
    if self.ndim == 0:
        return copy_into(empty((), self.dtype, self._device), self), \
            empty((), D.int64, self._device).fill_(0)
    d = wrap_dim(dim, self.ndim, "median")
    _check_nonempty(self, "median", d)
    values, indices = sort(self, d)
    k = (self._shape[d] - 1) // 2
    values, indices = values.narrow(d, k, 1), indices.narrow(d, k, 1)
    if not keepdim:
        values, indices = values.squeeze(d), indices.squeeze(d)
    return values.contiguous(), indices.contiguous()


def unique(self: Tensor, sorted: bool = True, return_inverse: bool = False,
           return_counts: bool = False, dim: int | None = None) -> Any:
    """Sort, mark where a new value starts, number the runs by a cumulative sum; the number of
    distinct values sizes the outputs, so it is read back (one sync, as on CUDA)."""
    if dim is not None:
        raise ShapeError("unique(dim=...) is not supported on wgpu; call it without dim")
    flat = self.reshape(-1)
    values, order = sort(flat)
    n = values.numel()
    starts = empty((n,), D.bool_, self._device)
    if n:
        starts.narrow(0, 0, 1).fill_(True)
        copy_into(starts.narrow(0, 1, n - 1), values.narrow(0, 1, n - 1) != values.narrow(0, 0,
                                                                                          n - 1))
    run_id = cumsum(starts, 0) - 1  # the run (distinct value) of each sorted element
    count = int(run_id[-1].item()) + 1 if n else 0
    out = empty((count,), self.dtype, self._device)
    positions = run_id.to(D.int64)
    if n:
        scatter_1d(out, positions, values)
    outputs = [out]
    if return_inverse:
        inverse = empty((n,), D.int64, self._device)
        scatter_1d(inverse, order, positions)
        outputs.append(inverse.reshape(self._shape))
    if return_counts:
        # atomics add 32-bit integers: count in int32
        ones = empty((n,), D.int32, self._device).fill_(1)
        counts = empty((count,), D.int32, self._device).fill_(0).index_add(0, positions, ones)
        outputs.append(counts.to(D.int64))
    return outputs[0] if len(outputs) == 1 else tuple(outputs)


# -- scans -------------------------------------------------------------------------------------

def _scan(self: Tensor, dim: int, dtype: Any, op: str, combine: str) -> Tensor:
    out_dt = dtype or (self.dtype if self.dtype.is_floating_point else D.int64)
    if out_dt not in STORED:  # a dtype= the device cannot store (float64)
        return cpu_path(op, self, dim, dtype)
    if self.ndim == 0:
        return self.to(out_dt).clone()
    rows, d = as_rows(self.to(out_dt), dim, op)
    out = empty(rows._shape, out_dt, self._device)
    n = rows._shape[-1]
    ty = _compute_type(out_dt)
    body = (f"  let base = idx * pu(1u);\n  var acc = {ty}({'0' if combine == '+' else '1'});\n"
            "  for (var j = 0u; j < pu(1u); j = j + 1u) {\n"
            f"    acc = acc {combine} {ty}({load('b2[base + j]', out_dt)});\n"
            f"    b1[base + j] = {store('acc', out_dt)};\n  }}")
    if n:
        run(body, rows.numel() // n, [(out, True), (rows, False)], [n])
    return out.movedim(-1, d)


def cumsum(self: Tensor, dim: int, dtype: Any = None) -> Tensor:
    return _scan(self, dim, dtype, "cumsum", "+")


def cumprod(self: Tensor, dim: int, dtype: Any = None) -> Tensor:
    return _scan(self, dim, dtype, "cumprod", "*")


# -- searchsorted ------------------------------------------------------------------------------

def searchsorted(sorted_sequence: Tensor, self: Any, out_int32: bool = False,
                 right: bool = False, side: str | None = None,
                 sorter: Tensor | None = None) -> Tensor:
    right = searchsorted_side(right, side) == "right"
    if sorter is not None:  # the boundaries in sorter's order (gather checks its range)
        check_searchsorted_sorter(sorter, sorted_sequence.shape)
        sorted_sequence = sorted_sequence.gather(-1, sorter)
    if not isinstance(self, Tensor):
        self = empty((), sorted_sequence.dtype, sorted_sequence._device).fill_(self)
    if sorted_sequence.ndim > 1 and sorted_sequence._shape[:-1] != self._shape[:-1]:
        raise ShapeError("searchsorted(): boundaries tensor should be 1 dimension or the first "
                         "N-1 dimensions of boundaries tensor and input value tensor must match")
    dt = D.result_type(sorted_sequence, self)
    if dt not in (D.float32, D.float16, D.int64, D.int32):
        raise DTypeError(f"searchsorted on wgpu: unsupported dtype {dt.name}")
    seq = fresh(sorted_sequence.to(dt))
    values = fresh(self.to(dt))
    out = empty(self._shape, D.int32 if out_int32 else D.int64, self._device)
    m = seq._shape[-1] if seq.ndim else 1
    per_row = self._shape[-1] if sorted_sequence.ndim > 1 and self.ndim else max(values.numel(), 1)
    ty = _compute_type(dt)
    test = "<=" if right else "<"
    body = (f"  let base = (idx / pu(2u)) * pu(1u) * pu(3u);\n"
            f"  let v = {ty}({load('b3[idx]', dt)});\n"
            "  var lo = 0u; var hi = pu(1u);\n"
            "  loop {\n    if (lo >= hi) { break; }\n    let mid = (lo + hi) / 2u;\n"
            f"    if ({ty}({load('b2[base + mid]', dt)}) {test} v) {{ lo = mid + 1u; }}"
            " else { hi = mid; }\n  }\n"
            "  b1[idx] = i32(lo);")
    run(body, values.numel(), [(out, True), (seq, False), (values, False)],
        [m, per_row, int(sorted_sequence.ndim > 1)])
    return out


KERNELS = {"sort": sort, "topk": topk, "median": median, "median.dim": median_dim,
           "unique": unique, "cumsum": cumsum, "cumprod": cumprod, "searchsorted": searchsorted}

