"""Recurrent layers: ``RNNCell``, ``LSTMCell``, ``GRUCell``, ``RNN``, ``LSTM``, ``GRU``.

PyTorch's arguments, parameter names and layouts (``weight_ih_l0``, ``bias_hh_l1_reverse``,
``weight_hr_l0``), gate order (LSTM i, f, g, o; GRU r, z, n) and output shapes, so weights move
between the two through ``state_dict``.

How a layer runs: the input projection of every time step is one matmul
(``x @ weight_ih.T + bias``) and the op ``_rnn_layer`` (ops.yaml) then steps through time with
one ``h @ weight_hh.T`` and the cell per step, forward and backward, in one kernel. Packed
sequences run padded with their ``batch_sizes``, so every row stops at its own length.
"""

from __future__ import annotations

import math
import numbers
import warnings
from typing import Any

import volta
import volta.nn.functional as F
from volta.errors import InvalidArgumentError, ShapeError
from volta.nn import init
from volta.nn.modules.module import Module
from volta.nn.parameter import Parameter
from volta.nn.utils.rnn import PackedSequence, packed_to_padded, padded_to_packed

__all__ = ["RNNCellBase", "RNNCell", "LSTMCell", "GRUCell", "RNNBase", "RNN", "LSTM", "GRU"]

_GATES = {"LSTM": 4, "GRU": 3, "RNN_TANH": 1, "RNN_RELU": 1}


def _rnn_mode(nonlinearity: str) -> str:
    if nonlinearity == "tanh":
        return "RNN_TANH"
    if nonlinearity == "relu":
        return "RNN_RELU"
    raise InvalidArgumentError(f"Unknown nonlinearity '{nonlinearity}'. Select from 'tanh' or "
                               f"'relu'.")


def _check_sizes(input_size: Any, hidden_size: Any) -> None:
    for name, value in (("input_size", input_size), ("hidden_size", hidden_size)):
        if not isinstance(value, int) or isinstance(value, bool):
            raise InvalidArgumentError(f"{name} should be of type int, got: "
                                       f"{type(value).__name__}")
    if hidden_size <= 0:
        raise InvalidArgumentError("hidden_size must be greater than zero")


def _input_gates(mode: str, input: volta.Tensor, weight_ih: volta.Tensor,
                 bias_ih: volta.Tensor | None, bias_hh: volta.Tensor | None) -> volta.Tensor:
    """``input @ weight_ih.T`` plus the biases that add straight onto it: both of them, except
    for GRU, whose ``bias_hh`` is scaled by r inside the n gate."""
    bias = bias_ih
    if bias_ih is not None and bias_hh is not None and mode != "GRU":
        bias = bias_ih + bias_hh
    if input.ndim == 2:
        return F.linear(input, weight_ih, bias)
    # as one 2-D matmul: its backward is two plain matmuls, not a batched one and a sum
    steps, batch, features = input.shape
    gates = F.linear(input.reshape(steps * batch, features), weight_ih, bias)
    return gates.reshape(steps, batch, gates.shape[1])


def _run_layer(mode: str, gates: volta.Tensor, hx: volta.Tensor, cx: volta.Tensor | None,
               weight_hh: volta.Tensor, bias_hh: volta.Tensor | None,
               weight_hr: volta.Tensor | None, batch_sizes: list[int] | None = None,
               reverse: bool = False) -> tuple[volta.Tensor, volta.Tensor, volta.Tensor]:
    output, hy, cy, _ = volta._rnn_layer(gates, hx, cx, weight_hh,
                                         bias_hh if mode == "GRU" else None, weight_hr, mode,
                                         batch_sizes, reverse)
    return output, hy, cy


def _reset_uniform(module: Module, hidden_size: int) -> None:
    bound = 1.0 / math.sqrt(hidden_size)
    for weight in module.parameters():
        init.uniform_(weight, -bound, bound)


