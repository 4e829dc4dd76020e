"""Statistics along one dimension and over sets, on the device: cummax/cummin (running extreme
and its index), kthvalue, nanmedian, mode, histograms, isin, unique_consecutive and the index
list of repeat_interleave.

Rows are laid out as in ``rows.py`` (the dimension moved last, made contiguous). Selections
count ranks per element (O(n) work per thread, no synchronisation): an element's rank is the
number of elements of its row that sort before it, values first, then positions, NaN last, which
is the order of numpy's stable argsort that the CPU kernels use, so ties pick the same index.
Ops whose output size depends on the data read one count back, as ``nonzero`` does.

Note [histogram bins]: the bin edges are the CPU's, made on the host by numpy from the range
(which is read back, one sync, only where the data gives it), so edge for edge they are equal.
A point's bin is found by a binary search over the edges, comparing in the data's precision as
numpy does. Counts are int32 atomic adds (exact, in any order); weighted counts are summed by
one thread per bin over the points in order, so they equal ``np.add.at``'s float sums.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from volta import dtypes as D
from volta.backends.wgpu import runtime
from volta.backends.wgpu.kernels.composed import _arange, cat
from volta.backends.wgpu.kernels.copy import copy_into
from volta.backends.wgpu.kernels.elementwise import load, shader, store
from volta.backends.wgpu.kernels.rows import as_rows, cumsum, fresh, run, searchsorted
from volta.backends.wgpu.storage import empty, handle_of, runtime_of
from volta.composites.views import wrap_dim
from volta.errors import DTypeError, IndexOutOfRangeError, ShapeError
from volta.tensor.checks import (
    check_bin_edges,
    check_isin_operands,
    check_selection_dtype,
    empty_median_value,
    histc_finite_range,
    histc_range,
    histogramdd_bins,
)
from volta.tensor.factories import _from_host
from volta.tensor.tensor import Tensor

# ``isn`` works on the bits: a compiler may fold ``x != x`` to false
_ORDER = """
fn isn(x: T) -> bool { return ISNAN; }
// whether value a sorts strictly before value b (ascending, NaN last)
fn less(a: T, b: T) -> bool { return (!isn(a) && isn(b)) || a < b; }
fn same(a: T, b: T) -> bool { return a == b || (isn(a) && isn(b)); }
// whether (a at position ia) sorts before (b at ib): numpy's stable argsort order
fn before(a: T, ia: u32, b: T, ib: u32) -> bool {
  return less(a, b) || (same(a, b) && ia < ib);
}
"""


def _compute_type(dt: D.dtype) -> str:
    return "f32" if dt.is_floating_point else "i32"


def _order_helpers(dt: D.dtype) -> str:
    ty = _compute_type(dt)
    nan = "(bitcast<u32>(x) & 0x7fffffffu) > 0x7f800000u" if ty == "f32" else "false"
    return _ORDER.replace("T)", f"{ty})").replace("T,", f"{ty},").replace("ISNAN", nan)


def _value(var: str, dt: D.dtype) -> str:
    """WGSL of element ``var`` as the compute type (f32 for floats, i32 for ints and bool)."""
    return f"{_compute_type(dt)}({load(var, dt)})"


def _restore(t: Tensor, d: int, keepdim: bool, ndim: int) -> Tensor:
    """A per-row result of shape ``rows[:-1]`` back in the input's layout."""
    if ndim == 0:
        return t.reshape(())
    return t.unsqueeze(d) if keepdim else t


# -- cummax / cummin ----------------------------------------------------------------------------

