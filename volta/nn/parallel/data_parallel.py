"""``DataParallel``, as PyTorch defines it on a machine without accelerators: volta has no
multi-device replication, so the wrapper calls its module as it is. Code written for
``nn.DataParallel`` runs unchanged, and checkpoints keep PyTorch's ``module.``-prefixed keys."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from volta.nn.modules.module import Module


class DataParallel(Module):
    """Wraps ``module`` (registered as the child ``module``) and calls it with the inputs.

    Args:
        module: the module to run.
        device_ids, output_device, dim: accepted for PyTorch compatibility; with no devices
            to scatter over (``device_ids`` ends up empty, as in PyTorch on CPU) they are
            unused.
    """

    def __init__(self, module: Module, device_ids: Sequence[Any] | None = None,
                 output_device: Any = None, dim: int = 0) -> None:
        super().__init__()
        self.module = module
        self.device_ids: list[Any] = []

    def forward(self, *inputs: Any, **kwargs: Any) -> Any:
        return self.module(*inputs, **kwargs)
