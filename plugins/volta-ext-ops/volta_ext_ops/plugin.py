"""The hooks of volta-ext-ops: define the operators, then register their kernels.

``volta_define_ops`` runs the code volta's codegen generated from ``ops.yaml`` (schemas,
backward nodes, CPU kernels of the pointwise ops). ``volta_register_kernels`` adds the CPU
kernels of the two ops that are not pointwise, the WGPU kernels of all five (when volta has
its WGPU backend) and, for every op, a shape function under the ``Meta`` key (what a
shape-only backend runs: output shape and dtype, no data).

WGPU: the pointwise ops get WGSL kernels from ``volta.wgpu.pointwise_kernel`` and the WGSL
expressions codegen wrote from their snippets (``_generated/wgpu_pointwise.py``); rms_norm
and rotary_embedding are written with volta ops, each of which runs on the device. Their
backward formulas are volta ops too, so gradients stay on the GPU.
"""

from __future__ import annotations

from typing import Any

import numpy as np

import volta
from volta.backend import host_view
from volta.errors import DTypeError, ShapeError
from volta.plugins import hookimpl
from volta_ext_ops._generated import define_ops
from volta_ext_ops._generated.wgpu_pointwise import SPECS as WGSL_SPECS

_FLOATS = (volta.float16, volta.bfloat16, volta.float32, volta.float64)


def _compute_dtype(dtype: volta.dtype) -> np.dtype:
    """Half types compute in float32, as PyTorch's CPU kernels do."""
    return np.dtype(np.float32) if dtype in (volta.float16, volta.bfloat16) else dtype.numpy


def _floating(op: str, *tensors: volta.Tensor) -> volta.dtype:
    dtype = volta.result_type(*tensors)
    if dtype not in _FLOATS:
        raise DTypeError(f"{op}: expected floating point inputs, got {dtype.name}")
    return dtype


# -- shape functions (also the checks the CPU kernels run first) ----------------------------------


def rms_norm_shape(x: volta.Tensor, weight: volta.Tensor, eps: float = 1e-6
                   ) -> tuple[tuple[int, ...], volta.dtype]:
    dtype = _floating("ext::rms_norm", x, weight)
    if x.dim() == 0 or tuple(weight.shape) != (x.shape[-1],):
        last = x.shape[-1] if x.dim() else "?"
        raise ShapeError(f"ext::rms_norm: weight must have shape ({last},) (the last dimension "
                         f"of x), got {tuple(weight.shape)} for x of shape {tuple(x.shape)}")
    return tuple(x.shape), dtype


def rotary_embedding_shape(x: volta.Tensor, cos: volta.Tensor, sin: volta.Tensor
                           ) -> tuple[tuple[int, ...], volta.dtype]:
    dtype = _floating("ext::rotary_embedding", x, cos, sin)
    if x.dim() == 0 or x.shape[-1] % 2:
        raise ShapeError(f"ext::rotary_embedding: the last dimension of x must be even, got "
                         f"shape {tuple(x.shape)}")
    shape = volta.broadcast_shapes(tuple(x.shape), tuple(cos.shape), tuple(sin.shape))
    return tuple(shape), dtype


def pointwise_shape(op: str) -> Any:
    def shape(*tensors: volta.Tensor) -> tuple[tuple[int, ...], volta.dtype]:
        dtype = volta.result_type(*tensors)
        if dtype not in _FLOATS:  # int_to_float promotion
            dtype = volta.get_default_dtype()
        return tuple(volta.broadcast_shapes(*(tuple(t.shape) for t in tensors))), dtype

    shape.__name__ = f"{op}_shape"
    return shape


SHAPES = {"ext::rms_norm": rms_norm_shape, "ext::rotary_embedding": rotary_embedding_shape,
          **{f"ext::{name}": pointwise_shape(name)
             for name in ("swiglu", "fused_bias_gelu", "gelu_derivative")}}


def _meta_kernel(shape_fn: Any) -> Any:
    """A Meta-key kernel: an uninitialised result of the right shape and dtype, on the
    device of the first input (a shape-only device allocates nothing real)."""
    def meta(*args: Any) -> volta.Tensor:
        shape, dtype = shape_fn(*args)
        return volta.empty(shape, dtype=dtype, device=args[0].device)

    return meta


