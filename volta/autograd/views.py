"""In-place writes through views (PyTorch's CopySlices).

When ``view.op_(...)`` runs on a view of ``base``, the base's history changes too: its new
grad_fn takes the base gradient, runs the in-place op's backward on the viewed region, puts the
result back into that region, and passes the rest through to the base's old history.
"""

from __future__ import annotations

from typing import Any

from volta.autograd.graph import Node, _edge
from volta.errors import AutogradError


def _geometry(base: Any, view: Any) -> tuple[tuple, tuple, int]:
    if not base.is_contiguous():
        raise AutogradError("in-place operation on a view of a non-contiguous base tensor is "
                            "not supported by autograd; call .contiguous() on the base first")
    return tuple(view._shape), tuple(view._stride), view._offset - base._offset


class CopySlices(Node):
    __slots__ = ("fn", "base_shape", "size", "stride", "offset")
    op_name = "copy_slices"

    def __init__(self, base: Any, view: Any, fn: Node) -> None:
        self.fn = fn
        self.base_shape = tuple(base._shape)
        self.size, self.stride, self.offset = _geometry(base, view)
        self.next_edges = [_edge(base)] + list(fn.next_edges[1:])
        self.input_meta = [(base._shape, base.dtype, base._device)] + list(fn.input_meta[1:])
        self.layout = (None,) * len(self.next_edges)
        self.needs_input_grad = tuple(e is not None for e in self.next_edges)
        self.seq = fn.seq
        self.output_meta = [(base._shape, base.dtype, base._device)]

    def apply_flat(self, grads: tuple) -> list:
        from volta._generated import functions as F
        grad = grads[0].contiguous()
        region = grad.as_strided(self.size, self.stride, self.offset)
        fn = self.fn
        # the op's own backward sees the viewed region's gradient as its output gradient
        fn_grads = fn.apply_flat((region.clone(),) + (None,) * (len(fn.output_meta) - 1))
        inner = fn_grads[0] if fn_grads else None
        if inner is None:
            inner = F.zeros_like(region)
        elif tuple(inner.shape) != self.size:
            from volta.autograd.formulas import sum_to
            inner = sum_to(inner, self.size)
        base_grad = F.as_strided_scatter(grad, inner, self.size, self.stride, self.offset)
        return [base_grad] + list(fn_grads[1:])


class ViewOfModifiedBase(Node):
    """grad_fn of the view itself after the write: its gradient lands in the base's region."""

    __slots__ = ("base_shape", "size", "stride", "offset", "base_dtype")
    op_name = "as_strided"

    def __init__(self, base_edge: tuple | None, base: Any, view: Any) -> None:
        self.base_shape = tuple(base._shape)
        self.size, self.stride, self.offset = _geometry(base, view)
        self.next_edges = [base_edge]
        self.input_meta = [(base._shape, base.dtype, base._device)]
        self.layout = (None,)
        self.needs_input_grad = (True,)
        self.seq = base_edge[0].seq if base_edge is not None else 0
        self.output_meta = [(view._shape, view.dtype, view._device)]

    def apply_flat(self, grads: tuple) -> list:
        from volta._generated import functions as F
        grad = grads[0]
        zeros = grad.new_zeros(self.base_shape)
        return [F.as_strided_scatter(zeros, grad, self.size, self.stride, self.offset)]
