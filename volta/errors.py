"""The one error hierarchy of volta.

Every error volta raises on bad input derives from :class:`VoltaError` and, where Python has a
matching builtin, from that builtin too, so ``except ValueError`` keeps working for callers that
do not know volta.
"""

from __future__ import annotations

import functools
import types
from collections.abc import Callable
from typing import Any


class VoltaError(Exception):
    """Root of every error volta raises on purpose."""


class ShapeError(VoltaError, ValueError):
    """Sizes that do not fit together (broadcasting, matmul, cat, view...)."""


class DTypeError(VoltaError, TypeError):
    """A dtype an op does not accept, or a result that cannot be cast to the output dtype."""


class DeviceMismatchError(VoltaError, ValueError):
    """Tensors on different devices meet in one op."""


class IndexOutOfRangeError(VoltaError, IndexError):
    """An index or a dimension outside its range."""


class NoKernelError(VoltaError, NotImplementedError):
    """No kernel, composite or fallback can run this op for this key set."""


class SchemaError(VoltaError, ValueError):
    """A malformed operator schema, or a call that does not match it."""


class RegistrationError(VoltaError, RuntimeError):
    """A registration conflicts with an existing one (duplicate kernel, duplicate op, ...)."""


class PluginError(VoltaError, RuntimeError):
    """A plugin failed to import or raised inside a hook."""


class SerializationError(VoltaError, ValueError):
    """A checkpoint that cannot be written or read."""


class TraceFormatError(SerializationError):
    """A graph file (``volta.jit``) that is malformed: the message names the node and field."""


class BackendError(VoltaError, RuntimeError):
    """A device or backend failed (unknown device, allocation, copy)."""


class DeviceError(BackendError):
    """A device that cannot be used: no adapter found, the device was lost, a kernel failed."""


class DeviceOutOfMemoryError(DeviceError, MemoryError):
    """A device allocation failed even after the backend freed its cached blocks."""


class InvalidOperationError(VoltaError, RuntimeError):
    """An operation that is not valid for this tensor (``bool()`` of many elements...)."""


class LinAlgError(InvalidOperationError):
    """A matrix a decomposition or solver cannot handle: singular, not positive-definite
    (PyTorch's ``torch.linalg.LinAlgError``; also ``volta.linalg.LinAlgError``)."""


class InvalidArgumentError(VoltaError, ValueError):
    """An argument whose value is outside what the function accepts (a probability above 1,
    an unknown mode string, channels not divisible by groups)."""


class InvalidNameError(VoltaError, KeyError):
    """A name that cannot be used as a module attribute, parameter or buffer name."""


class ArgumentError(SchemaError, TypeError):
    """A call whose arguments fit none of the op's schemas (also a TypeError, as in PyTorch)."""


class NumericOverflowError(VoltaError, OverflowError):
    """A Python number too large for the type it is converted to (``int_tensor + 2**70``)."""


class AutogradError(VoltaError, RuntimeError):
    """Misuse of autograd: backward twice, in-place on saved tensors, missing gradients."""


# The last line of defence around kernels and composites: a numpy or Python error escaping one
# becomes the VoltaError of the same kind, naming the op. Kernels should raise PyTorch's message
# themselves; this only keeps raw AxisError, MemoryError, OverflowError... from reaching users.
_AS_VOLTA_ERROR: tuple[tuple[type[BaseException] | tuple[type[BaseException], ...],
                             type[VoltaError]], ...] = (
    (IndexError, IndexOutOfRangeError),        # numpy's AxisError included
    (OverflowError, NumericOverflowError),
    (MemoryError, BackendError),
    ((TypeError, AttributeError), ArgumentError),
    ((ValueError, ArithmeticError), InvalidOperationError),
)


# Note [Raw-error boundary]
# Kernels are not wrapped one by one (a wrapper is one more Python frame on every op call):
# ``raising_volta_errors`` marks the function, and the dispatcher, in the ``except`` block around
# its kernel call (free unless something raised), asks ``as_volta_error`` for the translation.
TRANSLATES_RAW_ERRORS = "__volta_translates_raw_errors__"


def as_volta_error(name: str, error: Exception) -> VoltaError | None:
    """The VoltaError that a raw ``error`` escaping op ``name`` becomes, or None to re-raise it."""
    if isinstance(error, VoltaError):
        return None
    for raw, volta_error in _AS_VOLTA_ERROR:
        if isinstance(error, raw):
            return volta_error(f"{name}(): {error}")
    return None


def raising_volta_errors(name: str, fn: Callable[..., Any]) -> Callable[..., Any]:
    """``fn`` with every raw Python/numpy exception turned into the matching VoltaError when
    the dispatcher calls it (Note [Raw-error boundary]). Only a plain function of its own gets
    the mark; anything else (a ufunc, a bound method, a callable object) may be shared with code
    that wants its errors raw, so it is wrapped instead."""
    if isinstance(fn, types.FunctionType):
        setattr(fn, TRANSLATES_RAW_ERRORS, True)
        return fn

    @functools.wraps(fn)
    def guarded(*args: Any) -> Any:
        try:
            return fn(*args)
        except Exception as e:
            translated = as_volta_error(name, e)
            if translated is None:
                raise
            raise translated from e
    return guarded
