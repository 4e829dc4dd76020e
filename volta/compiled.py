"""volta's optional compiled extension modules (C, built by setup.py from each ``native/*.c``).

Each is an accelerator of code that also exists in Python: ``load`` returns the module, or
None when volta was installed without a C compiler or the environment sets ``VOLTA_NATIVE=0``,
and every caller then runs its Python/numpy path. The test suite runs both.
"""

from __future__ import annotations

import importlib
import os
from types import ModuleType

ENABLED = os.environ.get("VOLTA_NATIVE", "1").strip().lower() not in ("0", "false", "no", "off")

_modules: dict[str, ModuleType | None] = {}


def load(name: str) -> ModuleType | None:
    """The compiled module ``name`` (a full dotted name), or None (not built, or disabled)."""
    try:
        return _modules[name]
    except KeyError:
        pass
    module = None
    if ENABLED:
        try:
            module = importlib.import_module(name)
        except ImportError:
            module = None
    _modules[name] = module
    return module
