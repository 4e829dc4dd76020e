"""``repr`` of tensors and ``set_printoptions``, compared with PyTorch's character for character."""

from __future__ import annotations

import numpy as np
import pytest
import torch

import volta
from volta.errors import VoltaError

_RNG = np.random.default_rng(0)
ARRAYS = {
    "vector": np.array([1.23456789, 2.5, -3.0]),
    "matrix": _RNG.standard_normal((4, 5)),
    "long vector": _RNG.standard_normal(2000),
    "wide ratio": np.array([1e-6, 1.0]),
    "large integral": np.arange(12.0).reshape(3, 4) * 1e5,
    "summarized matrix": _RNG.standard_normal((30, 40)),
    "3-d": _RNG.standard_normal((3, 4, 5)),
    "summarized 3-d": _RNG.standard_normal((12, 12, 12)),
    "scalar": np.array(3.25),
    "non-finite": np.array([np.nan, np.inf, -np.inf, 0.0]),
    "zeros": np.zeros((2, 3)),
    "negative zero": np.array([-0.0, 1.0]),
    "tiny": _RNG.standard_normal((2, 1000)) * 1e-5,
    "huge": np.array([1e10, 1.0]),
    "empty 2-d": np.zeros((0, 3)),
    "empty": np.zeros(0),
}
OPTIONS = [{}, {"precision": 2}, {"precision": 8}, {"threshold": 5}, {"edgeitems": 1, "threshold": 3},
           {"linewidth": 40}, {"profile": "short"}, {"profile": "full"}, {"sci_mode": True},
           {"sci_mode": False}]
DTYPES = ["float32", "float64", "bfloat16", "int64", "int32", "bool"]


@pytest.fixture(autouse=True)
def _default_print_options():
    yield
    volta.set_printoptions(profile="default")
    torch.set_printoptions(profile="default")


def _pair(values: np.ndarray, dtype: str) -> tuple[volta.Tensor, torch.Tensor]:
    if dtype == "bool":
        values = values > 0
    elif dtype.startswith("int"):
        values = np.clip(np.nan_to_num(values * 10, nan=0, posinf=7, neginf=-7), -1e6, 1e6).astype(dtype)
    if dtype == "bfloat16":
        f32 = values.astype(np.float32)
        return volta.tensor(f32).to(volta.bfloat16), torch.tensor(f32).to(torch.bfloat16)
    return volta.tensor(values.astype(dtype)), torch.tensor(values.astype(dtype))


@pytest.mark.parametrize("options", OPTIONS, ids=lambda o: ",".join(f"{k}={v}" for k, v in o.items()) or "default")
@pytest.mark.parametrize("dtype", DTYPES)
def test_repr_matches_torch_under_print_options(options: dict, dtype: str) -> None:
    volta.set_printoptions(**options)
    torch.set_printoptions(**options)
    for name, values in ARRAYS.items():
        v, t = _pair(values, dtype)
        assert repr(v).replace("volta.", "torch.") == repr(t), name


def test_suffix_wraps_like_torch() -> None:
    v = volta.arange(30, dtype=volta.int32).reshape(2, 15) * 1000
    t = torch.arange(30, dtype=torch.int32).reshape(2, 15) * 1000
    assert repr(v).replace("volta.", "torch.") == repr(t)
    w = volta.ones(2, 3, requires_grad=True) * 2
    assert repr(w) == "tensor([[2., 2., 2.],\n        [2., 2., 2.]], grad_fn=<MulBackward>)"


@pytest.mark.parametrize("kwargs", [{"precision": -1}, {"precision": 1.5}, {"edgeitems": "3"},
                                    {"linewidth": True}, {"threshold": "x"}, {"profile": "tiny"},
                                    {"profile": "short", "precision": -2}])
def test_set_printoptions_rejects_bad_values(kwargs: dict) -> None:
    before = repr(volta.tensor([1.5, 2.25]))
    with pytest.raises(VoltaError):
        volta.set_printoptions(**kwargs)
    assert repr(volta.tensor([1.5, 2.25])) == before
