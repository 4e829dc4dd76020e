"""Activation checkpointing (``volta.utils.checkpoint``): same gradients, less memory."""

from __future__ import annotations

import functools
import gc
import tracemalloc
import warnings

import numpy as np
import pytest

import volta
import volta.nn.functional as F
from volta.backend import BACKENDS, Backend
from volta.utils.checkpoint import checkpoint, checkpoint_sequential


def params(shapes, seed=0, dtype=volta.float32):
    volta.manual_seed(seed)
    return [(volta.randn(*s, dtype=dtype) * (1 / s[0] ** 0.5)).requires_grad_() for s in shapes]


def grads(tensors):
    out = [t.grad.numpy().copy() for t in tensors]
    for t in tensors:
        t.grad = None
    return out


def assert_same(a, b):
    assert len(a) == len(b)
    for x, y in zip(a, b):
        np.testing.assert_array_equal(x, y)


# -- same gradients ------------------------------------------------------------------------------


def dropout_block(h, w, b, p=0.3):
    return F.dropout((h @ w + b).tanh(), p) * 1.5


@pytest.mark.parametrize("closure", [False, True], ids=["params_as_args", "params_in_closure"])
def test_same_gradients_as_without_checkpoint_with_dropout(closure):
    ps = params([(8, 16), (16,), (16, 16), (16,), (16, 4), (4,)])
    x = volta.randn(5, 8)

    def run(use_checkpoint: bool):
        volta.manual_seed(123)
        h = x
        for w, b in zip(ps[0::2], ps[1::2]):
            if not use_checkpoint:
                h = dropout_block(h, w, b)
            elif closure:
                h = checkpoint(lambda t, w=w, b=b: dropout_block(t, w, b), h)
            else:
                h = checkpoint(dropout_block, h, w, b)
        loss = (h ** 2).mean()
        loss.backward()
        after = volta.rand(3).numpy()  # the generator continues as if nothing was recomputed
        return loss.item(), grads(ps), after

    plain, checked = run(False), run(True)
    assert plain[0] == checked[0]
    assert_same(plain[1], checked[1])
    np.testing.assert_array_equal(plain[2], checked[2])
    assert any(np.count_nonzero(g == 0) for g in plain[1])  # dropout did drop something


def test_without_preserved_rng_state_dropout_differs():
    (w,) = params([(6, 6)])
    x = volta.randn(4, 6)

    def run(**kwargs):
        volta.manual_seed(5)
        checkpoint(lambda t: F.dropout(t @ w, 0.5), x, **kwargs).sum().backward()
        return grads([w])[0]

    assert_same([run()], [run(preserve_rng_state=True)])
    assert not np.array_equal(run(), run(preserve_rng_state=False))


def test_input_gradient_and_non_tensor_arguments():
    xv = np.random.default_rng(0).standard_normal((3, 4))
    x = volta.tensor(xv, requires_grad=True)
    shift = volta.ones(4, dtype=volta.float64, requires_grad=True)

    def f(t, power, *, shift, mode="sin"):
        assert power == 2 and mode == "cos"
        return (t ** power + shift).cos(), "meta", 7

    out, tag, seven = checkpoint(f, x, 2, shift=shift, mode="cos")
    assert (tag, seven) == ("meta", 7)
    assert out.grad_fn is not None and out.grad_fn.name() == "CheckpointBackward"
    out.sum().backward()
    np.testing.assert_allclose(x.grad.numpy(), -np.sin(xv ** 2 + 1) * 2 * xv)
    np.testing.assert_allclose(shift.grad.numpy(), (-np.sin(xv ** 2 + 1)).sum(0))


def test_parameters_only_in_closure_still_get_gradients():
    w, b = params([(4, 3), (3,)])
    x = volta.randn(2, 4)  # the input needs no gradient: the parameters make the output need one
    out = checkpoint(lambda t: (t @ w + b).relu(), x)
    assert out.requires_grad
    out.sum().backward()
    got = grads([w, b])
    (x @ w + b).relu().sum().backward()
    assert_same(got, grads([w, b]))


def test_autograd_grad_through_checkpoint_reaches_closure_parameters():
    w = volta.randn(3, 3, dtype=volta.float64, requires_grad=True)
    x = volta.randn(2, 3, dtype=volta.float64, requires_grad=True)
    gw, gx = volta.autograd.grad(checkpoint(lambda t: (t @ w).sin(), x).sum(), [w, x])
    ew, ex = volta.autograd.grad((x @ w).sin().sum(), [w, x])
    np.testing.assert_allclose(gw.numpy(), ew.numpy())
    np.testing.assert_allclose(gx.numpy(), ex.numpy())
    assert w.grad is None and x.grad is None


def test_double_backward_through_checkpoint():
    x = volta.tensor([0.3, -0.7, 1.1], dtype=volta.float64, requires_grad=True)
    w = volta.tensor([2.0, 0.5, -1.0], dtype=volta.float64, requires_grad=True)
    y = checkpoint(lambda t: (t * w).sin().sum(), x)
    (gx,) = volta.autograd.grad(y, x, create_graph=True)
    ggx, ggw = volta.autograd.grad(gx.sum(), [x, w])
    xv, wv = x.detach().numpy(), w.detach().numpy()
    np.testing.assert_allclose(gx.detach().numpy(), wv * np.cos(xv * wv))
    np.testing.assert_allclose(ggx.numpy(), -wv ** 2 * np.sin(xv * wv))
    np.testing.assert_allclose(ggw.numpy(), np.cos(xv * wv) - xv * wv * np.sin(xv * wv))


