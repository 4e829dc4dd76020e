"""``volta.nn``: neural-network building blocks. Layers call only volta ops, so they run on
every backend (plugin backends included)."""

from volta.nn import functional

__all__ = ["functional"]
