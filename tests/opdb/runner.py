"""PyTorch's OpInfo database (``op_db``) run through volta: the conformance suite users trust.

For every op_db entry that resolves to a volta callable (``torch.X`` -> ``volta.X``, including
``nn.functional``, ``linalg``, ``special`` and Tensor methods), each ``sample_inputs`` (and
``reference_inputs``) sample is converted to volta tensors and run: outputs must equal
PyTorch's (dtype, shape, values within PyTorch's tolerance for the dtype), and, where op_db says
the op supports autograd, the float64 gradients of ``sum(output * cotangent)`` must equal
PyTorch's. Each ``error_inputs`` sample must make volta raise a ``VoltaError`` where PyTorch
raises.

    python -m tests.opdb.runner [--write-expected] [--only NAME]

prints the statistics (entries resolved, passing, failing by reason) and, with
``--write-expected``, rewrites ``expected_failures.py`` from this run.
"""

from __future__ import annotations

import argparse
import functools
import math
import re
import warnings
from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import torch

import volta

# op_db's float32 run checks values; the float64 run checks gradients (and values again)
VALUE_DTYPE = torch.float32
GRAD_DTYPE = torch.float64
# entries that take no floating dtype run once in the first of these they support
FALLBACK_DTYPES = (torch.int64, torch.int32, torch.uint8, torch.bool)
MAX_SAMPLES = 8  # per entry and kind: keeps the whole database within CI's budget
TOLERANCES = {torch.float32: (1.3e-6, 1e-5), torch.float64: (1e-7, 1e-7),
              torch.float16: (1e-3, 1e-5), torch.bfloat16: (1.6e-2, 1e-5)}
# accumulating ops (matmul, reductions, convolutions) sum in another order than PyTorch's
LOOSE = (1e-4, 1e-4)

HERE = Path(__file__).resolve().parent

# ops whose values are random or uninitialised: only dtypes and shapes are compared
UNCOMPARABLE_VALUES = frozenset({
    "normal", "bernoulli", "uniform", "rand", "randn", "randint", "randperm", "multinomial",
    "exponential", "geometric", "cauchy", "log_normal", "rand_like", "randn_like",
    "randint_like", "empty", "empty_like", "new_empty", "empty_strided", "new_empty_strided",
    "empty_permuted", "nn.functional.dropout", "nn.functional.dropout2d",
    "nn.functional.dropout3d", "nn.functional.alpha_dropout", "nn.functional.feature_alpha_dropout",
    "nn.functional.rrelu", "nn.functional.fractional_max_pool2d",
    "nn.functional.fractional_max_pool3d"})

# entries whose samples are random only in some configurations: (entry, sample) -> whether the
# sample's values are random (then only dtypes and shapes are compared, as above)
RANDOM_SAMPLES = {
    # args[9] is dropout_p; attention dropout draws from the generator while training
    "nn.functional.multi_head_attention_forward":
        lambda sample: bool(sample.kwargs.get("training", True)) and sample.args[9] > 0,
    # (query; key, value, attn_mask, dropout_p, ...): attention dropout draws when dropout_p > 0
    "nn.functional.scaled_dot_product_attention":
        lambda sample: sample.kwargs.get(
            "dropout_p", sample.args[3] if len(sample.args) > 3 else 0.0) > 0,
    # the randomized SVD of A - M for a random full-rank M: the result depends on the random
    # projection, and volta's generator is not PyTorch's (without M, op_db's matrices have
    # rank q exactly and the result is the exact truncated SVD, compared in full)
    "svd_lowrank": lambda sample: sample.kwargs.get("M") is not None,
}

# entries whose outputs are defined only up to a choice (singular vectors' signs), which op_db's
# samples factor out with their own output_process_fn_grad (U @ V^H and S for the low-rank
# SVDs): both results are compared, and differentiated, after it
PROCESSED_OUTPUTS = frozenset({"svd_lowrank", "pca_lowrank"})


# op_db wraps torch.polygamma(n, x) as op(x, n) (or op(x, n=n)): its samples come so
SWAPPED_FIRST_ARGUMENTS = frozenset({"polygamma", "special.polygamma"})


class Unresolved(Exception):
    """The entry names nothing volta has."""


@dataclass
class Outcome:
    entry: str
    status: str  # "pass", "fail", "unresolved"
    reason: str = ""


def entry_name(op: Any) -> str:
    return op.name + (f".{op.variant_test_name}" if op.variant_test_name else "")


