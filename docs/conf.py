"""Sphinx configuration of the ALIAS documentation (MyST Markdown, sphinx-argparse), built offline.

Build it with ``python -m sphinx -W -b html docs DIR`` from the repository root (``tests/test_docs.py``
does, with warnings as errors). The reference pages for the pytest options, the record fields and the
outcomes are generated from the package at build time by ``_ext/alias_docs.py``; the ``tla-alias``
page by sphinx-argparse from ``pytest_alias.cli.build_parser``.
"""

from __future__ import annotations

import sys
from pathlib import Path

DOCS = Path(__file__).resolve().parent
sys.path.insert(0, str(DOCS / "_ext"))
sys.path.insert(0, str(DOCS.parent))  # the package of this checkout, before any installed copy

project = "ALIAS"
author = "the ALIAS developers"
copyright = "the ALIAS developers"

extensions = ["myst_parser", "sphinxarg.ext", "alias_docs"]
source_suffix = {".md": "markdown"}
root_doc = "index"
exclude_patterns = ["_build", "_ext"]

myst_enable_extensions = ["colon_fence", "deflist", "fieldlist"]
myst_heading_anchors = 3  # `page.md#a-heading` links, as GitHub renders them

smartquotes = False  # `--alias-model` and `--` stay as typed
html_theme = "alabaster"
html_title = "ALIAS documentation"
html_static_path: list[str] = []
# Offline: no intersphinx, no remote images, no search-index downloads.
suppress_warnings: list[str] = []
