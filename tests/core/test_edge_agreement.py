"""Edge cases where PyTorch accepts or rejects calls in ways its general rules do not predict:
empty inputs that skip dtype checks, operands that must share a dtype, empty tensor lists.
Each case runs through PyTorch and volta (CPU, and WGPU where the dtype exists there): both
accept with equal values, or both reject (volta with a VoltaError). The differential fuzz
(tests/fuzz) found these classes."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
import pytest
import torch

import volta
from tests.core.agreement import agree, outcome

EMPTY_MEDIAN_DTYPES = ["int64", "int32", "int16", "int8", "uint8", "bool", "float16",
                       "bfloat16", "float32", "float64"]


def _same(lib_result: Any, torch_result: Any) -> None:
    if isinstance(torch_result, tuple):
        assert isinstance(lib_result, tuple) and len(lib_result) == len(torch_result)
        for a, b in zip(lib_result, torch_result):
            _same(a, b)
        return
    expected = torch_result.float() if torch_result.dtype == torch.bfloat16 else torch_result
    actual = lib_result.cpu()
    actual = actual.to(volta.float32) if actual.dtype is volta.bfloat16 else actual
    assert actual.dtype.name == str(expected.dtype).removeprefix("torch.") or \
        torch_result.dtype == torch.bfloat16
    # equal values, NaN where PyTorch has NaN
    np.testing.assert_array_equal(actual.numpy(), expected.numpy())


def _agree(volta_call: Callable[[], Any], torch_call: Callable[[], Any]) -> None:
    agree(volta_call, torch_call, _same)


@pytest.mark.parametrize("op", ["median", "nanmedian"])
@pytest.mark.parametrize("dtype", EMPTY_MEDIAN_DTYPES)
def test_median_of_nothing_is_pytorch_nan_in_the_dtype(op: str, dtype: str) -> None:
    _agree(lambda: getattr(volta.tensor([], dtype=getattr(volta, dtype)), op)(),
           lambda: getattr(torch.tensor([], dtype=getattr(torch, dtype)), op)())


@pytest.mark.parametrize("op", ["median", "nanmedian"])
@pytest.mark.parametrize("dtype", ["int32", "bool", "float32"])
def test_wgpu_median_of_nothing_equals_the_cpu(op: str, dtype: str) -> None:
    empty = volta.tensor([], dtype=getattr(volta, dtype))
    _same(getattr(empty.to("wgpu"), op)(), getattr(torch.tensor(
        [], dtype=getattr(torch, dtype)), op)())


def _lerp_cases(lib: Any) -> dict[str, Callable[[], Any]]:
    f32 = lib.ones(3)
    f64 = lib.ones(3, dtype=lib.float64)
    return {
        "end of another dtype": lambda: lib.lerp(f64, f32, 0.5),
        "weight of another dtype": lambda: lib.lerp(f32, f32, f64),
        "in place, end of another dtype": lambda: f64.clone().lerp_(f32, 0.5),
        "same dtypes": lambda: lib.lerp(f32, f32 * 3, f32 * 0.25),
        "a number weight": lambda: lib.lerp(f64, f64 * 3, 0.5),
    }


@pytest.mark.parametrize("case", list(_lerp_cases(torch)))
def test_lerp_operands_share_self_dtype(case: str) -> None:
    _agree(_lerp_cases(volta)[case], _lerp_cases(torch)[case])


def _addcmul_cases(lib: Any, device: str = "cpu") -> dict[str, Callable[[], Any]]:
    def on(t: Any) -> Any:
        return t.to(device) if device != "cpu" else t
    b = on(lib.ones(2, dtype=lib.bool))
    i = on(lib.ones(2, dtype=lib.int64))
    return {
        "all bool": lambda: lib.addcmul(b, b, b),
        "bool factors, float self": lambda: lib.addcmul(on(lib.ones(2)), b, b),
        "int": lambda: lib.addcmul(i, b, i),
    }


@pytest.mark.parametrize("device", ["cpu", "wgpu"])
@pytest.mark.parametrize("case", list(_addcmul_cases(torch)))
def test_addcmul_rejects_a_bool_result(case: str, device: str) -> None:
    _agree(_addcmul_cases(volta, device)[case], _addcmul_cases(torch)[case])


@pytest.mark.parametrize("fn", ["atleast_1d", "atleast_2d", "atleast_3d"])
def test_atleast_nd_of_an_empty_list_is_an_empty_tuple(fn: str) -> None:
    assert getattr(volta, fn)([]) == getattr(torch, fn)([]) == ()


@pytest.mark.parametrize("fn", ["atleast_2d", "block_diag", "cartesian_prod", "stack", "cat",
                                "broadcast_tensors"])
def test_a_list_of_non_tensors_is_an_argument_error(fn: str) -> None:
    with pytest.raises(TypeError):
        getattr(torch, fn)([[1]] if fn != "stack" and fn != "cat" else [1])
    with pytest.raises(volta.ArgumentError, match="expected Tensor as element 0"):
        getattr(volta, fn)([[1]] if fn != "stack" and fn != "cat" else [1])


@pytest.mark.parametrize("fill", ["exponential_", "log_normal_", "normal_", "cauchy_"])
@pytest.mark.parametrize("dtype", ["bool", "int64", "float32"])
@pytest.mark.parametrize("numel", [0, 2])
def test_random_fills_check_dtypes_as_pytorch_does(fill: str, dtype: str, numel: int) -> None:
    ok_v, got_v = outcome(lambda: getattr(volta.zeros(numel, dtype=getattr(volta, dtype)),
                                           fill)())
    ok_t, got_t = outcome(lambda: getattr(torch.zeros(numel, dtype=getattr(torch, dtype)),
                                           fill)())
    assert ok_v == ok_t, (got_v, got_t)
    if ok_v:
        assert tuple(got_v.shape) == tuple(got_t.shape) and got_v.dtype.name == dtype
    else:
        assert isinstance(got_v, volta.VoltaError)


@pytest.mark.parametrize("value", [-9.334457062847372, 2.7, -0.5, 300, 300.5, float("nan"),
                                   1e40, float("inf")])
@pytest.mark.parametrize("dtype", ["int8", "int32", "int64", "float16", "float32"])
@pytest.mark.parametrize("device", ["cpu", "wgpu"])
def test_addcmul_converts_value_to_the_computation_dtype(value: float, dtype: str,
                                                         device: str) -> None:
    """PyTorch converts ``value`` (checked) to the computation's dtype before it multiplies:
    an integral result truncates a float value, NaN or an out-of-range value is an error."""
    if device == "wgpu" and dtype in ("int8", "float16"):
        device = "cpu"  # WGPU has neither dtype (float16 needs shader-f16): run the CPU case

    def args(lib: Any) -> tuple:
        made = (lib.tensor(1, dtype=getattr(lib, dtype)),
                lib.tensor([1, -2], dtype=getattr(lib, dtype)),
                lib.tensor([100], dtype=getattr(lib, dtype)))
        return tuple(t.to(device) for t in made) if lib is volta else made
    _agree(lambda: volta.addcmul(*args(volta), value=value),
           lambda: torch.addcmul(*args(torch), value=value))


INDEX_OPS = ["index_select", "index_add", "index_fill", "index_copy", "embedding", "gather",
             "scatter", "scatter_add", "scatter_reduce", "take", "put"]


def _index_call(lib: Any, op: str, index_dtype: str, numel: int, device: str) -> Any:
    def on(t: Any) -> Any:
        return t.to(device) if lib is volta and device != "cpu" else t
    x = on(lib.zeros(3, 2))
    index = on(lib.zeros(numel, dtype=getattr(lib, index_dtype)))
    rows = on(lib.ones(numel, 2))
    grid = index.reshape(numel, 1).expand(numel, 2) if numel else index.reshape(0, 2)
    return {
        "index_select": lambda: x.index_select(0, index),
        "index_add": lambda: x.index_add(0, index, rows),
        "index_fill": lambda: x.index_fill(0, index, 1.0),
        "index_copy": lambda: x.index_copy(0, index, rows),
        "embedding": lambda: lib.nn.functional.embedding(index, x),
        "gather": lambda: x.gather(0, grid),
        "scatter": lambda: x.scatter(0, grid, rows),
        "scatter_add": lambda: x.scatter_add(0, grid, rows),
        "scatter_reduce": lambda: x.scatter_reduce(0, grid, rows, "sum"),
        "take": lambda: x.take(index),
        "put": lambda: x.put(index, on(lib.ones(numel))),
    }[op]()


@pytest.mark.parametrize("numel", [0, 1])
@pytest.mark.parametrize("index_dtype", ["int64", "int32", "int16", "uint8", "bool"])
@pytest.mark.parametrize("op", INDEX_OPS)
def test_index_dtypes_as_pytorch_takes_them(op: str, index_dtype: str, numel: int) -> None:
    """Note [index dtypes]: int32/int64 for most, int64 only for some, and no check at all
    for an empty index of the gather/scatter family."""
    _agree(lambda: _index_call(volta, op, index_dtype, numel, "cpu"),
           lambda: _index_call(torch, op, index_dtype, numel, "cpu"))


@pytest.mark.parametrize("numel", [0, 1])
@pytest.mark.parametrize("index_dtype", ["int64", "int32", "bool"])
@pytest.mark.parametrize("op", INDEX_OPS)
def test_wgpu_index_dtypes_as_pytorch_takes_them(op: str, index_dtype: str, numel: int) -> None:
    _agree(lambda: _index_call(volta, op, index_dtype, numel, "wgpu"),
           lambda: _index_call(torch, op, index_dtype, numel, "cpu"))


@pytest.mark.parametrize("fn", ["hermite_polynomial_h", "hermite_polynomial_he",
                                "chebyshev_polynomial_t", "chebyshev_polynomial_u",
                                "chebyshev_polynomial_v", "chebyshev_polynomial_w",
                                "shifted_chebyshev_polynomial_t",
                                "shifted_chebyshev_polynomial_u"])
def test_orthogonal_polynomials_of_a_huge_degree_agree_without_looping_to_it(fn: str) -> None:
    """Degrees the recurrence need not reach: overflowed (NaN) terms, the closed form inside
    (-1, 1) and the endpoint values. Each would take the CPU kernel's vectorised recurrence
    minutes at n = 10**7 (the fuzz drew such a degree and stalled)."""
    x = [0.0, 0.5, 1.0, -1.0, 3.0, -0.25]
    n = [10 ** 7, 10 ** 7 + 1, 10 ** 7 + 3, 10 ** 7, 10 ** 7, 5]
    expected = getattr(torch.special, fn)(torch.tensor(x, dtype=torch.float64), torch.tensor(n))
    actual = getattr(volta.special, fn)(volta.tensor(x, dtype=volta.float64), volta.tensor(n))
    # the closed form at n = 10**7 is ill-conditioned: PyTorch's and volta's cos/sin of a huge
    # argument agree to about 1e-9 in float64
    np.testing.assert_allclose(actual.numpy(), expected.numpy(), rtol=1e-6, atol=1e-6)


@pytest.mark.parametrize("values, dtype", [([True, False, True], "bool"), ([[1]], "bool"),
                                           ([], "bool"), ([1.0], "float32"), ([1, 3], "int64"),
                                           ([1, 0], "int32"), ([[1]], "int64")])
@pytest.mark.parametrize("device", ["cpu", "wgpu"])
def test_bincount_counts_integers_only(values: list, dtype: str, device: str) -> None:
    _agree(lambda: volta.bincount(volta.tensor(values, dtype=getattr(volta, dtype)).to(device)),
           lambda: torch.bincount(torch.tensor(values, dtype=getattr(torch, dtype))))


def _clamp_bound_cases(lib: Any) -> dict[str, Callable[[], Any]]:
    ints = lib.tensor([1, 5, -3])
    floats = lib.tensor([1.0, 5.0, -3.0])
    return {
        "0d-float-min-int-max": lambda: lib.clamp(ints, lib.tensor(0.5), 3),
        "int-min-0d-max": lambda: lib.clip(floats, 0, lib.tensor(2, dtype=lib.int64)),
        "0d-int32-min-number-max": lambda: lib.clip(floats, min=lib.tensor(0, dtype=lib.int32),
                                                   max=3),
        "0d-bool-min": lambda: lib.clamp(ints, lib.tensor(True), 3),
        "1d-min-number-max": lambda: lib.clip(floats, lib.tensor([0.0, 1.0, 2.0]), 3),
        "number-min-1d-max": lambda: lib.clamp(floats, 0, lib.tensor([3.0, 2.0, 1.0])),
        "0d-min-requiring-grad": lambda: lib.clamp(floats, lib.tensor(0.5, requires_grad=True),
                                                   3),
        "two-tensors": lambda: lib.clamp(floats, lib.tensor(0.5), lib.tensor([3.0, 2.0, 1.0])),
    }


def _volta_on(device: str) -> Any:
    """volta with ``tensor`` making tensors on ``device``, for the cases written against a lib."""
    from types import SimpleNamespace
    return SimpleNamespace(clamp=volta.clamp, clip=volta.clip, int64=volta.int64,
                           int32=volta.int32,
                           tensor=lambda *a, **k: volta.tensor(*a, **k).to(device))


@pytest.mark.parametrize("case", sorted(_clamp_bound_cases(torch)))
@pytest.mark.parametrize("device", ["cpu", "wgpu"])
def test_clamp_takes_a_0d_tensor_with_a_number_bound_as_pytorch_does(case: str,
                                                                      device: str) -> None:
    """A 0-d tensor that does not require grad is a number where PyTorch takes a Scalar, so one
    with a number bound picks clamp's Scalar overload; a larger one there is an error."""
    _agree(_clamp_bound_cases(_volta_on(device))[case], _clamp_bound_cases(torch)[case])


