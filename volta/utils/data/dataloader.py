"""``DataLoader``: batches from a dataset, optionally shuffled and loaded by worker threads.

Workers are threads (volta's kernels release the GIL in numpy), each with its own task queue as
PyTorch's worker processes have: batches are handed out round-robin, ``num_workers *
prefetch_factor`` of them ahead, and come back in sampler order (``in_order=True``), so a
seeded generator gives the same batches with or without workers. As in PyTorch, each worker
iterates its own iterator of an ``IterableDataset`` (:func:`get_worker_info` lets the dataset
split itself between workers)."""

from __future__ import annotations

import functools
import itertools
import queue
import threading
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any

import volta
from volta.errors import ArgumentError, VoltaError
from volta.utils.data.collate import default_collate, default_convert
from volta.utils.data.dataset import Dataset, IterableDataset
from volta.utils.data.sampler import BatchSampler, RandomSampler, Sampler, SequentialSampler


class DataLoaderTimeoutError(VoltaError, RuntimeError):
    """A worker did not deliver a batch within the DataLoader's ``timeout``."""


@dataclass(frozen=True)
class WorkerInfo:
    """What :func:`get_worker_info` returns inside a worker thread.

    Attributes:
        id: this worker's number, ``0 .. num_workers - 1``.
        num_workers: how many workers the DataLoader has.
        seed: ``base_seed + id``, where the base seed is drawn from the DataLoader's generator
            (or volta's global RNG) when the workers start. Worker threads share volta's global
            RNG, so it is not reseeded per worker: seed a ``volta.Generator`` with this instead.
        dataset: the dataset being loaded.
    """

    id: int
    num_workers: int
    seed: int
    dataset: Any


_worker_state = threading.local()


def get_worker_info() -> WorkerInfo | None:
    """This worker's :class:`WorkerInfo` inside a DataLoader worker thread, else ``None``."""
    return getattr(_worker_state, "info", None)


_EXHAUSTED = object()  # a worker's IterableDataset iterator has run out for this epoch


def _iterable_batches(stream: Iterator[Any], batch_size: int | None, drop_last: bool,
                      collate: Callable[[Any], Any]) -> Iterator[Any]:
    """The collated batches of one iterator of an IterableDataset."""
    if batch_size is None:
        for sample in stream:
            yield collate(sample)
        return
    while True:
        samples = list(itertools.islice(stream, batch_size))
        if not samples or (drop_last and len(samples) < batch_size):
            return
        yield collate(samples)


class _Workers:
    """``num_workers`` daemon threads, each reading tasks from its own queue.

    A task is ``(results, seq, epoch, load)``: the worker puts ``(seq, ok, value)`` on
    ``results`` (a queue per epoch, so the late results of an abandoned epoch go nowhere);
    ``load`` is a thunk, or ``None`` for "the next batch of your own IterableDataset iterator"
    (started afresh for each new ``epoch``).
    """

    def __init__(self, num_workers: int, dataset: Any,
                 worker_init_fn: Callable[[int], None] | None,
                 batches: Callable[[Iterator[Any]], Iterator[Any]], base_seed: int) -> None:
        # the threads hold what they need, not the DataLoader, so that an unused loader with
        # persistent workers is collected (and its __del__ stops them)
        self.queues: list[queue.SimpleQueue[Any]] = [
            queue.SimpleQueue() for _ in range(num_workers)]
        for worker_id, tasks in enumerate(self.queues):
            info = WorkerInfo(worker_id, num_workers, base_seed + worker_id, dataset)
            threading.Thread(target=_worker_loop, args=(info, tasks, worker_init_fn, batches),
                             daemon=True, name=f"volta-data-{worker_id}").start()

    def submit(self, worker_id: int, task: tuple) -> None:
        self.queues[worker_id].put(task)

    def shutdown(self) -> None:
        """Asks every worker to stop after its current task (a stuck one is left behind:
        threads cannot be killed, and they are daemons)."""
        for q in self.queues:
            q.put(None)


