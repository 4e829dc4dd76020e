"""The backward engine: reverse mode over the dynamic graph.

One pass: find the nodes that matter (all of them for ``backward``; those on a path to the
requested inputs for ``grad``), count how many edges lead into each, then run nodes when every
gradient for them has arrived, latest-created first. The state of a pass is local to the call,
so passes on different threads run independently; accumulation into shared leaves is locked.
"""

from __future__ import annotations

import heapq
from collections.abc import Sequence
from typing import Any

from volta import compiled
from volta._generated.functions import isnan, ones_like, zeros_like
from volta.autograd import grad_mode
from volta.autograd.graph import (
    ANOMALY,
    AccumulateGrad,
    Node,
    RemovableHandle,
    accumulator,
    current_grad_fn,
    sum_to,
)
from volta.errors import AutogradError
from volta.tensor.factories import zeros


def _make_roots(tensors: Sequence[Any], grad_tensors: Sequence[Any] | None) -> list:
    roots = []
    for i, t in enumerate(tensors):
        g = None if grad_tensors is None else grad_tensors[i]
        if not t.requires_grad:
            raise AutogradError(f"element {i} of tensors does not require grad and does not "
                                "have a grad_fn")
        if g is None:
            if t.numel() != 1:
                raise AutogradError("grad can be implicitly created only for scalar outputs; "
                                    f"pass a gradient for the output of shape {list(t.shape)}")
            g = ones_like(t)  # the op, not a factory: a trace records the seed
        elif not hasattr(g, "_shape"):
            g = t.new_tensor(g)  # a number or nested list, in the output's dtype and device
        elif tuple(g.shape) != tuple(t.shape):
            raise AutogradError(f"mismatch in shape: grad_output[{i}] has a shape of "
                                f"{list(g.shape)} and output[{i}] has a shape of {list(t.shape)}")
        elif g.dtype is not t.dtype and g.dtype.is_floating_point and t.dtype.is_floating_point:
            g = g.to(t.dtype)  # as PyTorch's engine: a gradient has its output's dtype
        fn = current_grad_fn(t)
        node, nr = (fn, t._output_nr) if fn is not None else (accumulator(t), 0)
        roots.append((node, nr, g))
    return roots


def _validate(node: Node, i: int, grad: Any) -> Any:
    meta = node.input_meta[i] if i < len(node.input_meta) else None
    if grad is None or meta is None:
        return grad
    shape, dtype, device = meta
    if grad._shape != shape:
        try:
            grad = sum_to(grad, shape)
        except Exception as exc:
            raise AutogradError(f"Function {node.name()} returned an invalid gradient at index "
                                f"{i} - got {list(grad._shape)} but expected shape compatible "
                                f"with {list(shape)}") from exc
    if grad.dtype is not dtype:
        grad = grad.to(dtype)
    if grad._device != device:
        grad = grad.to(device)
    return grad


def _fix_up_outputs(node: Node, outputs: list) -> None:
    """Only gradients whose shape, dtype or device differ from the input's need fixing up (a
    function of its own, so that no frame of the engine keeps a name for a gradient)."""
    for i, (g, meta) in enumerate(zip(outputs, node.input_meta)):
        if g is not None and meta is not None:
            shape, dt, dev = meta
            if g._shape != shape or g.dtype is not dt or (
                    g._device is not dev and g._device != dev):
                outputs[i] = _validate(node, i, g)


# the same check in C (native/autograd.c), calling _validate where a gradient needs it
python_fix_up_outputs = _fix_up_outputs
_native = compiled.load("volta.autograd.native._autograd")
if _native is not None:
    _native.setup_engine(python_fix_up_outputs, _validate)
    _fix_up_outputs = _native.fix_up_outputs


def _check_anomaly(node: Node, grads: list) -> None:
    for i, g in enumerate(grads):
        if g is not None and g.dtype.is_floating_point and bool(isnan(g).any()):
            where = ""
            if node.forward_trace:
                where = "\nTraceback of the forward call that created it:\n" + "".join(
                    node.forward_trace[-8:])
            raise AutogradError(f"Function '{node.name()}' (the backward of '{node.op_name}') "
                                f"returned nan values in its {i}th output.{where}")


