"""Semantics of the backward engine, grad modes, hooks and in-place autograd, against PyTorch."""

from __future__ import annotations

import threading

import numpy as np
import pytest
import torch

import volta
from volta.autograd import grad_mode
from volta.autograd.graph import ANOMALY


@pytest.fixture(autouse=True)
def _clean_modes():
    """Every test starts and ends with grad enabled and anomaly detection off on this thread."""
    grad_mode._set_enabled(True)
    yield
    grad_mode._set_enabled(True)
    ANOMALY.enabled = False


def leaf(values, dtype=volta.float64) -> volta.Tensor:
    return volta.tensor(np.asarray(values, dtype=np.float64), dtype=dtype, requires_grad=True)


def tleaf(values) -> torch.Tensor:
    return torch.tensor(np.asarray(values, dtype=np.float64), requires_grad=True)


def close(actual: volta.Tensor, expected: torch.Tensor, tol: float = 1e-12) -> None:
    np.testing.assert_allclose(actual.detach().numpy(), expected.detach().numpy(), rtol=tol,
                               atol=tol)


RNG = np.random.default_rng(1234)


# -- accumulation, retain_graph, freed graphs ----------------------------------------------------


def test_gradients_accumulate_across_backward_calls():
    x = leaf([1.0, -2.0, 3.0])
    (x * x).sum().backward()
    (x * 3).sum().backward()
    np.testing.assert_allclose(x.grad.numpy(), 2 * x.detach().numpy() + 3)


def test_retain_graph_allows_a_second_backward():
    x = leaf([0.5, 1.5])
    y = x.exp().sum()
    y.backward(retain_graph=True)
    y.backward()
    np.testing.assert_allclose(x.grad.numpy(), 2 * np.exp([0.5, 1.5]))


def test_second_backward_without_retain_graph_raises():
    x = leaf([0.5, 1.5])
    y = (x.exp() * x).sum()
    y.backward()
    with pytest.raises(volta.AutogradError, match="second time"):
        y.backward()


def test_grad_without_retain_graph_frees_the_graph():
    x = leaf([0.5, 1.5])
    y = x.sin().sum()
    volta.autograd.grad(y, [x])
    with pytest.raises(volta.AutogradError, match="second time"):
        volta.autograd.grad(y, [x])


# -- higher order ---------------------------------------------------------------------------------


def test_grad_of_grad():
    x = leaf([0.3, -1.2, 2.0])
    (g,) = volta.autograd.grad((x ** 3).sum(), x, create_graph=True)
    assert g.requires_grad
    (gg,) = volta.autograd.grad(g.sum(), x)
    np.testing.assert_allclose(g.detach().numpy(), 3 * x.detach().numpy() ** 2)
    np.testing.assert_allclose(gg.numpy(), 6 * x.detach().numpy())


def test_backward_create_graph_gives_differentiable_grad():
    x = leaf([0.7, 1.1])
    (x.sin() * x).sum().backward(create_graph=True)
    first = x.grad
    assert first.requires_grad
    x.grad = None
    first.sum().backward()
    tx = tleaf([0.7, 1.1])
    (tx.sin() * tx).sum().backward(create_graph=True)
    tfirst = tx.grad
    tx.grad = None
    tfirst.sum().backward()
    close(x.grad, tx.grad)


def test_hessian_vector_product_matches_torch():
    xv, vv = RNG.standard_normal(5), RNG.standard_normal(5)
    W = RNG.standard_normal((5, 5))

    def f(lib, x, w):
        return (x.sin() * x).sum() + ((x @ w).tanh() ** 2).sum() + (x @ x) ** 2

    x = leaf(xv)
    (g,) = volta.autograd.grad(f(volta, x, volta.tensor(W)), x, create_graph=True)
    (hv,) = volta.autograd.grad(g, x, grad_outputs=volta.tensor(vv))
    tx = tleaf(xv)
    (tg,) = torch.autograd.grad(f(torch, tx, torch.tensor(W)), tx, create_graph=True)
    (thv,) = torch.autograd.grad(tg, tx, grad_outputs=torch.tensor(vv))
    close(g, tg, 1e-10)
    close(hv, thv, 1e-10)


