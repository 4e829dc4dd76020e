"""``F.interpolate``: resizing ``(N, C, *spatial)`` one spatial dimension at a time.

Every mode PyTorch has is separable: output index ``j`` of a dimension reads a few input
indices ``i_k`` with weights ``w_k`` that depend on the sizes only. Those taps are computed here
from the sizes (host integers, no tensor data) following ATen's ``UpSample.h`` coordinate rules,
and the resize is ``sum_k index_select(x, dim, i_k) * w_k``: volta ops only, so it runs on every
backend and autograd differentiates it (``index_select``'s backward is ``index_add``).
"""

from __future__ import annotations

import math
import struct
from collections.abc import Callable, Sequence
from typing import Any

import volta
from volta._generated import registry as _R
from volta.errors import InvalidArgumentError

Tensor = Any
# per output index: the input indices it reads and their weights
Taps = list[list[tuple[int, float]]]

# the spatial rank each mode needs (None: any of 1-3)
_MODE_RANK: dict[str, int | None] = {
    "nearest": None, "nearest-exact": None, "area": None, "linear": 1, "bilinear": 2,
    "bicubic": 2, "trilinear": 3, "lanczos": 2,
}
_INTERPOLATING = ("linear", "bilinear", "bicubic", "trilinear", "lanczos")
_RANK_NAMES = {1: ("3D", "linear"), 2: ("4D", "bilinear"), 3: ("5D", "trilinear")}


def _f32(x: float) -> float:
    """``x`` rounded to float32: ATen computes nearest-neighbour indices in float."""
    return struct.unpack("f", struct.pack("f", x))[0]


def interpolate(input: Tensor, size: Any = None, scale_factor: Any = None,
                mode: str = "nearest", align_corners: bool | None = None,
                recompute_scale_factor: bool | None = None, antialias: bool = False) -> Tensor:
    """Resizes the spatial dimensions of ``(N, C, *spatial)`` (1 to 3 of them).

    Args:
        size: the output spatial size (an int for all dimensions, or one per dimension), or
        scale_factor: the multiplier(s) of the spatial size (the output size is floored).
        mode: ``"nearest"`` (PyTorch's legacy rule ``floor(j * scale)``), ``"nearest-exact"``
            (pixel centres), ``"linear"`` (3-D input), ``"bilinear"``/``"bicubic"`` (4-D),
            ``"trilinear"`` (5-D), ``"area"`` (adaptive average pooling), ``"lanczos"``
            (4-D, with ``antialias=True``).
        align_corners: for the interpolating modes, map the corner pixels onto each other
            instead of the pixel edges. Default ``False``.
        recompute_scale_factor: compute the coordinate scale from the floored output size
            instead of using ``scale_factor`` itself.
        antialias: for ``"bilinear"``/``"bicubic"`` downsampling, widen the filter to the
            scale (as PIL), so that every input pixel contributes.
    """
    if mode not in _MODE_RANK:
        raise InvalidArgumentError(
            f"Input Error: Only 3D, 4D and 5D input Tensors supported (got {input.ndim}D) for "
            "the modes: nearest | linear | bilinear | bicubic | trilinear | lanczos | area | "
            f"nearest-exact (got {mode})")
    if mode in _INTERPOLATING:
        align_corners = bool(align_corners)
    elif align_corners is not None:
        raise InvalidArgumentError(
            "align_corners option can only be set with the interpolating modes: "
            "linear | bilinear | bicubic | trilinear")
    _check_rank(input, mode)
    sizes, factors = _output_sizes(input, size, scale_factor, mode, recompute_scale_factor)
    if antialias and mode not in ("bilinear", "bicubic", "lanczos"):
        raise InvalidArgumentError(
            "Anti-alias option is restricted to bilinear, bicubic, and lanczos modes and "
            "requires a 4-D tensor as input")
    if mode == "lanczos":
        if align_corners:
            raise InvalidArgumentError("Lanczos mode does not support align_corners=True")
        if not antialias:
            raise InvalidArgumentError("Lanczos mode requires antialias=True")
    if mode == "area":
        return _R.adaptive_avg_pool(input, sizes)
    out = input
    for i, out_size in enumerate(sizes):
        in_size = input.shape[2 + i]
        taps = _taps(mode, in_size, out_size, factors[i], bool(align_corners), antialias)
        if taps is not None:
            out = _resample(out, 2 + i, taps)
    return out


def _check_rank(input: Tensor, mode: str) -> None:
    spatial = input.ndim - 2
    if spatial not in (1, 2, 3):
        raise InvalidArgumentError(
            f"Input Error: Only 3D, 4D and 5D input Tensors supported (got {input.ndim}D) for "
            "the modes: nearest | linear | bilinear | bicubic | trilinear | lanczos | area | "
            f"nearest-exact (got {mode})")
    need = _MODE_RANK[mode]
    if need is not None and need != spatial:
        raise InvalidArgumentError(
            f"Got {input.ndim}D input, but {mode} mode needs {_RANK_NAMES[need][0]} input")


