"""conv2d forward and both backward passes as implicit GEMM, on the matmul generator.

No im2col buffer: the GEMM's A/B tile loaders are :class:`GatherSource` s whose fetch
function computes, for a tile element (x, k), which input/weight/grad element it stands for
(``(n, c, ih, iw)`` from ``(oh, ow, c, kh, kw)`` with stride, padding and dilation) and
reads it, or 0 in the padding. Tiling, shared memory, accumulation and epilogue are
:func:`matmul.generate`'s. NCHW, weight ``[OC, C / groups, KH, KW]``. The geometry is baked
into the shader as constants (so index arithmetic divides by constants); offsets travel in
the uniform block like matmul's.

Per group g (the second batch index ``b1``) and, for the first two, per image n (``b0``):

==============  =============  ================  =================  =========================
kernel          M (rows)       N (columns)       K (reduction)      A, B
==============  =============  ================  =================  =========================
forward         OC/G  (oc)     OH*OW (oh, ow)    C/G*KH*KW          weight, input patches
grad_input      C/G   (c)      H*W   (ih, iw)    OC/G*KH*KW         weight^T, grad_output
grad_weight     OC/G  (oc)     C/G*KH*KW         B*OH*OW            grad_output, input patches
==============  =============  ================  =================  =========================

Bindings are matmul's: 0 params, 1 A, 2 B, 3 C (the result), 4 bias (forward with bias).
``conv_transpose2d`` is ``grad_input`` of the conv2d that maps its output to its input;
conv1d is conv2d with height 1.
"""

from __future__ import annotations

from dataclasses import dataclass

from volta.backends.wgpu.kernels.matmul import (
    Dtype,
    GemmLaunch,
    GemmSpec,
    Layout,
    MatmulConfig,
    OperandSource,
    batch_base,
    choose_splits,
    default_config,
    plan_gemm,
    strided_source,
)
from volta.errors import InvalidArgumentError


