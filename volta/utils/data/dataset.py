"""Datasets: map-style (``Dataset``), iterable (``IterableDataset``), ``TensorDataset``,
``Subset``, ``ConcatDataset`` and ``random_split``."""

from __future__ import annotations

import bisect
import math
from collections.abc import Iterable, Iterator, Sequence
from typing import Generic, TypeVar

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
