"""The graph IR's building blocks: values, op nodes and the encoding of op arguments.

An op argument is stored as plain JSON-compatible data, so the in-memory graph and the file
format (``volta/jit/serialization.py``) share one encoding:

* a tensor produced inside the graph or passed in: ``{"ref": id}``
* a tensor captured from outside the traced function: ``{"const": id}``
* a dtype: ``{"dtype": name}``; a memory format: ``{"memory_format": name}``
* a Python tuple: ``{"tuple": [...]}``; a list: ``[...]``
* ``None``, bools, ints, floats and strings as themselves.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from volta import dtypes as D
from volta.memory_format import BY_NAME as MEMORY_FORMATS


@dataclass
class Value:
    """A tensor flowing through the graph: its id and the metadata it had when traced."""

    id: int
    shape: tuple[int, ...]
    dtype: str
    device: str

    def describe(self) -> str:
        return f"{self.dtype}{list(self.shape)} {self.device}"


@dataclass
class OpNode:
    """One op call: the op's schema name, its encoded arguments (every schema argument, in
    schema order) and the values it returned."""

    op: str
    args: list[Any]
    outputs: list[Value]
    output_is_tuple: bool


def show_arg(a: Any) -> str:
    """An encoded argument as it reads in a printed graph."""
    if isinstance(a, dict):
        if "ref" in a:
            return f"%{a['ref']}"
        if "const" in a:
            return f"$const{a['const']}"
        if "dtype" in a:
            return f"volta.{a['dtype']}"
        if "memory_format" in a:
            return f"volta.{a['memory_format']}"
        if "tuple" in a:
            items = [show_arg(x) for x in a["tuple"]]
            return "(" + ", ".join(items) + ("," if len(items) == 1 else "") + ")"
    if isinstance(a, list):
        return "[" + ", ".join(show_arg(x) for x in a) + "]"
    return repr(a)


def decode_arg(a: Any, env: dict[int, Any], constants: dict[int, Any]) -> Any:
    """An encoded argument as the op receives it, with references looked up in ``env``."""
    if isinstance(a, dict):
        if "ref" in a:
            return env[a["ref"]]
        if "const" in a:
            return constants[a["const"]]
        if "dtype" in a:
            return D.as_dtype(a["dtype"])
        if "memory_format" in a:
            return MEMORY_FORMATS[a["memory_format"]]
        if "tuple" in a:
            return tuple(decode_arg(x, env, constants) for x in a["tuple"])
    if isinstance(a, list):
        return [decode_arg(x, env, constants) for x in a]
    return a
