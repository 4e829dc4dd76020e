"""Composite operators: pointwise math, comparisons, reductions and linear algebra."""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

from volta import dtypes as D
from volta._generated import functions as F
from volta._generated import registry as R
from volta.composites.base import Number, _shape, composite
from volta.composites.views import wrap_dims
from volta.errors import DTypeError, SchemaError, ShapeError
from volta.tensor.checks import require_tensors
from volta.tensor.inplace import broadcast_shapes
from volta.tensor.tensor import Tensor

# ---------------------------------------------------------------- pointwise

@composite("positive")
def positive(self: Tensor) -> Tensor:
    """``+self``: the tensor itself (bool tensors are rejected, as in PyTorch)."""
    if self.dtype is D.bool_:
        raise DTypeError("The `+` operator, on a bool tensor is not supported.")
    return self


_SQRT1_2 = 1.0 / math.sqrt(2.0)
_INV_SQRT_2PI = 1.0 / math.sqrt(2.0 * math.pi)
_SQRT_2_OVER_PI = math.sqrt(2.0 / math.pi)
_GELU_KAPPA = 0.044715


@composite("gelu_backward")
def gelu_backward(grad_output: Tensor, self: Tensor, approximate: str = "none") -> Tensor:
    """Gradient of gelu at ``self`` times ``grad_output`` (itself differentiable). Half
    inputs compute in float32 and round once, as PyTorch's kernel ("opmath") and volta's CPU
    kernel do: rounding each step to float16 drifts by several ulps."""
    half = self.dtype in (D.float16, D.bfloat16) and grad_output.dtype is self.dtype
    if half:
        return gelu_backward(grad_output.float(), self.float(), approximate).to(self.dtype)
    x = self
    if approximate == "none":
        cdf = 0.5 * (1.0 + F.erf(x * _SQRT1_2))
        pdf = F.exp(-0.5 * x * x) * _INV_SQRT_2PI
        return grad_output * (cdf + x * pdf)
    if approximate == "tanh":
        x_sq = x * x
        inner = _SQRT_2_OVER_PI * (x + _GELU_KAPPA * x_sq * x)
        th = F.tanh(inner)
        left_derivative = 0.5 * (1.0 + th)
        right_derivative = (1.0 - th * th) * (_SQRT_2_OVER_PI * (1.0 + 3.0 * _GELU_KAPPA * x_sq))
        return grad_output * (left_derivative + 0.5 * x * right_derivative)
    raise SchemaError("approximate argument must be either none or tanh.")


@composite("clip")
def clip(self: Tensor, min: Tensor | Number | None = None,
         max: Tensor | Number | None = None) -> Tensor:
    """Alias of clamp."""
    return R.clamp(self, min, max)


@composite("subtract")
def subtract(self: Tensor, other: Tensor | Number, alpha: Number = 1) -> Tensor:
    """Alias of sub."""
    return R.sub(self, other, alpha)


@composite("multiply")
def multiply(self: Tensor, other: Tensor | Number) -> Tensor:
    """Alias of mul."""
    return R.mul(self, other)


@composite("true_divide")
def true_divide(self: Tensor, other: Tensor | Number) -> Tensor:
    """Alias of div without rounding."""
    return R.div(self, other, None)


@composite("divide")
def divide(self: Tensor, other: Tensor | Number, rounding_mode: str | None = None) -> Tensor:
    """Alias of div."""
    return R.div(self, other, rounding_mode)


def _to_double(value: Any) -> Any:
    if isinstance(value, Tensor):
        return value if value.dtype is D.float64 else value.to(D.float64)
    return float(value)


@composite("float_power")
def float_power(self: Tensor | Number, exponent: Tensor | Number) -> Tensor:
    """``pow`` computed in float64, whatever the operands' dtypes."""
    return R.pow(_to_double(self), _to_double(exponent))


@composite("arctan2")
def arctan2(self: Tensor, other: Tensor) -> Tensor:
    """Alias of atan2 (which, like PyTorch's, takes no Python number)."""
    require_tensors("arctan2", self, other)
    return R.atan2(self, other)


# ---------------------------------------------------------------- comparison

