"""``volta.nn.Module`` and the containers: registration, traversal, state_dict, modes, dtype
moves, hooks and repr, against PyTorch's behaviour."""

from __future__ import annotations

from collections import OrderedDict

import numpy as np
import pytest
import torch

import volta
from tests.nn.parity import close, copy_weights, state_layout, to_volta


def small_cnn(nn):
    return nn.Sequential(
        nn.Conv2d(1, 4, 3, padding=1), nn.BatchNorm2d(4), nn.ReLU(), nn.MaxPool2d(2),
        nn.Sequential(nn.Conv2d(4, 8, 3, bias=False), nn.GroupNorm(2, 8), nn.GELU()),
        nn.AdaptiveAvgPool2d(1), nn.Flatten(), nn.Dropout(0.1), nn.Linear(8, 10))


def mlp_bn(nn):
    return nn.Sequential(OrderedDict([
        ("fc1", nn.Linear(6, 16)), ("bn", nn.BatchNorm1d(16)), ("act", nn.SiLU()),
        ("blocks", nn.ModuleList([nn.Linear(16, 16), nn.LayerNorm(16)])),
        ("heads", nn.ModuleDict({"a": nn.Linear(16, 3), "b": nn.Linear(16, 2, bias=False)})),
    ]))


class Net:
    """The same user-defined model written against either framework."""

    @staticmethod
    def build(nn):
        class TwoTower(nn.Module):
            def __init__(self):
                super().__init__()
                self.embed = nn.Embedding(10, 4, padding_idx=0)
                self.towers = nn.ModuleList([nn.Linear(4, 4) for _ in range(2)])
                self.scale = nn.Parameter(torch.ones(1) if nn is torch.nn else volta.ones(1))
                self.register_buffer("steps", (torch if nn is torch.nn else volta).zeros(1))
                self.register_buffer("cache", (torch if nn is torch.nn else volta).zeros(2),
                                     persistent=False)
                self.shared = self.towers[0]  # the same module under two names

            def forward(self, idx):
                h = self.embed(idx).mean(1)
                return self.towers[1](self.towers[0](h)) * self.scale

        return TwoTower()


ARCHITECTURES = {"small_cnn": small_cnn, "mlp_bn": mlp_bn, "two_tower": Net.build}


@pytest.mark.parametrize("arch", sorted(ARCHITECTURES))
def test_state_dict_keys_order_shapes_and_traversal_match_torch(arch):
    tm, vm = ARCHITECTURES[arch](torch.nn), ARCHITECTURES[arch](volta.nn)
    assert state_layout(vm) == state_layout(tm)
    assert [n for n, _ in vm.named_parameters()] == [n for n, _ in tm.named_parameters()]
    assert [n for n, _ in vm.named_buffers()] == [n for n, _ in tm.named_buffers()]
    assert [n for n, _ in vm.named_modules()] == [n for n, _ in tm.named_modules()]
    assert [n for n, _ in vm.named_children()] == [n for n, _ in tm.named_children()]
    assert ([n for n, _ in vm.named_parameters(remove_duplicate=False)]
            == [n for n, _ in tm.named_parameters(remove_duplicate=False)])
    assert ([n for n, _ in vm.named_parameters(prefix="model", recurse=False)]
            == [n for n, _ in tm.named_parameters(prefix="model", recurse=False)])
    assert len(list(vm.parameters())) == len(list(tm.parameters()))
    assert len(list(vm.modules())) == len(list(tm.modules()))
    assert repr(vm) == repr(tm)


def test_models_give_torch_outputs_and_gradients_after_copying_weights():
    torch.manual_seed(0)
    for build, x in [(small_cnn, torch.randn(3, 1, 8, 8)), (mlp_bn, None)]:
        tm, vm = build(torch.nn), build(volta.nn)
        copy_weights(tm, vm)
        tm.eval()
        vm.eval()
        if build is mlp_bn:
            x = torch.randn(5, 6)
            t_out = tm.heads["a"](tm.blocks[1](tm.blocks[0](tm.act(tm.bn(tm.fc1(x))))))
            v_out = vm.heads["a"](vm.blocks[1](vm.blocks[0](vm.act(vm.bn(vm.fc1(to_volta(x)))))))
        else:
            t_out, v_out = tm(x), vm(to_volta(x))
        close(v_out, t_out)
        t_out.square().sum().backward()
        v_out.square().sum().backward()
        for (name, tp), (_, vp) in zip(tm.named_parameters(), vm.named_parameters()):
            close(vp.grad, tp.grad, 1e-4, 1e-5)