class RNNCellBase(Module):
    """Parameters and checks shared by the three cells."""

    def __init__(self, mode: str, input_size: int, hidden_size: int, bias: bool,
                 device: Any = None, dtype: Any = None) -> None:
        super().__init__()
        _check_sizes(input_size, hidden_size)
        self.mode = mode
        self.input_size = input_size
        self.hidden_size = hidden_size
        self.bias = bias
        gates = _GATES[mode] * hidden_size
        self.weight_ih = Parameter(volta.empty(gates, input_size, device=device, dtype=dtype))
        self.weight_hh = Parameter(volta.empty(gates, hidden_size, device=device, dtype=dtype))
        if bias:
            self.bias_ih = Parameter(volta.empty(gates, device=device, dtype=dtype))
            self.bias_hh = Parameter(volta.empty(gates, device=device, dtype=dtype))
        else:
            self.register_parameter("bias_ih", None)
            self.register_parameter("bias_hh", None)
        self.reset_parameters()

    def reset_parameters(self) -> None:
        """PyTorch's default: every parameter from U(-1/sqrt(hidden_size), 1/sqrt(hidden_size))."""
        _reset_uniform(self, self.hidden_size)

    def extra_repr(self) -> str:
        text = f"{self.input_size}, {self.hidden_size}"
        if not self.bias:
            text += ", bias=False"
        if self.mode == "RNN_RELU":
            text += ", nonlinearity='relu'"
        return text

    def _cell_input(self, name: str, input: volta.Tensor) -> tuple[volta.Tensor, bool]:
        if input.ndim not in (1, 2):
            raise ShapeError(f"{name}: Expected input to be 1D or 2D, got {input.ndim}D instead")
        if input.shape[-1] != self.input_size:
            raise ShapeError(f"input has inconsistent input_size: got {input.shape[-1]} "
                             f"expected {self.input_size}")
        batched = input.ndim == 2
        return (input if batched else input.unsqueeze(0)), batched

    def _cell_state(self, name: str, label: str, state: volta.Tensor | None,
                    input: volta.Tensor, batched: bool) -> volta.Tensor:
        if state is None:
            return volta.zeros(input.shape[0], self.hidden_size, dtype=input.dtype,
                               device=input.device)
        if state.ndim not in (1, 2):
            raise ShapeError(f"{name}: Expected {label} to be 1D or 2D, got {state.ndim}D "
                             f"instead")
        if state.ndim != (2 if batched else 1):
            raise ShapeError(f"{name}: Expected {label} to be {2 if batched else 1}D for "
                             f"{'batched' if batched else 'unbatched'} input, got "
                             f"{state.ndim}D instead")
        state = state if batched else state.unsqueeze(0)
        if state.shape[0] != input.shape[0]:
            raise ShapeError(f"Input batch size {input.shape[0]} doesn't match {label} batch "
                             f"size {state.shape[0]}")
        if state.shape[1] != self.hidden_size:
            raise ShapeError(f"{label} has inconsistent hidden_size: got {state.shape[1]}, "
                             f"expected {self.hidden_size}")
        return state

    def _step(self, input: volta.Tensor, hx: volta.Tensor, cx: volta.Tensor | None
              ) -> tuple[volta.Tensor, volta.Tensor]:
        gates = _input_gates(self.mode, input, self.weight_ih, self.bias_ih, self.bias_hh)
        output, _, cy = _run_layer(self.mode, gates.unsqueeze(0), hx, cx, self.weight_hh,
                                   self.bias_hh, None)
        return output[0], cy

    def _hidden_only_forward(self, input: volta.Tensor, hx: volta.Tensor | None
                             ) -> volta.Tensor:
        """forward of the cells whose state is one hidden tensor (RNNCell, GRUCell)."""
        name = type(self).__name__
        input, batched = self._cell_input(name, input)
        hx = self._cell_state(name, "hidden", hx, input, batched)
        h, _ = self._step(input, hx, None)
        return h if batched else h.squeeze(0)


class RNNCell(RNNCellBase):
    """``h' = tanh(x W_ih^T + b_ih + h W_hh^T + b_hh)`` (or relu).

    Shape: input ``(B, input_size)`` or ``(input_size,)``, hidden ``(B, hidden_size)`` or
    ``(hidden_size,)``; returns the next hidden state of the same rank.
    """

    def __init__(self, input_size: int, hidden_size: int, bias: bool = True,
                 nonlinearity: str = "tanh", device: Any = None, dtype: Any = None) -> None:
        self.nonlinearity = nonlinearity
        super().__init__(_rnn_mode(nonlinearity), input_size, hidden_size, bias, device, dtype)

    def forward(self, input: volta.Tensor, hx: volta.Tensor | None = None) -> volta.Tensor:
        return self._hidden_only_forward(input, hx)


class GRUCell(RNNCellBase):
    """PyTorch's GRU cell: ``r, z = sigmoid(...)``, ``n = tanh(x W_in^T + b_in + r * (h W_hn^T
    + b_hn))``, ``h' = (1 - z) * n + z * h``. Shapes as :class:`RNNCell`."""

    def __init__(self, input_size: int, hidden_size: int, bias: bool = True,
                 device: Any = None, dtype: Any = None) -> None:
        super().__init__("GRU", input_size, hidden_size, bias, device, dtype)

    def forward(self, input: volta.Tensor, hx: volta.Tensor | None = None) -> volta.Tensor:
        return self._hidden_only_forward(input, hx)


