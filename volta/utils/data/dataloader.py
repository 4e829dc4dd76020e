"""``DataLoader``: batches from a dataset, optionally shuffled and loaded by worker threads.

Workers are threads (volta's kernels release the GIL in numpy): with ``num_workers > 0`` up to
``num_workers * prefetch_factor`` batches are fetched ahead, and batches are always returned in
sampler order, so a seeded generator gives the same batches with or without workers."""

from __future__ import annotations

import itertools
import threading
from collections import deque
from collections.abc import Callable, Iterable, Iterator, Sequence
from concurrent.futures import Future, ThreadPoolExecutor
from typing import Any

import volta
from volta.errors import ArgumentError
from volta.utils.data.collate import default_collate, default_convert
from volta.utils.data.dataset import Dataset, IterableDataset
from volta.utils.data.sampler import BatchSampler, RandomSampler, Sampler, SequentialSampler


class DataLoader:
    """Iterate over ``dataset`` in batches (PyTorch's arguments and rules).

    Args:
        batch_size: samples per batch; ``None`` turns batching off (samples are only converted).
        shuffle: visit a map-style dataset in a new random order each epoch (from ``generator``).
        sampler / batch_sampler: custom index order / custom batches of indices.
        drop_last: drop the last incomplete batch.
        collate_fn: list of samples -> batch (default ``default_collate``).
        num_workers: worker threads (0: load in the calling thread).
        worker_init_fn: called with the worker id (0..num_workers-1) in each worker thread.
        prefetch_factor: batches fetched ahead per worker (default 2).
    """

    def __init__(self, dataset: Dataset[Any] | Iterable[Any], batch_size: int | None = 1,
                 shuffle: bool | None = None, sampler: Sampler | Iterable[int] | None = None,
                 batch_sampler: Iterable[Sequence[int]] | None = None, num_workers: int = 0,
                 collate_fn: Callable[[list[Any]], Any] | None = None, drop_last: bool = False,
                 worker_init_fn: Callable[[int], None] | None = None,
                 generator: volta.Generator | None = None, *,
                 prefetch_factor: int | None = None) -> None:
        if num_workers < 0:
            raise ArgumentError("num_workers option should be non-negative; use num_workers=0 "
                                "to disable multiprocessing.")
        if prefetch_factor is not None and num_workers == 0:
            raise ArgumentError("prefetch_factor option could only be specified in "
                                "multiprocessing. Let num_workers > 0 to enable multiprocessing")
        self.dataset = dataset
        self.num_workers = num_workers
        self.prefetch_factor = 2 if prefetch_factor is None else prefetch_factor
        self.worker_init_fn = worker_init_fn
        self.generator = generator
        self._iterable = isinstance(dataset, IterableDataset)
        if self._iterable:
            if shuffle:
                raise ArgumentError(f"DataLoader with IterableDataset: expected unspecified "
                                    f"shuffle option, but got shuffle={shuffle}")
            if sampler is not None or batch_sampler is not None:
                raise ArgumentError("DataLoader with IterableDataset: expected unspecified "
                                    "sampler and batch_sampler options")
        if sampler is not None and shuffle:
            raise ArgumentError("sampler option is mutually exclusive with shuffle")
        if batch_sampler is not None:
            if batch_size != 1 or shuffle or sampler is not None or drop_last:
                raise ArgumentError("batch_sampler option is mutually exclusive with "
                                    "batch_size, shuffle, sampler, and drop_last")
            batch_size = None
            drop_last = False
        elif batch_size is None and drop_last:
            raise ArgumentError("batch_size=None option disables auto-batching and is mutually "
                                "exclusive with drop_last")
        if sampler is None and not self._iterable:
            sampler = (RandomSampler(dataset, generator=generator) if shuffle  # type: ignore
                       else SequentialSampler(dataset))  # type: ignore[arg-type]
        if batch_size is not None and batch_sampler is None and not self._iterable:
            batch_sampler = BatchSampler(sampler, batch_size, drop_last)  # type: ignore[arg-type]
        self.batch_size = batch_size
        self.drop_last = drop_last
        self.sampler = sampler
        self.batch_sampler = batch_sampler
        auto_batching = batch_sampler is not None or (self._iterable and batch_size is not None)
        self.collate_fn = collate_fn or (default_collate if auto_batching else default_convert)

    def __len__(self) -> int:
        if self._iterable:
            n = len(self.dataset)  # type: ignore[arg-type]
            if self.batch_size is None:
                return n
            return n // self.batch_size if self.drop_last else -(-n // self.batch_size)
        if self.batch_sampler is not None:
            return len(self.batch_sampler)  # type: ignore[arg-type]
        return len(self.sampler)  # type: ignore[arg-type]

    # -- iteration ---------------------------------------------------------------------------

    def _work(self) -> Iterator[Callable[[], Any]]:
        """One thunk per batch, in order; calling it loads and collates that batch."""
        dataset: Any = self.dataset
        collate = self.collate_fn
        if self._iterable:
            stream = iter(dataset)
            if self.batch_size is None:
                for sample in stream:
                    yield lambda sample=sample: collate(sample)
                return
            while True:
                samples = list(itertools.islice(stream, self.batch_size))
                if not samples or (self.drop_last and len(samples) < self.batch_size):
                    return
                yield lambda samples=samples: collate(samples)
        elif self.batch_sampler is not None:
            for indices in self.batch_sampler:
                yield lambda indices=indices: collate([dataset[i] for i in indices])
        else:
            for index in self.sampler:  # type: ignore[union-attr]
                yield lambda index=index: collate(dataset[index])

    def __iter__(self) -> Iterator[Any]:
        if self.num_workers == 0:
            for load in self._work():
                yield load()
            return
        yield from self._threaded()

    def _threaded(self) -> Iterator[Any]:
        ids = itertools.count()
        lock = threading.Lock()

        def start_worker() -> None:
            with lock:
                worker_id = next(ids)
            if self.worker_init_fn is not None:
                self.worker_init_fn(worker_id)

        pool = ThreadPoolExecutor(max_workers=self.num_workers, thread_name_prefix="volta-data",
                                  initializer=start_worker)
        pending: deque[Future[Any]] = deque()
        # with an IterableDataset the stream itself is read here, in order; workers collate
        work = self._work()
        try:
            for load in itertools.islice(work, self.num_workers * self.prefetch_factor):
                pending.append(pool.submit(load))
            while pending:
                batch = pending.popleft().result()
                for load in itertools.islice(work, 1):
                    pending.append(pool.submit(load))
                yield batch
        finally:
            for future in pending:
                future.cancel()
            pool.shutdown(wait=True)
