"""Exposure doses: their settings, the command line's precedence, and the dose in training.json and records."""

from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest

from pytest_alias.cli import main
from pytest_alias.errors import UsageProblem
from pytest_alias.exposure import training
from pytest_alias.exposure.doses import ALL_LINEAR, DOSES, get_dose
from pytest_alias.exposure.finetune import FinetuneSettings, TrainingResult
from pytest_alias.exposure.split import make_split
from pytest_alias.tasks.suites import load_suite


def test_a_dose_changes_epochs_rate_and_modules_and_nothing_else() -> None:
    paper, strong = DOSES["paper"].settings(), get_dose("strong").settings()
    assert (paper.epochs, paper.learning_rate, paper.target_modules) == (3, 2e-4, ("q_proj", "k_proj", "v_proj", "o_proj"))
    assert paper == FinetuneSettings()  # appendix E exactly
    assert (strong.epochs, strong.learning_rate, strong.target_modules) == (15, 3e-3, ALL_LINEAR)
    untouched = {k: v for k, v in strong.to_dict().items() if k not in ("epochs", "learning_rate", "target_modules")}
    assert untouched == {k: v for k, v in paper.to_dict().items() if k in untouched}
    assert get_dose("strong").to_dict()["target_modules"] == list(ALL_LINEAR)
    with pytest.raises(UsageProblem, match="unknown dose 'huge'; choose one of paper, strong"):
        get_dose("huge")


def test_the_command_applies_the_dose_and_explicit_flags_win(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    seen: dict[str, Any] = {}

    def fake_finetune(*args: Any, settings: FinetuneSettings, dose: str | None = None, **kwargs: Any) -> TrainingResult:
        seen.update(settings=settings, dose=dose)
        return TrainingResult(steps=1, losses=[1.0])

    monkeypatch.setattr(training, "finetune", fake_finetune)
    common = ["finetune", "--base", "smollm2", "--split", "s.json", "--half", "A", "--dtype", "fp32", "--quiet"]
    assert main([*common, "--out", str(tmp_path / "a"), "--dose", "strong", "--epochs", "2"]) == 0
    assert seen["dose"] == "strong" and seen["settings"].epochs == 2
    assert seen["settings"].learning_rate == 3e-3 and seen["settings"].target_modules == ALL_LINEAR
    assert main([*common, "--out", str(tmp_path / "b")]) == 0
    assert seen["dose"] is None and seen["settings"] == FinetuneSettings(dtype="fp32")


def test_the_dose_is_recorded_for_the_adapter_and_its_records(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from pytest_alias.models.local import _training_settings

    split_file = tmp_path / "split.json"
    make_split(load_suite("builtin", ids=["barrier", "die-hard"]), suite="builtin").write(split_file)
    model = SimpleNamespace(wrap=lambda prompt: prompt, model=None, tokenizer=None, identity="base", prompt_style="chat",
                            device=SimpleNamespace(type="cpu"))
    monkeypatch.setattr(training, "local_base", lambda spec, dtype=None: model)
    captured: dict[str, Any] = {}

    def fake_train(*args: Any, info: dict[str, Any], **kwargs: Any) -> TrainingResult:
        captured.update(info)
        return TrainingResult(steps=1)

    monkeypatch.setattr(training, "train_lora", fake_train)
    settings = get_dose("strong").settings(FinetuneSettings(dtype="fp32"))
    training.finetune("smollm2", split_file, "A", "task-pair", tmp_path / "a", settings=settings, dose="strong", live=False)
    assert captured["dose"] == "strong" and captured["half"] == "A"
    captured.clear()
    training.finetune("smollm2", split_file, "A", "task-pair", tmp_path / "b", settings=settings, live=False)
    assert "dose" not in captured  # no dose named: the fingerprint of an older adapter stays the same
    note = _training_settings({"settings": settings.to_dict(), "precision": {"mode": "fp32"}})["training"]
    assert note["epochs"] == 15 and note["learning_rate"] == 3e-3 and note["target_modules"] == list(ALL_LINEAR)


def test_an_exposure_adapter_is_tested_with_the_prompt_it_was_trained_on() -> None:
    """Appendix E: "trained and tested with the prompt". A chat model's adapter was trained on appendix E's
    prompt inside the chat template, so its test prompt is that too, not the frontier prompt a request carries."""
    from pytest_alias.models.base import GenerationRequest
    from pytest_alias.models.local import LocalModel
    from pytest_alias.models.prompts import finetune_prompt
    from pytest_alias.tasks.model import Condition

    condition = Condition("clock", "original", "A clock.", {"Clock": "---- MODULE Clock ----\n====\n"}, None, {})
    request = GenerationRequest.from_condition(condition, 0, style="frontier")
    adapter = SimpleNamespace(prompt_style="chat", exposure={"half": "A"}, wrap=lambda prompt: f"<chat>{prompt}</chat>")
    assert LocalModel.render(adapter, request) == f"<chat>{finetune_prompt('A clock.')}</chat>"  # type: ignore[arg-type]
    plain = SimpleNamespace(prompt_style="chat", exposure=None, wrap=adapter.wrap)  # no exposure adapter
    assert LocalModel.render(plain, request) == f"<chat>{request.prompt}</chat>"  # type: ignore[arg-type]
    assert request.prompt != finetune_prompt("A clock.")


@pytest.mark.parametrize("argv, module, name", [
    (["finetune", "--base", "smollm2", "--split", "s.json", "--half", "A", "--out", "a"],
     "pytest_alias.exposure.training", "finetune"),
    (["likelihood", "--model", "smollm2", "--out", "x.jsonl"], "pytest_alias.run.likelihood", "run_likelihood"),
])
def test_only_the_projects_errors_are_usage_errors_of_the_model_commands(
        argv: list[str], module: str, name: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    """The doors catch the project's errors only: a missing extra is one line naming it (raised where the
    import is checked); a built-in error from inside the work is a bug and propagates (it used to print
    as a usage error)."""
    from pytest_alias.models.local import LocalBackendMissing

    def missing(*args: Any, **kwargs: Any) -> None:
        raise LocalBackendMissing("local models need peft: pip install 'pytest-alias[local]'")

    def broken(*args: Any, **kwargs: Any) -> None:
        raise ImportError("a bug inside the work")

    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(f"{module}.{name}", missing)
    assert main(argv) == 2
    assert capsys.readouterr().err == "tla-alias: local models need peft: pip install 'pytest-alias[local]'\n"
    monkeypatch.setattr(f"{module}.{name}", broken)
    with pytest.raises(ImportError, match="a bug"):
        main(argv)


def test_training_without_peft_is_one_line_naming_the_extra(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """``train_lora`` checks torch and peft before any other check or work, as a usage problem naming the
    'local' extra (a bare ``import peft`` raised ImportError, which only a door's blanket catch turned into one)."""
    import importlib.util

    from pytest_alias.exposure.finetune import train_lora
    from pytest_alias.models.local import LocalBackendMissing

    real = importlib.util.find_spec
    monkeypatch.setattr(importlib.util, "find_spec", lambda name, *rest: None if name == "peft" else real(name, *rest))
    with pytest.raises(LocalBackendMissing, match=r"need peft: pip install 'pytest-alias\[local\]'"):
        train_lora(None, None, [], tmp_path / "adapter")
    assert not (tmp_path / "adapter").exists()
