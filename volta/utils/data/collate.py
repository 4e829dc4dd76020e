"""``default_collate``: turn a list of samples into a batch, as PyTorch does."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

import volta
from volta.errors import ArgumentError


def default_convert(data: Any) -> Any:
    """Without batching: numpy arrays and numbers become tensors, containers are walked."""
    if isinstance(data, np.ndarray):
        return volta.from_numpy(np.ascontiguousarray(data))
    if isinstance(data, np.generic):
        return volta.tensor(data.item())
    if isinstance(data, Mapping):
        return type(data)({k: default_convert(v) for k, v in data.items()})  # type: ignore[call-arg]
    if isinstance(data, tuple) and hasattr(data, "_fields"):
        return type(data)(*(default_convert(d) for d in data))
    if isinstance(data, (list, tuple)):
        return type(data)(default_convert(d) for d in data)
    return data


def default_collate(batch: Sequence[Any]) -> Any:
    """Stack tensors (and numpy arrays) along a new first dimension; numbers become 1-d
    tensors (float64 for floats, int64 for ints); strings stay lists; mappings, named tuples and
    sequences are collated field by field (plain tuples and lists come back as lists)."""
    elem = batch[0]
    if isinstance(elem, volta.Tensor):
        return volta.stack(list(batch))
    if isinstance(elem, np.ndarray):
        return volta.stack([volta.from_numpy(np.ascontiguousarray(b)) for b in batch])
    if isinstance(elem, np.generic):
        return volta.tensor([b.item() for b in batch])
    if isinstance(elem, bool):
        return volta.tensor(list(batch), dtype=volta.bool)
    if isinstance(elem, int):
        return volta.tensor(list(batch), dtype=volta.int64)
    if isinstance(elem, float):
        return volta.tensor(list(batch), dtype=volta.float64)
    if isinstance(elem, (str, bytes)):
        return list(batch)
    if isinstance(elem, Mapping):
        return type(elem)({key: default_collate([d[key] for d in batch])  # type: ignore[call-arg]
                           for key in elem})
    if isinstance(elem, tuple) and hasattr(elem, "_fields"):
        return type(elem)(*(default_collate(list(samples)) for samples in zip(*batch)))
    if isinstance(elem, Sequence):
        if any(len(b) != len(elem) for b in batch):
            raise ArgumentError("each element in list of batch should be of equal size")
        return [default_collate(list(samples)) for samples in zip(*batch)]
    raise ArgumentError(f"default_collate: batch must contain tensors, numpy arrays, numbers, "
                        f"dicts or lists; found {type(elem).__name__}")
