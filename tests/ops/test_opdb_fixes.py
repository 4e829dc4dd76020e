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


# -- group norm ----------------------------------------------------------------------------------


def _leaf(array: np.ndarray, module):
    return (torch.tensor(array, requires_grad=True) if module is torch
            else volta.tensor(array, requires_grad=True))


@pytest.mark.parametrize("shape", [(0, 4, 3), (0, 6), (2, 4, 3)])
def test_group_norm_of_an_empty_batch_and_its_gradients(shape: tuple) -> None:
    rng = np.random.default_rng(0)
    x = rng.standard_normal(shape)
    w, b = rng.standard_normal(shape[1]), rng.standard_normal(shape[1])
    cot = rng.standard_normal(shape)
    results = []
    for m in (torch, volta):
        leaves = [_leaf(a, m) for a in (x, w, b)]
        out = m.nn.functional.group_norm(leaves[0], 2, leaves[1], leaves[2])
        grads = m.autograd.grad([out], leaves, [m.tensor(cot)])
        results.append((out, grads))
    (t_out, t_grads), (v_out, v_grads) = results
    _close(v_out, t_out)
    for vg, tg in zip(v_grads, t_grads):
        _close(vg, tg)


def test_native_group_norm_differentiates_its_mean_and_rstd_as_pytorch_does() -> None:
    rng = np.random.default_rng(1)
    x, w = rng.standard_normal((3, 4, 5)), rng.standard_normal(4)
    cots = [rng.standard_normal(s) for s in ((3, 4, 5), (3, 2), (3, 2))]
    results = []
    for m in (torch, volta):
        leaves = [_leaf(x, m), _leaf(w, m)]
        outs = m.native_group_norm(leaves[0], leaves[1], None, 3, 4, 5, 2, 1e-5)
        assert all(o.requires_grad for o in outs)
        results.append(m.autograd.grad(list(outs), leaves, [m.tensor(c) for c in cots]))
    for vg, tg in zip(results[1], results[0]):
        _close(vg, tg)
