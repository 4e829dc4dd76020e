"""Loss functions, distances, isclose/isin/searchsorted, masked_scatter and index_add_ agree
with PyTorch on the calls the differential fuzz (tests/fuzz) found them disagreeing on: both
accept with equal results, or both reject (volta with a VoltaError)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
import pytest
import torch
import torch.nn.functional as TF

import volta
import volta.nn.functional as VF
from volta.errors import VoltaError

DTYPES = ("float32", "float16", "bfloat16", "float64", "int8", "uint8", "int16", "int32",
          "int64", "bool")


def _pair(shape: tuple[int, ...], dtype: str, seed: int = 0) -> tuple[volta.Tensor, torch.Tensor]:
    """The same values as a volta and a torch tensor (signed values in [-2, 2))."""
    values = np.random.default_rng(seed).uniform(-2, 2, shape)
    t = torch.tensor(values).to(getattr(torch, dtype))
    v = volta.tensor(t.to(torch.float64).numpy()).to(getattr(volta, dtype))
    return v, t


def _agree(v_call: Callable[[], Any], t_call: Callable[[], Any], atol: float = 1e-6) -> None:
    """Both accept with equal results, or both reject (volta with a VoltaError)."""
    try:
        expected = t_call()
    except Exception:
        with pytest.raises(VoltaError):
            v_call()
        return
    result = v_call()
    assert tuple(result.shape) == tuple(expected.shape)
    assert str(result.dtype).split(".")[-1] == str(expected.dtype).split(".")[-1]
    np.testing.assert_allclose(result.to(volta.float64).numpy() if result.dtype.is_floating_point
                               else result.numpy(),
                               expected.double().numpy() if expected.dtype.is_floating_point
                               else expected.numpy(), atol=atol, rtol=1e-3)


# -- a number where only a Tensor goes -------------------------------------------------------

@pytest.mark.parametrize("name,v_fn,t_fn,extra", [
    ("dist", volta.dist, torch.dist, ()),
    ("inner", volta.inner, torch.inner, ()),
    ("pairwise_distance", VF.pairwise_distance, TF.pairwise_distance, ()),
    ("cosine_similarity", VF.cosine_similarity, TF.cosine_similarity, ()),
    ("soft_margin_loss", VF.soft_margin_loss, TF.soft_margin_loss, ("none",)),
])
@pytest.mark.parametrize("number", [1, -3.5])
def test_number_for_tensor_argument_rejected(name: str, v_fn: Any, t_fn: Any, extra: tuple,
                                             number: float) -> None:
    v, t = _pair((), "float32")
    with pytest.raises(TypeError, match="must be Tensor"):
        t_fn(t, number, *extra)
    with pytest.raises(VoltaError, match=rf"{name}\(\): argument '\w+' \(position 2\) must be "
                                         rf"Tensor, not {type(number).__name__}"):
        v_fn(v, number, *extra)


def test_poisson_nll_loss_takes_every_argument() -> None:
    v, t = _pair((3,), "float32")
    with pytest.raises(TypeError):
        torch.poisson_nll_loss(t, t, False, False, 0)  # type: ignore[call-arg]
    with pytest.raises(VoltaError, match="reduction"):
        volta.poisson_nll_loss(v, v, False, False, 0)
    _agree(lambda: volta.poisson_nll_loss(v, v.abs(), False, True, 1e-8, "sum"),
           lambda: torch.poisson_nll_loss(t, t.abs(), False, True, 1e-8, 1))


@pytest.mark.parametrize("var", [0, 1, True, 0.5, 2.0])
def test_gaussian_nll_loss_number_var_must_be_float(var: Any) -> None:
    v, t = _pair((2, 3), "float32")
    _agree(lambda: VF.gaussian_nll_loss(v, v * 0.5, var), lambda: TF.gaussian_nll_loss(t, t * 0.5, var))


# -- dtypes PyTorch's loss kernels have ------------------------------------------------------

PAIR_DTYPES = ("float32", "float16", "float64", "int8", "uint8", "int32", "bool")


@pytest.mark.parametrize("input_dtype", PAIR_DTYPES)
@pytest.mark.parametrize("target_dtype", PAIR_DTYPES)
@pytest.mark.parametrize("name", ["smooth_l1_loss", "huber_loss"])
def test_regression_loss_dtypes(name: str, input_dtype: str, target_dtype: str) -> None:
    """Input's and target's common dtype must be floating; huber_loss writes into input's
    dtype, so an integer input with a float target cannot hold its result."""
    v, t = _pair((2, 3), input_dtype)
    vt, tt = _pair((2, 3), target_dtype, seed=1)
    for reduction in ("none", "mean"):
        _agree(lambda: getattr(VF, name)(v, vt, reduction=reduction),
               lambda: getattr(TF, name)(t, tt, reduction=reduction), atol=2e-3)


def test_regression_loss_empty_integer_operands_rejected() -> None:
    v, t = _pair((), "int16")
    ve, te = _pair((0, 1, 3), "int16")
    _agree(lambda: volta.smooth_l1_loss(v, ve), lambda: TF.smooth_l1_loss(t, te))
    with pytest.raises(VoltaError, match="result type Float can't be cast to the desired output "
                                         "type Byte"):
        VF.huber_loss(_pair((2,), "uint8")[0], _pair((2,), "float32")[0], delta=0.98)


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("name", ["multilabel_margin_loss", "multi_margin_loss"])
def test_margin_loss_dtypes(name: str, dtype: str) -> None:
    """PyTorch's multi-class margin loss kernels are float32/float64 only."""
    v, t = _pair((2, 3), dtype)
    if name == "multilabel_margin_loss":
        target = [[0, 2, -1], [1, -1, 0]]
    else:
        target = [2, 0]
    _agree(lambda: getattr(VF, name)(v, volta.tensor(target)),
           lambda: getattr(TF, name)(t, torch.tensor(target)))


