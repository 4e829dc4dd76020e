"""float32 add/sub/mul/div/neg through the compiled kernels (volta/backends/cpu/elementwise.py):
values against PyTorch for every operand shape the kernel takes (and the ones it leaves to
numpy), in place and out of place, IEEE special values, and the same bits on 1, 2 or 3 threads.
With VOLTA_NATIVE=0 the same tests check the numpy path."""

import numpy as np
import pytest
import torch

import volta

OPS = ["add", "sub", "mul", "div"]


@pytest.fixture(autouse=True)
def _compiled_path_at_every_size(monkeypatch):
    # out of place, tensors below NATIVE_MIN_ELEMENTS take numpy's loop (cheaper per call); these
    # tests use small tensors to check the compiled kernel itself
    from volta.backends.cpu import elementwise

    monkeypatch.setattr(elementwise, "NATIVE_MIN_ELEMENTS", 0)
SPECIALS = np.array([np.nan, np.inf, -np.inf, 0.0, -0.0, 1.0, -2.5, 3e38, 1e-40], np.float32)


def _pair(shape_a, shape_b, seed=0):
    rng = np.random.default_rng(seed)
    a = np.asarray(rng.standard_normal(shape_a), np.float32)
    b = np.asarray(rng.standard_normal(shape_b) + 0.1, np.float32)
    return a, b


def _check(result, expected):
    torch.testing.assert_close(torch.from_numpy(result.numpy()), expected, equal_nan=True,
                               atol=0, rtol=0)


SHAPES = [
    ((4, 5), (4, 5)),  # same shape
    ((4, 5), (5,)),  # row vector
    ((3, 4, 5), (1, 1, 5)),  # row vector with size-1 dims
    ((5,), (4, 5)),  # row vector first
    ((4, 5), (4, 1)),  # column vector
    ((4, 1), (4, 5)),  # column vector first
    ((2, 4, 5), (4, 1)),  # a broadcast the kernel leaves to numpy
    ((4, 5), ()),  # 0-d tensor
    ((), ()),
    ((0, 5), (5,)),  # zero-size
    ((4, 0), (4, 1)),
    ((1, 1), (1, 1)),
]


@pytest.mark.parametrize("op", OPS)
@pytest.mark.parametrize("shapes", SHAPES, ids=str)
def test_tensor_tensor_matches_torch(op, shapes):
    a, b = _pair(*shapes)
    _check(getattr(volta, op)(volta.tensor(a), volta.tensor(b)),
           getattr(torch, op)(torch.from_numpy(a), torch.from_numpy(b)))


@pytest.mark.parametrize("op", ["add", "sub"])
@pytest.mark.parametrize("alpha", [2, -0.3, 1e-3])
def test_alpha_rounds_once_as_in_torch(op, alpha):
    a, b = _pair((64, 33), (64, 33))
    _check(getattr(volta, op)(volta.tensor(a), volta.tensor(b), alpha=alpha),
           getattr(torch, op)(torch.from_numpy(a), torch.from_numpy(b), alpha=alpha))
    _check(getattr(volta, op)(volta.tensor(a), volta.tensor(b[0]), alpha=alpha),
           getattr(torch, op)(torch.from_numpy(a), torch.from_numpy(b[0]), alpha=alpha))


@pytest.mark.parametrize("op", OPS)
@pytest.mark.parametrize("number", [1.5, 3, -0.0, 1e-30, 2 ** 60, float("inf"), float("nan")])
def test_tensor_number_matches_torch(op, number):
    a, _ = _pair((7, 9), (1,))
    _check(getattr(volta, op)(volta.tensor(a), number),
           getattr(torch, op)(torch.from_numpy(a), number))


@pytest.mark.parametrize("op", OPS)
def test_special_values_follow_ieee(op):
    a = np.repeat(SPECIALS, SPECIALS.size)
    b = np.tile(SPECIALS, SPECIALS.size)
    _check(getattr(volta, op)(volta.tensor(a), volta.tensor(b)),
           getattr(torch, op)(torch.from_numpy(a), torch.from_numpy(b)))


def test_neg_matches_torch_with_signed_zeros():
    _check(volta.neg(volta.tensor(SPECIALS)), torch.neg(torch.from_numpy(SPECIALS)))
    x = volta.tensor(SPECIALS)
    x.neg_()
    _check(x, torch.neg(torch.from_numpy(SPECIALS)))
    assert np.signbit(x.numpy()[3]) and not np.signbit(x.numpy()[4])


def test_non_contiguous_and_other_dtypes_take_the_numpy_path():
    a, b = _pair((6, 8), (8, 6))
    ta, tb = torch.from_numpy(a), torch.from_numpy(b)
    _check(volta.mul(volta.tensor(a), volta.tensor(b).t()), ta * tb.t())
    _check(volta.add(volta.tensor(a)[:, ::2], 1.5), ta[:, ::2] + 1.5)
    _check(volta.neg(volta.tensor(b).t()), -tb.t())
    d = volta.add(volta.tensor(a.astype(np.float64)), volta.tensor(b.T.copy()))
    assert d.dtype == volta.float64
    torch.testing.assert_close(torch.from_numpy(d.numpy()), ta.double() + tb.t())
    i = volta.mul(volta.tensor(np.arange(6)), 2.5)
    assert i.dtype == volta.float32