def _dependencies(roots: list) -> dict[Node, int]:
    """Every node reachable from the roots, with the number of edges leading into it (roots
    that nothing leads to count 0). Nodes are dict keys by identity: no ``id()`` calls."""
    deps: dict[Node, int] = {}
    stack: list[Node] = []
    for node, _, _ in roots:
        if node not in deps:
            deps[node] = 0
            stack.append(node)
    while stack:
        for e in stack.pop().next_edges:
            if e is not None:
                nxt = e[0]
                count = deps.get(nxt)
                if count is None:
                    deps[nxt] = 1
                    stack.append(nxt)
                else:
                    deps[nxt] = count + 1
    return deps


def _pruned_to(deps: dict[Node, int], capture: list) -> tuple[dict[Node, int], set[Node]]:
    """For ``grad``/``backward(inputs=)``: keep only the nodes on a path to a captured node,
    recount the edges among them, and say which of them run (a captured node runs only if
    something below it is needed too; otherwise its gradient is recorded and the node, with
    what it saved, is left untouched)."""
    needed = _leading_to(list(deps), {n for n, _ in capture})
    kept = {n: 0 for n in deps if n in needed}
    for node in kept:
        for e in node.next_edges:
            if e is not None and e[0] in kept:
                kept[e[0]] += 1
    runs = {n for n in kept if any(e is not None and e[0] in needed for e in n.next_edges)}
    return kept, runs


def run_backward(roots: list, retain_graph: bool, create_graph: bool,
                 capture: list | None = None, accumulate: bool = True) -> list | None:
    """Run one backward pass; with ``capture`` (a list of (node, nr)) return those gradients.

    The hot loop of every training step: per node it pops the node's gradient buffer, runs the
    node and moves each input gradient into the next node's buffer, keeping no local name for
    a gradient (a stale reference would stop AccumulateGrad from taking ownership of it, see
    Note [Gradient ownership]).
    """
    deps = _dependencies(roots)
    runs: set[Node] | None = None
    capture_at: dict[tuple[Node, int], list[int]] = {}
    if capture is not None:
        for idx, (node, nr) in enumerate(capture):
            capture_at.setdefault((node, nr), []).append(idx)
        deps, runs = _pruned_to(deps, capture)
    buffers: dict[Node, list] = {}
    for node, nr, g in roots:
        if node in deps:
            _add_grad(buffers, node, nr, g)
    ready: list = []
    for node in deps:
        if deps[node] == 0 and node in buffers:
            heapq.heappush(ready, (-node.seq, id(node), node))
    results: list | None = [None] * len(capture) if capture is not None else None
    executed: list[Node] = []
    check_nan = ANOMALY.enabled and ANOMALY.check_nan  # a thread-local: read once per pass
    with grad_mode.set_grad_enabled(create_graph):
        while ready:
            node = heapq.heappop(ready)[2]
            outputs: list = []  # before the node runs: none of the last node's gradients
            grads = buffers.pop(node)
            if node._pre_hooks:
                grads = _run_pre_hooks(node, grads)
            if capture_at:
                for nr, g in enumerate(grads):
                    for idx in capture_at.get((node, nr), ()):
                        results[idx] = g  # type: ignore[index]
                g = None
            is_leaf_node = node.__class__ is AccumulateGrad
            if (is_leaf_node and not accumulate) or (runs is not None and node not in runs):
                _propagate_nothing(node, deps, buffers, ready)
                continue
            arrived = missing = False
            for g in grads:
                if g is None:
                    missing = True
                else:
                    arrived = True
            g = None
            if arrived:
                if missing:
                    grads = _fill_missing(node, grads)
                try:
                    if is_leaf_node and len(grads) == 1 and not node._hooks:
                        # hand the gradient over without keeping a reference to it, so
                        # that AccumulateGrad may take ownership of it
                        outputs = node.accumulate_owned(grads)
                    else:
                        outputs = node.apply_flat(tuple(grads))
                except AutogradError:
                    raise
                except Exception as exc:
                    raise type(exc)(f"{exc} (in the backward of '{node.op_name}', "
                                    f"{node.name()})") from exc
                _fix_up_outputs(node, outputs)
                if node._hooks:
                    outputs = _run_post_hooks(node, outputs, grads)
                if check_nan:
                    _check_anomaly(node, outputs)
            grads = None
            executed.append(node)
            n_outputs = len(outputs)
            for i, e in enumerate(node.next_edges):
                if e is None:
                    continue
                nxt = e[0]
                count = deps.get(nxt)
                if count is None:
                    continue  # pruned: not on a path to a captured input
                if i < n_outputs and outputs[i] is not None:
                    if e[1] == 0 and nxt not in buffers and len(nxt.output_meta) <= 1:
                        # the common first arrival at a one-output node, _add_grad's
                        # case inlined: the list is the only holder of the gradient
                        buffers[nxt] = [outputs[i]]
                    else:
                        _add_grad(buffers, nxt, e[1], outputs[i])  # the argument dies on return
                deps[nxt] = count = count - 1
                if count == 0:
                    if nxt in buffers:
                        heapq.heappush(ready, (-nxt.seq, id(nxt), nxt))
                    else:
                        _propagate_nothing(nxt, deps, buffers, ready)
    if not retain_graph:
        for node in executed:
            node.release()
    return results