def _output_sizes(input: Tensor, size: Any, scale_factor: Any, mode: str,
                  recompute_scale_factor: bool | None
                  ) -> tuple[list[int], list[float | None]]:
    """The output sizes, and the scale factors the coordinate maps use (None: sizes' ratio)."""
    spatial = input.ndim - 2
    shape = list(input.shape[2:])
    if size is not None and scale_factor is not None:
        raise InvalidArgumentError("only one of size or scale_factor should be defined")
    if size is None and scale_factor is None:
        raise InvalidArgumentError("either size or scale_factor should be defined")
    if size is not None:
        if recompute_scale_factor:
            raise InvalidArgumentError(
                "recompute_scale_factor is not meaningful with an explicit size.")
        sizes = list(size) if isinstance(size, (list, tuple)) else [size] * spatial
        if len(sizes) != spatial:
            raise InvalidArgumentError(
                "Input and output must have the same number of spatial dimensions, but got "
                f"input with spatial dimensions of {shape} and output size of {size}. Please "
                "provide input tensor in (N, C, d1, d2, ...,dK) format and output size in "
                "(o1, o2, ...,oK) format.")
        factors: list[float | None] = [None] * spatial
    else:
        raw = (list(scale_factor) if isinstance(scale_factor, (list, tuple))
               else [scale_factor] * spatial)
        if len(raw) != spatial:
            raise InvalidArgumentError(
                "Input and scale_factor must have the same number of spatial dimensions, but "
                f"got input with spatial dimensions of {shape} and scale_factor of shape "
                f"{scale_factor}. Please provide input tensor in (N, C, d1, d2, ...,dK) format "
                "and scale_factor in (s1, s2, ...,sK) format.")
        factors = [float(f) for f in raw]
        sizes = [math.floor(shape[i] * factors[i]) for i in range(spatial)]
        # area always maps through the sizes, like an explicit recompute
        if recompute_scale_factor or mode == "area":
            factors = [None] * spatial
    sizes = [int(s) for s in sizes]
    # area is adaptive pooling, which allows empty outputs
    if mode != "area" and (any(s <= 0 for s in shape) or any(s <= 0 for s in sizes)):
        names = "DHW"[-spatial:]

        def describe(values: list[int]) -> str:
            return "(" + ", ".join(f"{n}: {v}" for n, v in zip(names, values)) + ")"

        raise InvalidArgumentError(
            "Input and output sizes should be greater than 0, but got input "
            f"{describe(shape)}{' and' if spatial == 1 else ''} output {describe(sizes)}")
    return sizes, factors


def _taps(mode: str, in_size: int, out_size: int, factor: float | None, align_corners: bool,
          antialias: bool) -> Taps | None:
    """The taps of one dimension; None where the dimension is copied unchanged."""
    if mode in ("nearest", "nearest-exact"):
        return _nearest_taps(in_size, out_size, factor, mode == "nearest-exact")
    scale = _area_pixel_scale(in_size, out_size, factor, align_corners)
    if antialias:
        if in_size == out_size:
            return None
        support, kernel = _AA_FILTERS[mode]
        return _antialias_taps(in_size, out_size, scale, support, kernel)
    if mode == "bicubic":
        return _cubic_taps(in_size, out_size, scale, align_corners)
    if in_size == out_size:
        return None
    return _linear_taps(in_size, out_size, scale, align_corners)


def _area_pixel_scale(in_size: int, out_size: int, factor: float | None,
                      align_corners: bool) -> float:
    """Input coordinate step per output index (ATen's ``area_pixel_compute_scale``)."""
    if align_corners:
        return (in_size - 1) / (out_size - 1) if out_size > 1 else 0.0
    return 1.0 / factor if factor is not None and factor > 0 else in_size / out_size


def _source_index(scale: float, j: int, align_corners: bool, cubic: bool) -> float:
    """Where output index ``j`` sits in input coordinates (``area_pixel_compute_source_index``);
    only the cubic filter reads left of the first pixel centre."""
    if align_corners:
        return scale * j
    src = scale * (j + 0.5) - 0.5
    return src if cubic or src >= 0 else 0.0


def _nearest_taps(in_size: int, out_size: int, factor: float | None, exact: bool) -> Taps:
    if not exact and out_size == in_size:
        # a copy even when scale_factor is not 1 (ATen's nearest_idx; its 1-D/3-D forward
        # kernels disagree with their own backward there, the 2-D one agrees)
        return [[(j, 1.0)] for j in range(out_size)]
    scale = _f32(1.0 / factor) if factor is not None and factor > 0 else \
        _f32(in_size / out_size)
    taps = []
    for j in range(out_size):
        src = _f32((j + 0.5) * scale) if exact else _f32(_f32(j) * scale)
        taps.append([(min(math.floor(src), in_size - 1), 1.0)])
    return taps


