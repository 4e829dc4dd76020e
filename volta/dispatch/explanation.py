"""``volta.dispatch.explain(op, *args)``: which key set, which kernels, and why.

A call resolves its key set to the highest key that can run it. A Tracing or Autograd kernel
(or a key's fallback) does its part and redispatches to the keys below itself, so one call is a
chain of steps, ending at a backend kernel, a composite (which runs as other ops, each with a
chain of its own) or the CPU fallback. ``explain`` walks that chain without running anything.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from volta.dispatch import binding as _binding
from volta.dispatch import keys as K
from volta.dispatch.dispatcher import DISPATCHER, OperatorHandle, _fn_name
from volta.dispatch.local_state import LOCAL
from volta.errors import ArgumentError


@dataclass(frozen=True)
class Step:
    """One key of the chain: what runs there and who registered it."""

    key: str
    source: str  # "kernel", "composite", "fallback", "cpu-fallback"
    kernel: str
    provenance: str
    skipped: tuple[str, ...]  # keys passed over on the way here (fallthroughs)

    def __str__(self) -> str:
        where = f" [{self.provenance}]" if self.provenance else ""
        return f"{self.key:<10} {self.source:<12} {self.kernel}{where}"


@dataclass
class Explanation:
    op: str
    tensor_keyset: str
    included: str
    excluded: str
    keyset: str
    key: str
    source: str
    kernel: str
    provenance: str
    skipped: list[str]
    cached: bool
    schema: str = ""
    chain: list[Step] = field(default_factory=list)

    def __str__(self) -> str:
        lines = [f"op:        {self.op}"]
        if self.schema:
            lines.append(f"schema:    {self.schema}")
        lines += [f"tensors:   {self.tensor_keyset}",
                  f"included:  {self.included}   excluded: {self.excluded}",
                  f"key set:   {self.keyset}",
                  f"runs:      {self.source} at {self.key}: {self.kernel} [{self.provenance}]"]
        if self.skipped:
            lines.append("skipped:   " + "; ".join(self.skipped))
        lines.append(f"cached:    {self.cached}")
        lines.append("chain:")
        for number, step in enumerate(self.chain, 1):
            lines += [f"  {number}. skipped {skip}" for skip in step.skipped]
            lines.append(f"  {number}. {step}")
            if step.source == "composite":
                lines.append("     (a composite runs as other ops; explain those for their chains)")
            elif step.source in ("kernel", "fallback") and step.key not in _backend_key_names():
                lines.append("     redispatches below " + step.key)
        return "\n".join(lines)


def _backend_key_names() -> set[str]:  # read at print time: backends come and go
    return {key.name for key in K.KEYS.all() if key.is_backend}


def _chain(handle: OperatorHandle, keyset: int) -> list[Step]:
    """The steps a call with ``keyset`` takes: each key that runs, down to the backend."""
    steps: list[Step] = []
    while keyset:
        res = handle.resolve(keyset)
        key = res.key
        steps.append(Step(key.name if key else "-", res.source, _fn_name(res.entry.fn),
                          res.entry.provenance, tuple(res.skipped)))
        # kernels and fallbacks of functionality keys (Tracing, Autograd) redispatch below
        # themselves; backend kernels, composites and the CPU fallback end the chain
        if key is None or key.is_backend or res.source not in ("kernel", "fallback"):
            break
        keyset &= ~key.mask_and_above
    return steps

def _resolve_op(op: Any, args: tuple, kwargs: dict) -> tuple[OperatorHandle, tuple]:
    if isinstance(op, OperatorHandle):
        handles: tuple = (op,)
    elif isinstance(op, str):
        handles = tuple(h for n, h in DISPATCHER.ops.items()
                        if n == op or n.split(".")[0] == op)
    else:
        name = getattr(op, "__name__", str(op))
        handles = tuple(h for n, h in DISPATCHER.ops.items()
                        if n == name or n.split(".")[0] == name)
    for h in handles:
        bound = _binding.bind(h, args, kwargs)
        if bound is not None:
            return h, bound
    raise ArgumentError(f"explain: no overload of {op!r} accepts these arguments")


def explain(op: Any, *args: Any, **kwargs: Any) -> Explanation:
    """How a call of ``op`` with these arguments would dispatch, without running it (see
    :func:`volta.dispatch.explain`)."""
    handle, bound = _resolve_op(op, args, kwargs)
    tensors = handle.keyset_of(bound)
    keyset = (tensors | LOCAL.included) & ~LOCAL.excluded
    res = handle.resolve(keyset)
    return Explanation(
        op=handle.name, tensor_keyset=K.describe(tensors), included=K.describe(LOCAL.included),
        excluded=K.describe(LOCAL.excluded), keyset=K.describe(keyset),
        key=res.key.name if res.key else "-", source=res.source, kernel=_fn_name(res.entry.fn),
        provenance=res.entry.provenance, skipped=res.skipped, cached=keyset in handle._cache,
        schema=str(handle.schema), chain=_chain(handle, keyset))
