"""Peak memory of one training step of a deep MLP, with and without activation checkpointing.

The MLP has ``DEPTH`` residual pre-norm blocks ``h = h + gelu(layer_norm(h) @ W + b)`` of width
``WIDTH`` on a batch of ``BATCH``, written with volta ops. One forward + backward runs plainly, then again with every layer
wrapped in ``volta.utils.checkpoint.checkpoint``. Peak memory comes from ``tracemalloc``, which
sees numpy's allocations (the CPU backend's storage). The gradients of all runs must be equal.
A third run uses ``checkpoint_sequential`` with ``SEGMENTS`` segments.

What to expect: each block keeps three activations for backward (layer_norm's input, the
matmul's input, gelu's input) while a checkpoint keeps only the block's input, so activation
memory drops about threefold. (A bare ``tanh(h @ W + b)`` layer would show no saving: it keeps
exactly one activation, its output, which is the next layer's input anyway.) The parameters and
their gradients are part of every peak.

Run: ``python benchmarks/checkpoint_memory.py``; writes benchmarks/results/checkpoint_memory.json.
"""

from __future__ import annotations

import functools
import gc
import json
import time
import tracemalloc
from pathlib import Path

import numpy as np

import volta
from volta.utils.checkpoint import checkpoint, checkpoint_sequential

DEPTH = 24
WIDTH = 512
BATCH = 256
SEGMENTS = 4
LAYER = "h + gelu(layer_norm(h) @ W + b)"
MODES = ("plain", "checkpoint", "sequential")
RESULTS = Path(__file__).resolve().parent / "results" / "checkpoint_memory.json"


def make_params(seed: int = 0) -> list[tuple[volta.Tensor, volta.Tensor]]:
    """``DEPTH`` (weight, bias) pairs, scaled so the residual stream stays well conditioned."""
    volta.manual_seed(seed)
    scale = 1.0 / WIDTH ** 0.5
    return [((volta.randn(WIDTH, WIDTH) * scale).requires_grad_(),
             volta.zeros(WIDTH).requires_grad_()) for _ in range(DEPTH)]


def layer(h: volta.Tensor, w: volta.Tensor, b: volta.Tensor) -> volta.Tensor:
    y = volta.nn.functional.layer_norm(h, (WIDTH,))
    return h + volta.nn.functional.gelu(y @ w + b)


def forward(params: list, x: volta.Tensor, mode: str) -> volta.Tensor:
    """The loss; ``mode`` is "plain", "checkpoint" (every layer) or "sequential"."""
    if mode == "sequential":
        layers = [functools.partial(layer, w=w, b=b) for w, b in params]
        h = checkpoint_sequential(layers, SEGMENTS, x)
    else:
        h = x
        for w, b in params:
            h = checkpoint(layer, h, w, b) if mode == "checkpoint" else layer(h, w, b)
    return (h * h).mean()


def measure(params: list, x: volta.Tensor, mode: str) -> dict:
    """One forward + backward under tracemalloc: peak bytes above the start, bytes the graph
    holds at the end of the forward, seconds, loss."""
    gc.collect()
    tracemalloc.start()
    start_bytes, _ = tracemalloc.get_traced_memory()
    t0 = time.perf_counter()
    loss = forward(params, x, mode)
    held, _ = tracemalloc.get_traced_memory()
    loss.backward()
    seconds = time.perf_counter() - t0
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    return {"loss": loss.item(), "peak_bytes": peak - start_bytes,
            "peak_mib": (peak - start_bytes) / 2**20,
            "held_after_forward_mib": (held - start_bytes) / 2**20, "seconds": seconds}


def main() -> dict:
    volta.manual_seed(1)
    x = volta.randn(BATCH, WIDTH)
    runs = {}
    grads = {}
    for mode in MODES:
        params = make_params()
        forward(params, x, mode).backward()  # warm-up: first-call caches stay out of the numbers
        for w, b in params:
            w.grad = None
            b.grad = None
        runs[mode] = measure(params, x, mode)
        grads[mode] = [np.array(t.grad.numpy()) for pair in params for t in pair]
    for mode in MODES[1:]:
        for a, b in zip(grads["plain"], grads[mode]):
            np.testing.assert_array_equal(a, b)
        assert runs[mode]["loss"] == runs["plain"]["loss"]
    report = {
        "model": {"depth": DEPTH, "width": WIDTH, "batch": BATCH, "dtype": "float32",
                  "layer": LAYER, "sequential_segments": SEGMENTS},
        "parameter_mib": DEPTH * (WIDTH * WIDTH + WIDTH) * 4 / 2**20,
        "activation_mib_per_layer": BATCH * WIDTH * 4 / 2**20,
        **runs,
        "saving_ratio": runs["plain"]["peak_bytes"] / runs["checkpoint"]["peak_bytes"],
        "saving_ratio_sequential": runs["plain"]["peak_bytes"]
        / runs["sequential"]["peak_bytes"],
        "gradients_equal": True,
    }
    RESULTS.parent.mkdir(parents=True, exist_ok=True)
    RESULTS.write_text(json.dumps(report, indent=2) + "\n")
    return report


if __name__ == "__main__":
    result = main()
    print(f"MLP {DEPTH} x {LAYER}, width {WIDTH}, batch {BATCH}: parameters "
          f"{result['parameter_mib']:.1f} MiB (gradients as much), one activation "
          f"{result['activation_mib_per_layer']:.2f} MiB")
    for mode in MODES:
        run = result[mode]
        print(f"  {mode:>10}: peak {run['peak_mib']:6.1f} MiB, graph holds "
              f"{run['held_after_forward_mib']:5.1f} MiB after forward, {run['seconds']:.2f} s, "
              f"loss {run['loss']:.6f}")
    print(f"  saving ratio (plain / checkpoint every layer): {result['saving_ratio']:.2f}x")
    print(f"  saving ratio (plain / checkpoint_sequential, {SEGMENTS} segments): "
          f"{result['saving_ratio_sequential']:.2f}x")
    print(f"  gradients identical; written to {RESULTS}")
