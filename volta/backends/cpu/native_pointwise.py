"""CPU kernels of activations and elementary functions that run the compiled float32 and
float64 kernels (native/pointwise.c) where they apply, and the numpy kernels everywhere else.

Note [native pointwise routing]
A kernel here takes the compiled path for float32 and float64 tensors that are C-contiguous
(and, for a backward, a gradient of the same shape and dtype, C-contiguous or one number
broadcast: the gradient of a sum) with plain-number parameters; it allocates the result with
np.empty, as the numpy kernels do, and the C code (``name`` for
float32, ``name_f64`` for float64) fills it in one pass over ``native.threads()`` threads.
Anything else (other dtypes, strided views, broadcasting, Tensor or bool parameters, NaN clamp
bounds, no compiled module: ``VOLTA_NATIVE=0``) calls the numpy kernel the op had before
(generated from ops.yaml, fused_pointwise or kernels), which also raises the op's errors. Where
numpy's own vector loop beats the compiled one on one thread (tanh and log in float32; tanh,
exp and log in float64, measured on (256, 1024)), the op takes the compiled path only when it
has threads to use.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

import numpy as np

from volta import dtypes as D
from volta.backend import host_view
from volta.backends.cpu import fused_pointwise as fused
from volta.backends.cpu import generated_pointwise as generated
from volta.backends.cpu import kernels as hand_written
from volta.backends.cpu import native, strided_copy
from volta.backends.cpu.kernel_table import kernel_table
from volta.backends.cpu.storage import wrap_as
from volta.tensor.tensor import Tensor

KERNELS, kernel = kernel_table()

_module = native.kernels("pointwise")  # None: every kernel here runs its numpy fallback
_F32 = np.dtype(np.float32)
_F64 = np.dtype(np.float64)
_FLOAT32_MAX = float(np.finfo(np.float32).max)
# an array's dtype -> (the tensor dtype, the suffix of its compiled kernels' names)
_KINDS = {_F32: (D.float32, ""), _F64: (D.float64, "_f64")}


def _array(t: Any) -> np.ndarray | None:
    """A float32 or float64 tensor's C-contiguous array, or None."""
    if type(t) is not Tensor or (t.dtype is not D.float32 and t.dtype is not D.float64):
        return None
    a = t._np
    if a is None:
        a = host_view(t)
    return a if a.flags.c_contiguous else None


def _number(v: Any) -> float | None:
    """A plain int (within int64, PyTorch's Scalar range) or float parameter as a float; None
    for anything else (bool, Tensor, a huge int), which the numpy kernel then checks."""
    if type(v) is float:
        return v
    if type(v) is int and -(1 << 63) <= v < (1 << 63):
        return float(v)
    return None


def _unary(name: str, x: np.ndarray, *params: float) -> Tensor:
    dtype, suffix = _KINDS[x.dtype]
    out = np.empty(x.shape, x.dtype)
    getattr(_module, name + suffix)(x, out, *params, native.threads())
    return wrap_as(out, dtype)


def _binary(name: str, grad: np.ndarray, x: np.ndarray, *params: float) -> Tensor:
    dtype, suffix = _KINDS[x.dtype]
    out = np.empty(x.shape, x.dtype)
    getattr(_module, name + suffix)(grad, x, out, *params, native.threads())
    return wrap_as(out, dtype)


def _broadcast_number(t: Any, like: np.ndarray) -> np.ndarray | None:
    """A gradient that is one number broadcast to ``like``'s shape (all strides 0: what
    ``y.sum().backward()`` sends) as a one-element array, which the compiled backward uses for
    every element."""
    if type(t) is not Tensor or t.dtype is not _KINDS[like.dtype][0]:
        return None
    view = t._np if t._np is not None else host_view(t)
    if view.shape != like.shape or not strided_copy.is_one_value(view):
        return None
    return np.array([view.flat[0]], like.dtype)


def _pair(grad: Any, x: Any) -> tuple[np.ndarray, np.ndarray] | None:
    """The arrays of a backward's gradient and input where both take the compiled path."""
    if _module is None:
        return None
    b = _array(x)
    if b is None:
        return None
    a = _array(grad)
    if a is None or a.shape != b.shape or a.dtype != b.dtype:
        a = _broadcast_number(grad, b)
    return None if a is None else (a, b)


def _simple_unary(op: str, fallback: Callable[..., Tensor],
                  needs_threads: frozenset[np.dtype] = frozenset()) -> None:
    """Files a kernel for a one-tensor op with no parameters (the compiled kernel of its name);
    for the dtypes in ``needs_threads`` only where it runs on more than one thread."""

    def run(self: Tensor) -> Tensor:
        x = _array(self) if _module is not None else None
        if x is None or (x.dtype in needs_threads and native.threads() < 2):
            return fallback(self)
        return _unary(op, x)

    run.__name__ = run.__qualname__ = op
    run.__doc__ = f"{op}: the compiled float32/float64 kernel, else the numpy one."
    kernel(op)(run)


def _simple_backward(op: str, fallback: Callable[..., Tensor]) -> None:
    """Files a kernel for a (grad_output, tensor) backward op with no parameters."""

    def run(grad_output: Tensor, other: Tensor) -> Tensor:
        arrays = _pair(grad_output, other)
        if arrays is None:
            return fallback(grad_output, other)
        return _binary(op, *arrays)

    run.__name__ = run.__qualname__ = op
    run.__doc__ = f"{op}: the compiled float32/float64 kernel, else the numpy one."
    kernel(op)(run)