def _max_pool2d_with_indices_backward(input: Any, kernel_size: Any = (), stride: Any = (),
                                      padding: Any = (0,), dilation: Any = (1,),
                                      ceil_mode: bool = False, **kwargs: Any) -> Any:
    """op_db's own wrapper of this entry, in volta ops: pool, then the backward op under test
    with ones as the output gradient."""
    out, indices = volta.nn.functional.max_pool2d(
        input, kernel_size, stride, padding, dilation, ceil_mode, return_indices=True)
    stride = kernel_size if stride is None else stride
    return volta.max_pool2d_with_indices_backward(volta.ones_like(out), input, kernel_size, stride,
                                                  padding, dilation, ceil_mode, indices)


# entries whose op_db ``op`` is a test wrapper of op_db's (not a PyTorch API taking the sample's
# arguments): the same wrapper written with volta, calling the volta op the entry names
# (keyed by entry name: ``name.variant`` where only that variant's op is a wrapper)
WRAPPERS = {
    "max_pool2d_with_indices_backward": _max_pool2d_with_indices_backward,
    "nn.functional.embedding_bag":  # op_db's lambda takes (weight, indices)
        lambda weight, idx, **kwargs: volta.nn.functional.embedding_bag(idx, weight, **kwargs),
    "normal.in_place":  # op_db's lambda calls torch.Tensor.normal_
        lambda inp, *args, **kwargs: volta.Tensor.normal_(inp, *args, **kwargs),
    "linalg.lstsq.grad_oriented":  # op_db's lambda keeps the solution and the residuals
        lambda a, b, driver: volta.linalg.lstsq(a, b, driver=driver)[:2],
    "linalg.pinv.singular":  # op_db's lambda builds a singular matrix from two factors
        lambda a, b: volta.linalg.pinv(a @ b.mT),
    "einsum":  # op_db's lambda takes (tensors, equation)
        lambda tensors, equation: volta.einsum(equation, tensors),
    "zero_":  # op_db's lambda zeroes a clone (its input may be a leaf requiring grad)
        lambda x: x.clone().zero_(),  # (torch.zero_ is the method, as a function)
    "where":  # op_db's lambda takes (self, condition, other)
        lambda self, condition, other, **kwargs: volta.where(condition, self, other, **kwargs),
    "resize_":  # op_db's lambda resizes a clone (its input may be a leaf requiring grad)
        lambda x, shape: x.clone().resize_(shape),
    "resize_as_":  # op_db's lambda resizes a clone, through the function
        lambda x, other: volta.resize_as_(x.clone(), other),
    "svd_lowrank":  # op_db's lambda factors the matrix (it builds it of rank q from two)
        lambda a, b, **kwargs: volta.svd_lowrank(a @ b.mT, **kwargs),
    "pca_lowrank":  # as svd_lowrank's
        lambda a, b, **kwargs: volta.pca_lowrank(a @ b.mT, **kwargs),
    "nn.functional.embedding":  # op_db's lambda takes (weight, indices)
        lambda weight, idx, **kwargs: volta.nn.functional.embedding(idx, weight, **kwargs),
}


def resolve(op: Any) -> Any:
    """The volta callable of an op_db entry, or raise Unresolved."""
    target: Any = volta
    for part in op.name.split("."):
        target = getattr(target, part, None)
        if target is None:
            break
    if target is not None and callable(target):
        if op.name in SWAPPED_FIRST_ARGUMENTS:
            return lambda first, *args, **kwargs: (
                target(args[0], first, *args[1:], **kwargs) if args
                else target(input=first, **kwargs))
        return target
    method = getattr(volta.Tensor, op.name, None) if "." not in op.name else None
    if isinstance(method, property):  # T, H, mT, mH: attributes (op_db's op reads them)
        return lambda self: getattr(self, op.name)
    if method is not None:
        # op_db's op is the unbound torch.Tensor method: the sample's first value is ``self``,
        # whatever it is (an error input passes a number there)
        return lambda self, *args, **kwargs: method(self, *args, **kwargs)
    # the random fills (uniform, cauchy, ...) exist only as in-place methods, in PyTorch too
    fill = op.name + "_"
    if op.name in UNCOMPARABLE_VALUES and op.inplace_variant is not None and hasattr(
            volta.Tensor, fill):
        return lambda self, *args, **kwargs: getattr(self, fill)(*args, **kwargs)
    raise Unresolved(op.name)


# -- converting arguments ------------------------------------------------------------------------

_DTYPES = {getattr(torch, name): getattr(volta, name) for name in
           ("float16", "bfloat16", "float32", "float64", "int8", "int16", "int32", "int64",
            "uint8", "bool")}


class Unsupported(Exception):
    """The sample uses something volta does not model (complex, sparse, a torch-only type)."""


