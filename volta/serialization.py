"""Checkpoints in the safetensors format: ``volta.save`` and ``volta.load``.

A file is an 8-byte little-endian header length N, N bytes of JSON (``{name: {"dtype",
"shape", "data_offsets": [begin, end]}, "__metadata__": {str: str}}``), then the tensors' bytes,
each row-major and little-endian, at its offsets relative to the end of the header. Files
written here are read by the ``safetensors`` package and the other way round.

Saving writes a temporary file in the target's folder, fsyncs it and renames it over the
target, so an interrupted save leaves the previous file intact. Loading checks the whole header
against the file's size before it builds any tensor, and reports every malformation as a
``SerializationError``.
"""

from __future__ import annotations

import json
import os
import tempfile
from collections.abc import Mapping
from typing import Any, BinaryIO

import numpy as np

from volta import dtypes as D
from volta.device import device as Device
from volta.errors import SerializationError
from volta.tensor.factories import from_numpy
from volta.tensor.tensor import Tensor

__all__ = ["load", "load_metadata", "save"]

# safetensors' dtype codes for volta's dtypes
_CODES: dict[D.dtype, str] = {
    D.bool_: "BOOL", D.uint8: "U8", D.int8: "I8", D.int16: "I16", D.int32: "I32",
    D.int64: "I64", D.float16: "F16", D.bfloat16: "BF16", D.float32: "F32", D.float64: "F64",
}
_DTYPES = {code: dt for dt, code in _CODES.items()}
# the safetensors library refuses headers above 100 MB; so do we, before reading them
_MAX_HEADER = 100_000_000
_ALIGN = 8


def _host_array(name: str, tensor: Tensor) -> np.ndarray:
    """The tensor's values as a C-contiguous little-endian host array (strided views are
    gathered; device tensors are copied to the host)."""
    data = tensor.detach().cpu()  # a no-op for tensors already in host memory
    array = np.ascontiguousarray(data.numpy())
    if array.dtype.byteorder == ">":
        array = array.astype(array.dtype.newbyteorder("<"))
    return array


def save(tensors: Mapping[str, Tensor], path: str | os.PathLike[str],
         metadata: Mapping[str, str] | None = None) -> None:
    """Write ``tensors`` (a state_dict or any ``{name: Tensor}`` mapping) to ``path`` as
    safetensors, atomically; ``metadata`` is a ``{str: str}`` mapping stored in the header."""
    if not isinstance(tensors, Mapping):
        raise SerializationError(f"save() expects a mapping of names to Tensors, got "
                                 f"{type(tensors).__name__}")
    header: dict[str, Any] = {}
    if metadata is not None:
        if not all(isinstance(k, str) and isinstance(v, str) for k, v in metadata.items()):
            raise SerializationError("metadata must map str to str")
        header["__metadata__"] = dict(metadata)
    arrays: list[np.ndarray] = []
    offset = 0
    for name in sorted(tensors):
        tensor = tensors[name]
        if not isinstance(name, str) or name == "__metadata__":
            raise SerializationError(f"invalid tensor name {name!r}")
        if not isinstance(tensor, Tensor):
            raise SerializationError(f"save() can only store Tensors, but {name!r} is a "
                                     f"{type(tensor).__name__}")
        code = _CODES.get(tensor.dtype)
        if code is None:
            raise SerializationError(f"{name!r}: dtype {tensor.dtype} has no safetensors code")
        array = _host_array(name, tensor)
        header[name] = {"dtype": code, "shape": list(tensor.shape),
                        "data_offsets": [offset, offset + array.nbytes]}
        arrays.append(array)
        offset += array.nbytes
    encoded = json.dumps(header, separators=(",", ":")).encode("utf-8")
    encoded += b" " * (-len(encoded) % _ALIGN)  # the data starts 8-byte aligned
    _atomic_write(os.fspath(path), encoded, arrays)


def _atomic_write(path: str, header: bytes, arrays: list[np.ndarray]) -> None:
    folder = os.path.dirname(os.path.abspath(path))
    handle, temporary = tempfile.mkstemp(prefix=".volta-save-", suffix=".tmp", dir=folder)
    try:
        with os.fdopen(handle, "wb") as stream:
            stream.write(len(header).to_bytes(8, "little"))
            stream.write(header)
            for array in arrays:
                _write_array(stream, array)
            stream.flush()
            os.fsync(stream.fileno())
        os.replace(temporary, path)
    except BaseException:
        os.unlink(temporary)
        raise
    _fsync_folder(folder)


def _write_array(stream: BinaryIO, array: np.ndarray) -> None:
    stream.write(memoryview(array.reshape(-1).view(np.uint8)))


