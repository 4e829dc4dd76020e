"""The strided elementwise kernel every pointwise op, copy, cast and fill is made of.

One thread per output element. Each operand (a tensor view: storage offset and strides per
dimension, 0 where it is broadcast) is addressed from the output's coordinates, so views,
broadcasting and expand never copy. Dimensions that are contiguous for every operand are merged
first (:func:`collapse`), so most calls use a 1-D or 2-D variant of the shader.

Parameter words: ``numel, size[0..ndim), then per tensor operand: offset, stride[0..ndim)``,
then the scalar words. The shader source is cached per (body, ndim, operand types).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

import numpy as np

from volta import dtypes as D
from volta.backends.wgpu import runtime
from volta.backends.wgpu.storage import STORED, handle_of
from volta.errors import ShapeError
from volta.tensor.tensor import Tensor, contiguous_strides

MAX_DIMS = 8


def collapse(shape: Sequence[int], strides: Sequence[Sequence[int]]
             ) -> tuple[list[int], list[list[int]]]:
    """Drop size-1 dimensions and merge neighbours that are contiguous for every operand."""
    dims = [i for i, s in enumerate(shape) if s != 1]
    out_shape: list[int] = []
    out_strides: list[list[int]] = [[] for _ in strides]
    for i in dims:
        if out_shape and all(st[i] * shape[i] == o[-1] for st, o in zip(strides, out_strides,
                                                                         strict=True)):
            out_shape[-1] *= shape[i]
            for st, o in zip(strides, out_strides, strict=True):
                o[-1] = st[i]
            continue
        out_shape.append(shape[i])
        for st, o in zip(strides, out_strides, strict=True):
            o.append(st[i])
    return out_shape, out_strides


def broadcast_strides(t: Tensor, shape: tuple[int, ...]) -> list[int]:
    """``t``'s strides for reading it at ``shape`` (0 along broadcast dimensions)."""
    lead = len(shape) - len(t._shape)
    out = [0] * lead
    for size, stride in zip(t._shape, t._stride, strict=True):
        out.append(0 if size == 1 else stride)
    return out


def load(var: str, dt: D.dtype) -> str:
    """WGSL reading element ``var`` of storage of dtype ``dt``, as f32 / i32 / bool."""
    if dt is D.bool_:
        return f"({var} != 0u)"
    if dt is D.float16:
        return f"f32({var})"
    return var


def store(value: str, dt: D.dtype) -> str:
    """WGSL converting ``value`` (any scalar type) to the stored element type of ``dt``."""
    if dt is D.bool_:
        return f"u32(bool({value}))"
    return f"{STORED[dt][0]}({value})"


def _index_code(ndim: int, n_operands: int) -> tuple[str, list[str]]:
    lines = ["  var rem = idx;"]
    for d in range(ndim - 1, 0, -1):
        lines.append(f"  let c{d} = rem % pu({1 + d}u); rem = rem / pu({1 + d}u);")
    if ndim:
        lines.append("  let c0 = rem;")
    names = []
    for k in range(n_operands):
        base = 1 + ndim + k * (ndim + 1)
        terms = [f"pu({base}u)"] + [f"c{d} * pu({base + 1 + d}u)" for d in range(ndim)]
        lines.append(f"  let e{k} = {' + '.join(terms)};")
        names.append(f"e{k}")
    return "\n".join(lines), names


_SOURCES: dict[tuple, str] = {}


def shader(body: str, ndim: int, bindings: Sequence[tuple[str, bool]], n_operands: int,
           helpers: str = "", f16: bool = False) -> str:
    """The WGSL source: ``bindings`` are (storage type, writable) of bindings 1..n (named b1..);
    ``body`` may use ``idx``, ``e0..`` (element index of operand k) and the helpers."""
    key = (body, ndim, tuple(bindings), n_operands, helpers, f16)
    src = _SOURCES.get(key)
    if src is None:
        decls = "\n".join(
            f"@group(0) @binding({i + 1}) var<storage, {'read_write' if w else 'read'}> "
            f"b{i + 1}: array<{ty}>;" for i, (ty, w) in enumerate(bindings))
        index, _ = _index_code(ndim, n_operands)
        src = _SOURCES[key] = (
            ("enable f16;\n" if f16 else "") + runtime.PARAMS_WGSL + decls + "\n" +
            f"const nscalar_base: u32 = {1 + ndim + n_operands * (ndim + 1)}u;\n" + helpers +
            f"\n@compute @workgroup_size({runtime.WORKGROUP})\n"
            "fn main(@builtin(global_invocation_id) gid: vec3<u32>,\n"
            "        @builtin(num_workgroups) nwg: vec3<u32>) {\n"
            f"  let idx = gid.x + gid.y * nwg.x * {runtime.WORKGROUP}u;\n"
            "  if (idx >= pu(0u)) { return; }\n"
            f"{index}\n{body}\n}}\n")
    return src


