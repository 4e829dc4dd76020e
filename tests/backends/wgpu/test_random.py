"""Random numbers drawn on the device (Philox-4x32-10, Note [device random numbers])."""

from __future__ import annotations

import numpy as np
import pytest

import volta
from volta import nn

MASK = 0xFFFFFFFF


def philox_uniform(key: int, offset: int, numel: int) -> np.ndarray:
    """Philox-4x32-10 (Salmon et al., 2011) in numpy, with the kernel's counter layout."""
    n = np.arange(-(-numel // 4), dtype=np.uint64) + np.uint64(offset)
    c = [n & MASK, n >> np.uint64(32), np.zeros_like(n), np.zeros_like(n)]
    k = [np.uint64(key & MASK), np.uint64(key >> 32)]
    for _ in range(10):
        p0, p1 = np.uint64(0xD2511F53) * c[0], np.uint64(0xCD9E8D57) * c[2]
        c = [(p1 >> np.uint64(32)) ^ c[1] ^ k[0], p1 & MASK,
             (p0 >> np.uint64(32)) ^ c[3] ^ k[1], p0 & MASK]
        k = [(k[0] + np.uint64(0x9E3779B9)) & MASK, (k[1] + np.uint64(0xBB67AE85)) & MASK]
    words = np.stack(c, axis=1).reshape(-1)[:numel]
    return ((words >> np.uint64(8)).astype(np.float64) * 2.0 ** -24).astype(np.float32)


def test_rand_is_the_philox_stream_of_the_seed(wgpu: str) -> None:
    volta.manual_seed(1234)
    first = volta.rand(10, device=wgpu).cpu().numpy()
    second = volta.rand(3, 3, device=wgpu).cpu().numpy()
    np.testing.assert_array_equal(first, philox_uniform(1234, 0, 10))
    # the first draw used 3 blocks of four numbers; the second starts after them
    np.testing.assert_array_equal(second.reshape(-1), philox_uniform(1234, 3, 9))


def test_manual_seed_repeats_and_other_seeds_differ(wgpu: str) -> None:
    def draw(seed: int) -> np.ndarray:
        volta.manual_seed(seed)
        return np.concatenate([volta.rand(100, device=wgpu).cpu().numpy(),
                               volta.randn(50, device=wgpu).cpu().numpy()])

    np.testing.assert_array_equal(draw(7), draw(7))
    assert not np.array_equal(draw(7), draw(8))


def test_generator_state_round_trips_the_device_stream(wgpu: str) -> None:
    gen = volta.default_generator
    volta.manual_seed(3)
    volta.rand(5, device=wgpu)
    state = gen.get_state()
    want = volta.randn(20, device=wgpu).cpu().numpy()
    gen.set_state(state)
    np.testing.assert_array_equal(volta.randn(20, device=wgpu).cpu().numpy(), want)


@pytest.mark.parametrize("dist", ["rand", "randn"])
def test_statistics(wgpu: str, dist: str) -> None:
    volta.manual_seed(0)
    x = getattr(volta, dist)(200_001, device=wgpu).cpu().numpy().astype(np.float64)
    n = x.size
    mean, var = (0.5, 1 / 12) if dist == "rand" else (0.0, 1.0)
    # five standard errors of the mean; variance within 2%
    assert abs(x.mean() - mean) < 5 * np.sqrt(var / n)
    assert abs(x.var() - var) < 0.02 * var
    if dist == "rand":
        assert 0.0 <= x.min() and x.max() < 1.0
        # equal-width bins hold equal counts (chi-square with 9 degrees of freedom, p ~ 1e-6)
        counts = np.histogram(x, bins=10, range=(0, 1))[0]
        assert ((counts - n / 10) ** 2 / (n / 10)).sum() < 45
    else:
        assert abs((x ** 4).mean() - 3.0) < 0.1  # kurtosis of the normal


def test_rand_like_bernoulli_and_uniform_run_on_the_device(wgpu: str) -> None:
    volta.manual_seed(5)
    p = volta.full((50_000,), 0.3, device=wgpu)
    u = volta.empty(1000, device=wgpu)
    volta.wgpu.synchronize()
    uploads = volta.wgpu.counters()["uploads"]
    draws = volta.bernoulli(p)
    u.uniform_(-2, 3)
    likes = volta.randn_like(p)
    assert volta.wgpu.counters()["uploads"] == uploads
    assert abs(draws.cpu().numpy().mean() - 0.3) < 0.01
    assert -2 <= u.cpu().numpy().min() and u.cpu().numpy().max() < 3
    assert abs(likes.cpu().numpy().std() - 1) < 0.02


def test_dropout_mask_rate_and_scale(wgpu: str) -> None:
    volta.manual_seed(11)
    x = volta.ones(100_000, device=wgpu)
    y = nn.functional.dropout(x, p=0.3, training=True).cpu().numpy()
    kept = y != 0
    assert abs(kept.mean() - 0.7) < 0.006
    np.testing.assert_allclose(y[kept], 1 / 0.7, rtol=1e-6)


def test_dropout_training_step_uploads_nothing(wgpu: str) -> None:
    """The mask is drawn on the device: a step with dropout uploads no more than one without
    (the only upload left is the backward pass's seed gradient, a ``ones_like``)."""
    volta.manual_seed(0)
    dropout = nn.Dropout(0.25)
    model = nn.Sequential(nn.Linear(16, 32), nn.ReLU(), dropout, nn.Linear(32, 4)).to(wgpu)
    opt = volta.optim.SGD(model.parameters(), lr=0.1)
    x, y = volta.randn(8, 16, device=wgpu), volta.randn(8, 4, device=wgpu)

    def step() -> float:
        opt.zero_grad()
        loss = nn.functional.mse_loss(model(x), y)
        loss.backward()
        opt.step()
        return loss.item()

    def uploads_and_readbacks_of_two_steps(p: float) -> tuple[list[float], int, int]:
        dropout.p = p
        step()  # warm up: pipelines, pool
        volta.wgpu.synchronize()
        before = volta.wgpu.counters()
        losses = [step(), step()]
        after = volta.wgpu.counters()
        return losses, after["uploads"] - before["uploads"], \
            after["readbacks"] - before["readbacks"]

    _, plain_uploads, _ = uploads_and_readbacks_of_two_steps(0.0)
    losses, uploads, readbacks = uploads_and_readbacks_of_two_steps(0.25)
    assert uploads == plain_uploads
    assert readbacks == 2
    assert losses[0] != losses[1]  # a new mask each step
