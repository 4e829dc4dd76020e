"""The CPU backend keeps freed array memory for reuse (volta/backends/cpu/allocator.py): a chain
of temporaries repeated does not fault fresh pages in each time. Child processes, because the
malloc settings are process-wide and read at start-up."""

from __future__ import annotations

import os
import subprocess
import sys

from tests.benchmarks.scripts import ROOT

# sixteen 1 MiB results alive at once, then all freed: with glibc's defaults the freed top of the
# heap (16 MiB) is above its trim threshold (twice the dynamic mmap threshold, which the first
# freed 1 MiB block raises to 1 MiB), so it goes back to the OS and the next round faults its
# pages in again; the tuned allocator keeps it. Independent of how many temporaries one op's
# kernel makes (which made earlier versions of this chain flaky as kernels got leaner).
CHAIN = """
import resource, volta
x = volta.randn(256, 1024)

def round_of_results():
    results = [x * float(i) for i in range(16)]
    del results

for _ in range(3):
    round_of_results()
before = resource.getrusage(resource.RUSAGE_SELF).ru_minflt
for _ in range(20):
    round_of_results()
print(resource.getrusage(resource.RUSAGE_SELF).ru_minflt - before)
"""


def _page_faults(**env: str) -> int:
    environ = {k: v for k, v in os.environ.items() if not k.startswith("MALLOC_")}
    environ.update(env, PYTHONPATH=str(ROOT))
    proc = subprocess.run([sys.executable, "-c", CHAIN], env=environ, capture_output=True,
                          text=True, timeout=120, check=True)
    return int(proc.stdout.split()[-1])


def test_repeated_temporaries_reuse_memory_unless_switched_off():
    one_chain = 8 * 256  # ~8 arrays of 1 MiB: 256 pages each, if every one were fresh
    tuned = _page_faults()
    assert tuned < one_chain  # 20 chains fault in less than one chain's worth of pages
    # glibc's default settings fault pages in again on most chains; how many varies with its
    # dynamic mmap threshold (9,600 to 35,000 measured), but always several chains' worth
    assert _page_faults(VOLTA_CPU_MALLOC_TUNING="0") > max(3 * one_chain, 10 * tuned)
