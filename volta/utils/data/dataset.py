"""Datasets: map-style (``Dataset``), iterable (``IterableDataset``), ``TensorDataset``,
``Subset``, ``ConcatDataset``, ``ChainDataset``, ``StackDataset`` and ``random_split``."""

from __future__ import annotations

import bisect
import math
from collections.abc import Iterable, Iterator, Sequence
from typing import Any, Generic, TypeVar

import volta
from volta.errors import ArgumentError, ShapeError

T_co = TypeVar("T_co", covariant=True)


class Dataset(Generic[T_co]):
    """A map-style dataset: ``__getitem__(index)`` and, for samplers, ``__len__``."""

    def __getitem__(self, index: int) -> T_co:
        raise NotImplementedError(f"{type(self).__name__} must implement __getitem__")

    def __add__(self, other: Dataset[T_co]) -> ConcatDataset[T_co]:
        return ConcatDataset([self, other])


class IterableDataset(Dataset[T_co]):
    """A dataset that is a stream: ``__iter__`` yields the samples."""

    def __iter__(self) -> Iterator[T_co]:
        raise NotImplementedError(f"{type(self).__name__} must implement __iter__")

    def __add__(self, other: Dataset[T_co]) -> ChainDataset[T_co]:  # type: ignore[override]
        return ChainDataset([self, other])


class TensorDataset(Dataset[tuple[volta.Tensor, ...]]):
    """Samples are ``tuple(t[index] for t in tensors)``; all tensors share their first size."""

    def __init__(self, *tensors: volta.Tensor) -> None:
        if not tensors:
            raise ArgumentError("TensorDataset needs at least one tensor")
        if any(t.ndim == 0 or t.shape[0] != tensors[0].shape[0] for t in tensors):
            raise ShapeError("Size mismatch between tensors: every tensor must have the same "
                             f"first dimension, got shapes {[list(t.shape) for t in tensors]}")
        self.tensors = tensors

    def __getitem__(self, index: int) -> tuple[volta.Tensor, ...]:
        return tuple(t[index] for t in self.tensors)

    def __len__(self) -> int:
        return self.tensors[0].shape[0]


class Subset(Dataset[T_co]):
    """The samples of ``dataset`` at ``indices``."""

    def __init__(self, dataset: Dataset[T_co], indices: Sequence[int]) -> None:
        self.dataset = dataset
        self.indices = indices

    def __getitem__(self, index: int) -> T_co:
        return self.dataset[self.indices[index]]

    def __len__(self) -> int:
        return len(self.indices)


class ConcatDataset(Dataset[T_co]):
    """Several map-style datasets one after another."""

    def __init__(self, datasets: Iterable[Dataset[T_co]]) -> None:
        self.datasets = list(datasets)
        if not self.datasets:
            raise ArgumentError("datasets should not be an empty iterable")
        if any(isinstance(d, IterableDataset) for d in self.datasets):
            raise ArgumentError("ConcatDataset does not support IterableDataset")
        self.cumulative_sizes: list[int] = []
        total = 0
        for d in self.datasets:
            total += len(d)  # type: ignore[arg-type]
            self.cumulative_sizes.append(total)

    def __len__(self) -> int:
        return self.cumulative_sizes[-1]

    def __getitem__(self, index: int) -> T_co:
        if index < 0:
            if -index > len(self):
                raise volta.IndexOutOfRangeError(
                    "absolute value of index should not exceed dataset length")
            index += len(self)
        which = bisect.bisect_right(self.cumulative_sizes, index)
        start = self.cumulative_sizes[which - 1] if which > 0 else 0
        return self.datasets[which][index - start]


