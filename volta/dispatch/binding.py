"""Turning what a Python caller passed into what kernels receive.

Generated op functions call these to normalise list arguments (``stride=1`` -> ``(1, 1)``),
dtypes and devices, and to pick an overload when one function name has several schemas.
"""

from __future__ import annotations

import functools
import numbers
import operator
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any, Union  # Union: the DeviceLike alias needs a forward ref

import numpy as np

from volta import compiled
from volta import dtypes as D
from volta.dispatch import dispatcher as _dispatcher
from volta.errors import ArgumentError, InvalidArgumentError, VoltaError

if TYPE_CHECKING:
    from volta.device import device as _device_t
    from volta.tensor.tensor import Tensor  # noqa: F401 - the generated modules import it from here

Number = int | float | bool
DeviceLike = Union[str, "_device_t"]
Generator = Any
dtype = D.dtype


# exact classes a binary operator accepts without further checks (Tensor is added at import)
FAST_OPERANDS: set[type] = {int, float, bool}
# the Tensor class itself (added at import): a Tensor-only argument of that class needs no check
TENSOR_TYPES: set[type] = set()

# Note [Numbers as tensors]
# PyTorch's Python API takes a Python number for a Tensor argument only where an overload has a
# Scalar there (torch.eq(t, 2), torch.add(2, t)); torch.maximum(t, 2) and torch.eq(2, t) raise
# "argument 'other' (position 2) must be Tensor, not int". volta's pointwise ops have one
# Tensor overload, so ops.yaml's ``numbers:`` lists the Tensor arguments that take numbers; the
# generated function checks the others inline (``tensor_arg``). Without ``numbers:`` every
# Tensor argument of a pointwise op takes numbers.


# makes the 0-d tensor of a Python number (factories.tensor; set by volta._wiring, the seam)
NUMBER_TO_TENSOR: Callable[[Any], Any] | None = None


def wrapped_number(value: Any, other: Any) -> Any:
    """``value`` as a 0-d tensor on the default device where neither operand of an
    ``only_numbers`` op is a tensor (PyTorch's ``torch.add(1, 2)`` is ``tensor(3)``: int64,
    bool or the default float dtype, as ``volta.tensor`` infers); otherwise ``value``."""
    tensor = _tensor_type()
    if isinstance(value, tensor) or isinstance(other, tensor) or not isinstance(
            value, (numbers.Number, np.bool_)) or not isinstance(other, (numbers.Number,
                                                                         np.bool_)):
        return value
    return NUMBER_TO_TENSOR(value)  # type: ignore[misc]


def _tensor_type() -> type:
    return _dispatcher._TENSOR_TYPE  # type: ignore[return-value]


def is_operand(value: Any) -> bool:
    """What binary operators accept on their other side."""
    return isinstance(value, (_tensor_type(), numbers.Number, np.bool_))


def int_list(value: Any, size: int, name: str) -> Any:
    if value is None:
        return None
    if value.__class__ is tuple and size <= 1:
        for v in value:  # a loop, not all(<generator>): this runs on every view/reshape call
            if v.__class__ is not int:
                break
        else:
            return value  # the common case: sizes already a tuple of ints (x.view(2, 3))
    if isinstance(value, (int, np.integer)) and not isinstance(value, bool):
        return (int(value),) * (size or 1)
    tensor = _tensor_type()
    if isinstance(value, tensor):
        if value.ndim == 0:
            return (list_int(value, name, 0),) * (size or 1)
        value = value.tolist()
    try:
        items = list(value)
    except TypeError:
        raise ArgumentError(f"argument {name!r} must be an int or a sequence of ints, got "
                            f"{value!r}") from None
    result = tuple([list_int(v, name, i) for i, v in enumerate(items)])
    # int[N] takes an int or N values; int[1] (like int[]) takes any number of values;
    # an empty list stays empty (e.g. pooling's stride=[] meaning "same as kernel_size")
    if size > 1 and len(result) == 1:
        return result * size
    if size > 1 and len(result) not in (0, size):
        raise ArgumentError(f"argument {name!r} must have {size} elements, got {len(result)}")
    return result


