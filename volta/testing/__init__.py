"""Testing tools for volta and for packages that extend it.

* :mod:`volta.testing.opinfo`: the operator sample database (PyTorch names, sample inputs per
  op in several dtypes, broadcast, 0-d and non-contiguous; framework-agnostic specs).
* :mod:`volta.testing.harness`: runs those samples through any PyTorch-like module (volta,
  torch) and compares outputs and gradients with PyTorch's tolerances.
* :mod:`volta.testing.conformance`: runs every op on a backend against volta's CPU backend
  (``python -m volta.testing.conformance --backend NAME``).
* :func:`assert_close` (:mod:`volta.testing.comparison`): PyTorch's closeness assertion.
"""

from volta.testing.comparison import assert_close

__all__ = ["assert_close"]