def _add_grad(buffers: dict, node: Node, nr: int, grad: Any) -> None:
    buf = buffers.get(node)
    if buf is None:
        buf = buffers[node] = [None] * max(len(node.output_meta), nr + 1, 1)
    elif nr >= len(buf):
        buf.extend([None] * (nr + 1 - len(buf)))
    buf[nr] = grad if buf[nr] is None else buf[nr] + grad


def _run_pre_hooks(node: Node, grads: list) -> list:
    for nr_filter, hook in list(node._pre_hooks or ()):
        if nr_filter is None:
            new = hook(tuple(grads))
            if new is not None:
                grads = list(new)
        elif nr_filter < len(grads) and grads[nr_filter] is not None:
            new = hook(grads[nr_filter])
            if new is not None:
                grads[nr_filter] = new
    return grads


def _run_post_hooks(node: Node, outputs: list, grads: Any) -> list:
    for hook in node._hooks or ():
        new = hook(tuple(outputs), tuple(grads))
        if new is not None:
            outputs = list(new)
    return outputs


def _leading_to(nodes: list[Node], targets: set[Node]) -> set[Node]:
    """The nodes from which a target node can be reached (targets included): one post-order
    walk, each node decided once its inputs are."""
    memo: dict[Node, bool] = {}
    for start in nodes:
        stack = [(start, False)]
        while stack:
            node, inputs_done = stack.pop()
            if node in memo:
                continue
            inputs = [e[0] for e in node.next_edges if e is not None]
            if not inputs_done:
                stack.append((node, True))
                stack.extend((n, False) for n in inputs if n not in memo)
            else:
                memo[node] = node in targets or any(memo[n] for n in inputs)
    return {node for node, leads in memo.items() if leads}


def _propagate_nothing(node: Node, deps: dict, buffers: dict, ready: list) -> None:
    """A node that received no gradient at all: its inputs get nothing from it either."""
    stack = [node]
    while stack:
        n = stack.pop()
        for e in n.next_edges:
            if e is None:
                continue
            nxt = e[0]
            count = deps.get(nxt)
            if count is None:
                continue
            deps[nxt] = count = count - 1
            if count == 0:
                if nxt in buffers:
                    heapq.heappush(ready, (-nxt.seq, id(nxt), nxt))
                else:
                    stack.append(nxt)


