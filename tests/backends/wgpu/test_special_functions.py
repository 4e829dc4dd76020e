"""The special functions, orthogonal polynomials and hand-written pointwise ops on WGPU
(``kernels/special.py``) against the CPU backend (scipy.special), with the CPU fallback
switched off: wide input ranges, edge values (0, poles, large x, nan, inf), non-contiguous
inputs, dtype handling and backward."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
import pytest

import volta
from volta import special as S

RNG = np.random.default_rng(7)
EDGES = [0.0, -0.0, 1.0, -1.0, 2.0, -2.0, 0.5, -0.5, -2.5, 1e-30, 1e-5, 1e30, -1e30, np.inf,
         -np.inf, np.nan, 7.99, 8.0, 20.0, -4.5, 88.0, 1e4, -1e4]
WIDE = np.concatenate([EDGES, RNG.uniform(-30, 30, 120),
                       np.exp(RNG.uniform(-20, 20, 60)) * RNG.choice([-1, 1], 60)]
                      ).astype(np.float32)
PROBABILITIES = np.concatenate([[0.0, 1.0, 0.5, 1e-30, 1e-7, 1 - 1e-7, -0.1, 1.5, np.nan],
                                RNG.uniform(0, 1, 80)]).astype(np.float32)


def _op(name: str) -> Callable[..., Any]:
    return getattr(volta, name, None) or getattr(S, name)


def _close(got: np.ndarray, want: np.ndarray, rtol: float, atol: float) -> None:
    assert got.dtype == want.dtype and got.shape == want.shape, (got.dtype, want.dtype)
    np.testing.assert_allclose(got, want, rtol=rtol, atol=atol, equal_nan=True)


# name -> (inputs, rtol, atol); tolerances are what float32 formulas reach (see the module
# docstring of kernels/special.py)
UNARY: dict[str, tuple[np.ndarray, float, float]] = {
    "acosh": (WIDE, 1e-6, 1e-7), "asinh": (WIDE, 1e-6, 1e-7), "atanh": (
        np.concatenate([WIDE, RNG.uniform(-1, 1, 50).astype(np.float32)]), 1e-6, 1e-7),
    "lgamma": (WIDE, 2e-5, 2e-6), "digamma": (WIDE, 1e-5, 2e-6),
    "entr": (np.abs(WIDE), 1e-6, 1e-7), "ndtr": (WIDE, 1e-5, 1e-7),
    "log_ndtr": (WIDE, 1e-5, 1e-7), "ndtri": (PROBABILITIES, 1e-5, 1e-6),
    "erfcx": (WIDE, 1e-5, 1e-7),
    "i0": (WIDE, 1e-5, 0), "i0e": (WIDE, 1e-5, 1e-7), "i1": (WIDE, 1e-5, 1e-7),
    "i1e": (WIDE, 1e-5, 1e-7),
    "modified_bessel_i0": (WIDE, 1e-5, 0), "modified_bessel_i1": (WIDE, 1e-5, 1e-7),
    "modified_bessel_k0": (WIDE, 1e-5, 1e-7), "modified_bessel_k1": (WIDE, 1e-5, 1e-7),
    "scaled_modified_bessel_k0": (WIDE, 1e-4, 1e-7),
    "scaled_modified_bessel_k1": (WIDE, 1e-4, 1e-7),
    "bessel_j0": (WIDE, 1e-5, 1e-7), "bessel_j1": (WIDE, 1e-5, 1e-7),
    "bessel_y0": (WIDE, 1e-5, 1e-7), "bessel_y1": (WIDE, 1e-5, 1e-7),
    "spherical_bessel_j0": (WIDE, 1e-5, 1e-6),
    "airy_ai": (np.concatenate([WIDE, -np.exp(RNG.uniform(0, 13.8, 60)), [-1048575, -1048576]]
                               ).astype(np.float32), 1e-5, 5e-6),
}


@pytest.mark.parametrize("name", sorted(UNARY))
def test_unary_matches_cpu(wgpu: str, no_fallback: None, name: str) -> None:
    x, rtol, atol = UNARY[name]
    want = _op(name)(volta.tensor(x)).numpy()
    got = _op(name)(volta.tensor(x, device=wgpu)).cpu().numpy()
    _close(got, want, rtol, atol)


@pytest.mark.parametrize("name", ["lgamma", "bessel_j0", "i1e", "ndtr", "modified_bessel_k1"])
def test_non_contiguous_and_integer_inputs(wgpu: str, no_fallback: None, name: str) -> None:
    x = np.abs(WIDE[:60]).reshape(6, 10)
    want = _op(name)(volta.tensor(x).T[::2]).numpy()
    got = _op(name)(volta.tensor(x, device=wgpu).T[::2]).cpu().numpy()
    _close(got, want, 1e-5, 1e-5)  # lgamma near its zeros at 1 and 2: absolute
    ints = np.arange(-3, 9).reshape(3, 4)
    _close(_op(name)(volta.tensor(ints, device=wgpu)).cpu().numpy(),
           _op(name)(volta.tensor(ints)).numpy(), 1e-5, 1e-5)


A = np.concatenate([[0.0, 0.0, 1.0, 1.0, np.inf, np.inf, -1.0, 1.0, np.nan, 2.0, 1e-3],
                    np.exp(RNG.uniform(-3, 5, 60))]).astype(np.float32)
X = np.concatenate([[0.0, 1.0, 0.0, np.inf, 1.0, np.inf, 1.0, -1.0, 1.0, np.nan, 5.0],
                    A[11:] * np.exp(RNG.uniform(-1, 1, 60))]).astype(np.float32)
Q = np.float32([1.0, 1.0, 0.0, -1.0, -1.5, -0.5, 1e9, np.inf, 0.3, 9.5, 20.0, np.nan])
BINARY: dict[str, tuple[np.ndarray, np.ndarray, float, float]] = {
    "igamma": (A, X, 2e-5, 1e-6), "igammac": (A, X, 2e-5, 1e-6),
    "zeta": (np.concatenate([[1.0, 0.5, 2.0, 2.0, 3.0, 3.0, 2.0, 2.0, 4.0, 2.5, 7.0, np.nan],
                             RNG.uniform(1.1, 12, 40)]).astype(np.float32),
             np.concatenate([Q, RNG.uniform(0.01, 30, 40)]).astype(np.float32), 2e-5, 1e-7),
    "xlog1py": (np.float32([0, 0, 1, 2, -3, np.nan, 0, 1e30]),
                np.float32([-1, np.nan, -1, -2, 1e-8, 1, 5, 3]), 1e-6, 1e-7),
}


@pytest.mark.parametrize("name", sorted(BINARY))
def test_binary_matches_cpu(wgpu: str, no_fallback: None, name: str) -> None:
    a, b, rtol, atol = BINARY[name]
    want = _op(name)(volta.tensor(a), volta.tensor(b)).numpy()
    got = _op(name)(volta.tensor(a, device=wgpu), volta.tensor(b, device=wgpu)).cpu().numpy()
    _close(got, want, rtol, atol)


def test_binary_broadcasts(wgpu: str, no_fallback: None) -> None:
    a, x = A[11:23].reshape(3, 4), X[11:15]
    for name in ("igamma", "igammac", "zeta", "xlog1py"):
        want = _op(name)(volta.tensor(a).T, volta.tensor(x[:3])).numpy()
        got = _op(name)(volta.tensor(a, device=wgpu).T, volta.tensor(x[:3], device=wgpu))
        _close(got.cpu().numpy(), want, 2e-5, 1e-6)


@pytest.mark.parametrize("n", [0, 1, 2, 3, 5])
def test_polygamma_matches_cpu(wgpu: str, no_fallback: None, n: int) -> None:
    x = np.concatenate([[0.0, -1.5, -2.0, 1e-3, 0.5, 10.0, np.inf, np.nan],
                        RNG.uniform(-6, 20, 60)]).astype(np.float32)
    want = volta.polygamma(n, volta.tensor(x)).numpy()
    got = volta.polygamma(n, volta.tensor(x, device=wgpu)).cpu().numpy()
    _close(got, want, 5e-5, 1e-6)


POLYNOMIALS = sorted(f"{shift}chebyshev_polynomial_{k}" for shift in ("", "shifted_")
                     for k in "tuvw") + ["hermite_polynomial_h", "hermite_polynomial_he",
                                         "laguerre_polynomial_l", "legendre_polynomial_p"]


@pytest.mark.parametrize("name", POLYNOMIALS)
def test_orthogonal_polynomials_match_cpu(wgpu: str, no_fallback: None, name: str) -> None:
    x = np.float32([-1.0, 1.0, 0.0, 0.5, -0.3, 0.9, 1.5, -2.0, 3.0, np.nan, 0.25, 0.75])
    n = np.float32([0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 12, 20, -1, np.inf, 2.7, 30])
    xs, ns = np.meshgrid(x, n)
    want = _op(name)(volta.tensor(xs), volta.tensor(ns)).numpy()
    got = _op(name)(volta.tensor(xs, device=wgpu), volta.tensor(ns, device=wgpu)).cpu().numpy()
    # relative to max(|P|, 1): the recurrences cancel, and Chebyshev's closed form for n > 6
    # divides in float32 (the CPU backend in float64)
    scale = np.maximum(np.abs(np.nan_to_num(want, posinf=0, neginf=0)), 1)
    _close(got / scale, want / scale, 1e-5, 1e-5)
    # integer degrees as a tensor and as a number, an integer x
    n_int = volta.tensor([0, 3, 7, 11])
    _close(_op(name)(volta.tensor(x[:4], device=wgpu), n_int.to(wgpu)).cpu().numpy(),
           _op(name)(volta.tensor(x[:4]), n_int).numpy(), 1e-5, 1e-5)
    _close(_op(name)(volta.tensor(x[:4], device=wgpu), 5).cpu().numpy(),
           _op(name)(volta.tensor(x[:4]), 5).numpy(), 1e-5, 1e-5)
    _close(_op(name)(volta.tensor([2, -1, 0], device=wgpu), n_int[:3].to(wgpu)).cpu().numpy(),
           _op(name)(volta.tensor([2, -1, 0]), n_int[:3]).numpy(), 1e-5, 1e-5)


def test_frexp_matches_cpu(wgpu: str, no_fallback: None) -> None:
    x = np.concatenate([WIDE, [1e-40, -3e-42, 0.75, -1.0, 3.4e38]]).astype(np.float32)
    want = volta.frexp(volta.tensor(x))
    got = volta.frexp(volta.tensor(x, device=wgpu))
    for g, w in zip(got, want, strict=True):
        _close(g.cpu().numpy(), w.numpy(), 0, 0)
    mantissa, exponent = volta.tensor(x.reshape(4, -1)[:, :40], device=wgpu).T.frexp()
    np.testing.assert_array_equal(mantissa.cpu().numpy() * 2.0 ** exponent.cpu().numpy(),
                                  x.reshape(4, -1)[:, :40].T)


def test_gcd_lcm_heaviside_nextafter_match_cpu(wgpu: str, no_fallback: None) -> None:
    a = np.array([0, 0, 12, -18, 7, 1, 100, -5, 9], dtype=np.int64)
    b = np.array([0, 5, 18, 12, -14, 1, 75, 0, 6], dtype=np.int64)
    for name in ("gcd", "lcm"):
        for dt in (volta.int64, volta.int32):
            want = _op(name)(volta.tensor(a, dtype=dt), volta.tensor(b, dtype=dt)).numpy()
            got = _op(name)(volta.tensor(a, dtype=dt, device=wgpu),
                            volta.tensor(b, dtype=dt, device=wgpu)).cpu().numpy()
            _close(got, want, 0, 0)
    x = np.float32([-2, 0, 3, np.nan, -0.0, np.inf, -np.inf, 0])
    v = np.float32([5, 0.5, 5, 5, 7, 5, 5, np.nan])
    _close(volta.heaviside(volta.tensor(x, device=wgpu), volta.tensor(v, device=wgpu)).cpu()
           .numpy(), volta.heaviside(volta.tensor(x), volta.tensor(v)).numpy(), 0, 0)
    for dt in (volta.int64, volta.bool):
        xi, vi = volta.tensor([-2, 0, 3, 0], dtype=dt), volta.tensor([4, 1, 0, 0], dtype=dt)
        _close(volta.heaviside(xi.to(wgpu), vi.to(wgpu)).cpu().numpy(),
               volta.heaviside(xi, vi).numpy(), 0, 0)
    tiny = np.float32(1.4e-45)
    a = np.float32([0, -0.0, 1, 1, -1, np.inf, -np.inf, 3.4028235e38, np.nan, 1, tiny, -tiny, 0])
    b = np.float32([1, -1, 2, 0, -2, 0, 0, np.inf, 1, np.nan, -1, 1, -0.0])
    with np.errstate(over="ignore"):  # the CPU kernel's numpy warns stepping past the maximum
        want = volta.nextafter(volta.tensor(a), volta.tensor(b)).numpy()
    got = volta.nextafter(volta.tensor(a, device=wgpu), volta.tensor(b, device=wgpu)).cpu()
    np.testing.assert_array_equal(got.numpy().view(np.uint32)[~np.isnan(want)],
                                  want.view(np.uint32)[~np.isnan(want)])
    assert np.isnan(got.numpy()[np.isnan(want)]).all()


# the CPU backend's dtype and argument errors, raised the same on WGPU
ERRORS: dict[str, Callable[[str], Any]] = {
    "gcd_float": lambda d: volta.gcd(volta.ones(2, device=d), volta.ones(2, device=d)),
    "igamma_int": lambda d: volta.igamma(volta.ones(2, dtype=volta.int64, device=d),
                                         volta.ones(2, dtype=volta.int64, device=d)),
    "igamma_number": lambda d: volta.igamma(volta.ones(2, device=d), 2.0),
    "heaviside_dtypes": lambda d: volta.heaviside(volta.ones(2, device=d),
                                                  volta.ones(2, dtype=volta.int64, device=d)),
    "nextafter_int": lambda d: volta.nextafter(volta.ones(2, dtype=volta.int64, device=d),
                                               volta.ones(2, dtype=volta.int64, device=d)),
    "polygamma_negative": lambda d: volta.polygamma(-1, volta.ones(2, device=d)),
    "frexp_int": lambda d: volta.frexp(volta.ones(2, dtype=volta.int64, device=d)),
    "bessel_half": lambda d: S.bessel_j0(volta.ones(2, dtype=volta.float16, device=d)),
    "polynomial_half": lambda d: S.hermite_polynomial_h(
        volta.ones(2, dtype=volta.float16, device=d), 2),
}


@pytest.mark.parametrize("name", sorted(ERRORS))
def test_errors_match_cpu(wgpu: str, no_fallback: None, name: str) -> None:
    messages = []
    for device in ("cpu", wgpu):
        with pytest.raises(volta.VoltaError) as info:
            ERRORS[name](device)
        messages.append((type(info.value), str(info.value)))
    assert messages[0] == messages[1]


# differentiable ops: their derivatives are composites of the ops above
BACKWARD: dict[str, tuple[Callable[..., Any], list[np.ndarray]]] = {
    "lgamma": (volta.lgamma, [np.float32([0.3, 2.5, -1.5, 7.0])]),
    "digamma": (volta.digamma, [np.float32([0.3, 2.5, -1.5, 7.0])]),
    "polygamma": (lambda x: volta.polygamma(2, x), [np.float32([0.3, 2.5, 7.0])]),
    "i0": (volta.i0, [np.float32([0.3, -2.5, 7.0, 25.0])]),
    "i0e": (S.i0e, [np.float32([0.3, -2.5, 7.0, 25.0])]),
    "i1": (volta.i1, [np.float32([0.3, -2.5, 7.0, 25.0])]),
    "i1e": (S.i1e, [np.float32([0.3, -2.5, 7.0, 25.0])]),
    "ndtr": (S.ndtr, [np.float32([-3.0, 0.0, 1.5])]),
    "ndtri": (S.ndtri, [np.float32([0.01, 0.5, 0.9])]),
    "log_ndtr": (S.log_ndtr, [np.float32([-10.0, 0.0, 3.0])]),
    "erfcx": (S.erfcx, [np.float32([-1.0, 0.5, 4.0])]),
    "entr": (S.entr, [np.float32([0.1, 1.0, 3.0])]),
    "xlog1py": (S.xlog1py, [np.float32([0.0, 2.0, -1.5]), np.float32([1.0, 0.5, 3.0])]),
    "acosh": (volta.acosh, [np.float32([1.5, 3.0, 100.0])]),
    "asinh": (volta.asinh, [np.float32([-2.0, 0.1, 30.0])]),
    "atanh": (volta.atanh, [np.float32([-0.9, 0.1, 0.5])]),
    "frexp": (lambda x: volta.frexp(x)[0], [np.float32([-3.0, 0.1, 1e3])]),
    "nextafter": (volta.nextafter, [np.float32([1.0, 2.0, 3.0]), np.float32([2.0, 2.0, 0.0])]),
}


@pytest.mark.parametrize("name", sorted(BACKWARD))
def test_backward_matches_cpu(wgpu: str, no_fallback: None, name: str) -> None:
    fn, arrays = BACKWARD[name]
    results = []
    for device in ("cpu", wgpu):
        xs = [volta.tensor(a, device=device, requires_grad=True) for a in arrays]
        out = fn(*xs)
        (out * volta.arange(out.numel(), dtype=volta.float32, device=device).cos()).sum(
            ).backward()
        results.append([out.detach().cpu().numpy()] + [x.grad.cpu().numpy() for x in xs])
    for got, want in zip(results[1], results[0], strict=True):
        _close(got, want, 5e-5, 1e-6)
