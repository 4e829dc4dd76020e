"""Zero-copy views: every view op shares storage with its input, writes are visible both
ways, and sizes, strides, offsets and values equal PyTorch's."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
import pytest
import torch

import volta
from volta import IndexOutOfRangeError, ShapeError

# base layouts a view can start from: contiguous, transposed, strided slice with an offset
BASES: dict[str, Callable[[Any], Any]] = {
    "contiguous": lambda lib: lib.arange(60.0).view(3, 4, 5),
    "permuted": lambda lib: lib.arange(60.0).view(5, 4, 3).permute(2, 1, 0),
    "sliced": lambda lib: lib.arange(120.0).view(6, 4, 5)[1::2],
}

# views valid on a (3, 4, 5) tensor of any layout
VIEWS: dict[str, Callable[[Any], Any]] = {
    "transpose01": lambda x: x.transpose(0, 1),
    "transpose_neg": lambda x: x.transpose(-1, -3),
    "permute": lambda x: x.permute(2, 0, 1),
    "permute_neg": lambda x: x.permute(-1, -2, -3),
    "slice_step": lambda x: x[:, 1::2],
    "slice_neg": lambda x: x[-2:, :-1, -3:],
    "slice_empty": lambda x: x[:, 3:1],
    "slice_big": lambda x: x[:, -100:100],
    "select": lambda x: x.select(1, 2),
    "select_neg": lambda x: x.select(-1, -1),
    "int_index": lambda x: x[1],
    "int_index_neg": lambda x: x[-1, -2],
    "narrow": lambda x: x.narrow(2, 1, 3),
    "narrow_neg": lambda x: x.narrow(-1, -3, 2),
    "unsqueeze0": lambda x: x.unsqueeze(0),
    "unsqueeze_last": lambda x: x.unsqueeze(-1),
    "unsqueeze_mid": lambda x: x.unsqueeze(2),
    "squeeze_after_unsqueeze": lambda x: x.unsqueeze(1).squeeze(1),
    "squeeze_all": lambda x: x[:, :1, 2:3].squeeze(),
    "squeeze_noop": lambda x: x.squeeze(0),
    "squeeze_tuple": lambda x: x[:1, :, :1].squeeze((0, 2)),
    "expand": lambda x: x[:, :1].expand(3, 6, 5),
    "expand_new_dims": lambda x: x[0, 0].expand(2, 3, 5),
    "expand_minus1": lambda x: x[:, :1].expand(-1, 4, -1),
    "expand_as": lambda x: x[:1].expand_as(x),
    "unfold": lambda x: x.unfold(2, 2, 1),
    "unfold_step": lambda x: x.unfold(1, 2, 2),
    "unfold_dim0": lambda x: x.unfold(0, 3, 1),
    "diagonal": lambda x: x.diagonal(),
    "diagonal_offset": lambda x: x.diagonal(1, 1, 2),
    "diagonal_neg_offset": lambda x: x.diagonal(-1, 2, 0),
    "diagonal_empty": lambda x: x.diagonal(10, 1, 2),
    "movedim": lambda x: x.movedim(0, -1),
    "movedim_list": lambda x: x.movedim((0, 1), (2, 0)),
    "mT": lambda x: x.mT,
    "flatten_last2": lambda x: x.flatten(1),
    "unflatten": lambda x: x.unflatten(2, (5, 1)),
    "unflatten_minus1": lambda x: x[:, :2].unflatten(1, (-1, 2)),
    "chain": lambda x: x.transpose(0, 2)[1:, ::2].unsqueeze(0)[0, -1],
    "t_of_select": lambda x: x[0].t(),
    "alias": lambda x: x[...],
}


def _check_same_layout(v: volta.Tensor, t: torch.Tensor) -> None:
    assert tuple(v.shape) == tuple(t.shape)
    assert v.stride() == t.stride()
    assert v.storage_offset() == t.storage_offset()
    assert v.is_contiguous() == t.is_contiguous()
    np.testing.assert_array_equal(v.numpy(), t.numpy())


def _overlaps(t: torch.Tensor) -> bool:
    """Whether two elements of ``t`` address the same memory."""
    index = np.zeros(tuple(t.shape), dtype=np.int64)
    for d, (n, s) in enumerate(zip(t.shape, t.stride())):
        index = index + (np.arange(n) * s).reshape((-1,) + (1,) * (t.dim() - d - 1))
    return len(np.unique(index)) != index.size


def _shares(view: volta.Tensor, base: volta.Tensor) -> bool:
    return view.untyped_storage() is base.untyped_storage()


@pytest.mark.parametrize("base", sorted(BASES))
@pytest.mark.parametrize("name", sorted(VIEWS))
def test_view_matches_torch_and_shares_storage(base: str, name: str) -> None:
    vb, tb = BASES[base](volta), BASES[base](torch)
    _check_same_layout(vb, tb)
    f = VIEWS[name]
    try:
        tv = f(tb)
    except RuntimeError:
        # torch refuses flatten/unflatten here only when a copy would be needed; so must we
        return
    vv = f(vb)
    _check_same_layout(vv, tv)
    assert _shares(vv, vb) == (tv.untyped_storage().data_ptr() == tb.untyped_storage().data_ptr())
    assert vv._version == vb._version


@pytest.mark.parametrize("name", sorted(VIEWS))
def test_writes_through_view_reach_base(name: str) -> None:
    vb, tb = BASES["contiguous"](volta), BASES["contiguous"](torch)
    f = VIEWS[name]
    tv, vv = f(tb), f(vb)
    if _overlaps(tv):
        return  # in-place ops on self-overlapping memory are undefined (torch refuses some)
    before = vb._version
    tv.mul_(-1).add_(0.5)
    vv.mul_(-1).add_(0.5)
    np.testing.assert_array_equal(vb.numpy(), tb.numpy())
    assert vb._version > before
    assert vv._version == vb._version


@pytest.mark.parametrize("name", sorted(VIEWS))
def test_writes_to_base_reach_view(name: str) -> None:
    vb, tb = BASES["contiguous"](volta), BASES["contiguous"](torch)
    f = VIEWS[name]
    tv, vv = f(tb), f(vb)
    tb.mul_(2).sub_(7)
    vb.mul_(2).sub_(7)
    np.testing.assert_array_equal(vv.numpy(), tv.numpy())
    vb[...] = -1.0
    assert np.all(vv.numpy() == -1.0)


# ---------------------------------------------------------------------------- view / reshape


@pytest.mark.parametrize("shape", [(12,), (3, 4), (2, 2, 3), (-1,), (4, -1), (-1, 2, 1, 3),
                                   (1, 12, 1)])
def test_view_of_contiguous(shape: tuple[int, ...]) -> None:
    v, t = volta.arange(12.0).view(2, 6), torch.arange(12.0).view(2, 6)
    _check_same_layout(v.view(shape), t.view(shape))
    _check_same_layout(v.view(*shape), t.view(*shape))
    assert v.view(shape).data_ptr() == v.data_ptr()


def test_view_of_non_contiguous_where_strides_allow() -> None:
    # split and merge dims inside one contiguous chunk of a transposed/sliced tensor
    for f in [lambda x: x.view(4, 3, 5).transpose(0, 2).view(5, 3, 2, 2),
              lambda x: x.view(6, 10)[:, ::2].view(6, 5, 1),
              lambda x: x.view(3, 4, 5).permute(1, 0, 2).view(4, 3, 5, 1),
              lambda x: x.view(3, 20)[1:].view(2, 4, 5)]:
        _check_same_layout(f(volta.arange(60.0)), f(torch.arange(60.0)))


@pytest.mark.parametrize("f", [
    lambda x: x.view(3, 4).t().view(12),
    lambda x: x.view(3, 4)[:, :2].view(6),
    lambda x: x.view(3, 4).t().view(-1, 2),
])
def test_view_incompatible_strides_raises(f) -> None:
    with pytest.raises(RuntimeError, match="view size is not compatible"):
        f(torch.arange(12.0))
    with pytest.raises(ShapeError, match="view size is not compatible"):
        f(volta.arange(12.0))


@pytest.mark.parametrize("shape", [(5,), (5, -1), (-1, -1), (7, 2)])
def test_view_invalid_shape_raises(shape: tuple[int, ...]) -> None:
    with pytest.raises(RuntimeError):
        torch.arange(12.0).view(shape)
    with pytest.raises(ShapeError):
        volta.arange(12.0).view(shape)


def test_reshape_shares_when_possible() -> None:
    v, t = volta.arange(24.0), torch.arange(24.0)
    rv, rt = v.reshape(2, 3, 4), t.reshape(2, 3, 4)
    _check_same_layout(rv, rt)
    assert rv.data_ptr() == v.data_ptr()
    rv[0, 0, 0] = 100.0
    rt[0, 0, 0] = 100.0
    assert v[0].item() == 100.0
    sv = v.view(4, 6)[:, :3].reshape(4, 3, 1)  # non-contiguous but viewable
    st = t.view(4, 6)[:, :3].reshape(4, 3, 1)
    _check_same_layout(sv, st)
    assert sv.untyped_storage() is v.untyped_storage()


def test_reshape_copies_when_needed() -> None:
    v, t = volta.arange(12.0).view(3, 4), torch.arange(12.0).view(3, 4)
    rv, rt = v.t().reshape(12), t.t().reshape(12)
    _check_same_layout(rv, rt)
    assert rv.untyped_storage() is not v.untyped_storage()
    rv[0] = -5.0
    assert v[0, 0].item() == 0.0
    assert v._version == 0


def test_reshape_round_trip_and_minus_one() -> None:
    v = volta.arange(24.0)
    for shape in [(2, -1), (-1, 4, 3), (24,), (1, 1, 24, 1)]:
        r = v.reshape(shape)
        assert r.numel() == 24
        assert r.reshape(-1).tolist() == v.tolist()
    assert v.reshape(2, 12).reshape_as(volta.zeros(4, 6)).shape == (4, 6)
    assert v.view_as(volta.zeros(6, 4)).shape == (6, 4)


def test_zero_dim_views() -> None:
    v, t = volta.tensor(3.0), torch.tensor(3.0)
    for f in [lambda x: x.view(1), lambda x: x.view(()), lambda x: x.reshape(1, 1),
              lambda x: x.unsqueeze(0), lambda x: x.squeeze(), lambda x: x.expand(2, 3),
              lambda x: x.flatten(), lambda x: x[None], lambda x: x[...], lambda x: x.t()]:
        _check_same_layout(f(v), f(t))


def test_empty_tensor_views() -> None:
    v, t = volta.zeros(0, 3), torch.zeros(0, 3)
    for f in [lambda x: x.view(3, 0), lambda x: x.view(-1, 3), lambda x: x.t(),
              lambda x: x.reshape(0), lambda x: x.unsqueeze(1), lambda x: x[:, 1],
              lambda x: x.expand(2, 0, 3)]:
        r, e = f(v), f(t)
        assert tuple(r.shape) == tuple(e.shape)
        assert r.numel() == 0


# ---------------------------------------------------------------------------- transpose & co.


def test_t_on_vectors_and_errors() -> None:
    _check_same_layout(volta.arange(3.0).t(), torch.arange(3.0).t())
    _check_same_layout(volta.arange(6.0).view(2, 3).T, torch.arange(6.0).view(2, 3).T)
    with pytest.raises(ShapeError):
        volta.zeros(2, 2, 2).t()


def test_permute_errors() -> None:
    x = volta.zeros(2, 3, 4)
    with pytest.raises(ShapeError):
        x.permute(0, 1)
    with pytest.raises(ShapeError):
        x.permute(0, 1, 1)
    with pytest.raises(IndexOutOfRangeError):
        x.permute(0, 1, 3)
    with pytest.raises(IndexOutOfRangeError):
        x.transpose(0, 3)


def test_expand_errors_and_stride_zero() -> None:
    v = volta.arange(3.0).view(3, 1).expand(3, 4)
    t = torch.arange(3.0).view(3, 1).expand(3, 4)
    _check_same_layout(v, t)
    assert v.stride() == (1, 0)
    with pytest.raises(ShapeError, match=r"expanded size of the tensor \(4\) must match the "
                                         r"existing size \(3\)"):
        volta.zeros(3).expand(4)
    with pytest.raises(ShapeError):
        volta.zeros(2, 3).expand(3)


def test_squeeze_dim_not_one_is_noop_and_errors() -> None:
    v, t = volta.zeros(2, 1, 3), torch.zeros(2, 1, 3)
    _check_same_layout(v.squeeze(0), t.squeeze(0))
    _check_same_layout(v.squeeze(-2), t.squeeze(-2))
    with pytest.raises(IndexOutOfRangeError):
        v.squeeze(3)
    with pytest.raises(IndexOutOfRangeError):
        v.unsqueeze(4)


def test_narrow_errors() -> None:
    x = volta.zeros(4, 5)
    with pytest.raises(ShapeError):
        x.narrow(1, 3, 3)
    with pytest.raises(IndexOutOfRangeError):
        x.narrow(2, 0, 1)


def test_unfold_errors() -> None:
    with pytest.raises(ShapeError):
        volta.zeros(4).unfold(0, 5, 1)
    with pytest.raises(ShapeError):
        volta.zeros(4).unfold(0, 2, 0)


def test_unfold_matches_torch_windows() -> None:
    v, t = volta.arange(10.0), torch.arange(10.0)
    for size, step in [(3, 1), (3, 3), (4, 2), (10, 1), (1, 4)]:
        _check_same_layout(v.unfold(0, size, step), t.unfold(0, size, step))
    _check_same_layout(volta.tensor(2.0).unfold(0, 1, 1), torch.tensor(2.0).unfold(0, 1, 1))


def test_diagonal_of_square_and_rect() -> None:
    for shape in [(4, 4), (3, 5), (5, 3)]:
        v = volta.arange(float(np.prod(shape))).view(shape)
        t = torch.arange(float(np.prod(shape))).view(shape)
        for offset in range(-5, 6):
            _check_same_layout(v.diagonal(offset), t.diagonal(offset))
    with pytest.raises(ShapeError):
        volta.zeros(3, 3).diagonal(0, 1, 1)


def test_diagonal_write_sets_the_diagonal() -> None:
    v, t = volta.zeros(3, 3), torch.zeros(3, 3)
    v.diagonal().fill_(1.0)
    t.diagonal().fill_(1.0)
    assert v.tolist() == t.tolist() == torch.eye(3).tolist()


# ---------------------------------------------------------------------------- as_strided


@pytest.mark.parametrize("size,stride,offset", [
    ((2, 2), (1, 2), 0),
    ((3, 3), (1, 1), 2),  # overlapping windows
    ((2, 3), (0, 1), 4),
    ((4,), (3,), None),
    ((), (), 7),
    ((2, 2, 2), (4, 2, 1), 1),
])
def test_as_strided_matches_torch(size, stride, offset) -> None:
    v, t = volta.arange(12.0), torch.arange(12.0)
    args = (size, stride) if offset is None else (size, stride, offset)
    vv, tv = v.as_strided(*args), t.as_strided(*args)
    _check_same_layout(vv, tv)
    assert vv.untyped_storage() is v.untyped_storage()


def test_as_strided_on_a_view_uses_its_offset() -> None:
    v, t = volta.arange(12.0)[3:], torch.arange(12.0)[3:]
    _check_same_layout(v.as_strided((2, 2), (2, 1)), t.as_strided((2, 2), (2, 1)))


def test_as_strided_out_of_storage_raises() -> None:
    with pytest.raises(ShapeError):
        volta.arange(4.0).as_strided((3,), (2,))
    with pytest.raises(ShapeError):
        volta.arange(4.0).as_strided((2,), (1, 1))


# ------------------------------------------------------------------- flatten / unflatten / ...


@pytest.mark.parametrize("start,end", [(0, -1), (1, 2), (0, 1), (1, 1), (-2, -1), (2, 2)])
def test_flatten_matches_torch(start: int, end: int) -> None:
    v, t = volta.arange(24.0).view(2, 3, 4), torch.arange(24.0).view(2, 3, 4)
    _check_same_layout(v.flatten(start, end), t.flatten(start, end))
    assert v.flatten(start, end).data_ptr() == v.data_ptr()
    # flattening a transposed tensor copies where torch copies
    tv, tt = v.transpose(0, 2).flatten(start, end), t.transpose(0, 2).flatten(start, end)
    _check_same_layout(tv, tt)


def test_unflatten_errors() -> None:
    with pytest.raises(ShapeError):
        volta.zeros(2, 6).unflatten(1, (4, 2))
    with pytest.raises(ShapeError):
        volta.zeros(2, 6).unflatten(1, (-1, -1))


@pytest.mark.parametrize("src,dst", [(0, 2), (-1, 0), ((0, 1), (1, 0)), ((0, 2), (2, 1)),
                                     (1, 1)])
def test_movedim_matches_torch(src, dst) -> None:
    v, t = volta.arange(24.0).view(2, 3, 4), torch.arange(24.0).view(2, 3, 4)
    _check_same_layout(v.movedim(src, dst), t.movedim(src, dst))
    _check_same_layout(volta.movedim(v, src, dst), torch.movedim(t, src, dst))


# ------------------------------------------------------------------------ split/chunk/unbind


def _check_pieces(vs, ts, base: volta.Tensor) -> None:
    assert len(vs) == len(ts)
    for a, b in zip(vs, ts):
        _check_same_layout(a, b)
        assert a.untyped_storage() is base.untyped_storage()


@pytest.mark.parametrize("args", [(2,), (3,), (5,), (10,), ([1, 4],), ([0, 5],), (2, 1),
                                  ([1, 2, 1], -1), (4, 1)])
def test_split_matches_torch(args) -> None:
    v, t = volta.arange(20.0).view(5, 4), torch.arange(20.0).view(5, 4)
    _check_pieces(v.split(*args), t.split(*args), v)
    _check_pieces(volta.split(v, *args), torch.split(t, *args), v)


@pytest.mark.parametrize("chunks,dim", [(1, 0), (2, 0), (3, 0), (5, 0), (7, 0), (3, 1), (4, -1)])
def test_chunk_matches_torch(chunks: int, dim: int) -> None:
    v, t = volta.arange(20.0).view(5, 4), torch.arange(20.0).view(5, 4)
    _check_pieces(v.chunk(chunks, dim), t.chunk(chunks, dim), v)


@pytest.mark.parametrize("dim", [0, 1, -1])
def test_unbind_matches_torch(dim: int) -> None:
    v, t = volta.arange(20.0).view(5, 4), torch.arange(20.0).view(5, 4)
    _check_pieces(v.unbind(dim), t.unbind(dim), v)
    _check_pieces(volta.unbind(v, dim), torch.unbind(t, dim), v)


def test_split_pieces_write_through() -> None:
    v = volta.zeros(6)
    a, b, c = v.split(2)
    b.fill_(1.0)
    c.add_(2.0)
    assert v.tolist() == [0, 0, 1, 1, 2, 2]
    assert v._version == a._version == 2


def test_split_errors() -> None:
    with pytest.raises(ShapeError):
        volta.zeros(5).split([2, 2])
    with pytest.raises(ShapeError):
        volta.zeros(5).chunk(0)


# ----------------------------------------------------------------- views and the version counter


def test_views_share_the_version_counter_in_both_directions() -> None:
    base = volta.zeros(4, 4)
    views = [base.t(), base[1:], base.view(16), base.diagonal(), base.unsqueeze(0),
             base.as_strided((2,), (5,)), base.narrow(1, 0, 2)]
    base.add_(1)
    for view in views:
        assert view._version == base._version == 1
    views[1].fill_(3.0)
    for view in views:
        assert view._version == base._version
    assert base._version > 1


def test_view_of_view_keeps_root_base() -> None:
    base = volta.zeros(4, 4)
    v = base.t()[1:][0]
    assert v._base is base
    assert base.t()._base is base
    assert base._base is None
