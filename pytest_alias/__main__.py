"""``python -m pytest_alias``: the ``alias`` command (useful where a shell builtin named alias shadows it)."""

import sys

from .cli import main

sys.exit(main())
