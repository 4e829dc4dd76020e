"""Activation checkpointing: trade compute for memory.

``checkpoint(fn, *args)`` runs ``fn`` without recording a graph, keeps only its inputs, and
records one :class:`CheckpointBackward` node for the outputs. When a gradient reaches that node
it runs ``fn`` again with grad enabled (with the random-number state it had the first time, so
dropout draws the same mask), backpropagates through the recomputed graph, and hands the
gradients of the inputs, and of the parameters ``fn`` uses, to the engine.

Note [checkpoint boundaries]: the recomputed graph reaches the outer graph in three ways:
through the inputs (each is wrapped in an :class:`_InputBoundary` node, where the inner pass
collects its gradient; its edges are cut while the inner pass runs), through leaves such as
parameters (the inner pass collects the gradient at their ``AccumulateGrad`` node, which it does
not run), and through non-leaf tensors captured by ``fn`` (the edge is redirected to an inert
:class:`_Boundary`, so the inner pass never runs a node of the outer graph). Parameters found up
front (``fn.parameters()``, tensors in ``fn``'s closure, defaults or globals) are edges of the
checkpoint node, so ``autograd.grad`` and hooks see them like any other input; tensors found
only during the recomputation get their gradient directly (accumulated into a leaf's ``.grad``,
or through a separate pass into the outer graph).
"""

from __future__ import annotations

import functools
import itertools
import types
import warnings
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import contextmanager
from typing import Any

from volta.autograd import engine
from volta.autograd import graph as G
from volta.autograd.grad_mode import enable_grad, is_grad_enabled, no_grad
from volta.errors import AutogradError
from volta.tensor.tensor import Tensor

__all__ = ["checkpoint", "checkpoint_sequential", "CheckpointBackward"]

_SEARCH_DEPTH = 3  # how far to look through closures for tensors fn uses


# -- random-number state -------------------------------------------------------------------------


def _generator() -> Any:
    from volta.tensor.factories import default_generator
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


# -- finding the tensors fn uses without taking them as arguments --------------------------------


def _tensors_in(obj: Any, depth: int, found: dict[int, Tensor], seen: set[int]) -> None:
    if id(obj) in seen or depth < 0 or isinstance(obj, (types.ModuleType, type)):
        return
    seen.add(id(obj))
    if isinstance(obj, Tensor):
        found.setdefault(id(obj), obj)
        return
    if isinstance(obj, (list, tuple, set, frozenset)):
        for item in obj:
            _tensors_in(item, depth - 1, found, seen)
        return
    if isinstance(obj, dict):
        for item in obj.values():
            _tensors_in(item, depth - 1, found, seen)
        return
    parameters = getattr(obj, "parameters", None)
    if callable(parameters):
        for p in parameters():
            if isinstance(p, Tensor):
                found.setdefault(id(p), p)
        return
    if isinstance(obj, functools.partial):
        _tensors_in(obj.func, depth - 1, found, seen)
        _tensors_in(obj.args, depth, found, seen)
        _tensors_in(obj.keywords, depth, found, seen)
        return
    owner = getattr(obj, "__self__", None)
    if owner is not None:
        _tensors_in(owner, depth - 1, found, seen)
    function = getattr(obj, "__func__", obj)
    code = getattr(function, "__code__", None)
    if code is None:
        # a callable object: the tensors are its attributes
        if hasattr(obj, "__dict__"):
            _tensors_in(vars(obj), depth - 1, found, seen)
        return
    for cell in function.__closure__ or ():
        contents = _cell_contents(cell)
        if contents is not None:
            _tensors_in(contents, depth - 1, found, seen)
    _tensors_in(function.__defaults__ or (), depth, found, seen)
    _tensors_in(function.__kwdefaults__ or {}, depth, found, seen)
    module_globals = getattr(function, "__globals__", {})
    for name in code.co_names:
        value = module_globals.get(name)
        if isinstance(value, Tensor) or (callable(getattr(value, "parameters", None))
                                         and not isinstance(value, type)):
            _tensors_in(value, depth - 1, found, seen)


def _cell_contents(cell: Any) -> Any:
    try:
        return cell.cell_contents
    except ValueError:  # an empty cell (a name not assigned yet)
        return None


def _captured_tensors(function: Callable[..., Any], explicit: Sequence[Tensor]) -> list[Tensor]:
    """Tensors requiring grad that ``function`` reaches without taking them as arguments."""
    found: dict[int, Tensor] = {}
    _tensors_in(function, _SEARCH_DEPTH, found, set())
    explicit_ids = {id(t) for t in explicit}
    return [t for t in found.values() if t.requires_grad and id(t) not in explicit_ids]


# -- graph nodes ---------------------------------------------------------------------------------


class _InputBoundary(G.Node):
    """Identity on an input during recomputation: the inner pass collects gradients here."""

    __slots__ = ()
    op_name = "checkpoint_input"

    def apply(self, grads: tuple) -> tuple:
        return tuple(grads)


