"""An example out-of-tree volta package: everything it adds goes through volta's plugin hooks
(see ``plugin.py``)."""
