"""volta.utils.data against torch.utils.data: batching, drop_last, collate, samplers, splits,
and deterministic shuffling with a seeded generator, with and without worker threads."""

from __future__ import annotations

import sys
import threading
from collections import namedtuple
from collections.abc import Iterator

import numpy as np
import pytest
import torch
import torch.utils.data as tdata

import volta
import volta.utils.data as vdata

N = 23
X = np.arange(N * 3, dtype=np.float32).reshape(N, 3)
Y = np.arange(N, dtype=np.int64) % 5


def _datasets() -> tuple[vdata.TensorDataset, tdata.TensorDataset]:
    return (vdata.TensorDataset(volta.from_numpy(X), volta.from_numpy(Y)),
            tdata.TensorDataset(torch.from_numpy(X), torch.from_numpy(Y)))


def _as_numpy(batch: object) -> object:
    if isinstance(batch, (volta.Tensor, torch.Tensor)):
        return batch.numpy()
    if isinstance(batch, dict):
        return {k: _as_numpy(v) for k, v in batch.items()}
    if isinstance(batch, (list, tuple)):
        return [_as_numpy(b) for b in batch]
    return batch


def _same(ours: object, theirs: object) -> None:
    a, b = _as_numpy(ours), _as_numpy(theirs)
    if isinstance(a, dict):
        assert a.keys() == b.keys()  # type: ignore[union-attr]
        for k in a:
            _same(a[k], b[k])  # type: ignore[index]
    elif isinstance(a, list):
        assert len(a) == len(b)  # type: ignore[arg-type]
        for x, y in zip(a, b, strict=True):  # type: ignore[call-overload]
            _same(x, y)
    else:
        assert np.asarray(a).dtype == np.asarray(b).dtype
        np.testing.assert_array_equal(a, b)


@pytest.mark.parametrize("num_workers", [0, 3])
@pytest.mark.parametrize(("batch_size", "drop_last"), [(1, False), (4, False), (4, True),
                                                       (23, True), (30, False), (30, True)])
def test_batches_match_torch(batch_size: int, drop_last: bool, num_workers: int) -> None:
    vds, tds = _datasets()
    ours = vdata.DataLoader(vds, batch_size=batch_size, drop_last=drop_last,
                            num_workers=num_workers)
    theirs = tdata.DataLoader(tds, batch_size=batch_size, drop_last=drop_last)
    assert len(ours) == len(theirs)
    batches = list(ours)
    assert len(batches) == len(theirs)
    for a, b in zip(batches, theirs, strict=True):
        _same(a, b)


Point = namedtuple("Point", ["x", "label"])
SAMPLES = {
    "dicts": [{"x": np.full(2, i, np.float32), "n": i, "f": i / 2, "name": f"s{i}"}
              for i in range(5)],
    "tuples": [(np.full((2, 2), i, np.float64), i, True) for i in range(5)],
    "namedtuples": [Point(np.full(3, i, np.int32), float(i)) for i in range(5)],
    "nested": [{"pair": (np.float32(i), [i, i + 1])} for i in range(5)],
}


@pytest.mark.parametrize("kind", list(SAMPLES))
def test_default_collate_matches_torch(kind: str) -> None:
    samples = SAMPLES[kind]
    ours = list(vdata.DataLoader(samples, batch_size=2))
    theirs = list(tdata.DataLoader(samples, batch_size=2))
    for a, b in zip(ours, theirs, strict=True):
        assert type(a) is type(b) or (isinstance(a, list) and isinstance(b, list))
        _same(a, b)


def test_tensor_samples_stack_and_custom_collate() -> None:
    samples = [volta.full((2, 3), float(i)) for i in range(4)]
    (batch,) = list(vdata.DataLoader(samples, batch_size=4))
    assert tuple(batch.shape) == (4, 2, 3)
    lengths = list(vdata.DataLoader(samples, batch_size=3, collate_fn=len))
    assert lengths == [3, 1]
    unbatched = list(vdata.DataLoader(range(3), batch_size=None))
    assert unbatched == [0, 1, 2]


