"""numpy/scipy kernels for special functions, orthogonal polynomials, scans and statistics.

The pointwise ones share the generated kernels' prologue (``prepare``: PyTorch's type
promotion and broadcasting checks) and epilogue (``wrap``), but are written here because their
functions (``scipy.special``) have no ops.yaml snippet; the WGPU backend has its own WGSL for
them (``volta/backends/wgpu/kernels/special.py``). Each kernel takes the op's arguments in
schema order, like ``kernels.py``.
"""

from __future__ import annotations

import builtins
import math
from collections.abc import Callable
from typing import Any

import numpy as np
from scipy import special as sp

from volta import dtypes as D
from volta.backends.cpu.pointwise_runtime import prepare, wrap
from volta.backends.cpu.storage import array as A
from volta.backends.cpu.storage import wrap as W
from volta.backends.cpu.storage import wrap_as as WA
from volta.composites.views import wrap_dim
from volta.errors import DTypeError, IndexOutOfRangeError, SchemaError
from volta.tensor.checks import (
    check_bin_edges,
    check_float_operands,
    check_isin_operands,
    check_operands_same_dtype,
    check_selection_dtype,
    empty_median_value,
    histc_finite_range,
    histc_range,
    histogramdd_bins,
    reject_half,
    require_tensors,
)
from volta.tensor.tensor import Tensor

KERNELS: dict[str, Callable[..., Any]] = {}


# -- pointwise ----------------------------------------------------------------------------------


def _pointwise(name: str, fn: Callable[..., Any], promotion: str = "int_to_float",
               allowed: str | None = None, numbers: bool = True, half: bool = True) -> None:
    """Register ``fn`` (numpy arrays in, array out) as the kernel of pointwise op ``name``;
    ``numbers``: whether its tensor arguments also take Python numbers; ``half``: whether it
    computes float16 and bfloat16."""
    def kernel(*operands: Any) -> Tensor:
        if not numbers:
            require_tensors(name, *operands)
        arrays, out_dtype = prepare(name, promotion, allowed, *operands)
        if not half:
            reject_half(name, out_dtype)
        with np.errstate(all="ignore"):
            return wrap(fn(*arrays), out_dtype)
    kernel.__name__ = name.replace(".", "_")
    KERNELS[name] = kernel


def _spherical_bessel_j0(x: Any) -> Any:
    # sin(x) / x, with its limit 1 at 0 and 0 at +-inf (where sin(x) / x is nan)
    x = np.asarray(x)
    safe = np.where(x == 0, 1, x)
    return np.where(x == 0, 1, np.where(np.isinf(x), 0, np.sin(safe) / safe)).astype(x.dtype)


def _entr(x: Any) -> Any:
    return sp.entr(x)


def _lgamma(x: Any) -> Any:
    # scipy's gammaln(-inf) is -inf; C's lgamma (PyTorch's) is +inf
    return np.where(x == -np.inf, np.inf, sp.gammaln(x)).astype(np.result_type(x), copy=False)


def _heaviside(x: Any, values: Any) -> Any:
    return np.where(x == 0, values, (x > 0)).astype(np.result_type(x, values))


_UNARY: dict[str, Callable[..., Any]] = {
    "acosh": np.arccosh, "asinh": np.arcsinh, "atanh": np.arctanh,
    "lgamma": _lgamma, "digamma": sp.psi, "i0": sp.i0,
    "i0e": sp.i0e, "i1": sp.i1, "i1e": sp.i1e, "ndtr": sp.ndtr, "entr": _entr,
}
for _name, _fn in _UNARY.items():
    _pointwise(_name, _fn)
