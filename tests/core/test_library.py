"""``volta.library``: the run-time API for defining operators and registering kernels."""

from __future__ import annotations

import uuid
from pathlib import Path
from typing import Any

import numpy as np
import pytest
import torch

import volta
from volta.dispatch import DISPATCHER, KEYS, Autograd, Meta, OperatorHandle, explain
from volta.errors import RegistrationError, SchemaError

CPU = KEYS.get("CPU")


@pytest.fixture
def ns() -> Any:
    """A fresh namespace, with every registration undone after the test."""
    with volta.library.scoped():
        yield f"lib{uuid.uuid4().hex[:8]}"


def numpy_kernel(fn: Any) -> Any:
    """Wrap a numpy function as a CPU kernel returning a volta tensor."""
    def kernel(*args: Any) -> Any:
        return volta.tensor(fn(*(np.asarray(a) if isinstance(a, volta.Tensor) else a
                                 for a in args)))
    return kernel


# -- define ----------------------------------------------------------------------------------------


def test_define_with_namespace(ns: str) -> None:
    handle = volta.library.define(f"{ns}::clip_to(Tensor x, float lo=0.0, *, float hi=1.0) -> "
                                  "Tensor")
    assert isinstance(handle, OperatorHandle)
    assert handle.name == f"{ns}::clip_to"
    assert str(handle.schema) == f"{ns}::clip_to(Tensor x, float lo=0.0, *, float hi=1.0) -> Tensor"
    assert DISPATCHER.find(f"{ns}::clip_to") is handle
    assert getattr(volta.ops, ns).clip_to.default is handle
    volta.library.impl(handle, "CPU", numpy_kernel(lambda x, lo, hi: np.clip(x, lo, hi)))
    x = volta.tensor([-1.0, 0.5, 2.0])
    assert getattr(volta.ops, ns).clip_to(x).tolist() == [0.0, 0.5, 1.0]
    assert getattr(volta.ops, ns).clip_to(x, -2.0, hi=0.25).tolist() == [-1.0, 0.25, 0.25]


def test_bad_arguments_to_a_library_op_raise_type_error(ns: str) -> None:
    """As in PyTorch (and as volta's own single-overload functions do), arguments that fit no
    overload are a TypeError naming the op and the accepted schemas."""
    volta.library.define(f"{ns}::clip_to(Tensor x, float lo=0.0, *, float hi=1.0) -> Tensor")
    x = volta.tensor([-1.0, 0.5, 2.0])
    with pytest.raises(TypeError) as info:
        getattr(volta.ops, ns).clip_to(x, 0.0, 1.0)  # hi is keyword-only
    assert f"{ns}::clip_to" in str(info.value) and "float hi=1.0" in str(info.value)


def test_define_overloads(ns: str) -> None:
    volta.library.define(f"{ns}::scale.Tensor(Tensor x, Tensor s) -> Tensor")
    volta.library.define(f"{ns}::scale.float(Tensor x, float s) -> Tensor")
    volta.library.impl(f"{ns}::scale.Tensor", "CPU", numpy_kernel(lambda x, s: x * s * 10))
    volta.library.impl(f"{ns}::scale.float", "CPU", numpy_kernel(lambda x, s: x * s))
    packet = getattr(volta.ops, ns).scale
    x = volta.tensor([1.0, 2.0])
    assert packet(x, 3.0).tolist() == [3.0, 6.0]
    assert packet(x, volta.tensor(3.0)).tolist() == [30.0, 60.0]
    assert packet.float.name == f"{ns}::scale.float"
    with pytest.raises(AttributeError):
        packet.nope  # noqa: B018


def test_define_without_namespace_is_refused_with_a_hint() -> None:
    with volta.library.scoped():
        with pytest.raises(SchemaError) as info:
            volta.library.define("my_relu(Tensor x) -> Tensor")
    message = str(info.value)
    assert "namespace" in message and "myns::my_relu" in message
    assert "my_relu" not in DISPATCHER.ops


@pytest.mark.parametrize("bad", [
    "ns::f(Tensor x -> Tensor",
    "ns::f(Tensr x) -> Tensor",
    "ns::f(Tensor x, Tensor x) -> Tensor",
    "ns::f(Tensor x=[1, ) -> Tensor",
    "ns::f-g(Tensor x) -> Tensor",
], ids=["unclosed", "unknown-type", "duplicate-argument", "bad-default", "bad-name"])
def test_define_rejects_bad_schemas(bad: str) -> None:
    with volta.library.scoped():
        with pytest.raises(SchemaError):
            volta.library.define(bad)


