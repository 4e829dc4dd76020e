"""The Tensor methods that enter the autograd engine: ``backward``, ``register_hook`` and
``retain_grad``.

The tensor sits below autograd (autograd's nodes hold tensors), so ``Tensor`` cannot import
them; volta/_wiring.py installs ``TENSOR_METHODS`` on the class (docs/layout.md, "The seam").
"""

from __future__ import annotations

from typing import Any

from volta.autograd.engine import backward as _backward
from volta.autograd.engine import install_retain_grad_hook, register_tensor_hook
from volta.errors import AutogradError


def retain_grad(self: Any) -> None:
    if not self._requires_grad:
        raise AutogradError("can't retain_grad on Tensor that has requires_grad=False")
    if self.grad_fn is None or self._retains_grad:
        return
    self._retains_grad = True
    install_retain_grad_hook(self)


def register_hook(self: Any, hook: Any) -> Any:
    return register_tensor_hook(self, hook)


def backward(self: Any, gradient: Any = None, retain_graph: bool | None = None,
             create_graph: bool = False, inputs: Any = None) -> None:
    _backward((self,), None if gradient is None else (gradient,), retain_graph, create_graph,
              inputs=inputs)


TENSOR_METHODS = {"backward": backward, "register_hook": register_hook,
                  "retain_grad": retain_grad}
