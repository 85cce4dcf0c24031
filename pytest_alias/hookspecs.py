"""The ``alias`` plugin hooks' public import path (``from pytest_alias.hookspecs import hookimpl``).

The specifications live beside the model registry that calls them (:mod:`pytest_alias.models.hookspecs`).
"""

from .models.hookspecs import PROJECT_NAME, alias_register_models, hookimpl, hookspec

__all__ = ["PROJECT_NAME", "alias_register_models", "hookimpl", "hookspec"]
