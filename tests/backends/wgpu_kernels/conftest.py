"""One wgpu device for the whole session: creating devices on the software adapter is slow."""

from __future__ import annotations

import os

import pytest

from volta.backends.wgpu.kernels import harness

# lavapipe/llvmpipe want a runtime dir; harmless elsewhere
os.environ.setdefault("XDG_RUNTIME_DIR", "/tmp")


@pytest.fixture(scope="session")
def device():
    return harness.request_device()
