"""Copies on the device: ``copy_`` (strided, broadcasting, casting), ``clone``, ``_to_copy``
(to this device: a cast kernel; elsewhere: through the host), ``fill_``."""

from __future__ import annotations

from typing import Any

import numpy as np

from volta import dtypes as D
from volta.backend import host_view
from volta.backends.wgpu.kernels.elementwise import Launch, load, store
from volta.backends.wgpu.storage import STORED, empty, strides_of
from volta.device import device
from volta.errors import DTypeError, ShapeError
from volta.memory_format import format_strides, preserve_format
from volta.tensor.factories import _from_host, empty_strided, to_copy
from volta.tensor.inplace import broadcast_shapes, check_no_internal_overlap
from volta.tensor.tensor import Tensor


def check_dtype(dt: D.dtype, what: str) -> None:
    if dt not in STORED:
        raise DTypeError(f"{what}: dtype {dt.name} is not supported on wgpu (supported: "
                         f"{', '.join(sorted(d.name for d in STORED))}); keep it on the CPU")


def scalar_word(value: Any, dt: D.dtype) -> int:
    """``value`` as one parameter word in the WGSL type kernels compute ``dt`` in."""
    if dt.is_floating_point:
        return int(np.array(float(value), dtype=np.float32).view(np.uint32))
    if dt is D.bool_:
        return int(bool(value))
    return int(value) & 0xFFFFFFFF


def copy_into(dst: Tensor, src: Tensor) -> Tensor:
    """``dst[...] = src`` (broadcast, cast) with both on ``dst``'s wgpu device."""
    launch = Launch(dst, [src])
    return launch.run(f"  b{launch.binding[0]}[e0] = "
                      f"{store(load(launch.operand(1), src.dtype), dst.dtype)};")


def on_device(t: Tensor, dev: device) -> Tensor:
    """``t`` if it lives on ``dev``, else a copy uploaded there (cast on the host when the
    device cannot store its dtype)."""
    if t._device == dev:
        return t
    arr = host_view(t)
    if D.from_numpy_dtype(arr.dtype) not in STORED:
        raise DTypeError(f"cannot move a {t.dtype.name} tensor to {dev}: dtype {t.dtype.name} "
                         "is not supported on wgpu")
    return _from_host(np.ascontiguousarray(arr), dev)


def copy_(self: Tensor, src: Any, non_blocking: bool = False) -> Tensor:
    if not isinstance(src, Tensor):
        return fill_(self, src)
    check_no_internal_overlap(self, "copy_")
    broadcast_shapes(self._shape, src._shape)
    if broadcast_shapes(self._shape, src._shape) != self._shape:
        raise ShapeError(f"copy_: the source of shape {list(src._shape)} cannot be broadcast "
                         f"to the destination of shape {list(self._shape)}")
    return copy_into(self, on_device(src, self._device))


def clone(self: Tensor, memory_format: Any = None) -> Tensor:
    return _copy_laid_out(self, self.dtype, memory_format)


def _copy_laid_out(self: Tensor, dt: D.dtype, memory_format: Any = None) -> Tensor:
    """A copy of ``self`` as ``dt`` in ``memory_format``; by default (None, as PyTorch's
    preserve_format) a dense ``self`` keeps its strides."""
    strides = format_strides(memory_format or preserve_format, self._shape, self._stride)
    if strides == strides_of(self._shape):
        return copy_into(empty(self._shape, dt, self._device), self)
    return copy_into(empty_strided(self._shape, strides, dtype=dt, device=self._device), self)


def _to_copy(self: Tensor, dtype: D.dtype | None = None, dev: str | None = None) -> Tensor:
    target = self._device if dev is None else device(dev)
    if target != self._device:
        return to_copy(self, dtype, dev)
    dt = dtype or self.dtype
    check_dtype(dt, "to")
    return _copy_laid_out(self, dt)


def fill_(self: Tensor, value: Any) -> Tensor:
    if isinstance(value, Tensor):
        if value.dim() != 0:
            raise ShapeError(f"fill_ only supports 0-dimension value tensor but got tensor with "
                             f"{value.dim()} dimensions.")
        if value._device == self._device:
            return copy_into(self, value)
        value = host_view(value).item()
    launch = Launch(self, [])
    body = f"  b{launch.binding[0]}[e0] = {store(scalar_wgsl(self.dtype, 0), self.dtype)};"
    return launch.run(body, [scalar_word(value, self.dtype)])


def scalar_wgsl(dt: D.dtype, k: int) -> str:
    """WGSL reading scalar word ``k`` of a launch (they follow the layout words, from
    ``nscalar_base`` on) as the type kernels compute ``dt`` in."""
    if dt.is_floating_point:
        return f"pf(nscalar_base + {k}u)"
    if dt is D.bool_:
        return f"(pu(nscalar_base + {k}u) != 0u)"
    return f"pi(nscalar_base + {k}u)"


KERNELS = {"copy_": copy_, "clone": clone, "_to_copy": _to_copy, "fill_": fill_,
           "fill_.Tensor": fill_}
