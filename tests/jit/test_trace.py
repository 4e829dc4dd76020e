"""``volta.jit.trace``: record, print, serialise and replay graphs (also on another backend)."""

from __future__ import annotations

import json
import warnings

import numpy as np
import pytest

import volta
import volta.nn.functional as F
from volta.backend import Backend
from volta.jit import Graph


def as_tuple(x):
    return x if isinstance(x, tuple) else (x,)


def flat(x):
    out = []
    for item in as_tuple(x):
        out.extend(flat(item) if isinstance(item, tuple) else [item])
    return out


def assert_same_outputs(actual, expected, exact=True):
    actual, expected = flat(actual), flat(expected)
    assert len(actual) == len(expected)
    for a, e in zip(actual, expected):
        assert tuple(a.shape) == tuple(e.shape) and a.dtype == e.dtype
        a_np, e_np = a.detach().cpu().numpy(), e.detach().cpu().numpy()
        if exact:
            np.testing.assert_array_equal(a_np, e_np)
        else:
            np.testing.assert_allclose(a_np, e_np, rtol=1e-6, atol=1e-6)


def randn(*shape):
    return volta.randn(*shape)


# -- a dozen functions ---------------------------------------------------------------------------


def pointwise_chain(x):
    return (x.sin() * 2 + x.exp()).tanh() - x.abs().sqrt() / (1 + x * x)


def reductions(x):
    return x.sum(0), x.mean(1, keepdim=True), x.amax(-1), x.var(0), x.norm(), x.logsumexp(1)


def matmul(x, w):
    return (x @ w.T + 0.5).relu() @ w


def views_and_indexing(x):
    v = x.view(6, 4).transpose(0, 1)[1:3, ::2].reshape(-1).unsqueeze(0).expand(3, -1)
    picked = x[volta.tensor([0, 2])][:, volta.tensor([1, 1, 5])]
    return v * 2, picked + x[x > 0].sum(), x.narrow(1, 2, 3).permute(1, 0)


def softmaxes(x):
    return F.softmax(x, -1), F.log_softmax(x, 0)


def conv_relu_pool(x, w, b):
    return F.max_pool2d(F.relu(F.conv2d(x, w, b, padding=1)), 2)


def layer_norm(x, w, b):
    return F.layer_norm(x, (6,), w, b)


def cross_entropy(x, target):
    return F.cross_entropy(x, target)


def with_inplace_ops(x):
    y = x.clone()
    y.add_(1)
    y.mul_(2)
    y[0] = 0.0
    y[:, 1].sub_(3)
    return y.relu_()


def multiple_outputs(x):
    values, indices = x.max(1)
    return values, indices, x.sum()


def constant_inside(x):
    return x * volta.arange(6.0) + volta.ones(4, 1) * 0.5


def concat_and_where(x):
    return volta.where(x > 0, x, x.exp() - 1), volta.cat([x, x * 2], 1).chunk(3, 1)[1]


CASES = {
    "pointwise_chain": (pointwise_chain, lambda: (randn(4, 6),)),
    "reductions": (reductions, lambda: (randn(4, 6),)),
    "matmul": (matmul, lambda: (randn(4, 6), randn(5, 6))),
    "views_and_indexing": (views_and_indexing, lambda: (randn(4, 6),)),
    "softmaxes": (softmaxes, lambda: (randn(4, 6),)),
    "conv_relu_pool": (conv_relu_pool, lambda: (randn(2, 3, 8, 8), randn(4, 3, 3, 3),
                                                randn(4))),
    "layer_norm": (layer_norm, lambda: (randn(4, 6), randn(6), randn(6))),
    "cross_entropy": (cross_entropy, lambda: (randn(4, 6), volta.tensor([0, 5, 2, 1]))),
    "with_inplace_ops": (with_inplace_ops, lambda: (randn(4, 6),)),
    "multiple_outputs": (multiple_outputs, lambda: (randn(4, 6),)),
    "constant_inside": (constant_inside, lambda: (randn(4, 6),)),
    "concat_and_where": (concat_and_where, lambda: (randn(4, 6),)),
}


@pytest.fixture(params=sorted(CASES))
def case(request):
    volta.manual_seed(sum(map(ord, request.param)))
    fn, make = CASES[request.param]
    return fn, make


def test_replay_equals_eager(case):
    fn, make = case
    inputs = make()
    graph = volta.jit.trace(fn, *inputs)
    assert graph.nodes
    assert_same_outputs(graph(*inputs), fn(*inputs))
    fresh = make()  # new values, same shapes: the graph is a function of its inputs
    assert_same_outputs(graph(*fresh), fn(*fresh))


