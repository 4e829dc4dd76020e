"""Generated WGSL GEMM kernels against numpy, on whatever adapter wgpu finds (lavapipe in CI).

Every candidate config runs the unaligned (bounds-checked), vec4 and aligned specialisations
and both transposes; batching, broadcasting, alpha/beta/bias, odd strides and offsets run on
two configs (they do not depend on the tile shape). Sizes stay small: a software adapter.
"""

from __future__ import annotations

import json
import struct

import numpy as np
import pytest

from volta.backends.wgpu.kernels import harness
from volta.backends.wgpu.kernels import matmul as mm
from volta.errors import InvalidArgumentError

SMALL = mm.CANDIDATES[-1]  # 32x32 tiles: the cheapest to run on a CPU adapter
rng = np.random.default_rng(1234)


def randn(*shape: int) -> np.ndarray:
    return rng.standard_normal(shape).astype(np.float32)


def view_of(array: np.ndarray, offset: int = 0) -> mm.MatrixView:
    """MatrixView of a numpy view ``array`` (2-d) into a flat float32 buffer at ``offset``."""
    rows, cols = (s // array.itemsize for s in array.strides)
    return mm.MatrixView(offset, rows, cols)


def matmul(device, config, a: np.ndarray, b: np.ndarray, *, trans_a=False, trans_b=False,
           **kwargs) -> tuple[np.ndarray, mm.GemmLaunch]:
    """a @ b through the generated kernel; ``trans_*`` stores the operand transposed."""
    M, K = a.shape
    N = b.shape[1]
    a_store = np.ascontiguousarray(a.T) if trans_a else a
    b_store = np.ascontiguousarray(b.T) if trans_b else b
    a_view = mm.MatrixView.contiguous(K, M).transposed() if trans_a else view_of(a)
    b_view = mm.MatrixView.contiguous(N, K).transposed() if trans_b else view_of(b)
    launch = mm.matmul_launch(config, M, N, K, a_view, b_view, mm.MatrixView.contiguous(M, N),
                              **kwargs)
    out = launch.run(device, [a_store, b_store, np.zeros((M, N), np.float32)])
    return out, launch


def assert_close(actual: np.ndarray, expected: np.ndarray) -> None:
    np.testing.assert_allclose(actual, expected, rtol=1e-4, atol=1e-4)


@pytest.mark.parametrize("config", mm.CANDIDATES, ids=lambda c: c.name)
def test_every_candidate_matches_numpy(device, config: mm.MatmulConfig) -> None:
    bm, bn, bk = config.bm, config.bn, config.bk
    cases = [
        # (M, N, K), trans_a, trans_b, (aligned, vec4 a, vec4 b) expected
        ((1, 1, 1), False, False, (False, False, False)),
        ((37, 53, 29), False, False, (False, False, False)),  # primes: scalar, checked
        ((2, 7, 3), False, False, (False, False, False)),
        ((36, 44, 20), False, False, (False, True, True)),  # multiples of 4 only
        ((bm * 2, bn, bk * 3), False, False, (True, True, True)),
        ((36, 44, 20), True, True, (False, True, True)),  # A stored K x M, B stored N x K
        ((bm, bn * 2, bk * 2), True, False, (True, True, True)),
        ((bm, bn, bk), False, True, (True, True, True)),
        ((37, 53, 29), True, True, (False, False, False)),
    ]
    for (M, N, K), trans_a, trans_b, flags in cases:
        a, b = randn(M, K), randn(K, N)
        out, launch = matmul(device, config, a, b, trans_a=trans_a, trans_b=trans_b)
        spec = launch.kernel.spec
        assert (spec.aligned, spec.a.vec4, spec.b.vec4) == flags, (M, N, K)
        assert_close(out, a @ b)


def test_batched_with_broadcast(device) -> None:
    """4-d batch (2, 3): A broadcast over the second batch dim, B over the first."""
    M, N, K = 9, 10, 12
    a = randn(2, 1, M, K)
    b = randn(1, 3, K, N)
    c = np.zeros((2, 3, M, N), np.float32)
    launch = mm.matmul_launch(
        SMALL, M, N, K, mm.MatrixView(0, K, 1, (M * K, 0)), mm.MatrixView(0, N, 1, (0, K * N)),
        mm.MatrixView.contiguous(M, N, (2, 3)), batch=(2, 3))
    assert launch.workgroups == (1, 1, 6)
    out = launch.run(device, [a, b, c])
    assert_close(out, a @ b)


def test_bmm_transposed_batches_aligned(device) -> None:
    """bmm with both operands transposed per batch, sizes that hit the vec4 path."""
    B, M, N, K = 3, 32, 64, 48
    a_t, b_t = randn(B, K, M), randn(B, N, K)
    launch = mm.matmul_launch(
        SMALL, M, N, K, mm.MatrixView(0, 1, M, (0, K * M)), mm.MatrixView(0, 1, K, (0, N * K)),
        mm.MatrixView.contiguous(M, N, (1, B)), batch=(1, B))
    assert launch.kernel.spec.a.vec4 and launch.kernel.spec.b.vec4
    out = launch.run(device, [a_t, b_t, np.zeros((B, M, N), np.float32)])
    assert_close(out, a_t.transpose(0, 2, 1) @ b_t.transpose(0, 2, 1))


@pytest.mark.parametrize("config", [SMALL, mm.CANDIDATES[0]], ids=lambda c: c.name)
def test_alpha_beta_and_bias(device, config: mm.MatmulConfig) -> None:
    M, N, K = 20, 12, 8
    a, b, c0 = randn(M, K), randn(K, N), randn(M, N)
    row_bias, col_bias = randn(M), randn(N)
    views = (view_of(a), view_of(b), mm.MatrixView.contiguous(M, N))
    addmm = mm.matmul_launch(config, M, N, K, *views, alpha=0.5, beta=-2.0)
    assert_close(addmm.run(device, [a, b, c0]), 0.5 * (a @ b) - 2.0 * c0)
    linear = mm.matmul_launch(config, M, N, K, *views, bias="n")
    assert_close(linear.run(device, [a, b, c0, col_bias]), a @ b + col_bias)
    per_row = mm.matmul_launch(config, M, N, K, *views, bias="m", beta=1.0)
    assert_close(per_row.run(device, [a, b, c0, row_bias]), a @ b + c0 + row_bias[:, None])


def test_strided_views_and_offsets(device) -> None:
    """Operands that are slices with steps (no unit stride) and start at odd offsets."""
    base_a = randn(3 + 2 * 15 * 22)
    base_b = randn(5 + 3 * 22 * 14)
    a = np.lib.stride_tricks.as_strided(base_a[3:], (15, 11), (2 * 22 * 4, 2 * 4))
    b = np.lib.stride_tricks.as_strided(base_b[5:], (11, 7), (3 * 14 * 4, 2 * 4))
    c = np.zeros(1 + 15 * 9, np.float32)  # output rows 9 apart, after one element
    launch = mm.matmul_launch(SMALL, 15, 7, 11, mm.MatrixView(3, 44, 2),
                              mm.MatrixView(5, 42, 2), mm.MatrixView(1, 9, 1))
    assert launch.kernel.spec.a.layout == launch.kernel.spec.b.layout == "strided"
    out = launch.run(device, [base_a, base_b, c])
    assert_close(out[1:].reshape(15, 9)[:, :7], a @ b)
    assert out[0] == 0 and not out[1:].reshape(15, 9)[:, 7:].any()


@pytest.mark.parametrize("config", [SMALL, mm.CANDIDATES[2]], ids=lambda c: c.name)
def test_split_k(device, config: mm.MatmulConfig) -> None:
    """Long K, small output: K split over b0, partial sums reduced by a second kernel into a
    strided output (with alpha), for explicit and automatic split counts and a batch."""
    M, N, K = 5, 7, 8200
    a, b = randn(M, K), randn(K, N)
    out_t = np.zeros((N, M), np.float32)  # write C transposed: strides (1, M)
    launch = mm.matmul_launch(config, M, N, K, view_of(a), view_of(b), mm.MatrixView(0, 1, M),
                              alpha=0.5, split_k="auto")
    assert launch.split is not None and launch.split.splits == 8
    assert_close(launch.run(device, [a, b, out_t]).T, 0.5 * (a @ b))
    ab, bb = randn(3, 20, 33), randn(3, 33, 6)
    batched = mm.matmul_launch(config, 20, 6, 33, mm.MatrixView(0, 33, 1, (0, 20 * 33)),
                               mm.MatrixView(0, 6, 1, (0, 33 * 6)),
                               mm.MatrixView.contiguous(20, 6, (1, 3)), batch=(1, 3), split_k=4)
    assert batched.split.splits == 3  # 33 = 16 + 16 + 1 for bk=16: chunks are whole tiles
    assert_close(batched.run(device, [ab, bb, np.zeros((3, 20, 6), np.float32)]), ab @ bb)
    with pytest.raises(InvalidArgumentError, match="split-K"):
        mm.matmul_launch(config, M, N, K, view_of(a), view_of(b), mm.MatrixView(0, 1, M),
                         beta=1.0, split_k=2)


def test_empty_reduction_gives_bias_only(device) -> None:
    launch = mm.matmul_launch(SMALL, 3, 5, 0, mm.MatrixView(0, 1, 1),
                              mm.MatrixView(0, 5, 1), mm.MatrixView.contiguous(3, 5), bias="n")
    bias = randn(5)
    out = launch.run(device, [np.zeros(1, np.float32), np.zeros(1, np.float32),
                              np.ones((3, 5), np.float32), bias])
    assert_close(out, np.broadcast_to(bias, (3, 5)))


def test_float16(device) -> None:
    M, N, K = 33, 20, 24
    a, b = randn(M, K).astype(np.float16), randn(K, N).astype(np.float16)
    launch = mm.matmul_launch(SMALL, M, N, K, view_of(a), view_of(b),
                              mm.MatrixView.contiguous(M, N), dtype="f16")
    assert launch.kernel.source.startswith("enable f16;")
    assert "array<vec4<f16>>" in launch.kernel.source  # K, N multiples of 4: vec4 loads
    if harness.has_f16(device):  # lavapipe has it; the OpenGL adapter does not
        out = launch.run(device, [a, b, np.zeros((M, N), np.float16)])
        expected = a.astype(np.float32) @ b.astype(np.float32)
        np.testing.assert_allclose(out.astype(np.float32), expected, rtol=1e-2, atol=5e-2)


def test_generated_source_is_unrolled_with_scalar_accumulators() -> None:
    """Note [unrolled GEMM]: no function-local arrays, one var per accumulator."""
    config = mm.CANDIDATES[0]
    launch = mm.matmul_launch(config, 256, 256, 64, mm.MatrixView.contiguous(256, 64),
                              mm.MatrixView.contiguous(64, 256), mm.MatrixView.contiguous(256, 256))
    source = launch.kernel.source
    assert "var<function>" not in source and "array<f32," not in source
    assert source.count("var acc_") == config.tm * config.tn
    assert source.count("fma(") == config.tm * config.tn * config.bk
    assert source.count("for (") == 1  # only the loop over K tiles
    assert "if (" not in source.split("let c_base")[1]  # aligned: unguarded stores


def test_params_layout() -> None:
    raw = mm.pack_params(M=3, N=4, K=5, alpha=2.5, beta=-1.0)
    assert len(raw) == mm.PARAMS_SIZE and len(raw) % 16 == 0
    names = [name for name, _ in mm.PARAMS_FIELDS]
    assert struct.unpack_from("<3I", raw, 0) == (3, 4, 5)
    assert struct.unpack_from("<f", raw, 4 * names.index("alpha"))[0] == 2.5
    assert struct.unpack_from("<f", raw, 4 * names.index("beta"))[0] == -1.0
    with pytest.raises(InvalidArgumentError, match="unknown GEMM params"):
        mm.pack_params(Q=1)


def test_invalid_configs_are_rejected() -> None:
    with pytest.raises(InvalidArgumentError, match="multiples of 4"):
        mm.MatmulConfig(tm=3).validate()
    with pytest.raises(InvalidArgumentError, match="threads"):
        mm.MatmulConfig(bm=64, bn=64, bk=4, tm=4, tn=4).validate()
    for config in mm.CANDIDATES:
        config.validate()
        assert config.threads <= 256 and config.workgroup_storage_bytes() <= 16384


def test_workgroup_count() -> None:
    launch = mm.matmul_launch(SMALL, 33, 65, 7, mm.MatrixView.contiguous(33, 7),
                              mm.MatrixView.contiguous(7, 65), mm.MatrixView.contiguous(33, 65),
                              batch=(2, 5))
    assert launch.workgroups == (3, 2, 10)
    assert launch.kernel.workgroup_count(33, 65, 10) == (3, 2, 10)


def test_size_class_buckets() -> None:
    assert mm.size_class(1000, 1024, 513) == "1024x1024x1024"
    assert mm.size_class(1, 9000, 3) == "1x4096x4"


def test_tune_times_once_per_size_class_and_caches(device, tmp_path, monkeypatch) -> None:
    cache = tmp_path / "sub" / "tuning.json"
    monkeypatch.setenv(mm.TUNING_CACHE_ENV, str(cache))
    monkeypatch.delenv(mm.TUNING_ENV, raising=False)
    timed = []

    def timer(dev, config, M, N, K):
        timed.append(config)
        return mm.time_config(dev, config, M, N, K, repeats=1)

    candidates = (mm.CANDIDATES[-1], mm.CANDIDATES[-2])
    best = mm.tune(device, 40, 40, 40, candidates=candidates, timer=timer)
    assert best in candidates and timed == list(candidates)
    stored = json.loads(cache.read_text())[harness.adapter_name(device)]["64x64x64"]
    assert mm.MatmulConfig(**stored["config"]) == best
    assert set(stored["timings"]) == {c.name for c in candidates}

    # same size class: read from the file, nothing timed (also in a "new process": no memo)
    assert mm.tune(device, 60, 33, 64, candidates=candidates, timer=timer) == best
    assert len(timed) == 2
    mm.tune(device, 8, 8, 8, candidates=candidates, timer=timer)  # a new class is timed
    assert len(timed) == 4 and len(json.loads(cache.read_text())[harness.adapter_name(device)]) == 2


def test_tune_disabled_is_deterministic(device, tmp_path, monkeypatch) -> None:
    cache = tmp_path / "tuning.json"
    monkeypatch.setenv(mm.TUNING_CACHE_ENV, str(cache))
    monkeypatch.setenv(mm.TUNING_ENV, "0")

    def timer(*args):
        raise AssertionError("tuning is off: nothing may be timed")

    for size in [(1, 1, 1), (300, 300, 300), (4096, 4096, 4096)]:
        assert mm.tune(device, *size, timer=timer) == mm.default_config(*size)
    assert not cache.exists()


def test_tuning_cache_path_default(monkeypatch, tmp_path) -> None:
    monkeypatch.delenv(mm.TUNING_CACHE_ENV, raising=False)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    assert mm.tuning_cache_path() == tmp_path / "volta" / "wgpu_tuning.json"
