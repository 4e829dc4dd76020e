"""The nn layers of issue 8's nn part against PyTorch's: same constructor arguments and weights
-> same state_dict layout, outputs and gradients (inputs and parameters), in train and eval
mode where they differ deterministically."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
import pytest
import torch

import volta
from tests.nn.parity import close, copy_weights, state_layout, to_volta

Maker = Callable[[np.random.Generator], list[Any]]


def _floats(*shape: int) -> Maker:
    return lambda rng: [rng.standard_normal(shape)]


def _signs(rng: np.random.Generator, shape: tuple[int, ...]) -> np.ndarray:
    return np.where(rng.uniform(size=shape) < 0.5, -1.0, 1.0)


# (layer name, constructor args, kwargs, input maker): every input array that is float64 gets
# requires_grad; integer arrays go in as int64
CASES: list[tuple[str, tuple, dict, Maker]] = [
    ("GLU", (1,), {}, _floats(3, 4, 5)),
    ("PReLU", (), {}, _floats(2, 3, 4)),
    ("PReLU", (3,), {"init": 0.1}, _floats(2, 3, 4)),
    ("CELU", (0.7,), {}, _floats(4, 5)),
    ("RReLU", (0.1, 0.3), {}, _floats(4, 5)),
    ("Hardshrink", (0.4,), {}, _floats(4, 5)),
    ("Softshrink", (0.4,), {}, _floats(4, 5)),
    ("Tanhshrink", (), {}, _floats(4, 5)),
    ("Threshold", (0.1, -2.0), {}, _floats(4, 5)),
    ("Unfold", ((2, 3),), {"padding": 1, "stride": (1, 2)}, _floats(2, 3, 5, 6)),
    ("Fold", ((4, 5), 2), {}, _floats(2, 12, 12)),
    ("MaxPool3d", (2,), {"stride": 1}, _floats(2, 2, 4, 4, 4)),
    ("AvgPool3d", ((2, 1, 2),), {"padding": (1, 0, 1)}, _floats(2, 2, 4, 3, 4)),
    ("AdaptiveAvgPool3d", ((2, 3, 1),), {}, _floats(2, 2, 5, 4, 3)),
    ("AdaptiveMaxPool3d", (2,), {}, _floats(2, 2, 5, 4, 3)),
    ("LPPool1d", (2, 3), {"stride": 2}, _floats(2, 3, 9)),
    ("LPPool2d", (3, (2, 3)), {}, lambda rng: [np.abs(rng.standard_normal((2, 3, 6, 7)))]),
    ("ConvTranspose3d", (3, 4, 2), {"stride": 2, "padding": 1, "output_padding": 1},
     _floats(2, 3, 3, 3, 3)),
    ("LocalResponseNorm", (3,), {"alpha": 0.1, "beta": 0.5, "k": 2.0}, _floats(2, 5, 4, 4)),
    ("ChannelShuffle", (2,), {}, _floats(2, 6, 3, 3)),
    ("AlphaDropout", (0.3,), {}, _floats(4, 5)),
    ("FeatureAlphaDropout", (0.3,), {}, _floats(2, 3, 4)),
    ("Dropout3d", (0.3,), {}, _floats(2, 3, 2, 2, 2)),
    ("SoftMarginLoss", (), {}, lambda rng: [rng.standard_normal((4, 5)),
                                            _signs(rng, (4, 5)).astype(np.float32)]),
    ("MarginRankingLoss", (), {"margin": 0.3},
     lambda rng: [rng.standard_normal(6), rng.standard_normal(6),
                  _signs(rng, (6,)).astype(np.float32)]),
    ("CosineEmbeddingLoss", (), {"margin": 0.2, "reduction": "sum"},
     lambda rng: [rng.standard_normal((4, 5)), rng.standard_normal((4, 5)),
                  _signs(rng, (4,)).astype(np.float32)]),
    ("HingeEmbeddingLoss", (), {"margin": 0.5},
     lambda rng: [rng.standard_normal((4, 5)), _signs(rng, (4, 5)).astype(np.float32)]),
    ("MultiMarginLoss", (), {"p": 2, "margin": 0.7},
     lambda rng: [rng.standard_normal((4, 5)), rng.integers(0, 5, 4)]),
    ("MultiLabelMarginLoss", (), {"reduction": "none"},
     lambda rng: [rng.standard_normal((2, 4)), np.array([[3, 0, -1, 1], [1, 2, 3, -1]])]),
    ("MultiLabelSoftMarginLoss", (), {},
     lambda rng: [rng.standard_normal((3, 4)),
                  (rng.uniform(size=(3, 4)) < 0.5).astype(np.float32)]),
    ("TripletMarginLoss", (), {"margin": 0.5, "p": 1.5, "swap": True},
     lambda rng: [rng.standard_normal((4, 5)) for _ in range(3)]),
    ("TripletMarginWithDistanceLoss", (), {"margin": 2.0},
     lambda rng: [rng.standard_normal((4, 5)) for _ in range(3)]),
    ("PoissonNLLLoss", (), {"log_input": False, "full": True},
     lambda rng: [rng.uniform(0.1, 2.0, (4, 5)), rng.integers(0, 5, (4, 5)).astype(np.float32)]),
    ("GaussianNLLLoss", (), {"full": True},
     lambda rng: [rng.standard_normal((4, 5)), rng.standard_normal((4, 5)),
                  rng.uniform(0.1, 2.0, (4, 1))]),
]


def _inputs(arrays: list[np.ndarray]) -> tuple[list[volta.Tensor], list[torch.Tensor]]:
    v_in, t_in = [], []
    for a in arrays:
        grad = a.dtype == np.float64
        t = torch.tensor(a.astype(np.float64) if a.dtype == np.float32 else a,
                         requires_grad=grad)
        t_in.append(t)
        v_in.append(to_volta(t, requires_grad=grad))
    return v_in, t_in


@pytest.mark.parametrize(("name", "args", "kwargs", "make"), CASES,
                         ids=[f"{c[0]}-{i}" for i, c in enumerate(CASES)])
@pytest.mark.parametrize("training", [True, False])
def test_layer_matches_torch(name: str, args: tuple, kwargs: dict, make: Maker,
                             training: bool) -> None:
    torch.manual_seed(0)
    t_layer = getattr(torch.nn, name)(*args, **kwargs).double()
    v_layer = getattr(volta.nn, name)(*args, **kwargs).to(volta.float64)
    assert state_layout(v_layer) == state_layout(t_layer)
    copy_weights(t_layer, v_layer)
    t_layer.train(training)
    v_layer.train(training)
    v_in, t_in = _inputs(make(np.random.default_rng(0)))
    t_out = t_layer(*t_in)
    v_out = v_layer(*v_in)
    random = training and ("Dropout" in name or name == "RReLU")
    if random:  # random masks: only shapes, dtypes and the identity of eval mode compare
        assert tuple(v_out.shape) == tuple(t_out.shape)
        return
    close(v_out, t_out, 1e-7, 1e-9)
    cotangent = np.random.default_rng(1).standard_normal(tuple(t_out.shape))
    t_out.backward(torch.tensor(cotangent))
    v_out.backward(volta.tensor(cotangent))
    for v, t in zip(v_in, t_in):
        if t.requires_grad:
            close(v.grad, t.grad, 1e-7, 1e-9)
    for (name_v, v), (name_t, t) in zip(v_layer.named_parameters(), t_layer.named_parameters()):
        assert name_v == name_t
        close(v.grad, t.grad, 1e-7, 1e-9)


def test_prelu_default_initialisation_and_key() -> None:
    layer = volta.nn.PReLU(4)
    assert list(layer.state_dict()) == ["weight"]
    np.testing.assert_array_equal(layer.weight.detach().numpy(), np.full(4, 0.25, np.float32))


def test_max_unpool_inverts_max_pool_like_torch() -> None:
    rng = np.random.default_rng(2)
    x = rng.standard_normal((2, 3, 6, 8))
    t_x, v_x = torch.tensor(x), volta.tensor(x)
    t_out, t_idx = torch.nn.MaxPool2d(2, return_indices=True)(t_x)
    v_out, v_idx = volta.nn.MaxPool2d(2, return_indices=True)(v_x)
    t_up = torch.nn.MaxUnpool2d(2)(t_out, t_idx, output_size=(7, 9))
    v_up = volta.nn.MaxUnpool2d(2)(v_out, v_idx, output_size=(7, 9))
    close(v_up, t_up)
    x3 = rng.standard_normal((1, 2, 4, 4, 6))
    t_out3, t_idx3 = torch.nn.MaxPool3d(2, return_indices=True)(torch.tensor(x3))
    v_out3, v_idx3 = volta.nn.MaxPool3d(2, return_indices=True)(volta.tensor(x3))
    close(volta.nn.MaxUnpool3d(2)(v_out3, v_idx3), torch.nn.MaxUnpool3d(2)(t_out3, t_idx3))
    x1 = rng.standard_normal((2, 3, 8))
    t_out1, t_idx1 = torch.nn.MaxPool1d(2, return_indices=True)(torch.tensor(x1))
    v_out1, v_idx1 = volta.nn.MaxPool1d(2, return_indices=True)(volta.tensor(x1))
    close(volta.nn.MaxUnpool1d(2)(v_out1, v_idx1), torch.nn.MaxUnpool1d(2)(t_out1, t_idx1))


def test_fractional_max_pool_layers_match_torch_with_fixed_samples() -> None:
    rng = np.random.default_rng(3)
    x = rng.standard_normal((2, 3, 9, 10))
    samples = rng.uniform(size=(2, 3, 2))
    t_layer = torch.nn.FractionalMaxPool2d(3, output_ratio=0.5,
                                           _random_samples=torch.tensor(samples))
    v_layer = volta.nn.FractionalMaxPool2d(3, output_ratio=0.5,
                                           _random_samples=volta.tensor(samples))
    close(v_layer(volta.tensor(x)), t_layer(torch.tensor(x)))
    x3 = rng.standard_normal((1, 2, 6, 6, 7))
    samples3 = rng.uniform(size=(1, 2, 3))
    t3 = torch.nn.FractionalMaxPool3d(2, output_size=(3, 4, 4),
                                      _random_samples=torch.tensor(samples3))
    v3 = volta.nn.FractionalMaxPool3d(2, output_size=(3, 4, 4),
                                      _random_samples=volta.tensor(samples3))
    close(v3(volta.tensor(x3)), t3(torch.tensor(x3)))


@pytest.mark.parametrize("name", ["MultiMarginLoss", "TripletMarginLoss",
                                  "TripletMarginWithDistanceLoss"])
def test_loss_constructors_reject_what_torch_rejects(name: str) -> None:
    kwargs = {"MultiMarginLoss": {"p": 3}, "TripletMarginLoss": {"margin": -1.0},
              "TripletMarginWithDistanceLoss": {"margin": 0.0}}[name]
    with pytest.raises(ValueError):
        getattr(torch.nn, name)(**kwargs)
    with pytest.raises(volta.VoltaError):
        getattr(volta.nn, name)(**kwargs)


@pytest.mark.parametrize(("mode", "padding_idx", "weighted"),
                         [("sum", None, True), ("mean", 2, False), ("max", None, False),
                          ("max", 0, False), ("sum", -1, False)])
def test_embedding_bag_matches_torch(mode: str, padding_idx: int | None, weighted: bool) -> None:
    torch.manual_seed(0)
    t_bag = torch.nn.EmbeddingBag(7, 3, mode=mode, padding_idx=padding_idx).double()
    v_bag = volta.nn.EmbeddingBag(7, 3, mode=mode, padding_idx=padding_idx).to(volta.float64)
    assert state_layout(v_bag) == state_layout(t_bag)
    copy_weights(t_bag, v_bag)
    indices = np.array([1, 2, 0, 6, 2, 2, 5, 3])
    offsets = np.array([0, 3, 3, 6])  # the second bag is empty
    weights = np.random.default_rng(4).standard_normal(8)
    t_w = torch.tensor(weights, requires_grad=True) if weighted else None
    v_w = volta.tensor(weights, requires_grad=True) if weighted else None
    t_out = t_bag(torch.tensor(indices), torch.tensor(offsets), t_w)
    v_out = v_bag(volta.tensor(indices), volta.tensor(offsets), v_w)
    close(v_out, t_out, 1e-12, 1e-12)
    cotangent = np.random.default_rng(5).standard_normal(tuple(t_out.shape))
    t_out.backward(torch.tensor(cotangent))
    v_out.backward(volta.tensor(cotangent))
    close(v_bag.weight.grad, t_bag.weight.grad, 1e-12, 1e-12)
    if weighted:
        close(v_w.grad, t_w.grad, 1e-12, 1e-12)


def test_embedding_bag_of_fixed_length_bags_and_last_offset() -> None:
    rng = np.random.default_rng(6)
    weight = rng.standard_normal((9, 4))
    bags = rng.integers(0, 9, (3, 5))
    flat = bags.reshape(-1)
    ends = np.array([0, 4, 11, 15])
    for fn, args, kwargs in [
        ("embedding_bag", (bags, weight), {"mode": "mean"}),
        ("embedding_bag", (flat, weight, ends), {"mode": "max", "include_last_offset": True}),
    ]:
        t_w = torch.tensor(weight, requires_grad=True)
        v_w = volta.tensor(weight, requires_grad=True)
        t_args = [t_w if a is weight else torch.tensor(a) for a in args]
        v_args = [v_w if a is weight else volta.tensor(a) for a in args]
        t_out = getattr(torch.nn.functional, fn)(*t_args, **kwargs)
        v_out = getattr(volta.nn.functional, fn)(*v_args, **kwargs)
        close(v_out, t_out, 1e-12, 1e-12)
        t_out.sum().backward()
        v_out.sum().backward()
        close(v_w.grad, t_w.grad, 1e-12, 1e-12)


@pytest.mark.parametrize(("concatenated", "batched", "zero_infinity", "reduction"),
                         [(False, True, False, "mean"), (True, True, True, "none"),
                          (False, False, False, "sum")])
def test_ctc_loss_matches_torch(concatenated: bool, batched: bool, zero_infinity: bool,
                                reduction: str) -> None:
    rng = np.random.default_rng(7)
    steps, batch, classes = 12, 3, 5
    logits = rng.standard_normal((steps, batch, classes))
    lengths_in = [12, 9, 2]  # the last cannot fit its target: an infinite loss
    lengths_t = [4, 3, 3]
    targets = rng.integers(1, classes, (batch, 4))
    if not batched:
        logits, lengths_in, lengths_t, targets = logits[:, 0], [12], [4], targets[0]
    t_logits = torch.tensor(logits, requires_grad=True)
    v_logits = volta.tensor(logits, requires_grad=True)
    if concatenated:
        flat = np.concatenate([targets[n, :lengths_t[n]] for n in range(batch)])
        t_targets, v_targets = torch.tensor(flat), volta.tensor(flat)
    else:
        t_targets, v_targets = torch.tensor(targets), volta.tensor(targets)
    t_loss = torch.nn.CTCLoss(reduction=reduction, zero_infinity=zero_infinity)(
        t_logits.log_softmax(-1), t_targets, torch.tensor(lengths_in), torch.tensor(lengths_t))
    v_loss = volta.nn.CTCLoss(reduction=reduction, zero_infinity=zero_infinity)(
        v_logits.log_softmax(-1), v_targets, volta.tensor(lengths_in), lengths_t)
    close(v_loss, t_loss, 1e-10, 1e-10)
    if zero_infinity or batched is False:
        t_loss.sum().backward()
        v_loss.sum().backward()
        close(v_logits.grad, t_logits.grad, 1e-10, 1e-10)


@pytest.mark.parametrize(("mode", "padding_mode", "align_corners"),
                         [("bilinear", "zeros", False), ("bilinear", "reflection", True),
                          ("nearest", "border", False), ("bicubic", "reflection", False),
                          ("bicubic", "zeros", True)])
def test_grid_sample_gradients_match_torch(mode: str, padding_mode: str,
                                           align_corners: bool) -> None:
    rng = np.random.default_rng(8)
    image = rng.standard_normal((2, 3, 5, 6))
    grid = rng.uniform(-1.3, 1.3, (2, 4, 7, 2))
    v_img, t_img = volta.tensor(image, requires_grad=True), torch.tensor(image,
                                                                          requires_grad=True)
    v_grid, t_grid = volta.tensor(grid, requires_grad=True), torch.tensor(grid,
                                                                           requires_grad=True)
    t_out = torch.nn.functional.grid_sample(t_img, t_grid, mode, padding_mode, align_corners)
    v_out = volta.nn.functional.grid_sample(v_img, v_grid, mode, padding_mode, align_corners)
    close(v_out, t_out, 1e-10, 1e-10)
    cotangent = rng.standard_normal(tuple(t_out.shape))
    t_out.backward(torch.tensor(cotangent))
    v_out.backward(volta.tensor(cotangent))
    close(v_img.grad, t_img.grad, 1e-10, 1e-10)
    if mode != "nearest":  # PyTorch gives nearest sampling no grid gradient; volta's is 0 too
        close(v_grid.grad, t_grid.grad, 1e-9, 1e-9)


def test_grid_sample_volumetric_matches_torch() -> None:
    rng = np.random.default_rng(9)
    volume = rng.standard_normal((1, 2, 3, 4, 5))
    grid = rng.uniform(-1.1, 1.1, (1, 2, 3, 4, 3))
    for mode in ("bilinear", "nearest"):
        close(volta.nn.functional.grid_sample(volta.tensor(volume), volta.tensor(grid), mode,
                                              "border", False),
              torch.nn.functional.grid_sample(torch.tensor(volume), torch.tensor(grid), mode,
                                              "border", False), 1e-10, 1e-10)