def _floor_and_fraction(src: float, in_size: int) -> tuple[int, float]:
    """ATen's ``guard_index_and_lambda``: the input index left of ``src`` and the fraction."""
    index = min(math.floor(src), in_size - 1)
    return index, min(max(src - index, 0.0), 1.0)


def _linear_taps(in_size: int, out_size: int, scale: float, align_corners: bool) -> Taps:
    taps = []
    for j in range(out_size):
        i0, frac = _floor_and_fraction(_source_index(scale, j, align_corners, False), in_size)
        i1 = i0 + 1 if i0 < in_size - 1 else i0
        taps.append([(i0, 1.0 - frac), (i1, frac)])
    return taps


_CUBIC_A = -0.75  # ATen's (and OpenCV's) bicubic coefficient


def _cubic_taps(in_size: int, out_size: int, scale: float, align_corners: bool) -> Taps:
    """Keys' cubic convolution on the 4 pixels around the source; indices past an edge read the
    edge pixel (ATen's ``upsample_bicubic2d``)."""
    a = _CUBIC_A

    def near(x: float) -> float:  # |x| <= 1
        return ((a + 2) * x - (a + 3)) * x * x + 1

    def far(x: float) -> float:  # 1 < |x| < 2
        return ((a * x - 5 * a) * x + 8 * a) * x - 4 * a

    taps = []
    for j in range(out_size):
        i0, t = _floor_and_fraction(_source_index(scale, j, align_corners, True), in_size)
        weights = (far(t + 1.0), near(t), near(1.0 - t), far(2.0 - t))
        taps.append([(min(max(i0 - 1 + k, 0), in_size - 1), w) for k, w in enumerate(weights)])
    return taps


def _triangle(x: float) -> float:
    x = abs(x)
    return 1.0 - x if x < 1.0 else 0.0


def _pil_cubic(x: float) -> float:
    """PIL's bicubic filter (a = -0.5), which the antialiased mode uses."""
    a = -0.5
    x = abs(x)
    if x < 1.0:
        return ((a + 2.0) * x - (a + 3.0)) * x * x + 1
    if x < 2.0:
        return (((x - 5) * x + 8) * x - 4) * a
    return 0.0


def _sinc(x: float) -> float:
    return 1.0 if x == 0.0 else math.sin(math.pi * x) / (math.pi * x)


def _lanczos3(x: float) -> float:
    return _sinc(x) * _sinc(x / 3.0) if -3.0 < x < 3.0 else 0.0


# mode -> (filter support at scale 1, filter)
_AA_FILTERS: dict[str, tuple[float, Callable[[float], float]]] = {
    "bilinear": (1.0, _triangle), "bicubic": (2.0, _pil_cubic), "lanczos": (3.0, _lanczos3),
}


def _antialias_taps(in_size: int, out_size: int, scale: float, support: float,
                    kernel: Callable[[float], float]) -> Taps:
    """PIL's resampling, as ATen's ``_upsample_*_aa``: when downsampling, the filter is
    stretched by the scale so that it covers every input pixel; weights are normalised."""
    if scale >= 1.0:
        support *= scale
        inv_scale = 1.0 / scale
    else:
        inv_scale = 1.0
    max_taps = math.ceil(support) * 2 + 1
    taps = []
    for j in range(out_size):
        center = scale * (j + 0.5)
        # int() truncates toward zero, as the C++ cast does
        lo = max(int(center - support + 0.5), 0)
        count = min(max(min(int(center + support + 0.5), in_size) - lo, 0), max_taps)
        weights = [kernel((k + lo - center + 0.5) * inv_scale) for k in range(count)]
        total = sum(weights)
        if total != 0.0:
            weights = [w / total for w in weights]
        taps.append([(lo + k, w) for k, w in enumerate(weights)])
    return taps


def _resample(x: Tensor, dim: int, taps: Taps) -> Tensor:
    """``out[..., j, ...] = sum_k x[..., i_jk, ...] * w_jk`` along ``dim``."""
    width = max(len(t) for t in taps)
    if width == 1 and all(w == 1.0 for (_, w), in taps):
        return x.index_select(dim, _tensor([t[0][0] for t in taps], x, volta.int64))
    shape = [1] * x.ndim
    shape[dim] = len(taps)
    out = None
    for k in range(width):
        # rows with fewer taps read index 0 with weight 0
        index = [t[k][0] if k < len(t) else 0 for t in taps]
        weight = [t[k][1] if k < len(t) else 0.0 for t in taps]
        term = (x.index_select(dim, _tensor(index, x, volta.int64))
                * _tensor(weight, x, x.dtype).reshape(shape))
        out = term if out is None else out + term
    return out


def _tensor(values: Sequence[Any], like: Tensor, dtype: Any) -> Tensor:
    return volta.tensor(list(values), dtype=dtype, device=like.device)
