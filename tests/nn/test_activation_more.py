"""Hardtanh, SELU, Softmin, Softmax2d, LogSigmoid and Softsign against PyTorch: repr, outputs,
input gradients, the in-place variants and PyTorch's errors."""

from __future__ import annotations

import numpy as np
import pytest
import torch

import volta
from tests.nn.parity import close, layer_matches_torch, raises_like_torch, to_volta

CASES = [
    ("Hardtanh", (), {}, (4, 5)),
    ("Hardtanh", (-0.5, 2.0), {"inplace": False}, (4, 5)),
    ("SELU", (), {}, (4, 5)),
    ("Softmin", (), {}, (3, 4)),
    ("Softmin", (0,), {}, (3, 4, 2)),
    ("Softmax2d", (), {}, (2, 3, 4, 4)),
    ("Softmax2d", (), {}, (3, 4, 4)),
    ("LogSigmoid", (), {}, (4, 5)),
    ("Softsign", (), {}, (4, 5)),
]


@pytest.mark.parametrize(("name", "args", "kwargs", "shape"), CASES,
                         ids=[f"{c[0]}-{i}" for i, c in enumerate(CASES)])
def test_activation_matches_torch(name: str, args: tuple, kwargs: dict, shape: tuple) -> None:
    x = np.random.default_rng(0).standard_normal(shape) * 2
    layer_matches_torch(name, args, kwargs, [x])


@pytest.mark.parametrize("name", ["Hardtanh", "SELU"])
def test_inplace_variants_write_into_the_input(name: str) -> None:
    x = np.random.default_rng(2).standard_normal((3, 4)).astype(np.float32)
    t, v = torch.tensor(x), volta.tensor(x)
    t_layer, v_layer = getattr(torch.nn, name)(inplace=True), getattr(volta.nn, name)(inplace=True)
    assert repr(v_layer) == repr(t_layer)
    t_layer(t)
    v_layer(v)
    close(v, t, 1e-6, 1e-6)  # float32: PyTorch's own tolerance


def test_hardtanh_deprecated_spellings_and_bad_limits() -> None:
    with pytest.warns(FutureWarning):
        layer = volta.nn.Hardtanh(min_value=-2.0, max_value=3.0)
    assert repr(layer) == "Hardtanh(min_val=-2.0, max_val=3.0)"
    raises_like_torch(lambda nn: nn.nn.Hardtanh(1.0, 1.0))


def test_softmax2d_rejects_other_ranks_like_torch() -> None:
    x = torch.zeros(2, 3)
    raises_like_torch(lambda lib: lib.nn.Softmax2d()(x if lib is torch else to_volta(x)))


def test_float32_matches_torch() -> None:
    x = np.random.default_rng(3).standard_normal((2, 3, 4, 4)).astype(np.float32)
    for name in ("Hardtanh", "SELU", "Softmin", "Softmax2d", "LogSigmoid", "Softsign"):
        t_out = getattr(torch.nn, name)()(torch.tensor(x))
        v_out = getattr(volta.nn, name)()(volta.tensor(x))
        assert v_out.dtype == volta.float32
        close(v_out, t_out, 1.3e-6, 1e-5)
