"""The oracle harness fails a backward whose gradient shares memory with the op's inputs or
outputs (Note [Gradient ownership]): zeroing ``.grad`` in place would write into them."""

from __future__ import annotations

import pytest

import volta
from volta.testing.harness import ModuleAdapter, _check_gradients_share_no_memory
from volta.testing.opinfo import Materialized

VOLTA = ModuleAdapter(volta)


class _HandBack(volta.autograd.Function):
    """y = x * w whose backward (wrongly) hands ``w`` itself back as x's gradient."""

    @staticmethod
    def forward(ctx, x, w):
        ctx.save_for_backward(w)
        return x * w

    @staticmethod
    def backward(ctx, grad):
        (w,) = ctx.saved_tensors
        return w.detach(), None


def _run(hand_back_w: bool) -> None:
    x = volta.ones(3).requires_grad_()
    w = volta.full((3,), 2.0)
    out = _HandBack.apply(x, w) if hand_back_w else x * w
    out.backward(volta.ones(3))
    m = Materialized((x, w), {}, {"args[0]": (None, x), "args[1]": (None, w)})
    _check_gradients_share_no_memory(VOLTA, m, [out], {"args[0]": x})


def test_a_gradient_sharing_an_input_fails_the_check():
    with pytest.raises(AssertionError, match=r"of args\[0\] in place changed args\[1\]: they"):
        _run(hand_back_w=True)


def test_two_gradients_sharing_memory_fail_the_check():
    x, y = volta.ones(4).requires_grad_(), volta.ones(2, 2).requires_grad_()
    (x * 2).sum().backward()
    y.grad = x.grad.view(2, 2)  # what a backward handing one gradient to both would leave
    m = Materialized((x, y), {}, {"args[0]": (None, x), "args[1]": (None, y)})
    with pytest.raises(AssertionError, match=r"changed the gradient of args\[1\]: they share"):
        _check_gradients_share_no_memory(VOLTA, m, [], {"args[0]": x, "args[1]": y})


def test_a_fresh_gradient_passes_the_check():
    _run(hand_back_w=False)
