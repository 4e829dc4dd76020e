"""Reductions and fills by index on the device: scatter_reduce (sum, prod, mean, amax, amin,
with or without ``self``), its backward, and index_fill.

Note [deterministic scatter_reduce]: atomics would add in whatever order the threads run, so a
float sum would change from run to run and differ from the CPU's ``np.add.at``. Instead one
thread per output element (in the region the index reaches) walks the index along ``dim`` in
order and reduces the values that land on it: the same sequence of operations as the CPU
kernel, so the results are equal, not merely close. It costs ``index.size(dim)`` reads per
output element (Note [indexed views] in ``indexing.py`` addresses the index and the source).
"""

from __future__ import annotations

from typing import Any

from volta import dtypes as D
from volta.backends.wgpu.kernels.composed import _arange
from volta.backends.wgpu.kernels.copy import copy_into
from volta.backends.wgpu.kernels.elementwise import Launch, load, store
from volta.backends.wgpu.kernels.indexing import check_range, check_scatter_shape
from volta.backends.wgpu.kernels.pointwise import where_self
from volta.backends.wgpu.kernels.rows import fresh
from volta.backends.wgpu.storage import empty
from volta.composites.views import wrap_dim
from volta.errors import DTypeError, ShapeError
from volta.tensor.checks import check_index_dtype, check_scatter_reduce
from volta.tensor.scalars import check_scalar
from volta.tensor.tensor import Tensor

_NAN = "fn isn(x: f32) -> bool { return (bitcast<u32>(x) & 0x7fffffffu) > 0x7f800000u; }\n"

# reduce -> (the start where self is left out, by compute type; how a value joins ``acc``)
_REDUCE = {
    "sum": ({"f32": "0.0", "i32": "0"}, "acc = acc + v;"),
    "mean": ({"f32": "0.0", "i32": "0"}, "acc = acc + v;"),
    "prod": ({"f32": "1.0", "i32": "1"}, "acc = acc * v;"),
    # np.maximum / np.minimum: a NaN on either side wins
    "amax": ({"f32": "bitcast<f32>(0xff800000u)", "i32": "bitcast<i32>(0x80000000u)"},
             "if (!isn(acc) && (isn(v) || v > acc)) { acc = v; }"),
    "amin": ({"f32": "bitcast<f32>(0x7f800000u)", "i32": "0x7fffffff"},
             "if (!isn(acc) && (isn(v) || v < acc)) { acc = v; }"),
}


def _scatter_dim(self: Tensor, dim: int, index: Tensor, op: str) -> int:
    """The CPU's checks of a scatter: index dtype, dims, bounds, then sizes (0-d counts as 1-d).
    Returns the wrapped dim."""
    check_index_dtype(op, index)
    d = wrap_dim(dim, max(self.ndim, 1), op)
    if index.numel() == 0:
        return d
    if max(index.ndim, 1) != max(self.ndim, 1):
        raise ShapeError(f"{op}(): Index tensor must have the same number of dimensions as "
                         f"input tensor")
    self1, index1 = _as_1d(self), _as_1d(index)
    check_range(index1, self1._shape[d], d, op, negative_ok=False)
    check_scatter_shape(self1, index1, d, op)
    return d


def _as_1d(t: Tensor) -> Tensor:
    return t.reshape(1) if t.ndim == 0 else t


def _src_region(src: Tensor, index: Tensor) -> Tensor:
    """The part of ``src`` the index covers (its leading corner of the index's shape)."""
    if any(s < n for s, n in zip(src._shape, index._shape)):
        raise ShapeError(f"scatter_reduce(): expected src {list(src.shape)} to be at least as "
                         f"large as index {list(index.shape)} in every dimension")
    return src._view_of(index._shape, src._stride, src._offset)


