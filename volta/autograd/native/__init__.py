"""Autograd's compiled recording path (``_autograd``, built by setup.py from autograd.c).

Optional, like every compiled accelerator (volta.compiled): without it, or with
``VOLTA_NATIVE=0``, volta/autograd/graph.py's Python functions run.
"""
