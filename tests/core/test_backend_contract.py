"""The backend contract (``volta/backend.py``): a backend written against it alone registers,
stores tensors, runs ops through its own kernels and the CPU fallback, and is rejected clearly
when incomplete; kernels read their inputs (requires-grad ones included) through it."""

from __future__ import annotations

import importlib
import inspect
import re
import warnings
from collections.abc import Iterator
from typing import Any

import numpy as np
import pytest

import volta
import volta.backend
import volta.plugins.hookspecs
from volta.backend import BACKENDS, Backend, host_view, storage_of
from volta.errors import DTypeError, RegistrationError


class Buffer:
    """Device memory of the mini backend: a private host array, so nothing aliases the CPU."""

    def __init__(self, data: np.ndarray) -> None:
        self.data = data


class MiniBackend(Backend):
    """Only the contract's required methods, two dtypes, and a log of what volta asked."""

    dtypes = frozenset({volta.float32, volta.int64})

    def __init__(self) -> None:
        self.log: list[tuple[str, str]] = []

    def allocate(self, numel: int, dtype: volta.dtype, index: int) -> Buffer:
        self.log.append(("allocate", dtype.name))
        return Buffer(np.zeros(numel, dtype=dtype.numpy))

    def copy_(self, dst: Buffer, src: np.ndarray) -> None:
        self.log.append(("copy_", src.dtype.name))
        dst.data[...] = src.reshape(-1)

    def to_numpy(self, handle: Buffer, dtype: volta.dtype, numel: int) -> np.ndarray:
        self.log.append(("to_numpy", dtype.name))
        return handle.data

    def synchronize(self, index: int) -> None:
        self.log.append(("synchronize", str(index)))


@pytest.fixture
def mini() -> Iterator[MiniBackend]:
    backend = MiniBackend()
    with volta.library.scoped(), warnings.catch_warnings():
        warnings.simplefilter("ignore")  # the CPU fallback warns once per op
        BACKENDS.register("mini", backend, key_name="MINI", provenance="test_backend_contract")
        yield backend


# -- storage: allocation, copies to and from the host, synchronisation ----------------------------


def test_minimal_backend_registers_and_moves_tensors(mini: MiniBackend) -> None:
    info = BACKENDS.get("mini")
    assert info.impl is mini and info.key.name == "MINI" and not info.host_memory
    assert info.dtypes == {volta.float32, volta.int64}
    t = volta.tensor([[1.0, 2.0], [3.0, 4.0]], device="mini")
    assert t.device == volta.device("mini") and t.dtype == volta.float32
    # the default from_numpy is allocate + copy_
    assert mini.log == [("allocate", "float32"), ("copy_", "float32")]
    assert isinstance(storage_of(t).handle, Buffer)
    back = t.cpu()
    assert back.device == volta.device("cpu") and back.tolist() == [[1.0, 2.0], [3.0, 4.0]]
    # the host read waits for the device first
    assert mini.log[-2:] == [("synchronize", "0"), ("to_numpy", "float32")]
    again = volta.arange(6).reshape(2, 3).to("mini")
    assert again.dtype == volta.int64 and again.t().cpu().tolist() == [[0, 3], [1, 4], [2, 5]]


def test_device_index_reaches_the_backend(mini: MiniBackend) -> None:
    t = volta.tensor([1.0], device="mini:1")
    mini.log.clear()
    t.cpu()
    assert ("synchronize", "1") in mini.log


def test_ops_without_kernels_run_through_the_cpu_fallback(mini: MiniBackend) -> None:
    a = volta.tensor([[1.0, 2.0], [3.0, 4.0]], device="mini")
    out = (a * 2 + 1).sum(0)
    assert out.device == volta.device("mini") and out.cpu().tolist() == [10.0, 14.0]
    # an in-place op on a strided view writes back through the backend's copy_
    a.t()[0].add_(10)
    assert a.cpu().tolist() == [[11.0, 2.0], [13.0, 4.0]]


