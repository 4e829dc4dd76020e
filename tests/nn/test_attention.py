"""nn.MultiheadAttention against PyTorch: same weights -> same outputs, attention weights and
gradients (inputs and parameters) across layouts, kdim/vdim, every mask kind, bias_kv and zero
attention, causal hints; the same state_dict layout; dropout statistics; PyTorch's errors."""

from __future__ import annotations

import math
import warnings

import numpy as np
import pytest
import torch

import volta
from tests.nn.parity import close, copy_weights, raises_like_torch, state_layout, to_volta

E, H, L, S, N = 8, 2, 4, 5, 3  # embed dim, heads, target length, source length, batch


def _pair(**config):
    torch.manual_seed(0)
    tm = torch.nn.MultiheadAttention(E, H, **config)
    vm = volta.nn.MultiheadAttention(E, H, **config)
    assert state_layout(vm) == state_layout(tm)
    copy_weights(tm, vm)
    return tm, vm


def _inputs(kind: str, batch_first: bool, kdim: int = E, vdim: int = E,
            batched: bool = True) -> tuple:
    """(query, key, value) torch tensors; 'self' passes one tensor three times."""
    def shaped(length: int, dim: int) -> torch.Tensor:
        if not batched:
            return torch.randn(length, dim)
        return torch.randn(N, length, dim) if batch_first else torch.randn(length, N, dim)

    if kind == "self":
        x = shaped(L, E)
        return x, x, x
    if kind == "kv_same":
        kv = shaped(S, kdim)
        return shaped(L, E), kv, kv
    return shaped(L, E), shaped(S, kdim), shaped(S, vdim)


def _leaves(tensors: tuple) -> tuple[list, list]:
    """Differentiable copies for both frameworks, preserving which inputs are the same."""
    t_out, v_out, seen = [], [], {}
    for tensor in tensors:
        if id(tensor) not in seen:
            seen[id(tensor)] = (tensor.clone().requires_grad_(), to_volta(tensor, True))
        t_out.append(seen[id(tensor)][0])
        v_out.append(seen[id(tensor)][1])
    return t_out, v_out


def _check(tm, vm, inputs: tuple, tol: float = 2e-5, **kwargs) -> None:
    (tq, tk, tv), (vq, vk, vv) = _leaves(inputs)
    v_kwargs = {k: to_volta(v) if isinstance(v, torch.Tensor) else v for k, v in kwargs.items()}
    t_out, t_weights = tm(tq, tk, tv, **kwargs)
    v_out, v_weights = vm(vq, vk, vv, **v_kwargs)
    assert tuple(v_out.shape) == tuple(t_out.shape)
    close(v_out, t_out, tol, tol)
    close(v_weights, t_weights, tol, tol)
    grad = torch.randn(t_out.shape)
    loss_t = (t_out * grad).sum() + (0 if t_weights is None else (t_weights ** 2).sum())
    loss_v = (v_out * to_volta(grad)).sum() + (0 if v_weights is None else (v_weights ** 2).sum())
    loss_t.backward()
    loss_v.backward()
    for t_leaf, v_leaf in zip((tq, tk, tv), (vq, vk, vv)):
        close(v_leaf.grad, t_leaf.grad, tol * 5, tol * 5)
    for (name, tp), (vname, vp) in zip(tm.named_parameters(), vm.named_parameters()):
        assert name == vname
        close(vp.grad, tp.grad, tol * 5, tol * 5)


CONFIGS = [
    ("default", {}, "self"),
    ("batch_first", {"batch_first": True}, "self"),
    ("cross", {}, "cross"),
    ("cross_batch_first", {"batch_first": True}, "kv_same"),
    ("kdim_vdim", {"kdim": 3, "vdim": 6}, "cross"),
    ("kdim_vdim_batch_first", {"kdim": 3, "vdim": 6, "batch_first": True}, "cross"),
    ("no_bias", {"bias": False}, "self"),
    ("bias_kv", {"add_bias_kv": True}, "cross"),
    ("zero_attn", {"add_zero_attn": True}, "self"),
    ("bias_kv_zero_attn", {"add_bias_kv": True, "add_zero_attn": True, "batch_first": True},
     "kv_same"),
]