@composite("equal")
def equal(self: Tensor, other: Tensor) -> bool:
    """True when both tensors have the same sizes and elements."""
    if _shape(self) != _shape(other):
        return False
    return bool(R.eq(self, other).all().item())


@composite("isclose")
def isclose(self: Tensor, other: Tensor, rtol: float = 1e-05, atol: float = 1e-08,
            equal_nan: bool = False) -> Tensor:
    """``|self - other| <= atol + rtol * |other|`` elementwise (PyTorch's formula)."""
    if self.dtype is not other.dtype:
        raise DTypeError(f"isclose: {self.dtype.name} did not match {other.dtype.name}")
    if not rtol >= 0:  # NaN too
        raise SchemaError(f"rtol must be greater than or equal to zero, but got {rtol}")
    if not atol >= 0:  # NaN too
        raise SchemaError(f"atol must be greater than or equal to zero, but got {atol}")
    close = R.eq(self, other)
    floating = self.dtype.is_floating_point
    if equal_nan and floating:
        close = F.logical_or(close, F.logical_and(F.isnan(self), F.isnan(other)))
    if rtol == 0 and atol == 0:
        return close
    a, b = self, other
    if not floating:
        # the difference of integers could overflow; compare in the default float dtype
        a, b = a.to(D.get_default_dtype()), b.to(D.get_default_dtype())
    allowed = atol + F.abs(rtol * b)
    actual = F.abs(a - b)
    return F.logical_or(close, F.logical_and(F.isfinite(actual), F.le(actual, allowed)))


@composite("allclose")
def allclose(self: Tensor, other: Tensor, rtol: float = 1e-05, atol: float = 1e-08,
             equal_nan: bool = False) -> bool:
    """True when every element pair is close (see isclose)."""
    return bool(isclose(self, other, rtol, atol, equal_nan).all().item())


@composite("max.other")
def max_other(self: Tensor, other: Tensor) -> Tensor:
    """Alias of maximum."""
    return R.maximum(self, other)


@composite("min.other")
def min_other(self: Tensor, other: Tensor) -> Tensor:
    """Alias of minimum."""
    return R.minimum(self, other)


# ---------------------------------------------------------------- reductions

@composite("aminmax")
def aminmax(self: Tensor, dim: int | None = None,
            keepdim: bool = False) -> tuple[Tensor, Tensor]:
    """``(amin, amax)`` over ``dim``, or over every element when ``dim`` is None."""
    if dim is None:
        if self.numel() == 0:
            raise ShapeError("aminmax(): cannot compute aminmax over an empty dimension as the "
                             "operation has no identity.")
        dims: tuple[int, ...] = ()
    else:
        dims = (dim,)
    return R.amin(self, dims, keepdim), R.amax(self, dims, keepdim)


@composite("var.dim")
def var_dim(self: Tensor, dim: Sequence[int] | None, unbiased: bool = True,
            keepdim: bool = False) -> Tensor:
    """Variance over ``dim`` with Bessel's correction when ``unbiased``."""
    return R.var_correction(self, dim, 1 if unbiased else 0, keepdim)


@composite("var")
def var(self: Tensor, unbiased: bool = True) -> Tensor:
    """Variance of every element."""
    return R.var_correction(self, None, 1 if unbiased else 0, False)


@composite("std.dim")
def std_dim(self: Tensor, dim: Sequence[int] | None, unbiased: bool = True,
            keepdim: bool = False) -> Tensor:
    """Standard deviation over ``dim`` with Bessel's correction when ``unbiased``."""
    return R.std_correction(self, dim, 1 if unbiased else 0, keepdim)


@composite("std")
def std(self: Tensor, unbiased: bool = True) -> Tensor:
    """Standard deviation of every element."""
    return R.std_correction(self, None, 1 if unbiased else 0, False)


@composite("var_mean")
def var_mean(self: Tensor, dim: Sequence[int] | None = None, correction: Number | None = None,
             keepdim: bool = False) -> tuple[Tensor, Tensor]:
    """``(var, mean)`` over ``dim``."""
    return (R.var_correction(self, dim, correction, keepdim),
            R.mean(self, dim, keepdim, None))


