"""WGPU kernels by op name (registered under the ``WGPU`` key by ``plugin.py``).

``matmul.py`` and ``conv.py`` generate the tiled GEMM and implicit-GEMM convolution WGSL (with
``harness.py`` to run one generated kernel on a raw device, for tests and benchmarks)."""

from __future__ import annotations

from typing import Any

from volta.backends.wgpu.kernels import (
    attention,
    composed,
    conv_ops,
    copy,
    indexing,
    linalg,
    linalg_decomp,
    nn,
    optim,
    pointwise,
    pool,
    recurrent,
    reduce,
    rows,
    scatter_reduce,
    shaping,
    sort,
    special,
    statistics,
)

KERNELS: dict[str, Any] = {**copy.KERNELS, **pointwise.KERNELS, **reduce.KERNELS,
                           **optim.KERNELS, **nn.KERNELS, **indexing.KERNELS,
                           **composed.KERNELS, **pool.KERNELS, **linalg.KERNELS,
                           **linalg_decomp.KERNELS,
                           **conv_ops.KERNELS, **rows.KERNELS, **sort.KERNELS,
                           **shaping.KERNELS,
                           **attention.KERNELS, **recurrent.KERNELS,
                           **statistics.KERNELS, **scatter_reduce.KERNELS,
                           **special.KERNELS}
