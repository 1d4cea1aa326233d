"""``kept_graph.contract`` with the skeleton's base equals contracting from scratch, and both equal
the walk ``checker.graphs.through_passable`` gives (hypothesis, random graphs and projections)."""

from __future__ import annotations

from itertools import compress

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from checker.graphs import through_passable
from extractors.kept_graph import base_of, contract, contract_all


def by_through_passable(succ: list[list[int]], kept: list[bool]) -> dict[int, list[int]]:
    resolve = through_passable(succ.__getitem__, lambda j: not kept[j])
    out: dict[int, list[int]] = {}
    for i in compress(range(len(kept)), kept):
        got: dict[int, None] = {}
        for j in succ[i]:
            for t in resolve(j):
                got[t] = None
        out[i] = list(got)
    return out


@st.composite
def projections(draw: st.DrawFn) -> tuple[list[list[int]], list[bool], list[list[int]], list[bool], bool]:
    n = draw(st.integers(2, 24))
    forward = draw(st.booleans())  # a DAG of forward edges plus kept loop heads, as CFGs are

    def targets(i: int, total: int) -> list[int]:
        lo = i + 1 if forward and i + 1 < total else 0
        return draw(st.lists(st.integers(lo, total - 1), max_size=3, unique=True))

    succ = [targets(i, n) for i in range(n)]
    kept = [draw(st.booleans()) for _ in range(n)]
    kept[0] = kept[n - 1] = True
    for i in range(n):
        if any(j <= i for j in succ[i]):
            kept[i] = kept[i] or forward  # back edges only from kept nodes in the CFG-like case
    succ.append([n])  # an unkept dead end no kept node leads to, as a folded sink
    kept.append(False)
    n += 1
    extra = draw(st.integers(0, 3))
    total = n + extra
    mine_succ = list(succ)  # shares the unchanged lists, as a projection does
    mine_kept = list(kept) + [True] * extra
    for i in draw(st.lists(st.integers(0, n - 1), max_size=4, unique=True)):
        mine_kept[i] = draw(st.booleans())
    for i in draw(st.lists(st.integers(0, n - 2), max_size=3, unique=True)):
        mine_succ[i] = draw(st.lists(st.integers(0, total - 1), max_size=3, unique=True))
    for _ in range(n, total):
        mine_succ.append(draw(st.lists(st.integers(0, n - 1), min_size=1, max_size=2, unique=True)))
    return succ, kept, mine_succ, mine_kept, forward


@pytest.mark.slow
@settings(max_examples=600, deadline=None)
@given(projections())
def test_the_base_changes_nothing(
    case: tuple[list[list[int]], list[bool], list[list[int]], list[bool], bool],
) -> None:
    succ, kept, mine_succ, mine_kept, forward = case
    base = base_of(succ, kept)
    assert base.reach is not None or not forward  # no cycle is seen where there is none
    expected = by_through_passable(mine_succ, mine_kept)
    assert {i: list(t) for i, t in contract_all(mine_succ, mine_kept).items()} == expected
    assert {i: list(t) for i, t in contract(mine_succ, mine_kept, base).items()} == expected
    assert {i: list(t) for i, t in contract(succ, kept, base).items()} == by_through_passable(succ, kept)


def test_a_node_kept_in_a_long_chain_splits_it() -> None:
    # unkept nodes between kept ends; the projection keeps one in the middle
    n = 2000
    succ = [[i + 1] for i in range(n - 1)] + [[]]
    kept = [i in (0, n - 1) for i in range(n)]
    base = base_of(succ, kept)
    assert base.reach is not None and base.targets[0] == (n - 1,)
    mine = list(kept)
    mine[1000] = True
    got = contract(succ, mine, base)
    assert got == {0: (1000,), 1000: (n - 1,), n - 1: ()}