class _Boundary(G.Node):
    """Stands in for a node of the outer graph during the inner pass: runs nothing."""

    __slots__ = ()
    op_name = "checkpoint_boundary"

    def apply(self, grads: tuple) -> tuple:
        return ()


def _alias_with_boundary(t: Tensor) -> Tensor:
    node = _InputBoundary()
    if not G.connect(node, (t,)):
        return t
    alias = t.detach()
    G.set_history(node, alias)
    return alias


def _key(edge: tuple) -> tuple[int, int]:
    return (id(edge[0]), edge[1])


class CheckpointBackward(G.Node):
    """The node a checkpointed call records: recomputes ``function`` and backpropagates."""

    __slots__ = ("function", "args", "kwargs", "saved", "n_inputs", "rng_state", "n_outputs")
    op_name = "checkpoint"

    def release(self) -> None:
        self.saved = G._FREED

    def apply(self, grads: tuple) -> tuple:
        if self.saved is G._FREED:
            raise AutogradError(G._FREED_MESSAGE)
        create_graph = is_grad_enabled()
        originals = [G.unpack(self, s) for s in self.saved]
        inputs = originals[:self.n_inputs]
        seq_start = next(G._sequence)  # nodes numbered above this come from the recomputation
        with enable_grad(), _rng_state(self.rng_state):
            aliases = [_alias_with_boundary(t) if t.requires_grad else t for t in inputs]
            args, kwargs = _rebuild(self.args, self.kwargs, aliases)
            outputs = _as_tuple(self.function(*args, **kwargs))
        if len(outputs) != self.n_outputs:
            raise AutogradError(f"checkpoint: recomputing {_name(self.function)} gave "
                                f"{len(outputs)} outputs, the first run gave {self.n_outputs}")
        roots = []
        for out, g in zip(outputs, grads):
            if g is None or not isinstance(out, Tensor) or not out.requires_grad:
                continue
            if tuple(out.shape) != tuple(g.shape):
                raise AutogradError(f"checkpoint: recomputing {_name(self.function)} gave an "
                                    f"output of shape {list(out.shape)}, expected "
                                    f"{list(g.shape)}")
            if out.grad_fn is not None:
                roots.append((out.grad_fn, out._output_nr, g))
            else:
                roots.append((G.accumulator(out), 0, g))
        slot_of: dict[tuple[int, int], int] = {}
        for i, edge in enumerate(self.next_edges):
            if edge is not None:  # fn may also reach an input through its closure
                slot_of.setdefault(_key(edge), i)
        for i, alias in enumerate(aliases):
            if alias is not inputs[i]:
                slot_of[(id(alias.grad_fn), 0)] = i
        capture, targets = _find_boundaries(roots, seq_start)
        result: list = [None] * len(self.next_edges)
        if not capture:
            return tuple(result)
        # the inner pass stops at the input boundaries; their edges stay for double backward
        boundaries = [a.grad_fn for a, t in zip(aliases, inputs) if a is not t]
        edges = [b.next_edges for b in boundaries]
        for b in boundaries:
            b.next_edges = []
        try:
            found = engine.run_backward(roots, True, create_graph, capture, accumulate=False)
        finally:
            for b, e in zip(boundaries, edges):
                b.next_edges = e
        assert found is not None
        for (node, nr), target, g in zip(capture, targets, found):
            if g is None:
                continue
            slot = slot_of.get((id(node), nr))
            if slot is None:
                slot = slot_of.get(_key(target))
            if slot is not None:
                result[slot] = g if result[slot] is None else result[slot] + g
            elif isinstance(target[0], G.AccumulateGrad):
                target[0].apply((g,))  # a leaf fn reached that the forward did not find
            else:
                engine.run_backward([(target[0], target[1], g)], True, create_graph)
        return tuple(result)


def _find_boundaries(roots: list, seq_start: int) -> tuple[list, list]:
    """Walk the recomputed graph; return the capture points and the outer edge each stands for.

    See Note [checkpoint boundaries]."""
    capture: list = []
    targets: list = []
    captured: set[tuple[int, int]] = set()
    proxies: dict[tuple[int, int], _Boundary] = {}

    def add(point: tuple, target: tuple) -> None:
        if _key(point) not in captured:
            captured.add(_key(point))
            capture.append(point)
            targets.append(target)

    def redirect(edge: tuple, meta: Any) -> tuple:
        proxy = proxies.get(_key(edge))
        if proxy is None:
            proxy = proxies[_key(edge)] = _Boundary()
            proxy.output_meta = [meta]
        add((proxy, 0), edge)
        return (proxy, 0)

    seen: set[int] = set()
    stack = []
    for i, (node, nr, g) in enumerate(roots):
        if isinstance(node, G.AccumulateGrad):
            add((node, nr), (node, nr))
        elif node.seq <= seq_start:  # fn returned a tensor of the outer graph
            proxy, _ = redirect((node, nr), (tuple(g.shape), g.dtype, g.device))
            roots[i] = (proxy, 0, g)
        elif isinstance(node, _InputBoundary):
            add((node, nr), (node, nr))
        else:
            stack.append(node)
    while stack:
        node = stack.pop()
        if id(node) in seen:
            continue
        seen.add(id(node))
        for i, edge in enumerate(node.next_edges):
            if edge is None:
                continue
            nxt = edge[0]
            if isinstance(nxt, G.AccumulateGrad):
                add(edge, edge)
            elif nxt.seq <= seq_start:  # a node of the outer graph: redirect to a stand-in
                meta = node.input_meta[i] if i < len(node.input_meta) else None
                node.next_edges[i] = redirect(edge, meta)
            elif isinstance(nxt, _InputBoundary):
                add(edge, edge)
            else:
                stack.append(nxt)
    return capture, targets


