"""Seed 004 §7 Test 4: Kleene operators and the join, checked against their truth-set definitions."""

from __future__ import annotations

import itertools

import pytest

from checker.ternary import FF, TT, UNKNOWN, join, t_and, t_not, t_or

M = UNKNOWN
# a value as the set of truth values it may still take
POSSIBLE = {TT: {True}, FF: {False}, M: {True, False}}


def _from_set(values: set[bool]) -> int:
    return {frozenset({True}): TT, frozenset({False}): FF}.get(frozenset(values), M)


def test_notes_cases() -> None:
    assert t_or(TT, M) == TT
    assert t_or(FF, M) == M
    assert t_and(FF, M) == FF
    assert t_not(M) == M
    assert join(TT, TT) == TT
    assert join(TT, FF) == M
    assert join(M, FF) == M


@pytest.mark.parametrize(("a", "b"), list(itertools.product((TT, FF, M), repeat=2)))
def test_operators_are_the_strongest_sound_kleene_values(a: int, b: int) -> None:
    pa, pb = POSSIBLE[a], POSSIBLE[b]
    assert t_or(a, b) == _from_set({x or y for x in pa for y in pb})
    assert t_and(a, b) == _from_set({x and y for x in pa for y in pb})
    assert t_not(a) == _from_set({not x for x in pa})
    assert join(a, b) == (a if a == b else M)