# -- CPU kernels ------------------------------------------------------------------------------


def rms_norm_cpu(x: volta.Tensor, weight: volta.Tensor, eps: float) -> volta.Tensor:
    _, dtype = rms_norm_shape(x, weight, eps)
    compute = _compute_dtype(dtype)
    values = host_view(x).astype(compute, copy=False)
    mean_square = np.mean(np.square(values), axis=-1, keepdims=True)
    mean_square += compute.type(eps)
    out = values / np.sqrt(mean_square)
    out *= host_view(weight).astype(compute, copy=False)
    return volta.from_numpy(out.astype(np.dtype(dtype.numpy), copy=False))


def rotary_embedding_cpu(x: volta.Tensor, cos: volta.Tensor, sin: volta.Tensor) -> volta.Tensor:
    shape, dtype = rotary_embedding_shape(x, cos, sin)
    compute = _compute_dtype(dtype)
    values = host_view(x).astype(compute, copy=False)
    half = values.shape[-1] // 2
    rotated = np.concatenate([-values[..., half:], values[..., :half]], axis=-1)
    out = values * host_view(cos).astype(compute, copy=False)
    out = out + rotated * host_view(sin).astype(compute, copy=False)
    return volta.from_numpy(np.ascontiguousarray(np.broadcast_to(out, shape))
                            .astype(np.dtype(dtype.numpy), copy=False))


# -- WGPU kernels (volta ops, called below the Autograd key, each running on the device) -------

_DEVICE_COMPUTE = (volta.float16, volta.float32)  # float16 computes in float32


def rms_norm_wgpu(x: volta.Tensor, weight: volta.Tensor, eps: float) -> volta.Tensor:
    _, dtype = rms_norm_shape(x, weight, eps)
    values = x.to(volta.float32) if dtype in _DEVICE_COMPUTE else x
    scale = (values * values).mean(-1, keepdim=True).add(eps).rsqrt()
    return (values * scale * weight.to(values.dtype)).to(dtype)


def rotary_embedding_wgpu(x: volta.Tensor, cos: volta.Tensor, sin: volta.Tensor
                          ) -> volta.Tensor:
    shape, dtype = rotary_embedding_shape(x, cos, sin)
    # one rounding at the end, as on the CPU: x * cos + rotated * sin cancels, and float16
    # intermediates would leave an error of the terms' size in a small result
    values = x.to(volta.float32) if dtype in _DEVICE_COMPUTE else x.to(dtype)
    half = x.shape[-1] // 2
    rotated = volta.cat([-values[..., half:], values[..., :half]], dim=-1)
    out = values * cos.to(values.dtype) + rotated * sin.to(values.dtype)
    return out.expand(shape).to(dtype).contiguous()


def _register_wgpu(library: volta.library.Library) -> None:
    # imported here: the hook runs while ``import volta`` is still binding ``volta.wgpu``, and
    # only where volta's WGPU backend (and so wgpu-py) is present
    from volta.wgpu import pointwise_kernel
    for op, spec in WGSL_SPECS.items():
        library.impl(op, "WGPU", pointwise_kernel(op, spec))
    library.impl("ext::rms_norm", "WGPU", rms_norm_wgpu)
    library.impl("ext::rotary_embedding", "WGPU", rotary_embedding_wgpu)


# -- hooks ------------------------------------------------------------------------------------


@hookimpl
def volta_define_ops(library: volta.library.Library) -> None:
    define_ops(library)


@hookimpl
def volta_register_kernels(library: volta.library.Library) -> None:
    library.impl("ext::rms_norm", "CPU", rms_norm_cpu)
    library.impl("ext::rotary_embedding", "CPU", rotary_embedding_cpu)
    if "wgpu" in volta.backend.BACKENDS.names():  # volta's WGPU backend is loaded
        _register_wgpu(library)
    for op, shape_fn in SHAPES.items():
        library.register_meta(op, _meta_kernel(shape_fn))
