"""``volta.signal``: PyTorch's signal-processing namespace (window functions for now)."""

from __future__ import annotations

from volta.signal import windows

__all__ = ["windows"]
