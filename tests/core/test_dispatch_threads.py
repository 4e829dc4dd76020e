"""The dispatcher under threads: registrations racing cache fills, and scopes racing registrations.

Note [Stale dispatch]
A *cycle* is one op call by a worker thread, checked against a registration epoch that the
mutator thread keeps while it loops ``with volta.library.scoped(): impl(op, "CPU", override)``.
The epoch counts up through four phases: 1 while the override is being installed, 2 once it is
registered, 3 while the scope is being left, 0 once the override is gone. A call that read the
same epoch before and after it ran, in phase 0 or 2, ran entirely while no registration was in
progress, so it must run the kernel registered then (the base kernel in phase 0, the override in
phase 2); any other answer is a *stale dispatch*: the dispatch cache kept a kernel that had been
replaced. The probe op's resolution sleeps briefly after reading the tables, so that cache fills
overlap registrations often (``raced_fills`` counts them) instead of once in thousands of rounds.
"""

from __future__ import annotations

import sys
import threading
import time
import uuid
from collections.abc import Iterator
from typing import Any

import pytest

import volta
from volta.backend import BACKENDS
from volta.dispatch import DISPATCHER, KEYS

BASE, OVERRIDE = "base", "override"


def base_kernel(x: Any) -> str:
    return BASE


def override_kernel(x: Any) -> str:
    return OVERRIDE


@pytest.fixture
def fast_switching() -> Iterator[None]:
    """Let the interpreter switch threads every few bytecodes, so races show up quickly."""
    saved = sys.getswitchinterval()
    sys.setswitchinterval(1e-6)
    try:
        yield
    finally:
        sys.setswitchinterval(saved)


def stress_stale_dispatch(workers: int, calls_per_worker: int, min_rounds: int) -> dict[str, Any]:
    """Run the stress of Note [Stale dispatch]: each worker makes at least ``calls_per_worker``
    calls, and keeps calling until the mutator has installed and removed the override
    ``min_rounds`` times. Returns cycles, stale dispatches (and the rounds they fell in), rounds,
    cache fills that a registration raced, and seconds. Call inside ``volta.library.scoped()``."""
    op = volta.library.define(f"s{uuid.uuid4().hex[:8]}::probe(Tensor x) -> Tensor")
    volta.library.impl(op, "CPU", base_kernel)
    resolve = op.resolve

    def resolve_then_yield(keyset: int) -> Any:
        # Widen the race window: a real thread switch between reading the tables and storing
        # the cache entry is what the race needs, and this makes it common instead of rare.
        before = epoch[0]
        resolution = resolve(keyset)
        time.sleep(2e-4)
        if epoch[0] != before:
            raced[0] += 1  # a registration ran while this cache fill was in flight
        return resolution

    op.resolve = resolve_then_yield
    x = volta.ones(1)
    epoch = [0]
    done = threading.Event()
    rounds = [0]
    raced = [0]
    stale = [0] * workers
    cycles = [0] * workers
    stale_epochs: set[int] = set()
    errors: list[BaseException] = []

    def mutate() -> None:
        try:
            while not done.is_set():
                epoch[0] += 1  # 1 (mod 4): the override is being installed
                with volta.library.scoped():
                    volta.library.impl(op, "CPU", override_kernel, override=True)
                    epoch[0] += 1  # 2: the override is registered
                    time.sleep(0)  # let the workers fill their caches with it
                    epoch[0] += 1  # 3: the override is being removed
                epoch[0] += 1  # 0: the override is gone
                rounds[0] += 1
        except BaseException as exc:  # surface failures in the main thread
            errors.append(exc)

    def work(index: int) -> None:
        count = calls = 0
        try:
            while calls < calls_per_worker or rounds[0] < min_rounds:
                calls += 1
                before = epoch[0]
                answer = op(x)
                if before == epoch[0] and before & 1 == 0:  # no registration ran during the call
                    if answer != (BASE if before & 3 == 0 else OVERRIDE):
                        count += 1
                        stale_epochs.add(before)
        except BaseException as exc:
            errors.append(exc)
        stale[index], cycles[index] = count, calls

    mutator = threading.Thread(target=mutate)
    threads = [threading.Thread(target=work, args=(i,)) for i in range(workers)]
    start = time.perf_counter()
    mutator.start()
    for t in threads:
        t.start()
    for t in threads:
        t.join(120)
    done.set()
    mutator.join(120)
    seconds = time.perf_counter() - start
    assert not errors, errors
    return {"cycles": sum(cycles), "stale": sum(stale), "stale_rounds": len(stale_epochs),
            "raced_fills": raced[0], "rounds": rounds[0],
            "seconds": seconds}


