"""nn.RNN / LSTM / GRU and their cells against PyTorch: same weights -> same outputs, final
states and gradients (input, initial states, every parameter), the same state_dict layout,
packed sequences, dropout between layers, and PyTorch's errors."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
import pytest
import torch
from safetensors.torch import save_file

import volta
from tests.nn.parity import close, copy_weights, state_layout, to_volta

# PyTorch's own note that its oneDNN path skips projections: not about volta
pytestmark = pytest.mark.filterwarnings("ignore:LSTM with projections:UserWarning")

TOL = {"float32": (2e-5, 2e-5), "float64": (1e-10, 1e-10)}
MODES = ("RNN", "RNN_relu", "LSTM", "GRU")


def build(lib: Any, mode: str, *args: Any, **kwargs: Any) -> Any:
    if mode == "RNN_relu":
        return lib.nn.RNN(*args, nonlinearity="relu", **kwargs)
    return getattr(lib.nn, mode)(*args, **kwargs)


def pair(mode: str, *args: Any, dtype: str = "float64", **kwargs: Any) -> tuple[Any, Any]:
    torch.manual_seed(0)
    reference = build(torch, mode, *args, **kwargs).to(getattr(torch, dtype))
    module = build(volta, mode, *args, **kwargs).to(getattr(volta, dtype))
    copy_weights(reference, module)
    return reference, module


def flat_states(state: Any) -> list[Any]:
    return list(state) if isinstance(state, tuple) else [state]


def weighted_sum(outputs: list[Any]) -> Any:
    """A loss that weights each output differently, so swapped outputs would show."""
    total = 0
    for k, out in enumerate(outputs):
        total = total + (out * (k + 1.5)).sum() + (out * out).sum() * 0.1
    return total


def compare(reference: Any, module: Any, torch_inputs: list[Any], volta_inputs: list[Any],
            dtype: str) -> None:
    """Runs both, checks outputs, final states and every gradient."""
    rtol, atol = TOL[dtype]
    t_out, t_state = reference(*torch_inputs)
    v_out, v_state = module(*volta_inputs)
    if isinstance(t_out, torch.nn.utils.rnn.PackedSequence):
        for t_part, v_part in zip(t_out, v_out, strict=True):
            close(v_part, t_part, rtol, atol)
        t_out, v_out = t_out.data, v_out.data
    t_all, v_all = [t_out, *flat_states(t_state)], [v_out, *flat_states(v_state)]
    for v, t in zip(v_all, t_all, strict=True):
        assert tuple(v.shape) == tuple(t.shape)
        close(v, t, rtol, atol)
    compare_gradients(reference, module, t_all, v_all, torch_inputs, volta_inputs, dtype)


def compare_gradients(reference: Any, module: Any, t_outputs: list[Any], v_outputs: list[Any],
                      torch_inputs: list[Any], volta_inputs: list[Any], dtype: str) -> None:
    """Backpropagates weighted_sum of the outputs in both and compares the input and parameter
    gradients; clears the parameter gradients afterwards."""
    rtol, atol = (10 * tol for tol in TOL[dtype])
    weighted_sum(t_outputs).backward()
    weighted_sum(v_outputs).backward()
    for v, t in zip(_leaves(volta_inputs), _leaves(torch_inputs), strict=True):
        close(v.grad, t.grad, rtol, atol)
    t_params = dict(reference.named_parameters())
    for name, param in module.named_parameters():
        close(param.grad, t_params[name].grad, rtol, atol)
        param.grad = t_params[name].grad = None


def _leaves(inputs: list[Any]) -> list[Any]:
    out = []
    for item in inputs:
        for t in item if type(item) is tuple else [item]:  # not a PackedSequence
            if getattr(t, "requires_grad", False):
                out.append(t)
    return out


CONFIGS = [
    ("one_layer", {}),
    ("batch_first", {"batch_first": True}),
    ("bidirectional", {"bidirectional": True}),
    ("two_layers_bidirectional", {"num_layers": 2, "bidirectional": True}),
    ("three_layers", {"num_layers": 3}),
    ("no_bias", {"bias": False, "num_layers": 2}),
    ("dropout_eval", {"num_layers": 2, "dropout": 0.5}),
]


@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("config", [c[1] for c in CONFIGS], ids=[c[0] for c in CONFIGS])
@pytest.mark.parametrize("mode", MODES)
def test_matches_torch(mode: str, config: dict[str, Any], dtype: str) -> None:
    reference, module = pair(mode, 5, 6, dtype=dtype, **config)
    module.eval()
    reference.eval()
    shape = (3, 7, 5) if config.get("batch_first") else (7, 3, 5)
    x = torch.randn(*shape, dtype=getattr(torch, dtype), requires_grad=True)
    compare(reference, module, [x], [to_volta(x, True)], dtype)


@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("bidirectional", [False, True])
def test_initial_states_match_torch(mode: str, bidirectional: bool, dtype: str) -> None:
    reference, module = pair(mode, 4, 5, num_layers=2, bidirectional=bidirectional,
                             batch_first=True, dtype=dtype)
    tdt = getattr(torch, dtype)
    layers = 4 if bidirectional else 2
    x = torch.randn(3, 6, 4, dtype=tdt, requires_grad=True)
    h0 = torch.randn(layers, 3, 5, dtype=tdt, requires_grad=True)
    if mode == "LSTM":
        c0 = torch.randn(layers, 3, 5, dtype=tdt, requires_grad=True)
        states_t, states_v = (h0, c0), (to_volta(h0, True), to_volta(c0, True))
    else:
        states_t, states_v = h0, to_volta(h0, True)
    compare(reference, module, [x, states_t], [to_volta(x, True), states_v], dtype)


@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("config", [{}, {"num_layers": 2, "bidirectional": True},
                                    {"batch_first": True, "num_layers": 3}],
                         ids=["one_layer", "two_layers_bidirectional", "three_layers"])
def test_lstm_projection_matches_torch(config: dict[str, Any], dtype: str) -> None:
    reference, module = pair("LSTM", 4, 6, proj_size=3, dtype=dtype, **config)
    tdt = getattr(torch, dtype)
    layers = config.get("num_layers", 1) * (2 if config.get("bidirectional") else 1)
    x = torch.randn(5, 2, 4, dtype=tdt, requires_grad=True)
    h0 = torch.randn(layers, 5 if config.get("batch_first") else 2, 3, dtype=tdt,
                     requires_grad=True)
    c0 = torch.randn(layers, h0.shape[1], 6, dtype=tdt, requires_grad=True)
    compare(reference, module, [x, (h0, c0)], [to_volta(x, True),
                                               (to_volta(h0, True), to_volta(c0, True))], dtype)
    assert state_layout(module) == state_layout(reference)


@pytest.mark.parametrize("mode", MODES)
def test_unbatched_input_matches_torch(mode: str) -> None:
    reference, module = pair(mode, 4, 5, num_layers=2, bidirectional=True)
    x = torch.randn(6, 4, dtype=torch.float64, requires_grad=True)
    compare(reference, module, [x], [to_volta(x, True)], "float64")
    h0 = torch.randn(4, 5, dtype=torch.float64, requires_grad=True)
    states_t: Any = h0
    states_v: Any = to_volta(h0, True)
    if mode == "LSTM":
        c0 = torch.randn(4, 5, dtype=torch.float64, requires_grad=True)
        states_t, states_v = (h0, c0), (states_v, to_volta(c0, True))
    x = torch.randn(6, 4, dtype=torch.float64, requires_grad=True)
    compare(reference, module, [x, states_t], [to_volta(x, True), states_v], "float64")


def packed_inputs(lengths: list[int], features: int, enforce_sorted: bool,
                  batch_first: bool = False) -> tuple[Any, Any, Any, Any]:
    steps = max(lengths)
    shape = (len(lengths), steps, features) if batch_first else (steps, len(lengths), features)
    x = torch.randn(*shape, dtype=torch.float64, requires_grad=True)
    xv = to_volta(x, True)
    packed_t = torch.nn.utils.rnn.pack_padded_sequence(x, torch.tensor(lengths), batch_first,
                                                       enforce_sorted)
    packed_v = volta.nn.utils.rnn.pack_padded_sequence(xv, lengths, batch_first, enforce_sorted)
    return x, xv, packed_t, packed_v


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("bidirectional", [False, True])
@pytest.mark.parametrize("enforce_sorted", [True, False])
def test_packed_sequences_match_torch(mode: str, bidirectional: bool,
                                      enforce_sorted: bool) -> None:
    reference, module = pair(mode, 3, 4, num_layers=2, bidirectional=bidirectional)
    lengths = [6, 5, 3, 3, 1] if enforce_sorted else [3, 6, 1, 5, 3]
    x, xv, packed_t, packed_v = packed_inputs(lengths, 3, enforce_sorted)
    layers = 4 if bidirectional else 2
    h0 = torch.randn(layers, 5, 4, dtype=torch.float64, requires_grad=True)
    states_t: Any = h0
    states_v: Any = to_volta(h0, True)
    if mode == "LSTM":
        c0 = torch.randn(layers, 5, 4, dtype=torch.float64, requires_grad=True)
        states_t, states_v = (h0, c0), (states_v, to_volta(c0, True))
    # the padded input's gradient flows back through the packing
    compare(reference, module, [packed_t, states_t], [packed_v, states_v], "float64")
    close(xv.grad, x.grad, 1e-9, 1e-9)


def test_packed_lstm_projection_and_pad_packed_output() -> None:
    reference, module = pair("LSTM", 3, 5, proj_size=2, bidirectional=True, batch_first=True)
    x, xv, packed_t, packed_v = packed_inputs([2, 4, 3], 3, False, batch_first=True)
    t_out, (t_h, t_c) = reference(packed_t)
    v_out, (v_h, v_c) = module(packed_v)
    t_pad, t_len = torch.nn.utils.rnn.pad_packed_sequence(t_out, batch_first=True,
                                                          total_length=6)
    v_pad, v_len = volta.nn.utils.rnn.pad_packed_sequence(v_out, batch_first=True,
                                                          total_length=6)
    assert v_len.tolist() == t_len.tolist()
    for v, t in ((v_pad, t_pad), (v_h, t_h), (v_c, t_c)):
        close(v, t, 1e-10, 1e-10)
    (t_pad.sum() + t_h.sum()).backward()
    (v_pad.sum() + v_h.sum()).backward()
    close(xv.grad, x.grad, 1e-9, 1e-9)


def test_state_dict_layout_and_safetensors_round_trip(tmp_path: Path) -> None:
    for mode, kwargs in (("LSTM", {"proj_size": 2}), ("GRU", {}), ("RNN", {"bias": False})):
        torch.manual_seed(0)
        reference = build(torch, mode, 3, 4, num_layers=2, bidirectional=True, **kwargs)
        module = build(volta, mode, 3, 4, num_layers=2, bidirectional=True, **kwargs)
        assert state_layout(module) == state_layout(reference)
        path = tmp_path / f"{mode}.safetensors"
        save_file(reference.state_dict(), str(path))
        module.load_state_dict(volta.load(path))
        x = torch.randn(5, 2, 3)
        close(module(to_volta(x))[0], reference(x)[0], 1e-5, 1e-5)


def test_default_init_is_uniform_over_one_over_sqrt_hidden() -> None:
    volta.manual_seed(0)
    module = volta.nn.LSTM(8, 16, num_layers=2)
    values = np.concatenate([p.detach().numpy().ravel() for p in module.parameters()])
    bound = 1 / np.sqrt(16)
    assert values.min() >= -bound and values.max() <= bound
    assert values.min() < -0.9 * bound and values.max() > 0.9 * bound
    assert abs(values.mean()) < 0.01


@pytest.mark.parametrize("mode", MODES)
def test_dropout_between_layers_only_in_training(mode: str) -> None:
    _, module = pair(mode, 3, 8, num_layers=2, dropout=0.5)
    x = to_volta(torch.randn(5, 2, 3, dtype=torch.float64))
    _, no_dropout = pair(mode, 3, 8, num_layers=2)
    module.train()
    first, second = module(x)[0].detach().numpy(), module(x)[0].detach().numpy()
    assert not np.allclose(first, second)  # a fresh mask each call
    assert not np.allclose(first, no_dropout(x)[0].detach().numpy())
    module.eval()
    close(module(x)[0], no_dropout(x)[0], 1e-12, 1e-12)


def test_dropout_with_one_layer_warns_as_torch() -> None:
    with pytest.warns(UserWarning, match="non-zero dropout expects num_layers greater than 1"):
        volta.nn.GRU(3, 4, dropout=0.2)


CELLS = [("RNNCell", {}), ("RNNCell", {"nonlinearity": "relu"}), ("LSTMCell", {}),
         ("GRUCell", {}), ("GRUCell", {"bias": False})]


@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize(("name", "kwargs"), CELLS,
                         ids=[f"{n}-{k.get('nonlinearity', k.get('bias', ''))}" for n, k in CELLS])
@pytest.mark.parametrize("batched", [True, False])
def test_cells_match_torch(name: str, kwargs: dict[str, Any], batched: bool,
                           dtype: str) -> None:
    torch.manual_seed(0)
    tdt = getattr(torch, dtype)
    reference = getattr(torch.nn, name)(4, 5, **kwargs).to(tdt)
    module = getattr(volta.nn, name)(4, 5, **kwargs).to(getattr(volta, dtype))
    copy_weights(reference, module)
    assert state_layout(module) == state_layout(reference)
    lead = (3,) if batched else ()
    x = torch.randn(*lead, 4, dtype=tdt, requires_grad=True)
    h = torch.randn(*lead, 5, dtype=tdt, requires_grad=True)
    state_t: Any = h
    state_v: Any = to_volta(h, True)
    if name == "LSTMCell":
        c = torch.randn(*lead, 5, dtype=tdt, requires_grad=True)
        state_t, state_v = (h, c), (state_v, to_volta(c, True))
    rtol, atol = TOL[dtype]
    for args_t, args_v in (([x], [to_volta(x, True)]),
                           ([x, state_t], [to_volta(x, True), state_v])):
        out_t, out_v = flat_states(reference(*args_t)), flat_states(module(*args_v))
        for v, t in zip(out_v, out_t, strict=True):
            assert tuple(v.shape) == tuple(t.shape)
            close(v, t, rtol, atol)
        x.grad = h.grad = None
        compare_gradients(reference, module, out_t, out_v, args_t, args_v, dtype)


@pytest.mark.parametrize(("name", "kwargs"), CELLS,
                         ids=[f"{n}-{k.get('nonlinearity', k.get('bias', ''))}" for n, k in CELLS])
def test_cells_gradcheck_float64(name: str, kwargs: dict[str, Any]) -> None:
    volta.manual_seed(0)
    cell = getattr(volta.nn, name)(3, 4, **kwargs).double()
    x = volta.randn(2, 3, dtype=volta.float64, requires_grad=True)
    h = volta.randn(2, 4, dtype=volta.float64, requires_grad=True)
    # parameter gradients are compared with PyTorch's in test_cells_match_torch
    if name == "LSTMCell":
        c = volta.randn(2, 4, dtype=volta.float64, requires_grad=True)
        assert volta.autograd.gradcheck(lambda x, h, c: cell(x, (h, c)), [x, h, c])
    else:
        assert volta.autograd.gradcheck(cell, [x, h])


def test_layer_gradcheck_float64_packed_bidirectional_projection() -> None:
    volta.manual_seed(0)
    module = volta.nn.LSTM(2, 3, proj_size=2, bidirectional=True).double()
    x = volta.randn(4, 3, 2, dtype=volta.float64, requires_grad=True)

    h0 = volta.randn(2, 3, 2, dtype=volta.float64, requires_grad=True)
    c0 = volta.randn(2, 3, 3, dtype=volta.float64, requires_grad=True)

    def run(x: volta.Tensor, h0: volta.Tensor, c0: volta.Tensor) -> Any:
        packed = volta.nn.utils.rnn.pack_padded_sequence(x, [2, 4, 1], enforce_sorted=False)
        out, (h, c) = module(packed, (h0, c0))
        return out.data, h, c

    assert volta.autograd.gradcheck(run, [x, h0, c0])


# --- packing utilities ------------------------------------------------------------------


def test_pad_pack_utilities_match_torch() -> None:
    seqs = [torch.randn(n, 2) for n in (2, 5, 3)]
    vseqs = [to_volta(s) for s in seqs]
    rnn_t, rnn_v = torch.nn.utils.rnn, volta.nn.utils.rnn
    for kwargs in ({}, {"batch_first": True, "padding_value": -1.0},
                   {"padding_side": "left"}):
        close(rnn_v.pad_sequence(vseqs, **kwargs), rnn_t.pad_sequence(seqs, **kwargs))
    packed_t = rnn_t.pack_sequence(seqs, enforce_sorted=False)
    packed_v = rnn_v.pack_sequence(vseqs, enforce_sorted=False)
    for v, t in zip(packed_v, packed_t, strict=True):
        close(v, t)
    for v, t in zip(rnn_v.unpack_sequence(packed_v), rnn_t.unpack_sequence(packed_t),
                    strict=True):
        close(v, t)
    padded_t, lengths_t = rnn_t.pad_packed_sequence(packed_t, padding_value=9.0)
    padded_v, lengths_v = rnn_v.pad_packed_sequence(packed_v, padding_value=9.0)
    close(padded_v, padded_t)
    assert lengths_v.tolist() == lengths_t.tolist()
    for v, t in zip(rnn_v.unpad_sequence(padded_v, lengths_v),
                    rnn_t.unpad_sequence(padded_t, lengths_t), strict=True):
        close(v, t)
    sorted_t = rnn_t.pack_sequence(sorted(seqs, key=len, reverse=True))
    sorted_v = rnn_v.pack_sequence(sorted(vseqs, key=lambda s: s.shape[0], reverse=True))
    assert sorted_v.sorted_indices is None and sorted_t.sorted_indices is None
    close(sorted_v.data, sorted_t.data)
    close(sorted_v.batch_sizes, sorted_t.batch_sizes)


# --- errors where PyTorch raises ----------------------------------------------------------


def _raise_both(torch_call: Any, volta_call: Any, match: str) -> None:
    with pytest.raises((RuntimeError, ValueError, TypeError)):
        torch_call()
    with pytest.raises(volta.VoltaError, match=match):
        volta_call()


@pytest.mark.parametrize("mode", MODES)
def test_errors_match_torch(mode: str) -> None:
    reference, module = pair(mode, 3, 4, num_layers=2, dtype="float32")
    x = torch.randn(5, 2, 3)
    xv = to_volta(x)
    wrong = torch.randn(5, 2, 4)
    _raise_both(lambda: reference(wrong), lambda: module(to_volta(wrong)),
                "input.size\\(-1\\) must be equal to input_size. Expected 3, got 4")
    _raise_both(lambda: reference(torch.randn(5, 2, 3, 1)),
                lambda: module(to_volta(torch.randn(5, 2, 3, 1))), "Expected input to be 2D or 3D")
    bad_h = torch.randn(1, 2, 4)
    if mode == "LSTM":
        good_c = torch.randn(2, 2, 4)
        _raise_both(lambda: reference(x, (bad_h, good_c)),
                    lambda: module(xv, (to_volta(bad_h), to_volta(good_c))),
                    r"Expected hidden\[0\] size \(2, 2, 4\), got \[1, 2, 4\]")
        _raise_both(lambda: reference(x, (good_c, bad_h)),
                    lambda: module(xv, (to_volta(good_c), to_volta(bad_h))),
                    r"Expected hidden\[1\] size \(2, 2, 4\), got \[1, 2, 4\]")
    else:
        _raise_both(lambda: reference(x, bad_h), lambda: module(xv, to_volta(bad_h)),
                    r"Expected hidden size \(2, 2, 4\), got \[1, 2, 4\]")
        flat_h = torch.randn(2, 4)
        _raise_both(lambda: reference(x, flat_h), lambda: module(xv, to_volta(flat_h)),
                    "hx should also be 3-D")


def test_constructor_and_cell_errors_match_torch() -> None:
    nn_t, nn_v = torch.nn, volta.nn
    _raise_both(lambda: nn_t.LSTM(3, 4, proj_size=4), lambda: nn_v.LSTM(3, 4, proj_size=4),
                "proj_size has to be smaller than hidden_size")
    _raise_both(lambda: nn_t.LSTM(3, 4, proj_size=-1), lambda: nn_v.LSTM(3, 4, proj_size=-1),
                "proj_size should be a positive integer")
    _raise_both(lambda: nn_t.RNN(3, 4, nonlinearity="gelu"),
                lambda: nn_v.RNN(3, 4, nonlinearity="gelu"), "Unknown nonlinearity 'gelu'")
    _raise_both(lambda: nn_t.GRU(3, 4, dropout=1.5), lambda: nn_v.GRU(3, 4, dropout=1.5),
                "dropout should be a number in range")
    _raise_both(lambda: nn_t.GRU(3, 0), lambda: nn_v.GRU(3, 0), "hidden_size must be greater")
    _raise_both(lambda: nn_t.LSTM(3, 4, num_layers=0), lambda: nn_v.LSTM(3, 4, num_layers=0),
                "num_layers must be greater than zero")
    torch.manual_seed(0)
    cell_t, cell_v = nn_t.LSTMCell(3, 4), nn_v.LSTMCell(3, 4)
    _raise_both(lambda: cell_t(torch.randn(2, 5)), lambda: cell_v(volta.randn(2, 5)),
                "input has inconsistent input_size: got 5 expected 3")
    h = torch.randn(3, 4)
    _raise_both(lambda: cell_t(torch.randn(2, 3), (h, h)),
                lambda: cell_v(volta.randn(2, 3), (to_volta(h), to_volta(h))),
                "Input batch size 2 doesn't match hx\\[0\\] batch size 3")
    gru_t, gru_v = nn_t.GRUCell(3, 4), nn_v.GRUCell(3, 4)
    _raise_both(lambda: gru_t(torch.randn(2, 3), torch.randn(2, 5)),
                lambda: gru_v(volta.randn(2, 3), volta.randn(2, 5)),
                "hidden has inconsistent hidden_size: got 5, expected 4")
    _raise_both(lambda: gru_t(torch.randn(1, 2, 3)), lambda: gru_v(volta.randn(1, 2, 3)),
                "GRUCell: Expected input to be 1D or 2D, got 3D instead")


def test_packing_errors_match_torch() -> None:
    rnn_t, rnn_v = torch.nn.utils.rnn, volta.nn.utils.rnn
    x = torch.randn(4, 3, 2)
    _raise_both(lambda: rnn_t.pack_padded_sequence(x, [2, 4, 1]),
                lambda: rnn_v.pack_padded_sequence(to_volta(x), [2, 4, 1]),
                "must be sorted in decreasing order")
    _raise_both(lambda: rnn_t.pack_padded_sequence(x, [4, 2, 0]),
                lambda: rnn_v.pack_padded_sequence(to_volta(x), [4, 2, 0]),
                "greater than 0")
    packed_t = rnn_t.pack_padded_sequence(x, [4, 2, 1])
    packed_v = rnn_v.pack_padded_sequence(to_volta(x), [4, 2, 1])
    _raise_both(lambda: rnn_t.pad_packed_sequence(packed_t, total_length=3),
                lambda: rnn_v.pad_packed_sequence(packed_v, total_length=3),
                "Expected total_length to be at least")


def test_flatten_parameters_repr_and_dtype_move() -> None:
    module = volta.nn.LSTM(3, 4, num_layers=2, batch_first=True, proj_size=2)
    module.flatten_parameters()
    assert repr(module) == repr(torch.nn.LSTM(3, 4, num_layers=2, batch_first=True,
                                              proj_size=2))
    assert repr(volta.nn.GRUCell(3, 4, bias=False)) == repr(torch.nn.GRUCell(3, 4, bias=False))
    module.double()
    out, (h, c) = module(volta.randn(2, 5, 3, dtype=volta.float64))
    assert out.dtype == volta.float64 and tuple(out.shape) == (2, 5, 2)
    assert tuple(h.shape) == (2, 2, 2) and tuple(c.shape) == (2, 2, 4)
    assert [len(group) for group in module.all_weights] == [5, 5]


@pytest.mark.parametrize("mode", ["RNN", "LSTM", "GRU"])
@pytest.mark.parametrize("cell", [False, True], ids=["layer", "cell"])
def test_a_hidden_state_of_another_dtype_is_rejected_like_pytorch(mode: str, cell: bool) -> None:
    name = mode + ("Cell" if cell else "")
    shape = (2, 3) if cell else (1, 2, 3)
    x_shape = (2, 4) if cell else (5, 2, 4)
    with pytest.raises(RuntimeError):  # PyTorch: mat1/mat2 or mkldnn dtype errors
        h = torch.zeros(*shape, dtype=torch.float64)
        getattr(torch.nn, name)(4, 3)(torch.randn(*x_shape), (h, h) if mode == "LSTM" else h)
    h = volta.zeros(*shape, dtype=volta.float64)
    before = h.numpy().copy()
    with pytest.raises(volta.DTypeError, match="hx of dtype float32"):
        getattr(volta.nn, name)(4, 3)(volta.randn(*x_shape), (h, h) if mode == "LSTM" else h)
    np.testing.assert_array_equal(h.numpy(), before)
