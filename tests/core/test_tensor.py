"""The tensor model: metadata over a storage, version counter, Python protocols, repr,
conversion to and from numpy / DLPack / torch, dtype moves, copying and pickling.

PyTorch (CPU) is the oracle wherever it has the same thing.
"""

from __future__ import annotations

import copy
import pickle

import numpy as np
import pytest
import torch

import volta
from volta import DTypeError, VoltaError


def _pair(shape: tuple[int, ...], dtype: str = "float32") -> tuple[volta.Tensor, torch.Tensor]:
    data = np.arange(int(np.prod(shape)), dtype=np.float64).reshape(shape).astype(dtype)
    # torch.tensor(ndarray) keeps numpy's zero strides for empty arrays; build torch's natively
    expected = torch.arange(int(np.prod(shape)), dtype=torch.float64).reshape(shape)
    return volta.tensor(data), expected.to(getattr(torch, dtype))


# ------------------------------------------------------------------------------- metadata


@pytest.mark.parametrize("shape", [(), (0,), (5,), (2, 3), (2, 0, 3), (2, 3, 4), (1, 1, 1, 2)])
def test_metadata_matches_torch(shape: tuple[int, ...]) -> None:
    v, t = _pair(shape)
    assert tuple(v.shape) == tuple(t.shape)
    assert v.size() == t.size()
    assert v.stride() == t.stride()
    assert v.storage_offset() == t.storage_offset() == 0
    assert v.is_contiguous() and t.is_contiguous()
    assert v.numel() == t.numel()
    assert v.dim() == t.dim() == v.ndim
    assert v.element_size() == t.element_size()
    for d in range(-len(shape), len(shape)):
        assert v.size(d) == t.size(d)
        assert v.stride(d) == t.stride(d)


def test_shape_is_a_tuple_like_torch_size() -> None:
    v = volta.zeros(2, 3)
    assert v.shape == (2, 3)
    assert isinstance(v.shape, tuple)
    assert v.shape[1:] == (3,)
    assert isinstance(v.shape[1:], volta.Size)
    assert v.shape.numel() == 6
    assert repr(v.shape) == "volta.Size([2, 3])"


def test_size_of_out_of_range_dim_raises() -> None:
    v = volta.zeros(2, 3)
    with pytest.raises(volta.IndexOutOfRangeError):
        v.size(2)
    with pytest.raises(IndexError):
        v.stride(-3)


@pytest.mark.parametrize("dt", ["float32", "float64", "float16", "bfloat16", "int8", "uint8",
                                "int16", "int32", "int64", "bool"])
def test_element_size_per_dtype(dt: str) -> None:
    v = volta.zeros(3, dtype=getattr(volta, dt))
    t = torch.zeros(3, dtype=getattr(torch, dt))
    assert v.element_size() == t.element_size()
    assert v.nbytes == t.nbytes


def test_views_share_data_ptr_and_offset_moves_it() -> None:
    v = volta.arange(12.0).view(3, 4)
    row = v[1]
    assert v.view(12).data_ptr() == v.data_ptr()
    assert v.t().data_ptr() == v.data_ptr()
    assert row.untyped_storage() is v.untyped_storage()
    assert row.storage_offset() == 4
    assert row.data_ptr() - v.data_ptr() == 4 * v.element_size()
    assert volta.arange(12.0).data_ptr() != v.data_ptr()


def test_is_contiguous_matches_torch_on_views() -> None:
    v, t = _pair((3, 4, 5))
    cases = [
        lambda x: x.transpose(0, 1),
        lambda x: x[:, ::2],
        lambda x: x[1],
        lambda x: x[:, :, 1:2],
        lambda x: x.permute(2, 0, 1),
        lambda x: x[:1].expand(3, 4, 5),
        lambda x: x.unsqueeze(1),
        lambda x: x[:, 1:2, :],  # size-1 dim with an odd stride is still contiguous
    ]
    for f in cases:
        assert f(v).is_contiguous() == f(t).is_contiguous()
        assert f(v).stride() == f(t).stride()


# ---------------------------------------------------------------------------- version counter


