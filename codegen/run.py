"""Which files codegen writes from which yaml."""

from __future__ import annotations

import ast
from pathlib import Path

from codegen import emit, emit_autograd, emit_wgsl
from codegen.loader import OpDecl, load


def formula_helpers(root: Path) -> frozenset[str]:
    """Names a derivative formula may call besides ops: ``__all__`` of the formulas module."""
    tree = ast.parse((root / "volta" / "autograd" / "formulas.py").read_text())
    for node in tree.body:
        if isinstance(node, ast.Assign) and any(getattr(t, "id", "") == "__all__"
                                                for t in node.targets):
            return frozenset(ast.literal_eval(node.value))
    raise ValueError("volta/autograd/formulas.py has no __all__")


def generate(root: Path) -> dict[Path, str]:
    decls: list[OpDecl] = load(root / "ops.yaml", formula_helpers(root))
    src = "ops.yaml"
    gen = root / "volta" / "_generated"
    return {
        gen / "registry.py": emit.emit_registry(decls, src),
        gen / "functions.py": emit.emit_functions(decls, src),
        gen / "tensor_methods.py": emit.emit_tensor_methods(decls, src),
        gen / "autograd_nodes.py": emit_autograd.emit_autograd(decls, src),
        root / "volta" / "backends" / "cpu" / "generated_pointwise.py":
            emit.emit_pointwise_numpy(decls, src),
        root / "volta" / "backends" / "wgpu" / "generated_pointwise.py":
            emit_wgsl.emit_pointwise_wgsl(decls, src),
        root / "docs" / "ops.md": emit.emit_docs(decls, src),
    }
