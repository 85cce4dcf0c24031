"""Models: one ``Model`` protocol, a registry of specs, built-in backends and the generation store.

This package knows nothing of pytest; the plugin and the command line build on it.
"""

from .base import (
    DecodingParams,
    Generation,
    GenerationRequest,
    Model,
    ScoringModel,
    close_model,
    is_cacheable,
    log_likelihood,
)
from .prompts import PromptStyle, finetune_prompt, frontier_prompt, render_prompt
from .registry import ModelRegistry, ModelSpecError, default_registry, make_plugin_manager
from .store import GenerationStore, StoreMissError, StoreMode, default_store_root, generation_key

__all__ = [
    "DecodingParams", "Generation", "GenerationRequest", "GenerationStore", "Model", "ModelRegistry",
    "ModelSpecError", "PromptStyle", "ScoringModel", "StoreMissError", "StoreMode", "close_model",
    "default_registry", "default_store_root", "finetune_prompt", "frontier_prompt", "generation_key",
    "is_cacheable", "log_likelihood", "make_plugin_manager", "render_prompt",
]