def test_version_bumps_on_inplace_and_is_shared_with_views() -> None:
    v = volta.zeros(4)
    view = v[1:3]
    assert v._version == 0
    v.add_(1)
    assert v._version == 1 and view._version == 1
    view.mul_(2)
    assert v._version == 2
    v[0] = 5.0
    assert v._version == 3 and view._version == 3
    v.zero_()
    assert view._version == 4
    # out-of-place ops do not bump
    _ = v + 1
    _ = v.clone()
    assert v._version == 4


def test_version_matches_torch_for_a_sequence_of_inplace_ops() -> None:
    for lib in (volta, torch):
        x = lib.ones(3, 3)
        y = x.t()
        x.add_(1)
        y.mul_(3)
        x[0, 0] = 2.0
        x.fill_(1.0)
        y.copy_(lib.zeros(3, 3))
        if lib is volta:
            v_version = x._version
        else:
            t_version = x._version
    assert v_version == t_version


def test_detach_shares_version_counter_clone_does_not() -> None:
    v = volta.ones(3, requires_grad=True)
    d = v.detach()
    c = v.clone()
    d.add_(1)
    assert v._version == 1 and d._version == 1
    assert c._version == 0
    np.testing.assert_array_equal(v.detach().numpy(), [2, 2, 2])


# -------------------------------------------------------------------- contiguous, clone, detach


def test_contiguous_returns_self_when_already_contiguous() -> None:
    v = volta.zeros(2, 3)
    assert v.contiguous() is v


def test_contiguous_copies_a_transposed_view() -> None:
    v, t = _pair((3, 4))
    cv, ct = v.t().contiguous(), t.t().contiguous()
    assert cv.is_contiguous()
    assert cv.stride() == ct.stride()
    np.testing.assert_array_equal(cv.numpy(), ct.numpy())
    assert cv.data_ptr() != v.data_ptr()
    cv.fill_(0)
    assert v.sum().item() == t.sum().item()


def test_clone_is_an_independent_copy_with_same_values() -> None:
    v = volta.arange(6.0).view(2, 3)
    c = v.clone()
    assert c.data_ptr() != v.data_ptr()
    np.testing.assert_array_equal(c.numpy(), v.numpy())
    c[0, 0] = 100.0
    assert v[0, 0].item() == 0.0


def test_clone_keeps_autograd_connection_detach_cuts_it() -> None:
    v = volta.ones(2, requires_grad=True)
    c = v.clone()
    assert c.requires_grad and c.grad_fn is not None
    d = v.detach()
    assert not d.requires_grad and d.grad_fn is None and d.is_leaf
    assert d.data_ptr() == v.data_ptr()
    c.sum().backward()
    np.testing.assert_array_equal(v.grad.numpy(), [1, 1])


# -------------------------------------------------------------------------- Python protocols


def test_item_float_int_bool() -> None:
    assert volta.tensor(2.5).item() == 2.5
    assert isinstance(volta.tensor(3).item(), int)
    assert isinstance(volta.tensor(True).item(), bool)
    assert isinstance(volta.tensor([1.5]).item(), float)
    assert float(volta.tensor([[2.5]])) == 2.5
    assert int(volta.tensor(7.9)) == int(torch.tensor(7.9)) == 7
    assert int(volta.tensor(-7.9)) == int(torch.tensor(-7.9))
    assert bool(volta.tensor(0.0)) is False
    assert bool(volta.tensor([3])) is True


def test_item_and_bool_of_many_elements_raise() -> None:
    with pytest.raises(VoltaError):
        volta.tensor([1.0, 2.0]).item()
    with pytest.raises(VoltaError, match="ambiguous"):
        bool(volta.tensor([1.0, 2.0]))


def test_ambiguous_bool_and_item_are_runtime_errors_like_torch() -> None:
    # `except RuntimeError` written against torch must keep catching these
    for lib in (torch, volta):
        with pytest.raises(RuntimeError):
            bool(lib.tensor([1.0, 2.0]))
        with pytest.raises(RuntimeError):
            lib.tensor([1.0, 2.0]).item()


