"""Argument checks that every backend's kernels of an op share (PyTorch's messages), so that a
kernel on any device rejects the same calls with the same errors."""

from __future__ import annotations

import builtins
import math
import numbers
from collections.abc import Sequence
from typing import Any

import numpy as np

from volta import dtypes as D
from volta.errors import (
    ArgumentError,
    DTypeError,
    IndexOutOfRangeError,
    InvalidArgumentError,
    InvalidOperationError,
    NoKernelError,
    SchemaError,
    ShapeError,
    VoltaError,
)
from volta.tensor.scalars import check_alpha, checked_convert  # noqa: F401 - check_alpha: public here
from volta.tensor.tensor import Tensor

# PyTorch's ScalarType names, as its error messages print dtypes
_SCALAR_TYPE_NAMES = {D.float32: "Float", D.float64: "Double", D.float16: "Half",
                      D.bfloat16: "BFloat16", D.int64: "Long", D.int32: "Int", D.int16: "Short",
                      D.int8: "Char", D.uint8: "Byte", D.bool_: "Bool"}


def scalar_type_name(dtype: D.dtype) -> str:
    """PyTorch's ScalarType name of ``dtype`` (``Float``, ``Long``), as its messages print it."""
    return _SCALAR_TYPE_NAMES.get(dtype, dtype.name)

def clamp_operands(self: Tensor, min: Any, max: Any) -> tuple[D.dtype, Any, Any]:
    """The result dtype and the bounds of ``clamp(self, min, max)``, after PyTorch's checks: a
    bound given, both Tensors or both numbers, and number bounds representable in that dtype."""
    if min is None and max is None:
        raise ArgumentError("clamp: at least one of 'min' or 'max' must not be None")
    min, max = _clamp_overload(min, max)
    out = D.result_type(self, *(v for v in (min, max) if v is not None))
    check_clamp_bounds(out, min, max)
    for bound in (min, max):
        if bound is not None and not isinstance(bound, Tensor):
            checked_convert(bound, out, "clamp")
    return out, min, max


def _clamp_overload(min: Any, max: Any) -> tuple[Any, Any]:
    """PyTorch's clamp overloads take two Tensor bounds or two number (Scalar) bounds, not one
    of each; as for any Scalar argument, a 0-d tensor that does not require grad is taken as
    the number it holds, so ``clamp(t, tensor(0), 3)`` is the Scalar overload."""
    if min is None or max is None or isinstance(min, Tensor) == isinstance(max, Tensor):
        return min, max
    tensor = min if isinstance(min, Tensor) else max
    if tensor.ndim != 0 or tensor.requires_grad:
        raise ArgumentError(f"clamp() received an invalid combination of arguments: min and max "
                            f"must both be Tensors or both numbers, got {type(min).__name__} and "
                            f"{type(max).__name__}")
    number = tensor.item()
    return (number, max) if tensor is min else (min, number)


def check_mm(self: Tensor, mat2: Tensor) -> None:
    if self.ndim != 2 or mat2.ndim != 2:
        raise ShapeError(f"mm: expected 2D tensors, got {self.ndim}D and {mat2.ndim}D")


def check_bmm(self: Tensor, mat2: Tensor) -> None:
    if self.ndim != 3 or mat2.ndim != 3:
        raise ShapeError(f"bmm: batch1 must be a 3D tensor and batch2 a 3D tensor, got "
                         f"{self.ndim}D and {mat2.ndim}D")
    if self._shape[0] != mat2._shape[0]:
        raise ShapeError(f"bmm: batch sizes differ ({self._shape[0]} and {mat2._shape[0]})")


def check_conv(input: Tensor, weight: Tensor) -> None:
    if input.dtype is not weight.dtype:
        raise DTypeError(f"Input type ({input.dtype.name}) and weight type ({weight.dtype.name}) "
                         "should be the same")
    if input.ndim != weight.ndim:
        raise ShapeError(f"Expected {weight.ndim}D (batched) input to convolution, but got input "
                         f"of size: {list(input.shape)}")


def check_normalized_shape(input: Tensor, normalized_shape: Sequence[int], star: str) -> None:
    """layer_norm's and native_layer_norm's ``normalized_shape``: non-empty, and the trailing
    dims of ``input`` (``star`` writes the leading dims in the message: "*, " or "*")."""
    k = len(normalized_shape)
    if k == 0:
        raise ShapeError("Expected normalized_shape to be at least 1-dimensional, i.e., containing "
                         "at least one element, but got normalized_shape = []")
    if k > input.ndim or tuple(input.shape)[input.ndim - k:] != tuple(normalized_shape):
        shape = ", ".join(str(s) for s in normalized_shape)
        raise ShapeError(f"Given normalized_shape={list(normalized_shape)}, expected input with "
                         f"shape [{star}{shape}], but got input of size{list(input.shape)}")


def check_multinomial(self: Tensor, num_samples: int, replacement: bool) -> None:
    """multinomial's argument checks (the probabilities' values are the kernel's)."""
    if self.ndim not in (1, 2):
        raise ShapeError(f"multinomial: prob_dist must be 1 or 2 dim, got {self.ndim} dim")
    if not self.dtype.is_floating_point:
        raise DTypeError(f"multinomial only supports floating-point dtypes for input, got: "
                         f"{self.dtype.name}")
    if num_samples <= 0:
        raise InvalidArgumentError("cannot sample n_sample <= 0 samples")
    categories = self.shape[-1]
    if not replacement and num_samples > categories:
        raise InvalidArgumentError("cannot sample n_sample > prob_dist.size(-1) samples without "
                                   "replacement")