def test_load_state_dict_errors_change_nothing():
    vm = mlp_bn(volta.nn)
    before = {k: v.clone() for k, v in vm.state_dict().items()}
    good = {k: volta.randn(*v.shape) if v.is_floating_point() else v
            for k, v in vm.state_dict().items()}
    bad_shape = dict(good)
    bad_shape["heads.a.weight"] = volta.randn(4, 16)
    with pytest.raises(RuntimeError) as err:
        vm.load_state_dict(bad_shape)
    assert "size mismatch for heads.a.weight" in str(err.value)
    missing = dict(good)
    del missing["bn.running_var"]
    missing["extra.weight"] = volta.zeros(1)
    with pytest.raises(RuntimeError) as err:
        vm.load_state_dict(missing)
    message = str(err.value)
    assert 'Missing key(s) in state_dict: "bn.running_var"' in message
    assert 'Unexpected key(s) in state_dict: "extra.weight"' in message
    # a shape error is raised even when strict=False, and also changes nothing
    with pytest.raises(RuntimeError, match="size mismatch"):
        vm.load_state_dict(bad_shape, strict=False)
    for key, value in vm.state_dict().items():
        assert bool((value == before[key]).all()), key
    result = vm.load_state_dict(missing, strict=False)
    assert result.missing_keys == ["bn.running_var"]
    assert result.unexpected_keys == ["extra.weight"]
    assert tuple(result) == (["bn.running_var"], ["extra.weight"])
    close(vm.fc1.weight, torch.tensor(good["fc1.weight"].numpy()))
    assert repr(vm.load_state_dict(good)) == "<All keys matched successfully>"


def test_load_state_dict_keeps_parameter_identity_and_torch_round_trip():
    tm, vm = small_cnn(torch.nn), small_cnn(volta.nn)
    params = list(vm.parameters())
    copy_weights(tm, vm)
    assert all(a is b for a, b in zip(params, vm.parameters()))
    back = {k: torch.from_numpy(v.numpy().copy()) for k, v in vm.state_dict().items()}
    tm2 = small_cnn(torch.nn)
    tm2.load_state_dict(back)
    for k, v in tm.state_dict().items():
        assert torch.equal(v, tm2.state_dict()[k])


def test_load_state_dict_assign_replaces_tensors_like_torch():
    torch.manual_seed(0)
    tm, vm = mlp_bn(torch.nn), mlp_bn(volta.nn)
    tm.heads.b.weight.requires_grad_(False)
    vm.heads.b.weight.requires_grad_(False)
    source = {k: torch.randn(v.shape, dtype=torch.float64) if v.is_floating_point() else v + 3
              for k, v in tm.state_dict().items()}
    # a Parameter given in the state_dict takes the module's requires_grad too
    source["fc1.bias"] = torch.nn.Parameter(source["fc1.bias"], requires_grad=False)
    given = {k: to_volta(v) for k, v in source.items()}
    given["fc1.bias"] = volta.nn.Parameter(given["fc1.bias"], requires_grad=False)
    tm.load_state_dict(source, assign=True)
    result = vm.load_state_dict(given, assign=True)
    assert repr(result) == "<All keys matched successfully>"
    for (name, tp), (vname, vp) in zip(tm.named_parameters(), vm.named_parameters()):
        assert name == vname
        assert isinstance(vp, volta.nn.Parameter)
        assert vp.requires_grad == tp.requires_grad, name
        assert vp.dtype == volta.float64  # assigned, not copied into the float32 parameter
        close(vp, tp, 0, 0)
    assert vm.fc1.bias is given["fc1.bias"] and vm.fc1.bias.requires_grad
    # buffers are the given tensors themselves
    assert vm.bn.running_mean is given["bn.running_mean"]
    assert int(vm.bn.num_batches_tracked) == int(tm.bn.num_batches_tracked) == 3
    # the assigned parameters are the ones that train: a backward reaches them
    x = volta.randn(4, 6, dtype=volta.float64)
    vm.heads.b(vm.fc1(x)).sum().backward()
    assert vm.fc1.weight.grad is not None and vm.heads.b.weight.grad is None