def list_int(value: Any, name: str, position: int) -> int:
    """One element of an ``int[]`` argument: an int, a numpy integer or a one-element integer
    tensor; a float or a bool is rejected as PyTorch's parser rejects it (never truncated)."""
    if value.__class__ is int:
        return value
    if not isinstance(value, (bool, np.bool_)):
        try:
            return operator.index(value)
        except TypeError:
            pass
    raise ArgumentError(f"argument {name!r} must be tuple of ints, but found element of type "
                        f"{type(value).__name__} at pos {position}")


def tensor_list(value: Any, name: str) -> tuple:
    tensor = _tensor_type()
    if isinstance(value, tensor) or not isinstance(value, Sequence):
        raise ArgumentError(f"argument {name!r} must be a sequence of Tensors, got "
                          f"{type(value).__name__}")
    return tuple(value)


def dtype_arg(value: Any) -> D.dtype | None:
    """A ``dtype=`` argument: a volta dtype or, as in PyTorch, ``float``/``int``/``bool``."""
    return None if value is None else D.dtype_argument(value)


def _wrong_type(value: Any, expected: str, name: str, op: str) -> ArgumentError:
    return ArgumentError(f"{op}(): argument '{name}' must be {expected}, not "
                         f"{type(value).__name__}")


def tensor_arg(value: Any, name: str, position: int, op: str) -> None:
    """Reject a value that is not a Tensor where only a Tensor goes (Note [Numbers as
    tensors]); generated code calls this only when ``value`` is not exactly a Tensor."""
    if not isinstance(value, _tensor_type()):
        raise ArgumentError(f"{op}(): argument '{name}' (position {position}) must be Tensor, "
                            f"not {type(value).__name__}")


def method_self(value: Any, method: str) -> None:
    """A Tensor method called unbound (``Tensor.__radd__(2, t)``) on something else."""
    if not isinstance(value, _tensor_type()):
        raise ArgumentError(f"descriptor '{method}' for 'volta.Tensor' objects doesn't apply to "
                            f"a '{type(value).__name__}' object")


# Note [Explicit None]
# PyTorch's argument parser takes None only for an optional argument (``int? dim=None``); a
# non-optional one with a default (``int dim=-1``, ``bool keepdim=False``) rejects an explicit
# None ("argument 'dim' must be int, not NoneType"). Generated code skips these checks for None
# only where the schema says ``?``, so the functions below always reject None. Where PyTorch
# declares the call without an argument as a separate overload (``prod(t)`` and
# ``prod(t, int dim)``), volta's one schema has it optional and ops.yaml lists it in
# ``none_by_omission``: its default is ``OMITTED``, and an explicit None is rejected.

class _Omitted:
    """The default of an argument that ops.yaml lists in ``none_by_omission``."""

    def __repr__(self) -> str:
        return "<omitted>"


OMITTED: Any = _Omitted()


def reject_none(name: str, expected: str, op: str) -> None:
    """An explicit None for an argument that is None only when left out (Note [Explicit
    None]), with PyTorch's message."""
    raise ArgumentError(f"{op}(): argument '{name}' must be {expected}, not NoneType")


INT64_MIN = -(2**63)
INT64_MAX = 2**63 - 1


def int_arg(value: Any, name: str, op: str) -> int:
    """An ``int`` argument: ints, numpy integers and one-element integer tensors, not bools;
    int64 like PyTorch's (a Python int outside fails to unpack)."""
    if not isinstance(value, (bool, np.bool_)) and value is not None:
        try:
            result = operator.index(value)
        except TypeError:
            pass
        else:
            if not INT64_MIN <= result <= INT64_MAX:
                raise InvalidArgumentError(f"{op}(): argument '{name}' must fit in int64: "
                                           f"Overflow when unpacking long long")
            return result
    raise _wrong_type(value, "int", name, op)


