"""volta.gradient (torch.gradient) against PyTorch: every spacing form, edge orders, errors,
gradients (gradcheck in float64) and the composite on WGPU."""

from __future__ import annotations

import numpy as np
import pytest
import torch

import volta

RNG = np.random.default_rng(3)
DATA = RNG.standard_normal((4, 5))
X0, X1 = np.array([0.0, 0.5, 1.7, 3.0]), np.array([-1.0, 0.0, 0.25, 2.0, 2.5])


def _both(array: np.ndarray) -> tuple[torch.Tensor, volta.Tensor]:
    return torch.tensor(array), volta.tensor(array)


def _call(module, data: np.ndarray, kwargs: dict) -> tuple:
    t = (torch.tensor if module is torch else volta.tensor)
    spacing = kwargs.get("spacing")
    if isinstance(spacing, list) and spacing and isinstance(spacing[0], np.ndarray):
        kwargs = {**kwargs, "spacing": [t(s) for s in spacing]}
    return module.gradient(t(data), **kwargs)


CASES = [
    {}, {"spacing": 2.0}, {"spacing": 3}, {"spacing": [2.0, 0.5]}, {"dim": 1}, {"dim": -2},
    {"dim": [1, 0]}, {"spacing": 0.5, "dim": [1]}, {"spacing": [4.0], "dim": 0},
    {"spacing": (1.5, 2), "dim": (0, 1)}, {"edge_order": 2}, {"spacing": 2.0, "edge_order": 2},
    {"spacing": [X0, X1]}, {"spacing": [X1], "dim": 1, "edge_order": 2},
    {"spacing": [X1, X0], "dim": [1, 0], "edge_order": 2}, {"spacing": [X0], "dim": 0},
]


@pytest.mark.parametrize("kwargs", CASES, ids=[str(sorted(c)) + str(i) for i, c in
                                                enumerate(CASES)])
@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_gradient_matches_pytorch(kwargs: dict, dtype: str) -> None:
    data = DATA.astype(dtype)
    spacing = kwargs.get("spacing")
    if isinstance(spacing, list) and spacing and isinstance(spacing[0], np.ndarray):
        kwargs = {**kwargs, "spacing": [s.astype(dtype) for s in spacing]}
    expected, actual = _call(torch, data, kwargs), _call(volta, data, kwargs)
    assert isinstance(actual, tuple) and len(actual) == len(expected)
    for a, e in zip(actual, expected):
        assert str(a.dtype).rsplit(".", 1)[-1] == str(e.dtype).rsplit(".", 1)[-1]
        np.testing.assert_allclose(a.numpy(), e.numpy(), rtol=1e-5, atol=1e-5)


@pytest.mark.parametrize("dtype", ["int64", "int32", "float16"])
def test_gradient_of_other_dtypes_promotes_as_pytorch(dtype: str) -> None:
    data = np.array([[1, 4, 9, 16], [2, 3, 5, 8]]).astype(dtype)
    for kwargs in ({}, {"spacing": 2}, {"spacing": 2.5, "dim": 1, "edge_order": 2}):
        expected, actual = _call(torch, data, kwargs), _call(volta, data, kwargs)
        for a, e in zip(actual, expected):
            assert str(a.dtype).rsplit(".", 1)[-1] == str(e.dtype).rsplit(".", 1)[-1]
            np.testing.assert_allclose(a.float().numpy(), e.float().numpy(), rtol=1e-3)


def test_gradient_of_a_0d_tensor_is_empty() -> None:
    assert volta.gradient(volta.tensor(2.0)) == torch.gradient(torch.tensor(2.0)) == ()