# -- volta.autograd.grad -------------------------------------------------------------------------


def test_grad_with_grad_outputs_for_a_non_scalar_output():
    xv, gv = RNG.standard_normal((2, 3)), RNG.standard_normal((2, 3))
    x = leaf(xv)
    (g,) = volta.autograd.grad(x.tanh() * 2, x, grad_outputs=volta.tensor(gv))
    tx = tleaf(xv)
    (tg,) = torch.autograd.grad(tx.tanh() * 2, tx, grad_outputs=torch.tensor(gv))
    close(g, tg)
    assert x.grad is None  # grad() does not accumulate


def test_non_scalar_output_needs_grad_outputs():
    x = leaf([1.0, 2.0])
    with pytest.raises(volta.AutogradError, match="scalar outputs"):
        volta.autograd.grad(x * 2, x)


def test_allow_unused():
    a, b = leaf([1.0, 2.0]), leaf([3.0, 4.0])
    with pytest.raises(volta.AutogradError, match="allow_unused=True"):
        volta.autograd.grad((a * 2).sum(), [a, b])
    ga, gb = volta.autograd.grad((a * 2).sum(), [a, b], allow_unused=True)
    np.testing.assert_allclose(ga.numpy(), [2.0, 2.0])
    assert gb is None
    _, gz = volta.autograd.grad((a * 2).sum(), [a, b], materialize_grads=True)
    np.testing.assert_allclose(gz.numpy(), [0.0, 0.0])


def test_grad_with_respect_to_non_leaf_inputs():
    xv = RNG.standard_normal(3)
    x = leaf(xv)
    h = x * 2
    y = h.exp()
    gh, gx = volta.autograd.grad(y, [h, x], grad_outputs=volta.ones(3, dtype=volta.float64) * 2)
    np.testing.assert_allclose(gh.numpy(), 2 * np.exp(2 * xv))
    np.testing.assert_allclose(gx.numpy(), 4 * np.exp(2 * xv))


def test_grad_with_respect_to_non_leaf_keeps_the_graph_below_it():
    # as in PyTorch, grad(y, [h]) only runs the part of the graph between y and h
    xv = np.array([0.1, 0.2, 0.3])
    x = leaf(xv)
    h = x.exp()
    (gh,) = volta.autograd.grad((h * 2).sum(), [h])
    np.testing.assert_allclose(gh.numpy(), [2.0, 2.0, 2.0])
    h.sum().backward()  # h's own history (ExpBackward) must still be intact
    np.testing.assert_allclose(x.grad.numpy(), np.exp(xv))


def test_backward_inputs_argument_limits_accumulation():
    a, b = leaf([1.0, 2.0]), leaf([3.0, 4.0])
    (a * b).sum().backward(inputs=[a])
    np.testing.assert_allclose(a.grad.numpy(), [3.0, 4.0])
    assert b.grad is None


# -- leaves, retain_grad, requires_grad_, detach ------------------------------------------------


def test_retain_grad_on_non_leaf():
    x = leaf([1.0, 2.0, 3.0])
    h = x * 2
    h.retain_grad()
    assert h.retains_grad
    (h * h).sum().backward()
    np.testing.assert_allclose(h.grad.numpy(), 2 * h.detach().numpy())
    np.testing.assert_allclose(x.grad.numpy(), 8 * x.detach().numpy())
    m = x * 3
    (m * 1).sum().backward()
    assert m.grad is None  # non-leaf without retain_grad keeps no grad


def test_requires_grad_():
    t = volta.tensor([1.0, 2.0])
    assert not t.requires_grad and t.is_leaf
    assert t.requires_grad_() is t
    assert t.requires_grad and t.is_leaf
    y = t * 2
    assert y.requires_grad and not y.is_leaf
    with pytest.raises(volta.AutogradError):
        y.requires_grad_(False)  # only leaves can change the flag
    t.requires_grad_(False)
    assert not (t * 2).requires_grad
    with pytest.raises(volta.DTypeError):
        volta.tensor([1, 2]).requires_grad_()


