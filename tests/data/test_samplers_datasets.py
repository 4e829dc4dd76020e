"""WeightedRandomSampler, BatchSampler, ConcatDataset, ChainDataset and StackDataset against
torch.utils.data: same outputs where they are deterministic, same statistics where they draw
random numbers (volta's RNG is not PyTorch's)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import numpy as np
import pytest
import torch
import torch.utils.data as tdata

import volta
import volta.utils.data as vdata
from tests.data.test_dataloader import _same

WEIGHTS = [0.1, 0.0, 0.4, 0.2, 0.3]


def _generator(seed: int) -> volta.Generator:
    generator = volta.Generator()
    generator.manual_seed(seed)
    return generator


def test_weighted_sampler_with_replacement_follows_the_weights() -> None:
    sampler = vdata.WeightedRandomSampler(WEIGHTS, 20000, generator=_generator(0))
    assert len(sampler) == 20000
    draws = list(sampler)
    assert len(draws) == 20000 and all(isinstance(i, int) for i in draws)
    counts = np.bincount(draws, minlength=len(WEIGHTS)) / len(draws)
    assert counts[1] == 0  # a zero weight is never drawn
    np.testing.assert_allclose(counts, WEIGHTS, atol=0.015)
    # the same seed gives the same draws, another seed other draws
    assert list(vdata.WeightedRandomSampler(WEIGHTS, 50, generator=_generator(0))) == draws[:50]
    assert list(vdata.WeightedRandomSampler(WEIGHTS, 50, generator=_generator(1))) != draws[:50]


def test_weighted_sampler_without_replacement_draws_each_index_once() -> None:
    weights = volta.tensor([1.0, 5.0, 0.5, 2.0, 3.0, 0.0, 4.0])
    first_positions = np.zeros(7)
    generator = _generator(0)
    for _ in range(2000):
        draws = list(vdata.WeightedRandomSampler(weights, 6, replacement=False,
                                                 generator=generator))
        assert sorted(draws) == [0, 1, 2, 3, 4, 6]  # every nonzero weight, once
        first_positions[draws[0]] += 1
    # the first draw follows the weights
    np.testing.assert_allclose(first_positions / 2000, weights.numpy() / weights.numpy().sum(),
                               atol=0.03)
    with pytest.raises(volta.VoltaError, match="without replacement"):
        list(vdata.WeightedRandomSampler(weights, 7, replacement=False))
    torch_draws = list(tdata.WeightedRandomSampler(torch.tensor(weights.numpy()), 6,
                                                   replacement=False))
    assert sorted(torch_draws) == [0, 1, 2, 3, 4, 6]


@pytest.mark.parametrize(("args", "kwargs"), [
    ((WEIGHTS, 0), {}), ((WEIGHTS, True), {}), ((WEIGHTS, 2.5), {}),
    ((WEIGHTS, 3), {"replacement": 1}), (([[0.1, 0.2]], 3), {}),
])
def test_weighted_sampler_rejects_what_torch_rejects(args: tuple, kwargs: dict) -> None:
    with pytest.raises(ValueError) as expected:
        tdata.WeightedRandomSampler(*args, **kwargs)
    with pytest.raises(volta.VoltaError, match=str(expected.value).replace("(", r"\(")
                       .replace(")", r"\)").replace("[", r"\[").replace("]", r"\]")):
        vdata.WeightedRandomSampler(*args, **kwargs)


@pytest.mark.parametrize("drop_last", [False, True])
@pytest.mark.parametrize("batch_size", [1, 3, 7, 10])
def test_batch_sampler_matches_torch(batch_size: int, drop_last: bool) -> None:
    ours = vdata.BatchSampler(vdata.SequentialSampler(range(7)), batch_size, drop_last)
    theirs = tdata.BatchSampler(tdata.SequentialSampler(range(7)), batch_size, drop_last)
    assert list(ours) == list(theirs) and len(ours) == len(theirs)
    assert list(vdata.BatchSampler(range(5), 2, drop_last)) == list(
        tdata.BatchSampler(range(5), 2, drop_last))


def _tensor_datasets(lib: Any, tensor: Any) -> list[Any]:
    return [lib.TensorDataset(tensor(np.arange(n * 2, dtype=np.float32).reshape(n, 2) + 100 * n))
            for n in (3, 1, 4)]


def test_concat_dataset_matches_torch() -> None:
    ours = vdata.ConcatDataset(_tensor_datasets(vdata, volta.tensor))
    theirs = tdata.ConcatDataset(_tensor_datasets(tdata, torch.tensor))
    assert len(ours) == len(theirs) == 8 and ours.cumulative_sizes == theirs.cumulative_sizes
    for index in [*range(8), -1, -8]:
        _same(ours[index], theirs[index])
    _same(list(vdata.DataLoader(ours, batch_size=3)), list(tdata.DataLoader(theirs, batch_size=3)))


def _streams(lib: Any) -> tuple[Any, Any]:
    class Stream(lib.IterableDataset):
        def __init__(self, start: int, stop: int) -> None:
            self.start, self.stop = start, stop

        def __iter__(self) -> Iterator[int]:
            return iter(range(self.start, self.stop))

        def __len__(self) -> int:
            return self.stop - self.start
    return Stream(0, 3), Stream(10, 14)


def test_chain_dataset_matches_torch() -> None:
    ours, theirs = vdata.ChainDataset(_streams(vdata)), tdata.ChainDataset(_streams(tdata))
    assert list(ours) == list(theirs) == [0, 1, 2, 10, 11, 12, 13]
    assert list(ours) == list(theirs)  # a second epoch restarts every stream
    assert len(ours) == len(theirs) == 7
    _same(list(vdata.DataLoader(ours, batch_size=3)), list(tdata.DataLoader(theirs, batch_size=3)))
    added = _streams(vdata)[0] + _streams(vdata)[1]  # as in PyTorch, `+` chains streams
    assert isinstance(added, vdata.ChainDataset) and list(added) == list(ours)
    broken = vdata.ChainDataset([_streams(vdata)[0], vdata.TensorDataset(volta.zeros(2))])
    with pytest.raises(volta.VoltaError, match="ChainDataset only supports IterableDataset"):
        list(broken)
    with pytest.raises(volta.VoltaError, match="ChainDataset only supports IterableDataset"):
        len(broken)


class _Batched(vdata.Dataset):
    """A dataset that fetches whole batches (``__getitems__``) and counts how it was asked."""

    def __init__(self) -> None:
        self.batch_calls = 0

    def __getitem__(self, index: int) -> int:
        return index * 10

    def __getitems__(self, indices: list[int]) -> list[int]:
        self.batch_calls += 1
        return [i * 10 for i in indices]

    def __len__(self) -> int:
        return 5


def test_stack_dataset_matches_torch() -> None:
    def build(lib: Any, tensor: Any, by_name: bool) -> Any:
        images = lib.TensorDataset(tensor(np.arange(10, dtype=np.float32).reshape(5, 2)))
        labels = lib.TensorDataset(tensor(np.arange(5, dtype=np.int64)))
        if by_name:
            return lib.StackDataset(image=images, label=labels)
        return lib.StackDataset(images, labels)

    for by_name in (False, True):
        ours, theirs = build(vdata, volta.tensor, by_name), build(tdata, torch.tensor, by_name)
        assert len(ours) == len(theirs) == 5
        for index in range(5):
            _same(ours[index], theirs[index])
        _same(ours.__getitems__([4, 0, 2]), theirs.__getitems__([4, 0, 2]))
        _same(list(vdata.DataLoader(ours, batch_size=2)),
              list(tdata.DataLoader(theirs, batch_size=2)))


def test_stack_dataset_fetches_batches_of_its_parts_and_checks_sizes() -> None:
    part = _Batched()
    stacked = vdata.StackDataset(a=part, b=vdata.TensorDataset(volta.arange(5)))
    batches = list(vdata.DataLoader(stacked, batch_size=2))
    assert part.batch_calls == 3
    assert batches[0]["a"].tolist() == [0, 10]
    assert [b.tolist() for b in batches[0]["b"]] == [[0, 1]]
    with pytest.raises(volta.VoltaError, match="Size mismatch between datasets"):
        vdata.StackDataset(part, vdata.TensorDataset(volta.arange(4)))
    with pytest.raises(volta.VoltaError, match="both types are given"):
        vdata.StackDataset(part, b=part)
    with pytest.raises(volta.VoltaError, match="At least one dataset"):
        vdata.StackDataset()


def test_default_collate_and_convert_are_exported_like_torch() -> None:
    sample = {"x": np.arange(3.0), "n": 2, "name": "a"}
    _same(vdata.default_collate([sample, sample]), tdata.default_collate([sample, sample]))
    _same(vdata.default_convert(sample), tdata.default_convert(sample))
    assert vdata.default_convert(sample)["name"] == "a"