def _epoch_order(loader: vdata.DataLoader) -> list[int]:
    return [int(v) for _, labels in loader for v in labels.tolist()]


@pytest.mark.parametrize("num_workers", [0, 2])
def test_shuffle_is_a_permutation_and_deterministic_with_a_seed(num_workers: int) -> None:
    vds = vdata.TensorDataset(volta.arange(N), volta.arange(N))

    def loader(seed: int) -> vdata.DataLoader:
        generator = volta.Generator()
        generator.manual_seed(seed)
        return vdata.DataLoader(vds, batch_size=5, shuffle=True, generator=generator,
                                num_workers=num_workers)

    first, again, other = loader(0), loader(0), loader(1)
    epochs = [_epoch_order(first) for _ in range(2)]
    assert sorted(epochs[0]) == list(range(N))
    assert epochs[0] != epochs[1]  # a new order every epoch
    assert epochs == [_epoch_order(again) for _ in range(2)]
    assert epochs[0] != _epoch_order(other)
    sequential = loader(0)
    sequential.num_workers = 0
    assert [_epoch_order(sequential) for _ in range(2)] == epochs  # workers change nothing


def test_shuffle_without_generator_follows_the_global_seed() -> None:
    vds = vdata.TensorDataset(volta.arange(N), volta.arange(N))
    volta.manual_seed(7)
    a = _epoch_order(vdata.DataLoader(vds, batch_size=4, shuffle=True))
    volta.manual_seed(7)
    b = _epoch_order(vdata.DataLoader(vds, batch_size=4, shuffle=True))
    assert a == b and sorted(a) == list(range(N))


def test_workers_run_in_threads_with_init_fn_and_keep_order() -> None:
    seen: list[int] = []
    threads: set[int] = set()

    class Slow(vdata.Dataset):
        def __getitem__(self, index: int) -> int:
            threads.add(threading.get_ident())
            # later samples finish first: the order must still be the sampler's
            threading.Event().wait(0.002 * (N - index))
            return index

        def __len__(self) -> int:
            return N

    loader = vdata.DataLoader(Slow(), batch_size=3, num_workers=3, worker_init_fn=seen.append,
                              prefetch_factor=2)
    flat = [i for batch in loader for i in batch.tolist()]
    assert flat == list(range(N))
    assert sorted(seen) == [0, 1, 2]
    assert threading.get_ident() not in threads


class Stream(vdata.IterableDataset):
    def __init__(self, n: int) -> None:
        self.n = n

    def __iter__(self) -> Iterator[dict[str, volta.Tensor]]:
        for i in range(self.n):
            yield {"x": volta.full((2,), float(i)), "i": i}

    def __len__(self) -> int:
        return self.n


@pytest.mark.parametrize("drop_last", [False, True])
def test_iterable_dataset_batches(drop_last: bool) -> None:
    loader = vdata.DataLoader(Stream(10), batch_size=4, drop_last=drop_last)
    batches = list(loader)
    assert len(batches) == len(loader) == (2 if drop_last else 3)
    assert batches[0]["i"].tolist() == [0, 1, 2, 3]
    assert tuple(batches[1]["x"].shape) == (4, 2)
    with pytest.raises(volta.errors.ArgumentError, match="shuffle"):
        vdata.DataLoader(Stream(3), shuffle=True)


def _range_stream(data: object, n: int, shard: bool) -> object:
    """An IterableDataset of 0..n-1 for ``data`` (torch.utils.data or volta.utils.data) that,
    with ``shard``, splits itself between the workers with ``get_worker_info``."""

    class RangeStream(data.IterableDataset):  # type: ignore[name-defined,misc]
        def __iter__(self) -> Iterator[int]:
            info = data.get_worker_info()  # type: ignore[attr-defined]
            if not shard or info is None:
                return iter(range(n))
            return iter(range(info.id, n, info.num_workers))

    return RangeStream()