def test_json_round_trip_replays_identically(case, tmp_path):
    fn, make = case
    inputs = make()
    graph = volta.jit.trace(fn, *inputs)
    expected = graph(*inputs)
    loaded = Graph.from_json(graph.to_json())
    assert [n.op for n in loaded.nodes] == [n.op for n in graph.nodes]
    assert_same_outputs(loaded(*inputs), expected)
    path = tmp_path / "graph.json"
    graph.save(path)
    assert json.loads(path.read_text())["format"] == "volta-graph"
    assert_same_outputs(Graph.load(path)(*inputs), expected)
    fresh = make()
    assert_same_outputs(Graph.load(path)(*fresh), fn(*fresh))


def test_inplace_ops_are_recorded_as_such():
    graph = volta.jit.trace(with_inplace_ops, randn(4, 6))
    ops = [n.op for n in graph.nodes]
    assert {"add_", "mul_", "sub_", "relu_"} <= set(ops)


def test_replay_checks_its_inputs():
    graph = volta.jit.trace(pointwise_chain, randn(4, 6))
    with pytest.raises(volta.VoltaError, match="shape"):
        graph(randn(3, 6))
    with pytest.raises(volta.VoltaError, match="inputs"):
        graph(randn(4, 6), randn(4, 6))


def test_trace_cannot_be_nested():
    with pytest.raises(volta.VoltaError, match="nested"):
        volta.jit.trace(lambda t: volta.jit.trace(pointwise_chain, t), randn(2))


# -- printing ------------------------------------------------------------------------------------


def test_print_shows_ops_and_shapes():
    inputs = CASES["conv_relu_pool"][1]()
    text = str(volta.jit.trace(conv_relu_pool, *inputs))
    for piece in ("graph(", "conv2d", "relu", "max_pool2d", "return", "float32[2, 3, 8, 8]",
                  "float32[2, 4, 4, 4]"):
        assert piece in text, piece
    lines = text.splitlines()
    assert len(lines) == 1 + 3 + 1  # header, three ops, return
    text = str(volta.jit.trace(multiple_outputs, randn(4, 6)))
    assert "max" in text and "int64[4]" in text


def test_print_shows_tuple_arguments_readably():
    inputs = CASES["conv_relu_pool"][1]()
    text = str(volta.jit.trace(conv_relu_pool, *inputs))
    # conv2d's stride/padding and the returned tuple are shown as values, not as the
    # {"tuple": [...]} wrapper of the JSON encoding
    assert "'tuple'" not in text, text
    text = str(volta.jit.trace(multiple_outputs, randn(4, 6)))
    assert "'tuple'" not in text and "'ref'" not in text, text


# -- malformed JSON ------------------------------------------------------------------------------


def _good_json() -> dict:
    return json.loads(volta.jit.trace(pointwise_chain, randn(3)).to_json())


@pytest.mark.parametrize("text", [
    "{{{ not json",
    "{}",
    json.dumps({"format": "something-else"}),
    json.dumps({"format": "volta-graph"}),
    json.dumps({**_good_json(), "nodes": 3}),
    json.dumps({**_good_json(), "inputs": [{"id": 0}]}),
], ids=["not_json", "empty", "wrong_format", "missing_fields", "nodes_not_list",
        "input_fields_missing"])
def test_malformed_json_raises_trace_format_error(text):
    with pytest.raises(volta.TraceFormatError):
        Graph.from_json(text)


@pytest.mark.parametrize("text", ["[1, 2]", '"graph"', "null"], ids=["array", "string", "null"])
def test_json_that_is_not_an_object_raises_trace_format_error(text):
    with pytest.raises(volta.TraceFormatError):
        Graph.from_json(text)


def test_dangling_reference_is_rejected_when_loading():
    data = _good_json()
    data["outputs"] = {"ref": 999}
    with pytest.raises(volta.TraceFormatError):
        Graph.from_json(json.dumps(data))


def test_load_of_a_corrupt_file(tmp_path):
    path = tmp_path / "g.json"
    path.write_text('{"format": "volta-graph", "inputs": [')
    with pytest.raises(volta.TraceFormatError):
        Graph.load(path)


# -- tracing a training step ---------------------------------------------------------------------


def train_step(w, x, target):
    w = w.detach().requires_grad_()
    loss = (((x @ w).tanh() - target) ** 2).mean()
    loss.backward()
    return loss.detach(), w.grad


