"""The tensor model: metadata (sizes, strides, offset, dtype, device, key set, version counter,
autograd fields) over a backend-owned storage.

Operations are not defined here: ``Tensor`` inherits every op method and operator from the class
generated out of ops.yaml (``volta/_generated/tensor_methods.py``). This file holds only what is
about the object itself: metadata, Python protocols, conversion to and from numpy. The methods
that need modules importing this one (indexing, factories, the autograd engine) are defined there
and installed on the class by ``volta/_wiring.py`` (docs/layout.md, "The seam").
"""

from __future__ import annotations

import gc
import math
import weakref
from collections.abc import Iterator
from typing import Any

import numpy as np

from volta import dtypes as D
from volta._generated.tensor_methods import TensorMethods
from volta.backend import BACKENDS, BackendInfo, host_view
from volta.device import device
from volta.dispatch.keys import Autograd
from volta.errors import (
    ArgumentError,
    AutogradError,
    BackendError,
    DTypeError,
    IndexOutOfRangeError,
    InvalidOperationError,
    VoltaError,
)
from volta.memory_format import preserve_format, strides_in_order
from volta.tensor.printing import tensor_repr


class Size(tuple):
    """Sizes of a tensor (a tuple, like ``torch.Size``)."""

    def numel(self) -> int:
        return math.prod(self)

    def __repr__(self) -> str:
        return f"volta.Size([{', '.join(str(s) for s in self)}])"

    def __getitem__(self, item: Any) -> Any:
        result = tuple.__getitem__(self, item)
        return Size(result) if isinstance(item, slice) else result


class Storage:
    """A run of elements owned by a backend (a contiguous numpy array on the CPU).

    It also holds the version counter that autograd checks: every tensor looking at this storage
    (views, ``detach()``) shares it, and every in-place write bumps it.
    """

    __slots__ = ("handle", "numel", "dtype", "device", "backend", "key_mask", "version",
                 "__weakref__")

    def __init__(self, handle: Any, numel: int, dt: D.dtype, dev: device, backend: BackendInfo):
        self.handle = handle
        self.numel = numel
        self.dtype = dt
        self.device = dev
        self.backend = backend
        self.key_mask = backend.key.mask
        self.version = 0

    def nbytes(self) -> int:
        return self.numel * self.dtype.itemsize

    def grow(self, numel: int, shared: bool = True) -> None:
        """Hold ``numel`` elements (more than now), keeping the current ones first and zeros
        after them: the backend moves the data to a larger buffer (``Backend.grow``), which
        every tensor on this storage then addresses (``Tensor.resize_``); one that numpy
        arrays share (``SHARED_WITH_NUMPY``) cannot move, as in PyTorch. ``shared``: other
        tensors than the caller's may be on this storage, so their cached host views go (Note
        [Host views of a grown storage]); the caller drops its own tensor's."""
        if self in SHARED_WITH_NUMPY:
            raise InvalidOperationError("Trying to resize storage that is not resizable")
        impl = self.backend.impl
        self.handle = impl.grow(self.handle, self.dtype, self.numel, numel,
                                self.device.index or 0)
        self.numel = numel
        if shared and impl.host_memory:
            _drop_host_views(self)


# Storages whose memory numpy arrays outside volta share (``Tensor.numpy()``, ``np.asarray(t)``,
# ``volta.from_numpy``): growing one would leave those arrays on the old memory, so, as PyTorch
# does, ``Storage.grow`` refuses to move them
SHARED_WITH_NUMPY: weakref.WeakSet[Storage] = weakref.WeakSet()


def _drop_host_views(storage: Storage) -> None:
    """Forget the numpy views that CPU tensors on ``storage`` cache (``Tensor._np``).

    Note [Host views of a grown storage]
    On a host-memory backend a tensor caches a numpy view of its storage's array, and kernels
    read that cache directly. After ``Storage.grow`` the array is no longer the storage, so
    every tensor on it must drop its view. A storage does not list its tensors (views are
    made on the hot path; tracking them would cost every one), so this rare call asks the
    garbage collector for the objects that refer to the storage: every tensor does, through
    its ``_storage`` slot. That scan costs milliseconds in a large program, so a caller that
    knows no other tensor is on the storage says so (``shared=False``) and skips it.
    """
    for holder in gc.get_referrers(storage):
        if isinstance(holder, Tensor):
            holder._np = None


_new_tensor = object.__new__


