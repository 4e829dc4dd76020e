"""``volta.jit``: capture a function as a graph of op calls, replay it, save and load it.

* ``volta.jit.trace(fn, *example_inputs)`` runs ``fn`` once and returns a :class:`Graph`
  (``_capture.py``: the Tracing dispatch key);
* :class:`Graph`, :class:`OpNode`, :class:`Value`: the recorded program (``graph.py``, ``ir.py``);
* ``Graph.save``/``Graph.load``: the validated JSON file format (``serialization.py``,
  ``docs/trace_format.md``).

``volta.trace`` is PyTorch's matrix trace op, not graph capture.
"""

from volta.jit._capture import trace
from volta.jit.graph import Graph
from volta.jit.ir import OpNode, Value
from volta.jit.serialization import FORMAT_VERSION

__all__ = ["FORMAT_VERSION", "Graph", "OpNode", "Value", "trace"]
