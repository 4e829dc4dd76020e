"""Codegen: schema round trips, the committed generated files, and yaml validation errors
(every one names the file, the line, and says what to write instead)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from codegen import loader, run
from codegen.loader import YamlError
from volta.schema import FunctionSchema, SchemaSyntaxError

ROOT = Path(__file__).resolve().parents[2]
HELPERS = run.formula_helpers(ROOT)
OPS_ENTRIES = yaml.safe_load((ROOT / "ops.yaml").read_text())


# -- schemas ---------------------------------------------------------------------------------------


@pytest.mark.parametrize("text", [e["func"] for e in OPS_ENTRIES],
                         ids=[e["func"].split("(")[0] for e in OPS_ENTRIES])
def test_schema_round_trip(text: str) -> None:
    schema = FunctionSchema.parse(text)
    assert str(schema) == text
    assert FunctionSchema.parse(str(schema)) == schema


def test_schema_parse_details() -> None:
    s = FunctionSchema.parse("ext::f.out(Tensor(a!) self, int[2] k=[1, 1], *, Tensor? w=None, "
                             "float eps=1e-05) -> (Tensor(a!) values, Tensor indices)")
    assert (s.name.namespace, s.name.name, s.name.overload) == ("ext", "f", "out")
    assert [a.name for a in s.positional] == ["self", "k"]
    assert [a.name for a in s.kwarg_only] == ["w", "eps"]
    assert s.arguments[1].type.list_size == 2 and s.arguments[1].default_value == [1, 1]
    assert s.arguments[2].type.optional and s.arguments[2].default_value is None
    assert s.mutated_arguments == (0,)
    assert s.returns_tuple and [r.name for r in s.returns] == ["values", "indices"]


@pytest.mark.parametrize("bad", ["f(Tensor x", "f(Tensr x) -> Tensor", "f(Tensor) -> Tensor",
                                 "f(Tensor x=1, int y) -> Tensor", "f(Tensor x, *, *) -> Tensor",
                                 "f(Tensor x=nope) -> Tensor", "f(Tensor(A) x) -> Tensor"],
                         ids=["unclosed", "unknown-type", "no-name", "default-order", "two-stars",
                              "non-literal-default", "bad-alias"])
def test_schema_syntax_errors(bad: str) -> None:
    with pytest.raises(SchemaSyntaxError):
        FunctionSchema.parse(bad)


# -- the generated files ---------------------------------------------------------------------------


def test_codegen_check_passes_on_the_repository() -> None:
    proc = subprocess.run([sys.executable, "-m", "codegen", "--check"], cwd=ROOT,
                          capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr


def test_codegen_check_fails_on_a_stale_file(tmp_path: Path) -> None:
    # a copy of the inputs codegen reads, with one generated file missing
    (tmp_path / "volta" / "autograd").mkdir(parents=True)
    (tmp_path / "ops.yaml").write_text((ROOT / "ops.yaml").read_text())
    formulas = ROOT / "volta" / "autograd" / "formulas.py"
    (tmp_path / "volta" / "autograd" / "formulas.py").write_text(formulas.read_text())
    proc = subprocess.run([sys.executable, "-m", "codegen", "--check", "--root", str(tmp_path)],
                          cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert proc.returncode == 1
    assert "stale generated file" in proc.stderr and "registry.py" in proc.stderr
    assert not (tmp_path / "volta" / "_generated").exists()  # --check writes nothing


def test_generated_files_carry_the_do_not_edit_header() -> None:
    outputs = run.generate(ROOT)
    assert len(outputs) >= 6
    for path, text in outputs.items():
        on_disk = path.read_text()
        head = "\n".join(on_disk.splitlines()[:2])
        assert "generated from ops.yaml" in head, path
        assert "do not edit" in head, path
        assert text.splitlines()[0] == on_disk.splitlines()[0]


def test_every_op_of_ops_yaml_is_generated() -> None:
    from volta._generated import registry
    decls = loader.load(ROOT / "ops.yaml", HELPERS)
    for d in decls:
        assert str(getattr(registry, d.overload_id).schema) == str(d.schema)


def test_codegen_accepts_the_example_plugin_yaml() -> None:
    path = ROOT / "plugins" / "volta-example-ext" / "volta_example_ext" / "ops.yaml"
    (decl,) = loader.load(path, HELPERS)
    assert decl.name == "example::swiglu" and decl.pointwise and len(decl.formulas) == 2


# -- yaml validation -------------------------------------------------------------------------------

GOOD = """\
- func: ns::good(Tensor self) -> Tensor
  tags: pointwise
  pointwise: -self
  derivatives:
    self: -grad
