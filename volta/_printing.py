"""PyTorch-like ``repr`` of tensors."""

from __future__ import annotations

from typing import Any

import numpy as np


def _format_floats(arr: np.ndarray) -> Any:
    finite = arr[np.isfinite(arr)]
    if finite.size == 0:
        return lambda x: f"{x}"
    int_mode = bool(np.all(finite == np.round(finite)))
    amax = float(np.max(np.abs(finite))) if finite.size else 0.0
    amin = float(np.min(np.abs(finite[finite != 0]))) if np.any(finite != 0) else 0.0
    sci = amax >= 1e8 or (amin != 0 and amin < 1e-4) or (amin and amax / amin > 1000 and
                                                         not int_mode)
    if int_mode and not sci:
        width = max(len(f"{v:.0f}.") for v in finite)

        def fmt(x: float) -> str:
            return (f"{x:.0f}." if np.isfinite(x) else f"{x}").rjust(width)
    elif sci:
        def fmt(x: float) -> str:
            return f"{x:.4e}"
    else:
        width = max(len(f"{v:.4f}") for v in finite)

        def fmt(x: float) -> str:
            return (f"{x:.4f}" if np.isfinite(x) else f"{x}").rjust(width)
    return fmt


def tensor_repr(t: Any) -> str:
    from volta._tensor import host_array
    arr = host_array(t)
    if arr.dtype.kind == "f" or t.dtype.name == "bfloat16":
        arr = arr.astype(np.float64)
        formatter = {"float": _format_floats(arr)}
    else:
        formatter = None
    prefix = "tensor("
    body = np.array2string(arr, separator=", ", prefix=prefix, formatter=formatter,
                           threshold=1000, edgeitems=3, max_line_width=80)
    extras = []
    default_types = ("float32", "int64", "bool")
    if t.dtype.name not in default_types or arr.size == 0 and t.dtype.name != "float32":
        extras.append(f"dtype=volta.{t.dtype.name}")
    if t.device.type != "cpu":
        extras.append(f"device='{t.device}'")
    if t.grad_fn is not None:
        extras.append(f"grad_fn=<{t.grad_fn.name()}>")
    elif t.requires_grad:
        extras.append("requires_grad=True")
    if arr.size == 0 and arr.ndim != 1:
        body = "[]"
        extras.insert(0, f"size={tuple(t.shape)}")
    return prefix + body + "".join(f", {e}" for e in extras) + ")"
