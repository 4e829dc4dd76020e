"""The CPU's BLAS paths for row-wise work (volta/backends/cpu/rowwise.py) against PyTorch: sum,
mean and the 2-norm over trailing or leading dims, softmax and log_softmax, layer norm, cumsum
along the last dim and the fused nll_loss with every target counted; float32 and float64,
keepdim, negative dims, non-contiguous and empty inputs (which take numpy's path)."""

from __future__ import annotations

import numpy as np
import pytest
import torch

import volta
import volta.nn.functional as VF

DTYPES = [np.float32, np.float64]


def _pair(shape: tuple[int, ...], dtype: type, seed: int = 0, requires_grad: bool = False
          ) -> tuple[torch.Tensor, volta.Tensor]:
    data = np.random.default_rng(seed).standard_normal(shape).astype(dtype)
    return (torch.tensor(data, requires_grad=requires_grad),
            volta.tensor(data, requires_grad=requires_grad))


def _close(got: volta.Tensor, expected: torch.Tensor, **tolerance: float) -> None:
    assert tuple(got.shape) == tuple(expected.shape)
    torch.testing.assert_close(torch.from_numpy(np.array(got.detach().numpy())),
                               expected.detach(), **tolerance)


def _backward_matches(vy: volta.Tensor, ty: torch.Tensor, v_inputs: tuple, t_inputs: tuple,
                      seed: int) -> None:
    """Backward of the same upstream gradient through both; each input's gradient agrees."""
    g = np.random.default_rng(seed).standard_normal(tuple(ty.shape)).astype(
        str(ty.dtype).removeprefix("torch."))
    ty.backward(torch.tensor(g))
    vy.backward(volta.tensor(g))
    for v, t in zip(v_inputs, t_inputs):
        _close(v.grad, t.grad)


REDUCTIONS = [
    ((6, 7), None), ((6, 7), (1,)), ((6, 7), (-1,)), ((6, 7), (0,)), ((3, 4, 5), (1, 2)),
    ((3, 4, 5), (-2, -1)), ((3, 4, 5), (0, 1)), ((3, 4, 5), (0, 2)), ((3, 4, 5), (1,)),
    ((2, 300), (1,)), ((300, 3), (0,)), ((2, 1000), (1,)), ((2, 131), (1,)), ((1, 9), (0,)),
    ((9, 1), (1,)), ((1030,), None), ((7,), (0,)), ((2, 3, 1024), None),
]


@pytest.mark.parametrize("keepdim", [False, True])
@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("shape,dims", REDUCTIONS)
def test_sum_mean_and_norm_match_torch(shape: tuple[int, ...], dims: tuple[int, ...] | None,
                                       dtype: type, keepdim: bool) -> None:
    tx, vx = _pair(shape, dtype)
    if dims is None:
        _close(vx.sum(), tx.sum())
        _close(vx.mean(), tx.mean())
    else:
        _close(vx.sum(dims, keepdim=keepdim), tx.sum(dims, keepdim=keepdim))
        _close(vx.mean(dims, keepdim=keepdim), tx.mean(dims, keepdim=keepdim))
    _close(vx.norm(dim=dims, keepdim=keepdim), tx.norm(dim=dims, keepdim=keepdim))
    _close(volta.linalg.vector_norm(vx, 2, dims, keepdim),
           torch.linalg.vector_norm(tx, 2, dims, keepdim))


@pytest.mark.parametrize("dtype", DTYPES)
def test_reductions_of_non_contiguous_and_empty_inputs(dtype: type) -> None:
    tx, vx = _pair((5, 8), dtype)
    _close(vx.t().sum(1), tx.t().sum(1))
    _close(vx[:, ::2].mean(-1, keepdim=True), tx[:, ::2].mean(-1, keepdim=True))
    _close(vx.t().norm(dim=1), tx.t().norm(dim=1))
    te, ve = _pair((0, 4), dtype)
    _close(ve.sum(1), te.sum(1))
    _close(ve.sum(0), te.sum(0))
    _close(ve.sum(), te.sum())
    _close(ve.mean(0), te.mean(0), equal_nan=True)
    _close(ve.norm(), te.norm())


