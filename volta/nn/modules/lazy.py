"""``LazyModuleMixin``: layers whose input size is inferred from their first input.

A lazy layer starts with :class:`UninitializedParameter` (and ``UninitializedBuffer``)
entries. A forward pre-hook calls the layer's ``initialize_parameters(*args, **kwargs)`` on the
first call, which materializes them from the input's shape and initializes them as the eager
layer would; the hook then removes itself and the layer becomes its ``cls_to_become`` (a
``LazyLinear`` becomes a ``Linear``). Loading a ``state_dict`` into a lazy layer materializes it
from the stored shapes instead.
"""

from __future__ import annotations

import itertools
from typing import Any

import volta
from volta.nn.parameter import is_lazy


class LazyModuleMixin:
    """Mixed in before the eager layer class; the subclass defines
    ``initialize_parameters(*args, **kwargs)`` and ``cls_to_become``."""

    cls_to_become: type | None = None

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.register_forward_pre_hook(self._infer_parameters,  # type: ignore[attr-defined]
                                       with_kwargs=True)

    def has_uninitialized_params(self) -> bool:
        """Whether a parameter or buffer of this layer still has no shape."""
        entries = itertools.chain(self._parameters.values(),  # type: ignore[attr-defined]
                                  self._buffers.values())  # type: ignore[attr-defined]
        return any(is_lazy(entry) for entry in entries)

    def _infer_parameters(self, module: Any, args: tuple, kwargs: dict | None = None) -> None:
        module.initialize_parameters(*args, **(kwargs or {}))
        if module.has_uninitialized_params():
            raise volta.InvalidOperationError(
                f"module {module._get_name()} has not been fully initialized")
        # found by its function rather than through a kept handle, so a deep copy of a lazy
        # layer removes its own hook and not the original's
        for hook_id, hook in list(module._forward_pre_hooks.items()):
            if getattr(hook, "__func__", None) is LazyModuleMixin._infer_parameters:
                del module._forward_pre_hooks[hook_id]
                module._forward_pre_hooks_with_kwargs.discard(hook_id)
        if module.cls_to_become is not None:
            module.__class__ = module.cls_to_become