def test_detach_shares_storage_and_has_no_history():
    x = leaf([1.0, 2.0, 3.0])
    y = x * 2
    d = y.detach()
    assert d.grad_fn is None and not d.requires_grad and d.is_leaf
    d[0] = 10.0
    assert y[0].item() == 10.0  # same storage
    with volta.no_grad():
        x.detach().add_(1.0)
    np.testing.assert_allclose(x.detach().numpy(), [2.0, 3.0, 4.0])


def test_detach_shares_the_version_counter():
    x = leaf([1.0, 2.0])
    y = x.exp()
    y.detach().mul_(2)  # modifies what ExpBackward saved
    with pytest.raises(volta.AutogradError, match="modified by an inplace operation"):
        y.sum().backward()


# -- hooks ---------------------------------------------------------------------------------------


def test_tensor_hook_on_leaf_modifies_gradient_and_can_be_removed():
    x = leaf([1.0, 2.0])
    seen = []

    def hook(g):
        seen.append(g.numpy().copy())
        return g * 10

    handle = x.register_hook(hook)
    (x * 3).sum().backward()
    np.testing.assert_allclose(seen[0], [3.0, 3.0])
    np.testing.assert_allclose(x.grad.numpy(), [30.0, 30.0])
    handle.remove()
    x.grad = None
    (x * 3).sum().backward()
    np.testing.assert_allclose(x.grad.numpy(), [3.0, 3.0])
    assert len(seen) == 1


def test_tensor_hook_on_non_leaf_modifies_gradient_flowing_back():
    x = leaf([1.0, 2.0])
    h = x * 2
    handle = h.register_hook(lambda g: g * 3)
    (h * h).sum().backward()
    np.testing.assert_allclose(x.grad.numpy(), 3 * 2 * (2 * h.detach().numpy()))
    handle.remove()
    x.grad = None
    h2 = x * 2
    h2.register_hook(lambda g: None)  # returning None keeps the gradient
    h2.sum().backward()
    np.testing.assert_allclose(x.grad.numpy(), [2.0, 2.0])


def test_hook_on_tensor_without_grad_raises():
    with pytest.raises(volta.AutogradError):
        volta.tensor([1.0]).register_hook(lambda g: g)


def test_node_hooks_pre_and_post():
    x = leaf([0.5, 1.0])
    h = x.exp()
    calls = []

    def pre(grad_outputs):
        calls.append("pre")
        return (grad_outputs[0] * 2,)

    def post(grad_inputs, grad_outputs):
        calls.append("post")
        np.testing.assert_allclose(grad_outputs[0].numpy(), [2.0, 2.0])  # after pre
        return (grad_inputs[0] + 1,)

    pre_handle = h.grad_fn.register_prehook(pre)
    post_handle = h.grad_fn.register_hook(post)
    h.sum().backward(retain_graph=True)
    assert calls == ["pre", "post"]
    np.testing.assert_allclose(x.grad.numpy(), 2 * np.exp([0.5, 1.0]) + 1)
    pre_handle.remove()
    post_handle.remove()
    x.grad = None
    h.sum().backward()
    assert calls == ["pre", "post"]
    np.testing.assert_allclose(x.grad.numpy(), np.exp([0.5, 1.0]))


def test_next_functions_walk_the_graph():
    x = leaf([1.0])
    y = (x * 2).exp()
    assert y.grad_fn.name() == "ExpBackward"
    (mul, _), = y.grad_fn.next_functions[:1]
    assert mul.name() == "MulBackward"
    assert type(mul.next_functions[0][0]).__name__ == "AccumulateGrad"


# -- grad modes ----------------------------------------------------------------------------------


def test_no_grad_records_nothing():
    x = leaf([1.0, 2.0])
    with volta.no_grad():
        y = x.exp()
        assert not volta.is_grad_enabled()
    assert y.grad_fn is None and not y.requires_grad
    assert volta.is_grad_enabled()
    x.detach().add_(0.0)  # nothing was saved, so nothing can be invalidated