def test_long_float32_row_sums_stay_within_torch_tolerance() -> None:
    # Note [BLAS row sums]: summed in blocks, as accurate as numpy's pairwise sum
    tx, vx = _pair((256, 1024), np.float32, seed=5)
    _close(vx.sum(1), tx.sum(1))
    _close(vx.sum(0), tx.sum(0))
    _close(vx.sum(), tx.sum())
    tf, vf = _pair((64, 3, 56, 56), np.float32, seed=6)
    _close(vf.mean((2, 3)), tf.mean((2, 3)))


def test_reductions_propagate_inf_and_nan() -> None:
    data = np.ones((3, 256), np.float32)
    data[0, 5], data[1, 7], data[2, 9] = np.inf, np.nan, -np.inf
    tx, vx = torch.tensor(data), volta.tensor(data)
    _close(vx.sum(1), tx.sum(1), equal_nan=True)
    _close(vx.norm(dim=1), tx.norm(dim=1), equal_nan=True)


def test_sum_backward_and_norm_backward_match_torch() -> None:
    tx, vx = _pair((4, 6), np.float64, requires_grad=True)
    g = np.random.default_rng(1).standard_normal(4)
    tx.norm(dim=1).backward(torch.tensor(g))
    vx.norm(dim=1).backward(volta.tensor(g))
    _close(vx.grad, tx.grad)
    tz, vz = torch.zeros(3, 2, requires_grad=True), volta.zeros(3, 2, requires_grad=True)
    tz.norm().backward()
    vz.norm().backward()
    _close(vz.grad, tz.grad)  # the subgradient 0 at the origin


@pytest.mark.parametrize("fn", ["softmax", "log_softmax"])
@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("shape", [(5, 7), (2, 3, 4), (7,), (3, 1)])
def test_softmax_forward_and_backward_match_torch(fn: str, dtype: type,
                                                  shape: tuple[int, ...]) -> None:
    for dim in range(-len(shape), len(shape)):
        tx, vx = _pair(shape, dtype, requires_grad=True)
        ty, vy = getattr(tx, fn)(dim), getattr(vx, fn)(dim)
        _close(vy, ty)
        g = np.random.default_rng(2).standard_normal(shape).astype(dtype)
        ty.backward(torch.tensor(g))
        vy.backward(volta.tensor(g))
        _close(vx.grad, tx.grad)


@pytest.mark.parametrize("fn", ["softmax", "log_softmax"])
def test_softmax_of_non_contiguous_empty_and_infinite_rows(fn: str) -> None:
    tx, vx = _pair((6, 4), np.float32)
    _close(getattr(vx.t(), fn)(-1), getattr(tx.t(), fn)(-1))
    te, ve = _pair((0, 3), np.float32)
    _close(getattr(ve, fn)(-1), getattr(te, fn)(-1))
    data = np.array([[0.0, -np.inf, 1.0], [-np.inf, -np.inf, -np.inf], [0.0, np.nan, 1.0],
                     [np.nan, np.inf, 2.0]], np.float32)
    _close(getattr(volta.tensor(data), fn)(1), getattr(torch.tensor(data), fn)(1),
           equal_nan=True)


@pytest.mark.parametrize("affine", [True, False])
@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("shape,normalized", [((6, 10), (10,)), ((2, 3, 4, 5), (4, 5)),
                                              ((3, 256), (256,)), ((5,), (5,))])
