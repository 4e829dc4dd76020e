"""The dispatcher's compiled call path (``_dispatch``, built by setup.py from dispatch.c).

Optional, like every compiled accelerator (volta.compiled): without it, or with
``VOLTA_NATIVE=0``, volta/dispatch/dispatcher.py's Python call path runs.
"""
