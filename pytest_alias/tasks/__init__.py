"""Benchmark tasks (description + reference modules + cfg), their conditions, and the suites that hold them."""

from .model import Condition, Task

__all__ = ["Condition", "Task"]