def test_enable_grad_inside_no_grad():
    x = leaf([1.0, 2.0])
    with volta.no_grad():
        with volta.enable_grad():
            y = x * 2
        z = x * 2
    assert y.grad_fn is not None and z.grad_fn is None


def test_set_grad_enabled_as_call_and_context():
    x = leaf([1.0])
    volta.set_grad_enabled(False)
    assert not volta.is_grad_enabled()
    assert (x * 2).grad_fn is None
    volta.set_grad_enabled(True)
    assert volta.is_grad_enabled()
    with volta.set_grad_enabled(False):
        assert (x * 2).grad_fn is None
    assert volta.is_grad_enabled()
    with volta.no_grad(), volta.set_grad_enabled(True):
        assert (x * 2).grad_fn is not None


def test_set_grad_enabled_as_decorator():
    x = leaf([1.0])

    @volta.set_grad_enabled(False)
    def f():
        return x * 2

    # decorating must not change the mode of the code that defines the function (PyTorch
    # restores the previous mode in set_grad_enabled.__call__)
    assert volta.is_grad_enabled()
    assert f().grad_fn is None
    assert volta.is_grad_enabled()


def test_no_grad_as_decorator():
    x = leaf([1.0])

    @volta.no_grad()
    def f():
        return x * 2

    assert f().grad_fn is None
    assert volta.is_grad_enabled()


def test_no_grad_as_decorator_without_parentheses():
    # PyTorch 2 accepts @torch.no_grad (and @torch.enable_grad, @torch.inference_mode)
    x = leaf([1.0])

    @volta.no_grad
    def f():
        return x * 2

    assert f().grad_fn is None
    assert volta.is_grad_enabled()


def test_inference_mode():
    x = leaf([1.0, 2.0])
    with volta.inference_mode():
        assert volta.is_inference_mode_enabled() and not volta.is_grad_enabled()
        y = x * 2
    assert y.grad_fn is None and not y.requires_grad
    assert not volta.is_inference_mode_enabled() and volta.is_grad_enabled()
    with volta.inference_mode(False):
        assert (x * 2).grad_fn is not None

    @volta.inference_mode()
    def f():
        return x * 2

    assert f().grad_fn is None and volta.is_grad_enabled()


def test_grad_mode_is_per_thread():
    x = leaf([1.0])
    entered, release = threading.Event(), threading.Event()
    seen = {}

    def other():
        with volta.no_grad():
            entered.set()
            release.wait(10)
            seen["other_enabled"] = volta.is_grad_enabled()
            seen["other_recorded"] = (x * 2).grad_fn is not None

    t = threading.Thread(target=other)
    t.start()
    assert entered.wait(10)
    assert volta.is_grad_enabled()  # the other thread's no_grad does not reach this one
    assert (x * 2).grad_fn is not None
    with volta.no_grad():
        release.set()
        t.join(10)
    assert seen == {"other_enabled": False, "other_recorded": False}

    fresh = {}
    with volta.no_grad():
        worker = threading.Thread(target=lambda: fresh.setdefault("on", volta.is_grad_enabled()))
        worker.start()
        worker.join(10)
    assert fresh == {"on": True}  # a new thread starts with grad enabled


# -- broadcasting --------------------------------------------------------------------------------


def test_broadcast_gradients_are_reduced():
    av, bv = RNG.standard_normal((3, 1)), RNG.standard_normal(4)
    a, b = leaf(av), leaf(bv)
    ((a + b) * (a - b)).sum().backward()
    ta, tb = tleaf(av), tleaf(bv)
    ((ta + tb) * (ta - tb)).sum().backward()
    assert tuple(a.grad.shape) == (3, 1) and tuple(b.grad.shape) == (4,)
    close(a.grad, ta.grad)
    close(b.grad, tb.grad)


def test_scalar_tensor_times_tensor():
    s, t = leaf(2.5), leaf([1.0, -2.0, 4.0])
    (s * t).sum().backward()
    assert tuple(s.grad.shape) == ()
    assert s.grad.item() == pytest.approx(3.0)
    np.testing.assert_allclose(t.grad.numpy(), [2.5, 2.5, 2.5])


# -- in-place ops and version counters -----------------------------------------------------------


