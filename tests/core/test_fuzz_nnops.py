"""Neural-network ops where the differential fuzz (tests/fuzz) found volta and PyTorch disagreeing:
fractional max pooling's argument checks, hardtanh's limits, native_batch_norm's dtype and
running-statistics rules. Each case runs through PyTorch and volta (CPU, and WGPU where the
kernel and dtype exist there): both accept with equal results, or both reject (volta with a
VoltaError) and volta leaves its inputs as they were."""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

import ml_dtypes
import numpy as np
import pytest
import torch

import volta
from tests.core.agreement import agree, outcome

WGPU_DTYPES = {"float32", "float16", "int32", "int64", "bool"}


def _numpy(result: Any) -> np.ndarray:
    if isinstance(result, torch.Tensor):
        return result.float().numpy() if result.dtype == torch.bfloat16 else result.numpy()
    result = result.cpu()
    array = result.numpy()
    return array.astype(np.float32) if array.dtype == ml_dtypes.bfloat16 else array


def _same(volta_result: Any, torch_result: Any) -> None:
    if isinstance(torch_result, tuple):
        assert isinstance(volta_result, tuple) and len(volta_result) == len(torch_result)
        for a, b in zip(volta_result, torch_result):
            _same(a, b)
        return
    assert volta_result.dtype.name == str(torch_result.dtype).removeprefix("torch.")
    assert tuple(volta_result.shape) == tuple(torch_result.shape)
    half = torch_result.dtype in (torch.float16, torch.bfloat16)
    np.testing.assert_allclose(_numpy(volta_result), _numpy(torch_result),
                               rtol=1e-2 if half else 1e-5, atol=1e-2 if half else 1e-6)


def _agree(volta_call: Callable[[], Any], torch_call: Callable[[], Any]) -> None:
    agree(volta_call, torch_call, _same)


def _data(shape: tuple[int, ...], dtype: str, seed: int = 0) -> np.ndarray:
    rng = np.random.default_rng(seed)
    if dtype == "bool":
        return rng.random(shape) < 0.5
    if dtype in ("uint8", "int8", "int16", "int32", "int64"):
        return rng.integers(0 if dtype == "uint8" else -5, 6, size=shape).astype(dtype)
    return rng.standard_normal(shape).astype(np.float32)


def _tensor(lib: Any, data: np.ndarray, dtype: str, device: str = "cpu") -> Any:
    if lib is torch:
        return torch.tensor(data).to(getattr(torch, dtype))
    return volta.tensor(data).to(getattr(volta, dtype)).to(device)


# -- fractional max pooling ---------------------------------------------------------------------

FRACTIONAL_CASES = [
    # (n, input shape, kernel_size, output_size, output_ratio, samples given)
    (2, (4,), [], [3], None, False),            # rank below (C, H, W): PyTorch's IndexError
    (3, (4,), [1], [0], None, False),
    (2, (), 2, [2, 2], None, False),
    (3, (2, 4, 4), 1, 2, None, False),
    (2, (4, 4, 2, 4), [1, 2], [2], None, True),  # a one-element list is not one Int
    (2, (4, 4, 2, 4), [1], [2, 2], None, True),
    (2, (4, 4, 2, 4), (1,), 2, None, True),
    (3, (2, 2, 5, 5, 5), [1], [2, 2, 2], None, True),
    (3, (2, 2, 5, 5, 5), 2, [2, 2], None, True),
    (2, (4, 4, 2, 4), [1, 1], None, [0.5], False),   # a ratio for one dimension only
    (2, (4, 4, 2, 4), [1, 1], None, [0.5, 0.5, 0.5], False),
    (2, (2, 3, 6, 6), 2, [3, 3], None, True),    # accepted
    (2, (3, 6, 6), [2, 3], 3, None, True),
    (3, (2, 2, 5, 5, 5), 2, [3, 3, 3], None, True),
]


@pytest.mark.parametrize("device", ["cpu", "wgpu"])
@pytest.mark.parametrize("case", FRACTIONAL_CASES)
def test_fractional_max_pool_checks_its_sizes_as_pytorch(case: tuple, device: str) -> None:
    n, shape, kernel_size, output_size, output_ratio, sampled = case
    data = _data(shape, "float32")
    batch = shape[0] if len(shape) == n + 2 else 1
    channels = shape[-n - 1] if len(shape) > n else 1
    samples = np.random.default_rng(1).random((batch, channels, n)).astype(np.float32)

    def call(lib: Any) -> Any:
        functional = lib.nn.functional
        pool = functional.fractional_max_pool2d if n == 2 else functional.fractional_max_pool3d
        given = _tensor(lib, samples, "float32", device) if sampled else None
        return pool(_tensor(lib, data, "float32", device), kernel_size, output_size,
                    output_ratio, True, _random_samples=given)

    _agree(lambda: call(volta), lambda: call(torch))


