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
    """Where facts live when the owner bounds them (:class:`FactsByComponent`): found, stored and
    counted."""

    def peek(self, key: Hashable) -> tuple[int, ...] | None: ...

    def __setitem__(self, key: Hashable, value: tuple[int, ...]) -> None: ...

    def __len__(self) -> int: ...


Group = dict[Hashable, tuple[int, ...]]


class GroupStore(Protocol):
    """A table of groups of facts by component (a content table of the project's database, whose
    ``peek`` reads without starting a computation)."""

    def peek(self, key: Hashable) -> Group | None: ...

    def __setitem__(self, key: Hashable, value: Group) -> None: ...


class FactsByComponent:
    """Facts in ``groups``, one entry per component (the first element of a fact's key, its deep
    digest) holding all facts about it: a content table then has one entry per component, not one
    per fact (861,000 facts after a check of sqlite3.c, where an entry costs several times a fact).

    A group is this store's own: it grows in place, and is stored again after each change so that
    the table weighs it anew."""

    def __init__(self, groups: GroupStore) -> None:
        self._groups = groups
        self._count = 0

    def peek(self, key: Hashable) -> tuple[int, ...] | None:
        component, rest = self._split(key)
        group = self._groups.peek(component)
        return group.get(rest) if group is not None else None

    def __setitem__(self, key: Hashable, value: tuple[int, ...]) -> None:
        component, rest = self._split(key)
        group = self._groups.peek(component)
        if group is None:
            group = {}
        self._count += rest not in group
        group[rest] = value
        self._groups[component] = group

    def __len__(self) -> int:
        """Facts stored so far (those the table dropped since included)."""
        return self._count

    @staticmethod
    def _split(key: Hashable) -> tuple[Hashable, Hashable]:
        if isinstance(key, tuple) and key:
            return key[0], key[1:]
        return key, ()


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