def test_load_state_dict_assign_checks_everything_first():
    vm = mlp_bn(volta.nn)
    before = {k: v for k, v in vm.state_dict(keep_vars=True).items()}
    bad = {k: volta.randn(*v.shape) for k, v in vm.state_dict().items()}
    bad["heads.a.bias"] = volta.randn(5)
    with pytest.raises(RuntimeError, match="size mismatch for heads.a.bias"):
        vm.load_state_dict(bad, assign=True)
    assert all(v is before[k] for k, v in vm.state_dict(keep_vars=True).items())


def test_non_persistent_buffers_and_registration_errors():
    m = Net.build(volta.nn)
    assert "cache" in dict(m.named_buffers())
    assert "cache" not in m.state_dict()
    assert "steps" in m.state_dict()
    assert isinstance(m.scale, volta.nn.Parameter)
    assert m.scale.requires_grad
    with pytest.raises(KeyError):
        m.register_buffer("a.b", volta.zeros(1))
    with pytest.raises(TypeError):
        m.register_parameter("w", volta.zeros(1))
    with pytest.raises(TypeError):
        m.scale = volta.zeros(1)  # a parameter slot takes a Parameter or None
    m.scale = None
    assert "scale" not in m.state_dict()
    del m.towers
    assert not any(k.startswith("towers") for k in m.state_dict())


def test_parameter_repr_and_flags():
    p = volta.nn.Parameter(volta.zeros(2))
    assert repr(p).startswith("Parameter containing:\ntensor(")
    assert isinstance(p, volta.Tensor) and p.is_leaf and p.requires_grad
    assert not volta.nn.Parameter(volta.zeros(2), requires_grad=False).requires_grad


def test_train_eval_apply_requires_grad_and_zero_grad():
    m = small_cnn(volta.nn)
    assert m.training and m[1].training
    m.eval()
    assert not m.training and not m[4][1].training
    m.train()
    assert m[4][1].training
    seen = []
    m.apply(lambda mod: seen.append(type(mod).__name__))
    assert seen[-1] == "Sequential" and seen[0] == "Conv2d"
    m(volta.randn(2, 1, 8, 8)).sum().backward()
    assert all(p.grad is not None for p in m.parameters())
    m.zero_grad(set_to_none=False)
    assert all(float(p.grad.abs().sum()) == 0 for p in m.parameters())
    m.zero_grad()
    assert all(p.grad is None for p in m.parameters())
    m.requires_grad_(False)
    assert not any(p.requires_grad for p in m.parameters())


def test_to_dtype_keeps_parameter_identity_and_moves_grads_and_buffers():
    m = mlp_bn(volta.nn)
    params = list(m.parameters())
    m.fc1(volta.randn(3, 6)).sum().backward()
    m.to(volta.float64)
    assert all(a is b for a, b in zip(params, m.parameters()))
    assert all(p.dtype == volta.float64 for p in m.parameters())
    assert m.fc1.weight.grad.dtype == volta.float64
    assert m.bn.running_mean.dtype == volta.float64
    assert m.bn.num_batches_tracked.dtype == volta.int64  # integers are not cast
    assert isinstance(m.fc1.weight, volta.nn.Parameter) and m.fc1.weight.requires_grad
    m.float()
    assert m.fc1.weight.dtype == volta.float32 and m.fc1.weight is params[0]
    m.half().to(torch.float32 if False else volta.float32)
    m.cpu().to("cpu")
    assert m.fc1.weight.device.type == "cpu"
    with pytest.raises(TypeError):
        m.to(volta.int32)


