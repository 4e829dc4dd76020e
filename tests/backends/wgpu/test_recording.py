"""The per-op fast path: repeated op signatures compile and bind nothing new, buffers freed in
the open batch serve later kernel outputs without aliasing live ones, results stay serial."""

from __future__ import annotations

import threading

import numpy as np

import volta
from volta.backends.wgpu import runtime
from volta.backends.wgpu.storage import WgpuStorage, handle_of


def _chain(x: volta.Tensor, ops: int) -> volta.Tensor:
    for _ in range(ops // 2):
        x = x * 1.0001 + 0.0001
    return x


def _chain_on_host(values: np.ndarray, ops: int) -> np.ndarray:
    x = values.astype(np.float32)
    for _ in range(ops // 2):
        x = (x * np.float32(1.0001)).astype(np.float32) + np.float32(0.0001)
    return x


def test_a_repeated_chain_compiles_binds_and_allocates_nothing_new(wgpu: str) -> None:
    x = volta.ones(16, device=wgpu)
    for _ in range(2):  # warm up: pipelines, the chain's few buffers and their bind groups
        _chain(x, 200).cpu()
    stats_before = volta.wgpu.memory_stats()
    before = volta.wgpu.counters()
    y = _chain(x, 200)
    after = volta.wgpu.counters()
    stats_after = volta.wgpu.memory_stats()
    assert after["dispatches"] - before["dispatches"] == 200
    assert after["pipelines"] == before["pipelines"]
    assert after["bind_groups"] == before["bind_groups"]
    assert stats_after["device_allocations"] == stats_before["device_allocations"]
    np.testing.assert_allclose(y.cpu().numpy(), _chain_on_host(np.ones(16), 200), rtol=1e-6)


def test_a_long_chain_cycles_through_a_few_buffers(wgpu: str) -> None:
    volta.wgpu.synchronize()
    x = volta.arange(16, dtype=volta.float32, device=wgpu)
    before = volta.wgpu.counters()
    stats_before = volta.wgpu.memory_stats()
    y = _chain(x, 600)
    after = volta.wgpu.counters()
    # two kernels (mul, add) over a handful of buffers, not one bind group per op
    assert after["bind_groups"] - before["bind_groups"] <= 8
    assert volta.wgpu.memory_stats()["device_allocations"] - \
        stats_before["device_allocations"] <= 3
    np.testing.assert_allclose(y.cpu().numpy(), _chain_on_host(np.arange(16), 600), rtol=1e-6)


def test_a_signature_change_gets_its_own_kernel_and_the_right_result(wgpu: str) -> None:
    a = volta.tensor([1, 2, 3], dtype=volta.int32, device=wgpu)
    f = volta.tensor([0.5, 1.5, 2.5], device=wgpu)
    # the same op with int, float, bool and tensor operands, in one open batch
    results = [a * 2, a * 2.5, f * 2, a * True, a * a, f * a, (a * 2) * 3]
    want = [np.array([2, 4, 6]), np.array([2.5, 5.0, 7.5]), np.array([1.0, 3.0, 5.0]),
            np.array([1, 2, 3]), np.array([1, 4, 9]), np.array([0.5, 3.0, 7.5]),
            np.array([6, 12, 18])]
    dtypes = [volta.int32, volta.float32, volta.float32, volta.int32, volta.int32,
              volta.float32, volta.int32]
    for got, expected, dtype in zip(results, want, dtypes, strict=True):
        assert got.dtype == dtype
        np.testing.assert_allclose(got.cpu().numpy(), expected)


def test_views_and_broadcasts_take_the_strided_path_after_the_fast_one(wgpu: str) -> None:
    host = np.arange(12, dtype=np.float32).reshape(3, 4)
    x = volta.tensor(host, device=wgpu)
    contiguous = x * 2.0
    transposed = x.T * 2.0  # same op and dtypes, other strides: must not reuse a 1-D shape
    broadcast = x + volta.tensor([1.0, 2.0, 3.0, 4.0], device=wgpu)
    np.testing.assert_array_equal(contiguous.cpu().numpy(), host * 2)
    np.testing.assert_array_equal(transposed.cpu().numpy(), host.T * 2)
    np.testing.assert_array_equal(broadcast.cpu().numpy(), host + np.array([1, 2, 3, 4]))


def test_reused_buffers_never_alias_live_tensors(wgpu: str) -> None:
    rng = np.random.default_rng(0)
    host = [rng.standard_normal(64).astype(np.float32) for _ in range(4)]
    kept = []
    x = volta.tensor(host[0], device=wgpu)
    expected = []
    value = host[0]
    for step in range(40):  # half the intermediates die at once, half stay alive
        x = x * 0.5 + 1.0
        value = value * np.float32(0.5) + np.float32(1.0)
        if step % 2:
            kept.append(x)
            expected.append(value.copy())
    handles = {id(t._storage.handle.mem) for t in kept}
    assert len(handles) == len(kept)  # every live tensor owns its own buffer
    for got, want in zip(kept, expected, strict=True):
        np.testing.assert_allclose(got.cpu().numpy(), want, rtol=1e-6)


def test_an_upload_into_a_buffer_the_open_batch_used_keeps_the_order(wgpu: str) -> None:
    x = volta.ones(64, device=wgpu)
    volta.wgpu.synchronize()  # buffers freed by earlier code are pooled, none is left open
    y = x * 3.0  # recorded, not submitted
    z = y + 1.0
    freed = handle_of(y).mem
    del y  # its buffer is free while the batch that wrote it is still open
    w = x * 2.0  # a kernel output takes that buffer
    assert handle_of(w).mem is freed
    # then the host writes it (the backend's copy_): the write must land after the batch
    WgpuStorage().copy_(handle_of(w), np.full(64, 7.0, np.float32))
    np.testing.assert_array_equal(z.cpu().numpy(), np.full(64, 4.0, np.float32))
    np.testing.assert_array_equal(w.cpu().numpy(), np.full(64, 7.0, np.float32))


def test_threads_recording_chains_give_the_serial_results(wgpu: str) -> None:
    rng = np.random.default_rng(1)
    starts = [rng.standard_normal(16).astype(np.float32) for _ in range(4)]
    results: dict[int, np.ndarray] = {}
    errors: list[BaseException] = []

    def run(i: int) -> None:
        try:
            results[i] = _chain(volta.tensor(starts[i], device=wgpu), 300).cpu().numpy()
        except BaseException as exc:  # reported by the main thread
            errors.append(exc)

    threads = [threading.Thread(target=run, args=(i,)) for i in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors
    for i, start in enumerate(starts):
        np.testing.assert_allclose(results[i], _chain_on_host(start, 300), rtol=1e-6)


def test_the_pass_recorder_without_native_calls_records_the_same(wgpu: str,
                                                                 monkeypatch) -> None:
    volta.wgpu.synchronize()  # the next pass opens with the patched recorder
    monkeypatch.setattr(runtime, "_NATIVE", None)
    x = volta.arange(16, dtype=volta.float32, device=wgpu)
    np.testing.assert_allclose(_chain(x, 50).cpu().numpy(), _chain_on_host(np.arange(16), 50),
                               rtol=1e-6)
    volta.wgpu.synchronize()


def test_parameter_lists_reach_the_kernel_as_words_or_packed_values(wgpu: str) -> None:
    rt = runtime.get(0)
    source = runtime.PARAMS_WGSL + (
        "@group(0) @binding(1) var<storage, read_write> o: array<f32>;\n"
        "@compute @workgroup_size(1) fn main() {\n"
        "  o[0] = pf(0u); o[1] = f32(pi(1u)); o[2] = f32(pu(2u)); }\n")
    kernel = rt.kernel(source, [True])
    mixed, words = volta.zeros(3, device=wgpu), volta.zeros(3, device=wgpu)
    rt.dispatch(kernel, [handle_of(mixed)], [1.5, -7, 9], (1, 1, 1))  # packed: f32 bits, i32
    one_and_a_half = int(np.float32(1.5).view(np.uint32))
    rt.dispatch(kernel, [handle_of(words)], [one_and_a_half, 7, 2**31], (1, 1, 1))  # u32 words
    assert mixed.tolist() == [1.5, -7.0, 9.0]
    assert words.tolist() == [1.5, 7.0, 2.0**31]
