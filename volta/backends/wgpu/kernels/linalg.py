"""mm, matmul, bmm, addmm and linear on the device: the tiled GEMM of :mod:`.matmul`, run
through the runtime (pooled buffers, the uniform ring, batched submission).

Operands are addressed through their strides, so transposes, slices and broadcast batch
dimensions cost no copy: a GEMM takes two batch dimensions with their strides; more are
merged where the strides allow it, and the rest become one dispatch per leading index.
Biases are fused into the GEMM's epilogue (``linear``, ``addmm`` with a row or column
``self``); ``addmm``'s general ``self`` is copied into the output and read back as ``beta * C``.

float32 always, float16 with ``shader-f16``; int32 and int64 (stored as 32-bit) on the i32
variant of the GEMM, which sums exactly and wraps on overflow like the backend's other integer
kernels. Bool has no matrix product (PyTorch's error). What the GEMM cannot take (an ``addmm``
whose ``self`` has another dtype) runs through the CPU fallback explicitly (``cpu_path``), or
raises when it is off.
"""

from __future__ import annotations

import itertools
import math
import os
from collections.abc import Callable
from typing import Any

import numpy as np

from volta import dtypes as D
from volta.backends.wgpu import runtime
from volta.backends.wgpu.kernels import harness
from volta.backends.wgpu.kernels import matmul as G
from volta.backends.wgpu.kernels.copy import copy_into
from volta.backends.wgpu.storage import empty, handle_of, runtime_of
from volta.composites.nn import linear as linear_composite
from volta.dispatch.dispatcher import DISPATCHER
from volta.dispatch.keys import KEYS
from volta.errors import DTypeError, ShapeError
from volta.tensor.checks import check_bmm, check_mm
from volta.tensor.inplace import broadcast_shapes
from volta.tensor.tensor import Tensor

GEMM_DTYPES = {D.float32: "f32", D.float16: "f16", D.int32: "i32", D.int64: "i32"}
# (device index, size class) -> the tuned tile shape, or None for default_config()
_TUNED: dict[tuple[int, str], G.MatmulConfig | None] = {}


def gemm_config(rt: runtime.Runtime, M: int, N: int, K: int) -> G.MatmulConfig:
    """The tile shape of an ``M x N x K`` GEMM: the adapter's tuned choice for its size class
    when the tuning cache has one (``VOLTA_WGPU_TUNE=1`` times the candidates on first use
    and records the winner, see ``matmul.tune``), else ``default_config``. Looked up once per
    size class and process; tuning is opt-in here because it would stall the first step."""
    key = (rt.index, G.size_class(M, N, K))
    if key not in _TUNED:
        if os.environ.get(G.TUNING_ENV) == "1":
            choice: G.MatmulConfig | None = G.tune(rt.device, M, N, K)
        else:
            choice = G.cached_config(rt.device, M, N, K)
        if choice is not None and not harness.fits(rt.device, choice.threads,
                                                   choice.workgroup_storage_bytes()):
            choice = None
        _TUNED[key] = choice
    return _TUNED[key] or G.default_config(M, N, K)


def cpu_path(name: str, *args: Any) -> Any:
    """Run op ``name`` through the CPU fallback (copy in, compute, copy back): only for what the
    GEMM kernels cannot do (dtypes without a GEMM). Raises when the fallback is turned off."""
    op = DISPATCHER.find(name)
    entry = DISPATCHER.cpu_fallback_for(op, KEYS.get("WGPU"))
    if entry is None:
        dt = next(a.dtype for a in args if isinstance(a, Tensor))
        raise DTypeError(f"{name}: these operands ({dt.name}) have no WGPU kernel; "
                         "enable the CPU fallback or keep them on the CPU")
    return entry.fn(op, 0, args, {})


def gemm_dtype(op: str, *tensors: Tensor) -> str | None:
    """The GEMM's WGSL type for ``tensors`` (all one dtype), or None when it has none."""
    dt = tensors[0].dtype
    for t in tensors[1:]:
        if t is not None and t.dtype is not dt:
            raise DTypeError(f"{op}: expected m1 and m2 to have the same dtype, but got: "
                             f"{dt.name} != {t.dtype.name}")
    if dt is D.bool_:
        raise DTypeError(f"{op}: \"addmm\" not implemented for 'Bool'")
    wgsl = GEMM_DTYPES.get(dt)
    if wgsl == "f16":
        runtime_of(tensors[0]).require_f16(op)
    return wgsl


