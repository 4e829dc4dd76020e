"""Plugins: the installed example package (toy device, ext ops) and plugin objects registered
at run time.

Requires ``plugins/volta-example-ext`` to be pip-installed (the Makefile does it). Broken
plugins, rollback, strict mode and the environment switches are tested in
``tests/plugins/test_loading.py``.
"""

from __future__ import annotations

import uuid
import warnings
from importlib import metadata
from pathlib import Path

import numpy as np
import pytest
import torch

import volta
from volta.dispatch import DISPATCHER, explain
from volta.errors import DTypeError, NoKernelError

ROOT = Path(__file__).resolve().parents[2]
HOOKS = ["volta_register_backends", "volta_define_ops", "volta_register_kernels"]


def records() -> dict[str, volta.plugins.PluginRecord]:
    return {r.name: r for r in volta.plugins.status()}


def rng_array(shape: tuple[int, ...], dtype: type = np.float32, seed: int = 0) -> np.ndarray:
    return np.random.default_rng(seed).standard_normal(shape).astype(dtype)


# -- the example package ------------------------------------------------------------------------


def test_example_package_is_an_installed_entry_point() -> None:
    eps = {ep.name: ep.value for ep in metadata.entry_points(group="volta")}
    assert eps["example_ext"] == "volta_example_ext.plugin"
    assert metadata.distribution("volta-example-ext").version == "0.1.0"


def test_example_plugin_loaded_at_import_with_every_hook() -> None:
    rec = records()["example_ext"]
    assert rec.state == "loaded", rec.error
    assert rec.source == "entry-point"
    assert rec.error is None
    assert rec.hooks == HOOKS  # all three, in the documented order
    assert "toy" in volta.get_device_types()
    for name in ("example::swiglu", "example::scaled_add"):
        assert "example_ext" in DISPATCHER.find(name).provenance
    # volta's own CPU backend loads through the same machinery
    assert records()["cpu"].state == "loaded"


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("shapes", [((3, 4), (3, 4)), ((2, 3, 4), (4,)), ((5,), (2, 1, 5))])
def test_swiglu_matches_torch(dtype: type, shapes: tuple) -> None:
    xa, ga = rng_array(shapes[0], dtype, 1), rng_array(shapes[1], dtype, 2)
    x = volta.tensor(xa, requires_grad=True)
    g = volta.tensor(ga, requires_grad=True)
    y = volta.ops.example.swiglu(x, g)
    tx = torch.tensor(xa, requires_grad=True)
    tg = torch.tensor(ga, requires_grad=True)
    ty = tx * torch.nn.functional.silu(tg)
    tol = {"rtol": 1e-5, "atol": 1e-6} if dtype == np.float32 else {"rtol": 1e-12, "atol": 1e-12}
    assert y.dtype == volta.dtypes.from_numpy_dtype(np.dtype(dtype))
    np.testing.assert_allclose(y.detach().numpy(), ty.detach().numpy(), **tol)
    wa = rng_array(ty.shape, dtype, 3)
    y.backward(volta.tensor(wa))
    ty.backward(torch.tensor(wa))
    assert x.grad.shape == x.shape and g.grad.shape == g.shape
    np.testing.assert_allclose(x.grad.numpy(), tx.grad.numpy(), **tol)
    np.testing.assert_allclose(g.grad.numpy(), tg.grad.numpy(), **tol)


def test_swiglu_gradcheck_and_function_lookup() -> None:
    x = volta.tensor(rng_array((2, 3), np.float64, 4), requires_grad=True)
    g = volta.tensor(rng_array((2, 3), np.float64, 5), requires_grad=True)
    assert volta.autograd.gradcheck(volta.ops.example.swiglu, (x, g))
    assert volta.ops.example.swiglu.default is DISPATCHER.find("example::swiglu")
    assert volta.ops.example.swiglu(x, g).grad_fn is not None
    with pytest.raises(AttributeError, match="example::nope"):
        volta.ops.example.nope  # noqa: B018


def test_swiglu_int_inputs_promote_to_float() -> None:
    x = volta.tensor([1, 2, -3])
    g = volta.tensor([0, 1, 2])
    y = volta.ops.example.swiglu(x, g)
    assert y.dtype == volta.float32
    expected = torch.tensor([1.0, 2.0, -3.0]) * torch.nn.functional.silu(torch.tensor([0.0, 1, 2]))
    np.testing.assert_allclose(y.numpy(), expected.numpy(), rtol=1e-6)