@pytest.mark.parametrize("shape", [(), (3,), (2, 3), (2, 0), (1, 2, 2)])
@pytest.mark.parametrize("dt", ["float32", "int64", "bool", "float64"])
def test_tolist_matches_torch(shape: tuple[int, ...], dt: str) -> None:
    data = (np.arange(int(np.prod(shape))) % 3).reshape(shape)
    v = volta.tensor(data, dtype=getattr(volta, dt))
    t = torch.tensor(data, dtype=getattr(torch, dt))
    assert v.tolist() == t.tolist()
    assert type(v.tolist()) is type(t.tolist())


def test_tolist_of_non_contiguous_view() -> None:
    v, t = _pair((3, 4))
    assert v.t()[::2].tolist() == t.t()[::2].tolist()


def test_len_and_iter() -> None:
    v, t = _pair((3, 2))
    assert len(v) == len(t) == 3
    rows = list(v)
    assert len(rows) == 3
    for rv, rt in zip(rows, t):
        assert rv.tolist() == rt.tolist()
        assert rv.data_ptr() != 0
    rows[1][0] = -1.0  # iteration yields views
    assert v[1, 0].item() == -1.0
    with pytest.raises(TypeError):
        len(volta.tensor(1.0))
    with pytest.raises(TypeError):
        iter(volta.tensor(1.0))


def test_index_protocol_for_integer_scalars() -> None:
    assert [10, 20, 30][volta.tensor(1)] == 20
    with pytest.raises(TypeError):
        [10, 20][volta.tensor(1.0)]


def test_format_of_zero_dim() -> None:
    assert f"{volta.tensor(2.5):.2f}" == f"{torch.tensor(2.5):.2f}" == "2.50"


# ----------------------------------------------------------------------------------- repr


@pytest.mark.parametrize("make", [
    lambda lib: lib.tensor([1.0, 2.0]),
    lambda lib: lib.tensor([1.5, 2.0]),
    lambda lib: lib.tensor(3.5),
    lambda lib: lib.tensor([1, 2, 3]),
    lambda lib: lib.tensor([True, False]),
    lambda lib: lib.tensor([[1.0, 2.0], [3.0, 4.0]]),
    lambda lib: lib.tensor([1e-5, 1e3]),
    lambda lib: lib.tensor([1.5, float("nan"), float("inf")]),
    lambda lib: lib.zeros(0, 3),
    lambda lib: lib.zeros(0),
    lambda lib: lib.tensor([-1.25, 3.0]),
    lambda lib: lib.tensor([-0.0, 1.0]),
    lambda lib: lib.tensor([100000.0, 1.0]),
    lambda lib: lib.tensor([1e8, 1.0]),
    lambda lib: lib.tensor([2e8, 1e8]),
    lambda lib: lib.tensor([-1e-5, 1e3]),
    lambda lib: lib.tensor([0.1, -0.001]),
    lambda lib: lib.tensor([float("nan"), 1.0]),
    lambda lib: lib.tensor(1e-9),
    lambda lib: lib.zeros(3),
    lambda lib: lib.arange(24.0).view(2, 3, 4),
    lambda lib: lib.arange(12).view(3, 4),
    lambda lib: lib.arange(50) - 25,
    lambda lib: lib.arange(30.0) / 7,
    lambda lib: lib.arange(40.0).view(2, 20),
    lambda lib: lib.arange(2000.0),
    lambda lib: lib.arange(2000.0) / 7,
    lambda lib: lib.arange(2000).view(40, 50),
    lambda lib: lib.arange(3000.0).view(3, 1000),
    lambda lib: lib.tensor([[True, False], [False, True]]),
])
def test_repr_matches_torch(make) -> None:
    assert repr(make(volta)) == repr(make(torch))


@pytest.mark.parametrize("dt", ["float64", "float16", "bfloat16", "int32", "int8", "uint8",
                                "int16"])