def test_inplace_on_saved_tensor_is_detected():
    x = leaf([1.0, 2.0])
    y = x.exp()
    y.add_(1)
    with pytest.raises(volta.AutogradError, match="modified by an inplace operation"):
        y.sum().backward()


def test_inplace_on_unsaved_tensor_is_fine():
    x = leaf([1.0, 2.0])
    y = x * 2  # mul by a number saves nothing about y
    y.add_(1)
    (y * y).sum().backward()
    np.testing.assert_allclose(x.grad.numpy(), 4 * (2 * x.detach().numpy() + 1))


def test_inplace_on_leaf_requiring_grad_raises():
    x = leaf([1.0, 2.0])
    with pytest.raises(volta.AutogradError, match="a leaf Variable that requires grad"):
        x.add_(1)
    with volta.no_grad():
        x.add_(1)  # the optimiser pattern
    np.testing.assert_allclose(x.detach().numpy(), [2.0, 3.0])


def test_inplace_on_view_of_leaf_requiring_grad_raises():
    x = leaf([1.0, 2.0, 3.0])
    with pytest.raises(volta.AutogradError, match="leaf Variable that requires grad"):
        x[0:2].mul_(2)
    with pytest.raises(volta.AutogradError, match="leaf Variable that requires grad"):
        x[1] = 5.0
    np.testing.assert_allclose(x.detach().numpy(), [1.0, 2.0, 3.0])  # nothing written


def _copy_slices_case(lib, x, y, augmented: bool):
    a = x * 1
    if augmented:
        a[1:3] *= 2
    else:
        a[1:3].mul_(2)
    a[0] = y
    return (a ** 2).sum()


@pytest.mark.parametrize("augmented", [False, True], ids=["mul_", "augmented_assign"])
def test_inplace_on_non_leaf_view_matches_torch(augmented):
    xv, yv = RNG.standard_normal(5), RNG.standard_normal()
    x, y = leaf(xv), leaf(yv)
    loss = _copy_slices_case(volta, x, y, augmented)
    loss.backward()
    tx, ty = tleaf(xv), tleaf(yv)
    tloss = _copy_slices_case(torch, tx, ty, augmented)
    tloss.backward()
    close(loss, tloss)
    close(x.grad, tx.grad)
    close(y.grad, ty.grad)


def test_augmented_assignment_is_in_place():
    a = volta.ones(3)
    alias = a
    alias += 1
    alias *= 3
    assert alias is a  # PyTorch: += and *= write into the tensor (add_, mul_)
    np.testing.assert_allclose(a.numpy(), [6.0, 6.0, 6.0])


def _two_views_case(lib, x):
    a = x * 1
    first, second = a[0:2], a[1:3]
    second.mul_(2)  # also changes first[1]
    return (first * first).sum()


def test_backward_through_a_view_whose_base_was_modified_through_another_view():
    xv = np.array([1.0, 2.0, 3.0])
    x, tx = leaf(xv), tleaf(xv)
    _two_views_case(volta, x).backward()
    _two_views_case(torch, tx).backward()
    close(x.grad, tx.grad)


def _view_of_modified_view_case(lib, x):
    a = x * 1
    v = a[1:4]
    v.mul_(2)
    w = v[1:]
    w.add_(x[:2] * 3)  # changes v[1:] after v's own in-place op
    weights = lib.tensor([0.0, 1.0, 2.0], dtype=lib.float64)
    return (v * weights).sum() + (a * a).sum()


def test_backward_through_a_view_after_an_in_place_op_on_a_view_of_it():
    xv = np.array([1.0, 2.0, 3.0, 4.0, 5.0])
    x, tx = leaf(xv), tleaf(xv)
    loss, tloss = _view_of_modified_view_case(volta, x), _view_of_modified_view_case(torch, tx)
    close(loss, tloss)
    loss.backward()
    tloss.backward()
    close(x.grad, tx.grad)


