"""Composite operators: the ops of ops.yaml marked ``composite: true``, written with other ops.

Each function here takes its schema's arguments positionally, in schema order, and only calls
volta ops (``F``, the operator handles ``R`` and Tensor methods), so every backend runs it and
autograd differentiates it through the ops it calls. ``COMPOSITES`` maps an op's full schema
name (``"split.int"``, ``"var.dim"``, ...) to its function.

The view ops themselves (view, permute, select, ...) live in ``volta/views.py``.
"""

from __future__ import annotations

import math
import warnings
from collections.abc import Callable, Sequence
from typing import Any

from volta import _factories as fac
from volta import dtypes as D
from volta._generated import functions as F
from volta._generated import registry as R
from volta._inplace_support import broadcast_shapes
from volta._tensor import Tensor
from volta.errors import (
    DTypeError,
    IndexOutOfRangeError,
    RegistrationError,
    SchemaError,
    ShapeError,
)
from volta.views import infer_size, view_strides, wrap_dim

Number = int | float | bool

COMPOSITES: dict[str, Callable[..., Any]] = {}


def composite(name: str) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    """Register the decorated function as the composite implementation of op ``name``."""
    def register(fn: Callable[..., Any]) -> Callable[..., Any]:
        if name in COMPOSITES:
            raise RegistrationError(f"composite {name!r} is defined twice")
        COMPOSITES[name] = fn
        return fn
    return register


def _shape(t: Tensor) -> tuple[int, ...]:
    return tuple(t.shape)


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
    """Gradient of gelu at ``self`` times ``grad_output`` (itself differentiable)."""
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
def arctan2(self: Tensor, other: Tensor | Number) -> Tensor:
    """Alias of atan2."""
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
    if rtol < 0:
        raise SchemaError(f"rtol must be greater than or equal to zero, but got {rtol}")
    if atol < 0:
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


@composite("where")
def where(condition: Tensor) -> tuple[Tensor, ...]:
    """``where(condition)``: the indices of the nonzero elements, one tensor per dim."""
    return nonzero_tuple(condition, True)


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
    """``torch.norm`` with ``p="fro"``; the nuclear norm is not supported."""
    if p == "fro":
        return R.vector_norm(self, 2, dim, keepdim, dtype)
    if p == "nuc":
        raise SchemaError("norm: the nuclear norm (p='nuc') is not supported")
    raise SchemaError(f"linalg.matrix_norm: Order {p} not supported.")


@composite("dist")
def dist(self: Tensor, other: Tensor, p: Number = 2) -> Tensor:
    """The p-norm of ``self - other``."""
    return R.vector_norm(self - other, p, None, False, None)


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


@composite("baddbmm")
def baddbmm(self: Tensor, batch1: Tensor, batch2: Tensor, beta: Number = 1,
            alpha: Number = 1) -> Tensor:
    """``beta * self + alpha * (batch1 @ batch2)`` over a batch of matrices."""
    if batch1.ndim != 3:
        raise ShapeError(f"batch1 must be a 3D tensor, got {batch1.ndim}D")
    if batch2.ndim != 3:
        raise ShapeError(f"batch2 must be a 3D tensor, got {batch2.ndim}D")
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
    da = [wrap_dim(d, a.ndim, "tensordot") for d in dims_a]
    db = [wrap_dim(d, b.ndim, "tensordot") for d in dims_b]
    for dims in (da, db):
        if len(set(dims)) != len(dims):
            raise ShapeError(f"tensordot: repeated dim in the list of dims {dims}")
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


# ---------------------------------------------------------------- views and shapes

@composite("swapaxes")
def swapaxes(self: Tensor, axis0: int, axis1: int) -> Tensor:
    """Alias of transpose."""
    return R.transpose(self, axis0, axis1)


@composite("t")
def t(self: Tensor) -> Tensor:
    """Transpose of a matrix; tensors with fewer than 2 dims come back as a view of themselves."""
    if self.ndim > 2:
        raise ShapeError(f"t() expects a tensor with <= 2 dimensions, but self is {self.ndim}D")
    return R.transpose(self, 0, 0 if self.ndim < 2 else 1)


@composite("expand_as")
def expand_as(self: Tensor, other: Tensor) -> Tensor:
    """``self.expand(other.shape)``."""
    return R.expand(self, _shape(other))


@composite("broadcast_to")
def broadcast_to(self: Tensor, size: Sequence[int]) -> Tensor:
    """``self.expand(size)``."""
    return R.expand(self, tuple(size))


@composite("narrow")
def narrow(self: Tensor, dim: int, start: int, length: int) -> Tensor:
    """``length`` elements of ``dim`` from ``start`` (a view)."""
    if self.ndim == 0:
        raise IndexOutOfRangeError("narrow() cannot be applied to a 0-dim tensor.")
    if length < 0:
        raise ShapeError("narrow(): length must be non-negative.")
    d = wrap_dim(dim, self.ndim, "narrow")
    size = self.shape[d]
    if not -size <= start <= size:
        raise IndexOutOfRangeError(f"start out of range (expected to be in range of [{-size}, "
                                   f"{size}], but got {start})")
    if start < 0:
        start += size
    if start + length > size:
        raise ShapeError(f"start ({start}) + length ({length}) exceeds dimension size ({size}).")
    return R.slice(self, d, start, start + length, 1)


