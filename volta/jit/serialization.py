"""The graph file format: JSON written by ``Graph.save``, validated in full by ``Graph.load``.

A graph file is untrusted input. Reading one goes in two phases:

1. **validate**: size, nesting depth and every number are bounded before or while the text is
   parsed (no recursion limit, no huge integers), then every field is checked against the
   format and every node against its op's schema (arity, the type of each argument, references
   only to values defined earlier, dtype names, constant shapes against their data);
2. **build**: only then are the ``Value``/``OpNode`` records and the constant tensors created.

Nothing in a file is executed while it loads: no op runs, nothing is unpickled or evaluated.
Every fault raises :class:`volta.errors.TraceFormatError` naming the field (``nodes[3].args[1]``).
``docs/trace_format.md`` describes the format.
"""

from __future__ import annotations

import json
import math
import re
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import numpy as np

from volta import dtypes as D
from volta.dispatch.dispatcher import DISPATCHER
from volta.errors import TraceFormatError
from volta.jit.ir import OpNode, Value
from volta.memory_format import BY_NAME as MEMORY_FORMATS
from volta.tensor.factories import from_numpy
from volta.tensor.tensor import Tensor, host_array

if TYPE_CHECKING:
    from volta.jit.graph import Graph
    from volta.schema import Argument, FunctionSchema

FORMAT = "volta-graph"
FORMAT_VERSION = 1
MAX_BYTES = 1 << 30  # a graph with its constants; a larger file is refused before parsing
MAX_DEPTH = 64  # JSON nesting: far above what any graph needs, far below Python's recursion limit
MAX_NDIM = 32
_INT_MIN, _INT_MAX = -(2 ** 63), 2 ** 63 - 1  # every integer in a file fits int64
_DTYPES = {d.name: d for d in D.ALL_DTYPES}
_VALUE_KEYS = {"id", "shape", "dtype", "device"}
_NODE_KEYS = {"op", "args", "outputs", "output_is_tuple"}
_TOP_KEYS = {"format", "version", "inputs", "nodes", "outputs", "constants"}
_CONSTANT_KEYS = {"dtype", "shape", "data"}
# strings and brackets: brackets inside strings do not nest
_NESTING_TOKEN = re.compile(r'"(?:[^"\\]|\\.)*"|[\[\]{}]')


@dataclass
class DecodedGraph:
    """The parts of a validated graph file, ready to become a ``Graph``."""

    inputs: list[Value]
    nodes: list[OpNode]
    outputs: Any
    constants: dict[int, Tensor]


# -- writing -------------------------------------------------------------------------------------


def encode(graph: Graph) -> str:
    """``graph`` as the text of a version-``FORMAT_VERSION`` graph file."""
    constants = {}
    for cid, c in graph.constants.items():
        data = host_array(c)
        if c.dtype is D.bfloat16:  # JSON numbers are doubles; bfloat16 converts exactly
            data = data.astype(np.float64)
        constants[str(cid)] = {"dtype": c.dtype.name, "shape": list(c.shape),
                               "data": data.tolist()}
    return json.dumps({
        "format": FORMAT, "version": FORMAT_VERSION,
        "inputs": [_value_json(v) for v in graph.inputs],
        "nodes": [{"op": n.op, "args": n.args, "outputs": [_value_json(v) for v in n.outputs],
                   "output_is_tuple": n.output_is_tuple} for n in graph.nodes],
        "outputs": graph.outputs,
        "constants": constants,
    })


def _value_json(v: Value) -> dict[str, Any]:
    return {"id": v.id, "shape": list(v.shape), "dtype": v.dtype, "device": v.device}


# -- reading: bounded parse ----------------------------------------------------------------------


