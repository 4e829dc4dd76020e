"""Ready-made parametrizations, as ``torch.nn.utils.parametrizations``: ``orthogonal``,
``weight_norm`` and ``spectral_norm``, each registered through
:func:`volta.nn.utils.parametrize.register_parametrization` (state_dict keys
``parametrizations.<name>.original``... as in PyTorch)."""

from __future__ import annotations

from enum import Enum, auto

import volta
import volta.nn.functional as F
from volta.errors import IndexOutOfRangeError, InvalidArgumentError, InvalidOperationError
from volta.nn.modules.conv import ConvTranspose1d, ConvTranspose2d, ConvTranspose3d
from volta.nn.modules.module import Module
from volta.nn.utils import parametrize
from volta.nn.utils.weight_norm import _weight_norm, norm_except_dim

__all__ = ["orthogonal", "spectral_norm", "weight_norm"]


def _is_orthogonal(q: volta.Tensor) -> bool:
    n, k = q.shape[-2], q.shape[-1]
    identity = volta.eye(k, dtype=q.dtype, device=q.device)
    return volta.allclose(q.mH @ q, identity, atol=10.0 * n * volta.finfo(q.dtype).eps)


def _make_orthogonal(a: volta.Tensor) -> volta.Tensor:
    """The Q of ``a``'s QR decomposition with the signs that make R's diagonal positive."""
    reflectors, tau = volta.geqrf(a)
    q = volta.linalg.householder_product(reflectors, tau)
    return q * reflectors.diagonal(dim1=-2, dim2=-1).sgn().unsqueeze(-2)


class _NoRightInverseError(InvalidOperationError, NotImplementedError):
    """A parametrization without a right inverse for this configuration: a NotImplementedError,
    PyTorch's signal to registration that the original tensor is kept as it is."""


class _OrthMaps(Enum):
    matrix_exp = auto()
    cayley = auto()
    householder = auto()


class _Orthogonal(Module):
    """Maps an unconstrained matrix (or batch) to an orthogonal one (orthonormal columns or
    rows when not square) by ``orthogonal_map``; with ``use_trivialization`` the result is
    ``base @ map(X)``, ``base`` a buffer set by ``right_inverse``."""

    def __init__(self, weight: volta.Tensor, orthogonal_map: _OrthMaps, *,
                 use_trivialization: bool = True) -> None:
        super().__init__()
        if weight.is_complex() and orthogonal_map == _OrthMaps.householder:
            raise InvalidArgumentError(
                "The householder parametrization does not support complex tensors.")
        self.shape = weight.shape
        self.orthogonal_map = orthogonal_map
        if use_trivialization:
            self.register_buffer("base", None)

    def forward(self, x: volta.Tensor) -> volta.Tensor:
        n, k = x.shape[-2], x.shape[-1]
        transposed = n < k
        if transposed:
            x = x.mT
            n, k = k, n
        if self.orthogonal_map in (_OrthMaps.matrix_exp, _OrthMaps.cayley):
            x = x.tril()
            if n != k:  # a square skew-symmetric matrix whose first k columns are kept
                x = volta.cat([x, x.new_zeros(n, n - k).expand(*x.shape[:-2], -1, -1)], dim=-1)
            skew = x - x.mH
            if self.orthogonal_map == _OrthMaps.matrix_exp:
                q = volta.linalg.matrix_exp(skew)
            else:
                identity = volta.eye(n, dtype=skew.dtype, device=skew.device)
                q = volta.linalg.solve(identity - 0.5 * skew, identity + 0.5 * skew)
            if n != k:
                q = q[..., :k]
        else:
            reflectors = x.tril(diagonal=-1)
            tau = 2.0 / (1.0 + (reflectors * reflectors).sum(dim=-2))
            q = volta.linalg.householder_product(reflectors, tau)
            # the diagonal's integer part picks the sign of each column
            q = q * x.diagonal(dim1=-2, dim2=-1).int().unsqueeze(-2)
        if "base" in self._buffers:
            q = self.base @ q
        return q.mT if transposed else q

    def right_inverse(self, q: volta.Tensor) -> volta.Tensor:
        with volta.no_grad():
            if tuple(q.shape) != tuple(self.shape):
                raise InvalidArgumentError(
                    f"Expected a matrix or batch of matrices of shape {self.shape}. Got a "
                    f"tensor of shape {q.shape}.")
            q_init = q
            n, k = q.shape[-2], q.shape[-1]
            transpose = n < k
            if transpose:
                q = q.mT
                n, k = k, n
            if "base" not in self._buffers:
                if self.orthogonal_map in (_OrthMaps.cayley, _OrthMaps.matrix_exp):
                    raise _NoRightInverseError(
                        "It is not possible to assign to the matrix exponential or the Cayley "
                        "parametrizations when use_trivialization=False.")
                reflectors, tau = volta.geqrf(q)
                # the diagonal's signs, flipped where tau is 0 (no reflection), encode Q's signs
                diagonal = reflectors.diagonal(dim1=-2, dim2=-1)
                diagonal.copy_(diagonal.sign() * volta.where(tau == 0.0, -1.0, 1.0).to(q.dtype))
                return reflectors.mT if transpose else reflectors
            if n == k:
                q = q.clone() if _is_orthogonal(q) else _make_orthogonal(q)
            else:  # complete to a square orthogonal matrix with random columns
                extra = volta.randn(*q.shape[:-2], n, n - k, dtype=q.dtype, device=q.device)
                q = _make_orthogonal(volta.cat([q, extra], dim=-1))
            self.base = q
            # map(-I) = I for every map, so the value starts as base's first columns
            neg_identity = volta.zeros_like(q_init)
            neg_identity.diagonal(dim1=-2, dim2=-1).fill_(-1.0)
            return neg_identity


