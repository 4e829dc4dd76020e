"""The example plugin's hooks: a toy device, two operators, and kernels for them.

* ``volta_register_backends``: the device ``"toy"`` (dispatch key ``TOY``). Its memory is a host
  numpy array inside a :class:`ToyBuffer`, so toy tensors never share storage with CPU tensors
  and every op on them dispatches to the ``TOY`` key.
* ``volta_define_ops``: ``example::swiglu`` from ``ops.yaml`` (pointwise snippet + derivative
  formulas) and ``example::scaled_add`` from a schema string with a Python backward.
* ``volta_register_kernels``: CPU kernel for ``example::scaled_add``; TOY kernels for core ``add``
  and ``mul`` and for ``example::swiglu``. Everything else on ``toy`` goes through volta's CPU
  fallback.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np

import volta
from volta import dtypes
from volta.backend import Backend, BackendRegistry, host_view
from volta.library import Library
from volta.plugins import hookimpl

OPS_YAML = Path(__file__).with_name("ops.yaml")
TOY_DTYPES = (dtypes.float32, dtypes.float64, dtypes.int64, dtypes.bool_)


class ToyBuffer:
    """The toy device's memory for one storage."""

    __slots__ = ("data",)

    def __init__(self, data: np.ndarray) -> None:
        self.data = data

    def __repr__(self) -> str:
        return f"ToyBuffer({self.data.size} x {self.data.dtype})"


class ToyBackend(Backend):
    """The toy device's storage, written against ``volta.backend.Backend``."""

    dtypes = frozenset(TOY_DTYPES)

    def allocate(self, numel: int, dtype: volta.dtype, index: int) -> ToyBuffer:
        return ToyBuffer(np.empty(numel, dtype=dtype.numpy))

    def copy_(self, dst: ToyBuffer, src: np.ndarray) -> None:
        dst.data[...] = src.reshape(-1)

    def to_numpy(self, handle: ToyBuffer, dtype: volta.dtype, numel: int) -> np.ndarray:
        # a view of the toy memory: volta treats it as a read-only snapshot
        return handle.data

    def from_numpy(self, array: np.ndarray, index: int) -> ToyBuffer:
        # one pass instead of allocate + copy_; always a copy, since the caller may hand us a
        # CPU tensor's own memory
        return ToyBuffer(np.array(array, copy=True).reshape(-1))


# -- kernels ------------------------------------------------------------------------------------


def _host(x: Any) -> Any:
    """A kernel input's elements as an array (tensors that require grad included); ``Tensor``
    arguments of pointwise ops may arrive as Python numbers, which pass through."""
    return host_view(x) if isinstance(x, volta.Tensor) else x


def _device(*operands: Any) -> Any:
    return next(x.device for x in operands if isinstance(x, volta.Tensor))


def _check_broadcast(*operands: Any) -> None:
    """Raise volta's ShapeError (PyTorch's message) for shapes that do not broadcast, before
    numpy would raise a bare ValueError of its own."""
    volta.broadcast_shapes(*(tuple(x.shape) for x in operands if isinstance(x, volta.Tensor)))


def _result(values: Any, dt: Any, dev: Any) -> Any:
    return volta.tensor(np.asarray(values).astype(dt.numpy), device=dev)


def toy_add(self: Any, other: Any, alpha: Any = 1) -> Any:
    """Core ``add`` on the toy device."""
    _check_broadcast(self, other)
    dt = volta.result_type(self, other)
    return _result(_host(self) + alpha * _host(other), dt, _device(self, other))


def toy_mul(self: Any, other: Any) -> Any:
    """Core ``mul`` on the toy device."""
    _check_broadcast(self, other)
    dt = volta.result_type(self, other)
    return _result(_host(self) * _host(other), dt, _device(self, other))


def toy_swiglu(x: Any, gate: Any) -> Any:
    """``example::swiglu`` on the toy device: x * gate * sigmoid(gate)."""
    _check_broadcast(x, gate)
    dt = volta.result_type(x, gate)
    if not dt.is_floating_point:
        dt = volta.get_default_dtype()
    g = _host(gate).astype(np.float64)
    values = _host(x) * g / (1.0 + np.exp(-g))
    return _result(values, dt, _device(x, gate))


def cpu_scaled_add(a: Any, b: Any, alpha: float) -> Any:
    """``example::scaled_add`` on the CPU: a + alpha * b."""
    _check_broadcast(a, b)
    dt = volta.result_type(a, b)
    return _result(_host(a) + alpha * _host(b), dt, "cpu")


def _sum_to(grad: Any, shape: tuple[int, ...]) -> Any:
    """Undo broadcasting: sum ``grad`` down to ``shape``."""
    while grad.dim() > len(shape):
        grad = grad.sum(0)
    for i, n in enumerate(shape):
        if n == 1 and grad.shape[i] != 1:
            grad = grad.sum(i, keepdim=True)
    return grad


def scaled_add_setup(ctx: Any, inputs: tuple, output: Any) -> None:
    a, b, alpha = inputs
    ctx.alpha = alpha
    ctx.shapes = (tuple(a.shape), tuple(b.shape))


def scaled_add_backward(ctx: Any, grad: Any) -> tuple:
    shape_a, shape_b = ctx.shapes
    return _sum_to(grad, shape_a), _sum_to(grad * ctx.alpha, shape_b), None


# -- hooks --------------------------------------------------------------------------------------


@hookimpl
def volta_register_backends(registry: BackendRegistry) -> None:
    registry.register("toy", ToyBackend(), key_name="TOY", provenance="volta-example-ext")


@hookimpl
def volta_define_ops(library: Library) -> None:
    library.define_yaml(OPS_YAML)
    library.define("example::scaled_add(Tensor a, Tensor b, float alpha) -> Tensor")
    library.register_autograd("example::scaled_add", scaled_add_backward,
                              setup_context=scaled_add_setup)


@hookimpl
def volta_register_kernels(library: Library) -> None:
    library.impl("example::scaled_add", "CPU", cpu_scaled_add)
    library.impl("add", "TOY", toy_add)
    library.impl("mul", "TOY", toy_mul)
    library.impl("example::swiglu", "TOY", toy_swiglu)
