"""dtypes, their PyTorch aliases, type promotion (exhaustively against torch), the default
dtype, finfo and iinfo."""

from __future__ import annotations

import itertools
from typing import Any

import numpy as np
import pytest
import torch

import volta
from volta import DTypeError

NAMES = ["float32", "float64", "float16", "bfloat16", "int8", "uint8", "int16", "int32", "int64",
         "bool"]
PAIRS = list(itertools.product(NAMES, NAMES))
ALIASES = {"float": "float32", "double": "float64", "half": "float16", "long": "int64",
           "int": "int32", "short": "int16", "bool": "bool"}


def vdt(name: str) -> volta.dtype:
    return getattr(volta, name)


def tdt(name: str) -> torch.dtype:
    return getattr(torch, name)


def _name(dt: torch.dtype | volta.dtype) -> str:
    return str(dt).split(".")[-1]


def _make(lib, name: str, ndim: int):
    shape = (2,) * ndim
    return lib.ones(shape, dtype=getattr(lib, name))


# ----------------------------------------------------------------------------------- basics


@pytest.mark.parametrize("name", NAMES)
def test_dtype_exists_with_torch_properties(name: str) -> None:
    d, t = vdt(name), tdt(name)
    assert isinstance(d, volta.dtype)
    assert repr(d) == repr(t).replace("torch", "volta")
    assert d.is_floating_point == t.is_floating_point
    assert d.is_signed == t.is_signed
    assert d.itemsize == t.itemsize
    assert d.is_complex is False


def test_float32_is_the_default() -> None:
    assert volta.get_default_dtype() is volta.float32
    assert volta.tensor([1.0]).dtype is volta.float32
    assert volta.zeros(1).dtype is volta.float32


@pytest.mark.parametrize("alias,name", sorted(ALIASES.items()))
def test_pytorch_aliases(alias: str, name: str) -> None:
    assert getattr(volta, alias) is vdt(name)
    assert volta.zeros(1, dtype=getattr(volta, alias)).dtype is vdt(name)
    assert volta.zeros(1).to(alias).dtype is vdt(name)


def test_dtype_argument_takes_python_types_like_pytorch() -> None:
    # Python's float is a double: dtype=float means float64, as in PyTorch
    assert volta.zeros(1, dtype=float).dtype is volta.float64
    assert volta.tensor([1], dtype=float).dtype is volta.float64
    assert volta.zeros(1, dtype=int).dtype is volta.int64
    assert volta.zeros(1, dtype=bool).dtype is volta.bool


@pytest.mark.parametrize("bad", ["float32", "int16", "complex128", np.float64])
def test_dtype_argument_rejects_names_and_numpy_dtypes(bad: Any) -> None:
    # PyTorch: "argument 'dtype' must be torch.dtype, not str"
    for make in (lambda: volta.zeros(1, dtype=bad), lambda: volta.tensor([1.0], dtype=bad),
                 lambda: volta.ones(2).sum(dtype=bad), lambda: volta.arange(3, dtype=bad)):
        with pytest.raises(volta.VoltaError, match="argument 'dtype' must be volta.dtype"
                           ) as info:
            make()
        assert isinstance(info.value, TypeError)


@pytest.mark.parametrize("name", NAMES)
def test_numpy_round_trip_keeps_dtype(name: str) -> None:
    v = volta.ones(3, dtype=vdt(name))
    assert volta.from_numpy(v.numpy()).dtype is vdt(name)
    assert volta.tensor(v.numpy()).dtype is vdt(name)


# ---------------------------------------------------------------------------- promote_types


@pytest.mark.parametrize("a,b", PAIRS)
def test_promote_types_matches_torch(a: str, b: str) -> None:
    assert _name(volta.promote_types(vdt(a), vdt(b))) == _name(torch.promote_types(tdt(a),
                                                                                     tdt(b)))


@pytest.mark.parametrize("a,b", PAIRS)
def test_can_cast_matches_torch(a: str, b: str) -> None:
    from volta.dtypes import can_cast
    assert can_cast(vdt(a), vdt(b)) == torch.can_cast(tdt(a), tdt(b))


