"""Composite implementations: ops written in terms of other ops, one module per op family.

``base``       the ``composite`` decorator and the ``COMPOSITES`` table (name -> function)
``core``       pointwise math, comparisons, reductions, linear algebra
``shapes``     reshape/split/stack/..., sorting and indexing
``nn``         convolution, pooling, normalisation, dropout, losses, attention
``nn_extra``   more activations, 3-d pooling, im2col/col2im, max_unpool, margin losses
``factories``  ``*_like`` factories and in-place random fills
``optim``      the fused optimizer updates of ``volta.optim`` (reference formulation)
``views``      the view metadata ops (view, permute, select, as_strided, ...)

Importing this package fills ``COMPOSITES``; ``volta._wiring`` registers them with the
dispatcher.
"""

from __future__ import annotations

from volta.composites import core, factories, nn, nn_extra, optim, shapes, views
from volta.composites.base import COMPOSITES

__all__ = ["COMPOSITES", "core", "factories", "nn", "nn_extra", "optim", "shapes", "views"]
