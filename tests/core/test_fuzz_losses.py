"""Loss functions, distances, isclose/isin/searchsorted, masked_scatter and index_add_ agree
with PyTorch on the calls the differential fuzz (tests/fuzz) found them disagreeing on: both
accept with equal results, or both reject (volta with a VoltaError)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
import pytest
import torch
import torch.nn.functional as TF

import volta
import volta.nn.functional as VF
from volta.errors import VoltaError

DTYPES = ("float32", "float16", "bfloat16", "float64", "int8", "uint8", "int16", "int32",
          "int64", "bool")


def _pair(shape: tuple[int, ...], dtype: str, seed: int = 0) -> tuple[volta.Tensor, torch.Tensor]:
    """The same values as a volta and a torch tensor (signed values in [-2, 2))."""
    values = np.random.default_rng(seed).uniform(-2, 2, shape)
    t = torch.tensor(values).to(getattr(torch, dtype))
    v = volta.tensor(t.to(torch.float64).numpy()).to(getattr(volta, dtype))
    return v, t


def _agree(v_call: Callable[[], Any], t_call: Callable[[], Any], atol: float = 1e-6) -> None:
    """Both accept with equal results, or both reject (volta with a VoltaError)."""
    try:
        expected = t_call()
    except Exception:
        with pytest.raises(VoltaError):
            v_call()
        return
    result = v_call()
    assert tuple(result.shape) == tuple(expected.shape)
    assert str(result.dtype).split(".")[-1] == str(expected.dtype).split(".")[-1]
    np.testing.assert_allclose(result.to(volta.float64).numpy() if result.dtype.is_floating_point
                               else result.numpy(),
                               expected.double().numpy() if expected.dtype.is_floating_point
                               else expected.numpy(), atol=atol, rtol=1e-3)


# -- a number where only a Tensor goes -------------------------------------------------------

@pytest.mark.parametrize("name,v_fn,t_fn,extra", [
    ("dist", volta.dist, torch.dist, ()),
    ("inner", volta.inner, torch.inner, ()),
    ("pairwise_distance", VF.pairwise_distance, TF.pairwise_distance, ()),
    ("cosine_similarity", VF.cosine_similarity, TF.cosine_similarity, ()),
    ("soft_margin_loss", VF.soft_margin_loss, TF.soft_margin_loss, ("none",)),
])
@pytest.mark.parametrize("number", [1, -3.5])
def test_number_for_tensor_argument_rejected(name: str, v_fn: Any, t_fn: Any, extra: tuple,
                                             number: float) -> None:
    v, t = _pair((), "float32")
    with pytest.raises(TypeError, match="must be Tensor"):
        t_fn(t, number, *extra)
    with pytest.raises(VoltaError, match=rf"{name}\(\): argument '\w+' \(position 2\) must be "
                                         rf"Tensor, not {type(number).__name__}"):
        v_fn(v, number, *extra)


def test_poisson_nll_loss_takes_every_argument() -> None:
    v, t = _pair((3,), "float32")
    with pytest.raises(TypeError):
        torch.poisson_nll_loss(t, t, False, False, 0)  # type: ignore[call-arg]
    with pytest.raises(VoltaError, match="reduction"):
        volta.poisson_nll_loss(v, v, False, False, 0)
    _agree(lambda: volta.poisson_nll_loss(v, v.abs(), False, True, 1e-8, "sum"),
           lambda: torch.poisson_nll_loss(t, t.abs(), False, True, 1e-8, 1))


@pytest.mark.parametrize("var", [0, 1, True, 0.5, 2.0])
def test_gaussian_nll_loss_number_var_must_be_float(var: Any) -> None:
    v, t = _pair((2, 3), "float32")
    _agree(lambda: VF.gaussian_nll_loss(v, v * 0.5, var), lambda: TF.gaussian_nll_loss(t, t * 0.5, var))