def einsum_subscripts(equation: str, tensors: Sequence[Tensor]) -> tuple[list[str], str]:
    """The subscripts of each operand and of the output with every ``...`` spelled out as
    letters (right-aligned, broadcast like PyTorch's), so that ellipsis dims missing from the
    output are summed like any other letter; the implicit output is the ellipsis, then the
    letters used once, in alphabetical order."""
    eq = equation.replace(" ", "")
    lhs, arrow, rhs = eq.partition("->")
    inputs = lhs.split(",")
    if len(inputs) != len(tensors):
        more = "more" if len(tensors) > len(inputs) else "fewer"
        raise ShapeError(f"einsum(): {more} operands were provided than specified in the "
                         f"equation")
    spare = iter(c for c in "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
                 if c not in eq)
    ell_len = max((t.ndim - (len(s) - 3) for s, t in zip(inputs, tensors) if "..." in s),
                  default=0)
    ell = "".join(next(spare) for _ in range(ell_len))
    expanded = []
    for i, (s, t) in enumerate(zip(inputs, tensors)):
        if "..." in s:
            n = t.ndim - (len(s) - 3)
            s = s.replace("...", ell[ell_len - n:])
        if len(s) != t.ndim:
            raise ShapeError(f"einsum(): the number of subscripts in the equation ({len(s)}) "
                             f"does not match the number of dimensions ({t.ndim}) for operand "
                             f"{i}{'' if '...' in inputs[i] else ' and no ellipsis was given'}")
        expanded.append(s)
    if not arrow:
        letters = "".join(expanded)
        rhs = ell + "".join(sorted(c for c in set(letters) if letters.count(c) == 1
                                   and c not in ell))
    else:
        rhs = rhs.replace("...", ell)
    return expanded, rhs


_GATES = {"LSTM": 4, "GRU": 3, "RNN_TANH": 1, "RNN_RELU": 1}


def rnn_steps(mode: str, gates: int, time: int, batch: int, batch_sizes: Sequence[int] | None,
           reverse: bool) -> tuple[int, list[int], range]:
    """``_rnn_layer``'s checks: (hidden size, rows stepping at each time, order of the times)."""
    if mode not in _GATES:
        raise InvalidArgumentError(f"_rnn_layer: unknown mode {mode!r}, expected one of "
                                   f"{sorted(_GATES)}")
    if gates % _GATES[mode]:
        raise ShapeError(f"_rnn_layer: {mode} input_gates width {gates} is not a multiple of "
                         f"{_GATES[mode]}")
    if batch_sizes is None:
        sizes = [batch] * time
    else:
        sizes = [int(s) for s in batch_sizes]
        if len(sizes) != time or any(not 0 <= s <= batch for s in sizes):
            raise ShapeError(f"_rnn_layer: batch_sizes {sizes} do not fit {time} steps of a "
                             f"batch of {batch}")
    order = range(time - 1, -1, -1) if reverse else range(time)
    return gates // _GATES[mode], sizes, order


def rnn_layer_checks(input_gates: Tensor, hx: Tensor, cx: Tensor | None, weight_hh: Tensor,
                     mode: str, batch_sizes: Sequence[int] | None, reverse: bool
                     ) -> tuple[int, list[int], range]:
    """``_rnn_layer``'s dtype and shape checks, then :func:`rnn_steps`."""
    # one dtype throughout, as PyTorch's kernels require (a float64 hidden state with float32
    # weights is rejected there, not promoted)
    for name, t in (("hx", hx), ("cx", cx), ("weight_hh", weight_hh)):
        if t is not None and t.dtype is not input_gates.dtype:
            raise DTypeError(f"_rnn_layer: expected {name} of dtype {input_gates.dtype.name} "
                             f"like the input, but got {t.dtype.name}")
    if input_gates.ndim != 3 or hx.ndim != 2 or weight_hh.ndim != 2:
        raise ShapeError(f"_rnn_layer: expected input_gates (T, B, G), hx (B, P) and weight_hh "
                         f"(G, P), got {tuple(input_gates.shape)}, {tuple(hx.shape)} and "
                         f"{tuple(weight_hh.shape)}")
    time, batch, gates = input_gates.shape
    if tuple(weight_hh.shape) != (gates, hx.shape[1]) or hx.shape[0] != batch:
        raise ShapeError(f"_rnn_layer: weight_hh {tuple(weight_hh.shape)} and hx "
                         f"{tuple(hx.shape)} do not match input_gates "
                         f"{tuple(input_gates.shape)}")
    return rnn_steps(mode, gates, time, batch, batch_sizes, reverse)


def searchsorted_side(right: bool, side: str | None) -> str:
    """searchsorted's ``side`` from its ``right`` and ``side`` arguments, checked like PyTorch."""
    if side is None:
        return "right" if right else "left"
    if side not in ("left", "right"):
        raise VoltaError(f"torch.searchsorted(): side can only be 'left' or 'right' but got "
                         f"{side}")
    if right and side == "left":
        raise VoltaError("torch.searchsorted(): side and right can't be set to opposites, got "
                         "side of left while right was True")
    return side


def check_searchsorted_sorter(sorter: Tensor, shape: Sequence[int]) -> None:
    """searchsorted's ``sorter``: int64, the boundaries' shape (its range is the kernel's check)."""
    if sorter.dtype is not D.int64:
        raise DTypeError(f"torch.searchsorted(): sorter must be a tensor of long dtype but got "
                         f"{sorter.dtype.name}")
    if tuple(sorter.shape) != tuple(shape):
        raise ShapeError(f"torch.searchsorted(): boundary and sorter must have the same size, but "
                         f"got boundary tensor {list(shape)}and got sorter tensor "
                         f"{list(sorter.shape)}")


SCATTER_REDUCTIONS = ("sum", "prod", "mean", "amax", "amin")


