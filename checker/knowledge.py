"""The knowledge base κ: truth values per (component, context, subformula), kept across checks.

Keys use the component's *deep* digest (its content and everything it can call) and formulas as
values, never names or indices of one check, so an entry is a fact that stays true for as long as
that key can be formed again: after an edit, every entry of an unchanged component whose callees
are unchanged is found again, and nothing about a changed one is.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from typing import Protocol

from checker.bounded import drop_oldest
from checker.ternary import UNKNOWN


class FactStore(Protocol):
    """Where facts live when the owner bounds them (a content table of the project's database,
    whose ``peek`` reads without starting a computation): found, stored and counted."""

    def peek(self, key: Hashable) -> tuple[int, ...] | None: ...

    def __setitem__(self, key: Hashable, value: tuple[int, ...]) -> None: ...

    def __len__(self) -> int: ...


class _BoundedFacts:
    """A dict of facts holding at most ``max_entries``, the oldest dropped first."""

    def __init__(self, max_entries: int) -> None:
        self.facts: dict[Hashable, tuple[int, ...]] = {}
        self.max_entries = max_entries

    def peek(self, key: Hashable) -> tuple[int, ...] | None:
        return self.facts.get(key)

    def __setitem__(self, key: Hashable, value: tuple[int, ...]) -> None:
        new = key not in self.facts
        self.facts[key] = value
        if new:
            drop_oldest(self.facts, self.max_entries)

    def __len__(self) -> int:
        return len(self.facts)


class KnowledgeBase:
    """Facts in ``store`` (the owner's, under its bound), or else in a dict of their own holding at
    most ``max_entries``."""

    def __init__(self, max_entries: int = 200_000, store: FactStore | None = None) -> None:
        self._facts: FactStore = store if store is not None else _BoundedFacts(max_entries)
        self.hits = 0

    def __len__(self) -> int:
        return len(self._facts)

    def get(self, key: Hashable) -> tuple[int, ...] | None:
        v = self._facts.peek(key)
        if v is not None:
            self.hits += 1
        return v

    def merge(self, key: Hashable, values: Sequence[int]) -> None:
        """Add what ``values`` know; known values never become unknown again."""
        old = self._facts.peek(key)
        new = tuple(values)
        if old is None:
            self._facts[key] = new
        elif old != new:
            self._facts[key] = tuple(o if n == UNKNOWN else n for o, n in zip(old, new, strict=True))