@pytest.mark.filterwarnings("ignore:This DataLoader will create")  # torch: more than 2 cores
@pytest.mark.parametrize("shard", [False, True])
@pytest.mark.parametrize("num_workers,batch_size,drop_last", [
    (2, 4, False), (3, 2, True), (2, None, False), (4, 3, False)])
def test_iterable_dataset_with_workers_matches_torch(shard: bool, num_workers: int,
                                                     batch_size: int | None,
                                                     drop_last: bool) -> None:
    """Each worker iterates the dataset itself (duplicates unless it shards), and batches come
    round-robin from the workers that still have data, exactly as PyTorch's worker processes."""

    def batches(data: object) -> list:
        loader = data.DataLoader(_range_stream(data, 11, shard), batch_size=batch_size,
                                 num_workers=num_workers, drop_last=drop_last)
        return [b.tolist() if hasattr(b, "tolist") else b for b in loader]

    assert batches(vdata) == batches(tdata)


def test_get_worker_info_in_workers_only() -> None:
    seen: list[vdata.WorkerInfo] = []
    lock = threading.Lock()

    class Record(vdata.Dataset):
        def __getitem__(self, index: int) -> int:
            info = vdata.get_worker_info()
            with lock:
                seen.append(info)
            return index

        def __len__(self) -> int:
            return 12

    dataset = Record()
    assert vdata.get_worker_info() is None
    list(vdata.DataLoader(dataset, batch_size=2))
    assert seen == [None] * 12
    seen.clear()

    def seeds(seed: int) -> dict[int, int]:
        seen.clear()
        generator = volta.Generator()
        generator.manual_seed(seed)
        list(vdata.DataLoader(dataset, batch_size=2, num_workers=3, generator=generator))
        assert {info.num_workers for info in seen} == {3}
        assert all(info.dataset is dataset for info in seen)
        by_id = {info.id: info.seed for info in seen}
        assert sorted(by_id) == [0, 1, 2]  # batches go round-robin to every worker
        base = by_id[0]
        assert by_id == {i: base + i for i in range(3)}
        return by_id

    assert seeds(0) == seeds(0) != seeds(1)
    with pytest.raises(AttributeError):
        seen[0].id = 5  # frozen, as PyTorch's
    assert vdata.get_worker_info() is None


class Sleepy(vdata.Dataset):
    """Sample ``i`` takes ``delays.get(i, 0)`` seconds."""

    def __init__(self, n: int, delays: dict[int, float]) -> None:
        self.n, self.delays = n, delays

    def __getitem__(self, index: int) -> int:
        threading.Event().wait(self.delays.get(index, 0.0))
        return index

    def __len__(self) -> int:
        return self.n


def test_timeout_raises_clear_error_and_loader_recovers() -> None:
    loader = vdata.DataLoader(Sleepy(6, {4: 1.0}), batch_size=2, num_workers=2, timeout=0.2,
                              persistent_workers=True)
    got = []
    with pytest.raises(vdata.DataLoaderTimeoutError,
                       match=r"DataLoader timed out after 0.2 seconds") as err:
        for batch in loader:
            got.append(batch.tolist())
    assert isinstance(err.value, RuntimeError) and isinstance(err.value, volta.VoltaError)
    assert got == [[0, 1], [2, 3]]  # the batches before the slow one were delivered
    loader.dataset = Sleepy(6, {})
    assert [b.tolist() for b in loader] == [[0, 1], [2, 3], [4, 5]]  # fresh workers
    # no timeout without workers (as PyTorch), and a generous one does not fire
    assert len(list(vdata.DataLoader(Sleepy(2, {1: 0.3}), timeout=0.1))) == 2
    assert len(list(vdata.DataLoader(Sleepy(4, {1: 0.05}), num_workers=2, timeout=5))) == 4


