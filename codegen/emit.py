"""Turn validated :class:`OpDecl` objects into Python source and docs.

Each ``emit_*`` function returns the text of one generated file. The generated code is meant to
be read and stepped through: one small function per op, no string-eval at run time.
"""

from __future__ import annotations

import ast
import keyword
from collections import defaultdict

from codegen.loader import OpDecl
from volta.schema import Argument, FunctionSchema

HEADER = ('# @generated from {source} by `python -m codegen` — do not edit.\n'
          '# ruff: noqa\n')

_PY_TYPES = {
    "Tensor": "Tensor", "int": "int", "SymInt": "int", "float": "float", "bool": "bool",
    "str": "str", "Scalar": "Number", "ScalarType": "dtype", "Device": "DeviceLike",
    "Generator": "Generator", "Layout": "Any", "MemoryFormat": "Any",
}


def py_name(arg: Argument, function: bool) -> str:
    """Schema ``self`` is ``input`` in the function form, as in PyTorch's Python API; a name
    that is a Python keyword (``from``) gets a trailing underscore."""
    if function and arg.name == "self":
        return "input"
    return f"{arg.name}_" if keyword.iskeyword(arg.name) else arg.name


def takes_numbers(decl: OpDecl, arg: Argument) -> bool:
    """Whether a Tensor argument also takes a Python number (Note [Numbers as tensors])."""
    functional = decl.inplace_of or decl  # an in-place variant takes what its op takes
    return "pointwise" in functional.tags and (decl.numbers is None or arg.name in decl.numbers)


def py_type(arg: Argument, number_ok: bool) -> str:
    t = arg.type
    base = _PY_TYPES[t.base]
    if t.base == "Tensor" and number_ok and not t.is_list:
        base = "Tensor | Number"
    if t.is_list:
        base = f"Sequence[{base}]" if t.base == "Tensor" else f"int | Sequence[{base}]"
    if t.optional:
        base = f"{base} | None"
    return base


def py_default(arg: Argument) -> str:
    return repr(arg.default_value)


# schema types checked in the wrapper, and the Python class that needs no conversion
_CHECKED_SCALARS = {"int": "int", "SymInt": "int", "bool": "bool", "float": "float", "str": "str"}
INT64_MIN, INT64_MAX = -(2**63), 2**63 - 1


def normalizer(arg: Argument, name: str, op: str = "") -> str | None:
    """The line that turns what a caller passed into what kernels receive."""
    t = arg.type
    if not t.is_list and t.base in _CHECKED_SCALARS:
        # the exact class passes with one comparison; anything else is converted or rejected
        exact = _CHECKED_SCALARS[t.base]
        check = f"{name}.__class__ is not {exact}"
        if exact == "int":  # PyTorch's ints are int64: a Python int beyond fails to unpack
            check += f" or not {INT64_MIN} <= {name} <= {INT64_MAX}"
        if t.optional:  # Note [Explicit None]: only an optional argument takes None
            check = f"{name} is not None and ({check})" if exact == "int" else \
                f"{name} is not None and {check}"
        return f"if {check}: {name} = _b.{exact}_arg({name}, {arg.name!r}, {op!r})"
    if t.is_list and t.base in ("int", "SymInt"):
        size = t.list_size if t.list_size is not None else 0
        return f"{name} = _b.int_list({name}, {size}, {arg.name!r})"
    if t.is_list and t.base == "Tensor":
        return f"{name} = _b.tensor_list({name}, {arg.name!r})"
    if t.base == "ScalarType":
        return f"{name} = _b.dtype_arg({name})"
    if t.base == "Device":
        return f"{name} = _b.device_arg({name})"
    return None


def _type_name(arg: Argument) -> str:
    """The type PyTorch's messages name (``int``, ``tuple of ints``)."""
    name = {"SymInt": "int", "Scalar": "Number"}.get(arg.type.base, arg.type.base)
    return f"tuple of {name}s" if arg.type.is_list else name


def tensor_check(arg: Argument, name: str, position: int, op: str) -> str:
    """The line that rejects a Python number (or anything else) passed where only a Tensor
    goes; the exact Tensor class passes with one set look-up."""
    return (f"if {name}.__class__ not in _b.TENSOR_TYPES: "
            f"_b.tensor_arg({name}, {name.rstrip('_')!r}, {position}, {op!r})")


