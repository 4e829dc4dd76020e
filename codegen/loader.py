"""Read an ops yaml file into validated :class:`OpDecl` objects.

Every error names the file and line of the entry and says what to write instead
(Note [Schema round trip] in volta/schema.py covers the grammar itself).
"""

from __future__ import annotations

import ast
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

from volta.schema import FunctionSchema, SchemaSyntaxError

VARIANTS = ("function", "method", "inplace")
PROMOTIONS = ("default", "int_to_float", "always_bool", "none")
KNOWN_TAGS = ("pointwise", "reduction", "view", "inplace", "nondeterministic", "random",
              "factory", "linalg", "shape", "nn", "loss", "indexing", "comparison", "backward")
FIELDS = ("func", "variants", "operators", "tags", "pointwise", "promotion", "dtypes",
          "composite", "derivatives", "non_differentiable", "output_differentiability",
          "namespaces", "doc", "python_name", "varargs", "dispatch_on", "numbers",
          "none_by_omission", "only_numbers", "aliases")
NAMESPACES = ("volta", "nn.functional", "linalg", "special", "fft")
# names a derivative formula may use besides the schema's arguments and op functions
FORMULA_BUILTINS = frozenset({
    "grad", "grads", "result", "grad_input_mask", "len", "range", "tuple", "list", "int",
    "float", "bool", "min", "max", "abs", "isinstance", "zip", "enumerate", "None", "True",
    "False", "math", "any", "all", "sorted", "reversed", "sum",
})
POINTWISE_FUNCTIONS = frozenset({
    "exp", "exp2", "expm1", "log", "log2", "log10", "log1p", "sqrt", "rsqrt", "sin", "cos",
    "tan", "asin", "acos", "atan", "sinh", "cosh", "tanh", "asinh", "acosh", "atanh", "sigmoid",
    "erf", "erfc", "erfinv", "abs", "sign", "floor", "ceil", "trunc", "round", "where",
    "maximum", "minimum", "fmax", "fmin", "atan2", "hypot", "isnan", "isinf", "isfinite",
    "softplus", "copysign", "logical_not", "square", "reciprocal", "log_sigmoid", "xlogy",
    "pow", "floor_divide", "remainder", "fmod", "logaddexp", "frac", "signbit", "logical_and",
    "logical_or", "logical_xor",
})


class YamlError(ValueError):
    """A problem in an ops yaml file, with the file and line."""

    def __init__(self, path: str, line: int, message: str):
        super().__init__(f"{path}:{line}: {message}")
        self.path = path
        self.line = line


@dataclass
class Formula:
    inputs: tuple[str, ...]  # "self", or "input, weight, bias" for a formula giving a tuple
    expression: str
    names: frozenset[str]  # identifiers the expression reads


@dataclass
class OpDecl:
    schema: FunctionSchema
    line: int
    path: str
    variants: tuple[str, ...] = ("function",)
    operators: tuple[str, ...] = ()
    tags: tuple[str, ...] = ()
    pointwise: str | None = None
    promotion: str = "default"
    dtypes: str | None = None  # "floating", "integral", "integral_and_bool", "numeric", ...
    composite: bool = False
    formulas: list[Formula] = field(default_factory=list)
    non_differentiable: bool = False
    output_differentiability: tuple[bool, ...] | None = None
    namespaces: tuple[str, ...] = ("volta",)
    doc: str = ""
    python_name: str | None = None
    varargs: bool = False
    dispatch_on: tuple[str, ...] = ()  # empty: every Tensor argument picks the backend
    # the Tensor arguments that also take a Python number; None (no ``numbers:`` field): all of
    # a pointwise op's. The others are Tensor-only, as in PyTorch (Note [Numbers as tensors])
    numbers: tuple[str, ...] | None = None
    # optional arguments that are None only when left out; an explicit None is rejected, as
    # where PyTorch declares the call without them as its own overload (Note [Explicit None])
    none_by_omission: tuple[str, ...] = ()
    # a call of the function with Python numbers only (add(1, 2)) takes the first as a 0-d
    # tensor, as PyTorch's add, sub, mul, div and their aliases do (Note [Numbers as tensors])
    only_numbers: bool = False
    inplace_of: OpDecl | None = None  # for generated "op_" variants: the functional op
    # other names of the same op (PyTorch's aliases: arccos for acos): the same function and
    # method under each name, calling this op (its in-place variant gets "alias_" too)
    aliases: tuple[str, ...] = ()

    @property
    def name(self) -> str:
        return str(self.schema.name)

    @property
    def func_name(self) -> str:
        return self.python_name or self.schema.name.name

    @property
    def overload_id(self) -> str:
        """A Python identifier for this overload (``add_Tensor``)."""
        n = self.schema.name
        base = f"{n.namespace}_{n.name}" if n.namespace else n.name
        return f"{base}_{n.overload}" if n.overload else base

    @property
    def is_differentiable(self) -> bool:
        return bool(self.formulas) or (self.composite and not self.non_differentiable)

    def formula_names(self) -> frozenset[str]:
        names: set[str] = set()
        for f in self.formulas:
            names |= f.names
        return frozenset(names)