def _reduce_into(out: Tensor, d: int, index: Tensor, src: Tensor, reduce: str,
                 include_self: bool) -> Tensor:
    """Note [deterministic scatter_reduce]: ``out`` (fresh, contiguous, holding self) reduced in
    place; ``index`` and ``src`` have the same shape, at most ``out``'s apart from ``d``."""
    if out.dtype is D.bool_:  # or / and, computed on 0 / 1
        as_int = _reduce_into(fresh(out.to(D.int32)), d, index, src.to(D.int32),
                              {"sum": "amax", "mean": "amax", "prod": "amin"}.get(reduce, reduce),
                              include_self)
        return copy_into(out, as_int != 0)
    size, steps = out._shape[d], index._shape[d]
    region = index._shape[:d] + (size,) + index._shape[d + 1:]
    out_view = out._view_of(region, out._stride, 0)
    at_start = [0 if i == d else s for i, s in enumerate(index._stride)]
    index_view = index._view_of(region, tuple(at_start), index._offset)
    src_view = src._view_of(region, tuple(0 if i == d else s for i, s in enumerate(src._stride)),
                            src._offset)
    position = _arange(size, out)._view_of(region, tuple(1 if i == d else 0
                                                         for i in range(len(region))), 0)
    launch = Launch(out_view, [index_view, src_view, position])
    ty = "f32" if out.dtype.is_floating_point else "i32"
    start, combine = _REDUCE[reduce]
    # float16 is reduced one rounded step at a time, as numpy does in half precision
    rounded = "acc = f32(f16(acc));" if out.dtype is D.float16 else ""
    if reduce == "mean":
        finish = ("acc = acc / f32(count);" if ty == "f32" else
                  "var q = acc / i32(count);\n"  # floor division, as numpy's //
                  "    if (q * i32(count) > acc) { q = q - 1; }\n    acc = q;")
    else:
        finish = ""
    s = "nscalar_base"
    value = f"b{launch.binding[2]}[e2 + k * pu({s} + 2u)]"
    body = (f"  let j = {launch.operand(3)};\n"
            f"  var acc = {ty}({load(launch.operand(0), out.dtype)});\n"
            f"  if (pu({s} + 3u) == 0u) {{ acc = {start[ty]}; }}\n"
            "  var hits = 0u;\n"
            f"  for (var k = 0u; k < pu({s}); k = k + 1u) {{\n"
            f"    let i = b{launch.binding[1]}[e1 + k * pu({s} + 1u)];\n"
            f"    if (select(i, i + i32(pu({s} + 4u)), i < 0) == j) {{\n"
            f"      let v = {ty}({load(value, src.dtype)});\n"
            f"      {combine} {rounded}\n"
            "      hits = hits + 1u;\n    }\n  }\n"
            "  if (hits > 0u) {\n"
            f"    let count = hits + pu({s} + 3u);\n"
            f"    {finish}\n"
            f"    b{launch.binding[0]}[e0] = {store('acc', out.dtype)};\n  }}")
    helpers = _NAN if ty == "f32" else "fn isn(x: i32) -> bool { return false; }\n"
    launch.run(body, [steps, index._stride[d], src._stride[d], int(include_self), size],
               helpers=helpers)
    return out


def scatter_reduce(self: Tensor, dim: int, index: Tensor, src: Tensor, reduce: str,
                   include_self: bool = True) -> Tensor:
    check_scatter_reduce(reduce)
    if src.dtype is not self.dtype:
        raise DTypeError("scatter(): Expected self.dtype to be equal to src.dtype")
    d = _scatter_dim(self, dim, index, "scatter_reduce")
    out = fresh(_as_1d(self))
    if index.numel() == 0:
        return out.reshape(self._shape)
    index1 = _as_1d(index)
    _reduce_into(out, d, index1, _src_region(_as_1d(src), index1), reduce, include_self)
    return out.reshape(self._shape)


def _hits(shape: tuple[int, ...], d: int, index: Tensor, like: Tensor) -> Tensor:
    """How many index elements land on each position (int32 atomics: exact)."""
    zeros = empty(shape, D.int32, like._device).fill_(0)
    return zeros.scatter_add(d, index, empty(index._shape, D.int32, like._device).fill_(1))


