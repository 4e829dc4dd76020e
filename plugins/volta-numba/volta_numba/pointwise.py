"""The numba kernels of every pointwise op: dtypes, broadcasting and memory layout.

For a call, :func:`make_kernel`'s kernel works out the computation and result dtypes with
volta's own rules (``volta.dtypes.pointwise_result_dtypes``, so it accepts and rejects exactly
what the CPU backend does), lays every tensor operand out as (flat storage, row offsets,
stride along the row) over the broadcast result shape, and runs the op's compiled loop from
:mod:`volta_numba.translate` into a new tensor on the device.

To keep numba's compilations few (each costs about a second), each loop is compiled for four
computation types only: float32, float64, int64 (every integer dtype computes in int64 and
is cast back, which wraps exactly like arithmetic in the narrow type) and bool.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

import numpy as np

import volta
from volta.backend import host_view, storage_of
from volta.errors import DTypeError, VoltaError
from volta.tensor.checks import check_alpha, check_integer_division, check_integer_pow
from volta_numba.launch import launch
from volta_numba.translate import PointwiseSpec, TranslationError, element_expression, load_module

_COMPUTE = {volta.float32: np.dtype(np.float32), volta.float64: np.dtype(np.float64),
            volta.bool: np.dtype(np.bool_)}
_INT64 = np.dtype(np.int64)
_BOOL = np.dtype(np.bool_)
# elements per row when the whole result is one contiguous run: rows are the unit of
# parallel work, so a large 1-D operand still spreads over the threads
_CHUNK = 1 << 14


# ops whose integer kernels reject a zero divisor as the CPU's do (numba's integer division
# by zero returns 0), with PyTorch's kernel names for the messages
_INTEGER_DIVISIONS = {"floor_divide": "div_floor_cpu", "remainder": "remainder_cpu",
                      "fmod": "fmod_cpu", "div_floor": "div_floor_cpu",
                      "div_trunc": "div_trunc_cpu"}


def compute_dtype(promoted: volta.dtype) -> np.dtype:
    return _COMPUTE.get(promoted, _INT64)


# ops without a snippet whose kernels are still one expression: where's condition is read as
# bool; div's rounding modes are three expressions (``div`` picks one per call)
_WHERE = PointwiseSpec("where.self", (("condition", True), ("self", True), ("other", True)),
                       "default", None, "(v_self if v_condition else v_other)",
                       conditions=("condition",))
_DIVISIONS = {
    None: PointwiseSpec("div", (("self", True), ("other", True)), "int_to_float", None,
                        "(v_self / v_other)", variant="true"),
    "trunc": PointwiseSpec("div", (("self", True), ("other", True)), "default", None,
                           "_m.trunc_divide(v_self, v_other)", variant="trunc"),
    "floor": PointwiseSpec("div", (("self", True), ("other", True)), "default", None,
                           "_np.floor_divide(v_self, v_other)", variant="floor"),
}


def specs() -> list[PointwiseSpec]:
    """Every defined op with a ``pointwise:`` snippet that translates to numba."""
    out = []
    for handle in volta.library.operators("pointwise"):
        info = handle.info
        if info.pointwise is None:
            continue
        args = tuple((a.name, str(a.type).startswith("Tensor")) for a in handle.schema.arguments)
        try:
            expression = element_expression(info.pointwise, [name for name, _ in args])
        except TranslationError:
            continue  # no kernel: the op takes the CPU fallback
        out.append(PointwiseSpec(handle.name, args, info.promotion or "default", info.dtypes,
                                 expression))
    return out


def coalesce(shape: tuple[int, ...], strides: list[list[int]]
             ) -> tuple[list[int], list[list[int]]]:
    """Drop size-1 dimensions and merge neighbours that every operand walks contiguously, so
    a contiguous result is one long row and a bias broadcast over a matrix is two dims."""
    dims = [d for d, size in enumerate(shape) if size != 1]
    sizes: list[int] = []
    merged: list[list[int]] = [[] for _ in strides]
    for d in dims:
        if sizes and all(s[-1] == st[d] * shape[d] for s, st in zip(merged, strides)):
            sizes[-1] *= shape[d]
            for s, st in zip(merged, strides):
                s[-1] = st[d]
            continue
        sizes.append(shape[d])
        for s, st in zip(merged, strides):
            s.append(st[d])
    return sizes or [1], [s or [0] for s in merged]


def row_offsets(sizes: list[int], strides: list[int], offset: int, inner: int, n: int
                ) -> tuple[np.ndarray, int]:
    """(start of each row in the flat storage, stride along a row) for one operand."""
    if len(sizes) == 1:
        rows = max(1, math.ceil(n / inner))
        return offset + np.arange(rows, dtype=np.int64) * (inner * strides[0]), strides[0]
    starts = np.array([offset], dtype=np.int64)
    for size, stride in zip(sizes[:-1], strides[:-1]):
        starts = (starts[:, None] + np.arange(size, dtype=np.int64) * stride).reshape(-1)
    return starts, strides[-1]


def _operand(x: Any, compute: np.dtype, ndim: int, shape: tuple[int, ...]
             ) -> tuple[np.ndarray, int, list[int]]:
    """(flat storage, offset, strides broadcast to ``shape``) of a tensor operand; a Python
    number becomes a one-element storage read with stride 0."""
    if not isinstance(x, volta.Tensor):
        return np.array([x]).astype(compute), 0, [0] * ndim
    ref = storage_of(x)
    base, offset, strides = ref.handle, ref.offset, list(ref.strides)
    if not isinstance(base, np.ndarray) or base.dtype != compute:
        # another dtype, or storage that is not host memory: read it converted, once
        converted = np.array(host_view(x), dtype=compute, order="C")  # keeps 0-d as 0-d
        base, offset = converted.reshape(-1), 0
        strides = [s // converted.itemsize for s in converted.strides]
    lead = ndim - len(strides)
    full = [0] * lead + strides
    sizes = [1] * lead + list(ref.sizes)
    return base, offset, [0 if sizes[d] == 1 and shape[d] != 1 else full[d] for d in range(ndim)]


def make_kernel(spec: PointwiseSpec, module: Any) -> Callable[..., volta.Tensor]:
    loop = getattr(module, spec.ident)
    serial = getattr(module, f"{spec.ident}_serial")
    tensor_positions = [i for i, (_, is_tensor) in enumerate(spec.args) if is_tensor]

    conditions = [i for i in tensor_positions if spec.args[i][0] in spec.conditions]
    promoted_positions = [i for i in tensor_positions if i not in conditions]
    division = _INTEGER_DIVISIONS.get(spec.ident)
    # add's and sub's alpha is converted (checked) to the result dtype, as on the CPU
    alphas = [i for i, (arg, is_tensor) in enumerate(spec.args)
              if arg == "alpha" and not is_tensor and spec.name in ("add", "sub")]

    def kernel(*values: Any) -> volta.Tensor:
        for i in conditions:
            _check_condition(spec.name, values[i])
        operands = tuple(values[i] for i in tensor_positions)
        promoted, out_dtype = volta.dtypes.pointwise_result_dtypes(
            spec.name, spec.promotion, spec.allowed, tuple(values[i] for i in promoted_positions))
        tensors = [x for x in operands if isinstance(x, volta.Tensor)]
        shape = volta.broadcast_shapes(*(tuple(t.shape) for t in tensors))
        compute = compute_dtype(promoted)
        if division is not None:
            check_integer_division(division, *(_host(values[i]) for i in promoted_positions))
        elif spec.name == "pow":
            base, exponent = (values[i] for i in promoted_positions)
            if (isinstance(exponent, volta.Tensor) and compute.kind in "iu"
                    and (np.asarray(_host(exponent)) < 0).any()):
                # integers to negative tensor powers are 1, -1 or 0 (PyTorch's rule, volta's
                # CPU kernel); the generated loop has no such case: the CPU computes it
                return volta.pow(*(v.to("cpu") if isinstance(v, volta.Tensor) else v
                                   for v in values)).to(exponent.device)
            check_integer_pow(_host(base), _host(exponent))
        for i in alphas:
            if values[i].__class__ is not int or values[i] != 1:  # 1: the default, always fits
                check_alpha(spec.name, values[i], out_dtype)
        device = next(t.device for t in tensors if t.device.type == "numba")
        result = volta.empty(shape, dtype=out_dtype, device=device)
        n = result.numel()
        if n == 0:
            return result
        ndim = len(shape)
        laid = [_operand(values[i], _BOOL if i in conditions else compute, ndim, shape)
                for i in tensor_positions]
        sizes, strides = coalesce(shape, [s for _, _, s in laid])
        inner = sizes[-1] if len(sizes) > 1 else min(n, _CHUNK)
        target = host_view(result).reshape(-1)
        out = target if target.dtype == compute or out_dtype is volta.bool else \
            np.empty(n, dtype=compute)
        arguments: list[Any] = [out, n, inner]
        laid_iter = iter(zip(laid, strides))
        for i, (_, is_tensor) in enumerate(spec.args):
            if is_tensor:
                (base, offset, _), operand_strides = next(laid_iter)
                starts, step = row_offsets(sizes, operand_strides, offset, inner, n)
                arguments += [base, starts, step]
            else:
                arguments.append(_scalar(values[i]))
        launch(loop, n, *arguments, serial=serial)
        if out is not target:
            target[...] = out  # back to the narrow integer dtype, wrapping like PyTorch
        return result

    kernel.__name__ = spec.ident
    kernel.__qualname__ = f"numba_{spec.ident}"
    return kernel


def _host(value: Any) -> Any:
    """A numba tensor's elements as the host sees them (numba memory is host memory)."""
    return host_view(value) if isinstance(value, volta.Tensor) else value


