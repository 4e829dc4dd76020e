"""The tensor model: ``Tensor`` and its storage (``tensor.py``), factories and random numbers
(``factories.py``), indexing, printing, and ``inplace.py`` (broadcast_shapes, writing a result
into an existing tensor).

``volta.tensor`` (the attribute) is the ``tensor(...)`` factory, as in PyTorch; import the
modules of this package by their full name (``from volta.tensor.tensor import Tensor``).
"""
