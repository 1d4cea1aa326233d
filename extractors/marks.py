"""Marks: facts about a function as a whole that its own text decides (a statement no path
reaches, a local nobody reads), each placed on one source range.

A mark is made when the function's model is built (it depends on the function's text and the
file's context only, like the CFG, so it is keyed and reused with the model), and the
``function``-scope rules check it (:mod:`extractors.mark_check`). Ranges are in the CFG's frame:
rows count from the function's first line, columns count characters, so a mark moves with its
function exactly as the CFG's nodes do.
"""

from __future__ import annotations

from dataclasses import dataclass

from tree_sitter import Node as TSNode

from extractors.parse import short, text_of

Span = tuple[int, int, int, int]  # start row, start column, end row, end column


@dataclass(frozen=True)
class Mark:
    """``atom`` holds at ``at`` (whose source text is ``text``); ``var`` names what it is about
    (a variable, or "" for code), ``cause`` the step that explains it (the statement that ends
    control before unreachable code), if any."""

    atom: str
    var: str
    at: Span
    text: str
    cause: tuple[Span, str] | None = None


class Frame:
    """Converts tree positions (bytes, rows of the parse) to the CFG's frame (see the module)."""

    def __init__(self, lines: list[bytes], row_base: int) -> None:
        self.lines = lines
        self.row_base = row_base

    def col(self, row: int, byte_col: int) -> int:
        if 0 <= row < len(self.lines):
            return len(self.lines[row][:byte_col].decode("utf-8", "replace"))
        return byte_col

    def span(self, n: TSNode) -> Span:
        (r0, c0), (r1, c1) = n.start_point, n.end_point
        r0 -= self.row_base
        r1 -= self.row_base
        return r0, self.col(r0, c0), r1, self.col(r1, c1)

    def step(self, n: TSNode) -> tuple[Span, str]:
        return self.span(n), short(text_of(n))
