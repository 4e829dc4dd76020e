"""The padding layers (Zero/Constant/Reflection/Replication/CircularPad 1-3d) against
PyTorch: repr, outputs and input gradients for batched and unbatched inputs, int and tuple
paddings (negative ones crop), and PyTorch's errors for wrong ranks."""

from __future__ import annotations

import numpy as np
import pytest
import torch

import volta
from tests.nn.parity import layer_matches_torch, raises_like_torch, to_volta

KINDS = ["ZeroPad", "ConstantPad", "ReflectionPad", "ReplicationPad", "CircularPad"]
PADDINGS = {1: [2, (1, 2), (-1, 2)], 2: [1, (1, 0, 2, 1), (2, -1, 0, 1)],
            3: [1, (1, 0, 2, 1, 0, 2), (1, 1, -1, 0, 2, 0)]}


def _args(kind: str, padding: object) -> tuple:
    return (padding, 1.5) if kind == "ConstantPad" else (padding,)


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("dims", [1, 2, 3])
@pytest.mark.parametrize("which", [0, 1, 2])
@pytest.mark.parametrize("batched", [True, False])
def test_padding_matches_torch(kind: str, dims: int, which: int, batched: bool) -> None:
    padding = PADDINGS[dims][which]
    shape = (2, 3) + (4, 3, 5)[:dims] if batched else (3,) + (4, 3, 5)[:dims]
    x = np.random.default_rng(dims).standard_normal(shape)
    layer_matches_torch(f"{kind}{dims}d", _args(kind, padding), {}, [x])


@pytest.mark.parametrize("kind", ["ReflectionPad", "ReplicationPad", "CircularPad"])
@pytest.mark.parametrize("dims", [1, 2, 3])
def test_non_constant_padding_rejects_wrong_ranks_like_torch(kind: str, dims: int) -> None:
    for rank in (dims, dims + 3):
        x = torch.zeros((2,) * rank)

        def call(lib: object, x: torch.Tensor = x) -> object:
            layer = getattr(lib.nn, f"{kind}{dims}d")(1)
            return layer(x if lib is torch else to_volta(x))

        raises_like_torch(call)


def test_reflection_padding_wider_than_the_input_is_an_error_like_torch() -> None:
    x = torch.zeros(1, 2, 3)
    raises_like_torch(lambda lib: lib.nn.ReflectionPad1d(3)(x if lib is torch else to_volta(x)))


def test_float32_constant_padding_keeps_dtype() -> None:
    x = np.random.default_rng(0).standard_normal((2, 3, 4)).astype(np.float32)
    t = torch.nn.ConstantPad1d((1, 2), -3.0)(torch.tensor(x))
    v = volta.nn.ConstantPad1d((1, 2), -3.0)(volta.tensor(x))
    assert v.dtype == volta.float32
    np.testing.assert_array_equal(v.numpy(), t.numpy())
