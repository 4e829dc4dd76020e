"""The tensor model: ``Tensor`` and its storage, argument binding, printing, indexing, factories
and random numbers, plus the shape helpers the ops share.

``volta.tensor`` (the attribute) is the ``tensor(...)`` factory, as in PyTorch; import the
modules of this package by their full name (``from volta.tensor.tensor import Tensor``).
"""