@dataclass(frozen=True)
class Conv2dGeometry:
    """Shapes and hyper-parameters of one conv2d (PyTorch's meaning of each)."""

    batch: int
    in_channels: int
    height: int
    width: int
    out_channels: int
    kernel: tuple[int, int]
    stride: tuple[int, int] = (1, 1)
    padding: tuple[int, int] = (0, 0)
    dilation: tuple[int, int] = (1, 1)
    groups: int = 1

    def __post_init__(self) -> None:
        if self.in_channels % self.groups or self.out_channels % self.groups:
            raise InvalidArgumentError(
                f"in_channels ({self.in_channels}) and out_channels ({self.out_channels}) must "
                f"be divisible by groups ({self.groups})")
        if min(*self.stride, *self.dilation, *self.kernel) < 1 or min(self.padding) < 0:
            raise InvalidArgumentError(f"invalid conv2d geometry {self}")
        if self.out_height < 1 or self.out_width < 1:
            raise InvalidArgumentError(
                f"conv2d output would be {self.out_height}x{self.out_width} for input "
                f"{self.height}x{self.width} and kernel {self.kernel}")

    @classmethod
    def conv1d(cls, batch: int, in_channels: int, length: int, out_channels: int,
               kernel: int, stride: int = 1, padding: int = 0, dilation: int = 1,
               groups: int = 1) -> Conv2dGeometry:
        """conv1d over ``length`` as a conv2d of height 1."""
        return cls(batch, in_channels, 1, length, out_channels, (1, kernel), (1, stride),
                   (0, padding), (1, dilation), groups)

    @classmethod
    def transposed(cls, batch: int, in_channels: int, height: int, width: int,
                   out_channels: int, kernel: tuple[int, int], stride: tuple[int, int] = (1, 1),
                   padding: tuple[int, int] = (0, 0), output_padding: tuple[int, int] = (0, 0),
                   dilation: tuple[int, int] = (1, 1), groups: int = 1) -> Conv2dGeometry:
        """The conv2d whose grad_input is ``conv_transpose2d`` with these arguments.

        Its "input" is the transposed conv's output, its "output" the transposed conv's input,
        and its weight ``[in_channels, out_channels / groups, KH, KW]`` is exactly
        conv_transpose2d's weight.
        """
        out_h, out_w = (
            (size - 1) * s - 2 * p + d * (k - 1) + op + 1
            for size, s, p, d, k, op in zip((height, width), stride, padding, dilation, kernel,
                                             output_padding))
        geometry = cls(batch, out_channels, out_h, out_w, in_channels, kernel, stride, padding,
                       dilation, groups)
        if (geometry.out_height, geometry.out_width) != (height, width):
            raise InvalidArgumentError(
                f"output_padding {output_padding} must be smaller than stride {stride} or "
                f"dilation {dilation}")
        return geometry

    @property
    def out_height(self) -> int:
        return self._out(self.height, 0)

    @property
    def out_width(self) -> int:
        return self._out(self.width, 1)

    def _out(self, size: int, axis: int) -> int:
        span = self.dilation[axis] * (self.kernel[axis] - 1) + 1
        return (size + 2 * self.padding[axis] - span) // self.stride[axis] + 1

    @property
    def input_shape(self) -> tuple[int, int, int, int]:
        return (self.batch, self.in_channels, self.height, self.width)

    @property
    def weight_shape(self) -> tuple[int, int, int, int]:
        return (self.out_channels, self.in_channels // self.groups, *self.kernel)

    @property
    def output_shape(self) -> tuple[int, int, int, int]:
        return (self.batch, self.out_channels, self.out_height, self.out_width)


@dataclass(frozen=True)
class GatherSource:
    """A GEMM operand read through a generated fetch function.

    ``body`` is WGSL that, given ``x`` and ``k`` (u32, inside the problem), defines
    ``valid: bool`` and ``index: u32`` (relative to the batch base); elements outside the
    problem or not ``valid`` (padding) read as 0.
    """

    layout: Layout
    body: tuple[str, ...]
    vec4: bool = False

    def setup(self, prefix: str) -> list[str]:
        return batch_base(prefix)

    def helpers(self, prefix: str, dtype: Dtype) -> list[str]:
        x_extent = "params.M" if prefix == "a" else "params.N"
        return [f"fn {prefix}_fetch(base: u32, x: u32, k: u32, k_end: u32) -> f32 {{",
                f"  if (x >= {x_extent} || k >= k_end) {{ return 0.0; }}",
                *("  " + line for line in self.body),
                "  if (!valid) { return 0.0; }",
                f"  return f32({prefix}_buf[base + index]);",
                "}"]

    def load(self, prefix: str, var: str, x: str, k: str, x_extent: str,
             checked: bool) -> list[str]:
        return [f"{var} = {prefix}_fetch({prefix}_base, {x}, {k}, k_end);"]

    def load4(self, prefix: str, var: str, x: str, k: str, x_extent: str,
              checked: bool) -> list[str]:
        raise InvalidArgumentError("gathered conv operands have no vec4 loads")


def _sizes(g: Conv2dGeometry) -> tuple[int, int, int, int, int]:
    """(groups, in channels per group, out channels per group, KH * KW, OH * OW)."""
    return (g.groups, g.in_channels // g.groups, g.out_channels // g.groups,
            g.kernel[0] * g.kernel[1], g.out_height * g.out_width)


def _row_blocks(block: int, block_stride: int) -> GatherSource:
    """Element (x, k) at ``(k / block) * block_stride + x * block + k % block``: a matrix
    whose k runs through blocks of ``block`` contiguous elements, one block per x."""
    return GatherSource("k", (
        f"let index = (k / {block}u) * {block_stride}u + x * {block}u + k % {block}u;",
        "let valid = true;"))


def _split_kernel_index(g: Conv2dGeometry, var: str, channel: str) -> list[str]:
    """WGSL splitting ``var`` = (channel, kh, kw) flattened, as the weight is laid out."""
    kh, kw = g.kernel
    return [f"let {channel} = {var} / {kh * kw}u;",
            f"let kh = ({var} % {kh * kw}u) / {kw}u;",
            f"let kw = {var} % {kw}u;"]


def _input_patch(g: Conv2dGeometry) -> list[str]:
    """WGSL from (n, c, kh, kw, oh, ow) to the input element: ``valid`` and ``index``."""
    (sh, sw), (ph, pw), (dh, dw) = g.stride, g.padding, g.dilation
    return [f"let ih = i32(oh * {sh}u + kh * {dh}u) - {ph};",
            f"let iw = i32(ow * {sw}u + kw * {dw}u) - {pw};",
            f"let valid = ih >= 0 && ih < {g.height} && iw >= 0 && iw < {g.width};",
            f"let index = n * {g.in_channels * g.height * g.width}u"
            f" + c * {g.height * g.width}u + u32(ih) * {g.width}u + u32(iw);"]


def _launch(config: MatmulConfig, a: OperandSource, b: OperandSource, M: int, N: int, K: int,
            batch: tuple[int, int], dtype: Dtype, bias: bool, name: str, splits: int = 1,
            **params: float) -> GemmLaunch:
    aligned = M % config.bm == 0 and N % config.bn == 0 and K % config.bk == 0
    spec = GemmSpec(config, a, b, dtype=dtype, aligned=aligned,
                    bias="m" if bias else "none", a_vec_storage=a.vec4,
                    b_vec_storage=False, name=name)
    return plan_gemm(spec, M, N, K, batch, params, splits)


def conv2d_forward(g: Conv2dGeometry, *, config: MatmulConfig | None = None,
                   dtype: Dtype = "f32", bias: bool = False, x_offset: int = 0,
                   w_offset: int = 0, y_offset: int = 0, bias_offset: int = 0) -> GemmLaunch:
    """y = conv2d(x, w) (+ bias): bind A = weight, B = input, C = output, 4 = bias."""
    G, cg, ocg, khw, ohw = _sizes(g)
    M, N, K = ocg, ohw, cg * khw
    config = config or default_config(M, N, K)
    weight = strided_source(K, 1, M, K, w_offset, (0, ocg * K), config.vec4)
    patches = GatherSource("x", (
        "let n = 0u;",  # the image is the batch index b0, already in the base
        *_split_kernel_index(g, "k", "c"),
        f"let oh = x / {g.out_width}u;",
        f"let ow = x % {g.out_width}u;",
        *_input_patch(g)))
    chw = g.in_channels * g.height * g.width
    return _launch(config, weight, patches, M, N, K, (g.batch, G), dtype, bias,
                   "conv2d_forward",
                   a_off=w_offset, a_sb1=ocg * K, a_sx=K, a_sk=1,
                   b_off=x_offset, b_sb0=chw, b_sb1=cg * g.height * g.width,
                   c_off=y_offset, c_sb0=g.out_channels * ohw, c_sb1=ocg * ohw, c_sm=ohw,
                   c_sn=1, bias_off=bias_offset, bias_sb1=ocg, bias_s=1)


def conv2d_grad_input(g: Conv2dGeometry, *, config: MatmulConfig | None = None,
                      dtype: Dtype = "f32", w_offset: int = 0, grad_output_offset: int = 0,
                      grad_input_offset: int = 0) -> GemmLaunch:
    """grad_input of conv2d: bind A = weight, B = grad_output, C = grad_input."""
    G, cg, ocg, khw, ohw = _sizes(g)
    (sh, sw), (ph, pw), (dh, dw) = g.stride, g.padding, g.dilation
    oh, ow = g.out_height, g.out_width
    M, N, K = cg, g.height * g.width, ocg * khw
    config = config or default_config(M, N, K)
    weight_t = _row_blocks(khw, cg * khw)  # k = (oc, kh, kw), x = c
    # input pixel (ih, iw) receives from output pixel (th / sh, tw / sw) when it divides
    grad_out = GatherSource("x", (
        *_split_kernel_index(g, "k", "oc"),
        f"let th = i32(x / {g.width}u) + {ph} - i32(kh * {dh}u);",
        f"let tw = i32(x % {g.width}u) + {pw} - i32(kw * {dw}u);",
        f"let valid = th >= 0 && tw >= 0 && th % {sh} == 0 && tw % {sw} == 0"
        f" && th / {sh} < {oh} && tw / {sw} < {ow};",
        f"let index = oc * {ohw}u + u32(th / {sh}) * {ow}u + u32(tw / {sw});"))
    hw = g.height * g.width
    return _launch(config, weight_t, grad_out, M, N, K, (g.batch, G), dtype, False,
                   "conv2d_grad_input",
                   a_off=w_offset, a_sb1=ocg * cg * khw,
                   b_off=grad_output_offset, b_sb0=g.out_channels * ohw, b_sb1=ocg * ohw,
                   c_off=grad_input_offset, c_sb0=g.in_channels * hw, c_sb1=cg * hw, c_sm=hw,
                   c_sn=1)


def conv2d_grad_weight(g: Conv2dGeometry, *, config: MatmulConfig | None = None,
                       dtype: Dtype = "f32", x_offset: int = 0, grad_output_offset: int = 0,
                       grad_weight_offset: int = 0, split_k: int | None = None) -> GemmLaunch:
    """grad_weight of conv2d: bind A = grad_output, B = input, C = grad_weight.

    Its K (batch x output pixels) is long and its output small, so by default it is split
    (:func:`matmul.choose_splits`, f32 only): see :class:`matmul.GemmLaunch` for the scratch
    buffer and the reduce stage.
    """
    G, cg, ocg, khw, ohw = _sizes(g)
    M, N, K = ocg, cg * khw, g.batch * ohw
    config = config or default_config(M, N, K)
    grad_out = _row_blocks(ohw, g.out_channels * ohw)  # k = (n, oh, ow), x = oc
    patches = GatherSource("k", (
        *_split_kernel_index(g, "x", "c"),
        f"let n = k / {ohw}u;",
        f"let oh = (k % {ohw}u) / {g.out_width}u;",
        f"let ow = k % {g.out_width}u;",
        *_input_patch(g)))
    if split_k is None:
        split_k = choose_splits(config, M, N, K, G) if dtype == "f32" else 1
    return _launch(config, grad_out, patches, M, N, K, (1, G), dtype, False,
                   "conv2d_grad_weight", split_k,
                   a_off=grad_output_offset, a_sb1=ocg * ohw,
                   b_off=x_offset, b_sb1=cg * g.height * g.width,
                   c_off=grad_weight_offset, c_sb1=ocg * cg * khw, c_sm=cg * khw, c_sn=1)


def conv_transpose2d(g: Conv2dGeometry, **kwargs: object) -> GemmLaunch:
    """conv_transpose2d(x, w) for ``g = Conv2dGeometry.transposed(...)``: bind A = w,
    B = x, C = the result. Offsets as :func:`conv2d_grad_input` (x is its grad_output)."""
    return conv2d_grad_input(g, **kwargs)  # type: ignore[arg-type]
