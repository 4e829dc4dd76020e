"""volta.save / volta.load: safetensors round trips, interop with the safetensors package and
PyTorch, atomic writes, and a SerializationError for every malformed file."""

from __future__ import annotations

import json
import os
from pathlib import Path

import ml_dtypes
import numpy as np
import pytest
import torch
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from safetensors.numpy import load_file as np_load_file
from safetensors.torch import load_file as torch_load_file
from safetensors.torch import save_file as torch_save_file

import volta
import volta.serialization
from volta.errors import SerializationError

ALL_DTYPES = [volta.bool, volta.uint8, volta.int8, volta.int16, volta.int32, volta.int64,
              volta.float16, volta.bfloat16, volta.float32, volta.float64]


def _sample(dtype: volta.dtype, shape: tuple[int, ...], seed: int = 0) -> np.ndarray:
    rng = np.random.default_rng(seed)
    if dtype == volta.bool:
        return rng.random(shape) > 0.5
    if dtype.is_floating_point:
        # extremes and values that only survive a bit-exact copy
        values = rng.standard_normal(shape) * 1000
        flat = values.reshape(-1)
        flat[:3] = [np.inf, -np.inf, 1e-7][: flat.size]
        return values.astype(dtype.numpy)
    info = np.iinfo(dtype.numpy)
    return rng.integers(info.min, info.max, size=shape, endpoint=True, dtype=dtype.numpy)


def _bits(array: np.ndarray) -> np.ndarray:
    return array.view(np.uint8) if array.dtype.itemsize == 1 else array.view(
        f"u{array.dtype.itemsize}")


@pytest.mark.parametrize("dtype", ALL_DTYPES, ids=str)
def test_round_trip_is_bit_exact(tmp_path: Path, dtype: volta.dtype) -> None:
    values = _sample(dtype, (3, 5))
    tensors = {"weight": volta.from_numpy(values), "scalar": volta.from_numpy(values[0, :1]
                                                                               .reshape(())),
               "empty": volta.zeros((0, 4), dtype=dtype)}
    path = tmp_path / "t.safetensors"
    volta.save(tensors, path, metadata={"format": "pt", "epoch": "3"})
    loaded = volta.load(path)
    assert set(loaded) == set(tensors)
    for name, tensor in tensors.items():
        assert loaded[name].dtype == dtype and tuple(loaded[name].shape) == tuple(tensor.shape)
        np.testing.assert_array_equal(_bits(loaded[name].numpy()), _bits(tensor.numpy()))
    assert volta.serialization.load_metadata(path) == {"format": "pt", "epoch": "3"}


def test_non_contiguous_tensors_are_saved_by_value(tmp_path: Path) -> None:
    base = volta.arange(24, dtype=volta.float32).reshape(4, 6)
    tensors = {"t": base.t(), "strided": base[:, ::2], "offset": base[2:, 3:],
               "bf16": base.to(dtype=volta.bfloat16).t()}
    volta.save(tensors, tmp_path / "v.safetensors")
    loaded = volta.load(tmp_path / "v.safetensors")
    for name, tensor in tensors.items():
        np.testing.assert_array_equal(loaded[name].numpy(), tensor.numpy())


def test_files_read_by_the_safetensors_package(tmp_path: Path) -> None:
    values = {name: _sample(dt, (2, 3), seed=i) for i, (name, dt) in enumerate(
        [("a", volta.float32), ("b", volta.int64), ("c", volta.bfloat16), ("d", volta.float16)])}
    volta.save({k: volta.from_numpy(v) for k, v in values.items()}, tmp_path / "x.safetensors")
    theirs = torch_load_file(tmp_path / "x.safetensors")
    assert theirs["c"].dtype == torch.bfloat16
    for name, array in values.items():
        got = theirs[name].view(torch.int16).numpy().view(ml_dtypes.bfloat16) \
            if name == "c" else theirs[name].numpy()
        np.testing.assert_array_equal(_bits(got), _bits(array))
    assert theirs.keys() == values.keys()


def test_torch_saved_state_dict_loads_with_equal_values(tmp_path: Path) -> None:
    torch.manual_seed(0)
    model = torch.nn.Sequential(torch.nn.Conv2d(3, 4, 3), torch.nn.BatchNorm2d(4),
                                torch.nn.Flatten(), torch.nn.Linear(4 * 6 * 6, 10))
    model(torch.randn(2, 3, 8, 8))  # moves the running stats; num_batches_tracked is int64
    state = {k: v.contiguous() for k, v in model.state_dict().items()}
    state["half"] = torch.randn(3, dtype=torch.float16)
    state["brain"] = torch.randn(3, dtype=torch.bfloat16)
    torch_save_file(state, tmp_path / "torch.safetensors")
    loaded = volta.load(tmp_path / "torch.safetensors", device="cpu")
    assert set(loaded) == set(state)
    for name, tensor in state.items():
        assert str(loaded[name].dtype).split(".")[-1] == str(tensor.dtype).split(".")[-1]
        expected = tensor.float().numpy() if tensor.dtype == torch.bfloat16 else tensor.numpy()
        got = loaded[name].to(dtype=volta.float32).numpy() if tensor.dtype == torch.bfloat16 \
            else loaded[name].numpy()
        np.testing.assert_array_equal(got, expected)