@pytest.mark.parametrize("call", [
    lambda m: m.ones(2) - False,
    lambda m: m.sub(False, m.ones(2)),
    lambda m: m.subtract(m.ones(2, dtype=m.int64), True),
    lambda m: m.ones(2).sub(True, alpha=2),
    lambda m: m.sub(m.ones(2), 1, alpha=True),
    lambda m: m.nn.functional.hardtanh(m.ones(2), True, 2),
    lambda m: m.ones(2) - 1,
])
def test_a_python_bool_operand_of_sub_is_a_bool_tensor(call) -> None:
    """PyTorch wraps a Python bool as a bool tensor, so sub (ops.yaml ``dtypes: numeric``)
    rejects it as it rejects a bool tensor; Scalar arguments (alpha, hardtanh's bounds) are not
    operands."""
    _agree(lambda: call(volta), lambda: call(torch))


@pytest.mark.parametrize("fn", ["cat", "stack", "hstack", "vstack", "dstack", "column_stack"])
@pytest.mark.parametrize("dtypes", [("float16", "bfloat16"), ("bfloat16", "int64", "uint8"),
                                    ("float16", "bfloat16", "int8")])
def test_joining_tensors_of_both_half_types_promotes_as_pytorch_does(fn: str,
                                                                     dtypes: tuple) -> None:
    """numpy has no common type of float16 and bfloat16; PyTorch's is float32."""
    def call(lib: Any) -> Any:
        return getattr(lib, fn)([lib.arange(4).reshape(2, 2).to(getattr(lib, d))
                                 for d in dtypes])
    _agree(lambda: call(volta), lambda: call(torch))


