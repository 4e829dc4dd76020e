"""Framework-agnostic runner for the op database in ``opinfo.py``.

An adapter wraps a PyTorch-compatible module (``torch`` or ``volta``).  Only API that
exists identically in PyTorch is used on tensors: ``requires_grad_()``,
``backward(gradient=..., retain_graph=...)``, ``.grad``, ``.detach()``, ``.to()``,
``.numpy()``, ``.clone()``, ``.transpose()`` and basic slicing.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from types import ModuleType
from typing import Any, Protocol, runtime_checkable

import numpy as np

from volta.errors import InvalidArgumentError
from volta.testing.opinfo import (
    FLOAT_DTYPES,
    Materialized,
    OpInfo,
    Sample,
    Tol,
    materialize_full,
    substitute,
)

try:  # keeps bfloat16 outputs distinguishable from float32 ones after to_numpy
    import ml_dtypes

    _NP_BFLOAT16: Any = np.dtype(ml_dtypes.bfloat16)
except ImportError:  # pragma: no cover
    _NP_BFLOAT16 = None

# PyTorch's torch.testing.assert_close defaults, as (rtol, atol).
DEFAULT_TOLERANCES: dict[str, Tol] = {
    "float16": (1e-3, 1e-5),
    "bfloat16": (1.6e-2, 1e-5),
    "float32": (1.3e-6, 1e-5),
    "float64": (1e-7, 1e-7),
}


@runtime_checkable
class Adapter(Protocol):
    """What the runner needs from a framework."""

    name: str
    lib: Any

    def from_numpy(self, arr: np.ndarray, dtype: str | None = None) -> Any:
        """Make a framework tensor from ``arr``, cast to ``dtype`` when given."""
        ...

    def to_numpy(self, t: Any) -> np.ndarray:
        """Copy a tensor to numpy (bfloat16 stays bfloat16 through ml_dtypes)."""
        ...

    def resolve(self, ref: str) -> Callable[..., Any]:
        """The callable for an OpInfo ``ref`` such as ``torch.nn.functional.pad``."""
        ...

    def dtype(self, name: str) -> Any:
        """The framework dtype object called ``name``."""
        ...

    def dtype_name(self, t: Any) -> str:
        """The dtype of ``t`` as a database dtype name."""
        ...

    def is_tensor(self, obj: Any) -> bool:
        """Whether ``obj`` is a framework tensor."""
        ...


class ModuleAdapter:
    """Adapter for any module that mirrors PyTorch's API (torch itself, volta, ...).

    ``resolve("torch.nn.functional.conv2d")`` looks up ``nn.functional.conv2d`` on the
    wrapped module; ``resolve("Tensor.index_add_")`` calls that method on the first
    positional argument.
    """

    def __init__(self, module: ModuleType, name: str | None = None) -> None:
        """Wrap ``module``, e.g. ``ModuleAdapter(volta)``."""
        self.lib = module
        self.name = name or module.__name__

    # -- tensors ---------------------------------------------------------------
    def dtype(self, name: str) -> Any:
        """Look the dtype up on the module (``torch.float32``)."""
        return getattr(self.lib, name)

    def dtype_name(self, t: Any) -> str:
        """``torch.float32`` -> ``"float32"``."""
        return str(t.dtype).rsplit(".", 1)[-1]

    def is_tensor(self, obj: Any) -> bool:
        """Instance check against the module's ``Tensor`` class."""
        return isinstance(obj, self.lib.Tensor)

    def from_numpy(self, arr: np.ndarray, dtype: str | None = None) -> Any:
        """Copy ``arr`` into a new tensor, then cast to ``dtype`` if it differs."""
        # np.array keeps 0-d arrays 0-d (ascontiguousarray would promote them to 1-d).
        arr = np.array(arr, order="C", copy=True)
        maker = getattr(self.lib, "from_numpy", None)
        t = maker(arr) if maker is not None else self.lib.tensor(arr)
        if dtype is not None and self.dtype_name(t) != dtype:
            t = t.to(self.dtype(dtype))
        return t

    def to_numpy(self, t: Any) -> np.ndarray:
        """Detached copy; bfloat16 goes through float32 (exact) since numpy lacks it."""
        t = t.detach()
        if hasattr(t, "cpu"):
            t = t.cpu()
        if self.dtype_name(t) == "bfloat16":
            arr = np.array(t.to(self.lib.float32).numpy(), copy=True)
            return arr.astype(_NP_BFLOAT16) if _NP_BFLOAT16 is not None else arr
        return np.array(t.numpy(), copy=True)

    # -- ops -------------------------------------------------------------------
    def resolve(self, ref: str) -> Callable[..., Any]:
        """Map ``torch.a.b`` to ``<module>.a.b`` and ``Tensor.m`` to a method call."""
        head, _, rest = ref.partition(".")
        if head == "Tensor":
            method = rest

            def call_method(self_: Any, *args: Any, **kwargs: Any) -> Any:
                return getattr(self_, method)(*args, **kwargs)

            call_method.__name__ = method
            return call_method
        if head != "torch":
            raise InvalidArgumentError(f"ref must start with 'torch.' or 'Tensor.': {ref!r}")
        obj: Any = self.lib
        parts = rest.split(".")
        for i, part in enumerate(parts):
            try:
                obj = getattr(obj, part)
            except AttributeError:
                # Submodules such as nn.functional may need an explicit import.
                mod = ".".join([self.lib.__name__, *parts[: i + 1]])
                obj = importlib.import_module(mod)
        return obj


