"""WGSL kernel generators of the WGPU backend (GEMM, implicit-GEMM convolution) and a harness
that runs one generated kernel on a raw wgpu device."""