@pytest.mark.parametrize("device", ["cpu", "wgpu"])
@pytest.mark.parametrize("seq_dtype,values_dtype", [
    ("bool", "bool"), ("bool", "int64"), ("int64", "bool"), ("float32", "bool"),
    ("bool", "float32"), ("int32", "int32")])
def test_searchsorted_bool(device: str, seq_dtype: str, values_dtype: str) -> None:
    """No bool kernel: rejected when boundaries and values promote to bool."""
    seq = torch.tensor([[0, 0, 1, 1], [0, 1, 1, 1]]).to(getattr(torch, seq_dtype))
    values = torch.tensor([[1, 0], [0, 1]]).to(getattr(torch, values_dtype))
    v_seq = volta.tensor(seq.long().numpy()).to(getattr(volta, seq_dtype)).to(device)
    v_values = volta.tensor(values.long().numpy()).to(getattr(volta, values_dtype)).to(device)
    _agree(lambda: volta.searchsorted(v_seq, v_values, out_int32=True).to("cpu"),
           lambda: torch.searchsorted(seq, values, out_int32=True))
    _agree(lambda: volta.searchsorted(v_seq, True).to("cpu"),
           lambda: torch.searchsorted(seq, True))


# -- isclose, isin, masked_scatter, index_add_ ---------------------------------------------------

@pytest.mark.parametrize("dtype", ["int16", "float32"])
@pytest.mark.parametrize("tolerances", [{"rtol": float("nan")}, {"atol": float("nan")},
                                        {"rtol": -1.0}, {"rtol": float("inf")}])
def test_isclose_nan_tolerance_rejected(dtype: str, tolerances: dict) -> None:
    v, t = _pair((2, 3), dtype)
    _agree(lambda: volta.isclose(v, v, **tolerances), lambda: torch.isclose(t, t, **tolerances))


@pytest.mark.parametrize("device", ["cpu", "wgpu"])
@pytest.mark.parametrize("case", ["dtype_first", "dtype_second", "bool_number", "bool_tensor",
                                  "list", "float_number", "tensors"])
