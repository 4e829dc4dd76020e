"""Indexing on the device: gather, index_select, embedding (reads through an index) and
scatter_add, index_add (atomic adds into the output).

Note [indexed views]: every read is one elementwise launch over the output shape. The source
is passed as a view with the output's shape whose stride along the indexed dimension is 0, so
its element index ``e`` is the address with that coordinate zero; the kernel adds
``index * stride``. The index tensor is passed as a view with the output's shape too (stride 0
where it is broadcast). No copy, any strides.

Note [index range checks]: an index outside the dimension raises the CPU backend's
``IndexOutOfRangeError`` before anything is recorded, chosen over an error flag read at the
next sync because the error then surfaces at the call, as on CPU. The bounds come from the host
when they are known there: an integer storage uploaded from the host keeps its (min, max)
(``Handle.value_range``) until a kernel writes it, which covers labels, token ids and every
index volta builds from sizes, so those checks cost no device read. Indices computed on the
device (argmax, topk, ...) are checked by reading their min and max back: one sync, the price
of an exact error. The kernels still clamp, so no read or write ever leaves its buffer.
"""

from __future__ import annotations

from volta import dtypes as D
from volta.backends.wgpu.kernels.composed import cat
from volta.backends.wgpu.kernels.copy import copy_into
from volta.backends.wgpu.kernels.elementwise import Launch, load
from volta.backends.wgpu.storage import empty, handle_of
from volta.composites.views import wrap_dim
from volta.errors import DTypeError, IndexOutOfRangeError, ShapeError
from volta.tensor.checks import check_index_add, check_index_dtype
from volta.tensor.tensor import Tensor


def out_of_range(index: Tensor, first: int, size: int) -> tuple[int, int] | None:
    """None when every element of ``index`` is in ``[first, size)``, else its (min, max).
    The storage's host-known range (Note [index range checks]) covers the view's elements, so
    when it is inside, nothing is read; otherwise the view's own bounds are read back."""
    if index.numel() == 0:
        return None
    known = handle_of(index).value_range
    if known is not None and known[0] >= first and known[1] < size:
        return None
    low, high = (int(v) for v in cat([index.amin().reshape(1),
                                       index.amax().reshape(1)]).tolist())
    return None if low >= first and high < size else (low, high)


def check_range(index: Tensor, size: int, dim: int, op: str, negative_ok: bool = True) -> None:
    """Raise the CPU backend's error when an element of ``index`` is outside ``[-size, size)``
    (``[0, size)`` without ``negative_ok``: gather and scatter); ``op=""`` gives the message of
    advanced indexing."""
    bounds = out_of_range(index, -size if negative_ok else 0, size)
    if bounds is not None:
        bad = bounds[1] if bounds[1] >= size else bounds[0]
        prefix = f"{op}(): " if op else ""
        raise IndexOutOfRangeError(f"{prefix}index {bad} is out of bounds for dimension {dim} "
                                   f"with size {size}")


def check_scatter_shape(self: Tensor, index: Tensor, d: int, op: str) -> None:
    """The index may not be larger than ``self`` along the other dimensions (the CPU's check)."""
    for i, n in enumerate(index._shape):
        if i != d and n > self._shape[i]:
            raise ShapeError(f"{op}(): Size does not match at dimension {i} expected index "
                             f"{list(index.shape)} to be smaller than self {list(self.shape)} "
                             f"apart from dimension {d}")


def _read(out: Tensor, src_view: Tensor, index_view: Tensor, stride: int, size: int) -> Tensor:
    """``out[c] = src_view[c] + index_view[c] * stride`` (Note [indexed views])."""
    launch = Launch(out, [src_view, index_view])
    body = (f"  let i = {launch.operand(2)};\n"
            f"  let j = u32(clamp(select(i, i + pi(nscalar_base + 1u), i < 0), 0,"
            " pi(nscalar_base + 1u) - 1));\n"
            f"  b{launch.binding[0]}[e0] = "
            f"b{launch.binding[1]}[e1 + j * pu(nscalar_base)];")
    return launch.run(body, [stride, size])


def gather(self: Tensor, dim: int, index: Tensor, sparse_grad: bool = False) -> Tensor:
    check_index_dtype("gather", index)
    d = wrap_dim(dim, self.ndim, "gather")
    if index.ndim != self.ndim and self.ndim:
        raise ShapeError("gather(): Index tensor must have the same number of dimensions as "
                         "input tensor")
    shape = index._shape
    out = empty(shape, self.dtype, self._device)
    if not self.ndim:
        return copy_into(out, self)
    check_range(index, self._shape[d], d, "gather", negative_ok=False)
    strides = tuple(0 if i == d else s for i, s in enumerate(self._stride))
    src = self._view_of(shape, strides, self._offset)
    return _read(out, src, index, self._stride[d], self._shape[d])


def index_select(self: Tensor, dim: int, index: Tensor) -> Tensor:
    check_index_dtype("index_select", index)
    if index.ndim > 1:
        raise ShapeError("index_select(): Index is supposed to be a vector")
    if not self.ndim:
        return copy_into(empty((), self.dtype, self._device), self)
    d = wrap_dim(dim, self.ndim, "index_select")
    check_range(index, self._shape[d], d, "index_select")
    n = index.numel()
    shape = self._shape[:d] + (n,) + self._shape[d + 1:]
    out = empty(shape, self.dtype, self._device)
    src = self._view_of(shape, tuple(0 if i == d else s for i, s in enumerate(self._stride)),
                        self._offset)
    step = index._stride[0] if index.ndim else 0
    idx = index._view_of(shape, tuple(step if i == d else 0 for i in range(len(shape))),
                         index._offset)
    return _read(out, src, idx, self._stride[d], self._shape[d])


