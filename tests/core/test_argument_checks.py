"""Argument checks against PyTorch: a Python number where PyTorch takes only a Tensor
(ops.yaml's ``numbers:``, Note [Numbers as tensors]), Tensor methods called unbound on a
non-Tensor, and the codegen validation of the ``numbers:`` field."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
import torch
import torch.nn.functional as TF
import yaml

import volta
from codegen import loader, run
from codegen.loader import YamlError
from tests.core.agreement import agree

ROOT = Path(__file__).resolve().parents[2]
# every op of ops.yaml that declares which Tensor arguments take numbers, with those arguments
DECLARED = {e["func"].split("(")[0]: e["func"] for e in yaml.safe_load((ROOT / "ops.yaml")
                                                                      .read_text())
            if "numbers" in e}


def _raises(call) -> type | None:
    try:
        call()
    except Exception as error:
        return type(error)
    return None


@pytest.mark.parametrize("name", sorted(DECLARED))
@pytest.mark.parametrize("form", ["function", "method", "inplace"])
def test_a_number_is_taken_exactly_where_pytorch_takes_one(name: str, form: str) -> None:
    if form == "inplace":
        if not hasattr(volta.Tensor, name + "_"):
            assert not hasattr(torch.Tensor, name + "_") or name in ("logaddexp", "logaddexp2")
            return
        name += "_"  # t.lerp_(end, 0.5): the in-place variant takes what its op takes
    if form == "method" and not hasattr(torch.Tensor, name):  # the losses are functions only
        assert not hasattr(volta.Tensor, name), name
        return
    # an op torch has only in nn.functional (mse_loss) is compared with that function; its
    # Python-level losses fail on a number with AttributeError (``target.size()``)
    torch_function = getattr(torch, name, None) or getattr(TF, name, None)
    schema = DECLARED[name.rstrip("_")]
    tensor_args = [a for a in schema.split("(", 1)[1].split(")")[0].split(", ")
                   if a.startswith("Tensor ")]
    assert tensor_args, name
    for position in range(len(tensor_args)):
        if form != "function" and position == 0:
            continue  # a method's self is the tensor it is called on

        def args(make):
            return [2 if i == position else make() for i in range(len(tensor_args))]

        if form == "function":
            expected = _raises(lambda: torch_function(*args(lambda: torch.ones(3))))
            got = _raises(lambda: getattr(volta, name)(*args(lambda: volta.ones(3))))
        else:  # a method (in place or not) of a float tensor, as the other tensors
            t_args, v_args = args(lambda: torch.ones(3)), args(lambda: volta.ones(3))
            expected = _raises(lambda: getattr(torch.ones(3), name)(*t_args[1:]))
            got = _raises(lambda: getattr(volta.ones(3), name)(*v_args[1:]))
        if expected is None:
            assert got is None, (name, form, position, got)
        else:
            assert expected in (TypeError, AttributeError), (name, form, position, expected)
            assert got is volta.errors.ArgumentError, (name, form, position, got)


@pytest.mark.parametrize("call, message", [
    (lambda m: m.maximum(m.ones(3), 2), "maximum(): argument 'other' (position 2) must be "
                                        "Tensor, not int"),
    (lambda m: m.maximum(2.5, m.ones(3)), "maximum(): argument 'input' (position 1) must be "
                                          "Tensor, not float"),
    (lambda m: m.ones(3).maximum(2), "maximum(): argument 'other' (position 1) must be "
                                     "Tensor, not int"),
    (lambda m: m.logical_and(m.ones(3), True), "logical_and(): argument 'other' (position 2) "
                                               "must be Tensor, not bool"),
    (lambda m: m.hypot(m.ones(3), None), "hypot(): argument 'other' (position 2) must be "
                                         "Tensor, not NoneType"),
])
def test_the_message_is_pytorchs(call, message: str) -> None:
    with pytest.raises(TypeError, match=r"^" + message.replace("(", r"\(").replace(")", r"\)")):
        call(torch)
    with pytest.raises(volta.errors.ArgumentError) as info:
        call(volta)
    assert str(info.value) == message
    assert isinstance(info.value, volta.VoltaError)


def test_numbers_still_work_where_declared_and_where_not_restricted() -> None:
    t = volta.tensor([1.0, -2.0, 3.0])
    assert volta.eq(t, 3).tolist() == torch.eq(torch.tensor([1.0, -2.0, 3.0]), 3).tolist()
    assert volta.add(2, t).tolist() == [3.0, 0.0, 5.0]  # no numbers: field: all take numbers
    assert volta.lerp(t, volta.zeros(3), 0.5).tolist() == [0.5, -1.0, 1.5]
    assert (2 + t).tolist() == [3.0, 0.0, 5.0]
    assert (t == 3).tolist() == [False, False, True]


# PyTorch's C++ dunders reject a non-Tensor self (its Python-level __rsub__, __rpow__, ...
# run the op on it instead); volta's reject it alike, all of them
@pytest.mark.parametrize("dunder", ["__radd__", "__rmul__", "__rand__", "__ror__", "__rxor__",
                                    "__rtruediv__"])
def test_a_reflected_operator_called_unbound_on_a_number_raises(dunder: str) -> None:
    with pytest.raises((TypeError, AttributeError)):
        getattr(torch.Tensor, dunder)(2, torch.ones(3, dtype=torch.int64))
    with pytest.raises(volta.errors.ArgumentError, match=f"descriptor '{dunder}'"):
        getattr(volta.Tensor, dunder)(2, volta.ones(3, dtype=volta.int64))
    with pytest.raises(volta.errors.ArgumentError, match=f"descriptor '{dunder}'"):
        getattr(volta.Tensor, dunder)(2, 3)


# -- codegen -------------------------------------------------------------------------------------


def _load(tmp_path: Path, text: str) -> list[loader.OpDecl]:
    path = tmp_path / "my_ops.yaml"
    path.write_text(text)
    return loader.load(path, run.formula_helpers(ROOT))


def test_codegen_rejects_numbers_naming_a_non_tensor_argument(tmp_path: Path) -> None:
    text = ("- func: ns::f(Tensor self, float alpha) -> Tensor\n"
            "  tags: pointwise\n  pointwise: self * alpha\n  numbers: alpha\n"
            "  non_differentiable: true\n")
    with pytest.raises(YamlError, match=r"my_ops.yaml:1: numbers names 'alpha', which is not a "
                                        r"Tensor argument of ns::f"):
        _load(tmp_path, text)


def test_codegen_rejects_numbers_on_an_op_that_is_not_pointwise(tmp_path: Path) -> None:
    text = ("- func: ns::f(Tensor self, Tensor other) -> Tensor\n"
            "  numbers: other\n  composite: true\n")
    with pytest.raises(YamlError, match=r"my_ops.yaml:1: 'numbers:' restricts"):
        _load(tmp_path, text)


def test_codegen_takes_empty_numbers_on_an_op_that_is_not_pointwise(tmp_path: Path) -> None:
    """``numbers: []`` asks for the inline Tensor check on any op (dist(t, 1) would work)."""
    text = ("- func: ns::f(Tensor self, Tensor other) -> Tensor\n"
            "  numbers: []\n  composite: true\n")
    (decl,) = _load(tmp_path, text)
    assert decl.numbers == ()


def test_codegen_reads_numbers_and_the_inplace_variant_inherits_it(tmp_path: Path) -> None:
    text = ("- func: ns::f(Tensor self, Tensor other) -> Tensor\n"
            "  variants: function, inplace\n"
            "  tags: pointwise\n  pointwise: self * other\n  numbers: []\n"
            "  non_differentiable: true\n")
    decl, inplace = _load(tmp_path, text)
    assert decl.numbers == () and inplace.numbers == ()


# -- hand-written factories ----------------------------------------------------------------------


@pytest.mark.parametrize("call", [
    lambda m: m.linspace(0, 3, 1.0),
    lambda m: m.logspace(0, 3, 2.5),
    lambda m: m.arange(0, 3, unknown=1),
    lambda m: m.linspace(0, 3, 4, 5, 6, 7, 8, 9),
    lambda m: m.eye(2, bogus=True),
    lambda m: m.arange("a", 3),
], ids=["linspace-float-steps", "logspace-float-steps", "arange-unknown-keyword",
        "linspace-too-many", "eye-unknown-keyword", "arange-str-start"])
def test_a_factory_call_pytorch_rejects_raises_an_argument_error(call) -> None:
    with pytest.raises(TypeError):
        call(torch)
    with pytest.raises(volta.errors.ArgumentError) as info:
        call(volta)
    assert "()" in str(info.value)  # names the function, as PyTorch's parser does


@pytest.mark.parametrize("name", ["linspace", "logspace"])
def test_range_bounds_must_be_zero_dimensional_tensors(name: str) -> None:
    with pytest.raises(RuntimeError, match="0-dimensional"):
        getattr(torch, name)(torch.tensor([1, 1]), torch.tensor([3, 3]), 1)
    with pytest.raises(volta.VoltaError, match="0-dimensional"):
        getattr(volta, name)(volta.tensor([1, 1]), volta.tensor([3, 3]), 1)
    expected = getattr(torch, name)(torch.tensor(1.0), torch.tensor(3.0), 3)
    got = getattr(volta, name)(volta.tensor(1.0), volta.tensor(3.0), 3)
    assert got.tolist() == pytest.approx(expected.tolist())


# -- calls PyTorch rejects, rejected alike (shared checks, volta/tensor/checks.py) ---------------

VF = volta.nn.functional
REJECTED = {
    "conv1d-int-bias": lambda m, F: F.conv1d(m.ones(1, 1, 4, dtype=m.float64),
                                             m.ones(1, 1, 2, dtype=m.float64),
                                             m.ones(1, dtype=m.int64)),
    "conv2d-same-3d-weight": lambda m, F: F.conv2d(m.ones(1, 1, 4, 3, dtype=m.float64),
                                                   m.ones(1, 2, 2, dtype=m.float64),
                                                   padding="same"),
    "conv3d-same-4d-weight": lambda m, F: F.conv3d(m.ones(1, 1, 3, 4, 5), m.ones(1, 1, 4, 3),
                                                   padding="same"),
    "max_pool1d-no-channels": lambda m, F: F.max_pool1d(m.ones(0, 10), kernel_size=1),
    "max_pool1d-stride-0": lambda m, F: F.max_pool1d(m.ones(3, 3, 3), kernel_size=1, stride=0),
    "max_pool2d-stride-0": lambda m, F: F.max_pool2d(m.ones(1, 3, 3, 3), 2, stride=0),
    "max_pool2d-empty-height": lambda m, F: F.max_pool2d(m.ones(2, 1, 0, 3), 1),
    "avg_pool2d-no-channels": lambda m, F: F.avg_pool2d(m.ones(0, 3, 3), 2),
    "hardtanh-min-above-max": lambda m, F: F.hardtanh(m.ones(1), min_val=0.5, max_val=-0.5),
    "native_layer_norm-empty-shape": lambda m, F: m.native_layer_norm(m.ones(1, 2, 3), [], None,
                                                                      None, 1e-5),
    "multinomial-3d": lambda m, F: m.multinomial(m.ones(1, 2, 3), 2),
    "multinomial-0d": lambda m, F: m.multinomial(m.tensor(1.0), 1),
    "multinomial-int": lambda m, F: m.multinomial(m.ones(1, 2, dtype=m.int64), 2),
    "multinomial-no-samples": lambda m, F: m.multinomial(m.ones(2), 0),
    "multinomial-too-many": lambda m, F: m.multinomial(m.ones(2), 3),
    "normal_-negative-std": lambda m, F: m.ones(10).normal_(0, -1),
}
ACCEPTED = {
    "max_pool1d-empty-batch": lambda m, F: F.max_pool1d(m.ones(0, 3, 3), kernel_size=2),
    "max_pool1d-stride-none": lambda m, F: F.max_pool1d(m.ones(1, 3, 4), 2, stride=None),
    "adaptive_avg_pool2d-no-channels": lambda m, F: F.adaptive_avg_pool2d(m.ones(0, 3, 3), 2),
    "conv2d-same": lambda m, F: F.conv2d(m.ones(1, 1, 4, 3), m.ones(1, 1, 2, 2), padding="same"),
    "hardtanh-equal-bounds": lambda m, F: F.hardtanh(m.ones(2), min_val=0.5, max_val=0.5),
    "multinomial-2d": lambda m, F: m.multinomial(m.ones(2, 3), 3),
}


@pytest.mark.parametrize("name", sorted(REJECTED))
def test_a_call_pytorch_rejects_raises_a_volta_error(name: str) -> None:
    with pytest.raises((RuntimeError, ValueError, TypeError)):
        REJECTED[name](torch, TF)
    with pytest.raises(volta.VoltaError):
        REJECTED[name](volta, VF)


@pytest.mark.parametrize("name", sorted(ACCEPTED))
def test_the_checks_let_through_what_pytorch_takes(name: str) -> None:
    expected = ACCEPTED[name](torch, TF)
    got = ACCEPTED[name](volta, VF)
    assert tuple(got.shape) == tuple(expected.shape)


def test_a_plugin_yaml_declares_numbers_too(tmp_path: Path) -> None:
    path = tmp_path / "ops.yaml"
    path.write_text("- func: numtest::scale(Tensor self, Tensor factor) -> Tensor\n"
                    "  tags: pointwise\n  pointwise: self * factor\n  numbers: factor\n"
                    "  non_differentiable: true\n")
    with volta.library.scoped():
        (handle,) = volta.library.Library("numbers_test").define_yaml(path)
        assert handle.info.numbers == ("factor",)
        t = volta.tensor([1.0, 2.0])
        assert volta.ops.numtest.scale(t, 3).tolist() == [3.0, 6.0]
        with pytest.raises(volta.errors.ArgumentError):
            volta.ops.numtest.scale(3, t)


# -- Note [Explicit None] and int64 arguments (volta/dispatch/binding.py) ------------------------

def _none_cases() -> list[tuple[str, str]]:
    """Every (op, argument) of a one-tensor function whose other arguments all have defaults,
    for its int, float, bool and str arguments that the schema does not mark optional."""
    from tests.fuzz.cases import OPS
    cases = []
    for op in OPS:
        arguments = op.handle.schema.arguments
        if (op.volta_fn is None or not arguments or arguments[0].type.base != "Tensor"
                or arguments[0].type.is_list or not all(a.has_default for a in arguments[1:])):
            continue
        cases += [(op.name, a.name) for a in arguments[1:] if not a.type.optional
                  and not a.type.is_list and a.type.base in ("int", "SymInt", "bool", "float",
                                                              "str")]
    return cases


@pytest.mark.parametrize("name, argument", _none_cases())
def test_an_explicit_none_is_taken_exactly_where_pytorch_takes_one(name: str,
                                                                   argument: str) -> None:
    from tests.fuzz.cases import OPS
    op = next(o for o in OPS if o.name == name)
    kwargs = {argument: None}
    agree(lambda: op.volta_fn(volta.ones(2, 3), **kwargs),
          lambda: op.torch_fn(torch.ones(2, 3), **kwargs), lambda v, t: None)


def test_explicit_none_cases_cover_the_ops_the_fuzz_found() -> None:
    assert {("unique", "return_inverse"), ("sort", "dim")} <= set(_none_cases())
    with pytest.raises(volta.ArgumentError, match="argument 'return_inverse' \\(position 3\\) "
                                                  "must be bool, not NoneType"):
        volta.unique(volta.ones(3), False, None)


@pytest.mark.parametrize("p, dim", [(None, 1), (2, None), (1, None), (None, None)])
def test_normalize_takes_none_for_p_and_dim_as_pytorch_does(p, dim) -> None:
    values = [[3.0, 4.0], [1.0, 0.0]]
    got = VF.normalize(volta.tensor(values), p=p, dim=dim)
    expected = TF.normalize(torch.tensor(values), p=p, dim=dim)
    torch.testing.assert_close(torch.from_numpy(got.numpy()), expected)


@pytest.mark.parametrize("call", [
    lambda m: m.matrix_power(m.ones(2, 2), 2**70),
    lambda m: m.ones(3, 3).triu_(2**63),
    lambda m: m.ones(3, 3).tril(-(2**63) - 1),
    lambda m: m.sort(m.ones(3), dim=2**64),
    lambda m: m.cumsum(m.ones(3), 2**63),
])
def test_an_int_argument_beyond_int64_is_rejected(call) -> None:
    with pytest.raises(ValueError, match="Overflow when unpacking long long"):
        call(torch)
    with pytest.raises(volta.InvalidArgumentError, match="Overflow when unpacking long long"):
        call(volta)


@pytest.mark.parametrize("diagonal", [2**63 - 1, -(2**63)])
@pytest.mark.parametrize("op", ["triu", "tril"])
@pytest.mark.parametrize("device", ["cpu", "wgpu"])
def test_an_int_argument_at_the_int64_limits_is_taken(diagonal: int, op: str,
                                                      device: str) -> None:
    got = getattr(volta.ones(2, 3).to(device), op)(diagonal).cpu().tolist()
    assert got == getattr(torch.ones(2, 3), op)(diagonal).tolist()


@pytest.mark.parametrize("call", [
    lambda m: m.prod(m.ones(2, 3), dim=None),
    lambda m: m.ones(2, 3).prod(None),
    lambda m: m.ones(2, 3).prod(None, True),
    lambda m: m.squeeze(m.ones(2, 1), dim=None),
    lambda m: m.ones(2, 1).squeeze(None),
    lambda m: m.prod(m.ones(2, 3)),
    lambda m: m.ones(2, 3).prod(dtype=m.float64),
    lambda m: m.ones(2, 3).prod(1, keepdim=True),
    lambda m: m.ones(2, 1).squeeze(),
    lambda m: m.squeeze(m.ones(2, 1), (0, 1)),
])
def test_none_by_omission_is_none_only_when_left_out(call) -> None:
    """prod and squeeze: PyTorch's call without dim is its own overload (ops.yaml's
    ``none_by_omission``)."""
    agree(lambda: call(volta), lambda: call(torch),
          lambda v, t: torch.testing.assert_close(torch.from_numpy(v.numpy()), t.float()
                                                  if v.dtype is volta.float32 else t))


def test_codegen_rejects_none_by_omission_of_an_argument_that_is_not_optional(
        tmp_path: Path) -> None:
    text = ("- func: ns::f(Tensor self, int dim=0) -> Tensor\n"
            "  none_by_omission: dim\n  composite: true\n")
    with pytest.raises(YamlError, match=r"my_ops.yaml:1: none_by_omission names 'dim', which is "
                                        r"not an optional argument of ns::f with the default None"):
        _load(tmp_path, text)


def test_codegen_emits_none_by_omission(tmp_path: Path) -> None:
    from codegen.emit import signature
    text = ("- func: ns::f(Tensor self, int? dim=None) -> Tensor\n"
            "  none_by_omission: dim\n  composite: true\n")
    (decl,) = _load(tmp_path, text)
    params, lines = signature(decl, function=True)
    assert "dim: int | None = _b.OMITTED" in params
    assert lines[:2] == ["if dim is None: _b.reject_none('dim', 'int', 'f')",
                         "if dim is _b.OMITTED: dim = None"]


ONLY_NUMBERS = sorted(e["func"].split("(")[0] for e in yaml.safe_load((ROOT / "ops.yaml")
                                                                     .read_text())
                      if e.get("only_numbers"))


@pytest.mark.parametrize("name", ONLY_NUMBERS + ["atan2", "pow", "remainder", "maximum", "eq"])
@pytest.mark.parametrize("a, b", [(1, 2), (1.5, 2), (True, True), (True, 2.5), (2**40, -3),
                                  (-7, 2), (1, 0), (0.0, 0.0), (2**70, 1)])
def test_a_call_with_numbers_only_is_taken_where_pytorch_takes_one(name: str, a, b) -> None:
    """ops.yaml's ``only_numbers``: torch.add(1, 2) is tensor(3); torch.atan2(1, 2) raises."""
    def same(v, t) -> None:
        assert v.dtype.name == str(t.dtype).removeprefix("torch.") and v.shape == t.shape
        torch.testing.assert_close(torch.tensor(v.item(), dtype=t.dtype), t, equal_nan=True)
    agree(lambda: getattr(volta, name)(a, b), lambda: getattr(torch, name)(a, b), same)


