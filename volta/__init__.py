"""volta: a deep-learning framework built around a dispatcher.

Import order is the architecture: dtypes and devices, the dispatcher, the operators generated
from ops.yaml, the tensor, composite and view implementations, then plugins (volta's own CPU
backend first, installed packages after), then the keys above the backends (Autograd, Tracing).
This module only imports and re-exports (plus PyTorch's dtype aliases and the lazy ``volta.nn``);
the few public functions that are not ops live in ``volta/functional.py``.
"""

from __future__ import annotations

import importlib as _importlib
from typing import Any as _Any

# 1. errors, dtypes, devices and the dispatcher
from volta import dtypes as _dtypes
from volta.dispatch import dispatcher as _dispatcher_module
from volta.errors import (
    ArgumentError,
    AutogradError,
    BackendError,
    DeviceError,
    DeviceMismatchError,
    DeviceOutOfMemoryError,
    DTypeError,
    IndexOutOfRangeError,
    InvalidArgumentError,
    InvalidNameError,
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
from volta._generated import registry as _registry
from volta.tensor.tensor import Size, Tensor
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
from volta.memory_format import (
    channels_last,
    channels_last_3d,
    contiguous_format,
    memory_format,
    preserve_format,
)
from volta.tensor.factories import (
    Generator,
    arange,
    as_tensor,
    empty,
    empty_permuted,
    empty_strided,
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
    tril_indices,
    triu_indices,
    zeros,
)
from volta.tensor.factories import _default_generator as default_generator

# 3. implementations: views, composites, plugins (the CPU backend first), Autograd, Tracing
from volta import _wiring

# 4. the public API on top
from volta._generated.functions import *  # noqa: F403 - every op function
from volta._generated.functions import NAMESPACES as _NAMESPACES
from volta import autograd, dispatch, fft, jit, library, linalg, plugins, special
from volta.functional import (
    broadcast_shapes,
    broadcast_tensors,
    einsum,
    get_device_types,
    is_tensor,
    meshgrid,
    numel,
    std_mean,
    tensordot,
    var_mean,
)
from volta.autograd import enable_grad, inference_mode, no_grad, set_grad_enabled
from volta.autograd.grad_mode import is_grad_enabled, is_inference_mode_enabled
from volta.library import ops
from volta.serialization import load, save
from volta.tensor.printing import set_printoptions
from volta.threads import get_num_threads, set_num_threads

float = float32
double = float64
half = float16
long = int64
int = int32
short = int16
__version__ = "0.1.0"


# subpackages written against the public API (they `import volta`), loaded on first use
_LAZY_SUBPACKAGES = frozenset({"nn", "optim", "datasets", "wgpu", "signal", "masked", "func"})


def __getattr__(name: str) -> _Any:
    # volta.nn is built on the public API (it does `import volta`), so importing it from here
    # would be an import cycle: it loads on first use instead (PEP 562), once this package is
    # complete, and `import volta; volta.nn.Linear(...)` works as in PyTorch
    if name in _LAZY_SUBPACKAGES:
        return _importlib.import_module(f"volta.{name}")
    raise AttributeError(f"module 'volta' has no attribute '{name}'")
