"""The span an edit changed (``text_splice``), against the character-by-character definition."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from extractors.common_ends import BLOCK as _BLOCK
from server.lsp.text_splice import Splice, changed_span, splice


def slow_span(old: str, new: str) -> tuple[int, int]:
    """(common prefix, common suffix not overlapping it), one character at a time."""
    start = 0
    while start < min(len(old), len(new)) and old[start] == new[start]:
        start += 1
    tail = 0
    while tail < min(len(old), len(new)) - start and old[-1 - tail] == new[-1 - tail]:
        tail += 1
    return start, tail


def check(old: str, new: str) -> None:
    change = changed_span(old, new)
    assert splice(old, change) == new
    start, tail = slow_span(old, new)
    assert (change.start, len(old) - change.end) == (start, tail)


ALPHABET = st.sampled_from("ab\n é😀")
texts = st.text(ALPHABET, max_size=40)


@given(texts, texts)
def test_the_span_is_the_shortest_that_makes_the_new_text(old: str, new: str) -> None:
    check(old, new)


@settings(max_examples=60)
@given(
    st.integers(0, 3 * _BLOCK),
    st.integers(0, 3 * _BLOCK),
    st.integers(0, 20),
    st.text(ALPHABET, max_size=20),
    st.sampled_from(["ab\n", "a", "é😀x"]),
)
def test_edits_of_texts_longer_than_a_block(
    at: int, length: int, removed: int, inserted: str, unit: str
) -> None:
    """Blocks of 64k characters are compared at once; an edit on either side of a block's edge, or
    one that repeats the text around it (where prefix and suffix could overlap), is still found."""
    old = (unit * (length // len(unit) + 1))[:length]
    at = min(at, len(old))
    new = old[:at] + inserted + old[at + removed :]
    check(old, new)


@pytest.mark.parametrize("edge", [1, 2])
@pytest.mark.parametrize("offset", [-1, 0, 1])
@pytest.mark.parametrize("from_end", [False, True])
def test_edits_at_the_edges_of_blocks(edge: int, offset: int, from_end: bool) -> None:
    """A one-character change just before, at and after a block's edge, counted from either end."""
    old = "".join(chr(ord("a") + i % 23) for i in range(3 * _BLOCK + 5))
    at = edge * _BLOCK + offset
    if from_end:
        at = len(old) - 1 - at
    for new in (old[:at] + "#" + old[at + 1 :], old[:at] + old[at + 1 :], old[:at] + "#" + old[at:]):
        check(old, new)


def test_a_splice_of_another_text_is_refused() -> None:
    change = changed_span("int a;\n", "int ab;\n")
    with pytest.raises(ValueError):
        splice("int b;;\n", change)
    with pytest.raises(ValueError):
        splice("int b;\n", Splice(5, 9, "", 7))
