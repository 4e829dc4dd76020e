"""Samplers: the order in which a DataLoader visits a map-style dataset."""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence, Sized

import volta
from volta.errors import ArgumentError


class Sampler:
    """Yields dataset indices (or, for a batch sampler, lists of them)."""

    def __iter__(self) -> Iterator[int]:
        raise NotImplementedError

    def __len__(self) -> int:
        raise NotImplementedError


class SequentialSampler(Sampler):
    """``0, 1, ..., len(data_source) - 1``."""

    def __init__(self, data_source: Sized) -> None:
        self.data_source = data_source

    def __iter__(self) -> Iterator[int]:
        return iter(range(len(self.data_source)))

    def __len__(self) -> int:
        return len(self.data_source)


class RandomSampler(Sampler):
    """A random permutation each epoch (or ``num_samples`` draws with replacement), from
    ``generator``; without one, each epoch seeds a fresh generator from volta's global RNG, so
    ``volta.manual_seed`` makes it reproducible."""

    def __init__(self, data_source: Sized, replacement: bool = False,
                 num_samples: int | None = None, generator: volta.Generator | None = None
                 ) -> None:
        self.data_source = data_source
        self.replacement = replacement
        self._num_samples = num_samples
        self.generator = generator
        if not isinstance(self.num_samples, int) or self.num_samples <= 0:
            raise ArgumentError(f"num_samples should be a positive integer value, but got "
                                f"num_samples={self.num_samples}")

    @property
    def num_samples(self) -> int:
        return len(self.data_source) if self._num_samples is None else self._num_samples

    def __iter__(self) -> Iterator[int]:
        n = len(self.data_source)
        generator = self.generator
        if generator is None:
            generator = volta.Generator()
            generator.manual_seed(int(volta.randint(0, 2 ** 62, ()).item()))
        if self.replacement:
            yield from volta.randint(0, n, (self.num_samples,), generator=generator).tolist()
            return
        for _ in range(self.num_samples // n):
            yield from volta.randperm(n, generator=generator).tolist()
        yield from volta.randperm(n, generator=generator).tolist()[: self.num_samples % n]

    def __len__(self) -> int:
        return self.num_samples


class SubsetRandomSampler(Sampler):
    """The given indices in a random order each epoch."""

    def __init__(self, indices: list[int], generator: volta.Generator | None = None) -> None:
        self.indices = indices
        self.generator = generator

    def __iter__(self) -> Iterator[int]:
        for i in volta.randperm(len(self.indices), generator=self.generator).tolist():
            yield self.indices[i]

    def __len__(self) -> int:
        return len(self.indices)


class WeightedRandomSampler(Sampler):
    """``num_samples`` indices drawn with probabilities proportional to ``weights`` (with
    replacement by default; without, each index at most once), from ``generator`` or volta's
    global RNG."""

    def __init__(self, weights: Sequence[float] | volta.Tensor, num_samples: int,
                 replacement: bool = True, generator: volta.Generator | None = None) -> None:
        if isinstance(num_samples, bool) or not isinstance(num_samples, int) or num_samples <= 0:
            raise ArgumentError(f"num_samples should be a positive integer value, but got "
                                f"num_samples={num_samples}")
        if not isinstance(replacement, bool):
            raise ArgumentError(f"replacement should be a boolean value, but got "
                                f"replacement={replacement}")
        weights_tensor = volta.as_tensor(weights, dtype=volta.float64)
        if weights_tensor.ndim != 1:
            raise ArgumentError(f"weights should be a 1d sequence but given weights have shape "
                                f"{tuple(weights_tensor.shape)}")
        self.weights = weights_tensor
        self.num_samples = num_samples
        self.replacement = replacement
        self.generator = generator

    def __iter__(self) -> Iterator[int]:
        draws = volta.multinomial(self.weights, self.num_samples, self.replacement,
                                  generator=self.generator)
        yield from draws.tolist()

    def __len__(self) -> int:
        return self.num_samples


class BatchSampler(Sampler):
    """Groups another sampler's indices into lists of ``batch_size`` (the last one shorter
    unless ``drop_last``)."""

    def __init__(self, sampler: Iterable[int], batch_size: int, drop_last: bool) -> None:
        if isinstance(batch_size, bool) or not isinstance(batch_size, int) or batch_size <= 0:
            raise ArgumentError(f"batch_size should be a positive integer value, but got "
                                f"batch_size={batch_size}")
        self.sampler = sampler
        self.batch_size = batch_size
        self.drop_last = drop_last

    def __iter__(self) -> Iterator[list[int]]:  # type: ignore[override]
        batch: list[int] = []
        for index in self.sampler:
            batch.append(index)
            if len(batch) == self.batch_size:
                yield batch
                batch = []
        if batch and not self.drop_last:
            yield batch

    def __len__(self) -> int:
        n = len(self.sampler)  # type: ignore[arg-type]
        return n // self.batch_size if self.drop_last else -(-n // self.batch_size)
