"""The backward graph: nodes, edges, saved tensors, and attaching history to outputs.

A node's ``next_edges`` has one ``(node, output_nr)`` per differentiable input slot (a
``Tensor[]`` argument contributes one slot per element); ``None`` where that input needs no
gradient. ``apply`` returns one gradient per schema Tensor argument (a list for ``Tensor[]``);
``apply_flat`` flattens that to the slots. Also here: ``sum_to`` (undo broadcasting), and the
nodes that rebase a view's history after an in-place write through it (CopySlices).

Saved tensors go through the innermost :class:`saved_tensors_hooks` when one is active
(``save_on_cpu`` and ``volta.utils.checkpoint`` are built on them).
"""

from __future__ import annotations

import itertools
import sys
import threading
import traceback
import weakref
from collections.abc import Sequence
from typing import Any

from volta import compiled
from volta import dtypes as D
from volta._generated import functions as F
from volta.autograd.grad_mode import is_grad_enabled
from volta.dispatch import dispatcher as _dispatch
from volta.dispatch import keys as _keys
from volta.errors import AutogradError
from volta.memory_format import contiguous_format, dense_order
from volta.tensor.tensor import Size, Storage, Tensor

_AUTOGRAD_MASK = _keys.Autograd.mask

_sequence = itertools.count()
_FREED = object()
_accumulate_lock = threading.Lock()
_accumulator_lock = threading.Lock()


class _AnomalyState(threading.local):
    enabled: bool = False
    check_nan: bool = True


ANOMALY = _AnomalyState()


class RemovableHandle:
    """Returned by hook registrations; ``remove()`` takes the hook out again."""

    def __init__(self, hooks: list, entry: Any) -> None:
        self._hooks = hooks
        self._entry = entry

    def remove(self) -> None:
        if self._entry in self._hooks:
            self._hooks.remove(self._entry)


_SAVED_SLOTS: dict[type, tuple[str, ...]] = {}  # node class -> its saved-value slots


class Node:
    """A backward function in the graph (``tensor.grad_fn``).

    Fields default at class level and are written only when set (``connect``, hooks): a node is
    created for every differentiable op call, so creation must cost next to nothing.
    """

    __slots__ = ("__dict__", "__weakref__")
    op_name = ""
    next_edges: list | tuple = ()
    input_meta: list | tuple = ()
    layout: tuple = ()
    has_lists = False  # a Tensor[] argument: ``layout`` groups its gradients (apply_flat)
    needs_input_grad: tuple = ()
    seq = 0
    output_meta: list | tuple = ()
    _pre_hooks: list | None = None
    _hooks: list | None = None
    forward_trace: list[str] | None = None

    def name(self) -> str:
        return type(self).__name__

    def __repr__(self) -> str:
        return f"<{self.name()} object>"

    @property
    def next_functions(self) -> tuple:
        return tuple((e[0], e[1]) if e is not None else (None, 0) for e in self.next_edges)

    def apply(self, grads: tuple) -> tuple:
        raise NotImplementedError

    def apply_flat(self, grads: tuple) -> list:
        result = self.apply(grads)
        if not self.has_lists:
            return list(result)
        flat: list = []
        for count, g in zip(self.layout, result):
            if count is None:
                flat.append(g)
            else:
                flat.extend(g if g is not None else [None] * count)
        return flat

    def register_hook(self, fn: Any) -> RemovableHandle:
        """``fn(grad_inputs, grad_outputs)`` runs after this node; may return new grad_inputs."""
        if self._hooks is None:
            self._hooks = []
        self._hooks.append(fn)
        return RemovableHandle(self._hooks, fn)

    def register_prehook(self, fn: Any) -> RemovableHandle:
        """``fn(grad_outputs)`` runs before this node; may return new grad_outputs."""
        if self._pre_hooks is None:
            self._pre_hooks = []
        entry = (None, fn)
        self._pre_hooks.append(entry)
        return RemovableHandle(self._pre_hooks, entry)

    def release(self) -> None:
        """Free saved values after a backward pass that does not retain the graph."""
        cls = type(self)
        names = _SAVED_SLOTS.get(cls)
        if names is None:
            names = _SAVED_SLOTS[cls] = tuple(
                slot for c in cls.__mro__ for slot in getattr(c, "__slots__", ())
                if slot.startswith(("s_", "o_")))
        for slot in names:
            setattr(self, slot, _FREED)  # a slot never set reads as freed too


