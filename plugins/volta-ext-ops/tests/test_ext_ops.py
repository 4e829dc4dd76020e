"""volta-ext-ops, installed by entry point: values and gradients against PyTorch references,
errors, shape functions, tracing, coverage, conformance, and a model that trains on them."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
import torch

import volta
from volta.dispatch.coverage import coverage
from volta.testing import conformance

PACKAGE = Path(__file__).resolve().parents[1]
REPO = PACKAGE.parents[1]
EXT = volta.ops.ext


# -- references written with torch ops --------------------------------------------------------


def torch_rotate_half(x):
    half = x.shape[-1] // 2
    return torch.cat([-x[..., half:], x[..., :half]], dim=-1)


REFERENCES = {
    "swiglu": lambda x, gate: x * torch.nn.functional.silu(gate),
    "fused_bias_gelu": lambda x, bias: torch.nn.functional.gelu(x + bias),
    "rms_norm": lambda x, weight, eps=1e-6: torch.nn.functional.rms_norm(
        x, (x.shape[-1],), weight, eps),
    "rotary_embedding": lambda x, cos, sin: x * cos + torch_rotate_half(x) * sin,
}
CASES = {
    "swiglu": [((4, 6), (4, 6)), ((3, 4, 6), (6,))],
    "fused_bias_gelu": [((8, 16), (16,)), ((2, 3, 4), (2, 3, 4))],
    "rms_norm": [((4, 8), (8,)), ((2, 3, 8), (8,))],
    "rotary_embedding": [((2, 5, 8), (5, 8), (5, 8)), ((2, 3, 5, 4), (5, 4), (5, 4))],
}


@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize(("name", "shapes"), [(n, s) for n, ss in CASES.items() for s in ss])
def test_values_and_gradients_match_torch(name, shapes, dtype) -> None:
    rng = np.random.default_rng(0)
    arrays = [rng.uniform(-2, 2, size=shape).astype(dtype) for shape in shapes]
    v_in = [volta.from_numpy(a.copy()).requires_grad_() for a in arrays]
    t_in = [torch.from_numpy(a.copy()).requires_grad_() for a in arrays]
    v_out, t_out = getattr(EXT, name)(*v_in), REFERENCES[name](*t_in)
    tol = {"float32": 1e-5, "float64": 1e-10}[dtype]
    np.testing.assert_allclose(v_out.detach().numpy(), t_out.detach().numpy(), rtol=tol, atol=tol)
    cotangent = rng.uniform(-1, 1, size=tuple(t_out.shape)).astype(dtype)
    v_out.backward(volta.from_numpy(cotangent.copy()))
    t_out.backward(torch.from_numpy(cotangent.copy()))
    for v, t in zip(v_in, t_in):
        np.testing.assert_allclose(v.grad.numpy(), t.grad.numpy(), rtol=10 * tol, atol=10 * tol)


@pytest.mark.parametrize("name", sorted(CASES))
def test_gradcheck_and_gradgradcheck(name) -> None:
    shapes = CASES[name][-1]
    inputs = tuple(volta.randn(*shape, dtype=volta.float64, requires_grad=True)
                   for shape in shapes)
    fn = getattr(EXT, name)
    assert volta.autograd.gradcheck(fn, inputs)
    assert volta.autograd.gradgradcheck(fn, inputs)


def test_non_contiguous_and_half_inputs() -> None:
    x = volta.randn(6, 4).t()  # (4, 6), strided
    w = volta.randn(6)
    expected = EXT.rms_norm(x.contiguous(), w)
    assert volta.allclose(EXT.rms_norm(x, w), expected)
    half = EXT.rms_norm(x.to(volta.float16), w.to(volta.float16))
    assert half.dtype is volta.float16
    assert volta.allclose(half.float(), expected, atol=1e-2, rtol=1e-2)


def test_errors_are_volta_errors() -> None:
    with pytest.raises(volta.ShapeError, match="weight must have shape"):
        EXT.rms_norm(volta.randn(2, 4), volta.randn(3))
    with pytest.raises(volta.DTypeError, match="floating point"):
        EXT.rms_norm(volta.ones(2, 4, dtype=volta.int64), volta.ones(4, dtype=volta.int64))
    with pytest.raises(volta.ShapeError, match="must be even"):
        EXT.rotary_embedding(volta.randn(2, 5), volta.randn(5), volta.randn(5))
    with pytest.raises(volta.ShapeError):
        EXT.swiglu(volta.randn(2, 3), volta.randn(2, 4))


def test_shape_functions_agree_with_the_kernels() -> None:
    from volta_ext_ops.plugin import SHAPES

    meta = volta.dispatch.KEYS.get("Meta")
    for name, cases in CASES.items():
        for shapes, dtype in zip(cases, (volta.float32, volta.float64)):
            inputs = [volta.randn(*shape, dtype=dtype) for shape in shapes]
            actual = getattr(EXT, name)(*inputs)
            shape, out_dtype = SHAPES[f"ext::{name}"](*inputs)
            assert (shape, out_dtype) == (tuple(actual.shape), actual.dtype)
            kernel = volta.dispatch.DISPATCHER.find(f"ext::{name}").kernels[meta].fn
            empty = kernel(*inputs) if name != "rms_norm" else kernel(*inputs, 1e-6)
            assert (tuple(empty.shape), empty.dtype) == (shape, out_dtype)


def test_traced_graph_replays() -> None:
    def block(x, w, b):
        return EXT.swiglu(EXT.rms_norm(x, w), EXT.fused_bias_gelu(x, b)).sum()

    x, w, b = volta.randn(3, 8), volta.randn(8), volta.randn(8)
    graph = volta.jit.trace(block, x, w, b)
    assert "ext::rms_norm" in str(graph) and "ext::swiglu" in str(graph)
    x2 = volta.randn(3, 8)
    assert volta.allclose(graph(x2, w, b), block(x2, w, b))


def test_installed_by_entry_point_and_in_the_coverage_report() -> None:
    record = next(r for r in volta.plugins.status() if r.name == "ext_ops")
    assert record.source == "entry-point" and record.package == "volta-ext-ops"
    assert record.state == "loaded"
    rows = {row.op: row for row in coverage(["CPU"]) if row.namespace == "ext"}
    for name in CASES:
        assert rows[f"ext::{name}"].cells["CPU"] == "kernel"
        assert rows[f"ext::{name}"].autograd == "formula"


def test_generated_code_is_current() -> None:
    done = subprocess.run([sys.executable, "-m", "codegen", "--check", "--plugin",
                           str(PACKAGE / "volta_ext_ops" / "ops.yaml")],
                          capture_output=True, text=True, cwd=REPO, timeout=120)
    assert done.returncode == 0, done.stderr


def test_a_model_built_on_the_ext_ops_trains() -> None:
    volta.manual_seed(0)
    nn = volta.nn

    class Block(nn.Module):
        def __init__(self, width: int) -> None:
            super().__init__()
            self.up = nn.Linear(width, 2 * width, bias=False)
            self.bias = nn.Parameter(volta.zeros(2 * width))
            self.norm = nn.Parameter(volta.ones(width))
            self.down = nn.Linear(width, 1)

        def forward(self, x):
            x = EXT.rms_norm(x, self.norm)
            hidden = EXT.fused_bias_gelu(self.up(x), self.bias)
            gate, value = hidden.chunk(2, dim=-1)
            return self.down(EXT.swiglu(value, gate))

    x = volta.randn(256, 8)
    y = (x[:, :1] * x[:, 1:2]).tanh()
    model = Block(8)
    optimizer = volta.optim.Adam(model.parameters(), lr=1e-2)
    losses = []
    for _ in range(150):
        optimizer.zero_grad()
        loss = volta.nn.functional.mse_loss(model(x), y)
        loss.backward()
        optimizer.step()
        losses.append(loss.item())
    assert losses[-1] < 0.2 * losses[0]


# the conformance kit on the example package's toy device, for every ext op
test_ext_ops_conformance_on_toy = conformance.pytest_test("toy", ops="ext::*")
