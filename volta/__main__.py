"""``python -m volta``: the command-line interface (:mod:`volta.cli`)."""

import sys

from volta.cli import main

sys.exit(main())