def _merge_batch(shape: list[int], strides: list[list[int]]) -> tuple[list[int], list[list[int]]]:
    """Drop size-1 batch dims and merge neighbours whose strides (for every operand) allow it."""
    keep = [i for i, s in enumerate(shape) if s != 1]
    shape = [shape[i] for i in keep]
    strides = [[st[i] for i in keep] for st in strides]
    i = len(shape) - 2
    while i >= 0:
        if all(st[i] == st[i + 1] * shape[i + 1] for st in strides):
            shape[i:i + 2] = [shape[i] * shape[i + 1]]
            for st in strides:
                st[i:i + 2] = [st[i + 1]]
        i -= 1
    return shape, strides


def run_launch(launch: G.GemmLaunch, a: Tensor, b: Tensor, c: Tensor,
               bias: Tensor | None = None) -> None:
    """Record a planned GEMM (bindings A, B, C, bias; split-K: the partials go to a pooled
    scratch buffer and a second dispatch reduces them into C). Each tensor's storage is bound
    whole: the launch's offsets say where its view starts."""
    rt = runtime_of(c)
    k = launch.kernel
    extra = [handle_of(bias)] if bias is not None else []
    if launch.split is None:
        kernel = rt.kernel(k.source, (False, False, True) + (False,) * len(extra),
                           entry=k.entry_point)
        rt.dispatch(kernel, [handle_of(a), handle_of(b), handle_of(c), *extra],
                    np.frombuffer(launch.params, dtype=np.uint32), launch.workgroups)
        return
    split = launch.split
    scratch = empty((split.scratch_elements,), D.float32, c._device)
    kernel = rt.kernel(k.source, (False, False, True), entry=k.entry_point)
    rt.dispatch(kernel, [handle_of(a), handle_of(b), handle_of(scratch)],
                np.frombuffer(launch.params, dtype=np.uint32), launch.workgroups)
    reduce = rt.kernel(split.reduce_source, (False, True), entry=split.reduce_entry_point)
    rt.dispatch(reduce, [handle_of(scratch), handle_of(c)],
                np.frombuffer(split.reduce_params, dtype=np.uint32), split.reduce_workgroups)


def gemm(a: Tensor, b: Tensor, out: Tensor, *, dtype: str, alpha: float = 1.0,
         beta: float | None = None, bias: Tensor | None = None, bias_dim: str = "n") -> Tensor:
    """``out = alpha * a @ b (+ beta * out) (+ bias)`` with ``a`` (..., M, K), ``b`` (..., K, N)
    and ``out`` (..., M, N) (batch dims already broadcast to ``out``'s; ``a``/``b`` may have
    fewer, left-padded). ``bias`` is a 1-D view along N (``bias_dim="n"``) or M ("m"), stride
    0 for a broadcast scalar. ``out`` must not share a buffer with the inputs."""
    M, N = out._shape[-2:]
    K = a._shape[-1]
    if out.numel() == 0:
        return out
    # a buffer is bound once per dispatch: inputs sharing one get a copy of one of them
    if b._storage is a._storage:
        b = b.clone()
    if bias is not None and bias._storage in (a._storage, b._storage):
        bias = bias.clone()
    nb = out.ndim - 2
    shape = list(out._shape[:nb])

    def batch_strides(t: Tensor) -> list[int]:
        pad = nb - (t.ndim - 2)
        return [0 if i < pad or t._shape[i - pad] == 1 else t._stride[i - pad]
                for i in range(nb)]

    merged, (sa, sb, sc) = _merge_batch(shape, [batch_strides(a), batch_strides(b),
                                                batch_strides(out)])
    lead = len(merged) - 2 if len(merged) > 2 else 0
    tail = merged[lead:]
    batch = (1,) * (2 - len(tail)) + tuple(tail)

    def two(st: list[int]) -> tuple[int, int]:
        t2 = st[lead:]
        return tuple([0] * (2 - len(t2)) + t2)  # type: ignore[return-value]

    config = gemm_config(runtime_of(out), M, N, K)
    bias_kw: dict[str, Any] = {}
    if bias is not None:
        bias_kw = dict(bias=bias_dim, bias_stride=bias._stride[0] if bias._shape[0] != 1 else 0)
    for index in itertools.product(*(range(s) for s in merged[:lead])):
        def view(t: Tensor, st: list[int], index: tuple[int, ...] = index) -> G.MatrixView:
            offset = t._offset + sum(i * s for i, s in zip(index, st[:lead], strict=True))
            return G.MatrixView(offset, t._stride[-2] if t._shape[-2] != 1 else 0,
                                t._stride[-1] if t._shape[-1] != 1 else 0, two(st))
        launch = G.matmul_launch(
            config, M, N, K, view(a, sa), view(b, sb), view(out, sc),
            batch=batch, dtype=dtype, alpha=alpha, beta=beta,  # type: ignore[arg-type]
            bias_offset=0 if bias is None else bias._offset,
            split_k="auto" if K >= 4096 else 1, **bias_kw)
        run_launch(launch, a, b, out, bias)
    return out


