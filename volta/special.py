"""``volta.special``: PyTorch's special-functions namespace (generated from ops.yaml)."""

from __future__ import annotations

from volta._generated import functions as _F

__all__ = list(_F.NAMESPACES.get("special", ()))
globals().update({name: getattr(_F, name) for name in __all__})
# PyTorch's scipy-style names for functions volta declares under their torch.* names
expit = _F.sigmoid
gammaln = _F.lgamma
psi = _F.digamma
gammainc = _F.igamma
gammaincc = _F.igammac
multigammaln = _F.mvlgamma
# and the torch.* functions PyTorch repeats in its special namespace
exp2 = _F.exp2
expm1 = _F.expm1
log1p = _F.log1p
logsumexp = _F.logsumexp
round = _F.round  # PyTorch's name (shadows the builtin in this namespace only)
__all__ += ["expit", "gammaln", "psi", "gammainc", "gammaincc", "multigammaln", "exp2", "expm1",
            "log1p", "logsumexp", "round"]