class AccumulateGrad(Node):
    """The node at a leaf: adds incoming gradients into ``leaf.grad``.

    Note [Accumulator lifetime]
    The leaf holds its accumulator and the accumulator holds the leaf weakly (PyTorch has it
    the other way round, in C++): the node is then made once per leaf, not once per forward
    pass that uses the leaf, and no reference cycle keeps either alive. A leaf that is gone
    when backward reaches its accumulator has no ``.grad`` anyone could read, so nothing is
    accumulated.
    """

    __slots__ = ("_variable",)
    op_name = "accumulate_grad"
    # as PyTorch's (sequence number UINT64_MAX): the engine runs an accumulator as soon as its
    # gradient is ready, so the incoming gradient is handed over, or added into ``.grad`` and
    # freed, at once instead of being held until the end of the backward pass
    seq = sys.maxsize

    def __init__(self, variable: Any) -> None:
        self._variable = weakref.ref(variable)
        self.needs_input_grad = (True,)

    @property
    def variable(self) -> Any:
        """The leaf tensor (PyTorch's ``AccumulateGrad.variable``); None once it is gone."""
        return self._variable()

    def apply(self, grads: tuple) -> tuple:
        self._accumulate(grads[0], False)
        return ()

    def accumulate_owned(self, grads: list) -> list:
        """The engine's entry: ``grads`` is its one-element buffer, which nothing else holds;
        the gradient is taken out of it so that, when nothing else refers to it either, it
        becomes ``.grad`` without a copy (Note [Gradient ownership])."""
        self._accumulate(grads.pop(), True)
        return []

    def _accumulate(self, grad: Any, may_own: bool) -> None:
        var = self._variable()
        if var is None:
            return  # Note [Accumulator lifetime]
        hooks = var._hooks
        if hooks:
            may_own = False  # a hook may have kept the gradient, or returned one it keeps
            for hook in hooks:
                new = hook(grad)
                if new is not None:
                    grad = new
        if grad is None:
            return
        keep_graph = is_grad_enabled()  # create_graph=True: the gradient stays differentiable
        if grad._shape != var._shape:
            grad = sum_to(grad, var._shape)
        with _accumulate_lock:
            current = var._grad
            if current is None:
                if may_own and not keep_graph and _stealable(grad, var):
                    var._grad = grad
                else:
                    var._grad = _copy_obeying_layout(grad, var)
            else:
                var._grad = current + grad


# Note [Gradient ownership]
# As PyTorch's AccumulateGrad: the incoming gradient becomes ``.grad`` as it is when nothing but
# the engine refers to the tensor object (PyTorch reads its use count, we read Python's
# reference count) and its strides obey the layout contract; otherwise ``.grad`` is a copy
# laid out like the leaf. A copy would cost a full pass over every parameter's gradient each
# step. As in PyTorch, the rule is about the tensor object, not its memory: a gradient that
# views the caller's upstream gradient (``x.view(n).backward(g)``) is stolen and ``x.grad``
# then shares ``g``'s memory; a gradient the caller, a hook or a second leaf still holds is
# copied. tests/autograd/test_grad_ownership.py checks each case against PyTorch.
def _stealable(grad: Any, var: Any) -> bool:
    # getrefcount's own argument, this frame's name and the accumulating frame's name
    if sys.getrefcount(grad) > 3 or weakref.getweakrefcount(grad) or grad._requires_grad:
        return False
    return _obeys_layout(grad, var)


