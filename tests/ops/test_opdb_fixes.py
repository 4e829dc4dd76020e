"""Values and gradients that op_db found differing from PyTorch's, each checked against
PyTorch directly (the op_db suite, tests/opdb, runs the same entries with more samples)."""

from __future__ import annotations

import numpy as np
import pytest
import torch

import volta


def _close(actual: volta.Tensor, expected: torch.Tensor, tol: float = 1e-6) -> None:
    assert str(actual.dtype).rsplit(".", 1)[-1] == str(expected.dtype).rsplit(".", 1)[-1]
    assert tuple(actual.shape) == tuple(expected.shape)
    np.testing.assert_allclose(actual.detach().numpy(), expected.detach().numpy(), rtol=tol,
                               atol=tol)


# -- integer ranges ------------------------------------------------------------------------------


@pytest.mark.parametrize("args", [(0, 5, 1.5), (0.5, 5, 1), (-2.5, 3, 1.3), (7.9, 0, -2.2),
                                  (0, 3.7)])
@pytest.mark.parametrize("dtype", ["int64", "int32", "int16"])
def test_an_integer_arange_truncates_its_bounds_first(args: tuple, dtype: str) -> None:
    expected = torch.arange(*args, dtype=getattr(torch, dtype))
    _close(volta.arange(*args, dtype=getattr(volta, dtype)), expected)


def test_an_integer_arange_whose_step_truncates_to_zero_raises() -> None:
    with pytest.raises((RuntimeError, ValueError), match="step must be nonzero"):
        torch.arange(0, 64, 0.5, dtype=torch.int64)
    with pytest.raises(volta.VoltaError, match="step must be nonzero"):
        volta.arange(0, 64, 0.5, dtype=volta.int64)
