"""volta-numba: the ``"numba"`` device for volta.

Tensors live in host memory (numpy arrays, like the CPU backend's); the kernels registered under
the ``NUMBA`` dispatch key are compiled with numba: every pointwise op, translated from its
``pointwise:`` snippet in ops.yaml (:mod:`volta_numba.translate`), matmul, reductions and
softmax (:mod:`volta_numba.kernels`). Every other op runs through volta's CPU fallback, warned
once per op and counted in ``volta.dispatch.cpu_fallback_counts()``.

Installed, the package registers itself through its entry point; ``x.to("numba")`` and
``model.to("numba")`` then work like any other device.
"""

__version__ = "0.1.0"