@pytest.mark.parametrize("fn", ["vector_norm", "norm"])
@pytest.mark.parametrize("dtype, out", [("int64", "float32"), ("bool", None), ("float32", "int32"),
                                        ("float32", "float16"), ("float16", "float32"),
                                        ("float32", None), ("float16", "bfloat16")])
@pytest.mark.parametrize("device", ["cpu", "wgpu"])
def test_vector_norm_checks_the_input_and_dtype_as_pytorch_does(fn: str, dtype: str, out: Any,
                                                                device: str) -> None:
    """A floating input only, even with a floating ``dtype``; a dtype that does not narrow."""
    if device == "wgpu" and "bfloat16" in (dtype, out):
        return  # wgpu has no bfloat16 tensors (the CPU case covers the rule)
    def call(lib: Any, to: Any = lambda t: t) -> Any:
        fn_ = getattr(lib.linalg, fn) if fn == "vector_norm" else lib.norm
        kwargs = {} if out is None else {"dtype": getattr(lib, out)}
        return fn_(to(lib.tensor([3, 4]).to(getattr(lib, dtype))), **kwargs)
    _agree(lambda: call(volta, lambda t: t.to(device)), lambda: call(torch))


@pytest.mark.parametrize("out", ["int8", "int64", "bool", "float64", "float16"])
def test_nanmean_takes_a_floating_dtype_only(out: str) -> None:
    _agree(lambda: volta.nanmean(volta.tensor([1.0, float("nan"), 2.0]), dtype=getattr(volta, out)),
           lambda: torch.nanmean(torch.tensor([1.0, float("nan"), 2.0]), dtype=getattr(torch, out)))


