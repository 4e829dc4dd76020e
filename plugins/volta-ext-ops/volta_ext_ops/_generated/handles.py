# @generated from volta_ext_ops/ops.yaml by `python -m codegen` — do not edit.
# ruff: noqa
"""Operator handles of this package, set by ``define_ops``."""

from types import SimpleNamespace

HANDLES = SimpleNamespace()
