"""Reductions over any set of dimensions: one workgroup per output element, each thread folding
a strided slice of the reduced elements, then a tree reduction in workgroup memory.

Few outputs over many elements (``x.sum()`` of a feature map) would leave the GPU idle with
one workgroup per output, so such reductions split: each output's reduced range is cut into
``P`` chunks, one workgroup per (output, chunk) writes a partial in the accumulator type, and
a second reduction folds the partials (NaN handling and integer accumulation are the same in
both passes, so the result equals the one-pass one up to float summation order).

The input is addressed through its strides (no copy): output coordinates pick the start, the
reduced coordinates walk the rest. ``r`` counts reduced elements in row-major order of the
reduced dimensions, so argmax/argmin over all dimensions get the flat index PyTorch returns.
"""

from __future__ import annotations

import math
from typing import Any

from volta import dtypes as D
from volta.backends.wgpu import runtime
from volta.backends.wgpu.kernels.elementwise import (
    MAX_DIMS,
    collapse,
    load,
    raise_too_many_dims,
    store,
)
from volta.backends.wgpu.storage import STORED, empty, handle_of, runtime_of
from volta.composites.views import wrap_dim, wrap_dims
from volta.errors import DTypeError, ShapeError
from volta.tensor.checks import check_arg_reduction_dtype
from volta.tensor.tensor import Tensor

WG = 128

# combine(acc, v) per reduction; INIT per accumulator type
_COMBINE = {
    "sum": "acc = acc + v;",
    "prod": "acc = acc * v;",
    "max": "if (v > acc || isn(v)) { acc = v; }",
    "min": "if (v < acc || isn(v)) { acc = v; }",
    "any": "acc = max(acc, v);",
    "all": "acc = min(acc, v);",
}
_INIT = {("sum", "f32"): "0.0", ("sum", "i32"): "0", ("prod", "f32"): "1.0", ("prod", "i32"): "1",
         ("max", "f32"): "-bitcast<f32>(0x7f800000u)", ("max", "i32"): "-2147483647 - 1",
         ("min", "f32"): "bitcast<f32>(0x7f800000u)", ("min", "i32"): "2147483647",
         ("any", "i32"): "0", ("all", "i32"): "1"}
# arg reductions: (v, i) replaces (acc, ai) when better, or equal with a smaller index;
# NaN beats everything (PyTorch propagates it), the first NaN wins
_ARG_BETTER = {"max": "(v > acc || (isn(v) && !isn(acc)))",
               "min": "(v < acc || (isn(v) && !isn(acc)))"}
# NaN test by bits: drivers may fold x != x away
_ISNAN = {"f32": "fn isn(x: f32) -> bool {\n"
                 "  return (bitcast<u32>(x) & 0x7fffffffu) > 0x7f800000u; }\n",
          "i32": "fn isn(x: i32) -> bool { return false; }\n"}

_SOURCES: dict[tuple, str] = {}