def test_bernoulli_takes_p_none_only_by_omission() -> None:
    """PyTorch's bernoulli(t) and bernoulli(t, p) are two overloads (``none_by_omission``)."""
    probabilities = [0.0, 1.0]
    for call in (lambda m: m.bernoulli(m.tensor(probabilities), p=None),
                 lambda m: m.tensor(probabilities).bernoulli(None)):
        _agree(lambda: call(volta), lambda: call(torch))
    _agree(lambda: volta.bernoulli(volta.tensor(probabilities)),
           lambda: torch.bernoulli(torch.tensor(probabilities)))


@pytest.mark.parametrize("shape", [(), (3,), (3, 2), (0,), (2, 0)])
@pytest.mark.parametrize("dtype", ["int64", "bool", "float32"])
@pytest.mark.parametrize("keepdim", [False, True])
@pytest.mark.parametrize("device", ["cpu", "wgpu"])
def test_logsumexp_over_no_dims_as_pytorch(shape: tuple, dtype: str, keepdim: bool,
                                                       device: str) -> None:
    """PyTorch rejects logsumexp(dim=[]) of a non-empty tensor of 1 or more dims unless
    keepdim."""
    _agree(lambda: volta.logsumexp(volta.ones(shape, dtype=getattr(volta, dtype)).to(device), [],
                                   keepdim),
           lambda: torch.logsumexp(torch.ones(shape, dtype=getattr(torch, dtype)), [], keepdim))