@pytest.mark.parametrize("op", OPS)
@pytest.mark.parametrize("other_shape", [(6, 7), (7,), (6, 1), ()], ids=str)
def test_inplace_matches_torch(op, other_shape):
    a, b = _pair((6, 7), other_shape)
    x, y = volta.tensor(a), volta.tensor(b)
    version = x._version if hasattr(x, "_version") else x._storage.version
    result = getattr(x, op + "_")(y)
    assert result is x
    assert x._storage.version == version + 1
    expected = torch.from_numpy(a.copy())
    getattr(expected, op + "_")(torch.from_numpy(b))
    _check(x, expected)


@pytest.mark.parametrize("op", OPS)
def test_inplace_with_itself_and_with_views_of_itself(op):
    a, _ = _pair((6, 8), (1,))
    x = volta.tensor(a)
    getattr(x, op + "_")(x)
    expected = torch.from_numpy(a.copy())
    getattr(expected, op + "_")(expected)
    _check(x, expected)
    # the row vector is row 0 of the tensor being written: PyTorch reads it before writing
    # row 0 only if the memory does not overlap, so compare with a copy where it is safe
    x = volta.tensor(a)
    row = x[1].clone()
    getattr(x[2:], op + "_")(x[1])
    expected = torch.from_numpy(a.copy())
    getattr(expected[2:], op + "_")(torch.from_numpy(row.numpy()))
    _check(x, expected)


def test_inplace_into_a_view_and_a_strided_tensor():
    a, b = _pair((6, 8), (8,))
    x = volta.tensor(a)
    x[1:3].add_(volta.tensor(b), alpha=2)
    x.t().mul_(2.0)
    expected = torch.from_numpy(a.copy())
    expected[1:3].add_(torch.from_numpy(b), alpha=2)
    expected.t().mul_(2.0)
    _check(x, expected)


def test_inplace_operators_and_broadcast_errors():
    a, b = _pair((4, 5), (5,))
    x = volta.tensor(a)
    x += volta.tensor(b)
    x *= 3
    x -= 1
    x /= volta.tensor(b)
    expected = ((torch.from_numpy(a) + torch.from_numpy(b)) * 3 - 1) / torch.from_numpy(b)
    _check(x, expected)
    with pytest.raises(volta.VoltaError):
        volta.tensor(b).add_(volta.tensor(a))  # the result's shape is not self's


@pytest.mark.parametrize("threads", [1, 2, 3])
@pytest.mark.parametrize("op", OPS + ["neg"])
def test_split_over_threads_gives_the_same_values(op, threads):
    a, b = _pair((600, 331), (600, 331))  # large enough to be split three ways
    previous = volta.get_num_threads()
    volta.set_num_threads(threads)
    try:
        if op == "neg":
            result = volta.neg(volta.tensor(a))
            expected = -torch.from_numpy(a)
        else:
            result = getattr(volta, op)(volta.tensor(a), volta.tensor(b[0]))
            expected = getattr(torch, op)(torch.from_numpy(a), torch.from_numpy(b[0]))
    finally:
        volta.set_num_threads(previous)
    _check(result, expected)


def test_autograd_through_the_compiled_kernels():
    a, b = _pair((5, 6), (6,))
    x, y = volta.tensor(a, requires_grad=True), volta.tensor(b, requires_grad=True)
    ((x + y) * x / y - x).sum().backward()
    tx = torch.from_numpy(a).requires_grad_()
    ty = torch.from_numpy(b).requires_grad_()
    ((tx + ty) * tx / ty - tx).sum().backward()
    torch.testing.assert_close(torch.from_numpy(x.grad.numpy()), tx.grad)
    torch.testing.assert_close(torch.from_numpy(y.grad.numpy()), ty.grad)


@pytest.mark.parametrize("op", OPS)
@pytest.mark.parametrize("value", [0.37, -0.0, np.inf, np.nan])
def test_an_expanded_scalar_operand_matches_torch(monkeypatch, op, value):
    # a sum's backward hands on its gradient as a scalar expanded to the full shape: the kernel
    # takes it as one number (SCALAR mode), on either side
    from volta.backends.cpu import elementwise

    calls = []
    if elementwise._native is not None:
        real = elementwise._native

        class Counting:
            def binary(self, *args):
                calls.append(args[6:8])
                return real.binary(*args)

        monkeypatch.setattr(elementwise, "_native", Counting())
    x = _pair((6, 7), ())[0]
    for lib, results in ((volta, []), (torch, [])):
        scalar = lib.tensor(np.float32(value)).expand(6, 7)
        column = lib.tensor(np.full((6, 1), value, np.float32)).expand(6, 7)
        dense = lib.tensor(x)
        results += [getattr(lib, op)(scalar, dense), getattr(lib, op)(dense, scalar),
                    getattr(lib, op)(column, dense)]
        if lib is volta:
            got = results
        else:
            expected = results
    for g, e in zip(got, expected):
        _check(g, e)
    if elementwise._native is not None:  # the two scalar calls took the compiled kernel
        assert (3, 0) in calls and (0, 3) in calls
