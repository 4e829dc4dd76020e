"""The dispatcher: key priority, key sets, thread-local guards, kernel tables and provenance,
fallbacks, redispatch, registration errors, the dispatch cache, scopes and thread safety."""

from __future__ import annotations

import threading
import uuid
import warnings
from collections.abc import Callable
from typing import Any

import numpy as np
import pytest

import volta
from volta.backend import BACKENDS
from volta.dispatch import (
    DISPATCHER,
    FALLTHROUGH,
    KEYS,
    Autocast,
    Autograd,
    Meta,
    OperatorHandle,
    Tracing,
    exclude_keys,
    explain,
    include_keys,
)
from volta.errors import DeviceMismatchError, NoKernelError, RegistrationError

CPU = KEYS.get("CPU")


def fresh_ns() -> str:
    return f"d{uuid.uuid4().hex[:8]}"


def labelled_op(keys: list[str], ns: str | None = None) -> tuple[OperatorHandle, list[str]]:
    """An op ``ns::probe(Tensor x)`` with a kernel per key in ``keys``; each kernel appends its
    key name to the returned list and returns it (call inside ``volta.library.scoped()``)."""
    ns = ns or fresh_ns()
    handle = volta.library.define(f"{ns}::probe(Tensor x) -> Tensor")
    seen: list[str] = []

    def make(key: str) -> Callable[[Any], Any]:
        def kernel(x: Any) -> str:
            seen.append(key)
            return key
        return kernel

    for key in keys:
        volta.library.impl(handle, key, make(key))
    return handle, seen


# -- keys and key sets --------------------------------------------------------------------------


def test_fixed_key_priority_order() -> None:
    order = [k.name for k in KEYS.all()]
    assert order[:3] == ["Tracing", "Autocast", "Autograd"]
    backends = [k for k in KEYS.all() if k.is_backend]
    assert {"Meta", "CPU"} <= {k.name for k in backends}
    assert min(k.bit for k in backends) > Autograd.bit > Autocast.bit > Tracing.bit
    everything = 0
    for k in KEYS.all():
        everything |= k.mask
    assert [k.name for k in KEYS.keys_of(everything)] == order


def test_new_backend_key_goes_below_every_existing_key(scratch_device: Any) -> None:
    key = scratch_device.key
    assert key.is_backend and key.name == "SCRATCH"
    assert all(k.bit < key.bit for k in KEYS.all() if k is not key)
    assert KEYS.all()[-1] is key


def test_resolution_follows_priority() -> None:
    with volta.library.scoped():
        op, seen = labelled_op(["Tracing", "Autocast", "Autograd", "CPU"])
        x = volta.ones(2)
        xg = volta.ones(2, requires_grad=True)
        assert op(x) == "CPU"
        assert op(xg) == "Autograd"
        with include_keys(Autocast.mask):
            assert op(xg) == "Autocast"
            assert op(x) == "Autocast"
            with include_keys(Tracing.mask):
                assert op(xg) == "Tracing"
        assert seen == ["CPU", "Autograd", "Autocast", "Autocast", "Tracing"]


def test_tensor_key_sets() -> None:
    x = volta.ones(3)
    assert explain(volta.neg, x).tensor_keyset == "{CPU}"
    x.requires_grad_()
    assert explain(volta.neg, x).tensor_keyset == "{Autograd, CPU}"
    assert explain(volta.neg, x.detach()).tensor_keyset == "{CPU}"
    assert explain(volta.neg, x * 2).tensor_keyset == "{Autograd, CPU}"
    with volta.no_grad():
        y = x * 2
        assert "Autograd" in explain(volta.neg, x).excluded
        assert explain(volta.neg, x).keyset == "{CPU}"
    assert explain(volta.neg, y).tensor_keyset == "{CPU}"
    toy = volta.ones(2).to("toy")
    assert explain(volta.neg, toy).tensor_keyset == "{TOY}"
    assert explain(volta.neg, toy.requires_grad_()).tensor_keyset == "{Autograd, TOY}"


