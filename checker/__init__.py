"""CTL model checking of recursive state machines: pure functions, data in, verdicts out."""

from checker.api import STRATEGIES, CheckResult, check
from checker.knowledge import KnowledgeBase
from checker.witness import Step

__all__ = ["STRATEGIES", "CheckResult", "KnowledgeBase", "Step", "check"]
