"""``Graph``: a recorded program (inputs, op nodes in call order, outputs) that replays itself."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from volta.dispatch.dispatcher import DISPATCHER
from volta.errors import TraceFormatError, VoltaError
from volta.jit import serialization
from volta.jit.ir import OpNode, Value, decode_arg, show_arg
from volta.tensor.tensor import Tensor


@dataclass
class Graph:
    """A recorded program: inputs, op nodes in call order, outputs.

    Call it with tensors of the recorded shapes to replay it (on any device: constants follow
    the inputs). ``save``/``load`` write and read the JSON file format of
    ``docs/trace_format.md``; loading validates the whole file before building anything.
    """

    inputs: list[Value] = field(default_factory=list)
    nodes: list[OpNode] = field(default_factory=list)
    outputs: Any = None  # structure of {"ref": id} / {"const": id} / literals
    constants: dict[int, Tensor] = field(default_factory=dict)  # id -> Tensor

    # -- replay ----------------------------------------------------------------------------------

    def __call__(self, *inputs: Any) -> Any:
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
            args = [decode_arg(a, env, constants) for a in node.args]
            result = handle(*args)
            results = result if node.output_is_tuple else (result,)
            for value, r in zip(node.outputs, results):
                env[value.id] = r
        return decode_arg(self.outputs, env, constants)

    # -- printing --------------------------------------------------------------------------------

    def __str__(self) -> str:
        lines = ["graph(" + ", ".join(f"%{v.id}: {v.describe()}" for v in self.inputs) + "):"]
        for node in self.nodes:
            outs = ", ".join(f"%{v.id}" for v in node.outputs) or "_"
            args = ", ".join(show_arg(a) for a in node.args)
            types = "; ".join(v.describe() for v in node.outputs)
            lines.append(f"  {outs} = {node.op}({args})" + (f"  # {types}" if types else ""))
        lines.append(f"  return {show_arg(self.outputs)}")
        return "\n".join(lines)

    __repr__ = __str__

    # -- files -----------------------------------------------------------------------------------

    def to_json(self) -> str:
        """This graph as the text of a graph file (format ``volta-graph``, version 1)."""
        return serialization.encode(self)

    @staticmethod
    def from_json(source: str | bytes, max_bytes: int = serialization.MAX_BYTES) -> Graph:
        """Read a graph file's text (``str`` or UTF-8 ``bytes``), validating all of it first.

        Raises ``TraceFormatError`` (a ``SerializationError``) naming the faulty field for any
        malformed, oversized, too deeply nested or unknown-version input; runs no op.
        """
        parts = serialization.decode(source, max_bytes)
        return Graph(parts.inputs, parts.nodes, parts.outputs, parts.constants)

    def save(self, path: str | Path) -> None:
        """Write this graph to ``path`` as JSON (atomically: a temporary file, then a rename)."""
        path = Path(path)
        tmp = path.with_suffix(path.suffix + ".tmp")
        tmp.write_text(self.to_json(), encoding="utf-8")
        tmp.replace(path)

    @staticmethod
    def load(path: str | Path, max_bytes: int = serialization.MAX_BYTES) -> Graph:
        """Read a file written by ``save``; the file is untrusted input (see ``from_json``)."""
        path = Path(path)
        size = path.stat().st_size
        if size > max_bytes:
            raise TraceFormatError(f"graph file {path} is {size} bytes, more than the limit of "
                                   f"{max_bytes}")
        return Graph.from_json(path.read_bytes(), max_bytes)
