"""``tensor[index]`` and ``tensor[index] = value`` against PyTorch on many index kinds:
ints, slices, None, Ellipsis, bool masks, integer tensors, lists and their combinations."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
import torch

import volta
from volta import IndexOutOfRangeError


def _base(lib: Any) -> Any:
    return lib.arange(120.0).view(2, 3, 4, 5)


def _idx_tensor(lib: Any, data: Any, dtype: str = "int64") -> Any:
    return lib.tensor(data, dtype=getattr(lib, dtype))


# Each case builds the index for one library, so tensors in it are of that library.
CASES: dict[str, Any] = {
    "int": lambda lib: 1,
    "neg_int": lambda lib: -1,
    "two_ints": lambda lib: (1, 2),
    "all_ints": lambda lib: (1, 2, 3, 4),
    "neg_ints": lambda lib: (-2, -3, -4, -5),
    "slice": lambda lib: slice(1, None),
    "slice_step": lambda lib: (slice(None), slice(None, None, 2)),
    "slice_neg": lambda lib: (slice(-1, None), slice(-3, -1)),
    "slice_neg_step_start": lambda lib: (Ellipsis, slice(-4, None, 3)),
    "slice_out_of_range": lambda lib: (slice(0, 100), slice(-100, 2)),
    "slice_empty": lambda lib: (slice(None), slice(2, 1)),
    "none": lambda lib: None,
    "none_mid": lambda lib: (0, None, slice(None), None),
    "ellipsis": lambda lib: Ellipsis,
    "ellipsis_int": lambda lib: (Ellipsis, 2),
    "int_ellipsis_int": lambda lib: (1, Ellipsis, 0),
    "ellipsis_none": lambda lib: (Ellipsis, None),
    "empty_tuple": lambda lib: (),
    "mixed_basic": lambda lib: (1, slice(None, None, 2), None, Ellipsis, -1),
    "int_tensor_0d": lambda lib: _idx_tensor(lib, 1),
    "list": lambda lib: [1, 0, 1],
    "list_neg": lambda lib: [-1, 0],
    "int_tensor": lambda lib: _idx_tensor(lib, [1, 0]),
    "int_tensor_2d": lambda lib: _idx_tensor(lib, [[0, 1], [1, 1]]),
    "int_tensor_dim1": lambda lib: (slice(None), _idx_tensor(lib, [2, 0, 2])),
    "int32_tensor": lambda lib: (slice(None), _idx_tensor(lib, [2, 0], "int32")),
    "two_adv_adjacent": lambda lib: (_idx_tensor(lib, [0, 1, 1]), _idx_tensor(lib, [2, 0, 1])),
    "two_adv_broadcast": lambda lib: (_idx_tensor(lib, [[0], [1]]), _idx_tensor(lib, [0, 2])),
    "adv_then_slice": lambda lib: (_idx_tensor(lib, [1, 0]), slice(1, 3)),
    "slice_then_adv": lambda lib: (slice(None), slice(None), _idx_tensor(lib, [3, 1])),
    "adv_separated_by_slice": lambda lib: (_idx_tensor(lib, [0, 1]), slice(None),
                                           _idx_tensor(lib, [1, 2])),
    "adv_separated_by_int": lambda lib: (_idx_tensor(lib, [0, 1]), 1, slice(None),
                                         _idx_tensor(lib, [1, 2])),
    "adv_with_ellipsis": lambda lib: (Ellipsis, _idx_tensor(lib, [0, 4])),
    "adv_with_none": lambda lib: (None, _idx_tensor(lib, [1, 0]), None),
    "adv_after_slices_adjacent": lambda lib: (slice(None), _idx_tensor(lib, [0, 2]),
                                              _idx_tensor(lib, [1, 3])),
    "int_and_adv": lambda lib: (1, _idx_tensor(lib, [0, 2])),
    "bool_mask_full": lambda lib: _base(lib) > 60,
    "bool_mask_first": lambda lib: _idx_tensor(lib, [True, False], "bool"),
    "bool_mask_2d": lambda lib: _idx_tensor(lib, [[True, False, True], [False, False, True]],
                                            "bool"),
    "bool_mask_mid": lambda lib: (slice(None), _idx_tensor(lib, [False, True, True], "bool")),
    "bool_mask_all_false": lambda lib: _idx_tensor(lib, [False, False], "bool"),
    "bool_mask_and_int": lambda lib: (_idx_tensor(lib, [True, False], "bool"), 2),
    "bool_mask_and_adv": lambda lib: (_idx_tensor(lib, [True, True], "bool"),
                                      _idx_tensor(lib, [0, 2])),
    "bool_mask_ellipsis": lambda lib: (Ellipsis, _idx_tensor(lib, [True, False, True, False,
                                                                   True], "bool")),
    "python_true": lambda lib: True,
    "python_false": lambda lib: False,
    "bool_0d_tensor": lambda lib: _idx_tensor(lib, True, "bool"),
    "numpy_int": lambda lib: np.int64(1),
    "numpy_array": lambda lib: (slice(None), np.array([0, 2])),
    "list_of_lists": lambda lib: ([[0, 1]], [[2, 0]]),
    # full slices are skipped by the int/slice fast path
    "full_slices_only": lambda lib: (slice(None), slice(None)),
    "full_slice_then_int": lambda lib: (slice(None), 1),
    "int_full_slice_int": lambda lib: (1, slice(None), 2),
    "full_slice_between_slices": lambda lib: (slice(1, None), slice(None), slice(None, None, 2)),
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_getitem_matches_torch(name: str) -> None:
    vb, tb = _base(volta), _base(torch)
    got, want = vb[CASES[name](volta)], tb[CASES[name](torch)]
    assert tuple(got.shape) == tuple(want.shape)
    assert got.dtype is volta.float32
    np.testing.assert_array_equal(got.numpy(), want.numpy())
    # basic indexing gives views, advanced indexing copies; same as torch
    torch_shares = want.untyped_storage().data_ptr() == tb.untyped_storage().data_ptr()
    assert (got.untyped_storage() is vb.untyped_storage()) == torch_shares
    if torch_shares:
        assert got.stride() == want.stride()
        assert got.storage_offset() == want.storage_offset()


@pytest.mark.parametrize("name", sorted(CASES))
def test_getitem_on_non_contiguous_base(name: str) -> None:
    vb = volta.arange(240.0).view(5, 8, 3, 2).permute(3, 2, 1, 0)[:, :, 1::2]
    tb = torch.arange(240.0).view(5, 8, 3, 2).permute(3, 2, 1, 0)[:, :, 1::2]
    assert tuple(vb.shape) == (2, 3, 4, 5) and not vb.is_contiguous()
    index_v, index_t = CASES[name](volta), CASES[name](torch)
    if name == "bool_mask_full":  # the mask must have the base's shape
        index_v, index_t = vb > 60, tb > 60
    got, want = vb[index_v], tb[index_t]
    assert tuple(got.shape) == tuple(want.shape)
    np.testing.assert_array_equal(got.numpy(), want.numpy())


@pytest.mark.parametrize("dt", ["int64", "bool", "float16", "int8", "bfloat16"])
def test_getitem_keeps_dtype(dt: str) -> None:
    v = volta.arange(6).view(2, 3).to(getattr(volta, dt))
    t = torch.arange(6).view(2, 3).to(getattr(torch, dt))
    for index in [(0,), (slice(None), [0, 2]), (Ellipsis, 1)]:
        got, want = v[index], t[index]
        assert got.dtype is v.dtype
        assert got.tolist() == want.tolist()


def test_getitem_zero_dim_tensor() -> None:
    v, t = volta.tensor(5.0), torch.tensor(5.0)
    for index in [(), Ellipsis, None, (None, None), True, False, (None, True), (True, None)]:
        got, want = v[index], t[index]
        assert tuple(got.shape) == tuple(want.shape)
        assert got.tolist() == want.tolist()
    with pytest.raises(IndexOutOfRangeError):
        v[0]


def test_index_with_tensor_scalar_int_is_a_view() -> None:
    v = volta.arange(6.0)
    r = v[volta.tensor(2)]
    assert r.shape == () and r.item() == 2.0
    assert r.untyped_storage() is v.untyped_storage()


# ------------------------------------------------------------------------------- errors


@pytest.mark.parametrize("index", [3, -4, (0, 4), (0, -5), (Ellipsis, 7), (1, 1, 0)])
def test_out_of_range_int_raises(index: Any) -> None:
    v = volta.zeros(3, 4)
    with pytest.raises(IndexError):
        torch.zeros(3, 4)[index]
    with pytest.raises(IndexOutOfRangeError):
        v[index]
    with pytest.raises(IndexOutOfRangeError):
        v[index] = 1.0
    assert v._version == 0


def test_out_of_range_tensor_index_raises() -> None:
    v = volta.zeros(3, 4)
    with pytest.raises(IndexError):
        torch.zeros(3, 4)[torch.tensor([0, 3])]
    with pytest.raises(IndexOutOfRangeError):
        v[volta.tensor([0, 3])]
    with pytest.raises(IndexOutOfRangeError):
        v[:, volta.tensor([-5])]
    with pytest.raises(IndexOutOfRangeError):
        v[[0, 3]] = 1.0
    assert v.sum().item() == 0.0


def test_bad_index_types_raise() -> None:
    v = volta.zeros(3)
    with pytest.raises(IndexError):
        v[1.5]
    with pytest.raises(IndexError):
        v["a"]
    with pytest.raises(IndexError):
        v[volta.tensor([0.0, 1.0])]


def test_mask_shape_mismatch_raises() -> None:
    with pytest.raises(IndexError):
        torch.zeros(3, 4)[torch.tensor([True, False])]
    with pytest.raises(IndexOutOfRangeError):
        volta.zeros(3, 4)[volta.tensor([True, False])]


def test_slice_step_must_be_positive() -> None:
    with pytest.raises(ValueError):
        torch.zeros(3)[::-1]
    with pytest.raises(IndexError):
        volta.zeros(3)[::-1]
    with pytest.raises(IndexError):
        volta.zeros(3)[::0]


# ------------------------------------------------------------------------------- setitem


SET_INDICES: dict[str, Any] = {
    k: CASES[k] for k in [
        "int", "neg_int", "two_ints", "all_ints", "slice", "slice_step", "slice_neg",
        "slice_empty", "none_mid", "ellipsis", "ellipsis_int", "mixed_basic", "int_tensor_0d",
        "list", "int_tensor", "int_tensor_2d", "int_tensor_dim1", "two_adv_adjacent",
        "two_adv_broadcast", "adv_then_slice", "slice_then_adv", "adv_separated_by_slice",
        "adv_with_ellipsis", "int_and_adv", "bool_mask_full", "bool_mask_first",
        "bool_mask_2d", "bool_mask_mid", "bool_mask_all_false", "bool_mask_and_int",
        "python_true", "numpy_array",
    ]
}


@pytest.mark.parametrize("value", ["float", "int", "bool", "0d_tensor"])
@pytest.mark.parametrize("name", sorted(SET_INDICES))
def test_setitem_scalar_matches_torch(name: str, value: str) -> None:
    vb, tb = _base(volta), _base(torch)
    scalar = {"float": -1.5, "int": 7, "bool": True, "0d_tensor": None}[value]
    vv = volta.tensor(-3.0) if scalar is None else scalar
    tv = torch.tensor(-3.0) if scalar is None else scalar
    vb[SET_INDICES[name](volta)] = vv
    tb[SET_INDICES[name](torch)] = tv
    np.testing.assert_array_equal(vb.numpy(), tb.numpy())


@pytest.mark.parametrize("name", sorted(SET_INDICES))
def test_setitem_broadcast_tensor_matches_torch(name: str) -> None:
    vb, tb = _base(volta), _base(torch)
    shape = tuple(tb[SET_INDICES[name](torch)].shape)
    # a value with the last dim only (broadcasts), and one with the full indexed shape
    for full in (False, True):
        vb, tb = _base(volta), _base(torch)
        vshape = shape if full else shape[-1:]
        n = int(np.prod(vshape))
        vb[SET_INDICES[name](volta)] = -volta.arange(float(n)).view(vshape) - 1
        tb[SET_INDICES[name](torch)] = -torch.arange(float(n)).view(vshape) - 1
        np.testing.assert_array_equal(vb.numpy(), tb.numpy())


def test_setitem_casts_value_to_tensor_dtype() -> None:
    v, t = volta.zeros(5, dtype=volta.int64), torch.zeros(5, dtype=torch.int64)
    v[1] = 2.7
    t[1] = 2.7
    v[2:4] = volta.tensor([3.9, -1.2])
    t[2:4] = torch.tensor([3.9, -1.2])
    v[[4]] = -2.5
    t[[4]] = -2.5
    assert v.tolist() == t.tolist()
    assert v.dtype is volta.int64


def test_setitem_mask_with_value_tensor() -> None:
    v, t = volta.arange(6.0), torch.arange(6.0)
    v[v > 2] = volta.tensor([10.0, 20.0, 30.0])
    t[t > 2] = torch.tensor([10.0, 20.0, 30.0])
    assert v.tolist() == t.tolist()


def test_setitem_duplicate_indices_last_wins_is_not_accumulate() -> None:
    v = volta.zeros(3)
    v[[0, 0, 1]] = 1.0
    assert v.tolist() == [1.0, 1.0, 0.0]


def test_setitem_through_view_writes_base() -> None:
    v = volta.zeros(3, 4)
    col = v[:, 1]
    col[[0, 2]] = 5.0
    row = v.t()[2]
    row[::2] = volta.tensor([1.0, 2.0])
    t = torch.zeros(3, 4)
    t[:, 1][[0, 2]] = 5.0
    t.t()[2][::2] = torch.tensor([1.0, 2.0])
    assert v.tolist() == t.tolist()


def test_setitem_bumps_version_once_and_shared() -> None:
    v = volta.zeros(3, 4)
    view = v[1:]
    for i, index in enumerate([0, (slice(None), 1), [0, 2], v > 5, (Ellipsis, 0)], start=1):
        v[index] = 1.0
        assert v._version == view._version == i


def test_setitem_shape_mismatch_raises_and_leaves_tensor() -> None:
    v = volta.zeros(3, 4)
    with pytest.raises(RuntimeError):
        torch.zeros(3, 4)[0] = torch.ones(3)
    with pytest.raises(ValueError):
        v[0] = volta.ones(3)
    with pytest.raises(ValueError):
        v[[0, 1]] = volta.ones(2, 3)
    assert v.sum().item() == 0.0


def test_setitem_on_zero_dim() -> None:
    v = volta.tensor(1.0)
    v[()] = 4.0
    assert v.item() == 4.0
    v[...] = volta.tensor(2.5)
    assert v.item() == 2.5


def test_getitem_autograd_flows_back() -> None:
    v = volta.arange(6.0).view(2, 3).requires_grad_()
    t = torch.arange(6.0).view(2, 3).requires_grad_()
    for x in (v, t):
        (x[1, [0, 2]].sum() * 2 + x[:, 1].sum() + x[x > 3].sum()).backward()
    np.testing.assert_array_equal(v.grad.numpy(), t.grad.numpy())


def test_full_slices_give_a_new_view_object() -> None:
    """x[:, :] skips both slices but must not hand back ``x`` itself (as PyTorch)."""
    x = volta.zeros(2, 3)
    for index in ((slice(None), slice(None)), (slice(None),), slice(None)):
        got = x[index]
        assert got is not x and got.untyped_storage() is x.untyped_storage()
        assert tuple(got.shape) == (2, 3) and got._base is x


def test_long_tensor_index_fast_path_matches_torch_with_autograd() -> None:
    v = volta.arange(6.0).view(3, 2).requires_grad_()
    t = torch.arange(6.0).view(3, 2).requires_grad_()
    vi, ti = volta.tensor([2, 0, 2]), torch.tensor([2, 0, 2])
    got, want = v[vi], t[ti]
    np.testing.assert_array_equal(got.detach().numpy(), want.detach().numpy())
    (got * volta.arange(6.0).view(3, 2)).sum().backward()
    (want * torch.arange(6.0).view(3, 2)).sum().backward()
    np.testing.assert_array_equal(v.grad.numpy(), t.grad.numpy())
    with pytest.raises(IndexOutOfRangeError):
        v[volta.tensor([3])]
