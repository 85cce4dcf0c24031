"""Two LoRA adapters as two models of one pytest run (the exposure experiment's seen and unseen models)."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

torch = pytest.importorskip("torch")
peft = pytest.importorskip("peft")

from tinylm_builder import build_tiny_lm  # noqa: E402

from conftest import SMALL  # noqa: E402
from pytest_alias.cli import main  # noqa: E402
from pytest_alias.exposure.split import make_split  # noqa: E402
from pytest_alias.models.registry import default_registry  # noqa: E402
from pytest_alias.tasks.suites import load_suite  # noqa: E402

pytest_plugins = ["pytester"]
os.environ["HF_HUB_OFFLINE"] = "1"


def adapter(base: Path, folder: Path, half: str, split: str) -> Path:
    """A LoRA adapter on ``base`` with the note ``tla-alias finetune`` leaves (training.json)."""
    from transformers import AutoModelForCausalLM

    torch.manual_seed(ord(half))
    config = peft.LoraConfig(r=2, lora_alpha=4, lora_dropout=0.0, init_lora_weights=False,
                             target_modules=["q_proj", "v_proj"])
    peft.get_peft_model(AutoModelForCausalLM.from_pretrained(base), config).save_pretrained(folder)
    (folder / "training.json").write_text(json.dumps({"split": split, "half": half, "arm": "task-pair",
                                                      "base_spec": "hf:tiny", "prompt_style": "raw"}))
    return folder


def test_a_spec_carries_its_adapter_and_its_training_note(tmp_path: Path) -> None:
    base = build_tiny_lm(tmp_path / "tiny")
    folder = adapter(base, tmp_path / "a", "A", "s1")
    model = default_registry().create(f"hf:{base}?lora={folder}&max_new_tokens=7")
    assert model.lora == str(folder.resolve()) and model.defaults.max_new_tokens == 7
    assert model.prompt_style == "raw"  # the style it was trained with, from training.json
    assert model.exposure == {"split": "s1", "half": "A", "arm": "task-pair", "base": "hf:tiny"}
    with pytest.raises(ValueError, match="no such folder"):
        default_registry().check(f"hf:{base}?lora={tmp_path / 'missing'}")
    # An adapter trained with settings: every record of its samples repeats the ones appendix E fixes.
    note = json.loads((folder / "training.json").read_text())
    note["settings"] = {"dtype": "bf16", "weight_decay": 0.0, "lora_layers": "text", "target_modules": ["q_proj"],
                        "rank": 16}
    (folder / "training.json").write_text(json.dumps(note))
    model = default_registry().create(f"hf:{base}?lora={folder}")
    assert model.exposure["training"] == {"dtype": "bf16", "weight_decay": 0.0, "lora_layers": "text",
                                          "target_modules": ["q_proj"]}


def test_two_adapters_are_two_models_in_one_run(pytester: pytest.Pytester, small_suite: Path,
                                                tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    base = build_tiny_lm(tmp_path / "tiny")
    split = make_split(load_suite(str(small_suite)), seed=3, suite=str(small_suite))
    split.write(tmp_path / "split.json")
    spec_a = f"hf:{base}?lora={adapter(base, tmp_path / 'a', 'A', split.identity)}&max_new_tokens=6"
    spec_b = f"hf:{base}?lora={adapter(base, tmp_path / 'b', 'B', split.identity)}&max_new_tokens=6"
    report = tmp_path / "records.json"
    result = pytester.runpytest_subprocess(
        f"--alias-suite={small_suite}", f"--alias-cache-dir={tmp_path / 'cache'}", "-p", "no:cacheprovider",
        f"--alias-model={spec_a}", f"--alias-model={spec_b}", "--alias-conditions=original", "--alias-samples=1",
        "--alias-grade=parse", "--alias-no-fail", "--alias-report", str(report),
        f"--alias-exposure-split={tmp_path / 'split.json'}", timeout=600)
    assert result.ret == 0, result.stdout.str()
    # The summary places each model on its half and says why nothing is compared yet.
    result.stdout.fnmatch_lines(["*half A, hf:tiny task-pair: `hf:*lora=*a*`*",
                                 "*Not analysed: hf:tiny task-pair: no task has values of both models in the "
                                 "original and the random condition*"])
    records = json.loads(report.read_text())["records"]
    assert len(records) == 2 * len(SMALL)
    by_model = {r["model"]: r["generation"] for r in records}
    assert set(by_model) == {spec_a, spec_b}
    assert {g["exposure"]["half"] for g in by_model.values()} == {"A", "B"}
    identities = {g["model_identity"] for g in by_model.values()}
    assert len(identities) == 2 and all("+lora:" in i for i in identities)  # each its own store identity
    # The records feed the analysis directly (only the original condition: nothing to compare yet).
    assert main(["exposure", str(report), "--split", str(tmp_path / "split.json"), "--resamples", "100"]) == 1
    assert "half A, hf:tiny task-pair" in capsys.readouterr().out


def test_a_bad_split_file_stops_the_run_before_any_work(pytester: pytest.Pytester, small_suite: Path,
                                                       tmp_path: Path) -> None:
    result = pytester.runpytest_subprocess(f"--alias-suite={small_suite}", "--alias-model=reference",
                                           f"--alias-exposure-split={tmp_path / 'missing.json'}", "-p",
                                           "no:cacheprovider", timeout=120)
    assert result.ret == 4
    result.stderr.fnmatch_lines(["*--alias-exposure-split: *missing.json: no such split file*"])