ERRORS = [
    ({"edge_order": 3}, "only supports edge_order=1 and edge_order=2"),
    ({"spacing": [1.0, 2.0, 3.0]}, "since dim argument was not given, but got a list of length 3"),
    ({"spacing": [1.0], "dim": [0, 1]}, "spacing argument of length 1 and a dim argument of "
                                        "length 2"),
    ({"edge_order": 2, "dim": 0}, "at least edge_order\\+1"),
    ({"dim": [0, 0]}, "appears multiple times"),
    ({"dim": 2}, "Dimension out of range"),
    ({"spacing": [np.ones((2, 2)), np.ones(4)]}, "to have one dimension, but got an element "
                                                  "with 2 dimensions"),
]


@pytest.mark.parametrize("kwargs,message", ERRORS)
def test_gradient_errors_as_pytorch(kwargs: dict, message: str) -> None:
    data = DATA[:2]
    with pytest.raises(Exception, match=message):
        _call(torch, data, kwargs)
    with pytest.raises(volta.VoltaError, match=message):
        _call(volta, data, kwargs)


def test_gradient_rejects_uint8_and_mismatched_coordinates() -> None:
    with pytest.raises(volta.VoltaError, match="does not support uint8"):
        volta.gradient(volta.tensor([1, 2, 3], dtype=volta.uint8))
    for coords in (X1, X1[:2]):  # 5 or 2 coordinates for 4 points: PyTorch's size error
        with pytest.raises(RuntimeError, match="must match the size"):
            torch.gradient(torch.tensor(DATA), spacing=[torch.tensor(coords)], dim=0)
        with pytest.raises(volta.VoltaError):
            volta.gradient(volta.tensor(DATA), spacing=[volta.tensor(coords)], dim=0)


@pytest.mark.parametrize("edge_order", [1, 2])
def test_gradient_backward_gradchecks_in_self_and_coordinates(edge_order: int) -> None:
    data = volta.tensor(DATA, requires_grad=True)
    x0 = volta.tensor(X0, requires_grad=True)
    x1 = volta.tensor(X1, requires_grad=True)
    assert volta.autograd.gradcheck(
        lambda d, a, b: volta.gradient(d, spacing=[a, b], edge_order=edge_order),
        (data, x0, x1))
    assert volta.autograd.gradcheck(
        lambda d: volta.gradient(d, spacing=1.5, dim=1, edge_order=edge_order), (data,))


def test_gradient_backward_matches_pytorch() -> None:
    cot = RNG.standard_normal(DATA.shape)
    grads = []
    for module in (torch, volta):
        data = module.tensor(DATA, requires_grad=True)
        x1 = module.tensor(X1, requires_grad=True)
        out = module.gradient(data, spacing=[x1], dim=1, edge_order=2)[0]
        (out * module.tensor(cot)).sum().backward()
        grads.append((data.grad.numpy(), x1.grad.numpy()))
    for v, t in zip(grads[1], grads[0]):
        np.testing.assert_allclose(v, t, rtol=1e-10, atol=1e-10)


def test_gradient_runs_on_wgpu_as_on_cpu() -> None:
    assert volta.wgpu.is_available(), "no WebGPU adapter: install mesa-vulkan-drivers"
    data = DATA.astype(np.float32)
    coords = X1.astype(np.float32)
    for kwargs in ({"spacing": 2.0, "edge_order": 2}, {"dim": 1}):
        on_cpu = volta.gradient(volta.tensor(data), **kwargs)
        on_wgpu = volta.gradient(volta.tensor(data, device="wgpu"), **kwargs)
        for w, c in zip(on_wgpu, on_cpu):
            assert w.device.type == "wgpu"
            np.testing.assert_allclose(w.cpu().numpy(), c.numpy(), rtol=1e-5, atol=1e-5)
    on_cpu = volta.gradient(volta.tensor(data), spacing=[volta.tensor(coords)], dim=1)[0]
    on_wgpu = volta.gradient(volta.tensor(data, device="wgpu"),
                             spacing=[volta.tensor(coords, device="wgpu")], dim=1)[0]
    np.testing.assert_allclose(on_wgpu.cpu().numpy(), on_cpu.numpy(), rtol=1e-5, atol=1e-5)
