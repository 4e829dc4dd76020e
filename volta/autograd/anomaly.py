"""``detect_anomaly``: record where each node was created and fail on NaN gradients, naming the
forward op whose backward produced them."""

from __future__ import annotations

from typing import Any

from volta.autograd.graph import ANOMALY


class detect_anomaly:  # noqa: N801 - PyTorch's public name
    def __init__(self, check_nan: bool = True) -> None:
        self.check_nan = check_nan

    def __enter__(self) -> None:
        self._prev = (ANOMALY.enabled, ANOMALY.check_nan)
        ANOMALY.enabled = True
        ANOMALY.check_nan = self.check_nan

    def __exit__(self, *exc: Any) -> None:
        ANOMALY.enabled, ANOMALY.check_nan = self._prev


class set_detect_anomaly:  # noqa: N801
    def __init__(self, mode: bool, check_nan: bool = True) -> None:
        self._prev = (ANOMALY.enabled, ANOMALY.check_nan)
        ANOMALY.enabled = mode
        ANOMALY.check_nan = check_nan

    def __enter__(self) -> None:
        pass

    def __exit__(self, *exc: Any) -> None:
        ANOMALY.enabled, ANOMALY.check_nan = self._prev


def is_anomaly_enabled() -> bool:
    return ANOMALY.enabled
