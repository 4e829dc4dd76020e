"""Property test: the ops that make a copy (or a new tensor like another) give it the strides
PyTorch gives it, for any layout of the source: transposed, permuted, sliced with steps, broadcast
(expanded), with size-1 and empty dims. PyTorch's default for all of them is preserve_format: a
dense source keeps its memory order of dims, any other becomes contiguous."""

from __future__ import annotations

import numpy as np
import torch
from hypothesis import given, settings
from hypothesis import strategies as st

import volta


@st.composite
def layouts(draw: st.DrawFn) -> tuple:
    """(shape, permutation, (dim, step) or None, dim to expand or None)."""
    ndim = draw(st.integers(1, 4))
    shape = tuple(draw(st.lists(st.integers(0, 4), min_size=ndim, max_size=ndim)))
    perm = tuple(draw(st.permutations(range(ndim))))
    step = draw(st.none() | st.tuples(st.integers(0, ndim - 1), st.integers(2, 3)))
    expand = draw(st.none() | st.integers(0, ndim - 1))
    return shape, perm, step, expand


def build(lib, layout: tuple, **device: str):
    """The layout's tensor, holding 0, 1, 2, ... in its row-major source."""
    shape, perm, step, expand = layout
    if expand is not None:
        shape = shape[:expand] + (1,) + shape[expand + 1:]
    t = lib.arange(float(np.prod(shape)), **device).reshape(shape).permute(*perm)
    if step is not None:
        dim, by = step
        index = [slice(None)] * t.dim()
        index[dim] = slice(None, None, by)
        t = t[tuple(index)]
    if expand is not None:
        target = list(t.shape)
        target[perm.index(expand)] = 3
        t = t.expand(*target)
    return t


COPIES = {
    "clone()": lambda t, m: t.clone(),
    "clone(preserve_format)": lambda t, m: t.clone(memory_format=m.preserve_format),
    "clone(contiguous_format)": lambda t, m: t.clone(memory_format=m.contiguous_format),
    "contiguous()": lambda t, m: t.contiguous(),
    "to(float64)": lambda t, m: t.to(m.float64),
    "double()": lambda t, m: t.double(),
    "to(int32)": lambda t, m: t.to(m.int32),
    "half()": lambda t, m: t.half(),
    "zeros_like": lambda t, m: m.zeros_like(t),
    "ones_like": lambda t, m: m.ones_like(t),
    "full_like": lambda t, m: m.full_like(t, 2.0),
    "empty_like": lambda t, m: m.empty_like(t),
    "rand_like": lambda t, m: m.rand_like(t),
}
RANDOM_VALUES = {"empty_like", "rand_like"}


@settings(max_examples=60, deadline=None)
@given(layout=layouts())
def test_copies_get_pytorchs_strides(layout: tuple) -> None:
    source_v, source_t = build(volta, layout), build(torch, layout)
    assert source_v.stride() == source_t.stride()
    for name, make in COPIES.items():
        got, expected = make(source_v, volta), make(source_t, torch)
        assert got.stride() == expected.stride(), (name, layout)
        if name not in RANDOM_VALUES:
            assert got.tolist() == expected.tolist(), (name, layout)
