"""Self-check of the op database, running PyTorch against PyTorch.

Every sample must run on PyTorch deterministically, with finite results, gradients that
agree with finite differences, and tolerances that hold against a float64 reference.

Seed convention (shared with the framework tests): sample ``i`` of ``op.samples(dtype)``
is materialised with ``seed=i``.
"""

from __future__ import annotations

import math
import warnings
from collections.abc import Callable
from typing import Any

import numpy as np
import pytest

from volta.testing.harness import (
    TorchAdapter,
    assert_close,
    assert_grads_close,
    assert_outputs_close,
    call_op,
    prepare,
    run_backward,
    run_forward,
)
from volta.testing.opinfo import (
    ALL_DTYPES,
    OPS,
    DTypeArg,
    OpInfo,
    Sample,
    TensorSpec,
    is_floating,
    materialize_full,
    substitute,
)

torch = pytest.importorskip("torch")

# PyTorch warns about deprecated-but-valid arguments some samples use on purpose.
pytestmark = pytest.mark.filterwarnings("ignore::UserWarning")

ADAPTER = TorchAdapter()
GRAD_DTYPES = ("float32", "float64")
LOW_PRECISION = ("float32", "float16", "bfloat16")

REQUIRED: dict[str, str] = {
    "unary": "abs neg exp exp2 expm1 log log2 log10 log1p sqrt rsqrt sin cos tan asin acos "
             "atan sinh cosh tanh sigmoid relu relu6 gelu silu mish softplus elu selu "
             "leaky_relu hardtanh hardsigmoid hardswish logsigmoid softsign erf erfc erfinv "
             "sign floor ceil round trunc frac reciprocal square clamp isnan isinf isfinite "
             "nan_to_num logical_not bitwise_not",
    "binary": "add sub mul div true_divide floor_divide pow maximum minimum fmax fmin "
              "remainder fmod atan2 hypot eq ne lt le gt ge logical_and logical_or "
              "logical_xor bitwise_and bitwise_or bitwise_xor bitwise_left_shift "
              "bitwise_right_shift where lerp addcmul addcdiv copysign xlogy",
    "reduction": "sum mean prod max min amax amin argmax argmin var std var_mean std_mean "
                 "norm vector_norm logsumexp all any cumsum cumprod count_nonzero median "
                 "aminmax",
    "linalg": "matmul mm bmm addmm addmv baddbmm einsum outer dot mv trace tensordot",
    "shape": "cat stack hstack vstack split chunk unbind flip roll repeat tile tril triu sort "
             "argsort topk gather scatter scatter_add index_select index_add masked_fill "
             "masked_select nonzero one_hot pad clone contiguous reshape view flatten "
             "unflatten permute transpose t squeeze unsqueeze expand narrow unfold diagonal "
             "select movedim diag take_along_dim broadcast_to meshgrid where",
    "nn": "softmax log_softmax conv1d conv2d conv_transpose1d conv_transpose2d max_pool1d "
          "max_pool2d avg_pool1d avg_pool2d adaptive_avg_pool1d adaptive_avg_pool2d "
          "adaptive_max_pool2d embedding dropout dropout_eval batch_norm layer_norm "
          "group_norm linear cross_entropy nll_loss mse_loss l1_loss binary_cross_entropy "
          "binary_cross_entropy_with_logits kl_div smooth_l1_loss huber_loss "
          "cosine_similarity pairwise_distance normalize scaled_dot_product_attention",
}
REQUIRED_NAMES = sorted({n for group in REQUIRED.values() for n in group.split()})
# PyTorch rejects a Python-scalar second operand for these binary ops; a 0-d tensor
# sample stands in.
NO_SCALAR_OPERAND = {"maximum", "minimum", "fmax", "fmin", "atan2", "hypot", "logical_and",
                     "logical_or", "logical_xor"}

# Differentiable, but their derivative is zero everywhere it exists.
ZERO_GRAD_OPS = {"floor", "ceil", "round", "trunc", "sign", "zero_"}

ALL_OPS = sorted(OPS)
GRAD_OPS = sorted(n for n, op in OPS.items() if op.grad)
GRADCHECK_OPS = sorted(n for n, op in OPS.items()
                       if op.grad and op.gradcheck_ok and "float64" in op.dtypes)
REF_OPS = sorted(n for n, op in OPS.items() if not op.random and op.upcast_ref_ok
                 and any(d in op.dtypes for d in LOW_PRECISION))


