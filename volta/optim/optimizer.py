"""The ``Optimizer`` base class: param groups, per-parameter state, PyTorch's state_dict format."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

import volta
from volta.errors import ArgumentError

ParamsT = Iterable[volta.Tensor] | Iterable[dict[str, Any]]


# how PyTorch's messages name a hyperparameter ("Invalid learning rate: -1", "Invalid momentum
# value: -1"); others are "<name> value"
_HYPERPARAMETER_NAMES = {"lr": "learning rate", "eps": "epsilon value"}


def check_non_negative(**hyperparameters: float) -> None:
    """Reject a negative hyperparameter with PyTorch's message, checked in the order given."""
    for name, value in hyperparameters.items():
        if value < 0:
            label = _HYPERPARAMETER_NAMES.get(name, f"{name} value")
            raise ArgumentError(f"Invalid {label}: {value}")


def check_betas(betas: tuple[float, float]) -> None:
    """Each beta must lie in [0, 1), with PyTorch's message."""
    for i, beta in enumerate(betas):
        if not 0.0 <= beta < 1.0:
            raise ArgumentError(f"Invalid beta parameter at index {i}: {beta}")


def implementation_options(foreach: bool | None, capturable: bool,
                           differentiable: bool) -> dict[str, Any]:
    """PyTorch's implementation switches, kept in the param groups with PyTorch's defaults so
    that state dicts match. ``foreach`` only picks PyTorch's loop (volta has one); a capturable
    or differentiable step is something volta's optimizers do not do, and say so."""
    if capturable:
        raise ArgumentError("capturable=True is not supported: volta has no CUDA graphs to "
                            "capture an optimizer step into")
    if differentiable:
        raise ArgumentError("differentiable=True is not supported: volta's optimizer steps run "
                            "under no_grad")
    return dict(foreach=foreach, capturable=capturable, differentiable=differentiable)


def host_scalar(value: float) -> volta.Tensor:
    """A float32 0-d state tensor (step counts and the like), as PyTorch keeps them."""
    return volta.full((), value, dtype=volta.float32)


class _Required:
    def __repr__(self) -> str:
        return "<required parameter>"


required = _Required()


