"""Small bundled datasets for demos and tests.

``digits()`` reads scikit-learn's copy of the UCI handwritten digits (1797 8x8 images, no
download); scikit-learn comes with volta's optional ``demo`` extra: ``pip install volta[demo]``.
"""

from __future__ import annotations

import importlib

import volta
from volta.errors import VoltaError

__all__ = ["digits"]


def digits(dtype: volta.dtype = volta.float32) -> tuple[volta.Tensor, volta.Tensor]:
    """The handwritten digits as ``(images, labels)``: images of shape ``(1797, 1, 8, 8)``
    scaled to ``[0, 1]`` in ``dtype``, labels ``int64`` in ``0..9``."""
    try:
        sklearn_datasets = importlib.import_module("sklearn.datasets")
    except ImportError as error:
        raise VoltaError("volta.datasets.digits() needs scikit-learn, which volta's optional "
                         "'demo' extra installs: pip install 'volta[demo]'") from error
    bunch = sklearn_datasets.load_digits()
    images = volta.from_numpy(bunch.images / 16.0).to(dtype=dtype).unsqueeze(1)
    labels = volta.from_numpy(bunch.target).to(dtype=volta.int64)
    return images, labels
