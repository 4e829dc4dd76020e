"""The compiled float32 plane kernels (volta/backends/cpu/native/planes.c) against PyTorch, through
the ops that use them: batch norm (training and eval, with and without weight and bias, forward
and backward, the running statistics), global average pooling and the mean over the spatial
dims. Shapes with N = 1, C = 1, one spatial element (numpy's path, and the kernels forced onto
it), odd sizes, planes of NaN and inf, values far
from zero, and the same results on 1, 2 and 3 threads. With VOLTA_NATIVE=0 the same tests check
the numpy path."""

from __future__ import annotations

import numpy as np
import pytest
import torch

import volta
import volta.nn.functional as VF
from volta.backends.cpu import native, planes

SHAPES = [(4, 3, 5, 7), (1, 6, 9, 9), (5, 1, 4, 5), (2, 3, 17), (3, 4, 33), (7, 5, 1, 1), (6, 5)]


def _data(shape: tuple[int, ...], seed: int = 0, scale: float = 1.0, shift: float = 0.0
          ) -> np.ndarray:
    rng = np.random.default_rng(seed)
    return (rng.standard_normal(shape) * scale + shift).astype(np.float32)


def _numpy(t: volta.Tensor | torch.Tensor) -> np.ndarray:
    return np.array(t.detach().numpy())


def _close(got: volta.Tensor, expected: torch.Tensor, **tolerance: float) -> None:
    assert tuple(got.shape) == tuple(expected.shape)
    assert got.dtype == volta.float32
    torch.testing.assert_close(torch.from_numpy(_numpy(got)), expected.detach(), equal_nan=True,
                               **tolerance)


def _batch_norm(x: np.ndarray, training: bool, affine: bool, upstream: np.ndarray,
                **tolerance: float) -> list[np.ndarray]:
    """volta's batch norm forward and backward against PyTorch's; volta's results."""
    c = x.shape[1]
    params = [_data((c,), 1) + 1, _data((c,), 2)] if affine else [None, None]
    stats = [_data((c,), 3), np.abs(_data((c,), 4)) + 0.5]
    t_x = torch.tensor(x, requires_grad=True)
    v_x = volta.tensor(x, requires_grad=True)
    t_p = [None if p is None else torch.tensor(p, requires_grad=True) for p in params]
    v_p = [None if p is None else volta.tensor(p, requires_grad=True) for p in params]
    t_s = [torch.tensor(s) for s in stats]
    v_s = [volta.tensor(s) for s in stats]
    ty = torch.nn.functional.batch_norm(t_x, *t_s, *t_p, training=training, momentum=0.3)
    vy = VF.batch_norm(v_x, *v_s, *v_p, training=training, momentum=0.3)
    _close(vy, ty, **tolerance)
    for v, t in zip(v_s, t_s):
        _close(v, t)
    ty.backward(torch.tensor(upstream))
    vy.backward(volta.tensor(upstream))
    _close(v_x.grad, t_x.grad, **tolerance)
    for v, t in zip(v_p, t_p):
        if v is not None:
            _close(v.grad, t.grad, **tolerance)
    results = [_numpy(vy), _numpy(v_x.grad)] + [_numpy(v) for v in v_s]
    return results + [_numpy(v.grad) for v in v_p if v is not None]


@pytest.mark.parametrize("shape", SHAPES)
@pytest.mark.parametrize("training", [True, False])
@pytest.mark.parametrize("affine", [True, False])
def test_batch_norm_forward_backward(shape: tuple[int, ...], training: bool,
                                     affine: bool) -> None:
    if training and shape[0] * int(np.prod(shape[2:])) == 1:
        return  # one value per channel: PyTorch rejects it in training (tested elsewhere)
    _batch_norm(_data(shape, scale=2, shift=0.5), training, affine, _data(shape, 5))


@pytest.mark.parametrize("shape", [(7, 5, 1, 1), (6, 5), (1, 3, 2), (5, 1, 3, 3)])
@pytest.mark.parametrize("training", [True, False])
def test_batch_norm_kernels_on_short_planes(monkeypatch: pytest.MonkeyPatch,
                                            shape: tuple[int, ...], training: bool) -> None:
    # planes this short normally take the numpy path; the kernels must still be right on them
    monkeypatch.setattr(planes, "MIN_BATCH_NORM_LENGTH", 1)
    _batch_norm(_data(shape, scale=2, shift=0.5), training, True, _data(shape, 5))


