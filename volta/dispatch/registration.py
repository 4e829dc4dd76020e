"""Defining operators from schema strings (used by generated code and ``volta.library``)."""

from __future__ import annotations

from collections.abc import Sequence

from volta.dispatch.dispatcher import DISPATCHER, OperatorHandle
from volta.errors import SchemaError
from volta.schema import FunctionSchema, OpInfo, SchemaSyntaxError


def parse_schema(text: str) -> FunctionSchema:
    try:
        return FunctionSchema.parse(text)
    except SchemaSyntaxError as exc:
        raise SchemaError(str(exc)) from None


def define_from_yaml(schema: str, tags: Sequence[str] = (), source: str = "",
                     composite: bool = False, inplace_of: str | None = None,
                     promotion: str | None = None, dtypes: str | None = None,
                     pointwise: str | None = None, non_differentiable: bool = False,
                     dispatch_on: tuple[str, ...] = (),
                     numbers: tuple[str, ...] | None = None) -> OperatorHandle:
    """Define an op declared in a yaml file; generated ``registry.py`` modules call this."""
    info = OpInfo(composite=composite, inplace_of=inplace_of, promotion=promotion,
                  dtypes=dtypes, pointwise=pointwise,
                  non_differentiable=non_differentiable, numbers=numbers)
    op = DISPATCHER.define(parse_schema(schema), tags, provenance=source, info=info)
    if dispatch_on:
        op.dispatch_only_on(dispatch_on)
    return op