def check_scatter_reduce(reduce: str) -> None:
    if reduce not in SCATTER_REDUCTIONS:
        raise SchemaError(f"reduce argument must be either sum, prod, mean, amax or amin, got "
                          f"{reduce}")


def histc_range(self: Tensor, bins: int, min: float, max: float) -> None:
    """histc's checks on its arguments (the range from the data is checked where it is known)."""
    if not self.dtype.is_floating_point:
        raise DTypeError(f'"histogram_cpu" not implemented for \'{self.dtype.name}\'')
    if bins <= 0:
        raise SchemaError(f"torch.histc(): bins must be > 0, but got {bins} for dimension 0")
    if min > max:
        raise SchemaError("torch.histc(): max must be larger than min")


def histc_finite_range(low: float, high: float) -> None:
    if not (math.isfinite(low) and math.isfinite(high)):
        raise SchemaError(f"torch.histc(): range of [{low}, {high}] is not finite")


def histogramdd_bins(self: Tensor, bins: Any, range: Any) -> tuple[int, list[Any], list[Any]]:
    """histogramdd's checks: the number of dimensions ``n`` of a point (self's last size), the
    bins of each dimension (an int or a tensor of edges) and the (low, high) bounds of each
    (None where the data gives them)."""
    # PyTorch's histogramdd kernel exists for float32 and float64 only (histc takes halves)
    if not self.dtype.is_floating_point or self.dtype in (D.float16, D.bfloat16):
        raise DTypeError(f'"histogramdd" not implemented for \'{self.dtype.name}\'')
    if self.ndim < 1:
        raise ShapeError("torch.histogramdd: input tensor should have at least 1 dimension, but "
                         "got 0")
    n = self.shape[-1]
    per_dim = [bins] * n if isinstance(bins, (int, Tensor)) else list(bins)
    if len(per_dim) != n:
        raise ShapeError(f"histogramdd: expected {n} sequences of bin edges for each of the "
                         f"{n} bin dimensions, but got {len(per_dim)}")
    if range is not None and len(range) != 2 * n:
        raise ShapeError(f"histogramdd: for a {n}-dimensional histogram, range should have "
                         f"{2 * n} elements, but got {len(range)}")
    bounds: list[Any] = [None] * n
    if range is not None:
        bounds = [(float(range[2 * i]), float(range[2 * i + 1])) for i in builtins.range(n)]
        for (low, high), b in zip(bounds, per_dim):
            if low > high and not isinstance(b, Tensor):  # edges given: the range is unused
                raise SchemaError(f"histogramdd: expected the range's leftmost edge ({low}) to "
                                  f"be at most its rightmost edge ({high})")
    return n, per_dim, bounds


def check_bin_edges(edges: Sequence[Any]) -> None:
    for e in edges:
        if e.ndim != 1 or e.shape[0] < 2:
            raise ShapeError("histogramdd: bin edges should be a 1-d tensor with at least two "
                             "elements")
def check_integer_division(kernel_name: str, dividend: Any, divisor: Any) -> None:
    """PyTorch's integer division rules on host values (numpy arrays or Python numbers): no
    bool kernel, and a zero divisor is an error.

    numpy (and numba, and WGSL) return 0 or the dividend for an integer division by zero;
    PyTorch raises. An empty result divides nothing, so it never raises. Backends whose
    memory the host reads (CPU, plugins in host memory) call this before dividing."""
    a_kind, b_kind = np.asarray(dividend).dtype.kind, np.asarray(divisor).dtype.kind
    if a_kind == "b" and b_kind == "b":
        raise DTypeError(f'"{kernel_name}" not implemented for \'Bool\'')
    if a_kind in "iub" and b_kind in "iub" and np.broadcast(dividend, divisor).size and np.any(
            np.asarray(divisor) == 0):
        raise InvalidOperationError("ZeroDivisionError")


def check_one_hot_classes(low: int, high: int, num_classes: int) -> None:
    """one_hot's class values, given their smallest and largest: in ``[0, num_classes)``."""
    if low < 0 or high >= num_classes:
        raise IndexOutOfRangeError("one_hot: class values must be non-negative and smaller than "
                                   "num_classes")


def check_integer_division_by_number(kernel_name: str, computes_in: D.dtype, divisor: Any,
                                     numel: int) -> None:
    """The part of :func:`check_integer_division` a device makes without reading its memory:
    a Python-number divisor of zero in an integer division with a non-empty result (bool
    divisions are the kernel's ``DTypeError``)."""
    if not computes_in.is_floating_point and computes_in is not D.bool_ and numel and \
            not isinstance(divisor, Tensor) and divisor == 0:
        raise InvalidOperationError("ZeroDivisionError")


def check_integer_pow(base: Any, exponent: Any) -> None:
    """pow's rule on host values (numpy arrays or Python numbers): integers to negative
    integer powers are an error, as in PyTorch (numpy raises its own ValueError)."""
    b, e = np.asarray(base), np.asarray(exponent)
    if b.dtype.kind in "iu" and e.dtype.kind in "iu" and (e < 0).any():
        raise DTypeError("Integers to negative integer powers are not allowed.")


def check_integer_pow_by_number(computes_in: D.dtype, exponent: Any) -> None:
    """The part of :func:`check_integer_pow` a device makes without reading its memory: a
    negative Python-integer exponent of an integer tensor."""
    if not computes_in.is_floating_point and computes_in is not D.bool_ and \
            type(exponent) is int and exponent < 0:
        raise DTypeError("Integers to negative integer powers are not allowed.")


