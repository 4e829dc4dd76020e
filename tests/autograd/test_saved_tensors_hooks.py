"""``volta.autograd.graph.saved_tensors_hooks`` and ``save_on_cpu`` (PyTorch semantics)."""

from __future__ import annotations

import threading

import numpy as np
import pytest

import volta
from volta.autograd.graph import save_on_cpu, saved_tensors_hooks


def test_pack_when_saved_unpack_when_backward_reads():
    packed, unpacked = [], []

    def pack(t):
        packed.append(t.detach().clone())
        return len(packed) - 1

    def unpack(i):
        unpacked.append(i)
        return packed[i]

    x = volta.tensor([0.5, 2.0], requires_grad=True)
    with saved_tensors_hooks(pack, unpack):
        y = (x * x).sin()  # mul saves x twice (self, other); sin saves its input
    assert len(packed) == 3 and not unpacked
    y.sum().backward()
    assert sorted(unpacked) == [0, 1, 2]
    xv = np.array([0.5, 2.0])
    np.testing.assert_allclose(x.grad.numpy(), np.cos(xv * xv) * 2 * xv, rtol=1e-6)


def test_unpacked_value_is_what_backward_uses():
    x = volta.tensor([1.0, 2.0], requires_grad=True)
    with saved_tensors_hooks(lambda t: t, lambda t: t * 10):
        y = x * x
    y.sum().backward()
    np.testing.assert_allclose(x.grad.numpy(), [20.0, 40.0])  # 10x + 10x


def test_nothing_packed_for_inputs_that_need_no_formula():
    packed = []
    a = volta.randn(3, requires_grad=True)
    with saved_tensors_hooks(lambda t: packed.append(t) or t, lambda t: t):
        a * 2
        a + volta.randn(3)
    assert packed == []


def test_innermost_hooks_apply_and_are_thread_local():
    seen = []
    x = volta.randn(2, requires_grad=True)
    with saved_tensors_hooks(lambda t: seen.append("outer") or t, lambda t: t):
        with saved_tensors_hooks(lambda t: seen.append("inner") or t, lambda t: t):
            x.exp()
            other = threading.Thread(target=lambda: x.exp())
            other.start()
            other.join()
        x.exp()
    assert seen == ["inner", "outer"]


def test_version_check_still_applies_to_the_original():
    x = volta.tensor([1.0, 2.0], requires_grad=True)
    h = x * 1
    with saved_tensors_hooks(lambda t: t.detach().clone(), lambda t: t):
        y = h.exp() * h
    h.add_(1)
    with pytest.raises(volta.AutogradError, match="modified by an inplace operation"):
        y.sum().backward()


def test_unpack_must_return_a_tensor():
    x = volta.randn(2, requires_grad=True)
    with saved_tensors_hooks(lambda t: t, lambda t: 3):
        y = x.exp()
    with pytest.raises(volta.AutogradError, match="must return a Tensor"):
        y.sum().backward()


def test_custom_function_saves_through_hooks():
    calls = []

    class Cube(volta.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            ctx.save_for_backward(x)
            return x * x * x

        @staticmethod
        def backward(ctx, g):
            (x,) = ctx.saved_tensors
            return 3 * x * x * g

    x = volta.tensor([1.0, 2.0], requires_grad=True)
    with saved_tensors_hooks(lambda t: calls.append("pack") or t.detach().clone(),
                             lambda t: calls.append("unpack") or t):
        y = Cube.apply(x)
    assert calls == ["pack"]
    y.sum().backward()
    assert calls == ["pack", "unpack"]
    np.testing.assert_allclose(x.grad.numpy(), [3.0, 12.0])


def test_double_backward_through_unpacked_tensors():
    x = volta.tensor([0.3, -0.7], dtype=volta.float64, requires_grad=True)
    with saved_tensors_hooks(lambda t: t.detach().clone(), lambda t: t):
        y = (x * x * x).sum()
    (g,) = volta.autograd.grad(y, x, create_graph=True)
    (gg,) = volta.autograd.grad(g.sum(), x)
    np.testing.assert_allclose(gg.numpy(), 6 * x.detach().numpy())


def test_save_on_cpu_keeps_a_copy_and_gives_the_same_gradients():
    x = volta.randn(4, 3, dtype=volta.float64, requires_grad=True)
    w = volta.randn(3, 3, dtype=volta.float64, requires_grad=True)
    (x @ w).tanh().sum().backward()
    expected = (x.grad.numpy().copy(), w.grad.numpy().copy())
    x.grad = w.grad = None
    with save_on_cpu(pin_memory=True):
        y = (x @ w).tanh()
    node = y.grad_fn.next_functions[0][0]  # the matmul's node holds packed host copies
    saved = [s for s in (getattr(node, n, None) for n in type(node).__slots__) if s is not None]
    assert saved and all(s.data is None and s.packed[1]._storage is not x._storage
                         for s in saved if hasattr(s, "packed"))
    y.sum().backward()
    np.testing.assert_allclose(x.grad.numpy(), expected[0])
    np.testing.assert_allclose(w.grad.numpy(), expected[1])
