"""volta-numba, installed by entry point: its kernels against PyTorch, autograd, tracing, nn
and optim on the device, an MLP that trains like on the CPU, and a second plugin's device in
the same process."""

from __future__ import annotations

import warnings

import numpy as np
import pytest
import torch

import volta
from volta import nn

DEVICE = "numba"


def on_numba(array: np.ndarray) -> volta.Tensor:
    return volta.tensor(array).to(DEVICE)


def assert_matches(result: volta.Tensor, expected: torch.Tensor, **tol) -> None:
    assert result.device.type == DEVICE
    assert result.dtype.name == str(expected.dtype).removeprefix("torch.")
    np.testing.assert_allclose(result.cpu().numpy(), expected.numpy(), **tol)


def kernel_key(fn, *args, **kwargs) -> str:
    return volta.dispatch.explain(fn, *args, **kwargs).key


def test_the_plugin_is_loaded_from_its_entry_point():
    record = next(r for r in volta.plugins.status() if r.name == "numba")
    assert record.state == "loaded" and record.source == "entry-point"
    assert record.package == "volta-numba"
    assert "device 'numba'" in record.registered


def test_storage_round_trip_and_views_share_memory():
    values = np.arange(12, dtype=np.float32).reshape(3, 4)
    x = on_numba(values)
    assert x.device.type == DEVICE and x.cpu().tolist() == values.tolist()
    view = x.t()[1:]
    view.add_(100)  # an in-place op on a strided view writes the shared storage
    expected = values.copy()
    expected.T[1:] += 100
    assert x.cpu().tolist() == expected.tolist()
    with pytest.raises(volta.DTypeError, match="numba"):
        volta.zeros(2, dtype=volta.float16, device=DEVICE)


# -- pointwise: generated from the ops.yaml snippets ---------------------------------------------

RNG = np.random.default_rng(0)
A = RNG.standard_normal((4, 6)).astype(np.float32)
B = RNG.standard_normal((6,)).astype(np.float32)
I8 = RNG.integers(-128, 127, (4, 6)).astype(np.int8)