# Note [Gradient layout contract]
# PyTorch's: ``.grad`` has the leaf's strides when the leaf is non-overlapping and dense (a
# channels-last weight gets a channels-last gradient), else it is contiguous. Strides of size-1
# dimensions do not count, but a stride of 0 there marks a broadcast view, which never obeys.
def _obeys_layout(grad: Any, var: Any) -> bool:
    if dense_order(var._shape, var._stride) is None:
        return grad.is_contiguous()
    return all(grad_stride == var_stride if size != 1 else grad_stride != 0
               for size, grad_stride, var_stride in zip(grad._shape, grad._stride, var._stride))


def _copy_obeying_layout(grad: Any, var: Any) -> Any:
    if var.is_contiguous() or dense_order(var._shape, var._stride) is None:
        return grad.clone(memory_format=contiguous_format)
    if _obeys_layout(grad, var):
        return grad.clone()  # preserve_format keeps the layout that already obeys
    # without create_graph grad mode is off here, so copy_ records nothing
    return grad.new_empty_strided(var._shape, var._stride).copy_(grad)


def accumulator(t: Any) -> AccumulateGrad:
    acc = t._accumulator
    if acc is None:
        with _accumulator_lock:  # threads recording from one leaf must share one node
            acc = t._accumulator
            if acc is None:
                acc = AccumulateGrad(t)
                acc.output_meta = [(t._shape, t.dtype, t._device)]
                t._accumulator = acc  # Note [Accumulator lifetime]
    return acc


def current_grad_fn(t: Any) -> Node | None:
    """``t.grad_fn``, rebuilt first when ``t`` is a view whose base was written in place since
    the view's history was recorded (the view now derives from the base's new history)."""
    base = t._base
    if base is not None and t._view_version != t._storage.version and base._requires_grad:
        t.grad_fn = ViewOfModifiedBase(_edge(base), base, t)
        t._output_nr = 0
        t._set_requires_grad(True)
        t._view_version = t._storage.version
    return t.grad_fn


def _edge(t: Any) -> tuple | None:
    if t is None or not getattr(t, "_requires_grad", False):
        if t is None or t._base is None or not t._base._requires_grad:
            return None
    fn = current_grad_fn(t)
    if fn is not None:
        return (fn, t._output_nr)
    return (accumulator(t), 0) if t._requires_grad else None


_NO_LISTS: dict[int, tuple] = {}


def connect(node: Node, inputs: tuple) -> bool:
    """Give ``node`` one edge per differentiable input; False when none needs a gradient."""
    for x in inputs:
        if x.__class__ is tuple or x.__class__ is list:
            return _connect_with_lists(node, inputs)
    return connect_tensors(node, inputs)


def connect_tensors(node: Node, inputs: tuple) -> bool:
    """``connect`` for ops without ``Tensor[]`` arguments (generated kernels call it directly)."""
    tensor = _dispatch._TENSOR_TYPE
    edges: list = []
    metas: list = []
    needs: list = []
    connected = False
    for x in inputs:
        e = None
        if isinstance(x, tensor):
            fn = x.grad_fn
            if x._base is not None:
                # a view: its own history unless its base was written since (_edge rebuilds it)
                if fn is None or x._view_version != x._storage.version:
                    e = _edge(x)
                else:
                    e = (fn, x._output_nr)
            elif fn is not None:
                e = (fn, x._output_nr)
            elif x._requires_grad:  # a leaf: accumulator(x)'s look-up, inlined
                acc = x._accumulator
                e = (acc if acc is not None else accumulator(x), 0)
        if e is None:
            edges.append(None)
            metas.append(None)
            needs.append(False)
        else:
            edges.append(e)
            metas.append((x._shape, x.dtype, x._device))
            needs.append(True)
            connected = True
    if not connected:
        return False
    n = len(inputs)
    layout = _NO_LISTS.get(n)
    if layout is None:
        layout = _NO_LISTS[n] = (None,) * n
    node.next_edges = edges
    node.input_meta = metas
    node.layout = layout
    node.needs_input_grad = tuple(needs)
    node.seq = next(_sequence)
    if ANOMALY.enabled:
        node.forward_trace = traceback.format_stack()[:-2]
    return True