def test_isin_operands(device: str, case: str) -> None:
    """A Tensor or a non-bool, non-complex number on each side; no bool tensor either."""
    def operands(lib: Any) -> tuple[Any, Any]:
        t = lib.tensor([1, 2, 3])
        if lib is volta:
            t = t.to(device)
        return {"dtype_first": (lib.float32, t), "dtype_second": (t, lib.float32),
                "bool_number": (t, True), "bool_tensor": (t, t > 1), "list": (t, [1, 2]),
                "float_number": (2.0, t), "tensors": (t, t[:2])}[case]
    _agree(lambda: volta.isin(*operands(volta)).to("cpu"), lambda: torch.isin(*operands(torch)))


@pytest.mark.parametrize("device", ["cpu", "wgpu"])
@pytest.mark.parametrize("shape", [(0, 4, 1), (2, 3)])
@pytest.mark.parametrize("source_dtype", ["float16", "int32", "float32"])
def test_masked_scatter_source_dtype(device: str, shape: tuple, source_dtype: str) -> None:
    v, t = _pair(shape, "float32")
    vm, tm = _pair(shape, "bool", seed=2)
    vs, ts = _pair((6,), source_dtype, seed=3)
    _agree(lambda: volta.masked_scatter(v.to(device), vm.to(device), vs.to(device)).to("cpu"),
           lambda: torch.masked_scatter(t, tm, ts))


INDEX_ADD_CASES = {
    # name: (self shape, dim, index values, source shape, source dtype)
    "index_3d": ((1, 1, 4), -1, [[[0, 1, 2, 3]]], (1, 1, 4), "int64"),
    "index_2d_empty": ((3,), 0, np.zeros((0, 1)), (0,), "int64"),
    "index_0d": ((3,), 0, 1, (1,), "int64"),
    "index_0d_source_0d": ((3,), 0, 1, (), "int64"),
    "self_0d": ((), 0, [0], (1,), "int64"),
    "both_0d": ((), 0, 0, (), "int64"),
    "source_dtype": ((3, 2), 0, [2, 0], (2, 2), "int32"),
    "count": ((3, 2), 0, [1], (2, 2), "int64"),
    "matching": ((3, 2), 1, [1, 1, 0], (3, 3), "int64"),
}


@pytest.mark.parametrize("device", ["cpu", "wgpu"])
@pytest.mark.parametrize("case", sorted(INDEX_ADD_CASES))
def test_index_add_checks(device: str, case: str) -> None:
    shape, dim, index, source_shape, source_dtype = INDEX_ADD_CASES[case]
    v, t = _pair(shape, "int64")
    vs, ts = _pair(source_shape, source_dtype, seed=1)
    vi, ti = volta.tensor(np.asarray(index, dtype=np.int64)), torch.tensor(np.asarray(index,
                                                                           dtype=np.int64))
    _agree(lambda: v.to(device).index_add_(dim, vi.to(device), vs.to(device)).to("cpu"),
           lambda: t.clone().index_add_(dim, ti, ts))


# -- distances of integers, margin_ranking_loss's ranks ------------------------------------------

@pytest.mark.parametrize("dtype", ["uint8", "int16", "int64", "float32", "bool"])
@pytest.mark.parametrize("eps", [0, 1e-6])
def test_pairwise_distance_integer_difference(dtype: str, eps: float) -> None:
    """An integer difference (eps=0) is normed in the default float dtype, as torch.norm does."""
    v1, t1 = _pair((4, 3, 3), dtype)
    v2, t2 = _pair((4, 1, 1), dtype, seed=1)
    for p in (2, 1, -3):
        _agree(lambda: VF.pairwise_distance(v1, v2, p, eps=eps),
               lambda: TF.pairwise_distance(t1, t2, p, eps=eps), atol=1e-4)


@pytest.mark.parametrize("shapes", [((3, 2), (2,), (3, 2)), ((2,), (3, 2), (2,)),
                                    ((3, 2), (3, 2), (2,)), ((2,), (2,), (3, 2))])
