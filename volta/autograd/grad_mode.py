"""Grad modes: thread-local, usable as context managers and as decorators.

``no_grad`` puts Autograd into this thread's excluded key set, so ops skip the Autograd key
entirely: no nodes, no saved tensors, no bookkeeping at all.
"""

from __future__ import annotations

import functools
import threading
from collections.abc import Callable
from typing import Any, TypeVar

from volta.dispatch.keys import Autograd
from volta.dispatch.local_state import LOCAL

F = TypeVar("F", bound=Callable[..., Any])


class _InferenceState(threading.local):
    enabled: bool = False


_inference = _InferenceState()


def is_grad_enabled() -> bool:
    return not LOCAL.excluded & Autograd.mask


def is_inference_mode_enabled() -> bool:
    return _inference.enabled


def _set_enabled(enabled: bool) -> None:
    if enabled:
        LOCAL.excluded &= ~Autograd.mask
    else:
        LOCAL.excluded |= Autograd.mask


class _GradModeContext:
    """Base: a context manager that is also a decorator (a fresh state per call).

    ``@no_grad()`` and ``@no_grad`` (without parentheses) both work, as in PyTorch.
    """

    def __new__(cls, *args: Any, **kwargs: Any) -> Any:
        if cls in _NO_PARAM and len(args) == 1 and callable(args[0]) and not kwargs:
            return object.__new__(cls)(args[0])
        return object.__new__(cls)

    def _enter(self) -> None:
        raise NotImplementedError

    def _exit(self) -> None:
        raise NotImplementedError

    def __enter__(self) -> None:
        self._enter()

    def __exit__(self, *exc: Any) -> None:
        self._exit()

    def clone(self) -> _GradModeContext:
        return self.__class__()

    def __call__(self, fn: F) -> F:
        @functools.wraps(fn)
        def wrapper(*args: Any, **kwargs: Any) -> Any:
            with self.clone():
                return fn(*args, **kwargs)

        return wrapper  # type: ignore[return-value]


class no_grad(_GradModeContext):  # noqa: N801 - PyTorch's public name
    """Disable gradient recording on this thread."""

    def _enter(self) -> None:
        self._prev = is_grad_enabled()
        _set_enabled(False)

    def _exit(self) -> None:
        _set_enabled(self._prev)


class enable_grad(_GradModeContext):  # noqa: N801
    """Enable gradient recording on this thread (inside ``no_grad``)."""

    def _enter(self) -> None:
        self._prev = is_grad_enabled()
        _set_enabled(True)

    def _exit(self) -> None:
        _set_enabled(self._prev)


class set_grad_enabled(_GradModeContext):  # noqa: N801
    """``set_grad_enabled(False)`` works as a call, a context manager and a decorator."""

    def __init__(self, mode: bool) -> None:
        self.mode = bool(mode)
        self._prev = is_grad_enabled()
        _set_enabled(self.mode)  # like PyTorch: calling it sets the mode right away

    def __call__(self, fn: F) -> F:
        _set_enabled(self._prev)  # used as a decorator: setting the mode was not meant yet
        return super().__call__(fn)

    def clone(self) -> set_grad_enabled:
        return set_grad_enabled(self.mode)

    def _enter(self) -> None:
        _set_enabled(self.mode)

    def _exit(self) -> None:
        _set_enabled(self._prev)


class inference_mode(_GradModeContext):  # noqa: N801
    """Like ``no_grad``, and tensors made inside are marked as inference tensors."""

    def __init__(self, mode: bool = True) -> None:
        self.mode = mode

    def clone(self) -> inference_mode:
        return inference_mode(self.mode)

    def _enter(self) -> None:
        self._prev = is_grad_enabled()
        self._prev_inference = _inference.enabled
        if self.mode:
            _set_enabled(False)
            _inference.enabled = True

    def _exit(self) -> None:
        _set_enabled(self._prev)
        _inference.enabled = self._prev_inference


_NO_PARAM = {no_grad, enable_grad, inference_mode}
