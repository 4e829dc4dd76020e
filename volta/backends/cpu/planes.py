"""Batch norm and global average pooling of float32 feature maps through the compiled kernels
of ``native/planes.c``.

A C-contiguous (N, C, *S) float32 array is (N, C, L) planes; the kernels split the N * C planes
over OpenMP threads and return per-plane sums in float64, which are added here per channel in a
fixed order (so results do not depend on the thread count). The statistics follow PyTorch's CPU
batch norm: mean and variance in double, in two passes (the sum, then the sums of the residuals
about that mean and of their squares: the corrected two-pass method), then
``out = (x - mean) * scale + bias`` with scale = invstd * weight; the backward takes sum(dy) and
sum(dy * (x - mean)) per channel and the input gradient in one more pass. Each helper returns
None where the kernels do not apply (not float32, not C-contiguous, empty, not built, planes too
short to pay); the caller then runs its numpy path.
"""

from __future__ import annotations

from types import ModuleType

import numpy as np

from volta.backends.cpu import native

FLOAT32 = np.dtype(np.float32)
# Planes shorter than this stay on the numpy path for batch norm: a loop per plane of a few
# elements costs more than it saves (1 thread, fwd+bwd: (256, 1024) 3.9 ms compiled against
# 1.9 ms numpy; (64, 256, 16) 1.3 against 1.4 ms; (64, 256, 64) 3.2 against 7.5 ms).
MIN_BATCH_NORM_LENGTH = 16


def _kernels(*arrays: np.ndarray | None) -> ModuleType | None:
    """The compiled plane kernels where every array given (None: absent) is non-empty float32
    and C-contiguous, else None."""
    for a in arrays:
        if a is not None and (a.dtype != FLOAT32 or not a.flags.c_contiguous or not a.size):
            return None
    return native.kernels("planes")


def _layout(x: np.ndarray) -> tuple[int, int, int]:
    """(N, C, L) of an (N, C, *S) array."""
    batch, channels = x.shape[0], x.shape[1]
    return batch, channels, x.size // (batch * channels)


def _batch_norm_kernels(*arrays: np.ndarray | None) -> ModuleType | None:
    """The plane kernels for batch norm of (N, C, *S) arrays with planes long enough to pay."""
    x = arrays[0]
    if x is None or x.ndim < 2 or not x.size or _layout(x)[2] < MIN_BATCH_NORM_LENGTH:
        return None
    return _kernels(*arrays)


def _f32(a: np.ndarray) -> np.ndarray:
    return np.ascontiguousarray(a, dtype=FLOAT32)


def plane_means(planes: np.ndarray) -> np.ndarray | None:
    """The mean of each plane of a (P, *S) float32 array, shape (P,): global average pooling."""
    kernels = _kernels(planes)
    if kernels is None or planes.ndim < 2:
        return None
    count = planes.shape[0]
    sums = np.empty(count, np.float64)
    kernels.plane_sums(planes, sums, 1, count, planes.size // count, native.threads())
    return (sums / (planes.size // count)).astype(FLOAT32)


def batch_stats(x: np.ndarray) -> tuple[np.ndarray, np.ndarray] | None:
    """The float64 mean and biased variance of each channel of an (N, C, *S) float32 array."""
    kernels = _batch_norm_kernels(x)
    if kernels is None:
        return None
    batch, channels, length = _layout(x)
    count = batch * length
    sums = np.empty(batch * channels, np.float64)
    kernels.plane_sums(x, sums, batch, channels, length, native.threads())
    mean = sums.reshape(batch, channels).sum(axis=0) / count
    centre = _f32(mean)
    squares = np.empty(batch * channels, np.float64)
    kernels.plane_moments(x, centre, sums, squares, batch, channels, length, native.threads())
    # the corrected two-pass method: the residuals' mean corrects the first pass's rounding
    residual = sums.reshape(batch, channels).sum(axis=0) / count
    var = squares.reshape(batch, channels).sum(axis=0) / count - residual * residual
    # a channel holding inf keeps its first mean (inf, -inf or NaN, as PyTorch's); its residuals
    # are NaN
    with np.errstate(invalid="ignore"):
        mean = np.where(np.isfinite(mean), centre + residual, mean)
        return mean, np.maximum(var, 0.0)


def batch_norm_forward(x: np.ndarray, mean: np.ndarray, scale: np.ndarray,
                       bias: np.ndarray | None) -> np.ndarray | None:
    """``(x - mean[c]) * scale[c] + bias[c]`` over the channels (dim 1) of an (N, C, *S)
    float32 array (no bias: zero)."""
    kernels = _batch_norm_kernels(x)
    if kernels is None:
        return None
    out = np.empty_like(x)
    # the mean rounded to float32 is the centre; its rounding error, times the scale, goes into
    # the shift (values near 1000 with a deviation of 0.01 would be off by 0.006 otherwise)
    centre = _f32(mean)
    with np.errstate(invalid="ignore"):  # inf - inf: a channel holding inf is NaN anyway
        shift = -(mean.astype(np.float64) - centre) * scale
        if bias is not None:
            shift += bias
    kernels.plane_affine(x, centre, _f32(scale), _f32(shift), out, *_layout(x),
                         native.threads())
    return out


def batch_norm_backward(grad_out: np.ndarray, x: np.ndarray, mean: np.ndarray | None,
                        invstd: np.ndarray | None, weight: np.ndarray | None, train: bool,
                        input_grad: bool
                        ) -> tuple[np.ndarray | None, np.ndarray, np.ndarray] | None:
    """Batch norm's (input, weight, bias) gradients of float32 (N, C, *S) ``x`` and
    ``grad_out`` (one shape) about the channel ``mean`` and ``invstd`` (any float dtype); the
    weight and bias gradients in float64. The input's is None unless ``input_grad``."""
    kernels = _batch_norm_kernels(x, grad_out)
    if kernels is None or grad_out.shape != x.shape:
        return None
    batch, channels, length = _layout(x)
    if mean is None or invstd is None or mean.size != channels or invstd.size != channels:
        return None
    count = batch * length
    sums = np.empty(batch * channels, np.float64)
    dots = np.empty(batch * channels, np.float64)
    kernels.plane_grad_sums(grad_out, x, _f32(mean), sums, dots, batch, channels, length,
                            native.threads())
    invstd = invstd.astype(np.float64)
    grad_bias = sums.reshape(batch, channels).sum(axis=0)
    dot = dots.reshape(batch, channels).sum(axis=0)
    grad_weight = dot * invstd
    grad_input = None
    if input_grad:
        scale = invstd if weight is None else invstd * weight.astype(np.float64)
        grad_input = np.empty_like(x)
        if train:  # the batch statistics depend on x: remove the mean and the xhat-projection
            kernels.plane_grad_input(grad_out, x, _f32(mean), _f32(grad_bias / count),
                                     _f32(dot * invstd * invstd / count), _f32(scale),
                                     grad_input, batch, channels, length, native.threads())
        else:
            kernels.plane_affine(grad_out, None, _f32(scale), None, grad_input, batch, channels,
                                 length, native.threads())
    return grad_input, grad_weight, grad_bias
