"""Benchmark tasks (description + reference modules + cfg), their conditions, and the suites that hold them."""

from .model import CONDITION_KINDS, Condition, Task

__all__ = ["CONDITION_KINDS", "Condition", "Task"]
