"""`make demo`'s script, run end to end for a short budget: it trains, saves a checkpoint that a
fresh model reloads with the same accuracy, and writes the training-curve plot."""

from __future__ import annotations

from pathlib import Path

import pytest

import volta
from tests.examples.scripts import load_script as _load
from volta.utils.data import DataLoader, TensorDataset


def load_script():
    return _load("train_digits_cnn")


def test_two_epochs_train_save_plot_and_reload(tmp_path: Path, capsys) -> None:
    script = load_script()
    out = tmp_path / "run"
    assert script.main(["--epochs", "2", "--out", str(out), "--min-accuracy", "0.8"]) == 0
    printed = capsys.readouterr().out
    assert "epoch  1/2" in printed and "epoch  2/2" in printed
    final = float(printed.split("test accuracy ")[1].split()[0])
    assert final > 0.8

    checkpoint = out / "digits_cnn.safetensors"
    state = volta.load(checkpoint)
    model = script.DigitsCNN()
    assert set(state) == set(model.state_dict())
    model.load_state_dict(state)
    images, labels = volta.datasets.digits()
    accuracy = script.evaluate(model, DataLoader(TensorDataset(images, labels), batch_size=512),
                               "cpu")
    assert accuracy > 0.8  # the reloaded weights classify the whole set, not a fresh init's 10%

    plot = out / "training_curves.png"
    assert plot.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_accuracy_below_the_bound_fails(tmp_path: Path) -> None:
    script = load_script()
    assert script.main(["--epochs", "1", "--out", str(tmp_path), "--min-accuracy", "1.01"]) == 1


def test_device_flag_takes_registered_devices_only(tmp_path: Path, capsys) -> None:
    script = load_script()
    assert script.main(["--epochs", "1", "--out", str(tmp_path), "--min-accuracy", "0.5",
                        "--device", "cpu"]) == 0
    assert "images on cpu" in capsys.readouterr().out
    for bad in ("nosuchdevice", "cpu:x"):
        with pytest.raises(SystemExit) as exit_info:
            script.main(["--device", bad, "--out", str(tmp_path)])
        assert exit_info.value.code == 2  # argparse's usage error, before any training
        error = capsys.readouterr().err
        assert f"unknown device '{bad}'" in error and "registered devices: cpu" in error