# the newer special functions: float32 and float64 only, as in PyTorch
_UNARY_FULL_PRECISION: dict[str, Callable[..., Any]] = {
    "ndtri": sp.ndtri, "log_ndtr": sp.log_ndtr, "erfcx": sp.erfcx,
    "airy_ai": lambda x: sp.airy(x)[0],
    "bessel_j0": sp.j0, "bessel_j1": sp.j1,
    "bessel_y0": sp.y0, "bessel_y1": sp.y1,
    "modified_bessel_i0": sp.i0, "modified_bessel_i1": sp.i1,
    "modified_bessel_k0": sp.k0, "modified_bessel_k1": sp.k1,
    "scaled_modified_bessel_k0": sp.k0e, "scaled_modified_bessel_k1": sp.k1e,
    "spherical_bessel_j0": _spherical_bessel_j0,
}
for _name, _fn in _UNARY_FULL_PRECISION.items():
    _pointwise(_name, _fn, half=False)

_pointwise("xlog1py", sp.xlog1py)
_pointwise("zeta", sp.zeta, half=False)
_pointwise("igamma", sp.gammainc, allowed="floating", numbers=False)
_pointwise("igammac", sp.gammaincc, allowed="floating", numbers=False)
_pointwise("gcd", np.gcd, "default", "integral", numbers=False)
_pointwise("lcm", np.lcm, "default", "integral", numbers=False)


def nextafter(self: Any, other: Any) -> Tensor:
    require_tensors("nextafter", self, other)
    check_float_operands("nextafter_cpu", self, other)
    (a, b), out_dtype = prepare("nextafter", "default", None, self, other)
    # half types compute in float32 here, but their next value is one of their own
    if out_dtype in (D.float16, D.bfloat16):
        a, b = np.asarray(a).astype(out_dtype.numpy), np.asarray(b).astype(out_dtype.numpy)
    return wrap(np.nextafter(a, b), out_dtype)


def heaviside(self: Any, values: Any) -> Tensor:
    require_tensors("heaviside", self, values)
    check_operands_same_dtype("heaviside", self, values)
    (a, b), out_dtype = prepare("heaviside", "default", None, self, values)
    return wrap(_heaviside(a, b), out_dtype)


def polygamma(n: int, self: Any) -> Tensor:
    if n < 0:
        raise SchemaError("polygamma(n, x) does not support negative n.")
    (x,), out_dtype = prepare("polygamma", "int_to_float", None, self)
    with np.errstate(all="ignore"):
        y = sp.psi(x) if n == 0 else _trigamma(x) if n == 1 else sp.polygamma(n, x)
    return wrap(y, out_dtype)


def _trigamma(x: Any) -> Any:
    """polygamma(1, x); below 1/2 by the reflection formula, as PyTorch computes it, which
    gives pi^2 / sin(pi x)^2 (huge, not inf) at the negative integers (digamma's gradient)."""
    x = np.asarray(x)
    reflected = np.pi ** 2 / np.square(np.sin(np.pi * x)) - sp.polygamma(1, 1 - x)
    return np.where(x < 0.5, reflected, sp.polygamma(1, x)).astype(x.dtype, copy=False)


def frexp(self: Tensor) -> tuple[Tensor, Tensor]:
    if not self.dtype.is_floating_point:
        raise DTypeError("torch.frexp() only supports floating-point dtypes")
    mantissa, exponent = np.frexp(A(self))
    return WA(mantissa, self.dtype), WA(exponent, D.int32)


KERNELS.update({"nextafter": nextafter, "heaviside": heaviside, "polygamma": polygamma,
                "frexp": frexp})


# -- orthogonal polynomials ---------------------------------------------------------------------
# PyTorch evaluates P_n(x) by the three-term recurrence, with its own special cases, and for
# large n inside (-1, 1) by a trigonometric closed form; n is truncated to an integer and a
# negative n gives 0. The recurrence runs for all elements at once up to the largest n.


