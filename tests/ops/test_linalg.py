"""volta.linalg behaviour the op_db run does not reach: derivative formulas at their edge cases
(near-singular and singular determinants, full-matrix SVD, wide QR and LU, eigenvector
gradients through sign-invariant losses), broadcasting batched solves, the errors on singular
input, and dtypes. PyTorch is the oracle throughout."""

from __future__ import annotations

import numpy as np
import pytest
import torch

import volta
from volta.autograd.gradcheck import gradcheck


def _pair(array: np.ndarray, requires_grad: bool = True) -> tuple[volta.Tensor, torch.Tensor]:
    v = volta.from_numpy(array.copy()).requires_grad_(requires_grad)
    t = torch.from_numpy(array.copy()).requires_grad_(requires_grad)
    return v, t


def _grads(v_out, t_out, v_inputs, t_inputs, seed: int = 0) -> tuple[list, list]:
    """Gradients of sum(out * w) for the same random weights w, through volta and PyTorch."""
    rng = np.random.default_rng(seed)
    w = rng.uniform(-1, 1, size=tuple(t_out.shape))
    v_grads = volta.autograd.grad([v_out], v_inputs, [volta.from_numpy(w.copy())])
    t_grads = torch.autograd.grad([t_out], t_inputs, [torch.from_numpy(w.copy())])
    return [g.numpy() for g in v_grads], [g.numpy() for g in t_grads]


def _assert_grads_match(v_out, t_out, v_inputs, t_inputs, atol: float = 1e-8) -> None:
    v_grads, t_grads = _grads(v_out, t_out, v_inputs, t_inputs)
    for vg, tg in zip(v_grads, t_grads):
        np.testing.assert_allclose(vg, tg, rtol=1e-6, atol=atol)


def _random(*shape: int, seed: int = 0) -> np.ndarray:
    return np.random.default_rng(seed).standard_normal(shape)


# ---------------------------------------------------------------- determinants


def test_det_gradcheck_near_singular_but_invertible() -> None:
    a = _random(4, 4)
    a[3] = a[2] + 1e-4 * _random(4, seed=1)  # two rows almost equal: det ~ 1e-4
    x = volta.from_numpy(a.copy()).requires_grad_()
    assert abs(volta.linalg.det(x).item()) < 1e-2
    assert gradcheck(volta.linalg.det, (x,))
    v, t = _pair(a)
    _assert_grads_match(volta.linalg.det(v), torch.linalg.det(t), [v], [t])


@pytest.mark.parametrize("rank", [2, 3])
def test_det_gradient_of_singular_matrix_is_the_cofactor_matrix(rank: int) -> None:
    a = _random(4, rank) @ _random(rank, 4, seed=1)  # rank 3: cofactors nonzero; rank 2: zero
    v, t = _pair(a)
    _assert_grads_match(volta.linalg.det(v), torch.linalg.det(t), [v], [t])


def test_slogdet_and_logdet_of_batches() -> None:
    a = _random(3, 4, 4)
    v, t = _pair(a)
    sign, logabs = volta.linalg.slogdet(v)
    t_sign, t_logabs = torch.linalg.slogdet(t)
    np.testing.assert_array_equal(sign.detach().numpy(), t_sign.detach().numpy())
    _assert_grads_match(logabs, t_logabs, [v], [t])
    np.testing.assert_allclose(volta.logdet(v).detach().numpy(),
                               torch.logdet(t).detach().numpy(), equal_nan=True)


# ---------------------------------------------------------------- solves


@pytest.mark.parametrize(("a_shape", "b_shape"), [
    ((2, 1, 3, 3), (4, 3, 2)),   # batch dims broadcast both ways
    ((3, 3), (5, 3, 1)),         # one matrix, a batch of right-hand sides
    ((2, 3, 3), (2, 3)),         # a batch of vectors (B.shape == A.shape[:-1])
    ((3, 3), (3,)),              # one vector
])
def test_batched_solve_broadcasts_like_pytorch(a_shape: tuple, b_shape: tuple) -> None:
    a = _random(*a_shape) + 3 * np.eye(a_shape[-1])
    b = _random(*b_shape, seed=1)
    va, ta = _pair(a)
    vb, tb = _pair(b)
    v_out, t_out = volta.linalg.solve(va, vb), torch.linalg.solve(ta, tb)
    assert tuple(v_out.shape) == tuple(t_out.shape)
    np.testing.assert_allclose(v_out.detach().numpy(), t_out.detach().numpy(), rtol=1e-10)
    _assert_grads_match(v_out, t_out, [va, vb], [ta, tb])