def _training_inputs(seed):
    volta.manual_seed(seed)
    return randn(6, 5), randn(3, 6), randn(3, 5)


def test_trace_of_a_training_step_records_backward_ops():
    inputs = _training_inputs(0)
    graph = volta.jit.trace(train_step, *inputs)
    ops = [n.op for n in graph.nodes]
    # the forward has one matmul; its backward adds the transpose (t(), for a matrix) and a
    # second matmul, and the backward seed and mean's backward add ones_like / expand
    assert ops.count("matmul") == 2
    assert {"t", "ones_like", "expand", "tanh"} <= set(ops)


def test_replay_of_a_training_step_reproduces_the_gradient():
    inputs = _training_inputs(0)
    graph = volta.jit.trace(train_step, *inputs)
    assert_same_outputs(graph(*inputs), train_step(*inputs), exact=False)


def test_replay_of_a_training_step_on_new_inputs():
    # tanh's backward reads its saved output: replay must use the recomputed value, not the
    # one from trace time
    graph = volta.jit.trace(train_step, *_training_inputs(0))
    fresh = _training_inputs(1)
    assert_same_outputs(graph(*fresh), train_step(*fresh), exact=False)


def test_tensor_used_twice_as_constant_replays():
    const = volta.tensor([1.0, 2.0, 3.0])
    graph = volta.jit.trace(lambda t: t * const + const, randn(3))
    x = randn(3)
    assert_same_outputs(graph(x), x * const + const)


# -- plugin ops and plugin backends --------------------------------------------------------------


def test_trace_records_plugin_namespace_ops(tmp_path):
    with volta.library.scoped():
        volta.library.define("trc::twice_plus(Tensor x, float c) -> Tensor")
        volta.library.impl("trc::twice_plus", "CPU", lambda x, c: x * 2 + c)

        def fn(t):
            return volta.ops.trc.twice_plus(t.exp(), 0.5).sum(0)

        x = randn(3, 4)
        graph = volta.jit.trace(fn, x)
        assert [n.op for n in graph.nodes] == ["exp", "trc::twice_plus", "sum"]
        assert "trc::twice_plus" in str(graph)
        assert_same_outputs(graph(x), fn(x))
        path = tmp_path / "plugin.json"
        graph.save(path)
        fresh = randn(3, 4)
        assert_same_outputs(Graph.load(path)(fresh), fn(fresh))


class _HostArray:
    """The alt device's storage handle: a numpy array wrapped so it is clearly not the CPU's."""

    def __init__(self, data):
        self.data = data


class _AltBackend(Backend):
    """A backend with no kernels of its own: every op reaches it through the CPU fallback."""

    def allocate(self, numel, dt, index=0):
        return _HostArray(np.zeros(numel, dtype=dt.numpy))

    def from_numpy(self, array, index=0):
        return _HostArray(np.array(array, copy=True).reshape(-1))

    def to_numpy(self, handle, dt, numel):
        return handle.data

    def copy_(self, dst, src):
        dst.data[...] = np.asarray(src).reshape(-1)


class _AltPlugin:
    @staticmethod
    @volta.plugins.hookimpl
    def volta_register_backends(registry):
        registry.register("alt", _AltBackend(), key_name="ALT")


def model(x, w, target):
    logits = (x @ w).tanh() * volta.arange(5.0) + volta.ones(5) * 0.1
    probs = F.softmax(logits, -1)
    return probs.sum(0), F.cross_entropy(logits, target), logits.argmax(1)


def test_replay_on_another_registered_backend():
    volta.manual_seed(3)
    inputs = (randn(4, 6), randn(6, 5), volta.tensor([0, 4, 2, 1]))
    with volta.library.scoped(), warnings.catch_warnings():
        warnings.simplefilter("ignore")  # the CPU fallback warns once per op
        record = volta.plugins.register(_AltPlugin(), name="test_trace_alt")
        assert record.state == "loaded", record.error
        graph = volta.jit.trace(model, *inputs)
        assert all(v.device == "cpu" for v in graph.inputs)
        moved = [t.to("alt") for t in inputs]
        assert all(t.device.type == "alt" for t in moved)
        outputs = graph(*moved)
        assert all(o.device.type == "alt" for o in outputs)
        assert_same_outputs(outputs, model(*inputs), exact=False)
        loaded = Graph.from_json(graph.to_json())
        assert_same_outputs(loaded(*moved), model(*inputs), exact=False)
    assert "alt" not in volta.get_device_types()  # the scope removed the backend again