def test_only_numbers_covers_pytorchs_numbers_as_tensors_ops() -> None:
    assert set(ONLY_NUMBERS) == {"add", "sub", "subtract", "mul", "multiply", "div", "divide",
                                 "true_divide", "floor_divide"}


def test_codegen_rejects_only_numbers_on_an_op_without_two_tensor_arguments(
        tmp_path: Path) -> None:
    text = "- func: ns::f(Tensor self, float alpha) -> Tensor\n  only_numbers: true\n  " \
           "composite: true\n"
    with pytest.raises(YamlError, match=r"my_ops.yaml:1: 'only_numbers: true' takes the first"):
        _load(tmp_path, text)


@pytest.mark.parametrize("call", [
    lambda m, F: m.isclose(m.ones(2), m.ones(2), 0.0, True),
    lambda m, F: m.allclose(m.ones(2), m.ones(2), False),
    lambda m, F: F.rrelu(m.ones(2), 0.0, True),
    lambda m, F: F.elu(m.ones(2) - 2, alpha=True),
    lambda m, F: F.leaky_relu(m.ones(2) - 2, True),
    lambda m, F: m.nan_to_num(m.tensor([float("nan")]), True),
])
def test_a_bool_is_taken_for_a_float_argument_as_pytorch_does(call) -> None:
    """PyTorch's parser takes True and False for a float (as 1.0 and 0.0), not for an int."""
    expected = call(torch, TF)
    got = call(volta, VF)
    if isinstance(expected, torch.Tensor):
        got, expected = got.tolist(), expected.tolist()
    assert got == pytest.approx(expected, rel=1e-6)
    with pytest.raises(volta.ArgumentError, match="must be int, not bool"):
        volta.ones(2, 2).triu(True)