def float_arg(value: Any, name: str, op: str) -> float | int:
    """A ``float`` argument: any real number or one-element tensor not of dtype bool; a Python
    bool is 0.0 or 1.0, as PyTorch's parser takes it (``isclose(a, b, 0.0, True)``)."""
    if isinstance(value, (bool, np.bool_)):
        return float(value)
    if isinstance(value, numbers.Real):
        return value
    if isinstance(value, _tensor_type()) and value.numel() == 1 and value.dtype is not D.bool_:
        return value.item()
    raise _wrong_type(value, "float", name, op)


def bool_arg(value: Any, name: str, op: str) -> bool:
    if isinstance(value, np.bool_):
        return bool(value)
    raise _wrong_type(value, "bool", name, op)


def str_arg(value: Any, name: str, op: str) -> str:
    raise _wrong_type(value, "str", name, op)


def device_arg(value: Any) -> str | None:
    return None if value is None else str(value)


def varargs(values: tuple) -> tuple:
    """``t.view(2, 3)`` and ``t.view((2, 3))`` mean the same."""
    if values.__class__ is tuple and (len(values) != 1 or values[0].__class__ is int):
        return values  # t.view(2, 3), t.view(-1): already the tuple of sizes
    if isinstance(values[0], (list, tuple)):
        return tuple(values[0])
    if len(values) == 1 and isinstance(values[0], _tensor_type()):
        return tuple(values[0].tolist())
    return tuple(values)


def _matches(arg: Any, value: Any, number_ok: bool = False) -> bool:
    t = arg.type
    if value is None:
        return t.optional or (arg.has_default and arg.default_value is None)
    tensor = _tensor_type()
    if t.is_list:
        if t.base == "Tensor":
            return isinstance(value, (list, tuple))
        if t.base == "Scalar":  # numbers only, so a list of tensors picks a Tensor[] overload
            return isinstance(value, (list, tuple)) and all(
                isinstance(v, numbers.Number) for v in value)
        return (isinstance(value, (list, tuple, int, np.integer))
                and not isinstance(value, bool))
    base = t.base
    if base == "Tensor":
        # pointwise ops take Python numbers where a tensor is expected (wrapped numbers)
        return isinstance(value, tensor) or (number_ok and isinstance(value, numbers.Number))
    if base in ("int", "SymInt"):
        return isinstance(value, (int, np.integer)) and not isinstance(value, bool)
    if base == "float":
        return isinstance(value, (int, float, np.number)) and not isinstance(value, bool)
    if base == "bool":
        return isinstance(value, (bool, np.bool_))
    if base == "Scalar":
        return isinstance(value, (numbers.Number, np.bool_)) or (
            isinstance(value, tensor) and value.ndim == 0)
    if base == "str":
        return isinstance(value, str)
    if base == "ScalarType":
        return isinstance(value, D.dtype) or value in (float, int, bool)
    return True


def takes_numbers(op: Any, arg: Any, inplace_too: bool = False) -> bool:
    """Whether ``op``'s Tensor argument ``arg`` takes a Python number (Note [Numbers as
    tensors]); with ``inplace_too``, also an op tagged "inplace" only (the in-place variants
    of pointwise ops), for messages: choosing an overload takes numbers for pointwise ops only."""
    if "pointwise" not in op.tags and not (inplace_too and "inplace" in op.tags):
        return False
    numbers = op.info.numbers
    return numbers is None or arg.name in numbers


# op -> (number of positional arguments, per argument: (argument, kwarg_only, has_default,
# takes numbers)): what ``bind`` reads of a schema, worked out once per op
_BIND_PLANS: dict[Any, tuple[int, tuple]] = {}


