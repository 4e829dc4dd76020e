"""Translate the ``pointwise:`` snippets of ops.yaml into numba kernels.

A snippet is a Python expression over the op's arguments (``self + alpha * other``,
``where(self > 0, self, self * negative_slope)``); volta publishes it as
``volta.library.op(name).info.pointwise``. For each op this module writes two functions:

* ``<op>_element``: the snippet itself on scalars, names mapped onto numpy ufuncs (which numba
  compiles for scalars) or onto :mod:`volta_numba.scalar_math`;
* ``<op>`` and ``<op>_serial``: the loop, parallel over rows or not. Every tensor operand
  arrives as its flat storage, one start offset per row and the stride along the row (0 for a
  broadcast dimension), so one compiled loop serves contiguous, strided and broadcast inputs
  alike
  (:mod:`volta_numba.pointwise` computes that layout).

The functions of all ops go into one module file, written under a cache directory named by the
hash of its text and imported from there, because numba's on-disk cache (``cache=True``) needs
functions that live in a file. Nothing is compiled until a kernel first runs with a dtype.
"""

from __future__ import annotations

import ast
import hashlib
import importlib.util
import os
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType

from volta.errors import VoltaError
from volta_numba import scalar_math
from volta_numba.scalar_math import RENAMED, UFUNCS

_BINARY = {ast.Add: "+", ast.Sub: "-", ast.Mult: "*", ast.Div: "/", ast.FloorDiv: "//",
           ast.Mod: "%", ast.Pow: "**", ast.BitAnd: "&", ast.BitOr: "|", ast.BitXor: "^",
           ast.LShift: "<<", ast.RShift: ">>"}
_COMPARE = {ast.Eq: "==", ast.NotEq: "!=", ast.Lt: "<", ast.LtE: "<=", ast.Gt: ">",
            ast.GtE: ">="}


class TranslationError(VoltaError):
    """A snippet uses something numba kernels cannot express (the op keeps the CPU fallback)."""


@dataclass(frozen=True)
class PointwiseSpec:
    """One pointwise op as the kernels need it: arguments in schema order as (name, is_tensor),
    the promotion rule and allowed dtypes of ops.yaml, and the translated element expression.
    ``conditions`` name tensor arguments read as bool that take no part in type promotion
    (``where``'s condition); ``ident`` names the compiled functions."""

    name: str
    args: tuple[tuple[str, bool], ...]
    promotion: str
    allowed: str | None
    expression: str
    conditions: tuple[str, ...] = ()
    variant: str = ""

    @property
    def ident(self) -> str:
        """The op name as a Python identifier (``ext::swiglu`` -> ``ext__swiglu``)."""
        name = f"{self.name}_{self.variant}" if self.variant else self.name
        return "".join(c if c.isalnum() else "_" for c in name)


def element_expression(snippet: str, args: Sequence[str]) -> str:
    """The numba source of ``snippet`` with argument ``x`` read from variable ``v_x``."""
    names = set(args)

    def emit(node: ast.AST) -> str:
        if isinstance(node, ast.Name):
            if node.id not in names:
                raise TranslationError(f"unknown name {node.id!r} in {snippet!r}")
            return f"v_{node.id}"
        if isinstance(node, ast.Constant) and isinstance(node.value, (int, float, bool)):
            return repr(node.value)
        if isinstance(node, ast.BinOp) and type(node.op) in _BINARY:
            return f"({emit(node.left)} {_BINARY[type(node.op)]} {emit(node.right)})"
        if isinstance(node, ast.UnaryOp):
            if isinstance(node.op, ast.USub):
                return f"(-{emit(node.operand)})"
            if isinstance(node.op, ast.Invert):
                return f"_m.invert({emit(node.operand)})"
            if isinstance(node.op, ast.Not):
                return f"(not {emit(node.operand)})"
        if (isinstance(node, ast.Compare) and len(node.ops) == 1
                and type(node.ops[0]) in _COMPARE):
            return (f"({emit(node.left)} {_COMPARE[type(node.ops[0])]} "
                    f"{emit(node.comparators[0])})")
        if isinstance(node, ast.IfExp):
            return f"({emit(node.body)} if {emit(node.test)} else {emit(node.orelse)})"
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and not node.keywords:
            operands = ", ".join(emit(a) for a in node.args)
            name = node.func.id
            if name in UFUNCS:
                return f"_np.{UFUNCS[name].__name__}({operands})"
            helper = RENAMED.get(name, name)
            if not hasattr(scalar_math, helper):
                raise TranslationError(f"no numba function for {name!r} in {snippet!r}")
            return f"_m.{helper}({operands})"
        raise TranslationError(f"cannot translate {ast.unparse(node)!r} in {snippet!r}")

    return emit(ast.parse(snippet, mode="eval").body)


