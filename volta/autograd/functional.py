"""``volta.autograd.functional``: derivatives of whole functions (PyTorch's higher-level API).

``vjp``, ``jvp``, ``vhp``, ``hvp``, ``jacobian`` and ``hessian`` take a Python function of tensors
and compute its derivative products with :func:`volta.autograd.grad`, as PyTorch's module of the
same name does: inputs are detached copies that require grad, so nothing leaks into the caller's
graph unless ``create_graph=True`` asks for derivatives that are themselves differentiable.

Forward-mode products (``jvp``, ``hvp``, the "forward-mode" Jacobian strategy) use the
double-backward identity: for ``u = J^T w`` with ``w`` a dummy that requires grad, the gradient of
``u . v`` with respect to ``w`` is ``J v``. It needs only reverse mode, at about twice its cost.
``vectorize=True`` is accepted and gives the same values: the rows (or columns) of a Jacobian are
computed one after another.

Where an output does not depend on an input, its block of the result is zeros, or with
``strict=True`` the call is rejected, as in PyTorch.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from volta._generated.functions import ones_like, stack, zeros_like
from volta.autograd import grad_mode
from volta.autograd.engine import grad as _grad
from volta.errors import ArgumentError, AutogradError
from volta.tensor.factories import eye, zeros
from volta.tensor.tensor import Tensor

__all__ = ["vjp", "jvp", "vhp", "hvp", "jacobian", "hessian"]

_STRATEGIES = ("forward-mode", "reverse-mode")


def _as_tuple(value: Any, arg_name: str, fn_name: str) -> tuple[bool, tuple]:
    """(whether ``value`` was a tuple or list, its tensors as a tuple); non-tensors rejected."""
    is_tuple = isinstance(value, (tuple, list))
    items = tuple(value) if is_tuple else (value,)
    for i, item in enumerate(items):
        if not isinstance(item, Tensor):
            where = f"element {i} of the {arg_name}" if is_tuple else f"the {arg_name}"
            raise ArgumentError(f"The {arg_name} given to {fn_name} must be either a Tensor or a "
                                f"tuple of Tensors but {where} has type {type(item).__name__}.")
    return is_tuple, items


def _prepare_inputs(inputs: tuple, create_graph: bool) -> tuple:
    """Inputs the function is differentiated at: fresh leaves (or, with ``create_graph``,
    differentiable aliases of inputs that already require grad)."""
    prepared = []
    for x in inputs:
        if create_graph and x.requires_grad:
            prepared.append(x.view_as(x))  # keeps the path to the caller's graph
        else:
            prepared.append(x.detach().requires_grad_(True))
    return tuple(prepared)


def _finish(values: tuple, create_graph: bool, keep_tuple: bool) -> Any:
    out = tuple(v if create_graph or v is None else v.detach() for v in values)
    return out if keep_tuple else out[0]


def _finish_nested(values: tuple, create_graph: bool, outer_tuple: bool,
                   inner_tuple: bool) -> Any:
    rows = tuple(_finish(row, create_graph, inner_tuple) for row in values)
    return rows if outer_tuple else rows[0]


def _check_vector(v: tuple, reference: tuple, fn_name: str, what: str) -> None:
    if len(v) != len(reference):
        raise AutogradError(f"{fn_name}: v is a tuple of invalid length: should be "
                            f"{len(reference)} but got {len(v)}.")
    for a, b in zip(v, reference):
        if tuple(a.shape) != tuple(b.shape):
            raise AutogradError(f"{fn_name}: v has invalid size: should be {list(b.shape)} but "
                                f"got {list(a.shape)}.")


def _grads(outputs: Sequence[Any], inputs: tuple, grad_outputs: Sequence[Any] | None,
           create_graph: bool, retain_graph: bool | None = None) -> tuple:
    """``grad`` over the outputs that take part in the graph; None for an input nothing
    reached (and for every input when no output requires grad)."""
    pairs = [(o, None if grad_outputs is None else g)
             for o, g in zip(outputs, grad_outputs or [None] * len(outputs))
             if o is not None and o.requires_grad]
    if not pairs:
        return (None,) * len(inputs)
    return _grad([o for o, _ in pairs], inputs,
                 None if grad_outputs is None else [g for _, g in pairs],
                 retain_graph=create_graph if retain_graph is None else retain_graph,
                 create_graph=create_graph, allow_unused=True)


def _zeros_for_missing(grads: tuple, like: tuple, strict: bool, fn_name: str,
                       stage: str) -> tuple:
    out = []
    for i, (g, x) in enumerate(zip(grads, like)):
        if g is None:
            if strict:
                raise AutogradError(f"{fn_name}: the {stage} of the user-provided function is "
                                    f"independent of input {i}. This is not allowed in strict "
                                    "mode.")
            g = zeros_like(x)
        out.append(g)
    return tuple(out)


def _outputs(func: Callable[..., Any], inputs: tuple, fn_name: str) -> tuple[bool, tuple]:
    is_tuple, outputs = _as_tuple(func(*inputs), "outputs of the user-provided function",
                                  fn_name)
    return is_tuple, outputs


def _check_strict_outputs(outputs: tuple, strict: bool, fn_name: str) -> None:
    if not strict:
        return
    for i, o in enumerate(outputs):
        if not o.requires_grad:
            raise AutogradError(f"{fn_name}: output {i} of the user-provided function does not "
                                "require gradients. The outputs must be computed in a "
                                "differentiable manner from the input when running in strict "
                                "mode.")


def vjp(func: Callable[..., Any], inputs: Any, v: Any = None, create_graph: bool = False,
        strict: bool = False) -> tuple[Any, Any]:
    """``(func(inputs), v^T J)``: the vector-Jacobian product at ``inputs``; ``v`` may be
    omitted when ``func`` returns a single one-element tensor."""
    with grad_mode.enable_grad():
        in_tuple, xs = _as_tuple(inputs, "inputs", "vjp")
        xs = _prepare_inputs(xs, create_graph)
        out_tuple, outputs = _outputs(func, xs, "vjp")
        _check_strict_outputs(outputs, strict, "vjp")
        if v is None:
            if len(outputs) != 1 or outputs[0].numel() != 1:
                raise AutogradError("vjp: the vector v can only be None if the user-provided "
                                    "function returns a single Tensor with a single element.")
            vs = (ones_like(outputs[0]),)
        else:
            _, vs = _as_tuple(v, "v", "vjp")
            _check_vector(vs, outputs, "vjp", "output")
        grads = _grads(outputs, xs, vs, create_graph)
        grads = _zeros_for_missing(grads, xs, strict, "vjp", "output")
    return _finish(outputs, create_graph, out_tuple), _finish(grads, create_graph, in_tuple)


def jvp(func: Callable[..., Any], inputs: Any, v: Any = None, create_graph: bool = False,
        strict: bool = False) -> tuple[Any, Any]:
    """``(func(inputs), J v)``: the Jacobian-vector product at ``inputs``; ``v`` may be omitted
    when the input is a single one-element tensor."""
    with grad_mode.enable_grad():
        _, xs = _as_tuple(inputs, "inputs", "jvp")
        xs = _prepare_inputs(xs, create_graph)
        if v is None:
            if len(xs) != 1 or xs[0].numel() != 1:
                raise AutogradError("jvp: the vector v can only be None if the input to the "
                                    "user-provided function is a single Tensor with a single "
                                    "element.")
            vs = (ones_like(xs[0]),)
        else:
            _, vs = _as_tuple(v, "v", "jvp")
            _check_vector(vs, xs, "jvp", "input")
        out_tuple, outputs = _outputs(func, xs, "jvp")
        _check_strict_outputs(outputs, strict, "jvp")
        products = forward_products(outputs, xs, vs, create_graph, strict, "jvp")
    return _finish(outputs, create_graph, out_tuple), _finish(products, create_graph, out_tuple)


def forward_products(outputs: Sequence[Any], xs: Sequence[Any], vs: Sequence[Any],
                     create_graph: bool, strict: bool = False, fn_name: str = "jvp") -> tuple:
    """``J v`` for each output through the double-backward identity (see the module doc); zeros
    for an output no input reaches. ``volta.func.jvp`` is built on it too."""
    dummies = tuple(zeros_like(o).requires_grad_(True) for o in outputs)
    grads = _grads(outputs, xs, dummies, create_graph=True)
    if strict and any(g is None for g in grads):
        i = next(i for i, g in enumerate(grads) if g is None)
        raise AutogradError(f"{fn_name}: the output of the user-provided function is "
                            f"independent of input {i}. This is not allowed in strict mode.")
    pairs = [(g, v) for g, v in zip(grads, vs) if g is not None]
    if not pairs:
        return tuple(zeros_like(o) for o in outputs)
    products = _grads([g for g, _ in pairs], dummies, [v for _, v in pairs],
                      create_graph=create_graph, retain_graph=True)
    return _zeros_for_missing(products, outputs, strict, fn_name, "gradient")


def _flat_basis(shape: tuple[int, ...], like: Any) -> list[Any]:
    n = 1
    for s in shape:
        n *= s
    identity = eye(n, dtype=like.dtype, device=like.device)
    return [identity[i].reshape(shape) for i in range(n)]


def jacobian(func: Callable[..., Any], inputs: Any, create_graph: bool = False,
             strict: bool = False, vectorize: bool = False,
             strategy: str = "reverse-mode") -> Any:
    """The Jacobian of ``func`` at ``inputs``: for one input and one output a tensor of shape
    ``output.shape + input.shape``; tuples of them (outputs outer, inputs inner) otherwise."""
    if strategy not in _STRATEGIES:
        raise ArgumentError(f"jacobian: expected strategy to be either \"forward-mode\" or "
                            f"\"reverse-mode\", got {strategy!r}")
    # PyTorch's restrictions, kept so that code written for volta runs on PyTorch too
    if strict and vectorize:
        raise AutogradError("jacobian: `strict=True` and `vectorize=True` are not supported "
                            "together. Please either set `strict=False` or `vectorize=False`.")
    if strategy == "forward-mode" and not vectorize:
        raise AutogradError("jacobian: computing the Jacobian with strategy=\"forward-mode\" "
                            "is only supported with `vectorize=True`.")
    if strategy == "forward-mode" and create_graph:
        raise AutogradError("jacobian: `create_graph=True` and `strategy=\"forward-mode\"` are "
                            "not supported together. Please either set `create_graph=False` or "
                            "`strategy=\"reverse-mode\"`.")
    with grad_mode.enable_grad():
        in_tuple, xs = _as_tuple(inputs, "inputs", "jacobian")
        xs = _prepare_inputs(xs, create_graph)
        out_tuple, outputs = _outputs(func, xs, "jacobian")
        _check_strict_outputs(outputs, strict, "jacobian")
        if strategy == "reverse-mode":
            blocks = jacobian_rows(outputs, xs, create_graph, strict)
        else:
            blocks = jacobian_columns(outputs, xs, create_graph, strict)
    return _finish_nested(blocks, create_graph, out_tuple, in_tuple)


def jacobian_rows(outputs: Sequence[Any], xs: Sequence[Any], create_graph: bool,
                  strict: bool = False) -> tuple:
    """Reverse mode: one backward pass per output element gives one row of every block;
    blocks[i][j] is d output_i / d input_j, shaped output_i.shape + input_j.shape."""
    blocks = []
    for i, out in enumerate(outputs):
        rows: list[list[Any]] = [[] for _ in xs]
        for basis in _flat_basis(tuple(out.shape), out):
            if out.requires_grad:
                grads = _grad([out], xs, [basis], retain_graph=True, create_graph=create_graph,
                              allow_unused=True)
            else:
                grads = (None,) * len(xs)
            for j, (g, x) in enumerate(zip(grads, xs)):
                if g is None:
                    if strict:
                        raise AutogradError(f"jacobian: output {i} of the user-provided "
                                            f"function is independent of input {j}. This is "
                                            "not allowed in strict mode.")
                    g = zeros_like(x)
                rows[j].append(g)
        blocks.append(tuple(
            stack(r, 0).reshape(*out.shape, *x.shape) if r
            else zeros(*out.shape, *x.shape, dtype=x.dtype, device=x.device)
            for r, x in zip(rows, xs)))
    return tuple(blocks)


def jacobian_columns(outputs: Sequence[Any], xs: Sequence[Any], create_graph: bool,
                     strict: bool = False) -> tuple:
    """Forward mode: one Jacobian-vector product per input element gives one column of every
    block (blocks as in :func:`jacobian_rows`). The first backward of the double-backward
    identity runs once; each column is one more backward through its result."""
    dummies = [zeros_like(o).requires_grad_(True) for o in outputs]
    inner = _grads(outputs, tuple(xs), dummies, create_graph=True)
    blocks: list[list[Any]] = [[None] * len(xs) for _ in outputs]
    for j, (g, x) in enumerate(zip(inner, xs)):
        if g is None and strict:
            raise AutogradError(f"jacobian: the output of the user-provided function is "
                                f"independent of input {j}. This is not allowed in strict mode.")
        columns: list[list[Any]] = [[] for _ in outputs]
        for e in _flat_basis(tuple(x.shape), x):
            products = _grad([g], dummies, [e], retain_graph=True, create_graph=create_graph,
                             allow_unused=True) if g is not None else (None,) * len(outputs)
            for i, (p, o) in enumerate(zip(products, outputs)):
                columns[i].append(p if p is not None else zeros_like(o))
        for i, o in enumerate(outputs):
            cols = columns[i]
            blocks[i][j] = (stack(cols, -1).reshape(*o.shape, *x.shape) if cols else
                            zeros(*o.shape, *x.shape, dtype=o.dtype, device=o.device))
    return tuple(tuple(row) for row in blocks)


def hessian(func: Callable[..., Any], inputs: Any, create_graph: bool = False,
            strict: bool = False, vectorize: bool = False,
            outer_jacobian_strategy: str = "reverse-mode") -> Any:
    """The Hessian of a scalar-valued ``func`` at ``inputs``: ``input.shape * 2`` for one input,
    a tuple of tuples of blocks for several."""
    in_tuple, xs = _as_tuple(inputs, "inputs", "hessian")
    if outer_jacobian_strategy not in _STRATEGIES:
        raise ArgumentError(f"hessian: expected outer_jacobian_strategy to be either "
                            f"\"forward-mode\" or \"reverse-mode\", got "
                            f"{outer_jacobian_strategy!r}")

    def gradient(*args: Any) -> Any:
        out_tuple, outputs = _as_tuple(func(*args), "outputs of the user-provided function",
                                       "hessian")
        if out_tuple or len(outputs) != 1 or outputs[0].numel() != 1:
            raise AutogradError("hessian: the Tensor returned by the function given to hessian "
                                "should contain a single element")
        out = outputs[0].reshape(())
        if not out.requires_grad:
            if strict:
                raise AutogradError("hessian: the output of the user-provided function does "
                                    "not require gradients. The outputs must be computed in a "
                                    "differentiable manner from the input when running in "
                                    "strict mode.")
            return tuple(zeros_like(a).requires_grad_(True) for a in args)
        grads = _grad([out], args, create_graph=True, allow_unused=True)
        return _zeros_for_missing(grads, args, strict, "hessian", "output")

    result = jacobian(gradient, xs, create_graph=create_graph, strict=strict,
                      vectorize=vectorize, strategy=outer_jacobian_strategy)
    return result if in_tuple else result[0][0]


def vhp(func: Callable[..., Any], inputs: Any, v: Any = None, create_graph: bool = False,
        strict: bool = False) -> tuple[Any, Any]:
    """``(func(inputs), v^T H)`` for a scalar-valued ``func``."""
    return _hessian_product(func, inputs, v, create_graph, strict, "vhp", transpose=True)


def hvp(func: Callable[..., Any], inputs: Any, v: Any = None, create_graph: bool = False,
        strict: bool = False) -> tuple[Any, Any]:
    """``(func(inputs), H v)`` for a scalar-valued ``func`` (equal to ``vhp`` for a twice
    continuously differentiable function; computed the forward way, as PyTorch does)."""
    return _hessian_product(func, inputs, v, create_graph, strict, "hvp", transpose=False)


def _hessian_product(func: Callable[..., Any], inputs: Any, v: Any, create_graph: bool,
                     strict: bool, fn_name: str, transpose: bool) -> tuple[Any, Any]:
    with grad_mode.enable_grad():
        in_tuple, xs = _as_tuple(inputs, "inputs", fn_name)
        xs = _prepare_inputs(xs, create_graph)
        if v is None:
            if len(xs) != 1 or xs[0].numel() != 1:
                raise AutogradError(f"{fn_name}: the vector v can only be None if the input to "
                                    "the user-provided function is a single Tensor with a "
                                    "single element.")
            vs = (ones_like(xs[0]),)
        else:
            _, vs = _as_tuple(v, "v", fn_name)
            _check_vector(vs, xs, fn_name, "input")
        out_tuple, outputs = _outputs(func, xs, fn_name)
        if out_tuple or len(outputs) != 1 or outputs[0].numel() != 1:
            raise AutogradError(f"{fn_name}: the Tensor returned by the function given to "
                                f"{fn_name} should contain a single element")
        _check_strict_outputs(outputs, strict, fn_name)
        grads = _grads(outputs, xs, None, create_graph=True)
        grads = _zeros_for_missing(grads, xs, strict, fn_name, "output")
        differentiable = [(g, x, w) for g, x, w in zip(grads, xs, vs) if g.requires_grad]
        if transpose:
            products = _grads([g for g, _, _ in differentiable], xs,
                              [w for _, _, w in differentiable], create_graph)
        else:
            dummies = tuple(zeros_like(x).requires_grad_(True) for x in xs)
            pairs = [(g, d) for g, d in zip(grads, dummies) if g.requires_grad]
            inner = _grads([g for g, _ in pairs], xs, [d for _, d in pairs], create_graph=True)
            inner = [(i, w) for i, w in zip(inner, vs) if i is not None]
            products = _grads([i for i, _ in inner], dummies, [w for _, w in inner],
                              create_graph) if inner else (None,) * len(xs)
        products = _zeros_for_missing(products, xs, strict, fn_name, "jacobian")
    return _finish(outputs, create_graph, out_tuple), _finish(products, create_graph, in_tuple)
