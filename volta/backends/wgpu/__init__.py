"""The WGPU backend: WebGPU (wgpu-py) buffers as storage, WGSL compute shaders as kernels.

Layout: ``runtime.py`` (adapter, device, cached pipelines and bind groups, uniform ring,
batched submission, readback: the API kernels use), ``allocator.py`` (caching allocator),
``storage.py`` (the ``volta.backend.Backend`` and tensor helpers), ``kernels/`` (kernels by
family), ``generated_pointwise.py`` (generated from ops.yaml), ``plugin.py`` (registration).
README.md in this folder explains how to add a kernel.
"""