def kernel_source(spec: PointwiseSpec) -> str:
    """The element function and the row loop of one op."""
    ident = spec.ident
    names = [name for name, _ in spec.args]
    tensors = [name for name, is_tensor in spec.args if is_tensor]
    params = ["out", "n", "inner"]
    for name, is_tensor in spec.args:
        params += [f"t_{name}", f"o_{name}", f"l_{name}"] if is_tensor else [f"v_{name}"]
    reads = ", ".join(f"t_{a}[b_{a} + i * l_{a}]" if is_tensor else f"v_{a}"
                      for a, is_tensor in spec.args)
    starts = "".join(f"        b_{a} = o_{a}[r]\n" for a in tensors)
    loop = (f"    for r in _nb.prange(o_{tensors[0]}.shape[0]):\n"
            "        start = r * inner\n"
            "        stop = min(inner, n - start)\n"
            f"{starts}"
            "        for i in range(stop):\n"
            f"            out[start + i] = {ident}_element({reads})\n\n\n")
    # two compilations of one loop, each made only when first needed: the parallel one for
    # large results, the serial one (a third of the compile time) for small ones
    return (f"# {spec.name}: {spec.expression}\n"
            "@_nb.njit(cache=True, error_model='numpy')\n"
            f"def {ident}_element({', '.join('v_' + a for a in names)}):\n"
            f"    return {spec.expression}\n\n\n"
            "@_nb.njit(cache=True, parallel=True, error_model='numpy')\n"
            f"def {ident}({', '.join(params)}):\n{loop}"
            "@_nb.njit(cache=True, error_model='numpy')\n"
            f"def {ident}_serial({', '.join(params)}):\n{loop}")


def module_source(specs: Sequence[PointwiseSpec]) -> str:
    return ("# generated by volta_numba.translate from the pointwise snippets of the ops "
            "volta defines\n"
            "# ruff: noqa\n"
            "import numba as _nb\nimport numpy as _np\n\n"
            "from volta_numba import scalar_math as _m\n\n\n"
            + "".join(kernel_source(s) for s in specs))


def cache_dir() -> Path:
    """Where the generated module and numba's compiled kernels live: ``$VOLTA_NUMBA_CACHE_DIR``,
    else ``volta-numba`` under ``$XDG_CACHE_HOME`` (default ``~/.cache``)."""
    explicit = os.environ.get("VOLTA_NUMBA_CACHE_DIR")
    if explicit:
        return Path(explicit)
    base = os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache"
    return Path(base) / "volta-numba"


def load_module(specs: Sequence[PointwiseSpec]) -> ModuleType:
    """Write (once per distinct text) and import the module of ``specs``' kernels."""
    text = module_source(specs)
    digest = hashlib.sha256(text.encode()).hexdigest()[:16]
    folder = cache_dir()
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / f"pointwise_{digest}.py"
    if not path.exists():
        scratch = path.with_suffix(f".{os.getpid()}.tmp")
        scratch.write_text(text)
        os.replace(scratch, path)  # atomic: processes that start together never read half
    name = f"volta_numba_pointwise_{digest}"
    spec = importlib.util.spec_from_file_location(name, path)
    if spec is None or spec.loader is None:
        raise TranslationError(f"cannot import the generated kernels at {path}")
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module
