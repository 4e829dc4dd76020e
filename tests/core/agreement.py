"""The one check of the agreement tests: run a call through volta and through PyTorch; both
accept with the same result (compared by the caller's ``same``), or both reject, volta with a
VoltaError."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import volta


def outcome(call: Callable[[], Any]) -> tuple[bool, Any]:
    """(True, result) or (False, the exception)."""
    try:
        return True, call()
    except Exception as error:  # noqa: BLE001 - which class PyTorch raises varies
        return False, error


def agree(volta_call: Callable[[], Any], torch_call: Callable[[], Any],
          same: Callable[[Any, Any], None]) -> None:
    ok_v, result_v = outcome(volta_call)
    ok_t, result_t = outcome(torch_call)
    assert ok_v == ok_t, f"volta {'accepts' if ok_v else 'rejects'} ({result_v!r}), " \
                         f"PyTorch {'accepts' if ok_t else 'rejects'} ({result_t!r})"
    if ok_v:
        same(result_v, result_t)
    else:
        assert isinstance(result_v, volta.VoltaError), repr(result_v)