@pytest.mark.parametrize("persistent", [False, True])
def test_persistent_workers_are_reused_across_epochs(persistent: bool) -> None:
    inits: list[tuple[int, int]] = []
    loaders: list[set[int]] = []

    class Where(vdata.Dataset):
        def __getitem__(self, index: int) -> int:
            loaders[-1].add(threading.get_ident())
            return index

        def __len__(self) -> int:
            return 9

    def init(worker_id: int) -> None:
        inits.append((worker_id, threading.get_ident()))

    loader = vdata.DataLoader(Where(), batch_size=2, num_workers=2, worker_init_fn=init,
                              persistent_workers=persistent, prefetch_factor=1)
    for _ in range(3):
        loaders.append(set())
        assert [i for b in loader for i in b.tolist()] == list(range(9))
    threads = {ident for _, ident in inits}
    if persistent:
        assert sorted(w for w, _ in inits) == [0, 1]  # worker_init_fn once per worker
        assert loaders[0] == loaders[1] == loaders[2] == threads
    else:
        assert sorted(w for w, _ in inits) == [0, 0, 0, 1, 1, 1]  # new workers every epoch


def test_persistent_workers_stop_when_the_loader_is_dropped() -> None:
    import gc
    before = set(threading.enumerate())
    loader = vdata.DataLoader(Sleepy(6, {}), batch_size=2, num_workers=2,
                              persistent_workers=True)
    assert len(list(loader)) == 3 and len(list(loader)) == 3
    workers = [t for t in threading.enumerate() if t not in before]
    assert len(workers) == 2 and all(t.is_alive() for t in workers)
    del loader
    gc.collect()
    for thread in workers:
        thread.join(timeout=5)
        assert not thread.is_alive()


def test_in_order_false_returns_batches_as_they_are_ready() -> None:
    dataset = Sleepy(8, {0: 0.3})
    ordered = [b.tolist() for b in vdata.DataLoader(dataset, batch_size=2, num_workers=2)]
    assert ordered == [[0, 1], [2, 3], [4, 5], [6, 7]]
    loose = [b.tolist() for b in vdata.DataLoader(dataset, batch_size=2, num_workers=2,
                                                   in_order=False)]
    assert loose[0] != [0, 1] and sorted(loose) == ordered


@pytest.mark.parametrize("num_workers,prefetch_factor", [(1, 1), (2, 3), (3, 1)])
def test_workers_and_prefetch_give_the_same_seeded_batches(num_workers: int,
                                                          prefetch_factor: int) -> None:
    vds = vdata.TensorDataset(volta.arange(N), volta.arange(N))

    def epochs(**kwargs: object) -> list[list[int]]:
        generator = volta.Generator()
        generator.manual_seed(3)
        loader = vdata.DataLoader(vds, batch_size=4, shuffle=True, generator=generator,
                                  **kwargs)
        return [_epoch_order(loader) for _ in range(3)]

    assert epochs() == epochs(num_workers=num_workers, prefetch_factor=prefetch_factor,
                              persistent_workers=True)


def test_worker_errors_reach_the_caller() -> None:
    class Broken(vdata.Dataset):
        def __getitem__(self, index: int) -> int:
            if index == 5:
                raise KeyError(f"bad sample {index}")
            return index

        def __len__(self) -> int:
            return 8

    with pytest.raises(KeyError, match="bad sample 5"):
        list(vdata.DataLoader(Broken(), batch_size=2, num_workers=2))

    def failing_init(worker_id: int) -> None:
        raise ValueError(f"init {worker_id} failed")

    with pytest.raises(ValueError, match="init . failed"):
        list(vdata.DataLoader(Broken(), batch_size=2, num_workers=2,
                              worker_init_fn=failing_init))