class TorchAdapter(ModuleAdapter):
    """The reference framework."""

    def __init__(self) -> None:
        """Import torch lazily so the harness itself does not require it."""
        import torch

        super().__init__(torch, "torch")


# ----------------------------------------------------------------------------- running


def flatten_outputs(out: Any, adapter: Adapter) -> list[Any]:
    """Tensors of a (possibly nested tuple/list/namedtuple) result, in order."""
    if adapter.is_tensor(out):
        return [out]
    if isinstance(out, (tuple, list)):
        return [t for item in out for t in flatten_outputs(item, adapter)]
    return []


def call_op(op: OpInfo, adapter: Adapter, args: tuple[Any, ...], kwargs: dict[str, Any]
            ) -> list[Any]:
    """Call the op and return the compared tensors: selected outputs, then mutated args."""
    fn = adapter.resolve(op.ref)
    outs = flatten_outputs(fn(*args, **kwargs), adapter)
    if op.output_index is not None:
        outs = [outs[i] for i in op.output_index]
    outs += [args[i] for i in op.mutates if i < len(args) and adapter.is_tensor(args[i])]
    return outs


def prepare(sample: Sample, dtype: str, adapter: Adapter, seed: int = 0,
            upcast: str | None = None) -> Materialized:
    """Materialise ``sample`` in ``dtype``, optionally upcasting its floating tensors.

    With ``upcast="float64"`` the values are those of the ``dtype`` run, held in higher
    precision: the run becomes a reference for the low-precision one.
    """
    m = materialize_full(sample, dtype, seed, adapter)
    if upcast is None:
        return m
    tensors = {path: (spec, t.to(adapter.dtype(upcast)) if _is_float_tensor(adapter, t) else t)
               for path, (spec, t) in m.tensors.items()}
    args, kwargs = substitute(sample, {p: t for p, (_, t) in tensors.items()}, adapter)
    return Materialized(args, kwargs, tensors)


def run_forward(op: OpInfo, sample: Sample, dtype: str, adapter: Adapter, seed: int = 0,
                upcast: str | None = None) -> list[np.ndarray]:
    """Materialise ``sample`` and return the op's outputs as numpy arrays."""
    m = prepare(sample, dtype, adapter, seed, upcast)
    return [adapter.to_numpy(t) for t in call_op(op, adapter, m.args, m.kwargs)]


