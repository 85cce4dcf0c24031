"""The prompts a model sees: the frontier prompt (paper appendix A) and the fine-tuning prompt (appendix E)."""

from __future__ import annotations

from enum import Enum

from ..errors import UsageProblem

# Appendix A, verbatim; the description replaces {description}.
FRONTIER_TEMPLATE = (
    "You are a TLA+ specification engineer. You will receive a natural language description of a system. "
    "Produce a complete, syntactically correct TLA+ specification that faithfully captures the described "
    "behavior. The output must be a valid TLA+ module that passes the SANY parser. Include the MODULE "
    "declaration, EXTENDS, CONSTANTS, VARIABLES, Init, Next and Spec. Include all safety invariants and "
    "liveness properties described and any fairness conditions mentioned. Output only the TLA+ "
    "specification. System description: {description}"
)

# Appendix E: the instruction, then the description, then the line "TLA+ Specification:". Training
# (exposure/) and testing must render it through this one template, so the two never drift apart.
FINETUNE_INSTRUCTION = "Generate a TLA+ specification for the following system:"
FINETUNE_TEMPLATE = FINETUNE_INSTRUCTION + "\n{description}\nTLA+ Specification:\n"


class PromptStyle(str, Enum):
    """Which prompt a model gets: ``frontier`` (API models) or ``finetune`` (the LoRA models)."""

    FRONTIER = "frontier"
    FINETUNE = "finetune"


def frontier_prompt(description: str) -> str:
    """The appendix A instruction with ``description`` filled in."""
    # str.replace, not str.format: descriptions may hold braces (TLA+ sets, records).
    return FRONTIER_TEMPLATE.replace("{description}", description.strip())


def finetune_prompt(description: str) -> str:
    """The appendix E prompt: instruction line, description, then ``TLA+ Specification:``."""
    return FINETUNE_TEMPLATE.replace("{description}", description.strip())


def render_prompt(description: str, style: PromptStyle | str = PromptStyle.FRONTIER) -> str:
    """The prompt of ``style`` (a ``PromptStyle`` or its value) for ``description``."""
    try:
        chosen = PromptStyle(style)
    except ValueError:
        known = ", ".join(s.value for s in PromptStyle)
        raise UsageProblem(f"unknown prompt style {style!r}; choose one of {known}") from None
    return frontier_prompt(description) if chosen is PromptStyle.FRONTIER else finetune_prompt(description)