def embedding(weight: Tensor, indices: Tensor, padding_idx: int = -1,
              scale_grad_by_freq: bool = False, sparse: bool = False) -> Tensor:
    if weight.ndim != 2:
        raise ShapeError("'weight' must be 2-D")
    check_index_dtype("embedding", indices)
    rows, width = weight._shape
    bounds = out_of_range(indices, 0, rows)
    if bounds is not None:
        raise IndexOutOfRangeError(f"embedding: index out of range in self (indices must be in "
                                   f"[0, {rows}), got {bounds[0]}..{bounds[1]})")
    shape = indices._shape + (width,)
    out = empty(shape, weight.dtype, weight._device)
    src = weight._view_of(shape, (0,) * indices.ndim + (weight._stride[1],), weight._offset)
    idx = indices._view_of(shape, indices._stride + (0,), indices._offset)
    return _read(out, src, idx, weight._stride[0], rows)


# -- atomic adds -----------------------------------------------------------------------------------

_ATOMIC_ADD_F32 = """fn atomic_add_f32(k: u32, v: f32) {
  var old = atomicLoad(&b1[k]);
  loop {
    let r = atomicCompareExchangeWeak(&b1[k], old, bitcast<u32>(bitcast<f32>(old) + v));
    if (r.exchanged) { break; }
    old = r.old_value;
  }
}
"""


def _accumulate(out: Tensor, src: Tensor, index_view: Tensor, out_view: Tensor, stride: int,
                size: int, alpha: float = 1.0) -> Tensor:
    """``out[out_view[c] + index_view[c] * stride] += alpha * src[c]`` with atomics; ``out`` is a
    fresh contiguous tensor, ``out_view`` a view of it shaped like ``src``. Atomics add 32-bit
    words: float16 accumulates in a float32 copy, int64 is stored as int32 already."""
    if out.dtype is D.float16:
        wide = copy_into(empty(out._shape, D.float32, out._device), out)
        _accumulate(wide, src, index_view, wide._view_of(out_view._shape, out_view._stride,
                                                         out_view._offset),
                    stride, size, alpha)
        return copy_into(out, wide)
    if out.dtype not in (D.float32, D.int32, D.int64):
        raise DTypeError(f"wgpu: scatter-add into {out.dtype.name} is not supported (float32, "
                         "float16, int32 and int64 are)")
    launch = Launch(out_view, [src, index_view])
    f32 = out.dtype is D.float32
    value = f"f32({load(launch.operand(1), src.dtype)}) * pf(nscalar_base + 2u)" if f32 else \
        f"i32({load(launch.operand(1), src.dtype)}) * pi(nscalar_base + 2u)"
    body = (f"  let i = {launch.operand(2)};\n"
            "  let j = u32(clamp(select(i, i + pi(nscalar_base + 1u), i < 0), 0,"
            " pi(nscalar_base + 1u) - 1));\n"
            "  let k = e0 + j * pu(nscalar_base);\n" +
            ("  atomic_add_f32(k, " + value + ");" if f32 else
             f"  atomicAdd(&b1[k], {value});"))
    alpha_word = launch.scalars([alpha])[0] if f32 else int(alpha) & 0xFFFFFFFF
    return launch.run(body, [stride, size, alpha_word],
                      helpers=_ATOMIC_ADD_F32 if f32 else "",
                      out_type="atomic<u32>" if f32 else "atomic<i32>")


def scatter_add(self: Tensor, dim: int, index: Tensor, src: Tensor) -> Tensor:
    check_index_dtype("scatter_add", index)
    if src.dtype is not self.dtype:
        raise DTypeError("scatter(): Expected self.dtype to be equal to src.dtype")
    out = copy_into(empty(self._shape, self.dtype, self._device), self)
    if index.numel() == 0:
        return out
    if not self.ndim:  # the only index is 0
        return copy_into(out, self + src.reshape(()))
    d = wrap_dim(dim, self.ndim, "scatter_add")
    check_scatter_shape(self, index, d, "scatter_add")
    check_range(index, self._shape[d], d, "scatter_add", negative_ok=False)
    shape = index._shape
    out_view = out._view_of(shape, tuple(0 if i == d else s for i, s in enumerate(out._stride)),
                            0)
    src_view = src._view_of(shape, src._stride, src._offset)
    _accumulate(out, src_view, index, out_view, out._stride[d], self._shape[d])
    return out


def index_add(self: Tensor, dim: int, index: Tensor, source: Tensor, alpha: float = 1) -> Tensor:
    check_index_add(self, wrap_dim(dim, self.ndim, "index_add"), index, source)
    check_index_dtype("index_add", index)
    if not self.ndim:  # as a 1-element vector
        return index_add(self.reshape(1), 0, index.reshape(-1), source.reshape(1),
                         alpha).reshape(())
    out = copy_into(empty(self._shape, self.dtype, self._device), self)
    if index.numel() == 0:
        return out
    d = wrap_dim(dim, self.ndim, "index_add")
    check_range(index, self._shape[d], d, "index_add")
    shape = source._shape
    out_view = out._view_of(shape, tuple(0 if i == d else s for i, s in enumerate(out._stride)),
                            0)
    step = index._stride[0] if index.ndim else 0
    idx = index._view_of(shape, tuple(step if i == d else 0 for i in range(len(shape))),
                         index._offset)
    _accumulate(out, source, idx, out_view, out._stride[d], self._shape[d], alpha)
    return out


KERNELS = {"gather": gather, "index_select": index_select, "embedding": embedding,
           "scatter_add": scatter_add, "index_add": index_add}