def _specs(sample: Sample) -> list[TensorSpec]:
    return [spec for _, spec in sample.specs()]


# ----------------------------------------------------------------------------- coverage


def test_required_ops_present() -> None:
    """Every op the brief lists has an OpInfo."""
    missing = [n for n in REQUIRED_NAMES if n not in OPS]
    assert not missing, f"missing OpInfos: {missing}"


def _kw(name: str, value: Any = ...) -> Callable[[Sample], bool]:
    def pred(s: Sample) -> bool:
        if name not in s.kwargs:
            return False
        return value is ... or (s.kwargs[name] == value and type(s.kwargs[name]) is type(value))

    pred.__name__ = f"kwarg {name}={value!r}"
    return pred


def _arg(value: Any) -> Callable[[Sample], bool]:
    def pred(s: Sample) -> bool:
        return any(type(a) is type(value) and a == value for a in s.args)

    pred.__name__ = f"arg {value!r}"
    return pred


def _scalar_first(s: Sample) -> bool:
    return bool(s.args) and isinstance(s.args[0], (int, float))


def _has_dtype_arg(s: Sample) -> bool:
    return any(isinstance(v, DTypeArg) for v in s.kwargs.values())


def _dim_list(s: Sample) -> bool:
    return any(isinstance(v, (list, tuple)) and len(v) > 1
               for v in (*s.args[1:], s.kwargs.get("dim")))


def _two_outputs(s: Sample) -> bool:
    return (len(s.args) > 1 and isinstance(s.args[1], int)) or "dim" in s.kwargs


# Feature checks for behaviours the brief names explicitly (checked on float32 samples,
# or the op's first dtype).
FEATURES: dict[str, list[Callable[[Sample], bool]]] = {
    "gelu": [_kw("approximate", "none"), _kw("approximate", "tanh")],
    "softplus": [_kw("beta"), _kw("threshold")],
    "elu": [_kw("alpha")],
    "leaky_relu": [_kw("negative_slope")],
    "hardtanh": [_kw("min_val"), _kw("max_val")],
    "round": [_kw("decimals")],
    "clamp": [lambda s: "min" in s.kwargs and "max" not in s.kwargs,
              lambda s: "max" in s.kwargs and "min" not in s.kwargs,
              lambda s: isinstance(s.kwargs.get("min"), TensorSpec)],
    "nan_to_num": [lambda s: any(sp.special for sp in _specs(s))],
    "div": [_kw("rounding_mode", None), _kw("rounding_mode", "trunc"),
            _kw("rounding_mode", "floor")],
    "pow": [_scalar_first, lambda s: isinstance(s.args[-1], (int, float))],
    "lerp": [lambda s: isinstance(s.args[2], float),
             lambda s: isinstance(s.args[2], TensorSpec)],
    "sum": [_has_dtype_arg, _dim_list, _kw("keepdim", True)],
    "mean": [_has_dtype_arg, _dim_list],
    "max": [_two_outputs, lambda s: len(s.args) == 1 and not s.kwargs],
    "var": [_kw("correction", 0), _kw("correction", 2), _kw("unbiased", True)],
    "std": [_kw("correction", 0), _kw("correction", 2), _kw("unbiased", True)],
    "norm": [_kw("p", 2), _kw("p", 1), _kw("p", math.inf), _kw("p", "fro"), _kw("dim")],
    "median": [lambda s: len(s.args) == 1 and not s.kwargs, _two_outputs],
    "matmul": [lambda s: [len(a.shape) for a in s.args] == [1, 1],
               lambda s: [len(a.shape) for a in s.args] == [2, 1],
               lambda s: [len(a.shape) for a in s.args] == [1, 2],
               lambda s: [len(a.shape) for a in s.args] == [3, 2],
               lambda s: [len(a.shape) for a in s.args] == [4, 4]],
    "addmm": [_kw("beta"), _kw("alpha")],
    "einsum": [_arg(eq) for eq in ("ij,jk->ik", "bij,bjk->bik", "ii->i", "ij->ji", "i,j->ij")],
    "split": [lambda s: isinstance(s.args[1], int), lambda s: isinstance(s.args[1], list)],
    "roll": [lambda s: isinstance(s.args[1], tuple)],
    "tril": [_kw("diagonal")],
    "sort": [_kw("descending", True), _kw("stable", True)],
    "topk": [_kw("largest", False), lambda s: len(s.args) == 5 and s.args[4] is True],
    "scatter": [lambda s: isinstance(s.args[3], TensorSpec),
                lambda s: isinstance(s.args[3], (int, float, bool))],
    "pad": [_kw("mode", "reflect"), _kw("mode", "replicate"), _kw("mode", "circular"),
            lambda s: "mode" not in s.kwargs],
    "softmax": [_has_dtype_arg],
    "log_softmax": [_has_dtype_arg],
    "conv2d": [_kw("stride"), _kw("padding"), _kw("groups"),
               lambda s: len(s.args) > 2 and s.args[2] is None, lambda s: len(s.args) > 4],
    "conv_transpose2d": [_kw("output_padding"), _kw("groups"), _kw("dilation"),
                         lambda s: len(s.args) > 2 and s.args[2] is None],
    "embedding": [_kw("padding_idx")],
    "dropout_eval": [lambda s: s.args[1:2] == (0.0,), _kw("training", False)],
    "batch_norm": [lambda s: s.args[5:6] == (True,), lambda s: s.args[5:6] == (False,)],
    "cross_entropy": [_kw("ignore_index"), _kw("label_smoothing"), _kw("weight"),
                      _kw("reduction", "none"), _kw("reduction", "sum"),
                      lambda s: s.args[1].kind != "index"],
    "binary_cross_entropy_with_logits": [_kw("pos_weight")],
    "kl_div": [_kw("log_target", True)],
    "smooth_l1_loss": [_kw("beta")],
    "scaled_dot_product_attention": [
        _kw("is_causal", True),
        lambda s: isinstance(s.kwargs.get("attn_mask"), TensorSpec)
        and s.kwargs["attn_mask"].kind == "bool"],
    "meshgrid": [_kw("indexing", "ij")],
}