def test_repr_has_dtype_suffix_for_non_default_dtypes(dt: str) -> None:
    v = volta.tensor([1, 2], dtype=getattr(volta, dt))
    t = torch.tensor([1, 2], dtype=getattr(torch, dt))
    assert repr(v) == repr(t).replace("torch.", "volta.")
    assert f"dtype=volta.{dt}" in repr(v)


def test_repr_has_no_suffix_for_default_dtypes() -> None:
    for v in (volta.tensor([1.0]), volta.tensor([1]), volta.tensor([True])):
        assert "dtype" not in repr(v)


def test_repr_follows_set_default_dtype() -> None:
    volta.set_default_dtype(volta.float64)
    try:
        assert repr(volta.tensor([1.0, 2.0])) == "tensor([1., 2.])"
        assert "dtype=volta.float32" in repr(volta.tensor([1.0], dtype=volta.float32))
    finally:
        volta.set_default_dtype(volta.float32)


def test_repr_autograd_suffixes() -> None:
    leaf = volta.tensor([1.0, 2.0], requires_grad=True)
    assert repr(leaf) == repr(torch.tensor([1.0, 2.0], requires_grad=True))
    out = leaf * 2
    text = repr(out)
    assert text.startswith("tensor([2., 4.], grad_fn=<Mul")
    assert text.endswith(">)")
    assert "requires_grad" not in text


def test_repr_is_str() -> None:
    v = volta.tensor([1.0, 2.0])
    assert str(v) == repr(v)


# ------------------------------------------------------------------------------- numpy interop


def test_from_numpy_is_zero_copy_both_ways() -> None:
    arr = np.arange(6, dtype=np.float32).reshape(2, 3)
    v = volta.from_numpy(arr)
    arr[0, 0] = 42.0
    assert v[0, 0].item() == 42.0
    v[1, 2] = -1.0
    assert arr[1, 2] == -1.0
    v.add_(1)
    assert arr[0, 0] == 43.0


def test_numpy_is_zero_copy_both_ways() -> None:
    v = volta.zeros(2, 3)
    arr = v.numpy()
    arr[0, 1] = 7.0
    assert v[0, 1].item() == 7.0
    v.mul_(0).add_(3)
    assert np.all(arr == 3.0)
    # a view's numpy() shares memory as well
    col = v[:, 1].numpy()
    assert np.shares_memory(col, arr)
    col[0] = 9.0
    assert v[0, 1].item() == 9.0


def test_from_numpy_non_contiguous_array_keeps_strides() -> None:
    arr = np.arange(24, dtype=np.float64).reshape(4, 6)[::2, 1::2]
    v = volta.from_numpy(arr)
    t = torch.from_numpy(arr)
    assert v.stride() == t.stride()
    assert v.tolist() == t.tolist()
    arr[1, 1] = -5.0
    assert v[1, 1].item() == -5.0


@pytest.mark.parametrize("dt", ["float32", "float64", "float16", "int8", "uint8", "int16",
                                "int32", "int64", "bool"])
def test_from_numpy_dtypes(dt: str) -> None:
    arr = np.ones(3, dtype=dt)
    assert volta.from_numpy(arr).dtype is getattr(volta, dt)
    assert volta.from_numpy(arr).numpy().dtype == arr.dtype


def test_from_numpy_rejects_unsupported_dtypes() -> None:
    with pytest.raises(DTypeError):
        volta.from_numpy(np.ones(3, dtype=np.complex64))
    with pytest.raises(TypeError):
        volta.from_numpy([1, 2, 3])


def test_numpy_of_requires_grad_tensor_raises() -> None:
    v = volta.ones(2, requires_grad=True)
    with pytest.raises(RuntimeError, match="detach"):
        v.numpy()
    np.testing.assert_array_equal(v.detach().numpy(), [1, 1])


def test_array_protocol() -> None:
    v = volta.arange(6).view(2, 3)
    arr = np.asarray(v)
    assert arr.dtype == np.int64 and arr.shape == (2, 3)
    np.testing.assert_array_equal(arr, np.arange(6).reshape(2, 3))
    assert np.asarray(v, dtype=np.float32).dtype == np.float32
    np.testing.assert_array_equal(np.asarray(v.t()), np.arange(6).reshape(2, 3).T)
    # numpy functions accept tensors
    assert np.sum(np.asarray(v)) == 15