def test_solve_from_the_right() -> None:
    a = _random(2, 3, 3) + 3 * np.eye(3)
    b = _random(2, 4, 3, seed=1)
    va, ta = _pair(a)
    vb, tb = _pair(b)
    _assert_grads_match(volta.linalg.solve(va, vb, left=False),
                        torch.linalg.solve(ta, tb, left=False), [va, vb], [ta, tb])


@pytest.mark.parametrize(("upper", "left", "unitriangular"),
                         [(True, True, False), (False, False, True), (False, True, False)])
def test_solve_triangular_gradients_stay_on_the_triangle(upper: bool, left: bool,
                                                         unitriangular: bool) -> None:
    a = _random(3, 3) + 4 * np.eye(3)
    b = _random(2, 3, 3, seed=1)
    va, ta = _pair(a)
    vb, tb = _pair(b)
    kwargs = {"upper": upper, "left": left, "unitriangular": unitriangular}
    _assert_grads_match(volta.linalg.solve_triangular(va, vb, **kwargs),
                        torch.linalg.solve_triangular(ta, tb, **kwargs), [va, vb], [ta, tb])


# ---------------------------------------------------------------- errors and info codes


@pytest.mark.parametrize(("call", "torch_call"), [
    (lambda a: volta.linalg.inv(a), lambda a: torch.linalg.inv(a)),
    (lambda a: volta.linalg.solve(a, volta.ones(2, 3, 1)),
     lambda a: torch.linalg.solve(a, torch.ones(2, 3, 1))),
    (lambda a: volta.linalg.cholesky(a), lambda a: torch.linalg.cholesky(a)),
    (lambda a: volta.linalg.lu_factor(a), lambda a: torch.linalg.lu_factor(a)),
])
def test_singular_input_raises_pytorchs_error_and_is_left_unchanged(call, torch_call) -> None:
    a = np.stack([np.eye(3), np.zeros((3, 3))]).astype(np.float32)
    v = volta.from_numpy(a.copy())
    with pytest.raises(RuntimeError) as expected:  # LinAlgError, a RuntimeError
        torch_call(torch.from_numpy(a.copy()))
    with pytest.raises(volta.linalg.LinAlgError) as raised:
        call(v)
    assert str(raised.value) == str(expected.value)
    assert isinstance(raised.value, volta.VoltaError) and isinstance(raised.value, RuntimeError)
    np.testing.assert_array_equal(v.numpy(), a)


def test_ex_variants_report_info_instead_of_raising() -> None:
    a = np.stack([np.eye(3), np.diag([1.0, 0.0, 1.0]), -np.eye(3)])
    inverse, info = volta.linalg.inv_ex(volta.from_numpy(a.copy()))
    np.testing.assert_array_equal(info.numpy(), torch.linalg.inv_ex(torch.from_numpy(a)).info)
    np.testing.assert_allclose(inverse.numpy()[0], np.eye(3))
    _, info = volta.linalg.cholesky_ex(volta.from_numpy(a.copy()))
    np.testing.assert_array_equal(info.numpy(),
                                  torch.linalg.cholesky_ex(torch.from_numpy(a)).info)


@pytest.mark.parametrize(("call", "message"), [
    (lambda: volta.linalg.inv(volta.ones(2, 3)),
     "linalg.inv: A must be batches of square matrices, but they are 2 by 3 matrices"),
    (lambda: volta.linalg.inv(volta.ones(3, 3, dtype=volta.int64)),
     "linalg.inv: Expected a floating point or complex tensor as input. Got Long"),
    (lambda: volta.linalg.solve(volta.eye(3), volta.ones(4)),
     "linalg.solve: Incompatible shapes of A and B for the equation AX = B (3x3 and 4x1)"),
    (lambda: volta.linalg.solve(volta.eye(3, dtype=volta.float64), volta.ones(3)),
     "linalg.solve: Expected A and B to have the same dtype, but found A of type Double and B "
     "of type Float instead"),
])
def test_shape_and_dtype_errors_use_pytorchs_wording(call, message: str) -> None:
    with pytest.raises(volta.VoltaError) as raised:
        call()
    assert str(raised.value) == message


# ---------------------------------------------------------------- decompositions


def test_results_keep_float32() -> None:
    a = volta.from_numpy(_random(3, 3).astype(np.float32))
    sym = a + a.mT
    outputs = [volta.linalg.inv(a), volta.linalg.det(a), *volta.linalg.svd(a),
               *volta.linalg.qr(a), *volta.linalg.eigh(sym), volta.matrix_exp(a),
               volta.linalg.pinv(a), *volta.linalg.lu_factor(a)[:1]]
    assert all(t.dtype is volta.float32 for t in outputs)


