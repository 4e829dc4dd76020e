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


# -- atan2's gradient at the origin --------------------------------------------------------------


def test_atan2_gradient_is_zero_at_the_origin_as_pytorchs() -> None:
    a = np.array([0.0, 1.0, 0.0, -0.0, 1e-170, 3.0])
    b = np.array([0.0, 0.0, 2.0, 0.0, 1e-170, -4.0])
    cot = np.array([1.0, -2.0, 0.5, 3.0, 1.0, 1.5])
    results = []
    for m in (torch, volta):
        x, y = _leaf(a, m), _leaf(b, m)
        results.append(m.autograd.grad([m.atan2(x, y)], [x, y], [m.tensor(cot)]))
    for vg, tg in zip(results[1], results[0]):
        _close(vg, tg)
        assert not np.isnan(vg.numpy()).any()


# -- batch norm of an empty input ----------------------------------------------------------------


@pytest.mark.parametrize("shape", [(0,), (0, 3), (0, 3, 4)])
def test_batch_norm_of_an_empty_input_is_a_scaled_copy(shape: tuple) -> None:
    x = np.zeros(shape)
    c = shape[1] if len(shape) > 1 else 2
    w, b = np.arange(1.0, c + 1), np.arange(2.0, c + 2)
    results = []
    for m in (torch, volta):
        leaves = [_leaf(x, m), _leaf(w, m), _leaf(b, m)]
        out = m.nn.functional.batch_norm(leaves[0], None, None, leaves[1], leaves[2],
                                         training=True)
        grads = m.autograd.grad([out], leaves, [m.zeros(shape, dtype=m.float64)],
                                allow_unused=True)
        results.append((out, grads))
    _close(results[1][0], results[0][0])
    for vg, tg in zip(results[1][1], results[0][1]):
        if tg is None:
            assert vg is None or not vg.numpy().any()
        else:
            _close(vg, tg)


# -- all/any over no dims (Note [all/any over no dims]) ------------------------------------------


@pytest.mark.parametrize("keepdim", [False, True])
@pytest.mark.parametrize("op", ["all", "any"])
@pytest.mark.parametrize("dtype", ["int32", "uint8", "float32", "bool"])
def test_all_any_over_no_dims_reduce_nothing(op: str, dtype: str, keepdim: bool) -> None:
    values = np.array([[3, 0], [1, np.nan if dtype == "float32" else 2]]).astype(dtype)
    got = getattr(volta, op)(volta.tensor(values), dim=[], keepdim=keepdim)
    want = getattr(torch, op)(torch.tensor(values), dim=[], keepdim=keepdim)
    _close(got, want)