def to_volta(value: Any, requires_grad: bool) -> Any:
    if isinstance(value, torch.Tensor) and value._base is not None and not value.requires_grad:
        # a view (op_db's partial views): the same view of a copy of its whole storage, so
        # that as_strided and storage offsets address what they do in PyTorch
        storage = value.untyped_storage().nbytes() // value.element_size()
        whole = to_volta(torch.as_strided(value.detach(), (storage,), (1,), 0).clone(), False)
        return whole.as_strided(tuple(value.shape), value.stride(), value.storage_offset())
    if isinstance(value, torch.Tensor):
        if value.dtype not in _DTYPES or value.layout != torch.strided or value.is_conj():
            raise Unsupported(f"tensor of {value.dtype}/{value.layout}")
        data = value.detach()
        try:
            array = (data.float() if data.dtype is torch.bfloat16 else data).numpy().copy()
        except Exception as error:  # e.g. more dimensions than numpy allows
            raise Unsupported(f"tensor numpy cannot hold: {error}") from error
        converted = volta.from_numpy(array)
        if data.dtype is torch.bfloat16:
            converted = converted.to(volta.bfloat16)
        if requires_grad and value.requires_grad and converted.dtype.is_floating_point:
            converted.requires_grad_()
        return converted
    if isinstance(value, torch.dtype):
        if value not in _DTYPES:
            raise Unsupported(f"dtype {value}")
        return _DTYPES[value]
    if isinstance(value, torch.device):
        return "cpu"
    if isinstance(value, torch.Size):
        return tuple(value)
    if isinstance(value, (list, tuple)):
        return type(value)(to_volta(v, requires_grad) for v in value)
    if isinstance(value, dict):
        return {k: to_volta(v, requires_grad) for k, v in value.items()}
    if isinstance(value, torch.nn.PairwiseDistance):  # a distance_function argument
        return functools.partial(volta.nn.functional.pairwise_distance, p=value.norm,
                                 eps=value.eps, keepdim=value.keepdim)
    if isinstance(value, torch.memory_format):
        return getattr(volta, str(value).rsplit(".", 1)[-1])
    if isinstance(value, (torch.layout, torch.Generator)):
        raise Unsupported(type(value).__name__)
    if isinstance(value, complex):
        raise Unsupported("complex number")
    return value


def outputs_of(result: Any, tensor_type: type) -> list[Any]:
    if isinstance(result, tensor_type):
        return [result]
    if isinstance(result, (list, tuple)):
        return [t for item in result for t in outputs_of(item, tensor_type)]
    return []


def as_numpy(t: Any) -> np.ndarray:
    if isinstance(t, torch.Tensor):
        t = t.detach()
        return (t.float() if t.dtype is torch.bfloat16 else t).numpy()
    t = t.detach()
    return (t.float() if t.dtype is volta.bfloat16 else t).numpy()


def compare(actual: Any, expected: torch.Tensor, what: str, tolerance: tuple[float, float]
            ) -> None:
    a_dtype = str(actual.dtype).rsplit(".", 1)[-1]
    e_dtype = str(expected.dtype).rsplit(".", 1)[-1]
    if a_dtype != e_dtype:
        raise AssertionError(f"{what}: dtype {a_dtype} != {e_dtype}")
    if tuple(actual.shape) != tuple(expected.shape):
        raise AssertionError(f"{what}: shape {tuple(actual.shape)} != {tuple(expected.shape)}")
    a, e = as_numpy(actual), as_numpy(expected)
    if not expected.dtype.is_floating_point:
        if not np.array_equal(a, e):
            raise AssertionError(f"{what}: values differ")
        return
    rtol, atol = tolerance
    if not np.allclose(a, e, rtol=rtol, atol=atol, equal_nan=True):
        raise AssertionError(f"{what}: values differ (max abs diff "
                             f"{np.nanmax(np.abs(a.astype(np.float64) - e)):.3g})")


# -- running an entry ----------------------------------------------------------------------------


def _tolerance(op: Any, dtype: torch.dtype) -> tuple[float, float]:
    rtol, atol = TOLERANCES.get(dtype, (0.0, 0.0))  # integer and bool outputs are exact
    return (max(rtol, LOOSE[0]), max(atol, LOOSE[1])) if dtype is torch.float32 else (rtol, atol)


