"""Activation checkpointing: trade compute for memory, on saved-tensor hooks.

``checkpoint(fn, *args)`` runs ``fn`` normally, recording its graph, but under
:class:`~volta.autograd.graph.saved_tensors_hooks` whose pack hook keeps only a numbered handle
of each tensor the graph saves. The first time backward unpacks one of them, ``fn`` runs again
(with the random-number state of the first run, so dropout draws the same mask) under hooks that
collect every saved tensor by the same numbering, and stops as soon as all are back. These are
the semantics of PyTorch's ``use_reentrant=False``: keyword arguments, outputs that are not
tensors, ``autograd.grad``, parameters ``fn`` closes over and nested checkpoints all work, since
the graph is the ordinary one.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from typing import Any

from volta.autograd.grad_mode import enable_grad, is_grad_enabled
from volta.autograd.graph import saved_tensors_hooks
from volta.errors import InvalidArgumentError
from volta.tensor.factories import default_generator
from volta.tensor.tensor import Tensor

__all__ = ["checkpoint", "checkpoint_sequential"]


def _generator() -> Any:
    return default_generator()


@contextmanager
def _rng_state(state: Tensor | None) -> Iterator[None]:
    """Run the block with the generator at ``state``, then put back the state it had before."""
    if state is None:
        yield
        return
    gen = _generator()
    current = gen.get_state()
    gen.set_state(state)
    try:
        yield
    finally:
        gen.set_state(current)


class _RecomputationDone(Exception):  # noqa: N818 - a signal, not an error
    """Raised inside the recomputation once every saved tensor is back (the rest is not needed)."""


class _Frame:
    """One checkpointed call: how to run it again, and the tensors a recomputation gave back."""

    def __init__(self, run: Callable[[], Any], inputs: list[Tensor],
                 rng_state: Tensor | None) -> None:
        self.run = run
        self.rng_state = rng_state
        # the recomputation reads the inputs again: they must hold the values they held
        self.inputs = [(t, t._version) for t in inputs]
        self.saved = 0  # how many tensors the first run saved; handles are 0 .. saved-1
        self.recomputed: dict[int, Tensor] = {}

    def pack(self, _tensor: Tensor) -> int:
        handle = self.saved
        self.saved += 1
        return handle

    def unpack(self, handle: int) -> Tensor:
        if handle not in self.recomputed:
            self.recompute()
        # each handle is read once per backward; a retained graph recomputes again
        return self.recomputed.pop(handle)

    def recompute(self) -> None:
        from volta.errors import AutogradError
        for t, version in self.inputs:
            if t._version != version:
                raise AutogradError(
                    f"one of the variables needed for gradient computation has been modified "
                    f"by an inplace operation: an input of checkpoint is at version "
                    f"{t._version}; expected version {version} instead")
        found: list[Tensor] = []

        def collect(t: Tensor) -> None:
            found.append(t.detach())
            if len(found) == self.saved:
                raise _RecomputationDone

        with saved_tensors_hooks(collect, lambda _: None), enable_grad(), \
                _rng_state(self.rng_state), contextlib.suppress(_RecomputationDone):
            self.run()
        if len(found) != self.saved:
            raise AutogradError(
                f"checkpoint: recomputing the function saved {len(found)} tensors for backward "
                f"but the first run saved {self.saved}; the function must do the same work "
                "when run again")
        self.recomputed = dict(enumerate(found))


def checkpoint(function: Callable[..., Any], *args: Any, use_reentrant: bool | None = None,
               preserve_rng_state: bool = True, **kwargs: Any) -> Any:
    """Run ``function(*args, **kwargs)`` without keeping its intermediate values for backward.

    Args:
        function: the callable to checkpoint; it must do the same work when run again.
        *args, **kwargs: its arguments, kept until backward.
        use_reentrant: accepted for PyTorch compatibility; volta implements only the
            ``use_reentrant=False`` variant, so ``True`` is refused.
        preserve_rng_state: replay the random-number state of the first run when recomputing,
            so random ops (dropout) draw the same values.

    Returns:
        What ``function`` returns.
    """
    if use_reentrant:
        raise InvalidArgumentError("checkpoint: volta implements use_reentrant=False only")
    if not is_grad_enabled():
        return function(*args, **kwargs)
    rng_state = _generator().get_state() if preserve_rng_state else None
    inputs = [a for a in (*args, *kwargs.values()) if isinstance(a, Tensor)]
    frame = _Frame(lambda: function(*args, **kwargs), inputs, rng_state)
    with saved_tensors_hooks(frame.pack, frame.unpack):
        return function(*args, **kwargs)


def checkpoint_sequential(functions: Any, segments: int, input: Any,
                          use_reentrant: bool | None = None,
                          preserve_rng_state: bool = True) -> Any:
    """Apply ``functions`` in order to ``input``, split into ``segments`` runs of which all but
    the last are checkpointed (as PyTorch does).

    Args:
        functions: a sequence of callables, or a container with ``children()`` (a Sequential).
        segments: how many runs to split them into (1 to ``len(functions)``).
        input: the tensor passed to the first function.
    """
    if callable(getattr(functions, "children", None)):
        functions = list(functions.children())
    functions = list(functions)
    if not 1 <= segments <= max(len(functions), 1):
        raise InvalidArgumentError(
            f"checkpoint_sequential: segments must be between 1 and "
            f"{len(functions)}, got {segments}")

    def run(segment: Sequence[Callable[..., Any]], x: Any) -> Any:
        for fn in segment:
            x = fn(x)
        return x

    size = len(functions) // segments
    start = 0
    for _ in range(segments - 1):
        input = checkpoint(run, functions[start:start + size], input,
                           use_reentrant=use_reentrant, preserve_rng_state=preserve_rng_state)
        start += size
    return run(functions[start:], input)
