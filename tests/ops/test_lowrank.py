"""volta.svd_lowrank and pca_lowrank (randomized SVD/PCA) against PyTorch.

Their results depend on a random projection, and volta's generator is not PyTorch's, so the
comparisons use matrices of rank at most q (where the algorithm is exact, whatever the draw)
through quantities free of the singular vectors' signs: U @ V^T and S, as op_db's samples do.
"""

from __future__ import annotations

import warnings

import numpy as np
import pytest
import torch

import volta

RNG = np.random.default_rng(11)


def _factors(batch: tuple, m: int, n: int, k: int) -> tuple[np.ndarray, np.ndarray]:
    return RNG.standard_normal((*batch, m, k)), RNG.standard_normal((*batch, n, k))


def _signless(result) -> tuple[np.ndarray, np.ndarray]:
    U, S, V = result
    return (U @ V.mT).detach().numpy(), S.detach().numpy()


@pytest.mark.parametrize("batch,m,n,k", [((), 6, 4, 2), ((), 3, 7, 3), ((2,), 5, 5, 2),
                                         ((2, 1), 8, 3, 1)])
@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_svd_lowrank_of_a_rank_q_matrix_matches_pytorch(batch, m, n, k, dtype) -> None:
    a, b = _factors(batch, m, n, k)
    matrix = (a @ np.swapaxes(b, -1, -2)).astype(dtype)
    expected = torch.svd_lowrank(torch.tensor(matrix), q=k)
    actual = volta.svd_lowrank(volta.tensor(matrix), q=k)
    assert [tuple(x.shape) for x in actual] == [tuple(x.shape) for x in expected]
    assert all(str(x.dtype).endswith(dtype) for x in actual)
    tol = 1e-4 if dtype == "float32" else 1e-10
    for v, t in zip(_signless(actual), _signless(expected)):
        np.testing.assert_allclose(v, t, rtol=tol, atol=tol)
    U, _, V = actual  # orthonormal columns
    eye = np.broadcast_to(np.eye(k), (*batch, k, k))
    np.testing.assert_allclose((U.mT @ U).numpy(), eye, atol=tol)
    np.testing.assert_allclose((V.mT @ V).numpy(), eye, atol=tol)


def test_svd_lowrank_subtracts_m() -> None:
    a, b = _factors((), 7, 5, 2)
    offset = RNG.standard_normal((1, 5))  # broadcast to A's shape, as PyTorch does
    matrix = a @ b.T + offset
    expected = torch.svd_lowrank(torch.tensor(matrix), q=2, M=torch.tensor(offset))
    actual = volta.svd_lowrank(volta.tensor(matrix), q=2, M=volta.tensor(offset))
    for v, t in zip(_signless(actual), _signless(expected)):
        np.testing.assert_allclose(v, t, rtol=1e-10, atol=1e-10)


@pytest.mark.parametrize("niter", [0, 1, 4, None])
def test_svd_lowrank_with_q_covering_the_matrix_is_its_svd(niter) -> None:
    matrix = RNG.standard_normal((6, 4))
    U, S, V = volta.svd_lowrank(volta.tensor(matrix), q=4, niter=niter)
    np.testing.assert_allclose(S.numpy(), torch.linalg.svdvals(torch.tensor(matrix)).numpy(),
                               rtol=1e-10)
    np.testing.assert_allclose((U @ volta.diag(S) @ V.mT).numpy(), matrix, atol=1e-10)


def test_svd_lowrank_defaults_as_pytorch() -> None:
    matrix = RNG.standard_normal((9, 8))
    expected = torch.svd_lowrank(torch.tensor(matrix))
    for actual in (volta.svd_lowrank(volta.tensor(matrix)),
                   volta.svd_lowrank(volta.tensor(matrix), q=None, niter=None)):
        assert [tuple(x.shape) for x in actual] == [tuple(x.shape) for x in expected] == \
            [(9, 6), (6,), (8, 6)]
    small = RNG.standard_normal((5, 4))  # q larger than the matrix: PyTorch's shapes
    assert [tuple(x.shape) for x in volta.svd_lowrank(volta.tensor(small), q=7)] == \
        [tuple(x.shape) for x in torch.svd_lowrank(torch.tensor(small), q=7)]