def test_union_of_argument_key_sets() -> None:
    a, b = volta.ones(2), volta.ones(2, requires_grad=True)
    ex = explain(volta.add, a, b)
    assert ex.keyset == "{Autograd, CPU}" and ex.key == "Autograd"
    ex = explain(volta.cat, [a, b])  # tensors inside a Tensor[] count too
    assert ex.keyset == "{Autograd, CPU}"


# -- thread-local include / exclude --------------------------------------------------------------


def test_include_and_exclude_guards_nest_and_restore() -> None:
    with volta.library.scoped():
        op, _ = labelled_op(["Autocast", "Autograd", "CPU"])
        xg = volta.ones(2, requires_grad=True)
        with include_keys(Autocast.mask):
            with exclude_keys(Autocast.mask):  # exclusion wins over inclusion
                assert op(xg) == "Autograd"
                with exclude_keys(Autograd.mask):
                    assert op(xg) == "CPU"
                assert op(xg) == "Autograd"
            assert op(xg) == "Autocast"
        assert op(xg) == "Autograd"
        ex = explain(op, xg)
        assert (ex.included, ex.excluded) == ("{}", "{}")
        with pytest.raises(KeyError):
            with include_keys(Autocast.mask):
                raise KeyError("the guard must restore on the way out of an exception")
        assert op(xg) == "Autograd"


def test_guards_are_thread_local() -> None:
    with volta.library.scoped():
        op, _ = labelled_op(["Autocast", "CPU"])
        x = volta.ones(2)
        inside = threading.Event()
        release = threading.Event()
        other: list[str] = []

        def worker() -> None:
            with include_keys(Autocast.mask):
                other.append(op(x))
                inside.set()
                release.wait(10)
                other.append(op(x))

        t = threading.Thread(target=worker)
        t.start()
        assert inside.wait(10)
        assert op(x) == "CPU"  # the other thread's guard does not leak here
        release.set()
        t.join(10)
        assert other == ["Autocast", "Autocast"]


# -- tables and provenance -------------------------------------------------------------------------


def test_kernel_table_shows_every_key_and_provenance() -> None:
    text = volta.dispatch.table("add")
    assert text == DISPATCHER.find("add").table() == volta.dispatch.table(volta.add)
    lines = {line.split()[0]: line for line in text.splitlines()[1:]}
    assert set(lines) == {k.name for k in KEYS.all()}
    assert "kernel" in lines["CPU"] and "volta.backends.cpu" in lines["CPU"]
    assert "cpu (plugin.py" in lines["CPU"]  # registered by the internal CPU plugin
    assert "generated (ops.yaml formulas)" in lines["Autograd"]
    assert "fallback" in lines["Tracing"]
    assert "toy_add" in lines["TOY"] and "example_ext" in lines["TOY"]
    assert lines["Autocast"].split()[1] == "-"


def test_library_registration_records_file_and_line() -> None:
    with volta.library.scoped():
        ns = fresh_ns()
        volta.library.define(f"{ns}::f(Tensor x) -> Tensor")

        def my_kernel(x: Any) -> Any:
            return x

        volta.library.impl(f"{ns}::f", "CPU", my_kernel)
        entry = DISPATCHER.find(f"{ns}::f").kernels[CPU]
        assert entry.fn is my_kernel
        assert "test_dispatcher.py:" in entry.provenance
        line = next(x for x in volta.dispatch.table(f"{ns}::f").splitlines() if "CPU" in x)
        assert "my_kernel" in line and "test_dispatcher.py" in line
        ex = explain(f"{ns}::f", volta.ones(1))
        assert ex.kernel.endswith("my_kernel") and ex.provenance == entry.provenance


# -- fallbacks -------------------------------------------------------------------------------------


