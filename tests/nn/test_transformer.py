"""nn.Transformer* against PyTorch: same weights -> same outputs and gradients (inputs and every
parameter) for encoder and decoder layers, stacks and the full model, across norm_first,
activations, layouts and all masks; identical state_dict keys and shapes; dropout in training;
PyTorch's errors."""

from __future__ import annotations

import math
import warnings

import numpy as np
import pytest
import torch

import volta
from tests.nn.parity import close, copy_weights, raises_like_torch, state_layout, to_volta

D, HEADS, FF, N, S, T = 16, 4, 24, 3, 6, 5  # model width, heads, feed-forward, batch, lengths
TOL = 1e-4


def _build(lib, make):
    """``make(lib)`` for both frameworks with the same weights (torch's nested-tensor warning,
    about a fast path volta has no counterpart for, silenced)."""
    torch.manual_seed(0)
    with warnings.catch_warnings():
        warnings.filterwarnings("ignore", message="enable_nested_tensor")
        return make(lib)


def _pair(make):
    tm, vm = _build(torch, make), _build(volta, make)
    assert state_layout(vm) == state_layout(tm)
    copy_weights(tm, vm)
    return tm, vm


def _seq(length: int, batch_first: bool, batched: bool = True) -> torch.Tensor:
    if not batched:
        return torch.randn(length, D)
    return torch.randn(N, length, D) if batch_first else torch.randn(length, N, D)


def _padding(length: int, kind: str = "bool") -> torch.Tensor:
    mask = torch.zeros(N, length, dtype=torch.bool)
    mask[0, -2:] = mask[2, -1] = True
    return mask if kind == "bool" else torch.zeros(N, length).masked_fill(mask, -math.inf)


def _random_mask(target: int, source: int, kind: str = "bool", heads: bool = False):
    torch.manual_seed(3)
    shape = (N * HEADS, target, source) if heads else (target, source)
    mask = torch.rand(shape) < 0.3
    mask[..., 0] = False
    return mask if kind == "bool" else torch.randn(shape).masked_fill(mask, -math.inf)


def _causal(size: int, kind: str = "float") -> torch.Tensor:
    mask = torch.nn.Transformer.generate_square_subsequent_mask(size)
    return mask if kind == "float" else mask.isinf()


def _compare(tm, vm, inputs: list[torch.Tensor], tol: float = TOL, **kwargs) -> None:
    """Forward with the same inputs and masks, then compare outputs and every gradient."""
    t_in = [x.clone().requires_grad_() for x in inputs]
    v_in = [to_volta(x, True) for x in inputs]
    v_kwargs = {k: to_volta(v) if isinstance(v, torch.Tensor) else v for k, v in kwargs.items()}
    t_out = tm(*t_in, **kwargs)
    v_out = vm(*v_in, **v_kwargs)
    close(v_out, t_out, tol, tol)
    grad = torch.randn(t_out.shape)
    t_out.backward(grad)
    v_out.backward(to_volta(grad))
    for t_x, v_x in zip(t_in, v_in):
        close(v_x.grad, t_x.grad, tol, tol)
    for (name, tp), (vname, vp) in zip(tm.named_parameters(), vm.named_parameters()):
        assert name == vname
        close(vp.grad, tp.grad, tol, tol)


def _encoder_layer(batch_first=False, norm_first=False, activation="relu", bias=True,
                   dropout=0.0):
    return lambda lib: lib.nn.TransformerEncoderLayer(
        D, HEADS, FF, dropout=dropout, activation=activation, batch_first=batch_first,
        norm_first=norm_first, bias=bias)


def _decoder_layer(batch_first=False, norm_first=False, activation="relu", bias=True):
    return lambda lib: lib.nn.TransformerDecoderLayer(
        D, HEADS, FF, dropout=0.0, activation=activation, batch_first=batch_first,
        norm_first=norm_first, bias=bias)


ACTIVATIONS = {
    "relu": lambda lib: "relu",
    "gelu": lambda lib: "gelu",
    "gelu_function": lambda lib: lib.nn.functional.gelu,
    "silu_function": lambda lib: lib.nn.functional.silu,
    "gelu_tanh_module": lambda lib: lib.nn.GELU(approximate="tanh"),
}


