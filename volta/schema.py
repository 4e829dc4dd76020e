"""The operator schema model: frozen dataclasses that parse and print back.

Note [Schema round trip]
Every class here has ``parse(text)`` and ``__str__`` such that ``str(X.parse(s)) == s`` for a
schema written in canonical form (single spaces after commas, ``->`` surrounded by spaces).
Codegen and the runtime (``volta.library.define``) both parse with this module, so an
out-of-tree op and a core op mean exactly the same thing.
"""

from __future__ import annotations

import ast
import functools
import re
from dataclasses import dataclass
from typing import Any

BASE_TYPES = (
    "Tensor", "int", "SymInt", "float", "bool", "str", "Scalar", "ScalarType", "Device",
    "Generator", "Layout", "MemoryFormat",
)


class SchemaSyntaxError(ValueError):
    """A schema string that does not follow the grammar; the message says what to write."""


@dataclass(frozen=True)
class OperatorName:
    namespace: str  # "" for core ops
    name: str
    overload: str  # "" when there is none

    @staticmethod
    def parse(text: str) -> OperatorName:
        namespace = ""
        if "::" in text:
            namespace, text = text.split("::", 1)
        name, _, overload = text.partition(".")
        for part, what in ((name, "name"), (overload, "overload"), (namespace, "namespace")):
            if part and not re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*", part):
                raise SchemaSyntaxError(f"invalid operator {what} {part!r}: use letters, digits "
                                        "and underscores, e.g. 'ext::swiglu.out'")
        if not name:
            raise SchemaSyntaxError("operator name is empty: write e.g. 'add.Tensor(...)'")
        return OperatorName(namespace, name, overload)

    @property
    def unqualified(self) -> str:
        return f"{self.name}.{self.overload}" if self.overload else self.name

    @property
    def is_inplace(self) -> bool:
        return self.name.endswith("_") and not self.name.endswith("__")

    def __str__(self) -> str:
        return f"{self.namespace}::{self.unqualified}" if self.namespace else self.unqualified


@dataclass(frozen=True)
class Type:
    base: str
    optional: bool = False
    is_list: bool = False
    list_size: int | None = None
    elem_optional: bool = False  # Tensor?[]

    @staticmethod
    def parse(text: str) -> Type:
        m = re.fullmatch(r"([A-Za-z]+)(\?)?(?:\[(\d*)\](\?)?)?", text)
        if not m:
            raise SchemaSyntaxError(f"cannot parse type {text!r}: write e.g. 'Tensor', 'int[]', "
                                    "'int[2]', 'Tensor?', 'Tensor[]', 'float?'")
        base, q1, size, q2 = m.groups()
        if base not in BASE_TYPES:
            raise SchemaSyntaxError(f"unknown type {base!r}; known types: {', '.join(BASE_TYPES)}")
        is_list = m.group(3) is not None
        if is_list:
            return Type(base, optional=bool(q2), is_list=True,
                        list_size=int(size) if size else None, elem_optional=bool(q1))
        return Type(base, optional=bool(q1))

    @property
    def is_tensor_like(self) -> bool:
        return self.base == "Tensor"

    def __str__(self) -> str:
        if self.is_list:
            size = "" if self.list_size is None else str(self.list_size)
            return (f"{self.base}{'?' if self.elem_optional else ''}[{size}]"
                    f"{'?' if self.optional else ''}")
        return f"{self.base}{'?' if self.optional else ''}"


@dataclass(frozen=True)
class Annotation:
    alias_set: str
    is_write: bool

    @staticmethod
    def parse(text: str) -> Annotation:
        m = re.fullmatch(r"([a-z])(!)?", text)
        if not m:
            raise SchemaSyntaxError(f"bad alias annotation ({text}): write (a) for a view or (a!) "
                                    "for an argument the op writes to")
        return Annotation(m.group(1), bool(m.group(2)))

    def __str__(self) -> str:
        return f"({self.alias_set}{'!' if self.is_write else ''})"