def test_building_a_tensor_by_assignment():
    wv = RNG.standard_normal(3)
    w = leaf(wv)
    out = volta.zeros(3, 4, dtype=volta.float64)
    out[:, 1] = w * 2
    out[0, 3] = w[2]
    (out * out * volta.arange(12.0, dtype=volta.float64).reshape(3, 4)).sum().backward()
    tw = tleaf(wv)
    tout = torch.zeros(3, 4, dtype=torch.float64)
    tout[:, 1] = tw * 2
    tout[0, 3] = tw[2]
    (tout * tout * torch.arange(12.0, dtype=torch.float64).reshape(3, 4)).sum().backward()
    close(w.grad, tw.grad)


# -- anomaly detection ---------------------------------------------------------------------------


def test_detect_anomaly_names_the_forward_op():
    x = volta.zeros(3, dtype=volta.float64, requires_grad=True)
    with volta.autograd.detect_anomaly():
        loss = (x.sqrt() * 0).sum()
        with pytest.raises(volta.AutogradError) as info:
            loss.backward()
    message = str(info.value)
    assert "SqrtBackward" in message and "'sqrt'" in message
    assert "test_engine.py" in message  # where the forward op was called
    assert not ANOMALY.enabled


def test_without_anomaly_mode_nan_passes_silently():
    x = volta.zeros(3, dtype=volta.float64, requires_grad=True)
    (x.sqrt() * 0).sum().backward()
    assert np.isnan(x.grad.numpy()).all()


def test_detect_anomaly_names_a_custom_function():
    class NanBackward(volta.autograd.Function):
        @staticmethod
        def forward(ctx, t):
            return t * 2

        @staticmethod
        def backward(ctx, g):
            return g * float("nan")

    x = leaf([1.0, 2.0])
    with volta.autograd.detect_anomaly(), pytest.raises(volta.AutogradError,
                                                         match="NanBackwardBackward"):
        NanBackward.apply(x).sum().backward()


# -- a small MLP against torch -------------------------------------------------------------------


def test_float64_tensor_from_python_floats_is_exact():
    # torch.tensor([0.1], dtype=torch.float64) holds the double 0.1, not float32(0.1)
    t = volta.tensor([0.1, 0.3], dtype=volta.float64, requires_grad=True)
    assert t.detach().numpy().tolist() == [0.1, 0.3]
    assert volta.tensor(0.1, dtype=volta.float64).item() == 0.1


def _mlp(lib, x, w1, b1, w2, b2, target):
    F = volta.nn.functional if lib is volta else torch.nn.functional
    h = (x @ w1 + b1).tanh()
    h = h * h.sigmoid() + F.relu(h - 0.1)
    logits = h @ w2 + b2
    logp = F.log_softmax(logits, -1)
    nll = -(logp * target).sum(-1).mean()
    return nll + 0.01 * (w1 ** 2).sum() + F.softmax(logits, 0).max() / 3


def test_small_mlp_gradients_match_torch_in_float64():
    shapes = [(6, 4), (4, 8), (8,), (8, 3), (3,)]
    values = [RNG.standard_normal(s) for s in shapes]
    target = np.eye(3)[RNG.integers(0, 3, 6)]
    vs = [leaf(v) for v in values]
    ts = [tleaf(v) for v in values]
    loss = _mlp(volta, *vs, volta.tensor(target))
    tloss = _mlp(torch, *ts, torch.tensor(target))
    loss.backward()
    tloss.backward()
    close(loss, tloss)
    for v, t in zip(vs, ts):
        close(v.grad, t.grad, 1e-10)


def test_an_accumulator_runs_as_soon_as_its_gradient_is_ready_as_in_pytorch():
    # PyTorch gives AccumulateGrad the highest priority: a leaf's gradient lands in .grad (and
    # the incoming one is freed) before any other ready node runs, not at the end of the pass
    def seen_by_a_later_node(lib) -> list[bool]:
        x, w = lib.ones(3, requires_grad=True), lib.ones(3, requires_grad=True)
        a = x * 2
        b = w * 3
        c = b.exp()
        seen: list[bool] = []
        a.register_hook(lambda g: seen.append(w.grad is not None))
        (a + c).sum().backward()
        return seen

    assert seen_by_a_later_node(volta) == seen_by_a_later_node(torch) == [True]