# ------------------------------------------------------------------------------ result_type

CATEGORIES = [(1, 1), (1, 0), (0, 1), (0, 0)]  # (ndim of a, ndim of b)


@pytest.mark.parametrize("ndims", CATEGORIES, ids=lambda d: f"dims{d[0]}{d[1]}")
def test_result_type_tensor_tensor_matches_torch_exhaustively(ndims: tuple[int, int]) -> None:
    wrong = []
    for a, b in PAIRS:
        va, vb = _make(volta, a, ndims[0]), _make(volta, b, ndims[1])
        ta, tb = _make(torch, a, ndims[0]), _make(torch, b, ndims[1])
        got, want = _name(volta.result_type(va, vb)), _name(torch.result_type(ta, tb))
        if got != want:
            wrong.append((a, b, got, want))
    assert not wrong


SCALARS = [3, -2, 2.5, True, False]


@pytest.mark.parametrize("scalar", SCALARS, ids=repr)
@pytest.mark.parametrize("ndim", [0, 1])
def test_result_type_tensor_scalar_matches_torch(scalar, ndim: int) -> None:
    for name in NAMES:
        v, t = _make(volta, name, ndim), _make(torch, name, ndim)
        assert _name(volta.result_type(v, scalar)) == _name(torch.result_type(t, scalar)), name
        assert _name(volta.result_type(scalar, v)) == _name(torch.result_type(scalar, t)), name


def test_result_type_of_three_tensors_matches_addcmul() -> None:
    # torch.addcmul promotes its three tensor inputs together (dimensioned over 0-dim)
    cases = [(("int32", 1), ("float64", 0), ("int8", 0)), (("uint8", 1), ("int64", 0), ("int8", 1)),
             (("bool", 1), ("int8", 0), ("float16", 0)), (("float16", 1), ("float64", 0),
                                                         ("bfloat16", 1)),
             (("int16", 0), ("uint8", 0), ("bool", 1))]
    for spec in cases:
        vs = [_make(volta, n, d) for n, d in spec]
        ts = [_make(torch, n, d) for n, d in spec]
        assert _name(volta.result_type(*vs)) == _name(torch.addcmul(*ts).dtype), spec


# --------------------------------------------------------- promotion actually used by operators


@pytest.mark.parametrize("ndims", CATEGORIES, ids=lambda d: f"dims{d[0]}{d[1]}")
@pytest.mark.parametrize("op", ["add", "mul", "maximum"])
def test_binary_op_output_dtype_matches_torch(ndims: tuple[int, int], op: str) -> None:
    wrong = []
    for a, b in PAIRS:
        if op == "add" and a == b == "bool" or op == "maximum" and "bool" in (a, b):
            continue  # torch refuses some bool combinations; errors are tested elsewhere
        va, vb = _make(volta, a, ndims[0]), _make(volta, b, ndims[1])
        ta, tb = _make(torch, a, ndims[0]), _make(torch, b, ndims[1])
        got = getattr(volta, op)(va, vb)
        want = getattr(torch, op)(ta, tb)
        if _name(got.dtype) != _name(want.dtype) or got.tolist() != want.tolist():
            wrong.append((a, b, _name(got.dtype), _name(want.dtype)))
    assert not wrong


@pytest.mark.parametrize("scalar", SCALARS, ids=repr)
def test_operator_with_python_scalar_matches_torch(scalar) -> None:
    for name in NAMES:
        v, t = _make(volta, name, 1), _make(torch, name, 1)
        for f in (lambda x: x * scalar, lambda x: scalar * x, lambda x: x - 0 * scalar):
            try:
                want = f(t)
            except RuntimeError:
                continue  # e.g. bool - bool; volta's refusals are tested in test_errors
            got = f(v)
            assert _name(got.dtype) == _name(want.dtype), (name, scalar)
            assert got.tolist() == want.tolist()


def test_true_division_of_integers_gives_default_float() -> None:
    for name in ["int8", "uint8", "int16", "int32", "int64", "bool"]:
        v, t = _make(volta, name, 1), _make(torch, name, 1)
        assert _name((v / v).dtype) == _name((t / t).dtype) == "float32"