def _first_dtype(op: OpInfo) -> str:
    return "float32" if "float32" in op.dtypes else op.dtypes[0]


@pytest.mark.parametrize("name", sorted(FEATURES))
def test_required_features(name: str) -> None:
    """Explicitly requested arguments (gelu approximate, div rounding_mode, ...) occur."""
    samples = OPS[name].samples(_first_dtype(OPS[name]))
    for pred in FEATURES[name]:
        assert any(_safe(pred, s) for s in samples), f"{name}: no sample with {pred.__name__}"


def _safe(pred: Callable[[Sample], bool], s: Sample) -> bool:
    try:
        return bool(pred(s))
    except (AttributeError, IndexError, TypeError):
        return False


@pytest.mark.parametrize("name", ALL_OPS)
def test_opinfo_wellformed(name: str) -> None:
    """Refs resolve, names match refs, and samples cover noncontig/0-d/broadcast/scalars."""
    op = OPS[name]
    assert op.dtypes
    assert set(op.dtypes) <= set(ALL_DTYPES)
    assert callable(ADAPTER.resolve(op.ref))
    if op.name != "dropout_eval":  # the one deliberate alias (dropout with p=0/eval)
        assert op.ref.rsplit(".", 1)[-1] == op.name
    for dtype in op.dtypes:
        samples = op.samples(dtype)
        assert len(samples) >= 3, f"{name}/{dtype}: only {len(samples)} samples"
        specs = [spec for s in samples for spec in _specs(s)]
        assert any(spec.noncontig for spec in specs), f"{name}/{dtype}: no noncontig sample"
        if op.category in ("unary", "binary"):
            assert any(spec.shape == () for spec in specs), f"{name}: no 0-d sample"
        if op.category == "binary" and op.name not in ("where", "lerp", "addcmul", "addcdiv"):
            assert any(len({s_.shape for s_ in _specs(s)}) > 1 for s in samples), \
                f"{name}: no broadcasting sample"
            if op.name not in NO_SCALAR_OPERAND:
                assert any(isinstance(a, (int, float, bool)) for s in samples
                           for a in s.args), f"{name}: no Python-scalar operand"


# ----------------------------------------------------------------------------- materialise


