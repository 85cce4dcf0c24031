"""Models: prompts, request/params types, the registry and its plugin hook, reference and replay."""

from __future__ import annotations

import json
import textwrap
from pathlib import Path
from typing import Sequence

import pytest

from pytest_alias.hookspecs import hookimpl
from pytest_alias.models import (
    DecodingParams,
    Generation,
    GenerationRequest,
    Model,
    ModelRegistry,
    ModelSpecError,
    PromptStyle,
    default_registry,
    finetune_prompt,
    frontier_prompt,
    log_likelihood,
    make_plugin_manager,
    render_prompt,
)
from pytest_alias.models.fake import FakeModel
from pytest_alias.models.reference import ReferenceModel
from pytest_alias.models.replay import ReplayError
from pytest_alias.tasks import Condition, Task

MAIN = "---- MODULE Clock ----\nVARIABLE hr\nInit == hr = 1\nNext == hr' = hr\n====\n"
HELPER = "---- MODULE Helper ----\nH == 1\n====\n"
PARAMS = DecodingParams()


def clock_task() -> Task:
    return Task("clock", "A clock {with braces} that shows hr.", {"Clock": MAIN, "Helper": HELPER},
                cfg="INIT Init\nNEXT Next\n")


def renamed_condition() -> Condition:
    return Condition("clock", "random", "A clock that shows Xq.", {"Qwert": MAIN.replace("Clock", "Qwert")},
                     None, {"Clock": "Qwert"})


def write_jsonl(path: Path, records: Sequence[object]) -> Path:
    path.write_text("".join(json.dumps(r) + "\n" for r in records), encoding="utf-8")
    return path


# --------------------------------------------------------------------------- prompts and types


def test_frontier_prompt_is_appendix_a_with_description_last() -> None:
    prompt = frontier_prompt("  A clock {x}.\n")
    assert prompt.startswith("You are a TLA+ specification engineer. You will receive a natural language")
    assert "Include the MODULE declaration, EXTENDS, CONSTANTS, VARIABLES, Init, Next and Spec." in prompt
    assert prompt.endswith("Output only the TLA+ specification. System description: A clock {x}.")


def test_finetune_prompt_is_appendix_e() -> None:
    assert finetune_prompt("A clock.") == (
        "Generate a TLA+ specification for the following system:\nA clock.\nTLA+ Specification:\n")
    assert render_prompt("A clock.", "finetune") == finetune_prompt("A clock.")
    assert render_prompt("A clock.", PromptStyle.FRONTIER) == frontier_prompt("A clock.")
    with pytest.raises(ValueError, match="frontier, finetune"):
        render_prompt("A clock.", "chat")


def test_request_from_condition_and_params_normalise() -> None:
    condition = clock_task().original()
    request = GenerationRequest.from_condition(condition, 2, style="finetune", seed=7)
    assert (request.task_id, request.kind, request.sample, request.seed) == ("clock", "original", 2, 7)
    assert request.prompt == finetune_prompt(condition.description) and request.condition is condition
    assert DecodingParams(temperature=1, stop=["===="]) == DecodingParams(temperature=1.0, stop=("====",))
    assert DecodingParams(stop="====").stop == ("====",)
    with pytest.raises(ValueError):
        DecodingParams(max_new_tokens=0)
    with pytest.raises(ValueError):
        DecodingParams(temperature=float("nan"))


def test_generation_round_trips_through_json() -> None:
    generation = Generation("text", "m", "length", True, {"input_tokens": 3, "output_tokens": 9}, 0.01,
                            {"id": "x"}, 1.5)
    again = Generation.from_dict(json.loads(json.dumps(generation.to_dict())), from_store=True)
    assert again == generation and again.from_store


def test_protocol_and_optional_log_likelihood() -> None:
    class Scorer(FakeModel):
        def log_likelihood(self, prompt: str, continuation: str) -> float | None:
            return -1.5

    assert isinstance(ReferenceModel(), Model) and isinstance(FakeModel(), Model)
    assert log_likelihood(FakeModel(), "p", "c") is None
    assert log_likelihood(Scorer(), "p", "c") == -1.5


# --------------------------------------------------------------------------- registry


