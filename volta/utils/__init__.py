"""Utilities on top of the public API: activation checkpointing (``volta.utils.checkpoint``)."""

from __future__ import annotations

from volta.utils import checkpoint

__all__ = ["checkpoint"]
