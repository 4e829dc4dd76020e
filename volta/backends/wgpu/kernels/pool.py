"""Max pooling (1d/2d/3d, batched or not): one thread per output element walks its window;
indices are flat per plane, as PyTorch returns them. The backward pass adds each gradient at
its index with atomics (``indexing._accumulate``)."""

from __future__ import annotations

import math
from collections.abc import Sequence

from volta import dtypes as D
from volta.backends.wgpu import runtime
from volta.backends.wgpu.kernels.elementwise import load, store
from volta.backends.wgpu.kernels.indexing import _accumulate
from volta.backends.wgpu.storage import STORED, empty, handle_of, runtime_of
from volta.errors import InvalidArgumentError, ShapeError
from volta.tensor.tensor import Tensor

_SOURCES: dict[tuple, str] = {}


def _out_size(size: int, k: int, s: int, p: int, d: int, ceil_mode: bool) -> int:
    """PyTorch's pooling_output_shape (the last window must start inside input or padding)."""
    out = (size + 2 * p - d * (k - 1) - 1 + (s - 1 if ceil_mode else 0)) // s + 1
    if ceil_mode and (out - 1) * s >= size + p:
        out -= 1
    if out < 1:
        raise ShapeError(f"max_pool: output size {out} is too small for input size {size}")
    return out


def _source(nd: int, dt: D.dtype) -> str:
    key = (nd, dt)
    src = _SOURCES.get(key)
    if src is not None:
        return src
    # words: total, plane_size, then per spatial dim j: out, size, kernel, stride, pad, dilation
    w = [[2 + 6 * j + f for f in range(6)] for j in range(nd)]
    lines = ["  var rem = idx;"]
    for j in range(nd - 1, -1, -1):
        lines.append(f"  let o{j} = rem % pu({w[j][0]}u); rem = rem / pu({w[j][0]}u);")
    lines += ["  let base = rem * pu(1u);", "  var best = 0.0;", "  var bi = -1;"]
    indent = "  "
    for j in range(nd):
        lines.append(f"{indent}for (var t{j} = 0u; t{j} < pu({w[j][2]}u); t{j} = t{j} + 1u) {{")
        indent += "  "
        lines.append(f"{indent}let i{j} = i32(o{j} * pu({w[j][3]}u) + t{j} * pu({w[j][5]}u)) - "
                     f"pi({w[j][4]}u);")
        lines.append(f"{indent}if (i{j} < 0 || i{j} >= pi({w[j][1]}u)) {{ continue; }}")
    flat = "i0"
    for j in range(1, nd):
        flat = f"({flat}) * pi({w[j][1]}u) + i{j}"
    lines += [f"{indent}let flat = {flat};",
              f"{indent}let v = f32({load('b3[base + u32(flat)]', dt)});",
              f"{indent}if (bi < 0 || v > best || isn(v)) {{ best = v; bi = flat; }}"]
    for _ in range(nd):
        indent = indent[:-2]
        lines.append(f"{indent}}}")
    lines += [f"  b1[idx] = {store('best', dt)};", "  b2[idx] = bi;"]
    src = _SOURCES[key] = (
        ("enable f16;\n" if dt is D.float16 else "") + runtime.PARAMS_WGSL +
        f"@group(0) @binding(1) var<storage, read_write> b1: array<{STORED[dt][0]}>;\n"
        "@group(0) @binding(2) var<storage, read_write> b2: array<i32>;\n"
        f"@group(0) @binding(3) var<storage, read> b3: array<{STORED[dt][0]}>;\n"
        "fn isn(x: f32) -> bool { return (bitcast<u32>(x) & 0x7fffffffu) > 0x7f800000u; }\n"
        f"@compute @workgroup_size({runtime.WORKGROUP})\n"
        "fn main(@builtin(global_invocation_id) gid: vec3<u32>,\n"
        "        @builtin(num_workgroups) nwg: vec3<u32>) {\n"
        f"  let idx = gid.x + gid.y * nwg.x * {runtime.WORKGROUP}u;\n"
        "  if (idx >= pu(0u)) { return; }\n" + "\n".join(lines) + "\n}\n")
    return src


def max_pool_with_indices(self: Tensor, kernel_size: Sequence[int], stride: Sequence[int],
                          padding: Sequence[int], dilation: Sequence[int], ceil_mode: bool
                          ) -> tuple[Tensor, Tensor]:
    nd = len(kernel_size)
    if nd not in (1, 2, 3) or self.ndim not in (nd + 1, nd + 2):
        raise ShapeError(f"max_pool{nd}d: expected a {nd + 1}D or {nd + 2}D input, got "
                         f"{self.ndim}D")

    def expand(v: Sequence[int], name: str) -> list[int]:
        v = list(v) or list(kernel_size)
        if len(v) == 1:
            v = v * nd
        if len(v) != nd:
            raise InvalidArgumentError(f"max_pool{nd}d: {name} must have {nd} elements")
        return [int(x) for x in v]

    k, s = expand(kernel_size, "kernel_size"), expand(stride, "stride")
    p, d = expand(padding or [0], "padding"), expand(dilation or [1], "dilation")
    for kj, pj, dj in zip(k, p, d, strict=True):
        if 2 * pj > dj * (kj - 1) + 1:
            raise InvalidArgumentError("pad should be at most half of effective kernel size")
    x = self.contiguous()
    spatial = x._shape[-nd:]
    out_sp = [_out_size(n, kj, sj, pj, dj, ceil_mode)
              for n, kj, sj, pj, dj in zip(spatial, k, s, p, d, strict=True)]
    shape = x._shape[:-nd] + tuple(out_sp)
    values = empty(shape, self.dtype, self._device)
    indices = empty(shape, D.int64, self._device)
    total = math.prod(shape)
    if total:
        params = [total, math.prod(spatial)]
        for j in range(nd):
            params += [out_sp[j], spatial[j], k[j], s[j], p[j], d[j]]
        rt = runtime_of(self)
        kernel = rt.kernel(_source(nd, self.dtype), (True, True, False))
        rt.dispatch(kernel, [handle_of(values), handle_of(indices), handle_of(x)],
                    runtime.pack(params), runtime.groups_for(total))
    return values, indices


def max_pool_backward(grad_output: Tensor, self: Tensor, indices: Tensor) -> Tensor:
    nd = indices.ndim - 2  # as the CPU kernel: pooling composites always pass (N, C, *)
    grad_in = empty(self._shape, grad_output.dtype, self._device).fill_(0)
    plane = math.prod(self._shape[-nd:])
    lead = len(self._shape) - nd
    shape = indices._shape
    out_view = grad_in._view_of(shape, grad_in._stride[:lead] + (0,) * nd, 0)
    _accumulate(grad_in, grad_output, indices, out_view, 1, plane)
    return grad_in


KERNELS = {"max_pool_with_indices": max_pool_with_indices, "max_pool_backward": max_pool_backward}
