"""split, chunk, split_with_sizes and unbind record one backward node for all their pieces (the
ops split_with_sizes and unbind, whose backward joins the pieces' gradients once), with PyTorch's
gradients: pieces used or not, any dim, empty pieces, double backward, and in-place writes
through the pieces or their base."""

from __future__ import annotations

import numpy as np
import pytest
import torch

import volta

RNG = np.random.default_rng(11)

SPLITS = {
    "split int": lambda x, dim: x.split(2, dim),
    "split sizes": lambda x, dim: x.split([1, 3, 0, 1], dim),
    "chunk": lambda x, dim: x.chunk(3, dim),
    "split_with_sizes": lambda x, dim: x.split_with_sizes([4, 1], dim),
}


def _pair(shape: tuple[int, ...]) -> tuple[volta.Tensor, torch.Tensor]:
    x = RNG.standard_normal(shape)
    return volta.tensor(x, requires_grad=True), torch.tensor(x, requires_grad=True)


@pytest.mark.parametrize("name", list(SPLITS))
@pytest.mark.parametrize("dim", [0, 1, -1])
@pytest.mark.parametrize("used", ["all", "some"])
def test_split_gradients_match_torch(name, dim, used):
    vx, tx = _pair((5, 5, 5))
    vp, tp = SPLITS[name](vx, dim), SPLITS[name](tx, dim)
    assert len(vp) == len(tp) and all(v.shape == t.shape for v, t in zip(vp, tp))
    keep = range(len(tp)) if used == "all" else range(1, len(tp), 2)
    weights = [RNG.standard_normal(tuple(tp[i].shape)) for i in keep]
    sum(((vp[i] ** 2) * volta.tensor(w)).sum() for i, w in zip(keep, weights)).backward()
    sum(((tp[i] ** 2) * torch.tensor(w)).sum() for i, w in zip(keep, weights)).backward()
    np.testing.assert_allclose(vx.grad.numpy(), tx.grad.numpy(), rtol=1e-12, atol=1e-12)


def test_the_pieces_share_one_node_and_stay_views():
    x = volta.randn(4, 6, requires_grad=True)
    pieces = (x * 1).split(2, 1)
    assert len({id(p.grad_fn) for p in pieces}) == 1
    assert [p._output_nr for p in pieces] == [0, 1, 2]
    base = pieces[0]._base
    assert all(p._base is base for p in pieces)
    assert all(p.data_ptr() == base.data_ptr() + 2 * i * 4 for i, p in enumerate(pieces))


def test_split_of_a_vector_with_an_empty_piece_and_double_backward_match_torch():
    vx, tx = _pair((6,))
    vp, tp = vx.split([0, 4, 2]), tx.split([0, 4, 2])
    (vg,) = volta.autograd.grad((vp[1] ** 3).sum() + (vp[2] ** 2).sum(), [vx], create_graph=True)
    (tg,) = torch.autograd.grad((tp[1] ** 3).sum() + (tp[2] ** 2).sum(), [tx], create_graph=True)
    np.testing.assert_allclose(vg.detach().numpy(), tg.detach().numpy(), rtol=1e-12)
    (vg ** 2).sum().backward()
    (tg ** 2).sum().backward()
    np.testing.assert_allclose(vx.grad.numpy(), tx.grad.numpy(), rtol=1e-12)


@pytest.mark.parametrize("write", ["a piece", "the other piece", "the base"])
def test_in_place_writes_after_split_give_the_right_gradient(write):
    # PyTorch refuses in-place writes to multi-output views; volta allows them, and the
    # gradient is the one of the same computation written without the view
    x = volta.tensor(np.arange(1.0, 7.0), requires_grad=True)
    y = x * 1
    a, b = y.split(3)
    if write == "a piece":
        a.mul_(2)
        expected = [2.0] * 3 + [10.0] * 3
    elif write == "the other piece":
        b.mul_(3)
        expected = [1.0] * 3 + [30.0] * 3
    else:
        y.mul_(2)
        expected = [2.0] * 3 + [20.0] * 3
    (a.sum() + b.sum() * 10).backward()
    np.testing.assert_array_equal(x.grad.numpy(), expected)