def test_unsupported_dtype_is_rejected_before_the_backend_sees_it(mini: MiniBackend) -> None:
    with pytest.raises(DTypeError, match=r"device mini does not support dtype float64; "
                                         r"supported: float32, int64"):
        volta.tensor([1.0], dtype=volta.float64, device="mini")
    t = volta.tensor([1.0, 2.0], device="mini")
    with pytest.raises(DTypeError, match="does not support dtype float16"):
        t.to(volta.float16)
    with pytest.raises(DTypeError, match="does not support dtype bool"):
        volta.zeros(2, dtype=volta.bool, device="mini")
    assert {dt for what, dt in mini.log if what != "synchronize"} <= {"float32", "int64"}


def test_host_view_is_a_read_only_snapshot_off_the_host(mini: MiniBackend) -> None:
    t = volta.tensor([[1.0, 2.0], [3.0, 4.0]], device="mini")
    view = host_view(t.t())
    assert view.tolist() == [[1.0, 3.0], [2.0, 4.0]] and not view.flags.writeable
    cpu = volta.tensor([1.0, 2.0])
    host_view(cpu)[0] = 5.0  # the host backend's view is the storage itself
    assert cpu.tolist() == [5.0, 2.0]
    assert BACKENDS.host().host_memory and BACKENDS.host().impl.host_memory is True


# -- kernels: reading inputs, the calling convention ----------------------------------------------


def test_kernel_reads_inputs_that_require_grad(mini: MiniBackend) -> None:
    def mini_mul(self: Any, other: Any) -> Any:
        # numpy code: host_view accepts inputs that require grad (numpy() refuses them)
        if isinstance(self, volta.Tensor) and self.requires_grad:
            with pytest.raises(volta.AutogradError):
                self.numpy()
        values = np.asarray(host_view(self)) * np.asarray(host_view(other))
        return volta.tensor(values, device="mini")

    def mini_neg(self: Any) -> Any:
        # device code: the flat handle plus the tensor's sizes, strides and offset
        ref = storage_of(self)
        item = ref.dtype.itemsize
        values = np.lib.stride_tricks.as_strided(
            ref.handle.data[ref.offset:], shape=ref.sizes,
            strides=tuple(s * item for s in ref.strides))
        return volta.tensor(-values, device="mini")

    volta.library.impl("mul", "MINI", mini_mul)
    volta.library.impl("neg", "MINI", mini_neg)
    x = volta.tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]], device="mini", requires_grad=True)
    w = volta.tensor([[2.0, 0.5], [1.0, 1.0], [3.0, -1.0]], device="mini", requires_grad=True)
    y = (-(x.t()) * w).sum()   # neg of a transposed (strided) requires-grad view
    assert y.item() == pytest.approx(-(2 + 2 + 2 + 5 + 9 - 6))
    y.backward()
    assert x.grad.device == volta.device("mini")
    assert x.grad.cpu().tolist() == [[-2.0, -1.0, -3.0], [-0.5, -1.0, 1.0]]
    assert w.grad.cpu().tolist() == [[-1.0, -4.0], [-2.0, -5.0], [-3.0, -6.0]]


def test_kernels_get_schema_order_defaults_dtypes_and_numbers(mini: MiniBackend) -> None:
    calls: list[tuple] = []

    def record(name: str) -> Any:
        def kernel(*args: Any) -> Any:
            calls.append((name, *args))
            return volta.zeros(1, device="mini")
        return kernel

    for name in ("sub", "sum", "add_"):
        volta.library.impl(name, "MINI", record(name))
    t = volta.ones(3, device="mini")
    2 - t            # pointwise: the number arrives unwrapped, in schema position, alpha filled
    t.sum(0, dtype=volta.float32)
    t.add_(5)
    assert calls[0] == ("sub", 2, t, 1)
    assert calls[1] == ("sum", t, (0,), False, volta.float32)
    assert isinstance(calls[1][4], volta.dtype) and calls[1][4].numpy == np.float32
    assert calls[2][0] == "add_" and calls[2][1] is t and calls[2][2:] == (5, 1)


def test_boxed_fallback_gets_op_keyset_and_positional_args(mini: MiniBackend) -> None:
    seen: list[tuple] = []

    def boxed(op: Any, keyset: int, args: tuple, kwargs: dict) -> Any:
        seen.append((op.name, keyset, args, kwargs))
        return volta.zeros(1, device="mini")

    volta.library.fallback("MINI", boxed)
    t = volta.ones(2, device="mini")
    t.div(2, rounding_mode="floor")
    name, keyset, args, kwargs = seen[0]
    assert name == "div" and kwargs == {}
    assert args == (t, 2, "floor") and keyset & BACKENDS.get("mini").key.mask


