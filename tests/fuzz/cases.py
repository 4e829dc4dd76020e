"""One differential fuzz case: a random op of ops.yaml called on volta and on PyTorch.

A case is drawn with hypothesis from the op's schema (argument types from the schema registry),
run on both frameworks with equal inputs, and classified: both accept and agree, both reject,
or a disagreement of one class (see ``Outcome.kind``).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import ml_dtypes
import numpy as np
import torch
from hypothesis import strategies as st

import volta
from volta._generated import registry
from volta._generated.functions import NAMESPACES
from volta.dispatch.dispatcher import OperatorHandle
from volta.errors import VoltaError

DTYPES = ("float16", "bfloat16", "float32", "float64", "uint8", "int8", "int16", "int32",
          "int64", "bool")
_NP = {"bfloat16": np.dtype(ml_dtypes.bfloat16), "bool": np.dtype(np.bool_)}

# Numbers beyond every dtype and sizes beyond any memory: they must give an error, not an overflow
# or an allocation attempt.
HUGE_INT = 2**70
HUGE_SIZES = ((2**40,), (2**31, 2**31), (2**62,), (2**20, 2**20, 2**20))

# ops whose values are random or uninitialised: only shape and dtype are compared
NONDETERMINISTIC = {"dropout", "alpha_dropout", "feature_alpha_dropout", "bernoulli", "multinomial",
                    "normal", "rand", "randn", "randint", "randperm", "rand_like", "randn_like",
                    "randint_like", "empty", "empty_like", "empty_strided", "uniform_", "normal_",
                    "bernoulli_", "exponential_", "random_", "new_empty", "rrelu", "dropout1d",
                    "dropout2d", "dropout3d", "cauchy_", "geometric_", "log_normal_"}

_NAMESPACES = ("", "nn.functional", "linalg", "special")


def _namespace(root: Any, ns: str) -> Any:
    for part in filter(None, ns.split(".")):
        root = getattr(root, part, None)
    return root


def _lookup(name: str) -> tuple[Any, Any]:
    """volta's function and torch's of the same name, from the first namespace volta has it in
    (``dropout`` is ``nn.functional.dropout``, not ``torch.dropout(input, p, train)``)."""
    declared = [("" if ns == "volta" else ns) for ns in NAMESPACES if name in NAMESPACES[ns]]
    for ns in sorted(declared, key=len) + list(_NAMESPACES[1:] + _NAMESPACES[:1]):
        vfn = getattr(_namespace(volta, ns), name, None)
        tfn = getattr(_namespace(torch, ns), name, None)
        if callable(vfn) and callable(tfn):
            return vfn, tfn
    return None, None


@dataclass(frozen=True)
class FuzzOp:
    name: str
    handle: OperatorHandle
    volta_fn: Any      # None: called as a Tensor method
    torch_fn: Any


def _all_ops() -> tuple[list[FuzzOp], list[str]]:
    ops, skipped = [], []
    for handle in vars(registry).values():
        if not isinstance(handle, OperatorHandle):
            continue
        name = handle.name.split(".")[0]
        if name.endswith("_") or name.startswith("_"):
            if name.startswith("_") or not hasattr(torch.Tensor, name):
                skipped.append(name)
                continue
            if hasattr(volta.Tensor, name):  # in-place variants run as methods
                ops.append(FuzzOp(name, handle, None, None))
                continue
        vfn, tfn = _lookup(name)
        if vfn is not None and tfn is not None:
            ops.append(FuzzOp(name, handle, vfn, tfn))
        elif hasattr(volta.Tensor, name) and hasattr(torch.Tensor, name):
            ops.append(FuzzOp(name, handle, None, None))
        else:
            skipped.append(name)
    ops.sort(key=lambda o: o.name)
    return ops, sorted(set(skipped))


OPS, SKIPPED = _all_ops()


# -- drawing inputs ----------------------------------------------------------------------------

def _array(draw: Any, shape: tuple[int, ...], dtype: str, positive: bool = False) -> np.ndarray:
    n = math.prod(shape)
    rng = np.random.default_rng(draw(st.integers(0, 2**32 - 1)))
    if dtype == "bool":
        data = rng.random(n) < 0.5
    elif dtype in ("float16", "bfloat16", "float32", "float64"):
        data = rng.standard_normal(n) * draw(st.sampled_from((1.0, 3.0, 100.0)))
        if positive:
            data = np.abs(data)
        if n and draw(st.booleans()) and draw(st.booleans()):
            special = rng.choice([np.nan, np.inf, -np.inf, 0.0, -0.0], size=max(1, n // 4))
            data[rng.integers(0, n, size=special.size)] = special
    else:
        low = 0 if dtype == "uint8" or positive else -5
        data = rng.integers(low, 6, size=n)
    return data.astype(_NP.get(dtype, np.dtype(dtype))).reshape(shape)


@st.composite
def shapes(draw: Any, max_dims: int = 4) -> tuple[int, ...]:
    ndim = draw(st.integers(0, max_dims))
    return tuple(draw(st.integers(0 if draw(st.integers(0, 6)) == 0 else 1, 4))
                 for _ in range(ndim))


@dataclass
class Arg:
    """An argument as both frameworks receive it (numpy data for tensors)."""
    value: Any
    is_tensor: bool = False
    is_list: bool = False


OMIT = Arg(None)  # an argument not passed at all

_STR_CHOICES = ("none", "mean", "sum", "tanh", "floor", "trunc", "reflect", "constant",
                "bogus", "fro", "nearest", "linear", "left")


def _dim_value(draw: Any, ndim: int) -> int:
    if draw(st.integers(0, 9)) == 0:
        return draw(st.sampled_from((ndim + 3, -ndim - 3, HUGE_INT)))
    return draw(st.integers(-max(ndim, 1), max(ndim - 1, 0)))


def _tensor_like(draw: Any, base: tuple[tuple[int, ...], str], name: str) -> Arg:
    shape, dtype = base
    if name in ("index", "indices", "target") and draw(st.booleans()):
        hi = max(1, max(shape, default=1))
        return Arg(np.random.default_rng(draw(st.integers(0, 99))).integers(
            0, hi, size=shape).astype(np.int64), is_tensor=True)
    if name == "mask" and draw(st.booleans()):
        return Arg(_array(draw, shape, "bool"), is_tensor=True)
    choice = draw(st.integers(0, 9))
    if choice < 5:
        other_shape = shape
    elif choice < 7:
        other_shape = shape[draw(st.integers(0, len(shape))):]
    elif choice < 8:
        other_shape = tuple(1 if draw(st.booleans()) else s for s in shape)
    else:
        other_shape = draw(shapes())
    other_dtype = dtype if draw(st.booleans()) else draw(st.sampled_from(DTYPES))
    return Arg(_array(draw, other_shape, other_dtype), is_tensor=True)


def _scalar(draw: Any) -> Any:
    return draw(st.one_of(st.integers(-5, 5), st.floats(-10, 10, allow_nan=False),
                          st.booleans(), st.sampled_from((HUGE_INT, math.nan, math.inf, 2**40))))


def draw_value(draw: Any, arg: Any, base: tuple[tuple[int, ...], str], first: bool) -> Arg:
    """A valid-looking value for schema argument ``arg`` (invalid ones come from ``corrupt``)."""
    t = arg.type
    shape, _ = base
    ndim = len(shape)
    if t.base in ("Generator", "MemoryFormat", "Device", "Layout"):
        return OMIT  # left to their defaults
    if t.optional and draw(st.integers(0, 2)) == 0:
        return Arg(None)
    if t.base == "Tensor" and t.is_list:
        n = draw(st.integers(0 if draw(st.integers(0, 5)) == 0 else 1, 3))
        return Arg([_tensor_like(draw, base, "").value for _ in range(n)], is_list=True)
    if t.base == "Tensor":
        if first:
            return Arg(_array(draw, shape, base[1]), is_tensor=True)
        if draw(st.integers(0, 5)) == 0:
            return Arg(_scalar(draw))
        return _tensor_like(draw, base, arg.name)
    if t.base in ("int", "SymInt") and t.is_list:
        if arg.name in ("dim", "dims"):
            return Arg([_dim_value(draw, ndim) for _ in range(draw(st.integers(0, max(ndim, 1))))])
        if arg.name in ("size", "shape") and draw(st.integers(0, 9)) == 0:
            return Arg(list(draw(st.sampled_from(HUGE_SIZES))))
        if arg.name in ("size", "shape"):
            return Arg(list(draw(shapes(3))))
        return Arg([draw(st.integers(-1, 4)) for _ in range(draw(st.integers(0, t.list_size or 3)))])
    if t.base in ("int", "SymInt"):
        if "dim" in arg.name:
            return Arg(_dim_value(draw, ndim))
        if draw(st.integers(0, 15)) == 0:
            return Arg(draw(st.sampled_from((HUGE_INT, 2**63, 2**40, -(2**40)))))
        return Arg(draw(st.integers(-2, 6)))
    if t.base == "bool" and t.is_list:
        return Arg([draw(st.booleans()) for _ in range(t.list_size or 1)])
    if t.base == "bool":
        return Arg(draw(st.booleans()))
    if t.base == "float":
        return Arg(draw(st.one_of(st.floats(-3, 3, allow_nan=False), st.integers(-3, 3),
                                  st.sampled_from((math.nan, math.inf, 0.0)))))
    if t.base == "Scalar":
        return Arg(_scalar(draw))
    if t.base == "ScalarType":
        return Arg(draw(st.sampled_from(DTYPES + ("float", "int", "bool"))))
    if t.base == "str":
        return Arg(draw(st.sampled_from(_STR_CHOICES)))
    return OMIT


# wrong-typed values, and the keyword nobody declares
WRONG_VALUES = ("x", object(), [1.5, "a"], 1.5, {"a": 1}, "float32")


@dataclass
class Case:
    op: FuzzOp
    args: list[Arg]
    kwargs: dict[str, Arg]
    invalid: bool   # deliberately corrupted (wrong type or unknown keyword)

    def describe(self) -> str:
        def show(a: Arg) -> str:
            if a.is_tensor:
                return f"tensor(shape={a.value.shape}, dtype={a.value.dtype})"
            if a.is_list:
                return "[" + ", ".join(f"tensor({v.shape}, {v.dtype})" for v in a.value) + "]"
            if isinstance(a.value, str) and a.value in DTYPES + ("float", "int", "bool"):
                return f"dtype:{a.value}"
            return repr(a.value)
        parts = [show(a) for a in self.args] + [f"{k}={show(v)}" for k, v in self.kwargs.items()]
        how = "method" if self.op.volta_fn is None else "function"
        return f"{self.op.name}({', '.join(parts)})  [{how}]"


# Factories are plain functions, not ops.yaml operators: each draws its own arguments.
_SIZES = st.one_of(st.lists(st.integers(0, 4), max_size=3), st.sampled_from(HUGE_SIZES),
                   st.sampled_from(([-1], [2, -3])))
_BOUNDS = st.one_of(st.integers(-5, 300), st.floats(-10, 10, allow_nan=False),
                    st.sampled_from((2**63, HUGE_INT, -(2**63) - 1, math.nan, math.inf)))
_COUNTS = st.one_of(st.integers(-1, 6), st.sampled_from((2**40, 2**62)))
FACTORIES: dict[str, tuple[Any, ...]] = {
    "zeros": (_SIZES,), "ones": (_SIZES,), "empty": (_SIZES,), "rand": (_SIZES,),
    "randn": (_SIZES,), "full": (_SIZES, _BOUNDS), "arange": (_BOUNDS,),
    "linspace": (_BOUNDS, _BOUNDS, _COUNTS), "logspace": (_BOUNDS, _BOUNDS, _COUNTS),
    "eye": (_COUNTS,), "randperm": (_COUNTS,),
    "randint": (st.integers(-5, 5), st.one_of(st.integers(-5, 10), st.just(HUGE_INT)), _SIZES),
    "tensor": (st.one_of(st.lists(_BOUNDS, max_size=4), _BOUNDS),),
}


def _factory_ops() -> list[FuzzOp]:
    return [FuzzOp(name, None, getattr(volta, name), getattr(torch, name))  # type: ignore[arg-type]
            for name in FACTORIES]


FACTORY_OPS = _factory_ops()


@st.composite
def factory_cases(draw: Any) -> Case:
    op = draw(st.sampled_from(FACTORY_OPS))
    args = [Arg(draw(strategy)) for strategy in FACTORIES[op.name]]
    if op.name == "arange":
        args += [Arg(draw(_BOUNDS)) for _ in range(draw(st.integers(0, 2)))]
    kwargs = {}
    if draw(st.booleans()):
        kwargs["dtype"] = Arg(draw(st.sampled_from(DTYPES + ("float", "int", "bool", "str:float32"))))
    return Case(op, args, kwargs, invalid=False)


@st.composite
def cases(draw: Any) -> Case:
    if draw(st.integers(0, 7)) == 0:
        return draw(factory_cases())
    op = draw(st.sampled_from(OPS))
    base = (draw(shapes()), draw(st.sampled_from(DTYPES)))
    args: list[Arg] = []
    kwargs: dict[str, Arg] = {}
    first = True
    for a in op.handle.schema.arguments:
        if a.has_default and draw(st.integers(0, 2)) == 0:
            first = False
            continue  # left to its default
        value = draw_value(draw, a, base, first)
        first = False
        if value is OMIT:
            continue
        if a.kwarg_only or (a.has_default and draw(st.integers(0, 3)) == 0) or kwargs:
            kwargs["input" if a.name == "self" else a.name] = value
        else:
            args.append(value)
    invalid = draw(st.integers(0, 9)) == 0
    if invalid:
        slots = len(args) + len(kwargs) + 1
        slot = draw(st.integers(0, slots - 1))
        wrong = Arg(draw(st.sampled_from(WRONG_VALUES)))
        if slot < len(args):
            args[slot] = wrong
        elif slot < len(args) + len(kwargs):
            kwargs[list(kwargs)[slot - len(args)]] = wrong
        else:
            kwargs["bogus_keyword"] = Arg(1)
    return Case(op, args, kwargs, invalid)


# -- running on both frameworks ----------------------------------------------------------------

_TORCH_DTYPE_NAMES = {"float": float, "int": int, "bool": bool}


def _to_volta(a: Arg) -> Any:
    if isinstance(a.value, str) and a.value.startswith("str:"):
        return a.value[4:]  # a dtype given by name (PyTorch rejects it)
    if a.is_tensor:
        return volta.tensor(a.value.copy())
    if a.is_list:
        return [volta.tensor(v.copy()) for v in a.value]
    if isinstance(a.value, str) and a.value in DTYPES:
        return getattr(volta, a.value)
    if isinstance(a.value, str) and a.value in _TORCH_DTYPE_NAMES:
        return _TORCH_DTYPE_NAMES[a.value]
    return a.value


def _np_to_torch(x: np.ndarray) -> torch.Tensor:
    if x.dtype == _NP["bfloat16"]:
        return torch.from_numpy(x.astype(np.float32)).to(torch.bfloat16)
    return torch.from_numpy(x.copy())


def _to_torch(a: Arg) -> Any:
    if isinstance(a.value, str) and a.value.startswith("str:"):
        return a.value[4:]
    if a.is_tensor:
        return _np_to_torch(a.value)
    if a.is_list:
        return [_np_to_torch(v) for v in a.value]
    if isinstance(a.value, str) and a.value in DTYPES:
        return getattr(torch, a.value)
    if isinstance(a.value, str) and a.value in _TORCH_DTYPE_NAMES:
        return _TORCH_DTYPE_NAMES[a.value]
    return a.value


def _call(fn: Any, name: str, args: list, kwargs: dict) -> Any:
    if fn is None:
        if not args:
            raise _NoSelf()
        return getattr(args[0], name)(*args[1:], **kwargs)
    return fn(*args, **kwargs)


class _NoSelf(Exception):
    """A method call drawn without its ``self`` (the case is not run)."""


@dataclass
class Outcome:
    kind: str                 # "agree", "both_reject", or a disagreement class
    detail: str = ""

    @property
    def agrees(self) -> bool:
        return self.kind in ("agree", "both_reject")


def _torch_result(x: Any) -> Any:
    if isinstance(x, torch.Tensor):
        return x.detach()
    if isinstance(x, (tuple, list)):
        return [_torch_result(v) for v in x]
    return x


def _volta_to_torch(x: Any) -> Any:
    if isinstance(x, volta.Tensor):
        return _np_to_torch(np.asarray(x.detach().numpy()))
    if isinstance(x, (tuple, list)):
        return [_volta_to_torch(v) for v in x]
    return x


def compare(name: str, v: Any, t: Any) -> Outcome:
    if isinstance(t, torch.Tensor):
        if not isinstance(v, torch.Tensor):
            return Outcome("type", f"volta {type(v).__name__}, torch Tensor")
        if v.dtype != t.dtype:
            return Outcome("dtype", f"volta {v.dtype}, torch {t.dtype}")
        if v.shape != t.shape:
            return Outcome("shape", f"volta {tuple(v.shape)}, torch {tuple(t.shape)}")
        if name in NONDETERMINISTIC or t.is_meta:
            return Outcome("agree")
        try:
            torch.testing.assert_close(v, t, equal_nan=True, check_dtype=False,
                                       rtol=2e-2 if t.dtype in (torch.float16, torch.bfloat16)
                                       else None, atol=1e-2 if t.dtype in
                                       (torch.float16, torch.bfloat16) else None)
        except AssertionError as e:
            return Outcome("value", str(e).splitlines()[0][:200])
        return Outcome("agree")
    if isinstance(t, list):
        if not isinstance(v, list) or len(v) != len(t):
            return Outcome("type", "result structure differs")
        for vi, ti in zip(v, t):
            out = compare(name, vi, ti)
            if not out.agrees:
                return out
        return Outcome("agree")
    if isinstance(t, (int, float, bool)) and isinstance(v, (int, float, bool)):
        if t == v or (isinstance(t, float) and math.isnan(t) and math.isnan(v)):
            return Outcome("agree")
        return Outcome("value", f"volta {v!r}, torch {t!r}")
    if type(v).__name__ == type(t).__name__ or v == t:
        return Outcome("agree")
    return Outcome("type", f"volta {type(v).__name__}, torch {type(t).__name__}")


def _snapshot(values: list) -> list:
    return [(v, v.numpy().tobytes(), tuple(v.shape), v._version)
            for v in values if isinstance(v, volta.Tensor)]


def _named_arguments(case: Case, args: list, kwargs: dict) -> dict:
    """The call's arguments by schema name, positional ones in schema order as torch binds them."""
    names = [a.name for a in case.op.handle.schema.arguments] if case.op.handle else []
    named = dict(zip(names, args))
    named.update(kwargs)
    return named