def test_boxed_fallback_receives_op_keyset_args_kwargs(scratch_device: Any) -> None:
    calls: list[tuple] = []

    def boxed(op: OperatorHandle, keyset: int, args: tuple, kwargs: dict) -> Any:
        calls.append((op, keyset, args, kwargs))
        return "boxed"

    volta.library.fallback("SCRATCH", boxed)
    t = volta.ones(2, device="scratch")
    assert volta.exp(t) == "boxed"
    assert volta.add(t, t, alpha=3) == "boxed"
    (op1, ks1, args1, kw1), (op2, ks2, args2, kw2) = calls
    assert isinstance(op1, OperatorHandle) and op1.name == "exp"
    assert ks1 == scratch_device.key.mask and args1 == (t,) and args1[0] is t and kw1 == {}
    assert op2.name == "add" and args2[0] is t and args2[1] is t and args2[2] == 3 and kw2 == {}
    ex = explain(volta.exp, t)
    assert (ex.key, ex.source) == ("SCRATCH", "fallback") and ex.kernel.endswith("boxed")
    # a kernel for the key beats its fallback
    volta.library.impl("exp", "SCRATCH", lambda x: "kernel")
    assert volta.exp(t) == "kernel" and len(calls) == 2


def test_boxed_fallback_at_a_functionality_key() -> None:
    with volta.library.scoped():
        seen = []

        def autocast_fallback(op: OperatorHandle, keyset: int, args: tuple, kwargs: dict) -> Any:
            seen.append(op.name)
            return op.redispatch(Autocast, *args)

        volta.library.fallback("Autocast", autocast_fallback)
        x = volta.tensor([1.0, -2.0])
        with include_keys(Autocast.mask):
            out = volta.abs(x)
            assert explain(volta.abs, x).source == "fallback"
        assert seen == ["abs"] and out.tolist() == [1.0, 2.0]


def test_fallthrough_fallback() -> None:
    with volta.library.scoped():
        op, seen = labelled_op(["CPU"])
        x = volta.ones(2)
        volta.library.fallback("Autocast", lambda op, ks, args, kw: "intercepted")
        with include_keys(Autocast.mask):
            assert op(x) == "intercepted"
        volta.library.fallback("Autocast", FALLTHROUGH, override=True)
        with include_keys(Autocast.mask):
            assert op(x) == "CPU"
            ex = explain(op, x)
        assert (ex.key, ex.source) == ("CPU", "kernel")
        assert "Autocast: fallthrough" in ex.skipped
        assert "fallthrough" in next(line for line in op.table().splitlines()
                                     if line.split()[0] == "Autocast")
        assert seen == ["CPU"]


def test_fallthrough_at_a_backend_key_reaches_the_cpu_fallback(scratch_device: Any) -> None:
    volta.library.fallback("SCRATCH", FALLTHROUGH)
    t = volta.tensor([1.0, 4.0]).to("scratch")
    assert explain(volta.sqrt, t).source == "cpu-fallback"
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        out = volta.sqrt(t)
    assert out.device == volta.device("scratch") and out.cpu().tolist() == [1.0, 2.0]


def test_composite_comes_before_fallback(scratch_device: Any) -> None:
    ns = fresh_ns()
    volta.library.define(f"{ns}::twice(Tensor x) -> Tensor")
    volta.library.impl_composite(f"{ns}::twice", lambda x: x + x)
    volta.library.fallback("SCRATCH", lambda op, ks, args, kw: pytest.fail("fallback ran"))
    ex = explain(f"{ns}::twice", volta.ones(1, device="scratch"))
    assert (ex.key, ex.source) == ("SCRATCH", "composite")


# -- redispatch ------------------------------------------------------------------------------------


def test_redispatch_goes_to_the_keys_below() -> None:
    with volta.library.scoped():
        ns = fresh_ns()
        op = volta.library.define(f"{ns}::layered(Tensor x) -> Tensor")
        trail: list[tuple[str, str]] = []

        def layer(key: Any) -> Callable[[Any], Any]:
            def kernel(x: Any) -> Any:
                trail.append((key.name, explain(op, x).excluded))
                return op.redispatch(key, x)
            return kernel

        for key in (Tracing, Autocast, Autograd):
            volta.library.impl(op, key, layer(key))

        def cpu_kernel(x: Any) -> Any:
            trail.append(("CPU", explain(op, x).excluded))
            return x * 10

        volta.library.impl(op, "CPU", cpu_kernel)
        x = volta.ones(2, requires_grad=True)
        with include_keys(Tracing.mask | Autocast.mask):
            out = op(x)
        assert [k for k, _ in trail] == ["Tracing", "Autocast", "Autograd", "CPU"]
        assert trail[0][1] == "{}"
        assert trail[1][1] == "{Tracing}"
        assert trail[2][1] == "{Tracing, Autocast}"
        assert trail[3][1] == "{Tracing, Autocast, Autograd}"
        assert out.tolist() == [10.0, 10.0]
        assert explain(op, x).excluded == "{}"  # restored after the call