# Note [index dtypes]
# Which integer dtypes PyTorch's indexing kernels take for an index tensor, with its message:
# the gather/scatter family takes int32 and int64 and checks nothing for an empty index (an
# empty bool index is fine there); index_select, index_add and embedding take int32 and int64;
# index_fill, index_copy, take and put only int64. Every backend calls check_index_dtype.
_INT32_64 = frozenset({D.int32, D.int64})
_INT64 = frozenset({D.int64})
_GATHER_FAMILY = (_INT32_64, "{name}(): Expected dtype int32/int64 for index, but got {dtype}",
                  True)
_INDEX_RULES: dict[str, tuple[frozenset, str, bool]] = {
    "gather": _GATHER_FAMILY,
    "scatter": _GATHER_FAMILY,
    "scatter_add": _GATHER_FAMILY,
    "scatter_reduce": _GATHER_FAMILY,
    "index_select": (_INT32_64, "index_select(): Expected dtype int32 or int64 for index, but "
                     "got {dtype}", False),
    "index_add": (_INT32_64, "index_add_(): Expected dtype int32/int64 for index but got: "
                  "{dtype}", False),
    "embedding": (_INT32_64, "embedding(): Expected tensor for argument #1 'indices' to have "
                  "one of the following scalar types: Long, Int; but got {dtype}", False),
    "index_fill": (_INT64, "index_fill_(): Expected dtype int64 for index, but got {dtype}",
                   False),
    "index_copy": (_INT64, "index_copy_(): Expected a long tensor for index, but got {dtype}",
                   False),
    "take": (_INT64, "take(): Expected a long tensor for index, but got {dtype}", False),
    "put": (_INT64, "put_(): Expected a long tensor for index, but got {dtype}", False),
}


def check_index_dtype(op: str, index: Tensor) -> None:
    """PyTorch's index dtype check for ``op`` (Note [index dtypes]); ops not in the table
    follow gather's rule."""
    allowed, message, empty_skips = _INDEX_RULES.get(op, _GATHER_FAMILY)
    if index.dtype in allowed or (empty_skips and index.numel() == 0):
        return
    raise DTypeError(message.format(name=op, dtype=index.dtype.name))


# PyTorch's median()/nanmedian() of no elements: its NaN converted to the tensor's dtype the
# way x86 converts it (the "integer indefinite" value for int32/int64, 0 for narrower integers,
# True for bool); the empty check comes before the bool check there, so bool gets a value too
_EMPTY_MEDIAN = {D.int64: -(2 ** 63), D.int32: -(2 ** 31), D.int16: 0, D.int8: 0, D.uint8: 0,
                 D.bool_: True}


def empty_median_value(dtype: D.dtype) -> float | int | bool:
    """What median() and nanmedian() of an empty tensor of ``dtype`` return."""
    return _EMPTY_MEDIAN.get(dtype, float("nan"))


def check_reduction_nonempty(op: str, numel: int, reduced_size: int | None,
                             dim: int | None = None) -> None:
    """max/min/argmax/argmin and friends have no identity: reducing nothing is an error.
    ``reduced_size`` is the size of dimension ``dim``, or None for a reduction over all."""
    if numel == 0 and (dim is None or reduced_size == 0):
        raise ShapeError(f"{op}(): Expected reduction dim to be specified for input.numel() == 0."
                         if dim is None else f"{op}(): Expected reduction dim {dim} to have "
                         "non-zero size.")


def check_arg_reduction_dtype(op: str, self: Tensor) -> None:
    """argmax/argmin: PyTorch has no bool kernels."""
    if self.dtype is D.bool_:
        raise DTypeError(f"{op}(): does not support bool input")


def check_selection_dtype(kernel_name: str, self: Tensor) -> None:
    """median, nanmedian and kthvalue: PyTorch's selection kernels have no bool version
    (``kernel_name`` is PyTorch's, e.g. ``median_cpu``)."""
    if self.dtype is D.bool_:
        raise DTypeError(f'"{kernel_name}" not implemented for \'Bool\'')


# -- pointwise operands of the special functions --------------------------------------------------


def require_tensors(name: str, *operands: Any) -> None:
    """PyTorch's rejection of a Python number where an op has no Scalar overload."""
    for position, x in enumerate(operands, 1):
        if not isinstance(x, Tensor):
            shown = "input" if position == 1 else "other"
            raise ArgumentError(f"{name}(): argument '{shown}' (position {position}) must be "
                                f"Tensor, not {type(x).__name__}")


_TORCH_DTYPE_NAMES = {D.float16: "Half", D.bfloat16: "BFloat16"}


def reject_half(name: str, dtype: D.dtype) -> None:
    """PyTorch has no half-precision kernel for the newer special functions (its message names
    the CPU kernel, ``{name}_cpu``)."""
    if dtype in _TORCH_DTYPE_NAMES:
        raise DTypeError(f'"{name}_cpu" not implemented for \'{_TORCH_DTYPE_NAMES[dtype]}\'')


def check_float_operands(kernel_name: str, *operands: Any) -> None:
    """The operands' promoted dtype floating point (nextafter: an int32 tensor goes with a
    float32 one)."""
    promoted = D.result_type(*operands)
    if not promoted.is_floating_point:
        raise DTypeError(f'"{kernel_name}" not implemented for \'{promoted.name}\'')


def check_operands_same_dtype(name: str, a: Any, b: Any) -> None:
    """heaviside does not promote: both tensors of one dtype (nextafter does promote)."""
    if isinstance(a, Tensor) and isinstance(b, Tensor) and a.dtype is not b.dtype:
        raise DTypeError(f"{name} is not yet implemented for tensors with different dtypes")


# -- fuzz fixes: nnops

