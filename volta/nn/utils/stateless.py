"""``functional_call``: run a module with some of its parameters and buffers replaced by given
tensors for one call, as ``torch.nn.utils.stateless`` / ``torch.func.functional_call`` (for
meta-learning, ensembling, differentiating with respect to the weights)."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import volta
from volta.errors import InvalidArgumentError
from volta.nn.modules.module import Module

__all__ = ["functional_call"]

_MISSING = object()


def _tied_names(module: Module, given: dict[str, volta.Tensor]) -> dict[str, volta.Tensor]:
    """``given`` extended to every name that shares a tensor with a given name (a tied
    embedding and output projection take the same replacement)."""
    names_by_tensor: dict[int, set[str]] = {}
    members = [*module.named_parameters(remove_duplicate=False),
               *module.named_buffers(remove_duplicate=False)]
    for name, tensor in members:
        names_by_tensor.setdefault(id(tensor), set()).add(name)
    tied = {name: names for names in names_by_tensor.values() if len(names) > 1
            for name in names}
    result = dict(given)
    for name in given:
        if name not in tied:
            continue
        if len({id(given[n]) for n in tied[name] if n in given}) > 1:
            raise InvalidArgumentError(f"functional_call got multiple values for keys "
                                       f"{sorted(tied[name])}, which are tied. Consider using "
                                       "tie_weights=False")
        for other in tied[name]:
            result[other] = given[name]
    return result


def _swap(module: Module, name: str, value: Any) -> Any:
    """Puts ``value`` at dotted ``name`` (a parameter, buffer or plain attribute; ``_MISSING``
    removes a plain one) and returns what was there."""
    owner_path, _, leaf = name.rpartition(".")
    owner = module.get_submodule(owner_path) if owner_path else module
    for registry in (owner._parameters, owner._buffers):
        if leaf in registry:
            old, registry[leaf] = registry[leaf], value
            return old
    old = owner.__dict__.get(leaf, _MISSING)
    if value is _MISSING:
        owner.__dict__.pop(leaf, None)
    else:
        owner.__dict__[leaf] = value
    return old


@contextmanager
def _reparametrized(module: Module, tensors: dict[str, volta.Tensor], tie_weights: bool,
                    strict: bool) -> Iterator[None]:
    if tie_weights:
        tensors = _tied_names(module, tensors)
    if strict:
        own = {n for n, _ in module.named_parameters(remove_duplicate=False)}
        own |= {n for n, _ in module.named_buffers(remove_duplicate=False)}
        errors = []
        unexpected = [k for k in tensors if k not in own]
        missing = [k for k in own if k not in tensors]
        if unexpected:
            errors.append(f"Unexpected key(s): {', '.join(map(repr, unexpected))}.")
        if missing:
            errors.append(f"Missing key(s): {', '.join(map(repr, sorted(missing)))}.")
        if errors:
            raise InvalidArgumentError(f"Error(s) in reparametrizing for "
                                       f"{module._get_name()}:\n\t" + "\n\t".join(errors))
    originals: dict[str, Any] = {}
    try:
        for name, tensor in tensors.items():
            originals[name] = _swap(module, name, tensor)
        yield
    finally:
        for name, original in reversed(originals.items()):
            _swap(module, name, original)


def functional_call(module: Module, parameters_and_buffers: dict[str, volta.Tensor],
                    args: Any = None, kwargs: dict[str, Any] | None = None, *,
                    tie_weights: bool = True, strict: bool = False) -> Any:
    """``module(*args, **kwargs)`` with the tensors of ``parameters_and_buffers`` (by dotted
    name) in place of the module's own, which are restored afterwards.

    Args:
        module: the module to call.
        parameters_and_buffers: replacements by ``state_dict``-style name; names not given
            keep the module's tensors.
        args: the positional arguments (a single non-tuple value is one argument).
        kwargs: the keyword arguments.
        tie_weights: a replacement for one of several names that share a tensor replaces
            them all.
        strict: every parameter and buffer must be given, and nothing else.
    """
    if args is None:
        args = ()
    elif not isinstance(args, tuple):
        args = (args,)
    with _reparametrized(module, parameters_and_buffers, tie_weights, strict):
        return module(*args, **(kwargs or {}))
