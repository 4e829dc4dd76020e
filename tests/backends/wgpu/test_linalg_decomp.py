"""The matrix decompositions and solvers on WGPU (kernels/linalg_decomp.py) against the CPU
backend, with the CPU fallback switched off: batched and non-contiguous inputs, singular and
non-positive-definite inputs (same info, same errors), and backward through the ops.yaml formulas.
Eigenvectors and singular vectors are compared through quantities their signs do not change."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
import pytest

import volta
from volta.backends.wgpu.kernels import linalg_decomp
from volta.backends.wgpu.kernels.linalg_decomp import MAX_ORDER

RNG = np.random.default_rng(11)
SQUARE = RNG.standard_normal((3, 5, 5)).astype(np.float32)
RHS = RNG.standard_normal((3, 5, 2)).astype(np.float32)
TALL = RNG.standard_normal((2, 6, 4)).astype(np.float32)
SPD = (SQUARE @ SQUARE.transpose(0, 2, 1) + np.eye(5, dtype=np.float32)).astype(np.float32)
SYMMETRIC = (SQUARE + SQUARE.transpose(0, 2, 1)).astype(np.float32)
SINGULAR = SQUARE.copy()
SINGULAR[1, 3] = SINGULAR[1, 0] * 2  # the second matrix of the batch has dependent rows
INDEFINITE = SPD.copy()
INDEFINITE[2, 2, 2] = -50.0  # the leading minor of order 3 of the third matrix
# zero leading entries force Bunch-Kaufman's 2x2 pivots
SYMMETRIC_2X2 = SYMMETRIC.copy()
SYMMETRIC_2X2[0, :2, :2] = 0.0


def _weights(t: volta.Tensor) -> volta.Tensor:
    return volta.arange(t.numel(), dtype=volta.float32, device=t.device).reshape(t.shape).sin()


def _run(device: str, fn: Callable[..., Any], arrays: list[np.ndarray], grad: bool
         ) -> list[np.ndarray]:
    xs = [volta.tensor(a, device=device, requires_grad=grad) for a in arrays]
    out = fn(*xs)
    outs = list(out) if isinstance(out, (tuple, list)) else [out]
    if grad:
        floats = [o for o in outs if o.dtype == volta.float32 and o.requires_grad]
        sum((o * _weights(o)).sum() for o in floats).backward()
    results = [o.detach().cpu().numpy() for o in outs]
    return results + ([x.grad.cpu().numpy() for x in xs if x.grad is not None] if grad else [])


def _compare(fn: Callable[..., Any], arrays: list[np.ndarray], wgpu: str, grad: bool = True,
             tol: float = 2e-4) -> None:
    want, got = _run("cpu", fn, arrays, grad), _run(wgpu, fn, arrays, grad)
    assert len(want) == len(got)
    for w, g in zip(want, got, strict=True):
        assert w.dtype == g.dtype and w.shape == g.shape, (w.dtype, g.dtype, w.shape, g.shape)
        np.testing.assert_allclose(g, w, rtol=tol, atol=tol, equal_nan=True)


# name -> (function, inputs, differentiate): outputs LAPACK fixes uniquely, compared directly
CASES: dict[str, tuple[Callable[..., Any], list[np.ndarray], bool]] = {
    "lu_factor": (lambda a: volta.linalg.lu_factor_ex(a), [SQUARE], False),
    "lu_factor_wide_transposed": (lambda a: volta.linalg.lu_factor(a.mT), [TALL], False),
    "lu_unpack": (lambda a: volta.linalg.lu(a), [TALL], True),
    "lu_solve": (lambda a, b: volta.linalg.lu_solve(*volta.linalg.lu_factor(a), b),
                 [SQUARE, RHS], True),
    "inv": (lambda a: volta.linalg.inv(a), [SQUARE], True),
    "inv_transposed": (lambda a: volta.linalg.inv_ex(a.mT), [SQUARE], True),
    "solve": (lambda a, b: volta.linalg.solve(a, b), [SQUARE, RHS], True),
    "solve_vector": (lambda a, b: volta.linalg.solve(a, b[..., 0]), [SQUARE, RHS], True),
    "solve_right": (lambda a, b: volta.linalg.solve(a, b.mT, left=False), [SQUARE, RHS], True),
    "solve_broadcast": (lambda a, b: volta.linalg.solve_ex(a[0], b[:, :, ::2]), [SQUARE, RHS],
                        True),
    "solve_triangular_upper": (lambda a, b: volta.linalg.solve_triangular(
        a + 4 * volta.eye(5, device=a.device), b, upper=True), [SQUARE, RHS], True),
    "solve_triangular_lower_unit": (lambda a, b: volta.linalg.solve_triangular(
        a, b, upper=False, unitriangular=True), [SQUARE, RHS], True),
    "solve_triangular_right": (lambda a, b: volta.linalg.solve_triangular(
        a + 4 * volta.eye(5, device=a.device), b.mT, upper=False, left=False),
        [SQUARE, RHS], True),
    "solve_triangular_strided": (lambda a, b: volta.linalg.solve_triangular(
        a.mT[:, 1:, 1:] + 4 * volta.eye(4, device=a.device), b[:, 1:], upper=True),
        [SQUARE, RHS], True),
    "det": (lambda a: volta.linalg.det(a), [SQUARE], True),
    "det_singular": (lambda a: volta.linalg.det(a), [SINGULAR], False),
    "slogdet": (lambda a: volta.linalg.slogdet(a), [SQUARE], True),
    "logdet_transposed": (lambda a: volta.logdet(a.mT @ a), [SQUARE], True),
    "cholesky": (lambda a: volta.linalg.cholesky(a), [SPD], True),
    "cholesky_upper_strided": (lambda a: volta.linalg.cholesky(a[:, ::2, ::2], upper=True),
                               [SPD], True),
    "cholesky_ex_indefinite": (lambda a: volta.linalg.cholesky_ex(a), [INDEFINITE], False),
    "qr_reduced": (lambda a: volta.linalg.qr(a), [TALL], True),
    "qr_complete": (lambda a: volta.linalg.qr(a, "complete"), [TALL], False),
    "qr_r_wide": (lambda a: volta.linalg.qr(a.mT, "r")[1], [TALL], False),
    "qr_wide": (lambda a: volta.linalg.qr(a.mT), [TALL], True),
    "geqrf": (lambda a: volta.geqrf(a), [TALL], False),
    "geqrf_wide": (lambda a: volta.geqrf(a.mT), [TALL], False),
    "householder_product": (lambda a: volta.linalg.householder_product(*volta.geqrf(a)),
                            [TALL], False),
    "ldl_factor": (lambda a: volta.linalg.ldl_factor_ex(a), [SYMMETRIC], False),
    "ldl_factor_2x2_pivots": (lambda a: volta.linalg.ldl_factor_ex(a), [SYMMETRIC_2X2], False),
    "ldl_solve": (lambda a, b: volta.linalg.ldl_solve(*volta.linalg.ldl_factor(a), b),
                  [SYMMETRIC_2X2, RHS], False),
    "eigvalsh": (lambda a: volta.linalg.eigvalsh(a), [SYMMETRIC], True),
    "eigvalsh_upper": (lambda a: volta.linalg.eigvalsh(a, UPLO="U"), [SQUARE], True),
    "svdvals": (lambda a: volta.linalg.svdvals(a), [TALL], True),
    "svdvals_wide": (lambda a: volta.linalg.svdvals(a.mT), [TALL], True),
    # composites built on the kernels run on the device too
    "pinv": (lambda a: volta.linalg.pinv(a), [TALL], True),
    "matrix_rank": (lambda a: volta.linalg.matrix_rank(a), [TALL], False),
    "nuclear_norm": (lambda a: volta.linalg.matrix_norm(a, "nuc"), [TALL], True),
    "cond": (lambda a: volta.linalg.cond(a), [SQUARE], False),
    "cholesky_inverse": (lambda a: volta.cholesky_inverse(volta.linalg.cholesky(a)), [SPD],
                         True),
    "lstsq": (lambda a: volta.linalg.lstsq(a, a[..., :2])[0], [TALL], False),
    "ormqr": (lambda a: volta.ormqr(*volta.geqrf(a), a), [SQUARE], False),
}


EMPTY = np.zeros((2, 0, 0), dtype=np.float32)
ONE_BY_ONE = np.full((1, 1), 3.0, dtype=np.float32)
NO_COLUMNS = np.zeros((3, 0), dtype=np.float32)
EDGE_CASES: dict[str, tuple[Callable[..., Any], np.ndarray]] = {
    "lu": (lambda a: volta.linalg.lu(a), EMPTY),
    "lu_no_columns": (lambda a: volta.linalg.lu(a), NO_COLUMNS),
    "inv": (lambda a: volta.linalg.inv_ex(a), EMPTY),
    "det": (lambda a: volta.linalg.det(a), EMPTY),
    "slogdet": (lambda a: volta.linalg.slogdet(a), ONE_BY_ONE),
    "cholesky": (lambda a: volta.linalg.cholesky_ex(a), ONE_BY_ONE),
    "qr_no_columns": (lambda a: volta.linalg.qr(a, "complete"), NO_COLUMNS),
    "eigh": (lambda a: volta.linalg.eigh(a), EMPTY),
    "svd_no_columns": (lambda a: volta.linalg.svd(a), NO_COLUMNS),
    "ldl": (lambda a: volta.linalg.ldl_factor_ex(a), ONE_BY_ONE),
    "solve": (lambda a: volta.linalg.solve(a, a), EMPTY),
}
for _name, (_fn, _array) in EDGE_CASES.items():
    CASES[f"edge_{_name}"] = (_fn, [_array], False)


@pytest.mark.parametrize("name", sorted(CASES))
def test_matches_cpu(wgpu: str, no_fallback: None, name: str) -> None:
    fn, arrays, grad = CASES[name]
    _compare(fn, arrays, wgpu, grad)


def _eigh_invariants(a: volta.Tensor) -> tuple[volta.Tensor, ...]:
    """Eigenvalues, |V| and the projectors V diag(w) V^T (none depends on V's signs)."""
    w, v = volta.linalg.eigh(a)
    return w, v.abs(), (v * w.unsqueeze(-2)) @ v.mT, v.mT @ v


def _svd_invariants(a: volta.Tensor, full: bool = False) -> tuple[volta.Tensor, ...]:
    u, s, vh = volta.linalg.svd(a, full_matrices=full)
    k = s.shape[-1]
    return (s, u.abs(), vh.abs(), (u[..., :k] * s.unsqueeze(-2)) @ vh[..., :k, :],
            u.mT @ u, vh @ vh.mT)


INVARIANT_CASES: dict[str, tuple[Callable[..., Any], list[np.ndarray], bool]] = {
    "eigh": (_eigh_invariants, [SYMMETRIC], True),
    "eigh_strided": (lambda a: _eigh_invariants(a.mT[:, 1:, 1:]), [SYMMETRIC], True),
    "svd_tall": (_svd_invariants, [TALL], True),
    "svd_wide": (lambda a: _svd_invariants(a.mT), [TALL], True),
    "svd_full_tall": (lambda a: _svd_invariants(a, True)[:1] + _svd_invariants(a, True)[3:],
                      [TALL], False),
    "svd_full_wide": (lambda a: _svd_invariants(a.mT, True)[:1]
                      + _svd_invariants(a.mT, True)[3:], [TALL], False),
}


@pytest.mark.parametrize("name", sorted(INVARIANT_CASES))
def test_vectors_match_cpu_up_to_sign(wgpu: str, no_fallback: None, name: str) -> None:
    fn, arrays, grad = INVARIANT_CASES[name]
    _compare(fn, arrays, wgpu, grad, tol=5e-4)


def test_rank_deficient_svd_completes_an_orthonormal_basis(wgpu: str, no_fallback: None
                                                           ) -> None:
    a = TALL.copy()
    a[:, :, 3] = a[:, :, 0] - a[:, :, 1]  # rank 3
    u, s, vh = volta.linalg.svd(volta.tensor(a, device=wgpu), full_matrices=True)
    u, s, vh = u.cpu().numpy(), s.cpu().numpy(), vh.cpu().numpy()
    np.testing.assert_allclose(u.transpose(0, 2, 1) @ u, np.broadcast_to(np.eye(6), u.shape),
                               atol=1e-5)
    np.testing.assert_allclose((u[..., :4] * s[:, None]) @ vh, a, atol=1e-5)
    np.testing.assert_allclose(s, np.linalg.svd(a, compute_uv=False), atol=1e-5)


@pytest.mark.parametrize("op", ["inv", "solve", "lu_factor"])
def test_singular_inputs_raise_the_cpu_error(wgpu: str, no_fallback: None, op: str) -> None:
    calls = {"inv": lambda a: volta.linalg.inv(a),
             "solve": lambda a: volta.linalg.solve(a, a[..., :1]),
             "lu_factor": lambda a: volta.linalg.lu_factor(a)}
    a = SINGULAR.copy()
    a[1] = np.triu(a[1])
    a[1, 2, 2] = 0.0  # an exact zero pivot
    messages = []
    for device in ("cpu", wgpu):
        with pytest.raises(volta.errors.LinAlgError) as info:
            calls[op](volta.tensor(a, device=device))
        messages.append(str(info.value))
    assert messages[0] == messages[1] and "(Batch element 1)" in messages[0]


def test_singular_inputs_give_the_cpu_info_and_nan(wgpu: str, no_fallback: None) -> None:
    a = SINGULAR.copy()
    a[1] = np.triu(a[1])
    a[1, 2, 2] = 0.0
    _compare(lambda x: volta.linalg.inv_ex(x), [a], wgpu, grad=False)
    _compare(lambda x, b: volta.linalg.solve_ex(x, b), [a, RHS], wgpu, grad=False)
    _compare(lambda x: volta.linalg.lu_factor_ex(x), [a], wgpu, grad=False)


def test_not_positive_definite_raises_the_cpu_error(wgpu: str, no_fallback: None) -> None:
    messages = []
    for device in ("cpu", wgpu):
        with pytest.raises(volta.errors.LinAlgError) as info:
            volta.linalg.cholesky(volta.tensor(INDEFINITE, device=device))
        messages.append(str(info.value))
    assert messages[0] == messages[1] and "order 3" in messages[0]


@pytest.mark.parametrize("computed", [False, True], ids=["uploaded", "computed_on_device"])
def test_lu_unpack_rejects_out_of_range_pivots(wgpu: str, no_fallback: None, computed: bool
                                               ) -> None:
    messages = []
    for device in ("cpu", wgpu):
        pivots = volta.tensor([1, 2, 9, 4, 5], dtype=volta.int32, device=device)
        if computed:  # no host-known range: the bounds are read back
            pivots = pivots * 1
        with pytest.raises(volta.VoltaError, match="pivots out of range") as info:
            volta.lu_unpack(volta.tensor(SQUARE[0], device=device), pivots)
        messages.append(str(info.value))
    assert messages[0] == messages[1]


def test_too_large_matrices_raise_a_shape_error_naming_the_limit(wgpu: str, no_fallback: None
                                                                 ) -> None:
    with pytest.raises(volta.errors.ShapeError, match="65,535"):
        volta.linalg.qr(volta.zeros(MAX_ORDER + 1, 2, device=wgpu))


def test_lavapipe_counts_loop_iterations_over_all_loops(wgpu: str) -> None:
    """Note [lavapipe loop budget]: two loops of 40,000 iterations in one invocation run
    65,535 in all on lavapipe (any other adapter runs them whole)."""
    from volta.backends.wgpu.kernels.rows import run
    from volta.backends.wgpu.storage import empty

    counts = empty((2,), volta.int32, volta.zeros(1, device=wgpu)._device)
    run("  var a = 0; var b = 0;\n"
        "  for (var i = 0u; i < pu(1u); i = i + 1u) { a = a + 1; }\n"
        "  for (var i = 0u; i < pu(1u); i = i + 1u) { b = b + 1; }\n"
        "  b1[0] = a; b1[1] = b;", 1, [(counts, True)], [40_000])
    a, b = counts.cpu().numpy().tolist()
    lavapipe = "llvmpipe" in volta.wgpu.adapter_name().lower()
    assert a == 40_000 and (a + b == 65_534 if lavapipe else b == 40_000)
    assert linalg_decomp.BUDGET < 65_535


SMALL_RANGES: dict[str, tuple[Callable[..., Any], list[np.ndarray]]] = {
    "lu": (lambda a: volta.linalg.lu_factor_ex(a), [SQUARE]),
    "inv": (lambda a: volta.linalg.inv(a), [SQUARE]),
    "solve_triangular": (lambda a, b: volta.linalg.solve_triangular(
        a + 4 * volta.eye(5, device=a.device), b, upper=False), [SQUARE, RHS]),
    "cholesky": (lambda a: volta.linalg.cholesky(a), [SPD]),
    "qr": (lambda a: volta.linalg.qr(a, "complete"), [TALL]),
    "eigh": (_eigh_invariants, [SYMMETRIC]),
    "svd": (lambda a: _svd_invariants(a, True)[:1] + _svd_invariants(a, True)[3:], [TALL]),
    "ldl": (lambda a, b: (*volta.linalg.ldl_factor(a),
                          volta.linalg.ldl_solve(*volta.linalg.ldl_factor(a), b)),
            [SYMMETRIC_2X2, RHS]),
}


@pytest.mark.parametrize("name", sorted(SMALL_RANGES))
def test_steps_split_over_many_dispatches_give_the_same_result(
        wgpu: str, no_fallback: None, monkeypatch: pytest.MonkeyPatch, name: str) -> None:
    """A tiny budget splits every kernel into ranges of one step each (the path large
    matrices take): the state carried between dispatches must make it the same computation."""
    fn, arrays = SMALL_RANGES[name]

    def dispatches() -> int:
        volta.wgpu.synchronize()
        before = volta.wgpu.counters()["dispatches"]
        _run(wgpu, fn, arrays, grad=False)
        return volta.wgpu.counters()["dispatches"] - before

    whole = dispatches()
    monkeypatch.setattr(linalg_decomp, "BUDGET", 1)  # one step per dispatch
    assert dispatches() > whole + 3
    _compare(fn, arrays, wgpu, grad=False, tol=5e-4)


def test_bad_shapes_raise_the_cpu_error(wgpu: str, no_fallback: None) -> None:
    messages = []
    for device in ("cpu", wgpu):
        a = volta.tensor(SQUARE, device=device)
        with pytest.raises(volta.errors.ShapeError) as info:
            volta.linalg.solve(a, a[:, :4])
        messages.append(str(info.value))
    assert messages[0] == messages[1]
