"""Every layer against PyTorch: same weights -> same outputs, input and weight gradients, and
the same state_dict layout."""

from __future__ import annotations

import numpy as np
import pytest
import torch

import volta
from tests.nn.parity import close, copy_weights, state_layout, to_volta

# (id, builder taking the nn namespace, input shape or a tensor factory, differentiable input)
LAYERS = [
    ("linear", lambda nn: nn.Linear(5, 3), (4, 5)),
    ("linear_nobias", lambda nn: nn.Linear(5, 3, bias=False), (2, 4, 5)),
    ("identity", lambda nn: nn.Identity(7, foo=1), (3, 2)),
    ("flatten", lambda nn: nn.Flatten(), (2, 3, 4, 5)),
    ("flatten_range", lambda nn: nn.Flatten(0, 2), (2, 3, 4, 5)),
    ("unflatten", lambda nn: nn.Unflatten(1, (3, 4)), (2, 12, 5)),
    ("conv1d", lambda nn: nn.Conv1d(3, 4, 3, stride=2, padding=1), (2, 3, 9)),
    ("conv1d_same", lambda nn: nn.Conv1d(3, 4, 4, padding="same", dilation=2), (2, 3, 9)),
    ("conv2d", lambda nn: nn.Conv2d(3, 4, 3, padding=1), (2, 3, 6, 5)),
    ("conv2d_groups", lambda nn: nn.Conv2d(4, 6, (3, 2), stride=(2, 1), groups=2, bias=False),
     (2, 4, 7, 6)),
    ("conv3d", lambda nn: nn.Conv3d(2, 4, (3, 2, 3), stride=(1, 2, 1), padding=1),
     (2, 2, 4, 5, 4)),
    ("conv3d_same", lambda nn: nn.Conv3d(2, 3, 2, padding="same", bias=False), (1, 2, 3, 4, 3)),
    *[(f"conv{n}d_{mode}", build, shape) for mode in ("reflect", "replicate", "circular")
      for n, build, shape in (
          (1, lambda nn, m=mode: nn.Conv1d(3, 4, 3, stride=2, padding=2, padding_mode=m),
           (2, 3, 9)),
          (2, lambda nn, m=mode: nn.Conv2d(3, 4, (3, 2), padding=(1, 2), dilation=(2, 1),
                                           padding_mode=m), (2, 3, 6, 5)),
          (3, lambda nn, m=mode: nn.Conv3d(2, 3, 3, padding=(1, 0, 2), groups=1,
                                           padding_mode=m), (2, 2, 4, 3, 5)))],
    ("conv2d_same_circular", lambda nn: nn.Conv2d(2, 3, (4, 3), padding="same",
                                                  padding_mode="circular"), (2, 2, 6, 5)),
    ("conv1d_reflect_unbatched", lambda nn: nn.Conv1d(3, 2, 3, padding=1,
                                                      padding_mode="reflect"), (3, 8)),
    ("conv_transpose1d", lambda nn: nn.ConvTranspose1d(3, 4, 3, stride=2, padding=1,
                                                       output_padding=1), (2, 3, 5)),
    ("conv_transpose2d", lambda nn: nn.ConvTranspose2d(3, 4, 3, stride=2, padding=1,
                                                       output_padding=1), (2, 3, 4, 5)),
    ("conv_transpose2d_groups", lambda nn: nn.ConvTranspose2d(4, 6, 2, stride=2, groups=2),
     (1, 4, 3, 3)),
    ("maxpool1d", lambda nn: nn.MaxPool1d(3, stride=2, padding=1), (2, 3, 10)),
    ("maxpool2d", lambda nn: nn.MaxPool2d(2), (2, 3, 6, 6)),
    ("maxpool2d_ceil", lambda nn: nn.MaxPool2d(3, stride=2, ceil_mode=True), (1, 2, 7, 8)),
    ("avgpool1d", lambda nn: nn.AvgPool1d(3, stride=2, padding=1), (2, 3, 10)),
    ("avgpool2d", lambda nn: nn.AvgPool2d(2, padding=1, count_include_pad=False), (2, 3, 5, 6)),
    ("adaptive_avgpool2d", lambda nn: nn.AdaptiveAvgPool2d((3, None)), (2, 3, 7, 5)),
    ("adaptive_maxpool2d", lambda nn: nn.AdaptiveMaxPool2d(2), (2, 3, 7, 5)),
    ("batchnorm1d", lambda nn: nn.BatchNorm1d(4), (8, 4)),
    ("batchnorm1d_3d", lambda nn: nn.BatchNorm1d(4, momentum=None), (8, 4, 3)),
    ("batchnorm2d", lambda nn: nn.BatchNorm2d(3), (4, 3, 5, 5)),
    ("batchnorm2d_noaffine", lambda nn: nn.BatchNorm2d(3, affine=False), (4, 3, 5, 5)),
    ("batchnorm1d_nobias", lambda nn: nn.BatchNorm1d(4, bias=False), (8, 4)),
    ("instancenorm2d_nobias", lambda nn: nn.InstanceNorm2d(3, affine=True, bias=False),
     (2, 3, 4, 5)),
    ("batchnorm2d_untracked", lambda nn: nn.BatchNorm2d(3, track_running_stats=False),
     (4, 3, 2, 2)),
    ("layernorm", lambda nn: nn.LayerNorm((3, 4)), (2, 5, 3, 4)),
    ("layernorm_nobias", lambda nn: nn.LayerNorm(4, bias=False), (2, 4)),
    ("groupnorm", lambda nn: nn.GroupNorm(2, 6), (3, 6, 4, 2)),
    ("rmsnorm", lambda nn: nn.RMSNorm(4), (3, 2, 4)),
    ("rmsnorm_eps", lambda nn: nn.RMSNorm([2, 4], eps=1e-3), (3, 2, 4)),
    ("instancenorm2d", lambda nn: nn.InstanceNorm2d(3), (2, 3, 4, 5)),
    ("instancenorm2d_affine", lambda nn: nn.InstanceNorm2d(3, affine=True,
                                                           track_running_stats=True),
     (2, 3, 4, 5)),
    ("instancenorm2d_unbatched", lambda nn: nn.InstanceNorm2d(3), (3, 4, 5)),
    ("pixelshuffle", lambda nn: nn.PixelShuffle(2), (2, 8, 3, 4)),
    ("upsample_nearest", lambda nn: nn.Upsample(scale_factor=2), (2, 3, 3, 4)),
    ("upsample_nearest_size", lambda nn: nn.Upsample(size=(5, 7)), (2, 3, 3, 4)),
    ("upsample_nearest_frac", lambda nn: nn.Upsample(scale_factor=1.5), (1, 2, 5, 3)),
    ("upsample_bilinear", lambda nn: nn.Upsample(scale_factor=2, mode="bilinear"),
     (2, 3, 3, 4)),
    ("upsample_bilinear_size", lambda nn: nn.Upsample(size=(7, 3), mode="bilinear"),
     (2, 3, 4, 5)),
    ("upsample_bilinear_align", lambda nn: nn.Upsample(size=(7, 9), mode="bilinear",
                                                       align_corners=True), (2, 3, 4, 5)),
    ("relu", lambda nn: nn.ReLU(), (3, 4)),
    ("relu6", lambda nn: nn.ReLU6(), (3, 4)),
    ("leaky_relu", lambda nn: nn.LeakyReLU(0.2), (3, 4)),
    ("elu", lambda nn: nn.ELU(alpha=0.7), (3, 4)),
    ("gelu", lambda nn: nn.GELU(), (3, 4)),
    ("gelu_tanh", lambda nn: nn.GELU(approximate="tanh"), (3, 4)),
    ("silu", lambda nn: nn.SiLU(), (3, 4)),
    ("mish", lambda nn: nn.Mish(), (3, 4)),
    ("sigmoid", lambda nn: nn.Sigmoid(), (3, 4)),
    ("tanh", lambda nn: nn.Tanh(), (3, 4)),
    ("softplus", lambda nn: nn.Softplus(beta=2.0, threshold=1.0), (3, 4)),
    ("hardswish", lambda nn: nn.Hardswish(), (3, 4)),
    ("hardsigmoid", lambda nn: nn.Hardsigmoid(), (3, 4)),
    ("softmax", lambda nn: nn.Softmax(dim=1), (3, 4, 2)),
    ("log_softmax", lambda nn: nn.LogSoftmax(dim=-1), (3, 4)),
    ("dropout_eval", lambda nn: nn.Dropout(0.3).eval(), (3, 4)),
    ("dropout2d_eval", lambda nn: nn.Dropout2d(0.3).eval(), (2, 3, 4, 4)),
]