@composite("std_mean")
def std_mean(self: Tensor, dim: Sequence[int] | None = None, correction: Number | None = None,
             keepdim: bool = False) -> tuple[Tensor, Tensor]:
    """``(std, mean)`` over ``dim``."""
    return (R.std_correction(self, dim, correction, keepdim),
            R.mean(self, dim, keepdim, None))


@composite("norm")
def norm(self: Tensor, p: Number | None = 2, dim: Sequence[int] | None = None,
         keepdim: bool = False, dtype: D.dtype | None = None) -> Tensor:
    """``torch.norm`` with a numeric ``p``: a vector norm over ``dim`` (all dims if None)."""
    return R.vector_norm(self, 2 if p is None else p, dim, keepdim, dtype)


@composite("norm.str")
def norm_str(self: Tensor, p: str, dim: Sequence[int] | None = None, keepdim: bool = False,
             dtype: D.dtype | None = None) -> Tensor:
    """``torch.norm`` with ``p="fro"`` (a vector 2-norm over ``dim``) or ``p="nuc"`` (the sum
    of singular values over two ``dim``, the last two by default)."""
    if p == "fro":
        return R.vector_norm(self, 2, dim, keepdim, dtype)
    if p == "nuc":
        dims = [-2, -1] if dim is None else list(dim)
        return R.linalg_matrix_norm_str_ord(self, "nuc", dims, keepdim, dtype)
    raise SchemaError(f"linalg.matrix_norm: Order {p} not supported.")


@composite("dist")
def dist(self: Tensor, other: Tensor, p: Number = 2) -> Tensor:
    """The p-norm of ``self - other``."""
    return R.vector_norm(self - other, p, None, False, None)


@composite("_cumsum_backward")
def _cumsum_backward(grad_output: Tensor, dim: int) -> Tensor:
    """cumsum's backward: the running sums of ``grad_output`` from the end of ``dim``."""
    if grad_output.ndim == 0:
        return grad_output
    return grad_output.flip(dim).cumsum(dim).flip(dim)


# ---------------------------------------------------------------- linear algebra

def _add_scaled(self: Tensor, product: Tensor, beta: Number, alpha: Number) -> Tensor:
    """``beta * self + alpha * product``; with beta == 0 ``self`` is ignored (nan included)."""
    if alpha != 1:
        product = product * alpha
    if beta == 0:
        broadcast_shapes(_shape(self), _shape(product))
        return product
    return (self if beta == 1 else self * beta) + product


@composite("addmv")
def addmv(self: Tensor, mat: Tensor, vec: Tensor, beta: Number = 1,
          alpha: Number = 1) -> Tensor:
    """``beta * self + alpha * (mat @ vec)``."""
    if mat.ndim != 2 or vec.ndim != 1:
        raise ShapeError(f"vector + matrix @ vector expected, got {self.ndim}, {mat.ndim}, "
                         f"{vec.ndim}")
    if not self.dtype is mat.dtype is vec.dtype:
        raise DTypeError(f"addmv input tensors must have the same dtype, but got "
                         f"{self.dtype.name}, {mat.dtype.name}, and {vec.dtype.name}")
    return _add_scaled(self, mv(mat, vec), beta, alpha)


def check_batches(batch1: Tensor, batch2: Tensor) -> None:
    """baddbmm's and addbmm's operands: two 3-D batches of matrices."""
    if batch1.ndim != 3:
        raise ShapeError(f"batch1 must be a 3D tensor, got {batch1.ndim}D")
    if batch2.ndim != 3:
        raise ShapeError(f"batch2 must be a 3D tensor, got {batch2.ndim}D")


@composite("baddbmm")
def baddbmm(self: Tensor, batch1: Tensor, batch2: Tensor, beta: Number = 1,
            alpha: Number = 1) -> Tensor:
    """``beta * self + alpha * (batch1 @ batch2)`` over a batch of matrices."""
    check_batches(batch1, batch2)
    if not self.dtype is batch1.dtype is batch2.dtype:
        raise DTypeError(f"Input dtypes must be the same, got: input {self.dtype.name}, batch1: "
                         f"{batch1.dtype.name}, batch2: {batch2.dtype.name}")
    return _add_scaled(self, R.bmm(batch1, batch2), beta, alpha)