def new_owning_tensor(handle: Any, numel: int, dt: D.dtype, dev: device, backend: BackendInfo,
                      shape: tuple[int, ...], stride: tuple[int, ...], host: Any) -> Tensor:
    """A contiguous tensor over a fresh storage of ``handle`` (``host``: its host view, or
    None): ``Storage(...)`` and ``Tensor._make(...)`` in one frame, since every kernel result
    is built here (Note [Tensor construction cost])."""
    storage = _new_tensor(Storage)
    storage.handle = handle
    storage.numel = numel
    storage.dtype = dt
    storage.device = dev
    storage.backend = backend
    storage.key_mask = backend.key.mask
    storage.version = 0
    t = _new_tensor(Tensor)
    t._storage = storage
    t._shape = shape
    t._stride = stride
    t._offset = 0
    t.dtype = dt
    t._device = dev
    t._ks = storage.key_mask
    t._np = host
    return t


def contiguous_strides(shape: tuple[int, ...]) -> tuple[int, ...]:
    strides = []
    acc = 1
    for s in reversed(shape):
        strides.append(acc)
        acc *= max(s, 1)
    return tuple(reversed(strides))


# shape -> contiguous strides for the hot paths that build result tensors (factories, CPU
# kernel results): they read this dict inline and call cached_contiguous_strides on a miss
# (bounded: a program's shapes are few)
CONTIGUOUS_STRIDES: dict[tuple[int, ...], tuple[int, ...]] = {}


def cached_contiguous_strides(shape: tuple[int, ...]) -> tuple[int, ...]:
    strides = contiguous_strides(shape)
    if len(CONTIGUOUS_STRIDES) < 4096:
        CONTIGUOUS_STRIDES[shape] = strides
    return strides


