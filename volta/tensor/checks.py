"""Argument checks that every backend's kernels of an op share (PyTorch's messages), so that a
kernel on any device rejects the same calls with the same errors."""

from __future__ import annotations

import builtins
import math
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
    SchemaError,
    ShapeError,
    VoltaError,
)
from volta.tensor.scalars import check_alpha, checked_convert  # noqa: F401 - check_alpha: public here
from volta.tensor.tensor import Tensor


def clamp_dtype(self: Tensor, min: Any, max: Any) -> D.dtype:
    """The result dtype of ``clamp(self, min, max)``, after PyTorch's checks: a bound given,
    and number bounds representable in that dtype."""
    if min is None and max is None:
        raise ArgumentError("clamp: at least one of 'min' or 'max' must not be None")
    out = D.result_type(self, *(v for v in (min, max) if v is not None))
    check_clamp_bounds(out, min, max)
    for bound in (min, max):
        if bound is not None and not isinstance(bound, Tensor):
            checked_convert(bound, out, "clamp")
    return out


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


# -- fuzz fixes: pointwise


def check_clamp_bounds(out: D.dtype, min: Any, max: Any) -> None:
    """PyTorch's clamp overloads take two Tensor bounds or two number bounds, not one of each;
    and it clamps a bool result only by one tensor bound (its maximum/minimum kernels): two
    bounds or a number bound need a clamp kernel, which has no bool version."""
    if min is not None and max is not None and isinstance(min, Tensor) != isinstance(max, Tensor):
        raise ArgumentError(f"clamp() received an invalid combination of arguments: min and max "
                            f"must both be Tensors or both numbers, got {type(min).__name__} and "
                            f"{type(max).__name__}")
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
