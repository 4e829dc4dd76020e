"""Sorting rows on the device by a bitonic network, and topk, median, unique built on it:
O(n log^2 n) work per row of ``n`` elements in O(log^2 n) steps (the rank sort it replaces did
O(n^2) work per row).

The sort dimension is moved last and each row padded to a power of two ``P``; an element is the
pair (value, original position), and pairs are ordered by value, then by position. That order is
total, so the network's result is the stable sort, whatever ``stable`` asks for: NaN sorts last
ascending and first descending, ties keep their order (as the CPU backend and PyTorch). Padding
positions (``>= n``) sort after everything and are dropped at the end.

A compare-exchange step pairs positions ``i`` and ``i + j`` in blocks of ``2j``; the direction
alternates in blocks of ``k``. Steps with ``j < BLOCK / 2`` stay inside an aligned block of
``BLOCK`` elements, so one workgroup runs all of them in workgroup memory (one dispatch for every
row of up to ``BLOCK`` elements); longer steps are one dispatch each over all rows.
"""

from __future__ import annotations

from typing import Any

from volta import dtypes as D
from volta.backends.wgpu import runtime
from volta.backends.wgpu.kernels.copy import copy_into
from volta.backends.wgpu.kernels.elementwise import load, store
from volta.backends.wgpu.kernels.rows import as_rows, cumsum, run, scatter_1d
from volta.backends.wgpu.storage import empty, handle_of, runtime_of
from volta.composites.views import wrap_dim
from volta.errors import IndexOutOfRangeError, ShapeError
from volta.tensor.checks import check_selection_dtype, check_topk_dtype, empty_median_value
from volta.tensor.tensor import Tensor

BLOCK = 512  # elements one workgroup (BLOCK / 2 threads) sorts in workgroup memory

# pu(1u): n (row length), pu(2u): 1 when descending
_BEFORE = """
fn isn(x: KEY) -> bool { return IS_NAN; }
// whether (a at position ia) sorts before (b at ib); positions >= n are padding (last)
fn before(a: KEY, ia: i32, b: KEY, ib: i32) -> bool {
  let n = i32(pu(1u));
  if (ia >= n || ib >= n) { return ib >= n && (ia < n || ia < ib); }
  let na = isn(a); let nb = isn(b);
  if (na || nb) { return select(!na && nb, na && !nb, pu(2u) == 1u) || (na && nb && ia < ib); }
  if (a == b) { return ia < ib; }
  return select((a < b), (a > b), pu(2u) == 1u);  // parenthesised: not a template list
}
"""


def _helpers(ty: str) -> str:
    nan = "(bitcast<u32>(x) & 0x7fffffffu) > 0x7f800000u" if ty == "f32" else "false"
    return _BEFORE.replace("KEY", ty).replace("IS_NAN", nan)


def _block_source(ty: str) -> str:
    """All steps ``k`` in [pu(4u), pu(5u)] (doubling), ``j`` from min(k / 2, BLOCK / 2) down to
    1, on aligned blocks of BLOCK elements of the padded rows (pu(0u) elements, rows of pu(3u))."""
    half = BLOCK // 2
    return (runtime.PARAMS_WGSL
            + f"@group(0) @binding(1) var<storage, read_write> b1: array<{ty}>;\n"
            "@group(0) @binding(2) var<storage, read_write> b2: array<i32>;\n"
            f"var<workgroup> keys: array<{ty}, {BLOCK}>;\n"
            f"var<workgroup> positions: array<i32, {BLOCK}>;\n"
            + _helpers(ty) +
            f"@compute @workgroup_size({half})\n"
            "fn main(@builtin(workgroup_id) wid: vec3<u32>,\n"
            "        @builtin(num_workgroups) nwg: vec3<u32>,\n"
            "        @builtin(local_invocation_index) lid: u32) {\n"
            f"  let base = (wid.x + wid.y * nwg.x) * {BLOCK}u;\n"
            "  let total = pu(0u);\n"
            "  if (base >= total) { return; }\n"
            f"  for (var e = lid; e < {BLOCK}u; e = e + {half}u) {{\n"
            "    if (base + e < total) { keys[e] = b1[base + e]; positions[e] = b2[base + e]; }\n"
            "  }\n"
            "  workgroupBarrier();\n"
            "  for (var k = pu(4u); k <= pu(5u); k = k * 2u) {\n"
            f"    for (var j = min(k / 2u, {half}u); j > 0u; j = j / 2u) {{\n"
            "      let i = 2u * j * (lid / j) + lid % j;\n"
            "      if (base + i + j < total) {\n"
            "        let up = (((base + i) % pu(3u)) & k) == 0u;\n"
            "        let a = keys[i]; let b = keys[i + j];\n"
            "        let ia = positions[i]; let ib = positions[i + j];\n"
            "        if (before(b, ib, a, ia) == up) {\n"
            "          keys[i] = b; keys[i + j] = a; positions[i] = ib; positions[i + j] = ia;\n"
            "        }\n"
            "      }\n"
            "      workgroupBarrier();\n"
            "    }\n"
            "  }\n"
            f"  for (var e = lid; e < {BLOCK}u; e = e + {half}u) {{\n"
            "    if (base + e < total) { b1[base + e] = keys[e]; b2[base + e] = positions[e]; }\n"
            "  }\n"
            "}\n")


