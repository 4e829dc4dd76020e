"""Composite operators: the real-dtype cases of complex ops, special functions written with
other ops, quantiles and nan-aware statistics, and the remaining in-place random fills."""

from __future__ import annotations

import math
from typing import Any

from volta import dtypes as D
from volta._generated import functions as F
from volta._generated import registry as R
from volta.composites.base import Number, _shape, composite
from volta.composites.linalg import type_name
from volta.composites.views import wrap_dim
from volta.errors import ArgumentError, DTypeError, SchemaError, ShapeError
from volta.tensor import factories as fac
from volta.tensor.tensor import Tensor

# ---------------------------------------------------------------- real tensors of complex ops
# volta has no complex dtypes: these follow PyTorch's results for real tensors.


def _identity(name: str, doc: str) -> None:
    def op(self: Tensor) -> Tensor:
        return self
    op.__name__, op.__doc__ = name, doc
    composite(name)(op)


for _name in ("conj", "conj_physical", "resolve_conj", "resolve_neg", "real"):
    _identity(_name, f"``{_name}`` of a real tensor: the tensor itself.")


@composite("isreal")
def isreal(self: Tensor) -> Tensor:
    """True everywhere: every volta dtype is real."""
    return F.ones_like(self, dtype=D.bool_)


@composite("sgn")
def sgn(self: Tensor) -> Tensor:
    """``sign`` (PyTorch's sgn generalises it to complex numbers)."""
    return F.sign(self)


def _floating(self: Tensor) -> Tensor:
    return self if self.dtype.is_floating_point else self.to(D.get_default_dtype())


@composite("angle")
def angle(self: Tensor) -> Tensor:
    """pi for negative numbers, 0 otherwise, nan for nan."""
    x = _floating(self)
    return F.where(F.isnan(x), x, F.lt(x, 0).to(x.dtype) * math.pi)


@composite("isposinf")
def isposinf(self: Tensor) -> Tensor:
    """Whether each element is +inf."""
    return F.logical_and(F.isinf(self), F.gt(self, 0))


@composite("isneginf")
def isneginf(self: Tensor) -> Tensor:
    """Whether each element is -inf."""
    return F.logical_and(F.isinf(self), F.lt(self, 0))


# ---------------------------------------------------------------- pointwise


def _require_tensor(op: str, name: str, position: int, value: Any) -> None:
    """PyTorch's rejection of a Python number where the op has no Scalar overload."""
    if not isinstance(value, Tensor):
        raise ArgumentError(f"{op}(): argument '{name}' (position {position}) must be Tensor, "
                            f"not {type(value).__name__}")


@composite("clamp_min")
def clamp_min(self: Tensor, min: Tensor | Number) -> Tensor:
    """clamp(self, min=min)."""
    return F.clamp(self, min, None)


@composite("clamp_max")
def clamp_max(self: Tensor, max: Tensor | Number) -> Tensor:
    """clamp(self, max=max)."""
    return F.clamp(self, None, max)


@composite("rsub")
def rsub(self: Tensor, other: Tensor | Number, alpha: Number = 1) -> Tensor:
    """other - alpha * self."""
    _require_tensor("rsub", "input", 1, self)
    return F.sub(other, self, alpha=alpha)


@composite("ldexp")
def ldexp(self: Tensor, other: Tensor) -> Tensor:
    """self * 2 ** other, in floating point."""
    _require_tensor("ldexp", "input", 1, self)
    _require_tensor("ldexp", "other", 2, other)
    return F.mul(self, R.pow(2.0, other))


@composite("logit")
def logit(self: Tensor, eps: float | None = None) -> Tensor:
    """log(p / (1 - p)); p is clamped to [eps, 1 - eps] first when eps is given."""
    p = _floating(self)
    if eps is not None and not math.isnan(eps):  # PyTorch's clamp by NaN bounds keeps p
        p = F.clamp(p, eps, 1 - eps)
    return F.log(F.div(p, F.sub(1, p)))


@composite("mvlgamma")
def mvlgamma(self: Tensor, p: int) -> Tensor:
    """sum over i < p of lgamma(self - i / 2), plus p (p - 1) / 4 log(pi)."""
    if self.dtype is D.bool_:
        raise DTypeError("The input tensor may not be a boolean tensor.")
    if p < 1:
        raise SchemaError(f"p has to be greater than or equal to 1, but got {p}")
    if not self.dtype.is_floating_point:  # integers are computed in the default dtype
        self = self.to(D.get_default_dtype())
    # all p terms at once (a loop of p Python steps never ends for a huge p; the p offsets
    # allocated up front give PyTorch's out-of-memory error instead)
    offsets = fac.arange(0, p, dtype=self.dtype, device=self.device) * -0.5
    total = F.sum(F.lgamma(F.unsqueeze(self, -1) + offsets), -1)
    return total + p * (p - 1) / 4 * math.log(math.pi)


# ---------------------------------------------------------------- scans and statistics