@composite("outer")
def outer(self: Tensor, vec2: Tensor) -> Tensor:
    """Outer product of two vectors."""
    if self.ndim != 1:
        raise ShapeError(f"outer: Expected 1-D argument self, but got {self.ndim}-D")
    if vec2.ndim != 1:
        raise ShapeError(f"outer: Expected 1-D argument vec2, but got {vec2.ndim}-D")
    return self.unsqueeze(1) * vec2


@composite("dot")
def dot(self: Tensor, tensor: Tensor) -> Tensor:
    """Inner product of two vectors of the same dtype and length."""
    if self.ndim != 1 or tensor.ndim != 1:
        raise ShapeError(f"1D tensors expected, but got {self.ndim}D and {tensor.ndim}D tensors")
    if self.dtype is not tensor.dtype:
        raise DTypeError(f"dot : expected both vectors to have same dtype, but found "
                         f"{self.dtype.name} and {tensor.dtype.name}")
    n, m = self.shape[0], tensor.shape[0]
    if n != m:
        raise ShapeError(f"inconsistent tensor size, expected tensor [{n}] and src [{m}] to have "
                         f"the same number of elements, but got {n} and {m} elements "
                         "respectively")
    return R.matmul(self, tensor)


@composite("mv")
def mv(self: Tensor, vec: Tensor) -> Tensor:
    """Matrix times vector."""
    if self.ndim != 2 or vec.ndim != 1:
        raise ShapeError(f"vector + matrix @ vector expected, got 1, {self.ndim}, {vec.ndim}")
    if self.shape[1] != vec.shape[0]:
        raise ShapeError(f"size mismatch, got input ({self.shape[0]}), mat "
                         f"({self.shape[0]}x{self.shape[1]}), vec ({vec.shape[0]})")
    return R.matmul(self, vec)


@composite("trace")
def trace(self: Tensor) -> Tensor:
    """Sum of the main diagonal of a matrix (a composite with its own derivative, as in
    PyTorch, so the backward is one diagonal scatter instead of sum's and diagonal's)."""
    if self.ndim != 2:
        raise ShapeError(f"trace: expected a matrix, but got tensor with dim {self.ndim}")
    if self.dtype is D.bool_:
        raise DTypeError("\"trace\" not implemented for 'Bool'")
    return self.diagonal().sum()


@composite("tensordot")
def tensordot(self: Tensor, other: Tensor, dims_a: Sequence[int],
              dims_b: Sequence[int]) -> Tensor:
    """Contract ``dims_a`` of ``self`` with ``dims_b`` of ``other`` (one matrix product)."""
    if len(dims_a) != len(dims_b):
        raise ShapeError("both dimension lists should have same length")
    a, b = self, other
    da = list(wrap_dims(dims_a, a.ndim, "tensordot"))
    db = list(wrap_dims(dims_b, b.ndim, "tensordot"))
    for x, y in zip(da, db):
        s1, s2 = a.shape[x], b.shape[y]
        if s1 == s2:
            continue
        # a size-1 dim on one side broadcasts: sum the other side over it right away
        if s2 == 1:
            a = a.sum(x, keepdim=True)
        elif s1 == 1:
            b = b.sum(y, keepdim=True)
        else:
            raise ShapeError(f"contracted dimensions need to match, but first has size {s1} in "
                             f"dim {x} and second has size {s2} in dim {y}")
    free_a = [d for d in range(a.ndim) if d not in da]
    free_b = [d for d in range(b.ndim) if d not in db]
    free_a_sizes = [a.shape[d] for d in free_a]
    free_b_sizes = [b.shape[d] for d in free_b]
    contracted = math.prod(a.shape[d] for d in da)
    lhs = R.reshape(a.permute(free_a + da), (math.prod(free_a_sizes), contracted))
    rhs = R.reshape(b.permute(db + free_b), (contracted, math.prod(free_b_sizes)))
    return R.reshape(R.mm(lhs, rhs), tuple(free_a_sizes + free_b_sizes))


