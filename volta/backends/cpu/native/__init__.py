"""The CPU backend's compiled kernels (C with OpenMP, built by setup.py from the *.c files here).

They are optional (volta.compiled): ``kernels("pointwise")`` is the compiled module, or None
when volta was installed without a C compiler or ``VOLTA_NATIVE=0`` is set, and every caller
then runs its numpy path (which the test suite also runs, with ``VOLTA_NATIVE=0``). Each
kernel takes C-contiguous numpy arrays and writes into arrays the caller allocated; its last
argument is the thread count, :func:`threads` (Note [native kernel contract] in common.h).
"""

from __future__ import annotations

import os
from types import ModuleType

from volta import compiled
from volta.backends.cpu import parallel

# OpenMP's idle threads spin before they sleep (libgomp: 300k spins by default). Kernels follow
# each other within microseconds, so a spinning thread starts the next region at once: LeNet's
# step at 2 threads took 2.8 ms with 20000 spins or the default, 4.8 ms with none (the GEMMs
# share this pool, native/blas.c). A shorter spin than the default frees the core sooner for
# the Python workers of parallel.py and for other processes. Read by libgomp when it loads.
os.environ.setdefault("GOMP_SPINCOUNT", "20000")

ENABLED = compiled.ENABLED


def kernels(name: str) -> ModuleType | None:
    """The compiled module ``_<name>``, or None (not built, or disabled)."""
    return compiled.load(f"{__name__}._{name}")


_forked = False


def _after_fork_in_child() -> None:
    # libgomp's thread pool does not survive fork(): a parallel region in the child waits
    # forever for the parent's threads. A forked child runs every kernel on one thread (as
    # PyTorch's forked DataLoader workers do).
    global _forked
    _forked = True


os.register_at_fork(after_in_child=_after_fork_in_child)


def threads() -> int:
    """The threads one kernel may use: ``volta.set_num_threads``; 1 inside a Python parallel
    region (its threads are the parallelism there) and in a forked child."""
    return 1 if _forked or parallel.in_region() else parallel.num_threads()
