"""PyTorch-like ``repr`` of tensors."""

from __future__ import annotations

from typing import Any

import numpy as np

from volta.backend import BACKENDS, host_view
from volta.dtypes import get_default_dtype
from volta.errors import ArgumentError


class _PrintOptions:
    """What ``set_printoptions`` sets (PyTorch's defaults)."""

    precision = 4
    threshold: float = 1000
    edgeitems = 3
    linewidth = 80
    sci_mode: bool | None = None


PRINT_OPTIONS = _PrintOptions()
_PROFILES = {"default": (4, 1000, 3, 80), "short": (2, 1000, 2, 80),
             "full": (4, float("inf"), 3, 80)}


def set_printoptions(precision: int | None = None, threshold: float | None = None,
                     edgeitems: int | None = None, linewidth: int | None = None,
                     profile: str | None = None, sci_mode: bool | None = None) -> None:
    """PyTorch's ``set_printoptions``: digits after the point, the element count above which a
    tensor prints summarized, the items kept at each edge then, the line width, a named
    ``profile`` ("default", "short", "full") applied first, and ``sci_mode`` (True/False
    forces scientific notation on or off; None chooses per tensor)."""
    if profile is not None and profile not in _PROFILES:
        raise ArgumentError(f"set_printoptions(): unknown profile {profile!r}; expected one of "
                            f"{', '.join(map(repr, _PROFILES))}")
    for name, value in (("precision", precision), ("edgeitems", edgeitems),
                        ("linewidth", linewidth)):
        if value is not None and (isinstance(value, bool) or not isinstance(value, int)
                                  or value < 0):
            raise ArgumentError(f"set_printoptions(): argument '{name}' must be a "
                                f"non-negative int, not {value!r}")
    if threshold is not None and (isinstance(threshold, bool)
                                  or not isinstance(threshold, (int, float))):
        raise ArgumentError(f"set_printoptions(): argument 'threshold' must be a number, not "
                            f"{type(threshold).__name__}")
    # everything checked: nothing changes on a rejected call
    options = PRINT_OPTIONS
    if profile is not None:
        (options.precision, options.threshold, options.edgeitems,
         options.linewidth) = _PROFILES[profile]
    for name, value in (("precision", precision), ("threshold", threshold),
                        ("edgeitems", edgeitems), ("linewidth", linewidth)):
        if value is not None:
            setattr(options, name, value)
    # as PyTorch's: sci_mode is set whenever the call passes it or not (None means automatic)
    options.sci_mode = sci_mode


def _summarized(arr: np.ndarray, edgeitems: int = 3) -> np.ndarray:
    """The elements a summarized print shows (PyTorch sizes columns from these only)."""
    for axis, size in enumerate(arr.shape):
        if size > 2 * edgeitems:
            keep = np.r_[0:edgeitems, size - edgeitems:size]
            arr = np.take(arr, keep, axis=axis)
    return arr


def _format_floats(arr: np.ndarray) -> tuple[Any, int]:
    # PyTorch's _Formatter: mode and column width come from the nonzero finite values only,
    # and a ratio above 1000 switches to scientific notation even when all values are integral
    precision = PRINT_OPTIONS.precision
    finite = arr[np.isfinite(arr)]
    if finite.size == 0:
        return (lambda x: f"{x}"), 1
    nonzero = np.abs(finite[finite != 0])
    int_mode = bool(np.all(finite == np.ceil(finite)))
    sci = False
    if nonzero.size:
        amax, amin = float(nonzero.max()), float(nonzero.min())
        sci = amax / amin > 1000.0 or amax > 1e8 or (not int_mode and amin < 1e-4)
    if PRINT_OPTIONS.sci_mode is not None and nonzero.size:
        sci = PRINT_OPTIONS.sci_mode  # zeros alone print as "0." whatever the mode
    values = finite[finite != 0]
    if sci:
        width = max((len(f"{v:.{precision}e}") for v in values), default=1)

        def fmt(x: float) -> str:
            return f"{x:.{precision}e}".rjust(width)
    elif int_mode:
        width = max((len(f"{v:.0f}.") for v in values), default=1)

        def fmt(x: float) -> str:
            return (f"{x:.0f}." if np.isfinite(x) else f"{x}").rjust(width)
    else:
        width = max((len(f"{v:.{precision}f}") for v in values), default=1)

        def fmt(x: float) -> str:
            return (f"{x:.{precision}f}" if np.isfinite(x) else f"{x}").rjust(width)
    return fmt, width


