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
    ConcatDataset,
    Dataset,
    IterableDataset,
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
)

__all__ = ["BatchSampler", "ConcatDataset", "DataLoader", "DataLoaderTimeoutError", "Dataset",
           "IterableDataset", "WorkerInfo", "get_worker_info",
           "RandomSampler", "Sampler", "SequentialSampler", "Subset", "SubsetRandomSampler",
           "TensorDataset", "default_collate", "default_convert", "random_split"]