def _connect_with_lists(node: Node, inputs: tuple) -> bool:
    edges: list = []
    metas: list = []
    layout: list = []
    needs: list = []
    any_needed = False
    for x in inputs:
        if isinstance(x, (tuple, list)):
            layout.append(len(x))
            needed = False
            for t in x:
                e = _edge(t)
                edges.append(e)
                metas.append((t._shape, t.dtype, t._device) if e is not None else None)
                needed = needed or e is not None
            needs.append(needed)
        else:
            layout.append(None)
            e = _edge(x)
            edges.append(e)
            metas.append((x._shape, x.dtype, x._device) if e is not None else None)
            needed = e is not None
            needs.append(needed)
        any_needed = any_needed or needed
    if not any_needed:
        return False
    node.next_edges = edges
    node.input_meta = metas
    node.layout = tuple(layout)
    node.has_lists = True
    node.needs_input_grad = tuple(needs)
    node.seq = next(_sequence)
    if ANOMALY.enabled:
        node.forward_trace = traceback.format_stack()[:-2]
    return True


def set_history(node: Node, result: Any, differentiable: tuple | None = None,
                inplace: bool = False) -> None:
    """Make ``node`` the ``grad_fn`` of each differentiable floating output."""
    if result.__class__ is _dispatch._TENSOR_TYPE and not inplace and differentiable is None:
        # the common case: one ordinary output
        node.output_meta = ((result._shape, result.dtype, result._device),)
        if result.dtype.is_floating_point:
            result.grad_fn = node
            result._requires_grad = True
            result._ks |= _AUTOGRAD_MASK
        return
    outputs = result if isinstance(result, (tuple, list)) else (result,)
    node.output_meta = [(o._shape, o.dtype, o._device) if hasattr(o, "_shape") else None
                        for o in outputs]
    for i, out in enumerate(outputs):
        if out is None or not hasattr(out, "_shape"):
            continue
        if differentiable is not None and not differentiable[i]:
            continue
        if not out.dtype.is_floating_point:
            continue
        if inplace:
            rebase_history(out, node, i)
        else:
            out.grad_fn = node
            out._output_nr = i
            out._set_requires_grad(True)


def rebase_history(t: Any, node: Node, output_nr: int = 0) -> None:
    """After an in-place op: ``t`` now comes from ``node``; a view also rewrites its base."""
    base = t._base
    if base is None:
        t.grad_fn = node
        t._output_nr = output_nr
        t._set_requires_grad(True)
        return
    copy = CopySlices(base, t, node)
    base.grad_fn = copy
    base._output_nr = 0
    base._set_requires_grad(True)
    t.grad_fn = ViewOfModifiedBase((copy, 0), base, t)
    t._output_nr = 0
    t._set_requires_grad(True)
    t._view_version = t._storage.version


class _SavedTensorHooks(threading.local):
    def __init__(self) -> None:
        self.stack: list[tuple[Any, Any]] = []


SAVED_TENSOR_HOOKS = _SavedTensorHooks()


class saved_tensors_hooks:  # noqa: N801 - PyTorch's name
    """Context manager: tensors saved for backward inside it go through ``pack_hook(tensor)``;
    backward reads them back through ``unpack_hook(packed)``.

    The innermost active pair applies (a thread-local stack). Version checks still compare the
    original tensor's version counter, so an in-place write to it after saving is reported.
    """

    def __init__(self, pack_hook: Any, unpack_hook: Any) -> None:
        self.pack_hook = pack_hook
        self.unpack_hook = unpack_hook

    def __enter__(self) -> saved_tensors_hooks:
        SAVED_TENSOR_HOOKS.stack.append((self.pack_hook, self.unpack_hook))
        return self

    def __exit__(self, *exc: Any) -> None:
        SAVED_TENSOR_HOOKS.stack.pop()


