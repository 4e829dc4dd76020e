"""Framework-agnostic database of operator samples.

Every entry describes a PyTorch-named operator, how to call it (``ref``) and a
deterministic list of sample inputs.  Samples hold only *specifications*
(:class:`TensorSpec`) so the same database drives PyTorch and the framework
under test; :func:`materialize` turns a sample into real tensors through an
adapter (see ``harness.py``).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any, Protocol

import numpy as np

from volta.errors import InvalidArgumentError

try:  # ml_dtypes gives numpy a real bfloat16 so rounding happens identically everywhere
    import ml_dtypes

    _NP_BFLOAT16: Any = ml_dtypes.bfloat16
except ImportError:  # pragma: no cover - exercised only without ml_dtypes
    _NP_BFLOAT16 = None

FLOAT_DTYPES: tuple[str, ...] = ("float32", "float64", "float16", "bfloat16")
SIGNED_INT_DTYPES: tuple[str, ...] = ("int8", "int16", "int32", "int64")
INT_DTYPES: tuple[str, ...] = (*SIGNED_INT_DTYPES, "uint8")
NUMERIC_DTYPES: tuple[str, ...] = FLOAT_DTYPES + INT_DTYPES
ALL_DTYPES: tuple[str, ...] = (*NUMERIC_DTYPES, "bool")
# Float-valued math ops also accept integer tensors (promoting to the default float dtype).
FLOAT_AND_PROMOTED: tuple[str, ...] = (*FLOAT_DTYPES, "int32", "int64")

KINDS = ("float", "int", "bool", "index", "positive", "nonzero", "distinct")

Tol = tuple[float, float]  # (rtol, atol)


def is_floating(dtype: str) -> bool:
    """True for the floating dtypes the database knows."""
    return dtype in FLOAT_DTYPES


def is_integral(dtype: str) -> bool:
    """True for integer dtypes (bool excluded)."""
    return dtype in INT_DTYPES


# ----------------------------------------------------------------------------- specs


@dataclass(frozen=True)
class TensorSpec:
    """Recipe for one tensor argument.

    ``kind`` picks the value distribution: ``float`` (uniform in [low, high], default
    [-2, 2]), ``int`` (integers in [low, high)), ``bool``, ``index`` (int64 in
    [low or 0, high)), ``positive`` (default [0.5, 2]), ``nonzero`` (magnitude in
    [low, high] default [0.5, 2] with random sign) and ``distinct`` (no ties: sorting,
    arg-max and max-pooling are well defined; floats are +-k/2**e, exactly
    representable in bfloat16, with distinct absolute values too).  Integer dtypes
    draw integers from the same ranges (default [-9, 10), clipped to the dtype).

    ``values`` pins exact contents (flat, row-major).  ``special`` injects one NaN, +inf
    and -inf.  ``noncontig_mode`` is ``slice`` (a ``::2`` view of a tensor twice as long
    in the last dim of size > 1), ``transpose`` (the last two dims of a contiguous
    tensor swapped) or ``auto`` (transpose when both of the last two dims exceed 1,
    else slice).  ``requires_grad`` matters only for floating tensors.
    """

    shape: tuple[int, ...]
    dtype: str | None = None
    low: float | None = None
    high: float | None = None
    kind: str = "float"
    noncontig: bool = False
    requires_grad: bool = True
    noncontig_mode: str = "auto"
    values: tuple[Any, ...] | None = None
    special: bool = False

    def __post_init__(self) -> None:
        if self.kind not in KINDS:
            raise InvalidArgumentError(f"unknown kind {self.kind!r}")
        if self.kind == "index" and self.high is None and self.values is None:
            raise InvalidArgumentError("index specs need high")
        if self.noncontig and len(self.shape) == 0:
            raise InvalidArgumentError("a 0-d tensor cannot be non-contiguous")
        if self.values is not None and len(self.values) != math.prod(self.shape):
            raise InvalidArgumentError(f"{len(self.values)} values for shape {self.shape}")

    def resolved_dtype(self, sample_dtype: str) -> str:
        """The dtype this spec materialises to when the op is tested in ``sample_dtype``."""
        if self.dtype is not None:
            return self.dtype
        if self.kind == "index":
            return "int64"
        if self.kind == "bool":
            return "bool"
        return sample_dtype


@dataclass(frozen=True)
class DTypeArg:
    """A dtype passed as an argument (e.g. ``sum(x, dtype=torch.float64)``)."""

    name: str


@dataclass
class Sample:
    """Positional and keyword arguments of one call; may nest specs in lists/tuples."""

    args: tuple[Any, ...]
    kwargs: dict[str, Any] = field(default_factory=dict)
    desc: str = ""
    # Finite differences are wrong at discontinuities (ties, exact half-values, ...).
    gradcheck: bool = True

    def specs(self) -> Iterator[tuple[str, TensorSpec]]:
        """Yield (path, spec) for every tensor spec in the sample."""
        yield from _walk_specs(self.args, "args")
        yield from _walk_specs(self.kwargs, "kwargs")


def _walk_specs(obj: Any, path: str) -> Iterator[tuple[str, TensorSpec]]:
    if isinstance(obj, TensorSpec):
        yield path, obj
    elif isinstance(obj, dict):
        for key, val in obj.items():
            yield from _walk_specs(val, f"{path}[{key}]")
    elif isinstance(obj, (list, tuple)):
        for i, val in enumerate(obj):
            yield from _walk_specs(val, f"{path}[{i}]")


SampleFn = Callable[[str], list[Sample]]


@dataclass
class OpInfo:
    """One operator: how to call it, which dtypes it supports and its samples.

    ``tol`` maps a dtype name (of the output first, else of the dtype under test) to
    an ``(rtol, atol)`` override.  ``output_index`` restricts which flattened outputs
    are compared.  ``mutates`` lists positional arguments whose value after the call
    is compared too (in-place ops, batch_norm running stats).  ``inplace`` ops mutate
    argument 0, so gradients are taken through a clone of it.
    """

    name: str
    ref: str
    samples: SampleFn
    dtypes: tuple[str, ...]
    grad: bool = True
    gradcheck_ok: bool = True
    tol: dict[str, Tol] | None = None
    random: bool = False
    output_index: tuple[int, ...] | None = None
    inplace: bool = False
    mutates: tuple[int, ...] = ()
    allow_nonfinite: bool = False
    category: str = ""
    # False where rerunning in float64 is no valid reference for a low-precision run.
    upcast_ref_ok: bool = True
    notes: str = ""

    def __post_init__(self) -> None:
        if self.inplace and 0 not in self.mutates:
            self.mutates = (0, *self.mutates)


# ----------------------------------------------------------------------------- materialize


class TensorFactory(Protocol):
    """The part of an adapter that :func:`materialize` needs."""

    def from_numpy(self, arr: np.ndarray, dtype: str | None = None) -> Any: ...

    def dtype(self, name: str) -> Any: ...


@dataclass
class Materialized:
    """Real call arguments plus the tensor created for each spec path."""

    args: tuple[Any, ...]
    kwargs: dict[str, Any]
    tensors: dict[str, tuple[TensorSpec, Any]]


def _int_bounds(dtype: str) -> tuple[int, int]:
    info = np.iinfo(np.dtype(dtype))
    return int(info.min), int(info.max)


def _draw(spec: TensorSpec, dtype: str, shape: tuple[int, ...], rng: np.random.Generator) -> Any:
    """Draw a float64/int64/bool numpy array with the spec's distribution."""
    n = math.prod(shape)
    if spec.values is not None and shape == spec.shape:
        return np.asarray(spec.values).reshape(shape)
    kind = spec.kind
    if kind == "index":
        return rng.integers(int(spec.low or 0), int(spec.high or 1), size=shape, dtype=np.int64)
    if dtype == "bool" or kind == "bool":
        return rng.random(shape) < 0.5
    if kind == "distinct":
        return _draw_distinct(dtype, shape, n, rng)
    if is_integral(dtype):
        lo_d, hi_d = _int_bounds(dtype)
        defaults = {"positive": (1, 10), "nonzero": (1, 10), "int": (-5, 5)}
        d_lo, d_hi = defaults.get(kind, (-9, 10))
        lo = d_lo if spec.low is None else math.ceil(spec.low)
        hi = d_hi if spec.high is None else math.ceil(spec.high)
        lo, hi = max(lo, lo_d), min(hi, hi_d + 1)
        if kind == "nonzero":
            mag = rng.integers(max(lo, 1), max(hi, 2), size=shape)
            sign = rng.choice([-1, 1], size=shape) if lo_d < 0 else 1
            return mag * sign
        return rng.integers(lo, hi, size=shape)
    if kind == "int":
        lo = -5 if spec.low is None else math.ceil(spec.low)
        hi = 5 if spec.high is None else math.ceil(spec.high)
        return rng.integers(lo, hi, size=shape).astype(np.float64)
    if kind in ("positive", "nonzero"):
        lo = 0.5 if spec.low is None else spec.low
        hi = 2.0 if spec.high is None else spec.high
        mag = rng.uniform(lo, hi, size=shape)
        return mag * rng.choice([-1.0, 1.0], size=shape) if kind == "nonzero" else mag
    lo = -2.0 if spec.low is None else spec.low
    hi = 2.0 if spec.high is None else spec.high
    return rng.uniform(lo, hi, size=shape)


