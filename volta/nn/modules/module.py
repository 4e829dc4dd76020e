"""``volta.nn.Module``: the base class of every layer and model.

A module owns parameters, buffers and submodules, registered by plain attribute assignment, and
exposes them under dotted names (``"0.weight"``, ``"block.bn.running_mean"``) exactly as PyTorch
does, so ``state_dict`` keys and orders match and weights move between the two frameworks.
"""

from __future__ import annotations

import functools
import itertools
import weakref
from collections import OrderedDict, namedtuple
from collections.abc import Callable, Iterator
from typing import Any

import volta
from volta.nn.parameter import Buffer, Parameter, is_lazy

_EXTRA_STATE_KEY = "_extra_state"


def _overrides(module: Module, method: str) -> bool:
    """Whether ``module``'s class defines its own ``method`` (PyTorch's test for extra state)."""
    return getattr(type(module), method) is not getattr(Module, method)


_IncompatibleKeys = namedtuple("IncompatibleKeys", ["missing_keys", "unexpected_keys"])
_IncompatibleKeys.__repr__ = lambda self: (  # type: ignore[method-assign]
    "<All keys matched successfully>" if not self.missing_keys and not self.unexpected_keys
    else f"_IncompatibleKeys(missing_keys={self.missing_keys}, "
         f"unexpected_keys={self.unexpected_keys})")


class RemovableHandle:
    """Returned by the ``register_*_hook`` methods; ``remove()`` unregisters the hook."""

    _next_id = itertools.count()

    def __init__(self, *hooks_dicts: dict) -> None:
        self.id = next(RemovableHandle._next_id)
        self._dicts = [weakref.ref(d) if hasattr(d, "__weakref__") else (lambda d=d: d)
                       for d in hooks_dicts]

    def remove(self) -> None:
        for ref in self._dicts:
            hooks = ref()
            if hooks is not None:
                hooks.pop(self.id, None)

    def __enter__(self) -> RemovableHandle:
        return self

    def __exit__(self, *exc: Any) -> None:
        self.remove()


class _HookDict(OrderedDict):
    """An OrderedDict that a weak reference can point at (plain dicts cannot)."""


def _addindent(text: str, spaces: int) -> str:
    lines = text.split("\n")
    if len(lines) == 1:
        return text
    return lines[0] + "\n" + "\n".join(" " * spaces + line for line in lines[1:])