@pytest.mark.parametrize("center", [True, False])
@pytest.mark.parametrize("q", [None, 2])
def test_pca_lowrank_matches_pytorch(center: bool, q) -> None:
    a, b = _factors((), 8, 5, 2)
    matrix = a @ b.T
    kwargs = {"center": center} if q is None else {"center": center, "q": q}
    expected = torch.pca_lowrank(torch.tensor(matrix), **kwargs)
    actual = volta.pca_lowrank(volta.tensor(matrix), **kwargs)
    assert [tuple(x.shape) for x in actual] == [tuple(x.shape) for x in expected]
    if q is not None:  # rank 2: exact for q = 2 (q = 5 adds directions of zero variance)
        for v, t in zip(_signless(actual), _signless(expected)):
            np.testing.assert_allclose(v, t, rtol=1e-10, atol=1e-10)
    else:
        np.testing.assert_allclose(actual[1].numpy()[:2], expected[1].numpy()[:2], rtol=1e-10)


@pytest.mark.parametrize("kwargs,message", [
    ({"q": 5}, "q\\(=5\\) must be non-negative integer and not greater than min\\(m, n\\)=4"),
    ({"q": -1}, "q\\(=-1\\) must be non-negative integer"),
    ({"niter": -1}, "niter\\(=-1\\) must be non-negative integer"),
])
def test_pca_lowrank_errors_as_pytorch(kwargs: dict, message: str) -> None:
    matrix = RNG.standard_normal((5, 4))
    with pytest.raises(ValueError, match=message):
        torch.pca_lowrank(torch.tensor(matrix), **kwargs)
    with pytest.raises(volta.VoltaError, match=message):
        volta.pca_lowrank(volta.tensor(matrix), **kwargs)


def test_lowrank_of_a_vector_raises() -> None:
    with pytest.raises(ValueError):
        torch.svd_lowrank(torch.ones(3))
    for fn in (volta.svd_lowrank, volta.pca_lowrank):
        with pytest.raises(volta.ShapeError, match="expected a matrix"):
            fn(volta.ones(3))


def test_svd_lowrank_gradients_match_pytorch_and_gradcheck() -> None:
    a, b = _factors((), 6, 4, 2)
    cot_product, cot_values = RNG.standard_normal((6, 4)), RNG.standard_normal(2)
    grads = []
    for module in (torch, volta):
        fa, fb = module.tensor(a, requires_grad=True), module.tensor(b, requires_grad=True)
        U, S, V = module.svd_lowrank(fa @ fb.mT, q=2)
        loss = ((U @ V.mT) * module.tensor(cot_product)).sum() + (S * module.tensor(
            cot_values)).sum()
        loss.backward()
        grads.append((fa.grad.numpy(), fb.grad.numpy()))
    for v, t in zip(grads[1], grads[0]):
        np.testing.assert_allclose(v, t, rtol=1e-8, atol=1e-8)

    def signless(x: volta.Tensor, y: volta.Tensor) -> tuple:
        U, S, V = volta.pca_lowrank(x @ y.mT, q=2)
        return U @ V.mT, S

    assert volta.autograd.gradcheck(signless, (volta.tensor(a, requires_grad=True),
                                               volta.tensor(b, requires_grad=True)))


def test_svd_lowrank_runs_on_wgpu_as_on_cpu() -> None:
    assert volta.wgpu.is_available(), "no WebGPU adapter: install mesa-vulkan-drivers"
    a, b = _factors((), 6, 4, 2)
    matrix = (a @ b.T).astype(np.float32)
    on_cpu = _signless(volta.svd_lowrank(volta.tensor(matrix), q=2))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # decompositions WGPU lacks run through the CPU fallback
        result = volta.svd_lowrank(volta.tensor(matrix, device="wgpu"), q=2)
    assert all(x.device.type == "wgpu" for x in result)
    U, S, V = (x.cpu() for x in result)
    for v, c in zip(_signless((U, S, V)), on_cpu):
        np.testing.assert_allclose(v, c, rtol=1e-4, atol=1e-4)
