"""Pointwise ops and factories that the differential fuzz found disagreeing with PyTorch:
each call runs through PyTorch and volta, and both must accept with equal results or both
reject (volta with a VoltaError)."""
from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

import numpy as np
import pytest
import torch

import volta
from volta.errors import VoltaError


def _run(fn: Callable[[], Any]) -> tuple[Any, BaseException | None]:
    try:
        return fn(), None
    except Exception as error:  # noqa: BLE001 - the error itself is compared
        return None, error


def _numpy(result: Any) -> np.ndarray:
    if isinstance(result, torch.Tensor):
        return result.detach().to(torch.float64 if result.is_floating_point() else result.dtype).numpy()
    return np.asarray(volta.tensor(result).to(volta.float64).tolist()
                      if result.dtype.is_floating_point else result.tolist())


def assert_agree(torch_call: Callable[[], Any], volta_call: Callable[[], Any]) -> None:
    expected, torch_error = _run(torch_call)
    actual, volta_error = _run(volta_call)
    if torch_error is not None:
        assert volta_error is not None, f"PyTorch rejects ({torch_error}), volta accepts"
        assert isinstance(volta_error, VoltaError), f"raw error: {volta_error!r}"
        return
    assert volta_error is None, f"volta rejects ({volta_error!r}), PyTorch accepts"
    assert tuple(actual.shape) == tuple(expected.shape)
    assert str(actual.dtype).split(".")[-1] == str(expected.dtype).split(".")[-1]
    np.testing.assert_allclose(_numpy(actual), _numpy(expected), rtol=1e-6, equal_nan=True)


ARANGE_CASES = [
    (-2.2250738585e-313, -8.802247639976839, -2.2250738585e-313),  # quotient overflows to inf
    (0, 1, 1e-320),
    (0, 1e300, 1e-300),
    (-4, -1.6484524795633514e-242, math.inf),  # an infinite step is a valid (empty) range
    (0, 5, math.inf),
    (5, 5, math.inf),
    (0, 5, 1e300),
    (5, 0, math.inf),
    (0, 5, -math.inf),
    (0, 5, math.nan),  # a NaN step is not "nonzero"
    (math.nan, 5, 1),
    (0, math.inf, 1),
    (-(2**63) + 1, 2**63 - 1, 1),  # exact int64 size too large
    (10, 0, -3),
]


@pytest.mark.parametrize("bounds", ARANGE_CASES, ids=str)
def test_arange_bounds_and_size(bounds: tuple) -> None:
    assert_agree(lambda: torch.arange(*bounds), lambda: volta.arange(*bounds))
