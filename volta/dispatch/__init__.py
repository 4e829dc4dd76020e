"""The dispatcher: keys, key sets, kernel tables, fallbacks, explain."""

from __future__ import annotations

from typing import Any

from volta.dispatch.dispatcher import DISPATCHER, FALLTHROUGH, OperatorHandle
from volta.dispatch.explanation import explain as _explain
from volta.dispatch.keys import KEYS, Autocast, Autograd, DispatchKey, Meta, Tracing
from volta.dispatch.local_state import exclude_keys, include_keys

__all__ = ["DISPATCHER", "FALLTHROUGH", "OperatorHandle", "KEYS", "DispatchKey", "Tracing",
           "Autocast", "Autograd", "Meta", "explain", "table", "include_keys", "exclude_keys",
           "set_cpu_fallback", "cpu_fallback_counts"]


def explain(op: Any, *args: Any, **kwargs: Any) -> Any:
    """How ``op(*args, **kwargs)`` would dispatch, without running it.

    ``op`` is an op function (``volta.add``, ``volta.ops.ext.swiglu``), an
    :class:`OperatorHandle` or a name (``"add"``, ``"add.Tensor"``, ``"ext::swiglu"``); the
    arguments pick the overload and give the tensors whose keys (device, Autograd) count, with
    this thread's included and excluded keys applied. The returned ``Explanation`` has the key
    set, the kernel that runs first and its provenance (who registered it), the keys skipped
    as fallthroughs, whether the choice is cached, and ``chain``: every step of the call from
    the first key down to the backend (e.g. Autograd's kernel, then the CPU kernel), each with
    its provenance. ``print(explain(...))`` shows all of it; ``python -m volta explain OP``
    prints the same for sample arguments."""
    return _explain(op, *args, **kwargs)


def table(op: Any) -> str:
    """Every key's kernel for ``op`` and where it came from."""
    if isinstance(op, OperatorHandle):
        return op.table()
    return DISPATCHER.find(op if isinstance(op, str) else op.__name__).table()


def set_cpu_fallback(enabled: bool) -> None:
    """Allow or forbid running ops on the CPU for backends that lack a kernel."""
    DISPATCHER.set_cpu_fallback(enabled)


def cpu_fallback_counts() -> dict[str, int]:
    return dict(DISPATCHER.cpu_fallback_counts)
