"""The pointwise runtime in C (volta/backends/cpu/native/runtime.c): ``prepare`` and
``wrap_as`` give what the Python ones give, for the fast path and everything handed back;
numpy's floating-point errors stay quiet inside kernels and the caller's state comes back.
Under ``VOLTA_NATIVE=0`` the Python functions are installed and the checks hold for them."""

from __future__ import annotations

import warnings
from typing import Any

import numpy as np
import pytest
import torch

import volta
from volta import compiled
from volta.backends.cpu import pointwise_runtime as R
from volta.backends.cpu import storage as S


def describe(t: Any) -> tuple:
    """Everything new_owning_tensor sets, by value."""
    s = t._storage
    return (type(t), t._shape, t._stride, t._offset, t.dtype, t._device, t._ks,
            t._np is s.handle or t._np.base is s.handle, s.numel, s.dtype, s.device, s.backend,
            s.key_mask, s.version, t.numpy().dtype, t.numpy().tolist())


def test_the_compiled_runtime_is_installed_exactly_when_enabled() -> None:
    assert (R._runtime is not None) == compiled.ENABLED
    assert (R.prepare is not R.python_prepare) == compiled.ENABLED
    assert (S.wrap_as is not S.python_wrap_as) == compiled.ENABLED
    assert (S.wrap is not S.python_wrap) == compiled.ENABLED
    assert (S.array is not S.python_array) == compiled.ENABLED


def test_array_gives_what_python_gives() -> None:
    base = volta.arange(6.0).reshape(2, 3)
    for value in (base, base.t(), base[1:], base[:, 1], 2.5, None, "text",
                  volta.ones(2, requires_grad=True)):
        native, python = S.array(value), S.python_array(value)
        if isinstance(value, volta.Tensor):
            assert native.shape == python.shape and native.tolist() == python.tolist()
            assert np.shares_memory(native, python)
        else:
            assert native is python is value


@pytest.mark.parametrize("make", [
    lambda: np.arange(6, dtype=np.float32).reshape(2, 3),    # fresh, owns a reshaped base
    lambda: np.ones((2, 3), np.float32) * 2,                 # fresh, owns its memory
    lambda: np.ones((3, 2), np.float32).T,                   # not C-contiguous
    lambda: np.ones((4, 3), np.float32)[1:3],                # a view of another array
    lambda: np.ones(3, np.float64),                          # needs a cast
    lambda: np.array(2.5, np.float32),                       # 0-d
    lambda: np.ones((0, 3), np.float32),                     # empty
    lambda: np.ma.masked_array(np.ones(2, np.float32)),      # an ndarray subclass
    lambda: [1.0, 2.0],                                      # not an array
])
def test_wrap_as_builds_what_python_builds(make: Any) -> None:
    native = S.wrap_as(make(), volta.float32)
    python = S.python_wrap_as(make(), volta.float32)
    assert describe(native) == describe(python)
    assert (native + 1).tolist() == (python + 1).tolist()


@pytest.mark.parametrize("make", [
    lambda: np.ones((2, 3), np.float32) * 2,
    lambda: np.arange(4, dtype=np.int64) + 1,
    lambda: np.ones(3, np.float16) + 1,
    lambda: np.ones(3, bool) & True,
    lambda: np.ones((3, 2), np.float64).T,
    lambda: np.ones((4, 3), np.int32)[1:3],
    lambda: np.ones(2, np.complex64) + 1,                     # no volta dtype: the same error
    lambda: np.ones(2, np.dtype(">f4")) + 0,                 # another byte order
])
def test_wrap_builds_what_python_builds(make: Any) -> None:
    outcomes = []
    for wrap in (S.wrap, S.python_wrap):
        try:
            outcomes.append(describe(wrap(make())))
        except volta.VoltaError as error:
            outcomes.append((type(error), str(error)))
    assert outcomes[0] == outcomes[1]


def test_wrap_as_result_is_an_ordinary_tensor() -> None:
    t = S.wrap_as(np.arange(6, dtype=np.float32) * 1, volta.float32)
    t.requires_grad_()
    (t * t).sum().backward()
    assert t.grad.tolist() == [0.0, 2.0, 4.0, 6.0, 8.0, 10.0]
    t.label = "extra attributes live in __dict__"
    assert t.label.startswith("extra")


def operand_sets() -> list[tuple]:
    f = volta.ones(2, 3)
    g = volta.full((2, 3), 2.0)
    return [
        ("add", "default", None, f, g),
        ("add", "default", None, f, f.t().t()),
        ("add", "default", None, f, volta.ones(3)),                      # broadcast
        ("add", "default", None, f, 2),                                  # a number
        ("add", "default", None, f, volta.ones(2, 3, dtype=volta.float64)),
        ("add", "default", None, volta.ones(2, dtype=volta.float16), volta.ones(2, dtype=volta.float16)),
        ("sub", "default", "numeric", volta.ones(2, dtype=volta.bool), volta.ones(2, dtype=volta.bool)),
        ("sub", "default", "numeric", f, g),
        ("square", "default", None, volta.ones(2, dtype=volta.bool)),
        ("exp", "int_to_float", None, volta.ones(2, dtype=volta.int64)),
        ("mul", "default", None, f.t(), g.t()),                          # views
        ("mul", "default", None, f, volta.ones(3, 2)),                   # shapes do not fit
        ("abs", "default", "numeric", volta.ones(2, dtype=volta.int32)),
    ]


@pytest.mark.parametrize("index", range(13))
def test_prepare_gives_what_python_gives(index: int) -> None:
    operands = operand_sets()[index]
    outcomes = []
    for prepare in (R.prepare, R.python_prepare):
        try:
            arrays, dtype = prepare(*operands)
            outcomes.append(([None if a is None else (np.asarray(a).dtype, np.asarray(a).tolist())
                              for a in arrays], dtype))
        except volta.VoltaError as error:
            outcomes.append((type(error), str(error)))
    assert outcomes[0] == outcomes[1]


def test_float_overflow_and_invalid_stay_quiet_and_the_callers_state_returns() -> None:
    big = volta.full((3,), 3e38)
    inf = volta.full((3,), float("inf"))
    before = np.geterr()
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        with np.errstate(all="raise"):
            assert volta.add(big, big).tolist() == torch.add(torch.full((3,), 3e38),
                                                             torch.full((3,), 3e38)).tolist()
            assert np.isnan(volta.sub(inf, inf).numpy()).all()
            assert volta.mul(big, big).tolist() == [float("inf")] * 3
            with pytest.raises(volta.VoltaError):
                volta.add(big, volta.ones(2))  # an error inside the quiet region
            assert np.geterr()["over"] == "raise"
            with pytest.raises(FloatingPointError):
                np.float32(3e38) * np.float32(10)
    assert np.geterr() == before