@pytest.mark.parametrize("eps", [float("nan"), -1e-8, 0.0, 1e-8])
def test_cosine_similarity_rejects_a_nan_eps(eps: float) -> None:
    _agree(lambda: volta.nn.functional.cosine_similarity(volta.ones(2, 3), volta.ones(2, 3),
                                                         eps=eps),
           lambda: torch.nn.functional.cosine_similarity(torch.ones(2, 3), torch.ones(2, 3),
                                                         eps=eps))


@pytest.mark.parametrize("dtype", ["int32", "int64", "float32", "float64"])
@pytest.mark.parametrize("var", [2.0, 0.5, 0.0, -1.0, 2])
def test_gaussian_nll_loss_with_a_float_var_as_pytorch(dtype: str, var: Any) -> None:
    """A float var is that variance everywhere, floating even for an integer input."""
    def call(lib: Any) -> Any:
        values = lib.arange(6).reshape(2, 3).to(getattr(lib, dtype))
        return lib.nn.functional.gaussian_nll_loss(values, values * 2, var)
    agree(lambda: call(volta), lambda: call(torch),
          lambda v, t: np.testing.assert_allclose(v.numpy(), t.numpy(), rtol=1e-6))


@pytest.mark.parametrize("shape", [(0, 3), (2, 3)])
@pytest.mark.parametrize("dtype", ["bool", "int64", "float16", "float32"])
@pytest.mark.parametrize("p", [0.0, 0.3, 1.0])
def test_dropout_of_a_non_floating_tensor_as_pytorch(shape: tuple, dtype: str, p: float) -> None:
    """Training dropout with 0 < p < 1 scales in place by a float: only an empty integer or
    bool tensor passes."""
    def same(v: Any, t: Any) -> None:
        assert v.dtype.name == str(t.dtype).removeprefix("torch.") and v.shape == t.shape
    agree(lambda: volta.nn.functional.dropout(volta.ones(shape, dtype=getattr(volta, dtype)), p,
                                              True),
          lambda: torch.nn.functional.dropout(torch.ones(shape, dtype=getattr(torch, dtype)), p,
                                              True), same)