# -- hardtanh -----------------------------------------------------------------------------------

class _NotANumber:
    """A limit of no number type, with a repr that is the same in every pytest-xdist worker
    (a bare object()'s repr holds its address, and workers must collect the same test ids)."""

    def __repr__(self) -> str:
        return "<not a number>"


HARDTANH_LIMITS = [(-1.0, 1.0), (0, 1), (0.0, 1.5), (-1, 0), (-0.5, 2), (0, -0.5), (9.2, 10),
                   (9.2, True), (9.2, _NotANumber()), (9.2, "a"), (9.2, None), (None, 1.0),
                   (-1.0, 1 + 2j)]


@pytest.mark.parametrize("device", ["cpu", "wgpu"])
@pytest.mark.parametrize("dtype", ["float32", "float16", "bfloat16", "float64", "uint8", "int8",
                                   "int32", "int64", "bool"])
@pytest.mark.parametrize("limits", HARDTANH_LIMITS, ids=repr)
def test_hardtanh_limits_as_pytorch_takes_them(limits: tuple, dtype: str, device: str) -> None:
    if device == "wgpu" and dtype not in WGPU_DTYPES:
        return
    data = _data((2, 3), dtype)
    _agree(lambda: volta.nn.functional.hardtanh(_tensor(volta, data, dtype, device), *limits),
           lambda: torch.nn.functional.hardtanh(_tensor(torch, data, dtype), *limits))


# -- native_batch_norm --------------------------------------------------------------------------

BATCH_NORM_CASES = [
    # (input dtype, weight, bias, running_mean, running_var): a dtype name or None
    ("float16", "bool", "int16", None, "float16"),   # one running statistic without the other
    ("float32", None, None, None, "float32"),
    ("float32", None, None, "float32", None),
    ("float32", "int64", None, None, None),           # mixed dtypes
    ("float32", "float16", None, None, None),
    ("float32", None, None, "float64", "float64"),
    ("float64", "float32", None, None, None),
    ("float16", "float32", "float32", "float16", "float16"),
    ("float16", "float32", "float16", None, None),
    ("float16", "bfloat16", None, None, None),
    ("float32", "float32", None, "float64", "float64"),
    ("float16", "float16", None, "float32", "float32"),
    ("int64", None, None, None, None),                 # an integer input
    ("bool", None, None, "float32", "float32"),
    ("float32", "float32", "float32", "float32", "float32"),   # accepted
    ("float16", "float16", "float16", "float16", "float16"),
    ("float64", None, None, "float64", "float64"),
    ("bfloat16", None, "bfloat16", None, None),
    ("float16", "float32", "float32", "float32", "float32"),   # the mixed mode
    ("bfloat16", "float32", None, None, None),
    ("float16", None, None, "float32", "float32"),
]


@pytest.mark.parametrize("device", ["cpu", "wgpu"])
@pytest.mark.parametrize("training", [True, False])
@pytest.mark.parametrize("case", BATCH_NORM_CASES, ids=repr)
def test_native_batch_norm_dtypes_as_pytorch(case: tuple, training: bool, device: str) -> None:
    if device == "wgpu" and not {d for d in case if d} <= {"float32", "float16"}:
        return
    if not training and case[3] is None and case[4] is None:
        return  # PyTorch's CPU kernel crashes without running statistics in eval mode
    channels = 4
    shapes = [(2, channels, 3)] + [(channels,)] * 4
    arrays = [None if d is None else _data(s, d, seed) for seed, (s, d) in
              enumerate(zip(shapes, case))]
    arrays[4] = None if arrays[4] is None else np.abs(arrays[4])   # a variance

    def args(lib: Any, dev: str) -> list:
        return [None if a is None else _tensor(lib, a, d, dev) for a, d in zip(arrays, case)]

    volta_args, torch_args = args(volta, device), args(torch, "cpu")
    before = [None if t is None else _numpy(t).copy() for t in volta_args]
    _agree(lambda: volta.native_batch_norm(*volta_args, training, 0.1, 1e-5),
           lambda: torch.native_batch_norm(*torch_args, training, 0.1, 1e-5))
    ok, _ = outcome(lambda: torch.native_batch_norm(*args(torch, "cpu"), training, 0.1, 1e-5))
    if ok:   # the running statistics, updated in place
        for v, t in zip(volta_args[3:], torch_args[3:]):
            if t is not None:
                _same(v, t)
    else:    # a rejected call leaves every input as it was
        for v, old in zip(volta_args, before):
            if v is not None:
                np.testing.assert_array_equal(_numpy(v), old)


