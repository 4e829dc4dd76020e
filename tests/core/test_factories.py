"""Tensor factories against PyTorch: tensor() dtype inference, zeros/ones/empty/full, arange,
linspace/logspace, eye, random factories, *_like, seeding and Generator objects,
requires_grad= and device=."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
import torch

import volta
from volta import DTypeError, ShapeError, VoltaError


def _name(dt: Any) -> str:
    return str(dt).split(".")[-1]


def _same(v: volta.Tensor, t: torch.Tensor, exact: bool = True, strides: bool = True) -> None:
    assert _name(v.dtype) == _name(t.dtype)
    assert tuple(v.shape) == tuple(t.shape)
    assert v.requires_grad == t.requires_grad
    if strides:
        assert v.stride() == t.stride() or v.numel() == 0
    if exact:
        assert v.detach().tolist() == t.detach().tolist()
    else:
        # half types: torch steps in half precision, volta rounds an exact value, so 1 ulp apart
        tol = 1e-2 if _name(t.dtype) in ("float16", "bfloat16") else 1e-6
        np.testing.assert_allclose(v.detach().double().numpy(), t.detach().double().numpy(),
                                   rtol=tol, atol=tol)


# ------------------------------------------------------------------------------- tensor()

DATA = {
    "float_list": [1.0, 2.5],
    "int_list": [1, 2, 3],
    "bool_list": [True, False],
    "mixed_int_float": [1, 2.5],
    "mixed_bool_int": [True, 2],
    "mixed_bool_float": [True, 2.5],
    "nested": [[1, 2], [3, 4]],
    "nested_mixed": [[1, 2], [3.0, 4]],
    "tuple": (1, 2),
    "list_of_tuples": [(1, 2), (3, 4)],
    "empty": [],
    "empty_nested": [[]],
    "empty_nested2": [[], []],
    "int_scalar": 3,
    "float_scalar": 3.5,
    "bool_scalar": True,
    "big_int": [2**40],
    "negative": [-1, -2],
    "np_float64_scalar": np.float64(1.5),
    "np_int32_scalar": np.int32(3),
    "np_float16_scalar": np.float16(1.0),
    "np_bool_scalar": np.bool_(True),
    "np_float64_in_list": [np.float64(1.5), 2.0],
    "np_int32_in_list": [np.int32(1), np.int16(2)],
    "np_int32_with_int": [np.int32(1), 2],
    "np_uint8_int8": [np.uint8(1), np.int8(1)],
    "np_array_f64": np.array([1.0, 2.0]),
    "np_array_f32": np.array([1.0, 2.0], dtype=np.float32),
    "np_array_i32": np.array([[1, 2]], dtype=np.int32),
    "np_array_u8": np.array([1, 255], dtype=np.uint8),
    "np_array_bool": np.array([True]),
    "np_array_0d": np.array(3),
    "np_array_empty_int": np.array([], dtype=np.int64),
    "list_of_arrays": [np.array([1, 2], dtype=np.int32), np.array([3, 4], dtype=np.int32)],
    "non_contiguous_array": np.arange(12.0).reshape(3, 4)[:, ::2],
}


@pytest.mark.parametrize("name", sorted(DATA))
def test_tensor_infers_dtype_and_shape_like_torch(name: str) -> None:
    _same(volta.tensor(DATA[name]), torch.tensor(DATA[name]))


# torch refuses to convert these three with a narrower explicit dtype
EXPLICIT = sorted(set(DATA) - {"big_int", "np_bool_scalar", "np_float16_scalar"})


@pytest.mark.parametrize("name", EXPLICIT)
@pytest.mark.parametrize("dt", ["float64", "int32", "bool", "float16", "bfloat16"])
def test_tensor_with_explicit_dtype(name: str, dt: str) -> None:
    v = volta.tensor(DATA[name], dtype=getattr(volta, dt))
    t = torch.tensor(DATA[name], dtype=getattr(torch, dt))
    _same(v, t)


def test_tensor_copies_its_input() -> None:
    arr = np.zeros(3, dtype=np.float32)
    v = volta.tensor(arr)
    arr[0] = 1.0
    assert v[0].item() == 0.0
    src = volta.zeros(3)
    w = volta.tensor(src)
    src.add_(1)
    assert w.tolist() == [0.0, 0.0, 0.0]


def test_tensor_of_tensors() -> None:
    v = volta.tensor([volta.tensor(1.0), volta.tensor(2.0)])
    t = torch.tensor([torch.tensor(1.0), torch.tensor(2.0)])
    _same(v, t)
    _same(volta.tensor([volta.tensor(1, dtype=volta.int32)]),
          torch.tensor([torch.tensor(1, dtype=torch.int32)]))


def test_tensor_follows_default_dtype() -> None:
    volta.set_default_dtype(volta.float64)
    try:
        assert volta.tensor([1.5]).dtype is volta.float64
        assert volta.tensor(1.5).dtype is volta.float64
        assert volta.tensor([1, 2]).dtype is volta.int64
        assert volta.tensor([]).dtype is volta.float64
        assert volta.tensor(np.float32(1)).dtype is volta.float32
    finally:
        volta.set_default_dtype(volta.float32)


def test_tensor_ragged_or_bad_input_raises() -> None:
    with pytest.raises(ValueError):
        torch.tensor([[1, 2], [3]])
    with pytest.raises(ShapeError):
        volta.tensor([[1, 2], [3]])
    with pytest.raises(VoltaError):
        volta.tensor(object())
    with pytest.raises(VoltaError):
        volta.tensor(["a", "b"])
    with pytest.raises(DTypeError):
        volta.tensor(np.array([1 + 2j]))


def test_tensor_requires_grad_and_device() -> None:
    v = volta.tensor([1.0, 2.0], requires_grad=True, device="cpu")
    assert v.requires_grad and v.is_leaf and v.device == "cpu"
    assert volta.tensor([1.0], device=volta.device("cpu")).device.type == "cpu"
    with pytest.raises(DTypeError):
        volta.tensor([1, 2], requires_grad=True)


def test_as_tensor_shares_numpy_memory_when_it_can() -> None:
    arr = np.arange(3.0)
    v = volta.as_tensor(arr)
    arr[0] = 7.0
    assert v[0].item() == 7.0
    w = volta.as_tensor(arr, dtype=volta.float32)  # a dtype change must copy
    arr[1] = -1.0
    assert w[1].item() == 1.0
    x = volta.zeros(2)
    assert volta.as_tensor(x) is x


def test_scalar_tensor_uses_default_dtype_like_torch() -> None:
    _same(volta.scalar_tensor(3), torch.scalar_tensor(3))
    _same(volta.scalar_tensor(2.5), torch.scalar_tensor(2.5))
    _same(volta.scalar_tensor(1, dtype=volta.int32), torch.scalar_tensor(1, dtype=torch.int32))


# ----------------------------------------------------------------- zeros / ones / empty / full

SIZES = [(), (0,), (3,), (2, 3), (1, 0, 2)]


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("fn", ["zeros", "ones"])
@pytest.mark.parametrize("dt", [None, "float64", "int32", "bool", "bfloat16", "uint8"])
def test_zeros_ones_match_torch(size, fn: str, dt: str | None) -> None:
    vk = {} if dt is None else {"dtype": getattr(volta, dt)}
    tk = {} if dt is None else {"dtype": getattr(torch, dt)}
    _same(getattr(volta, fn)(size, **vk), getattr(torch, fn)(size, **tk))
    if size:  # zeros() with no size at all is an error in torch
        _same(getattr(volta, fn)(*size, **vk), getattr(torch, fn)(*size, **tk))
    _same(getattr(volta, fn)(list(size), **vk), getattr(torch, fn)(list(size), **tk))


def test_size_argument_forms() -> None:
    for size in [volta.Size([2, 3]), (np.int64(2), 3), [2, 3]]:
        assert volta.zeros(size).shape == (2, 3)
    assert volta.ones(volta.zeros(4, 5).shape).shape == (4, 5)
    with pytest.raises(ShapeError):
        volta.zeros(-1)
    # a size that is no int is PyTorch's TypeError (ArgumentError), never truncated
    for bad in [(2, "a"), (2.5,), (2, 3.0), (True, 2)]:
        with pytest.raises(volta.ArgumentError):
            volta.zeros(*bad)
        with pytest.raises(TypeError):
            torch.zeros(*bad)


@pytest.mark.parametrize("dt", ["float32", "int64", "float16"])
def test_empty_has_shape_and_dtype(dt: str) -> None:
    v = volta.empty(2, 3, dtype=getattr(volta, dt))
    assert v.shape == (2, 3) and v.dtype is getattr(volta, dt) and v.is_contiguous()
    v.fill_(1)
    assert v.sum().item() == 6


@pytest.mark.parametrize("value", [3, 3.5, True, -2, 0.1])
@pytest.mark.parametrize("dt", [None, "float64", "int16", "float16"])
def test_full_matches_torch(value, dt: str | None) -> None:
    vk = {} if dt is None else {"dtype": getattr(volta, dt)}
    tk = {} if dt is None else {"dtype": getattr(torch, dt)}
    _same(volta.full((2, 2), value, **vk), torch.full((2, 2), value, **tk))
    _same(volta.full([3], value, **vk), torch.full([3], value, **tk))


def test_full_with_tensor_fill_value() -> None:
    _same(volta.full((2,), volta.tensor(4.0)), torch.full((2,), torch.tensor(4.0)))


@pytest.mark.parametrize("fn", ["zeros", "ones", "empty", "rand", "randn"])
def test_requires_grad_argument(fn: str) -> None:
    v = getattr(volta, fn)(2, 3, requires_grad=True)
    assert v.requires_grad and v.is_leaf and v.grad_fn is None
    (v * 2).sum().backward()
    assert v.grad.tolist() == [[2.0] * 3] * 2
    with pytest.raises(DTypeError):
        getattr(volta, "zeros")(2, dtype=volta.int64, requires_grad=True)


@pytest.mark.parametrize("fn", ["zeros", "ones", "empty", "rand", "randn", "eye"])
def test_device_argument(fn: str) -> None:
    for dev in ("cpu", volta.device("cpu"), None):
        v = getattr(volta, fn)(3, device=dev)
        assert v.device == volta.device("cpu")
    with pytest.raises(volta.BackendError):
        getattr(volta, fn)(3, device="nope")
    with pytest.raises(volta.BackendError):
        getattr(volta, fn)(3, device="cpu:x")


# ----------------------------------------------------------------------------------- arange

ARANGE = [
    (5,), (5.0,), (1, 4), (0, 1, 0.1), (10, 0, -3), (1.5, -2, -0.5), (0, 2.5), (-3, 3, 2),
    (0, 0), (3, 3, -1), (0.0, 1.0, 0.3), (0, 10, 3), (100, 0, -7), (0, 1, 1 / 3), (-1.0, 1.0, 0.25),
]


@pytest.mark.parametrize("args", ARANGE, ids=repr)
def test_arange_matches_torch(args) -> None:
    _same(volta.arange(*args), torch.arange(*args), exact=False)


@pytest.mark.parametrize("dt", ["float64", "int32", "float16", "int64", "bfloat16"])
def test_arange_with_dtype(dt: str) -> None:
    for args in [(5,), (0, 5, 2), (0.5, 3), (4, 0, -1)]:
        _same(volta.arange(*args, dtype=getattr(volta, dt)),
              torch.arange(*args, dtype=getattr(torch, dt)), exact=False)


def test_arange_accepts_zero_dim_tensors_and_keywords() -> None:
    _same(volta.arange(volta.tensor(3)), torch.arange(torch.tensor(3)))
    _same(volta.arange(start=1, end=7, step=2), torch.arange(start=1, end=7, step=2))
    _same(volta.arange(0, 3, requires_grad=False), torch.arange(0, 3))


@pytest.mark.parametrize("args", [(0, 5, 0), (0, -5), (5, 1), (0, 5, -1)], ids=repr)
def test_arange_bad_bounds_raise(args) -> None:
    with pytest.raises(RuntimeError):
        torch.arange(*args)
    with pytest.raises(VoltaError):
        volta.arange(*args)


# ------------------------------------------------------------------------- linspace, logspace


@pytest.mark.parametrize("args", [(0, 1, 5), (-1, 1, 1), (-1, 1, 0), (2, -2, 7), (0, 10, 4),
                                  (0.5, 0.75, 3), (-5, 5, 11)], ids=repr)
@pytest.mark.parametrize("dt", [None, "float64", "int64", "float16"])
def test_linspace_matches_torch(args, dt: str | None) -> None:
    vk = {} if dt is None else {"dtype": getattr(volta, dt)}
    tk = {} if dt is None else {"dtype": getattr(torch, dt)}
    _same(volta.linspace(*args, **vk), torch.linspace(*args, **tk), exact=False)


@pytest.mark.parametrize("args,base", [((0, 2, 3), 10.0), ((0, 3, 4), 2), ((-2, 2, 5), 10.0),
                                       ((1, 1, 1), 3.0), ((0, 1, 0), 10.0)], ids=repr)
def test_logspace_matches_torch(args, base) -> None:
    _same(volta.logspace(*args, base=base), torch.logspace(*args, base=base), exact=False)
    _same(volta.logspace(*args, base=base, dtype=volta.float64),
          torch.logspace(*args, base=base, dtype=torch.float64), exact=False)


def test_linspace_negative_steps_raise() -> None:
    with pytest.raises(VoltaError):
        volta.linspace(0, 1, -1)


# ------------------------------------------------------------------------------------- eye


@pytest.mark.parametrize("args", [(3,), (2, 4), (4, 2), (0,), (1, 1), (3, 0)], ids=repr)
@pytest.mark.parametrize("dt", [None, "int64", "bool", "float64"])
def test_eye_matches_torch(args, dt: str | None) -> None:
    vk = {} if dt is None else {"dtype": getattr(volta, dt)}
    tk = {} if dt is None else {"dtype": getattr(torch, dt)}
    _same(volta.eye(*args, **vk), torch.eye(*args, **tk))


def test_eye_requires_grad() -> None:
    _same(volta.eye(2, requires_grad=True), torch.eye(2, requires_grad=True))


# ---------------------------------------------------------------------------- random factories


@pytest.mark.parametrize("dt", [None, "float64", "float16", "bfloat16"])
def test_rand_range_shape_and_dtype(dt: str | None) -> None:
    kw = {} if dt is None else {"dtype": getattr(volta, dt)}
    v = volta.rand(100, 50, **kw)
    assert v.shape == (100, 50)
    assert v.dtype is (volta.float32 if dt is None else getattr(volta, dt))
    arr = v.numpy().astype(np.float64)
    assert arr.min() >= 0.0 and arr.max() <= 1.0
    assert abs(arr.mean() - 0.5) < 0.02
    assert abs(arr.std() - np.sqrt(1 / 12)) < 0.02


@pytest.mark.parametrize("dt", [None, "float64", "float16"])
def test_randn_moments(dt: str | None) -> None:
    kw = {} if dt is None else {"dtype": getattr(volta, dt)}
    v = volta.randn(200, 100, **kw)
    arr = v.numpy().astype(np.float64)
    assert abs(arr.mean()) < 0.03
    assert abs(arr.std() - 1.0) < 0.03


@pytest.mark.parametrize("fn", ["rand", "randn"])
@pytest.mark.parametrize("dt", ["int64", "int32", "bool", "uint8"])
def test_rand_with_integer_dtype_raises(fn: str, dt: str) -> None:
    with pytest.raises((RuntimeError, NotImplementedError)):
        getattr(torch, fn)(3, dtype=getattr(torch, dt))
    with pytest.raises(DTypeError):
        getattr(volta, fn)(3, dtype=getattr(volta, dt))


@pytest.mark.parametrize("args", [(0, 5, (1000,)), (5, (1000,)), (-3, 3, (40, 25)),
                                  (7, 8, (3,)), (0, 2**40, (100,))], ids=repr)
def test_randint_range_and_dtype(args) -> None:
    v, t = volta.randint(*args), torch.randint(*args)
    assert _name(v.dtype) == _name(t.dtype) == "int64"
    assert tuple(v.shape) == tuple(t.shape)
    low, high = (0, args[0]) if len(args) == 2 else args[:2]
    arr = v.numpy()
    assert arr.min() >= low and arr.max() < high
    if high - low <= 10:
        assert set(np.unique(arr)) == set(range(low, high))  # every value is drawn


def test_randint_dtype_and_errors() -> None:
    assert volta.randint(0, 3, (4,), dtype=volta.int32).dtype is volta.int32
    assert volta.randint(0, 2, (4,), dtype=volta.float32).dtype is volta.float32
    with pytest.raises(VoltaError, match="from=5 >= to=4"):
        volta.randint(5, 4, (2,))


@pytest.mark.parametrize("n", [0, 1, 5, 100])
def test_randperm_is_a_permutation(n: int) -> None:
    v = volta.randperm(n)
    assert v.dtype is volta.int64 and v.shape == (n,)
    assert sorted(v.tolist()) == list(range(n))
    assert volta.randperm(n, dtype=volta.int32).dtype is volta.int32


def test_randperm_shuffles() -> None:
    volta.manual_seed(0)
    perms = {tuple(volta.randperm(8).tolist()) for _ in range(10)}
    assert len(perms) > 1


# ---------------------------------------------------------------------------------- *_like


LIKE_BASES = {
    "float": lambda lib: lib.arange(6.0).view(2, 3),
    "int": lambda lib: lib.arange(6).view(2, 3),
    "float64_transposed": lambda lib: lib.arange(6.0, dtype=lib.float64).view(2, 3).t(),
    "bool": lambda lib: lib.tensor([True, False]),
    "zero_dim": lambda lib: lib.tensor(2.5),
}


@pytest.mark.parametrize("base", sorted(LIKE_BASES))
@pytest.mark.parametrize("fn,args", [("zeros_like", ()), ("ones_like", ()), ("full_like", (7,)),
                                     ("full_like", (2.5,)), ("full_like", (True,))], ids=repr)
def test_deterministic_like_matches_torch(base: str, fn: str, args) -> None:
    vb, tb = LIKE_BASES[base](volta), LIKE_BASES[base](torch)
    # torch's preserve_format keeps a transposed input's strides; volta returns contiguous
    # results, which is a layout detail rather than a semantic one, so strides are not compared
    _same(getattr(volta, fn)(vb, *args), getattr(torch, fn)(tb, *args), strides=False)
    _same(getattr(volta, fn)(vb, *args, dtype=volta.float64),
          getattr(torch, fn)(tb, *args, dtype=torch.float64), strides=False)


@pytest.mark.parametrize("base", sorted(LIKE_BASES))
def test_empty_like_shape_and_dtype(base: str) -> None:
    vb, tb = LIKE_BASES[base](volta), LIKE_BASES[base](torch)
    v, t = volta.empty_like(vb), torch.empty_like(tb)
    assert tuple(v.shape) == tuple(t.shape) and _name(v.dtype) == _name(t.dtype)


@pytest.mark.parametrize("fn", ["rand_like", "randn_like"])
def test_random_like(fn: str) -> None:
    base = volta.zeros(50, 40, dtype=volta.float64)
    v = getattr(volta, fn)(base)
    assert v.shape == base.shape and v.dtype is volta.float64
    assert len(np.unique(v.numpy())) > 1900
    assert getattr(volta, fn)(base, dtype=volta.float16).dtype is volta.float16
    with pytest.raises(DTypeError):  # torch refuses these for integer tensors as well
        getattr(volta, fn)(volta.zeros(3, dtype=volta.int64))


def test_randint_like_forms() -> None:
    base = volta.zeros(100, 10)
    v = volta.randint_like(base, 3, 6)
    assert v.shape == (100, 10) and v.dtype is volta.float32
    assert set(np.unique(v.numpy())) == {3.0, 4.0, 5.0}
    w = volta.randint_like(base, 4)  # torch's randint_like(input, high)
    assert set(np.unique(w.numpy())) == {0.0, 1.0, 2.0, 3.0}


def test_like_with_requires_grad() -> None:
    base = volta.zeros(2)
    for fn in (volta.zeros_like, volta.ones_like, volta.rand_like, volta.randn_like):
        assert fn(base, requires_grad=True).requires_grad


def test_like_results_do_not_alias_input() -> None:
    base = volta.ones(3)
    z = volta.zeros_like(base)
    z.fill_(5.0)
    assert base.tolist() == [1.0, 1.0, 1.0]
    assert z.untyped_storage() is not base.untyped_storage()


# ------------------------------------------------------------------------- seeds and generators


@pytest.mark.parametrize("fn", [
    lambda g: volta.rand(4, 3, generator=g),
    lambda g: volta.randn(5, generator=g),
    lambda g: volta.randint(0, 100, (6,), generator=g),
    lambda g: volta.randperm(10, generator=g),
])
def test_manual_seed_reproduces(fn) -> None:
    volta.manual_seed(1234)
    a = fn(None)
    b = fn(None)
    volta.manual_seed(1234)
    c = fn(None)
    assert a.tolist() == c.tolist()
    assert a.tolist() != b.tolist()
    volta.manual_seed(4321)
    assert fn(None).tolist() != a.tolist()


def test_manual_seed_returns_generator_and_initial_seed() -> None:
    g = volta.manual_seed(7)
    assert isinstance(g, volta.Generator)
    assert volta.initial_seed() == 7


def test_manual_seed_covers_like_factories_and_dropout_style_use() -> None:
    base = volta.zeros(4)
    volta.manual_seed(3)
    a = (volta.rand_like(base), volta.randn_like(base), volta.randint_like(base, 0, 9))
    volta.manual_seed(3)
    b = (volta.rand_like(base), volta.randn_like(base), volta.randint_like(base, 0, 9))
    for x, y in zip(a, b):
        assert x.tolist() == y.tolist()


def test_generator_objects_are_independent() -> None:
    g1 = volta.Generator().manual_seed(42)
    g2 = volta.Generator()
    assert g2.manual_seed(42) is g2
    volta.manual_seed(0)
    x = volta.rand(5, generator=g1)
    _ = volta.rand(5)  # the default generator does not disturb g1/g2
    y = volta.rand(5, generator=g2)
    assert x.tolist() == y.tolist()
    assert g1.initial_seed() == 42
    # drawing from g1 does not move the default generator
    volta.manual_seed(9)
    expected = volta.rand(3).tolist()
    volta.manual_seed(9)
    volta.rand(3, generator=g1)
    assert volta.rand(3).tolist() == expected


def test_generator_get_state_set_state() -> None:
    g = volta.Generator().manual_seed(5)
    volta.rand(3, generator=g)
    state = g.get_state()
    assert isinstance(state, volta.Tensor) and state.dtype is volta.uint8
    a = volta.randn(4, generator=g)
    b = volta.randn(4, generator=g)
    g.set_state(state)
    assert volta.randn(4, generator=g).tolist() == a.tolist()
    assert volta.randn(4, generator=g).tolist() == b.tolist()
    # the state moves between generators
    other = volta.Generator()
    other.set_state(state)
    assert volta.randn(4, generator=other).tolist() == a.tolist()


def test_generator_seed_gives_fresh_entropy() -> None:
    g = volta.Generator()
    s1 = g.seed()
    s2 = g.seed()
    assert s1 != s2
    assert g.initial_seed() == s2


def test_normal_factory() -> None:
    volta.manual_seed(0)
    v = volta.normal(2.0, 3.0, size=(200, 100))
    arr = v.numpy().astype(np.float64)
    assert abs(arr.mean() - 2.0) < 0.1 and abs(arr.std() - 3.0) < 0.1
    mean = volta.zeros(1000) + 5.0
    w = volta.normal(mean, 0.5)
    assert w.shape == (1000,) and abs(w.mean().item() - 5.0) < 0.1


@pytest.mark.parametrize("data", [[2**70, 6.06, float("nan"), 7.7],
                                  [-(2**63) - 1, 5.79, 2**70, float("inf")],
                                  [[2**70, 1.5], [1, 2]], [2**70, 1], [10**400, 1.5]])
def test_an_int_beyond_int64_among_floats_is_a_float_as_in_pytorch(data: list) -> None:
    from tests.core.agreement import agree
    agree(lambda: volta.tensor(data), lambda: torch.tensor(data),
          lambda v, t: np.testing.assert_array_equal(v.numpy(), t.numpy()))
