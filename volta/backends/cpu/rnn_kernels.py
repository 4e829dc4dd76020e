"""numpy kernels of ``_rnn_layer`` and ``_rnn_layer_backward`` (ops.yaml): one recurrent layer
in one direction over a whole sequence, for nn.RNN, nn.LSTM and nn.GRU.

The caller has already projected every step's input (one matmul); here each step runs one
``h @ weight_hh.T`` and the cell's pointwise math on whole arrays, and the backward sums the
weight gradient over all steps in one matmul at the end. With ``batch_sizes`` (a
PackedSequence's, non-increasing) only the first ``batch_sizes[t]`` rows step at time ``t``.

Workspace layout, per step and row (what the backward reads; zero for rows that did not step):
``[h_prev (P) | cell values]`` with cell values
LSTM ``[i f g o (4H, activated) | c_prev (H) | tanh(c) (H) | unprojected h (H, proj only)]``,
GRU ``[r z n (3H, activated) | h @ W_hn.T + b_hn (H)]``, RNN ``[h (H)]``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from volta.backends.cpu import gemm
from volta.backends.cpu.kernel_table import kernel_table
from volta.backends.cpu.storage import array as A
from volta.backends.cpu.storage import wrap as W
from volta.tensor.checks import rnn_layer_checks, rnn_steps
from volta.tensor.tensor import Tensor

KERNELS, kernel = kernel_table()


def _sigmoid(x: np.ndarray, out: np.ndarray) -> np.ndarray:
    # 1 / (1 + exp(-x)): numpy's exp is about twice as fast as its tanh; exp's overflow to inf
    # for x < -88 gives the right limit 0 (the kernels run under errstate(over="ignore"))
    np.negative(x, out=out)
    np.exp(out, out=out)
    out += 1
    return np.reciprocal(out, out=out)


def _tanh(x: np.ndarray, out: np.ndarray) -> np.ndarray:
    # tanh(x) = 2 * sigmoid(2x) - 1, through the faster exp (see _sigmoid)
    np.multiply(x, 2, out=out)
    _sigmoid(out, out)
    out *= 2
    out -= 1
    return out


@kernel("_rnn_layer")
def rnn_layer(input_gates: Tensor, hx: Tensor, cx: Tensor | None, weight_hh: Tensor,
              bias_hh: Tensor | None, weight_hr: Tensor | None, mode: str,
              batch_sizes: Sequence[int] | None = None, reverse: bool = False
              ) -> tuple[Tensor, Tensor, Tensor, Tensor]:
    hidden, sizes, order = rnn_layer_checks(input_gates, hx, cx, weight_hh, mode, batch_sizes,
                                            reverse)
    x = A(input_gates)
    time, batch, _ = x.shape
    w = A(weight_hh)
    proj = None if weight_hr is None else A(weight_hr)
    h = A(hx).astype(x.dtype, copy=True)
    width = h.shape[1]
    c = A(cx).astype(x.dtype, copy=True) if mode == "LSTM" else np.zeros((0,), x.dtype)
    cell_width = {"LSTM": 6 * hidden + (hidden if proj is not None else 0),
                  "GRU": 4 * hidden}.get(mode, hidden)
    workspace = np.zeros((time, batch, width + cell_width), x.dtype)
    output = np.zeros((time, batch, width), x.dtype)
    bias = None if bias_hh is None else A(bias_hh)
    w_t = w.T
    with np.errstate(over="ignore"):  # see _sigmoid
        for t in order:
            rows = sizes[t]
            if rows == 0:
                continue
            h_prev = h[:rows]
            ws = workspace[t, :rows]
            ws[:, :width] = h_prev
            hidden_gates = gemm.matmul(h_prev, w_t)
            cell = ws[:, width:]
            if mode == "LSTM":
                new_h = _lstm_step(x[t, :rows], hidden_gates, c[:rows], cell, hidden, proj)
            elif mode == "GRU":
                new_h = _gru_step(x[t, :rows], hidden_gates, bias, h_prev, cell, hidden)
            else:
                hidden_gates += x[t, :rows]
                if mode == "RNN_TANH":
                    _tanh(hidden_gates, cell)
                else:
                    np.maximum(hidden_gates, 0, out=cell)
                new_h = cell
            h[:rows] = new_h
            output[t, :rows] = new_h
    return W(output), W(h), W(c), W(workspace)


def _lstm_step(x: np.ndarray, g: np.ndarray, c: np.ndarray, cell: np.ndarray, hidden: int,
               proj: np.ndarray | None) -> np.ndarray:
    """One LSTM step; ``c`` (the live cell state rows) is updated in place."""
    g += x
    act = cell[:, :4 * hidden]
    g[:, 2 * hidden:3 * hidden] *= 2
    _sigmoid(g, act)  # i, f, o, and sigmoid(2g) turned into tanh(g) just below
    act[:, 2 * hidden:3 * hidden] *= 2
    act[:, 2 * hidden:3 * hidden] -= 1
    i, f, gg, o = (act[:, k * hidden:(k + 1) * hidden] for k in range(4))
    cell[:, 4 * hidden:5 * hidden] = c
    c *= f
    c += i * gg
    tanh_c = cell[:, 5 * hidden:6 * hidden]
    _tanh(c, tanh_c)
    h = o * tanh_c
    if proj is None:
        return h
    cell[:, 6 * hidden:] = h
    return gemm.matmul(h, proj.T)


def _gru_step(x: np.ndarray, g: np.ndarray, bias: np.ndarray | None, h_prev: np.ndarray,
              cell: np.ndarray, hidden: int) -> np.ndarray:
    if bias is not None:
        g += bias
    rz = cell[:, :2 * hidden]
    np.add(x[:, :2 * hidden], g[:, :2 * hidden], out=rz)
    _sigmoid(rz, rz)
    r, z = rz[:, :hidden], rz[:, hidden:]
    hn = cell[:, 3 * hidden:]
    hn[...] = g[:, 2 * hidden:]
    n = cell[:, 2 * hidden:3 * hidden]
    np.multiply(r, hn, out=n)
    n += x[:, 2 * hidden:]
    _tanh(n, n)
    return n + z * (h_prev - n)


@kernel("_rnn_layer_backward")
def rnn_layer_backward(grad_output: Tensor | None, grad_hy: Tensor | None,
                       grad_cy: Tensor | None, weight_hh: Tensor, weight_hr: Tensor | None,
                       workspace: Tensor, mode: str, batch_sizes: Sequence[int] | None,
                       reverse: bool, output_mask: Sequence[bool]
                       ) -> tuple[Tensor | None, ...]:
    ws = A(workspace)
    w = A(weight_hh)
    time, batch, _ = ws.shape
    gates, width = w.shape
    hidden, sizes, order = rnn_steps(mode, gates, time, batch, batch_sizes, reverse)
    dtype = ws.dtype
    proj = None if weight_hr is None else A(weight_hr)
    dh = np.zeros((batch, width), dtype) if grad_hy is None else A(grad_hy).astype(dtype)
    dc = None
    if mode == "LSTM":
        dc = np.zeros((batch, hidden), dtype) if grad_cy is None else A(grad_cy).astype(dtype)
    grad_out = None if grad_output is None else A(grad_output)
    d_input = np.zeros((time, batch, gates), dtype)
    # GRU's hidden-gate gradient differs from its input-gate one in the n slot
    d_hidden = np.zeros((time, batch, gates), dtype) if mode == "GRU" else d_input
    d_h_all = np.zeros((time, batch, width), dtype) if proj is not None else None
    for t in reversed(order):
        rows = sizes[t]
        if rows == 0:
            continue
        dh_t = dh[:rows] if grad_out is None else dh[:rows] + grad_out[t, :rows]
        cell = ws[t, :rows, width:]
        if mode == "LSTM":
            if d_h_all is not None:
                d_h_all[t, :rows] = dh_t
                dh_t = gemm.matmul(dh_t, proj)
            _lstm_step_backward(dh_t, dc, rows, cell, hidden, d_input[t, :rows])
            gemm.matmul(d_input[t, :rows], w, dh[:rows])
        elif mode == "GRU":
            _gru_step_backward(dh_t, ws[t, :rows, :width], cell, hidden, d_input[t, :rows],
                               d_hidden[t, :rows])
            direct = dh_t * cell[:, hidden:2 * hidden]
            gemm.matmul(d_hidden[t, :rows], w, dh[:rows])
            dh[:rows] += direct
        else:
            h = cell
            d_pre = d_input[t, :rows]
            if mode == "RNN_TANH":
                np.multiply(dh_t, 1 - h * h, out=d_pre)
            else:
                np.multiply(dh_t, h > 0, out=d_pre)
            gemm.matmul(d_pre, w, dh[:rows])
    # the weight gradients of all steps at once: inactive rows contribute zeros
    flat_hidden = d_hidden.reshape(time * batch, gates)
    grads: list[Any] = [d_input, dh, dc, None, None, None]
    if output_mask[3]:
        grads[3] = gemm.matmul(flat_hidden.T, ws[:, :, :width].reshape(time * batch, width))
    if output_mask[4]:
        grads[4] = flat_hidden.sum(0)
    if output_mask[5] and d_h_all is not None:
        unprojected = ws[:, :, width + 6 * hidden:].reshape(time * batch, hidden)
        grads[5] = gemm.matmul(d_h_all.reshape(time * batch, width).T, unprojected)
    return tuple(W(g) if g is not None and output_mask[k] else None
                 for k, g in enumerate(grads))


def _lstm_step_backward(dh: np.ndarray, dc_all: np.ndarray, rows: int, cell: np.ndarray,
                        hidden: int, d_gates: np.ndarray) -> None:
    """Gate gradients of one LSTM step into ``d_gates``; ``dc_all[:rows]`` becomes the gradient
    of the previous cell state."""
    i, f, g, o, c_prev, tanh_c = (cell[:, k * hidden:(k + 1) * hidden] for k in range(6))
    dc = dc_all[:rows]
    dc += dh * o * (1 - tanh_c * tanh_c)
    d_i, d_f, d_g, d_o = (d_gates[:, k * hidden:(k + 1) * hidden] for k in range(4))
    np.multiply(dc, g * i * (1 - i), out=d_i)
    np.multiply(dc, c_prev * f * (1 - f), out=d_f)
    np.multiply(dc, i * (1 - g * g), out=d_g)
    np.multiply(dh, tanh_c * o * (1 - o), out=d_o)
    dc *= f


def _gru_step_backward(dh: np.ndarray, h_prev: np.ndarray, cell: np.ndarray, hidden: int,
                       d_input: np.ndarray, d_hidden: np.ndarray) -> None:
    r, z, n, hn = (cell[:, k * hidden:(k + 1) * hidden] for k in range(4))
    d_n = d_input[:, 2 * hidden:]
    np.multiply(dh * (1 - z), 1 - n * n, out=d_n)
    d_r = d_input[:, :hidden]
    np.multiply(d_n * hn, r * (1 - r), out=d_r)
    np.multiply(dh * (h_prev - n), z * (1 - z), out=d_input[:, hidden:2 * hidden])
    d_hidden[:, :2 * hidden] = d_input[:, :2 * hidden]
    np.multiply(d_n, r, out=d_hidden[:, 2 * hidden:])
