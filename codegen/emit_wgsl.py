"""WGSL expressions for the WGPU pointwise kernels, from the same ``pointwise:`` snippets (parsed
by the same ``ast``) as the numpy kernels of :mod:`codegen.emit`.

A snippet is a Python expression over the op's arguments. Here it becomes a WGSL expression over
variables named ``v_<argument>`` (``self`` is a reserved word in WGSL); a call ``f(x)`` becomes
``pw_f(x)``, a helper the WGPU backend defines for the computation type
(``volta/backends/wgpu/kernels/pointwise.py``); ``a if c else b`` and ``where(c, a, b)`` become
``select(b, a, c)``. The generated module is data only: the kernel template lives in the backend.
"""

from __future__ import annotations

import ast

from codegen.loader import OpDecl

HEADER = ('# @generated from {source} by `python -m codegen` — do not edit.\n'
          '# ruff: noqa\n')

_BINARY = {ast.Add: "+", ast.Sub: "-", ast.Mult: "*", ast.Div: "/", ast.BitAnd: "&",
           ast.BitOr: "|"}
# operators whose meaning depends on the computation type: helpers, like calls
_BINARY_HELPERS = {ast.BitXor: "pw_xor", ast.LShift: "pw_shl", ast.RShift: "pw_shr",
                   ast.Pow: "pw_pow", ast.Mod: "pw_remainder", ast.FloorDiv: "pw_floor_divide"}
_COMPARE = {ast.Gt: ">", ast.GtE: ">=", ast.Lt: "<", ast.LtE: "<=", ast.Eq: "=="}
# the WGSL type a non-Tensor argument is passed as ("T": the computation type)
SCALAR_KINDS = {"Scalar": "T", "int": "i32", "SymInt": "i32", "float": "f32", "bool": "bool"}


class WgslError(ValueError):
    """A snippet construct that has no WGSL translation (codegen reports the op)."""


def _expr(node: ast.AST, args: set[str]) -> str:
    if isinstance(node, ast.Name):
        if node.id not in args:
            raise WgslError(f"unknown name {node.id!r}")
        return f"v_{node.id}"
    if isinstance(node, ast.Constant):
        if isinstance(node.value, bool):
            return "true" if node.value else "false"
        if isinstance(node.value, (int, float)):
            return repr(node.value)
        raise WgslError(f"constant {node.value!r}")
    if isinstance(node, ast.BinOp):
        left, right = _expr(node.left, args), _expr(node.right, args)
        if type(node.op) in _BINARY:
            return f"({left} {_BINARY[type(node.op)]} {right})"
        if type(node.op) in _BINARY_HELPERS:
            return f"{_BINARY_HELPERS[type(node.op)]}({left}, {right})"
        raise WgslError(f"operator {type(node.op).__name__}")
    if isinstance(node, ast.UnaryOp):
        operand = _expr(node.operand, args)
        if isinstance(node.op, ast.USub):
            return f"(-{operand})"
        if isinstance(node.op, ast.Invert):
            return f"pw_invert({operand})"
        if isinstance(node.op, ast.Not):
            return f"(!{operand})"
        raise WgslError(f"unary operator {type(node.op).__name__}")
    if isinstance(node, ast.Compare):
        if len(node.ops) != 1:
            raise WgslError("chained comparison")
        left, right = _expr(node.left, args), _expr(node.comparators[0], args)
        if isinstance(node.ops[0], ast.NotEq):
            # spelled as a negated ==: lavapipe compiles WGSL's float != as an ordered compare,
            # so 1.0 != nan came out false
            return f"(!({left} == {right}))"
        return f"({left} {_COMPARE[type(node.ops[0])]} {right})"
    if isinstance(node, ast.BoolOp):
        op = " && " if isinstance(node.op, ast.And) else " || "
        return "(" + op.join(_expr(v, args) for v in node.values) + ")"
    if isinstance(node, ast.IfExp):
        return (f"select({_expr(node.orelse, args)}, {_expr(node.body, args)}, "
                f"{_expr(node.test, args)})")
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and not node.keywords:
        params = [_expr(a, args) for a in node.args]
        if node.func.id == "where":
            cond, a, b = params
            return f"select({b}, {a}, {cond})"
        return f"pw_{node.func.id}({', '.join(params)})"
    raise WgslError(f"construct {ast.dump(node)[:60]}")


def pointwise_wgsl_expression(decl: OpDecl) -> str:
    """The WGSL expression of ``decl``'s pointwise snippet."""
    tree = ast.parse(decl.pointwise, mode="eval")
    try:
        return _expr(tree.body, {a.name for a in decl.schema.arguments})
    except WgslError as exc:
        raise WgslError(f"{decl.name}: pointwise snippet {decl.pointwise!r} has no WGSL "
                        f"translation: {exc}") from None


def emit_pointwise_wgsl(decls: list[OpDecl], source: str) -> str:
    out = [HEADER.format(source=source),
           '"""WGSL expressions of the pointwise ops, generated from their ops.yaml snippets.\n\n'
           "Each entry: the overload's arguments in schema order as (name, kind) — kind is\n"
           '"Tensor" or the WGSL type of a scalar argument ("T" is the computation type) —,\n'
           "the type promotion rule, the allowed dtypes and the expression. The kernel template\n"
           "is in volta/backends/wgpu/kernels/pointwise.py.\n"
           '"""\n\n',
           "SPECS = {}\n"]
    for d in decls:
        if d.pointwise is None:
            continue
        args = tuple((a.name, "Tensor" if a.is_tensor else SCALAR_KINDS[a.type.base])
                     for a in d.schema.arguments)
        out.append(f"\nSPECS[{d.name!r}] = dict(\n"
                   f"    args={args!r},\n"
                   f"    promotion={d.promotion!r},\n"
                   f"    dtypes={d.dtypes!r},\n"
                   f"    wgsl={pointwise_wgsl_expression(d)!r},\n"
                   f")\n")
    return "".join(out)
