"""Every op declared in ops.yaml, run through volta and through PyTorch (the oracle).

Data-driven: the op list comes from ops.yaml, the samples from ``opinfo.py`` (several dtypes,
broadcasting, 0-d and non-contiguous inputs). Forward values, gradients, float64 gradchecks and,
for a third of the differentiable ops, gradgradchecks. Seed convention: sample ``i`` uses seed i.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
import pytest
import yaml

import volta
from volta.testing.harness import (
    ModuleAdapter,
    TorchAdapter,
    assert_grads_close,
    assert_outputs_close,
    call_op,
    run_backward,
    run_forward,
)
from volta.testing.opinfo import OPS, OpInfo, Sample, materialize_full, substitute

ROOT = Path(__file__).resolve().parents[2]
TORCH = TorchAdapter()
VOLTA = ModuleAdapter(volta, "volta")

# ops.yaml entries with no public PyTorch counterpart of their own: internal building blocks
# (kernels behind composites, backward kernels) exercised through the public op named here.
COVERED_BY = {
    "convolution": "conv2d", "convolution_backward": "conv2d", "conv3d": "conv2d",
    "max_pool_with_indices": "max_pool2d", "max_pool_backward": "max_pool2d",
    "max_pool2d_with_indices": "max_pool2d", "avg_pool": "avg_pool2d",
    "avg_pool_backward": "avg_pool2d", "adaptive_avg_pool": "adaptive_avg_pool2d",
    "adaptive_avg_pool_backward": "adaptive_avg_pool2d", "adaptive_max_pool": "adaptive_max_pool2d",
    "adaptive_max_pool1d": "adaptive_max_pool2d", "native_batch_norm": "batch_norm",
    "native_batch_norm_backward": "batch_norm", "native_layer_norm": "layer_norm",
    "native_layer_norm_backward": "layer_norm", "native_group_norm": "group_norm",
    "native_group_norm_backward": "group_norm", "embedding_backward": "embedding",
    "_nll_loss": "nll_loss", "_nll_loss_backward": "nll_loss", "_cumsum_backward": "cumsum",
    "gelu_backward": "gelu", "threshold_backward": "relu", "sigmoid_backward": "sigmoid",
    "tanh_backward": "tanh", "silu_backward": "silu", "hardtanh_backward": "hardtanh",
    "leaky_relu_backward": "leaky_relu", "elu_backward": "elu", "softplus_backward": "softplus",
    "log_sigmoid_backward": "logsigmoid", "_softmax_backward_data": "softmax",
    "_log_softmax_backward_data": "log_softmax",
    "_scaled_dot_product_attention_flash": "scaled_dot_product_attention",
    "_scaled_dot_product_attention_flash_backward": "scaled_dot_product_attention",
    "slice": "narrow", "slice_backward": "narrow",
    "select_backward": "select", "index_select_backward": "index_select",
    "gather_backward": "gather", "unfold_backward": "unfold", "diagonal_backward": "diagonal",
    "as_strided_scatter": "as_strided", "pad_backward": "pad", "index": "index_select",
    "_to_copy": "clone", "alias": "clone", "copy_": "copy_", "detach": "clone",
    "positive": "neg", "subtract": "sub", "multiply": "mul", "divide": "div",
    "arctan2": "atan2", "clip": "clamp", "concat": "cat", "swapaxes": "transpose",
    "reshape_as": "reshape", "view_as": "view", "ravel": "flatten", "expand_as": "expand",
    "float_power": "pow", "var_mean": "var", "std_mean": "std", "dist": "norm",
    "nansum": "sum", "logaddexp": "add", "signbit": "isfinite", "isclose": "eq",
    "allclose": "eq", "equal": "eq", "zeros_like": "clone", "ones_like": "clone",
    "full_like": "clone", "empty_like": "clone", "rand_like": "dropout", "randn_like": "dropout",
    "randint_like": "dropout", "bernoulli": "dropout", "multinomial": "dropout",
    "uniform_": "dropout", "normal_": "dropout", "rms_norm": "layer_norm", "bilinear": "linear",
    "unique": "sort", "bincount": "sort", "searchsorted": "sort", "diag_embed": "diag",
    "masked_scatter": "masked_select", "as_strided": "as_strided", "zero_": "zero_",
    "fill_": "fill_",
}

# ops.yaml entries checked against PyTorch by the tests named here (no PyTorch op at all, or
# PyTorch's own op_db samples them)
TESTED_ELSEWHERE = {
    name: "tests/optim/test_optimizers.py (torch.optim as the oracle), test_update_ops.py"
    for name in ("_sgd_update_", "_adam_update_", "_rmsprop_update_", "_adagrad_update_")
} | {
    name: "tests/optim/test_more_optimizers.py (torch.optim as the oracle)"
    for name in ("_adadelta_update_", "_adamax_update_", "_nadam_update_", "_radam_update_",
                 "_asgd_update_", "_rprop_update_")
} | {
    name: "tests/optim/test_adafactor_muon.py (torch.optim as the oracle)"
    for name in ("_adafactor_update_", "_muon_update_")
} | {
    name: "tests/nn/test_rnn.py (torch.nn.RNN/LSTM/GRU and their cells as the oracle)"
    for name in ("_rnn_layer", "_rnn_layer_backward")
} | {
    name: "tests/opdb (PyTorch's op_db entries linalg.*, cholesky, qr, svd, lu, cdist, cov, ...) "
          "and tests/ops/test_linalg.py"
    for name in (
        '_linalg_eigh', '_linalg_svd', '_lu_permutation', 'addbmm', 'addr', 'block_diag',
        'cartesian_prod', 'cdist', 'cholesky', 'cholesky_inverse', 'cholesky_solve',
        'combinations', 'corrcoef', 'cov', 'cross', 'cumulative_trapezoid', 'det', 'diagflat',
        'geqrf', 'inner', 'inverse', 'kron', 'linalg_cholesky', 'linalg_cholesky_ex',
        'linalg_cond', 'linalg_cross', 'linalg_det', 'linalg_diagonal', 'linalg_eigh',
        'linalg_eigvalsh', 'linalg_householder_product', 'linalg_inv', 'linalg_inv_ex',
        'linalg_ldl_factor', 'linalg_ldl_factor_ex', 'linalg_ldl_solve', 'linalg_lstsq',
        'linalg_lu', 'linalg_lu_factor', 'linalg_lu_factor_ex', 'linalg_lu_solve',
        'linalg_matrix_exp', 'linalg_matrix_norm', 'linalg_matrix_power', 'linalg_matrix_rank',
        'linalg_multi_dot', 'linalg_pinv', 'linalg_qr', 'linalg_slogdet', 'linalg_solve',
        'linalg_solve_ex', 'linalg_solve_triangular', 'linalg_svd', 'linalg_svdvals',
        'linalg_tensorinv', 'linalg_tensorsolve', 'linalg_vander', 'linalg_vecdot', 'logdet',
        'lu', 'lu_solve', 'lu_unpack', 'matrix_exp', 'matrix_power', 'orgqr', 'ormqr', 'pdist',
        'pinverse', 'qr', 'renorm', 'slogdet', 'svd', 'trapezoid', 'trapz', 'triangular_solve',
        'vdot',
    )
} | {
    name: "tests/opdb (PyTorch's own op_db samples, forward and float64 gradients)"
    for name in ("_chunk_cat", "_unsafe_masked_index", "_unsafe_masked_index_put_accumulate",
                 "alias_copy", "argwhere", "as_strided_copy", "atleast_1d", "atleast_2d",
                 "atleast_3d", "column_stack", "diagonal_copy", "diagonal_scatter", "diff",
                 "dsplit", "dstack", "expand_copy", "fftshift", "fill", "fliplr", "flipud",
                 "hsplit", "ifftshift", "index_copy", "index_fill", "index_reduce",
                 "narrow_copy", "nonzero_static", "permute_copy", "put", "repeat_interleave",
                 "rot90", "scatter_reduce", "scatter_reduce_backward", "select_scatter",
                 "slice_scatter", "split_with_sizes", "split_with_sizes_copy", "squeeze_copy",
                 "sum_to_size", "t_copy", "take", "tensor_split", "transpose_copy",
                 "unbind_copy", "unfold_copy", "unravel_index", "unsafe_chunk", "unsafe_split",
                 "unsqueeze_copy", "view_copy", "vsplit", "_native_batch_norm_legit",
                 "_batch_norm_with_update")
} | {
    name: "tests/opdb/test_op_db.py (op_db's samples, forward and float64 gradients)"
    for name in (
        "glu", "celu", "prelu", "rrelu", "tanhshrink", "threshold", "softshrink", "hardshrink",
        "channel_shuffle", "constant_pad_nd", "native_dropout_backward",
        "max_pool2d_with_indices_backward", "max_pool3d", "max_pool3d_with_indices",
        "avg_pool3d", "adaptive_avg_pool3d", "adaptive_max_pool3d", "conv_transpose3d",
        "im2col", "col2im", "max_unpool", "feature_dropout", "alpha_dropout",
        "feature_alpha_dropout", "local_response_norm", "soft_margin_loss",
        "margin_ranking_loss", "hinge_embedding_loss", "cosine_embedding_loss",
        "poisson_nll_loss", "gaussian_nll_loss", "triplet_margin_loss", "multi_margin_loss",
        "multilabel_margin_loss", "multilabel_soft_margin_loss", "_embedding_bag_reduce",
        "grid_sampler", "ctc_loss")
} | {
    name: "tests/nn/test_functional_extra.py (fixed window samples, PyTorch as the oracle)"
    for name in ("fractional_max_pool2d", "fractional_max_pool3d")
} | {
    name: "tests/opdb/test_op_db.py (PyTorch's own OpInfo database as the oracle)"
    for name in (
        "acosh", "angle", "asinh", "atanh", "bucketize", "chebyshev_polynomial_t",
        "chebyshev_polynomial_u", "chebyshev_polynomial_v", "chebyshev_polynomial_w", "clamp_max",
        "clamp_min", "conj", "conj_physical", "cummax", "cummin", "deg2rad", "digamma", "entr",
        "erfcx", "frexp", "gcd", "heaviside", "hermite_polynomial_h", "hermite_polynomial_he",
        "histc", "histogram", "histogramdd", "i0", "i0e", "i1", "i1e", "igamma", "igammac",
        "isin", "isneginf", "isposinf", "isreal", "kthvalue", "laguerre_polynomial_l", "lcm",
        "ldexp", "legendre_polynomial_p", "lgamma", "log_ndtr", "logaddexp2", "logcumsumexp",
        "logit", "mode", "modified_bessel_i0", "modified_bessel_i1", "modified_bessel_k0",
        "modified_bessel_k1", "msort", "mvlgamma", "nanmean", "nanmedian", "nanquantile", "ndtr",
        "ndtri", "nextafter", "polygamma", "quantile", "rad2deg", "real", "resolve_conj",
        "resolve_neg", "rsub", "scaled_modified_bessel_k0", "scaled_modified_bessel_k1", "sgn",
        "shifted_chebyshev_polynomial_t", "shifted_chebyshev_polynomial_u",
        "shifted_chebyshev_polynomial_v", "shifted_chebyshev_polynomial_w", "sinc",
        "spherical_bessel_j0", "unique_consecutive", "xlog1py", "zeta")
} | {
    name: "tests/opdb/test_op_db.py (shapes and dtypes) and tests/ops/test_special_math.py "
          "(seeding, distributions, argument checks)"
    for name in ("cauchy_", "exponential_", "geometric_", "log_normal_")
} | {
    name: "tests/ops/test_special_math.py (PyTorch as the oracle, at its own precision)"
    for name in ("airy_ai", "bessel_j0", "bessel_j1", "bessel_y0", "bessel_y1")
} | {
    name: "tests/ops/test_resize.py (PyTorch as the oracle: sizes, strides, storage growth "
          "through views, version counters, errors, WGPU) and tests/opdb"
    for name in ("resize_", "resize_as_")
} | {
    name: "tests/ops/test_lowrank.py (PyTorch as the oracle on matrices of rank q, where the "
          "randomized result is exact; gradients, gradcheck, errors, WGPU) and tests/opdb"
    for name in ("svd_lowrank", "pca_lowrank")
}


def _yaml_ops() -> list[str]:
    entries = yaml.safe_load((ROOT / "ops.yaml").read_text())
    names = []
    for e in entries:
        head = e["func"].split("(")[0]
        names.append(e.get("python_name") or head.split(".")[0])
    return sorted(set(names))


def test_every_yaml_op_is_exercised() -> None:
    missing = [n for n in _yaml_ops() if n not in OPS and COVERED_BY.get(n) not in OPS
               and n not in TESTED_ELSEWHERE]
    assert not missing, f"ops in ops.yaml with no oracle samples: {missing}"


def test_op_count() -> None:
    handles = [n for n in volta.dispatch.DISPATCHER.ops if "::" not in n]
    assert len(handles) >= 150, len(handles)


def _cases(kind: str) -> list[Any]:
    cases = []
    for name, op in sorted(OPS.items()):
        for dtype in op.dtypes:
            if kind == "backward" and (not op.grad or dtype not in ("float32", "float64")):
                continue
            cases.append(pytest.param(name, dtype, id=f"{name}-{dtype}"))
    return cases


@pytest.mark.parametrize(("name", "dtype"), _cases("forward"))
def test_forward_matches_torch(name: str, dtype: str) -> None:
    op = OPS[name]
    for i, sample in enumerate(op.samples(dtype)):
        where = f"sample {i} ({sample.desc or '-'}) {dtype}"
        expected = run_forward(op, sample, dtype, TORCH, seed=i)
        actual = run_forward(op, sample, dtype, VOLTA, seed=i)
        assert_outputs_close(actual, expected, dtype, op, where)


@pytest.mark.parametrize(("name", "dtype"), _cases("backward"))
def test_backward_matches_torch(name: str, dtype: str) -> None:
    op = OPS[name]
    for i, sample in enumerate(op.samples(dtype)):
        where = f"sample {i} ({sample.desc or '-'}) {dtype}"
        expected = run_backward(op, sample, dtype, TORCH, seed=i)
        actual = run_backward(op, sample, dtype, VOLTA, seed=i)
        assert_grads_close(actual, expected, dtype, op, where)


def _gradcheck_inputs(op: OpInfo, sample: Sample, seed: int) -> tuple[Any, list] | None:
    m = materialize_full(sample, "float64", seed, VOLTA)
    paths = [p for p, (spec, t) in m.tensors.items()
             if spec.requires_grad and t.is_floating_point()]
    if not paths or any(m.tensors[p][1].numel() == 0 for p in paths):
        return None
    leaves = [m.tensors[p][1].detach().clone().requires_grad_() for p in paths]
    fixed = {p: t for p, (_, t) in m.tensors.items()}

    def fn(*xs: Any) -> tuple[Any, ...]:
        args, kwargs = substitute(sample, {**fixed, **dict(zip(paths, xs))}, VOLTA)
        if op.inplace:
            args = (args[0].clone(), *args[1:])
        outs = call_op(op, VOLTA, args, kwargs)
        n_mut = sum(1 for k in op.mutates if k < len(args) and isinstance(args[k], volta.Tensor))
        outs = outs[: len(outs) - n_mut]
        return tuple(o for o in outs if o.is_floating_point())

    return fn, leaves


GRADCHECK_OPS = sorted(n for n, op in OPS.items()
                       if op.grad and op.gradcheck_ok and "float64" in op.dtypes)
# attention's fused backward kernel has no derivative of its own (it fails loudly, see
# tests/ops/test_sdpa.py); gradgradcheck half of the others
NO_DOUBLE_BACKWARD: set[str] = {"scaled_dot_product_attention"}
GRADGRAD_OPS = [n for n in GRADCHECK_OPS[::2] if n not in NO_DOUBLE_BACKWARD]


@pytest.mark.parametrize("name", GRADCHECK_OPS)
def test_gradcheck_float64(name: str) -> None:
    op = OPS[name]
    checked = 0
    for i, sample in enumerate(op.samples("float64")):
        if not sample.gradcheck:
            continue
        prepared = _gradcheck_inputs(op, sample, i)
        if prepared is None:
            continue
        fn, leaves = prepared
        volta.autograd.gradcheck(fn, tuple(leaves), fast_mode=True, atol=1e-5, rtol=1e-3)
        checked += 1
    assert checked, f"{name}: no sample could be gradchecked"


@pytest.mark.parametrize("name", GRADGRAD_OPS)
def test_gradgradcheck_float64(name: str) -> None:
    op = OPS[name]
    for i, sample in enumerate(op.samples("float64")):
        if not sample.gradcheck:
            continue
        prepared = _gradcheck_inputs(op, sample, i)
        if prepared is None:
            continue
        fn, leaves = prepared
        volta.autograd.gradgradcheck(fn, tuple(leaves), fast_mode=True, atol=1e-4, rtol=1e-3)
        return
    pytest.fail(f"{name}: no sample could be gradgradchecked")


@pytest.mark.parametrize("layer", ["layer_norm", "group_norm", "batch_norm"])
def test_normalisation_double_backward_matches_torch(layer: str) -> None:
    import torch
    rng = np.random.default_rng(1)
    x, w, b = rng.standard_normal((3, 4, 5)), rng.standard_normal(4), rng.standard_normal(4)
    w5, b5 = rng.standard_normal(5), rng.standard_normal(5)

    def penalty(lib: Any) -> list[np.ndarray]:
        F = lib.nn.functional
        xs = [lib.tensor(a, dtype=lib.float64, requires_grad=True)
              for a in ((x, w5, b5) if layer == "layer_norm" else (x, w, b))]
        if layer == "layer_norm":
            out = F.layer_norm(xs[0], (5,), xs[1], xs[2], eps=1e-3)
        elif layer == "group_norm":
            out = F.group_norm(xs[0], 2, xs[1], xs[2], eps=1e-3)
        else:
            out = F.batch_norm(xs[0], None, None, xs[1], xs[2], training=True, eps=1e-3)
        gx, gw, gb = lib.autograd.grad((out ** 3).sum(), xs, create_graph=True)
        ((gx * gx).sum() + (gw * gw).sum() + (gb ** 3).sum()).backward()
        return [t.grad.detach().numpy() for t in xs[:2]]

    for a, e in zip(penalty(volta), penalty(torch)):
        np.testing.assert_allclose(a, e, rtol=1e-7, atol=1e-8)


@pytest.mark.parametrize("transposed", [False, True])
def test_convolution_double_backward_matches_torch(transposed: bool) -> None:
    import torch
    rng = np.random.default_rng(0)
    x = rng.standard_normal((2, 4, 7, 6))
    w = rng.standard_normal((4, 6, 3, 2)) if transposed else rng.standard_normal((6, 2, 3, 2))
    b = rng.standard_normal(12 if transposed else 6)

    def gradient_penalty(lib: Any, conv: Any) -> list[np.ndarray]:
        xs = [lib.tensor(a, dtype=lib.float64, requires_grad=True) for a in (x, w, b)]
        kwargs = {"stride": (2, 1), "padding": (1, 0), "groups": 2}
        if transposed:
            kwargs["output_padding"] = (1, 0)
        out = conv(xs[0], xs[1], xs[2], **kwargs)
        gx, gw = lib.autograd.grad((out * out).sum(), xs[:2], create_graph=True)
        ((gx * gx).sum() + (gw ** 3).sum()).backward()
        return [t.grad.detach().numpy() for t in xs]

    name = "conv_transpose2d" if transposed else "conv2d"
    expected = gradient_penalty(torch, getattr(torch.nn.functional, name))
    actual = gradient_penalty(volta, getattr(volta.nn.functional, name))
    for a, e in zip(actual, expected):
        np.testing.assert_allclose(a, e, rtol=1e-8, atol=1e-8)


def test_oracle_coverage_numbers() -> None:
    """The numbers quoted in the closing note come from here."""
    assert len(OPS) >= 150
    assert len(GRADCHECK_OPS) >= 100
    assert len(GRADGRAD_OPS) >= len(GRADCHECK_OPS) // 3

