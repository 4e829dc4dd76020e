"""Every error volta raises on purpose is a VoltaError: no module raises a bare builtin
exception (``raise ValueError(...)``) where a user can reach it. Read with ``ast``, so a new
``raise TypeError`` anywhere in volta fails here, not in a user's ``except volta.VoltaError``."""

from __future__ import annotations

import ast
import builtins
from pathlib import Path

import volta

ROOT = Path(__file__).resolve().parents[2] / "volta"

# Builtins that are protocols, not errors: __getattr__ must raise AttributeError, iterators end
# with StopIteration, and an abstract method (its whole body is the raise) NotImplementedError.
PROTOCOL = {"AttributeError", "StopIteration"}
# Kernels may raise what numpy would: the CPU backend registers every kernel behind
# volta.errors.raising_volta_errors, which turns them into VoltaErrors (tested in tests/fuzz).
BEHIND_THE_KERNEL_BOUNDARY = ("backends",)
# volta.testing's comparisons report a mismatch the way a test assertion does
ASSERTING_PACKAGES = ("testing",)
# Features not built yet (issue 9); the list may only shrink.
MISSING_FEATURES = {("nn/modules/sparse.py", "NotImplementedError"),
                    ("nn/modules/conv.py", "NotImplementedError"),
                    ("nn/functional.py", "NotImplementedError")}


def _abstract_raises(tree: ast.AST) -> set[int]:
    """Line numbers of raises that are a function's whole body (after its docstring)."""
    lines = set()
    for fn in ast.walk(tree):
        if isinstance(fn, (ast.FunctionDef, ast.AsyncFunctionDef)):
            body = [n for n in fn.body
                    if not (isinstance(n, ast.Expr) and isinstance(n.value, ast.Constant))]
            if len(body) == 1 and isinstance(body[0], ast.Raise):
                lines.add(body[0].lineno)
    return lines


def _raw_raises(root: Path = ROOT) -> list[tuple[str, int, str]]:
    found = []
    for path in root.rglob("*.py"):
        rel = path.relative_to(root)
        if rel.parts[0] in ("_generated",) + BEHIND_THE_KERNEL_BOUNDARY:
            continue
        tree = ast.parse(path.read_text())
        abstract = _abstract_raises(tree)
        for node in ast.walk(tree):
            if not isinstance(node, ast.Raise) or node.exc is None:
                continue
            exc = node.exc.func if isinstance(node.exc, ast.Call) else node.exc
            name = exc.id if isinstance(exc, ast.Name) else None
            builtin = getattr(builtins, name, None) if name else None
            if not (isinstance(builtin, type) and issubclass(builtin, BaseException)):
                continue
            if name in PROTOCOL or (name == "NotImplementedError" and node.lineno in abstract):
                continue
            if name == "AssertionError" and rel.parts[0] in ASSERTING_PACKAGES:
                continue
            if (rel.as_posix(), name) in MISSING_FEATURES:
                continue
            found.append((rel.as_posix(), node.lineno, name))
    return sorted(found)


def test_no_module_raises_a_bare_builtin_exception() -> None:
    raw = _raw_raises()
    assert not raw, "raise a volta.errors class instead of:\n" + "\n".join(
        f"  volta/{f}:{line}: raise {name}" for f, line, name in raw)


def test_the_scan_sees_a_raw_raise(tmp_path: Path) -> None:
    (tmp_path / "nn").mkdir()
    (tmp_path / "nn" / "probe.py").write_text(
        "def f(x):\n    if x:\n        raise ValueError('x')\n    return x\n\n"
        "def abstract():\n    raise NotImplementedError('subclasses implement this')\n")
    assert _raw_raises(tmp_path) == [("nn/probe.py", 3, "ValueError")]


def test_user_facing_errors_keep_their_builtin_base() -> None:
    # `except ValueError` in PyTorch-shaped user code keeps working
    import pytest
    with pytest.raises(ValueError) as info:
        volta.nn.Dropout(p=2.0)
    assert isinstance(info.value, volta.VoltaError)
    with pytest.raises(KeyError) as info:
        volta.nn.Module().register_buffer("a.b", None)
    assert isinstance(info.value, volta.InvalidNameError)
