"""``volta.dispatch.explain(op, *args)``: which key set, which kernel, and why."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from volta.dispatch import binding as _binding
from volta.dispatch import keys as K
from volta.dispatch.dispatcher import DISPATCHER, OperatorHandle, _fn_name
from volta.dispatch.local_state import LOCAL
from volta.errors import ArgumentError


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

    def __str__(self) -> str:
        lines = [f"op:        {self.op}",
                 f"tensors:   {self.tensor_keyset}",
                 f"included:  {self.included}   excluded: {self.excluded}",
                 f"key set:   {self.keyset}",
                 f"runs:      {self.source} at {self.key}: {self.kernel} [{self.provenance}]"]
        if self.skipped:
            lines.append("skipped:   " + "; ".join(self.skipped))
        lines.append(f"cached:    {self.cached}")
        return "\n".join(lines)


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
    handle, bound = _resolve_op(op, args, kwargs)
    tensors = handle.keyset_of(bound)
    keyset = (tensors | LOCAL.included) & ~LOCAL.excluded
    res = handle.resolve(keyset)
    return Explanation(
        op=handle.name, tensor_keyset=K.describe(tensors), included=K.describe(LOCAL.included),
        excluded=K.describe(LOCAL.excluded), keyset=K.describe(keyset),
        key=res.key.name if res.key else "-", source=res.source, kernel=_fn_name(res.entry.fn),
        provenance=res.entry.provenance, skipped=res.skipped, cached=keyset in handle._cache)
