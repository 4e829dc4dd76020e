"""Defining operators from schema strings (used by generated code and ``volta.library``)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from volta.dispatch.dispatcher import DISPATCHER, OperatorHandle
from volta.errors import SchemaError
from volta.schema import FunctionSchema, SchemaSyntaxError


def parse_schema(text: str) -> FunctionSchema:
    try:
        return FunctionSchema.parse(text)
    except SchemaSyntaxError as exc:
        raise SchemaError(str(exc)) from None


def define_from_yaml(schema: str, tags: Sequence[str] = (), source: str = "",
                     composite: bool = False, inplace_of: str | None = None,
                     promotion: str | None = None, dtypes: str | None = None,
                     non_differentiable: bool = False,
                     dispatch_on: tuple[str, ...] = ()) -> OperatorHandle:
    """Define an op declared in a yaml file; generated ``registry.py`` modules call this."""
    op = DISPATCHER.define(parse_schema(schema), tags, provenance=source)
    if dispatch_on:
        op.dispatch_only_on(dispatch_on)
    op.declared_composite = composite
    op.promotion = promotion
    op.dtypes = dtypes
    op.non_differentiable = non_differentiable
    op.inplace_of = inplace_of
    if inplace_of is not None:
        functional = DISPATCHER.find(inplace_of)
        DISPATCHER.register_composite(op, _generic_inplace(op, functional),
                                      provenance="generic in-place (functional op, then copy_)")
    return op


def _generic_inplace(op: OperatorHandle, functional: OperatorHandle) -> Any:
    def inplace(self: Any, *rest: Any) -> Any:
        from volta.tensor.inplace import write_result
        return write_result(op, self, functional(self, *rest))

    inplace.__qualname__ = f"inplace[{op.name}]"
    return inplace