def test_redispatch_restores_exclusion_on_error() -> None:
    with volta.library.scoped():
        op, _ = labelled_op(["CPU"])
        volta.library.impl(op, "CPU", lambda x: (_ for _ in ()).throw(ArithmeticError("x")),
                           override=True)
        with pytest.raises(ArithmeticError):
            op.redispatch(Autograd, volta.ones(1))
        assert explain(op, volta.ones(1)).excluded == "{}"


# -- registration errors ---------------------------------------------------------------------------


def test_duplicate_kernel_registration_needs_override() -> None:
    with volta.library.scoped():
        original = DISPATCHER.find("add").kernels[CPU]
        with pytest.raises(RegistrationError) as info:
            volta.library.impl("add", "CPU", lambda *a: "mine")
        message = str(info.value)
        assert "add" in message and "CPU" in message and "override=True" in message
        assert "cpu" in message  # who registered the existing kernel
        assert DISPATCHER.find("add").kernels[CPU] is original
        volta.library.impl("add", "CPU", lambda *a: "mine", override=True)
        assert volta.add(volta.ones(1), volta.ones(1)) == "mine"
    assert volta.add(volta.ones(1), volta.ones(1)).tolist() == [2.0]
    assert DISPATCHER.find("add").kernels[CPU] is original


def test_other_duplicate_registrations_raise(scratch_device: Any) -> None:
    ns = fresh_ns()
    volta.library.define(f"{ns}::f(Tensor x) -> Tensor")
    with pytest.raises(RegistrationError, match="already defined"):
        volta.library.define(f"{ns}::f(Tensor x) -> Tensor")
    volta.library.fallback("SCRATCH", FALLTHROUGH)
    with pytest.raises(RegistrationError, match="already has a fallback"):
        volta.library.fallback("SCRATCH", FALLTHROUGH)
    volta.library.impl_composite(f"{ns}::f", lambda x: x)
    with pytest.raises(RegistrationError, match="composite"):
        volta.library.impl_composite(f"{ns}::f", lambda x: x)
    with pytest.raises(RegistrationError, match="scratch"):
        BACKENDS.register("scratch", scratch_device.impl)
    with pytest.raises(RegistrationError, match="NOKEY"):
        volta.library.impl(f"{ns}::f", "NOKEY", lambda x: x)


def test_no_kernel_error_names_op_key_and_available_keys() -> None:
    with volta.library.scoped():
        op, _ = labelled_op(["Meta"])
        with pytest.raises(NoKernelError) as info:
            op(volta.ones(1))
        message = str(info.value)
        assert op.name in message
        assert "dispatch key CPU" in message
        assert "keys with kernels: Meta" in message
        assert isinstance(info.value, NotImplementedError)
        bare = volta.library.define(f"{fresh_ns()}::bare(Tensor x) -> Tensor")
        with pytest.raises(NoKernelError, match="keys with kernels: none"):
            bare(volta.ones(1))
        # a failed resolution is not cached: registering a kernel fixes the op
        volta.library.impl(bare, "CPU", lambda x: "now")
        assert bare(volta.ones(1)) == "now"


def test_device_mismatch() -> None:
    a = volta.ones(2)
    b = volta.ones(2).to("toy")
    for fn in (volta.add, volta.mul, volta.sub):
        with pytest.raises(DeviceMismatchError) as info:
            fn(a, b)
        message = str(info.value)
        assert fn.__name__ in message and "CPU" in message and "TOY" in message
        assert isinstance(info.value, ValueError)
    with pytest.raises(DeviceMismatchError):
        volta.add(a.requires_grad_(), b)
    assert a.grad_fn is None and a.grad is None


