"""The compiled float32 row kernels (volta/backends/cpu/native/rowwise.c) against PyTorch, through
the ops that use them: softmax, log_softmax, logsumexp, layer norm, cross_entropy and nll_loss
(class weights, ignore_index, every reduction), sum/mean/amax/amin over the last dim, the full
sum and mse_loss, forward and backward. Row widths around the vector lengths (1, 15, 17) and
long ones (1000, 4097), rows of -inf, NaN and inf, zero rows, and the same values on 1, 2 and 3
threads. With VOLTA_NATIVE=0 the same tests check the numpy path."""

from __future__ import annotations

import numpy as np
import pytest
import torch

import volta
import volta.nn.functional as VF
from volta.backends.cpu import native

WIDTHS = [1, 15, 17, 1000, 4097]


def _data(shape: tuple[int, ...], seed: int = 0, scale: float = 1.0) -> np.ndarray:
    return (np.random.default_rng(seed).standard_normal(shape) * scale).astype(np.float32)


def _close(got: volta.Tensor, expected: torch.Tensor, **tolerance: float) -> None:
    assert tuple(got.shape) == tuple(expected.shape)
    assert got.dtype == volta.float32
    torch.testing.assert_close(torch.from_numpy(np.array(got.detach().numpy())),
                               expected.detach(), equal_nan=True, **tolerance)


def _forward_backward(fn_volta, fn_torch, arrays: list[np.ndarray], grads: tuple[int, ...],
                      seed: int = 1, **tolerance: float) -> None:
    """Both functions on the same inputs; outputs and the gradients of ``grads`` agree."""
    t_in = [torch.tensor(a, requires_grad=i in grads) for i, a in enumerate(arrays)]
    v_in = [volta.tensor(a, requires_grad=i in grads) for i, a in enumerate(arrays)]
    ty, vy = fn_torch(*t_in), fn_volta(*v_in)
    _close(vy, ty, **tolerance)
    if not grads:
        return
    upstream = _data(tuple(ty.shape), seed)
    ty.backward(torch.tensor(upstream))
    vy.backward(volta.tensor(upstream))
    for i in grads:
        _close(v_in[i].grad, t_in[i].grad, **tolerance)


@pytest.mark.parametrize("width", WIDTHS)
@pytest.mark.parametrize("op", ["softmax", "log_softmax"])
def test_softmax_forward_backward(op: str, width: int) -> None:
    _forward_backward(lambda x: getattr(x, op)(-1), lambda x: getattr(x, op)(-1),
                      [_data((5, width), scale=3)], (0,))


@pytest.mark.parametrize("op", ["softmax", "log_softmax"])
def test_softmax_of_3d_input_over_its_last_dim(op: str) -> None:
    _forward_backward(lambda x: getattr(x, op)(2), lambda x: getattr(x, op)(2),
                      [_data((2, 3, 33), scale=5) + 40], (0,))


@pytest.mark.parametrize("op", ["softmax", "log_softmax", "logsumexp"])
def test_rows_of_inf_nan_and_huge_values(op: str) -> None:
    x = _data((7, 19), scale=2)
    x[0] = -np.inf  # all -inf: softmax nan, logsumexp -inf
    x[1, 3] = np.nan
    x[2, 5] = np.inf
    x[3, :4] = -np.inf  # some -inf: exact zeros (-inf for log_softmax)
    x[4] = 3e38  # sums overflow unless shifted
    x[5] = -1e30
    x[6, 0], x[6, 1] = np.inf, -np.inf
    if op == "logsumexp":
        _close(volta.tensor(x).logsumexp(1), torch.tensor(x).logsumexp(1))
    else:
        _close(getattr(volta.tensor(x), op)(1), getattr(torch.tensor(x), op)(1))


def test_softmax_backward_with_inf_rows() -> None:
    x = _data((3, 16), scale=2)
    x[1, :5] = -np.inf
    for op in ("softmax", "log_softmax"):
        _forward_backward(lambda v: getattr(v, op)(1), lambda t: getattr(t, op)(1), [x], (0,))


