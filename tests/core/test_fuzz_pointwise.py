"""Pointwise ops and factories that the differential fuzz found disagreeing with PyTorch:
each call runs through PyTorch and volta, and both must accept with equal results or both
reject (volta with a VoltaError)."""
from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

import numpy as np
import pytest
import torch

import volta
from volta import dtypes as D
from volta.errors import VoltaError


def _run(fn: Callable[[], Any]) -> tuple[Any, BaseException | None]:
    try:
        return fn(), None
    except Exception as error:  # noqa: BLE001 - the error itself is compared
        return None, error


def _numpy(result: Any) -> np.ndarray:
    if isinstance(result, torch.Tensor):
        return result.detach().to(torch.float64 if result.is_floating_point() else result.dtype).numpy()
    return np.asarray(volta.tensor(result).to(volta.float64).tolist()
                      if result.dtype.is_floating_point else result.tolist())


def assert_agree(torch_call: Callable[[], Any], volta_call: Callable[[], Any],
                 rtol: float = 1e-6) -> None:
    expected, torch_error = _run(torch_call)
    actual, volta_error = _run(volta_call)
    if torch_error is not None:
        assert volta_error is not None, f"PyTorch rejects ({torch_error}), volta accepts"
        assert isinstance(volta_error, VoltaError), f"raw error: {volta_error!r}"
        return
    assert volta_error is None, f"volta rejects ({volta_error!r}), PyTorch accepts"
    assert tuple(actual.shape) == tuple(expected.shape)
    assert str(actual.dtype).split(".")[-1] == str(expected.dtype).split(".")[-1]
    np.testing.assert_allclose(_numpy(actual), _numpy(expected), rtol=rtol, equal_nan=True)


ARANGE_CASES = [
    (-2.2250738585e-313, -8.802247639976839, -2.2250738585e-313),  # quotient overflows to inf
    (0, 1, 1e-320),
    (0, 1e300, 1e-300),
    (-4, -1.6484524795633514e-242, math.inf),  # an infinite step is a valid (empty) range
    (0, 5, math.inf),
    (5, 5, math.inf),
    (0, 5, 1e300),
    (5, 0, math.inf),
    (0, 5, -math.inf),
    (0, 5, math.nan),  # a NaN step is not "nonzero"
    (math.nan, 5, 1),
    (0, math.inf, 1),
    (-(2**63) + 1, 2**63 - 1, 1),  # exact int64 size too large
    (10, 0, -3),
]


@pytest.mark.parametrize("bounds", ARANGE_CASES, ids=str)
def test_arange_bounds_and_size(bounds: tuple) -> None:
    assert_agree(lambda: torch.arange(*bounds), lambda: volta.arange(*bounds))


@pytest.mark.parametrize("dtype", ["int8", "int16", "int32", "int64"])
@pytest.mark.parametrize("bounds", [(0.0001, 0.0001, 0.0001), (0, 5, 0.5), (0.5, 0.7, 0.1),
                                    (0, 5, 1.5), (0, -5, -0.5)], ids=str)
def test_arange_integer_dtype_checks_given_bounds(bounds: tuple, dtype: str) -> None:
    # int64 truncates the bounds before its checks; the other integer dtypes after them
    assert_agree(lambda: torch.arange(*bounds, dtype=getattr(torch, dtype)),
                 lambda: volta.arange(*bounds, dtype=getattr(volta, dtype)))


def _both(make: Callable[[Any], Any], device: str = "cpu", rtol: float = 1e-6) -> None:
    """``make(module)`` builds and runs the call with ``torch`` or ``volta``; volta's tensors
    move to ``device`` (``volta.tensor`` inputs built inside ``make`` use the module's API)."""
    def on_volta() -> Any:
        return make(_VoltaOn(device))
    assert_agree(lambda: make(torch), on_volta, rtol)


class _VoltaOn:
    """volta's namespace whose ``tensor`` puts tensors on one device."""

    def __init__(self, device: str) -> None:
        self.device = device

    def tensor(self, data: Any, dtype: Any = None) -> Any:
        return volta.tensor(data, dtype=dtype).to(self.device)

    def __getattr__(self, name: str) -> Any:
        return getattr(volta, name)


DEVICES = ["cpu", "wgpu"]
WGPU_DTYPES = {"float32", "float16", "int32", "int64", "bool"}


@pytest.mark.parametrize("device", DEVICES)
@pytest.mark.parametrize("dtype", ["int8", "int16", "int32", "int64", "bool", "float32", "float16"])
@pytest.mark.parametrize("weight", [False, 0.5, "tensor"])
def test_lerp_floating_only(dtype: str, weight: Any, device: str) -> None:
    if device == "wgpu" and dtype not in WGPU_DTYPES:
        return
    def call(m: Any) -> Any:
        a = m.tensor([1, 0, 1], dtype=getattr(m, dtype))
        w = m.tensor([1, 0, 1], dtype=getattr(m, dtype)) if weight == "tensor" else weight
        return m.lerp(a, m.tensor([0, 1, 1], dtype=getattr(m, dtype)), w)
    _both(call, device)


