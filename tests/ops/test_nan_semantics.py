"""NaN in, as PyTorch: reductions, selections and clamps propagate NaN forward and route its
gradient as PyTorch does (a NaN maximum matches no element by ``==``, so the formulas must
say where its gradient goes). Inputs hold NaN alone in a row, NaN among ties and rows of
several NaN; ties between equal finite values are avoided where PyTorch leaves the chosen
index unspecified (topk, kthvalue)."""

from __future__ import annotations

import numpy as np
import pytest
import torch

import volta

NAN = float("nan")
ROWS = np.array([[1.0, NAN, 3.0, 2.5], [2.0, 5.0, 5.0, -1.0], [NAN, NAN, 1.0, 0.0]])


def _lib_of(x):
    return torch if isinstance(x, torch.Tensor) else volta


OPS = {
    "max()": lambda x: x.max(),
    "min()": lambda x: x.min(),
    "median()": lambda x: x.median(),
    "max(1)": lambda x: x.max(1).values,
    "min(1)": lambda x: x.min(1).values,
    "amax(1)": lambda x: x.amax(1),
    "amin(1)": lambda x: x.amin(1),
    "amax()": lambda x: x.amax(),
    "median(1)": lambda x: x.median(1).values,
    "nanmedian(1)": lambda x: x.nanmedian(1).values,
    "sort": lambda x: x.sort(1).values,
    "topk": lambda x: x.topk(2, 1).values,
    "kthvalue": lambda x: x.kthvalue(2, 1).values,
    "cummax": lambda x: x.cummax(1).values,
    "cummin": lambda x: x.cummin(1).values,
    "logsumexp": lambda x: x.logsumexp(1),
    "softmax": lambda x: x.softmax(1),
    "norm": lambda x: x.norm(dim=1),
    "norm inf": lambda x: x.norm(p=float("inf"), dim=1),
    "nansum": lambda x: x.nansum(1),
    "nanmean": lambda x: x.nanmean(1),
    "prod": lambda x: x.prod(1),
    "std": lambda x: x.std(1),
    "clamp": lambda x: x.clamp(0, 2),
    "relu": lambda x: x.relu(),
    "maximum": lambda x: _lib_of(x).maximum(x, x.flip(1)),
    "minimum": lambda x: _lib_of(x).minimum(x, x.flip(1)),
    "fmax": lambda x: _lib_of(x).fmax(x, x.flip(1)),
    "fmin": lambda x: _lib_of(x).fmin(x, x.flip(1)),
    "abs": lambda x: x.abs(),
    "max_pool1d": lambda x: _lib_of(x).nn.functional.max_pool1d(x.unsqueeze(0), 2),
    "quantile": lambda x: x.quantile(0.5, dim=1),
    "nanquantile": lambda x: x.nanquantile(0.5, dim=1),
    "quantile all": lambda x: x.quantile(0.25),
    "logcumsumexp": lambda x: x.logcumsumexp(1),
}


def _run(lib, op, dtype: str) -> tuple[np.ndarray, np.ndarray]:
    x = lib.tensor(ROWS.astype(dtype), requires_grad=True)
    y = OPS[op](x)
    y.backward(lib.ones_like(y) if y.dim() else None)
    return np.asarray(y.detach().tolist()), np.asarray(x.grad.tolist())


@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("op", sorted(OPS))
def test_nan_forward_and_gradient_match_pytorch(op: str, dtype: str) -> None:
    (out_v, grad_v), (out_t, grad_t) = _run(volta, op, dtype), _run(torch, op, dtype)
    atol = 1e-6 if dtype == "float32" else 1e-12  # softmax's gradient here is 0 plus rounding
    np.testing.assert_allclose(out_v, out_t, rtol=1e-6, atol=atol, equal_nan=True)
    np.testing.assert_allclose(grad_v, grad_t, rtol=1e-6, atol=atol, equal_nan=True)


def test_hardtanh_passes_the_gradient_of_nan_through():
    # PyTorch's formula keeps the gradient where neither bound is reached, as at NaN (its CPU
    # kernel is itself inconsistent between vector and scalar lanes, so no oracle here)
    x = volta.tensor([NAN, 0.5, 2.0, -2.0], requires_grad=True)
    volta.nn.functional.hardtanh(x).sum().backward()
    assert x.grad.tolist() == [1.0, 1.0, 0.0, 0.0]
