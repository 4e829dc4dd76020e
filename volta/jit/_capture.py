"""``volta.jit.trace``: record every op call through the Tracing key into a replayable graph.

While a trace runs, Tracing is in this thread's included key set, so every op reaches the
Tracing fallback first; it records the call (op, tensor arguments by reference, constants,
outputs with shape/dtype/device) and redispatches below itself. Ops that kernels call
internally are not recorded (Tracing is excluded during the redispatch). Backward ops run by
``loss.backward()`` inside the traced function are recorded too, since the engine dispatches
them like any other call.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any

import numpy as np

from volta import dtypes as D
from volta.dispatch.dispatcher import DISPATCHER, OperatorHandle
from volta.dispatch.keys import Tracing
from volta.dispatch.local_state import include_keys
from volta.errors import VoltaError
from volta.jit.graph import Graph
from volta.jit.ir import OpNode, Value
from volta.memory_format import memory_format
from volta.tensor.tensor import Tensor


class _Recorder:
    def __init__(self) -> None:
        self.graph = Graph()
        self.ids: dict[int, int] = {}  # id(tensor) -> value id
        # (storage, offset, shape, strides) -> value id: a detached alias that autograd saved
        # internally is the same value as the recorded tensor it aliases
        self.by_layout: dict[tuple, int] = {}
        self.keep: list[Any] = []  # keeps recorded tensors alive so ids stay unique
        self.next_id = 0

    @staticmethod
    def _layout(t: Any) -> tuple:
        return (id(t._storage), t._offset, t._shape, t._stride, t.dtype.name)

    def new_value(self, t: Any) -> Value:
        vid = self.next_id
        self.next_id += 1
        self.ids[id(t)] = vid
        self.by_layout[self._layout(t)] = vid
        self.keep.append(t)
        return Value(vid, tuple(t.shape), t.dtype.name, str(t.device))

    def encode(self, a: Any) -> Any:
        if isinstance(a, Tensor):
            vid = self.ids.get(id(a))
            if vid is None:
                vid = self.by_layout.get(self._layout(a))
            if vid is not None:
                return {"const": vid} if vid in self.graph.constants else {"ref": vid}
            cid = self.next_id
            self.next_id += 1
            self.ids[id(a)] = cid
            self.keep.append(a)
            self.graph.constants[cid] = a
            return {"const": cid}
        if isinstance(a, D.dtype):
            return {"dtype": a.name}
        if isinstance(a, memory_format):
            return {"memory_format": a.name}
        if isinstance(a, tuple):
            return {"tuple": [self.encode(x) for x in a]}
        if isinstance(a, list):
            return [self.encode(x) for x in a]
        if isinstance(a, (np.integer, np.floating, np.bool_)):
            return a.item()
        if a is None or isinstance(a, (bool, int, float, str)):
            return a
        raise VoltaError(f"trace: cannot record an argument of type {type(a).__name__}")


class _State(threading.local):
    recorder: _Recorder | None = None


_state = _State()


def _tracing_fallback(op: OperatorHandle, keyset: int, args: tuple, kwargs: dict) -> Any:
    result = op.redispatch(Tracing, *args)
    recorder = _state.recorder
    if recorder is None:
        return result
    encoded = [recorder.encode(a) for a in args]
    is_tuple = isinstance(result, (tuple, list))
    outs = result if is_tuple else (result,)
    values = [recorder.new_value(o) for o in outs if isinstance(o, Tensor)]
    if len(values) == len(outs):
        recorder.graph.nodes.append(OpNode(op.name, encoded, values, is_tuple))
    return result


def trace(fn: Callable[..., Any], *example_inputs: Any) -> Graph:
    """Run ``fn(*example_inputs)`` once and return the graph of every op it called.

    Like ``torch.jit.trace``, the graph records one run: Python control flow is resolved by
    the example inputs, and tensors that ``fn`` reads from outside become constants.
    """
    if _state.recorder is not None:
        raise VoltaError("volta.jit.trace cannot be nested")
    recorder = _Recorder()
    for t in example_inputs:
        if not isinstance(t, Tensor):
            raise VoltaError("trace: example inputs must be tensors")
        recorder.graph.inputs.append(recorder.new_value(t))
    _state.recorder = recorder
    try:
        with include_keys(Tracing.mask):
            output = fn(*example_inputs)
    finally:
        _state.recorder = None
    recorder.graph.outputs = recorder.encode(output if not isinstance(output, list)
                                             else tuple(output))
    return recorder.graph


def register() -> None:
    DISPATCHER.register_fallback(Tracing, _tracing_fallback, "volta.jit")