def test_layer_norm_forward_and_backward_match_torch(shape: tuple[int, ...],
                                                     normalized: tuple[int, ...], dtype: type,
                                                     affine: bool) -> None:
    tx, vx = _pair(shape, dtype, requires_grad=True)
    tw, vw = _pair(normalized, dtype, seed=1, requires_grad=True) if affine else (None, None)
    tb, vb = _pair(normalized, dtype, seed=2, requires_grad=True) if affine else (None, None)
    ty = torch.nn.functional.layer_norm(tx, normalized, tw, tb)
    vy = VF.layer_norm(vx, normalized, vw, vb)
    _close(vy, ty)
    _backward_matches(vy, ty, (vx, vw, vb) if affine else (vx,),
                      (tx, tw, tb) if affine else (tx,), seed=3)


def test_layer_norm_of_a_non_contiguous_input_and_a_shifted_one() -> None:
    tx, vx = _pair((8, 6), np.float32, requires_grad=True)
    _close(VF.layer_norm(vx.t(), (8,)), torch.nn.functional.layer_norm(tx.t(), (8,)))
    data = (np.random.default_rng(4).standard_normal((4, 64)) + 100).astype(np.float32)
    _close(VF.layer_norm(volta.tensor(data), (64,)),
           torch.nn.functional.layer_norm(torch.tensor(data), (64,)), atol=1e-4, rtol=1e-4)


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("shape", [(3, 5), (4, 32), (3, 96), (2, 100), (2, 3, 70), (64,), (2, 1)])
def test_cumsum_matches_torch(shape: tuple[int, ...], dtype: type) -> None:
    for dim in range(-len(shape), len(shape)):
        tx, vx = _pair(shape, dtype, requires_grad=True)
        ty, vy = tx.cumsum(dim), vx.cumsum(dim)
        _close(vy, ty)
        g = np.random.default_rng(5).standard_normal(shape).astype(dtype)
        ty.backward(torch.tensor(g))
        vy.backward(volta.tensor(g))
        _close(vx.grad, tx.grad)


def test_cumsum_of_long_rows_non_contiguous_and_empty_inputs() -> None:
    data = np.random.default_rng(6).standard_normal((16, 1000))
    expected = np.cumsum(data, axis=1)  # float64 reference for the float32 scan
    got = volta.tensor(data.astype(np.float32)).cumsum(1).numpy()
    np.testing.assert_allclose(got, expected, rtol=1e-5, atol=2e-5)
    tx, vx = _pair((5, 40), np.float32)
    _close(vx.t().cumsum(-1), tx.t().cumsum(-1))
    _close(vx[:, ::3].cumsum(1), tx[:, ::3].cumsum(1))
    te, ve = _pair((3, 0), np.float32)
    _close(ve.cumsum(1), te.cumsum(1))
    ti = torch.arange(12).reshape(3, 4)
    _close(volta.arange(12).reshape(3, 4).cumsum(1), ti.cumsum(1))


@pytest.mark.parametrize("reduction", ["mean", "sum", "none"])
@pytest.mark.parametrize("shape", [(9, 6), (6,), (3, 4, 2)])
def test_nll_loss_with_every_target_counted_matches_torch(shape: tuple[int, ...],
                                                          reduction: str) -> None:
    rng = np.random.default_rng(7)
    classes = shape[0] if len(shape) == 1 else shape[1]
    target = rng.integers(0, classes, () if len(shape) == 1 else (shape[0], *shape[2:]))
    tx, vx = _pair(shape, np.float32, requires_grad=True)
    tl = torch.nn.functional.nll_loss(tx, torch.tensor(target), reduction=reduction)
    vl = VF.nll_loss(vx, volta.tensor(target), reduction=reduction)
    _close(vl, tl)
    g = rng.standard_normal(tuple(tl.shape)).astype(np.float32)
    tl.backward(torch.tensor(g))
    vl.backward(volta.tensor(g))
    _close(vx.grad, tx.grad)