POW_CASES = [  # (base, base dtype, exponent, exponent dtype); None dtype: a Python number
    ([1, -1, 2, 0, -2, -1], "int32", [-1, -3, -2, -1, -1, -2], "int32"),
    ([True, False], "bool", [-1, -2], "int64"),
    ([True, False], "bool", [True, True], "bool"),
    ([True, False], "bool", True, "bool"),  # a 0-d bool tensor exponent
    ([True, False], "bool", True, None),
    ([True, False], "bool", -1, None),
    ([2, 3], "int64", -1, None),
    ([2, 3], "int64", -1, "int64"),
    (2, None, [-1, -3], "int64"),
    (True, None, [True], "bool"),
]


@pytest.mark.parametrize("device", DEVICES)
@pytest.mark.parametrize("case", POW_CASES, ids=str)
def test_pow_bool_and_negative_integer_exponents(case: tuple, device: str) -> None:
    base, base_dtype, exponent, exponent_dtype = case
    def call(m: Any) -> Any:
        b = base if base_dtype is None else m.tensor(base, dtype=getattr(m, base_dtype))
        e = exponent if exponent_dtype is None else m.tensor(exponent, dtype=getattr(m, exponent_dtype))
        return m.pow(b, e)
    _both(call, device)


def test_pow_inplace_negative_integer_tensor_exponent() -> None:
    assert_agree(lambda: torch.tensor([2, 1, -1], dtype=torch.int32).pow_(
                     torch.tensor([-1, -2, -3], dtype=torch.int32)),
                 lambda: volta.tensor([2, 1, -1], dtype=volta.int32).pow_(
                     volta.tensor([-1, -2, -3], dtype=volta.int32)))


CLAMP_BOUNDS = [  # bounds as (kind, value): "t" a tensor of the bound's dtype, "n" a number
    (("t", "bool"), ("t", "bool")),
    (None, ("t", "bool")),
    (("t", "bool"), None),
    (("n", 0), ("n", 1)),
    (("n", False), ("n", True)),
    (("n", True), None),
    (("t", "int64"), None),
    (("t", "bool"), ("n", True)),
]


def _bound(m: Any, bound: tuple | None) -> Any:
    if bound is None:
        return None
    kind, value = bound
    return m.tensor([True, False] if value == "bool" else [0, 1], dtype=getattr(m, value)) \
        if kind == "t" else value


@pytest.mark.parametrize("device", DEVICES)
@pytest.mark.parametrize("bounds", CLAMP_BOUNDS, ids=str)
@pytest.mark.parametrize("op", ["clamp", "clip"])
def test_clamp_bool(op: str, bounds: tuple, device: str) -> None:
    _both(lambda m: getattr(m, op)(m.tensor([True, False]), *(_bound(m, b) for b in bounds)),
          device)


@pytest.mark.parametrize("device", DEVICES)
@pytest.mark.parametrize("bounds", [(("n", -5), ("t", "int32")), (("t", "int32"), ("n", 5)),
                                    (("n", -5), None), (None, ("t", "int32"))], ids=str)
@pytest.mark.parametrize("op", ["clamp", "clip"])
def test_clamp_bounds_both_tensors_or_both_numbers(op: str, bounds: tuple, device: str) -> None:
    _both(lambda m: getattr(m, op)(m.tensor([3, -9], dtype=m.int32),
                                   *(_bound(m, b) for b in bounds)), device)


@pytest.mark.parametrize("device", DEVICES)
@pytest.mark.parametrize("op", ["clamp_min", "clamp_max"])
@pytest.mark.parametrize("bound", [("t", "bool"), ("n", True), ("t", "int64")], ids=str)
def test_clamp_min_max_bool(op: str, bound: tuple, device: str) -> None:
    _both(lambda m: getattr(m, op)(m.tensor([True, False]), _bound(m, bound)), device)


@pytest.mark.parametrize("operands", [("t", 0), (1.5, "t"), ("t", "t")], ids=str)
def test_arctan2_takes_no_number(operands: tuple) -> None:
    def call(m: Any) -> Any:
        return m.arctan2(*(m.tensor([True, False]) if x == "t" else x for x in operands))
    _both(call)


TENSOR_DATA = [
    (202, "int8"), ([1, 202], "int8"), (-129, "int8"), (256, "uint8"), (-1, "uint8"),
    (-255, "uint8"), (-256, "uint8"), (255.9, "uint8"), (-255.5, "uint8"), (127.9, "int8"),
    (-3.7, "int8"), (1e40, "int32"), ([1, 2**40], "int32"), (math.nan, "int32"),
    (math.inf, "int64"), (2**63, "int64"), (2**63 - 1, "int64"), ([[1, 2], [3, 400]], "int8"),
    (2**70, "bool"), (-(2**70), "bool"), ([2**70, 0, 1.5], "bool"), (math.nan, "bool"),
    (2**70, "float32"),
]