def orthogonal(module: Module, name: str = "weight", orthogonal_map: str | None = None, *,
               use_trivialization: bool = True) -> Module:
    """Constrains the matrix (or batch) ``module.<name>`` to be orthogonal (or have
    orthonormal columns/rows when not square).

    Args:
        module: the module.
        name: the parameter or buffer's name.
        orthogonal_map: ``"matrix_exp"``, ``"cayley"`` or ``"householder"``; by default the
            first for square or complex matrices, the last otherwise.
        use_trivialization: keep a ``base`` buffer so that ``module.<name>`` starts at its
            current value (made orthogonal) and optimization moves around it.
    """
    weight = getattr(module, name, None)
    if not isinstance(weight, volta.Tensor):
        raise InvalidArgumentError(
            f"Module '{module}' has no parameter or buffer with name '{name}'")
    if weight.ndim < 2:
        raise InvalidArgumentError("Expected a matrix or batch of matrices. Got a tensor of "
                                   f"{weight.ndim} dimensions.")
    if orthogonal_map is None:
        square = weight.shape[-2] == weight.shape[-1]
        orthogonal_map = "matrix_exp" if square or weight.is_complex() else "householder"
    orth_enum = getattr(_OrthMaps, orthogonal_map, None)
    if orth_enum is None:
        raise InvalidArgumentError('orthogonal_map has to be one of "matrix_exp", "cayley", '
                                   f'"householder". Got: {orthogonal_map}')
    orth = _Orthogonal(weight, orth_enum, use_trivialization=use_trivialization)
    parametrize.register_parametrization(module, name, orth, unsafe=True)
    return module


class _WeightNorm(Module):
    """``weight = g * v / ||v||`` from ``original0 = g`` and ``original1 = v``."""

    def __init__(self, dim: int | None = 0) -> None:
        super().__init__()
        self.dim = -1 if dim is None else dim

    def forward(self, weight_g: volta.Tensor, weight_v: volta.Tensor) -> volta.Tensor:
        return _weight_norm(weight_v, weight_g, self.dim)

    def right_inverse(self, weight: volta.Tensor) -> tuple[volta.Tensor, volta.Tensor]:
        return norm_except_dim(weight, 2, self.dim), weight