def _is_float_tensor(adapter: Adapter, t: Any) -> bool:
    return adapter.is_tensor(t) and adapter.dtype_name(t) in FLOAT_DTYPES


def cotangent_rng(seed: int) -> np.random.Generator:
    """Cotangents come from their own stream so inputs stay identical to forward runs."""
    return np.random.default_rng([seed, 0xC07])


def run_backward(op: OpInfo, sample: Sample, dtype: str, adapter: Adapter, seed: int = 0,
                 upcast: str | None = None) -> dict[str, np.ndarray]:
    """Gradients of ``sum(out_i * cot_i)`` w.r.t. every floating input that requires grad.

    Keys are spec paths such as ``args[0]`` or ``kwargs[weight]``.  A missing gradient
    (``.grad is None``) is reported as zeros so "None" and "zero" compare equal.
    """
    m = prepare(sample, dtype, adapter, seed, upcast)
    leaves = {path: t for path, (spec, t) in m.tensors.items()
              if spec.requires_grad and _is_float_tensor(adapter, t)}
    for t in leaves.values():
        t.requires_grad_()
    args = list(m.args)
    if op.inplace and adapter.is_tensor(args[0]) and args[0].requires_grad:
        args[0] = args[0].clone()  # in-place on a leaf that requires grad is an error
    outs = call_op(op, adapter, tuple(args), m.kwargs)
    if op.mutates:  # mutated inputs are the same tensors as (or not part of) the result
        outs = outs[: len(outs) - sum(1 for i in op.mutates
                                      if i < len(args) and adapter.is_tensor(args[i]))]
    diff = [o for o in outs if _is_float_tensor(adapter, o) and o.requires_grad]
    rng = cotangent_rng(seed)
    for i, o in enumerate(diff):
        cot = adapter.from_numpy(rng.uniform(-1.0, 1.0, size=tuple(o.shape)),
                                 adapter.dtype_name(o))
        o.backward(gradient=cot, retain_graph=i < len(diff) - 1)
    grads: dict[str, np.ndarray] = {}
    for path, t in leaves.items():
        g = t.grad
        if g is None:
            arr = adapter.to_numpy(t)
            grads[path] = np.zeros(arr.shape, dtype=arr.dtype)
        else:
            grads[path] = np.array(adapter.to_numpy(g), copy=True)
    _check_gradients_share_no_memory(adapter, m, outs, leaves)
    return grads


def _check_gradients_share_no_memory(adapter: Adapter, m: Materialized, outs: list[Any],
                                     leaves: dict[str, Any]) -> None:
    """Zeroing each ``.grad`` in place (as ``zero_grad`` and optimisers write) changes no
    input or output of the op and no other input's ``.grad``. AccumulateGrad takes a gradient
    that nothing else refers to as ``.grad`` (Note [Gradient ownership]), so a backward
    formula that hands on a view of a forward tensor, or one gradient to two inputs, would let
    an optimiser step write through one into the other. Checked on the CPU only: another
    device may lack a ``zero_`` kernel, and the formulas are the same there."""
    if not all(t.grad is None or t.grad.is_cpu for t in leaves.values()):
        return
    watched = {path: t for path, (_, t) in m.tensors.items()}
    watched.update((f"output {i}", o) for i, o in enumerate(outs))
    watched.update((f"the gradient of {path}", t.grad) for path, t in leaves.items()
                   if t.grad is not None)
    before = {name: np.array(adapter.to_numpy(t), copy=True) for name, t in watched.items()}
    for path, leaf in leaves.items():
        if leaf.grad is None:
            continue
        leaf.grad.zero_()
        del watched[f"the gradient of {path}"]  # it changed, as it should
        for name, t in watched.items():
            if adapter.to_numpy(t).tobytes() != before[name].tobytes():
                raise AssertionError(f"zeroing the gradient of {path} in place changed {name}: "
                                     "they share memory")


# ----------------------------------------------------------------------------- comparing