@composite("split.int")
def split_int(self: Tensor, split_size_or_sections: int, dim: int = 0) -> tuple[Tensor, ...]:
    """Pieces of ``split_size_or_sections`` along ``dim`` (the last may be smaller)."""
    if self.ndim == 0:
        raise ShapeError("split expects at least a 1-dimensional tensor")
    split_size = split_size_or_sections
    if split_size < 0:
        raise ShapeError(f"split expects split_size be non-negative, but got "
                         f"split_size={split_size}")
    d = wrap_dim(dim, self.ndim, "split")
    size = self.shape[d]
    if split_size == 0 and size != 0:
        raise ShapeError(f"split_size can only be 0 if dimension size is 0, but got dimension "
                         f"size of {size}")
    count = max(-(-size // split_size), 1) if split_size else 1
    return tuple(narrow(self, d, i * split_size, min(split_size, size - i * split_size))
                 for i in range(count))


@composite("split.sizes")
def split_sizes(self: Tensor, split_size_or_sections: Sequence[int],
                dim: int = 0) -> tuple[Tensor, ...]:
    """Pieces of the given sizes along ``dim``; they must add up to its size."""
    if self.ndim == 0:
        raise ShapeError("split expects at least a 1-dimensional tensor")
    sizes = list(split_size_or_sections)
    d = wrap_dim(dim, self.ndim, "split")
    size = self.shape[d]
    if any(s < 0 for s in sizes):
        raise ShapeError(f"split_with_sizes expects split_sizes have only non-negative entries, "
                         f"but got split_sizes={sizes}")
    if sum(sizes) != size:
        raise ShapeError(f"split_with_sizes expects split_sizes to sum exactly to {size} (input "
                         f"tensor's size at dimension {d}), but got split_sizes={sizes}")
    pieces = []
    start = 0
    for s in sizes:
        pieces.append(narrow(self, d, start, s))
        start += s
    return tuple(pieces)


@composite("chunk")
def chunk(self: Tensor, chunks: int, dim: int = 0) -> tuple[Tensor, ...]:
    """At most ``chunks`` pieces of ``ceil(size / chunks)`` along ``dim``."""
    if self.ndim == 0:
        raise ShapeError("chunk expects at least a 1-dimensional tensor")
    if chunks <= 0:
        raise ShapeError(f"chunk expects `chunks` to be greater than 0, got: {chunks}")
    d = wrap_dim(dim, self.ndim, "chunk")
    size = self.shape[d]
    split_size = -(-size // chunks)
    if split_size == 0 and size == 0:
        # keep the number of (empty) chunks, which split by size 0 would lose
        return split_sizes(self, (0,) * chunks, d)
    return split_int(self, split_size, d)


@composite("unbind")
def unbind(self: Tensor, dim: int = 0) -> tuple[Tensor, ...]:
    """The slices along ``dim``, with that dim removed."""
    if self.ndim == 0:
        raise IndexOutOfRangeError("Dimension specified as 0 but tensor has no dimensions")
    d = wrap_dim(dim, self.ndim, "unbind")
    return tuple(R.select(self, d, i) for i in range(self.shape[d]))


@composite("movedim")
def movedim(self: Tensor, source: Sequence[int], destination: Sequence[int]) -> Tensor:
    """Move the dims ``source`` to the positions ``destination``; the others keep their order."""
    n = self.ndim
    if len(source) != len(destination):
        raise ShapeError(f"movedim: Invalid source or destination dims: source ({list(source)} "
                         f"dims) should contain the same number of dims as destination "
                         f"({list(destination)} dims)")
    src = [wrap_dim(d, n, "movedim") for d in source]
    dst = [wrap_dim(d, n, "movedim") for d in destination]
    if len(set(src)) != len(src):
        raise ShapeError(f"movedim: repeated dim in `source` ({list(source)})")
    if len(set(dst)) != len(dst):
        raise ShapeError(f"movedim: repeated dim in `destination` ({list(destination)})")
    if n == 0:
        return R.alias(self)
    order: list[int | None] = [None] * n
    for s, d in zip(src, dst):
        order[d] = s
    rest = iter(d for d in range(n) if d not in src)
    perm = [next(rest) if o is None else o for o in order]
    return R.permute(self, tuple(perm))


@composite("reshape")
def reshape(self: Tensor, shape: Sequence[int]) -> Tensor:
    """A view with ``shape`` when the strides allow one, else a contiguous copy."""
    size = infer_size(shape, self.numel(), "reshape")
    if view_strides(_shape(self), tuple(self.stride()), size) is not None:
        return R.view(self, size)
    return R.view(contiguous(self), size)


@composite("reshape_as")
def reshape_as(self: Tensor, other: Tensor) -> Tensor:
    """``self.reshape(other.shape)``."""
    return R.reshape(self, _shape(other))


@composite("view_as")
def view_as(self: Tensor, other: Tensor) -> Tensor:
    """``self.view(other.shape)``."""
    return R.view(self, _shape(other))


@composite("flatten")
def flatten(self: Tensor, start_dim: int = 0, end_dim: int = -1) -> Tensor:
    """Merge dims ``start_dim..end_dim`` into one (a 0-d tensor becomes 1-d)."""
    n = self.ndim
    if n == 0:
        return R.reshape(self, (1,))
    start = wrap_dim(start_dim, n, "flatten")
    end = wrap_dim(end_dim, n, "flatten")
    if start > end:
        raise ShapeError("flatten() has invalid args: start_dim cannot come after end_dim")
    if start == end:
        return self
    shape = _shape(self)
    merged = math.prod(shape[start:end + 1])
    return R.reshape(self, shape[:start] + (merged,) + shape[end + 1:])


@composite("unflatten")
def unflatten(self: Tensor, dim: int, sizes: Sequence[int]) -> Tensor:
    """Split dim ``dim`` into ``sizes`` (one entry may be -1)."""
    if self.ndim == 0:
        raise IndexOutOfRangeError("Dimension specified as 0 but tensor has no dimensions")
    d = wrap_dim(dim, self.ndim, "unflatten")
    sizes = list(sizes)
    if not sizes:
        raise ShapeError("unflatten: sizes must be non-empty")
    size = self.shape[d]
    if sizes.count(-1) > 1:
        raise ShapeError("unflatten: only one dimension can be inferred")
    known = math.prod(s for s in sizes if s != -1)
    mismatch = (known == 0 or size % known) if -1 in sizes else known != size
    if mismatch:
        raise ShapeError(f"unflatten: Provided sizes {sizes} don't multiply up to the size of dim "
                         f"{d} ({size}) in the input tensor")
    if -1 in sizes:
        sizes[sizes.index(-1)] = size // known
    shape = _shape(self)
    return R.view(self, shape[:d] + tuple(sizes) + shape[d + 1:])


@composite("ravel")
def ravel(self: Tensor) -> Tensor:
    """The elements as a 1-d tensor (a view when possible)."""
    return R.reshape(self, (-1,))


@composite("contiguous")
def contiguous(self: Tensor, memory_format: Any = None) -> Tensor:
    """``self`` when already contiguous, else a contiguous copy."""
    if self.is_contiguous():
        return self
    return R.clone(self, None)


@composite("zero_")
def zero_(self: Tensor) -> Tensor:
    """Fill ``self`` with zeros in place."""
    return self.fill_(0)


@composite("concat")
def concat(tensors: Sequence[Tensor], dim: int = 0) -> Tensor:
    """Alias of cat."""
    return R.cat(tuple(tensors), dim)


@composite("stack")
def stack(tensors: Sequence[Tensor], dim: int = 0) -> Tensor:
    """Join equally shaped tensors along a new dim ``dim``."""
    if not tensors:
        raise ShapeError("stack expects a non-empty TensorList")
    first = _shape(tensors[0])
    for i, other in enumerate(tensors[1:], 1):
        if _shape(other) != first:
            raise ShapeError(f"stack expects each tensor to be equal size, but got {list(first)} "
                             f"at entry 0 and {list(other.shape)} at entry {i}")
    d = wrap_dim(dim, len(first) + 1, "stack")
    return R.cat(tuple(x.unsqueeze(d) for x in tensors), d)


def _atleast_1d(x: Tensor) -> Tensor:
    return R.reshape(x, (1,)) if x.ndim == 0 else x


def _atleast_2d(x: Tensor) -> Tensor:
    if x.ndim == 0:
        return R.reshape(x, (1, 1))
    return x.unsqueeze(0) if x.ndim == 1 else x


@composite("hstack")
def hstack(tensors: Sequence[Tensor]) -> Tensor:
    """Concatenate column-wise (along dim 0 for 1-d tensors, else dim 1)."""
    if not tensors:
        raise ShapeError("hstack expects a non-empty TensorList")
    parts = tuple(_atleast_1d(x) for x in tensors)
    return R.cat(parts, 0 if parts[0].ndim == 1 else 1)


@composite("vstack")
def vstack(tensors: Sequence[Tensor]) -> Tensor:
    """Concatenate row-wise, treating 0-d and 1-d tensors as rows."""
    if not tensors:
        raise ShapeError("vstack expects a non-empty TensorList")
    return R.cat(tuple(_atleast_2d(x) for x in tensors), 0)


@composite("tile")
def tile(self: Tensor, dims: Sequence[int]) -> Tensor:
    """Repeat ``self`` ``dims`` times per dim; missing leading dims repeat once."""
    reps = tuple(dims)
    if len(reps) < self.ndim:
        reps = (1,) * (self.ndim - len(reps)) + reps
    return R.repeat(self, reps)


_warned_meshgrid_indexing = False


@composite("meshgrid")
def meshgrid(tensors: Sequence[Tensor], indexing: str | None = None) -> tuple[Tensor, ...]:
    """Coordinate grids of 0-d/1-d tensors, as expanded views ("ij" or "xy" indexing)."""
    global _warned_meshgrid_indexing
    if not tensors:
        raise ShapeError("meshgrid expects a non-empty TensorList")
    if indexing is None:
        if not _warned_meshgrid_indexing:
            _warned_meshgrid_indexing = True
            warnings.warn("torch.meshgrid: in an upcoming release, it will be required to pass "
                          "the indexing argument.", UserWarning, stacklevel=3)
        indexing = "ij"
    if indexing not in ("ij", "xy"):
        raise SchemaError(f'torch.meshgrid: indexing must be one of "xy" or "ij", but received: '
                          f"{indexing}")
    grids = list(tensors)
    for x in grids:
        if x.ndim > 1:
            raise ShapeError(f"torch.meshgrid: Expected 0D or 1D tensor in the tensor list but "
                             f"got a tensor of shape {list(x.shape)}")
        if x.dtype is not grids[0].dtype:
            raise DTypeError("meshgrid expects all tensors to have the same dtype")
        if x.device != grids[0].device:
            raise ShapeError("meshgrid expects all tensors to have the same device")
    swap = indexing == "xy" and len(grids) >= 2
    if swap:
        grids[0], grids[1] = grids[1], grids[0]
    shape = tuple(x.numel() for x in grids)
    out = []
    for i, x in enumerate(grids):
        view_shape = [1] * len(grids)
        view_shape[i] = -1
        out.append(R.expand(R.reshape(x, tuple(view_shape)), shape))
    if swap:
        out[0], out[1] = out[1], out[0]
    return tuple(out)


# ---------------------------------------------------------------- sorting and indexing

@composite("argsort")
def argsort(self: Tensor, dim: int = -1, descending: bool = False, stable: bool = False) -> Tensor:
    """The indices that sort ``self`` along ``dim``."""
    return R.sort(self, dim, descending, stable)[1]


@composite("take_along_dim")
def take_along_dim(self: Tensor, indices: Tensor, dim: int | None = None) -> Tensor:
    """gather with broadcasting of every dim but ``dim``; flat when ``dim`` is None."""
    if dim is None:
        return R.gather(R.reshape(self, (-1,)), 0, R.reshape(indices, (-1,)), False)
    if self.ndim != indices.ndim:
        raise ShapeError(f"torch.take_along_dim(): input and indices should have the same number "
                         f"of dimensions, but got {self.ndim} dimensions for input, and "
                         f"{indices.ndim} dimensions for indices")
    if indices.dtype is not D.int64:
        raise DTypeError(f"torch.take_along_dim(): dtype of indices should be Long but got "
                         f"{indices.dtype.name}")
    d = wrap_dim(dim, self.ndim, "take_along_dim")
    self_sizes = list(self.shape)
    self_sizes[d] = indices.shape[d]
    indices = R.expand(indices, broadcast_shapes(tuple(self_sizes), _shape(indices)))
    index_sizes = list(indices.shape)
    index_sizes[d] = self.shape[d]
    source = R.expand(self, broadcast_shapes(tuple(index_sizes), _shape(self)))
    return R.gather(source, d, indices, False)


@composite("nonzero.tuple")
def nonzero_tuple(self: Tensor, as_tuple: bool) -> Any:
    """nonzero's indices: one tensor per dim when ``as_tuple`` (0-d counts as 1-d)."""
    if not as_tuple:
        return R.nonzero(self)
    x = R.reshape(self, (1,)) if self.ndim == 0 else self
    return tuple(R.nonzero(x).unbind(1))


# ---------------------------------------------------------------- nn: linear and convolution

@composite("linear")
def linear(input: Tensor, weight: Tensor, bias: Tensor | None = None) -> Tensor:
    """``input @ weight.T + bias``."""
    out = R.matmul(input, t(weight))
    return out if bias is None else out + bias


@composite("bilinear")
def bilinear(input1: Tensor, input2: Tensor, weight: Tensor,
             bias: Tensor | None = None) -> Tensor:
    """``out[..., o] = sum_ij input1[..., i] * weight[o, i, j] * input2[..., j] + bias[o]``."""
    if input1.ndim != input2.ndim:
        raise ShapeError(f"bilinear(): input dimensions do not match: got {input1.ndim} and "
                         f"{input2.ndim}")
    for i in range(input1.ndim - 1):
        if input1.shape[i] != input2.shape[i]:
            raise ShapeError(f"bilinear(): input batch dimensions do not match at dim {i}: got "
                             f"{input1.shape[i]} and {input2.shape[i]}")
    if weight.ndim != 3:
        raise ShapeError(f"bilinear(): weight must be a 3D tensor, but got {weight.ndim}D")
    out_features, in1, in2 = _shape(weight)
    if input1.shape[-1] != in1:
        raise ShapeError(f"bilinear(): input1 size does not match weight size: got "
                         f"{input1.shape[-1]} but expected {in1}")
    if input2.shape[-1] != in2:
        raise ShapeError(f"bilinear(): input2 size does not match weight size: got "
                         f"{input2.shape[-1]} but expected {in2}")
    if bias is not None and (bias.ndim != 1 or bias.shape[0] != out_features):
        got = bias.shape[0] if bias.ndim else bias.numel()
        raise ShapeError(f"bilinear(): bias size does not match weight size: got {got} but "
                         f"expected {out_features}")
    batch = _shape(input1)[:-1]
    rows = math.prod(batch)
    x1 = R.reshape(input1, (rows, in1))
    x2 = R.reshape(input2, (rows, in2))
    # (rows, i) @ (i, o*j) -> (rows, o, j), then contract j with input2 per row
    w = R.reshape(R.permute(weight, (1, 0, 2)), (in1, out_features * in2))
    left = R.reshape(R.mm(x1, w), (rows, out_features, in2))
    out = R.matmul(left, x2.unsqueeze(-1)).squeeze(-1)
    out = R.reshape(out, batch + (out_features,))
    return out if bias is None else out + bias


def _conv(input: Tensor, weight: Tensor, bias: Tensor | None, stride: Sequence[int],
          padding: Sequence[int] | str, dilation: Sequence[int], transposed: bool,
          output_padding: Sequence[int], groups: int, spatial: int, name: str) -> Tensor:
    if input.ndim not in (spatial + 1, spatial + 2):
        raise ShapeError(f"Expected {spatial + 1}D (unbatched) or {spatial + 2}D (batched) input "
                         f"to {name}, but got input of size: {list(input.shape)}")
    unbatched = input.ndim == spatial + 1
    x = input.unsqueeze(0) if unbatched else input
    if isinstance(padding, str):
        x, padding = _string_padding(x, weight, padding, stride, dilation, spatial, name)
    out = R.convolution(x, weight, bias, tuple(stride), tuple(padding), tuple(dilation),
                        transposed, tuple(output_padding), groups)
    return out.squeeze(0) if unbatched else out


def _string_padding(x: Tensor, weight: Tensor, padding: str, stride: Sequence[int],
                    dilation: Sequence[int], spatial: int,
                    name: str) -> tuple[Tensor, tuple[int, ...]]:
    """Resolve PyTorch's ``padding="valid"/"same"``: the input (zero-padded on the right where
    "same" needs an odd total) and the symmetric padding left for the convolution."""
    if padding == "valid":
        return x, (0,) * spatial
    if padding != "same":
        raise SchemaError(f"Invalid padding string '{padding}' for {name}; expected 'same' or "
                          "'valid'")
    if any(s != 1 for s in stride):
        raise SchemaError("padding='same' is not supported for strided convolutions")
    left, extra = [], [0] * (2 * spatial)
    for i in range(spatial):
        total = dilation[i] * (weight.shape[i + 2] - 1)
        left.append(total // 2)
        # F.pad lists (left, right) pairs from the last dim to the first
        extra[2 * (spatial - 1 - i) + 1] = total - 2 * (total // 2)
    if any(extra):
        x = R.pad(x, tuple(extra), "constant", 0.0)
    return x, tuple(left)


@composite("conv1d")
def conv1d(input: Tensor, weight: Tensor, bias: Tensor | None = None,
           stride: Sequence[int] = (1,), padding: Sequence[int] = (0,),
           dilation: Sequence[int] = (1,), groups: int = 1) -> Tensor:
    """1-d convolution of (N, C, L) or unbatched (C, L) input."""
    return _conv(input, weight, bias, stride, padding, dilation, False, (0,), groups, 1,
                 "conv1d")


@composite("conv2d")
def conv2d(input: Tensor, weight: Tensor, bias: Tensor | None = None,
           stride: Sequence[int] = (1, 1), padding: Sequence[int] = (0, 0),
           dilation: Sequence[int] = (1, 1), groups: int = 1) -> Tensor:
    """2-d convolution of (N, C, H, W) or unbatched (C, H, W) input."""
    return _conv(input, weight, bias, stride, padding, dilation, False, (0, 0), groups, 2,
                 "conv2d")


@composite("conv3d")
def conv3d(input: Tensor, weight: Tensor, bias: Tensor | None = None,
           stride: Sequence[int] = (1, 1, 1), padding: Sequence[int] = (0, 0, 0),
           dilation: Sequence[int] = (1, 1, 1), groups: int = 1) -> Tensor:
    """3-d convolution of (N, C, D, H, W) or unbatched (C, D, H, W) input."""
    return _conv(input, weight, bias, stride, padding, dilation, False, (0, 0, 0), groups, 3,
                 "conv3d")


@composite("conv_transpose1d")
def conv_transpose1d(input: Tensor, weight: Tensor, bias: Tensor | None = None,
                     stride: Sequence[int] = (1,), padding: Sequence[int] = (0,),
                     output_padding: Sequence[int] = (0,), groups: int = 1,
                     dilation: Sequence[int] = (1,)) -> Tensor:
    """1-d transposed convolution of (N, C, L) or unbatched (C, L) input."""
    return _conv(input, weight, bias, stride, padding, dilation, True, output_padding, groups,
                 1, "conv_transpose1d")


@composite("conv_transpose2d")
def conv_transpose2d(input: Tensor, weight: Tensor, bias: Tensor | None = None,
                     stride: Sequence[int] = (1, 1), padding: Sequence[int] = (0, 0),
                     output_padding: Sequence[int] = (0, 0), groups: int = 1,
                     dilation: Sequence[int] = (1, 1)) -> Tensor:
    """2-d transposed convolution of (N, C, H, W) or unbatched (C, H, W) input."""
    return _conv(input, weight, bias, stride, padding, dilation, True, output_padding, groups,
                 2, "conv_transpose2d")


# ---------------------------------------------------------------- nn: pooling

def _batched(x: Tensor, spatial: int, name: str) -> tuple[Tensor, bool]:
    """``x`` with a batch dim (pool kernels need one) and whether one was added."""
    if x.ndim == spatial + 1:
        return x.unsqueeze(0), True
    if x.ndim == spatial + 2:
        return x, False
    raise ShapeError(f"{name}: Expected {spatial + 1}D or {spatial + 2}D (batch mode) tensor for "
                     f"input, but got input of size: {list(x.shape)}")


def _max_pool(self: Tensor, kernel_size: Sequence[int], stride: Sequence[int],
              padding: Sequence[int], dilation: Sequence[int], ceil_mode: bool, spatial: int,
              name: str) -> tuple[Tensor, Tensor]:
    x, unbatched = _batched(self, spatial, name)
    kernel = tuple(kernel_size)
    out, indices = R.max_pool_with_indices(x, kernel, tuple(stride) or kernel, tuple(padding),
                                           tuple(dilation), ceil_mode)
    if unbatched:
        return out.squeeze(0), indices.squeeze(0)
    return out, indices


@composite("max_pool1d")
def max_pool1d(self: Tensor, kernel_size: Sequence[int], stride: Sequence[int] = (),
               padding: Sequence[int] = (0,), dilation: Sequence[int] = (1,),
               ceil_mode: bool = False) -> Tensor:
    """1-d max pooling of (N, C, L) or (C, L) input."""
    return _max_pool(self, kernel_size, stride, padding, dilation, ceil_mode, 1, "max_pool1d")[0]


@composite("max_pool2d")
def max_pool2d(self: Tensor, kernel_size: Sequence[int], stride: Sequence[int] = (),
               padding: Sequence[int] = (0, 0), dilation: Sequence[int] = (1, 1),
               ceil_mode: bool = False) -> Tensor:
    """2-d max pooling of (N, C, H, W) or (C, H, W) input."""
    return _max_pool(self, kernel_size, stride, padding, dilation, ceil_mode, 2, "max_pool2d")[0]


@composite("max_pool2d_with_indices")
def max_pool2d_with_indices(self: Tensor, kernel_size: Sequence[int], stride: Sequence[int] = (),
                            padding: Sequence[int] = (0, 0), dilation: Sequence[int] = (1, 1),
                            ceil_mode: bool = False) -> tuple[Tensor, Tensor]:
    """2-d max pooling and the flat (per plane) index of each maximum."""
    return _max_pool(self, kernel_size, stride, padding, dilation, ceil_mode, 2,
                     "max_pool2d_with_indices")


def _avg_pool(self: Tensor, kernel_size: Sequence[int], stride: Sequence[int],
              padding: Sequence[int], ceil_mode: bool, count_include_pad: bool,
              divisor_override: int | None, spatial: int, name: str) -> Tensor:
    x, unbatched = _batched(self, spatial, name)
    kernel = tuple(kernel_size)
    out = R.avg_pool(x, kernel, tuple(stride) or kernel, tuple(padding), ceil_mode,
                     count_include_pad, divisor_override)
    return out.squeeze(0) if unbatched else out


@composite("avg_pool1d")
def avg_pool1d(self: Tensor, kernel_size: Sequence[int], stride: Sequence[int] = (),
               padding: Sequence[int] = (0,), ceil_mode: bool = False,
               count_include_pad: bool = True) -> Tensor:
    """1-d average pooling of (N, C, L) or (C, L) input."""
    return _avg_pool(self, kernel_size, stride, padding, ceil_mode, count_include_pad, None, 1,
                     "avg_pool1d")


@composite("avg_pool2d")
def avg_pool2d(self: Tensor, kernel_size: Sequence[int], stride: Sequence[int] = (),
               padding: Sequence[int] = (0, 0), ceil_mode: bool = False,
               count_include_pad: bool = True, divisor_override: int | None = None) -> Tensor:
    """2-d average pooling of (N, C, H, W) or (C, H, W) input."""
    return _avg_pool(self, kernel_size, stride, padding, ceil_mode, count_include_pad,
                     divisor_override, 2, "avg_pool2d")


def _output_size(x: Tensor, output_size: Sequence[int | None], spatial: int) -> tuple[int, ...]:
    """Adaptive pooling sizes, a None entry keeping the input's size."""
    sizes = _shape(x)[-spatial:]
    return tuple(sizes[i] if s is None else s for i, s in enumerate(output_size))


def _adaptive(self: Tensor, output_size: Sequence[int | None], spatial: int, name: str,
              use_max: bool) -> Tensor:
    x, unbatched = _batched(self, spatial, name)
    size = _output_size(x, output_size, spatial)
    out = R.adaptive_max_pool(x, size)[0] if use_max else R.adaptive_avg_pool(x, size)
    return out.squeeze(0) if unbatched else out


@composite("adaptive_avg_pool1d")
def adaptive_avg_pool1d(self: Tensor, output_size: Sequence[int]) -> Tensor:
    """Average pooling of (N, C, L) or (C, L) input to ``output_size``."""
    return _adaptive(self, output_size, 1, "adaptive_avg_pool1d", False)


@composite("adaptive_avg_pool2d")
def adaptive_avg_pool2d(self: Tensor, output_size: Sequence[int | None]) -> Tensor:
    """Average pooling of (N, C, H, W) or (C, H, W) input to ``output_size``."""
    return _adaptive(self, output_size, 2, "adaptive_avg_pool2d", False)


@composite("adaptive_max_pool1d")
def adaptive_max_pool1d(self: Tensor, output_size: Sequence[int]) -> Tensor:
    """Max pooling of (N, C, L) or (C, L) input to ``output_size``."""
    return _adaptive(self, output_size, 1, "adaptive_max_pool1d", True)


@composite("adaptive_max_pool2d")
def adaptive_max_pool2d(self: Tensor, output_size: Sequence[int | None]) -> Tensor:
    """Max pooling of (N, C, H, W) or (C, H, W) input to ``output_size``."""
    return _adaptive(self, output_size, 2, "adaptive_max_pool2d", True)


# ---------------------------------------------------------------- nn: dropout and normalisation

@composite("dropout")
def dropout(input: Tensor, p: float = 0.5, train: bool = True) -> Tensor:
    """Zero each element with probability ``p`` and scale the rest by ``1 / (1 - p)``."""
    if not 0 <= p <= 1:
        raise SchemaError(f"dropout probability has to be between 0 and 1, but got {p}")
    if not train or p == 0:
        return input
    if p == 1:
        return input * fac.zeros((), dtype=input.dtype, device=input.device)
    keep = F.ge(fac.rand(_shape(input), dtype=input.dtype, device=input.device), p)
    return input * keep / (1 - p)


def _channel_count(size: Sequence[int]) -> int:
    """Values per channel of an (N, C, *) shape: what batch statistics average over."""
    return size[0] * math.prod(size[2:])


@composite("batch_norm")
def batch_norm(input: Tensor, weight: Tensor | None, bias: Tensor | None,
               running_mean: Tensor | None, running_var: Tensor | None, training: bool,
               momentum: float, eps: float) -> Tensor:
    """Batch normalisation over every dim but the channel dim 1."""
    if training and input.ndim >= 2 and _channel_count(_shape(input)) == 1:
        raise ShapeError(f"Expected more than 1 value per channel when training, got input size "
                         f"{list(input.shape)}")
    return R.native_batch_norm(input, weight, bias, running_mean, running_var, training,
                               momentum, eps)[0]


def _check_normalized_shape(input: Tensor, normalized_shape: Sequence[int],
                            star: str) -> None:
    k = len(normalized_shape)
    if k > input.ndim or _shape(input)[input.ndim - k:] != tuple(normalized_shape):
        shape = ", ".join(str(s) for s in normalized_shape)
        raise ShapeError(f"Given normalized_shape={list(normalized_shape)}, expected input with "
                         f"shape [{star}{shape}], but got input of size{list(input.shape)}")


@composite("layer_norm")
def layer_norm(input: Tensor, normalized_shape: Sequence[int],
               weight: Tensor | None = None, bias: Tensor | None = None,
               eps: float = 1e-05) -> Tensor:
    """Normalise over the trailing ``normalized_shape`` dims."""
    _check_normalized_shape(input, normalized_shape, "*, ")
    return R.native_layer_norm(input, tuple(normalized_shape), weight, bias, eps)[0]


@composite("group_norm")
def group_norm(input: Tensor, num_groups: int, weight: Tensor | None = None,
               bias: Tensor | None = None, eps: float = 1e-05) -> Tensor:
    """Normalise each of ``num_groups`` channel groups of an (N, C, *) input."""
    if input.ndim < 2:
        raise ShapeError(f"Expected at least 2 dimensions for input tensor but received "
                         f"{input.ndim}")
    shape = _shape(input)
    n, c = shape[0], shape[1]
    if num_groups <= 0 or c % num_groups:
        raise ShapeError(f"Expected number of channels in input to be divisible by num_groups, "
                         f"but got input of shape {list(shape)} and num_groups={num_groups}")
    stats_shape = [n * c // num_groups, num_groups, *shape[2:]]
    if _channel_count(stats_shape) == 1:
        raise ShapeError(f"Expected more than 1 value per channel when training, got input size "
                         f"{stats_shape}")
    for name, param in (("weight", weight), ("bias", bias)):
        if param is not None and (param.ndim != 1 or param.numel() != c):
            raise ShapeError(f"Expected {name} to be a vector of size equal to the number of "
                             f"channels in input, but got {name} of shape {list(param.shape)} "
                             f"and input of shape {list(shape)}")
    hxw = math.prod(shape[2:])
    return R.native_group_norm(input, weight, bias, n, c, hxw, num_groups, eps)[0]


@composite("rms_norm")
def rms_norm(input: Tensor, normalized_shape: Sequence[int],
             weight: Tensor | None = None, eps: float | None = None) -> Tensor:
    """``input / sqrt(mean(input**2) + eps) * weight`` over the trailing dims."""
    _check_normalized_shape(input, normalized_shape, "*")
    dims = tuple(range(-len(normalized_shape), 0))
    # like PyTorch, half-precision inputs are computed (and eps chosen) in float32
    x = input.to(D.float32) if input.dtype in (D.float16, D.bfloat16) else input
    if eps is None:
        eps = D.finfo(x.dtype).eps
    out = x * F.rsqrt(R.mean(x * x, dims, True, None) + eps)
    if x is not input:
        out = out.to(input.dtype)
    return out if weight is None else out * weight


# ---------------------------------------------------------------- nn: losses

_REDUCTIONS = ("none", "mean", "sum")


def _check_reduction(reduction: str, allowed: Sequence[str] = _REDUCTIONS) -> None:
    if reduction not in allowed:
        raise SchemaError(f"{reduction} is not a valid value for reduction")


def _reduce(loss: Tensor, reduction: str) -> Tensor:
    if reduction == "mean":
        return loss.mean()
    if reduction == "sum":
        return loss.sum()
    return loss


def _warn_target_size(self: Tensor, target: Tensor) -> None:
    if _shape(target) != _shape(self):
        warnings.warn(f"Using a target size ({target.shape}) that is different to the input size "
                      f"({self.shape}). This will likely lead to incorrect results due to "
                      "broadcasting. Please ensure they have the same size.", UserWarning,
                      stacklevel=4)


def _class_weight(weight: Tensor, ndim: int, class_dim: int) -> Tensor:
    """A per-class weight shaped to broadcast against an input whose classes are ``class_dim``."""
    shape = [1] * ndim
    shape[class_dim] = weight.shape[0]
    return R.reshape(weight, tuple(shape))


def _check_class_weight(weight: Tensor | None, classes: int, op: str) -> None:
    if weight is not None and (weight.ndim != 1 or weight.numel() != classes):
        raise ShapeError(f"{op}weight tensor should be defined either for all {classes} classes "
                         f"or no classes but got weight tensor of shape: {list(weight.shape)}")


@composite("nll_loss")
def nll_loss(self: Tensor, target: Tensor, weight: Tensor | None = None,
             reduction: str = "mean", ignore_index: int = -100) -> Tensor:
    """Negative log likelihood of class indices; ``self`` holds log-probabilities."""
    _check_reduction(reduction)
    if self.ndim < 1:
        raise ShapeError(f"Expected 1 or more dimensions (got {self.ndim})")
    if self.ndim != 1 and (target.ndim == 0 or self.shape[0] != target.shape[0]):
        got = target.shape[0] if target.ndim else 0
        raise ShapeError(f"Expected input batch_size ({self.shape[0]}) to match target "
                         f"batch_size ({got}).")
    if target.dtype not in (D.int64, D.uint8):
        raise DTypeError(f"expected target dtype to be Long or Byte, but got "
                         f"{target.dtype.name}")
    class_dim = 0 if self.ndim == 1 else 1
    classes = self.shape[class_dim]
    expected = _shape(self)[:class_dim] + _shape(self)[class_dim + 1:]
    if _shape(target) != expected:
        raise ShapeError(f"Expected target size {list(expected)}, got {list(target.shape)}")
    _check_class_weight(weight, classes, "")
    if target.dtype is not D.int64:
        target = target.to(D.int64)
    valid = R.ne(target, ignore_index)
    safe = R.where_self(valid, target, 0)
    if safe.numel():
        out_of_range = F.logical_or(R.lt(safe, 0), R.ge(safe, classes))
        if out_of_range.any().item():
            bad = F.masked_select(safe, out_of_range).reshape(-1)[0].item()
            raise IndexOutOfRangeError(f"Target {bad} is out of bounds.")
    picked = R.gather(self, class_dim, safe.unsqueeze(class_dim), False).squeeze(class_dim)
    if weight is None:
        w = valid.to(self.dtype)
    else:
        w = R.reshape(F.index_select(weight, 0, R.reshape(safe, (-1,))), _shape(safe))
        w = R.where_self(valid, w, 0)
    loss = -(picked * w)
    if reduction == "none":
        return loss
    if reduction == "sum":
        return loss.sum()
    return loss.sum() / w.sum()


@composite("cross_entropy")
def cross_entropy(self: Tensor, target: Tensor, weight: Tensor | None = None,
                  reduction: str = "mean", ignore_index: int = -100,
                  label_smoothing: float = 0.0) -> Tensor:
    """log_softmax over the class dim, then NLL of class indices or of class probabilities."""
    _check_reduction(reduction)
    class_dim = 0 if self.ndim == 1 else 1
    if self.ndim >= 1 and _shape(self) == _shape(target):
        return _cross_entropy_probs(self, target, weight, reduction, ignore_index,
                                    label_smoothing, class_dim)
    if label_smoothing > 1.0:
        raise SchemaError(f"label_smoothing must be between 0.0 and 1.0. Got: {label_smoothing}")
    log_probs = F.log_softmax(self, class_dim)
    nll = R.nll_loss(log_probs, target, weight, reduction, ignore_index)
    if label_smoothing <= 0.0:
        return nll
    classes = self.shape[class_dim]
    ignored = R.eq(target, ignore_index)
    if weight is None:
        smooth = -log_probs.sum(class_dim)
    else:
        smooth = -(log_probs * _class_weight(weight, self.ndim, class_dim)).sum(class_dim)
    smooth = F.masked_fill(smooth, ignored, 0.0)
    if reduction == "mean":
        if weight is None:
            total = smooth.sum() / F.logical_not(ignored).sum()
        else:
            safe = F.masked_fill(target, ignored, 0)
            picked = R.reshape(F.index_select(weight, 0, R.reshape(safe, (-1,))), _shape(safe))
            total = smooth.sum() / F.masked_fill(picked, ignored, 0).sum()
    else:
        total = _reduce(smooth, reduction)
    return (1 - label_smoothing) * nll + total * (label_smoothing / classes)


def _cross_entropy_probs(self: Tensor, target: Tensor, weight: Tensor | None, reduction: str,
                         ignore_index: int, label_smoothing: float, class_dim: int) -> Tensor:
    """Cross entropy against class probabilities (target shaped like the input)."""
    if not target.is_floating_point():
        raise DTypeError(f"Expected floating point type for target with class probabilities, "
                         f"got {target.dtype.name}")
    if ignore_index >= 0:
        raise SchemaError("ignore_index is not supported for floating point target")
    classes = self.shape[class_dim]
    _check_class_weight(weight, classes, "cross_entropy: ")
    log_probs = F.log_softmax(self, class_dim)
    if label_smoothing > 0.0:
        if label_smoothing > 1.0:
            raise SchemaError(f"label_smoothing must be between 0.0 and 1.0. Got: "
                              f"{label_smoothing}")
        target = target * (1 - label_smoothing) + label_smoothing / classes
    terms = log_probs * target
    if weight is not None:
        terms = terms * _class_weight(weight, self.ndim, class_dim)
    if reduction == "none":
        return -terms.sum(class_dim)
    total = -terms.sum()
    if reduction == "sum":
        return total
    if self.numel() == 0:
        return total * math.nan
    return total / (self.numel() // classes)


@composite("mse_loss")
def mse_loss(self: Tensor, target: Tensor, reduction: str = "mean") -> Tensor:
    """Mean (or summed) squared error."""
    _check_reduction(reduction)
    _warn_target_size(self, target)
    diff = self - target
    return _reduce(diff * diff, reduction)


@composite("l1_loss")
def l1_loss(self: Tensor, target: Tensor, reduction: str = "mean") -> Tensor:
    """Mean (or summed) absolute error."""
    _check_reduction(reduction)
    _warn_target_size(self, target)
    return _reduce(F.abs(self - target), reduction)


@composite("smooth_l1_loss")
def smooth_l1_loss(self: Tensor, target: Tensor, reduction: str = "mean",
                   beta: float = 1.0) -> Tensor:
    """Squared error below ``beta`` (scaled by ``1 / beta``), absolute error above."""
    _check_reduction(reduction)
    if beta < 0:
        raise SchemaError("smooth_l1_loss does not support negative values for beta.")
    _warn_target_size(self, target)
    if beta == 0:
        return _reduce(F.abs(self - target), reduction)
    z = F.abs(self - target)
    loss = R.where_self(R.lt(z, beta), 0.5 * z * z / beta, z - 0.5 * beta)
    return _reduce(loss, reduction)


@composite("huber_loss")
def huber_loss(self: Tensor, target: Tensor, reduction: str = "mean",
               delta: float = 1.0) -> Tensor:
    """Squared error below ``delta``, ``delta``-scaled absolute error above."""
    _check_reduction(reduction)
    if delta <= 0:
        raise SchemaError("huber_loss does not support non-positive values for delta.")
    _warn_target_size(self, target)
    z = F.abs(self - target)
    loss = R.where_self(R.lt(z, delta), 0.5 * z * z, delta * (z - 0.5 * delta))
    return _reduce(loss, reduction)


@composite("binary_cross_entropy")
def binary_cross_entropy(self: Tensor, target: Tensor, weight: Tensor | None = None,
                         reduction: str = "mean") -> Tensor:
    """BCE of probabilities; the logs are clamped to >= -100 like PyTorch."""
    _check_reduction(reduction)
    if _shape(target) != _shape(self):
        raise ShapeError(f"Using a target size ({target.shape}) that is different to the input "
                         f"size ({self.shape}) is deprecated. Please ensure they have the same "
                         "size.")
    log_p = R.clamp(F.log(self), -100, None)
    log_1mp = R.clamp(F.log(1 - self), -100, None)
    loss = (target - 1) * log_1mp - target * log_p
    if weight is not None:
        loss = loss * weight
    return _reduce(loss, reduction)


@composite("binary_cross_entropy_with_logits")
def binary_cross_entropy_with_logits(self: Tensor, target: Tensor, weight: Tensor | None = None,
                                     pos_weight: Tensor | None = None,
                                     reduction: str = "mean") -> Tensor:
    """BCE of logits, computed stably through logsigmoid."""
    _check_reduction(reduction)
    if _shape(target) != _shape(self):
        raise ShapeError(f"Target size ({target.shape}) must be the same as input size "
                         f"({self.shape})")
    log_sigmoid = F.logsigmoid(self)
    if pos_weight is not None:
        log_sigmoid = log_sigmoid * ((pos_weight - 1) * target + 1)
    loss = (1 - target) * self - log_sigmoid
    if weight is not None:
        loss = loss * weight
    return _reduce(loss, reduction)


@composite("kl_div")
def kl_div(self: Tensor, target: Tensor, reduction: str = "mean",
           log_target: bool = False) -> Tensor:
    """KL divergence of ``target`` from the log-probabilities ``self``."""
    _check_reduction(reduction, (*_REDUCTIONS, "batchmean"))
    if reduction == "mean":
        warnings.warn("reduction: 'mean' divides the total loss by both the batch size and the "
                      "support size.'batchmean' divides only by the batch size, and aligns with "
                      "the KL div math definition.'mean' will be changed to behave the same as "
                      "'batchmean' in the next major release.", UserWarning, stacklevel=3)
    if log_target:
        loss = F.exp(target) * (target - self)
    else:
        loss = F.xlogy(target, target) - target * self
    if reduction == "batchmean":
        total = loss.sum()
        return total / self.shape[0] if self.ndim else total
    return _reduce(loss, reduction)


# ---------------------------------------------------------------- nn: distances and attention

@composite("cosine_similarity")
def cosine_similarity(x1: Tensor, x2: Tensor, dim: int = 1, eps: float = 1e-08) -> Tensor:
    """Cosine of the angle between ``x1`` and ``x2`` along ``dim`` (broadcasting)."""
    common = D.result_type(x1, x2)
    if not common.is_floating_point:
        raise DTypeError(f"expected common dtype to be floating point, yet common dtype is "
                         f"{common.name}")
    shape = broadcast_shapes(_shape(x1), _shape(x2))
    a = R.expand(x1 if x1.dtype is common else x1.to(common), shape)
    b = R.expand(x2 if x2.dtype is common else x2.to(common), shape)
    d = wrap_dim(dim, len(shape), "cosine_similarity")
    # dividing by each norm first keeps the result within [-1, 1]
    norm_a = R.clamp(R.vector_norm(a, 2, (d,), True, None), eps, None)
    norm_b = R.clamp(R.vector_norm(b, 2, (d,), True, None), eps, None)
    return ((a / norm_a) * (b / norm_b)).sum(d)


@composite("pairwise_distance")
def pairwise_distance(x1: Tensor, x2: Tensor, p: float = 2, eps: float = 1e-06,
                      keepdim: bool = False) -> Tensor:
    """p-norm of ``x1 - x2 + eps`` over the last dim."""
    return R.vector_norm(x1 - x2 + eps, p, (-1,), keepdim, None)


@composite("normalize")
def normalize(input: Tensor, p: float = 2, dim: int = 1,
              eps: float = 1e-12) -> Tensor:
    """``input`` divided by its p-norm along ``dim`` (at least ``eps``)."""
    return input / R.clamp(R.vector_norm(input, p, (dim,), True, None), eps, None)


@composite("scaled_dot_product_attention")
def scaled_dot_product_attention(query: Tensor, key: Tensor, value: Tensor,
                                 attn_mask: Tensor | None = None, dropout_p: float = 0.0,
                                 is_causal: bool = False, scale: float | None = None) -> Tensor:
    """``softmax(q @ k^T * scale + mask) @ v``; a query that may see no key gets zeros."""
    if is_causal and attn_mask is not None:
        raise SchemaError("_scaled_dot_product_attention: Explicit attn_mask should not be set "
                          "when is_causal=True")
    length, source = query.shape[-2], key.shape[-2]
    factor = 1.0 / math.sqrt(query.shape[-1]) if scale is None else scale
    scores = R.matmul(query, key.transpose(-2, -1)) * factor
    if is_causal:
        causal = fac.ones((length, source), dtype=D.bool_, device=query.device).tril()
        scores = R.where_self(causal, scores, -math.inf)
    dead = None
    if attn_mask is not None:
        if attn_mask.dtype is D.bool_:
            scores = R.where_self(attn_mask, scores, -math.inf)
        else:
            scores = scores + attn_mask
        # fully masked rows would be nan (0/0); PyTorch returns zeros for them
        dead = R.eq(R.amax(scores, (-1,), True), -math.inf)
        scores = R.where_self(dead, 0.0, scores)
    weights = F.softmax(scores, -1)
    if dead is not None:
        weights = R.where_self(dead, 0.0, weights)
    if dropout_p > 0:
        weights = dropout(weights, dropout_p, True)
    return R.matmul(weights, value)


# ---------------------------------------------------------------- factories and random

def _like(self: Tensor, dtype: D.dtype | None, device: Any,
          requires_grad: bool = False) -> dict[str, Any]:
    return {"dtype": self.dtype if dtype is None else dtype,
            "device": self.device if device is None else device,
            "requires_grad": requires_grad}


@composite("zeros_like")
def zeros_like(self: Tensor, dtype: D.dtype | None = None, device: Any = None,
              requires_grad: bool = False) -> Tensor:
    """Zeros shaped like ``self``."""
    return fac.zeros(_shape(self), **_like(self, dtype, device, requires_grad))


@composite("ones_like")
def ones_like(self: Tensor, dtype: D.dtype | None = None, device: Any = None,
              requires_grad: bool = False) -> Tensor:
    """Ones shaped like ``self``."""
    return fac.ones(_shape(self), **_like(self, dtype, device, requires_grad))


@composite("full_like")
def full_like(self: Tensor, fill_value: Number, dtype: D.dtype | None = None,
              device: Any = None, requires_grad: bool = False) -> Tensor:
    """``fill_value`` everywhere, shaped like ``self``."""
    return fac.full(_shape(self), fill_value, **_like(self, dtype, device, requires_grad))


@composite("empty_like")
def empty_like(self: Tensor, dtype: D.dtype | None = None, device: Any = None,
              requires_grad: bool = False) -> Tensor:
    """An uninitialised tensor shaped like ``self``."""
    return fac.empty(_shape(self), **_like(self, dtype, device, requires_grad))


@composite("rand_like")
def rand_like(self: Tensor, dtype: D.dtype | None = None, device: Any = None,
              requires_grad: bool = False) -> Tensor:
    """Uniform [0, 1) samples shaped like ``self``."""
    return fac.rand(_shape(self), **_like(self, dtype, device, requires_grad))


@composite("randn_like")
def randn_like(self: Tensor, dtype: D.dtype | None = None, device: Any = None,
              requires_grad: bool = False) -> Tensor:
    """Standard normal samples shaped like ``self``."""
    return fac.randn(_shape(self), **_like(self, dtype, device, requires_grad))


@composite("randint_like")
def randint_like(self: Tensor, low: int, high: int, dtype: D.dtype | None = None,
                 device: Any = None, requires_grad: bool = False) -> Tensor:
    """Integers drawn from [low, high), shaped like ``self`` (in its dtype by default)."""
    return fac.randint(low, high, _shape(self), **_like(self, dtype, device, requires_grad))


@composite("randint_like.high")
def randint_like_high(self: Tensor, high: int, dtype: D.dtype | None = None, device: Any = None,
                      requires_grad: bool = False) -> Tensor:
    """Integers drawn from [0, high), shaped like ``self``."""
    return randint_like(self, 0, high, dtype, device, requires_grad)


@composite("bernoulli")
def bernoulli(self: Tensor, p: float | None = None, generator: Any = None) -> Tensor:
    """0/1 draws with probability ``p``, or with the probabilities in ``self`` if ``p`` is None."""
    if p is None and not self.is_floating_point():
        raise DTypeError(f'"bernoulli" not implemented for {self.dtype.name}')
    if p is not None and not 0 <= p <= 1:
        raise SchemaError(f"bernoulli_ expects p to be in [0, 1], but got p={p}")
    draw_dtype = self.dtype if self.is_floating_point() else D.get_default_dtype()
    u = fac.rand(_shape(self), generator=generator, dtype=draw_dtype, device=self.device)
    return R.lt(u, self if p is None else p).to(self.dtype)


@composite("uniform_")
def uniform_(self: Tensor, from_: float = 0, to: float = 1, generator: Any = None) -> Tensor:
    """Fill ``self`` in place with uniform samples from [from, to)."""
    if from_ > to:
        raise SchemaError(f"uniform_ expects to return a [from, to) range, but found "
                          f"from={from_} > to={to}")
    if not self.is_floating_point():
        raise DTypeError(f'"uniform_" not implemented for {self.dtype.name}')
    u = fac.rand(_shape(self), generator=generator, dtype=self.dtype, device=self.device)
    return self.copy_(u * (to - from_) + from_)


@composite("normal_")
def normal_(self: Tensor, mean: float = 0, std: float = 1, generator: Any = None) -> Tensor:
    """Fill ``self`` in place with normal samples of the given mean and std."""
    if std < 0:
        raise SchemaError(f"normal expects std >= 0.0, but found std {std}")
    if not self.is_floating_point():
        raise DTypeError(f'"normal_" not implemented for {self.dtype.name}')
    z = fac.randn(_shape(self), generator=generator, dtype=self.dtype, device=self.device)
    return self.copy_(z * std + mean)


# ---------------------------------------------------------------- optimizer updates
# The reference formulation of volta.optim's fused updates (PyTorch's single-tensor algorithms),
# for backends without a fused kernel. Each writes the parameter and its state in place.


def _update_direction(param: Tensor, grad: Tensor, weight_decay: float, maximize: bool) -> Tensor:
    direction = F.neg(grad) if maximize else grad
    if weight_decay != 0:
        direction = F.add(direction, param, alpha=weight_decay)
    return direction


@composite("_sgd_update_")
def sgd_update_(param: Tensor, grad: Tensor, momentum_buffer: Tensor | None, lr: float,
                momentum: float, dampening: float, weight_decay: float, nesterov: bool,
                maximize: bool, first_step: bool) -> Tensor:
    step = _update_direction(param, grad, weight_decay, maximize)
    if momentum != 0 and momentum_buffer is not None:
        if first_step:
            momentum_buffer.copy_(step)
        else:
            momentum_buffer.copy_(F.add(F.mul(momentum_buffer, momentum), step,
                                        alpha=1 - dampening))
        step = F.add(step, momentum_buffer, alpha=momentum) if nesterov else momentum_buffer
    return param.copy_(F.add(param, step, alpha=-lr))


@composite("_adam_update_")
def adam_update_(param: Tensor, grad: Tensor, exp_avg: Tensor, exp_avg_sq: Tensor,
                 max_exp_avg_sq: Tensor | None, step: int, lr: float, beta1: float, beta2: float,
                 eps: float, weight_decay: float, amsgrad: bool, maximize: bool,
                 decoupled_weight_decay: bool) -> Tensor:
    if decoupled_weight_decay:
        g = F.neg(grad) if maximize else grad
        if weight_decay != 0:
            param.copy_(F.mul(param, 1 - lr * weight_decay))
    else:
        g = _update_direction(param, grad, weight_decay, maximize)
    exp_avg.copy_(F.add(exp_avg, F.sub(g, exp_avg), alpha=1 - beta1))
    exp_avg_sq.copy_(F.addcmul(F.mul(exp_avg_sq, beta2), g, g, value=1 - beta2))
    second = exp_avg_sq
    if amsgrad and max_exp_avg_sq is not None:
        second = max_exp_avg_sq.copy_(F.maximum(max_exp_avg_sq, exp_avg_sq))
    denom = F.add(F.div(F.sqrt(second), math.sqrt(1 - beta2 ** step)), eps)
    return param.copy_(F.addcdiv(param, exp_avg, denom, value=-lr / (1 - beta1 ** step)))


@composite("_rmsprop_update_")
def rmsprop_update_(param: Tensor, grad: Tensor, square_avg: Tensor, grad_avg: Tensor | None,
                    momentum_buffer: Tensor | None, lr: float, alpha: float, eps: float,
                    weight_decay: float, momentum: float, maximize: bool) -> Tensor:
    g = _update_direction(param, grad, weight_decay, maximize)
    square_avg.copy_(F.addcmul(F.mul(square_avg, alpha), g, g, value=1 - alpha))
    if grad_avg is not None:
        grad_avg.copy_(F.add(grad_avg, F.sub(g, grad_avg), alpha=1 - alpha))
        avg = F.sqrt(F.addcmul(square_avg, grad_avg, grad_avg, value=-1))
    else:
        avg = F.sqrt(square_avg)
    avg = F.add(avg, eps)
    if momentum > 0 and momentum_buffer is not None:
        momentum_buffer.copy_(F.addcdiv(F.mul(momentum_buffer, momentum), g, avg))
        return param.copy_(F.add(param, momentum_buffer, alpha=-lr))
    return param.copy_(F.addcdiv(param, g, avg, value=-lr))


@composite("_adagrad_update_")
def adagrad_update_(param: Tensor, grad: Tensor, state_sum: Tensor, step: int, lr: float,
                    lr_decay: float, weight_decay: float, eps: float, maximize: bool) -> Tensor:
    g = _update_direction(param, grad, weight_decay, maximize)
    state_sum.copy_(F.addcmul(state_sum, g, g))
    std = F.add(F.sqrt(state_sum), eps)
    return param.copy_(F.addcdiv(param, g, std, value=-lr / (1 + (step - 1) * lr_decay)))