"""


def load_text(tmp_path: Path, text: str) -> list[loader.OpDecl]:
    path = tmp_path / "my_ops.yaml"
    path.write_text(text)
    return loader.load(path, HELPERS)


def fails(tmp_path: Path, text: str, line: int, *needles: str) -> YamlError:
    """Loading ``text`` raises a YamlError at ``line`` whose message names the file and
    contains every needle."""
    with pytest.raises(YamlError) as info:
        load_text(tmp_path, text)
    err = info.value
    path = str(tmp_path / "my_ops.yaml")
    assert err.line == line
    assert err.path == path
    assert str(err).startswith(f"{path}:{line}: ")
    for needle in needles:
        assert needle in str(err), (needle, str(err))
    return err


def test_good_yaml_loads(tmp_path: Path) -> None:
    (decl,) = load_text(tmp_path, GOOD)
    assert decl.line == 1 and decl.formulas[0].inputs == ("self",)


def test_unknown_type(tmp_path: Path) -> None:
    fails(tmp_path, GOOD + "- func: ns::f(Tensr x) -> Tensor\n  composite: true\n", 6,
          "unknown type 'Tensr'", "known types:", "Tensor")


def test_duplicate_overload(tmp_path: Path) -> None:
    text = GOOD + "- func: ns::other(Tensor x) -> Tensor\n  composite: true\n" + GOOD
    fails(tmp_path, text, 8, "duplicate overload 'ns::good'", "first declared on line 1",
          "different overload name")


def test_formula_for_an_argument_that_does_not_exist(tmp_path: Path) -> None:
    text = GOOD + ("- func: ns::f(Tensor x) -> Tensor\n"
                   "  derivatives:\n"
                   "    y: grad\n")
    fails(tmp_path, text, 6, "'y'", "not an argument of ns::f", "its arguments are x")


def test_formula_naming_an_unknown_name(tmp_path: Path) -> None:
    text = GOOD + ("- func: ns::f(Tensor x, Tensor other) -> Tensor\n"
                   "  derivatives:\n"
                   "    x: grad * othr\n"
                   "    other: grad\n")
    fails(tmp_path, text, 6, "names ['othr']", "arguments of ns::f (other, x)")


def test_formula_that_is_not_python(tmp_path: Path) -> None:
    text = GOOD + ("- func: ns::f(Tensor x) -> Tensor\n"
                   "  derivatives:\n"
                   "    x: grad * (x +\n")
    fails(tmp_path, text, 6, "not valid Python", "grad * (x +")


def test_unknown_field(tmp_path: Path) -> None:
    text = GOOD + ("- func: ns::f(Tensor x) -> Tensor\n"
                   "  composite: true\n"
                   "  derivative:\n"
                   "    x: grad\n")
    fails(tmp_path, text, 6, "unknown field(s) ['derivative']", "allowed fields:", "derivatives")


def test_unknown_tag(tmp_path: Path) -> None:
    text = GOOD + ("- func: ns::f(Tensor x) -> Tensor\n"
                   "  tags: pointwse\n"
                   "  composite: true\n")
    fails(tmp_path, text, 6, "unknown tag 'pointwse'", "known tags:", "pointwise")


def test_malformed_schema(tmp_path: Path) -> None:
    text = GOOD + "- func: ns::f(Tensor x -> Tensor\n  composite: true\n"
    fails(tmp_path, text, 6, "cannot parse schema", "write 'name.overload(")


def test_missing_derivative_declaration(tmp_path: Path) -> None:
    text = GOOD + "- func: ns::f(Tensor x) -> Tensor\n  tags: reduction\n"
    fails(tmp_path, text, 6, "declares no 'derivatives:'", "composite: true",
          "non_differentiable: true")


def test_other_validation_errors(tmp_path: Path) -> None:
    fails(tmp_path, GOOD + "- func: ns::f(Tensor x) -> Tensor\n  variants: functon\n"
          "  composite: true\n", 6, "unknown variant 'functon'", "function")
    fails(tmp_path, "- not_a_mapping\n", 1, "needs a 'func:' schema")
    fails(tmp_path, "- func: ns::f(Tensor x) -> Tensor\n  pointwise: x + 1\n"
          "  composite: true\n", 1, "'pointwise' tag")
    fails(tmp_path, "- func: ns::f(Tensor x) -> Tensor\n  tags: pointwise\n"
          "  pointwise: frobnicate(x)\n  composite: true\n", 1, "unknown name(s) ['frobnicate']")
    fails(tmp_path, "- func: ns::f(Tensor x, int n) -> Tensor\n  derivatives:\n"
          "    n: grad\n", 1, "not a Tensor argument")
    fails(tmp_path, "func: ns::f(Tensor x) -> Tensor\n", 1, "must be a list of entries")


def test_invalid_yaml_syntax(tmp_path: Path) -> None:
    fails(tmp_path, GOOD + "- func: ns::f(Tensor x) -> Tensor\n  tags: a: b\n", 7,
          "not valid yaml", "mapping values are not allowed")


# -- numpy kernels: common subexpressions (Note [pointwise common subexpressions]) ---------------


def test_repeated_subexpressions_are_computed_once(tmp_path: Path) -> None:
    from codegen.emit import pointwise_numpy_statements
    (decl,) = load_text(tmp_path, """\
- func: ns::f(Tensor self, Scalar k, bool flag) -> Tensor
  tags: pointwise
  pointwise: sigmoid(self * k) * (1 - sigmoid(self * k)) + (exp(self) if flag else exp(self))
  derivatives:
    self: grad
""")
    assignments, expr = pointwise_numpy_statements(decl)
    # innermost first; the branches of `a if c else b` are left alone (only one of them runs)
    assert assignments == ["_c0 = self * k", "_c1 = _pm.sigmoid(_c0)"]
    assert expr == "_c1 * (1 - _c1) + (_pm.exp(self) if flag else _pm.exp(self))"


def test_generated_numpy_kernel_hoists_common_subexpressions() -> None:
    from volta.backends.cpu import generated_pointwise
    source = Path(generated_pointwise.__file__).read_text()
    assert "_c0 = _pm.sigmoid(self)\n" in source  # silu_backward: one sigmoid pass, not two
