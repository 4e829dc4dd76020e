"""``volta.testing.assert_close``: PyTorch's closeness assertion, for volta tensors.

Compares tensors, numpy arrays, Python numbers, and sequences and mappings of them (recursively),
with PyTorch's default tolerances per dtype and its failure messages, so a test written against
``torch.testing.assert_close`` reads the same here. A mismatch raises ``AssertionError``; a call
that cannot be compared (a string, a tensor against an array, only one of ``rtol``/``atol``)
raises a :class:`~volta.errors.VoltaError`.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from typing import Any

import numpy as np

import volta
from volta import dtypes as D
from volta.errors import ArgumentError, InvalidArgumentError

__all__ = ["assert_close"]

# PyTorch's default (rtol, atol) per dtype; integer and bool dtypes compare exactly
_TOLERANCES = {D.float16: (1e-3, 1e-5), D.bfloat16: (1.6e-2, 1e-5), D.float32: (1.3e-6, 1e-5),
               D.float64: (1e-7, 1e-7)}
_PYTHON_DTYPES = {bool: D.bool_, int: D.int64, float: D.float64}


class _MismatchError(AssertionError):
    """A failed comparison; ``path`` is where in nested inputs it happened."""

    def __init__(self, message: str, path: str = "") -> None:
        super().__init__(message)
        self.message = message
        self.path = path


def assert_close(actual: Any, expected: Any, *, allow_subclasses: bool = True,
                 rtol: float | None = None, atol: float | None = None, equal_nan: bool = False,
                 check_device: bool = True, check_dtype: bool = True, check_layout: bool = True,
                 check_stride: bool = False, msg: str | Callable[[str], str] | None = None
                 ) -> None:
    """Assert that ``actual`` and ``expected`` are close: ``|actual - expected| <= atol + rtol *
    |expected|`` elementwise (``nan`` equal to ``nan`` only with ``equal_nan``), after their
    shapes, devices, dtypes (and with ``check_stride`` strides) were found equal."""
    if (rtol is None) != (atol is None):
        missing = "atol" if atol is None else "rtol"
        raise InvalidArgumentError(f"Both 'rtol' and 'atol' must be either specified or "
                                   f"omitted, but got no {missing}.")
    options = _Options(allow_subclasses, rtol, atol, equal_nan, check_device, check_dtype,
                       check_stride)
    try:
        _compare(actual, expected, options, "")
    except _MismatchError as failure:
        message = failure.message
        if failure.path:
            message += f"\n\nThe failure occurred for item {failure.path}"
        if callable(msg):
            message = msg(message)
        elif msg is not None:
            message = msg
        raise AssertionError(message) from None


class _Options:
    def __init__(self, allow_subclasses: bool, rtol: float | None, atol: float | None,
                 equal_nan: bool, check_device: bool, check_dtype: bool,
                 check_stride: bool) -> None:
        self.allow_subclasses = allow_subclasses
        self.rtol, self.atol = rtol, atol
        self.equal_nan = equal_nan
        self.check_device = check_device
        self.check_dtype = check_dtype
        self.check_stride = check_stride


def _compare(actual: Any, expected: Any, options: _Options, path: str) -> None:
    if isinstance(actual, volta.Tensor) and isinstance(expected, volta.Tensor):
        if not options.allow_subclasses and type(actual) is not type(expected):
            raise _MismatchError(f"The values for attribute 'type' do not match: "
                            f"{type(actual).__name__} != {type(expected).__name__}.", path)
        _compare_tensors(actual, expected, options, path)
    elif isinstance(actual, np.ndarray) and isinstance(expected, np.ndarray):
        _compare_tensors(volta.from_numpy(np.ascontiguousarray(actual)),
                         volta.from_numpy(np.ascontiguousarray(expected)), options, path)
    elif _is_number(actual) and _is_number(expected):
        if type(actual) is not type(expected):
            raise _MismatchError(f"The (d)types do not match: {type(actual)} != {type(expected)}.",
                            path)
        _compare_values(np.array(actual), np.array(expected), _PYTHON_DTYPES[type(actual)],
                        options, path, scalars=True)
    elif isinstance(actual, Mapping) and isinstance(expected, Mapping):
        actual_keys, expected_keys = set(actual), set(expected)
        if actual_keys != expected_keys:
            raise _MismatchError("The keys of the mappings do not match:\n"
                            f"Missing keys in the actual mapping: "
                            f"{sorted(map(repr, expected_keys - actual_keys))}\n"
                            f"Additional keys in the actual mapping: "
                            f"{sorted(map(repr, actual_keys - expected_keys))}".replace('"', ""),
                            path)
        for key in expected:
            _compare(actual[key], expected[key], options, f"{path}[{key!r}]")
    elif _is_sequence(actual) and _is_sequence(expected):
        if len(actual) != len(expected):
            raise _MismatchError(f"The length of the sequences mismatch: {len(actual)} != "
                            f"{len(expected)}", path)
        for i, (a, e) in enumerate(zip(actual, expected)):
            _compare(a, e, options, f"{path}[{i}]")
    else:
        raise ArgumentError(f"No comparison pair was able to handle inputs of type "
                            f"{_type_name(actual)} and {_type_name(expected)}.")


def _type_name(value: Any) -> str:
    kind = type(value)
    return "<class 'volta.Tensor'>" if kind is volta.Tensor else str(kind)


def _is_number(value: Any) -> bool:
    return type(value) in _PYTHON_DTYPES


def _is_sequence(value: Any) -> bool:
    return isinstance(value, Sequence) and not isinstance(value, (str, bytes))


def _compare_tensors(actual: Any, expected: Any, options: _Options, path: str) -> None:
    checks = [("shape", actual.shape, expected.shape, True),
              ("device", actual.device, expected.device, options.check_device),
              ("dtype", actual.dtype, expected.dtype, options.check_dtype),
              ("stride()", actual.stride(), expected.stride(), options.check_stride)]
    for name, a, e, enabled in checks:
        if enabled and a != e:
            shown = [f"volta.{v.name}" if isinstance(v, D.dtype) else str(v) for v in (a, e)]
            raise _MismatchError(f"The values for attribute '{name}' do not match: {shown[0]} != "
                            f"{shown[1]}.", path)
    dtype = actual.dtype
    if actual.dtype is not expected.dtype:
        dtype = D.promote_types(actual.dtype, expected.dtype)
    rtol, atol = _tolerances(options, actual.dtype, expected.dtype)
    a = actual.detach().to(dtype).cpu().numpy()
    e = expected.detach().to(dtype).cpu().numpy()
    _compare_values(a, e, dtype, options, path, scalars=actual.ndim == 0, tolerances=(rtol, atol))


def _tolerances(options: _Options, *dtypes: D.dtype) -> tuple[float, float]:
    if options.rtol is not None and options.atol is not None:
        return options.rtol, options.atol
    pairs = [_TOLERANCES.get(dt, (0.0, 0.0)) for dt in dtypes]
    return max(p[0] for p in pairs), max(p[1] for p in pairs)


def _compare_values(actual: np.ndarray, expected: np.ndarray, dtype: D.dtype, options: _Options,
                    path: str, scalars: bool,
                    tolerances: tuple[float, float] | None = None) -> None:
    rtol, atol = tolerances or _tolerances(options, dtype)
    floating = dtype.is_floating_point
    if floating:
        # half types compare in float32, the others in their own precision (as PyTorch)
        compute = np.float32 if dtype in (D.float16, D.bfloat16) else actual.dtype
        a, e = actual.astype(compute), expected.astype(compute)
    else:
        a, e = actual.astype(np.int64), expected.astype(np.int64)
    with np.errstate(all="ignore"):
        close = a == e
        if floating:
            # within tolerance where both are finite; an infinity only equals itself
            close |= (np.isfinite(a) & np.isfinite(e)) & (np.abs(a - e) <= atol + rtol * np.abs(e))
            if options.equal_nan:
                close |= np.isnan(a) & np.isnan(e)
    if bool(np.all(close)):
        return
    raise _MismatchError(_mismatch_message(a, e, close, rtol, atol, floating, scalars), path)


def _mismatch_message(a: np.ndarray, e: np.ndarray, close: np.ndarray, rtol: float, atol: float,
                      floating: bool, scalars: bool) -> str:
    exact = rtol == 0 and atol == 0
    verdict = "equal" if exact else "close"
    with np.errstate(all="ignore"):
        abs_diff = np.abs(a - e)
        if floating:
            rel_diff = abs_diff / np.abs(e)
        else:
            # integer differences are reported relative in the default float dtype
            rel_diff = (abs_diff / np.abs(e).astype(np.float32)).astype(np.float32)
        # only the mismatched elements are reported (a matched 0 against 0 is no nan)
        abs_diff = np.where(close, 0, abs_diff).astype(abs_diff.dtype)
        rel_diff = np.where(close, 0, rel_diff).astype(rel_diff.dtype)

    def allowed(tolerance: float) -> str:
        return "" if exact else f" (up to {tolerance} allowed)"

    if scalars:
        return (f"Scalars are not {verdict}!\n\nExpected {e.item()} but got {a.item()}.\n"
                f"Absolute difference: {abs_diff.item()}{allowed(atol)}\n"
                f"Relative difference: {rel_diff.item()}{allowed(rtol)}")
    total = close.size
    mismatched = total - int(np.count_nonzero(close))
    lines = [f"Tensor-likes are not {verdict}!", "",
             f"Mismatched elements: {mismatched} / {total} ({100.0 * mismatched / total:.1f}%)"]
    for label, diff, tolerance in (("absolute", abs_diff, atol), ("relative", rel_diff, rtol)):
        value, index = _greatest(diff)
        lines.append(f"Greatest {label} difference: {value} at index {index}"
                     f"{allowed(tolerance)}")
    return "\n".join(lines)


def _greatest(diff: np.ndarray) -> tuple[Any, tuple[int, ...]]:
    """The largest difference and its index; nan wins, as in a max that propagates nan."""
    flat = diff.reshape(-1)
    nan = np.isnan(flat) if flat.dtype.kind == "f" else np.zeros(flat.shape, bool)
    position = int(np.argmax(nan)) if nan.any() else int(np.argmax(flat))
    index = tuple(int(i) for i in np.unravel_index(position, diff.shape))
    value = flat[position].item()
    return (value if not (isinstance(value, float) and math.isnan(value)) else math.nan), index
