"""``convolution`` and ``convolution_backward`` on the device: the implicit-GEMM kernels of
:mod:`.conv` (no im2col buffer), run through the runtime like :mod:`.linalg`'s GEMMs.

1-D convolutions are 2-D ones of height 1 (a free view). A transposed convolution is the
``grad_input`` of the convolution that maps its output to its input
(``Conv2dGeometry.transposed``), so its backward is that convolution's forward (for the
input) and its ``grad_weight`` with the roles of the operands swapped. Bias gradients are sums
over the batch and spatial dims (the reduce kernels). The kernels read NCHW operands at an
offset: non-contiguous operands are made contiguous on the device first.

3-D convolutions and dtypes other than float32/float16 have no kernel here: they run through
the CPU fallback explicitly (``linalg.cpu_path``), or raise when it is off.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from volta.backends.wgpu.kernels import conv as C
from volta.backends.wgpu.kernels.linalg import GEMM_DTYPES, cpu_path, run_launch
from volta.backends.wgpu.storage import empty, runtime_of
from volta.errors import ShapeError
from volta.tensor.checks import check_conv
from volta.tensor.tensor import Tensor


def _pair(values: Sequence[int], nd: int, fill: int) -> tuple[int, int]:
    """A per-dimension argument as (height, width); a 1-D conv gets ``fill`` for the height."""
    v = [int(x) for x in values]
    if len(v) == 1:
        v = v * nd
    return (fill, v[0]) if nd == 1 else (v[0], v[1])


def _as_4d(t: Tensor) -> Tensor:
    """A contiguous NCHW view (a 1-D conv's NCL tensor gets height 1)."""
    t = t.contiguous()
    return t.view(t._shape[0], t._shape[1], 1, t._shape[2]) if t.ndim == 3 else t


def _supported(op: str, input: Tensor, weight: Tensor) -> str | None:
    """The kernels' WGSL dtype, or None when only the CPU path can run this convolution."""
    check_conv(input, weight)
    dtype = GEMM_DTYPES.get(input.dtype)
    if input.ndim not in (3, 4) or dtype is None:
        return None
    if dtype == "f16":
        runtime_of(input).require_f16(op)
    return dtype


def _geometry(x: Tensor, w: Tensor, stride: Sequence[int], padding: Sequence[int],
              dilation: Sequence[int], transposed: bool, output_padding: Sequence[int],
              groups: int, nd: int) -> C.Conv2dGeometry:
    """The conv2d geometry of this (possibly transposed, possibly 1-D) convolution; ``x`` and
    ``w`` are the 4-D views."""
    B, Cin, H, W = x._shape
    kernel = (w._shape[2], w._shape[3])
    s, p, d = _pair(stride, nd, 1), _pair(padding, nd, 0), _pair(dilation, nd, 1)
    channels = w._shape[0] if transposed else w._shape[1] * groups
    if Cin != channels:
        raise ShapeError(f"Given groups={groups}, weight of size {list(w.shape)}, expected "
                         f"input{list(x.shape)} to have {channels} channels, but got "
                         f"{Cin} channels instead")
    if transposed:
        return C.Conv2dGeometry.transposed(B, Cin, H, W, w._shape[1] * groups, kernel, s, p,
                                           _pair(output_padding, nd, 0), d, groups)
    return C.Conv2dGeometry(B, Cin, H, W, w._shape[0], kernel, s, p, d, groups)


def _shaped(t: Tensor, nd: int) -> Tensor:
    """A 4-D result back in the caller's rank (drop the height of a 1-D conv)."""
    return t.view(t._shape[0], t._shape[1], t._shape[3]) if nd == 1 else t


def _bias_grad(grad: Tensor) -> Tensor:
    return grad.sum([0, 2, 3])


def convolution(input: Tensor, weight: Tensor, bias: Tensor | None, stride: Sequence[int],
                padding: Sequence[int], dilation: Sequence[int], transposed: bool,
                output_padding: Sequence[int], groups: int) -> Tensor:
    dtype = _supported("convolution", input, weight)
    if dtype is None:
        return cpu_path("convolution", input, weight, bias, stride, padding, dilation,
                        transposed, output_padding, groups)
    nd = input.ndim - 2
    x, w = _as_4d(input), _as_4d(weight)
    g = _geometry(x, w, stride, padding, dilation, transposed, output_padding, groups, nd)
    if transposed:
        out = empty(g.input_shape, input.dtype, input._device)
        if out.numel():
            run_launch(C.conv_transpose2d(g, dtype=dtype, w_offset=w._offset,
                                          grad_output_offset=x._offset), w, x, out)
        if bias is not None:
            out.add_(bias.view(1, -1, 1, 1))
        return _shaped(out, nd)
    out = empty(g.output_shape, input.dtype, input._device)
    if out.numel():
        b = None if bias is None else bias.contiguous()
        run_launch(C.conv2d_forward(g, dtype=dtype, bias=b is not None, x_offset=x._offset,
                                    w_offset=w._offset,
                                    bias_offset=0 if b is None else b._offset), w, x, out, b)
    return _shaped(out, nd)


def convolution_backward(grad_output: Tensor, input: Tensor, weight: Tensor,
                         stride: Sequence[int], padding: Sequence[int],
                         dilation: Sequence[int], transposed: bool,
                         output_padding: Sequence[int], groups: int,
                         output_mask: Sequence[bool]) -> tuple[Any, Any, Any]:
    dtype = _supported("convolution_backward", input, weight)
    if dtype is None:
        return cpu_path("convolution_backward", grad_output, input, weight, stride, padding,
                        dilation, transposed, output_padding, groups, output_mask)
    nd = input.ndim - 2
    x, w, gy = _as_4d(input), _as_4d(weight), _as_4d(grad_output)
    g = _geometry(x, w, stride, padding, dilation, transposed, output_padding, groups, nd)
    gi = gw = gb = None
    if output_mask[0]:
        gi = empty(x._shape, input.dtype, input._device)
        if gi.numel():
            if transposed:  # the input of a transposed conv is g's output: g's forward
                launch = C.conv2d_forward(g, dtype=dtype, x_offset=gy._offset,
                                          w_offset=w._offset)
            else:
                launch = C.conv2d_grad_input(g, dtype=dtype, w_offset=w._offset,
                                             grad_output_offset=gy._offset)
            run_launch(launch, w, gy, gi)
        gi = _shaped(gi, nd)
    if output_mask[1]:
        gw = empty(w._shape, weight.dtype, weight._device)
        if gw.numel():
            if x.numel() == 0 or gy.numel() == 0:
                gw.fill_(0)
            elif transposed:  # g's grad_output is this input, g's input this grad
                run_launch(C.conv2d_grad_weight(g, dtype=dtype, x_offset=gy._offset,
                                                grad_output_offset=x._offset), x, gy, gw)
            else:
                run_launch(C.conv2d_grad_weight(g, dtype=dtype, x_offset=x._offset,
                                                grad_output_offset=gy._offset), gy, x, gw)
        gw = _shaped(gw, nd)
    if output_mask[2]:
        gb = _bias_grad(gy)
    return gi, gw, gb


KERNELS = {"convolution": convolution, "convolution_backward": convolution_backward}