@pytest.mark.parametrize("device", ["cpu", "wgpu"])
def test_native_batch_norm_rejects_statistics_of_another_length_before_updating(
        device: str) -> None:
    x = volta.tensor(_data((2, 4, 3), "float32")).to(device)
    running_mean = volta.zeros(4).to(device)
    running_var = volta.ones(3).to(device)
    with pytest.raises(volta.VoltaError, match="running_var should contain 4 elements not 3"):
        volta.native_batch_norm(x, None, None, running_mean, running_var, True, 0.1, 1e-5)
    np.testing.assert_array_equal(running_mean.cpu().numpy(), np.zeros(4, np.float32))


# -- native_layer_norm --------------------------------------------------------------------------

LAYER_NORM_CASES = [
    # (input dtype, weight, bias): a dtype name or None
    ("float16", None, "int16"),          # mixed dtypes
    ("float32", "float16", None),
    ("float32", None, "float64"),
    ("float32", "bool", None),
    ("float16", "float32", "float16"),
    ("float16", "float16", "float32"),
    ("float64", "float32", "float32"),
    ("float32", "float32", "float64"),
    ("int64", None, None),               # a non-floating input
    ("bool", None, None),
    ("float32", "float32", "float32"),   # accepted
    ("float16", "float16", "float16"),
    ("float16", None, None),
    ("bfloat16", None, None),
    ("float16", "float32", None),        # the mixed mode
    ("bfloat16", "float32", "float32"),
]


@pytest.mark.parametrize("device", ["cpu", "wgpu"])
@pytest.mark.parametrize("case", LAYER_NORM_CASES, ids=repr)
def test_native_layer_norm_dtypes_as_pytorch(case: tuple, device: str) -> None:
    if device == "wgpu" and not {d for d in case if d} <= {"float32", "float16"}:
        return
    shapes = [(2, 5), (5,), (5,)]
    arrays = [None if d is None else _data(s, d, seed) for seed, (s, d) in
              enumerate(zip(shapes, case))]

    def call(lib: Any, dev: str) -> Any:
        x, weight, bias = (None if a is None else _tensor(lib, a, d, dev)
                           for a, d in zip(arrays, case))
        return lib.native_layer_norm(x, [5], weight, bias, 1e-5)

    _agree(lambda: call(volta, device), lambda: call(torch, "cpu"))


@pytest.mark.parametrize("device", ["cpu", "wgpu"])
@pytest.mark.parametrize("weight_shape", [(4,), (1, 5), (5,)])
def test_native_layer_norm_weight_of_normalized_shape(weight_shape: tuple, device: str) -> None:
    data, weight = _data((2, 5), "float32"), _data(weight_shape, "float32", 1)
    _agree(lambda: volta.native_layer_norm(_tensor(volta, data, "float32", device), [5],
                                           _tensor(volta, weight, "float32", device), None, 1e-5),
           lambda: torch.native_layer_norm(torch.tensor(data), [5], torch.tensor(weight), None,
                                           1e-5))


# -- pooling, local_response_norm and grid_sample dtypes ----------------------------------------