def _lu_unpack_cases(lib: Any) -> dict[str, Callable[[], Any]]:
    LU = lib.ones(3, 3)
    pivots = lib.tensor([1, 2, 3], dtype=lib.int32)
    return {
        "bool LU, data only": lambda: lib.lu_unpack(LU.bool(), pivots, True, False),
        "uint8 pivots, data only": lambda: lib.lu_unpack(LU, pivots.to(lib.uint8), True, False),
        "uint8 pivots unpacked": lambda: lib.lu_unpack(LU, pivots.to(lib.uint8), True, True),
        "float pivots, nothing": lambda: lib.lu_unpack(LU, pivots.float(), False, False),
        "0-d pivots, data only": lambda: lib.lu_unpack(LU, lib.tensor(1.0), True, False),
        "bool LU, both": lambda: lib.lu_unpack(LU.bool(), pivots, True, True),
        "int LU, both": lambda: lib.lu_unpack(LU.int(), pivots, True, True),
        "1-d LU, nothing": lambda: lib.lu_unpack(lib.ones(3), pivots, False, False),
    }


@pytest.mark.parametrize("case", sorted(_lu_unpack_cases(torch)))
def test_lu_unpack_checks_the_pivots_only_when_it_unpacks_them(case: str) -> None:
    _agree(lambda: tuple(_lu_unpack_cases(volta)[case]()),
           lambda: tuple(_lu_unpack_cases(torch)[case]()))


@pytest.mark.parametrize("threshold, value", [(0.49, -2.4e-43), (0.5, 7.9), (-0.5, 9), (1.9, 2.5),
                                              (float("nan"), 0), (0, float("inf")), (2**40, 1)])
@pytest.mark.parametrize("dtype", ["int32", "uint8", "bool", "float16", "float32"])
def test_threshold_keeps_the_dtype_and_truncates_numbers_for_integers(
        threshold: float, value: float, dtype: str) -> None:
    _agree(lambda: volta.nn.functional.threshold(
               volta.tensor([-2, 0, 1, 3]).to(getattr(volta, dtype)), threshold, value),
           lambda: torch.nn.functional.threshold(
               torch.tensor([-2, 0, 1, 3]).to(getattr(torch, dtype)), threshold, value))


@pytest.mark.parametrize("call", [
    lambda m: m.full([2], float("inf"), dtype=m.int8),
    lambda m: m.full([2], 300.5, dtype=m.int8),
    lambda m: m.full([2], 2.7, dtype=m.int8),
    lambda m: m.full([2], float("nan"), dtype=m.int64),
    lambda m: m.full([2], float("nan"), dtype=m.bool),
    lambda m: m.nn.functional.hardtanh(m.ones(3, dtype=m.uint8), float("inf"), float("inf")),
    lambda m: m.nn.functional.hardtanh(m.ones(3, dtype=m.int32), float("-inf"), 2.0),
    lambda m: m.nn.functional.hardtanh(m.ones(3, dtype=m.int32), -2.5, 2.5),
    lambda m: m.nn.functional.pdist(m.ones(3, 2), float("nan")),
    lambda m: m.topk(m.tensor([True, False]), 1),
    lambda m: m.topk(m.tensor([], dtype=m.bool), 0),
])
def test_numbers_an_integer_dtype_cannot_hold_are_errors_not_raw(call) -> None:
    """A non-finite or out-of-range float for an integer tensor is PyTorch's overflow error (a
    VoltaError, not Python's OverflowError); pdist's p and topk's dtype as PyTorch checks them."""
    _agree(lambda: call(volta), lambda: call(torch))


