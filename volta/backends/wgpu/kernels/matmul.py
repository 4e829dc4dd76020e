"""Tiled, register-blocked WGSL GEMM generated from Python: matmul, bmm, addmm, linear and
(through :mod:`.conv`) implicit-GEMM convolutions.

Note [unrolled GEMM]: on the H100 a WGSL matmul whose 8x8 accumulators live in a
function-local array indexed by loop variables ran 27x slower than the same kernel with 64
scalar accumulators and every inner loop unrolled (drivers spill such arrays to memory).
So this module writes the kernel out in full: one ``var`` per accumulator, the BK steps of
the inner product unrolled, the tile loads unrolled per thread slot. Only the loop over
K tiles stays a loop.

One generator serves every GEMM-shaped kernel. What differs between matmul and the
convolutions is only *how an element of the A or B tile is fetched from global memory*;
that is an :class:`OperandSource` (strided matrix here, input/weight/grad gathers in
``conv.py``). The tiling, shared memory, accumulation and epilogue are written once.

The problem, per batch element ``(b0, b1)``::

    C[m, n] = alpha * sum_k A[m, k] * B[k, n]  (+ beta * C[m, n])  (+ bias[m] or bias[n])

Bindings (group 0), in this order:
  0. ``params``  uniform :data:`PARAMS_FIELDS` (``pack_params`` writes it)
  1. ``a_buf``   storage, read        the A operand's buffer
  2. ``b_buf``   storage, read        the B operand's buffer
  3. ``c_buf``   storage, read_write  the output (read too when ``beta`` is on)
  4. ``bias_buf`` storage, read       only when the kernel has a bias
Offsets and strides are in elements of the buffer's dtype. ``dtype="i32"`` (integer
matmuls) loads, accumulates and stores i32 (no alpha or beta; a bias adds). Dispatch
``workgroup_count(M, N, batch)`` workgroups with ``batch = B0 * B1``; the kernel splits
``workgroup_id.z`` into ``b0 = z / B1`` and ``b1 = z % B1``. An operand read with vec4 loads
(``GemmSpec.a_vec_storage``/``b_vec_storage``) is declared ``array<vec4<T>>``: bind its
buffer with a size that is a multiple of 16 bytes. A split-K launch (:class:`SplitK`) takes
a scratch buffer at binding 3 and a second, reduce dispatch.
"""

from __future__ import annotations

import dataclasses
import functools
import json
import math
import os
import struct
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any, Literal, Protocol

import numpy as np

from volta.backends.wgpu.kernels import harness
from volta.errors import InvalidArgumentError

Dtype = Literal["f32", "f16", "i32"]  # storage type; i32 also computes in i32
Layout = Literal["x", "k", "strided"]
BiasMode = Literal["none", "m", "n"]