class ChainDataset(IterableDataset[T_co]):
    """Several iterable datasets streamed one after another (chained lazily, each epoch)."""

    def __init__(self, datasets: Iterable[Dataset[T_co]]) -> None:
        super().__init__()
        self.datasets = datasets

    def _checked(self) -> Iterator[IterableDataset[T_co]]:
        for dataset in self.datasets:
            if not isinstance(dataset, IterableDataset):
                raise ArgumentError("ChainDataset only supports IterableDataset")
            yield dataset

    def __iter__(self) -> Iterator[T_co]:
        for dataset in self._checked():
            yield from dataset

    def __len__(self) -> int:
        return sum(len(dataset) for dataset in self._checked())  # type: ignore[arg-type]


class StackDataset(Dataset[Any]):
    """Datasets of equal length side by side: sample ``i`` is the tuple of their samples ``i``
    (datasets given positionally) or the dict of them (datasets given by keyword)."""

    def __init__(self, *args: Dataset[Any], **kwargs: Dataset[Any]) -> None:
        if args and kwargs:
            raise ArgumentError("Supported either ``tuple``- (via ``args``) or``dict``- (via "
                                "``kwargs``) like input/output, but both types are given.")
        if not args and not kwargs:
            raise ArgumentError("At least one dataset should be passed")
        parts = list(args) or list(kwargs.values())
        self._length: int = len(parts[0])  # type: ignore[arg-type]
        if any(len(dataset) != self._length for dataset in parts):  # type: ignore[arg-type]
            raise ShapeError("Size mismatch between datasets")
        self.datasets: tuple[Dataset[Any], ...] | dict[str, Dataset[Any]] = args or kwargs

    def __getitem__(self, index: int) -> tuple[Any, ...] | dict[str, Any]:
        if isinstance(self.datasets, dict):
            return {key: dataset[index] for key, dataset in self.datasets.items()}
        return tuple(dataset[index] for dataset in self.datasets)

    def __getitems__(self, indices: list[int]) -> list[Any]:
        """The samples at ``indices``, each dataset asked for the whole batch at once when it
        can (``__getitems__``)."""
        named = isinstance(self.datasets, dict)
        parts = self.datasets.items() if named else enumerate(self.datasets)  # type: ignore[union-attr]
        samples: list[dict[Any, Any]] = [{} for _ in indices]
        for key, dataset in parts:
            fetch = getattr(dataset, "__getitems__", None)
            if callable(fetch):
                items = fetch(indices)
                if len(items) != len(indices):
                    raise ShapeError(f"Nested dataset's output size mismatch. Expected "
                                     f"{len(indices)}, got {len(items)}")
            else:
                items = [dataset[i] for i in indices]
            for sample, item in zip(samples, items, strict=True):
                sample[key] = item
        if named:
            return samples
        return [tuple(sample.values()) for sample in samples]

    def __len__(self) -> int:
        return self._length


def random_split(dataset: Dataset[T_co], lengths: Sequence[int | float],
                 generator: volta.Generator | None = None) -> list[Subset[T_co]]:
    """Split ``dataset`` into non-overlapping random subsets of the given lengths, or of the
    given fractions of its length (the remainder goes one by one to the first subsets)."""
    total = len(dataset)  # type: ignore[arg-type]
    if math.isclose(sum(lengths), 1) and sum(lengths) <= 1:
        if any(x < 0 or x > 1 for x in lengths):
            raise ArgumentError("Fractions must be between 0 and 1")
        sizes = [math.floor(total * frac) for frac in lengths]
        for i in range(total - sum(sizes)):
            sizes[i % len(sizes)] += 1
    else:
        sizes = [int(x) for x in lengths]
    if any(n < 0 for n in sizes):
        raise ArgumentError(f"lengths must be non-negative, got {list(lengths)}")
    if sum(sizes) != total:
        raise ArgumentError(
            "Sum of input lengths does not equal the length of the input "
            "dataset!")
    order = volta.randperm(total, generator=generator).tolist()
    subsets, offset = [], 0
    for n in sizes:
        subsets.append(Subset(dataset, order[offset:offset + n]))
        offset += n
    return subsets
