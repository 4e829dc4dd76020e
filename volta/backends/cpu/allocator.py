"""Keep freed array memory in the process for reuse instead of giving it back to the OS.

Every CPU kernel returns fresh numpy arrays, and a pointwise chain makes several temporaries of
the input's size. glibc's malloc serves a block of at least 128 KiB (raised on the fly, once
such blocks are freed) by mapping fresh pages, and gives the top of its heap back to the OS once
more than twice that lies free. Either way the next array of that size touches pages the kernel
must fault in and zero again: measured here, about 2.5 microseconds of CPU time per 4 KiB page,
more than numpy's ``exp`` spends on the same memory. PyTorch's kernels make one output and no
temporaries, so they rarely pay it.

``tune()`` raises glibc's mmap threshold to its maximum (32 MiB: larger arrays still map and
unmap) and its trim threshold to ``TRIM_BYTES``, so freed blocks stay in the heap and are reused
warm, as a caching allocator would. It runs once, when the CPU backend registers, on glibc only,
and not when the environment already sets glibc's ``MALLOC_MMAP_THRESHOLD_`` /
``MALLOC_TRIM_THRESHOLD_`` or sets ``VOLTA_CPU_MALLOC_TUNING=0``.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import os
import platform

M_TRIM_THRESHOLD, M_MMAP_THRESHOLD = -1, -3  # glibc's mallopt parameters (malloc.h)
MMAP_BYTES = 32 << 20  # glibc's largest accepted mmap threshold on 64-bit systems
TRIM_BYTES = 512 << 20  # free memory kept at the heap's top before giving it back to the OS
_ENV_OVERRIDES = ("MALLOC_MMAP_THRESHOLD_", "MALLOC_TRIM_THRESHOLD_")


def tune() -> bool:
    """Apply the thresholds above; True when glibc accepted them."""
    if os.environ.get("VOLTA_CPU_MALLOC_TUNING", "1") == "0" or any(
            var in os.environ for var in _ENV_OVERRIDES):
        return False
    if platform.system() != "Linux" or platform.libc_ver()[0] != "glibc":
        return False
    try:
        libc = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6")
        mallopt = libc.mallopt
    except (OSError, AttributeError):
        return False
    mallopt.argtypes = (ctypes.c_int, ctypes.c_int)
    mallopt.restype = ctypes.c_int
    return bool(mallopt(M_MMAP_THRESHOLD, MMAP_BYTES)) and bool(
        mallopt(M_TRIM_THRESHOLD, TRIM_BYTES))
