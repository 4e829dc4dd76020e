"""The CPU fallback: run an op another backend has no kernel for on the CPU (copy in, compute,
copy back), warning once per op. The dispatcher asks this factory when resolution reaches a
backend key with nothing registered; ``volta.dispatch.set_cpu_fallback(False)`` turns it off."""

from __future__ import annotations

from typing import Any

import numpy as np

from volta.backend import host_view
from volta.dispatch.dispatcher import DISPATCHER, OperatorHandle
from volta.dispatch.keys import KEYS, DispatchKey
from volta.tensor.factories import to_copy
from volta.tensor.tensor import Tensor


def _to_host(x: Any, tensor_type: type) -> Any:
    if isinstance(x, tensor_type):
        return to_copy(x, None, "cpu")
    if isinstance(x, (tuple, list)) and any(isinstance(v, tensor_type) for v in x):
        return type(x)(_to_host(v, tensor_type) for v in x)
    return x


def _write_back(dst: Any, src: Any) -> None:
    """Write a CPU result into a tensor on another device, through its backend's copy_.

    The backend stores a flat buffer and ``dst`` may be a strided view of part of it, so the
    whole storage is read, the view's region updated on the host, and the whole written back.
    """
    storage = dst._storage
    impl = storage.backend.impl
    whole = np.array(impl.read(storage.handle, dst.dtype, storage.numel, dst.device.index or 0),
                     copy=True)
    region = np.ndarray(dst._shape, dtype=dst.dtype.numpy, buffer=whole,
                        offset=dst._offset * dst.dtype.itemsize,
                        strides=tuple(s * dst.dtype.itemsize for s in dst._stride))
    region[...] = host_view(src)
    impl.copy_(storage.handle, whole)
    dst._np = None


def _back(x: Any, dev: Any, tensor_type: type) -> Any:
    if isinstance(x, tensor_type):
        return to_copy(x, None, str(dev))
    if isinstance(x, (tuple, list)):
        return type(x)(_back(v, dev, tensor_type) for v in x)
    return x


def factory(op: OperatorHandle, key: DispatchKey) -> Any:
    cpu = KEYS.get("CPU")
    if cpu not in op.kernels:
        return None

    def cpu_fallback(op: OperatorHandle, keyset: int, args: tuple, kwargs: dict) -> Any:
        DISPATCHER.note_cpu_fallback(op, key)
        dev = next(a.device for a in _flat(args) if isinstance(a, Tensor))
        host_args = tuple(_to_host(a, Tensor) for a in args)
        result = op.call_with_keyset(cpu.mask, *host_args)
        for i in op.mutated:
            if args[i] is not None:  # an optional Tensor(a!)? left out writes nothing
                _write_back(args[i], host_args[i])
        if op.mutated and result is host_args[op.mutated[0]]:
            return args[op.mutated[0]]
        return _back(result, dev, Tensor)

    return cpu_fallback


def _flat(args: tuple) -> list:
    out = []
    for a in args:
        if isinstance(a, (tuple, list)):
            out.extend(a)
        else:
            out.append(a)
    return out