def test_margin_ranking_loss_ranks(shapes: tuple) -> None:
    """torch.margin_ranking_loss broadcasts; nn.functional wants inputs of one rank."""
    (v1, t1), (v2, t2), (vt, tt) = (_pair(s, "float32", seed=i) for i, s in enumerate(shapes))
    _agree(lambda: volta.margin_ranking_loss(v1, v2, vt, 0.1, "none"),
           lambda: torch.margin_ranking_loss(t1, t2, tt, 0.1, 0))
    _agree(lambda: VF.margin_ranking_loss(v1, v2, vt, 0.1),
           lambda: TF.margin_ranking_loss(t1, t2, tt, 0.1))


@pytest.mark.parametrize("name,args", [
    ("margin_ranking_loss", ("t", "t", 3)), ("hinge_embedding_loss", ("t", 1)),
    ("kl_div", ("t", 0.5)), ("cosine_embedding_loss", ("t", "t", 1)),
    ("poisson_nll_loss", ("t", 2, True, False, 1e-8, 1)), ("binary_cross_entropy_with_logits", ("t", 1)),
])
def test_loss_number_for_tensor_argument_rejected(name: str, args: tuple) -> None:
    """The top-level loss functions take Tensors only, as torch's do."""
    v, t = _pair((3, 2), "float32")
    t_args = [t if a == "t" else a for a in args]
    v_args = [v if a == "t" else a for a in args]
    if name == "poisson_nll_loss":
        v_args[-1] = "mean"  # volta's reduction is a str, torch's top-level one an int
    with pytest.raises(TypeError):
        getattr(torch, name)(*t_args)
    with pytest.raises(VoltaError, match="must be Tensor"):
        getattr(volta, name)(*v_args)


def test_kl_div_log_target_is_keyword_only() -> None:
    v, t = _pair((2,), "float32")
    with pytest.raises(TypeError):
        torch.kl_div(t, t, 1, False)  # type: ignore[call-arg]
    with pytest.raises(VoltaError):
        volta.kl_div(v, v, "none", False)
    _agree(lambda: volta.kl_div(v, v.exp(), "sum", log_target=True),
           lambda: torch.kl_div(t, t.exp(), 2, log_target=True))
    _agree(lambda: VF.kl_div(v, v.exp(), reduction="sum", log_target=True),
           lambda: TF.kl_div(t, t.exp(), reduction="sum", log_target=True))


@pytest.mark.parametrize("input_dtype", PAIR_DTYPES)
@pytest.mark.parametrize("target_dtype", ["float32", "int64", "bool", "float16"])
@pytest.mark.parametrize("name", ["soft_margin_loss", "hinge_embedding_loss", "mse_loss",
                                  "l1_loss"])
@pytest.mark.parametrize("reduction", ["none", "mean", "sum"])
def test_elementwise_loss_dtypes(name: str, input_dtype: str, target_dtype: str,
                                 reduction: str) -> None:
    """soft_margin_loss and hinge_embedding_loss write into input's dtype (hinge's margin
    becomes input's dtype first: truncated for integers); mse_loss wants a floating common
    dtype."""
    v, t = _pair((2, 3), input_dtype)
    vt, tt = _pair((2, 3), target_dtype, seed=1)
    vt, tt = vt.sign() if target_dtype != "bool" else vt, tt.sign() if target_dtype != "bool" else tt
    extra = {"margin": -1.5} if name == "hinge_embedding_loss" else {}
    _agree(lambda: getattr(VF, name)(v * 3, vt, reduction=reduction, **extra),
           lambda: getattr(TF, name)(t * 3, tt, reduction=reduction, **extra), atol=2e-3)


@pytest.mark.parametrize("eps", [-7.874079946986219e-266, -1.0, 0.0])
def test_cosine_similarity_negative_eps(eps: float) -> None:
    v1, t1 = _pair((2,), "float32")
    v2, t2 = _pair((2,), "int16", seed=1)
    _agree(lambda: volta.cosine_similarity(v1, v2, -1, eps),
           lambda: torch.cosine_similarity(t1, t2, -1, eps))


@pytest.mark.parametrize("device", ["cpu", "wgpu"])
@pytest.mark.parametrize("dtypes", [("bfloat16", "float16"), ("float16", "bfloat16"),
                                    ("int8", "float16"), ("uint8", "int8"), ("float32", "int64")])