@pytest.mark.parametrize("alpha", [2.5, -0.5])
def test_scaled_add_with_register_autograd_backward(alpha: float) -> None:
    aa, ba = rng_array((2, 3), np.float64, 6), rng_array((3,), np.float64, 7)
    a = volta.tensor(aa, requires_grad=True)
    b = volta.tensor(ba, requires_grad=True)
    out = volta.ops.example.scaled_add(a, b, alpha)
    ta = torch.tensor(aa, requires_grad=True)
    tb = torch.tensor(ba, requires_grad=True)
    tout = ta + alpha * tb
    np.testing.assert_allclose(out.detach().numpy(), tout.detach().numpy(), rtol=1e-12)
    w = rng_array((2, 3), np.float64, 8)
    out.backward(volta.tensor(w))
    tout.backward(torch.tensor(w))
    np.testing.assert_allclose(a.grad.numpy(), ta.grad.numpy(), rtol=1e-12)
    np.testing.assert_allclose(b.grad.numpy(), tb.grad.numpy(), rtol=1e-12)
    # the Autograd kernel is the one register_autograd installed, and the kernel is the plugin's
    handle = DISPATCHER.find("example::scaled_add")
    assert handle.autograd_info is not None
    table = handle.table()
    assert "example_ext" in table and "cpu_scaled_add" in table
    assert volta.autograd.gradcheck(lambda p, q: volta.ops.example.scaled_add(p, q, alpha),
                                    (volta.tensor(aa, requires_grad=True),
                                     volta.tensor(aa * 0.5, requires_grad=True)))


# -- the toy device -------------------------------------------------------------------------------


def test_toy_tensors_live_in_toy_storage() -> None:
    from volta_example_ext.plugin import ToyBuffer
    src = volta.tensor(rng_array((2, 3)))
    original = src.numpy().copy()
    t = src.to("toy")
    assert t.device == volta.device("toy") and str(t.device) == "toy"
    assert isinstance(t.untyped_storage().handle, ToyBuffer)
    assert "TOY" in explain(volta.add, t, t).tensor_keyset
    src.add_(100.0)  # the toy copy owns its memory
    back = t.to("cpu")
    assert back.device == volta.device("cpu")
    np.testing.assert_array_equal(back.numpy(), original)
    with pytest.raises(volta.BackendError):
        t.numpy()


@pytest.mark.parametrize("dt", ["float32", "float64", "int64", "bool"])
def test_toy_supports_its_dtypes(dt: str) -> None:
    arr = (rng_array((4,)) * 3).astype(np.dtype(dt))
    t = volta.tensor(arr).to("toy")
    assert t.dtype == getattr(volta, dt)
    np.testing.assert_array_equal(t.cpu().numpy(), arr)


def test_toy_rejects_dtypes_it_does_not_store() -> None:
    with pytest.raises(DTypeError, match="int32"):
        volta.ones(3, dtype=volta.int32).to("toy")


@pytest.mark.parametrize("dt", [np.float32, np.float64, np.int64, np.bool_])
def test_toy_kernels_for_add_and_mul(dt: type) -> None:
    a_np = (rng_array((3, 4), np.float64, 9) * 4).astype(dt)
    b_np = (rng_array((4,), np.float64, 10) * 4).astype(dt)
    a, b = volta.tensor(a_np), volta.tensor(b_np)
    at, bt = a.to("toy"), b.to("toy")
    for fn in (volta.add, volta.mul):
        ex = explain(fn, at, bt)
        assert (ex.key, ex.source) == ("TOY", "kernel")
        assert "example_ext" in ex.provenance and "toy_" in ex.kernel
        out = fn(at, bt)
        assert out.device == volta.device("toy")
        ref = fn(a, b)
        assert out.dtype == ref.dtype
        np.testing.assert_array_equal(out.cpu().numpy(), ref.numpy())