def test_pin_memory_and_signature_match_torch() -> None:
    import inspect
    assert (list(inspect.signature(vdata.DataLoader).parameters)
            == list(inspect.signature(tdata.DataLoader).parameters))
    vds, tds = _datasets()
    pinned = vdata.DataLoader(vds, batch_size=5, pin_memory=True, pin_memory_device="cpu")
    assert pinned.pin_memory and pinned.pin_memory_device == "cpu"
    for ours, theirs in zip(pinned, tdata.DataLoader(tds, batch_size=5)):
        _same(ours, theirs)
    assert vdata.DataLoader(vds, num_workers=2).prefetch_factor == 2
    for kwargs in (dict(timeout=-1), dict(persistent_workers=True),
                   dict(num_workers=2, prefetch_factor=-1), dict(prefetch_factor=2),
                   dict(multiprocessing_context="fork")):
        with pytest.raises(ValueError):
            tdata.DataLoader(tds, **kwargs)
        with pytest.raises(volta.errors.ArgumentError):
            vdata.DataLoader(vds, **kwargs)


def test_samplers_and_argument_rules() -> None:
    vds, _ = _datasets()
    batches = list(vdata.BatchSampler(vdata.SequentialSampler(range(7)), 3, drop_last=False))
    assert batches == [[0, 1, 2], [3, 4, 5], [6]]
    assert list(tdata.BatchSampler(tdata.SequentialSampler(range(7)), 3, False)) == batches
    generator = volta.Generator()
    generator.manual_seed(0)
    drawn = list(vdata.RandomSampler(range(5), replacement=True, num_samples=12,
                                     generator=generator))
    assert len(drawn) == 12 and set(drawn) <= set(range(5))
    more = list(vdata.RandomSampler(range(5), num_samples=12, generator=generator))
    assert sorted(more[:10]) == sorted(list(range(5)) * 2) and len(more) == 12
    loader = vdata.DataLoader(vds, batch_sampler=[[0, 2], [5]])
    assert [b[1].tolist() for b in loader] == [[0, 2], [0]]
    for kwargs in (dict(batch_sampler=[[0]], batch_size=2), dict(sampler=[0], shuffle=True),
                   dict(batch_size=None, drop_last=True)):
        with pytest.raises(volta.errors.ArgumentError):
            vdata.DataLoader(vds, **kwargs)


@pytest.mark.parametrize("lengths", [[10, 13], [0.3, 0.3, 0.4], [0.5, 0.5], [1.0]])
def test_random_split_sizes_match_torch(lengths: list) -> None:
    vds, tds = _datasets()
    generator = volta.Generator()
    generator.manual_seed(0)
    ours = vdata.random_split(vds, lengths, generator=generator)
    theirs = tdata.random_split(tds, lengths, generator=torch.Generator().manual_seed(0))
    assert [len(s) for s in ours] == [len(s) for s in theirs]
    indices = sorted(i for s in ours for i in s.indices)
    assert indices == list(range(N))  # disjoint and complete
    first = ours[0][0]
    np.testing.assert_array_equal(first[0].numpy(), X[ours[0].indices[0]])
    with pytest.raises(volta.errors.ArgumentError, match="Sum of input lengths"):
        vdata.random_split(vds, [5, 5])


def test_subset_and_concat() -> None:
    vds, _ = _datasets()
    sub = vdata.Subset(vds, [4, 1])
    assert len(sub) == 2 and int(sub[1][1].item()) == 1
    both = sub + sub
    assert len(both) == 4 and int(both[3][1].item()) == 1 and int(both[-2][1].item()) == 4


def test_tensor_dataset_checks_sizes() -> None:
    with pytest.raises(volta.errors.ShapeError, match="Size mismatch"):
        vdata.TensorDataset(volta.zeros(3), volta.zeros(4))


def test_digits_without_scikit_learn_is_a_clear_error(monkeypatch: pytest.MonkeyPatch) -> None:
    import volta.datasets
    monkeypatch.setitem(sys.modules, "sklearn.datasets", None)
    with pytest.raises(volta.errors.VoltaError, match=r"volta\[demo\]"):
        volta.datasets.digits()
