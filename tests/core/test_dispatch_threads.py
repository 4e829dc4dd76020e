"""The dispatcher under threads: registrations racing cache fills, and scopes racing registrations.

Note [Stale dispatch]
A *cycle* is one op call by a worker thread, checked against a registration epoch that the
mutator thread keeps: the epoch is made odd just before an override kernel is installed and even
again once the ``volta.library.scoped()`` block that installed it has been left (the override is
gone). A call that read the same even epoch before and after it ran began after a removal had
completed and ended before the next install began, so it must run the base kernel; if it runs the
override, the dispatch cache kept a kernel that is no longer registered: a *stale dispatch*.
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
from volta.device import BACKENDS
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


def stress_stale_dispatch(workers: int, calls_per_worker: int) -> dict[str, Any]:
    """Run the stress of Note [Stale dispatch]; returns cycles, stale dispatches, install/remove
    rounds of the mutator and seconds. Call inside ``volta.library.scoped()``."""
    op = volta.library.define(f"s{uuid.uuid4().hex[:8]}::probe(Tensor x) -> Tensor")
    volta.library.impl(op, "CPU", base_kernel)
    resolve = op.resolve

    def resolve_then_yield(keyset: int) -> Any:
        # Widen the race window: a real thread switch between reading the tables and storing
        # the cache entry is what the race needs, and this makes it common instead of rare.
        resolution = resolve(keyset)
        time.sleep(2e-4)
        return resolution

    op.resolve = resolve_then_yield
    x = volta.ones(1)
    epoch = [0]
    done = threading.Event()
    rounds = [0]
    stale = [0] * workers
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
        count = 0
        try:
            for _ in range(calls_per_worker):
                before = epoch[0]
                answer = op(x)
                if before == epoch[0] and before & 1 == 0:  # no registration ran during the call
                    if answer != (BASE if before & 3 == 0 else OVERRIDE):
                        count += 1
                        stale_epochs.add(before)
        except BaseException as exc:
            errors.append(exc)
        stale[index] = count

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
    return {"cycles": workers * calls_per_worker, "stale": sum(stale),
            "stale_epochs": len(stale_epochs), "rounds": rounds[0],
            "seconds": seconds}


def test_no_stale_dispatch_while_overrides_come_and_go(fast_switching: None) -> None:
    with volta.library.scoped():
        result = stress_stale_dispatch(workers=4, calls_per_worker=30_000)
    assert result["rounds"] > 100, result  # the mutator really raced the workers
    assert result["stale"] == 0, result


if __name__ == "__main__":  # python tests/core/test_dispatch_threads.py: print the numbers
    sys.setswitchinterval(1e-6)
    with volta.library.scoped():
        print(stress_stale_dispatch(workers=4, calls_per_worker=int(sys.argv[1])
                                    if len(sys.argv) > 1 else 30_000))