@composite("logcumsumexp")
def logcumsumexp(self: Tensor, dim: int) -> Tensor:
    """log(cumsum(exp(self))) along dim, as a scan of logaddexp (never overflows, and no
    element underflows against a far larger one): log2(n) doubling steps, each combining
    every element with the running result ``shift`` places before it (Hillis-Steele)."""
    d = wrap_dim(dim, self.ndim, "logcumsumexp")
    if not self.dtype.is_floating_point:
        raise DTypeError(f'"logcumsumexp_out_cpu" not implemented for \'{self.dtype.name}\'')
    if self.ndim == 0:
        return self.clone()
    n = self.shape[d]
    result, shift = self, 1
    while shift < n:
        head = result.narrow(d, 0, shift)
        tail = F.logaddexp(result.narrow(d, shift, n - shift), result.narrow(d, 0, n - shift))
        result = F.cat([head, tail], d)
        shift *= 2
    return result if result is not self else self.clone()


@composite("nanmean")
def nanmean(self: Tensor, dim: Any = None, keepdim: bool = False, dtype: Any = None) -> Tensor:
    """nansum divided by the number of elements that are not nan."""
    if not self.dtype.is_floating_point:  # whatever ``dtype`` asks for
        raise DTypeError(f"nanmean(): expected input to have floating point or complex dtype "
                         f"but got {type_name(self.dtype)}")
    if dtype is not None and not dtype.is_floating_point:
        raise DTypeError(f"nanmean(): could not infer output dtype. Optional dtype must be either "
                         f"a floating point or complex dtype. Got: {type_name(dtype)}")
    count = F.logical_not(F.isnan(self)).sum(dim, keepdim)
    return F.div(F.nansum(self, dim, keepdim, dtype=dtype), count)


@composite("msort")
def msort(self: Tensor) -> Tensor:
    """Sorted along the first dimension."""
    return F.sort(self, 0)[0]


@composite("bucketize")
def bucketize(self: Tensor, boundaries: Tensor, out_int32: bool = False,
              right: bool = False) -> Tensor:
    """The bucket index of each element of self among the sorted boundaries."""
    if boundaries.ndim != 1:
        raise ShapeError(f"boundaries tensor must be 1 dimension, but got dim("
                         f"{boundaries.ndim})")
    return F.searchsorted(boundaries, self, out_int32=out_int32, right=right)


_INTERPOLATIONS = ("linear", "lower", "higher", "midpoint", "nearest")


def _quantile(self: Tensor, q: Tensor | float, dim: int | None, keepdim: bool,
              interpolation: str, ignore_nan: bool, name: str) -> Tensor:
    """Sort, then interpolate between the two order statistics around rank q (n - 1), where
    n counts the non-nan elements (nanquantile) or all of them (quantile: nan if any)."""
    if self.dtype not in (D.float32, D.float64):  # PyTorch has no half-precision quantile
        raise DTypeError(f"{name}() input tensor must be either float or double dtype")
    if interpolation not in _INTERPOLATIONS:
        raise SchemaError(f"{name}() interpolation must be one of linear, lower, higher, "
                          f"midpoint or nearest. Got {interpolation}")
    scalar_q = not isinstance(q, Tensor) or q.ndim == 0
    if isinstance(q, Tensor):
        if q.ndim > 1:
            raise ShapeError(f"{name}() q must be a scalar or 1D tensor")
        if q.dtype is not self.dtype:
            raise DTypeError(f"{name}() q tensor must be same dtype as the input tensor")
        qs = q.reshape(-1)
    else:
        qs = fac.tensor([float(q)], dtype=self.dtype, device=self.device)
    if qs.numel() and not bool(F.logical_and(F.ge(qs, 0), F.le(qs, 1)).all()):
        raise SchemaError(f"{name}() q values must be in the range [0, 1]")
    if dim is None:
        x, d = self.reshape(-1), 0
    else:
        d = wrap_dim(dim, self.ndim, name)
        x = self.reshape(1) if self.ndim == 0 else self
    if x.shape[d] == 0:
        raise ShapeError(f"{name}() input tensor must be non-empty")
    # the reduced dimension last, one leading dimension for the quantiles
    values = F.sort(x.movedim(d, -1), -1)[0].unsqueeze(0)
    n = values.shape[-1]
    nan = F.isnan(values)
    if ignore_nan:
        count = F.logical_not(nan).sum(-1, True).to(self.dtype)
    else:
        count = fac.full(tuple(values.shape[:-1]) + (1,), n, dtype=self.dtype,
                         device=self.device)
    ranks = qs.reshape((-1,) + (1,) * (values.ndim - 1)) * F.clamp(count - 1, 0, None)
    if not ignore_nan:
        # as PyTorch: a slice with a NaN takes the last rank, the NaN the sort put there, so
        # the quantile is NaN and its gradient reaches that element; nanquantile of an all-NaN
        # slice takes rank 0, a NaN as well
        ranks = F.where(nan[..., -1:], float(n - 1), ranks)
    if interpolation == "lower":
        ranks = F.floor(ranks)
    elif interpolation == "higher":
        ranks = F.ceil(ranks)
    elif interpolation == "nearest":
        ranks = F.round(ranks)
    low_index = F.floor(ranks).to(D.int64)
    high_index = F.clamp(F.ceil(ranks).to(D.int64), None, n - 1)
    stretched = values.expand(tuple(ranks.shape[:-1]) + (n,))
    low = F.gather(stretched, -1, low_index)
    high = F.gather(stretched, -1, high_index)
    if interpolation == "midpoint":
        result = (low + high) * 0.5
    else:
        result = F.lerp(low, high, ranks - F.floor(ranks))
    result = result.squeeze(-1)
    if keepdim and dim is None:
        result = result.reshape((result.shape[0],) + (1,) * self.ndim)
    elif keepdim and self.ndim:
        result = result.unsqueeze(-1).movedim(-1, d + 1)
    return result.squeeze(0) if scalar_q else result


