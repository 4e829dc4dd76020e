"""``volta.special``: PyTorch's special-functions namespace (generated from ops.yaml)."""

from __future__ import annotations

from volta._generated import functions as _F

__all__ = list(_F.NAMESPACES.get("special", ()))
globals().update({name: getattr(_F, name) for name in __all__})
expit = _F.sigmoid
__all__.append("expit")
