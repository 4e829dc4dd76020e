"""``volta.signal.windows``: the window functions of ``torch.signal.windows``.

Each builds its window from volta factories and pointwise ops, so it runs on every backend.
``sym=True`` gives the symmetric window (for filter design); ``sym=False`` the periodic one
(for spectral analysis): the symmetric window of M + 1 points without its last point.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from typing import Any

import volta
from volta.errors import DTypeError, SchemaError

__all__ = ["bartlett", "blackman", "cosine", "exponential", "gaussian", "general_cosine",
           "general_hamming", "hamming", "hann", "kaiser", "nuttall"]


def _check(name: str, M: int, dtype: Any) -> Any:
    """PyTorch's argument checks; returns the dtype to build the window in."""
    if M < 0:
        raise SchemaError(f"{name} requires non-negative window length, got M={M}")
    dtype = volta.get_default_dtype() if dtype is None else dtype
    if dtype not in (volta.float32, volta.float64):
        raise DTypeError(f"{name} expects float32 or float64 dtypes, got: {dtype}")
    return dtype


def _trivial(M: int, dtype: Any, device: Any, requires_grad: bool) -> volta.Tensor | None:
    """The windows of length 0 and 1 (every window is empty or [1] there)."""
    if M == 0:
        return volta.empty((0,), dtype=dtype, device=device, requires_grad=requires_grad)
    if M == 1:
        return volta.ones((1,), dtype=dtype, device=device, requires_grad=requires_grad)
    return None


def _span(M: int, sym: bool) -> int:
    """The denominator of the window's phase: M - 1 points apart, or M for a periodic one."""
    return M - 1 if sym else M


def _points(start: float, step: float, M: int, dtype: Any, device: Any) -> volta.Tensor:
    return volta.linspace(start, start + (M - 1) * step, M, dtype=dtype, device=device)


def _finish(window: volta.Tensor, requires_grad: bool) -> volta.Tensor:
    return window.requires_grad_() if requires_grad else window


def exponential(M: int, *, center: float | None = None, tau: float = 1.0, sym: bool = True,
                dtype: Any = None, layout: Any = None, device: Any = None,
                requires_grad: bool = False) -> volta.Tensor:
    """exp(-|n - center| / tau)."""
    dtype = _check("exponential", M, dtype)
    if tau <= 0:
        raise SchemaError(f"Tau must be positive, got: {tau} instead.")
    if sym and center is not None:
        raise SchemaError("Center must be None for symmetric windows")
    trivial = _trivial(M, dtype, device, requires_grad)
    if trivial is not None:
        return trivial
    if center is None:
        center = (M if not sym and M > 1 else M - 1) / 2.0
    k = _points(-center / tau, 1 / tau, M, dtype, device)
    return _finish(volta.exp(-volta.abs(k)), requires_grad)


def cosine(M: int, *, sym: bool = True, dtype: Any = None, layout: Any = None,
           device: Any = None, requires_grad: bool = False) -> volta.Tensor:
    """sin(pi (n + 1/2) / M): the sine window."""
    dtype = _check("cosine", M, dtype)
    trivial = _trivial(M, dtype, device, requires_grad)
    if trivial is not None:
        return trivial
    step = math.pi / (M + 1 if not sym and M > 1 else M)
    return _finish(volta.sin(_points(0.5 * step, step, M, dtype, device)), requires_grad)


def gaussian(M: int, *, std: float = 1.0, sym: bool = True, dtype: Any = None,
             layout: Any = None, device: Any = None, requires_grad: bool = False
             ) -> volta.Tensor:
    """exp(-(n - center)^2 / (2 std^2))."""
    dtype = _check("gaussian", M, dtype)
    if std <= 0:
        raise SchemaError(f"Standard deviation must be positive, got: {std} instead.")
    trivial = _trivial(M, dtype, device, requires_grad)
    if trivial is not None:
        return trivial
    start = -(M if not sym and M > 1 else M - 1) / 2.0
    scale = 1 / (std * math.sqrt(2))
    k = _points(start * scale, scale, M, dtype, device)
    return _finish(volta.exp(-k * k), requires_grad)


