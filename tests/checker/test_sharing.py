"""``checker.sharing``: equal values become one object, of their own type, and the table stays bounded."""

from __future__ import annotations

from typing import NamedTuple

import pytest

from checker import sharing
from checker.sharing import shared


@pytest.fixture
def small_table(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(sharing, "GENERATION", 4)
    monkeypatch.setattr(sharing, "_tables", {})


def test_equal_sets_made_apart_are_one_object() -> None:
    a, b = frozenset({"use", "free"}), frozenset(["free", "use"])
    assert a is not b
    assert shared(a) is shared(b)
    assert shared(a) == a


def test_empty_sets_are_one_object() -> None:
    assert shared(frozenset()) is shared(frozenset(set()))


def test_a_set_in_use_stays_shared_and_the_table_is_bounded(small_table: None) -> None:
    kept = shared(frozenset({"kept"}))
    for i in range(40):
        shared(frozenset({i}))
        assert shared(frozenset({"kept"})) is kept  # found in the older generation: moves on
        table = sharing._tables[frozenset]
        assert len(table.young) <= 4 and len(table.old) <= 4


def test_a_set_nobody_asks_for_is_forgotten_after_two_generations(small_table: None) -> None:
    first = shared(frozenset({"once"}))
    for i in range(3):
        shared(frozenset({i}))
    assert shared(frozenset({"once"})) is first  # still in a generation
    for i in range(100, 110):
        shared(frozenset({i}))
    again = frozenset({"once"})
    assert shared(again) is again  # both generations it was in are gone


class _Answer(NamedTuple):
    kind: str
    answer: bool


def test_a_named_tuple_is_never_handed_out_for_an_equal_plain_tuple() -> None:
    plain = ("mention", True)
    named = _Answer("mention", True)
    assert plain == named
    assert type(shared(plain)) is tuple
    assert type(shared(named)) is _Answer
    assert shared(_Answer("mention", True)) is shared(named)


def test_a_named_table_keeps_its_values_apart_from_the_types_table(small_table: None) -> None:
    """A kind's values neither crowd the type's table nor come back from it."""
    pair = ("c1", "c2")
    assert shared(pair, "edges") is pair
    for i in range(10):
        shared(("c1", f"c{i + 3}"), "edges")
    assert tuple not in sharing._tables
    other = ("c1", "c2")
    assert shared(other) is other  # the plain tuple table never saw the edge