def _run(layer: str, build, shape, dtype=torch.float32):
    torch.manual_seed(0)
    tm = build(torch.nn).to(dtype)
    vm = build(volta.nn).to(volta.float64 if dtype == torch.float64 else volta.float32)
    assert state_layout(vm) == state_layout(tm)
    copy_weights(tm, vm)
    x = torch.randn(*shape, dtype=dtype) * 2
    tx = x.clone().requires_grad_()
    vx = to_volta(x, requires_grad=True)
    t_out, v_out = tm(tx), vm(vx)
    tol = 1e-10 if dtype == torch.float64 else 2e-5
    close(v_out, t_out, tol, tol)
    g = torch.randn(t_out.shape, dtype=dtype)
    t_out.backward(g)
    v_out.backward(to_volta(g))
    close(vx.grad, tx.grad, tol * 5, tol * 5)
    for (name, tp), (vname, vp) in zip(tm.named_parameters(), vm.named_parameters()):
        assert name == vname
        close(vp.grad, tp.grad, tol * 5, tol * 5)
    # buffers (running statistics, num_batches_tracked) evolve identically
    for (name, tb), (_, vb) in zip(tm.named_buffers(), vm.named_buffers()):
        close(vb, tb, tol, tol)
    return tm, vm


@pytest.mark.parametrize("layer,build,shape", LAYERS, ids=[case[0] for case in LAYERS])
def test_layer_matches_torch(layer, build, shape):
    _run(layer, build, shape)