class Module:
    """Base class for all neural-network modules; subclasses implement :meth:`forward`.

    Assigning a :class:`Parameter`, a ``Module`` or a :class:`Buffer` as an attribute
    registers it (as :meth:`register_buffer` does for buffers), in assignment order.
    """

    training: bool

    def __init__(self) -> None:
        object.__setattr__(self, "training", True)
        object.__setattr__(self, "_parameters", OrderedDict())
        object.__setattr__(self, "_buffers", OrderedDict())
        object.__setattr__(self, "_non_persistent_buffers_set", set())
        object.__setattr__(self, "_modules", OrderedDict())
        object.__setattr__(self, "_forward_pre_hooks", _HookDict())
        object.__setattr__(self, "_forward_pre_hooks_with_kwargs", set())
        object.__setattr__(self, "_forward_hooks", _HookDict())
        object.__setattr__(self, "_forward_hooks_with_kwargs", set())
        object.__setattr__(self, "_backward_hooks", _HookDict())
        object.__setattr__(self, "_load_state_dict_pre_hooks", _HookDict())

    forward: Callable[..., Any]

    def forward(self, *args: Any, **kwargs: Any) -> Any:  # type: ignore[no-redef]
        raise NotImplementedError(
            f'Module [{type(self).__name__}] is missing the required "forward" function')

    # -- registration ----------------------------------------------------------------------------

    def register_parameter(self, name: str, param: Parameter | None) -> None:
        """Adds ``param`` under ``name`` (``None`` registers an absent parameter, e.g. no bias)."""
        if "_parameters" not in self.__dict__:
            raise AttributeError("cannot assign parameter before Module.__init__() call")
        self._check_name(name, "parameter", self._parameters)
        if param is not None and not isinstance(param, Parameter):
            raise volta.ArgumentError(
                f"cannot assign '{type(param).__name__}' object to parameter "
                f"'{name}' (volta.nn.Parameter or None required)")
        self._parameters[name] = param

    def register_buffer(self, name: str, tensor: volta.Tensor | None,
                        persistent: bool = True) -> None:
        """Adds a buffer: state that is not a parameter (e.g. BatchNorm's running mean).

        Args:
            name: the attribute name.
            tensor: the buffer (``None`` registers an absent buffer).
            persistent: whether it is part of :meth:`state_dict`.
        """
        if "_buffers" not in self.__dict__:
            raise AttributeError("cannot assign buffer before Module.__init__() call")
        self._check_name(name, "buffer", self._buffers)
        if tensor is not None and not isinstance(tensor, volta.Tensor):
            raise volta.ArgumentError(
                f"cannot assign '{type(tensor).__name__}' object to buffer "
                f"'{name}' (volta Tensor or None required)")
        self._buffers[name] = tensor
        if persistent:
            self._non_persistent_buffers_set.discard(name)
        else:
            self._non_persistent_buffers_set.add(name)

    def add_module(self, name: str, module: Module | None) -> None:
        """Adds a child module under ``name``."""
        if module is not None and not isinstance(module, Module):
            raise volta.ArgumentError(f"{type(module).__name__} is not a Module subclass")
        self._check_name(name, "module", self._modules)
        self._modules[name] = module

    register_module = add_module

    def _check_name(self, name: str, kind: str, own: dict) -> None:
        if not isinstance(name, str):
            raise volta.ArgumentError(f"{kind} name should be a string. Got {type(name).__name__}")
        if name == "":
            raise volta.InvalidNameError(f'{kind} name can\'t be empty string ""')
        if "." in name:
            raise volta.InvalidNameError(f'{kind} name can\'t contain "."')
        if hasattr(self, name) and name not in own:
            raise volta.InvalidNameError(f"attribute '{name}' already exists")

    def __setattr__(self, name: str, value: Any) -> None:
        params = self.__dict__.get("_parameters")
        if isinstance(value, Parameter):
            if params is None:
                raise AttributeError("cannot assign parameters before Module.__init__() call")
            self._forget(name)
            self.register_parameter(name, value)
        elif params is not None and name in params:
            if value is not None:
                raise volta.ArgumentError(
                    f"cannot assign '{type(value).__name__}' as parameter "
                    f"'{name}' (volta.nn.Parameter or None expected)")
            params[name] = None
        elif isinstance(value, Module):
            if "_modules" not in self.__dict__:
                raise AttributeError("cannot assign module before Module.__init__() call")
            self._forget(name)
            self._modules[name] = value
        elif name in self.__dict__.get("_modules", {}):
            if value is not None:
                raise volta.ArgumentError(
                    f"cannot assign '{type(value).__name__}' as child module "
                    f"'{name}' (volta.nn.Module or None expected)")
            self._modules[name] = None
        elif isinstance(value, Buffer):
            if "_buffers" not in self.__dict__:
                raise AttributeError("cannot assign buffer before Module.__init__() call")
            self.register_buffer(name, value, value.persistent)
        elif name in self.__dict__.get("_buffers", {}):
            if value is not None and not isinstance(value, volta.Tensor):
                raise volta.ArgumentError(
                    f"cannot assign '{type(value).__name__}' as buffer "
                    f"'{name}' (volta.nn.Buffer, volta Tensor or None expected)")
            self._buffers[name] = value
        else:
            object.__setattr__(self, name, value)

    def _forget(self, name: str) -> None:
        """Removes ``name`` from every registry (an attribute changes kind)."""
        self.__dict__.pop(name, None)
        for registry in ("_parameters", "_buffers", "_modules"):
            self.__dict__[registry].pop(name, None)
        self._non_persistent_buffers_set.discard(name)

    def __getattr__(self, name: str) -> Any:
        # only called when normal lookup fails: parameters, buffers and modules live in registries
        d = self.__dict__
        for registry in ("_parameters", "_buffers", "_modules"):
            if registry in d and name in d[registry]:
                return d[registry][name]
        raise AttributeError(f"'{type(self).__name__}' object has no attribute '{name}'")

    def __delattr__(self, name: str) -> None:
        for registry in ("_parameters", "_buffers", "_modules"):
            if name in self.__dict__.get(registry, {}):
                del self.__dict__[registry][name]
                self._non_persistent_buffers_set.discard(name)
                return
        object.__delattr__(self, name)

    def __dir__(self) -> list[str]:
        return sorted(set(super().__dir__()) | set(self._parameters) | set(self._buffers)
                      | set(self._modules))

    def get_submodule(self, target: str) -> Module:
        module = self
        for part in target.split(".") if target else []:
            if part not in module._modules or module._modules[part] is None:
                raise AttributeError(f"{type(module).__name__} has no attribute `{part}`")
            module = module._modules[part]
        return module

    def set_submodule(self, target: str, module: Module, strict: bool = False) -> None:
        """Puts ``module`` at the dotted ``target`` (replacing a child there; with ``strict``
        the child must exist)."""
        if target == "":
            raise volta.InvalidArgumentError("Cannot set the submodule without a target name!")
        if not isinstance(module, Module):
            raise volta.InvalidArgumentError(
                f"`module` is not an nn.Module, found {type(module).__name__}")
        owner_path, _, name = target.rpartition(".")
        owner = self.get_submodule(owner_path)
        if name not in owner._modules:
            if strict:
                raise AttributeError(f"{type(owner).__name__} has no attribute `{name}`")
            if hasattr(owner, name):
                raise AttributeError(f"`{name}` is not an nn.Module")
        setattr(owner, name, module)

    def get_buffer(self, target: str) -> volta.Tensor:
        prefix, _, name = target.rpartition(".")
        module = self.get_submodule(prefix)
        if name not in module._buffers:
            raise AttributeError(f"{type(module).__name__} has no buffer `{name}`")
        return module._buffers[name]

    def get_parameter(self, target: str) -> Parameter:
        prefix, _, name = target.rpartition(".")
        module = self.get_submodule(prefix)
        if name not in module._parameters:
            raise AttributeError(f"{type(module).__name__} has no parameter `{name}`")
        return module._parameters[name]

    # -- traversal -------------------------------------------------------------------------------

    def _named_members(self, get_members: Callable[[Module], Any], prefix: str = "",
                       recurse: bool = True,
                       remove_duplicate: bool = True) -> Iterator[tuple[str, Any]]:
        seen: set[int] = set()
        modules = (self.named_modules(prefix=prefix, remove_duplicate=remove_duplicate)
                   if recurse else [(prefix, self)])
        for module_prefix, module in modules:
            for name, value in get_members(module):
                if value is None or (remove_duplicate and id(value) in seen):
                    continue
                if remove_duplicate:
                    seen.add(id(value))
                yield (module_prefix + "." if module_prefix else "") + name, value

    def named_parameters(self, prefix: str = "", recurse: bool = True,
                         remove_duplicate: bool = True) -> Iterator[tuple[str, Parameter]]:
        """``(dotted name, parameter)`` pairs; a shared parameter appears once."""
        yield from self._named_members(lambda m: m._parameters.items(), prefix, recurse,
                                       remove_duplicate)

    def parameters(self, recurse: bool = True) -> Iterator[Parameter]:
        for _, param in self.named_parameters(recurse=recurse):
            yield param

    def named_buffers(self, prefix: str = "", recurse: bool = True,
                      remove_duplicate: bool = True) -> Iterator[tuple[str, volta.Tensor]]:
        yield from self._named_members(lambda m: m._buffers.items(), prefix, recurse,
                                       remove_duplicate)

    def buffers(self, recurse: bool = True) -> Iterator[volta.Tensor]:
        for _, buf in self.named_buffers(recurse=recurse):
            yield buf

    def named_children(self) -> Iterator[tuple[str, Module]]:
        seen: set[int] = set()
        for name, module in self._modules.items():
            if module is not None and id(module) not in seen:
                seen.add(id(module))
                yield name, module

    def children(self) -> Iterator[Module]:
        for _, module in self.named_children():
            yield module

    def named_modules(self, memo: set | None = None, prefix: str = "",
                      remove_duplicate: bool = True) -> Iterator[tuple[str, Module]]:
        """This module and all below it, depth first, as ``(dotted name, module)``."""
        if memo is None:
            memo = set()
        if remove_duplicate:
            if id(self) in memo:
                return
            memo.add(id(self))
        yield prefix, self
        for name, module in self._modules.items():
            if module is None:
                continue
            sub_prefix = prefix + ("." if prefix else "") + name
            yield from module.named_modules(memo, sub_prefix, remove_duplicate)

    def modules(self) -> Iterator[Module]:
        for _, module in self.named_modules():
            yield module

    # -- state -----------------------------------------------------------------------------------

    def state_dict(self, *args: Any, destination: dict | None = None, prefix: str = "",
                   keep_vars: bool = False) -> OrderedDict:
        """Parameters and persistent buffers by dotted name (detached unless ``keep_vars``).
        Hooks of :meth:`register_state_dict_pre_hook` / ``_post_hook`` run around each
        module's part."""
        if destination is None:
            destination = OrderedDict()
        return self._collect_state(destination, prefix, keep_vars, run_hooks=True)

    def _collect_state(self, destination: dict, prefix: str, keep_vars: bool,
                       run_hooks: bool) -> dict:
        pre_hooks = self.__dict__.get("_state_dict_pre_hooks") if run_hooks else None
        for hook in list((pre_hooks or {}).values()):
            hook(self, prefix, keep_vars)
        for name, param in self._parameters.items():
            if param is not None:
                # an uninitialized (lazy) entry stays itself, so loading it keeps it lazy
                keep = keep_vars or is_lazy(param)
                destination[prefix + name] = param if keep else param.detach()
        for name, buf in self._buffers.items():
            if buf is not None and name not in self._non_persistent_buffers_set:
                keep = keep_vars or is_lazy(buf)
                destination[prefix + name] = buf if keep else buf.detach()
        if run_hooks and _overrides(self, "get_extra_state"):
            destination[prefix + _EXTRA_STATE_KEY] = self.get_extra_state()
        for name, module in self._modules.items():
            if module is not None:
                if run_hooks:  # through state_dict, which a subclass may override
                    module.state_dict(destination=destination, prefix=prefix + name + ".",
                                      keep_vars=keep_vars)
                else:
                    module._collect_state(destination, prefix + name + ".", keep_vars, False)
        post_hooks = self.__dict__.get("_state_dict_post_hooks") if run_hooks else None
        for hook in list((post_hooks or {}).values()):
            if hook(self, destination, prefix, {}) is not None:
                raise volta.InvalidOperationError("state_dict post-hook must return None")
        return destination

    def _state_entries(self) -> OrderedDict:
        """The live tensors ``state_dict`` exposes, by key (for loading; no hooks run)."""
        return self._collect_state(OrderedDict(), "", True, run_hooks=False)

    def load_state_dict(self, state_dict: dict, strict: bool = True,
                        assign: bool = False) -> _IncompatibleKeys:
        """Copies ``state_dict`` into this module's parameters and buffers.

        Everything is checked before anything is copied: with ``strict`` (the default) missing
        or unexpected keys raise, and a shape mismatch always raises; in both cases the module
        is left unchanged (but for a lazy layer's uninitialized entries, which take their shapes
        from the state first, as in PyTorch). Hooks registered with
        :meth:`register_load_state_dict_pre_hook` run before the checks, on a copy of the dict.

        With ``assign=True`` the given tensors replace the parameters and buffers instead of
        being copied into them (no copy, their dtype and device are kept); a parameter stays a
        :class:`Parameter` with the ``requires_grad`` of the one it replaces, as in PyTorch.

        Returns:
            ``(missing_keys, unexpected_keys)`` as a named tuple.
        """
        if not isinstance(state_dict, dict):
            raise volta.ArgumentError(
                f"Expected state_dict to be dict-like, got {type(state_dict)}.")
        errors: list[str] = []
        hook_missing: list[str] = []
        hook_unexpected: list[str] = []
        hooked = [(name, module) for name, module in self.named_modules()
                  if getattr(module, "_load_state_dict_pre_hooks", None)]
        if hooked:
            state_dict = OrderedDict(state_dict)  # hooks may edit it; the caller's dict is kept
            for name, module in hooked:
                for hook in list(module._load_state_dict_pre_hooks.values()):
                    hook(state_dict, name + "." if name else "", {}, strict, hook_missing,
                         hook_unexpected, errors)
        own = self._state_entries()
        # modules that keep extra (non-tensor) state take it through set_extra_state
        extras = {f"{name}.{_EXTRA_STATE_KEY}" if name else _EXTRA_STATE_KEY: module
                  for name, module in self.named_modules()
                  if _overrides(module, "set_extra_state")}
        with volta.no_grad():
            for key, target in own.items():  # a lazy module takes its shapes from the state
                value = state_dict.get(key)
                if is_lazy(target) and isinstance(value, volta.Tensor) and not is_lazy(value):
                    target.materialize(value.shape)
        missing = [k for k in [*own, *extras] if k not in state_dict] + hook_missing
        unexpected = [k for k in state_dict if k not in own and k not in extras]
        unexpected += hook_unexpected
        if strict:
            if unexpected:
                errors.append("Unexpected key(s) in state_dict: "
                              + ", ".join(f'"{k}"' for k in unexpected) + ". ")
            if missing:
                errors.append("Missing key(s) in state_dict: "
                              + ", ".join(f'"{k}"' for k in missing) + ". ")
        for key, target in own.items():
            if key not in state_dict:
                continue
            value = state_dict[key]
            if not isinstance(value, volta.Tensor):
                errors.append(f'While copying the parameter named "{key}", expected a volta '
                              f"Tensor, got {type(value).__name__}.")
            elif is_lazy(value) or is_lazy(target):
                if not (is_lazy(value) and is_lazy(target)):
                    errors.append(f"While copying the parameter named \"{key}\", an "
                                  "uninitialized parameter or buffer can only be loaded into "
                                  "an uninitialized one.")
            elif tuple(value.shape) != tuple(target.shape):
                errors.append(f"size mismatch for {key}: copying a param with shape "
                              f"{value.shape} from checkpoint, the shape in current model is "
                              f"{target.shape}.")
        if errors:
            raise volta.InvalidOperationError(
                f"Error(s) in loading state_dict for {type(self).__name__}:\n\t"
                + "\n\t".join(errors))
        with volta.no_grad():
            for key, target in own.items():
                if key not in state_dict or is_lazy(target):
                    continue
                if assign:
                    self._assign_entry(key, target, state_dict[key])
                else:
                    target.copy_(state_dict[key])
        for key, module in extras.items():
            if key in state_dict:
                module.set_extra_state(state_dict[key])
        return _IncompatibleKeys(missing, unexpected)

    def _assign_entry(self, key: str, target: volta.Tensor, value: volta.Tensor) -> None:
        """``load_state_dict(assign=True)`` for one key: ``value`` takes ``target``'s place."""
        owner_path, _, name = key.rpartition(".")
        owner = self.get_submodule(owner_path) if owner_path else self
        if isinstance(target, Parameter):
            if isinstance(value, Parameter):
                value.requires_grad_(target.requires_grad)
            else:
                value = Parameter(value, requires_grad=target.requires_grad)
            owner._parameters[name] = value
        else:
            owner._buffers[name] = value

    # -- modes, devices and dtypes ---------------------------------------------------------------

    def train(self, mode: bool = True) -> Module:
        if not isinstance(mode, bool):
            raise volta.InvalidArgumentError("training mode is expected to be boolean")
        self.training = mode
        for module in self.children():
            module.train(mode)
        return self

    def eval(self) -> Module:
        return self.train(False)

    def requires_grad_(self, requires_grad: bool = True) -> Module:
        for param in self.parameters():
            param.requires_grad_(requires_grad)
        return self

    def zero_grad(self, set_to_none: bool = True) -> None:
        for param in self.parameters():
            if param.grad is None:
                continue
            if set_to_none:
                param.grad = None
            else:
                with volta.no_grad():
                    param.grad.zero_()

    def apply(self, fn: Callable[[Module], Any]) -> Module:
        """Calls ``fn`` on every submodule (children first) and then on this module."""
        for module in self.children():
            module.apply(fn)
        fn(self)
        return self

    def _apply(self, fn: Callable[[volta.Tensor], volta.Tensor]) -> Module:
        # parameters keep their identity (optimizers hold them): only their data is swapped
        for module in self.modules():
            for param in module._parameters.values():
                if param is None:
                    continue
                param.data = fn(param.detach())
                if param.grad is not None:
                    param.grad = fn(param.grad)
            for name, buf in module._buffers.items():
                if is_lazy(buf):  # stays uninitialized, in the new dtype or device
                    buf.data = fn(buf.detach())
                elif buf is not None:
                    module._buffers[name] = fn(buf)
        return self

    def to(self, *args: Any, **kwargs: Any) -> Module:
        """Moves and/or casts parameters and buffers in place: ``to(device)``, ``to(dtype)``,
        ``to(device, dtype)`` or ``to(tensor)``. Only floating-point tensors change dtype."""
        device, dtype = _parse_module_to(args, kwargs)
        if dtype is not None and not dtype.is_floating_point:
            raise volta.ArgumentError(
                "nn.Module.to only accepts floating point dtypes, but got "
                f"desired dtype={dtype}")

        def convert(t: volta.Tensor) -> volta.Tensor:
            target = dtype if dtype is not None and t.is_floating_point() else None
            return t.to(device=device, dtype=target)

        return self._apply(convert)

    def to_empty(self, *, device: Any, recurse: bool = True) -> Module:
        """Moves the parameters and buffers to ``device`` without copying their values (they
        are uninitialized there), e.g. before loading a state_dict."""
        def move(tensor: volta.Tensor) -> volta.Tensor:
            return volta.empty_like(tensor, device=device)

        if recurse:
            return self._apply(move)
        for param in self._parameters.values():
            if param is not None:
                param.data = move(param.detach())
        for name, buf in self._buffers.items():
            if buf is not None:
                self._buffers[name] = move(buf)
        return self

    def cpu(self) -> Module:
        return self._apply(lambda t: t.cpu())

    def type(self, dst_type: Any) -> Module:
        return self._apply(lambda t: t.to(dst_type))

    def float(self) -> Module:
        return self._apply(lambda t: t.float() if t.is_floating_point() else t)

    def double(self) -> Module:
        return self._apply(lambda t: t.double() if t.is_floating_point() else t)

    def half(self) -> Module:
        return self._apply(lambda t: t.half() if t.is_floating_point() else t)

    def bfloat16(self) -> Module:
        return self._apply(lambda t: t.bfloat16() if t.is_floating_point() else t)

    # -- calling and hooks -----------------------------------------------------------------------

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        if not (self._forward_pre_hooks or self._forward_hooks or self._backward_hooks):
            return self.forward(*args, **kwargs)  # the common case, on every layer of every step
        for hook_id, hook in list(self._forward_pre_hooks.items()):
            if hook_id in self._forward_pre_hooks_with_kwargs:
                result = hook(self, args, kwargs)
                if result is not None:
                    if not (isinstance(result, tuple) and len(result) == 2):
                        raise volta.InvalidOperationError(
                            "forward pre-hook must return None or a tuple of "
                            f"(new_args, new_kwargs), but got {result}.")
                    args, kwargs = result
            else:
                result = hook(self, args)
                if result is not None:
                    args = result if isinstance(result, tuple) else (result,)
        backward_state = None
        if self._backward_hooks and volta.is_grad_enabled():
            backward_state = _BackwardHookState(self)
            args = backward_state.wrap_inputs(args)
        output = self.forward(*args, **kwargs)
        for hook_id, hook in list(self._forward_hooks.items()):
            if hook_id in self._forward_hooks_with_kwargs:
                result = hook(self, args, kwargs, output)
            else:
                result = hook(self, args, output)
            if result is not None:
                output = result
        if backward_state is not None:
            output = backward_state.wrap_outputs(output)
        return output

    def register_forward_pre_hook(self, hook: Callable[..., Any], *, prepend: bool = False,
                                  with_kwargs: bool = False) -> RemovableHandle:
        """``hook(module, args)`` (or ``hook(module, args, kwargs)`` with ``with_kwargs``) runs
        before ``forward``; a non-None result replaces the arguments."""
        handle = RemovableHandle(self._forward_pre_hooks)
        self._forward_pre_hooks[handle.id] = hook
        if with_kwargs:
            self._forward_pre_hooks_with_kwargs.add(handle.id)
        if prepend:
            self._forward_pre_hooks.move_to_end(handle.id, last=False)
        return handle

    def register_forward_hook(self, hook: Callable[..., Any], *, prepend: bool = False,
                              with_kwargs: bool = False) -> RemovableHandle:
        """``hook(module, args, output)`` (or ``hook(module, args, kwargs, output)``) runs after
        ``forward``; a non-None result replaces the output."""
        handle = RemovableHandle(self._forward_hooks)
        self._forward_hooks[handle.id] = hook
        if with_kwargs:
            self._forward_hooks_with_kwargs.add(handle.id)
        if prepend:
            self._forward_hooks.move_to_end(handle.id, last=False)
        return handle

    def get_extra_state(self) -> Any:
        """Extra (picklable, non-tensor) state to save in :meth:`state_dict` under the key
        ``_extra_state``; a module that has some overrides this and :meth:`set_extra_state`."""
        raise volta.InvalidOperationError(
            "Reached a code path in Module.get_extra_state() that should never be called.")

    def set_extra_state(self, state: Any) -> None:
        """Restores what :meth:`get_extra_state` returned, from :meth:`load_state_dict`."""
        raise volta.InvalidOperationError(
            "Reached a code path in Module.set_extra_state() that should never be called.")

    def register_state_dict_pre_hook(self, hook: Callable[..., Any]) -> RemovableHandle:
        """``hook(module, prefix, keep_vars)`` runs before :meth:`state_dict` collects this
        module's entries."""
        hooks = self.__dict__.setdefault("_state_dict_pre_hooks", _HookDict())
        handle = RemovableHandle(hooks)
        hooks[handle.id] = hook
        return handle

    def register_state_dict_post_hook(self, hook: Callable[..., Any]) -> RemovableHandle:
        """``hook(module, state_dict, prefix, local_metadata)`` runs once :meth:`state_dict`
        has collected this module's entries (its children's included); it may edit
        ``state_dict`` in place and must return ``None``."""
        hooks = self.__dict__.setdefault("_state_dict_post_hooks", _HookDict())
        handle = RemovableHandle(hooks)
        hooks[handle.id] = hook
        return handle

    def register_load_state_dict_pre_hook(self, hook: Callable[..., Any]) -> RemovableHandle:
        """``hook(module, state_dict, prefix, local_metadata, strict, missing_keys,
        unexpected_keys, error_msgs)`` runs when :meth:`load_state_dict` is called on this
        module or a parent, before anything is checked: it may rename or convert the entries
        under ``prefix`` (in a copy of the caller's dict) and append to the three lists."""
        return self._register_load_state_dict_pre_hook(hook, with_module=True)

    def _register_load_state_dict_pre_hook(self, hook: Callable[..., Any],
                                           with_module: bool = False) -> RemovableHandle:
        """PyTorch's private form: ``hook(state_dict, prefix, local_metadata, strict,
        missing_keys, unexpected_keys, error_msgs)``, or with the module first."""
        hooks = self.__dict__.setdefault("_load_state_dict_pre_hooks", _HookDict())
        handle = RemovableHandle(hooks)
        hooks[handle.id] = functools.partial(hook, self) if with_module else hook
        return handle

    def register_full_backward_hook(self, hook: Callable[..., Any], prepend: bool = False
                                    ) -> RemovableHandle:
        """``hook(module, grad_input, grad_output)`` runs once the gradients with respect to the
        module's tensor inputs are computed; a non-None result replaces ``grad_input``."""
        handle = RemovableHandle(self._backward_hooks)
        self._backward_hooks[handle.id] = hook
        if prepend:
            self._backward_hooks.move_to_end(handle.id, last=False)
        return handle

    def register_full_backward_pre_hook(self, hook: Callable[..., Any], prepend: bool = False
                                        ) -> RemovableHandle:
        """``hook(module, grad_output)`` runs once the gradients with respect to the module's
        outputs are computed, before the full backward hooks; a non-None result replaces
        ``grad_output`` from there on."""
        handle = RemovableHandle(self._backward_hooks)
        self._backward_hooks[handle.id] = _BackwardPreHook(hook)
        if prepend:
            self._backward_hooks.move_to_end(handle.id, last=False)
        return handle

    # -- printing --------------------------------------------------------------------------------

    def extra_repr(self) -> str:
        """The text inside this module's parentheses in ``repr``; layers override it."""
        return ""

    def _get_name(self) -> str:
        return type(self).__name__

    def __repr__(self) -> str:
        extra = self.extra_repr()
        extra_lines = extra.split("\n") if extra else []
        child_lines = [f"({name}): " + _addindent(repr(module), 2)
                       for name, module in self._modules.items()]
        lines = extra_lines + child_lines
        text = self._get_name() + "("
        if lines:
            if len(extra_lines) == 1 and not child_lines:
                text += extra_lines[0]
            else:
                text += "\n  " + "\n  ".join(lines) + "\n"
        return text + ")"

    def __getstate__(self) -> dict:
        return self.__dict__.copy()

    def __setstate__(self, state: dict) -> None:
        self.__dict__.update(state)


