"""Autograd's recording in C (volta/autograd/native/autograd.c) leaves what graph.py's Python
functions leave: connect_tensors' edges, metadata and flags, saved tensors (hooks included),
set_history's outputs. Under ``VOLTA_NATIVE=0`` the Python functions are installed."""

from __future__ import annotations

from typing import Any

import pytest

import volta
from volta import compiled
from volta.autograd import graph as G


def test_the_compiled_recording_is_installed_exactly_when_enabled() -> None:
    assert (G._native is not None) == compiled.ENABLED
    assert (G.connect_tensors is not G.python_connect_tensors) == compiled.ENABLED
    assert (G.save is not G.python_save) == compiled.ENABLED
    assert (G.set_history is not G.python_set_history) == compiled.ENABLED


class Probe(G.Node):
    pass


def node_state(node: G.Node) -> tuple:
    return (node.next_edges, node.input_meta, node.layout, node.needs_input_grad)


def input_sets() -> list[tuple]:
    leaf = volta.ones(2, 3, requires_grad=True)
    other = volta.ones(2, 3, requires_grad=True)
    made = leaf * 2
    plain = volta.ones(2, 3)
    view = leaf[1:]
    written = leaf * 1
    stale_view = written[1:]
    written.add_(1)  # the view's history predates the write: _edge rebuilds it
    return [(leaf, other), (made, plain), (plain, plain), (plain, 2.0), (view, leaf),
            (made,), (plain, made, leaf), (None, leaf), (volta.ones(3, dtype=volta.int64), made),
            (stale_view, plain), (plain[1:], view.t())]


@pytest.mark.parametrize("index", range(11))
def test_connect_tensors_matches_python(index: int) -> None:
    inputs = input_sets()[index]
    native, python = Probe(), Probe()
    connected = G.connect_tensors(native, inputs)
    assert connected == G.python_connect_tensors(python, inputs)
    assert node_state(native) == node_state(python)
    if connected:
        assert python.seq == native.seq + 1  # one sequence, one number each


def test_connect_tensors_in_anomaly_mode_records_the_forward_trace() -> None:
    leaf = volta.ones(2, requires_grad=True)
    with volta.autograd.detect_anomaly():
        node = Probe()
        assert G.connect_tensors(node, (leaf,))
        assert node.forward_trace


def test_save_matches_python_and_honours_hooks() -> None:
    t = volta.ones(2, requires_grad=True) * 3
    for value in (t, None, 2.5):
        native, python = G.save(value), G.python_save(value)
        if value is t:
            assert type(native) is type(python) is G.SavedTensor
            assert (native.data, native.version, native.is_output, native.output_nr) == \
                   (python.data, python.version, python.is_output, python.output_nr)
        else:
            assert native is python is value
    packed: list[Any] = []
    with volta.autograd.graph.saved_tensors_hooks(lambda x: packed.append(x) or len(packed),
                                                  lambda i: packed[i - 1]):
        saved = G.save(t)
    assert saved.data is None and saved.packed == 1 and packed == [t]


@pytest.mark.parametrize("dtype", [volta.float32, volta.float64, volta.int64, volta.bool])
def test_set_history_matches_python(dtype: Any) -> None:
    results = [volta.ones(2, dtype=dtype) for _ in range(2)]
    nodes = [Probe(), Probe()]
    G.set_history(nodes[0], results[0], None)
    G.python_set_history(nodes[1], results[1], None)
    native, python = results
    assert nodes[0].output_meta == nodes[1].output_meta
    assert (native.grad_fn is nodes[0]) == (python.grad_fn is nodes[1])
    assert (native.requires_grad, native._ks) == (python.requires_grad, python._ks)


def test_recorded_graphs_backpropagate_as_in_pytorch() -> None:
    import torch
    x = volta.tensor([[1.0, -2.0], [3.0, 0.5]], requires_grad=True)
    w = volta.tensor([[0.5, 1.0], [-1.0, 2.0]], requires_grad=True)
    tx = torch.tensor(x.tolist(), requires_grad=True)
    tw = torch.tensor(w.tolist(), requires_grad=True)
    ((x * w + x).relu() @ w.t()[0:2]).sum().backward()
    ((tx * tw + tx).relu() @ tw.t()[0:2]).sum().backward()
    assert x.grad.tolist() == tx.grad.tolist()
    assert w.grad.tolist() == tw.grad.tolist()


def test_fix_up_outputs_matches_python() -> None:
    from volta.autograd import engine as E
    assert (E._fix_up_outputs is not E.python_fix_up_outputs) == compiled.ENABLED
    a = volta.ones(2, 3, requires_grad=True)
    b = volta.ones(3, dtype=volta.float64, requires_grad=True)
    node = (a * b).grad_fn
    for outputs in ([volta.ones(2, 3), volta.ones(2, 3)],        # b's needs sum_to and a cast
                    [volta.full((2, 3), 2.0), None],
                    [None, volta.ones(3, dtype=volta.float64)],
                    [volta.ones(2, 3, dtype=volta.float64), volta.ones(3, dtype=volta.float32)]):
        native, python = list(outputs), list(outputs)
        E._fix_up_outputs(node, native)
        E.python_fix_up_outputs(node, python)
        for n, p in zip(native, python):
            assert (n is None) == (p is None)
            if n is not None:
                assert (n.shape, n.dtype, n.tolist()) == (p.shape, p.dtype, p.tolist())
    with pytest.raises(volta.VoltaError, match="invalid gradient"):
        E._fix_up_outputs(node, [volta.ones(4), None])
