"""Pooling. Max pooling (1d/2d/3d, batched or not, fixed or adaptive windows): one thread per
output element walks its window; indices are flat per plane, as PyTorch returns them. The
backward pass adds each gradient at its index with atomics (``indexing._accumulate``).

Average pooling, fixed or adaptive, is separable: per spatial dimension, a 0/1 matrix (output
position x input position, a function of the sizes alone, built on the host) says which inputs
each window sums, so the pool is one matmul per dimension on the device and a division by the
window sizes (aten's divisor rules); the backward pass multiplies by the same matrices
transposed.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np

from volta import dtypes as D
from volta.backends.wgpu import runtime
from volta.backends.wgpu.kernels.elementwise import load, store
from volta.backends.wgpu.kernels.indexing import _accumulate
from volta.backends.wgpu.kernels.rows import fresh
from volta.backends.wgpu.storage import STORED, empty, handle_of, runtime_of
from volta.errors import InvalidArgumentError, ShapeError
from volta.tensor.factories import _from_host
from volta.tensor.tensor import Tensor

_SOURCES: dict[tuple, str] = {}


def _out_size(size: int, k: int, s: int, p: int, d: int, ceil_mode: bool,
              op: str = "max_pool") -> int:
    """PyTorch's pooling_output_shape (the last window must start inside input or padding)."""
    out = (size + 2 * p - d * (k - 1) - 1 + (s - 1 if ceil_mode else 0)) // s + 1
    if ceil_mode and (out - 1) * s >= size + p:
        out -= 1
    if out < 1:
        raise ShapeError(f"{op}: output size {out} is too small for input size {size}")
    return out


def _source(nd: int, dt: D.dtype, adaptive: bool = False) -> str:
    key = (nd, dt, adaptive)
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
        if adaptive:  # window [floor(o * In / Out), ceil((o + 1) * In / Out))
            out, size = f"pu({w[j][0]}u)", f"pu({w[j][1]}u)"
            lines.append(f"{indent}let s{j} = o{j} * {size} / {out}; "
                         f"let n{j} = ((o{j} + 1u) * {size} + {out} - 1u) / {out} - s{j};")
            lines.append(f"{indent}for (var t{j} = 0u; t{j} < n{j}; t{j} = t{j} + 1u) {{")
            indent += "  "
            lines.append(f"{indent}let i{j} = i32(s{j} + t{j});")
        else:
            lines.append(f"{indent}for (var t{j} = 0u; t{j} < pu({w[j][2]}u); "
                         f"t{j} = t{j} + 1u) {{")
            indent += "  "
            lines.append(f"{indent}let i{j} = i32(o{j} * pu({w[j][3]}u) + t{j} * pu({w[j][5]}u))"
                         f" - pi({w[j][4]}u);")
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
    spatial = self._shape[-nd:]
    out_sp = [_out_size(n, kj, sj, pj, dj, ceil_mode)
              for n, kj, sj, pj, dj in zip(spatial, k, s, p, d, strict=True)]
    windows = [[kj, sj, pj, dj] for kj, sj, pj, dj in zip(k, s, p, d, strict=True)]
    return _max_over_windows(self, out_sp, windows, adaptive=False)


def _max_over_windows(self: Tensor, out_sp: Sequence[int], windows: Sequence[Sequence[int]],
                      adaptive: bool) -> tuple[Tensor, Tensor]:
    """Values and flat per-plane indices of the maxima over each output position's window
    (``windows[j]``: kernel, stride, pad, dilation of dimension j; unused when adaptive)."""
    nd = len(out_sp)
    x = fresh(self)
    spatial = x._shape[-nd:]
    shape = x._shape[:-nd] + tuple(out_sp)
    values = empty(shape, self.dtype, self._device)
    indices = empty(shape, D.int64, self._device)
    total = math.prod(shape)
    if total:
        params = [total, math.prod(spatial)]
        for j in range(nd):
            params += [out_sp[j], spatial[j], *windows[j]]
        rt = runtime_of(self)
        kernel = rt.kernel(_source(nd, self.dtype, adaptive), (True, True, False))
        rt.dispatch(kernel, [handle_of(values), handle_of(indices), handle_of(x)],
                    runtime.pack(params), runtime.groups_for(total))
    return values, indices