def test_interrupted_save_leaves_the_previous_file(tmp_path: Path,
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "ckpt.safetensors"
    volta.save({"w": volta.ones(3)}, path)
    before = path.read_bytes()
    written = []

    def failing_write(stream: object, array: np.ndarray) -> None:
        written.append(array)
        if len(written) == 2:  # header and a first tensor are already on disk
            raise KeyboardInterrupt
        stream.write(array.tobytes())  # type: ignore[attr-defined]

    monkeypatch.setattr(volta.serialization, "_write_array", failing_write)
    with pytest.raises(KeyboardInterrupt):
        volta.save({"a": volta.zeros(5), "b": volta.zeros(7)}, path)
    assert path.read_bytes() == before
    assert os.listdir(tmp_path) == ["ckpt.safetensors"]  # no temporary file left behind
    np.testing.assert_array_equal(volta.load(path)["w"].numpy(), [1.0, 1.0, 1.0])


def test_save_rejects_what_safetensors_cannot_hold(tmp_path: Path) -> None:
    with pytest.raises(SerializationError, match="only store Tensors"):
        volta.save({"step": 3}, tmp_path / "s.safetensors")  # type: ignore[dict-item]
    with pytest.raises(SerializationError, match="metadata"):
        volta.save({"w": volta.ones(1)}, tmp_path / "s.safetensors", metadata={"a": 1})
    assert not (tmp_path / "s.safetensors").exists()


# -- malformed files -----------------------------------------------------------------------------


def _file(header: object, data: bytes = b"", raw_header: bytes | None = None) -> bytes:
    encoded = raw_header if raw_header is not None else json.dumps(header).encode()
    return len(encoded).to_bytes(8, "little") + encoded + data


GOOD = {"a": {"dtype": "F32", "shape": [2], "data_offsets": [0, 8]},
        "b": {"dtype": "I16", "shape": [2], "data_offsets": [8, 12]}}
MALFORMED = {
    "empty": (b"", "truncated"),
    "short length": (b"\x05\x00\x00", "truncated"),
    "header past the end": (_file(GOOD, bytes(12))[:-20], "truncated"),
    "absurd header length": ((2 ** 63).to_bytes(8, "little") + b"{}", "exceeds the limit"),
    "invalid json": (_file(None, bytes(12), raw_header=b"{not json"), "not valid JSON"),
    "not utf-8": (_file(None, raw_header=b"{\xff\xfe}"), "not valid JSON"),
    "not an object": (_file([1, 2]), "JSON object"),
    "truncated data": (_file(GOOD, bytes(10)), "outside"),
    "trailing bytes": (_file(GOOD, bytes(16)), "data section holds"),
    "overlap": (_file({"a": GOOD["a"], "b": {"dtype": "I16", "shape": [2],
                                              "data_offsets": [6, 10]}}, bytes(10)), "overlaps"),
    "gap": (_file({"a": {"dtype": "F32", "shape": [1], "data_offsets": [4, 8]}}, bytes(8)),
            "gap"),
    "unknown dtype": (_file({"a": {"dtype": "F8_E4M3", "shape": [2],
                                   "data_offsets": [0, 2]}}, bytes(2)), "unknown dtype"),
    "shape mismatch": (_file({"a": {"dtype": "F32", "shape": [3],
                                    "data_offsets": [0, 8]}}, bytes(8)), "needs 12 bytes"),
    "negative dim": (_file({"a": {"dtype": "F32", "shape": [-2],
                                  "data_offsets": [0, 8]}}, bytes(8)), "invalid shape"),
    "reversed offsets": (_file({"a": {"dtype": "U8", "shape": [0],
                                      "data_offsets": [4, 0]}}, bytes(4)), "outside"),
    "missing field": (_file({"a": {"dtype": "F32", "shape": [2]}}, bytes(8)), "exactly"),
    "bad metadata": (_file({"__metadata__": {"a": 1}}), "__metadata__"),
}


@pytest.mark.parametrize("case", list(MALFORMED))
def test_malformed_file_raises_serialization_error(tmp_path: Path, case: str) -> None:
    content, message = MALFORMED[case]
    path = tmp_path / "bad.safetensors"
    path.write_bytes(content)
    with pytest.raises(SerializationError, match=message):
        volta.load(path)


def test_good_reference_file_loads(tmp_path: Path) -> None:
    path = tmp_path / "good.safetensors"
    path.write_bytes(_file(GOOD, np.array([1.5, 2.5], "<f4").tobytes()
                           + np.array([-3, 4], "<i2").tobytes()))
    loaded = volta.load(path)
    np.testing.assert_array_equal(loaded["a"].numpy(), [1.5, 2.5])
    np.testing.assert_array_equal(loaded["b"].numpy(), [-3, 4])


def test_missing_file_is_a_serialization_error(tmp_path: Path) -> None:
    with pytest.raises(SerializationError, match="cannot read"):
        volta.load(tmp_path / "nope.safetensors")


@settings(derandomize=True, max_examples=100, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.lists(st.tuples(st.integers(0, 10_000), st.integers(0, 255)), min_size=1,
                max_size=4), st.integers(0, 40))
def test_byte_mutations_load_or_raise_serialization_error(
        tmp_path: Path, mutations: list[tuple[int, int]], cut: int) -> None:
    path = tmp_path / "fuzz.safetensors"
    volta.save({"w": volta.arange(6, dtype=volta.float32).reshape(2, 3),
                "i": volta.arange(3, dtype=volta.int64)}, path)
    content = bytearray(path.read_bytes())
    for position, value in mutations:
        content[position % len(content)] = value
    path.write_bytes(bytes(content[: len(content) - cut]))
    try:
        loaded = volta.load(path)
    except SerializationError:
        return
    # what volta accepts, the reference reader accepts too, with the same values
    reference = np_load_file(path)
    assert set(reference) == set(loaded)
    for name, array in reference.items():
        np.testing.assert_array_equal(_bits(loaded[name].numpy()), _bits(array))
