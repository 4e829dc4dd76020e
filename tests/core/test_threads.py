"""volta.set_num_threads / get_num_threads, and the CPU backend following them."""

from __future__ import annotations

import threading
from collections.abc import Iterator

import numpy as np
import pytest

import volta
from volta.backends.cpu import parallel


@pytest.fixture
def restore_threads() -> Iterator[None]:
    before = volta.get_num_threads()
    yield
    volta.set_num_threads(before)


def test_default_is_positive() -> None:
    assert isinstance(volta.get_num_threads(), int)
    assert volta.get_num_threads() >= 1


@pytest.mark.parametrize("count", [1, 2, 3])
def test_set_then_get(restore_threads: None, count: int) -> None:
    volta.set_num_threads(count)
    assert volta.get_num_threads() == count
    assert parallel.num_threads() == count


@pytest.mark.parametrize("bad", [0, -2])
def test_non_positive_count_is_rejected(restore_threads: None, bad: int) -> None:
    before = volta.get_num_threads()
    with pytest.raises(volta.InvalidArgumentError, match="must be positive"):
        volta.set_num_threads(bad)
    assert volta.get_num_threads() == before


@pytest.mark.parametrize("bad", [2.0, "2", True, None])
def test_non_int_count_is_rejected(restore_threads: None, bad: object) -> None:
    with pytest.raises(TypeError, match="must be int"):
        volta.set_num_threads(bad)  # type: ignore[arg-type]


@pytest.mark.parametrize("count", [1, 2])
def test_cpu_blocks_run_on_at_most_the_set_threads(restore_threads: None,
                                                   monkeypatch: pytest.MonkeyPatch,
                                                   count: int) -> None:
    monkeypatch.setattr(parallel, "BLOCK", 1000)
    monkeypatch.setattr(parallel, "PARALLEL_MIN", 2000)
    volta.set_num_threads(count)
    seen: set[str] = set()
    lock = threading.Lock()
    block_sizes: list[int] = []

    def update(x: np.ndarray, out: np.ndarray) -> None:
        with lock:
            seen.add(threading.current_thread().name)
            block_sizes.append(x.size)
        np.multiply(x, 2, out=out)

    x = np.arange(8000, dtype=np.float32)
    out = np.empty_like(x)
    parallel.for_blocks(update, [x, out], 0)
    np.testing.assert_array_equal(out, x * 2)
    assert sum(block_sizes) == x.size
    assert 1 <= len(seen) <= count
    if count == 1:
        assert seen == {threading.current_thread().name}
