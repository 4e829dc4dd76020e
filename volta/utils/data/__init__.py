"""Data loading: datasets, samplers, ``default_collate`` and the threaded ``DataLoader``.

Everything here uses volta's public API only, so batches live on whatever device the dataset's
tensors are on."""

from volta.utils.data.collate import default_collate, default_convert
from volta.utils.data.dataloader import (
    DataLoader,
    DataLoaderTimeoutError,
    WorkerInfo,
    get_worker_info,
)
from volta.utils.data.dataset import (
    ChainDataset,
    ConcatDataset,
    Dataset,
    IterableDataset,
    StackDataset,
    Subset,
    TensorDataset,
    random_split,
)
from volta.utils.data.sampler import (
    BatchSampler,
    RandomSampler,
    Sampler,
    SequentialSampler,
    SubsetRandomSampler,
    WeightedRandomSampler,
)

__all__ = ["BatchSampler", "ChainDataset", "ConcatDataset", "DataLoader",
           "DataLoaderTimeoutError", "Dataset", "IterableDataset", "RandomSampler", "Sampler",
           "SequentialSampler", "StackDataset", "Subset", "SubsetRandomSampler", "TensorDataset",
           "WeightedRandomSampler", "WorkerInfo", "default_collate", "default_convert",
           "get_worker_info", "random_split"]