@pytest.mark.parametrize("name", ALL_OPS)
def test_materialize_deterministic_and_faithful(name: str) -> None:
    """Same seed, same tensors; shapes, dtypes, strides and value domains as specified."""
    op = OPS[name]
    for dtype in op.dtypes:
        for i, sample in enumerate(op.samples(dtype)):
            a = materialize_full(sample, dtype, i, ADAPTER)
            b = materialize_full(sample, dtype, i, ADAPTER)
            for path, (spec, t) in a.tensors.items():
                where = f"{name}/{dtype}/{sample.desc}/{path}"
                assert tuple(t.shape) == spec.shape, where
                assert ADAPTER.dtype_name(t) == spec.resolved_dtype(dtype), where
                same = torch.equal(t, b.tensors[path][1]) or (
                    t.is_floating_point()
                    and torch.allclose(t, b.tensors[path][1], 0.0, 0.0, equal_nan=True))
                assert same, f"{where}: not deterministic"
                if spec.noncontig:
                    assert not t.is_contiguous(), f"{where}: not a strided view"
                if spec.kind == "distinct":
                    flat = t.flatten().double()
                    assert flat.unique().numel() == flat.numel(), f"{where}: ties"
                if spec.kind == "index" and spec.high is not None and t.numel():
                    assert int(t.min()) >= 0, where
                    assert int(t.max()) < spec.high, where
                if not spec.special and is_floating(spec.resolved_dtype(dtype)):
                    assert torch.isfinite(t).all(), where


# ----------------------------------------------------------------------------- forward


def _assert_finite(arrays: list[np.ndarray], where: str) -> None:
    for k, arr in enumerate(arrays):
        if arr.dtype.kind == "f" or arr.dtype.name == "bfloat16":
            assert np.isfinite(arr.astype(np.float64)).all(), f"{where}: output {k} not finite"


@pytest.mark.parametrize("name", ALL_OPS)
def test_forward_torch_vs_torch(name: str) -> None:
    """Every sample runs in every listed dtype, reproducibly, with finite outputs."""
    op = OPS[name]
    for dtype in op.dtypes:
        for i, sample in enumerate(op.samples(dtype)):
            where = f"{name}/{dtype}/{sample.desc}"
            expected = run_forward(op, sample, dtype, ADAPTER, seed=i)
            actual = run_forward(op, sample, dtype, ADAPTER, seed=i)
            assert expected, f"{where}: no tensor output"
            assert_outputs_close(actual, expected, dtype, op, where)
            if not op.allow_nonfinite:
                _assert_finite(expected, where)


# ----------------------------------------------------------------------------- backward


@pytest.mark.parametrize("name", GRAD_OPS)
def test_backward_torch_vs_torch(name: str) -> None:
    """Backward runs in float32/float64, reproducibly, with finite gradients."""
    op = OPS[name]
    produced = 0
    for dtype in (d for d in GRAD_DTYPES if d in op.dtypes):
        for i, sample in enumerate(op.samples(dtype)):
            where = f"{name}/{dtype}/{sample.desc}"
            expected = run_backward(op, sample, dtype, ADAPTER, seed=i)
            actual = run_backward(op, sample, dtype, ADAPTER, seed=i)
            assert_grads_close(actual, expected, dtype, op, where)
            for path, g in expected.items():
                assert np.isfinite(g).all(), f"{where}: grad {path} not finite"
            produced += sum(int(np.any(g != 0)) for g in expected.values())
    if name not in ZERO_GRAD_OPS:  # guards against graphs silently cut by the samples
        assert produced, f"{name}: grad=True but no sample produced a nonzero gradient"


def _gradcheck_sample(op: OpInfo, sample: Sample, seed: int) -> None:
    m = materialize_full(sample, "float64", seed, ADAPTER)
    paths = [p for p, (spec, t) in m.tensors.items()
             if spec.requires_grad and t.is_floating_point()]
    if not paths or any(m.tensors[p][1].numel() == 0 for p in paths):
        return  # gradcheck cannot perturb empty tensors
    # Contiguous copies: gradcheck perturbs inputs in place and needs dense storage.
    leaves = [m.tensors[p][1].detach().clone().requires_grad_() for p in paths]
    fixed = {p: t for p, (_, t) in m.tensors.items()}

    def fn(*xs: Any) -> tuple[Any, ...]:
        args, kwargs = substitute(sample, {**fixed, **dict(zip(paths, xs, strict=True))},
                                  ADAPTER)
        if op.inplace:
            args = (args[0].clone(), *args[1:])
        outs = call_op(op, ADAPTER, args, kwargs)
        n_mut = sum(1 for k in op.mutates if k < len(args) and torch.is_tensor(args[k]))
        outs = outs[: len(outs) - n_mut]
        return tuple(o for o in outs if o.is_floating_point())

    torch.autograd.gradcheck(fn, tuple(leaves), fast_mode=True)