@pytest.mark.parametrize("activation", list(ACTIVATIONS))
@pytest.mark.parametrize("norm_first", [False, True])
@pytest.mark.parametrize("batch_first", [False, True])
def test_encoder_layer_matches_torch(batch_first, norm_first, activation):
    make_activation = ACTIVATIONS[activation]
    tm, vm = _pair(lambda lib: lib.nn.TransformerEncoderLayer(
        D, HEADS, FF, dropout=0.0, activation=make_activation(lib), batch_first=batch_first,
        norm_first=norm_first))
    assert vm.activation_relu_or_gelu == tm.activation_relu_or_gelu
    _compare(tm, vm, [_seq(S, batch_first)], src_key_padding_mask=_padding(S))


ENCODER_MASKS = [
    ("none", {}),
    ("causal_float", {"src_mask": ("causal", "float")}),
    ("causal_bool_hint", {"src_mask": ("causal", "bool"), "is_causal": True}),
    ("causal_hint_and_padding", {"src_mask": ("causal", "float"), "is_causal": True,
                                 "src_key_padding_mask": ("padding", "float")}),
    ("random_bool", {"src_mask": ("random", "bool")}),
    ("per_head_float_and_padding", {"src_mask": ("heads", "float"),
                                    "src_key_padding_mask": ("padding", "float")}),
    ("padding_bool", {"src_key_padding_mask": ("padding", "bool")}),
]


def _encoder_masks(spec: dict, length: int) -> dict:
    makers = {"causal": lambda kind: _causal(length, kind),
              "random": lambda kind: _random_mask(length, length, kind),
              "heads": lambda kind: _random_mask(length, length, kind, heads=True),
              "padding": lambda kind: _padding(length, kind)}
    return {k: (makers[v[0]](v[1]) if isinstance(v, tuple) else v) for k, v in spec.items()}


@pytest.mark.parametrize("name,spec", ENCODER_MASKS, ids=[m[0] for m in ENCODER_MASKS])
def test_encoder_layer_masks(name, spec):
    tm, vm = _pair(_encoder_layer(batch_first=True))
    _compare(tm, vm, [_seq(S, True)], **_encoder_masks(spec, S))


@pytest.mark.parametrize("norm_first", [False, True])
def test_encoder_layer_without_bias_and_unbatched(norm_first):
    tm, vm = _pair(_encoder_layer(norm_first=norm_first, bias=False, activation="gelu"))
    assert "norm1.bias" not in vm.state_dict()
    _compare(tm, vm, [_seq(S, False, batched=False)], src_mask=_causal(S))


@pytest.mark.parametrize("is_causal", [None, True, False])
@pytest.mark.parametrize("batch_first", [False, True])
def test_encoder_stack_with_norm(batch_first, is_causal):
    def make(lib):
        layer = lib.nn.TransformerEncoderLayer(D, HEADS, FF, dropout=0.0,
                                               batch_first=batch_first)
        return lib.nn.TransformerEncoder(layer, 3, norm=lib.nn.LayerNorm(D))
    tm, vm = _pair(make)
    assert vm.layers[0] is not vm.layers[1]  # independent copies
    _compare(tm, vm, [_seq(S, batch_first)], mask=_causal(S), is_causal=is_causal,
             src_key_padding_mask=_padding(S, "float"))


@pytest.mark.parametrize("norm_first", [False, True])
@pytest.mark.parametrize("batch_first", [False, True])
def test_decoder_layer_matches_torch(batch_first, norm_first):
    tm, vm = _pair(_decoder_layer(batch_first, norm_first, "gelu"))
    _compare(tm, vm, [_seq(T, batch_first), _seq(S, batch_first)], tgt_mask=_causal(T),
             memory_mask=_random_mask(T, S, "float"),
             tgt_key_padding_mask=_padding(T, "float"),
             memory_key_padding_mask=_padding(S, "float"))


DECODER_MASKS = [
    ("none", {}),
    ("tgt_causal_hint", {"tgt_mask": ("causal", "float"), "tgt_is_causal": True}),
    ("bool_masks", {"tgt_mask": ("causal", "bool"), "memory_mask": ("random", "bool"),
                    "tgt_key_padding_mask": ("tpad", "bool"),
                    "memory_key_padding_mask": ("mpad", "bool")}),
    ("per_head_memory_mask", {"memory_mask": ("heads", "float")}),
]