POOL_CALLS = {
    "adaptive_avg_pool1d": lambda F, x: F.adaptive_avg_pool1d(x.reshape(2, 3, 4), 2),
    "adaptive_avg_pool2d": lambda F, x: F.adaptive_avg_pool2d(x.reshape(2, 3, 4), 2),
    "adaptive_avg_pool3d": lambda F, x: F.adaptive_avg_pool3d(x.reshape(1, 2, 3, 4), 2),
    "adaptive_max_pool1d": lambda F, x: F.adaptive_max_pool1d(x.reshape(2, 3, 4), 2),
    "adaptive_max_pool2d": lambda F, x: F.adaptive_max_pool2d(x.reshape(2, 3, 4), 2),
    "adaptive_max_pool3d": lambda F, x: F.adaptive_max_pool3d(x.reshape(1, 2, 3, 4), 2),
    "adaptive_max_pool1d_indices": lambda F, x: F.adaptive_max_pool1d(x.reshape(2, 3, 4), 2,
                                                                      return_indices=True),
    "adaptive_max_pool3d_indices": lambda F, x: F.adaptive_max_pool3d(x.reshape(1, 2, 3, 4), 2,
                                                                      return_indices=True),
    "avg_pool1d": lambda F, x: F.avg_pool1d(x.reshape(2, 3, 4), 2),
    "avg_pool2d": lambda F, x: F.avg_pool2d(x.reshape(2, 3, 4), 2),
    "avg_pool3d": lambda F, x: F.avg_pool3d(x.reshape(1, 2, 3, 4), 2),
    "max_pool1d": lambda F, x: F.max_pool1d(x.reshape(2, 3, 4), 2),
    "max_pool1d_indices": lambda F, x: F.max_pool1d(x.reshape(2, 3, 4), 2, return_indices=True),
    "max_pool2d": lambda F, x: F.max_pool2d(x.reshape(2, 3, 4), 2),
    "max_pool3d_indices": lambda F, x: F.max_pool3d(x.reshape(1, 2, 3, 4), 2,
                                                    return_indices=True),
    "local_response_norm": lambda F, x: F.local_response_norm(x.reshape(2, 3, 4), 2),
    "local_response_norm_4d": lambda F, x: F.local_response_norm(x.reshape(1, 2, 3, 4), 2),
    "grid_sample": lambda F, x: F.grid_sample(x.reshape(1, 2, 3, 4), x.reshape(1, 3, 4, 2) / 5,
                                              align_corners=False),
}


@pytest.mark.parametrize("device", ["cpu", "wgpu"])
@pytest.mark.parametrize("dtype", ["float16", "bfloat16", "float32", "float64", "uint8", "int8",
                                   "int16", "int32", "int64", "bool"])
@pytest.mark.parametrize("op", sorted(POOL_CALLS))
def test_pooling_dtypes_as_pytorch(op: str, dtype: str, device: str) -> None:
    if device == "wgpu" and dtype not in WGPU_DTYPES:
        return
    data = (np.arange(24) % 5).astype(np.float32)
    call = POOL_CALLS[op]
    _agree(lambda: call(volta.nn.functional, _tensor(volta, data, dtype, device)),
           lambda: call(torch.nn.functional, _tensor(torch, data, dtype)))


@pytest.mark.parametrize("grid_dtype", ["float16", "float32", "float64"])
def test_grid_sample_grid_of_the_input_dtype(grid_dtype: str) -> None:
    data, grid = _data((1, 2, 3, 4), "float32"), _data((1, 3, 4, 2), "float32", 1) / 3

    def call(lib: Any) -> Any:
        return lib.nn.functional.grid_sample(_tensor(lib, data, "float32"),
                                             _tensor(lib, grid, grid_dtype), align_corners=False)

    _agree(lambda: call(volta), lambda: call(torch))


# -- dropout's arguments, prelu's dtypes, padding nothing, unfold's int lists -------------------

@pytest.mark.parametrize("op", ["dropout", "alpha_dropout", "feature_alpha_dropout"])
@pytest.mark.parametrize("args", [(), (0.5,), (0.5, False)], ids=repr)
def test_dropout_functions_take_p_and_train_as_pytorch(op: str, args: tuple) -> None:
    data = _data((3, 2, 2), "float32")
    _agree(lambda: getattr(volta, op)(_tensor(volta, data, "float32"), *args),
           lambda: getattr(torch, op)(_tensor(torch, data, "float32"), *args))


@pytest.mark.parametrize("device", ["cpu", "wgpu"])
@pytest.mark.parametrize("dtypes", [("bfloat16", "int64"), ("float32", "float64"),
                                    ("float16", "float32"), ("int64", "float32"),
                                    ("float32", "bool"), ("int64", "int64"), ("int32", "int32"),
                                    ("bool", "bool"), ("float32", "float32"),
                                    ("float16", "float16")], ids=repr)
@pytest.mark.parametrize("shape", [(), (2, 3)])
def test_prelu_dtypes_as_pytorch(shape: tuple, dtypes: tuple, device: str) -> None:
    if device == "wgpu" and not set(dtypes) <= WGPU_DTYPES:
        return
    data, weight = _data(shape, dtypes[0]), np.array([0.25], np.float32)
    weight = weight.reshape(()) if not shape else weight

    def call(lib: Any, dev: str) -> Any:
        return lib.nn.functional.prelu(_tensor(lib, data, dtypes[0], dev),
                                       _tensor(lib, weight, dtypes[1], dev))

    _agree(lambda: call(volta, device), lambda: call(torch, "cpu"))