def test_toy_kernel_for_swiglu_and_operators_with_numbers() -> None:
    x, g = volta.tensor(rng_array((5,), seed=11)), volta.tensor(rng_array((5,), seed=12))
    xt, gt = x.to("toy"), g.to("toy")
    ex = explain("example::swiglu", xt, gt)
    assert (ex.key, ex.source) == ("TOY", "kernel") and "toy_swiglu" in ex.kernel
    out = volta.ops.example.swiglu(xt, gt)
    assert out.device == volta.device("toy")
    np.testing.assert_allclose(out.cpu().numpy(), volta.ops.example.swiglu(x, g).numpy(), rtol=1e-6)
    np.testing.assert_allclose((xt * 2 + 1).cpu().numpy(), (x * 2 + 1).numpy(), rtol=1e-6)


def test_toy_ops_without_kernel_use_the_cpu_fallback() -> None:
    a, b = volta.tensor(rng_array((3, 4), seed=13)), volta.tensor(rng_array((4, 2), seed=14))
    at, bt = a.to("toy"), b.to("toy")
    for name, fn, args, ref in [
        ("sub", volta.sub, (at, at), volta.sub(a, a)),
        ("matmul", volta.matmul, (at, bt), volta.matmul(a, b)),
        ("sum", lambda t: t.sum(1), (at,), a.sum(1)),
        ("example::scaled_add", volta.ops.example.scaled_add, (at, at, 3.0),
         volta.ops.example.scaled_add(a, a, 3.0)),
    ]:
        ex = explain(name, *args)
        assert (ex.key, ex.source) == ("TOY", "cpu-fallback"), name
        before = volta.dispatch.cpu_fallback_counts().get(name, 0)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            out = fn(*args)
        assert volta.dispatch.cpu_fallback_counts()[name] == before + 1
        assert out.device == volta.device("toy")
        np.testing.assert_allclose(out.cpu().numpy(), ref.numpy(), rtol=1e-6)


def test_cpu_fallback_warns_once_per_op_and_counts() -> None:
    ns = f"fb{uuid.uuid4().hex[:8]}"
    with volta.library.scoped():
        volta.library.define(f"{ns}::twice(Tensor x) -> Tensor")
        volta.library.impl(f"{ns}::twice", "CPU", lambda x: volta.tensor(np.asarray(x) * 2))
        t = volta.tensor([1.0, 2.0]).to("toy")
        with pytest.warns(UserWarning, match=rf"{ns}::twice has no TOY kernel") as caught:
            out = getattr(volta.ops, ns).twice(t)
        assert len([w for w in caught if ns in str(w.message)]) == 1
        with warnings.catch_warnings():
            warnings.simplefilter("error")  # a second warning would raise here
            out2 = getattr(volta.ops, ns).twice(out)
        assert volta.dispatch.cpu_fallback_counts()[f"{ns}::twice"] == 2
        assert out2.device == volta.device("toy")
        assert out2.cpu().tolist() == [4.0, 8.0]


def test_inplace_op_on_toy_through_the_fallback_writes_the_toy_tensor() -> None:
    a = volta.tensor(rng_array((2, 3), seed=15))
    t = a.to("toy")
    storage = t.untyped_storage()
    version = t._version
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        r = t.sub_(1.5)
    assert r is t and t.device == volta.device("toy")
    assert t.untyped_storage() is storage
    assert t._version > version
    np.testing.assert_allclose(t.cpu().numpy(), a.numpy() - 1.5, rtol=1e-6)