def adaptive_max_pool(self: Tensor, output_size: Sequence[int]) -> tuple[Tensor, Tensor]:
    nd = len(output_size)
    out_sp = _adaptive_sizes(self, output_size)
    return _max_over_windows(self, out_sp, [[0, 0, 0, 0]] * nd, adaptive=True)


def _adaptive_sizes(self: Tensor, output_size: Sequence[int | None]) -> list[int]:
    nd = len(output_size)
    if self.ndim < nd + 1:
        raise ShapeError(f"adaptive pooling over {nd} dimensions expects a {nd + 1}D or "
                         f"{nd + 2}D input, got {self.ndim}D")
    spatial = self._shape[-nd:]
    out = [n if o is None else int(o) for o, n in zip(output_size, spatial, strict=True)]
    if min(out, default=1) < 0:
        raise ShapeError("adaptive pooling output size must be non-negative")
    return out


# -- average pooling: one matmul per spatial dimension -------------------------------------------


def _window_matrix(starts: np.ndarray, ends: np.ndarray, size: int, like: Tensor) -> Tensor:
    """(outputs, size) 0/1 float matrix: row o marks the inputs in [starts[o], ends[o])."""
    pos = np.arange(size)
    member = (pos >= starts[:, None]) & (pos < ends[:, None])
    return _from_host(member.astype(np.float32), like._device)


def _contract(x: Tensor, matrices: Sequence[Tensor], transpose: bool) -> Tensor:
    """``x`` (planes, *spatial) with spatial dimension j multiplied by ``matrices[j]`` (or its
    transpose), one dimension at a time."""
    for j, m in enumerate(matrices):
        moved = x.movedim(j + 1, -1)
        x = (moved @ (m if transpose else m.T)).movedim(-1, j + 1)
    return x


def _avg_plan(self: Tensor, kernel_size: Sequence[int], stride: Sequence[int],
              padding: Sequence[int], ceil_mode: bool, count_include_pad: bool,
              divisor_override: int | None) -> tuple[list[Tensor], Tensor, list[int]]:
    """Window matrices, the divisor of every output position and the output spatial sizes."""
    nd = len(kernel_size)
    if self.ndim not in (nd + 1, nd + 2):
        raise ShapeError(f"avg_pool{nd}d: expected a {nd + 1}D or {nd + 2}D input, got "
                         f"{self.ndim}D")

    def expand(v: Sequence[int]) -> list[int]:
        v = list(v) or list(kernel_size)
        return [int(x) for x in (v * nd if len(v) == 1 else v)]

    k, s, p = expand(kernel_size), expand(stride), expand(padding or [0])
    if any(2 * pj > kj for kj, pj in zip(k, p, strict=True)):
        raise InvalidArgumentError("pad should be at most half of kernel size")
    if divisor_override is not None and divisor_override == 0:
        raise InvalidArgumentError("divisor must be not zero")
    spatial = self._shape[-nd:]
    matrices, divisor, out_sp = [], np.ones((1,) * nd), []
    for j in range(nd):
        n = spatial[j]
        out = _out_size(n, k[j], s[j], p[j], 1, ceil_mode, f"avg_pool{nd}d")
        start = np.arange(out) * s[j] - p[j]
        end = np.minimum(start + k[j], n + p[j])  # aten: the window stops at the padding
        inside = np.minimum(end, n) - np.maximum(start, 0)
        counts = end - start if count_include_pad else inside
        shape = [1] * nd
        shape[j] = out
        divisor = divisor * counts.reshape(shape)
        matrices.append(_window_matrix(np.maximum(start, 0), np.minimum(end, n), n, self))
        out_sp.append(out)
    if divisor_override is not None:
        divisor = np.full(divisor.shape, float(divisor_override))
    return matrices, _from_host(divisor.astype(np.float32), self._device), out_sp


