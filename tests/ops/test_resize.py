"""Tensor.resize_ and resize_as_ against PyTorch: sizes, strides, kept elements, storage growth
seen through views and bases, version counters, memory formats, errors, and WGPU storage."""

from __future__ import annotations

import numpy as np
import pytest
import torch

import volta


def _pair(n: int = 6) -> tuple[torch.Tensor, volta.Tensor]:
    return torch.arange(float(n)), volta.arange(float(n))


def _same(v: volta.Tensor, t: torch.Tensor, kept: int | None = None) -> None:
    """Shapes and strides equal; the first ``kept`` flat elements equal (PyTorch leaves the
    grown part uninitialised, volta fills it with zeros)."""
    assert tuple(v.shape) == tuple(t.shape)
    assert tuple(v.stride()) == tuple(t.stride())
    assert v.storage_offset() == t.storage_offset()
    if kept is None:
        np.testing.assert_array_equal(v.numpy(), t.numpy())
        return
    # the storage's first elements from the offset on, in memory order
    a = v.as_strided((kept,), (1,), v.storage_offset()).numpy()
    e = t.as_strided((kept,), (1,), t.storage_offset()).numpy()
    np.testing.assert_array_equal(a, e)


@pytest.mark.parametrize("size", [(2, 3), (6,), (3,), (1, 2, 1), (0,), (), (2, 0, 5)])
def test_resize_within_the_storage_matches_pytorch(size: tuple) -> None:
    t, v = _pair()
    assert v.resize_(size) is v
    t.resize_(size)
    _same(v, t)


@pytest.mark.parametrize("size", [(9,), (3, 4), (2, 2, 5)])
def test_resize_grows_the_storage_with_zeros_after_the_old_elements(size: tuple) -> None:
    t, v = _pair()
    t.resize_(size)
    v.resize_(*size)  # sizes as varargs, as PyTorch takes them too
    _same(v, t, kept=6)
    assert (v.numpy().reshape(-1)[6:] == 0).all()  # contiguous: flat order is memory order
    assert v.untyped_storage().numel == t.untyped_storage().nbytes() // 4


def test_resize_keeps_flat_storage_order_not_logical_order() -> None:
    t = torch.arange(6.0).reshape(2, 3).t()
    v = volta.arange(6.0).reshape(2, 3).t()
    t.resize_(3, 2)  # same sizes: strides kept
    v.resize_(3, 2)
    _same(v, t)
    t.resize_(2, 3)
    v.resize_(2, 3)
    _same(v, t)
    np.testing.assert_array_equal(v.numpy(), [[0, 1, 2], [3, 4, 5]])


def test_resize_bumps_the_version_when_the_sizes_change() -> None:
    t, v = _pair()
    for size in ((2, 3), (2, 3), (10,), (2, 5)):
        t.resize_(size)
        v.resize_(size)
        assert v._version == t._version
    t.resize_(2, 5, memory_format=torch.contiguous_format)
    v.resize_(2, 5, memory_format=volta.contiguous_format)
    assert v._version == t._version


def test_resizing_a_view_grows_the_storage_its_base_shares() -> None:
    results = []
    for m in (torch, volta):
        base = m.arange(6.0)
        view = base[2:4]
        base + 0  # volta's kernels cache a host view of the old storage: it must not survive
        view.resize_(10)
        base[0] = 100.0
        base[3] = -1.0  # element 1 of the view
        view[4] = 7.0  # element 6 of the storage: the base's last element
        results.append((base.numpy().copy(), view.numpy()[:5].copy(), view.storage_offset(),
                        base._version, view._version))
        assert view.data_ptr() - 2 * view.element_size() == base.data_ptr()  # one storage
    (tb, tv, to, tbv, tvv), (vb, vv, vo, vbv, vvv) = results
    np.testing.assert_array_equal(vb, tb)
    np.testing.assert_array_equal(vv, tv)
    assert (vo, vbv - vvv) == (to, tbv - tvv) == (2, 0)


def test_resizing_a_base_grows_the_storage_its_views_and_detached_copies_share() -> None:
    base = volta.arange(4.0)
    view, detached = base[1:], base.detach()
    view + detached[1:]  # kernels cache both inputs' host views of the old storage
    base.resize_(8)
    base[1] = 50.0
    assert (view * 1).tolist()[0] == 50.0 and (detached * 1).tolist()[1] == 50.0
    view[2] = -3.0
    assert base.tolist()[3] == -3.0


def test_resize_with_memory_formats_matches_pytorch() -> None:
    t, v = _pair(24)
    t.resize_(2, 3, 2, 2, memory_format=torch.channels_last)
    v.resize_(2, 3, 2, 2, memory_format=volta.channels_last)
    _same(v, t)
    t, v = _pair(48)
    t.resize_(1, 3, 2, 2, 4, memory_format=torch.channels_last_3d)
    v.resize_(1, 3, 2, 2, 4, memory_format=volta.channels_last_3d)
    _same(v, t)


@pytest.mark.parametrize("template_shape", [(2, 3), (4,), (), (3, 5)])
def test_resize_as_matches_pytorch(template_shape: tuple) -> None:
    t, v = _pair()
    expected = torch.resize_as_(t, torch.zeros(template_shape))
    assert volta.resize_as_(v, volta.zeros(template_shape)) is v
    _same(v, expected, kept=min(6, v.numel()))
    t, v = _pair()
    t.resize_as_(torch.zeros(template_shape, requires_grad=True))
    v.resize_as_(volta.zeros(template_shape, requires_grad=True))
    _same(v, t, kept=min(6, v.numel()))