def _fresh_leaves(value: Any) -> Any:
    """Tensors that require grad as new leaves with the same strides: op_db builds some inputs
    as views of other leaves, which ``torch.autograd.grad`` then reports as unused."""
    if isinstance(value, torch.Tensor) and value.requires_grad:
        leaf = torch.empty_strided(value.shape, value.stride(), dtype=value.dtype)
        return leaf.copy_(value.detach()).requires_grad_()
    if isinstance(value, (list, tuple)):
        return type(value)(_fresh_leaves(v) for v in value)
    if isinstance(value, dict):
        return {k: _fresh_leaves(v) for k, v in value.items()}
    return value


def _run_sample(op: Any, fn: Any, sample: Any, dtype: torch.dtype, check_grad: bool) -> None:
    torch_args = _fresh_leaves((sample.input, *sample.args))
    torch_kwargs = _fresh_leaves(dict(sample.kwargs))
    try:
        expected = op(*torch_args, **torch_kwargs)
    except Exception as error:  # PyTorch rejects its own sample: nothing to compare
        raise Unsupported(f"PyTorch raised {type(error).__name__}") from error
    v_args = to_volta(torch_args, check_grad)
    v_kwargs = to_volta(torch_kwargs, check_grad)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        result = fn(*v_args, **v_kwargs)
    if op.name in PROCESSED_OUTPUTS:
        expected = sample.output_process_fn_grad(expected)
        result = sample.output_process_fn_grad(result)
    expected_outs = outputs_of(expected, torch.Tensor)
    actual_outs = outputs_of(result, volta.Tensor)
    if len(actual_outs) != len(expected_outs):
        raise AssertionError(f"{len(actual_outs)} outputs != {len(expected_outs)}")
    random = op.name in UNCOMPARABLE_VALUES or (
        op.name in RANDOM_SAMPLES and RANDOM_SAMPLES[op.name](sample))
    for index, (a, e) in enumerate(zip(actual_outs, expected_outs)):
        if random:
            compare(volta.zeros_like(a), torch.zeros_like(e), f"output {index}", (0.0, 0.0))
        else:
            # an output of another dtype than the run's (a factory's default dtype) gets its own
            compare(a, e, f"output {index}",
                    _tolerance(op, e.dtype if e.dtype in TOLERANCES else dtype))
    if not check_grad or random:
        return
    t_leaves = [t for t in _flat(torch_args) + _flat(torch_kwargs)
                if isinstance(t, torch.Tensor) and t.requires_grad]
    v_leaves = [t for t in _flat(v_args) + _flat(v_kwargs)
                if isinstance(t, volta.Tensor) and t.requires_grad]
    pairs = [(a, e) for a, e in zip(actual_outs, expected_outs)
             if e.requires_grad and e.dtype.is_floating_point]
    if not pairs or len(t_leaves) != len(v_leaves):
        return
    rng = np.random.default_rng(0)
    cotangents = [rng.uniform(-1, 1, size=tuple(e.shape)) for _, e in pairs]
    try:
        t_grads = torch.autograd.grad([e for _, e in pairs],
                                      t_leaves, [torch.from_numpy(c) for c in cotangents],
                                      allow_unused=True)
    except Exception as error:  # PyTorch's own backward fails here: nothing to compare
        raise Unsupported(f"PyTorch's backward raised {type(error).__name__}") from error
    v_grads = volta.autograd.grad([a for a, _ in pairs], v_leaves,
                                  [volta.from_numpy(c.copy()) for c in cotangents],
                                  allow_unused=True)
    for index, (vg, tg) in enumerate(zip(v_grads, t_grads)):
        if tg is None and vg is None:
            continue
        if tg is None or tg._is_zerotensor():  # PyTorch's lazy zeros (sgn's gradient)
            tg = torch.zeros_like(t_leaves[index])
        if vg is None:
            vg = volta.zeros(tuple(tg.shape), dtype=_DTYPES[tg.dtype])
        compare(vg, tg, f"grad of input {index}", (1e-6, 1e-6))


def _flat(value: Any) -> list[Any]:
    if isinstance(value, dict):
        value = list(value.values())
    if isinstance(value, (list, tuple)):
        return [t for v in value for t in _flat(v)]
    return [value]


def _samples(op: Any, dtype: torch.dtype, requires_grad: bool) -> list[Any]:
    """Up to MAX_SAMPLES sample inputs, then reference inputs beyond them; none where op_db's
    own generator fails for this dtype (its fault, not volta's)."""
    try:
        samples = list(op.sample_inputs("cpu", dtype, requires_grad=requires_grad))
        samples = samples[:MAX_SAMPLES]
        if op.reference_inputs_func is not None:
            references = op.reference_inputs("cpu", dtype, requires_grad=requires_grad)
            samples += list(references)[len(samples):len(samples) + MAX_SAMPLES]
    except Exception:  # a generator op_db cannot run here (it raises before any volta call)
        return []
    return samples


