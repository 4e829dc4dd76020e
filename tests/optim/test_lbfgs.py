"""LBFGS (with and without the strong-Wolfe line search) follows torch.optim.LBFGS step for step
on the same model, data and closure, and resumes from its state dict."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
import torch

import volta
import volta.optim as optim

# the 20 iterations of an L-BFGS step amplify rounding differences (reduction order in the
# model and the dot products) about 20-fold: float64 is compared after two steps (agreeing to
# about 1e-10), float32, whose own rounding is amplified the same way, after one
TOL = {torch.float64: dict(rtol=1e-7, atol=1e-9), torch.float32: dict(rtol=1e-2, atol=2e-3)}
STEPS = {torch.float64: 2, torch.float32: 1}
VOLTA_DTYPE = {torch.float64: volta.float64, torch.float32: volta.float32}


def _problem(dtype: torch.dtype) -> tuple[Any, ...]:
    torch.manual_seed(1)
    reference = torch.nn.Sequential(torch.nn.Linear(3, 5), torch.nn.Tanh(),
                                    torch.nn.Linear(5, 1)).to(dtype)
    model = volta.nn.Sequential(volta.nn.Linear(3, 5), volta.nn.Tanh(),
                                volta.nn.Linear(5, 1)).to(VOLTA_DTYPE[dtype])
    model.load_state_dict({k: volta.tensor(v.detach().numpy())
                           for k, v in reference.state_dict().items()})
    rng = np.random.default_rng(2)
    x = rng.standard_normal((20, 3))
    y = np.sin(x.sum(axis=1, keepdims=True))
    return model, reference, x.astype(str(dtype)[6:]), y.astype(str(dtype)[6:])


def _closures(model: Any, reference: Any, x: np.ndarray, y: np.ndarray,
              vopt: Any, topt: Any) -> tuple[Any, Any]:
    vx, vy, tx, ty = volta.tensor(x), volta.tensor(y), torch.tensor(x), torch.tensor(y)

    def volta_closure() -> volta.Tensor:
        vopt.zero_grad()
        loss = ((model(vx) - vy) ** 2).mean()
        loss.backward()
        return loss

    def torch_closure() -> torch.Tensor:
        topt.zero_grad()
        loss = ((reference(tx) - ty) ** 2).mean()
        loss.backward()
        return loss
    return volta_closure, torch_closure


def _assert_close(model: Any, reference: Any, dtype: torch.dtype) -> None:
    for (key, value), expected in zip(model.state_dict().items(),
                                      reference.state_dict().values(), strict=True):
        np.testing.assert_allclose(value.numpy(), expected.numpy(), err_msg=key, **TOL[dtype])


CONFIGS = [dict(), dict(line_search_fn="strong_wolfe"),
           dict(lr=0.5, max_iter=7, history_size=3),
           dict(line_search_fn="strong_wolfe", max_iter=10, max_eval=12, history_size=4)]


@pytest.mark.parametrize("dtype", [torch.float64, torch.float32])
@pytest.mark.parametrize("kwargs", CONFIGS, ids=[str(k) for k in CONFIGS])
def test_steps_match_torch(kwargs: dict, dtype: torch.dtype) -> None:
    model, reference, x, y = _problem(dtype)
    vopt = optim.LBFGS(model.parameters(), **kwargs)
    topt = torch.optim.LBFGS(reference.parameters(), **kwargs)
    volta_closure, torch_closure = _closures(model, reference, x, y, vopt, topt)
    for _ in range(STEPS[dtype]):
        vloss = vopt.step(volta_closure)
        tloss = topt.step(torch_closure)
        assert float(vloss.item()) == pytest.approx(float(tloss.detach()),
                                                    rel=TOL[dtype]["rtol"])
    _assert_close(model, reference, dtype)
    vstate = vopt.state_dict()["state"][0]
    tstate = topt.state_dict()["state"][0]
    assert vstate.keys() == tstate.keys()
    assert (vstate["func_evals"], vstate["n_iter"]) == (tstate["func_evals"], tstate["n_iter"])


def test_state_dict_round_trip_continues_like_torch() -> None:
    kwargs = dict(line_search_fn="strong_wolfe", max_iter=5, history_size=4)
    model, reference, x, y = _problem(torch.float64)
    vopt = optim.LBFGS(model.parameters(), **kwargs)
    topt = torch.optim.LBFGS(reference.parameters(), **kwargs)
    volta_closure, torch_closure = _closures(model, reference, x, y, vopt, topt)
    for _ in range(2):
        vopt.step(volta_closure)
        topt.step(torch_closure)
    saved = vopt.state_dict()
    assert saved["param_groups"][0] == {k: v for k, v in topt.state_dict()["param_groups"][0]
                                        .items()}
    resumed_model, _, _, _ = _problem(torch.float64)
    resumed_model.load_state_dict(model.state_dict())
    resumed = optim.LBFGS(resumed_model.parameters(), lr=3.0)
    resumed.load_state_dict(saved)
    assert resumed.param_groups[0]["line_search_fn"] == "strong_wolfe"
    resumed_closure, torch_closure = _closures(resumed_model, reference, x, y, resumed, topt)
    for _ in range(2):
        resumed.step(resumed_closure)
        topt.step(torch_closure)
    _assert_close(resumed_model, reference, torch.float64)


def test_minimises_rosenbrock() -> None:
    xy = volta.tensor(np.array([-1.5, 2.0]), requires_grad=True)
    opt = optim.LBFGS([xy], line_search_fn="strong_wolfe", max_iter=100)

    def closure() -> volta.Tensor:
        opt.zero_grad()
        a, b = xy[0], xy[1]
        loss = (1 - a) ** 2 + 100 * (b - a * a) ** 2
        loss.backward()
        return loss
    opt.step(closure)
    np.testing.assert_allclose(xy.detach().numpy(), [1.0, 1.0], atol=1e-5)


def test_invalid_arguments() -> None:
    w = volta.zeros(2, requires_grad=True)
    with pytest.raises(volta.errors.ArgumentError, match="Invalid learning rate"):
        optim.LBFGS([w], lr=-1)
    with pytest.raises(volta.errors.ArgumentError, match="only 'strong_wolfe' is supported"):
        optim.LBFGS([w], line_search_fn="backtracking")
    with pytest.raises(volta.errors.ArgumentError, match="parameter groups"):
        optim.LBFGS([{"params": [w]}, {"params": [volta.zeros(1, requires_grad=True)]}])


@pytest.mark.parametrize("line_search_fn", [None, "strong_wolfe"])
def test_runs_on_wgpu_like_on_cpu(line_search_fn: str | None) -> None:
    assert volta.wgpu.is_available(), "no WebGPU adapter: install mesa-vulkan-drivers"
    rng = np.random.default_rng(0)
    start = rng.standard_normal((3, 2)).astype(np.float32)
    target = rng.standard_normal((3, 2)).astype(np.float32)
    results = {}
    for device in ("cpu", "wgpu"):
        w = volta.tensor(start, device=device).requires_grad_()
        goal = volta.tensor(target, device=device)
        opt = optim.LBFGS([w], max_iter=5, line_search_fn=line_search_fn)

        def closure(w: volta.Tensor = w, goal: volta.Tensor = goal,
                    opt: optim.LBFGS = opt) -> volta.Tensor:
            opt.zero_grad()
            loss = ((w - goal) ** 4).sum() + (w * w).sum()
            loss.backward()
            return loss
        for _ in range(2):
            opt.step(closure)
        assert w.device.type == device
        assert opt.state[w]["d"].device.type == device
        results[device] = w.detach().cpu().numpy()
    np.testing.assert_allclose(results["wgpu"], results["cpu"], rtol=1e-4, atol=1e-5)