def test_batch_norm_of_values_far_from_zero_keeps_the_variance() -> None:
    # values near 1000 with a deviation of 0.01: a one-pass E[x^2] - E[x]^2 loses the variance,
    # and a mean off by one float32 ulp (6e-5) shifts every output by 0.006. Against float64
    # (PyTorch's own result is off by 0.004 here); the compiled path is close to exact.
    x = _data((8, 3, 17, 19), scale=0.01, shift=1000)
    wide = x.astype(np.float64)
    mean, var = wide.mean((0, 2, 3), keepdims=True), wide.var((0, 2, 3), keepdims=True)
    expected = (wide - mean) / np.sqrt(var + 1e-5)
    got = _numpy(VF.batch_norm(volta.tensor(x), None, None, training=True))
    tolerance = 1e-4 if native.kernels("planes") is not None else 1e-2
    np.testing.assert_allclose(got, expected, rtol=0, atol=tolerance)


def test_batch_norm_of_a_feature_map_on_several_thread_splits() -> None:
    shape = (16, 16, 32, 32)  # big enough to be split over threads
    _batch_norm(_data(shape, scale=3), True, True, _data(shape, 5), rtol=2e-4, atol=2e-4)


@pytest.mark.parametrize("training", [True, False])
def test_batch_norm_with_nan_and_inf_planes(training: bool) -> None:
    x = _data((3, 4, 5, 5))
    x[0, 1, 2, 2] = np.nan
    x[1, 2] = np.inf
    x[2, 3, 0, 0] = -np.inf
    _batch_norm(x, training, True, _data(x.shape, 5))


def test_batch_norm_backward_with_an_upstream_gradient_holding_nan() -> None:
    x = _data((3, 4, 20))
    upstream = _data(x.shape, 5)
    upstream[1, 0, 3] = np.nan
    upstream[2, 3, 1] = np.inf
    _batch_norm(x, True, True, upstream)


def test_batch_norm_of_a_non_contiguous_input_uses_the_numpy_path_and_agrees() -> None:
    x = _data((5, 4, 6, 3)).transpose(0, 1, 3, 2)
    _batch_norm(np.ascontiguousarray(x), True, True, _data((5, 4, 3, 6), 5))
    t = torch.tensor(x)
    v = volta.tensor(np.ascontiguousarray(x)).transpose(2, 3).contiguous().transpose(2, 3)
    ones, zeros = torch.ones(4), torch.zeros(4)
    _close(VF.batch_norm(v, volta.zeros(4), volta.ones(4), training=True),
           torch.nn.functional.batch_norm(t, zeros, ones, training=True))


@pytest.mark.parametrize("shape", [(4, 3, 5, 7), (1, 1, 1, 1), (2, 64, 7, 7), (3, 5, 1, 9)])
def test_global_average_pool_and_spatial_mean(shape: tuple[int, ...]) -> None:
    x = _data(shape, scale=3, shift=2)
    for op in (lambda f, t: f.adaptive_avg_pool2d(t, 1), lambda f, t: t.mean((2, 3))):
        t_x = torch.tensor(x, requires_grad=True)
        v_x = volta.tensor(x, requires_grad=True)
        ty, vy = op(torch.nn.functional, t_x), op(VF, v_x)
        _close(vy, ty)
        upstream = _data(tuple(ty.shape), 5)
        ty.backward(torch.tensor(upstream))
        vy.backward(volta.tensor(upstream))
        _close(v_x.grad, t_x.grad)


def test_global_average_pool_of_nan_and_inf_planes() -> None:
    x = _data((2, 4, 6, 6))
    x[0, 0, 1, 1] = np.nan
    x[0, 1] = np.inf
    x[1, 2, 0, 0], x[1, 2, 0, 1] = np.inf, -np.inf
    _close(VF.adaptive_avg_pool2d(volta.tensor(x), 1),
           torch.nn.functional.adaptive_avg_pool2d(torch.tensor(x), 1))


@pytest.mark.parametrize("threads", [2, 3])
def test_results_do_not_depend_on_the_thread_count(threads: int) -> None:
    shape = (8, 6, 40, 40)
    x, upstream = _data(shape, scale=2), _data(shape, 5)
    before = volta.get_num_threads()
    try:
        results = []
        for count in (1, threads):
            volta.set_num_threads(count)
            found = []
            for training in (True, False):
                found += _batch_norm(x, training, True, upstream, rtol=2e-4, atol=2e-4)
            found.append(_numpy(VF.adaptive_avg_pool2d(volta.tensor(x), 1)))
            results.append(found)
    finally:
        volta.set_num_threads(before)
    for one, many in zip(*results):
        np.testing.assert_array_equal(one, many)