def _crashes_torch(case: Case, t_args: list, t_kwargs: dict) -> bool:
    """Calls that crash PyTorch's process (a segmentation fault, torch 2.13) instead of raising:
    they are not run on torch and count as torch rejecting them."""
    if case.op.name == "native_batch_norm":
        named = _named_arguments(case, t_args, t_kwargs)
        # eval mode without running statistics dereferences the missing running_mean
        return not named.get("training", True) and (named.get("running_mean") is None
                                                      or named.get("running_var") is None)
    return False


class _TorchCrash(Exception):
    """Stands for torch's error on a call that crashes torch (see ``_crashes_torch``)."""


def run_case(case: Case) -> Outcome | None:
    """Run ``case`` on both frameworks; None when the case cannot be run (method without self)."""
    name = case.op.name
    v_args = [_to_volta(a) for a in case.args]
    v_kwargs = {k: _to_volta(a) for k, a in case.kwargs.items()}
    t_args = [_to_torch(a) for a in case.args]
    t_kwargs = {k: _to_torch(a) for k, a in case.kwargs.items()}
    if case.op.volta_fn is None and not (case.args and case.args[0].is_tensor):
        return None
    flat = [*v_args, *v_kwargs.values()]
    flat += [x for x in flat if isinstance(x, list) for x in x]
    before = _snapshot(flat)
    try:
        if _crashes_torch(case, t_args, t_kwargs):
            raise _TorchCrash(f"{name}: crashes torch")
        t_out: Any = _torch_result(_call(case.op.torch_fn, name, t_args, t_kwargs))
        t_err: BaseException | None = None
    except Exception as e:  # noqa: BLE001 - any torch error is "torch rejects"
        t_out, t_err = None, e
    try:
        v_result: Any = _call(case.op.volta_fn, name, v_args, v_kwargs)
        v_err: BaseException | None = None
    except Exception as e:  # noqa: BLE001 - classified below
        v_result, v_err = None, e
    if v_err is not None:
        if not isinstance(v_err, VoltaError):
            return Outcome(f"raw:{type(v_err).__name__}", str(v_err)[:200])
        for tensor, data, shape, version in before:
            if (tuple(tensor.shape) != shape or tensor._version != version
                    or tensor.numpy().tobytes() != data):
                return Outcome("input_modified", str(v_err)[:200])
        if t_err is None:
            return Outcome("volta_rejects", f"{type(v_err).__name__}: {str(v_err)[:200]}")
        return Outcome("both_reject")
    if t_err is not None:
        return Outcome("volta_accepts", f"torch {type(t_err).__name__}: {str(t_err)[:200]}")
    if _too_big(t_out):  # a huge expanded view: compare what it is, not its values
        return compare(name, _meta(v_result), _meta(t_out))
    return compare(name, _volta_to_torch(v_result), t_out)


_COMPARE_LIMIT = 10**7  # elements; larger results (expanded views) are not materialised


def _too_big(x: Any) -> bool:
    if isinstance(x, torch.Tensor):
        return x.numel() > _COMPARE_LIMIT
    return isinstance(x, list) and any(_too_big(v) for v in x)


def _meta(x: Any) -> Any:
    """Shape and dtype only, as an empty-strided torch tensor on the meta device."""
    if isinstance(x, (torch.Tensor, volta.Tensor)):
        dtype = getattr(torch, str(x.dtype).split(".")[-1])
        # empty_strided with the view's strides: a contiguous tensor of an expanded view's
        # shape can be too large to describe even on the meta device (2**31 x 2**31)
        return torch.empty_strided(tuple(x.shape), tuple(x.stride()), dtype=dtype,
                                   device="meta")
    if isinstance(x, (tuple, list)):
        return [_meta(v) for v in x]
    return x