def _bind_plan(op: Any) -> tuple[int, tuple]:
    plan = _BIND_PLANS.get(op)
    if plan is None:
        schema_args = op.schema.arguments
        plan = _BIND_PLANS[op] = (
            sum(1 for a in schema_args if not a.kwarg_only),
            tuple((a, a.kwarg_only, a.has_default, takes_numbers(op, a)) for a in schema_args))
    return plan


def bind(op: Any, args: tuple, kwargs: dict) -> tuple | None:
    """Positional arguments in schema order, or None when the call does not fit ``op``."""
    n_positional, plan = _bind_plan(op)
    n_args = len(args)
    if n_args > n_positional:
        return None
    values: list[Any] = []
    used = 0
    for i, (a, kwarg_only, has_default, number_ok) in enumerate(plan):
        if not kwarg_only and i < n_args:
            v = args[i]
            if kwargs and (a.name in kwargs or (a.name == "self" and "input" in kwargs)):
                return None
        elif kwargs and (key := "input" if a.name == "self" and "input" in kwargs
                         else a.name) in kwargs:
            v = kwargs[key]
            used += 1
        elif has_default:
            v = a.default_value
        else:
            return None
        if not _matches(a, v, number_ok):
            return None
        values.append(_normalise(a, v, op))
    if used != len(kwargs):
        return None
    return tuple(values)


def _normalise(arg: Any, value: Any, op: Any) -> Any:
    t = arg.type
    if t.base in ("int", "SymInt") and not t.is_list and value is not None:
        return int_arg(value, arg.name, op.schema.name.name)  # int64, as for one overload
    if t.is_list and t.base in ("int", "SymInt"):
        return int_list(value, t.list_size or 0, arg.name)
    if t.is_list and t.base == "Tensor":
        return None if value is None else tuple(value)
    if t.base == "ScalarType":
        return dtype_arg(value)
    if t.base == "Device":
        return device_arg(value)
    return value


_NAMED_RESULTS: dict[tuple, type] = {}


def named_result(op_name: str, fields: tuple[str, ...], values: Any) -> Any:
    """PyTorch's ``torch.return_types``: ``x.max(1).indices``, ``topk(...).values``."""
    key = (op_name, fields)
    cls = _NAMED_RESULTS.get(key)
    if cls is None:
        import collections
        cls = _NAMED_RESULTS[key] = collections.namedtuple(op_name, fields)  # type: ignore
        cls.__module__ = "volta.return_types"
    return cls(*values)


def call_overloaded(ops: tuple, args: tuple, kwargs: dict, name: str) -> Any:
    """Call the first overload whose schema the arguments fit (PyTorch's Python arg parser)."""
    for op in ops:
        bound = bind(op, args, kwargs)
        if bound is not None:
            result = op(*bound)
            schema = op.schema
            if schema.returns_tuple and all(r.name for r in schema.returns):
                return named_result(name, tuple(r.name for r in schema.returns), result)
            return result
    got = ", ".join([type(a).__name__ for a in args] + [f"{k}={type(v).__name__}"
                                                         for k, v in kwargs.items()])
    options = "\n  ".join(str(op.schema) for op in ops)
    raise ArgumentError(f"{name}() received an invalid combination of arguments: got ({got}); "
                      f"expected one of:\n  {options}")


# Python names the types a schema argument takes, for messages like PyTorch's
_TYPE_NAMES = {"Tensor": "Tensor", "int": "int", "SymInt": "int", "float": "float",
               "bool": "bool", "Scalar": "Number", "str": "str", "ScalarType": "volta.dtype"}


def _type_name(arg: Any) -> str:
    t = arg.type
    name = _TYPE_NAMES.get(t.base, t.base)
    return f"tuple of {name}s" if t.is_list else name