def test_non_leaf_inputs_and_captured_non_leaf_tensors():
    base = volta.tensor([1.0, 2.0, 3.0], dtype=volta.float64, requires_grad=True)
    scale = base * 3  # a non-leaf the function captures
    h = base.exp()  # a non-leaf input
    checkpoint(lambda t: (t * scale).sum(), h).backward()
    bv = base.detach().numpy()
    np.testing.assert_allclose(base.grad.numpy(), np.exp(bv) * 3 * bv + np.exp(bv) * 3)


def test_checkpoint_sequential_matches_plain():
    ps = params([(6, 6)] * 6)
    layers = [functools.partial(lambda t, w: (t @ w).tanh(), w=w) for w in ps]
    x = volta.randn(4, 6, requires_grad=True)
    for segments in (1, 2, 3, 6):
        out = checkpoint_sequential(layers, segments, x)
        out.sum().backward()
        got = grads(ps + [x])
        h = x
        for layer in layers:
            h = layer(h)
        h.sum().backward()
        assert_same(got, grads(ps + [x]))
    with pytest.raises(ValueError, match="segments"):
        checkpoint_sequential(layers, 0, x)


def test_retain_graph_recomputes_each_time_and_freed_graph_raises():
    x = volta.tensor([0.5, 1.0], requires_grad=True)
    calls = []

    def f(t):
        calls.append(1)
        return t.exp()

    y = checkpoint(f, x).sum()
    assert len(calls) == 1
    y.backward(retain_graph=True)
    y.backward()
    assert len(calls) == 3
    np.testing.assert_allclose(x.grad.numpy(), 2 * np.exp([0.5, 1.0]), rtol=1e-6)
    with pytest.raises(volta.AutogradError, match="second time"):
        y.backward()


def test_input_modified_in_place_after_forward_is_detected():
    x = volta.tensor([0.5, 1.0], requires_grad=True)
    h = x * 1
    y = checkpoint(lambda t: t.exp(), h).sum()
    h.add_(1)
    with pytest.raises(volta.AutogradError, match="modified by an inplace operation"):
        y.backward()


def test_under_no_grad_it_just_calls_the_function():
    x = volta.tensor([1.0], requires_grad=True)
    with volta.no_grad():
        y = checkpoint(lambda t: t * 2, x)
    assert y.grad_fn is None


def test_no_input_requires_grad_warns():
    with pytest.warns(UserWarning, match="requires grad"):
        y = checkpoint(lambda t: t * 2, volta.ones(2))
    assert not y.requires_grad


def test_returning_an_input_unchanged():
    x = volta.tensor([1.0, 2.0], requires_grad=True)
    h = x * 2
    same, double = checkpoint(lambda t: (t, t * 2), h)
    assert same is not h and h.grad_fn.name() == "MulBackward"
    (same.sum() + double.sum()).backward()
    np.testing.assert_allclose(x.grad.numpy(), [6.0, 6.0])


def test_works_on_another_backend():
    # a backend with no kernels: every op runs through the CPU fallback
    class Store:
        def __init__(self, data):
            self.data = data

    class AltBackend(Backend):
        def allocate(self, numel, dt, index=0):
            return Store(np.empty(numel, dtype=dt.numpy))

        def from_numpy(self, arr, index=0):
            return Store(np.array(arr, copy=True).reshape(-1))

        def to_numpy(self, handle, dt, numel):
            return handle.data

        def copy_(self, dst, src):
            dst.data[...] = np.asarray(src).reshape(-1)

    with volta.library.scoped(), warnings.catch_warnings():
        warnings.simplefilter("ignore")
        BACKENDS.register("altck", AltBackend(), key_name="ALTCK")
        ps = params([(5, 5), (5,)], dtype=volta.float64)
        x = volta.randn(3, 5, dtype=volta.float64)
        volta.manual_seed(9)
        dropout_block(x, *ps).sum().backward()
        expected = grads(ps)
        alt = [p.detach().to("altck").requires_grad_() for p in ps]
        volta.manual_seed(9)
        out = checkpoint(dropout_block, x.to("altck"), *alt)
        assert out.device.type == "altck"
        out.sum().backward()
        got = [g.grad.cpu().numpy() for g in alt]
        for a, b in zip(got, expected):
            np.testing.assert_allclose(a, b, rtol=1e-12)


# -- memory --------------------------------------------------------------------------------------


def wide_layer(h, w, b):
    """A layer that keeps several activations for backward (as most real layers do)."""
    u = h @ w + b
    return u.tanh() * u.sigmoid() + F.relu(u) * 0.5


def peak_bytes(fn) -> int:
    gc.collect()
    tracemalloc.start()
    start, _ = tracemalloc.get_traced_memory()
    try:
        fn()
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    return peak - start


def test_checkpoint_saves_memory():
    depth, width, batch = 12, 128, 256
    ps = params([(width, width), (width,)] * depth)
    x = volta.randn(batch, width)

    def step(use_checkpoint: bool) -> None:
        h = x
        for w, b in zip(ps[0::2], ps[1::2]):
            h = checkpoint(wide_layer, h, w, b) if use_checkpoint else wide_layer(h, w, b)
        (h * h).mean().backward()

    step(False)  # warm-up: first-call caches and gradient buffers stay out of the numbers
    plain_peak = peak_bytes(lambda: step(False))
    plain = grads(ps)
    step(True)
    checked_peak = peak_bytes(lambda: step(True))
    assert_same(plain, grads(ps))
    activation = batch * width * 4
    # plain keeps ~5 activations per layer, checkpoint ~1 per layer plus one layer's worth
    assert checked_peak < 0.6 * plain_peak, (checked_peak, plain_peak)
    assert plain_peak - checked_peak > 2 * depth * activation