def _cumulative_extreme(self: Tensor, dim: int, op: str, better: str
                        ) -> tuple[Tensor, Tensor]:
    """The running extreme and the index of its last occurrence; once NaN, it stays NaN (the CPU
    kernel's rule). One thread per row."""
    d = wrap_dim(dim, self.ndim, op)
    if self.ndim == 0:
        return fresh(self), empty((), D.int64, self._device).fill_(0)
    source = self.to(D.int32) if self.dtype is D.bool_ else self  # bools compare as 0 / 1
    rows, _ = as_rows(source, d, op)
    n = rows._shape[-1]
    values = empty(rows._shape, source.dtype, self._device)
    indices = empty(rows._shape, D.int64, self._device)
    body = ("  let base = idx * pu(1u);\n"
            f"  var best = {_value('b3[base]', source.dtype)}; var at = 0u;\n"
            "  for (var j = 0u; j < pu(1u); j = j + 1u) {\n"
            f"    let x = {_value('b3[base + j]', source.dtype)};\n"
            f"    let take = (x {better} best || x == best || isn(x)) && !(isn(best) && !isn(x));\n"
            "    if (take) { best = x; at = j; }\n"
            f"    b1[base + j] = {store('best', source.dtype)}; b2[base + j] = i32(at);\n  }}")
    if n:
        run(body, rows.numel() // n, [(values, True), (indices, True), (rows, False)], [n],
            _order_helpers(source.dtype))
    values = values.movedim(-1, d)
    if self.dtype is D.bool_:
        values = values != 0
    return values, indices.movedim(-1, d)


def cummax(self: Tensor, dim: int) -> tuple[Tensor, Tensor]:
    return _cumulative_extreme(self, dim, "cummax", ">")


def cummin(self: Tensor, dim: int) -> tuple[Tensor, Tensor]:
    return _cumulative_extreme(self, dim, "cummin", "<")


# -- selections: kthvalue, nanmedian -----------------------------------------------------------

def _select_ranks(rows: Tensor, ranks: Tensor) -> tuple[Tensor, Tensor]:
    """Per row of ``rows`` (contiguous, rows last), the element of rank ``ranks[row]`` in
    numpy's stable ascending order (NaN last) and its position in the row."""
    n = rows._shape[-1]
    values = empty(rows._shape[:-1], rows.dtype, rows._device)
    indices = empty(rows._shape[:-1], D.int64, rows._device)
    body = ("  let base = idx / pu(1u) * pu(1u); let col = idx - base;\n"
            f"  let v = {_value('b4[idx]', rows.dtype)};\n"
            "  var rank = 0u;\n"
            "  for (var j = 0u; j < pu(1u); j = j + 1u) {\n"
            f"    if (before({_value('b4[base + j]', rows.dtype)}, j, v, col)) "
            "{ rank = rank + 1u; }\n"
            "  }\n"
            "  let row = idx / pu(1u);\n"
            "  if (rank == u32(b3[row])) { b1[row] = b4[idx]; b2[row] = i32(col); }")
    run(body, rows.numel(), [(values, True), (indices, True), (fresh(ranks.to(D.int32)), False),
                             (rows, False)], [n], _order_helpers(rows.dtype))
    return values, indices


def _check_nonempty_dim(self: Tensor, d: int, op: str) -> None:
    if self.ndim and self._shape[d] == 0:
        raise IndexOutOfRangeError(f"{op}(): Expected reduction dim {d} to have non-zero size.")


def kthvalue(self: Tensor, k: int, dim: int = -1, keepdim: bool = False
             ) -> tuple[Tensor, Tensor]:
    check_selection_dtype("kthvalue_cpu", self)
    d = wrap_dim(dim, self.ndim, "kthvalue")
    rows, _ = as_rows(self.reshape(1) if self.ndim == 0 else self, d, "kthvalue")
    if not 1 <= k <= rows._shape[-1]:
        raise IndexOutOfRangeError(f"kthvalue(): selected number k out of range for dimension "
                                   f"{d}")
    ranks = empty(rows._shape[:-1], D.int32, self._device).fill_(k - 1)
    values, indices = _select_ranks(rows, ranks)
    return _restore(values, d, keepdim, self.ndim), _restore(indices, d, keepdim, self.ndim)


