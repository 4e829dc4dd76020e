"""docs/plugins.md: each Python snippet runs as written and stays under 60 lines."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
SNIPPETS = re.findall(r"```python\n(.*?)```", (ROOT / "docs" / "plugins.md").read_text(),
                      flags=re.S)


def test_the_page_has_an_operator_and_a_backend_snippet() -> None:
    assert len(SNIPPETS) == 2
    assert "volta_define_ops" in SNIPPETS[0] and "volta_register_backends" in SNIPPETS[1]


@pytest.mark.parametrize("index", range(len(SNIPPETS)), ids=["operator", "backend"])
def test_snippet_runs_and_is_short(index: int) -> None:
    code = SNIPPETS[index]
    assert len(code.strip().splitlines()) < 60
    # a fresh interpreter: the snippet registers plugins for good, as a package would
    done = subprocess.run([sys.executable, "-W", "ignore::UserWarning", "-c", code],
                          capture_output=True, text=True, cwd=ROOT, timeout=300)
    assert done.returncode == 0, done.stderr