def _decoder_masks(spec: dict) -> dict:
    makers = {"causal": lambda kind: _causal(T, kind),
              "random": lambda kind: _random_mask(T, S, kind),
              "heads": lambda kind: _random_mask(T, S, kind, heads=True),
              "tpad": lambda kind: _padding(T, kind), "mpad": lambda kind: _padding(S, kind)}
    return {k: (makers[v[0]](v[1]) if isinstance(v, tuple) else v) for k, v in spec.items()}


@pytest.mark.parametrize("name,spec", DECODER_MASKS, ids=[m[0] for m in DECODER_MASKS])
def test_decoder_stack_masks(name, spec):
    def make(lib):
        layer = lib.nn.TransformerDecoderLayer(D, HEADS, FF, dropout=0.0, batch_first=True)
        return lib.nn.TransformerDecoder(layer, 2, norm=lib.nn.LayerNorm(D))
    tm, vm = _pair(make)
    _compare(tm, vm, [_seq(T, True), _seq(S, True)], **_decoder_masks(spec))


@pytest.mark.parametrize("norm_first", [False, True])
@pytest.mark.parametrize("batch_first", [False, True])
def test_transformer_matches_torch_with_all_masks(batch_first, norm_first):
    tm, vm = _pair(lambda lib: lib.nn.Transformer(
        D, HEADS, 2, 2, FF, dropout=0.0, activation="gelu", batch_first=batch_first,
        norm_first=norm_first))
    _compare(tm, vm, [_seq(S, batch_first), _seq(T, batch_first)],
             src_mask=_random_mask(S, S, "float"), tgt_mask=_causal(T),
             memory_mask=_random_mask(T, S, "float"),
             src_key_padding_mask=_padding(S, "float"),
             tgt_key_padding_mask=_padding(T, "float"),
             memory_key_padding_mask=_padding(S, "float"))


def test_transformer_unbatched_and_custom_parts():
    tm, vm = _pair(lambda lib: lib.nn.Transformer(D, HEADS, 1, 1, FF, dropout=0.0,
                                                  bias=False))
    _compare(tm, vm, [_seq(S, False, batched=False), _seq(T, False, batched=False)],
             tgt_mask=_causal(T), tgt_is_causal=True)

    def custom(lib):
        encoder = lib.nn.TransformerEncoder(
            lib.nn.TransformerEncoderLayer(D, HEADS, FF, dropout=0.0), 1)
        decoder = lib.nn.TransformerDecoder(
            lib.nn.TransformerDecoderLayer(D, HEADS, FF, dropout=0.0), 2)
        return lib.nn.Transformer(D, HEADS, custom_encoder=encoder, custom_decoder=decoder)
    tm, vm = _pair(custom)
    assert len(vm.encoder.layers) == 1 and vm.encoder.norm is None
    _compare(tm, vm, [_seq(S, False), _seq(T, False)])


def test_state_dict_keys_and_shapes_match_torch():
    for make in (_encoder_layer(), _decoder_layer(), lambda lib: lib.nn.Transformer(
            D, HEADS, 2, 3, FF, norm_first=True, bias=False)):
        tm, vm = _build(torch, make), _build(volta, make)
        assert state_layout(vm) == state_layout(tm)
    keys = list(_build(volta, lambda lib: lib.nn.TransformerEncoder(
        lib.nn.TransformerEncoderLayer(D, HEADS), 2)).state_dict())
    assert keys[:4] == ["layers.0.self_attn.in_proj_weight", "layers.0.self_attn.in_proj_bias",
                        "layers.0.self_attn.out_proj.weight", "layers.0.self_attn.out_proj.bias"]
    assert "layers.1.linear1.weight" in keys and "layers.1.norm2.bias" in keys


def test_transformer_initialisation_is_xavier_uniform_for_matrices():
    volta.manual_seed(0)
    model = volta.nn.Transformer(D, HEADS, 1, 1, FF)
    for name, parameter in model.named_parameters():
        if parameter.dim() > 1:
            fan_out, fan_in = parameter.shape
            bound = math.sqrt(6.0 / (fan_in + fan_out))
            assert float(parameter.abs().max()) <= bound, name
            assert float(parameter.abs().max()) > 0.8 * bound, name
    assert float(model.encoder.layers[0].norm1.weight.min()) == 1.0