def _parse_module_to(args: tuple, kwargs: dict) -> tuple[Any, Any]:
    device = kwargs.pop("device", None)
    dtype = kwargs.pop("dtype", None)
    kwargs.pop("non_blocking", None)
    for arg in args:
        if isinstance(arg, volta.Tensor):
            device, dtype = arg.device, arg.dtype
        elif isinstance(arg, volta.dtype):
            dtype = arg
        elif isinstance(arg, (str, volta.device)):
            device = arg
        elif isinstance(arg, bool):
            continue
        else:
            raise volta.ArgumentError(f"to() received an invalid combination of arguments: {arg!r}")
    if kwargs:
        raise volta.ArgumentError(f"to() got unexpected keyword arguments {sorted(kwargs)}")
    return device, dtype


class _BackwardPreHook:
    """A full backward pre-hook, kept among the backward hooks so that the call path checks one
    registry: it runs on ``grad_output`` before the full backward hooks see it."""

    def __init__(self, hook: Callable[..., Any]) -> None:
        self.hook = hook


class _BackwardHookState:
    """Wires a module's full backward hooks around one call: an identity node on the outputs
    records ``grad_output``; one on the inputs sees ``grad_input`` and runs the hooks."""

    def __init__(self, module: Module) -> None:
        self.module = module
        self.grad_output: tuple | None = None
        self.n_inputs = 0
        self.inputs_wrapped = False

    def _full_hooks(self) -> list:
        return [h for h in self.module._backward_hooks.values()
                if not isinstance(h, _BackwardPreHook)]

    def _run_pre_hooks(self, grad_output: tuple) -> tuple:
        for entry in list(self.module._backward_hooks.values()):
            if isinstance(entry, _BackwardPreHook):
                result = entry.hook(self.module, grad_output)
                if result is not None:
                    grad_output = (tuple(result) if isinstance(result, (tuple, list))
                                   else (result,))
        return grad_output

    def _run_hooks(self, grad_input: tuple) -> tuple:
        for hook in self._full_hooks():
            result = hook(self.module, grad_input, self.grad_output)
            if result is not None:
                grad_input = tuple(result) if isinstance(result, (tuple, list)) else (result,)
        return grad_input

    def wrap_inputs(self, args: tuple) -> tuple:
        positions = [i for i, a in enumerate(args)
                     if isinstance(a, volta.Tensor) and a.requires_grad]
        if not positions or not self._full_hooks():  # backward pre-hooks need the outputs only
            return args
        self.inputs_wrapped = True
        self.n_inputs = len(positions)
        state = self

        class _InputHook(volta.autograd.Function):
            @staticmethod
            def forward(ctx: Any, *tensors: Any) -> Any:
                return tensors

            @staticmethod
            def backward(ctx: Any, *grads: Any) -> Any:
                return state._run_hooks(tuple(grads))

        wrapped = _InputHook.apply(*(args[i] for i in positions))
        new_args = list(args)
        for i, t in zip(positions, wrapped):
            new_args[i] = t
        return tuple(new_args)

    def wrap_outputs(self, output: Any) -> Any:
        outputs = output if isinstance(output, tuple) else (output,)
        positions = [i for i, o in enumerate(outputs)
                     if isinstance(o, volta.Tensor) and o.requires_grad]
        if not positions:
            return output
        state = self

        class _OutputHook(volta.autograd.Function):
            @staticmethod
            def forward(ctx: Any, *tensors: Any) -> Any:
                return tensors

            @staticmethod
            def backward(ctx: Any, *grads: Any) -> Any:
                grads = state._run_pre_hooks(tuple(grads))
                state.grad_output = grads
                if not state.inputs_wrapped:
                    # no input needs a gradient: PyTorch still calls the hooks, with None
                    state._run_hooks((None,))
                return grads

        wrapped = _OutputHook.apply(*(outputs[i] for i in positions))
        new_outputs = list(outputs)
        for i, t in zip(positions, wrapped):
            new_outputs[i] = t
        return tuple(new_outputs) if isinstance(output, tuple) else new_outputs[0]