def run_entry(op: Any) -> Outcome:
    name = entry_name(op)
    try:
        fn = WRAPPERS.get(name) or WRAPPERS.get(op.name) or resolve(op)
    except Unresolved:
        return Outcome(name, "unresolved")
    supported = op.supported_dtypes("cpu")
    runs = [(dtype, dtype is GRAD_DTYPE and op.supports_autograd)
            for dtype in (VALUE_DTYPE, GRAD_DTYPE) if dtype in supported]
    if not runs:  # an integer/bool-only op (bincount, one_hot, bitwise_not): values only
        runs = [(dtype, False) for dtype in FALLBACK_DTYPES if dtype in supported][:1]
    tried = 0
    for dtype, check_grad in runs:
        for sample in _samples(op, dtype, check_grad):
            try:
                _run_sample(op, fn, sample, dtype, check_grad)
                tried += 1
            except Unsupported:
                continue
            except Exception as error:  # every fault of volta's is this entry's failure
                return Outcome(name, "fail", _reason(error))
    try:
        errors = list(op.error_inputs("cpu"))[:MAX_SAMPLES] if op.error_inputs_func else []
    except Exception:  # op_db's own generator fails here
        errors = []
    for sample in errors:
        try:
            v_args = to_volta((sample.sample_input.input, *sample.sample_input.args), False)
            v_kwargs = to_volta(dict(sample.sample_input.kwargs), False)
        except Unsupported:
            continue
        if not _torch_raises(op, sample.sample_input):
            continue  # op_db lists a call PyTorch accepts (clamp_min(t, 2)): not an error input
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                fn(*v_args, **v_kwargs)
        except volta.VoltaError:
            tried += 1
            continue
        except Exception as error:
            return Outcome(name, "fail", f"error input raised {type(error).__name__}, "
                                         "not a VoltaError")
        return Outcome(name, "fail", "error input accepted: PyTorch raises "
                                     f"{sample.error_type.__name__}")
    if tried == 0 and not supported:
        return Outcome(name, "fail", "op_db lists no CPU dtype for this entry (a CUDA-only "
                                     "variant): nothing to run")
    if tried == 0:
        return Outcome(name, "fail", "no sample volta can take (complex, sparse or "
                                     "torch-only arguments)")
    return Outcome(name, "pass")


def _torch_raises(op: Any, sample: Any) -> bool:
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            op(sample.input, *sample.args, **sample.kwargs)
    except Exception:
        return True
    return False


def _reason(error: Exception) -> str:
    text = f"{type(error).__name__}: {error}".splitlines()[0]
    text = re.sub(r"0x[0-9a-f]+", "0x...", text)
    text = re.sub(r"\d+\.\d+(e-?\d+)?", "N", text)
    return text[:160]


def all_outcomes(only: str | None = None) -> list[Outcome]:
    from torch.testing._internal.common_methods_invocations import op_db

    outcomes = []
    for op in op_db:
        if only is not None and entry_name(op) != only:
            continue
        outcomes.append(run_entry(op))
    return outcomes


def op_db_entries() -> list[Any]:
    from torch.testing._internal.common_methods_invocations import op_db

    return list(op_db)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--write-expected", action="store_true")
    parser.add_argument("--only")
    args = parser.parse_args()
    torch.manual_seed(0)
    outcomes = all_outcomes(args.only)
    counts = Counter(o.status for o in outcomes)
    resolved = counts["pass"] + counts["fail"]
    share = 100.0 * counts["pass"] / resolved if resolved else math.nan
    print(f"op_db entries: {len(outcomes)}; resolved: {resolved}; pass: {counts['pass']} "
          f"({share:.1f}%); fail: {counts['fail']}; unresolved: {counts['unresolved']}")
    kinds = Counter(o.reason.split(":")[0] for o in outcomes if o.status == "fail")
    for kind, count in kinds.most_common():
        print(f"  {count:4d}  {kind}")
    if args.write_expected:
        lines = ['"""op_db entries volta fails today, each with the reason the run gave (the first',
                 "failing sample's error). Generated by `python -m tests.opdb.runner",
                 "--write-expected`; an entry that starts passing must leave this list (the test",
                 'fails on an unexpected pass)."""', "", "EXPECTED_FAILURES: dict[str, str] = {"]
        lines += [f"    {o.entry!r}: {o.reason!r}," for o in outcomes if o.status == "fail"]
        lines.append("}")
        (HERE / "expected_failures.py").write_text("\n".join(lines) + "\n")


if __name__ == "__main__":
    main()