def _check_k(a_shape: tuple[int, ...], b_shape: tuple[int, ...], k_a: int, k_b: int) -> None:
    if k_a != k_b:
        raise ShapeError(f"mat1 and mat2 shapes cannot be multiplied "
                         f"({'x'.join(map(str, a_shape[-2:]))} and "
                         f"{'x'.join(map(str, b_shape[-2:]))})")


def _fold_rows(a: Tensor) -> Tensor | None:
    """``a`` (..., M, K) as a 2-D view (prod(...) * M, K) when its strides allow it (no copy)."""
    rows = math.prod(a._shape[:-1])
    stride = a._stride[-2] if a._shape[-2] != 1 else a._stride[-1] * a._shape[-1]
    expect = stride
    for size, st in zip(reversed(a._shape[:-1]), reversed(a._stride[:-1]), strict=True):
        if size != 1 and st != expect:
            return None
        expect = expect * size
    return a.as_strided((rows, a._shape[-1]), (stride, a._stride[-1]), a._offset)


def _product(self: Tensor, other: Tensor, dtype: str, bias: Tensor | None = None) -> Tensor:
    """``self @ other`` (at least 1-D each, PyTorch's matmul rules) plus an optional bias along
    the last output dim."""
    a, b = self, other
    squeeze_m, squeeze_n = a.ndim == 1, b.ndim == 1
    if squeeze_m:
        a = a.unsqueeze(0)
    if squeeze_n:
        b = b.unsqueeze(1)
    _check_k(self._shape, other._shape, a._shape[-1], b._shape[-2])
    M, N = a._shape[-2], b._shape[-1]
    flat = _fold_rows(a) if b.ndim == 2 and a.ndim > 2 else None
    if flat is not None:  # one large GEMM instead of a batch of small ones
        out = empty((flat._shape[0], N), self.dtype, self._device)
        out = gemm(flat, b, out, dtype=dtype, bias=bias).view(*a._shape[:-1], N)
    else:
        batch = broadcast_shapes(a._shape[:-2], b._shape[:-2])
        out = gemm(a, b, empty((*batch, M, N), self.dtype, self._device), dtype=dtype,
                   bias=bias)
    if squeeze_m:
        out = out.squeeze(-2)
    if squeeze_n:
        out = out.squeeze(-1)
    return out


def _check_matmul(self: Tensor, other: Tensor) -> None:
    if self.ndim == 0 or other.ndim == 0:
        raise ShapeError(f"both arguments to matmul need to be at least 1D, but they are "
                         f"{self.ndim}D and {other.ndim}D")


def _checked_product(op: str, check: Callable[[Tensor, Tensor], None]) -> Any:
    def kernel(self: Tensor, mat2: Tensor) -> Tensor:
        check(self, mat2)
        dtype = gemm_dtype(op, self, mat2)
        if dtype is None:
            return cpu_path(op, self, mat2)
        return _product(self, mat2, dtype)
    kernel.__name__ = op
    return kernel