def nanmedian_dim(self: Tensor, dim: int, keepdim: bool = False) -> tuple[Tensor, Tensor]:
    """The lower median of the non-NaN elements: the element of rank (valid - 1) // 2 with NaN
    sorting last; an all-NaN row gives its first NaN (position 0), as on CPU."""
    check_selection_dtype("median_out", self)
    d = wrap_dim(dim, self.ndim, "nanmedian")
    _check_nonempty_dim(self, d, "nanmedian")
    rows, _ = as_rows(self.reshape(1) if self.ndim == 0 else self, d, "nanmedian")
    n = rows._shape[-1]
    if self.dtype.is_floating_point:
        valid = (~rows.isnan()).to(D.int32).sum(-1, dtype=D.int32)
    else:
        valid = empty(rows._shape[:-1], D.int32, self._device).fill_(n)
    ranks = (valid - 1).clamp(0, None).div(2, rounding_mode="floor")
    values, indices = _select_ranks(rows, ranks)
    return _restore(values, d, keepdim, self.ndim), _restore(indices, d, keepdim, self.ndim)


def nanmedian(self: Tensor) -> Tensor:
    if self.numel() == 0:
        return empty((), self.dtype, self._device).fill_(empty_median_value(self.dtype))
    check_selection_dtype("median_cpu", self)
    values, _ = nanmedian_dim(self.reshape(-1), 0)
    return values


# -- mode ----------------------------------------------------------------------------------------

def mode(self: Tensor, dim: int = -1, keepdim: bool = False) -> tuple[Tensor, Tensor]:
    """The most frequent value of each row (NaNs count as one value), the smallest among
    equally frequent ones, at its last occurrence: one thread per element counts its value's
    occurrences, then one thread per row picks."""
    d = wrap_dim(dim, self.ndim, "mode")
    _check_nonempty_dim(self, d, "mode")
    rows, _ = as_rows(self.reshape(1) if self.ndim == 0 else self, d, "mode")
    n = rows._shape[-1]
    helpers = _order_helpers(rows.dtype)
    counts = empty(rows._shape, D.int32, self._device)
    count_body = ("  let base = idx / pu(1u) * pu(1u);\n"
                  f"  let v = {_value('b2[idx]', rows.dtype)};\n"
                  "  var c = 0;\n"
                  "  for (var j = 0u; j < pu(1u); j = j + 1u) {\n"
                  f"    if (same({_value('b2[base + j]', rows.dtype)}, v)) {{ c = c + 1; }}\n"
                  "  }\n"
                  "  b1[idx] = c;")
    run(count_body, rows.numel(), [(counts, True), (rows, False)], [n], helpers)
    values = empty(rows._shape[:-1], rows.dtype, self._device)
    indices = empty(rows._shape[:-1], D.int64, self._device)
    pick_body = ("  let base = idx * pu(1u);\n"
                 f"  var best = {_value('b4[base]', rows.dtype)}; var most = b3[base];"
                 " var at = 0u;\n"
                 "  for (var j = 1u; j < pu(1u); j = j + 1u) {\n"
                 f"    let v = {_value('b4[base + j]', rows.dtype)}; let c = b3[base + j];\n"
                 "    if (c > most || (c == most && (less(v, best) || same(v, best)))) {\n"
                 "      best = v; most = c; at = j;\n    }\n  }\n"
                 "  b1[idx] = b4[base + at]; b2[idx] = i32(at);")
    run(pick_body, values.numel(), [(values, True), (indices, True), (counts, False),
                                    (rows, False)], [n], helpers)
    return _restore(values, d, keepdim, self.ndim), _restore(indices, d, keepdim, self.ndim)


# -- histograms (Note [histogram bins]) ---------------------------------------------------------