def check_hardtanh_limits(input: Any, min_val: Any, max_val: Any) -> None:
    """PyTorch's hardtanh limits: real numbers (or tensors) with ``min_val <= max_val``; a uint8
    input takes no negative limit (each limit truncated to an integer first, as PyTorch does)."""
    for value in (min_val, max_val):
        if isinstance(value, complex) or not isinstance(value, (numbers.Real, Tensor)):
            raise ArgumentError(f"'>' not supported between instances of "
                                f"'{type(min_val).__name__}' and '{type(max_val).__name__}'")
    if min_val > max_val:
        raise InvalidArgumentError("min_val cannot be greater than max_val")
    if isinstance(input, Tensor) and not input.dtype.is_floating_point:
        for value in (min_val, max_val):  # an integer input takes the limits as int64
            if not isinstance(value, Tensor):
                checked_convert(value, D.int64, "hardtanh")
    if isinstance(input, Tensor) and input.dtype is D.uint8 and \
            any(not isinstance(v, Tensor) and int(v) < 0 for v in (min_val, max_val)):
        raise InvalidOperationError("cannot do hardtanh on an unsigned type with negative limits")


def _check_norm_dtypes(kernel_name: str, input: Tensor, params: list[Tensor]) -> None:
    """The dtype rules of PyTorch's batch and layer norm CPU kernels: a floating input, and
    parameters of its dtype, or all float32 for a float16/bfloat16 input (the "mixed dtype"
    mode, told by the first parameter given)."""
    if not input.dtype.is_floating_point:
        raise DTypeError(f"\"{kernel_name}\" not implemented for '{scalar_type_name(input.dtype)}'")
    if params and params[0].dtype is not input.dtype:
        if any(p.dtype is not D.float32 for p in params):
            raise DTypeError("mixed dtype (CPU): expect parameter to have scalar type of Float")
        if input.dtype not in (D.float16, D.bfloat16):
            raise DTypeError("mixed dtype (CPU): all inputs must share same datatype.")
    for p in params:
        if p.dtype is not params[0].dtype:
            raise DTypeError(f"expected scalar type {scalar_type_name(params[0].dtype)} but "
                             f"found {scalar_type_name(p.dtype)}")


def norm_stats_dtype(input: Tensor, *params: Tensor | None) -> D.dtype:
    """The dtype of batch and layer norm's saved statistics: float32 in the mixed mode (a
    float16/bfloat16 input with float32 parameters), else the input's."""
    given = [p for p in params if p is not None]
    return D.float32 if given and given[0].dtype is not input.dtype else input.dtype


def check_native_batch_norm(input: Tensor, weight: Tensor | None, bias: Tensor | None,
                            running_mean: Tensor | None, running_var: Tensor | None,
                            training: bool) -> None:
    """PyTorch's batch-norm rules, checked before a kernel touches the running statistics: both
    running statistics or neither, an (N, C, *) input, :func:`_check_norm_dtypes`, a value
    to average in training (one per channel is enough: batch_norm rejects that), and C
    elements in each parameter (PyTorch's CPU kernel reads past a shorter one)."""
    if (running_mean is None) != (running_var is None):
        raise InvalidArgumentError("running_mean and running_var must either both be None or "
                                   "neither be None")
    if input.ndim < 2:
        bound = max(input.ndim, 1)
        raise IndexOutOfRangeError(f"Dimension out of range (expected to be in range of "
                                   f"[{-bound}, {bound - 1}], but got 1)")
    _check_norm_dtypes("batch_norm", input, [p for p in (weight, bias, running_mean, running_var)
                                             if p is not None])
    if training and input.numel() == 0:
        raise InvalidArgumentError(f"input tensor must have at least one element, but got "
                                   f"input_sizes = {list(input.shape)}")
    channels = input.shape[1]
    for label, p in (("weight", weight), ("bias", bias), ("running_mean", running_mean),
                     ("running_var", running_var)):
        if p is not None and p.numel() != channels:
            raise ShapeError(f"{label} should contain {channels} elements not {p.numel()}")


def check_native_layer_norm(input: Tensor, normalized_shape: Sequence[int],
                            weight: Tensor | None, bias: Tensor | None) -> None:
    """PyTorch's layer-norm rules: weight and bias of ``normalized_shape``, which are the
    input's trailing dims, and :func:`_check_norm_dtypes`."""
    for label, p in (("weight", weight), ("bias", bias)):
        if p is not None and tuple(p.shape) != tuple(normalized_shape):
            raise ShapeError(f"Expected {label} to be of same shape as normalized_shape, but got "
                             f"{label} of shape {list(p.shape)} and normalized_shape = "
                             f"{list(normalized_shape)}")
    check_normalized_shape(input, normalized_shape, "*, ")
    _check_norm_dtypes("LayerNormKernelImpl", input, [p for p in (weight, bias) if p is not None])


# Note [pooling dtypes]
# Which dtypes PyTorch's CPU pooling kernels take, with the kernel its message names: adaptive
# pooling and max_pool1d (without indices) only floating point; average pooling floating point
# and int64, but avg_pool3d no float16/bfloat16; max pooling with indices (and max_pool2d/3d)
# every dtype but bool. local_response_norm pools with avg_pool2d (3-d input) or avg_pool3d.
_FLOATING_DTYPES = frozenset({D.float16, D.bfloat16, D.float32, D.float64})
_AVG_POOL_DTYPES = _FLOATING_DTYPES | {D.int64}
_AVG_POOL3D_DTYPES = frozenset({D.float32, D.float64, D.int64})
_MAX_POOL_DTYPES = frozenset({D.float16, D.bfloat16, D.float32, D.float64, D.uint8, D.int8,
                              D.int16, D.int32, D.int64})
