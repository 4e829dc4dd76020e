"""The package layout is the architecture: imports run one way, and no module cycle exists.

Read from the source with ``ast`` (nothing is imported), so the test also sees imports hidden
inside function bodies. docs/layout.md explains the layers; ``LAYERS`` below is the rule.
"""

from __future__ import annotations

import ast
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

# Layers, lowest first. A module may import its own layer or any lower one, never a higher one.
# The longest prefix that matches a module's dotted name decides its layer.
LAYERS: list[tuple[str, tuple[str, ...]]] = [
    ("leaves", ("volta.errors", "volta.dtypes", "volta.schema", "volta.memory_format",
                "volta.threads", "volta.compiled")),
    ("dispatch", ("volta.dispatch", "volta.device", "volta.backend")),
    ("generated ops", ("volta._generated",)),
    ("tensor", ("volta.tensor",)),
    ("composites", ("volta.composites",)),
    ("keys and backends", ("volta.autograd", "volta._generated.autograd_nodes",
                           "volta.jit", "volta.backends")),
    ("library and plugins", ("volta.library", "volta.plugins", "volta.backends.cpu.plugin",
                             "volta.backends.wgpu.plugin",
                             "volta._wiring")),
    ("public API", ("volta", "volta.linalg", "volta.special", "volta.nn", "volta.optim",
                    "volta.utils")),
    ("tools", ("volta.cli", "volta.__main__", "volta.testing")),
]

# Imports that may break the rules above. Both lists are empty and may only stay so: the one
# place where a lower layer learns about an upper one is a call, not an import (volta/_wiring.py
# hands Tensor to the dispatcher and installs the methods implemented above it; docs/layout.md,
# "The seam"). An entry must name an edge that exists (test_allowed_edges_are_current).
SEAMS: frozenset[tuple[str, str]] = frozenset()
KNOWN_CYCLE_EDGES: frozenset[tuple[str, str]] = frozenset()


def _modules() -> dict[str, Path]:
    mods = {}
    for path in (ROOT / "volta").rglob("*.py"):
        parts = list(path.relative_to(ROOT).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        mods[".".join(parts)] = path
    return mods


def _resolve(name: str, mods: dict[str, Path]) -> str | None:
    while name and name not in mods:
        name = name.rpartition(".")[0]
    return name or None


def import_graph() -> tuple[dict[str, set[str]], dict[str, set[str]]]:
    """(module-level edges, function-body edges) among volta modules."""
    mods = _modules()
    top: dict[str, set[str]] = defaultdict(set)
    nested: dict[str, set[str]] = defaultdict(set)
    for mod, path in mods.items():
        pkg = mod if path.name == "__init__.py" else mod.rpartition(".")[0]

        def visit(node: ast.AST, in_function: bool, mod: str = mod, pkg: str = pkg) -> None:
            for child in ast.iter_child_nodes(node):
                if (isinstance(child, ast.If) and isinstance(child.test, ast.Name)
                        and child.test.id == "TYPE_CHECKING"):
                    continue  # annotations only; never executed
                inner = in_function or isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef))
                targets: list[str] = []
                if isinstance(child, ast.Import):
                    targets = [a.name for a in child.names]
                elif isinstance(child, ast.ImportFrom):
                    base = child.module or ""
                    if child.level:
                        parts = pkg.split(".")[: len(pkg.split(".")) - child.level + 1]
                        base = ".".join(parts + ([base] if base else []))
                    # `from pkg import submodule` depends on the submodule
                    subs = [f"{base}.{a.name}" for a in child.names]
                    targets = [t for t in subs if t in mods] or [base]
                for target in targets:
                    resolved = _resolve(target, mods)
                    if resolved and resolved != mod and resolved.startswith("volta"):
                        (nested if inner else top)[mod].add(resolved)
                visit(child, inner)

        visit(ast.parse(path.read_text()), False)
    return top, nested