def signature(decl: OpDecl, function: bool, skip_self: bool = False) -> tuple[str, list[str]]:
    """The Python parameter list and the normalisation lines of one overload."""
    params: list[str] = []
    lines: list[str] = []
    star = False
    position = 0  # PyTorch's argument numbering: from 1, a method's self not counted
    for arg in decl.schema.arguments:
        name = py_name(arg, function)
        if skip_self and arg.name == "self":
            continue
        position += 1
        if arg.kwarg_only and not star:
            params.append("*")
            star = True
        number_ok = takes_numbers(decl, arg)
        p = f"{name}: {py_type(arg, number_ok)}"
        omittable = arg.name in decl.none_by_omission
        if omittable:  # Note [Explicit None]: left out it is None, passed as None it is wrong
            p += " = _b.OMITTED"
            lines.append(f"if {name} is None: _b.reject_none({arg.name!r}, "
                         f"{_type_name(arg)!r}, {decl.func_name!r})")
            lines.append(f"if {name} is _b.OMITTED: {name} = None")
        elif arg.has_default:
            p += f" = {py_default(arg)}"
        params.append(p)
        if (decl.numbers is not None and arg.is_tensor and not number_ok
                and not arg.type.is_list and not arg.type.optional):
            lines.append(tensor_check(arg, name, position, decl.func_name))
        norm = normalizer(arg, name, decl.func_name)
        if norm:
            lines.append(norm)
    if decl.only_numbers and function:
        first, second = (py_name(a, function) for a in decl.schema.arguments if a.is_tensor)
        lines.insert(0, f"if {first}.__class__ not in _b.TENSOR_TYPES and {second}.__class__ not "
                        f"in _b.TENSOR_TYPES: {first} = _b.wrapped_number({first}, {second})")
    keywords = [a for a in decl.schema.arguments if keyword.iskeyword(a.name)]
    if keywords:
        # PyTorch takes ``uniform_(from=...)``: a Python keyword only arrives through **
        params.append("**python_keywords: Any")
        taken = [f"    if {a.name!r} in python_keywords: "
                 f"{py_name(a, function)} = python_keywords.pop({a.name!r})" for a in keywords]
        unexpected = ("    if python_keywords: raise _b.ArgumentError("
                      f"f\"{decl.func_name}() got an unexpected keyword argument "
                      "'{next(iter(python_keywords))}'\")")
        lines = [line.strip() for line in taken] + [unexpected.strip()] + lines
    return ", ".join(params), lines


def return_annotation(schema: FunctionSchema) -> str:
    if schema.returns_tuple:
        return "tuple[" + ", ".join("Tensor" for _ in schema.returns) + "]"
    r = schema.returns[0]
    if r.type.is_list:
        return "tuple[Tensor, ...]"
    return {"Tensor": "Tensor", "float": "float", "int": "int", "bool": "bool",
            "Scalar": "Number"}.get(r.type.base, "Any")


def docstring(decls: list[OpDecl], indent: str) -> str:
    lines = [str(d.schema) for d in decls]
    docs = [d.doc for d in decls if d.doc]
    body = "\n".join(lines)
    if docs:
        body += "\n\n" + "\n\n".join(docs)
    body = body.replace("\\", "\\\\").replace('"""', "'''")
    return f'{indent}"""' + body.replace("\n", f"\n{indent}") + f'\n{indent}"""\n'


def _call_args(decl: OpDecl, function: bool) -> str:
    return ", ".join(py_name(a, function) for a in decl.schema.arguments)


def _returns(decl: OpDecl, call: str) -> str:
    """``return <call>``; ops with named outputs return PyTorch's named tuples."""
    names = [r.name for r in decl.schema.returns]
    if decl.schema.returns_tuple and all(names):
        return f"return _b.named_result({decl.func_name!r}, {tuple(names)!r}, {call})"
    return f"return {call}"


def group_by_function(decls: list[OpDecl]) -> dict[str, list[OpDecl]]:
    groups: dict[str, list[OpDecl]] = defaultdict(list)
    for d in decls:
        groups[d.func_name].append(d)
    return groups


def aliases_of(group: list[OpDecl]) -> list[str]:
    """The alias names declared on any overload of one function name, in order."""
    seen: list[str] = []
    for d in group:
        seen += [a for a in d.aliases if a not in seen]
    return seen


# -- registry -------------------------------------------------------------------------------------


