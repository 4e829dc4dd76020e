"""Device swapping mid-training: 5 steps on CPU, 5 on WGPU, 5 on CPU end where 15 CPU steps do."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

import volta
from volta import nn

OPTIMIZERS = {
    "sgd-momentum": lambda params: volta.optim.SGD(params, lr=0.1, momentum=0.9),
    "adam": lambda params: volta.optim.Adam(params, lr=0.01),
}


def _train(devices: list[str], make_optimizer: Any) -> dict[str, np.ndarray]:
    volta.manual_seed(0)
    model = nn.Sequential(nn.Linear(6, 8), nn.Tanh(), nn.Linear(8, 3))
    optimizer = make_optimizer(model.parameters())
    rng = np.random.default_rng(1)
    x_all = rng.standard_normal((15, 10, 6)).astype(np.float32)
    y_all = rng.integers(0, 3, (15, 10))
    step = 0
    for device in devices:
        model.to(device)
        for _ in range(5):
            x = volta.tensor(x_all[step], device=device)
            y = volta.tensor(y_all[step], device=device)
            optimizer.zero_grad()
            loss = nn.functional.cross_entropy(model(x), y)
            loss.backward()
            optimizer.step()
            step += 1
    return {name: p.detach().cpu().numpy() for name, p in model.named_parameters()}


@pytest.mark.parametrize("optimizer", sorted(OPTIMIZERS))
def test_cpu_wgpu_cpu_matches_cpu_only(wgpu: str, optimizer: str, quiet_fallback: None) -> None:
    reference = _train(["cpu", "cpu", "cpu"], OPTIMIZERS[optimizer])
    swapped = _train(["cpu", wgpu, "cpu"], OPTIMIZERS[optimizer])
    for name, want in reference.items():
        np.testing.assert_allclose(swapped[name], want, rtol=1e-4, atol=1e-5, err_msg=name)


def test_module_to_moves_parameters_grads_and_buffers(wgpu: str, quiet_fallback: None) -> None:
    model = nn.Sequential(nn.Linear(3, 2), nn.BatchNorm1d(2))
    model(volta.randn(4, 3)).sum().backward()
    model.to(wgpu)
    for p in model.parameters():
        assert p.device == volta.device(wgpu) and p.grad.device == volta.device(wgpu)
    for b in model.buffers():
        assert b.device == volta.device(wgpu)
    model.to("cpu")
    assert all(p.device == volta.device("cpu") for p in model.parameters())


def test_views_are_zero_copy_and_match_cpu(wgpu: str) -> None:
    base = np.arange(60, dtype=np.float32).reshape(3, 4, 5)
    cpu, gpu = volta.tensor(base), volta.tensor(base, device=wgpu)
    views = [lambda t: t.transpose(0, 2), lambda t: t[1:, ::2, 1:4], lambda t: t[:, 1],
             lambda t: t[:, :1].expand(3, 4, 5), lambda t: t.permute(2, 0, 1)[1:],
             lambda t: t.reshape(12, 5).T, lambda t: t.unsqueeze(1).narrow(3, 1, 2)]
    for view in views:
        g = view(gpu)
        assert g.untyped_storage() is gpu.untyped_storage()  # no copy on the device either
        np.testing.assert_array_equal(g.cpu().numpy(), view(cpu).numpy())
        np.testing.assert_array_equal((g * 2 + g).cpu().numpy(), (view(cpu) * 3).numpy())
        np.testing.assert_array_equal(g.contiguous().cpu().numpy(), view(cpu).numpy())
    # writes through a view land in the base
    gpu[1, :, 2] = volta.tensor([-1.0, -2.0, -3.0, -4.0])
    cpu[1, :, 2] = volta.tensor([-1.0, -2.0, -3.0, -4.0])
    np.testing.assert_array_equal(gpu.cpu().numpy(), cpu.numpy())
