"""The compiled CPU kernels (volta/backends/cpu/native): built, loaded, and safe across threads
and fork. Each kernel's values are checked against PyTorch by the tests of the ops that use it,
which also run with VOLTA_NATIVE=0 (the numpy path)."""

import os
import subprocess
import sys

import numpy as np
import pytest
import torch

from volta.backends.cpu import native

pytestmark = pytest.mark.skipif(not native.ENABLED, reason="VOLTA_NATIVE=0 runs the numpy path")


def test_every_accelerator_is_built():
    # setup.py builds them optionally (volta installs without a compiler); on a machine that has
    # one, as CI's, a build that silently failed would leave its ops on their slower Python path
    from pathlib import Path

    from volta import compiled

    root = Path(compiled.__file__).resolve().parents[1]
    sources = sorted(root.glob("volta/**/native/*.c"))
    assert len(sources) >= 11
    missing = [str(source.relative_to(root)) for source in sources
               if compiled.load(".".join((*source.relative_to(root).parent.parts,
                                          f"_{source.stem}"))) is None]
    assert not missing, f"not built: {missing}"


def test_a_missing_module_is_none():
    assert native.kernels("no_such_module") is None


@pytest.mark.parametrize("threads", [1, 2, 3])
def test_split_over_threads_gives_the_same_values(threads):
    x = np.random.default_rng(0).standard_normal(100_003).astype(np.float32) * 30
    one, split = np.empty_like(x), np.empty_like(x)
    kernels = native.kernels("pointwise")
    kernels.sigmoid(x, one, 1)
    kernels.sigmoid(x, split, threads)
    np.testing.assert_array_equal(one, split)
    torch.testing.assert_close(torch.from_numpy(one), torch.sigmoid(torch.from_numpy(x)))


def test_exp_edge_values_follow_ieee():
    x = np.array([np.nan, np.inf, -np.inf, 0.0, -0.0, 88.7, -88.7, -103.0, -104.5, 200.0] * 4,
                 np.float32)
    out = np.empty_like(x)
    native.kernels("pointwise").sigmoid(x, out, 1)
    torch.testing.assert_close(torch.from_numpy(out), torch.sigmoid(torch.from_numpy(x)),
                               equal_nan=True, atol=0, rtol=1.3e-6)


def test_bad_arguments_raise_instead_of_touching_memory():
    kernels = native.kernels("pointwise")
    x = np.ones(8, np.float32)
    with pytest.raises(ValueError):
        kernels.sigmoid(x, np.empty(4, np.float32), 1)
    with pytest.raises(TypeError):
        kernels.sigmoid(x, np.empty(8, np.int32), 1)
    with pytest.raises(ValueError):  # numpy refuses a C-contiguous buffer of a strided view
        kernels.sigmoid(x, np.ones((8, 2), np.float32)[:, 0], 1)  # not contiguous
    with pytest.raises(TypeError):
        kernels.sigmoid(x, x)


def test_a_forked_child_runs_kernels():
    # libgomp's pool does not survive fork: the child must run kernels on one thread, not hang
    code = (
        "import os, numpy as np\n"
        "from volta.backends.cpu import native\n"
        "k = native.kernels('pointwise'); x = np.ones(1 << 20, np.float32); o = np.empty_like(x)\n"
        "k.sigmoid(x, o, native.threads())\n"
        "pid = os.fork()\n"
        "if pid == 0:\n"
        "    k.sigmoid(x, o, native.threads()); os._exit(0 if abs(o[0] - 0.7310586) < 1e-6 else 3)\n"
        "_, status = os.waitpid(pid, 0)\n"
        "raise SystemExit(os.waitstatus_to_exitcode(status))\n"
    )
    env = dict(os.environ, OMP_NUM_THREADS="2")
    result = subprocess.run([sys.executable, "-c", code], env=env, timeout=60)
    assert result.returncode == 0