class LSTMCell(RNNCellBase):
    """PyTorch's LSTM cell (gates i, f, g, o). ``forward(input, (h, c))`` returns ``(h', c')``;
    shapes as :class:`RNNCell`."""

    def __init__(self, input_size: int, hidden_size: int, bias: bool = True,
                 device: Any = None, dtype: Any = None) -> None:
        super().__init__("LSTM", input_size, hidden_size, bias, device, dtype)

    def forward(self, input: volta.Tensor,
                hx: tuple[volta.Tensor, volta.Tensor] | None = None
                ) -> tuple[volta.Tensor, volta.Tensor]:
        input, batched = self._cell_input("LSTMCell", input)
        h0, c0 = (None, None) if hx is None else hx
        h0 = self._cell_state("LSTMCell", "hx[0]", h0, input, batched)
        c0 = self._cell_state("LSTMCell", "hx[1]", c0, input, batched)
        h, c = self._step(input, h0, c0)
        return (h, c) if batched else (h.squeeze(0), c.squeeze(0))


class RNNBase(Module):
    """The multi-layer recurrent network behind :class:`RNN`, :class:`LSTM` and :class:`GRU`.

    Parameters per layer ``k`` and direction (suffix ``_reverse`` for the backward one), in
    PyTorch's order: ``weight_ih_lk``, ``weight_hh_lk``, ``bias_ih_lk``, ``bias_hh_lk`` and,
    for an LSTM with ``proj_size > 0``, ``weight_hr_lk``.
    """

    def __init__(self, mode: str, input_size: int, hidden_size: int, num_layers: int = 1,
                 bias: bool = True, batch_first: bool = False, dropout: float = 0.0,
                 bidirectional: bool = False, proj_size: int = 0, device: Any = None,
                 dtype: Any = None) -> None:
        super().__init__()
        _check_sizes(input_size, hidden_size)
        if (not isinstance(dropout, numbers.Number) or isinstance(dropout, bool)
                or not 0 <= dropout <= 1):
            raise InvalidArgumentError("dropout should be a number in range [0, 1] representing "
                                       "the probability of an element being zeroed")
        if not isinstance(num_layers, int) or num_layers <= 0:
            raise InvalidArgumentError("num_layers must be greater than zero")
        if dropout > 0 and num_layers == 1:
            warnings.warn("dropout option adds dropout after all but last recurrent layer, so "
                          "non-zero dropout expects num_layers greater than 1, but got "
                          f"dropout={dropout} and num_layers={num_layers}", stacklevel=2)
        if proj_size < 0:
            raise InvalidArgumentError("proj_size should be a positive integer or zero to "
                                       "disable projections")
        if proj_size >= hidden_size:
            raise InvalidArgumentError("proj_size has to be smaller than hidden_size")
        if proj_size and mode != "LSTM":
            raise InvalidArgumentError("proj_size argument is only supported for LSTM, not RNN "
                                       "or GRU")
        self.mode = mode
        self.input_size = input_size
        self.hidden_size = hidden_size
        self.num_layers = num_layers
        self.bias = bias
        self.batch_first = batch_first
        self.dropout = float(dropout)
        self.bidirectional = bidirectional
        self.proj_size = proj_size
        directions = 2 if bidirectional else 1
        output_size = proj_size or hidden_size
        gates = _GATES[mode] * hidden_size
        self._flat_weights_names: list[str] = []
        for layer in range(num_layers):
            layer_input = input_size if layer == 0 else output_size * directions
            for suffix in ("", "_reverse")[:directions]:
                shapes = {"weight_ih": (gates, layer_input), "weight_hh": (gates, output_size)}
                if bias:
                    shapes |= {"bias_ih": (gates,), "bias_hh": (gates,)}
                if proj_size:
                    shapes["weight_hr"] = (proj_size, hidden_size)
                for kind, shape in shapes.items():
                    name = f"{kind}_l{layer}{suffix}"
                    setattr(self, name, Parameter(volta.empty(*shape, device=device,
                                                              dtype=dtype)))
                    self._flat_weights_names.append(name)
        self.reset_parameters()

    def reset_parameters(self) -> None:
        """PyTorch's default: every parameter from U(-1/sqrt(hidden_size), 1/sqrt(hidden_size))."""
        _reset_uniform(self, self.hidden_size)

    def flatten_parameters(self) -> None:
        """A no-op kept for PyTorch compatibility: volta keeps no fused weight buffer."""

    @property
    def _flat_weights(self) -> list[volta.Tensor | None]:
        return [getattr(self, name) for name in self._flat_weights_names]

    @property
    def all_weights(self) -> list[list[Parameter]]:
        """The parameters grouped per layer and direction, as PyTorch's ``all_weights``."""
        per_group = len(self._flat_weights_names) // (self.num_layers * self._directions)
        weights = self._flat_weights
        return [weights[k:k + per_group] for k in range(0, len(weights), per_group)]

    @property
    def _directions(self) -> int:
        return 2 if self.bidirectional else 1

    def extra_repr(self) -> str:
        text = f"{self.input_size}, {self.hidden_size}"
        if self.proj_size:
            text += f", proj_size={self.proj_size}"
        if self.num_layers != 1:
            text += f", num_layers={self.num_layers}"
        if not self.bias:
            text += ", bias=False"
        if self.batch_first:
            text += ", batch_first=True"
        if self.dropout:
            text += f", dropout={self.dropout}"
        if self.bidirectional:
            text += ", bidirectional=True"
        return text

    def _state_shape(self, batch: int, cell: bool) -> tuple[int, int, int]:
        size = self.hidden_size if cell or not self.proj_size else self.proj_size
        return (self.num_layers * self._directions, batch, size)

    def _initial_state(self, state: volta.Tensor | None, label: str, batch: int, batched: bool,
                       cell: bool, like: volta.Tensor) -> volta.Tensor:
        expected = self._state_shape(batch, cell)
        if state is None:
            return volta.zeros(*expected, dtype=like.dtype, device=like.device)
        if not batched:
            state = state.unsqueeze(1)
        if tuple(state.shape) != expected:
            raise ShapeError(f"Expected {label} size {expected}, got {list(state.shape)}")
        return state

    def _check_state_rank(self, states: list[volta.Tensor], batched: bool) -> None:
        want = 3 if batched else 2
        for state in states:
            if state.ndim != want:
                kind = "batched 3-D" if batched else "unbatched 2-D"
                raise ShapeError(f"For {kind} input, hx should also be {want}-D but got "
                                 f"{state.ndim}-D tensor")

    def forward(self, input: volta.Tensor | PackedSequence, hx: Any = None) -> Any:
        is_lstm = self.mode == "LSTM"
        packed = isinstance(input, PackedSequence)
        batch_sizes: list[int] | None = None
        batched = True
        if packed:
            batch_sizes = input.batch_sizes.tolist()
            sorted_indices, unsorted_indices = input.sorted_indices, input.unsorted_indices
            if input.data.ndim != 2:
                raise ShapeError(f"input must have 2 dimensions, got {input.data.ndim}")
            x = packed_to_padded(input.data, batch_sizes, len(batch_sizes))
        else:
            if input.ndim not in (2, 3):
                name = "RNN" if self.mode.startswith("RNN") else self.mode
                raise ShapeError(f"{name}: Expected input to be 2D or 3D, got {input.ndim}D "
                                 f"instead")
            batched = input.ndim == 3
            x = input if batched else input.unsqueeze(1)
            if self.batch_first and batched:
                x = x.transpose(0, 1)
            sorted_indices = unsorted_indices = None
        if x.shape[-1] != self.input_size:
            raise ShapeError(f"input.size(-1) must be equal to input_size. Expected "
                             f"{self.input_size}, got {x.shape[-1]}")
        batch = x.shape[1]
        h0, c0 = (hx if hx is not None else (None, None)) if is_lstm else (hx, None)
        given = [s for s in (h0, c0) if s is not None]
        self._check_state_rank(given, batched)
        h0 = self._initial_state(h0, "hidden[0]" if is_lstm else "hidden", batch, batched,
                                 False, x)
        if is_lstm:
            c0 = self._initial_state(c0, "hidden[1]", batch, batched, True, x)
        if sorted_indices is not None:
            h0 = h0.index_select(1, sorted_indices)
            c0 = c0.index_select(1, sorted_indices) if is_lstm else None
        output, h_n, c_n = self._layers(x, h0, c0, batch_sizes)
        if packed:
            output = PackedSequence(padded_to_packed(output, batch_sizes), input.batch_sizes,
                                    sorted_indices, unsorted_indices)
            if unsorted_indices is not None:
                h_n = h_n.index_select(1, unsorted_indices)
                c_n = c_n.index_select(1, unsorted_indices) if is_lstm else None
        elif not batched:
            output, h_n = output.squeeze(1), h_n.squeeze(1)
            c_n = c_n.squeeze(1) if is_lstm else None
        elif self.batch_first:
            output = output.transpose(0, 1)
        return output, ((h_n, c_n) if is_lstm else h_n)

    def _layers(self, x: volta.Tensor, h0: volta.Tensor, c0: volta.Tensor | None,
                batch_sizes: list[int] | None
                ) -> tuple[volta.Tensor, volta.Tensor, volta.Tensor | None]:
        """Every layer and direction over a time-major padded ``x``."""
        hs, cs = [], []
        for layer in range(self.num_layers):
            outputs = []
            for direction, suffix in enumerate(("", "_reverse")[:self._directions]):
                index = layer * self._directions + direction
                weights = [getattr(self, f"{kind}_l{layer}{suffix}", None)
                           for kind in ("weight_ih", "weight_hh", "bias_ih", "bias_hh",
                                        "weight_hr")]
                weight_ih, weight_hh, bias_ih, bias_hh, weight_hr = weights
                gates = _input_gates(self.mode, x, weight_ih, bias_ih, bias_hh)
                output, hy, cy = _run_layer(self.mode, gates, h0[index],
                                            None if c0 is None else c0[index], weight_hh,
                                            bias_hh, weight_hr, batch_sizes, direction == 1)
                outputs.append(output)
                hs.append(hy)
                cs.append(cy)
            x = outputs[0] if len(outputs) == 1 else volta.cat(outputs, dim=2)
            if self.training and self.dropout > 0 and layer < self.num_layers - 1:
                x = F.dropout(x, self.dropout, training=True)
        return x, volta.stack(hs), (volta.stack(cs) if c0 is not None else None)


