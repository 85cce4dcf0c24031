"""Hooks of the ``alias`` plugin project (pluggy), for packages that extend ALIAS without pytest.

A package adds a model backend by exposing a module or object under the ``alias`` entry-point
group whose ``alias_register_models`` is marked with ``hookimpl``::

    # pyproject.toml: [project.entry-points.alias] mymodels = "mymodels.alias_plugin"
    from pytest_alias.hookspecs import hookimpl

    @hookimpl
    def alias_register_models(registry):
        registry.register("mine", "mymodels.backend:create", prefix=True)
"""

from __future__ import annotations

from typing import Any

import pluggy

PROJECT_NAME = "alias"

hookspec = pluggy.HookspecMarker(PROJECT_NAME)
hookimpl = pluggy.HookimplMarker(PROJECT_NAME)


@hookspec
def alias_register_models(registry: Any) -> None:  # a models.registry.ModelRegistry (no import: no cycle)
    """Add model factories to ``registry`` (``registry.register(name, factory, prefix=…)``)."""
