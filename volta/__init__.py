"""volta: a deep-learning framework built around a dispatcher.

Import order is the architecture: dtypes and devices, the dispatcher, the operators generated
from ops.yaml, the tensor, composite and view implementations, then plugins (volta's own CPU
backend first, installed packages after), then the keys above the backends (Autograd, Tracing).
"""

from __future__ import annotations

import builtins

# 1. errors, dtypes, devices and the dispatcher
from volta import dtypes as _dtypes
from volta.dispatch import dispatcher as _dispatcher_module
from volta.errors import (
    ArgumentError,
    AutogradError,
    BackendError,
    DeviceMismatchError,
    DTypeError,
    IndexOutOfRangeError,
    InvalidOperationError,
    NoKernelError,
    NumericOverflowError,
    PluginError,
    RegistrationError,
    SchemaError,
    SerializationError,
    ShapeError,
    TraceFormatError,
    VoltaError,
)

# 2. every core operator (generated from ops.yaml), then the tensor that carries their methods
from volta.dispatch import binding as _binding
from volta._generated import registry as _registry
from volta.tensor.tensor import Size, Tensor
from volta.backend import BACKENDS as _BACKENDS
from volta.device import device
from volta.dtypes import (
    bfloat16,
    dtype,
    finfo,
    float16,
    float32,
    float64,
    get_default_dtype,
    iinfo,
    int8,
    int16,
    int32,
    int64,
    promote_types,
    result_type,
    set_default_dtype,
    uint8,
)
from volta.dtypes import bool_ as bool
from volta.tensor.factories import (
    Generator,
    arange,
    as_tensor,
    empty,
    eye,
    from_dlpack,
    from_numpy,
    full,
    initial_seed,
    linspace,
    logspace,
    manual_seed,
    normal,
    ones,
    rand,
    randint,
    randn,
    randperm,
    scalar_tensor,
    seed,
    tensor,
    zeros,
)
from volta.tensor.factories import _default_generator as default_generator

# 3. implementations: views, composites, plugins (the CPU backend first), Autograd, Tracing
from volta import _wiring

# 4. the public API on top
from volta._generated.functions import *  # noqa: F403 - every op function
from volta._generated.functions import NAMESPACES as _NAMESPACES
from volta import autograd, dispatch, jit, library, linalg, nn, plugins, special
from volta.autograd import enable_grad, inference_mode, no_grad, set_grad_enabled
from volta.autograd.grad_mode import is_grad_enabled, is_inference_mode_enabled
from volta.library import ops

float = float32
double = float64
half = float16
long = int64
int = int32
short = int16
__version__ = "0.1.0"


def is_tensor(obj: object) -> builtins.bool:
    return isinstance(obj, Tensor)


def get_device_types() -> list[str]:
    return _BACKENDS.names()


def broadcast_shapes(*shapes: object) -> Size:
    from volta.tensor.inplace import broadcast_shapes as _bs
    return Size(_bs(*(tuple(s) for s in shapes)))  # type: ignore[arg-type]


def broadcast_tensors(*tensors: Tensor) -> tuple[Tensor, ...]:
    shape = broadcast_shapes(*(t.shape for t in tensors))
    return tuple(t.expand(shape) for t in tensors)


def numel(t: Tensor) -> builtins.int:
    return t.numel()


@_binding.checked(_registry.tensordot)
def tensordot(a: Tensor, b: Tensor, dims: object = 2) -> Tensor:
    """``tensordot(a, b, dims=2)`` or ``dims=([1, 0], [0, 1])`` as in PyTorch."""
    from builtins import int as _int
    if isinstance(dims, _int):
        dims_a = list(range(a.ndim - dims, a.ndim))
        dims_b = list(range(dims))
    else:
        dims_a, dims_b = ([d] if isinstance(d, _int) else list(d) for d in dims)  # type: ignore
    return _registry.tensordot(a, b, tuple(dims_a), tuple(dims_b))


@_binding.checked(_registry.einsum)
def einsum(equation: str, *operands: object) -> Tensor:
    """``einsum("ij,jk->ik", a, b)`` (operands as arguments or as one list), as in PyTorch."""
    if len(operands) == 1 and isinstance(operands[0], (list, tuple)):
        operands = tuple(operands[0])
    return _registry.einsum(equation, tuple(operands))


@_binding.checked(_registry.meshgrid)
def meshgrid(*tensors: object, indexing: str | None = None) -> tuple[Tensor, ...]:
    if len(tensors) == 1 and isinstance(tensors[0], (list, tuple)):
        tensors = tuple(tensors[0])
    return _registry.meshgrid(tuple(tensors), indexing)


@_binding.checked(_registry.var_mean)
def var_mean(input: Tensor, dim: object = None, unbiased: object = None, keepdim: builtins.bool
             = False, *, correction: object = None) -> tuple[Tensor, Tensor]:
    """PyTorch's ``var_mean`` with either ``unbiased`` (legacy) or ``correction``."""
    if isinstance(dim, builtins.bool) and unbiased is None:  # var_mean(x, False)
        dim, unbiased = None, dim
    if correction is None and unbiased is not None:
        correction = 1 if unbiased else 0
    dims = None if dim is None else ((dim,) if isinstance(dim, builtins.int) else tuple(dim))
    return _registry.var_mean(input, dims, correction, keepdim)


@_binding.checked(_registry.std_mean)
def std_mean(input: Tensor, dim: object = None, unbiased: object = None, keepdim: builtins.bool
             = False, *, correction: object = None) -> tuple[Tensor, Tensor]:
    """PyTorch's ``std_mean`` with either ``unbiased`` (legacy) or ``correction``."""
    if isinstance(dim, builtins.bool) and unbiased is None:
        dim, unbiased = None, dim
    if correction is None and unbiased is not None:
        correction = 1 if unbiased else 0
    dims = None if dim is None else ((dim,) if isinstance(dim, builtins.int) else tuple(dim))
    return _registry.std_mean(input, dims, correction, keepdim)
