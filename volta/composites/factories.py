"""Composite operators: ``*_like`` factories and in-place random fills."""

from __future__ import annotations

from typing import Any

from volta import dtypes as D
from volta._generated import registry as R
from volta.composites.base import Number, _shape, composite
from volta.errors import DTypeError, SchemaError
from volta.memory_format import format_strides, preserve_format
from volta.tensor import factories as fac
from volta.tensor.checks import check_uniform_bounds
from volta.tensor.tensor import Tensor

# ---------------------------------------------------------------- factories and random

def _like(self: Tensor, dtype: D.dtype | None, device: Any,
          requires_grad: bool | None = False) -> dict[str, Any]:
    return {"dtype": self.dtype if dtype is None else dtype,
            "device": self.device if device is None else device,
            "requires_grad": bool(requires_grad)}  # None (taken, as PyTorch does) is False


def _filled_like(self: Tensor, value: int) -> Tensor:
    """``value`` in ``self``'s shape, dtype, device and layout: the common ``*_like`` call (every
    backward's seed and missing gradient), whose arguments are valid already, so the factory's
    argument checks are skipped."""
    return _laid_out(self, fac._filled(self._shape, value, self.dtype, self._device, False), None)


def _laid_out(self: Tensor, result: Tensor, memory_format: Any) -> Tensor:
    """``result`` (contiguous) in ``self``'s layout under ``memory_format``: by default
    (``preserve_format``) a dense ``self``'s strides, as PyTorch's factories keep them."""
    if memory_format is None and self._stride == result._stride:
        return result  # ``self`` is contiguous: so is the result (every backward's zeros_like)
    strides = format_strides(memory_format or preserve_format, _shape(self), self.stride())
    if strides == tuple(result.stride()):
        return result
    out = fac.empty_strided(_shape(self), strides, dtype=result.dtype, device=result.device)
    out.copy_(result.detach())
    return out.requires_grad_(result.requires_grad)


@composite("zeros_like")
def zeros_like(self: Tensor, dtype: D.dtype | None = None, device: Any = None,
              requires_grad: bool = False, memory_format: Any = None) -> Tensor:
    """Zeros shaped like ``self``."""
    if dtype is None and device is None and not requires_grad and memory_format is None:
        return _filled_like(self, 0)
    made = fac.zeros(_shape(self), **_like(self, dtype, device, requires_grad))
    return _laid_out(self, made, memory_format)


@composite("ones_like")
def ones_like(self: Tensor, dtype: D.dtype | None = None, device: Any = None,
              requires_grad: bool = False, memory_format: Any = None) -> Tensor:
    """Ones shaped like ``self``."""
    if dtype is None and device is None and not requires_grad and memory_format is None:
        return _filled_like(self, 1)
    made = fac.ones(_shape(self), **_like(self, dtype, device, requires_grad))
    return _laid_out(self, made, memory_format)


@composite("full_like")
def full_like(self: Tensor, fill_value: Number, dtype: D.dtype | None = None,
              device: Any = None, requires_grad: bool = False,
              memory_format: Any = None) -> Tensor:
    """``fill_value`` everywhere, shaped like ``self``."""
    made = fac.full(_shape(self), fill_value,
                    **_like(self, dtype, device, requires_grad))
    return _laid_out(self, made, memory_format)


@composite("empty_like")
def empty_like(self: Tensor, dtype: D.dtype | None = None, device: Any = None,
              requires_grad: bool = False, memory_format: Any = None) -> Tensor:
    """An uninitialised tensor shaped like ``self``."""
    made = fac.empty(_shape(self), **_like(self, dtype, device, requires_grad))
    return _laid_out(self, made, memory_format)


@composite("rand_like")
def rand_like(self: Tensor, dtype: D.dtype | None = None, device: Any = None,
              requires_grad: bool = False, memory_format: Any = None) -> Tensor:
    """Uniform [0, 1) samples shaped like ``self``."""
    made = fac.rand(_shape(self), **_like(self, dtype, device, requires_grad))
    return _laid_out(self, made, memory_format)


@composite("randn_like")
def randn_like(self: Tensor, dtype: D.dtype | None = None, device: Any = None,
              requires_grad: bool = False, memory_format: Any = None) -> Tensor:
    """Standard normal samples shaped like ``self``."""
    made = fac.randn(_shape(self), **_like(self, dtype, device, requires_grad))
    return _laid_out(self, made, memory_format)


@composite("randint_like")
def randint_like(self: Tensor, low: int, high: int, dtype: D.dtype | None = None,
                 device: Any = None, requires_grad: bool = False,
                 memory_format: Any = None) -> Tensor:
    """Integers drawn from [low, high), shaped like ``self`` (in its dtype by default)."""
    made = fac.randint(low, high, _shape(self),
                       **_like(self, dtype, device, requires_grad))
    return _laid_out(self, made, memory_format)


@composite("randint_like.high")
def randint_like_high(self: Tensor, high: int, dtype: D.dtype | None = None, device: Any = None,
                      requires_grad: bool = False, memory_format: Any = None) -> Tensor:
    """Integers drawn from [0, high), shaped like ``self``."""
    return randint_like(self, 0, high, dtype, device, requires_grad, memory_format)


@composite("bernoulli")
def bernoulli(self: Tensor, p: float | None = None, generator: Any = None) -> Tensor:
    """0/1 draws with probability ``p``, or with the probabilities in ``self`` if ``p`` is None."""
    if p is None and not self.is_floating_point():
        raise DTypeError(f'"bernoulli" not implemented for {self.dtype.name}')
    if p is not None and not 0 <= p <= 1:
        raise SchemaError(f"bernoulli_ expects p to be in [0, 1], but got p={p}")
    # probabilities outside [0, 1] (nan included) are an error in PyTorch, not a clamp
    if p is None and self.numel() and not bool(R.logical_and(R.ge(self, 0), R.le(self, 1)).all()):
        raise SchemaError("Expected p_in >= 0 && p_in <= 1 to be true, but got false.")
    draw_dtype = self.dtype if self.is_floating_point() else D.get_default_dtype()
    u = fac.rand(_shape(self), generator=generator, dtype=draw_dtype, device=self.device)
    return R.lt(u, self if p is None else p).to(self.dtype)


@composite("uniform_")
def uniform_(self: Tensor, from_: float = 0, to: float = 1, generator: Any = None) -> Tensor:
    """Fill ``self`` in place with uniform samples from [from, to)."""
    if not self.is_floating_point():  # PyTorch checks the bounds inside a floating dispatch
        raise DTypeError(f'"check_uniform_bounds" not implemented for {self.dtype.name}')
    check_uniform_bounds(self.dtype, from_, to)
    u = fac.rand(_shape(self), generator=generator, dtype=self.dtype, device=self.device)
    return self.copy_(u * (to - from_) + from_)


@composite("normal_")
def normal_(self: Tensor, mean: float = 0, std: float = 1, generator: Any = None) -> Tensor:
    """Fill ``self`` in place with normal samples of the given mean and std."""
    if std < 0:
        raise SchemaError(f"normal expects std >= 0.0, but found std {std}")
    if self.numel() == 0:
        return self  # as exponential_: no dtype check for an empty tensor
    if not self.is_floating_point():
        raise DTypeError(f'"normal_" not implemented for {self.dtype.name}')
    z = fac.randn(_shape(self), generator=generator, dtype=self.dtype, device=self.device)
    return self.copy_(z * std + mean)
