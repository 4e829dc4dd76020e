"""``volta.trace``: record every op call through the Tracing key into a replayable graph.

While a trace runs, Tracing is in this thread's included key set, so every op reaches the
Tracing fallback first; it records the call (op, tensor arguments by reference, constants,
outputs with shape/dtype/device) and redispatches below itself. Ops that kernels call
internally are not recorded (Tracing is excluded during the redispatch). Backward ops run by
``loss.backward()`` inside the traced function are recorded too, since the engine dispatches
them like any other call.
"""

from __future__ import annotations

import json
import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from volta import dtypes as D
from volta.dispatch.dispatcher import DISPATCHER, OperatorHandle
from volta.dispatch.keys import Tracing
from volta.dispatch.local_state import include_keys
from volta.errors import SerializationError, VoltaError


@dataclass
class Value:
    id: int
    shape: tuple[int, ...]
    dtype: str
    device: str

    def describe(self) -> str:
        return f"{self.dtype}{list(self.shape)} {self.device}"


@dataclass
class OpNode:
    op: str
    args: list[Any]  # encoded: {"ref": id}, {"const": id}, literals, {"dtype": name}, lists
    outputs: list[Value]
    output_is_tuple: bool


@dataclass
class Graph:
    """A recorded program: inputs, op nodes in call order, outputs."""

    inputs: list[Value] = field(default_factory=list)
    nodes: list[OpNode] = field(default_factory=list)
    outputs: Any = None  # structure of {"ref": id} / {"const": id} / literals
    constants: dict[int, Any] = field(default_factory=dict)  # id -> Tensor

    # -- replay ----------------------------------------------------------------------------------

    def __call__(self, *inputs: Any) -> Any:
        from volta.tensor.tensor import Tensor
        if len(inputs) != len(self.inputs):
            raise VoltaError(f"graph takes {len(self.inputs)} inputs, got {len(inputs)}")
        env: dict[int, Any] = {}
        dev = None
        for value, t in zip(self.inputs, inputs):
            if not isinstance(t, Tensor):
                raise VoltaError(f"graph input {value.id} must be a Tensor")
            if tuple(t.shape) != value.shape:
                raise VoltaError(f"graph input %{value.id} expects shape {list(value.shape)}, got "
                                 f"{list(t.shape)}")
            env[value.id] = t
            dev = dev or t.device
        constants = {cid: (c.to(dev) if dev is not None and c.device != dev else c)
                     for cid, c in self.constants.items()}
        for node in self.nodes:
            handle = DISPATCHER.find(node.op)
            args = [_decode(a, env, constants) for a in node.args]
            result = handle(*args)
            results = result if node.output_is_tuple else (result,)
            for value, r in zip(node.outputs, results):
                env[value.id] = r
        return _decode(self.outputs, env, constants)

    # -- printing --------------------------------------------------------------------------------

    def __str__(self) -> str:
        lines = ["graph(" + ", ".join(f"%{v.id}: {v.describe()}" for v in self.inputs) + "):"]
        for node in self.nodes:
            outs = ", ".join(f"%{v.id}" for v in node.outputs) or "_"
            args = ", ".join(_show(a) for a in node.args)
            types = "; ".join(v.describe() for v in node.outputs)
            lines.append(f"  {outs} = {node.op}({args})" + (f"  # {types}" if types else ""))
        lines.append(f"  return {_show(self.outputs)}")
        return "\n".join(lines)

    __repr__ = __str__

    # -- JSON ------------------------------------------------------------------------------------

    def to_json(self) -> str:
        from volta.tensor.tensor import host_array
        data = {
            "format": "volta-graph", "version": 1,
            "inputs": [v.__dict__ for v in self.inputs],
            "nodes": [{"op": n.op, "args": n.args, "outputs": [v.__dict__ for v in n.outputs],
                       "output_is_tuple": n.output_is_tuple} for n in self.nodes],
            "outputs": self.outputs,
            "constants": {str(cid): {"dtype": c.dtype.name, "shape": list(c.shape),
                                     "data": host_array(c).astype(np.float64).tolist()
                                     if c.dtype.name == "bfloat16" else host_array(c).tolist()}
                          for cid, c in self.constants.items()},
        }
        return json.dumps(data)

    def save(self, path: str | Path) -> None:
        path = Path(path)
        tmp = path.with_suffix(path.suffix + ".tmp")
        tmp.write_text(self.to_json())
        tmp.replace(path)

    @staticmethod
    def from_json(text: str) -> Graph:
        from volta.errors import NoKernelError
        from volta.tensor.factories import tensor
        try:
            data = json.loads(text)
            if not isinstance(data, dict) or data.get("format") != "volta-graph":
                raise SerializationError("not a volta graph (expected a JSON object with "
                                         "\"format\": \"volta-graph\")")
            g = Graph()
            g.inputs = [Value(v["id"], tuple(v["shape"]), v["dtype"], v["device"])
                        for v in data["inputs"]]
            for cid, c in data["constants"].items():
                g.constants[int(cid)] = tensor(np.asarray(c["data"]).reshape(c["shape"]),
                                               dtype=D.as_dtype(c["dtype"]))
            # every reference must name an input or an earlier output: check before replay
            defined = {v.id for v in g.inputs}
            for n in data["nodes"]:
                DISPATCHER.find(n["op"])
                _check_refs(n["args"], defined, g.constants, n["op"])
                outputs = [Value(v["id"], tuple(v["shape"]), v["dtype"], v["device"])
                           for v in n["outputs"]]
                g.nodes.append(OpNode(n["op"], n["args"], outputs, bool(n["output_is_tuple"])))
                defined |= {v.id for v in outputs}
            _check_refs(data["outputs"], defined, g.constants, "return")
            g.outputs = data["outputs"]
            return g
        except SerializationError:
            raise
        except (KeyError, TypeError, ValueError, AttributeError, NoKernelError) as exc:
            raise SerializationError(f"malformed graph JSON: {exc}") from exc

    @staticmethod
    def load(path: str | Path) -> Graph:
        return Graph.from_json(Path(path).read_text())