class save_on_cpu(saved_tensors_hooks):  # noqa: N801 - PyTorch's name
    """Saved tensors are kept as host copies and moved back to their device when backward reads
    them. ``pin_memory`` is accepted for PyTorch compatibility; host memory is the CPU backend's."""

    def __init__(self, pin_memory: bool = False) -> None:
        del pin_memory

        def pack(t: Any) -> tuple[Any, Any]:
            host = t.cpu()
            # always a copy, as in PyTorch, so the saved value is independent of the original
            return t.device, host.clone() if host._storage is t._storage else host

        def unpack(packed: tuple[Any, Any]) -> Any:
            device, host = packed
            return host.to(device)

        super().__init__(pack, unpack)


class SavedTensor:
    """A tensor kept for backward, with the version it had when saved.

    Without hooks it holds the tensor (``data``). Under :class:`saved_tensors_hooks` it holds what
    ``pack_hook`` returned, the unpack hook, a weak reference to the original storage (whose
    version counter is checked while it lives) and the original's place in the graph, which the
    unpacked tensor gets back when backward itself is differentiated.
    """

    __slots__ = ("data", "version", "is_output", "output_nr", "packed", "unpack_hook",
                 "storage", "edge")

    def __init__(self, data: Any, is_output: bool, output_nr: int = 0) -> None:
        self.version = data._storage.version
        self.is_output = is_output
        self.output_nr = output_nr
        stack = SAVED_TENSOR_HOOKS.stack
        if not stack:
            self.data = data
            return
        pack_hook, self.unpack_hook = stack[-1]
        self.data = None
        self.storage = weakref.ref(data._storage)
        self.edge = None if is_output else _edge(data)
        self.packed = pack_hook(data)


def save(t: Any) -> Any:
    if t is None or not hasattr(t, "_storage"):
        return t
    return SavedTensor(t, False)


class TensorMeta:
    """What a formula may read of a tensor saved for its metadata only (a view op's input:
    saved on every call, so it copies three fields and derives the rest when read)."""

    __slots__ = ("_shape", "dtype", "device")

    def __init__(self, t: Any) -> None:
        self._shape = t._shape
        self.dtype = t.dtype
        self.device = t._device

    @property
    def shape(self) -> Any:
        return Size(self._shape)

    @property
    def ndim(self) -> int:
        return len(self._shape)


def save_meta(t: Any) -> Any:
    return t if t is None or not hasattr(t, "_storage") else TensorMeta(t)


def save_list(ts: Any) -> Any:
    return [save(t) for t in ts]


def save_output(t: Any, output_nr: int = 0) -> Any:
    """Save output ``output_nr`` of the node being built: its number is passed, because outputs
    are saved before ``set_history`` numbers them (a formula of a multi-output op that reads its
    second output must differentiate through that output, not the first)."""
    if t is None or not hasattr(t, "_storage"):
        return t
    # keep a detached alias: saving the output itself would make a node <-> tensor cycle
    return SavedTensor(t.detach(), True, output_nr)


def save_output_list(ts: Any) -> Any:
    return [save_output(t, i) for i, t in enumerate(ts)]


_FREED_MESSAGE = (
    "Trying to backward through the graph a second time (or directly access saved tensors "
    "after they have already been freed). Saved intermediate values of the graph are freed "
    "when you call .backward() or autograd.grad(). Specify retain_graph=True if you need to "
    "backward through the graph a second time or if you need to access saved tensors after "
    "calling backward.")


