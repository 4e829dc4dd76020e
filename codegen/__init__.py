"""volta's code generator: ops.yaml -> Python (op functions, Tensor methods, autograd nodes,
pointwise kernels, the schema registry) and docs/ops.md.

It ships with volta so plugin authors can run it on their own yaml: ``python -m codegen``.
"""

import importlib.util
import sys
from pathlib import Path


def _load_schema_leaf() -> None:
    """Make ``volta.schema`` importable without running ``volta/__init__``.

    The generator depends on one runtime module, the schema model, which imports only the
    standard library. Importing it the ordinary way would first initialise the whole runtime
    (generated registry, kernels, plugins) -- the very files the generator is about to rewrite,
    so a stale ``volta/_generated`` could stop the tool that fixes it. The module is registered
    under its real name, so a later ``import volta`` uses this same module object.
    """
    if "volta.schema" in sys.modules:
        return
    path = Path(__file__).resolve().parent.parent / "volta" / "schema.py"
    spec = importlib.util.spec_from_file_location("volta.schema", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["volta.schema"] = module
    spec.loader.exec_module(module)


_load_schema_leaf()