def _source(kind: str, arg: bool, acc: str, in_dt: D.dtype, out_dt: D.dtype, nd_out: int,
            nd_red: int, mean: bool) -> str:
    key = (kind, arg, acc, in_dt, out_dt, nd_out, nd_red, mean)
    src = _SOURCES.get(key)
    if src is not None:
        return src
    # words: nout, R, in_offset, scale, [size, stride] per output dim, [size, stride] per reduced,
    # chunks P, chunk length L (workgroup gid folds chunk gid % P of output gid / P)
    chunks = 4 + 2 * (nd_out + nd_red)
    lines = ["  var rem = o;", "  var base = pu(2u);"]
    for d in range(nd_out - 1, -1, -1):
        w = 4 + 2 * d
        lines.append(f"  base = base + (rem % pu({w}u)) * pu({w + 1}u); rem = rem / pu({w}u);")
    red = ["      var rr = r;", "      var e = base;"]
    for d in range(nd_red - 1, -1, -1):
        w = 4 + 2 * nd_out + 2 * d
        red.append(f"      e = e + (rr % pu({w}u)) * pu({w + 1}u); rr = rr / pu({w}u);")
    value = f"{acc}({load('b2[e]', in_dt)})"
    if kind in ("any", "all"):
        value = f"i32(bool({load('b2[e]', in_dt)}))"
    if arg:
        fold = f"      if ({_ARG_BETTER[kind]}) {{ acc = v; ai = i32(r); }}"
        merge = ("      let v = sv[l + s]; let i = si[l + s];\n"
                 f"      if ({_ARG_BETTER[kind]} || (v == acc && i < ai) || "
                 "(isn(v) && isn(acc) && i < ai)) { acc = v; ai = i; }\n"
                 "      sv[l] = acc; si[l] = ai;")
    else:
        fold = f"      {_COMBINE[kind]}"
        merge = f"      let v = sv[l + s]; {_COMBINE[kind]} sv[l] = acc;"
    result = "acc * pf(3u)" if mean else "acc"
    outputs = ("@group(0) @binding(1) var<storage, read_write> b1: "
               f"array<{STORED[out_dt][0]}>;\n")
    if arg:
        outputs = "@group(0) @binding(1) var<storage, read_write> b1: array<i32>;\n"
    src = (("enable f16;\n" if D.float16 in (in_dt, out_dt) else "") + runtime.PARAMS_WGSL +
           outputs +
           f"@group(0) @binding(2) var<storage, read> b2: array<{STORED[in_dt][0]}>;\n"
           f"var<workgroup> sv: array<{acc}, {WG}>;\n" + _ISNAN[acc]
           + (f"var<workgroup> si: array<i32, {WG}>;\n" if arg else "") +
           f"@compute @workgroup_size({WG})\n"
           "fn main(@builtin(workgroup_id) wid: vec3<u32>,\n"
           "        @builtin(num_workgroups) nwg: vec3<u32>,\n"
           "        @builtin(local_invocation_id) lid: vec3<u32>) {\n"
           "  let gid = wid.x + wid.y * nwg.x;\n"
           f"  let o = gid / pu({chunks}u);\n"
           "  let l = lid.x;\n"
           "  if (o >= pu(0u)) { return; }\n"
           f"  let r0 = (gid % pu({chunks}u)) * pu({chunks + 1}u);\n"
           f"  let r1 = min(r0 + pu({chunks + 1}u), pu(1u));\n"
           + "\n".join(lines) + "\n"
           f"  var acc: {acc} = {_INIT[(kind, acc)]};\n"
           + ("  var ai: i32 = 2147483647;\n" if arg else "") +
           f"  for (var r = r0 + l; r < r1; r = r + {WG}u) {{\n"
           + "\n".join(red) + "\n"
           f"      let v = {value};\n{fold}\n  }}\n"
           "  sv[l] = acc;\n" + ("  si[l] = ai;\n" if arg else "") +
           "  workgroupBarrier();\n"
           f"  for (var s = {WG // 2}u; s > 0u; s = s >> 1u) {{\n"
           "    if (l < s) {\n" + merge + "\n    }\n    workgroupBarrier();\n  }\n"
           "  if (l == 0u) {\n"
           + ("    b1[gid] = si[0];\n" if arg else
              f"    let acc = sv[0];\n    b1[gid] = {store(result, out_dt)};\n") +
           "  }\n}\n")
    _SOURCES[key] = src
    return src


# split a reduction when each output has more than this many elements to fold and there are too
# few outputs to fill the GPU; a chunk keeps every thread of its workgroup busy for a while
_CHUNK = WG * 32
_TARGET_GROUPS = 8192


