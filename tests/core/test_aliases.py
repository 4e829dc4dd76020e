"""PyTorch's alias names (``arccos`` for ``acos``...), declared with ``aliases:`` in ops.yaml: each
is the same op under another name, as a function, a method and an in-place method."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
import torch

import volta
from codegen.loader import load

ROOT = Path(__file__).resolve().parents[2]
DECLS = [d for d in load(ROOT / "ops.yaml") if d.aliases]
PAIRS = sorted({alias: (alias, d.func_name, d) for d in DECLS for alias in d.aliases}.values(),
               key=lambda p: p[0])

# sample arguments per target (a small float tensor in (-1, 1) otherwise)
X = np.array([[0.5, -0.25, 0.75], [0.1, 0.9, -0.6]])
ARGS = {
    "ge": lambda lib, x: (x, 0.2), "gt": lambda lib, x: (x, 0.2), "le": lambda lib, x: (x, 0.2),
    "lt": lambda lib, x: (x, 0.2), "ne": lambda lib, x: (x, 0.5),
    "ge_": lambda lib, x: (x, 0.2), "gt_": lambda lib, x: (x, 0.2), "le_": lambda lib, x: (x, 0.2),
    "lt_": lambda lib, x: (x, 0.2), "ne_": lambda lib, x: (x, 0.5),
    "transpose": lambda lib, x: (x, 0, 1), "movedim": lambda lib, x: (x, 0, 1),
    "cat": lambda lib, x: ([x, x], 1), "vstack": lambda lib, x: ([x, x],),
    "outer": lambda lib, x: (x[0], x[1]),
}


def test_aliases_are_pytorchs_names() -> None:
    assert PAIRS, "ops.yaml declares no aliases"
    for alias, target, decl in PAIRS:
        where = torch.Tensor if "function" not in decl.variants else torch
        assert hasattr(where, alias), f"{alias} (alias of {target}) is not a PyTorch name"


@pytest.mark.parametrize("alias,target", [(a, t) for a, t, _ in PAIRS])
def test_alias_calls_the_same_op(alias: str, target: str) -> None:
    make = ARGS.get(target, lambda lib, x: (x,))
    v_args, t_args = make(volta, volta.tensor(X)), make(torch, torch.tensor(X))
    decl = next(d for a, _, d in PAIRS if a == alias)
    forms = []
    if "function" in decl.variants:
        forms.append((getattr(volta, alias), getattr(volta, target), getattr(torch, alias)))
    if "method" in decl.variants:
        forms.append((getattr(volta.Tensor, alias), getattr(volta.Tensor, target),
                      getattr(torch.Tensor, alias)))
    assert forms
    for ours, original, theirs in forms:
        result = ours(*[a.clone() if isinstance(a, volta.Tensor) else a for a in v_args])
        same = original(*[a.clone() if isinstance(a, volta.Tensor) else a for a in v_args])
        expected = theirs(*[a.clone() if isinstance(a, torch.Tensor) else a for a in t_args])
        np.testing.assert_array_equal(result.numpy(), same.numpy())
        np.testing.assert_allclose(result.numpy(), expected.numpy(), rtol=1e-12)