_POOL_DTYPES = {
    "adaptive_avg_pool1d": ("adaptive_avg_pool2d", _FLOATING_DTYPES),
    "adaptive_avg_pool2d": ("adaptive_avg_pool2d", _FLOATING_DTYPES),
    "adaptive_avg_pool3d": ("adaptive_avg_pool3d_cpu", _FLOATING_DTYPES),
    "adaptive_max_pool1d": ("adaptive_max_pool2d", _FLOATING_DTYPES),
    "adaptive_max_pool2d": ("adaptive_max_pool2d", _FLOATING_DTYPES),
    "adaptive_max_pool3d": ("adaptive_max_pool3d_cpu", _FLOATING_DTYPES),
    "avg_pool1d": ("avg_pool2d", _AVG_POOL_DTYPES),
    "avg_pool2d": ("avg_pool2d", _AVG_POOL_DTYPES),
    "avg_pool3d": ("avg_pool3d_out_frame", _AVG_POOL3D_DTYPES),
    "max_pool1d": ("max_pool1d_impl", _FLOATING_DTYPES),
    "max_pool1d_with_indices": ("max_pool2d", _MAX_POOL_DTYPES),
    "max_pool2d": ("max_pool2d", _MAX_POOL_DTYPES),
    "max_pool2d_with_indices": ("max_pool2d", _MAX_POOL_DTYPES),
    "max_pool3d": ("max_pool3d", _MAX_POOL_DTYPES),
    "max_pool3d_with_indices": ("max_pool3d", _MAX_POOL_DTYPES),
}


def check_pool_dtype(op: str, dtype: D.dtype) -> None:
    """The input dtypes PyTorch's pooling op ``op`` takes (Note [pooling dtypes])."""
    kernel_name, allowed = _POOL_DTYPES[op]
    if dtype not in allowed:
        raise DTypeError(f"\"{kernel_name}\" not implemented for '{scalar_type_name(dtype)}'")


def check_local_response_norm_dtype(input: Tensor) -> None:
    """local_response_norm averages the squares with avg_pool2d (3-d input) or avg_pool3d."""
    check_pool_dtype("avg_pool2d" if input.ndim == 3 else "avg_pool3d", input.dtype)


def check_grid_sampler_dtypes(input: Tensor, grid: Tensor) -> None:
    """grid_sampler samples floating point input at a grid of the same dtype."""
    if input.dtype not in _FLOATING_DTYPES:
        kernel_name = "grid_sampler_2d_cpu_kernel_impl" if input.ndim == 4 else \
            "grid_sampler3d_cpu"
        raise DTypeError(f"\"{kernel_name}\" not implemented for "
                         f"'{scalar_type_name(input.dtype)}'")
    if grid.dtype is not input.dtype:
        raise DTypeError(f"expected scalar type {scalar_type_name(input.dtype)} but found "
                         f"{scalar_type_name(grid.dtype)}")


def check_prelu_dtypes(self: Tensor, weight: Tensor) -> None:
    """prelu does not promote: a floating point input and a weight of its dtype."""
    if weight.dtype is not self.dtype:
        raise DTypeError(f"prelu: Type promoting not supported. Got "
                         f"{scalar_type_name(self.dtype)} and {scalar_type_name(weight.dtype)}")
    if self.dtype not in _FLOATING_DTYPES:
        raise DTypeError(f"\"prelu_cpu\" not implemented for '{scalar_type_name(self.dtype)}'")


def check_int_list_arg(value: Any, name: str, position: int, op: str) -> None:
    """An ``int[]`` argument of an op PyTorch's argument parser reads: an int or a sequence of
    ints (volta's own parsing would truncate a float)."""
    for index, element in enumerate(value if isinstance(value, (list, tuple)) else (value,)):
        if not isinstance(element, (int, np.integer)):
            raise ArgumentError(f"{op}(): argument '{name}' (position {position}) must be tuple "
                                f"of ints, but found element of type {type(element).__name__} "
                                f"at pos {index}")


# -- fuzz fixes: losses ---------------------------------------------------------------------------

def not_implemented_for(kernel_name: str, dtype: D.dtype) -> DTypeError:
    return DTypeError(f'"{kernel_name}" not implemented for \'{scalar_type_name(dtype)}\'')


def check_vector_norm_dtypes(self: Tensor, dtype: D.dtype | None) -> None:
    """linalg.vector_norm takes a floating input only (whatever ``dtype`` asks for), and a
    ``dtype`` that is floating and that the input converts to without narrowing."""
    if not self.dtype.is_floating_point:
        raise DTypeError(f"linalg.vector_norm: Expected a floating point or complex tensor as "
                         f"input. Got {scalar_type_name(self.dtype)}")
    if dtype is None:
        return
    if not dtype.is_floating_point:
        raise DTypeError(f"linalg.vector_norm: dtype should be floating point or complex, but "
                         f"got {scalar_type_name(dtype)}")
    if D.promote_types(self.dtype, dtype) is not dtype:
        raise DTypeError(f"linalg.vector_norm: the dtype of the input "
                         f"({scalar_type_name(self.dtype)}) should be convertible without "
                         f"narrowing to the specified dtype ({scalar_type_name(dtype)})")


def check_logsumexp_all_dims(self: Tensor, dim: Sequence[int], keepdim: bool) -> None:
    """PyTorch's logsumexp of a non-empty tensor over ``dim=[]`` (all dims) without keepdim
    fails: it adds the kept-dim maxima into the reduced result in place."""
    if len(dim) == 0 and not keepdim and self.ndim > 0 and self.numel() > 0:
        raise ShapeError(f"output with shape [] doesn't match the broadcast shape "
                         f"{[1] * self.ndim}")


def check_topk_dtype(self: Tensor) -> None:
    if self.dtype is D.bool_:
        raise DTypeError("topk does not support bool dtypes on CPU")


def check_bincount_input(self: Tensor) -> None:
    """PyTorch's bincount counts integers only (its kernel has no bool or floating version),
    of a 1-d tensor."""
    if self.dtype is D.bool_ or self.dtype.is_floating_point:
        raise not_implemented_for("bincount_cpu", self.dtype)
    if self.ndim != 1:
        raise ShapeError("bincount only supports 1-d non-negative integral inputs.")