def test_bfloat16_numpy_roundtrip() -> None:
    import ml_dtypes
    v = volta.tensor([1.5, 2.25], dtype=volta.bfloat16)
    assert v.numpy().dtype == np.dtype(ml_dtypes.bfloat16)
    assert v.tolist() == torch.tensor([1.5, 2.25], dtype=torch.bfloat16).tolist()


# --------------------------------------------------------------------------------- DLPack


def test_dlpack_to_numpy_shares_memory() -> None:
    v = volta.arange(5.0)
    arr = np.from_dlpack(v)
    np.testing.assert_array_equal(arr, [0, 1, 2, 3, 4])
    v[2] = 10.0
    assert arr[2] == 10.0
    assert v.__dlpack_device__() == torch.zeros(1).__dlpack_device__()


def test_from_dlpack_from_numpy_shares_memory() -> None:
    arr = np.arange(4, dtype=np.float32)
    v = volta.from_dlpack(arr)
    arr[0] = 9.0
    assert v[0].item() == 9.0


def test_dlpack_with_torch_both_directions() -> None:
    v = volta.arange(6.0).view(2, 3)
    t = torch.from_dlpack(v)
    assert t.shape == (2, 3) and t.dtype == torch.float32
    assert t.tolist() == v.tolist()
    v[0, 0] = 5.0
    assert t[0, 0].item() == 5.0

    src = torch.arange(4, dtype=torch.int32)
    w = volta.from_dlpack(src)
    assert w.dtype is volta.int32
    src[1] = 99
    assert w[1].item() == 99
    w[3] = -3
    assert src[3].item() == -3


def test_dlpack_of_non_contiguous_view_with_torch() -> None:
    v = volta.arange(12.0).view(3, 4).t()
    t = torch.from_dlpack(v)
    assert t.tolist() == v.tolist()
    assert t.stride() == v.stride()


# ------------------------------------------------------------------------------- dtype moves


@pytest.mark.parametrize("src", ["float32", "float64", "int64", "int32", "bool", "float16",
                                 "uint8"])
@pytest.mark.parametrize("dst", ["float32", "float64", "int64", "int32", "bool", "float16",
                                 "int8", "bfloat16"])
def test_to_dtype_matches_torch(src: str, dst: str) -> None:
    data = [0.0, 1.0, 2.75, 3.5, 0.25, 100.0]
    if src in ("uint8",):
        data = [0, 1, 2, 3, 4, 200]
    t = torch.tensor(data).to(getattr(torch, src))
    v = volta.tensor(t.numpy())
    assert v.dtype is getattr(volta, src)
    vd, td = v.to(getattr(volta, dst)), t.to(getattr(torch, dst))
    assert vd.dtype is getattr(volta, dst)
    assert vd.tolist() == td.tolist()


def test_to_same_dtype_or_device_returns_self() -> None:
    v = volta.zeros(3)
    assert v.to(volta.float32) is v
    assert v.to("cpu") is v
    assert v.cpu() is v
    assert v.to(device="cpu", dtype=volta.float32) is v
    c = v.to(volta.float32, copy=True)
    assert c is not v and c.data_ptr() != v.data_ptr()


def test_to_other_dtype_copies() -> None:
    v = volta.zeros(3)
    d = v.to(volta.float64)
    d.fill_(1.0)
    assert v.sum().item() == 0.0


def test_conversion_methods() -> None:
    v = volta.tensor([1.7, -2.2, 0.0])
    t = torch.tensor([1.7, -2.2, 0.0])
    pairs = [("double", "float64"), ("float", "float32"), ("half", "float16"),
             ("long", "int64"), ("int", "int32"), ("short", "int16"), ("bool", "bool"),
             ("char", "int8"), ("bfloat16", "bfloat16")]
    for method, dt in pairs:
        vv, tt = getattr(v, method)(), getattr(t, method)()
        assert vv.dtype is getattr(volta, dt)
        assert vv.tolist() == tt.tolist()
    assert v.type_as(volta.zeros(1, dtype=volta.int16)).dtype is volta.int16
    assert v.to(volta.zeros(1, dtype=volta.float64)).dtype is volta.float64
    assert v.to("float64").dtype is volta.float64
    assert v.to(int).dtype is volta.int64


