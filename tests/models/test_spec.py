"""A model spec's ``?key=value`` options: one parser (``models/spec.py``) that every backend uses."""

from __future__ import annotations

import ast
from pathlib import Path
from typing import Any

import pytest

import pytest_alias.models as models_package
from pytest_alias.models import ModelRegistry
from pytest_alias.models.api_config import ModelConfigError
from pytest_alias.models.fake import FakeModel, create_fake
from pytest_alias.models.spec import spec_head, split_spec, with_spec_options


def test_split_spec_cuts_head_and_options() -> None:
    assert split_spec("hf:/m?lora=/a&prompt_style=raw") == ("hf:/m", {"lora": "/a", "prompt_style": "raw"})
    assert split_spec(" smollm2 ") == ("smollm2", {})
    assert split_spec("x?flag=") == ("x", {"flag": ""})
    assert spec_head("smollm2?lora=x?y") == "smollm2" and spec_head("replay:a.jsonl") == "replay:a.jsonl"


@pytest.mark.parametrize("bad, message", [
    ("?lora=x", "names no model id"),
    ("x?lora=a&lora=b", "sets 'lora' twice"),
    ("x?lora", "must be key=value"),
    ("x?a=1&&b=2", "must be key=value"),
])
def test_bad_specs_are_one_line_errors(bad: str, message: str) -> None:
    with pytest.raises(ModelConfigError, match=message) as info:
        split_spec(bad)
    assert "\n" not in str(info.value)


def test_keyword_clash_is_an_error_unless_the_spec_wins() -> None:
    with pytest.raises(ModelConfigError, match="option.s. batch given both in the spec and as keywords"):
        with_spec_options("id?batch=0", {"batch": True})
    assert with_spec_options("p?lora=a", {"lora": "b", "dtype": "x"}, spec_wins=True) == (
        "p", {"lora": "a", "dtype": "x"})


def test_registry_passes_an_exact_names_options_and_a_prefixs_argument() -> None:
    seen: list[tuple[str | None, dict[str, Any]]] = []

    def exact(**options: Any) -> FakeModel:
        seen.append((None, options))
        return FakeModel()

    def prefixed(argument: str, **options: Any) -> FakeModel:
        seen.append((argument, options))
        return FakeModel()

    registry = ModelRegistry()
    registry.register("local", exact)
    registry.register("hf", prefixed, prefix=True)
    assert "local?lora=a" in registry and "locale?lora=a" not in registry
    registry.create("local?lora=a", lora="run", dtype="fp32")
    registry.create("hf:/m?lora=a", lora="run")
    assert seen == [(None, {"lora": "a", "dtype": "fp32"}), ("/m?lora=a", {"lora": "run"})]


def test_fake_reads_its_options_through_the_one_parser() -> None:
    model = create_fake("slow?delay=0&batch_size=3")
    assert model.identity == "fake:slow" and model.batch_size == 3
    with pytest.raises(ModelConfigError, match="given both"):
        create_fake("slow?delay=0", delay="1")


def test_no_other_models_module_parses_a_query() -> None:
    """``?`` options are cut only in ``models/spec.py``: a second parser would drift from it."""
    folder = Path(models_package.__file__).parent
    offenders = []
    for path in sorted(folder.glob("*.py")):
        if path.name == "spec.py":
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Call) and any(isinstance(arg, ast.Constant) and arg.value == "?" for arg in node.args):
                offenders.append(f"{path.name}:{node.lineno}")
            if isinstance(node, ast.ImportFrom) and node.module == "urllib.parse":
                offenders.append(f"{path.name}:{node.lineno}")
    assert offenders == []