def test_forward_hooks_order_replacement_and_removal():
    calls = []
    m = volta.nn.Linear(3, 2)
    h1 = m.register_forward_pre_hook(lambda mod, args: calls.append("pre1"))
    m.register_forward_pre_hook(lambda mod, args: calls.append("pre0"), prepend=True)
    h3 = m.register_forward_pre_hook(lambda mod, args, kwargs: (tuple(a * 0 for a in args),
                                                                kwargs), with_kwargs=True)
    h4 = m.register_forward_hook(lambda mod, args, out: calls.append("post") or out + 1)
    h5 = m.register_forward_hook(lambda mod, args, kwargs, out: calls.append(("kw", kwargs)),
                                 with_kwargs=True)
    out = m(volta.ones(1, 3))
    assert calls == ["pre0", "pre1", "post", ("kw", {})]
    close(out[0], torch.tensor(m.bias.detach().numpy()) + 1)  # input zeroed, output + 1
    for handle in (h1, h3, h4, h5):
        handle.remove()
    calls.clear()
    out = m(volta.ones(1, 3))
    assert calls == ["pre0"]
    close(out, torch.tensor((volta.ones(1, 3) @ m.weight.t() + m.bias).detach().numpy()))
    with m.register_forward_hook(lambda *a: calls.append("ctx")):
        m(volta.ones(1, 3))
    m(volta.ones(1, 3))
    assert calls.count("ctx") == 1


def test_full_backward_hook_matches_torch():
    torch.manual_seed(0)
    records = {"torch": [], "volta": []}

    def build(nn, key):
        m = nn.Sequential(nn.Linear(4, 3), nn.Tanh())

        def hook(module, grad_input, grad_output):
            records[key].append((grad_input, grad_output))
            return (grad_input[0] * 2,)
        return m, m[1].register_full_backward_hook(hook)

    tm, th = build(torch.nn, "torch")
    vm, vh = build(volta.nn, "volta")
    copy_weights(tm, vm)
    x = torch.randn(5, 4)
    tx, vx = x.clone().requires_grad_(), to_volta(x, True)
    tm(tx).sum().backward()
    vm(vx).sum().backward()
    (t_in, t_out), = records["torch"]
    (v_in, v_out), = records["volta"]
    close(v_in[0], t_in[0])
    close(v_out[0], t_out[0])
    close(vx.grad, tx.grad)  # the doubled grad_input flowed on
    close(vm[0].weight.grad, tm[0].weight.grad)
    th.remove()
    vh.remove()
    vm(vx).sum().backward()
    assert len(records["volta"]) == 1


def test_sequential_indexing_slicing_append_and_containers():
    s = volta.nn.Sequential(volta.nn.ReLU(), volta.nn.Tanh(), volta.nn.Sigmoid())
    assert len(s) == 3 and isinstance(s[-1], volta.nn.Sigmoid)
    head = s[:2]
    assert isinstance(head, volta.nn.Sequential) and len(head) == 2
    assert [n for n, _ in s[1:].named_children()] == ["1", "2"]  # PyTorch keeps the keys
    s.append(volta.nn.Identity())
    assert [n for n, _ in s.named_children()] == ["0", "1", "2", "3"]
    del s[0]
    assert [n for n, _ in s.named_children()] == ["0", "1", "2"]
    with pytest.raises(IndexError):
        s[7]
    ml = volta.nn.ModuleList([volta.nn.Linear(2, 2)])
    ml.append(volta.nn.Linear(2, 3))
    ml += [volta.nn.Linear(3, 1)]
    assert len(ml) == 3 and ml[-1].out_features == 1
    md = volta.nn.ModuleDict({"x": volta.nn.ReLU()})
    md["y"] = volta.nn.Tanh()
    assert list(md.keys()) == ["x", "y"] and "y" in md
    pl = volta.nn.ParameterList([volta.zeros(2, 3), volta.nn.Parameter(volta.ones(1))])
    assert all(isinstance(p, volta.nn.Parameter) for p in pl)
    assert [n for n, _ in pl.named_parameters()] == ["0", "1"]
    tpl = torch.nn.ParameterList([torch.zeros(2, 3), torch.nn.Parameter(torch.ones(1))])
    assert repr(pl).replace("volta", "torch") == repr(tpl)


def test_shared_parameters_are_listed_once():
    lin = volta.nn.Linear(2, 2)
    s = volta.nn.Sequential(lin, volta.nn.ReLU(), lin)
    assert len(list(s.parameters())) == 2
    assert [n for n, _ in s.named_parameters()] == ["0.weight", "0.bias"]
    assert list(s.state_dict()) == ["0.weight", "0.bias", "2.weight", "2.bias"]


