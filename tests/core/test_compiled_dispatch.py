"""The dispatcher's compiled call path (volta/dispatch/native/dispatch.c) does what the Python
one (``_PythonCallPath``) does: key sets, the thread-local included/excluded sets, the cache
and its invalidation, redispatch, error translation, threads. Under ``VOLTA_NATIVE=0`` the
Python path is the one installed, and the same checks hold trivially for it."""

from __future__ import annotations

import threading
import uuid
from typing import Any

import numpy as np
import pytest

import volta
from volta import compiled
from volta.dispatch import Autograd, Tracing, exclude_keys, include_keys
from volta.dispatch import dispatcher as D
from volta.dispatch.local_state import LOCAL
from volta.errors import InvalidOperationError, raising_volta_errors

PY_CALL = D._PythonCallPath.__call__
PY_REDISPATCH = D._PythonCallPath.redispatch
PY_CALL_WITH_KEYSET = D._PythonCallPath.call_with_keyset


@pytest.fixture
def ns() -> Any:
    with volta.library.scoped():
        yield f"cd{uuid.uuid4().hex[:8]}"


def labelled(ns: str, keys: list[str], schema: str = "probe(Tensor x, Tensor y) -> Tensor"
             ) -> D.OperatorHandle:
    """An op whose kernel for each key in ``keys`` returns that key's name and the thread's
    excluded set while it runs."""
    handle = volta.library.define(f"{ns}::{schema}")
    for key in keys:
        def kernel(*args: Any, key: str = key) -> tuple[str, int]:
            return key, LOCAL.excluded
        volta.library.impl(handle, key, kernel)
    return handle


def both(fn_native: Any, fn_python: Any) -> tuple[Any, Any]:
    """The result (or the exception's type and message) of each call path."""
    outcomes = []
    for fn in (fn_native, fn_python):
        try:
            outcomes.append(fn())
        except Exception as error:  # compared below
            outcomes.append((type(error), str(error)))
    return outcomes[0], outcomes[1]


def test_the_compiled_path_is_installed_exactly_when_enabled() -> None:
    built = D._native is not None
    assert built == compiled.ENABLED
    if built:
        assert isinstance(volta.library.op("add"), D._native.CallPath)
        assert type(LOCAL) is D._native.LocalKeys
    else:
        assert issubclass(D.OperatorHandle, D._PythonCallPath)


def test_copies_of_an_operator_are_the_operator() -> None:
    import copy
    add = volta.library.op("add")
    holder = {"op": add}
    assert copy.copy(add) is add and copy.deepcopy(holder)["op"] is add
    x = volta.ones(2)
    assert copy.deepcopy(add)(x, x, 1).tolist() == [2.0, 2.0]


def test_key_sets_with_thread_local_sets_match_the_python_path(ns: str) -> None:
    op = labelled(ns, ["Tracing", "Autograd", "CPU"])
    x = volta.ones(2)
    w = volta.ones(2, requires_grad=True)
    guards: list[Any] = [
        lambda: include_keys(0), lambda: include_keys(Tracing.mask),
        lambda: exclude_keys(Autograd.mask), lambda: exclude_keys(Tracing.mask | Autograd.mask),
        lambda: exclude_keys(1 << 90),  # wider than 64 bits: still correct
    ]
    for guard in guards:
        for a, b in [(x, x), (x, w), (w, x), (w, w)]:
            with guard():
                native, python = both(lambda: op(a, b), lambda: PY_CALL(op, a, b))
            assert native == python
    with include_keys(Tracing.mask):
        assert op(x, x)[0] == "Tracing"
    with exclude_keys(Autograd.mask):
        assert op(w, x)[0] == "CPU"
    assert op(x, w)[0] == "Autograd"


def test_the_thread_local_sets_are_per_thread_and_read_back_unchanged() -> None:
    wide = (1 << 100) | Autograd.mask
    seen: dict[str, int] = {}
    with exclude_keys(wide):
        assert LOCAL.excluded == wide

        def other() -> None:
            seen["before"] = LOCAL.excluded
            LOCAL.included = Tracing.mask
            seen["set"] = LOCAL.included
        thread = threading.Thread(target=other)
        thread.start()
        thread.join()
        assert LOCAL.included == 0
    assert seen == {"before": 0, "set": Tracing.mask}
    assert LOCAL.excluded == 0