def unpack(node: Node | None, saved: Any) -> Any:
    """The tensor ``saved`` stands for; ``node`` (its owner) names it in errors."""
    if saved is _FREED:
        raise AutogradError(_FREED_MESSAGE)
    if not isinstance(saved, SavedTensor):
        return saved
    data = saved.data
    storage = data._storage if data is not None else saved.storage()
    if storage is not None and storage.version != saved.version:
        owner = f"saved by {node.name()}, the backward of '{node.op_name}'" if node else (
            "saved by a custom Function")
        what = f"[{data.dtype.name} {list(data._shape)}]" if data is not None else "a tensor"
        raise AutogradError(
            f"one of the variables needed for gradient computation has been modified by an "
            f"inplace operation: {what} is at version {storage.version}; expected version "
            f"{saved.version} instead ({owner}).")
    if data is None:
        data = saved.unpack_hook(saved.packed)
        if not isinstance(data, _dispatch._TENSOR_TYPE):
            raise AutogradError(f"the unpack hook of saved_tensors_hooks must return a Tensor, "
                                f"got {type(data).__name__}")
        if saved.edge is not None and is_grad_enabled():
            # differentiating backward: the unpacked value stands where the original stood
            alias = data.detach()
            alias.grad_fn, alias._output_nr = saved.edge
            alias._set_requires_grad(True)
            return alias
    if saved.is_output and node is not None and is_grad_enabled():
        alias = data.detach()
        alias.grad_fn = node
        alias._output_nr = saved.output_nr
        alias._set_requires_grad(True)
        return alias
    return data


def unpack_list(node: Node, saved: Any) -> Any:
    if saved is _FREED:
        raise AutogradError(_FREED_MESSAGE)
    return [unpack(node, s) for s in saved]


def sum_to(grad: Any, shape: Sequence[int]) -> Any:
    """Sum ``grad`` down to ``shape`` (undo broadcasting); formulas use it too."""
    shape = tuple(shape)
    if tuple(grad.shape) == shape:
        return grad
    lead = grad.ndim - len(shape)
    dims = list(range(lead)) + [lead + i for i, s in enumerate(shape)
                                if s == 1 and grad.shape[lead + i] != 1]
    if not dims:
        return grad.reshape(shape)
    # no keepdim: when only leading dims go (a bias), the sum is the gradient itself, not a
    # view of it, so AccumulateGrad can take it over
    grad = grad.sum(dims)
    return grad if tuple(grad.shape) == shape else grad.reshape(shape)


# -- In-place writes through views (PyTorch's CopySlices).
#
# When ``view.op_(...)`` runs on a view of ``base``, the base's history changes too: its new
# grad_fn takes the base gradient, runs the in-place op's backward on the viewed region, puts the
# result back into that region, and passes the rest through to the base's old history.


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
        grad = grads[0].contiguous()
        region = grad.as_strided(self.size, self.stride, self.offset)
        fn = self.fn
        # the op's own backward sees the viewed region's gradient as its output gradient
        fn_grads = fn.apply_flat((region.clone(),) + (None,) * (len(fn.output_meta) - 1))
        inner = fn_grads[0] if fn_grads else None
        if inner is None:
            inner = F.zeros_like(region)
        elif tuple(inner.shape) != self.size:
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
        grad = grads[0]
        zeros = grad.new_zeros(self.base_shape)
        return [F.as_strided_scatter(zeros, grad, self.size, self.stride, self.offset)]


# connect_tensors, save and set_history in C (Note [Compiled autograd recording] in
# native/autograd.c), handing back to the Python ones above what they do not handle
python_connect_tensors, python_save, python_set_history = connect_tensors, save, set_history
_native = compiled.load("volta.autograd.native._autograd")
if _native is not None:
    _native.setup(Tensor, Storage, SavedTensor, python_connect_tensors, python_save,
                  python_set_history, accumulator, _edge, SAVED_TENSOR_HOOKS, ANOMALY,
                  _sequence, _NO_LISTS, frozenset(d for d in D.ALL_DTYPES if d.is_floating_point),
                  _AUTOGRAD_MASK)
    connect_tensors, save, set_history = _native.connect_tensors, _native.save, _native.set_history
