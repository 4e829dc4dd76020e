"""Fused neural-network kernels: softmax / log_softmax along any dimension (one workgroup per
row: max, sum of exponentials and the write in one dispatch) and their backward formulas."""

from __future__ import annotations

import math
from typing import Any

from volta import dtypes as D
from volta.backends.wgpu import runtime
from volta.backends.wgpu.kernels.copy import check_dtype
from volta.backends.wgpu.kernels.elementwise import (
    MAX_DIMS,
    collapse,
    load,
    raise_too_many_dims,
    store,
)
from volta.backends.wgpu.storage import STORED, empty, handle_of, runtime_of
from volta.composites.views import wrap_dim
from volta.errors import DTypeError
from volta.tensor.tensor import Tensor

WG = 128
_SOURCES: dict[tuple, str] = {}


def _source(log: bool, in_dt: D.dtype, out_dt: D.dtype, nd: int) -> str:
    key = (log, in_dt, out_dt, nd)
    src = _SOURCES.get(key)
    if src is not None:
        return src
    # words: nrows, R, in_offset, in_stride_dim, out_stride_dim, then per kept dim
    # (size, in_stride, out_stride)
    walk = ["  var rem = o;", "  var ib = pu(2u);", "  var ob = 0u;"]
    for d in range(nd - 1, -1, -1):
        w = 5 + 3 * d
        walk.append(f"  let c{d} = rem % pu({w}u); rem = rem / pu({w}u);")
        walk.append(f"  ib = ib + c{d} * pu({w + 1}u); ob = ob + c{d} * pu({w + 2}u);")
    x = load("b2[ib + r * pu(3u)]", in_dt)
    result = "(x - mx) - log(total)" if log else "exp(x - mx) / total"
    tree = ("  workgroupBarrier();\n"
            f"  for (var s = {WG // 2}u; s > 0u; s = s >> 1u) {{\n"
            "    if (l < s) { sv[l] = OP(sv[l], sv[l + s]); }\n    workgroupBarrier();\n  }\n")
    src = (("enable f16;\n" if D.float16 in (in_dt, out_dt) else "") + runtime.PARAMS_WGSL +
           f"@group(0) @binding(1) var<storage, read_write> b1: array<{STORED[out_dt][0]}>;\n"
           f"@group(0) @binding(2) var<storage, read> b2: array<{STORED[in_dt][0]}>;\n"
           f"var<workgroup> sv: array<f32, {WG}>;\n"
           f"@compute @workgroup_size({WG})\n"
           "fn main(@builtin(workgroup_id) wid: vec3<u32>,\n"
           "        @builtin(num_workgroups) nwg: vec3<u32>,\n"
           "        @builtin(local_invocation_id) lid: vec3<u32>) {\n"
           "  let o = wid.x + wid.y * nwg.x;\n  let l = lid.x;\n"
           "  if (o >= pu(0u)) { return; }\n" + "\n".join(walk) + "\n"
           "  var acc = -bitcast<f32>(0x7f800000u);\n"
           f"  for (var r = l; r < pu(1u); r = r + {WG}u) {{ acc = max(acc, f32({x})); }}\n"
           "  sv[l] = acc;\n" + tree.replace("OP", "max") +
           "  let mx = sv[0];\n  workgroupBarrier();\n  acc = 0.0;\n"
           f"  for (var r = l; r < pu(1u); r = r + {WG}u) {{ acc = acc + exp(f32({x}) - mx); }}\n"
           "  sv[l] = acc;\n" + tree.replace("OP(sv[l], sv[l + s])", "sv[l] + sv[l + s]") +
           "  let total = sv[0];\n"
           f"  for (var r = l; r < pu(1u); r = r + {WG}u) {{\n"
           f"    let x = f32({x});\n"
           f"    b1[ob + r * pu(4u)] = {store(result, out_dt)};\n  }}\n}}\n")
    _SOURCES[key] = src
    return src


def _softmax(self: Tensor, dim: int, dtype: Any, log: bool) -> Tensor:
    name = "log_softmax" if log else "softmax"
    out_dt = dtype or self.dtype
    if not out_dt.is_floating_point:
        raise DTypeError(f"{name}: expected a floating point dtype, got {out_dt.name}")
    check_dtype(out_dt, name)
    d = wrap_dim(dim, self.ndim, name)
    out = empty(self._shape, out_dt, self._device)
    if self.numel() == 0:
        return out
    shape = self._shape if self.ndim else (1,)
    in_strides = self._stride if self.ndim else (1,)
    out_strides = out._stride if self.ndim else (1,)
    kept = [i for i in range(len(shape)) if i != d]
    k_shape, (k_in, k_out) = collapse([shape[i] for i in kept], [[in_strides[i] for i in kept],
                                                                 [out_strides[i] for i in kept]])
    if len(k_shape) > MAX_DIMS:
        raise_too_many_dims(len(k_shape))
    rows = math.prod(k_shape)
    params = [rows, shape[d], self._offset, in_strides[d], out_strides[d]]
    for size, si, so in zip(k_shape, k_in, k_out, strict=True):
        params += [size, si, so]
    rt = runtime_of(self)
    if D.float16 in (self.dtype, out_dt):
        rt.require_f16(name)
    kernel = rt.kernel(_source(log, self.dtype, out_dt, len(k_shape)), (True, False))
    gx = min(rows, runtime.MAX_GROUPS_X)
    rt.dispatch(kernel, [handle_of(out), handle_of(self)], runtime.pack(params),
                (gx, -(-rows // gx), 1))
    return out


def softmax(self: Tensor, dim: int, dtype: Any = None) -> Tensor:
    return _softmax(self, dim, dtype, log=False)


def log_softmax(self: Tensor, dim: int, dtype: Any = None) -> Tensor:
    return _softmax(self, dim, dtype, log=True)


def softmax_backward(grad_output: Tensor, output: Tensor, dim: int, input_dtype: Any) -> Tensor:
    # y * (g - sum(g * y)): three pointwise/reduction dispatches on the device
    return output * (grad_output - (grad_output * output).sum(dim, keepdim=True))


def log_softmax_backward(grad_output: Tensor, output: Tensor, dim: int, input_dtype: Any
                         ) -> Tensor:
    return grad_output - output.exp() * grad_output.sum(dim, keepdim=True)


KERNELS = {"softmax": softmax, "log_softmax": log_softmax,
           "_softmax_backward_data": softmax_backward,
           "_log_softmax_backward_data": log_softmax_backward}