@composite("quantile")
def quantile(self: Tensor, q: Tensor, dim: int | None = None, keepdim: bool = False,
             interpolation: str = "linear") -> Tensor:
    """The q-th quantiles of self along dim."""
    return _quantile(self, q, dim, keepdim, interpolation, False, "quantile")


@composite("quantile.scalar")
def quantile_scalar(self: Tensor, q: float, dim: int | None = None, keepdim: bool = False,
                    interpolation: str = "linear") -> Tensor:
    """The q-th quantile of self along dim."""
    return _quantile(self, q, dim, keepdim, interpolation, False, "quantile")


@composite("nanquantile")
def nanquantile(self: Tensor, q: Tensor, dim: int | None = None, keepdim: bool = False,
                interpolation: str = "linear") -> Tensor:
    """The q-th quantiles of self's non-nan elements along dim."""
    return _quantile(self, q, dim, keepdim, interpolation, True, "nanquantile")


@composite("nanquantile.scalar")
def nanquantile_scalar(self: Tensor, q: float, dim: int | None = None, keepdim: bool = False,
                       interpolation: str = "linear") -> Tensor:
    """The q-th quantile of self's non-nan elements along dim."""
    return _quantile(self, q, dim, keepdim, interpolation, True, "nanquantile")


# ---------------------------------------------------------------- in-place random fills
# Each transforms uniform samples of volta's generator (so volta.manual_seed makes them
# reproducible) by the inverse of its distribution function.


def _uniform_like(self: Tensor, name: str, generator: Any) -> Tensor:
    if not self.is_floating_point():
        raise DTypeError(f'"{name}" not implemented for \'{self.dtype.name}\'')
    return fac.rand(_shape(self), generator=generator, dtype=self.dtype, device=self.device)


@composite("cauchy_")
def cauchy_(self: Tensor, median: float = 0, sigma: float = 1, generator: Any = None) -> Tensor:
    """Fill self with Cauchy(median, sigma) samples."""
    if not sigma > 0:
        raise SchemaError(f"cauchy_ expects sigma > 0.0, but found sigma={sigma}")
    u = _uniform_like(self, "cauchy_", generator)
    return self.copy_(F.tan((u - 0.5) * math.pi) * sigma + median)


@composite("exponential_")
def exponential_(self: Tensor, lambd: float = 1, generator: Any = None) -> Tensor:
    """Fill self with Exponential(lambd) samples."""
    if not lambd > 0:
        raise SchemaError(f"exponential_ expects lambda > 0.0, but found lambda={lambd}")
    if self.numel() == 0:
        return self  # PyTorch returns before its dtype check: an empty tensor of any dtype
    u = _uniform_like(self, "exponential_", generator)
    return self.copy_(-F.log1p(-u) / lambd)


@composite("geometric_")
def geometric_(self: Tensor, p: float, generator: Any = None) -> Tensor:
    """Fill self with Geometric(p) samples: trials up to and including the first success."""
    if not 0 < p < 1:
        raise SchemaError(f"geometric_ expects p to be in (0, 1), but got p={p}")
    draw = self if self.is_floating_point() else fac.empty(_shape(self), device=self.device)
    u = _uniform_like(draw, "geometric_", generator)
    return self.copy_(F.ceil(F.log1p(-u) / math.log1p(-p)).clamp(1, None))


@composite("log_normal_")
def log_normal_(self: Tensor, mean: float = 1, std: float = 2, generator: Any = None) -> Tensor:
    """Fill self with samples whose logarithm is Normal(mean, std)."""
    if not std > 0:
        raise SchemaError(f"log_normal_ expects std > 0.0, but found std={std}")
    if self.numel() == 0:
        return self  # as exponential_: no dtype check for an empty tensor
    if not self.is_floating_point():
        raise DTypeError(f'"log_normal_" not implemented for \'{self.dtype.name}\'')
    z = fac.randn(_shape(self), generator=generator, dtype=self.dtype, device=self.device)
    return self.copy_(F.exp(z * std + mean))
