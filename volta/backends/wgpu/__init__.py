"""The WGPU backend: volta on GPUs through wgpu-py and WGSL compute shaders."""
