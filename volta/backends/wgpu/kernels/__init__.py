"""WGPU kernels by op name (registered under the ``WGPU`` key by ``plugin.py``)."""

from __future__ import annotations

from typing import Any

from volta.backends.wgpu.kernels import (
    composed,
    copy,
    indexing,
    nn,
    optim,
    pointwise,
    pool,
    reduce,
)

KERNELS: dict[str, Any] = {**copy.KERNELS, **pointwise.KERNELS, **reduce.KERNELS,
                           **optim.KERNELS, **nn.KERNELS, **indexing.KERNELS,
                           **composed.KERNELS, **pool.KERNELS}
