"""Backward passes on several threads at once: independent graphs, and one shared leaf."""

from __future__ import annotations

import threading

import numpy as np

import volta

THREADS = 8
PASSES = 1000


def one_pass(i: int) -> list[float]:
    """A fresh little graph: leaves, a few ops, backward; returns the leaves' gradients."""
    a = volta.tensor([i * 1e-3, 1.0, -0.5], dtype=volta.float64, requires_grad=True)
    b = volta.tensor([0.25, -1.0, i * 1e-2], dtype=volta.float64, requires_grad=True)
    h = (a * b).sin() + a.exp() * 0.1
    loss = (h * h).sum() + (b ** 2).mean()
    loss.backward()
    return a.grad.tolist() + b.grad.tolist()


def run_threads(target, args_per_thread) -> list[BaseException]:
    errors: list[BaseException] = []
    start = threading.Barrier(len(args_per_thread))

    def guarded(*args):
        try:
            start.wait(30)
            target(*args)
        except BaseException as exc:  # reported by the test, not lost in the thread
            errors.append(exc)

    threads = [threading.Thread(target=guarded, args=a) for a in args_per_thread]
    for t in threads:
        t.start()
    for t in threads:
        t.join(60)
    assert not any(t.is_alive() for t in threads), "a thread hung"
    return errors


def test_independent_backward_passes_on_threads_match_serial():
    serial = [one_pass(i) for i in range(PASSES)]
    results: dict[int, list] = {}

    def worker(k: int) -> None:
        # each thread walks the passes in its own order, so graphs interleave differently
        order = list(range(PASSES))[k:] + list(range(PASSES))[:k]
        results[k] = [None] * PASSES
        for i in order:
            results[k][i] = one_pass(i)

    errors = run_threads(worker, [(k,) for k in range(THREADS)])
    assert not errors, errors
    for k in range(THREADS):
        assert results[k] == serial, f"thread {k} differs from the serial results"


def test_accumulating_into_one_shared_leaf_loses_no_update():
    n = 150
    w = volta.zeros(4, dtype=volta.float64, requires_grad=True)
    coefficients = [np.array([1.0, 2.0, -3.0, float(k)]) for k in range(THREADS)]

    def worker(k: int) -> None:
        c = volta.tensor(coefficients[k])
        for _ in range(n):
            (w * c).sum().backward()

    errors = run_threads(worker, [(k,) for k in range(THREADS)])
    assert not errors, errors
    np.testing.assert_array_equal(w.grad.numpy(), n * np.sum(coefficients, axis=0))


def test_shared_leaf_with_shared_graph_prefix_and_hooks():
    # threads backpropagate through their own graphs that all end in the same leaf, whose
    # hook counts every call
    n = 100
    w = volta.ones(3, dtype=volta.float64, requires_grad=True)
    calls = []
    lock = threading.Lock()

    def hook(g):
        with lock:
            calls.append(1)

    w.register_hook(hook)

    def worker(k: int) -> None:
        for _ in range(n):
            ((w * (k + 1)).exp() * 0 + w * 2).sum().backward()

    errors = run_threads(worker, [(k,) for k in range(THREADS)])
    assert not errors, errors
    assert len(calls) == THREADS * n
    np.testing.assert_array_equal(w.grad.numpy(), np.full(3, 2.0 * THREADS * n))


def test_grad_mode_changes_on_threads_do_not_interfere():
    n = 200
    x = volta.ones(2, requires_grad=True)
    recorded: dict[int, list[bool]] = {}

    def worker(k: int) -> None:
        out = []
        for i in range(n):
            if (i + k) % 2:
                with volta.no_grad():
                    out.append((x * 2).grad_fn is None)
            else:
                out.append((x * 2).grad_fn is not None)
        recorded[k] = out

    errors = run_threads(worker, [(k,) for k in range(THREADS)])
    assert not errors, errors
    assert all(all(v) for v in recorded.values())


def test_threads_recording_from_one_leaf_share_its_accumulate_grad_node():
    import sys
    saved = sys.getswitchinterval()
    sys.setswitchinterval(1e-6)  # switch threads often, so creating the node races
    try:
        for _ in range(100):
            w = volta.ones(2, requires_grad=True)
            nodes = []

            def worker(k: int) -> None:
                nodes.append((w * (k + 1)).grad_fn.next_functions[0][0])

            errors = run_threads(worker, [(k,) for k in range(4)])
            assert not errors, errors
            assert len({id(node) for node in nodes}) == 1
    finally:
        sys.setswitchinterval(saved)