def test_define_twice_is_an_error(ns: str) -> None:
    volta.library.define(f"{ns}::f(Tensor x) -> Tensor")
    with pytest.raises(RegistrationError, match=f"{ns}::f"):
        volta.library.define(f"{ns}::f(Tensor x) -> Tensor")


def test_library_owner_goes_into_provenance(ns: str) -> None:
    lib = volta.library.Library("my_owner")
    handle = lib.define(f"{ns}::f(Tensor x) -> Tensor")
    lib.impl(handle, "CPU", lambda x: x)
    assert handle.provenance.startswith("my_owner")
    assert handle.kernels[CPU].provenance.startswith("my_owner")
    assert "test_library.py" in handle.kernels[CPU].provenance


# -- impl ------------------------------------------------------------------------------------------


def test_impl_as_decorator(ns: str) -> None:
    volta.library.define(f"{ns}::cube(Tensor x) -> Tensor")

    @volta.library.impl(f"{ns}::cube", "CPU")
    def cube_cpu(x: Any) -> Any:
        return volta.tensor(np.asarray(x) ** 3)

    assert callable(cube_cpu) and cube_cpu.__name__ == "cube_cpu"  # returned unchanged
    assert DISPATCHER.find(f"{ns}::cube").kernels[CPU].fn is cube_cpu
    assert getattr(volta.ops, ns).cube(volta.tensor([2.0, -1.0])).tolist() == [8.0, -1.0]
    # a decorator with override=True replaces the kernel
    @volta.library.impl(f"{ns}::cube", "CPU", override=True)
    def cube_again(x: Any) -> Any:
        return volta.tensor(np.asarray(x) ** 3 + 1)

    assert getattr(volta.ops, ns).cube(volta.tensor([2.0])).tolist() == [9.0]
    with pytest.raises(RegistrationError):
        volta.library.impl(f"{ns}::cube", "CPU")(cube_cpu)


def test_impl_for_a_plugin_device(ns: str) -> None:
    volta.library.define(f"{ns}::first(Tensor x) -> Tensor")
    volta.library.impl(f"{ns}::first", "TOY", lambda x: x[0])
    t = volta.tensor([5.0, 6.0]).to("toy")
    ex = explain(f"{ns}::first", t)
    assert (ex.key, ex.source) == ("TOY", "kernel")
    assert getattr(volta.ops, ns).first(t).item() == 5.0


# -- impl_composite --------------------------------------------------------------------------------


@pytest.mark.filterwarnings("ignore:.*has no TOY kernel")
def test_impl_composite_runs_everywhere_and_differentiates_through_parts(ns: str) -> None:
    volta.library.define(f"{ns}::softsign(Tensor x) -> Tensor")
    volta.library.impl_composite(f"{ns}::softsign", lambda x: x / (1 + x.abs()))
    op = getattr(volta.ops, ns).softsign
    data = np.array([-2.0, -0.5, 0.25, 3.0])
    x = volta.tensor(data, requires_grad=True)
    y = op(x)
    tx = torch.tensor(data, requires_grad=True)
    ty = torch.nn.functional.softsign(tx)
    np.testing.assert_allclose(y.detach().numpy(), ty.detach().numpy(), rtol=1e-12)
    y.sum().backward()
    ty.sum().backward()
    np.testing.assert_allclose(x.grad.numpy(), tx.grad.numpy(), rtol=1e-12)
    # at the Autograd key the composite runs itself, so its parts record the graph
    assert explain(op.default, x).source == "composite"
    # and any backend gets it, with no kernel of its own
    t = volta.tensor(data).to("toy")
    ex = explain(op.default, t)
    assert (ex.key, ex.source) == ("TOY", "composite")
    np.testing.assert_allclose(op(t).cpu().numpy(), ty.detach().numpy(), rtol=1e-12)


def test_a_kernel_beats_the_composite_for_its_key(ns: str) -> None:
    volta.library.define(f"{ns}::f(Tensor x) -> Tensor")
    volta.library.impl_composite(f"{ns}::f", lambda x: x * 2)
    volta.library.impl(f"{ns}::f", "CPU", lambda x: x * 3)
    x = volta.tensor([1.0])
    assert getattr(volta.ops, ns).f(x).tolist() == [3.0]
    assert getattr(volta.ops, ns).f(x.to("toy")).cpu().tolist() == [2.0]


# -- register_autograd / register_meta / fallback --------------------------------------------------