@pytest.mark.parametrize("device", ["cpu", "wgpu"])
@pytest.mark.parametrize("dtype", ["uint8", "int8", "float32", "bool", "int64"])
@pytest.mark.parametrize("shape", [(), (2, 3)])
def test_padding_nothing_as_pytorch(shape: tuple, dtype: str, device: str) -> None:
    if device == "wgpu" and dtype not in WGPU_DTYPES:
        return
    data = _data(shape, dtype)
    _agree(lambda: volta.constant_pad_nd(_tensor(volta, data, dtype, device), []),
           lambda: torch.constant_pad_nd(_tensor(torch, data, dtype), []))
    _agree(lambda: volta.nn.functional.pad(_tensor(volta, data, dtype, device), []),
           lambda: torch.nn.functional.pad(_tensor(torch, data, dtype), []))


UNFOLD_ARGS = [(1, 1099511627776, 1.5), (1, 1, 1.5), (1.0, 1, 0), (1, 1, 0, 1.0), (2, 1, 0, 1),
               ((1, 2), (1, 1), 0, [1, 1.0]), ((1, 2), 1, (0, 1), 1)]


@pytest.mark.parametrize("args", UNFOLD_ARGS, ids=repr)
def test_unfold_takes_ints_as_pytorch(args: tuple) -> None:
    data = _data((1, 2, 3, 4), "float32")
    _agree(lambda: volta.nn.functional.unfold(_tensor(volta, data, "float32"), *args),
           lambda: torch.nn.functional.unfold(_tensor(torch, data, "float32"), *args))


@pytest.mark.parametrize("args", [((3, 4), 1, 1, 0, 1), ((3, 4), 1, 1, 1.5, 1),
                                  ((3, 4), 1.0, 1, 0, 1), ((3.0, 4), 1, 1, 0, 1)], ids=repr)
def test_fold_takes_ints_as_pytorch(args: tuple) -> None:
    data = _data((1, 2, 12), "float32")
    _agree(lambda: volta.nn.functional.fold(_tensor(volta, data, "float32"), *args),
           lambda: torch.nn.functional.fold(_tensor(torch, data, "float32"), *args))


@pytest.mark.parametrize("device", ["cpu", "wgpu"])
@pytest.mark.parametrize("training", [True, False])
@pytest.mark.parametrize("shape", [(1, 3, 1), (1, 3), (0, 3), (2, 0), (2, 3, 0)])
def test_native_batch_norm_of_few_values_as_pytorch(shape: tuple, training: bool,
                                                    device: str) -> None:
    """One value per channel is the op's to take (batch_norm rejects it); training on nothing
    is not. Whole numbers: PyTorch's CPU kernel leaves a rounding error in ``x - mean`` of a
    single value, times 1 / sqrt(eps)."""
    data = np.arange(math.prod(shape), dtype=np.float32).reshape(shape) % 3

    def call(lib: Any, dev: str) -> tuple:
        stats = (_tensor(lib, np.zeros(shape[1], np.float32), "float32", dev),
                 _tensor(lib, np.ones(shape[1], np.float32), "float32", dev))
        result = lib.native_batch_norm(_tensor(lib, data, "float32", dev), None, None, *stats,
                                       training, 0.1, 1e-5)
        return tuple(result) + stats

    _agree(lambda: call(volta, device), lambda: call(torch, "cpu"))


ADAPTIVE_SIZES = [[4], [2, 2], [2, 2, 2], [], (2,), 2, None, [None, 2], [None, 2, 2], 2.0, [2.0],
                  [2, 2.0, 2], "ab", _NotANumber()]


@pytest.mark.parametrize("return_indices", [False, True])
@pytest.mark.parametrize("output_size", ADAPTIVE_SIZES, ids=repr)
@pytest.mark.parametrize("op", ["adaptive_avg_pool1d", "adaptive_max_pool1d",
                                "adaptive_avg_pool2d", "adaptive_max_pool2d",
                                "adaptive_avg_pool3d", "adaptive_max_pool3d"])