@pytest.mark.parametrize("fn", ["softmax", "log_softmax"])
@pytest.mark.parametrize("offset", [0.0, 55.0, -58.0, 90.0, -200.0, 1000.0])
def test_softmax_of_large_and_very_negative_rows_matches_torch(fn: str, offset: float) -> None:
    # rows within +-60 skip the max shift (Note [softmax without the shift]); others keep it
    data = np.random.default_rng(8).standard_normal((4, 50)).astype(np.float32) * 3 + offset
    data[1] -= 30.0
    _close(getattr(volta.tensor(data), fn)(1), getattr(torch.tensor(data), fn)(1))


@pytest.mark.parametrize("training", [True, False])
@pytest.mark.parametrize("affine", [True, False])
@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("shape", [(4, 3, 5, 6), (6, 4), (3, 2, 7), (2, 3, 40, 40)])
def test_batch_norm_forward_backward_and_running_stats_match_torch(
        shape: tuple[int, ...], dtype: type, affine: bool, training: bool) -> None:
    channels = shape[1]
    tx, vx = _pair(shape, dtype, requires_grad=True)
    tw, vw = _pair((channels,), dtype, seed=1, requires_grad=True) if affine else (None, None)
    tb, vb = _pair((channels,), dtype, seed=2, requires_grad=True) if affine else (None, None)
    stats = np.random.default_rng(3).random((2, channels)).astype(dtype)
    t_mean, t_var = torch.tensor(stats[0]), torch.tensor(stats[1] + 0.5)
    v_mean, v_var = volta.tensor(stats[0]), volta.tensor(stats[1] + 0.5)
    ty = torch.nn.functional.batch_norm(tx, t_mean, t_var, tw, tb, training=training)
    vy = VF.batch_norm(vx, v_mean, v_var, vw, vb, training=training)
    _close(vy, ty)
    _close(v_mean, t_mean)
    _close(v_var, t_var)
    _backward_matches(vy, ty, (vx, vw, vb) if affine else (vx,),
                      (tx, tw, tb) if affine else (tx,), seed=4)


def test_batch_norm_of_a_non_contiguous_input_matches_torch() -> None:
    tx, vx = _pair((3, 5, 4, 2), np.float32, requires_grad=True)
    ty = torch.nn.functional.batch_norm(tx.transpose(2, 3), None, None, training=True)
    vy = VF.batch_norm(vx.transpose(2, 3), None, None, training=True)
    _close(vy, ty)
    g = np.random.default_rng(5).standard_normal((3, 5, 2, 4)).astype(np.float32)
    ty.backward(torch.tensor(g))
    vy.backward(volta.tensor(g))
    _close(vx.grad, tx.grad)


@pytest.mark.parametrize("keepdim", [False, True])
@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("offset", [0.0, 80.0, -300.0])
def test_logsumexp_matches_torch(offset: float, dtype: type, keepdim: bool) -> None:
    tx, vx = _pair((5, 7, 9), dtype, requires_grad=True)
    tx, vx = (tx.detach() + offset).requires_grad_(), (vx.detach() + offset).requires_grad_()
    for dim in (-1, 2, 1, (0, 2)):
        _close(vx.logsumexp(dim, keepdim=keepdim), tx.logsumexp(dim, keepdim=keepdim))
    ty, vy = tx.logsumexp(-1), vx.logsumexp(-1)
    g = np.random.default_rng(9).standard_normal((5, 7)).astype(dtype)
    ty.backward(torch.tensor(g))
    vy.backward(volta.tensor(g))
    _close(vx.grad, tx.grad)


def test_logsumexp_of_infinite_and_nan_rows_matches_torch() -> None:
    data = np.array([[0.0, -np.inf, 1.0], [-np.inf, -np.inf, -np.inf], [0.0, np.inf, 1.0],
                     [np.nan, 0.0, 1.0], [np.inf, -np.inf, 0.0]], np.float32)
    _close(volta.tensor(data).logsumexp(1), torch.tensor(data).logsumexp(1), equal_nan=True)