def test_isin_promotes(device: str, dtypes: tuple) -> None:
    """Elements and test elements compare in their promoted dtype."""
    if device == "wgpu" and "bfloat16" in dtypes or device == "wgpu" and "int8" in dtypes:
        device = "cpu"  # no such WGPU dtype
    t = torch.tensor([[1.5, -2.0, 3.0], [200.0, 0.0, -1.0]]).to(getattr(torch, dtypes[0]))
    # enough test elements for numpy's sorting path (a few take its loop)
    tt = torch.tensor([3.0, -1.0, 200.0, 1.5] + [7.0] * 40).to(getattr(torch, dtypes[1]))
    v = volta.tensor(t.double().numpy()).to(getattr(volta, dtypes[0])).to(device)
    vt = volta.tensor(tt.double().numpy()).to(getattr(volta, dtypes[1])).to(device)
    _agree(lambda: volta.isin(v, vt).to("cpu"), lambda: torch.isin(t, tt))
    _agree(lambda: volta.isin(v, vt, invert=True).to("cpu"), lambda: torch.isin(t, tt, invert=True))


@pytest.mark.parametrize("name", ["multilabel_soft_margin_loss", "gaussian_nll_loss"])
def test_python_losses_take_a_number_target(name: str) -> None:
    """torch's Python-level losses compute with a number target as it is."""
    v, t = _pair((2, 3), "float32")
    extra_v = (volta.ones(2, 3),) if name == "gaussian_nll_loss" else ()
    extra_t = (torch.ones(2, 3),) if name == "gaussian_nll_loss" else ()
    _agree(lambda: getattr(VF, name)(v, 1, *extra_v), lambda: getattr(TF, name)(t, 1, *extra_t))


@pytest.mark.parametrize("input_dtype", PAIR_DTYPES)
@pytest.mark.parametrize("target_dtype", PAIR_DTYPES)
@pytest.mark.parametrize("name", ["binary_cross_entropy", "binary_cross_entropy_with_logits"])
def test_binary_cross_entropy_dtypes(name: str, input_dtype: str, target_dtype: str) -> None:
    """binary_cross_entropy: target of input's (floating) dtype; with logits: the common dtype
    must fit target's."""
    v, t = _pair((2, 3), input_dtype)
    vt, tt = _pair((2, 3), target_dtype, seed=1)
    if name == "binary_cross_entropy" and input_dtype != "bool":
        v, t = v.abs() / 2, t.abs() / 2
    vt, tt = (vt.abs() / 2, tt.abs() / 2) if target_dtype != "bool" else (vt, tt)
    _agree(lambda: getattr(VF, name)(v, vt), lambda: getattr(TF, name)(t, tt), atol=5e-3)


@pytest.mark.parametrize("var_dtype", ["int8", "uint8", "int32", "int64", "bool", "float16"])
@pytest.mark.parametrize("eps", [1e-6, 0, float("nan")])
def test_gaussian_nll_loss_var_clamp(var_dtype: str, eps: float) -> None:
    """var is clamped in place at eps: no float eps for an integer var, none for a bool var."""
    v, t = _pair((2, 3), "float32")
    vv, tv = _pair((2, 3), var_dtype, seed=1)
    vv, tv = (vv.abs(), tv.abs()) if var_dtype != "bool" else (vv, tv)
    _agree(lambda: VF.gaussian_nll_loss(v, v * 0.5, vv, eps=eps),
           lambda: TF.gaussian_nll_loss(t, t * 0.5, tv, eps=eps), atol=1e-3)


@pytest.mark.parametrize("mode", [None, "bogus", "use_mm_for_euclid_dist", "donot_use_mm_for_euclid_dist",
                                  "use_mm_for_euclid_dist_if_necessary"])
def test_cdist_compute_mode(mode: Any) -> None:
    v, t = _pair((4, 3, 2), "float32")
    _agree(lambda: volta.cdist(v, v, 2.0, mode), lambda: torch.cdist(t, t, 2.0, mode), atol=1e-4)
    _agree(lambda: volta.cdist(v, v, 1.0, compute_mode=mode),
           lambda: torch.cdist(t, t, 1.0, compute_mode=mode), atol=1e-4)