@pytest.mark.parametrize("layer", ["linear", "conv2d", "batchnorm2d", "layernorm",
                                   "upsample_bilinear_align", "groupnorm"])
def test_layer_matches_torch_float64(layer):
    _, build, shape = next(case for case in LAYERS if case[0] == layer)
    _run(layer, build, shape, torch.float64)


def test_bilinear_layer():
    torch.manual_seed(0)
    tm, vm = torch.nn.Bilinear(3, 4, 2), volta.nn.Bilinear(3, 4, 2)
    copy_weights(tm, vm)
    a, b = torch.randn(5, 3), torch.randn(5, 4)
    ta, tb = a.clone().requires_grad_(), b.clone().requires_grad_()
    va, vb = to_volta(a, True), to_volta(b, True)
    t_out, v_out = tm(ta, tb), vm(va, vb)
    close(v_out, t_out)
    t_out.sum().backward()
    v_out.sum().backward()
    close(va.grad, ta.grad)
    close(vb.grad, tb.grad)
    close(vm.weight.grad, tm.weight.grad)
    close(vm.bias.grad, tm.bias.grad)


def test_embedding_padding_idx():
    torch.manual_seed(0)
    tm, vm = torch.nn.Embedding(6, 3, padding_idx=-2), volta.nn.Embedding(6, 3, padding_idx=-2)
    assert vm.padding_idx == tm.padding_idx == 4
    assert float(vm.weight[4].abs().sum()) == 0.0
    copy_weights(tm, vm)
    idx = torch.tensor([[0, 4, 2], [4, 5, 0]])
    t_out, v_out = tm(idx), vm(volta.tensor(idx.numpy()))
    close(v_out, t_out)
    g = torch.randn(t_out.shape)
    t_out.backward(g)
    v_out.backward(to_volta(g))
    close(vm.weight.grad, tm.weight.grad)
    assert float(vm.weight.grad[4].abs().sum()) == 0.0


@pytest.mark.parametrize("norm_type", [2.0, 1.0, 3.0, float("inf")])
def test_embedding_max_norm_renormalises_looked_up_rows_like_torch(norm_type):
    torch.manual_seed(0)
    tm = torch.nn.Embedding(8, 4, padding_idx=2, max_norm=1.5, norm_type=norm_type)
    vm = volta.nn.Embedding(8, 4, padding_idx=2, max_norm=1.5, norm_type=norm_type)
    with torch.no_grad():
        tm.weight.mul_(2)
    copy_weights(tm, vm)
    for idx in (torch.tensor([[0, 3, 3], [5, 0, 2]]), torch.tensor([7, 3, 1])):
        t_out, v_out = tm(idx), vm(volta.tensor(idx.numpy()))
        close(v_out, t_out)
        # the rows looked up were rescaled in place (others untouched), exactly as PyTorch did
        close(vm.weight, tm.weight)
        g = torch.randn(t_out.shape)
        t_out.backward(g)
        v_out.backward(to_volta(g))
        close(vm.weight.grad, tm.weight.grad)
    norms = vm.weight.detach().norm(norm_type, dim=1)
    looked_up = volta.tensor([0, 1, 3, 5, 7])
    assert bool((norms.index_select(0, looked_up) <= 1.5 + 1e-5).all())
    assert float(norms[4]) > 1.5  # never looked up, so never rescaled


