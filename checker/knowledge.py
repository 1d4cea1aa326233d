"""The knowledge base κ: truth values per (component, context, subformula), kept across checks.

Keys use the component's *deep* digest (its content and everything it can call) and formulas as
values, never names or indices of one check, so an entry is a fact that stays true for as long as
that key can be formed again: after an edit, every entry of an unchanged component whose callees
are unchanged is found again, and nothing about a changed one is.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence

from checker.bounded import drop_oldest
from checker.ternary import UNKNOWN


class KnowledgeBase:
    def __init__(self, max_entries: int = 200_000) -> None:
        self._facts: dict[Hashable, tuple[int, ...]] = {}
        self.max_entries = max_entries
        self.hits = 0

    def __len__(self) -> int:
        return len(self._facts)

    def get(self, key: Hashable) -> tuple[int, ...] | None:
        v = self._facts.get(key)
        if v is not None:
            self.hits += 1
        return v

    def merge(self, key: Hashable, values: Sequence[int]) -> None:
        """Add what ``values`` know; known values never become unknown again."""
        old = self._facts.get(key)
        new = tuple(values)
        if old is None:
            self._facts[key] = new
            drop_oldest(self._facts, self.max_entries)
        elif old != new:
            self._facts[key] = tuple(o if n == UNKNOWN else n for o, n in zip(old, new, strict=True))

    def clear(self) -> None:
        self._facts.clear()
