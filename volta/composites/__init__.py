"""Composite implementations: ops written in terms of other ops, registered under the
CompositeImplicit key by ``volta._wiring``. One module per op family."""
