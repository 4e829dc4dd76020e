"""``convolution`` and ``convolution_backward`` on the device: the implicit-GEMM kernels of
:mod:`.conv` (no im2col buffer), run through the runtime like :mod:`.linalg`'s GEMMs.

1-D convolutions are 2-D ones of height 1 (a free view). A transposed convolution is the
``grad_input`` of the convolution that maps its output to its input
(``Conv2dGeometry.transposed``), so its backward is that convolution's forward (for the
input) and its ``grad_weight`` with the roles of the operands swapped. Bias gradients are sums
over the batch and spatial dims (the reduce kernels). The kernels read NCHW operands at an
offset: non-contiguous operands are made contiguous on the device first.

A 3-D convolution is a sum over the kernel's depth taps of 2-D ones: tap ``kd`` reads the
depth slices ``kd * dilation + stride * o`` of the depth-padded input (a strided view), with
the output depths folded into the batch, so every step is one of the 2-D kernels; its backward
is the 2-D backward per tap, the input gradient added back into the same slices. A transposed
3-D convolution is the mirror image: tap ``kd``'s transposed 2-D convolution of every input
depth lands on depths ``kd * dilation + stride * i`` of the uncropped output, from which the
padding is cropped; its backward reads the same slices of the zero-padded gradient. Dtypes
other than float32/float16 have no kernel here (the gathers load floats): they run through
the CPU fallback explicitly (``linalg.cpu_path``), or raise when it is off.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from volta.backends.wgpu.kernels import conv as C
from volta.backends.wgpu.kernels.composed import _zeros, cat
from volta.backends.wgpu.kernels.copy import copy_into
from volta.backends.wgpu.kernels.linalg import GEMM_DTYPES, cpu_path, run_launch
from volta.backends.wgpu.kernels.shaping import pad
from volta.backends.wgpu.storage import empty, runtime_of
from volta.errors import InvalidArgumentError, ShapeError
from volta.tensor.checks import check_conv
from volta.tensor.tensor import Tensor


def _pair(values: Sequence[int], nd: int, fill: int) -> tuple[int, int]:
    """A per-dimension argument as (height, width); a 1-D conv gets ``fill`` for the height."""
    v = [int(x) for x in values]
    if len(v) == 1:
        v = v * nd
    return (fill, v[0]) if nd == 1 else (v[0], v[1])


# the implicit-GEMM gathers load floats: integer GEMMs are matmul-only
CONV_DTYPES = {dt: wgsl for dt, wgsl in GEMM_DTYPES.items() if dt.is_floating_point}


def _as_4d(t: Tensor) -> Tensor:
    """A contiguous NCHW view (a 1-D conv's NCL tensor gets height 1)."""
    t = t.contiguous()
    return t.view(t._shape[0], t._shape[1], 1, t._shape[2]) if t.ndim == 3 else t


def _supported(op: str, input: Tensor, weight: Tensor) -> str | None:
    """The kernels' WGSL dtype, or None when only the CPU path can run this convolution."""
    check_conv(input, weight)
    dtype = CONV_DTYPES.get(input.dtype)
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


def _triple(values: Sequence[int], fill: int) -> list[int]:
    v = [int(x) for x in values] or [fill]
    return v * 3 if len(v) == 1 else v


def _depths_into_batch(t: Tensor) -> Tensor:
    """(N, C, D, H, W) -> (N * D, C, H, W): the depths joined to the batch, so each depth tap
    is one 2-D convolution."""
    N, C, depth, H, W = t._shape
    return t.permute(0, 2, 1, 3, 4).reshape(N * depth, C, H, W)


def _depths_out_of_batch(t: Tensor, batch: int, depth: int) -> Tensor:
    """The inverse of :func:`_depths_into_batch`: (N * D, C, H, W) -> (N, C, D, H, W)."""
    return t.reshape((batch, depth) + t._shape[1:]).permute(0, 2, 1, 3, 4)


class _DepthTaps:
    """A 3-D convolution as 2-D ones per depth tap (see the module docstring)."""

    def __init__(self, input: Tensor, weight: Tensor, stride: Sequence[int],
                 padding: Sequence[int], dilation: Sequence[int], groups: int) -> None:
        self.input, self.weight, self.groups = input, weight, groups
        (self.sd, *self.s2), (self.pd, *self.p2) = _triple(stride, 1), _triple(padding, 0)
        self.dd, *self.d2 = _triple(dilation, 1)
        D = self.depth = input._shape[2]
        self.out_depth = (D + 2 * self.pd - self.dd * (weight._shape[2] - 1) - 1) // self.sd + 1
        if self.out_depth < 1:
            raise ShapeError(f"convolution: input depth {D} (padded by {self.pd}) is smaller "
                             f"than the kernel's {weight._shape[2]} taps")
        self.padded = pad(input, [0, 0, 0, 0, self.pd, self.pd]) if self.pd else input

    def slab(self, padded: Tensor, kd: int) -> Tensor:
        """The depth slices tap ``kd`` reads: a strided view (N, C, out_depth, H, W)."""
        start = kd * self.dd
        return padded[:, :, start:start + self.sd * (self.out_depth - 1) + 1:self.sd]

    def folded(self, t: Tensor) -> Tensor:
        return _depths_into_batch(t)

    def unfolded(self, t: Tensor) -> Tensor:
        return _depths_out_of_batch(t, self.input._shape[0], self.out_depth)

    def forward(self, bias: Tensor | None) -> Tensor:
        total = None
        for kd in range(self.weight._shape[2]):
            y = convolution(self.folded(self.slab(self.padded, kd)), self.weight[:, :, kd], None,
                            self.s2, self.p2, self.d2, False, [0, 0], self.groups)
            total = y if total is None else total + y
        assert total is not None
        out = self.unfolded(total)
        if bias is not None:
            out = out + bias.view(1, -1, 1, 1, 1)
        return out.contiguous()

    def backward(self, grad_output: Tensor, output_mask: Sequence[bool]) -> tuple[Any, Any, Any]:
        gy = self.folded(grad_output)
        grad_padded = _zeros(self.padded._shape, grad_output) if output_mask[0] else None
        weight_taps = []
        for kd in range(self.weight._shape[2]):
            gi, gw, _ = convolution_backward(
                gy, self.folded(self.slab(self.padded, kd)), self.weight[:, :, kd], self.s2,
                self.p2, self.d2, False, [0, 0], self.groups,
                [output_mask[0], output_mask[1], False])
            if grad_padded is not None:
                region = self.slab(grad_padded, kd)
                copy_into(region, region + self.unfolded(gi))
            weight_taps.append(gw)
        gi = None if grad_padded is None else \
            grad_padded.narrow(2, self.pd, self.depth).contiguous()
        gw = _stack(weight_taps, 2) if output_mask[1] else None
        gb = grad_output.sum([0, 2, 3, 4]) if output_mask[2] else None
        return gi, gw, gb


def _stack(tensors: Sequence[Tensor], dim: int) -> Tensor:
    return cat([t.unsqueeze(dim) for t in tensors], dim)


class _TransposedDepthTaps:
    """A transposed 3-D convolution as transposed 2-D ones per depth tap (see the module
    docstring): input depths join the batch, each tap's result is added into its depth slices
    of the uncropped output."""

    def __init__(self, input: Tensor, weight: Tensor, stride: Sequence[int],
                 padding: Sequence[int], dilation: Sequence[int],
                 output_padding: Sequence[int], groups: int) -> None:
        self.input, self.weight, self.groups = input, weight, groups
        (self.sd, *self.s2), (self.pd, *self.p2) = _triple(stride, 1), _triple(padding, 0)
        (self.dd, *self.d2), (opd, *self.op2) = _triple(dilation, 1), _triple(output_padding, 0)
        if min(self.sd, self.dd) < 1 or min(self.pd, opd) < 0:
            raise InvalidArgumentError("convolution: stride and dilation must be positive, "
                                       "padding and output_padding non-negative")
        if opd >= max(self.sd, self.dd):
            raise InvalidArgumentError(f"convolution: output padding must be smaller than "
                                       f"either stride or dilation, but got output_padding "
                                       f"depth {opd}, stride {self.sd}, dilation {self.dd}")
        self.depth = input._shape[2]
        taps = weight._shape[2]
        self.full_depth = (self.depth - 1) * self.sd + self.dd * (taps - 1) + 1 + opd
        self.out_depth = self.full_depth - 2 * self.pd
        if self.out_depth < 1:
            raise ShapeError(f"convolution: the transposed convolution's output depth would be "
                             f"{self.out_depth} (input depth {self.depth}, padding {self.pd})")
        self.x = _depths_into_batch(input)

    def slab(self, full: Tensor, kd: int) -> Tensor:
        """The output depths tap ``kd`` writes, one per input depth: a strided view."""
        start = kd * self.dd
        return full[:, :, start:start + self.sd * (self.depth - 1) + 1:self.sd]

    def folded(self, t: Tensor) -> Tensor:
        return _depths_into_batch(t)

    def unfolded(self, t: Tensor) -> Tensor:
        return _depths_out_of_batch(t, self.input._shape[0], self.depth)

    def tap(self, kd: int) -> Tensor:
        return self.weight[:, :, kd]

    def forward(self, bias: Tensor | None) -> Tensor:
        full = None
        for kd in range(self.weight._shape[2]):
            y = convolution(self.x, self.tap(kd), None, self.s2, self.p2, self.d2, True,
                            self.op2, self.groups)
            if full is None:
                N = self.input._shape[0]
                full = _zeros((N, y._shape[1], self.full_depth, *y._shape[2:]), y)
            region = self.slab(full, kd)
            copy_into(region, region + self.unfolded(y))
        assert full is not None
        out = full.narrow(2, self.pd, self.out_depth)
        if bias is not None:
            out = out + bias.view(1, -1, 1, 1, 1)
        return out.contiguous()

    def backward(self, grad_output: Tensor, output_mask: Sequence[bool]) -> tuple[Any, Any, Any]:
        padded = pad(grad_output, [0, 0, 0, 0, self.pd, self.full_depth - self.pd
                                   - self.out_depth]) if self.full_depth != self.out_depth \
            else grad_output
        grad_x = None
        weight_taps = []
        for kd in range(self.weight._shape[2]):
            gi, gw, _ = convolution_backward(
                self.folded(self.slab(padded, kd)), self.x, self.tap(kd), self.s2, self.p2,
                self.d2, True, self.op2, self.groups, [output_mask[0], output_mask[1], False])
            if output_mask[0]:
                grad_x = gi if grad_x is None else grad_x + gi
            weight_taps.append(gw)
        gi = None if grad_x is None else self.unfolded(grad_x).contiguous()
        gw = _stack(weight_taps, 2) if output_mask[1] else None
        gb = grad_output.sum([0, 2, 3, 4]) if output_mask[2] else None
        return gi, gw, gb


def _depth_taps(input: Tensor, weight: Tensor, transposed: bool, stride: Sequence[int],
                padding: Sequence[int], dilation: Sequence[int], output_padding: Sequence[int],
                groups: int) -> _DepthTaps | _TransposedDepthTaps | None:
    """The 3-D convolution as 2-D taps when the 2-D kernels can run them, else None."""
    if input.ndim != 5 or CONV_DTYPES.get(input.dtype) is None:
        return None
    check_conv(input, weight)
    if weight.ndim != 5:
        return None  # the CPU path reports the mismatch
    if transposed:
        return _TransposedDepthTaps(input, weight, stride, padding, dilation, output_padding,
                                    groups)
    return _DepthTaps(input, weight, stride, padding, dilation, groups)


def convolution(input: Tensor, weight: Tensor, bias: Tensor | None, stride: Sequence[int],
                padding: Sequence[int], dilation: Sequence[int], transposed: bool,
                output_padding: Sequence[int], groups: int) -> Tensor:
    taps = _depth_taps(input, weight, transposed, stride, padding, dilation, output_padding,
                       groups)
    if taps is not None:
        return taps.forward(bias)
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
    taps = _depth_taps(input, weight, transposed, stride, padding, dilation, output_padding,
                       groups)
    if taps is not None:
        return taps.backward(grad_output, output_mask)
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