def _mismatch(ops: tuple, name: str, args: tuple, kwargs: dict, method: bool = False
              ) -> str | None:
    """PyTorch's message for the first argument whose type fits no overload, or None. A
    method's positions count from the argument after self, as PyTorch's do."""
    if not ops:
        return None
    op = ops[0]
    positional = [a for a in op.schema.arguments if not a.kwarg_only]
    by_name = {("input" if a.name == "self" else a.name): a for a in op.schema.arguments}
    for i, (arg, value) in enumerate(zip(positional, args)):
        if not _matches(arg, value, takes_numbers(op, arg, True)):
            shown = "input" if arg.name == "self" else arg.name
            return (f"{name}(): argument '{shown}' (position {i + 1 - method}) must be "
                    f"{_type_name(arg)}, not {type(value).__name__}")
    for key, value in kwargs.items():
        arg = by_name.get(key) or by_name.get("self" if key == "input" else key)
        if arg is None:
            return f"{name}() got an unexpected keyword argument '{key}'"
        if not _matches(arg, value, takes_numbers(op, arg, True)):
            return (f"{name}(): argument '{key}' must be {_type_name(arg)}, "
                    f"not {type(value).__name__}")
    return None


def _python_binding_error(error: Exception) -> bool:
    """Whether ``error`` came from Python binding a call to the function that was called
    (arity, keywords), not from the function's body."""
    return (isinstance(error, TypeError) and not isinstance(error, VoltaError)
            and error.__traceback__ is not None and error.__traceback__.tb_next is None)


def python_arguments(fn: Callable[..., Any]) -> Callable[..., Any]:
    """Wrap a hand-written API function (a factory such as ``arange``) so that a call its
    signature does not take raises :class:`ArgumentError` naming the function, as PyTorch's
    argument parser does, not Python's TypeError. Valid calls pay one frame."""
    name = fn.__name__

    @functools.wraps(fn)
    def call(*args: Any, **kwargs: Any) -> Any:
        try:
            return fn(*args, **kwargs)
        except TypeError as e:
            if not _python_binding_error(e):
                raise
            message = str(e).split("() ", 1)[-1]
            raise ArgumentError(f"{name}() {message}") from None
    return call


# the dispatcher's compiled module also holds checked's wrapper (Checked)
_native = compiled.load("volta.dispatch.native._dispatch")


def checked(*ops: Any, method: bool = False) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    """Wrap a generated op function or method so that a call that does not fit its schema
    raises :class:`ArgumentError` naming the op (``add()``), as PyTorch's argument parser does,
    instead of Python's TypeError about ``TensorMethods.add`` or an AttributeError from deep
    inside a kernel. Arguments are checked only after a failure: valid calls pay one frame (no
    frame with the compiled wrapper, ``Checked`` in volta/dispatch/native/dispatch.c)."""
    def wrap(fn: Callable[..., Any]) -> Callable[..., Any]:
        name = fn.__name__

        def on_error(error: Exception, binding_candidate: bool, args: tuple,
                     kwargs: dict) -> Exception | None:
            """What replaces ``error`` (None: it stands). ``binding_candidate``: no frame of
            ``fn`` ran, so a TypeError came from Python binding the call (arity, keywords)."""
            if binding_candidate and isinstance(error, TypeError) \
                    and not isinstance(error, VoltaError):
                message = str(error).split("() ", 1)[-1]
                return ArgumentError(f"{name}() {message}")
            message = _mismatch(ops, name, args, kwargs, method)
            return None if message is None else ArgumentError(message)

        if _native is not None:
            return functools.wraps(fn)(_native.Checked(fn, on_error))

        @functools.wraps(fn)
        def call(*args: Any, **kwargs: Any) -> Any:
            try:
                return fn(*args, **kwargs)
            except (TypeError, AttributeError, ValueError) as e:
                # raised in this frame itself (no deeper one): while Python bound the call
                replacement = on_error(e, e.__traceback__.tb_next is None, args, kwargs)
                if replacement is None:
                    raise
                raise replacement from None
        return call
    return wrap