def _blocks(rt: runtime.Runtime, keys: Tensor, positions: Tensor, ty: str,
            words: list[int], first_k: int, last_k: int) -> None:
    total = keys.numel()
    kernel = rt.kernel(_block_source(ty), [True, True])
    groups = -(-total // BLOCK)
    x = min(groups, runtime.MAX_GROUPS_X)
    params = runtime.pack([total, *words[1:], first_k, last_k])
    rt.dispatch(kernel, [handle_of(keys), handle_of(positions)], params,
                (x, -(-groups // x), 1))


_STEP = """
  let half = pu(3u) / 2u; let j = pu(5u);
  let row = idx / half; let h = idx % half;
  let i = 2u * j * (h / j) + h % j;
  let a = row * pu(3u) + i; let b = a + j;
  let up = (i & pu(4u)) == 0u;
  let va = b1[a]; let vb = b1[b]; let ia = b2[a]; let ib = b2[b];
  if (before(vb, ib, va, ia) == up) { b1[a] = vb; b1[b] = va; b2[a] = ib; b2[b] = ia; }
"""


def bitonic_sort(rows: Tensor, descending: bool) -> tuple[Tensor, Tensor]:
    """Sorted values and their int64 positions along the last dim of ``rows`` (fresh)."""
    n = rows._shape[-1]
    values = empty(rows._shape, rows.dtype, rows._device)
    indices = empty(rows._shape, D.int64, rows._device)
    if rows.numel() == 0:
        return values, indices
    count = rows.numel() // n
    padded = 1 << max(n - 1, 0).bit_length()
    work_dt = D.float32 if rows.dtype.is_floating_point else D.int32
    ty = "f32" if work_dt is D.float32 else "i32"
    keys = empty((count * padded,), work_dt, rows._device)
    positions = empty((count * padded,), D.int32, rows._device)
    words = [0, n, int(descending), padded]
    run(f"  let row = idx / pu(3u); let col = idx % pu(3u);\n"
        f"  b2[idx] = i32(col);\n"
        f"  if (col < pu(1u)) {{ b1[idx] = {ty}({load('b3[row * pu(1u) + col]', rows.dtype)}); }}"
        f" else {{ b1[idx] = {ty}(0); }}",
        count * padded, [(keys, True), (positions, True), (rows, False)], words[1:])
    rt = runtime_of(rows)
    if padded > 1:
        _blocks(rt, keys, positions, ty, words, 2, min(padded, BLOCK))
    k = 2 * BLOCK
    while k <= padded:
        j = k // 2
        while j >= BLOCK:
            run(_STEP, count * padded // 2, [(keys, True), (positions, True)],
                [*words[1:], k, j], _helpers(ty))
            j //= 2
        _blocks(rt, keys, positions, ty, words, k, k)
        k *= 2
    run(f"  let s = (idx / pu(1u)) * pu(3u) + idx % pu(1u);\n"
        f"  b1[idx] = {store('b3[s]', rows.dtype)}; b2[idx] = b4[s];",
        count * n, [(values, True), (indices, True), (keys, False), (positions, False)],
        words[1:])
    return values, indices


def sort(self: Tensor, dim: int = -1, descending: bool = False) -> tuple[Tensor, Tensor]:
    """Stable: ties keep their order (sort.stable is this kernel too)."""
    if self.ndim == 0:
        return copy_into(empty((), self.dtype, self._device), self), \
            empty((), D.int64, self._device).fill_(0)
    rows, d = as_rows(self, dim, "sort")
    values, indices = bitonic_sort(rows, descending)
    return values.movedim(-1, d), indices.movedim(-1, d)


def topk(self: Tensor, k: int, dim: int = -1, largest: bool = True, sorted: bool = True
         ) -> tuple[Tensor, Tensor]:
    check_topk_dtype(self)
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
    if self.numel() == 0:
        return empty((), self.dtype, self._device).fill_(empty_median_value(self.dtype))
    check_selection_dtype("median_cpu", self)
    values, _ = sort(self.reshape(-1))
    n = values.numel()
    middle = values.select(0, (n - 1) // 2)
    if not self.dtype.is_floating_point:
        return middle.contiguous()
    last = values.select(0, n - 1)  # NaN sorts last: the median of data with a NaN is NaN
    return last.where(last.isnan(), middle)


def median_dim(self: Tensor, dim: int, keepdim: bool = False) -> tuple[Tensor, Tensor]:
    check_selection_dtype("median_out", self)
    if self.ndim == 0:
        return copy_into(empty((), self.dtype, self._device), self), \
            empty((), D.int64, self._device).fill_(0)
    d = wrap_dim(dim, self.ndim, "median")
    _check_nonempty(self, "median", d)
    values, indices = sort(self, d)  # stable
    n, k = self._shape[d], (self._shape[d] - 1) // 2
    if self.dtype.is_floating_point:
        # as PyTorch: a slice with a NaN has the median NaN at its first NaN, which the stable
        # sort puts right after the slice's other values
        nan_count = self.isnan().sum(d, keepdim=True)
        position = (n - nan_count).where(nan_count > 0, k)
        values, indices = values.gather(d, position), indices.gather(d, position)
    else:
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


KERNELS = {"sort": sort, "topk": topk, "median": median, "median.dim": median_dim,
           "unique": unique}