@pytest.mark.parametrize("shape", [(5, 3), (3, 5), (2, 4, 4)])
@pytest.mark.parametrize("full_matrices", [False, True])
def test_svd_backward_through_sign_invariant_losses(shape: tuple, full_matrices: bool) -> None:
    # singular vectors are unique up to sign: U**2 and Vh**2 are not, so their gradients are
    v, t = _pair(_random(*shape))
    k = min(shape[-2:])
    U, S, Vh = volta.linalg.svd(v, full_matrices=full_matrices)
    tU, tS, tVh = torch.linalg.svd(t, full_matrices=full_matrices)
    v_loss = (U[..., :k] ** 2).sum() * 0.3 + (S ** 2).sum() + (Vh[..., :k, :] ** 3).abs().sum()
    t_loss = (tU[..., :k] ** 2).sum() * 0.3 + (tS ** 2).sum() + (tVh[..., :k, :] ** 3).abs().sum()
    _assert_grads_match(v_loss, t_loss, [v], [t])


def test_eigh_backward_through_sign_invariant_losses() -> None:
    a = _random(2, 4, 4)
    a = a + np.swapaxes(a, -1, -2)
    v, t = _pair(a)
    L, V = volta.linalg.eigh(v)
    tL, tV = torch.linalg.eigh(t)
    np.testing.assert_allclose(L.detach().numpy(), tL.detach().numpy(), rtol=1e-10)
    _assert_grads_match((V ** 2 * 1.7).sum() + L.sum(), (tV ** 2 * 1.7).sum() + tL.sum(),
                        [v], [t])


@pytest.mark.parametrize("shape", [(3, 5), (5, 3), (4, 4)])
def test_qr_and_lu_backward_on_wide_and_tall_matrices(shape: tuple) -> None:
    v, t = _pair(_random(*shape))
    Q, R = volta.linalg.qr(v)
    tQ, tR = torch.linalg.qr(t)
    _assert_grads_match((Q * 0.5).sum() + (R * 2).sum(), (tQ * 0.5).sum() + (tR * 2).sum(),
                        [v], [t])
    LU, _ = volta.linalg.lu_factor(v)
    tLU, _ = torch.linalg.lu_factor(t)
    np.testing.assert_allclose(LU.detach().numpy(), tLU.detach().numpy(), rtol=1e-10)
    _assert_grads_match(LU, tLU, [v], [t])


def test_cholesky_backward_reads_the_lower_triangle() -> None:
    a = _random(3, 3)
    a = a @ a.T + 3 * np.eye(3)
    v, t = _pair(a)
    for upper in (False, True):
        _assert_grads_match(volta.linalg.cholesky(v, upper=upper),
                            torch.linalg.cholesky(t, upper=upper), [v], [t])


def test_matrix_exp_large_norm_matches_in_float64() -> None:
    v, t = _pair(_random(2, 4, 4) * np.array([0.1, 6.0])[:, None, None])
    v_out, t_out = volta.matrix_exp(v), torch.matrix_exp(t)
    np.testing.assert_allclose(v_out.detach().numpy(), t_out.detach().numpy(), rtol=1e-10)
    _assert_grads_match(v_out, t_out, [v], [t], atol=1e-7)


@pytest.mark.parametrize(("volta_fn", "torch_fn"), [
    (lambda x: volta.linalg.svdvals(x), lambda x: torch.linalg.svdvals(x)),
    (lambda x: volta.linalg.qr(x)[1], lambda x: torch.linalg.qr(x)[1]),
    (lambda x: volta.linalg.eigvalsh(x + x.mT), lambda x: torch.linalg.eigvalsh(x + x.mT)),
])
def test_second_derivatives_through_saved_later_outputs(volta_fn, torch_fn) -> None:
    # these formulas read outputs other than the first (Vh, R, eigenvectors): differentiating
    # the backward must route through those outputs, not through output 0
    v, t = _pair(_random(3, 3))
    w = np.random.default_rng(3).uniform(-1, 1, size=tuple(torch_fn(t).shape))
    (gv,) = volta.autograd.grad([(volta_fn(v) * volta.from_numpy(w.copy())).sum()], [v],
                                create_graph=True)
    (gt,) = torch.autograd.grad([(torch_fn(t) * torch.from_numpy(w)).sum()], [t],
                                create_graph=True)
    _assert_grads_match((gv ** 2).sum(), (gt ** 2).sum(), [v], [t], atol=1e-7)