def _format_others(arr: np.ndarray) -> tuple[Any, int]:
    """Integers and bools: right-aligned to the widest value shown."""
    width = max((len(str(v)) for v in arr.reshape(-1).tolist()), default=1)
    return (lambda x: str(x).rjust(width)), width


def _layout(arr: np.ndarray, fmt: Any, width: int, indent: int, summarize: bool) -> str:
    """PyTorch's layout: a fixed number of elements a line (from the formatter's width and the
    line width), ``edgeitems`` at each end of a summarized dimension around a ``...``, rows
    separated by one newline per remaining dimension."""
    options = PRINT_OPTIONS
    edge = options.edgeitems
    elide = summarize and arr.shape[0] > 2 * edge
    if arr.ndim == 1:
        values = arr.tolist()
        cells = ([fmt(v) for v in values[:edge]] + [" ..."] + [fmt(v) for v in values[-edge:]]
                 if elide else [fmt(v) for v in values])
        per_line = max(1, (options.linewidth - indent) // (width + 2))
        lines = [", ".join(cells[i:i + per_line]) for i in range(0, len(cells), per_line)]
        return "[" + (",\n" + " " * (indent + 1)).join(lines) + "]"
    rows = range(arr.shape[0])
    if elide:
        parts = ([_layout(arr[i], fmt, width, indent + 1, summarize) for i in rows[:edge]] + ["..."]
                 + [_layout(arr[i], fmt, width, indent + 1, summarize) for i in rows[-edge:]])
    else:
        parts = [_layout(arr[i], fmt, width, indent + 1, summarize) for i in rows]
    return "[" + ("," + "\n" * (arr.ndim - 1) + " " * (indent + 1)).join(parts) + "]"


def tensor_repr(t: Any) -> str:
    options = PRINT_OPTIONS
    arr = host_view(t)
    summarize = arr.size > options.threshold
    shown = _summarized(arr, options.edgeitems) if summarize else arr
    if arr.dtype.kind == "f" or t.dtype.name == "bfloat16":
        arr = arr.astype(np.float64)
        fmt, width = _format_floats(shown.astype(np.float64))
        to_python = float
    else:
        fmt, width = _format_others(shown)
        to_python = None
    prefix = "tensor("
    if arr.ndim == 0:
        value = arr.item()
        body = fmt(to_python(value) if to_python else value)
    else:
        body = _layout(arr, fmt, width, len(prefix), summarize)
    extras = []
    # PyTorch hides the dtype for the *current* default float dtype (set_default_dtype), not
    # for float32 always; an empty tensor shows any other dtype since no element implies it
    default_float = get_default_dtype().name
    default_types = (default_float, "int64", "bool")
    if t.dtype.name not in default_types or (arr.size == 0 and t.dtype.name != default_float):
        extras.append(f"dtype=volta.{t.dtype.name}")
    if t.device != BACKENDS.host_device():
        extras.append(f"device='{t.device}'")
    if t.grad_fn is not None:
        extras.append(f"grad_fn=<{t.grad_fn.name()}>")
    elif t.requires_grad:
        extras.append("requires_grad=True")
    if arr.size == 0 and arr.ndim != 1:
        body = "[]"
        extras.insert(0, f"size={tuple(t.shape)}")
    return _with_suffixes(prefix + body, extras, len(prefix))


def _with_suffixes(text: str, suffixes: list[str], indent: int) -> str:
    """``text`` with ``, suffix`` each, a suffix moving to a new line when it would reach past
    the line width (PyTorch measures the last line two characters longer than it is)."""
    parts = [text]
    last_line = len(text) - text.rfind("\n") + 1
    for suffix in suffixes:
        if last_line + len(suffix) + 2 > PRINT_OPTIONS.linewidth:
            parts.append(",\n" + " " * indent + suffix)
            last_line = indent + len(suffix)
        else:
            parts.append(", " + suffix)
            last_line += len(suffix) + 2
    parts.append(")")
    return "".join(parts)
