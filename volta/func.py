"""``volta.func``: PyTorch's function transforms (``torch.func``) over volta's autograd.

``grad``, ``grad_and_value``, ``vjp``, ``jvp``, ``jacrev``, ``jacfwd``, ``hessian`` turn a function
of tensors into the function computing its derivative; they compose (``grad(grad(f))``), take
``argnums`` and ``has_aux`` as PyTorch's do, and accept nested dicts, lists and tuples of tensors
("pytrees") wherever a tensor may stand. ``functional_call`` runs a module with other parameters
and buffers; ``vmap`` maps a function over a batch dimension.

How: the transforms run reverse mode through :func:`volta.autograd.grad` (forward mode through the
double-backward identity of :mod:`volta.autograd.functional`). A transform keeps the graph of its
result only when it runs inside another transform or on inputs that require grad, so nested
transforms differentiate through inner ones. ``vmap`` calls the function once per batch element
and stacks the results: the same values as PyTorch's batching rules, computed one element at a
time (no batched kernels).
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from typing import Any

import volta
from volta.autograd import grad_mode
from volta.autograd.engine import grad as _grad
from volta.autograd.functional import forward_products, jacobian_columns, jacobian_rows
from volta.errors import ArgumentError, AutogradError, InvalidArgumentError, ShapeError
from volta.nn.utils import stateless

__all__ = ["grad", "grad_and_value", "vjp", "jvp", "jacrev", "jacfwd", "hessian", "vmap",
           "functional_call", "stack_module_state"]


# -- pytrees ------------------------------------------------------------------------------------

def _flatten(tree: Any) -> tuple[list[Any], Any]:
    """(leaves, spec): dicts, lists and tuples are containers; anything else is a leaf."""
    if isinstance(tree, Mapping):
        keys = list(tree)
        children = [_flatten(tree[k]) for k in keys]
        return [x for leaves, _ in children for x in leaves], (dict, keys,
                                                                [s for _, s in children])
    if isinstance(tree, (list, tuple)):
        children = [_flatten(x) for x in tree]
        return [x for leaves, _ in children for x in leaves], (type(tree), len(tree),
                                                                [s for _, s in children])
    return [tree], None


def _unflatten(leaves: Iterator[Any], spec: Any) -> Any:
    if spec is None:
        return next(leaves)
    kind, keys, children = spec
    if kind is dict:
        return {k: _unflatten(leaves, c) for k, c in zip(keys, children)}
    values = [_unflatten(leaves, c) for c in children]
    return kind(values) if kind in (list, tuple) else kind(*values)


def _tree_map(fn: Callable[[Any], Any], tree: Any) -> Any:
    leaves, spec = _flatten(tree)
    return _unflatten(iter([fn(x) for x in leaves]), spec)


def _tensor_leaves(tree: Any, what: str) -> tuple[list[Any], Any]:
    leaves, spec = _flatten(tree)
    for leaf in leaves:
        if not isinstance(leaf, volta.Tensor):
            raise ArgumentError(f"{what}: expected every input to differentiate to be a Tensor "
                                f"(or a pytree of Tensors), got {type(leaf).__name__}")
    return leaves, spec


# -- differentiation ----------------------------------------------------------------------------

def _argnums(argnums: int | tuple[int, ...], count: int, fn_name: str) -> tuple[int, ...]:
    nums = (argnums,) if isinstance(argnums, int) else tuple(argnums)
    if not nums or any(isinstance(n, bool) or not isinstance(n, int) for n in nums):
        raise ArgumentError(f"{fn_name}: argnums must be an int or a non-empty tuple of ints, "
                            f"got {argnums!r}")
    normalized = []
    for n in nums:
        if not -count <= n < count:
            raise InvalidArgumentError(f"{fn_name}: Got argnums={n} but only {count} positional "
                                       "inputs")
        normalized.append(n % count)
    if len(set(normalized)) != len(normalized):
        raise InvalidArgumentError(f"{fn_name}: argnums must be unique, got {argnums!r}")
    return tuple(normalized)


def _differentiable_copy(x: Any) -> Any:
    """The input a transform differentiates at: tied to the caller's graph when the caller
    differentiates through the transform (nesting), else a fresh leaf."""
    if x.requires_grad and grad_mode.is_grad_enabled():
        return x.view_as(x)
    return x.detach().requires_grad_(True)


def _prepare(args: tuple, nums: tuple[int, ...], fn_name: str
             ) -> tuple[list[Any], list[tuple[list[Any], Any]], bool]:
    """(the call's arguments with the differentiated ones replaced, per argnum its leaves and
    spec, whether results must stay differentiable)."""
    call_args = list(args)
    parts = []
    nested = False
    for n in nums:
        leaves, spec = _tensor_leaves(args[n], fn_name)
        nested = nested or any(x.requires_grad for x in leaves)
        copies = [_differentiable_copy(x) for x in leaves]
        call_args[n] = _unflatten(iter(copies), spec)
        parts.append((copies, spec))
    return call_args, parts, nested and grad_mode.is_grad_enabled()


def _split_aux(result: Any, has_aux: bool, fn_name: str) -> tuple[Any, Any]:
    if not has_aux:
        return result, None
    if not isinstance(result, tuple) or len(result) != 2:
        raise AutogradError(f"{fn_name}(f, ...)(*args): output of function f should be a tuple: "
                            "(output, aux) if has_aux is True")
    return result


def _detached(tree: Any, keep_graph: bool) -> Any:
    if keep_graph:
        return tree
    return _tree_map(lambda x: x.detach() if isinstance(x, volta.Tensor) else x, tree)


def grad_and_value(func: Callable[..., Any], argnums: int | tuple[int, ...] = 0,
                   has_aux: bool = False) -> Callable[..., Any]:
    """A function returning ``(gradient, value)`` of the scalar ``func`` with respect to the
    arguments ``argnums`` (``((gradient, (value, aux))`` with ``has_aux``)."""
    @functools.wraps(func)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        nums = _argnums(argnums, len(args), "grad_and_value")
        with grad_mode.enable_grad():
            call_args, parts, keep = _prepare(args, nums, "grad_and_value")
            output, aux = _split_aux(func(*call_args, **kwargs), has_aux, "grad_and_value")
            if not isinstance(output, volta.Tensor):
                raise AutogradError("grad_and_value(f)(*args): Expected f(*args) to return a "
                                    f"Tensor, got {type(output).__name__}")
            if output.numel() != 1:
                raise AutogradError("grad_and_value(f)(*args): Expected f(*args) to return a "
                                    f"scalar Tensor, got tensor with {output.ndim} dims. Maybe "
                                    "you wanted to use the vjp or jacrev APIs instead?")
            leaves = [x for copies, _ in parts for x in copies]
            if output.requires_grad:
                grads = _grad([output], leaves, create_graph=keep, retain_graph=keep,
                              allow_unused=True)
            else:
                grads = (None,) * len(leaves)
            grads = [g if g is not None else volta.zeros_like(x) for g, x in zip(grads, leaves)]
        it = iter(grads)
        per_arg = tuple(_unflatten(it, spec) for _, spec in parts)
        gradient = per_arg[0] if isinstance(argnums, int) else per_arg
        gradient = _detached(gradient, keep)
        value = _detached(output, keep)
        if has_aux:
            return gradient, (value, _detached(aux, keep))
        return gradient, value
    return wrapper


def grad(func: Callable[..., Any], argnums: int | tuple[int, ...] = 0,
         has_aux: bool = False) -> Callable[..., Any]:
    """A function returning the gradient of the scalar ``func`` with respect to the arguments
    ``argnums`` (``(gradient, aux)`` with ``has_aux``)."""
    inner = grad_and_value(func, argnums, has_aux)

    @functools.wraps(func)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        gradient, value = inner(*args, **kwargs)
        return (gradient, value[1]) if has_aux else gradient
    return wrapper


def vjp(func: Callable[..., Any], *primals: Any, has_aux: bool = False) -> tuple[Any, ...]:
    """``(func(*primals), vjp_fn)`` (and ``aux``): ``vjp_fn(cotangents)`` gives the
    vector-Jacobian products with respect to every primal, as a tuple."""
    nums = tuple(range(len(primals)))
    with grad_mode.enable_grad():
        call_args, parts, keep = _prepare(primals, nums, "vjp")
        output, aux = _split_aux(func(*call_args), has_aux, "vjp")
    out_leaves = _tensor_leaves(output, "vjp")[0]

    def vjp_fn(cotangents: Any) -> tuple[Any, ...]:
        cot_leaves = _tensor_leaves(cotangents, "vjp_fn")[0]
        if len(cot_leaves) != len(out_leaves):
            raise AutogradError("vjp_fn: Expected pytree structure of cotangents to be the same "
                                "as pytree structure of outputs to the function")
        for c, o in zip(cot_leaves, out_leaves):
            if tuple(c.shape) != tuple(o.shape):
                raise AutogradError(f"vjp_fn: Mismatch in shape: grad_output has a shape of "
                                    f"{list(c.shape)} and output has a shape of "
                                    f"{list(o.shape)}")
        leaves = [x for copies, _ in parts for x in copies]
        pairs = [(o, c) for o, c in zip(out_leaves, cot_leaves) if o.requires_grad]
        with grad_mode.enable_grad():
            grads = _grad([o for o, _ in pairs], leaves, [c for _, c in pairs],
                          retain_graph=True, create_graph=keep, allow_unused=True) \
                if pairs else (None,) * len(leaves)
        grads = [g if g is not None else volta.zeros_like(x) for g, x in zip(grads, leaves)]
        it = iter(grads)
        return tuple(_detached(_unflatten(it, spec), keep) for _, spec in parts)

    result = (_detached(output, keep), vjp_fn)
    return (*result, _detached(aux, keep)) if has_aux else result


def jvp(func: Callable[..., Any], primals: tuple, tangents: tuple,
        has_aux: bool = False) -> tuple[Any, ...]:
    """``(func(*primals), J @ tangents)`` (and ``aux``): the Jacobian-vector product, through
    the double-backward identity."""
    if not isinstance(primals, tuple) or not isinstance(tangents, tuple):
        raise ArgumentError("jvp(f, primals, tangents): Expected primals and tangents to be "
                            "tuples. E.g. it should be valid to call f(*primals).")
    if len(primals) != len(tangents):
        raise AutogradError("jvp(f, primals, tangents): Expected primals and tangents to have "
                            "the same python structure")
    nums = tuple(range(len(primals)))
    with grad_mode.enable_grad():
        call_args, parts, keep = _prepare(primals, nums, "jvp")
        output, aux = _split_aux(func(*call_args), has_aux, "jvp")
        out_leaves, out_spec = _tensor_leaves(output, "jvp")
        leaves = [x for copies, _ in parts for x in copies]
        tangent_leaves = [t for tan in tangents for t in _tensor_leaves(tan, "jvp")[0]]
        if len(tangent_leaves) != len(leaves) or any(
                tuple(t.shape) != tuple(x.shape) for t, x in zip(tangent_leaves, leaves)):
            raise AutogradError("jvp(f, primals, tangents): Expected primals and tangents to "
                                "have the same python structure and shapes")
        products = forward_products(out_leaves, leaves, tangent_leaves, keep)
    tangent_out = _detached(_unflatten(iter(products), out_spec), keep)
    result = (_detached(output, keep), tangent_out)
    return (*result, _detached(aux, keep)) if has_aux else result


def _jacobian(func: Callable[..., Any], argnums: int | tuple[int, ...], has_aux: bool,
              forward: bool, fn_name: str) -> Callable[..., Any]:
    @functools.wraps(func)
    def wrapper(*args: Any) -> Any:
        nums = _argnums(argnums, len(args), fn_name)
        with grad_mode.enable_grad():
            call_args, parts, keep = _prepare(args, nums, fn_name)
            output, aux = _split_aux(func(*call_args), has_aux, fn_name)
            out_leaves, out_spec = _tensor_leaves(output, fn_name)
            leaves = [x for copies, _ in parts for x in copies]
            blocks = (jacobian_columns if forward else jacobian_rows)(out_leaves, leaves, keep)
        # blocks[i][j]: d output_i / d input_j, shaped output_i.shape + input_j.shape
        per_output = []
        for row in blocks:
            it = iter(row)
            per_arg = tuple(_unflatten(it, spec) for _, spec in parts)
            per_output.append(per_arg[0] if isinstance(argnums, int) else per_arg)
        jac = _detached(_unflatten(iter(per_output), out_spec), keep)
        return (jac, _detached(aux, keep)) if has_aux else jac
    return wrapper


def jacrev(func: Callable[..., Any], argnums: int | tuple[int, ...] = 0, *,
           has_aux: bool = False, chunk_size: int | None = None) -> Callable[..., Any]:
    """A function returning the Jacobian of ``func`` (reverse mode, one row per output
    element); ``chunk_size`` is accepted for PyTorch compatibility (rows are computed one by
    one anyway)."""
    _check_chunk_size(chunk_size)
    return _jacobian(func, argnums, has_aux, forward=False, fn_name="jacrev")


def jacfwd(func: Callable[..., Any], argnums: int | tuple[int, ...] = 0,
           has_aux: bool = False, *, randomness: str = "error") -> Callable[..., Any]:
    """A function returning the Jacobian of ``func`` (forward mode, one column per input
    element)."""
    _check_randomness(randomness)
    return _jacobian(func, argnums, has_aux, forward=True, fn_name="jacfwd")


def hessian(func: Callable[..., Any], argnums: int | tuple[int, ...] = 0) -> Callable[..., Any]:
    """``jacfwd(jacrev(func, argnums), argnums)``, as PyTorch defines it."""
    return jacfwd(jacrev(func, argnums), argnums)


def _check_chunk_size(chunk_size: int | None) -> None:
    if chunk_size is not None and (isinstance(chunk_size, bool) or not isinstance(chunk_size, int)
                                   or chunk_size <= 0):
        raise InvalidArgumentError("jacrev: `chunk_size` should be greater than 0.")


def _check_randomness(randomness: str) -> None:
    if randomness not in ("error", "different", "same"):
        raise InvalidArgumentError(f"Only allowed values for randomness are 'error', "
                                   f"'different', or 'same'. Got {randomness}")


# -- vmap ---------------------------------------------------------------------------------------

def vmap(func: Callable[..., Any], in_dims: Any = 0, out_dims: Any = 0,
         randomness: str = "error", *, chunk_size: int | None = None) -> Callable[..., Any]:
    """``func`` mapped over dimension ``in_dims`` of its inputs (None: not mapped), the results
    stacked along ``out_dims``. ``randomness``: "error" rejects random ops inside ``func``,
    "different" lets every element draw its own numbers, "same" gives every element the same."""
    _check_randomness(randomness)
    if chunk_size is not None and (isinstance(chunk_size, bool) or not isinstance(chunk_size, int)
                                   or chunk_size <= 0):
        raise InvalidArgumentError("vmap: chunk_size should be None or greater than 0. (got "
                                   f"{chunk_size})")

    @functools.wraps(func)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        dims = _broadcast_in_dims(in_dims, args)
        leaves, spec = _flatten(list(args))
        dim_leaves, _ = _flatten(dims)
        size = None
        for leaf, d in zip(leaves, dim_leaves):
            if d is None:
                continue
            if not isinstance(leaf, volta.Tensor):
                raise ArgumentError(f"vmap: Got in_dim={d} for an input but the input is of type "
                                    f"{type(leaf).__name__}. We cannot vmap over non-Tensor "
                                    "arguments, please use None as the respective in_dim")
            if not -leaf.ndim <= d < max(leaf.ndim, 1) or leaf.ndim == 0:
                raise ShapeError(f"vmap: Got in_dim={d} for some input, but that input is a "
                                 f"Tensor of dimensionality {leaf.ndim} so expected in_dim to "
                                 f"satisfy -{leaf.ndim} <= in_dim < {leaf.ndim}.")
            n = leaf.shape[d]
            if size is not None and n != size:
                raise ShapeError("vmap: Expected all tensors to have the same size in the mapped "
                                 f"dimension, got sizes {size} and {n} for the mapped dimension")
            size = n
        if size is None:
            raise InvalidArgumentError("vmap: at least one input must be mapped: in_dims is None "
                                       "for every Tensor input")
        results = []
        with _randomness(randomness) as each:
            for i in range(size):
                each()
                sliced = [leaf.select(d, i) if d is not None else leaf
                          for leaf, d in zip(leaves, dim_leaves)]
                results.append(func(*_unflatten(iter(sliced), spec), **kwargs))
        first_leaves, out_spec = _flatten(results[0])
        per_leaf = [_flatten(r)[0] for r in results]
        outs = _flatten(_broadcast_out_dims(out_dims, results[0]))[0]
        stacked = []
        for k, leaf in enumerate(first_leaves):
            d = outs[k]
            column = [row[k] for row in per_leaf]
            if d is None:
                stacked.append(leaf)
            elif isinstance(leaf, volta.Tensor):
                stacked.append(volta.stack(column, d))
            else:
                raise ArgumentError("vmap: `func` must only return Tensors, got type "
                                    f"{type(leaf).__name__} (use out_dims=None for it)")
        return _unflatten(iter(stacked), out_spec)
    return wrapper


def _broadcast_in_dims(in_dims: Any, args: tuple) -> list[Any]:
    if isinstance(in_dims, int) or in_dims is None:
        return [_tree_map(lambda _: in_dims, a) for a in args]
    if not isinstance(in_dims, (tuple, list)) or len(in_dims) != len(args):
        raise InvalidArgumentError(f"vmap: in_dims is not compatible with the structure of "
                                   f"`inputs`: expected an int, None or a tuple of length "
                                   f"{len(args)}, got {in_dims!r}")
    return [_tree_map(lambda _, d=d: d, a) if isinstance(d, int) or d is None else d
            for d, a in zip(in_dims, args)]


def _broadcast_out_dims(out_dims: Any, result: Any) -> Any:
    if isinstance(out_dims, int) or out_dims is None:
        return _tree_map(lambda _: out_dims, result)
    return out_dims


@contextmanager
def _randomness(mode: str) -> Iterator[Callable[[], None]]:
    """Per mode, the hook run before each element: "same" restores the generator's state;
    "error" checks afterwards that no random op ran."""
    generator = volta.default_generator
    state = generator.get_state()
    if mode == "same":
        yield lambda: generator.set_state(state)
        return
    yield lambda: None
    if mode == "error":
        after = generator.get_state()
        if after.shape != state.shape or not bool((after == state).all()):
            raise AutogradError("vmap: called random operation while in randomness error mode. "
                                "Please either use the 'same' or 'different' randomness flags "
                                "on vmap or perform the randomness operation out of vmap")


# -- modules ------------------------------------------------------------------------------------

def functional_call(module: Any, parameter_and_buffer_dicts: Any, args: Any = None,
                    kwargs: dict[str, Any] | None = None, *, tie_weights: bool = True,
                    strict: bool = False) -> Any:
    """Call ``module`` with the tensors of ``parameter_and_buffer_dicts`` (one dict, or a tuple
    of dicts whose keys do not overlap) in place of its own parameters and buffers, as
    ``torch.func.functional_call``; the module is unchanged afterwards (see
    :func:`volta.nn.utils.stateless.functional_call`)."""
    dicts = parameter_and_buffer_dicts
    if isinstance(dicts, (list, tuple)):
        merged: dict[str, Any] = {}
        for d in dicts:
            overlap = set(merged) & set(d)
            if overlap:
                raise InvalidArgumentError(f"functional_call: {sorted(overlap)} appeared in "
                                           "multiple dictionaries; behavior of functional call "
                                           "is ambiguous")
            merged.update(d)
        dicts = merged
    if not isinstance(dicts, Mapping):
        raise ArgumentError("functional_call: expected parameter_and_buffer_dicts to be a dict "
                            f"or a tuple of dicts, got {type(dicts).__name__}")
    return stateless.functional_call(module, dict(dicts), args, kwargs,
                                     tie_weights=tie_weights, strict=strict)


def stack_module_state(models: Any) -> tuple[dict[str, Any], dict[str, Any]]:
    """(parameters, buffers) of same-architecture ``models``, each name's tensors stacked
    along a new first dimension (the input of ``vmap`` over ``functional_call``)."""
    models = list(models)
    if not models:
        raise InvalidArgumentError("stack_module_state: Expected at least one model, got 0.")
    if len({type(m) for m in models}) != 1:
        raise InvalidArgumentError("stack_module_state: Expected all models to be of the same "
                                   "class.")
    params = {name: volta.stack([dict(m.named_parameters())[name].detach() for m in models])
              for name, _ in models[0].named_parameters()}
    for p in params.values():
        p.requires_grad_(True)
    buffers = {name: volta.stack([dict(m.named_buffers())[name] for m in models])
               for name, _ in models[0].named_buffers()}
    return params, buffers