def _check_condition(op: str, condition: Any) -> None:
    if not isinstance(condition, volta.Tensor) or condition.dtype not in (volta.bool, volta.uint8):
        got = condition.dtype.name if isinstance(condition, volta.Tensor) else \
            type(condition).__name__
        raise DTypeError(f"{op.split('.')[0]} expected condition to be a boolean tensor, but "
                         f"got a tensor with dtype {got}")


def _division_kernel(by_mode: dict[str | None, Callable[..., volta.Tensor]]
                     ) -> Callable[..., volta.Tensor]:
    def div(self: Any, other: Any, rounding_mode: str | None = None) -> volta.Tensor:
        if rounding_mode not in by_mode:
            raise VoltaError(f"div expected rounding_mode to be one of None, 'trunc', or 'floor' "
                             f"but found '{rounding_mode}'")
        return by_mode[rounding_mode](self, other)
    return div


def _scalar(value: Any) -> Any:
    """A non-tensor argument as a numpy scalar, so each loop compiles for few argument types."""
    if isinstance(value, (bool, np.bool_)):
        return np.bool_(value)
    if isinstance(value, (int, np.integer)):
        return np.int64(value)
    return np.float64(value)


def kernels() -> dict[str, Callable[..., volta.Tensor]]:
    """op name -> numba kernel, for every translatable pointwise op."""
    generated = specs()
    module = load_module([*generated, _WHERE, *_DIVISIONS.values()])
    found = {spec.name: make_kernel(spec, module) for spec in generated}
    found["where.self"] = make_kernel(_WHERE, module)
    found["div"] = _division_kernel({mode: make_kernel(spec, module)
                                     for mode, spec in _DIVISIONS.items()})
    return found
