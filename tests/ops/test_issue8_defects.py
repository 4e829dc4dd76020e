"""The defects issue 8 names (part 2) that op_db's samples do not reach, each against PyTorch:
edge cases of backward formulas, keyword arguments op_db leaves out, layouts."""

from __future__ import annotations

import numpy as np
import pytest
import torch

import volta


def _pair(shape: tuple[int, ...], seed: int = 0, grad: bool = True
          ) -> tuple[volta.Tensor, torch.Tensor]:
    data = np.random.default_rng(seed).standard_normal(shape)
    return (volta.tensor(data, requires_grad=grad),
            torch.tensor(data, requires_grad=grad))


def _close(actual: volta.Tensor, expected: torch.Tensor) -> None:
    assert tuple(actual.shape) == tuple(expected.shape)
    np.testing.assert_allclose(actual.detach().numpy(), expected.detach().numpy(), rtol=1e-7,
                               atol=1e-7, equal_nan=True)


def test_clamp_gradients_when_min_exceeds_max() -> None:
    # PyTorch: max wins, so the whole gradient goes to max where min > max
    vx, tx = _pair((6,))
    vlo, tlo = _pair((6,), seed=1)
    vhi = (vlo.detach() - 1 + volta.tensor([0., 0., 0., 3., 3., 3.], dtype=volta.float64))
    thi = torch.tensor(vhi.numpy())
    vhi.requires_grad_()
    thi.requires_grad_()
    volta.clamp(vx, vlo, vhi).sum().backward()
    torch.clamp(tx, tlo, thi).sum().backward()
    for v, t in ((vx, tx), (vlo, tlo), (vhi, thi)):
        _close(v.grad, t.grad)


@pytest.mark.parametrize("op", ["var", "std"])
@pytest.mark.parametrize(("shape", "dim", "correction"),
                         [((0,), None, 1), ((0, 3), 0, 1), ((1, 3), 0, 1), ((1, 3), 0, 2)])
def test_var_std_backward_without_degrees_of_freedom(op: str, shape: tuple[int, ...],
                                                      dim: int | None, correction: int) -> None:
    vx, tx = _pair(shape)
    getattr(vx, op)(dim, correction=correction).sum().backward()
    getattr(tx, op)(dim, correction=correction).sum().backward()
    _close(vx.grad, tx.grad)


@pytest.mark.parametrize("op", ["softmax", "log_softmax"])
def test_softmax_of_an_empty_dim(op: str) -> None:
    vx, tx = _pair((3, 0))
    _close(getattr(volta, op)(vx, 1), getattr(torch, op)(tx, 1))


def test_searchsorted_side_and_sorter() -> None:
    seq = [3.0, 1.0, 2.0, 2.0]
    values = [2.0, 0.5, 3.0]
    sorter = [1, 2, 3, 0]
    for side in ("left", "right"):
        v = volta.searchsorted(volta.tensor(seq), volta.tensor(values), side=side,
                               sorter=volta.tensor(sorter))
        t = torch.searchsorted(torch.tensor(seq), torch.tensor(values), side=side,
                               sorter=torch.tensor(sorter))
        assert v.tolist() == t.tolist()
    with pytest.raises(volta.VoltaError):
        volta.searchsorted(volta.tensor(seq), volta.tensor(values), side="left", right=True)


@pytest.mark.parametrize("reduce", ["add", "multiply"])
def test_scatter_reduce_keyword_and_its_gradient(reduce: str) -> None:
    vx, tx = _pair((4, 3))
    index = [[0, 1, 0], [0, 2, 3]]
    vs, ts = _pair((2, 3), seed=1)
    v = vx.scatter(0, volta.tensor(index), vs, reduce=reduce)
    t = tx.scatter(0, torch.tensor(index), ts, reduce=reduce)
    _close(v, t)
    # PyTorch has no derivative here; scatter_reduce's (include_self) is the reference
    t_ref = tx.scatter_reduce(0, torch.tensor(index), ts, "sum" if reduce == "add" else "prod")
    v.sum().backward()
    t_ref.sum().backward()
    _close(vx.grad, tx.grad)
    _close(vs.grad, ts.grad)
    inplace = volta.zeros(3, 3)
    inplace.scatter_(0, volta.tensor([[0, 1, 0]]), 2.0, reduce=reduce)
    expected = torch.zeros(3, 3).scatter_(0, torch.tensor([[0, 1, 0]]), 2.0, reduce=reduce)
    assert inplace.tolist() == expected.tolist()


def test_masked_fill_broadcasts_self_out_of_place_only() -> None:
    vx, tx = _pair((3,))
    mask = [[True, False, True], [False, False, True]]
    v = vx.masked_fill(volta.tensor(mask), 2.0)
    t = tx.masked_fill(torch.tensor(mask), 2.0)
    _close(v, t)
    v.sum().backward()
    t.sum().backward()
    _close(vx.grad, tx.grad)
    with pytest.raises(volta.VoltaError):
        volta.zeros(3).masked_fill_(volta.tensor(mask), 1.0)