def _recurrence(x: np.ndarray, n: np.ndarray, p0: Any, p1: Any,
                step: Callable[[int, Any, Any], Any]) -> np.ndarray:
    """P_n(x) from P_0 = p0, P_1 = p1 and P_{k+1} = step(k, P_k, P_{k-1})."""
    p, q = np.broadcast_to(p0, x.shape).astype(x.dtype), np.broadcast_to(p1, x.shape).astype(
        x.dtype)
    result = np.where(n == 0, p, q)
    top = int(n.max(initial=1))
    for k in range(1, top):
        p, q = q, step(k, q, p)
        result = np.where(n == k + 1, q, result)
        if k % 64 == 0:
            pending = n > k + 1
            if np.isnan(q[pending]).all() and np.isnan(p[pending]).all():
                # every later term of these elements is NaN too (the recurrences only add and
                # scale the last two): stop instead of looping up to a huge n (Hermite, and
                # Chebyshev outside [-1, 1], overflow within a few hundred terms)
                return np.where(pending, np.nan, result)
    return result


def _polynomial(name: str, evaluate: Callable[[np.ndarray, np.ndarray], np.ndarray]) -> None:
    def kernel(x: Any, n: Any) -> Tensor:
        # integer operands go straight to the default float type, each from its own dtype
        # (not through their promoted integer type, which wraps -2 into uint8's 254)
        (xa, na), out_dtype = prepare(name, "int_to_float", None, x, n)
        reject_half(name, out_dtype)
        xa, na = np.broadcast_arrays(np.asarray(xa), np.asarray(na))
        with np.errstate(all="ignore"):
            ni = np.where(np.isfinite(na), np.trunc(na), -1).astype(np.int64)
            y = evaluate(xa, np.maximum(ni, 0))
            return wrap(np.where(ni < 0, 0, y).astype(xa.dtype), out_dtype)
    KERNELS[name] = kernel


def _odd(n: np.ndarray) -> np.ndarray:
    return (n % 2) == 1


def _chebyshev(shift: bool, kind: str) -> Callable[[np.ndarray, np.ndarray], np.ndarray]:
    def evaluate(x: np.ndarray, n: np.ndarray) -> np.ndarray:
        t = x + x - 1 if shift else x
        first = {"t": t, "u": t + t, "v": t + t - 1, "w": t + t + 1}[kind]
        theta = np.arccos(np.clip(t, -1, 1))
        closed = {"t": lambda: np.cos(n * theta),
                  "u": lambda: np.sin((n + 1) * theta) / np.sin(theta),
                  "v": lambda: np.cos((n + 0.5) * theta) / np.cos(theta / 2),
                  "w": lambda: np.sin((n + 0.5) * theta) / np.sin(theta / 2)}[kind]()
        inside = (np.abs(t) < 1) & (n > 6) & np.isfinite(closed)
        # the recurrence only for the elements neither the closed form nor the endpoint
        # values below give: its loop runs up to their largest n, not to a huge n of another
        by_formula = inside | (t == 1) | (t == -1)
        y = _recurrence(t, np.where(by_formula, 0, n), 1, first,
                        lambda k, q, p: (t + t) * q - p)
        y = np.where(inside, closed, y)
        # the endpoints, exactly
        at_one = {"t": 1, "u": n + 1, "v": 1, "w": n + n + 1}[kind]
        sign = np.where(_odd(n), -1, 1)
        at_minus_one = {"t": sign, "u": sign * (n + 1), "v": sign * (n + n + 1), "w": sign}[kind]
        y = np.where(t == 1, at_one, np.where(t == -1, at_minus_one, y))
        return y
    return evaluate


for _kind in "tuvw":
    _polynomial(f"chebyshev_polynomial_{_kind}", _chebyshev(False, _kind))
    _polynomial(f"shifted_chebyshev_polynomial_{_kind}", _chebyshev(True, _kind))
def _fused_multiply_subtract(a: np.ndarray, b: np.ndarray, c: np.ndarray) -> np.ndarray:
    """a * b - c rounded once, like the fused multiply-add PyTorch's float32 Hermite
    recurrences compile to (their cancellation makes the rounding visible)."""
    if a.dtype == np.float32:
        return (a.astype(np.float64) * b.astype(np.float64) - c.astype(np.float64)).astype(
            np.float32)
    return a * b - c


_polynomial("hermite_polynomial_h", lambda x, n: _recurrence(
    x, n, 1, x + x, lambda k, q, p: _fused_multiply_subtract(x + x, q, (2 * k) * p)))