@pytest.mark.parametrize("call", [
    lambda m: m.einsum("ij->i", [m.ones(2, 2)], bogus_keyword=1),
    lambda m: m.broadcast_shapes((2,), bogus_keyword=1),
    lambda m: m.broadcast_tensors(m.ones(2), bogus_keyword=1),
    lambda m: m.is_tensor(m.ones(2), bogus_keyword=1),
    lambda m: m.numel(),
])
def test_a_hand_written_function_rejects_a_call_it_does_not_take(call) -> None:
    with pytest.raises(TypeError):
        call(torch)
    with pytest.raises(volta.ArgumentError):
        call(volta)


@pytest.mark.parametrize("call", [
    lambda m: m.ones(6).view(2.0, 3),
    lambda m: m.ones(6).reshape((2.5, 3)),
    lambda m: m.ones(6).expand(2.0, 6),
    lambda m: m.ones(2, 3).permute(1.0, 0),
    lambda m: m.ones(6).clone().resize_(2.5),
    lambda m: m.ones(6).view(True, 6),
    lambda m: m.ones(2.5),
], ids=["view", "reshape", "expand", "permute", "resize_", "bool", "factory"])
def test_int_lists_reject_floats_and_bools_as_pytorch(call) -> None:
    # int[] arguments once truncated floats silently (x.view(2.5, 3) viewed as (2, 3))
    with pytest.raises(TypeError):
        call(torch)
    with pytest.raises(volta.ArgumentError):
        call(volta)
    # integers in every form PyTorch takes still work
    assert volta.ones(6).view(np.int64(2), volta.tensor(3)).shape == (2, 3)
