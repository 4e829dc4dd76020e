"""Backward nodes and Autograd-key kernels from the derivative formulas in ops.yaml.

For an op ``mul(Tensor self, Tensor other)`` with formulas ``self: grad * other`` and
``other: grad * self`` this writes a ``MulBackward`` node whose ``apply`` evaluates the formulas
for the inputs that need a gradient, and an Autograd kernel that redispatches below Autograd,
saves what the formulas of those inputs read, and connects the node to the inputs' history.
"""

from __future__ import annotations

import ast
import re

from codegen.emit import HEADER
from codegen.loader import OpDecl


def node_name(decl: OpDecl) -> str:
    base = "".join(p.capitalize() for p in decl.schema.name.name.split("_") if p)
    ov = "".join(p.capitalize() for p in decl.schema.name.overload.split("_") if p)
    return f"{base}{ov}Backward"


META_ATTRIBUTES = frozenset({"shape", "dtype", "device", "ndim"})


def metadata_only(decl: OpDecl) -> frozenset[str]:
    """Tensor arguments the formulas read only through ``.shape``/``.dtype``/...: saving their
    metadata is enough, so later in-place writes to them do not invalidate the graph."""
    tensors = {a.name for a in decl.schema.arguments if a.is_tensor and not a.type.is_list}
    full: set[str] = set()
    meta: set[str] = set()
    for f in decl.formulas:
        tree = ast.parse(f.expression, mode="eval")
        parents = {child: node for node in ast.walk(tree) for child in ast.iter_child_nodes(node)}
        for node in ast.walk(tree):
            if isinstance(node, ast.Name) and node.id in tensors:
                parent = parents.get(node)
                if isinstance(parent, ast.Attribute) and parent.attr in META_ATTRIBUTES:
                    meta.add(node.id)
                else:
                    full.add(node.id)
    return frozenset(meta - full)


def _output_names(decl: OpDecl) -> list[str]:
    return [r.name or f"result{i}" for i, r in enumerate(decl.schema.returns)]


def save_conditions(decl: OpDecl) -> dict[str, str | None]:
    """Each value the formulas read -> when to save it: ``None`` for always, else a condition on
    ``needs`` (the node's ``needs_input_grad``), true when a formula that reads the value will run.

    Note [save only what a formula needs]: as in PyTorch's codegen, a tensor read only by the
    formula of an input that does not require grad is not saved, so ``c = b * 2; b.add_(1)``
    leaves ``c``'s graph valid (mul's formula for ``self`` never reads ``self``).
    """
    tensor_args = [a.name for a in decl.schema.arguments if a.is_tensor]
    positions = {name: i for i, name in enumerate(tensor_args)}
    tensors = set(tensor_args) | set(_output_names(decl)) | {"result"}
    conditions: dict[str, str | None] = {}
    for name in sorted(decl.formula_names()):
        readers = sorted({positions[i] for f in decl.formulas if name in f.names for i in f.inputs})
        if name not in tensors or len(readers) == len(tensor_args):
            conditions[name] = None  # a plain value, or read by every formula
        else:
            conditions[name] = " or ".join(f"needs[{i}]" for i in readers)
    return conditions


def _guarded(condition: str | None, line: str, indent: str) -> str:
    if condition is None:
        return f"{indent}{line}\n"
    return f"{indent}if {condition}:\n{indent}    {line}\n"


def emit_node(decl: OpDecl) -> str:
    schema = decl.schema
    used = decl.formula_names()
    conditions = save_conditions(decl)
    args = schema.arguments
    tensor_args = [a for a in args if a.is_tensor]
    saved_args = [a for a in args if a.name in used]
    outputs = _output_names(decl)
    multi = len(schema.returns) > 1 or schema.returns[0].type.is_list
    saved_outputs = [o for o in outputs if o in used]
    save_result = "result" in used
    slots = [f"s_{a.name}" for a in saved_args] + [f"o_{o}" for o in saved_outputs]
    if save_result:
        slots.append("o_result")
    name = node_name(decl)
    out = [f"\n\nclass {name}(_Node):\n",
           f"    __slots__ = {tuple(slots)!r}\n",
           f"    op_name = {decl.name!r}\n\n",
           "    def apply(node, grads):\n",
           "        grad = grads[0]\n",
           "        needs = node.needs_input_grad\n"]
    for a in saved_args:
        unpack = "_unpack_list" if a.is_tensor and a.type.is_list else (
            "_unpack" if a.is_tensor else None)
        value = f"{unpack}(node, node.s_{a.name})" if unpack else f"node.s_{a.name}"
        cond = conditions[a.name]
        out.append(f"        {a.name} = {value}"
                   + (f" if {cond} else None\n" if cond else "\n"))
    for o in saved_outputs:
        cond = conditions[o]
        out.append(f"        {o} = _unpack(node, node.o_{o})"
                   + (f" if {cond} else None\n" if cond else "\n"))
    if save_result:
        unpack = "_unpack_list" if multi else "_unpack"
        cond = conditions["result"]
        out.append(f"        result = {unpack}(node, node.o_result)"
                   + (f" if {cond} else None\n" if cond else "\n"))
    positions = {a.name: i for i, a in enumerate(tensor_args)}
    out.append("        " + " = ".join(f"g_{a.name}" for a in tensor_args) + " = None\n")
    if decl.formulas:
        out.append("        grad_input_mask = needs\n")
    for f in decl.formulas:
        cond = " or ".join(f"needs[{positions[i]}]" for i in f.inputs)
        target = ", ".join(f"g_{i}" for i in f.inputs)
        if len(f.inputs) > 1:
            target = f"{target},"
        out.append(f"        if {cond}:\n            {target} = {f.expression}\n")
    out.append("        return (" + ", ".join(f"g_{a.name}" for a in tensor_args)
               + ("," if len(tensor_args) == 1 else "") + ")\n")
    return "".join(out)