def test_deepcopy_keeps_parameters_and_independence():
    import copy
    m = mlp_bn(volta.nn)
    c = copy.deepcopy(m)
    assert isinstance(c.fc1.weight, volta.nn.Parameter)
    with volta.no_grad():
        c.fc1.weight.fill_(0)
    assert float(m.fc1.weight.abs().sum()) > 0
    np.testing.assert_array_equal(c.bn.running_var.numpy(), m.bn.running_var.numpy())
    import pickle
    restored = pickle.loads(pickle.dumps(m))
    assert isinstance(restored.fc1.weight, volta.nn.Parameter) and restored.fc1.weight.requires_grad
    np.testing.assert_array_equal(restored.heads["a"].weight.detach().numpy(),
                                  m.heads["a"].weight.detach().numpy())
    assert state_layout(restored) == state_layout(m)


@pytest.mark.filterwarnings("ignore:Full backward hook is firing:UserWarning")
def test_full_backward_hook_without_input_gradients_gets_none_like_torch():
    seen = {}

    def run(nn, lib, key):
        m = nn.Linear(3, 2)

        def hook(mod, grad_input, grad_output):
            seen[key] = (grad_input, tuple(grad_output[0].shape))
        m.register_full_backward_hook(hook)
        m(lib.ones(4, 3)).sum().backward()

    run(torch.nn, torch, "torch")
    run(volta.nn, volta, "volta")
    assert seen["volta"] == seen["torch"] == ((None,), (4, 2))


def test_module_to_like_tensor_and_nested_hook_order():
    m = volta.nn.Sequential(volta.nn.Linear(2, 2), volta.nn.Sequential(volta.nn.ReLU()))
    m.to(volta.zeros(1, dtype=volta.float64))
    assert m[0].weight.dtype == volta.float64
    order = []
    for name, mod in m.named_modules():
        mod.register_forward_pre_hook(lambda mod, args, name=name: order.append(("pre", name)))
        mod.register_forward_hook(lambda mod, args, out, name=name: order.append(("post", name)))
    m(volta.ones(1, 2, dtype=volta.float64))
    assert order == [("pre", ""), ("pre", "0"), ("post", "0"), ("pre", "1"), ("pre", "1.0"),
                     ("post", "1.0"), ("post", "1"), ("post", "")]


def every_layer(nn):
    return nn.Sequential(
        nn.Conv2d(1, 2, 3, padding=1, bias=False), nn.BatchNorm2d(2, momentum=None),
        nn.ModuleList([nn.GELU(approximate="tanh")]), nn.ModuleList(), nn.MaxPool2d(2),
        nn.Upsample(scale_factor=2), nn.Upsample(size=(3, 4), mode="bilinear"), nn.LayerNorm(4),
        nn.Embedding(3, 4, padding_idx=0), nn.Dropout(), nn.Dropout2d(0.2, inplace=True),
        nn.Flatten(), nn.Unflatten(1, (2, 2)), nn.Softmax(dim=1), nn.LogSoftmax(1),
        nn.LeakyReLU(), nn.ELU(), nn.Softplus(), nn.ReLU(inplace=True), nn.ReLU6(),
        nn.AdaptiveAvgPool2d((1, 1)), nn.AvgPool2d(2), nn.GroupNorm(2, 4), nn.RMSNorm(4),
        nn.InstanceNorm2d(3), nn.PixelShuffle(2), nn.ConvTranspose2d(2, 3, 3, stride=2),
        nn.Bilinear(2, 3, 4), nn.Conv1d(2, 3, 3, dilation=2, groups=1, padding=1),
        nn.MaxPool1d(2), nn.AvgPool1d(3), nn.AdaptiveMaxPool2d(2), nn.BatchNorm1d(3),
        nn.Identity(), nn.ModuleDict({"a": nn.Tanh(), "b": nn.Sigmoid()}), nn.SiLU(),
        nn.Mish(), nn.Hardswish(), nn.Hardsigmoid(), nn.Linear(3, 1, bias=False),
        nn.MSELoss(), nn.CrossEntropyLoss(label_smoothing=0.1))


def test_repr_of_every_layer_equals_torch():
    assert repr(every_layer(volta.nn)) == repr(every_layer(torch.nn))
    assert state_layout(every_layer(volta.nn)) == state_layout(every_layer(torch.nn))
