"""The run layer: a validated :class:`RunConfig` and the :class:`Workspace` that does the work.

Both doors — the pytest plugin and the ``tla-alias`` command line — build a ``RunConfig`` and ask a
``Workspace`` for tasks, cases, generations, grades and the covered set. Nothing here imports pytest.
"""

from .config import RunConfig, selected_grades
from .coverage import Coverage
from .workspace import Workspace

__all__ = ["Coverage", "RunConfig", "Workspace", "selected_grades"]
