"""Batched execution: submissions and readbacks happen only on reads; threads share a device."""

from __future__ import annotations

import threading

import numpy as np
import pytest

import volta


def test_chain_of_ops_and_one_item_is_one_submit_and_one_readback(wgpu: str,
                                                                  counters: dict) -> None:
    x = volta.tensor([[0.5, 1.0], [1.5, 2.0]], device=wgpu)
    volta.wgpu.synchronize()
    before = volta.wgpu.counters()
    y = ((x * 2 + 1).exp() - x.T).sigmoid() / 3
    value = y[1, 0].item()
    after = volta.wgpu.counters()
    assert after["submits"] - before["submits"] == 1
    assert after["readbacks"] - before["readbacks"] == 1
    assert after["dispatches"] - before["dispatches"] == 6  # views dispatch nothing
    want = 1 / (1 + np.exp(-(np.exp(1.5 * 2 + 1) - 1.0))) / 3
    assert value == pytest.approx(want, rel=1e-6)


@pytest.mark.parametrize("read", ["numpy", "tolist", "repr", "cpu"])
def test_every_kind_of_read_flushes_once(wgpu: str, read: str) -> None:
    x = volta.tensor([1.0, 2.0, 3.0], device=wgpu)
    volta.wgpu.synchronize()
    before = volta.wgpu.counters()
    y = (x + 1) * x
    host = {"numpy": lambda t: t.cpu().numpy(), "tolist": lambda t: t.tolist(),
            "repr": repr, "cpu": lambda t: t.to("cpu")}[read](y)
    after = volta.wgpu.counters()
    assert (after["submits"] - before["submits"], after["readbacks"] - before["readbacks"]) == (1, 1)
    assert "6." in str(host)


def test_pipelines_and_bind_groups_are_cached(wgpu: str) -> None:
    a, b = volta.ones(64, device=wgpu), volta.ones(64, device=wgpu)
    for _ in range(5):  # warm up: compile, and fill the pool with this batch's buffers
        a.add_(b)
    a.cpu()
    before = volta.wgpu.counters()
    for _ in range(5):
        a.add_(b)  # same shapes, pooled buffers: nothing new to compile or bind
    a.cpu()
    after = volta.wgpu.counters()
    assert after["pipelines"] == before["pipelines"]
    assert after["dispatches"] - before["dispatches"] >= 5
    assert after["bind_groups"] == before["bind_groups"]
    assert a.tolist() == [11.0] * 64


def test_a_full_batch_is_submitted_without_a_read(wgpu: str) -> None:
    from volta.backends.wgpu.runtime import MAX_BATCH
    x = volta.zeros(4, device=wgpu)
    volta.wgpu.synchronize()
    before = volta.wgpu.counters()
    for _ in range(MAX_BATCH + 10):
        x.add_(1)
    mid = volta.wgpu.counters()
    assert mid["readbacks"] == before["readbacks"]
    assert mid["submits"] - before["submits"] >= 1
    assert x.tolist() == [float(MAX_BATCH + 10)] * 4


def test_upload_after_queued_work_keeps_order(wgpu: str) -> None:
    # the queued multiply must read x's old contents, not the values copied in afterwards
    x = volta.tensor([1.0, 2.0], device=wgpu)
    y = x * 10
    x.copy_(volta.tensor([5.0, 7.0]))
    assert y.tolist() == [10.0, 20.0]
    assert x.tolist() == [5.0, 7.0]


def test_two_threads_give_the_serial_results(wgpu: str) -> None:
    data = [np.linspace(-1, 1, 257, dtype=np.float32) * (k + 1) for k in range(2)]

    def work(arr: np.ndarray) -> np.ndarray:
        t = volta.tensor(arr, device=wgpu)
        for _ in range(20):
            t = (t * 0.9 + 0.05).tanh()
        return t.cpu().numpy()

    serial = [work(a) for a in data]
    results: list = [None, None]
    errors: list = []

    def run(i: int) -> None:
        try:
            results[i] = work(data[i])
        except Exception as exc:  # reported by the assertion below
            errors.append(exc)

    threads = [threading.Thread(target=run, args=(i,)) for i in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors
    for got, want in zip(results, serial, strict=True):
        np.testing.assert_array_equal(got, want)


@pytest.mark.parametrize("optimizer", ["sgd", "adam"])
def test_a_training_step_is_one_submit_and_one_readback(wgpu: str, optimizer: str) -> None:
    # a model of elementwise ops and reductions (no matmul, whose kernel lives elsewhere), a
    # loss, backward and a fused optimizer update: the host syncs only to read the loss
    rng = np.random.default_rng(0)
    w = volta.tensor(rng.standard_normal((3, 4)).astype(np.float32), device=wgpu,
                     requires_grad=True)
    b = volta.zeros(3, device=wgpu, requires_grad=True)
    opt = (volta.optim.SGD([w, b], lr=0.1, momentum=0.9) if optimizer == "sgd"
           else volta.optim.Adam([w, b], lr=0.01))
    losses = []
    x_host, y_host = rng.standard_normal((8, 1, 4)).astype(np.float32), rng.integers(0, 3, 8)
    for step in range(4):
        x, y = volta.tensor(x_host, device=wgpu), volta.tensor(y_host, device=wgpu)
        before = volta.wgpu.counters()
        opt.zero_grad()
        logits = (volta.tanh(x * w)).sum(-1) + b
        loss = volta.nn.functional.cross_entropy(logits, y)
        loss.backward()
        opt.step()
        losses.append(loss.item())
        after = volta.wgpu.counters()
        if step:  # the first step compiles and creates the optimizer state
            assert after["submits"] - before["submits"] == 1
            assert after["readbacks"] - before["readbacks"] == 1
    assert losses[-1] < losses[0]
