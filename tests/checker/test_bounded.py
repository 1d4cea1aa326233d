"""``drop_oldest`` keeps a cache within its bound and keeps the newest entries."""

from __future__ import annotations

from checker.bounded import drop_oldest
from checker.knowledge import KnowledgeBase


def test_a_full_table_keeps_its_newest_entries_within_the_bound() -> None:
    table: dict[int, int] = {}
    for i in range(10_000):
        table[i] = i
        drop_oldest(table, 800)
        assert len(table) <= 800
    assert list(table) == list(range(10_000 - len(table), 10_000))
    assert len(table) >= 700


def test_a_full_knowledge_base_forgets_its_oldest_facts_first() -> None:
    kb = KnowledgeBase(max_entries=64)
    for i in range(1000):
        kb.merge(("k", i), (1,))
    assert len(kb) <= 64
    assert kb.get(("k", 999)) == (1,) and kb.get(("k", 0)) is None