_simple_unary("sigmoid", generated.sigmoid)
_simple_unary("silu", fused.silu)
_simple_unary("relu", generated.relu)
_simple_unary("exp", generated.exp, needs_threads=frozenset({_F64}))
_simple_unary("log", generated.log, needs_threads=frozenset({_F32, _F64}))
_simple_unary("sqrt", generated.sqrt)
_simple_unary("rsqrt", generated.rsqrt)
_simple_unary("abs", generated.abs)
_simple_unary("sign", generated.sign)
_simple_unary("square", generated.square)
_simple_unary("tanh", generated.tanh, needs_threads=frozenset({_F32, _F64}))
_simple_backward("sigmoid_backward", generated.sigmoid_backward)
_simple_backward("silu_backward", fused.silu_backward)
_simple_backward("tanh_backward", generated.tanh_backward)


_GELU_FORMS = {"none": ("gelu", "gelu_backward"), "tanh": ("gelu_tanh", "gelu_tanh_backward")}


@kernel("gelu")
def gelu(self: Tensor, approximate: str = "none") -> Tensor:
    form = _GELU_FORMS.get(approximate) if type(approximate) is str else None
    x = _array(self) if _module is not None else None
    if x is None or form is None:
        return hand_written.gelu(self, approximate)
    return _unary(form[0], x)


@kernel("gelu_backward")
def gelu_backward(grad_output: Tensor, self: Tensor, approximate: str = "none") -> Tensor:
    form = _GELU_FORMS.get(approximate) if type(approximate) is str else None
    arrays = _pair(grad_output, self)
    if arrays is None or form is None:
        return hand_written.gelu_backward(grad_output, self, approximate)
    return _binary(form[1], *arrays)


@kernel("softplus")
def softplus(self: Tensor, beta: Any = 1, threshold: Any = 20) -> Tensor:
    x = _array(self) if _module is not None else None
    b, t = _number(beta), _number(threshold)
    if x is None or b is None or t is None:
        return fused.softplus(self, beta, threshold)
    return _unary("softplus", x, b, t)


@kernel("softplus_backward")
def softplus_backward(grad_output: Tensor, self: Tensor, beta: Any, threshold: Any) -> Tensor:
    arrays = _pair(grad_output, self)
    b, t = _number(beta), _number(threshold)
    if arrays is None or b is None or t is None:
        return fused.softplus_backward(grad_output, self, beta, threshold)
    return _binary("softplus_backward", *arrays, b, t)


@kernel("elu")
def elu(self: Tensor, alpha: Any = 1, scale: Any = 1, input_scale: Any = 1) -> Tensor:
    x = _array(self) if _module is not None else None
    params = (_number(alpha), _number(scale), _number(input_scale))
    if x is None or None in params:
        return fused.elu(self, alpha, scale, input_scale)
    return _unary("elu", x, *params)


@kernel("elu_backward")
def elu_backward(grad_output: Tensor, alpha: Any, scale: Any, input_scale: Any, is_result: bool,
                 self_or_result: Tensor) -> Tensor:
    arrays = _pair(grad_output, self_or_result)
    params = (_number(alpha), _number(scale), _number(input_scale))
    if arrays is None or None in params or type(is_result) is not bool:
        return fused.elu_backward(grad_output, alpha, scale, input_scale, is_result,
                                  self_or_result)
    return _binary("elu_backward_result" if is_result else "elu_backward", *arrays, *params)


@kernel("leaky_relu")
def leaky_relu(self: Tensor, negative_slope: Any = 0.01) -> Tensor:
    x = _array(self) if _module is not None else None
    slope = _number(negative_slope)
    if x is None or slope is None:
        return fused.leaky_relu(self, negative_slope)
    return _unary("leaky_relu", x, slope)


@kernel("leaky_relu_backward")
def leaky_relu_backward(grad_output: Tensor, self: Tensor, negative_slope: Any,
                        self_is_result: bool) -> Tensor:
    arrays = _pair(grad_output, self)
    slope = _number(negative_slope)
    if arrays is None or slope is None:
        return fused.leaky_relu_backward(grad_output, self, negative_slope, self_is_result)
    return _binary("leaky_relu_backward", *arrays, slope)


@kernel("threshold_backward")
def threshold_backward(grad_output: Tensor, self: Tensor, threshold: Any) -> Tensor:
    arrays = _pair(grad_output, self)
    limit = _number(threshold)
    if arrays is None or limit is None:
        return generated.threshold_backward(grad_output, self, threshold)
    return _binary("threshold_backward", *arrays, limit)


def _bound(v: Any, absent: float, dtype: np.dtype) -> float | None:
    """A clamp bound as a float: ``absent`` for None; None (the numpy path) for NaN, a number
    beyond a float32 tensor's range (an error there) or anything but a plain number."""
    if v is None:
        return absent
    number = _number(v)
    if number is None or math.isnan(number):
        return None
    if dtype == _F32 and not (abs(number) <= _FLOAT32_MAX or math.isinf(number)):
        return None
    return number


@kernel("clamp")
def clamp(self: Tensor, min: Any = None, max: Any = None) -> Tensor:
    x = _array(self) if _module is not None else None
    if x is None or (min is None and max is None):
        return hand_written.clamp(self, min, max)
    low, high = _bound(min, -math.inf, x.dtype), _bound(max, math.inf, x.dtype)
    if low is None or high is None:
        return hand_written.clamp(self, min, max)
    return _unary("clamp", x, low, high)


@kernel("pow")
def pow(self: Any, exponent: Any) -> Tensor:
    """``x ** 2`` is one compiled pass; ``x ** 1`` (the square's backward asks for it) a
    copy."""
    x = _array(self) if _module is not None else None
    if x is not None and type(exponent) in (int, float):
        if exponent == 2:
            return _unary("square", x)
        if exponent == 1:
            return wrap_as(x.copy(), _KINDS[x.dtype][0])
    return generated.pow(self, exponent)
