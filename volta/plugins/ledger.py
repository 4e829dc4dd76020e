"""What one plugin registered, so that a failing plugin can be undone without touching others.

Note [Plugin ledger]
A plugin's registrations are found by difference. Around each piece of the plugin's code (its
import, each of its hook calls) the registries are captured as flat *cells*: an operator, one
kernel of an operator at one key, an operator's composite or autograd information, a key's
fallback, a device (backend), a dispatch key, the CPU-fallback factory. Every cell that changed
goes into the plugin's ledger as ``(cell, before, after)``, whoever's API the plugin called.

Rolling a plugin back puts ``before`` into every cell that still holds the plugin's ``after``;
a cell that another plugin changed since keeps the other plugin's value. Then the cells that
hung on something removed go too, whoever registered them: the kernels, composite and autograd
information of a removed operator, and kernels and fallbacks under a removed dispatch key. The
dispatcher's part is read with ``Dispatcher.snapshot()`` and written back with
``Dispatcher.restore()``, the machinery of ``volta.library.scoped()``.
"""

from __future__ import annotations

from typing import Any

from volta.dispatch import keys as K
from volta.dispatch.dispatcher import DISPATCHER

Cell = tuple  # ("op", name) | ("kernel", name, key) | ("backend", name) | ... (see capture)
Change = tuple  # (cell, before, after); MISSING where the cell did not exist


class _Missing:
    def __repr__(self) -> str:
        return "MISSING"


MISSING: Any = _Missing()


def capture(backends: Any) -> dict[Cell, Any]:
    """Every registration in volta's registries, one cell each."""
    ops, tables, fallbacks, _ = DISPATCHER.snapshot()
    cells: dict[Cell, Any] = {}
    for name, handle in ops.items():
        cells[("op", name)] = handle
        kernels, composite, autograd_info = tables[name]
        for key, entry in kernels.items():
            cells[("kernel", name, key)] = entry
        if composite is not None:
            cells[("composite", name)] = composite
        if autograd_info is not None:
            cells[("autograd", name)] = autograd_info
    for key, entry in fallbacks.items():
        cells[("fallback", key)] = entry
    factory = DISPATCHER._cpu_fallback_factory
    if factory is not None:
        cells[("cpu-fallback",)] = factory
    for name in backends.names():
        cells[("backend", name)] = backends.get(name)
    for key in K.KEYS.all():
        cells[("key", key.name)] = key
    return cells


def changes(before: dict[Cell, Any], after: dict[Cell, Any]) -> list[Change]:
    """The cells that differ, as ``(cell, before, after)``."""
    found = [(cell, value, after.get(cell, MISSING)) for cell, value in before.items()
             if after.get(cell, MISSING) is not value]
    found += [(cell, MISSING, value) for cell, value in after.items() if cell not in before]
    return found


def describe(cell: Cell, value: Any) -> str:
    """One line for ``PluginRecord.rolled_back``."""
    kind = cell[0]
    provenance = getattr(value, "provenance", "")
    source = f" (from {provenance})" if provenance else ""
    if kind == "op":
        return f"operator {cell[1]}"
    if kind == "kernel":
        return f"kernel {cell[1]} [{cell[2].name}]{source}"
    if kind in ("composite", "autograd"):
        return f"{kind} of {cell[1]}{source}"
    if kind == "fallback":
        return f"fallback of {cell[1].name}{source}"
    if kind == "backend":
        return f"device {cell[1]!r}"
    if kind == "key":
        return f"dispatch key {cell[1]}"
    return "CPU-fallback factory"


def revert(ledger: list[Change], backends: Any) -> list[str]:
    """Undo ``ledger`` (see Note [Plugin ledger]); returns what was removed or restored."""
    cells = capture(backends)
    current = dict(cells)
    undone: list[str] = []
    for cell, before, after in reversed(ledger):
        if cells.get(cell, MISSING) is not after:
            continue  # changed again since (or already gone with its operator or key)
        if before is MISSING:
            del cells[cell]
        else:
            cells[cell] = before
        undone.append(describe(cell, after))
    ops = {cell[1] for cell in cells if cell[0] == "op"}
    keys = {value for cell, value in cells.items() if cell[0] == "key"}
    for cell in list(cells):
        kind, value = cell[0], cells[cell]
        if kind in ("kernel", "composite", "autograd") and cell[1] not in ops:
            del cells[cell]  # went with its operator
        elif ((kind == "kernel" and cell[2] not in keys)
              or (kind == "fallback" and cell[1] not in keys)
              or (kind == "backend" and value.key not in keys)):
            undone.append(describe(cell, value))  # hung on a removed dispatch key
            del cells[cell]
    _write(cells, current, backends)
    return undone


def _write(cells: dict[Cell, Any], current: dict[Cell, Any], backends: Any) -> None:
    """Make the registries hold ``cells`` (``current`` is what they hold now)."""
    ops = {cell[1]: value for cell, value in cells.items() if cell[0] == "op"}
    tables: dict[str, tuple[dict, Any, Any]] = {name: ({}, None, None) for name in ops}
    fallbacks = {}
    for cell, value in cells.items():
        kind = cell[0]
        if kind == "kernel":
            tables[cell[1]][0][cell[2]] = value
        elif kind == "composite":
            kernels, _, autograd_info = tables[cell[1]]
            tables[cell[1]] = (kernels, value, autograd_info)
        elif kind == "autograd":
            kernels, composite, _ = tables[cell[1]]
            tables[cell[1]] = (kernels, composite, value)
        elif kind == "fallback":
            fallbacks[cell[1]] = value
    for cell, handle in current.items():
        if cell[0] == "op" and cell[1] not in ops:
            handle.invalidate()  # a removed operator someone still holds resolves nothing stale
    DISPATCHER.restore((ops, tables, fallbacks, DISPATCHER.cpu_fallback_enabled))
    if cells.get(("cpu-fallback",)) is not current.get(("cpu-fallback",)):
        DISPATCHER.set_cpu_fallback_factory(cells.get(("cpu-fallback",)))
    for name in backends.names():
        if ("backend", name) not in cells:
            backends.unregister(name)
    for cell, key in current.items():
        if cell[0] == "key" and cell not in cells:
            K.KEYS.unregister_backend(key)
