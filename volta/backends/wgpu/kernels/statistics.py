"""Statistics along one dimension and over sets, on the device: cummax/cummin (running extreme
and its index), kthvalue, nanmedian, mode, isin, unique_consecutive and the index list of
repeat_interleave. Histograms live in ``histograms.py``.

Rows are laid out as in ``rows.py`` (the dimension moved last, made contiguous). Selections
count ranks per element (O(n) work per thread, no synchronisation): an element's rank is the
number of elements of its row that sort before it, values first, then positions, NaN last, which
is the order of numpy's stable argsort that the CPU kernels use, so ties pick the same index.
Ops whose output size depends on the data read one count back, as ``nonzero`` does.
"""

from __future__ import annotations

from typing import Any

from volta import dtypes as D
from volta.backends.wgpu.kernels.composed import _arange, cat
from volta.backends.wgpu.kernels.copy import copy_into
from volta.backends.wgpu.kernels.elementwise import load, store
from volta.backends.wgpu.kernels.rows import as_rows, cumsum, fresh, run, searchsorted
from volta.backends.wgpu.storage import empty
from volta.composites.views import wrap_dim
from volta.errors import DTypeError, IndexOutOfRangeError, ShapeError
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
        return empty((), self.dtype, self._device).fill_(float("nan"))
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


# -- sets ----------------------------------------------------------------------------------------

def _on_device(value: Any, dt: D.dtype, like: Tensor) -> Tensor:
    if isinstance(value, Tensor):
        return value.to(dt)
    return empty((), dt, like._device).fill_(value)


def isin(elements: Any, test_elements: Any, assume_unique: bool = False,
         invert: bool = False) -> Tensor:
    """One thread per element scans ``test_elements`` (NaN is in no set, as in numpy)."""
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
           "unique_consecutive": unique_consecutive,
           "repeat_interleave.Tensor": repeat_interleave}