def regression_loss_dtype(kernel_name: str, self: Tensor, target: Tensor,
                          into_input: bool = False) -> D.dtype:
    """The dtype smooth_l1_loss and huber_loss compute in: input's and target's common dtype,
    which must be floating point. huber_loss writes into input's dtype (``into_input``), so
    PyTorch first rejects a common dtype that cannot be cast to it (an integer input)."""
    common = D.result_type(self, target)
    if into_input and not D.can_cast(common, self.dtype):
        raise DTypeError(f"result type {scalar_type_name(common)} can't be cast to the desired "
                         f"output type {scalar_type_name(self.dtype)}")
    if not common.is_floating_point:
        raise not_implemented_for(kernel_name, common)
    return common


def check_searchsorted_dtype(sorted_sequence: Tensor, values: Any) -> None:
    """searchsorted compares in the common dtype of boundaries and values; PyTorch has no
    kernel for bool (a bool boundary with integer or float values is fine)."""
    if D.result_type(sorted_sequence, values) is D.bool_:
        raise not_implemented_for("searchsorted_out_cpu", D.bool_)


def check_float_or_double(kernel_name: str, self: Tensor) -> None:
    """Kernels PyTorch has for float32 and float64 only (the multi-class margin losses)."""
    if self.dtype not in (D.float32, D.float64):
        raise not_implemented_for(kernel_name, self.dtype)


def check_isin_operands(elements: Any, test_elements: Any) -> None:
    """isin takes a Tensor or a number on each side, and has no bool or complex kernel (either
    operand of that dtype, even when the other would promote it)."""
    for value in (elements, test_elements):
        if not isinstance(value, (Tensor, numbers.Number, np.bool_)):
            got = ", ".join("Tensor" if isinstance(v, Tensor) else type(v).__name__
                            for v in (elements, test_elements))
            raise ArgumentError(f"isin() received an invalid combination of arguments - got "
                                f"({got}), but expected one of: (Tensor elements, Tensor "
                                f"test_elements), (Scalar element, Tensor test_elements), "
                                f"(Tensor elements, Scalar test_element)")
    for value in (elements, test_elements):
        if isinstance(value, Tensor):
            name = scalar_type_name(value.dtype) if value.dtype is D.bool_ else None
        elif isinstance(value, (bool, np.bool_)):
            name = "Bool"
        elif isinstance(value, complex):
            name = "ComplexDouble"
        else:
            name = None
        if name is not None:
            raise DTypeError(f"Unsupported input type encountered for isin(): {name}")


def check_masked_scatter_dtypes(self: Tensor, source: Tensor) -> None:
    """masked_scatter copies without converting: source of self's dtype (checked before the
    mask, and for an empty self too). PyTorch's message has no space after "got"."""
    if self.dtype is not source.dtype:
        raise DTypeError(f"masked_scatter: expected self and source to have same dtypes but got"
                         f"{scalar_type_name(self.dtype)} and {scalar_type_name(source.dtype)}")


def check_index_add(self: Tensor, dim: int, index: Tensor, source: Tensor) -> None:
    """PyTorch's index_add checks, in its order (``dim`` already wrapped): a 0-d or 1-d index
    of int32/int64, a source of self's dtype holding one slice per index along ``dim``, and
    self's and source's shapes equal outside ``dim`` (all of them when either is 0-d)."""
    if index.ndim > 1:
        raise IndexOutOfRangeError(f"index_add_(): Index is supposed to be a vector, but got "
                                   f"dim: {index.ndim} with type: "
                                   f"{scalar_type_name(index.dtype)} and size: "
                                   f"{list(index.shape)}")
    check_index_dtype("index_add", index)
    if self.dtype is not source.dtype:
        raise DTypeError(f"index_add_(): self ({scalar_type_name(self.dtype)}) and source "
                         f"({scalar_type_name(source.dtype)}) must have the same scalar type")
    if not (dim == 0 or dim < source.ndim):
        raise IndexOutOfRangeError(f"index_add_(): Indexing dim {dim} is out of bounds of the "
                                   f"source tensor with dim {source.ndim}")
    count = source.shape[dim] if source.ndim else 1
    if index.numel() != count:
        raise ShapeError(f"index_add_(): Number of indices ({index.numel()}) should be equal to "
                         f"source.size(dim): ({count}), for dim: {dim}")
    self_sizes, source_sizes = list(self.shape), list(source.shape)
    if self.ndim and source.ndim:
        del self_sizes[dim], source_sizes[dim]
    if self_sizes != source_sizes:
        raise ShapeError(f"source tensor shape must match self tensor shape, excluding the "
                         f"specified dimension. Got self.shape = {list(self.shape)} "
                         f"source.shape = {list(source.shape)}")


# -- fuzz fixes: reductions

def check_scan_dtype(op: str, self: Tensor, dtype: D.dtype | None) -> None:
    """PyTorch has no cumsum/cumprod kernel that writes bool (``dtype=bool``; a bool input
    without ``dtype`` scans in int64); a 0-d or empty input never reaches the kernel."""
    if dtype is D.bool_ and self.ndim > 0 and self.numel() > 0:
        raise NoKernelError(f'"{op}_out_cpu" not implemented for \'Bool\'')


_INT64_MIN, _INT64_MAX = -(2 ** 63), 2 ** 63 - 1


def check_int64(*values: int) -> None:
    """PyTorch's ``int`` arguments are int64: a Python int outside fails to unpack."""
    for value in values:
        if not _INT64_MIN <= value <= _INT64_MAX:
            raise InvalidArgumentError("Overflow when unpacking long long")