class Tensor(TensorMethods):
    """A strided view over a storage, with autograd metadata."""

    # Note [Tensor construction cost]
    # Every op result is a new Tensor, so construction is on the hot path: the fields every
    # tensor sets are slots; the autograd fields most tensors never touch are class-level
    # defaults, written to the instance only when they change.
    __slots__ = ("_storage", "_shape", "_stride", "_offset", "dtype", "_device", "_ks", "_np",
                 "__weakref__", "__dict__")
    _requires_grad = False
    _grad = None
    grad_fn = None
    _output_nr = 0
    _base = None
    _retains_grad = False
    _hooks = None
    _accumulator = None
    _view_version = 0  # for views: the storage version their autograd history belongs to

    __array_priority__ = 1000  # numpy scalars on the left defer to our operators

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        raise ArgumentError("create tensors with volta.tensor(...), volta.zeros(...) and friends")

    # -- construction (internal) ---------------------------------------------------------------

    @classmethod
    def _make(cls, storage: Storage, shape: tuple[int, ...], stride: tuple[int, ...],
              offset: int, base: Tensor | None = None) -> Tensor:
        t = object.__new__(cls)
        t._storage = storage
        t._shape = shape
        t._stride = stride
        t._offset = offset
        t.dtype = storage.dtype
        t._device = storage.device
        t._ks = storage.key_mask
        t._np = None
        if base is not None:
            t._base = base
        return t

    @classmethod
    def _make_subclass(cls, subclass: type, data: Tensor, requires_grad: bool = False) -> Tensor:
        """PyTorch's ``Tensor._make_subclass``: an instance of ``subclass`` (e.g. ``nn.Parameter``)
        sharing ``data``'s storage, as a fresh leaf."""
        t = Tensor._make.__func__(subclass, data._storage, data._shape, data._stride, data._offset)
        if requires_grad:
            t.requires_grad_(True)
        return t

    def _view_of(self, shape: tuple[int, ...], stride: tuple[int, ...], offset: int) -> Tensor:
        """A tensor sharing this one's storage and version counter (no autograd metadata)."""
        # Tensor._make's body, inlined: every view op ends here (Note [Tensor construction cost])
        storage = self._storage
        view = _new_tensor(Tensor)
        view._storage = storage
        view._shape = tuple(shape)
        view._stride = tuple(stride)
        view._offset = offset
        view.dtype = storage.dtype
        view._device = storage.device
        view._ks = storage.key_mask
        view._np = None
        base = self._base
        view._base = self if base is None else base
        version = storage.version
        if version:
            view._view_version = version
        return view

    # -- metadata --------------------------------------------------------------------------------

    @property
    def shape(self) -> Size:
        return Size(self._shape)

    def size(self, dim: int | None = None) -> Any:
        if dim is None:
            return Size(self._shape)
        return self._shape[_wrap_dim(dim, len(self._shape), "size")]

    def stride(self, dim: int | None = None) -> Any:
        if dim is None:
            return self._stride
        return self._stride[_wrap_dim(dim, len(self._shape), "stride")]

    def storage_offset(self) -> int:
        return self._offset

    def untyped_storage(self) -> Storage:
        return self._storage

    @property
    def ndim(self) -> int:
        return len(self._shape)

    def dim(self) -> int:
        return len(self._shape)

    ndimension = dim

    def numel(self) -> int:
        return math.prod(self._shape)

    nelement = numel

    def element_size(self) -> int:
        return self.dtype.itemsize

    @property
    def itemsize(self) -> int:
        return self.dtype.itemsize

    @property
    def nbytes(self) -> int:
        return self.numel() * self.dtype.itemsize

    @property
    def device(self) -> device:
        return self._device

    @property
    def is_cpu(self) -> bool:
        """On the host backend (numpy-addressable memory)."""
        return self._storage.backend is BACKENDS.host()

    @property
    def is_meta(self) -> bool:
        return self._device.type == "meta"

    def get_device(self) -> int:
        return -1 if self.is_cpu else (self._device.index or 0)

    def is_floating_point(self) -> bool:
        return self.dtype.is_floating_point

    def is_complex(self) -> bool:
        return False

    def is_contiguous(self, memory_format: Any = None) -> bool:
        if 0 in self._shape:
            return True  # an empty tensor has no layout to speak of (PyTorch agrees)
        if memory_format is not None and memory_format.order is not None:
            if len(self._shape) != len(memory_format.order):
                return False
            expected_strides = strides_in_order(self._shape, memory_format.order)
            return all(size == 1 or stride == want for size, stride, want
                       in zip(self._shape, self._stride, expected_strides))
        expected = 1
        for size, stride in zip(reversed(self._shape), reversed(self._stride)):
            if size != 1 and stride != expected:
                return False
            expected *= size
        return True

    @property
    def _version(self) -> int:
        return self._storage.version

    def data_ptr(self) -> int:
        """Address of the first element: real memory on the CPU, an opaque id elsewhere."""
        storage = self._storage
        start = storage.handle.ctypes.data if storage.backend.host_memory else id(storage.handle)
        return start + self._offset * self.dtype.itemsize

    def is_set_to(self, other: Tensor) -> bool:
        return (self._storage is other._storage and self._offset == other._offset
                and self._shape == other._shape and self._stride == other._stride)

    # -- autograd metadata -----------------------------------------------------------------------

    @property
    def requires_grad(self) -> bool:
        return self._requires_grad

    @requires_grad.setter
    def requires_grad(self, value: bool) -> None:
        if value and not self.dtype.is_floating_point:
            raise DTypeError(f"only tensors of floating point dtype can require gradients, "
                             f"got {self.dtype}")
        if not value and self.grad_fn is not None:
            raise AutogradError("you can only change requires_grad flags of leaf variables; "
                                "use .detach() to get a tensor that does not require grad")
        self._set_requires_grad(bool(value))

    def _set_requires_grad(self, value: bool) -> None:
        self._requires_grad = value
        if value:
            self._ks |= Autograd.mask
        else:
            self._ks &= ~Autograd.mask

    def requires_grad_(self, requires_grad: bool = True) -> Tensor:
        self.requires_grad = requires_grad
        return self

    @property
    def is_leaf(self) -> bool:
        return self.grad_fn is None

    @property
    def grad(self) -> Tensor | None:
        return self._grad

    @grad.setter
    def grad(self, value: Tensor | None) -> None:
        if value is not None:
            if not isinstance(value, Tensor):
                raise ArgumentError(f"assigned grad must be a Tensor or None, got {type(value)}")
            if value._shape != self._shape:
                raise VoltaError(f"assigned grad has shape {list(value._shape)} but the tensor "
                                 f"has shape {list(self._shape)}")
            if value._device != self._device:
                raise VoltaError(f"assigned grad is on {value.device}, the tensor on {self.device}")
        self._grad = value

    @property
    def output_nr(self) -> int:
        return self._output_nr

    @property
    def retains_grad(self) -> bool:
        return self._retains_grad

    # backward, register_hook and retain_grad enter the autograd engine, a layer above this
    # one: volta/autograd/tensor_methods.py defines them and volta/_wiring.py installs them
    # (docs/layout.md, "The seam").

    @property
    def data(self) -> Tensor:
        return self.detach()

    @data.setter
    def data(self, value: Tensor) -> None:
        # replaces what this tensor looks at, keeping its autograd identity (used by optimisers
        # and by Module.to in PyTorch code)
        if not isinstance(value, Tensor):
            raise ArgumentError("data must be a Tensor")
        self._storage = value._storage
        self._shape = value._shape
        self._stride = value._stride
        self._offset = value._offset
        self.dtype = value.dtype
        self._device = value._device
        self._ks = value._storage.backend.key.mask | (self._ks & Autograd.mask)
        self._np = value._np


    # -- conversion ------------------------------------------------------------------------------

    def numpy(self, *, force: bool = False) -> np.ndarray:
        if self._requires_grad and not force:
            raise AutogradError("can't call numpy() on a Tensor that requires grad; use "
                                "tensor.detach().numpy() instead")
        if not self.is_cpu and not force:
            raise BackendError(f"can't convert a {self.device} tensor to numpy; copy it to "
                               "the host first with tensor.cpu()")
        return _shared_host_array(self)

    def __array__(self, dtype: Any = None, copy: Any = None) -> np.ndarray:
        arr = _shared_host_array(self)
        return arr if dtype is None else arr.astype(dtype, copy=False)

    def tolist(self) -> Any:
        return host_array(self).tolist()

    def item(self) -> Any:
        if self.numel() != 1:
            raise InvalidOperationError(
                f"a Tensor with {self.numel()} elements cannot be "
                "converted to a Python scalar")
        return host_array(self).reshape(()).item()

    def __float__(self) -> float:
        return float(self.item())

    def __int__(self) -> int:
        return int(self.item())

    def __index__(self) -> int:
        if self.dtype.is_floating_point or self.numel() != 1:
            raise ArgumentError(
                "only integer tensors of a single element can be converted to an index")
        return int(self.item())

    def __bool__(self) -> bool:
        if self.numel() != 1:
            raise InvalidOperationError(
                f"Boolean value of Tensor with {self.numel()} elements "
                "is ambiguous")
        return bool(self.item())

    def __len__(self) -> int:
        if not self._shape:
            raise ArgumentError("len() of a 0-d tensor")
        return self._shape[0]

    def __iter__(self) -> Iterator[Tensor]:
        if not self._shape:
            raise ArgumentError("iteration over a 0-d tensor")
        return iter(self.unbind(0))

    def __hash__(self) -> int:
        return id(self)

    def __dlpack__(self, stream: Any = None, **kwargs: Any) -> Any:
        if not self.is_cpu:
            raise BackendError("__dlpack__ is only available for cpu tensors")
        return _shared_host_array(self).__dlpack__(**({} if stream is None else {"stream": stream}))

    def __dlpack_device__(self) -> tuple[int, int]:
        return (1, 0)

    # __reduce_ex__ and __deepcopy__ build tensors: volta/tensor/factories.py defines them
    # (TENSOR_METHODS) and volta/_wiring.py installs them, as below.

    def __repr__(self) -> str:
        return tensor_repr(self)

    def __format__(self, spec: str) -> str:
        if self.ndim == 0 and spec:
            return format(self.item(), spec)
        return repr(self)

    # __getitem__ and __setitem__: volta/tensor/indexing.py (TENSOR_METHODS), installed by
    # volta/_wiring.py.

    # -- device and dtype moves ------------------------------------------------------------------

    def to(self, *args: Any, **kwargs: Any) -> Tensor:
        fmt = kwargs.pop("memory_format", preserve_format)
        dev, dt, _non_blocking, copy = _parse_to(args, kwargs, self)
        # a memory format other than preserve_format asks for that layout (as PyTorch's to)
        layout_ok = fmt is preserve_format or self.is_contiguous(memory_format=fmt)
        if ((dev is None or dev == self._device) and (dt is None or dt is self.dtype)
                and not copy and layout_ok):
            return self
        result = self._to_copy(dtype=dt, device=None if dev is None else str(dev))
        return result if fmt is preserve_format else result.contiguous(memory_format=fmt)

    def cpu(self) -> Tensor:
        return self.to(BACKENDS.host_device())

    def type(self, dt: Any = None) -> Any:
        if dt is None:
            return f"volta.{self.dtype.name}"
        return self.to(D.as_dtype(dt))

    def float(self, memory_format: Any = preserve_format) -> Tensor:
        return self.to(D.float32, memory_format=memory_format)

    def double(self, memory_format: Any = preserve_format) -> Tensor:
        return self.to(D.float64, memory_format=memory_format)

    def half(self, memory_format: Any = preserve_format) -> Tensor:
        return self.to(D.float16, memory_format=memory_format)

    def bfloat16(self, memory_format: Any = preserve_format) -> Tensor:
        return self.to(D.bfloat16, memory_format=memory_format)

    def long(self, memory_format: Any = preserve_format) -> Tensor:
        return self.to(D.int64, memory_format=memory_format)

    def int(self, memory_format: Any = preserve_format) -> Tensor:
        return self.to(D.int32, memory_format=memory_format)

    def short(self, memory_format: Any = preserve_format) -> Tensor:
        return self.to(D.int16, memory_format=memory_format)

    def bool(self, memory_format: Any = preserve_format) -> Tensor:
        return self.to(D.bool_, memory_format=memory_format)

    def byte(self, memory_format: Any = preserve_format) -> Tensor:
        return self.to(D.uint8, memory_format=memory_format)

    def char(self, memory_format: Any = preserve_format) -> Tensor:
        return self.to(D.int8, memory_format=memory_format)

    def type_as(self, other: Tensor) -> Tensor:
        return self.to(other.dtype)

    # new_tensor, new_zeros, new_ones, new_full, new_empty: volta/tensor/factories.py
    # (TENSOR_METHODS), installed by volta/_wiring.py.

    @property
    def T(self) -> Tensor:  # noqa: N802 - PyTorch's public name
        return self.permute(tuple(range(self.ndim - 1, -1, -1)))

    @property
    def mT(self) -> Tensor:  # noqa: N802 - PyTorch's public name
        return self.transpose(-2, -1)

    @property
    def H(self) -> Tensor:  # noqa: N802 - PyTorch's public name
        return self.T

    @property
    def mH(self) -> Tensor:  # noqa: N802 - PyTorch's public name
        # the conjugate transpose of the last two dims: a transpose for real tensors
        return self.transpose(-2, -1)


