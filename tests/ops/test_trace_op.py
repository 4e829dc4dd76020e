"""``volta.trace`` is PyTorch's matrix trace (values and gradients are in the oracle tests);
here: the errors it shares with ``torch.trace``, and that graph capture is not under its name."""

from __future__ import annotations

import pytest
import torch

import volta


@pytest.mark.parametrize("shape", [(), (3,), (2, 2, 2)], ids=["0-d", "1-d", "3-d"])
def test_trace_rejects_non_matrices_like_torch(shape):
    with pytest.raises(RuntimeError, match="expected a matrix"):
        torch.trace(torch.ones(shape))
    with pytest.raises(volta.ShapeError, match=f"expected a matrix, but got tensor with dim "
                                               f"{len(shape)}"):
        volta.trace(volta.ones(shape))


def test_trace_rejects_bool_like_torch():
    with pytest.raises(NotImplementedError):
        torch.trace(torch.ones(2, 2, dtype=torch.bool))
    with pytest.raises(volta.DTypeError, match="Bool"):
        volta.ones(2, 2, dtype=volta.bool).trace()


@pytest.mark.parametrize("dtype", ["int8", "uint8", "int16", "int32", "int64"])
def test_integer_trace_is_int64(dtype):
    x = volta.arange(12).reshape(3, 4).to(getattr(volta, dtype))
    result = volta.trace(x)
    assert result.dtype is volta.int64 and result.item() == 0 + 5 + 10


def test_trace_is_the_op_and_capture_lives_in_jit():
    assert volta.trace is not volta.jit.trace
    assert volta.trace(volta.eye(3)).item() == 3.0
    graph = volta.jit.trace(lambda m: volta.trace(m) * 2, volta.eye(3))
    assert [n.op for n in graph.nodes] == ["trace", "mul"]
