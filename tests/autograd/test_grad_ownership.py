"""AccumulateGrad takes ownership of an incoming gradient only when nothing else can see it
(Note [Gradient ownership]): otherwise ``.grad`` is a copy, and writing to it in place (as
optimisers and ``zero_grad(set_to_none=False)`` do) must not change anything else."""

from __future__ import annotations

import numpy as np
import torch

import volta


def _leaf(n: int = 4) -> volta.Tensor:
    return volta.arange(1.0, n + 1.0).requires_grad_()


class _Emit(volta.autograd.Function):
    """Identity whose backward returns ``make(grad)`` and records the id of what it returned."""

    made: list[int] = []
    make = None

    @staticmethod
    def forward(ctx, x):
        return x.clone()

    @staticmethod
    def backward(ctx, grad):
        out = _Emit.make(grad)
        _Emit.made.append(id(out))  # an id, not a reference
        return out


def _emit(x, make):
    _Emit.made = []
    _Emit.make = staticmethod(make)
    return _Emit.apply(x)


def test_a_fresh_unreferenced_gradient_becomes_grad_without_a_copy():
    x = _leaf()
    _emit(x, lambda g: g * 2).sum().backward()
    assert id(x.grad) == _Emit.made[0]
    np.testing.assert_array_equal(x.grad.numpy(), [2.0] * 4)


def test_a_gradient_the_backward_keeps_is_copied():
    x = _leaf()
    kept = []

    def make(g):
        out = g * 2
        kept.append(out)
        return out

    _emit(x, make).sum().backward()
    assert x.grad is not kept[0]
    x.grad.zero_()
    np.testing.assert_array_equal(kept[0].numpy(), [2.0] * 4)


def test_a_gradient_that_views_another_tensor_is_copied():
    x = _leaf()
    base = volta.full((2, 4), 3.0)
    _emit(x, lambda g: base[1]).sum().backward()
    x.grad.zero_()
    np.testing.assert_array_equal(base.numpy(), np.full((2, 4), 3.0))


def test_a_gradient_sharing_storage_with_a_kept_tensor_is_copied():
    x = _leaf()
    other = volta.full((4,), 5.0)
    _emit(x, lambda g: other.detach()).sum().backward()
    x.grad.mul_(0)
    np.testing.assert_array_equal(other.numpy(), [5.0] * 4)


def test_a_gradient_whose_memory_a_numpy_array_views_is_copied():
    x = _leaf()
    arrays = []

    def make(g):
        out = g * 2
        arrays.append(out.numpy()[1:])  # a numpy view of the gradient's memory
        return out

    _emit(x, make).sum().backward()
    x.grad.zero_()
    np.testing.assert_array_equal(arrays[0], [2.0] * 3)


def test_the_same_gradient_reaching_two_leaves_is_not_shared_between_them():
    x, y = _leaf(), _leaf()
    (x + y).sum().backward()  # add's backward hands one gradient tensor to both leaves
    assert x.grad._storage is not y.grad._storage
    x.grad.zero_()
    np.testing.assert_array_equal(y.grad.numpy(), [1.0] * 4)


def test_a_gradient_passed_by_the_caller_is_copied():
    x = _leaf()
    seed = volta.ones(4)
    (x * 1).backward(seed)  # mul's backward by 1 may hand ``seed`` itself on
    x.grad.zero_()
    np.testing.assert_array_equal(seed.numpy(), [1.0] * 4)
    x2 = _leaf()
    x2.backward(seed)  # the root is the leaf itself: the caller's gradient reaches it as is
    x2.grad.zero_()
    np.testing.assert_array_equal(seed.numpy(), [1.0] * 4)


def test_a_gradient_a_tensor_hook_keeps_or_returns_is_copied():
    kept = []
    x = _leaf()
    x.register_hook(lambda g: kept.append(g))
    (x * 2).sum().backward()
    x.grad.zero_()
    np.testing.assert_array_equal(kept[0].numpy(), [2.0] * 4)

    replacement = volta.full((4,), 7.0)
    y = _leaf()
    y.register_hook(lambda g: replacement)
    (y * 2).sum().backward()
    y.grad.zero_()
    np.testing.assert_array_equal(replacement.numpy(), [7.0] * 4)


def test_a_gradient_a_prehook_of_the_accumulator_returns_is_copied():
    x = _leaf()
    y = x * 2
    replacement = volta.full((4,), 7.0)
    acc = y.grad_fn.next_functions[0][0]
    acc.register_prehook(lambda grads: (replacement,))
    y.sum().backward()
    x.grad.zero_()
    np.testing.assert_array_equal(replacement.numpy(), [7.0] * 4)


def test_retained_graph_backward_twice_accumulates_like_pytorch():
    w = volta.tensor([1.0, 2.0, 3.0], requires_grad=True)
    tw = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
    for leaf in (w, tw):
        y = (leaf * leaf).sum()
        y.backward(retain_graph=True)
        first = leaf.grad.clone()
        y.backward()
        np.testing.assert_allclose(leaf.grad.detach().numpy(), 2 * first.detach().numpy())
    np.testing.assert_allclose(w.grad.numpy(), tw.grad.numpy())


def test_retained_graph_gradient_kept_in_the_graph_is_not_aliased():
    # expand's backward sums into a fresh tensor, but an identity-like backward passes the
    # gradient it received; with retain_graph the graph (and so the root gradient) stays alive
    x = _leaf()
    seed = volta.ones(4)
    y = x.view(4)
    y.backward(seed, retain_graph=True)
    x.grad.zero_()
    y.backward(seed)
    np.testing.assert_array_equal(x.grad.numpy(), [1.0] * 4)
    np.testing.assert_array_equal(seed.numpy(), [1.0] * 4)


def test_create_graph_gradient_stays_differentiable():
    x = _leaf()
    (x * x).sum().backward(create_graph=True)
    assert x.grad.requires_grad
    x2 = volta.arange(1.0, 5.0).requires_grad_()
    tx = torch.arange(1.0, 5.0, dtype=torch.float32).requires_grad_()
    (x2 ** 3).sum().backward(create_graph=True)
    (tx ** 3).sum().backward(create_graph=True)
    np.testing.assert_allclose(x2.grad.detach().numpy(), tx.grad.detach().numpy())
