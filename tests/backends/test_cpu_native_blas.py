"""Matrix products on volta's OpenMP threads (native/blas.c through gemm.py, Note [one thread
pool]): the compiled gemm against numpy on 1, 2 and 3 threads (allclose: row blocks may run other
BLAS kernels than the whole product), and the ops that use it against PyTorch. With
VOLTA_NATIVE=0 the op tests run the numpy path against the same oracle; the gemm tests load the
compiled module directly."""

import importlib

import numpy as np
import pytest
import torch

import volta
import volta.nn.functional as F
from volta.backends.cpu import gemm, parallel

blas = importlib.import_module("volta.backends.cpu.native._blas")
blas.init(*gemm._cblas_addresses())


@pytest.fixture
def restore_threads():
    before = volta.get_num_threads()
    yield
    volta.set_num_threads(before)


SHAPES = [  # m, n, k
    (0, 3, 4), (3, 0, 4), (3, 4, 0), (1, 7, 5), (7, 1, 5), (1, 1, 1), (33, 65, 17),
    (129, 70, 300), (64, 1024, 784), (6, 25, 20000), (257, 3, 999),
]


def _operand(rng, rows: int, cols: int, dtype, transposed: bool) -> tuple[np.ndarray, np.ndarray]:
    """(the operand, the C-contiguous array passed to gemm: the operand's transpose if so)."""
    x = rng.standard_normal((rows, cols)).astype(dtype)
    stored = np.ascontiguousarray(x.T) if transposed else x
    return x, stored


@pytest.mark.parametrize("threads", [1, 2, 3])
@pytest.mark.parametrize("trans_b", [False, True])
@pytest.mark.parametrize("trans_a", [False, True])
@pytest.mark.parametrize("shape", SHAPES)
@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_gemm_matches_numpy(shape, dtype, trans_a, trans_b, threads):
    m, n, k = shape
    rng = np.random.default_rng(m * 1000 + n + k)
    a, a_stored = _operand(rng, m, k, dtype, trans_a)
    b, b_stored = _operand(rng, k, n, dtype, trans_b)
    out = np.full((m, n), np.nan, dtype)  # beta 0: whatever out held is not read
    blas.gemm(a_stored, b_stored, out, 1, m, n, k, trans_a, trans_b, 1.0, 0.0, threads)
    expected = a.astype(np.float64) @ b.astype(np.float64)
    tol = 1e-4 if dtype == np.float32 else 1e-10
    np.testing.assert_allclose(out, expected, rtol=tol, atol=tol * np.sqrt(k + 1))


@pytest.mark.parametrize("threads", [1, 2, 3])
@pytest.mark.parametrize("trans", [(False, False), (True, False), (False, True)])
@pytest.mark.parametrize("shape", [(0, 4, 5, 6), (1, 33, 65, 17), (5, 7, 3, 9), (40, 16, 8, 16),
                                   (3, 100, 90, 80), (2, 6, 25, 20000)])
def test_batched_gemm_matches_numpy(shape, trans, threads):
    batch, m, n, k = shape
    trans_a, trans_b = trans
    rng = np.random.default_rng(batch + m)
    a = rng.standard_normal((batch, m, k)).astype(np.float32)
    b = rng.standard_normal((batch, k, n)).astype(np.float32)
    a_stored = np.ascontiguousarray(a.swapaxes(1, 2)) if trans_a else a
    b_stored = np.ascontiguousarray(b.swapaxes(1, 2)) if trans_b else b
    out = np.full((batch, m, n), np.nan, np.float32)
    blas.gemm(a_stored, b_stored, out, batch, m, n, k, trans_a, trans_b, 1.0, 0.0, threads)
    expected = a.astype(np.float64) @ b.astype(np.float64)
    np.testing.assert_allclose(out, expected, rtol=1e-4, atol=1e-4 * np.sqrt(k + 1))


