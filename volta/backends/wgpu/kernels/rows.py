"""Kernels along one dimension ("rows"): cumsum/cumprod, searchsorted, and the helpers the
sort (``sort.py``) and other row kernels share.

The dimension is moved last and made contiguous, so a row is a run of ``n`` elements. A scan is
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
from volta.errors import DTypeError, ShapeError
from volta.tensor.checks import (
    check_scan_dtype,
    check_searchsorted_dtype,
    check_searchsorted_sorter,
    searchsorted_side,
)
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


# -- scans -------------------------------------------------------------------------------------

SCAN_COLUMNS = 50_000  # columns one dispatch scans per row


def _scan(self: Tensor, dim: int, dtype: Any, op: str, combine: str) -> Tensor:
    check_scan_dtype(op, self, dtype)
    out_dt = dtype or (self.dtype if self.dtype.is_floating_point else D.int64)
    if out_dt not in STORED:  # a dtype= the device cannot store (float64)
        return cpu_path(op, self, dim, dtype)
    if self.ndim == 0:
        return self.to(out_dt).clone()
    rows, d = as_rows(self.to(out_dt), dim, op)
    out = empty(rows._shape, out_dt, self._device)
    n = rows._shape[-1]
    ty = _compute_type(out_dt)
    identity = f"{ty}({'0' if combine == '+' else '1'})"
    # columns pu(2u)..pu(3u) of each row, carrying on from the last one written: lavapipe stops
    # an invocation after 65,535 loop iterations (Note [lavapipe loop budget] in
    # linalg_decomp.py), so long rows are scanned in several dispatches
    body = (f"  let base = idx * pu(1u);\n"
            f"  var acc = {identity};\n"
            f"  if (pu(2u) > 0u) {{ acc = {ty}({load('b1[base + pu(2u) - 1u]', out_dt)}); }}\n"
            "  for (var j = pu(2u); j < pu(3u); j = j + 1u) {\n"
            f"    acc = acc {combine} {ty}({load('b2[base + j]', out_dt)});\n"
            f"    b1[base + j] = {store('acc', out_dt)};\n  }}")
    for first in range(0, n, SCAN_COLUMNS):
        run(body, rows.numel() // n, [(out, True), (rows, False)],
            [n, first, min(first + SCAN_COLUMNS, n)])
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
    check_searchsorted_dtype(sorted_sequence, self)
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


KERNELS = {"cumsum": cumsum, "cumprod": cumprod, "searchsorted": searchsorted}