def _fsync_folder(folder: str) -> None:
    # makes the rename itself durable; not every platform can open a folder
    try:
        fd = os.open(folder, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


# -- loading -------------------------------------------------------------------------------------


def _read(path: str | os.PathLike[str]) -> tuple[dict[str, Any], memoryview]:
    """The validated header and the data section of the file at ``path``."""
    try:
        with open(path, "rb") as stream:
            raw = stream.read()
    except OSError as error:
        raise SerializationError(f"cannot read {os.fspath(path)!r}: {error}") from error
    where = os.fspath(path)
    if len(raw) < 8:
        raise SerializationError(f"{where!r} is truncated: {len(raw)} bytes, fewer than the "
                                 "8-byte header length")
    size = int.from_bytes(raw[:8], "little")
    if size > _MAX_HEADER:
        raise SerializationError(f"{where!r}: header length {size} exceeds the limit of "
                                 f"{_MAX_HEADER} bytes")
    if 8 + size > len(raw):
        raise SerializationError(f"{where!r} is truncated: the header claims {size} bytes but "
                                 f"only {len(raw) - 8} follow")
    try:
        header = json.loads(raw[8:8 + size].decode("utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError) as error:
        raise SerializationError(f"{where!r}: the header is not valid JSON ({error})") from error
    if not isinstance(header, dict):
        raise SerializationError(f"{where!r}: the header must be a JSON object")
    data = memoryview(raw)[8 + size:]
    _validate(where, header, len(data))
    return header, data


def _validate(where: str, header: dict[str, Any], data_size: int) -> None:
    metadata = header.get("__metadata__", {})
    if not isinstance(metadata, dict) or not all(
            isinstance(k, str) and isinstance(v, str) for k, v in metadata.items()):
        raise SerializationError(f"{where!r}: __metadata__ must map str to str")
    spans = []
    for name, entry in header.items():
        if name == "__metadata__":
            continue
        if not isinstance(entry, dict) or set(entry) != {"dtype", "shape", "data_offsets"}:
            raise SerializationError(f"{where!r}: entry {name!r} must have exactly dtype, "
                                     "shape and data_offsets")
        dtype = _DTYPES.get(entry["dtype"]) if isinstance(entry["dtype"], str) else None
        if dtype is None:
            raise SerializationError(f"{where!r}: tensor {name!r} has unknown dtype "
                                     f"{entry['dtype']!r}")
        shape, offsets = entry["shape"], entry["data_offsets"]
        if not isinstance(shape, list) or not all(
                type(d) is int and d >= 0 for d in shape):
            raise SerializationError(f"{where!r}: tensor {name!r} has an invalid shape {shape!r}")
        if (not isinstance(offsets, list) or len(offsets) != 2
                or not all(type(o) is int for o in offsets)
                or not 0 <= offsets[0] <= offsets[1] <= data_size):
            raise SerializationError(f"{where!r}: tensor {name!r} has data_offsets {offsets!r} "
                                     f"outside the {data_size}-byte data section")
        expected = int(np.prod(shape, dtype=np.int64)) * dtype.itemsize
        if offsets[1] - offsets[0] != expected:
            raise SerializationError(f"{where!r}: tensor {name!r} of shape {shape} and dtype "
                                     f"{entry['dtype']} needs {expected} bytes but its offsets "
                                     f"span {offsets[1] - offsets[0]}")
        spans.append((offsets[0], offsets[1], name))
    end = 0
    for begin, stop, name in sorted(spans):
        if begin != end:
            what = "overlaps the previous tensor" if begin < end else "leaves a gap before it"
            raise SerializationError(f"{where!r}: tensor {name!r} at offset {begin} {what}")
        end = stop
    if end != data_size:
        raise SerializationError(f"{where!r}: the tensors cover {end} bytes but the data "
                                 f"section holds {data_size}")


def load(path: str | os.PathLike[str], device: str | Device | None = None
         ) -> dict[str, Tensor]:
    """Read a safetensors file into ``{name: Tensor}`` (on ``device``, default CPU). The whole
    file is validated first; nothing is returned from a malformed one."""
    header, data = _read(path)
    tensors = {}
    for name, entry in header.items():
        if name == "__metadata__":
            continue
        dtype = _DTYPES[entry["dtype"]]
        begin, end = entry["data_offsets"]
        array = np.frombuffer(data[begin:end], dtype=np.dtype(dtype.numpy).newbyteorder("<"))
        array = array.astype(dtype.numpy).reshape(entry["shape"])  # a native, writable copy
        tensor = from_numpy(array)
        tensors[name] = tensor if device is None else tensor.to(device)
    return tensors


def load_metadata(path: str | os.PathLike[str]) -> dict[str, str]:
    """The ``__metadata__`` of a safetensors file (validated like ``load``)."""
    header, _ = _read(path)
    return dict(header.get("__metadata__", {}))
