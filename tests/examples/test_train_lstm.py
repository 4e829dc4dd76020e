"""examples/train_lstm.py, run end to end on a small configuration: within 150 steps its
validation loss falls at least 25% below the unigram baseline, and it samples text."""

from __future__ import annotations

import pytest

from tests.examples.scripts import load_script

SMALL = ["--hidden", "64", "--embedding", "32", "--layers", "1", "--seq-len", "32",
         "--batch-size", "32", "--steps", "150", "--lr", "1e-2", "--max-chars", "200000",
         "--eval-every", "75", "--eval-batches", "5", "--sample-chars", "30"]


def test_small_lstm_beats_the_unigram_baseline(capsys: pytest.CaptureFixture[str]) -> None:
    script = load_script("train_lstm")
    assert script.main([*SMALL, "--prompt", "def ", "--min-improvement", "0.25"]) == 0
    printed = capsys.readouterr().out
    final = printed.split("final validation loss ")[1]
    validation, baseline = float(final.split()[0]), float(final.split("baseline ")[1][:5])
    assert validation < 0.75 * baseline
    assert "step    75" in printed and "step   150" in printed
    sample = printed.split("---\n")[1]
    assert sample.startswith("def ") and len(sample) > len("def ") + 20


def test_unreached_improvement_and_unknown_device_fail() -> None:
    script = load_script("train_lstm")
    assert script.main([*SMALL, "--steps", "2", "--eval-every", "1", "--eval-batches", "1",
                        "--min-improvement", "0.9"]) == 1
    with pytest.raises(SystemExit):
        script.main(["--device", "no_such_device"])