_polynomial("hermite_polynomial_he", lambda x, n: _recurrence(
    x, n, 1, x, lambda k, q, p: _fused_multiply_subtract(x, q, k * p)))
_polynomial("laguerre_polynomial_l", lambda x, n: _recurrence(
    x, n, 1, 1 - x, lambda k, q, p: ((2 * k + 1 - x) * q - k * p) / (k + 1)))
_polynomial("legendre_polynomial_p", lambda x, n: _recurrence(
    x, n, 1, x, lambda k, q, p: ((2 * k + 1) * x * q - k * p) / (k + 1)))


# -- scans --------------------------------------------------------------------------------------


def _cumulative_extreme(name: str, better: Callable[[Any, Any], Any]
                        ) -> Callable[..., tuple[Tensor, Tensor]]:
    """cummax / cummin: running extreme and the index of its last occurrence (nan wins)."""
    def kernel(self: Tensor, dim: int) -> tuple[Tensor, Tensor]:
        a = A(self)
        d = wrap_dim(dim, a.ndim, name)
        if a.ndim == 0:
            return W(a.copy()), WA(np.zeros(()), D.int64)
        moved = np.moveaxis(a, d, 0)
        values = np.empty_like(moved)
        indices = np.zeros(moved.shape, dtype=np.int64)
        if moved.shape[0]:
            best, where = moved[0].copy(), np.zeros(moved.shape[1:], dtype=np.int64)
            values[0], indices[0] = best, where
            for i in range(1, moved.shape[0]):
                x = moved[i]
                take = better(x, best) | (x == best) | (x != x)
                take &= ~((best != best) & (x == x))  # once nan, stays nan
                best = np.where(take, x, best)
                where = np.where(take, i, where)
                values[i], indices[i] = best, where
        return W(np.moveaxis(values, 0, d)), WA(np.moveaxis(indices, 0, d), D.int64)
    return kernel


KERNELS["cummax"] = _cumulative_extreme("cummax", np.greater)
KERNELS["cummin"] = _cumulative_extreme("cummin", np.less)


# -- statistics ---------------------------------------------------------------------------------


def _move_last(self: Tensor, dim: int, name: str) -> tuple[np.ndarray, int]:
    a = A(self)
    d = wrap_dim(dim, a.ndim, name)
    return (a.reshape(1) if a.ndim == 0 else np.moveaxis(a, d, -1)), d


def _restore(values: np.ndarray, self: Tensor, d: int, keepdim: bool) -> np.ndarray:
    if self.ndim == 0:
        return values.reshape(())
    return np.expand_dims(values, d) if keepdim else values


def _check_nonempty_dim(self: Tensor, d: int, name: str) -> None:
    if self.ndim and self.shape[d] == 0:
        raise IndexOutOfRangeError(f"{name}(): Expected reduction dim {d} to have non-zero size.")


def kthvalue(self: Tensor, k: int, dim: int = -1, keepdim: bool = False
             ) -> tuple[Tensor, Tensor]:
    check_selection_dtype("kthvalue_cpu", self)
    a, d = _move_last(self, dim, "kthvalue")
    size = a.shape[-1]
    if not 1 <= k <= size:
        raise IndexOutOfRangeError(f"kthvalue(): selected number k out of range for dimension "
                                   f"{d}")
    order = np.argsort(a, axis=-1, kind="stable")
    idx = order[..., k - 1]
    values = np.take_along_axis(a, idx[..., None], -1)[..., 0]
    return (W(_restore(values, self, d, keepdim)),
            WA(_restore(idx, self, d, keepdim), D.int64))