@pytest.mark.parametrize("need_weights", [True, False])
@pytest.mark.parametrize("name,config,kind", CONFIGS, ids=[c[0] for c in CONFIGS])
def test_matches_torch_without_masks(name, config, kind, need_weights):
    tm, vm = _pair(**config)
    inputs = _inputs(kind, config.get("batch_first", False), config.get("kdim", E),
                     config.get("vdim", E))
    _check(tm, vm, inputs, need_weights=need_weights)


def _key_padding(kind: str, source: int = S) -> torch.Tensor:
    mask = torch.zeros(N, source, dtype=torch.bool)
    mask[0, -1] = mask[2, :2] = True
    if kind == "bool":
        return mask
    # float: -inf where padded plus finite biases elsewhere
    return torch.randn(N, source).masked_fill(mask, -math.inf)


def _attn_mask(kind: str, ndim: int, target: int = L, source: int = S) -> torch.Tensor:
    shape = (target, source) if ndim == 2 else (N * H, target, source)
    mask = torch.rand(shape) < 0.3
    mask[..., 0] = False  # every query keeps a key: no fully masked rows
    if kind == "bool":
        return mask
    return torch.randn(shape).masked_fill(mask, -math.inf)


MASKS = [
    ("kpm_bool", {"key_padding_mask": ("kpm", "bool")}),
    ("kpm_float", {"key_padding_mask": ("kpm", "float")}),
    ("attn2d_bool", {"attn_mask": ("attn", "bool", 2)}),
    ("attn2d_float", {"attn_mask": ("attn", "float", 2)}),
    ("attn3d_bool", {"attn_mask": ("attn", "bool", 3)}),
    ("attn3d_float", {"attn_mask": ("attn", "float", 3)}),
    ("both_bool", {"key_padding_mask": ("kpm", "bool"), "attn_mask": ("attn", "bool", 3)}),
    ("both_float", {"key_padding_mask": ("kpm", "float"), "attn_mask": ("attn", "float", 2)}),
]


def _masks(spec: dict, source: int = S, target: int = L) -> dict:
    torch.manual_seed(1)
    out = {}
    for arg, (what, kind, *ndim) in spec.items():
        out[arg] = (_key_padding(kind, source) if what == "kpm"
                    else _attn_mask(kind, ndim[0], target, source))
    return out


@pytest.mark.parametrize("average", [True, False])
@pytest.mark.parametrize("need_weights", [True, False])
@pytest.mark.parametrize("name,spec", MASKS, ids=[m[0] for m in MASKS])
def test_matches_torch_with_masks(name, spec, need_weights, average):
    tm, vm = _pair(batch_first=True)
    _check(tm, vm, _inputs("cross", True), need_weights=need_weights,
           average_attn_weights=average, **_masks(spec))


@pytest.mark.parametrize("config", [{"add_bias_kv": True}, {"add_zero_attn": True},
                                    {"add_bias_kv": True, "add_zero_attn": True}],
                         ids=["bias_kv", "zero_attn", "both"])
def test_masks_grow_with_bias_kv_and_zero_attention(config):
    tm, vm = _pair(**config)
    masks = _masks({"key_padding_mask": ("kpm", "float"), "attn_mask": ("attn", "float", 3)})
    _check(tm, vm, _inputs("cross", False), average_attn_weights=False, **masks)


@pytest.mark.parametrize("need_weights", [True, False])
@pytest.mark.parametrize("with_padding", [False, True])
def test_is_causal_hint_with_the_causal_mask(need_weights, with_padding):
    tm, vm = _pair(batch_first=True)
    causal = torch.nn.Transformer.generate_square_subsequent_mask(L)
    extra = {"attn_mask": causal}
    if with_padding:
        extra["key_padding_mask"] = _key_padding("float", L)
    _check(tm, vm, _inputs("self", True), need_weights=need_weights, is_causal=True, **extra)


def test_is_causal_hint_overrides_a_non_causal_mask_like_torch():
    """Without weights or padding the hint wins: PyTorch drops the mask and applies the
    causal one; volta does the same."""
    tm, vm = _pair()
    _check(tm, vm, _inputs("self", False), need_weights=False, is_causal=True,
           attn_mask=_attn_mask("bool", 2, L, L))


@pytest.mark.parametrize("need_weights", [True, False])
@pytest.mark.parametrize("kind", ["self", "cross"])
def test_unbatched_inputs(kind, need_weights):
    tm, vm = _pair(batch_first=True, kdim=E, vdim=E)
    inputs = _inputs(kind, True, batched=False)
    torch.manual_seed(2)
    source = L if kind == "self" else S
    kpm = torch.zeros(source)
    kpm[-1] = -math.inf
    attn = torch.randn(H, L, source)
    _check(tm, vm, inputs, need_weights=need_weights, key_padding_mask=kpm, attn_mask=attn,
           average_attn_weights=False)