def _planes(self: Tensor, nd: int) -> Tensor:
    return self.reshape((-1,) + self._shape[self.ndim - nd:]).to(D.float32)


def avg_pool(self: Tensor, kernel_size: Sequence[int], stride: Sequence[int],
             padding: Sequence[int], ceil_mode: bool, count_include_pad: bool,
             divisor_override: int | None) -> Tensor:
    matrices, divisor, out_sp = _avg_plan(self, kernel_size, stride, padding, ceil_mode,
                                          count_include_pad, divisor_override)
    nd = len(matrices)
    pooled = _contract(_planes(self, nd), matrices, transpose=False) / divisor
    return pooled.reshape(self._shape[:self.ndim - nd] + tuple(out_sp)).to(self.dtype)


def avg_pool_backward(grad_output: Tensor, self: Tensor, kernel_size: Sequence[int],
                      stride: Sequence[int], padding: Sequence[int], ceil_mode: bool,
                      count_include_pad: bool, divisor_override: int | None) -> Tensor:
    matrices, divisor, _ = _avg_plan(self, kernel_size, stride, padding, ceil_mode,
                                     count_include_pad, divisor_override)
    nd = len(matrices)
    g = _planes(grad_output, nd) / divisor
    return _contract(g, matrices, transpose=True).reshape(self._shape).to(self.dtype)


def _adaptive_matrices(sizes: Sequence[int], outs: Sequence[int], like: Tensor
                       ) -> tuple[list[Tensor], Tensor]:
    """Window matrices of adaptive pooling and the window sizes (as a divisor)."""
    nd = len(sizes)
    matrices, divisor = [], np.ones((1,) * nd)
    for j, (n, o) in enumerate(zip(sizes, outs, strict=True)):
        i = np.arange(o)
        start, end = (i * n) // o, -((-(i + 1) * n) // o)
        matrices.append(_window_matrix(start, end, n, like))
        shape = [1] * nd
        shape[j] = o
        divisor = divisor * (end - start).reshape(shape)
    return matrices, _from_host(divisor.astype(np.float32), like._device)


def adaptive_avg_pool(self: Tensor, output_size: Sequence[int]) -> Tensor:
    nd = len(output_size)
    out_sp = _adaptive_sizes(self, output_size)
    matrices, divisor = _adaptive_matrices(self._shape[-nd:], out_sp, self)
    pooled = _contract(_planes(self, nd), matrices, transpose=False) / divisor
    return pooled.reshape(self._shape[:self.ndim - nd] + tuple(out_sp)).to(self.dtype)


def adaptive_avg_pool_backward(grad_output: Tensor, self: Tensor) -> Tensor:
    # the pooled dims are those whose size changed; the others map through identity windows
    sizes, outs = self._shape, grad_output._shape
    matrices, divisor = _adaptive_matrices(sizes, outs, self)
    g = (grad_output.to(D.float32) / divisor).unsqueeze(0)
    return _contract(g, matrices, transpose=True).squeeze(0).to(self.dtype)


def max_pool_backward(grad_output: Tensor, self: Tensor, indices: Tensor) -> Tensor:
    nd = indices.ndim - 2  # as the CPU kernel: pooling composites always pass (N, C, *)
    grad_in = empty(self._shape, grad_output.dtype, self._device).fill_(0)
    plane = math.prod(self._shape[-nd:])
    lead = len(self._shape) - nd
    shape = indices._shape
    out_view = grad_in._view_of(shape, grad_in._stride[:lead] + (0,) * nd, 0)
    _accumulate(grad_in, grad_output, indices, out_view, 1, plane)
    return grad_in


KERNELS = {"max_pool_with_indices": max_pool_with_indices, "max_pool_backward": max_pool_backward,
           "adaptive_max_pool": adaptive_max_pool, "avg_pool": avg_pool,
           "avg_pool_backward": avg_pool_backward, "adaptive_avg_pool": adaptive_avg_pool,
           "adaptive_avg_pool_backward": adaptive_avg_pool_backward}
