"""What generated backward nodes save: exactly the values the formulas that will run read.

Data-driven from ops.yaml and the oracle samples: every differentiable op runs with one input at
a time requiring grad, and its node must hold the values read by the formulas of the inputs that
need a gradient (scalars as plain values), nothing more (Note [save only what a formula needs]).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

import volta
from codegen.loader import OpDecl, load
from volta._generated.autograd_nodes import NODES
from volta.autograd.graph import SavedTensor, TensorMeta
from volta.errors import AutogradError
from volta.testing.harness import ModuleAdapter, call_op
from volta.testing.opinfo import OPS, materialize_full, substitute

ROOT = Path(__file__).resolve().parents[2]
VOLTA = ModuleAdapter(volta, "volta")
DECLS = {d.name: d for d in load(ROOT / "ops.yaml") if d.formulas and d.inplace_of is None}


def _expected_saved(decl: OpDecl, needs: tuple[bool, ...]) -> set[str]:
    tensor_args = [a.name for a in decl.schema.arguments if a.is_tensor]
    values = {a.name for a in decl.schema.arguments if not a.is_tensor}
    running = [f for f in decl.formulas
               if any(needs[tensor_args.index(i)] for i in f.inputs)]
    read = set().union(*(f.names for f in running)) if running else set()
    return (read & _saveable(decl) - values) | (decl.formula_names() & values)


def _saveable(decl: OpDecl) -> set[str]:
    return ({a.name for a in decl.schema.arguments} | {"result"}
            | {r.name or f"result{i}" for i, r in enumerate(decl.schema.returns)})


def _saved_slots(node: Any) -> dict[str, Any]:
    slots = [s for s in type(node).__slots__ if s.startswith(("s_", "o_"))]
    return {s[2:]: getattr(node, s) for s in slots if hasattr(node, s)}


def test_every_generated_node_has_a_slot_per_name_its_formulas_read() -> None:
    for name, decl in DECLS.items():
        names = {s[2:] for s in NODES[name].__slots__}
        assert names == decl.formula_names() & _saveable(decl), name


# ops whose samples return their input unchanged, so no node is recorded
RETURNS_INPUT = {"contiguous", "dropout_eval"}


def _cases() -> list[Any]:
    return [pytest.param(name, id=name) for name, op in sorted(OPS.items())
            if op.grad and "float64" in op.dtypes and not op.inplace
            and name not in RETURNS_INPUT]


@pytest.mark.parametrize("name", _cases())
def test_node_saves_exactly_what_the_needed_formulas_read(name: str) -> None:
    op = OPS[name]
    checked = 0
    for seed, sample in enumerate(op.samples("float64")[:3]):
        m = materialize_full(sample, "float64", seed, VOLTA)
        paths = [p for p, (spec, t) in m.tensors.items()
                 if spec.requires_grad and t.is_floating_point()]
        for wanted in paths:
            tensors = {p: t.detach().clone().requires_grad_(p == wanted)
                       for p, (_, t) in m.tensors.items()}
            args, kwargs = substitute(sample, tensors, VOLTA)
            for out in call_op(op, VOLTA, args, kwargs):
                node = getattr(out, "grad_fn", None)
                if node is None or node.op_name not in DECLS or type(node) is not NODES.get(
                        node.op_name):
                    continue
                decl = DECLS[node.op_name]
                saved = _saved_slots(node)
                assert set(saved) == _expected_saved(decl, node.needs_input_grad), (
                    f"{name} sample {seed}, grad for {wanted}: {node.name()} saved "
                    f"{sorted(saved)}")
                tensor_args = {a.name for a in decl.schema.arguments if a.is_tensor}
                for key, value in saved.items():
                    if key not in tensor_args and not key.startswith("result") and (
                            key in {a.name for a in decl.schema.arguments}):
                        assert not isinstance(value, SavedTensor | TensorMeta), key
                checked += 1
    assert checked, f"{name}: no output has a generated backward node"


@pytest.mark.parametrize("op", ["mul", "div", "add", "sub"])
def test_in_place_write_to_an_input_no_formula_needs_is_fine(op: str) -> None:
    a = volta.randn(4, dtype=volta.float64, requires_grad=True)
    b = a.clone()
    c = getattr(volta, op)(b, 2)
    b.add_(1)
    c.sum().backward()
    expected = {"mul": 2.0, "div": 0.5, "add": 1.0, "sub": 1.0}
    assert a.grad.tolist() == [expected[op]] * 4


def test_in_place_write_to_a_tensor_that_needs_no_grad() -> None:
    a = volta.randn(3, requires_grad=True)
    w = volta.randn(3)
    c = a * w  # the formula for a reads w: it is saved
    w.add_(1)
    with pytest.raises(AutogradError, match="modified by an inplace operation"):
        c.sum().backward()
    a.grad = None
    b = a.clone()
    c = b * w  # w does not require grad, so b is not saved
    b.mul_(3)
    c.sum().backward()
    assert a.grad.tolist() == w.tolist()


def test_in_place_write_still_caught_when_the_formula_reads_it() -> None:
    a = volta.randn(3, requires_grad=True)
    b = a.clone()
    c = b * b
    b.add_(1)
    with pytest.raises(AutogradError, match="modified by an inplace operation"):
        c.sum().backward()
    b = a.clone()
    c = volta.pow(b, 2)
    b.add_(1)
    with pytest.raises(AutogradError, match="modified by an inplace operation"):
        c.sum().backward()


def test_in_place_ops_copy_the_old_value_only_when_a_formula_reads_it():
    a = volta.tensor([1.0, 2.0], requires_grad=True)
    w = volta.tensor([3.0, 5.0], requires_grad=True)
    b = a.clone()
    b.mul_(w)  # w's formula reads b's old value: a copy is kept, so this is right
    b.mul_(2)  # nothing reads b's value before this write
    b.sum().backward()
    assert a.grad.tolist() == [6.0, 10.0] and w.grad.tolist() == [2.0, 4.0]
    saved = []
    with volta.autograd.graph.saved_tensors_hooks(lambda t: saved.append(t) or t,
                                                  lambda t: t):
        c = a.clone()
        c.mul_(2)
        c.div_(4)
    assert saved == []