def scatter_reduce_backward(grad: Tensor, self: Tensor, dim: int, index: Tensor, src: Tensor,
                            reduce: str, include_self: bool, result: Tensor
                            ) -> tuple[Tensor, Tensor]:
    """The CPU kernel's formulas written with device ops: sum and mean spread the gradient,
    prod multiplies the other contributors (exact with zeros), amax/amin share it evenly among
    the values equal to the result."""
    d = _scatter_dim(self, dim, index, "scatter_reduce")
    g, x = fresh(_as_1d(grad)), _as_1d(self)
    shape = g._shape
    src1 = _as_1d(src)
    grad_src_full = empty(src1._shape, g.dtype, g._device).fill_(0)
    if index.numel() == 0:
        return g.reshape(self._shape), grad_src_full.reshape(src._shape)
    index1 = _as_1d(index)
    s = _src_region(src1, index1)
    hits = _hits(shape, d, index1, g)
    takes_part = (empty(shape, D.bool_, g._device).fill_(True) if include_self else hits == 0)
    if reduce == "sum":
        grad_self, grad_src = g * takes_part.to(g.dtype), g.gather(d, index1)
    elif reduce == "mean":
        counts = hits + (1 if include_self else (hits == 0).to(D.int32))
        spread = g / counts.to(g.dtype)
        grad_self, grad_src = spread * takes_part.to(g.dtype), spread.gather(d, index1)
    elif reduce == "prod":
        self_part = where_self(takes_part, x, 1.0).to(g.dtype)
        zeros = (self_part == 0).to(D.int32).scatter_add(d, index1, (s == 0).to(D.int32))
        nonzero_prod = _reduce_into(fresh(where_self(self_part == 0, 1.0, self_part)), d,
                                    index1, where_self(s == 0, 1.0, s).to(g.dtype), "prod", True)

        def others(values: Tensor, z: Tensor, p: Tensor) -> Tensor:
            safe = where_self(values == 0, 1.0, values)
            return where_self(values == 0, where_self(z == 1, p, 0.0),
                              where_self(z == 0, p / safe, 0.0))

        self_others = others(self_part, zeros, nonzero_prod)
        src_others = others(s, zeros.gather(d, index1), nonzero_prod.gather(d, index1))
        grad_self = g * self_others * takes_part.to(g.dtype)
        grad_src = g.gather(d, index1) * src_others
    else:  # amax / amin
        value = _as_1d(result)
        self_hits = (x == value) & takes_part
        src_hits = s == value.gather(d, index1)
        ties = self_hits.to(g.dtype).scatter_add(d, index1, src_hits.to(g.dtype))
        spread = g / where_self(ties == 0, 1.0, ties)
        grad_self = spread * self_hits.to(g.dtype)
        grad_src = spread.gather(d, index1) * src_hits.to(g.dtype)
    region = grad_src_full
    for i, n in enumerate(index1._shape):
        region = region.narrow(i, 0, n)
    copy_into(region, grad_src)
    return fresh(grad_self.to(g.dtype)).reshape(self._shape), grad_src_full.reshape(src._shape)


# -- index_fill ----------------------------------------------------------------------------------

def _index_fill(self: Tensor, dim: int, index: Tensor, fill: Tensor) -> Tensor:
    """``self`` where the position along ``dim`` is not listed in ``index``, else ``fill``: the
    listed positions are marked by counting them into a vector (int32 atomics)."""
    check_index_dtype("index_fill", index)
    if index.ndim > 1:
        raise ShapeError("index_fill_(): Index is supposed to be a vector")
    view = _as_1d(self)
    d = wrap_dim(dim, view.ndim, "index_fill")
    size = view._shape[d]
    flat_index = index.reshape(-1)
    check_range(flat_index, size, d, "index_fill")
    marks = empty((size,), D.int32, self._device).fill_(0)
    if flat_index.numel():
        marks = marks.index_add(0, flat_index,
                                empty((flat_index.numel(),), D.int32, self._device).fill_(1))
    listed = (marks != 0).reshape((size,) + (1,) * (view.ndim - d - 1))
    return fresh(where_self(listed, fill, view).to(self.dtype)).reshape(self._shape)


def index_fill_scalar(self: Tensor, dim: int, index: Tensor, value: Any) -> Tensor:
    return _index_fill(self, dim, index, empty((), self.dtype, self._device).fill_(
        check_scalar(value, "index_fill_")))


def index_fill_tensor(self: Tensor, dim: int, index: Tensor, value: Tensor) -> Tensor:
    if value.ndim != 0:
        raise ShapeError(f"index_fill_ only supports a 0-dimensional value tensor, but got "
                         f"tensor with {value.ndim} dimension(s).")
    return _index_fill(self, dim, index, value.to(self._device).to(self.dtype))


KERNELS = {"scatter_reduce.two": scatter_reduce,
           "scatter_reduce_backward": scatter_reduce_backward,
           "index_fill.int_Scalar": index_fill_scalar, "index_fill.int_Tensor": index_fill_tensor}