class Optimizer:
    """Holds ``param_groups`` (dicts with a ``"params"`` list and hyper-parameters filled from
    ``defaults``) and ``state`` (a dict per parameter). Subclasses implement ``step``."""

    # state entries that are host scalars kept in their own dtype, as PyTorch keeps them: they
    # stay where they are when the parameters move, and a loaded state dict keeps their dtype
    _host_scalars: frozenset[str] = frozenset({"step"})

    def __init__(self, params: ParamsT, defaults: dict[str, Any]) -> None:
        self.defaults = defaults
        self.state: dict[volta.Tensor, dict[str, Any]] = {}
        self.param_groups: list[dict[str, Any]] = []
        if isinstance(params, volta.Tensor):
            raise ArgumentError("params argument given to the optimizer should be an iterable of "
                                "Tensors or dicts, but got a Tensor")
        groups = list(params)
        if len(groups) == 0:
            raise ArgumentError("optimizer got an empty parameter list")
        if not isinstance(groups[0], dict):
            groups = [{"params": groups}]
        for group in groups:
            self.add_param_group(group)

    def __repr__(self) -> str:
        lines = [f"{type(self).__name__} ("]
        for i, group in enumerate(self.param_groups):
            lines.append(f"Parameter Group {i}")
            lines.extend(f"    {k}: {group[k]}" for k in sorted(group) if k != "params")
        lines.append(")")
        return "\n".join(lines)

    def add_param_group(self, param_group: dict[str, Any]) -> None:
        """Add a group of parameters with its own hyper-parameters (others from ``defaults``)."""
        if not isinstance(param_group, dict):
            raise ArgumentError(f"param_group must be a dict, but got {type(param_group).__name__}")
        group = dict(param_group)
        params = group["params"]
        group["params"] = [params] if isinstance(params, volta.Tensor) else list(params)
        for p in group["params"]:
            if not isinstance(p, volta.Tensor):
                raise ArgumentError(f"optimizer can only optimize Tensors, but one of the params "
                                    f"is {type(p).__name__}")
            if not p.is_leaf:
                raise ArgumentError("can't optimize a non-leaf Tensor")
        for name, default in self.defaults.items():
            if default is required and name not in group:
                raise ArgumentError(f"parameter group didn't specify a value of required "
                                    f"optimization parameter {name}")
            group.setdefault(name, default)
        seen = {id(p) for g in self.param_groups for p in g["params"]}
        if any(id(p) in seen for p in group["params"]):
            raise ArgumentError("some parameters appear in more than one parameter group")
        self.param_groups.append(group)

    def zero_grad(self, set_to_none: bool = True) -> None:
        """Reset the gradients of all optimized tensors (to None, or to zeros in place)."""
        for group in self.param_groups:
            for p in group["params"]:
                if p.grad is None:
                    continue
                if set_to_none:
                    p.grad = None
                else:
                    with volta.no_grad():
                        if p.grad.grad_fn is not None:  # a grad built with create_graph=True
                            p.grad = p.grad.detach()
                        p.grad.zero_()  # in place: the same tensor keeps serving as the grad

    def step(self, closure: Callable[[], Any] | None = None) -> Any:
        """One optimization step: ``closure`` (if given) re-evaluates the loss, then every
        parameter with a gradient is updated by :meth:`_update`, group by group."""
        loss = self._closure_loss(closure)
        with volta.no_grad():
            for group in self.param_groups:
                for p in group["params"]:
                    if p.grad is not None:
                        self._update(group, p, self._param_state(p))
        return loss

    def _update(self, group: dict[str, Any], p: volta.Tensor, state: dict[str, Any]) -> None:
        """Update one parameter in place from its gradient (a subclass's algorithm, usually
        one fused op of ops.yaml); ``state`` is the parameter's optimizer state."""
        raise NotImplementedError

    def _closure_loss(self, closure: Callable[[], Any] | None) -> Any:
        if closure is None:
            return None
        with volta.enable_grad():
            return closure()

    def _param_state(self, param: volta.Tensor) -> dict[str, Any]:
        """``param``'s state, its tensors moved to ``param``'s device first: after
        ``model.to(device)`` the state follows the parameters (the step counter stays where
        it is, like PyTorch's, a host scalar)."""
        state = self.state.setdefault(param, {})
        for name, value in state.items():
            if (isinstance(value, volta.Tensor) and name not in self._host_scalars
                    and value.device != param.device):
                state[name] = value.to(param.device)
        return state

    def _next_step(self, state: dict[str, Any]) -> int:
        """Advance the parameter's step counter (a float32 scalar tensor, as PyTorch keeps it)."""
        count = state.get("step")
        if count is None:
            state["step"] = count = host_scalar(0.0)
        step = int(count.item()) + 1
        count.fill_(step)
        return step

    # -- state_dict ----------------------------------------------------------------------------

    def state_dict(self) -> dict[str, Any]:
        """``{"state": {index: {...}}, "param_groups": [{..., "params": [indices]}]}`` as PyTorch
        writes it: parameters are numbered in group order; tensors in the state are references."""
        index: dict[int, int] = {}
        groups = []
        for group in self.param_groups:
            packed = {k: v for k, v in group.items() if k != "params"}
            for p in group["params"]:
                index.setdefault(id(p), len(index))
            packed["params"] = [index[id(p)] for p in group["params"]]
            groups.append(packed)
        state = {index[id(p)]: dict(s) for p, s in self.state.items() if id(p) in index}
        return {"state": state, "param_groups": groups}

    def load_state_dict(self, state_dict: dict[str, Any]) -> None:
        """Load a ``state_dict()`` (hyper-parameters and state, copied onto each parameter's
        device and floating dtype; ``step`` counters keep their own dtype)."""
        saved_groups = state_dict["param_groups"]
        if len(saved_groups) != len(self.param_groups):
            raise ArgumentError("loaded state dict has a different number of parameter groups")
        for ours, theirs in zip(self.param_groups, saved_groups, strict=True):
            if len(ours["params"]) != len(theirs["params"]):
                raise ArgumentError("loaded state dict contains a parameter group that doesn't "
                                    "match the size of optimizer's group")
        id_map = {saved: p for ours, theirs in zip(self.param_groups, saved_groups, strict=True)
                  for saved, p in zip(theirs["params"], ours["params"], strict=True)}
        state: dict[volta.Tensor, dict[str, Any]] = {}
        for key, value in state_dict["state"].items():
            param = id_map.get(int(key))
            if param is None:
                continue
            state[param] = {name: self._cast_state(param, name, v) for name, v in value.items()}
        self.state = state
        for ours, theirs in zip(self.param_groups, saved_groups, strict=True):
            for k, v in theirs.items():
                if k != "params":
                    ours[k] = v

    def _cast_state(self, param: volta.Tensor, name: str, value: Any) -> Any:
        if not isinstance(value, volta.Tensor):
            return value
        if name in self._host_scalars:
            return value.clone()
        dtype = param.dtype if value.dtype.is_floating_point else value.dtype
        return value.to(device=param.device, dtype=dtype).clone()