def _chunks(nout: int, red: int, arg: bool) -> int:
    """How many chunks each output's reduced range is cut into (1: one pass)."""
    if arg or red <= 4 * _CHUNK or nout >= _TARGET_GROUPS:
        return 1  # arg reductions would need (value, index) partials: they stay one-pass
    return max(1, min(-(-red // _CHUNK), _TARGET_GROUPS // nout))


def _reduce(self: Tensor, dims: tuple[int, ...], keepdim: bool, kind: str, out_dt: D.dtype,
            arg: bool = False, mean: bool = False, scale: float | None = None) -> Tensor:
    """Reduce ``self`` over ``dims`` (wrapped, sorted) into a new tensor of ``out_dt``;
    ``mean`` multiplies by ``scale`` (default 1 / the number of reduced elements)."""
    shape, strides = self._shape, self._stride
    kept = [d for d in range(len(shape)) if d not in dims]
    out_shape = tuple(1 if d in dims else shape[d] for d in range(len(shape))) if keepdim \
        else tuple(shape[d] for d in kept)
    nout = math.prod(shape[d] for d in kept)
    red = math.prod(shape[d] for d in dims)
    if nout == 0:
        return empty(out_shape, D.int64 if arg else out_dt, self._device)
    o_shape, (o_strides,) = collapse([shape[d] for d in kept], [[strides[d] for d in kept]])
    r_shape, (r_strides,) = collapse([shape[d] for d in dims], [[strides[d] for d in dims]])
    if len(o_shape) > MAX_DIMS or len(r_shape) > MAX_DIMS:
        raise_too_many_dims(max(len(o_shape), len(r_shape)))
    acc = "f32" if self.dtype.is_floating_point or (mean and out_dt.is_floating_point) else "i32"
    if kind in ("any", "all"):
        acc = "i32"
    if scale is None:
        scale = float(1.0 / red) if red else float("nan")
    chunks = _chunks(nout, red, arg)
    if chunks > 1:  # first pass: partials [nout, chunks] in the accumulator's dtype
        partial_dt = D.float32 if acc == "f32" else D.int32
        out = empty((nout, chunks), partial_dt, self._device)
        src = _source(kind, False, acc, self.dtype, partial_dt, len(o_shape), len(r_shape),
                      False)
    else:
        out = empty(out_shape, D.int64 if arg else out_dt, self._device)
        src = _source(kind, arg, acc, self.dtype, out_dt, len(o_shape), len(r_shape), mean)
    length = -(-red // chunks)
    params = [nout, red, self._offset, scale]
    for size, stride in zip(o_shape, o_strides, strict=True):
        params += [size, stride]
    for size, stride in zip(r_shape, r_strides, strict=True):
        params += [size, stride]
    params += [chunks, length]
    rt = runtime_of(self)
    if D.float16 in (self.dtype, out_dt):
        rt.require_f16("wgpu reduction")
    kernel = rt.kernel(src, (True, False))
    groups = nout * chunks
    gx = min(groups, runtime.MAX_GROUPS_X)
    rt.dispatch(kernel, [handle_of(out), handle_of(self)], runtime.pack(params),
                (gx, -(-groups // gx), 1))
    if chunks == 1:
        return out
    # second pass over the partials; "any"/"all" partials are 0/1, so they fold the same way
    folded = _reduce(out, (1,), False, kind, out_dt, mean=mean, scale=scale)
    return folded.reshape(out_shape)


def _dims(dim: Any, ndim: int, op: str) -> tuple[int, ...]:
    if dim is None or (not isinstance(dim, int) and len(dim) == 0):
        return tuple(range(ndim))
    if isinstance(dim, int):
        dims = (wrap_dim(dim, ndim, op),)
    else:
        dims = tuple(sorted(set(wrap_dims(dim, ndim, op))))
    return dims if ndim else ()  # a 0-d tensor takes dim 0 or -1 and has nothing to reduce


def _nonempty(self: Tensor, dims: tuple[int, ...], op: str) -> None:
    if self.numel() == 0 and (len(dims) == self.ndim or any(self._shape[d] == 0 for d in dims)):
        raise ShapeError(f"{op}(): Expected reduction dim to be specified for input.numel() == 0.")


def sum_(self: Tensor, dim: Any = None, keepdim: bool = False, dtype: Any = None) -> Tensor:
    out = dtype or (self.dtype if self.dtype.is_floating_point else D.int64)
    return _reduce(self, _dims(dim, self.ndim, "sum"), keepdim, "sum", out)


def mean(self: Tensor, dim: Any = None, keepdim: bool = False, dtype: Any = None) -> Tensor:
    out = dtype or self.dtype
    if not out.is_floating_point:
        raise DTypeError(f"mean(): could not infer output dtype. Input dtype must be either a "
                         f"floating point or complex dtype. Got: {self.dtype.name}")
    return _reduce(self, _dims(dim, self.ndim, "mean"), keepdim, "sum", out, mean=True)


def prod(self: Tensor, dim: int | None = None, keepdim: bool = False, dtype: Any = None
         ) -> Tensor:
    out = dtype or (self.dtype if self.dtype.is_floating_point else D.int64)
    return _reduce(self, _dims(dim, self.ndim, "prod"), keepdim, "prod", out)


def _extreme(kind: str) -> Any:
    def full(self: Tensor) -> Tensor:
        dims = tuple(range(self.ndim))
        _nonempty(self, dims, kind)
        return _reduce(self, dims, False, kind, self.dtype)

    def along(self: Tensor, dim: Any = (), keepdim: bool = False) -> Tensor:
        dims = _dims(dim, self.ndim, f"a{kind}")
        _nonempty(self, dims, f"a{kind}")
        return _reduce(self, dims, keepdim, kind, self.dtype)

    def with_indices(self: Tensor, dim: int, keepdim: bool = False) -> tuple[Tensor, Tensor]:
        dims = _dims(dim, self.ndim, kind)
        _nonempty(self, dims, kind)
        return (_reduce(self, dims, keepdim, kind, self.dtype),
                _reduce(self, dims, keepdim, kind, self.dtype, arg=True))

    def arg(self: Tensor, dim: int | None = None, keepdim: bool = False) -> Tensor:
        check_arg_reduction_dtype(f"arg{kind}", self)
        dims = _dims(dim, self.ndim, f"arg{kind}")
        _nonempty(self, dims, f"arg{kind}")
        result = _reduce(self, dims, keepdim and dim is not None, kind, self.dtype, arg=True)
        if dim is None and keepdim:
            return result.reshape((1,) * self.ndim)
        return result

    return full, along, with_indices, arg


def _logical(kind: str) -> Any:
    def fn(self: Tensor, dim: Any = None, keepdim: bool = False) -> Tensor:
        if dim is not None and not isinstance(dim, int) and len(dim) == 0:
            # each element's truth value (Note [all/any over no dims] in the CPU kernels)
            return _reduce(self, (), False, kind, D.bool_)
        return _reduce(self, _dims(dim, self.ndim, kind), keepdim, kind, D.bool_)
    return fn


_MAX, _AMAX, _MAX_DIM, _ARGMAX = _extreme("max")
_MIN, _AMIN, _MIN_DIM, _ARGMIN = _extreme("min")

KERNELS = {"sum": sum_, "mean": mean, "prod": prod, "max": _MAX, "amax": _AMAX,
           "max.dim": _MAX_DIM, "argmax": _ARGMAX, "min": _MIN, "amin": _AMIN,
           "min.dim": _MIN_DIM, "argmin": _ARGMIN, "any": _logical("any"),
           "all": _logical("all")}
