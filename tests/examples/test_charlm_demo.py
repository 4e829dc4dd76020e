"""examples/train_charlm.py on a small configuration: the decoder-only transformer must bring
the validation loss well below the unigram baseline within a bounded number of steps, print
its progress and a sample, and reject bad arguments."""

from __future__ import annotations

import re

import pytest
from threadpoolctl import threadpool_limits  # comes with scikit-learn (the test extra)

from tests.examples.scripts import load_script

SMALL = ["--d-model", "64", "--layers", "2", "--heads", "2", "--context", "32",
         "--batch-size", "16", "--lr", "5e-3", "--corpus-chars", "300000", "--eval-batches", "4"]


def test_small_model_beats_the_unigram_baseline_within_100_steps(capsys) -> None:
    script = load_script("train_charlm")
    # one BLAS thread: these small matmuls gain nothing from more, and on a busy CI machine
    # OpenBLAS's spinning threads would slow them down by orders of magnitude
    with threadpool_limits(limits=1, user_api="blas"):
        code = script.main([*SMALL, "--steps", "100", "--eval-every", "50", "--prompt",
                            "import ", "--sample-length", "60", "--min-improvement", "0.3"])
    printed = capsys.readouterr().out
    assert code == 0, printed
    evaluations = re.findall(r"step +(\d+) .* val loss (\d+\.\d+) +unigram (\d+\.\d+)", printed)
    assert [int(step) for step, _, _ in evaluations] == [50, 100]
    val_loss, baseline = float(evaluations[-1][1]), float(evaluations[-1][2])
    assert val_loss <= 0.7 * baseline  # the target: 30% below the no-context model
    assert float(evaluations[0][1]) > val_loss  # still improving
    sample = printed.split("top-k 10):\n")[1]
    assert sample.startswith("import ") and len(sample.rstrip("\n")) >= len("import ") + 60


def test_too_small_an_improvement_fails(capsys) -> None:
    script = load_script("train_charlm")
    code = script.main([*SMALL, "--steps", "2", "--eval-batches", "1", "--sample-length", "1",
                        "--min-improvement", "0.9"])
    assert code == 1
    assert "error: the validation loss is only" in capsys.readouterr().err


@pytest.mark.parametrize("argument", [["--device", "no-such-device"], ["--steps", "0"],
                                      ["--temperature", "0"]])
def test_bad_arguments_are_rejected(argument, capsys) -> None:
    script = load_script("train_charlm")
    with pytest.raises(SystemExit) as exit_info:
        script.main(argument)
    assert exit_info.value.code == 2
    assert "registered devices: cpu" in capsys.readouterr().err or argument[0] != "--device"