# -- registration errors ------------------------------------------------------------------------


def test_incomplete_backends_are_rejected_naming_what_is_missing() -> None:
    class NoToNumpy(Backend):
        def allocate(self, numel: int, dtype: Any, index: int) -> Any:
            return np.empty(numel, dtype.numpy)

        def copy_(self, dst: Any, src: np.ndarray) -> None:
            dst[...] = src.reshape(-1)

    class DuckTyped:  # the right methods, but not written against the contract
        def allocate(self, numel: int, dtype: Any, index: int) -> Any: ...
        def copy_(self, dst: Any, src: Any) -> None: ...
        def to_numpy(self, handle: Any, dtype: Any, numel: int) -> Any: ...

    class BadDtypes(MiniBackend):
        dtypes = frozenset({"float32"})

    class BadHostMemory(MiniBackend):
        host_memory = "yes"  # type: ignore[assignment]

    with volta.library.scoped():
        with pytest.raises(RegistrationError, match=r"NoToNumpy does not implement to_numpy\(\)"):
            BACKENDS.register("partial", NoToNumpy())
        with pytest.raises(RegistrationError, match="DuckTyped must subclass "
                                                    "volta.backend.Backend"):
            BACKENDS.register("duck", DuckTyped())  # type: ignore[arg-type]
        with pytest.raises(RegistrationError, match="dtypes must be a non-empty set"):
            BACKENDS.register("baddt", BadDtypes())
        with pytest.raises(RegistrationError, match="host_memory must be True or False"):
            BACKENDS.register("badhost", BadHostMemory())
        assert not {"partial", "duck", "baddt", "badhost"} & set(BACKENDS.names())
        BACKENDS.register("fine", MiniBackend())
        with pytest.raises(RegistrationError, match="'fine' is already registered"):
            BACKENDS.register("fine", MiniBackend())


def test_impl_for_unknown_op_or_key_is_a_registration_error() -> None:
    with volta.library.scoped():
        with pytest.raises(RegistrationError, match="unknown operator 'no_such_op'") as info:
            volta.library.impl("no_such_op", "CPU", lambda x: x)
        assert not isinstance(info.value, (NotImplementedError, KeyError))
        assert isinstance(info.value, volta.VoltaError)
        with pytest.raises(RegistrationError, match="overloads with that name: div"):
            volta.library.impl("div.nope", "CPU", lambda x: x)
        with pytest.raises(RegistrationError, match="unknown dispatch key 'NOPE'"):
            volta.library.Library("test").impl("add", "NOPE", lambda x: x)
        with pytest.raises(RegistrationError, match="must be callable"):
            volta.library.impl("add", "CPU", 42, override=True)  # type: ignore[call-overload]


# -- the documentation points at names that exist -----------------------------------------------


def _documented_names() -> set[str]:
    texts = [inspect.getdoc(volta.plugins.hookspecs) or ""]
    texts += [inspect.getdoc(obj) or "" for obj in vars(volta.plugins.hookspecs).values()
              if inspect.isfunction(obj)]
    texts += [inspect.getdoc(volta.library.Library.impl) or "",
              inspect.getdoc(volta.library.Library.fallback) or "",
              inspect.getdoc(volta.backend) or ""]
    return {m.group(0) for text in texts for m in re.finditer(r"\bvolta(?:\.\w+)+", text)}


def _resolve(dotted: str) -> object:
    parts = dotted.split(".")
    for i in range(len(parts), 0, -1):
        try:
            obj: object = importlib.import_module(".".join(parts[:i]))
        except ModuleNotFoundError:
            continue
        for attr in parts[i:]:
            obj = getattr(obj, attr)
        return obj
    raise AssertionError(dotted)


def test_every_volta_name_in_the_plugin_docs_resolves() -> None:
    names = _documented_names()
    assert {"volta.backend.BackendRegistry", "volta.backend.Backend", "volta.library.Library",
            "volta.backend.host_view"} <= names
    unresolved = []
    for name in sorted(names):
        try:
            _resolve(name)
        except AttributeError:
            unresolved.append(name)
    assert unresolved == []
