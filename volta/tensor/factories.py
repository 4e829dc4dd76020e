"""Tensor factories and random number generation.

Factories build data on the host with numpy and hand it to the target device's backend (zero
copy on the CPU). Random numbers come from a seedable :class:`Generator`: the host draws them
(PCG64) unless the device draws its own from the generator's counter-based stream
(``Backend.random``, e.g. WGPU's Philox), so a seed fixes the numbers of each device.
"""

from __future__ import annotations

import contextlib
import math
import os
import threading
from collections.abc import Sequence
from typing import Any

import numpy as np

from volta import dtypes as D
from volta.backend import BACKENDS, Backend
from volta.device import device
from volta.dispatch.binding import int_arg, list_int, python_arguments
from volta.errors import (
    ArgumentError,
    BackendError,
    DTypeError,
    NumericOverflowError,
    ShapeError,
    VoltaError,
)
from volta.memory_format import dense_order, format_strides, preserve_format, strides_in_order
from volta.tensor.checks import check_random_bounds_fit
from volta.tensor.scalars import checked_convert
from volta.tensor.tensor import (
    CONTIGUOUS_STRIDES,
    SHARED_WITH_NUMPY,
    Storage,
    Tensor,
    _rebuild,
    cached_contiguous_strides,
    contiguous_strides,
    host_array,
    new_owning_tensor,
)