def test_no_stale_dispatch_while_overrides_come_and_go(fast_switching: None) -> None:
    with volta.library.scoped():
        result = stress_stale_dispatch(workers=4, calls_per_worker=30_000, min_rounds=300)
    assert result["cycles"] >= 120_000 and result["rounds"] >= 300, result
    assert result["raced_fills"] >= 20, result  # the race this test is about really happened
    assert result["stale"] == 0, result


# -- scopes racing registrations -------------------------------------------------------------------


def registries() -> tuple:
    """What ``scoped()`` must put back: every op's table, fallbacks, the CPU fallback switch,
    dispatch keys and backends (entries compared by identity)."""
    ops = {name: (dict(op.kernels), op.composite, op.autograd_info)
           for name, op in DISPATCHER.ops.items()}
    return (ops, dict(DISPATCHER.fallbacks), DISPATCHER.cpu_fallback_enabled,
            dict(KEYS._by_name), dict(BACKENDS._by_name))


def same_entries(a: dict, b: dict) -> bool:
    return a.keys() == b.keys() and all(a[k] is b[k] for k in b)


def assert_registries_consistent() -> None:
    """Keys: one bit each, both indexes agree, new bits above all; backends: known keys."""
    with DISPATCHER.lock:  # registrations go on in other threads: look between two of them
        by_name, by_bit = KEYS._by_name, KEYS._by_bit
        assert len(by_name) == len(by_bit)
        assert all(by_bit[key.bit] is key for key in by_name.values())
        assert KEYS._next_backend_bit > max(by_bit)
        assert len(BACKENDS._by_name) == len(BACKENDS._by_key)
        for name, info in BACKENDS._by_name.items():
            assert by_name.get(info.key.name) is info.key, name
            assert BACKENDS._by_key[info.key] is info, name


def test_scoped_restores_exactly_while_other_threads_register(fast_switching: None) -> None:
    from tests.conftest import HostBackend
    with volta.library.scoped():
        before = registries()
        before_ops, before_fallbacks, before_cpu, before_keys, before_backends = before
        errors: list[BaseException] = []
        registered = [0]
        stop = threading.Event()

        def register() -> None:
            # Permanent registrations of its own (new ops, kernels, composites, backends)
            # while the main thread's scopes come and go.
            try:
                for i in range(1000):  # bounded: every scope snapshots every op
                    if stop.is_set():
                        break
                    ns = f"r{uuid.uuid4().hex[:8]}"
                    handle = volta.library.define(f"{ns}::f(Tensor x) -> Tensor")
                    volta.library.impl(handle, "CPU", base_kernel)
                    volta.library.impl_composite(handle, override_kernel)
                    if i % 8 == 0:
                        BACKENDS.register(ns, HostBackend(), key_name=ns.upper())
                    registered[0] += 1
            except BaseException as exc:  # surface failures in the main thread
                errors.append(exc)

        threads = [threading.Thread(target=register) for _ in range(2)]
        for t in threads:
            t.start()
        for _ in range(100):
            with volta.library.scoped():
                volta.library.impl("add", "CPU", override_kernel, override=True)
                volta.library.impl_composite("positive", override_kernel, override=True)
                volta.library.register_meta("neg", override_kernel, override=True)
                volta.library.fallback("Autocast", base_kernel, override=True)
                volta.dispatch.set_cpu_fallback(False)
                BACKENDS.register(f"s{uuid.uuid4().hex[:8]}", HostBackend())
            ops, fallbacks, cpu, _, _ = registries()
            for name, (kernels, composite, info) in before_ops.items():
                assert same_entries(ops[name][0], kernels), name
                assert ops[name][1] is composite and ops[name][2] is info, name
            assert same_entries(fallbacks, before_fallbacks) and cpu is before_cpu
            assert_registries_consistent()
        stop.set()
        for t in threads:
            t.join(60)
        assert not errors, errors
        assert registered[0] >= 50  # the registrations really ran alongside the scopes
        assert volta.add(volta.ones(2), volta.ones(2)).tolist() == [2.0, 2.0]
    after = registries()
    assert after[0].keys() == before_ops.keys()
    assert all(same_entries(after[0][n][0], before_ops[n][0]) for n in before_ops)
    assert same_entries(after[1], before_fallbacks) and after[2] is before_cpu
    assert after[3] == before_keys and after[4] == before_backends
    assert_registries_consistent()


if __name__ == "__main__":  # python tests/core/test_dispatch_threads.py: print the numbers
    sys.setswitchinterval(1e-6)
    with volta.library.scoped():
        print(stress_stale_dispatch(workers=4, calls_per_worker=30_000, min_rounds=300))
