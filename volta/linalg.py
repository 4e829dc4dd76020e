"""``volta.linalg``: PyTorch's linear-algebra namespace (functions generated from ops.yaml).

Ops declared as ``linalg_<name>`` (PyTorch's ``native_functions.yaml`` names) appear here as
``<name>``, as ``torch.linalg_det`` is ``torch.linalg.det``."""

from __future__ import annotations

from volta._generated import functions as _F
from volta.errors import LinAlgError

_PREFIX = "linalg_"
__all__ = [name.removeprefix(_PREFIX) for name in _F.NAMESPACES.get("linalg", ())]
globals().update({name.removeprefix(_PREFIX): getattr(_F, name)
                  for name in _F.NAMESPACES.get("linalg", ())})


def norm(input, ord=None, dim=None, keepdim=False, *, dtype=None):
    """Vector norm over ``dim`` (a matrix Frobenius norm when ``ord`` is None or "fro")."""
    if ord in (None, "fro"):
        return _F.vector_norm(input, 2, dim, keepdim, dtype=dtype)
    return _F.vector_norm(input, ord, dim, keepdim, dtype=dtype)


__all__ += ["norm", "LinAlgError"]
