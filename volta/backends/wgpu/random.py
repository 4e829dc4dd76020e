"""Random numbers drawn on the device: Philox-4x32-10, a counter-based generator.

Note [device random numbers]: a draw of ``n`` numbers gets ``(key, offset)`` from volta's
generator (``Generator.philox_key_and_offset``: the key is the seed given to ``manual_seed``,
the offset counts 128-bit blocks already used, so a seed fixes every later draw). Thread ``i``
encrypts the counter ``(offset + i)`` (64 bits in words 0-1, words 2-3 zero) with the key and
turns the four 32-bit outputs into elements ``4i..4i+3``: uniform ``(x >> 8) * 2^-24`` in
[0, 1), or normal through Box-Muller on pairs. Nothing is generated on the host or uploaded.
The numbers differ from the CPU backend's (PCG64), as CUDA's differ from PyTorch's CPU ones.
"""

from __future__ import annotations

from volta import dtypes as D
from volta.backends.wgpu import runtime
from volta.backends.wgpu.allocator import Handle

UNIFORM, NORMAL = 0, 1

PHILOX_WGSL = """
// (hi, lo) 32-bit halves of the 64-bit product a * b (WGSL has no wide multiply)
fn mulhilo(a: u32, b: u32) -> vec2<u32> {
  let a0 = a & 0xFFFFu; let a1 = a >> 16u; let b0 = b & 0xFFFFu; let b1 = b >> 16u;
  let p00 = a0 * b0; let p01 = a0 * b1; let p10 = a1 * b0; let p11 = a1 * b1;
  let mid = (p00 >> 16u) + (p01 & 0xFFFFu) + (p10 & 0xFFFFu);
  return vec2<u32>(p11 + (p01 >> 16u) + (p10 >> 16u) + (mid >> 16u),
                   (mid << 16u) | (p00 & 0xFFFFu));
}

fn philox4x32_10(counter: vec4<u32>, key: vec2<u32>) -> vec4<u32> {
  var c = counter; var k = key;
  for (var r = 0u; r < 10u; r = r + 1u) {
    let p0 = mulhilo(0xD2511F53u, c.x);
    let p1 = mulhilo(0xCD9E8D57u, c.z);
    c = vec4<u32>(p1.x ^ c.y ^ k.x, p1.y, p0.x ^ c.w ^ k.y, p0.y);
    k = k + vec2<u32>(0x9E3779B9u, 0xBB67AE85u);
  }
  return c;
}

fn to_unit(x: u32) -> f32 { return f32(x >> 8u) * 5.9604644775390625e-8; }
"""

_SOURCES: dict[D.dtype, str] = {}


def _source(dt: D.dtype) -> str:
    src = _SOURCES.get(dt)
    if src is None:
        ty = "f16" if dt is D.float16 else "f32"
        # words: numel, key lo, key hi, offset lo, offset hi, distribution
        src = _SOURCES[dt] = (
            ("enable f16;\n" if dt is D.float16 else "") + runtime.PARAMS_WGSL +
            f"@group(0) @binding(1) var<storage, read_write> out: array<{ty}>;\n" +
            PHILOX_WGSL + f"""
@compute @workgroup_size({runtime.WORKGROUP})
fn main(@builtin(global_invocation_id) gid: vec3<u32>,
        @builtin(num_workgroups) nwg: vec3<u32>) {{
  let i = gid.x + gid.y * nwg.x * {runtime.WORKGROUP}u;
  let first = i * 4u;
  if (first >= pu(0u)) {{ return; }}
  let lo = pu(3u) + i;
  let hi = pu(4u) + select(0u, 1u, lo < i);  // carry of the 64-bit block number
  let x = philox4x32_10(vec4<u32>(lo, hi, 0u, 0u), vec2<u32>(pu(1u), pu(2u)));
  var v = vec4<f32>(to_unit(x.x), to_unit(x.y), to_unit(x.z), to_unit(x.w));
  if (pu(5u) == {NORMAL}u) {{
    // Box-Muller on (x, y) and (z, w); 1 - u is in (0, 1], so the log is finite
    let r0 = sqrt(-2.0 * log(1.0 - v.x)); let t0 = 6.283185307179586 * v.y;
    let r1 = sqrt(-2.0 * log(1.0 - v.z)); let t1 = 6.283185307179586 * v.w;
    v = vec4<f32>(r0 * cos(t0), r0 * sin(t0), r1 * cos(t1), r1 * sin(t1));
  }}
  for (var k = 0u; k < 4u; k = k + 1u) {{
    if (first + k < pu(0u)) {{ out[first + k] = {ty}(v[k]); }}
  }}
}}
""")
    return src


def blocks(numel: int) -> int:
    """128-bit Philox blocks a draw of ``numel`` numbers uses (four numbers per block)."""
    return -(-numel // 4)


def fill(handle: Handle, numel: int, dt: D.dtype, distribution: int, key: int,
         offset: int) -> None:
    """Record a kernel writing ``numel`` samples of ``distribution`` (UNIFORM or NORMAL) into
    ``handle`` from the Philox stream ``key`` starting at block ``offset``."""
    if numel == 0:
        return
    rt = handle.runtime
    if dt is D.float16:
        rt.require_f16("random numbers in float16")
    kernel = rt.kernel(_source(dt), (True,))
    words = [numel, key & 0xFFFFFFFF, (key >> 32) & 0xFFFFFFFF, offset & 0xFFFFFFFF,
             (offset >> 32) & 0xFFFFFFFF, distribution]
    rt.dispatch(kernel, [handle], runtime.pack(words), runtime.groups_for(blocks(numel)))
