"""The dispatcher: keys, key sets, kernel tables, fallbacks, explain."""

from __future__ import annotations

from typing import Any

from volta.dispatch.dispatcher import DISPATCHER, FALLTHROUGH, OperatorHandle
from volta.dispatch.keys import KEYS, Autocast, Autograd, DispatchKey, Meta, Tracing
from volta.dispatch.local_state import exclude_keys, include_keys

__all__ = ["DISPATCHER", "FALLTHROUGH", "OperatorHandle", "KEYS", "DispatchKey", "Tracing",
           "Autocast", "Autograd", "Meta", "explain", "table", "include_keys", "exclude_keys",
           "set_cpu_fallback", "cpu_fallback_counts"]


def explain(op: Any, *args: Any, **kwargs: Any) -> Any:
    from volta.dispatch.explanation import explain as _explain
    return _explain(op, *args, **kwargs)


def table(op: Any) -> str:
    """Every key's kernel for ``op`` and where it came from."""
    if isinstance(op, OperatorHandle):
        return op.table()
    return DISPATCHER.find(op if isinstance(op, str) else op.__name__).table()


def set_cpu_fallback(enabled: bool) -> None:
    """Allow or forbid running ops on the CPU for backends that lack a kernel."""
    DISPATCHER.cpu_fallback_enabled = bool(enabled)
    DISPATCHER.invalidate_all()


def cpu_fallback_counts() -> dict[str, int]:
    return dict(DISPATCHER.cpu_fallback_counts)
