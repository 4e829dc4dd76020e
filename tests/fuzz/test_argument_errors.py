"""Classes of error the differential fuzz found in argument binding, factories and kernels:
each must be a VoltaError naming the op, never a raw Python or numpy exception."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

import volta
from volta import ArgumentError, BackendError, NumericOverflowError, ShapeError, VoltaError

t = volta.ones(2, 3)

BINDING_ERRORS: list[tuple[str, Callable[[], Any], str]] = [
    ("bad keyword, function", lambda: volta.add(t, t, foo=1),
     r"^add\(\) got an unexpected keyword argument 'foo'"),
    ("bad keyword, method", lambda: t.add(t, foo=1),
     r"^add\(\) got an unexpected keyword argument 'foo'"),
    ("too many arguments", lambda: volta.neg(t, t), r"^neg\(\) takes 1 positional"),
    ("missing argument", lambda: t.mm(), r"^mm\(\) missing 1 required"),
    ("bool argument", lambda: t.sum(0, keepdim="yes"),
     r"^sum\(\): argument 'keepdim' must be bool, not str"),
    ("int argument", lambda: volta.transpose(t, 0, 1.5),
     r"^transpose\(\): argument 'dim1' (\(position 3\) )?must be int, not float"),
    ("int argument given a bool", lambda: volta.cumsum(t, True),
     r"^cumsum\(\): argument 'dim' (\(position 2\) )?must be int, not bool"),
    ("float argument", lambda: volta.nn.functional.dropout(t, "x"),
     r"^dropout\(\): argument 'p' (\(position 2\) )?must be float, not str"),
    ("str argument", lambda: volta.div(t, t, rounding_mode=1),
     r"^div\(\): argument 'rounding_mode' must be str, not int"),
    ("Tensor argument of a composite", lambda: volta.nn.functional.cosine_similarity(t, "x"),
     r"^cosine_similarity\(\): argument 'x2' \(position 2\) must be Tensor, not str"),
    ("Tensor argument of a kernel", lambda: volta.mm(t, [1.5]),
     r"^mm\(\): argument 'mat2' \(position 2\) must be Tensor, not list"),
]


@pytest.mark.parametrize("call,pattern", [c[1:] for c in BINDING_ERRORS],
                         ids=[c[0] for c in BINDING_ERRORS])
def test_a_call_that_fits_no_schema_is_an_argument_error_naming_the_op(
        call: Callable[[], Any], pattern: str) -> None:
    with pytest.raises(ArgumentError, match=pattern) as info:
        call()
    assert "TensorMethods" not in str(info.value)
    assert isinstance(info.value, TypeError)  # as PyTorch's TypeError


def test_valid_argument_types_are_still_converted() -> None:
    import numpy as np
    assert volta.sum(t, np.int64(1), keepdim=np.bool_(True)).shape == (2, 1)
    assert volta.cumsum(t, volta.tensor(1)).shape == (2, 3)
    assert volta.nn.functional.dropout(t, 0, training=False).shape == (2, 3)


FACTORY_ERRORS: list[tuple[str, Callable[[], Any], type[VoltaError]]] = [
    ("arange beyond int64", lambda: volta.arange(2**63), NumericOverflowError),
    ("linspace bounds beyond int8", lambda: volta.linspace(0, 300, 5, dtype=volta.int8),
     NumericOverflowError),
    ("tensor of an int beyond int64", lambda: volta.tensor([1, 2**63]), NumericOverflowError),
    ("full with an int beyond int64", lambda: volta.full((2,), 2**70, dtype=volta.int64),
     NumericOverflowError),
    ("zeros beyond memory", lambda: volta.zeros(2**40), BackendError),
    ("randn beyond memory", lambda: volta.randn(2**20, 2**20), BackendError),
    ("empty beyond int64 bytes", lambda: volta.empty(2**62), ShapeError),
    ("ones beyond int64 elements", lambda: volta.ones(2**31, 2**31), ShapeError),
    ("eye beyond int64 elements", lambda: volta.eye(2**40), ShapeError),
    ("a dtype by name", lambda: volta.zeros(2, dtype="float32"), volta.DTypeError),
]


@pytest.mark.parametrize("call,error", [c[1:] for c in FACTORY_ERRORS],
                         ids=[c[0] for c in FACTORY_ERRORS])
def test_factories_fail_like_pytorch_before_allocating(call: Callable[[], Any],
                                                       error: type[VoltaError]) -> None:
    with pytest.raises(error):
        call()


def test_factory_values_pytorch_accepts() -> None:
    assert volta.tensor(2**70, dtype=volta.float32).item() == float(2**70)
    assert volta.linspace(0, 2**63, 2).dtype is volta.float32
    assert volta.arange(3, dtype=float).dtype is volta.float64
    assert volta.arange(0.0, 1.0, 2**63).tolist() == [0.0]
    assert volta.tensor([1.5, 2**63]).dtype is volta.float32


@pytest.mark.parametrize("call,raw", [
    (lambda: volta.roll(volta.tensor(1.0), 1, 0), IndexError),
    (lambda: volta.tensor([1]) + 2**70, OverflowError),
], ids=["numpy AxisError", "Python OverflowError"])
def test_no_raw_exception_escapes_a_cpu_kernel(call: Callable[[], Any], raw: type) -> None:
    with pytest.raises(VoltaError) as info:
        call()
    assert isinstance(info.value, raw)  # still the builtin kind PyTorch raises