def emit_registry(decls: list[OpDecl], source: str, namespace_prefix: str = "") -> str:
    out = [HEADER.format(source=source),
           '"""Every operator of ' + source + ', defined in the dispatcher on import.\n\n'
           'Each module-level name is an ``OperatorHandle``; calling it dispatches."""\n\n',
           "from volta.dispatch.registration import define_from_yaml as _define\n\n"]
    for d in decls:
        extra = []
        if d.composite:
            extra.append("composite=True")
        if d.inplace_of is not None:
            extra.append(f"inplace_of={d.inplace_of.name!r}")
        if d.pointwise is not None or "pointwise" in d.tags:
            extra.append(f"promotion={d.promotion!r}")
        if d.dtypes:
            extra.append(f"dtypes={d.dtypes!r}")
        if d.pointwise is not None:
            extra.append(f"pointwise={d.pointwise!r}")
        if d.non_differentiable:
            extra.append("non_differentiable=True")
        if d.dispatch_on:
            extra.append(f"dispatch_on={d.dispatch_on!r}")
        if d.numbers is not None:
            extra.append(f"numbers={d.numbers!r}")
        tail = (", " + ", ".join(extra)) if extra else ""
        out.append(f"{d.overload_id} = _define({str(d.schema)!r}, tags={d.tags!r}, "
                   f"source='{source}:{d.line}'{tail})\n")
    return "".join(out)


# -- functions -------------------------------------------------------------------------------------


def _emit_single(decl: OpDecl, fname: str) -> str:
    params, lines = signature(decl, function=True)
    first = decl.schema.arguments[0] if decl.schema.arguments else None
    if decl.varargs and first is not None and first.is_tensor and first.type.is_list:
        # a function of one tensor list with `varargs: true` (block_diag, cartesian_prod) takes
        # the tensors as separate arguments, as PyTorch's does
        name = params.split(":", 1)[0]
        params = f"*{name}: Tensor" + params[params.index(":") + 1:].split("]", 1)[1]
    out = [f"@_b.checked(_op.{decl.overload_id})\n",
           f"def {fname}({params}) -> {return_annotation(decl.schema)}:\n",
           docstring([decl], "    ")]
    out += [f"    {line}\n" for line in lines]
    out.append(f"    {_returns(decl, f'_op.{decl.overload_id}({_call_args(decl, True)})')}\n")
    return "".join(out)


def _emit_overloaded(decls: list[OpDecl], fname: str, method: bool) -> str:
    handles = ", ".join(f"_op.{d.overload_id}" for d in decls)
    if method:
        out = [f"    def {fname}(self, *args: Any, **kwargs: Any) -> Any:\n",
               docstring(decls, "        "),
               f"        return _b.call_overloaded(({handles},), (self, *args), kwargs, "
               f"{fname!r})\n"]
    else:
        out = [f"def {fname}(*args: Any, **kwargs: Any) -> Any:\n", docstring(decls, "    "),
               f"    return _b.call_overloaded(({handles},), args, kwargs, {fname!r})\n"]
    return "".join(out)


def emit_functions(decls: list[OpDecl], source: str) -> str:
    out = [HEADER.format(source=source),
           '"""The op functions (``volta.add``, ``volta.nn.functional.conv2d``, ...)."""\n\n',
           "from __future__ import annotations\n\n",
           "from collections.abc import Sequence\nfrom typing import TYPE_CHECKING, Any\n\n",
           "from volta.dispatch import binding as _b\n",
           "if TYPE_CHECKING:\n",
           "    from volta.dispatch.binding import DeviceLike, Generator, Number, Tensor, dtype\n",
           "from volta._generated import registry as _op\n\n"]
    groups = group_by_function([d for d in decls if "function" in d.variants])
    names = []
    by_ns: dict[str, list[str]] = defaultdict(list)
    for fname, group in groups.items():
        for name in (fname, *aliases_of(group)):
            names.append(name)
            out.append("\n")
            out.append(_emit_single(group[0], name) if len(group) == 1
                       else _emit_overloaded(group, name, method=False))
            for ns in group[0].namespaces:
                by_ns[ns].append(name)
    out.append("\n\n__all__ = [\n" + "".join(f"    {n!r},\n" for n in names) + "]\n")
    out.append("\n\nNAMESPACES = {\n")
    for ns, fnames in by_ns.items():
        out.append(f"    {ns!r}: {tuple(fnames)!r},\n")
    out.append("}\n")
    return "".join(out)