@pytest.mark.parametrize("data", TENSOR_DATA, ids=str)
def test_tensor_numbers_must_fit_integer_dtype(data: tuple) -> None:
    value, dtype = data
    _both(lambda m: m.tensor(value, dtype=getattr(m, dtype)))


UNIFORM_BOUNDS = [(math.nan,), (0, math.nan), (-math.inf, 0), (0, math.inf), (1e39, 1e40),
                  (-1e39, 0), (0, 3e38), (-3e38, 3e38), (-6e4, 6e4), (2, 1), (1, 1), (0, 1)]


@pytest.mark.parametrize("device", DEVICES)
@pytest.mark.parametrize("dtype", ["float32", "float16", "bfloat16", "float64", "int64"])
@pytest.mark.parametrize("bounds", UNIFORM_BOUNDS, ids=str)
def test_uniform_bounds(bounds: tuple, dtype: str, device: str) -> None:
    if device == "wgpu" and dtype not in WGPU_DTYPES:
        return
    def call(m: Any) -> Any:
        # the draws differ between libraries: compare whether it raises, and the result's range
        x = m.ones(3, dtype=getattr(m, dtype))
        x = x.to(device) if m is not torch else x
        x.uniform_(*bounds)
        low, high = (bounds + (1,))[:2]
        return m.tensor(bool(((x >= low) & (x <= high)).all()))
    _both(call, device)


@pytest.mark.parametrize("dtype", ["bool", "uint8", "int8", "int16", "int64"])
@pytest.mark.parametrize("bounds", [(0, 6), (0, 2), (1, 2), (-1, 1), (0, 256), (0, 257), (-129, 0)],
                         ids=str)
def test_randint_bounds_fit_dtype(bounds: tuple, dtype: str) -> None:
    def call(m: Any) -> Any:
        x = m.randint(*bounds, (3,), dtype=getattr(m, dtype))
        return m.tensor(bool(((x >= bounds[0]) & (x < bounds[1])).all()))
    _both(call)
    _both(lambda m: m.randint_like(m.tensor([1, 0], dtype=getattr(m, dtype)), *bounds).shape[0] *
          m.ones(1))


@pytest.mark.parametrize("dtype", ["int16", "bool", "int64", "float32"])
@pytest.mark.parametrize("shape", [[0], [2, 0], [2]], ids=str)
def test_randn_empty_takes_any_dtype(shape: list, dtype: str) -> None:
    if shape == [2] and dtype == "float32":
        return  # random values: the other cases are empty or rejected
    _both(lambda m: m.randn(shape, dtype=getattr(m, dtype)))


RANGE_POINTS = [(math.inf, math.inf, 5), (1.2349046228868087e-74, math.inf, 5), (0, math.inf, 4),
                (-math.inf, 0, 5), (math.nan, 1, 3), (0, 1, 5), (-3, 7.5, 11), (1, 0, 2),
                (217, 156, 1), (1e300, 0, 1), (1e39, 0, 1), (40, 0, 1), (1e5, 0, 1), (3, 3, 1),
                (-400, 0, 1), (2, 5, 0), (300, 99, 0), (300, 99, 1), (300, 99, 2), (99, 300, 1),
                (-1, 5, 1)]


@pytest.mark.parametrize("dtype", ["float32", "float64", "float16", "int32", "int64", "uint8",
                                   "bool"])
@pytest.mark.parametrize("op", ["linspace", "logspace"])
@pytest.mark.parametrize("points", RANGE_POINTS, ids=str)
def test_linspace_logspace_points(points: tuple, op: str, dtype: str) -> None:
    if op == "linspace" and dtype == "float16" and points == (-3, 7.5, 11):
        return  # PyTorch steps in float16 itself (0.1484 for 0.15): volta's float64 is closer
    with np.errstate(all="ignore"):
        _both(lambda m: getattr(m, op)(*points, dtype=getattr(m, dtype)))


NEXTAFTER_DTYPES = [("bfloat16", "float16"), ("float32", "float64"), ("float16", "float32"),
                    ("bfloat16", "float32"), ("float64", "float16"), ("bfloat16", "bfloat16"),
                    ("float16", "float16"), ("float32", "float16"), ("int32", "float32")]