def check_int64_list(op: str, name: str, values: Sequence[int]) -> None:
    """``check_int64`` for an ``int[]`` argument, with PyTorch's message naming the position."""
    for position, value in enumerate(values, 1):
        if not _INT64_MIN <= value <= _INT64_MAX:
            raise ArgumentError(f"{op}(): argument '{name}' failed to unpack the object at pos "
                                f"{position} with error \"Overflow when unpacking long long\"")


# -- fuzz fixes: pointwise


def check_clamp_bounds(out: D.dtype, min: Any, max: Any) -> None:
    """PyTorch clamps a bool result only by one tensor bound (its maximum/minimum kernels): two
    bounds or a number bound need a clamp kernel, which has no bool version."""
    if out is not D.bool_:
        return
    if any(b is not None and not isinstance(b, Tensor) for b in (min, max)):
        raise DTypeError('"clamp_scalar_cpu" not implemented for \'Bool\'')
    if min is not None and max is not None:
        raise DTypeError('"clamp_cpu" not implemented for \'Bool\'')


def check_uniform_bounds(dtype: D.dtype, low: float, high: float) -> None:
    """PyTorch's uniform_ bounds, in its order: each finite in ``dtype`` (NaN and inf fail),
    ``low <= high``, and ``high - low`` finite in ``dtype``."""
    largest = float(D.finfo(dtype).max)
    for name, value in (("from", low), ("to", high)):
        if not -largest <= value <= largest:
            raise SchemaError(f"{name} is out of bounds for {dtype.name}")
    if low > high:
        raise SchemaError(f"uniform_ expects to return a [from, to) range, but found "
                          f"from={low} > to={high}")
    if high - low > largest:
        raise SchemaError(f"uniform_ expects to-from <= std::numeric_limits<{dtype.name}>::max(), "
                          f"but found to={high} and from={low} which result in to-from to exceed "
                          "the limit")


def check_random_bounds_fit(dtype: D.dtype, low: int, high: int) -> None:
    """PyTorch's random_(from, to) on an integral or bool dtype: ``from`` and ``to - 1`` (the
    largest draw) must be values of the dtype."""
    if dtype is D.bool_:
        smallest, largest = 0, 1
    else:
        info = np.iinfo(dtype.numpy)
        smallest, largest = int(info.min), int(info.max)
    for name, value in (("from", low), ("to - 1", high - 1)):
        if not smallest <= value <= largest:
            raise SchemaError(f"{name} is out of bounds for {dtype.name}")


def soft_margin_loss_dtype(self: Tensor, target: Tensor) -> None:
    """soft_margin_loss negates input and writes ``log1p(exp(...))`` (floating, the default
    dtype for integers) into input's dtype: no bool input, no integer input."""
    if self.dtype is D.bool_:
        raise DTypeError("Negation, the `-` operator, on a bool tensor is not supported. If you "
                         "are trying to invert a mask, use the `~` or `logical_not()` operator "
                         "instead.")
    computed = D.result_type(self, target)
    if not computed.is_floating_point:
        computed = D.get_default_dtype()
    if not D.can_cast(computed, self.dtype):
        raise DTypeError(f"result type {scalar_type_name(computed)} can't be cast to the desired "
                         f"output type {scalar_type_name(self.dtype)}")


def hinge_margin(self: Tensor, margin: float) -> float | int:
    """hinge_embedding_loss's margin in input's dtype (PyTorch subtracts it as a tensor of that
    dtype): truncated for an integer input; a bool input cannot subtract."""
    if self.dtype is D.bool_:
        raise DTypeError("Subtraction, the `-` operator, with two bool tensors is not supported. "
                         "Use the `^` or `logical_xor()` operator instead.")
    if self.dtype.is_floating_point:
        return margin
    return math.trunc(checked_convert(float(margin), self.dtype, "hinge_embedding_loss"))


def check_cosine_similarity_eps(eps: float) -> None:
    if not eps >= 0:  # nan too
        raise InvalidArgumentError(f"eps must be non-negative, got: {eps:g}")


def check_binary_cross_entropy_dtypes(self: Tensor, target: Tensor) -> None:
    """binary_cross_entropy does not promote: target of input's dtype, a floating one."""
    if target.dtype is not self.dtype:
        raise DTypeError(f"Found dtype {scalar_type_name(target.dtype)} but expected "
                         f"{scalar_type_name(self.dtype)}")
    if not self.dtype.is_floating_point:
        raise not_implemented_for("binary_cross_entropy", self.dtype)


def check_logits_loss_target(self: Tensor, target: Tensor) -> None:
    """binary_cross_entropy_with_logits computes into a tensor of target's dtype, which must
    hold input's and target's common dtype (no integer target for a floating input)."""
    common = D.result_type(self, target)
    if not D.can_cast(common, target.dtype):
        raise DTypeError(f"result type {scalar_type_name(common)} can't be cast to the desired "
                         f"output type {scalar_type_name(target.dtype)}")


# the C++ type names PyTorch's in-place clamp prints
_CPP_TYPE_NAMES = {D.int8: "signed char", D.uint8: "unsigned char", D.int16: "short int",
                   D.int32: "int", D.int64: "long int", D.bool_: "bool"}


def check_gaussian_var_clamp(var: Tensor, eps: float) -> None:
    """gaussian_nll_loss clamps ``var`` in place at ``eps``: an integer var takes no float eps,
    a bool var no eps at all."""
    if var.dtype.is_floating_point:
        return
    computed = D.result_type(var, eps)
    if not D.can_cast(computed, var.dtype):
        raise DTypeError(f"result type {scalar_type_name(computed)} can't be cast to the desired "
                         f"output type {_CPP_TYPE_NAMES[var.dtype]}")