def test_weights_move_through_safetensors(tmp_path):
    from safetensors.torch import load_file, save_file

    make = lambda lib: lib.nn.Transformer(D, HEADS, 1, 2, FF, dropout=0.0,  # noqa: E731
                                          batch_first=True)
    tm = _build(torch, make)
    save_file(tm.state_dict(), tmp_path / "torch.safetensors")
    vm = _build(volta, make)
    vm.load_state_dict(volta.load(tmp_path / "torch.safetensors"))
    _compare(tm, vm, [_seq(S, True), _seq(T, True)], tgt_mask=_causal(T))
    volta.save(vm.state_dict(), tmp_path / "volta.safetensors")
    back = _build(torch, make)
    back.load_state_dict(load_file(tmp_path / "volta.safetensors"))
    for key, value in tm.state_dict().items():
        assert torch.equal(back.state_dict()[key], value), key


def test_eval_mode_matches_torch_and_training_dropout_differs():
    tm, vm = _pair(_encoder_layer(batch_first=True, dropout=0.2))
    x = _seq(S, True)
    vx = to_volta(x)
    volta.manual_seed(0)
    first, second = vm(vx), vm(vx)
    assert not np.allclose(first.detach().numpy(), second.detach().numpy())
    tm.eval()
    vm.eval()
    with torch.no_grad(), volta.no_grad():
        close(vm(vx), tm(x), TOL, TOL)
        close(vm(vx), vm(vx), 0, 0)


def test_training_dropout_statistics():
    """With p=0.5 the feed-forward dropout zeroes about half of the activations and scales
    the rest by 2 (seen through hooks on linear1's output and linear2's input)."""
    volta.manual_seed(0)
    layer = volta.nn.TransformerEncoderLayer(D, HEADS, 64, dropout=0.5, batch_first=True)
    before, after = [], []
    layer.linear1.register_forward_hook(lambda module, args, out: before.append(out))
    layer.linear2.register_forward_hook(lambda module, args, out: after.append(args[0]))
    layer(volta.randn(8, 20, D))
    activated = np.maximum(before[0].detach().numpy(), 0)
    dropped = after[0].detach().numpy()
    positive = activated > 0
    kept = dropped[positive] != 0
    assert 0.45 < kept.mean() < 0.55
    np.testing.assert_allclose(dropped[positive][kept], 2 * activated[positive][kept],
                               rtol=1e-5)


def test_generate_square_subsequent_mask_matches_torch():
    for size in (1, 4, 7):
        expected = torch.nn.Transformer.generate_square_subsequent_mask(size)
        mask = volta.nn.Transformer.generate_square_subsequent_mask(size)
        assert mask.dtype is volta.float32
        np.testing.assert_array_equal(mask.numpy(), expected.numpy())
    assert volta.nn.Transformer.generate_square_subsequent_mask(
        3, dtype=volta.float64).dtype is volta.float64


def _make_random(lib, shape):
    return torch.randn(*shape) if lib is torch else volta.randn(*shape)


def test_errors_like_torch():
    raises_like_torch(lambda lib: lib.nn.TransformerEncoderLayer(D, HEADS, activation="tanh"))
    raises_like_torch(lambda lib: lib.nn.TransformerEncoderLayer(D, 5))
    raises_like_torch(lambda lib: lib.nn.TransformerDecoderLayer(D, 3))
    model = {lib: _build(lib, lambda lib: lib.nn.Transformer(D, HEADS, 1, 1, FF))
             for lib in (torch, volta)}
    # batch sizes differ, feature size is not d_model
    raises_like_torch(lambda lib: model[lib](_make_random(lib, (S, 2, D)),
                                              _make_random(lib, (T, 3, D))))
    raises_like_torch(lambda lib: model[lib](_make_random(lib, (S, 2, D)),
                                              _make_random(lib, (T, 2, D + 1))))
    layer = {lib: _build(lib, _encoder_layer()) for lib in (torch, volta)}
    mask = {torch: torch.zeros(S + 1, S + 1), volta: volta.zeros(S + 1, S + 1)}
    raises_like_torch(lambda lib: layer[lib](_make_random(lib, (S, N, D)), src_mask=mask[lib]))
