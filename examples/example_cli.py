"""Command-line pieces the example scripts share (they import it from their own folder)."""

from __future__ import annotations

import argparse

import volta


def registered_device(spec: str) -> str:
    """argparse type of ``--device``: a device whose type a volta backend has registered
    (``cpu``, ``cpu:0``, or one a plugin adds), else a usage error listing the registered ones."""
    known = volta.get_device_types()
    kind, _, index = spec.partition(":")
    if kind not in known or (index and not index.isdigit()):
        raise argparse.ArgumentTypeError(
            f"unknown device {spec!r}; registered devices: {', '.join(known)} "
            "(optionally with an index, e.g. 'cpu:0')")
    return spec


def add_device_argument(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--device", type=registered_device, default="cpu",
                        help="a registered volta device (default: cpu; registered now: "
                             f"{', '.join(volta.get_device_types())})")


def require_positive(parser: argparse.ArgumentParser, args: argparse.Namespace,
                     counts: tuple[str, ...], reals: tuple[str, ...] = ()) -> None:
    """Usage errors for count options below 1 and real options not above 0."""
    for name in counts:
        if getattr(args, name) < 1:
            parser.error(f"--{name.replace('_', '-')} must be at least 1")
    for name in reals:
        if getattr(args, name) <= 0:
            parser.error(f"--{name.replace('_', '-')} must be positive")
