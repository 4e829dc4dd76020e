"""Which backend can run which operator, and how: the op x backend coverage matrix.

For every registered operator and every backend dispatch key, the resolution the dispatcher
itself would make for a tensor of that backend alone (``OperatorHandle.resolve``): a kernel of
the backend's own, the op's composite (it runs as other ops), the key's fallback, the CPU
fallback (copy to the host, run the CPU kernel, copy back), or nothing. ``python -m volta ops``
prints it; backend test suites assert on it.
"""

from __future__ import annotations

from dataclasses import dataclass

from volta.dispatch import keys as K
from volta.dispatch.dispatcher import DISPATCHER, OperatorHandle
from volta.errors import NoKernelError

__all__ = ["OpCoverage", "coverage", "STATUSES"]

#: Every status a cell can have, best first.
STATUSES = ("kernel", "composite", "fallback", "cpu-fallback", "missing")


@dataclass(frozen=True)
class OpCoverage:
    """One operator's row: its name, namespace, autograd support and one status per backend."""

    op: str
    namespace: str
    autograd: str  # "formula" (derivatives or a backward), "composite", "kernel", "none"
    cells: dict[str, str]  # backend key name -> one of STATUSES


def _namespace(name: str) -> str:
    return name.split("::", 1)[0] if "::" in name else "volta"


def _autograd(handle: OperatorHandle) -> str:
    if K.Autograd in handle.kernels:
        return "formula" if handle.autograd_info is not None else "kernel"
    if handle.composite is not None:
        return "composite"
    return "none"


def _status(handle: OperatorHandle, key: K.DispatchKey) -> str:
    try:
        resolution = handle.resolve(key.mask)
    except NoKernelError:
        return "missing"
    return resolution.source


def coverage(backends: list[str] | None = None) -> list[OpCoverage]:
    """The coverage matrix, one row per operator overload sorted by name; ``backends`` limits
    the columns to these dispatch key names (default: every backend key, e.g. Meta, CPU, WGPU
    and plugins' keys)."""
    keys = [key for key in K.KEYS.all() if key.is_backend]
    if backends is not None:
        known = {key.name.lower(): key for key in keys}
        unknown = [name for name in backends if name.lower() not in known]
        if unknown:
            raise NoKernelError(f"no backend dispatch key named {', '.join(unknown)}; "
                                f"known: {', '.join(key.name for key in keys)}")
        keys = [known[name.lower()] for name in backends]
    rows = []
    for name, handle in sorted(DISPATCHER.ops.items()):
        rows.append(OpCoverage(name, _namespace(name), _autograd(handle),
                               {key.name: _status(handle, key) for key in keys}))
    return rows