@pytest.mark.parametrize("dtype", ["bool", "int32", "float32"])
def test_wgpu_topk_checks_the_dtype_as_the_cpu(dtype: str) -> None:
    _agree(lambda: volta.topk(volta.tensor([1, 0]).to(getattr(volta, dtype)).to("wgpu"), 1),
           lambda: torch.topk(torch.tensor([1, 0]).to(getattr(torch, dtype)), 1))


@pytest.mark.parametrize("value", [2**70, -(2**70), 2**40, 1.5])
@pytest.mark.parametrize("device", ["cpu", "wgpu"])
def test_index_fill_takes_a_scalar_value_only_within_int64(value: Any, device: str) -> None:
    def call(lib: Any, to: Any = lambda t: t) -> Any:
        return to(lib.zeros(3)).index_fill_(0, to(lib.tensor([0, 2])), value)
    _agree(lambda: call(volta, lambda t: t.to(device)), lambda: call(torch))


@pytest.mark.parametrize("values, dtype, shape", [
    ([3, 1], "uint8", [1]), ([[3, 1]], "int32", []), ([0, 3, 5, -1, 7, -7], "int64", [2, 3]),
    ([3, 1], "int64", [2]), ([3.0], "float32", [2]), ([3, 1], "int16", [0]),
    ([[9, -13], [2, 30]], "int64", [2, 3, 2]),
])
def test_unravel_index_wraps_an_index_outside_as_pytorch(values: list, dtype: str,
                                                        shape: list) -> None:
    _agree(lambda: volta.unravel_index(volta.tensor(values, dtype=getattr(volta, dtype)), shape),
           lambda: torch.unravel_index(torch.tensor(values, dtype=getattr(torch, dtype)), shape))


def _negative_index_cases(lib: Any) -> dict[str, Callable[[], Any]]:
    t = lib.arange(12.0).reshape(4, 3)
    minus = lib.tensor([[-1, 0, 0]])
    return {
        "gather": lambda: lib.gather(t, 0, minus),
        "scatter": lambda: t.scatter(0, minus, 1.0),
        "scatter_add": lambda: t.scatter_add(0, minus, lib.ones(1, 3)),
        "scatter_reduce": lambda: t.scatter_reduce(0, minus, lib.ones(1, 3), "amax"),
        "take_along_dim flat": lambda: lib.take_along_dim(t, lib.tensor([[-3]])),
        "take_along_dim dim": lambda: lib.take_along_dim(t, lib.tensor([[-3, 1, 2]]), dim=0),
        "take_along_dim dim -1": lambda: lib.take_along_dim(t, lib.tensor([[-1], [0], [2], [-3]]),
                                                            dim=-1),
        "index_fill": lambda: t.index_fill(0, lib.tensor([-1]), 2.0),
    }


@pytest.mark.parametrize("case", sorted(_negative_index_cases(torch)))
@pytest.mark.parametrize("device", ["cpu", "wgpu"])
def test_gather_and_scatter_reject_a_negative_index_as_pytorch(case: str, device: str) -> None:
    """gather and the scatters take indices in [0, size); take_along_dim with a dim and
    index_fill wrap a negative one."""
    def on(lib: Any) -> Any:
        from types import SimpleNamespace
        return SimpleNamespace(
            arange=lambda *a, **k: volta.arange(*a, **k).to(device),
            tensor=lambda *a, **k: volta.tensor(*a, **k).to(device),
            ones=lambda *a, **k: volta.ones(*a, **k).to(device),
            gather=volta.gather, take_along_dim=volta.take_along_dim)
    _agree(_negative_index_cases(on(volta))[case], _negative_index_cases(torch)[case])


