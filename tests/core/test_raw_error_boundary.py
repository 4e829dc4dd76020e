"""The raw-error boundary (Note [Raw-error boundary] in volta/errors.py): a numpy/Python error
escaping a kernel marked with ``raising_volta_errors`` becomes the matching VoltaError naming the
op, translated by the dispatcher (no wrapper frame per kernel); unmarked kernels' errors pass."""

from __future__ import annotations

import uuid
from typing import Any

import numpy as np
import pytest

import volta
from volta.errors import (
    ArgumentError,
    IndexOutOfRangeError,
    InvalidOperationError,
    VoltaError,
    raising_volta_errors,
)


@pytest.fixture
def ns() -> Any:
    with volta.library.scoped():
        yield f"raw{uuid.uuid4().hex[:8]}"


def _raiser(error: Exception) -> Any:
    def kernel(x: Any) -> Any:
        raise error
    return kernel


@pytest.mark.parametrize("raw, translated", [
    (ValueError("bad value"), InvalidOperationError),
    (IndexError("out of range"), IndexOutOfRangeError),
    (TypeError("wrong type"), ArgumentError),
    (np.exceptions.AxisError(3, 2), IndexOutOfRangeError),
])
def test_marked_kernel_raw_error_becomes_volta_error(ns: str, raw: Exception,
                                                     translated: type) -> None:
    name = f"{ns}::boom"
    volta.library.define(f"{name}(Tensor x) -> Tensor")
    volta.library.impl(name, "CPU", raising_volta_errors(name, _raiser(raw)))
    with pytest.raises(translated) as info:
        getattr(volta.ops, ns).boom(volta.ones(2))
    assert str(info.value).startswith(f"{name}(): ")
    assert info.value.__cause__ is raw


def test_unmarked_kernel_errors_pass_unchanged(ns: str) -> None:
    name = f"{ns}::boom"
    volta.library.define(f"{name}(Tensor x) -> Tensor")
    raw = ValueError("a plugin's own error")
    volta.library.impl(name, "CPU", _raiser(raw))
    with pytest.raises(ValueError) as info:
        getattr(volta.ops, ns).boom(volta.ones(2))
    assert info.value is raw and not isinstance(info.value, VoltaError)


def test_volta_errors_are_not_wrapped_again(ns: str) -> None:
    name = f"{ns}::boom"
    volta.library.define(f"{name}(Tensor x) -> Tensor")
    original = IndexOutOfRangeError("already clear")
    volta.library.impl(name, "CPU", raising_volta_errors(name, _raiser(original)))
    with pytest.raises(IndexOutOfRangeError) as info:
        getattr(volta.ops, ns).boom(volta.ones(2))
    assert info.value is original


def test_inplace_kernel_keeps_the_mark_behind_the_version_bump(ns: str) -> None:
    """In-place kernels are cached behind a wrapper that bumps the version counter."""
    name = f"{ns}::boom_"
    volta.library.define(f"{name}(Tensor(a!) x) -> Tensor(a!)")
    volta.library.impl(name, "CPU", raising_volta_errors(name, _raiser(ValueError("no"))))
    with pytest.raises(InvalidOperationError):
        getattr(volta.ops, ns).boom_(volta.ones(2))


def test_builtin_kernel_is_wrapped_when_it_cannot_carry_the_mark() -> None:
    kernel = raising_volta_errors("sqrt_of", np.sqrt)
    assert kernel is not np.sqrt and not hasattr(np.sqrt, "__volta_translates_raw_errors__")
    with pytest.raises(ArgumentError, match=r"sqrt_of\(\)"):
        kernel("not a number")