def test_adaptive_pool_output_size_as_pytorch(op: str, output_size: Any,
                                              return_indices: bool) -> None:
    if return_indices and "max" not in op:
        return
    data = _data((2, 4, 4, 4)[:3 if op.endswith("1d") else 4], "float32")
    extra = (True,) if return_indices else ()
    _agree(lambda: getattr(volta.nn.functional, op)(_tensor(volta, data, "float32"),
                                                    output_size, *extra),
           lambda: getattr(torch.nn.functional, op)(_tensor(torch, data, "float32"),
                                                    output_size, *extra))


@pytest.mark.parametrize("op", ["adaptive_avg_pool1d", "adaptive_max_pool1d",
                                "adaptive_avg_pool2d", "adaptive_max_pool2d",
                                "adaptive_avg_pool3d", "adaptive_max_pool3d"])
def test_adaptive_pool_of_a_non_tensor_is_an_argument_error(op: str) -> None:
    _agree(lambda: getattr(volta.nn.functional, op)("x", []),
           lambda: getattr(torch.nn.functional, op)("x", []))


@pytest.mark.parametrize("device", ["cpu", "wgpu"])
@pytest.mark.parametrize("dtype", ["float32", "float16"])
@pytest.mark.parametrize("shape", [(1, 3, 1), (4, 3, 2)])
def test_native_batch_norm_of_zero_variance_without_eps(shape: tuple, dtype: str,
                                                        device: str) -> None:
    """PyTorch's convention: a zero variance with eps 0 gives an inverse deviation of 0 (and a
    zero output), not inf and NaN."""
    data = np.full(shape, 2.0, np.float32)
    _agree(lambda: volta.native_batch_norm(_tensor(volta, data, dtype, device), None, None, None,
                                           None, True, 0.0, 0),
           lambda: torch.native_batch_norm(_tensor(torch, data, dtype), None, None, None, None,
                                           True, 0.0, 0))


@pytest.mark.parametrize("extra", [(), (True,), (False,)], ids=repr)
def test_batch_norm_op_requires_cudnn_enabled_as_pytorch(extra: tuple) -> None:
    data = _data((4, 3, 2), "float32")
    _agree(lambda: volta.batch_norm(_tensor(volta, data, "float32"), None, None, None, None,
                                    True, 0.1, 1e-5, *extra),
           lambda: torch.batch_norm(_tensor(torch, data, "float32"), None, None, None, None,
                                    True, 0.1, 1e-5, *extra))


@pytest.mark.parametrize("device", ["cpu", "wgpu"])
@pytest.mark.parametrize("dtype", ["int8", "uint8", "int16", "int32", "int64", "float32"])
@pytest.mark.parametrize("args", [dict(kernel_size=2, ceil_mode=True),
                                  dict(kernel_size=3, stride=2, padding=1),
                                  dict(kernel_size=[2], stride=[], ceil_mode=True)], ids=repr)
@pytest.mark.parametrize("fill", [None, "least"])
def test_max_pool_of_integers_past_the_edge_as_pytorch(fill: Any, args: dict, dtype: str,
                                                       device: str) -> None:
    """Windows reaching past the input (padding, ceil_mode) of an integer dtype, also where
    every value is the dtype's least."""
    if device == "wgpu" and dtype not in WGPU_DTYPES:
        return
    low = 0 if dtype == "uint8" else -128
    data = np.random.default_rng(0).integers(low, 127, (1, 2, 3, 5)) if fill is None else \
        np.full((1, 2, 3, 5), low)
    data = data.astype(np.float32)
    _agree(lambda: volta.nn.functional.max_pool2d(_tensor(volta, data, dtype, device),
                                                  return_indices=True, **args),
           lambda: torch.nn.functional.max_pool2d(_tensor(torch, data, dtype),
                                                  return_indices=True, **args))


@pytest.mark.parametrize("device", ["cpu", "wgpu"])
@pytest.mark.parametrize("shape", [(2, 3, 5), (3, 5)])
@pytest.mark.parametrize("output_size", [[2], [0], 3])
def test_adaptive_max_pool1d_op_returns_values_and_indices(output_size: Any, shape: tuple,
                                                           device: str) -> None:
    data = _data(shape, "float32")
    _agree(lambda: volta.adaptive_max_pool1d(_tensor(volta, data, "float32", device),
                                             output_size),
           lambda: torch.adaptive_max_pool1d(_tensor(torch, data, "float32"), output_size))
    _agree(lambda: volta.nn.functional.adaptive_max_pool1d(
               _tensor(volta, data, "float32", device), output_size),
           lambda: torch.nn.functional.adaptive_max_pool1d(_tensor(torch, data, "float32"),
                                                           output_size))
