"""Exposure doses: how hard a model is trained on the half it sees.

The paper's dose (appendix E) is three epochs at a learning rate of 2e-4: enough to raise a 14B
model's likelihood of what it saw, and a few points of correctness. A 135M model on a CPU learns far
less from the same three passes, so the offline reproduction adds a stronger dose whose purpose is
to make the model *reproduce* what it saw: then the exposure effect on correctness is large by
construction, and the question becomes whether each contamination signal notices it.

A dose fixes the number of epochs, the peak learning rate and which projections LoRA adapts; every
other setting (rank 16, α 32, dropout, warm-up share, clipping, batch 1, seed, the loss on the
specification only) stays appendix E's. The dose's name goes into ``training.json`` and from there
into the exposure note of every record and likelihood row of the adapter (``exposure.dose``, with the
epochs and learning rate under ``exposure.training``), so the analysis compares the two halves of one
dose and never mixes doses.

How ``strong`` was chosen (SmolLM2-135M, fp32 on one CPU core; docs/explanation/exposure.md): on three
built-in references of 300–560 tokens, the mean specification loss after 10 epochs was 0.96 at 1e-3
on q/k/v/o, 0.12 at 3e-3 on q/k/v/o and 0.017 at 3e-3 on every linear projection (attention and MLP;
11% more CPU time per step). On a half of two tasks, 10 epochs at 3e-3 ended at 0.032 (5e-3: 0.030)
and sampled outputs at temperature 0.7 drifted from the reference (normalised edit distance 0.06–0.51,
none graded correct in the pipeline); 15 epochs ended at 0.005 and all three samples reproduced it
(0.01). Three epochs, even at 1e-3, left the loss at 2.4: appendix E's dose teaches a model 100×
smaller than the paper's little of its references.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, replace
from typing import Any

from ..errors import UsageProblem
from .finetune import FinetuneSettings


APPENDIX_E_MODULES = FinetuneSettings().target_modules  # q, k, v and o projections
#: Every linear projection of a Llama-style block: attention and MLP (SmolLM2, Qwen, Gemma name them so).
ALL_LINEAR = (*APPENDIX_E_MODULES, "gate_proj", "up_proj", "down_proj")


@dataclass(frozen=True)
class Dose:
    """A named exposure dose: epochs and peak learning rate over appendix E's other settings."""

    name: str
    epochs: int
    learning_rate: float
    summary: str
    target_modules: tuple[str, ...] = APPENDIX_E_MODULES

    def overrides(self) -> dict[str, Any]:
        """The FinetuneSettings fields this dose sets."""
        return {"epochs": self.epochs, "learning_rate": self.learning_rate, "target_modules": self.target_modules}

    def settings(self, base: FinetuneSettings = FinetuneSettings()) -> FinetuneSettings:
        """``base`` with this dose's epochs, learning rate and LoRA modules."""
        return replace(base, **self.overrides())

    def to_dict(self) -> dict[str, Any]:
        return {**asdict(self), "target_modules": list(self.target_modules)}


#: ``paper`` is appendix E; ``strong`` (see the module's docstring) makes a small model reproduce what it saw.
DOSES: dict[str, Dose] = {
    "paper": Dose("paper", 3, 2e-4, "appendix E: 3 epochs, learning rate 2e-4, LoRA on q/k/v/o"),
    "strong": Dose("strong", 15, 3e-3, "15 epochs, learning rate 3e-3, LoRA on every linear projection "
                   "(attention and MLP): the seen references reproduced", ALL_LINEAR),
}


def get_dose(name: str) -> Dose:
    """The dose called ``name``; a one-line error naming the choices otherwise."""
    try:
        return DOSES[name]
    except KeyError:
        raise UsageProblem(f"unknown dose {name!r}; choose one of {', '.join(DOSES)}") from None