def _bins_of_points(points: Tensor, edges: list[Tensor]) -> Tensor:
    """The bin of each point (rows of ``points``), row-major over the dimensions' bins, or -1
    where a coordinate is outside its edges (NaN is): numpy's ``searchsorted(side="right") - 1``
    clipped to the last bin, so the last edge belongs to the last bin."""
    count, dims = points._shape
    flat_edges = fresh(cat([e.to(D.float32) for e in edges]))
    layout: list[int] = []
    for e in edges:
        layout += [sum(layout[1::2]), e._shape[0]]
    meta = _from_host(np.asarray(layout, dtype=np.int32), points._device)
    out = empty((count,), D.int32, points._device)
    body = ("  var flat = 0; var inside = true;\n"
            "  for (var j = 0u; j < pu(1u); j = j + 1u) {\n"
            f"    let x = f32({load('b2[idx * pu(1u) + j]', points.dtype)});\n"
            "    let first = u32(b4[2u * j]); let m = u32(b4[2u * j + 1u]);\n"
            "    if (!(x >= b3[first] && x <= b3[first + m - 1u])) { inside = false; }\n"
            "    var lo = 0u; var hi = m;\n"
            "    loop {\n      if (lo >= hi) { break; }\n      let mid = (lo + hi) / 2u;\n"
            "      if (b3[first + mid] <= x) { lo = mid + 1u; } else { hi = mid; }\n    }\n"
            "    flat = flat * (i32(m) - 1) + clamp(i32(lo) - 1, 0, i32(m) - 2);\n  }\n"
            "  b1[idx] = select(-1, flat, inside);")
    run(body, count, [(out, True), (fresh(points), False), (flat_edges, False), (meta, False)],
        [dims])
    return out


def _count_bins(bins_of: Tensor, total: int, weight: Tensor | None, dt: D.dtype) -> Tensor:
    """The number (or the weight) of the points in each of ``total`` bins, of dtype ``dt``."""
    points = bins_of.numel()
    if weight is not None:  # one thread per bin sums its points in order (deterministic)
        if weight.numel() != points:
            raise ShapeError(f"histogramdd: expected a weight for each of the {points} points, "
                             f"got {weight.numel()}")
        w = fresh(weight.reshape(-1).to(dt))
        out = empty((total,), dt, bins_of._device)
        rounded = "acc = f32(f16(acc));" if dt is D.float16 else ""
        run("  var acc = 0.0;\n"
            "  for (var p = 0u; p < pu(1u); p = p + 1u) {\n"
            f"    if (b2[p] == i32(idx)) {{ acc = acc + {load('b3[p]', dt)}; {rounded} }}\n  }}\n"
            f"  b1[idx] = {store('acc', dt)};", total,
            [(out, True), (bins_of, False), (w, False)], [points])
        return out
    counts = empty((total,), D.int32, bins_of._device).fill_(0)
    if points:
        binds = [("atomic<i32>", True), ("i32", False)]
        src = shader("  let b = b2[idx];\n  if (b >= 0) { atomicAdd(&b1[u32(b)], 1); }", 0,
                     binds, 0)
        rt = runtime_of(counts)
        rt.dispatch(rt.kernel(src, [True, False]), [handle_of(counts), handle_of(bins_of)],
                    runtime.pack([points]), runtime.groups_for(points))
    return counts.to(dt)


def _data_ranges(points: Tensor) -> list[tuple[float, float]]:
    """Each column's (min, max), read back in one sync."""
    bounds = cat([points.amin(0), points.amax(0)]).tolist()
    dims = points._shape[1]
    return [(float(bounds[i]), float(bounds[dims + i])) for i in range(dims)]


def histogramdd(self: Tensor, bins: Any, range: Any = None, weight: Tensor | None = None,
                density: bool = False) -> tuple[Tensor, list[Tensor]]:
    dims, per_dim, bounds = histogramdd_bins(self, bins, range)
    points = self.reshape(-1, dims)
    if points.numel() and any(b is None and not isinstance(p, Tensor)
                              for b, p in zip(bounds, per_dim)):
        data = _data_ranges(points)
        bounds = [data[i] if b is None else b for i, b in enumerate(bounds)]
    edges = []
    for b, p in zip(bounds, per_dim):
        if isinstance(p, Tensor):
            edges.append(fresh(p.to(self.dtype)))
            continue
        low, high = (0.0, 1.0) if b is None else b
        if low == high:
            low, high = low - 0.5, high + 0.5
        edges.append(_from_host(np.linspace(low, high, int(p) + 1, dtype=self.dtype.numpy),
                                self._device))
    check_bin_edges(edges)
    shape = tuple(e._shape[0] - 1 for e in edges)
    total = 1
    for n in shape:
        total *= n
    counts = _count_bins(_bins_of_points(points, edges), total, weight, self.dtype)
    counts = counts.reshape(shape)
    if density:
        volume = empty((), self.dtype, self._device).fill_(1)
        for e in edges:  # the outer product of the bin widths, in the CPU's order
            widths = e.narrow(0, 1, e._shape[0] - 1) - e.narrow(0, 0, e._shape[0] - 1)
            volume = volume.unsqueeze(-1) * widths
        counts = counts / counts.sum() / volume
    return counts, edges


