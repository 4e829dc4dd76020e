"""The fused update ops' composite formulation (what a backend without a fused kernel runs)
gives the same parameters as the CPU kernels."""

from __future__ import annotations

import warnings
from typing import Any

import numpy as np
import pytest

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
