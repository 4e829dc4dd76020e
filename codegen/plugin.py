"""Codegen for an out-of-tree operator package: its own yaml, volta's emitters, its namespace.

    python -m codegen --plugin path/to/mypkg/ops.yaml [--check]

writes ``mypkg/_generated/`` beside the yaml (the package is the yaml's folder):

* ``__init__.py`` — ``OPS`` (schema, tags, OpInfo, handle name per operator) and
  ``define_ops(library)``, to call from the package's ``volta_define_ops`` hook;
* ``handles.py`` — the operator handles, filled in by ``define_ops``;
* ``autograd_nodes.py`` — backward nodes and Autograd kernels from the derivative formulas;
* ``cpu_pointwise.py`` — numpy kernels from the ``pointwise:`` snippets;
* ``wgpu_pointwise.py`` — the same snippets as WGSL expressions (``SPECS``), which
  ``volta.wgpu.pointwise_kernel`` turns into WGPU kernels for the package to register.

The same emitters write volta's own ``_generated`` files, and ``Library.define_yaml`` runs this
module's output in memory, so a yaml file means the same thing wherever it is compiled.
"""

from __future__ import annotations

import ast
from pathlib import Path
from typing import Any

from codegen import emit, emit_autograd, emit_wgsl
from codegen.loader import OpDecl, YamlError, load
from codegen.run import formula_helpers

CORE_REGISTRY_IMPORT = "from volta._generated import registry as _op\n"


def op_entries(decls: list[OpDecl]) -> list[tuple[str, tuple[str, ...], dict[str, Any], str]]:
    """Per operator: schema text, tags, ``volta.schema.OpInfo`` fields, handle attribute."""
    entries = []
    for decl in decls:
        if not decl.schema.name.namespace:
            raise YamlError(decl.path, decl.line, f"out-of-tree operators need a namespace "
                            f"(write 'myns::{decl.name}')")
        info = {"promotion": decl.promotion, "dtypes": decl.dtypes,
                "non_differentiable": decl.non_differentiable}
        if decl.numbers is not None:
            info["numbers"] = decl.numbers
        entries.append((str(decl.schema), decl.tags, info, decl.overload_id))
    return entries


def autograd_source(decls: list[OpDecl], source: str, handles_import: str) -> str:
    """The Autograd kernels, reading operator handles through ``handles_import``. A formula
    may call the package's own ops by name, as core formulas call core ops: each name is a
    function calling ``volta.ops.<namespace>.<name>`` (looked up when called, since the ops
    are defined after this module is imported)."""
    aliases = "".join(
        f"\n\ndef {name}(*args, **kwargs):\n"
        f"    return _volta.ops.{namespace}.{name}(*args, **kwargs)\n"
        for namespace, name in sorted({(d.schema.name.namespace, d.func_name) for d in decls
                                       if "function" in d.variants and d.inplace_of is None}))
    text = emit_autograd.emit_autograd(decls, source).replace(CORE_REGISTRY_IMPORT,
                                                              handles_import)
    if aliases:
        text = text.replace("\nKERNELS = {}\n",
                            f"import volta as _volta\n{aliases}\n\nKERNELS = {{}}\n", 1)
    return text


def plugin_sources(decls: list[OpDecl], source: str, package: str) -> dict[str, str]:
    """File name (inside ``<package>/_generated/``) -> text."""
    header = emit.HEADER.format(source=source)
    entries = ",\n".join(f"    ({schema!r}, {tags!r}, OpInfo(**{info!r}), {handle!r})"
                         for schema, tags, info, handle in op_entries(decls))
    init = (f"{header}"
            f'"""The operators of {source}: call ``define_ops(library)`` from the package\'s\n'
            '``volta_define_ops`` hook; it defines them, with their backward nodes and CPU\n'
            'kernels."""\n\n'
            "from volta.schema import OpInfo\n\n"
            f"from {package}._generated.handles import HANDLES\n\n"
            f"OPS = (\n{entries},\n)\n\n\n"
            "def define_ops(library):\n"
            f"    from {package}._generated import autograd_nodes, cpu_pointwise\n"
            "    return library.define_generated(OPS, HANDLES, autograd_nodes, cpu_pointwise)\n")
    handles = (f"{header}"
               '"""Operator handles of this package, set by ``define_ops``."""\n\n'
               "from types import SimpleNamespace\n\n"
               "HANDLES = SimpleNamespace()\n")
    return {
        "__init__.py": init,
        "handles.py": handles,
        "autograd_nodes.py": autograd_source(
            decls, source, f"from {package}._generated.handles import HANDLES as _op\n"),
        "cpu_pointwise.py": emit.emit_pointwise_numpy(decls, source),
        "wgpu_pointwise.py": emit_wgsl.emit_pointwise_wgsl(decls, source),
    }


def core_function_names(volta_root: Path) -> frozenset[str]:
    """volta's op functions (a plugin's formulas may call them): read from the generated
    ``functions.py`` without importing volta."""
    tree = ast.parse((volta_root / "volta" / "_generated" / "functions.py").read_text())
    return frozenset(node.name for node in tree.body if isinstance(node, ast.FunctionDef))


def generate_plugin(yaml_path: Path, volta_root: Path) -> dict[Path, str]:
    """The files to write for the plugin whose yaml is ``yaml_path``; ``volta_root`` holds the
    ``volta`` package whose formula helpers and ops the formulas may call."""
    package_dir = yaml_path.resolve().parent
    decls = load(yaml_path, formula_helpers(volta_root) | core_function_names(volta_root))
    source = f"{package_dir.name}/{yaml_path.name}"
    return {package_dir / "_generated" / name: text
            for name, text in plugin_sources(decls, source, package_dir.name).items()}