def _check_refs(a: Any, defined: set[int], constants: dict, where: str) -> None:
    if isinstance(a, dict):
        if "ref" in a and a["ref"] not in defined:
            raise SerializationError(f"graph JSON: {where} uses %{a['ref']} before it is defined")
        if "const" in a and a["const"] not in constants:
            raise SerializationError(f"graph JSON: {where} uses unknown constant {a['const']}")
        for v in a.get("tuple", ()):
            _check_refs(v, defined, constants, where)
    elif isinstance(a, list):
        for v in a:
            _check_refs(v, defined, constants, where)


def _show(a: Any) -> str:
    if isinstance(a, dict):
        if "ref" in a:
            return f"%{a['ref']}"
        if "const" in a:
            return f"$const{a['const']}"
        if "dtype" in a:
            return f"volta.{a['dtype']}"
        if "tuple" in a:
            items = [_show(x) for x in a["tuple"]]
            return "(" + ", ".join(items) + ("," if len(items) == 1 else "") + ")"
    if isinstance(a, list):
        return "[" + ", ".join(_show(x) for x in a) + "]"
    return repr(a)


def _decode(a: Any, env: dict, constants: dict) -> Any:
    if isinstance(a, dict):
        if "ref" in a:
            return env[a["ref"]]
        if "const" in a:
            return constants[a["const"]]
        if "dtype" in a:
            return D.as_dtype(a["dtype"])
        if "tuple" in a:
            return tuple(_decode(x, env, constants) for x in a["tuple"])
    if isinstance(a, list):
        return [_decode(x, env, constants) for x in a]
    return a


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
        from volta.tensor.tensor import Tensor
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
    from volta.tensor.tensor import Tensor
    encoded = [recorder.encode(a) for a in args]
    is_tuple = isinstance(result, (tuple, list))
    outs = result if is_tuple else (result,)
    values = [recorder.new_value(o) for o in outs if isinstance(o, Tensor)]
    if len(values) == len(outs):
        recorder.graph.nodes.append(OpNode(op.name, encoded, values, is_tuple))
    return result


def trace(fn: Callable[..., Any], *example_inputs: Any) -> Graph:
    """Run ``fn(*example_inputs)`` once and return the graph of every op it called."""
    from volta.tensor.tensor import Tensor
    if _state.recorder is not None:
        raise VoltaError("volta.trace cannot be nested")
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
    DISPATCHER.register_fallback(Tracing, _tracing_fallback, "volta.tracing")
