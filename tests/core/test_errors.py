"""Errors: the VoltaError hierarchy on bad input, PyTorch-like messages, and the promise that
a failing op leaves its inputs exactly as they were (values and version counter)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
import torch

import volta
from volta import (
    BackendError,
    DeviceMismatchError,
    DTypeError,
    IndexOutOfRangeError,
    NoKernelError,
    SchemaError,
    ShapeError,
    VoltaError,
)


def test_hierarchy_subclasses_matching_builtins() -> None:
    assert issubclass(ShapeError, ValueError)
    assert issubclass(DTypeError, TypeError)
    assert issubclass(DeviceMismatchError, ValueError)
    assert issubclass(IndexOutOfRangeError, IndexError)
    assert issubclass(NoKernelError, NotImplementedError)
    for cls in (ShapeError, DTypeError, DeviceMismatchError, IndexOutOfRangeError,
                NoKernelError, SchemaError, BackendError, volta.AutogradError,
                volta.PluginError, volta.SerializationError, volta.RegistrationError):
        assert issubclass(cls, VoltaError)
        assert volta.errors.__dict__[cls.__name__] is cls


def _message_of(f: Callable[[Any], Any], lib: Any) -> str:
    with pytest.raises(Exception) as info:
        f(lib)
    return str(info.value)


# ----------------------------------------------------------------------------------- shapes


def test_broadcast_mismatch_message_is_torchs() -> None:
    with pytest.raises(ShapeError) as info:
        volta.zeros(5) + volta.zeros(6)
    assert isinstance(info.value, ValueError)
    assert str(info.value) == ("The size of tensor a (5) must match the size of tensor b (6) at "
                               "non-singleton dimension 0")


@pytest.mark.parametrize("f", [
    lambda lib: lib.zeros(5) + lib.zeros(6),
    lambda lib: lib.zeros(2, 5) * lib.zeros(3, 1),
    lambda lib: lib.zeros(4, 3) - lib.zeros(2, 4, 2),
    lambda lib: lib.where(lib.zeros(3) > 0, lib.zeros(3), lib.zeros(4)),
    lambda lib: lib.zeros(3).copy_(lib.zeros(4)),
], ids=["add", "mul", "sub_3d", "where", "copy_"])
def test_broadcast_errors_match_torch(f) -> None:
    with pytest.raises(ShapeError):
        f(volta)
    assert _message_of(f, volta) == _message_of(f, torch)


@pytest.mark.parametrize("f", [
    lambda lib: lib.zeros(2, 3) @ lib.zeros(4, 5),
    lambda lib: lib.mm(lib.zeros(2, 3), lib.zeros(4, 5)),
    lambda lib: lib.nn.functional.linear(lib.zeros(2, 3), lib.zeros(4, 5)),
], ids=["matmul", "mm", "linear"])
def test_matmul_mismatch_names_shapes(f) -> None:
    with pytest.raises(ShapeError) as info:
        f(volta)
    assert str(info.value) == _message_of(f, torch)


def test_batched_matmul_mismatch_names_matrix_shapes() -> None:
    # torch folds the batch into the rows (14x3); naming each matrix (2x3) is as clear
    with pytest.raises(ShapeError, match=r"(2|14)x3 and 4x5"):
        volta.matmul(volta.zeros(7, 2, 3), volta.zeros(4, 5))


def test_matmul_mismatch_of_vectors_names_sizes() -> None:
    with pytest.raises(ShapeError, match=r"\b3\b.*\b4\b"):
        volta.zeros(3) @ volta.zeros(4)
    with pytest.raises(ShapeError, match=r"2, 2, 3|2x2x3|\[2, 2, 3\]|2x3"):
        volta.bmm(volta.zeros(2, 2, 3), volta.zeros(2, 4, 4))


@pytest.mark.parametrize("f", [
    lambda lib: lib.cat([lib.zeros(2, 3), lib.zeros(2, 4)]),
    lambda lib: lib.cat([lib.zeros(2, 3), lib.zeros(2)]),
    lambda lib: lib.cat([lib.zeros(2, 3), lib.zeros(3, 3)], dim=1),
    lambda lib: lib.stack([lib.zeros(2, 3), lib.zeros(2, 4)]),
], ids=["cat_size", "cat_ndim", "cat_dim1", "stack"])
def test_cat_and_stack_mismatch_match_torch(f) -> None:
    with pytest.raises(ShapeError) as info:
        f(volta)
    assert str(info.value) == _message_of(f, torch)


def test_cat_of_nothing_raises() -> None:
    with pytest.raises(VoltaError):
        volta.cat([])


@pytest.mark.parametrize("f", [
    lambda x: x.view(4, 2),
    lambda x: x.reshape(4, -1),
    lambda x: x.expand(4),
    lambda x: x.view(-1, -1),
])
def test_view_shape_errors(f) -> None:
    with pytest.raises(ShapeError):
        f(volta.zeros(6))


# ----------------------------------------------------------------------------------- dtypes


@pytest.mark.parametrize("f", [
    lambda lib: lib.bitwise_and(lib.zeros(2), lib.zeros(2)),
    lambda lib: lib.zeros(2) & lib.zeros(2),
    lambda lib: lib.zeros(2) | lib.ones(2, dtype=lib.int64),
    lambda lib: ~lib.zeros(2),
    lambda lib: lib.zeros(2, dtype=lib.float64) ^ lib.zeros(2, dtype=lib.float64),
], ids=["bitwise_and", "and_op", "or_mixed", "invert", "xor"])
def test_bitwise_on_floats_is_a_dtype_error(f) -> None:
    with pytest.raises((RuntimeError, TypeError)):
        f(torch)
    with pytest.raises(DTypeError) as info:
        f(volta)
    assert isinstance(info.value, TypeError)
    assert "float" in str(info.value).lower()


CAST_RE = r"result type {src} can't be cast to the desired output type {dst}"


@pytest.mark.parametrize("f,src,dst", [
    (lambda lib: lib.zeros(2, dtype=lib.int64).add_(lib.ones(2)), "(Float|float32)",
     "(Long|int64)"),
    (lambda lib: lib.zeros(2, dtype=lib.int64).add_(1.5), "(Float|float32)", "(Long|int64)"),
    (lambda lib: lib.zeros(2, dtype=lib.int32).mul_(lib.ones(2, dtype=lib.float64)),
     "(Double|float64)", "(Int|int32)"),
    (lambda lib: lib.zeros(2, dtype=lib.bool).mul_(2), "(Long|int64)", "(Bool|bool)"),
    (lambda lib: lib.tensor([2]).div_(2), "(Float|float32)", "(Long|int64)"),
], ids=["add_tensor", "add_scalar", "mul_double", "mul_bool", "div_int"])
def test_inplace_result_type_cannot_be_cast(f, src: str, dst: str) -> None:
    with pytest.raises(RuntimeError, match=CAST_RE.format(src=src, dst=dst)):
        f(torch)
    with pytest.raises(DTypeError, match=CAST_RE.format(src=src, dst=dst)):
        f(volta)


def test_add_float_into_int_message_uses_torch_names() -> None:
    with pytest.raises(DTypeError, match="result type Float can't be cast to the desired output "
                                         "type Long"):
        volta.zeros(2, dtype=volta.int64).add_(volta.ones(2))


@pytest.mark.parametrize("mask_dtype", ["int64", "float32", "uint8"])
def test_masked_fill_with_non_bool_mask(mask_dtype: str) -> None:
    x = volta.zeros(3)
    mask = volta.tensor([1, 0, 1], dtype=getattr(volta, mask_dtype))
    with pytest.raises(DTypeError, match="only supports boolean masks"):
        x.masked_fill(mask, 1.0)
    with pytest.raises(DTypeError, match="only supports boolean masks"):
        x.masked_fill_(mask, 1.0)
    assert x.tolist() == [0.0, 0.0, 0.0] and x._version == 0


@pytest.mark.parametrize("f", [
    lambda lib: lib.where(lib.tensor([1, 0]), lib.zeros(2), lib.zeros(2)),
    lambda lib: lib.zeros(3, dtype=lib.int64).mean(),
    lambda lib: lib.tensor([2]) ** -1,
    lambda lib: lib.zeros(2, dtype=lib.bool) - lib.zeros(2, dtype=lib.bool),
    lambda lib: -lib.zeros(2, dtype=lib.bool),
], ids=["where_int_cond", "mean_int", "int_negative_pow", "bool_sub", "bool_neg"])
def test_other_dtype_errors(f) -> None:
    with pytest.raises(RuntimeError):
        f(torch)
    with pytest.raises(DTypeError):
        f(volta)


# ---------------------------------------------------------------------------------- devices


@pytest.mark.parametrize("f", [
    lambda: volta.zeros(2, device="nope"),
    lambda: volta.tensor([1.0], device="nope"),
    lambda: volta.zeros(2).to("nope"),
    lambda: volta.zeros(2).to(device="nope:1"),
    lambda: volta.arange(3, device="nope"),
    lambda: volta.zeros(2, device="cpu:x"),
    lambda: volta.device(3),
], ids=["zeros", "tensor", "to", "to_indexed", "arange", "bad_index", "non_string"])
def test_unknown_device_is_a_backend_error(f) -> None:
    with pytest.raises(BackendError) as info:
        f()
    assert isinstance(info.value, RuntimeError)


def test_unknown_device_message_names_it_and_the_known_ones() -> None:
    with pytest.raises(BackendError, match="'nope'.*cpu"):
        volta.zeros(1, device="nope")


def test_mixing_devices_is_a_device_mismatch(scratch_device: Any) -> None:
    a = volta.ones(3)
    b = volta.ones(3, device=scratch_device.name)
    assert b.device.type == scratch_device.name
    for f in (lambda: a + b, lambda: volta.mul(b, a), lambda: volta.cat([a, b]),
              lambda: a.add_(b)):
        with pytest.raises(DeviceMismatchError, match="same device") as info:
            f()
        assert isinstance(info.value, ValueError)
    assert a.tolist() == [1.0, 1.0, 1.0] and a._version == 0


# ------------------------------------------------------------------------------- dims, index


@pytest.mark.parametrize("f", [
    lambda lib: lib.zeros(2, 3).sum(2),
    lambda lib: lib.zeros(2, 3).softmax(-3),
    lambda lib: lib.zeros(2, 3).transpose(0, 5),
    lambda lib: lib.zeros(2, 3).unsqueeze(3),
    lambda lib: lib.zeros(2, 3).squeeze(-3),
    lambda lib: lib.cat([lib.zeros(2), lib.zeros(2)], dim=1),
    lambda lib: lib.zeros(2, 3).argmax(7),
    lambda lib: lib.zeros(2, 3).flatten(0, 4),
    lambda lib: lib.zeros(2, 3).select(2, 0),
    lambda lib: lib.zeros(2, 3).size(2),
], ids=["sum", "softmax", "transpose", "unsqueeze", "squeeze", "cat", "argmax", "flatten",
        "select", "size"])
def test_dim_out_of_range(f) -> None:
    with pytest.raises(IndexError):
        f(torch)
    with pytest.raises(IndexOutOfRangeError, match=r"[Dd]imension out of range"):
        f(volta)


def test_dim_out_of_range_message_matches_torch_range() -> None:
    text = _message_of(lambda lib: lib.zeros(2, 3).sum(2), volta)
    assert "(expected to be in range of [-2, 1], but got 2)" in text


@pytest.mark.parametrize("f", [
    lambda lib: lib.zeros(3)[5],
    lambda lib: lib.zeros(3, 2)[:, -3],
    lambda lib: lib.zeros(3)[lib.tensor([0, 3])],
    lambda lib: lib.index_select(lib.zeros(3), 0, lib.tensor([5])),
], ids=["int", "neg_int", "tensor", "index_select"])
def test_index_out_of_range(f) -> None:
    with pytest.raises(IndexError):
        f(torch)
    with pytest.raises(IndexOutOfRangeError):
        f(volta)


def test_gather_out_of_range_names_the_index() -> None:
    with pytest.raises(IndexOutOfRangeError, match="index 5 is out of bounds for dimension 0 "
                                                   "with size 3"):
        volta.gather(volta.zeros(3), 0, volta.tensor([5]))


# ----------------------------------------------------------------------- schema / arguments


@pytest.mark.parametrize("f", [
    lambda: volta.max(volta.zeros(2), 1.5),
    lambda: volta.zeros(2).max("a"),
    lambda: volta.min(volta.zeros(2), "x", "y"),
], ids=["max_float", "max_str", "min_strs"])
def test_invalid_argument_combination_lists_overloads(f) -> None:
    with pytest.raises(SchemaError) as info:
        f()
    text = str(info.value)
    assert "invalid combination of arguments" in text
    # every overload is listed with its schema
    assert text.count("\n") >= 3
    assert "Tensor self" in text
    assert "int dim" in text


def test_bad_argument_type_is_a_schema_or_type_error() -> None:
    for f in (lambda: volta.sum(volta.zeros(2), "x"), lambda: volta.zeros(2).view("a"),
              lambda: volta.zeros(2).permute("a", "b")):
        with pytest.raises((SchemaError, TypeError)):
            f()
    with pytest.raises(TypeError):
        volta.add(volta.zeros(2), "a")


def test_unexpected_keyword_raises() -> None:
    with pytest.raises((SchemaError, TypeError)):
        volta.add(volta.zeros(2), volta.zeros(2), nonsense=1)


# ------------------------------------------------------------- failing ops leave inputs alone


def _snapshot(*tensors: volta.Tensor) -> list[tuple[list, int]]:
    return [(t.tolist(), t._version) for t in tensors]


FAILING_INPLACE: dict[str, Callable[[volta.Tensor, volta.Tensor], Any]] = {
    "add_broadcast": lambda x, y: x.add_(volta.zeros(3, 2, 3)),
    "add_float_into_int": lambda x, y: y.add_(x),
    "add_scalar_float_into_int": lambda x, y: y.add_(0.5),
    "mul_shape": lambda x, y: x.mul_(volta.ones(4)),
    "copy_shape": lambda x, y: x.copy_(volta.ones(5)),
    "masked_fill_int_mask": lambda x, y: x.masked_fill_(y, 1.0),
    "setitem_out_of_range": lambda x, y: x.__setitem__((0, 5), 1.0),
    "setitem_tensor_index_out_of_range": lambda x, y: x.__setitem__(volta.tensor([0, 9]), 1.0),
    "setitem_shape": lambda x, y: x.__setitem__(0, volta.ones(4)),
    "setitem_mask_values": lambda x, y: x.__setitem__(x > 0, volta.ones(7)),
    "index_put_out_of_range": lambda x, y: x.index_put_((volta.tensor([7]),), volta.ones(3)),
    "index_add_out_of_range": lambda x, y: x.index_add_(0, volta.tensor([0, 2]), volta.ones(2,
                                                                                              3)),
    "scatter_out_of_range": lambda x, y: x.scatter_(1, volta.tensor([[0, 5, 1]]), 2.0),
    "div_int": lambda x, y: y.div_(2),
    "clamp_int_float": lambda x, y: y.clamp_(0.5, 1.5),
    "bitwise_float": lambda x, y: x.bitwise_and_(x),
    "fill_shape": lambda x, y: x.fill_(volta.ones(2)),
    "unknown_device_copy": lambda x, y: x.copy_(volta.zeros(2, 3, device="nope")),
    "sqrt_int_inplace": lambda x, y: y.sqrt_(),
    "matmul_bad": lambda x, y: x.copy_(x @ x),
}


@pytest.mark.parametrize("name", sorted(FAILING_INPLACE))
def test_failing_op_leaves_inputs_unchanged(name: str) -> None:
    x = volta.arange(6.0).view(2, 3)
    y = volta.tensor([[1, 0, 1], [0, 1, 1]])
    x_view = x.t()
    before = _snapshot(x, y, x_view)
    with pytest.raises(VoltaError):
        FAILING_INPLACE[name](x, y)
    assert _snapshot(x, y, x_view) == before


def test_failing_op_on_requires_grad_leaves_graph_usable() -> None:
    w = volta.ones(3, requires_grad=True)
    with pytest.raises(ShapeError):
        w * volta.ones(4)
    (w * 2).sum().backward()
    assert w.grad.tolist() == [2.0, 2.0, 2.0]


def test_failing_autograd_inplace_on_leaf_leaves_it() -> None:
    w = volta.ones(3, requires_grad=True)
    with pytest.raises(RuntimeError):
        w.add_(1.0)  # a leaf that requires grad cannot be modified in place
    assert w.detach().tolist() == [1.0, 1.0, 1.0] and w._version == 0