# -- argument plumbing ---------------------------------------------------------------------------


class _Slot:
    """Marks where a tensor argument goes when the call is rebuilt."""

    __slots__ = ("index",)

    def __init__(self, index: int) -> None:
        self.index = index


def _split(args: tuple, kwargs: dict) -> tuple[list, dict, list[Tensor]]:
    tensors: list[Tensor] = []

    def take(value: Any) -> Any:
        if isinstance(value, Tensor):
            tensors.append(value)
            return _Slot(len(tensors) - 1)
        return value

    return [take(a) for a in args], {k: take(v) for k, v in kwargs.items()}, tensors


def _rebuild(args: list, kwargs: dict, tensors: Sequence[Tensor]) -> tuple[tuple, dict]:
    def put(value: Any) -> Any:
        return tensors[value.index] if isinstance(value, _Slot) else value

    return tuple(put(a) for a in args), {k: put(v) for k, v in kwargs.items()}


def _as_tuple(outputs: Any) -> tuple:
    return tuple(outputs) if isinstance(outputs, (tuple, list)) else (outputs,)


def _name(function: Any) -> str:
    return getattr(function, "__qualname__", None) or type(function).__name__


# -- public API ----------------------------------------------------------------------------------


def checkpoint(function: Callable[..., Any], *args: Any, use_reentrant: bool | None = False,
               preserve_rng_state: bool = True, **kwargs: Any) -> Any:
    """Run ``function(*args, **kwargs)`` without keeping its intermediate values for backward.

    Args:
        function: the callable to checkpoint; it must compute the same thing when run again.
        *args, **kwargs: its arguments; tensors among them are saved, anything else is kept.
        use_reentrant: accepted for PyTorch compatibility; volta has one implementation, which
            supports keyword arguments, ``autograd.grad`` and parameters ``function`` uses.
        preserve_rng_state: replay the random-number state of the first run when recomputing,
            so random ops (dropout) draw the same values.

    Returns:
        What ``function`` returns (a tensor, or a tuple/list of tensors and other values).
    """
    del use_reentrant
    if not is_grad_enabled():
        return function(*args, **kwargs)
    arg_spec, kwarg_spec, inputs = _split(args, kwargs)
    extras = _captured_tensors(function, inputs)
    if not any(t.requires_grad for t in inputs) and not extras:
        warnings.warn("checkpoint: none of the inputs requires grad and no parameter of the "
                      "function was found, so the outputs will not require grad either",
                      stacklevel=2)
    rng_state = _generator().get_state() if preserve_rng_state else None
    with no_grad():
        outputs = function(*args, **kwargs)
    node = CheckpointBackward()
    if not G.connect(node, tuple(inputs) + tuple(extras)):
        return outputs
    node.function = function
    node.args = arg_spec
    node.kwargs = kwarg_spec
    node.saved = [G.save(t) for t in inputs]
    node.n_inputs = len(inputs)
    node.rng_state = rng_state
    flat = _as_tuple(outputs)
    node.n_outputs = len(flat)
    input_ids = {id(t) for t in itertools.chain(inputs, extras)}
    # an output that is an input itself gets a fresh alias, so the input keeps its history
    flat = tuple(o.detach() if isinstance(o, Tensor) and id(o) in input_ids else o for o in flat)
    G.set_history(node, flat)
    if isinstance(outputs, Tensor):
        return flat[0]
    return type(outputs)(flat)


class _Segment:
    """A run of functions applied one after another (one checkpointed segment)."""

    def __init__(self, functions: Sequence[Callable[..., Any]]) -> None:
        self.functions = list(functions)

    def __call__(self, x: Any) -> Any:
        for fn in self.functions:
            x = fn(x)
        return x

    def parameters(self) -> Iterable[Tensor]:
        found: dict[int, Tensor] = {}
        for fn in self.functions:
            _tensors_in(fn, _SEARCH_DEPTH, found, set())
        return list(found.values())


def checkpoint_sequential(functions: Any, segments: int, input: Any,
                          use_reentrant: bool | None = False,
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
        raise ValueError(f"checkpoint_sequential: segments must be between 1 and "
                         f"{len(functions)}, got {segments}")
    size = len(functions) // segments
    start = 0
    for _ in range(segments - 1):
        segment = _Segment(functions[start:start + size])
        input = checkpoint(segment, input, use_reentrant=use_reentrant,
                           preserve_rng_state=preserve_rng_state)
        start += size
    return _Segment(functions[start:])(input)
