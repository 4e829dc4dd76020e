"""The torch.nn.functional names added with the nn-parity work against PyTorch: the in-place
activations (``elu_``...), the ``*_with_indices`` pooling forms, ``lp_pool3d``, ``dropout1d``,
``native_channel_shuffle``, ``conv_tbc`` and ``gumbel_softmax`` (by its distribution)."""

from __future__ import annotations

import numpy as np
import pytest
import torch

import volta
from tests.nn.parity import close, raises_like_torch, to_volta

TF = torch.nn.functional
VF = volta.nn.functional


@pytest.mark.parametrize(("name", "args"), [
    ("elu_", (0.7,)), ("selu_", ()), ("celu_", (1.3,)), ("leaky_relu_", (0.2,)),
    ("hardtanh_", (-0.5, 0.8)), ("rrelu_", (0.1, 0.3, False)), ("threshold_", (0.1, -3.0)),
])
def test_inplace_activations_match_torch(name: str, args: tuple) -> None:
    x = np.random.default_rng(0).standard_normal((3, 4))
    t, v = torch.tensor(x), volta.tensor(x)
    t_out, v_out = getattr(TF, name)(t, *args), getattr(VF, name)(v, *args)
    assert v_out is v and t_out is t
    close(v, t, 1e-12, 1e-14)


@pytest.mark.parametrize(("name", "args", "shape"), [
    ("max_pool1d_with_indices", (3, 2), (2, 3, 9)),
    ("adaptive_max_pool1d_with_indices", (4,), (2, 3, 9)),
    ("adaptive_max_pool2d_with_indices", ((2, 3),), (2, 3, 5, 7)),
    ("adaptive_max_pool3d_with_indices", (2,), (1, 2, 4, 5, 3)),
])
def test_pooling_with_indices_matches_torch(name: str, args: tuple, shape: tuple) -> None:
    x = np.random.default_rng(1).standard_normal(shape)
    t_out, t_idx = getattr(TF, name)(torch.tensor(x), *args)
    v_out, v_idx = getattr(VF, name)(volta.tensor(x), *args)
    close(v_out, t_out, 0, 0)
    np.testing.assert_array_equal(v_idx.numpy(), t_idx.numpy())


def test_fractional_max_pool_with_indices_matches_torch_with_fixed_samples() -> None:
    x = np.random.default_rng(2).standard_normal((1, 2, 7, 7))
    samples = torch.rand(1, 2, 2, dtype=torch.float64)
    t_out, t_idx = TF.fractional_max_pool2d_with_indices(torch.tensor(x), 2, output_size=3,
                                                         _random_samples=samples)
    v_out, v_idx = VF.fractional_max_pool2d_with_indices(volta.tensor(x), 2, output_size=3,
                                                         _random_samples=to_volta(samples))
    close(v_out, t_out, 0, 0)
    np.testing.assert_array_equal(v_idx.numpy(), t_idx.numpy())


def test_lp_pool3d_and_native_channel_shuffle_match_torch() -> None:
    x = np.abs(np.random.default_rng(3).standard_normal((2, 4, 4, 4, 4)))
    for norm_type in (1.5, 2, float("inf")):
        close(VF.lp_pool3d(volta.tensor(x), norm_type, 2, 2),
              TF.lp_pool3d(torch.tensor(x), norm_type, 2, 2), 1e-12, 1e-14)
    close(VF.native_channel_shuffle(volta.tensor(x), 2),
          TF.native_channel_shuffle(torch.tensor(x), 2), 0, 0)


@pytest.mark.parametrize("pad", [0, 2])
def test_conv_tbc_matches_torch(pad: int) -> None:
    rng = np.random.default_rng(4)
    arrays = [rng.standard_normal((7, 2, 3)), rng.standard_normal((3, 3, 4)),
              rng.standard_normal(4)]
    t_in = [torch.tensor(a, requires_grad=True) for a in arrays]
    v_in = [to_volta(t, requires_grad=True) for t in t_in]
    t_out, v_out = TF.conv_tbc(*t_in, pad), VF.conv_tbc(*v_in, pad)
    close(v_out, t_out, 1e-12, 1e-12)
    cotangent = rng.standard_normal(tuple(t_out.shape))
    t_out.backward(torch.tensor(cotangent))
    v_out.backward(volta.tensor(cotangent))
    for v, t in zip(v_in, t_in):
        close(v.grad, t.grad, 1e-12, 1e-12)
    raises_like_torch(lambda lib: lib.nn.functional.conv_tbc(
        lib.ones(7, 2, 3), lib.ones(3, 2, 4), lib.ones(4)))


def test_dropout1d_rejects_other_ranks_like_torch() -> None:
    raises_like_torch(lambda lib: lib.nn.functional.dropout1d(lib.ones(2, 3, 4, 5)))


def test_gumbel_softmax_samples_the_softmax_distribution() -> None:
    volta.manual_seed(0)
    logits = volta.tensor([1.0, 0.0, -1.0, 2.0], dtype=volta.float64)
    draws = 4000
    soft = VF.gumbel_softmax(logits.expand(draws, 4), tau=0.5)
    np.testing.assert_allclose(soft.sum(-1).numpy(), 1.0, rtol=1e-12)
    frequencies = np.bincount(soft.argmax(-1).numpy(), minlength=4) / draws
    expected = np.exp([1.0, 0.0, -1.0, 2.0]) / np.exp([1.0, 0.0, -1.0, 2.0]).sum()
    np.testing.assert_allclose(frequencies, expected, atol=0.03)  # argmax of Gumbel-max


def test_gumbel_softmax_hard_is_one_hot_with_the_soft_gradient() -> None:
    logits = volta.tensor(np.random.default_rng(5).standard_normal((3, 5)), requires_grad=True)
    volta.manual_seed(1)
    soft = VF.gumbel_softmax(logits, tau=0.7, dim=1)
    volta.manual_seed(1)
    hard = VF.gumbel_softmax(logits, tau=0.7, hard=True, dim=1)
    np.testing.assert_array_equal(hard.detach().numpy(),
                                  np.eye(5)[soft.detach().numpy().argmax(1)])
    weights = volta.tensor(np.arange(15.0).reshape(3, 5))
    (hard * weights).sum().backward()
    hard_grad = logits.grad.clone()
    logits.grad = None
    (soft * weights).sum().backward()
    close(hard_grad, torch.tensor(logits.grad.numpy()), 1e-12, 1e-14)