@pytest.mark.parametrize(("equation", "shapes"), [
    ("...i->i", [(2, 3, 4)]), ("i...->", [(2, 3, 4)]), ("...ij,...jk->ik", [(2, 3, 4), (2, 4, 5)]),
    ("ij...,jk...->ik", [(3, 4, 2), (4, 5, 2)]), ("...i,...i", [(2, 3), (3,)])])
def test_einsum_sums_an_ellipsis_missing_from_the_output(equation: str, shapes: list) -> None:
    pairs = [_pair(s, seed=i) for i, s in enumerate(shapes)]
    v = volta.einsum(equation, *[p[0] for p in pairs])
    t = torch.einsum(equation, *[p[1] for p in pairs])
    _close(v, t)
    v.sum().backward()
    t.sum().backward()
    for vp, tp in pairs:
        _close(vp.grad, tp.grad)


def test_einsum_sublist_form() -> None:
    (va, ta), (vb, tb) = _pair((2, 3)), _pair((3, 4), seed=1)
    _close(volta.einsum(va, [0, 1], vb, [1, 2], [0, 2]), torch.einsum(ta, [0, 1], tb, [1, 2], [0, 2]))
    _close(volta.einsum(va, [..., 1], [1]), torch.einsum(ta, [..., 1], [1]))


@pytest.mark.parametrize("index", [[0], 0])
def test_index_select_on_a_0d_tensor(index: object) -> None:
    vx, tx = _pair(())
    v = volta.index_select(vx, 0, volta.tensor(index))
    t = torch.index_select(tx, 0, torch.tensor(index))
    _close(v, t)


def test_sign_of_nan_is_zero() -> None:
    values = [float("nan"), -0.0, 0.0, 2.5, -3.0]
    assert volta.sign(volta.tensor(values)).tolist() == torch.sign(torch.tensor(values)).tolist()


@pytest.mark.parametrize("method", ["float", "double", "half", "long", "int", "bool"])
def test_dtype_methods_take_memory_format(method: str) -> None:
    v = getattr(volta.ones(2, 3, 4, 5), method)(memory_format=volta.channels_last)
    t = getattr(torch.ones(2, 3, 4, 5), method)(memory_format=torch.channels_last)
    assert v.stride() == t.stride()
    assert v.is_contiguous(memory_format=volta.channels_last)
    assert getattr(volta.ones(2, 3), method)(memory_format=volta.preserve_format).is_contiguous()


def test_contiguous_and_clone_take_memory_format() -> None:
    v = volta.arange(120.0).reshape(2, 3, 4, 5)
    t = torch.arange(120.0).reshape(2, 3, 4, 5)
    for fmt_v, fmt_t in ((volta.channels_last, torch.channels_last),
                         (volta.contiguous_format, torch.contiguous_format)):
        assert v.contiguous(memory_format=fmt_v).stride() == t.contiguous(
            memory_format=fmt_t).stride()
        assert v.clone(memory_format=fmt_v).stride() == t.clone(memory_format=fmt_t).stride()
    permuted = v.permute(0, 2, 3, 1).clone(memory_format=volta.preserve_format)
    assert permuted.stride() == t.permute(0, 2, 3, 1).clone().stride()
    assert permuted.tolist() == t.permute(0, 2, 3, 1).tolist()


@pytest.mark.parametrize("factory", ["zeros_like", "ones_like", "empty_like", "rand_like",
                                     "randn_like"])
def test_like_factories_preserve_dense_strides(factory: str) -> None:
    for make in (lambda m: m.ones(3, 4).t(), lambda m: m.ones(3, 4, 2).permute(2, 0, 1),
                 lambda m: m.ones(3, 4)[:, ::2]):
        assert (getattr(volta, factory)(make(volta)).stride()
                == getattr(torch, factory)(make(torch)).stride())
    assert (getattr(volta, factory)(volta.ones(2, 3, 4, 5), memory_format=volta.channels_last)
            .stride() == (60, 1, 15, 3))
    assert volta.full_like(volta.ones(3, 4).t(), 7.0).stride() == (1, 4)


@pytest.mark.parametrize("dim,keepdim", [(None, False), ((0, 2), True), ((1, 2), False)])
def test_norm_nuc_is_the_sum_of_singular_values(dim, keepdim) -> None:
    a = np.random.default_rng(3).standard_normal((3, 4, 5))
    if dim is None:
        a = a[0]
    ta, va = torch.tensor(a, requires_grad=True), volta.tensor(a, requires_grad=True)
    expected = torch.norm(ta, p="nuc", dim=dim, keepdim=keepdim)
    got = volta.norm(va, p="nuc", dim=dim, keepdim=keepdim)
    expected.sum().backward()
    got.sum().backward()
    np.testing.assert_allclose(got.detach().numpy(), expected.detach().numpy(), rtol=1e-10)
    np.testing.assert_allclose(va.grad.numpy(), ta.grad.numpy(), rtol=1e-8, atol=1e-10)

