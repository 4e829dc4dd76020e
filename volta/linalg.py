"""``volta.linalg``: PyTorch's linear-algebra namespace (functions generated from ops.yaml)."""

from __future__ import annotations

from volta._generated import functions as _F

__all__ = list(_F.NAMESPACES.get("linalg", ()))
globals().update({name: getattr(_F, name) for name in __all__})


def norm(input, ord=None, dim=None, keepdim=False, *, dtype=None):
    """Vector norm over ``dim`` (a matrix Frobenius norm when ``ord`` is None or "fro")."""
    if ord in (None, "fro"):
        return _F.vector_norm(input, 2, dim, keepdim, dtype=dtype)
    return _F.vector_norm(input, ord, dim, keepdim, dtype=dtype)


__all__.append("norm")