def test_eval_mode_without_grad_matches_torch():
    """torch takes its fused inference path here; the numbers still agree."""
    tm, vm = _pair(batch_first=True, dropout=0.3)
    tm.eval()
    vm.eval()
    x = torch.randn(N, L, E)
    kpm = _key_padding("bool", L)
    with torch.no_grad(), volta.no_grad():
        t_out, _ = tm(x, x, x, key_padding_mask=kpm, need_weights=False)
        vx = to_volta(x)
        v_out, v_weights = vm(vx, vx, vx, key_padding_mask=to_volta(kpm), need_weights=False)
    assert v_weights is None
    close(v_out, t_out, 1e-5, 1e-5)


def test_float64_matches_torch():
    torch.manual_seed(0)
    tm = torch.nn.MultiheadAttention(E, H, kdim=3, vdim=5, dtype=torch.float64)
    vm = volta.nn.MultiheadAttention(E, H, kdim=3, vdim=5, dtype=volta.float64)
    copy_weights(tm, vm)
    q, k, v = (torch.randn(L, N, E, dtype=torch.float64), torch.randn(S, N, 3,
               dtype=torch.float64), torch.randn(S, N, 5, dtype=torch.float64))
    t_out, t_w = tm(q, k, v, key_padding_mask=_key_padding("bool"))
    v_out, v_w = vm(to_volta(q), to_volta(k), to_volta(v),
                    key_padding_mask=to_volta(_key_padding("bool")))
    assert v_out.dtype is volta.float64
    close(v_out, t_out, 1e-12, 1e-12)
    close(v_w, t_w, 1e-12, 1e-12)


@pytest.mark.parametrize("config", [{}, {"kdim": 3, "vdim": 6}, {"bias": False},
                                    {"add_bias_kv": True}, {"kdim": 4, "bias": False,
                                                            "add_bias_kv": True}],
                         ids=["packed", "separate", "no_bias", "bias_kv", "separate_no_bias"])
def test_state_dict_layout_and_initialisation(config):
    torch.manual_seed(0)
    tm = torch.nn.MultiheadAttention(16, 4, **config)
    vm = volta.nn.MultiheadAttention(16, 4, **config)
    assert state_layout(vm) == state_layout(tm)
    assert type(vm.out_proj).__name__ == "NonDynamicallyQuantizableLinear"
    assert isinstance(vm.out_proj, volta.nn.Linear)
    # PyTorch's init: zero biases, Xavier-uniform projections within their bound
    if vm.in_proj_bias is not None:
        assert float(vm.in_proj_bias.abs().sum()) == 0.0
        assert float(vm.out_proj.bias.abs().sum()) == 0.0
    weight = vm.in_proj_weight if vm.in_proj_weight is not None else vm.q_proj_weight
    fan_out, fan_in = weight.shape
    assert float(weight.abs().max()) <= math.sqrt(6.0 / (fan_in + fan_out))
    assert float(weight.std()) > 0.5 * math.sqrt(2.0 / (fan_in + fan_out))


def test_weights_move_through_safetensors(tmp_path):
    from safetensors.torch import load_file, save_file

    tm, _ = _pair(kdim=3, vdim=6, add_bias_kv=True)
    save_file(tm.state_dict(), tmp_path / "torch.safetensors")
    vm = volta.nn.MultiheadAttention(E, H, kdim=3, vdim=6, add_bias_kv=True)
    vm.load_state_dict(volta.load(tmp_path / "torch.safetensors"))
    _check(tm, vm, _inputs("cross", False, 3, 6))
    volta.save(vm.state_dict(), tmp_path / "volta.safetensors")
    back = torch.nn.MultiheadAttention(E, H, kdim=3, vdim=6, add_bias_kv=True)
    back.load_state_dict(load_file(tmp_path / "volta.safetensors"))
    for key, value in tm.state_dict().items():
        assert torch.equal(back.state_dict()[key], value)


