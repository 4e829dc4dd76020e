"""User-defined differentiable functions (``volta.autograd.Function``) and the Python-backward
kernels behind ``volta.library.register_autograd``."""

from __future__ import annotations

from typing import Any

from volta.autograd.graph import Node, connect, set_history
from volta.dispatch.keys import Autograd
from volta.dispatch.local_state import LOCAL


class FunctionCtx:
    """The ``ctx`` of a custom function: saved tensors and flags between forward and backward."""

    def __init__(self) -> None:
        self.saved_tensors: tuple = ()
        self.needs_input_grad: tuple = ()
        self.non_differentiable: set[int] = set()
        self.materialize_grads = True
        self._saved_versions: tuple = ()

    def save_for_backward(self, *tensors: Any) -> None:
        self._to_save = tensors

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
            from volta.autograd.graph import _FREED_MESSAGE
            from volta.errors import AutogradError
            raise AutogradError(_FREED_MESSAGE)
        _check_versions(ctx, self)
        if ctx.materialize_grads and any(g is None for g in grads):
            from volta.tensor.factories import zeros
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
        self.ctx = None


def _check_versions(ctx: FunctionCtx, node: Node) -> None:
    from volta.errors import AutogradError
    for t, v in zip(ctx.saved_tensors, ctx._saved_versions):
        if t is not None and hasattr(t, "_storage") and t._storage.version != v:
            raise AutogradError(
                "one of the variables needed for gradient computation has been modified by an "
                f"inplace operation (saved by {node.name()})")


def _finish_save(ctx: FunctionCtx) -> None:
    saved = getattr(ctx, "_to_save", ())
    ctx.saved_tensors = tuple(saved)
    ctx._saved_versions = tuple(t._storage.version if hasattr(t, "_storage") else None
                                for t in saved)


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
        from volta.autograd.grad_mode import is_grad_enabled
        from volta.tensor.tensor import Tensor
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
            set_history(node, result)
        return result

    kernel.__qualname__ = f"autograd[{handle.name}]"
    return kernel
