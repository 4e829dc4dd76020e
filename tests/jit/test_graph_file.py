"""Graph files are untrusted input: ``Graph.load`` validates everything before building, runs no
op, and every malformed file raises exactly ``TraceFormatError`` naming the faulty field."""

from __future__ import annotations

import collections
import json
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import volta
from tests.jit.test_trace import CASES, assert_same_outputs, pointwise_chain
from volta.dispatch.dispatcher import OperatorHandle
from volta.jit import FORMAT_VERSION, Graph


class _OpCalls:
    """Counts op calls, to prove that loading a file runs none."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.count = 0
        original = OperatorHandle.__call__

        def counting(handle: OperatorHandle, *args: object) -> object:
            self.count += 1
            return original(handle, *args)

        monkeypatch.setattr(OperatorHandle, "__call__", counting)


def load_counting_ops(text: str | bytes, monkeypatch: pytest.MonkeyPatch) -> Graph:
    with monkeypatch.context() as patch:
        calls = _OpCalls(patch)
        try:
            return Graph.from_json(text)
        finally:
            assert calls.count == 0, "loading a graph file ran an op"


def _good() -> dict:
    return json.loads(volta.jit.trace(pointwise_chain, volta.randn(3)).to_json())


def _with_node(data: dict, index: int, **fields: object) -> dict:
    nodes = list(data["nodes"])
    nodes[index] = {**nodes[index], **fields}
    return {**data, "nodes": nodes}


# -- one test per fault class --------------------------------------------------------------------


def test_saved_file_carries_format_and_version(tmp_path):
    path = tmp_path / "g.json"
    volta.jit.trace(pointwise_chain, volta.randn(3)).save(path)
    data = json.loads(path.read_text())
    assert data["format"] == "volta-graph" and data["version"] == FORMAT_VERSION == 1


def _bad_documents() -> dict[str, tuple[str | bytes, str]]:
    good = _good()
    text = json.dumps(good)
    first = good["nodes"][0]  # sin(%0)
    mul = next(i for i, n in enumerate(good["nodes"]) if n["op"] == "mul")
    no_version = {k: v for k, v in good.items() if k != "version"}
    const = json.loads(volta.jit.trace(lambda t: t * volta.arange(3.0), volta.randn(3)).to_json())
    (cid, c), = const["constants"].items()
    return {
        "missing_version": (json.dumps(no_version), "no \"version\" field"),
        "future_version": (json.dumps({**good, "version": 2}), "version 2 is not supported"),
        "string_version": (json.dumps({**good, "version": "1"}), "version '1'"),
        "deep_nesting": ("[" * 100_000 + "]" * 100_000, "nests deeper than 64"),
        "deep_nesting_inside": (text.replace('"outputs": {', '"outputs": ' + "{\"a\": " * 70 + "{",
                                             1), "nests deeper"),
        "huge_integer": (text.replace('"version": 1', '"version": 1' + "0" * 400),
                         "does not fit in 64 bits"),
        "huge_float": (text.replace('"version": 1', '"version": 1e400'), "out of range"),
        "not_utf8": (b"\xff" + text.encode(), "not UTF-8"),
        "truncated": (text[: len(text) // 2], "not valid JSON"),
        "unknown_op": (json.dumps(_with_node(good, 0, op="no_such_op")),
                       "nodes[0].op: unknown operator 'no_such_op'"),
        "op_not_a_string": (json.dumps(_with_node(good, 0, op=["sin"])), "nodes[0].op"),
        "null_for_tensor": (json.dumps(_with_node(good, 0, args=[None])),
                            "nodes[0].args[0] (sin: Tensor self): null"),
        "missing_argument": (json.dumps(_with_node(good, mul, args=first["args"])),
                             f"nodes[{mul}].args: mul takes 2 arguments"),
        "extra_argument": (json.dumps(_with_node(good, 0, args=first["args"] * 2)),
                           "nodes[0].args: sin takes 1 arguments"),
        "dangling_reference": (json.dumps(_with_node(good, 0, args=[{"ref": 99}])),
                               "nodes[0].args[0] (sin: Tensor self): %99 is used before"),
        "forward_reference": (json.dumps(_with_node(good, 0, args=[{"ref": 2}])),
                              "%2 is used before it is defined"),
        "unknown_constant": (json.dumps(_with_node(good, 0, args=[{"const": 7}])),
                             "unknown constant 7"),
        "string_for_tensor": (json.dumps(_with_node(good, 0, args=["x"])),
                              "expected a tensor"),
        "bool_for_int": (json.dumps(_with_node(json.loads(json.dumps(const)), 0)),
                         None),  # placeholder replaced below
        "output_count": (json.dumps(_with_node(good, 0, outputs=[])),
                         "nodes[0].outputs: sin returns 1 tensor(s), got 0"),
        "output_is_tuple": (json.dumps(_with_node(good, 0, output_is_tuple=True)),
                            "nodes[0].output_is_tuple: must be false"),
        "duplicate_id": (json.dumps(_with_node(good, 1, outputs=first["outputs"])),
                         "id 1 is defined twice"),
        "bad_dtype_name": (json.dumps({**good, "inputs": [{**good["inputs"][0],
                                                           "dtype": "float128"}]}),
                           "inputs[0].dtype: unknown dtype 'float128'"),
        "negative_shape": (json.dumps({**good, "inputs": [{**good["inputs"][0],
                                                           "shape": [-3]}]}),
                           "inputs[0].shape"),
        "unknown_field": (json.dumps({**good, "extra": 1}), "unknown field(s) extra"),
        "missing_field": (json.dumps({k: v for k, v in good.items() if k != "nodes"}),
                          "missing field(s) nodes"),
        "repeated_key": (text.replace('"format": "volta-graph"',
                                      '"format": "volta-graph", "format": "volta-graph"'),
                         "repeats the key 'format'"),
        "constant_shape_vs_data": (json.dumps({**const, "constants": {
            cid: {**c, "shape": [4]}}}), f"constants['{cid}'].data: data does not match shape [4]"),
        "constant_bad_element": (json.dumps({**const, "constants": {
            cid: {**c, "data": [0.0, "1", 2.0]}}}), "expected a number"),
        "constant_int_out_of_range": (json.dumps({**const, "constants": {
            cid: {"dtype": "int8", "shape": [3], "data": [1, 300, 2]}}}),
            "int8 constant holds integers within int8's range"),
        "constant_float16_out_of_range": (json.dumps({**const, "constants": {
            cid: {**c, "dtype": "float16", "data": [1.0, 1e6, 2.0]}}}), "float16's range"),
        "return_dangling": (json.dumps({**good, "outputs": {"ref": 999}}), "outputs"),
        "not_an_object": ("[1, 2]", "not a volta graph file"),
        "wrong_format": (json.dumps({**good, "format": "onnx"}), "not a volta graph file"),
    }


_BAD = _bad_documents()
_MATMUL = json.loads(volta.jit.trace(lambda a: a @ a, volta.randn(2, 2)).to_json())
_MATMUL["nodes"][0]["args"][1] = 2.0  # only pointwise ops take wrapped numbers
_BAD["number_for_tensor"] = (json.dumps(_MATMUL), "nodes[0].args[1] (matmul: Tensor other): "
                                                  "expected a tensor")
_DIM_ARG = json.loads(volta.jit.trace(lambda t: t.sum(0), volta.randn(2, 3)).to_json())
_DIM_ARG["nodes"][0]["args"][2] = 1  # sum's keepdim (bool) given as an integer
_BAD["bool_for_int"] = (json.dumps(_DIM_ARG), "nodes[0].args[2] (sum: bool keepdim=False): "
                                              "expected true or false, got the number 1")


@pytest.mark.parametrize("name", sorted(_BAD))
def test_malformed_file_raises_trace_format_error_naming_the_field(name, monkeypatch):
    text, message = _BAD[name]
    with pytest.raises(volta.TraceFormatError) as info:
        load_counting_ops(text, monkeypatch)
    assert message in str(info.value), str(info.value)
    assert isinstance(info.value, volta.SerializationError)


def test_load_checks_the_file_size_before_reading(tmp_path):
    path = tmp_path / "g.json"
    volta.jit.trace(pointwise_chain, volta.randn(3)).save(path)
    with pytest.raises(volta.TraceFormatError, match="more than the limit of 100"):
        Graph.load(path, max_bytes=100)
    assert Graph.load(path).nodes


def test_special_float_constants_and_arguments_round_trip():
    inf_and_nan = volta.tensor([float("inf"), float("nan"), -1.0])
    graph = volta.jit.trace(lambda t: (t + inf_and_nan).clamp(max=float("inf")), volta.randn(3))
    x = volta.randn(3)
    assert_same_outputs(Graph.from_json(graph.to_json())(x), graph(x))


def test_all_dtypes_of_constants_round_trip():
    for dt in ("float32", "float64", "float16", "bfloat16", "int8", "uint8", "int16", "int32",
               "int64", "bool"):
        const = volta.tensor([[1, 0], [0, 1]]).to(getattr(volta, dt))
        graph = volta.jit.trace(lambda t, c=const: t * c, volta.randn(2, 2))
        loaded = Graph.from_json(graph.to_json().encode())  # bytes are accepted too
        assert loaded.constants[next(iter(loaded.constants))].dtype is const.dtype
        x = volta.randn(2, 2)
        assert_same_outputs(loaded(x), graph(x))


def _channels_last_clone(t):
    return (t * 2).clone(memory_format=volta.channels_last)


def test_memory_format_arguments_round_trip():
    graph = volta.jit.trace(_channels_last_clone, volta.randn(2, 3, 4, 5))
    text = graph.to_json()
    assert '{"memory_format": "channels_last"}' in text
    assert "volta.channels_last" in str(graph)
    x = volta.randn(2, 3, 4, 5)
    replayed = Graph.from_json(text)(x)
    assert replayed.stride() == _channels_last_clone(x).stride() == (60, 1, 15, 3)
    assert_same_outputs(replayed, graph(x))


@pytest.mark.parametrize(("value", "message"), [
    ({"memory_format": "channels_first"}, "unknown memory format the string 'channels_first'"),
    ({"memory_format": 3}, "unknown memory format the number 3"),
    ({"dtype": "float32"}, "missing field(s) memory_format"),
    ("channels_last", "expected an object"),
])
def test_malformed_memory_format_raises_trace_format_error(value, message, monkeypatch):
    data = json.loads(volta.jit.trace(_channels_last_clone, volta.randn(2, 3, 4, 5)).to_json())
    clone = next(i for i, node in enumerate(data["nodes"]) if node["op"] == "clone")
    bad = _with_node(data, clone, args=[data["nodes"][clone]["args"][0], value])
    with pytest.raises(volta.TraceFormatError) as info:
        load_counting_ops(json.dumps(bad), monkeypatch)
    assert message in str(info.value), str(info.value)


# -- fuzzing mutated files -----------------------------------------------------------------------

_FUZZ_CASES = ("pointwise_chain", "reductions", "conv_relu_pool", "multiple_outputs",
               "constant_inside", "cross_entropy", "concat_and_where")


def _base(name: str) -> tuple[dict, tuple, object]:
    fn, make = CASES[name]
    volta.manual_seed(len(name))
    doc = json.loads(volta.jit.trace(fn, *make()).to_json())
    volta.manual_seed(1000 + len(name))
    fresh = make()
    return doc, fresh, fn(*fresh)


_BASES = {name: _base(name) for name in _FUZZ_CASES}
_RAW = "@@raw@@"  # a string the text-level mutations replace with raw JSON text
_OTHER_TYPES = [None, True, 0, 3, -1, 0.5, "x", "sin", [], [1], {}, {"ref": 0}, {"tuple": []},
                {"dtype": "float32"}, {"const": 0}]
_OPS = ["sin", "cos", "add", "sum", "mul", "conv2d", "no_such_op", "", "aten::add", "trace"]
_STATS: collections.Counter = collections.Counter()


def _positions(doc: object) -> list[tuple[object, object]]:
    """Every (container, key) pair in the document, found without recursion."""
    found, pending = [], [doc]
    while pending:
        node = pending.pop()
        keys = (list(node) if isinstance(node, dict)
                else range(len(node)) if isinstance(node, list) else ())
        for k in keys:
            found.append((node, k))
            pending.append(node[k])
    return found


def _mutate(doc: dict, kind: str, rnd: random.Random) -> str | bytes:
    positions = _positions(doc)
    container, key = positions[rnd.randrange(len(positions))]
    nodes = [c[k] for c, k in positions if isinstance(c[k], dict)
             and isinstance(c[k].get("args"), list)] or [{"args": []}]
    node = nodes[rnd.randrange(len(nodes))]
    if kind == "delete_key":
        dicts = [c for c, _ in positions if isinstance(c, dict) and c] + [doc]
        target = dicts[rnd.randrange(len(dicts))]
        del target[rnd.choice(sorted(target))]
    elif kind == "insert_key":
        dicts = [c for c, _ in positions if isinstance(c, dict)] + [doc]
        dicts[rnd.randrange(len(dicts))][rnd.choice(["extra", "ref", "id", "op", "tuple"])] = 1
    elif kind == "swap_type":
        current = container[key]
        choices = [v for v in _OTHER_TYPES if type(v) is not type(current)]
        container[key] = rnd.choice(choices)
    elif kind == "wrong_op":
        node["op"] = rnd.choice(_OPS)
    elif kind == "wrong_arity":
        if node["args"] and rnd.random() < 0.5:
            node["args"].pop(rnd.randrange(len(node["args"])))
        else:
            node["args"].insert(rnd.randrange(len(node["args"]) + 1), rnd.choice(_OTHER_TYPES))
    elif kind == "dangling_ref":
        refs = [(c, k) for c, k in positions if k == "ref"]
        c, k = refs[rnd.randrange(len(refs))] if refs else (container, key)
        c[k] = rnd.choice([10_000, -1, len(positions)])
    elif kind == "null":
        container[key] = None
    elif kind in ("deep_nesting", "huge_number"):
        container[key] = _RAW
    text = json.dumps(doc)
    if kind == "deep_nesting":
        depth = rnd.choice([65, 200, 5000, 200_000])
        text = text.replace(json.dumps(_RAW), rnd.choice(["[", "{\"a\": "]) * depth + "0"
                            + "]" * depth, 1)
    elif kind == "huge_number":
        text = text.replace(json.dumps(_RAW), rnd.choice(
            ["1" + "0" * 400, "-" + "9" * 30, "1e400", "-1e999", "9223372036854775808"]), 1)
    elif kind == "truncate":
        text = text[: rnd.randrange(len(text))]
    elif kind == "random_bytes":
        raw = text.encode()
        start = rnd.randrange(len(raw))
        noise = bytes(rnd.randrange(256) for _ in range(rnd.randrange(1, 16)))
        return raw[:start] + noise + raw[start + len(noise):]
    return text


_TEXT_LEVEL = {"deep_nesting", "huge_number", "truncate", "random_bytes"}
_KINDS = ["delete_key", "insert_key", "swap_type", "wrong_op", "wrong_arity", "dangling_ref",
          "null", "deep_nesting", "huge_number", "truncate", "random_bytes", "none"]


@settings(max_examples=600, derandomize=True, deadline=None, database=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(case=st.sampled_from(_FUZZ_CASES), kinds=st.lists(st.sampled_from(_KINDS), min_size=1,
                                                          max_size=3),
       seed=st.integers(0, 2 ** 32 - 1))
def test_fuzzed_files_load_and_replay_correctly_or_raise_trace_format_error(
        case, kinds, seed, monkeypatch):
    """Mutated files: rejected with exactly ``TraceFormatError``, or loaded without running an
    op; a loaded file that still encodes the original program replays to the original
    function's result on fresh inputs, and one that encodes a different valid program (an op
    renamed to another with the same schema, a number changed) replays or raises a VoltaError."""
    doc, fresh, expected = _BASES[case]
    doc = json.loads(json.dumps(doc))
    rnd = random.Random(seed)
    text: str | bytes = json.dumps(doc)
    for kind in kinds:
        if kind != "none":
            text = _mutate(json.loads(text), kind, rnd)
        if kind in _TEXT_LEVEL:
            break  # the text may no longer parse: later mutations work on documents
    _STATS["cases"] += 1
    try:
        graph = load_counting_ops(text, monkeypatch)
    except volta.TraceFormatError:
        _STATS["rejected"] += 1
        return
    # anything but TraceFormatError escaping load fails the test right here
    if json.loads(graph.to_json()) == json.loads(json.dumps(doc)):
        _STATS["loaded, same program"] += 1
        assert_same_outputs(graph(*fresh), expected)
        return
    _STATS["loaded, different valid program"] += 1
    try:
        graph(*fresh)
    except volta.VoltaError:
        pass


def test_fuzz_statistics():
    """Runs after the fuzz test (file order): it exercised rejection and loading both."""
    print(f"\ngraph-file fuzz: {dict(_STATS)}")
    if _STATS["cases"]:  # absent when the fuzz test was deselected
        assert _STATS["rejected"] > 0 and _STATS["loaded, same program"] > 0