def emit_kernel(decl: OpDecl) -> str:
    schema = decl.schema
    used = decl.formula_names()
    conditions = save_conditions(decl)
    args = [a.name for a in schema.arguments]
    tensors = [a.name for a in schema.arguments if a.is_tensor]
    outputs = _output_names(decl)
    multi = len(schema.returns) > 1 or schema.returns[0].type.is_list
    name = node_name(decl)
    has_lists = any(a.is_tensor and a.type.is_list for a in schema.arguments)
    connect = "_connect" if has_lists else "_connect_tensors"
    # kernels are named autograd_<op> so they never shadow the op functions formulas call
    out = [f"\n\ndef autograd_{decl.overload_id}({', '.join(args)}):\n"]
    if schema.is_inplace:
        # refuse before writing: a leaf that requires grad, or a view of one
        out.append(f"    _check_inplace({args[0]})\n")
    out += [f"    result = _op.{decl.overload_id}.redispatch(_AUTOGRAD, {', '.join(args)})\n",
            f"    node = {name}()\n",
            f"    if {connect}(node, ({', '.join(tensors)}{',' if len(tensors) == 1 else ''})):\n"]
    if any(c is not None for c in conditions.values()):
        out.append("        needs = node.needs_input_grad\n")
    meta = metadata_only(decl)
    for a in schema.arguments:
        if a.name not in used:
            continue
        if a.name in meta:
            save = f"_save_meta({a.name})"
        elif a.is_tensor and a.type.is_list:
            save = f"_save_list({a.name})"
        elif a.is_tensor:
            save = f"_save({a.name})"
        else:
            save = a.name
        out.append(_guarded(conditions[a.name], f"node.s_{a.name} = {save}", "        "))
    for i, o in enumerate(outputs):
        if o in used:
            out.append(_guarded(conditions[o], f"node.o_{o} = _save_output(result[{i}], {i})",
                                "        "))
    if "result" in used:
        fn = "_save_output_list" if multi else "_save_output"
        out.append(_guarded(conditions["result"], f"node.o_result = {fn}(result)", "        "))
    diff = decl.output_differentiability
    inplace = ", True" if schema.is_inplace else ""
    out.append(f"        _set_history(node, result, {diff!r}{inplace})\n")
    out.append("    return result\n")
    return "".join(out)


def emit_inplace_kernel(decl: OpDecl) -> str:
    functional = decl.inplace_of
    assert functional is not None
    first = decl.schema.arguments[0].name
    # the functional formulas read the input's old value: keep a copy before overwriting it,
    # when a formula that reads it will run (Note [save only what a formula needs])
    if functional.composite:
        needs_copy = "True"
    elif first not in functional.formula_names():
        needs_copy = "False"
    else:
        condition = save_conditions(functional)[first]
        tensors = [a.name for a in functional.schema.arguments if a.is_tensor]
        needs_copy = "True" if condition is None else "_needs_grad(" + ", ".join(
            tensors[int(i)] for i in re.findall(r"needs\[(\d+)\]", condition)) + ")"
    args = [a.name for a in decl.schema.arguments]
    return (f"\n\ndef autograd_{decl.overload_id}({', '.join(args)}):\n"
            f"    return _inplace(_op.{decl.overload_id}, _op.{functional.overload_id}, "
            f"{needs_copy}, ({', '.join(args)},))\n")


def _private_op_imports(decls: list[OpDecl]) -> str:
    """``import *`` skips underscore names: import the private ops formulas call by name."""
    functions = {d.schema.name.name for d in decls if "function" in d.variants}
    private = sorted({n for d in decls for f in d.formulas for n in f.names
                      if n.startswith("_") and n in functions})
    if not private:
        return ""
    return f"from volta._generated.functions import {', '.join(private)}\n"


def emit_autograd(decls: list[OpDecl], source: str) -> str:
    out = [HEADER.format(source=source),
           '"""Backward nodes and Autograd kernels generated from the formulas in ops.yaml."""\n\n',
           "import math\n\n",
           "from volta._generated import registry as _op\n",
           "from volta._generated.functions import *  # formulas are written with volta ops\n",
           _private_op_imports(decls),
           "from volta.autograd.formulas import *  # and the helpers formulas share\n",
           "from volta.autograd.graph import Node as _Node, connect as _connect, "
           "connect_tensors as _connect_tensors, "
           "set_history as _set_history\n",
           "from volta.autograd.graph import save as _save, save_list as _save_list, "
           "save_output as _save_output\n",
           "from volta.autograd.graph import save_meta as _save_meta, "
           "save_output_list as _save_output_list, "
           "unpack as _unpack, unpack_list as _unpack_list\n",
           "from volta.autograd.inplace import check_inplace as _check_inplace, "
           "inplace_autograd as _inplace, needs_grad as _needs_grad\n",
           "from volta.dispatch.keys import Autograd as _AUTOGRAD\n\n",
           "KERNELS = {}\nNODES = {}\n"]
    for d in decls:
        if d.inplace_of is not None:
            if d.inplace_of.is_differentiable:
                out.append(emit_inplace_kernel(d))
                out.append(f"\n\nKERNELS[{d.name!r}] = autograd_{d.overload_id}\n")
            continue
        if not d.formulas:
            continue
        out.append(emit_node(d))
        out.append(emit_kernel(d))
        out.append(f"\n\nKERNELS[{d.name!r}] = autograd_{d.overload_id}\n"
                   f"NODES[{d.name!r}] = {node_name(d)}\n")
    return "".join(out)