@pytest.mark.parametrize("device", DEVICES)
@pytest.mark.parametrize("dtypes", NEXTAFTER_DTYPES, ids=str)
def test_nextafter_promotes(dtypes: tuple, device: str) -> None:
    if device == "wgpu" and not set(dtypes) <= WGPU_DTYPES:
        return
    first, second = dtypes
    def call(m: Any) -> Any:
        result = m.nextafter(m.tensor([1.0, 0.0, 1.0], dtype=getattr(m, first)),
                             m.tensor([0.0, 1.0, 2.0], dtype=getattr(m, second)))
        if m is torch or device == "cpu":
            return result
        # WGPU computes float32 only (a half type's next value is its own); compare on CPU
        return result.to("cpu")
    if device == "wgpu" and "float16" in dtypes and D.promote_types(
            getattr(D, first), getattr(D, second)) is not D.float32:
        return
    _both(call, device)


GAMMA_VALUES = [1, 2.6, 3, 4, 2.2, -0.5, -1.3, 0, 0.25, math.nan, math.inf, -math.inf]


@pytest.mark.parametrize("p", [1, 2, 3, 6])
@pytest.mark.parametrize("dtype", ["float32", "float64", "int32"])
def test_mvlgamma_has_no_domain_check(p: int, dtype: str) -> None:
    values = [v for v in GAMMA_VALUES if dtype.startswith("float") or float(v).is_integer()]
    _both(lambda m: m.mvlgamma(m.tensor(values, dtype=getattr(m, dtype)), p))


@pytest.mark.parametrize("device", DEVICES)
@pytest.mark.parametrize("dtype", ["float32", "float64", "float16", "bfloat16"])
def test_lgamma_of_minus_infinity_is_infinity(dtype: str, device: str) -> None:
    if device == "wgpu" and dtype not in WGPU_DTYPES:
        return
    _both(lambda m: m.lgamma(m.tensor([-math.inf, math.inf, -2.5, -3.0, 0.5],
                                      dtype=getattr(m, dtype))), device,
          rtol=1e-5)  # WGPU's float32 lgamma near its root -2.457


@pytest.mark.parametrize("dtype", ["bfloat16", "float16"])
def test_matrix_exp_takes_half_types(dtype: str) -> None:
    _both(lambda m: m.matrix_exp(m.tensor([[1.0]], dtype=getattr(m, dtype))))
    # PyTorch's own half result of a 2x2 overflows to garbage: compare with its float32 one
    matrix = [[0.5, 1.0], [0.0, 2.0]]
    assert_agree(lambda: torch.matrix_exp(torch.tensor(matrix)).to(getattr(torch, dtype)),
                 lambda: volta.matrix_exp(volta.tensor(matrix, dtype=getattr(volta, dtype))),
                 rtol=1e-2)


POLYNOMIAL_OPERANDS = [([0, 1, 2, 200], "uint8", -5, None), (-2, "int32", [0, 5, 9], "uint8"),
                       ([0.5, -0.3], "float32", [3, 4], "int64"), ([1, 2], "int64", 3, None),
                       ([True, False], "bool", [2, 3], "uint8")]


@pytest.mark.parametrize("operands", POLYNOMIAL_OPERANDS, ids=str)
@pytest.mark.parametrize("op", ["chebyshev_polynomial_t", "legendre_polynomial_p",
                                "hermite_polynomial_h", "shifted_chebyshev_polynomial_u"])
def test_polynomial_integer_operands_go_straight_to_float(op: str, operands: tuple) -> None:
    xs, x_dtype, ns, n_dtype = operands
    def call(m: Any) -> Any:
        special = torch.special if m is torch else volta.special
        x = m.tensor(xs, dtype=getattr(m, x_dtype))
        n = m.tensor(ns, dtype=getattr(m, n_dtype)) if n_dtype else ns
        return getattr(special, op)(x, n)
    _both(call, rtol=1e-5)


@pytest.mark.parametrize("device", DEVICES)
@pytest.mark.parametrize("eps", [math.nan, 0.2, -0.2, None], ids=str)
@pytest.mark.parametrize("dtype", ["int8", "int32", "float32"])
def test_logit_nan_eps_does_not_clamp(dtype: str, eps: Any, device: str) -> None:
    if device == "wgpu" and dtype not in WGPU_DTYPES:
        return
    values = [-3, 0, 1, 2, 5] if dtype.startswith("int") else [0.0, 0.3, 1.0, 2.0, -0.1]
    _both(lambda m: m.logit(m.tensor(values, dtype=getattr(m, dtype)), eps), device)


@pytest.mark.parametrize("keywords", [{"from": -1e-169, "to": 0.41}, {"from": 2.0}, {"bogus": 1},
                                      {"from": "a"}, {"from": 2, "to": 1}], ids=str)
def test_uniform_takes_from_keyword(keywords: dict) -> None:
    def call(m: Any) -> Any:
        x = m.ones(3).uniform_(**keywords)
        low, high = keywords.get("from", 0), keywords.get("to", 1)
        return m.tensor(bool(((x >= low) & (x <= high)).all()))
    _both(call)