@pytest.mark.parametrize("name", GRADCHECK_OPS)
def test_gradcheck_float64(name: str) -> None:
    """Finite differences agree with PyTorch's gradients on our samples.

    This validates the domains and the gradcheck_ok / Sample.gradcheck flags.
    """
    op = OPS[name]
    for i, sample in enumerate(op.samples("float64")):
        if sample.gradcheck:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                _gradcheck_sample(op, sample, i)


# ----------------------------------------------------------------------------- tolerances


def _round_to(expected64: np.ndarray, like: np.ndarray) -> np.ndarray:
    return expected64.astype(like.dtype)


@pytest.mark.parametrize("name", REF_OPS)
def test_tolerances_hold_against_float64_reference(name: str) -> None:
    """Low-precision PyTorch matches float64 on identical inputs within the op's tolerances.

    An implementation that rounds differently should then pass as well, and samples
    are shown to be well conditioned.
    """
    op = OPS[name]
    for dtype in (d for d in LOW_PRECISION if d in op.dtypes):
        for i, sample in enumerate(op.samples(dtype)):
            where = f"{name}/{dtype}/{sample.desc} vs float64"
            actual = run_forward(op, sample, dtype, ADAPTER, seed=i)
            ref = run_forward(op, sample, dtype, ADAPTER, seed=i, upcast="float64")
            assert len(actual) == len(ref), where
            for k, (a, r) in enumerate(zip(actual, ref, strict=True)):
                assert_close(a, _round_to(r, a), dtype, op, f"{where} output {k}")


@pytest.mark.parametrize("name", sorted(n for n in GRAD_OPS if "float32" in OPS[n].dtypes))
def test_float32_gradients_against_float64_reference(name: str) -> None:
    """Float32 gradients match float64 ones on identical inputs within tolerance."""
    op = OPS[name]
    for i, sample in enumerate(op.samples("float32")):
        where = f"{name}/float32/{sample.desc} vs float64"
        actual = run_backward(op, sample, "float32", ADAPTER, seed=i)
        ref = run_backward(op, sample, "float32", ADAPTER, seed=i, upcast="float64")
        assert_grads_close(actual, {p: _round_to(g, actual[p]) for p, g in ref.items()},
                           "float32", op, where)


# ----------------------------------------------------------------------------- harness


def test_assert_close_semantics() -> None:
    """Dtype strictness, NaN/inf handling and default float32 tolerances."""
    op = OPS["add"]
    x = np.array([1.0, np.nan, np.inf], dtype=np.float32)
    assert_close(x, x.copy(), "float32", op)
    with pytest.raises(AssertionError, match="dtype"):
        assert_close(x, x.astype(np.float64), "float32", op)
    with pytest.raises(AssertionError):
        assert_close(np.array([1.0, np.nan, -np.inf], np.float32), x, "float32", op)
    with pytest.raises(AssertionError):
        assert_close(np.array(1.0001, np.float32), np.array(1.0, np.float32), "float32", op)
    assert_close(np.array(1.0000005, np.float32), np.array(1.0, np.float32), "float32", op)
    with pytest.raises(AssertionError):
        assert_close(np.array([1, 2]), np.array([1, 3]), "int64", op)


def test_resolve_method_and_submodule() -> None:
    """``Tensor.x`` refs become method calls; dotted refs reach submodules."""
    x = ADAPTER.from_numpy(np.arange(6.0).reshape(2, 3), "float32")
    assert ADAPTER.resolve("Tensor.t")(x).shape == (3, 2)
    assert ADAPTER.resolve("torch.linalg.vector_norm") is torch.linalg.vector_norm
    assert ADAPTER.resolve("torch.nn.functional.conv2d") is torch.nn.functional.conv2d


def test_inplace_mutation_is_compared() -> None:
    """In-place ops report the mutated input alongside the result."""
    op = OPS["add_"]
    sample = op.samples("float32")[0]
    outs = run_forward(op, sample, "float32", ADAPTER, seed=0)
    assert len(outs) == 2
    assert np.array_equal(outs[0], outs[1])
    m = prepare(sample, "float32", ADAPTER, seed=0)
    before = ADAPTER.to_numpy(m.args[0])
    call_op(op, ADAPTER, m.args, m.kwargs)
    assert not np.array_equal(before, ADAPTER.to_numpy(m.args[0]))
