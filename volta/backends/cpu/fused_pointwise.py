"""Hand-fused numpy kernels for pointwise ops whose snippet costs numpy more passes than needed.

Note [fused pointwise kernels]
Each numpy call in a generated kernel is one pass over the tensor (and a temporary), so a
snippet such as silu's ``self * sigmoid(self)`` costs five passes where ``self / (1 + exp(-self))``
costs four. The ops.yaml snippet stays the op's definition: the WGSL kernel, the numba plugin
and the generated CPU kernel are made from it. A kernel here takes the common case only (float32
or float64 tensors of one shape, at least 1-d) and computes the same formula rearranged into
fewer passes, in place; anything else (broadcasting, half types, integers, 0-d tensors) goes to
the generated kernel. The CPU plugin registers these in place of the generated ones.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from volta import dtypes as D
from volta.backend import host_view
from volta.backends.cpu import generated_pointwise as generated
from volta.backends.cpu import pointwise_math as pm
from volta.backends.cpu.kernel_table import kernel_table
from volta.backends.cpu.pointwise_runtime import quiet_off, quiet_on, scalar_argument, wrap
from volta.tensor.tensor import Tensor

KERNELS, kernel = kernel_table()

_FLOATS = (D.float32, D.float64)
# float -> unsigned integer of its width: a 0/1 mask times the bit difference of two values,
# plus the smaller one's bits, is exactly one of the two values (no rounding as in m*a + b)
_BITS = {np.dtype(np.float32): np.uint32, np.dtype(np.float64): np.uint64}


def _float_arrays(*tensors: Any) -> list[np.ndarray] | None:
    """The tensors' arrays where all are float32 (or all float64) tensors of one shape of at
    least one dimension (the fused kernels' case), else None."""
    first = tensors[0]
    if type(first) is not Tensor or first.dtype not in _FLOATS or not first._shape:
        return None
    dt, shape = first.dtype, first._shape
    arrays = []
    for t in tensors:
        if type(t) is not Tensor or t.dtype is not dt or t._shape != shape:
            return None
        a = t._np
        arrays.append(a if a is not None else host_view(t))
    return arrays


def _choose(mask: np.ndarray, if_true: Any, if_false: Any, dtype: np.dtype) -> np.ndarray:
    """An array of ``dtype`` that is exactly ``if_true`` where ``mask`` holds, ``if_false``
    elsewhere (two numbers), through integer arithmetic on their bits: three passes, where
    ``np.where`` on unpredictable data costs twenty times more."""
    bits = _BITS[dtype]
    true_bits, false_bits = (int(np.array(v, dtype).view(bits)) for v in (if_true, if_false))
    # float memory viewed as integers, so the result owns its memory as a float array (a
    # view of a uint array would be copied before it becomes a ``.grad``: Note [Gradient
    # ownership] in volta/autograd/graph.py)
    chosen = np.empty(mask.shape, dtype).view(bits)
    np.copyto(chosen, mask.view(np.uint8))
    # unsigned wrap-around makes the difference right whichever bit pattern is larger
    chosen *= bits((true_bits - false_bits) % (1 << (8 * dtype.itemsize)))
    chosen += bits(false_bits)
    return chosen.view(dtype)


@kernel("silu")
def silu(self: Tensor) -> Tensor:
    arrays = _float_arrays(self)
    if arrays is None:
        return generated.silu(self)
    token = quiet_on()
    try:
        return wrap(pm.divide_by_one_plus_exp_neg(arrays[0]), self.dtype)
    finally:
        quiet_off(token)


@kernel("silu_backward")
def silu_backward(grad_output: Tensor, self: Tensor) -> Tensor:
    arrays = _float_arrays(grad_output, self)
    if arrays is None:
        return generated.silu_backward(grad_output, self)
    grad, x = arrays
    token = quiet_on()
    try:
        s = pm.sigmoid(x)
        # grad * s * (1 + x * (1 - s))
        slope = np.subtract(1, s)
        slope *= x
        slope += 1
        slope *= s
        slope *= grad
        return wrap(slope, self.dtype)
    finally:
        quiet_off(token)


@kernel("leaky_relu")
def leaky_relu(self: Tensor, negative_slope: Any = 0.01) -> Tensor:
    arrays = _float_arrays(self)
    if arrays is None or type(negative_slope) not in (int, float) or not 0 < negative_slope <= 1:
        return generated.leaky_relu(self, negative_slope)
    x = arrays[0]
    slope = scalar_argument("leaky_relu", negative_slope, self.dtype)
    token = quiet_on()
    try:
        result = np.multiply(x, slope)
        return wrap(np.maximum(x, result, out=result), self.dtype)
    finally:
        quiet_off(token)


@kernel("leaky_relu_backward")
def leaky_relu_backward(grad_output: Tensor, self: Tensor, negative_slope: Any,
                        self_is_result: bool) -> Tensor:
    arrays = _float_arrays(grad_output, self)
    if arrays is None or type(negative_slope) not in (int, float):
        return generated.leaky_relu_backward(grad_output, self, negative_slope, self_is_result)
    grad, x = arrays
    slope = scalar_argument("leaky_relu_backward", negative_slope, self.dtype)
    token = quiet_on()
    try:
        # where(self > 0, grad, grad * slope) as grad times exactly 1 or slope
        factor = _choose(np.greater(x, 0), 1, slope, x.dtype)
        return wrap(np.multiply(factor, grad, out=factor), self.dtype)
    finally:
        quiet_off(token)


@kernel("elu")
def elu(self: Tensor, alpha: Any = 1, scale: Any = 1, input_scale: Any = 1) -> Tensor:
    arrays = _float_arrays(self)
    if arrays is None:
        return generated.elu(self, alpha, scale, input_scale)
    x = arrays[0]
    alpha, scale, input_scale = (scalar_argument("elu", v, self.dtype)
                                 for v in (alpha, scale, input_scale))
    token = quiet_on()
    try:
        # max(x, 0) * scale + alpha * scale * expm1(min(x, 0) * input_scale): one side is
        # always 0 (-0.0 + -0.0 for x = -0.0, nan + nan for nan), so no where is needed
        negative = pm.minimum(x, 0)
        if input_scale != 1:
            negative *= input_scale
        negative = pm.expm1(negative)
        if alpha * scale != 1:
            negative *= alpha * scale
        positive = pm.maximum(x, 0)
        if scale != 1:
            positive *= scale
        return wrap(np.add(positive, negative, out=positive), self.dtype)
    finally:
        quiet_off(token)


@kernel("elu_backward")
def elu_backward(grad_output: Tensor, alpha: Any, scale: Any, input_scale: Any, is_result: bool,
                 self_or_result: Tensor) -> Tensor:
    arrays = _float_arrays(grad_output, self_or_result)
    if arrays is None or is_result:
        return generated.elu_backward(grad_output, alpha, scale, input_scale, is_result,
                                      self_or_result)
    grad, x = arrays
    alpha, scale, input_scale = (scalar_argument("elu_backward", v, self_or_result.dtype)
                                 for v in (alpha, scale, input_scale))
    if alpha * input_scale != 1:
        return generated.elu_backward(grad_output, alpha, scale, input_scale, is_result,
                                      self_or_result)
    token = quiet_on()
    try:
        # where(x > 0, grad * scale, grad * scale * exp(x * input_scale)) with
        # alpha * input_scale = 1 is grad * scale * exp(min(x, 0) * input_scale)
        slope = pm.minimum(x, 0)
        slope = pm.exp_scaled(slope, input_scale)
        slope *= grad
        if scale != 1:
            slope *= scale
        return wrap(slope, self_or_result.dtype)
    finally:
        quiet_off(token)


def _above(z: np.ndarray, threshold: Any) -> np.ndarray | None:
    """The mask of ``z > threshold``, or None where no element is above (softplus's linear
    part is rare: a max is a tenth of a mask and a select's cost)."""
    if not z.size or z.max() <= threshold:  # a nan makes the max nan: the mask then says
        return None
    return np.greater(z, threshold)


@kernel("softplus")
def softplus(self: Tensor, beta: Any = 1, threshold: Any = 20) -> Tensor:
    arrays = _float_arrays(self)
    if arrays is None:
        return generated.softplus(self, beta, threshold)
    x = arrays[0]
    beta, threshold = (scalar_argument("softplus", v, self.dtype) for v in (beta, threshold))
    token = quiet_on()
    try:
        # where(x * beta > threshold, x, softplus(x * beta) / beta)
        z = x if beta == 1 else np.multiply(x, beta)
        result = pm.softplus(z)
        if beta != 1:
            result /= beta
        above = _above(z, threshold)
        if above is not None:
            result[above] = x[above]
        return wrap(result, self.dtype)
    finally:
        quiet_off(token)


@kernel("softplus_backward")
def softplus_backward(grad_output: Tensor, self: Tensor, beta: Any, threshold: Any) -> Tensor:
    arrays = _float_arrays(grad_output, self)
    if arrays is None:
        return generated.softplus_backward(grad_output, self, beta, threshold)
    grad, x = arrays
    beta, threshold = (scalar_argument("softplus_backward", v, self.dtype)
                       for v in (beta, threshold))
    token = quiet_on()
    try:
        # where(x * beta > threshold, grad, grad * sigmoid(x * beta))
        z = x if beta == 1 else np.multiply(x, beta)
        result = pm.sigmoid(z)
        result *= grad
        above = _above(z, threshold)
        if above is not None:
            result[above] = grad[above]
        return wrap(result, self.dtype)
    finally:
        quiet_off(token)
