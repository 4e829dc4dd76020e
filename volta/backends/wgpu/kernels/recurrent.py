"""``_rnn_layer`` and its backward on the device: the CPU kernel's algorithm (see
``volta/backends/cpu/rnn_kernels.py``: one ``h @ weight_hh.T`` per step, the cell's pointwise
math, the weight gradients of all steps in one matmul at the end) with device ops, and the same
workspace layout per step and row:
``[h_prev (P) | cell values]`` with cell values
LSTM ``[i f g o (4H, activated) | c_prev (H) | tanh(c) (H) | unprojected h (H, proj only)]``,
GRU ``[r z n (3H, activated) | h @ W_hn.T + b_hn (H)]``, RNN ``[h (H)]``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from volta.backends.wgpu.kernels.composed import _zeros, cat
from volta.backends.wgpu.kernels.copy import copy_into
from volta.backends.wgpu.kernels.rows import fresh
from volta.tensor.checks import rnn_layer_checks, rnn_steps
from volta.tensor.tensor import Tensor


def _cell_width(mode: str, hidden: int, projected: bool) -> int:
    return {"LSTM": 6 * hidden + (hidden if projected else 0), "GRU": 4 * hidden}.get(mode,
                                                                                     hidden)


def _lstm_step(x: Tensor, gates: Tensor, c: Tensor, cell: Tensor, hidden: int,
               proj: Tensor | None) -> Tensor:
    """One LSTM step; ``c`` (the live cell state rows) is updated in place."""
    g = gates + x
    i, f, o = (g.narrow(1, k * hidden, hidden).sigmoid() for k in (0, 1, 3))
    gg = g.narrow(1, 2 * hidden, hidden).tanh()
    copy_into(cell.narrow(1, 0, 4 * hidden), cat([i, f, gg, o], 1))
    copy_into(cell.narrow(1, 4 * hidden, hidden), c)
    c_new = f * c + i * gg
    copy_into(c, c_new)
    tanh_c = c_new.tanh()
    copy_into(cell.narrow(1, 5 * hidden, hidden), tanh_c)
    h = o * tanh_c
    if proj is None:
        return h
    copy_into(cell.narrow(1, 6 * hidden, hidden), h)
    return h @ proj.T


def _gru_step(x: Tensor, gates: Tensor, bias: Tensor | None, h_prev: Tensor, cell: Tensor,
              hidden: int) -> Tensor:
    if bias is not None:
        gates = gates + bias
    rz = (x.narrow(1, 0, 2 * hidden) + gates.narrow(1, 0, 2 * hidden)).sigmoid()
    r, z = rz.narrow(1, 0, hidden), rz.narrow(1, hidden, hidden)
    hn = gates.narrow(1, 2 * hidden, hidden)
    n = (x.narrow(1, 2 * hidden, hidden) + r * hn).tanh()
    copy_into(cell, cat([rz, n, hn], 1))
    return n + z * (h_prev - n)


def rnn_layer(input_gates: Tensor, hx: Tensor, cx: Tensor | None, weight_hh: Tensor,
              bias_hh: Tensor | None, weight_hr: Tensor | None, mode: str,
              batch_sizes: Sequence[int] | None = None, reverse: bool = False
              ) -> tuple[Tensor, Tensor, Tensor, Tensor]:
    hidden, sizes, order = rnn_layer_checks(input_gates, hx, cx, weight_hh, mode, batch_sizes,
                                            reverse)
    time, batch, _ = input_gates._shape
    h = fresh(hx.to(input_gates.dtype))
    width = h._shape[1]
    lstm = mode == "LSTM"
    c = fresh(cx.to(input_gates.dtype)) if lstm and cx is not None else \
        _zeros((0,), input_gates)
    workspace = _zeros((time, batch, width + _cell_width(mode, hidden, weight_hr is not None)),
                       input_gates)
    output = _zeros((time, batch, width), input_gates)
    w_t = weight_hh.T
    for t in order:
        rows = sizes[t]
        if rows == 0:
            continue
        h_prev = h.narrow(0, 0, rows)
        ws = workspace[t].narrow(0, 0, rows)
        copy_into(ws.narrow(1, 0, width), h_prev)
        cell = ws.narrow(1, width, ws._shape[1] - width)
        hidden_gates = h_prev @ w_t
        x = input_gates[t].narrow(0, 0, rows)
        if lstm:
            new_h = _lstm_step(x, hidden_gates, c.narrow(0, 0, rows), cell, hidden, weight_hr)
        elif mode == "GRU":
            new_h = _gru_step(x, hidden_gates, bias_hh, h_prev, cell, hidden)
        else:
            pre = hidden_gates + x
            new_h = pre.tanh() if mode == "RNN_TANH" else pre.relu()
            copy_into(cell, new_h)
        copy_into(h_prev, new_h)
        copy_into(output[t].narrow(0, 0, rows), new_h)
    return output, h, c, workspace


def _lstm_step_backward(dh: Tensor, dc: Tensor, cell: Tensor, hidden: int) -> Tensor:
    """Gate gradients of one LSTM step; ``dc`` (rows) becomes the previous cell's gradient."""
    i, f, g, o, c_prev, tanh_c = (cell.narrow(1, k * hidden, hidden) for k in range(6))
    dc_now = dc + dh * o * (1 - tanh_c * tanh_c)
    d_gates = cat([dc_now * g * i * (1 - i), dc_now * c_prev * f * (1 - f),
                   dc_now * i * (1 - g * g), dh * tanh_c * o * (1 - o)], 1)
    copy_into(dc, dc_now * f)
    return d_gates