def test_comparisons_give_bool() -> None:
    for name in NAMES:
        v = _make(volta, name, 1)
        assert (v == v).dtype is volta.bool
        assert (v < 2).dtype is volta.bool


# ---------------------------------------------------------------------------- default dtype


@pytest.fixture
def float64_default():
    volta.set_default_dtype(volta.float64)
    torch.set_default_dtype(torch.float64)
    try:
        yield
    finally:
        volta.set_default_dtype(volta.float32)
        torch.set_default_dtype(torch.float32)


def test_set_default_dtype_changes_factories_and_promotion(float64_default) -> None:
    assert volta.get_default_dtype() is volta.float64
    cases = [
        lambda lib: lib.tensor([1.5]),
        lambda lib: lib.tensor(2.5),
        lambda lib: lib.zeros(2),
        lambda lib: lib.ones(2),
        lambda lib: lib.rand(2),
        lambda lib: lib.randn(2),
        lambda lib: lib.arange(0.0, 1.0, 0.5),
        lambda lib: lib.linspace(0, 1, 3),
        lambda lib: lib.full((2,), 1.5),
        lambda lib: lib.tensor([1, 2]) * 2.5,
        lambda lib: lib.tensor([1, 2]) / 2,
        lambda lib: lib.tensor([True]) + 0.5,
        lambda lib: lib.tensor([1.0], dtype=lib.float32) * 2.5,
    ]
    for make in cases:
        assert _name(make(volta).dtype) == _name(make(torch).dtype)


def test_set_default_dtype_to_float16(float64_default) -> None:
    volta.set_default_dtype(volta.float16)
    torch.set_default_dtype(torch.float16)
    assert volta.tensor([1.5]).dtype is volta.float16
    assert _name((volta.tensor([1]) * 0.5).dtype) == _name((torch.tensor([1]) * 0.5).dtype)


@pytest.mark.parametrize("name", ["int64", "int32", "bool", "uint8"])
def test_set_default_dtype_rejects_non_float(name: str) -> None:
    with pytest.raises(TypeError):
        torch.set_default_dtype(tdt(name))
    with pytest.raises(DTypeError):
        volta.set_default_dtype(vdt(name))
    assert volta.get_default_dtype() is volta.float32


# ---------------------------------------------------------------------------- finfo / iinfo


@pytest.mark.parametrize("name", ["float32", "float64", "float16", "bfloat16"])
def test_finfo_matches_torch(name: str) -> None:
    v, t = volta.finfo(vdt(name)), torch.finfo(tdt(name))
    assert v.dtype is vdt(name)
    assert v.bits == t.bits
    for attr in ("eps", "max", "min", "tiny", "smallest_normal"):
        assert getattr(v, attr) == getattr(t, attr), attr
    assert v.resolution == pytest.approx(t.resolution, rel=1e-12)


def test_finfo_default_and_errors() -> None:
    assert volta.finfo().dtype is volta.float32
    assert volta.finfo().eps == torch.finfo().eps
    with pytest.raises(DTypeError):
        volta.finfo(volta.int32)
    with pytest.raises(DTypeError):
        volta.iinfo(volta.float32)


@pytest.mark.parametrize("name", ["int8", "uint8", "int16", "int32", "int64"])
def test_iinfo_matches_torch(name: str) -> None:
    v, t = volta.iinfo(vdt(name)), torch.iinfo(tdt(name))
    assert (v.min, v.max, v.bits) == (t.min, t.max, t.bits)
    assert v.dtype is vdt(name)


@pytest.mark.parametrize("name", ["int8", "uint8", "int16", "int32"])
def test_integer_overflow_wraps_like_torch(name: str) -> None:
    top = torch.iinfo(tdt(name)).max
    v = volta.tensor([top], dtype=vdt(name)) + volta.tensor([1], dtype=vdt(name))
    t = torch.tensor([top], dtype=tdt(name)) + torch.tensor([1], dtype=tdt(name))
    assert v.tolist() == t.tolist()
