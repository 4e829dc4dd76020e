"""The CPU backend's copy fast paths (volta/backends/cpu/strided_copy.py and the kernels that
use it) give PyTorch's values, shapes and strides, for the layouts that take them and for those
that do not."""

from __future__ import annotations

import numpy as np
import pytest
import torch

import volta
from volta.backends.cpu import strided_copy

RNG = np.random.default_rng(8)

# (shape of the row-major source, dtype): large enough for the banded copy unless noted
TRANSPOSED = [
    ((256, 1024), np.float32),
    ((1024, 256), np.float64),
    ((300, 331), np.float32),   # neither side a multiple of a band
    ((40, 2000), np.int64),     # few rows: wide bands
    ((3, 200, 70), np.float32),  # a batch of matrices
    ((16, 16), np.float32),     # too small: the plain copy
    ((0, 5000), np.float32),    # empty
]


def _source(shape: tuple[int, ...], dtype: type) -> np.ndarray:
    return (RNG.standard_normal(shape) * 100).astype(dtype)


@pytest.mark.parametrize("shape,dtype", TRANSPOSED)
def test_transpose_contiguous_matches_torch(shape, dtype):
    a = _source(shape, dtype)
    v = volta.tensor(a).transpose(-2, -1).contiguous()
    t = torch.tensor(a).transpose(-2, -1).contiguous()
    assert v.shape == t.shape and v.is_contiguous()
    if t.numel():  # strides of an empty tensor say nothing (PyTorch's differ by path)
        assert v.stride() == t.stride()
    np.testing.assert_array_equal(v.numpy(), t.numpy())


@pytest.mark.parametrize("shape,dtype", TRANSPOSED[:3])
def test_transpose_clone_and_backward_match_torch(shape, dtype):
    a = _source(shape, dtype)
    v, t = volta.tensor(a, requires_grad=True), torch.tensor(a, requires_grad=True)
    grad = _source(shape[::-1], dtype)
    v.t().clone().backward(volta.tensor(grad))
    t.t().clone().backward(torch.tensor(grad))
    assert v.grad.stride() == t.grad.stride()
    np.testing.assert_array_equal(v.grad.numpy(), t.grad.numpy())


def test_copy_into_contiguous_from_transposed():
    a, b = _source((512, 300), np.float32), _source((300, 512), np.float32)
    v, t = volta.tensor(b), torch.tensor(b)
    v.copy_(volta.tensor(a).t())
    t.copy_(torch.tensor(a).t())
    np.testing.assert_array_equal(v.numpy(), t.numpy())


def test_copy_from_own_transpose_is_not_mixed():
    # the source overlaps the destination: banding would read values it has already written
    a = _source((512, 512), np.float32)
    v, t = volta.tensor(a), torch.tensor(a)
    v.copy_(v.t())
    t.copy_(t.t().clone())  # PyTorch leaves this case undefined; the intended result
    np.testing.assert_array_equal(v.numpy(), t.numpy())


def test_copy_transposed_casts_into_out():
    a = _source((400, 300), np.float64).T
    out = np.empty(a.shape, np.float32)
    assert strided_copy.is_transposed(a)
    strided_copy.copy_transposed(a, out=out)
    np.testing.assert_array_equal(out, a.astype(np.float32))


def test_layouts_that_are_not_transposed_take_the_plain_copy():
    a = _source((512, 512), np.float32)
    assert not strided_copy.is_transposed(a)
    assert not strided_copy.is_transposed(a[:, ::2])
    assert not strided_copy.is_transposed(a.T[:, :4])  # too few columns for two bands
    assert strided_copy.is_transposed(a.T)
    v = volta.tensor(a)[:, ::2].contiguous()
    np.testing.assert_array_equal(v.numpy(), a[:, ::2])