def test_register_autograd_with_setup_context(ns: str) -> None:
    volta.library.define(f"{ns}::cube(Tensor x) -> Tensor")
    volta.library.impl(f"{ns}::cube", "CPU", numpy_kernel(lambda x: x ** 3))

    def setup(ctx: Any, inputs: tuple, output: Any) -> None:
        ctx.save_for_backward(inputs[0])

    def backward(ctx: Any, grad: Any) -> Any:
        (x,) = ctx.saved_tensors
        return grad * 3 * x * x

    volta.library.register_autograd(f"{ns}::cube", backward, setup_context=setup)
    handle = DISPATCHER.find(f"{ns}::cube")
    assert Autograd in handle.kernels and handle.autograd_info is backward
    x = volta.tensor([1.0, -2.0, 0.5], dtype=volta.float64, requires_grad=True)
    y = getattr(volta.ops, ns).cube(x)
    assert y.grad_fn is not None
    y.backward(volta.tensor([1.0, 1.0, 2.0], dtype=volta.float64))
    assert x.grad.tolist() == [3.0, 12.0, 1.5]
    assert volta.autograd.gradcheck(getattr(volta.ops, ns).cube, (x.detach().requires_grad_(),))
    with pytest.raises(RegistrationError):
        volta.library.register_autograd(f"{ns}::cube", backward)


def test_register_meta_stores_a_meta_kernel(ns: str) -> None:
    volta.library.define(f"{ns}::pair(Tensor x) -> Tensor")
    seen = []

    def pair_meta(x: Any) -> str:
        seen.append(x)
        return "meta-result"

    volta.library.register_meta(f"{ns}::pair", pair_meta)
    handle = DISPATCHER.find(f"{ns}::pair")
    entry = handle.kernels[Meta]
    assert entry.fn is pair_meta and "test_library.py" in entry.provenance
    meta_line = next(x for x in handle.table().splitlines() if x.split()[0] == "Meta")
    assert "pair_meta" in meta_line and "kernel" in meta_line
    x = volta.ones(2)
    assert handle.call_with_keyset(Meta.mask, x) == "meta-result" and seen == [x]
    with pytest.raises(RegistrationError):
        volta.library.register_meta(f"{ns}::pair", pair_meta)
    volta.library.register_meta(f"{ns}::pair", lambda x: "again", override=True)
    assert handle.call_with_keyset(Meta.mask, x) == "again"


def test_fallback_for_a_backend_key(scratch_device: Any) -> None:
    calls = []

    def boxed(op: OperatorHandle, keyset: int, args: tuple, kwargs: dict) -> Any:
        calls.append(op.name)
        host = [a.cpu() if isinstance(a, volta.Tensor) else a for a in args]
        return op(*host).to("scratch")

    volta.library.fallback("SCRATCH", boxed)
    t = volta.tensor([1.0, 4.0]).to("scratch")
    out = volta.sqrt(t) + t
    assert calls == ["sqrt", "add"]
    assert out.device == volta.device("scratch") and out.cpu().tolist() == [2.0, 6.0]


# -- define_yaml -----------------------------------------------------------------------------------


def test_define_yaml_formulas_may_call_core_ops(ns: str, tmp_path: Path) -> None:
    """Derivative formulas in a plugin's yaml are "written with volta ops", like ops.yaml's:
    ``sigmoid(x)`` must be accepted and mean ``volta.sigmoid``."""
    path = tmp_path / "ops.yaml"
    path.write_text(f"- func: {ns}::silu2(Tensor x) -> Tensor\n"
                    "  tags: pointwise\n"
                    "  pointwise: x * sigmoid(x)\n"
                    "  derivatives:\n"
                    "    x: grad * (sigmoid(x) + x * sigmoid(x) * (1 - sigmoid(x)))\n")
    volta.library.Library("yaml_test").define_yaml(path)
    data = np.array([-1.5, 0.0, 2.0])
    x = volta.tensor(data, requires_grad=True)
    getattr(volta.ops, ns).silu2(x).sum().backward()
    tx = torch.tensor(data, requires_grad=True)
    torch.nn.functional.silu(tx).sum().backward()
    np.testing.assert_allclose(x.grad.numpy(), tx.grad.numpy(), rtol=1e-12)


def test_define_yaml_needs_a_namespace(tmp_path: Path) -> None:
    path = tmp_path / "ops.yaml"
    path.write_text("- func: plain(Tensor x) -> Tensor\n  composite: true\n")
    with volta.library.scoped():
        with pytest.raises(SchemaError, match="namespace"):
            volta.library.Library("t").define_yaml(path)
    assert "plain" not in DISPATCHER.ops
