"""User-defined differentiable functions (``volta.autograd.Function``) and the Python-backward
kernels behind ``volta.library.register_autograd``."""

from __future__ import annotations

from typing import Any

from volta.autograd.grad_mode import is_grad_enabled
from volta.autograd.graph import _FREED_MESSAGE, Node, connect, save, set_history, unpack
from volta.dispatch.keys import Autograd
from volta.dispatch.local_state import LOCAL
from volta.errors import AutogradError
from volta.tensor.factories import zeros
from volta.tensor.tensor import Tensor


class FunctionCtx:
    """The ``ctx`` of a custom function: saved tensors and flags between forward and backward."""

    def __init__(self) -> None:
        self.needs_input_grad: tuple = ()
        self.non_differentiable: set[int] = set()
        self.materialize_grads = True
        self._to_save: tuple = ()
        self._saved: tuple | None = ()
        self._node: Node | None = None

    def save_for_backward(self, *tensors: Any) -> None:
        self._to_save = tensors

    @property
    def saved_tensors(self) -> tuple:
        """The tensors given to ``save_for_backward``, checked for in-place writes since (and
        passed through the unpack hook of :class:`saved_tensors_hooks` where one was active)."""
        if self._saved is None:
            from volta.errors import AutogradError
            raise AutogradError(_FREED_MESSAGE)
        return tuple(unpack(self._node, s) for s in self._saved)

    def mark_non_differentiable(self, *tensors: Any) -> None:
        self.non_differentiable |= {id(t) for t in tensors}

    def mark_dirty(self, *tensors: Any) -> None:
        self.dirty = tensors

    def set_materialize_grads(self, value: bool) -> None:
        self.materialize_grads = value


class PythonBackward(Node):
    """A node whose backward is user Python code."""

    __slots__ = ("ctx", "backward_fn", "fn_name", "n_inputs", "positions")
    op_name = "custom"

    def name(self) -> str:
        return f"{self.fn_name}Backward"

    def apply(self, grads: tuple) -> tuple:
        ctx = self.ctx
        if ctx is None:
            raise AutogradError(_FREED_MESSAGE)
        if ctx.materialize_grads and any(g is None for g in grads):
            grads = tuple(
                zeros(m[0], dtype=m[1], device=m[2]) if g is None and m is not None else g
                for g, m in zip(grads, list(self.output_meta) + [None] * len(grads)))
        result = self.backward_fn(ctx, *grads)
        if not isinstance(result, tuple):
            result = (result,)
        # accept one gradient per tensor input, or one per forward argument
        if len(result) == self.n_inputs and self.positions is not None:
            result = tuple(result[i] for i in self.positions)
        return result

    def release(self) -> None:
        if self.ctx is not None:
            self.ctx._saved = None
        self.ctx = None


def _finish_save(ctx: FunctionCtx) -> None:
    # packed after forward, as PyTorch does, under the saved_tensors_hooks active at the call
    ctx._saved = tuple(save(t) for t in ctx._to_save)
    ctx._to_save = ()


class Function:
    """Subclass with static ``forward(ctx, *args)`` and ``backward(ctx, *grad_outputs)``;
    call with ``MyFn.apply(*args)``."""

    @staticmethod
    def forward(ctx: FunctionCtx, *args: Any, **kwargs: Any) -> Any:
        raise NotImplementedError("a Function subclass must implement forward")

    @staticmethod
    def backward(ctx: FunctionCtx, *grad_outputs: Any) -> Any:
        raise NotImplementedError("a Function subclass must implement backward")

    @classmethod
    def apply(cls, *args: Any, **kwargs: Any) -> Any:
        ctx = FunctionCtx()
        tensors = [a if isinstance(a, Tensor) else None for a in args]
        ctx.needs_input_grad = tuple(bool(t is not None and t.requires_grad) for t in tensors)
        saved = LOCAL.excluded
        LOCAL.excluded = saved | Autograd.mask
        try:
            output = cls.forward(ctx, *args, **kwargs)
        finally:
            LOCAL.excluded = saved
        _finish_save(ctx)
        if not (is_grad_enabled() and any(ctx.needs_input_grad)):
            return output
        node = PythonBackward()
        node.ctx = ctx
        ctx._node = node
        node.backward_fn = cls.backward
        node.fn_name = cls.__name__
        node.n_inputs = len(args)
        node.positions = None
        if not connect(node, tuple(tensors)):
            return output
        outputs = output if isinstance(output, tuple) else (output,)
        differentiable = tuple(id(o) not in ctx.non_differentiable for o in outputs)
        # outputs that alias inputs get fresh tensor objects so inputs keep their history
        fixed = tuple(o.detach() if isinstance(o, Tensor) and any(o is a for a in args) else o
                      for o in outputs)
        set_history(node, fixed, differentiable)
        return fixed if isinstance(output, tuple) else fixed[0]


def once_differentiable(fn: Any) -> Any:
    return fn


def make_custom_autograd_kernel(handle: Any, backward: Any, setup_context: Any) -> Any:
    """The Autograd kernel ``volta.library.register_autograd`` installs for an op."""
    positions = handle.tensor_positions + handle.tensor_list_positions

    def kernel(*args: Any) -> Any:
        result = handle.redispatch(Autograd, *args)
        node = PythonBackward()
        node.backward_fn = backward
        node.fn_name = handle.name.replace("::", "_")
        node.n_inputs = len(args)
        node.positions = tuple(sorted(positions))
        node.ctx = None
        if connect(node, tuple(args[i] for i in sorted(positions))):
            ctx = FunctionCtx()
            ctx.needs_input_grad = tuple(
                i in positions and getattr(args[i], "requires_grad", False)
                for i in range(len(args)))
            if setup_context is not None:
                setup_context(ctx, args, result)
            _finish_save(ctx)
            node.ctx = ctx
            ctx._node = node
            set_history(node, result)
        return result

    kernel.__qualname__ = f"autograd[{handle.name}]"
    return kernel