# -- Tensor methods -----------------------------------------------------------------------------

REFLECTED = {"__radd__", "__rsub__", "__rmul__", "__rtruediv__", "__rdiv__", "__rfloordiv__",
             "__rmod__", "__rpow__", "__rmatmul__", "__rand__", "__ror__", "__rxor__",
             "__rlshift__", "__rrshift__"}
UNARY = {"__neg__", "__abs__", "__invert__", "__pos__"}
# x += y writes into x (the op's in-place variant), as in PyTorch
AUGMENTED = {"__iadd__", "__isub__", "__imul__", "__itruediv__", "__ifloordiv__", "__imod__",
             "__ipow__", "__iand__", "__ior__", "__ixor__", "__ilshift__", "__irshift__"}


def _emit_method(decl: OpDecl, mname: str) -> str:
    params, lines = signature(decl, function=False, skip_self=True)
    if decl.varargs:
        first = next(a for a in decl.schema.arguments if a.name != "self")
        rest = params.split(", ", 1)[1] if ", " in params else ""
        params = f"*{first.name}: Any" + (", " + rest if rest and not rest.startswith("*")
                                         else (", " + rest[3:] if rest.startswith("*, ") else ""))
        lines.insert(0, f"{first.name} = _b.varargs({first.name})")
    sig = "self" + (", " + params if params else "")
    out = [f"    @_b.checked(_op.{decl.overload_id}, method=True)\n",
           f"    def {mname}({sig}) -> {return_annotation(decl.schema)}:\n",
           docstring([decl], "        ")]
    out += [f"        {line}\n" for line in lines]
    out.append(f"        {_returns(decl, f'_op.{decl.overload_id}({_call_args(decl, False)})')}\n")
    return "".join(out)


def _emit_operator(decl: OpDecl, dunder: str) -> str:
    args = decl.schema.arguments
    required = [a for a in args if not a.has_default]
    defaults = [py_default(a) for a in args if a.has_default]
    if dunder in UNARY:
        call = ", ".join(["self"] + defaults)
        return (f"    def {dunder}(self) -> Tensor:\n"
                f"        return _op.{decl.overload_id}({call})\n")
    if len(required) != 2:
        raise ValueError(f"{decl.path}:{decl.line}: operator {dunder} needs an op with exactly "
                         f"two required arguments, {decl.name} has {len(required)}")
    pair = "other, self" if dunder in REFLECTED else "self, other"
    call = ", ".join([pair] + defaults)
    # Python calls a reflected operator on a Tensor only; called unbound
    # (Tensor.__radd__(2, t)), self may be anything, which PyTorch rejects
    self_check = (f"        if self.__class__ not in _b.TENSOR_TYPES: _b.method_self(self, "
                  f"{dunder!r})\n") if dunder in REFLECTED else ""
    return (f"    def {dunder}(self, other: Any) -> Any:\n"
            f"{self_check}"
            f"        if other.__class__ not in _b.FAST_OPERANDS and not _b.is_operand(other):\n"
            f"            return NotImplemented\n"
            f"        return _op.{decl.overload_id}({call})\n")


def emit_tensor_methods(decls: list[OpDecl], source: str) -> str:
    out = [HEADER.format(source=source),
           '"""Tensor methods and operators; ``volta.Tensor`` inherits this class."""\n\n',
           "from __future__ import annotations\n\n",
           "from collections.abc import Sequence\nfrom typing import TYPE_CHECKING, Any\n\n",
           "from volta.dispatch import binding as _b\n",
           "if TYPE_CHECKING:\n",
           "    from volta.dispatch.binding import DeviceLike, Generator, Number, Tensor, dtype\n",
           "from volta._generated import registry as _op\n\n\n",
           "class TensorMethods:\n    __slots__ = ()\n"]
    groups = group_by_function([d for d in decls if "method" in d.variants])
    for mname, group in groups.items():
        for name in (mname, *aliases_of(group)):
            out.append("\n")
            out.append(_emit_method(group[0], name) if len(group) == 1
                       else _emit_overloaded(group, name, method=True))
    inplace_of = {d.inplace_of.name: d for d in decls if d.inplace_of is not None}
    for d in decls:
        for dunder in d.operators:
            out.append("\n")
            if dunder in AUGMENTED:
                target = inplace_of.get(d.name)
                if target is None:
                    raise ValueError(f"{d.path}:{d.line}: operator {dunder} needs the op to "
                                     "declare 'variants: inplace'")
                out.append(_emit_operator(target, dunder))
            else:
                out.append(_emit_operator(d, dunder))
    out.append("\n    __hash__ = object.__hash__\n")
    return "".join(out)


