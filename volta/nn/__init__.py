"""``volta.nn``: neural-network building blocks. Layers call only volta ops, so they run on
every backend (plugin backends included)."""

from volta.nn import functional, init, parallel, utils
from volta.nn.modules import *  # noqa: F403 - the layers are this package's API
from volta.nn.modules import __all__ as _modules_all
from volta.nn.modules.module import RemovableHandle
from volta.nn.parallel import DataParallel
from volta.nn.parameter import (
    Buffer,
    Parameter,
    UninitializedBuffer,
    UninitializedParameter,
)

__all__ = ["functional", "init", "parallel", "utils", "DataParallel", "Parameter", "Buffer",
           "UninitializedParameter", "UninitializedBuffer", "RemovableHandle", *_modules_all]