# The uniform block shared by every GEMM kernel: (name, WGSL type). A's "x" is its row (m),
# B's "x" is its column (n): ``sx`` is the stride along x and ``sk`` the stride along k.
PARAMS_FIELDS: tuple[tuple[str, str], ...] = (
    ("M", "u32"), ("N", "u32"), ("K", "u32"), ("B1", "u32"),
    ("a_off", "u32"), ("a_sb0", "u32"), ("a_sb1", "u32"), ("a_sx", "u32"), ("a_sk", "u32"),
    ("b_off", "u32"), ("b_sb0", "u32"), ("b_sb1", "u32"), ("b_sx", "u32"), ("b_sk", "u32"),
    ("c_off", "u32"), ("c_sb0", "u32"), ("c_sb1", "u32"), ("c_sm", "u32"), ("c_sn", "u32"),
    ("bias_off", "u32"), ("bias_sb0", "u32"), ("bias_sb1", "u32"), ("bias_s", "u32"),
    ("alpha", "f32"), ("beta", "f32"),
    ("k_chunk", "u32"), ("splits", "u32"),  # split-K: K range per b0 / partial count
)
# Uniform buffers are sized in multiples of 16 bytes.
PARAMS_SIZE = -(-len(PARAMS_FIELDS) * 4 // 16) * 16


@dataclass(frozen=True)
class MatmulConfig:
    """Tile shape of a GEMM kernel.

    Each workgroup computes a ``bm x bn`` block of C, walking K in steps of ``bk``; each
    thread owns ``tm x tn`` outputs, so the workgroup is ``(bn // tn, bm // tm)`` threads.
    ``tm``/``tn`` are multiples of 4: a thread's rows (and columns) are ``tm // 4`` groups of
    4 spread ``bm // (tm // 4)`` apart, read from shared memory as vec4s so that neighbouring
    threads read neighbouring vec4s (no bank conflicts). ``pad`` vec4s are appended to each
    shared-memory row against bank conflicts on transposing stores. ``vec4`` allows 16-byte
    global loads where the operand's layout and alignment permit. ``prefetch`` loads the next
    K tile into registers while the current one is multiplied.
    """

    bm: int = 64
    bn: int = 64
    bk: int = 16
    tm: int = 4
    tn: int = 4
    pad: int = 1
    vec4: bool = True
    prefetch: bool = True

    @property
    def workgroup_size(self) -> tuple[int, int]:
        return (self.bn // self.tn, self.bm // self.tm)

    @property
    def threads(self) -> int:
        return (self.bn // self.tn) * (self.bm // self.tm)

    @property
    def name(self) -> str:
        flags = ("v" if self.vec4 else "") + ("p" if self.prefetch else "")
        return f"{self.bm}x{self.bn}x{self.bk}_{self.tm}x{self.tn}_pad{self.pad}{flags}"

    def workgroup_storage_bytes(self) -> int:
        return 16 * self.bk * (self.bm // 4 + self.pad + self.bn // 4 + self.pad)

    def validate(self) -> None:
        """Raise when the tile shape cannot be generated (the message says why)."""
        problems = []
        if self.tm % 4 or self.tn % 4 or self.bk % 4 or self.pad < 0:
            problems.append("tm, tn and bk must be multiples of 4, pad >= 0")
        elif self.bm % self.tm or self.bn % self.tn:
            problems.append("bm must be a multiple of tm and bn of tn")
        else:
            threads = self.threads
            for extent in (self.bm, self.bn):
                if (self.bk * extent) % (4 * threads):
                    problems.append(f"{threads} threads cannot share a {self.bk}x{extent} tile"
                                    " load in whole vec4s")
                # the tile loaders split thread ids by these divisors (see _TileLoad)
                for divisor in (extent // 4, extent, self.bk):
                    if threads % divisor and divisor % threads:
                        problems.append(f"{threads} threads vs a load row of {divisor}")
        if problems:
            raise InvalidArgumentError(f"MatmulConfig {self.name}: " + "; ".join(problems))


# Candidates for the autotuner, all valid for a 256-invocation / 16 KiB workgroup limit
# except where noted (the tuner drops what the device cannot run).
CANDIDATES: tuple[MatmulConfig, ...] = (
    MatmulConfig(bm=128, bn=128, bk=8, tm=8, tn=8, pad=1),
    MatmulConfig(bm=128, bn=128, bk=16, tm=8, tn=8, pad=0),
    MatmulConfig(bm=64, bn=128, bk=16, tm=8, tn=8, pad=1),
    MatmulConfig(bm=64, bn=128, bk=8, tm=8, tn=8, pad=1),
    MatmulConfig(bm=64, bn=64, bk=16, tm=4, tn=4, pad=1),
    MatmulConfig(bm=32, bn=32, bk=16, tm=4, tn=4, pad=1),
)


def default_config(M: int, N: int, K: int) -> MatmulConfig:
    """The deterministic choice when tuning is off: big tiles only where they fill the GPU.
    64x128x16 was the fastest untuned shape on an H100 from 1024^3 to 4096^3
    (benchmarks/results/gpu.json)."""
    if M * N >= 512 * 512:
        return CANDIDATES[2]
    if M * N >= 128 * 128:
        return CANDIDATES[4]
    return CANDIDATES[5]


# --------------------------------------------------------------------------------------------
# Operand sources: how one element (or vec4) of an A/B tile is fetched from global memory.
# --------------------------------------------------------------------------------------------


class OperandSource(Protocol):
    """Fetches elements ``(x, k)`` of one GEMM operand for the current batch element.

    ``prefix`` is ``"a"`` or ``"b"``: the binding is ``{prefix}_buf`` and the uniform fields
    ``params.{prefix}_*``. ``layout`` says which coordinate is contiguous in memory ("x", "k",
    or "strided" for neither); the tile loader lets neighbouring threads walk that coordinate
    so global reads coalesce. Sources with ``vec4`` set also implement ``load4``.
    """

    layout: Layout
    vec4: bool

    def setup(self, prefix: str) -> list[str]:
        """Statements run once per thread (``b0``, ``b1`` are in scope)."""

    def load(self, prefix: str, var: str, x: str, k: str, x_extent: str,
             checked: bool) -> list[str]:
        """Statements assigning element (x, k) (0 outside the problem) to f32 ``var``.
        ``k_end``, the end of this workgroup's K range, is in scope and bounds ``k``."""

    def load4(self, prefix: str, var: str, x: str, k: str, x_extent: str,
              checked: bool) -> list[str]:
        """Statements assigning 4 elements along ``layout`` to vec4<f32> ``var``."""

    def helpers(self, prefix: str, dtype: Dtype) -> list[str]:
        """Module-scope WGSL this source needs (functions, constants)."""


def batch_base(prefix: str) -> list[str]:
    """``{prefix}_base``: the operand's offset plus its two batch strides times (b0, b1)."""
    return [f"let {prefix}_base = params.{prefix}_off + b0 * params.{prefix}_sb0"
            f" + b1 * params.{prefix}_sb1;"]


def _guarded(var: str, cond: str | None, value: str, zero: str) -> list[str]:
    if cond is None:
        return [f"{var} = {value};"]
    return [f"{var} = {zero};", f"if ({cond}) {{ {var} = {value}; }}"]



@dataclass(frozen=True)
class StridedSource:
    """A strided matrix: element (x, k) at ``base + x * sx + k * sk``.

    ``layout`` "x" / "k" promises that stride is 1 (the multiply is left out); ``vec4``
    additionally promises 16-byte alignment of every vec4 the kernel reads (offset, the other
    stride, batch strides and the contiguous extent all multiples of 4).
    """

    layout: Layout = "strided"
    vec4: bool = False
    compute: str = "f32"  # the type loads produce: the GEMM's accumulator type

    def setup(self, prefix: str) -> list[str]:
        return batch_base(prefix)

    def helpers(self, prefix: str, dtype: Dtype) -> list[str]:
        return []

    def _index(self, p: str, x: str, k: str) -> str:
        xs = f"({x})" if self.layout == "x" else f"({x}) * params.{p}_sx"
        ks = f"({k})" if self.layout == "k" else f"({k}) * params.{p}_sk"
        return f"{p}_base + {xs} + {ks}"

    def load(self, prefix: str, var: str, x: str, k: str, x_extent: str,
             checked: bool) -> list[str]:
        cond = f"({x}) < {x_extent} && ({k}) < k_end" if checked else None
        return _guarded(var, cond, f"{self.compute}({prefix}_buf[{self._index(prefix, x, k)}])",
                        f"{self.compute}(0)")

    def load4(self, prefix: str, var: str, x: str, k: str, x_extent: str,
              checked: bool) -> list[str]:
        # the contiguous extent is a multiple of 4, so a vec4 is wholly inside or outside
        cond = f"({x}) < {x_extent} && ({k}) < k_end" if checked else None
        value = f"vec4<{self.compute}>({prefix}_buf[({self._index(prefix, x, k)}) >> 2u])"
        return _guarded(var, cond, value, f"vec4<{self.compute}>()")


# --------------------------------------------------------------------------------------------
# The generator
# --------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class GemmSpec:
    """Everything that selects one generated kernel (the pipeline cache key)."""

    config: MatmulConfig
    a: OperandSource
    b: OperandSource
    dtype: Dtype = "f32"
    aligned: bool = False  # M % bm == N % bn == K % bk == 0: no bounds checks
    beta: bool = False  # read C and add beta * C
    bias: BiasMode = "none"
    # split-K: b0 picks the K range [b0 * k_chunk, (b0 + 1) * k_chunk); C gets partial sums
    split_k: bool = False
    a_vec_storage: bool = False  # declare a_buf as array<vec4<T>> (set from a.vec4)
    b_vec_storage: bool = False
    name: str = "gemm"

    @property
    def compute(self) -> str:
        """The accumulator type: integers sum exactly in i32 (wrapping like the backend's
        other integer kernels), floating point types in f32."""
        return "i32" if self.dtype == "i32" else "f32"


@dataclass(frozen=True)
class GemmKernel:
    """A generated kernel: WGSL source, its entry point, and how many workgroups to dispatch."""

    source: str
    entry_point: str
    spec: GemmSpec
    bindings: tuple[tuple[int, str, str], ...] = field(default=())  # (binding, name, kind)

    def workgroup_count(self, M: int, N: int, batch: int) -> tuple[int, int, int]:
        cfg = self.spec.config
        return (math.ceil(N / cfg.bn), math.ceil(M / cfg.bm), batch)


class _TileLoad:
    """The unrolled per-thread load of one operand's BK x BX tile into shared memory.

    Shared layout: ``{p}_tile[k * RS + x / 4][x % 4]``, RS = BX / 4 + pad vec4s per k row.
    Thread slot i handles flat index ``tid + i * T``; the mapping splits it into an inner
    coordinate (``% D``, walking the operand's contiguous direction) and an outer one.
    """

    def __init__(self, spec: GemmSpec, prefix: str, extent: int, x_extent: str) -> None:
        cfg = spec.config
        src: OperandSource = spec.a if prefix == "a" else spec.b
        self.prefix, self.src, self.extent, self.x_extent = prefix, src, extent, x_extent
        self.compute = spec.compute
        self.checked = not spec.aligned
        self.row_stride = extent // 4 + cfg.pad
        self.bk = cfg.bk
        self.vec4 = src.vec4 and cfg.vec4
        per_slot = 4 if self.vec4 else 1
        self.slots = cfg.bk * extent // per_slot // cfg.threads
        self.threads = cfg.threads
        if self.vec4 and src.layout == "x":
            self.inner_div, self.inner_is = extent // 4, "xv"
        elif src.layout == "k":
            self.inner_div, self.inner_is = (extent, "x") if self.vec4 else (cfg.bk, "k")
        else:
            self.inner_div, self.inner_is = extent, "x"

    def _coords(self, i: int) -> tuple[str, str]:
        """(inner, outer) tile coordinates of slot i as WGSL expressions."""
        p, d, t = self.prefix, self.inner_div, self.threads
        if t % d == 0:
            return f"{p}_in", f"({p}_out + {i * (t // d)}u)"
        flat = f"(tid + {i * t}u)"
        return f"({flat} % {d}u)", f"({flat} / {d}u)"

    def thread_setup(self) -> list[str]:
        d = self.inner_div
        if self.threads % d:
            return []
        return [f"let {self.prefix}_in = tid % {d}u;", f"let {self.prefix}_out = tid / {d}u;"]

    def reg_decls(self) -> list[str]:
        kind = f"vec4<{self.compute}>" if self.vec4 else self.compute
        return [f"var {self.prefix}_r{i}: {kind};" for i in range(self.slots)]

    def _local_xk(self, i: int) -> tuple[str, str]:
        """Local (x, k) of slot i's first element within the tile."""
        inner, outer = self._coords(i)
        if self.inner_is == "xv":
            return f"{inner} * 4u", outer
        if self.inner_is == "x":
            return inner, (f"{outer} * 4u" if self.vec4 else outer)
        return outer, inner

    def global_loads(self, x0: str, k0: str) -> list[str]:
        lines: list[str] = []
        loader = self.src.load4 if self.vec4 else self.src.load
        for i in range(self.slots):
            lx, lk = self._local_xk(i)
            lines += loader(self.prefix, f"{self.prefix}_r{i}", f"{x0} + {lx}", f"{k0} + {lk}",
                            self.x_extent, self.checked)
        return lines

    def shared_stores(self) -> list[str]:
        p, rs = self.prefix, self.row_stride
        lines = []
        for i in range(self.slots):
            lx, lk = self._local_xk(i)
            if self.vec4 and self.src.layout == "x":
                lines.append(f"{p}_tile[({lk}) * {rs}u + ({lx}) / 4u] = {p}_r{i};")
            elif self.vec4:  # 4 consecutive k of one x: transpose into 4 shared rows
                for j in range(4):
                    lines.append(f"{p}_tile[({lk} + {j}u) * {rs}u + ({lx}) / 4u][({lx}) % 4u]"
                                 f" = {p}_r{i}[{j}];")
            else:
                lines.append(f"{p}_tile[({lk}) * {rs}u + ({lx}) / 4u][({lx}) % 4u] = {p}_r{i};")
        return lines


def _storage_type(dtype: Dtype, vec: bool) -> str:
    return f"vec4<{dtype}>" if vec else dtype


def generate(spec: GemmSpec) -> GemmKernel:
    """Write the WGSL of one GEMM kernel (see the module docstring for the bindings)."""
    cfg = spec.config
    cfg.validate()
    wx, wy = cfg.workgroup_size
    gm, gn = cfg.tm // 4, cfg.tn // 4  # vec4 groups per thread along m and n
    load_a = _TileLoad(spec, "a", cfg.bm, "params.M")
    load_b = _TileLoad(spec, "b", cfg.bn, "params.N")
    checked = not spec.aligned
    t, ct = spec.dtype, spec.compute
    if ct == "i32" and (getattr(spec.a, "compute", None) != ct
                        or getattr(spec.b, "compute", None) != ct or spec.beta or spec.split_k):
        raise InvalidArgumentError("an i32 GEMM needs i32 strided operands, no beta, no split-K")

    out: list[str] = []
    if t == "f16":
        out.append("enable f16;")
    out.append("struct Params {")
    out += [f"  {name}: {kind}," for name, kind in PARAMS_FIELDS]
    out.append("}")
    out.append("@group(0) @binding(0) var<uniform> params: Params;")
    out.append(f"@group(0) @binding(1) var<storage, read> a_buf: "
               f"array<{_storage_type(t, spec.a_vec_storage)}>;")
    out.append(f"@group(0) @binding(2) var<storage, read> b_buf: "
               f"array<{_storage_type(t, spec.b_vec_storage)}>;")
    out.append(f"@group(0) @binding(3) var<storage, read_write> c_buf: array<{t}>;")
    bindings = [(0, "params", "uniform"), (1, "a", "read-only-storage"),
                (2, "b", "read-only-storage"), (3, "c", "storage")]
    if spec.bias != "none":
        out.append(f"@group(0) @binding(4) var<storage, read> bias_buf: array<{t}>;")
        bindings.append((4, "bias", "read-only-storage"))
    out.append(f"var<workgroup> a_tile: array<vec4<{ct}>, {cfg.bk * load_a.row_stride}>;")
    out.append(f"var<workgroup> b_tile: array<vec4<{ct}>, {cfg.bk * load_b.row_stride}>;")
    out += spec.a.helpers("a", t) + spec.b.helpers("b", t)

    body: list[str] = [
        f"let tid = lid.y * {wx}u + lid.x;",
        "let tx = lid.x;",
        "let ty = lid.y;",
        "let b0 = wid.z / params.B1;",
        "let b1 = wid.z % params.B1;",
        f"let m0 = wid.y * {cfg.bm}u;",
        f"let n0 = wid.x * {cfg.bn}u;",
    ]
    body += spec.a.setup("a") + spec.b.setup("b")
    body += load_a.thread_setup() + load_b.thread_setup()
    body += [f"var acc_{r}_{c}: {ct} = {ct}(0);" for r in range(cfg.tm) for c in range(cfg.tn)]
    body += load_a.reg_decls() + load_b.reg_decls()
    if spec.split_k:
        body.append("let k_begin = min(params.K, b0 * params.k_chunk);")
        body.append("let k_end = min(params.K, k_begin + params.k_chunk);")
    else:
        body += ["let k_begin = 0u;", "let k_end = params.K;"]
    body.append(f"let num_tiles = (k_end - k_begin + {cfg.bk - 1}u) / {cfg.bk}u;")

    fetch = load_a.global_loads("m0", "k0") + load_b.global_loads("n0", "k0")
    stage = load_a.shared_stores() + load_b.shared_stores()
    compute: list[str] = []
    for kk in range(cfg.bk):
        for g in range(gm):
            base = kk * load_a.row_stride + g * (cfg.bm // cfg.tm)
            compute.append(f"let av{kk}_{g} = a_tile[{base}u + ty];")
        for h in range(gn):
            base = kk * load_b.row_stride + h * (cfg.bn // cfg.tn)
            compute.append(f"let bv{kk}_{h} = b_tile[{base}u + tx];")
        for r in range(cfg.tm):
            av = f"av{kk}_{r // 4}.{'xyzw'[r % 4]}"
            for c in range(cfg.tn):
                bv = f"bv{kk}_{c // 4}.{'xyzw'[c % 4]}"
                compute.append(f"acc_{r}_{c} = fma({av}, {bv}, acc_{r}_{c});" if ct == "f32"
                               else f"acc_{r}_{c} = {av} * {bv} + acc_{r}_{c};")

    if cfg.prefetch:
        body.append("var k0 = k_begin;")
        body.append("if (num_tiles > 0u) {")
        body += ["  " + s for s in fetch]
        body.append("}")
        body.append("for (var t = 0u; t < num_tiles; t = t + 1u) {")
        body += ["  " + s for s in stage]
        body.append("  workgroupBarrier();")
        body.append(f"  k0 = k_begin + (t + 1u) * {cfg.bk}u;")
        body.append("  if (t + 1u < num_tiles) {")
        body += ["    " + s for s in fetch]
        body.append("  }")
    else:
        body.append("for (var t = 0u; t < num_tiles; t = t + 1u) {")
        body.append(f"  let k0 = k_begin + t * {cfg.bk}u;")
        body += ["  " + s for s in fetch + stage]
        body.append("  workgroupBarrier();")
    body += ["  " + s for s in compute]
    body.append("  workgroupBarrier();")
    body.append("}")

    # epilogue
    body.append("let c_base = params.c_off + b0 * params.c_sb0 + b1 * params.c_sb1;")
    if spec.bias != "none":
        body.append("let bias_base = params.bias_off + b0 * params.bias_sb0"
                    " + b1 * params.bias_sb1;")
    for r in range(cfg.tm):
        body.append(f"let m_{r} = m0 + {(r // 4) * (cfg.bm // gm) + r % 4}u + ty * 4u;")
    for c in range(cfg.tn):
        body.append(f"let n_{c} = n0 + {(c // 4) * (cfg.bn // gn) + c % 4}u + tx * 4u;")
    for r in range(cfg.tm):
        row_lines = []
        for c in range(cfg.tn):
            idx = f"c_base + m_{r} * params.c_sm + n_{c} * params.c_sn"
            # integers: alpha is 1 (matmul_launch checks), so no float rounds the sum
            value = f"params.alpha * acc_{r}_{c}" if ct == "f32" else f"acc_{r}_{c}"
            if spec.beta:
                value += f" + params.beta * f32(c_buf[{idx}])"
            if spec.bias == "m":
                value += f" + {ct}(bias_buf[bias_base + m_{r} * params.bias_s])"
            elif spec.bias == "n":
                value += f" + {ct}(bias_buf[bias_base + n_{c} * params.bias_s])"
            store = f"c_buf[{idx}] = {t}({value});"
            row_lines.append(f"if (n_{c} < params.N) {{ {store} }}" if checked else store)
        if checked:
            body.append(f"if (m_{r} < params.M) {{")
            body += ["  " + s for s in row_lines]
            body.append("}")
        else:
            body += row_lines

    out.append(f"@compute @workgroup_size({wx}, {wy}, 1)")
    out.append(f"fn {spec.name}(@builtin(local_invocation_id) lid: vec3<u32>,"
               " @builtin(workgroup_id) wid: vec3<u32>) {")
    out += ["  " + s for s in body]
    out.append("}")
    return GemmKernel(source="\n".join(out) + "\n", entry_point=spec.name, spec=spec,
                      bindings=tuple(bindings))


@functools.lru_cache(maxsize=512)
def generate_cached(spec: GemmSpec) -> GemmKernel:
    """:func:`generate`, memoised per spec (specs are frozen and hashable)."""
    return generate(spec)


def pack_params(**values: float) -> bytes:
    """The uniform block as bytes; fields not given are 0 (``alpha`` defaults to 1)."""
    values.setdefault("alpha", 1.0)
    unknown = set(values) - {name for name, _ in PARAMS_FIELDS}
    if unknown:
        raise InvalidArgumentError(f"unknown GEMM params: {sorted(unknown)}")
    raw = b"".join(
        struct.pack("<f" if kind == "f32" else "<I", values.get(name, 0))
        for name, kind in PARAMS_FIELDS)
    return raw.ljust(PARAMS_SIZE, b"\0")


# --------------------------------------------------------------------------------------------
# matmul: strided operands
# --------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class MatrixView:
    """A batch of matrices in a flat buffer: element (b0, b1, i, j) lives at
    ``offset + b0 * batch_strides[0] + b1 * batch_strides[1] + i * row_stride + j * col_stride``
    (in elements). A transpose swaps the two strides; a broadcast batch has stride 0."""

    offset: int
    row_stride: int
    col_stride: int
    batch_strides: tuple[int, int] = (0, 0)

    @classmethod
    def contiguous(cls, rows: int, cols: int, batch: tuple[int, int] = (1, 1),
                   offset: int = 0) -> MatrixView:
        return cls(offset, cols, 1, (batch[1] * rows * cols, rows * cols))

    def transposed(self) -> MatrixView:
        return MatrixView(self.offset, self.col_stride, self.row_stride, self.batch_strides)


def strided_source(x_stride: int, k_stride: int, x_size: int, k_size: int, offset: int,
                    batch_strides: tuple[int, int], allow_vec4: bool) -> StridedSource:
    """Pick the layout (which stride is 1) and whether 16-byte loads are safe."""
    layout: Layout = "strided"
    if k_stride == 1 and (x_stride != 1 or k_size >= x_size):
        layout, other, contig = "k", x_stride, k_size
    elif x_stride == 1:
        layout, other, contig = "x", k_stride, x_size
    if layout == "strided":
        return StridedSource("strided", False)
    aligned = all(v % 4 == 0 for v in (offset, other, contig, *batch_strides))
    return StridedSource(layout, allow_vec4 and aligned)


REDUCE_THREADS = 256


@functools.lru_cache(maxsize=4)
def reduce_splits_source(dtype: Dtype) -> str:
    """WGSL summing split-K partials: ``c[b1, m, n] = alpha * sum_s partials[s, b1, m, n]``.

    Bindings: 0 params (matmul's block: M, N, B1, splits, c_off, c_sb1, c_sm, c_sn, alpha),
    1 partials (f32, contiguous ``splits x B1 x M x N``), 2 the output. A grid-stride loop, so
    any workgroup count covers the output.
    """
    lines = ["enable f16;"] if dtype == "f16" else []
    lines += ["struct Params {", *(f"  {n}: {k}," for n, k in PARAMS_FIELDS), "}",
              "@group(0) @binding(0) var<uniform> params: Params;",
              "@group(0) @binding(1) var<storage, read> partials: array<f32>;",
              f"@group(0) @binding(2) var<storage, read_write> c_buf: array<{dtype}>;",
              f"@compute @workgroup_size({REDUCE_THREADS})",
              "fn reduce_splits(@builtin(global_invocation_id) gid: vec3<u32>,",
              "                 @builtin(num_workgroups) groups: vec3<u32>) {",
              "  let plane = params.M * params.N;",
              "  let slab = params.B1 * plane;",
              f"  for (var j = gid.x; j < slab; j = j + groups.x * {REDUCE_THREADS}u) {{",
              "    var total = 0.0;",
              "    for (var s = 0u; s < params.splits; s = s + 1u) {",
              "      total = total + partials[s * slab + j];",
              "    }",
              "    let r = j % plane;",
              "    let index = params.c_off + (j / plane) * params.c_sb1"
              " + (r / params.N) * params.c_sm + (r % params.N) * params.c_sn;",
              f"    c_buf[index] = {dtype}(params.alpha * total);",
              "  }",
              "}"]
    return "\n".join(lines) + "\n"


@dataclass(frozen=True)
class SplitK:
    """Second stage of a split-K GEMM: the GEMM wrote ``splits`` partial sums (f32) into a
    scratch buffer of ``scratch_elements``; ``reduce_source`` adds them into the output."""

    splits: int
    scratch_elements: int
    reduce_source: str
    reduce_params: bytes
    reduce_workgroups: tuple[int, int, int]
    reduce_entry_point: str = "reduce_splits"


@dataclass(frozen=True)
class GemmLaunch:
    """A kernel plus the uniform bytes and workgroup count of one call.

    With ``split`` set, binding 3 of the GEMM is a scratch f32 buffer of
    ``split.scratch_elements`` (not the output), followed by the reduce dispatch
    (bindings 0 ``split.reduce_params``, 1 scratch, 2 output).
    """

    kernel: GemmKernel
    params: bytes
    workgroups: tuple[int, int, int]
    split: SplitK | None = None

    def bind(self, device: Any, arrays: Sequence[np.ndarray | None],
             output: int = 2) -> harness.Dispatch:
        """Upload ``arrays`` to bindings 1, 2, ... on a raw wgpu device and bind the GEMM
        (for a split-K launch the array at binding 3 must be the scratch buffer)."""
        return harness.Dispatch(device, self.kernel.source, self.kernel.entry_point,
                                self.params, arrays, self.workgroups, output)

    def bind_reduce(self, device: Any, partials: np.ndarray,
                    out: np.ndarray) -> harness.Dispatch:
        assert self.split is not None
        return harness.Dispatch(device, self.split.reduce_source, self.split.reduce_entry_point,
                                self.split.reduce_params, [partials, out],
                                self.split.reduce_workgroups, output=1)

    def run(self, device: Any, arrays: Sequence[np.ndarray | None],
            output: int = 2) -> np.ndarray:
        """Dispatch once (both stages when split) and return ``arrays[output]`` after it.
        The harness reads partials back between the stages; the runtime keeps them on the GPU.
        """
        if self.split is None:
            dispatch = self.bind(device, arrays, output)
            dispatch.submit()
            return dispatch.read()
        scratch = np.zeros(self.split.scratch_elements, np.float32)
        gemm = self.bind(device, [*arrays[:2], scratch, *arrays[3:]], output)
        gemm.submit()
        reduce = self.bind_reduce(device, gemm.read(), arrays[output])
        reduce.submit()
        return reduce.read()


def choose_splits(config: MatmulConfig, M: int, N: int, K: int, batch: int) -> int:
    """Split-K factor: split only when the output has too few tiles to fill a GPU and K is
    long, keeping at least 1024 of K per split."""
    tiles = math.ceil(M / config.bm) * math.ceil(N / config.bn) * batch
    if tiles >= 256 or K < 4096:
        return 1
    return max(1, min(math.ceil(512 / tiles), K // 1024))


def plan_gemm(spec: GemmSpec, M: int, N: int, K: int, batch: tuple[int, int],
              params: dict[str, float], splits: int = 1) -> GemmLaunch:
    """Generate (cached) the kernel of ``spec`` and pack its call: ``params`` are the uniform
    fields besides M, N, K, B1. ``splits > 1`` turns the call into split-K over ``b0``
    (``batch[0]`` must be 1; the output's layout moves into the reduce stage)."""
    values = dict(params, M=M, N=N, K=K, B1=max(batch[1], 1))
    if splits <= 1:
        kernel = generate_cached(spec)
        return GemmLaunch(kernel, pack_params(**values),
                          kernel.workgroup_count(M, N, batch[0] * batch[1]))
    if batch[0] != 1 or spec.beta or spec.bias != "none" or spec.dtype != "f32":
        raise InvalidArgumentError("split-K needs batch[0] == 1, f32 and no beta or bias")
    bk = spec.config.bk
    chunk = math.ceil(K / splits / bk) * bk
    splits = math.ceil(K / chunk)
    kernel = generate_cached(dataclasses.replace(spec, split_k=True))
    plane, slab = M * N, values["B1"] * M * N
    reduce_params = pack_params(M=M, N=N, B1=values["B1"], splits=splits,
                                c_off=values.get("c_off", 0), c_sb1=values.get("c_sb1", 0),
                                c_sm=values.get("c_sm", 0), c_sn=values.get("c_sn", 0),
                                alpha=values.get("alpha", 1.0))
    # the GEMM writes contiguous partials: split s, batch b1 at s * slab + b1 * plane
    values.update(a_sb0=0, b_sb0=0, c_off=0, c_sb0=slab, c_sb1=plane, c_sm=N, c_sn=1,
                  alpha=1.0, k_chunk=chunk, splits=splits)
    reduce_groups = (min(math.ceil(slab / REDUCE_THREADS), 65535), 1, 1)
    split = SplitK(splits, splits * slab, reduce_splits_source(spec.dtype), reduce_params,
                   reduce_groups)
    return GemmLaunch(kernel, pack_params(**values),
                      kernel.workgroup_count(M, N, splits * values["B1"]), split)


def matmul_launch(config: MatmulConfig, M: int, N: int, K: int, a: MatrixView, b: MatrixView,
                  c: MatrixView, *, batch: tuple[int, int] = (1, 1), dtype: Dtype = "f32",
                  alpha: float = 1.0, beta: float | None = None, bias: BiasMode = "none",
                  bias_offset: int = 0, bias_stride: int = 1,
                  bias_batch_strides: tuple[int, int] = (0, 0),
                  split_k: int | Literal["auto"] = 1) -> GemmLaunch:
    """Plan ``c = alpha * a @ b (+ beta * c) (+ bias)`` for a ``batch[0] x batch[1]`` batch.

    ``a`` is M x K, ``b`` K x N, ``c`` M x N (see :class:`MatrixView`). ``bias`` "m" adds
    ``bias[bias_offset + m * bias_stride]`` to row m (conv), "n" to column n (linear).
    ``beta=None`` leaves C unread (its old contents are overwritten). ``split_k`` > 1 (or
    "auto": :func:`choose_splits`) splits K for small outputs with a long K, such as weight
    gradients (f32, no beta/bias, ``batch[0] == 1``).
    """
    if min(M, N, K, *batch) < 0:
        raise InvalidArgumentError(f"matmul sizes must be >= 0, got M={M} N={N} K={K}")
    if dtype == "i32" and (alpha != 1.0 or beta is not None):
        raise InvalidArgumentError("an i32 GEMM takes no alpha or beta (scale the result)")
    src_a = strided_source(a.row_stride, a.col_stride, M, K, a.offset, a.batch_strides,
                           config.vec4)
    src_b = strided_source(b.col_stride, b.row_stride, N, K, b.offset, b.batch_strides,
                           config.vec4)
    if dtype == "i32":
        src_a = dataclasses.replace(src_a, compute="i32")
        src_b = dataclasses.replace(src_b, compute="i32")
    aligned = M % config.bm == 0 and N % config.bn == 0 and K % config.bk == 0
    spec = GemmSpec(config, src_a, src_b, dtype=dtype, aligned=aligned, beta=beta is not None,
                    bias=bias, a_vec_storage=src_a.vec4, b_vec_storage=src_b.vec4,
                    name="matmul")
    if split_k == "auto":
        simple = batch[0] == 1 and beta is None and bias == "none" and dtype == "f32"
        split_k = choose_splits(config, M, N, K, batch[1]) if simple else 1
    params = dict(
        a_off=a.offset, a_sb0=a.batch_strides[0], a_sb1=a.batch_strides[1],
        a_sx=a.row_stride, a_sk=a.col_stride,
        b_off=b.offset, b_sb0=b.batch_strides[0], b_sb1=b.batch_strides[1],
        b_sx=b.col_stride, b_sk=b.row_stride,
        c_off=c.offset, c_sb0=c.batch_strides[0], c_sb1=c.batch_strides[1],
        c_sm=c.row_stride, c_sn=c.col_stride,
        bias_off=bias_offset, bias_sb0=bias_batch_strides[0], bias_sb1=bias_batch_strides[1],
        bias_s=bias_stride, alpha=alpha, beta=0.0 if beta is None else beta)
    return plan_gemm(spec, M, N, K, batch, params, split_k)


def size_class(M: int, N: int, K: int) -> str:
    """Bucket of a problem for the tuning cache: each dim rounded up to a power of 2, capped."""
    def bucket(v: int) -> int:
        return min(1 << max(v - 1, 0).bit_length(), 4096)
    return f"{bucket(M)}x{bucket(N)}x{bucket(K)}"



# --------------------------------------------------------------------------------------------
# Autotuning: time the candidates once per (adapter, size class), remember the winner.
# --------------------------------------------------------------------------------------------

TUNING_CACHE_ENV = "VOLTA_WGPU_TUNING_CACHE"  # path of the JSON cache
TUNING_ENV = "VOLTA_WGPU_TUNE"  # "0" turns tuning off: default_config() is used


def tuning_cache_path() -> Path:
    if os.environ.get(TUNING_CACHE_ENV):
        return Path(os.environ[TUNING_CACHE_ENV])
    cache_home = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"),
                                                                 ".cache")
    return Path(cache_home) / "volta" / "wgpu_tuning.json"


def _read_cache(path: Path) -> dict[str, Any]:
    try:
        return json.loads(path.read_text())
    except (OSError, ValueError):
        return {}  # missing or corrupt: tune again


def _write_cache(path: Path, cache: dict[str, Any]) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_suffix(f".{os.getpid()}.tmp")
    tmp.write_text(json.dumps(cache, indent=1, sort_keys=True))
    os.replace(tmp, path)  # atomic: concurrent tuners never see half a file


def cached_config(device: Any, M: int, N: int, K: int,
                  cache_path: Path | None = None) -> MatmulConfig | None:
    """The choice :func:`tune` recorded for this adapter and size class, if any (nothing is
    timed)."""
    cache = _read_cache(cache_path or tuning_cache_path())
    known = cache.get(harness.adapter_name(device), {}).get(size_class(M, N, K))
    return None if known is None else MatmulConfig(**known["config"])


def time_config(device: Any, config: MatmulConfig, M: int, N: int, K: int,
                repeats: int | None = None) -> float:
    """Seconds per dispatch of an f32 ``M x K @ K x N`` with ``config`` on ``device``."""
    rng = np.random.default_rng(0)
    a = rng.standard_normal((M, K), dtype=np.float32)
    b = rng.standard_normal((K, N), dtype=np.float32)
    c = np.zeros((M, N), np.float32)
    launch = matmul_launch(config, M, N, K, MatrixView.contiguous(M, K),
                           MatrixView.contiguous(K, N), MatrixView.contiguous(M, N))
    dispatch = launch.bind(device, [a, b, c])
    if repeats is None:  # about 2 * 10^10 flops per submit: long enough to hide its cost
        repeats = max(1, min(100, int(2e10 / max(2 * M * N * K, 1))))
    return dispatch.seconds_per_dispatch(repeats)


def tune(device: Any, M: int, N: int, K: int, *, candidates: Sequence[MatmulConfig] = CANDIDATES,
         cache_path: Path | None = None, enabled: bool | None = None,
         timer: Callable[[Any, MatmulConfig, int, int, int], float] = time_config,
         ) -> MatmulConfig:
    """The fastest candidate for an ``M x N x K`` matmul on ``device``.

    Timed once per (adapter, :func:`size_class`) and kept in a JSON file
    (:func:`tuning_cache_path`); later calls, in this process or another, read the choice.
    With tuning disabled (``enabled=False`` or ``VOLTA_WGPU_TUNE=0``) the answer is
    :func:`default_config` and nothing is timed or written.
    """
    if enabled is None:
        enabled = os.environ.get(TUNING_ENV, "1") != "0"
    if not enabled:
        return default_config(M, N, K)
    path = cache_path or tuning_cache_path()
    adapter = harness.adapter_name(device)
    key = size_class(M, N, K)
    known = cached_config(device, M, N, K, path)
    if known is not None:
        return known
    runnable = [c for c in candidates
                if harness.fits(device, c.threads, c.workgroup_storage_bytes())]
    if not runnable:
        return default_config(M, N, K)
    timings = {c: timer(device, c, M, N, K) for c in runnable}
    best = min(runnable, key=timings.__getitem__)
    cache = _read_cache(path)  # re-read: another process may have tuned meanwhile
    cache.setdefault(adapter, {})[key] = {
        "config": asdict(best), "seconds": timings[best], "problem": [M, N, K],
        "timings": {c.name: t for c, t in timings.items()}}
    _write_cache(path, cache)
    return best
