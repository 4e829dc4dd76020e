"""``volta.nn.init.dirac_`` and ``sparse_`` against PyTorch, and PyTorch's deprecated
un-suffixed names (``nn.init.uniform``...) with their FutureWarning."""

from __future__ import annotations

import numpy as np
import pytest
import torch

import volta
from tests.nn.parity import raises_like_torch


@pytest.mark.parametrize(("shape", "groups"), [((4, 3, 3), 1), ((6, 2, 3, 4), 2),
                                               ((2, 4, 3, 3, 3), 1), ((4, 2, 1, 2), 4)])
def test_dirac_matches_torch(shape: tuple, groups: int) -> None:
    v = volta.nn.init.dirac_(volta.empty(*shape), groups)
    t = torch.nn.init.dirac_(torch.empty(*shape), groups)
    np.testing.assert_array_equal(v.numpy(), t.numpy())


def test_dirac_convolution_is_the_identity() -> None:
    conv = volta.nn.Conv2d(3, 3, 3, padding=1, bias=False)
    volta.nn.init.dirac_(conv.weight)
    x = volta.randn(2, 3, 5, 5)
    np.testing.assert_allclose(conv(x).detach().numpy(), x.numpy(), atol=1e-6)


def test_sparse_zeroes_the_same_count_per_column() -> None:
    volta.manual_seed(0)
    t = volta.nn.init.sparse_(volta.empty(10, 6), 0.25, std=0.5)
    zeros = (t.numpy() == 0).sum(axis=0)
    np.testing.assert_array_equal(zeros, np.full(6, 3))  # ceil(0.25 * 10)
    assert 0.2 < t.numpy()[t.numpy() != 0].std() < 1.0


@pytest.mark.parametrize("call", [
    lambda lib: lib.nn.init.dirac_(lib.empty(3, 3)),
    lambda lib: lib.nn.init.dirac_(lib.empty(3, 3, 3), groups=2),
    lambda lib: lib.nn.init.sparse_(lib.empty(3, 3, 3), 0.1),
])
def test_dirac_and_sparse_errors_like_torch(call: object) -> None:
    raises_like_torch(call)


@pytest.mark.parametrize("name", ["uniform", "normal", "xavier_uniform", "xavier_normal",
                                  "kaiming_uniform", "kaiming_normal", "orthogonal", "eye"])
def test_deprecated_names_warn_and_initialise_like_torch(name: str) -> None:
    with pytest.warns(FutureWarning, match=f"nn.init.{name}_"):
        out = getattr(volta.nn.init, name)(volta.zeros(4, 5))
    assert out.numpy().any()
    with pytest.warns(FutureWarning):
        getattr(torch.nn.init, name)(torch.zeros(4, 5))
    with pytest.warns(FutureWarning):
        constant = volta.nn.init.constant(volta.zeros(2), 3.0)
    np.testing.assert_array_equal(constant.numpy(), [3.0, 3.0])
