"""``reach_union`` against a plain walk per start, on random graphs with cycles and missing parts."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from checker.graphs import closure, reach_union

graphs = st.integers(1, 9).flatmap(
    lambda n: st.tuples(
        st.just(n),
        st.lists(st.tuples(st.integers(0, n - 1), st.integers(0, n - 1)), max_size=3 * n),
        st.sets(st.integers(0, n - 1), max_size=2),
    )
)


@settings(max_examples=300, deadline=None)
@given(graphs, st.lists(st.integers(0, 8), min_size=1, max_size=6))
def test_reach_union_equals_a_walk_from_each_start(graph: tuple[int, list[tuple[int, int]], set[int]],
                                                   starts: list[int]) -> None:
    n, edges, unknown = graph
    succ = {v: [t for s, t in edges if s == v] for v in range(n)}

    def local(v: int) -> frozenset[int] | None:
        return None if v in unknown else frozenset({v * 10})

    memo: dict[int, frozenset[int] | None] = {}
    for start in (s % n for s in starts):  # one memo across starts, as a projector keeps it
        reached = closure([start], succ.__getitem__)
        expected = None if reached & unknown else frozenset(v * 10 for v in reached)
        assert reach_union(start, succ.__getitem__, local, memo) == expected