@pytest.mark.parametrize("threads", [1, 2, 3])
@pytest.mark.parametrize("shape", [(5, 9, 7), (6, 25, 20000), (200, 150, 100), (2, 3, 0)])
def test_gemm_alpha_beta(shape, threads):
    m, n, k = shape
    rng = np.random.default_rng(1)
    a = rng.standard_normal((m, k)).astype(np.float32)
    b = rng.standard_normal((k, n)).astype(np.float32)
    c = rng.standard_normal((m, n)).astype(np.float32)
    out = c.copy()
    blas.gemm(a, b, out, 1, m, n, k, False, False, 0.5, -2.0, threads)
    expected = 0.5 * (a.astype(np.float64) @ b) - 2.0 * c
    np.testing.assert_allclose(out, expected, rtol=1e-4, atol=1e-4 * np.sqrt(k + 1))


def test_gemm_propagates_nan_and_inf():
    a = np.array([[np.nan, 1.0], [np.inf, 0.0], [1.0, 2.0]], np.float32)
    b = np.array([[1.0, 2.0], [3.0, 4.0]], np.float32)
    out = np.empty((3, 2), np.float32)
    blas.gemm(a, b, out, 1, 3, 2, 2, False, False, 1.0, 0.0, 2)
    with np.errstate(invalid="ignore"):
        expected = a @ b
    np.testing.assert_array_equal(out, expected)


def test_gemm_checks_its_arguments():
    a = np.ones((2, 3), np.float32)
    b = np.ones((3, 4), np.float32)
    with pytest.raises(ValueError):
        blas.gemm(a, b, np.empty((2, 5), np.float32), 1, 2, 4, 3, False, False, 1.0, 0.0, 1)
    with pytest.raises(TypeError):
        blas.gemm(a, b.astype(np.float64), np.empty((2, 4), np.float32), 1, 2, 4, 3, False,
                  False, 1.0, 0.0, 1)
    with pytest.raises(ValueError):
        blas.gemm(a, b, np.empty((2, 4), np.float32), 1, -2, 4, 3, False, False, 1.0, 0.0, 1)


def test_product_declines_what_it_does_not_take(monkeypatch):
    # a product below MIN_MACS multiply-adds stays on numpy's call, unless it writes into `out`
    small = np.ones((4, 4), np.float32)
    assert gemm.product(small, small) is None
    if gemm.ENABLED:
        out = np.empty((4, 4), np.float32)
        assert gemm.product(small, small, out) is out
    monkeypatch.setattr(gemm, "MIN_MACS", 0)
    ints = np.ones((2, 2), np.int64)
    assert gemm.product(ints, ints) is None
    assert gemm.product(np.ones((2, 3), np.float32), np.ones((3, 2), np.float64)) is None
    assert gemm.product(np.ones((2, 3), np.float32), np.ones((3, 2), np.float32),
                        np.empty((2, 2), np.float64)) is None
    # a strided operand is copied, not refused; without the compiled module nothing is taken
    a = np.arange(24, dtype=np.float32).reshape(4, 6)[:, ::2]
    got = gemm.product(a, a.T)
    if gemm.ENABLED:
        np.testing.assert_allclose(got, a @ a.T)
    else:
        assert got is None


def test_set_num_threads_round_trip(restore_threads):
    volta.set_num_threads(2)
    assert volta.get_num_threads() == 2
    volta.set_num_threads(1)
    assert volta.get_num_threads() == 1
    volta.set_num_threads(3)
    assert volta.get_num_threads() == 3
    if parallel._BLAS_THREADS is not None:
        blas_threads = parallel._BLAS_THREADS[0]()
        # one pool: with the compiled GEMM OpenBLAS stays on one thread; without, it follows
        assert blas_threads == (1 if gemm.ENABLED else 3)


def _pair(rng, *shape):
    a = rng.standard_normal(shape).astype(np.float32)
    return torch.tensor(a, requires_grad=True), volta.tensor(a, requires_grad=True)