def layer_of(module: str) -> int:
    best = (-1, -1)
    for index, (_, prefixes) in enumerate(LAYERS):
        for prefix in prefixes:
            if module == prefix or module.startswith(prefix + "."):
                best = max(best, (len(prefix), -index))
    assert best[0] >= 0, f"{module} is in no layer of LAYERS"
    return -best[1]


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Strongly connected components with more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def strong(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in graph.get(v, ()):
            if w not in index:
                strong(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for v in sorted(graph):
        if v not in index:
            strong(v)
    return found


def _all_edges() -> dict[str, set[str]]:
    """Module-level and function-body imports, less the seam and the known cycle edges."""
    top, nested = import_graph()
    allowed = SEAMS | KNOWN_CYCLE_EDGES
    return {m: {t for t in top[m] | nested[m] if (m, t) not in allowed}
            for m in set(top) | set(nested)}


def test_every_module_has_a_layer() -> None:
    for module in _modules():
        layer_of(module)


def test_no_import_cycles() -> None:
    found = cycles(_all_edges())
    assert not found, f"import cycles (module-level and function-body imports): {found}"


def test_no_upward_imports() -> None:
    upward = sorted((m, t) for m, targets in _all_edges().items() for t in targets
                    if layer_of(t) > layer_of(m))
    names = [name for name, _ in LAYERS]
    assert not upward, "imports that run upward:\n" + "\n".join(
        f"  {m} ({names[layer_of(m)]}) -> {t} ({names[layer_of(t)]})" for m, t in upward)


def test_allowed_edges_are_current() -> None:
    """An allowed edge that no longer exists must leave the lists, so they only shrink."""
    top, nested = import_graph()
    for source, target in SEAMS | KNOWN_CYCLE_EDGES:
        assert target in nested[source], f"{source} -> {target} is gone: remove it from the list"


def test_the_seam_installs_each_tensor_method_once() -> None:
    """volta/_wiring.py installs the Tensor methods implemented above the tensor (TENSOR_METHODS);
    none may also be defined in the class body or inherited, where one would silently win."""
    import volta  # noqa: F401 - runs the seam
    from volta._generated.tensor_methods import TensorMethods
    from volta.autograd import tensor_methods
    from volta.tensor import factories, indexing
    from volta.tensor.tensor import Tensor

    tree = ast.parse((ROOT / "volta" / "tensor" / "tensor.py").read_text())
    body = next(n for n in tree.body if isinstance(n, ast.ClassDef) and n.name == "Tensor").body
    defined = {n.name for n in body if isinstance(n, ast.FunctionDef)}
    installed = [indexing.TENSOR_METHODS, factories.TENSOR_METHODS, tensor_methods.TENSOR_METHODS]
    names = [name for methods in installed for name in methods]
    assert len(names) == len(set(names)), names
    for methods in installed:
        for name, method in methods.items():
            assert name not in defined and name not in TensorMethods.__dict__, name
            assert Tensor.__dict__[name] is method, name


def test_the_test_sees_cycles() -> None:
    assert cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]


def test_runtime_imports_the_build_tool_only_in_define_yaml() -> None:
    """codegen imports volta.schema, never the other way round; the one use of the build tool at
    run time is ``Library.define_yaml``, which compiles a plugin's yaml like codegen does."""
    users = set()
    for module, path in _modules().items():
        for node in ast.walk(ast.parse(path.read_text())):
            names = ([a.name for a in node.names] if isinstance(node, ast.Import)
                     else [node.module or ""] if isinstance(node, ast.ImportFrom) else [])
            if any(n == "codegen" or n.startswith("codegen.") for n in names):
                users.add(module)
    assert users == {"volta.library"}, users


if __name__ == "__main__":  # the numbers for a report: python tests/core/test_layout.py
    top_edges, nested_edges = import_graph()
    raw = {m: top_edges[m] | nested_edges[m] for m in set(top_edges) | set(nested_edges)}
    print("modules:", len(_modules()))
    print("module-level import edges:", sum(map(len, top_edges.values())))
    print("function-body import edges:", sum(map(len, nested_edges.values())),
          "in", sum(1 for v in nested_edges.values() if v), "modules")
    print("cycles (module-level):", [len(c) for c in cycles(top_edges)])
    print("cycles (all imports):", [len(c) for c in cycles(raw)], cycles(raw))
    print("cycles (less SEAMS and KNOWN_CYCLE_EDGES):", cycles(_all_edges()))
    ups = sorted((m, t) for m, ts in raw.items() for t in ts if layer_of(t) > layer_of(m))
    print("upward imports:", len(ups))
    for m, t in ups:
        print("   ", m, "->", t)
