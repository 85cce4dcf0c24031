"""``python -m pytest_alias``: the ``tla-alias`` command."""

import sys

from .cli import main

sys.exit(main())
