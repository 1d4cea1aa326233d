"""The blocked line table against a plain list of starts, under random splices."""

from __future__ import annotations

import bisect

from hypothesis import given, settings
from hypothesis import strategies as st

from server.lsp import line_table
from server.lsp.line_table import LineTable


@st.composite
def starts_and_splices(draw: st.DrawFn) -> tuple[list[int], list[tuple[int, int, list[int], int]]]:
    gaps = draw(st.lists(st.integers(1, 5), min_size=0, max_size=60))
    starts = [0]
    for g in gaps:
        starts.append(starts[-1] + g)
    model = list(starts)
    splices = []
    for _ in range(draw(st.integers(1, 8))):
        keep = draw(st.integers(1, len(model)))
        after = draw(st.integers(keep, len(model)))
        low = model[keep - 1]
        delta = draw(st.integers(-(model[after] - low - 1) if after < len(model) else -3, 20))
        high = model[after] + delta if after < len(model) else low + 40
        count = draw(st.integers(0, 4))
        new = sorted(draw(st.sets(st.integers(low + 1, max(low + 1, high - 1)), max_size=count)))
        new = [n for n in new if low < n and (after == len(model) or n < high)]
        splices.append((keep, after, new, delta))
        model = model[:keep] + new + [s + delta for s in model[after:]]
    return starts, splices


@settings(max_examples=300, deadline=None)
@given(case=starts_and_splices(), block=st.sampled_from([1, 2, 3, 8]))
def test_splices_match_a_flat_list(case: tuple[list[int], list[tuple[int, int, list[int], int]]], block: int) -> None:
    starts, splices = case
    saved = line_table.BLOCK
    line_table.BLOCK = block  # small blocks: every edit crosses, splits and merges them
    try:
        table, model = LineTable(starts), list(starts)
        for keep, after, new, delta in splices:
            table.splice(keep, after, new, delta)
            model = model[:keep] + new + [s + delta for s in model[after:]]
            assert list(table) == model and len(table) == len(model) and table == model
            assert [table[i] for i in range(len(model))] == model and table[-1] == model[-1]
            for offset in range(-1, model[-1] + 3):
                assert table.bisect_left(offset) == bisect.bisect_left(model, offset)
                assert table.bisect_right(offset) == bisect.bisect_right(model, offset)
    finally:
        line_table.BLOCK = saved