def test_embedding_from_pretrained_with_max_norm():
    torch.manual_seed(0)
    table = torch.randn(5, 3) * 3
    tm = torch.nn.Embedding.from_pretrained(table.clone(), max_norm=1.0)
    vm = volta.nn.Embedding.from_pretrained(to_volta(table), max_norm=1.0)
    assert not vm.weight.requires_grad and repr(vm) == repr(tm)
    idx = torch.tensor([4, 0, 4])
    close(vm(volta.tensor(idx.numpy())), tm(idx))
    close(vm.weight, tm.weight)
    # functional form, trainable weight: outputs, renormalised weight and gradients agree
    tw, vw = table.clone().requires_grad_(), to_volta(table, requires_grad=True)
    t_out = torch.nn.functional.embedding(idx, tw, max_norm=2.0, norm_type=1.0)
    v_out = volta.nn.functional.embedding(volta.tensor(idx.numpy()), vw, max_norm=2.0,
                                          norm_type=1.0)
    close(v_out, t_out)
    close(vw, tw)
    (t_out ** 2).sum().backward()
    (v_out ** 2).sum().backward()
    close(vw.grad, tw.grad)
    with pytest.raises(volta.VoltaError, match="2-dimensional"):
        volta.nn.Embedding.from_pretrained(volta.randn(2, 3, 4))
    with pytest.raises(volta.VoltaError, match="Shape of weight does not match"):
        volta.nn.Embedding(4, 3, _weight=volta.randn(3, 4))


@pytest.mark.parametrize("momentum", [0.1, 0.5, None])
def test_batchnorm_running_stats_over_steps_then_eval(momentum):
    torch.manual_seed(0)
    tm = torch.nn.BatchNorm2d(3, momentum=momentum)
    vm = volta.nn.BatchNorm2d(3, momentum=momentum)
    for _ in range(4):
        x = torch.randn(4, 3, 3, 3) * 3 + 1
        close(vm(to_volta(x)), tm(x))
    close(vm.running_mean, tm.running_mean)
    close(vm.running_var, tm.running_var)
    assert int(vm.num_batches_tracked) == int(tm.num_batches_tracked) == 4
    tm.eval()
    vm.eval()
    x = torch.randn(2, 3, 3, 3)
    close(vm(to_volta(x)), tm(x))
    assert int(vm.num_batches_tracked) == 4  # eval does not count batches


def test_dropout_training_statistics_and_scaling():
    volta.manual_seed(0)
    x = volta.ones(200, 100)
    y = volta.nn.Dropout(0.25)(x)
    kept = (y != 0).float()
    assert abs(float(kept.mean()) - 0.75) < 0.02
    np.testing.assert_allclose(float(y.sum() / kept.sum()), 1 / 0.75, rtol=1e-5)
    z = volta.nn.Dropout2d(0.5)(volta.ones(50, 40, 3, 3))
    per_channel = z.reshape(50, 40, 9)
    # a channel is either all zero or all scaled
    assert bool(((per_channel.amax(2) - per_channel.amin(2)) == 0).all())
    assert abs(float((per_channel[:, :, 0] != 0).float().mean()) - 0.5) < 0.05


def test_maxpool_return_indices_and_convtranspose_output_size():
    torch.manual_seed(0)
    x = torch.randn(2, 3, 6, 6)
    t_out, t_idx = torch.nn.MaxPool2d(2, return_indices=True)(x)
    v_out, v_idx = volta.nn.MaxPool2d(2, return_indices=True)(to_volta(x))
    close(v_out, t_out)
    np.testing.assert_array_equal(v_idx.numpy(), t_idx.numpy())
    tm = torch.nn.ConvTranspose2d(3, 2, 3, stride=2)
    vm = volta.nn.ConvTranspose2d(3, 2, 3, stride=2)
    copy_weights(tm, vm)
    close(vm(to_volta(x), output_size=[14, 14]), tm(x, output_size=[14, 14]))


def test_conv_padding_mode_errors_like_torch():
    for nn in (torch.nn, volta.nn):
        with pytest.raises(ValueError, match="padding_mode must be one of"):
            nn.Conv2d(2, 2, 3, padding_mode="mirror")
        with pytest.raises(ValueError, match='Only "zeros" padding mode is supported for '
                                             "ConvTranspose2d"):
            nn.ConvTranspose2d(2, 2, 3, padding_mode="reflect")
        with pytest.raises(ValueError, match="not supported for strided convolutions"):
            nn.Conv1d(2, 2, 3, stride=2, padding="same")
    with pytest.raises(volta.VoltaError, match="Invalid padding string"):
        volta.nn.Conv1d(2, 2, 3, padding="full")


PAD_CASES = [
    ((2, 3, 7), (2, 1)), ((2, 3, 7), (-2, 3)), ((3, 7), (3, -1)), ((2, 3, 5, 6), (1, 2, 2, 1)),
    ((2, 3, 5, 6), (-1, 2, 3, -2)), ((3, 5, 6), (2, 0, -1, 1)),
    ((1, 2, 3, 4, 5), (1, 1, 2, 0, 1, 2)), ((2, 3, 4, 5), (0, 1, -1, 2, 1, 1)),
]