def test_to_unknown_device_raises_backend_error() -> None:
    with pytest.raises(volta.BackendError):
        volta.zeros(2).to("nope")


# ------------------------------------------------------------------- deepcopy and pickle


def test_deepcopy_copies_data_and_autograd_flags() -> None:
    v = volta.tensor([1.0, 2.0], requires_grad=True)
    v.grad = volta.tensor([0.5, 0.5])
    c = copy.deepcopy(v)
    assert c is not v and c.data_ptr() != v.data_ptr()
    assert c.requires_grad and c.is_leaf
    assert c.grad is not None and c.grad.tolist() == [0.5, 0.5]
    assert c.grad.data_ptr() != v.grad.data_ptr()
    with volta.no_grad():
        c.add_(1)
    assert v.tolist() == [1.0, 2.0]


def test_deepcopy_keeps_shared_identity_in_containers() -> None:
    v = volta.zeros(2)
    a, b = copy.deepcopy([v, v])
    assert a is b


@pytest.mark.parametrize("dt", ["float32", "int64", "bool", "bfloat16", "float16"])
def test_pickle_round_trip(dt: str) -> None:
    v = volta.arange(6).view(2, 3).to(getattr(volta, dt))
    w = pickle.loads(pickle.dumps(v))
    assert w.dtype is v.dtype
    assert w.shape == v.shape
    assert w.tolist() == v.tolist()
    assert w.data_ptr() != v.data_ptr()


def test_pickle_of_view_and_requires_grad() -> None:
    v = volta.arange(6.0).view(2, 3).t()
    w = pickle.loads(pickle.dumps(v))
    assert w.tolist() == v.tolist()
    g = pickle.loads(pickle.dumps(volta.ones(2, requires_grad=True)))
    assert g.requires_grad


def test_dtype_pickles_to_the_same_object() -> None:
    for dt in (volta.float32, volta.bfloat16, volta.bool):
        assert pickle.loads(pickle.dumps(dt)) is dt


# ----------------------------------------------------------------------------- requires_grad


@pytest.mark.parametrize("dt", ["int64", "int32", "uint8", "bool"])
def test_requires_grad_on_integer_tensor_raises(dt: str) -> None:
    v = volta.zeros(2, dtype=getattr(volta, dt))
    with pytest.raises(DTypeError, match="floating point"):
        v.requires_grad_()
    with pytest.raises(RuntimeError):  # torch raises RuntimeError here
        torch.zeros(2, dtype=getattr(torch, dt)).requires_grad_()
    with pytest.raises(DTypeError):
        volta.tensor([1, 2], requires_grad=True)
    assert not v.requires_grad


@pytest.mark.parametrize("dt", ["float32", "float64", "float16", "bfloat16"])
def test_requires_grad_on_float_tensor(dt: str) -> None:
    v = volta.zeros(2, dtype=getattr(volta, dt)).requires_grad_()
    assert v.requires_grad and v.is_leaf


def test_requires_grad_false_on_non_leaf_raises() -> None:
    v = volta.ones(2, requires_grad=True) * 2
    with pytest.raises(RuntimeError):
        v.requires_grad_(False)


def test_tensor_constructor_is_not_public() -> None:
    with pytest.raises(TypeError):
        volta.Tensor([1, 2])


def test_is_tensor_and_type_helpers() -> None:
    v = volta.zeros(2)
    assert volta.is_tensor(v) and not volta.is_tensor(np.zeros(2))
    assert v.is_floating_point() and not volta.zeros(2, dtype=volta.int64).is_floating_point()
    assert v.device == volta.device("cpu") and v.device == "cpu" and v.is_cpu
    assert str(v.device) == "cpu"
    assert v.get_device() == torch.zeros(2).get_device()