def _fill_missing(node: Node, grads: list) -> list:
    """Outputs that got no gradient (an unused output of a multi-output op) get zeros."""
    if all(g is not None for g in grads) or not node.output_meta:
        return grads
    filled = list(grads)
    for i, meta in enumerate(node.output_meta):
        if i < len(filled) and filled[i] is None and meta is not None and meta[1].is_floating_point:
            filled[i] = zeros(meta[0], dtype=meta[1], device=meta[2])
    return filled


def _as_tuple(x: Any) -> tuple:
    if x is None:
        return ()
    if isinstance(x, (tuple, list)):
        return tuple(x)
    return (x,)


def backward(tensors: Any, grad_tensors: Any = None, retain_graph: bool | None = None,
             create_graph: bool = False, inputs: Any = None) -> None:
    """Accumulate gradients of ``tensors`` into the ``.grad`` of the leaves they depend on."""
    tensors = _as_tuple(tensors)
    grads = _as_tuple(grad_tensors) if grad_tensors is not None else None
    if retain_graph is None:
        retain_graph = create_graph
    roots = _make_roots(tensors, grads)
    if inputs is not None:
        inputs = _as_tuple(inputs)
        capture = [_capture_point(t) for t in inputs]
        results = run_backward(roots, retain_graph, create_graph, capture, accumulate=False)
        assert results is not None
        for t, g in zip(inputs, results):
            if g is None:
                continue
            if t.grad_fn is None:
                acc = accumulator(t)
                with grad_mode.set_grad_enabled(create_graph):
                    acc.apply((g,))
            else:
                t._grad = g if t._grad is None else t._grad + g
        return
    run_backward(roots, retain_graph, create_graph)


def _capture_point(t: Any) -> tuple:
    if not getattr(t, "requires_grad", False):
        raise AutogradError("one of the differentiated Tensors does not require grad")
    fn = current_grad_fn(t)
    if fn is None:
        return (accumulator(t), 0)
    return (fn, t._output_nr)


def grad(outputs: Any, inputs: Any, grad_outputs: Any = None, retain_graph: bool | None = None,
         create_graph: bool = False, allow_unused: bool | None = None,
         materialize_grads: bool = False) -> tuple:
    """Gradients of ``outputs`` with respect to ``inputs``, without touching ``.grad``."""
    outputs = _as_tuple(outputs)
    inputs_t = _as_tuple(inputs)
    grads = _as_tuple(grad_outputs) if grad_outputs is not None else None
    if retain_graph is None:
        retain_graph = create_graph
    roots = _make_roots(outputs, grads)
    capture = [_capture_point(t) for t in inputs_t]
    results = run_backward(roots, retain_graph, create_graph, capture, accumulate=False)
    assert results is not None
    final = []
    for i, (t, g) in enumerate(zip(inputs_t, results)):
        if g is None:
            if materialize_grads:
                g = zeros_like(t)
            elif not allow_unused:
                raise AutogradError(f"One of the differentiated Tensors (input {i}) appears to "
                                    "not have been used in the graph. Set allow_unused=True if "
                                    "this is the desired behavior.")
        final.append(g)
    return tuple(final)


# -- tensor hooks -------------------------------------------------------------------------------


def register_tensor_hook(t: Any, hook: Any) -> RemovableHandle:
    if not t.requires_grad:
        raise AutogradError("cannot register a hook on a tensor that doesn't require gradient")
    if t.grad_fn is None:
        if t._hooks is None:
            t._hooks = []
        t._hooks.append(hook)
        return RemovableHandle(t._hooks, hook)
    node = t.grad_fn
    if node._pre_hooks is None:
        node._pre_hooks = []
    entry = (t._output_nr, hook)
    node._pre_hooks.append(entry)
    return RemovableHandle(node._pre_hooks, entry)


def install_retain_grad_hook(t: Any) -> None:
    import weakref
    ref = weakref.ref(t)

    def retain(grad: Any) -> None:
        target = ref()
        if target is not None:
            g = grad.detach()
            target._grad = g.clone() if target._grad is None else target._grad + g

    node = t.grad_fn
    if node._pre_hooks is None:
        node._pre_hooks = []
    node._pre_hooks.append((t._output_nr, retain))