def test_autograd_on_toy_matches_cpu() -> None:
    xa, ga = rng_array((2, 3), seed=16), rng_array((2, 3), seed=17)
    xt = volta.tensor(xa).to("toy").requires_grad_()
    gt = volta.tensor(ga).to("toy").requires_grad_()
    x = volta.tensor(xa, requires_grad=True)
    g = volta.tensor(ga, requires_grad=True)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        (volta.ops.example.swiglu(xt, gt) * 3).sum().backward()
    (volta.ops.example.swiglu(x, g) * 3).sum().backward()
    assert xt.grad.device == volta.device("toy") and gt.grad.device == volta.device("toy")
    np.testing.assert_allclose(xt.grad.cpu().numpy(), x.grad.numpy(), rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(gt.grad.cpu().numpy(), g.grad.numpy(), rtol=1e-5, atol=1e-6)


def test_disabling_the_cpu_fallback_raises_no_kernel_error() -> None:
    t = volta.tensor([1.0, 2.0]).to("toy")
    volta.dispatch.set_cpu_fallback(False)
    try:
        with pytest.raises(NoKernelError) as info:
            volta.sub(t, t)
        message = str(info.value)
        assert "sub" in message and "TOY" in message
        assert "CPU" in message  # a key that does have a kernel
        assert isinstance(info.value, NotImplementedError)
        # ops with a TOY kernel are unaffected
        assert volta.add(t, t).cpu().tolist() == [2.0, 4.0]
    finally:
        volta.dispatch.set_cpu_fallback(True)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        assert volta.sub(t, t).cpu().tolist() == [0.0, 0.0]


# -- plugin objects registered at run time --------------------------------------------------------


class ScopedPlugin:
    """A plugin object with all three hooks: a device, an op, kernels (incl. for example::swiglu)."""

    def __init__(self, ns: str) -> None:
        self.ns = ns
        self.calls: list[str] = []

    @volta.plugins.hookimpl
    def volta_register_backends(self, registry: object) -> None:
        from tests.conftest import HostBackend
        self.calls.append("backends")
        registry.register("objdev", HostBackend(), key_name="OBJDEV")  # type: ignore[attr-defined]

    @volta.plugins.hookimpl
    def volta_define_ops(self, library: volta.library.Library) -> None:
        self.calls.append("ops")
        library.define(f"{self.ns}::double(Tensor x) -> Tensor")

    @volta.plugins.hookimpl
    def volta_register_kernels(self, library: volta.library.Library) -> None:
        self.calls.append("kernels")
        library.impl(f"{self.ns}::double", "CPU", lambda x: volta.tensor(np.asarray(x) * 2))
        # a kernel for another plugin's op on this plugin's device
        library.impl("example::swiglu", "OBJDEV",
                     lambda x, g: volta.tensor(np.asarray(x) * 0 + 7, device="objdev"))


def test_register_plugin_object_inside_scoped() -> None:
    ns = f"obj{uuid.uuid4().hex[:8]}"
    name = f"scoped_{ns}"
    plugin = ScopedPlugin(ns)
    with volta.library.scoped():
        rec = volta.plugins.register(plugin, name=name)
        assert rec.state == "loaded", rec.error
        assert rec.source == "object" and rec.hooks == HOOKS
        assert plugin.calls == ["backends", "ops", "kernels"]
        assert "objdev" in volta.get_device_types()
        out = getattr(volta.ops, ns).double(volta.tensor([1.0, 3.0]))
        assert out.tolist() == [2.0, 6.0]
        assert name in DISPATCHER.find(f"{ns}::double").kernels[
            volta.dispatch.KEYS.get("CPU")].provenance
        t = volta.ones(2, device="objdev")
        assert volta.ops.example.swiglu(t, t).cpu().tolist() == [7.0, 7.0]
    assert "objdev" not in volta.get_device_types()
    assert f"{ns}::double" not in DISPATCHER.ops
    assert volta.dispatch.KEYS.find("OBJDEV") is None
    assert "OBJDEV" not in volta.dispatch.table("example::swiglu")


def test_register_broken_plugin_object_is_reported_not_raised() -> None:
    class Broken:
        @volta.plugins.hookimpl
        def volta_define_ops(self, library: volta.library.Library) -> None:
            raise KeyError("deliberate")

    name = f"broken_obj_{uuid.uuid4().hex[:8]}"
    with volta.library.scoped():
        with pytest.warns(RuntimeWarning, match=name):
            rec = volta.plugins.register(Broken(), name=name)
        assert records()[name].state == "failed"
    assert rec.state == "failed"
    assert "volta_define_ops" in rec.error and "deliberate" in rec.error
    assert name not in records()  # the scope undoes plugin registrations too


def test_register_same_plugin_again_after_its_scope_ended() -> None:
    """A scope undoes a plugin object's registrations, so loading it again (a re-run notebook
    cell, a repeated test) must work like the first time."""

    class Rerun:
        @volta.plugins.hookimpl
        def volta_define_ops(self, library: volta.library.Library) -> None:
            library.define("rerun_ns::noop(Tensor x) -> Tensor")

    for _ in range(2):
        with volta.library.scoped():
            rec = volta.plugins.register(Rerun())
            assert rec.state == "loaded", rec.error
            assert "rerun_ns::noop" in DISPATCHER.ops
        assert "rerun_ns::noop" not in DISPATCHER.ops
