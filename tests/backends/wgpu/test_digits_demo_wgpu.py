"""`make demo DEMO_ARGS="--device wgpu"`, shortened: the digits CNN script trains on WGPU end to
end (conv, batch norm, max pool, dropout drawn on the device, AdamW, cross-entropy, checkpoint
save and reload) on a slice of the data, with no op through the CPU fallback. The full run
(10 epochs, all 1797 images) reaches >= 97% on lavapipe: volta/backends/wgpu/README.md."""

from __future__ import annotations

from pathlib import Path

import pytest

import volta
from tests.examples.scripts import load_script


def test_digits_cnn_trains_on_wgpu(wgpu: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                   capsys: pytest.CaptureFixture[str]) -> None:
    script = load_script("train_digits_cnn")
    images, labels = volta.datasets.digits()
    # 400 images: 5 training batches of 64 per epoch keep the run short on a software GPU
    monkeypatch.setattr(volta.datasets, "digits", lambda: (images[:400], labels[:400]))
    fallbacks = dict(volta.dispatch.cpu_fallback_counts())
    code = script.main(["--epochs", "3", "--out", str(tmp_path), "--min-accuracy", "0.6",
                        "--device", wgpu])
    out = capsys.readouterr().out
    assert code == 0, out  # accuracy >= 0.6 and the reloaded checkpoint agrees
    assert "on wgpu" in out
    assert volta.dispatch.cpu_fallback_counts() == fallbacks
    assert (tmp_path / "digits_cnn.safetensors").exists()