def _split_top_level(text: str, sep: str = ",") -> list[str]:
    parts, depth, current, quote = [], 0, [], None
    for ch in text:
        if quote:
            current.append(ch)
            if ch == quote:
                quote = None
            continue
        if ch in "\"'":
            quote = ch
        elif ch in "([":
            depth += 1
        elif ch in ")]":
            depth -= 1
        if ch == sep and depth == 0:
            parts.append("".join(current).strip())
            current = []
        else:
            current.append(ch)
    if "".join(current).strip():
        parts.append("".join(current).strip())
    return parts


def _parse_type_and_annotation(text: str) -> tuple[Type, Annotation | None]:
    m = re.fullmatch(r"([A-Za-z]+)(\([a-z]!?\))?(.*)", text)
    if not m:
        raise SchemaSyntaxError(f"cannot parse type {text!r}")
    base, ann, rest = m.groups()
    annotation = Annotation.parse(ann[1:-1]) if ann else None
    return Type.parse(base + rest), annotation


@functools.cache
def _literal(text: str) -> Any:
    # binding fills defaults on every call: parse each distinct text once
    return ast.literal_eval(text)


def parse_default(text: str) -> Any:
    """The Python value of a schema default (``1``, ``None``, ``[0, 0]``, ``"mean"``)."""
    try:
        value = _literal(text)
    except (ValueError, SyntaxError):
        raise SchemaSyntaxError(f"default {text!r} is not a literal: write a number, True/False, "
                                "None, a quoted string or a list of numbers") from None
    return list(value) if isinstance(value, list) else value  # a fresh list for each caller


@dataclass(frozen=True)
class Argument:
    name: str
    type: Type
    default: str | None = None  # the text as written; see ``default_value``
    annotation: Annotation | None = None
    kwarg_only: bool = False

    @staticmethod
    def parse(text: str, kwarg_only: bool = False) -> Argument:
        type_text, _, rest = text.partition(" ")
        name, eq, default = rest.partition("=")
        name = name.strip()
        if not re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*", name):
            raise SchemaSyntaxError(f"argument {text!r} needs a name: write e.g. 'Tensor other'")
        typ, annotation = _parse_type_and_annotation(type_text)
        arg = Argument(name, typ, default.strip() if eq else None, annotation, kwarg_only)
        if eq:
            parse_default(arg.default)
        return arg

    @property
    def has_default(self) -> bool:
        return self.default is not None

    @property
    def default_value(self) -> Any:
        return parse_default(self.default) if self.default is not None else None

    @property
    def is_tensor(self) -> bool:
        return self.type.base == "Tensor"

    @property
    def is_write(self) -> bool:
        return self.annotation is not None and self.annotation.is_write

    def __str__(self) -> str:
        ann = str(self.annotation) if self.annotation else ""
        ty = str(self.type)
        # the annotation sits between the base name and the ?/[] suffix: Tensor(a!)? / Tensor(a)[]
        ty = self.type.base + ann + ty[len(self.type.base):]
        text = f"{ty} {self.name}"
        return f"{text}={self.default}" if self.default is not None else text


@dataclass(frozen=True)
class Return:
    name: str | None
    type: Type
    annotation: Annotation | None = None

    @staticmethod
    def parse(text: str) -> Return:
        type_text, _, name = text.partition(" ")
        typ, annotation = _parse_type_and_annotation(type_text)
        return Return(name.strip() or None, typ, annotation)

    def __str__(self) -> str:
        ty = str(self.type)
        ann = str(self.annotation) if self.annotation else ""
        ty = self.type.base + ann + ty[len(self.type.base):]
        return f"{ty} {self.name}" if self.name else ty


