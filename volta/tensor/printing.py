"""PyTorch-like ``repr`` of tensors."""

from __future__ import annotations

from typing import Any

import numpy as np

from volta.dtypes import get_default_dtype


def _summarized(arr: np.ndarray, edgeitems: int = 3) -> np.ndarray:
    """The elements a summarized print shows (PyTorch sizes columns from these only)."""
    for axis, size in enumerate(arr.shape):
        if size > 2 * edgeitems:
            keep = np.r_[0:edgeitems, size - edgeitems:size]
            arr = np.take(arr, keep, axis=axis)
    return arr


def _format_floats(arr: np.ndarray) -> Any:
    # PyTorch's _Formatter: mode and column width come from the nonzero finite values only,
    # and a ratio above 1000 switches to scientific notation even when all values are integral
    finite = arr[np.isfinite(arr)]
    if finite.size == 0:
        return lambda x: f"{x}"
    nonzero = np.abs(finite[finite != 0])
    int_mode = bool(np.all(finite == np.ceil(finite)))
    sci = False
    if nonzero.size:
        amax, amin = float(nonzero.max()), float(nonzero.min())
        sci = amax / amin > 1000.0 or amax > 1e8 or (not int_mode and amin < 1e-4)
    values = finite[finite != 0]
    if sci:
        width = max((len(f"{v:.4e}") for v in values), default=1)

        def fmt(x: float) -> str:
            return f"{x:.4e}".rjust(width)
    elif int_mode:
        width = max((len(f"{v:.0f}.") for v in values), default=1)

        def fmt(x: float) -> str:
            return (f"{x:.0f}." if np.isfinite(x) else f"{x}").rjust(width)
    else:
        width = max((len(f"{v:.4f}") for v in values), default=1)

        def fmt(x: float) -> str:
            return (f"{x:.4f}" if np.isfinite(x) else f"{x}").rjust(width)
    return fmt


def tensor_repr(t: Any) -> str:
    from volta.tensor.tensor import host_array
    arr = host_array(t)
    if arr.dtype.kind == "f" or t.dtype.name == "bfloat16":
        arr = arr.astype(np.float64)
        shown = _summarized(arr) if arr.size > 1000 else arr
        formatter = {"float": _format_floats(shown)}
    else:
        formatter = None
    prefix = "tensor("
    body = np.array2string(arr, separator=", ", prefix=prefix, formatter=formatter,
                           threshold=1000, edgeitems=3, max_line_width=80)
    if arr.size > 1000:  # PyTorch writes the elided elements as " ..." (numpy: "...")
        body = body.replace(", ..., ", ",  ..., ")
    extras = []
    # PyTorch hides the dtype for the *current* default float dtype (set_default_dtype), not
    # for float32 always; an empty tensor shows any other dtype since no element implies it
    default_float = get_default_dtype().name
    default_types = (default_float, "int64", "bool")
    if t.dtype.name not in default_types or (arr.size == 0 and t.dtype.name != default_float):
        extras.append(f"dtype=volta.{t.dtype.name}")
    from volta.backend import BACKENDS
    if t.device != BACKENDS.host_device():
        extras.append(f"device='{t.device}'")
    if t.grad_fn is not None:
        extras.append(f"grad_fn=<{t.grad_fn.name()}>")
    elif t.requires_grad:
        extras.append("requires_grad=True")
    if arr.size == 0 and arr.ndim != 1:
        body = "[]"
        extras.insert(0, f"size={tuple(t.shape)}")
    return prefix + body + "".join(f", {e}" for e in extras) + ")"
