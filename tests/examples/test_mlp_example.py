"""``examples/train_mlp.py``: trains on the device ``--device`` names, refuses unknown ones."""

from __future__ import annotations

import pytest

import volta
from tests.examples.scripts import load_script


def test_trains_on_cpu_with_the_device_flag(capsys) -> None:
    script = load_script("train_mlp")
    # a short, seeded run (the full 40 epochs reach > 0.9): the loss falls, above chance
    assert script.main(["--device", "cpu", "--epochs", "3", "--min-accuracy", "0.52"]) == 0
    printed = capsys.readouterr().out
    assert "points on cpu" in printed
    first = float(printed.split("epoch   1  loss ")[1].split()[0])
    last = float(printed.split("epoch   3  loss ")[1].split()[0])
    assert last < first
    assert float(printed.split("test accuracy ")[1].split()[0]) >= 0.52


def test_unknown_device_is_a_usage_error_listing_the_registered_ones(capsys) -> None:
    script = load_script("train_mlp")
    with pytest.raises(SystemExit) as exit_info:
        script.main(["--device", "tpu"])
    assert exit_info.value.code == 2
    error = capsys.readouterr().err
    assert "unknown device 'tpu'" in error
    assert f"registered devices: {', '.join(volta.get_device_types())}" in error
    assert script.parse_args(["--device", "cpu:0"]).device == "cpu:0"