@dataclass(frozen=True)
class FunctionSchema:
    name: OperatorName
    arguments: tuple[Argument, ...]
    returns: tuple[Return, ...]
    returns_tuple: bool  # written "(Tensor a, Tensor b)" rather than a single type

    @staticmethod
    def parse(text: str) -> FunctionSchema:
        m = re.fullmatch(r"\s*([\w:.]+)\((.*)\)\s*->\s*(.+?)\s*", text, re.S)
        if not m:
            raise SchemaSyntaxError(f"cannot parse schema {text!r}: write "
                                    "'name.overload(Type arg, ..., *, Type kw=default) -> Type'")
        name = OperatorName.parse(m.group(1))
        args: list[Argument] = []
        kwarg_only = False
        seen_default = False
        for part in _split_top_level(m.group(2)):
            if part == "*":
                if kwarg_only:
                    raise SchemaSyntaxError("'*' appears twice: keep one keyword-only marker")
                kwarg_only = True
                continue
            arg = Argument.parse(part, kwarg_only)
            if not kwarg_only:
                if arg.has_default:
                    seen_default = True
                elif seen_default:
                    raise SchemaSyntaxError(f"argument {arg.name!r} without a default follows one "
                                            "with a default: give it a default or move it "
                                            "after '*'")
            if any(a.name == arg.name for a in args):
                raise SchemaSyntaxError(f"argument name {arg.name!r} appears twice")
            args.append(arg)
        ret_text = m.group(3).strip()
        returns_tuple = ret_text.startswith("(")
        if returns_tuple:
            if not ret_text.endswith(")"):
                raise SchemaSyntaxError(f"unbalanced return tuple {ret_text!r}")
            returns = tuple(Return.parse(r) for r in _split_top_level(ret_text[1:-1]))
        else:
            returns = (Return.parse(ret_text),)
        return FunctionSchema(name, tuple(args), returns, returns_tuple)

    @property
    def positional(self) -> tuple[Argument, ...]:
        return tuple(a for a in self.arguments if not a.kwarg_only)

    @property
    def kwarg_only(self) -> tuple[Argument, ...]:
        return tuple(a for a in self.arguments if a.kwarg_only)

    @property
    def is_inplace(self) -> bool:
        return self.name.is_inplace

    @property
    def mutated_arguments(self) -> tuple[int, ...]:
        return tuple(i for i, a in enumerate(self.arguments) if a.is_write)

    @property
    def returns_view(self) -> bool:
        """The first output aliases an input without writing to it (``Tensor(a)``)."""
        return bool(self.returns and self.returns[0].annotation
                    and not self.returns[0].annotation.is_write)

    def argument(self, name: str) -> Argument | None:
        return next((a for a in self.arguments if a.name == name), None)

    def __str__(self) -> str:
        parts: list[str] = []
        star = False
        for a in self.arguments:
            if a.kwarg_only and not star:
                parts.append("*")
                star = True
            parts.append(str(a))
        if self.returns_tuple:
            ret = "(" + ", ".join(str(r) for r in self.returns) + ")"
        else:
            ret = str(self.returns[0])
        return f"{self.name}({', '.join(parts)}) -> {ret}"


@dataclass(frozen=True)
class OpInfo:
    """What an op's declaration says beyond its schema, fixed when the op is defined.

    ``composite``: declared ``composite: true`` in ops.yaml, so an implementation must be wired;
    ``inplace_of``: for generated ``op_`` variants, the functional op they write back from;
    ``promotion`` and ``dtypes``: the yaml's type-promotion rule and dtype set (for tools,
    docs and backends); ``pointwise``: the yaml's ``pointwise:`` expression snippet, from which
    backends generate their elementwise kernels (docs/plugins.md); ``non_differentiable``:
    autograd passes the op through without a backward node; ``numbers``: the Tensor arguments
    that take Python numbers, None for all of a pointwise op's (Note [Numbers as tensors] in
    volta/dispatch/binding.py).
    """

    composite: bool = False
    inplace_of: str | None = None
    promotion: str | None = None
    dtypes: str | None = None
    pointwise: str | None = None
    non_differentiable: bool = False
    numbers: tuple[str, ...] | None = None
