"""A plugin module that cannot be imported (entry point ``broken_import``)."""

raise RuntimeError("volta-broken: this plugin module fails on import on purpose")