def decode(source: str | bytes, max_bytes: int = MAX_BYTES) -> DecodedGraph:
    """Validate a graph file's text in full, then build its parts; raise ``TraceFormatError``."""
    if isinstance(source, (bytes, bytearray)):
        if len(source) > max_bytes:
            raise TraceFormatError(f"graph file is {len(source)} bytes, more than the limit of "
                                   f"{max_bytes}")
        try:
            text = bytes(source).decode("utf-8")
        except UnicodeDecodeError as exc:
            raise TraceFormatError(f"graph file is not UTF-8 text: {exc}") from None
    elif isinstance(source, str):
        text = source
        if len(text) > max_bytes:
            raise TraceFormatError(f"graph file is {len(text)} characters, more than the limit "
                                   f"of {max_bytes}")
    else:
        raise TraceFormatError(f"a graph file is str or bytes, got {type(source).__name__}")
    data = _parse(text)
    return _Validator(data).run()


def _parse(text: str) -> Any:
    depth = 0
    for match in _NESTING_TOKEN.finditer(text):
        token = match.group()
        if token in "[{":
            depth += 1
            if depth > MAX_DEPTH:
                raise TraceFormatError(f"graph file nests deeper than {MAX_DEPTH} levels "
                                       f"(at character {match.start()})")
        elif token in "]}":
            depth -= 1
    try:
        return json.loads(text, parse_int=_parse_int, parse_float=_parse_float,
                          parse_constant=_parse_constant, object_pairs_hook=_object)
    except json.JSONDecodeError as exc:
        raise TraceFormatError(f"graph file is not valid JSON: {exc}") from None


def _parse_int(text: str) -> int:
    # the length check comes first: int() of thousands of digits is slow (and then refused)
    if len(text.lstrip("-")) > 19 or not _INT_MIN <= int(text) <= _INT_MAX:
        raise TraceFormatError(f"integer {text[:40]}{'...' if len(text) > 40 else ''} does not "
                               "fit in 64 bits")
    return int(text)


def _parse_float(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):  # 1e400: out of range (infinities are written "Infinity")
        raise TraceFormatError(f"number {text[:40]} is out of range for a double")
    return value


def _parse_constant(text: str) -> float:
    return float(text)  # json only passes "NaN", "Infinity" and "-Infinity" here


