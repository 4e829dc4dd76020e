"""Builds volta's compiled accelerators: every ``volta/**/native/*.c`` becomes the extension
module ``<its package>._<file>`` (the CPU backend's kernels in volta/backends/cpu/native, the
dispatcher's hot path in volta/dispatch/native...). The build is optional: without a C
compiler volta installs without them and runs its Python/numpy paths (volta/compiled.py)."""

from pathlib import Path

from setuptools import Extension, setup

# -O3 and OpenMP (the threads); no -ffast-math: NaN, infinity and signed zeros must behave as
# in PyTorch. Vector code comes from target_clones in common.h, chosen at load time for the CPU
# the kernels run on, so one build runs on any x86-64 machine. libm is linked explicitly: on
# glibc it brings libmvec, the vector exp, log, erfc... that the float64 kernels call (Note
# [float64 math through libmvec] in native/common.h).
COMPILE_ARGS = ["-O3", "-fopenmp", "-fno-math-errno", "-fno-trapping-math", "-std=c11",
                "-Wall", "-Wno-unknown-pragmas"]

setup(ext_modules=[
    Extension(".".join((*source.parent.parts, f"_{source.stem}")), [str(source)],
              depends=[str(header) for header in source.parent.glob("*.h")],
              extra_compile_args=COMPILE_ARGS, extra_link_args=["-fopenmp"], libraries=["m"],
              optional=True)
    for source in sorted(Path("volta").glob("**/native/*.c"))
])