def _worker_loop(info: WorkerInfo, tasks: queue.SimpleQueue[Any],
                 worker_init_fn: Callable[[int], None] | None,
                 batches_of: Callable[[Iterator[Any]], Iterator[Any]]) -> None:
    """One worker thread: runs ``worker_init_fn``, then the tasks of its queue until ``None``."""
    _worker_state.info = info
    failure: BaseException | None = None
    if worker_init_fn is not None:
        try:
            worker_init_fn(info.id)
        except BaseException as error:  # reported with every batch asked of this worker
            failure = error
    epoch, batches = None, iter(())
    while (task := tasks.get()) is not None:
        results, seq, task_epoch, load = task
        try:
            if failure is not None:
                raise failure
            if load is None:
                if task_epoch != epoch:
                    epoch, batches = task_epoch, batches_of(iter(info.dataset))
                value = next(batches, _EXHAUSTED)
            else:
                value = load()
            results.put((seq, True, value))
        except BaseException as error:  # re-raised in the thread that iterates
            results.put((seq, False, error))


class DataLoader:
    """Iterate over ``dataset`` in batches (PyTorch's arguments and rules).

    Args:
        batch_size: samples per batch; ``None`` turns batching off (samples are only converted).
        shuffle: visit a map-style dataset in a new random order each epoch (from ``generator``).
        sampler / batch_sampler: custom index order / custom batches of indices.
        num_workers: worker threads (0: load in the calling thread).
        collate_fn: list of samples -> batch (default ``default_collate``).
        pin_memory, pin_memory_device: accepted for PyTorch compatibility. Pinning is for
            copies from host to an accelerator; volta's CPU tensors already are host memory and
            a device backend's upload reads them directly, so batches are returned as they are.
        drop_last: drop the last incomplete batch.
        timeout: with workers, seconds to wait for a batch before raising
            :class:`DataLoaderTimeoutError` (``0``: wait forever).
        worker_init_fn: called with the worker id (0..num_workers-1) in each worker thread
            before it loads anything (once per worker, and so only once with
            ``persistent_workers``).
        multiprocessing_context: accepted for PyTorch compatibility; workers are threads.
        generator: the RNG of the shuffling sampler and of the workers' base seed.
        prefetch_factor: batches fetched ahead per worker (default 2 with workers).
        persistent_workers: keep the worker threads (and their ``worker_init_fn`` state) from
            one epoch to the next instead of starting new ones each epoch.
        in_order: return batches in sampler order; ``False`` returns each as soon as it is
            loaded (a slow sample then does not hold back the others).
    """

    def __init__(self, dataset: Dataset[Any] | Iterable[Any], batch_size: int | None = 1,
                 shuffle: bool | None = None, sampler: Sampler | Iterable[int] | None = None,
                 batch_sampler: Iterable[Sequence[int]] | None = None, num_workers: int = 0,
                 collate_fn: Callable[[list[Any]], Any] | None = None, pin_memory: bool = False,
                 drop_last: bool = False, timeout: float = 0,
                 worker_init_fn: Callable[[int], None] | None = None,
                 multiprocessing_context: Any = None, generator: volta.Generator | None = None,
                 *, prefetch_factor: int | None = None, persistent_workers: bool = False,
                 pin_memory_device: str = "", in_order: bool = True) -> None:
        if num_workers < 0:
            raise ArgumentError("num_workers option should be non-negative; use num_workers=0 "
                                "to disable multiprocessing.")
        if timeout < 0:
            raise ArgumentError("timeout option should be non-negative")
        if num_workers == 0 and prefetch_factor is not None:
            raise ArgumentError("prefetch_factor option could only be specified in "
                                "multiprocessing. Let num_workers > 0 to enable multiprocessing, "
                                "otherwise set prefetch_factor to None.")
        if prefetch_factor is not None and prefetch_factor < 0:
            raise ArgumentError("prefetch_factor option should be non-negative")
        if persistent_workers and num_workers == 0:
            raise ArgumentError("persistent_workers option needs num_workers > 0")
        if multiprocessing_context is not None and num_workers == 0:
            raise ArgumentError("multiprocessing_context can only be used with multi-process "
                                "loading (num_workers > 0), but got num_workers=0")
        self.dataset = dataset
        self.num_workers = num_workers
        self.prefetch_factor = prefetch_factor if num_workers == 0 or prefetch_factor is not None \
            else 2
        self.pin_memory = pin_memory
        self.pin_memory_device = pin_memory_device
        self.timeout = timeout
        self.worker_init_fn = worker_init_fn
        self.multiprocessing_context = multiprocessing_context
        self.generator = generator
        self.persistent_workers = persistent_workers
        self.in_order = in_order
        self._workers: _Workers | None = None
        self._epochs = itertools.count()
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

    @property
    def _batches_of(self) -> Callable[[Iterator[Any]], Iterator[Any]]:
        """Iterator of an IterableDataset -> its batches (holding no reference to the loader)."""
        return functools.partial(_iterable_batches, batch_size=self.batch_size,
                                 drop_last=self.drop_last, collate=self.collate_fn)

    def __del__(self) -> None:
        if getattr(self, "_workers", None) is not None:
            self._workers.shutdown()  # type: ignore[union-attr]

    def _map_work(self) -> Iterator[Callable[[], Any]]:
        """One thunk per batch of a map-style dataset, in sampler order."""
        dataset: Any = self.dataset
        collate = self.collate_fn
        if self.batch_sampler is not None:
            # a dataset may fetch a whole batch at once (``__getitems__``), as in PyTorch
            fetch_batch = getattr(dataset, "__getitems__", None)
            for indices in self.batch_sampler:
                if callable(fetch_batch):
                    yield lambda indices=indices: collate(fetch_batch(list(indices)))
                else:
                    yield lambda indices=indices: collate([dataset[i] for i in indices])
        else:
            for index in self.sampler:  # type: ignore[union-attr]
                yield lambda index=index: collate(dataset[index])

    def __iter__(self) -> Iterator[Any]:
        # like PyTorch, every epoch draws the workers' base seed first (with or without
        # workers), so the shuffle order does not depend on num_workers
        base_seed = int(volta.randint(0, 2 ** 62, (), generator=self.generator).item())
        if self.num_workers == 0:
            if self._iterable:
                return self._batches_of(iter(self.dataset))  # type: ignore[arg-type]
            return (load() for load in self._map_work())
        return self._threaded(base_seed)

    def _threaded(self, base_seed: int) -> Iterator[Any]:
        workers = self._workers
        if workers is None:
            workers = _Workers(self.num_workers, self.dataset, self.worker_init_fn,
                               self._batches_of, base_seed)
            if self.persistent_workers:
                self._workers = workers
        epoch = next(self._epochs)
        results: queue.SimpleQueue[tuple[int, bool, Any]] = queue.SimpleQueue()
        tasks: Iterator[Callable[[], Any] | None] = (
            itertools.repeat(None) if self._iterable else self._map_work())
        active = list(range(self.num_workers))  # workers whose iterator has not run out
        turn, seqs = itertools.count(), itertools.count()
        sent: dict[int, int] = {}  # seq -> worker, for the batches in flight
        early: dict[int, Any] = {}  # with in_order, results that arrived before their turn
        next_seq = 0

        def send() -> None:
            for load in itertools.islice(tasks, 1 if active else 0):
                seq = next(seqs)
                sent[seq] = active[next(turn) % len(active)]
                workers.submit(sent[seq], (results, seq, epoch, load))

        try:
            for _ in range(max(1, self.num_workers * (self.prefetch_factor or 0))):
                send()
            while sent or early:
                if next_seq in early:
                    value = early.pop(next_seq)
                else:
                    seq, ok, value = self._receive(results)
                    worker = sent.pop(seq)
                    if not ok:
                        raise value
                    if value is _EXHAUSTED and worker in active:
                        active.remove(worker)
                    if self.in_order and seq != next_seq:
                        early[seq] = value
                        continue
                next_seq += 1
                send()
                if value is not _EXHAUSTED:
                    yield value
        except DataLoaderTimeoutError:
            # a worker is stuck: never reuse these threads
            self._workers = None
            workers.shutdown()
            raise
        finally:
            if workers is not self._workers:
                workers.shutdown()

    def _receive(self, results: queue.SimpleQueue[tuple[int, bool, Any]]
                 ) -> tuple[int, bool, Any]:
        try:
            return results.get(timeout=self.timeout if self.timeout > 0 else None)
        except queue.Empty:
            raise DataLoaderTimeoutError(
                f"DataLoader timed out after {self.timeout} seconds") from None