def _draw_distinct(dtype: str, shape: tuple[int, ...], n: int, rng: np.random.Generator) -> Any:
    if dtype == "bool":
        raise InvalidArgumentError("distinct values are impossible for bool")
    if is_integral(dtype):
        lo_d, hi_d = _int_bounds(dtype)
        start = 0 if lo_d == 0 else -(n // 2)
        if start + n - 1 > hi_d:
            raise InvalidArgumentError(f"{n} distinct values do not fit {dtype}")
        return (rng.permutation(n) + start).reshape(shape)
    if n > 256:  # k * 2**-e is exact in bfloat16 only for k <= 256
        raise InvalidArgumentError("distinct float specs are limited to 256 elements")
    # Magnitudes k * step (k = 1..n) are distinct and exactly representable; max <= 2.
    step = 2.0 ** math.floor(math.log2(2.0 / max(n, 1)))
    mags = (rng.permutation(n) + 1) * step
    return (mags * rng.choice([-1.0, 1.0], size=n)).reshape(shape)


def _to_dtype(arr: Any, dtype: str) -> np.ndarray:
    """Cast in numpy so every framework receives identically rounded values."""
    if dtype == "bfloat16":
        if _NP_BFLOAT16 is not None:
            return np.asarray(arr, dtype=np.float32).astype(_NP_BFLOAT16).astype(np.float32)
        return np.asarray(arr, dtype=np.float32)  # the framework rounds on conversion
    return np.asarray(arr).astype(np.dtype(dtype))


def _make_tensor(spec: TensorSpec, sample_dtype: str, rng: np.random.Generator,
                 lib: TensorFactory) -> Any:
    dtype = spec.resolved_dtype(sample_dtype)
    logical = _draw(spec, dtype, spec.shape, rng)
    if spec.special and is_floating(dtype) and logical.size:
        logical = np.array(logical, dtype=np.float64)
        pos = rng.choice(logical.size, size=min(3, logical.size), replace=False)
        flat = logical.reshape(-1)
        for p, v in zip(pos, (math.nan, math.inf, -math.inf), strict=False):
            flat[p] = v
    if not spec.noncontig:
        return lib.from_numpy(_to_dtype(logical, dtype), dtype)
    # Size-1 dims do not count for contiguity, so pick dims whose size exceeds 1.
    big = [d for d, n in enumerate(spec.shape) if n > 1]
    mode = spec.noncontig_mode
    if mode == "auto":
        mode = "transpose" if len(spec.shape) >= 2 and spec.shape[-1] > 1 and \
            spec.shape[-2] > 1 else "slice"
    if mode == "transpose":
        base = np.ascontiguousarray(np.swapaxes(logical, -1, -2))
        view = lib.from_numpy(_to_dtype(base, dtype), dtype).transpose(-2, -1)
    elif mode == "slice":
        dim = big[-1] if big else len(spec.shape) - 1
        wide = tuple(n * 2 if d == dim else n for d, n in enumerate(spec.shape))
        filler = TensorSpec(wide, kind="int" if spec.kind == "distinct" else spec.kind,
                            low=spec.low, high=1 if spec.high is None and
                            spec.kind == "index" else spec.high)
        base = np.array(_draw(filler, dtype, wide, rng))
        index = (slice(None),) * dim + (slice(None, None, 2),)
        base[index] = logical
        view = lib.from_numpy(_to_dtype(base, dtype), dtype)[index]
    else:
        raise InvalidArgumentError(f"unknown noncontig_mode {mode!r}")
    # detach() keeps the strides but makes the view a leaf that can require grad.
    return view.detach()


def _build(obj: Any, path: str, on_spec: Callable[[str, TensorSpec], Any],
           lib: TensorFactory) -> Any:
    if isinstance(obj, TensorSpec):
        return on_spec(path, obj)
    if isinstance(obj, DTypeArg):
        return lib.dtype(obj.name)
    if isinstance(obj, dict):
        return {k: _build(v, f"{path}[{k}]", on_spec, lib) for k, v in obj.items()}
    if isinstance(obj, list):
        return [_build(v, f"{path}[{i}]", on_spec, lib) for i, v in enumerate(obj)]
    if isinstance(obj, tuple):
        return tuple(_build(v, f"{path}[{i}]", on_spec, lib) for i, v in enumerate(obj))
    return obj


def materialize_full(sample: Sample, dtype: str, seed: int, lib: TensorFactory) -> Materialized:
    """Materialise a sample and remember which tensor came from which spec path."""
    rng = np.random.default_rng(seed)
    tensors: dict[str, tuple[TensorSpec, Any]] = {}

    def on_spec(path: str, spec: TensorSpec) -> Any:
        t = _make_tensor(spec, dtype, rng, lib)
        tensors[path] = (spec, t)
        return t

    args = _build(sample.args, "args", on_spec, lib)
    kwargs = _build(sample.kwargs, "kwargs", on_spec, lib)
    return Materialized(tuple(args), kwargs, tensors)


def materialize(sample: Sample, dtype: str, seed: int, lib: TensorFactory
                ) -> tuple[tuple[Any, ...], dict[str, Any]]:
    """Return ``(args, kwargs)`` with real tensors; identical for equal seeds."""
    m = materialize_full(sample, dtype, seed, lib)
    return m.args, m.kwargs


def substitute(sample: Sample, tensors: dict[str, Any], lib: TensorFactory
               ) -> tuple[tuple[Any, ...], dict[str, Any]]:
    """Rebuild a sample's arguments from already-made tensors keyed by spec path."""

    def on_spec(path: str, _spec: TensorSpec) -> Any:
        return tensors[path]

    args = _build(sample.args, "args", on_spec, lib)
    return tuple(args), _build(sample.kwargs, "kwargs", on_spec, lib)


# ----------------------------------------------------------------------------- helpers


def T(*shape: int, **kw: Any) -> TensorSpec:  # noqa: N802 -- a one-letter name keeps the sample tables readable
    """Short constructor: ``T(3, 4, kind="positive")``."""
    return TensorSpec(tuple(shape), **kw)


def S(*args: Any, desc: str = "", gradcheck: bool = True, **kwargs: Any) -> Sample:  # noqa: N802 -- see T
    """Short constructor for a sample."""
    return Sample(tuple(args), kwargs, desc, gradcheck)


def _scalar(dtype: str, f: float = 1.5, i: int = 3) -> float | int | bool:
    """A Python scalar of the category of ``dtype`` (dyadic floats so rounding is exact)."""
    if dtype == "bool":
        return True
    return i if is_integral(dtype) else f


def _idx(shape: tuple[int, ...], dim: int, size: int, seed: int) -> TensorSpec:
    """Index tensor whose slices along ``dim`` hold distinct values in [0, size)."""
    rng = np.random.default_rng(seed)
    moved = list(shape)
    n = moved.pop(dim)
    rows = [rng.permutation(size)[:n] for _ in range(math.prod(moved))]
    arr = np.stack(rows, axis=-1).reshape(n, *moved) if rows else np.zeros((n, *moved))
    arr = np.moveaxis(arr, 0, dim)
    return TensorSpec(shape, kind="index", high=size, values=tuple(int(v) for v in arr.flat))


def _bool_mask(shape: tuple[int, ...], seed: int, row_true: bool = False) -> TensorSpec:
    """Deterministic bool mask; ``row_true`` guarantees a True per last-dim row."""
    rng = np.random.default_rng(seed)
    m = rng.random(shape) < 0.5
    if row_true:
        m[..., 0] = True
    return TensorSpec(shape, kind="bool", values=tuple(bool(v) for v in m.flat))


# ----------------------------------------------------------------------------- unary


def _unary_samples(low: float | None = None, high: float | None = None, kind: str = "float",
                   variants: tuple[dict[str, Any], ...] = ({},), special: bool = False
                   ) -> SampleFn:
    def fn(dtype: str) -> list[Sample]:
        def t(*shape: int, **kw: Any) -> TensorSpec:
            return TensorSpec(tuple(shape), low=low, high=high, kind=kind, **kw)

        out = [S(t(4, 5), desc=f"2d {v}", **v) for v in variants]
        out += [
            S(t(), desc="0-d", **variants[-1]),
            S(t(2, 3, 4, noncontig=True), desc="noncontig transpose", **variants[0]),
            S(t(11, noncontig=True), desc="noncontig slice", **variants[-1]),
            S(t(0, 3), desc="empty", **variants[0]),
        ]
        if special and is_floating(dtype):
            out.append(S(t(3, 5, special=True, requires_grad=False), desc="nan/inf"))
        return out

    return fn


def _unary(name: str, ref: str | None = None, dtypes: tuple[str, ...] = FLOAT_DTYPES, *,
           low: float | None = None, high: float | None = None, kind: str = "float",
           variants: tuple[dict[str, Any], ...] = ({},), grad: bool = True,
           special: bool = False, **kw: Any) -> OpInfo:
    return OpInfo(name, ref or f"torch.{name}", _unary_samples(low, high, kind, variants, special),
                  dtypes, grad=grad, category="unary", **kw)


def _round_samples(dtype: str) -> list[Sample]:
    out = _unary_samples(-4, 4)(dtype)
    if is_floating(dtype):
        halves = (-2.5, -1.5, -0.5, 0.5, 1.5, 2.5, 3.5, -3.5)
        # Exact .5 values check round-half-to-even; they sit on jumps, so no gradcheck.
        out.append(S(T(8, values=halves), desc="halves", gradcheck=False))
        out.append(S(T(4, 5, low=-50, high=50), decimals=1, desc="decimals=1"))
        out.append(S(T(3, 4, noncontig=True), decimals=2, desc="decimals=2 noncontig"))
        out.append(S(T(6, low=-500, high=500), decimals=-1, desc="decimals=-1"))
    return out


def _clamp_samples(dtype: str) -> list[Sample]:
    lo, hi = _scalar(dtype, -0.5, -3), _scalar(dtype, 0.75, 4)
    lo_t, mid, hi_t = -2, 0, 2  # tensor bounds: min in [lo_t, mid), max in [mid, hi_t)
    if dtype == "uint8":
        lo, hi = 2, 6
        lo_t, mid, hi_t = 0, 4, 9
    return [
        S(T(4, 5), min=lo, max=hi, desc="scalars"),
        S(T(4, 5), min=lo, desc="min only"),
        S(T(4, 5), max=hi, desc="max only"),
        S(T(), min=lo, max=hi, desc="0-d"),
        S(T(3, 4, noncontig=True), lo, hi, desc="noncontig positional"),
        S(T(3, 4), min=T(3, 4, low=lo_t, high=mid), max=T(4, low=mid, high=hi_t),
          desc="tensor bounds"),
        S(T(3, 4), min=T(1, 4, low=lo_t, high=mid), desc="tensor min only broadcast"),
        S(T(2, 3), max=T(), desc="0-d tensor max"),
    ]


def _nan_to_num_samples(dtype: str) -> list[Sample]:
    sp = {"special": True, "requires_grad": True}
    return [
        S(T(4, 5, **sp), desc="defaults"),
        S(T(4, 5, **sp), nan=0.5, posinf=100.0, neginf=-100.0, desc="all given"),
        S(T(3, 4, noncontig=True, **sp), posinf=8.0, desc="noncontig"),
        S(T(), desc="0-d"),
        S(T(6, **sp), 1.5, desc="nan positional"),
    ]


def _unary_ops() -> list[OpInfo]:
    promo = FLOAT_AND_PROMOTED
    return [
        _unary("abs", dtypes=NUMERIC_DTYPES),
        _unary("neg", dtypes=FLOAT_DTYPES + SIGNED_INT_DTYPES),
        _unary("exp", dtypes=promo),
        _unary("exp2", dtypes=promo),
        _unary("expm1", dtypes=promo),
        _unary("log", dtypes=promo, kind="positive", low=0.1, high=4),
        _unary("log2", dtypes=promo, kind="positive", low=0.1, high=4),
        _unary("log10", dtypes=promo, kind="positive", low=0.1, high=4),
        _unary("log1p", dtypes=promo, low=-0.5, high=3),
        _unary("sqrt", dtypes=promo, kind="positive", low=0.25, high=4),
        _unary("rsqrt", dtypes=promo, kind="positive", low=0.25, high=4),
        _unary("sin", dtypes=promo, low=-3, high=3),
        _unary("cos", dtypes=promo, low=-3, high=3),
        _unary("tan", dtypes=FLOAT_DTYPES, low=-1.2, high=1.2),
        _unary("asin", low=-0.9, high=0.9),
        _unary("acos", low=-0.9, high=0.9),
        _unary("atan", dtypes=promo, low=-3, high=3),
        _unary("sinh", dtypes=promo),
        _unary("cosh", dtypes=promo),
        _unary("tanh", dtypes=promo, low=-3, high=3),
        _unary("sigmoid", dtypes=promo, low=-4, high=4),
        _unary("relu", dtypes=FLOAT_DTYPES + SIGNED_INT_DTYPES),
        _unary("relu6", "torch.nn.functional.relu6", low=-2, high=8),
        _unary("gelu", "torch.nn.functional.gelu", low=-3, high=3,
               variants=({}, {"approximate": "none"}, {"approximate": "tanh"})),
        _unary("silu", "torch.nn.functional.silu", low=-3, high=3),
        _unary("mish", "torch.nn.functional.mish", low=-3, high=3),
        _unary("softplus", "torch.nn.functional.softplus", low=-4, high=4,
               variants=({}, {"beta": 2.0, "threshold": 1.0}, {"beta": 0.5})),
        _unary("elu", "torch.nn.functional.elu", variants=({}, {"alpha": 0.5})),
        _unary("selu", "torch.nn.functional.selu"),
        _unary("leaky_relu", "torch.nn.functional.leaky_relu",
               variants=({}, {"negative_slope": 0.2})),
        _unary("hardtanh", "torch.nn.functional.hardtanh",
               variants=({}, {"min_val": -0.5, "max_val": 1.5})),
        _unary("hardsigmoid", "torch.nn.functional.hardsigmoid", low=-4, high=4),
        _unary("hardswish", "torch.nn.functional.hardswish", low=-4, high=4),
        _unary("logsigmoid", "torch.nn.functional.logsigmoid", low=-3, high=3),
        _unary("softsign", "torch.nn.functional.softsign", low=-3, high=3),
        _unary("erf", dtypes=promo),
        _unary("erfc", dtypes=promo),
        _unary("erfinv", low=-0.9, high=0.9),
        _unary("sign", dtypes=ALL_DTYPES),
        _unary("floor", dtypes=NUMERIC_DTYPES, low=-4, high=4),
        _unary("ceil", dtypes=NUMERIC_DTYPES, low=-4, high=4),
        _unary("trunc", dtypes=NUMERIC_DTYPES, low=-4, high=4),
        OpInfo("round", "torch.round", _round_samples, NUMERIC_DTYPES, category="unary"),
        _unary("frac", low=-4, high=4),
        _unary("reciprocal", dtypes=promo, kind="nonzero"),
        _unary("square", dtypes=NUMERIC_DTYPES),
        OpInfo("clamp", "torch.clamp", _clamp_samples, NUMERIC_DTYPES, category="unary"),
        _unary("isnan", dtypes=ALL_DTYPES, grad=False, special=True),
        _unary("isinf", dtypes=ALL_DTYPES, grad=False, special=True),
        _unary("isfinite", dtypes=ALL_DTYPES, grad=False, special=True),
        OpInfo("nan_to_num", "torch.nan_to_num", _nan_to_num_samples, FLOAT_DTYPES,
               gradcheck_ok=False, category="unary",
               # default posinf is the dtype's max, which differs between precisions
               upcast_ref_ok=False,
               notes="inputs hold nan/inf, so finite differences are meaningless"),
        _unary("logical_not", dtypes=ALL_DTYPES, kind="int", low=-1, high=2, grad=False),
        _unary("bitwise_not", dtypes=(*INT_DTYPES, "bool"), grad=False),
    ]


# ----------------------------------------------------------------------------- binary


def _binary_samples(a: dict[str, Any] | None = None, b: dict[str, Any] | None = None,
                    scalar: Callable[[str], Any] | None = None,
                    variants: tuple[dict[str, Any], ...] = (),
                    mixed: bool = False, special: bool = False) -> SampleFn:
    """Same-shape, broadcast, 0-d, Python-scalar, noncontig and empty operand pairs."""
    a = a or {}
    b = b or {}

    def fn(dtype: str) -> list[Sample]:
        def ta(*shape: int, **kw: Any) -> TensorSpec:
            return TensorSpec(tuple(shape), **{**a, **kw})

        def tb(*shape: int, **kw: Any) -> TensorSpec:
            return TensorSpec(tuple(shape), **{**b, **kw})

        out = [
            S(ta(4, 5), tb(4, 5), desc="same shape"),
            S(ta(3, 1), tb(1, 4), desc="broadcast both"),
            S(ta(2, 3, 4), tb(4), desc="broadcast rank"),
            S(ta(), tb(3, 4), desc="0-d lhs"),
            S(ta(3, 4), tb(), desc="0-d rhs"),
            S(ta(), tb(), desc="0-d both"),
            S(ta(4, 6, noncontig=True), tb(4, 6, noncontig=True, noncontig_mode="slice"),
              desc="noncontig"),
            S(ta(0, 3), tb(3), desc="empty"),
        ]
        if scalar is not None:
            out.append(S(ta(3, 5), scalar(dtype), desc="python scalar"))
        for v in variants:
            out.append(S(ta(4, 5), tb(4, 5), desc=f"{v}", **v))
            out.append(S(ta(2, 1, 3), tb(4, 1), desc=f"broadcast {v}", **v))
        if mixed:  # type promotion between tensor operands of different categories
            other = "int64" if is_floating(dtype) else "float32"
            out.append(S(ta(3, 4), tb(3, 4, dtype=other), desc=f"mixed with {other}"))
        if special and is_floating(dtype):
            out.append(S(ta(4, 5, special=True, requires_grad=False),
                         tb(4, 5, special=True, requires_grad=False), desc="nan/inf"))
        return out

    return fn


def _binary(name: str, dtypes: tuple[str, ...], ref: str | None = None, *,
            a: dict[str, Any] | None = None, b: dict[str, Any] | None = None,
            scalar: Callable[[str], Any] | None = None,
            variants: tuple[dict[str, Any], ...] = (), mixed: bool = False,
            special: bool = False, grad: bool = True, **kw: Any) -> OpInfo:
    fn = _binary_samples(a, b, scalar, variants, mixed, special)
    return OpInfo(name, ref or f"torch.{name}", fn, dtypes, grad=grad, category="binary", **kw)


def _pow_samples(dtype: str) -> list[Sample]:
    if is_integral(dtype):
        base = {"low": -3, "high": 4}
        exp_ = {"low": 0, "high": 4}
        return [
            S(T(4, 5, **base), T(4, 5, **exp_), desc="tensor exponent"),
            S(T(3, 1, **base), T(1, 4, **exp_), desc="broadcast"),
            S(T(3, 4, **base), 2, desc="scalar exponent"),
            S(T(**base), T(3, **exp_), desc="0-d base"),
            S(2, T(3, 4, **exp_), desc="scalar base"),
            S(T(4, 6, noncontig=True, **base), T(4, 6, noncontig=True, **exp_),
              desc="noncontig"),
        ]
    pos = {"kind": "positive", "low": 0.5, "high": 2.0}
    return [
        S(T(4, 5, **pos), T(4, 5), desc="tensor exponent"),
        S(T(3, 1, **pos), T(1, 4), desc="broadcast"),
        S(T(2, 3, 4, **pos), T(4), desc="broadcast rank"),
        S(T(3, 4), 2, desc="square"),
        S(T(3, 4), 3, desc="cube, any sign"),
        S(T(3, 4, **pos), 0.5, desc="sqrt"),
        S(T(3, 4, **pos), -1.5, desc="negative exponent"),
        S(T(**pos), T(3, 4), desc="0-d base"),
        S(T(3, 4, **pos), T(), desc="0-d exponent"),
        S(2.0, T(3, 4), desc="scalar base"),
        S(2, T(5), desc="int scalar base"),
        S(T(4, 6, noncontig=True, **pos), T(4, 6, noncontig=True, noncontig_mode="slice"),
          desc="noncontig"),
        S(T(0, 3, **pos), T(3), desc="empty"),
    ]


def _where_samples(dtype: str) -> list[Sample]:
    c = {"kind": "bool"}
    return [
        S(T(4, 5, **c), T(4, 5), T(4, 5), desc="same shape"),
        S(T(3, 1, **c), T(1, 4), T(3, 4), desc="broadcast"),
        S(T(3, 4, **c), T(3, 4), _scalar(dtype, 0.5, 2), desc="scalar other"),
        S(T(3, 4, **c), _scalar(dtype, -1.5, 7), T(3, 4), desc="scalar input"),
        S(T(**c), T(2, 3), T(), desc="0-d"),
        S(T(4, 6, noncontig=True, **c), T(4, 6, noncontig=True), T(6), desc="noncontig"),
        S(T(0, 3, **c), T(0, 3), T(3), desc="empty"),
        S(T(3, 4, **c), desc="condition only (nonzero tuple)"),
    ]


def _lerp_samples(dtype: str) -> list[Sample]:
    w = {"low": 0.0, "high": 1.0}
    return [
        S(T(4, 5), T(4, 5), 0.25, desc="scalar weight"),
        S(T(4, 5), T(4, 5), T(4, 5, **w), desc="tensor weight"),
        S(T(3, 1), T(1, 4), T(4, **w), desc="broadcast"),
        S(T(), T(), T(**w), desc="0-d"),
        S(T(3, 4), T(3, 4), 1.5, desc="extrapolate"),
        S(T(4, 6, noncontig=True), T(4, 6, noncontig=True, noncontig_mode="slice"),
          T(4, 6, noncontig=True, **w), desc="noncontig"),
    ]


def _addc_samples(div: bool) -> SampleFn:
    def fn(dtype: str) -> list[Sample]:
        # Small integer factors keep input + value * t1 * t2 inside int8.
        t1 = {} if is_floating(dtype) else {"low": -4, "high": 5}
        t2 = {"kind": "nonzero"} if div else t1
        val = _scalar(dtype, 0.5, 2)
        return [
            S(T(4, 5), T(4, 5, **t1), T(4, 5, **t2), desc="default value"),
            S(T(4, 5), T(4, 5, **t1), T(4, 5, **t2), value=val, desc="value"),
            S(T(3, 1), T(1, 4, **t1), T(3, 4, **t2), value=val, desc="broadcast"),
            S(T(), T(**t1), T(**t2), desc="0-d"),
            S(T(3, 4, noncontig=True), T(3, 4, **t1), T(3, 4, noncontig=True, **t2), value=val,
              desc="noncontig"),
        ]

    return fn


def _xlogy_samples(dtype: str) -> list[Sample]:
    base = _binary_samples(b={"kind": "positive", "low": 0.1, "high": 3},
                           scalar=lambda d: 2.5)(dtype)
    # xlogy(0, y) == 0 even for y == 0 is the point of the op.
    zeros = S(T(4, values=(0.0, 0.0, 1.5, -1.0), requires_grad=False),
              T(4, values=(0.0, 2.0, 0.0, 3.0), requires_grad=False), desc="zeros")
    return [*base, zeros]


def _sc(x: float, i: int) -> Callable[[str], Any]:
    """Scalar factory: ``x`` for floating dtypes, ``i`` for integer ones."""
    return lambda d: _scalar(d, x, i)


def _binary_ops() -> list[OpInfo]:
    nz = {"kind": "nonzero"}
    cmp_ = {"kind": "int", "low": -3, "high": 4}
    lg = {"kind": "int", "low": -1, "high": 2}
    fscal = _sc(1.5, 3)
    return [
        _binary("add", ALL_DTYPES, scalar=fscal, mixed=True,
                variants=({"alpha": 2},)),
        _binary("sub", NUMERIC_DTYPES, scalar=fscal, mixed=True, variants=({"alpha": 2},)),
        _binary("mul", ALL_DTYPES, scalar=fscal, mixed=True),
        _binary("div", NUMERIC_DTYPES, b=nz, scalar=_sc(-0.75, 2),
                variants=({"rounding_mode": None}, {"rounding_mode": "trunc"},
                          {"rounding_mode": "floor"}), mixed=True),
        _binary("true_divide", NUMERIC_DTYPES, b=nz, scalar=_sc(0.25, 4)),
        _binary("floor_divide", NUMERIC_DTYPES, b=nz, scalar=_sc(-0.75, 2),
                grad=False, notes="PyTorch has no derivative for floor_divide"),
        OpInfo("pow", "torch.pow", _pow_samples, NUMERIC_DTYPES, category="binary"),
        _binary("maximum", ALL_DTYPES, special=True, allow_nonfinite=True),
        _binary("minimum", ALL_DTYPES, special=True, allow_nonfinite=True),
        _binary("fmax", NUMERIC_DTYPES, special=True, allow_nonfinite=True),
        _binary("fmin", NUMERIC_DTYPES, special=True, allow_nonfinite=True),
        _binary("remainder", NUMERIC_DTYPES, b=nz, scalar=_sc(-0.75, 4)),
        _binary("fmod", NUMERIC_DTYPES, b=nz, scalar=_sc(-0.75, 4)),
        _binary("atan2", FLOAT_DTYPES),
        _binary("hypot", FLOAT_DTYPES),
        _binary("copysign", FLOAT_DTYPES, b=nz, scalar=lambda d: -1.5),
        OpInfo("xlogy", "torch.xlogy", _xlogy_samples, FLOAT_DTYPES, category="binary",
               allow_nonfinite=True, notes="xlogy(1.5, 0) == -inf by definition"),
        *[_binary(n, ALL_DTYPES, a=cmp_, b=cmp_, scalar=_sc(1.0, 1), grad=False)
          for n in ("eq", "ne", "lt", "le", "gt", "ge")],
        *[_binary(n, ALL_DTYPES, a=lg, b=lg, grad=False)
          for n in ("logical_and", "logical_or", "logical_xor")],
        *[_binary(n, (*INT_DTYPES, "bool"), scalar=lambda d: True if d == "bool" else 5,
                  grad=False) for n in ("bitwise_and", "bitwise_or", "bitwise_xor")],
        _binary("bitwise_left_shift", INT_DTYPES, a={"low": 0, "high": 16},
                b={"low": 0, "high": 4}, scalar=lambda d: 2, grad=False),
        _binary("bitwise_right_shift", INT_DTYPES, a={"low": -16, "high": 16},
                b={"low": 0, "high": 4}, scalar=lambda d: 1, grad=False),
        OpInfo("where", "torch.where", _where_samples, ALL_DTYPES, category="binary"),
        OpInfo("lerp", "torch.lerp", _lerp_samples, FLOAT_DTYPES, category="binary"),
        OpInfo("addcmul", "torch.addcmul", _addc_samples(False), NUMERIC_DTYPES,
               category="binary"),
        OpInfo("addcdiv", "torch.addcdiv", _addc_samples(True), FLOAT_DTYPES,
               category="binary"),
    ]


# ----------------------------------------------------------------------------- reductions


def _reduce_samples(spec: dict[str, Any] | None = None, *, dim_list: bool = True,
                    keepdim: bool = True, full: bool = True, zero_d: bool = True,
                    empty: bool = False, dtype_arg: Callable[[str], str | None] | None = None,
                    extra: Callable[[str], list[Sample]] | None = None) -> SampleFn:
    spec = spec or {}

    def fn(dtype: str) -> list[Sample]:
        def t(*shape: int, **kw: Any) -> TensorSpec:
            return TensorSpec(tuple(shape), **{**spec, **kw})

        out = [S(t(3, 4, 5), 1, desc="dim=1"), S(t(3, 4, 5), dim=-1, desc="dim=-1")]
        if full:
            out.append(S(t(3, 4, 5), desc="full"))
        if dim_list:
            out.append(S(t(3, 4, 5), [0, 2], desc="dim list"))
            out.append(S(t(2, 3, 4), dim=(-1, -3), keepdim=keepdim, desc="neg dim tuple"))
        if keepdim:
            out.append(S(t(3, 4), dim=0, keepdim=True, desc="keepdim"))
        if zero_d:
            out.append(S(t(), 0, desc="0-d"))
        out.append(S(t(4, 6, noncontig=True), 1, desc="noncontig"))
        out.append(S(t(5, 8, noncontig=True, noncontig_mode="slice"), desc="noncontig full")
                   if full else S(t(5, 8, noncontig=True, noncontig_mode="slice"), 0,
                                  desc="noncontig slice"))
        if empty:
            out.append(S(t(0, 3), 0, desc="empty"))
        if dtype_arg is not None:
            target = dtype_arg(dtype)
            if target is not None:
                gc = _gradcheck_with(dtype, target)
                out.append(S(t(3, 4), 1, dtype=DTypeArg(target), desc=f"dtype={target}",
                             gradcheck=gc))
                if full:
                    out.append(S(t(3, 4), dtype=DTypeArg(target), desc=f"full dtype={target}",
                                 gradcheck=gc))
        if extra is not None:
            out += extra(dtype)
        return out

    return fn


def _sum_dtype(dtype: str) -> str:
    return "float64" if dtype != "float64" else "float32"


def _gradcheck_with(dtype: str, target: str) -> bool:
    """Finite differences need float64 throughout; a float32 round trip breaks them."""
    return not (dtype == "float64" and target != "float64")


def _mean_samples(dtype: str) -> list[Sample]:
    if not is_floating(dtype):  # mean needs a floating dtype argument for integer input
        return [S(T(3, 4), 1, dtype=DTypeArg("float32"), desc="int dim"),
                S(T(3, 4), dtype=DTypeArg("float64"), desc="int full"),
                S(T(3, 4, noncontig=True), [0, 1], dtype=DTypeArg("float32"), desc="noncontig")]
    return _reduce_samples(empty=True, dtype_arg=_sum_dtype)(dtype)


def _prod_samples(dtype: str) -> list[Sample]:
    mag = {"kind": "nonzero", "low": 0.5, "high": 1.5} if is_floating(dtype) else {
        "low": -3, "high": 4}
    out = [
        S(T(3, 4, **mag), desc="full"),
        S(T(3, 4, 5, **mag), 1, desc="dim=1"),
        S(T(3, 4, **mag), -1, keepdim=True, desc="dim=-1 keepdim"),
        S(T(**mag), 0, desc="0-d"),
        S(T(4, 6, noncontig=True, **mag), 0, desc="noncontig"),
        S(T(0, 3), 0, desc="empty"),
        S(T(3, 4, **mag), 1, dtype=DTypeArg(_sum_dtype(dtype)), desc="dtype",
          gradcheck=_gradcheck_with(dtype, _sum_dtype(dtype))),
    ]
    if is_floating(dtype):  # the backward of prod special-cases zeros
        out.append(S(T(2, 3, values=(1.5, 0.0, -0.5, 0.75, 1.25, -1.0)), 1, desc="one zero"))
        out.append(S(T(4, values=(0.0, 1.5, 0.0, -0.5)), desc="two zeros"))
    return out


def _maxmin_samples(dtype: str) -> list[Sample]:
    d = {"kind": "distinct"} if dtype != "bool" else {}
    return [
        S(T(3, 4, 5, **d), desc="full"),
        S(T(3, 4, 5, **d), 1, desc="dim=1 -> values, indices"),
        S(T(3, 4, **d), dim=-1, keepdim=True, desc="dim=-1 keepdim"),
        S(T(**d), 0, desc="0-d"),
        S(T(4, 6, noncontig=True, **d), 0, desc="noncontig"),
        S(T(3, 4), T(4), desc="binary broadcast"),
    ]


def _arg_samples(dtype: str) -> list[Sample]:
    d = {"kind": "distinct"} if dtype != "bool" else {}
    ties = {"kind": "int", "low": -1, "high": 2} if dtype != "bool" else {}
    return [
        S(T(3, 4, 5, **d), desc="full"),
        S(T(3, 4, 5, **d), 1, desc="dim=1"),
        S(T(3, 4, **d), dim=-1, keepdim=True, desc="keepdim"),
        S(T(**d), desc="0-d"),
        S(T(4, 6, noncontig=True, **d), 0, desc="noncontig"),
        # Documented: the first extremal index is returned for ties.
        S(T(4, 7, **ties), 1, desc="ties"),
    ]


def _amax_samples(dtype: str) -> list[Sample]:
    d = {"kind": "distinct"} if dtype != "bool" else {}
    out = _reduce_samples(d, full=False)(dtype)
    out.append(S(T(3, 4, **d), desc="default dim=() reduces all"))
    if is_floating(dtype):  # ties: the gradient is split evenly between maxima
        out.append(S(T(3, 4, kind="int", low=-1, high=2), 1, desc="ties", gradcheck=False))
    return out


def _var_samples(dtype: str) -> list[Sample]:
    return [
        S(T(3, 4, 5), desc="full"),
        S(T(3, 4, 5), 1, desc="dim=1"),
        S(T(3, 4, 5), [0, 2], desc="dim list"),
        S(T(3, 4, 5), dim=-1, correction=0, desc="correction=0"),
        S(T(3, 6), dim=1, correction=2, keepdim=True, desc="correction=2 keepdim"),
        S(T(4, 6, noncontig=True), dim=0, desc="noncontig"),
        S(T(7), correction=0, desc="1-d full"),
        S(T(), correction=0, desc="0-d"),
        S(T(3, 5), 1, False, desc="unbiased=False positional"),
        S(T(3, 5), unbiased=True, desc="unbiased=True full"),
    ]


def _norm_samples(dtype: str) -> list[Sample]:
    inf = math.inf
    d = {"kind": "distinct"}
    return [
        S(T(3, 4), desc="default p=fro"),
        S(T(3, 4), p=2, desc="p=2"),
        S(T(3, 4), p=1, dim=1, desc="p=1 dim"),
        S(T(3, 4, **d), p=inf, desc="p=inf"),
        S(T(3, 4, **d), p=inf, dim=0, desc="p=inf dim"),
        S(T(2, 3, 4), p="fro", dim=(1, 2), desc="fro dims"),
        S(T(3, 5), p=3, dim=-1, keepdim=True, desc="p=3 keepdim"),
        S(T(4, 6, noncontig=True), p=2, dim=0, desc="noncontig"),
        S(T(), desc="0-d"),
    ]


def _vector_norm_samples(dtype: str) -> list[Sample]:
    inf = math.inf
    d = {"kind": "distinct"}
    out = [
        S(T(3, 4), desc="default ord=2"),
        S(T(3, 4), 1, desc="ord=1"),
        S(T(3, 4, **d), inf, desc="ord=inf"),
        S(T(3, 4, **d), -inf, 1, desc="ord=-inf dim"),
        S(T(3, 4), 0, desc="ord=0"),
        S(T(3, 4), 3.5, dim=(0, 1), desc="ord=3.5 dims"),
        S(T(2, 3, 4), 2, dim=-1, keepdim=True, desc="keepdim"),
        S(T(4, 6, noncontig=True), 2, dim=0, desc="noncontig"),
        S(T(), desc="0-d"),
    ]
    if dtype != "float64":
        out.append(S(T(3, 4), dim=1, dtype=DTypeArg("float64"), desc="dtype"))
    return out


def _cum_samples(prod: bool) -> SampleFn:
    def fn(dtype: str) -> list[Sample]:
        mag: dict[str, Any] = {}
        if prod:
            mag = ({"kind": "nonzero", "low": 0.5, "high": 1.5} if is_floating(dtype)
                   else {"low": -2, "high": 3})
        out = [
            S(T(3, 5, **mag), 0, desc="dim=0"),
            S(T(3, 5, **mag), dim=-1, desc="dim=-1"),
            S(T(2, 3, 4, **mag), 1, desc="3d"),
            S(T(**mag), 0, desc="0-d"),
            S(T(4, 6, noncontig=True, **mag), 1, desc="noncontig"),
            S(T(0, 3), 0, desc="empty"),
            S(T(3, 4, **mag), 1, dtype=DTypeArg(_sum_dtype(dtype)), desc="dtype",
              gradcheck=_gradcheck_with(dtype, _sum_dtype(dtype))),
        ]
        if prod and is_floating(dtype):  # zero handling in the backward
            out.append(S(T(6, values=(1.5, -0.5, 0.0, 2.0, 0.0, 1.25)), 0, desc="zeros"))
        return out

    return fn


def _median_samples(dtype: str) -> list[Sample]:
    d = {"kind": "distinct"}
    return [
        S(T(3, 5, **d), desc="full odd"),
        S(T(4, 6, **d), desc="full even -> lower median"),
        S(T(3, 5, **d), 1, desc="dim=1"),
        S(T(3, 4, **d), dim=0, keepdim=True, desc="dim=0 even keepdim"),
        S(T(4, 6, noncontig=True, **d), -1, desc="noncontig"),
        S(T(**d), desc="0-d"),
    ]


def _aminmax_samples(dtype: str) -> list[Sample]:
    d = {"kind": "distinct"} if dtype != "bool" else {}
    return [
        S(T(3, 4, **d), desc="full"),
        S(T(3, 4, 5, **d), dim=1, desc="dim"),
        S(T(3, 4, **d), dim=-1, keepdim=True, desc="keepdim"),
        S(T(**d), desc="0-d"),
        S(T(4, 6, noncontig=True, **d), dim=0, desc="noncontig"),
    ]


def _count_nonzero_samples(dtype: str) -> list[Sample]:
    z = {"kind": "int", "low": -1, "high": 2}
    return [
        S(T(3, 4, **z), desc="full"),
        S(T(3, 4, 5, **z), 1, desc="dim"),
        S(T(3, 4, 5, **z), dim=(0, 2), desc="dims"),
        S(T(**z), desc="0-d"),
        S(T(4, 6, noncontig=True, **z), dim=0, desc="noncontig"),
    ]


def _reduction_ops() -> list[OpInfo]:
    zeros = {"kind": "int", "low": 0, "high": 2}

    def r(name: str, fn: SampleFn, dtypes: tuple[str, ...], ref: str | None = None,
          **kw: Any) -> OpInfo:
        return OpInfo(name, ref or f"torch.{name}", fn, dtypes, category="reduction", **kw)

    return [
        r("sum", _reduce_samples(empty=True, dtype_arg=_sum_dtype), ALL_DTYPES),
        r("mean", _mean_samples, NUMERIC_DTYPES, allow_nonfinite=True,
          notes="the empty sample's mean is NaN by definition"),
        r("prod", _prod_samples, ALL_DTYPES),
        r("max", _maxmin_samples, ALL_DTYPES),
        r("min", _maxmin_samples, ALL_DTYPES),
        r("amax", _amax_samples, ALL_DTYPES),
        r("amin", _amax_samples, ALL_DTYPES),
        r("argmax", _arg_samples, NUMERIC_DTYPES, grad=False),
        r("argmin", _arg_samples, NUMERIC_DTYPES, grad=False),
        r("var", _var_samples, FLOAT_DTYPES),
        r("std", _var_samples, FLOAT_DTYPES),
        r("var_mean", _var_samples, FLOAT_DTYPES),
        r("std_mean", _var_samples, FLOAT_DTYPES),
        r("norm", _norm_samples, FLOAT_DTYPES),
        r("vector_norm", _vector_norm_samples, FLOAT_DTYPES, "torch.linalg.vector_norm"),
        r("logsumexp", _reduce_samples(full=False), FLOAT_DTYPES),
        r("all", _reduce_samples(zeros, dim_list=False,
                                 extra=lambda d: [S(T(2, 3, 4, **zeros), dim=(0, 2),
                                                    desc="dim tuple")]),
          ALL_DTYPES, grad=False),
        r("any", _reduce_samples(zeros, dim_list=False,
                                 extra=lambda d: [S(T(2, 3, 4, **zeros), dim=(0, 2),
                                                    desc="dim tuple")]),
          ALL_DTYPES, grad=False),
        r("cumsum", _cum_samples(False), ALL_DTYPES),
        r("cumprod", _cum_samples(True), ALL_DTYPES),
        r("count_nonzero", _count_nonzero_samples, ALL_DTYPES, grad=False),
        r("median", _median_samples, FLOAT_DTYPES + INT_DTYPES),
        r("aminmax", _aminmax_samples, ALL_DTYPES),
    ]


# ----------------------------------------------------------------------------- linear algebra


def _matmul_samples(dtype: str) -> list[Sample]:
    return [
        S(T(5), T(5), desc="1d @ 1d"),
        S(T(3, 5), T(5), desc="2d @ 1d"),
        S(T(5), T(5, 4), desc="1d @ 2d"),
        S(T(3, 5), T(5, 4), desc="2d @ 2d"),
        S(T(2, 3, 5), T(5, 4), desc="3d @ 2d broadcast"),
        S(T(5), T(2, 5, 3), desc="1d @ 3d"),
        S(T(2, 1, 3, 4), T(1, 3, 4, 2), desc="4d @ 4d broadcast"),
        S(T(3, 5, noncontig=True), T(5, 4, noncontig=True, noncontig_mode="slice"),
          desc="noncontig"),
        S(T(3, 0), T(0, 4), desc="empty inner dim"),
    ]


def _mm_samples(dtype: str) -> list[Sample]:
    return [
        S(T(3, 5), T(5, 4)),
        S(T(1, 1), T(1, 6), desc="unit"),
        S(T(4, 3, noncontig=True), T(3, 5, noncontig=True), desc="noncontig"),
        S(T(4, 6, noncontig=True, noncontig_mode="slice"), T(6, 2), desc="noncontig slice"),
    ]


def _bmm_samples(dtype: str) -> list[Sample]:
    return [
        S(T(2, 3, 5), T(2, 5, 4)),
        S(T(1, 1, 3), T(1, 3, 1), desc="unit"),
        S(T(3, 4, 3, noncontig=True), T(3, 3, 5, noncontig=True), desc="noncontig"),
    ]


def _addmm_samples(dtype: str) -> list[Sample]:
    return [
        S(T(3, 4), T(3, 5), T(5, 4)),
        S(T(4), T(3, 5), T(5, 4), desc="broadcast input"),
        S(T(3, 4), T(3, 5), T(5, 4), beta=0.5, alpha=2.0, desc="beta alpha"),
        S(T(), T(2, 3), T(3, 2), beta=0.0, desc="0-d input, beta=0"),
        S(T(3, 4, noncontig=True), T(3, 5, noncontig=True), T(5, 4, noncontig=True),
          desc="noncontig"),
    ]


def _addmv_samples(dtype: str) -> list[Sample]:
    return [
        S(T(3), T(3, 4), T(4)),
        S(T(), T(3, 4), T(4), desc="0-d input"),
        S(T(3), T(3, 4), T(4), beta=0.5, alpha=-1.5, desc="beta alpha"),
        S(T(4), T(4, 5, noncontig=True), T(5, noncontig=True), desc="noncontig"),
    ]


def _baddbmm_samples(dtype: str) -> list[Sample]:
    return [
        S(T(2, 3, 5), T(2, 3, 4), T(2, 4, 5)),
        S(T(3, 5), T(2, 3, 4), T(2, 4, 5), desc="broadcast input"),
        S(T(2, 3, 5), T(2, 3, 4), T(2, 4, 5), beta=0.5, alpha=2.0, desc="beta alpha"),
        S(T(2, 3, 5, noncontig=True), T(2, 3, 4, noncontig=True), T(2, 4, 5, noncontig=True),
          desc="noncontig"),
    ]


def _einsum_samples(dtype: str) -> list[Sample]:
    return [
        S("ij,jk->ik", T(3, 4), T(4, 5)),
        S("bij,bjk->bik", T(2, 3, 4), T(2, 4, 5)),
        S("ii->i", T(4, 4)),
        S("ij->ji", T(3, 4)),
        S("i,j->ij", T(3), T(4)),
        S("ii", T(3, 3), desc="trace"),
        S("ij->", T(3, 4), desc="full sum"),
        S("...ij,...jk->...ik", T(2, 3, 4), T(4, 2), desc="ellipsis broadcast"),
        S("bhqd,bhkd->bhqk", T(2, 2, 3, 4), T(2, 2, 5, 4), desc="attention scores"),
        S("ij,jk->ik", T(3, 4, noncontig=True), T(4, 5, noncontig=True), desc="noncontig"),
        S("i,i->", T(5), T(5), desc="dot"),
        S(",->", T(), T(), desc="0-d operands"),
    ]


def _outer_samples(dtype: str) -> list[Sample]:
    return [S(T(3), T(4)), S(T(1), T(5), desc="unit"),
            S(T(4, noncontig=True), T(3, noncontig=True), desc="noncontig"),
            S(T(0), T(3), desc="empty")]


def _dot_samples(dtype: str) -> list[Sample]:
    return [S(T(5), T(5)), S(T(1), T(1), desc="unit"),
            S(T(6, noncontig=True), T(6), desc="noncontig"), S(T(0), T(0), desc="empty")]


def _mv_samples(dtype: str) -> list[Sample]:
    return [S(T(3, 5), T(5)), S(T(4, 3, noncontig=True), T(3, noncontig=True), desc="noncontig"),
            S(T(1, 2), T(2), desc="small")]


def _trace_samples(dtype: str) -> list[Sample]:
    return [S(T(4, 4)), S(T(3, 5), desc="wide"), S(T(5, 2), desc="tall"),
            S(T(4, 4, noncontig=True), desc="noncontig"), S(T(0, 3), desc="empty"),
            S(T(1, 1), desc="1x1")]


def _tensordot_samples(dtype: str) -> list[Sample]:
    return [
        S(T(3, 4, 5), T(4, 5, 2), dims=2, desc="dims=2"),
        S(T(3, 4), T(4, 5), dims=1, desc="dims=1"),
        S(T(3, 4, 5), T(5, 3, 2), dims=([0, 2], [1, 0]), desc="explicit dims"),
        S(T(3), T(4), dims=0, desc="outer"),
        S(T(), T(3), dims=0, desc="0-d"),
        S(T(3, 4, noncontig=True), T(4, 5, noncontig=True), dims=([1], [0]), desc="noncontig"),
    ]


def _linalg_ops() -> list[OpInfo]:
    mm_dtypes = (*FLOAT_DTYPES, "int32", "int64")

    def la(name: str, fn: SampleFn, dtypes: tuple[str, ...] = mm_dtypes,
           ref: str | None = None, **kw: Any) -> OpInfo:
        return OpInfo(name, ref or f"torch.{name}", fn, dtypes, category="linalg", **kw)

    return [
        la("matmul", _matmul_samples),
        la("mm", _mm_samples),
        la("bmm", _bmm_samples),
        la("addmm", _addmm_samples, FLOAT_DTYPES),
        la("addmv", _addmv_samples, FLOAT_DTYPES),
        la("baddbmm", _baddbmm_samples, FLOAT_DTYPES),
        la("einsum", _einsum_samples, FLOAT_DTYPES),
        la("outer", _outer_samples),
        la("dot", _dot_samples),
        la("mv", _mv_samples),
        la("trace", _trace_samples, NUMERIC_DTYPES),
        la("tensordot", _tensordot_samples),
    ]


# ----------------------------------------------------------------------------- shape / indexing


def _cat_samples(dtype: str) -> list[Sample]:
    return [
        S([T(2, 3), T(4, 3), T(1, 3)], desc="dim 0"),
        S([T(2, 3), T(2, 1)], 1, desc="dim 1"),
        S([T(2, 3, 2), T(2, 3, 4)], dim=-1, desc="negative dim"),
        S([T(0, 3), T(2, 3)], desc="with empty"),
        S((T(3, 4, noncontig=True), T(3, 2, noncontig=True, noncontig_mode="slice")), 1,
          desc="noncontig, tuple"),
        S([T(4)], desc="single"),
        S([T(3), T(2)], desc="1-d"),
    ]


def _stack_samples(dtype: str) -> list[Sample]:
    return [
        S([T(2, 3), T(2, 3), T(2, 3)], desc="dim 0"),
        S([T(2, 3), T(2, 3)], 1, desc="dim 1"),
        S([T(2, 3), T(2, 3)], dim=-1, desc="new last dim"),
        S([T(), T()], desc="0-d"),
        S((T(3, 4, noncontig=True), T(3, 4)), 2, desc="noncontig"),
    ]


def _hvstack_samples(dtype: str) -> list[Sample]:
    return [
        S([T(3), T(3)], desc="1-d"),
        S([T(2, 3), T(2, 3)], desc="2-d"),
        S([T(2, 3, 2), T(2, 3, 2)], desc="3-d"),
        S((T(3, 3, noncontig=True), T(3, 3)), desc="noncontig"),
        S([T(), T()], desc="0-d"),
    ]


def _split_samples(dtype: str) -> list[Sample]:
    return [
        S(T(5, 4), 2, desc="int, uneven"),
        S(T(5, 4), [1, 3, 1], desc="sections"),
        S(T(4, 6), 4, dim=1, desc="dim=1"),
        S(T(4, 6, noncontig=True), [2, 4], dim=-1, desc="noncontig"),
        S(T(3, 2), 5, desc="bigger than dim"),
    ]


def _gradient_samples(dtype: str) -> list[Sample]:
    samples = [
        S(T(4, 5), desc="every dim, unit spacing"),
        S(T(4, 5), spacing=2.0, dim=1, desc="uniform spacing along dim 1"),
        S(T(3, 4, noncontig=True), spacing=[0.5, 2.0], edge_order=2,
          desc="a spacing per dim, edge_order 2, noncontig"),
        S(T(5, 3), dim=[0], edge_order=2, desc="dim list"),
    ]
    if is_floating(dtype):  # sample coordinates, unevenly spaced
        samples.append(S(T(3, 4), spacing=[T(4, values=(0.0, 0.5, 1.75, 3.0))], dim=1,
                         desc="coordinates"))
    return samples


def _chunk_samples(dtype: str) -> list[Sample]:
    return [
        S(T(5, 4), 2),
        S(T(4, 6), 3, dim=1, desc="dim=1"),
        S(T(6, 2), 4, desc="fewer chunks than asked"),
        S(T(4, 6, noncontig=True), 2, -1, desc="noncontig"),
    ]


def _unbind_samples(dtype: str) -> list[Sample]:
    return [S(T(3, 4)), S(T(2, 3, 4), 1, desc="dim 1"),
            S(T(3, 4, noncontig=True), dim=-1, desc="noncontig")]


def _flip_samples(dtype: str) -> list[Sample]:
    return [S(T(3, 4), (0,)), S(T(3, 4), [0, 1], desc="both"),
            S(T(2, 3, 4), dims=(-1,), desc="last"),
            S(T(3, 4, noncontig=True), (1,), desc="noncontig"), S(T(), (), desc="0-d")]


def _roll_samples(dtype: str) -> list[Sample]:
    return [
        S(T(3, 4), 2, desc="flattened"),
        S(T(3, 4), (1, -2), (0, 1), desc="tuples"),
        S(T(3, 4), shifts=-1, dims=1, desc="one dim"),
        S(T(2, 3, 4), shifts=5, dims=-1, desc="shift > size"),
        S(T(3, 4, noncontig=True), 1, 0, desc="noncontig"),
        S(T(), 1, desc="0-d"),
    ]


def _repeat_samples(dtype: str) -> list[Sample]:
    return [S(T(2, 3), 2, 3), S(T(3), 2, 1, 2, desc="more dims"),
            S(T(2, 3, noncontig=True), 1, 2, desc="noncontig"), S(T(), 3, desc="0-d")]


def _tile_samples(dtype: str) -> list[Sample]:
    return [S(T(2, 3), (2, 3)), S(T(2, 3), (2,), desc="fewer reps"),
            S(T(3), (2, 2), desc="more reps"),
            S(T(2, 3, noncontig=True), (1, 2), desc="noncontig"), S(T(), (3,), desc="0-d")]


def _tri_samples(dtype: str) -> list[Sample]:
    return [S(T(4, 5)), S(T(4, 5), 1, desc="diagonal 1"),
            S(T(5, 4), diagonal=-1, desc="diagonal -1"), S(T(2, 4, 4), desc="batched"),
            S(T(4, 4, noncontig=True), 2, desc="noncontig")]


def _sort_samples(dtype: str) -> list[Sample]:
    d = {"kind": "distinct"} if dtype != "bool" else {}
    ties = {"kind": "int", "low": -2, "high": 3} if dtype != "bool" else {}
    return [
        S(T(3, 5, **d), desc="default last dim"),
        S(T(3, 5, **d), 0, desc="dim 0"),
        S(T(3, 5, **d), dim=-1, descending=True, desc="descending"),
        S(T(4, 6, noncontig=True, **d), 1, desc="noncontig"),
        S(T(**d), desc="0-d"),
        # Ties are only well defined with stable=True.
        S(T(4, 9, **ties), stable=True, dim=1, desc="stable ties", gradcheck=False),
        S(T(4, 9, **ties), stable=True, dim=1, descending=True, desc="stable desc ties",
          gradcheck=False),
    ]


def _topk_samples(dtype: str) -> list[Sample]:
    d = {"kind": "distinct"}
    return [
        S(T(3, 6, **d), 2, desc="k=2"),
        S(T(3, 6, **d), 3, dim=0, desc="dim 0"),
        S(T(3, 6, **d), 2, largest=False, desc="smallest"),
        S(T(3, 6, **d), 4, -1, True, True, desc="positional sorted"),
        S(T(4, 6, noncontig=True, **d), 1, desc="noncontig"),
        S(T(5, **d), 5, desc="k = n"),
        S(T(**d), 1, desc="0-d"),
    ]


def _gather_samples(dtype: str) -> list[Sample]:
    return [
        S(T(3, 4), 1, T(3, 2, kind="index", high=4), desc="dim 1"),
        S(T(3, 4), 0, T(5, 4, kind="index", high=3), desc="dim 0 repeats"),
        S(T(3, 4), -1, T(2, 3, kind="index", high=4), desc="smaller index"),
        S(T(4, 5, noncontig=True), 1, T(4, 3, kind="index", high=5, noncontig=True),
          desc="noncontig"),
        S(T(), 0, T(kind="index", high=1), desc="0-d"),
    ]


def _scatter_samples(dtype: str) -> list[Sample]:
    return [
        S(T(3, 5), 0, _idx((2, 5), 0, 3, 1), T(2, 5), desc="src dim 0"),
        S(T(3, 5), 1, _idx((3, 2), 1, 5, 2), T(3, 2), desc="src dim 1"),
        S(T(3, 5), 1, _idx((3, 2), 1, 5, 3), _scalar(dtype, 0.5, 7), desc="value"),
        S(T(4, 5, noncontig=True), -1, _idx((4, 3), 1, 5, 4), T(4, 3, noncontig=True),
          desc="noncontig"),
        S(T(3, 4), 0, _idx((2, 4), 0, 3, 5), src=T(2, 4), desc="src kwarg"),
        S(T(), 0, T(kind="index", high=1), T(), desc="0-d"),
    ]


def _scatter_add_samples(dtype: str) -> list[Sample]:
    return [
        S(T(3, 5), 0, T(4, 5, kind="index", high=3), T(4, 5), desc="duplicates dim 0"),
        S(T(3, 5), 1, T(3, 6, kind="index", high=5), T(3, 6), desc="dim 1"),
        S(T(4, 5, noncontig=True), -1, T(4, 3, kind="index", high=5), T(4, 3, noncontig=True),
          desc="noncontig"),
        S(T(5), 0, T(8, kind="index", high=5), T(8), desc="1-d"),
        S(T(), 0, T(kind="index", high=1), T(), desc="0-d"),
    ]


def _index_select_samples(dtype: str) -> list[Sample]:
    return [
        S(T(4, 5), 0, T(3, kind="index", high=4)),
        S(T(4, 5), 1, T(7, kind="index", high=5), desc="dim 1 repeats"),
        S(T(4, 5), -1, T(kind="index", high=5), desc="0-d index"),
        S(T(4, 6, noncontig=True), 1, T(3, kind="index", high=6), desc="noncontig"),
        S(T(5), 0, T(0, kind="index", high=5), desc="empty index"),
    ]


def _index_add_samples(dtype: str) -> list[Sample]:
    alpha = _scalar(dtype, 2.0, 2)
    return [
        S(T(5, 3), 0, T(4, kind="index", high=5), T(4, 3), desc="dim 0 duplicates"),
        S(T(3, 5), 1, T(2, kind="index", high=5), T(3, 2), alpha=alpha, desc="alpha"),
        S(T(4, 5, noncontig=True), -1, T(3, kind="index", high=5), T(4, 3, noncontig=True),
          desc="noncontig"),
        S(T(5), 0, T(6, kind="index", high=5), T(6), desc="1-d"),
        S(T(), 0, T(kind="index", high=1), T(), desc="0-d"),
    ]


def _as_strided_samples(dtype: str) -> list[Sample]:
    return [
        S(T(4, 5), (3, 2), (5, 1), desc="windows"),
        S(T(4, 5), (2, 2), (1, 5), 3, desc="offset, transposed strides"),
        S(T(12), (3, 3), (2, 1), desc="overlapping windows"),
        # a strided view of a larger storage: positions are storage positions
        S(T(4, 5, noncontig=True), (2, 2), (1, 2), desc="noncontig", gradcheck=False),
    ]


def _index_put_samples(dtype: str) -> list[Sample]:
    b = {"kind": "bool"}
    return [
        S(T(5, 3), (T(4, kind="index", values=(4, 0, 2, 1)),), T(4, 3), desc="rows"),
        S(T(5, 3), (T(4, kind="index", high=5),), T(3), True, desc="accumulate duplicates"),
        S(T(4, 3), (T(4, 3, **b),), T(), desc="bool mask, 0-d value"),
        S(T(4, 6, noncontig=True), (T(2, kind="index", values=(3, 1)),), T(6),
          desc="noncontig, broadcast values"),
    ]


def _masked_fill_samples(dtype: str) -> list[Sample]:
    b = {"kind": "bool"}
    v = _scalar(dtype, -1.5, 7)
    return [
        S(T(3, 4), T(3, 4, **b), v, desc="scalar"),
        S(T(3, 4), T(4, **b), v, desc="broadcast mask"),
        S(T(3, 4), T(3, 4, **b), T(), desc="0-d tensor value"),
        S(T(), T(**b), v, desc="0-d"),
        S(T(4, 6, noncontig=True), T(4, 6, noncontig=True, **b), v, desc="noncontig"),
    ]


def _masked_select_samples(dtype: str) -> list[Sample]:
    b = {"kind": "bool"}
    return [
        S(T(3, 4), T(3, 4, **b)),
        S(T(3, 4), T(4, **b), desc="broadcast mask"),
        S(T(4), T(3, 4, **b), desc="broadcast input"),
        S(T(4, 6, noncontig=True), T(4, 6, **b), desc="noncontig"),
        S(T(), T(**b, values=(True,)), desc="0-d"),
    ]


def _nonzero_samples(dtype: str) -> list[Sample]:
    z = {"kind": "int", "low": -1, "high": 2}
    return [
        S(T(3, 4, **z)),
        S(T(2, 3, 4, **z), desc="3d"),
        S(T(7, **z), desc="1d"),
        S(T(3, 4, **z), as_tuple=True, desc="as_tuple"),
        S(T(4, 6, noncontig=True, **z), desc="noncontig"),
        S(T(3, 4, values=(0,) * 12), desc="all zero"),
        S(T(kind="int", low=1, high=2), desc="0-d"),
    ]


def _one_hot_samples(dtype: str) -> list[Sample]:
    return [
        S(T(5, kind="index", high=4), 4),
        S(T(2, 3, kind="index", high=5), num_classes=6, desc="2d, extra classes"),
        S(T(6, kind="index", values=(0, 3, 1, 3, 2, 0)), desc="inferred num_classes"),
        S(T(4, 3, kind="index", high=3, noncontig=True), 3, desc="noncontig"),
        S(T(kind="index", high=3), 3, desc="0-d"),
    ]


def _pad_samples(dtype: str) -> list[Sample]:
    v = _scalar(dtype, 0.5, 3)
    return [
        S(T(2, 3, 4), (1, 2), desc="constant last dim"),
        S(T(2, 3, 4), (1, 1, 2, 0), "constant", v, desc="constant value two dims"),
        S(T(2, 3, 4), (-1, 2), desc="negative (crop)"),
        S(T(2, 3, 5), (2, 1), mode="reflect", desc="reflect 1d"),
        S(T(1, 2, 4, 5), (1, 2, 2, 1), mode="reflect", desc="reflect 2d"),
        S(T(2, 3, 4), (2, 3), mode="replicate", desc="replicate 1d"),
        S(T(1, 2, 3, 4), (1, 1, 2, 2), mode="replicate", desc="replicate 2d"),
        S(T(2, 3, 5), (2, 1), mode="circular", desc="circular 1d"),
        S(T(1, 2, 3, 4), (1, 2, 2, 1), mode="circular", desc="circular 2d"),
        S(T(2, 4, 6, noncontig=True), (1, 1, 1, 1), mode="reflect", desc="noncontig reflect"),
        S(T(3, 4, noncontig=True), (1, 0, 0, 2), value=v, desc="noncontig constant"),
    ]


def _simple(*samples: Sample) -> SampleFn:
    """A dtype-independent sample list."""
    return lambda dtype: list(samples)


def _shape_ops() -> list[OpInfo]:
    def sh(name: str, fn: SampleFn, ref: str | None = None,
           dtypes: tuple[str, ...] = ALL_DTYPES, **kw: Any) -> OpInfo:
        return OpInfo(name, ref or f"torch.{name}", fn, dtypes, category="shape", **kw)

    nc = {"noncontig": True}
    return [
        sh("cat", _cat_samples),
        sh("stack", _stack_samples),
        sh("hstack", _hvstack_samples),
        sh("vstack", _hvstack_samples),
        sh("split", _split_samples),
        sh("chunk", _chunk_samples),
        sh("gradient", _gradient_samples, dtypes=("float32", "float64", "int64")),
        sh("unbind", _unbind_samples),
        sh("flip", _flip_samples),
        sh("roll", _roll_samples),
        sh("repeat", _repeat_samples, "Tensor.repeat"),
        sh("tile", _tile_samples),
        sh("tril", _tri_samples),
        sh("triu", _tri_samples),
        sh("sort", _sort_samples, dtypes=NUMERIC_DTYPES),
        sh("argsort", _sort_samples, dtypes=NUMERIC_DTYPES, grad=False),
        sh("topk", _topk_samples, dtypes=NUMERIC_DTYPES),
        sh("gather", _gather_samples),
        sh("scatter", _scatter_samples),
        sh("scatter_add", _scatter_add_samples, dtypes=NUMERIC_DTYPES),
        sh("index_select", _index_select_samples),
        sh("index_add", _index_add_samples, dtypes=NUMERIC_DTYPES),
        sh("masked_fill", _masked_fill_samples),
        sh("as_strided", _as_strided_samples),
        sh("index_put", _index_put_samples),
        sh("masked_select", _masked_select_samples),
        sh("nonzero", _nonzero_samples, grad=False),
        sh("one_hot", _one_hot_samples, "torch.nn.functional.one_hot", ("int64",), grad=False),
        sh("pad", _pad_samples, "torch.nn.functional.pad", FLOAT_DTYPES),
        sh("clone", _simple(S(T(3, 4)), S(T(3, 4, **nc), desc="noncontig"),
                            S(T(), desc="0-d"), S(T(0, 2), desc="empty"))),
        sh("contiguous", _simple(S(T(3, 4, **nc), desc="transposed"),
                                 S(T(5, noncontig=True), desc="sliced"),
                                 S(T(2, 3), desc="already contiguous"), S(T(), desc="0-d")),
           "Tensor.contiguous"),
        sh("reshape", _simple(S(T(3, 4), (6, 2)), S(T(3, 4), (-1,), desc="-1"),
                              S(T(2, 3, 4), (4, -1, 3), desc="-1 middle"),
                              S(T(3, 4, **nc), (12,), desc="noncontig copy"),
                              S(T(), (1, 1), desc="0-d up"), S(T(1, 1), (), desc="to 0-d"))),
        sh("view", _simple(S(T(3, 4), 6, 2), S(T(3, 4), (-1,), desc="tuple -1"),
                           S(T(4, 6, noncontig=True, noncontig_mode="slice"), 4, 3, 2,
                             desc="noncontig, compatible split"),
                           S(T(), 1, desc="0-d")), "Tensor.view"),
        sh("flatten", _simple(S(T(2, 3, 4)), S(T(2, 3, 4), 1, desc="start 1"),
                              S(T(2, 3, 4, 2), start_dim=1, end_dim=-2, desc="middle"),
                              S(T(3, 4, **nc), desc="noncontig"), S(T(), desc="0-d"))),
        sh("unflatten", _simple(S(T(2, 6), 1, (2, 3)), S(T(6, 2), 0, (-1, 2), desc="-1"),
                                S(T(3, 4, **nc), -1, (2, 2), desc="noncontig"))),
        sh("permute", _simple(S(T(2, 3, 4), (2, 0, 1)), S(T(2, 3, 4), (-1, 0, -2), desc="neg"),
                              S(T(3, 4, **nc), (1, 0), desc="noncontig"),
                              S(T(), (), desc="0-d"))),
        sh("transpose", _simple(S(T(2, 3, 4), 0, 2), S(T(2, 3, 4), -1, -2, desc="neg"),
                                S(T(3, 4, **nc), 0, 1, desc="noncontig"),
                                S(T(3), 0, 0, desc="1-d same dim"),
                                S(T(), 0, -1, desc="0-d"))),
        sh("t", _simple(S(T(3, 4)), S(T(5), desc="1-d"), S(T(), desc="0-d"),
                        S(T(3, 4, **nc), desc="noncontig"))),
        sh("squeeze", _simple(S(T(1, 3, 1, 4)), S(T(1, 3, 1, 4), 2, desc="dim"),
                              S(T(1, 3, 1, 4), (0, 2), desc="dims tuple"),
                              S(T(1, 3, 1, 4), 1, desc="non-1 dim no-op"),
                              S(T(3, 1, **nc), desc="noncontig"), S(T(), desc="0-d"))),
        sh("unsqueeze", _simple(S(T(3, 4), 0), S(T(3, 4), -1, desc="-1"),
                                S(T(3, 4), 1, desc="middle"),
                                S(T(3, 4, **nc), 2, desc="noncontig"), S(T(), 0, desc="0-d"))),
        sh("expand", _simple(S(T(3, 1), 3, 4), S(T(3, 1), 2, -1, 5, desc="new dims -1"),
                             S(T(), 2, 3, desc="0-d"),
                             S(T(1, 4, **nc), (3, 4), desc="noncontig tuple")),
           "Tensor.expand"),
        sh("narrow", _simple(S(T(4, 5), 0, 1, 2), S(T(4, 5), -1, 2, 3, desc="neg dim"),
                             S(T(4, 5), 1, -3, 2, desc="neg start"),
                             S(T(4, 6, **nc), 1, 1, 3, desc="noncontig"))),
        sh("unfold", _simple(S(T(7), 0, 2, 1), S(T(3, 8), 1, 3, 2, desc="step 2"),
                             S(T(5, 4), 0, 2, 3, desc="dim 0"),
                             S(T(4, 6, **nc), -1, 2, 2, desc="noncontig"),
                             S(T(), 0, 1, 1, desc="0-d")), "Tensor.unfold"),
        sh("diagonal", _simple(S(T(4, 5)), S(T(4, 5), 1, desc="offset 1"),
                               S(T(4, 5), -2, desc="offset -2"),
                               S(T(2, 3, 4), 0, 1, 2, desc="batched dims"),
                               S(T(2, 3, 4), offset=1, dim1=-1, dim2=0, desc="neg dims"),
                               S(T(4, 4, **nc), desc="noncontig"))),
        sh("select", _simple(S(T(3, 4), 0, 1), S(T(3, 4), 1, -1, desc="neg index"),
                             S(T(2, 3, 4), -1, 2, desc="neg dim"),
                             S(T(3, 4, **nc), 1, 0, desc="noncontig"))),
        sh("movedim", _simple(S(T(2, 3, 4), 0, 2), S(T(2, 3, 4), (0, 1), (2, 0), desc="tuples"),
                              S(T(2, 3, 4), -1, 0, desc="neg"),
                              S(T(3, 4, **nc), 0, 1, desc="noncontig"),
                              S(T(), 0, -1, desc="0-d"))),
        sh("diag", _simple(S(T(4)), S(T(3), 1, desc="vector offset"),
                           S(T(3, 4), desc="matrix"), S(T(3, 4), -1, desc="matrix offset"),
                           S(T(4, 4, **nc), 1, desc="noncontig"))),
        sh("take_along_dim", _simple(
            S(T(3, 4), T(3, 2, kind="index", high=4), 1),
            S(T(3, 4), T(1, 4, kind="index", high=3), dim=0, desc="broadcast index"),
            S(T(3, 4), T(5, kind="index", high=12), desc="flattened"),
            S(T(4, 5, **nc), T(4, 3, kind="index", high=5), -1, desc="noncontig"))),
        sh("broadcast_to", _simple(S(T(3, 1), (3, 4)), S(T(4), (2, 3, 4), desc="new dims"),
                                   S(T(), (2, 2), desc="0-d"),
                                   S(T(1, 3, **nc), (2, -1), desc="noncontig -1"))),
        sh("meshgrid", _simple(S(T(3), T(4), indexing="ij"),
                               S(T(2), T(3), T(2), indexing="ij", desc="three"),
                               S(T(4, noncontig=True), T(2), indexing="ij", desc="noncontig"),
                               S(T(), T(3), indexing="ij", desc="0-d"))),
    ]


# ----------------------------------------------------------------------------- nn


def _softmax_samples(dtype: str) -> list[Sample]:
    out = [
        S(T(3, 5), 1, desc="dim 1"),
        S(T(3, 5), dim=0, desc="dim 0"),
        S(T(2, 3, 4), dim=-1, desc="3d last"),
        S(T(), dim=0, desc="0-d"),
        S(T(4, 6, noncontig=True), dim=1, desc="noncontig"),
        S(T(3, 4, low=-20, high=20), dim=1, desc="large range"),
        S(T(0, 3), dim=1, desc="empty"),
    ]
    out.append(S(T(3, 4), dim=1, dtype=DTypeArg(_sum_dtype(dtype)), desc="dtype",
                 gradcheck=_gradcheck_with(dtype, _sum_dtype(dtype))))
    return out


def _conv_samples(nd: int) -> SampleFn:
    sp = (7, 8)[:nd] if nd == 2 else (9,)

    def fn(dtype: str) -> list[Sample]:
        k = (3,) * nd
        return [
            S(T(2, 4, *sp), T(6, 4, *k), T(6), desc="basic"),
            S(T(2, 4, *sp), T(6, 4, *k), T(6), stride=2, padding=1, desc="stride pad"),
            S(T(2, 4, *sp), T(6, 4, *k), None, 1, 2, 2, desc="dilation, no bias"),
            S(T(2, 4, *sp), T(6, 2, *k), T(6), groups=2, padding=1, desc="groups"),
            S(T(2, 4, *sp), T(6, 4, *((4,) * nd)), T(6), padding="same", desc="same even k"),
            S(T(2, 4, *sp), T(5, 4, *k), padding="valid", desc="valid"),
            S(T(4, *sp), T(6, 4, *k), T(6), padding=1, desc="unbatched"),
            S(T(2, 4, *sp, noncontig=True), T(6, 4, *k, noncontig=True), T(6),
              stride=(2,) * (nd - 1) + (1,), padding=(1,) * nd, desc="noncontig tuples"),
        ]

    return fn


def _conv_t_samples(nd: int) -> SampleFn:
    sp = (5, 6) if nd == 2 else (7,)

    def fn(dtype: str) -> list[Sample]:
        k = (3,) * nd
        return [
            S(T(2, 4, *sp), T(4, 3, *k), T(3), desc="basic"),
            S(T(2, 4, *sp), T(4, 3, *k), T(3), stride=2, padding=1, output_padding=1,
              desc="stride output_padding"),
            S(T(2, 4, *sp), T(4, 3, *k), T(6), groups=2, desc="groups"),
            S(T(2, 4, *sp), T(4, 3, *k), dilation=2, padding=2, desc="dilation no bias"),
            S(T(4, *sp), T(4, 2, *k), T(2), stride=2, desc="unbatched"),
            S(T(2, 4, *sp, noncontig=True), T(4, 3, *k, noncontig=True), None,
              (2,) * nd, (1,) * nd, (1,) * nd, desc="noncontig positional"),
        ]

    return fn


def _max_pool_samples(nd: int) -> SampleFn:
    d = {"kind": "distinct"}

    def fn(dtype: str) -> list[Sample]:
        if nd == 1:
            x = (2, 3, 10)
            return [
                S(T(*x, **d), 3, desc="k=3"),
                S(T(*x, **d), 3, 2, 1, desc="stride pad"),
                S(T(*x, **d), kernel_size=2, dilation=2, desc="dilation"),
                S(T(*x, **d), 3, 2, ceil_mode=True, desc="ceil_mode"),
                S(T(*x, **d), 2, return_indices=True, desc="return_indices"),
                S(T(3, 10, **d), 2, desc="unbatched"),
                S(T(2, 3, 8, noncontig=True, **d), 2, 1, desc="noncontig"),
            ]
        x = (2, 2, 7, 8)
        return [
            S(T(*x, **d), 2, desc="k=2"),
            S(T(*x, **d), (3, 2), (2, 1), 1, desc="rect stride pad"),
            S(T(*x, **d), kernel_size=2, stride=1, dilation=2, desc="dilation"),
            S(T(*x, **d), 3, 2, ceil_mode=True, desc="ceil_mode"),
            S(T(*x, **d), 2, return_indices=True, desc="return_indices"),
            S(T(3, 7, 8, **d), 2, desc="unbatched"),
            S(T(2, 2, 6, 6, noncontig=True, **d), 2, desc="noncontig"),
        ]

    return fn


def _avg_pool_samples(nd: int) -> SampleFn:
    def fn(dtype: str) -> list[Sample]:
        if nd == 1:
            x = (2, 3, 10)
            return [
                S(T(*x), 3, desc="k=3"),
                S(T(*x), 3, 2, 1, desc="stride pad"),
                S(T(*x), 3, 2, 1, count_include_pad=False, desc="exclude pad"),
                S(T(*x), 3, 2, ceil_mode=True, desc="ceil_mode"),
                S(T(3, 10), 2, desc="unbatched"),
                S(T(2, 3, 8, noncontig=True), 2, desc="noncontig"),
            ]
        x = (2, 3, 7, 8)
        return [
            S(T(*x), 2, desc="k=2"),
            S(T(*x), (3, 2), (2, 1), 1, desc="rect stride pad"),
            S(T(*x), 3, 2, 1, count_include_pad=False, desc="exclude pad"),
            S(T(*x), 3, 2, ceil_mode=True, desc="ceil_mode"),
            S(T(*x), 2, divisor_override=3, desc="divisor_override"),
            S(T(3, 7, 8), 2, desc="unbatched"),
            S(T(2, 3, 6, 6, noncontig=True), 2, desc="noncontig"),
        ]

    return fn


def _adaptive_samples(nd: int, is_max: bool = False) -> SampleFn:
    d = {"kind": "distinct"} if is_max else {}

    def fn(dtype: str) -> list[Sample]:
        if nd == 1:
            return [
                S(T(2, 3, 10, **d), 5, desc="divisible"),
                S(T(2, 3, 10, **d), 4, desc="non-divisible"),
                S(T(2, 3, 7, **d), 1, desc="global"),
                S(T(3, 10, **d), 3, desc="unbatched"),
                S(T(2, 3, 8, noncontig=True, **d), 3, desc="noncontig"),
            ]
        out = [
            S(T(2, 2, 6, 8, **d), (3, 4), desc="divisible"),
            S(T(2, 2, 7, 9, **d), (3, 4), desc="non-divisible"),
            S(T(2, 2, 5, 5, **d), 1, desc="global"),
            S(T(2, 2, 7, 9, **d), (None, 4), desc="None keeps size"),
            S(T(3, 7, 9, **d), (2, 5), desc="unbatched"),
            S(T(2, 2, 6, 6, noncontig=True, **d), 4, desc="noncontig"),
        ]
        if is_max:
            out.append(S(T(2, 2, 7, 9, **d), (3, 4), return_indices=True, desc="indices"))
        return out

    return fn


def _embedding_samples(dtype: str) -> list[Sample]:
    # padding_idx rows get a zero gradient and scale_grad_by_freq rescales it: both are
    # PyTorch conventions rather than true derivatives, so finite differences disagree.
    return [
        S(T(6, kind="index", high=10), T(10, 4), desc="1d"),
        S(T(2, 3, kind="index", high=10), T(10, 4), desc="2d index"),
        S(T(6, kind="index", values=(0, 2, 0, 5, 2, 1)), T(6, 3), padding_idx=0, desc="padding_idx",
          gradcheck=False),
        S(T(5, kind="index", values=(5, 1, 5, 2, 0)), T(6, 3), padding_idx=-1,
          desc="negative padding_idx", gradcheck=False),
        S(T(7, kind="index", values=(1, 1, 3, 1, 0, 3, 2)), T(4, 3), scale_grad_by_freq=True,
          desc="scale_grad_by_freq", gradcheck=False),
        S(T(4, kind="index", high=5, dtype="int32"), T(5, 3), desc="int32 index"),
        S(T(3, 2, kind="index", high=6, noncontig=True), T(6, 4, noncontig=True),
          desc="noncontig"),
        S(T(kind="index", high=5), T(5, 3), desc="0-d index"),
    ]


def _dropout_samples(dtype: str) -> list[Sample]:
    return [
        S(T(8, 16), desc="default p"),
        S(T(8, 16), 0.2, True, desc="p=0.2"),
        S(T(4, 6, noncontig=True), p=0.5, desc="noncontig"),
        S(T(), p=0.5, desc="0-d"),
    ]


def _dropout_eval_samples(dtype: str) -> list[Sample]:
    return [
        S(T(4, 5), 0.0, desc="p=0 training"),
        S(T(4, 5), 0.5, False, desc="training=False"),
        S(T(4, 6, noncontig=True), p=0.7, training=False, desc="noncontig eval"),
        S(T(), p=0.0, desc="0-d"),
    ]


def _batch_norm_samples(dtype: str) -> list[Sample]:
    stat = {"requires_grad": False}
    var = {"requires_grad": False, "kind": "positive"}
    return [
        S(T(4, 3, 5), T(3, **stat), T(3, **var), T(3), T(3), False, desc="eval"),
        S(T(4, 3, 5), T(3, **stat), T(3, **var), T(3), T(3), True, 0.2, desc="train, momentum"),
        S(T(4, 3, 5), None, None, T(3), T(3), True, desc="train, no running stats"),
        S(T(6, 3), T(3, **stat), T(3, **var), training=True, eps=1e-3, desc="2d train"),
        S(T(2, 3, 4, 4), T(3, **stat), T(3, **var), desc="4d eval no affine"),
        S(T(2, 3, 4, 4), T(3, **stat), T(3, **var), T(3), None, True, desc="4d train"),
        S(T(4, 3, 6, noncontig=True), T(3, **stat), T(3, **var), T(3), T(3), True,
          desc="noncontig"),
    ]


def _layer_norm_samples(dtype: str) -> list[Sample]:
    return [
        S(T(3, 4, 5), (5,), T(5), T(5), desc="last dim"),
        S(T(3, 4, 5), (4, 5), T(4, 5), T(4, 5), desc="two dims"),
        S(T(3, 5), [5], desc="no affine"),
        S(T(3, 5), (5,), T(5), None, 1e-3, desc="weight only eps"),
        S(T(2, 4, 6, noncontig=True), (6,), weight=T(6), bias=T(6), desc="noncontig"),
    ]


def _group_norm_samples(dtype: str) -> list[Sample]:
    return [
        S(T(2, 6, 5), 3, T(6), T(6), desc="3 groups"),
        S(T(2, 6, 5), 1, T(6), T(6), desc="1 group"),
        S(T(2, 6, 5), 6, desc="instance-like no affine"),
        S(T(2, 4, 3, 3), 2, T(4), None, 1e-3, desc="4d"),
        S(T(3, 4, 6, noncontig=True), 2, weight=T(4), bias=T(4), desc="noncontig"),
    ]


def _linear_samples(dtype: str) -> list[Sample]:
    return [
        S(T(3, 5), T(4, 5), T(4)),
        S(T(5), T(4, 5), T(4), desc="1-d input"),
        S(T(2, 3, 5), T(4, 5), desc="3-d no bias"),
        S(T(3, 5), T(4, 5, noncontig=True), T(4), desc="noncontig weight"),
        S(T(3, 5, noncontig=True), T(1, 5), T(1), desc="noncontig input"),
    ]


def _cross_entropy_samples(dtype: str) -> list[Sample]:
    idx = {"kind": "index", "high": 4}
    prob = {"low": 0.0, "high": 1.0}
    # PyTorch does not differentiate w.r.t. class weights.
    w = {"kind": "positive", "low": 0.2, "high": 2.0, "requires_grad": False}
    tgt = (1, 0, 3, 1, 2)
    return [
        S(T(5, 4), T(5, **idx), desc="indices"),
        S(T(5, 4), T(5, 4, **prob), desc="probabilities"),
        S(T(5, 4), T(5, **idx), T(4, **w), reduction="sum", desc="weight sum"),
        S(T(5, 4), T(5, kind="index", values=tgt), ignore_index=1, desc="ignore_index"),
        S(T(5, 4), T(5, kind="index", values=tgt), weight=T(4, **w), ignore_index=1,
          desc="weight ignore_index mean"),
        S(T(5, 4), T(5, **idx), label_smoothing=0.1, desc="label smoothing"),
        S(T(5, 4), T(5, **idx), T(4, **w), label_smoothing=0.2, desc="smoothing weight"),
        S(T(5, 4), T(5, 4, **prob), label_smoothing=0.1, reduction="none",
          desc="probs smoothing none"),
        S(T(2, 4, 3), T(2, 3, **idx), reduction="none", desc="K-dim none"),
        S(T(2, 4, 3), T(2, 3, **idx), reduction="sum", desc="K-dim sum"),
        S(T(4), T(**idx), desc="unbatched"),
        S(T(5, 4, noncontig=True), T(5, **idx), desc="noncontig"),
    ]


def _nll_loss_samples(dtype: str) -> list[Sample]:
    idx = {"kind": "index", "high": 4}
    # PyTorch does not differentiate w.r.t. class weights.
    w = {"kind": "positive", "low": 0.2, "high": 2.0, "requires_grad": False}
    tgt = (1, 0, 3, 1, 2)
    return [
        S(T(5, 4), T(5, **idx), desc="mean"),
        S(T(5, 4), T(5, **idx), T(4, **w), desc="weight"),
        S(T(5, 4), T(5, **idx), reduction="sum", desc="sum"),
        S(T(5, 4), T(5, **idx), reduction="none", desc="none"),
        S(T(5, 4), T(5, kind="index", values=tgt), T(4, **w), ignore_index=1, desc="weight ignore"),
        S(T(2, 4, 3), T(2, 3, **idx), desc="K-dim"),
        S(T(4), T(**idx), desc="unbatched"),
        S(T(5, 4, noncontig=True), T(5, **idx), reduction="sum", desc="noncontig"),
    ]


def _pair_loss_samples(extra: tuple[dict[str, Any], ...] = (),
                       a: dict[str, Any] | None = None, b: dict[str, Any] | None = None
                       ) -> SampleFn:
    a = a or {}
    b = b or {}

    def fn(dtype: str) -> list[Sample]:
        out = [
            S(T(3, 4, **a), T(3, 4, **b), desc="mean"),
            S(T(3, 4, **a), T(3, 4, **b), reduction="sum", desc="sum"),
            S(T(3, 4, **a), T(3, 4, **b), reduction="none", desc="none"),
            S(T(**a), T(**b), desc="0-d"),
            S(T(4, 6, noncontig=True, **a), T(4, 6, **b), desc="noncontig"),
        ]
        out += [S(T(3, 4, **a), T(3, 4, **b), desc=f"{v}", **v) for v in extra]
        return out

    return fn


def _bce_samples(dtype: str) -> list[Sample]:
    x = {"low": 0.05, "high": 0.95}
    y = {"low": 0.0, "high": 1.0}
    w = {"kind": "positive", "requires_grad": False}  # not differentiable in PyTorch
    return [
        *_pair_loss_samples(a=x, b=y)(dtype),
        S(T(3, 4, **x), T(3, 4, **y), T(3, 4, **w), desc="weight"),
        S(T(3, 4, **x), T(3, 4, **y), weight=T(4, **w), reduction="sum", desc="bcast weight"),
    ]


def _bce_logits_samples(dtype: str) -> list[Sample]:
    y = {"low": 0.0, "high": 1.0}
    w = {"kind": "positive", "requires_grad": False}  # not differentiable in PyTorch
    return [
        *_pair_loss_samples(a={"low": -4, "high": 4}, b=y)(dtype),
        S(T(3, 4), T(3, 4, **y), pos_weight=T(4, **w), desc="pos_weight"),
        S(T(3, 4), T(3, 4, **y), T(3, 4, **w), pos_weight=T(4, **w), reduction="sum",
          desc="weight pos_weight"),
        S(T(3, 4), T(3, 4, **y), weight=T(4, **w), reduction="none", desc="bcast weight"),
    ]


def _kl_div_samples(dtype: str) -> list[Sample]:
    p = {"kind": "positive", "low": 0.05, "high": 1.0}
    return [
        S(T(3, 4), T(3, 4, **p), reduction="batchmean", desc="batchmean"),
        S(T(3, 4), T(3, 4, **p), reduction="sum", desc="sum"),
        S(T(3, 4), T(3, 4, **p), reduction="none", desc="none"),
        S(T(3, 4), T(3, 4, **p), reduction="mean", desc="mean"),
        S(T(3, 4), T(3, 4), reduction="batchmean", log_target=True, desc="log_target"),
        S(T(3, 4), T(3, 4), reduction="none", log_target=True, desc="log_target none"),
        S(T(), T(**p), reduction="sum", desc="0-d"),
        S(T(4, 6, noncontig=True), T(4, 6, **p), reduction="batchmean", desc="noncontig"),
    ]


def _cosine_samples(dtype: str) -> list[Sample]:
    return [
        S(T(3, 5), T(3, 5), desc="dim 1"),
        S(T(3, 5), T(1, 5), desc="broadcast"),
        S(T(3, 5), T(3, 5), dim=0, desc="dim 0"),
        S(T(2, 3, 4), T(2, 3, 4), dim=-1, eps=1e-6, desc="eps"),
        S(T(5), T(5), dim=0, desc="1-d"),
        S(T(3, 5, noncontig=True), T(3, 5), desc="noncontig"),
        S(T(), T(), dim=0, desc="0-d"),
    ]


def _pairwise_samples(dtype: str) -> list[Sample]:
    return [
        S(T(3, 5), T(3, 5), desc="p=2"),
        S(T(3, 5), T(3, 5), p=1.0, desc="p=1"),
        S(T(3, 5), T(3, 5), 3.0, 1e-6, True, desc="p=3 keepdim"),
        S(T(3, 5), T(1, 5), desc="broadcast"),
        S(T(5), T(5), desc="1-d"),
        S(T(3, 5, noncontig=True), T(3, 5), desc="noncontig"),
        S(T(), T(), desc="0-d"),
    ]


def _normalize_samples(dtype: str) -> list[Sample]:
    return [
        S(T(3, 5), desc="default p=2 dim=1"),
        S(T(3, 5), p=1.0, dim=0, desc="p=1 dim 0"),
        S(T(5), dim=0, desc="1-d"),
        S(T(2, 3, 4), 2.0, -1, desc="3d last"),
        S(T(3, 5), p=3.0, dim=1, eps=1e-6, desc="p=3"),
        S(T(4, 6, noncontig=True), dim=1, desc="noncontig"),
        S(T(), dim=0, desc="0-d"),
    ]


def _sdpa_samples(dtype: str) -> list[Sample]:
    return [
        S(T(2, 3, 4, 8), T(2, 3, 5, 8), T(2, 3, 5, 6), desc="no mask"),
        S(T(2, 3, 4, 8), T(2, 3, 5, 8), T(2, 3, 5, 6), attn_mask=_bool_mask((4, 5), 7, True),
          desc="bool mask"),
        S(T(2, 3, 4, 8), T(2, 3, 5, 8), T(2, 3, 5, 6),
          attn_mask=_bool_mask((2, 1, 4, 5), 8, True), desc="broadcast bool mask"),
        S(T(2, 3, 4, 8), T(2, 3, 5, 8), T(2, 3, 5, 6), T(4, 5), desc="float mask"),
        S(T(2, 2, 5, 8), T(2, 2, 5, 8), T(2, 2, 5, 8), is_causal=True, desc="causal"),
        S(T(1, 2, 4, 8), T(1, 2, 6, 8), T(1, 2, 6, 8), is_causal=True,
          desc="causal L<S top-left"),
        S(T(2, 3, 4, 8), T(2, 3, 5, 8), T(2, 3, 5, 6), scale=0.5, desc="scale"),
        S(T(3, 4, 8), T(3, 5, 8), T(3, 5, 8), desc="3-d"),
        S(T(2, 3, 4, 8, noncontig=True), T(2, 3, 5, 8, noncontig=True), T(2, 3, 5, 6),
          desc="noncontig"),
    ]


def _grid_sampler_samples(spatial: int) -> SampleFn:
    """Samples of torch.grid_sampler_2d/3d: points inside and outside [-1, 1], every padding,
    both corner conventions; nearest (and, in 2-d, bicubic) interpolation too."""
    sizes = (4, 5) if spatial == 2 else (3, 4, 3)
    out = (3, 2) if spatial == 2 else (2, 2, 3)

    def samples(dtype: str) -> list[Sample]:
        cases = [(0, 0, False), (0, 1, True), (0, 2, False), (1, 0, True)]
        if spatial == 2:
            cases += [(2, 0, False), (2, 2, True)]
        return [S(T(2, 3, *sizes), T(2, *out, spatial, low=-1.2, high=1.2), mode, padding,
                  align, desc=f"mode {mode}, padding {padding}, align_corners {align}")
                for mode, padding, align in cases] + [
            S(T(2, 3, *sizes, noncontig=True), T(2, *out, spatial, low=-1.2, high=1.2,
                                                  noncontig=True), 0, 0, False,
              desc="noncontig input and grid")]
    return samples


def _nn_ops() -> list[OpInfo]:
    def nn(name: str, fn: SampleFn, dtypes: tuple[str, ...] = FLOAT_DTYPES,
           ref: str | None = None, **kw: Any) -> OpInfo:
        return OpInfo(name, ref or f"torch.nn.functional.{name}", fn, dtypes, category="nn",
                      **kw)

    return [
        nn("softmax", _softmax_samples),
        nn("grid_sampler_2d", _grid_sampler_samples(2), ("float32", "float64"),
           "torch.grid_sampler_2d"),
        nn("grid_sampler_3d", _grid_sampler_samples(3), ("float32", "float64"),
           "torch.grid_sampler_3d"),
        nn("log_softmax", _softmax_samples),
        nn("conv1d", _conv_samples(1)),
        nn("conv2d", _conv_samples(2)),
        nn("conv_transpose1d", _conv_t_samples(1)),
        nn("conv_transpose2d", _conv_t_samples(2)),
        nn("max_pool1d", _max_pool_samples(1)),
        nn("max_pool2d", _max_pool_samples(2)),
        nn("avg_pool1d", _avg_pool_samples(1)),
        nn("avg_pool2d", _avg_pool_samples(2)),
        nn("adaptive_avg_pool1d", _adaptive_samples(1)),
        nn("adaptive_avg_pool2d", _adaptive_samples(2)),
        nn("adaptive_max_pool2d", _adaptive_samples(2, True)),
        nn("embedding", _embedding_samples),
        nn("dropout", _dropout_samples, random=True, grad=False,
           notes="only shape/dtype are comparable"),
        nn("dropout_eval", _dropout_eval_samples, ref="torch.nn.functional.dropout"),
        nn("batch_norm", _batch_norm_samples, mutates=(1, 2)),
        nn("layer_norm", _layer_norm_samples),
        nn("group_norm", _group_norm_samples),
        nn("linear", _linear_samples),
        nn("cross_entropy", _cross_entropy_samples),
        nn("nll_loss", _nll_loss_samples),
        nn("mse_loss", _pair_loss_samples()),
        nn("l1_loss", _pair_loss_samples()),
        nn("smooth_l1_loss", _pair_loss_samples(({"beta": 0.5}, {"beta": 2.0}))),
        nn("huber_loss", _pair_loss_samples(({"delta": 0.5}, {"delta": 2.0}))),
        nn("binary_cross_entropy", _bce_samples),
        nn("binary_cross_entropy_with_logits", _bce_logits_samples),
        nn("kl_div", _kl_div_samples),
        nn("cosine_similarity", _cosine_samples),
        nn("pairwise_distance", _pairwise_samples),
        nn("normalize", _normalize_samples),
        nn("scaled_dot_product_attention", _sdpa_samples),
    ]


# ----------------------------------------------------------------------------- in-place


def _inplace_binary_samples(b: dict[str, Any] | None = None,
                            scalar: Callable[[str], Any] | None = None,
                            variants: tuple[dict[str, Any], ...] = ()) -> SampleFn:
    b = b or {}

    def fn(dtype: str) -> list[Sample]:
        out = [
            S(T(4, 5), T(4, 5, **b), desc="same shape"),
            S(T(3, 4), T(4, **b), desc="broadcast other"),
            S(T(3, 4), T(**b), desc="0-d other"),
            S(T(), T(**b), desc="0-d"),
            S(T(4, 6, noncontig=True), T(4, 6, noncontig=True, noncontig_mode="slice", **b),
              desc="noncontig self"),
        ]
        if scalar is not None:
            out.append(S(T(3, 5), scalar(dtype), desc="python scalar"))
        out += [S(T(4, 5), T(4, 5, **b), desc=f"{v}", **v) for v in variants]
        return out

    return fn


def _inplace_ops() -> list[OpInfo]:
    nz = {"kind": "nonzero"}

    def ip(name: str, fn: SampleFn, dtypes: tuple[str, ...], **kw: Any) -> OpInfo:
        return OpInfo(name, f"Tensor.{name}", fn, dtypes, inplace=True, category="inplace", **kw)

    def unary(low: float | None = None, high: float | None = None) -> SampleFn:
        return _unary_samples(low, high)

    def masked_fill_(dtype: str) -> list[Sample]:
        return [s for s in _masked_fill_samples(dtype) if s.desc != "broadcast mask"] + [
            S(T(3, 4), T(4, kind="bool"), _scalar(dtype, -1.5, 7), desc="broadcast mask")]

    def pow_(dtype: str) -> list[Sample]:
        pos = {"kind": "positive"}
        return [S(T(3, 4, **pos), T(3, 4), desc="tensor"), S(T(3, 4), 2, desc="square"),
                S(T(3, 4, noncontig=True, **pos), 0.5, desc="noncontig"),
                S(T(**pos), T(), desc="0-d")]

    def clamp_(dtype: str) -> list[Sample]:
        return [S(T(3, 4), -0.5, 0.75, desc="scalars"), S(T(3, 4), min=0.0, desc="min"),
                S(T(3, 4, noncontig=True), max=T(4, low=0, high=1), desc="noncontig tensor max"),
                S(T(), -0.5, 0.5, desc="0-d")]

    def copy_(dtype: str) -> list[Sample]:
        return [S(T(3, 4), T(3, 4)), S(T(3, 4), T(4), desc="broadcast"),
                S(T(3, 4, noncontig=True), T(3, 4), desc="noncontig self"),
                S(T(3, 4), T(3, 4, noncontig=True), desc="noncontig src"),
                S(T(3, 4), T(), desc="0-d src broadcast"),
                S(T(3, 4), T(3, 4, dtype=_sum_dtype(dtype)), desc="dtype conversion",
                  gradcheck=_gradcheck_with(dtype, _sum_dtype(dtype)))]

    def fill_(dtype: str) -> list[Sample]:
        return [S(T(3, 4), _scalar(dtype, 1.5, 3)), S(T(3, 4), T(), desc="0-d tensor value"),
                S(T(3, 4, noncontig=True), -2.5, desc="noncontig"),
                S(T(), 0.25, desc="0-d")]

    def zero_(dtype: str) -> list[Sample]:
        return [S(T(3, 4)), S(T(3, 4, noncontig=True), desc="noncontig"), S(T(), desc="0-d")]

    def addcmul_(dtype: str) -> list[Sample]:
        return [S(T(3, 4), T(3, 4), T(4), value=0.5), S(T(3, 4), T(3, 4), T(3, 4), desc="dflt"),
                S(T(3, 4, noncontig=True), T(3, 4), T(3, 4, noncontig=True), desc="noncontig"),
                S(T(), T(), T(), desc="0-d")]

    def lerp_(dtype: str) -> list[Sample]:
        return [S(T(3, 4), T(3, 4), 0.25), S(T(3, 4), T(4), T(3, 4, low=0, high=1),
                                                desc="tensor weight"),
                S(T(3, 4, noncontig=True), T(3, 4), 0.75, desc="noncontig"),
                S(T(), T(), 0.5, desc="0-d")]

    return [
        ip("add_", _inplace_binary_samples(scalar=_sc(1.5, 3), variants=({"alpha": 2},)),
           NUMERIC_DTYPES),
        ip("sub_", _inplace_binary_samples(scalar=_sc(1.5, 3)), NUMERIC_DTYPES),
        ip("mul_", _inplace_binary_samples(scalar=_sc(1.5, 3)), NUMERIC_DTYPES),
        ip("div_", _inplace_binary_samples(nz, _sc(-0.75, 2),
                                           ({"rounding_mode": "floor"},)), FLOAT_DTYPES),
        ip("pow_", pow_, FLOAT_DTYPES),
        ip("clamp_", clamp_, FLOAT_DTYPES),
        ip("neg_", unary(), FLOAT_DTYPES + SIGNED_INT_DTYPES),
        ip("abs_", unary(), FLOAT_DTYPES + SIGNED_INT_DTYPES),
        ip("exp_", unary(), FLOAT_DTYPES),
        ip("sigmoid_", unary(), FLOAT_DTYPES),
        ip("tanh_", unary(), FLOAT_DTYPES),
        ip("relu_", unary(), FLOAT_DTYPES),
        ip("masked_fill_", masked_fill_, ALL_DTYPES),
        ip("index_add_", _index_add_samples, NUMERIC_DTYPES),
        ip("scatter_", _scatter_samples, ALL_DTYPES),
        ip("scatter_add_", _scatter_add_samples, NUMERIC_DTYPES),
        ip("copy_", copy_, FLOAT_DTYPES),
        ip("fill_", fill_, FLOAT_DTYPES),
        ip("zero_", zero_, ALL_DTYPES),
        ip("addcmul_", addcmul_, FLOAT_DTYPES),
        ip("lerp_", lerp_, FLOAT_DTYPES),
    ]


# ----------------------------------------------------------------------------- registry


# Ops that accumulate many terms: an implementation with another summation order or
# accumulator precision legitimately differs by a few low-precision ulps, most visibly
# on results near zero, so fp16/bf16 get an absolute floor.
_ACCUM_TOL: dict[str, Tol] = {"float16": (1e-3, 2e-3), "bfloat16": (1.6e-2, 1e-2)}
_ACCUMULATING = (
    "sum", "mean", "prod", "cumsum", "cumprod", "var", "std", "var_mean", "std_mean", "norm",
    "vector_norm", "logsumexp", "matmul", "mm", "bmm", "addmm", "addmv", "baddbmm", "einsum",
    "dot", "mv", "trace", "tensordot", "softmax", "log_softmax", "conv1d", "conv2d",
    "conv_transpose1d", "conv_transpose2d", "avg_pool1d", "avg_pool2d", "adaptive_avg_pool1d",
    "adaptive_avg_pool2d", "batch_norm", "layer_norm", "group_norm", "linear", "cross_entropy",
    "nll_loss", "mse_loss", "l1_loss", "smooth_l1_loss", "huber_loss", "binary_cross_entropy",
    "binary_cross_entropy_with_logits", "kl_div", "cosine_similarity", "pairwise_distance",
    "normalize", "scaled_dot_product_attention", "index_add", "index_add_", "scatter_add",
    "scatter_add_", "pad",  # pad: reflect/replicate's backward sums the mirrored gradients
)
# Wider still where PyTorch's own low-precision CPU kernels were measured (over several
# seeds, against float64 on identical inputs) to need it; about 3x the worst error seen.
_EXTRA_TOL: dict[str, dict[str, Tol]] = {
    "batch_norm": {"float16": (1e-3, 5e-3), "bfloat16": (1.6e-2, 3e-2)},
    "binary_cross_entropy_with_logits": {"bfloat16": (1.6e-2, 2e-2)},
    "conv_transpose1d": {"float16": (1e-3, 1e-2), "bfloat16": (1.6e-2, 5e-2)},
    "conv_transpose2d": {"float16": (1e-3, 4e-2), "bfloat16": (1.6e-2, 1.2e-1)},
    "log_softmax": {"bfloat16": (1.6e-2, 1e-2)},
    "scaled_dot_product_attention": {"bfloat16": (1.6e-2, 1e-2)},
}
# Not accumulating, but a chain of transcendental functions each rounded to the half type
# (mish's gradient: tanh, softplus, sigmoid): a device whose tanh or exp differs from numpy's in
# the last float32 bits lands 2 float16 ulps away (measured on lavapipe); 3x that.
_CHAIN_TOL: dict[str, dict[str, Tol]] = {"mish": {"float16": (4e-3, 1e-3)}}


def _merge_tol(*tables: dict[str, Tol]) -> dict[str, Tol]:
    out: dict[str, Tol] = {}
    for table in tables:
        for dt, (rtol, atol) in table.items():
            r0, a0 = out.get(dt, (0.0, 0.0))
            out[dt] = (max(rtol, r0), max(atol, a0))
    return out


def _build_registry() -> dict[str, OpInfo]:
    ops: dict[str, OpInfo] = {}
    for op in (*_unary_ops(), *_binary_ops(), *_reduction_ops(), *_linalg_ops(),
               *_shape_ops(), *_nn_ops(), *_inplace_ops()):
        if op.name in ops:
            raise InvalidArgumentError(f"duplicate OpInfo {op.name!r}")
        ops[op.name] = op
    for name in _ACCUMULATING:
        ops[name].tol = _merge_tol(_ACCUM_TOL, _EXTRA_TOL.get(name, {}), ops[name].tol or {})
    for name, table in _CHAIN_TOL.items():
        ops[name].tol = _merge_tol(table, ops[name].tol or {})
    return ops


OPS: dict[str, OpInfo] = _build_registry()