@pytest.mark.parametrize("mode,shape,pad", [
    (mode, shape, pad) for mode in ("constant", "reflect", "replicate", "circular")
    for shape, pad in PAD_CASES
    # reflect padding must be smaller than the dimension it pads (PyTorch raises)
    if mode != "reflect" or max(pad) < min(shape[-len(pad) // 2:])])
def test_pad_modes_match_torch_with_negative_padding(mode, shape, pad):
    torch.manual_seed(0)
    x = torch.randn(*shape, dtype=torch.float64)
    tx, vx = x.clone().requires_grad_(), to_volta(x, requires_grad=True)
    t_out = torch.nn.functional.pad(tx, pad, mode=mode)
    v_out = volta.nn.functional.pad(vx, pad, mode=mode)
    close(v_out, t_out, 0, 0)
    g = torch.randn(t_out.shape, dtype=torch.float64)
    t_out.backward(g)
    v_out.backward(to_volta(g))
    close(vx.grad, tx.grad, 1e-12, 1e-12)


def test_pad_errors_like_torch():
    x = torch.randn(2, 3, 4, 5)
    for kwargs in (dict(pad=(1, 1), mode="reflect"),  # 4-D input, one padded dimension
                   dict(pad=(6, 0, 0, 0), mode="circular"),  # wraps around more than once
                   dict(pad=(1, 1, 1, 1), mode="replicate", value=2.0),
                   dict(pad=(0, 0), mode="left")):
        with pytest.raises((RuntimeError, NotImplementedError)):
            torch.nn.functional.pad(x, **kwargs)
        with pytest.raises(volta.VoltaError):
            volta.nn.functional.pad(to_volta(x), **kwargs)


def test_interpolate_functional_matches_torch():
    torch.manual_seed(0)
    x = torch.randn(2, 3, 5, 4)
    for kwargs in [dict(scale_factor=(2, 3)), dict(size=(3, 2)), dict(size=(8, 9), mode="bilinear"),
                   dict(scale_factor=0.5, mode="bilinear"), dict(size=7, mode="nearest-exact"),
                   dict(scale_factor=1.7, mode="bilinear", recompute_scale_factor=True)]:
        close(volta.nn.functional.interpolate(to_volta(x), **kwargs),
              torch.nn.functional.interpolate(x, **kwargs))
    y = torch.randn(2, 3, 6)
    close(volta.nn.functional.interpolate(to_volta(y), size=10, mode="linear",
                                          align_corners=True),
          torch.nn.functional.interpolate(y, size=10, mode="linear", align_corners=True))


@pytest.mark.parametrize("unbatched", [False, True])
def test_adaptive_max_pool1d_return_indices(unbatched):
    torch.manual_seed(0)
    x = torch.randn(3, 7) if unbatched else torch.randn(2, 3, 7)
    tx, vx = x.clone().requires_grad_(), to_volta(x, requires_grad=True)
    t_out, t_idx = torch.nn.functional.adaptive_max_pool1d(tx, 3, return_indices=True)
    v_out, v_idx = volta.nn.functional.adaptive_max_pool1d(vx, 3, return_indices=True)
    close(v_out, t_out)
    np.testing.assert_array_equal(v_idx.numpy(), t_idx.numpy())
    t_out.sum().backward()
    v_out.sum().backward()
    close(vx.grad, tx.grad)
    close(volta.nn.functional.adaptive_max_pool1d(vx, 4),
          torch.nn.functional.adaptive_max_pool1d(tx, 4))


def test_norm_layer_reprs_match_torch():
    for build in (lambda nn: nn.BatchNorm1d(3), lambda nn: nn.BatchNorm2d(3, bias=False),
                  lambda nn: nn.BatchNorm1d(3, affine=False),
                  lambda nn: nn.InstanceNorm2d(3, affine=True, bias=False),
                  lambda nn: nn.LayerNorm(4, bias=False), lambda nn: nn.GroupNorm(2, 4),
                  lambda nn: nn.RMSNorm(4)):
        assert repr(build(volta.nn)) == repr(build(torch.nn))
        assert state_layout(build(volta.nn)) == state_layout(build(torch.nn))


def test_pixel_unshuffle_inverts_pixel_shuffle():
    x = torch.randn(2, 3, 4, 6)
    close(volta.nn.functional.pixel_unshuffle(to_volta(x), 2),
          torch.nn.functional.pixel_unshuffle(x, 2))