matmul = _checked_product("matmul", _check_matmul)
mm = _checked_product("mm", check_mm)
bmm = _checked_product("bmm", check_bmm)


def _as_bias(t: Tensor, M: int, N: int) -> tuple[Tensor, str] | None:
    """``t`` (broadcastable to (M, N)) as a 1-D bias along n or m, when it is one."""
    shape = (1,) * (2 - t.ndim) + tuple(t._shape)
    stride = (0,) * (2 - t.ndim) + tuple(t._stride)
    if shape[0] == 1:
        return t.as_strided((N,), (stride[1] if shape[1] != 1 else 0,), t._offset), "n"
    if shape[1] == 1:
        return t.as_strided((M,), (stride[0],), t._offset), "m"
    return None


def addmm(self: Tensor, mat1: Tensor, mat2: Tensor, beta: Any = 1, alpha: Any = 1) -> Tensor:
    if mat1.ndim != 2 or mat2.ndim != 2:
        raise ShapeError(f"addmm: expected 2D tensors, got {mat1.ndim}D and {mat2.ndim}D")
    dtype = gemm_dtype("addmm", mat1, mat2)
    if dtype is None or self.dtype is not mat1.dtype:
        return cpu_path("addmm", self, mat1, mat2, beta, alpha)
    _check_k(mat1._shape, mat2._shape, mat1._shape[1], mat2._shape[0])
    M, N = mat1._shape[0], mat2._shape[1]
    if self.ndim > 2 or broadcast_shapes(self._shape, (M, N)) != (M, N):
        raise ShapeError(f"addmm: the input of shape {list(self._shape)} cannot be broadcast "
                         f"to the product's shape {[M, N]}")
    if dtype == "i32":
        return _integer_addmm(self, mat1, mat2, beta, alpha, M, N)
    out = empty((M, N), self.dtype, self._device)
    if beta == 0:  # PyTorch ignores self (even its NaNs) when beta is 0
        return gemm(mat1, mat2, out, dtype=dtype, alpha=float(alpha))
    as_bias = _as_bias(self, M, N) if beta == 1 else None
    if as_bias is not None:
        return gemm(mat1, mat2, out, dtype=dtype, alpha=float(alpha), bias=as_bias[0],
                    bias_dim=as_bias[1])
    copy_into(out, self)
    if mat1._shape[1] == 0:  # no product: the GEMM would write alpha * 0 without reading C
        return out.mul_(beta)
    return gemm(mat1, mat2, out, dtype=dtype, alpha=float(alpha), beta=float(beta))


def _integer_addmm(self: Tensor, mat1: Tensor, mat2: Tensor, beta: Any, alpha: Any, M: int,
                   N: int) -> Tensor:
    """``beta * self + alpha * mat1 @ mat2`` for integers: the i32 GEMM sums the product
    exactly, device ops scale and add it (a float alpha or beta computes in float and is cast
    back, as the CPU kernel does)."""
    product = gemm(mat1, mat2, empty((M, N), mat1.dtype, mat1._device), dtype="i32")
    if alpha != 1:
        product = product * alpha
    if beta != 0:  # PyTorch ignores self when beta is 0
        product = product + (self * beta if beta != 1 else self)
    return product if product.dtype is mat1.dtype else product.to(mat1.dtype)


def linear(input: Tensor, weight: Tensor, bias: Tensor | None = None) -> Tensor:
    dtype = gemm_dtype("linear", input, weight, bias) if input.ndim >= 1 else None
    if (dtype is None or weight.ndim != 2 or input._shape[-1] != weight._shape[1]
            or (bias is not None and (bias.ndim > 1 or bias.numel() not in (1, weight._shape[0])))):
        # shapes the fused kernel does not take: the composite (matmul + add) checks and runs
        return linear_composite(input, weight, bias)
    if bias is not None and bias.ndim == 0:
        bias = bias.reshape(1)
    return _product(input, weight.t(), dtype, bias)


KERNELS = {"mm": mm, "matmul": matmul, "bmm": bmm, "addmm": addmm, "linear": linear}