def rnn_layer_backward(grad_output: Tensor | None, grad_hy: Tensor | None,
                       grad_cy: Tensor | None, weight_hh: Tensor, weight_hr: Tensor | None,
                       workspace: Tensor, mode: str, batch_sizes: Sequence[int] | None,
                       reverse: bool, output_mask: Sequence[bool]
                       ) -> tuple[Tensor | None, ...]:
    time, batch, _ = workspace._shape
    gates, width = weight_hh._shape
    hidden, sizes, order = rnn_steps(mode, gates, time, batch, batch_sizes, reverse)
    dh = _zeros((batch, width), workspace) if grad_hy is None else fresh(grad_hy)
    dc = None
    if mode == "LSTM":
        dc = _zeros((batch, hidden), workspace) if grad_cy is None else fresh(grad_cy)
    d_input = _zeros((time, batch, gates), workspace)
    # GRU's hidden-gate gradient differs from its input-gate one in the n slot
    d_hidden = _zeros((time, batch, gates), workspace) if mode == "GRU" else d_input
    d_h_all = _zeros((time, batch, width), workspace) if weight_hr is not None else None
    for t in reversed(order):
        rows = sizes[t]
        if rows == 0:
            continue
        dh_rows = dh.narrow(0, 0, rows)
        dh_t = dh_rows if grad_output is None else dh_rows + grad_output[t].narrow(0, 0, rows)
        ws = workspace[t].narrow(0, 0, rows)
        cell = ws.narrow(1, width, ws._shape[1] - width)
        d_in = d_input[t].narrow(0, 0, rows)
        if mode == "LSTM":
            assert dc is not None
            if d_h_all is not None and weight_hr is not None:
                copy_into(d_h_all[t].narrow(0, 0, rows), dh_t)
                dh_t = dh_t @ weight_hr
            copy_into(d_in, _lstm_step_backward(dh_t, dc.narrow(0, 0, rows), cell, hidden))
            copy_into(dh_rows, d_in @ weight_hh)
        elif mode == "GRU":
            r, z, n, hn = (cell.narrow(1, k * hidden, hidden) for k in range(4))
            h_prev = ws.narrow(1, 0, width)
            d_n = dh_t * (1 - z) * (1 - n * n)
            d_r = d_n * hn * r * (1 - r)
            d_z = dh_t * (h_prev - n) * z * (1 - z)
            copy_into(d_in, cat([d_r, d_z, d_n], 1))
            d_hid = d_hidden[t].narrow(0, 0, rows)
            copy_into(d_hid, cat([d_r, d_z, d_n * r], 1))
            copy_into(dh_rows, d_hid @ weight_hh + dh_t * z)
        else:
            d_pre = dh_t * (1 - cell * cell) if mode == "RNN_TANH" else \
                dh_t * (cell > 0).to(cell.dtype)
            copy_into(d_in, d_pre)
            copy_into(dh_rows, d_in @ weight_hh)
    # the weight gradients of all steps at once: inactive rows contribute zeros
    flat_hidden = d_hidden.reshape(time * batch, gates)
    grads: list[Any] = [d_input, dh, dc, None, None, None]
    if output_mask[3]:
        grads[3] = flat_hidden.T @ workspace.narrow(2, 0, width).reshape(time * batch, width)
    if output_mask[4]:
        grads[4] = flat_hidden.sum(0)
    if output_mask[5] and d_h_all is not None:
        unprojected = workspace.narrow(2, width + 6 * hidden, hidden).reshape(time * batch,
                                                                                hidden)
        grads[5] = d_h_all.reshape(time * batch, width).T @ unprojected
    return tuple(g if g is not None and output_mask[k] else None for k, g in enumerate(grads))


KERNELS = {"_rnn_layer": rnn_layer, "_rnn_layer_backward": rnn_layer_backward}