def test_redispatch_excludes_the_key_and_above_and_restores_on_error(ns: str) -> None:
    op = labelled(ns, ["Autograd", "CPU"])
    w = volta.ones(2, requires_grad=True)
    with include_keys(Tracing.mask):
        native, python = both(lambda: op.redispatch(Autograd, w, w),
                              lambda: PY_REDISPATCH(op, Autograd, w, w))
    assert native == python == ("CPU", Autograd.mask_and_above)
    assert LOCAL.excluded == 0

    failing = volta.library.define(f"{ns}::fails(Tensor x) -> Tensor")

    def boom(x: Any) -> Any:
        raise RuntimeError("boom")
    volta.library.impl(failing, "CPU", boom)
    with exclude_keys(1 << 70):
        for call in (failing.redispatch, lambda *a: PY_REDISPATCH(failing, *a)):
            with pytest.raises(RuntimeError, match="boom"):
                call(Autograd, w)
            assert LOCAL.excluded == 1 << 70


def test_call_with_keyset_uses_no_thread_local_set(ns: str) -> None:
    op = labelled(ns, ["Autograd", "CPU"])
    x = volta.ones(2)
    cpu = volta.library.op("add")  # any op: the CPU key's mask
    keyset = x._ks | Autograd.mask
    with exclude_keys(Autograd.mask):
        native, python = both(lambda: op.call_with_keyset(keyset, x, x),
                              lambda: PY_CALL_WITH_KEYSET(op, keyset, x, x))
    assert native == python and native[0] == "Autograd"
    assert cpu.call_with_keyset(x._ks, x, x, 1).tolist() == [2.0, 2.0]


def test_a_kernel_registered_mid_run_is_seen_by_the_next_call(ns: str) -> None:
    op = labelled(ns, ["CPU"])
    x = volta.ones(2)
    assert op(x, x)[0] == "CPU"
    for _ in range(3):  # cached now
        op(x, x)
    with volta.library.scoped():
        volta.library.impl(op, "CPU", lambda a, b: ("override", 0), override=True)
        assert op(x, x)[0] == "override"
        volta.library.impl(op, "Autograd", lambda a, b: ("autograd", 0))
        assert op(volta.ones(2, requires_grad=True), x)[0] == "autograd"
    assert op(x, x)[0] == "CPU"
    assert op(volta.ones(2, requires_grad=True), x)[0] == "CPU"


def test_a_plugin_registered_mid_run_invalidates_cached_calls(ns: str) -> None:
    op = labelled(ns, ["CPU"])
    x, w = volta.ones(2), volta.ones(2, requires_grad=True)
    for _ in range(3):  # cached: {Autograd, CPU} falls through to the CPU kernel
        assert op(w, x)[0] == "CPU"
    device_name = f"dev{ns}"

    class Plugin:
        @volta.plugins.hookimpl
        def volta_register_backends(self, registry: Any) -> None:
            from tests.conftest import HostBackend
            registry.register(device_name, HostBackend(), key_name=device_name.upper())

        @volta.plugins.hookimpl
        def volta_register_kernels(self, library: Any) -> None:
            library.impl(op, "Autograd", lambda a, b: ("plugin autograd", LOCAL.excluded))
            library.impl(op, device_name.upper(), lambda a, b: ("plugin device", 0))

    record = volta.plugins.register(Plugin(), name=f"plugin_{ns}")
    assert record.state == "loaded", record.error
    assert op(w, x)[0] == PY_CALL(op, w, x)[0] == "plugin autograd"
    assert op(x, x)[0] == "CPU"
    on_device = volta.ones(2, device=device_name)
    assert op(on_device, on_device)[0] == PY_CALL(op, on_device, on_device)[0] == "plugin device"
    native, python = both(lambda: op(on_device, x), lambda: PY_CALL(op, on_device, x))
    assert native == python and native[0] is volta.errors.DeviceMismatchError


