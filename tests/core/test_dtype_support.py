"""Which dtypes an op takes, as PyTorch's CPU kernels take them: each case runs the same call
through PyTorch and volta and checks that both accept it or both reject it (volta with a
VoltaError). The differential fuzz (tests/fuzz) found these classes."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
import torch

import volta
import volta.nn.functional as VF

DTYPES = ["int32", "int64", "uint8", "bool", "float16", "bfloat16", "float32"]

# name -> the call, given the library (torch or volta), the op's function there and a dtype
CASES: dict[str, Callable[[Any, Any, Any], Any]] = {
    **{name: (lambda lib, fn, dt, name=name: fn(lib.ones(2, 3, dtype=dt)))
       for name in ("silu", "selu", "leaky_relu", "abs", "relu", "relu6", "hardtanh",
                    "softsign", "floor", "ceil", "round", "trunc", "glu")},
    **{name: (lambda lib, fn, dt, name=name: fn(lib.ones(2, 3, dtype=dt), lib.ones(3, dtype=dt)))
       for name in ("hypot", "logaddexp", "logaddexp2")},
    "linspace_2": lambda lib, fn, dt: lib.linspace(0.5, 1, 2, dtype=dt),
    "linspace_1": lambda lib, fn, dt: lib.linspace(0.5, 1, 1, dtype=dt),
    "logspace_2": lambda lib, fn, dt: lib.logspace(0.5, 1, 2, dtype=dt),
    "logspace_0": lambda lib, fn, dt: lib.logspace(0.5, 1, 0, dtype=dt),
    "histogram": lambda lib, fn, dt: lib.histogram(lib.ones(4, dtype=dt), 3),
    "histogramdd": lambda lib, fn, dt: lib.histogramdd(lib.ones(4, 2, dtype=dt), 3),
    "histc": lambda lib, fn, dt: lib.histc(lib.ones(4, dtype=dt), 3),
    "argmax": lambda lib, fn, dt: fn(lib.ones(2, 3, dtype=dt)),
    "argmin": lambda lib, fn, dt: fn(lib.ones(2, 3, dtype=dt), 1),
    "median": lambda lib, fn, dt: fn(lib.ones(2, 3, dtype=dt)),
    "median_dim": lambda lib, fn, dt: lib.ones(2, 3, dtype=dt).median(1),
    "nanmedian": lambda lib, fn, dt: fn(lib.ones(2, 3, dtype=dt)),
    "nanmedian_dim": lambda lib, fn, dt: lib.ones(2, 3, dtype=dt).nanmedian(1),
    "kthvalue": lambda lib, fn, dt: fn(lib.ones(2, 3, dtype=dt), 1, 1),
    "mvlgamma": lambda lib, fn, dt: fn(lib.full((2, 3), 3, dtype=dt), 2),
    "kl_div": lambda lib, fn, dt: lib.nn.functional.kl_div(
        lib.ones(2, 3, dtype=dt), lib.ones(2, 3, dtype=dt), reduction="sum"),
    "unfold": lambda lib, fn, dt: fn(lib.ones(1, 2, 4, 4, dtype=dt), 2),
    "fold": lambda lib, fn, dt: fn(lib.ones(1, 8, 9, dtype=dt), (4, 4), 2),
}


def _function(lib: Any, functional: Any, name: str) -> Any:
    base = name.split("_")[0] if name[-1].isdigit() and name != "logaddexp2" else name
    return getattr(lib, base, None) or getattr(functional, base, None)


def _accepts(call: Callable[[], Any]) -> tuple[bool, BaseException | None]:
    try:
        call()
    except Exception as error:  # noqa: BLE001 - which class PyTorch raises varies
        return False, error
    return True, None


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("name", sorted(CASES))
def test_accepts_exactly_the_dtypes_pytorch_takes(name: str, dtype: str) -> None:
    case = CASES[name]
    torch_ok, _ = _accepts(lambda: case(torch, _function(torch, torch.nn.functional, name),
                                        getattr(torch, dtype)))
    volta_ok, error = _accepts(lambda: case(volta, _function(volta, VF, name),
                                            getattr(volta, dtype)))
    assert volta_ok == torch_ok, (name, dtype, error)
    if not volta_ok:
        assert isinstance(error, volta.VoltaError), error