def _check(got: volta.Tensor, expected: torch.Tensor, leaves) -> None:
    np.testing.assert_allclose(got.detach().numpy(), expected.detach().numpy(), rtol=1e-4,
                               atol=1e-4)
    grad = np.random.default_rng(9).standard_normal(tuple(expected.shape)).astype(np.float32)
    expected.backward(torch.tensor(grad))
    got.backward(volta.tensor(grad))
    for t, v in leaves:
        np.testing.assert_allclose(v.grad.numpy(), t.grad.numpy(), rtol=1e-4, atol=1e-4)


@pytest.mark.parametrize("threads", [1, 2])
@pytest.mark.parametrize("shapes", [((64, 784), (784, 300)), ((5, 1), (1, 7)), ((1, 9), (9, 1)),
                                    ((3, 4, 33), (33, 17)), ((0, 5), (5, 3))])
def test_matmul_matches_torch(restore_threads, shapes, threads):
    volta.set_num_threads(threads)
    rng = np.random.default_rng(2)
    (ta, va), (tb, vb) = _pair(rng, *shapes[0]), _pair(rng, *shapes[1])
    _check(va @ vb, ta @ tb, [(ta, va), (tb, vb)])


@pytest.mark.parametrize("threads", [1, 2])
@pytest.mark.parametrize("bias", [False, True])
@pytest.mark.parametrize("shapes", [((64, 400), (120, 400)), ((2, 3, 84), (10, 84)),
                                    ((1, 7), (3, 7))])
def test_linear_matches_torch(restore_threads, shapes, bias, threads):
    volta.set_num_threads(threads)
    rng = np.random.default_rng(3)
    (tx, vx), (tw, vw) = _pair(rng, *shapes[0]), _pair(rng, *shapes[1])
    leaves = [(tx, vx), (tw, vw)]
    tb = vb = None
    if bias:
        tb, vb = _pair(rng, shapes[1][0])
        leaves.append((tb, vb))
    _check(F.linear(vx, vw, vb), torch.nn.functional.linear(tx, tw, tb), leaves)


@pytest.mark.parametrize("threads", [1, 2])
def test_batched_matmul_matches_torch(restore_threads, threads):
    # attention's products: (B, H, S, D) @ (B, H, D, S), the second a transposed view
    volta.set_num_threads(threads)
    rng = np.random.default_rng(6)
    (tq, vq), (tk, vk) = _pair(rng, 2, 4, 16, 8), _pair(rng, 2, 4, 16, 8)
    _check(vq @ vk.transpose(-2, -1), tq @ tk.transpose(-2, -1), [(tq, vq), (tk, vk)])


@pytest.mark.parametrize("threads", [1, 2])
def test_bmm_and_addmm_match_torch(restore_threads, threads):
    volta.set_num_threads(threads)
    rng = np.random.default_rng(4)
    (ta, va), (tb, vb) = _pair(rng, 3, 40, 30), _pair(rng, 3, 30, 50)
    _check(volta.bmm(va, vb), torch.bmm(ta, tb), [(ta, va), (tb, vb)])
    (tc, vc), (tm, vm), (tn, vn) = _pair(rng, 40, 50), _pair(rng, 40, 30), _pair(rng, 30, 50)
    _check(volta.addmm(vc, vm, vn, beta=0.5, alpha=2.0),
           torch.addmm(tc, tm, tn, beta=0.5, alpha=2.0), [(tc, vc), (tm, vm), (tn, vn)])


@pytest.mark.parametrize("threads", [1, 2, 3])
@pytest.mark.parametrize("case", [((8, 1, 28, 28), (6, 1, 5, 5), 2),  # LeNet's convolutions
                                  ((8, 6, 14, 14), (16, 6, 5, 5), 0)])
def test_convolution_matches_torch(restore_threads, case, threads):
    volta.set_num_threads(threads)
    xs, ws, padding = case
    rng = np.random.default_rng(5)
    (tx, vx), (tw, vw), (tb, vb) = _pair(rng, *xs), _pair(rng, *ws), _pair(rng, ws[0])
    _check(F.conv2d(vx, vw, vb, padding=padding), torch.nn.functional.conv2d(tx, tw, tb,
                                                                             padding=padding),
           [(tx, vx), (tw, vw), (tb, vb)])
