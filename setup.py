"""Builds the CPU backend's compiled kernels (volta/backends/cpu/native/*.c, one extension
module each). The build is optional: without a C compiler volta installs without them and the
CPU backend runs its numpy kernels (see volta/backends/cpu/native/__init__.py)."""

from pathlib import Path

from setuptools import Extension, setup

NATIVE = Path("volta/backends/cpu/native")

# -O3 and OpenMP (the threads); no -ffast-math: NaN, infinity and signed zeros must behave as
# in PyTorch. Vector code comes from target_clones in common.h, chosen at load time for the CPU
# the kernels run on, so one build runs on any x86-64 machine.
COMPILE_ARGS = ["-O3", "-fopenmp", "-fno-math-errno", "-fno-trapping-math", "-std=c11",
                "-Wall", "-Wno-unknown-pragmas"]

setup(ext_modules=[
    Extension(f"volta.backends.cpu.native._{source.stem}", [str(source)],
              depends=[str(NATIVE / "common.h")], extra_compile_args=COMPILE_ARGS,
              extra_link_args=["-fopenmp"], optional=True)
    for source in sorted(NATIVE.glob("*.c"))
])