def kaiser(M: int, *, beta: float = 12.0, sym: bool = True, dtype: Any = None,
           layout: Any = None, device: Any = None, requires_grad: bool = False
           ) -> volta.Tensor:
    """i0(beta sqrt(1 - (2 n / (M - 1) - 1)^2)) / i0(beta)."""
    dtype = _check("kaiser", M, dtype)
    if beta < 0:
        raise SchemaError(f"beta must be non-negative, got: {beta} instead.")
    trivial = _trivial(M, dtype, device, requires_grad)
    if trivial is not None:
        return trivial
    b = volta.tensor(beta, dtype=dtype, device=device)
    step = 2.0 * beta / _span(M, sym)
    end = min(-beta + (M - 1) * step, beta)
    k = volta.linspace(-beta, end, M, dtype=dtype, device=device)
    return _finish(volta.i0(volta.sqrt(b * b - k * k)) / volta.i0(b), requires_grad)


def bartlett(M: int, *, sym: bool = True, dtype: Any = None, layout: Any = None,
             device: Any = None, requires_grad: bool = False) -> volta.Tensor:
    """The triangular window 1 - |2 n / (M - 1) - 1|."""
    dtype = _check("bartlett", M, dtype)
    trivial = _trivial(M, dtype, device, requires_grad)
    if trivial is not None:
        return trivial
    k = _points(-1.0, 2.0 / _span(M, sym), M, dtype, device)
    return _finish(1 - volta.abs(k), requires_grad)


def general_cosine(M: int, *, a: Iterable[float], sym: bool = True, dtype: Any = None,
                   layout: Any = None, device: Any = None, requires_grad: bool = False
                   ) -> volta.Tensor:
    """sum_i (-1)^i a_i cos(2 pi i n / (M - 1))."""
    dtype = _check("general_cosine", M, dtype)
    if a is None:
        raise SchemaError("Coefficients are required")
    if not isinstance(a, Iterable):
        raise DTypeError("Coefficients must be a list/tuple")
    coefficients: Sequence[float] = list(a)
    if not coefficients:
        raise SchemaError("Coefficients cannot be empty")
    trivial = _trivial(M, dtype, device, requires_grad)
    if trivial is not None:
        return trivial
    k = _points(0.0, 2 * math.pi / _span(M, sym), M, dtype, device)
    signed = volta.tensor([(-1) ** i * w for i, w in enumerate(coefficients)], dtype=dtype,
                          device=device)
    orders = volta.arange(len(coefficients), dtype=dtype, device=device)
    window = (signed.unsqueeze(-1) * volta.cos(orders.unsqueeze(-1) * k)).sum(0)
    return _finish(window, requires_grad)


def general_hamming(M: int, *, alpha: float = 0.54, sym: bool = True, dtype: Any = None,
                    layout: Any = None, device: Any = None, requires_grad: bool = False
                    ) -> volta.Tensor:
    """alpha - (1 - alpha) cos(2 pi n / (M - 1))."""
    return general_cosine(M, a=[alpha, 1.0 - alpha], sym=sym, dtype=dtype, device=device,
                          requires_grad=requires_grad)


def hamming(M: int, *, sym: bool = True, dtype: Any = None, layout: Any = None,
            device: Any = None, requires_grad: bool = False) -> volta.Tensor:
    """The Hamming window: general_hamming with alpha = 0.54."""
    return general_hamming(M, sym=sym, dtype=dtype, device=device, requires_grad=requires_grad)


def hann(M: int, *, sym: bool = True, dtype: Any = None, layout: Any = None,
         device: Any = None, requires_grad: bool = False) -> volta.Tensor:
    """The Hann window: general_hamming with alpha = 0.5."""
    return general_hamming(M, alpha=0.5, sym=sym, dtype=dtype, device=device,
                           requires_grad=requires_grad)


def blackman(M: int, *, sym: bool = True, dtype: Any = None, layout: Any = None,
             device: Any = None, requires_grad: bool = False) -> volta.Tensor:
    """The Blackman window: general_cosine with a = [0.42, 0.5, 0.08]."""
    dtype = _check("blackman", M, dtype)
    return general_cosine(M, a=[0.42, 0.5, 0.08], sym=sym, dtype=dtype, device=device,
                          requires_grad=requires_grad)


def nuttall(M: int, *, sym: bool = True, dtype: Any = None, layout: Any = None,
            device: Any = None, requires_grad: bool = False) -> volta.Tensor:
    """Nuttall's minimum 4-term Blackman-Harris window."""
    return general_cosine(M, a=[0.3635819, 0.4891775, 0.1365995, 0.0106411], sym=sym,
                          dtype=dtype, device=device, requires_grad=requires_grad)
