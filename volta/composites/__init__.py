"""Composite implementations: ops written in terms of other ops, one module per op family.

``base``       the ``composite`` decorator and the ``COMPOSITES`` table (name -> function)
``core``       pointwise math, comparisons, reductions, linear algebra
``linalg``     volta.linalg and the matrix ops built on the decomposition kernels
``shapes``     reshape/split/stack/..., sorting and indexing
``shape_ops``  tensor_split, rot90, diff, the ``*_copy`` and ``*_scatter`` ops, take/put, index_*
``nn``         convolution, pooling, normalisation, dropout, losses, attention
``nn_extra``   more activations, 3-d pooling, im2col/col2im, max_unpool, margin losses
``factories``  ``*_like`` factories and in-place random fills
``special_math`` special functions, real cases of complex ops, quantiles, more random fills
``resize``     resize_ and resize_as_ (in-place sizes; the storage grows when needed)
``optim``      the fused optimizer updates of ``volta.optim`` (reference formulation)
``optim_extra`` the same for Adadelta, Adamax, NAdam, RAdam, ASGD and Rprop
``views``      the view metadata ops (view, permute, select, as_strided, ...)

Importing this package fills ``COMPOSITES``; ``volta._wiring`` registers them with the
dispatcher.
"""

from __future__ import annotations

from volta.composites import (
    core,
    factories,
    linalg,
    nn,
    nn_extra,
    optim,
    optim_extra,
    resize,
    shape_ops,
    shapes,
    special_math,
    views,
)
from volta.composites.base import COMPOSITES

__all__ = ["COMPOSITES", "core", "factories", "linalg", "nn", "nn_extra", "optim", "optim_extra",
           "resize", "shape_ops", "shapes", "special_math", "views"]