def weight_norm(module: Module, name: str = "weight", dim: int | None = 0) -> Module:
    """Reparametrizes ``module.<name>`` as magnitude times direction, ``original0 * original1
    / ||original1||``, the norm over every dimension but ``dim`` (``None``: the whole
    tensor). ``load_state_dict`` also takes the hook-based API's ``<name>_g``/``<name>_v``
    keys."""
    parametrize.register_parametrization(module, name, _WeightNorm(dim), unsafe=True)

    def load_old_keys(state_dict: dict, prefix: str, *args: object) -> None:
        # checkpoints of the hook-based weight_norm name the two tensors <name>_g/_v
        old_g, old_v = f"{prefix}{name}_g", f"{prefix}{name}_v"
        if old_g in state_dict and old_v in state_dict:
            state_dict[f"{prefix}parametrizations.{name}.original0"] = state_dict.pop(old_g)
            state_dict[f"{prefix}parametrizations.{name}.original1"] = state_dict.pop(old_v)

    module._register_load_state_dict_pre_hook(load_old_keys)
    return module


class _SpectralNorm(Module):
    """``weight / sigma``, ``sigma`` its largest singular value (as a matrix with ``dim``
    first) estimated by power iteration on the buffers ``_u``, ``_v`` (15 steps at
    construction, ``n_power_iterations`` per forward while training). A vector is just
    normalized."""

    def __init__(self, weight: volta.Tensor, n_power_iterations: int = 1, dim: int = 0,
                 eps: float = 1e-12) -> None:
        super().__init__()
        ndim = weight.ndim
        if dim >= ndim or dim < -ndim:
            raise IndexOutOfRangeError("Dimension out of range (expected to be in range of "
                                       f"[-{ndim}, {ndim - 1}] but got {dim})")
        if n_power_iterations <= 0:
            raise InvalidArgumentError("Expected n_power_iterations to be positive, but got "
                                       f"n_power_iterations={n_power_iterations}")
        self.dim = dim if dim >= 0 else dim + ndim
        self.eps = eps
        if ndim > 1:
            self.n_power_iterations = n_power_iterations
            weight_mat = self._reshape_weight_to_matrix(weight)
            height, width = weight_mat.shape
            with volta.no_grad():
                u = weight_mat.new_empty(height).normal_(0, 1)
                v = weight_mat.new_empty(width).normal_(0, 1)
                self.register_buffer("_u", F.normalize(u, dim=0, eps=self.eps))
                self.register_buffer("_v", F.normalize(v, dim=0, eps=self.eps))
            self._power_method(weight_mat, 15)

    def _reshape_weight_to_matrix(self, weight: volta.Tensor) -> volta.Tensor:
        if self.dim != 0:
            weight = weight.permute(self.dim, *(d for d in range(weight.ndim) if d != self.dim))
        return weight.flatten(1)

    def _power_method(self, weight_mat: volta.Tensor, n_power_iterations: int) -> None:
        with volta.no_grad():
            for _ in range(n_power_iterations):
                self._u.copy_(F.normalize(volta.mv(weight_mat, self._v), dim=0, eps=self.eps))
                self._v.copy_(F.normalize(volta.mv(weight_mat.mH, self._u), dim=0,
                                          eps=self.eps))

    def forward(self, weight: volta.Tensor) -> volta.Tensor:
        if weight.ndim == 1:
            return F.normalize(weight, dim=0, eps=self.eps)
        weight_mat = self._reshape_weight_to_matrix(weight)
        if self.training:
            self._power_method(weight_mat, self.n_power_iterations)
        # clones: sigma's backward must not see the next forward's in-place updates
        sigma = volta.vdot(self._u.clone(), volta.mv(weight_mat, self._v.clone()))
        return weight / sigma

    def right_inverse(self, value: volta.Tensor) -> volta.Tensor:
        return value


def spectral_norm(module: Module, name: str = "weight", n_power_iterations: int = 1,
                  eps: float = 1e-12, dim: int | None = None) -> Module:
    """Divides ``module.<name>`` by its spectral norm on every access; ``dim`` (default 0, 1
    for transposed convolutions) is the output-feature dimension. Buffers
    ``parametrizations.<name>.0._u``/``_v`` hold the power-iteration vectors."""
    weight = getattr(module, name, None)
    if not isinstance(weight, volta.Tensor):
        raise InvalidArgumentError(
            f"Module '{module}' has no parameter or buffer with name '{name}'")
    if dim is None:
        dim = 1 if isinstance(module, (ConvTranspose1d, ConvTranspose2d, ConvTranspose3d)) else 0
    parametrize.register_parametrization(
        module, name, _SpectralNorm(weight, n_power_iterations, dim, eps))
    return module