def _object(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    obj: dict[str, Any] = {}
    for key, value in pairs:
        if key in obj:
            raise TraceFormatError(f"graph file repeats the key {key[:40]!r} in one object")
        obj[key] = value
    return obj


# -- reading: validation -------------------------------------------------------------------------


def _is_int(x: Any) -> bool:
    return isinstance(x, int) and not isinstance(x, bool)


def _is_number(x: Any) -> bool:
    return isinstance(x, (int, float)) and not isinstance(x, bool)


class _Validator:
    """Checks a parsed file against the format; builds nothing until everything passed."""

    def __init__(self, data: Any) -> None:
        self.data = data
        self.defined: set[int] = set()  # inputs and node outputs seen so far
        self.constant_ids: set[int] = set()
        self.all_ids: set[int] = set()

    def fail(self, where: str, message: str) -> TraceFormatError:
        return TraceFormatError(f"graph file: {where}: {message}")

    def run(self) -> DecodedGraph:
        data = self.data
        if not isinstance(data, dict) or data.get("format") != FORMAT:
            raise TraceFormatError(f"not a volta graph file (expected a JSON object with "
                                   f"\"format\": \"{FORMAT}\")")
        if "version" not in data:
            raise TraceFormatError(f"graph file has no \"version\" field (this volta reads "
                                   f"version {FORMAT_VERSION})")
        version = data["version"]
        if not _is_int(version) or version != FORMAT_VERSION:
            raise TraceFormatError(f"graph file format version {version!r} is not supported "
                                   f"(this volta reads version {FORMAT_VERSION})")
        self.keys(data, _TOP_KEYS, "the file")
        constants = self.constants(data["constants"])
        inputs = self.values(data["inputs"], "inputs")
        self.defined.update(v["id"] for v in inputs)
        nodes = self.list_of(data["nodes"], "nodes")
        for i, node in enumerate(nodes):
            self.node(node, f"nodes[{i}]")
        self.structure(data["outputs"], "outputs")
        return self.build(inputs, nodes, data["outputs"], constants)

    # structure checks

    def keys(self, obj: Any, expected: set[str], where: str) -> None:
        if not isinstance(obj, dict):
            raise self.fail(where, f"expected an object, got {_kind(obj)}")
        missing, extra = expected - obj.keys(), obj.keys() - expected
        if missing:
            raise self.fail(where, f"missing field(s) {', '.join(sorted(missing))}")
        if extra:
            raise self.fail(where, f"unknown field(s) {', '.join(sorted(extra))}")

    def list_of(self, obj: Any, where: str) -> list[Any]:
        if not isinstance(obj, list):
            raise self.fail(where, f"expected a list, got {_kind(obj)}")
        return obj

    def shape(self, obj: Any, where: str) -> list[int]:
        dims = self.list_of(obj, where)
        if len(dims) > MAX_NDIM or not all(_is_int(d) and d >= 0 for d in dims):
            raise self.fail(where, f"a shape is a list of at most {MAX_NDIM} non-negative "
                                   f"integers, got {obj!r}"[:200])
        return dims

    def dtype(self, obj: Any, where: str) -> str:
        if not isinstance(obj, str) or obj not in _DTYPES:
            raise self.fail(where, f"unknown dtype {obj!r}; known: {', '.join(_DTYPES)}"[:200])
        return obj

    def new_id(self, obj: Any, where: str) -> int:
        if not _is_int(obj) or obj < 0:
            raise self.fail(where, f"an id is a non-negative integer, got {obj!r}")
        if obj in self.all_ids:
            raise self.fail(where, f"id {obj} is defined twice")
        self.all_ids.add(obj)
        return obj

    def values(self, obj: Any, where: str) -> list[dict[str, Any]]:
        values = self.list_of(obj, where)
        for i, v in enumerate(values):
            at = f"{where}[{i}]"
            self.keys(v, _VALUE_KEYS, at)
            self.new_id(v["id"], f"{at}.id")
            self.shape(v["shape"], f"{at}.shape")
            self.dtype(v["dtype"], f"{at}.dtype")
            if not isinstance(v["device"], str) or not v["device"]:
                raise self.fail(f"{at}.device", f"expected a device name, got {v['device']!r}")
        return values

    # constants

    def constants(self, obj: Any) -> dict[int, np.ndarray]:
        if not isinstance(obj, dict):
            raise self.fail("constants", f"expected an object, got {_kind(obj)}")
        arrays = {}
        for key, c in obj.items():
            at = f"constants[{key!r}]"
            if not key.isdigit() or str(int(key)) != key:
                raise self.fail(at, "a constant's key is its id, a decimal integer")
            cid = self.new_id(_parse_int(key), at)
            self.keys(c, _CONSTANT_KEYS, at)
            name = self.dtype(c["dtype"], f"{at}.dtype")
            shape = self.shape(c["shape"], f"{at}.shape")
            flat: list[Any] = []
            self.nested_data(c["data"], shape, 0, flat, f"{at}.data")
            arrays[cid] = self.array(flat, _DTYPES[name], shape, f"{at}.data")
            self.constant_ids.add(cid)
        return arrays

    def nested_data(self, data: Any, shape: list[int], dim: int, flat: list[Any],
                    where: str) -> None:
        # recursion is bounded by MAX_NDIM (and by MAX_DEPTH before parsing)
        if dim == len(shape):
            if isinstance(data, (list, dict)) or data is None or isinstance(data, str):
                raise self.fail(where, f"expected a number at depth {dim} (shape {shape}), got "
                                       f"{_kind(data)}")
            flat.append(data)
            return
        if not isinstance(data, list) or len(data) != shape[dim]:
            raise self.fail(where, f"data does not match shape {shape}: expected a list of "
                                   f"{shape[dim]} at depth {dim}, got {_kind(data)}")
        for item in data:
            self.nested_data(item, shape, dim + 1, flat, where)

    def array(self, flat: list[Any], dt: D.dtype, shape: list[int], where: str) -> np.ndarray:
        if dt is D.bool_:
            ok = all(isinstance(x, bool) for x in flat)
            kind = "booleans"
        elif dt.is_floating_point:
            limit = D.finfo(dt).max
            ok = all(_is_number(x) and (not math.isfinite(x) or abs(x) <= limit) for x in flat)
            kind = f"numbers within {dt.name}'s range"
        else:
            info = D.iinfo(dt)
            ok = all(_is_int(x) and info.min <= x <= info.max for x in flat)
            kind = f"integers within {dt.name}'s range"
        if not ok:
            raise self.fail(where, f"a {dt.name} constant holds {kind}")
        return np.array(flat, dtype=dt.numpy).reshape(shape)

    # nodes

    def node(self, node: Any, where: str) -> None:
        self.keys(node, _NODE_KEYS, where)
        name = node["op"]
        if not isinstance(name, str) or name not in DISPATCHER.ops:
            raise self.fail(f"{where}.op", f"unknown operator {name!r}"[:200])
        schema = DISPATCHER.ops[name].schema
        args = self.list_of(node["args"], f"{where}.args")
        if len(args) != len(schema.arguments):
            raise self.fail(f"{where}.args", f"{name} takes {len(schema.arguments)} arguments "
                                             f"({schema}), got {len(args)}")
        numbers_as_tensors = _takes_wrapped_numbers(name)
        for i, (value, arg) in enumerate(zip(args, schema.arguments)):
            self.argument(value, arg, numbers_as_tensors, f"{where}.args[{i}] ({name}: {arg})")
        self.node_outputs(node, schema, where)

    def node_outputs(self, node: dict[str, Any], schema: FunctionSchema, where: str) -> None:
        returns = schema.returns
        if not all(r.type.base == "Tensor" and not r.type.optional for r in returns):
            raise self.fail(f"{where}.op", f"{schema.name} does not return tensors, so it "
                                           "cannot be a graph node")
        is_list = len(returns) == 1 and returns[0].type.is_list
        expect_tuple = schema.returns_tuple or is_list
        if node["output_is_tuple"] is not expect_tuple:
            raise self.fail(f"{where}.output_is_tuple", f"must be {str(expect_tuple).lower()} "
                                                        f"for {schema.name}")
        outputs = self.values(node["outputs"], f"{where}.outputs")
        if not is_list and len(outputs) != len(returns):
            raise self.fail(f"{where}.outputs", f"{schema.name} returns {len(returns)} "
                                                f"tensor(s), got {len(outputs)}")
        self.defined.update(v["id"] for v in outputs)

    def argument(self, value: Any, arg: Argument, numbers_as_tensors: bool, where: str) -> None:
        typ = arg.type
        if value is None:
            if not typ.optional:
                raise self.fail(where, "null for an argument that is not optional")
            return
        if not typ.is_list:
            if typ.base == "Tensor" and numbers_as_tensors and isinstance(value, (int, float)):
                return  # a wrapped number, as in ``x + 1``
            self.scalar(value, typ.base, where)
            return
        if isinstance(value, dict):
            self.keys(value, {"tuple"}, where)
            value = value["tuple"]
        for item in self.list_of(value, where):
            if item is None and typ.elem_optional:
                continue
            self.scalar(item, typ.base, where)

    def scalar(self, value: Any, base: str, where: str) -> None:
        if base == "Tensor":
            self.reference(value, where)
        elif base in ("int", "SymInt"):
            self.expect(_is_int(value), value, "an integer", where)
        elif base == "float":
            self.expect(_is_number(value), value, "a number", where)
        elif base == "bool":
            self.expect(isinstance(value, bool), value, "true or false", where)
        elif base == "Scalar":
            self.expect(isinstance(value, (bool, int, float)), value, "a number", where)
        elif base in ("str", "Device"):
            self.expect(isinstance(value, str), value, "a string", where)
        elif base == "ScalarType":
            self.keys(value, {"dtype"}, where)
            self.dtype(value["dtype"], where)
        elif base == "MemoryFormat":
            self.keys(value, {"memory_format"}, where)
            name = value["memory_format"]
            if not isinstance(name, str) or name not in MEMORY_FORMATS:
                raise self.fail(where, f"unknown memory format {_kind(name)}; expected one of "
                                       f"{', '.join(sorted(MEMORY_FORMATS))}")
        else:  # Generator, Layout: tracing records only their default, null
            raise self.fail(where, f"a {base} argument can only be null in a graph file")

    def expect(self, ok: bool, value: Any, what: str, where: str) -> None:
        if not ok:
            raise self.fail(where, f"expected {what}, got {_kind(value)}")

    def reference(self, value: Any, where: str) -> None:
        if isinstance(value, dict) and len(value) == 1 and "ref" in value:
            ref = value["ref"]
            if not _is_int(ref) or ref not in self.defined:
                raise self.fail(where, f"%{ref} is used before it is defined"[:200])
        elif isinstance(value, dict) and len(value) == 1 and "const" in value:
            if not _is_int(value["const"]) or value["const"] not in self.constant_ids:
                raise self.fail(where, f"unknown constant {value['const']!r}"[:200])
        else:
            raise self.fail(where, f"expected a tensor ({{\"ref\": id}} or {{\"const\": id}}), "
                                   f"got {_kind(value)}")

    def structure(self, value: Any, where: str) -> None:
        """The returned structure: tensors, tuples, lists, dtypes and plain literals."""
        pending = [(value, where)]
        while pending:
            item, at = pending.pop()
            if isinstance(item, list):
                pending.extend((x, f"{at}[{i}]") for i, x in enumerate(item))
            elif isinstance(item, dict) and "tuple" in item:
                self.keys(item, {"tuple"}, at)
                pending.extend((x, f"{at}[{i}]")
                               for i, x in enumerate(self.list_of(item["tuple"], at)))
            elif isinstance(item, dict) and "dtype" in item:
                self.keys(item, {"dtype"}, at)
                self.dtype(item["dtype"], at)
            elif isinstance(item, dict):
                self.reference(item, at)

    # building: only after every check passed

    def build(self, inputs: list[dict[str, Any]], nodes: list[dict[str, Any]], outputs: Any,
              arrays: dict[int, np.ndarray]) -> DecodedGraph:
        return DecodedGraph(
            inputs=[_value(v) for v in inputs],
            nodes=[OpNode(n["op"], n["args"], [_value(v) for v in n["outputs"]],
                          n["output_is_tuple"]) for n in nodes],
            outputs=outputs,
            constants={cid: from_numpy(a) for cid, a in arrays.items()},
        )


def _takes_wrapped_numbers(name: str) -> bool:
    """Pointwise ops (and their in-place variants) take Python numbers for Tensor arguments,
    as the Python binding passes them (``x + 1``); every other op only takes tensors."""
    base, dot, overload = name.partition(".")
    functional = base[:-1] + dot + overload if base.endswith("_") else name
    op = DISPATCHER.ops.get(functional)
    return op is not None and "pointwise" in op.tags


def _value(v: dict[str, Any]) -> Value:
    return Value(v["id"], tuple(v["shape"]), v["dtype"], v["device"])


def _kind(x: Any) -> str:
    if x is None:
        return "null"
    if isinstance(x, bool):
        return "a boolean"
    if isinstance(x, (int, float)):
        return f"the number {x!r}"[:60]
    if isinstance(x, str):
        return f"the string {x[:40]!r}"
    if isinstance(x, list):
        return f"a list of {len(x)}"
    return f"an object with keys {sorted(x)[:6]}"
