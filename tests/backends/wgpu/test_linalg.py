"""mm / matmul / bmm / addmm / linear on WGPU (the tiled GEMM kernels), against the CPU backend,
forward and backward, and a training step that stays on the device."""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Callable
from pathlib import Path

import numpy as np
import pytest

import volta
import volta.nn.functional as F
from tests.backends.wgpu.conftest import assert_same, assert_training_step_stays_on_device

RNG = np.random.default_rng(7)
View = Callable[[volta.Tensor], volta.Tensor]


def _pair(shape: tuple[int, ...], wgpu: str, view: View | None = None,
          grad: bool = False) -> tuple[volta.Tensor, volta.Tensor]:
    data = RNG.standard_normal(shape).astype(np.float32)
    cpu, gpu = volta.tensor(data, requires_grad=grad), volta.tensor(data, device=wgpu,
                                                                    requires_grad=grad)
    return (cpu, gpu) if view is None else (view(cpu), view(gpu))


def _check(fn: Callable[..., volta.Tensor], shapes: list[tuple[int, ...]], wgpu: str,
           views: list[View | None] | None = None, backward: bool = True) -> None:
    views = views or [None] * len(shapes)
    leaves = [_pair(s, wgpu, grad=backward) for s in shapes]
    ins = [(v(c), v(g)) if v else (c, g) for (c, g), v in zip(leaves, views, strict=True)]
    want = fn(*(c for c, _ in ins))
    got = fn(*(g for _, g in ins))
    assert got.device.type == "wgpu"
    assert_same(got, want, rtol=1e-4, atol=1e-4)
    if backward:
        seed = RNG.standard_normal(tuple(want.shape)).astype(np.float32)
        want.backward(volta.tensor(seed))
        got.backward(volta.tensor(seed, device=wgpu))
        for c, g in leaves:
            assert_same(g.grad, c.grad, rtol=1e-4, atol=1e-4)


T: View = lambda t: t.t()  # noqa: E731
SLICE: View = lambda t: t[:, 1:]  # noqa: E731


@pytest.mark.parametrize("shapes,views", [
    ([(5, 7), (7, 3)], None),
    ([(33, 70), (70, 130)], None),  # odd sizes, several tiles
    ([(64, 32), (32, 64)], None),  # whole tiles
    ([(7, 5), (3, 7)], [T, T]),  # transposed operands
    ([(5, 8), (7, 3)], [SLICE, None]),  # a slice (offset, row stride)
])
def test_mm(wgpu: str, shapes: list, views: list | None) -> None:
    _check(volta.mm, shapes, wgpu, views)


@pytest.mark.parametrize("shapes", [
    [(7,), (7,)], [(7,), (7, 3)], [(5, 7), (7,)], [(2, 5, 7), (7,)], [(7,), (2, 7, 3)],
    [(2, 1, 5, 7), (3, 7, 4)],  # broadcast batch dims
    [(4, 2, 3, 5, 7), (7, 4)],  # rows folded into one GEMM
    [(4, 2, 3, 5, 7), (2, 1, 7, 4)],  # more batch dims than the GEMM takes
    [(3, 5, 0), (0, 4)],  # empty K
])
def test_matmul(wgpu: str, shapes: list) -> None:
    _check(volta.matmul, shapes, wgpu)


def test_matmul_of_a_transposed_batch_and_of_itself(wgpu: str) -> None:
    _check(volta.matmul, [(3, 7, 5), (3, 7, 4)], wgpu, [lambda t: t.transpose(1, 2), None])
    _check(lambda x: x @ x.T, [(6, 4)], wgpu)  # one buffer bound as A and B


def test_bmm(wgpu: str) -> None:
    _check(volta.bmm, [(3, 5, 7), (3, 7, 9)], wgpu)


@pytest.mark.parametrize("self_shape,beta,alpha", [
    ((5, 3), 1, 1), ((5, 3), 0.5, 2.0), ((3,), 1, 1), ((5, 1), 1, -1.5), ((3,), 2.0, 1),
    ((), 1, 1), ((5, 3), 0, 3.0)])
def test_addmm(wgpu: str, self_shape: tuple, beta: float, alpha: float) -> None:
    _check(lambda s, a, b: volta.addmm(s, a, b, beta=beta, alpha=alpha),
           [self_shape, (5, 7), (7, 3)], wgpu)


def test_addmm_with_beta_zero_ignores_nan(wgpu: str) -> None:
    nan = volta.full((2, 2), float("nan"), device=wgpu)
    a = volta.ones(2, 3, device=wgpu)
    assert volta.addmm(nan, a, a.T, beta=0).tolist() == [[3.0, 3.0], [3.0, 3.0]]


@pytest.mark.parametrize("shapes", [
    [(4, 6), (3, 6), (3,)], [(4, 6), (3, 6)], [(2, 4, 6), (3, 6), (3,)], [(6,), (3, 6), (3,)]])
def test_linear(wgpu: str, shapes: list) -> None:
    _check(F.linear, shapes, wgpu)


def test_float16_matmul_and_conv(wgpu: str) -> None:
    a = volta.tensor(RNG.standard_normal((2, 9, 12)), dtype=volta.float16)
    b = volta.tensor(RNG.standard_normal((12, 5)), dtype=volta.float16)
    if "shader-f16" not in volta.wgpu.features():  # CI's lavapipe has it
        with pytest.raises(volta.errors.DTypeError, match="shader-f16"):
            a.to(wgpu) @ b.to(wgpu)
        return
    got = (a.to(wgpu) @ b.to(wgpu)).cpu()
    assert got.dtype == volta.float16
    np.testing.assert_allclose(got.float().numpy(), (a.float() @ b.float()).numpy(),
                               rtol=1e-2, atol=2e-2)
    x = volta.tensor(RNG.standard_normal((1, 2, 5, 5)), dtype=volta.float16)
    w = volta.tensor(RNG.standard_normal((3, 2, 3, 3)), dtype=volta.float16)
    got = F.conv2d(x.to(wgpu), w.to(wgpu), padding=1).cpu()
    np.testing.assert_allclose(got.float().numpy(), F.conv2d(x.float(), w.float(),
                                                             padding=1).numpy(),
                               rtol=1e-2, atol=3e-2)


