"""AccumulateGrad takes an incoming gradient as ``.grad`` exactly where PyTorch's does (Note
[Gradient ownership]): when nothing but the engine refers to the gradient tensor and its strides
obey the leaf's layout (Note [Gradient layout contract]). Elsewhere ``.grad`` is a copy, and
writing to it in place (as optimisers and ``zero_grad(set_to_none=False)`` do) must not change
anything else.

Each scenario runs once through volta and once through PyTorch, and reports what a user can
observe: which tensors an in-place write to ``.grad`` reaches, and the strides of ``.grad``.
The two reports must be equal, so a stolen gradient where PyTorch copies (a gradient a hook or
the caller still sees changing under an optimiser) fails, and so does a copy where PyTorch
shares memory.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
import pytest
import torch

import volta


def _leaf(lib, n: int = 4):
    return lib.arange(1.0, n + 1.0).requires_grad_()


def _emit(lib, x, make: Callable):
    """An identity whose backward returns ``make(grad)``."""

    class Emit(lib.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            return x.clone()

        @staticmethod
        def backward(ctx, grad):
            return make(grad)

    return Emit.apply(x)


def _report(leaf, watched: dict) -> dict:
    """Zero ``leaf.grad`` in place and report which watched tensors that reached."""
    strides = tuple(leaf.grad.stride())
    before = {name: np.array(t.detach().numpy(), copy=True) for name, t in watched.items()}
    leaf.grad.zero_()
    reached = sorted(name for name, t in watched.items()
                     if not np.array_equal(t.detach().numpy(), before[name]))
    return {"reached": reached, "grad strides": strides}


def _fresh_gradient(lib):
    x = _leaf(lib)
    _emit(lib, x, lambda g: g * 2).sum().backward()
    return _report(x, {})


def _kept_by_the_backward(lib):
    x, kept = _leaf(lib), []

    def make(g):
        kept.append(g * 2)
        return kept[-1]

    _emit(lib, x, make).sum().backward()
    return _report(x, {"kept": kept[0]})


def _views_another_tensor(lib):
    x, base = _leaf(lib), lib.full((2, 4), 3.0)
    _emit(lib, x, lambda g: base[1]).sum().backward()
    return _report(x, {"base": base})


def _detached_from_another_tensor(lib):
    x, other = _leaf(lib), lib.full((4,), 5.0)
    _emit(lib, x, lambda g: other.detach()).sum().backward()
    return _report(x, {"other": other})


def _the_same_gradient_reaching_two_leaves(lib):
    x, y = _leaf(lib), _leaf(lib)
    (x + y).sum().backward()  # add's backward hands one gradient tensor to both leaves
    return _report(x, {"y.grad": y.grad})


def _caller_seed_through_mul(lib):
    x, seed = _leaf(lib), lib.ones(4)
    (x * 1).backward(seed)
    return _report(x, {"seed": seed})


def _caller_seed_to_the_leaf_itself(lib):
    x, seed = _leaf(lib), lib.ones(4)
    x.backward(seed)  # the root is the leaf: the caller's gradient reaches it as is
    return _report(x, {"seed": seed})


def _caller_seed_through_a_view(lib):
    # the gradient is a new tensor object viewing the caller's seed: PyTorch steals it
    x, seed = _leaf(lib), lib.ones(4)
    x.view(2, 2).flatten().backward(seed)
    return _report(x, {"seed": seed})


def _caller_seed_slice_through_a_view(lib):
    x, seed = _leaf(lib), lib.ones(8)
    x.view(2, 2).flatten().backward(seed[:4])
    return _report(x, {"seed": seed})


def _caller_seed_through_a_view_retaining_the_graph(lib):
    x, seed = _leaf(lib), lib.ones(4)
    x.view(4).backward(seed, retain_graph=True)
    return _report(x, {"seed": seed})


def _caller_seed_through_a_view_creating_the_graph(lib):
    x, seed = _leaf(lib), lib.ones(4)
    lib.autograd.backward([x.view(4)], [seed], create_graph=True)
    report = _report(x, {"seed": seed})
    x.grad = None  # PyTorch warns of the leaf <-> grad cycle create_graph makes
    return report


def _caller_seed_through_expand(lib):
    x, seed = _leaf(lib), lib.ones(2, 4)
    x.expand(2, 4).backward(seed)
    return _report(x, {"seed": seed})


def _caller_seed_through_a_transpose(lib):
    # seed.t() would break the contiguous leaf's layout: copied, contiguous
    x, seed = lib.ones(2, 3).requires_grad_(), lib.ones(3, 2)
    x.t().backward(seed)
    return _report(x, {"seed": seed})


def _transposed_leaf(lib):
    # a dense but transposed leaf: its gradient gets the leaf's strides
    x = lib.ones(3, 2).t().requires_grad_()
    seed = lib.arange(6.0).reshape(2, 3)
    (x * 2).backward(seed)
    return _report(x, {"seed": seed})


def _channels_last_weight(lib):
    w = lib.ones(4, 3, 2, 2).contiguous(memory_format=lib.channels_last).requires_grad_()
    lib.nn.functional.conv2d(lib.ones(1, 3, 5, 5), w).sum().backward()
    return _report(w, {})


def _leaf_with_gaps(lib):
    # not dense: every other element of a larger buffer; the gradient is contiguous
    x = lib.ones(4, 2)[:, 0].detach().requires_grad_()
    (x * 3).sum().backward()
    return _report(x, {})


def _kept_by_a_tensor_hook(lib):
    x, kept = _leaf(lib), []
    x.register_hook(kept.append)
    (x * 2).sum().backward()
    return _report(x, {"kept": kept[0]})


def _returned_by_a_tensor_hook(lib):
    x, replacement = _leaf(lib), lib.full((4,), 7.0)
    x.register_hook(lambda g: replacement)
    (x * 2).sum().backward()
    return _report(x, {"replacement": replacement})


def _returned_by_a_prehook_of_the_accumulator(lib):
    x, replacement = _leaf(lib), lib.full((4,), 7.0)
    y = x * 2
    y.grad_fn.next_functions[0][0].register_prehook(lambda grads: (replacement,))
    y.sum().backward()
    return _report(x, {"replacement": replacement})


def _viewed_by_a_numpy_array(lib):
    x, arrays = _leaf(lib), []

    def make(g):
        out = g * 2
        arrays.append(out.numpy()[1:])
        return out

    _emit(lib, x, make).sum().backward()
    watched = lib.from_numpy(arrays[0])
    return _report(x, {"numpy view": watched})


def _retained_graph_run_twice_after_zeroing(lib):
    x, seed = _leaf(lib), lib.ones(4)
    y = x.view(4)
    y.backward(seed, retain_graph=True)
    x.grad.zero_()  # in both libraries this zeroes the seed: .grad views it
    y.backward(seed)
    return {"grad": x.grad.tolist(), "seed": seed.tolist()}


SCENARIOS = [
    _fresh_gradient, _kept_by_the_backward, _views_another_tensor,
    _detached_from_another_tensor, _the_same_gradient_reaching_two_leaves,
    _caller_seed_through_mul, _caller_seed_to_the_leaf_itself, _caller_seed_through_a_view,
    _caller_seed_slice_through_a_view, _caller_seed_through_a_view_retaining_the_graph,
    _caller_seed_through_a_view_creating_the_graph, _caller_seed_through_expand,
    _caller_seed_through_a_transpose, _transposed_leaf, _channels_last_weight, _leaf_with_gaps,
    _kept_by_a_tensor_hook, _returned_by_a_tensor_hook,
    _returned_by_a_prehook_of_the_accumulator, _viewed_by_a_numpy_array,
    _retained_graph_run_twice_after_zeroing,
]


@pytest.mark.filterwarnings("ignore:Using backward\\(\\) with create_graph=True")
@pytest.mark.parametrize("scenario", SCENARIOS, ids=lambda f: f.__name__.strip("_"))
def test_grad_ownership_matches_pytorch(scenario):
    assert scenario(volta) == scenario(torch)


def test_the_scenarios_tell_sharing_from_copying():
    # the oracle above could pass with every report empty: PyTorch shares memory in some
    assert _caller_seed_through_a_view(torch)["reached"] == ["seed"]
    assert _kept_by_the_backward(torch)["reached"] == []


def test_a_fresh_unreferenced_gradient_becomes_grad_without_a_copy():
    x, made = _leaf(volta), []

    def make(g):
        out = g * 2
        made.append(id(out))  # an id, not a reference
        return out

    _emit(volta, x, make).sum().backward()
    assert id(x.grad) == made[0]
    np.testing.assert_array_equal(x.grad.numpy(), [2.0] * 4)


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


def test_create_graph_gradient_stays_differentiable():
    x = _leaf(volta)
    (x * x).sum().backward(create_graph=True)
    assert x.grad.requires_grad
    x2 = volta.arange(1.0, 5.0).requires_grad_()
    tx = torch.arange(1.0, 5.0, dtype=torch.float32).requires_grad_()
    for leaf in (x2, tx):
        (leaf ** 3).sum().backward(create_graph=True)
    np.testing.assert_allclose(x2.grad.detach().numpy(), tx.grad.detach().numpy())
    x2.grad = tx.grad = None  # the leaf <-> grad cycle create_graph makes