class RNN(RNNBase):
    """Elman RNN: ``h_t = tanh(x_t W_ih^T + b_ih + h_{t-1} W_hh^T + b_hh)`` (or relu).

    ``RNN(input_size, hidden_size, num_layers=1, nonlinearity='tanh', bias=True,
    batch_first=False, dropout=0.0, bidirectional=False)``. ``forward(input, h_0=None)``
    returns ``(output, h_n)``: input ``(L, N, H_in)`` (``(N, L, H_in)`` if ``batch_first``,
    ``(L, H_in)`` unbatched, or a :class:`PackedSequence`), output ``(L, N, D * H_out)``,
    ``h_n`` ``(D * num_layers, N, H_out)``.
    """

    def __init__(self, input_size: int, hidden_size: int, num_layers: int = 1,
                 nonlinearity: str = "tanh", bias: bool = True, batch_first: bool = False,
                 dropout: float = 0.0, bidirectional: bool = False, device: Any = None,
                 dtype: Any = None) -> None:
        self.nonlinearity = nonlinearity
        super().__init__(_rnn_mode(nonlinearity), input_size, hidden_size, num_layers, bias,
                         batch_first, dropout, bidirectional, 0, device, dtype)

    def extra_repr(self) -> str:
        text = super().extra_repr()
        return text + (", nonlinearity='relu'" if self.nonlinearity == "relu" else "")


