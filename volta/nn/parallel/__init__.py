"""``volta.nn.parallel``: PyTorch's ``DataParallel`` wrapper (see its note on what it does in
volta)."""

from volta.nn.parallel.data_parallel import DataParallel

__all__ = ["DataParallel"]