# -- the dispatch cache ----------------------------------------------------------------------------


def test_second_call_hits_the_cache(monkeypatch: pytest.MonkeyPatch) -> None:
    with volta.library.scoped():
        op, seen = labelled_op(["CPU"])
        x = volta.ones(2)
        assert explain(op, x).cached is False
        assert op(x) == "CPU"
        assert explain(op, x).cached is True

        def no_resolution(keyset: int) -> Any:
            raise AssertionError("resolved again instead of using the cache")

        monkeypatch.setattr(op, "resolve", no_resolution)
        assert op(x) == "CPU" and seen == ["CPU", "CPU"]
        monkeypatch.undo()
        # a new registration invalidates cached entries of every op
        add_cached = explain(volta.add, x, x)
        volta.add(x, x)
        assert explain(volta.add, x, x).cached is True and add_cached is not None
        volta.library.impl(op, "Autocast", lambda x: "Autocast")
        assert explain(op, x).cached is False
        assert explain(volta.add, x, x).cached is False
        assert op(x) == "CPU"
        assert explain(op, x).cached is True


def test_cache_is_per_key_set() -> None:
    with volta.library.scoped():
        op, _ = labelled_op(["Autograd", "CPU"])
        x, xg = volta.ones(1), volta.ones(1, requires_grad=True)
        op(x)
        assert explain(op, x).cached and not explain(op, xg).cached
        assert op(xg) == "Autograd" and op(x) == "CPU"


# -- volta.library.scoped --------------------------------------------------------------------------


def tables() -> tuple:
    ops = {name: (dict(op.kernels), op.composite, op.autograd_info)
           for name, op in DISPATCHER.ops.items()}
    return (ops, dict(DISPATCHER.fallbacks), [k.name for k in KEYS.all()],
            BACKENDS.names(), DISPATCHER.cpu_fallback_enabled)


def assert_same_tables(before: tuple, after: tuple) -> None:
    ops_b, fb_b, keys_b, backends_b, cpu_b = before
    ops_a, fb_a, keys_a, backends_a, cpu_a = after
    assert set(ops_a) == set(ops_b)
    for name, (kernels, composite, info) in ops_b.items():
        kernels_a, composite_a, info_a = ops_a[name]
        assert kernels_a.keys() == kernels.keys(), name
        assert all(kernels_a[k] is kernels[k] for k in kernels), name
        assert composite_a is composite and info_a is info, name
    assert fb_a.keys() == fb_b.keys() and all(fb_a[k] is fb_b[k] for k in fb_b)
    assert (keys_a, backends_a, cpu_a) == (keys_b, backends_b, cpu_b)


def test_scoped_restores_tables_exactly() -> None:
    from tests.conftest import HostBackend
    before = tables()
    ns = fresh_ns()
    with volta.library.scoped():
        BACKENDS.register("scopedev", HostBackend(), key_name="SCOPEDEV")
        volta.library.define(f"{ns}::f(Tensor x) -> Tensor")
        volta.library.impl(f"{ns}::f", "CPU", lambda x: x)
        volta.library.register_autograd(f"{ns}::f", lambda ctx, g: g)
        volta.library.impl("add", "CPU", lambda *a: None, override=True)
        volta.library.impl("mul", "SCOPEDEV", lambda *a: None)
        volta.library.impl_composite("positive", lambda x: x, override=True)
        volta.library.register_meta("neg", lambda x: x)
        volta.library.fallback("Autocast", FALLTHROUGH)
        volta.library.fallback("Autograd", lambda *a: None, override=True)
        volta.dispatch.set_cpu_fallback(False)
        assert tables() != before
    assert_same_tables(before, tables())
    x = volta.tensor([1.0, 2.0], requires_grad=True)
    assert volta.add(x, x).tolist() == [2.0, 4.0] and volta.neg(x).grad_fn is not None
    assert ns not in " ".join(DISPATCHER.ops)


def test_scoped_restores_after_an_exception() -> None:
    before = tables()
    with pytest.raises(ZeroDivisionError):
        with volta.library.scoped():
            volta.library.define(f"{fresh_ns()}::g(Tensor x) -> Tensor")
            volta.library.impl("exp", "CPU", lambda x: x, override=True)
            raise ZeroDivisionError
    assert_same_tables(before, tables())