# -- docs -----------------------------------------------------------------------------------------


def emit_docs(decls: list[OpDecl], source: str) -> str:
    out = [f"<!-- generated from {source} by `python -m codegen` — do not edit. -->\n",
           "# volta operators\n\n",
           f"{len(decls)} operator overloads declared in `{source}`. Columns: the schema, where "
           "the op is reachable, its tags, and how it is differentiated.\n\n",
           "| schema | reachable as | tags | autograd |\n|---|---|---|---|\n"]
    for d in sorted(decls, key=lambda d: d.name):
        where = []
        names = (d.func_name, *d.aliases)
        if "function" in d.variants:
            where += [f"`{'volta' if ns == 'volta' else 'volta.' + ns}.{n}`"
                      for ns in d.namespaces for n in names]
        if "method" in d.variants:
            where += [f"`Tensor.{n}`" for n in names]
        where += [f"`{o}`" for o in d.operators]
        if d.formulas:
            grad = "formula: " + "; ".join(f"{','.join(f.inputs)}" for f in d.formulas)
        elif d.composite and not d.non_differentiable:
            grad = "through its parts (composite)"
        elif d.inplace_of is not None:
            grad = f"as {d.inplace_of.name}, rebased"
        else:
            grad = "not differentiable"
        schema = str(d.schema).replace("|", "\\|")
        out.append(f"| `{schema}` | {' '.join(where) or '-'} | {', '.join(d.tags)} | {grad} |\n")
    return "".join(out)


# -- pointwise numpy kernels ----------------------------------------------------------------------


class _NumpyRewriter(ast.NodeTransformer):
    def __init__(self, args: set[str]):
        self.args = args

    def visit_Call(self, node: ast.Call) -> ast.AST:
        self.generic_visit(node)
        if isinstance(node.func, ast.Name) and node.func.id not in self.args:
            node.func = ast.Attribute(ast.Name("_pm", ast.Load()), node.func.id, ast.Load())
        return node


def _unconditional_nodes(node: ast.AST) -> list[ast.AST]:
    """``node`` and its descendants, except those in the branches of ``a if c else b`` (a
    Python-level choice: only the chosen branch may run)."""
    found = [node]
    if isinstance(node, ast.IfExp):
        return found + _unconditional_nodes(node.test)
    for child in ast.iter_child_nodes(node):
        found += _unconditional_nodes(child)
    return found


class _Replace(ast.NodeTransformer):
    def __init__(self, key: str, name: str):
        self.key, self.name = key, name

    def visit(self, node: ast.AST) -> ast.AST:
        if ast.dump(node) == self.key:
            return ast.Name(self.name, ast.Load())
        return super().visit(node)


def _hoist_common_subexpressions(tree: ast.Expression
                                 ) -> tuple[list[tuple[str, ast.expr]], ast.Expression]:
    """Note [pointwise common subexpressions]: a call or an arithmetic subexpression that
    occurs twice in a snippet (``sigmoid(self)`` in silu_backward, ``self * beta`` in softplus)
    is computed once into a local ``_cN``; each is a full pass over the tensor in numpy. The
    innermost repeats go first, so later locals may use earlier ones."""
    hoisted: list[tuple[str, ast.expr]] = []
    while True:
        counts: dict[str, int] = {}
        nodes: dict[str, ast.expr] = {}
        for node in _unconditional_nodes(tree.body):
            if isinstance(node, (ast.Call, ast.BinOp)):
                key = ast.dump(node)
                counts[key] = counts.get(key, 0) + 1
                nodes.setdefault(key, node)
        repeated = [key for key, n in counts.items() if n > 1]
        if not repeated:
            return hoisted, tree
        key = min(repeated, key=lambda k: sum(1 for _ in ast.walk(nodes[k])))
        name = f"_c{len(hoisted)}"
        hoisted.append((name, nodes[key]))
        tree = _Replace(key, name).visit(tree)