POINTWISE = [
    # (name, volta call, torch call, inputs)
    ("add broadcast alpha", lambda a, b: volta.add(a, b, alpha=2.5),
     lambda a, b: torch.add(a, b, alpha=2.5), (A, B)),
    ("mul by a number", lambda a: a * 3, lambda a: a * 3, (A,)),
    ("sub transposed", lambda a: a.t() - a.t()[0], lambda a: a.t() - a.t()[0], (A,)),
    ("relu of a strided slice", lambda a: volta.relu(a[:, ::2]), lambda a: torch.relu(a[:, ::2]),
     (A,)),
    ("leaky_relu", lambda a: nn.functional.leaky_relu(a, 0.1),
     lambda a: torch.nn.functional.leaky_relu(a, 0.1), (A,)),
    ("sigmoid", volta.sigmoid, torch.sigmoid, (A,)),
    ("erfinv", lambda a: volta.erfinv(a / 4), lambda a: torch.erfinv(a / 4), (A,)),
    ("where", lambda a, b: volta.where(a > b, a, b), lambda a, b: torch.where(a > b, a, b),
     (A, B)),
    ("div floor", lambda a, b: volta.div(a, b, rounding_mode="floor"),
     lambda a, b: torch.div(a, b, rounding_mode="floor"), (A, B)),
    ("div trunc int", lambda a: volta.div(a, 7, rounding_mode="trunc"),
     lambda a: torch.div(a, 7, rounding_mode="trunc"), (I8,)),
    ("int8 add wraps", lambda a: a + a, lambda a: a + a, (I8,)),
    ("int8 to float", volta.exp, torch.exp, (I8 // 40,)),
    ("comparison", lambda a, b: a >= b, lambda a, b: a >= b, (A, B)),
    ("bool not", lambda a: ~(a > 0), lambda a: ~(a > 0), (A,)),
    ("bitwise_not int8", lambda a: ~a, lambda a: ~a, (I8,)),
]


@pytest.mark.parametrize(("name", "fn", "ref", "inputs"), POINTWISE, ids=[p[0] for p in POINTWISE])
def test_pointwise_kernels_match_pytorch(name, fn, ref, inputs):
    args = [on_numba(x) for x in inputs]
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # a CPU fallback warns: these must run numba kernels
        result = fn(*args)
    assert_matches(result, ref(*(torch.from_numpy(x) for x in inputs)), rtol=1e-5, atol=1e-6)


def test_pointwise_kernels_come_from_the_plugin():
    a = on_numba(A)
    explained = volta.dispatch.explain(volta.add, a, a)
    assert explained.key == "NUMBA"
    assert "numba" in str(explained)


def test_pointwise_errors_are_volta_errors():
    with pytest.raises(volta.DTypeError, match="bool"):
        on_numba(A > 0) - on_numba(A > 0)
    with pytest.raises(ValueError, match="size of tensor a"):
        on_numba(A) + on_numba(A[:, :5])


# -- matmul, reductions, softmax ----------------------------------------------------------------

REDUCTIONS = [
    ("sum all", lambda x: x.sum(), lambda x: x.sum()),
    ("sum dim 0 (bias grad)", lambda x: x.sum(0), lambda x: x.sum(0)),
    ("sum dims keepdim", lambda x: x.sum((0, 2), keepdim=True),
     lambda x: x.sum((0, 2), keepdim=True)),
    ("mean", lambda x: x.mean(-1), lambda x: x.mean(-1)),
    ("amax", lambda x: x.amax(1), lambda x: x.amax(1)),
    ("max all", lambda x: x.max(), lambda x: x.max()),
    ("max dim values", lambda x: x.max(2)[0], lambda x: x.max(2)[0]),
    ("min dim indices", lambda x: x.min(1)[1], lambda x: x.min(1)[1]),
    ("argmax", lambda x: x.argmax(), lambda x: x.argmax()),
    ("softmax", lambda x: x.softmax(1), lambda x: x.softmax(1)),
    ("log_softmax", lambda x: x.log_softmax(-1), lambda x: x.log_softmax(-1)),
    ("matmul batched broadcast", lambda x: x @ x[0].t(), lambda x: x @ x[0].t()),
    ("bmm", lambda x: volta.bmm(x, x.transpose(1, 2)), lambda x: torch.bmm(x, x.transpose(1, 2))),
    ("int sum", lambda x: (x * 10).to(volta.int32).sum(1),
     lambda x: (x * 10).to(torch.int32).sum(1)),
    ("int matmul", lambda x: (x * 10).to(volta.int64)[0] @ (x * 10).to(volta.int64)[1].t(),
     lambda x: (x * 10).to(torch.int64)[0] @ (x * 10).to(torch.int64)[1].t()),
]
X3 = RNG.standard_normal((3, 5, 7)).astype(np.float32)


@pytest.mark.parametrize(("name", "fn", "ref"), REDUCTIONS, ids=[r[0] for r in REDUCTIONS])
def test_matmul_reductions_and_softmax_match_pytorch(name, fn, ref):
    x = on_numba(X3)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        result = fn(x)
    assert_matches(result, ref(torch.from_numpy(X3)), rtol=1e-5, atol=1e-5)


def test_reduction_errors():
    x = on_numba(X3)
    with pytest.raises(IndexError, match="Dimension out of range"):
        x.sum(3)
    with pytest.raises(ValueError, match="cannot be multiplied"):
        x[0] @ x[0]


# -- autograd, tracing, nn and optim unchanged ---------------------------------------------------


def test_autograd_matches_the_cpu():
    values = RNG.standard_normal((5, 4)).astype(np.float32)
    grads = {}
    for device in ("cpu", DEVICE):
        x = volta.tensor(values).to(device).requires_grad_()
        y = (volta.tanh(x) * x.softmax(-1)).sum(0).log_softmax(0)[1]
        y.backward()
        assert x.grad.device.type == device
        grads[device] = x.grad.cpu().numpy()
    np.testing.assert_allclose(grads[DEVICE], grads["cpu"], rtol=1e-5, atol=1e-6)


def test_tracing_records_and_replays_on_numba():
    def f(x, w):
        return volta.relu(x @ w).sum(1)

    x, w = on_numba(A), on_numba(RNG.standard_normal((6, 3)).astype(np.float32))
    graph = volta.jit.trace(f, x, w)
    replayed = graph(x, w)
    assert replayed.device.type == DEVICE
    np.testing.assert_allclose(replayed.cpu().numpy(), f(x, w).cpu().numpy(), rtol=1e-6)


def blobs(n: int = 256, seed: int = 0) -> tuple[np.ndarray, np.ndarray]:
    """Four Gaussian clusters in 8 dimensions: a small, separable classification task."""
    rng = np.random.default_rng(seed)
    centers = rng.standard_normal((4, 8)) * 2.5
    labels = rng.integers(0, 4, n)
    return (centers[labels] + rng.standard_normal((n, 8))).astype(np.float32), labels


def train(device: str) -> tuple[float, list[float]]:
    volta.manual_seed(0)
    features, labels = blobs()
    model = nn.Sequential(nn.Linear(8, 32), nn.ReLU(), nn.Linear(32, 4)).to(device)
    optimizer = volta.optim.SGD(model.parameters(), lr=0.1, momentum=0.9)
    x, y = volta.tensor(features).to(device), volta.tensor(labels).to(device)
    losses = []
    for _ in range(30):
        optimizer.zero_grad()
        loss = nn.functional.cross_entropy(model(x), y)
        loss.backward()
        optimizer.step()
        losses.append(loss.item())
    assert all(p.device.type == device for p in model.parameters())
    accuracy = (model(x).argmax(1) == y).float().mean().item()
    return accuracy, losses


def test_an_mlp_trains_on_numba_like_on_the_cpu():
    cpu_accuracy, cpu_losses = train("cpu")
    numba_accuracy, numba_losses = train(DEVICE)
    assert numba_losses[-1] < 0.5 * numba_losses[0]
    assert numba_accuracy == pytest.approx(cpu_accuracy, abs=0.01) and numba_accuracy > 0.9
    np.testing.assert_allclose(numba_losses, cpu_losses, rtol=1e-3)


RNG_FIXED = np.random.default_rng(1).standard_normal((4, 5)).astype(np.float32)
OPTIMIZERS = [
    ("sgd nesterov weight decay", lambda ps: volta.optim.SGD(ps, lr=0.1, momentum=0.9,
                                                             nesterov=True, weight_decay=0.01)),
    ("sgd dampening maximize", lambda ps: volta.optim.SGD(ps, lr=0.1, momentum=0.5,
                                                          dampening=0.3, maximize=True)),
    ("sgd plain", lambda ps: volta.optim.SGD(ps, lr=0.1)),
    ("adam (CPU fallback)", lambda ps: volta.optim.Adam(ps, lr=0.01)),
]


@pytest.mark.parametrize(("name", "make"), OPTIMIZERS, ids=[o[0] for o in OPTIMIZERS])
def test_optimizer_steps_match_the_cpu(name, make):
    weights = {}
    for device in ("cpu", DEVICE):
        volta.manual_seed(0)
        model = nn.Linear(5, 3).to(device)
        optimizer = make(model.parameters())
        x = volta.tensor(RNG_FIXED).to(device)
        for _ in range(3):
            optimizer.zero_grad()
            (model(x) ** 2).mean().backward()
            optimizer.step()
        weights[device] = model.weight.detach().cpu().numpy()
    np.testing.assert_allclose(weights[DEVICE], weights["cpu"], rtol=1e-5, atol=1e-6)


def test_module_to_and_back_keeps_training_state():
    volta.manual_seed(0)
    model = nn.Linear(3, 2)
    optimizer = volta.optim.SGD(model.parameters(), lr=0.1, momentum=0.9)
    x = volta.randn(4, 3)
    model(x).sum().backward()
    optimizer.step()
    model.to(DEVICE)
    assert model.weight.device.type == DEVICE and model.weight.grad.device.type == DEVICE
    optimizer.zero_grad()
    model(x.to(DEVICE)).sum().backward()
    optimizer.step()  # the momentum buffer follows its parameter
    model.to("cpu")
    assert model.weight.device.type == "cpu"


def test_the_mlp_step_runs_numba_kernels_and_counts_fallbacks():
    before = volta.dispatch.cpu_fallback_counts()
    train(DEVICE)
    after = volta.dispatch.cpu_fallback_counts()
    fell_back = {op for op in after if after[op] != before.get(op, 0)}
    # the matmuls, pointwise ops, reductions, softmax and the SGD step are numba kernels
    assert not fell_back & {"mm", "addmm", "linear", "add", "mul", "relu", "threshold_backward",
                            "sum", "log_softmax", "_log_softmax_backward_data", "_sgd_update_"}


def test_fallback_ops_warn_once_and_are_counted():
    x = on_numba(A)
    before = volta.dispatch.cpu_fallback_counts().get("cumsum", 0)
    with warnings.catch_warnings(record=True):
        warnings.simplefilter("always")
        result = x.cumsum(1)
    assert result.device.type == DEVICE
    np.testing.assert_allclose(result.cpu().numpy(), np.cumsum(A, 1), rtol=1e-5)
    assert volta.dispatch.cpu_fallback_counts()["cumsum"] == before + 1


# -- two backends from two plugins in one process -----------------------------------------------


def test_numba_and_the_example_plugins_toy_device_each_run_their_own_kernels():
    if "toy" not in volta.backend.BACKENDS.names():
        pytest.fail("volta-example-ext (device 'toy') must be installed next to volta-numba")
    a, b = on_numba(A), volta.tensor(A).to("toy")
    numba_sum, toy_sum = a + a, b + b
    assert volta.dispatch.explain(volta.add, a, a).key == "NUMBA"
    assert volta.dispatch.explain(volta.add, b, b).key == "TOY"
    assert numba_sum.device.type == DEVICE and toy_sum.device.type == "toy"
    np.testing.assert_allclose(numba_sum.cpu().numpy(), toy_sum.cpu().numpy())
    with pytest.raises(volta.VoltaError):
        a + b  # two devices in one op: PyTorch's device mismatch, not a silent copy


_INTS = volta.tensor([[4, -5], [6, 7]])
_FLOATS = volta.tensor([[4.0, -5.0], [6.0, 7.0]])
# calls whose error only the CPU backend raised before the checks moved to volta.tensor.checks
REJECTED = {
    "floor_divide by a zero tensor": lambda d: volta.floor_divide(
        _INTS.to(d), volta.tensor([[1, 0], [2, 2]]).to(d)),
    "remainder by zero": lambda d: volta.remainder(_INTS.to(d), 0),
    "fmod by zero": lambda d: volta.fmod(_INTS.to(d), 0),
    "div trunc by zero": lambda d: volta.div(_INTS.to(d), 0, rounding_mode="trunc"),
    "int to a negative power": lambda d: volta.pow(_INTS.to(d), -1),
    "float alpha for ints": lambda d: volta.add(_INTS.to(d), _INTS.to(d), alpha=0.5),
    "bool alpha for ints": lambda d: volta.sub(_INTS.to(d), _INTS.to(d), alpha=True),
    "alpha out of int8 range": lambda d: volta.add(_INTS.to(volta.int8).to(d),
                                                   _INTS.to(volta.int8).to(d), alpha=1000),
    "amax of nothing": lambda d: volta.amax(volta.zeros(0, 3).to(d), 0),
    "argmax of nothing": lambda d: volta.argmax(volta.zeros(0, 3).to(d)),
}


@pytest.mark.parametrize("case", sorted(REJECTED))
def test_numba_rejects_what_the_cpu_rejects(case: str) -> None:
    with pytest.raises(volta.VoltaError) as on_cpu:
        REJECTED[case]("cpu")
    with pytest.raises(type(on_cpu.value), match=None) as on_device:
        REJECTED[case]("numba")
    assert type(on_device.value) is type(on_cpu.value)
    assert str(on_device.value) == str(on_cpu.value)


def test_valid_neighbours_of_the_rejected_calls_still_run() -> None:
    assert volta.fmod(_INTS.to("numba"), 3).tolist() == volta.fmod(_INTS, 3).tolist()
    assert volta.pow(_INTS.to("numba"), 2).tolist() == [[16, 25], [36, 49]]
    assert volta.add(_FLOATS.to("numba"), _FLOATS.to("numba"), alpha=0.5).tolist() == \
        [[6.0, -7.5], [9.0, 10.5]]
    assert volta.amax(volta.zeros(0, 3).to("numba"), 1).shape == (0,)


def test_integers_to_negative_tensor_powers_equal_the_cpu() -> None:
    """PyTorch's rule (1, -1 or 0, no error) on numba as on the CPU."""
    base = volta.tensor([1, -1, 2, 0, 3], dtype=volta.int64)
    exponent = volta.tensor([-1, -3, -2, 2, 1], dtype=volta.int64)
    expected = volta.pow(base, exponent)
    actual = volta.pow(base.to("numba"), exponent.to("numba"))
    assert actual.device.type == "numba"
    assert actual.cpu().tolist() == expected.tolist()