def test_scopes_nest() -> None:
    before = tables()
    ns = fresh_ns()
    with volta.library.scoped():
        volta.library.define(f"{ns}::outer(Tensor x) -> Tensor")
        middle = tables()
        with volta.library.scoped():
            volta.library.define(f"{ns}::inner(Tensor x) -> Tensor")
        assert_same_tables(middle, tables())
        assert f"{ns}::outer" in DISPATCHER.ops
    assert_same_tables(before, tables())


# -- thread safety ---------------------------------------------------------------------------------


def workload(seed: int, steps: int) -> list[np.ndarray]:
    """A few hundred mixed ops: pointwise, reductions, views, matmul, autograd, no_grad,
    toy-device kernels and the CPU fallback. Returns every result as an array."""
    rng = np.random.default_rng(seed)
    out: list[np.ndarray] = []
    for i in range(steps):
        a_np = rng.standard_normal((3, 4)).astype(np.float32)
        b_np = rng.standard_normal((4, 2)).astype(np.float32)
        a = volta.tensor(a_np, requires_grad=True)
        b = volta.tensor(b_np, requires_grad=True)
        kind = i % 5
        if kind == 0:
            y = ((a * 2 + 1).exp().sum(1) / 3).relu()
            out.append(y.detach().numpy())
        elif kind == 1:
            loss = (a.matmul(b).tanh() ** 2).mean()
            loss.backward()
            out += [loss.detach().numpy(), a.grad.numpy(), b.grad.numpy()]
        elif kind == 2:
            with volta.no_grad():
                y = a.transpose(0, 1).reshape(2, 6)[1] - b.sum()
            assert y.grad_fn is None and not y.requires_grad
            out.append(y.numpy())
        elif kind == 3:
            t = a.detach().to("toy")
            y = volta.add(t, t) * t  # TOY kernels
            z = (y - 1).cpu()  # the CPU fallback (sub)
            out.append(z.numpy())
        else:
            g = volta.tensor(rng.standard_normal((3, 4)).astype(np.float32), requires_grad=True)
            s = volta.ops.example.swiglu(a, g).sum()
            ga, gg = volta.autograd.grad(s, (a, g))
            assert s.grad_fn is not None
            out += [s.detach().numpy(), ga.numpy(), gg.numpy()]
    return out


@pytest.mark.filterwarnings("ignore:.*has no TOY kernel")
def test_concurrent_dispatch_matches_serial() -> None:
    threads_n, steps = 8, 200
    serial = [workload(seed, steps) for seed in range(threads_n)]
    DISPATCHER.invalidate_all()  # make the threads race to fill the caches
    results: dict[int, list[np.ndarray]] = {}
    errors: list[BaseException] = []
    barrier = threading.Barrier(threads_n)

    def run(seed: int) -> None:
        try:
            barrier.wait(30)
            results[seed] = workload(seed, steps)
        except BaseException as exc:  # surface any failure to the main thread
            errors.append(exc)

    threads = [threading.Thread(target=run, args=(s,)) for s in range(threads_n)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(120)
    assert not errors, errors
    assert sorted(results) == list(range(threads_n))
    for seed in range(threads_n):
        assert len(results[seed]) == len(serial[seed])
        for got, want in zip(results[seed], serial[seed]):
            assert got.dtype == want.dtype and got.shape == want.shape
            np.testing.assert_array_equal(got, want)


def test_meta_key_is_a_backend_key() -> None:
    assert Meta.is_backend and Meta.bit > Autograd.bit


def test_explain_through_the_package_attribute_keeps_working() -> None:
    """``volta.dispatch.explain`` must stay the function after the explain module is loaded
    (calling it the first time imports ``volta.dispatch.explain``, the submodule)."""
    x = volta.ones(1)
    first = volta.dispatch.explain(volta.neg, x)
    second = volta.dispatch.explain(volta.neg, x)
    assert callable(volta.dispatch.explain)
    assert first.op == second.op == "neg"
