"""The distribution declares only what exists, in the form current setuptools accepts."""

from __future__ import annotations

import importlib
import warnings
from pathlib import Path

from setuptools.config.pyprojecttoml import read_configuration

import volta.utils

ROOT = Path(__file__).resolve().parents[1]


def resolve(target: str) -> object:
    module, _, attr = target.partition(":")
    obj = importlib.import_module(module.strip())
    for part in filter(None, attr.strip().split(".")):
        obj = getattr(obj, part)
    return obj


def test_pyproject_reads_without_warnings_and_its_entry_points_resolve() -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # e.g. setuptools' deprecated license table
        project = read_configuration(ROOT / "pyproject.toml")["project"]
    assert project["license"] == "MIT"  # an SPDX expression
    targets = [*project.get("scripts", {}).values(), *project.get("gui-scripts", {}).values()]
    targets += [t for group in project.get("entry-points", {}).values() for t in group.values()]
    for target in targets:
        resolve(target)  # raises where the module or the function does not exist


def test_utils_advertises_only_what_exists() -> None:
    namespace: dict = {}
    exec("from volta.utils import *", namespace)
    assert set(volta.utils.__all__) <= set(namespace)
