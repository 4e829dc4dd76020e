"""volta.testing.assert_close against torch.testing.assert_close: the same verdicts and messages."""

from __future__ import annotations

import numpy as np
import pytest
import torch
from torch.testing import assert_close as torch_assert_close

import volta
import volta.testing
from volta.errors import VoltaError


def _cases(lib):
    T = lib.tensor
    return {
        "equal": lambda ac: ac(T([1.0, 2.0]), T([1.0, 2.0])),
        "within tolerance": lambda ac: ac(T([1.0, 2.0]), T([1.0, 2.0 + 1e-6])),
        "close": lambda ac: ac(T([1.0, 2.0, 3.0]), T([1.0, 2.5, 3.0])),
        "2d": lambda ac: ac(T([[1.0, 2.0], [3.0, 4.0]]), T([[1.0, 2.0], [3.5, 4.0]])),
        "shape": lambda ac: ac(lib.ones(2), lib.ones(3)),
        "dtype": lambda ac: ac(lib.ones(2), lib.ones(2, dtype=lib.float64)),
        "scalar": lambda ac: ac(1.0, 1.5),
        "int": lambda ac: ac(1, 2),
        "int and float": lambda ac: ac(1, 1.0),
        "nan": lambda ac: ac(T([float("nan")]), T([float("nan")])),
        "equal_nan": lambda ac: ac(T([float("nan")]), T([float("nan")]), equal_nan=True),
        "list": lambda ac: ac([lib.ones(2), lib.zeros(1)], [lib.ones(2), lib.ones(1)]),
        "dict": lambda ac: ac({"a": lib.ones(2)}, {"a": lib.ones(2) * 2}),
        "dict keys": lambda ac: ac({"a": lib.ones(2)}, {"b": lib.ones(2)}),
        "list lengths": lambda ac: ac([1, 2], [1, 2, 3]),
        "nested": lambda ac: ac([1.0, [lib.ones(1)]], [1.0, [lib.zeros(1)]]),
        "int tensors": lambda ac: ac(T([1, 2]), T([1, 3])),
        "bool": lambda ac: ac(T([True]), T([False])),
        "msg": lambda ac: ac(lib.ones(2), lib.zeros(2), msg="custom"),
        "callable msg": lambda ac: ac(T([1.0]), T([2.0]), msg=lambda m: "X " + m.splitlines()[0]),
        "stride": lambda ac: ac(lib.ones(2, 3).t(), lib.ones(3, 2), check_stride=True),
        "opposite infinities": lambda ac: ac(T([float("inf")]), T([float("-inf")])),
        "same infinity": lambda ac: ac(T([float("inf")]), T([float("inf")])),
        "finite against inf": lambda ac: ac(T([1e30]), T([float("inf")])),
        "several": lambda ac: ac(lib.arange(10.0),
                                 lib.arange(10.0) + T([0, 0, 0, 1.0, 0, 0, 0, 0, 2, 0])),
        "0-d": lambda ac: ac(T(1.0), T(2.0)),
        "numpy": lambda ac: ac(np.ones(2), np.zeros(2)),
        "float16": lambda ac: ac(T([1.0], dtype=lib.float16), T([1.001], dtype=lib.float16)),
        "no dtype check": lambda ac: ac(lib.ones(2), lib.ones(2, dtype=lib.float64) * 1.0000001,
                                        check_dtype=False),
        "requires grad": lambda ac: ac(lib.ones(2, requires_grad=True), lib.ones(2)),
        "explicit tolerances": lambda ac: ac(T([1.0]), T([1.1]), rtol=0.2, atol=0.0),
    }


def _outcome(assert_close, case) -> str:
    try:
        case(assert_close)
    except AssertionError as error:
        return f"AssertionError: {error}"
    return "ok"


@pytest.mark.parametrize("name", list(_cases(torch)))
def test_same_verdict_and_message_as_torch(name: str) -> None:
    expected = _outcome(torch_assert_close, _cases(torch)[name]).replace("torch.", "volta.")
    assert _outcome(volta.testing.assert_close, _cases(volta)[name]) == expected


@pytest.mark.parametrize("call", [
    lambda ac, lib: ac(lib.ones(2), np.ones(2)),
    lambda ac, lib: ac("a", "a"),
    lambda ac, lib: ac(lib.ones(2), lib.ones(2), rtol=1e-3),
], ids=["tensor-vs-array", "strings", "rtol-only"])
def test_rejects_what_torch_rejects(call) -> None:
    with pytest.raises((TypeError, ValueError)):
        call(torch_assert_close, torch)
    with pytest.raises(VoltaError):
        call(volta.testing.assert_close, volta)
