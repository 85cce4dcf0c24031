"""ALIAS: evaluate LLM-written TLA+ specifications, and whether a score comes from skill or memory."""

__version__ = "0.1.0"
