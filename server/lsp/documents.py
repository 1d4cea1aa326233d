"""Open C documents kept as UTF-8 bytes plus an incrementally maintained tree-sitter tree.

The server applies each LSP content change itself (rather than re-parsing the whole text) so that a
keystroke in a 50k-line file costs a tree edit and an incremental re-parse; the byte ranges that changed
are mapped to the top-level functions they touch so the log can say what was rebuilt and why.
"""

from __future__ import annotations

import bisect
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

import tree_sitter
from lsprotocol import types

from extractors.api import function_name, top_level_functions
from extractors.parse import LANGUAGE
from server.lsp.positions import UTF16, Columns

_NEWLINE = re.compile(rb"\n")
_ENCODING_ERRORS = "surrogatepass"

Point = tuple[int, int]


def new_parser() -> tree_sitter.Parser:
    """A tree-sitter-C parser; one per document so that parses in different threads never share one."""
    return tree_sitter.Parser(LANGUAGE)


def encode(text: str) -> bytes:
    return text.encode("utf-8", _ENCODING_ERRORS)


def decode(data: bytes) -> str:
    return data.decode("utf-8", _ENCODING_ERRORS)


def _line_starts(source: bytes) -> list[int]:
    return [0, *(m.end() for m in _NEWLINE.finditer(source))]


@dataclass(frozen=True)
class ByteEdit:
    """One applied change, in the terms ``tree_sitter.Tree.edit`` wants."""

    start_byte: int
    old_end_byte: int
    new_end_byte: int
    start_point: Point
    old_end_point: Point
    new_end_point: Point


@dataclass
class Document:
    """One open C file: its text (bytes), version and current syntax tree."""

    uri: str
    path: str
    version: int
    source: bytes
    columns: Columns = field(default=UTF16, repr=False)
    parser: tree_sitter.Parser = field(default_factory=new_parser, repr=False)
    tree: tree_sitter.Tree = field(init=False, repr=False)
    line_starts: list[int] = field(init=False, repr=False)
    _text: str | None = field(default=None, init=False, repr=False)

    def __post_init__(self) -> None:
        self.tree = self.parser.parse(self.source)
        self.line_starts = _line_starts(self.source)

    @classmethod
    def from_text(cls, uri: str, path: str, version: int, text: str, columns: Columns = UTF16) -> Document:
        return cls(uri, path, version, encode(text), columns)

    @property
    def text(self) -> str:
        if self._text is None:
            self._text = decode(self.source)
        return self._text

    def line_text(self, line: int) -> str:
        """Text of ``line`` without its line break ('' past the end)."""
        if line < 0 or line >= len(self.line_starts):
            return ""
        start = self.line_starts[line]
        end = self.line_starts[line + 1] - 1 if line + 1 < len(self.line_starts) else len(self.source)
        raw = self.source[start:end]
        if raw.endswith(b"\r"):
            raw = raw[:-1]
        return decode(raw)

    def locate(self, position: types.Position) -> tuple[int, Point]:
        """Byte offset and tree-sitter point of an LSP position, clamped into the document."""
        if position.line >= len(self.line_starts):
            end = len(self.source)
            last = len(self.line_starts) - 1
            return end, (last, end - self.line_starts[last])
        line = max(position.line, 0)
        text = self.line_text(line)
        column = self.columns.to_codepoints(text, position.character)
        byte_column = len(encode(text[:column]))
        return self.line_starts[line] + byte_column, (line, byte_column)

    def apply_changes(
        self, changes: Sequence[types.TextDocumentContentChangeEvent], version: int
    ) -> list[tuple[int, int]]:
        """Apply LSP changes in order and re-parse once; return changed byte ranges in the new text.

        The previous tree is copied before being edited because a background check may still be
        reading it.
        """
        old_tree = self.tree.copy()
        ranges: list[tuple[int, int]] = []
        full_reparse = False
        for change in changes:
            if isinstance(change, types.TextDocumentContentChangeWholeDocument):
                self.source = encode(change.text)
                self.line_starts = _line_starts(self.source)
                full_reparse = True
                ranges = [(0, len(self.source))]
                continue
            edit = self._apply_one(change)
            if not full_reparse:
                old_tree.edit(
                    edit.start_byte,
                    edit.old_end_byte,
                    edit.new_end_byte,
                    edit.start_point,
                    edit.old_end_point,
                    edit.new_end_point,
                )
            ranges = [_shift(r, edit) for r in ranges]
            ranges.append((edit.start_byte, edit.new_end_byte))
        self.version = version
        self._text = None
        if full_reparse:
            self.tree = self.parser.parse(self.source)
            return [(0, len(self.source))]
        new_tree = self.parser.parse(self.source, old_tree)
        ranges.extend((r.start_byte, r.end_byte) for r in old_tree.changed_ranges(new_tree))
        self.tree = new_tree
        return ranges

    def _apply_one(self, change: types.TextDocumentContentChangePartial) -> ByteEdit:
        start_byte, start_point = self.locate(change.range.start)
        old_end_byte, old_end_point = self.locate(change.range.end)
        if old_end_byte < start_byte:
            start_byte, start_point, old_end_byte, old_end_point = (
                old_end_byte,
                old_end_point,
                start_byte,
                start_point,
            )
        inserted = encode(change.text)
        self.source = self.source[:start_byte] + inserted + self.source[old_end_byte:]
        self._update_line_starts(start_byte, old_end_byte, inserted)
        newlines = inserted.count(b"\n")
        if newlines:
            new_end_point = (start_point[0] + newlines, len(inserted) - inserted.rfind(b"\n") - 1)
        else:
            new_end_point = (start_point[0], start_point[1] + len(inserted))
        return ByteEdit(
            start_byte,
            old_end_byte,
            start_byte + len(inserted),
            start_point,
            old_end_point,
            new_end_point,
        )

    def _update_line_starts(self, start: int, old_end: int, inserted: bytes) -> None:
        """Patch the line table around an edit instead of rescanning a possibly huge file."""
        starts = self.line_starts
        keep = bisect.bisect_right(starts, start)
        after = bisect.bisect_right(starts, old_end)
        delta = len(inserted) - (old_end - start)
        new = [start + m.end() for m in _NEWLINE.finditer(inserted)]
        self.line_starts = starts[:keep] + new + [x + delta for x in starts[after:]]

    def functions_in(self, ranges: Iterable[tuple[int, int]]) -> set[str]:
        """Names of the top-level function definitions overlapping any of the byte ranges."""
        spans = sorted(ranges)
        if not spans:
            return set()
        names: set[str] = set()
        for node in top_level_functions(self.tree.root_node):
            if any(s <= node.end_byte and e >= node.start_byte for s, e in spans):
                name = function_name(node)
                if name:
                    names.add(name)
        return names


def _shift(span: tuple[int, int], edit: ByteEdit) -> tuple[int, int]:
    """Move a range computed before ``edit`` into the coordinates after it."""

    def move(offset: int) -> int:
        if offset <= edit.start_byte:
            return offset
        if offset >= edit.old_end_byte:
            return offset + edit.new_end_byte - edit.old_end_byte
        return edit.new_end_byte

    return move(span[0]), move(span[1])