@pytest.mark.parametrize("width", WIDTHS)
def test_logsumexp_forward_backward(width: int) -> None:
    _forward_backward(lambda x: x.logsumexp(1), lambda x: x.logsumexp(1),
                      [_data((6, width), scale=4)], (0,))
    _forward_backward(lambda x: x.logsumexp(-1, keepdim=True),
                      lambda x: x.logsumexp(-1, keepdim=True), [_data((2, 3, width))], (0,))


@pytest.mark.parametrize("affine", ["both", "weight", "bias", "none"])
@pytest.mark.parametrize("width", WIDTHS)
def test_layer_norm_forward_backward(width: int, affine: str) -> None:
    x = _data((9, width), scale=2) + 3
    weight, bias = _data((width,), 2) + 1, _data((width,), 3)
    arrays = [x] + ([weight] if affine in ("both", "weight") else []) + (
        [bias] if affine in ("both", "bias") else [])

    def run(lib, x, *params):
        w = params[0] if affine in ("both", "weight") else None
        b = params[-1] if affine in ("both", "bias") else None
        return lib.nn.functional.layer_norm(x, (width,), w, b, eps=1e-5)

    # one element per row: the input's gradient is exactly 0, which PyTorch computes as a
    # difference of terms of rstd = 1 / sqrt(eps) ~ 316, with rounding noise of ~1e-4
    _forward_backward(lambda *a: run(volta, *a), lambda *a: run(torch, *a), arrays,
                      tuple(range(len(arrays))), atol=2e-4 if width == 1 else 2e-5, rtol=2e-5)


@pytest.mark.parametrize("grads", [(0,), (1,), (2,), (1, 2), (0, 2)])
def test_layer_norm_gradients_of_some_inputs(grads: tuple[int, ...]) -> None:
    # rows not a multiple of the 16-row slabs the parameter gradients are summed in
    arrays = [_data((37, 100)), _data((100,), 2) + 1, _data((100,), 3)]
    _forward_backward(lambda x, w, b: VF.layer_norm(x, (100,), w, b),
                      lambda x, w, b: torch.nn.functional.layer_norm(x, (100,), w, b),
                      arrays, grads, atol=2e-5, rtol=2e-5)


def test_layer_norm_over_two_trailing_dims_and_constant_rows() -> None:
    x = _data((4, 3, 8))
    x[1] = 2.5  # variance 0: rstd = 1 / sqrt(eps)
    w, b = _data((3, 8), 4), _data((3, 8), 5)
    _forward_backward(lambda x, w, b: VF.layer_norm(x, (3, 8), w, b),
                      lambda x, w, b: torch.nn.functional.layer_norm(x, (3, 8), w, b),
                      [x, w, b], (0, 1, 2), atol=2e-5, rtol=2e-5)


def test_layer_norm_of_rows_with_nan_and_inf() -> None:
    x = _data((4, 33))
    x[1, 3] = np.nan
    x[2, 7] = np.inf
    x[3] = 1e30  # a constant huge row: centred exactly to 0
    _close(VF.layer_norm(volta.tensor(x), (33,)),
           torch.nn.functional.layer_norm(torch.tensor(x), (33,)))


def test_layer_norm_statistics_match_torch() -> None:
    x = _data((6, 40)) * 3 + 1
    out, mean, rstd = volta.native_layer_norm(volta.tensor(x), [40], None, None, 1e-5)
    t_out, t_mean, t_rstd = torch.native_layer_norm(torch.tensor(x), [40], None, None, 1e-5)
    _close(out, t_out)
    _close(mean, t_mean)
    _close(rstd, t_rstd)


@pytest.mark.parametrize("reduction", ["mean", "sum", "none"])
@pytest.mark.parametrize("weighted", [False, True])
@pytest.mark.parametrize("ignore_index", [-100, 2])
def test_cross_entropy_and_nll_loss(reduction: str, weighted: bool, ignore_index: int) -> None:
    rows, classes = 12, 17
    logits = _data((rows, classes), scale=3)
    target = np.random.default_rng(4).integers(0, classes, rows)
    target[[1, 5]] = 2  # some rows of the ignored class where ignore_index is 2
    weight = np.abs(_data((classes,), 6)) + 0.1
    for fn_name in ("cross_entropy", "nll_loss"):
        def call(lib, x, w, fn_name=fn_name):
            t = lib.tensor(target)
            return getattr(lib.nn.functional, fn_name)(
                x, t, weight=w if weighted else None, reduction=reduction,
                ignore_index=ignore_index)

        _forward_backward(lambda x, w: call(volta, x, w), lambda x, w: call(torch, x, w),
                          [logits, weight], (0,))