def mode(self: Tensor, dim: int = -1, keepdim: bool = False) -> tuple[Tensor, Tensor]:
    a, d = _move_last(self, dim, "mode")
    _check_nonempty_dim(self, d, "mode")
    rows = a.reshape(-1, a.shape[-1])
    values = np.empty(rows.shape[0], dtype=a.dtype)
    indices = np.empty(rows.shape[0], dtype=np.int64)
    for r, row in enumerate(rows):
        uniques, counts = np.unique(row, return_counts=True)
        # the most frequent value; among ties, the smallest; its index is its last occurrence
        best = uniques[np.argmax(counts)]
        values[r] = best
        hits = np.flatnonzero((row == best) | ((best != best) & (row != row)))
        indices[r] = hits[-1]
    shape = a.shape[:-1]
    return (W(_restore(values.reshape(shape), self, d, keepdim)),
            WA(_restore(indices.reshape(shape), self, d, keepdim), D.int64))


def nanmedian(self: Tensor) -> Tensor:
    if self.numel() == 0:
        return WA(np.asarray(empty_median_value(self.dtype)), self.dtype)
    check_selection_dtype("median_cpu", self)
    flat = A(self).reshape(-1)
    kept = np.sort(flat[~np.isnan(flat)] if self.dtype.is_floating_point else flat)
    if kept.size == 0:
        return WA(np.asarray(np.nan), self.dtype)
    return WA(kept[(kept.size - 1) // 2], self.dtype)


def nanmedian_dim(self: Tensor, dim: int, keepdim: bool = False) -> tuple[Tensor, Tensor]:
    check_selection_dtype("median_out", self)
    a, d = _move_last(self, dim, "nanmedian")
    _check_nonempty_dim(self, d, "nanmedian")
    order = np.argsort(a, axis=-1, kind="stable")  # nan sorts last
    valid = (~np.isnan(a)).sum(-1) if self.dtype.is_floating_point else np.full(
        a.shape[:-1], a.shape[-1])
    k = np.maximum(valid - 1, 0) // 2
    idx = np.take_along_axis(order, k[..., None], -1)[..., 0]
    values = np.take_along_axis(a, idx[..., None], -1)[..., 0]
    # an all-nan row: nan, at the index of its first element
    idx = np.where(valid == 0, 0, idx) if self.ndim else idx
    return (W(_restore(values, self, d, keepdim)),
            WA(_restore(idx, self, d, keepdim), D.int64))


KERNELS.update({"kthvalue": kthvalue, "mode": mode, "nanmedian": nanmedian,
                "nanmedian.dim": nanmedian_dim})


def _histogram_range(a: np.ndarray, low: float, high: float) -> tuple[float, float]:
    """PyTorch's bin range: the data's when none is given, widened by one around a point."""
    if low == high and a.size:
        low, high = float(a.min()), float(a.max())
    if low == high:
        low, high = low - 1, high + 1
    return low, high


def histc(self: Tensor, bins: int = 100, min: float = 0, max: float = 0) -> Tensor:
    histc_range(self, bins, min, max)
    a = A(self).reshape(-1)
    low, high = _histogram_range(a, float(min), float(max))
    histc_finite_range(low, high)
    counts, _ = np.histogram(a[(a >= low) & (a <= high)], bins=bins, range=(low, high))
    return WA(counts, self.dtype)


def _bin_edges(a: np.ndarray, bins: Any, bounds: Any, dtype: np.dtype) -> np.ndarray:
    if isinstance(bins, Tensor):
        return A(bins).astype(dtype)
    if bounds is not None:
        low, high = bounds
    elif a.size:
        low, high = float(a.min()), float(a.max())
    else:
        low, high = 0.0, 1.0
    if low == high:
        low, high = low - 0.5, high + 0.5
    return np.linspace(low, high, int(bins) + 1, dtype=dtype)


def _bin_indices(points: np.ndarray, edges: list[np.ndarray]) -> tuple[np.ndarray, ...]:
    """The bin of each point inside [first edge, last edge] along every dimension (the last
    edge belongs to the last bin), and the mask of those points, as PyTorch bins them."""
    inside = np.ones(points.shape[0], dtype=bool)
    indices = []
    for column, e in zip(points.T, edges):
        inside &= (column >= e[0]) & (column <= e[-1])
        index = np.searchsorted(e, column, side="right") - 1
        indices.append(np.clip(index, 0, e.size - 2))
    return tuple(i[inside] for i in indices), inside


def histogramdd(self: Tensor, bins: Any, range: Any = None, weight: Tensor | None = None,
                density: bool = False) -> tuple[Tensor, list[Tensor]]:
    n, bins, bounds = histogramdd_bins(self, bins, range)
    a = A(self)
    points = a.reshape(-1, n)
    edges = [_bin_edges(points[:, i], bins[i], bounds[i], a.dtype) for i in builtins.range(n)]
    check_bin_edges(edges)
    counts = np.zeros(tuple(e.size - 1 for e in edges), dtype=a.dtype)
    index, inside = _bin_indices(points, edges)
    w = np.ones(points.shape[0], a.dtype) if weight is None else A(weight).reshape(-1)
    np.add.at(counts, index, w[inside])
    if density:
        volume = np.ones((), dtype=a.dtype)
        for e in edges:
            volume = np.multiply.outer(volume, np.diff(e))
        with np.errstate(all="ignore"):
            counts = counts / counts.sum() / volume
    return WA(counts, self.dtype), [W(e.copy()) for e in edges]


def histogram(self: Tensor, bins: Any, range: Any = None, weight: Tensor | None = None,
              density: bool = False) -> tuple[Tensor, Tensor]:
    if not self.dtype.is_floating_point:
        raise DTypeError(f'"histogram" not implemented for \'{self.dtype.name}\'')
    flat = self.reshape(-1, 1) if self.ndim else self.reshape(1, 1)
    w = None if weight is None else weight.reshape(-1)
    counts, edges = histogramdd(flat, [bins], range, w, density)
    return counts, edges[0]


def isin(elements: Any, test_elements: Any, assume_unique: bool = False,
         invert: bool = False) -> Tensor:
    check_isin_operands(elements, test_elements)
    # compared in the promoted dtype (numpy cannot promote bfloat16 with float16); the half
    # types widen to float32 exactly, for numpy's sort
    common = D.result_type(elements, test_elements)
    compute = np.float32 if common in (D.float16, D.bfloat16) else common.numpy
    a = A(elements) if isinstance(elements, Tensor) else np.asarray(elements)
    b = A(test_elements) if isinstance(test_elements, Tensor) else np.asarray(test_elements)
    a = a.astype(common.numpy, copy=False).astype(compute, copy=False)
    b = b.astype(common.numpy, copy=False).astype(compute, copy=False)
    return WA(np.isin(a, b, invert=invert), D.bool_)


def unique_consecutive(self: Tensor, return_inverse: bool = False, return_counts: bool = False,
                       dim: int | None = None) -> Any:
    a = A(self)
    if dim is None:
        flat = a.reshape(-1)
        starts = np.ones(flat.shape, dtype=bool)
        starts[1:] = flat[1:] != flat[:-1]
        values = flat[starts]
        inverse_shape = a.shape
    else:
        d = wrap_dim(dim, a.ndim, "unique_consecutive")
        rest = math.prod(n for i, n in enumerate(a.shape) if i != d)  # not -1: size 0 along d
        moved = np.moveaxis(a, d, 0).reshape(a.shape[d], rest)
        starts = np.ones(moved.shape[0], dtype=bool)
        starts[1:] = (moved[1:] != moved[:-1]).any(axis=1)
        values = np.compress(starts, a, axis=d)
        inverse_shape = (a.shape[d],)
    outputs = [W(values)]
    if return_inverse:
        outputs.append(WA((np.cumsum(starts) - 1).reshape(inverse_shape), D.int64))
    if return_counts:
        outputs.append(WA(np.diff(np.append(np.flatnonzero(starts), starts.size)), D.int64))
    return outputs[0] if len(outputs) == 1 else tuple(outputs)


KERNELS.update({"histc": histc, "histogram.bins_tensor": histogram, "histogram.bin_ct": histogram,
                "histogramdd": histogramdd, "histogramdd.int_bins": histogramdd,
                "histogramdd.TensorList_bins": histogramdd, "isin": isin,
                "unique_consecutive": unique_consecutive})