class Generator:
    """A random number generator (PCG64 under the hood), like ``torch.Generator``."""

    def __init__(self, device: Any = None) -> None:
        self.device = "host" if device is None else str(device)
        self._seed = 67280421310721
        self.numpy_rng = np.random.default_rng(self._seed)
        # blocks of the counter-based stream that devices drawing their own numbers have used
        self._offset = 0
        self._lock = threading.Lock()

    def manual_seed(self, seed: int) -> Generator:
        self._seed = int(seed)
        self.numpy_rng = np.random.default_rng(self._seed)
        self._offset = 0
        return self

    def philox_key_and_offset(self, numel: int) -> tuple[int, int]:
        """(key, offset) for a device drawing ``numel`` numbers from a counter-based stream
        (``Backend.random``); reserves the ``ceil(numel / 4)`` blocks it uses."""
        with self._lock:
            offset = self._offset
            self._offset += -(-numel // 4)
        return self._seed % 2**64, offset

    def seed(self) -> int:
        seed = int(np.random.SeedSequence().entropy) % (2**63)
        self.manual_seed(seed)
        return seed

    def initial_seed(self) -> int:
        return self._seed

    def get_state(self) -> Tensor:
        state = repr((self.numpy_rng.bit_generator.state, self._seed, self._offset)).encode()
        return tensor(np.frombuffer(state, dtype=np.uint8).copy())

    def set_state(self, state: Tensor) -> None:
        import ast
        text = bytes(host_array(state).astype(np.uint8).tolist()).decode()
        self.numpy_rng.bit_generator.state, self._seed, self._offset = ast.literal_eval(text)


_default_generator = Generator()


def default_generator() -> Generator:
    return _default_generator


def manual_seed(seed: int) -> Generator:
    """Seed volta's default generator (every device draws from it)."""
    return _default_generator.manual_seed(seed)


def seed() -> int:
    return _default_generator.seed()


def initial_seed() -> int:
    return _default_generator.initial_seed()


def _from_host(array: np.ndarray, dev: Any = None, requires_grad: bool = False) -> Tensor:
    """A tensor on ``dev`` holding ``array``'s values (no copy on the CPU when contiguous)."""
    if dev is None:
        dev = BACKENDS.host_device()
    elif dev.__class__ is not device:
        dev = device(dev)
    info = BACKENDS.get(dev)
    dt = D.BY_NUMPY.get(array.dtype)
    if dt is None:
        dt = D.from_numpy_dtype(array.dtype)  # its error names the dtypes volta has
    if dt not in info.dtypes:
        raise DTypeError(f"device {dev} does not support dtype {dt.name}; supported: "
                         f"{', '.join(sorted(d.name for d in info.dtypes))}")
    if not array.flags.c_contiguous:
        array = array.copy(order="C")
    handle = info.impl.from_numpy(array, dev.index or 0)
    shape = array.shape
    strides = CONTIGUOUS_STRIDES.get(shape)
    if strides is None:
        strides = cached_contiguous_strides(shape)
    # every factory ends here: Storage and Tensor built in one frame
    t = new_owning_tensor(handle, array.size, dt, dev, info, shape, strides,
                          array if info.host_memory and handle is array else None)
    if requires_grad:
        t.requires_grad_(True)
    return t


def _size(size: tuple) -> tuple[int, ...]:
    if len(size) == 1 and isinstance(size[0], (list, tuple)):
        size = tuple(size[0])
    elif len(size) == 1 and isinstance(size[0], Tensor):
        size = tuple(size[0].tolist())
    shape = tuple([list_int(s, "size", i) for i, s in enumerate(size)])
    if any(s < 0 for s in shape):
        raise ShapeError(f"Trying to create tensor with negative dimension: {list(shape)}")
    return shape


_INT64_MAX = 2**63 - 1
_PHYSICAL_MEMORY = os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES")


def _allocatable(shape: tuple[int, ...], dt: D.dtype) -> tuple[int, ...]:
    """``shape`` if a tensor of it fits in memory; PyTorch's errors otherwise, raised before
    numpy tries (and fails with MemoryError or overcommits memory that is not there)."""
    numel = math.prod(shape)
    nbytes = numel * dt.itemsize
    if nbytes > _INT64_MAX:
        raise ShapeError(f"Storage size calculation overflowed with sizes={list(shape)}")
    if nbytes > _PHYSICAL_MEMORY:
        raise BackendError(f"DefaultCPUAllocator: can't allocate memory: you tried to allocate "
                           f"{nbytes} bytes.")
    return shape


def _dtype(dtype: Any, default: D.dtype | None = None) -> D.dtype:
    if dtype is None:
        return default or D.get_default_dtype()
    return D.dtype_argument(dtype)


def _as_float(value: Any) -> float:
    """A Python number read as PyTorch reads a Scalar: ints in int64 or uint64 range."""
    if isinstance(value, int) and not -(2**63) <= value < 2**64:
        raise NumericOverflowError("int too big to convert")
    try:
        return float(value)
    except OverflowError:
        raise NumericOverflowError(f"value cannot be converted to type double without overflow: "
                                   f"{value}") from None


def _has_float(data: Any) -> bool:
    if isinstance(data, (list, tuple)):
        return any(_has_float(item) for item in data)
    return isinstance(data, float)


def _check_python_ints(data: Any) -> None:
    """PyTorch reads every Python int of integer nested data as an int64."""
    if _has_float(data):
        return
    if isinstance(data, (list, tuple)):
        for item in data:
            _check_python_ints(item)
    elif isinstance(data, int) and not isinstance(data, bool):
        _checked_int(data, D.int64)


def _check_numbers_fit(data: Any, dt: D.dtype) -> None:
    """PyTorch's check of every Python number of nested data converted to integer dtype
    ``dt``: in its range before truncation (127.9 overflows int8; NaN and inf overflow every
    integer dtype); an unsigned dtype also takes negatives down to -max (wrapping)."""
    if isinstance(data, (list, tuple)):
        for item in data:
            _check_numbers_fit(item, dt)
        return
    if isinstance(data, (int, float)) and not isinstance(data, bool):
        info = np.iinfo(dt.numpy)
        low = -info.max if info.min == 0 else info.min
        if not low <= data <= info.max:  # NaN fails too
            raise NumericOverflowError(f"value cannot be converted to type {dt.name} without "
                                       "overflow")


def _checked_int(value: Any, dt: D.dtype) -> None:
    """PyTorch's check that a Python number fits the integer dtype it is converted to."""
    info = np.iinfo(dt.numpy)
    if not info.min <= value <= info.max:
        raise NumericOverflowError(f"value cannot be converted to type {dt.name}_t without "
                                   "overflow")


def _inferred_dtype(data: Any) -> D.dtype | None:
    """PyTorch's dtype inference over nested data: numpy scalars/arrays and tensors keep their
    dtype, Python numbers take bool/int64/the default float, and all of them promote together
    (numpy alone cannot tell ``1.5`` from ``np.float64(1.5)``). None for empty sequences."""
    if isinstance(data, Tensor):
        return data.dtype
    if isinstance(data, (np.ndarray, np.generic)):
        return D.from_numpy_dtype(data.dtype)
    if isinstance(data, (list, tuple)):
        found = None
        for item in data:
            d = _inferred_dtype(item)
            if d is not None:
                found = d if found is None else D.promote_types(found, d)
        return found
    if isinstance(data, (bool, int, float)):
        return D.scalar_dtype(data)
    return None


def _infer(data: Any) -> np.ndarray:
    if isinstance(data, Tensor):
        return host_array(data)
    if isinstance(data, (np.ndarray, np.generic)):
        # before the float/int checks: np.float64 is a float subclass but keeps its dtype
        return np.asarray(data)
    if isinstance(data, (list, tuple)):
        if any(isinstance(x, Tensor) for x in data):
            data = [_infer(x) for x in data]
        try:
            arr = np.array(data)
        except ValueError as exc:  # numpy 2 refuses ragged nesting outright
            raise ShapeError(f"could not build a tensor from ragged nested sequences: {exc}"
                             ) from None
        inferred = _inferred_dtype(data)
        if arr.dtype == object and inferred is not None and inferred.is_floating_point:
            # an int beyond int64 among floats: PyTorch converts every element to float
            with contextlib.suppress(TypeError, ValueError, OverflowError):
                arr = np.array(data, dtype=np.float64)
        if arr.dtype == object or arr.dtype.kind in "USMm":  # objects, strings, dates
            raise VoltaError(f"could not build a tensor from a sequence of {arr.dtype} elements")
        dt = inferred or D.get_default_dtype()
        return arr if arr.dtype == dt.numpy else arr.astype(dt.numpy)
    if isinstance(data, (bool, np.bool_)):
        return np.asarray(data, dtype=np.bool_)
    if isinstance(data, (int, np.integer)):
        return np.asarray(data, dtype=np.int64)
    if isinstance(data, (float, np.floating)):
        return np.asarray(data, dtype=D.get_default_dtype().numpy)
    if hasattr(data, "__array__") or hasattr(data, "__dlpack__"):
        return np.asarray(data)
    raise VoltaError(f"could not infer dtype of {type(data).__name__}")


def tensor(data: Any, dtype: Any = None, device: Any = None, requires_grad: bool = False,
           pin_memory: bool = False) -> Tensor:
    """A new tensor holding a copy of ``data`` (nested lists, numbers, arrays, tensors)."""
    if not isinstance(data, (Tensor, np.ndarray)):
        target = None if dtype is None else D.dtype_argument(dtype)
        if target is None:
            _check_python_ints(data)
        elif not target.is_floating_point and target is not D.bool_:
            _check_numbers_fit(data, target)
    if dtype is not None and not isinstance(data, (Tensor, np.ndarray)):
        # convert Python numbers straight to the requested dtype (no detour via float32)
        target = D.dtype_argument(dtype)
        try:
            arr = np.array(data, dtype=target.numpy)
        except (TypeError, ValueError, OverflowError):
            try:  # e.g. ints beyond int64 into a floating dtype: through float64
                arr = np.array(data, dtype=np.float64).astype(target.numpy) \
                    if target.is_floating_point else None
            except (TypeError, ValueError, OverflowError):
                arr = None
            if arr is None:
                arr = np.array(_infer(data), copy=True).astype(target.numpy)
        return _from_host(arr, device, requires_grad)
    arr = np.array(_infer(data), copy=True)
    if dtype is not None:
        arr = arr.astype(D.dtype_argument(dtype).numpy)
    elif arr.dtype not in [d.numpy for d in D.ALL_DTYPES]:
        raise DTypeError(f"unsupported data type {arr.dtype}")
    return _from_host(arr, device, requires_grad)


def as_tensor(data: Any, dtype: Any = None, device: Any = None) -> Tensor:
    if isinstance(data, Tensor):
        return data.to(device=device or data.device, dtype=dtype or data.dtype)
    on_host = device is None or BACKENDS.get(device) is BACKENDS.host()
    if isinstance(data, np.ndarray) and on_host and (
            dtype is None or D.dtype_argument(dtype).numpy == data.dtype):
        return from_numpy(data)
    return tensor(data, dtype=dtype, device=device)


def from_numpy(array: np.ndarray) -> Tensor:
    """A CPU tensor sharing ``array``'s memory (any non-negative strides)."""
    if not isinstance(array, np.ndarray):
        raise ArgumentError(f"expected np.ndarray (got {type(array).__name__})")
    dt = D.from_numpy_dtype(array.dtype)
    itemsize = array.itemsize
    if any(s < 0 or s % itemsize for s in array.strides):
        raise VoltaError("from_numpy: arrays with negative or unaligned strides are not "
                         "supported; pass array.copy()")
    if array.flags.c_contiguous:
        t = _from_host(array)
        SHARED_WITH_NUMPY.add(t._storage)  # resize_ cannot move memory numpy owns
        return t
    span = 1 + sum((n - 1) * (s // itemsize) for n, s in zip(array.shape, array.strides)) \
        if array.size else 0
    flat = np.lib.stride_tricks.as_strided(array, shape=(span,), strides=(itemsize,))
    info = BACKENDS.host()
    storage = Storage(flat, span, dt, BACKENDS.host_device(), info)
    t = Tensor._make(storage, tuple(array.shape), tuple(s // itemsize for s in array.strides), 0)
    t._np = array
    SHARED_WITH_NUMPY.add(storage)
    return t


def from_dlpack(obj: Any) -> Tensor:
    return from_numpy(np.from_dlpack(obj))


def scalar_tensor(value: Any, dtype: Any = None, device: Any = None,
                  requires_grad: bool = False) -> Tensor:
    """A 0-d tensor; like PyTorch, the default dtype unless ``dtype`` is given."""
    dt = _dtype(dtype)
    return _from_host(np.asarray(value, dtype=dt.numpy), device, requires_grad)


def _filled(shape: tuple[int, ...], value: Any, dt: D.dtype, dev: Any,
            requires_grad: bool) -> Tensor:
    if isinstance(value, int) and not isinstance(value, bool):
        # a Python int is a Scalar first, then it must fit an integer dtype
        if dt.is_floating_point or dt is D.bool_:
            _as_float(value)
        else:
            _checked_int(value, dt)
    elif isinstance(value, float) and not (dt.is_floating_point or dt is D.bool_):
        checked_convert(value, dt, "full")  # nan, inf or out of range: PyTorch's overflow error
    # np.zeros, or np.empty and fill: both in C (np.full and np.ones are Python functions)
    if value == 0 and value.__class__ is not float:
        array = np.zeros(_allocatable(shape, dt), dtype=dt.numpy)
    else:
        array = np.empty(_allocatable(shape, dt), dtype=dt.numpy)
        array.fill(value)
    return _from_host(array, dev, requires_grad)


def zeros(*size: Any, dtype: Any = None, device: Any = None, requires_grad: bool = False,
          out: Any = None) -> Tensor:
    return _filled(_size(size), 0, _dtype(dtype), device, requires_grad)


def ones(*size: Any, dtype: Any = None, device: Any = None, requires_grad: bool = False,
         out: Any = None) -> Tensor:
    return _filled(_size(size), 1, _dtype(dtype), device, requires_grad)


def empty(*size: Any, dtype: Any = None, device: Any = None, requires_grad: bool = False,
          memory_format: Any = None) -> Tensor:
    return _filled(_size(size), 0, _dtype(dtype), device, requires_grad)


def full(size: Any, fill_value: Any, dtype: Any = None, device: Any = None,
         requires_grad: bool = False) -> Tensor:
    if isinstance(fill_value, Tensor):
        fill_value = fill_value.item()
    dt = _dtype(dtype, D.scalar_dtype(fill_value))
    return _filled(_size((size,) if isinstance(size, int) else tuple(size)), fill_value, dt,
                   device, requires_grad)


def _range_bound(value: Any, name: str, op: str) -> Any:
    """A start/end/step of a range: a Python number or a one-element tensor's value."""
    if isinstance(value, Tensor):
        if value.numel() != 1:
            raise ShapeError(f"{op} only supports 0-dimensional {name} tensors, but got {name} "
                             f"with {value.ndim} dimension(s)")
        return value.item()
    if not isinstance(value, (int, float, np.number, np.bool_)):  # a bool is a Number too
        raise ArgumentError(f"{op}(): argument '{name}' must be Number, not "
                            f"{type(value).__name__}")
    return value.item() if isinstance(value, (np.number, np.bool_)) else value


def _check_range(start: Any, end: Any, step: Any) -> None:
    """PyTorch's checks of a range, in its order: a NaN step is not "nonzero", an infinite
    step is allowed."""
    if not (step > 0 or step < 0):
        raise VoltaError("arange: step must be nonzero")
    if not (math.isfinite(start) and math.isfinite(end)):
        raise VoltaError(f"arange: unsupported range: {start} -> {end}")
    if not ((step > 0 and end >= start) or (step < 0 and end <= start)):
        raise VoltaError(f"arange: upper bound and lower bound inconsistent with step sign "
                         f"(start={start}, end={end}, step={step})")


def _range_size(start: Any, end: Any, step: Any) -> int:
    """ceil((end - start) / step), which must be a valid int64 size; a tiny step overflows
    the quotient to inf (exact integer arithmetic when every bound is an int)."""
    exact = all(isinstance(v, int) for v in (start, end, step))
    size = -((start - end) // step) if exact else (end - start) / step
    if not 0 <= size <= _INT64_MAX:  # NaN fails too
        raise ShapeError("arange: invalid size, possible overflow?")
    return math.ceil(size)


@python_arguments
def arange(start: Any, end: Any = None, step: Any = 1, dtype: Any = None, device: Any = None,
           requires_grad: bool = False) -> Tensor:
    if end is None:
        start, end = 0, start
    values = [_range_bound(v, n, "arange") for v, n in zip((start, end, step),
                                                            ("start", "end", "step"))]
    size_from = values
    if dtype is not None and not _dtype(dtype).is_floating_point:
        # an integer range runs in its dtype, as PyTorch's does: the bounds are truncated
        # first (arange(0, 5, 1.5, dtype=int64) steps by 1; a step of 0.5 is a zero step);
        # PyTorch checks the range and counts its elements from the truncated bounds for int64
        # only (arange(0, 5, 0.5, dtype=int32) is ten zeros)
        given = values
        values = [math.trunc(v) if math.isfinite(v) else v for v in values]
        size_from = values if _dtype(dtype) is D.int64 else given
    _check_range(*size_from)
    start, end, step = values
    is_float = any(isinstance(v, float) for v in values)
    for v in values:  # Python ints are int64 in an integer range, Scalars in a float one
        if isinstance(v, int):
            _as_float(v) if is_float else _checked_int(v, D.int64)
    dt = _dtype(dtype, D.get_default_dtype() if is_float else D.int64)
    if dt is D.bool_:
        raise DTypeError('"arange_cpu" not implemented for \'Bool\'')
    n = _range_size(*size_from)
    _allocatable((n,), dt)
    arr = (start + np.arange(n, dtype=np.float64 if is_float else np.int64) * step)
    return _from_host(arr.astype(dt.numpy), device, requires_grad)


@python_arguments
def linspace(start: float, end: float, steps: int, dtype: Any = None, device: Any = None,
             requires_grad: bool = False) -> Tensor:
    start, end = _range_bound(start, "start", "linspace"), _range_bound(end, "end", "linspace")
    steps = int_arg(steps, "steps", "linspace")
    if steps < 0:
        raise VoltaError("linspace: number of steps must be non-negative")
    dt = _dtype(dtype)
    if dt is D.bool_ and steps > 1:  # fewer steps are filled without PyTorch's kernel
        raise DTypeError('"linspace_cpu" not implemented for \'Bool\'')
    _allocatable((steps,), dt)
    if steps > 1 and not dt.is_floating_point and dt is not D.bool_:
        start, end = _integer_bound(start, dt), _integer_bound(end, dt)
    start, end = _as_float(start), _as_float(end)
    if steps == 1:
        return _filled((1,), _single_step(start, dt, "linspace"), dt, device, requires_grad)
    return _from_host(_two_sided_points(start, end, steps).astype(dt.numpy), device,
                      requires_grad)


def _integer_bound(value: Any, dt: D.dtype) -> int:
    """A range bound of an integer dtype: PyTorch converts it to the dtype first (it must fit;
    an unsigned dtype wraps a negative), so the points step between integers."""
    return checked_convert(math.trunc(value) if math.isfinite(value) else value, dt, "linspace")


def _two_sided_points(start: float, end: float, steps: int) -> np.ndarray:
    """PyTorch's linspace points: the first half stepped up from ``start``, the second half
    stepped down from ``end`` (so an infinite or NaN bound spreads NaN as in PyTorch)."""
    index = np.arange(steps, dtype=np.float64)
    with np.errstate(all="ignore"):
        step = (end - start) / (steps - 1) if steps > 1 else 0.0
        return np.where(index < steps // 2, start + step * index,
                        end - step * (steps - 1 - index))


def _single_step(value: float, dt: D.dtype, op: str) -> Any:
    """The one point of a one-step range, filled as a Scalar: it must fit a float32/64 or
    integer dtype (a half dtype takes inf silently, as PyTorch's fill does)."""
    if dt in (D.float16, D.bfloat16) or dt is D.bool_:
        return value
    if not dt.is_floating_point and math.isfinite(value) and value == int(value):
        value = int(value)  # an unsigned dtype wraps a whole negative (-1 is 255)
    return checked_convert(value, dt, op)


@python_arguments
def logspace(start: float, end: float, steps: int, base: float = 10.0, dtype: Any = None,
             device: Any = None, requires_grad: bool = False) -> Tensor:
    start, end = _range_bound(start, "start", "logspace"), _range_bound(end, "end", "logspace")
    steps = int_arg(steps, "steps", "logspace")
    if steps < 0:
        raise VoltaError("logspace: number of steps must be non-negative")
    dt = _dtype(dtype)
    if dt is D.bool_ and steps > 1:  # fewer steps are filled without PyTorch's kernel
        raise DTypeError('"logspace_cpu" not implemented for \'Bool\'')
    _allocatable((steps,), dt)
    start, end, base = _as_float(start), _as_float(end), _as_float(base)
    with np.errstate(all="ignore"):
        if steps == 1:
            one = float(np.power(base, start))
            return _filled((1,), _single_step(one, dt, "logspace"), dt, device, requires_grad)
        if steps > 1 and not dt.is_floating_point and dt is not D.bool_:
            start, end = _integer_bound(start, dt), _integer_bound(end, dt)
        arr = np.power(base, _two_sided_points(start, end, steps))
        return _from_host(arr.astype(dt.numpy), device, requires_grad)


@python_arguments
def eye(n: int, m: int | None = None, dtype: Any = None, device: Any = None,
        requires_grad: bool = False) -> Tensor:
    dt = _dtype(dtype)
    shape = _allocatable(_size((n, n if m is None else m)), dt)
    return _from_host(np.eye(*shape, dtype=dt.numpy), device, requires_grad)


def _gen(generator: Generator | None) -> np.random.Generator:
    return (generator or _default_generator).numpy_rng


def _floating(dt: D.dtype, op: str) -> D.dtype:
    # casting uniform/normal samples to an integer dtype would silently give zeros
    if not dt.is_floating_point:
        raise DTypeError(f"{op}: expected a floating point dtype, got {dt.name}")
    return dt


def _on_device(shape: tuple[int, ...], dt: D.dtype, dev: Any, generator: Generator | None,
               distribution: str, requires_grad: bool) -> Tensor | None:
    """Samples drawn by the device's own generator (``Backend.random``), or None when the
    device draws none and the host must."""
    if dev is None:
        return None
    dev = device(dev)
    info = BACKENDS.get(dev)
    if type(info.impl).random is Backend.random:
        return None
    if dt not in info.dtypes:
        raise DTypeError(f"device {dev} does not support dtype {dt.name}; supported: "
                         f"{', '.join(sorted(d.name for d in info.dtypes))}")
    numel = math.prod(shape)
    key, offset = (generator or _default_generator).philox_key_and_offset(numel)
    handle = info.impl.random(numel, dt, distribution, key, offset, dev.index or 0)
    storage = Storage(handle, numel, dt, dev, info)
    t = Tensor._make(storage, shape, contiguous_strides(shape), 0)
    return t.requires_grad_(True) if requires_grad else t


def rand(*size: Any, generator: Generator | None = None, dtype: Any = None, device: Any = None,
         requires_grad: bool = False) -> Tensor:
    dt = _floating(_dtype(dtype), "rand")
    shape = _allocatable(_size(size), dt)
    drawn = _on_device(shape, dt, device, generator, "uniform", requires_grad)
    if drawn is not None:
        return drawn
    if dt is D.float32:
        # drawn in float32 directly: half the work of float64 draws plus a cast (dropout draws
        # one number per activation), and no float64 sample just below 1 rounds up to 1.0
        return _from_host(_gen(generator).random(shape, dtype=np.float32), device, requires_grad)
    arr = _gen(generator).random(shape, dtype=np.float64).astype(dt.numpy)
    return _from_host(arr, device, requires_grad)


def randn(*size: Any, generator: Generator | None = None, dtype: Any = None, device: Any = None,
          requires_grad: bool = False) -> Tensor:
    dt = _dtype(dtype)
    shape = _size(size)
    if not dt.is_floating_point and 0 in shape:
        # PyTorch's normal kernel, which rejects the dtype, never runs for no elements
        return _filled(shape, 0, dt, device, requires_grad)
    shape = _allocatable(shape, _floating(dt, "randn"))
    drawn = _on_device(shape, dt, device, generator, "normal", requires_grad)
    if drawn is not None:
        return drawn
    arr = _gen(generator).standard_normal(shape, dtype=np.float64).astype(dt.numpy)
    return _from_host(arr, device, requires_grad)


def randint(low: int, high: int | None = None, size: Sequence[int] | None = None,
            generator: Generator | None = None, dtype: Any = None, device: Any = None,
            requires_grad: bool = False) -> Tensor:
    if size is None:  # randint(high, size)
        low, high, size = 0, low, high
    if high is None or size is None:
        raise VoltaError("randint() needs high and size")
    if high <= low:
        raise VoltaError(f"random_ expects 'from' to be less than 'to', but got from={low} >= "
                         f"to={high}")
    dt = _dtype(dtype, D.int64)
    for v in (low, high):
        _checked_int(v, D.int64)
    if not dt.is_floating_point:
        check_random_bounds_fit(dt, low, high)
    arr = _gen(generator).integers(low, high, size=_allocatable(_size((size,)), dt),
                                   dtype=np.int64)
    return _from_host(arr.astype(dt.numpy), device, requires_grad)


def randperm(n: int, generator: Generator | None = None, dtype: Any = None, device: Any = None,
             requires_grad: bool = False) -> Tensor:
    dt = _dtype(dtype, D.int64)
    if dt is D.bool_:
        raise DTypeError('"randperm" not implemented for \'Bool\'')
    _allocatable(_size((n,)), dt)
    return _from_host(_gen(generator).permutation(n).astype(dt.numpy), device)


def normal(mean: Any = 0.0, std: Any = 1.0, size: Sequence[int] | None = None,
           generator: Generator | None = None, dtype: Any = None, device: Any = None) -> Tensor:
    if isinstance(mean, Tensor) or isinstance(std, Tensor):
        like = mean if isinstance(mean, Tensor) else std
        noise = randn(like.shape, generator=generator, dtype=like.dtype, device=like.device)
        return noise * std + mean
    return randn(_size((size,)), generator=generator, dtype=dtype, device=device) * std + mean


def empty_strided(size: Sequence[int], stride: Sequence[int], *, dtype: Any = None,
                  device: Any = None, requires_grad: bool = False, **_: Any) -> Tensor:
    """An uninitialised (zero-filled) tensor with the given strides over a fresh storage."""
    size, stride = tuple(size), tuple(stride)
    if len(size) != len(stride):
        raise ShapeError(f"mismatch in length of strides and shape: size has {len(size)} "
                         f"dims, stride has {len(stride)}")
    if any(s < 0 for s in size) or any(s < 0 for s in stride):
        raise ShapeError(f"empty_strided: negative sizes or strides are not allowed, got size "
                         f"{list(size)} and stride {list(stride)}")
    span = 1 + sum((n - 1) * st for n, st in zip(size, stride)) if all(size) else 0
    flat = _filled((span,), 0, _dtype(dtype), device, False)
    t = Tensor._make(flat._storage, size, stride, 0)
    if requires_grad:
        t.requires_grad_(True)
    return t


def empty_permuted(size: Sequence[int], physical_layout: Sequence[int], *, dtype: Any = None,
                   device: Any = None, requires_grad: bool = False, **_: Any) -> Tensor:
    """A tensor of logical shape ``size`` whose dims lie in memory in ``physical_layout``
    order (outermost first), so that ``t.permute(physical_layout)`` is contiguous."""
    size, layout = tuple(size), tuple(physical_layout)
    if len(size) != len(layout):
        raise ShapeError("Number of dimensions in size does not match the length of the "
                         "physical_layout")
    if sorted(layout) != list(range(len(size))):
        raise ShapeError(f"physical_layout must be a permutation of the dims, got {list(layout)}")
    return empty_strided(size, strides_in_order(size, layout), dtype=dtype, device=device,
                         requires_grad=requires_grad)


def _triangle_indices(which: str, row: int, col: int, offset: int, dtype: Any,
                      device: Any) -> Tensor:
    if row < 0 or col < 0:
        raise ShapeError(f"{'row' if row < 0 else 'col'} must be non-negative, got "
                         f"{row if row < 0 else col}")
    dt = _dtype(dtype, D.int64)
    if dt not in (D.int64, D.int32):
        raise DTypeError(f'"{which}_indices" not implemented for \'{dt.name}\'')
    pick = np.tril_indices if which == "tril" else np.triu_indices
    rows, cols = pick(row, offset, col) if row and col else ((), ())
    return _from_host(np.array([rows, cols], dtype=dt.numpy).reshape(2, -1), device)


def tril_indices(row: int, col: int, offset: int = 0, *, dtype: Any = None, device: Any = None,
                 **_: Any) -> Tensor:
    """The (row, column) indices of the lower triangle of a ``row`` x ``col`` matrix, row by
    row: a 2 x N tensor."""
    return _triangle_indices("tril", row, col, offset, dtype, device)


def triu_indices(row: int, col: int, offset: int = 0, *, dtype: Any = None, device: Any = None,
                 **_: Any) -> Tensor:
    """The (row, column) indices of the upper triangle of a ``row`` x ``col`` matrix, row by
    row: a 2 x N tensor."""
    return _triangle_indices("triu", row, col, offset, dtype, device)


def to_copy(self: Tensor, dtype: D.dtype | None = None, dev: str | None = None) -> Tensor:
    """``_to_copy``: a copy with another dtype and/or on another device, on any backend."""
    target = self._device if dev is None else device(dev)
    dt = dtype or self.dtype
    arr = host_array(self)
    # as PyTorch's (preserve_format): the result is laid out as clone() lays it out, so a
    # channels-last or transposed tensor is copied as the contiguous array of its dims in
    # memory order, and the result views that in self's shape with those strides
    shape = self._shape
    strides = format_strides(preserve_format, shape, self._stride)
    keep = strides != contiguous_strides(shape)
    if keep and 0 not in shape:
        arr = arr.transpose(dense_order(shape, strides))
    if arr.dtype != dt.numpy or BACKENDS.get(target).host_memory:
        if arr.dtype == np.float64 and dt is D.float16:
            arr = arr.astype(np.float32)  # PyTorch rounds double -> half through float
        arr = arr.astype(dt.numpy)  # astype copies, so the result never aliases self
    result = _from_host(arr, target)
    return Tensor._make(result._storage, shape, strides, 0) if keep else result


# -- Tensor methods that build tensors. They live beside the factories they call, and
# volta/_wiring.py installs them on the class (docs/layout.md, "The seam").

def new_tensor(self: Tensor, data: Any, dtype: Any = None, device: Any = None,
                requires_grad: bool = False) -> Tensor:
    return tensor(data, dtype=dtype or self.dtype, device=device or self._device,
                  requires_grad=requires_grad)


def new_zeros(self: Tensor, *size: Any, dtype: Any = None, device: Any = None,
               requires_grad: bool = False) -> Tensor:
    return zeros(*size, dtype=dtype or self.dtype, device=device or self._device,
                 requires_grad=requires_grad)


def new_ones(self: Tensor, *size: Any, dtype: Any = None, device: Any = None,
              requires_grad: bool = False) -> Tensor:
    return ones(*size, dtype=dtype or self.dtype, device=device or self._device,
                requires_grad=requires_grad)


def new_full(self: Tensor, size: Any, fill_value: Any, dtype: Any = None, device: Any = None,
              requires_grad: bool = False) -> Tensor:
    return full(size, fill_value, dtype=dtype or self.dtype, device=device or self._device,
                requires_grad=requires_grad)


def new_empty(self: Tensor, *size: Any, dtype: Any = None, device: Any = None,
               requires_grad: bool = False) -> Tensor:
    return empty(*size, dtype=dtype or self.dtype, device=device or self._device,
                 requires_grad=requires_grad)


def new_empty_strided(self: Tensor, size: Sequence[int], stride: Sequence[int],
                      dtype: Any = None, device: Any = None,
                      requires_grad: bool = False) -> Tensor:
    return empty_strided(size, stride, dtype=dtype or self.dtype,
                         device=device or self._device, requires_grad=requires_grad)


def _reduce_ex(self: Tensor, protocol: int) -> Any:
    # _rebuild stays in volta.tensor.tensor: pickles name it by module
    return (_rebuild, (host_array(self).copy(), str(self._device), self._requires_grad, tensor))


def _deepcopy(self: Tensor, memo: dict) -> Tensor:
    with_grad = self._requires_grad
    result = _from_host(host_array(self).copy(), self._device)
    if with_grad:
        result.requires_grad_(True)
    if self._grad is not None:
        result._grad = self._grad.__deepcopy__(memo)
    memo[id(self)] = result
    return result


TENSOR_METHODS = {
    "new_tensor": new_tensor, "new_zeros": new_zeros, "new_ones": new_ones,
    "new_full": new_full, "new_empty": new_empty, "new_empty_strided": new_empty_strided,
    "__reduce_ex__": _reduce_ex, "__deepcopy__": _deepcopy,
}