def test_losses_where_every_target_is_ignored_are_nan_as_torch() -> None:
    logits = _data((4, 5))
    target = np.full(4, 3)
    for fn_name in ("cross_entropy", "nll_loss"):
        _forward_backward(
            lambda x: getattr(VF, fn_name)(x, volta.tensor(target), ignore_index=3),
            lambda x: getattr(torch.nn.functional, fn_name)(x, torch.tensor(target),
                                                            ignore_index=3),
            [logits], (0,))


def test_nll_loss_target_out_of_range_raises() -> None:
    with pytest.raises(volta.errors.IndexOutOfRangeError):
        VF.nll_loss(volta.tensor(_data((3, 4))), volta.tensor(np.array([0, 4, 1])))
    with pytest.raises(volta.errors.IndexOutOfRangeError):
        VF.nll_loss(volta.tensor(_data((3, 4))), volta.tensor(np.array([0, -1, 1])),
                    reduction="none")


@pytest.mark.parametrize("width", WIDTHS)
@pytest.mark.parametrize("op", ["sum", "mean", "amax", "amin"])
def test_last_dim_reductions_forward_backward(op: str, width: int) -> None:
    x = _data((70, width), scale=3)
    x[3, : width // 2] = x[3, -1]  # ties: amax/amin share the gradient among them
    tolerance = {}
    if op in ("sum", "mean"):
        # a float32 sum's rounding is relative to the sum of magnitudes, and its terms cancel:
        # both frameworks are compared with the exact (float64) sum, within that bound
        scale = np.abs(x).sum(1).max() / (width if op == "mean" else 1)
        tolerance = {"atol": 6e-8 * scale, "rtol": 1.3e-6}
    for keepdim in (False, True):
        exact = getattr(torch.tensor(x, dtype=torch.float64), op)(-1, keepdim=keepdim)
        torch.testing.assert_close(getattr(torch.tensor(x), op)(-1, keepdim=keepdim),
                                   exact.float(), **tolerance)
        _close(getattr(volta.tensor(x), op)(-1, keepdim=keepdim), exact.float(), **tolerance)
        _forward_backward(lambda v: getattr(v, op)(-1, keepdim=keepdim),
                          lambda t: getattr(t, op)(-1, keepdim=keepdim), [x], (0,),
                          **tolerance)


@pytest.mark.parametrize("op", ["sum", "mean", "amax", "amin"])
def test_last_dim_reductions_with_nan_and_inf(op: str) -> None:
    x = _data((6, 130), scale=3)
    x[0, 7] = np.nan
    x[1, 100] = np.inf
    x[2, 0] = -np.inf
    x[3, 5], x[3, 6] = np.inf, -np.inf
    x[4] = np.nan
    _close(getattr(volta.tensor(x), op)(1), getattr(torch.tensor(x), op)(1))


@pytest.mark.parametrize("size", [4096, 8193, 100_003])
def test_full_sum_and_mean(size: int) -> None:
    x = _data((size,)) + 0.5
    _forward_backward(lambda v: v.sum(), lambda t: t.sum(), [x], (0,))
    _forward_backward(lambda v: v.mean(), lambda t: t.mean(), [x.reshape(1, -1)], (0,))
    x[size // 2] = np.nan
    _close(volta.tensor(x).sum(), torch.tensor(x).sum())


@pytest.mark.parametrize("reduction", ["mean", "sum", "none"])
def test_mse_loss(reduction: str) -> None:
    a, b = _data((64, 300)), _data((64, 300), 2)
    _forward_backward(lambda x, y: VF.mse_loss(x, y, reduction=reduction),
                      lambda x, y: torch.nn.functional.mse_loss(x, y, reduction=reduction),
                      [a, b], (0, 1))


@pytest.mark.parametrize("op", ["softmax", "log_softmax", "logsumexp", "sum", "amax"])
def test_zero_rows_and_empty_rows(op: str) -> None:
    x = np.zeros((0, 17), np.float32)
    _close(getattr(volta.tensor(x), op)(1), getattr(torch.tensor(x), op)(1))
    if op in ("softmax", "log_softmax", "logsumexp", "sum"):
        e = np.zeros((3, 0), np.float32)
        _close(getattr(volta.tensor(e), op)(1), getattr(torch.tensor(e), op)(1))
    x = np.zeros((0, 17), np.float32)
    _close(VF.layer_norm(volta.tensor(x), (17,)), torch.nn.functional.layer_norm(
        torch.tensor(x), (17,)))


def _everything(x: np.ndarray, target: np.ndarray) -> list[np.ndarray]:
    """The results of every routed op, forward and backward, as arrays."""
    results = []
    for op in ("softmax", "log_softmax"):
        v = volta.tensor(x, requires_grad=True)
        y = getattr(v, op)(1)
        y.backward(volta.tensor(x[::-1].copy()))
        results += [y.detach().numpy(), v.grad.numpy()]
    v = volta.tensor(x, requires_grad=True)
    w, b = volta.tensor(x[0], requires_grad=True), volta.tensor(x[1], requires_grad=True)
    y = VF.layer_norm(v, (x.shape[1],), w, b)
    y.backward(volta.tensor(x[::-1].copy()))
    results += [y.detach().numpy(), v.grad.numpy(), w.grad.numpy(), b.grad.numpy()]
    v = volta.tensor(x)
    results += [v.logsumexp(1).numpy(), v.sum(1).numpy(), v.mean(1).numpy(),
                v.amax(1).numpy(), v.sum().numpy(),
                VF.cross_entropy(v, volta.tensor(target)).numpy(),
                VF.mse_loss(v, volta.tensor(x[::-1].copy())).numpy()]
    return [np.array(r) for r in results]


@pytest.mark.parametrize("threads", [2, 3])
def test_results_do_not_depend_on_the_thread_count(threads: int) -> None:
    x = _data((200, 1000), scale=2)
    target = np.random.default_rng(5).integers(0, 1000, 200)
    before = volta.get_num_threads()
    try:
        volta.set_num_threads(1)
        one = _everything(x, target)
        volta.set_num_threads(threads)
        split = _everything(x, target)
    finally:
        volta.set_num_threads(before)
    for a, b in zip(one, split):
        np.testing.assert_array_equal(a, b)


@pytest.mark.parametrize("threads", [2, 3])
def test_reductions_do_not_depend_on_the_thread_count(threads: int) -> None:
    # large enough that the cheap reductions split in three (from 64k elements per thread)
    x = _data((200, 1024), scale=2)
    y = _data((200, 1024), seed=3)

    def reductions() -> list[np.ndarray]:
        v = volta.tensor(x)
        return [np.array(r.numpy()) for r in (
            v.sum(1), v.mean(-1, keepdim=True), v.amax(1), v.amin(1), v.sum(), v.mean(),
            VF.mse_loss(v, volta.tensor(y)))]

    before = volta.get_num_threads()
    try:
        volta.set_num_threads(1)
        one = reductions()
        volta.set_num_threads(threads)
        split = reductions()
    finally:
        volta.set_num_threads(before)
    for a, b in zip(one, split):
        np.testing.assert_array_equal(a, b)


@pytest.mark.skipif(not native.ENABLED, reason="VOLTA_NATIVE=0 runs the numpy path")
def test_kernels_are_built_and_refuse_bad_arguments() -> None:
    kernels = native.kernels("rowwise")
    assert kernels is not None
    x = np.ones((4, 8), np.float32)
    with pytest.raises(ValueError):  # out too small for rows * width
        kernels.softmax(x, np.empty(16, np.float32), 4, 8, False, 1)
    with pytest.raises(ValueError):  # float64 input, float32 output
        kernels.row_sums(x.astype(np.float64), np.empty(4, np.float32), 4, 8, False, 1)
    with pytest.raises(ValueError):  # int32 targets
        kernels.nll_loss(x, np.zeros(4, np.int32), None, None, 4, 8, -100, 1)
    with pytest.raises(TypeError):
        kernels.layer_norm(x)