def _rebuild(array: np.ndarray, dev: str, requires_grad: bool, make: Any) -> Tensor:
    return make(array, device=dev, requires_grad=requires_grad)


def _wrap_dim(dim: int, ndim: int, what: str) -> int:
    n = max(ndim, 1)
    if not -n <= dim < n:
        raise IndexOutOfRangeError(
            f"{what}: dimension out of range (expected to be in range of "
            f"[{-n}, {n - 1}], but got {dim})")
    return dim + n if dim < 0 else dim


def _parse_to(args: tuple, kwargs: dict, t: Tensor) -> tuple[Any, Any, bool, bool]:
    dev = kwargs.pop("device", None)
    dt = kwargs.pop("dtype", None)
    non_blocking = kwargs.pop("non_blocking", False)
    copy = kwargs.pop("copy", False)
    if kwargs:
        raise ArgumentError(f"to() got unexpected keyword arguments {sorted(kwargs)}")
    for a in args:
        if isinstance(a, Tensor):
            dev, dt = a.device, a.dtype
        elif _is_dtype_like(a):
            dt = a
        elif isinstance(a, (str, device)):
            dev = a  # an unknown name fails below with the list of registered devices
        elif isinstance(a, bool):
            non_blocking = a
        else:
            raise ArgumentError(f"to() got an unexpected argument {a!r}")
    dev = None if dev is None else device(dev)
    if dev is not None:
        BACKENDS.get(dev)  # unknown device -> clear error before anything happens
    dt = None if dt is None else D.as_dtype(dt)
    return dev, dt, non_blocking, copy


def _is_dtype_like(a: Any) -> bool:
    """A dtype, ``float``/``int``/``bool``, or a dtype name that is not also a device name."""
    if isinstance(a, D.dtype) or a in (float, int, bool):
        return True
    if not isinstance(a, str) or _is_device(a):
        return False
    try:
        D.as_dtype(a)
    except DTypeError:
        return False
    return True


def _is_device(text: str) -> bool:
    return text.partition(":")[0] in BACKENDS.names()


# the host read (synchronize, to_numpy, strided view) belongs to the backend contract
host_array = host_view


def _shared_host_array(t: Tensor) -> np.ndarray:
    """``t``'s host array for a caller outside volta, who may keep it: a CPU storage seen so
    can no longer grow (``SHARED_WITH_NUMPY``)."""
    storage = t._storage
    if storage not in SHARED_WITH_NUMPY and storage.backend.host_memory:
        SHARED_WITH_NUMPY.add(storage)  # (the membership test is the cheaper repeat call)
    return host_view(t)