class Launch:
    """Operands of one elementwise launch: the output first, then the tensor inputs.

    Buffers shared by several operands are bound once (``binding[k]`` is operand k's binding
    number), since a buffer bound twice in one dispatch may not be both read and written.
    """

    def __init__(self, out: Tensor, inputs: Sequence[Tensor],
                 extra_outputs: Sequence[Tensor] = ()) -> None:
        self.out = out
        shape = out._shape
        operands = [out, *extra_outputs, *inputs]
        self.n_outputs = 1 + len(extra_outputs)
        layout = out._stride
        if layout == contiguous_strides(shape) and all(
                t._shape == shape and t._stride == layout for t in operands):
            # every operand contiguous in the output's shape (the common case): one dimension
            numel = math.prod(shape)
            self.shape = [numel] if numel != 1 else []
            self.strides = [[1] if numel != 1 else [] for _ in operands]
        else:
            strides = [broadcast_strides(t, shape) for t in operands]
            self.shape, self.strides = collapse(shape, strides)
        if len(self.shape) > MAX_DIMS:  # only for views that cannot be merged: rare
            raise_too_many_dims(len(self.shape))
        self.handles: list[Any] = []
        self.binding: list[int] = []
        for t in operands:
            h = handle_of(t)
            for i, seen in enumerate(self.handles):
                if seen is h:
                    self.binding.append(i + 1)
                    break
            else:
                self.handles.append(h)
                self.binding.append(len(self.handles))
        self.types = [t.dtype for t in operands]
        self.offsets = [t._offset for t in operands]

    def bindings(self) -> list[tuple[str, bool]]:
        """(WGSL element type, writable) per bound buffer."""
        writable = set(self.binding[:self.n_outputs])
        return [(STORED[self.types[self.binding.index(i + 1)]][0], i + 1 in writable)
                for i in range(len(self.handles))]

    @staticmethod
    def scalars(values: Sequence[float]) -> list[int]:
        """Scalar words of float values (read in WGSL with ``pf(nscalar_base + k)``)."""
        return [int(w) for w in np.asarray(values, dtype=np.float32).view(np.uint32)]

    def operand(self, k: int) -> str:
        """WGSL of operand k's element (as stored)."""
        return f"b{self.binding[k]}[e{k}]"

    def params(self, scalars: Sequence[int] = ()) -> np.ndarray:
        words = [math.prod(self.out._shape), *self.shape]
        for offset, strides in zip(self.offsets, self.strides, strict=True):
            words.append(offset)
            words.extend(strides)
        words.extend(scalars)
        # through int64: strides may be negative and scalar words are already unsigned
        return np.array(words, dtype=np.int64).astype(np.uint32)

    def run(self, body: str, scalars: Sequence[int] = (), helpers: str = "",
            out_type: str | None = None) -> Tensor:
        """Compile (cached) and record the launch; returns the output tensor. ``out_type``
        overrides the WGSL element type of the output binding (``atomic<u32>``)."""
        n = math.prod(self.out._shape)
        if n == 0:
            return self.out
        kernel = self.kernel(body, helpers, out_type)
        self.handles[0].runtime.dispatch(kernel, self.handles, self.params(scalars),
                                         runtime.groups_for(n))
        return self.out

    def kernel(self, body: str, helpers: str = "", out_type: str | None = None
               ) -> runtime.Kernel:
        """The compiled kernel of this launch's shape and operands (cached)."""
        rt = self.handles[0].runtime
        key = (rt.index, body, helpers, len(self.shape), tuple(self.binding), tuple(self.types),
               self.n_outputs, out_type)
        kernel = _KERNELS.get(key)
        if kernel is None:
            kernel = _KERNELS[key] = self._compile(rt, body, helpers, out_type)
        return kernel

    def _compile(self, rt: runtime.Runtime, body: str, helpers: str, out_type: str | None
                 ) -> runtime.Kernel:
        f16 = D.float16 in self.types or "f16" in body
        if f16:
            rt.require_f16("wgpu kernel")
        binds = self.bindings()
        if out_type is not None:
            binds[0] = (out_type, True)
        src = shader(body, len(self.shape), binds, len(self.types), helpers, f16)
        return rt.kernel(src, [w for _, w in binds])


# (device, body, helpers, ndim, buffer of each operand, dtypes, outputs, out_type) -> Kernel:
# everything the shader text depends on, so a repeated launch builds no text
_KERNELS: dict[tuple, runtime.Kernel] = {}


def raise_too_many_dims(ndim: int) -> None:
    raise ShapeError(f"wgpu elementwise kernels address at most {MAX_DIMS} dimensions after "
                     f"merging contiguous ones; got {ndim} (call .contiguous() first)")