@pytest.mark.parametrize("call", [
    lambda m: m.trapezoid(m.ones(3, 0, dtype=m.float64), dx=True),
    lambda m: m.trapezoid(m.ones(3, 2), dx=True),
    lambda m: m.trapezoid(m.ones(3, 0), dx=True, dim=0),
    lambda m: m.unique_consecutive(m.ones(0, dtype=m.float64), False, True, -1),
    lambda m: m.unique_consecutive(m.ones(0, 3), return_counts=True, dim=0),
    lambda m: m.unique_consecutive(m.ones(2, 0), return_inverse=True, dim=1),
    lambda m: m.nn.functional.fractional_max_pool3d(m.ones(1, 1, 3, 2, 2), object(), [2, 3, 2]),
])
def test_empty_inputs_and_odd_arguments_as_pytorch(call) -> None:
    """trapezoid checks dx only with samples to integrate; unique_consecutive along an empty dim;
    a kernel_size of the wrong type is an ArgumentError (not Python's TypeError)."""
    _agree(lambda: call(volta), lambda: call(torch))


@pytest.mark.parametrize("call", [
    lambda m: m.nn.functional.group_norm(m.ones(2, 0, 4, 3, dtype=m.bool), 6),
    lambda m: m.nn.functional.group_norm(m.ones(2, 6, 4, dtype=m.int64), 3),
    lambda m: m.nn.functional.group_norm(m.ones(2, 6, dtype=m.float16), 3),
    lambda m: m.cholesky_inverse(m.tensor([[1.0, 0.0], [0.0, 0.0]])),
    lambda m: m.cholesky_inverse(m.tensor([[1.0, 0.0], [0.0, -2.0]])),
    lambda m: m.cholesky_inverse(m.tensor([[[1.0, 0.0], [0.0, 2.0]], [[0.0, 0.0], [1.0, 2.0]]])),
    lambda m: m.cholesky_inverse(m.ones(0, 2, 2)),
])
def test_group_norm_dtypes_and_singular_cholesky_factors_as_pytorch(call) -> None:
    """group_norm takes floating inputs only (even empty ones); cholesky_inverse rejects a
    factor with a zero on its diagonal."""
    agree(lambda: call(volta), lambda: call(torch),
          lambda v, t: np.testing.assert_allclose(v.float().numpy(), t.float().numpy(),
                                                  rtol=1e-3))


@pytest.mark.parametrize("dtypes", [("float16", "int64", "int32"), ("float32", "int64", "float32"),
                                    ("float32", "int64", "bool"), ("float32", "float32", "int32"),
                                    ("int64", "int64", "int64")])
@pytest.mark.parametrize("inplace", [False, True])
@pytest.mark.parametrize("device", ["cpu", "wgpu"])
def test_addcdiv_of_two_integer_tensors_is_rejected_as_in_pytorch(dtypes: tuple, inplace: bool,
                                                                  device: str) -> None:
    def call(lib: Any, to: Any = lambda t: t) -> Any:
        self, t1, t2 = (to(lib.full((2,), 3).to(getattr(lib, d))) for d in dtypes)
        return self.addcdiv_(t1, t2, value=2) if inplace else lib.addcdiv(self, t1, t2, value=2)
    _agree(lambda: call(volta, lambda t: t.to(device)), lambda: call(torch))


@pytest.mark.parametrize("lambd", [float("inf"), float("nan"), 3.5e38, 3e38, 70000.0, 0.0, -1.0])
@pytest.mark.parametrize("dtype", ["float32", "float64", "float16"])
def test_softshrink_lambda_must_fit_the_dtype(lambd: float, dtype: str) -> None:
    # PyTorch's softshrink checks lambd against the input dtype's range (hardshrink does not)
    _agree(lambda: volta.nn.functional.softshrink(volta.ones(2, dtype=getattr(volta, dtype)),
                                                  lambd),
           lambda: torch.nn.functional.softshrink(torch.ones(2, dtype=getattr(torch, dtype)),
                                                  lambd))