def test_registry_creates_builtins_and_lazy_factories() -> None:
    registry = default_registry(make_plugin_manager(load_entrypoints=False))
    assert isinstance(registry.create("reference"), ReferenceModel)
    assert registry.create("fake:abc").identity == "fake:abc"
    assert "replay:x.jsonl" in registry and "nope" not in registry
    registry.register("lazy", "pytest_alias.models.fake:create_fake", prefix=True)
    assert registry.create("lazy:q", text="hi").text == "hi"


def test_unknown_spec_lists_known_names_and_suggests() -> None:
    registry = default_registry(make_plugin_manager(load_entrypoints=False))
    with pytest.raises(ModelSpecError) as info:
        registry.create("refrence")
    message = str(info.value)
    assert "Did you mean reference?" in message and "replay:…" in message and "fake" in message
    assert isinstance(info.value, ValueError)
    with pytest.raises(ModelSpecError, match="needs a value after ':'"):
        registry.create("replay:")
    with pytest.raises(ModelSpecError, match="cannot load its backend"):
        registry.register("broken", "no_such_module_xyz:create")
        registry.create("broken")


def test_registering_a_taken_name_needs_replace() -> None:
    registry = ModelRegistry()
    registry.register("m", lambda: FakeModel(name="one"))
    with pytest.raises(ValueError, match="already registered"):
        registry.register("m", lambda: FakeModel(name="two"))
    registry.register("m", lambda: FakeModel(name="two"), replace=True)
    assert registry.create("m").identity == "fake:two"
    with pytest.raises(ValueError):
        registry.register("a:b", lambda: FakeModel())


def test_plugin_object_adds_a_model_through_the_hook() -> None:
    class Plugin:
        @hookimpl
        def alias_register_models(self, registry: ModelRegistry) -> None:
            registry.register("echo", lambda argument, **options: FakeModel(text=argument, name="echo"),
                              prefix=True)

    manager = make_plugin_manager(load_entrypoints=False)
    manager.register(Plugin())
    registry = default_registry(manager)
    model = registry.create("echo:hello")
    assert model.generate([GenerationRequest("t", "original", 0, "p")], PARAMS)[0].text == "hello"
    assert "reference" in registry  # built-ins stay