def pointwise_numpy_statements(decl: OpDecl) -> tuple[list[str], str]:
    """The numpy kernel body of ``decl``'s snippet: assignments of its common subexpressions
    (Note [pointwise common subexpressions]) and the result expression."""
    tree = ast.parse(decl.pointwise, mode="eval")
    hoisted, tree = _hoist_common_subexpressions(tree)
    rewriter = _NumpyRewriter({a.name for a in decl.schema.arguments})
    assignments = [f"{name} = {ast.unparse(rewriter.visit(value))}" for name, value in hoisted]
    return assignments, ast.unparse(rewriter.visit(tree))


def pointwise_numpy_expression(decl: OpDecl) -> str:
    """The snippet as one numpy expression (no common subexpressions hoisted)."""
    tree = ast.parse(decl.pointwise, mode="eval")
    tree = _NumpyRewriter({a.name for a in decl.schema.arguments}).visit(tree)
    return ast.unparse(tree)


_WARNING_FUNCTIONS = {"log", "log2", "log10", "log1p", "sqrt", "rsqrt", "reciprocal", "pow",
                      "remainder", "fmod", "floor_divide", "xlogy", "asin", "acos", "erfinv",
                      "exp", "exp2", "expm1", "sinh", "cosh", "softplus", "log_sigmoid",
                      "sigmoid", "tan"}


def _may_warn(decl: OpDecl) -> bool:
    """Whether numpy may flag a floating-point error in the snippet: any arithmetic (inf - inf
    and inf * 0 are invalid, a float32 sum may overflow) or a function that can."""
    snippet = decl.pointwise or ""
    return any(op in snippet for op in "+-*/") or any(
        f"{f}(" in snippet for f in _WARNING_FUNCTIONS)


def emit_pointwise_numpy(decls: list[OpDecl], source: str) -> str:
    out = [HEADER.format(source=source),
           '"""numpy kernels generated from the pointwise snippets in ops.yaml.\n\n'
           "Each kernel converts its tensor arguments to arrays of the computation dtype\n"
           "(``prepare``), evaluates the snippet, and wraps the array as the output dtype.\n"
           '"""\n\n',
           "from volta.backends.cpu import pointwise_math as _pm\n",
           "from volta.backends.cpu.pointwise_runtime import prepare as _prepare\n",
           "from volta.backends.cpu.pointwise_runtime import quiet_off as _quiet_off\n",
           "from volta.backends.cpu.pointwise_runtime import quiet_on as _quiet_on\n",
           "from volta.backends.cpu.pointwise_runtime import scalar_argument as _scalar\n",
           "from volta.backends.cpu.pointwise_runtime import wrap as _wrap\n\n",
           "KERNELS = {}\n"]
    for d in decls:
        if d.pointwise is None:
            continue
        args = [a.name for a in d.schema.arguments]
        tensors = [a.name for a in d.schema.arguments if a.is_tensor]
        assignments, expr = pointwise_numpy_statements(d)
        tlist = ", ".join(tensors) + ("," if len(tensors) == 1 else "")
        # the int 1 (the default alpha) is what scalar_argument returns unchanged: tested
        # inline, it costs no call
        scalars = "".join(f"    if {a.name}.__class__ is not int or {a.name} != 1:\n"
                          f"        {a.name} = _scalar({d.name!r}, {a.name}, out_dtype)\n"
                          for a in d.schema.arguments if a.type.base == "Scalar")
        lines = [*assignments, f"return _wrap({expr}, out_dtype)"]
        if _may_warn(d):
            # numpy warns on log(0), x/0, ...; PyTorch silently gives inf/nan (Note [quiet
            # numpy]: a token set and reset, not np.errstate, which costs more than a small op)
            inner = "".join(f"\n        {line}" for line in lines)
            body = (f"_token = _quiet_on()\n    try:{inner}\n"
                    "    finally:\n        _quiet_off(_token)")
        else:
            body = "\n    ".join(lines)
        out.append(f"\n\ndef {d.overload_id}({', '.join(args)}):\n"
                   f"    ({tlist}), out_dtype = _prepare({d.name!r}, {d.promotion!r}, "
                   f"{d.dtypes!r}, {', '.join(tensors)})\n"
                   f"{scalars}"
                   f"    {body}\n\n\n"
                   f"KERNELS[{d.name!r}] = {d.overload_id}\n")
    return "".join(out)