def _load_nodes(path: Path) -> tuple[list[dict[str, Any]], list[int]]:
    text = path.read_text()
    try:
        root = yaml.compose(text)
    except yaml.YAMLError as exc:
        line = getattr(getattr(exc, "problem_mark", None), "line", 0) + 1
        raise YamlError(str(path), line, f"not valid yaml: {exc}") from None
    if root is None:
        return [], []
    if not isinstance(root, yaml.SequenceNode):
        raise YamlError(str(path), root.start_mark.line + 1,
                        "the file must be a list of entries, each starting with '- func: ...'")
    data = yaml.safe_load(text)
    return data, [node.start_mark.line + 1 for node in root.value]


def _as_tuple(value: Any) -> tuple[str, ...]:
    if value is None:
        return ()
    if isinstance(value, str):
        return tuple(v.strip() for v in value.split(",") if v.strip())
    return tuple(str(v) for v in value)


def _formula_names(expr: str, where: str, fail: Any) -> frozenset[str]:
    try:
        tree = ast.parse(expr, mode="eval")
    except SyntaxError as exc:
        fail(f"derivative formula for {where} is not valid Python ({exc.msg}): {expr!r}")
    names = {node.id for node in ast.walk(tree) if isinstance(node, ast.Name)}
    # names bound inside comprehensions/lambdas are local, not free
    bound = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.comprehension):
            for t in ast.walk(node.target):
                if isinstance(t, ast.Name):
                    bound.add(t.id)
        elif isinstance(node, ast.Lambda):
            bound |= {a.arg for a in node.args.args}
    return frozenset(names - bound)