def histogram(self: Tensor, bins: Any, range: Any = None, weight: Tensor | None = None,
              density: bool = False) -> tuple[Tensor, Tensor]:
    if not self.dtype.is_floating_point:
        raise DTypeError(f'"histogram" not implemented for \'{self.dtype.name}\'')
    flat = self.reshape(-1, 1)
    w = None if weight is None else weight.reshape(-1)
    counts, edges = histogramdd(flat, [bins], range, w, density)
    return counts, edges[0]


def histc(self: Tensor, bins: int = 100, min: float = 0, max: float = 0) -> Tensor:
    histc_range(self, bins, min, max)
    low, high = float(min), float(max)
    flat = self.reshape(-1, 1)
    if low == high and flat.numel():
        low, high = _data_ranges(flat)[0]
    if low == high:
        low, high = low - 1, high + 1
    histc_finite_range(low, high)
    # numpy's own edges, in the data's precision (Note [histogram bins])
    _, edges = np.histogram(np.zeros(0, dtype=self.dtype.numpy), bins=bins, range=(low, high))
    edges_on_device = _from_host(edges.astype(self.dtype.numpy), self._device)
    return _count_bins(_bins_of_points(flat, [edges_on_device]), bins, None, self.dtype)


# -- sets ----------------------------------------------------------------------------------------

def _on_device(value: Any, dt: D.dtype, like: Tensor) -> Tensor:
    if isinstance(value, Tensor):
        return value.to(dt)
    return empty((), dt, like._device).fill_(value)


def isin(elements: Any, test_elements: Any, assume_unique: bool = False,
         invert: bool = False) -> Tensor:
    """One thread per element scans ``test_elements`` (NaN is in no set, as in numpy)."""
    check_isin_operands(elements, test_elements)
    like = elements if isinstance(elements, Tensor) else test_elements
    dt = D.result_type(elements, test_elements)
    if dt not in (D.float32, D.float16, D.int64, D.int32, D.bool_):
        raise DTypeError(f"isin on wgpu: unsupported dtype {dt.name}")
    a, b = _on_device(elements, dt, like), _on_device(test_elements, dt, like)
    values, tests = fresh(a).reshape(-1), fresh(b).reshape(-1)
    out = empty(a._shape, D.bool_, a._device)
    body = (f"  let v = {_value('b2[idx]', dt)};\n  var found = false;\n"
            "  for (var j = 0u; j < pu(1u); j = j + 1u) {\n"
            f"    if ({_value('b3[j]', dt)} == v) {{ found = true; break; }}\n  }}\n"
            "  b1[idx] = u32(found != (pu(2u) == 1u));")
    run(body, values.numel(), [(out, True), (values, False), (tests, False)],
        [tests.numel(), int(invert)])
    return out


def _start_positions(starts: Tensor) -> tuple[Tensor, Tensor, int]:
    """For a 1-D bool ``starts`` (a run begins here; the first element always does): the run of
    each element, the position where each run starts, and the number of runs (read back)."""
    n = starts.numel()
    run_id = cumsum(starts, 0) - 1
    count = int(run_id[-1].item()) + 1 if n else 0
    positions = empty((count,), D.int64, starts._device)
    if count:
        run("  if (b3[idx] != 0u) { b1[u32(b2[idx])] = i32(idx); }", n,
            [(positions, True), (fresh(run_id), False), (fresh(starts), False)])
    return run_id, positions, count


