"""``volta.fft``: the shifts of PyTorch's FFT namespace (generated from ops.yaml)."""

from __future__ import annotations

from volta._generated import functions as _F

__all__ = list(_F.NAMESPACES.get("fft", ()))
globals().update({name: getattr(_F, name) for name in __all__})