def _ints(shape: tuple[int, ...], dtype: volta.dtype, wgpu: str
          ) -> tuple[volta.Tensor, volta.Tensor]:
    data = RNG.integers(-40, 40, shape)
    return volta.tensor(data, dtype=dtype), volta.tensor(data, dtype=dtype, device=wgpu)


INTEGER_PRODUCTS = {
    "mm": (volta.mm, [(9, 17), (17, 6)]),
    "mm_tiles": (volta.mm, [(130, 68), (68, 72)]),  # several tiles, ragged edges
    "mm_transposed": (lambda a, b: volta.mm(a.T, b), [(17, 9), (17, 6)]),
    "matmul_vector": (volta.matmul, [(5, 4, 8), (8,)]),
    "matmul_broadcast": (volta.matmul, [(3, 1, 4, 6), (2, 6, 5)]),
    "bmm": (volta.bmm, [(3, 7, 8), (3, 8, 4)]),
}


@pytest.mark.parametrize("dtype", [volta.int32, volta.int64], ids=["int32", "int64"])
@pytest.mark.parametrize("case", sorted(INTEGER_PRODUCTS))
def test_integer_products_run_on_the_device(wgpu: str, no_fallback: None, case: str,
                                            dtype: volta.dtype) -> None:
    fn, shapes = INTEGER_PRODUCTS[case]
    pairs = [_ints(shape, dtype, wgpu) for shape in shapes]
    want = fn(*(cpu for cpu, _ in pairs))
    got = fn(*(gpu for _, gpu in pairs))
    assert got.dtype == dtype
    assert_same(got, want)
    assert torch_product(case, [cpu.numpy() for cpu, _ in pairs]) == got.cpu().tolist()


def torch_product(case: str, arrays: list[np.ndarray]) -> list:
    import torch
    fns = {"mm": torch.mm, "mm_tiles": torch.mm, "bmm": torch.bmm,
           "mm_transposed": lambda a, b: torch.mm(a.T, b),
           "matmul_vector": torch.matmul, "matmul_broadcast": torch.matmul}
    return fns[case](*(torch.from_numpy(a) for a in arrays)).tolist()


@pytest.mark.parametrize("dtype", [volta.int32, volta.int64], ids=["int32", "int64"])
@pytest.mark.parametrize(("self_shape", "beta", "alpha"),
                         [((6,), 1, 1), ((4, 6), 2, 3), ((4, 1), 0, 1), ((), 1, -2)])
def test_integer_addmm_runs_on_the_device(wgpu: str, no_fallback: None, dtype: volta.dtype,
                                          self_shape: tuple[int, ...], beta: int,
                                          alpha: int) -> None:
    (c_cpu, c_gpu), (a_cpu, a_gpu), (b_cpu, b_gpu) = (
        _ints(self_shape, dtype, wgpu), _ints((4, 5), dtype, wgpu), _ints((5, 6), dtype, wgpu))
    got = volta.addmm(c_gpu, a_gpu, b_gpu, beta=beta, alpha=alpha)
    assert_same(got, volta.addmm(c_cpu, a_cpu, b_cpu, beta=beta, alpha=alpha))


def test_bool_matmul_raises_the_cpu_error(wgpu: str, no_fallback: None) -> None:
    a = volta.ones(2, 2, dtype=volta.bool, device=wgpu)
    with pytest.raises(volta.DTypeError, match="Bool"):
        volta.mm(a, a)


def test_mlp_training_step_stays_on_the_device(wgpu: str) -> None:
    volta.manual_seed(0)
    model = volta.nn.Sequential(volta.nn.Linear(8, 16), volta.nn.ReLU(),
                                volta.nn.Linear(16, 3)).to(wgpu)
    assert_training_step_stays_on_device(model, volta.randn(10, 8).to(wgpu),
                                         volta.randn(10, 3).to(wgpu))


def test_gemm_uses_the_tuned_tile_shape(wgpu: str, tmp_path: Path,
                                        monkeypatch: pytest.MonkeyPatch) -> None:
    from volta.backends.wgpu.kernels import harness, linalg
    from volta.backends.wgpu.kernels import matmul as G
    from volta.backends.wgpu.runtime import get
    rt = get(0)
    chosen = G.MatmulConfig(bm=32, bn=32, bk=8, tm=4, tn=4)
    path = tmp_path / "tuning.json"
    path.write_text(json.dumps({harness.adapter_name(rt.device): {
        G.size_class(300, 200, 100): {"config": dataclasses.asdict(chosen)}}}))
    monkeypatch.setenv(G.TUNING_CACHE_ENV, str(path))
    monkeypatch.setattr(linalg, "_TUNED", {})
    assert linalg.gemm_config(rt, 300, 200, 100) == chosen
    assert linalg.gemm_config(rt, 3000, 2000, 1000) == G.default_config(3000, 2000, 1000)
    _check(volta.mm, [(300, 100), (100, 200)], wgpu, backward=False)


def test_split_k_gemm(wgpu: str) -> None:
    from volta.backends.wgpu.kernels import matmul as G
    assert G.choose_splits(G.default_config(4, 3, 4096), 4, 3, 4096, 1) > 1  # split below
    _check(volta.mm, [(4, 4096), (4096, 3)], wgpu)