class LSTM(RNNBase):
    """Long short-term memory (gates i, f, g, o), optionally with a projection of size
    ``proj_size`` on the hidden state. ``forward(input, (h_0, c_0)=None)`` returns
    ``(output, (h_n, c_n))``; shapes as :class:`RNN` with ``H_out = proj_size or hidden_size``
    and ``c_n`` ``(D * num_layers, N, hidden_size)``."""

    def __init__(self, input_size: int, hidden_size: int, num_layers: int = 1, bias: bool = True,
                 batch_first: bool = False, dropout: float = 0.0, bidirectional: bool = False,
                 proj_size: int = 0, device: Any = None, dtype: Any = None) -> None:
        super().__init__("LSTM", input_size, hidden_size, num_layers, bias, batch_first,
                         dropout, bidirectional, proj_size, device, dtype)


class GRU(RNNBase):
    """Gated recurrent unit (gates r, z, n, PyTorch's formulation). ``forward(input, h_0=None)``
    returns ``(output, h_n)``; shapes as :class:`RNN`."""

    def __init__(self, input_size: int, hidden_size: int, num_layers: int = 1, bias: bool = True,
                 batch_first: bool = False, dropout: float = 0.0, bidirectional: bool = False,
                 device: Any = None, dtype: Any = None) -> None:
        super().__init__("GRU", input_size, hidden_size, num_layers, bias, batch_first,
                         dropout, bidirectional, 0, device, dtype)