def load(path: str | Path, helper_names: frozenset[str] = frozenset()) -> list[OpDecl]:
    """Parse and validate ``path``; raise :class:`YamlError` naming the first bad line."""
    path = Path(path)
    entries, lines = _load_nodes(path)
    decls: list[OpDecl] = []
    seen: dict[str, int] = {}
    # formulas may call any op of this file (and of volta's core) by its function name
    op_names = {re.split(r"[.(]", str(e.get("func", "")).split("::")[-1])[0]
                for e in entries if isinstance(e, dict)}
    helper_names = helper_names | op_names if helper_names else helper_names
    for entry, line in zip(entries, lines):
        def fail(message: str, line: int = line) -> None:
            raise YamlError(str(path), line, message)

        if not isinstance(entry, dict) or "func" not in entry:
            fail("each entry needs a 'func:' schema, e.g. '- func: relu(Tensor self) -> Tensor'")
        unknown = set(entry) - set(FIELDS)
        if unknown:
            fail(f"unknown field(s) {sorted(unknown)}; allowed fields: {', '.join(FIELDS)}")
        try:
            schema = FunctionSchema.parse(entry["func"])
        except SchemaSyntaxError as exc:
            fail(str(exc))
        name = str(schema.name)
        if name in seen:
            fail(f"duplicate overload {name!r} (first declared on line {seen[name]}); give this "
                 "one a different overload name, e.g. 'name.Scalar'")
        seen[name] = line
        variants = _as_tuple(entry.get("variants", "function"))
        for v in variants:
            if v not in VARIANTS:
                fail(f"unknown variant {v!r}; use any of {', '.join(VARIANTS)}")
        tags = _as_tuple(entry.get("tags"))
        for t in tags:
            if t not in KNOWN_TAGS:
                fail(f"unknown tag {t!r}; known tags: {', '.join(KNOWN_TAGS)}")
        promotion = entry.get("promotion", "default")
        if promotion not in PROMOTIONS:
            fail(f"unknown promotion {promotion!r}; use one of {', '.join(PROMOTIONS)}")
        namespaces = _as_tuple(entry.get("namespaces", "volta"))
        for ns in namespaces:
            if ns not in NAMESPACES:
                fail(f"unknown namespace {ns!r}; use any of {', '.join(NAMESPACES)}")
        arg_names = {a.name for a in schema.arguments}
        decl = OpDecl(
            schema=schema, line=line, path=str(path), variants=variants,
            operators=_as_tuple(entry.get("operators")), tags=tags,
            pointwise=entry.get("pointwise"), promotion=promotion, dtypes=entry.get("dtypes"),
            composite=bool(entry.get("composite", False)),
            non_differentiable=bool(entry.get("non_differentiable", False)),
            namespaces=namespaces, doc=str(entry.get("doc", "")).strip(),
            python_name=entry.get("python_name"), varargs=bool(entry.get("varargs", False)),
            dispatch_on=_as_tuple(entry.get("dispatch_on")),
            numbers=_as_tuple(entry["numbers"]) if "numbers" in entry else None,
            none_by_omission=_as_tuple(entry.get("none_by_omission")),
            only_numbers=bool(entry.get("only_numbers", False)),
            aliases=_as_tuple(entry.get("aliases")),
        )
        for alias in decl.aliases:
            if not alias.isidentifier():
                fail(f"alias {alias!r} is not a Python identifier")
        tensor_names = {a.name for a in schema.arguments if a.is_tensor and not a.type.is_list}
        # other ops take Tensors only, but a composite that happens to work on a number (dist(t, 1))
        # would accept one silently: ``numbers: []`` has the generated function check inline
        if decl.numbers and "pointwise" not in tags:
            fail("'numbers:' restricts which arguments of a pointwise op take Python numbers; "
                 "other ops take Tensors only, so use 'numbers: []' or tag the op 'pointwise'")
        for arg in decl.numbers or ():
            if arg not in tensor_names:
                listed = ", ".join(sorted(tensor_names))
                fail(f"numbers names {arg!r}, which is not a Tensor argument of {name}; list "
                     f"the Tensor arguments that may be Python numbers ({listed}) or write "
                     "'numbers: []' for none")
        if decl.only_numbers and len(tensor_names) != 2:
            fail("'only_numbers: true' takes the first of a binary op's two Tensor arguments as a "
                 f"tensor when both are numbers; {name} has {len(tensor_names)} Tensor arguments")
        for arg in decl.none_by_omission:
            found = next((a for a in schema.arguments if a.name == arg), None)
            if found is None or not found.type.optional or found.default_value is not None:
                fail(f"none_by_omission names {arg!r}, which is not an optional argument of "
                     f"{name} with the default None; declare it '<type>? {arg}=None'")
        for arg in decl.dispatch_on:
            if arg not in {a.name for a in schema.arguments if a.is_tensor}:
                fail(f"dispatch_on names {arg!r}, which is not a Tensor argument of {name}")
        od = entry.get("output_differentiability")
        if od is not None:
            if len(od) != len(schema.returns):
                fail(f"output_differentiability has {len(od)} entries but the op returns "
                     f"{len(schema.returns)} values")
            decl.output_differentiability = tuple(bool(x) for x in od)
        if decl.pointwise is not None:
            if "pointwise" not in tags:
                fail("an entry with a 'pointwise:' snippet must carry the 'pointwise' tag")
            names = _formula_names(str(decl.pointwise), "the pointwise snippet", fail)
            bad = sorted(names - arg_names - POINTWISE_FUNCTIONS - {"math"})
            if bad:
                fail(f"pointwise snippet uses unknown name(s) {bad}; it may use the arguments "
                     f"({', '.join(sorted(arg_names))}) and these functions: "
                     f"{', '.join(sorted(POINTWISE_FUNCTIONS))}")
        derivatives = entry.get("derivatives") or {}
        if not isinstance(derivatives, dict):
            fail("'derivatives:' must map input names to formulas, e.g. 'self: grad * other'")
        return_names = {r.name for r in schema.returns if r.name}
        allowed = (arg_names | return_names | FORMULA_BUILTINS | helper_names
                   | {f"result{i}" for i in range(len(schema.returns))})
        tensor_args = {a.name for a in schema.arguments if a.is_tensor}
        for key, expr in derivatives.items():
            inputs = tuple(k.strip() for k in str(key).split(","))
            for inp in inputs:
                if inp not in arg_names:
                    fail(f"derivative given for {inp!r}, which is not an argument of {name}; "
                         f"its arguments are {', '.join(a.name for a in schema.arguments)}")
                if inp not in tensor_args:
                    fail(f"derivative given for {inp!r}, which is not a Tensor argument; only "
                         "Tensor inputs have gradients (mark others non-differentiable)")
            names = _formula_names(str(expr), f"{key!r}", fail)
            unknown_names = sorted(names - allowed)
            if unknown_names and helper_names:
                fail(f"derivative formula for {key!r} names {unknown_names}, which are neither "
                     f"arguments of {name} ({', '.join(sorted(arg_names))}), outputs, 'grad'/"
                     "'grads'/'result', nor known ops or formula helpers")
            decl.formulas.append(Formula(inputs, str(expr), names))
        returns_tensor = any(r.type.base == "Tensor" for r in schema.returns)
        if (returns_tensor and not decl.formulas and not decl.composite
                and not decl.non_differentiable and not schema.is_inplace
                and "inplace" not in variants and "factory" not in tags
                and "backward" not in tags):
            fail(f"{name} returns a Tensor but declares no 'derivatives:', is not 'composite: "
                 "true', and is not 'non_differentiable: true'; say which one it is")
        decls.append(decl)
    decls.extend(_inplace_variants(decls, str(path), seen))
    return decls


