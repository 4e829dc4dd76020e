"""``tensor[index]`` and ``tensor[index] = value`` in PyTorch's semantics, built from ops.

Basic indices (ints, slices, None, Ellipsis) become views (select/slice/unsqueeze); tensor
and boolean indices become ``index``/``index_put_``. Assignment through a basic index copies
into the view, so autograd sees an in-place write (CopySlices).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from volta import dtypes as D
from volta._generated import registry as R
from volta.errors import IndexOutOfRangeError
from volta.tensor.factories import scalar_tensor
from volta.tensor.factories import tensor as make_tensor
from volta.tensor.tensor import Tensor


def _normalise(index: Any) -> tuple:
    if not isinstance(index, tuple):
        index = (index,)
    out = []
    for item in index:
        if isinstance(item, (list, np.ndarray, bool, np.bool_)):
            item = make_tensor(item)
            if item.numel() == 0 and item.dtype.is_floating_point:
                # an empty list holds no numbers to infer from; PyTorch reads it as int64
                item = item.to(D.int64)
        elif isinstance(item, Tensor) and item.ndim == 0 and not item.dtype.is_floating_point \
                and item.dtype.name != "bool":
            item = int(item.item())
        out.append(item)
    return tuple(out)


def _consumed(item: Any) -> int:
    if item is None or item is Ellipsis:
        return 0
    if isinstance(item, Tensor) and item.dtype.name in ("bool", "uint8"):
        return item.ndim  # a 0-d mask adds a dim instead of consuming one (as in PyTorch)
    return 1


def _basic(t: Any, index: tuple) -> tuple[Any, list]:
    """Apply the basic part of an index; return the view and the advanced index list."""
    n_used = sum(_consumed(i) for i in index)
    if n_used > t.ndim:
        raise IndexOutOfRangeError(f"too many indices for tensor of dimension {t.ndim}")
    result = t
    dim = 0
    advanced: list = []
    has_advanced = False
    for item in index:
        if item is Ellipsis:
            skip = t.ndim - n_used
            advanced.extend([None] * skip)
            dim += skip
        elif item is None:
            result = result.unsqueeze(dim)
            advanced.append(None)
            dim += 1
        elif isinstance(item, (int, np.integer)) and not isinstance(item, bool):
            result = _select(result, dim, item)
        elif isinstance(item, slice):
            result = _slice(result, dim, item)
            advanced.append(None)
            dim += 1
        elif isinstance(item, Tensor):
            has_advanced = True
            if item.dtype.is_floating_point:
                # PyTorch raises IndexError here; the index kernel's DTypeError is a TypeError
                raise IndexOutOfRangeError("tensors used as indices must be long, int, byte or "
                                           "bool tensors")
            if item.dtype.name in ("bool", "uint8") and item.ndim == 0:
                # x[True] is x[None][[True]]: a new dim of size 1 (or 0 for False)
                result = result.unsqueeze(dim)
                advanced.append(item.unsqueeze(0))
                dim += 1
            elif item.dtype.name in ("bool", "uint8"):
                advanced.append(item)
                advanced.extend(["skip"] * (item.ndim - 1))
                dim += item.ndim
            else:
                advanced.append(item)
                dim += 1
        else:
            raise IndexOutOfRangeError(f"only integers, slices (`:`), ellipsis (`...`), None and "
                                       f"long or byte Variables are valid indices (got "
                                       f"{type(item).__name__})")
    if not has_advanced:
        return result, []
    return result, [a for a in advanced if not isinstance(a, str)]


def _select(t: Any, dim: int, item: Any) -> Any:
    size = t._shape[dim]
    if not -size <= item < size:
        raise IndexOutOfRangeError(f"index {item} is out of bounds for dimension {dim} "
                                   f"with size {size}")
    return R.select(t, dim, int(item))


def _slice(t: Any, dim: int, item: slice) -> Any:
    if item.step is not None and item.step <= 0:
        raise IndexOutOfRangeError("step must be greater than zero")
    return R.slice(t, dim, item.start, item.stop, 1 if item.step is None else item.step)


def getitem(t: Any, index: Any) -> Any:
    # ints and slices only (x[0], x[1:3], x[:, 1]): views dim by dim, the common case
    if t._shape:
        if index.__class__ is int:
            return _select(t, 0, index)
        if index.__class__ is slice:
            return _slice(t, 0, index)
        if index.__class__ is tuple and 0 < len(index) <= len(t._shape) and all(
                item.__class__ is int or item.__class__ is slice for item in index):
            view, dim = t, 0
            for item in index:
                if item.__class__ is int:
                    view = _select(view, dim, item)
                    continue
                # a full slice (x[:, 1]) changes nothing: skipped, as PyTorch's indexing does
                if item.start is not None or item.stop is not None or item.step is not None:
                    view = _slice(view, dim, item)
                dim += 1
            # x[:, :] must still be a new view object
            return view if view is not t else _slice(t, 0, index[0])
        if (index.__class__ is Tensor and index._shape and not index.dtype.is_floating_point
                and index.dtype.name not in ("bool", "uint8")):
            return R.index_Tensor(t, (index,))  # x[long_tensor]: one advanced index, no views
    index = _normalise(index)
    view, advanced = _basic(t, index)
    if not advanced:
        # x[...] / x[()] must still be a new view object; Tensor has no alias() method
        return view if view is not t else R.alias(t)
    return R.index_Tensor(view, tuple(advanced))


def setitem(t: Any, index: Any, value: Any) -> None:
    index = _normalise(index)
    view, advanced = _basic(t, index)
    if not isinstance(value, Tensor):
        value = scalar_tensor(value, dtype=t.dtype, device=t.device)
    if not advanced:
        view.copy_(value)
        return
    view.index_put_(tuple(advanced), value.to(t.dtype), False)


# Tensor's indexing protocol; volta/_wiring.py installs it on the class (docs/layout.md)
TENSOR_METHODS = {"__getitem__": getitem, "__setitem__": setitem}
