"""Training examples for the two exposure arms, and their tokens with the loss mask.

* ``task-pair`` (paper Section 3): every example is appendix E's prompt with a task's
  description, followed by its reference specification (the pool, then the half).
* ``spec-only`` (appendix O): the pool stays as description–specification pairs; each task of the
  half enters as its raw ``.tla`` file alone, with no description and no prompt.

The loss covers only specification tokens (appendix E): prompt tokens get the label ``-100``
that PyTorch's cross-entropy ignores. Prompt and specification together are cut to their first
2,048 tokens (the training and scoring length limit).
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from typing import Any, Callable, Sequence

from ..models.prompts import finetune_prompt
from ..tasks.model import Task

ARMS = ("task-pair", "spec-only")
MAX_TRAINING_TOKENS = 2048
IGNORED_LABEL = -100


@dataclass(frozen=True)
class TrainingExample:
    """One training text: ``prompt`` (no loss) then ``target`` (the specification, with loss)."""

    task_id: str
    source: str  # "pool" or the half's letter
    prompt: str
    target: str

    def digest(self) -> str:
        """A hash of the example's texts (recorded in training.json)."""
        return hashlib.sha256(json.dumps([self.prompt, self.target]).encode()).hexdigest()[:16]


@dataclass(frozen=True)
class EncodedExample:
    """Token ids and labels of one example (labels are ``-100`` outside the specification)."""

    task_id: str
    input_ids: tuple[int, ...]
    labels: tuple[int, ...]
    truncated: bool

    @property
    def target_tokens(self) -> int:
        """How many tokens carry a label."""
        return sum(label != IGNORED_LABEL for label in self.labels)


def reference_text(task: Task) -> str:
    """The reference specification a model learns: the main module's text."""
    return task.module_map[task.main]


def pair_example(task: Task, source: str, wrap: Callable[[str], str] = lambda prompt: prompt) -> TrainingExample:
    """Appendix E's prompt with the description (through ``wrap``: a chat template), then the reference."""
    return TrainingExample(task.id, source, wrap(finetune_prompt(task.description)), reference_text(task))


def training_examples(pool: Sequence[Task], half: Sequence[Task], half_name: str, arm: str,
                      wrap: Callable[[str], str] = lambda prompt: prompt) -> list[TrainingExample]:
    """The training set of one model: the pool's pairs and the half in the arm's form (unshuffled)."""
    if arm not in ARMS:
        raise ValueError(f"unknown arm {arm!r}; choose one of {', '.join(ARMS)}")
    examples = [pair_example(task, "pool", wrap) for task in pool]
    if arm == "task-pair":
        examples += [pair_example(task, half_name, wrap) for task in half]
    else:
        examples += [TrainingExample(task.id, half_name, "", reference_text(task)) for task in half]
    return examples


def encode_example(tokenizer: Any, example: TrainingExample, max_tokens: int = MAX_TRAINING_TOKENS,
                   prompt_has_special_tokens: bool = False) -> EncodedExample:
    """Tokenize ``example`` as scoring does: the prompt with the tokenizer's special tokens (a BOS),
    the target without; labels only on target tokens; both cut to the first ``max_tokens``.

    A raw file (empty prompt) still starts with the tokenizer's BOS when it has one, so its first
    specification token is predicted from something.
    """
    # An empty prompt (a raw file) gets the tokenizer's own special tokens even for a chat model.
    special = not prompt_has_special_tokens or not example.prompt
    prompt_ids = list(tokenizer(example.prompt, add_special_tokens=special)["input_ids"])
    target_ids = list(tokenizer(example.target, add_special_tokens=False)["input_ids"])
    if not prompt_ids:
        # No BOS in this tokenizer and no prompt: the first target token cannot be predicted.
        prompt_ids, target_ids = target_ids[:1], target_ids[1:]
    ids = (prompt_ids + target_ids)[:max_tokens]
    labels = ([IGNORED_LABEL] * len(prompt_ids) + target_ids)[:max_tokens]
    return EncodedExample(example.task_id, tuple(ids), tuple(labels), len(prompt_ids) + len(target_ids) > max_tokens)


def data_digest(examples: Sequence[TrainingExample]) -> str:
    """One hash over every example's texts in order."""
    return hashlib.sha256("".join(example.digest() for example in examples).encode()).hexdigest()[:16]
