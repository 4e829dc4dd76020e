"""The fused update ops' composite formulation (what a backend without a fused kernel runs)
gives the same parameters as the CPU kernels."""

from __future__ import annotations

import warnings
from typing import Any

import numpy as np
import pytest
import torch

import volta
import volta.optim as optim

CONFIGS = [
    ("SGD", dict(lr=0.1, momentum=0.9, nesterov=True, weight_decay=0.1)),
    ("SGD", dict(lr=0.1, momentum=0.9, dampening=0.2, maximize=True)),
    ("Adam", dict(lr=0.1, amsgrad=True, weight_decay=0.1)),
    ("AdamW", dict(lr=0.1, maximize=True)),
    ("RMSprop", dict(lr=0.01, centered=True, momentum=0.9, weight_decay=0.1)),
    ("RMSprop", dict(lr=0.01)),
    ("Adagrad", dict(lr=0.1, lr_decay=0.1, weight_decay=0.1, initial_accumulator_value=0.2)),
]


@pytest.mark.parametrize(("name", "kwargs"), CONFIGS, ids=[f"{n}-{k}" for n, k in CONFIGS])
def test_composite_update_matches_cpu_kernel(scratch_device: Any, name: str, kwargs: dict) -> None:
    assert_scratch_device_matches_cpu(name, kwargs)


def assert_scratch_device_matches_cpu(name: str, kwargs: dict) -> None:
    """Four steps of optimizer ``name`` on the kernel-less scratch device (the update op's
    composite) equal the same steps on the CPU."""
    start = np.random.default_rng(0).standard_normal((4, 3))
    on_device = volta.tensor(start).to("scratch").requires_grad_()
    on_cpu = volta.tensor(start).requires_grad_()
    device_opt = getattr(optim, name)([on_device], **kwargs)
    cpu_opt = getattr(optim, name)([on_cpu], **kwargs)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # the scratch device runs the composite's parts on CPU
        for step in range(4):
            grad = volta.tensor(np.random.default_rng(step).standard_normal((4, 3)))
            on_device.grad = grad.to("scratch")
            on_cpu.grad = grad
            device_opt.step()
            cpu_opt.step()
        result = on_device.detach().to("cpu").numpy()
    assert on_device.device.type == "scratch"
    np.testing.assert_allclose(result, on_cpu.detach().numpy(), rtol=1e-12, atol=1e-14)


def test_update_op_bumps_the_version_of_what_it_writes() -> None:
    param = volta.ones(3)
    buf = volta.zeros(3)
    before = (param._version, buf._version)
    volta._sgd_update_(param, volta.ones(3), buf, 0.1, 0.9, 0.0, 0.0, False, False, True)
    assert param._version > before[0] and buf._version > before[1]
    # an optional state tensor left out is simply not written
    volta._sgd_update_(param, volta.ones(3), None, 0.1, 0.0, 0.0, 0.0, False, False, True)
    np.testing.assert_allclose(param.numpy(), 0.8, rtol=1e-6)


BIG_CONFIGS = CONFIGS + [("SGD", dict(lr=0.1, momentum=0.9)), ("Adam", dict(lr=0.01)),
                         ("RMSprop", dict(lr=0.01, momentum=0.5))]


def _big_run(name: str, kwargs: dict) -> tuple[list[np.ndarray], list[np.ndarray]]:
    """Three steps on a large contiguous parameter and a transposed (non-contiguous) one."""
    rng = np.random.default_rng(3)
    starts = [rng.standard_normal(20_001).astype(np.float32),
              rng.standard_normal((30, 20)).astype(np.float32)]
    params = [volta.tensor(starts[0]).requires_grad_(),
              volta.tensor(starts[1]).t().requires_grad_()]
    tparams = [torch.tensor(starts[0]).requires_grad_(),
               torch.tensor(starts[1]).t().requires_grad_()]
    opt = getattr(optim, name)(params, **kwargs)
    topt = getattr(torch.optim, name)(tparams, **kwargs)
    for step in range(3):
        for p, tp in zip(params, tparams):
            g = np.random.default_rng(step).standard_normal(tuple(p.shape)).astype(np.float32)
            p.grad = volta.tensor(g)
            tp.grad = torch.tensor(g)
        opt.step()
        topt.step()
    return ([p.detach().numpy() for p in params], [p.detach().numpy() for p in tparams])


@pytest.mark.parametrize(("name", "kwargs"), BIG_CONFIGS, ids=[f"{n}-{k}" for n, k in BIG_CONFIGS])
def test_blocked_and_threaded_updates_match_the_whole_array_update_and_torch(
        monkeypatch: pytest.MonkeyPatch, name: str, kwargs: dict) -> None:
    from volta.backends.cpu import parallel

    # small blocks, so that three threads each get several blocks of a 20001-element parameter
    monkeypatch.setattr(parallel, "_THREADS", 3)
    monkeypatch.setattr(parallel, "BLOCK", 1000)
    monkeypatch.setattr(parallel, "PARALLEL_MIN", 4000)
    blocked, expected = _big_run(name, kwargs)
    monkeypatch.setattr(parallel, "BLOCK", 1 << 30)  # everything as one block on one thread
    whole, _ = _big_run(name, kwargs)
    for b, w, e in zip(blocked, whole, expected):
        np.testing.assert_array_equal(b, w)
        np.testing.assert_allclose(b, e, rtol=1e-5, atol=1e-6)


def test_an_error_in_a_worker_thread_reaches_the_caller(monkeypatch: pytest.MonkeyPatch) -> None:
    from volta.backends.cpu import parallel

    monkeypatch.setattr(parallel, "_THREADS", 2)
    monkeypatch.setattr(parallel, "BLOCK", 1000)
    monkeypatch.setattr(parallel, "PARALLEL_MIN", 4000)
    arrays = [np.zeros(8000, np.float32)]
    seen = []

    def update(a: np.ndarray, scratch: np.ndarray) -> None:
        seen.append(a.size)
        if len(seen) == 3:
            raise FloatingPointError("boom")

    with pytest.raises(FloatingPointError, match="boom"):
        parallel.for_blocks(update, arrays, 1)