def _dtype_name(arr: np.ndarray) -> str:
    return arr.dtype.name  # ml_dtypes' bfloat16 is named "bfloat16" too


def tolerance(op: OpInfo | None, out_dtype: str, dtype: str) -> Tol:
    """(rtol, atol): op override for the output dtype, else for ``dtype``, else default."""
    overrides = op.tol if op is not None and op.tol else {}
    if out_dtype in overrides:
        return overrides[out_dtype]
    if dtype in overrides and out_dtype in DEFAULT_TOLERANCES:
        return overrides[dtype]
    return DEFAULT_TOLERANCES.get(out_dtype, (0.0, 0.0))


def assert_close(actual: np.ndarray, expected: np.ndarray, dtype: str,
                 op: OpInfo | None = None, msg: str = "") -> None:
    """Assert equal dtype and shape, then closeness (NaNs equal; exact for non-floats)."""
    prefix = f"{op.name if op else ''} {msg}".strip()
    a_dt, e_dt = _dtype_name(actual), _dtype_name(expected)
    if a_dt != e_dt:
        raise AssertionError(f"{prefix}: dtype {a_dt} != expected {e_dt}")
    if actual.shape != expected.shape:
        raise AssertionError(f"{prefix}: shape {actual.shape} != expected {expected.shape}")
    if e_dt not in DEFAULT_TOLERANCES:
        if not np.array_equal(actual, expected):
            bad = np.argwhere(actual != expected)
            idx = tuple(int(i) for i in bad[0])
            raise AssertionError(f"{prefix}: {len(bad)} mismatches, first at {list(idx)}:"
                                 f" {actual[idx]!r} != {expected[idx]!r}")
        return
    rtol, atol = tolerance(op, e_dt, dtype)
    a = actual.astype(np.float64)
    e = expected.astype(np.float64)
    finite = np.isfinite(a) & np.isfinite(e)
    with np.errstate(invalid="ignore"):
        diff = np.where(finite, np.abs(a - e), np.inf)
    # Infinities must match exactly (including sign); NaNs match NaNs.
    same_special = (np.isnan(a) & np.isnan(e)) | (np.isinf(a) & (a == e))
    ok = (diff <= atol + rtol * np.abs(np.where(finite, e, 0.0))) | same_special
    if not ok.all():
        bad = np.argwhere(~ok)
        idx = tuple(int(i) for i in bad[0])
        raise AssertionError(
            f"{prefix}: {len(bad)}/{a.size} elements differ (rtol={rtol}, atol={atol}); "
            f"first at {list(idx)}: {a[idx]} vs {e[idx]}; max abs diff {np.max(diff[~ok]):.3g}")


def assert_outputs_close(actual: list[np.ndarray], expected: list[np.ndarray], dtype: str,
                         op: OpInfo, msg: str = "") -> None:
    """Compare output lists; random ops compare only shape and dtype."""
    if len(actual) != len(expected):
        raise AssertionError(f"{op.name} {msg}: {len(actual)} outputs != {len(expected)}")
    for i, (a, e) in enumerate(zip(actual, expected, strict=True)):
        if op.random:
            if a.shape != e.shape or _dtype_name(a) != _dtype_name(e):
                raise AssertionError(f"{op.name} {msg} output {i}: {a.shape}/{_dtype_name(a)}"
                                     f" != {e.shape}/{_dtype_name(e)}")
        else:
            assert_close(a, e, dtype, op, f"{msg} output {i}")


def assert_grads_close(actual: dict[str, np.ndarray], expected: dict[str, np.ndarray],
                       dtype: str, op: OpInfo, msg: str = "") -> None:
    """Compare gradient dicts path by path."""
    if actual.keys() != expected.keys():
        raise AssertionError(f"{op.name} {msg}: grad inputs {sorted(actual)} != "
                             f"{sorted(expected)}")
    for path, exp in expected.items():
        assert_close(actual[path], exp, dtype, op, f"{msg} grad {path}")