def test_installed_entry_point_registers_a_model(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # A minimal installed distribution: a dist-info folder with an ``alias`` entry point.
    (tmp_path / "alias_demo_plugin.py").write_text(textwrap.dedent("""
        from pytest_alias.hookspecs import hookimpl
        from pytest_alias.models.fake import FakeModel

        @hookimpl
        def alias_register_models(registry):
            registry.register("demo", lambda **options: FakeModel(name="demo"))
    """))
    info = tmp_path / "alias_demo-0.1.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: alias-demo\nVersion: 0.1\n")
    (info / "entry_points.txt").write_text("[alias]\ndemo = alias_demo_plugin\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    assert default_registry().create("demo").identity == "fake:demo"


# --------------------------------------------------------------------------- reference


def test_reference_returns_each_conditions_main_module() -> None:
    original, renamed = clock_task().original(), renamed_condition()
    requests = [GenerationRequest.from_condition(c, 0) for c in (original, renamed)]
    out = default_registry(make_plugin_manager(load_entrypoints=False)).create("reference").generate(requests, PARAMS)
    assert [g.text for g in out] == [MAIN, renamed.modules[0][1]]
    assert all(g.model == "reference" and not g.truncated for g in out)


def test_reference_without_condition_is_a_clear_error() -> None:
    with pytest.raises(ValueError, match="task=t condition=original sample=0"):
        ReferenceModel().generate([GenerationRequest("t", "original", 0, "p")], PARAMS)


# --------------------------------------------------------------------------- replay


def test_replay_returns_recorded_text(tmp_path: Path) -> None:
    path = write_jsonl(tmp_path / "out.jsonl", [
        {"task": "clock", "condition": "original", "sample": 0, "text": "A", "model": "opus"},
        {"task": "clock", "condition": "random", "sample": 0, "text": "B", "model": "opus", "truncated": True},
        {"task": "clock", "condition": "original", "sample": 0, "text": "C", "model": "gpt"},
    ])
    registry = default_registry(make_plugin_manager(load_entrypoints=False))
    model = registry.create(f"replay:{path}", model="opus")
    requests = [GenerationRequest.from_condition(renamed_condition(), 0),
                GenerationRequest.from_condition(clock_task().original(), 0)]
    out = model.generate(requests, PARAMS)
    assert [g.text for g in out] == ["B", "A"] and out[0].truncated and not out[1].truncated
    assert model.identity.startswith("replay:out.jsonl#") and model.identity == out[0].model


def test_replay_missing_entry_fails_only_its_request(tmp_path: Path) -> None:
    path = write_jsonl(tmp_path / "out.jsonl", [{"task": "clock", "condition": "original", "sample": 0, "text": "A"}])
    model = default_registry(make_plugin_manager(load_entrypoints=False)).create(f"replay:{path}")
    out = model.generate([GenerationRequest("clock", "original", 3, "p"), GenerationRequest("clock", "original", 0, "p")],
                         PARAMS)
    assert out[0].error == "replay file out.jsonl has no entry for task=clock condition=original sample=3"
    assert out[0].text == "" and out[1].text == "A" and out[1].error is None


@pytest.mark.parametrize("bad_line, reason", [
    ("{not json", "not valid JSON"),
    ('["a list"]', "expected a JSON object"),
    ('{"task": "clock", "condition": "original", "sample": 1}', "missing key"),
    ('{"task": "clock", "condition": "original", "sample": -1, "text": "x"}', "non-negative integer"),
    ('{"task": "clock", "condition": "original", "sample": 0, "text": "dup"}', "duplicate entry"),
    ('{"task": "clock", "condition": "random", "sample": 0, "text": "x", "rename_seed": -1}', "rename_seed must be"),
    ('{"task": "clock", "condition": "random", "sample": 0, "text": "x", "rename_seed": "2"}', "rename_seed must be"),
])
def test_replay_bad_lines_name_file_and_line(tmp_path: Path, bad_line: str, reason: str) -> None:
    path = tmp_path / "bad.jsonl"
    good = json.dumps({"task": "clock", "condition": "original", "sample": 0, "text": "A"})
    path.write_text(f"{good}\n\n{bad_line}\n", encoding="utf-8")
    with pytest.raises(ReplayError, match=f"bad.jsonl:3: .*{reason}"):
        default_registry(make_plugin_manager(load_entrypoints=False)).create(f"replay:{path}")


def test_replay_answers_each_renaming_of_a_task_with_its_own_line(tmp_path: Path) -> None:
    import dataclasses

    path = write_jsonl(tmp_path / "out.jsonl", [
        {"task": "clock", "condition": "random", "sample": 0, "text": "first renaming"},
        {"task": "clock", "condition": "random", "sample": 0, "text": "second", "rename_seed": 1},
        {"task": "clock", "condition": "random-r2", "sample": 0, "text": "third"},
    ])
    model = default_registry(make_plugin_manager(load_entrypoints=False)).create(f"replay:{path}")
    conditions = [dataclasses.replace(renamed_condition(), rename_seed=k) for k in (0, 1, 2, 3)]
    out = model.generate([GenerationRequest.from_condition(c, 0) for c in conditions], PARAMS)
    assert [g.text for g in out[:3]] == ["first renaming", "second", "third"]
    assert out[3].error is not None  # a renaming the file does not answer fails only its item
    duplicate = write_jsonl(tmp_path / "dup.jsonl", [
        {"task": "clock", "condition": "random", "sample": 0, "text": "a", "rename_seed": 2},
        {"task": "clock", "condition": "random-r2", "sample": 0, "text": "b"}])
    with pytest.raises(ReplayError, match="dup.jsonl:2: duplicate entry"):
        default_registry(make_plugin_manager(load_entrypoints=False)).create(f"replay:{duplicate}")


def test_replay_missing_file_is_one_plain_sentence(tmp_path: Path) -> None:
    with pytest.raises(ReplayError, match="does not exist"):
        default_registry(make_plugin_manager(load_entrypoints=False)).create(f"replay:{tmp_path / 'none.jsonl'}")


def test_an_adapter_folder_that_is_missing_or_empty_is_a_usage_problem(tmp_path: Path) -> None:
    """The adapter's hash reads the user's folder: a missing or empty one is one line, never a bare OSError."""
    from pytest_alias.errors import UsageProblem
    from pytest_alias.models.local import adapter_hash

    with pytest.raises(UsageProblem, match="LoRA adapter .*absent: no such folder"):
        adapter_hash(tmp_path / "absent")
    (tmp_path / "empty").mkdir()
    with pytest.raises(UsageProblem, match="holds no adapter_config.json or weights"):
        adapter_hash(tmp_path / "empty")