def _inplace_variants(decls: list[OpDecl], path: str, seen: dict[str, int]) -> list[OpDecl]:
    """``variants: inplace`` on ``op`` declares ``op_`` writing into ``self``."""
    extra = []
    for d in decls:
        if "inplace" not in d.variants:
            continue
        s = d.schema
        first = s.arguments[0]
        if not (first.is_tensor and first.name in ("self", "input")):
            raise YamlError(path, d.line, "an inplace variant needs 'Tensor self' first")
        text = str(s).replace(f"{s.name.name}", f"{s.name.name}_", 1)
        text = text.replace(f"Tensor {first.name}", f"Tensor(a!) {first.name}", 1)
        head, _, _ = text.rpartition(" -> ")
        schema = FunctionSchema.parse(f"{head} -> Tensor(a!)")
        name = str(schema.name)
        if name in seen:
            raise YamlError(path, d.line, f"inplace variant {name} is also declared on line "
                            f"{seen[name]}; remove one")
        extra.append(OpDecl(schema=schema, line=d.line, path=path, variants=("method",),
                            tags=tuple(t for t in d.tags if t != "pointwise") + ("inplace",),
                            namespaces=(), inplace_of=d, doc=f"In-place version of {d.name}.",
                            numbers=d.numbers, aliases=tuple(f"{a}_" for a in d.aliases)))
    return extra
