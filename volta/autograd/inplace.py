"""Autograd for in-place ops: refuse what cannot be differentiated, otherwise compute the
functional op under autograd, write its value into ``self``, and move ``self``'s history."""

from __future__ import annotations

from typing import Any

from volta.autograd.graph import rebase_history
from volta.dispatch.keys import Autograd
from volta.errors import AutogradError


def check_inplace(self: Any) -> None:
    from volta.autograd.grad_mode import is_grad_enabled
    if not is_grad_enabled():
        return
    if self._requires_grad and self.grad_fn is None and self._base is None:
        raise AutogradError("a leaf Variable that requires grad is being used in an in-place "
                            "operation.")
    base = self._base
    if base is not None and base._requires_grad and base.grad_fn is None:
        raise AutogradError("a view of a leaf Variable that requires grad is being used in an "
                            "in-place operation.")


def inplace_autograd(inplace_op: Any, functional_op: Any, needs_copy: bool,
                     args: tuple) -> Any:
    self = args[0]
    check_inplace(self)
    source = self.clone() if needs_copy else self
    out = functional_op(source, *args[1:])
    from volta.dispatch.local_state import LOCAL
    from volta.tensor.inplace import write_result
    saved = LOCAL.excluded
    LOCAL.excluded = saved | Autograd.mask_and_above
    try:
        write_result(inplace_op, self, out)
    finally:
        LOCAL.excluded = saved
    if out.grad_fn is not None:
        rebase_history(self, out.grad_fn, out._output_nr)
    return self