def _take_rows(rows: Tensor, positions: Tensor) -> Tensor:
    """``rows[positions]`` for a contiguous 2-D ``rows`` and in-range device positions (no range
    check: they are computed here, so it would cost a read back)."""
    width = rows._shape[1]
    out = empty((positions.numel(), width), rows.dtype, rows._device)
    run("  let r = idx / pu(1u);\n  b1[idx] = b2[u32(b3[r]) * pu(1u) + idx - r * pu(1u)];",
        out.numel(), [(out, True), (rows, False), (fresh(positions), False)], [width])
    return out


def _run_lengths(positions: Tensor, total: int) -> Tensor:
    """The length of each run from where the runs start."""
    end = empty((1,), D.int64, positions._device).fill_(total)
    return cat([positions.narrow(0, 1, positions.numel() - 1), end]) - positions


def unique_consecutive(self: Tensor, return_inverse: bool = False, return_counts: bool = False,
                       dim: int | None = None) -> Any:
    if dim is None:
        flat = fresh(self.reshape(-1))
        moved = flat.reshape(-1, 1)
        inverse_shape = self._shape
    else:
        d = wrap_dim(dim, self.ndim, "unique_consecutive")
        moved = fresh(self.movedim(d, 0))
        moved = moved.reshape(moved._shape[0], -1)
        inverse_shape = (moved._shape[0],)
    n = moved._shape[0]
    starts = empty((n,), D.bool_, self._device)
    if n:
        starts.narrow(0, 0, 1).fill_(True)
    if n > 1:  # a run starts where a slice differs from the one before it
        differs = (moved.narrow(0, 1, n - 1) != moved.narrow(0, 0, n - 1)).any(1)
        copy_into(starts.narrow(0, 1, n - 1), differs)
    run_id, positions, _ = _start_positions(starts)
    if dim is None:
        values = _take_rows(moved, positions).reshape(-1)
    else:
        taken = _take_rows(moved, positions)
        values = taken.reshape((taken._shape[0],) + self.movedim(d, 0)._shape[1:]).movedim(0, d)
    outputs = [values]
    if return_inverse:
        outputs.append(run_id.to(D.int64).reshape(inverse_shape))
    if return_counts:
        outputs.append(_run_lengths(positions, n) if positions.numel() else positions)
    return outputs[0] if len(outputs) == 1 else tuple(outputs)


# -- repeat_interleave ---------------------------------------------------------------------------

def repeat_interleave(repeats: Tensor, output_size: int | None = None) -> Tensor:
    """Index ``i`` repeated ``repeats[i]`` times: output position ``k`` belongs to the first
    ``i`` whose cumulative count exceeds ``k`` (a binary search). The total and the smallest
    count are read back together (one sync): the total sizes the output."""
    if repeats.dtype not in (D.int64, D.int32):
        raise DTypeError(f"repeat_interleave: repeats has to be Long or Int tensor, got "
                         f"{repeats.dtype.name}")
    if repeats.ndim > 1:
        raise ShapeError("repeat_interleave only accept 1D vector as repeat")
    counts = repeats.reshape(-1).to(D.int64)
    if counts.numel() == 0:
        total = 0
        ends = counts
    else:
        ends = cumsum(counts, 0)
        smallest, total = (int(v) for v in cat([counts.amin().reshape(1),
                                                ends.narrow(0, ends.numel() - 1, 1)]).tolist())
        if smallest < 0:
            raise ShapeError("repeats can not be negative")
    if output_size is not None and total != output_size:
        raise ShapeError(f"allocated size does not match required size: output_size "
                         f"{output_size}, required {total}")
    if total == 0:
        return empty((0,), D.int64, repeats._device)
    return searchsorted(ends, _arange(total, repeats), right=True)


KERNELS = {"cummax": cummax, "cummin": cummin, "kthvalue": kthvalue, "nanmedian": nanmedian,
           "nanmedian.dim": nanmedian_dim, "mode": mode, "isin": isin,
           "unique_consecutive": unique_consecutive, "histc": histc,
           "histogram.bins_tensor": histogram, "histogram.bin_ct": histogram,
           "histogramdd": histogramdd, "histogramdd.int_bins": histogramdd,
           "histogramdd.TensorList_bins": histogramdd,
           "repeat_interleave.Tensor": repeat_interleave}