def test_dropout_on_weights_in_training():
    """Returned per-head weights are the dropped-out ones: zero or scaled by 1 / (1 - p)."""
    volta.manual_seed(0)
    vm = volta.nn.MultiheadAttention(E, H, dropout=0.5, batch_first=True)
    x = volta.randn(16, 12, E)
    with volta.no_grad():
        _, kept = vm(x, x, x, average_attn_weights=False)
        vm.eval()
        _, full = vm(x, x, x, average_attn_weights=False)
    zeros = (kept == 0).float().mean().item()
    assert 0.45 < zeros < 0.55
    survivors = kept != 0
    np.testing.assert_allclose(kept.numpy()[survivors.numpy()],
                               2.0 * full.numpy()[survivors.numpy()], rtol=1e-5)


def test_dropout_in_the_fused_path_is_unbiased():
    """need_weights=False: outputs vary between calls in training, and their mean over many
    draws approaches the eval-mode output."""
    volta.manual_seed(0)
    vm = volta.nn.MultiheadAttention(E, H, dropout=0.3, batch_first=True)
    x = volta.randn(2, 6, E)
    with volta.no_grad():
        draws = [vm(x, x, x, need_weights=False)[0] for _ in range(400)]
        vm.eval()
        expected = vm(x, x, x, need_weights=False)[0].numpy()
    assert not np.allclose(draws[0].numpy(), draws[1].numpy())
    mean = volta.stack(draws).mean(0).numpy()
    assert np.abs(mean - expected).max() < 0.1 * np.abs(expected).max()


def test_mismatched_mask_types_warn_like_torch():
    tm, vm = _pair()
    q, k, v = _inputs("cross", False)
    kpm, attn = _key_padding("bool"), _attn_mask("float", 2)
    with pytest.warns(UserWarning, match="mismatched key_padding_mask and attn_mask"):
        tm(q, k, v, key_padding_mask=kpm, attn_mask=attn)
    with pytest.warns(UserWarning, match="mismatched key_padding_mask and attn_mask"):
        vm(to_volta(q), to_volta(k), to_volta(v), key_padding_mask=to_volta(kpm),
           attn_mask=to_volta(attn))
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        vm(to_volta(q), to_volta(k), to_volta(v), key_padding_mask=to_volta(kpm),
           attn_mask=to_volta(_attn_mask("bool", 2)))


def test_constructor_errors():
    raises_like_torch(lambda lib: lib.nn.MultiheadAttention(10, 3))
    raises_like_torch(lambda lib: lib.nn.MultiheadAttention(0, 2))
    raises_like_torch(lambda lib: lib.nn.MultiheadAttention(8, -1))


def _call(lib, *, query=(L, N, E), key=(S, N, E), value=(S, N, E), config=None, **kwargs):
    torch.manual_seed(0)
    module = lib.nn.MultiheadAttention(E, H, **(config or {}))
    make = (lambda shape: torch.randn(shape)) if lib is torch else (
        lambda shape: volta.randn(*shape))
    convert = {k: (v if lib is torch or not isinstance(v, torch.Tensor) else to_volta(v))
               for k, v in kwargs.items()}
    return module(make(query), make(key), make(value), **convert)


@pytest.mark.parametrize("case", [
    {"attn_mask": torch.zeros(L, L, dtype=torch.bool)},          # 2-D mask of the wrong size
    {"attn_mask": torch.zeros(H, L, S)},                         # 3-D mask, batch not folded
    {"attn_mask": torch.zeros(1, 1, L, S)},                      # 4-D mask
    {"key_padding_mask": torch.zeros(N, S + 1, dtype=torch.bool)},
    {"key_padding_mask": torch.zeros(N + 1, S, dtype=torch.bool)},
    {"key_padding_mask": torch.zeros(N, S, dtype=torch.int64)},  # neither bool nor float
    {"is_causal": True},                                         # the hint needs a mask
    {"query": (L, N, E + 1)},
    {"query": (1, L, N, E)},
    {"key": (S, N)},
    {"value": (S + 1, N, E)},
    {"query": (L, E), "key": (S, E), "value": (S, E), "attn_mask": torch.zeros(H + 1, L, S)},
    {"config": {"kdim": 3}, "key": (S, N, 3), "value": (S + 1, N, E)},
], ids=["attn2d_shape", "attn3d_shape", "attn4d", "kpm_source", "kpm_batch", "kpm_int",
        "causal_without_mask", "embed_dim", "query_4d", "key_2d", "value_len", "unbatched_3d",
        "separate_kv_len"])
def test_forward_errors(case):
    raises_like_torch(lambda lib: _call(lib, **case))
