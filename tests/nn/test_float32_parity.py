"""The layers added by the nn-parity work in float32 against PyTorch's float32, within
PyTorch's own float32 tolerances (``rtol=1.3e-6``, ``atol=1e-5``): outputs, input and weight
gradients, running statistics."""

from __future__ import annotations

import numpy as np
import pytest

from tests.nn.parity import layer_matches_torch

CASES = [
    ("Hardtanh", (-0.7, 0.9), {}, [(4, 5)]),
    ("SELU", (), {}, [(4, 5)]),
    ("Softmin", (1,), {}, [(3, 4)]),
    ("Softmax2d", (), {}, [(2, 3, 4, 4)]),
    ("LogSigmoid", (), {}, [(4, 5)]),
    ("Softsign", (), {}, [(4, 5)]),
    ("ReflectionPad2d", ((1, 2, 2, 0),), {}, [(2, 3, 4, 4)]),
    ("ReplicationPad3d", (1,), {}, [(1, 2, 3, 3, 3)]),
    ("CircularPad1d", ((2, 1),), {}, [(2, 3, 5)]),
    ("ConstantPad2d", (1, -0.5), {}, [(2, 3, 4)]),
    ("AdaptiveAvgPool1d", (3,), {}, [(2, 3, 8)]),
    ("AdaptiveMaxPool1d", (3,), {}, [(2, 3, 8)]),
    ("LPPool3d", (2, 2), {}, [(1, 2, 4, 4, 4)]),
    ("PixelUnshuffle", (2,), {}, [(2, 3, 4, 4)]),
    ("BatchNorm3d", (3,), {}, [(2, 3, 2, 3, 2)]),
    ("InstanceNorm1d", (3,), {"affine": True}, [(2, 3, 6)]),
    ("InstanceNorm3d", (2,), {"track_running_stats": True}, [(2, 2, 3, 2, 3)]),
    ("SyncBatchNorm", (3,), {}, [(4, 3, 5)]),
    ("CosineSimilarity", (), {}, [(4, 5), (4, 5)]),
    ("PairwiseDistance", (), {}, [(4, 5), (4, 5)]),
]


@pytest.mark.parametrize(("name", "args", "kwargs", "shapes"), CASES,
                         ids=[f"{c[0]}-{i}" for i, c in enumerate(CASES)])
def test_float32_layer_matches_torch(name: str, args: tuple, kwargs: dict,
                                     shapes: list) -> None:
    rng = np.random.default_rng(0)
    inputs = [rng.standard_normal(shape).astype(np.float32) for shape in shapes]
    layer_matches_torch(name, args, kwargs, inputs, rtol=1.3e-6, atol=1e-5, single=True)