def test_split_errors_are_unchanged():
    x = volta.randn(4, 5)
    with pytest.raises(volta.errors.ShapeError, match="sum exactly to 5"):
        x.split([2, 2], 1)
    with pytest.raises(volta.errors.ShapeError, match="non-negative entries"):
        x.split_with_sizes([6, -1], 1)
    with pytest.raises(volta.errors.ShapeError, match="at least a 1-dimensional"):
        volta.tensor(1.0).split([1])
    with pytest.raises(volta.errors.ShapeError, match="split_size can only be 0"):
        x.split(0, 1)


@pytest.mark.parametrize("dim", [0, 1, -1])
@pytest.mark.parametrize("used", ["all", "some"])
def test_unbind_gradients_match_torch(dim, used):
    vx, tx = _pair((3, 4, 2))
    vp, tp = vx.unbind(dim), tx.unbind(dim)
    assert len({id(p.grad_fn) for p in vp}) == 1
    keep = range(len(tp)) if used == "all" else [len(tp) - 1]
    weights = [RNG.standard_normal(tuple(tp[i].shape)) for i in keep]
    (vg,) = volta.autograd.grad(sum(((vp[i] ** 3) * volta.tensor(w)).sum()
                                    for i, w in zip(keep, weights)), [vx], create_graph=True)
    (tg,) = torch.autograd.grad(sum(((tp[i] ** 3) * torch.tensor(w)).sum()
                                    for i, w in zip(keep, weights)), [tx], create_graph=True)
    np.testing.assert_allclose(vg.detach().numpy(), tg.detach().numpy(), rtol=1e-12)
    (vg ** 2).sum().backward()
    (tg ** 2).sum().backward()
    np.testing.assert_allclose(vx.grad.numpy(), tx.grad.numpy(), rtol=1e-12)


def test_iterating_a_tensor_gives_torch_gradients():
    vx, tx = _pair((4, 3))
    sum(row * (i + 1) for i, row in enumerate(vx)).sum().backward()
    sum(row * (i + 1) for i, row in enumerate(tx)).sum().backward()
    np.testing.assert_allclose(vx.grad.numpy(), tx.grad.numpy(), rtol=1e-12)


@pytest.mark.parametrize("dim", [0, 1, 2, -1])
def test_stack_gradients_match_torch(dim):
    # stack's own node hands each input its slice of the gradient (unbind)
    (va, ta), (vb, tb) = _pair((3, 4)), _pair((3, 4))
    vc = volta.tensor(RNG.standard_normal((3, 4)))  # no gradient wanted
    vy = volta.stack([va, vc, vb], dim)
    ty = torch.stack([ta, torch.tensor(vc.numpy()), tb], dim)
    np.testing.assert_array_equal(vy.detach().numpy(), ty.detach().numpy())
    w = RNG.standard_normal(tuple(ty.shape))
    (vg,) = volta.autograd.grad(((vy ** 2) * volta.tensor(w)).sum(), [va], create_graph=True)
    (tg,) = torch.autograd.grad(((ty ** 2) * torch.tensor(w)).sum(), [ta], create_graph=True)
    np.testing.assert_allclose(vg.detach().numpy(), tg.detach().numpy(), rtol=1e-12)
    (vg.sum() + (vy * volta.tensor(w)).sum()).backward()
    (tg.sum() + (ty * torch.tensor(w)).sum()).backward()
    for v, t in ((va, ta), (vb, tb)):
        np.testing.assert_allclose(v.grad.numpy(), t.grad.numpy(), rtol=1e-12)


def test_stack_of_mixed_dtypes_gives_each_input_its_dtype():
    va = volta.ones(2, 3, dtype=volta.float32, requires_grad=True)
    vb = volta.ones(2, 3, dtype=volta.float64, requires_grad=True)
    y = volta.stack([va, vb], 1)
    assert y.dtype == volta.float64
    (y * 2).sum().backward()
    assert va.grad.dtype == volta.float32 and vb.grad.dtype == volta.float64
    np.testing.assert_array_equal(va.grad.numpy(), np.full((2, 3), 2.0))