@pytest.mark.parametrize("marked", [True, False])
def test_errors_are_translated_as_by_the_python_path(ns: str, marked: bool) -> None:
    op = volta.library.define(f"{ns}::bad(Tensor x) -> Tensor")

    def kernel(x: Any) -> Any:
        raise ValueError("raw numpy complaint")
    volta.library.impl(op, "CPU", raising_volta_errors("bad", kernel) if marked else kernel)
    x = volta.ones(2)
    caught = []
    for call in (lambda: op(x), lambda: PY_CALL(op, x), lambda: op.call_with_keyset(x._ks, x),
                 lambda: op.redispatch(Autograd, x)):
        try:
            try:
                raise KeyError("an error the caller is handling")
            except KeyError:
                call()
        except Exception as error:
            caught.append(error)
    assert len(caught) == 4
    for error in caught:
        assert type(error) is (InvalidOperationError if marked else ValueError)
        assert str(error) == str(caught[1])
        if marked:
            assert type(error.__cause__) is ValueError and error.__suppress_context__
            assert error.__context__ is error.__cause__
        else:
            assert type(error.__context__) is KeyError


def test_bad_calls_fail_as_in_python(ns: str) -> None:
    op = labelled(ns, ["CPU"])
    x = volta.ones(2)
    for native_call, python_call in [
        (lambda: op(x), lambda: PY_CALL(op, x)),                    # an argument missing
        (lambda: op(x, y=x), lambda: PY_CALL(op, x, y=x)),         # keywords
        (lambda: op(), lambda: PY_CALL(op)),
        (lambda: op.redispatch(), lambda: PY_REDISPATCH(op)),
        (lambda: op(x, 3), lambda: PY_CALL(op, x, 3)),             # a number where a Tensor is
    ]:
        native, python = both(native_call, python_call)
        assert native == python


def test_threads_calling_ops_concurrently_get_their_own_results() -> None:
    errors: list[BaseException] = []

    def work(seed: int) -> None:
        try:
            a = volta.tensor(np.full(3, float(seed), dtype=np.float32))
            w = volta.ones(3, requires_grad=True)
            for i in range(300):
                if i % 2:
                    with volta.no_grad():
                        assert (w * a).grad_fn is None
                else:
                    y = (w * a + a).sum()
                    y.backward()
                assert volta.add(a, a).tolist() == [2.0 * seed] * 3
            assert w.grad.tolist() == [150.0 * seed] * 3
            assert LOCAL.excluded == 0 and LOCAL.included == 0
        except BaseException as exc:  # surfaced in the main thread
            errors.append(exc)

    threads = [threading.Thread(target=work, args=(i + 1,)) for i in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(120)
    assert not errors, errors


def test_checked_op_functions_behave_as_python_functions() -> None:
    import copy
    import inspect
    import pickle
    import weakref

    assert pickle.loads(pickle.dumps(volta.add)) is volta.add
    assert copy.deepcopy(volta.add) is volta.add
    assert weakref.ref(volta.add)() is volta.add
    assert volta.add.__name__ == "add" and "Tensor self" in volta.add.__doc__
    assert list(inspect.signature(volta.add).parameters) == ["input", "other", "alpha"]
    assert inspect.signature(volta.add) == inspect.signature(volta.add.__wrapped__)
    assert "add" in repr(volta.add)
    p = volta.nn.Parameter(volta.ones(2))
    assert p.add(p, alpha=2).tolist() == [3.0, 3.0]           # bound on a subclass
    assert volta.Tensor.add(p, p).tolist() == [2.0, 2.0]      # through the class
    unbound = inspect.getattr_static(volta.Tensor, "add")
    assert unbound.__get__(None, volta.Tensor) is unbound


def test_checked_op_functions_raise_argument_errors_as_before() -> None:
    from volta.errors import ArgumentError, ShapeError
    a = volta.ones(2)
    cases = [
        (lambda: volta.add(a), "add() missing 1 required positional argument: 'other'"),
        (lambda: volta.add(a, a, beta=2), "add() got an unexpected keyword argument 'beta'"),
        (lambda: volta.add(a, "x"), "add(): argument 'other' (position 2) must be Tensor, "
                                    "not str"),
        (lambda: a.add(), "add() missing 1 required positional argument: 'other'"),
    ]
    for call, message in cases:
        try:
            try:
                raise KeyError("handled by the caller")
            except KeyError:
                call()
        except ArgumentError as error:
            assert str(error) == message
            assert error.__cause__ is None and error.__suppress_context__
            assert isinstance(error.__context__, TypeError)  # the error it replaced
        else:
            raise AssertionError(f"no ArgumentError for {message}")
    with pytest.raises(ShapeError, match="must match"):  # a kernel's own error stands
        volta.add(a, volta.ones(3))