def test_resize_as_takes_the_templates_format_for_preserve_format() -> None:
    t_template = torch.zeros(2, 3, 2, 2).contiguous(memory_format=torch.channels_last)
    v_template = volta.zeros(2, 3, 2, 2).contiguous(memory_format=volta.channels_last)
    for fmt in ("preserve_format", "contiguous_format", "channels_last"):
        t, v = _pair(3)
        t.resize_as_(t_template, memory_format=getattr(torch, fmt))
        v.resize_as_(v_template, memory_format=getattr(volta, fmt))
        _same(v, t, kept=3)


def _raises_alike(torch_call, volta_call, message: str) -> None:
    with pytest.raises(Exception, match=message):
        torch_call()
    with pytest.raises(volta.VoltaError, match=message):
        volta_call()


def test_resize_errors_as_pytorch() -> None:
    _raises_alike(lambda: torch.ones(3, requires_grad=True).resize_(4),
                  lambda: volta.ones(3, requires_grad=True).resize_(4),
                  "cannot resize variables that require grad")
    _raises_alike(lambda: (torch.ones(3, requires_grad=True) * 2).resize_(3),
                  lambda: (volta.ones(3, requires_grad=True) * 2).resize_(3),
                  "cannot resize variables that require grad")
    with torch.no_grad(), volta.no_grad():  # grad mode does not matter
        _raises_alike(lambda: torch.ones(3, requires_grad=True).resize_(4),
                      lambda: volta.ones(3, requires_grad=True).resize_(4),
                      "cannot resize variables that require grad")
    _raises_alike(lambda: torch.arange(24.0).resize_(2, 3, 4, memory_format=torch.channels_last),
                  lambda: volta.arange(24.0).resize_(2, 3, 4, memory_format=volta.channels_last),
                  "required rank 4 tensor to use channels_last format")
    _raises_alike(lambda: torch.ones(3).resize_(3, memory_format=torch.preserve_format),
                  lambda: volta.ones(3).resize_(3, memory_format=volta.preserve_format),
                  "Unsupported memory format")
    _raises_alike(lambda: torch.ones(3).resize_as_(5), lambda: volta.ones(3).resize_as_(5),
                  "must be Tensor, not int")


@pytest.mark.parametrize("size", [(-1,), (2, -2)])
def test_resize_rejects_negative_sizes_and_changes_nothing(size: tuple) -> None:
    with pytest.raises(RuntimeError):
        torch.ones(3).resize_(size)
    v = volta.arange(3.0)
    with pytest.raises(volta.ShapeError, match="negative dimension"):
        v.resize_(size)
    assert tuple(v.shape) == (3,) and v._version == 0


def test_a_storage_numpy_shares_cannot_grow_but_can_shrink() -> None:
    makers = {
        "numpy()": (lambda: torch.arange(3.0), lambda: volta.arange(3.0), lambda t: t.numpy()),
        "asarray": (lambda: torch.arange(3.0), lambda: volta.arange(3.0), np.asarray),
        "from_numpy": (lambda: torch.from_numpy(np.arange(3.0)),
                       lambda: volta.from_numpy(np.arange(3.0)), lambda t: None),
        "view's numpy()": (lambda: torch.arange(3.0), lambda: volta.arange(3.0),
                           lambda t: t[1:].numpy()),
    }
    for make_torch, make_volta, share in makers.values():
        t, v = make_torch(), make_volta()
        share(t), share(v)
        _raises_alike(lambda: t.resize_(10), lambda: v.resize_(10),  # noqa: B023
                      "Trying to resize storage that is not resizable")
        t.resize_(2)
        v.resize_(2)
        _same(v, t)
    v = volta.arange(3.0)
    v.tolist()  # a copy: nothing shared
    v.resize_(5)
    assert tuple(v.shape) == (5,)


def test_resize_of_a_leaf_detached_from_grad_works() -> None:
    leaf = volta.ones(3, requires_grad=True)
    d = leaf.detach()
    d.resize_(5)
    assert tuple(d.shape) == (5,) and tuple(leaf.shape) == (3,)


def test_resize_on_wgpu_grows_device_storage_through_the_backend_default() -> None:
    assert volta.wgpu.is_available(), "no WebGPU adapter: install mesa-vulkan-drivers"
    base = volta.arange(4.0, device="wgpu")
    view = base[1:]
    view.resize_(2, 3)
    assert view.device.type == "wgpu" and view.untyped_storage() is base.untyped_storage()
    np.testing.assert_array_equal(view.cpu().numpy(), [[1, 2, 3], [0, 0, 0]])
    base[2] = 9.0
    view.add_(1.0)
    np.testing.assert_array_equal(base.cpu().numpy(), [0, 2, 10, 4])
    np.testing.assert_array_equal(view.cpu().numpy(), [[2, 10, 4], [1, 1, 1]])
    other = volta.zeros(5, device="wgpu")
    other.resize_as_(volta.zeros(2, 4))
    np.testing.assert_array_equal(other.cpu().numpy(), np.zeros((2, 4)))


# every dtype on the CPU; on WGPU the ones it stores (bool, float16, float32, int32, int64)
@pytest.mark.parametrize("device,dtype", [
    *(("cpu", d) for d in ("int64", "bool", "bfloat16", "float16", "uint8", "int8")),
    *(("wgpu", d) for d in ("int64", "int32", "bool", "float16"))])
def test_resize_grows_storages_of_every_dtype(device: str, dtype: str) -> None:
    t = volta.ones(2, dtype=getattr(volta, dtype), device=device)
    t.resize_(2, 2)
    expected = torch.tensor([[1, 1], [0, 0]], dtype=getattr(torch, dtype))
    assert t.dtype == getattr(volta, dtype) and t.device.type == device
    np.testing.assert_array_equal(t.cpu().float().numpy(), expected.float().numpy())
